/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPFCC_H
#define KFSIM_BPFCC_H
/*
 * kfsim-bpf-cc: a BPF C file, unchanged, built twice - once with clang -target bpf for its BTF
 * (and for the running kernel), once natively against kfsim - and linked with the runner
 * (src/bpfcc/runtime/).  One file per step: bpfcc_main.c drives the compilers, bpfcc_check.c
 * refuses kfuncs and helpers kfsim does not have, bpfcc_gen.c writes the headers from the BTF.
 */
#include <stdbool.h>
#include <stdio.h>

struct btf;
struct bpf_object;

#define BPFCC_MAX_SECS 16384

/**
 * struct bpfcc_unit - the file being built
 * @source: absolute path of the BPF C file
 * @display: the path as the user gave it (for messages)
 * @object: the BPF object clang produced
 * @name: the object's name (file name without ".c": "rbtree_fail")
 * @bo: the object opened by libbpf (its BTF has the data sections' final offsets)
 */
struct bpfcc_unit {
	const char *source;
	const char *display;
	const char *object;
	const char *name;
	struct bpf_object *bo;
};

/* The first line of @u's source where @ident is followed by "(" (not a declaration), or 0. */
int bpfcc_source_line(const struct bpfcc_unit *u, const char *ident);

/*
 * Refuse what the native build cannot run: an extern kfunc kfsim does not provide, a helper the
 * runtime does not provide.  Prints "FILE:LINE: ..." for each; returns how many were found.
 */
int bpfcc_check(const struct bpfcc_unit *u);

/*
 * Write kfsim_bpfcc_types.h (included before the program: the type-id map) and
 * kfsim_bpfcc_tables.h (after it: types, sections, maps, programs) into @dir.
 * Return: 0, or -errno (printed).
 */
int bpfcc_generate(const struct bpfcc_unit *u, struct btf *btf, const char *dir);

/* How many global (non-static) subprograms the object has: their entry is instrumented. */
int bpfcc_nr_global_subprogs(const struct bpfcc_unit *u, const struct btf *btf);

/*
 * After a first native build (@pass1): kfsim_bpfcc_order.h, which names each data variable's
 * section after its offset in the BPF object, so that the second build, linked with
 * --sort-section=name, lays the sections out as the BPF object does.
 */
int bpfcc_write_order(struct btf *btf, const char *pass1, const char *dir);

/*
 * Whether the first native build is needed at all: a SEC() data section ("private(A)") with
 * two or more variables, whose native order must be made the BPF object's.
 */
bool bpfcc_needs_order(const struct btf *btf);

/*
 * Write "static const struct kfsim_bpfrt_call kfsim_bpfcc_calls_@idx[]" for the program @fn: its
 * kfunc and helper calls with their source lines and instruction indexes in the program as
 * libbpf loads it, and "kfsim_bpfcc_accesses_@idx[]": its loads and stores through a register
 * other than the frame pointer, with their lines (bpfcc_insns.c).  Return: how many calls (and
 * in @nr_accesses how many accesses, in @leak_after_merge whether the verifier's walk meets a
 * call with two types before any leak, in @at_end what the verifier refuses of the whole
 * program once every instruction passed: "" for nothing), or -errno.
 */
int bpfcc_write_calls(FILE *f, const struct bpfcc_unit *u, const char *fn, unsigned int idx,
		      int *nr_accesses, int *leak_after_merge, char *at_end, size_t at_end_size);

/*
 * The functions whose address an instruction of the BPF object loads (ld_imm64 of a .text
 * function: the callbacks of bpf_loop(), bpf_for_each_map_elem(), bpf_rbtree_add()), each
 * once, into *@names (malloc()ed, as each name).  Return: how many, or -errno.
 */
int bpfcc_callbacks(const struct bpfcc_unit *u, char ***names);

struct bpf_insn;

/**
 * struct bpfcc_beyond - a load or store past the end of a bpf_obj_new() object
 * @type: the object's struct (NULL: the access stays inside every object it may reach)
 * @off: the access's offset from the object's start
 * @size: its width in bytes
 * @dead_ref: the access goes through a reference that is a scalar to the verifier on some path: a
 *	non-owning one bpf_spin_unlock invalidated (invalidate_non_owning_refs()) or an object
 *	bpf_kptr_xchg gave away (release_reference()); natively the node is alive
 * @after_merge: bpfcc_call_types()'s @after_merge for the instruction
 * @refused: the verifier's message for an access it refuses whatever the path ("" for none): a
 *	store into a map value's referenced __kptr field, a negative offset into an object, an
 *	access over an object's special field, one that leaves the member it starts in, starts in
 *	a hole or takes part of a pointer member (btf_struct_walk(); bpfcc_call_types.c)
 */
struct bpfcc_beyond {
	const char *type;
	int off;
	int size;
	bool dead_ref;
	unsigned char after_merge;
	char refused[192];
};

/**
 * struct bpfcc_root - what a load of a graph root's address (a global with a __contains tag)
 * gives the kfuncs that take it: the nodes of the struct it holds
 * @type: BTF id of that struct (0: the instruction loads no root)
 * @node_off: offset of its node member
 * @map_value: when the instruction loads a map's address instead, the BTF id of the map's value
 *	type (0: not a map, or a map without BTF): its lookups give a value of that struct, whose
 *	__kptr fields type what bpf_kptr_xchg() returns
 * @rodata: the instruction loads the address of a read-only global (.rodata): libbpf freezes
 *	that map, so the verifier knows the values loaded from it (constants, not data)
 * @rodata_off: with @rodata, the address's offset in that map's value (its section)
 * @rodata_size: with @rodata, the value's size (the section's)
 * @datasec: the instruction loads the address of a global in a data section (.data, .bss,
 *	.data.X): that section's BTF DATASEC, the map value's type (0: none)
 * @datasec_off: with @datasec, the address's offset in the section
 * @address: the instruction (a 64-bit load) is relocated: an address libbpf fills in (a map, a
 *	global, a function), not the constant it holds in the object
 * @map_key_size: when the instruction loads a map's address, the map's key size (0: not a map)
 * @map_value_size: likewise its value size: a lookup's value is that many bytes
 * @map_type: likewise its type (enum bpf_map_type)
 * @datasec_size: with @datasec, the section's size (the value of its map)
 */
