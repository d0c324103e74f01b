// SPDX-License-Identifier: MIT
/*
 * Where the fields of one block-trace line are, in every layout the reader meets.  blkparse
 * prints one; the kernel's tracefs "blk" tracer prints an event in as many layouts as its
 * options make (6.12 kernel/trace/blktrace.c and kernel/trace/trace_output.c, the same in
 * 6.18), and a user reads the trace file with whatever options the machine had:
 *
 *   blkparse       "maj,min cpu seq sec.nsec pid A RWBS ..."
 *   blk_classic    "maj,min cpu sec.nsec pid A RWBS ..."            (no sequence number)
 *   default        "comm-pid [cpu] flags sec.usec: maj,min A RWBS ..."
 *   irq-info off   the same without the flags
 *   record-tgid    "comm-pid (tgid) [cpu] ..."                      ("(-------)" if unknown)
 *   blk_cgroup     "... maj,min LOW32,HIGH32 A RWBS ..."            (the cgroup's id)
 *   blk_cgname     "... maj,min /cgroup/path A RWBS ..."            ("<...>" if not found)
 *   verbose        long action names: "queue", "complete", ...
 *   latency-format "comm-pid cpuflags 1234us+: maj,min A ..."       (us since the buffer began)
 *   and verbose    "comm pid cpu flags preempt idx [hex us] a.bms (+c.dms): maj,min A ..."
 *   context-info off  "maj,min A RWBS ...": no time and no pid
 *
 * and a trace_clock that does not count nanoseconds (counter, uptime, x86-tsc) prints ticks
 * where the seconds were.  The last two cannot be replayed; the reader names the reason.
 */
#include <string.h>

#include <kfsim/kernel.h>

#include "blktrace_internal.h"

/* what2act[] (kernel/trace/blktrace.c): each action's name, short and with "verbose". */
static const struct {
	const char *name[2];
} blktrace_actions[] = {
	{ { "Q", "queue" } },	{ { "M", "backmerge" } }, { { "F", "frontmerge" } },
	{ { "G", "getrq" } },	{ { "S", "sleeprq" } },	  { { "R", "requeue" } },
	{ { "D", "issue" } },	{ { "C", "complete" } },  { { "P", "plug" } },
	{ { "U", "unplug_io" } }, { { "UT", "unplug_timer" } }, { { "I", "insert" } },
	{ { "X", "split" } },	{ { "B", "bounce" } },	  { { "A", "remap" } },
	{ { "m", "message" } },
};

static bool blktrace_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/* Digits from @s on: where they stop. */
static const char *blktrace_skip_digits(const char *s, const char *end)
{
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	return s;
}

/* A token of digits only, at least one. */
static bool blktrace_digits(const char *s, size_t len)
{
	return len && blktrace_skip_digits(s, s + len) == s + len;
}

static bool blktrace_known_action(const char *s, size_t len)
{
	/* the short names first, one test each: every line of a trace has one */
	if (len == 1) {
		switch (s[0]) {
		case 'Q': case 'M': case 'F': case 'G': case 'S': case 'R': case 'D': case 'C':
		case 'P': case 'U': case 'I': case 'X': case 'B': case 'A': case 'm':
			return true;
		}
		return false;
	}
	if (len == 2)
		return s[0] == 'U' && s[1] == 'T';
	for (size_t i = 0; i < ARRAY_SIZE(blktrace_actions); i++)
		if (blktrace_is(s, len, blktrace_actions[i].name[1]))
			return true;
	return false;
}

bool blktrace_long_action_is(const struct blktrace_fields *f, char action)
{
	for (size_t i = 0; i < ARRAY_SIZE(blktrace_actions); i++)
		if (blktrace_actions[i].name[0][0] == action && !blktrace_actions[i].name[0][1])
			return blktrace_is(f->action, f->action_len, blktrace_actions[i].name[1]);
	return false;
}

/*
 * Whether the event line's action (@found, else the token where it belongs, in f->action) is
 * one: true when found.  A token that is not an action is damage (f->damaged: it may have been
 * a queue event), unless it could be the name of one a later kernel adds (one or two letters,
 * or a verbose name in lower case): such an event is skipped as unknown, not refused.
 */
static bool blktrace_found_action(bool found, struct blktrace_fields *f)
{
	size_t len = f->action_len;
	bool name = len > 0;

	for (size_t i = 0; i < len; i++) {
		char c = f->action[i];

		name &= len <= 2 ? (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') :
				   (c >= 'a' && c <= 'z') || c == '_';
	}
	f->damaged = !found && !name;
	return found;
}

/* "maj,min", the field every layout has. */
static bool blktrace_is_dev(const char *s, size_t len)
{
	const char *end = s + len, *comma = blktrace_skip_digits(s, end);

	return comma > s && comma < end && *comma == ',' &&
	       blktrace_skip_digits(comma + 1, end) == end && comma + 1 < end;
}

/*
 * Whether the words at @p are what follows an action: RWBS flags (blk_fill_rwbs()'s letters),
 * then the event's rest, which starts with a sector, a "[comm]" or a "(pdu)", or the line's
 * end; a message ('m') may say anything after its flags.
 */
static bool blktrace_after_action(const char *p, const char *end, const char *action,
				  size_t action_len)
{
	size_t len;
	const char *tok = blktrace_token(&p, end, &len);

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!memchr("FWDERNASMZUCO", tok[i], 13))
			return false;
	if (action_len == 1 && action[0] == 'm')
		return true;
	tok = blktrace_token(&p, end, &len);
	return !len || tok[0] == '[' || tok[0] == '(' || (tok[0] >= '0' && tok[0] <= '9');
}

