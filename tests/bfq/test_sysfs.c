// SPDX-License-Identifier: MIT
/*
 * BFQ's sysfs attributes by name (bfq_tunable_store()): the kernel's units (ms, us, KiB,
 * sectors), its clamping of out-of-range values, strict_guarantees raising slice_idle, order,
 * and refusals; and that a tunable written by name changes the simulation as the field does.
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>

static void store_ok(struct bfq_tunables *t, const char *name, const char *value)
{
	const char *why = NULL;

	assert_int_equal(bfq_tunable_store(t, name, value, &why), 0);
}

static void test_units_and_clamping(void **state)
{
	struct bfq_tunables t;
	const char *why = NULL;

	bfq_tunables_default(&t);
	store_ok(&t, "slice_idle", "4");
	assert_int_equal(t.slice_idle_ns, 4000000);
	store_ok(&t, "slice_idle_us", "1500");
	assert_int_equal(t.slice_idle_ns, 1500000);
	store_ok(&t, "timeout_sync", "0");		/* clamped to 1, as the kernel does */
	assert_int_equal(t.timeout_ms, 1);
	store_ok(&t, "fifo_expire_sync", "0");
	assert_int_equal(t.fifo_expire_sync_ms, 1);
	store_ok(&t, "fifo_expire_async", "300\n");	/* echo's newline */
	assert_int_equal(t.fifo_expire_async_ms, 300);
	store_ok(&t, "back_seek_max", "99999999999");	/* clamped to INT_MAX KiB */
	assert_int_equal(t.back_seek_max_kib, INT_MAX);
	store_ok(&t, "back_seek_penalty", "0");		/* clamped to 1 */
	assert_int_equal(t.back_seek_penalty, 1);
	store_ok(&t, "max_budget", "4096");
	assert_int_equal(t.max_budget, 4096);
	store_ok(&t, "low_latency", "7");		/* > 1 is 1 */
	assert_true(t.low_latency);
	store_ok(&t, "low_latency", "0");
	assert_false(t.low_latency);
	/* strict_guarantees=1 raises slice_idle to 8 ms; a later write may lower it again */
	store_ok(&t, "slice_idle", "2");
	store_ok(&t, "strict_guarantees", "1");
	assert_true(t.strict_guarantees);
	assert_int_equal(t.slice_idle_ns, 8000000);
	store_ok(&t, "slice_idle", "0");
	assert_int_equal(t.slice_idle_ns, 0);
	/* refused as the kernel's write refuses, or unknown */
	assert_int_equal(bfq_tunable_store(&t, "slice_idle", "-1", &why), -EINVAL);
	assert_int_equal(bfq_tunable_store(&t, "slice_idle", "8ms", &why), -EINVAL);
	assert_int_equal(bfq_tunable_store(&t, "slice_idle", "", &why), -EINVAL);
	assert_int_equal(bfq_tunable_store(&t, "actuator_load_threshold", "4", &why), -ENOENT);
	assert_int_equal(t.slice_idle_ns, 0);		/* nothing changed by a refusal */
}

static double run_mb_s(struct bfq_tunables *tun)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	char err[160];
	double mb_s;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.bfq = *tun;
	cfg.duration_ns = 1000000000ULL;
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read,bs=4k,offset=0%,size=50%",
					     &cfg.jobs[0], err, sizeof(err)), 0);
	assert_int_equal(kfsim_bfq_job_parse("name=b,rw=read,bs=4k,offset=50%,size=50%",
					     &cfg.jobs[1], err, sizeof(err)), 0);
	cfg.nr_jobs = 2;
	cfg.sched = KFSIM_SCHED_BFQ_62;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	mb_s = kfsim_bfq_sim_result(sim)->mb_s;
	kfsim_bfq_sim_destroy(sim);
	return mb_s;
}

/* pre-6.3 BFQ idles one actuator; slice_idle=0 by name stops it, as the field does */
static void test_by_name_changes_the_run(void **state)
{
	struct bfq_tunables by_name, by_field;
	double idling, no_idle;

	bfq_tunables_default(&by_name);
	by_name.low_latency = false;
	by_field = by_name;
	idling = run_mb_s(&by_name);
	store_ok(&by_name, "slice_idle", "0");
	by_field.slice_idle_ns = 0;
	no_idle = run_mb_s(&by_name);
	print_message("bfq-6.2, two 4 KiB streams: %.1f MB/s, slice_idle=0: %.1f MB/s\n", idling,
		      no_idle);
	assert_true(no_idle > idling * 1.5);
	assert_true(no_idle == run_mb_s(&by_field));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_and_clamping),
		cmocka_unit_test(test_by_name_changes_the_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
