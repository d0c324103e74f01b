// SPDX-License-Identifier: MIT
/*
 * Human-readable views of netlink bytes: attributes printed through their policy (offset from
 * the message start, type, policy type, value), and a hex dump with a caret under the byte an
 * extended ACK points at.  Reads only within the given lengths; the attribute walk stops at
 * the first attribute that does not fit, as the kernel's does.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <kfsim/json.h>
#include "nl_internal.h"

static const char *const nla_type_names[NLA_TYPE_MAX + 1] = {
	[NLA_UNSPEC] = "unspec",
	[NLA_U8] = "u8",
	[NLA_U16] = "u16",
	[NLA_U32] = "u32",
	[NLA_U64] = "u64",
	[NLA_STRING] = "string",
	[NLA_FLAG] = "flag",
	[NLA_MSECS] = "msecs",
	[NLA_NESTED] = "nested",
	[NLA_NESTED_ARRAY] = "nested-array",
	[NLA_NUL_STRING] = "nul-string",
	[NLA_BINARY] = "binary",
	[NLA_S8] = "s8",
	[NLA_S16] = "s16",
	[NLA_S32] = "s32",
	[NLA_S64] = "s64",
	[NLA_BITFIELD32] = "bitfield32",
	[NLA_REJECT] = "reject",
	[NLA_BE16] = "be16",
	[NLA_BE32] = "be32",
	[NLA_SINT] = "sint",
	[NLA_UINT] = "uint",
};

const char *kfsim_nla_type_name(int type)
{
	return type >= 0 && type <= NLA_TYPE_MAX ? nla_type_names[type] : "?";
}

/* Printable text, NUL-padded or not, in quotes; anything else in hex. */
static void print_bytes(FILE *out, const u8 *p, int len)
{
	int textlen = 0;
	bool text = len > 0;

	while (textlen < len && p[textlen])
		textlen++;
	for (int i = 0; i < len; i++)
		if (i < textlen ? !isprint(p[i]) : p[i] != 0)
			text = false;
	if (text) {
		fprintf(out, "\"%.*s\"", textlen, (const char *)p);
		return;
	}
	for (int i = 0; i < len && i < 32; i++)
		fprintf(out, "%02x", p[i]);
	if (len > 32)
		fprintf(out, "... (%d bytes)", len);
}

static void print_value(FILE *out, const struct nlattr *nla, const struct nla_policy *pt)
{
	int len = nla_len(nla);
	const u8 *d = nla_data(nla);

	switch (pt->type) {
	case NLA_U8:
		if (len == 1) {
			fprintf(out, "%u", nla_get_u8(nla));
			return;
		}
		break;
	case NLA_U16:
		if (len == 2) {
			fprintf(out, "%u", nla_get_u16(nla));
			return;
		}
		break;
	case NLA_U32:
		if (len == 4) {
			fprintf(out, "%u", nla_get_u32(nla));
			return;
		}
		break;
	case NLA_U64:
	case NLA_MSECS:
		if (len == 8) {
			fprintf(out, "%" PRIu64, nla_get_u64(nla));
			return;
		}
		break;
	case NLA_S8:
		if (len == 1) {
			fprintf(out, "%d", nla_get_s8(nla));
			return;
		}
		break;
	case NLA_S16:
		if (len == 2) {
			fprintf(out, "%d", nla_get_s16(nla));
			return;
		}
		break;
	case NLA_S32:
		if (len == 4) {
			fprintf(out, "%d", nla_get_s32(nla));
			return;
		}
		break;
	case NLA_S64:
		if (len == 8) {
			fprintf(out, "%" PRId64, nla_get_s64(nla));
			return;
		}
		break;
	case NLA_BE16:
		if (len == 2) {
			fprintf(out, "%u", be16toh(nla_get_be16(nla)));
			return;
		}
		break;
	case NLA_BE32:
		if (len == 4) {
			fprintf(out, "%u", be32toh(nla_get_be32(nla)));
			return;
		}
		break;
	case NLA_UINT:
		if (len == 4 || len == 8) {
			fprintf(out, "%" PRIu64, nla_get_uint(nla));
			return;
		}
		break;
	case NLA_SINT:
		if (len == 4 || len == 8) {
			fprintf(out, "%" PRId64, nla_get_sint(nla));
			return;
		}
		break;
	case NLA_FLAG:
		if (!len) {
			fprintf(out, "true");
			return;
		}
		break;
	case NLA_BITFIELD32:
		if (len == 8) {
			struct nla_bitfield32 bf = nla_get_bitfield32(nla);

			fprintf(out, "value 0x%x selector 0x%x", bf.value, bf.selector);
			return;
		}
		break;
	default:
		break;
	}
	print_bytes(out, d, len);
}

