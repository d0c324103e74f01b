/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_H
#define KFSIM_BFQ_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The BFQ I/O scheduler with multi-actuator support (block/bfq-iosched.[ch], bfq-wf2q.c,
 * Linux 6.3), one device, no cgroups (CONFIG_BFQ_GROUP_IOSCHED off: one root group).
 *
 * What BFQ keeps, and the invariants this implementation holds:
 * - one bfq_queue per (process, sync/async, actuator): a process's queues are the matrix
 *   bic->bfqq[is_sync][actuator_idx]; async queues are shared per (class, level, actuator) and
 *   owned by the root group.  In pre-6.3 mode (kernel version < 6.3) num_actuators is 1;
 * - a queue with requests ("busy") is either in service or on the active tree of its class and
 *   then also on bfqd->active_list[actuator_idx] (LIFO); busy queues counted in busy_queues[];
 * - service trees order entities by virtual finish time; vtime advances by served/wsum, wsum is
 *   the weight of every entity on a tree or in service;
 * - reference counts: one per bic slot (process reference), one while on a tree or in service,
 *   one per request allocated; a queue is freed when the last one goes;
 * - rq_in_driver[a] counts requests of actuator a dispatched and not completed; their sum is
 *   tot_rq_in_driver.
 *
 * Time comes from the caller: set bfqd->now_ns before each call.  jiffies are now_ns / 1 ms
 * (HZ = 1000).  The idle-slice timer is a value, bfqd->idle_slice_timer_expires (0: not armed),
 * that the caller fires with bfq_idle_slice_timer() when its time comes.
 *
 * Not modelled: queue merging (EQM and stable merges: they need cooperating processes with
 * close sectors), soft real-time weight raising, request merging, cgroups.  See docs/bfq.md.
 */
#include <kfsim/blkdev.h>
#include <kfsim/cmdline.h>	/* KERNEL_VERSION() for bfq_tunables.kernel_version */
#include <kfsim/rbtree.h>
#include <kfsim/types.h>

/** BFQ_MAX_ACTUATORS - most actuators BFQ handles; more ranges fall back to one actuator. */
#define BFQ_MAX_ACTUATORS 8
#define BFQ_IOPRIO_CLASSES 3
#define BFQ_DEFAULT_QUEUE_IOPRIO 4
#define BFQ_MIN_WEIGHT 1
#define BFQ_MAX_WEIGHT 1000
#define WFQ_SERVICE_SHIFT 22
/** BFQ_HZ - kfsim's jiffies rate for BFQ's jiffy-based times. */
#define BFQ_HZ 1000

/** enum bfqq_expiration - why the in-service queue was expired */
enum bfqq_expiration {
	BFQQE_TOO_IDLE = 0,
	BFQQE_BUDGET_TIMEOUT,
	BFQQE_BUDGET_EXHAUSTED,
	BFQQE_NO_MORE_REQUESTS,
	BFQQE_PREEMPTED,
	BFQQE_NR_REASONS,
};

/**
 * struct bfq_entity - what B-WF2Q+ schedules
 * @rb_node: link in the active or idle tree of its service tree
 * @tree: the tree it is in (NULL: none, or in service)
 * @on_st_or_in_serv: on a service tree or in service
 * @start: virtual start time
 * @finish: virtual finish time
 * @service: sectors served in the current slot
 * @budget: sectors it may receive in the slot
 * @weight: weight in use (orig_weight * wr_coeff)
 * @new_weight: weight to take at the next update
 * @orig_weight: weight from the I/O priority
 * @prio_changed: @new_weight or the raising coefficient must be applied
 * @allocated: requests allocated to the queue, or to the queues of the group, not yet freed
 *             (what bfq_limit_depth() weighs against the entity's share of the tags)
 * @parent: the entity of the group this entity is in, NULL in the root group
 * @sched_data: the scheduler data (service trees) this entity is queued in
 * @my_sched_data: for a group's entity, the group's own scheduler data; NULL for a queue
 */
