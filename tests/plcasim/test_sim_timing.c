// SPDX-License-Identifier: MIT
/*
 * The PLCA cycle's timing against closed forms (plca-and-netlink.md 4.3): idle cycle, the INET
 * worst-case access scenario, best case, bursts, the data state machine's timers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/kernel.h>
#include <kfsim/random.h>
#include "sim_helpers.h"

#define US(x) ((u64)(x)*1000)

/* An idle cycle is BEACON + node_cnt * to_timer: beacons start exactly that far apart. */
static void check_idle_cycle(u32 cnt, int to)
{
	struct plca_sim_node_cfg nodes[8];
	u64 cycle_ns = kfsim_plca_idle_cycle_bt(cnt, (u32)to) * PLCA_SIM_NS_PER_BT;
	struct plca_sim_report rep;
	struct plca_sim *sim;

	for (u32 i = 0; i < 8; i++)
		nodes[i] = plca_node((int)i, (int)cnt, to);
	sim = make_sim(nodes, 8, 1);
	assert_false(IS_ERR(sim));
	/* beacon k starts at k * cycle: at 10 cycles minus 1 ns there have been 10 */
	assert_int_equal(kfsim_plca_sim_run_until(sim, 10 * cycle_ns - 1), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 10);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 10 * cycle_ns), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 11);
	/* every node had one TO per complete cycle (ids < cnt) */
	for (u32 i = 0; i < 8; i++) {
		struct plca_sim_node_stats st = node_stats(sim, i);

		if (i < cnt)
			assert_int_equal(st.tos, 10);
		assert_int_equal(st.tos_used, 0);
		assert_true(st.plca_status);
	}
	kfsim_plca_sim_destroy(sim);
}

static void test_idle_cycle_276_bt(void **state)
{
	assert_int_equal(kfsim_plca_idle_cycle_bt(8, 32), 276);
	check_idle_cycle(8, 32);
}

static void test_idle_cycle_other_settings(void **state)
{
	check_idle_cycle(4, 20);
	check_idle_cycle(8, 255);
	check_idle_cycle(5, 1);
}

/*
 * INET worstcase.ini: coordinator + 4 nodes, 46-byte payloads (73 B = 584 BT on the wire),
 * burst count 1.  Node 1's frame arrives 1 ns after its TO started, so it waits for the other
 * three frames, each followed by an unused burst COMMIT (128 BT), the BEACON, TO 0 and the
 * MAC's IFG: 32 + 3 * 584 + 3 * 128 + 20 + 32 + 96 = 2316 BT.
 */
static void test_worst_case_access_2316_bt(void **state)
{
	struct plca_sim_node_cfg nodes[5];
	struct plca_sim_node_stats st;
	struct plca_sim *sim;

	for (u32 i = 0; i < 5; i++) {
		nodes[i] = plca_node((int)i, 5, 32);
		nodes[i].plca.burst_cnt = 1;
	}
	assert_int_equal(kfsim_plca_wire_bt(46), 584);
	sim = make_sim(nodes, 5, 7);
	assert_false(IS_ERR(sim));
	/* TO 1 starts at 20 + 32 BT; TOs 2..4 start as the previous frame's burst ends */
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5200 + 1, 46), 0);
	assert_int_equal(kfsim_plca_sim_inject(sim, 2, 8400, 46), 0);
	assert_int_equal(kfsim_plca_sim_inject(sim, 3, 8400 + 71200, 46), 0);
	assert_int_equal(kfsim_plca_sim_inject(sim, 4, 8400 + 2 * 71200, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, US(1000)), 0);
	for (u32 i = 2; i <= 4; i++) {
		st = node_stats(sim, i);
		assert_int_equal(st.delivered, 1);
		assert_int_equal(st.access_max_ns, 0); /* sent the instant it arrived */
		assert_int_equal(st.lat_max_ns, 584 * 100);
	}
	st = node_stats(sim, 1);
	assert_int_equal(st.delivered, 1);
	assert_int_equal(st.access_max_ns, 2316 * 100 - 1);
	assert_int_equal(st.lat_max_ns, (2316 + 584) * 100 - 1);
	assert_int_equal(st.logical_collisions, 1);
	assert_int_equal(st.phys_collisions, 0);
	kfsim_plca_sim_destroy(sim);
}

/* Best case: a frame at the start of its own TO goes out at once (INET bestcase.ini). */
static void test_best_case(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {plca_node(0, 2, 32), plca_node(1, 2, 32)};
	struct plca_sim *sim = make_sim(nodes, 2, 1);
	struct plca_sim_node_stats st;

	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5200, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, US(100)), 0);
	st = node_stats(sim, 1);
	assert_int_equal(st.delivered, 1);
	assert_int_equal(st.lat_max_ns, 58400);
	assert_int_equal(st.collisions, 0);
	kfsim_plca_sim_destroy(sim);
}

