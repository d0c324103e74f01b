// SPDX-License-Identifier: MIT
/*
 * Grid records (cli_record.h): flat JSON objects written and read back, and a struct as a record
 * through one table of its fields, walked both ways.  The partial files around the records are
 * cli_grid.c's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include "cli_record.h"

static void rec_add(struct kfsim_rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rec_add(struct kfsim_rec *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->buf)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < r->cap - r->len)
			break;
		char *bigger = n < 0 ? NULL : realloc(r->buf, r->cap * 2 + (size_t)n);

		if (!bigger) {
			free(r->buf);
			r->buf = NULL;
			return;
		}
		r->buf = bigger;
		r->cap = r->cap * 2 + (size_t)n;
	}
	r->len += (size_t)n;
}

void kfsim_rec_init(struct kfsim_rec *r)
{
	r->cap = 256;
	r->len = 0;
	r->buf = malloc(r->cap);
	if (r->buf)
		r->buf[0] = '\0';
}

static void rec_key(struct kfsim_rec *r, const char *key)
{
	rec_add(r, "%s\"%s\":", r->len ? "," : "{", key);
}

void kfsim_rec_u64(struct kfsim_rec *r, const char *key, u64 value)
{
	rec_key(r, key);
	rec_add(r, "%llu", (unsigned long long)value);
}

/* 17 significant digits read back to the same double; JSON has no inf or nan: strings */
static void rec_double_value(struct kfsim_rec *r, double value)
{
	rec_add(r, isfinite(value) ? "%.17g" : "\"%g\"", value);
}

void kfsim_rec_double(struct kfsim_rec *r, const char *key, double value)
{
	rec_key(r, key);
	rec_double_value(r, value);
}

/* @value (at most @size bytes of it) as a JSON string, byte for byte: others than printable
 * ASCII as \u00XX */
