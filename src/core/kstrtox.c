// SPDX-License-Identifier: MIT
/*
 * Number parsing as lib/kstrtox.c and lib/vsprintf.c do it, which differs from strtoul() in ways
 * kernel code depends on: no leading white space, simple_strto*() accept no '+' (kstrto*() do),
 * base 0 means 0x.. hex / 0.. octal / decimal, and simple_strtoull() never fails: it stops at the
 * first character that is not a digit and wraps silently on overflow.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>

/* The base to use and where the digits start (_parse_integer_fixup_radix()). */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/* Parse digits of @base from @s; *@overflow is set on wrap-around.  Returns the end. */
static const char *parse_digits(const char *s, unsigned int base, unsigned long long *res,
				bool *overflow)
{
	unsigned long long v = 0;

	*overflow = false;
	for (;; s++) {
		int d = digit_value(*s);

		if ((unsigned int)d >= base)
			break;
		if (v > (ULLONG_MAX - (unsigned int)d) / base)
			*overflow = true;
		v = v * base + (unsigned int)d;
	}
	*res = v;
	return s;
}

unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	cp = fixup_radix(cp, &base);	/* sets base: a statement of its own */
	cp = parse_digits(cp, base, &v, &overflow);
	if (endp)
		*endp = (char *)cp;
	return v;
}

unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	return (unsigned long)simple_strtoull(cp, endp, base);
}

long long simple_strtoll(const char *cp, char **endp, unsigned int base)
{
	if (*cp == '-')
		return -(long long)simple_strtoull(cp + 1, endp, base);
	return (long long)simple_strtoull(cp, endp, base);
}

long simple_strtol(const char *cp, char **endp, unsigned int base)
{
	return (long)simple_strtoll(cp, endp, base);
}

/* _kstrtoull(): no sign accepted here (kstrtoull() takes a '+', kstrtoll() a '-'). */
static int parse_unsigned(const char *s, unsigned int base, unsigned long long *res)
{
	const char *end, *digits;
	unsigned long long v;
	bool overflow;

	digits = fixup_radix(s, &base);
	end = parse_digits(digits, base, &v, &overflow);
	if (end == digits)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*end == '\n')	/* one trailing newline, as from sysfs */
		end++;
	if (*end)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (!s)
		return -EINVAL;
	if (*s == '+')
		s++;
	return parse_unsigned(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int ret;

	if (!s)
		return -EINVAL;
	if (*s == '-') {
		ret = parse_unsigned(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = (long long)(0 - v);
		return 0;
	}
	ret = kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int ret = kstrtoll(s, base, &v);

	if (ret)
		return ret;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

/* The fixed-width variants: the wide parse, then the type's range (-ERANGE outside it). */
static int narrow_u(const char *s, unsigned int base, unsigned long long max,
		    unsigned long long *v)
{
	int ret = kstrtoull(s, base, v);

	return ret ? ret : (*v > max ? -ERANGE : 0);
}

static int narrow_s(const char *s, unsigned int base, long long min, long long max, long long *v)
{
	int ret = kstrtoll(s, base, v);

	return ret ? ret : (*v < min || *v > max ? -ERANGE : 0);
}

#define KSTRTOX_U(name, type, max)                                                                \
	int name(const char *s, unsigned int base, type *res)                                     \
	{                                                                                         \
		unsigned long long v;                                                             \
		int ret = narrow_u(s, base, max, &v);                                             \
		if (!ret)                                                                         \
			*res = (type)v;                                                           \
		return ret;                                                                       \
	}
#define KSTRTOX_S(name, type, min, max)                                                           \
	int name(const char *s, unsigned int base, type *res)                                     \
	{                                                                                         \
		long long v;                                                                      \
		int ret = narrow_s(s, base, min, max, &v);                                        \
		if (!ret)                                                                         \
			*res = (type)v;                                                           \
		return ret;                                                                       \
	}

KSTRTOX_U(kstrtoul, unsigned long, ULONG_MAX)
KSTRTOX_S(kstrtol, long, LONG_MIN, LONG_MAX)
KSTRTOX_U(kstrtou64, u64, UINT64_MAX)
KSTRTOX_S(kstrtos64, s64, INT64_MIN, INT64_MAX)
KSTRTOX_U(kstrtou32, u32, UINT32_MAX)
KSTRTOX_S(kstrtos32, s32, INT32_MIN, INT32_MAX)
KSTRTOX_U(kstrtou16, u16, UINT16_MAX)
KSTRTOX_S(kstrtos16, s16, INT16_MIN, INT16_MAX)
KSTRTOX_U(kstrtou8, u8, UINT8_MAX)
KSTRTOX_S(kstrtos8, s8, INT8_MIN, INT8_MAX)
