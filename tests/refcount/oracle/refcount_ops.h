/* SPDX-License-Identifier: MIT */
/*
 * The refcount_t operations the oracle compares, as one table.  refcount_ops.c is compiled twice
 * against it: once on kfsim's <linux/refcount.h>, once on the kernel's own include/linux/refcount.h
 * and lib/refcount.c (oracle_refcount.sh); each build exports <prefix>_refcount_op().
 */
#ifndef KFSIM_TEST_REFCOUNT_OPS_H
#define KFSIM_TEST_REFCOUNT_OPS_H
#include <stdbool.h>

/* X(name, takes_i): every operation of 6.12's include/linux/refcount.h and lib/refcount.c. */
#define RC_OPS(X)                                                                                 \
	X(set, true)                                                                              \
	X(set_release, true)                                                                      \
	X(read, false)                                                                            \
	X(add_not_zero, true)                                                                     \
	X(__add_not_zero, true)                                                                   \
	X(inc_not_zero, false)                                                                    \
	X(__inc_not_zero, false)                                                                  \
	X(add_not_zero_acquire, true)                                                             \
	X(__add_not_zero_acquire, true)                                                           \
	X(inc_not_zero_acquire, false)                                                            \
	X(__inc_not_zero_acquire, false)                                                          \
	X(add, true)                                                                              \
	X(__add, true)                                                                            \
	X(inc, false)                                                                             \
	X(__inc, false)                                                                           \
	X(sub_and_test, true)                                                                     \
	X(__sub_and_test, true)                                                                   \
	X(dec_and_test, false)                                                                    \
	X(__dec_and_test, false)                                                                  \
	X(dec, false)                                                                             \
	X(__dec, false)                                                                           \
	X(dec_if_one, false)                                                                      \
	X(dec_not_one, false)                                                                     \
	X(dec_and_mutex_lock, false)                                                              \
	X(dec_and_lock, false)                                                                    \
	X(dec_and_lock_irqsave, false)                                                            \
	X(warn_saturate, true)

enum rc_op {
#define RC_OP_ENUM(name, takes_i) RC_OP_##name,
	RC_OPS(RC_OP_ENUM)
#undef RC_OP_ENUM
	RC_NR_OPS
};

/*
 * What one operation did: its return value (-1 for a void one), the counter after it, the old
 * value reported through @oldp (the __ variants; INT_MIN + 1 when none was written) and whether
 * the lock of a *_lock variant was left held.
 */
struct rc_outcome {
	int ret;
	int after;
	int old;
	bool locked;
};

void kfsim_refcount_op(enum rc_op op, int i, int *counter, struct rc_outcome *out);
void kernel_refcount_op(enum rc_op op, int i, int *counter, struct rc_outcome *out);
#endif /* KFSIM_TEST_REFCOUNT_OPS_H */
