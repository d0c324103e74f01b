/* SPDX-License-Identifier: MIT */
/*
 * The benchmark's BPF-style program, included twice by bench_bpf.c's two halves: once with the
 * checks (plain include) and once with KFSIM_BPF_NO_CHECKS, with BENCH_NAME() giving each copy
 * its own names.  One cycle = lock, first, remove, unlock, re-key, lock, add, unlock.
 */
#include <kfsim/bpf_experimental.h>

struct BENCH_NAME(node) {
	u64 key;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(BENCH_NAME(node), BTF_FIELD(BENCH_NAME(node), node));

struct BENCH_NAME(section) {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root;
};
KFSIM_BTF_STRUCT(BENCH_NAME(section), BTF_FIELD(BENCH_NAME(section), lock),
		 BTF_CONTAINS(BENCH_NAME(section), root, BENCH_NAME(node), node));

static bool BENCH_NAME(less)(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct BENCH_NAME(node), node)->key <
	       container_of(b, const struct BENCH_NAME(node), node)->key;
}
