// SPDX-License-Identifier: MIT
/*
 * The BPF helpers a natively built program may call (include/bpf-compat/native/bpf/
 * bpf_helpers.h declares them; kfsim-bpf-cc refuses the others).  bpf_spin_lock,
 * bpf_spin_unlock and bpf_kptr_xchg are kfsim's checked ones; the call site is recorded so that
 * kfsim's reports name the program's line.
 */
#define _GNU_SOURCE /* process_vm_readv() */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/random.h>
#include "bpfrt.h"

#define TASK_COMM_LEN 16 /* include/linux/sched.h */

void bpfrt_site(const char *file, int line)
{
	kfsim_bpf_site.file = file;
	kfsim_bpf_site.line = line;
}

/* A refused helper returns what the program can live with: the run ends rejected anyway. */
int bpfrt_helper(const char *name, const char *file, int line)
{
	int err;

	if (file)
		bpfrt_site(file, line);
	err = kfsim_bpf_helper_enter(name);
	bpfrt_site(NULL, 0);
	return err;
}

long kfsim_bpfrt_spin_lock(struct bpf_spin_lock *lock, const char *file, int line);
long kfsim_bpfrt_spin_lock(struct bpf_spin_lock *lock, const char *file, int line)
{
	bpfrt_site(file, line);
	(bpf_spin_lock)(lock);
	bpfrt_site(NULL, 0); /* the kfuncs called next are located from the stack */
	return 0;
}

long kfsim_bpfrt_spin_unlock(struct bpf_spin_lock *lock, const char *file, int line);
long kfsim_bpfrt_spin_unlock(struct bpf_spin_lock *lock, const char *file, int line)
{
	bpfrt_site(file, line);
	(bpf_spin_unlock)(lock);
	bpfrt_site(NULL, 0);
	return 0;
}

void *kfsim_bpfrt_kptr_xchg(void *map_value, void *ptr, const char *file, int line);
void *kfsim_bpfrt_kptr_xchg(void *map_value, void *ptr, const char *file, int line)
{
	void *old;

	bpfrt_site(file, line);
	old = (bpf_kptr_xchg)(map_value, ptr);
	bpfrt_site(NULL, 0);
	return old;
}

