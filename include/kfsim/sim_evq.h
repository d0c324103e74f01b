/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SIM_EVQ_H
#define KFSIM_SIM_EVQ_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The discrete-event queue every kfsim simulator runs on (the block-layer simulator, the PLCA
 * bus): events in (time, priority, sequence) order, where the sequence number is taken when an
 * event is armed, so that a run depends only on its settings and its seed.
 *
 * An event is two words compared as one 128-bit number:
 *
 *	key = time << KFSIM_EVQ_PRIO_BITS | priority	(lower priority first at equal times)
 *	tie = seq << KFSIM_EVQ_DATA_BITS | data		(earlier arming first; data is the payload)
 *
 * so time is at most KFSIM_EVQ_TIME_MAX (146 years of nanoseconds), there are 4 priorities and
 * 2^40 sequence numbers per run, and the payload is 24 bits (an index into the simulator's own
 * tables).  A time beyond KFSIM_EVQ_TIME_MAX is queued at KFSIM_EVQ_TIME_MAX: never reached.
 *
 * Two binary min-heaps hold the events: "near" ones (due within @near_ns of the moment they were
 * queued) and "far" ones, the next event being the smaller top.  A simulator whose timers are
 * mostly short and cancelled keeps the heap that churns shallow this way; with @near_ns 0 every
 * event goes to one heap.  Which heap held an event never changes the order.
 *
 * Out of memory, one policy: the queue cannot grow, the event is not queued, kfsim_evq_push()
 * returns -ENOMEM and the queue remembers it (kfsim_evq_err()).  The simulator then stops the run
 * and reports the error: a lost event (a wake-up, a timer) would make the run silently unfaithful.
 *
 * Not thread-safe: a queue belongs to one simulation, as simulations are values.
 */
#include <errno.h>
#include <kfsim/types.h>

/** KFSIM_EVQ_PRIO_BITS - bits of priority below the time in an event's key. */
#define KFSIM_EVQ_PRIO_BITS 2
/** KFSIM_EVQ_DATA_BITS - bits of payload below the sequence number in an event's tie. */
#define KFSIM_EVQ_DATA_BITS 24
/** KFSIM_EVQ_DATA_MASK - the payload bits of an event's tie. */
#define KFSIM_EVQ_DATA_MASK ((1u << KFSIM_EVQ_DATA_BITS) - 1)
/** KFSIM_EVQ_TIME_MAX - the latest time an event can carry. */
#define KFSIM_EVQ_TIME_MAX (UINT64_MAX >> KFSIM_EVQ_PRIO_BITS)

/**
 * struct kfsim_event - one queued event
 * @key: time << KFSIM_EVQ_PRIO_BITS | priority
 * @tie: sequence number << KFSIM_EVQ_DATA_BITS | payload
 */
struct kfsim_event {
	u64 key;
	u64 tie;
};

/**
 * struct kfsim_evheap - one binary min-heap of events
 * @ev: the heap array
 * @len: events in it
 * @cap: room in @ev
 */
struct kfsim_evheap {
	struct kfsim_event *ev;
	u32 len, cap;
};

/**
 * struct kfsim_evq - the event queue
 * @heap: [0] near events, [1] far ones
 * @near_ns: an event due less than this after the time it is queued at goes to the near heap
 * @seq: the next sequence number (starts at 1: 0 can mean "never armed" to a simulator)
 * @err: 0, or the first error (-ENOMEM) that kept an event out: the run must stop
 */
struct kfsim_evq {
	struct kfsim_evheap heap[2];
	u64 near_ns;
	u64 seq;
	int err;
};

/**
 * kfsim_evq_init() - an empty queue with room for @cap events in each heap
 * @q: the queue
 * @near_ns: see struct kfsim_evq (0: one heap)
 * @cap: initial room; 0 allocates nothing until the first push
 *
 * Return: 0, or -ENOMEM (@q is then empty and kfsim_evq_destroy() may still be called).
 */
int kfsim_evq_init(struct kfsim_evq *q, u64 near_ns, u32 cap);
/** kfsim_evq_destroy() - free @q's memory (the queue is empty and unusable afterwards). */
void kfsim_evq_destroy(struct kfsim_evq *q);
/**
 * kfsim_evheap_grow() - double @h's room (the slow path of kfsim_evq_push_seq())
 *
 * Return: true, or false when out of memory (@h is unchanged).
 */
bool kfsim_evheap_grow(struct kfsim_evheap *h);

