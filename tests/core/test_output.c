// SPDX-License-Identifier: MIT
/* The output helpers every part shares: JSON writer, trace-event files, SVG plots. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/outfile.h>
#include <kfsim/svg_plot.h>
#include <kfsim/trace_event.h>

static char *capture(FILE *f)
{
	long len;
	char *text;

	fflush(f);
	len = ftell(f);
	text = calloc(1, (size_t)len + 1);
	rewind(f);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	return text;
}

static void test_json_document(void **state)
{
	FILE *f = tmpfile();
	struct kfsim_json json;
	char *text;

	kfsim_json_init(&json, f, false);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_string(&json, "name", "a\"b\\c\n\x01");
	kfsim_json_kv_int(&json, "neg", -5);
	kfsim_json_kv_double(&json, "nan", NAN);
	kfsim_json_key(&json, "list");
	kfsim_json_array_begin(&json);
	kfsim_json_uint(&json, 1);
	kfsim_json_bool(&json, true);
	kfsim_json_null(&json);
	kfsim_json_object_begin(&json);
	kfsim_json_object_end(&json);
	kfsim_json_array_end(&json);
	kfsim_json_object_end(&json);
	assert_int_equal(kfsim_json_finish(&json), 0);
	text = capture(f);
	assert_string_equal(text, "{\"name\":\"a\\\"b\\\\c\\n\\u0001\",\"neg\":-5,\"nan\":null,"
				  "\"list\":[1,true,null,{}]}\n");
	free(text);
	fclose(f);
}

/* JSON text is UTF-8: well-formed sequences pass, other bytes become U+FFFD. */
static void test_json_strings_stay_utf8(void **state)
{
	FILE *f = tmpfile();
	struct kfsim_json json;
	char *text;

	kfsim_json_init(&json, f, false);
	kfsim_json_array_begin(&json);
	kfsim_json_string(&json, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");	/* é € penguin */
	kfsim_json_string(&json, "eth\xff");		/* not UTF-8 at all */
	kfsim_json_string(&json, "\xc3");		/* cut short at the end */
	kfsim_json_string(&json, "\xc0\xaf");		/* overlong '/' */
	kfsim_json_string(&json, "\xed\xa0\x80");	/* a surrogate */
	kfsim_json_string(&json, "\xf4\x90\x80\x80");	/* past U+10FFFF */
	kfsim_json_array_end(&json);
	assert_int_equal(kfsim_json_finish(&json), 0);
	text = capture(f);
	assert_string_equal(text, "[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7\",\"eth\\ufffd\","
				  "\"\\ufffd\",\"\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\","
				  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"]\n");
	free(text);
	fclose(f);
}

static void test_json_misuse_is_reported(void **state)
{
	FILE *f = tmpfile();
	struct kfsim_json json;

	kfsim_json_init(&json, f, true);
	kfsim_json_object_begin(&json);
	kfsim_json_int(&json, 3);	/* no key */
	kfsim_json_object_end(&json);
	assert_int_equal(kfsim_json_finish(&json), -EINVAL);

	kfsim_json_init(&json, f, true);
	kfsim_json_array_begin(&json);
	kfsim_json_object_end(&json);	/* wrong closer */
	assert_int_equal(kfsim_json_finish(&json), -EINVAL);

	kfsim_json_init(&json, f, true);
	kfsim_json_array_begin(&json);	/* never closed */
	assert_int_equal(kfsim_json_finish(&json), -EINVAL);
	fclose(f);
}

static void test_trace_file(void **state)
{
	char path[] = "/tmp/kfsim-trace-XXXXXX";
	struct kfsim_trace trace;
	int fd = mkstemp(path);
	FILE *f;
	char *text;

	close(fd);
	assert_int_equal(kfsim_trace_open(&trace, path), 0);
	kfsim_trace_name_process(&trace, 1, "bus");
	kfsim_trace_name_thread(&trace, 1, 2, "node \"2\"");
	kfsim_trace_complete(&trace, 1, 2, "BEACON", "plca", 1.5, 2.0, "\"bt\": 20");
	kfsim_trace_instant(&trace, 1, 2, "collision", "csma", 4.0);
	kfsim_trace_counter(&trace, 1, "queue", 5.0, 3);
	assert_int_equal(kfsim_trace_close(&trace), 0);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	text = capture(f);
	assert_non_null(strstr(text, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"));
	assert_non_null(strstr(text, "\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"BEACON\","
				     "\"cat\":\"plca\",\"ts\":1.500,\"dur\":2.000,\"args\":{\"bt\": 20}}"));
	assert_non_null(strstr(text, "\"name\":\"node \\\"2\\\"\""));
	assert_non_null(strstr(text, "\n]}\n"));
	assert_int_equal(trace.nr_events, 5);
	free(text);
	fclose(f);
	unlink(path);
	assert_int_equal(kfsim_trace_open(&trace, "/nonexistent-dir/x.json"), -ENOENT);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	text = capture(f);
	fclose(f);
	return text;
}

/* A failed or abandoned trace leaves the user's file as it was. */
static void test_trace_keeps_old_file(void **state)
{
	char path[] = "/tmp/kfsim-trace-XXXXXX";
	struct kfsim_trace trace;
	int fd = mkstemp(path);
	char *text;

	assert_int_equal(write(fd, "old\n", 4), 4);
	close(fd);
	assert_int_equal(kfsim_trace_open(&trace, path), 0);
	kfsim_trace_instant(&trace, 1, 1, "x", "y", 1.0);
	kfsim_trace_abort(&trace);
	text = read_all(path);
	assert_string_equal(text, "old\n");
	free(text);
	unlink(path);

	assert_int_equal(kfsim_trace_open(&trace, "/dev/full"), 0);
	for (int i = 0; i < 1000; i++)
		kfsim_trace_instant(&trace, 1, 1, "x", "y", i);
	assert_int_equal(kfsim_trace_close(&trace), -ENOSPC);
}

/*
 * kfsim_trace_finish(): the trace's file committed in a group with another file, all or none.
 * A group whose other member cannot be written leaves the old trace; a good group replaces
 * both; a stream trace has no file of its own to hand over.
 */
static void test_trace_finish_in_a_group(void **state)
{
	char path[] = "/tmp/kfsim-trace-XXXXXX";
	struct kfsim_outfile full, *group[2];
	struct kfsim_trace trace;
	int fd = mkstemp(path);
	FILE *mem;
	char *text;

	assert_int_equal(write(fd, "old\n", 4), 4);
	close(fd);
	assert_int_equal(kfsim_trace_open(&trace, path), 0);
	kfsim_trace_instant(&trace, 1, 1, "x", "y", 1.0);
	group[0] = kfsim_trace_finish(&trace);
	assert_non_null(group[0]);
	assert_int_equal(trace.nr_events, 1); /* the counts stay readable */
	assert_int_equal(kfsim_outfile_open(&full, "/dev/full"), 0);
	for (int i = 0; i < 10000; i++)
		fputs("data that does not fit\n", full.file);
	group[1] = &full;
	assert_int_equal(kfsim_outfile_commit_group(group, 2), -ENOSPC);
	assert_int_equal(full.err, -ENOSPC); /* the error is the file's own, where it was opened */
	text = read_all(path);
	assert_string_equal(text, "old\n");
	free(text);

	assert_int_equal(kfsim_trace_open(&trace, path), 0);
	kfsim_trace_instant(&trace, 1, 1, "x", "y", 1.0);
	group[0] = kfsim_trace_finish(&trace);
	assert_int_equal(kfsim_outfile_commit_group(group, 1), 0);
	text = read_all(path);
	assert_non_null(strstr(text, "\"name\":\"x\""));
	assert_non_null(strstr(text, "\n]}\n"));
	free(text);
	unlink(path);

	mem = tmpfile();
	assert_non_null(mem);
	kfsim_trace_open_stream(&trace, mem);
	assert_null(kfsim_trace_finish(&trace));
	assert_int_equal(kfsim_trace_close(&trace), 0);
	fclose(mem);
	(void)state;
}

/* --trace-max: events are dropped whole, the document stays valid, the window is reported. */
static void test_trace_cap(void **state)
{
	char path[] = "/tmp/kfsim-trace-XXXXXX";
	struct kfsim_trace trace;
	int fd = mkstemp(path);
	struct stat st;
	char *text;

	close(fd);
	assert_int_equal(kfsim_trace_open(&trace, path), 0);
	kfsim_trace_set_max(&trace, 1000);
	for (int i = 0; i < 100; i++)
		kfsim_trace_complete(&trace, 1, 1, "ev", "c", 10.0 * i, 5.0, NULL);
	assert_int_equal(kfsim_trace_close(&trace), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 1000);
	assert_true(st.st_size > 900);
	assert_true(trace.nr_events > 0 && trace.nr_events < 100);
	assert_int_equal(trace.nr_events + trace.nr_dropped, 100);
	assert_true(trace.first_ts_us == 0.0);
	assert_true(trace.last_ts_us == 10.0 * (double)(trace.nr_events - 1));
	assert_true(trace.first_dropped_ts_us == 10.0 * (double)trace.nr_events);
	text = read_all(path);
	/* ends as a document, not in the middle of an event */
	assert_int_equal(strcmp(text + strlen(text) - 5, "}\n]}\n"), 0);
	free(text);
	unlink(path);
}

static void test_plot_keeps_old_file(void **state)
{
	static const double x[] = { 1, 2 }, y[] = { 3, 4 };
	struct kfsim_plot_series series = { .name = "s", .x = x, .y = y, .n = 2 };
	struct kfsim_plot plot = { .title = "t", .series = &series, .nr_series = 1 };

	assert_int_equal(kfsim_plot_svg_save(&plot, "/dev/full"), -ENOSPC);
}

static void test_svg_plot(void **state)
{
	static const double x[] = { 2, 4, 8 };
	static const double y1[] = { 9.5, 9.6, 9.7 };
	static const double y2[] = { 8.0, 5.0, 2.5 };
	const struct kfsim_plot_series series[] = { { "PLCA", x, y1, 3 }, { "CSMA/CD", x, y2, 3 } };
	struct kfsim_plot plot = { .title = "Throughput <test>", .x_label = "nodes",
				   .y_label = "Mb/s", .series = series, .nr_series = 2,
				   .y_from_zero = true };
	FILE *f = tmpfile();
	char *text;

	assert_int_equal(kfsim_plot_svg_write(&plot, f), 0);
	text = capture(f);
	assert_non_null(strstr(text, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(text, "Throughput &lt;test&gt;"));
	assert_non_null(strstr(text, ">CSMA/CD</text>"));
	assert_non_null(strstr(text, "</svg>\n"));
	free(text);
	fclose(f);

	static const double bad_y[] = { 1, 0, 3 };
	const struct kfsim_plot_series bad = { "log of zero", x, bad_y, 3 };

	plot.series = &bad;
	plot.nr_series = 1;
	plot.y_log = true;
	assert_int_equal(kfsim_plot_svg_save(&plot, "/tmp/kfsim-never-written.svg"), -EINVAL);
	assert_int_equal(access("/tmp/kfsim-never-written.svg", F_OK), -1);
	plot.nr_series = 0;
	assert_int_equal(kfsim_plot_svg_write(&plot, stdout), -EINVAL);
}

/* A failed save removes the partial file it wrote, never a device it was pointed at. */
static void test_svg_save_failure_keeps_devices(void **state)
{
	static const double x[] = { 1, 2 }, y[] = { 3, 4 };
	const struct kfsim_plot_series series = { "s", x, y, 2 };
	const struct kfsim_plot plot = { .title = "t", .series = &series, .nr_series = 1 };
	const char *link = KFSIM_BINARY_DIR "/test-output-dev-full";
	struct stat st;
	int ret;

	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode))
		skip();
	/* through a link, so that a regression removes the link, not the device */
	unlink(link);
	assert_int_equal(symlink("/dev/full", link), 0);
	ret = kfsim_plot_svg_save(&plot, link);
	assert_true(ret == -EIO || ret == -ENOSPC);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(link);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_document),
		cmocka_unit_test(test_json_strings_stay_utf8),
		cmocka_unit_test(test_json_misuse_is_reported),
		cmocka_unit_test(test_svg_save_failure_keeps_devices),
		cmocka_unit_test(test_trace_file),
		cmocka_unit_test(test_trace_keeps_old_file),
		cmocka_unit_test(test_trace_finish_in_a_group),
		cmocka_unit_test(test_trace_cap),
		cmocka_unit_test(test_plot_keeps_old_file),
		cmocka_unit_test(test_svg_plot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
