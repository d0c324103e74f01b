// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  bpf_local_irq_save()/bpf_local_irq_restore() (6.14+) as a
 * sched_ext developer would bracket a queue with them: nested flags restored in and out of order,
 * a flag restored twice or never, a flag slot overwritten, the lock, the graph kfuncs, RCU and
 * preemption inside the region, and the region crossing static and global subprograms.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct inode_ {
	struct bpf_rb_node rb;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(I) struct bpf_spin_lock ilock;
private(I) struct bpf_rb_root itree __contains(inode_, rb);

int gzero;

static bool iless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct inode_, rb)->key < container_of(b, struct inode_, rb)->key;
}

SEC("tc")
int irq_nested_in_order(void *ctx)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f2);
	bpf_local_irq_restore(&f1);
	return 3;
}

SEC("tc")
int irq_nested_out_of_order(void *ctx)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f1);
	bpf_local_irq_restore(&f2);
	return 0;
}

SEC("tc")
int irq_restore_twice(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc")
int irq_restore_never_saved(void *ctx)
{
	unsigned long f = 0;

	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc")
int irq_save_same_slot_twice(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc")
int irq_exit_disabled(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	return 0;
}

SEC("tc")
int irq_exit_on_branch(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	if (gzero)
		return 1;
	bpf_local_irq_restore(&f);
	return 2;
}

SEC("tc")
int irq_slot_overwritten(void *ctx)
{
	unsigned long f;
	volatile unsigned long *p = &f;

	bpf_local_irq_save(&f);
	*p = 0;
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc")
int irq_lock_inside(void *ctx)
{
	struct inode_ *n = bpf_obj_new(typeof(*n));
	unsigned long f;

	if (!n)
		return 0;
	n->key = 4;
	bpf_local_irq_save(&f);
	bpf_spin_lock(&ilock);
	bpf_rbtree_add(&itree, &n->rb, iless);
	bpf_spin_unlock(&ilock);
	bpf_local_irq_restore(&f);
	return 4;
}

SEC("tc")
int irq_restore_under_lock(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_spin_lock(&ilock);
	bpf_local_irq_restore(&f);
	bpf_spin_unlock(&ilock);
	return 0;
}

SEC("tc")
int irq_save_under_lock(void *ctx)
{
	unsigned long f;

	bpf_spin_lock(&ilock);
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	bpf_spin_unlock(&ilock);
	return 0;
}

SEC("tc")
int irq_alloc_and_drop_inside(void *ctx)
{
	struct inode_ *n;
	unsigned long f;

	bpf_local_irq_save(&f);
	n = bpf_obj_new(typeof(*n));
	if (n)
		bpf_obj_drop(n);
	bpf_local_irq_restore(&f);
	return 5;
}

SEC("tc")
int irq_helper_inside(void *ctx)
{
	unsigned long f;
	u32 r;

	bpf_local_irq_save(&f);
	r = bpf_get_prandom_u32();
	bpf_local_irq_restore(&f);
	return r & 0;
}

SEC("tc")
int irq_rcu_crossed(void *ctx)
{
	unsigned long f;

	bpf_rcu_read_lock();
	bpf_local_irq_save(&f);
	bpf_rcu_read_unlock();
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc")
int irq_preempt_crossed(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_preempt_disable();
	bpf_local_irq_restore(&f);
	bpf_preempt_enable();
	return 0;
}

static __noinline int restore_for_caller(unsigned long *f)
{
	bpf_local_irq_restore(f);
	return 1;
}

SEC("tc")
int irq_static_restores(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	return restore_for_caller(&f);
}

static __noinline int save_and_return(unsigned long *f)
{
	bpf_local_irq_save(f);
	return 1;
}

SEC("tc")
int irq_static_saves(void *ctx)
{
	unsigned long f;

	save_and_return(&f);
	bpf_local_irq_restore(&f);
	return 6;
}

__noinline int irq_global_plain(int x)
{
	return x + 1;
}

SEC("tc")
int irq_global_call_inside(void *ctx)
{
	unsigned long f;
	int r;

	bpf_local_irq_save(&f);
	r = irq_global_plain(gzero);
	bpf_local_irq_restore(&f);
	return r;
}

SEC("tc")
int irq_leak_inside(void *ctx)
{
	struct inode_ *n;
	unsigned long f;

	bpf_local_irq_save(&f);
	n = bpf_obj_new(typeof(*n));
	bpf_local_irq_restore(&f);
	return n ? 1 : 0;
}

char _license[] SEC("license") = "GPL";