static void print_attrs(FILE *out, const struct nlattr *head, int len, int maxtype,
			const struct nla_policy *policy, const void *base, int depth)
{
	const struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem)
	{
		int type = nla_type(nla);
		const struct nla_policy *pt =
			policy && type > 0 && type <= maxtype ? &policy[type] : NULL;

		fprintf(out, "%*s@%-4ld [%d%s] ", 2 + 2 * depth, "",
			(long)((const u8 *)nla - (const u8 *)base), type,
			nla->nla_type & NLA_F_NESTED ? "|NESTED" : "");
		if (!pt) {
			fprintf(out, "(not in policy) ");
			print_bytes(out, nla_data(nla), nla_len(nla));
			fputc('\n', out);
			continue;
		}
		fprintf(out, "%s", kfsim_nla_type_name(pt->type));
		if ((pt->type == NLA_NESTED || pt->type == NLA_NESTED_ARRAY) && depth < 8) {
			fprintf(out, "%s\n", nla_len(nla) ? ":" : " (empty)");
			if (pt->type == NLA_NESTED) {
				print_attrs(out, nla_data(nla), nla_len(nla), pt->len,
					    pt->nested_policy, base, depth + 1);
			} else {
				const struct nlattr *el;
				int erem;

				nla_for_each_nested(el, nla, erem)
				{
					fprintf(out, "%*s@%-4ld [%d] element:\n", 4 + 2 * depth, "",
						(long)((const u8 *)el - (const u8 *)base),
						nla_type(el));
					print_attrs(out, nla_data(el), nla_len(el), pt->len,
						    pt->nested_policy, base, depth + 2);
				}
			}
			continue;
		}
		fprintf(out, " = ");
		print_value(out, nla, pt);
		fputc('\n', out);
	}
	if (rem > 0)
		fprintf(out, "%*s(%d bytes left over)\n", 2 + 2 * depth, "", rem);
}

void kfsim_nla_print(FILE *out, const struct nlattr *head, int len, int maxtype,
		     const struct nla_policy *policy, const void *base)
{
	if (len < 0 || !head)
		len = 0;
	print_attrs(out, head, len, maxtype, policy, base ? base : head, 0);
}

static bool is_integer_type(int type)
{
	switch (type) {
	case NLA_U8: case NLA_U16: case NLA_U32: case NLA_U64: case NLA_MSECS:
	case NLA_S8: case NLA_S16: case NLA_S32: case NLA_S64:
	case NLA_BE16: case NLA_BE32: case NLA_UINT: case NLA_SINT:
		return true;
	default:
		return false;
	}
}

/*
 * The value as print_value() shows it: integers of the policy's size as JSON numbers, a flag as
 * true, text without the quotes, anything else as the text output's hex string.
 */