/*
 * After the device: blk_cgroup's "LOW32,HIGH32" (hex), or blk_cgname's path, which starts
 * with '/' (or is "<...>") and may hold spaces, so it runs up to the first word that is an
 * action's name followed by what follows an action (a path may hold such a name as a word of
 * its own: "/a Q b", or even "/a Q R" before a requeue); without one, up to the first action's
 * name.  Then the action.  False if there is none.
 */
static bool blktrace_action_after_dev(const char **p, const char *end, struct blktrace_fields *f)
{
	size_t len;
	const char *tok = blktrace_token(p, end, &len);

	if (len && !blktrace_known_action(tok, len)) {
		bool path = tok[0] == '/' || tok[0] == '<';
		const char *first = NULL, *after_first = NULL;
		size_t first_len = 0;

		if (!path && !blktrace_has(tok, len, ',')) {
			f->action = tok;	/* for blktrace_damaged() */
			f->action_len = len;
			return false;
		}
		tok = blktrace_token(p, end, &len);
		while (path && len) {
			if (blktrace_known_action(tok, len)) {
				if (blktrace_after_action(*p, end, tok, len))
					break;
				if (!first) {
					first = tok;
					first_len = len;
					after_first = *p;
				}
			}
			tok = blktrace_token(p, end, &len);
		}
		if (path && !len && first) {
			tok = first;
			len = first_len;
			*p = after_first;
		}
	}
	f->action = tok;
	f->action_len = len;
	return len;
}

/* blkparse, blk_classic, or context-info off: the line starts with the device. */
static bool blktrace_locate_dev_first(const char **p, const char *end,
				      struct blktrace_fields *f)
{
	const char *after_dev = *p, *t1, *t2;
	size_t l1, l2;

	t1 = blktrace_token(p, end, &l1);
	/* a cpu number, or (no context) the action or a cgroup ("LOW32,HIGH32", a path) */
	if (l1 && (t1[0] < '0' || t1[0] > '9' || blktrace_has(t1, l1, ','))) {
		*p = after_dev;
		f->time_form = BLKTRACE_TIME_NONE;
		f->time = f->pid = NULL;
		f->time_len = f->pid_len = 0;
		return blktrace_found_action(blktrace_action_after_dev(p, end, f), f);
	}
	t2 = blktrace_token(p, end, &l2);	/* blkparse's sequence or blk_classic's time */
	if (blktrace_has(t2, l2, '.')) {
		f->time = t2;
		f->time_len = l2;
	} else {
		f->time = blktrace_token(p, end, &f->time_len);
	}
	f->time_form = BLKTRACE_TIME_SECONDS;
	f->pid = blktrace_token(p, end, &f->pid_len);
	f->action = blktrace_token(p, end, &f->action_len);
	/* no summary or header line of blkparse starts with "maj,min cpu" */
	return blktrace_found_action(blktrace_known_action(f->action, f->action_len), f);
}

/*
 * The pid of the ftrace context "comm-pid [(tgid)] [cpu]" ending at @bracket (the cpu's '['):
 * the digits after the last dash (a comm may hold spaces and dashes).
 */
static bool blktrace_pid_before(const char *line, const char *bracket, struct blktrace_fields *f)
{
	const char *s = bracket;

	while (s > line && s[-1] == ' ')
		s--;
	if (s > line && s[-1] == ')') {		/* record-tgid */
		while (s > line && s[-1] != '(')
			s--;
		if (s == line)
			return false;
		s--;
		while (s > line && s[-1] == ' ')
			s--;
	}
	f->pid = s;
	while (s > line && s[-1] >= '0' && s[-1] <= '9')
		s--;
	f->pid_len = (size_t)(f->pid - s);
	f->pid = s;
	return f->pid_len && s > line && s[-1] == '-';
}

