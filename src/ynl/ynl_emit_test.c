// SPDX-License-Identifier: MIT
/*
 * Test emitter (mode "test"): F-test.c, a program that #includes F-kernel.c and F-user.c with
 * internal linkage and checks them against each other on kfsim's netlink core:
 *
 *   round trips  for every message of every operation (and every set): random values within
 *                the policy -> put -> kernel policy validation (nla_validate, strict, or for
 *                netlink-raw the liberal _deprecated one, as the kernel parses them, with the
 *                op's request policy or the set's nested policy) -> parse -> equal;
 *   rejections   for every request attribute whose policy has a bound the type can exceed: the
 *                out-of-policy value is refused with the kernel's errno and extack message and
 *                the extack points at the attribute;
 *   the family   (genetlink) registers in an in-process kernel, and every do op with a reply
 *                goes through it end to end (echo handlers send the request back as the reply);
 *   --kernel-policy FILE  compares the generated policies, op by op, with the running kernel's
 *                CTRL_CMD_GETPOLICY dump and appends the findings to FILE (attributes the spec
 *                lacks are reported, never a failure).
 * Usage: F-test [ITERATIONS] [--seed N] [--kernel-policy FILE].  Exit 0 when nothing failed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ynl_emit.h"
#include "ynl_emit_common.h"

/* The C type and bounds of a scalar. */
static void type_bounds(enum ynl_type t, int64_t *lo, uint64_t *hi)
{
	*lo = 0;
	switch (t) {
	case YNL_T_U8: *hi = UINT8_MAX; break;
	case YNL_T_U16: *hi = UINT16_MAX; break;
	case YNL_T_U32: *hi = UINT32_MAX; break;
	case YNL_T_S8: *lo = INT8_MIN; *hi = INT8_MAX; break;
	case YNL_T_S16: *lo = INT16_MIN; *hi = INT16_MAX; break;
	case YNL_T_S32: *lo = INT32_MIN; *hi = INT32_MAX; break;
	case YNL_T_S64: case YNL_T_SINT: *lo = INT64_MIN; *hi = INT64_MAX; break;
	default: *hi = UINT64_MAX; break;
	}
}

static bool is_mask_attr(const struct ynl_attr *a, uint64_t *mask)
{
	const struct ynl_def *def = ynl_attr_mask_def(a);

	if (!def)
		return false;
	*mask = ynl_attr_mask(a, def);
	return true;
}

/* Whether the kernel policy bounds the value: [lo, hi] within the type. */
static bool policy_range(const struct ynl_attr *a, enum ynl_type t, int64_t *lo, uint64_t *hi)
{
	int64_t tlo;
	uint64_t thi;
	bool bounded = false;

	type_bounds(t, &tlo, &thi);
	*lo = tlo;
	*hi = thi;
	if (a->has_checks && (a->checks.has_min || a->checks.has_max)) {
		if (a->checks.has_min) {
			*lo = a->checks.min;
			bounded = true;
		}
		if (a->checks.has_max && !a->checks.max_is_unsigned) {
			*hi = (uint64_t)a->checks.max;
			bounded = true;
		}
		return bounded;
	}
	if (a->enum_def && a->enum_def->type == YNL_DEF_ENUM && !a->enum_as_flags) {
		int64_t elo = a->enum_def->entries[0].value, ehi = elo;

		for (int i = 1; i < a->enum_def->nr_entries; i++) {
			elo = a->enum_def->entries[i].value < elo ? a->enum_def->entries[i].value : elo;
			ehi = a->enum_def->entries[i].value > ehi ? a->enum_def->entries[i].value : ehi;
		}
		/* The kernel emitter bounds only contiguous enums that fit s16. */
		if (ehi - elo + 1 == a->enum_def->nr_entries && elo >= INT16_MIN && ehi <= INT16_MAX) {
			*lo = elo;
			*hi = (uint64_t)ehi;
			return true;
		}
	}
	return false;
}

static bool is_signed_t(enum ynl_type t)
{
	return ynl_type_is_signed(t);
}

/* -- fill: random in-policy values ---------------------------------------------------------- */

static enum ynl_type elem_type(const struct ynl_attr *a)
{
	return a->type == YNL_T_INDEXED_ARRAY ? a->sub_type : a->type;
}

static bool is_array(const struct ynl_attr *a)
{
	return a->type == YNL_T_INDEXED_ARRAY || (a->multi_attr && elem_type(a) != YNL_T_FLAG);
}

/* Expression of a random in-policy scalar value of attribute @a. */
static void scalar_expr(const struct ynl_attr *a, enum ynl_type t, char *buf, size_t size)
{
	const char *ct = ynl_type_ctype(t);
	char lo_s[32], hi_s[32];
	uint64_t mask, hi;
	int64_t lo;

	if (is_mask_attr(a, &mask))
		snprintf(buf, size, "(%s)(kfsim_prandom_u64(rnd) & 0x%" PRIx64 "ULL)", ct, mask);
	else if (policy_range(a, t, &lo, &hi) && is_signed_t(t))
		snprintf(buf, size, "(%s)rt_range_s(rnd, %s, %s)", ct, ynl_c_s64(lo, lo_s),
			 ynl_c_s64((int64_t)hi, hi_s));
	else if (policy_range(a, t, &lo, &hi))
		snprintf(buf, size, "(%s)rt_range_u(rnd, %" PRIu64 "ULL, %" PRIu64 "ULL)", ct,
			 (uint64_t)lo, hi);
	else
		snprintf(buf, size, "(%s)kfsim_prandom_u64(rnd)", ct);
}

/* Fill one element @lv (an lvalue of the element type) of attribute @a. */
static void emit_fill_elem(struct ynl_out *c, const struct ynl_attr *a, const char *lv,
			   const char *ind)
{
	enum ynl_type t = elem_type(a);
	char expr[512];
	uint64_t mask;

	if (ynl_type_is_scalar(t)) {
		scalar_expr(a, t, expr, sizeof(expr));
		ynl_out_printf(c, "%s%s = %s;\n", ind, lv, expr);
	} else if (t == YNL_T_STRING) {
		ynl_out_printf(c, "%s%s.data = rt_string(rnd, %lld, &%s.len);\n", ind, lv,
			       a->checks.has_max_len ? (long long)a->checks.max_len : 16LL, lv);
	} else if (t == YNL_T_BINARY || t == YNL_T_SUB_MESSAGE) {
		const struct ynl_checks *k = &a->checks;
		long long lo = k->has_exact_len ? k->exact_len : k->has_min_len ? k->min_len : 0;
		/* no max-len: up to 16 bytes past the minimum (a min-len of 43 with a fixed
		 * default of 16 gave rt_bytes() a max below its min: a 4 GiB length) */
		long long hi = k->has_exact_len ? k->exact_len : k->has_max_len ? k->max_len : lo + 16;

		ynl_out_printf(c, "%s%s.data = rt_bytes(rnd, %lld, %lld, &%s.len);\n", ind, lv, lo,
			       hi, lv);
	} else if (t == YNL_T_BITFIELD32) {
		mask = 0xffffffffu;
		if (a->enum_def) {
			mask = 0;
			for (int i = 0; i < a->enum_def->nr_entries; i++)
				mask |= a->enum_def->type == YNL_DEF_FLAGS ?
					(uint64_t)a->enum_def->entries[i].value :
					1ULL << a->enum_def->entries[i].value;
		}
		ynl_out_printf(c, "%s%s.selector = prandom_u32_state(rnd) & 0x%" PRIx64 "u;\n%s%s.value "
			       "= prandom_u32_state(rnd) & %s.selector;\n", ind, lv, mask, ind, lv, lv);
	} else if (t == YNL_T_NEST && a->nested) {
		ynl_out_printf(c, "%sfill_%s(rnd, &%s, depth + 1);\n", ind, a->nested->render_name, lv);
	}
}

