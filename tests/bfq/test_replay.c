// SPDX-License-Identifier: MIT
/*
 * Replaying blkparse text (issue #15 item 7, #21 item 8).  The referee for the format is the
 * real blkparse (Debian blktrace): the test writes a binary trace of struct blk_io_trace
 * records (include/uapi/linux/blktrace_api.h: magic 0x65617407, Q actions with the category
 * bits of READ/WRITE/SYNC/FLUSH) into the build tree, has blkparse print it, and replays what
 * blkparse printed: more than 131,072 events (beyond one kmalloc), more than 64 processes, and a
 * flush line "Q FWS [..]".  Text cases cover what the binary format cannot carry (a 4 GiB bio),
 * timestamps that go backwards or overflow, and errors naming the line.
 */
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
#include <kfsim/kernel.h>
#include <kfsim/slab.h>

#define NR_EVENTS 140000
#define NR_PIDS 70

struct blk_io_trace_rec {	/* the on-disk layout of struct blk_io_trace */
	u32 magic;
	u32 sequence;
	u64 time;
	u64 sector;
	u32 bytes;
	u32 action;
	u32 pid;
	u32 device;
	u32 cpu;
	u16 error;
	u16 pdu_len;
};

#define BLK_IO_TRACE_MAGIC_V7 0x65617407U
#define BLK_TC_READ (1U << 0)
#define BLK_TC_WRITE (1U << 1)
#define BLK_TC_FLUSH (1U << 2)
#define BLK_TC_SYNC (1U << 3)
#define BLK_TA_QUEUE 1U

static bool have_blkparse(void)
{
	return system("command -v blkparse >/dev/null 2>&1") == 0;
}

/* The real blkparse's text for NR_EVENTS queued bios of NR_PIDS processes and one flush. */
static char *blkparse_text(void)
{
	const char *dir = KFSIM_BINARY_DIR "/tests/bfq/replay-trace";
	char path[512], cmd[1200];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sda.blktrace.0", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (u32 i = 0; i < NR_EVENTS + 1; i++) {
		struct blk_io_trace_rec t = {
			.magic = BLK_IO_TRACE_MAGIC_V7,
			.sequence = i + 1,
			.time = 1000ULL * i,
			.sector = 2048ULL * (i % 100000),
			.bytes = 4096,
			.action = (BLK_TC_READ << 16) | BLK_TA_QUEUE,
			.pid = 1000 + i % NR_PIDS,
			.device = (8U << 20) | 0,
		};

		if (i == 7) {	/* a flush without data: "Q FWS" */
			t.sector = 0;
			t.bytes = 0;
			t.action = ((BLK_TC_FLUSH | BLK_TC_WRITE | BLK_TC_SYNC) << 16) | BLK_TA_QUEUE;
		}
		assert_int_equal(fwrite(&t, sizeof(t), 1, f), 1);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd '%s' && blkparse -i sda -o sda.txt >/dev/null 2>&1", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sda.txt", dir);
	return strdup(path);
}

static void test_real_blkparse_text(void **state)
{
	struct kfsim_blktrace_rec *recs = NULL;
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char *path, line[256], why[160];
	bool saw_flush = false;
	FILE *in;
	long n;

	if (!have_blkparse()) {
		print_message("skipped: blkparse (Debian blktrace) is not installed\n");
		exit(77);
	}
	path = blkparse_text();
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		if (strstr(line, " Q FWS "))
			saw_flush = true;
	}
	rewind(in);
	n = kfsim_blktrace_parse(in, &recs, why, sizeof(why));
	fclose(in);
	print_message("blkparse printed %d Q events (one a flush line: %s); kfsim read %ld\n",
		      NR_EVENTS + 1, saw_flush ? "yes" : "no", n);
	assert_true(saw_flush);
	assert_int_equal(n, NR_EVENTS);	/* the flush carries no data */
	assert_int_equal(recs[0].pid, 1000);
	assert_int_equal(recs[0].nr_sectors, 8);
	assert_int_equal(recs[1].time_ns, 1000);
	assert_int_equal(recs[NR_EVENTS - 1].time_ns, 1000ULL * NR_EVENTS);
	assert_true(recs[NR_EVENTS - 1].sector == 2048ULL * (NR_EVENTS % 100000));

	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = (size_t)n;
	cfg.duration_ns = 500000000ULL;
	sim = kfsim_bfq_sim_create_msg(&cfg, why, sizeof(why));
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("replayed: %u processes, %llu submitted, %llu completed, %llu drained\n",
		      res->nr_jobs, (unsigned long long)res->submitted,
		      (unsigned long long)res->completed, (unsigned long long)res->drained);
	assert_int_equal(res->nr_jobs, NR_PIDS);
	assert_true(res->completed > 0);
	assert_int_equal(res->completed + res->drained, res->submitted);
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);
	free(path);
}