/** kfsim_event_before() - whether @a runs before @b. */
static inline bool kfsim_event_before(const struct kfsim_event *a, const struct kfsim_event *b)
{
	return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

/** kfsim_event_time() - when @ev is due. */
static inline u64 kfsim_event_time(const struct kfsim_event *ev)
{
	return ev->key >> KFSIM_EVQ_PRIO_BITS;
}

/** kfsim_event_prio() - @ev's priority. */
static inline u32 kfsim_event_prio(const struct kfsim_event *ev)
{
	return (u32)(ev->key & ((1u << KFSIM_EVQ_PRIO_BITS) - 1));
}

/** kfsim_event_seq() - the sequence number @ev was armed with. */
static inline u64 kfsim_event_seq(const struct kfsim_event *ev)
{
	return ev->tie >> KFSIM_EVQ_DATA_BITS;
}

/** kfsim_event_data() - @ev's payload. */
static inline u32 kfsim_event_data(const struct kfsim_event *ev)
{
	return (u32)(ev->tie & KFSIM_EVQ_DATA_MASK);
}

/** kfsim_event_make() - the event (@time, @prio, @seq, @data); @prio < 4, @data < 2^24. */
static inline struct kfsim_event kfsim_event_make(u64 time, u32 prio, u64 seq, u32 data)
{
	if (time > KFSIM_EVQ_TIME_MAX)
		time = KFSIM_EVQ_TIME_MAX;
	return (struct kfsim_event){
		.key = time << KFSIM_EVQ_PRIO_BITS | (prio & ((1u << KFSIM_EVQ_PRIO_BITS) - 1)),
		.tie = seq << KFSIM_EVQ_DATA_BITS | (data & KFSIM_EVQ_DATA_MASK),
	};
}

/** kfsim_evheap_insert() - add @ev to @h, which has room for it. */
static inline void kfsim_evheap_insert(struct kfsim_evheap *h, const struct kfsim_event *ev)
{
	struct kfsim_event *heap = h->ev;
	u32 i = h->len++;

	while (i) {
		u32 parent = (i - 1) / 2;

		if (!kfsim_event_before(ev, &heap[parent]))
			break;
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i] = *ev;
}

/**
 * kfsim_evheap_pop() - remove the top of @h, which is not empty
 *
 * Bottom-up: the hole left by the root goes down the path of smaller children to a leaf (one
 * comparison per level), then the last element rises from there, which is usually at once, as it
 * came from the bottom.
 */
static inline void kfsim_evheap_pop(struct kfsim_evheap *h)
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

/** kfsim_evq_take_seq() - take the next sequence number (to arm an event queued later). */
static inline u64 kfsim_evq_take_seq(struct kfsim_evq *q)
{
	return q->seq++;
}

/**
 * kfsim_evq_push_event() - queue @ev, armed at time @now
 *
 * Return: 0, or -ENOMEM: @ev is not queued and kfsim_evq_err() says so from now on.
 */
static inline int kfsim_evq_push_event(struct kfsim_evq *q, u64 now, const struct kfsim_event *ev)
{
	struct kfsim_evheap *h = &q->heap[kfsim_event_time(ev) >= now + q->near_ns];

	if (__builtin_expect(h->len == h->cap, 0) && !kfsim_evheap_grow(h)) {
		if (!q->err)
			q->err = -ENOMEM;
		return -ENOMEM;
	}
	kfsim_evheap_insert(h, ev);
	return 0;
}

/**
 * kfsim_evq_push_seq() - queue (@time, @prio, @seq, @data), armed at time @now, with a sequence
 * number taken earlier by kfsim_evq_take_seq()
 *
 * Return: as kfsim_evq_push_event().
 */
static inline int kfsim_evq_push_seq(struct kfsim_evq *q, u64 now, u64 time, u32 prio, u64 seq,
				     u32 data)
{
	struct kfsim_event ev = kfsim_event_make(time, prio, seq, data);

	return kfsim_evq_push_event(q, now, &ev);
}

/**
 * kfsim_evq_push() - queue (@time, @prio, @data) armed at time @now, after every event of the
 * same time and priority armed before it
 *
 * Return: as kfsim_evq_push_event().
 */
static inline int kfsim_evq_push(struct kfsim_evq *q, u64 now, u64 time, u32 prio, u32 data)
{
	return kfsim_evq_push_seq(q, now, time, prio, kfsim_evq_take_seq(q), data);
}

/** kfsim_evq_next_heap() - the heap whose top runs next, or NULL when @q is empty. */
static inline struct kfsim_evheap *kfsim_evq_next_heap(struct kfsim_evq *q)
{
	struct kfsim_evheap *near = &q->heap[0], *far = &q->heap[1];

	if (__builtin_expect(!far->len, 1))
		return near->len ? near : NULL;
	if (!near->len || kfsim_event_before(&far->ev[0], &near->ev[0]))
		return far;
	return near;
}

/** kfsim_evq_peek() - the event that runs next, or NULL when @q is empty. */
static inline const struct kfsim_event *kfsim_evq_peek(struct kfsim_evq *q)
{
	struct kfsim_evheap *h = kfsim_evq_next_heap(q);

	return h ? &h->ev[0] : NULL;
}

/** kfsim_evq_pop() - take the next event into @ev; false (and @ev zeroed) when @q is empty. */
static inline bool kfsim_evq_pop(struct kfsim_evq *q, struct kfsim_event *ev)
{
	struct kfsim_evheap *h = kfsim_evq_next_heap(q);

	if (!h) {
		*ev = (struct kfsim_event){};
		return false;
	}
	*ev = h->ev[0];
	kfsim_evheap_pop(h);
	return true;
}

/** kfsim_evq_len() - events queued. */
static inline u32 kfsim_evq_len(const struct kfsim_evq *q)
{
	return q->heap[0].len + q->heap[1].len;
}

/** kfsim_evq_clear() - drop every queued event (sequence numbers and the error stay). */
static inline void kfsim_evq_clear(struct kfsim_evq *q)
{
	q->heap[0].len = q->heap[1].len = 0;
}

/** kfsim_evq_fail() - record @err (a -errno) as the reason the run must stop, if none yet. */
static inline void kfsim_evq_fail(struct kfsim_evq *q, int err)
{
	if (!q->err)
		q->err = err;
}

/** kfsim_evq_err() - 0, or the error that stops the run (-ENOMEM: an event could not be queued). */
static inline int kfsim_evq_err(const struct kfsim_evq *q)
{
	return q->err;
}

#pragma GCC visibility pop
#endif /* KFSIM_SIM_EVQ_H */
