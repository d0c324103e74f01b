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
#include <ctype.h>
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

/*
 * A scalar member's C type as ynl-gen-c.py declares it: an attribute with a plain enum (not
 * flags, not enum-as-flags) is that enum; uint/sint are 64 bits; the rest their __uN/__sN.
 */
static const char *member_ctype(const struct member *m)
{
	const struct ynl_attr *a = m->attr;

	if (!m->array && a->enum_def && !a->enum_as_flags && a->enum_def->type == YNL_DEF_ENUM &&
	    a->enum_def->c_type)
		return a->enum_def->c_type;
	return scalar_ctype(m->etype);
}

static bool nest_by_ptr(const struct member *m)
{
	return m->kind == K_NEST && !m->array && ynl_user_nest_by_ptr(m->attr);
}

/* The spec being emitted (the generator is single-threaded), for helpers deep in the walk. */
static const struct ynl_spec *user_spec;

/* The C type of one element of an array member. */
static void elem_ctype(const struct ynl_spec *spec, const struct member *m, char *buf, size_t size)
{
	if (!spec)
		spec = user_spec;
	switch (m->kind) {
	case K_SCALAR: snprintf(buf, size, "%s", scalar_ctype(m->etype)); break;
	case K_STRING: case K_BINARY: snprintf(buf, size, "struct kfsim_ynl_bin"); break;
	case K_BITFIELD: snprintf(buf, size, "struct nla_bitfield32"); break;
	case K_NEST: snprintf(buf, size, "struct %s", ynl_user_set_tag(spec, m->attr->nested)); break;
	default: snprintf(buf, size, "__u8"); break;
	}
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

/*
 * The C struct of a fixed header.  Generic netlink: the kernel's name, struct ovs_header, which
 * the family's uapi header defines (ynl-gen-c.py: 'struct ' + c_lower(fixed-header)); kfsim's
 * own copy is emitted only when F-uapi.h stands in for that header.  netlink-raw families (no
 * kernel user code to follow): kfsim's rendered struct.
 */
static const char *hdr_tag(const struct ynl_spec *spec, const struct ynl_def *def)
{
	static char buf[4][256];
	static unsigned int next;
	char *out;
	size_t i;

	if (!ynl_is_genl(spec))
		return def->render_name;
	out = buf[next++ % 4];
	for (i = 0; def->name[i] && i + 1 < sizeof(buf[0]); i++)
		out[i] = def->name[i] == '-' ? '_' : (char)tolower((unsigned char)def->name[i]);
	out[i] = '\0';
	return out;
}

/* -- a struct from a list of attributes ---------------------------------------------------- */

struct shape {
	const char *name;		/* function prefix: ethtool_plca_get_cfg_req */
	const char *tag;		/* struct tag: the name, or ethtool_stringset_ */
	struct ynl_attr *const *attrs;
	int nr;
	const struct ynl_attr_set *set;	/* for the policy */
	const struct ynl_def *hdr;	/* fixed header, or NULL */
	bool is_set;			/* a nested set's struct (put as a nest) */
};

/*
 * The kernel generator's layout: one _present struct in attribute order, a 1-bit flag for
 * scalars, flags, bitfields and nests, the length (__u32 x_len, 0 = absent) for strings and
 * binaries; multi-attr and indexed-array as n_x plus an array; nests held by value.
 */
static void emit_struct(struct ynl_out *h, const struct ynl_spec *spec, const struct shape *sh)
{
	bool any_present = false, members = false;
	char et[256];

	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);

		if (m.kind == K_SKIP)
			continue;
		members = true;
		any_present |= !m.array;
	}
	ynl_out_printf(h, "struct %s {\n", sh->tag);
	if (sh->hdr)
		ynl_out_printf(h, "\tstruct %s _hdr;\n\n", hdr_tag(spec, sh->hdr));
	if (any_present) {
		ynl_out_puts(h, "\tstruct {\n");
		for (int i = 0; i < sh->nr; i++) {
			struct member m = member_of(sh->attrs[i]);

			if (m.kind == K_SKIP || m.array)
				continue;
			if (m.kind == K_STRING || m.kind == K_BINARY)
				ynl_out_printf(h, "\t\t__u32 %s_len;\n", m.attr->c_name);
			else
				ynl_out_printf(h, "\t\t__u32 %s:1;\n", m.attr->c_name);
		}
		ynl_out_puts(h, "\t} _present;\n\n");
	}
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
			ynl_out_printf(h, "\t%s %s;%s\n", member_ctype(&m), c, bo_comment(m.attr));
			break;
		case K_STRING: ynl_out_printf(h, "\tchar *%s;\n", c); break;
		case K_BINARY: ynl_out_printf(h, "\tvoid *%s;\n", c); break;
		case K_BITFIELD: ynl_out_printf(h, "\tstruct nla_bitfield32 %s;\n", c); break;
		case K_NEST:
			ynl_out_printf(h, "\tstruct %s %s%s;\n", ynl_user_set_tag(spec, m.attr->nested),
				       nest_by_ptr(&m) ? "*" : "", c);
			break;
		default: break;
		}
	}
	if (!sh->hdr && !members)
		ynl_out_puts(h, "\tchar _empty;\n");
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
		} else if (nest_by_ptr(&m)) {
			ynl_out_printf(c, "\tif (%s->%s)\n\t\t%s_free(%s->%s);\n\tfree(%s->%s);\n", obj,
				       n, m.attr->nested->render_name, obj, n, obj, n);
		} else if (m.kind == K_NEST) {
			ynl_out_printf(c, "\t%s_free(&%s->%s);\n", m.attr->nested->render_name, obj, n);
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
			ynl_out_printf(c, "\tif (%s->n_%s) {\n\t\t__u32 array = "
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
		if (m.kind == K_STRING || m.kind == K_BINARY)
			ynl_out_printf(c, "\tif (%s->_present.%s_len)\n", obj, n);
		else if (nest_by_ptr(&m))
			ynl_out_printf(c, "\tif (%s->_present.%s && %s->%s)\n", obj, n, obj, n);
		else
			ynl_out_printf(c, "\tif (%s->_present.%s)\n", obj, n);
		snprintf(expr, sizeof(expr), "%s->%s", obj, n);
		if (m.kind == K_NEST)
			ynl_out_printf(c, "\t\t%s_put(msg, %s, %s%s);\n", a->nested->render_name,
				       type_expr, nest_by_ptr(&m) ? "" : "&", expr);
		else if (m.kind == K_STRING)
			ynl_out_printf(c, "\t\tkfsim_ynl_attr_put_str(msg, %s, %s, %s->_present.%s_len);\n",
				       type_expr, expr, obj, n);
		else if (m.kind == K_BINARY)
			ynl_out_printf(c, "\t\tkfsim_ynl_attr_put(msg, %s%s, %s, %s->_present.%s_len);\n",
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
	if (m->kind != K_STRING && m->kind != K_BINARY)
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
			       "&%s->_present.%s_len);\n\t\t\tif (!%s->%s)\n\t\t\t\treturn "
			       "kfsim_ynl_err_set(err, -ENOMEM, \"out of memory\");\n", obj, n, obj, n,
			       obj, n, obj, n);
		if (m->kind == K_STRING)
			ynl_out_printf(c, "\t\t\t%s->_present.%s_len = (__u32)strlen(%s->%s);\n", obj,
				       n, obj, n);
		break;
	case K_NEST:
		if (!nest_by_ptr(m)) {
			ynl_out_printf(c, "\t\t\t%s_free(&%s->%s);\n\t\t\tmemset(&%s->%s, 0, "
				       "sizeof(%s->%s));\n\t\t\tret = %s_parse(&%s->%s, attr, err);\n"
				       "\t\t\tif (ret)\n\t\t\t\treturn ret;\n", a->nested->render_name,
				       obj, n, obj, n, obj, n, a->nested->render_name, obj, n);
			break;
		}
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
		       "struct ynl_error *err)\n{\n\tconst struct nlattr *attr;\n\n"
		       "\t(void)obj;\n", fn, sh->tag);
	if (uses_ret)
		ynl_out_puts(c, "\tint ret;\n");
	ynl_out_printf(c, "\n\tkfsim_ynl_attr_for_each(attr, head, len) {\n"
		       "\t\t__u16 type = kfsim_ynl_attr_type(attr);\n\n"
		       "\t\t/* Newer kernels may send more: skip what the spec does not know. */\n"
		       "\t\tif (type > %s_nest.max_attr || !%s_policy[type].type)\n\t\t\tcontinue;\n"
		       "\t\tif (kfsim_ynl_attr_validate(&%s_nest, attr, err))\n\t\t\treturn -EINVAL;\n",
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
		       "\t(void)a;\n\t(void)b;\n", fn, sh->tag, sh->tag);
	for (int i = 0; i < sh->nr; i++) {
		struct member m = member_of(sh->attrs[i]);
		const char *n = m.attr->c_name;

		if (m.kind == K_SKIP)
			continue;
		if (!m.array && (m.kind == K_STRING || m.kind == K_BINARY))
			ynl_out_printf(c, "\tif (a->_present.%s_len != b->_present.%s_len)\n\t\treturn "
				       "false;\n", n, n);
		else if (!m.array)
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
		ynl_out_printf(c, "\tif (a->_present.%s%s) {\n", n,
			       m.kind == K_STRING || m.kind == K_BINARY ? "_len" : "");
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
			ynl_out_printf(c, "\t\tif (memcmp(a->%s, b->%s, a->_present.%s_len))\n"
				       "\t\t\treturn false;\n", n, n, n);
			break;
		case K_NEST:
			if (nest_by_ptr(&m))
				ynl_out_printf(c, "\t\tif (!a->%s != !b->%s || (a->%s && !%s_equal(a->%s, "
					       "b->%s)))\n\t\t\treturn false;\n", n, n, n,
					       m.attr->nested->render_name, n, n);
			else
				ynl_out_printf(c, "\t\tif (!%s_equal(&a->%s, &b->%s))\n\t\t\treturn "
					       "false;\n", m.attr->nested->render_name, n, n);
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
		ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *obj);\n", sh->name, sh->tag);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_put(struct kfsim_ynl_msg *msg, __u16 type, "
			       "const struct %s *obj);\n", sh->name, sh->tag);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_parse(struct %s *obj, const struct nlattr "
			       "*nest, struct ynl_error *err);\n", sh->name, sh->tag);
	} else {
		ynl_out_printf(h, "static inline struct %s *%s_alloc(void)\n{\n\treturn calloc(1, "
			       "sizeof(struct %s));\n}\n\n", sh->tag, sh->name, sh->tag);
		ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *obj);\n", sh->name, sh->tag);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_put(struct kfsim_ynl_msg *msg, "
			       "const struct %s *obj);\n", sh->name, sh->tag);
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_parse(struct %s *obj, const void *attrs, "
			       "__u32 len, struct ynl_error *err);\n", sh->name, sh->tag);
	}
	ynl_out_printf(h, "KFSIM_YNL_DECL bool %s_equal(const struct %s *a, const struct %s *b);\n\n", sh->name, sh->tag, sh->tag);

	/* free: a set's struct is a member or array element, a message is allocated */
	if (sh->is_set) {
		ynl_out_printf(c, "KFSIM_YNL_DEF void %s_free(struct %s *obj)\n{\n\t(void)obj;\n", sh->name, sh->tag);
		emit_free_members(c, sh, "obj");
		ynl_out_puts(c, "}\n\n");
	} else {
		ynl_out_printf(c, "static void __attribute__((unused)) %s_release(struct %s *obj)\n"
			       "{\n\t(void)obj;\n", sh->name, sh->tag);
		emit_free_members(c, sh, "obj");
		ynl_out_printf(c, "}\n\nKFSIM_YNL_DEF void %s_free(struct %s *obj)\n{\n\tif (!obj)\n"
			       "\t\treturn;\n\t%s_release(obj);\n\tfree(obj);\n}\n\n", sh->name, sh->tag, sh->name);
	}

	/* put */
	if (sh->is_set)
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_put(struct kfsim_ynl_msg *msg, __u16 type, "
			       "const struct %s *obj)\n{\n\t__u32 nest = kfsim_ynl_nest_start(msg, "
			       "type);\n\n\t(void)obj;\n", sh->name, sh->tag);
	else
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_put(struct kfsim_ynl_msg *msg, const struct %s "
			       "*obj)\n{\n\t(void)obj;\n", sh->name, sh->tag);
	emit_put_body(c, sh, "obj");
	if (sh->is_set)
		ynl_out_puts(c, "\tkfsim_ynl_nest_end(msg, nest);\n");
	ynl_out_puts(c, "\treturn msg->overflow ? -EMSGSIZE : 0;\n}\n\n");

	/* parse */
	snprintf(fn, sizeof(fn), "%s_parse_attrs", sh->name);
	emit_parse_attrs(c, sh, fn);
	if (sh->is_set)
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_parse(struct %s *obj, const struct nlattr "
			       "*nest, struct ynl_error *err)\n{\n\treturn %s(obj, "
			       "kfsim_ynl_attr_data(nest), kfsim_ynl_attr_data_len(nest), err);\n}\n\n", sh->name, sh->tag, fn);
	else
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_parse(struct %s *obj, const void *attrs, __u32 "
			       "len, struct ynl_error *err)\n{\n\treturn %s(obj, attrs, len, "
			       "err);\n}\n\n", sh->name, sh->tag, fn);
	snprintf(fn, sizeof(fn), "%s_equal", sh->name);
	emit_equal(c, sh, fn);
}