static long parse_text(const char *text, struct kfsim_blktrace_rec **recs, char *why, size_t len)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	long n = kfsim_blktrace_parse(in, recs, why, len);

	fclose(in);
	return n;
}

/* A 4 GiB bio (8388608 sectors) is split as the block layer would, and every piece completes. */
static void test_huge_bio_is_split(void **state)
{
	/* the largest a trace can say: blk_io_trace's bytes is a __u32, 4 GiB - 1 */
	const char *text = "  8,0    0        1     0.000000000  4162  Q  RS 0 + 8388607 [fio]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	u64 bytes = 0;
	char why[160];
	long n = parse_text(text, &recs, why, sizeof(why));

	assert_int_equal(n, (8388607 + 2559) / 2560);
	for (long i = 0; i < n; i++) {
		assert_true(recs[i].nr_sectors > 0 && recs[i].nr_sectors <= 2560);
		bytes += (u64)recs[i].nr_sectors * 512;
	}
	assert_int_equal(bytes, 8388607ULL * 512);
	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = (size_t)n;
	cfg.duration_ns = 100000000ULL;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->completed + res->drained, res->submitted);
	assert_true(res->jobs[0].bytes > 0);
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);
}

/*
 * A trace of discards and flushes only (fio's randtrim on a loop device, a filesystem's fstrim)
 * has Q events but nothing to replay: no record, and the reason says what they were.
 */
static void test_only_data_less_events(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 7 Q DS 7808 + 128 [fio]\n"
		"  8,0 0 2 0.000200000 7 Q FWS [fio]\n"
		"  8,0 0 3 0.000300000 7 Q N 0 + 0 [fio]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	char why[160] = "";
	long n = parse_text(text, &recs, why, sizeof(why));

	(void)state;
	assert_int_equal(n, 0);
	assert_non_null(strstr(why, "its 3 Q events carry no data"));
	kvfree(recs);
	/* with a read among them, the read is replayed and nothing is said */
	why[0] = 0;
	n = parse_text("  8,0 0 1 0.000100000 7 Q DS 7808 + 128 [fio]\n"
		       "  8,0 0 2 0.000200000 7 Q RS 100 + 8 [fio]\n", &recs, why, sizeof(why));
	assert_int_equal(n, 1);
	assert_string_equal(why, "");
	kvfree(recs);
}

/* blkparse merges per-CPU buffers: times may go backwards; the replay runs them in time order. */
static void test_backwards_timestamps(void **state)
{
	const char *text =
		"  8,0    1        1     0.002000000  11  Q   R 4096 + 8 [a]\n"
		"  8,0    0        1     0.001000000  12  Q   R 8192 + 8 [b]\n"
		"  8,0    1        2     0.000500000  11  Q   R 4104 + 8 [a]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	char why[160];
	long n = parse_text(text, &recs, why, sizeof(why));

	assert_int_equal(n, 3);
	assert_int_equal(recs[2].time_ns, 500000);
	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = 3;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	assert_int_equal(kfsim_bfq_sim_result(sim)->completed, 3);
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);
}

