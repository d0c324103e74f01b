// SPDX-License-Identifier: MIT
/*
 * The open-coded numeric iterator natively (6.4+): bpf_iter_num_new(), bpf_iter_num_next() and
 * bpf_iter_num_destroy(), behind libbpf's bpf_for() and bpf_repeat() (include/bpf-compat/
 * kfsim_iter_loops.h spells them for this machine's libbpf 1.1).
 *
 * The kfuncs do what kernel/bpf/bpf_iter.c does (6.4 to 6.18): the 8 opaque bytes of struct
 * bpf_iter_num are { int cur; int end; }; new() refuses start > end (-EINVAL) and a range of
 * more than BPF_MAX_LOOPS (-E2BIG), leaving an empty iterator; next() gives &cur until cur + 1
 * reaches end (computed in int, wrapping as the kernel's build does), then NULL and zeroes it;
 * destroy() zeroes it.
 *
 * The verifier's rules a run can see (process_iter_arg(), mark_stack_slots_iter(), 6.12 and the
 * running 6.18): the iterator must be on the program's stack ("arg#0 expected pointer to an
 * iterator on stack"); new() wants slots that hold no iterator ("expected uninitialized
 * iter_num as arg #0"), next() and destroy() an iterator new() made ("expected an initialized
 * iter_num as arg #0"); a plain store into its bytes turns the slots into plain data (the
 * verifier's scrub_special_slot()), so next() and destroy() refuse it then while its reference
 * stays held; new() acquires a reference (acquire_reference_state(): one verifier id) that only
 * destroy() releases, so an iterator not destroyed at the program's exit is "Unreleased
 * reference id=N alloc_insn=M".  A store is seen by the bytes: each call keeps a copy of what
 * it left there, and bytes that differ at the next call were written by the program.
 * Under a bpf_spin_lock the verifier refuses every kfunc but the graph ones up to 6.13; 6.14
 * ("bpf: Allow bpf_for/bpf_repeat calls while holding a spinlock") allows these three.
 *
 * The table is per thread (a program runs in one), emptied at each program invocation.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include "bpfrt.h"

#define BPF_MAX_LOOPS (8 * 1024 * 1024) /* include/linux/bpf.h */
struct bpf_iter_num; /* 8 opaque bytes, aligned to 8 (uapi/linux/bpf.h, 6.4+) */
#define MAX_ITERS 256			/* 8 BPF frames of 512 bytes hold 512: plenty */
/*
 * The verifier follows next()'s NULL as well as its element at every pass; the exploring mode
 * gets the NULL of each iterator's first passes as a decision point (the loop ends before its
 * first or second pass), as may_goto's jump (bpfrt_may_goto.c).
 */
#define NEXT_EXPLORED 2

/* struct bpf_iter_num_kern of kernel/bpf/bpf_iter.c */
struct iter_num_kern {
	int cur;
	int end;
};

/**
 * struct iter - one iterator new() made in this invocation
 * @addr: its bytes on the stack
 * @caller: new()'s return address (the leak report's line and instruction)
 * @id: the verifier id of its reference
 * @bytes: what the last kfunc call left in its 8 bytes
 * @slots: the slots are still the iterator (no store, no destroy())
 * @held: its reference is held (until destroy())
 * @nexts: next() calls so far
 */
struct iter {
	void *addr;
	const void *caller;
	unsigned int id;
	uint64_t bytes;
	bool slots;
	bool held;
	unsigned int nexts;
};

static __thread struct iter iters[MAX_ITERS];
static __thread unsigned int nr_iters;

void bpfrt_iter_reset(void)
{
	nr_iters = 0;
}

static uint64_t bytes_of(const void *it)
{
	uint64_t v;

	memcpy(&v, it, sizeof(v));
	return v;
}

