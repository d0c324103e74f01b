// SPDX-License-Identifier: MIT
/*
 * may_goto natively: the loop budget behind can_loop and cond_break (bpf_experimental.h).
 *
 * A BPF "may_goto L" (BPF_JMP | BPF_JCOND, src_reg BPF_MAY_GOTO, 6.9+) falls through while the
 * budget of its stack frame lasts and jumps to L when it is spent.  The verifier explores both
 * outcomes; do_misc_fixups() turns the instruction into a counter in a hidden stack slot of the
 * subprogram's frame, set at the subprogram's entry, shared by every may_goto of that frame:
 *
 *   6.9-6.14 (and any JIT without timed may_goto): the slot starts at BPF_MAX_LOOPS (8M); each
 *	may_goto jumps when it reads 0, else decrements it and falls through.
 *   6.15+ on x86-64 ("bpf: Add support for timed may_goto", e723608bf40a): the slot starts at
 *	BPF_MAX_TIMED_LOOPS (0xffff) beside a timestamp 0; a may_goto jumps when it reads 0, else
 *	decrements it; when that gives 0, bpf_check_timed_may_goto() refills it: the first time
 *	it stamps the time, later it gives 0 (the next may_goto jumps) once NSEC_PER_SEC / 4 has
 *	passed since the stamp, else 0xffff again.  The budget is a quarter of a second.
 *
 * The native program reaches kfsim_bpfrt_may_goto() through the "may_goto" assembler macro of
 * include/bpf-compat/native/bpf/bpf_helpers.h, which passes the stack pointer of the function
 * executing it.  A C function's frame stands for the BPF subprogram's frame, named by that stack
 * pointer and the function (the start of the code around the call site, from the unwind
 * tables): frames deeper than the current one have returned (their budgets are gone), a frame
 * not seen before gets a fresh budget.  Not modelled: a function called again at the same depth
 * with no may_goto of a shallower frame in between continues the budget of its earlier call
 * (docs/bpf-graph.md lists it); which functions are frames at all differs anyway, since clang
 * and gcc inline different static functions.
 */
#include <stdbool.h>
#include <time.h>
#include <unwind.h>

#include <kfsim/cmdline.h>
#include "bpfrt.h"

/* include/linux/bpf.h */
#define BPF_MAX_LOOPS (8 * 1024 * 1024)
#define BPF_MAX_TIMED_LOOPS 0xffff
#define MAY_GOTO_TIMEOUT_NS (1000000000ull / 4)
#define MAX_FRAMES 64

struct may_goto_frame {
	unsigned long sp;
	void *fn;
	unsigned long long count;
	unsigned long long timestamp;
	unsigned int asked; /* may_gotos of this frame offered to the exploring mode */
	bool timed;
};

/*
 * The verifier follows a may_goto's jump as well as its fall-through, on every pass: a loop may
 * end after any pass, and what follows it must hold then too (a reference a later pass releases
 * leaks when the budget ends the loop before it).  The exploring mode gets the jump of the
 * first passes of each frame as a decision point: enough for the first and the second pass,
 * where such a program goes wrong, without spending the path budget on every pass of a long
 * loop before the decision points after it.
 */
#define MAY_GOTO_EXPLORED 2

#define NR_SITES 4

/*
 * Per thread, as the stack it stands for; reset at every program run (bpfrt_may_goto_reset).
 * One initial-exec TLS block: the fast path of a may_goto is a few loads and a decrement.
 */
struct may_goto_state {
	int nr_frames;
	unsigned int next_site;
	struct may_goto_frame frames[MAX_FRAMES];
	void *site[NR_SITES]; /* call sites seen last, and the function of each */
	void *fn[NR_SITES];
};
static __thread struct may_goto_state mg __attribute__((tls_model("initial-exec")));

void bpfrt_may_goto_reset(void)
{
	mg.nr_frames = 0;
}

/*
 * The program's code called the may_goto macro without knowing it calls: everything here is
 * built without SSE (general-regs-only), and what calls into libc or libgcc, which may use
 * SSE, keeps the x87/SSE state around the call (fxsave).
 */
#define MAY_GOTO_FN __attribute__((target("general-regs-only")))
#define FXSTATE(name) unsigned char name[512] __attribute__((aligned(16)))

