// SPDX-License-Identifier: MIT
/*
 * User-side emitter: the shape of ynl-gen-c.py --mode user, on kfsim's runtime (<kfsim/ynl.h>).
 *
 * For every attribute set S: struct F_S (presence bits, _len for strings/binaries, members),
 * F_S_put() (as a nest), F_S_parse(), F_S_free() (members), F_S_equal(), and the user policy
 * table F_S_nest.  For every operation message (do/dump request and reply, event): struct
 * F_op_{req,rsp,req_dump,rsp_dump,event} with _alloc/_free/_put/_parse/_equal, and setters on
 * requests (nested ones one level deep: F_op_req_set_header_dev_name()).  Genetlink families
 * also get F_op() / F_op_dump() on a struct kfsim_ynl_sock, F_op_list for dumps, F_op_ntf for
 * notifications with their parse/free table, and kfsim_ynl_F_family.
 *
 * Member representation: scalars as their __uN/__sN type (uint/sint as 64 bits); flags only
 * as a presence bit; strings char * (NUL-terminated, _len without the NUL); binary, sub-message
 * and nest-type-value payloads void * + _len (raw bytes); nests a pointer to their set's
 * struct; multi-attr and indexed-array as n_x + an array (strings/binaries as struct
 * kfsim_ynl_bin, nests as their set's struct).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ynl_emit.h"
#include "ynl_emit_common.h"

enum kind {
	K_SKIP,		/* pad, unused */
	K_SCALAR,
	K_FLAG,
	K_STRING,
	K_BINARY,
	K_BITFIELD,
	K_NEST,
};

struct member {
	const struct ynl_attr *attr;
	enum kind kind;		/* of one element */
	enum ynl_type etype;	/* element type (the sub-type of an indexed-array) */
	bool array;		/* multi-attr or indexed-array */
	bool indexed;		/* indexed-array */
	bool nested_flag;	/* binary payload put with NLA_F_NESTED (nest-type-value) */
};

static enum kind kind_of(enum ynl_type type)
{
	if (ynl_type_is_scalar(type))
		return K_SCALAR;
	switch (type) {
	case YNL_T_FLAG: return K_FLAG;
	case YNL_T_STRING: return K_STRING;
	case YNL_T_BINARY: case YNL_T_SUB_MESSAGE: case YNL_T_NEST_TYPE_VALUE: return K_BINARY;
	case YNL_T_BITFIELD32: return K_BITFIELD;
	case YNL_T_NEST: return K_NEST;
	default: return K_SKIP;
	}
}

static struct member member_of(const struct ynl_attr *attr)
{
	struct member m = { .attr = attr, .etype = attr->type };

	if (attr->type == YNL_T_INDEXED_ARRAY) {
		m.etype = attr->sub_type;
		m.array = m.indexed = true;
	} else {
		m.array = attr->multi_attr;
	}
	m.kind = kind_of(m.etype);
	if (m.kind == K_NEST && !attr->nested)
		m.kind = K_BINARY;
	m.nested_flag = attr->type == YNL_T_NEST_TYPE_VALUE;
	if (m.array && m.kind == K_FLAG)
		m.kind = K_SKIP;	/* a repeated flag carries nothing */
	return m;
}

static const char *scalar_ctype(enum ynl_type type)
{
	return ynl_type_ctype(type);
}

/* The C type of one element of an array member. */
static void elem_ctype(const struct ynl_spec *spec, const struct member *m, char *buf, size_t size)
{
	switch (m->kind) {
	case K_SCALAR: snprintf(buf, size, "%s", scalar_ctype(m->etype)); break;
	case K_STRING: case K_BINARY: snprintf(buf, size, "struct kfsim_ynl_bin"); break;
	case K_BITFIELD: snprintf(buf, size, "struct kfsim_ynl_bitfield32"); break;
	case K_NEST: snprintf(buf, size, "struct %s", m->attr->nested->render_name); break;
	default: snprintf(buf, size, "__u8"); break;
	}
	(void)spec;
}

/*
 * A big-endian member holds the value as it is on the wire, as in the kernel's YNL C library
 * (whose members say "/\* big-endian *\/"): the caller converts with htons()/ntohl() and the
 * generated code copies the bytes unchanged.  Only the comment tells the byte order.
 */
static const char *bo_comment(const struct ynl_attr *attr)
{
	if (attr->byte_order == YNL_BO_BIG)
		return " /* big-endian */";
	if (attr->byte_order == YNL_BO_LITTLE)
		return " /* little-endian */";
	return "";
}

/* -- a struct from a list of attributes ---------------------------------------------------- */

struct shape {
	const char *name;		/* struct tag: ethtool_plca_get_cfg_req */
	struct ynl_attr *const *attrs;
	int nr;
	const struct ynl_attr_set *set;	/* for the policy */
	const struct ynl_def *hdr;	/* fixed header, or NULL */
	bool is_set;			/* a nested set's struct (put as a nest) */
};

static void emit_struct(struct ynl_out *h, const struct ynl_spec *spec, const struct shape *sh)
{
	bool any_present = false, any_len = false;
	char et[256];

	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);

		if (m.kind == K_SKIP)
			continue;
		any_present |= !m.array || m.indexed;
		any_len |= !m.array && (m.kind == K_STRING || m.kind == K_BINARY);
	}
	ynl_out_printf(h, "struct %s {\n", sh->name);
	if (sh->hdr)
		ynl_out_printf(h, "\t%s _hdr;\n\n", sh->hdr->c_type);
	if (any_present) {
		ynl_out_puts(h, "\tstruct {\n");
		for (int i = 0; i < sh->nr; i++) {
			struct member m = member_of(sh->attrs[i]);

			if (m.kind != K_SKIP && (!m.array || m.indexed))
				ynl_out_printf(h, "\t\t__u32 %s:1;\n", m.attr->c_name);
		}
		ynl_out_puts(h, "\t} _present;\n");
	}
	if (any_len) {
		ynl_out_puts(h, "\tstruct {\n");
		for (int i = 0; i < sh->nr; i++) {
			struct member m = member_of(sh->attrs[i]);

			if (!m.array && (m.kind == K_STRING || m.kind == K_BINARY))
				ynl_out_printf(h, "\t\t__u32 %s;\n", m.attr->c_name);
		}
		ynl_out_puts(h, "\t} _len;\n");
	}
	if (any_present || any_len)
		ynl_out_puts(h, "\n");
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const char *c = m.attr->c_name;

		if (m.kind == K_SKIP || (m.kind == K_FLAG && !m.array))
			continue;
		if (m.array) {
			elem_ctype(spec, &m, et, sizeof(et));
			ynl_out_printf(h, "\tunsigned int n_%s;\n\t%s *%s;\n", c, et, c);
			continue;
		}
		switch (m.kind) {
		case K_SCALAR:
			ynl_out_printf(h, "\t%s %s;%s\n", scalar_ctype(m.etype), c,
				       bo_comment(m.attr));
			break;
		case K_STRING: ynl_out_printf(h, "\tchar *%s;\n", c); break;
		case K_BINARY: ynl_out_printf(h, "\tvoid *%s;\n", c); break;
		case K_BITFIELD: ynl_out_printf(h, "\tstruct kfsim_ynl_bitfield32 %s;\n", c); break;
		case K_NEST: ynl_out_printf(h, "\tstruct %s *%s;\n", m.attr->nested->render_name, c);
			break;
		default: break;
		}
	}
	if (!sh->hdr && !any_present && !any_len) {
		bool members = false;

		for (int i = 0; i < sh->nr; i++) {
			struct member m = member_of(sh->attrs[i]);

			members |= m.kind != K_SKIP;
		}
		if (!members)
			ynl_out_puts(h, "\tchar _empty;\n");
	}
	ynl_out_puts(h, "};\n\n");
}

