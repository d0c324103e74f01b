/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_INTERNAL_H
#define KFSIM_BFQ_INTERNAL_H

/*
 * What the BFQ files share and users do not need: queue state flags, the kernel's constants and
 * the functions that cross files (B-WF2Q+ in bfq_wf2q.c, queue life in bfq_iocq.c, actuators in
 * bfq_actuator.c, the policy in bfq_iosched.c).
 */
#include <kfsim/bfq.h>
#include <kfsim/kernel.h>

enum bfqq_state_flags {
	BFQQF_just_created = 0,
	BFQQF_busy,
	BFQQF_wait_request,
	BFQQF_non_blocking_wait_rq,
	BFQQF_fifo_expire,
	BFQQF_has_short_ttime,
	BFQQF_sync,
	BFQQF_IO_bound,
	BFQQF_in_large_burst,
};

#define BFQ_BFQQ_FNS(name)                                                                      \
	static inline void bfq_mark_bfqq_##name(struct bfq_queue *bfqq)                         \
	{                                                                                       \
		bfqq->flags |= BIT(BFQQF_##name);                                               \
	}                                                                                       \
	static inline void bfq_clear_bfqq_##name(struct bfq_queue *bfqq)                        \
	{                                                                                       \
		bfqq->flags &= ~BIT(BFQQF_##name);                                              \
	}                                                                                       \
	static inline bool bfq_bfqq_##name(const struct bfq_queue *bfqq)                        \
	{                                                                                       \
		return bfqq->flags & BIT(BFQQF_##name);                                         \
	}

BFQ_BFQQ_FNS(just_created)
BFQ_BFQQ_FNS(busy)
BFQ_BFQQ_FNS(wait_request)
BFQ_BFQQ_FNS(non_blocking_wait_rq)
BFQ_BFQQ_FNS(fifo_expire)
BFQ_BFQQ_FNS(has_short_ttime)
BFQ_BFQQ_FNS(sync)
BFQ_BFQQ_FNS(IO_bound)
BFQ_BFQQ_FNS(in_large_burst)

#define BFQ_MIN_TT (2 * NSEC_PER_MSEC)
#define BFQ_DEFAULT_MAX_BUDGET (16 * 1024)
#define BFQ_STATS_MIN_BUDGETS 194
#define BFQ_ASYNC_CHARGE_FACTOR 3
#define BFQ_REQUESTS_WITHIN_TIMER 120
#define BFQQ_SEEK_THR 800
#define BFQQ_SEEKY_THR 19
#define BFQ_HW_QUEUE_THRESHOLD 3
#define BFQ_HW_QUEUE_SAMPLES 32
#define BFQ_RATE_SHIFT 16
#define BFQ_RATE_MIN_SAMPLES 32
#define BFQ_RATE_MIN_INTERVAL_NS (300 * NSEC_PER_MSEC)
#define BFQ_RATE_REF_INTERVAL_NS (1000 * NSEC_PER_MSEC)
#define BFQ_WR_COEFF 30
#define BFQ_WR_MIN_IDLE_TIME (2000 * BFQ_HZ / 1000)
#define BFQ_WR_RT_MAX_TIME (300 * BFQ_HZ / 1000)
#define BFQ_MAX_SERVICE_FROM_WR 120000
#define BFQ_REF_RATE_ROT 14000
#define BFQ_REF_WR_DURATION_ROT (7000 * BFQ_HZ / 1000)
#define BFQ_CL_IDLE_TIMEOUT (BFQ_HZ / 5)
/*
 * The kernel's bfq_smallest_from_now(): a time far enough in the past.  Jiffies are compared by
 * their difference (time_after()), which wraps as the kernel's do: 2^30 jiffies (12 days at
 * BFQ_HZ) keeps every difference within a 32-bit long, so a 32-bit build (the WebAssembly
 * module) decides exactly as x86_64 does.
 */
#define BFQ_LONG_AGO (1UL << 30)

static inline unsigned long bfq_jiffies(const struct bfq_data *bfqd)
{
	return (unsigned long)(bfqd->now_ns / (NSEC_PER_SEC / BFQ_HZ)) + BFQ_LONG_AGO;
}

/* time_is_before_jiffies(a): a is in the past. */
static inline bool bfq_time_before_now(const struct bfq_data *bfqd, unsigned long a)
{
	return (long)(bfq_jiffies(bfqd) - a) > 0;
}

/* The queue of @entity, NULL for a group's entity. */
static inline struct bfq_queue *bfq_entity_to_bfqq(struct bfq_entity *entity)
{
	return entity->my_sched_data ? NULL : container_of(entity, struct bfq_queue, entity);
}

static inline struct bfq_queue *RQ_BFQQ(const struct request *rq)
{
	return rq->elv_priv[1];
}

static inline struct bfq_io_cq *RQ_BIC(const struct request *rq)
{
	return rq->elv_priv[0];
}

static inline unsigned int bfq_class_idx(const struct bfq_entity *entity)
{
	const struct bfq_queue *bfqq = container_of(entity, struct bfq_queue, entity);

	if (entity->my_sched_data)
		return IOPRIO_CLASS_BE - 1;	/* groups are best effort (BFQ_DEFAULT_GRP_CLASS) */
	return bfqq->ioprio_class - 1;	/* RT 0, BE 1, IDLE 2 */
}

static inline bool bfq_class_idle(const struct bfq_queue *bfqq)
{
	return bfqq->ioprio_class == IOPRIO_CLASS_IDLE;
}

static inline int bfq_bfqq_budget_left(const struct bfq_queue *bfqq)
{
	return bfqq->entity.budget - bfqq->entity.service;
}

static inline unsigned int bfq_tot_busy_queues(const struct bfq_data *bfqd)
{
	return bfqd->busy_queues[0] + bfqd->busy_queues[1] + bfqd->busy_queues[2];
}

/*
 * Bits set in a u32, without __builtin_popcount(): built for baseline x86-64 (no POPCNT) that is
 * a libgcc call, and BFQQ_SEEKY() runs several times per dispatched request.
 */
static inline unsigned int bfq_hweight32(u32 w)
{
	w -= (w >> 1) & 0x55555555U;
	w = (w & 0x33333333U) + ((w >> 2) & 0x33333333U);
	w = (w + (w >> 4)) & 0x0f0f0f0fU;
	return (w * 0x01010101U) >> 24;
}

static inline bool BFQQ_SEEKY(const struct bfq_queue *bfqq)
{
	return bfq_hweight32(bfqq->seek_history) > BFQQ_SEEKY_THR;
}

/* bfq_wf2q.c */
struct bfq_service_tree *bfq_entity_service_tree(struct bfq_data *bfqd, struct bfq_entity *entity);
void bfq_activate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void bfq_requeue_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration);
void bfq_deactivate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool ins_into_idle_tree,
			 bool expiration);
void bfq_bfqq_served(struct bfq_queue *bfqq, int served);
void bfq_bfqq_charge_time(struct bfq_data *bfqd, struct bfq_queue *bfqq, unsigned long time_ms);
struct bfq_queue *bfq_get_next_queue(struct bfq_data *bfqd);
bool __bfq_bfqd_reset_in_service(struct bfq_data *bfqd);
void bfq_del_bfqq_busy(struct bfq_queue *bfqq, bool expiration);
void bfq_add_bfqq_busy(struct bfq_queue *bfqq);
void bfq_entity_update_weight(struct bfq_data *bfqd, struct bfq_entity *entity);

/* bfq_iocq.c */
void bfq_put_queue(struct bfq_queue *bfqq);
struct bfq_queue *bfq_get_queue(struct bfq_data *bfqd, struct bio *bio, bool is_sync,
				struct bfq_io_cq *bic);
void bfq_put_async_queues(struct bfq_data *bfqd);
void bfq_free_groups(struct bfq_data *bfqd);
void bfq_exit_icq_bfqq(struct bfq_io_cq *bic, bool is_sync, unsigned int actuator_idx);
/* A request of @bic finished: an exited bic goes with its last request. */
void bfq_icq_request_done(struct bfq_io_cq *bic);
void bfq_init_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_io_cq *bic, int pid,
		   bool is_sync, unsigned int act_idx);

/* bfq_actuator.c */
void bfq_init_actuators(struct bfq_data *bfqd);

/* bfq_iosched.c */
int bfq_serv_to_charge(struct request *rq, struct bfq_queue *bfqq);
bool bfq_asymmetric_scenario(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
		     enum bfqq_expiration reason);
bool __bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq,
		       enum bfqq_expiration reason);
int bfq_max_budget(const struct bfq_data *bfqd);

#endif /* KFSIM_BFQ_INTERNAL_H */