struct bfq_sched_data;
struct bfq_entity {
	struct rb_node rb_node;
	struct rb_root_cached *tree;
	bool on_st_or_in_serv;
	u64 start, finish;
	int service, budget;
	int weight, new_weight, orig_weight;
	int prio_changed;
	int allocated;
	struct bfq_entity *parent;
	struct bfq_sched_data *sched_data;
	struct bfq_sched_data *my_sched_data;
};

/**
 * struct bfq_service_tree - per-class B-WF2Q+ state
 * @active: busy entities by finish time
 * @idle: entities that went idle before their finish time (they keep their weight in @wsum)
 * @first_idle: idle entity with the smallest finish
 * @last_idle: idle entity with the largest finish
 * @vtime: virtual time
 * @wsum: sum of the weights of every entity on a tree or in service
 */
struct bfq_service_tree {
	struct rb_root_cached active;
	struct rb_root_cached idle;
	struct bfq_entity *first_idle, *last_idle;
	u64 vtime;
	unsigned long wsum;
};

/**
 * struct bfq_sched_data - the root group's scheduling state
 * @in_service_entity: entity in service, or NULL
 * @service_tree: one per class: RT, BE, IDLE
 * @bfq_class_idle_last_service: jiffies when the IDLE class was last served
 */
struct bfq_sched_data {
	struct bfq_entity *in_service_entity;
	struct bfq_service_tree service_tree[BFQ_IOPRIO_CLASSES];
	unsigned long bfq_class_idle_last_service;
};

/** struct bfq_ttime - think-time statistics of a queue (ns) */
struct bfq_ttime {
	u64 last_end_request;
	u64 ttime_total;
	unsigned long ttime_samples;
	u64 ttime_mean;
};

struct bfq_data;
struct bfq_io_cq;

/**
 * struct bfq_queue - the requests of one process for one actuator, sync or async
 * @ref: references (see the file comment)
 * @bfqd: the device
 * @ioprio: priority level (0..7)
 * @ioprio_class: IOPRIO_CLASS_RT/BE/IDLE
 * @entity: its B-WF2Q+ entity
 * @sort_list: queued requests by sector
 * @next_rq: the request to serve next
 * @queued: queued requests, [0] async, [1] sync
 * @fifo: queued requests in arrival order
 * @max_budget: budget to assign at the next activation
 * @budget_timeout: jiffies when the slot's budget times out
 * @dispatched: requests dispatched and not completed
 * @flags: BFQQF_* state bits
 * @bfqq_list: link in bfqd->active_list[actuator_idx] (or the idle list)
 * @ttime: think time
 * @seek_history: one bit per recent request, set when it was seeky
 * @last_request_pos: sector after the last request queued
 * @requests_within_timer: consecutive requests arriving soon after the queue went empty
 * @pid: the process
 * @bic: the process's io context, while it points to this queue
 * @wr_coeff: weight-raising coefficient (1: not raised)
 * @last_wr_start_finish: jiffies when raising started or last finished
 * @wr_cur_max_time: raising duration (jiffies)
 * @service_from_wr: sectors served while raised
 * @inject_limit: requests that may be injected while this queue is in service and plugged
 * @last_serv_time_ns: baseline total service time of one of its requests, without injection
 * @decrease_time_jif: jiffies when @inject_limit was last lowered or reset
 * @actuator_idx: the actuator whose I/O this queue holds
 * @allocated: requests allocated to it and not finished
 * @nr_served_sectors: kfsim statistic: sectors dispatched
 * @nr_injected: kfsim statistic: requests dispatched by actuator injection
 * @nr_expirations: kfsim statistic: expirations while in service, by reason
 * @all_list: kfsim: link in bfqd->all_queues
 * @burst_list_node: link in bfqd->burst_list while the queue is in the current burst
 */
