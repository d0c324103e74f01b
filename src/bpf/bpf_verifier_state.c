// SPDX-License-Identifier: MIT
/*
 * The verifier's bookkeeping, kept at run time per thread: the lock held, the generation of the
 * non-owning references, the less-callback depth, and the references the program holds; plus the
 * program-run scope and the violation reporter.
 *
 * Invariants:
 * - refs[0..nr_refs) holds every owning reference acquired in this thread and not yet released,
 *   and non-owning references; a non-owning one is live only while its generation (cs) is the
 *   thread's current one, which bpf_spin_unlock (and, in 6.3, bpf_rbtree_remove) ends.  Dead
 *   entries leave the table when a new reference needs their room, into the ring of dead
 *   references that explains a later use.
 * - A violation is reported before the kfunc changes anything, so refusing the call (continue
 *   mode) or leaving the run with longjmp (abort mode) never leaves a collection half-changed.
 * - The state is thread-local: threads running programs over the same collections share only
 *   the objects, which they reach under the collections' locks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

#include "bpf_internal.h"

__thread struct kfsim_bpf_site kfsim_bpf_site __attribute__((tls_model("initial-exec")));
__thread struct bpf_tstate bpf_tstate __attribute__((tls_model("initial-exec")));
__thread unsigned int kfsim_bpf_less_acquired __attribute__((tls_model("initial-exec")));

/* Abort mode: leave the run now (kfsim_bpf_run()'s setjmp); continue mode: go on. */
static void run_abort(struct kfsim_bpf_run *run)
{
	if (run->opts.on_violation == KFSIM_BPF_ABORT && run->abort_jmp) {
		run->aborted = true;
		longjmp(*(jmp_buf *)run->abort_jmp, 1);
	}
}

bool bpf_report(int err, const char *why, const char *fmt, ...)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct kfsim_bpf_run *run = ts->run;
	struct kfsim_bpf_violation v = {.err = err};
	va_list args;

	va_start(args, fmt);
	vsnprintf(v.msg, sizeof(v.msg), fmt, args);
	va_end(args);
	snprintf(v.why, sizeof(v.why), "%s", why);
	v.kfunc = ts->kfunc ? ts->kfunc : "";
	v.file = kfsim_bpf_site.file;
	v.line = kfsim_bpf_site.line;
	ts->nr_violations++;

	if (run && run->name)
		pr_err("kfsim bpf: prog '%s': %s\n", run->name, v.msg);
	else
		pr_err("kfsim bpf: %s\n", v.msg);
	if (v.file)
		pr_err("kfsim bpf:   at %s:%d in %s(): %s\n", v.file, v.line,
		       v.kfunc[0] ? v.kfunc : "program exit", why);
	else
		pr_err("kfsim bpf:   in %s(): %s\n", v.kfunc[0] ? v.kfunc : "program exit", why);

	if (!run)
		return true;
	bpf_tl(ts, KFSIM_BPF_TL_VIOLATION, NULL, NULL);
	if (run->nr_violations < KFSIM_BPF_RUN_MAX_REPORTS)
		run->violations[run->nr_violations] = v;
	run->nr_violations++;
	if (run->opts.report)
		run->opts.report(&v, run->opts.report_arg);
	run_abort(run);
	return true;
}

unsigned long kfsim_bpf_violations_total(void)
{
	return bpf_tstate.nr_violations;
}

/* ---- References ---- */

static bool ref_covers(const struct bpf_ref *r, const void *p)
{
	return bpf_ref_covers(r, p);
}

static inline void dead_remember(const struct bpf_ref *r, const char *how)
{
	bpf_dead_remember_at(&bpf_tstate, r, how, kfsim_bpf_site.file, kfsim_bpf_site.line);
}

/* bpf_ref_add()'s rare cases: a full table, or a timeline recording each new reference. */
struct bpf_ref *bpf_ref_add_slow(void *obj, struct kfsim_btf_struct *type, enum bpf_ref_kind kind)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct bpf_ref *r;

	if (unlikely(ts->nr_refs >= BPF_MAX_REFS))
		bpf_refs_invalidate_non_owning(NULL); /* make room: drop the dead entries */
	if (ts->nr_refs >= BPF_MAX_REFS) {
		bpf_report(-E2BIG, "the verifier bounds how many references a program may hold",
			   "kfsim: more than %d references held at once", BPF_MAX_REFS);
		return NULL;
	}
	r = &ts->refs[ts->nr_refs++];
	bpf_ref_init(ts, r, obj, type, kind);
	bpf_tl(ts, kind == BPF_REF_OWNING ? KFSIM_BPF_TL_OWNING : KFSIM_BPF_TL_NON_OWNING, obj,
	       type->name);
	return r;
}