static void test_errors_name_the_line(void **state)
{
	struct kfsim_blktrace_rec *recs = NULL;
	char why[160];

	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 8 + 8 [a]\n"
				    "  8,0 0 2 99999999999.000000000 1 Q R 16 + 8 [a]\n",
				    &recs, why, sizeof(why)), -EOVERFLOW);
	assert_non_null(strstr(why, "line 2"));
	assert_non_null(strstr(why, "timestamp"));
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 18446744073709551615 + 8 [a]\n", &recs,
				    why, sizeof(why)), -EOVERFLOW);
	assert_non_null(strstr(why, "line 1"));
	assert_int_equal(parse_text("garbage\n\n  8,0 0 1 0.1 1 Q R x + 8 [a]\n", &recs, why,
				    sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "line 3"));
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 8 + 0 [a]\n", &recs, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "0 sectors"));
	/*
	 * What no printer of blk_io_trace (a __u32 of bytes, a dev_t of a 12-bit major) can say
	 * is damage: a count of 2^64 - 1 sectors made 2^54 records into an array sized for 1
	 * (the count of them wrapped) and crashed; a device past dev_t was taken for 0,0.
	 */
	static const char *const beyond[] = {
		"  8,0 0 1 0.1 1 Q R 0 + 18446744073709551615 [a]\n",
		"  8,0 0 1 0.1 1 Q R 0 + 18446744073709549056 [a]\n",
		"  8,0 0 1 0.1 1 Q R 0 + 8388608 [a]\n",
		"  8,0 0 1 0.1 1 Q R 4096 + 4294967296 [a]\n",
		"a-1 [000] d..1. 0.000001: 8,0 Q R 0 + 9999999999 [a]\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(beyond); i++) {
		assert_int_equal(parse_text(beyond[i], &recs, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "more sectors than a trace event can hold"));
	}
	assert_int_equal(parse_text("  4096,0 0 1 0.1 1 Q R 8 + 8 [a]\n", &recs, why,
				    sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "device"));
	assert_int_equal(parse_text("a-1 [000] d..1. 0.000001: 8,1048576 Q R 8 + 8 [a]\n", &recs,
				    why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "device"));
	/* discards, "N" events and flushes carry no data: skipped */
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q D 8 + 8 [a]\n"
				    "  8,0 0 2 0.1 1 Q N 0 + 0 [a]\n"
				    "  8,0 0 3 0.1 1 Q FWS [a]\n"
				    "  8,0 0 4 0.1 1 Q FWFS 0 + 0 [a]\n", &recs, why, sizeof(why)), 0);
	kvfree(recs);
}

/*
 * Every bad line of a trace is named in one run, in order, good lines between them or not, and
 * the first bad line's error is returned; a trace bad everywhere is told in part and counted.
 */
static void test_every_bad_line_at_once(void **state)
{
	struct kfsim_blktrace_rec *recs = NULL;
	char why[400], *many = kvzalloc(5000 * 40, GFP_KERNEL);
	size_t used = 0;

	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 8 + 8 [a]\n"
				    "  8,0 0 2 99999999999.000000000 1 Q R 16 + 8 [a]\n"
				    "  8,0 0 3 0.2 1 Q R 24 + 8 [a]\n"
				    "  8,0 0 4 0.3 1 Q R x + 8 [a]\n"
				    "  8,0 0 5 0.4 1 Q R 8 + 0 [a]\n",
				    &recs, why, sizeof(why)), -EOVERFLOW);
	print_message("told: %s\n", why);
	assert_non_null(strstr(why, "line 2: "));
	assert_non_null(strstr(strstr(why, "line 2: "), "; line 4: "));
	assert_non_null(strstr(strstr(why, "; line 4: "), "; line 5: "));
	assert_null(strstr(why, "line 1:"));
	assert_null(strstr(why, "line 3:"));
	assert_null(strstr(why, "more problems"));

	/* one reason on every line: told once, with where it recurs */
	assert_non_null(many);
	for (int i = 0; i < 5000; i++)
		used += (size_t)snprintf(many + used, 5000 * 40 - used,
					 "  8,0 0 %d 0.1 1 Q R y + 8 [a]\n", i);
	assert_int_equal(parse_text(many, &recs, why, sizeof(why)), -EINVAL);
	print_message("told: %s\n", why);
	assert_non_null(strstr(why, "line 1: malformed"));
	assert_non_null(strstr(why, "(the same on lines 2, 3, 4 and 4996 more)"));
	assert_null(strstr(why, "more problems"));
	/* reasons that take turns: each told, the rest counted */
	used = 0;
	for (int i = 0; i < 5000; i++)
		used += (size_t)snprintf(many + used, 5000 * 40 - used,
					 "  8,0 0 %d 0.1 1 Q R %s + 8 [a]\n", i, i % 2 ? "y" : "8 + 0 [a] #");
	assert_int_equal(parse_text(many, &recs, why, sizeof(why)), -EINVAL);
	print_message("told: %s\n", why);
	assert_true(strlen(why) < sizeof(why));
	assert_non_null(strstr(why, "line 1: "));
	assert_non_null(strstr(why, "more problems"));
	kvfree(many);
}

