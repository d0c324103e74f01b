// SPDX-License-Identifier: MIT
/*
 * One recorded trace, printed in each layout the tracefs "blk" tracer's options give, must read
 * as the same records.  The referee is the running kernel: tests/bfq/tracefs_layouts.sh records
 * a workload on a scratch loop device and prints the buffer once per layout (ctest
 * bfq/replay_layouts_live points KFSIM_TRACE_LAYOUTS_DIR at that capture); without it the test
 * reads examples/bfq/tracefs-layouts, a capture the script made on 6.18.44.
 *
 * Each set (a directory) holds default.txt and the other layouts of the same buffer.  The
 * records must agree field for field; times as far as each layout prints them: blk_classic
 * in ns (the default in us, rounded: ns2usecs()), latency-format in us since the buffer began
 * (rounded after the subtraction, so 1 us either way), verbose latency-format in hex us.  The layouts no
 * replay can use (context-info off: no time, no pid; the set "ticks", taken with the counter
 * clock) must be refused with the reason.  Synthetic lines cover what a capture here cannot
 * show: a cgroup path with spaces (cgroup v2's io controller), a known tgid.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

#include "../support/cli_assert.h"

struct parsed {
	long nr;			/* records, or -errno */
	long done;			/* records a completion ended (closed-loop replay) */
	struct kfsim_blktrace_rec *recs;
	char err[512];
};

static struct parsed parse_text(const char *text, size_t len)
{
	struct parsed p = { 0 };

	p.nr = kfsim_blktrace_parse_buf(text, len, &p.recs, p.err, sizeof(p.err), NULL, NULL);
	if (p.nr > 0) {
		p.done = kfsim_blktrace_deps(text, len, p.recs, (size_t)p.nr);
		assert_true(p.done >= 0);
	}
	return p;
}

static struct parsed parse_file(const char *path)
{
	char *text = read_whole_file(path);
	struct parsed p = parse_text(text, strlen(text));

	free(text);
	return p;
}

static u64 diff_abs(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/* @got, read from layout @name, against @want, read from default.txt of the same buffer. */
static void assert_same_records(const char *name, const struct parsed *want,
				const struct parsed *got)
{
	bool classic = !strcmp(name, "blk_classic");
	bool relative = !strncmp(name, "latency", 7) && !strstr(name, "verbose");
	/* a think time is a difference of two times, each truncated once more */
	u64 slack = relative ? 2000 : 1000;

	assert_int_equal(got->nr, want->nr);
	assert_int_equal(got->done, want->done);
	for (long i = 0; i < want->nr; i++) {
		const struct kfsim_blktrace_rec *w = &want->recs[i], *g = &got->recs[i];

		assert_int_equal(g->pid, w->pid);
		assert_int_equal(g->dev, w->dev);
		assert_int_equal(g->sector, w->sector);
		assert_int_equal(g->nr_sectors, w->nr_sectors);
		assert_int_equal(g->write, w->write);
		assert_int_equal(g->sync, w->sync);
		assert_int_equal(g->depth, w->depth);
		if (classic) {
			assert_int_equal((g->time_ns + 500) / 1000, w->time_ns / 1000);
		} else if (relative) {
			u64 dw = w->time_ns - want->recs[0].time_ns;
			u64 dg = g->time_ns - got->recs[0].time_ns;

			assert_true(diff_abs(dw, dg) <= 1000);
		} else {
			assert_int_equal(g->time_ns, w->time_ns);
		}
		assert_true(diff_abs(g->think_ns, w->think_ns) <= slack);
	}
}

static void check_set(const char *dir, const char *set, unsigned int *files, long *records)
{
	char path[1024];
	bool ticks = !strcmp(set, "ticks");
	struct parsed want;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/default.txt", dir, set);
	want = parse_file(path);
	if (ticks) {
		print_message("%s/default: %s\n", set, want.err);
		assert_int_equal(want.nr, -EINVAL);
		assert_non_null(strstr(want.err, "clock ticks"));
	} else {
		assert_true(want.nr > 0);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, set);
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char name[256];
		struct parsed got;

		if (len < 5 || strcmp(de->d_name + len - 4, ".txt") ||
		    !strcmp(de->d_name, "default.txt") || len - 4 >= sizeof(name))
			continue;
		memcpy(name, de->d_name, len - 4);
		name[len - 4] = '\0';
		snprintf(path, sizeof(path), "%s/%s/%s", dir, set, de->d_name);
		got = parse_file(path);
		if (ticks || !strcmp(name, "nocontext")) {
			print_message("%s/%s: refused: %.120s\n", set, name, got.err);
			assert_int_equal(got.nr, -EINVAL);
			assert_non_null(strstr(got.err, ticks ? "clock ticks" : "context-info"));
		} else {
			print_message("%s/%s: %ld records (%ld completed), as default.txt's\n", set,
				      name, got.nr, got.done);
			assert_same_records(name, &want, &got);
			*records += got.nr;
		}
		(*files)++;
		kvfree(got.recs);
	}
	closedir(d);
	kvfree(want.recs);
}

