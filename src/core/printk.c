// SPDX-License-Identifier: MIT
/*
 * The kfsim log: a ring of KFSIM_LOG_RECORDS fixed-size records, like the kernel's printk ring
 * buffer.  What it promises:
 * - every record gets the next sequence number, so readers notice records lost to wrap-around;
 * - the oldest record is overwritten once the ring is full;
 * - records below the console level are echoed to stderr as dmesg would print them.
 * One pthread mutex guards it (not a kfsim spinlock: lock misuse is reported through this log).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <kfsim/err.h>
#include <kfsim/moduleparam.h>
#include <kfsim/printk.h>

static struct kfsim_log_record log_ring[KFSIM_LOG_RECORDS];
static u64 log_first_seq;	/* oldest record still in the ring */
static u64 log_next_seq;	/* sequence number of the next record */
static bool log_last_open;	/* last record had no newline: KERN_CONT may extend it */
static pthread_t log_last_caller;	/* who wrote it: only the same caller may extend it */
static int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
static bool ignore_loglevel;
static bool log_shown[KFSIM_LOG_RECORDS];	/* whether the console printed each slot's record */

/* printk.ignore_loglevel=Y, the module parameter twin of the ignore_loglevel boot option */
static const struct kernel_param printk_params[] = {
	KFSIM_PARAM(printk, ignore_loglevel, bool, 0644),
};
KFSIM_MODULE_PARAMS(printk, printk_params)
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static u64 log_clock_ns(void)
{
	static u64 boot_ns;
	struct timespec ts;
	u64 now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
	if (!boot_ns)
		boot_ns = now;
	return now - boot_ns;
}

static struct kfsim_log_record *log_slot(u64 seq)
{
	return &log_ring[seq % KFSIM_LOG_RECORDS];
}

/*
 * printk_parse_prefix() over at most @len bytes of @text: the first level digit sets *@level
 * (when still LOGLEVEL_DEFAULT), KERN_CONT sets *@cont.  Return: the prefix bytes seen.
 */
static size_t log_parse_prefix(const char *text, size_t len, int *level, bool *cont)
{
	size_t prefix_len = 0;
	int kern_level;

	while (prefix_len + 2 <= len && (kern_level = printk_get_level(text + prefix_len))) {
		if (kern_level == 'c')
			*cont = true;
		else if (*level == LOGLEVEL_DEFAULT)
			*level = kern_level - '0';
		prefix_len += 2;
	}
	return prefix_len;
}

/* suppress_message_printing() */
static bool log_suppressed(int level)
{
	return level >= console_loglevel && !ignore_loglevel;
}

static void log_echo(const struct kfsim_log_record *rec, const char *appended)
{
	if (log_suppressed(rec->level))
		return;
	if (appended)
		fprintf(stderr, "%s", appended);
	else
		fprintf(stderr, "[%5llu.%06llu] %s", (unsigned long long)(rec->ts_nsec / 1000000000ull),
			(unsigned long long)(rec->ts_nsec % 1000000000ull / 1000), rec->text);
}

/*
 * Store @text (prefixes already stripped) at @level (LOGLEVEL_DEFAULT: the default level).  A
 * continuation extends the last record only while it is open and this thread wrote it
 * (prb_reserve_in_last() matches caller_id); anything else starts a record, which closes the
 * previous one (prb_reserve() finalizes it).
 */
static size_t log_store(int level, bool cont, const char *text)
{
	size_t len = strlen(text);
	bool newline = len && text[len - 1] == '\n';
	pthread_t self = pthread_self();
	struct kfsim_log_record *rec;

	if (newline)
		len--;
	if (cont && log_last_open && log_next_seq > log_first_seq &&
	    pthread_equal(log_last_caller, self)) {
		rec = log_slot(log_next_seq - 1);
		size_t used = strlen(rec->text);
		size_t room = sizeof(rec->text) - 1 - used;

		if (len > room)
			len = room;
		memcpy(rec->text + used, text, len);
		rec->text[used + len] = '\0';
		log_echo(rec, rec->text + used);
	} else {
		if (level == LOGLEVEL_DEFAULT)
			level = MESSAGE_LOGLEVEL_DEFAULT;
		if (log_last_open && log_next_seq > log_first_seq)
			log_echo(&(struct kfsim_log_record){ .level = log_slot(log_next_seq - 1)->level },
				 "\n");
		if (log_next_seq - log_first_seq == KFSIM_LOG_RECORDS)
			log_first_seq++;
		rec = log_slot(log_next_seq);
		rec->seq = log_next_seq++;
		rec->ts_nsec = log_clock_ns();
		rec->level = level;
		if (len > sizeof(rec->text) - 1)
			len = sizeof(rec->text) - 1;
		memcpy(rec->text, text, len);
		rec->text[len] = '\0';
		log_shown[rec->seq % KFSIM_LOG_RECORDS] = !log_suppressed(level);
		log_echo(rec, NULL);
	}
	log_last_open = !newline;
	log_last_caller = self;
	if (newline)
		log_echo(rec, "\n");
	return len;
}

