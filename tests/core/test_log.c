// SPDX-License-Identifier: MIT
/* The log ring: levels, continuation, wrap-around, reading back, WARN reports. */
#define DEBUG	/* pr_debug() emits only with DEBUG, as in the kernel */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "support/log_assert.h"

static int quiet_console(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_dmesg_clear();
	return 0;
}

static void test_levels_are_parsed_and_stripped(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;

	pr_err("disk %d failed\n", 3);
	printk("no level given\n");
	pr_debug("debug line\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, LOGLEVEL_ERR);
	assert_string_equal(rec.text, "disk 3 failed");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_string_equal(rec.text, "no level given");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, LOGLEVEL_DEBUG);
	assert_int_equal(kfsim_log_read(&seq, &rec), -ENOENT);
}

static void test_continuation_joins_previous_record(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;

	pr_info("values:");
	pr_cont(" %d", 1);
	pr_cont(" %d\n", 2);
	pr_info("next\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "values: 1 2");
	assert_int_equal(rec.level, LOGLEVEL_INFO);
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "next");
}

/* printk_parse_prefix() (6.12): the first level wins; KERN_SOH + anything else is no prefix. */
static void test_prefix_rules_of_printk_parse_prefix(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;

	printk(KERN_ERR KERN_INFO "first level wins\n");
	printk(KERN_SOH "8" "not a level\n");
	printk(KERN_SOH "d" KERN_ERR "stops at the bad pair\n");
	/* level and KERN_CONT come from the first 7 bytes; all prefixes are stripped */
	printk(KERN_CONT KERN_CONT KERN_CONT KERN_ERR "fourth pair ignored\n");
	printk(KERN_CONT KERN_CONT KERN_ERR "third pair counts\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, LOGLEVEL_ERR);
	assert_string_equal(rec.text, "first level wins");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_string_equal(rec.text, KERN_SOH "8" "not a level");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_string_equal(rec.text, KERN_SOH "d" KERN_ERR "stops at the bad pair");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_string_equal(rec.text, "fourth pair ignored");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.level, LOGLEVEL_ERR);
	assert_string_equal(rec.text, "third pair counts");
	assert_int_equal(kfsim_log_read(&seq, &rec), -ENOENT);

	assert_int_equal(printk_get_level(KERN_INFO "x"), '6');
	assert_int_equal(printk_get_level(KERN_CONT "x"), 'c');
	assert_int_equal(printk_get_level(KERN_SOH "8"), 0);
	assert_int_equal(printk_get_level(KERN_SOH), 0);
	assert_string_equal(printk_skip_level(KERN_ERR KERN_CONT "x"), KERN_CONT "x");
	assert_string_equal(printk_skip_headers(KERN_ERR KERN_CONT "x"), "x");
	assert_string_equal(printk_skip_headers(KERN_SOH "9x"), KERN_SOH "9x");
}

/* KERN_CONT with a level still continues; the level of the continuation is ignored. */
static void test_continuation_with_a_level_joins(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;

	pr_info("a");
	printk(KERN_CONT KERN_ERR "b");
	printk(KERN_ERR KERN_CONT "c\n");
	/* a continuation after a closed record starts one, at its own level or the default */
	printk(KERN_CONT KERN_NOTICE "orphan\n");
	pr_cont("orphan too\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "abc");
	assert_int_equal(rec.level, LOGLEVEL_INFO);
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "orphan");
	assert_int_equal(rec.level, LOGLEVEL_NOTICE);
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "orphan too");
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_int_equal(kfsim_log_read(&seq, &rec), -ENOENT);
}

static void *cont_from_other_thread(void *arg)
{
	(void)arg;
	pr_cont(" from another thread\n");
	return NULL;
}

