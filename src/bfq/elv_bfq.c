// SPDX-License-Identifier: MIT
/*
 * BFQ's rows of the scheduler registry: "bfq" (the kernel version in force, 6.3 by default)
 * and "bfq-6.2" (the same code with the kernel version set below 6.3: one queue per process,
 * no actuator injection).  Each op is the bfq-iosched.c entry point of the same job.
 */
#include <kfsim/bfq.h>
#include <kfsim/bfq_sim.h>
#include <kfsim/bug.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>

static struct bfq_data *eq_bfqd(struct elevator_queue *eq)
{
	return eq->elevator_data;
}

static int bfq_init_sched_version(struct elevator_queue *eq, struct gendisk *disk,
				  const struct bfq_tunables *tun, unsigned int kver)
{
	struct bfq_tunables t;
	struct bfq_data *bfqd;

	if (tun)
		t = *tun;
	else
		bfq_tunables_default(&t);
	if (kver)
		t.kernel_version = kver;
	bfqd = bfq_init_queue(disk, &t);
	if (IS_ERR(bfqd))
		return (int)PTR_ERR(bfqd);
	eq->elevator_data = bfqd;
	return 0;
}

static int bfq_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			  const struct bfq_tunables *tun)
{
	return bfq_init_sched_version(eq, disk, tun, 0);
}

static int bfq_62_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			     const struct bfq_tunables *tun)
{
	return bfq_init_sched_version(eq, disk, tun, KERNEL_VERSION(6, 2, 0));
}

static void bfq_exit_sched(struct elevator_queue *eq)
{
	bfq_exit_queue(eq_bfqd(eq));
	eq->elevator_data = NULL;
}

/* A process in a cgroup gets the cgroup's group (created at its first process). */
static void *bfq_init_icq(struct elevator_queue *eq, const struct elv_proc *proc)
{
	bool in_group = proc->cgroup && proc->cgroup[0];
	struct bfq_group *bfqg = NULL;
	struct bfq_io_cq *bic;

	if (in_group) {
		bfqg = bfq_create_group(eq_bfqd(eq), proc->cgroup, proc->cgroup_weight ?
					proc->cgroup_weight : BFQ_DEFAULT_GRP_WEIGHT);
		if (IS_ERR(bfqg))
			return bfqg;
	}
	bic = bfq_create_icq(eq_bfqd(eq), proc->pid, proc->ioprio, in_group ? 0 : proc->weight);
	if (!IS_ERR(bic) && bfqg)
		WARN_ON_ONCE(bfq_bic_set_group(bic, bfqg));
	return bic;
}

static void bfq_exit_icq_op(struct elevator_queue *eq, void *icq)
{
	bfq_exit_icq(icq);
}

static int bfq_insert_requests(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	struct bfq_data *bfqd = eq_bfqd(eq);
	int err;

	bfqd->now_ns = now;
	err = bfq_prepare_request(icq, rq);
	if (err)
		return err;
	bfq_insert_request(bfqd, rq);
	return 0;
}

static struct request *bfq_dispatch_op(struct elevator_queue *eq, u64 now)
{
	eq_bfqd(eq)->now_ns = now;
	return bfq_dispatch_request(eq_bfqd(eq));
}

static bool bfq_has_work_op(struct elevator_queue *eq)
{
	return bfq_has_work(eq_bfqd(eq));
}

static u64 bfq_next_timer(struct elevator_queue *eq)
{
	u64 expires = eq_bfqd(eq)->idle_slice_timer_expires;

	return expires ? expires : U64_MAX;
}

static void bfq_timer_fn(struct elevator_queue *eq, u64 now)
{
	eq_bfqd(eq)->now_ns = now;
	bfq_idle_slice_timer(eq_bfqd(eq));
}

static void bfq_completed_op(struct elevator_queue *eq, struct request *rq, u64 now)
{
	eq_bfqd(eq)->now_ns = now;
	bfq_finish_request(eq_bfqd(eq), rq);
}

static void bfq_depth_updated(struct elevator_queue *eq, unsigned int nr_requests)
{
	bfq_update_depths(eq_bfqd(eq), nr_requests);
}

static unsigned int bfq_limit_depth_op(struct elevator_queue *eq, blk_opf_t opf, void *icq,
				       unsigned int nr_requests)
{
	return bfq_limit_depth(eq_bfqd(eq), icq, opf, nr_requests);
}

static int bfq_in_service_pid(struct elevator_queue *eq)
{
	struct bfq_queue *in_serv = eq_bfqd(eq)->in_service_queue;

	return in_serv && in_serv->bic ? in_serv->bic->pid : -1;
}

static void bfq_stats(struct elevator_queue *eq, struct kfsim_bfq_sim_result *res)
{
	struct bfq_data *bfqd = eq_bfqd(eq);

	res->hole_injected = bfqd->nr_hole_injected;
	for (unsigned int a = 0; a < res->nr_actuators && a < BFQ_MAX_ACTUATORS; a++)
		res->actuator[a].injected = bfqd->nr_injected[a];
	for (struct blk_list *pos = bfqd->all_queues.next; pos != &bfqd->all_queues;
	     pos = pos->next) {
		struct bfq_queue *bfqq = blk_list_entry(pos, struct bfq_queue, all_list);

		for (int r = 0; r < BFQQE_NR_REASONS; r++)
			res->expirations[r] += bfqq->nr_expirations[r];
	}
}

#define BFQ_OPS(init)                                                                           \
	{                                                                                       \
		.init_sched = init, .exit_sched = bfq_exit_sched, .init_icq = bfq_init_icq,     \
		.exit_icq = bfq_exit_icq_op, .insert_requests = bfq_insert_requests,            \
		.dispatch_request = bfq_dispatch_op, .has_work = bfq_has_work_op,               \
		.next_timer = bfq_next_timer, .timer_fn = bfq_timer_fn,                         \
		.completed_request = bfq_completed_op, .in_service_pid = bfq_in_service_pid,    \
		.stats = bfq_stats, .depth_updated = bfq_depth_updated,                         \
		.limit_depth = bfq_limit_depth_op,                                              \
	}

const struct elevator_type bfq_iosched = {
	.ops = BFQ_OPS(bfq_init_sched),
	.elevator_name = "bfq",
	.description = "BFQ of the kernel version in force (6.3 by default)",
};

const struct elevator_type bfq_62_iosched = {
	.ops = BFQ_OPS(bfq_62_init_sched),
	.elevator_name = "bfq-6.2",
	.description = "BFQ before 6.3: one queue per process, no actuator injection",
};
