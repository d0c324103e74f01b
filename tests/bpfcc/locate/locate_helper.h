/* SPDX-License-Identifier: MIT */
/*
 * A helper of tests/bpfcc/locate.bpf.c in another directory than the program's (found by -I):
 * a rule broken inside it is reported at the program's line that calls it, the first frame in
 * the program's own directory.
 */
#ifndef LOCATE_HELPER_H
#define LOCATE_HELPER_H

/* The first node's key, without the lock bpf_rbtree_first() needs. */
static __always_inline long first_key(struct bpf_rb_root *root)
{
	struct bpf_rb_node *rb = bpf_rbtree_first(root);

	return rb ? 1 : 0;
}
#endif