static void json_value(struct kfsim_json *json, const struct nlattr *nla,
		       const struct nla_policy *pt)
{
	char *text = NULL, *end;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);

	if (!mem) {
		kfsim_json_kv_string(json, "value", "?");
		return;
	}
	if (pt)
		print_value(mem, nla, pt);
	else
		print_bytes(mem, nla_data(nla), nla_len(nla));
	fclose(mem);
	size = strlen(text);
	if (size >= 2 && text[0] == '"' && text[size - 1] == '"') {
		text[size - 1] = '\0';
		kfsim_json_kv_string(json, "value", text + 1);
		goto out;
	}
	kfsim_json_key(json, "value");
	errno = 0;
	if (pt && is_integer_type(pt->type) && text[0] == '-') {
		long long v = strtoll(text, &end, 10);

		if (!*end && !errno) {
			kfsim_json_int(json, v);
			goto out;
		}
	} else if (pt && is_integer_type(pt->type) && isdigit((unsigned char)text[0])) {
		unsigned long long v = strtoull(text, &end, 10);

		if (!*end && !errno) {
			kfsim_json_uint(json, v);
			goto out;
		}
	} else if (pt && pt->type == NLA_FLAG && !nla_len(nla)) {
		kfsim_json_bool(json, true);
		goto out;
	}
	kfsim_json_string(json, text);	/* hex, or "value 0x.. selector 0x.." */
out:
	free(text);
}

static void json_attrs(struct kfsim_json *json, const struct nlattr *head, int len, int maxtype,
		       const struct nla_policy *policy, const void *base, int depth)
{
	const struct nlattr *nla;
	int rem;

	kfsim_json_array_begin(json);
	nla_for_each_attr(nla, head, len, rem)
	{
		int type = nla_type(nla);
		const struct nla_policy *pt =
			policy && type > 0 && type <= maxtype ? &policy[type] : NULL;

		kfsim_json_object_begin(json);
		kfsim_json_kv_int(json, "offset", (const u8 *)nla - (const u8 *)base);
		kfsim_json_kv_int(json, "type", type);
		kfsim_json_kv_bool(json, "nested_flag", nla->nla_type & NLA_F_NESTED);
		kfsim_json_key(json, "policy");
		if (pt)
			kfsim_json_string(json, kfsim_nla_type_name(pt->type));
		else
			kfsim_json_null(json);
		if (pt && pt->type == NLA_NESTED && depth < 8) {
			kfsim_json_key(json, "attrs");
			json_attrs(json, nla_data(nla), nla_len(nla), pt->len, pt->nested_policy,
				   base, depth + 1);
		} else if (pt && pt->type == NLA_NESTED_ARRAY && depth < 8) {
			const struct nlattr *el;
			int erem;

			kfsim_json_key(json, "elements");
			kfsim_json_array_begin(json);
			nla_for_each_nested(el, nla, erem)
			{
				kfsim_json_object_begin(json);
				kfsim_json_kv_int(json, "offset",
						  (const u8 *)el - (const u8 *)base);
				kfsim_json_kv_int(json, "type", nla_type(el));
				kfsim_json_key(json, "attrs");
				json_attrs(json, nla_data(el), nla_len(el), pt->len,
					   pt->nested_policy, base, depth + 2);
				kfsim_json_object_end(json);
			}
			kfsim_json_array_end(json);
		} else {
			json_value(json, nla, pt);
		}
		kfsim_json_object_end(json);
	}
	if (rem > 0) {
		kfsim_json_object_begin(json);
		kfsim_json_kv_int(json, "left_over_bytes", rem);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
}

void kfsim_nla_print_json(struct kfsim_json *json, const struct nlattr *head, int len,
			  int maxtype, const struct nla_policy *policy, const void *base)
{
	if (len < 0 || !head)
		len = 0;
	json_attrs(json, head, len, maxtype, policy, base ? base : head, 0);
}

void kfsim_nl_print_caret(FILE *out, const void *buf, size_t len, long offs)
{
	const u8 *p = buf;

	for (size_t row = 0; row < len; row += 16) {
		fprintf(out, "  %04zx ", row);
		for (size_t i = row; i < row + 16 && i < len; i++)
			fprintf(out, " %02x", p[i]);
		fputc('\n', out);
		if (offs >= 0 && (size_t)offs >= row && (size_t)offs < row + 16) {
			size_t col = offs - row, span = min_t(size_t, 4, len - offs);

			fprintf(out, "       %*s", (int)(col * 3), "");
			for (size_t i = 0; i < span && col + i < 16; i++)
				fprintf(out, "%s", i ? "~~~" : " ^^");
			fprintf(out, "  <- offset %ld\n", offs);
		}
	}
}
