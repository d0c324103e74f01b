// SPDX-License-Identifier: MIT
/*
 * WARN and BUG reports in the kernel's format (kernel/panic.c __warn(), lib/bug.c).  A report is
 * several records logged back to back; the trace number counts reports, as the kernel's
 * "---[ end trace ]---" line once did.  panic_on_warn on the command line turns a WARN into a BUG.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/spinlock.h>

static atomic_ulong warn_count;
static _Atomic(kfsim_bug_handler_t) bug_handler;

static bool panic_on_warn(void)
{
	const char *value = kfsim_cmdline_get("panic_on_warn");

	return value && (value[0] == '\0' || value[0] == '1' || value[0] == 'y' || value[0] == 'Y');
}

void __warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	unsigned long nr = atomic_fetch_add(&warn_count, 1);

	pr_warn("------------[ cut here ]------------\n");
	if (fmt) {
		char msg[KFSIM_LOG_LINE_MAX];
		va_list args;

		va_start(args, fmt);
		vsnprintf(msg, sizeof(msg), fmt, args);
		va_end(args);
		printk(KERN_WARNING "%s", msg);
	}
	pr_warn("WARNING: CPU: 0 PID: %lu at %s:%d %s\n", kfsim_current_tid(), file, line, func);
	pr_warn("---[ end trace %016lx ]---\n", nr);
	if (panic_on_warn()) {
		pr_emerg("Kernel panic - not syncing: kernel: panic_on_warn set ...\n");
		__bug(file, line, func);
	}
}

void __bug(const char *file, int line, const char *func)
{
	kfsim_bug_handler_t handler = atomic_load(&bug_handler);

	pr_emerg("------------[ cut here ]------------\n");
	pr_emerg("kernel BUG at %s:%d!\n", file, line);
	if (handler)
		handler(file, line, func);
	abort();
}

kfsim_bug_handler_t kfsim_bug_handler_set(kfsim_bug_handler_t handler)
{
	return atomic_exchange(&bug_handler, handler);
}

unsigned long kfsim_warn_count(void)
{
	return atomic_load(&warn_count);
}
