/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_COMPAT_NATIVE_HELPERS_H
#define KFSIM_BPF_COMPAT_NATIVE_HELPERS_H
/*
 * <bpf/bpf_helpers.h> for a BPF C file compiled natively by kfsim-bpf-cc.
 *
 * libbpf's own header is used as it is (SEC() is a section attribute, __ksym and __hidden are
 * attributes, map definitions are structs of pointers: all valid C on any target), except for
 * the helpers: libbpf declares each one as a pointer to its helper number ("= (void *) 1"),
 * which natively would be a call to address 1.  The helpers kfsim runs are renamed before
 * libbpf's declarations and declared here as functions of the kfsim BPF runtime; a program that
 * calls another helper is refused by kfsim-bpf-cc, which names the helper and the line.
 */

/* The helpers the native runtime provides (src/bpfcc/runtime/bpfrt_helpers.c); kfsim-bpf-cc
 * knows the same list (src/bpfcc/bpfcc_check.c). */
#define bpf_map_lookup_elem __kfsim_libbpf_bpf_map_lookup_elem
#define bpf_map_update_elem __kfsim_libbpf_bpf_map_update_elem
#define bpf_map_delete_elem __kfsim_libbpf_bpf_map_delete_elem
#define bpf_ktime_get_ns __kfsim_libbpf_bpf_ktime_get_ns
#define bpf_trace_printk __kfsim_libbpf_bpf_trace_printk
#define bpf_get_prandom_u32 __kfsim_libbpf_bpf_get_prandom_u32
#define bpf_get_smp_processor_id __kfsim_libbpf_bpf_get_smp_processor_id
#define bpf_spin_lock __kfsim_libbpf_bpf_spin_lock
#define bpf_spin_unlock __kfsim_libbpf_bpf_spin_unlock
#define bpf_per_cpu_ptr __kfsim_libbpf_bpf_per_cpu_ptr
#define bpf_this_cpu_ptr __kfsim_libbpf_bpf_this_cpu_ptr
#define bpf_kptr_xchg __kfsim_libbpf_bpf_kptr_xchg
#define bpf_jiffies64 __kfsim_libbpf_bpf_jiffies64
#define bpf_ktime_get_boot_ns __kfsim_libbpf_bpf_ktime_get_boot_ns
#define bpf_ktime_get_coarse_ns __kfsim_libbpf_bpf_ktime_get_coarse_ns
#define bpf_ktime_get_tai_ns __kfsim_libbpf_bpf_ktime_get_tai_ns
#define bpf_map_lookup_percpu_elem __kfsim_libbpf_bpf_map_lookup_percpu_elem
#define bpf_probe_read_kernel __kfsim_libbpf_bpf_probe_read_kernel
#define bpf_skb_load_bytes __kfsim_libbpf_bpf_skb_load_bytes
#define bpf_get_current_comm __kfsim_libbpf_bpf_get_current_comm
#define bpf_loop __kfsim_libbpf_bpf_loop
#define bpf_for_each_map_elem __kfsim_libbpf_bpf_for_each_map_elem
#define bpf_ringbuf_output __kfsim_libbpf_bpf_ringbuf_output
#define bpf_ringbuf_reserve __kfsim_libbpf_bpf_ringbuf_reserve
#define bpf_ringbuf_submit __kfsim_libbpf_bpf_ringbuf_submit
#define bpf_ringbuf_discard __kfsim_libbpf_bpf_ringbuf_discard
#define bpf_ringbuf_query __kfsim_libbpf_bpf_ringbuf_query

#include_next <bpf/bpf_helpers.h>

