// SPDX-License-Identifier: MIT
/*
 * Bitfields in a struct with a special field.  At BTF load the kernel searches every struct that
 * has a lock, a node, a root or a refcount as a member for its special fields, and that search
 * looks at each member's offset before its type (btf_find_struct_field(), nested structs since
 * 6.10): a bitfield at a bit offset that is no whole byte is refused there (-EINVAL), and
 * with it the whole BTF (6.12 and the running 6.18).  libbpf then
 * loads the programs without it, so the first bpf_obj_new() is refused for want of program
 * BTF, whichever struct it allocates.  A bitfield that starts a byte is fine, and so is any
 * bitfield in a struct the search does not reach (no special field, not held by one that has):
 * the node below is refused for a bitfield of the struct it holds, not for its own.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct flags {
	u32 first : 3; /* bit offset 0 */
	u32 rest : 29; /* bit offset 3: refused, since a struct with a special field holds it */
};

struct packed_node {
	struct bpf_rb_node rb;
	u64 key;
	struct flags f; /* the search goes down into it */
	u32 state : 4;	/* the first bits of a byte: bit offset 352 */
};

struct plain {
	u64 a;
};

SEC("tc") __failure __msg("bpf_obj_new/bpf_percpu_obj_new requires prog BTF")
int new_of_bitfield_node(void *ctx)
{
	struct packed_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->f.rest = 3;
	bpf_obj_drop(n);
	return 0;
}

/* the refusal is the whole object's: a struct without bitfields cannot be allocated either */
SEC("tc") __failure __msg("bpf_obj_new/bpf_percpu_obj_new requires prog BTF")
int new_of_plain_struct(void *ctx)
{
	struct plain *p = bpf_obj_new(typeof(*p));

	if (!p)
		return 0;
	bpf_obj_drop(p);
	return 0;
}

/* a program that allocates nothing needs no program BTF */
SEC("tc") __success __retval(7)
int no_allocation(void *ctx)
{
	return 7;
}

char _license[] SEC("license") = "GPL";
