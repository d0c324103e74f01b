// SPDX-License-Identifier: MIT
/*
 * A grid point's record (src/cli/cli_record.c) against the structs it carries: bfq compare and
 * ablate's struct kfsim_bfq_sim_result (cli_bfq_record.c) and plca sweep's struct
 * plca_sweep_point (cli_plca_record.c).
 *
 * A member forgotten in a table is caught by kfsim_rec_table_check(), whatever its name or type:
 * the table's fields must tile the struct, byte for byte (but for a member small enough to sit
 * in the padding between two fields, see clear_uncovered()).  Every field the table lists must
 * come back as it was written:
 * - the round trip: every byte of a result is set (distinct values; then each field the table
 *   knows is made valid for its kind), written as a record and read back; the whole struct must
 *   come back, the arrays behind its pointers (jobs, steady-state samples) compared element by
 *   element and the padding between fields left out.  A member the table does not know
 *   keeps its fill, which the record cannot bring back.
 * Then damaged records: each refused with the field named, nothing left allocated.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/kernel.h>
#include "cli/cli_bfq_record.h"
#include "cli/cli_record.h"
#include "cli/cli_plca_record.h"

/* ---- padding ------------------------------------------------------------------------------- */

/*
 * The bytes of @obj in no field of @t, zeroed: the alignment padding kfsim_rec_table_check()
 * allows (at most what the next field's alignment needs).  Not __builtin_clear_padding(): gcc
 * 12's clears bytes 20..23 of struct kfsim_bfq_sim_result, which are actuator[0].utilisation's,
 * and leaves 788..791 (before @jobs).  A member small enough to hide in such padding is the one
 * thing neither check here sees.
 */
static const struct kfsim_rec_table *layout_of;	/* the padding's table, when not @t itself */

static void clear_uncovered(const struct kfsim_rec_table *t, void *obj)
{
	unsigned char *covered = calloc(1, t->size);

	if (layout_of && layout_of->size == t->size)
		t = layout_of;

	assert_non_null(covered);
	for (size_t k = 0; k < t->nr_fields; k++)
		memset(covered + t->fields[k].offset, 1, t->fields[k].size);
	for (size_t i = 0; i < t->size; i++)
		if (!covered[i])
			((unsigned char *)obj)[i] = 0;
	free(covered);
}

static const struct kfsim_rec_table *bfq_sub(const char *name)
{
	const struct kfsim_rec_table *t = &kfsim_bfq_result_table;

	for (size_t k = 0; k < t->nr_fields; k++)
		if (!strcmp(t->fields[k].name, name))
			return t->fields[k].sub;
	fail_msg("no field %s", name);
	return NULL;
}

/* ---- filling every byte --------------------------------------------------------------------- */

static unsigned int fill_seed = 1;

static void set_count(const struct kfsim_rec_table *t, void *obj, const struct kfsim_rec_field *a,
		      u64 n)
{
	char *p = (char *)obj + a->count_offset;

	(void)t;
	if (a->count_size == sizeof(u64))
		*(u64 *)p = n;
	else
		*(unsigned int *)p = (unsigned int)n;
}

static u64 get_count(const void *obj, const struct kfsim_rec_field *a)
{
	const char *p = (const char *)obj + a->count_offset;

	return a->count_size == sizeof(u64) ? *(const u64 *)p : *(const unsigned int *)p;
}

/*
 * @obj: every byte distinct-ish and nonzero, then each field @t knows made valid; arrays get
 * small counts.  @allocs collects what was allocated.
 */