/*
 * What users bring that is not a whole trace (found replaying traces recorded on 6.18.44, see
 * docs/bfq.md "Traces users bring"): each refused with its line and reason, or, for a trace the
 * tracer itself says is missing events, replayed with a note; never read as something else.
 */
static void test_damaged_and_unreadable_traces(void **state)
{
	static const char bin_trace[] = { 0x07, 't', 'a', 'e', 0, 0, 0, 0, 1, 0 };
	static const char nul_line[] = "  7,0  0 1 0.1 1 Q R 8 + 8 [a]\n  7,0  0 2 0.2 1 Q R 1\0\0\0\n";
	struct kfsim_blktrace_rec *recs = NULL;
	char why[600];
	long n;

	/* cut short after the sectors: "+ 128" read as "+ 12" once, silently */
	assert_int_equal(parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q  WS 0 + 128 [fio]\n"
				    "  fio-1  [000] d..1. 1.000002:   7,0    Q  WS 128 + 12\n",
				    &recs, why, sizeof(why)), -EINVAL);
	print_message("told: %s\n", why);
	assert_non_null(strstr(why, "line 2: Q event cut short after its sectors"));
	/* the same as the file's end, without a newline: a truncated file, the rest replays */
	assert_int_equal(parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q  WS 0 + 128 [fio]\n"
				    "  fio-1  [000] d..1. 1.000002:   7,0    Q  WS 128 + 12",
				    &recs, why, sizeof(why)), 1);
	print_message("noted: %s\n", why);
	assert_non_null(strstr(why, "line 2: the file ends inside this line"));
	kvfree(recs);
	assert_int_equal(parse_text("  8,0    0        1     0.000000000  4162  Q  RS 223490 + 8 [a]\n"
				    "  8,0    0        2     0.0000", &recs, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "line 2: the file ends inside this line"));
	kvfree(recs);
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 8 + 8 junk\n", &recs, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "line 1: malformed Q event (expected \"[comm]\""));
	/* a process named "q: 7,0 Q" (recorded on 6.18.44): its ": 7,0 " is not the context's */
	assert_int_equal(parse_text("        q: 7,0 Q-2905    [001] d..1. 52705.200080:   7,0    Q  "
				    "RS 0 + 8 [q: 7,0 Q]\n", &recs, why, sizeof(why)), 1);
	assert_int_equal(recs[0].pid, 2905);
	assert_int_equal(recs[0].time_ns, 52705200080000ULL);
	kvfree(recs);
	/* a damaged pid or time is damage: the I/O is not dropped without a word */
	assert_int_equal(parse_text("  8,0 0 1 0.1 18x38 Q R 8 + 8 [a]\n"
				    "  8,0 0 2 0.30935x000 1 Q R 8 + 8 [a]\n", &recs, why,
				    sizeof(why)), -EINVAL);
	print_message("told: %s\n", why);
	assert_non_null(strstr(why, "line 1: malformed event (its pid is not a number)"));
	assert_non_null(strstr(why, "line 2: malformed event (its time is not a time)"));
	/* an action a later kernel may add ("ZO", "zone_open") is skipped; "C7" is damage */
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 ZO W 8 + 8 [a]\n"
				    "  fio-1  [000] d..1. 1.000001:   7,0 zone_open  W 0 + 8 [fio]\n"
				    "  8,0 0 2 0.2 1 Q R 8 + 8 [a]\n", &recs, why, sizeof(why)), 1);
	kvfree(recs);
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 C7 W 8 + 8 [a]\n", &recs, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "line 1: malformed event (no action"));
	/* blkparse -t puts the elapsed time before the name */
	assert_int_equal(parse_text("  8,0 0 1 0.1 1 Q R 8 + 8 (      12) [a]\n", &recs, why,
				    sizeof(why)), 1);
	kvfree(recs);

	/* binary: blktrace's own files, the tracefs option bin, a damaged (zero-filled) line */
	assert_int_equal(kfsim_blktrace_parse_buf(bin_trace, sizeof(bin_trace), &recs, why,
						  sizeof(why), NULL, NULL), -EINVAL);
	assert_non_null(strstr(why, "line 1: this is blktrace's binary output"));
	n = kfsim_blktrace_parse_buf(nul_line, sizeof(nul_line) - 1, &recs, why, sizeof(why), NULL,
				     NULL);
	print_message("told: %s\n", why);
	assert_int_equal(n, -EINVAL);
	assert_non_null(strstr(why, "line 2: binary data (a NUL byte)"));

	/* the tracer's header and nothing else: the device was not traced */
	assert_int_equal(parse_text("# tracer: blk\n#\n", &recs, why, sizeof(why)), 0);
	kvfree(recs);
	assert_non_null(strstr(why, "none of its 2 lines is a block event"));
	/* a compressed trace, and the block tracepoints' events instead of the blk tracer's */
	assert_int_equal(kfsim_blktrace_parse_buf("\x1f\x8b\x08\x08", 4, &recs, why, sizeof(why),
						  NULL, NULL), -EINVAL);
	assert_non_null(strstr(why, "line 1: this is a gzip-compressed file"));
	assert_int_equal(parse_text("# tracer: nop\n"
				    "  dd-19153  [001] ..... 52391.209786: block_bio_queue: 7,0 WS 0 + "
				    "128 [dd]\n", &recs, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "line 2: an event of the block tracepoints"));

	/* the tracefs options raw and hex print a block event as its type number only */
	assert_int_equal(parse_text("# tracer: blk\n#\n6905 0 51652428749093 type: 14\n"
				    "00001b06 00000001 00002efa5116fd3a type: 14\n",
				    &recs, why, sizeof(why)), -EINVAL);
	print_message("told: %s\n", why);
	assert_non_null(strstr(why, "line 3: an event printed as its type number only"));
	assert_non_null(strstr(why, "(the same on line 4)"));

	/* events the tracer lost (trace_pipe): replayed, with a note that names the line */
	n = parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q   R 0 + 8 [fio]\n"
		       "CPU:1 [LOST 76 EVENTS]\n"
		       "  fio-1  [000] d..1. 1.000090:   7,0    Q   R 8 + 8 [fio]\n"
		       "CPU:0 [LOST EVENTS]\n", &recs, why, sizeof(why));
	print_message("noted: %s\n", why);
	assert_int_equal(n, 2);
	/* "[LOST EVENTS]" did not count them: 76 is the least that was lost */
	assert_non_null(strstr(why, "line 2: the tracer lost at least 76 events (\"[LOST ...]\" on 2 "
				    "lines)"));
	kvfree(recs);
	n = parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q   R 0 + 8 [fio]\n"
		       "CPU:1 [LOST 76 EVENTS]\n"
		       "CPU:0 [LOST 18446744073709551615 EVENTS]\n"
		       "CPU:0 [LOST 3 EVENTS]\n", &recs, why, sizeof(why));
	assert_int_equal(n, 1);
	assert_non_null(strstr(why, "lost at least 18446744073709551615 events (\"[LOST ...]\" on 3"));
	kvfree(recs);
	n = parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q   R 0 + 8 [fio]\n"
		       "CPU:1 [LOST 76 EVENTS]\nCPU:0 [LOST 4 EVENTS]\n", &recs, why, sizeof(why));
	assert_non_null(strstr(why, "line 2: the tracer lost 80 events (\"[LOST ...]\" on 2 lines)"));
	kvfree(recs);
	n = parse_text("  fio-1  [000] d..1. 1.000001:   7,0    Q   R 0 + 8 [fio]\n", &recs, why,
		       sizeof(why));
	assert_int_equal(n, 1);
	assert_string_equal(why, "");
	kvfree(recs);

	/* a device-mapper device and the disk below it, both traced: each I/O on both layers */
	n = parse_text("253,1    0        1     0.000000000   100  Q   W 0 + 8 [fio]\n"
		       "  8,0    0        1     0.000001000   100  A   W 2048 + 8 <- (253,1) 0\n"
		       "  8,0    0        2     0.000002000   100  Q   W 2048 + 8 [fio]\n",
		       &recs, why, sizeof(why));
	print_message("noted: %s\n", why);
	assert_int_equal(n, 2);
	assert_non_null(strstr(why, "device 253,1 is remapped onto 8,0 (\"A\" events) and both "
				    "were traced: its 1 request replays on both layers"));
	kvfree(recs);
	/* a partition traced alone names itself as the remap's source: nothing to say */
	n = parse_text("  fio-1  [000] d..1. 1.000001: 259,0    A  WS 54080 + 8 <- (259,0) 52032\n"
		       "  fio-1  [000] d..1. 1.000002: 259,0    Q  WS 54080 + 8 [fio]\n",
		       &recs, why, sizeof(why));
	assert_int_equal(n, 1);
	assert_string_equal(why, "");
	kvfree(recs);
}

