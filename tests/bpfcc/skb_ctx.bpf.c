// SPDX-License-Identifier: MIT
/*
 * The context a tc program sees: the kernel's BPF_PROG_TEST_RUN (the --kernel referee) runs it on
 * the runner's 64-byte IPv4 packet, so the native run's struct __sk_buff carries the same length
 * and protocol (bpfrt_main.c, skb_ctx_fill()); what a program computes from them is then the
 * kernel's return value.  6.12's test_spin_lock.c returns ctx->len from static subprograms
 * called around a bpf_spin_lock (lock_static_subprog_lock: 64 in the running 6.18).  Checked
 * against the running 6.18 (tests/bpfcc/agree.sh).
 *
 * It includes <linux/bpf.h>, not vmlinux.h, as test_spin_lock.c does: that needs the host's
 * multiarch headers (<asm/types.h>) in the BPF build, which kfsim-bpf-cc adds as the selftests'
 * Makefile does (-idirafter /usr/include/<multiarch>).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpf_misc.h"

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock lock;

SEC("tc") __success __retval(64)
int skb_len(struct __sk_buff *ctx)
{
	return ctx->len;
}

SEC("tc") __success __retval(1)
int skb_protocol_ipv4(struct __sk_buff *ctx)
{
	return ctx->protocol == bpf_htons(0x0800);
}

/* the test run's device: the namespace's loopback */
SEC("tc") __success __retval(1)
int skb_ifindex(struct __sk_buff *ctx)
{
	return ctx->ifindex;
}

SEC("tc") __success __retval(0)
int skb_mark(struct __sk_buff *ctx)
{
	return ctx->mark;
}

/* the length read in a static subprogram that takes the lock, as test_spin_lock.c does */
static __noinline int len_then_lock(struct __sk_buff *ctx)
{
	volatile int ret = 0;

	ret = ctx->protocol ? 0 : 1;
	bpf_spin_lock(&lock);
	return ret + ctx->len;
}

SEC("tc") __success __retval(64)
int skb_len_in_locking_subprog(struct __sk_buff *ctx)
{
	int ret = len_then_lock(ctx);

	bpf_spin_unlock(&lock);
	return ret;
}

char _license[] SEC("license") = "GPL";