static void fill(const struct kfsim_rec_table *t, void *obj)
{
	unsigned char *b = obj;
	unsigned int doubles_seen = 0;

	for (size_t i = 0; i < t->size; i++)
		b[i] = (unsigned char)((fill_seed++ * 131u) % 251u + 1);
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		void *m = b + f->offset;

		switch (f->kind) {
		case KFSIM_REC_UINT:
			if (f->max)
				*(unsigned int *)m = (unsigned int)((fill_seed++) % (f->max + 1));
			break;
		case KFSIM_REC_U64:
			if (f->max)
				*(u64 *)m = (fill_seed++) % (f->max + 1);
			break;
		case KFSIM_REC_ERRNO:
			*(int *)m = -(int)(fill_seed++ % 4095 + 1);
			break;
		case KFSIM_REC_BOOL:
			*(bool *)m = true;
			break;
		case KFSIM_REC_DOUBLE:
			/* one table's first two doubles: JSON has no inf or nan (written as strings) */
			*(double *)m = !doubles_seen ? INFINITY : doubles_seen == 1 ? NAN :
				       (fill_seed++) * 1.0000001 + 1.0 / 3;
			doubles_seen++;
			break;
		case KFSIM_REC_STR:
			memset(m, 0, f->size);
			/* escapes and a byte beyond ASCII, as a job's name may have */
			snprintf(m, f->size, "j\"%u\\\xc3\xa9", fill_seed++);
			break;
		default:
			break;
		}
	}
	/* the arrays' counts: small, within what the array holds */
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];

		if (f->kind == KFSIM_REC_STRUCTS)
			set_count(t, obj, f, f->size / f->sub->size - 1);
		else if (f->kind == KFSIM_REC_STRUCTS_PTR)
			set_count(t, obj, f, 3);
		else if (f->kind == KFSIM_REC_U64_PTR)
			set_count(t, obj, f, 5);
	}
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		char *m = (char *)b + f->offset;
		u64 n = f->kind == KFSIM_REC_STRUCT ? 1 : get_count(obj, f);

		switch (f->kind) {
		case KFSIM_REC_STRUCT:
			fill(f->sub, m);
			break;
		case KFSIM_REC_STRUCTS:
			for (u64 i = 0; i < n; i++)
				fill(f->sub, m + i * f->sub->size);
			break;
		case KFSIM_REC_STRUCTS_PTR: {
			char *elems = calloc(n, f->sub->size);

			assert_non_null(elems);
			for (u64 i = 0; i < n; i++)
				fill(f->sub, elems + i * f->sub->size);
			*(char **)m = elems;
			break;
		}
		case KFSIM_REC_U64_PTR: {
			u64 *v = calloc(n, sizeof(u64));

			assert_non_null(v);
			for (u64 i = 0; i < n; i++)
				v[i] = ((u64)fill_seed++ << 40) ^ i;
			*(u64 **)m = v;
			break;
		}
		default:
			break;
		}
	}
}

/* Free what fill() allocated (the same walk as the record's release). */
static void unfill(const struct kfsim_rec_table *t, void *obj)
{
	kfsim_rec_release_table(t, obj);
}

/*
 * What a record brings back of @obj: itself, but the fields left out (zeros), the elements of
 * an embedded array past its count (zeros) and the padding (cleared).  Pointers are compared
 * by what they point to, then set to NULL.
 */
static void canonical(const struct kfsim_rec_table *t, void *obj)
{
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		char *m = (char *)obj + f->offset;

		if (f->kind == KFSIM_REC_NOT_CARRIED)
			memset(m, 0, f->size);
		if (f->kind == KFSIM_REC_STRUCTS) {
			u64 n = get_count(obj, f);

			for (u64 i = 0; i < f->size / f->sub->size; i++) {
				if (i >= n)
					memset(m + i * f->sub->size, 0, f->sub->size);
				else
					canonical(f->sub, m + i * f->sub->size);
			}
		}
		if (f->kind == KFSIM_REC_STRUCT)
			canonical(f->sub, m);
	}
	clear_uncovered(t, obj);
}