struct bfq_queue {
	int ref;
	struct bfq_data *bfqd;
	unsigned short ioprio, ioprio_class;
	struct bfq_entity entity;
	struct rb_root_cached sort_list;
	struct request *next_rq;
	int queued[2];
	struct blk_list fifo;
	int max_budget;
	unsigned long budget_timeout;
	int dispatched;
	unsigned long flags;
	struct blk_list bfqq_list;
	struct bfq_ttime ttime;
	u32 seek_history;
	sector_t last_request_pos;
	unsigned int requests_within_timer;
	int pid;
	struct bfq_io_cq *bic;
	unsigned int wr_coeff;
	unsigned long last_wr_start_finish;
	unsigned long wr_cur_max_time;
	unsigned long service_from_wr;
	unsigned int inject_limit;
	u64 last_serv_time_ns;
	unsigned long decrease_time_jif;
	unsigned int actuator_idx;
	int allocated;
	u64 nr_served_sectors;
	u64 nr_injected;
	u64 nr_expirations[BFQQE_NR_REASONS];
	struct blk_list all_list;
	struct blk_list burst_list_node;
};

/**
 * struct bfq_iocq_bfqq_data - per-actuator state of a process that outlives its queues
 *
 * Saved by bfq_bfqq_save_state() and given back by bfq_bfqq_resume_state() (the kernel uses
 * them around queue merges and splits; kfsim around an explicit release of a sync queue).
 */
struct bfq_iocq_bfqq_data {
	bool saved_has_short_ttime;
	bool saved_IO_bound;
	bool was_in_burst_list;
	unsigned int saved_weight;
	struct bfq_ttime saved_ttime;
	unsigned int saved_wr_coeff;
	unsigned long saved_last_wr_start_finish;
	unsigned long saved_wr_cur_max_time;
	unsigned long saved_service_from_wr;
	bool saved;
};

/**
 * struct bfq_io_cq - a process's I/O context on one device ("bic")
 * @bfqd: the device (NULL once the scheduler has exited)
 * @bfqq: queue matrix: row 0 async, row 1 sync, one column per actuator
 * @bfqq_data: per-actuator persistent data
 * @ioprio: the process's I/O priority (IOPRIO_PRIO_VALUE())
 * @weight: kfsim: an explicit weight 1..1000 replacing the one from @ioprio (0: from @ioprio),
 *          standing in for a per-process cgroup's io.bfq.weight
 * @pid: the process
 * @requests: requests allocated and not finished
 * @exited: the process has exited (its queues no longer get requests)
 * @bic_list: kfsim: link in bfqd->bics
 */
struct bfq_io_cq {
	struct bfq_data *bfqd;
	struct bfq_queue *bfqq[2][BFQ_MAX_ACTUATORS];
	struct bfq_iocq_bfqq_data bfqq_data[BFQ_MAX_ACTUATORS];
	unsigned short ioprio;
	unsigned int weight;
	int pid;
	unsigned int requests;
	bool exited;
	struct blk_list bic_list;
	struct bfq_group *bfqg;
};

/**
 * struct bfq_group - a cgroup's BFQ group (block/bfq-cgroup.c, one level under the root)
 * @entity: what the group competes with in the root group's service trees; its weight is
 *          io.bfq.weight (1..1000, BFQ_DEFAULT_GRP_WEIGHT 100)
 * @sched_data: the service trees of the group's queues (B-WF2Q+ inside the group)
 * @bfqd: the device
 * @name: the cgroup's name
 * @async_bfqq: the group's async queues, per class, level and actuator
 * @async_idle_bfqq: the group's async IDLE-class queue per actuator
 * @group_list: link in bfqd->groups
 */
struct bfq_group {
	struct bfq_entity entity;
	struct bfq_sched_data sched_data;
	struct bfq_data *bfqd;
	char name[32];
	struct bfq_queue *async_bfqq[2][IOPRIO_NR_LEVELS][BFQ_MAX_ACTUATORS];
	struct bfq_queue *async_idle_bfqq[BFQ_MAX_ACTUATORS];
	struct blk_list group_list;
};