static void rec_str_value(struct kfsim_rec *r, const char *value, size_t size)
{
	rec_add(r, "\"");
	for (size_t i = 0; i < size && value[i]; i++) {
		unsigned char c = (unsigned char)value[i];

		if (c == '"' || c == '\\')
			rec_add(r, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			rec_add(r, "\\u%04x", c);
		else
			rec_add(r, "%c", c);
	}
	rec_add(r, "\"");
}

void kfsim_rec_str(struct kfsim_rec *r, const char *key, const char *value)
{
	rec_key(r, key);
	rec_str_value(r, value, SIZE_MAX);
}

char *kfsim_rec_finish(struct kfsim_rec *r)
{
	if (!r->len)
		rec_add(r, "{");
	rec_add(r, "}");
	return r->buf;
}

/* The end of the JSON string starting at @s ('"'), just past its closing quote, or NULL. */
static const char *skip_string(const char *s)
{
	for (s++; *s && *s != '"'; s++)
		if (*s == '\\' && !*++s)
			return NULL;
	return *s ? s + 1 : NULL;
}

const char *kfsim_rec_skip_value(const char *s)
{
	int depth = 0;

	if (*s == '"')
		return skip_string(s);
	if (*s != '[' && *s != '{') {
		while (*s && *s != ',' && *s != '}' && *s != ']' && *s != '\n')
			s++;
		return s;
	}
	for (; *s; s++) {
		if (*s == '"') {
			s = skip_string(s);
			if (!s)
				return NULL;
			s--;
		} else if (*s == '[' || *s == '{') {
			depth++;
		} else if ((*s == ']' || *s == '}') && !--depth) {
			return s + 1;
		}
	}
	return NULL;
}

const char *kfsim_rec_find(const char *rec, const char *key)
{
	size_t key_len = strlen(key);
	const char *s = rec;

	if (*s++ != '{')
		return NULL;
	while (*s == '"') {
		const char *end = skip_string(s);

		if (!end || *end != ':')
			return NULL;
		if ((size_t)(end - s) == key_len + 2 && !strncmp(s + 1, key, key_len))
			return end + 1;
		s = kfsim_rec_skip_value(end + 1);
		if (!s || *s != ',')
			return NULL;
		s++;
	}
	return NULL;
}

bool kfsim_rec_keys_are(const char *obj, const char *const *keys)
{
	const char *s = obj;

	if (*s != '{')
		return false;
	for (size_t k = 0; keys[k]; k++) {
		size_t len = strlen(keys[k]);

		if (*s++ != (k ? ',' : '{') || s[0] != '"' || strncmp(s + 1, keys[k], len) ||
		    s[len + 1] != '"' || s[len + 2] != ':')
			return false;
		s = kfsim_rec_skip_value(s + len + 3);
		if (!s)
			return false;
	}
	return !strcmp(s, "}");
}

/* The value of hex digit @c, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode the JSON string at @s into @buf (as write_string()/kfsim_rec_str() wrote it). */
int kfsim_rec_read_string(const char *s, char *buf, size_t size)
{
	size_t len = 0;

	if (*s++ != '"')
		return -EINVAL;
	for (; *s != '"'; s++) {
		unsigned int c = (unsigned char)*s;

		if (!c)
			return -EINVAL;
		if (c == '\\') {
			s++;
			if (*s == 'u') {
				/* exactly four hex digits, as the writer puts them: not sscanf's
				 * "%4x", which takes a sign, blanks, "0x" and fewer digits, and a
				 * string cut after "\u1" was read on past its end */
				c = 0;
				for (int i = 1; i <= 4; i++) {
					int digit = hex_digit(s[i]);

					if (digit < 0)
						return -EINVAL;
					c = c << 4 | (unsigned int)digit;
				}
				if (c > 0xff || c == 0)
					return -EINVAL;
				s += 4;
			} else if (*s == '"' || *s == '\\' || *s == '/') {
				c = (unsigned char)*s;
			} else {
				return -EINVAL;
			}
		}
		if (len + 1 >= size)
			return -ENAMETOOLONG;
		buf[len++] = (char)c;
	}
	buf[len] = '\0';
	return 0;
}

int kfsim_rec_get_u64(const char *record, const char *key, u64 *value)
{
	const char *v = kfsim_rec_find(record, key);
	char *end;

	if (!v)
		return -ENOENT;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	*value = strtoull(v, &end, 10);
	return errno || (*end != ',' && *end != '}') ? -EINVAL : 0;
}

/*
 * A double as rec_double_value() wrote it at @v: a finite number, or a non-finite one as a
 * string (and only those as strings).  A bare NaN, inf or hex is no number kfsim wrote, and
 * strtod() would take them.  *@next: past it.  Return: 0 or -EINVAL.
 */
static int read_double(const char *v, double *value, const char **next)
{
	char text[32], *end;

	if (*v == '"') {
		if (kfsim_rec_read_string(v, text, sizeof(text)))
			return -EINVAL;
		*value = strtod(text, &end);
		if (*end || isfinite(*value))
			return -EINVAL;
		*next = kfsim_rec_skip_value(v);
		return 0;
	}
	if ((*v != '-' && (*v < '0' || *v > '9')) || strpbrk(v, "xX") == v + 1 + (*v == '-'))
		return -EINVAL;
	*value = strtod(v, &end);
	if (end == v || !isfinite(*value) || (*end != ',' && *end != '}'))
		return -EINVAL;
	*next = end;
	return 0;
}

int kfsim_rec_get_double(const char *record, const char *key, double *value)
{
	const char *v = kfsim_rec_find(record, key), *next;

	return v ? read_double(v, value, &next) : -ENOENT;
}

int kfsim_rec_get_str(const char *record, const char *key, char *buf, size_t size)
{
	const char *v = kfsim_rec_find(record, key);

	return v ? kfsim_rec_read_string(v, buf, size) : -ENOENT;
}

/* ---- a struct as a record: its table of fields ------------------------------------------- */

/* The count member of array field @f in @obj. */
static u64 field_count(const struct kfsim_rec_field *f, const void *obj)
{
	const char *p = (const char *)obj + f->count_offset;

	if (f->count_size == sizeof(u64))
		return *(const u64 *)p;
	return *(const unsigned int *)p;
}

static void put_u64s(struct kfsim_rec *r, const u64 *v, u64 n)
{
	rec_add(r, "[");
	for (u64 i = 0; i < n; i++)
		rec_add(r, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
	rec_add(r, "]");
}

static void put_fields(struct kfsim_rec *r, const char *prefix, const struct kfsim_rec_table *t,
		       const void *obj)
{
	char key[160];

	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		const void *m = (const char *)obj + f->offset;

		if (f->kind == KFSIM_REC_NOT_CARRIED)
			continue;
		snprintf(key, sizeof(key), "%s%s", prefix, f->name);
		switch (f->kind) {
		case KFSIM_REC_STRUCT: {
			char sub[192];

			snprintf(sub, sizeof(sub), "%s.", key);
			put_fields(r, sub, f->sub, m);
			continue;
		}
		case KFSIM_REC_STRUCTS:
		case KFSIM_REC_STRUCTS_PTR: {
			const char *elems = f->kind == KFSIM_REC_STRUCTS ? m : *(const char *const *)m;
			u64 n = field_count(f, obj);
			char sub[192];

			for (u64 i = 0; i < n && elems; i++) {
				snprintf(sub, sizeof(sub), "%s.%llu.", key, (unsigned long long)i);
				put_fields(r, sub, f->sub, elems + i * f->sub->size);
			}
			continue;
		}
		default:
			break;
		}
		rec_key(r, key);
		switch (f->kind) {
		case KFSIM_REC_U64:
			rec_add(r, "%llu", (unsigned long long)*(const u64 *)m);
			break;
		case KFSIM_REC_UINT:
			rec_add(r, "%u", *(const unsigned int *)m);
			break;
		case KFSIM_REC_ERRNO:
			rec_add(r, "%d", -*(const int *)m);
			break;
		case KFSIM_REC_BOOL:
			rec_add(r, "%d", *(const bool *)m ? 1 : 0);
			break;
		case KFSIM_REC_DOUBLE:
			rec_double_value(r, *(const double *)m);
			break;
		case KFSIM_REC_STR:
			rec_str_value(r, m, f->size);
			break;
		case KFSIM_REC_U64_ARRAY:
			put_u64s(r, m, f->size / sizeof(u64));
			break;
		case KFSIM_REC_U64_PTR: {
			const u64 *v = *(const u64 *const *)m;

			if (v)
				put_u64s(r, v, field_count(f, obj));
			else
				rec_add(r, "null");
			break;
		}
		default:
			break;
		}
	}
}

void kfsim_rec_put_table(struct kfsim_rec *r, const struct kfsim_rec_table *t, const void *obj)
{
	put_fields(r, "", t, obj);
}

/* Reading: a cursor over the record, the keys taken in the table's order. */
struct rec_reader {
	const char *start, *s;
	char *why;
	size_t why_size;
	const char *key;	/* the field being read */
};

static int bad(struct rec_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct rec_reader *rd, const char *fmt, ...)
{
	int n = snprintf(rd->why, rd->why_size, *rd->key ? "\"%s\": " : "%s", rd->key);
	va_list ap;

	if (n >= 0 && (size_t)n < rd->why_size) {
		va_start(ap, fmt);
		vsnprintf(rd->why + n, rd->why_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* the message quotes the file: its control bytes (a CR, an escape) would rewrite the
	 * terminal's line, and bytes past ASCII cut a character; one plain line is told */
	for (char *c = rd->why; rd->why_size && *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
			*c = '?';
	return -EINVAL;
}

static int get_key(struct rec_reader *rd, const char *key)
{
	size_t len = strlen(key);

	rd->key = key;
	if (*rd->s != (rd->s == rd->start ? '{' : ','))
		return bad(rd, "expected at byte %zu, found '%.12s'", (size_t)(rd->s - rd->start),
			   rd->s);
	rd->s++;
	if (rd->s[0] != '"' || strncmp(rd->s + 1, key, len) || rd->s[len + 1] != '"' ||
	    rd->s[len + 2] != ':')
		return bad(rd, "missing (found '%.24s' at byte %zu)", rd->s,
			   (size_t)(rd->s - rd->start));
	rd->s += len + 3;
	return 0;
}

/* A number kfsim wrote: digits, no sign, within @max; the cursor past it. */
static int get_number(struct rec_reader *rd, u64 max, u64 *value)
{
	char *end;

	if (*rd->s < '0' || *rd->s > '9')
		return bad(rd, "not a whole number ('%.12s')", rd->s);
	errno = 0;
	*value = strtoull(rd->s, &end, 10);
	if (errno || *value > max)
		return bad(rd, "%.*s is beyond %llu", (int)min_t(size_t, strspn(rd->s, "0123456789"), 24),
			   rd->s, (unsigned long long)max);
	if (*end != ',' && *end != '}' && *end != ']')
		return bad(rd, "not a whole number ('%.12s')", rd->s);
	rd->s = end;
	return 0;
}

static int get_double(struct rec_reader *rd, double *value)
{
	if (read_double(rd->s, value, &rd->s))
		return bad(rd, "not a number ('%.12s')", rd->s);
	return 0;
}

/* "[n,n,...]" of exactly @n numbers into @v (NULL: none is kept). */
static int get_u64s(struct rec_reader *rd, u64 *v, u64 n)
{
	u64 x = 0; /* gcc 12 -O2 cannot see get_number() sets it on success */

	if (*rd->s++ != '[')
		return bad(rd, "not an array");
	for (u64 i = 0; i < n; i++) {
		if (i && *rd->s++ != ',')
			return bad(rd, "holds %llu numbers, not %llu", (unsigned long long)i,
				   (unsigned long long)n);
		if (get_number(rd, U64_MAX, &x))
			return -EINVAL;
		if (v)
			v[i] = x;
	}
	if (*rd->s++ != ']')
		return bad(rd, "holds more than %llu numbers", (unsigned long long)n);
	return 0;
}

static int get_fields(struct rec_reader *rd, const char *prefix, const struct kfsim_rec_table *t,
		      void *obj);

/*
 * The fewest bytes an element of @t takes in a record: ',"NAME":' and a value of one byte at
 * least for each field it carries (arrays of structs none: their count may be 0).
 */
static size_t min_record_bytes(const struct kfsim_rec_table *t)
{
	size_t bytes = 0;

	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];

		if (f->kind == KFSIM_REC_STRUCT)
			bytes += min_record_bytes(f->sub);
		else if (f->kind != KFSIM_REC_NOT_CARRIED && f->kind != KFSIM_REC_STRUCTS &&
			 f->kind != KFSIM_REC_STRUCTS_PTR)
			bytes += strlen(f->name) + 5;
	}
	return bytes;
}

/* Array-of-structs field @f of @obj; *@key its name, for the messages. */
static int get_structs(struct rec_reader *rd, const struct kfsim_rec_field *f, void *obj,
		       const char *key)
{
	u64 n = field_count(f, obj);
	char *elems = (char *)obj + f->offset;
	char sub[192];

	if (f->kind == KFSIM_REC_STRUCTS && n > f->size / f->sub->size)
		return bad(rd, "%llu of them, beyond the %zu it holds", (unsigned long long)n,
			   f->size / f->sub->size);
	if (f->kind == KFSIM_REC_STRUCTS_PTR) {
		/*
		 * an element takes some bytes of the record (a job's fields some 500): a count it
		 * cannot hold is refused before it is allocated (a 4 MiB line of 2^20 jobs asked
		 * for 280 MiB when the bound was 4 bytes an element)
		 */
		if (n > f->max || n > strlen(rd->s) / max_t(size_t, min_record_bytes(f->sub), 1))
			return bad(rd, "%llu of them, more than the record holds (or than %llu)",
				   (unsigned long long)n, (unsigned long long)f->max);
		*(void **)elems = calloc(n ? n : 1, f->sub->size);
		if (!*(void **)elems)
			return -ENOMEM;
		elems = *(char **)elems;
	}
	for (u64 i = 0; i < n; i++) {
		int err;

		snprintf(sub, sizeof(sub), "%s.%llu.", key, (unsigned long long)i);
		err = get_fields(rd, sub, f->sub, elems + i * f->sub->size);
		if (err)
			return err;
	}
	return 0;
}

static int get_field(struct rec_reader *rd, const struct kfsim_rec_field *f, void *obj)
{
	void *m = (char *)obj + f->offset;
	u64 v;

	switch (f->kind) {
	case KFSIM_REC_U64:
		return get_number(rd, f->max ? f->max : U64_MAX, m);
	case KFSIM_REC_UINT:
		if (get_number(rd, f->max ? f->max : UINT_MAX, &v))
			return -EINVAL;
		*(unsigned int *)m = (unsigned int)v;
		return 0;
	case KFSIM_REC_ERRNO:
		if (get_number(rd, MAX_ERRNO, &v))
			return -EINVAL;
		*(int *)m = -(int)v;
		return 0;
	case KFSIM_REC_BOOL:
		if (get_number(rd, 1, &v))
			return -EINVAL;
		*(bool *)m = v;
		return 0;
	case KFSIM_REC_DOUBLE:
		return get_double(rd, m);
	case KFSIM_REC_STR:
		if (*rd->s != '"' || kfsim_rec_read_string(rd->s, m, f->size))
			return bad(rd, "not a string of fewer than %zu bytes", f->size);
		rd->s = kfsim_rec_skip_value(rd->s);
		return 0;
	case KFSIM_REC_U64_ARRAY:
		return get_u64s(rd, m, f->size / sizeof(u64));
	case KFSIM_REC_U64_PTR: {
		u64 n = field_count(f, obj);
		u64 *data;

		if (!strncmp(rd->s, "null", 4) && (rd->s[4] == ',' || rd->s[4] == '}')) {
			rd->s += 4;
			return 0;
		}
		/* a number takes two bytes at least ("0,"): no allocation for a count beyond */
		if (*rd->s != '[' || n > strlen(rd->s) / 2)
			return bad(rd, "not an array of %llu numbers", (unsigned long long)n);
		data = malloc(n ? n * sizeof(u64) : 1);
		if (!data)
			return -ENOMEM;
		*(u64 **)m = data;
		return get_u64s(rd, data, n);
	}
	default:
		return -EINVAL;
	}
}

static int get_fields(struct rec_reader *rd, const char *prefix, const struct kfsim_rec_table *t,
		      void *obj)
{
	char key[160];

	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		int err;

		if (f->kind == KFSIM_REC_NOT_CARRIED)
			continue;
		snprintf(key, sizeof(key), "%s%s", prefix, f->name);
		if (f->kind == KFSIM_REC_STRUCT) {
			char sub[192];

			snprintf(sub, sizeof(sub), "%s.", key);
			err = get_fields(rd, sub, f->sub, (char *)obj + f->offset);
		} else if (f->kind == KFSIM_REC_STRUCTS || f->kind == KFSIM_REC_STRUCTS_PTR) {
			rd->key = key;
			err = get_structs(rd, f, obj, key);
		} else {
			err = get_key(rd, key) ?: get_field(rd, f, obj);
		}
		if (err)
			return err;
	}
	return 0;
}

int kfsim_rec_get_table(const char *record, const struct kfsim_rec_table *t, void *obj, char *why,
			size_t why_size)
{
	struct rec_reader rd = { .start = record, .s = record, .why = why, .why_size = why_size,
				 .key = "" };
	int err;

	memset(obj, 0, t->size);
	if (why_size)
		why[0] = '\0';
	err = get_fields(&rd, "", t, obj);
	if (!err && (*rd.s != (rd.s == record ? '{' : '}') ||
		     (rd.s == record ? strcmp(rd.s, "{}") : rd.s[1] != '\0'))) {
		rd.key = "";
		err = bad(&rd, "more after the last field ('%.24s')", rd.s);
	}
	if (err == -ENOMEM)
		snprintf(why, why_size, "no memory (-ENOMEM)");
	if (err) {
		kfsim_rec_release_table(t, obj);
		memset(obj, 0, t->size);	/* no half-read result is taken for one */
	}
	return err;
}

void kfsim_rec_release_table(const struct kfsim_rec_table *t, void *obj)
{
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		char *m = (char *)obj + f->offset;

		if (f->kind == KFSIM_REC_STRUCT)
			kfsim_rec_release_table(f->sub, m);
		if (f->kind == KFSIM_REC_STRUCTS || f->kind == KFSIM_REC_STRUCTS_PTR) {
			char *elems = f->kind == KFSIM_REC_STRUCTS ? m : *(char **)m;
			u64 n = f->kind == KFSIM_REC_STRUCTS ? f->size / f->sub->size :
				field_count(f, obj);

			for (u64 i = 0; elems && i < n; i++)
				kfsim_rec_release_table(f->sub, elems + i * f->sub->size);
		}
		if (f->kind == KFSIM_REC_STRUCTS_PTR || f->kind == KFSIM_REC_U64_PTR) {
			free(*(void **)m);
			*(void **)m = NULL;
		}
	}
}

