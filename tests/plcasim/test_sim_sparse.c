// SPDX-License-Identifier: MIT
/*
 * The sparse engine (src/plcasim/bus_sparse.c) against the bit-level path
 * (struct plca_sim_cfg.bit_level): every segment runs both ways from the same seed, cut into the
 * same steps, and everything that can be read must be the same: each node's statistics at every
 * step and at the end, its latency histogram bucket by bucket, the report (but its event count,
 * a diagnostic of the engine), and the random generator's state at the end, which only matches
 * when every draw came in the same order.  The segments: random uniform PLCA segments as
 * `kfsim plca sim` builds them (2 to 64 nodes, Poisson and periodic senders, payload ranges,
 * to_tmr, cable lengths, carrier-sense latencies); segments built for ties (periodic senders on
 * the cycle's grid, no propagation, no CRS latency); and runs in which, after the sparse engine
 * took over, a setting, a link, a scripted frame or a trace changes, which makes it rebuild the
 * bit-level state by a replay.  Each test also checks that the sparse engine ran (and never gave
 * up), so a comparison cannot pass by never taking it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/random.h>
#include <kfsim/trace_event.h>
#include "plcasim/bus_internal.h"
#include "sim_helpers.h"

#if defined(KFSIM_ASAN) || defined(KFSIM_TSAN)
#define SCALE 8 /* sanitizers run ~10x slower: fewer random segments */
#else
#define SCALE 1
#endif

#define MS(x) ((u64)(x)*1000000)
#define MAX_NODES 64
#define MAX_STEPS 6

/* Something done to the segment after a step: 0 nothing, 1 link, 2 set_plca, 3 inject, 4 trace. */
struct step {
	u64 until;
	int what;
	u32 node;
	u32 arg;
};

struct outcome {
	struct plca_sim_report rep;
	struct plca_sim_node_stats st[MAX_NODES];
	struct plca_sim_node_stats mid[MAX_STEPS][MAX_NODES];
	u64 lat_sum[MAX_NODES];
	u32 *bucket[MAX_NODES];
	struct rnd_state rnd;
	u64 sp_frames, sp_takeovers, sp_bails, sp_replays, delivered;
	char *trace;
	size_t trace_len;
};

/* What the sparse engine did over the runs of a test. */
static u64 sum_frames, sum_takeovers, sum_bails, sum_replays, sum_delivered;

static void run(const struct plca_sim_node_cfg *nodes, u32 nr, u64 seed, int crs_delay,
		const struct step *steps, u32 nr_steps, bool bit_level, struct outcome *out)
{
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = nr, .seed = seed,
				   .crs_delay_ns = crs_delay, .bit_level = bit_level};
	struct kfsim_trace tr = {0};
	FILE *mem = NULL;
	struct plca_sim *sim;

	memset(out, 0, sizeof(*out));
	sim = kfsim_plca_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	for (u32 i = 0; i < nr_steps; i++) {
		struct phy_plca_cfg c;

		assert_int_equal(kfsim_plca_sim_run_until(sim, steps[i].until), 0);
		for (u32 j = 0; j < nr; j++)
			kfsim_plca_sim_node_stats(sim, j, &out->mid[i][j]);
		switch (steps[i].what) {
		case 1:
			assert_int_equal(kfsim_plca_sim_set_link(sim, steps[i].node,
								 steps[i].arg & 1), 0);
			break;
		case 2:
			assert_int_equal(kfsim_plca_sim_get_plca_cfg(sim, steps[i].node, &c), 0);
			c.to_tmr = (int)(steps[i].arg % 64);
			assert_int_equal(kfsim_plca_sim_set_plca(sim, steps[i].node, &c), 0);
			break;
		case 3:
			assert_int_equal(kfsim_plca_sim_inject(sim, steps[i].node,
							       kfsim_plca_sim_now(sim) + steps[i].arg,
							       steps[i].arg % 1501), 0);
			break;
		case 4:
			if (mem)
				break;
			mem = open_memstream(&out->trace, &out->trace_len);
			assert_non_null(mem);
			kfsim_trace_open_stream(&tr, mem);
			kfsim_plca_sim_set_trace(sim, &tr, 1);
			break;
		default:
			break;
		}
	}
	kfsim_plca_sim_report(sim, &out->rep);
	out->rep.events = 0; /* the engine's own diagnostic */
	for (u32 i = 0; i < nr; i++) {
		kfsim_plca_sim_node_stats(sim, i, &out->st[i]);
		out->lat_sum[i] = sim->nodes[i].lat.sum;
		out->bucket[i] = malloc(KFSIM_HIST_BUCKETS * sizeof(u32));
		assert_non_null(out->bucket[i]);
		memcpy(out->bucket[i], sim->nodes[i].lat.bucket, KFSIM_HIST_BUCKETS * sizeof(u32));
		out->delivered += out->st[i].delivered;
	}
	out->rnd = sim->rnd;
	out->sp_frames = sim->sp_frames;
	out->sp_takeovers = sim->sp_takeovers;
	out->sp_bails = sim->sp_bails;
	out->sp_replays = sim->sp_replays;
	if (mem) {
		kfsim_plca_sim_set_trace(sim, NULL, 0);
		assert_int_equal(kfsim_trace_close(&tr), 0);
		fclose(mem);
	}
	kfsim_plca_sim_destroy(sim);
}