#undef bpf_map_lookup_elem
#undef bpf_map_update_elem
#undef bpf_map_delete_elem
#undef bpf_ktime_get_ns
#undef bpf_trace_printk
#undef bpf_get_prandom_u32
#undef bpf_get_smp_processor_id
#undef bpf_spin_lock
#undef bpf_spin_unlock
#undef bpf_per_cpu_ptr
#undef bpf_this_cpu_ptr
#undef bpf_kptr_xchg
#undef bpf_jiffies64
#undef bpf_ktime_get_boot_ns
#undef bpf_ktime_get_coarse_ns
#undef bpf_ktime_get_tai_ns
#undef bpf_map_lookup_percpu_elem
#undef bpf_probe_read_kernel
#undef bpf_skb_load_bytes
#undef bpf_get_current_comm
#undef bpf_loop
#undef bpf_for_each_map_elem
#undef bpf_ringbuf_output
#undef bpf_ringbuf_reserve
#undef bpf_ringbuf_submit
#undef bpf_ringbuf_discard
#undef bpf_ringbuf_query

/*
 * SEC(): libbpf's section attribute, with a suffix that makes every use its own section
 * (".data.A" becomes ".data.A.kfsimN").  kfsim-bpf-cc compiles the program twice: the first
 * build tells which variable each N is, the second names a data section's variables after
 * their offsets in the BPF object (kfsim_bpfcc_order.h) and links with --sort-section=name, so
 * that natively a "private(A)" variable sits where it sits in the BPF object and kfsim's
 * messages give the verifier's offsets.
 */
#ifndef KFSIM_BPFCC_SEC_SUFFIX
#define KFSIM_BPFCC_SEC_SUFFIX(n) ".kfsim" #n
#endif
#define __KFSIM_BPFCC_SEC_SUFFIX(n) KFSIM_BPFCC_SEC_SUFFIX(n)
#undef SEC
#define SEC(name) __attribute__((section(name __KFSIM_BPFCC_SEC_SUFFIX(__COUNTER__)), used))

/*
 * The kernel's helper prototypes (include/uapi/linux/bpf.h), as functions.  The call site is
 * recorded for kfsim's reports; the spin lock helpers and bpf_kptr_xchg are kfsim's checked ones.
 */
struct bpf_spin_lock;
void *kfsim_bpfrt_map_lookup_elem(void *map, const void *key, const char *file, int line);
long kfsim_bpfrt_map_update_elem(void *map, const void *key, const void *value,
				 unsigned long long flags, const char *file, int line);
long kfsim_bpfrt_map_delete_elem(void *map, const void *key, const char *file, int line);
unsigned long long kfsim_bpfrt_ktime_get_ns(void);
long kfsim_bpfrt_trace_printk(const char *fmt, unsigned int fmt_size, ...);
unsigned int kfsim_bpfrt_get_prandom_u32(void);
unsigned int kfsim_bpfrt_get_smp_processor_id(void);
long kfsim_bpfrt_spin_lock(struct bpf_spin_lock *lock, const char *file, int line);
long kfsim_bpfrt_spin_unlock(struct bpf_spin_lock *lock, const char *file, int line);
void *kfsim_bpfrt_per_cpu_ptr(const void *percpu_ptr, unsigned int cpu);
void *kfsim_bpfrt_this_cpu_ptr(const void *percpu_ptr);
void *kfsim_bpfrt_kptr_xchg(void *map_value, void *ptr, const char *file, int line);
unsigned long long kfsim_bpfrt_jiffies64(void);
unsigned long long kfsim_bpfrt_ktime_get_boot_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_coarse_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_tai_ns(void);
void *kfsim_bpfrt_map_lookup_percpu_elem(void *map, const void *key, unsigned int cpu,
					 const char *file, int line);
long kfsim_bpfrt_probe_read_kernel(void *dst, unsigned int size, const void *unsafe_ptr);
long kfsim_bpfrt_skb_load_bytes(const void *skb, unsigned int offset, void *to, unsigned int len,
				const char *file, int line);
long kfsim_bpfrt_get_current_comm(void *buf, unsigned int size_of_buf, const char *file,
				  int line);
