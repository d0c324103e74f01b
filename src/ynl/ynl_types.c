// SPDX-License-Identifier: MIT
/*
 * YNL spec reader, the type table: attribute type and protocol names, sizes, C types, and
 * which types each protocol level's schema allows.
 */
#include "ynl_parse_internal.h"

/* -- type names ------------------------------------------------------------------------ */

static const char *const type_names[YNL_T_COUNT] = {
	[YNL_T_UNUSED] = "unused", [YNL_T_PAD] = "pad", [YNL_T_FLAG] = "flag",
	[YNL_T_BINARY] = "binary", [YNL_T_U8] = "u8", [YNL_T_U16] = "u16", [YNL_T_U32] = "u32",
	[YNL_T_U64] = "u64", [YNL_T_S8] = "s8", [YNL_T_S16] = "s16", [YNL_T_S32] = "s32",
	[YNL_T_S64] = "s64", [YNL_T_UINT] = "uint", [YNL_T_SINT] = "sint",
	[YNL_T_STRING] = "string", [YNL_T_NEST] = "nest", [YNL_T_BITFIELD32] = "bitfield32",
	[YNL_T_INDEXED_ARRAY] = "indexed-array", [YNL_T_NEST_TYPE_VALUE] = "nest-type-value",
	[YNL_T_SUB_MESSAGE] = "sub-message",
};

const char *ynl_type_name(enum ynl_type type)
{
	return type < YNL_T_COUNT ? type_names[type] : "?";
}

bool ynl_type_is_scalar(enum ynl_type type)
{
	return (type >= YNL_T_U8 && type <= YNL_T_SINT);
}

bool ynl_type_is_signed(enum ynl_type type)
{
	return (type >= YNL_T_S8 && type <= YNL_T_S64) || type == YNL_T_SINT;
}

int ynl_type_size(enum ynl_type type)
{
	switch (type) {
	case YNL_T_U8: case YNL_T_S8: return 1;
	case YNL_T_U16: case YNL_T_S16: return 2;
	case YNL_T_U32: case YNL_T_S32: return 4;
	case YNL_T_U64: case YNL_T_S64: return 8;
	default: return 0;
	}
}

const char *ynl_type_ctype(enum ynl_type type)
{
	switch (type) {
	case YNL_T_U8: return "__u8";
	case YNL_T_U16: return "__u16";
	case YNL_T_U32: return "__u32";
	case YNL_T_U64: case YNL_T_UINT: return "__u64";
	case YNL_T_S8: return "__s8";
	case YNL_T_S16: return "__s16";
	case YNL_T_S32: return "__s32";
	case YNL_T_S64: case YNL_T_SINT: return "__s64";
	default: return NULL;
	}
}

static const char *const proto_names[] = {
	[YNL_PROTO_GENETLINK] = "genetlink", [YNL_PROTO_GENETLINK_C] = "genetlink-c",
	[YNL_PROTO_GENETLINK_LEGACY] = "genetlink-legacy", [YNL_PROTO_NETLINK_RAW] = "netlink-raw",
};

const char *ynl_proto_name(enum ynl_proto proto)
{
	return proto_names[proto];
}

/* Which attribute types each level's schema allows. */
enum ynl_type parse_type(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	const char *text;

	expect_type(p, node, YAML_SCALAR_NODE, what);
	text = scalar_text(node);
	for (int t = 0; t < YNL_T_COUNT; t++) {
		if (strcmp(text, type_names[t]))
			continue;
		if (t == YNL_T_BITFIELD32 && p->spec->proto < YNL_PROTO_GENETLINK_LEGACY)
			fail_at(p, node, "type 'bitfield32' needs protocol genetlink-legacy or later");
		if (t == YNL_T_SUB_MESSAGE && p->spec->proto < YNL_PROTO_NETLINK_RAW)
			fail_at(p, node, "type 'sub-message' needs protocol netlink-raw");
		return (enum ynl_type)t;
	}
	fail_at(p, node, "unknown %s '%s'", what, text);
}

/* Whether @a and @b list the same attributes of the op's set, in any order. */
bool ynl_msg_same_attrs(const struct ynl_msg *a, const struct ynl_msg *b)
{
	if (a->nr_attrs != b->nr_attrs)
		return false;
	for (int i = 0; i < a->nr_attrs; i++) {
		bool found = false;

		for (int j = 0; j < b->nr_attrs && !found; j++)
			found = a->attrs[i] == b->attrs[j];
		if (!found)
			return false;
	}
	return true;
}