/**
 * struct bfq_tunables - BFQ's sysfs knobs and kfsim's mode switches
 * @kernel_version: KERNEL_VERSION() of the behaviour; 0 = kfsim_kernel_version().  Below 6.3:
 *                  one queue per process whatever the actuator, no actuator injection
 * @slice_idle_ns: idling time (8 ms; 0 disables idling)
 * @timeout_ms: budget timeout (125)
 * @fifo_expire_sync_ms: 125
 * @fifo_expire_async_ms: 250
 * @back_seek_max_kib: 16384
 * @back_seek_penalty: 2
 * @max_budget: sectors; 0 = automatic
 * @strict_guarantees: 0
 * @low_latency: 1 (weight raising of interactive queues)
 * @actuator_load_threshold: 4 (not in sysfs in the kernel; a kfsim knob for ablations)
 * @next_actuator_balance: 1 = patch 8 of the series (the "lower than the next actuator" test)
 */
struct bfq_tunables {
	unsigned int kernel_version;
	u64 slice_idle_ns;
	unsigned int timeout_ms;
	unsigned int fifo_expire_sync_ms;
	unsigned int fifo_expire_async_ms;
	unsigned int back_seek_max_kib;
	unsigned int back_seek_penalty;
	int max_budget;
	bool strict_guarantees;
	bool low_latency;
	unsigned int actuator_load_threshold;
	bool next_actuator_balance;
};

/**
 * struct bfq_data - BFQ's state for one device
 * @disk: the device
 * @sd: the root group's scheduling data
 * @async_bfqq: shared async queues [RT/BE][level][actuator]
 * @async_idle_bfqq: shared async queue of the IDLE class, per actuator
 * @oom_bfqq: fallback queue when a queue cannot be allocated
 * @in_service_queue: the queue in service, or NULL
 * @busy_queues: busy queues per class
 * @wr_busy_queues: busy weight-raised queues
 * @queued: requests queued in BFQ
 * @tot_rq_in_driver: requests in the device
 * @rq_in_driver: requests in the device, per actuator
 * @max_rq_in_driver: largest tot_rq_in_driver in the current hw_tag sampling window
 * @hw_tag_samples: samples in the window
 * @hw_tag: -1 unknown, 0 no queueing seen, 1 the device queues commands
 * @budgets_assigned: EWMA counter of budgets given (sets when max_budget becomes automatic)
 * @idle_slice_timer_expires: ns when the idle timer fires, 0 when not armed
 * @last_position: sector after the last dispatched request
 * @last_budget_start: ns when the in-service slot started
 * @last_idling_start: ns when idling last started
 * @peak_rate: estimated peak rate, sectors/us << 16
 * @peak_rate_samples: dispatches in the current observation interval
 * @first_dispatch: ns of the first dispatch of the interval
 * @tot_sectors_dispatched: sectors dispatched in the interval
 * @last_dispatch: time of the last dispatch (peak-rate sampling)
 * @last_completion: time of the last completion
 * @delta_from_first: length of the current peak-rate sampling interval, ns
 * @sequential_samples: dispatches of the interval that were sequential (BFQ_RQ_SEEKY() false)
 * @last_rq_max_size: largest request of the last 32 dispatches, sectors
 * @burst_list: queues created in the current burst (bfq_handle_burst())
 * @burst_size: queues in the current burst
 * @large_burst: the current burst reached bfq_large_burst_thresh
 * @last_ins_in_burst: jiffies of the last queue added to the burst
 * @bfq_large_burst_thresh: 8 queues make a large burst
 * @bfq_burst_interval: 180 ms between creations keeps a burst going
 * @bfq_max_budget: current automatic maximum budget
 * @tun: the tunables in force
 * @active_list: busy queues per actuator (LIFO)
 * @idle_list: idle queues
 * @num_actuators: actuators BFQ uses
 * @sector: first sector of each actuator's range
 * @nr_sectors: size of each range
 * @actuator_load_threshold: below this many requests in flight an actuator is underused
 * @actuator_injection: 6.3 mode: inject for underused actuators
 * @now_ns: the current time, set by the caller
 * @actuator_injected: the queue bfq_select_queue() returned came from the actuator injection
 * @waited_rq: the in-service queue's request whose total service time is being measured
 * @wait_dispatch: set @waited_rq at the in-service queue's next dispatch
 * @rqs_injected: requests were injected while @waited_rq was in flight
 * @last_empty_occupied_ns: when the measurement of @waited_rq started
 * @nr_hole_injected: kfsim statistic: requests injected into service holes
 *                    (bfq_choose_bfqq_for_injection())
 * @nr_injected: kfsim statistic: requests injected for each actuator
 * @async_depths: scheduler tags a request other than a sync read may use, by [some queue
 *                weight-raised][sync write] (bfq_update_depths(): 50 / 75 %, or 18.75 / 37.5 %
 *                while a queue is raised)
 * @all_queues: kfsim: every queue alive (for statistics and teardown)
 * @bics: kfsim: every io context of this device
 */
