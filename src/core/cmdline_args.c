// SPDX-License-Identifier: MIT
/*
 * The option-string helpers of lib/cmdline.c: next_arg() cuts a command line into words,
 * get_option()/get_options() read integers, lists and ranges ("1,3-5"), memparse() reads sizes
 * with K/M/G/T/P/E suffixes, parse_option_str() finds a word in a comma list.  Their corner
 * cases are the kernel's (lib/cmdline_kunit.c is the referee, run unchanged by the oracle test
 * core/kunit-cmdline).
 */
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/kernel.h>

static char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

int get_option(char **str, int *pint)
{
	char *cur = *str;
	int value;

	if (!cur || !*cur)
		return 0;
	/* A leading '-' is consumed even when no number follows it. */
	if (*cur == '-')
		value = (int)(0 - simple_strtoull(++cur, str, 0));
	else
		value = (int)simple_strtoull(cur, str, 0);
	if (pint)
		*pint = value;
	if (cur == *str)
		return 0;
	if (**str == ',') {
		(*str)++;
		return 2;
	}
	if (**str == '-')
		return 3;
	return 1;
}

/*
 * After "M-": store M, M+1, ... (at most @n values) and return how many the range holds,
 * which the caller compares with the room it had.
 */
static int get_range(char **str, int *pint, int n)
{
	int x, count, upper;

	(*str)++;
	upper = (int)simple_strtol(*str, NULL, 0);
	if (__builtin_sub_overflow(upper, *pint, &count))
		count = upper < *pint ? -1 : INT_MAX;
	for (x = *pint; n && x < upper; x++, n--)
		*pint++ = x;
	return count;
}

char *get_options(const char *str, int nints, int *ints)
{
	bool validate = nints == 0;
	int res, i = 1;

	while (i < nints || validate) {
		int *pint = validate ? ints : ints + i;

		res = get_option((char **)&str, pint);
		if (res == 0)
			break;
		if (res == 3) {
			int room = validate ? 0 : nints - i;
			int in_range = get_range((char **)&str, pint, room);

			if (in_range < 0)
				break;
			if (!validate && in_range > room) {	/* the array is full */
				i = nints;
				break;
			}
			if (in_range >= INT_MAX - i)
				break;
			/* the upper bound is read by the next round, as a number of its own */
			i += in_range - 1;
		}
		i++;
		if (res == 1)
			break;
	}
	ints[0] = i - 1;
	return (char *)str;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	char *end;
	unsigned long long ret = simple_strtoull(ptr, &end, 0);
	unsigned int shift = 0;

	switch (tolower((unsigned char)*end)) {
	case 'e': shift = 60; break;
	case 'p': shift = 50; break;
	case 't': shift = 40; break;
	case 'g': shift = 30; break;
	case 'm': shift = 20; break;
	case 'k': shift = 10; break;
	}
	if (shift) {
		ret <<= shift;
		end++;
	}
	if (retptr)
		*retptr = end;
	return ret;
}

bool parse_option_str(const char *str, const char *option)
{
	size_t len = strlen(option);

	while (*str) {
		if (!strncmp(str, option, len)) {
			str += len;
			if (!*str || *str == ',')
				return true;
		}
		while (*str && *str != ',')
			str++;
		if (*str == ',')
			str++;
	}
	return false;
}

char *next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	bool in_quote = false, quoted = false;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (!equals && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	if (!equals) {
		*val = NULL;	/* also for a word starting with '=': its name is then "=..." */
	} else {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {	/* the quotes are not part of the value */
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		args += i + 1;
	} else {
		args += i;
	}
	return skip_spaces(args);
}