void bpf_ref_del(struct bpf_ref *ref, const char *how)
{
	struct bpf_tstate *ts = &bpf_tstate;
	u32 i = (u32)(ref - ts->refs);

	if (how)
		dead_remember(ref, how);
	bpf_tl(ts, ref->kind == BPF_REF_OWNING ? KFSIM_BPF_TL_RELEASED : KFSIM_BPF_TL_INVALIDATED,
	       ref->obj, ref->type->name);
	if (ref->kind == BPF_REF_OWNING)
		bpf_vref_release(ts, ref->id);
	memmove(&ts->refs[i], &ts->refs[i + 1], (ts->nr_refs - i - 1) * sizeof(*ref));
	ts->nr_refs--;
}

/*
 * Remove non-owning entries: with @how, every one (they die now, here); without, only those of
 * ended critical sections (they died at that section's bpf_spin_unlock).
 */
void bpf_refs_invalidate_non_owning(const char *how)
{
	struct bpf_tstate *ts = &bpf_tstate;
	u32 kept = 0;

	for (u32 i = 0; i < ts->nr_refs; i++) {
		struct bpf_ref *r = &ts->refs[i];

		if (r->kind == BPF_REF_NON_OWNING && (how || r->cs != ts->cs)) {
			if (how)
				dead_remember(r, how);
			else
				bpf_dead_at_unlock(ts, r);
			bpf_tl(ts, KFSIM_BPF_TL_INVALIDATED, ts->refs[i].obj,
			       ts->refs[i].type->name);
			continue;
		}
		if (kept != i)
			ts->refs[kept] = ts->refs[i];
		kept++;
	}
	ts->nr_refs = kept;
}

const struct bpf_dead_ref *bpf_dead_find(const void *p)
{
	struct bpf_tstate *ts = &bpf_tstate;

	for (u32 n = 0; n < BPF_MAX_DEAD; n++) {
		const struct bpf_dead_ref *d = &ts->dead[(ts->dead_next - 1 - n) % BPF_MAX_DEAD];

		if (d->obj && (const char *)p >= (const char *)d->obj &&
		    (const char *)p < (const char *)d->obj + d->size)
			return d;
	}
	return NULL;
}

const char *bpf_explain_stale(const void *p, char *buf, size_t size)
{
	const struct bpf_dead_ref *d;

	if (!p) {
		snprintf(buf, size, "the pointer is NULL: check kfunc results for NULL before use");
		return buf;
	}
	for (u32 i = bpf_tstate.nr_refs; i-- > 0;) {
		const struct bpf_ref *r = &bpf_tstate.refs[i];
		const struct bpf_tstate *ts = &bpf_tstate;

		if (bpf_ref_live(ts, r) || !ref_covers(r, p))
			continue;
		if (ts->cs_end[r->cs % BPF_MAX_DEAD].file)
			snprintf(buf, size, "this reference died %s (%s:%d)",
				 ts->cs_end[r->cs % BPF_MAX_DEAD].how,
				 ts->cs_end[r->cs % BPF_MAX_DEAD].file,
				 ts->cs_end[r->cs % BPF_MAX_DEAD].line);
		else
			snprintf(buf, size, "this reference died %s",
				 ts->cs_end[r->cs % BPF_MAX_DEAD].how);
		return buf;
	}
	d = bpf_dead_find(p);
	if (!d)
		snprintf(buf, size,
			 "the pointer is no reference this program holds "
			 "(never acquired, or released earlier)");
	else if (d->file)
		snprintf(buf, size, "this reference died %s (%s:%d)", d->how, d->file, d->line);
	else
		snprintf(buf, size, "this reference died %s", d->how);
	return buf;
}

/* ---- Program runs ---- */

static const struct kfsim_bpf_run_opts default_opts = {.on_violation = KFSIM_BPF_CONTINUE};

