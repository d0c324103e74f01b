// SPDX-License-Identifier: MIT
/*
 * bpf_kptr_xchg() into a __kptr field checks the object against the field's declared type
 * (issue #28, rule 3; verifier.c map_kptr_match_type(), 6.12 and the running 6.18): an object
 * of another struct is "invalid kptr access, R2 type=ptr_<its struct> expected=ptr_<the
 * field's>".  A reference that is dead already (dropped) is no pointer at all to the verifier
 * (rule 8): "R2 type=scalar expected=ptr_, trusted_ptr_, rcu_ptr_".
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct small {
	u64 value;
};

struct large {
	struct bpf_rb_node node;
	u64 key;
};

struct slot {
	struct small __kptr *stashed;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct slot);
	__uint(max_entries, 1);
} slots SEC(".maps");

int zero;

SEC("tc") __failure __msg("invalid kptr access, R2 type=ptr_large expected=ptr_small")
int stash_wrong_type(void *ctx)
{
	struct large *l = bpf_obj_new(typeof(*l));
	struct slot *s;

	if (!l)
		return 0;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(l);
		return 0;
	}
	l = (void *)bpf_kptr_xchg(&s->stashed, l);
	if (l)
		bpf_obj_drop(l);
	return 0;
}

SEC("tc") __failure __msg("R2 type=scalar expected=ptr_, trusted_ptr_, rcu_ptr_")
int stash_dropped(void *ctx)
{
	struct small *n = bpf_obj_new(typeof(*n));
	struct slot *s;

	if (!n)
		return 0;
	s = bpf_map_lookup_elem(&slots, &zero);
	bpf_obj_drop(n);
	if (!s)
		return 0;
	n = bpf_kptr_xchg(&s->stashed, n);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

SEC("tc") __success __retval(7)
int stash_right_type(void *ctx)
{
	struct small *n = bpf_obj_new(typeof(*n));
	struct slot *s;
	int ret = 7;

	if (!n)
		return 0;
	n->value = 7;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(n);
		return 0;
	}
	n = bpf_kptr_xchg(&s->stashed, n);
	if (n)
		bpf_obj_drop(n);
	n = bpf_kptr_xchg(&s->stashed, NULL);
	if (n) {
		ret = (int)n->value;
		bpf_obj_drop(n);
	}
	return ret;
}

char _license[] SEC("license") = "GPL";
