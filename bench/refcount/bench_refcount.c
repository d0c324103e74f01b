// SPDX-License-Identifier: MIT
/*
 * refcount_t against a bare C11 atomic and the counters C programmers use instead, in one run:
 * GLib's g_atomic_ref_count_inc/dec (the library functions, as a default build calls them) and
 * liburcu's urcu_ref_get/urcu_ref_put; plus, for history, the cmpxchg-loop design the kernel
 * dropped in 5.5.
 *
 * One "op" is a get+put pair: inc then dec_and_test on a counter that stays >= 1, as a caller
 * taking and dropping a reference does.  Uncontended: one thread, one counter.  Contended: two
 * threads hammering the same counter (the cache line bounces; per-pair time is wall time divided
 * by the pairs both threads did).  Each variant runs --rounds times, interleaved; the table
 * shows each variant's best round (on a shared machine the least disturbed one) and its ratio to
 * the C11 atomic of the same round: the median over the rounds, and the lowest and highest.
 *
 *	bench_refcount [--iterations N] [--rounds R] [--only uncontended] [--json]
 *
 * For instruction counts (steadier than time here), scripts/bench runs the uncontended loops
 * under valgrind --tool=callgrind (--toggle-collect=loop_<variant>).
 */
#include <getopt.h>
#include <glib.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/ref.h>

#include <kfsim/refcount.h>

#define NOINLINE __attribute__((noinline))

static void urcu_release(struct urcu_ref *ref)
{
	abort();	/* the counter never reaches 0 in these loops */
}

/* The loops: each keeps one reference of its own so the count never reaches 0. */
NOINLINE static unsigned long loop_c11_atomic(atomic_int *count, unsigned long n)
{
	unsigned long zero = 0;

	for (unsigned long i = 0; i < n; i++) {
		atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
		zero += atomic_fetch_sub_explicit(count, 1, memory_order_seq_cst) == 1;
	}
	return zero;
}

NOINLINE static unsigned long loop_kfsim_refcount(refcount_t *count, unsigned long n)
{
	unsigned long zero = 0;

	for (unsigned long i = 0; i < n; i++) {
		refcount_inc(count);
		zero += refcount_dec_and_test(count);
	}
	return zero;
}

/*
 * The design the kernel replaced in 5.5 (REFCOUNT_FULL before Will Deacon's rework): compare-and-
 * swap loops that check before they write, saturating at UINT_MAX.  Written here from that
 * description, to show what the fetch_add-then-check design saved.
 */
static inline void cas_refcount_inc(atomic_uint *count)
{
	unsigned int val = atomic_load_explicit(count, memory_order_relaxed);

	do {
		if (unlikely(!val || val == UINT_MAX))
			return;	/* the old code warned (use-after-free / saturated) */
	} while (!atomic_compare_exchange_weak_explicit(count, &val, val + 1, memory_order_relaxed,
							 memory_order_relaxed));
}

static inline bool cas_refcount_dec_and_test(atomic_uint *count)
{
	unsigned int val = atomic_load_explicit(count, memory_order_relaxed);

	do {
		if (unlikely(!val || val == UINT_MAX))
			return false;
	} while (!atomic_compare_exchange_weak_explicit(count, &val, val - 1, memory_order_release,
							 memory_order_relaxed));
	if (val != 1)
		return false;
	atomic_thread_fence(memory_order_acquire);
	return true;
}

NOINLINE static unsigned long loop_cmpxchg_refcount(atomic_uint *count, unsigned long n)
{
	unsigned long zero = 0;

	for (unsigned long i = 0; i < n; i++) {
		cas_refcount_inc(count);
		zero += cas_refcount_dec_and_test(count);
	}
	return zero;
}

NOINLINE static unsigned long loop_glib(gatomicrefcount *count, unsigned long n)
{
	unsigned long zero = 0;

	for (unsigned long i = 0; i < n; i++) {
		g_atomic_ref_count_inc(count);
		zero += g_atomic_ref_count_dec(count);
	}
	return zero;
}

NOINLINE static unsigned long loop_urcu(struct urcu_ref *count, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		urcu_ref_get(count);
		urcu_ref_put(count, urcu_release);
	}
	return 0;
}

enum variant { V_C11, V_KFSIM, V_GLIB, V_URCU, V_CMPXCHG, NR_VARIANTS };

static const char *const variant_name[NR_VARIANTS] = {
	[V_C11] = "C11 atomic (relaxed inc, seq_cst dec_and_test)",
	[V_KFSIM] = "kfsim refcount_inc/refcount_dec_and_test",
	[V_GLIB] = "GLib g_atomic_ref_count_inc/dec",
	[V_URCU] = "liburcu urcu_ref_get/urcu_ref_put",
	[V_CMPXCHG] = "cmpxchg-loop refcount (the pre-5.5 kernel design)",
};

static const char *const variant_key[NR_VARIANTS] = { "c11_atomic", "kfsim_refcount", "glib",
						      "liburcu", "cmpxchg_pre_5_5" };

/* One counter per variant, each on its own cache line. */
struct counters {
	_Alignas(64) atomic_int c11;
	_Alignas(64) refcount_t kfsim;
	_Alignas(64) gatomicrefcount glib;
	_Alignas(64) struct urcu_ref urcu;
	_Alignas(64) atomic_uint cmpxchg;
};

static unsigned long run_variant(enum variant v, struct counters *c, unsigned long n)
{
	switch (v) {
	case V_C11: return loop_c11_atomic(&c->c11, n);
	case V_KFSIM: return loop_kfsim_refcount(&c->kfsim, n);
	case V_GLIB: return loop_glib(&c->glib, n);
	case V_URCU: return loop_urcu(&c->urcu, n);
	case V_CMPXCHG: return loop_cmpxchg_refcount(&c->cmpxchg, n);
	default: return 0;
	}
}

