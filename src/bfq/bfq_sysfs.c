// SPDX-License-Identifier: MIT
/*
 * BFQ's sysfs tunables by their names (/sys/block/<dev>/queue/iosched/<name>), stored as the
 * kernel's store functions store them (block/bfq-iosched.c, 6.12: STORE_FUNCTION,
 * USEC_STORE_FUNCTION, bfq_max_budget_store, bfq_timeout_sync_store,
 * bfq_strict_guarantees_store, bfq_low_latency_store): the value is an unsigned decimal
 * (kstrtoul() in bfq_var_store(): anything else is -EINVAL), out-of-range values are clamped
 * to the attribute's range, not refused, and writing strict_guarantees=1 raises slice_idle to
 * at least 8 ms.  Writes apply in order, as successive echos do.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq.h>
#include <kfsim/kernel.h>

static const struct bfq_attr {
	const char *name;
	unsigned long min, max;
	const char *unit;
} bfq_attrs[] = {
	/* bfq_attrs[] in block/bfq-iosched.c, in its order */
	{ "fifo_expire_sync", 1, INT_MAX, "ms" },
	{ "fifo_expire_async", 1, INT_MAX, "ms" },
	{ "back_seek_max", 0, INT_MAX, "KiB" },
	{ "back_seek_penalty", 1, INT_MAX, "" },
	{ "slice_idle", 0, INT_MAX, "ms" },
	{ "slice_idle_us", 0, UINT_MAX, "us" },
	{ "max_budget", 0, INT_MAX, "sectors, 0 = automatic" },
	{ "timeout_sync", 1, INT_MAX, "ms" },
	{ "strict_guarantees", 0, 1, "0|1" },
	{ "low_latency", 0, 1, "0|1" },
};

const char *bfq_tunable_names(void)
{
	return "fifo_expire_sync fifo_expire_async back_seek_max back_seek_penalty slice_idle "
	       "slice_idle_us max_budget timeout_sync strict_guarantees low_latency";
}

int bfq_tunable_store(struct bfq_tunables *tun, const char *name, const char *value,
		      const char **why)
{
	const struct bfq_attr *attr = NULL;
	unsigned long v;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(bfq_attrs); i++) {
		if (!strcmp(bfq_attrs[i].name, name))
			attr = &bfq_attrs[i];
	}
	if (!attr) {
		*why = "no such BFQ attribute";
		return -ENOENT;
	}
	/* kstrtoul(page, 10, ...): digits, an optional trailing newline, nothing else */
	errno = 0;
	v = value[0] >= '0' && value[0] <= '9' ? strtoul(value, &end, 10) : 0;
	if (!(value[0] >= '0' && value[0] <= '9') || errno == ERANGE ||
	    (*end && strcmp(end, "\n"))) {
		*why = "not an unsigned decimal number (the kernel's write returns -EINVAL)";
		return -EINVAL;
	}
	v = clamp(v, attr->min, attr->max);
	if (!strcmp(name, "fifo_expire_sync"))
		tun->fifo_expire_sync_ms = (unsigned int)v;
	else if (!strcmp(name, "fifo_expire_async"))
		tun->fifo_expire_async_ms = (unsigned int)v;
	else if (!strcmp(name, "back_seek_max"))
		tun->back_seek_max_kib = (unsigned int)v;
	else if (!strcmp(name, "back_seek_penalty"))
		tun->back_seek_penalty = (unsigned int)v;
	else if (!strcmp(name, "slice_idle"))
		tun->slice_idle_ns = (u64)v * NSEC_PER_MSEC;
	else if (!strcmp(name, "slice_idle_us"))
		tun->slice_idle_ns = (u64)v * NSEC_PER_USEC;
	else if (!strcmp(name, "max_budget"))
		tun->max_budget = (int)v;
	else if (!strcmp(name, "timeout_sync"))
		tun->timeout_ms = (unsigned int)v;
	else if (!strcmp(name, "strict_guarantees")) {
		if (!tun->strict_guarantees && v == 1 && tun->slice_idle_ns < 8 * NSEC_PER_MSEC)
			tun->slice_idle_ns = 8 * NSEC_PER_MSEC;
		tun->strict_guarantees = v;
	} else {
		tun->low_latency = v;
	}
	return 0;
}
