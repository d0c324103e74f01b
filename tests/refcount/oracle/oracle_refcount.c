// SPDX-License-Identifier: MIT
/*
 * Oracle: every refcount_t operation of the kernel (include/linux/refcount.h and lib/refcount.c
 * of Debian's linux-source-6.12, compiled unchanged by oracle_refcount.sh) against kfsim's, on
 * a table of corner cases.  Each case runs in a fresh child process, so every WARN_ONCE of both
 * is armed, and is a short sequence of operations on one counter; after each operation the two
 * must agree on the counter, the return value, the old value of the __ variants, whether the
 * lock of a *_lock variant is held, how many WARNs were logged, each WARN's text and the
 * function it names.  Both sides report through kfsim's WARN(), so the texts are comparable.
 *
 * Usage: oracle_refcount X.Y.Z   (the tree's version; kfsim is set to follow it)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/printk.h>
#include <kfsim/refcount.h>

#include "refcount_ops.h"

static const char *const op_names[] = {
#define RC_OP_NAME(name, takes_i) #name,
	RC_OPS(RC_OP_NAME)
#undef RC_OP_NAME
};

static const bool op_takes_i[] = {
#define RC_OP_TAKES_I(name, takes_i) takes_i,
	RC_OPS(RC_OP_TAKES_I)
#undef RC_OP_TAKES_I
};

/* Counter values around every boundary the kernel tests: 0, 1, MAX, the sign bit, SATURATED. */
static const int starts[] = {
	0, 1, 2, 3, 100, INT_MAX - 2, INT_MAX - 1, INT_MAX, -1, -2, INT_MIN, INT_MIN + 1,
	REFCOUNT_SATURATED - 1, REFCOUNT_SATURATED, REFCOUNT_SATURATED + 1, INT_MIN / 4,
};

/* Amounts for the operations that take one: the kernel's int, negative ones included. */
static const int amounts[] = { 0, 1, 2, 3, 100, -1, -2, INT_MAX, INT_MIN, REFCOUNT_SATURATED };

/* Saturation types for refcount_warn_saturate(): the five, and unknown ones. */
static const int sat_types[] = { 0, 1, 2, 3, 4, 5, -1 };

#define MAX_SEQ 3

struct rc_case {
	int start;
	int n;
	enum rc_op op[MAX_SEQ];
	int i[MAX_SEQ];
};

/* One implementation's account of one operation. */
struct rc_step {
	struct rc_outcome o;
	unsigned long warns;
	char text[512];
};

typedef void (*rc_op_fn)(enum rc_op op, int i, int *counter, struct rc_outcome *out);

/* The WARN records logged since @since, as "text @ function" lines; the kernel_ renames dropped. */
static void collect_warnings(u64 since, char *buf, size_t size)
{
	struct kfsim_log_record rec;
	u64 seq = since;
	size_t len = 0;

	buf[0] = '\0';
	while (kfsim_log_read(&seq, &rec) == 0 && len < size) {
		const char *at;

		if (!strncmp(rec.text, "refcount_t:", 11)) {
			len += (size_t)snprintf(buf + len, size - len, "%s", rec.text);
		} else if (!strncmp(rec.text, "WARNING: ", 9) && (at = strrchr(rec.text, ' '))) {
			at++;
			if (!strncmp(at, "kernel_", 7))
				at += 7;
			len += (size_t)snprintf(buf + len, size - len, " @ %s; ", at);
		}
	}
}

static void run_case(const struct rc_case *c, rc_op_fn fn, struct rc_step *steps)
{
	int counter = c->start;

	for (int k = 0; k < c->n; k++) {
		u64 since = kfsim_log_next_seq();
		unsigned long warns = kfsim_warn_count();

		memset(&steps[k].o, 0, sizeof(steps[k].o));
		fn(c->op[k], c->i[k], &counter, &steps[k].o);
		steps[k].warns = kfsim_warn_count() - warns;
		collect_warnings(since, steps[k].text, sizeof(steps[k].text));
	}
}

static void describe_case(const struct rc_case *c, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "counter %#x:", (unsigned int)c->start);

	for (int k = 0; k < c->n && len < size; k++) {
		if (op_takes_i[c->op[k]])
			len += (size_t)snprintf(buf + len, size - len, " %s(%d)", op_names[c->op[k]], c->i[k]);
		else
			len += (size_t)snprintf(buf + len, size - len, " %s()", op_names[c->op[k]]);
	}
}

static void describe_step(const struct rc_step *s, char *buf, size_t size)
{
	snprintf(buf, size, "ret %d, counter %#x, old %#x, lock %s, %lu WARN(s) [%s]", s->o.ret,
		 (unsigned int)s->o.after, (unsigned int)s->o.old, s->o.locked ? "held" : "free",
		 s->warns, s->text);
}

