// SPDX-License-Identifier: MIT
/*
 * Progress of long runs and the run budget.
 *
 * Progress is one line on stderr, redrawn in place ("\r") at most a few times a second:
 * percentage, simulated time, simulation rate, and the time left.  Only a person watching a
 * terminal wants it, so it is shown only when stderr is a terminal (KFSIM_PROGRESS=always
 * forces it from the start, for tests) and never with --quiet; stdout, where --json goes, is never touched.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void kfsim_cli_progress_begin(struct kfsim_cli_progress *p, const char *what, bool quiet)
{
	const char *force = getenv("KFSIM_PROGRESS");

	*p = (struct kfsim_cli_progress){ .what = what };
	if (quiet)
		return;
	p->forced = force && !strcmp(force, "always");
	p->on = p->forced || isatty(STDERR_FILENO);
	p->start_ns = wall_ns();
}

void kfsim_cli_progress_update(struct kfsim_cli_progress *p, double fraction, double sim_s)
{
	u64 now;
	double elapsed, eta;

	if (!p->on)
		return;
	now = wall_ns();
	/* at most 5 redraws a second, and not before the run has shown it is long */
	if (p->printed && now - p->last_ns < 200000000ULL)
		return;
	if (now - p->start_ns < 500000000ULL && !p->forced)
		return;
	p->last_ns = now;
	p->printed = true;
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	elapsed = (double)(now - p->start_ns) / 1e9;
	eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
	fprintf(stderr, "\r%s: %3.0f%%  %.3f s simulated  %.3g s/s  ETA %.0f s   ", p->what,
		fraction * 100, sim_s, elapsed > 0 ? sim_s / elapsed : 0, eta);
	fflush(stderr);
}

void kfsim_cli_progress_end(struct kfsim_cli_progress *p)
{
	if (p->on && p->printed) {
		/* leave a clean line for what comes next */
		fprintf(stderr, "\r%*s\r", 72, "");
		fflush(stderr);
	}
	p->on = false;
}

int kfsim_cli_budget(const char *cmd, double estimate, double budget, const char *what,
		     bool force)
{
	if (estimate <= budget || force)
		return 0;
	return kfsim_cli_usage(cmd, "this run is estimated at %.3g %s, beyond the budget of %.3g "
			       "(see 'kfsim %s --help'): make it smaller, or pass --force",
			       estimate, what, budget, cmd);
}