struct bfq_data {
	struct gendisk *disk;
	struct bfq_sched_data sd;
	struct bfq_queue *async_bfqq[2][IOPRIO_NR_LEVELS][BFQ_MAX_ACTUATORS];
	struct bfq_queue *async_idle_bfqq[BFQ_MAX_ACTUATORS];
	struct bfq_queue oom_bfqq;
	struct bfq_queue *in_service_queue;
	unsigned int busy_queues[BFQ_IOPRIO_CLASSES];
	int wr_busy_queues;
	int queued;
	int tot_rq_in_driver;
	int rq_in_driver[BFQ_MAX_ACTUATORS];
	int max_rq_in_driver;
	int hw_tag_samples;
	int hw_tag;
	int budgets_assigned;
	u64 idle_slice_timer_expires;
	sector_t last_position;
	u64 last_budget_start;
	u64 last_idling_start;
	u32 peak_rate;
	u32 peak_rate_samples;
	u64 first_dispatch;
	u64 tot_sectors_dispatched;
	u64 last_dispatch;
	u64 last_completion;
	u64 delta_from_first;
	u32 sequential_samples;
	u32 last_rq_max_size;
	struct blk_list burst_list;
	int burst_size;
	bool large_burst;
	unsigned long last_ins_in_burst;
	int bfq_large_burst_thresh;
	unsigned long bfq_burst_interval;
	int bfq_max_budget;
	struct bfq_tunables tun;
	struct blk_list active_list[BFQ_MAX_ACTUATORS];
	struct blk_list idle_list;
	unsigned int num_actuators;
	sector_t sector[BFQ_MAX_ACTUATORS];
	sector_t nr_sectors[BFQ_MAX_ACTUATORS];
	unsigned int actuator_load_threshold;
	bool actuator_injection;
	u64 now_ns;
	bool actuator_injected;
	struct request *waited_rq;
	bool wait_dispatch;
	unsigned int async_depths[2][2];
	bool rqs_injected;
	u64 last_empty_occupied_ns;
	u64 nr_hole_injected;
	u64 nr_injected[BFQ_MAX_ACTUATORS];
	struct blk_list all_queues;
	struct blk_list bics;
	struct blk_list groups;
};

/** bfq_tunables_default() - the kernel's defaults (see struct bfq_tunables). */
void bfq_tunables_default(struct bfq_tunables *tun);

/**
 * bfq_tunable_store() - write BFQ sysfs attribute @name (as under
 * /sys/block/<dev>/queue/iosched/) into @tun, with the kernel's units and ranges
 * @tun: the tunables (applied in call order: strict_guarantees=1 raises slice_idle to 8 ms)
 * @name: fifo_expire_sync, fifo_expire_async (ms, 1..INT_MAX), back_seek_max (KiB),
 *        back_seek_penalty (1..), slice_idle (ms), slice_idle_us (us), max_budget (sectors,
 *        0 = automatic), timeout_sync (ms, 1..), strict_guarantees, low_latency (0|1)
 * @value: an unsigned decimal, as echoed into the file; out of range is clamped, as the
 *         kernel's store functions clamp (6.12 block/bfq-iosched.c)
 * @why: on error, the reason
 *
 * The simulation's own limits (slice_idle up to 1 s, timeout_sync and fifo_expire_* up to
 * 10 s) are checked by bfq_init_queue(), not here.
 *
 * Return: 0, -ENOENT for an unknown @name, -EINVAL for a value that is not a number.
 */
