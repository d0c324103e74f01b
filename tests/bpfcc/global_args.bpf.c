// SPDX-License-Identifier: MIT
/*
 * Calls of global functions checked against their BTF prototypes, as the verifier checks them
 * (btf_check_subprog_call(), the running 6.18): a global function is verified once, on its own,
 * so a void or pointer return is refused at the call, a pointer to a struct only declared has
 * no size, a pointer argument must have the bytes its type promises above it in the caller's
 * stack frame and be writable (not .rodata), and the callee must check such a pointer for NULL.  Each refusal at the call is
 * followed by "Caller passes invalid args into func#N ('f')", N the callee's subprogram number in
 * the program as libbpf loads it; and chains of calls too deep.  Checked against the running
 * 6.18 (tests/bpfcc/agree.sh).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

struct big {
	long a, b, c;
};
struct only_declared;

__noinline void g_void(int x)
{
	bpf_printk("%d\n", x);
}

__noinline int g_big(const struct big *b)
{
	return b ? b->c : 0;
}

__noinline int g_declared(struct only_declared *p)
{
	return p ? 1 : 0;
}

__noinline int g_scalars(int a, long b)
{
	return a + b;
}

__noinline int g_unchecked(const struct big *b)
{
	return b->a; /* no NULL check: the verifier refuses the callee */
}

SEC("tc") __failure
__msg("Global function g_void() doesn't return scalar. Only those are supported.")
__msg("Caller passes invalid args into func#1 ('g_void')")
int call_void(struct __sk_buff *skb)
{
	g_void(skb->len);
	return 0;
}

SEC("tc") __failure __msg("invalid read from stack R1 off=-8 size=24")
__msg("Caller passes invalid args into func#1 ('g_big')")
int call_small_stack(struct __sk_buff *skb)
{
	long x = skb->len;

	return g_big((void *)&x);
}

/* the second global function called is func#2 */
SEC("tc") __failure __msg("Caller passes invalid args into func#2 ('g_big')")
int call_second_global(struct __sk_buff *skb)
{
	long x = skb->len;

	return g_scalars(1, 2) + g_big((void *)&x);
}

SEC("tc") __success __retval(3)
int call_big_enough(struct __sk_buff *skb)
{
	struct big b = {1, 2, 3};

	return g_big(&b);
}

SEC("tc") __success __retval(0)
int call_null(struct __sk_buff *skb)
{
	return g_big(NULL);
}

SEC("tc") __failure __msg("arg#0 reference type('FWD only_declared') size cannot be determined: -22")
int call_declared(struct __sk_buff *skb)
{
	long x = 0;

	return g_declared((void *)&x);
}

SEC("tc") __failure __msg("R1 invalid mem access 'mem_or_null'")
int call_unchecked(struct __sk_buff *skb)
{
	struct big b = {skb->len, skb->len, skb->len};

	return g_unchecked(&b);
}

/* the memory is read and written: a read-only global (.rodata) is refused */
__noinline int g_count(int *p)
{
	barrier_var(p);
	return p ? ++*p : 0;
}

const volatile int start_count;

SEC("tc") __failure __msg("write into map forbidden, value_size=36 off=32 size=4")
__msg("Caller passes invalid args into func#1 ('g_count')")
int call_rodata(struct __sk_buff *skb)
{
	return g_count((int *)&start_count);
}

/* the context where memory goes: refused at the call, before the callee's own refusal */
__noinline int load_into(struct big *b, struct __sk_buff *skb)
{
	if (!b)
		return -1;
	return bpf_skb_load_bytes(skb, 0, b, sizeof(*b));
}

SEC("tc") __failure __msg("R1 type=ctx expected=fp")
__msg("Caller passes invalid args into func#1 ('load_into')")
int call_swapped(struct __sk_buff *skb)
{
	struct big b = {};

	return load_into((void *)skb, (void *)&b);
}

/* memory over a special field of a global or a map value: check_map_access() refuses it */
struct locked {
	long count;
	struct bpf_spin_lock lock;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) long before_lock;
private(L) struct bpf_spin_lock glock;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct locked);
} locked_map SEC(".maps");

__noinline long peek_long(long *p)
{
	return p ? *p : 0;
}

__noinline int peek_lock(struct bpf_spin_lock *l)
{
	return l ? 1 : 0;
}