/* Free what one element owns (not the element itself). */
static void emit_free_elem(struct ynl_out *c, const struct member *m, const char *expr)
{
	if (m->kind == K_NEST)
		ynl_out_printf(c, "\t\t%s_free(&%s);\n", m->attr->nested->render_name, expr);
	else if (m->kind == K_STRING || m->kind == K_BINARY)
		ynl_out_printf(c, "\t\tfree(%s.data);\n", expr);
}

static void emit_free_members(struct ynl_out *c, const struct shape *sh, const char *obj)
{
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const char *n = m.attr->c_name;
		char expr[256];

		if (m.kind == K_SKIP)
			continue;
		if (m.array) {
			if (m.kind == K_NEST || m.kind == K_STRING || m.kind == K_BINARY) {
				snprintf(expr, sizeof(expr), "%s->%s[i]", obj, n);
				ynl_out_printf(c, "\tfor (unsigned int i = 0; i < %s->n_%s; i++)\n", obj, n);
				emit_free_elem(c, &m, expr);
			}
			ynl_out_printf(c, "\tfree(%s->%s);\n", obj, n);
		} else if (m.kind == K_STRING || m.kind == K_BINARY) {
			ynl_out_printf(c, "\tfree(%s->%s);\n", obj, n);
		} else if (m.kind == K_NEST) {
			ynl_out_printf(c, "\tif (%s->%s)\n\t\t%s_free(%s->%s);\n\tfree(%s->%s);\n", obj,
				       n, m.attr->nested->render_name, obj, n, obj, n);
		}
	}
}

/* Put one element of type @type_expr from @expr. */
static void emit_put_elem(struct ynl_out *c, const struct member *m, const char *type_expr,
			  const char *expr, const char *ind)
{
	const struct ynl_attr *a = m->attr;
	int size = ynl_type_size(m->etype);

	switch (m->kind) {
	case K_SCALAR:
		if (m->etype == YNL_T_UINT) {
			ynl_out_printf(c, "%skfsim_ynl_attr_put_uint(msg, %s, %s);\n", ind, type_expr,
				       expr);
		} else if (m->etype == YNL_T_SINT) {
			ynl_out_printf(c, "%skfsim_ynl_attr_put_sint(msg, %s, %s);\n", ind, type_expr,
				       expr);
		} else {
			ynl_out_printf(c, "%s{\n%s\t%s v = %s;\n\n%s\tkfsim_ynl_attr_put(msg, %s, "
				       "&v, %d);\n%s}\n", ind, ind, scalar_ctype(m->etype), expr, ind,
				       type_expr, size, ind);
		}
		break;
	case K_FLAG:
		ynl_out_printf(c, "%skfsim_ynl_attr_put(msg, %s, NULL, 0);\n", ind, type_expr);
		break;
	case K_BITFIELD:
		ynl_out_printf(c, "%skfsim_ynl_attr_put(msg, %s, &%s, 8);\n", ind, type_expr, expr);
		break;
	case K_NEST:
		ynl_out_printf(c, "%s%s_put(msg, %s, &%s);\n", ind, a->nested->render_name, type_expr,
			       expr);
		break;
	default:
		break;
	}
}

static void emit_put_body(struct ynl_out *c, const struct shape *sh, const char *obj)
{
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const struct ynl_attr *a = m.attr;
		const char *n = a->c_name;
		char type_expr[64], expr[256];

		if (m.kind == K_SKIP)
			continue;
		snprintf(type_expr, sizeof(type_expr), "%u /* %s */", a->value, a->enum_name);
		if (m.indexed) {
			ynl_out_printf(c, "\tif (%s->_present.%s) {\n\t\t__u32 array = "
				       "kfsim_ynl_nest_start(msg, %u);\n\n", obj, n, a->value);
			ynl_out_printf(c, "\t\tfor (unsigned int i = 0; i < %s->n_%s; i++) {\n", obj, n);
			snprintf(expr, sizeof(expr), "%s->%s[i]", obj, n);
			if (m.kind == K_STRING)
				ynl_out_printf(c, "\t\t\tkfsim_ynl_attr_put_str(msg, (__u16)i, %s.data, "
					       "%s.len);\n", expr, expr);
			else if (m.kind == K_BINARY)
				ynl_out_printf(c, "\t\t\tkfsim_ynl_attr_put(msg, (__u16)i, %s.data, "
					       "%s.len);\n", expr, expr);
			else
				emit_put_elem(c, &m, "(__u16)i", expr, "\t\t\t");
			ynl_out_puts(c, "\t\t}\n\t\tkfsim_ynl_nest_end(msg, array);\n\t}\n");
			continue;
		}
		if (m.array) {
			ynl_out_printf(c, "\tfor (unsigned int i = 0; i < %s->n_%s; i++) {\n", obj, n);
			snprintf(expr, sizeof(expr), "%s->%s[i]", obj, n);
			if (m.kind == K_STRING)
				ynl_out_printf(c, "\t\tkfsim_ynl_attr_put_str(msg, %s, %s.data, %s.len);\n",
					       type_expr, expr, expr);
			else if (m.kind == K_BINARY)
				ynl_out_printf(c, "\t\tkfsim_ynl_attr_put(msg, %s%s, %s.data, %s.len);\n",
					       type_expr, m.nested_flag ? " | NLA_F_NESTED" : "", expr,
					       expr);
			else
				emit_put_elem(c, &m, type_expr, expr, "\t\t");
			ynl_out_puts(c, "\t}\n");
			continue;
		}
		ynl_out_printf(c, "\tif (%s->_present.%s", obj, n);
		if (m.kind == K_NEST)
			ynl_out_printf(c, " && %s->%s", obj, n);
		ynl_out_puts(c, ")\n");
		snprintf(expr, sizeof(expr), "%s->%s", obj, n);
		if (m.kind == K_NEST)
			ynl_out_printf(c, "\t\t%s_put(msg, %s, %s);\n", a->nested->render_name, type_expr,
				       expr);
		else if (m.kind == K_STRING)
			ynl_out_printf(c, "\t\tkfsim_ynl_attr_put_str(msg, %s, %s, %s->_len.%s);\n",
				       type_expr, expr, obj, n);
		else if (m.kind == K_BINARY)
			ynl_out_printf(c, "\t\tkfsim_ynl_attr_put(msg, %s%s, %s, %s->_len.%s);\n",
				       type_expr, m.nested_flag ? " | NLA_F_NESTED" : "", expr, obj, n);
		else
			emit_put_elem(c, &m, type_expr, expr, "\t\t");
	}
}

