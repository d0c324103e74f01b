// SPDX-License-Identifier: MIT
/*
 * The KUnit runner as a userspace program (lib/kunit/test.c, assert.c, executor.c; Linux 6.12):
 * KTAP version 1 on stdout, one subtest per suite, one result line per case, a nested subtest
 * per parameterised case, and the kernel's statistics and failure report lines.  A failed
 * assertion leaves its case with longjmp() where the kernel kills the case's kthread.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/kunit.h>
#include <kfsim/slab.h>

struct kunit_alloc {
	struct kunit_alloc *next;
	void *ptr;
};

struct kunit_stats {
	unsigned long passed, failed, skipped, total;
};

static struct kunit_suite *const **suite_lists;
static size_t *suite_list_lens;
static size_t nr_suite_lists;

void kfsim_kunit_register(struct kunit_suite *const *suites, size_t n)
{
	struct kunit_suite *const **lists;
	size_t *lens;

	lists = realloc(suite_lists, (nr_suite_lists + 1) * sizeof(*lists));
	if (!lists)
		return;
	suite_lists = lists;
	lens = realloc(suite_list_lens, (nr_suite_lists + 1) * sizeof(*lens));
	if (!lens)
		return;
	suite_list_lens = lens;
	suite_lists[nr_suite_lists] = suites;
	suite_list_lens[nr_suite_lists] = n;
	nr_suite_lists++;
}

void __kunit_printk(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	(void)test;
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
}

/* kunit_fail(): the report is one kunit_err() of "<prologue><assertion text>". */
static void report(struct kunit *test, enum kunit_assert_type type, const char *file, int line,
		   const char *body, const char *msgfmt, va_list args)
{
	test->status = KUNIT_FAILURE;
	printf(KUNIT_SUBTEST_INDENT "# %s: %s FAILED at %s:%d\n%s", test->name,
	       type == KUNIT_ASSERTION ? "ASSERTION" : "EXPECTATION", file, line, body);
	if (msgfmt) {
		putchar('\n');
		vprintf(msgfmt, args);
		putchar('\n');
	} else if (!*body || body[strlen(body) - 1] != '\n') {
		putchar('\n');	/* one printk record: it ends with its line */
	}
}

void __kunit_fail(struct kunit *test, enum kunit_assert_type type, const char *file, int line,
		  const char *fmt, ...)
{
	va_list args;

	test->status = KUNIT_FAILURE;
	printf(KUNIT_SUBTEST_INDENT "# %s: %s FAILED at %s:%d\n", test->name,
	       type == KUNIT_ASSERTION ? "ASSERTION" : "EXPECTATION", file, line);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
}

/* is_literal(): "5" for 5 is not repeated as "5 == 5 (0x5)". */
static bool is_literal(const char *text, long long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", value);
	return !strcmp(text, buf);
}

void __kunit_fail_binary_int(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     long long lv, long long rv, const char *msgfmt, ...)
{
	char body[1024];
	int n = snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s %s %s, but\n",
			 left, op, right);
	va_list args;

	if (!is_literal(left, lv) && n >= 0 && (size_t)n < sizeof(body))
		n += snprintf(body + n, sizeof(body) - (size_t)n,
			      KUNIT_SUBSUBTEST_INDENT "%s == %lld (0x%llx)\n", left, lv,
			      (unsigned long long)lv);
	if (!is_literal(right, rv) && n >= 0 && (size_t)n < sizeof(body))
		snprintf(body + n, sizeof(body) - (size_t)n,
			 KUNIT_SUBSUBTEST_INDENT "%s == %lld (0x%llx)", right, rv,
			 (unsigned long long)rv);
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

