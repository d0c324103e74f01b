// SPDX-License-Identifier: MIT
/*
 * bpf_preempt_disable()/bpf_preempt_enable() (6.10) beside the graph kfuncs, each program
 * checked against the running 6.18 (tests/bpfcc/agree.sh, kfsim in 6.18 rules):
 * - the count must be zero at the main program's exit, whether the disables were made in the
 *   program or in a static subprogram: "BPF_EXIT instruction in main prog cannot be used inside
 *   bpf_preempt_disable-ed region" (6.14's check_resource_leak(); 6.10 to 6.13 said "N
 *   bpf_preempt_enable(s) are missing", tests/bpf/test_rules.c);
 * - a leaked reference is reported before it (check_resource_leak() tests references first);
 * - an enable needs an outstanding disable;
 * - both are kfuncs: not callable while a bpf_spin_lock is held;
 * - a global function may be called with preemption disabled from 6.15, when it cannot sleep
 *   (6.10 to 6.14 refused any global call there);
 * - the graph kfuncs and the lock work as usual inside the region.
 *
 * bpf_local_irq_save()/bpf_local_irq_restore() (6.14), the same way:
 * - the flag lives on the stack, and saved flags are restored in the reverse order, the
 *   message naming the expected flag's id and the instruction of its save;
 * - a save takes a reference id: the ids of the references acquired after it count it;
 * - a flag written after its save is no flag; a flag saved twice is refused;
 * - both are kfuncs: not callable while a bpf_spin_lock is held, while the lock and the graph
 *   kfuncs work inside the region;
 * - the main program may not exit with a flag saved; from 6.15 a global function that cannot
 *   sleep may be called with one saved.
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

static __noinline void disable_twice(void)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
}

static __noinline void enable_once(void)
{
	bpf_preempt_enable();
}

__noinline int global_add(int x)
{
	return x + 1;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region")
int exit_disabled(void *ctx)
{
	bpf_preempt_disable();
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region")
int exit_disabled_in_subprog(void *ctx)
{
	disable_twice();
	enable_once();
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=2 alloc_insn={{[0-9]+}}")
int leak_reported_first(void *ctx)
{
	struct item *n;

	bpf_preempt_disable();
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		bpf_preempt_enable();
		return 0;
	}
	return 1;
}

SEC("tc") __failure __msg("unmatched attempt to enable preemption (kernel function bpf_preempt_enable)")
int enable_unmatched(void *ctx)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int disable_under_lock(void *ctx)
{
	bpf_spin_lock(&lock);
	bpf_preempt_disable();
	bpf_spin_unlock(&lock);
	bpf_preempt_enable();
	return 0;
}

SEC("tc") __success __retval(3)
int global_call_disabled(void *ctx)
{
	int r;

	bpf_preempt_disable();
	r = global_add(2);
	bpf_preempt_enable();
	return r;
}

SEC("tc") __success __retval(7)
int graph_inside_region(void *ctx)
{
	struct bpf_list_node *l;
	struct item *n;
	u64 v = 0;

	disable_twice();
	n = bpf_obj_new(typeof(*n));
	if (n) {
		n->value = 7;
		bpf_spin_lock(&lock);
		bpf_list_push_front(&head, &n->link);
		l = bpf_list_pop_front(&head);
		bpf_spin_unlock(&lock);
		if (l) {
			n = container_of(l, struct item, link);
			v = n->value;
			bpf_obj_drop(n);
		}
	}
	enable_once();
	bpf_preempt_enable();
	return v;
}

unsigned long global_flag;

static __noinline void save_two(unsigned long *a, unsigned long *b)
{
	bpf_local_irq_save(a);
	bpf_local_irq_save(b);
}

__noinline int global_twice(int x)
{
	return 2 * x;
}

SEC("tc") __failure __msg("arg#0 doesn't point to an irq flag on stack")
int flag_not_on_stack(void *ctx)
{
	bpf_local_irq_save(&global_flag);
	return 0;
}

SEC("tc") __failure __msg("cannot restore irq state out of order, expected id=2 acquired at insn_idx={{[0-9]+}}")
int restore_older_first(void *ctx)
{
	unsigned long a, b;

	save_two(&a, &b);
	bpf_local_irq_restore(&a);
	bpf_local_irq_restore(&b);
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=3 alloc_insn={{[0-9]+}}")
int leak_counts_the_flag_id(void *ctx)
{
	unsigned long f;
	struct item *n;

	bpf_local_irq_save(&f);
	n = bpf_obj_new(typeof(*n));
	bpf_local_irq_restore(&f);
	return n ? 1 : 0;
}

SEC("tc") __failure __msg("expected an initialized irq flag as arg#0")
int flag_written_after_save(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	f = 0xdeadbeef; /* a store: a load of a saved flag is refused on its own (not modelled) */
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc") __failure __msg("expected uninitialized irq flag as arg#0")
int flag_saved_twice(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int save_under_lock(void *ctx)
{
	unsigned long f;

	bpf_spin_lock(&lock);
	bpf_local_irq_save(&f);
	bpf_spin_unlock(&lock);
	bpf_local_irq_restore(&f);
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_local_irq_save-ed region")
int exit_with_flag_saved(void *ctx)
{
	unsigned long a, b;

	save_two(&a, &b);
	bpf_local_irq_restore(&b);
	return 0;
}

SEC("tc") __success __retval(12)
int graph_and_global_inside_region(void *ctx)
{
	struct bpf_list_node *l;
	unsigned long a, b;
	struct item *n;
	u64 v = 0;

	save_two(&a, &b);
	n = bpf_obj_new(typeof(*n));
	if (n) {
		n->value = 6;
		bpf_spin_lock(&lock);
		bpf_list_push_back(&head, &n->link);
		l = bpf_list_pop_back(&head);
		bpf_spin_unlock(&lock);
		if (l) {
			n = container_of(l, struct item, link);
			v = n->value;
			bpf_obj_drop(n);
		}
	}
	v = global_twice(v);
	bpf_local_irq_restore(&b);
	bpf_local_irq_restore(&a);
	return v;
}

char _license[] SEC("license") = "GPL";