/* Decode one element @elem (an lvalue) from attribute @a. */
static void emit_parse_elem(struct ynl_out *c, const struct member *m, const char *elem,
			    const char *a, const char *ind)
{
	switch (m->kind) {
	case K_SCALAR:
		ynl_out_printf(c, "%s%s = (%s)kfsim_ynl_attr_get_%s(%s);\n", ind, elem,
			       scalar_ctype(m->etype), ynl_type_is_signed(m->etype) ? "sint" : "uint",
			       a);
		break;
	case K_BITFIELD:
		ynl_out_printf(c, "%smemcpy(&%s, kfsim_ynl_attr_data(%s), 8);\n", ind, elem, a);
		break;
	case K_STRING:
	case K_BINARY:
		ynl_out_printf(c, "%s%s.data = kfsim_ynl_attr_dup(%s, &%s.len);\n%sif (!%s.data)\n%s\t"
			       "return kfsim_ynl_err_set(err, -ENOMEM, \"out of memory\");\n", ind,
			       elem, a, elem, ind, elem, ind);
		if (m->kind == K_STRING)
			ynl_out_printf(c, "%s%s.len = (__u32)strlen(%s.data);\n", ind, elem, elem);
		break;
	case K_NEST:
		ynl_out_printf(c, "%sret = %s_parse(&%s, %s, err);\n%sif (ret)\n%s\treturn ret;\n", ind,
			       m->attr->nested->render_name, elem, a, ind, ind);
		break;
	default:
		break;
	}
}

static void emit_parse_case(struct ynl_out *c, const struct member *m, const char *obj)
{
	const struct ynl_attr *a = m->attr;
	const char *n = a->c_name;
	char et[256], elem[256];

	ynl_out_printf(c, "\t\tcase %u: /* %s */\n", a->value, a->enum_name);
	if (m->array) {
		elem_ctype(NULL, m, et, sizeof(et));
		if (m->indexed) {
			ynl_out_printf(c, "\t\t\t%s->_present.%s = 1;\n", obj, n);
			ynl_out_puts(c, "\t\t\t{\n\t\t\tconst struct nlattr *item;\n\n");
			ynl_out_printf(c, "\t\t\tkfsim_ynl_attr_for_each(item, kfsim_ynl_attr_data(attr), "
				       "kfsim_ynl_attr_data_len(attr)) {\n");
			ynl_out_printf(c, "\t\t\t\t%s *elem = kfsim_ynl_array_append((void **)&%s->%s, "
				       "&%s->n_%s, sizeof(*elem));\n\n", et, obj, n, obj, n);
			ynl_out_puts(c, "\t\t\t\tif (!elem)\n\t\t\t\t\treturn kfsim_ynl_err_set(err, "
				     "-ENOMEM, \"out of memory\");\n");
			if (m->kind == K_SCALAR && ynl_type_size(m->etype))
				ynl_out_printf(c, "\t\t\t\tif (kfsim_ynl_attr_data_len(item) != %d)\n"
					       "\t\t\t\t\treturn kfsim_ynl_err_set(err, -EINVAL, "
					       "\"Invalid attribute (%s) element length\");\n",
					       ynl_type_size(m->etype), a->name);
			if (m->kind == K_NEST)
				ynl_out_puts(c, "\t\t\t\tif (kfsim_ynl_attr_data_len(item) && "
					     "kfsim_ynl_attr_data_len(item) < NLA_HDRLEN)\n\t\t\t\t\t"
					     "return kfsim_ynl_err_set(err, -EINVAL, \"Invalid nest "
					     "element\");\n");
			emit_parse_elem(c, m, "(*elem)", "item", "\t\t\t\t");
			ynl_out_puts(c, "\t\t\t}\n\t\t\t}\n\t\t\tbreak;\n");
			return;
		}
		ynl_out_printf(c, "\t\t\t{\n\t\t\t\t%s *elem = kfsim_ynl_array_append((void **)&%s->%s, "
			       "&%s->n_%s, sizeof(*elem));\n\n", et, obj, n, obj, n);
		ynl_out_puts(c, "\t\t\t\tif (!elem)\n\t\t\t\t\treturn kfsim_ynl_err_set(err, -ENOMEM, "
			     "\"out of memory\");\n");
		emit_parse_elem(c, m, "(*elem)", "attr", "\t\t\t\t");
		ynl_out_puts(c, "\t\t\t}\n\t\t\tbreak;\n");
		return;
	}
	ynl_out_printf(c, "\t\t\t%s->_present.%s = 1;\n", obj, n);
	switch (m->kind) {
	case K_SCALAR:
	case K_BITFIELD:
		snprintf(elem, sizeof(elem), "%s->%s", obj, n);
		emit_parse_elem(c, m, elem, "attr", "\t\t\t");
		break;
	case K_STRING:
	case K_BINARY:
		ynl_out_printf(c, "\t\t\tfree(%s->%s);\n\t\t\t%s->%s = kfsim_ynl_attr_dup(attr, "
			       "&%s->_len.%s);\n\t\t\tif (!%s->%s)\n\t\t\t\treturn kfsim_ynl_err_set(err, "
			       "-ENOMEM, \"out of memory\");\n", obj, n, obj, n, obj, n, obj, n);
		if (m->kind == K_STRING)
			ynl_out_printf(c, "\t\t\t%s->_len.%s = (__u32)strlen(%s->%s);\n", obj, n, obj,
				       n);
		break;
	case K_NEST:
		ynl_out_printf(c, "\t\t\tif (%s->%s)\n\t\t\t\t%s_free(%s->%s);\n\t\t\telse\n\t\t\t\t"
			       "%s->%s = malloc(sizeof(*%s->%s));\n\t\t\tif (!%s->%s)\n\t\t\t\treturn "
			       "kfsim_ynl_err_set(err, -ENOMEM, \"out of memory\");\n\t\t\tmemset(%s->%s, "
			       "0, sizeof(*%s->%s));\n", obj, n, a->nested->render_name, obj, n, obj, n,
			       obj, n, obj, n, obj, n, obj, n);
		ynl_out_printf(c, "\t\t\tret = %s_parse(%s->%s, attr, err);\n\t\t\tif (ret)\n\t\t\t\t"
			       "return ret;\n", a->nested->render_name, obj, n);
		break;
	default:
		break;
	}
	ynl_out_puts(c, "\t\t\tbreak;\n");
}