void __kunit_fail_binary_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     const void *lv, const void *rv, const char *msgfmt, ...)
{
	char body[1024];
	va_list args;

	/* %px: the raw address, zero-padded */
	snprintf(body, sizeof(body),
		 KUNIT_SUBTEST_INDENT "Expected %s %s %s, but\n" KUNIT_SUBSUBTEST_INDENT
		 "%s == %016lx\n" KUNIT_SUBSUBTEST_INDENT "%s == %016lx",
		 left, op, right, left, (unsigned long)lv, right, (unsigned long)rv);
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

/* is_str_literal(): "\"abc\"" for "abc" is not repeated either. */
static bool is_str_literal(const char *text, const char *value)
{
	size_t len = strlen(text);

	return value && len >= 2 && text[0] == '"' && text[len - 1] == '"' &&
	       strlen(value) == len - 2 && !strncmp(text + 1, value, len - 2);
}

void __kunit_fail_binary_str(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     const char *lv, const char *rv, const char *msgfmt, ...)
{
	char body[2048];
	int n = snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s %s %s, but\n",
			 left, op, right);
	va_list args;

	if (!is_str_literal(left, lv) && n >= 0 && (size_t)n < sizeof(body))
		n += snprintf(body + n, sizeof(body) - (size_t)n,
			      KUNIT_SUBSUBTEST_INDENT "%s == \"%s\"\n", left, lv ? lv : "(null)");
	if (!is_str_literal(right, rv) && n >= 0 && (size_t)n < sizeof(body))
		snprintf(body + n, sizeof(body) - (size_t)n, KUNIT_SUBSUBTEST_INDENT "%s == \"%s\"",
			 right, rv ? rv : "(null)");
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

void __kunit_fail_unary(struct kunit *test, enum kunit_assert_type type, const char *file,
			int line, const char *cond, bool expected_true, const char *msgfmt, ...)
{
	char body[1024];
	va_list args;

	snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s to be %s, but is %s", cond,
		 expected_true ? "true" : "false", expected_true ? "false" : "true");
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

void __kunit_fail_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
		      int line, const char *text, const void *value, bool want_null,
		      const char *msgfmt, ...)
{
	char body[1024];
	va_list args;

	if (want_null)
		snprintf(body, sizeof(body),
			 KUNIT_SUBTEST_INDENT "Expected %s == NULL, but\n" KUNIT_SUBSUBTEST_INDENT
			 "%s == %016lx", text, text, (unsigned long)value);
	else if (!value)
		snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s is not null, but is",
			 text);
	else
		snprintf(body, sizeof(body),
			 KUNIT_SUBTEST_INDENT "Expected %s is not error, but is: %ld", text,
			 (long)(intptr_t)value);
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

void __kunit_fail_mem(struct kunit *test, enum kunit_assert_type type, const char *file,
		      int line, const char *left, const char *op, const char *right,
		      const void *lv, const void *rv, size_t size, const char *msgfmt, ...)
{
	char body[4096];
	int n;
	va_list args;

	if (!lv || !rv) {
		snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s is not null, but is",
			 !lv ? left : right);
	} else {
		n = snprintf(body, sizeof(body), KUNIT_SUBTEST_INDENT "Expected %s %s %s, but\n",
			     left, op, right);
		for (int side = 0; side < 2 && n >= 0 && (size_t)n < sizeof(body); side++) {
			const unsigned char *buf = side ? rv : lv, *other = side ? lv : rv;

			n += snprintf(body + n, sizeof(body) - (size_t)n,
				      KUNIT_SUBSUBTEST_INDENT "%s ==\n" KUNIT_SUBSUBTEST_INDENT,
				      side ? right : left);
			for (size_t i = 0; i < size && (size_t)n < sizeof(body) - 8; i++) {
				if (i && !(i % 16))
					n += snprintf(body + n, sizeof(body) - (size_t)n,
						      "\n" KUNIT_SUBSUBTEST_INDENT);
				n += snprintf(body + n, sizeof(body) - (size_t)n,
					      buf[i] != other[i] ? "<%02x>" : " %02x ", buf[i]);
			}
			if (!side && (size_t)n < sizeof(body) - 1)
				n += snprintf(body + n, sizeof(body) - (size_t)n, "\n");
		}
	}
	va_start(args, msgfmt);
	report(test, type, file, line, body, msgfmt, args);
	va_end(args);
}

void __kunit_abort(struct kunit *test)
{
	longjmp(test->__abort, 1);
}

void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	if (test->status != KUNIT_FAILURE)
		test->status = KUNIT_SKIPPED;
	va_start(args, fmt);
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, args);
	va_end(args);
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, unsigned int gfp)
{
	struct kunit_alloc *res = malloc(sizeof(*res));

	if (!res)
		return NULL;
	res->ptr = kmalloc_array(n, size, gfp);
	if (!res->ptr) {
		free(res);
		return NULL;
	}
	res->next = test->__allocs;
	test->__allocs = res;
	return res->ptr;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	for (struct kunit_alloc **p = &test->__allocs; *p; p = &(*p)->next) {
		if ((*p)->ptr == ptr) {
			struct kunit_alloc *res = *p;

			*p = res->next;
			kfree(res->ptr);
			free(res);
			return;
		}
	}
}