int kfsim_bpf_run_begin(struct kfsim_bpf_run *run, const char *name,
			const struct kfsim_bpf_run_opts *opts)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (!run)
		return -EINVAL;
	if (ts->run)
		return -EBUSY;
	memset(run, 0, sizeof(*run));
	run->name = name;
	run->opts = opts ? *opts : default_opts;
	if (run->opts.timeline) {
		run->opts.timeline->nr = 0;
		run->opts.timeline->dropped = 0;
	}
	ts->run = run;
	ts->kver = kfsim_kernel_version();
	ts->tracing = run->opts.prog_type >= KFSIM_BPF_PROG_KPROBE;
	ts->socket_filter = run->opts.prog_type == KFSIM_BPF_PROG_SOCKET_FILTER;
	switch (run->opts.prog_type) {
	case KFSIM_BPF_PROG_SOCKET_FILTER:
	case KFSIM_BPF_PROG_SK_SKB:
	case KFSIM_BPF_PROG_SK_MSG:
	case KFSIM_BPF_PROG_LWT:
	case KFSIM_BPF_PROG_FLOW_DISSECTOR:
		ts->common_only = true;
		break;
	default:
		ts->common_only = false;
	}
	/*
	 * bpf_check_root()'s and the lock's fast paths trust their caches to mean "allowed",
	 * which a program type's rule or an object without BTF may make untrue for this run
	 */
	if (ts->tracing || ts->socket_filter || run->opts.no_prog_btf) {
		ts->root_cache.root = NULL;
		ts->lock_cache.lock = NULL;
	}
	ts->timeline = run->opts.timeline != NULL;
	ts->nr_calls = 0;
	ts->nr_acquired = 0;
	ts->id_gen = 0;
	bpf_vref_reset(ts);
	/*
	 * References still held from calls outside a run are no acquisition of this program:
	 * their ids came from the counter just reset, which would give them again, so that
	 * releasing one would take the run's reference of the same id out of the verifier's
	 * array (and the leak report would find the older one under that id).
	 */
	for (u32 i = 0; i < ts->nr_refs; i++)
		if (ts->refs[i].kind == BPF_REF_OWNING)
			ts->refs[i].id = BPF_REF_NO_ID;
	ts->cb_depth = 0;
	ts->rcu_depth = 0;
	ts->preempt_depth = 0;
	ts->nr_irq = 0;
	bpf_global_run_reset(ts);
	ts->claiming = NULL;
	ts->less_leaked = NULL;
	kfsim_bpf_less_acquired = 0;
	bpf_enter_fast_mask(ts);
	return 0;
}

/* Release what the run still holds: the lock, then its owning references (dropped). */
static void run_cleanup(struct bpf_tstate *ts)
{
	if (ts->held) {
		kfsim_bpf_raw_unlock(ts->held);
		ts->held = NULL;
	}
	/* the saved irq flags were the program's stack, gone now; nothing was disabled natively */
	ts->nr_irq = 0;
	ts->preempt_depth = 0;
	/* aborted inside less(): the node being inserted was never linked; give it back */
	if (ts->claiming) {
		__atomic_store_n(ts->claiming, NULL, __ATOMIC_RELEASE);
		ts->claiming = NULL;
	}
	ts->cb_depth = 0;
	bpf_refs_invalidate_non_owning("at the end of the program run");
	while (ts->nr_refs) {
		struct bpf_ref *r = &ts->refs[ts->nr_refs - 1];
		void *obj = r->obj;

		bpf_ref_del(r, "at the end of the program run");
		bpf_obj_drop_raw(obj);
	}
}

/* The owning reference with verifier id @id (NULL when there is none). */
static struct bpf_ref *owning_by_id(struct bpf_tstate *ts, u32 id)
{
	for (u32 i = 0; i < ts->nr_refs; i++)
		if (ts->refs[i].kind == BPF_REF_OWNING && ts->refs[i].id == id)
			return &ts->refs[i];
	return NULL;
}

/*
 * How many owning acquisitions of the run before @r came from @r's call site (the same return
 * address, and the same file and line when a call-site macro recorded them): -1 when @r is past
 * the kept history.
 */
static int acquired_at_before(const struct bpf_tstate *ts, const struct bpf_ref *r)
{
	int n = 0;

	if (r->seq >= BPF_MAX_ACQUIRED)
		return -1;
	for (u32 i = 0; i < r->seq; i++) {
		const struct bpf_acquired_at *a = &ts->acquired_at[i];

		n += a->caller == r->caller && a->line == r->line &&
		     (a->file == r->file || (a->file && r->file && !strcmp(a->file, r->file)));
	}
	return n;
}