static void emit_fill_attr(struct ynl_out *c, const struct ynl_attr *a)
{
	enum ynl_type t = elem_type(a);
	const char *n = a->c_name;
	char lv[256];

	if (t == YNL_T_PAD || t == YNL_T_UNUSED || t == YNL_T_COUNT)
		return;
	/*
	 * Type 0 never passes strict validation (devlink dl-attr-stats and ovs upcall-stats use
	 * it in kernel-to-user nests only): leave such attributes out of random messages.
	 */
	if (a->value == 0)
		return;
	/* Likewise a generic netlink binary with min-len alone: 6.12's policy for it is
	 * { .len = N }, NLA_UNSPEC (the netlink-raw families validate liberally, it passes). */
	if (a->gen_c_rules && ynl_attr_policy_unspec(a))
		return;
	if (a->multi_attr && t == YNL_T_FLAG)
		return;
	if (t == YNL_T_NEST && !a->nested)
		t = YNL_T_BINARY;
	ynl_out_puts(c, "\tif (kfsim_prandom_below(rnd, 2)) {\n");
	if (is_array(a)) {
		bool nest = t == YNL_T_NEST;

		ynl_out_printf(c, "\t\tobj->n_%s = %s;\n", n, nest ? "depth < 2 ? kfsim_prandom_below(rnd, "
			       "3) : 0" : "kfsim_prandom_below(rnd, 4)");
		ynl_out_printf(c, "\t\tobj->%s = obj->n_%s ? calloc(obj->n_%s, sizeof(*obj->%s)) : "
			       "NULL;\n\t\tif (!obj->%s)\n\t\t\tobj->n_%s = 0;\n", n, n, n, n, n, n);
		ynl_out_printf(c, "\t\tfor (unsigned int i = 0; i < obj->n_%s; i++) {\n", n);
		snprintf(lv, sizeof(lv), "obj->%s[i]", n);
		emit_fill_elem(c, a, lv, "\t\t\t");
		ynl_out_puts(c, "\t\t}\n\t}\n");
		return;
	}
	if (a->type == YNL_T_NEST_TYPE_VALUE) {
		/* an empty payload has length 0, which the kernel's layout calls absent */
		ynl_out_puts(c, "\t}\n");
		return;
	}
	switch (t) {
	case YNL_T_FLAG:
		ynl_out_printf(c, "\t\tobj->_present.%s = 1;\n", n);
		break;
	case YNL_T_STRING:
	case YNL_T_BINARY:
	case YNL_T_SUB_MESSAGE: {
		ynl_out_puts(c, "\t\tstruct kfsim_ynl_bin b;\n\n");
		emit_fill_elem(c, a, "b", "\t\t");
		ynl_out_printf(c, "\t\tobj->%s = b.data;\n\t\tobj->_present.%s_len = b.data ? "
			       "b.len : 0;\n", n, n);
		break;
	}
	case YNL_T_NEST:
		if (ynl_user_nest_by_ptr(a))
			ynl_out_printf(c, "\t\tif (depth < 2) {\n\t\t\tobj->%s = calloc(1, "
				       "sizeof(*obj->%s));\n\t\t\tif (obj->%s) {\n\t\t\t\t"
				       "obj->_present.%s = 1;\n\t\t\t\tfill_%s(rnd, obj->%s, depth + 1);"
				       "\n\t\t\t}\n\t\t}\n", n, n, n, n, a->nested->render_name, n);
		else
			ynl_out_printf(c, "\t\tif (depth < 2) {\n\t\t\tobj->_present.%s = 1;\n"
				       "\t\t\tfill_%s(rnd, &obj->%s, depth + 1);\n\t\t}\n", n,
				       a->nested->render_name, n);
		break;
	default:
		if (ynl_type_is_scalar(t) || t == YNL_T_BITFIELD32) {
			snprintf(lv, sizeof(lv), "obj->%s", n);
			ynl_out_printf(c, "\t\tobj->_present.%s = 1;\n", n);
			emit_fill_elem(c, a, lv, "\t\t");
		}
		break;
	}
	ynl_out_puts(c, "\t}\n");
}

static void emit_fill_fn(struct ynl_out *c, const char *name, const char *tag,
			 struct ynl_attr *const *attrs, int nr)
{
	ynl_out_printf(c, "static void fill_%s(struct rnd_state *rnd, struct %s *obj, int depth)\n{\n"
		       "\t(void)rnd;\n\t(void)obj;\n\t(void)depth;\n", name, tag);
	for (int i = 0; i < nr; i++)
		emit_fill_attr(c, attrs[i]);
	ynl_out_puts(c, "}\n\n");
}

/* -- per-message tests ---------------------------------------------------------------------- */

struct msg_ref {
	char name[300];			/* struct tag */
	struct ynl_attr *const *attrs;
	int nr;
	char policy[300];		/* kernel policy to validate with ("" = none) */
	unsigned int maxattr;
	bool request;			/* also run the rejection tests */
};

