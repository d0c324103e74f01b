// SPDX-License-Identifier: MIT
/*
 * The kfunc registry, generated from the one list (include/kfsim/bpf_kfunc_list.h), and the
 * rare cases of the common entry path bpf_enter(): a kfunc the kernel in force does not have
 * (libbpf's load-time message), a call while holding a lock (the verifier's do_check() refuses
 * every call but bpf_spin_unlock and the graph kfuncs before it looks at the callee), a kfunc
 * whose calls were disabled in that release, and a 6.3 kfunc that 6.4 removed, which kfsim keeps
 * callable with a one-time warning.
 *
 * Invariant: the table is constant; the only mutable state is the per-entry "warned" bit, set
 * once atomically (like the kernel's pr_warn_once state, process-global).
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

const struct kfsim_bpf_kfunc bpf_kfunc_table[KFSIM_NR_KFUNCS] = {
#define __KFSIM_KFUNC_ROW(name, ret, params, flags, since, until, kfsim_flags, doc, note)          \
	[KFSIM_KFUNC_##name] = {#name, flags, since, until, (until) ? #name "_impl" : NULL, doc,    \
				note, kfsim_flags},
	KFSIM_BPF_KFUNC_LIST(__KFSIM_KFUNC_ROW)
#undef __KFSIM_KFUNC_ROW
};

static bool warned[KFSIM_NR_KFUNCS];

const struct kfsim_bpf_kfunc *kfsim_bpf_kfuncs(size_t *nr)
{
	if (nr)
		*nr = KFSIM_NR_KFUNCS;
	return bpf_kfunc_table;
}

const struct kfsim_bpf_kfunc *kfsim_bpf_kfunc_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < KFSIM_NR_KFUNCS; i++)
		if (!strcmp(bpf_kfunc_table[i].name, name))
			return &bpf_kfunc_table[i];
	return NULL;
}

const char *kfsim_bpf_kfunc_flags_str(u32 flags, char *buf, size_t size)
{
	static const struct {
		u32 flag;
		const char *name;
	} names[] = {
		{KF_ACQUIRE, "KF_ACQUIRE"},	    {KF_RELEASE, "KF_RELEASE"},
		{KF_RET_NULL, "KF_RET_NULL"},	    {KF_TRUSTED_ARGS, "KF_TRUSTED_ARGS"},
		{KF_SLEEPABLE, "KF_SLEEPABLE"},	    {KF_DESTRUCTIVE, "KF_DESTRUCTIVE"},
		{KF_RCU, "KF_RCU"},
	};
	size_t len = 0;

	if (!buf || !size)
		return "";
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(flags & names[i].flag))
			continue;
		len += snprintf(buf + min(len, size - 1), size - min(len, size - 1), "%s%s",
				len ? " | " : "", names[i].name);
	}
	if (!len)
		snprintf(buf, size, "0");
	return buf;
}

/* The run's program type may call only common_kfunc_set's kfuncs, and @k is not one. */
static bool outside_common_set(const struct bpf_tstate *ts, const struct kfsim_bpf_kfunc *k)
{
	return ts->common_only && !(k->kfsim_flags & (KFSIM_KF_COMMON | KFSIM_KF_HELPER));
}

/* A kfunc takes the fast path when none of bpf_enter_slow()'s cases can apply to it. */
void bpf_enter_masks(struct bpf_tstate *ts)
{
	unsigned int kver = ts->kver;

	ts->ok_mask[0] = ts->ok_mask[1] = 0;
	ts->vref_lock = kver >= KERNEL_VERSION(6, 13, 0) && kver < KERNEL_VERSION(6, 14, 0);
	for (u32 id = 0; id < KFSIM_NR_KFUNCS; id++) {
		const struct kfsim_bpf_kfunc *k = &bpf_kfunc_table[id];

		ts->ids_at[id] = bpf_vref_ids_at_call(k, id, kver);
		if (kver < k->since || (k->until && kver >= k->until) ||
		    outside_common_set(ts, k) ||
		    ((k->kfsim_flags & KFSIM_KF_DISABLED_64) && kver >= KERNEL_VERSION(6, 4, 0) &&
		     kver < KERNEL_VERSION(6, 6, 0)))
			continue;
		ts->ok_mask[0] |= 1u << id;
		if (k->kfsim_flags & KFSIM_KF_LOCK_OK)
			ts->ok_mask[1] |= 1u << id;
	}
	ts->mask_kver = kver;
	ts->mask_common_only = ts->common_only;
}