/* static int <fn>(struct S *obj, const void *head, __u32 len, err): the attribute loop. */
static void emit_parse_attrs(struct ynl_out *c, const struct shape *sh, const char *fn)
{
	bool uses_ret = false;

	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);

		uses_ret |= m.kind == K_NEST;
	}
	ynl_out_printf(c, "static int %s(struct %s *obj, const void *head, __u32 len,\n\t\t"
		       "struct kfsim_ynl_error *err)\n{\n\tconst struct nlattr *attr;\n\n"
		       "\t(void)obj;\n", fn, sh->name);
	if (uses_ret)
		ynl_out_puts(c, "\tint ret;\n");
	ynl_out_printf(c, "\n\tkfsim_ynl_attr_for_each(attr, head, len) {\n"
		       "\t\t__u16 type = kfsim_ynl_attr_type(attr);\n\n"
		       "\t\t/* Newer kernels may send more: skip what the spec does not know. */\n"
		       "\t\tif (type > %s_nest.max_attr || !%s_policy[type].type)\n\t\t\tcontinue;\n"
		       "\t\tif (kfsim_ynl_attr_validate(&%s_nest, attr, err))\n\t\t\treturn err->code;\n",
		       sh->set->render_name, sh->set->render_name, sh->set->render_name);
	ynl_out_puts(c, "\t\tswitch (type) {\n");
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);

		if (m.kind == K_SKIP)
			continue;
		emit_parse_case(c, &m, "obj");
	}
	ynl_out_puts(c, "\t\tdefault:\n\t\t\tbreak;\n\t\t}\n\t}\n\treturn 0;\n}\n\n");
}

static void emit_equal(struct ynl_out *c, const struct shape *sh, const char *fn)
{
	/* a message without members compares nothing: still -Wextra clean */
	ynl_out_printf(c, "KFSIM_YNL_DEF bool %s(const struct %s *a, const struct %s *b)\n{\n"
		       "\t(void)a;\n\t(void)b;\n", fn, sh->name, sh->name);
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const char *n = m.attr->c_name;

		if (m.kind == K_SKIP)
			continue;
		if (!m.array || m.indexed)
			ynl_out_printf(c, "\tif (a->_present.%s != b->_present.%s)\n\t\treturn false;\n",
				       n, n);
		if (m.array) {
			ynl_out_printf(c, "\tif (a->n_%s != b->n_%s)\n\t\treturn false;\n", n, n);
			ynl_out_printf(c, "\tfor (unsigned int i = 0; i < a->n_%s; i++) {\n", n);
			if (m.kind == K_NEST)
				ynl_out_printf(c, "\t\tif (!%s_equal(&a->%s[i], &b->%s[i]))\n\t\t\t"
					       "return false;\n", m.attr->nested->render_name, n, n);
			else if (m.kind == K_STRING || m.kind == K_BINARY)
				ynl_out_printf(c, "\t\tif (a->%s[i].len != b->%s[i].len || (a->%s[i].len "
					       "&& memcmp(a->%s[i].data, b->%s[i].data, a->%s[i].len)))\n"
					       "\t\t\treturn false;\n", n, n, n, n, n, n);
			else
				ynl_out_printf(c, "\t\tif (memcmp(&a->%s[i], &b->%s[i], sizeof(a->%s[i])))"
					       "\n\t\t\treturn false;\n", n, n, n);
			ynl_out_puts(c, "\t}\n");
			continue;
		}
		ynl_out_printf(c, "\tif (a->_present.%s) {\n", n);
		switch (m.kind) {
		case K_SCALAR:
			ynl_out_printf(c, "\t\tif (a->%s != b->%s)\n\t\t\treturn false;\n", n, n);
			break;
		case K_BITFIELD:
			ynl_out_printf(c, "\t\tif (memcmp(&a->%s, &b->%s, 8))\n\t\t\treturn false;\n", n,
				       n);
			break;
		case K_STRING:
		case K_BINARY:
			ynl_out_printf(c, "\t\tif (a->_len.%s != b->_len.%s || (a->_len.%s && "
				       "memcmp(a->%s, b->%s, a->_len.%s)))\n\t\t\treturn false;\n", n, n, n,
				       n, n, n);
			break;
		case K_NEST:
			ynl_out_printf(c, "\t\tif (!a->%s != !b->%s || (a->%s && !%s_equal(a->%s, "
				       "b->%s)))\n\t\t\treturn false;\n", n, n, n,
				       m.attr->nested->render_name, n, n);
			break;
		default:
			break;
		}
		ynl_out_puts(c, "\t}\n");
	}
	ynl_out_puts(c, "\treturn true;\n}\n\n");
}