static void emit_roundtrip(struct ynl_out *c, const struct msg_ref *m)
{
	ynl_out_printf(c, "static void rt_%s(struct rnd_state *rnd)\n{\n\tstruct %s *a = calloc(1, "
		       "sizeof(*a)), *b = calloc(1, sizeof(*b));\n\tstruct ynl_error err = { 0 };\n"
		       "\tstruct kfsim_ynl_msg msg;\n\n\tkfsim_ynl_msg_init(&msg, 0);\n"
		       "\tif (!a || !b) {\n\t\tRT_FAIL(\"%s: out of memory\");\n\t\tgoto out;\n\t}\n"
		       "\tfill_%s(rnd, a, 0);\n\tif (%s_put(&msg, a)) {\n\t\tRT_FAIL(\"%s: put "
		       "failed\");\n\t\tgoto out;\n\t}\n", m->name, m->name, m->name, m->name, m->name,
		       m->name);
	if (m->policy[0])
		ynl_out_printf(c, "\t{\n\t\tstruct netlink_ext_ack extack = { 0 };\n\t\tint ret = "
			       "RT_VALIDATE((const struct nlattr *)msg.buf, (int)msg.len, %u, %s, "
			       "&extack);\n\n\t\tif (ret) {\n\t\t\tRT_FAIL(\"%s: the kernel policy "
			       "refused an in-policy message: %%d '%%s'\", ret, extack._msg ? "
			       "extack._msg : \"\");\n\t\t\tgoto out;\n\t\t}\n\t\trt_validated++;\n\t}\n",
			       m->maxattr, m->policy, m->name);
	ynl_out_printf(c, "\tif (%s_parse(b, msg.buf, msg.len, &err))\n\t\tRT_FAIL(\"%s: parse: "
		       "%%s\", err.msg);\n\telse if (!%s_equal(a, b))\n\t\tRT_FAIL(\"%s: parse(put(x)) "
		       "!= x\");\n\telse\n\t\trt_done++;\nout:\n\tkfsim_ynl_msg_release(&msg);\n"
		       "\t%s_free(a);\n\t%s_free(b);\n}\n\n", m->name, m->name, m->name, m->name,
		       m->name, m->name);
}

/* One rejection: attribute @a set to @value_expr must fail with @err / @msg. */
static void emit_reject_case(struct ynl_out *c, const struct msg_ref *m, const struct ynl_attr *a,
			     const char *setup, const char *err, const char *msg, const char *what)
{
	ynl_out_printf(c, "\t{\n\t\tstruct %s *obj = calloc(1, sizeof(*obj));\n\t\tstruct "
		       "netlink_ext_ack extack = { 0 };\n\t\tstruct kfsim_ynl_msg msg;\n\t\tint ret;\n\n"
		       "\t\tkfsim_ynl_msg_init(&msg, 0);\n\t\tif (obj) {\n%s\t\t\t%s_put(&msg, obj);\n"
		       "\t\t\tret = RT_VALIDATE((const struct nlattr *)msg.buf, (int)msg.len, %u, %s, "
		       "&extack);\n\t\t\tif (ret == %s && extack._msg && !strcmp(extack._msg, \"%s\") "
		       "&& extack.bad_attr == (const struct nlattr *)msg.buf)\n\t\t\t\trt_rejected++;\n"
		       "\t\t\telse\n\t\t\t\tRT_FAIL(\"%s.%s (%s): got %%d '%%s', want %s '%s'\", ret, "
		       "extack._msg ? extack._msg : \"\");\n\t\t}\n\t\tkfsim_ynl_msg_release(&msg);\n"
		       "\t\t%s_free(obj);\n\t}\n", m->name, setup, m->name, m->maxattr, m->policy, err,
		       msg, m->name, a->name, what, err, msg, m->name);
}

static void emit_rejects(struct ynl_out *c, const struct msg_ref *m)
{
	char setup[512], lit[32];

	ynl_out_printf(c, "static void rej_%s(void)\n{\n", m->name);
	for (int i = 0; i < m->nr; i++) {
		const struct ynl_attr *a = m->attrs[i];
		const char *n = a->c_name;
		int64_t lo, tlo;
		uint64_t hi, thi, mask;

		if (a->multi_attr || a->type == YNL_T_INDEXED_ARRAY)
			continue;
		if (ynl_type_is_scalar(a->type) && a->type != YNL_T_UINT && a->type != YNL_T_SINT) {
			const char *ct = ynl_type_ctype(a->type);

			type_bounds(a->type, &tlo, &thi);
			if (is_mask_attr(a, &mask)) {
				if ((mask & thi) == thi)
					continue;
				uint64_t bad = ~mask & thi;

				bad &= 0 - bad;	/* the lowest bit the mask leaves out */
				snprintf(setup, sizeof(setup), "\t\t\tobj->_present.%s = 1;\n\t\t\t"
					 "obj->%s = (%s)0x%" PRIx64 "ULL;\n", n, n, ct, bad);
				emit_reject_case(c, m, a, setup, "-EINVAL", "reserved bit set",
						 "bit outside the mask");
				continue;
			}
			if (!policy_range(a, a->type, &lo, &hi))
				continue;
			if (is_signed_t(a->type) ? (int64_t)hi < (int64_t)thi : hi < thi) {
				snprintf(setup, sizeof(setup), "\t\t\tobj->_present.%s = 1;\n\t\t\t"
					 "obj->%s = (%s)%s%" PRIu64 "ULL;\n", n, n, ct,
					 is_signed_t(a->type) ? "(__s64)" : "", hi + 1);
				emit_reject_case(c, m, a, setup, "-ERANGE", "integer out of range",
						 "above max");
			}
			if (lo > tlo) {
				snprintf(setup, sizeof(setup), "\t\t\tobj->_present.%s = 1;\n\t\t\t"
					 "obj->%s = (%s)(%s);\n", n, n, ct, ynl_c_s64(lo - 1, lit));
				emit_reject_case(c, m, a, setup, "-ERANGE", "integer out of range",
						 "below min");
			}
		} else if (a->type == YNL_T_STRING && a->checks.has_max_len &&
			   !a->checks.unterminated_ok && a->checks.max_len < 4000) {
			snprintf(setup, sizeof(setup), "\t\t\t(void)0;\n\t\t\tobj->%s%s = "
				 "calloc(1, %lld);\n\t\t\tif (obj->%s)\n\t\t\t\tmemset(obj->%s, 'x', "
				 "%lld);\n\t\t\tobj->_present.%s_len = obj->%s ? %lld : 0;\n", "", n,
				 (long long)a->checks.max_len + 2, n, n, (long long)a->checks.max_len + 1,
				 n, n, (long long)a->checks.max_len + 1);
			emit_reject_case(c, m, a, setup, "-EINVAL", "Attribute failed policy validation",
					 "string too long");
		} else if (a->type == YNL_T_BINARY && a->checks.has_exact_len &&
			   a->checks.exact_len < 4000) {
			snprintf(setup, sizeof(setup), "\t\t\t(void)0;\n%s\t\t\tobj->%s = "
				 "calloc(1, %lld);\n\t\t\tobj->_present.%s_len = obj->%s ? %lld : 0;\n", "", n,
				 (long long)a->checks.exact_len + 1, n, n,
				 (long long)a->checks.exact_len + 1);
			emit_reject_case(c, m, a, setup, "-ERANGE", "binary attribute size out of range",
					 "wrong length");
		}
	}
	ynl_out_puts(c, "}\n\n");
}