/* Whether @got is @want, as a record carries it; *@what: the first difference. */
static bool same(const struct kfsim_rec_table *t, const void *want, const void *got, char *what,
		 size_t what_size)
{
	unsigned char *a = malloc(t->size), *b = malloc(t->size);
	bool ok = true;

	assert_non_null(a);
	assert_non_null(b);
	memcpy(a, want, t->size);
	memcpy(b, got, t->size);
	for (size_t k = 0; ok && k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		u64 n = f->kind == KFSIM_REC_STRUCT ? 1 : get_count(a, f);
		void **pa = (void **)(a + f->offset), **pb = (void **)(b + f->offset);

		if (f->kind == KFSIM_REC_U64_PTR) {
			ok = (!*pa && !*pb) || (*pa && *pb && !memcmp(*pa, *pb, n * sizeof(u64)));
			if (!ok)
				snprintf(what, what_size, "%s: %s's array", t->name, f->name);
		} else if (f->kind == KFSIM_REC_STRUCTS_PTR) {
			ok = *pa && *pb;
			for (u64 i = 0; ok && i < n; i++)
				ok = same(f->sub, (char *)*pa + i * f->sub->size,
					  (char *)*pb + i * f->sub->size, what, what_size);
		} else {
			continue;
		}
		*pa = *pb = NULL;
	}
	if (ok) {
		canonical(t, a);
		canonical(t, b);
		for (size_t i = 0; ok && i < t->size; i++) {
			if (a[i] == b[i])
				continue;
			ok = false;
			snprintf(what, what_size, "%s: byte %zu differs (in no field of its table, or "
				 "not read back as written)", t->name, i);
		}
	}
	free(a);
	free(b);
	return ok;
}

/* Fill, write, read back, compare; 0 when the round trip is whole. */
static int round_trip(const struct kfsim_rec_table *t, size_t *rec_len, char *what,
		      size_t what_size)
{
	void *obj = calloc(1, t->size), *back = calloc(1, t->size);
	struct kfsim_rec r;
	char *rec, why[256];
	int ret;

	assert_non_null(obj);
	assert_non_null(back);
	fill(t, obj);
	kfsim_rec_init(&r);
	kfsim_rec_put_table(&r, t, obj);
	rec = kfsim_rec_finish(&r);
	assert_non_null(rec);
	*rec_len = strlen(rec);
	ret = kfsim_rec_get_table(rec, t, back, why, sizeof(why));
	if (ret)
		snprintf(what, what_size, "read back refused: %.200s", why);
	else
		ret = same(t, obj, back, what, what_size) ? 0 : 1;
	kfsim_rec_release_table(t, back);
	unfill(t, obj);
	free(rec);
	free(obj);
	free(back);
	return ret;
}

/* ---- the tests ------------------------------------------------------------------------------- */

static void test_tables_cover_their_structs(void **state)
{
	const struct kfsim_rec_table *tables[] = { &kfsim_bfq_result_table,
						   &kfsim_plca_sweep_point_table };
	char why[256] = "";

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		int err = kfsim_rec_table_check(tables[i], why, sizeof(why));

		printf("table of %s (%zu bytes, %zu fields): %s\n", tables[i]->name,
		       tables[i]->size, tables[i]->nr_fields, err ? why : "covers it");
		assert_int_equal(err, 0);
	}
}

static void test_round_trip_whole(void **state)
{
	const struct kfsim_rec_table *tables[] = { &kfsim_bfq_result_table,
						   &kfsim_plca_sweep_point_table };
	char what[256] = "";
	size_t len;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		int ret = round_trip(tables[i], &len, what, sizeof(what));

		printf("%s, every byte set: record of %zu bytes read back %s%s\n",
		       tables[i]->name, len, ret ? "DIFFERENT: " : "equal", ret ? what : "");
		assert_int_equal(ret, 0);
	}
}

static bool counts_an_array(const struct kfsim_rec_table *t, const struct kfsim_rec_field *c)
{
	for (size_t k = 0; k < t->nr_fields; k++)
		if ((t->fields[k].kind == KFSIM_REC_U64_PTR || t->fields[k].kind == KFSIM_REC_STRUCTS ||
		     t->fields[k].kind == KFSIM_REC_STRUCTS_PTR) &&
		    t->fields[k].count_offset == c->offset)
			return true;
	return false;
}

