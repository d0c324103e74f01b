// SPDX-License-Identifier: MIT
/*
 * Where a broken rule is reported ("at:"), and what follows from it, whatever the paths in the
 * debug information (tests/bpfcc/locate.sh): the program's own line, never a header's from
 * another directory nor the runner's own code (the runner once took "/" for the program's
 * directory, so any absolute path was the program's: a build whose runner had absolute paths
 * reported "at: bpfrt_main.c:58", and the access below lost its place before the lock rule).
 * Each line a rule is broken at is marked "at:".
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"
#include "locate_helper.h"

char _license[] SEC("license") = "GPL";

struct loc_node {
	long key;
	struct bpf_rb_node rb;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock lock;
private(A) struct bpf_rb_root root __contains(loc_node, rb);

/* the rule is broken in the helper: reported at the call */
SEC("tc") __failure __msg("bpf_spin_lock at off=16 must be held for bpf_rb_root")
int unlocked_in_helper(void *ctx)
{
	return first_key(&root); /* at: */
}

/*
 * A load past the object's end, which the native run does not notice, before the same call:
 * the verifier refuses the load, which it meets first (the lock rule's line is a later one).
 */
SEC("tc") __failure __msg("access beyond struct loc_node at off 72 size 8")
int beyond_before_unlocked(void *ctx)
{
	struct loc_node *n = bpf_obj_new(typeof(*n));
	long ret;

	if (!n)
		return 0;
	ret = ((long *)n)[9]; /* at: */
	bpf_obj_drop(n);
	return ret + first_key(&root);
}