/* The iterator whose slots are at @it, with a store since the last call seen (NULL: none). */
static struct iter *iter_at(const void *it)
{
	for (unsigned int i = nr_iters; i-- > 0;) {
		struct iter *s = &iters[i];

		if (s->addr != it || !s->slots)
			continue;
		if (bytes_of(it) != s->bytes)
			s->slots = false; /* the program wrote into it: plain stack data now */
		return s->slots ? s : NULL;
	}
	return NULL;
}

/* A free entry: a new one, else (a program that made more than MAX_ITERS) a destroyed one. */
static struct iter *new_slot(void)
{
	if (nr_iters < MAX_ITERS)
		return &iters[nr_iters++];
	for (unsigned int i = 0; i < nr_iters; i++)
		if (!iters[i].held && !iters[i].slots)
			return &iters[i];
	return NULL; /* not tracked: its next() and destroy() are then refused */
}

static void set_state(struct iter *s, struct iter_num_kern *k, int cur, int end)
{
	k->cur = cur;
	k->end = end;
	if (s)
		s->bytes = bytes_of(k);
}

/*
 * The first checks of process_iter_arg(): the pointer must be the stack's (a C local of the
 * program or of a function it called: between this call's frame and the program's entry).
 */
/*
 * An iterator off the stack's 8-byte slots: the BPF object's data-flow names the offset
 * (bpfcc_call_types.c check_iter_slot()), which the native frame does not have; asked only when
 * the native address is misaligned too (naming the call's line costs an addr2line).
 */
static int misaligned(const char *kfunc, const void *it, const void *caller)
{
	const char *refused;

	if (!((uintptr_t)it & 7))
		return 0;
	bpfrt_site_of(caller);
	refused = bpfrt_refused_call(kfsim_bpf_site.file, kfsim_bpf_site.line);
	if (refused)
		kfsim_bpf_helper_refused(kfunc, "an iterator takes whole 8-byte stack slots", "%s",
					 refused);
	bpfrt_site(NULL, 0);
	return refused ? -EINVAL : 0;
}

static int stack_arg(const char *kfunc, const void *it, const void *here, const void *caller)
{
	/* check_kfunc_args() first: a NULL constant where a trusted argument goes */
	if (!it)
		return kfsim_bpf_helper_refused(kfunc, "the iterator's argument may not be NULL",
						"Possibly NULL pointer passed to trusted arg0");
	if (bpfrt_on_prog_stack(it, here)) /* call_prog() set its bound before the run */
		return misaligned(kfunc, it, caller);
	return kfsim_bpf_helper_refused(kfunc,
					"an iterator lives in the program's stack slots, which the "
					"verifier tracks; any other memory is refused",
					"arg#0 expected pointer to an iterator on stack");
}

/* The lock rule (do_check()): before 6.14 no kfunc but the graph ones under a bpf_spin_lock. */
static int lock_rule(const char *kfunc)
{
	/* located from the stack if refused: naming the line here costs an addr2line a call */
	return kfsim_kernel_at_least(6, 14) ? 0 : kfsim_bpf_helper_enter(kfunc);
}

static int initialized(const char *kfunc, struct iter **sp, const void *it, const void *here,
		       const void *caller)
{
	if (stack_arg(kfunc, it, here, caller) || lock_rule(kfunc))
		return -EINVAL;
	*sp = iter_at(it);
	if (*sp)
		return 0;
	bpfrt_site_of(caller);
	kfsim_bpf_helper_refused(kfunc,
				 "next() and destroy() take an iterator that new() made and no store "
				 "or destroy() undid",
				 "expected an initialized iter_num as arg #0");
	bpfrt_site(NULL, 0);
	return -EINVAL;
}