/* -- the family through the in-process kernel ------------------------------------------------ */

static void emit_handlers(struct ynl_out *c, const struct ynl_spec *spec)
{
	const char *seen[256];
	bool any_do = false;
	int nr = 0;

	/* a family of events only (6.18's binder) has no doit to echo: no unused function */
	for (int i = 0; i < spec->nr_ops; i++)
		any_do |= !spec->ops[i].is_async && spec->ops[i].do_.present;
	if (any_do)
		/* the fixed header takes NLMSG_ALIGN(hdrsize) in both messages (genlmsg_put()):
		 * a 1-byte header (spec_fuzz.py seed 6368) left 3 bytes unaccounted, -EMSGSIZE */
		ynl_out_puts(c, "/* Echo handlers: the reply carries the request's attributes "
			     "back. */\nstatic int rt_echo(struct genl_info *info, u8 cmd)\n{\n"
			     "\tint len = genlmsg_len(info->genlhdr);\n"
			     "\tint hl = (int)NLMSG_ALIGN(info->family->hdrsize);\n"
			     "\tstruct sk_buff *rsp = genlmsg_new((size_t)len, GFP_KERNEL);\n"
			     "\tvoid *hdr;\n\n"
			     "\tif (!rsp)\n\t\treturn -ENOMEM;\n"
			     "\thdr = genlmsg_put_reply(rsp, info, info->family, 0, cmd);\n"
			     "\tif (!hdr || (int)skb_tailroom(rsp) < len - hl) {\n"
			     "\t\tkfree_skb(rsp);\n\t\treturn -EMSGSIZE;\n\t}\n"
			     "\tmemcpy(hdr, genlmsg_data(info->genlhdr), (size_t)len);\n"
			     "\trsp->len += (unsigned int)(len - hl);\n"
			     "\tgenlmsg_end(rsp, hdr);\n\treturn genlmsg_reply(rsp, info);\n}\n\n");
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (op->is_async)
			continue;
		if (op->do_.present)
			ynl_out_printf(c, "static int %s_nl_%s_doit(struct sk_buff *skb, struct genl_info "
				       "*info)\n{\n\t(void)skb;\n\treturn rt_echo(info, %u);\n}\n\n",
				       spec->c_name, op->c_name,
				       op->has_rsp_value ? op->rsp_value : op->req_value);
		if (op->dump.present)
			ynl_out_printf(c, "static int %s_nl_%s_dumpit(struct sk_buff *skb, struct "
				       "netlink_callback *cb)\n{\n\t(void)skb;\n\t(void)cb;\n"
				       "\treturn 0;\n}\n\n", spec->c_name, op->c_name);
		for (int half = 0; half < 2; half++) {
			const struct ynl_op_mode *mode = half ? &op->dump : &op->do_;
			const char *hooks[2] = { mode->pre, mode->post };

			for (int h = 0; h < 2; h++) {
				char name[256];
				bool dup = false;
				size_t k;

				if (!hooks[h])
					continue;
				for (int s = 0; s < nr; s++)
					dup |= !strcmp(seen[s], hooks[h]);
				if (dup || nr == 256)
					continue;
				seen[nr++] = hooks[h];
				for (k = 0; hooks[h][k] && k + 1 < sizeof(name); k++)
					name[k] = hooks[h][k] == '-' ? '_' : hooks[h][k];
				name[k] = '\0';
				if (half)
					ynl_out_printf(c, "static int %s(struct netlink_callback *cb)\n{\n"
						       "\t(void)cb;\n\treturn 0;\n}\n\n", name);
				else if (h == 0)
					ynl_out_printf(c, "static int %s(const struct genl_split_ops *ops, "
						       "struct sk_buff *skb, struct genl_info *info)\n{\n"
						       "\t(void)ops;\n\t(void)skb;\n\t(void)info;\n\treturn 0;"
						       "\n}\n\n", name);
				else
					ynl_out_printf(c, "static void %s(const struct genl_split_ops *ops, "
						       "struct sk_buff *skb, struct genl_info *info)\n{\n"
						       "\t(void)ops;\n\t(void)skb;\n\t(void)info;\n}\n\n", name);
			}
		}
	}
}

static void upper(const char *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < size; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') ? (char)(in[i] - 'a' + 'A') : in[i];
	out[i] = '\0';
}

static void emit_family_test(struct ynl_out *c, const struct ynl_spec *spec)
{
	char up[256];

	upper(spec->c_name, up, sizeof(up));
	ynl_out_printf(c, "static void rt_family(struct rnd_state *rnd, int rounds)\n{\n"
		       "\tstruct genl_family fam = %s_NL_FAMILY_INIT;\n"
		       "\tstruct kfsim_nl_kernel *k = kfsim_nl_kernel_create();\n"
		       "\tstruct kfsim_nl_client *cl = NULL;\n\tstruct ynl_sock *ys = NULL;\n"
		       "\tstruct ynl_error err = { 0 };\n\tint ret;\n\n\t(void)rnd;\n\t(void)rounds;\n"
		       "\tif (IS_ERR(k)) {\n\t\tRT_FAIL(\"kernel: %%ld\", PTR_ERR(k));\n\t\treturn;\n\t}\n"
		       "\tif (kfsim_genl_find_family(k, fam.name)) {\n"
		       "\t\t/* nlctrl: the in-process kernel has its own; nothing to register. */\n"
		       "\t\tfprintf(stderr, \"%%s: built into the in-process kernel, not registered "
		       "again\\n\", fam.name);\n\t\tgoto out;\n\t}\n"
		       "\tret = kfsim_genl_register_family(k, &fam);\n\tif (ret) {\n"
		       "\t\tRT_FAIL(\"family registration: %%d\", ret);\n\t\tgoto out;\n\t}\n"
		       "\tcl = kfsim_nl_client_open_sim(k, &KFSIM_NL_CRED_ROOT);\n"
		       "\tif (IS_ERR(cl)) {\n\t\tRT_FAIL(\"client: %%ld\", PTR_ERR(cl));\n\t\tcl = NULL;\n"
		       "\t\tgoto out;\n\t}\n\tys = kfsim_ynl_sock_create(cl, &ynl_%s_family, &err);\n"
		       "\tif (!ys) {\n\t\tRT_FAIL(\"ynl socket: %%s\", err.msg);\n\t\tgoto out;\n\t}\n"
		       "\trt_registered++;\n", up, spec->c_name);
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		const char *f = spec->c_name, *o = op->c_name;

		if (op->is_async || !op->set || !op->do_.present || !op->do_.reply.present)
			continue;
		ynl_out_printf(c, "\tfor (int r = 0; r < rounds; r++) {\n\t\tstruct %s_%s_req *req = "
			       "calloc(1, sizeof(*req));\n\t\tstruct %s_%s_rsp *rsp;\n\n"
			       "\t\tif (!req)\n\t\t\tbreak;\n\t\tfill_%s_%s_req(rnd, req, 0);\n"
			       "\t\trsp = %s_%s(ys, req);\n\t\tif (!rsp)\n\t\t\tRT_FAIL(\"%s through "
			       "the in-process kernel: %%d %%s\", (int)ys->err.code, ys->err.msg);\n"
			       "\t\telse\n\t\t\trt_transported++;\n\t\t%s_%s_rsp_free(rsp);\n"
			       "\t\t%s_%s_req_free(req);\n\t}\n", f, o, f, o, f, o, f, o, op->name, f, o,
			       f, o);
	}
	ynl_out_puts(c, "out:\n\tynl_sock_destroy(ys);\n\tkfsim_nl_client_close(cl);\n"
		     "\tif (fam.id)\n\t\tkfsim_genl_unregister_family(&fam);\n"
		     "\tkfsim_nl_kernel_destroy(k);\n}\n\n");
}

