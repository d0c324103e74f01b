/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_RECORD_H
#define KFSIM_CLI_RECORD_H

/*
 * A grid point's record (cli_grid.h): a flat JSON object on one line of a partial file.
 *
 * A result struct becomes a record through ONE table of its fields (struct kfsim_rec_table):
 * kfsim_rec_put_table() writes the record by walking it, kfsim_rec_get_table() reads the record
 * back by walking the same table, so nothing can be written that is not read or the reverse.
 * A member the record leaves out is in the table too, as KFSIM_REC_NOT_CARRIED with its reason;
 * kfsim_rec_table_check() proves that the table's members tile the struct (every byte is in one
 * member, or alignment padding), so a member added to the struct and not to its table is caught
 * by the test that checks the table (tests/grid/test_records.c).
 *
 * Invariants of a record written from a table:
 * - keys in table order, a member of an array of structs as NAME.I.MEMBER ("jobs.2.mb_s");
 *   the reader takes them in that order and nothing else (no key missing, added or moved);
 * - doubles with 17 significant digits (they read back to the same double), inf and nan as
 *   strings; integers in decimal without sign, each within its member's type and the table's max;
 * - a pointer member's array is read back allocated (kfsim_rec_release_table() frees it), a
 *   count beyond what the record can hold is refused before anything is allocated.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/types.h>

/* A record being built: call kfsim_rec_* in order, then use @buf (NULL after out of memory). */
struct kfsim_rec {
	char *buf;
	size_t len, cap;
};

void kfsim_rec_init(struct kfsim_rec *r);
void kfsim_rec_u64(struct kfsim_rec *r, const char *key, u64 value);
void kfsim_rec_double(struct kfsim_rec *r, const char *key, double value);
void kfsim_rec_str(struct kfsim_rec *r, const char *key, const char *value);
/* The finished record ("{...}"), or NULL when out of memory; free() it. */
char *kfsim_rec_finish(struct kfsim_rec *r);

/* Read @key from @record: -ENOENT when absent, -EINVAL when not of that type. */
int kfsim_rec_get_u64(const char *record, const char *key, u64 *value);
int kfsim_rec_get_double(const char *record, const char *key, double *value);
int kfsim_rec_get_str(const char *record, const char *key, char *buf, size_t size);

/* The JSON primitives the partial files' reader shares (cli_grid.c). */
/* The value of top-level @key in the object @rec, or NULL. */
const char *kfsim_rec_find(const char *rec, const char *key);
/* Past the value at @s (string, number, literal, or a nested array/object), or NULL. */
const char *kfsim_rec_skip_value(const char *s);
/*
 * Whether @obj is one object of exactly the top-level keys @keys (NULL-terminated), each once,
 * in that order, and nothing after it: the shape kfsim writes.  kfsim_rec_find() takes the first
 * of a key given twice; a line with a key twice or one more is refused through this first.
 */
bool kfsim_rec_keys_are(const char *obj, const char *const *keys);
/* Decode the JSON string at @s into @buf: -EINVAL, -ENAMETOOLONG. */
int kfsim_rec_read_string(const char *s, char *buf, size_t size);

/* ---- a struct as a record: its table of fields ------------------------------------------ */

enum kfsim_rec_kind {
	KFSIM_REC_U64,		/* u64 */
	KFSIM_REC_UINT,		/* unsigned int (an enum too) */
	KFSIM_REC_ERRNO,	/* int, 0 or -errno: written as the errno, 0..MAX_ERRNO */
	KFSIM_REC_BOOL,		/* bool: 0 or 1 */
	KFSIM_REC_DOUBLE,	/* double, exact */
	KFSIM_REC_STR,		/* char[size], NUL-terminated */
	KFSIM_REC_U64_ARRAY,	/* u64[size / 8], every element */
	KFSIM_REC_U64_PTR,	/* (const) u64 *, @count of them; NULL written as null */
	KFSIM_REC_STRUCT,	/* a struct member, of @sub's fields (keys NAME.MEMBER) */
	KFSIM_REC_STRUCTS,	/* struct[size / sub->size] of @sub's fields, the first @count */
	KFSIM_REC_STRUCTS_PTR,	/* struct * to @count of @sub's fields (@max at most) */
	KFSIM_REC_NOT_CARRIED,	/* left out on purpose (@why); read back as zeros */
};

