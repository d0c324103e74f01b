/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_LOG_ASSERT_H
#define KFSIM_TESTS_LOG_ASSERT_H

/*
 * Assertions on the kfsim log for cmocka tests: take a mark before the action, then check what
 * the action logged.  On failure the log since the mark is printed, so the test output shows what
 * was logged instead.
 */
#include <kfsim/printk.h>

/** log_mark() - the sequence number to pass to the checks below. */
static inline u64 log_mark(void)
{
	return kfsim_log_next_seq();
}

/** log_count_since() - records since @mark containing @substr. */
int log_count_since(u64 mark, const char *substr);

/** assert_logged() - fail unless exactly @times records since @mark contain @substr. */
#define assert_logged(mark, substr, times) _assert_logged(mark, substr, times, __FILE__, __LINE__)
void _assert_logged(u64 mark, const char *substr, int times, const char *file, int line);

#endif /* KFSIM_TESTS_LOG_ASSERT_H */
