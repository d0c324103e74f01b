// SPDX-License-Identifier: MIT
/*
 * A __kptr member whose struct the object only declares: clang emits a forward declaration for
 * a struct the program uses only through that pointer (here struct plain: nothing allocates
 * one).  At BTF load the kernel parses every struct with a special field or a __kptr to a
 * defined struct as a member (btf_parse_struct_metas(), 6.12's source), and btf_find_kptr()
 * wants a struct behind each __kptr ("Only pointer to struct is allowed"): the whole BTF is
 * refused, libbpf loads the programs without it, and each program fails on the first thing
 * that needs it.  Checked against the running 6.18 (tests/bpfcc/agree.sh).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 key;
};

struct plain;

/* item is defined (bpf_obj_new allocates one), plain only declared */
struct slot {
	struct item __kptr *item;
	struct plain __kptr *plain;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct slot);
	__uint(max_entries, 1);
} slots SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(item, link);

/* no program BTF: no local type to allocate */
SEC("tc") __failure __msg("bpf_obj_new/bpf_percpu_obj_new requires prog BTF")
int alloc_without_btf(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (n)
		bpf_obj_drop(n);
	return 0;
}

/* the section's map was created without BTF too: its lock is no lock */
SEC("tc") __failure __msg("map '.data.L' has to have BTF in order to use bpf_spin_lock")
int lock_without_btf(void *ctx)
{
	bpf_spin_lock(&lock);
	bpf_spin_unlock(&lock);
	return 0;
}

/* nor has the array map: its value has no __kptr field to exchange (process_kptr_func()) */
SEC("tc") __failure __msg("map 'slots' has to have BTF in order to use bpf_kptr_xchg")
int xchg_without_btf(void *ctx)
{
	struct item *old;
	struct slot *s;
	int key = 0;

	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return 0;
	old = bpf_kptr_xchg(&s->item, NULL);
	if (old)
		bpf_obj_drop(old);
	return 0;
}

/* a program that needs no BTF still loads */
SEC("tc") __success __retval(1)
int plain_program(void *ctx)
{
	return 1;
}

char _license[] SEC("license") = "GPL";