/* More processes than the 64-job limit of a configuration, each its own queue. */
static void test_many_processes(void **state)
{
	char *text = kvzalloc(200 * 80, GFP_KERNEL);
	struct kfsim_blktrace_rec *recs = NULL;
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	size_t used = 0;
	char why[160];
	long n;

	for (int i = 0; i < 200; i++)
		used += (size_t)snprintf(text + used, 200 * 80 - used,
					 "  8,0 0 %d 0.%06d %d Q RS %d + 8 [p]\n", i + 1, i, 5000 + i,
					 i * 100000);
	n = parse_text(text, &recs, why, sizeof(why));
	assert_int_equal(n, 200);
	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = 200;
	sim = kfsim_bfq_sim_create_msg(&cfg, why, sizeof(why));
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->nr_jobs, 200);
	assert_int_equal(res->completed, 200);
	assert_string_equal(res->jobs[199].name, "pid5199");
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);
	kvfree(text);
}

/*
 * A trace we took on this machine with the tracefs "blk" tracer (blktrace is refused under
 * lockdown): examples/bfq/tracefs-blk-loop0.txt, a loop device over a scratch file,
 * fio randread 4k QD4 (pid 15533) beside a 64 KiB psync writer (pid 15534), kernel 6.18.
 * Each Q line also parses as the same record when rewritten in blkparse's layout.
 */