int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end);
int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end)
{
	const void *caller = __builtin_return_address(0);
	struct iter_num_kern *k = (struct iter_num_kern *)it;
	struct iter *s;

	if (stack_arg("bpf_iter_num_new", it, __builtin_frame_address(0), caller) ||
	    lock_rule("bpf_iter_num_new"))
		return -EINVAL;
	if (iter_at(it)) {
		bpfrt_site_of(caller);
		kfsim_bpf_helper_refused("bpf_iter_num_new",
					 "new() wants stack slots that hold no iterator: destroy() "
					 "the one there first",
					 "expected uninitialized iter_num as arg #0");
		bpfrt_site(NULL, 0);
		return -EINVAL;
	}
	s = new_slot();
	if (s) {
		*s = (struct iter){.addr = it, .caller = caller, .slots = true, .held = true};
		s->id = kfsim_bpf_verifier_ids(1); /* acquire_reference_state() */
	}
	if (start > end) {
		set_state(s, k, 0, 0);
		return -EINVAL;
	}
	/* in 64 bits: INT_MIN to INT_MAX would overflow */
	if ((int64_t)end - (int64_t)start > BPF_MAX_LOOPS) {
		set_state(s, k, 0, 0);
		return -E2BIG;
	}
	/* next() gives start first; start - 1 wraps for INT_MIN, as the kernel's does */
	set_state(s, k, (int)((unsigned int)start - 1u), end);
	return 0;
}

int *bpf_iter_num_next(struct bpf_iter_num *it);
int *bpf_iter_num_next(struct bpf_iter_num *it)
{
	const void *caller = __builtin_return_address(0);
	struct iter_num_kern *k = (struct iter_num_kern *)it;
	struct kfsim_bpf_decision d = {.kfunc = "bpf_iter_num_next", .natural = true,
				       .can_flip = true};
	struct iter *s;
	int next;

	if (initialized("bpf_iter_num_next", &s, it, __builtin_frame_address(0), caller))
		return NULL;
	/* KF_RET_NULL: the maybe-NULL result's id, on the passes the verifier walks (two) */
	if (s->nexts++ < NEXT_EXPLORED)
		kfsim_bpf_verifier_ids(1);
	/* the kernel adds in int (wrapping: cur == INT_MAX is start - 1 of INT_MIN) */
	next = (int)((unsigned int)k->cur + 1u);
	if ((int64_t)next >= (int64_t)k->end) {
		/* noted, not branched: a load through this NULL is the verifier's rule, no crash */
		d.natural = false;
		d.can_flip = false;
		kfsim_bpf_explore_decide(&d);
		set_state(s, k, 0, 0);
		return NULL;
	}
	if (s->nexts <= NEXT_EXPLORED && kfsim_bpf_explore_decide(&d)) {
		set_state(s, k, 0, 0);
		return NULL;
	}
	set_state(s, k, next, k->end);
	return &k->cur;
}

void bpf_iter_num_destroy(struct bpf_iter_num *it);
void bpf_iter_num_destroy(struct bpf_iter_num *it)
{
	struct iter_num_kern *k = (struct iter_num_kern *)it;
	struct iter *s;

	if (initialized("bpf_iter_num_destroy", &s, it, __builtin_frame_address(0),
			__builtin_return_address(0)))
		return;
	set_state(s, k, 0, 0);
	s->slots = false;
	s->held = false;
}

/*
 * The program returned: every iterator whose reference is held is a leak, in the order of the
 * verifier's array (acquisition order from 6.14; before, the releases' swap-removes are not
 * followed here), from 6.14 with the exit's line after the last.
 */
void bpfrt_iter_exit(void)
{
	unsigned int last = nr_iters;

	for (unsigned int i = 0; i < nr_iters; i++)
		if (iters[i].held)
			last = i;
	for (unsigned int i = 0; i < nr_iters; i++) {
		struct iter *s = &iters[i];
		int insn;

		if (!s->held)
			continue;
		s->held = false;
		insn = bpfrt_call_insn("bpf_iter_num_new", s->caller);
		if (insn < 0) /* not in the object's table: kfsim's own number, as for a kfunc */
			insn = (int)i + 1;
		bpfrt_leak_report("bpf_iter_num_new",
				  "every iterator new() made must be destroy()ed before the program "
				  "exits",
				  s->caller, s->id, insn, i == last);
	}
	nr_iters = 0;
}