/* In a child: both implementations on a fresh process state; 0 when they agree. */
static int compare_case(const struct rc_case *c)
{
	struct rc_step kernel[MAX_SEQ], kfsim[MAX_SEQ];
	char what[256], k_text[768], f_text[768];

	run_case(c, kernel_refcount_op, kernel);
	run_case(c, kfsim_refcount_op, kfsim);
	for (int k = 0; k < c->n; k++) {
		describe_step(&kernel[k], k_text, sizeof(k_text));
		describe_step(&kfsim[k], f_text, sizeof(f_text));
		if (strcmp(k_text, f_text)) {
			describe_case(c, what, sizeof(what));
			printf("DIFFERS: %s, step %d\n  kernel: %s\n  kfsim:  %s\n", what, k + 1,
			       k_text, f_text);
			return 1;
		}
	}
	return 0;
}

static int cases_run, cases_differ, ops_run;

static void check(const struct rc_case *c)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		int differs = compare_case(c);

		fflush(stdout);
		_exit(differs);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		printf("FAIL: a case crashed (status %#x)\n", status);
		exit(1);
	}
	cases_run++;
	ops_run += c->n;
	cases_differ += WEXITSTATUS(status);
}

/* The amounts an operation is tried with: none, the amounts, or the saturation types. */
static int amounts_of(enum rc_op op, const int **list)
{
	if (op == RC_OP_warn_saturate) {
		*list = sat_types;
		return (int)ARRAY_SIZE(sat_types);
	}
	if (op_takes_i[op]) {
		*list = amounts;
		return (int)ARRAY_SIZE(amounts);
	}
	*list = amounts + 1;	/* 1: ignored */
	return 1;
}

int main(int argc, char **argv)
{
	/* Operations that can warn, for the sequences that test the once-only flags. */
	static const enum rc_op warners[] = {
		RC_OP_add_not_zero, RC_OP_inc, RC_OP_dec_and_test, RC_OP_dec, RC_OP_dec_not_one,
		RC_OP_inc_not_zero_acquire, RC_OP_dec_and_lock,
	};
	/* 0 (use after free), 1 (the last put) and INT_MAX (overflow) reach every report from a
	 * good counter; -1 starts bad.  Enough to see every flag; more only costs forks. */
	static const int bad_starts[] = { 0, 1, INT_MAX };
	unsigned int code;
	struct rc_case c;
	const int *list;

	if (argc != 2 || kfsim_kver_parse(argv[1], &code) || kfsim_set_kernel_version(code)) {
		fprintf(stderr, "usage: oracle_refcount X.Y.Z (the kernel tree's version)\n");
		return 2;
	}
	kfsim_console_loglevel_set(1);	/* the WARNs are read back from the log, not the console */

	/* Every operation once, from every start, with every amount. */
	for (int op = 0; op < RC_NR_OPS; op++) {
		int n = amounts_of((enum rc_op)op, &list);

		for (size_t s = 0; s < ARRAY_SIZE(starts); s++)
			for (int a = 0; a < n; a++) {
				c = (struct rc_case){ .start = starts[s], .n = 1, .op = { (enum rc_op)op },
						      .i = { list[a] } };
				check(&c);
			}
	}
	/* Three operations in a row: does the second (third) report again, which flag is shared? */
	for (size_t s = 0; s < ARRAY_SIZE(bad_starts); s++)
		for (size_t x = 0; x < ARRAY_SIZE(warners); x++)
			for (size_t y = 0; y < ARRAY_SIZE(warners); y++)
				for (size_t z = 0; z < ARRAY_SIZE(warners); z++) {
					c = (struct rc_case){ .start = bad_starts[s], .n = 3,
							      .op = { warners[x], warners[y], warners[z] },
							      .i = { 1, 1, 1 } };
					check(&c);
				}
	/* refcount_warn_saturate() types in pairs: ADD_NOT_ZERO_OVF and ADD_OVF share a text, not a flag. */
	for (size_t x = 0; x < ARRAY_SIZE(sat_types); x++)
		for (size_t y = 0; y < ARRAY_SIZE(sat_types); y++) {
			c = (struct rc_case){ .start = 1, .n = 2,
					      .op = { RC_OP_warn_saturate, RC_OP_warn_saturate },
					      .i = { sat_types[x], sat_types[y] } };
			check(&c);
		}
	printf("compared %d cases (%d operations) of linux %s include/linux/refcount.h + "
	       "lib/refcount.c with kfsim at --kver %s: counter, return, old value, lock held, "
	       "WARN count, text and function after each operation\n",
	       cases_run, ops_run, argv[1], argv[1]);
	if (cases_differ) {
		printf("FAIL: %d of %d cases differ\n", cases_differ, cases_run);
		return 1;
	}
	printf("oracle: kfsim's refcount_t agrees with the kernel's in every case\n");
	return 0;
}