/*
 * Setters of a request, as ynl-gen-c.py writes them (static inline in the header):
 * F_req_set_x(req, x) for scalars, F_req_set_x(req) for flags, a copied string
 * (req, const char *x) or binary (req, const void *x, size_t len), and for nests one setter per
 * member at every depth: F_req_set_header_dev_name(req, dev_name) marks each level present.
 * Multi-attr members get __F_req_set_x(req, x, n_x), which takes ownership of the array.
 */
static bool shadows_type(const char *name)
{
	static const char *const types[] = { "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64" };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(name, types[i]))
			return true;
	return false;
}

/* A setter deep in nests marks every enclosing one present: req->a._present.b = 1. */
static void emit_mark_path(struct ynl_out *h, const char *path)
{
	char walk[512];
	const char *p = path, *dot;
	size_t used = 0;

	walk[0] = '\0';
	while ((dot = strchr(p, '.'))) {
		ynl_out_printf(h, "\treq->%s_present.%.*s = 1;\n", walk, (int)(dot - p), p);
		used += (size_t)snprintf(walk + used, sizeof(walk) - used, "%.*s.", (int)(dot - p), p);
		p = dot + 1;
	}
}

static void emit_setters_at(struct ynl_out *h, const char *sname, const char *fname,
			    const char *path, struct ynl_attr *const *attrs, int nr, int depth)
{
	char sub_fname[512], sub_path[512], param[300];

	for (int i = 0; i < nr; i++) {
		struct member m = member_of(attrs[i]);
		const char *n = m.attr->c_name;

		if (m.kind == K_SKIP || nest_by_ptr(&m))
			continue;
		if (m.array) {
			char et[256];

			elem_ctype(NULL, &m, et, sizeof(et));
			ynl_out_printf(h, "static inline void\n__%s_set_%s%s(struct %s *req, %s *%s, "
				       "unsigned int n_%s)\n{\n", sname, fname, n, sname, et, n, n);
			emit_mark_path(h, path);
			ynl_out_printf(h, "\tfree(req->%s%s);\n\treq->%s%s = %s;\n\treq->%sn_%s = n_%s;\n"
				       "}\n", path, n, path, n, n, path, n, n);
			continue;
		}
		if (m.kind == K_NEST) {
			snprintf(sub_fname, sizeof(sub_fname), "%s%s_", fname, n);
			snprintf(sub_path, sizeof(sub_path), "%s%s.", path, n);
			struct ynl_attr **sub = calloc((size_t)m.attr->nested->nr_attrs + 1,
						       sizeof(*sub));

			if (!sub) {
				h->oom = true;
				return;
			}
			for (int j = 0; j < m.attr->nested->nr_attrs; j++)
				sub[j] = ynl_set_attr(m.attr->nested, j);
			/* the levels above are marked present by each setter below */
			emit_setters_at(h, sname, sub_fname, sub_path, sub, m.attr->nested->nr_attrs,
					depth + 1);
			free(sub);
			continue;
		}
		/*
		 * The parameter is named after the attribute, as in the kernel's code; one named
		 * like a kernel short type (an attribute "u8") would shadow kfsim's typedef.
		 */
		snprintf(param, sizeof(param), "%s%s", n, shadows_type(n) ? "_" : "");
		ynl_out_printf(h, "static inline void\n%s_set_%s%s(struct %s *req", sname, fname, n,
			       sname);
		switch (m.kind) {
		case K_SCALAR: ynl_out_printf(h, ", %s %s", member_ctype(&m), param); break;
		case K_STRING: ynl_out_printf(h, ", const char *%s", param); break;
		case K_BINARY: ynl_out_printf(h, ", const void *%s, size_t len", param); break;
		case K_BITFIELD: ynl_out_printf(h, ", struct nla_bitfield32 *%s", param); break;
		default: break;
		}
		ynl_out_puts(h, ")\n{\n");
		emit_mark_path(h, path);
		switch (m.kind) {
		case K_SCALAR:
			ynl_out_printf(h, "\treq->%s_present.%s = 1;\n\treq->%s%s = %s;\n", path, n, path,
				       n, param);
			break;
		case K_FLAG:
			ynl_out_printf(h, "\treq->%s_present.%s = 1;\n", path, n);
			break;
		case K_STRING:
			ynl_out_printf(h, "\tfree(req->%s%s);\n\treq->%s_present.%s_len = strlen(%s);\n"
				       "\treq->%s%s = malloc(req->%s_present.%s_len + 1);\n"
				       "\tmemcpy(req->%s%s, %s, req->%s_present.%s_len);\n"
				       "\treq->%s%s[req->%s_present.%s_len] = 0;\n", path, n, path, n, param,
				       path, n, path, n, path, n, param, path, n, path, n, path, n);
			break;
		case K_BINARY:
			ynl_out_printf(h, "\tfree(req->%s%s);\n\treq->%s_present.%s_len = len;\n"
				       "\treq->%s%s = malloc(req->%s_present.%s_len);\n"
				       "\tmemcpy(req->%s%s, %s, req->%s_present.%s_len);\n", path, n, path,
				       n, path, n, path, n, path, n, param, path, n);
			break;
		case K_BITFIELD:
			ynl_out_printf(h, "\treq->%s_present.%s = 1;\n\tmemcpy(&req->%s%s, %s, "
				       "sizeof(struct nla_bitfield32));\n", path, n, path, n, param);
			break;
		default:
			break;
		}
		ynl_out_puts(h, "}\n");
	}
}

