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

/*
 * Bottom-up: the hole left by the root goes down the path of smaller children to a leaf (one
 * comparison per level), then the last element rises from there, which is usually at once, as it
 * came from the bottom.
 */
void kfsim_evheap_pop(struct kfsim_evheap *h)
{
	struct kfsim_event *heap = h->ev;
	u32 len = --h->len, i = 0, child;
	struct kfsim_event last = heap[len];

	while ((child = 2 * i + 1) + 1 < len) {
		child += kfsim_event_before(&heap[child + 1], &heap[child]);
		heap[i] = heap[child];
		i = child;
	}
	if (child < len) {
		heap[i] = heap[child];
		i = child;
	}
	while (i) {
		u32 parent = (i - 1) / 2;

		if (!kfsim_event_before(&last, &heap[parent]))
			break;
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i] = last;
}
