// SPDX-License-Identifier: MIT
/*
 * One call instruction reached with objects of two types (issue #28, rule 5).  The verifier
 * rewrites a bpf_obj_drop() call with the field record of the object's type and keeps it per
 * instruction; the running 6.18 kernel refuses a second type with another record ("same call
 * cannot be used with different types"), 6.12 keeps the last one silently.  clang makes one call
 * of two when the ends of two paths are alike (a tail merge: "bpf_obj_drop(x); return 0;"), and
 * a static subprogram is one call for all its callers.  Two types without special fields share
 * the NULL record, so they may share a call.  tests/bpfcc/agree.sh holds kfsim (--kver 6.18) to
 * these annotations and to the running kernel.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct node_a {
	struct bpf_rb_node rb;
	u64 key;
};

struct node_c {
	u64 pad;
	struct bpf_rb_node rb;
	u64 key;
};

struct plain_b {
	u64 x;
	u64 y;
};

struct plain_d {
	u64 x;
	u32 y;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
/* a branch the verifier walks both ways and every run takes one way */
private(K) long knob = 1;

/*
 * Three allocations, each failure dropping what came before: clang merges the drops of the
 * failure paths with the drops at the end, so one call instruction drops an @T1 on one path and
 * a @T2 on another.  Only the explored NULL paths reach the merged calls with the other type.
 */
#define DROP_ON_FAILURE(name, T1, T2)                                                             \
	int name(void *ctx)                                                                        \
	{                                                                                          \
		struct T1 *a, *c;                                                                  \
		struct T2 *b;                                                                      \
                                                                                                   \
		a = bpf_obj_new(typeof(*a));                                                       \
		if (!a)                                                                            \
			return 0;                                                                  \
		b = bpf_obj_new(typeof(*b));                                                       \
		if (!b) {                                                                          \
			bpf_obj_drop(a);                                                           \
			return 0;                                                                  \
		}                                                                                  \
		c = bpf_obj_new(typeof(*c));                                                       \
		if (!c) {                                                                          \
			bpf_obj_drop(a);                                                           \
			bpf_obj_drop(b);                                                           \
			return 0;                                                                  \
		}                                                                                  \
		bpf_obj_drop(c);                                                                   \
		bpf_obj_drop(b);                                                                   \
		bpf_obj_drop(a);                                                                   \
		return 1;                                                                          \
	}

SEC("tc") __failure __msg("same call cannot be used with different types")
DROP_ON_FAILURE(node_and_plain, node_a, plain_b)

SEC("tc") __failure __msg("same call cannot be used with different types")
DROP_ON_FAILURE(plain_and_node, plain_b, node_a)

/* two types with fields: two records */
SEC("tc") __failure __msg("same call cannot be used with different types")
DROP_ON_FAILURE(two_node_types, node_a, node_c)

/* two types without fields: both the NULL record */
SEC("tc") __success __retval(1)
DROP_ON_FAILURE(two_plain_types, plain_b, plain_d)

SEC("tc") __success __retval(1)
DROP_ON_FAILURE(one_type, node_a, node_a)

/* the merged call on the branch no run takes: found in the BPF object, not by a run */
SEC("tc") __failure __msg("same call cannot be used with different types")
int merged_on_branch(void *ctx)
{
	if (knob) {
		struct node_a *a = bpf_obj_new(typeof(*a));

		if (!a)
			return 0;
		a->key = 1;
		bpf_obj_drop(a);
	} else {
		struct plain_b *b = bpf_obj_new(typeof(*b));

		if (!b)
			return 0;
		b->x = 2;
		bpf_obj_drop(b);
	}
	return 0;
}

/* one call for every caller: the subprogram's */
static __noinline int drop_any(void *p)
{
	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc") __failure __msg("same call cannot be used with different types")
int subprog_two_types(void *ctx)
{
	struct node_a *a = bpf_obj_new(typeof(*a));
	struct plain_b *b = bpf_obj_new(typeof(*b));

	drop_any(a);
	drop_any(b);
	return 0;
}

char _license[] SEC("license") = "GPL";