static void test_tracefs_blk_tracer_text(void **state)
{
	const char *path = KFSIM_SOURCE_DIR "/examples/bfq/tracefs-blk-loop0.txt";
	struct kfsim_blktrace_rec *recs = NULL, *again = NULL;
	unsigned int reads = 0, writes = 0;
	char why[240], line[512], *blk = NULL;
	size_t blk_len = 0;
	FILE *in = fopen(path, "r"), *out;
	long n;

	assert_non_null(in);
	n = kfsim_blktrace_parse(in, &recs, why, sizeof(why));
	assert_int_equal(n, 135);
	for (long i = 0; i < n; i++) {
		reads += recs[i].pid == 15533 && !recs[i].write && recs[i].nr_sectors == 8;
		writes += recs[i].pid == 15534 && recs[i].write && recs[i].sync &&
			  recs[i].nr_sectors == 128;
	}
	print_message("tracefs blk text: %ld Q events, %u 4 KiB reads, %u 64 KiB sync writes\n",
		      n, reads, writes);
	assert_int_equal(reads, 81);
	assert_int_equal(writes, 54);
	assert_int_equal(recs[0].time_ns, 2926639375000ULL);	/* "2926.639375:" */
	assert_int_equal(recs[0].sector, 121344);
	/* the same events in blkparse's layout */
	rewind(in);
	out = open_memstream(&blk, &blk_len);
	while (fgets(line, sizeof(line), in)) {
		char act[8], rwbs[8];
		unsigned long long sec, usec, sector, nr;
		unsigned int pid;
		const char *bracket = strstr(line, "] ");
		const char *dash = bracket;

		while (dash > line && dash[-1] != '-')
			dash--;
		if (!bracket || dash == line ||
		    sscanf(bracket + 2, "%*s %llu.%llu: %*s %7s %7s %llu + %llu", &sec, &usec, act,
			   rwbs, &sector, &nr) != 6 || strcmp(act, "Q"))
			continue;
		pid = (unsigned int)strtoul(dash, NULL, 10);
		fprintf(out, "  7,0    1        1 %5llu.%09llu %5u  Q %3s %llu + %llu [fio]\n", sec,
			usec * 1000, pid, rwbs, sector, nr);
	}
	fclose(out);
	fclose(in);
	assert_int_equal(parse_text(blk, &again, why, sizeof(why)), n);
	for (long i = 0; i < n; i++) {
		assert_int_equal(again[i].time_ns, recs[i].time_ns);
		assert_int_equal(again[i].pid, recs[i].pid);
		assert_int_equal(again[i].sector, recs[i].sector);
		assert_int_equal(again[i].nr_sectors, recs[i].nr_sectors);
		assert_int_equal(again[i].write, recs[i].write);
		assert_int_equal(again[i].sync, recs[i].sync);
	}
	free(blk);
	kvfree(again);
	kvfree(recs);
}