struct bpfcc_root {
	__u32 type;
	int node_off;
	__u32 map_value;
	bool rodata;
	int rodata_off;
	unsigned int rodata_size;
	__u32 datasec;
	int datasec_off;
	bool address;
	unsigned int map_key_size;
	unsigned int map_value_size;
	unsigned int map_type;
	unsigned int datasec_size;
};

#define BPFCC_MAX_ARGS 5

/**
 * struct bpfcc_global_args - what the verifier makes of a global function's prototype
 * @refused: its refusal of the prototype alone ("Global function f() doesn't return scalar...",
 *	"arg#0 reference type('FWD S') size cannot be determined: -22"); "" for none
 * @mem_size: per argument, the bytes of memory a pointer argument stands for (maybe NULL); 0 for
 *	a scalar or a pointer kfsim leaves alone (the context, void *, a tagged argument)
 * @ctx_arg: per argument, a pointer to the program's context (PTR_TO_CTX: a uapi context struct)
 * @nr_args: its arguments
 */
struct bpfcc_global_args {
	char refused[160];
	int mem_size[BPFCC_MAX_ARGS];
	bool ctx_arg[BPFCC_MAX_ARGS];
	int nr_args;
	/* the main function's program type (enum bpf_prog_type): its context's rules; 0: none */
	unsigned int ctx_type;
	/*
	 * a bpf_for_each_map_elem() callback's arguments (map_set_for_each_callback_args()): per
	 * argument, the BTF id of the map value it points to (0: not one), and whether it is the
	 * map's key (mem_size its key_size)
	 */
	__u32 map_value[BPFCC_MAX_ARGS];
	bool map_key[BPFCC_MAX_ARGS];
	/* a callback's argument that is a scalar: the context every call passes as NULL */
	bool scalar_arg[BPFCC_MAX_ARGS];
	/* one that points into the caller's stack, at stack_off from its frame pointer */
	bool caller_stack[BPFCC_MAX_ARGS];
	long long stack_off[BPFCC_MAX_ARGS];
};

/*
 * Read the BTF prototype of function @name (bpfcc_subprogs.c, btf_prepare_func_args() of 6.18).
 * Return: 1 when it is a global function (@out filled), 0 when it is static or has no BTF.
 */
int bpfcc_global_args(const struct btf *btf, const char *name, struct bpfcc_global_args *out);

/**
 * struct bpfcc_subcall - a call of a global function, at its instruction
 * @name: the callee (NULL: the instruction calls no global function)
 * @func_nr: the callee's subprogram number, as the verifier's "func#N" counts (libbpf's order)
 * @args: the callee's prototype, as the verifier reads it
 * @ctx_mem: what the verifier says of the program's context given as memory, by program type
 *	(measured on the running 6.18)
 */
struct bpfcc_subcall {
	const char *name;
	int func_nr;
	struct bpfcc_global_args args;
	enum {
		BPFCC_CTX_MEM_UNKNOWN,	/* not measured: no refusal (a syscall program's is memory) */
		BPFCC_CTX_MEM_NOT_FP,	/* "R1 type=ctx expected=fp": tc, cgroup_skb, socket, xdp */
		BPFCC_CTX_MEM_READONLY, /* its last byte is not writable: kprobe, tracepoint, raw_tp */
	} ctx_mem;
};

/*
 * Mark in @differ (one per instruction) the calls of one BPF function (@insns, @cnt; @callee
 * names each call's kfunc or helper, NULL for anything else; @array_map marks the loads of an
 * array map's address; @roots says what each load of a root's address holds, may be NULL)
 * that objects of two types with different field records reach: the verifier's "same call
 * cannot be used with different types"; in @beyond (one per instruction) the loads and stores
 * past the end of an object the verifier refuses ("access beyond struct S at off N size M");
 * and in @non_owning_arg (one per instruction) the pushes and adds whose node may be a
 * non-owning result (bpf_list_front() and the like), and the drops whose object may be such a
 * result or one given to a push or add before (bpfcc_call_types.c); in @after_merge (one per
 * instruction, may be NULL) whether the verifier, in its walk order, reaches the instruction
 * after it met a call with two types (2), before (1), or met none (0); and in @leak_after_merge
 * (with @after_merge) whether it met such a call before any path leaked a reference.
 * @subcalls (one per instruction, may be NULL) names the calls of global functions, whose
 * arguments the verifier checks against their prototypes (refusals into @beyond); @entry, when
 * the function is itself global, is its own prototype: its pointer arguments may be NULL (the
 * main function's is one context argument).
 * Return: 0 or -ENOMEM.
 */
int bpfcc_call_types(const struct btf *btf, const struct bpf_insn *insns, unsigned long cnt,
		     const char *const *callee, const bool *array_map,
		     const struct bpfcc_root *roots, bool *differ, struct bpfcc_beyond *beyond,
		     bool *non_owning_arg, unsigned char *after_merge, bool *leak_after_merge,
		     const struct bpfcc_subcall *subcalls, const struct bpfcc_global_args *entry);

#endif /* KFSIM_BPFCC_H */
