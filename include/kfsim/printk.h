/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PRINTK_H
#define KFSIM_PRINTK_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel log (include/linux/printk.h, kernel/printk/).  Messages carry a level as the kernel
 * encodes it, a KERN_SOH byte and a digit at the start of the format ("\0013" is KERN_ERR); they
 * go into one ring buffer of records (the dmesg buffer), the oldest overwritten when it is full,
 * and are echoed to stderr when their level is below the console level, exactly like
 * console_loglevel: 7 by default as in the kernel (so a WARN splat shows), 4 with "quiet" on the
 * command line, 10 with "debug", anything with loglevel=; ignore_loglevel shows every level.
 * The kfsim program sets the console level to 0 and shows the log where it matters (loglevel=
 * on its --cmdline overrides).  Continuation lines (KERN_CONT) join the previous record when it
 * is still open (no newline) and was written by the same thread (the kernel's caller_id), as
 * vprintk_store() in 6.12; otherwise they start a record of their own.  Prefixes are parsed as
 * printk_parse_prefix(): the first level digit wins, and the level and KERN_CONT are taken from
 * the first 7 bytes of the message only (vprintk_store()'s prefix_buf[8]), while every prefix
 * at the start is stripped.
 *
 * The ring is process-global, as the kernel's log is machine-global; it is thread-safe.  Tests
 * read it back to assert that a warning fired with its exact text.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/kernel.h>
#include <kfsim/ratelimit.h>

#define KERN_SOH "\001"
#define KERN_SOH_ASCII '\001'
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT KERN_SOH "c"

#define LOGLEVEL_EMERG 0
#define LOGLEVEL_ALERT 1
#define LOGLEVEL_CRIT 2
#define LOGLEVEL_ERR 3
#define LOGLEVEL_WARNING 4
#define LOGLEVEL_NOTICE 5
#define LOGLEVEL_INFO 6
#define LOGLEVEL_DEBUG 7
#define LOGLEVEL_DEFAULT -1	/* no level given: MESSAGE_LOGLEVEL_DEFAULT */
#define LOGLEVEL_SCHED -2	/* deferred messages from sched code (printk_deferred) */
#define MESSAGE_LOGLEVEL_DEFAULT LOGLEVEL_WARNING /* level of a message without KERN_* */

/**
 * printk_get_level() - the level character of a KERN_* prefix at @buffer
 * @buffer: message text
 *
 * Return: '0'..'7' or 'c' (KERN_CONT) when @buffer starts with KERN_SOH and one of them, else 0.
 * KERN_SOH followed by anything else is no prefix (printk stops parsing there and keeps it).
 */
static inline int printk_get_level(const char *buffer)
{
	if (buffer[0] == KERN_SOH_ASCII && buffer[1]) {
		switch (buffer[1]) {
		case '0' ... '7':
		case 'c':
			return buffer[1];
		}
	}
	return 0;
}

/** printk_skip_level() - @buffer past one KERN_* prefix, if it starts with one. */
static inline const char *printk_skip_level(const char *buffer)
{
	return printk_get_level(buffer) ? buffer + 2 : buffer;
}

/** printk_skip_headers() - @buffer past every KERN_* prefix at its start. */
static inline const char *printk_skip_headers(const char *buffer)
{
	while (printk_get_level(buffer))
		buffer = printk_skip_level(buffer);
	return buffer;
}
/* Console levels (include/linux/printk.h): a record is shown when its level is below. */
#define CONSOLE_LOGLEVEL_SILENT 0
#define CONSOLE_LOGLEVEL_MIN 1
#define CONSOLE_LOGLEVEL_DEBUG 10	/* the "debug" boot option */
#define CONSOLE_LOGLEVEL_MOTORMOUTH 15
/* CONFIG_CONSOLE_LOGLEVEL_DEFAULT and _QUIET as most distributions build them */
#define CONSOLE_LOGLEVEL_DEFAULT 7	/* EMERG..INFO shown, DEBUG not */
#define CONSOLE_LOGLEVEL_QUIET 4	/* the "quiet" boot option: EMERG..ERR */

/** KFSIM_LOG_RECORDS - how many records the ring keeps before overwriting the oldest. */
#define KFSIM_LOG_RECORDS 1024
/** KFSIM_LOG_LINE_MAX - longest record text; longer messages are cut (as LOG_LINE_MAX). */
#define KFSIM_LOG_LINE_MAX 1024

/**
 * printk() - log a message
 * @fmt: printf format, optionally starting with a KERN_* level
 *
 * Return: the number of characters stored (after truncation), as the kernel returns.
 */
__printf(1, 2) int printk(const char *fmt, ...);
/** vprintk() - printk() with a va_list. */
__printf(1, 0) int vprintk(const char *fmt, va_list args);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
/** no_printk() - check the format and arguments at build time, print nothing; returns 0. */
#define no_printk(fmt, ...)                                                                       \
	({                                                                                        \
		if (0)                                                                            \
			printk(fmt, ##__VA_ARGS__);                                               \
		0;                                                                                \
	})
/*
 * pr_debug()/pr_devel() as include/linux/printk.h has them: emitted only where the file defines
 * DEBUG before including this header (a dynamic-debug call site is off by default as well), so
 * without DEBUG they leave no record at any console level, "debug" and ignore_loglevel included.
 */
#ifdef DEBUG
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_devel(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

/** printk_once() - printk() only the first time this call site runs. */
#define printk_once(fmt, ...)                                                                    \
	({                                                                                        \
		static bool __kfsim_print_once;                                                    \
		bool __kfsim_first = !__atomic_exchange_n(&__kfsim_print_once, true,              \
							  __ATOMIC_RELAXED);                      \
		if (__kfsim_first)                                                                 \
			printk(fmt, ##__VA_ARGS__);                                                \
		__kfsim_first;                                                                     \
	})
/*
 * printk_ratelimited() - printk() at most DEFAULT_RATELIMIT_BURST times per
 * DEFAULT_RATELIMIT_INTERVAL at this call site (<kfsim/ratelimit.h>), as the kernel's: for
 * messages whoever sends a request may cause.
 */
#define printk_ratelimited(fmt, ...)                                                              \
	({                                                                                        \
		static struct ratelimit_state __kfsim_rs = RATELIMIT_STATE_INIT(                   \
			__kfsim_rs, DEFAULT_RATELIMIT_INTERVAL, DEFAULT_RATELIMIT_BURST);          \
		if (__ratelimit(&__kfsim_rs))                                                      \
			printk(fmt, ##__VA_ARGS__);                                                \
	})
#define pr_warn_ratelimited(fmt, ...) printk_ratelimited(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...) printk_ratelimited(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...) printk_once(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...) printk_once(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...) printk_once(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

/**
 * struct kfsim_log_record - one message of the log, as dmesg sees it
 * @seq: sequence number, counting every record ever stored (so a reader can tell what it missed)
 * @ts_nsec: time since the log was first used, in nanoseconds
 * @level: LOGLEVEL_EMERG..LOGLEVEL_DEBUG
 * @text: the message without its level prefix and without the final newline
 */
struct kfsim_log_record {
	u64 seq;
	u64 ts_nsec;
	int level;
	char text[KFSIM_LOG_LINE_MAX];
};

/**
 * kfsim_log_read() - read the record with the lowest sequence number >= *@seq
 * @seq: in: the first sequence number wanted; out: the one after the record returned
 * @rec: where to copy the record
 *
 * Return: 0 and the record, -ENOENT when there is no such record yet.  Records overwritten by the
 * ring are skipped, and @rec->seq then shows the gap.
 */
int kfsim_log_read(u64 *seq, struct kfsim_log_record *rec);

/**
 * kfsim_log_first_seq() - the sequence number of the oldest record still in the ring
 */
u64 kfsim_log_first_seq(void);

/**
 * kfsim_log_next_seq() - the sequence number the next record will get
 *
 * Tests take it before an action and then look only at what the action logged.
 */
u64 kfsim_log_next_seq(void);

/**
 * kfsim_log_contains() - search the records from @since on for @substr
 * @since: the first sequence number to search (0 for everything still in the ring)
 * @substr: text to find inside one record's text
 *
 * Return: how many records contain @substr.
 */
int kfsim_log_contains(u64 since, const char *substr);

/**
 * kfsim_dmesg_format() - the records from @since on as dmesg prints them
 * @since: first sequence number (0: all)
 * @buf: output, always NUL-terminated when @size > 0
 * @size: size of @buf
 *
 * Lines look like "[    1.234567] text".  Return: the length the full text needs (like
 * snprintf), so a caller can size the buffer with a first call.
 */
size_t kfsim_dmesg_format(u64 since, char *buf, size_t size);

/** kfsim_dmesg_clear() - drop every record (dmesg --clear); sequence numbers keep counting. */
void kfsim_dmesg_clear(void);

/**
 * kfsim_console_loglevel_set() - choose which levels are echoed to stderr
 * @level: records with a level < @level are echoed; 0 (or less) silences the console, 8 or more
 *         echoes everything.  Stored as given, as the kernel's loglevel= stores any int.
 *
 * Return: the previous console level.  The kernel command line's loglevel= sets it too.
 */
int kfsim_console_loglevel_set(int level);

/**
 * kfsim_console_ignore_loglevel_set() - echo every record whatever the console level
 * @ignore: the "ignore_loglevel" boot option (printk.ignore_loglevel); a later loglevel= does not
 *          cancel it, as in the kernel
 *
 * Return: the previous setting.
 */
bool kfsim_console_ignore_loglevel_set(bool ignore);

/**
 * kfsim_console_flush_on_panic() - write the records from @since on that the console did not
 * show to stderr (console_flush_on_panic() with a verbose console), for panic()
 */
void kfsim_console_flush_on_panic(u64 since);

#pragma GCC visibility pop
#endif /* KFSIM_PRINTK_H */
