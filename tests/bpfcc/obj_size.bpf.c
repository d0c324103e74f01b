// SPDX-License-Identifier: MIT
/*
 * How large a bpf_obj_new() object may be.  The kernel allocates it from bpf_mem_alloc(), whose
 * largest cache serves 4096 bytes with an 8-byte list header in front, so 4088 bytes is the
 * most a type may hold.  The running 6.18.44 refuses a larger type at the call, whether or not
 * it has special fields ("bpf_obj_new type size (N) is more than the allocator serves"); the
 * mainline texts read check only bpf_percpu_obj_new's size and let the call return NULL.
 * Natively any size would be allocated.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct largest {
	u64 key;
	char data[4080];
};

struct one_byte_more {
	char data[4089];
};

struct big_node {
	struct bpf_rb_node rb;
	u64 key;
	char data[8192];
};

SEC("tc") __success __retval(4088)
int alloc_largest(void *ctx)
{
	struct largest *l = bpf_obj_new(typeof(*l));

	if (!l)
		return 0;
	l->data[4079] = 1;
	bpf_obj_drop(l);
	return sizeof(*l);
}

SEC("tc") __failure __msg("bpf_obj_new type size (4089) is more than the allocator serves")
int alloc_one_byte_more(void *ctx)
{
	struct one_byte_more *o = bpf_obj_new(typeof(*o));

	if (!o)
		return 0;
	o->data[0] = 1;
	bpf_obj_drop(o);
	return 0;
}

SEC("tc") __failure __msg("bpf_obj_new type size (8232) is more than the allocator serves")
int alloc_big_node(void *ctx)
{
	struct big_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	return 0;
}

char _license[] SEC("license") = "GPL";