/* A table with a field left out is what each check must catch: every field of the job's. */
static void test_forgotten_field_caught(void **state)
{
	const struct kfsim_rec_table *job = bfq_sub("jobs");
	struct kfsim_rec_field fields[64];
	struct kfsim_rec_table cut = *job;
	char why[256], what[256];
	unsigned int caught_check = 0, caught_trip = 0;
	size_t len;

	(void)state;
	assert_true(job->nr_fields <= ARRAY_SIZE(fields));
	for (size_t drop = 0; drop < job->nr_fields; drop++) {
		size_t n = 0;

		if (job->fields[drop].kind == KFSIM_REC_NOT_CARRIED)
			continue;
		for (size_t k = 0; k < job->nr_fields; k++)
			if (k != drop)
				fields[n++] = job->fields[k];
		cut.fields = fields;
		cut.nr_fields = n;
		caught_check += kfsim_rec_table_check(&cut, why, sizeof(why)) != 0;
		/* the round trip compares every byte of the struct's fields (its padding as the
		 * whole table has it): a field the cut table does not carry differs */
		layout_of = job;
		/* a count left out with its arrays still there is the table check's alone: the
		 * round trip would fill arrays of the count's raw bytes */
		if (counts_an_array(job, &job->fields[drop]))
			caught_trip++;
		else
			caught_trip += round_trip(&cut, &len, what, sizeof(what)) != 0;
		layout_of = NULL;
	}
	printf("%s: each of its %zu fields left out of the table: the table check caught %u, the "
	       "round trip %u\n", job->name, job->nr_fields, caught_check, caught_trip);
	assert_int_equal(caught_check, job->nr_fields);
	assert_int_equal(caught_trip, job->nr_fields);
}

/* A good record of a small result, for the damaged ones below. */
static char *good_record(void)
{
	struct kfsim_bfq_sim_result res = { 0 };
	struct kfsim_bfq_job_result jobs[2] = { 0 };
	u64 bw[3] = { 1, 2, 3 }, iops[3] = { 4, 5, 6 };

	res.nr_actuators = 2;
	res.mb_s = 12.5;
	res.nr_jobs = 2;
	res.jobs = jobs;
	snprintf(jobs[0].name, sizeof(jobs[0].name), "a");
	snprintf(jobs[1].name, sizeof(jobs[1].name), "b");
	jobs[1].ss_dur_s = 3;
	jobs[1].ss_bw_data = bw;
	jobs[1].ss_iops_data = iops;
	jobs[1].ss_attained = true;
	jobs[1].error = -ETIMEDOUT;
	return kfsim_bfq_result_record(&res);
}

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	char *out;

	assert_non_null(at);
	out = malloc(strlen(s) - strlen(from) + strlen(to) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return out;
}