static void test_every_layout_reads_alike(void **state)
{
	const char *dir = getenv("KFSIM_TRACE_LAYOUTS_DIR");
	const char *sets[] = { "plain", "cgroup", "ticks" };
	unsigned int files = 0;
	long records = 0;

	(void)state;
	if (!dir || !*dir)
		dir = KFSIM_SOURCE_DIR "/examples/bfq/tracefs-layouts";
	print_message("layouts of %s\n", dir);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		check_set(dir, sets[i], &files, &records);
	print_message("compared %u layouts against their default.txt: %ld records agree\n",
		      files, records);
	assert_true(files >= 12);
}

static void test_lines_a_capture_here_cannot_show(void **state)
{
	/* cgroup v2 paths with spaces; a known tgid; latency-format's colon apart (" 87us :") */
	static const char text[] =
		"              dd-100     [000] d..1. 10.000001:   8,0   /a b/c d  Q  WS 8 + 8 [dd]\n"
		"              dd-100     (    100) [001] d..1. 10.000002:   8,0    Q  R 16 + 8 [dd]\n"
		"    my comm-4242   [001] 10.000003:   8,0   1a2b,0  queue  RS 24 + 8 [my comm]\n"
		"      dd-100     0d..1.   87us :   8,0    Q  W 32 + 8 [dd]\n"
		/* paths with an action's name as a word of their own */
		"              dd-100     [000] d..1. 10.000004:   8,0   /a Q b  Q  W 40 + 8 [dd]\n"
		"              dd-100     [000] d..1. 10.000005:   8,0   /x Q R  Q  RS 48 + 8 [dd]\n"
		"              dd-100     [000] d..1. 10.000006:   8,0   /y queue  queue  W 56 + 8 [dd]\n";
	struct parsed p = parse_text(text, sizeof(text) - 1);

	(void)state;
	assert_int_equal(p.nr, 7);
	assert_int_equal(p.recs[0].sector, 8);
	assert_true(p.recs[0].write && p.recs[0].sync);
	assert_int_equal(p.recs[1].pid, 100);
	assert_int_equal(p.recs[1].time_ns, 10000002000ULL);
	assert_int_equal(p.recs[2].pid, 4242);
	assert_true(!p.recs[2].write && p.recs[2].sync);
	assert_int_equal(p.recs[3].time_ns, 87000);
	assert_int_equal(p.recs[3].dev, 8U << 20);
	for (int i = 4; i < 7; i++)
		assert_int_equal(p.recs[i].sector, 40 + 8 * (i - 4));
	assert_true(p.recs[4].write && !p.recs[4].sync);
	assert_true(!p.recs[5].write && p.recs[5].sync);
	assert_true(p.recs[6].write);
	kvfree(p.recs);
}

