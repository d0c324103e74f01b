/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_PROBLEM_LIST_H
#define KFSIM_CORE_PROBLEM_LIST_H

/*
 * The problems of one input file, told all at once: every reader of a file the user brings
 * (device lists, YNL specs, blktrace text) goes on past a problem it can go past, so one run
 * names everything to fix.  The list is the caller's error buffer: problems joined by a
 * separator, whole ones only; those that do not fit are counted and told as "and N more
 * problems".  The first problem is always told (cut to the buffer if it must be; its end gives
 * way to that count when the buffer is at least twice as long as the count), and its error is
 * the one a reader returns.
 *
 * Internal to kfsim (hidden in libkfsim.so).
 */
#include <stdarg.h>
#include <stddef.h>

/**
 * struct kfsim_problem_list - an error buffer being filled with problems
 * @buf: the caller's buffer (always NUL-terminated once initialised)
 * @size: its size
 * @used: bytes of @buf the told problems take
 * @sep: what goes between two problems ("; " keeps one line, "\n" one problem a line)
 * @nr: problems added
 * @nr_untold: problems that did not fit
 * @first_err: the first problem's error (0 while there is none)
 */
struct kfsim_problem_list {
	char *buf;
	size_t size;
	size_t used;
	const char *sep;
	int nr;
	int nr_untold;
	int first_err;
};

/** kfsim_problem_list_init() - an empty list in @buf (@size may be 0, @buf then NULL). */
void kfsim_problem_list_init(struct kfsim_problem_list *list, char *buf, size_t size,
			     const char *sep);

/** kfsim_problem_list_add() - add one problem, @err its -E... code, @fmt its message. */
void kfsim_problem_list_add(struct kfsim_problem_list *list, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** kfsim_problem_list_vadd() - kfsim_problem_list_add() with a va_list. */
void kfsim_problem_list_vadd(struct kfsim_problem_list *list, int err, const char *fmt,
			     va_list args) __attribute__((format(printf, 3, 0)));

/**
 * kfsim_problem_list_vadd_at() - kfsim_problem_list_vadd() with @where ("file:3: ", "line 3: ")
 *	put before the message, so a reader that locates its problems formats each only once
 */
void kfsim_problem_list_vadd_at(struct kfsim_problem_list *list, int err, const char *where,
				const char *fmt, va_list args) __attribute__((format(printf, 4, 0)));

/**
 * kfsim_problem_list_finish() - end the list: "<sep>and N more problem(s)" when some did not fit
 *
 * Return: the first problem's error, 0 when there was none.
 */
int kfsim_problem_list_finish(struct kfsim_problem_list *list);

#endif /* KFSIM_CORE_PROBLEM_LIST_H */
