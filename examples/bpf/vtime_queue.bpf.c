// SPDX-License-Identifier: MIT
/*
 * A sched_ext-style weighted vtime run queue, as a real BPF C file: the same file loads in the
 * running kernel (clang -target bpf) and runs natively under kfsim (kfsim-bpf-cc), and both give
 * the same dispatch order (tests/bpfcc/example.sh checks it).
 *
 * Each task is one object in two collections at once, which is what bpf_refcount is for: the
 * run queue (a bpf_rbtree ordered by virtual time) and the arrival list (a bpf_list, FIFO).  A
 * dispatch takes the task with the smallest vtime and charges it slice * 100 / weight, as
 * scx_simple's vtime mode does: a task of weight 200 runs twice as often as one of weight 100.
 *
 *	kfsim-bpf-cc -o vtime_queue examples/bpf/vtime_queue.bpf.c && ./vtime_queue
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define NR_TASKS 4
#define NR_DISPATCH 12
#define SLICE 1000

struct task_ctx {
	struct bpf_rb_node rb;	  /* in runq, ordered by vtime */
	struct bpf_list_node fifo; /* in arrivals, in arrival order */
	struct bpf_refcount ref;  /* one reference per collection */
	u64 vtime;
	u64 pid;    /* u64: clang would merge two u32 loads, which the verifier refuses */
	u64 weight; /* (a load may not span two members of an allocated object) */
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(Q) struct bpf_spin_lock qlock;
private(Q) struct bpf_rb_root runq __contains(task_ctx, rb);
private(Q) struct bpf_list_head arrivals __contains(task_ctx, fifo);

u64 dispatched[NR_DISPATCH];

/* Equal vtimes go right (bpf_rbtree_add is stable): FIFO among equals. */
static bool vtime_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct task_ctx *ta = container_of(a, struct task_ctx, rb);
	const struct task_ctx *tb = container_of(b, struct task_ctx, rb);

	return ta->vtime < tb->vtime;
}

/* A new task: in the run queue and, through a second reference, in the arrival list. */
static __always_inline int enqueue(u64 pid, u64 weight)
{
	struct task_ctx *t, *second;

	t = bpf_obj_new(typeof(*t));
	if (!t)
		return -1;
	t->pid = pid;
	t->weight = weight;
	t->vtime = 0;
	second = bpf_refcount_acquire(t);
	if (!second) {
		bpf_obj_drop(t);
		return -1;
	}
	bpf_spin_lock(&qlock);
	bpf_rbtree_add(&runq, &t->rb, vtime_less);
	bpf_list_push_back(&arrivals, &second->fifo);
	bpf_spin_unlock(&qlock);
	return 0;
}

/* The smallest vtime runs a slice and goes back with its vtime charged.  Return: its pid. */
static __always_inline u32 dispatch(void)
{
	struct bpf_rb_node *n;
	struct task_ctx *t;
	u32 pid;

	bpf_spin_lock(&qlock);
	n = bpf_rbtree_first(&runq);
	if (n)
		n = bpf_rbtree_remove(&runq, n);
	bpf_spin_unlock(&qlock);
	if (!n)
		return 0;
	t = container_of(n, struct task_ctx, rb);
	pid = t->pid;
	t->vtime += SLICE * 100 / t->weight;
	bpf_spin_lock(&qlock);
	bpf_rbtree_add(&runq, &t->rb, vtime_less);
	bpf_spin_unlock(&qlock);
	return pid;
}

/* Empty both collections: every task has one reference in each. */
static __always_inline void drain(void)
{
	for (int i = 0; i < NR_TASKS; i++) {
		struct bpf_list_node *l;
		struct bpf_rb_node *n;

		bpf_spin_lock(&qlock);
		n = bpf_rbtree_first(&runq);
		if (n)
			n = bpf_rbtree_remove(&runq, n);
		l = bpf_list_pop_front(&arrivals);
		bpf_spin_unlock(&qlock);
		if (n)
			bpf_obj_drop(container_of(n, struct task_ctx, rb));
		if (l)
			bpf_obj_drop(container_of(l, struct task_ctx, fifo));
	}
}

/*
 * Four tasks of weights 100, 200, 50 and 100 (pids 1-4), twelve dispatches.  Return: the
 * first ten dispatches as a number, pid by pid.  Vtimes start equal, so the first round is
 * arrival order (1 2 3 4); then pid 2 (charged 500 a slice) runs twice for every run of pids 1
 * and 4 (1000) and four times for every run of pid 3 (2000): 1 2 3 4 2 1 4 2 2 3.
 */
SEC("tc")
__success __retval(1234214223)
int vtime_dispatch(void *ctx)
{
	static const u32 weights[NR_TASKS] = {100, 200, 50, 100};
	u64 order = 0;

	for (int i = 0; i < NR_TASKS; i++)
		if (enqueue(i + 1, weights[i]))
			return -1;
	for (int i = 0; i < NR_DISPATCH; i++) {
		u32 pid = dispatch();

		dispatched[i] = pid;
		if (i < 10)
			order = order * 10 + pid;
	}
	drain();
	return (int)order;
}

/* The arrival list is FIFO: the first task in is the first out.  Return: its pid. */
SEC("tc")
__success __retval(1)
int arrivals_fifo(void *ctx)
{
	struct bpf_list_node *l;
	u32 pid = 0;

	if (enqueue(1, 100) || enqueue(2, 100))
		return -1;
	bpf_spin_lock(&qlock);
	l = bpf_list_pop_front(&arrivals);
	bpf_spin_unlock(&qlock);
	if (l) {
		struct task_ctx *t = container_of(l, struct task_ctx, fifo);

		pid = t->pid;
		bpf_obj_drop(t);
	}
	drain();
	return pid;
}

/* A bug both referees catch: the dispatched task is neither put back nor dropped. */
SEC("?tc")
__failure __msg("Unreleased reference")
int dispatch_leaks_task(void *ctx)
{
	struct bpf_rb_node *n;

	if (enqueue(1, 100))
		return -1;
	bpf_spin_lock(&qlock);
	n = bpf_rbtree_first(&runq);
	if (n)
		n = bpf_rbtree_remove(&runq, n);
	bpf_spin_unlock(&qlock);
	return n ? 1 : 0;
}

char _license[] SEC("license") = "GPL";