/* A frame at 1 ns into a TO of the coordinator's segment waits for its next TO. */
static void test_missed_to_waits_one_cycle(void **state)
{
	struct plca_sim_node_cfg nodes[3] = {plca_node(0, 3, 32), plca_node(1, 3, 32),
					     plca_node(2, 3, 32)};
	struct plca_sim *sim = make_sim(nodes, 3, 1);
	struct plca_sim_node_stats st;

	/* TO 1: 5200..8400; cycle 116 BT; next TO 1 at 11600 + 5200 = 16800 */
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5201, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, US(200)), 0);
	st = node_stats(sim, 1);
	assert_int_equal(st.delivered, 1);
	/*
	 * Cycle 116 BT.  HOLD at 5201 ns; the BEACON at 11600 is a reception: logical COLLIDE;
	 * jam 32 BT -> 14800; pending_timer 512 BT -> PENDING at 66000; the next TO 1 starts at
	 * 6 * 11600 + 5200 = 74800: COMMIT, WAIT_MAC, the MAC's IFG, frame at 84400.
	 */
	assert_int_equal(st.logical_collisions, 1);
	assert_int_equal(st.access_max_ns, 84400 - 5201);
	kfsim_plca_sim_destroy(sim);
}

/* hold timer: with nothing received, a HELD frame collides after the 400 BT delay line. */
static void test_hold_timer_400_bt(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {plca_node(0, 8, 255), plca_node(1, 8, 255)};
	struct plca_sim *sim = make_sim(nodes, 2, 1);

	/* TO 1 runs 27500..53000 ns; the next BEACON is at 206000 */
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 27501, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 27501 + 40000 - 1), 0);
	assert_int_equal(node_stats(sim, 1).logical_collisions, 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 27501 + 40000), 0);
	assert_int_equal(node_stats(sim, 1).logical_collisions, 1);
	assert_int_equal(kfsim_plca_sim_run_until(sim, US(400)), 0);
	/* committed at the next TO 1 (206000 + 27500), sent after the IFG */
	assert_int_equal(node_stats(sim, 1).access_max_ns, 233500 + 9600 - 27501);
	kfsim_plca_sim_destroy(sim);
}

/* burst_cnt 2: three queued frames share one TO, each after the MAC's IFG. */
static void test_burst_frames_share_a_to(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {plca_node(0, 2, 32), plca_node(1, 2, 32)};
	struct plca_sim_node_stats st;
	struct plca_sim *sim;

	nodes[1].plca.burst_cnt = 2;
	sim = make_sim(nodes, 2, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5200, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, US(400)), 0);
	st = node_stats(sim, 1);
	assert_int_equal(st.delivered, 3);
	assert_int_equal(st.tos_used, 1);
	assert_int_equal(st.lat_max_ns, (3 * 584 + 2 * 96) * 100);
	assert_int_equal(st.collisions, 0);
	kfsim_plca_sim_destroy(sim);
}

/* burst_timer: an unused burst holds the TO for burst_tmr after the frame, then ABORT. */
static void test_burst_timer_lengthens_the_cycle(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {plca_node(0, 2, 32), plca_node(1, 2, 32)};
	struct plca_sim_report rep;
	struct plca_sim *sim;
	u64 second_beacon = (20 + 32 + 584 + 100) * 100;

	nodes[1].plca.burst_cnt = 1;
	nodes[1].plca.burst_tmr = 100;
	sim = make_sim(nodes, 2, 1);
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5200, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, second_beacon - 1), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 1);
	assert_int_equal(kfsim_plca_sim_run_until(sim, second_beacon), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 2);
	kfsim_plca_sim_destroy(sim);
}

/*
 * commit_timer: a MAC that ignores collisions lost its frame, but the RS still went PENDING, so
 * in its next TO it commits and waits 288 BT for a frame that never comes.
 */
static void test_commit_timer_288_bt(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {plca_node(0, 2, 32), plca_node(1, 2, 32)};
	struct plca_sim_report rep;
	struct plca_sim *sim;

	nodes[1].ignores_collisions = true;
	sim = make_sim(nodes, 2, 1);
	/* cycle 84 BT; HOLD at 5201, the BEACON at 8400 collides it, PENDING at 59600; TO 1 of
	 * the cycle starting at 58800 begins at 64000 and lasts 288 BT: next BEACON at 92800 */
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 5201, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 92799), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 8);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 92800), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.cycles, 9);
	assert_int_equal(node_stats(sim, 1).lost_fault, 1);
	assert_int_equal(node_stats(sim, 1).delivered, 0);
	assert_int_equal(node_stats(sim, 1).tos_used, 1);
	kfsim_plca_sim_destroy(sim);
}

