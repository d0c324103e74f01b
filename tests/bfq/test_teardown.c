// SPDX-License-Identifier: MIT
/*
 * Tearing BFQ down frees every queue through its references (bfqq->ref: one per bic slot, one
 * for the group per shared async slot, one while on a service tree or in service, one per
 * request allocated).  The reference most easily forgotten is the idle tree's: a queue that went
 * idle before its virtual finish time keeps the scheduler's reference until vtime passes it, and
 * at exit time no longer passes, so bfq_exit_queue() must drop it (the kernel walks idle_list).
 *
 * Checked three ways, because WARN_ON_ONCE() reports once per program: the reference trace of a
 * queue parked on the idle tree, built by hand; the headline scenario in every mode and over a
 * few durations, in this process, with bfq_exit_queue()'s per-queue "freed at exit" line and the
 * allocator's live bytes as the counters; and the kfsim program with the console on, one fresh
 * process per mode, with the exact command of the bug report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/bug.h>
#include "bfq/bfq_internal.h"
#include "bfq_test_util.h"
#include "support/cli_run.h"
#include "support/log_assert.h"

#define JOB_A "name=a,rw=read,bs=4k,offset=0%,size=50%"
#define JOB_B "name=b,rw=read,bs=4k,offset=50%,size=50%"
/* what bfq_exit_queue() logs for each queue it has to free by force */
#define LEAK_LINE "freed at exit"

static u64 bytes_live(void)
{
	struct kfsim_kmalloc_stats st;

	kfsim_kmalloc_stats(&st);
	return st.bytes_live;
}

static unsigned int list_len(const struct blk_list *head)
{
	unsigned int n = 0;

	for (const struct blk_list *pos = head->next; pos != head; pos = pos->next)
		n++;
	return n;
}

/* How many bic slots, of every io context of @bfqd, point to @bfqq. */
static int bic_slot_refs(struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	int n = 0;

	for (struct blk_list *pos = bfqd->bics.next; pos != &bfqd->bics; pos = pos->next) {
		struct bfq_io_cq *bic = blk_list_entry(pos, struct bfq_io_cq, bic_list);

		for (int sync = 0; sync < 2; sync++)
			for (unsigned int a = 0; a < BFQ_MAX_ACTUATORS; a++)
				n += bic->bfqq[sync][a] == bfqq;
	}
	return n;
}

static int async_slot_refs(struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	int n = 0;

	for (unsigned int a = 0; a < BFQ_MAX_ACTUATORS; a++) {
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < IOPRIO_NR_LEVELS; j++)
				n += bfqd->async_bfqq[i][j][a] == bfqq;
		n += bfqd->async_idle_bfqq[a] == bfqq;
	}
	return n;
}

/*
 * After a drain every reference of every queue has an owner that teardown releases: a bic slot,
 * an async slot of the group, or the scheduler (service tree or in service).  None is held by a
 * request.  Returns how many queues sit on an idle tree.
 */
static unsigned int audit_refs(struct bfq_data *bfqd)
{
	for (struct blk_list *pos = bfqd->all_queues.next; pos != &bfqd->all_queues;
	     pos = pos->next) {
		struct bfq_queue *bfqq = blk_list_entry(pos, struct bfq_queue, all_list);
		int owners = bic_slot_refs(bfqd, bfqq) + async_slot_refs(bfqd, bfqq) +
			     bfqq->entity.on_st_or_in_serv;

		assert_int_equal(bfqq->allocated, 0);
		assert_int_equal(bfqq->dispatched, 0);
		assert_int_equal(bfqq->ref, owners);
	}
	return list_len(&bfqd->idle_list);
}

/*
 * Two processes of equal weight with one sync read each on actuator 0, a's eight times b's: a
 * is served 64 sectors, b 8, so vtime ends at 72/(2w) while a's finish is 64/w.  a goes idle
 * before its finish time and lands on the idle tree holding ref = its slot + the tree's; b's
 * finish, 8/w, is behind vtime and b is forgotten.  Once a's process exits only the tree's
 * reference remains, and only bfq_exit_queue() can drop it.  Both modes, pre-6.3 and 6.3.
 */
