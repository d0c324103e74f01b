// SPDX-License-Identifier: MIT
/*
 * The event queue's out-of-line parts (<kfsim/sim_evq.h>): making, growing and popping heaps.
 * Pushing is inline in the header, as every simulated event arms or re-arms some timer.
 */
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/sim_evq.h>
#include <kfsim/slab.h>

int kfsim_evq_init(struct kfsim_evq *q, u64 near_ns, u32 cap)
{
	*q = (struct kfsim_evq){.near_ns = near_ns, .seq = 1};
	for (u32 i = 0; i < ARRAY_SIZE(q->heap) && cap; i++) {
		q->heap[i].ev = kmalloc_array(cap, sizeof(*q->heap[i].ev), GFP_KERNEL);
		if (!q->heap[i].ev) {
			kfsim_evq_destroy(q);
			return -ENOMEM;
		}
		q->heap[i].cap = cap;
	}
	return 0;
}

void kfsim_evq_destroy(struct kfsim_evq *q)
{
	for (u32 i = 0; i < ARRAY_SIZE(q->heap); i++) {
		kfree(q->heap[i].ev);
		q->heap[i] = (struct kfsim_evheap){};
	}
}

__attribute__((noinline, cold)) bool kfsim_evheap_grow(struct kfsim_evheap *h)
{
	u32 cap = h->cap ? h->cap * 2 : 64;
	struct kfsim_event *ev;

	if (cap <= h->cap) /* u32 overflow: 2^32 events is out of memory too */
		return false;
	ev = krealloc(h->ev, cap * sizeof(*ev), GFP_KERNEL | __GFP_NOWARN);
	if (!ev)
		return false;
	h->ev = ev;
	h->cap = cap;
	return true;
}