static void emit_setters(struct ynl_out *h, const struct shape *sh)
{
	emit_setters_at(h, sh->name, "", "", sh->attrs, sh->nr, 0);
	ynl_out_puts(h, "\n");
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

static int first_with_value(const struct ynl_attr_set *set, int upto, unsigned int v)
{
	for (int i = 0; i < upto; i++) {
		unsigned int len;

		if (ynl_set_attr(set, i)->value == v && pt_of(ynl_set_attr(set, i), &len))
			return i;
	}
	return upto;
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
				if (i && first_with_value(set, i, v) != i)
					continue;	/* an alias of the same type: the first names it */
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

/* An event's message is F_op_rsp and its notification struct F_op, as ynl-gen-c.py names them. */
static const char *const msg_suffix[M_NR] = { "req", "rsp", "req_dump", "rsp_dump", "rsp" };

static bool dump_consistent(const struct ynl_op *op)
{
	return ynl_user_dump_consistent(op);
}

static const struct ynl_msg *op_msg(const struct ynl_op *op, enum msg_kind k)
{
	return ynl_user_op_msg(op, (int)k);
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
	sh->tag = name;
	sh->attrs = msg->attrs;
	sh->nr = msg->nr_attrs;
	sh->set = op->set;
	sh->hdr = op_hdr(spec, op);
	sh->is_set = false;
}

/* The struct a dump lists, and the list's name (F_op_list or F_op_rsp_list). */
static void dump_names(const struct ynl_spec *spec, const struct ynl_op *op, char *obj,
		       size_t obj_size, char *list, size_t list_size)
{
	bool consistent = dump_consistent(op);

	snprintf(obj, obj_size, "%s_%s_%s", spec->c_name, op->c_name, consistent ? "rsp" :
		 "rsp_dump");
	snprintf(list, list_size, "%s_%s_%s", spec->c_name, op->c_name, consistent ? "list" :
		 "rsp_list");
}

/* An op whose replies other ops announce (notify: <this op>) gets F_op_ntf. */
static bool op_has_ntf(const struct ynl_spec *spec, const struct ynl_op *op)
{
	for (int i = 0; i < spec->nr_ops; i++)
		if (spec->ops[i].notify == op)
			return true;
	return false;
}

/* The F_x_ntf struct a notification op @op is delivered as, and the object inside it. */
static bool ntf_names(const struct ynl_spec *spec, const struct ynl_op *op, char *ntf,
		      size_t ntf_size, char *obj, size_t obj_size)
{
	if (op->notify) {
		const struct ynl_op *t = op->notify;

		if (!t->set)
			return false;
		snprintf(ntf, ntf_size, "%s_%s_ntf", spec->c_name, t->c_name);
		if (t->do_.present && t->do_.reply.present)
			snprintf(obj, obj_size, "%s_%s_rsp", spec->c_name, t->c_name);
		else if (t->dump.present && t->dump.reply.present)
			snprintf(obj, obj_size, "%s_%s_rsp_dump", spec->c_name, t->c_name);
		else
			return false;
		return true;
	}
	if (op->event.present && op->set) {
		snprintf(ntf, ntf_size, "%s_%s", spec->c_name, op->c_name);
		snprintf(obj, obj_size, "%s_%s_rsp", spec->c_name, op->c_name);
		return true;
	}
	return false;
}

static void emit_do(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec,
		    const struct ynl_op *op)
{
	const char *f = spec->c_name, *o = op->c_name;
	const struct ynl_def *hdr = op_hdr(spec, op);
	bool rsp = op_msg(op, M_RSP) != NULL;
	unsigned int rsp_cmd = op->has_rsp_value ? op->rsp_value : op->req_value;
	char cb[300];

	if (rsp) {
		ynl_out_printf(h, "KFSIM_YNL_DECL struct %s_%s_rsp *\n%s_%s(struct ynl_sock *ys, "
			       "struct %s_%s_req *req);\n\n", f, o, f, o, f, o);
		ynl_out_printf(c, "static int %s_%s_rsp_cb(const struct nlmsghdr *nlh, const void "
			       "*hdr, const void *attrs, __u32 len, void *arg,\n\t\t\tstruct ynl_error "
			       "*perr)\n{\n\tstruct %s_%s_rsp *rsp = arg;\n\n\t(void)nlh;\n\t(void)hdr;\n",
			       f, o, f, o);
		if (hdr)
			ynl_out_puts(c, "\tif (hdr)\n\t\tmemcpy(&rsp->_hdr, hdr, sizeof(rsp->_hdr));\n");
		ynl_out_printf(c, "\treturn %s_%s_rsp_parse(rsp, attrs, len, perr);\n}\n\n", f, o);
		/* the kernel library allocates the reply first: a bare ACK gives an empty one */
		ynl_out_printf(c, "KFSIM_YNL_DEF struct %s_%s_rsp *\n%s_%s(struct ynl_sock *ys, struct "
			       "%s_%s_req *req)\n{\n\tstruct %s_%s_rsp *rsp = %s_%s_rsp_alloc();\n"
			       "\tstruct kfsim_ynl_msg msg;\n\tint ret;\n\n\tif (!rsp) {\n"
			       "\t\tkfsim_ynl_err_set(&ys->err, ENOMEM, \"%%s\", strerror(ENOMEM));\n"
			       "\t\treturn NULL;\n\t}\n", f, o, f, o, f, o, f, o, f, o);
	} else {
		ynl_out_printf(h, "KFSIM_YNL_DECL int %s_%s(struct ynl_sock *ys, struct %s_%s_req "
			       "*req);\n\n", f, o, f, o);
		ynl_out_printf(c, "KFSIM_YNL_DEF int %s_%s(struct ynl_sock *ys, struct %s_%s_req *req)"
			       "\n{\n\tstruct kfsim_ynl_msg msg;\n\tint ret;\n\n", f, o, f, o);
	}
	snprintf(cb, sizeof(cb), rsp ? "%s_%s_rsp_cb" : "NULL", f, o);
	ynl_out_printf(c, "\tkfsim_ynl_msg_init(&msg, 0);\n\t%s_%s_req_put(&msg, req);\n"
		       "\tret = kfsim_ynl_exec(ys, %u, %s, &msg, false, %s%s%s, %u, %s, %s);\n"
		       "\tkfsim_ynl_msg_release(&msg);\n", f, o, op->req_value,
		       hdr ? "&req->_hdr" : "NULL", op->set ? "&" : "NULL",
		       op->set ? op->set->render_name : "", op->set ? "_nest" : "", rsp_cmd, cb,
		       rsp ? "rsp" : "NULL");
	if (rsp)
		ynl_out_printf(c, "\tif (ret) {\n\t\t%s_%s_rsp_free(rsp);\n\t\treturn NULL;\n\t}\n"
			       "\treturn rsp;\n}\n\n", f, o);
	else
		ynl_out_puts(c, "\treturn ret ? -1 : 0;\n}\n\n");
}

static void emit_dump(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec,
		      const struct ynl_op *op)
{
	const char *f = spec->c_name, *o = op->c_name;
	const struct ynl_def *hdr = op_hdr(spec, op);
	bool req = op_msg(op, M_REQ_DUMP) != NULL;
	unsigned int rsp_cmd = op->has_rsp_value ? op->rsp_value : op->req_value;
	char obj[300], list[300], args[400];

	dump_names(spec, op, obj, sizeof(obj), list, sizeof(list));
	ynl_out_printf(h, "struct %s {\n\tstruct %s *next;\n\tstruct %s obj __attribute__"
		       "((aligned(8)));\n};\n\n", list, list, obj);
	ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *rsp);\n\n", list, list);
	if (req)
		snprintf(args, sizeof(args), ", struct %s_%s_req_dump *req", f, o);
	else
		args[0] = '\0';
	ynl_out_printf(h, "KFSIM_YNL_DECL struct %s *\n%s_%s_dump(struct ynl_sock *ys%s);\n\n",
		       list, f, o, args);
	ynl_out_printf(c, "KFSIM_YNL_DEF void %s_free(struct %s *rsp)\n{\n"
		       "\twhile (rsp && (void *)rsp != (void *)YNL_LIST_END) {\n"
		       "\t\tstruct %s *next = rsp->next;\n\n"
		       "\t\t%s_release(&rsp->obj);\n\t\tfree(rsp);\n\t\trsp = next;\n\t}\n}\n\n",
		       list, list, list, obj);
	ynl_out_printf(c, "struct %s_%s_dump_ctx {\n\tstruct %s *first, *last;\n};\n\n", f, o, list);
	ynl_out_printf(c, "static int %s_%s_dump_cb(const struct nlmsghdr *nlh, const void *hdr, "
		       "const void *attrs, __u32 len, void *arg,\n\t\t\tstruct ynl_error *perr)\n{\n"
		       "\tstruct %s_%s_dump_ctx *ctx = arg;\n\tstruct %s *item = calloc(1, "
		       "sizeof(*item));\n\n\t(void)nlh;\n\t(void)hdr;\n\tif (!item)\n"
		       "\t\treturn kfsim_ynl_err_set(perr, -ENOMEM, \"%%s\", strerror(ENOMEM));\n"
		       "\titem->next = (void *)YNL_LIST_END;\n"
		       "\tif (ctx->last)\n\t\tctx->last->next = item;\n\telse\n\t\tctx->first = item;\n"
		       "\tctx->last = item;\n", f, o, f, o, list);
	if (hdr)
		ynl_out_puts(c, "\tif (hdr)\n\t\tmemcpy(&item->obj._hdr, hdr, sizeof(item->obj._hdr));\n");
	ynl_out_printf(c, "\treturn %s_parse(&item->obj, attrs, len, perr);\n}\n\n", obj);
	ynl_out_printf(c, "KFSIM_YNL_DEF struct %s *\n%s_%s_dump(struct ynl_sock *ys%s)\n{", list,
		       f, o, args);
	ynl_out_printf(c, "\n\tstruct %s_%s_dump_ctx ctx = { NULL, NULL };\n"
		       "\tstruct kfsim_ynl_msg msg;\n\tint ret;\n\n\tkfsim_ynl_msg_init(&msg, 0);\n",
		       f, o);
	if (req)
		ynl_out_printf(c, "\t%s_%s_req_dump_put(&msg, req);\n", f, o);
	ynl_out_printf(c, "\tret = kfsim_ynl_exec(ys, %u, %s, &msg, true, %s%s%s, %u, "
		       "%s_%s_dump_cb, &ctx);\n\tkfsim_ynl_msg_release(&msg);\n"
		       "\tif (ret) {\n\t\t%s_free(ctx.first);\n\t\treturn NULL;\n\t}\n"
		       "\treturn ctx.first ? ctx.first : (void *)YNL_LIST_END;\n}\n\n",
		       op->req_value, req && hdr ? "&req->_hdr" : "NULL", op->set ? "&" : "NULL",
		       op->set ? op->set->render_name : "", op->set ? "_nest" : "", rsp_cmd, f, o,
		       list);
}

static void emit_ntf_type(struct ynl_out *h, struct ynl_out *c, const char *ntf, const char *obj)
{
	ynl_out_printf(h, "struct %s {\n\t__u16 family;\n\t__u8 cmd;\n\tstruct ynl_ntf_base_type "
		       "*next;\n\tvoid (*free)(struct %s *ntf);\n\tstruct %s obj __attribute__"
		       "((aligned(8)));\n};\n\n", ntf, ntf, obj);
	ynl_out_printf(h, "KFSIM_YNL_DECL void %s_free(struct %s *rsp);\n\n", ntf, ntf);
	ynl_out_printf(c, "KFSIM_YNL_DEF void %s_free(struct %s *rsp)\n{\n\t%s_release(&rsp->obj);\n"
		       "\tfree(rsp);\n}\n\n", ntf, ntf, obj);
	ynl_out_printf(c, "static void %s_free_base(struct ynl_ntf_base_type *base)\n{\n"
		       "\t%s_free((struct %s *)base);\n}\n\n", ntf, ntf, ntf);
	ynl_out_printf(c, "static int %s_parse_base(struct ynl_ntf_base_type *base, const void "
		       "*attrs, __u32 len, struct ynl_error *err)\n{\n\treturn %s_parse(&((struct %s "
		       "*)base)->obj, attrs, len, err);\n}\n\n", ntf, obj, ntf);
}

static void emit_family(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec)
{
	unsigned int size = 0;
	const struct ynl_def *hdr = ynl_family_hdr(spec);
	char ntf[300], obj[300];

	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (op->is_async && op->has_rsp_value && ntf_names(spec, op, ntf, sizeof(ntf), obj,
								   sizeof(obj)) &&
		    op->rsp_value + 1 > size)
			size = op->rsp_value + 1;
	}
	ynl_out_printf(h, "KFSIM_YNL_DECL const struct ynl_family ynl_%s_family;\n\n", spec->c_name);
	if (size) {
		ynl_out_printf(c, "static const struct kfsim_ynl_ntf_info %s_ntf_info[%u] = {\n",
			       spec->c_name, size);
		for (int i = 0; i < spec->nr_ops; i++) {
			const struct ynl_op *op = &spec->ops[i];

			if (!op->is_async || !op->has_rsp_value ||
			    !ntf_names(spec, op, ntf, sizeof(ntf), obj, sizeof(obj)))
				continue;
			ynl_out_printf(c, "\t[%u] = {\n\t\t.alloc_size = sizeof(struct %s),\n"
				       "\t\t.parse = %s_parse_base,\n\t\t.free = %s_free_base,\n\t},\n",
				       op->rsp_value, ntf, ntf, ntf);
		}
		ynl_out_puts(c, "};\n\n");
	}
	ynl_out_printf(c, "KFSIM_YNL_DEF const struct ynl_family ynl_%s_family = {\n"
		       "\t.name = \"%s\",\n\t.hdr_len = %s%s%s,\n", spec->c_name, spec->name,
		       hdr ? "sizeof(struct " : "0", hdr ? hdr_tag(spec, hdr) : "", hdr ? ")" : "");
	if (size)
		ynl_out_printf(c, "\t.ntf_info = %s_ntf_info,\n\t.ntf_info_size = %u,\n", spec->c_name,
			       size);
	ynl_out_puts(c, "};\n");
}

