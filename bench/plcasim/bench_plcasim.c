// SPDX-License-Identifier: MIT
/*
 * bench_plcasim [--smoke] [--seconds S] [--only CASE]: how much faster than real time the
 * 10BASE-T1S segment simulator runs, for 8 and 32 saturated nodes, PLCA and CSMA/CD, 64- and
 * 1500-byte payloads, plus a lightly loaded PLCA segment (where idle transmit opportunities are
 * skipped in jumps). Prints simulated seconds per wall second (and per second of this thread's CPU
 * time, which a busy shared machine disturbs less), ns of wall time per event and per delivered
 * frame, and the PLCA/CSMA ratio of each pair measured in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfsim/err.h>
#include <kfsim/plca_sim.h>

struct bench_case {
	const char *name;
	u32 nodes;
	enum plca_sim_mode mode;
	enum plca_sim_load_kind load;
	double interval_us;
	u32 payload;
};

struct bench_result {
	double speedup;
	double cpu_speedup;
	double ns_per_event;
	double ns_per_frame;
	double mbps;
};

static double clock_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_case(const struct bench_case *c, double sim_s, struct bench_result *res)
{
	struct plca_sim_segment seg = {
		.nr_nodes = c->nodes,
		.mode = c->mode,
		.to_tmr = 32,
		.burst_tmr = 128,
		.load = c->load,
		.interval_us = c->interval_us,
		.payload_min = c->payload,
		.payload_max = c->payload,
		.length_m = 25,
	};
	struct plca_sim_node_cfg nodes[64];
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = c->nodes, .seed = 1};
	struct plca_sim_report rep;
	struct plca_sim *sim;
	u64 frames = 0;
	double t0, c0, wall, cpu;

	if (kfsim_plca_segment_nodes(&seg, nodes))
		return -1;
	sim = kfsim_plca_sim_create(&cfg);
	if (IS_ERR(sim))
		return -1;
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	kfsim_plca_sim_run_until(sim, (u64)(sim_s * 1e9));
	cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	wall = clock_s(CLOCK_MONOTONIC) - t0;
	kfsim_plca_sim_report(sim, &rep);
	for (u32 i = 0; i < c->nodes; i++) {
		struct plca_sim_node_stats st;

		kfsim_plca_sim_node_stats(sim, i, &st);
		frames += st.delivered;
	}
	kfsim_plca_sim_destroy(sim);
	res->speedup = sim_s / wall;
	res->cpu_speedup = cpu > 0 ? sim_s / cpu : 0;
	res->ns_per_event = wall * 1e9 / (double)(rep.events ? rep.events : 1);
	res->ns_per_frame = wall * 1e9 / (double)(frames ? frames : 1);
	res->mbps = rep.throughput_mbps;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct bench_case cases[] = {
		{"8 saturated, 64 B", 8, PLCA_SIM_MODE_PLCA, PLCA_SIM_LOAD_SATURATED, 0, 64},
		{"8 saturated, 64 B", 8, PLCA_SIM_MODE_CSMA, PLCA_SIM_LOAD_SATURATED, 0, 64},
		{"32 saturated, 64 B", 32, PLCA_SIM_MODE_PLCA, PLCA_SIM_LOAD_SATURATED, 0, 64},
		{"32 saturated, 64 B", 32, PLCA_SIM_MODE_CSMA, PLCA_SIM_LOAD_SATURATED, 0, 64},
		{"8 saturated, 1500 B", 8, PLCA_SIM_MODE_PLCA, PLCA_SIM_LOAD_SATURATED, 0, 1500},
		{"8 saturated, 1500 B", 8, PLCA_SIM_MODE_CSMA, PLCA_SIM_LOAD_SATURATED, 0, 1500},
		{"32 saturated, 1500 B", 32, PLCA_SIM_MODE_PLCA, PLCA_SIM_LOAD_SATURATED, 0, 1500},
		{"32 saturated, 1500 B", 32, PLCA_SIM_MODE_CSMA, PLCA_SIM_LOAD_SATURATED, 0, 1500},
		{"32 Poisson 10 ms, 64 B", 32, PLCA_SIM_MODE_PLCA, PLCA_SIM_LOAD_POISSON, 10000,
		 64},
		{"32 Poisson 10 ms, 64 B", 32, PLCA_SIM_MODE_CSMA, PLCA_SIM_LOAD_POISSON, 10000,
		 64},
	};
	struct bench_result res[sizeof(cases) / sizeof(cases[0])];
	double sim_s = 20;
	int only = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: bench_plcasim [--smoke] [--seconds S] [--only CASE]\n");
			return 0;
		} else if (!strcmp(argv[i], "--smoke"))
			sim_s = 0.02;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			sim_s = atof(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = atoi(argv[++i]); /* one case, e.g. under valgrind --tool=callgrind */
		else {
			fprintf(stderr,
				"usage: bench_plcasim [--smoke] [--seconds S] [--only CASE]\n");
			return 2;
		}
	}
	if (!(sim_s > 0))
		return 2;
	printf("10BASE-T1S bus simulator, %.3g s simulated per case, 25 m, to_tmr 32 BT\n\n",
	       sim_s);
	printf("%-24s %-5s %10s %10s %12s %12s %8s\n", "case", "mode", "x realtime", "x cpu",
	       "ns/event", "ns/frame", "Mb/s");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (only >= 0 && (size_t)only != i)
			continue;
		if (run_case(&cases[i], sim_s, &res[i])) {
			fprintf(stderr, "bench_plcasim: case %zu failed\n", i);
			return 1;
		}
		printf("%-24s %-5s %10.0f %10.0f %12.1f %12.1f %8.3f\n", cases[i].name,
		       cases[i].mode == PLCA_SIM_MODE_PLCA ? "plca" : "csma", res[i].speedup,
		       res[i].cpu_speedup, res[i].ns_per_event, res[i].ns_per_frame, res[i].mbps);
	}
	if (only >= 0)
		return 0;
	printf("\nspeed ratio PLCA / CSMA/CD (same segment, same run):\n");
	for (size_t i = 0; i + 1 < sizeof(cases) / sizeof(cases[0]); i += 2)
		printf("  %-24s %.2f\n", cases[i].name, res[i].speedup / res[i + 1].speedup);
	return 0;
}
