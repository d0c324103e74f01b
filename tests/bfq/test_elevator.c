// SPDX-License-Identifier: MIT
/*
 * The scheduler registry (<kfsim/elevator.h>): a new scheduler is one struct elevator_type
 * and one elv_register() call, and the block-layer simulator runs it by name with nothing
 * else changed.  Also: registry errors, the generated name list, and the simulator's one
 * out-of-memory policy (an event that cannot be scheduled stops the run with -ENOMEM, and what
 * was outstanding still completes exactly once).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

/* A last-in first-out elevator: nothing like the built-in ones, so a run shows it is used. */
struct lifo_data {
	struct blk_list stack;
	unsigned int inserted, dispatched, completed, icqs;
};

static int lifo_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			   const struct bfq_tunables *tun)
{
	struct lifo_data *ld = kzalloc(sizeof(*ld), GFP_KERNEL);

	if (!ld)
		return -ENOMEM;
	blk_list_init(&ld->stack);
	eq->elevator_data = ld;
	return 0;
}

static struct lifo_data *last_exit;
static struct lifo_data last_seen;

static void lifo_exit_sched(struct elevator_queue *eq)
{
	struct lifo_data *ld = eq->elevator_data;

	last_seen = *ld;
	last_exit = ld;
	kfree(ld);
}

static void *lifo_init_icq(struct elevator_queue *eq, const struct elv_proc *proc)
{
	((struct lifo_data *)eq->elevator_data)->icqs++;
	return NULL;
}

static int lifo_insert(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	struct lifo_data *ld = eq->elevator_data;

	blk_list_add(&rq->queuelist, &ld->stack);
	ld->inserted++;
	return 0;
}

static struct request *lifo_dispatch(struct elevator_queue *eq, u64 now)
{
	struct lifo_data *ld = eq->elevator_data;
	struct request *rq;

	if (blk_list_empty(&ld->stack))
		return NULL;
	rq = blk_list_entry(ld->stack.next, struct request, queuelist);
	blk_list_del_init(&rq->queuelist);
	ld->dispatched++;
	return rq;
}

static bool lifo_has_work(struct elevator_queue *eq)
{
	return !blk_list_empty(&((struct lifo_data *)eq->elevator_data)->stack);
}

static void lifo_completed(struct elevator_queue *eq, struct request *rq, u64 now)
{
	((struct lifo_data *)eq->elevator_data)->completed++;
}

static const struct elevator_type lifo_iosched = {
	.ops = {
		.init_sched = lifo_init_sched,
		.exit_sched = lifo_exit_sched,
		.init_icq = lifo_init_icq,
		.insert_requests = lifo_insert,
		.dispatch_request = lifo_dispatch,
		.has_work = lifo_has_work,
		.completed_request = lifo_completed,
	},
	.elevator_name = "test-lifo",
	.description = "last in, first out (test)",
};