/*
 * CSMA/CD carrier sense over 25 m: B defers to A, then waits the IFG after A's carrier leaves,
 * which B's PHY reports crs_delay after the end reaches its MDI.
 */
static void test_csma_defers_with_propagation(void **state)
{
	static const struct { int crs_delay_ns; u64 crs; } cases[] = {
		{ -1, 0 }, { 0, PLCA_SIM_CRS_DELAY_DEFAULT_NS }, { 2500, 2500 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plca_sim_node_cfg nodes[2] = {csma_node(), csma_node()};
		struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = 2, .seed = 1,
					   .crs_delay_ns = cases[i].crs_delay_ns};
		struct plca_sim_node_stats st;
		struct plca_sim *sim;
		u64 heard;

		nodes[1].position_m = 25; /* 125 ns away */
		sim = kfsim_plca_sim_create(&cfg);
		assert_false(IS_ERR(sim));
		assert_int_equal(kfsim_plca_sim_inject(sim, 0, 0, 46), 0);
		assert_int_equal(kfsim_plca_sim_inject(sim, 1, 10000, 46), 0);
		assert_int_equal(kfsim_plca_sim_run_until(sim, 1000000), 0);
		st = node_stats(sim, 1);
		assert_int_equal(st.deferrals, 1);
		assert_int_equal(st.collisions, 0);
		/* A ends at 58400, B's MDI sees the end at 58525, its CRS crs later */
		heard = 58525 + cases[i].crs;
		assert_int_equal(st.access_max_ns, heard + 9600 - 10000);
		assert_int_equal(st.lat_max_ns, heard + 9600 + 58400 - 10000);
		kfsim_plca_sim_destroy(sim);
	}
}

/*
 * Carrier sense has latency: two CSMA/CD nodes at the same point whose frames arrive in the same
 * instant both see an idle wire and collide; without the latency the second would defer.  A node
 * starting crs_delay or more after the first defers.
 */
static void test_crs_latency_widens_the_collision_window(void **state)
{
	static const struct { int crs_delay_ns; u64 second_at; bool collide; } cases[] = {
		{ 0, 0, true }, { 0, 999, true }, { 0, 1000, false },
		{ -1, 0, false }, { 3000, 2999, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plca_sim_node_cfg nodes[2] = {csma_node(), csma_node()};
		struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = 2, .seed = 3,
					   .crs_delay_ns = cases[i].crs_delay_ns};
		struct plca_sim *sim = kfsim_plca_sim_create(&cfg);

		assert_false(IS_ERR(sim));
		assert_int_equal(kfsim_plca_sim_inject(sim, 0, 0, 46), 0);
		assert_int_equal(kfsim_plca_sim_inject(sim, 1, cases[i].second_at, 46), 0);
		assert_int_equal(kfsim_plca_sim_run_until(sim, 10000000), 0);
		print_message("crs_delay %d, second at %llu ns: %llu collisions\n",
			      cases[i].crs_delay_ns, (unsigned long long)cases[i].second_at,
			      (unsigned long long)node_stats(sim, 1).phys_collisions);
		assert_int_equal(node_stats(sim, 1).phys_collisions > 0, cases[i].collide);
		assert_int_equal(node_stats(sim, 0).phys_collisions > 0, cases[i].collide);
		assert_int_equal(node_stats(sim, 0).delivered + node_stats(sim, 1).delivered, 2);
		kfsim_plca_sim_destroy(sim);
	}
	/* Out of range: refused. */
	{
		struct plca_sim_node_cfg nodes[1] = {csma_node()};
		struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = 1, .crs_delay_ns = -2};

		assert_ptr_equal(kfsim_plca_sim_create(&cfg), ERR_PTR(-EINVAL));
		cfg.crs_delay_ns = PLCA_SIM_CRS_DELAY_MAX_NS + 1;
		assert_ptr_equal(kfsim_plca_sim_create(&cfg), ERR_PTR(-EINVAL));
	}
}