static void emit_shape_code(struct ynl_out *h, struct ynl_out *c, const struct shape *sh)
{
	char fn[512];

	/* prototypes */
	if (sh->is_set) {
		ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *obj);\n", sh->name, sh->name);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_put(struct kfsim_ynl_msg *msg, __u16 type, "
			       "const struct %s *obj);\n", sh->name, sh->name);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_parse(struct %s *obj, const struct nlattr "
			       "*nest, struct kfsim_ynl_error *err);\n", sh->name, sh->name);
	} else {
		ynl_out_printf(h, "static inline struct %s *%s_alloc(void)\n{\n\treturn calloc(1, "
			       "sizeof(struct %s));\n}\n\n", sh->name, sh->name, sh->name);
		ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *obj);\n", sh->name, sh->name);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_put(struct kfsim_ynl_msg *msg, "
			       "const struct %s *obj);\n", sh->name, sh->name);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_parse(struct %s *obj, const void *attrs, "
			       "__u32 len, struct kfsim_ynl_error *err);\n", sh->name, sh->name);
	}
	ynl_out_printf(h, "KFSIM_YNL_DECL bool %s_equal(const struct %s *a, const struct %s *b);\n\n",
		       sh->name, sh->name, sh->name);

	/* free: a set's struct is a member or array element, a message is allocated */
	if (sh->is_set) {
		ynl_out_printf(c, "KFSIM_YNL_DEF void %s_free(struct %s *obj)\n{\n\t(void)obj;\n",
			       sh->name, sh->name);
		emit_free_members(c, sh, "obj");
		ynl_out_puts(c, "}\n\n");
	} else {
		ynl_out_printf(c, "static void __attribute__((unused)) %s_release(struct %s *obj)\n"
			       "{\n\t(void)obj;\n", sh->name, sh->name);
		emit_free_members(c, sh, "obj");
		ynl_out_printf(c, "}\n\nKFSIM_YNL_DEF void %s_free(struct %s *obj)\n{\n\tif (!obj)\n"
			       "\t\treturn;\n\t%s_release(obj);\n\tfree(obj);\n}\n\n", sh->name,
			       sh->name, sh->name);
	}

	/* put */
	if (sh->is_set)
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_put(struct kfsim_ynl_msg *msg, __u16 type, "
			       "const struct %s *obj)\n{\n\t__u32 nest = kfsim_ynl_nest_start(msg, "
			       "type);\n\n\t(void)obj;\n", sh->name, sh->name);
	else
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_put(struct kfsim_ynl_msg *msg, const struct %s "
			       "*obj)\n{\n\t(void)obj;\n", sh->name, sh->name);
	emit_put_body(c, sh, "obj");
	if (sh->is_set)
		ynl_out_puts(c, "\tkfsim_ynl_nest_end(msg, nest);\n");
	ynl_out_puts(c, "\treturn msg->overflow ? -EMSGSIZE : 0;\n}\n\n");

	/* parse */
	snprintf(fn, sizeof(fn), "%s_parse_attrs", sh->name);
	emit_parse_attrs(c, sh, fn);
	if (sh->is_set)
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_parse(struct %s *obj, const struct nlattr "
			       "*nest, struct kfsim_ynl_error *err)\n{\n\treturn %s(obj, "
			       "kfsim_ynl_attr_data(nest), kfsim_ynl_attr_data_len(nest), err);\n}\n\n",
			       sh->name, sh->name, fn);
	else
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_parse(struct %s *obj, const void *attrs, __u32 "
			       "len, struct kfsim_ynl_error *err)\n{\n\treturn %s(obj, attrs, len, "
			       "err);\n}\n\n", sh->name, sh->name, fn);
	snprintf(fn, sizeof(fn), "%s_equal", sh->name);
	emit_equal(c, sh, fn);
}

/* Setters of a request (static inline in the header). */
static void emit_setters(struct ynl_out *h, const struct shape *sh)
{
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const struct ynl_attr *a = m.attr;
		const char *n = a->c_name;

		if (m.kind == K_SKIP || m.array)
			continue;
		switch (m.kind) {
		case K_SCALAR:
			ynl_out_printf(h, "static inline void %s_set_%s(struct %s *req, %s value)\n{\n"
				       "\treq->_present.%s = 1;\n\treq->%s = value;\n}\n\n", sh->name, n,
				       sh->name, scalar_ctype(m.etype), n, n);
			break;
		case K_FLAG:
			ynl_out_printf(h, "static inline void %s_set_%s(struct %s *req)\n{\n"
				       "\treq->_present.%s = 1;\n}\n\n", sh->name, n, sh->name, n);
			break;
		case K_STRING:
		case K_BINARY:
			ynl_out_printf(h, "static inline int %s_set_%s(struct %s *req, const %s *value%s)"
				       "\n{\n\t__u32 len = %s;\n\tchar *copy = malloc(len + 1);\n\n"
				       "\tif (!copy)\n\t\treturn -ENOMEM;\n\tmemcpy(copy, value, len);\n"
				       "\tcopy[len] = '\\0';\n\tfree(req->%s);\n\treq->%s = copy;\n"
				       "\treq->_len.%s = len;\n\treq->_present.%s = 1;\n\treturn 0;\n}\n\n",
				       sh->name, n, sh->name, m.kind == K_STRING ? "char" : "void",
				       m.kind == K_STRING ? "" : ", size_t size",
				       m.kind == K_STRING ? "(__u32)strlen(value)" : "(__u32)size", n, n,
				       n, n);
			break;
		case K_BITFIELD:
			ynl_out_printf(h, "static inline void %s_set_%s(struct %s *req, __u32 value, "
				       "__u32 selector)\n{\n\treq->_present.%s = 1;\n\treq->%s.value = "
				       "value;\n\treq->%s.selector = selector;\n}\n\n", sh->name, n,
				       sh->name, n, n, n);
			break;
		case K_NEST: {
			const struct ynl_attr_set *ns = a->nested;

			/* One level down: F_op_req_set_header_dev_name(). */
			for (int j = 0; j < ns->nr_attrs; j++) {
				struct member sm = member_of(ynl_set_attr(ns, j));
				const char *sn = sm.attr->c_name;

				if (sm.array || (sm.kind != K_SCALAR && sm.kind != K_STRING &&
						 sm.kind != K_FLAG))
					continue;
				ynl_out_printf(h, "static inline int %s_set_%s_%s(struct %s *req", sh->name,
					       n, sn, sh->name);
				if (sm.kind == K_SCALAR)
					ynl_out_printf(h, ", %s value", scalar_ctype(sm.etype));
				else if (sm.kind == K_STRING)
					ynl_out_puts(h, ", const char *value");
				ynl_out_printf(h, ")\n{\n\tif (!req->%s) {\n\t\treq->%s = calloc(1, "
					       "sizeof(*req->%s));\n\t\tif (!req->%s)\n\t\t\treturn "
					       "-ENOMEM;\n\t}\n\treq->_present.%s = 1;\n", n, n, n, n, n);
				if (sm.kind == K_SCALAR)
					ynl_out_printf(h, "\treq->%s->_present.%s = 1;\n\treq->%s->%s = "
						       "value;\n\treturn 0;\n}\n\n", n, sn, n, sn);
				else if (sm.kind == K_FLAG)
					ynl_out_printf(h, "\treq->%s->_present.%s = 1;\n\treturn 0;\n}\n\n",
						       n, sn);
				else
					ynl_out_printf(h, "\t{\n\t\t__u32 len = (__u32)strlen(value);\n"
						       "\t\tchar *copy = malloc(len + 1);\n\n\t\tif (!copy)\n"
						       "\t\t\treturn -ENOMEM;\n\t\tmemcpy(copy, value, len + 1);"
						       "\n\t\tfree(req->%s->%s);\n\t\treq->%s->%s = copy;\n"
						       "\t\treq->%s->_len.%s = len;\n\t\treq->%s->_present.%s = "
						       "1;\n\t}\n\treturn 0;\n}\n\n", n, sn, n, sn, n, sn, n, sn);
			}
			break;
		}
		default:
			break;
		}
	}
}