static void test_dummy_scheduler_through_the_table(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	unsigned int before = elv_nr_types();
	char names[200], expected[200], err[160];
	u64 submitted;

	/* the registry's own list, whatever rows the built-in table has, then the new one */
	elv_names(expected, sizeof(expected) - sizeof(",test-lifo"), ",");
	strcat(expected, ",test-lifo");
	assert_int_equal(kfsim_bfq_sched_parse("test-lifo", &cfg.sched), -EINVAL);
	assert_int_equal(elv_register(&lifo_iosched), 0);
	assert_int_equal(elv_nr_types(), before + 1);
	assert_ptr_equal(elv_find("test-lifo"), &lifo_iosched);
	elv_names(names, sizeof(names), ",");
	assert_string_equal(names, expected);

	kfsim_bfq_sim_config_default(&cfg);
	assert_int_equal(kfsim_bfq_sched_parse("test-lifo", &cfg.sched), 0);
	assert_string_equal(kfsim_bfq_sched_name(cfg.sched), "test-lifo");
	cfg.duration_ns = 1000000000ULL;
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=randread,bs=4k,iodepth=8", &cfg.jobs[0],
					     err, sizeof(err)), 0);
	assert_int_equal(kfsim_bfq_job_parse("name=b,rw=read,bs=64k,iodepth=2,offset=50%",
					     &cfg.jobs[1], err, sizeof(err)), 0);
	cfg.nr_jobs = 2;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_null(kfsim_bfq_sim_bfqd(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	assert_true(res->completed > 100);
	assert_int_equal(res->completed + res->drained, res->submitted);
	submitted = res->submitted;
	kfsim_bfq_sim_destroy(sim);
	/* every request went through the ops */
	assert_non_null(last_exit);
	assert_int_equal(last_seen.icqs, 2);
	assert_int_equal(last_seen.inserted, submitted);
	assert_int_equal(last_seen.dispatched, submitted);
	assert_int_equal(last_seen.completed, submitted);

	elv_unregister(&lifo_iosched);
	assert_int_equal(elv_nr_types(), before);
	assert_null(elv_find("test-lifo"));
}

static u64 lifo_next_timer(struct elevator_queue *eq)
{
	return U64_MAX;
}

static void test_registry_errors(void **state)
{
	struct elevator_type no_dispatch = lifo_iosched, timer_without_fn = lifo_iosched;
	struct elevator_type clash = lifo_iosched;
	char small[8];

	no_dispatch.ops.dispatch_request = NULL;
	timer_without_fn.ops.next_timer = lifo_next_timer;
	timer_without_fn.ops.timer_fn = NULL;
	clash.elevator_name = "bfq";
	assert_int_equal(elv_register(NULL), -EINVAL);
	assert_int_equal(elv_register(&no_dispatch), -EINVAL);
	assert_int_equal(elv_register(&timer_without_fn), -EINVAL);
	assert_int_equal(elv_register(&clash), -EBUSY);
	/* built-in types cannot be unregistered */
	elv_unregister(&bfq_iosched);
	assert_ptr_equal(elv_find("bfq"), &bfq_iosched);
	assert_null(elv_type(elv_nr_types()));
	/* names truncate, NUL-terminated */
	assert_int_equal(elv_names(small, sizeof(small), ","), 7);
	assert_string_equal(small, "bfq,bfq");
}

/*
 * The simulator's out-of-memory policy: the event heap cannot grow, so the run stops with
 * -ENOMEM instead of silently losing the wake-up, and every submitted request still
 * completes exactly once (the simulation drains what was outstanding).
 */
static void test_event_enomem_stops_run(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char err[160];

	kfsim_bfq_sim_config_default(&cfg);
	cfg.sched = KFSIM_SCHED_NONE;
	cfg.duration_ns = 1000000000ULL;
	/* a think time: every completion schedules a wake-up event */
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=randread,bs=4k,thinktime=100",
					     &cfg.jobs[0], err, sizeof(err)), 0);
	cfg.nr_jobs = 1;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	kfsim_kmalloc_fail_nth(1);	/* the event heap's first allocation */
	assert_int_equal(kfsim_bfq_sim_run(sim), -ENOMEM);
	kfsim_kmalloc_fail_nth(0);
	res = kfsim_bfq_sim_result(sim);
	assert_true(res->submitted >= 1);
	assert_int_equal(res->completed + res->drained, res->submitted);
	kfsim_bfq_sim_destroy(sim);
}

/* Bad configurations come back with a one-line reason, not only in the log. */
static void test_create_reason(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	char why[200];

	kfsim_bfq_sim_config_default(&cfg);
	assert_ptr_equal(kfsim_bfq_sim_create_msg(&cfg, why, sizeof(why)), ERR_PTR(-EINVAL));
	assert_non_null(strstr(why, "at least one job"));
	cfg.sched = (enum kfsim_bfq_sched)elv_nr_types();
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read", &cfg.jobs[0], why, sizeof(why)), 0);
	cfg.nr_jobs = 1;
	assert_ptr_equal(kfsim_bfq_sim_create_msg(&cfg, why, sizeof(why)), ERR_PTR(-EINVAL));
	assert_non_null(strstr(why, "registered scheduler"));
	cfg.sched = KFSIM_SCHED_BFQ;
	cfg.jobs[0].offset_frac = 1.5;
	assert_ptr_equal(kfsim_bfq_sim_create_msg(&cfg, why, sizeof(why)), ERR_PTR(-EINVAL));
	assert_non_null(strstr(why, "job a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dummy_scheduler_through_the_table),
		cmocka_unit_test(test_registry_errors),
		cmocka_unit_test(test_event_enomem_stops_run),
		cmocka_unit_test(test_create_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