/* Two CSMA/CD nodes start together 25 m apart: each detects the other 125 ns later and jams. */
static void test_csma_collision_and_jam(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {csma_node(), csma_node()};
	struct plca_sim *sim;

	nodes[1].position_m = 25;
	sim = make_sim(nodes, 2, 3);
	assert_int_equal(kfsim_plca_sim_inject(sim, 0, 0, 46), 0);
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 0, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 124), 0);
	assert_int_equal(node_stats(sim, 0).phys_collisions, 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 125), 0);
	assert_int_equal(node_stats(sim, 0).phys_collisions, 1);
	assert_int_equal(node_stats(sim, 1).phys_collisions, 1);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 10000000), 0);
	/* both get through eventually; every extra collision is a backoff draw */
	assert_int_equal(node_stats(sim, 0).delivered, 1);
	assert_int_equal(node_stats(sim, 1).delivered, 1);
	kfsim_plca_sim_destroy(sim);
}

/*
 * Reference model of one frame on an otherwise idle PLCA segment (follower k of N, to_timer TO):
 * a frame that reaches its TO within the 400 BT delay line, with no BEACON in between, goes out
 * at the TO's start; otherwise it collides logically (at the BEACON or when the delay line is
 * full), is PENDING 32 + 512 BT later, and goes out at the first TO after that plus the IFG.
 */
static u64 reference_access_ns(u32 cnt, u32 to, u32 k, u64 t)
{
	u64 cycle = (20 + (u64)cnt * to) * 100, to_off = (20 + (u64)k * to) * 100;
	u64 next_beacon = (t / cycle + 1) * cycle;
	u64 first_to = t <= (t / cycle) * cycle + to_off ? (t / cycle) * cycle + to_off
							 : (t / cycle + 1) * cycle + to_off;
	u64 collide, pending, to2;

	if (first_to - t < 40000 && next_beacon > first_to)
		return first_to - t;
	collide = min(next_beacon, t + 40000);
	pending = collide + (32 + 512) * 100;
	to2 = (pending / cycle) * cycle + to_off;
	if (to2 < pending)
		to2 += cycle;
	return to2 + 9600 - t;
}

static void test_single_frame_against_reference(void **state)
{
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 148);
	for (int trial = 0; trial < 300; trial++) {
		u32 cnt = 2 + kfsim_prandom_below(&rnd, 11);
		u32 to = 1 + kfsim_prandom_below(&rnd, 60);
		u32 k = 1 + kfsim_prandom_below(&rnd, cnt - 1);
		u64 cycle = (20 + (u64)cnt * to) * 100;
		u64 t = kfsim_prandom_below(&rnd, (u32)(3 * cycle));
		struct plca_sim_node_cfg nodes[12];
		struct plca_sim_node_stats st;
		struct plca_sim *sim;

		if (trial % 10 == 0) /* land exactly on TO and BEACON boundaries too */
			t = (t / cycle) * cycle + (trial % 20 ? (20 + (u64)k * to) * 100 : 0);
		for (u32 i = 0; i < cnt; i++)
			nodes[i] = plca_node((int)i, (int)cnt, (int)to);
		sim = make_sim(nodes, cnt, (u64)trial);
		assert_int_equal(kfsim_plca_sim_inject(sim, k, t, 46), 0);
		assert_int_equal(kfsim_plca_sim_run_until(sim, t + 12 * cycle + 200000), 0);
		st = node_stats(sim, k);
		if (st.delivered != 1 || st.access_max_ns != reference_access_ns(cnt, to, k, t))
			print_error(
				"N %u to %u node %u arrival %llu: access %llu, reference %llu\n",
				cnt, to, k, (unsigned long long)t,
				(unsigned long long)st.access_max_ns,
				(unsigned long long)reference_access_ns(cnt, to, k, t));
		assert_int_equal(st.delivered, 1);
		assert_int_equal(st.access_max_ns, reference_access_ns(cnt, to, k, t));
		assert_int_equal(st.lat_max_ns, st.access_max_ns + 58400);
		kfsim_plca_sim_destroy(sim);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_cycle_276_bt),
		cmocka_unit_test(test_idle_cycle_other_settings),
		cmocka_unit_test(test_worst_case_access_2316_bt),
		cmocka_unit_test(test_best_case),
		cmocka_unit_test(test_missed_to_waits_one_cycle),
		cmocka_unit_test(test_hold_timer_400_bt),
		cmocka_unit_test(test_burst_frames_share_a_to),
		cmocka_unit_test(test_burst_timer_lengthens_the_cycle),
		cmocka_unit_test(test_commit_timer_288_bt),
		cmocka_unit_test(test_csma_defers_with_propagation),
		cmocka_unit_test(test_crs_latency_widens_the_collision_window),
		cmocka_unit_test(test_csma_collision_and_jam),
		cmocka_unit_test(test_single_frame_against_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