/*
 * The *_str() helpers of ynl-gen-c.py: F_op_str(op) names a command (requests by their value,
 * notifications by theirs), F_enum_str(value) an enum entry; for flags the value is a single
 * bit and is looked up by its position, ffs(value) - 1, as the kernel's generated code does.
 * Out of range or unnamed: NULL.
 */
static void emit_str_helpers(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec)
{
	const char *f = spec->c_name;

	ynl_out_puts(h, "/* Enums */\n");
	ynl_out_printf(h, "KFSIM_YNL_DECL const char *%s_op_str(int op);\n", f);
	ynl_out_printf(c, "static const char * const %s_op_strmap[] = {\n", f);
	/* keyed by the reply/notification id; a later op with the same id replaces the name */
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		bool replaced = false;

		if (!op->has_rsp_value)
			continue;
		for (int j = i + 1; j < spec->nr_ops; j++)
			replaced |= spec->ops[j].has_rsp_value &&
				    spec->ops[j].rsp_value == op->rsp_value;
		if (!replaced)
			ynl_out_printf(c, "\t[%u] = \"%s\",\n", op->rsp_value, op->name);
	}
	ynl_out_printf(c, "};\n\nKFSIM_YNL_DEF const char *%s_op_str(int op)\n{\n"
		       "\tif (op < 0 || op >= (int)(sizeof(%s_op_strmap) / sizeof(%s_op_strmap[0])))\n"
		       "\t\treturn NULL;\n\treturn %s_op_strmap[op];\n}\n\n", f, f, f, f);
	for (int d = 0; d < spec->nr_defs; d++) {
		const struct ynl_def *def = &spec->defs[d];
		bool flags = def->type == YNL_DEF_FLAGS;
		const char *r = def->render_name;

		/* an enum another header defines is complete only with that header: no helper */
		if ((def->type != YNL_DEF_ENUM && !flags) || !def->c_type || !r || def->header ||
		    def->scope)
			continue;
		ynl_out_printf(h, "KFSIM_YNL_DECL const char *%s_str(%s value);\n", r, def->c_type);
		ynl_out_printf(c, "static const char * const %s_strmap[] = {\n", r);
		for (int e = 0; e < def->nr_entries; e++) {
			long long v = (long long)def->entries[e].value;

			if (flags) {
				int bit = 0;

				while (bit < 64 && !((unsigned long long)v & (1ull << bit)))
					bit++;
				v = bit;
			}
			if (v < 0 || v > 4096)
				continue;
			ynl_out_printf(c, "\t[%lld] = \"%s\",\n", v, def->entries[e].name);
		}
		ynl_out_printf(c, "};\n\nKFSIM_YNL_DEF const char *%s_str(%s value)\n{\n", r,
			       def->c_type);
		if (flags)
			ynl_out_puts(c, "\tvalue = ffs(value) - 1;\n");
		ynl_out_printf(c, "\tif ((int)value < 0 || (int)value >= (int)(sizeof(%s_strmap) / "
			       "sizeof(%s_strmap[0])))\n\t\treturn NULL;\n\treturn %s_strmap[value];\n"
			       "}\n\n", r, r, r);
	}
	ynl_out_puts(h, "\n");
}