/* -- policies ------------------------------------------------------------------------------ */

static const char *pt_of(const struct ynl_attr *a, unsigned int *len)
{
	*len = 0;
	switch (a->type) {
	case YNL_T_U8: case YNL_T_S8: return "KFSIM_YNL_PT_U8";
	case YNL_T_U16: case YNL_T_S16: return "KFSIM_YNL_PT_U16";
	case YNL_T_U32: case YNL_T_S32: return "KFSIM_YNL_PT_U32";
	case YNL_T_U64: case YNL_T_S64: return "KFSIM_YNL_PT_U64";
	case YNL_T_UINT: case YNL_T_SINT: return "KFSIM_YNL_PT_UINT";
	case YNL_T_FLAG: return "KFSIM_YNL_PT_FLAG";
	case YNL_T_STRING:
		*len = a->checks.has_max_len ? (unsigned int)a->checks.max_len : 0;
		return a->checks.unterminated_ok ? "KFSIM_YNL_PT_STR" : "KFSIM_YNL_PT_NUL_STR";
	case YNL_T_BINARY:
		*len = a->checks.has_exact_len ? (unsigned int)a->checks.exact_len : 0;
		return "KFSIM_YNL_PT_BINARY";
	case YNL_T_SUB_MESSAGE: return "KFSIM_YNL_PT_BINARY";
	case YNL_T_NEST: case YNL_T_INDEXED_ARRAY: case YNL_T_NEST_TYPE_VALUE:
		return "KFSIM_YNL_PT_NEST";
	case YNL_T_BITFIELD32: return "KFSIM_YNL_PT_BITFIELD32";
	case YNL_T_PAD: return "KFSIM_YNL_PT_IGNORE";
	default: return NULL;
	}
}

static void emit_policies(struct ynl_out *c, const struct ynl_spec *spec)
{
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];

		ynl_out_printf(c, "KFSIM_YNL_DEF const struct kfsim_ynl_policy_attr %s_policy[%u] = {\n",
			       set->render_name, set->max_value + 1);
		for (unsigned int v = 0; v <= set->max_value; v++) {
			for (int i = 0; i < set->nr_attrs; i++) {
				const struct ynl_attr *a = ynl_set_attr(set, i);
				unsigned int len;
				const char *pt = pt_of(a, &len);

				if (a->value != v || !pt)
					continue;
				ynl_out_printf(c, "\t[%u] = { .name = \"%s\", .type = %s, ", v, a->name, pt);
				if (len)
					ynl_out_printf(c, ".len = %u, ", len);
				if (a->type == YNL_T_NEST && a->nested)
					ynl_out_printf(c, ".nest = &%s_nest, ", a->nested->render_name);
				ynl_out_puts(c, "},\n");
			}
		}
		ynl_out_puts(c, "};\n\n");
		ynl_out_printf(c, "KFSIM_YNL_DEF const struct kfsim_ynl_policy_nest %s_nest = {\n"
			       "\t.max_attr = %u,\n\t.table = %s_policy,\n};\n\n", set->render_name,
			       set->max_value, set->render_name);
	}
}

/* -- operations -------------------------------------------------------------------------- */

enum msg_kind { M_REQ, M_RSP, M_REQ_DUMP, M_RSP_DUMP, M_EVENT, M_NR };

static const char *const msg_suffix[M_NR] = { "req", "rsp", "req_dump", "rsp_dump", "event" };

static const struct ynl_msg *op_msg(const struct ynl_op *op, enum msg_kind k)
{
	switch (k) {
	case M_REQ: return op->do_.present && !op->is_async ? &op->do_.request : NULL;
	case M_RSP: return op->do_.present && op->do_.reply.present && !op->is_async ?
			   &op->do_.reply : NULL;
	case M_REQ_DUMP: return op->dump.present && !op->is_async ? &op->dump.request : NULL;
	case M_RSP_DUMP: return op->dump.present && op->dump.reply.present && !op->is_async ?
				&op->dump.reply : NULL;
	case M_EVENT: return op->event.present ? &op->event : NULL;
	default: return NULL;
	}
}

static const struct ynl_def *op_hdr(const struct ynl_spec *spec, const struct ynl_op *op)
{
	return op->fixed_header ? op->fixed_header : spec->fixed_header;
}

static void shape_of(const struct ynl_spec *spec, const struct ynl_op *op, enum msg_kind k,
		     struct shape *sh, char *name, size_t size)
{
	const struct ynl_msg *msg = op_msg(op, k);

	snprintf(name, size, "%s_%s_%s", spec->c_name, op->c_name, msg_suffix[k]);
	sh->name = name;
	sh->attrs = msg->attrs;
	sh->nr = msg->nr_attrs;
	sh->set = op->set;
	sh->hdr = op_hdr(spec, op);
	sh->is_set = false;
}

/* The struct a notify op's notification carries: its target's do (else dump) reply. */
static bool ntf_target(const struct ynl_spec *spec, const struct ynl_op *op, char *name,
		       size_t size)
{
	if (op->notify) {
		const struct ynl_op *t = op->notify;

		snprintf(name, size, "%s_%s_%s", spec->c_name, t->c_name,
			 t->do_.reply.present ? "rsp" : "rsp_dump");
		return true;
	}
	if (op->event.present) {
		snprintf(name, size, "%s_%s_event", spec->c_name, op->c_name);
		return true;
	}
	return false;
}

