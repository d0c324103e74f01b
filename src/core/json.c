// SPDX-License-Identifier: MIT
/* The streaming JSON writer: commas, indentation and escaping, checked nesting. */
#include <math.h>

#include <kfsim/err.h>
#include <kfsim/json.h>

void kfsim_json_init(struct kfsim_json *json, FILE *out, bool pretty)
{
	*json = (struct kfsim_json){ .out = out, .pretty = pretty };
	json->first[0] = true;
}

static void json_indent(struct kfsim_json *json)
{
	if (!json->pretty)
		return;
	fputc('\n', json->out);
	for (int i = 0; i < json->depth; i++)
		fputs("  ", json->out);
}

/* Everything that writes a value goes through here: separator, and the key rule. */
static void json_before_value(struct kfsim_json *json)
{
	if (json->key_pending) {
		json->key_pending = false;
		return;
	}
	if (json->depth > 0 && json->in_object[json->depth]) {
		json->error = -EINVAL;	/* a value inside an object needs a key first */
		return;
	}
	if (json->depth == 0 && !json->first[0]) {
		json->error = -EINVAL;	/* a second top-level value */
		return;
	}
	if (!json->first[json->depth])
		fputc(',', json->out);
	json->first[json->depth] = false;
	if (json->depth > 0)
		json_indent(json);
}

static void json_open(struct kfsim_json *json, char bracket, bool object)
{
	json_before_value(json);
	if (json->depth + 1 >= KFSIM_JSON_MAX_DEPTH) {
		json->error = -EINVAL;
		return;
	}
	fputc(bracket, json->out);
	json->depth++;
	json->first[json->depth] = true;
	json->in_object[json->depth] = object;
}

static void json_close(struct kfsim_json *json, char bracket, bool object)
{
	if (json->depth == 0 || json->in_object[json->depth] != object || json->key_pending) {
		json->error = -EINVAL;
		return;
	}
	bool empty = json->first[json->depth];

	json->depth--;
	if (!empty)
		json_indent(json);
	fputc(bracket, json->out);
}

void kfsim_json_object_begin(struct kfsim_json *json)
{
	json_open(json, '{', true);
}

void kfsim_json_object_end(struct kfsim_json *json)
{
	json_close(json, '}', true);
}

void kfsim_json_array_begin(struct kfsim_json *json)
{
	json_open(json, '[', false);
}

void kfsim_json_array_end(struct kfsim_json *json)
{
	json_close(json, ']', false);
}

/*
 * The length of the well-formed UTF-8 sequence at @s (1 to 4 bytes; RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0.  JSON text must be UTF-8, and names that reach
 * kfsim from outside (a device name, a path) can be any bytes.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void kfsim_json_write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (c < 0x20) {
				fprintf(out, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, out);
			} else {
				int len = utf8_len((const unsigned char *)s);

				if (!len) {
					fputs("\\ufffd", out);	/* a byte that is not UTF-8 */
					break;
				}
				fwrite(s, 1, len, out);
				s += len - 1;
			}
		}
	}
	fputc('"', out);
}

void kfsim_json_key(struct kfsim_json *json, const char *key)
{
	if (json->depth == 0 || !json->in_object[json->depth] || json->key_pending) {
		json->error = -EINVAL;
		return;
	}
	if (!json->first[json->depth])
		fputc(',', json->out);
	json->first[json->depth] = false;
	json_indent(json);
	kfsim_json_write_escaped(json->out, key);
	fputs(json->pretty ? ": " : ":", json->out);
	json->key_pending = true;
}

void kfsim_json_string(struct kfsim_json *json, const char *value)
{
	json_before_value(json);
	if (value)
		kfsim_json_write_escaped(json->out, value);
	else
		fputs("null", json->out);
}

void kfsim_json_int(struct kfsim_json *json, long long value)
{
	json_before_value(json);
	fprintf(json->out, "%lld", value);
}

void kfsim_json_uint(struct kfsim_json *json, unsigned long long value)
{
	json_before_value(json);
	fprintf(json->out, "%llu", value);
}

void kfsim_json_double(struct kfsim_json *json, double value)
{
	json_before_value(json);
	if (isfinite(value))
		fprintf(json->out, "%.17g", value);
	else
		fputs("null", json->out);
}

void kfsim_json_bool(struct kfsim_json *json, bool value)
{
	json_before_value(json);
	fputs(value ? "true" : "false", json->out);
}

void kfsim_json_null(struct kfsim_json *json)
{
	json_before_value(json);
	fputs("null", json->out);
}

void kfsim_json_kv_string(struct kfsim_json *json, const char *key, const char *value)
{
	kfsim_json_key(json, key);
	kfsim_json_string(json, value);
}

void kfsim_json_kv_int(struct kfsim_json *json, const char *key, long long value)
{
	kfsim_json_key(json, key);
	kfsim_json_int(json, value);
}

void kfsim_json_kv_uint(struct kfsim_json *json, const char *key, unsigned long long value)
{
	kfsim_json_key(json, key);
	kfsim_json_uint(json, value);
}

void kfsim_json_kv_double(struct kfsim_json *json, const char *key, double value)
{
	kfsim_json_key(json, key);
	kfsim_json_double(json, value);
}

void kfsim_json_kv_bool(struct kfsim_json *json, const char *key, bool value)
{
	kfsim_json_key(json, key);
	kfsim_json_bool(json, value);
}

int kfsim_json_finish(struct kfsim_json *json)
{
	if (!json->error && (json->depth != 0 || json->key_pending))
		json->error = -EINVAL;
	fputc('\n', json->out);
	if (!json->error && ferror(json->out))
		json->error = -EIO;
	return json->error;
}
