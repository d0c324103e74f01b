/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPFRT_H
#define KFSIM_BPFRT_H
/*
 * The tables kfsim-bpf-cc generates from a BPF object's BTF (kfsim_bpfcc_tables.h, compiled
 * into the same translation unit as the program, after it) and the kfsim BPF runtime reads
 * (libkfsim_bpfrt.a: the runner's main()).  The program's translation unit also includes
 * vmlinux.h, so this header uses only C's own types.
 *
 * Offsets are those of the BPF object's BTF: the native compiler lays out every struct the same
 * way (both targets are LP64 and the opaque BPF types have the kernel's sizes); a variable's
 * place in its section is taken from its native address instead, so the linker may order a
 * section's variables as it likes.
 */

/** enum kfsim_bpfrt_kind - a special field's kind (the kernel's btf_field_type bits) */
enum kfsim_bpfrt_kind {
	KFSIM_BPFRT_SPIN_LOCK = 1 << 0,
	KFSIM_BPFRT_KPTR_REF = 1 << 3,
	KFSIM_BPFRT_LIST_HEAD = 1 << 4,
	KFSIM_BPFRT_LIST_NODE = 1 << 5,
	KFSIM_BPFRT_RB_ROOT = 1 << 6,
	KFSIM_BPFRT_RB_NODE = 1 << 7,
	KFSIM_BPFRT_REFCOUNT = 1 << 9,
};

/**
 * struct kfsim_bpfrt_field - one special field of a struct or a global variable
 * @kind: enum kfsim_bpfrt_kind
 * @name: its path ("node", "groot_nested.inner.root", "groot_array[1]")
 * @offset: from the start of the struct or variable
 * @size: its size
 * @contains: for a root: the BTF id of the struct its "contains:" tag names (0: no tag;
 *	      -1: the tag names a struct the BTF does not have); for a __kptr: the BTF id of the
 *	      struct it points to
 * @contains_node: for a root: the node member named by the tag
 */
struct kfsim_bpfrt_field {
	unsigned int kind;
	const char *name;
	unsigned int offset;
	unsigned int size;
	int contains;
	const char *contains_node;
};

/**
 * struct kfsim_bpfrt_type - one struct type of the program's BTF
 * @refused_members: its members the kernel's search for special fields refuses (not in
 *		     @fields): a __kptr to a struct the BTF only declares, a bitfield at a bit
 *		     offset that is no whole byte; with a special field beside them, the kernel
 *		     refuses the object's BTF (src/bpfcc/bpfcc_gen.c)
 */
struct kfsim_bpfrt_type {
	unsigned int btf_id;
	const char *name;
	unsigned int size;
	const struct kfsim_bpfrt_field *fields;
	unsigned int nr_fields;
	unsigned int refused_members;
};

/** struct kfsim_bpfrt_var - a global variable with special fields, in a data section */
struct kfsim_bpfrt_var {
	const char *section;
	const char *name;
	void *addr;
	unsigned int size;
	const struct kfsim_bpfrt_field *fields;
	unsigned int nr_fields;
};

/**
 * struct kfsim_bpfrt_map - a map of the ".maps" section
 * @name: the variable's name
 * @def: its native address (what the program passes to bpf_map_lookup_elem())
 * @type: BPF_MAP_TYPE_* number
 * @key_size: bytes (4 when the definition gives none)
 * @value_size: bytes
 * @max_entries: entries
 * @value_type: BTF id of the value struct (0: none or not a struct)
 * @values_off: for a map of maps: offset of the "values" array in the definition
 * @nr_values: how many initial inner maps the definition holds
 */
struct kfsim_bpfrt_map {
	const char *name;
	void *def;
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int value_type;
	unsigned int values_off;
	unsigned int nr_values;
};

/**
 * struct kfsim_bpfrt_call - a kfunc or helper call of a program, as the verifier numbers it
 * @name: the callee ("bpf_obj_new_impl", "bpf_kptr_xchg")
 * @file: the call's source file (base name), from the object's line info
 * @line: its line
 * @insn: the call's instruction index in the program as libbpf loads it (main function, then
 *	  the subprograms it reaches): what the verifier prints as alloc_insn=
 * @types_differ: objects of types with different field records reach this call on some paths
 *		  of its function (bpfcc_call_types.c): >= 6.18 refuses it
 * @non_owning_arg: a push or add whose node may be a non-owning result (bpf_list_front() and the
 *		    like) on some path of its function, or a bpf_obj_drop() whose object may be
 *		    such a result or one given to a push or add before (bpfcc_call_types.c):
 *		    refused
 * @after_merge: in the verifier's walk order, the call is first reached before (1) or after (2)
 *		 a call reached with two types' records, or no such call was met (0)
 */
struct kfsim_bpfrt_call {
	const char *name;
	const char *file;
	int line;
	int insn;
	int types_differ;
	int non_owning_arg;
	int after_merge;
};