struct kfsim_rec_table;

/**
 * struct kfsim_rec_field - one member of a struct, as its record carries it
 * @name: its key (the member's name, KFSIM_REC_FIELD())
 * @kind: how it is written and read
 * @offset, @size, @align: the member's (offsetof, sizeof, alignment)
 * @count_offset, @count_size: arrays of a count: the member (KFSIM_REC_UINT or KFSIM_REC_U64,
 *                             earlier in the table) that counts their elements
 * @max: numbers: the largest valid value, 0 for the type's; KFSIM_REC_STRUCTS_PTR: elements
 * @sub: a struct member or arrays of structs: the element's table
 * @why: KFSIM_REC_NOT_CARRIED: why a merged point needs it not
 */
struct kfsim_rec_field {
	const char *name;
	enum kfsim_rec_kind kind;
	size_t offset, size, align;
	size_t count_offset, count_size;
	u64 max;
	const struct kfsim_rec_table *sub;
	const char *why;
};

/* struct @name: @size bytes aligned to @align, its members in @fields */
struct kfsim_rec_table {
	const char *name;
	size_t size, align;
	const struct kfsim_rec_field *fields;
	size_t nr_fields;
};

#define KFSIM_REC_MEMBER(T, m)                                                                    \
	.offset = offsetof(T, m), .size = sizeof(((T *)0)->m), .align = __alignof__(((T *)0)->m)
/* member @m of struct type @T, of kind @k; more designators (.max, .sub, ...) may follow */
#define KFSIM_REC_FIELD(T, m, k, ...) { .name = #m, .kind = (k), KFSIM_REC_MEMBER(T, m), __VA_ARGS__ }
/* the count of an array member: member @m of @T */
#define KFSIM_REC_COUNT(T, m) .count_offset = offsetof(T, m), .count_size = sizeof(((T *)0)->m)
#define KFSIM_REC_TABLE(T, fields_)                                                               \
	{ .name = #T, .size = sizeof(T), .align = __alignof__(T), .fields = (fields_),           \
	  .nr_fields = ARRAY_SIZE(fields_) }

/* @obj's fields as @t lists them, appended to @r. */
void kfsim_rec_put_table(struct kfsim_rec *r, const struct kfsim_rec_table *t, const void *obj);

/**
 * kfsim_rec_get_table() - @record back into @obj (zeroed first) as @t lists its fields
 * @why: on error, which field and what is wrong with it ("jobs.1.ss_attained: not 0 or 1")
 *
 * Return: 0; -EINVAL for a record not as kfsim_rec_put_table() writes it (nothing is left
 * allocated then, @obj zeroed); -ENOMEM.
 */
int kfsim_rec_get_table(const char *record, const struct kfsim_rec_table *t, void *obj, char *why,
			size_t why_size);

/* Free what kfsim_rec_get_table() allocated in @obj (its pointer members), and zero them. */
void kfsim_rec_release_table(const struct kfsim_rec_table *t, void *obj);

/**
 * kfsim_rec_table_check() - whether @t describes its struct whole
 *
 * Every byte of the struct is in exactly one field or is alignment padding before the next
 * field (or at the end), each field's size fits its kind, counts come before their arrays, and
 * the tables of arrays of structs are whole too.
 * Return: 0, or -EINVAL with the first problem in @why ("struct X: bytes 40..47 are in no
 * field: a member missing from its table?").
 */
int kfsim_rec_table_check(const struct kfsim_rec_table *t, char *why, size_t why_size);

#endif /* KFSIM_CLI_RECORD_H */
