// SPDX-License-Identifier: MIT
/*
 * bpf_local_irq_save()/bpf_local_irq_restore() (6.14) as the verifier sees them.  Natively
 * nothing is interrupted; what the verifier checks is kept per thread:
 * - the flag is an unsigned long on the program's stack (a stack slot the verifier marks
 *   STACK_IRQ_FLAG): anything else is "arg#0 doesn't point to an irq flag on stack";
 * - each save takes a reference id (acquire_irq_state(); bpf_vref.c counts it) and the saved
 *   flags form a stack: a restore must name the most recent flag not restored yet;
 * - a flag the program wrote after the save is no flag any more (the slot is STACK_MISC): a save
 *   writes a cookie holding its id, and a restore checks it is still there;
 * - the main program may not exit with a flag saved (bpf_verifier_state.c), and 6.14 calls no
 *   global function with one saved (kfsim_bpf_global_call_enter()).
 *
 * Invariant: irq[0..nr_irq) are the saved flags not restored, oldest first, each holding its
 * cookie unless the program overwrote it.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "bpf_internal.h"

#define IRQ_COOKIE 0x1f1a900000000000ul /* | the id: what a save leaves in the flag */

/* Whether @p lies on this thread's stack (found once per thread). */
static bool on_stack(struct bpf_tstate *ts, const void *p)
{
	pthread_attr_t attr;
	void *base;
	size_t size;

	if (!ts->stack_hi && !pthread_getattr_np(pthread_self(), &attr)) {
		if (!pthread_attr_getstack(&attr, &base, &size)) {
			ts->stack_lo = (uintptr_t)base;
			ts->stack_hi = (uintptr_t)base + size;
		}
		pthread_attr_destroy(&attr);
	}
	if (!ts->stack_hi) /* unknown: a flag in no allocation kfsim knows is taken for one */
		return !bpf_alloc_lookup(p, &(struct bpf_alloc_view){0});
	return (uintptr_t)p >= ts->stack_lo && (uintptr_t)p < ts->stack_hi;
}

static bool flag_on_stack(struct bpf_tstate *ts, unsigned long *flag)
{
	if (flag && on_stack(ts, flag))
		return true;
	bpf_report(-EINVAL, "the irq flag is an unsigned long on the program's stack",
		   "arg#0 doesn't point to an irq flag on stack");
	return false;
}

/* The index of @flag among the saved flags, or -1 when it holds no save's cookie. */
static int saved_index(const struct bpf_tstate *ts, const unsigned long *flag)
{
	for (u32 i = ts->nr_irq; i-- > 0;)
		if (ts->irq[i].flag == flag && *flag == (IRQ_COOKIE | ts->irq[i].id))
			return (int)i;
	return -1;
}

void KFUNC(bpf_local_irq_save)(unsigned long *flags__irq_flag)
{
	const void *caller = __builtin_return_address(0);
	struct bpf_tstate *ts;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_local_irq_save);
	if (!ts || !flag_on_stack(ts, flags__irq_flag))
		goto out;
	if (saved_index(ts, flags__irq_flag) >= 0) {
		bpf_report(-EINVAL, "a saved irq flag must be restored before it is saved into again",
			   "expected uninitialized irq flag as arg#0");
		goto out;
	}
	if (ts->nr_irq == ARRAY_SIZE(ts->irq)) {
		bpf_report(-E2BIG, "kfsim keeps 16 saved irq flags at most",
			   "too many saved irq flags (kfsim's limit: 16)");
		goto out;
	}
	/* the id the verifier's counter reached at this call (ids_at: one, for the flag) */
	ts->irq[ts->nr_irq].flag = flags__irq_flag;
	ts->irq[ts->nr_irq].id = ts->id_gen;
	ts->irq[ts->nr_irq].caller = caller;
	ts->nr_irq++;
	*flags__irq_flag = IRQ_COOKIE | ts->id_gen;
out:
	bpf_leave();
}

void KFUNC(bpf_local_irq_restore)(unsigned long *flags__irq_flag)
{
	struct bpf_tstate *ts;
	int i;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_local_irq_restore);
	if (!ts || !flag_on_stack(ts, flags__irq_flag))
		goto out;
	i = saved_index(ts, flags__irq_flag);
	if (i < 0) {
		bpf_report(-EINVAL,
			   "only a flag bpf_local_irq_save filled, and the program did not write "
			   "since, can be restored",
			   "expected an initialized irq flag as arg#0");
		goto out;
	}
	if ((u32)i != ts->nr_irq - 1) {
		const struct bpf_irq_flag *top = &ts->irq[ts->nr_irq - 1];
		struct kfsim_bpf_run *run = ts->run;
		int insn = -1;

		if (run && run->opts.alloc_insn)
			insn = run->opts.alloc_insn("bpf_local_irq_save", NULL, 0, top->caller, 0,
						    run->opts.alloc_insn_arg);
		bpf_report(-EACCES, "saved irq flags are restored in the reverse order of the saves",
			   "cannot restore irq state out of order, expected id=%u acquired at "
			   "insn_idx=%d",
			   top->id, insn);
		goto out;
	}
	ts->nr_irq--;
out:
	bpf_leave();
}