/* ---- the table against its struct --------------------------------------------------------- */

static int table_problem(char *why, size_t why_size, const struct kfsim_rec_table *t,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int table_problem(char *why, size_t why_size, const struct kfsim_rec_table *t,
			 const char *fmt, ...)
{
	int n = snprintf(why, why_size, "%s: ", t->name);
	va_list ap;

	if (n >= 0 && (size_t)n < why_size) {
		va_start(ap, fmt);
		vsnprintf(why + n, why_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Whether field @f's size is its kind's. */
static bool size_fits(const struct kfsim_rec_field *f)
{
	switch (f->kind) {
	case KFSIM_REC_U64:
		return f->size == sizeof(u64);
	case KFSIM_REC_UINT:
		return f->size == sizeof(unsigned int);
	case KFSIM_REC_ERRNO:
		return f->size == sizeof(int);
	case KFSIM_REC_BOOL:
		return f->size == sizeof(bool);
	case KFSIM_REC_DOUBLE:
		return f->size == sizeof(double);
	case KFSIM_REC_STR:
		return f->size > 0;
	case KFSIM_REC_U64_ARRAY:
		return f->size && f->size % sizeof(u64) == 0;
	case KFSIM_REC_U64_PTR:
	case KFSIM_REC_STRUCTS_PTR:
		return f->size == sizeof(void *);
	case KFSIM_REC_STRUCT:
		return f->sub && f->size == f->sub->size;
	case KFSIM_REC_STRUCTS:
		return f->sub && f->size && f->size % f->sub->size == 0;
	case KFSIM_REC_NOT_CARRIED:
		return f->why != NULL;
	}
	return false;
}

int kfsim_rec_table_check(const struct kfsim_rec_table *t, char *why, size_t why_size)
{
	size_t order[256], pos = 0;

	if (t->nr_fields > ARRAY_SIZE(order))
		return table_problem(why, why_size, t, "more than %zu fields", ARRAY_SIZE(order));
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[k];
		size_t j = k;

		if (!size_fits(f))
			return table_problem(why, why_size, t, "field %s: a size of %zu bytes is not "
					     "its kind's (or its reason or table is missing)",
					     f->name, f->size);
		if ((f->kind == KFSIM_REC_STRUCT || f->kind == KFSIM_REC_STRUCTS ||
		     f->kind == KFSIM_REC_STRUCTS_PTR) &&
		    kfsim_rec_table_check(f->sub, why, why_size))
			return -EINVAL;
		if (f->kind == KFSIM_REC_STRUCTS_PTR && !f->max)
			return table_problem(why, why_size, t, "field %s: no largest count", f->name);
		if (f->kind == KFSIM_REC_U64_PTR || f->kind == KFSIM_REC_STRUCTS ||
		    f->kind == KFSIM_REC_STRUCTS_PTR) {
			bool counted = false;

			/* read before the array, so its count is known when the array is read */
			for (size_t c = 0; c < k; c++)
				counted |= t->fields[c].offset == f->count_offset &&
					   t->fields[c].size == f->count_size &&
					   (t->fields[c].kind == KFSIM_REC_UINT ||
					    t->fields[c].kind == KFSIM_REC_U64);
			if (!counted)
				return table_problem(why, why_size, t, "field %s: its count is no "
						     "number field before it", f->name);
		}
		/* insertion by offset */
		while (j && t->fields[order[j - 1]].offset > f->offset) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
	for (size_t k = 0; k < t->nr_fields; k++) {
		const struct kfsim_rec_field *f = &t->fields[order[k]];
		size_t aligned = (pos + f->align - 1) / f->align * f->align;

		if (f->offset < pos)
			return table_problem(why, why_size, t, "field %s overlaps the field before "
					     "it", f->name);
		if (f->offset != aligned)
			return table_problem(why, why_size, t, "bytes %zu..%zu are in no field: a "
					     "member missing from its table?", pos, f->offset - 1);
		pos = f->offset + f->size;
	}
	if ((pos + t->align - 1) / t->align * t->align != t->size)
		return table_problem(why, why_size, t, "bytes %zu..%zu are in no field: a member "
				     "missing from its table?", pos, t->size - 1);
	return 0;
}