static void free_outcome(struct outcome *o, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		free(o->bucket[i]);
	free(o->trace);
}

/* Run @nodes both ways and require the same figures; add up what the sparse engine did. */
static void compare(const char *what, const struct plca_sim_node_cfg *nodes, u32 nr, u64 seed,
		    int crs_delay, const struct step *steps, u32 nr_steps)
{
	static struct outcome sparse, slow;

	run(nodes, nr, seed, crs_delay, steps, nr_steps, false, &sparse);
	run(nodes, nr, seed, crs_delay, steps, nr_steps, true, &slow);
	assert_int_equal(slow.sp_frames + slow.sp_takeovers + slow.sp_replays, 0);
	for (u32 k = 0; k < nr_steps; k++) {
		for (u32 i = 0; i < nr; i++) {
			if (memcmp(&sparse.mid[k][i], &slow.mid[k][i], sizeof(slow.mid[k][i]))) {
				print_error("%s (seed %llu): step %u node %u differs: delivered "
					    "%llu/%llu tos %llu/%llu beacons %llu/%llu\n", what,
					    (unsigned long long)seed, k, i,
					    (unsigned long long)sparse.mid[k][i].delivered,
					    (unsigned long long)slow.mid[k][i].delivered,
					    (unsigned long long)sparse.mid[k][i].tos,
					    (unsigned long long)slow.mid[k][i].tos,
					    (unsigned long long)sparse.mid[k][i].beacons,
					    (unsigned long long)slow.mid[k][i].beacons);
				fail();
			}
		}
	}
	for (u32 i = 0; i < nr; i++) {
		assert_memory_equal(&sparse.st[i], &slow.st[i], sizeof(slow.st[i]));
		assert_int_equal(sparse.lat_sum[i], slow.lat_sum[i]);
		assert_memory_equal(sparse.bucket[i], slow.bucket[i],
				    KFSIM_HIST_BUCKETS * sizeof(u32));
	}
	assert_memory_equal(&sparse.rep, &slow.rep, sizeof(slow.rep));
	assert_memory_equal(&sparse.rnd, &slow.rnd, sizeof(slow.rnd));
	assert_int_equal(sparse.trace_len, slow.trace_len);
	if (sparse.trace_len)
		assert_memory_equal(sparse.trace, slow.trace, slow.trace_len);
	sum_frames += sparse.sp_frames;
	sum_takeovers += sparse.sp_takeovers;
	sum_bails += sparse.sp_bails;
	sum_replays += sparse.sp_replays;
	sum_delivered += slow.delivered;
	free_outcome(&sparse, nr);
	free_outcome(&slow, nr);
}