/* the callback is the program's function; natively any function pointer converts to void * */
long kfsim_bpfrt_loop(unsigned int nr_loops, void *callback_fn, void *callback_ctx,
		      unsigned long long flags, int nr_const, const char *file, int line);
void *kfsim_bpfrt_ringbuf_reserve(void *map, unsigned long long size, unsigned long long flags,
				  int size_known, const char *file, int line);
void kfsim_bpfrt_ringbuf_submit(void *data, unsigned long long flags, const char *file, int line);
void kfsim_bpfrt_ringbuf_discard(void *data, unsigned long long flags, const char *file, int line);
long kfsim_bpfrt_ringbuf_output(void *map, const void *data, unsigned long long size,
				unsigned long long flags, const char *file, int line);
unsigned long long kfsim_bpfrt_ringbuf_query(void *map, unsigned long long flags,
					     const char *file, int line);
long kfsim_bpfrt_for_each_map_elem(void *map, void *callback_fn, void *callback_ctx,
				   unsigned long long flags, const char *file, int line);

#define bpf_map_lookup_elem(map, key) kfsim_bpfrt_map_lookup_elem(map, key, __FILE__, __LINE__)
#define bpf_map_update_elem(map, key, value, flags)                                               \
	kfsim_bpfrt_map_update_elem(map, key, value, flags, __FILE__, __LINE__)
#define bpf_map_delete_elem(map, key) kfsim_bpfrt_map_delete_elem(map, key, __FILE__, __LINE__)
#define bpf_ktime_get_ns kfsim_bpfrt_ktime_get_ns
#define bpf_trace_printk kfsim_bpfrt_trace_printk
#define bpf_get_prandom_u32 kfsim_bpfrt_get_prandom_u32
#define bpf_get_smp_processor_id kfsim_bpfrt_get_smp_processor_id
#define bpf_spin_lock(lock) kfsim_bpfrt_spin_lock(lock, __FILE__, __LINE__)
#define bpf_spin_unlock(lock) kfsim_bpfrt_spin_unlock(lock, __FILE__, __LINE__)
#define bpf_per_cpu_ptr kfsim_bpfrt_per_cpu_ptr
#define bpf_this_cpu_ptr kfsim_bpfrt_this_cpu_ptr
#define bpf_kptr_xchg(map_value, ptr) kfsim_bpfrt_kptr_xchg(map_value, ptr, __FILE__, __LINE__)
#define bpf_jiffies64 kfsim_bpfrt_jiffies64
#define bpf_ktime_get_boot_ns kfsim_bpfrt_ktime_get_boot_ns
#define bpf_ktime_get_coarse_ns kfsim_bpfrt_ktime_get_coarse_ns
#define bpf_ktime_get_tai_ns kfsim_bpfrt_ktime_get_tai_ns
#define bpf_map_lookup_percpu_elem(map, key, cpu)                                                  \
	kfsim_bpfrt_map_lookup_percpu_elem(map, key, cpu, __FILE__, __LINE__)
#define bpf_probe_read_kernel kfsim_bpfrt_probe_read_kernel
#define bpf_skb_load_bytes(skb, offset, to, len)                                                   \
	kfsim_bpfrt_skb_load_bytes(skb, offset, to, len, __FILE__, __LINE__)
#define bpf_get_current_comm(buf, size_of_buf)                                                     \
	kfsim_bpfrt_get_current_comm(buf, size_of_buf, __FILE__, __LINE__)
/* whether the bound is a constant: the verifier walks the callback only up to its bound */
#define bpf_loop(nr_loops, callback_fn, callback_ctx, flags)                                       \
	kfsim_bpfrt_loop(nr_loops, (void *)(callback_fn), callback_ctx, flags,                     \
			 __builtin_constant_p(nr_loops), __FILE__, __LINE__)
#define bpf_for_each_map_elem(map, callback_fn, callback_ctx, flags)                               \
	kfsim_bpfrt_for_each_map_elem(map, (void *)(callback_fn), callback_ctx, flags, __FILE__,  \
				      __LINE__)