static void emit_op_functions(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec,
			      const struct ynl_op *op)
{
	const char *f = spec->c_name, *o = op->c_name;
	const struct ynl_def *hdr = op_hdr(spec, op);
	const char *pol = op->set ? op->set->render_name : NULL;
	char polref[300], cbname[300];

	snprintf(polref, sizeof(polref), pol ? "&%s_nest" : "NULL", pol ? pol : "");
	snprintf(cbname, sizeof(cbname), "%s_%s_rsp_cb", f, o);
	if (op_msg(op, M_REQ)) {
		bool rsp = op_msg(op, M_RSP) != NULL;

		if (rsp) {
			ynl_out_printf(h, "/* %s: %s */\nKFSIM_YNL_DECL int %s_%s(struct kfsim_ynl_sock "
				       "*ys, const struct %s_%s_req *req, struct %s_%s_rsp **rsp);\n\n",
				       op->name, op->doc ? "do" : "do", f, o, f, o, f, o);
			ynl_out_printf(c, "static int %s_%s_rsp_cb(const struct nlmsghdr *nlh, const void "
				       "*hdr, const void *attrs, __u32 len, void *arg,\n\t\t\t"
				       "struct kfsim_ynl_error *perr)\n{\n"
				       "\tstruct %s_%s_rsp **rspp = arg;\n"
				       "\tstruct %s_%s_rsp *rsp = %s_%s_rsp_alloc();\n\n"
				       "\t(void)nlh;\n\t(void)hdr;\n\tif (!rsp)\n\t\treturn -ENOMEM;\n",
				       f, o, f, o, f, o, f, o);
			if (hdr)
				ynl_out_puts(c, "\tif (hdr)\n\t\tmemcpy(&rsp->_hdr, hdr, sizeof(rsp->_hdr));\n");
			ynl_out_printf(c, "\tif (%s_%s_rsp_parse(rsp, attrs, len, perr)) {\n"
				       "\t\t%s_%s_rsp_free(rsp);\n\t\treturn perr->code;\n\t}\n"
				       "\t%s_%s_rsp_free(*rspp);\n\t*rspp = rsp;\n\treturn 0;\n}\n\n",
				       f, o, f, o, f, o);
			ynl_out_printf(c, "KFSIM_YNL_DEF int %s_%s(struct kfsim_ynl_sock *ys, const struct "
				       "%s_%s_req *req, struct %s_%s_rsp **rsp)\n{\n", f, o, f, o, f, o);
		} else {
			ynl_out_printf(h, "/* %s: do */\nKFSIM_YNL_DECL int %s_%s(struct kfsim_ynl_sock "
				       "*ys, const struct %s_%s_req *req);\n\n", op->name, f, o, f, o);
			ynl_out_printf(c, "KFSIM_YNL_DEF int %s_%s(struct kfsim_ynl_sock *ys, const struct "
				       "%s_%s_req *req)\n{\n", f, o, f, o);
		}
		ynl_out_puts(c, "\tstruct kfsim_ynl_msg msg;\n\tint ret;\n\n");
		if (rsp)
			ynl_out_puts(c, "\t*rsp = NULL;\n");
		ynl_out_printf(c, "\tkfsim_ynl_msg_init(&msg, 0);\n\tret = %s_%s_req_put(&msg, req);\n"
			       "\tif (!ret)\n\t\tret = kfsim_ynl_exec(ys, %u, %s, &msg, false, %s, %u, "
			       "%s, %s);\n\tkfsim_ynl_msg_release(&msg);\n", f, o, op->req_value,
			       hdr ? "&req->_hdr" : "NULL", polref,
			       op->has_rsp_value ? op->rsp_value : op->req_value,
			       rsp ? cbname : "NULL", rsp ? "rsp" : "NULL");
		if (rsp)
			ynl_out_printf(c, "\tif (ret) {\n\t\t%s_%s_rsp_free(*rsp);\n\t\t*rsp = NULL;\n"
				       "\t} else if (!*rsp) {\n\t\tkfsim_ynl_set_err(ys, -ENODATA, "
				       "\"Expected a reply, got none\");\n\t\tret = -ENODATA;\n\t}\n",
				       f, o);
		ynl_out_puts(c, "\treturn ret;\n}\n\n");
	}
	if (op_msg(op, M_REQ_DUMP) && op_msg(op, M_RSP_DUMP)) {
		ynl_out_printf(h, "struct %s_%s_list {\n\tstruct %s_%s_list *next;\n\tstruct "
			       "%s_%s_rsp_dump obj;\n};\n\n", f, o, f, o, f, o);
		ynl_out_printf(h, "KFSIM_YNL_DECL void %s_%s_list_free(struct %s_%s_list *list);\n", f,
			       o, f, o);
		ynl_out_printf(h, "/* %s: dump; *list gets the replies in order (NULL when none) */\n"
			       "KFSIM_YNL_DECL int %s_%s_dump(struct kfsim_ynl_sock *ys, const struct "
			       "%s_%s_req_dump *req, struct %s_%s_list **list);\n\n", op->name, f, o,
			       f, o, f, o);
		ynl_out_printf(c, "KFSIM_YNL_DEF void %s_%s_list_free(struct %s_%s_list *list)\n{\n"
			       "\twhile (list) {\n\t\tstruct %s_%s_list *next = list->next;\n\n"
			       "\t\t%s_%s_rsp_dump_release(&list->obj);\n\t\tfree(list);\n"
			       "\t\tlist = next;\n\t}\n}\n\n", f, o, f, o, f, o, f, o);
		ynl_out_printf(c, "struct %s_%s_dump_ctx {\n\tstruct %s_%s_list **tail;\n};\n\n", f, o, f,
			       o);
		ynl_out_printf(c, "static int %s_%s_dump_cb(const struct nlmsghdr *nlh, const void *hdr, "
			       "const void *attrs, __u32 len, void *arg,\n\t\t\tstruct kfsim_ynl_error "
			       "*perr)\n{\n\tstruct %s_%s_dump_ctx *ctx = arg;\n\tstruct %s_%s_list "
			       "*item = calloc(1, sizeof(*item));\n\n\t(void)nlh;\n\t(void)hdr;\n"
			       "\tif (!item)\n\t\treturn -ENOMEM;\n", f, o, f, o, f, o);
		if (hdr)
			ynl_out_puts(c, "\tif (hdr)\n\t\tmemcpy(&item->obj._hdr, hdr, "
				     "sizeof(item->obj._hdr));\n");
		ynl_out_printf(c, "\t*ctx->tail = item;\n\tctx->tail = &item->next;\n"
			       "\treturn %s_%s_rsp_dump_parse(&item->obj, attrs, len, perr) ? perr->code "
			       ": 0;\n}\n\n", f, o);
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_%s_dump(struct kfsim_ynl_sock *ys, const struct "
			       "%s_%s_req_dump *req, struct %s_%s_list **list)\n{\n\tstruct "
			       "%s_%s_dump_ctx ctx = { list };\n\tstruct kfsim_ynl_msg msg;\n\tint ret;\n\n"
			       "\t*list = NULL;\n\tkfsim_ynl_msg_init(&msg, 0);\n\tret = "
			       "%s_%s_req_dump_put(&msg, req);\n\tif (!ret)\n\t\tret = kfsim_ynl_exec(ys, "
			       "%u, %s, &msg, true, %s, %u, %s_%s_dump_cb, &ctx);\n"
			       "\tkfsim_ynl_msg_release(&msg);\n\tif (ret) {\n\t\t%s_%s_list_free(*list);"
			       "\n\t\t*list = NULL;\n\t}\n\treturn ret;\n}\n\n", f, o, f, o, f, o, f, o,
			       f, o, op->req_value, hdr ? "&req->_hdr" : "NULL", polref,
			       op->has_rsp_value ? op->rsp_value : op->req_value, f, o, f, o);
	}
}

