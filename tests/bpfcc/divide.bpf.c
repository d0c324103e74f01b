// SPDX-License-Identifier: MIT
/*
 * BPF's division where x86's traps: a division by a register that holds zero gives 0, the
 * remainder the dividend (its low 32 bits for a 32-bit mod), and the signed division of the
 * smallest number by -1 gives that number, its remainder 0 (do_misc_fixups(), 6.18).  Natively
 * gcc's div and idiv raise SIGFPE there: the runtime gives BPF's results (bpfrt_divide.c).
 * Built with --mcpu v4 for the signed ones (clang refuses signed division below v4).  Checked
 * against the running 6.18's test runs (tests/bpfcc/agree.sh); the divisors come from the
 * context or an object, so neither compiler can fold them.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct divisor {
	long by;
	struct bpf_rb_node rb;
};

SEC("tc") __success __retval(1)
int div_by_zero_u64(struct __sk_buff *skb)
{
	__u64 a = skb->len, b = skb->mark;

	return a / b + 1;
}

SEC("tc") __success __retval(64)
int mod_by_zero_u64(struct __sk_buff *skb)
{
	__u64 a = skb->len, b = skb->mark;

	return a % b;
}

SEC("tc") __success __retval(3)
int div_by_zero_u32(struct __sk_buff *skb)
{
	__u32 a = skb->len, b = skb->priority;

	return a / b + 3;
}

SEC("tc") __success __retval(65)
int mod_by_zero_u32(struct __sk_buff *skb)
{
	__u32 a = skb->len, b = skb->priority;

	return (a % b) + 1;
}

/*
 * A divisor read from an object's field, which holds zero.  Written first: the kernel's
 * bpf_obj_new() does not zero the object (docs/bpf-graph.md's differences), and reading the
 * field unwritten gave 100 / 3 + 5 = 38 when the allocator handed back another run's object.
 * The barrier makes both compilers load it again: the verifier sees an unknown divisor.
 */
SEC("tc") __success __retval(5)
int div_by_object_field(struct __sk_buff *skb)
{
	struct divisor *d = bpf_obj_new(typeof(*d));
	long q;

	if (!d)
		return -1;
	d->by = 0;
	asm volatile("" ::: "memory");
	q = 100 / (__u64)d->by;
	bpf_obj_drop(d);
	return q + 5;
}

SEC("tc") __success __retval(1)
int sdiv_min_by_minus_one(struct __sk_buff *skb)
{
	long a = (long)skb->mark - 0x7fffffffffffffffL - 1, b = (long)skb->mark - 1;

	return (a / b) == a;
}

SEC("tc") __success __retval(7)
int smod_min_by_minus_one(struct __sk_buff *skb)
{
	long a = (long)skb->mark - 0x7fffffffffffffffL - 1, b = (long)skb->mark - 1;

	return (a % b) + 7;
}

SEC("tc") __success __retval(9)
int sdiv32_by_zero(struct __sk_buff *skb)
{
	int a = -(int)skb->len, b = skb->mark;

	return a / b + 9;
}

SEC("tc") __success __retval(-64)
int smod32_by_zero(struct __sk_buff *skb)
{
	int a = -(int)skb->len, b = skb->mark;

	return a % b;
}

SEC("tc") __success __retval(1)
int sdiv32_min_by_minus_one(struct __sk_buff *skb)
{
	int a = (int)skb->mark - 0x7fffffff - 1, b = (int)skb->mark - 1;

	return (a / b) == a;
}

/* unsigned char and short: gcc divides them by divb and divw (F6 /6, 66 F7 /6) */
SEC("tc") __success __retval(11)
int div_by_zero_u8(struct __sk_buff *skb)
{
	__u8 a = skb->len, b = skb->mark;

	return (__u8)(a / b) + 11;
}

SEC("tc") __success __retval(64)
int mod_by_zero_u8(struct __sk_buff *skb)
{
	__u8 a = skb->len, b = skb->mark;

	return (__u8)(a % b);
}

SEC("tc") __success __retval(13)
int div_by_zero_u16(struct __sk_buff *skb)
{
	__u16 a = skb->len, b = skb->mark;

	return (__u16)(a / b) + 13;
}

SEC("tc") __success __retval(65)
int mod_by_zero_u16(struct __sk_buff *skb)
{
	__u16 a = skb->len, b = skb->mark;

	return (__u16)(a % b) + 1;
}

/*
 * A zero that reaches the division on one path: gcc -O2 made that path a ud2 trap (SIGILL)
 * before kfsim-bpf-cc built with -fno-isolate-erroneous-paths-dereference.
 */
SEC("tc") __success __retval(15)
int div_by_zero_on_a_path(struct __sk_buff *skb)
{
	__u64 a = skb->len, b = 0;

	if (skb->mark > 100) { /* two values set: no cmov, a path of its own */
		a += 3;
		b = skb->mark;
	}
	return a / b + 15;
}

/* An ordinary division still divides. */
SEC("tc") __success __retval(21)
int sdiv_plain(struct __sk_buff *skb)
{
	long a = -(long)skb->len, b = (long)skb->mark - 3;

	return a / b;
}

char _license[] SEC("license") = "GPL";