/* ring buffers (src/bpfcc/runtime/bpfrt_ringbuf.c); reserve's size must be a known constant */
#define bpf_ringbuf_reserve(map, size, flags)                                                      \
	kfsim_bpfrt_ringbuf_reserve(map, size, flags, __builtin_constant_p(size), __FILE__, __LINE__)
#define bpf_ringbuf_submit(data, flags) kfsim_bpfrt_ringbuf_submit(data, flags, __FILE__, __LINE__)
#define bpf_ringbuf_discard(data, flags)                                                           \
	kfsim_bpfrt_ringbuf_discard(data, flags, __FILE__, __LINE__)
#define bpf_ringbuf_output(map, data, size, flags)                                                 \
	kfsim_bpfrt_ringbuf_output(map, data, size, flags, __FILE__, __LINE__)
#define bpf_ringbuf_query(map, flags) kfsim_bpfrt_ringbuf_query(map, flags, __FILE__, __LINE__)

/*
 * may_goto (6.9+), behind bpf_experimental.h's can_loop and cond_break.  Those macros are
 * "asm volatile goto" with the BPF instruction: the mnemonic "may_goto %l[label]" when the
 * compiler says __BPF_FEATURE_MAY_GOTO, else its raw bytes (.byte 0xe5 ...), which natively
 * would be executed as x86 code.  So natively the feature is declared, and "may_goto" is an
 * assembler macro that asks the runtime's loop budget (src/bpfcc/runtime/bpfrt_may_goto.c)
 * with the function's stack pointer (its frame: gcc sets up no frame pointer in a leaf) and
 * jumps to the label when the budget is spent.  The compiler does not know the asm calls: the
 * macro steps over the red zone, keeps every caller-saved general register and aligns the
 * stack itself (the runtime keeps the SSE state); the flags are the asm's to clobber on x86.
 */
#if defined(__x86_64__)
#ifndef __BPF_FEATURE_MAY_GOTO
#define __BPF_FEATURE_MAY_GOTO 1
#endif
__asm__(".macro may_goto target:req\n\t"
	"lea -128(%rsp), %rsp\n\t"
	"push %rax\n\tpush %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n\t"
	"push %r8\n\tpush %r9\n\tpush %r10\n\tpush %r11\n\tpush %rbx\n\t"
	"mov %rsp, %rbx\n\t"
	"and $-16, %rsp\n\t"
	"mov %rbx, %rdi\n\t"
	"call kfsim_bpfrt_may_goto@PLT\n\t"
	"test %eax, %eax\n\t" /* ZF: spent; nothing below changes the flags */
	"mov %rbx, %rsp\n\t"
	"pop %rbx\n\tpop %r11\n\tpop %r10\n\tpop %r9\n\tpop %r8\n\t"
	"pop %rdi\n\tpop %rsi\n\tpop %rdx\n\tpop %rcx\n\tpop %rax\n\t"
	"lea 128(%rsp), %rsp\n\t"
	"jz \\target\n"
	".endm\n");
#endif

/*
 * bpf_core_type_id_local(type) is __builtin_btf_type_id(*(typeof(type) *)0, 0): natively the
 * _Generic map of the program's struct types to their BTF ids that kfsim-bpf-cc generated from
 * the program's own BTF (kfsim_bpfcc_types.h), turned into the id kfsim's bpf_obj_new_impl()
 * takes.
 */
unsigned long long kfsim_bpfrt_local_type_id(unsigned int btf_id);
#define __builtin_btf_type_id(expr, kind) kfsim_bpfrt_local_type_id(KFSIM_BPFCC_BTF_ID_OF(expr))
#ifndef KFSIM_BPFCC_BTF_ID_OF
#define KFSIM_BPFCC_BTF_ID_OF(expr) 0u
#endif

#endif /* KFSIM_BPF_COMPAT_NATIVE_HELPERS_H */