/**
 * struct kfsim_bpfrt_access - a load or store of a program through a register (not the stack)
 * @file: its source file (base name)
 * @line: its line
 * @reg: the register holding the address: what "R%d invalid mem access" names
 * @beyond: the struct of a bpf_obj_new() object it reaches past the end of (NULL: none)
 * @beyond_off: then the access's offset from the object's start
 * @beyond_size: and its width
 * @dead_ref: it goes through a reference a bpf_spin_unlock() (non-owning) or bpf_kptr_xchg()
 *	(given away) made a scalar on some path
 * @after_merge: as struct kfsim_bpfrt_call's
 * @refused: the verifier's own message for this access on every path that reaches it, from the
 *	BPF object's types (NULL: none): a store into a map value's referenced __kptr field, a load
 *	or store at a negative offset of an object or over one of its special fields
 */
#define KFSIM_BPFRT_CALL_REG (-2)

struct kfsim_bpfrt_access {
	const char *file;
	int line;
	int reg; /* KFSIM_BPFRT_CALL_REG: a call the verifier refuses (@refused), not an access */
	const char *beyond;
	int beyond_off;
	int beyond_size;
	int dead_ref;
	int after_merge;
	const char *refused;
	/*
	 * the access lies in a callback (a function whose address the program loads): the lines of
	 * that function, first and last (0: not in one); the verifier walks a callback after the
	 * path that does not call it
	 */
	int cb_first;
	int cb_last;
};

/**
 * struct kfsim_bpfrt_prog - one SEC() program and what its annotations expect
 * @name: the function
 * @section: its SEC() name ("?tc")
 * @fn: the function (called with a zeroed context)
 * @expect: 1 __success, -1 __failure, 0 no annotation
 * @msgs: the __msg() texts, NULL-terminated
 * @has_retval: a __retval() was given
 * @retval: its value
 * @line: the function's line in the source
 * @calls: its kfunc and helper calls (struct kfsim_bpfrt_call)
 * @nr_calls: how many
 * @accesses: its loads and stores through registers (struct kfsim_bpfrt_access)
 * @nr_accesses: how many
 * @leak_after_merge: in the verifier's walk order no path leaks a reference before a call is
 *	reached with two types' records (bpfcc_call_types.c; 0: a leak first, or not known)
 */
struct kfsim_bpfrt_prog {
	const char *name;
	const char *section;
	void *fn;
	int expect;
	const char *const *msgs;
	int has_retval;
	long long retval;
	int line;
	const struct kfsim_bpfrt_call *calls;
	int nr_calls;
	const struct kfsim_bpfrt_access *accesses;
	int nr_accesses;
	int leak_after_merge;
	/* what the verifier refuses once every instruction passed (a call chain too deep), or NULL */
	const char *refused_at_end;
};

/**
 * struct kfsim_bpfrt_func - a function whose address the BPF object loads: a callback of
 *	bpf_loop(), bpf_for_each_map_elem() or a graph kfunc (bpfcc_insns.c bpfcc_callbacks())
 * @name: the function
 * @addr: its native address (what the program passes to the helper)
 * @ret_size: the bytes of its BTF return type (0: void); natively a callee of 4 bytes or fewer
 *	      leaves the upper bits of its return register undefined, the BPF one does not
 * @global: its BTF linkage is global (the verifier: "callback function not static")
 */
struct kfsim_bpfrt_func {
	const char *name;
	const void *addr;
	int ret_size;
	int global;
};

/** struct kfsim_bpfrt_object - everything kfsim-bpf-cc generated for one BPF C file */
struct kfsim_bpfrt_object {
	const char *name;
	const char *source;
	const struct kfsim_bpfrt_type *types;
	unsigned int nr_types;
	const struct kfsim_bpfrt_var *vars;
	unsigned int nr_vars;
	const struct kfsim_bpfrt_map *maps;
	unsigned int nr_maps;
	const struct kfsim_bpfrt_prog *progs;
	unsigned int nr_progs;
	const unsigned char *bpf_obj;
	const unsigned char *bpf_obj_end;
	/* the global (non-static) subprograms and their names, NULL-terminated */
	const void *const *globals;
	const char *const *global_names;
	/* the functions the object takes the address of (callbacks), {NULL}-terminated */
	const struct kfsim_bpfrt_func *funcs;
};

/* Defined by the generated tables. */
extern const struct kfsim_bpfrt_object kfsim_bpfcc_object;

/**
 * kfsim_bpfrt_ringbuf_consume() - read a ring buffer map as a userspace consumer does
 * @map: the map, by its definition (&rb of "struct { ... } rb SEC(\".maps\")")
 * @fn: called with each committed record's data and size, in order (libbpf's ring_buffer
 *	sample callback); discarded records are skipped; a nonzero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: how many records @fn got, @fn's nonzero return, or -EINVAL when @map is no ring
 * buffer.  The consumer position moves past what was read (src/bpfcc/runtime/bpfrt_ringbuf.c).
 */
long kfsim_bpfrt_ringbuf_consume(void *map, int (*fn)(void *ctx, void *data, __SIZE_TYPE__ size),
				 void *ctx);

#endif /* KFSIM_BPFRT_H */