int bfq_tunable_store(struct bfq_tunables *tun, const char *name, const char *value,
		      const char **why);

/** bfq_tunable_names() - the attribute names bfq_tunable_store() takes, space-separated. */
const char *bfq_tunable_names(void);

/**
 * bfq_init_queue() - set BFQ up for @disk
 * @disk: the device; its ia_ranges give the actuators (6.3 mode)
 * @tun: tunables, or NULL for the defaults
 *
 * With more than BFQ_MAX_ACTUATORS ranges, logs "nr_ia_ranges higher than act limit: iars=%d,
 * max=%d." and "Falling back to single actuator mode." and uses one actuator.
 *
 * Return: the state, ERR_PTR(-EINVAL) for a tunable out of range (slice_idle over 1 s, a zero
 * timeout, actuator_load_threshold 0, a back_seek_penalty of 0, max_budget < 0), or
 * ERR_PTR(-ENOMEM).
 */
struct bfq_data *bfq_init_queue(struct gendisk *disk, const struct bfq_tunables *tun);

/**
 * bfq_exit_queue() - tear BFQ down
 *
 * Every remaining io context loses its queues (its bfqd becomes NULL, as when the elevator
 * exits before the processes); free them afterwards with bfq_exit_icq().  Warns once if
 * requests are still in the driver.
 */
void bfq_exit_queue(struct bfq_data *bfqd);

/**
 * bfq_create_icq() - a new io context for process @pid with I/O priority @ioprio
 * @weight: 0, or a weight 1..1000 to use instead of the one from @ioprio
 *
 * Return: the bic, ERR_PTR(-EINVAL) for a bad class, level or weight, ERR_PTR(-ENOMEM).
 */
struct bfq_io_cq *bfq_create_icq(struct bfq_data *bfqd, int pid, unsigned short ioprio,
				 unsigned int weight);

/**
 * bfq_exit_icq() - the process exits: release every queue of its matrix, then free @bic
 *
 * Each slot is cleared before its queue's process reference is dropped (the order of the
 * Yu Kuai fix), so no queue is used after being freed.  Queues with requests still queued or
 * in flight live on until those finish.
 */
void bfq_exit_icq(struct bfq_io_cq *bic);

/** BFQ_DEFAULT_GRP_WEIGHT - io.bfq.weight of a cgroup that sets none. */
#define BFQ_DEFAULT_GRP_WEIGHT 100

/**
 * bfq_create_group() - the group of cgroup @name with io.bfq.weight @weight (created once)
 *
 * Return: the group (the same one for the same name); ERR_PTR(-EINVAL) for an empty or too
 * long name, a weight outside 1..1000, or a name already created with another weight;
 * ERR_PTR(-ENOMEM).  Groups live until bfq_exit_queue().
 */
struct bfq_group *bfq_create_group(struct bfq_data *bfqd, const char *name, unsigned int weight);

/**
 * bfq_bic_set_group() - put the process of @bic in @bfqg (bfq_bic_update_cgroup())
 *
 * Return: 0; -EBUSY when the process already has queues (kfsim does not move queues between
 * groups: bfq_bfqq_move() is not modelled).
 */
int bfq_bic_set_group(struct bfq_io_cq *bic, struct bfq_group *bfqg);

/** bic_to_bfqq() - the queue of @bic for (@is_sync, @actuator_idx); may be NULL. */
struct bfq_queue *bic_to_bfqq(struct bfq_io_cq *bic, bool is_sync, unsigned int actuator_idx);

/**
 * bic_set_bfqq() - store @bfqq in the (@is_sync, @actuator_idx) slot of @bic
 *
 * The old queue of the slot, if it pointed back to @bic, forgets @bic.  References are the
 * caller's business, as in the kernel.
 */
void bic_set_bfqq(struct bfq_io_cq *bic, struct bfq_queue *bfqq, bool is_sync,
		  unsigned int actuator_idx);