/* Two devices stay apart: each gets its share of the disk; scaling spreads a small device. */
static void test_devices_and_scaling(void **state)
{
	const char *text =
		"  8,0    0        1     0.000000000  11  Q   R 0 + 8 [a]\n"
		"  8,16   0        2     0.000100000  12  Q   R 0 + 8 [b]\n"
		"  8,16   0        3     0.000200000  12  Q   W 2040 + 8 [b]\n"
		"  8,0    0        4     0.000300000  11  Q   R 1000 + 24 [a]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	const sector_t cap = 1000000;
	char why[240];

	assert_int_equal(parse_text(text, &recs, why, sizeof(why)), 4);
	assert_int_equal(recs[0].dev, 8U << 20);
	assert_int_equal(recs[1].dev, (8U << 20) | 16);
	assert_int_equal(kfsim_blktrace_place(recs, 4, cap, false, why, sizeof(why)), 0);
	assert_int_equal(recs[0].sector, 0);		/* 8,0: the first half */
	assert_int_equal(recs[3].sector, 1000);
	assert_int_equal(recs[1].sector, cap / 2);	/* 8,16: the second half */
	assert_int_equal(recs[2].sector, cap / 2 + 2040);
	kvfree(recs);
	/* scaled: 8,16's I/O ends at 2048, so sector 2040 lands near the end of its half */
	assert_int_equal(parse_text(text, &recs, why, sizeof(why)), 4);
	assert_int_equal(kfsim_blktrace_place(recs, 4, cap, true, why, sizeof(why)), 0);
	assert_true(recs[2].sector >= cap - cap / 2 / 100 - 8 && recs[2].sector < cap);
	assert_true(recs[3].sector + recs[3].nr_sectors <= cap / 2);
	assert_true(recs[3].sector > cap / 2 * 9 / 10);	/* 1000 of 1024 */
	kvfree(recs);
	/* unscaled I/O beyond a device's share is refused, nothing changed */
	assert_int_equal(parse_text(text, &recs, why, sizeof(why)), 4);
	assert_int_equal(kfsim_blktrace_place(recs, 4, 2048, false, why, sizeof(why)), -ERANGE);
	assert_non_null(strstr(why, "8,16"));
	assert_int_equal(recs[2].sector, 2040);
	kvfree(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_blkparse_text),
		cmocka_unit_test(test_huge_bio_is_split),
		cmocka_unit_test(test_only_data_less_events),
		cmocka_unit_test(test_backwards_timestamps),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_every_bad_line_at_once),
		cmocka_unit_test(test_damaged_and_unreadable_traces),
		cmocka_unit_test(test_many_processes),
		cmocka_unit_test(test_tracefs_blk_tracer_text),
		cmocka_unit_test(test_devices_and_scaling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
