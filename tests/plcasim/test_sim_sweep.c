// SPDX-License-Identifier: MIT
/*
 * The sweep as a library: kfsim_plca_sweep() against its points run one by one, and the plots
 * of kfsim_plca_sweep_svg(): both files or neither, the same bytes as the streams' writer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <kfsim/kernel.h>
#include <kfsim/plca_sim.h>
#include <kfsim/slab.h>
#include "support/cli_assert.h"

#define NODES 3
#define NR_POINTS (2 * NODES)

static struct plca_sweep_point points[NR_POINTS];

static int run_sweep(void **state)
{
	struct plca_sim_bus_config cfg;

	(void)state;
	kfsim_plca_sweep_config_default(&cfg);
	cfg.seg.nr_nodes = NODES;
	return kfsim_plca_sweep(&cfg.seg, 2 * NSEC_PER_MSEC, cfg.seed, points) == NR_POINTS ? 0
												: -1;
}

/* Every point alone, with the sweep's seed, is the point the whole sweep gave (PLCA even). */
static void test_points_alone_are_the_sweep(void **state)
{
	struct plca_sim_bus_config cfg;
	struct plca_sweep_point one;

	(void)state;
	kfsim_plca_sweep_config_default(&cfg);
	cfg.seg.nr_nodes = NODES;
	for (u32 i = 0; i < NR_POINTS; i++) {
		assert_int_equal(kfsim_plca_sweep_point(&cfg.seg, 2 * NSEC_PER_MSEC, cfg.seed, i,
							&one), 0);
		assert_int_equal(one.senders, i / 2 + 1);
		assert_int_equal(one.mode, i % 2 ? PLCA_SIM_MODE_CSMA : PLCA_SIM_MODE_PLCA);
		assert_memory_equal(&one, &points[i], sizeof(one));
	}
	assert_int_equal(kfsim_plca_sweep_point(&cfg.seg, 2 * NSEC_PER_MSEC, cfg.seed, NR_POINTS,
						&one), -EINVAL);
}

/*
 * Out of memory anywhere in a point (building the segment, or the event queue's growth in the
 * middle of its run): -ENOMEM, never figures of a run that stopped short.
 */
static void test_point_out_of_memory(void **state)
{
	struct plca_sim_bus_config cfg;
	struct plca_sweep_point one;
	u32 failed = 0;

	(void)state;
	kfsim_plca_sweep_config_default(&cfg);
	cfg.seg.nr_nodes = 64;	/* 64 CSMA/CD senders: their backoffs grow the event queue */
	for (unsigned int nth = 1; nth < 400; nth += 3) {
		int ret;

		kfsim_kmalloc_fail_nth(nth);
		ret = kfsim_plca_sweep_point(&cfg.seg, 5 * NSEC_PER_MSEC, cfg.seed, 127, &one);
		kfsim_kmalloc_fail_nth(0);
		if (ret) {
			assert_int_equal(ret, -ENOMEM);
			failed++;
			continue;
		}
		assert_int_equal(one.rep.now_ns, 5 * NSEC_PER_MSEC);
	}
	print_message("%u of 133 allocation failures ended the point with -ENOMEM\n", failed);
	assert_true(failed > 0);
}

/* The two files hold what the streams' writer writes, byte for byte. */
static void test_svg_files_are_the_plots(void **state)
{
	char dir[] = "/tmp/kfsim-sweep-svg-XXXXXX", prefix[64], path[96];
	char *thr = NULL, *lat = NULL, *text;
	size_t thr_len, lat_len;
	FILE *f_thr, *f_lat;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(prefix, sizeof(prefix), "%s/p", dir);
	assert_int_equal(kfsim_plca_sweep_svg(points, NR_POINTS, prefix), 0);
	f_thr = open_memstream(&thr, &thr_len);
	f_lat = open_memstream(&lat, &lat_len);
	assert_int_equal(kfsim_plca_sweep_svg_write(points, NR_POINTS, f_thr, f_lat), 0);
	fclose(f_thr);
	fclose(f_lat);
	assert_non_null(strstr(thr, "<svg"));
	assert_non_null(strstr(lat, "CSMA/CD p99"));
	snprintf(path, sizeof(path), "%s-throughput.svg", prefix);
	text = read_whole_file(path);
	assert_string_equal(text, thr);
	free(text);
	unlink(path);
	snprintf(path, sizeof(path), "%s-latency.svg", prefix);
	text = read_whole_file(path);
	assert_string_equal(text, lat);
	free(text);
	unlink(path);
	free(thr);
	free(lat);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * What cannot be drawn or named writes nothing: one point (no line to draw) keeps both old
 * plots; a prefix one of whose names is too long makes neither file, not even the other.
 */
static void test_svg_failures_keep_old_files(void **state)
{
	char dir[] = "/tmp/kfsim-sweep-svg-XXXXXX", prefix[64], thr[96], lat[96];
	char long_prefix[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(prefix, sizeof(prefix), "%s/p", dir);
	snprintf(thr, sizeof(thr), "%s-throughput.svg", prefix);
	snprintf(lat, sizeof(lat), "%s-latency.svg", prefix);
	write_file(thr, "old throughput\n");
	write_file(lat, "old latency\n");
	assert_int_equal(kfsim_plca_sweep_svg(points, 1, prefix), -EINVAL);
	assert_file_is(thr, "old throughput\n");
	assert_file_is(lat, "old latency\n");
	unlink(thr);
	unlink(lat);
	/* a last component of 241 bytes: "-latency.svg" fits NAME_MAX (255), "-throughput.svg" not */
	snprintf(long_prefix, sizeof(long_prefix), "%s/%0241d", dir, 0);
	assert_int_equal(kfsim_plca_sweep_svg(points, NR_POINTS, long_prefix), -ENAMETOOLONG);
	assert_int_equal(rmdir(dir), 0); /* empty: nothing was made */
	/* a directory that does not exist: the open's own error */
	assert_int_equal(kfsim_plca_sweep_svg(points, NR_POINTS, "/nonexistent-dir/p"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_alone_are_the_sweep),
		cmocka_unit_test(test_point_out_of_memory),
		cmocka_unit_test(test_svg_files_are_the_plots),
		cmocka_unit_test(test_svg_failures_keep_old_files),
	};

	return cmocka_run_group_tests(tests, run_sweep, NULL);
}