/* Sets in an order where each one's by-value nests come before it (C needs it complete). */
static void emit_set(struct ynl_out *h, struct ynl_out *c, const struct ynl_spec *spec, int s,
		     bool *done, int depth)
{
	const struct ynl_attr_set *set = &spec->sets[s];
	struct ynl_attr **attrs;
	struct shape sh = { .name = set->render_name, .tag = ynl_user_set_tag(spec, set),
			    .set = set, .is_set = true };

	if (done[s] || depth > spec->nr_sets || !ynl_set_is_nested(spec, set))
		return;
	done[s] = true;
	for (int i = 0; i < set->nr_attrs; i++) {
		struct member m = member_of(ynl_set_attr(set, i));

		if (m.kind == K_NEST && !nest_by_ptr(&m))
			emit_set(h, c, spec, (int)(m.attr->nested - spec->sets), done, depth + 1);
	}
	attrs = calloc((size_t)set->nr_attrs + 1, sizeof(*attrs));
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

static bool is_fixed_header(const struct ynl_spec *spec, const struct ynl_def *def)
{
	if (spec->fixed_header == def)
		return true;
	for (int i = 0; i < spec->nr_ops; i++)
		if (spec->ops[i].fixed_header == def)
			return true;
	return false;
}

void ynl_emit_user(const struct ynl_spec *spec, struct ynl_out *h, struct ynl_out *c)
{
	char guard[256], name[512], ntf[300], obj[300];
	bool *done;

	user_spec = spec;
	snprintf(guard, sizeof(guard), "KFSIM_YNL_%s_USER_H", spec->c_name);
	for (char *p = guard; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	ynl_emit_banner(h, spec, "user header");
	/*
	 * As the kernel's generated header: self-contained (what its inline setters and the
	 * samples use: malloc, strtol, memcpy), the family's uapi definitions and the library.
	 * The definitions are kfsim-ynl-gen's F-uapi.h when it was generated next to this file,
	 * else the kernel's uapi header, included as ynl-gen-c.py includes it (the kernel's
	 * samples build then forces the tree's copy with -include, see its Makefile.deps).
	 */
	ynl_out_printf(h, "#ifndef %s\n#define %s\n\n#include <errno.h>\n#include <stdbool.h>\n"
		       "#include <stdlib.h>\n#include <string.h>\n#include <linux/types.h>\n"
		       "#include <linux/netlink.h>\n#if __has_include(\"%s-uapi.h\")\n"
		       "#include \"%s-uapi.h\"\n", guard, guard, spec->ident, spec->ident);
	if (ynl_is_genl(spec))
		for (int d = 0; d < spec->nr_defs; d++)
			if (is_fixed_header(spec, &spec->defs[d]))
				ynl_emit_struct_def(h, &spec->defs[d], hdr_tag(spec, &spec->defs[d]));
	ynl_out_printf(h, "#else\n#include <%s>\n#endif\n", spec->uapi_header);
	/*
	 * The headers that define a definition instead of the uapi header (ethtool.yaml of
	 * 6.14 on: c33-pse-ext-state and module-fw-flash-status in <linux/ethtool.h>), each
	 * once, as ynl-gen-c.py includes them (scope uapi or user).
	 */
	for (int d = 0; d < spec->nr_defs; d++) {
		const struct ynl_def *def = &spec->defs[d];
		bool seen = !strcmp(def->header ? def->header : "", spec->uapi_header);

		for (int e = 0; e < d && !seen; e++)
			seen = spec->defs[e].header && def->header &&
			       !strcmp(spec->defs[e].header, def->header);
		if (def->header && !seen &&
		    (!def->scope || !strcmp(def->scope, "uapi") || !strcmp(def->scope, "user")))
			ynl_out_printf(h, "#include <%s>\n", def->header);
	}
	ynl_out_puts(h, "#include <kfsim/ynl.h>\n\n");
	ynl_emit_scope_macros(h);
	if (!ynl_is_genl(spec))
		ynl_emit_structs(h, spec);

	ynl_emit_banner(c, spec, "user source");
	ynl_out_printf(c, "#include <endian.h>\n#include <errno.h>\n#include <stdlib.h>\n"
		       "#include <string.h>\n#include <strings.h>\n#include <linux/genetlink.h>\n\n"
		       "#include \"%s-user.h\"\n\n", spec->ident);

	if (ynl_is_genl(spec))
		emit_str_helpers(h, c, spec);
	/* Sets: forward declarations, policies, structs, code. */
	for (int s = 0; s < spec->nr_sets; s++)
		if (ynl_set_is_nested(spec, &spec->sets[s]))
			ynl_out_printf(h, "struct %s;\n", ynl_user_set_tag(spec, &spec->sets[s]));
	ynl_out_puts(h, "\n");
	for (int s = 0; s < spec->nr_sets; s++)
		ynl_out_printf(h, "KFSIM_YNL_DECL const struct kfsim_ynl_policy_attr %s_policy[%u];\n"
			       "KFSIM_YNL_DECL const struct kfsim_ynl_policy_nest %s_nest;\n",
			       spec->sets[s].render_name, spec->sets[s].max_value + 1,
			       spec->sets[s].render_name);
	ynl_out_puts(h, "\n/* Common nested types */\n");
	emit_policies(c, spec);
	done = calloc((size_t)spec->nr_sets + 1, sizeof(*done));
	if (!done) {
		h->oom = true;
		return;
	}
	for (int s = 0; s < spec->nr_sets; s++)
		emit_set(h, c, spec, s, done, 0);
	free(done);
	/* Operation messages and functions, op by op as ynl-gen-c.py orders them. */
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
		if (!ynl_is_genl(spec))
			continue;
		if (op_msg(op, M_REQ))
			emit_do(h, c, spec, op);
		if (op->dump.present && op->dump.reply.present && !op->is_async)
			emit_dump(h, c, spec, op);
		if (op_has_ntf(spec, op)) {
			for (int j = 0; j < spec->nr_ops; j++)
				if (spec->ops[j].notify == op &&
				    ntf_names(spec, &spec->ops[j], ntf, sizeof(ntf), obj, sizeof(obj))) {
					emit_ntf_type(h, c, ntf, obj);
					break;
				}
		}
		if (op->event.present && ntf_names(spec, op, ntf, sizeof(ntf), obj, sizeof(obj)))
			emit_ntf_type(h, c, ntf, obj);
	}
	if (ynl_is_genl(spec))
		emit_family(h, c, spec);
	ynl_out_printf(h, "#endif /* %s */\n", guard);
}