static void test_idle_tree_reference_dropped_at_exit(void **state)
{
	for (unsigned int kver = 0; kver < 2; kver++) {
		u64 live = bytes_live();
		struct gendisk disk;
		unsigned int version = kver ? KERNEL_VERSION(6, 3, 0) : KERNEL_VERSION(6, 2, 0);
		struct bfq_data *bfqd = test_bfq(&disk, 2, version, NULL);
		struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
		struct bfq_io_cq *b = bfq_create_icq(bfqd, 2, 0, 0);
		struct bfq_queue *idle_bfqq = NULL;
		struct request *rq;
		u64 m;

		assert_non_null(test_rq(bfqd, a, 1000, 64, false));
		assert_non_null(test_rq(bfqd, b, 2000, 8, false));
		while ((rq = test_dispatch(bfqd))) {
			bfqd->now_ns += 100000;
			test_finish(bfqd, rq);
		}
		if (bfqd->idle_slice_timer_expires) {
			bfqd->now_ns = bfqd->idle_slice_timer_expires;
			bfq_idle_slice_timer(bfqd);
		}
		assert_null(bfqd->in_service_queue);
		assert_int_equal(audit_refs(bfqd), 1);
		idle_bfqq = blk_list_entry(bfqd->idle_list.next, struct bfq_queue, bfqq_list);
		assert_ptr_equal(idle_bfqq, bic_to_bfqq(a, true, 0));
		assert_false(bfq_bfqq_busy(idle_bfqq));
		assert_true(idle_bfqq->entity.on_st_or_in_serv);
		assert_int_equal(idle_bfqq->ref, 2);	/* its bic slot + the idle tree */

		bfq_exit_icq(a);
		bfq_exit_icq(b);
		/* only the tree's reference is left: the queue is alive, owned by the scheduler */
		assert_int_equal(list_len(&bfqd->all_queues), 1);
		assert_ptr_equal(bfqd->all_queues.next, &idle_bfqq->all_list);
		assert_int_equal(idle_bfqq->ref, 1);

		m = log_mark();
		bfq_exit_queue(bfqd);
		assert_logged(m, "WARNING:", 0);
		assert_logged(m, LEAK_LINE, 0);
		disk_free_ia_ranges(&disk);
		assert_int_equal(bytes_live(), live);
	}
}

/*
 * One run of the headline scenario (two sequential readers, one per actuator): no warning, no
 * queue freed by force, all memory back.  Returns whether it ended with a queue on an idle tree.
 */
static bool headline_run_frees_every_queue(enum kfsim_bfq_sched sched, unsigned int actuators,
					   bool low_latency, u64 duration_ms)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	struct bfq_data *bfqd;
	bool parked = false;
	char err[160];
	u64 live = bytes_live();
	u64 m = log_mark();

	kfsim_bfq_sim_config_default(&cfg);
	cfg.sched = sched;
	cfg.disk.nr_actuators = actuators;
	cfg.bfq.low_latency = low_latency;
	cfg.duration_ns = duration_ms * 1000000ULL;
	assert_int_equal(kfsim_bfq_job_parse(JOB_A, &cfg.jobs[0], err, sizeof(err)), 0);
	assert_int_equal(kfsim_bfq_job_parse(JOB_B, &cfg.jobs[1], err, sizeof(err)), 0);
	cfg.nr_jobs = 2;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	bfqd = kfsim_bfq_sim_bfqd(sim);
	if (bfqd)
		parked = audit_refs(bfqd) > 0;
	kfsim_bfq_sim_destroy(sim);
	assert_logged(m, "WARNING:", 0);
	assert_logged(m, LEAK_LINE, 0);
	assert_int_equal(bytes_live(), live);
	return parked;
}

/*
 * Every mode, both disks, low_latency off and on, a few durations.  Some runs must end with a
 * queue on an idle tree, or the test would not be testing the leak it guards against.
 */
static void test_headline_every_mode_frees_every_queue(void **state)
{
	static const u64 durations_ms[] = { 100, 200, 500, 1000, 2000 };
	unsigned int parked = 0, runs = 0, nr_sched = elv_nr_types();

	for (unsigned int i = 0; i < nr_sched * 2 * 2 * ARRAY_SIZE(durations_ms); i++) {
		enum kfsim_bfq_sched sched = (enum kfsim_bfq_sched)(i % nr_sched);
		unsigned int actuators = 1 + i / nr_sched % 2;
		bool low_latency = i / (nr_sched * 2) % 2;
		u64 ms = durations_ms[i / (nr_sched * 4)];

		parked += headline_run_frees_every_queue(sched, actuators, low_latency, ms);
		runs++;
	}
	print_message("%u runs, %u ended with a queue on an idle tree\n", runs, parked);
	assert_true(parked > 0);
}

/* The bug report's command, console on, a fresh program per mode (WARN_ON_ONCE: once a program). */
static void test_cli_headline_logs_no_warning(void **state)
{
	static const char *const scheds[] = { "bfq", "bfq-6.2", "none", "mq-deadline" };

	for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
		for (int ll = 0; ll < 2; ll++) {
			const char *const args[] = { "--cmdline", "loglevel=5", "bfq", "sim",
						     "--sched", scheds[s], "--low-latency",
						     ll ? "1" : "0", "--job", JOB_A, "--job", JOB_B,
						     "--duration", "2", NULL };
			struct cli_result r;

			assert_int_equal(cli_run(&r, args), 0);
			if (r.status || strstr(r.err, "WARNING") || strstr(r.err, LEAK_LINE))
				print_error("--sched %s --low-latency %d: status %d, stderr:\n%s\n",
					    scheds[s], ll, r.status, r.err);
			assert_int_equal(r.status, 0);
			assert_null(strstr(r.err, "WARNING"));
			assert_null(strstr(r.err, LEAK_LINE));
			cli_result_free(&r);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_tree_reference_dropped_at_exit),
		cmocka_unit_test(test_headline_every_mode_frees_every_queue),
		cmocka_unit_test(test_cli_headline_logs_no_warning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