/* The digits after the last dash of a "comm-pid" token. */
static bool blktrace_pid_of_token(const char *s, size_t len, struct blktrace_fields *f)
{
	size_t i = len;

	while (i && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	f->pid = s + i;
	f->pid_len = len - i;
	return f->pid_len && i && s[i - 1] == '-';
}

/* The token that ends just before @at, after the spaces before it (length 0: none). */
static const char *blktrace_token_before(const char *line, const char *at, size_t *len)
{
	const char *e = at, *s;

	while (e > line && (unsigned char)e[-1] <= ' ')
		e--;
	s = e;
	while (s > line && (unsigned char)s[-1] > ' ')
		s--;
	*len = (size_t)(e - s);
	return s;
}

/*
 * An ftrace context: "... TIME: maj,min ...", the first colon followed by a device ending
 * it (a comm may hold colons; latency-format may print "1234us :", the colon apart).  Read
 * backwards from there, so that the padded comm is never walked: the layout follows from
 * TIME's form.
 */
static bool blktrace_context_at(const char *line, const char *colon, const char **p,
				const char *end, struct blktrace_fields *f);

static bool blktrace_locate_context(const char *line, const char **p, const char *end,
				    struct blktrace_fields *f)
{
	const char *colon = *p, *q;
	bool damaged = false;

	/*
	 * A comm may hold ": 7,0 " itself (a process named "q: 7,0 Q"): a colon and a device
	 * that are not preceded by a context and a time are part of it, and the next such
	 * colon is tried.
	 */
	for (;; colon++) {
		colon = memchr(colon, ':', (size_t)(end - colon));
		if (!colon) {
			f->damaged = damaged;
			return false;
		}
		q = colon + 1;
		f->dev = blktrace_token(&q, end, &f->dev_len);
		if (q <= colon + 1 + f->dev_len || !blktrace_is_dev(f->dev, f->dev_len))
			continue;
		*p = q;
		f->damaged = false;
		if (blktrace_context_at(line, colon, p, end, f))
			return true;
		damaged |= f->damaged;
	}
}

/* The context and time before @colon, the device after it at *@p, then the action. */
static bool blktrace_context_at(const char *line, const char *colon, const char **p,
				const char *end, struct blktrace_fields *f)
{
	const char *tok[8];
	size_t len[8];

	/* tok[0] the time, tok[i] the i-th token before it: two of them in most layouts */
	tok[0] = blktrace_token_before(line, colon, &len[0]);
	for (int i = 1; i < 3; i++)
		tok[i] = blktrace_token_before(line, tok[i - 1], &len[i]);
	if (!len[0])
		return false;
	f->time = tok[0];
	f->time_len = len[0];
	if (len[0] > 2 && tok[0][0] == '(' && tok[0][1] == '+') {
		/* verbose latency-format: "pid cpu flags preempt idx [hex] abs (+rel)" */
		for (int i = 3; i < 8; i++)
			tok[i] = blktrace_token_before(line, tok[i - 1], &len[i]);
		if (len[2] < 3 || tok[2][0] != '[' || !blktrace_digits(tok[7], len[7]))
			return false;
		f->pid = tok[7];
		f->pid_len = len[7];
		/* "(+0.010ms)" with a clock in ns, "(+17829)" in ticks */
		f->time_form = blktrace_has(tok[0], len[0], 'm') ? BLKTRACE_TIME_HEX_US :
								   BLKTRACE_TIME_TICKS;
		f->time = tok[2] + 1;
		f->time_len = len[2] - 2;
	} else if (len[0] > 2 && blktrace_has(tok[0], len[0], 'u')) {
		/* latency-format: "comm-pid cpuflags 1234us+" */
		if (!blktrace_pid_of_token(tok[2], len[2], f))
			return false;
		f->time_form = BLKTRACE_TIME_REL_US;
		f->time_len = (size_t)((const char *)memchr(tok[0], 'u', len[0]) - tok[0]);
	} else {
		/* "comm-pid [(tgid)] [cpu] [flags] TIME", or latency-format's "comm-pid cpuflags" */
		int c = len[1] && tok[1][0] == '[' ? 1 : len[2] && tok[2][0] == '[' ? 2 : 0;

		if (c && tok[c][len[c] - 1] == ']') {
			if (!blktrace_pid_before(line, tok[c], f))
				return false;
		} else if (!blktrace_pid_of_token(tok[2], len[2], f)) {
			return false;
		}
		f->time_form = blktrace_has(tok[0], len[0], '.') ? BLKTRACE_TIME_SECONDS :
								   BLKTRACE_TIME_TICKS;
	}
	/* a context, a time and a device: an event line, whose action must follow */
	return blktrace_found_action(blktrace_action_after_dev(p, end, f), f);
}

bool blktrace_locate(const char *line, const char *end, const char **rest,
		     struct blktrace_fields *f)
{
	const char *p = line, *tok;
	bool found;

	f->damaged = false;
	/* a device first (blkparse, blk_classic, no context): digits, a comma; else a context */
	while (p < end && (unsigned char)*p <= ' ')
		p++;
	if (p == end || *p == '#')
		return false;
	tok = p;
	p = blktrace_skip_digits(p, end);
	if (p > tok && p < end && *p == ',') {
		const char *min = p + 1;

		p = blktrace_skip_digits(min, end);
		if (p == min || (p < end && (unsigned char)*p > ' '))
			return false;
		f->dev = tok;
		f->dev_len = (size_t)(p - tok);
		found = blktrace_locate_dev_first(&p, end, f);
	} else {
		found = blktrace_locate_context(line, &p, end, f);
	}
	*rest = p;
	return found;
}