static void emit_ntf(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec,
		     const struct ynl_op *op)
{
	char target[256];
	const char *f = spec->c_name, *o = op->c_name;

	if (!op->is_async || !ntf_target(spec, op, target, sizeof(target)))
		return;
	ynl_out_printf(h, "/* %s: notification */\nstruct %s_%s_ntf {\n\tstruct kfsim_ynl_ntf_base "
		       "base;\n\tstruct %s obj;\n};\n\n", op->name, f, o, target);
	ynl_out_printf(c, "static void %s_%s_ntf_free(struct kfsim_ynl_ntf_base *base)\n{\n"
		       "\tstruct %s_%s_ntf *ntf = (struct %s_%s_ntf *)base;\n\n\t%s_release(&ntf->obj);\n"
		       "\tfree(ntf);\n}\n\n", f, o, f, o, f, o, target);
	ynl_out_printf(c, "static int %s_%s_ntf_parse(struct kfsim_ynl_ntf_base *base, const void "
		       "*attrs, __u32 len, struct kfsim_ynl_error *err)\n{\n\tstruct %s_%s_ntf *ntf = "
		       "(struct %s_%s_ntf *)base;\n\n\treturn %s_parse(&ntf->obj, attrs, len, err);\n"
		       "}\n\n", f, o, f, o, f, o, target);
}

static void emit_family(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec)
{
	unsigned int size = 0;
	const struct ynl_def *hdr = ynl_family_hdr(spec);

	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		char target[256];

		if (op->is_async && op->has_rsp_value && ntf_target(spec, op, target, sizeof(target)) &&
		    op->rsp_value + 1 > size)
			size = op->rsp_value + 1;
	}
	ynl_out_printf(h, "KFSIM_YNL_DECL const struct kfsim_ynl_family kfsim_ynl_%s_family;\n\n",
		       spec->c_name);
	if (size) {
		ynl_out_printf(c, "static const struct kfsim_ynl_ntf_info %s_ntf_info[%u] = {\n",
			       spec->c_name, size);
		for (int i = 0; i < spec->nr_ops; i++) {
			const struct ynl_op *op = &spec->ops[i];
			char target[256];

			if (!op->is_async || !op->has_rsp_value ||
			    !ntf_target(spec, op, target, sizeof(target)))
				continue;
			ynl_out_printf(c, "\t[%u] = {\n\t\t.alloc_size = sizeof(struct %s_%s_ntf),\n"
				       "\t\t.parse = %s_%s_ntf_parse,\n\t\t.free = %s_%s_ntf_free,\n\t},\n",
				       op->rsp_value, spec->c_name, op->c_name, spec->c_name, op->c_name,
				       spec->c_name, op->c_name);
		}
		ynl_out_puts(c, "};\n\n");
	}
	ynl_out_printf(c, "KFSIM_YNL_DEF const struct kfsim_ynl_family kfsim_ynl_%s_family = {\n"
		       "\t.name = \"%s\",\n\t.hdr_len = %s%s%s,\n", spec->c_name, spec->name,
		       hdr ? "sizeof(" : "0", hdr ? hdr->c_type : "", hdr ? ")" : "");
	if (size)
		ynl_out_printf(c, "\t.ntf_info = %s_ntf_info,\n\t.ntf_info_size = %u,\n", spec->c_name,
			       size);
	ynl_out_puts(c, "};\n");
}

void ynl_emit_user(const struct ynl_spec *spec, struct ynl_out *h, struct ynl_out *c)
{
	char guard[256], name[512];

	snprintf(guard, sizeof(guard), "KFSIM_YNL_%s_USER_H", spec->c_name);
	for (char *p = guard; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	ynl_emit_banner(h, spec, "user header");
	ynl_out_printf(h, "#ifndef %s\n#define %s\n\n#include <errno.h>\n#include <stdbool.h>\n"
		       "#include <stdlib.h>\n#include <string.h>\n#include <linux/types.h>\n"
		       "#include <kfsim/ynl.h>\n\n",
		       guard, guard);
	ynl_emit_scope_macros(h);
	ynl_emit_structs(h, spec);

	ynl_emit_banner(c, spec, "user source");
	ynl_out_printf(c, "#include <endian.h>\n#include <errno.h>\n#include <stdlib.h>\n"
		       "#include <string.h>\n#include <linux/genetlink.h>\n\n#include \"%s-user.h\"\n\n",
		       spec->ident);

	/* Sets: forward declarations, policies, structs, code. */
	for (int s = 0; s < spec->nr_sets; s++)
		ynl_out_printf(h, "struct %s;\n", spec->sets[s].render_name);
	ynl_out_puts(h, "\n");
	for (int s = 0; s < spec->nr_sets; s++)
		ynl_out_printf(h, "KFSIM_YNL_DECL const struct kfsim_ynl_policy_attr %s_policy[%u];\n"
			       "KFSIM_YNL_DECL const struct kfsim_ynl_policy_nest %s_nest;\n",
			       spec->sets[s].render_name, spec->sets[s].max_value + 1,
			       spec->sets[s].render_name);
	ynl_out_puts(h, "\n/* Common nested types */\n");
	emit_policies(c, spec);
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];
		struct ynl_attr **attrs = calloc((size_t)set->nr_attrs + 1, sizeof(*attrs));
		struct shape sh = { .name = set->render_name, .set = set, .is_set = true };

		if (!attrs) {
			h->oom = true;
			return;
		}
		for (int i = 0; i < set->nr_attrs; i++)
			attrs[i] = ynl_set_attr(set, i);
		sh.attrs = attrs;
		sh.nr = set->nr_attrs;
		emit_struct(h, spec, &sh);
		emit_shape_code(h, c, &sh);
		free(attrs);
	}
	/* Operation messages. */
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (!op->set)
			continue;
		ynl_out_printf(h, "/* ============== %s ============== */\n", op->enum_name);
		for (int k = 0; k < M_NR; k++) {
			struct shape sh;

			if (!op_msg(op, k))
				continue;
			shape_of(spec, op, k, &sh, name, sizeof(name));
			emit_struct(h, spec, &sh);
			emit_shape_code(h, c, &sh);
			if (k == M_REQ || k == M_REQ_DUMP)
				emit_setters(h, &sh);
		}
	}
	/* Functions after every message struct: a notification may reuse a later op's reply. */
	for (int i = 0; i < spec->nr_ops && ynl_is_genl(spec); i++) {
		if (!spec->ops[i].set)
			continue;
		emit_op_functions(h, c, spec, &spec->ops[i]);
		emit_ntf(h, c, spec, &spec->ops[i]);
	}
	if (ynl_is_genl(spec))
		emit_family(h, c, spec);
	ynl_out_printf(h, "#endif /* %s */\n", guard);
}