static void free_allocs(struct kunit *test)
{
	while (test->__allocs) {
		struct kunit_alloc *res = test->__allocs;

		test->__allocs = res->next;
		kfree(res->ptr);
		free(res);
	}
}

static const char *status_word(enum kunit_status status)
{
	return status == KUNIT_FAILURE ? "not ok" : "ok";
}

static void print_result(int indent, enum kunit_status status, size_t nr, const char *desc,
			 const char *comment)
{
	printf("%*s%s %zu %s%s%s\n", indent, "", status_word(status), nr, desc,
	       status == KUNIT_SKIPPED ? " # SKIP " : "", status == KUNIT_SKIPPED ? comment : "");
}

static void update(struct kunit_stats *stats, enum kunit_status status)
{
	stats->total++;
	if (status == KUNIT_SUCCESS)
		stats->passed++;
	else if (status == KUNIT_FAILURE)
		stats->failed++;
	else
		stats->skipped++;
}

/* One run of a case (one parameter): init, the case, exit, memory freed. */
static void run_once(struct kunit_suite *suite, struct kunit_case *tc, struct kunit *test)
{
	volatile bool inited = false;

	if (!setjmp(test->__abort)) {
		if (suite->init && suite->init(test)) {
			test->status = KUNIT_FAILURE;
			printf(KUNIT_SUBTEST_INDENT "# %s: failed to initialize\n", test->name);
		} else {
			inited = true;
			tc->run_case(test);
		}
	}
	if (inited && suite->exit && !setjmp(test->__abort))
		suite->exit(test);
	free_allocs(test);
}

static bool case_selected(const struct kunit_suite *suite, const struct kunit_case *tc,
			  const char *glob)
{
	char full[512];

	if (!glob)
		return true;
	if (!strchr(glob, '.'))
		return !fnmatch(glob, suite->name, 0);
	snprintf(full, sizeof(full), "%s.%s", suite->name, tc->name);
	return !fnmatch(glob, full, 0);
}

static bool suite_selected(const struct kunit_suite *suite, const char *glob)
{
	for (const struct kunit_case *tc = suite->test_cases; tc->run_case; tc++)
		if (case_selected(suite, tc, glob))
			return true;
	return false;
}

static enum kunit_status run_suite(struct kunit_suite *suite, const char *glob,
				   struct kunit_stats *suite_total)
{
	struct kunit_stats suite_stats = { 0 }, total_stats = { 0 };
	enum kunit_status status = KUNIT_SKIPPED;
	size_t nr_cases = 0, nr = 0;