/*
 * check_reference_leak(): one "Unreleased reference id=%d alloc_insn=%d" line for every reference
 * still held whose id is above @after, in the order of the verifier's array (bpf_vref.c); from
 * 6.14, check_resource_leak() adds one line after them naming the exit.  Each line is its own
 * report, located at the acquiring call; the last one carries the 6.14 line, so that the
 * messages in order are the verifier's log.  alloc_insn is the BPF instruction of the acquiring
 * call when the run's @alloc_insn callback knows it (kfsim-bpf-cc), else the number of that
 * kfunc call in the run; the callback is told how many times the reference's call site acquired
 * before it in the run (acquired_at_before()), which of clang's copies of one call it was.  The lines are reported without leaving the run; the caller aborts.
 * Returns how many lines were reported.
 */
static u32 report_leaks(struct kfsim_bpf_run *run, struct bpf_tstate *ts, u32 after,
			const char *why)
{
	u32 order[ARRAY_SIZE(ts->vrefs)], nr = 0;
	void *jmp = run->abort_jmp;

	for (u32 i = 0; i < ts->nr_vrefs; i++)
		if (ts->vrefs[i] > after && owning_by_id(ts, ts->vrefs[i]))
			order[nr++] = ts->vrefs[i];
	run->abort_jmp = NULL;
	for (u32 i = 0; i < nr; i++) {
		struct bpf_ref *r = owning_by_id(ts, order[i]);
		int insn = -1;

		if (run->opts.alloc_insn)
			insn = run->opts.alloc_insn(r->kfunc, r->file, r->file ? r->line : 0,
						    r->caller, acquired_at_before(ts, r),
						    run->opts.alloc_insn_arg);
		if (insn < 0)
			insn = (int)r->insn;
		kfsim_bpf_site.file = r->file;
		kfsim_bpf_site.line = r->line;
		ts->kfunc = r->kfunc;
		bpf_report(-EINVAL, why, "Unreleased reference id=%u alloc_insn=%d%s", r->id, insn,
			   i + 1 == nr && bpf_kver_at_least(6, 14)
				   ? "\nBPF_EXIT instruction in main prog would lead to "
				     "reference leak"
				   : "");
	}
	run->abort_jmp = jmp;
	return nr;
}

/*
 * less() returned after acquiring: the verifier checks a callback at its BPF_EXIT for the
 * references acquired in it (6.12 check_reference_leak(): callback_ref == frameno; 6.14+
 * check_resource_leak(), whose line names the main prog there too) and rejects the program
 * there, before the main program's exit.  The references less() acquired are those above the id
 * counter of its start (every earlier less() of this insert returned clean).  The verifier
 * checks the callback's body once, so a less() reports its leak once per run; either way its
 * references leave the verifier's array, as no main program exit sees them.  Abort mode leaves
 * the run from here, which gives the node being inserted back unclaimed.
 */
void kfsim_bpf_less_leaked(struct kfsim_bpf_add_ctx *ctx)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct kfsim_bpf_run *run = ts->run;
	struct kfsim_bpf_site site = kfsim_bpf_site;
	const char *kfunc = ts->kfunc;
	u32 after = ctx->ids, nr = 0;

	kfsim_bpf_less_acquired = 0;
	ctx->ids = ts->id_gen;
	if (!run)
		return;
	if (ts->less_leaked != (const void *)ctx->less) {
		nr = report_leaks(run, ts, after,
				  "a reference acquired in less() must be released before less() "
				  "returns: the verifier checks the callback at its exit "
				  "(the acquiring call is shown)");
		if (nr && !ts->less_leaked)
			ts->less_leaked = (const void *)ctx->less;
	}
	for (u32 i = ts->nr_vrefs; i-- > 0;) {
		struct bpf_ref *r;

		if (ts->vrefs[i] <= after)
			continue;
		r = owning_by_id(ts, ts->vrefs[i]);
		bpf_vref_release(ts, ts->vrefs[i]);
		if (r)
			r->id = BPF_REF_NO_ID;
	}
	ts->kfunc = kfunc;
	kfsim_bpf_site = site;
	if (nr)
		run_abort(run);
}

/*
 * The return-value range of the program types that have one (check_return_code(); 6.12's
 * source, the running 6.18).  The verifier knows R0 as a range; natively it is one value, so
 * this sees only the value the run returned, with the message the verifier gives for a
 * constant (smin and smax both that value).
 */