/* Only the writer of the open record may extend it (caller_id): another thread's pr_cont starts its own. */
static void test_continuation_only_by_same_caller(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;
	pthread_t t;

	pr_info("mine:");
	assert_int_equal(pthread_create(&t, NULL, cont_from_other_thread, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* the other thread's record closed mine (prb_reserve() finalizes the previous record) */
	pr_cont(" late\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "mine:");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, " from another thread");
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, " late");
	assert_int_equal(kfsim_log_read(&seq, &rec), -ENOENT);
}

/* __warn_printk() prints the message with vprintk(): its own level, or the default. */
static void test_warn_message_keeps_its_own_level(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;

	WARN(1, KERN_INFO "informational warning\n");
	WARN(1, "plain warning\n");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "------------[ cut here ]------------");
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_string_equal(rec.text, "informational warning");
	assert_int_equal(rec.level, LOGLEVEL_INFO);
	while (kfsim_log_read(&seq, &rec) == 0 && strcmp(rec.text, "plain warning"))
		;
	assert_string_equal(rec.text, "plain warning");
	assert_int_equal(rec.level, MESSAGE_LOGLEVEL_DEFAULT);
}

static void test_ring_wraps_and_reader_sees_gap(void **state)
{
	u64 start = log_mark(), seq = start;
	struct kfsim_log_record rec;

	for (int i = 0; i < KFSIM_LOG_RECORDS + 10; i++)
		pr_info("record %d\n", i);
	/* The first 10 were overwritten: reading from the start skips to the oldest kept. */
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(rec.seq, start + 10);
	assert_string_equal(rec.text, "record 10");
	assert_int_equal(kfsim_log_first_seq(), start + 10);
	assert_int_equal(log_count_since(start, "record 1033"), 1);
}

static void test_long_message_is_truncated(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;
	char *big = malloc(3000);

	memset(big, 'x', 2999);
	big[2999] = '\0';
	printk(KERN_INFO "%s\n", big);
	assert_int_equal(kfsim_log_read(&seq, &rec), 0);
	assert_int_equal(strlen(rec.text), KFSIM_LOG_LINE_MAX - 1);
	free(big);
}

static void test_dmesg_format_and_clear(void **state)
{
	u64 mark = log_mark();
	char buf[256];
	size_t need;

	pr_warn("first\n");
	pr_warn("second\n");
	need = kfsim_dmesg_format(mark, NULL, 0);
	assert_true(need > 0);
	assert_int_equal(kfsim_dmesg_format(mark, buf, sizeof(buf)), need);
	assert_non_null(strstr(buf, "] first\n["));
	assert_int_equal(buf[0], '[');
	/* A too-small buffer is cut but stays a string, and the full size is still reported. */
	assert_int_equal(kfsim_dmesg_format(mark, buf, 8), need);
	assert_int_equal(strlen(buf), 7);
	kfsim_dmesg_clear();
	assert_int_equal(kfsim_dmesg_format(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	pr_warn("after clear\n");
	assert_int_equal(kfsim_log_contains(0, "first"), 0);
	assert_int_equal(kfsim_log_contains(0, "after clear"), 1);
}

static void test_warn_report_and_value(void **state)
{
	u64 mark = log_mark();
	unsigned long before = kfsim_warn_count();
	int x = 5;

	assert_false(WARN_ON(x < 0));
	assert_true(WARN(x > 1, "x is %d\n", x));
	assert_int_equal(kfsim_warn_count(), before + 1);
	assert_logged(mark, "------------[ cut here ]------------", 1);
	assert_logged(mark, "x is 5", 1);
	assert_logged(mark, "WARNING: CPU: 0 PID: ", 1);
	assert_logged(mark, "tests/core/test_log.c:", 1);
	assert_logged(mark, "---[ end trace ", 1);
}

static int warn_once_site(int value)
{
	return WARN_ONCE(value > 0, "positive value %d\n", value);
}

static void test_warn_once_fires_once(void **state)
{
	u64 mark = log_mark();

	assert_false(warn_once_site(0));
	assert_true(warn_once_site(1));
	assert_true(warn_once_site(2));	/* still true, but not reported again */
	assert_true(warn_once_site(3));
	assert_logged(mark, "positive value", 1);
	assert_logged(mark, "positive value 1", 1);
	for (int i = 0; i < 3; i++)
		WARN_ON_ONCE(1);
	assert_logged(mark, "WARNING:", 2);
}

static jmp_buf bug_jump;
static void bug_to_longjmp(const char *file, int line, const char *func)
{
	longjmp(bug_jump, line);
}

static void test_bug_on_calls_handler(void **state)
{
	u64 mark = log_mark();
	int line;

	kfsim_bug_handler_set(bug_to_longjmp);
	line = setjmp(bug_jump);
	if (!line)
		BUG_ON(1 + 1 == 2);
	kfsim_bug_handler_set(NULL);
	assert_true(line > 0);
	assert_logged(mark, "tests/core/test_log.c:", 1);	/* path as the build names it */
	assert_logged(mark, "kernel BUG at ", 1);
}

/* loglevel= stores any int, as the kernel's console_loglevel does; 0 or less shows nothing. */
static void test_console_level_is_stored_as_given(void **state)
{
	assert_int_equal(kfsim_console_loglevel_set(99), 0);
	assert_int_equal(kfsim_console_loglevel_set(-3), 99);
	assert_int_equal(kfsim_console_loglevel_set(0), -3);
	assert_int_equal(CONSOLE_LOGLEVEL_DEFAULT, 7);
	assert_int_equal(CONSOLE_LOGLEVEL_QUIET, 4);
	assert_int_equal(CONSOLE_LOGLEVEL_DEBUG, 10);
}

/* Run @fn with stderr going to a temporary file; return what it wrote (static buffer). */
static const char *capture_stderr(void (*fn)(void))
{
	static char out[8192];
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return out;
}

static void warn_info_and_debug(void)
{
	WARN(1, "visible splat\n");
	pr_info("an info line\n");
	pr_debug("a debug line\n");
}

/* The default console level (7) shows a WARN splat and info, not debug; quiet hides all three. */
static void test_default_console_shows_warn(void **state)
{
	const char *out;

	kfsim_console_loglevel_set(CONSOLE_LOGLEVEL_DEFAULT);
	out = capture_stderr(warn_info_and_debug);
	assert_non_null(strstr(out, "------------[ cut here ]------------"));
	assert_non_null(strstr(out, "visible splat"));
	assert_non_null(strstr(out, "an info line"));
	assert_null(strstr(out, "a debug line"));
	kfsim_console_loglevel_set(CONSOLE_LOGLEVEL_QUIET);
	out = capture_stderr(warn_info_and_debug);
	assert_string_equal(out, "");
	/* ignore_loglevel shows everything, even with the console at 0 */
	kfsim_console_loglevel_set(0);
	kfsim_console_ignore_loglevel_set(true);
	out = capture_stderr(warn_info_and_debug);
	assert_non_null(strstr(out, "a debug line"));
	kfsim_console_ignore_loglevel_set(false);
}

/* print_oops_end_marker(): the id is always zero, not a count of reports. */
static void test_end_marker_is_always_zero(void **state)
{
	u64 mark = log_mark();

	WARN_ON(1);
	WARN_ON(1);
	WARN(1, "third\n");
	assert_logged(mark, "---[ end trace 0000000000000000 ]---", 3);
}

static void warn_with_panic_on_warn(void)
{
	int line;

	kfsim_bug_handler_set(bug_to_longjmp);
	line = setjmp(bug_jump);
	if (!line)
		WARN(1, "fatal splat\n");
	kfsim_bug_handler_set(NULL);
	assert_true(line > 0);
}

/* panic_on_warn=N: a WARN panics, and the report reaches stderr even with the console at 0. */
static void test_panic_on_warn_panics_and_shows_the_report(void **state)
{
	u64 mark = log_mark();
	const char *out;

	assert_int_equal(kfsim_cmdline_parse("panic_on_warn=2"), 0);
	assert_int_equal(panic_on_warn, 2);
	kfsim_console_loglevel_set(0);
	out = capture_stderr(warn_with_panic_on_warn);
	assert_non_null(strstr(out, "------------[ cut here ]------------"));
	assert_non_null(strstr(out, "fatal splat"));
	assert_non_null(strstr(out, "Kernel panic - not syncing: kernel: panic_on_warn set ..."));
	assert_non_null(strstr(out, "---[ end Kernel panic - not syncing: kernel: panic_on_warn set ... ]---"));
	assert_logged(mark, "---[ end trace", 0);	/* a panic has no trace trailer */
	kfsim_cmdline_reset();
	assert_int_equal(panic_on_warn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_are_parsed_and_stripped),
		cmocka_unit_test(test_continuation_joins_previous_record),
		cmocka_unit_test(test_prefix_rules_of_printk_parse_prefix),
		cmocka_unit_test(test_continuation_with_a_level_joins),
		cmocka_unit_test(test_continuation_only_by_same_caller),
		cmocka_unit_test(test_warn_message_keeps_its_own_level),
		cmocka_unit_test(test_ring_wraps_and_reader_sees_gap),
		cmocka_unit_test(test_long_message_is_truncated),
		cmocka_unit_test(test_dmesg_format_and_clear),
		cmocka_unit_test(test_warn_report_and_value),
		cmocka_unit_test(test_warn_once_fires_once),
		cmocka_unit_test(test_bug_on_calls_handler),
		cmocka_unit_test(test_console_level_is_stored_as_given),
		cmocka_unit_test(test_default_console_shows_warn),
		cmocka_unit_test(test_end_marker_is_always_zero),
		cmocka_unit_test(test_panic_on_warn_panics_and_shows_the_report),
	};

	return cmocka_run_group_tests(tests, quiet_console, NULL);
}
