// SPDX-License-Identifier: MIT
/*
 * bench_plcasim [--smoke] [--seconds S] [--only CASE] [--rounds R] [--callgrind [--cg-seconds S]]:
 * how much faster than real time the 10BASE-T1S segment simulator runs, for 8 and 32 saturated
 * nodes, PLCA and CSMA/CD, 64- and 1500-byte payloads, plus a lightly loaded PLCA segment (where
 * idle transmit opportunities are skipped in jumps). Prints simulated seconds per wall second (and per second of this thread's CPU
 * time, which a busy shared machine disturbs less), ns of wall time per event and per delivered
 * frame, and the PLCA/CSMA ratio of each pair measured in the same run.
 *
 * --rounds R runs every case R times, the cases interleaved in each round, and prints the median
 * and the spread (min..max) of x realtime and x cpu; the PLCA/CSMA ratios are taken per round.
 *
 * --callgrind adds instructions per delivered frame: each case is rerun for --cg-seconds
 * (default CG_SECONDS) of simulated time under valgrind --tool=callgrind, counting only inside
 * kfsim_plca_sim_run_until() (setup excluded), divided by the frames that run delivers.  On a
 * shared machine this is the figure that does not move with the neighbours' load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stdbool.h>

#include <kfsim/err.h>
#include <kfsim/plca_sim.h>
#include "bench_callgrind.h"

struct bench_case {
	const char *name;
	u32 nodes;
	enum plca_sim_mode mode;
	enum plca_sim_load_kind load;
	double interval_us;
	u32 payload;
};

#define CG_SECONDS 0.05
#define MAX_ROUNDS 15

struct bench_result {
	u64 frames;
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
	res->frames = frames;
	res->speedup = sim_s / wall;
	res->cpu_speedup = cpu > 0 ? sim_s / cpu : 0;
	res->ns_per_event = wall * 1e9 / (double)(rep.events ? rep.events : 1);
	res->ns_per_frame = wall * 1e9 / (double)(frames ? frames : 1);
	res->mbps = rep.throughput_mbps;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "median [min..max]" of @n values (the upper median for an even @n). */
static void summarise(const double *values, int n, char *buf, size_t size)
{
	double sorted[MAX_ROUNDS];

	memcpy(sorted, values, (size_t)n * sizeof(sorted[0]));
	qsort(sorted, (size_t)n, sizeof(sorted[0]), cmp_double);
	if (sorted[n / 2] >= 100)
		snprintf(buf, size, "%.0f [%.0f..%.0f]", sorted[n / 2], sorted[0], sorted[n - 1]);
	else
		snprintf(buf, size, "%.2f [%.2f..%.2f]", sorted[n / 2], sorted[0], sorted[n - 1]);
}

/* Instructions inside kfsim_plca_sim_run_until() for case @idx run for @cg_s, or -1. */
static long long callgrind_instructions(int idx, double cg_s)
{
	char idxarg[16], secarg[32];
	const char *args[] = {"--only", idxarg, "--seconds", secarg, "--quiet-table", NULL};

	snprintf(idxarg, sizeof(idxarg), "%d", idx);
	snprintf(secarg, sizeof(secarg), "%.17g", cg_s);
	return bench_callgrind_self("kfsim_plca_sim_run_until", args);
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
	enum { NR_CASES = sizeof(cases) / sizeof(cases[0]) };
	double speed[NR_CASES][MAX_ROUNDS], cpu[NR_CASES][MAX_ROUNDS];
	bool callgrind = false, quiet = false;
	double sim_s = 20, cg_s = CG_SECONDS;
	int only = -1, rounds = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: bench_plcasim [--smoke] [--seconds S] [--only CASE] [--rounds R] "
			       "[--callgrind [--cg-seconds S]]\n");
			return 0;
		} else if (!strcmp(argv[i], "--smoke"))
			sim_s = 0.02;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			sim_s = atof(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = atoi(argv[++i]); /* one case, e.g. under valgrind --tool=callgrind */
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--callgrind"))
			callgrind = true;
		else if (!strcmp(argv[i], "--cg-seconds") && i + 1 < argc)
			cg_s = atof(argv[++i]); /* simulated time of each --callgrind rerun */
		else if (!strcmp(argv[i], "--quiet-table"))
			quiet = true; /* the callgrind child: run, print nothing */
		else {
			fprintf(stderr, "usage: bench_plcasim [--smoke] [--seconds S] [--only CASE] "
					"[--rounds R] [--callgrind [--cg-seconds S]]\n");
			return 2;
		}
	}
	if (!(sim_s > 0) || !(cg_s > 0) || only >= (int)NR_CASES || rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	if (quiet) {
		if (only < 0)
			return 2;
		return run_case(&cases[only], sim_s, &res[only]) ? 1 : 0;
	}
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < NR_CASES; i++) {
			if (only >= 0 && (size_t)only != i)
				continue;
			if (run_case(&cases[i], sim_s, &res[i])) {
				fprintf(stderr, "bench_plcasim: case %zu failed\n", i);
				return 1;
			}
			speed[i][r] = res[i].speedup;
			cpu[i][r] = res[i].cpu_speedup;
		}
	}
	printf("10BASE-T1S bus simulator, %.3g s simulated per case, 25 m, to_tmr 32 BT, "
	       "CRS latency %d ns, %d round(s): median [min..max]\n\n", sim_s,
	       PLCA_SIM_CRS_DELAY_DEFAULT_NS, rounds);
	printf("%-24s %-5s %22s %22s %10s %8s%s\n", "case", "mode", "x realtime", "x cpu",
	       "ns/frame", "Mb/s", callgrind ? "  Ir/frame" : "");
	for (size_t i = 0; i < NR_CASES; i++) {
		char wall_s[48], cpu_s[48];

		if (only >= 0 && (size_t)only != i)
			continue;
		summarise(speed[i], rounds, wall_s, sizeof(wall_s));
		summarise(cpu[i], rounds, cpu_s, sizeof(cpu_s));
		printf("%-24s %-5s %22s %22s %10.1f %8.3f", cases[i].name,
		       cases[i].mode == PLCA_SIM_MODE_PLCA ? "plca" : "csma", wall_s, cpu_s,
		       res[i].ns_per_frame, res[i].mbps);
		if (callgrind) {
			struct bench_result cg;
			long long ir = callgrind_instructions((int)i, cg_s);

			if (ir < 0 || run_case(&cases[i], cg_s, &cg) || !cg.frames)
				printf("  %8s", "n/a");
			else
				printf("  %8.0f", (double)ir / (double)cg.frames);
		}
		putchar('\n');
		fflush(stdout);
	}
	if (only >= 0)
		return 0;
	printf("\nspeed ratio PLCA / CSMA/CD (same segment, same round), median [min..max]:\n");
	for (size_t i = 0; i + 1 < NR_CASES; i += 2) {
		double ratio[MAX_ROUNDS];
		char text[48];

		for (int r = 0; r < rounds; r++)
			ratio[r] = speed[i][r] / speed[i + 1][r];
		summarise(ratio, rounds, text, sizeof(text));
		printf("  %-24s %s\n", cases[i].name, text);
	}
	return 0;
}