struct bpf_tstate *bpf_enter_full(struct bpf_tstate *ts, enum kfsim_bpf_kfunc_id id)
{
	/* inside a run, the version read at kfsim_bpf_run_begin() holds for the whole run */
	if (!ts->run)
		ts->kver = kfsim_kernel_version();
	bpf_tl(ts, KFSIM_BPF_TL_CALL, NULL, NULL);
	if (unlikely(ts->mask_kver != ts->kver || ts->mask_common_only != ts->common_only))
		bpf_enter_masks(ts);
	ts->id_gen += ts->ids_at[id]; /* the verifier's ids for this call (bpf_vref.c) */
	if (unlikely(!(ts->ok_mask[ts->held != NULL] & (1u << id))))
		return bpf_enter_slow(ts, &bpf_kfunc_table[id]);
	return ts;
}

void bpf_enter_fast_mask(struct bpf_tstate *ts)
{
	if (ts->run && !ts->timeline && !bpf_explorer) { /* an explorer asks on the full paths */
		if (ts->mask_kver != ts->kver || ts->mask_common_only != ts->common_only)
			bpf_enter_masks(ts);
		ts->fast_mask[0] = ts->ok_mask[0];
		ts->fast_mask[1] = ts->ok_mask[1];
	} else {
		ts->fast_mask[0] = ts->fast_mask[1] = 0;
	}
}

struct bpf_tstate *bpf_enter_slow(struct bpf_tstate *ts, const struct kfsim_bpf_kfunc *k)
{
	if (ts->kver < k->since) {
		bpf_report(-ESRCH,
			   "this kfunc does not exist in the kernel version in force "
			   "(kfsim_set_kernel_version / --kver)",
			   "extern (func ksym) '%s': not found in kernel or module BTFs", k->name);
		goto refused;
	}
	if (ts->held && !(k->kfsim_flags & KFSIM_KF_LOCK_OK)) {
		bpf_report(-EINVAL,
			   "while a bpf_spin_lock is held only bpf_spin_unlock and the graph "
			   "kfuncs may be called",
			   "function calls are not allowed while holding a lock");
		goto refused;
	}
	/* check_kfunc_call(): the set's registration for the program type (fetch_kfunc_meta()) */
	if (outside_common_set(ts, k)) {
		bpf_report(-EACCES,
			   "this program type may call only the kfuncs every type may "
			   "(common_kfunc_set): the allocation and graph kfuncs are registered for "
			   "tc, xdp, cgroup_skb, syscall, struct_ops and tracing programs",
			   "calling kernel function %s is not allowed", k->name);
		goto refused;
	}
	if ((k->kfsim_flags & KFSIM_KF_DISABLED_64) && ts->kver >= KERNEL_VERSION(6, 4, 0) &&
	    ts->kver < KERNEL_VERSION(6, 6, 0)) {
		/* 7793fc3babe9 (6.4) until "bpf: Reenable bpf_refcount_acquire" (6.6) */
		bpf_report(-EINVAL,
			   "6.4 and 6.5 refused these calls until their race conditions were "
			   "fixed (re-enabled in 6.6)",
			   "%.*s calls are disabled for now", (int)(strlen(k->name) - 5), k->name);
		goto refused;
	}
	if (k->until && ts->kver >= k->until &&
	    !__atomic_exchange_n(&warned[k - bpf_kfunc_table], true, __ATOMIC_RELAXED))
		pr_warn("kfsim bpf: kfunc %s was removed in 6.4 (d2dcc67df910); kfsim keeps it, "
			"use %s\n",
			k->name, k->replacement);
	return ts;
refused:
	bpf_leave();
	return NULL;
}

/* A call the lock rule refuses (not a kfunc of the registry): the report, then -EINVAL. */
static int refused_under_lock(const char *callee, const char *why, const char *msg)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (!ts->held)
		return 0;
	ts->kfunc = callee;
	bpf_report(-EINVAL, why, "%s", msg);
	bpf_leave();
	return -EINVAL;
}

int kfsim_bpf_helper_enter(const char *helper)
{
	bpf_tstate.nr_helpers++;
	return refused_under_lock(helper,
				  "while a bpf_spin_lock is held only bpf_spin_unlock and the graph "
				  "kfuncs may be called; a helper is no exception",
				  "function calls are not allowed while holding a lock");
}

void kfsim_bpf_lookup_result(const void *value)
{
	struct bpf_tstate *ts = &bpf_tstate;

	ts->null_lookup.valid = !value;
	ts->null_lookup.nr_calls = ts->nr_calls;
	ts->null_lookup.nr_helpers = ts->nr_helpers;
}

