/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_BPF_ORACLE_PORT_H
#define KFSIM_TESTS_BPF_ORACLE_PORT_H
/*
 * kfsim's versions of the kernel's BPF graph selftest programs (tools/testing/selftests/bpf/
 * progs/{rbtree,rbtree_fail,linked_list,linked_list_fail,refcounted_kptr,refcounted_kptr_fail,
 * rbtree_btf_fail__*}.c, 6.12), written in kfsim's API under the same names, for the oracle
 * test that loads the originals into the running kernel and compares verdicts.
 *
 * A port keeps the original's calls, order, branches and data layout (the "private(X)" globals
 * become one struct per section, laid out as the compiler laid out the section; a map value is
 * a section named after its map).  What C cannot say in kfsim's API (a type id of "int", a call
 * through a function pointer) is written the nearest way and commented.
 */
#include <kfsim/bpf_experimental.h>

/**
 * struct oracle_prog - one program of a selftest object
 * @name: the program's name (its C function in the original)
 * @prog: kfsim's version
 * @type: the program type its SEC() names
 */
struct oracle_prog {
	const char *name;
	int (*prog)(void *ctx);
	enum kfsim_bpf_prog_type type;
};

/**
 * struct oracle_object - one selftest object file
 * @name: its name ("rbtree_fail")
 * @init: (re)create its sections and maps, empty, as loading the object does
 * @progs: its programs
 * @nr: how many
 */
struct oracle_object {
	const char *name;
	void (*init)(void);
	const struct oracle_prog *progs;
	size_t nr;
};

#define ORACLE_PROG(fn) {#fn, fn, KFSIM_BPF_PROG_SCHED_CLS}
#define ORACLE_PROG_TYPE(fn, type) {#fn, fn, type}

/* Register @data (of struct @type) as the section or map value @name, or abort the child. */
#define ORACLE_SECTION(data, type, name) oracle_section(&(data), kfsim_btf_of(type), name, true)
void oracle_section(void *data, struct kfsim_btf_struct *s, const char *name, bool must_load);

extern const struct oracle_object oracle_linked_list, oracle_linked_list_fail, oracle_rbtree,
	oracle_rbtree_fail, oracle_refcounted_kptr, oracle_refcounted_kptr_fail,
	oracle_rbtree_btf_fail__add_wrong_type, oracle_rbtree_btf_fail__wrong_node_type;

#endif /* KFSIM_TESTS_BPF_ORACLE_PORT_H */