static void sums_reset(void)
{
	sum_frames = sum_takeovers = sum_bails = sum_replays = sum_delivered = 0;
}

/* A uniform PLCA segment with random settings, as kfsim plca sim builds it; its node count. */
static u32 random_segment(struct rnd_state *rnd, struct plca_sim_node_cfg *nodes, bool ties)
{
	struct plca_sim_segment seg;

	kfsim_plca_segment_default(&seg);
	seg.nr_nodes = 2 + kfsim_prandom_below(rnd, MAX_NODES - 1);
	seg.nr_senders = 1 + kfsim_prandom_below(rnd, seg.nr_nodes);
	seg.mode = PLCA_SIM_MODE_PLCA;
	seg.to_tmr = kfsim_prandom_below(rnd, 4) ? 2 + (int)kfsim_prandom_below(rnd, 60)
						 : 2 + (int)kfsim_prandom_below(rnd, 254);
	seg.load = kfsim_prandom_below(rnd, 4) ? PLCA_SIM_LOAD_POISSON : PLCA_SIM_LOAD_PERIODIC;
	seg.interval_us = 20 + kfsim_prandom_below(rnd, kfsim_prandom_below(rnd, 2) ? 2000 : 20000);
	seg.payload_min = kfsim_prandom_below(rnd, 3) ? 64 : kfsim_prandom_below(rnd, 1501);
	seg.payload_max = seg.payload_min;
	if (kfsim_prandom_below(rnd, 2))
		seg.payload_max += kfsim_prandom_below(rnd, 1501 - seg.payload_min);
	seg.length_m = kfsim_prandom_below(rnd, 26);
	if (ties) {
		/* periodic senders on the bit-time grid, one place, no CRS latency: ties galore */
		seg.load = PLCA_SIM_LOAD_PERIODIC;
		seg.interval_us = 0.1 * seg.to_tmr * (1 + kfsim_prandom_below(rnd, 40));
		seg.length_m = 0;
	}
	assert_int_equal(kfsim_plca_segment_nodes(&seg, nodes), 0);
	return seg.nr_nodes;
}

/* @nr steps up to about @span ns in all, nothing done between them. */
static void random_steps(struct rnd_state *rnd, struct step *steps, u32 nr, u64 span)
{
	u64 t = 0;

	for (u32 i = 0; i < nr; i++) {
		t += 1 + kfsim_prandom_below(rnd, (u32)(span / nr));
		steps[i] = (struct step){.until = t};
	}
}

/* Random uniform PLCA segments, cut into random steps and read after each. */
static void test_random_segments(void **state)
{
	static const int crs[] = {-1, 0, 1000, 10000, 1, 437};
	struct plca_sim_node_cfg nodes[MAX_NODES];
	struct step steps[MAX_STEPS];
	struct rnd_state rnd;
	u32 total = 300 / SCALE;

	(void)state;
	sums_reset();
	prandom_seed_state(&rnd, 41);
	for (u32 r = 0; r < total; r++) {
		u32 nr = random_segment(&rnd, nodes, false);
		u32 nr_steps = 1 + kfsim_prandom_below(&rnd, MAX_STEPS);

		random_steps(&rnd, steps, nr_steps, MS(200));
		compare("random", nodes, nr, r, crs[r % ARRAY_SIZE(crs)], steps, nr_steps);
	}
	print_message("%u random segments: %llu frames, %llu of them run by the sparse engine "
		      "(%llu take-overs, %llu given up)\n", total,
		      (unsigned long long)sum_delivered, (unsigned long long)sum_frames,
		      (unsigned long long)sum_takeovers, (unsigned long long)sum_bails);
	/* heavily loaded segments never come to an idle landing, where it takes over */
	assert_true(sum_takeovers > total / 3 && sum_frames * 4 > sum_delivered);
	assert_int_equal(sum_bails, 0);
}

