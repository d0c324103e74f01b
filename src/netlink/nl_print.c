// SPDX-License-Identifier: MIT
/*
 * Human-readable views of netlink bytes: attributes printed through their policy (offset from
 * the message start, type, policy type, value), and a hex dump with a caret under the byte an
 * extended ACK points at.  Reads only within the given lengths; the attribute walk stops at
 * the first attribute that does not fit, as the kernel's does.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
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

static void print_bytes(FILE *out, const u8 *p, int len)
{
	bool text = len > 0;

	for (int i = 0; i < len; i++)
		if (!isprint(p[i]) && !(p[i] == 0 && i == len - 1))
			text = false;
	if (text) {
		fprintf(out, "\"%.*s\"", p[len - 1] ? len : len - 1, (const char *)p);
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
			fprintf(out, "%u", nla_get_be16(nla));
			return;
		}
		break;
	case NLA_BE32:
		if (len == 4) {
			fprintf(out, "%u", nla_get_be32(nla));
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