/* -- policy comparison with the running kernel ---------------------------------------------- */

static void emit_policy_compare(struct ynl_out *c, const struct ynl_spec *spec)
{
	char up[256];

	upper(spec->c_name, up, sizeof(up));
	ynl_out_printf(c,
		"/* Compare two dumped policies attribute by attribute, following nests. */\n"
		"static void cmp_policy(FILE *out, const char *where, const struct kfsim_nl_policy_dump *ours,\n"
		"\t\t       int oi, const struct kfsim_nl_policy_dump *theirs, int ti, int depth,\n"
		"\t\t       unsigned int *same, unsigned int *diff, unsigned int *extra)\n{\n"
		"\tu32 max;\n\tchar a[128], b[128];\n\n"
		"\tif ((oi < 0) != (ti < 0)) {\n"
		"\t\tfprintf(out, \"  %%s: %%s\\n\", where, oi < 0 ? \"the spec gives no policy, the kernel \"\n"
		"\t\t\t\"has one\" : \"the spec gives a policy, the kernel has none\");\n"
		"\t\t(*diff)++;\n\t\treturn;\n\t}\n"
		"\tif (oi < 0 || ti < 0 || depth > 4 || (u32)oi >= ours->nr_policies ||\n"
		"\t    (u32)ti >= theirs->nr_policies)\n\t\treturn;\n"
		"\tmax = ours->maxtype[oi] > theirs->maxtype[ti] ? ours->maxtype[oi] : theirs->maxtype[ti];\n"
		"\tfor (u32 t = 1; t <= max; t++) {\n"
		"\t\tconst struct kfsim_nl_policy_attr *x = t <= ours->maxtype[oi] ? &ours->policies[oi][t] : NULL;\n"
		"\t\tconst struct kfsim_nl_policy_attr *y = t <= theirs->maxtype[ti] ? &theirs->policies[ti][t] : NULL;\n"
		"\t\tbool hx = x && x->type, hy = y && y->type;\n\n"
		"\t\tif (!hx && !hy)\n\t\t\tcontinue;\n"
		"\t\tif (hx && !hy) {\n\t\t\tfprintf(out, \"  %%s attr %%u: spec has '%%s', kernel has none\\n\", where, t,\n"
		"\t\t\t\tkfsim_nl_policy_attr_format(x, a, sizeof(a)));\n\t\t\t(*diff)++;\n\t\t\tcontinue;\n\t\t}\n"
		"\t\tif (!hx) {\n\t\t\tfprintf(out, \"  %%s attr %%u: kernel has '%%s', the spec lacks it (newer kernel)\\n\",\n"
		"\t\t\t\twhere, t, kfsim_nl_policy_attr_format(y, b, sizeof(b)));\n\t\t\t(*extra)++;\n\t\t\tcontinue;\n\t\t}\n"
		"\t\tkfsim_nl_policy_attr_format(x, a, sizeof(a));\n\t\tkfsim_nl_policy_attr_format(y, b, sizeof(b));\n"
		"\t\tif (x->has_policy_idx && y->has_policy_idx) {\n"
		"\t\t\tchar sub[160];\n\n\t\t\tsnprintf(sub, sizeof(sub), \"%%s/%%u\", where, t);\n"
		"\t\t\tif (x->type != y->type || x->policy_maxtype != y->policy_maxtype) {\n\t\t\t\tfprintf(out, \"  %%s attr %%u: spec '%%s' vs kernel '%%s'\\n\", where, t, a, b);\n"
		"\t\t\t\t(*diff)++;\n\t\t\t} else {\n\t\t\t\t(*same)++;\n\t\t\t}\n"
		"\t\t\tcmp_policy(out, sub, ours, (int)x->policy_idx, theirs, (int)y->policy_idx, depth + 1,\n"
		"\t\t\t\t   same, diff, extra);\n\t\t\tcontinue;\n\t\t}\n"
		"\t\tif (strcmp(a, b)) {\n\t\t\tfprintf(out, \"  %%s attr %%u: spec '%%s' vs kernel '%%s'\\n\", where, t, a, b);\n"
		"\t\t\t(*diff)++;\n\t\t} else {\n\t\t\t(*same)++;\n\t\t}\n\t}\n}\n\n");
	ynl_out_puts(c, "static const struct {\n\tunsigned int cmd;\n\tconst char *name;\n} rt_ops[] = {\n");
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (!op->is_async && (op->do_.present || op->dump.present))
			ynl_out_printf(c, "\t{ %u, \"%s\" },\n", op->req_value, op->name);
	}
	ynl_out_puts(c, "\t{ 0, NULL },\n};\n\nstatic struct kfsim_nl_family_info rt_family_info;\n\n");
	ynl_out_printf(c,
		"/* Op by op (one CTRL_CMD_GETPOLICY per command keeps each dump small). */\n"
		"static int compare_with_kernel(const char *path)\n{\n"
		"\tFILE *out = fopen(path, \"a\");\n"
		"\tstruct genl_family fam = %s_NL_FAMILY_INIT;\n"
		"\tstruct kfsim_nl_kernel *k = NULL;\n\tstruct kfsim_nl_client *kc, *sc = NULL;\n"
		"\tstruct kfsim_nl_policy_dump *ours = calloc(1, sizeof(*ours)), *theirs = calloc(1, sizeof(*theirs));\n"
		"\tstruct kfsim_nl_error err;\n\tunsigned int same = 0, diff = 0, extra = 0, missing = 0, nops = 0, unlisted = 0;\n\tint ret;\n\n"
		"\tif (!out || !ours || !theirs) {\n\t\tif (out)\n\t\t\tfclose(out);\n\t\tfree(ours);\n\t\tfree(theirs);\n\t\treturn -ENOMEM;\n\t}\n"
		"\tkc = kfsim_nl_client_open_kernel();\n\tif (IS_ERR(kc)) {\n"
		"\t\tfprintf(out, \"%s: skipped: no netlink socket to the running kernel (%%ld)\\n\", PTR_ERR(kc));\n"
		"\t\tgoto out_files;\n\t}\n"
		"\tret = kfsim_nl_resolve(kc, \"%s\", &rt_family_info, &err);\n"
		"\tif (ret == -ENOENT) {\n\t\tfprintf(out, \"%s: not compared: the running kernel has no such family\\n\");\n"
		"\t\tgoto out_kc;\n\t}\n"
		"\tk = kfsim_nl_kernel_create();\n"
		"\tif (IS_ERR(k)) {\n\t\tk = NULL;\n\t\tgoto out_kc;\n\t}\n"
		"\tif (kfsim_genl_find_family(k, fam.name)) {\n"
		"\t\tfprintf(out, \"%%s: not compared: the in-process kernel has its own\\n\", fam.name);\n"
		"\t\tgoto out_sim;\n\t}\n"
		"\tif (kfsim_genl_register_family(k, &fam)) {\n"
		"\t\tfprintf(out, \"%s: FAILED to register the generated family\\n\");\n\t\tgoto out_sim;\n\t}\n"
		"\tsc = kfsim_nl_client_open_sim(k, &KFSIM_NL_CRED_ROOT);\n"
		"\tif (IS_ERR(sc)) {\n\t\tsc = NULL;\n\t\tgoto out_sim;\n\t}\n"
		"\tfor (int i = 0; rt_ops[i].name; i++) {\n\t\tchar where[160];\n\n\t\tnops++;\n"
		"\t\tret = kfsim_nl_get_policy(kc, \"%s\", (int)rt_ops[i].cmd, theirs, &err);\n"
		"\t\tif (ret) {\n\t\t\tfprintf(out, \"  %%s (cmd %%u): not in the running kernel (%%d)\\n\", rt_ops[i].name,\n"
		"\t\t\t\trt_ops[i].cmd, ret);\n\t\t\tmissing++;\n\t\t\tcontinue;\n\t\t}\n"
		"\t\tret = kfsim_nl_get_policy(sc, \"%s\", (int)rt_ops[i].cmd, ours, &err);\n"
		"\t\tif (ret) {\n\t\t\tfprintf(out, \"  %%s (cmd %%u): FAILED to dump the generated policy (%%d)\\n\",\n"
		"\t\t\t\trt_ops[i].name, rt_ops[i].cmd, ret);\n\t\t\tkfsim_nl_policy_dump_free(theirs);\n\t\t\tcontinue;\n\t\t}\n"
		"\t\tfor (u32 j = 0; j < ours->nr_ops && j < theirs->nr_ops; j++) {\n"
		"\t\t\tsnprintf(where, sizeof(where), \"%%s do\", rt_ops[i].name);\n"
		"\t\t\tcmp_policy(out, where, ours, ours->ops[j].do_policy, theirs, theirs->ops[j].do_policy, 0,\n"
		"\t\t\t\t   &same, &diff, &extra);\n"
		"\t\t\tsnprintf(where, sizeof(where), \"%%s dump\", rt_ops[i].name);\n"
		"\t\t\tcmp_policy(out, where, ours, ours->ops[j].dump_policy, theirs, theirs->ops[j].dump_policy, 0,\n"
		"\t\t\t\t   &same, &diff, &extra);\n\t\t}\n"
		"\t\tkfsim_nl_policy_dump_free(ours);\n\t\tkfsim_nl_policy_dump_free(theirs);\n\t}\n"
		"\t/* the whole-family dump: which ops show a do and a dump policy */\n"
		"\tif (!kfsim_nl_get_policy(kc, \"%s\", -1, theirs, &err)) {\n"
		"\t\tif (!kfsim_nl_get_policy(sc, \"%s\", -1, ours, &err)) {\n"
		"\t\t\tfor (u32 j = 0; j < theirs->nr_ops; j++) {\n"
		"\t\t\t\tu32 o;\n\t\t\t\tint r;\n\n"
		"\t\t\t\tfor (r = 0; rt_ops[r].name && rt_ops[r].cmd != theirs->ops[j].cmd; r++)\n"
		"\t\t\t\t\t;\n"
		"\t\t\t\tif (!rt_ops[r].name) {\n\t\t\t\t\tunlisted++;\n\t\t\t\t\tcontinue;\n\t\t\t\t}\n"
		"\t\t\t\tfor (o = 0; o < ours->nr_ops && ours->ops[o].cmd != theirs->ops[j].cmd; o++)\n"
		"\t\t\t\t\t;\n"
		"\t\t\t\tif (o == ours->nr_ops) {\n"
		"\t\t\t\t\tfprintf(out, \"  full dump: op %%u only in the kernel\\n\", theirs->ops[j].cmd);\n"
		"\t\t\t\t\textra++;\n\t\t\t\t} else if ((ours->ops[o].do_policy < 0) != (theirs->ops[j].do_policy < 0) ||\n"
		"\t\t\t\t\t   (ours->ops[o].dump_policy < 0) != (theirs->ops[j].dump_policy < 0)) {\n"
		"\t\t\t\t\tfprintf(out, \"  full dump: op %%u: spec {do %%d, dump %%d} vs kernel {do %%d, dump %%d}\\n\",\n"
		"\t\t\t\t\t\ttheirs->ops[j].cmd, ours->ops[o].do_policy, ours->ops[o].dump_policy,\n"
		"\t\t\t\t\t\ttheirs->ops[j].do_policy, theirs->ops[j].dump_policy);\n"
		"\t\t\t\t\tdiff++;\n\t\t\t\t} else {\n\t\t\t\t\tsame++;\n\t\t\t\t}\n\t\t\t}\n"
		"\t\t\tfor (u32 o = 0; o < ours->nr_ops; o++) {\n\t\t\t\tu32 j;\n\n"
		"\t\t\t\tfor (j = 0; j < theirs->nr_ops && theirs->ops[j].cmd != ours->ops[o].cmd; j++)\n"
		"\t\t\t\t\t;\n"
		"\t\t\t\tif (j == theirs->nr_ops) {\n"
		"\t\t\t\t\tfprintf(out, \"  full dump: op %%u only in the spec\\n\", ours->ops[o].cmd);\n"
		"\t\t\t\t\tdiff++;\n\t\t\t\t}\n\t\t\t}\n"
		"\t\t\tkfsim_nl_policy_dump_free(ours);\n\t\t}\n\t\tkfsim_nl_policy_dump_free(theirs);\n\t}\n"
		"\tfprintf(out, \"%s: %%u ops compared (%%u not in the running kernel): %%u attribute policies match, \"\n"
		"\t\t\"%%u differ, %%u only in the kernel; %%u kernel ops the spec does not list\\n\",\n"
		"\t\tnops - missing, missing, same, diff, extra, unlisted);\n"
		"out_sim:\n\tkfsim_nl_client_close(sc);\n"
		"\tif (fam.id)\n\t\tkfsim_genl_unregister_family(&fam);\n\tkfsim_nl_kernel_destroy(k);\n"
		"out_kc:\n\tkfsim_nl_client_close(kc);\n"
		"out_files:\n\tfclose(out);\n\tfree(ours);\n\tfree(theirs);\n\treturn 0;\n}\n\n",
		up, spec->name, spec->name, spec->name, spec->name, spec->name, spec->name, spec->name,
		spec->name, spec->name);
}