	for (struct kunit_case *tc = suite->test_cases; tc->run_case; tc++)
		nr_cases += case_selected(suite, tc, glob);
	printf(KUNIT_SUBTEST_INDENT "KTAP version 1\n");
	printf(KUNIT_SUBTEST_INDENT "# Subtest: %s\n", suite->name);
	printf(KUNIT_SUBTEST_INDENT "1..%zu\n", nr_cases);
	if (suite->suite_init && suite->suite_init(suite)) {
		printf(KUNIT_SUBTEST_INDENT "# %s: initialization failed\n", suite->name);
		print_result(0, KUNIT_FAILURE, 0, suite->name, "");
		return KUNIT_FAILURE;
	}
	for (struct kunit_case *tc = suite->test_cases; tc->run_case; tc++) {
		struct kunit_stats param_stats = { 0 };
		struct kunit test = { .name = tc->name, .status = KUNIT_SUCCESS };

		if (!case_selected(suite, tc, glob))
			continue;
		nr++;
		tc->status = KUNIT_SKIPPED;
		if (!tc->generate_params) {
			run_once(suite, tc, &test);
			tc->status = test.status;
			update(&param_stats, test.status);
		} else {
			char desc[KUNIT_PARAM_DESC_SIZE] = "";

			test.param_value = tc->generate_params(NULL, desc);
			printf(KUNIT_SUBTEST_INDENT KUNIT_SUBTEST_INDENT "KTAP version 1\n");
			printf(KUNIT_SUBTEST_INDENT KUNIT_SUBTEST_INDENT "# Subtest: %s\n", tc->name);
			while (test.param_value) {
				run_once(suite, tc, &test);
				if (!desc[0])
					snprintf(desc, sizeof(desc), "param-%d", test.param_index);
				print_result(2 * KUNIT_INDENT_LEN, test.status,
					     (size_t)test.param_index + 1, desc, test.status_comment);
				update(&param_stats, test.status);
				if (test.status == KUNIT_FAILURE)
					tc->status = KUNIT_FAILURE;
				else if (tc->status != KUNIT_FAILURE && test.status == KUNIT_SUCCESS)
					tc->status = KUNIT_SUCCESS;
				desc[0] = '\0';
				test.param_value = tc->generate_params(test.param_value, desc);
				test.param_index++;
				test.status = KUNIT_SUCCESS;
				test.status_comment[0] = '\0';
				test.priv = NULL;
			}
			if (param_stats.total > 1)
				printf(KUNIT_SUBTEST_INDENT "# %s: pass:%lu fail:%lu skip:%lu total:%lu\n",
				       tc->name, param_stats.passed, param_stats.failed,
				       param_stats.skipped, param_stats.total);
		}
		print_result(KUNIT_INDENT_LEN, tc->status, nr, tc->name, test.status_comment);
		update(&suite_stats, tc->status);
		total_stats.passed += param_stats.passed;
		total_stats.failed += param_stats.failed;
		total_stats.skipped += param_stats.skipped;
		total_stats.total += param_stats.total;
		if (tc->status == KUNIT_FAILURE)
			status = KUNIT_FAILURE;
		else if (tc->status == KUNIT_SUCCESS && status != KUNIT_FAILURE)
			status = KUNIT_SUCCESS;
	}
	if (suite->suite_exit)
		suite->suite_exit(suite);
	if (suite_stats.total > 1)
		printf("# %s: pass:%lu fail:%lu skip:%lu total:%lu\n", suite->name,
		       suite_stats.passed, suite_stats.failed, suite_stats.skipped, suite_stats.total);
	if (total_stats.total > 1)
		printf("# Totals: pass:%lu fail:%lu skip:%lu total:%lu\n", total_stats.passed,
		       total_stats.failed, total_stats.skipped, total_stats.total);
	suite_total->failed += total_stats.failed;
	return status;
}

int kfsim_kunit_run_all(int argc, char **argv)
{
	char line[COMMAND_LINE_SIZE] = "";
	const char *glob;
	size_t nr_suites = 0, nr = 0;
	struct kunit_stats all = { 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s [kunit.filter_glob=SUITE[.CASE]] [kernel option]...\n"
			       "Runs the KUnit suites built in, KTAP on stdout.\n", argv[0]);
			return 0;
		}
		if (strlen(line) + strlen(argv[i]) + 2 > sizeof(line)) {
			fprintf(stderr, "%s: command line too long\n", argv[0]);
			return 2;
		}
		if (i > 1)
			strcat(line, " ");
		strcat(line, argv[i]);
	}
	if (kfsim_cmdline_parse(line)) {
		fprintf(stderr, "%s: bad command line\n", argv[0]);
		return 2;
	}
	glob = kfsim_cmdline_get("kunit.filter_glob");
	for (size_t l = 0; l < nr_suite_lists; l++)
		for (size_t i = 0; i < suite_list_lens[l]; i++)
			nr_suites += suite_selected(suite_lists[l][i], glob);
	printf("KTAP version 1\n1..%zu\n", nr_suites);
	for (size_t l = 0; l < nr_suite_lists; l++) {
		for (size_t i = 0; i < suite_list_lens[l]; i++) {
			struct kunit_suite *suite = suite_lists[l][i];
			enum kunit_status status;

			if (!suite_selected(suite, glob))
				continue;
			status = run_suite(suite, glob, &all);
			print_result(0, status, ++nr, suite->name, "");
			if (status == KUNIT_FAILURE && !all.failed)
				all.failed = 1;
		}
	}
	fflush(stdout);
	return all.failed ? 1 : 0;
}