SEC("tc") __failure __msg("bpf_spin_lock cannot be accessed directly by load/store")
__msg("Caller passes invalid args into func#1 ('peek_lock')")
int call_section_lock(struct __sk_buff *skb)
{
	return peek_lock(&glock);
}

SEC("tc") __success __retval(0)
int call_section_long(struct __sk_buff *skb)
{
	return peek_long(&before_lock);
}

SEC("tc") __failure __msg("bpf_spin_lock cannot be accessed directly by load/store")
int call_value_lock(struct __sk_buff *skb)
{
	int key = 0;
	struct locked *v = bpf_map_lookup_elem(&locked_map, &key);

	if (!v)
		return 0;
	return peek_lock(&v->lock) + peek_long(&v->count);
}

/*
 * In the callee a pointer argument is memory of its type's size only: a char * is one byte to
 * fill, an int * one int to read, whatever the caller passed.
 */
__noinline int fill_name(char *buf)
{
	if (!buf)
		return -1;
	return bpf_get_current_comm(buf, 16);
}

__noinline int second_int(int *p)
{
	return p ? p[1] : 0;
}

SEC("tc") __failure __msg("invalid access to memory, mem_size=1 off=0 size=16")
__msg("R1 min value is outside of the allowed memory range")
int call_fill_name(struct __sk_buff *skb)
{
	char name[16];

	return fill_name(name);
}

SEC("tc") __failure __msg("invalid access to memory, mem_size=4 off=4 size=4")
int call_second_int(struct __sk_buff *skb)
{
	int pair[2] = {skb->len, skb->len};

	return second_int(pair);
}

/*
 * The context given as memory, by program type (the running 6.18): refused against the stack in
 * the packet programs, its last byte not writable in the tracing ones, memory in a syscall one.
 */
struct user_mem {
	long x;
};

__noinline int take_mem(struct user_mem *m)
{
	return m ? m->x : 0;
}

SEC("socket") __failure __msg("R1 type=ctx expected=fp")
int socket_ctx_as_mem(struct __sk_buff *ctx)
{
	return take_mem((void *)ctx);
}

SEC("tracepoint") __failure __msg("invalid bpf_context access off=7 size=1")
__msg("Caller passes invalid args into func#1 ('take_mem')")
int tp_ctx_as_mem(void *ctx)
{
	return take_mem(ctx);
}

SEC("kprobe") __failure __msg("invalid bpf_context access off=7 size=1")
int kprobe_ctx_as_mem(void *ctx)
{
	return take_mem(ctx);
}

SEC("syscall") __success
int syscall_ctx_as_mem(void *ctx)
{
	return take_mem(ctx);
}

/*
 * Call chains (MAX_CALL_FRAMES, 8): walking into static functions the verifier refuses the call
 * that would make a ninth frame; once all else passed it follows global calls too and refuses
 * a chain of eight frames, the last global function's validation the line before.
 */
static __noinline int chain1(struct __sk_buff *skb) { return skb->len; }
static __noinline int chain2(struct __sk_buff *skb) { return chain1(skb) + 1; }
static __noinline int chain3(struct __sk_buff *skb) { return chain2(skb) + 1; }
static __noinline int chain4(struct __sk_buff *skb) { return chain3(skb) + 1; }
static __noinline int chain5(struct __sk_buff *skb) { return chain4(skb) + 1; }
static __noinline int chain6(struct __sk_buff *skb) { return chain5(skb) + 1; }
static __noinline int chain7(struct __sk_buff *skb) { return chain6(skb) + 1; }
static __noinline int chain8(struct __sk_buff *skb) { return chain7(skb) + 1; }
__noinline int g2(struct __sk_buff *skb) { return chain6(skb) + 1; }
__noinline int g1(struct __sk_buff *skb) { return g2(skb) + 1; }

SEC("tc") __success __retval(70)
int static_chain_of_7(struct __sk_buff *skb)
{
	return chain7(skb);
}

SEC("tc") __failure __msg("the call stack of 9 frames is too deep")
int static_chain_of_8(struct __sk_buff *skb)
{
	return chain8(skb);
}

SEC("tc") __failure __msg("Func#2 ('g2') is safe for any args that match its prototype")
__msg("the call stack of 8 frames is too deep !")
int global_chain_of_8(struct __sk_buff *skb)
{
	return g1(skb);
}

char _license[] SEC("license") = "GPL";