static void test_damaged_records_refused(void **state)
{
	static const struct {
		const char *what, *from, *to, *expect;
	} cases[] = {
		{ "a field missing", "\"mb_s\":12.5,", "", "\"mb_s\"" },
		{ "a field renamed", "\"jain\"", "\"jian\"", "\"jain\"" },
		{ "a bool of 2", "\"jobs.1.ss_attained\":1", "\"jobs.1.ss_attained\":2",
		  "jobs.1.ss_attained" },
		{ "a negative count", "\"jobs.0.requests\":0", "\"jobs.0.requests\":-1",
		  "jobs.0.requests" },
		{ "an errno beyond MAX_ERRNO", "\"jobs.1.error\":110", "\"jobs.1.error\":5000",
		  "jobs.1.error" },
		{ "a sample short", "[1,2,3]", "[1,2]", "jobs.1.ss_bw_data" },
		{ "a sample more", "[4,5,6]", "[4,5,6,7]", "jobs.1.ss_iops_data" },
		{ "a bare NaN", "\"mb_s\":12.5", "\"mb_s\":NaN", "\"mb_s\"" },
		{ "a number in hex", "\"mb_s\":12.5", "\"mb_s\":0x1p3", "\"mb_s\"" },
		{ "more actuators than the disk can have", "\"nr_actuators\":2",
		  "\"nr_actuators\":17", "nr_actuators" },
		{ "a count of jobs the record cannot hold", "\"nr_jobs\":2", "\"nr_jobs\":900000",
		  "jobs" },
		/* a job takes some 500 bytes: 300 of them are refused before they are allocated */
		{ "a count of jobs past the record's bytes", "\"nr_jobs\":2", "\"nr_jobs\":300",
		  "more than the record holds" },
		{ "a count of samples the record cannot hold", "\"jobs.1.ss_dur_s\":3",
		  "\"jobs.1.ss_dur_s\":99999999", "jobs.1.ss_bw_data" },
		{ "a name too long", "\"jobs.0.name\":\"a\"",
		  "\"jobs.0.name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"", "jobs.0.name" },
		{ "an escape with a sign", "\"jobs.0.name\":\"a\"", "\"jobs.0.name\":\"\\u+061\"",
		  "jobs.0.name" },
		{ "an escape with a blank", "\"jobs.0.name\":\"a\"", "\"jobs.0.name\":\"\\u 061\"",
		  "jobs.0.name" },
		{ "an escape of two digits", "\"jobs.0.name\":\"a\"", "\"jobs.0.name\":\"\\u61\"",
		  "jobs.0.name" },
		{ "a key with a CR and an escape", "\"jain\"", "\"ja\r\x1b[2Kin\"", "\"jain\"" },
		{ "a field added at the end", "}", ",\"x\":1}", "more after the last field" },
		{ "cut short", "\"replay_makespan_s\":0}", "\"replay_makespan_s\":0",
		  "replay_makespan_s" },
	};
	char *good = good_record(), why[256];
	struct kfsim_bfq_sim_result res;

	(void)state;
	assert_int_equal(kfsim_bfq_result_unrecord(good, &res, why, sizeof(why)), 0);
	assert_int_equal(res.jobs[1].ss_iops_data[2], 6);
	assert_int_equal(res.jobs[1].error, -ETIMEDOUT);
	kfsim_bfq_result_release(&res);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		/* the last '}' of the record for the cases that edit its end */
		char *bad = !strcmp(cases[i].from, "}") ?
				    replace(good + strlen(good) - 1, "}", cases[i].to) : NULL;
		char *rec;
		int err;

		if (bad) {
			rec = malloc(strlen(good) + strlen(bad) + 1);
			assert_non_null(rec);
			sprintf(rec, "%.*s%s", (int)strlen(good) - 1, good, bad);
			free(bad);
		} else {
			rec = replace(good, cases[i].from, cases[i].to);
		}
		err = kfsim_bfq_result_unrecord(rec, &res, why, sizeof(why));
		printf("%s: %s (%s)\n", cases[i].what, err ? "refused" : "TAKEN", why);
		assert_int_equal(err, -EINVAL);
		assert_non_null(strstr(why, cases[i].expect));
		for (const char *c = why; *c; c++)	/* one plain line, whatever the file held */
			assert_true(*c >= 0x20 && *c < 0x7f);
		assert_null(res.jobs);
		assert_int_equal(res.nr_actuators, 0);	/* nothing half-read is left */
		assert_true(res.mb_s == 0);
		free(rec);
	}
	free(good);
}

/*
 * A string cut inside a \u escape ("\u1" and the end of the record): refused, and read no
 * further than its end (the buffer is exactly the record's size, so ASan sees a byte read past
 * it: the reader skipped four bytes after "\u" whatever they were).
 */
static void test_escape_cut_at_the_end(void **state)
{
	static const char *const tails[] = { "\\u1", "\\u", "\\u12", "\\u123", "\\" };
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tails); i++) {
		size_t len = strlen("{\"k\":\"") + strlen(tails[i]);
		char *rec = malloc(len + 1);

		assert_non_null(rec);
		snprintf(rec, len + 1, "{\"k\":\"%s", tails[i]);
		assert_int_equal(kfsim_rec_read_string(rec + 5, buf, sizeof(buf)), -EINVAL);
		assert_int_not_equal(kfsim_rec_get_str(rec, "k", buf, sizeof(buf)), 0);
		printf("a record cut after '%s': refused\n", tails[i]);
		free(rec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_cover_their_structs),
		cmocka_unit_test(test_round_trip_whole),
		cmocka_unit_test(test_forgotten_field_caught),
		cmocka_unit_test(test_damaged_records_refused),
		cmocka_unit_test(test_escape_cut_at_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
