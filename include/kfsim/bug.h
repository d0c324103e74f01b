/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BUG_H
#define KFSIM_BUG_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * WARN and BUG (include/asm-generic/bug.h).  A WARN logs the kernel's report to the kfsim log:
 *
 *	------------[ cut here ]------------
 *	<message, for WARN()/WARN_ONCE()>
 *	WARNING: CPU: 0 PID: 4242 at src/refcount/refcount.c:31 refcount_warn_saturate
 *	---[ end trace 0000000000000000 ]---
 *
 * and evaluates to the condition, so `if (WARN_ON(x)) return -EINVAL;` reads as in the kernel.
 * The trailer is always "end trace 0000000000000000", as print_oops_end_marker() prints it.
 * With panic_on_warn=N (N != 0) on the kernel command line a WARN becomes a panic: the report,
 * "Kernel panic - not syncing: kernel: panic_on_warn set ..." and "---[ end Kernel panic -
 * not syncing: ... ]---" are written to stderr even when the console is muted, then the BUG
 * handler runs.  A BUG logs "kernel BUG at file:line!", is written to stderr likewise and calls
 * the BUG handler: abort() by default (SIGABRT, exit status 134 in a shell); a test may install
 * a handler that longjmp()s out instead.
 */
#include <stdbool.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>

/**
 * __warn() - log a WARN report (use the WARN* macros, not this)
 * @file: source file of the call site
 * @line: line of the call site
 * @func: function of the call site
 * @fmt: optional message (NULL for WARN_ON)
 */
__printf(4, 5) void __warn(const char *file, int line, const char *func, const char *fmt, ...);

/** panic_on_warn - the kernel parameter: non-zero turns every WARN into a panic. */
extern int panic_on_warn;

/**
 * panic() - log "Kernel panic - not syncing: <message>" and its end marker, show the report on
 * stderr and stop (the BUG handler, abort() by default)
 */
__noreturn __printf(1, 2) void panic(const char *fmt, ...);

/** __bug() - log a BUG report and call the BUG handler; does not return. */
__noreturn void __bug(const char *file, int line, const char *func);

/**
 * kfsim_bug_handler_set() - choose what BUG() does after logging
 * @handler: called with the call site; must not return (longjmp or exit).  NULL restores abort().
 *
 * Return: the previous handler (NULL for the default).
 */
typedef void (*kfsim_bug_handler_t)(const char *file, int line, const char *func);
kfsim_bug_handler_t kfsim_bug_handler_set(kfsim_bug_handler_t handler);

/** kfsim_warn_count() - how many WARN reports this process has logged (like /sys/kernel/warn_count). */
unsigned long kfsim_warn_count(void);

/** WARN_ON() - report @cond when true; evaluates to !!@cond. */
#define WARN_ON(cond)                                                                             \
	({                                                                                        \
		bool __kfsim_ret_warn = !!(cond);                                                  \
		if (unlikely(__kfsim_ret_warn))                                                    \
			__warn(__FILE__, __LINE__, __func__, NULL);                                \
		__kfsim_ret_warn;                                                                  \
	})

/** WARN() - report @cond with a printf message when true; evaluates to !!@cond. */
#define WARN(cond, fmt, ...)                                                                      \
	({                                                                                        \
		bool __kfsim_ret_warn = !!(cond);                                                  \
		if (unlikely(__kfsim_ret_warn))                                                    \
			__warn(__FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__);                  \
		__kfsim_ret_warn;                                                                  \
	})

/* The once-only flag is per call site and set atomically, so racing threads report once. */
#define __KFSIM_WARN_ONCE_IF(cond, report)                                                        \
	({                                                                                        \
		static bool __kfsim_warned;                                                        \
		bool __kfsim_ret_once = !!(cond);                                                  \
		if (unlikely(__kfsim_ret_once) &&                                                  \
		    !__atomic_exchange_n(&__kfsim_warned, true, __ATOMIC_RELAXED))                \
			report;                                                                    \
		__kfsim_ret_once;                                                                  \
	})
/** WARN_ON_ONCE() - WARN_ON() that reports only the first time at this call site. */
#define WARN_ON_ONCE(cond) __KFSIM_WARN_ONCE_IF(cond, __warn(__FILE__, __LINE__, __func__, NULL))
/** WARN_ONCE() - WARN() that reports only the first time at this call site. */
#define WARN_ONCE(cond, fmt, ...)                                                                 \
	__KFSIM_WARN_ONCE_IF(cond, __warn(__FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__))

/** BUG() - log "kernel BUG at file:line!" and stop (see kfsim_bug_handler_set()). */
#define BUG() __bug(__FILE__, __LINE__, __func__)
/** BUG_ON() - BUG() when @cond is true. */
#define BUG_ON(cond)                                                                              \
	do {                                                                                      \
		if (unlikely(cond))                                                                \
			BUG();                                                                     \
	} while (0)

#pragma GCC visibility pop
#endif /* KFSIM_BUG_H */