/*
 * Called from inside the kfunc that got the NULL (its own bpf_enter() counted it): nothing was
 * called between the lookup and it, so the argument is most likely the unchecked result.
 */
bool bpf_arg_is_null_lookup(const struct bpf_tstate *ts)
{
	return ts->null_lookup.valid && ts->nr_calls == ts->null_lookup.nr_calls + 1 &&
	       ts->nr_helpers == ts->null_lookup.nr_helpers;
}

int kfsim_bpf_percpu_arg(const char *helper, const void *p)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct bpf_alloc_view v;

	if (!p || !bpf_reach(p, &v))
		return 0;
	ts->kfunc = helper;
	/* the register's type as reg_type_str() prints it: an allocated object is "ptr_" */
	bpf_report(-EINVAL,
		   "bpf_this_cpu_ptr and bpf_per_cpu_ptr take a per-CPU pointer (a __percpu ksym "
		   "or a percpu kptr); a map value or an object of bpf_obj_new is none",
		   "R1 type=%s expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_",
		   v.name ? "map_value" : "ptr_");
	bpf_leave();
	return -EINVAL;
}

int kfsim_bpf_helper_refused(const char *helper, const char *why, const char *fmt, ...)
{
	struct bpf_tstate *ts = &bpf_tstate;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ts->kfunc = helper;
	bpf_report(-EINVAL, why, "%s", msg);
	bpf_leave();
	return -EINVAL;
}

bool kfsim_bpf_is_object(const void *p)
{
	struct bpf_alloc_view v;

	return p && bpf_reach(p, &v) && !v.name;
}

int kfsim_bpf_helper_mem_arg(const char *helper, int regno, const void *p)
{
	if (!kfsim_bpf_is_object(p))
		return 0;
	/* check_reg_type()'s list for ARG_PTR_TO_MEM (mem_types), as the running 6.18 prints it */
	return kfsim_bpf_helper_refused(
		helper,
		"a helper's memory argument may be the stack, a packet, a map key or value or "
		"other memory the verifier sized, never an object of bpf_obj_new",
		"R%d type=ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, "
		"buf, trusted_ptr_",
		regno);
}

/* check_func_call()'s rules for a call of a global function, in the caller's state */
static int global_call_rules(struct bpf_tstate *ts, const char *subprog)
{
	if (ts->held)
		return refused_under_lock(subprog,
					  "a global function is verified on its own, with no lock "
					  "held: only static functions may be called under a "
					  "bpf_spin_lock",
					  "global function calls are not allowed while holding a lock,\n"
					  "use static function instead");
	/*
	 * check_func_call() tests the lock first, then preemption (6.10 to 6.14).  From 6.15
	 * ("bpf: Summarize sleepable global subprogs") only a global function that may sleep is
	 * refused there, and kfsim provides no sleepable helper or kfunc: the call is allowed
	 * (the running 6.18 kernel loads preempt_lock.c's preempt_global_subprog_test).
	 */
	if (!ts->run || (!ts->preempt_depth && !ts->nr_irq) || bpf_kver_at_least(6, 15))
		return 0;
	if (!ts->preempt_depth) { /* 6.14: IRQs disabled, tested after preemption */
		ts->kfunc = subprog;
		bpf_report(-EINVAL,
			   "a global function is verified on its own, with IRQs enabled: only "
			   "static functions may be called between bpf_local_irq_save and "
			   "bpf_local_irq_restore",
			   "global function calls are not allowed with IRQs disabled,\n"
			   "use static function instead");
		bpf_leave();
		return -EINVAL;
	}
	ts->kfunc = subprog;
	bpf_report(-EINVAL,
		   "a global function is verified on its own, with preemption enabled: only "
		   "static functions may be called between bpf_preempt_disable and "
		   "bpf_preempt_enable",
		   "global function calls are not allowed with preemption disabled,\n"
		   "use static function instead");
	bpf_leave();
	return -EINVAL;
}

int kfsim_bpf_global_call_enter(const char *subprog)
{
	struct bpf_tstate *ts = &bpf_tstate;
	int err = global_call_rules(ts, subprog);

	/* the function itself is checked as if nothing were open (bpf_global_subprog.c) */
	bpf_global_enter(ts);
	return err;
}

#include <kfsim/moduleparam.h>
/*
 * The "bpf" module of the kernel command line: "bpf.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(bpf)
