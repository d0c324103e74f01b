// SPDX-License-Identifier: MIT
/*
 * Calls while a bpf_spin_lock is held (issue #28, rule 1).  The verifier's do_check() allows no
 * helper but bpf_spin_unlock there, and of the kfuncs only the graph ones (6.14 adds the
 * bpf_iter_num ones, tests/bpfcc/iter_num.bpf.c; 6.15 the resilient locks, which kfsim does not
 * provide): every other call
 * is "function calls are not allowed while holding a lock".  tests/bpfcc/agree.sh holds kfsim
 * to these annotations and to the running kernel.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 value;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(item, link);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, u64);
} counters SEC(".maps");

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int prandom_locked(void *ctx)
{
	u32 r;

	bpf_spin_lock(&lock);
	r = bpf_get_prandom_u32();
	bpf_spin_unlock(&lock);
	return r & 1;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int ktime_locked(void *ctx)
{
	u64 t;

	bpf_spin_lock(&lock);
	t = bpf_ktime_get_ns();
	bpf_spin_unlock(&lock);
	return t & 1;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int map_lookup_locked(void *ctx)
{
	int key = 0;
	u64 *v;

	bpf_spin_lock(&lock);
	v = bpf_map_lookup_elem(&counters, &key);
	bpf_spin_unlock(&lock);
	return v ? 1 : 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int map_update_locked(void *ctx)
{
	int key = 0;
	u64 one = 1;
	long err;

	bpf_spin_lock(&lock);
	err = bpf_map_update_elem(&counters, &key, &one, BPF_ANY);
	bpf_spin_unlock(&lock);
	return err ? 1 : 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int obj_new_locked(void *ctx)
{
	struct item *n;

	bpf_spin_lock(&lock);
	n = bpf_obj_new(typeof(*n));
	bpf_spin_unlock(&lock);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

/* The same calls outside the lock, and only graph kfuncs inside it: accepted. */
SEC("tc") __success __retval(0)
int calls_outside_lock(void *ctx)
{
	struct bpf_list_node *l;
	struct item *n;
	int key = 0;
	u64 *v;

	v = bpf_map_lookup_elem(&counters, &key);
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 1;
	n->value = bpf_get_prandom_u32() | 1;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	l = bpf_list_pop_front(&head);
	bpf_spin_unlock(&lock);
	if (l)
		bpf_obj_drop(container_of(l, struct item, link));
	if (v)
		*v += bpf_ktime_get_ns() ? 0 : 1;
	return 0;
}

char _license[] SEC("license") = "GPL";
