/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_JSON_H
#define KFSIM_JSON_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A streaming JSON writer for --json output, reports and trace files.  It writes as it goes (no
 * document tree), inserts commas itself and escapes strings per RFC 8259, so callers only say
 * what comes next.  Nesting is checked: a mismatched end or a value where a key is due sets an
 * error that kfsim_json_finish() returns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <kfsim/types.h>

#define KFSIM_JSON_MAX_DEPTH 32

/**
 * struct kfsim_json - writer state (treat as opaque)
 * @out: the stream written to
 * @depth: current nesting depth
 * @pretty: indent with two spaces per level
 * @error: first misuse seen (-EINVAL) or 0
 * @first: per level, whether no member has been written yet
 * @in_object: per level, object (true) or array (false)
 * @key_pending: a key was written and its value is due
 */
struct kfsim_json {
	FILE *out;
	int depth;
	bool pretty;
	int error;
	bool first[KFSIM_JSON_MAX_DEPTH];
	bool in_object[KFSIM_JSON_MAX_DEPTH];
	bool key_pending;
};

/** kfsim_json_init() - start a document on @out. */
void kfsim_json_init(struct kfsim_json *json, FILE *out, bool pretty);
/** kfsim_json_object_begin() - "{" (as a value, or the document). */
void kfsim_json_object_begin(struct kfsim_json *json);
/** kfsim_json_object_end() - "}". */
void kfsim_json_object_end(struct kfsim_json *json);
/** kfsim_json_array_begin() - "[". */
void kfsim_json_array_begin(struct kfsim_json *json);
/** kfsim_json_array_end() - "]". */
void kfsim_json_array_end(struct kfsim_json *json);
/** kfsim_json_key() - the key of the next member of the current object. */
void kfsim_json_key(struct kfsim_json *json, const char *key);
/** kfsim_json_string() - a string value (NULL writes null). */
void kfsim_json_string(struct kfsim_json *json, const char *value);
/** kfsim_json_int() - an integer value. */
void kfsim_json_int(struct kfsim_json *json, long long value);
/** kfsim_json_uint() - an unsigned integer value. */
void kfsim_json_uint(struct kfsim_json *json, unsigned long long value);
/** kfsim_json_double() - a number; NaN and infinities (not JSON) are written as null. */
void kfsim_json_double(struct kfsim_json *json, double value);
/** kfsim_json_bool() - true or false. */
void kfsim_json_bool(struct kfsim_json *json, bool value);
/** kfsim_json_null() - null. */
void kfsim_json_null(struct kfsim_json *json);

/* Shorthands for "key": value members. */
void kfsim_json_kv_string(struct kfsim_json *json, const char *key, const char *value);
void kfsim_json_kv_int(struct kfsim_json *json, const char *key, long long value);
void kfsim_json_kv_uint(struct kfsim_json *json, const char *key, unsigned long long value);
void kfsim_json_kv_double(struct kfsim_json *json, const char *key, double value);
void kfsim_json_kv_bool(struct kfsim_json *json, const char *key, bool value);

/**
 * kfsim_json_finish() - end the document with a newline
 *
 * Return: 0, -EINVAL when the writer was misused or nesting is still open, -EIO on a write error.
 */
int kfsim_json_finish(struct kfsim_json *json);

/**
 * kfsim_json_write_escaped() - write @s as a quoted, escaped JSON string to @out; UTF-8
 * sequences pass through, each byte that is not part of one becomes U+FFFD, so the output is
 * always valid JSON text.
 */
void kfsim_json_write_escaped(FILE *out, const char *s);

#pragma GCC visibility pop
#endif /* KFSIM_JSON_H */
