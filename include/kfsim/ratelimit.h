/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RATELIMIT_H
#define KFSIM_RATELIMIT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Rate limits as include/linux/ratelimit.h has them: at most @burst passes in each @interval,
 * the rest counted as missed and reported ("%s: %d callbacks suppressed") when the next
 * interval starts.  Intervals are milliseconds of CLOCK_MONOTONIC where the kernel counts
 * jiffies (DEFAULT_RATELIMIT_INTERVAL is the kernel's 5 * HZ).  The state is guarded as
 * lib/ratelimit.c guards it with a trylock: a caller that finds it taken is not let through.
 */
#include <stdbool.h>
#include <kfsim/types.h>

#define DEFAULT_RATELIMIT_INTERVAL 5000	/* ms: 5 * HZ */
#define DEFAULT_RATELIMIT_BURST 10

struct ratelimit_state {
	bool lock;
	int interval;		/* ms; 0: no limit */
	int burst;
	int printed;
	int missed;
	u64 begin;		/* ms since boot when this interval began; 0: none yet */
};

#define RATELIMIT_STATE_INIT(name, interval_init, burst_init)                                     \
	{ .interval = (interval_init), .burst = (burst_init) }

/**
 * ___ratelimit() - may the caller go on?
 * @rs: the limit's state
 * @func: who asks, named in the report of what was suppressed
 *
 * Return: true while fewer than @rs->burst passed in this interval, false otherwise.
 */
bool ___ratelimit(struct ratelimit_state *rs, const char *func);
#define __ratelimit(state) ___ratelimit(state, __func__)

#pragma GCC visibility pop
#endif /* KFSIM_RATELIMIT_H */