/* Where the loops' results go, so that no dec_and_test result is optimised away. */
static volatile unsigned long result_sink;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct thread_arg {
	enum variant v;
	struct counters *c;
	unsigned long n;
	atomic_int *start;
};

static void *contended_thread(void *p)
{
	struct thread_arg *arg = p;

	while (!atomic_load(arg->start))
		;
	result_sink += run_variant(arg->v, arg->c, arg->n);
	return NULL;
}

/* ns per get+put pair with @threads threads on the same counter. */
static double measure(enum variant v, struct counters *c, unsigned long n, int threads)
{
	pthread_t tids[2];
	struct thread_arg arg = { v, c, n, NULL };
	atomic_int start = 0;
	double t0;

	if (threads == 1) {
		t0 = now_ns();
		result_sink += run_variant(v, c, n);
		return (now_ns() - t0) / n;
	}
	arg.start = &start;
	for (int t = 0; t < threads; t++)
		pthread_create(&tids[t], NULL, contended_thread, &arg);
	t0 = now_ns();
	atomic_store(&start, 1);
	for (int t = 0; t < threads; t++)
		pthread_join(tids[t], NULL);
	return (now_ns() - t0) / ((double)n * threads);
}

static void counters_init(struct counters *c)
{
	atomic_init(&c->c11, 1);
	refcount_set(&c->kfsim, 1);
	g_atomic_ref_count_init(&c->glib);
	urcu_ref_init(&c->urcu);
	atomic_init(&c->cmpxchg, 1);
}

static int counters_check(struct counters *c)
{
	/* Every loop is balanced: each counter must be back at 1, and kfsim's never saturated. */
	return atomic_load(&c->c11) == 1 && refcount_read(&c->kfsim) == 1 &&
	       g_atomic_ref_count_compare(&c->glib, 1) && c->urcu.refcount == 1 &&
	       atomic_load(&c->cmpxchg) == 1;
}

#define MAX_ROUNDS 1000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Ratio of @v to the C11 atomic, round by round: median, lowest, highest. */
static void round_ratios(double t[][MAX_ROUNDS], int v, unsigned long rounds, double *median,
			 double *lo, double *hi)
{
	double r[MAX_ROUNDS];

	for (unsigned long i = 0; i < rounds; i++)
		r[i] = t[v][i] / t[V_C11][i];
	qsort(r, rounds, sizeof(r[0]), cmp_double);
	*median = rounds % 2 ? r[rounds / 2] : (r[rounds / 2 - 1] + r[rounds / 2]) / 2;
	*lo = r[0];
	*hi = r[rounds - 1];
}

static void print_table(const char *title, double t[][MAX_ROUNDS], unsigned long rounds,
			bool json, bool last)
{
	double best[NR_VARIANTS], median, lo, hi;

	for (int v = 0; v < NR_VARIANTS; v++) {
		best[v] = t[v][0];
		for (unsigned long i = 1; i < rounds; i++)
			if (t[v][i] < best[v])
				best[v] = t[v][i];
	}
	if (json) {
		printf("  \"%s\": {", title);
		for (int v = 0; v < NR_VARIANTS; v++) {
			round_ratios(t, v, rounds, &median, &lo, &hi);
			printf("%s\"%s\": {\"ns_per_op\": %.3f, \"ratio_vs_c11\": %.3f, "
			       "\"ratio_vs_c11_median\": %.3f, \"ratio_vs_c11_min\": %.3f, "
			       "\"ratio_vs_c11_max\": %.3f}", v ? ", " : "", variant_key[v], best[v],
			       best[v] / best[V_C11], median, lo, hi);
		}
		printf("}%s\n", last ? "" : ",");
		return;
	}
	printf("%s (ns per get+put pair, best round; ratio to C11 per round: median [min-max]):\n",
	       title);
	for (int v = 0; v < NR_VARIANTS; v++) {
		round_ratios(t, v, rounds, &median, &lo, &hi);
		printf("  %-50s %7.3f ns  %5.3fx C11 [%.3f-%.3f]  %5.3fx kfsim\n", variant_name[v],
		       best[v], median, lo, hi, best[v] / best[V_KFSIM]);
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long n = 20000000, rounds = 5;
	bool json = false, contended = true;
	struct counters *c = aligned_alloc(64, sizeof(*c));
	static double times[2][NR_VARIANTS][MAX_ROUNDS];
	int opt;

	while ((opt = getopt_long(argc, argv, "n:r:o:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = strtoul(optarg, NULL, 0); break;
		case 'o': contended = strcmp(optarg, "uncontended") != 0; break;
		case 'j': json = true; break;
		default:
			printf("usage: %s [--iterations N] [--rounds R] [--only uncontended] "
			       "[--json]\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!c || !n || !rounds || rounds > MAX_ROUNDS)
		return 2;
	counters_init(c);
	for (unsigned long r = 0; r < rounds; r++) {
		for (int v = 0; v < NR_VARIANTS; v++) {
			times[0][v][r] = measure(v, c, n, 1);
			if (contended)
				times[1][v][r] = measure(v, c, n / 4, 2);
		}
	}
	if (!counters_check(c)) {
		fprintf(stderr, "bench_refcount: a counter did not return to 1\n");
		return 1;
	}
	if (json)
		printf("{\n  \"iterations\": %lu,\n  \"rounds\": %lu,\n", n, rounds);
	else
		printf("refcount benchmark: %lu pairs per round, %lu rounds\n", n, rounds);
	print_table("uncontended", times[0], rounds, json, !contended);
	if (contended)
		print_table("contended_2_threads", times[1], rounds, json, true);
	if (json)
		printf("}\n");
	free(c);
	return 0;
}