/* The time helpers read the clock the kernel's does: bpf_ktime_get_ns() CLOCK_MONOTONIC, ... */
static unsigned long long clock_ns(const char *helper, clockid_t clock)
{
	struct timespec ts;

	if (bpfrt_helper(helper, NULL, 0))
		return 0;
	clock_gettime(clock, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

unsigned long long kfsim_bpfrt_ktime_get_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_ns(void)
{
	return clock_ns("bpf_ktime_get_ns", CLOCK_MONOTONIC);
}

unsigned long long kfsim_bpfrt_ktime_get_boot_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_boot_ns(void)
{
	return clock_ns("bpf_ktime_get_boot_ns", CLOCK_BOOTTIME);
}

unsigned long long kfsim_bpfrt_ktime_get_coarse_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_coarse_ns(void)
{
	return clock_ns("bpf_ktime_get_coarse_ns", CLOCK_MONOTONIC_COARSE);
}

unsigned long long kfsim_bpfrt_ktime_get_tai_ns(void);
unsigned long long kfsim_bpfrt_ktime_get_tai_ns(void)
{
	return clock_ns("bpf_ktime_get_tai_ns", CLOCK_TAI);
}

/*
 * bpf_jiffies64(): jiffies at Debian's CONFIG_HZ (250) from CLOCK_MONOTONIC.  The kernel's count
 * starts at INITIAL_JIFFIES at boot; a program can only compare two readings, as here.
 */
#define BPFRT_HZ 250
unsigned long long kfsim_bpfrt_jiffies64(void);
unsigned long long kfsim_bpfrt_jiffies64(void)
{
	return clock_ns("bpf_jiffies64", CLOCK_MONOTONIC) / (1000000000ull / BPFRT_HZ);
}

/* bpf_trace_printk(): to stdout, a line each, prefixed as the trace pipe's lines are. */
long kfsim_bpfrt_trace_printk(const char *fmt, unsigned int fmt_size, ...);
long kfsim_bpfrt_trace_printk(const char *fmt, unsigned int fmt_size, ...)
{
	va_list ap;
	int n;

	if (bpfrt_helper("bpf_trace_printk", NULL, 0))
		return -EINVAL;
	fputs("bpf_trace_printk: ", stdout);
	va_start(ap, fmt_size);
	n = vprintf(fmt, ap);
	va_end(ap);
	/* the trace pipe shows each event on its own line, with or without the format's '\n' */
	if (!fmt_size || !memchr(fmt, '\n', fmt_size))
		putchar('\n');
	return n;
}

unsigned int kfsim_bpfrt_get_prandom_u32(void);
unsigned int kfsim_bpfrt_get_prandom_u32(void)
{
	static struct rnd_state state;
	static bool seeded;

	if (bpfrt_helper("bpf_get_prandom_u32", NULL, 0))
		return 0;
	if (!seeded) { /* fixed seed: a run is reproducible */
		prandom_seed_state(&state, 42);
		seeded = true;
	}
	return prandom_u32_state(&state);
}

unsigned int kfsim_bpfrt_get_smp_processor_id(void);
unsigned int kfsim_bpfrt_get_smp_processor_id(void)
{
	if (bpfrt_helper("bpf_get_smp_processor_id", NULL, 0))
		return 0;
	return 0; /* one CPU: per-CPU data has one copy */
}

void *kfsim_bpfrt_per_cpu_ptr(const void *percpu_ptr, unsigned int cpu);
void *kfsim_bpfrt_per_cpu_ptr(const void *percpu_ptr, unsigned int cpu)
{
	if (bpfrt_helper("bpf_per_cpu_ptr", NULL, 0) ||
	    kfsim_bpf_percpu_arg("bpf_per_cpu_ptr", percpu_ptr))
		return NULL;
	return cpu ? NULL : (void *)percpu_ptr;
}

void *kfsim_bpfrt_this_cpu_ptr(const void *percpu_ptr);
void *kfsim_bpfrt_this_cpu_ptr(const void *percpu_ptr)
{
	if (bpfrt_helper("bpf_this_cpu_ptr", NULL, 0) ||
	    kfsim_bpf_percpu_arg("bpf_this_cpu_ptr", percpu_ptr))
		return NULL;
	return (void *)percpu_ptr;
}

/*
 * Under ASan (the program built with --sanitize address) the frame has redzones between its
 * objects: a range that reaches one is past the buffer, which the frame's top does not show.
 */
extern void *__asan_region_is_poisoned(void *beg, size_t size) __attribute__((weak));

static bool past_object(const char *buf, unsigned long long size)
{
	return __asan_region_is_poisoned && size && __asan_region_is_poisoned((void *)buf, size);
}

/*
 * A helper's buffer (ARG_PTR_TO_MEM or ARG_PTR_TO_UNINIT_MEM, its size the next argument):
 * never an object of bpf_obj_new(), and within a map value (check_helper_mem_access() ->
 * check_map_access(), the running 6.18's two lines).  The stack's bounds come from the BPF
 * object (bpfrt_refused_call()): natively a buffer's size on the stack is not known.
 */
int bpfrt_helper_mem(const char *name, int regno, const void *p, unsigned long long size,
		     const void *frame)
{
	const char *here = __builtin_frame_address(0), *buf = p;
	const char *refused = bpfrt_refused_call(kfsim_bpf_site.file, kfsim_bpf_site.line);
	unsigned int value_size, off;

	/* refused from the program's text (a buffer past the frame): never written past */
	if (refused)
		return kfsim_bpf_helper_refused(name, "the verifier refuses this call's arguments",
						"%s", refused);
	if (kfsim_bpf_helper_mem_arg(name, regno, p))
		return -EINVAL;
	/* a callback's key (check_helper_mem_access(): PTR_TO_MAP_KEY is read-only) */
	if (bpfrt_callback_key(p, size ? size : 1))
		return kfsim_bpf_helper_refused(name, "a callback's map key is read-only",
						"R%d cannot write into map_key", regno);
	/*
	 * A buffer of the calling program's stack that the size runs past the program's frame: a
	 * size the BPF object does not know (data), which the verifier bounds before anything else
	 * (check_mem_size_reg(): the usual refusal of an unchecked length); natively the write
	 * would smash the frame.
	 */
	if (frame && buf > here && buf < (const char *)frame &&
	    (size > (unsigned long long)((const char *)frame - buf) || past_object(buf, size)))
		return kfsim_bpf_helper_refused(
			name, "the size passes the program's stack frame: the verifier bounds it first",
			"R%d unbounded memory access, use 'var &= const' or 'if (var < const)'",
			regno + 1);
	if (bpfrt_map_value_at(p, &value_size, &off) && off + size > value_size)
		return kfsim_bpf_helper_refused(
			name, "a helper's buffer in a map value must lie within the value",
			"invalid access to map value, value_size=%u off=%u size=%llu\n"
			"R%d min value is outside of the allowed memory range",
			value_size, off, size, regno);
	return 0;
}

/*
 * The frame pointer of the program that called the helper: the helper's saved one (the native
 * build keeps frame pointers).  A macro, so that it is the helper's own frame it reads.
 */
#define caller_frame() (*(void *const *)__builtin_frame_address(0))

/*
 * The register type check_reg_type() names for pointer @p, @here the asking helper's frame:
 * NULL is a scalar (a constant), the run's context "ctx" (its 4 KiB, bpfrt_main.c).
 */
const char *bpfrt_reg_type(const void *p, const void *here)
{
	const char *at = p, *ctx = bpfrt_run_ctx;

	/* NULL plus an offset: a constant (nothing can be mapped there, BPFRT_USER_RANGE below) */
	if ((uintptr_t)p < 65536)
		return "scalar";
	if (ctx && at >= ctx && at < ctx + 4096)
		return "ctx";
	if (bpfrt_on_prog_stack(p, here))
		return "fp";
	/* natively any other pointer is a map's value, a section (a global) or an object */
	return kfsim_bpf_is_object(p) ? "ptr_" : "map_value";
}

static const char *reg_type_of(const void *p)
{
	return bpfrt_reg_type(p, __builtin_frame_address(0));
}

/*
 * The program types whose func_proto gives bpf_skb_load_bytes (net/core/filter.c, 6.18: socket
 * filters, tc, cgroup_skb, lwt, sk_skb, flow_dissector, sk_reuseport), by libbpf's sections:
 * the skb types of bpfrt_skb_pkt_offset().
 */
static bool skb_load_bytes_allowed(const char *section)
{
	return bpfrt_skb_pkt_offset(section) >= 0;
}

/*
 * bpf_skb_load_bytes() (net/core/filter.c, 6.18): @len bytes of the packet from @offset into
 * @to; an offset past INT_MAX or a range past the packet's end (skb_header_pointer() finds no
 * bytes there) is -EFAULT with @to zeroed.  Natively the packet is the kernel test run's
 * (bpfrt_test_pkt, from where bpfrt_skb_pkt_offset() says), the one the context describes.
 */
long kfsim_bpfrt_skb_load_bytes(const void *skb, unsigned int offset, void *to, unsigned int len,
				const char *file, int line);
long kfsim_bpfrt_skb_load_bytes(const void *skb, unsigned int offset, void *to, unsigned int len,
				const char *file, int line)
{
	int pkt_off;

	if (bpfrt_helper("bpf_skb_load_bytes", file, line))
		return -EINVAL;
	bpfrt_site(file, line);
	if (!skb_load_bytes_allowed(bpfrt_run_section))
		return kfsim_bpf_helper_refused(
			"bpf_skb_load_bytes", "only the packet program types have the helper",
			"program of this type cannot use helper bpf_skb_load_bytes#26");
	if (skb != bpfrt_run_ctx)
		return kfsim_bpf_helper_refused("bpf_skb_load_bytes",
						"its first argument is the program's context",
						"R1 type=%s expected=ctx", reg_type_of(skb));
	if (bpfrt_helper_mem("bpf_skb_load_bytes", 3, to, len, caller_frame()))
		return -EINVAL;
	bpfrt_site(NULL, 0);
	/* the packet from where the program type's starts (a socket filter's: past Ethernet) */
	pkt_off = bpfrt_skb_pkt_offset(bpfrt_run_section);
	if (offset > INT_MAX ||
	    (unsigned long long)offset + len > sizeof(bpfrt_test_pkt) - (size_t)pkt_off) {
		memset(to, 0, len);
		return -EFAULT;
	}
	memcpy(to, bpfrt_test_pkt + pkt_off + offset, len);
	return 0;
}

/*
 * bpf_get_current_comm() (kernel/bpf/helpers.c, 6.18): the current task's name into @buf,
 * strscpy_pad() to @size_of_buf (the verifier makes it at least 1): cut, NUL-terminated, the
 * rest zeroed.  Natively the task is the runner, as it is the kernel's for the test run.
 */
long kfsim_bpfrt_get_current_comm(void *buf, unsigned int size_of_buf, const char *file,
				  int line);
long kfsim_bpfrt_get_current_comm(void *buf, unsigned int size_of_buf, const char *file,
				  int line)
{
	char comm[TASK_COMM_LEN] = "";

	if (bpfrt_helper("bpf_get_current_comm", file, line))
		return -EINVAL;
	bpfrt_site(file, line);
	if (bpfrt_helper_mem("bpf_get_current_comm", 1, buf, size_of_buf, caller_frame()))
		return -EINVAL;
	bpfrt_site(NULL, 0);
	prctl(PR_GET_NAME, comm);
	comm[TASK_COMM_LEN - 1] = '\0';
	memset(buf, 0, size_of_buf);
	if (size_of_buf)
		memcpy(buf, comm, strnlen(comm, size_of_buf - 1));
	return 0;
}

/*
 * bpf_probe_read_kernel(): a copy that faults safely, as copy_from_kernel_nofault(), with @dst
 * zeroed on failure.  x86's copy_from_kernel_nofault_allowed() refuses a user address with
 * -ERANGE before trying; natively every address is the process's, so the user range the
 * kernel would refuse is taken to be the low pages nothing can map (mmap_min_addr, 64 KiB:
 * NULL plus an offset), and any other unreadable address gives -EFAULT.
 */
#define BPFRT_USER_RANGE 65536ul
long kfsim_bpfrt_probe_read_kernel(void *dst, unsigned int size, const void *unsafe_ptr);
long kfsim_bpfrt_probe_read_kernel(void *dst, unsigned int size, const void *unsafe_ptr)
{
	struct iovec local = {dst, size}, remote = {(void *)unsafe_ptr, size};

	if (bpfrt_helper("bpf_probe_read_kernel", NULL, 0) ||
	    bpfrt_helper_mem("bpf_probe_read_kernel", 1, dst, size, caller_frame()))
		return -EINVAL;
	if ((unsigned long)unsafe_ptr < BPFRT_USER_RANGE) {
		memset(dst, 0, size);
		return -ERANGE;
	}
	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)size)
		return 0;
	memset(dst, 0, size);
	return -EFAULT;
}