MAY_GOTO_FN static unsigned long long now_ns(void)
{
	FXSTATE(fx);
	struct timespec ts;

	asm volatile("fxsave64 %0" : "=m"(fx));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	asm volatile("fxrstor64 %0" : : "m"(fx));
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* The start of the function around @site (cached: a loop asks again and again). */
MAY_GOTO_FN static void *function_of(void *site)
{
	FXSTATE(fx);
	unsigned int i;
	void *fn;

	for (i = 0; i < NR_SITES; i++)
		if (mg.site[i] == site)
			return mg.fn[i];
	asm volatile("fxsave64 %0" : "=m"(fx));
	fn = _Unwind_FindEnclosingFunction(site);
	asm volatile("fxrstor64 %0" : : "m"(fx));
	i = mg.next_site++ % NR_SITES;
	mg.site[i] = site;
	mg.fn[i] = fn;
	return fn;
}

MAY_GOTO_FN static bool timed_may_goto(void)
{
#if defined(__x86_64__)
	return kfsim_kernel_at_least(6, 15);
#else
	return false;
#endif
}

/* The budget of @fn's frame at @sp: the stack's top once the returned frames are gone. */
MAY_GOTO_FN static struct may_goto_frame *frame_of(unsigned long sp, void *fn)
{
	struct may_goto_frame *f;

	while (mg.nr_frames && mg.frames[mg.nr_frames - 1].sp < sp) /* the stack grows down */
		mg.nr_frames--;
	f = mg.nr_frames ? &mg.frames[mg.nr_frames - 1] : NULL;
	if (f && f->sp == sp && f->fn == fn)
		return f;
	if (f && f->sp == sp)
		mg.nr_frames--; /* another function in the same place: a new frame */
	if (mg.nr_frames == MAX_FRAMES)
		mg.nr_frames--; /* deeper than BPF's 8 frames can be: share the last */
	f = &mg.frames[mg.nr_frames++];
	f->sp = sp;
	f->fn = fn;
	f->timed = timed_may_goto();
	f->count = f->timed ? BPF_MAX_TIMED_LOOPS : BPF_MAX_LOOPS;
	f->timestamp = 0;
	f->asked = 0;
	return f;
}

/* bpf_check_timed_may_goto(): the count to store when the decrement reached 0. */
MAY_GOTO_FN static unsigned long long check_timed(struct may_goto_frame *f)
{
	unsigned long long time = now_ns();

	if (!f->timestamp) {
		f->timestamp = time;
		return BPF_MAX_TIMED_LOOPS;
	}
	if (time - f->timestamp >= MAY_GOTO_TIMEOUT_NS)
		return 0;
	return BPF_MAX_TIMED_LOOPS;
}

/* Whether the exploring mode takes this may_goto's jump (a fork of the run, decided there). */
MAY_GOTO_FN static bool explore_jump(struct may_goto_frame *f)
{
	struct kfsim_bpf_decision d = {.kfunc = "may_goto", .natural = true, .can_flip = true};
	FXSTATE(fx);
	bool jump;

	if (f->asked >= MAY_GOTO_EXPLORED)
		return false;
	f->asked++;
	asm volatile("fxsave64 %0" : "=m"(fx));
	jump = kfsim_bpf_explore_decide(&d);
	asm volatile("fxrstor64 %0" : : "m"(fx));
	return jump;
}

/**
 * kfsim_bpfrt_may_goto() - one may_goto of the function whose stack pointer is @sp
 * @sp: its stack pointer at the may_goto (the caller of this function is the function itself)
 *
 * Return: 1 to fall through (the loop goes on), 0 to jump (the budget is spent).
 */
MAY_GOTO_FN int kfsim_bpfrt_may_goto(unsigned long sp);
MAY_GOTO_FN int kfsim_bpfrt_may_goto(unsigned long sp)
{
	struct may_goto_frame *f = frame_of(sp, function_of(__builtin_return_address(0)));

	if (!f->count)
		return 0;
	if (explore_jump(f)) {
		f->count = 0; /* spent: the frame's later may_gotos jump too */
		return 0;
	}
	f->count--;
	if (!f->count && f->timed)
		f->count = check_timed(f);
	return 1;
}
