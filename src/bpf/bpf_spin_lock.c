// SPDX-License-Identifier: MIT
/*
 * bpf_spin_lock()/bpf_spin_unlock() (kernel/bpf/helpers.c): a real test-and-set lock in the
 * 4-byte struct bpf_spin_lock, plus the verifier's lock discipline (process_spin_lock()).
 *
 * Invariants: val is 1 exactly while some thread is between a successful lock and its unlock;
 * the thread's state names the lock it holds (at most one); a lock is taken only after it was
 * found to be the declared bpf_spin_lock of an allocation the program may reach, so a stale or
 * foreign pointer is never written; every non-owning reference dies at unlock.
 */
#include "bpf_internal.h"

/* process_spin_lock(): @lock is the lock field of a reachable allocation with a valid record. */
static __attribute__((noinline)) bool lock_arg_slow(struct bpf_tstate *ts,
						    struct bpf_spin_lock *lock)
{
	struct bpf_alloc_view v;
	char buf[160];
	long long off;

	if (!lock && bpf_arg_is_null_lookup(ts)) {
		bpf_report(-EINVAL,
			   "a map lookup's result must be checked for NULL before its lock is "
			   "taken",
			   "R1 type=map_value_or_null expected=map_value, ptr_");
		return false;
	}
	if (!lock || !bpf_reach(lock, &v)) {
		bpf_report(-EINVAL,
			   lock ? bpf_explain_stale(lock, buf, sizeof(buf))
				: "bpf_spin_lock takes a pointer to a struct bpf_spin_lock",
			   "R1 type=scalar expected=map_value, ptr_");
		return false;
	}
	if (!bpf_lock_map_allowed(ts, &v))
		return false;
	/* the object's BTF refused, its maps have none either (6.12's source, the running 6.18) */
	if (v.name && ts->run && ts->run->opts.no_prog_btf) {
		bpf_report(-EINVAL,
			   "the kernel refused the object's BTF (a struct in it is invalid), so its "
			   "maps were created without it",
			   "map '%s' has to have BTF in order to use bpf_spin_lock", v.name);
		return false;
	}
	if (!v.valid || v.type->spin_lock_off < 0) {
		bpf_report(-EINVAL,
			   "the allocation's struct declares no usable bpf_spin_lock (or its BTF "
			   "was rejected)",
			   "%s '%s' has no valid bpf_spin_lock", v.name ? "map" : "local",
			   v.name ? v.name : "kptr");
		return false;
	}
	off = (char *)lock - (char *)v.base;
	if (off != v.type->spin_lock_off) {
		bpf_report(-EINVAL, "the pointer must be the address of the bpf_spin_lock member",
			   "off %lld doesn't point to 'struct bpf_spin_lock' that is at %d", off,
			   v.type->spin_lock_off);
		return false;
	}
	if (v.name) { /* objects come and go with their references: only sections are cached */
		ts->lock_cache.lock = lock;
		ts->lock_cache.gen = bpf_alloc_generation();
	}
	return true;
}

/* a section lock found valid before, while the registry is unchanged */
static inline bool lock_cached(const struct bpf_tstate *ts, struct bpf_spin_lock *lock)
{
	return ts->lock_cache.lock == lock && lock &&
	       ts->lock_cache.gen == bpf_alloc_generation();
}

static inline bool lock_arg_ok(struct bpf_tstate *ts, struct bpf_spin_lock *lock)
{
	if (likely(lock_cached(ts, lock)))
		return true;
	return lock_arg_slow(ts, lock);
}

/* bpf_spin_lock() with every check in its order, and with a timeline. */
static __attribute__((noinline)) void spin_lock_checked(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts;

	/* a lock already held (also inside less()) is refused by bpf_enter()'s call rule */
	ts = bpf_enter(KFSIM_KFUNC_bpf_spin_lock);
	if (!ts || !lock_arg_ok(ts, lock))
		goto out;
	/* a global function returned with it: taken natively, not held to this caller */
	if (ts->held_by_global == lock)
		ts->held_by_global = NULL;
	else
		kfsim_bpf_raw_lock(lock);
	ts->held = lock;
	bpf_vref_lock(ts, true);
	bpf_tl(ts, KFSIM_BPF_TL_LOCK, lock, NULL);
out:
	bpf_leave();
}

void KFUNC(bpf_spin_lock)(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (!CHECKS) {
		kfsim_bpf_raw_lock(lock);
		return;
	}
	/*
	 * The usual call, decided before anything changes: the call rule lets it through with
	 * nothing else to do at entry, the lock is a section lock found valid before, and it is
	 * free.  Anything else takes the full path, which makes every check in its order.
	 */
	if (likely(bpf_enter_fast(ts, KFSIM_KFUNC_bpf_spin_lock) && lock_cached(ts, lock) &&
		   !__atomic_exchange_n(&lock->val, 1, __ATOMIC_ACQUIRE))) {
		bpf_enter_count(ts, KFSIM_KFUNC_bpf_spin_lock);
		ts->held = lock; /* no timeline: bpf_enter_fast() is false with one */
		bpf_vref_lock(ts, true);
		bpf_leave();
		return;
	}
	spin_lock_checked(lock);
}

/* bpf_spin_unlock() with every check in its order, and with a timeline. */
static __attribute__((noinline)) void spin_unlock_checked(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts;

	ts = bpf_enter(KFSIM_KFUNC_bpf_spin_unlock);
	if (!ts)
		goto out;
	if (ts->cb_depth && bpf_report(-EINVAL, "less() runs with the root's lock already held",
				       "can't spin_{lock,unlock} in rbtree cb"))
		goto out;
	/* process_spin_lock() checks the argument (the map's BTF, the field) before the state */
	if (ts->held != lock && !lock_arg_ok(ts, lock))
		goto out;
	if (!ts->held && bpf_report(-EINVAL, "only the lock this program took can be released",
				    "bpf_spin_unlock without taking a lock"))
		goto out;
	/* compared, never dereferenced: the held lock was checked when it was taken */
	if (ts->held != lock && bpf_report(-EINVAL, "unlock must name the lock that is held",
					   "bpf_spin_unlock of different lock"))
		goto out;
	ts->held = NULL;
	bpf_vref_lock(ts, false);
	bpf_refs_end_section(ts, "at bpf_spin_unlock");
	bpf_tl(ts, KFSIM_BPF_TL_UNLOCK, lock, NULL);
	kfsim_bpf_raw_unlock(lock);
out:
	bpf_leave();
}

void KFUNC(bpf_spin_unlock)(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (!CHECKS) {
		kfsim_bpf_raw_unlock(lock);
		return;
	}
	/* the usual call: the lock this program holds, not inside less(), no timeline */
	if (likely(lock && ts->held == lock && !ts->cb_depth &&
		   bpf_enter_fast(ts, KFSIM_KFUNC_bpf_spin_unlock))) {
		bpf_enter_count(ts, KFSIM_KFUNC_bpf_spin_unlock);
		ts->held = NULL;
		bpf_vref_lock(ts, false);
		bpf_refs_end_section_notl(ts, "at bpf_spin_unlock");
		kfsim_bpf_raw_unlock(lock);
		bpf_leave();
		return;
	}
	spin_unlock_checked(lock);
}