static void test_unreplayable_layouts_name_every_line(void **state)
{
	static const char text[] =
		"# tracer: blk\n"
		"              dd-7       [000] d..1.           56:   7,0    Q  WS 0 + 128 [dd]\n"
		"  7,0    Q  WS 128 + 128 [dd]\n"
		"              dd-7       [000] d..1.           60:   7,0    P   N [dd]\n"
		"              dd-7       [000] d..1. 1.000001:   7,0    Q  WS 256 + 128 [dd]\n";
	struct parsed p = parse_text(text, sizeof(text) - 1);

	(void)state;
	print_message("%s\n", p.err);
	assert_int_equal(p.nr, -EINVAL);
	assert_non_null(strstr(p.err, "line 2: the time is in clock ticks"));
	assert_non_null(strstr(p.err, "line 3: the line has no time and no pid"));
	assert_null(strstr(p.err, "line 4"));	/* not a Q event: nothing to refuse */
	assert_null(strstr(p.err, "line 5"));
}

/* xorshift64: the same mutations on every run */
static u64 mutation_rand(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * Every layout's lines, cut, spliced and overwritten at random, each in a buffer of its own
 * exact size (so that ASan sees a read past a line's end): the reader returns records or an
 * error naming a line, never more records than the line could hold, and never crashes.
 */
static void test_mutated_lines_never_crash(void **state)
{
	static const char *const files[] = {
		"plain/default.txt", "plain/blk_classic.txt", "plain/latency-verbose.txt",
		"plain/record-tgid.txt", "plain/latency.txt", "cgroup/cgname.txt",
		"plain/nocontext.txt", "ticks/default.txt",
	};
	static const char bytes[] = " \t-:[](),.+/<>0123456789QCusmx\r#";
	unsigned int tried = 0, read_ok = 0, refused = 0;
	u64 seed = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
		char path[512];
		char *text, *line, *save = NULL;

		snprintf(path, sizeof(path), "%s/examples/bfq/tracefs-layouts/%s",
			 KFSIM_SOURCE_DIR, files[fi]);
		text = read_whole_file(path);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			size_t len = strlen(line);

			for (int m = 0; m < 8; m++) {
				size_t n = len + 4;
				char *buf = malloc(n);
				struct kfsim_blktrace_rec *recs = NULL;
				char err[256];
				long nr;

				assert_non_null(buf);
				memcpy(buf, line, len);
				n = len;
				for (int k = 0; k < 1 + (int)(mutation_rand(&seed) % 3); k++) {
					size_t at = n ? mutation_rand(&seed) % n : 0;

					switch (mutation_rand(&seed) % 3) {
					case 0:		/* cut the line here */
						n = at;
						break;
					case 1:		/* overwrite a byte */
						if (n)
							buf[at] = bytes[mutation_rand(&seed) %
									(sizeof(bytes) - 1)];
						break;
					default:	/* drop a byte */
						if (n) {
							memmove(buf + at, buf + at + 1, n - at - 1);
							n--;
						}
					}
				}
				nr = kfsim_blktrace_parse_buf(buf, n, &recs, err, sizeof(err), NULL,
							      NULL);
				tried++;
				if (nr >= 0) {
					read_ok++;
					/* one line: one bio, at most its split into max_sectors parts */
					assert_true(nr == 0 || recs);
					kvfree(recs);
				} else {
					refused++;
					assert_non_null(strstr(err, "line 1: "));
				}
				free(buf);
			}
		}
		free(text);
	}
	print_message("%u mutated lines: %u read, %u refused with the line named\n", tried,
		      read_ok, refused);
	assert_true(tried > 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_layout_reads_alike),
		cmocka_unit_test(test_lines_a_capture_here_cannot_show),
		cmocka_unit_test(test_unreplayable_layouts_name_every_line),
		cmocka_unit_test(test_mutated_lines_never_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