/* -- the program ---------------------------------------------------------------------------- */

static void collect_msgs(const struct ynl_spec *spec, struct msg_ref *refs, int *nr, int cap)
{
	static const char *const suffix[] = { "req", "rsp", "req_dump", "rsp_dump", "rsp" };

	for (int i = 0; i < spec->nr_ops && *nr < cap; i++) {
		const struct ynl_op *op = &spec->ops[i];
		const struct ynl_msg *msgs[5] = {
			ynl_user_op_msg(op, 0), ynl_user_op_msg(op, 1), ynl_user_op_msg(op, 2),
			ynl_user_op_msg(op, 3), ynl_user_op_msg(op, 4),
		};

		if (!op->set)
			continue;
		for (int k = 0; k < 5 && *nr < cap; k++) {
			struct msg_ref *m = &refs[*nr];
			const struct ynl_msg *pmsg = NULL;

			if (!msgs[k])
				continue;
			memset(m, 0, sizeof(*m));
			snprintf(m->name, sizeof(m->name), "%s_%s_%s", spec->c_name, op->c_name,
				 suffix[k]);
			m->attrs = msgs[k]->attrs;
			m->nr = msgs[k]->nr_attrs;
			/* Requests validate against the op policy the kernel emitter printed. */
			if ((k == 0 || k == 2) && msgs[k]->nr_attrs &&
			    !strcmp(spec->kernel_policy, "split")) {
				pmsg = ynl_op_policy(spec, op, k == 2, m->policy, sizeof(m->policy));
			} else if ((k == 0 || k == 2) && !strcmp(spec->kernel_policy, "per-op")) {
				const struct ynl_msg *src = op->do_.request.nr_attrs ? &op->do_.request :
							    &op->dump.request;

				if (src == msgs[k] && src->nr_attrs) {
					pmsg = src;
					snprintf(m->policy, sizeof(m->policy), "%s_%s_nl_policy",
						 spec->c_name, op->c_name);
				}
			}
			if (pmsg) {
				m->maxattr = ynl_attrs_max(pmsg->attrs, pmsg->nr_attrs);
				m->request = true;
			}
			(*nr)++;
		}
	}
}

