// SPDX-License-Identifier: MIT
/* Every problem of an input file in one error buffer: see problem_list.h. */
#include <stdio.h>
#include <string.h>

#include "problem_list.h"

/* The most one problem keeps of its place and message. */
#define PROBLEM_LIST_ONE 1024
/* The longest ending: the separator is at most a few bytes ("; "). */
#define PROBLEM_LIST_TAIL sizeof("; and 2147483647 more problems")

void kfsim_problem_list_init(struct kfsim_problem_list *list, char *buf, size_t size,
			     const char *sep)
{
	*list = (struct kfsim_problem_list){ .buf = buf, .size = buf ? size : 0, .sep = sep };
	if (list->size)
		buf[0] = '\0';
}

void kfsim_problem_list_vadd_at(struct kfsim_problem_list *list, int err, const char *where,
				const char *fmt, va_list args)
{
	char one[PROBLEM_LIST_ONE], msg[PROBLEM_LIST_ONE];
	size_t sep_len = list->nr ? strlen(list->sep) : 0, len, where_len, msg_len, room;

	if (!list->first_err)
		list->first_err = err;
	list->nr++;
	if (vsnprintf(msg, sizeof(msg), fmt, args) < 0)
		msg[0] = '\0';
	/*
	 * The place gives way to the message, not the reverse: a path of PATH_MAX bytes would
	 * otherwise fill the problem and tell no reason at all.  It loses its beginning, as the
	 * file's name and the line number are at its end.
	 */
	where_len = strlen(where);
	msg_len = strlen(msg);
	room = sizeof(one) - 1 - (msg_len < sizeof(one) / 2 ? msg_len : sizeof(one) / 2);
	if (where_len > room) {
		memcpy(one, "...", 3);
		memcpy(one + 3, where + where_len - (room - 3), room - 3);
		len = room;
	} else {
		memcpy(one, where, where_len);
		len = where_len;
	}
	if (msg_len > sizeof(one) - 1 - len)
		msg_len = sizeof(one) - 1 - len;
	memcpy(one + len, msg, msg_len);
	len += msg_len;
	one[len] = '\0';
	if (list->nr == 1) {
		/* the first is always told, cut to the buffer if it must be */
		if (list->size) {
			snprintf(list->buf, list->size, "%s", one);
			list->used = strlen(list->buf);
		}
		return;
	}
	/* once one is untold, the later ones are too: the told ones stay in file order */
	if (list->nr_untold || list->used + sep_len + len + PROBLEM_LIST_TAIL > list->size) {
		list->nr_untold++;
		return;
	}
	memcpy(list->buf + list->used, list->sep, sep_len);
	memcpy(list->buf + list->used + sep_len, one, len + 1);
	list->used += sep_len + len;
}

void kfsim_problem_list_vadd(struct kfsim_problem_list *list, int err, const char *fmt,
			     va_list args)
{
	kfsim_problem_list_vadd_at(list, err, "", fmt, args);
}

void kfsim_problem_list_add(struct kfsim_problem_list *list, int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	kfsim_problem_list_vadd(list, err, fmt, args);
	va_end(args);
}

int kfsim_problem_list_finish(struct kfsim_problem_list *list)
{
	char tail[PROBLEM_LIST_TAIL + 16];
	int len;

	if (!list->nr_untold || !list->size)
		return list->first_err;
	len = snprintf(tail, sizeof(tail), "%sand %d more problem%s", list->sep, list->nr_untold,
		       list->nr_untold > 1 ? "s" : "");
	/*
	 * Only a first problem cut to (or nearly filling) the buffer leaves less room than the tail
	 * needs; the later ones kept PROBLEM_LIST_TAIL free.  The count is worth more than the
	 * first problem's last words, so they give way when the buffer holds twice the tail.
	 */
	if (len > 0 && list->used + (size_t)len >= list->size && list->size > 2 * (size_t)len)
		list->used = list->size - 1 - (size_t)len;
	if (list->used < list->size)
		snprintf(list->buf + list->used, list->size - list->used, "%s", tail);
	return list->first_err;
}
