// SPDX-License-Identifier: MIT
/*
 * One refcount_t operation on a counter holding *@counter, through whichever <linux/refcount.h>
 * is first on the include path: kfsim's (RC_PREFIX=kfsim) or the kernel's (RC_PREFIX=kernel,
 * with lib/refcount.c linked beside it under renamed symbols).  Only the API is used, so the
 * same text judges both.
 */
#include <limits.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "refcount_ops.h"

#define __RC_NAME(p, n) p##_##n
#define RC_NAME(p, n) __RC_NAME(p, n)

#define RC_NO_OLD (INT_MIN + 1)

void RC_NAME(RC_PREFIX, refcount_op)(enum rc_op op, int i, int *counter, struct rc_outcome *out)
{
	refcount_t r = REFCOUNT_INIT(*counter);
	DEFINE_MUTEX(m);
	spinlock_t s;
	unsigned long flags = 0;
	int old = RC_NO_OLD;
	int ret = -1;

	spin_lock_init(&s);
	switch (op) {
	case RC_OP_set:
		refcount_set(&r, i);
		break;
	case RC_OP_set_release:
		refcount_set_release(&r, i);
		break;
	case RC_OP_read:
		ret = (int)refcount_read(&r);
		break;
	case RC_OP_add_not_zero:
		ret = refcount_add_not_zero(i, &r);
		break;
	case RC_OP___add_not_zero:
		ret = __refcount_add_not_zero(i, &r, &old);
		break;
	case RC_OP_inc_not_zero:
		ret = refcount_inc_not_zero(&r);
		break;
	case RC_OP___inc_not_zero:
		ret = __refcount_inc_not_zero(&r, &old);
		break;
	case RC_OP_add_not_zero_acquire:
		ret = refcount_add_not_zero_acquire(i, &r);
		break;
	case RC_OP___add_not_zero_acquire:
		ret = __refcount_add_not_zero_acquire(i, &r, &old);
		break;
	case RC_OP_inc_not_zero_acquire:
		ret = refcount_inc_not_zero_acquire(&r);
		break;
	case RC_OP___inc_not_zero_acquire:
		ret = __refcount_inc_not_zero_acquire(&r, &old);
		break;
	case RC_OP_add:
		refcount_add(i, &r);
		break;
	case RC_OP___add:
		__refcount_add(i, &r, &old);
		break;
	case RC_OP_inc:
		refcount_inc(&r);
		break;
	case RC_OP___inc:
		__refcount_inc(&r, &old);
		break;
	case RC_OP_sub_and_test:
		ret = refcount_sub_and_test(i, &r);
		break;
	case RC_OP___sub_and_test:
		ret = __refcount_sub_and_test(i, &r, &old);
		break;
	case RC_OP_dec_and_test:
		ret = refcount_dec_and_test(&r);
		break;
	case RC_OP___dec_and_test:
		ret = __refcount_dec_and_test(&r, &old);
		break;
	case RC_OP_dec:
		refcount_dec(&r);
		break;
	case RC_OP___dec:
		__refcount_dec(&r, &old);
		break;
	case RC_OP_dec_if_one:
		ret = refcount_dec_if_one(&r);
		break;
	case RC_OP_dec_not_one:
		ret = refcount_dec_not_one(&r);
		break;
	case RC_OP_dec_and_mutex_lock:
		ret = refcount_dec_and_mutex_lock(&r, &m);
		out->locked = mutex_is_locked(&m);
		if (out->locked)
			mutex_unlock(&m);
		break;
	case RC_OP_dec_and_lock:
		ret = refcount_dec_and_lock(&r, &s);
		out->locked = spin_is_locked(&s);
		if (out->locked)
			spin_unlock(&s);
		break;
	case RC_OP_dec_and_lock_irqsave:
		ret = refcount_dec_and_lock_irqsave(&r, &s, &flags);
		out->locked = spin_is_locked(&s);
		if (out->locked)
			spin_unlock_irqrestore(&s, flags);
		break;
	case RC_OP_warn_saturate:
		refcount_warn_saturate(&r, (enum refcount_saturation_type)i);
		break;
	case RC_NR_OPS:
		break;
	}
	out->ret = ret;
	out->old = old;
	out->after = *counter = (int)refcount_read(&r);
}
