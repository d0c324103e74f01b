// SPDX-License-Identifier: MIT
/*
 * A lock or a list head embedded in an object that was already dropped (issue #28, rule 7):
 * after bpf_obj_drop(f) the pointer f is no reference any more (a scalar to the verifier), so
 * using &f->lock or &f->head is refused at the call: "R1 type=scalar expected=..." (the lock
 * helper, or the graph kfunc once the lock is held), "arg#0 expected pointer to map value or
 * allocated object" (a graph kfunc with no lock held).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 value;
};

struct holder {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(item, link);
};

SEC("tc") __failure __msg("R1 type=scalar expected=")
int lock_of_dropped(void *ctx)
{
	struct holder *f = bpf_obj_new(typeof(*f));

	if (!f)
		return 0;
	bpf_obj_drop(f);
	bpf_spin_lock(&f->lock);
	bpf_spin_unlock(&f->lock);
	return 0;
}

/* no lock taken: the kfunc's own argument check speaks first */
SEC("tc") __failure __msg("arg#0 expected pointer to map value or allocated object")
int head_of_dropped(void *ctx)
{
	struct holder *f = bpf_obj_new(typeof(*f));
	struct bpf_list_node *l;

	if (!f)
		return 0;
	bpf_obj_drop(f);
	l = bpf_list_pop_front(&f->head);
	if (l)
		bpf_obj_drop(container_of(l, struct item, link));
	return 0;
}

SEC("tc") __failure __msg("R1 type=scalar expected=")
int push_to_dropped(void *ctx)
{
	struct holder *f = bpf_obj_new(typeof(*f));
	struct item *n;

	if (!f)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		bpf_obj_drop(f);
		return 0;
	}
	bpf_obj_drop(f);
	bpf_spin_lock(&f->lock);
	bpf_list_push_front(&f->head, &n->link);
	bpf_spin_unlock(&f->lock);
	return 0;
}

SEC("tc") __success __retval(0)
int head_of_live(void *ctx)
{
	struct holder *f = bpf_obj_new(typeof(*f));
	struct item *n;

	if (!f)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		bpf_obj_drop(f);
		return 0;
	}
	bpf_spin_lock(&f->lock);
	bpf_list_push_front(&f->head, &n->link);
	bpf_spin_unlock(&f->lock);
	bpf_obj_drop(f);
	return 0;
}

char _license[] SEC("license") = "GPL";
