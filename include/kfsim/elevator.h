/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_ELEVATOR_H
#define KFSIM_ELEVATOR_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * I/O schedulers as the block layer sees them (include/linux/elevator.h): each scheduler is
 * one struct elevator_type with its struct elevator_mq_ops, and one row of the registry.  The
 * block-layer simulator of <kfsim/bfq_sim.h> holds a struct elevator_queue (the ops of the
 * chosen type plus the scheduler's private data) and calls nothing else, so a new scheduler
 * is one file plus one elv_register() call (or one row of the built-in table in elevator.c).
 *
 * Differences from the kernel, because the simulator has no real time, tasks or lists of
 * requests: every op that depends on time gets the simulated time @now; insertion takes one
 * request and the issuing process's context (what the kernel passes in rq->elv.icq); the
 * kernel's idle-slice hrtimer is next_timer() + timer_fn(); in_service_pid() and stats() are
 * kfsim's, for tracing and results.
 */
#include <kfsim/blkdev.h>
#include <kfsim/types.h>

struct bfq_tunables;
struct elevator_queue;

/**
 * struct elv_proc - a process as the scheduler sees it at init_icq()
 * @pid: its pid
 * @ioprio: IOPRIO_PRIO_VALUE(class, level), 0 = none set
 * @weight: 0, or the weight of its queues (a one-process cgroup's io.bfq.weight in short)
 * @cgroup: the cgroup it runs in, NULL or "" for the root
 * @cgroup_weight: io.bfq.weight of @cgroup, 0 = BFQ_DEFAULT_GRP_WEIGHT
 */
struct elv_proc {
	int pid;
	unsigned short ioprio;
	unsigned int weight;
	const char *cgroup;
	unsigned int cgroup_weight;
};
struct kfsim_bfq_sim_result;

/**
 * struct elevator_mq_ops - what a scheduler provides (the kernel's names where it has them)
 * @init_sched: set up eq->elevator_data for @disk; 0 or -errno (required)
 * @exit_sched: free it; every request has finished (required)
 * @init_icq: a process appears: return its context (or NULL when the scheduler keeps none),
 *            or ERR_PTR(-errno) (optional)
 * @exit_icq: the process exited (optional)
 * @insert_requests: take @rq from the process with context @icq; 0 or -errno (required)
 * @dispatch_request: the next request for the device, or NULL (required)
 * @has_work: whether requests are queued (required)
 * @next_timer: when the scheduler's timer fires, U64_MAX for never (optional)
 * @timer_fn: the timer fired (optional; required with @next_timer)
 * @completed_request: @rq finished on the device (the kernel's finish_request) (optional)
 * @depth_updated: the scheduler tags are @nr_requests (at init, as init_hctx) (optional)
 * @limit_depth: the shallow depth a request @opf of the process with context @icq may be
 *               allocated a tag within, @nr_requests for no limit (optional)
 * @in_service_pid: kfsim: the pid whose queue is in service, or -1 (optional)
 * @stats: kfsim: add the scheduler's counters to @res (optional)
 */
struct elevator_mq_ops {
	int (*init_sched)(struct elevator_queue *eq, struct gendisk *disk,
			  const struct bfq_tunables *tun);
	void (*exit_sched)(struct elevator_queue *eq);
	void *(*init_icq)(struct elevator_queue *eq, const struct elv_proc *proc);
	void (*exit_icq)(struct elevator_queue *eq, void *icq);
	int (*insert_requests)(struct elevator_queue *eq, struct request *rq, void *icq, u64 now);
	struct request *(*dispatch_request)(struct elevator_queue *eq, u64 now);
	bool (*has_work)(struct elevator_queue *eq);
	u64 (*next_timer)(struct elevator_queue *eq);
	void (*timer_fn)(struct elevator_queue *eq, u64 now);
	void (*completed_request)(struct elevator_queue *eq, struct request *rq, u64 now);
	void (*depth_updated)(struct elevator_queue *eq, unsigned int nr_requests);
	unsigned int (*limit_depth)(struct elevator_queue *eq, blk_opf_t opf, void *icq,
				    unsigned int nr_requests);
	int (*in_service_pid)(struct elevator_queue *eq);
	void (*stats)(struct elevator_queue *eq, struct kfsim_bfq_sim_result *res);
};

/**
 * struct elevator_type - one scheduler
 * @ops: its operations
 * @elevator_name: what --sched and sysfs's scheduler file call it
 * @description: one line for help texts
 */
struct elevator_type {
	struct elevator_mq_ops ops;
	const char *elevator_name;
	const char *description;
};

/**
 * struct elevator_queue - a scheduler attached to a disk
 * @type: the scheduler
 * @elevator_data: its private data (init_sched() sets it)
 */
struct elevator_queue {
	const struct elevator_type *type;
	void *elevator_data;
};

/** ELV_MAX_TYPES - the registry's size: the built-in schedulers and those registered. */
#define ELV_MAX_TYPES 16

/**
 * elv_register() - add @e to the registry (block/elevator.c)
 *
 * Return: 0; -EINVAL for a type without a name or a required op; -EBUSY when the name is
 * taken (the kernel's "elevator %s already registered"); -ENOSPC when the table is full.
 */
int elv_register(const struct elevator_type *e);

/** elv_unregister() - remove a type elv_register() added (built-in ones stay). */
void elv_unregister(const struct elevator_type *e);

/** elv_find() - the registered type named @name, or NULL. */
const struct elevator_type *elv_find(const char *name);

/** elv_nr_types() - how many types are registered (the built-in ones come first). */
unsigned int elv_nr_types(void);

/** elv_type() - the type at @idx of the registry, NULL past the end. */
const struct elevator_type *elv_type(unsigned int idx);

/**
 * elv_names() - the registered names joined by @sep into @buf (for help texts)
 *
 * Return: the length written (truncated to fit @len, always NUL-terminated when @len > 0).
 */
size_t elv_names(char *buf, size_t len, const char *sep);

/* The built-in types, in the order of enum kfsim_bfq_sched. */
extern const struct elevator_type bfq_iosched;
extern const struct elevator_type bfq_62_iosched;
extern const struct elevator_type none_iosched;
extern const struct elevator_type mq_deadline_iosched;

#pragma GCC visibility pop
#endif /* KFSIM_ELEVATOR_H */