/**
 * bfq_actuator_index() - the actuator of @bio: the range holding its last sector
 *
 * Return: the index; 0 with one actuator; 0 and a one-time warning "bio sector out of ranges:
 * end=%llu" when no range holds it.
 */
unsigned int bfq_actuator_index(struct bfq_data *bfqd, struct bio *bio);

/**
 * bfq_prepare_request() - attach @rq, from process @bic, to its queue (creating it)
 *
 * Return: 0; -EINVAL when @bic belongs to another device or has exited.  Memory shortage is not
 * an error: the request goes to the oom queue, as in the kernel.
 */
int bfq_prepare_request(struct bfq_io_cq *bic, struct request *rq);

/**
 * bfq_update_depths() - the async and sync-write tag limits for @nr_requests scheduler tags
 * (bfq_depth_updated() at init_hctx, Linux 6.12)
 */
void bfq_update_depths(struct bfq_data *bfqd, unsigned int nr_requests);

/**
 * bfq_limit_depth() - how many of the @nr_requests scheduler tags a request @opf of process
 * @bic may be allocated from (the shallow depth blk-mq applies; bfq_limit_depth(), 6.12)
 *
 * Sync reads may use every tag, sync writes async_depths[raised][1], async I/O
 * async_depths[raised][0].  A process whose queue (or whose queue's group) already holds its
 * weight's share of that limit, at some level, gets 1 (bfqq_request_over_limit()).
 *
 * Return: the limit, @nr_requests when there is none.
 */
unsigned int bfq_limit_depth(struct bfq_data *bfqd, struct bfq_io_cq *bic, blk_opf_t opf,
			     unsigned int nr_requests);

/** bfq_insert_request() - queue a prepared request. */
void bfq_insert_request(struct bfq_data *bfqd, struct request *rq);

/**
 * bfq_dispatch_request() - the next request for the device, or NULL (nothing, or idling)
 *
 * The request counts in rq_in_driver[] of its queue's actuator; rq->injected tells whether it
 * came from a queue other than the one in service.
 */
struct request *bfq_dispatch_request(struct bfq_data *bfqd);

/** bfq_finish_request() - @rq completed in the device: accounting, idling decisions. */
void bfq_finish_request(struct bfq_data *bfqd, struct request *rq);

/** bfq_has_work() - whether requests are queued. */
bool bfq_has_work(const struct bfq_data *bfqd);

/** bfq_idle_slice_timer() - the idle timer fired (call at idle_slice_timer_expires). */
void bfq_idle_slice_timer(struct bfq_data *bfqd);

/**
 * bfq_find_active_bfqq_for_actuator() - a queue able to send I/O to actuator @idx
 *
 * Return: the in-service queue if it belongs to @idx (even if empty); else the first queue on
 * active_list[@idx] with requests and budget for its next one; else NULL.
 */
struct bfq_queue *bfq_find_active_bfqq_for_actuator(struct bfq_data *bfqd, unsigned int idx);

/**
 * bfq_find_bfqq_for_underused_actuator() - a queue to inject for the first actuator whose load
 * is below actuator_load_threshold and (patch 8) strictly below the next actuator's
 *
 * Return: the queue, or NULL.
 */
struct bfq_queue *bfq_find_bfqq_for_underused_actuator(struct bfq_data *bfqd);

/** bfq_ioprio_to_weight() - (IOPRIO_NR_LEVELS - @ioprio) * 10. */
static inline int bfq_ioprio_to_weight(int ioprio)
{
	return (IOPRIO_NR_LEVELS - ioprio) * 10;
}

/** bfq_bfqq_save_state() - save @bfqq's state into its bic's bfqq_data[actuator_idx]. */
void bfq_bfqq_save_state(struct bfq_queue *bfqq);
/** bfq_bfqq_resume_state() - give @bfqq the state saved for its actuator in @bic, if any. */
void bfq_bfqq_resume_state(struct bfq_queue *bfqq, struct bfq_io_cq *bic);

#pragma GCC visibility pop
#endif /* KFSIM_BFQ_H */
