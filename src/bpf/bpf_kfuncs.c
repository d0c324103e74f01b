// SPDX-License-Identifier: MIT
/*
 * The kfunc registry: every graph kfunc kfsim provides, with its BTF_KFUNCS flags, the kernel
 * version it appeared in (and the one that replaced it), and one line of doc.  Calls to a kfunc
 * the kernel in force does not have are refused with libbpf's load-time message; calls to a
 * KF_DEPRECATED one log a one-time warning naming the replacement (Documentation/bpf/kfuncs.rst,
 * "kfunc lifecycle expectations").
 *
 * Invariant: the table is constant; the only mutable state is the per-entry "warned" bit, set
 * once atomically (like the kernel's pr_warn_once state, process-global).
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include "bpf_internal.h"

#define V(a, b) KERNEL_VERSION(a, b, 0)

static const struct kfsim_bpf_kfunc kfuncs[] = {
	{"bpf_obj_new_impl", KF_ACQUIRE | KF_RET_NULL, V(6, 2), 0, NULL,
	 "allocate a zeroed object of a program-local struct (macro bpf_obj_new(type))", ""},
	{"bpf_obj_drop_impl", KF_RELEASE, V(6, 2), 0, NULL,
	 "free an owned object, draining its nested lists and trees (macro bpf_obj_drop(p))",
	 "6.4: a refcounted object is only freed when its count reaches zero"},
	{"bpf_refcount_acquire_impl", KF_ACQUIRE | KF_RET_NULL | KF_RCU, V(6, 4), 0, NULL,
	 "take another owning reference to a refcounted object (macro bpf_refcount_acquire(p))",
	 "6.4 KF_ACQUIRE only; 6.5 fallible (NULL when the count hit zero); 6.6 KF_RCU"},
	{"bpf_list_push_front", KF_DEPRECATED, V(6, 2), V(6, 4), "bpf_list_push_front_impl",
	 "put an owned node first in a list (6.3 form, returns nothing)",
	 "replaced in 6.4 by the _impl form; kfsim keeps it, deprecated"},
	{"bpf_list_push_back", KF_DEPRECATED, V(6, 2), V(6, 4), "bpf_list_push_back_impl",
	 "put an owned node last in a list (6.3 form, returns nothing)",
	 "replaced in 6.4 by the _impl form; kfsim keeps it, deprecated"},
	{"bpf_list_push_front_impl", 0, V(6, 4), 0, NULL,
	 "put an owned node first in a list; -EINVAL (node dropped) if already in one",
	 "kfsim accepts it in 6.3 mode with the 6.3 semantics (always 0)"},
	{"bpf_list_push_back_impl", 0, V(6, 4), 0, NULL,
	 "put an owned node last in a list; -EINVAL (node dropped) if already in one",
	 "kfsim accepts it in 6.3 mode with the 6.3 semantics (always 0)"},
	{"bpf_list_pop_front", KF_ACQUIRE | KF_RET_NULL, V(6, 2), 0, NULL,
	 "unlink the first node and own it; NULL if empty", ""},
	{"bpf_list_pop_back", KF_ACQUIRE | KF_RET_NULL, V(6, 2), 0, NULL,
	 "unlink the last node and own it; NULL if empty", ""},
	{"bpf_list_front", KF_RET_NULL, V(6, 16), 0, NULL,
	 "the first node as a non-owning reference; NULL if empty", ""},
	{"bpf_list_back", KF_RET_NULL, V(6, 16), 0, NULL,
	 "the last node as a non-owning reference; NULL if empty", ""},
	{"bpf_rbtree_add", KF_DEPRECATED, V(6, 3), V(6, 4), "bpf_rbtree_add_impl",
	 "insert an owned node ordered by less() (6.3 form, returns nothing)",
	 "replaced in 6.4 by the _impl form; kfsim keeps it, deprecated"},
	{"bpf_rbtree_add_impl", 0, V(6, 4), 0, NULL,
	 "insert an owned node ordered by less(); -EINVAL (node dropped) if already in a tree",
	 "kfsim accepts it in 6.3 mode with the 6.3 semantics (always 0)"},
	{"bpf_rbtree_first", KF_RET_NULL, V(6, 3), 0, NULL,
	 "the leftmost node as a non-owning reference; NULL if empty", ""},
	{"bpf_rbtree_remove", KF_ACQUIRE | KF_RET_NULL, V(6, 3), 0, NULL,
	 "take a node (non-owning reference) out of the tree and own it",
	 "6.3 KF_ACQUIRE, never NULL, invalidates non-owning refs; 6.4 NULL if not in the tree; "
	 "6.16 accepts refcounted owning refs"},
	{"bpf_rbtree_root", KF_RET_NULL, V(6, 16), 0, NULL,
	 "the root node as a non-owning reference; NULL if empty", ""},
	{"bpf_rbtree_left", KF_RET_NULL, V(6, 16), 0, NULL,
	 "a node's left child as a non-owning reference; NULL if none or not in this tree", ""},
	{"bpf_rbtree_right", KF_RET_NULL, V(6, 16), 0, NULL,
	 "a node's right child as a non-owning reference; NULL if none or not in this tree", ""},
	{"bpf_spin_lock", 0, V(5, 1), 0, NULL,
	 "take the allocation's lock (a helper, not a kfunc: listed for completeness)", ""},
	{"bpf_spin_unlock", 0, V(5, 1), 0, NULL,
	 "release the lock; every non-owning reference dies", ""},
};

static bool warned[ARRAY_SIZE(kfuncs)];

const struct kfsim_bpf_kfunc *kfsim_bpf_kfuncs(size_t *nr)
{
	if (nr)
		*nr = ARRAY_SIZE(kfuncs);
	return kfuncs;
}

const struct kfsim_bpf_kfunc *kfsim_bpf_kfunc_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(kfuncs); i++)
		if (!strcmp(kfuncs[i].name, name))
			return &kfuncs[i];
	return NULL;
}

const char *kfsim_bpf_kfunc_flags_str(u32 flags, char *buf, size_t size)
{
	static const struct {
		u32 flag;
		const char *name;
	} names[] = {
		{KF_ACQUIRE, "KF_ACQUIRE"},
		{KF_RELEASE, "KF_RELEASE"},
		{KF_RET_NULL, "KF_RET_NULL"},
		{KF_TRUSTED_ARGS, "KF_TRUSTED_ARGS"},
		{KF_SLEEPABLE, "KF_SLEEPABLE"},
		{KF_DESTRUCTIVE, "KF_DESTRUCTIVE"},
		{KF_RCU, "KF_RCU"},
		{KF_DEPRECATED, "KF_DEPRECATED"},
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

bool bpf_kfunc_available(const char *name)
{
	const struct kfsim_bpf_kfunc *k = kfsim_bpf_kfunc_find(name);
	unsigned int kver = kfsim_kernel_version();

	if (!k)
		return true;
	if (kver < k->since) {
		bpf_report(-ESRCH,
			   "this kfunc does not exist in the kernel version in force "
			   "(kfsim_set_kernel_version / --kver)",
			   "extern (func ksym) '%s': not found in kernel or module BTFs", name);
		return false;
	}
	if (k->until && kver >= k->until &&
	    !__atomic_exchange_n(&warned[k - kfuncs], true, __ATOMIC_RELAXED))
		pr_warn("kfsim bpf: kfunc %s is deprecated (KF_DEPRECATED), use %s instead\n", name,
			k->replacement);
	return true;
}

#include <kfsim/moduleparam.h>
/*
 * The "bpf" module of the kernel command line: "bpf.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(bpf)
