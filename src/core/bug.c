// SPDX-License-Identifier: MIT
/*
 * WARN, BUG and panic reports in the kernel's format (kernel/panic.c __warn(), panic(),
 * lib/bug.c; Linux 6.12).  A report is several records logged back to back.  The trailer is
 * print_oops_end_marker()'s "---[ end trace 0000000000000000 ]---": since 5.x the kernel prints
 * a zero there, not a random or counted id.  panic_on_warn (an int on the command line) turns a
 * WARN into a panic.  A panic shows the report on stderr even when the console is muted (as
 * the kfsim program mutes it), then calls the BUG handler: abort() by default, so a process
 * dies of SIGABRT (exit status 134 in a shell).
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/spinlock.h>

static atomic_ulong warn_count;
static _Atomic(kfsim_bug_handler_t) bug_handler;
/* First record of the report being written by this thread, for the panic flush. */
static _Thread_local u64 report_start;
static _Thread_local bool in_report;

static void report_begin(void)
{
	if (!in_report)
		report_start = kfsim_log_next_seq();
	in_report = true;
}

static __noreturn void stop(const char *file, int line, const char *func)
{
	kfsim_bug_handler_t handler = atomic_load(&bug_handler);

	in_report = false;
	if (handler)
		handler(file, line, func);
	abort();
}

static __noreturn __printf(4, 0) void do_panic(const char *file, int line, const char *func,
					       const char *fmt, va_list args)
{
	char buf[1024];
	int len;

	report_begin();
	len = vsnprintf(buf, sizeof(buf), fmt, args);
	if (len > 0 && (size_t)len < sizeof(buf) && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	pr_emerg("Kernel panic - not syncing: %s\n", buf);
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", buf);
	kfsim_console_flush_on_panic(report_start);
	stop(file, line, func);
}

void panic(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	do_panic("panic", 0, "panic", fmt, args);
}

static __noreturn void panic_at(const char *file, int line, const char *func, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	do_panic(file, line, func, fmt, args);
}

void __warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	atomic_fetch_add(&warn_count, 1);
	report_begin();
	pr_warn("------------[ cut here ]------------\n");
	if (fmt) {
		va_list args;

		/* __warn_printk(): vprintk(fmt), so the message's own KERN_* prefix (if any) sets its
		 * level, else the default level 4 */
		va_start(args, fmt);
		vprintk(fmt, args);
		va_end(args);
	}
	pr_warn("WARNING: CPU: 0 PID: %lu at %s:%d %s\n", kfsim_current_tid(), file, line, func);
	/* check_panic_on_warn() comes before the end marker, so a panic has no trailer */
	if (__atomic_load_n(&panic_on_warn, __ATOMIC_RELAXED))
		panic_at(file, line, func, "kernel: panic_on_warn set ...\n");
	pr_warn("---[ end trace %016llx ]---\n", 0ULL);
	in_report = false;
}

void __bug(const char *file, int line, const char *func)
{
	report_begin();
	pr_emerg("------------[ cut here ]------------\n");
	pr_emerg("kernel BUG at %s:%d!\n", file, line);
	/* do_trap() → die() → oops_end(): the kernel panics when it cannot kill the task */
	kfsim_console_flush_on_panic(report_start);
	stop(file, line, func);
}

kfsim_bug_handler_t kfsim_bug_handler_set(kfsim_bug_handler_t handler)
{
	return atomic_exchange(&bug_handler, handler);
}

unsigned long kfsim_warn_count(void)
{
	return atomic_load(&warn_count);
}
