// SPDX-License-Identifier: MIT
/*
 * The out-of-line half of refcount_t (lib/refcount.c): the saturation report and the
 * decrement-unless-one family that lock on the last reference.
 *
 * The once-only flags are process-global, as the kernel's __already_done flags are
 * machine-global: one per saturation type (types 0 and 1 share a text but not a flag), one for
 * an unknown type and one for refcount_dec_not_one()'s own underflow warning.
 */
#include <stdatomic.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/mutex.h>
#include <kfsim/refcount.h>
#include <kfsim/spinlock.h>

enum {
	REFCOUNT_WARN_UNKNOWN = REFCOUNT_DEC_LEAK + 1,
	REFCOUNT_WARN_DEC_NOT_ONE,
	REFCOUNT_NR_WARN_FLAGS,
};

static atomic_bool refcount_warned[REFCOUNT_NR_WARN_FLAGS];

/* True the first time flag @nr is claimed since the last clear. */
static bool refcount_first_warning(int nr)
{
	return !atomic_exchange_explicit(&refcount_warned[nr], true, memory_order_relaxed);
}

void kfsim_refcount_clear_warn_once(void)
{
	for (int nr = 0; nr < REFCOUNT_NR_WARN_FLAGS; nr++)
		atomic_store_explicit(&refcount_warned[nr], false, memory_order_relaxed);
}

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	refcount_set(r, REFCOUNT_SATURATED);

	switch (t) {
	case REFCOUNT_ADD_NOT_ZERO_OVF:
	case REFCOUNT_ADD_OVF:
		if (refcount_first_warning(t))
			WARN(1, "refcount_t: saturated; leaking memory.\n");
		break;
	case REFCOUNT_ADD_UAF:
		if (refcount_first_warning(t))
			WARN(1, "refcount_t: addition on 0; use-after-free.\n");
		break;
	case REFCOUNT_SUB_UAF:
		if (refcount_first_warning(t))
			WARN(1, "refcount_t: underflow; use-after-free.\n");
		break;
	case REFCOUNT_DEC_LEAK:
		if (refcount_first_warning(t))
			WARN(1, "refcount_t: decrement hit 0; leaking memory.\n");
		break;
	default:
		if (refcount_first_warning(REFCOUNT_WARN_UNKNOWN))
			WARN(1, "refcount_t: unknown saturation event!?.\n");
	}
}

bool __refcount_sub_zero_is_uaf(void)
{
	return kfsim_kernel_at_least(6, 11);
}

bool __refcount_acquire_has_limit(void)
{
	return kfsim_kernel_at_least(6, 15);
}

bool refcount_dec_if_one(refcount_t *r)
{
	int expected = 1;

	return atomic_compare_exchange_strong_explicit(&r->refs, &expected, 0, memory_order_release,
						       memory_order_relaxed);
}

bool refcount_dec_not_one(refcount_t *r)
{
	unsigned int val = refcount_read(r);
	unsigned int new;

	do {
		if (unlikely(val == (unsigned int)REFCOUNT_SATURATED))
			return true;
		if (val == 1)
			return false;
		new = val - 1;
		/* Only 0 wraps when compared as unsigned: the other bad values go down quietly. */
		if (new > val) {
			if (refcount_first_warning(REFCOUNT_WARN_DEC_NOT_ONE))
				WARN(1, "refcount_t: underflow; use-after-free.\n");
			return true;
		}
	} while (!atomic_compare_exchange_weak_explicit(&r->refs, (int *)&val, (int)new,
							 memory_order_release, memory_order_relaxed));
	return true;
}

bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock)
{
	if (refcount_dec_not_one(r))
		return false;
	mutex_lock(lock);
	if (!refcount_dec_and_test(r)) {
		mutex_unlock(lock);
		return false;
	}
	return true;
}

bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock)
{
	if (refcount_dec_not_one(r))
		return false;
	spin_lock(lock);
	if (!refcount_dec_and_test(r)) {
		spin_unlock(lock);
		return false;
	}
	return true;
}

bool refcount_dec_and_lock_irqsave(refcount_t *r, spinlock_t *lock, unsigned long *flags)
{
	if (refcount_dec_not_one(r))
		return false;
	spin_lock_irqsave(lock, *flags);
	if (!refcount_dec_and_test(r)) {
		spin_unlock_irqrestore(lock, *flags);
		return false;
	}
	return true;
}

#include <kfsim/moduleparam.h>
/*
 * The "refcount" module of the kernel command line: "refcount.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(refcount)