/*
 * Periodic senders whose intervals are whole multiples of the bit time, all in one place with
 * no carrier-sense latency: frames arrive on the instants TOs begin and BEACONs end, and several
 * nodes' timers fall in one instant, whose order (cycle timers, then nodes' in arming order, then
 * the decision) the engines must agree on.
 */
static void test_ties(void **state)
{
	struct plca_sim_node_cfg nodes[MAX_NODES];
	struct step steps[MAX_STEPS];
	struct rnd_state rnd;
	u32 total = 200 / SCALE;

	(void)state;
	sums_reset();
	prandom_seed_state(&rnd, 42);
	for (u32 r = 0; r < total; r++) {
		u32 nr = random_segment(&rnd, nodes, true);
		u32 nr_steps = 1 + kfsim_prandom_below(&rnd, 3);

		random_steps(&rnd, steps, nr_steps, MS(100));
		compare("ties", nodes, nr, r, -1, steps, nr_steps);
	}
	print_message("%u segments built for ties: %llu frames, %llu by the sparse engine\n", total,
		      (unsigned long long)sum_delivered, (unsigned long long)sum_frames);
	assert_true(sum_frames > 0);
	assert_int_equal(sum_bails, 0);
}

/*
 * After the sparse engine took a run over, a link goes down or up, PLCA settings change, a
 * frame is scripted, or a trace starts: the bit-level state is rebuilt by a replay first, and
 * the run goes on bit-level, exactly as one that was bit-level throughout (its trace included).
 */
static void test_changes_after_take_over(void **state)
{
	struct plca_sim_node_cfg nodes[MAX_NODES];
	struct step steps[MAX_STEPS];
	struct rnd_state rnd;
	u32 total = 120 / SCALE;

	(void)state;
	sums_reset();
	prandom_seed_state(&rnd, 43);
	for (u32 r = 0; r < total; r++) {
		u32 nr = random_segment(&rnd, nodes, false);

		random_steps(&rnd, steps, 4, MS(120));
		for (u32 i = 0; i < 3; i++) {
			steps[i].what = 1 + (int)((r + i) % 4);
			steps[i].node = kfsim_prandom_below(&rnd, nr);
			steps[i].arg = kfsim_prandom_below(&rnd, 100000);
		}
		compare("changes", nodes, nr, r, r % 2 ? -1 : 1000, steps, 4);
	}
	print_message("%u runs changed after the take-over: %llu replays, %llu frames by the "
		      "sparse engine before them\n", total, (unsigned long long)sum_replays,
		      (unsigned long long)sum_frames);
	assert_true(sum_replays * 3 >= total); /* some runs never come to an idle landing */
	assert_int_equal(sum_bails, 0);
}

/* The bench's Poisson segment: the sparse engine takes it over early and keeps it. */
static void test_bench_segment(void **state)
{
	struct plca_sim_node_cfg nodes[32];
	struct plca_sim_segment seg;
	struct step s = {.until = MS(2000) / SCALE};

	(void)state;
	sums_reset();
	kfsim_plca_segment_default(&seg);
	seg.nr_nodes = 32;
	seg.mode = PLCA_SIM_MODE_PLCA;
	seg.load = PLCA_SIM_LOAD_POISSON;
	seg.interval_us = 10000;
	seg.payload_min = seg.payload_max = 64;
	assert_int_equal(kfsim_plca_segment_nodes(&seg, nodes), 0);
	compare("bench", nodes, 32, 1, 0, &s, 1);
	print_message("32 Poisson 10 ms nodes, %llu ms: %llu frames, %llu by the sparse engine\n",
		      (unsigned long long)(s.until / 1000000), (unsigned long long)sum_delivered,
		      (unsigned long long)sum_frames);
	assert_int_equal(sum_takeovers, 1);
	assert_true(sum_frames * 100 >= sum_delivered * 95);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_segments),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_changes_after_take_over),
		cmocka_unit_test(test_bench_segment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
