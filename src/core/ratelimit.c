// SPDX-License-Identifier: MIT
/*
 * lib/ratelimit.c's ___ratelimit(): a burst per interval, the rest missed and reported once the
 * next interval begins.  It keeps printk_ratelimited() call sites, which Linux rate-limits
 * because anyone may trigger them (a netlink message with bytes left over after its
 * attributes), from writing the log as fast as requests come: without it one unprivileged
 * client of `kfsim --cmdline loglevel=8 kernel` wrote 96,466 lines (8.3 MB) of its log in 3 s
 * (tests/clients/attacks.py "log_flood").
 */
#include <time.h>

#include <kfsim/printk.h>
#include <kfsim/ratelimit.h>

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* never 0, which marks an interval not begun */
	return (u64)ts.tv_sec * 1000u + (u64)ts.tv_nsec / 1000000u + 1;
}

bool ___ratelimit(struct ratelimit_state *rs, const char *func)
{
	u64 now;
	bool pass;

	if (!rs->interval)
		return true;
	/* as the kernel's raw_spin_trylock_irqsave(): contended, the caller is limited */
	if (__atomic_test_and_set(&rs->lock, __ATOMIC_ACQUIRE))
		return false;
	now = now_ms();
	if (!rs->begin)
		rs->begin = now;
	if (now > rs->begin + (u64)rs->interval) {
		if (rs->missed) {
			printk(KERN_WARNING "%s: %d callbacks suppressed\n", func, rs->missed);
			rs->missed = 0;
		}
		rs->begin = now;
		rs->printed = 0;
	}
	if (rs->burst && rs->burst > rs->printed) {
		rs->printed++;
		pass = true;
	} else {
		rs->missed++;
		pass = false;
	}
	__atomic_clear(&rs->lock, __ATOMIC_RELEASE);
	return pass;
}
