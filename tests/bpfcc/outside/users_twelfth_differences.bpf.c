// SPDX-License-Identifier: MIT
/*
 * The twelfth round's programs where kfsim and the running 6.18.44 still differ
 * (docs/bpf-graph.md, "The twelfth round"), without annotations, for
 * tests/bpfcc/outside/compare.sh: an index bounded only by bpf_for()'s compares that reaches a
 * __kptr field or passes a hash value's end (the data-flow keeps no bounds of signed compares),
 * and two leak reports whose id= differs (the listed leak-id kind).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#include "users_twelfth.h"

/* locks across static subprograms */
static __noinline int bump_locked(struct lval *v)
{
	bpf_spin_lock(&v->lock);
	v->count++;
	bpf_spin_unlock(&v->lock);
	return 0;
}

static __noinline int take_only(struct lval *v)
{
	bpf_spin_lock(&v->lock);
	return 0;
}

static __noinline int add_under(struct lval *v, int n)
{
	v->count += n;
	return n;
}

__noinline int g_add(struct lval *v)
{
	if (!v)
		return 0;
	return v->count;
}

static int cb_lock(u32 i, struct lval *v)
{
	bpf_spin_lock(&glock);
	gsum += i;
	bpf_spin_unlock(&glock);
	return 0;
}

static int cb_plain(u32 i, void *c)
{
	return 0;
}

/* numeric iterators and can_loop, nested, with breaks */

SEC("tc")
int u_iter_index_past(struct __sk_buff *skb)
{
	struct lval *v = val0();
	int i;

	if (!v)
		return 0;
	bpf_for(i, 0, 9)
		v->slots[i] = i;
	return 0;
}

SEC("tc")
int u_iter_with_obj_leak(struct __sk_buff *skb)
{
	int i;

	bpf_for(i, 0, 3) {
		struct obj *o = bpf_obj_new(typeof(*o));

		if (!o)
			continue;
		if (i == 2)
			break;
		bpf_obj_drop(o);
	}
	return 0;
}

/* kptr exchange */

/* map values with variable offsets */

SEC("tc")
int u_hash_value_walk_past(struct __sk_buff *skb)
{
	u32 k = 1;
	u64 *p, s = 0;
	int i;

	p = bpf_map_lookup_elem(&hmap, &k);
	if (!p)
		return 0;
	bpf_for(i, 0, 5)
		s += p[i];
	return s;
}

/* context pointer arithmetic */

/* global subprogram arguments */
__noinline int g_sum(u64 *p, int n)
{
	int s = 0;

	if (!p)
		return 0;
	if (n > 0)
		s = p[0];
	return s;
}

__noinline int g_uses_lock(struct lval *v)
{
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->count++;
	bpf_spin_unlock(&v->lock);
	return 1;
}

__noinline int g_leaks(int n)
{
	struct obj *o = bpf_obj_new(typeof(*o));

	if (!o)
		return 0;
	if (n)
		return 1;
	bpf_obj_drop(o);
	return 0;
}

SEC("tc")
int u_global_leaks(struct __sk_buff *skb)
{
	return g_leaks(skb->len);
}

char _license[] SEC("license") = "GPL";