static void report_return_range(struct kfsim_bpf_run *run)
{
	int max;

	switch (run->opts.prog_type) {
	case KFSIM_BPF_PROG_CGROUP_SKB_INGRESS:
	case KFSIM_BPF_PROG_CGROUP_SOCK:
		max = 1;
		break;
	case KFSIM_BPF_PROG_CGROUP_SKB_EGRESS:
		max = 3; /* bit 1: congestion notification (5.3) */
		break;
	default:
		return;
	}
	if (run->retval < 0 || run->retval > max)
		bpf_report(-EINVAL,
			   "this program type's return value is a verdict in a fixed range",
			   "At program exit the register R0 has smin=%lld smax=%lld should have "
			   "been in [0, %d]",
			   run->retval, run->retval, max);
}

int kfsim_bpf_run_end(struct kfsim_bpf_run *run)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (!run || ts->run != run)
		return -EINVAL;
	run->nr_calls = ts->nr_calls;
	run->abort_jmp = NULL; /* exit checks report, they do not jump */
	if (!run->aborted) {
		ts->kfunc = NULL;
		kfsim_bpf_site.file = NULL;
		/*
		 * Up to 6.13 do_check() tests the lock, then RCU, then preemption, then
		 * check_reference_leak(); 6.14's check_resource_leak() tests the lock, the
		 * references, then saved irq flags, then RCU, then preemption, with
		 * messages that name the exit.
		 */
		bool v614 = bpf_kver_at_least(6, 14);

		if (ts->held)
			bpf_report(-EINVAL,
				   "a program must release its bpf_spin_lock before it exits",
				   v614 ? "BPF_EXIT instruction in main prog cannot be used inside "
					  "bpf_spin_lock-ed region"
					: "bpf_spin_unlock is missing");
		if (v614)
			report_leaks(run, ts, 0,
				     "an owning reference must be dropped, inserted or stashed "
				     "before the program exits (the acquiring call is shown)");
		if (ts->nr_irq) /* 6.14 and later only: the kfuncs' release */
			bpf_report(-EINVAL,
				   "a program must restore every interrupt state it saved before it "
				   "exits",
				   "BPF_EXIT instruction in main prog cannot be used inside "
				   "bpf_local_irq_save-ed region");
		if (ts->rcu_depth)
			bpf_report(-EINVAL,
				   "a program must leave its RCU read-side sections before it exits",
				   v614 ? "BPF_EXIT instruction in main prog cannot be used inside "
					  "bpf_rcu_read_lock-ed region"
					: "bpf_rcu_read_unlock is missing");
		/* 6.10 to 6.13 count the missing enables; 6.14 names the exit, after RCU */
		if (ts->preempt_depth && v614)
			bpf_report(-EINVAL,
				   "a program must re-enable preemption before it exits",
				   "BPF_EXIT instruction in main prog cannot be used inside "
				   "bpf_preempt_disable-ed region");
		else if (ts->preempt_depth)
			bpf_report(-EINVAL,
				   "a program must re-enable preemption before it exits",
				   "%d bpf_preempt_enable%s missing", ts->preempt_depth,
				   ts->preempt_depth == 1 ? " is" : "(s) are");
		if (!v614)
			report_leaks(run, ts, 0,
				     "an owning reference must be dropped, inserted or stashed "
				     "before the program exits (the acquiring call is shown)");
		/* check_return_code() runs after the resource checks, at the main program's exit */
		if (!run->nr_violations && run->has_retval)
			report_return_range(run);
		/* then the global functions, checked after the main program */
		bpf_global_run_end(ts, true);
		ts->kfunc = NULL;
	}
	bpf_global_run_end(ts, false);
	run_cleanup(ts);
	ts->run = NULL;
	bpf_obj_quarantine_flush();
	ts->tracing = false;
	ts->socket_filter = false;
	ts->common_only = false;
	ts->timeline = false;
	bpf_enter_fast_mask(ts);
	kfsim_bpf_site.file = NULL;
	return run->nr_violations ? run->violations[0].err : 0;
}

int kfsim_bpf_run(struct kfsim_bpf_run *run, const char *name, int (*prog)(void *ctx), void *ctx,
		  const struct kfsim_bpf_run_opts *opts, int *retval)
{
	jmp_buf env;
	int err, ret;

	if (!prog)
		return -EINVAL;
	err = kfsim_bpf_run_begin(run, name, opts);
	if (err)
		return err;
	run->abort_jmp = &env;
	if (!setjmp(env)) {
		ret = prog(ctx);
		run->has_retval = true;
		run->retval = ret;
		if (retval)
			*retval = ret;
	}
	return kfsim_bpf_run_end(run);
}