void ynl_emit_test(const struct ynl_spec *spec, struct ynl_out *c)
{
	int cap = 4 * spec->nr_ops + 8, nr = 0;
	struct msg_ref *refs = calloc((size_t)cap, sizeof(*refs));
	bool genl = ynl_is_genl(spec);

	if (!refs) {
		c->oom = true;
		return;
	}
	ynl_emit_banner(c, spec, "test source");
	ynl_out_printf(c, "#define KFSIM_YNL_LOCAL 1\n#include <errno.h>\n#include <stdio.h>\n"
		       "#include <stdlib.h>\n#include <string.h>\n#include <kfsim/err.h>\n#include <kfsim/nl_client.h>\n"
		       "#include <kfsim/random.h>\n#include \"%s-kernel.c\"\n#include \"%s-user.c\"\n\n",
		       spec->ident, spec->ident);
	ynl_out_printf(c, "static unsigned long rt_done, rt_validated, rt_rejected, rt_failed;\n"
		       "static unsigned long __attribute__((unused)) rt_transported, rt_registered;\n\n#define RT_FAIL(...) do { fprintf(stderr, "
		       "\"%s: \" __VA_ARGS__); fputc('\\n', stderr); rt_failed++; } while (0)\n\n",
		       spec->name);
	/*
	 * As the kernel parses: generic netlink strictly; the netlink-raw families (rtnetlink,
	 * nfnetlink) with the *_deprecated parsers, which take the { .len = N } (NLA_UNSPEC)
	 * entries of their policies (ctnetlink's CTA_IP_V6_SRC; strict validation refuses
	 * every NLA_UNSPEC attribute: 6.13's conntrack.yaml failed its round trips).
	 */
	ynl_out_printf(c, "#define RT_VALIDATE nla_validate%s\n#define RT_VALIDATE_NESTED "
		       "nla_validate_nested%s\n\n", genl ? "" : "_deprecated",
		       genl ? "" : "_deprecated");
	ynl_out_puts(c,
		"static __attribute__((unused)) u64 rt_range_u(struct rnd_state *rnd, u64 lo, u64 hi)\n{\n"
		"\tu64 span = hi - lo;\n\n\tif (span == ~0ULL)\n\t\treturn kfsim_prandom_u64(rnd);\n"
		"\t/* Bias towards the edges, where range checks go wrong. */\n"
		"\tswitch (kfsim_prandom_below(rnd, 4)) {\n\tcase 0: return lo;\n\tcase 1: return hi;\n"
		"\tdefault: return lo + kfsim_prandom_u64(rnd) % (span + 1);\n\t}\n}\n\n"
		"static __attribute__((unused)) s64 rt_range_s(struct rnd_state *rnd, s64 lo, s64 hi)\n{\n"
		"\treturn (s64)((u64)lo + rt_range_u(rnd, 0, (u64)hi - (u64)lo));\n}\n\n"
		"static __attribute__((unused)) void *rt_string(struct rnd_state *rnd, long long max, u32 *len)\n{\n"
		"\tu32 n = kfsim_prandom_below(rnd, (u32)(max < 12 ? max : 12) + 1);\n"
		"\tchar *s = malloc(n + 1);\n\n\tif (!s) {\n\t\t*len = 0;\n\t\treturn NULL;\n\t}\n"
		"\tfor (u32 i = 0; i < n; i++)\n\t\ts[i] = (char)('a' + kfsim_prandom_below(rnd, 26));\n"
		"\ts[n] = '\\0';\n\t*len = n;\n\treturn s;\n}\n\n"
		"static __attribute__((unused)) void *rt_bytes(struct rnd_state *rnd, long long min, long long max, u32 *len)\n{\n"
		"\tu32 n = (u32)min + kfsim_prandom_below(rnd, (u32)((max < min + 16 ? max : min + 16) - min) + 1);\n"
		"\tu8 *b = malloc(n + 1);\n\n\tif (!b) {\n\t\t*len = 0;\n\t\treturn NULL;\n\t}\n"
		"\tprandom_bytes_state(rnd, b, n);\n\tb[n] = 0;\n\t*len = n;\n\treturn b;\n}\n\n");
	if (genl)
		emit_handlers(c, spec);
	/* fill functions: prototypes first (sets may nest each other) */
	for (int s = 0; s < spec->nr_sets; s++)
		if (ynl_set_is_nested(spec, &spec->sets[s]))
			ynl_out_printf(c, "static void fill_%s(struct rnd_state *rnd, struct %s *obj, "
				       "int depth);\n", spec->sets[s].render_name,
				       ynl_user_set_tag(spec, &spec->sets[s]));
	collect_msgs(spec, refs, &nr, cap);
	for (int i = 0; i < nr; i++)
		ynl_out_printf(c, "static void fill_%s(struct rnd_state *rnd, struct %s *obj, int depth);\n",
			       refs[i].name, refs[i].name);
	ynl_out_puts(c, "\n");
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];
		struct ynl_attr **attrs;

		if (!ynl_set_is_nested(spec, set))
			continue;	/* the user code has no struct for it */
		attrs = calloc((size_t)set->nr_attrs + 1, sizeof(*attrs));
		if (!attrs) {
			c->oom = true;
			free(refs);
			return;
		}
		for (int i = 0; i < set->nr_attrs; i++)
			attrs[i] = ynl_set_attr(set, i);
		emit_fill_fn(c, set->render_name, ynl_user_set_tag(spec, set), attrs, set->nr_attrs);
		free(attrs);
	}
	for (int i = 0; i < nr; i++) {
		emit_fill_fn(c, refs[i].name, refs[i].name, refs[i].attrs, refs[i].nr);
		emit_roundtrip(c, &refs[i]);
		if (refs[i].request)
			emit_rejects(c, &refs[i]);
	}
	/* Sets on their own: put as a nest, validate against their nested policy, parse. */
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];
		const char *r = set->render_name;
		bool nested = ynl_set_has_policy(spec, set);

		if (!ynl_set_is_nested(spec, set))
			continue;
		ynl_out_printf(c, "static void rt_set_%s(struct rnd_state *rnd)\n{\n\tstruct %s a = { 0 }, "
			       "b = { 0 };\n\tstruct ynl_error err = { 0 };\n\tstruct kfsim_ynl_msg "
			       "msg;\n\n\tkfsim_ynl_msg_init(&msg, 0);\n\tfill_%s(rnd, &a, 0);\n"
			       "\tif (%s_put(&msg, 1, &a) || !msg.buf) {\n\t\tRT_FAIL(\"set %s: put "
			       "failed\");\n\t\tgoto out;\n\t}\n", r, ynl_user_set_tag(spec, set), r, r,
			       set->name);
		if (nested)
			ynl_out_printf(c, "\t{\n\t\tstruct netlink_ext_ack extack = { 0 };\n\t\tint ret = "
				       "RT_VALIDATE_NESTED((const struct nlattr *)msg.buf, %u, %s_nl_policy, "
				       "&extack);\n\n\t\tif (ret) {\n\t\t\tRT_FAIL(\"set %s: the kernel policy "
				       "refused an in-policy nest: %%d '%%s'\", ret, extack._msg ? extack._msg "
				       ": \"\");\n\t\t\tgoto out;\n\t\t}\n\t\trt_validated++;\n\t}\n",
				       ynl_set_policy_max(set), r, set->name);
		ynl_out_printf(c, "\tif (%s_parse(&b, (const struct nlattr *)msg.buf, &err))\n"
			       "\t\tRT_FAIL(\"set %s: parse: %%s\", err.msg);\n\telse if (!%s_equal(&a, &b))\n"
			       "\t\tRT_FAIL(\"set %s: parse(put(x)) != x\");\n\telse\n\t\trt_done++;\nout:\n"
			       "\tkfsim_ynl_msg_release(&msg);\n\t%s_free(&a);\n\t%s_free(&b);\n}\n\n", r,
			       set->name, r, set->name, r, r);
	}
	if (genl) {
		emit_family_test(c, spec);
		emit_policy_compare(c, spec);
	}
	ynl_out_puts(c, "int main(int argc, char **argv)\n{\n\tint iterations = 50;\n\tu64 seed = 1;\n"
		     "\tconst char *report = NULL;\n\tstruct rnd_state rnd;\n\n"
		     "\tfor (int i = 1; i < argc; i++) {\n"
		     "\t\tif (!strcmp(argv[i], \"--seed\") && i + 1 < argc)\n\t\t\tseed = strtoull(argv[++i], NULL, 0);\n"
		     "\t\telse if (!strcmp(argv[i], \"--kernel-policy\") && i + 1 < argc)\n\t\t\treport = argv[++i];\n"
		     "\t\telse\n\t\t\titerations = atoi(argv[i]);\n\t}\n"
		     "\tprandom_seed_state(&rnd, seed);\n\tfor (int it = 0; it < iterations; it++) {\n");
	for (int s = 0; s < spec->nr_sets; s++)
		if (ynl_set_is_nested(spec, &spec->sets[s]))
			ynl_out_printf(c, "\t\trt_set_%s(&rnd);\n", spec->sets[s].render_name);
	for (int i = 0; i < nr; i++)
		ynl_out_printf(c, "\t\trt_%s(&rnd);\n", refs[i].name);
	ynl_out_puts(c, "\t}\n");
	for (int i = 0; i < nr; i++)
		if (refs[i].request)
			ynl_out_printf(c, "\trej_%s();\n", refs[i].name);
	if (genl) {
		ynl_out_puts(c, "\trt_family(&rnd, iterations < 5 ? iterations : 5);\n");
		ynl_out_puts(c, "\tif (report)\n\t\tcompare_with_kernel(report);\n");
	} else {
		ynl_out_printf(c, "\tif (report) {\n\t\tFILE *out = fopen(report, \"a\");\n\n"
			       "\t\tif (out) {\n\t\t\tfprintf(out, \"%s: not compared: netlink-raw (protocol "
			       "%lld) has no policy dump\\n\");\n\t\t\tfclose(out);\n\t\t}\n\t}\n",
			       spec->name, (long long)spec->protonum);
	}
	ynl_out_printf(c, "\tprintf(\"%s: %%lu round trips (%%lu kernel-validated), %%lu rejections, "
		       "%%lu transported, family %%s, %%lu failures\\n\", rt_done, rt_validated, "
		       "rt_rejected, rt_transported, %s, rt_failed);\n\treturn rt_failed ? 1 : 0;\n}\n",
		       spec->name, genl ? "rt_registered ? \"registered\" : \"NOT registered\"" :
		       "\"(netlink-raw: none)\"");
	free(refs);
}