int vprintk(const char *fmt, va_list args)
{
	char buf[KFSIM_LOG_LINE_MAX + 8];
	int level = LOGLEVEL_DEFAULT;
	bool cont = false;
	size_t stored;
	int len;

	len = vsnprintf(buf, sizeof(buf), fmt, args);
	if (len < 0)
		return 0;
	/* the level and KERN_CONT come from the first 7 bytes (vprintk_store()'s prefix_buf[8]) */
	log_parse_prefix(buf, 7, &level, &cont);
	pthread_mutex_lock(&log_lock);
	stored = log_store(level, cont, printk_skip_headers(buf));
	pthread_mutex_unlock(&log_lock);
	return (int)stored;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vprintk(fmt, args);
	va_end(args);
	return ret;
}

int kfsim_log_read(u64 *seq, struct kfsim_log_record *rec)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&log_lock);
	if (*seq < log_first_seq)
		*seq = log_first_seq;
	if (*seq < log_next_seq) {
		*rec = *log_slot(*seq);
		*seq = *seq + 1;
		ret = 0;
	}
	pthread_mutex_unlock(&log_lock);
	return ret;
}

u64 kfsim_log_first_seq(void)
{
	u64 seq;

	pthread_mutex_lock(&log_lock);
	seq = log_first_seq;
	pthread_mutex_unlock(&log_lock);
	return seq;
}

u64 kfsim_log_next_seq(void)
{
	u64 seq;

	pthread_mutex_lock(&log_lock);
	seq = log_next_seq;
	pthread_mutex_unlock(&log_lock);
	return seq;
}

int kfsim_log_contains(u64 since, const char *substr)
{
	u64 seq;
	int hits = 0;

	pthread_mutex_lock(&log_lock);
	for (seq = since > log_first_seq ? since : log_first_seq; seq < log_next_seq; seq++)
		if (strstr(log_slot(seq)->text, substr))
			hits++;
	pthread_mutex_unlock(&log_lock);
	return hits;
}

size_t kfsim_dmesg_format(u64 since, char *buf, size_t size)
{
	size_t need = 0;
	u64 seq;

	if (size)
		buf[0] = '\0';
	pthread_mutex_lock(&log_lock);
	for (seq = since > log_first_seq ? since : log_first_seq; seq < log_next_seq; seq++) {
		const struct kfsim_log_record *rec = log_slot(seq);
		int n = snprintf(need < size ? buf + need : NULL, need < size ? size - need : 0,
				 "[%5llu.%06llu] %s\n",
				 (unsigned long long)(rec->ts_nsec / 1000000000ull),
				 (unsigned long long)(rec->ts_nsec % 1000000000ull / 1000), rec->text);
		need += (size_t)n;
	}
	pthread_mutex_unlock(&log_lock);
	return need;
}

void kfsim_dmesg_clear(void)
{
	pthread_mutex_lock(&log_lock);
	log_first_seq = log_next_seq;
	log_last_open = false;
	pthread_mutex_unlock(&log_lock);
}

int kfsim_console_loglevel_set(int level)
{
	int old;

	pthread_mutex_lock(&log_lock);
	old = console_loglevel;
	console_loglevel = level;
	pthread_mutex_unlock(&log_lock);
	return old;
}

bool kfsim_console_ignore_loglevel_set(bool ignore)
{
	bool old;

	pthread_mutex_lock(&log_lock);
	old = ignore_loglevel;
	ignore_loglevel = ignore;
	pthread_mutex_unlock(&log_lock);
	return old;
}

void kfsim_console_flush_on_panic(u64 since)
{
	pthread_mutex_lock(&log_lock);
	for (u64 seq = since > log_first_seq ? since : log_first_seq; seq < log_next_seq; seq++) {
		const struct kfsim_log_record *rec = log_slot(seq);

		if (log_shown[seq % KFSIM_LOG_RECORDS])
			continue;
		log_shown[seq % KFSIM_LOG_RECORDS] = true;
		fprintf(stderr, "[%5llu.%06llu] %s\n", (unsigned long long)(rec->ts_nsec / 1000000000ull),
			(unsigned long long)(rec->ts_nsec % 1000000000ull / 1000), rec->text);
	}
	fflush(stderr);
	pthread_mutex_unlock(&log_lock);
}
