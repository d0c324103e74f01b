// SPDX-License-Identifier: MIT
/*
 * Loops bounded by may_goto (can_loop, cond_break), as the kernel runs them: each loop's frame
 * has a budget (8M passes up to 6.14, a quarter of a second from 6.15 on x86-64) and the loop
 * falls out when it is spent.  tests/bpfcc/can_loop.sh builds this file for the running kernel
 * and natively, and checks that both accept every program and return the same value.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define NR_NODES 31

struct keyed {
	struct bpf_rb_node node;
	u64 key;
	u64 value;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root tree __contains(keyed, node);

/* the verifier does not know its value: loops on it are not unrolled */
int zero;

static bool key_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct keyed, node)->key < container_of(b, struct keyed, node)->key;
}

/* keys 0, 7, 14, ... in a scrambled order (7 is prime to 31) */
static __noinline int fill(void)
{
	int i, added = 0;

	for (i = zero; i < NR_NODES && can_loop; i++) {
		struct keyed *n = bpf_obj_new(typeof(*n));

		if (!n)
			return -1;
		n->key = ((u64)i * 7 % NR_NODES) * 7;
		n->value = n->key * 3 + 1;
		bpf_spin_lock(&tlock);
		if (!bpf_rbtree_add(&tree, &n->node, key_less))
			added++;
		bpf_spin_unlock(&tlock);
	}
	return added;
}

/* Walk down from the root with left/right until @key: its value, or -1. */
static __noinline long search(u64 key)
{
	struct bpf_rb_node *cur;
	long found = -1;

	bpf_spin_lock(&tlock);
	cur = bpf_rbtree_root(&tree);
	while (cur && can_loop) {
		struct keyed *n = container_of(cur, struct keyed, node);

		if (n->key == key) {
			found = n->value;
			break;
		}
		cur = key < n->key ? bpf_rbtree_left(&tree, cur) : bpf_rbtree_right(&tree, cur);
	}
	bpf_spin_unlock(&tlock);
	return found;
}

/* Take every node out again, smallest first, with cond_break bounding the loop. */
static __noinline int drain(void)
{
	int removed = 0;

	for (;;) {
		struct bpf_rb_node *first;

		cond_break;
		bpf_spin_lock(&tlock);
		first = bpf_rbtree_first(&tree);
		if (!first) {
			bpf_spin_unlock(&tlock);
			break;
		}
		first = bpf_rbtree_remove(&tree, first);
		bpf_spin_unlock(&tlock);
		if (first) {
			bpf_obj_drop(container_of(first, struct keyed, node));
			removed++;
		}
	}
	return removed;
}

SEC("tc") __success __retval(442)
int rbtree_search_can_loop(void *ctx)
{
	long hit, miss;
	int added = fill(), removed;

	hit = search(7 * 21);
	miss = search(5);
	removed = drain();
	/*
	 * Arithmetic, no branch: a branch on a count makes the verifier track it exactly, and
	 * drain()'s endless loop would then never reach a state it has seen ("The sequence of
	 * 8193 jumps is too complex").  Key 147's value is 147 * 3 + 1.
	 */
	return hit + ((added ^ NR_NODES) | (removed ^ NR_NODES) | (miss + 1)) * 1000;
}

/* An endless loop: may_goto ends it when the budget is spent. */
SEC("tc") __success __retval(1)
int endless_cond_break(void *ctx)
{
	int count = zero;

	for (;;) {
		cond_break;
		count++;
	}
	return count > 1;
}

static __noinline int endless_in_subprog(void)
{
	int count = zero;

	while (can_loop)
		count++;
	return count;
}

/* The main program spends its own budget; the subprogram's frame has a budget of its own. */
SEC("tc") __success __retval(1)
int budget_per_frame(void *ctx)
{
	int mine = zero, theirs;

	while (can_loop)
		mine++;
	theirs = endless_in_subprog();
	return mine > 1 && theirs > 1;
}

/* Bounded loops end on their own condition long before the budget: an exact sum. */
SEC("tc") __success __retval(499500)
int nested_loops_sum(void *ctx)
{
	int i, j, sum = 0;

	for (i = zero; i < 100 && can_loop; i++)
		for (j = zero; j < 10; j++) {
			sum += i * 10 + j;
			cond_break;
		}
	return sum;
}

char _license[] SEC("license") = "GPL";
