// SPDX-License-Identifier: MIT
/*
 * Kernel-side emitter: what ynl-gen-c.py --mode kernel renders, for kfsim's in-process kernel
 * (<kfsim/netlink.h>, the kernel's own names):
 *   - one policy per attribute set, F_<set>_nl_policy[max + 1] (what NLA_POLICY_NESTED points
 *     to), and per-op request policies sized to the highest attribute the op uses
 *     (kernel-policy split: F_<op>_nl_policy, or _do_/_dump_ when both halves have a request
 *     and the two differ; equal do and dump requests share one F_<op>_nl_policy table;
 *     per-op: one per op; global: F_nl_policy for every op);
 *   - checks become NLA_POLICY_MIN/MAX/RANGE (s16 bounds) or NLA_POLICY_FULL_RANGE with a
 *     struct netlink_range_validation; enums become NLA_POLICY_MAX/RANGE over their values;
 *     flags and flags-mask NLA_POLICY_MASK; strings NLA_NUL_STRING (NLA_STRING when
 *     unterminated-ok) with .len = max-len; binary exact/min/max-len the _LEN policies;
 *     big-endian u16/u32 stay NLA_U16/NLA_U32 as in 6.12's generator;
 *   - for genetlink families: handler prototypes F_nl_<op>_doit/_dumpit, a genl_split_ops table
 *     sorted by command (do before dump), multicast groups, and struct genl_family F_nl_family
 *     (also as the initializer F_NL_FAMILY_INIT, so a test can register its own copy).
 * Attribute, command and group ids are printed as numbers with the uapi name in a comment, so
 * the output never depends on (or clashes with) a uapi header.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ynl_emit.h"
#include "ynl_emit_common.h"

/*
 * The policy type.  byte-order does not change it: 6.12's ynl-gen-c.py prints NLA_U16/NLA_U32
 * for big-endian attributes too (fou's port is { .type = NLA_U16 } in net/ipv4/fou_nl.c), so
 * a check on such an attribute compares the value as read in host order, as in the kernel.
 */
static const char *nla_type(const struct ynl_attr *attr)
{
	switch (attr->type) {
	case YNL_T_U8: return "NLA_U8";
	case YNL_T_U16: return "NLA_U16";
	case YNL_T_U32: return "NLA_U32";
	case YNL_T_U64: return "NLA_U64";
	case YNL_T_S8: return "NLA_S8";
	case YNL_T_S16: return "NLA_S16";
	case YNL_T_S32: return "NLA_S32";
	case YNL_T_S64: return "NLA_S64";
	case YNL_T_UINT: return "NLA_UINT";
	case YNL_T_SINT: return "NLA_SINT";
	case YNL_T_FLAG: return "NLA_FLAG";
	case YNL_T_STRING:
		/* ynl-gen-c.py gives a multi-attr string the plain NLA_STRING */
		return attr->checks.unterminated_ok || (attr->multi_attr && attr->gen_c_rules) ?
			       "NLA_STRING" : "NLA_NUL_STRING";
	case YNL_T_BINARY: return "NLA_BINARY";
	case YNL_T_SUB_MESSAGE: return "NLA_BINARY";
	case YNL_T_NEST: return "NLA_NESTED";
	case YNL_T_INDEXED_ARRAY: return "NLA_NESTED_ARRAY";
	case YNL_T_NEST_TYPE_VALUE: return "NLA_NESTED";
	case YNL_T_BITFIELD32: return "NLA_BITFIELD32";
	default: return NULL;
	}
}

static const char *policy_name_of_set(const struct ynl_attr_set *set, char *buf, size_t size)
{
	snprintf(buf, size, "%s_nl_policy", set->render_name);
	return buf;
}

static bool *request_sets(const struct ynl_spec *spec);
static bool attr_in_request(const struct ynl_spec *spec, const struct ynl_attr *attr,
			    const bool *mark);

/* Whether an integer check fits the s16 min/max of struct nla_policy. */
static bool fits_s16(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

static bool needs_full_range(const struct ynl_attr *attr)
{
	const struct ynl_checks *c = &attr->checks;

	if (!ynl_type_is_scalar(attr->type) || !attr->has_checks)
		return false;
	return (c->has_min && !fits_s16(c->min)) ||
	       (c->has_max && (c->max_is_unsigned || !fits_s16(c->max)));
}

/* The kernel generator's name: the attribute's enumerator in lower case, then _range. */
static void range_name(const struct ynl_attr *attr, char *buf, size_t size)
{
	size_t i;

	for (i = 0; attr->enum_name[i] && i + 8 < size; i++)
		buf[i] = (attr->enum_name[i] >= 'A' && attr->enum_name[i] <= 'Z') ?
			 (char)(attr->enum_name[i] - 'A' + 'a') : attr->enum_name[i];
	snprintf(buf + i, size - i, "_range");
}

/* Range structs, named as net/core/netdev-genl-gen.c names them (netdev_a_page_pool_id_range). */
static void emit_ranges(struct ynl_out *out, const struct ynl_spec *spec)
{
	bool *mark = request_sets(spec);

	if (!mark) {
		out->oom = true;
		return;
	}
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];

		if (set->subset_of)
			continue;
		for (int i = 0; i < set->nr_attrs; i++) {
			const struct ynl_attr *attr = &set->attrs[i];
			const struct ynl_checks *c = &attr->checks;
			bool is_signed = ynl_type_is_signed(attr->type);
			char name[256], lo_s[32], hi_s[32];

			/* reply-only: the kernel prints none (it would be an unused static) */
			if (!needs_full_range(attr) || !attr_in_request(spec, attr, mark))
				continue;
			range_name(attr, name, sizeof(name));
			if (is_signed)
				ynl_out_printf(out, "static const struct netlink_range_validation_signed "
					       "%s = {\n\t.min = %s,\n\t.max = %s,\n};\n\n", name,
					       ynl_c_s64(c->has_min ? c->min : INT64_MIN, lo_s),
					       ynl_c_s64(c->has_max ? c->max : INT64_MAX, hi_s));
			else
				ynl_out_printf(out, "static const struct netlink_range_validation %s = "
					       "{\n\t.min = %" PRIu64 "ULL,\n\t.max = %" PRIu64
					       "ULL,\n};\n\n", name, c->has_min ? (uint64_t)c->min : 0,
					       c->has_max ? c->max_u : UINT64_MAX);
		}
	}
	free(mark);
}

/* Smallest and largest value of an enum; false when the values are not contiguous. */
static bool enum_range(const struct ynl_def *def, int64_t *lo, int64_t *hi)
{
	if (!def->nr_entries)
		return false;
	*lo = *hi = def->entries[0].value;
	for (int i = 1; i < def->nr_entries; i++) {
		if (def->entries[i].value < *lo)
			*lo = def->entries[i].value;
		if (def->entries[i].value > *hi)
			*hi = def->entries[i].value;
	}
	return *hi - *lo + 1 == def->nr_entries;
}

static void emit_policy_entry(struct ynl_out *out, const struct ynl_attr *attr)
{
	const struct ynl_checks *c = &attr->checks;
	const char *type = nla_type(attr);
	char name[256];
	int64_t lo, hi;

	if (!type)
		return;
	ynl_out_printf(out, "\t[%u] = ", attr->value);
	if (ynl_type_is_scalar(attr->type)) {
		const struct ynl_def *mask_def = ynl_attr_mask_def(attr);

		if (mask_def) {
			ynl_out_printf(out, "NLA_POLICY_MASK(%s, 0x%" PRIx64 "),", type,
				       ynl_attr_mask(attr, mask_def));
		} else if (needs_full_range(attr)) {
			range_name(attr, name, sizeof(name));
			ynl_out_printf(out, "NLA_POLICY_FULL_RANGE%s(%s, &%s),",
				       ynl_type_is_signed(attr->type) ? "_SIGNED" : "", type, name);
		} else if (attr->has_checks && c->has_min && c->has_max) {
			ynl_out_printf(out, "NLA_POLICY_RANGE(%s, %" PRId64 ", %" PRId64 "),", type,
				       c->min, c->max);
		} else if (attr->has_checks && c->has_min) {
			ynl_out_printf(out, "NLA_POLICY_MIN(%s, %" PRId64 "),", type, c->min);
		} else if (attr->has_checks && c->has_max) {
			ynl_out_printf(out, "NLA_POLICY_MAX(%s, %" PRId64 "),", type, c->max);
		} else if (attr->enum_def && enum_range(attr->enum_def, &lo, &hi) &&
			   fits_s16(lo) && fits_s16(hi)) {
			if (lo == 0)
				ynl_out_printf(out, "NLA_POLICY_MAX(%s, %" PRId64 "),", type, hi);
			else
				ynl_out_printf(out, "NLA_POLICY_RANGE(%s, %" PRId64 ", %" PRId64 "),",
					       type, lo, hi);
		} else {
			ynl_out_printf(out, "{ .type = %s, },", type);
		}
	} else if (attr->type == YNL_T_STRING) {
		if (c->has_exact_len)
			ynl_out_printf(out, "NLA_POLICY_EXACT_LEN(%" PRId64 "),", c->exact_len);
		else if (c->has_max_len)
			ynl_out_printf(out, "{ .type = %s, .len = %" PRId64 ", },", type, c->max_len);
		else
			ynl_out_printf(out, "{ .type = %s, },", type);
	} else if (attr->type == YNL_T_BINARY) {
		if (c->has_exact_len)
			ynl_out_printf(out, "NLA_POLICY_EXACT_LEN(%" PRId64 "),", c->exact_len);
		else if (c->has_min_len && c->has_max_len)
			ynl_out_printf(out, "NLA_POLICY_RANGE(NLA_BINARY, %" PRId64 ", %" PRId64 "),",
				       c->min_len, c->max_len);
		/*
		 * min-len alone: 6.12's generator prints { .len = N } (NLA_UNSPEC with a
		 * minimum length), which strict validation refuses as "Unsupported attribute".
		 */
		else if (ynl_attr_policy_unspec(attr))
			ynl_out_printf(out, "{ .len = %" PRId64 ", },", c->min_len);
		else if (c->has_max_len)
			ynl_out_printf(out, "NLA_POLICY_MAX_LEN(%" PRId64 "),", c->max_len);
		else
			ynl_out_printf(out, "{ .type = NLA_BINARY, },");
	} else if (attr->type == YNL_T_NEST && attr->nested) {
		ynl_out_printf(out, "NLA_POLICY_NESTED(%s),",
			       policy_name_of_set(attr->nested, name, sizeof(name)));
	} else if (attr->type == YNL_T_INDEXED_ARRAY && attr->sub_type == YNL_T_NEST &&
		   attr->nested) {
		ynl_out_printf(out, "NLA_POLICY_NESTED_ARRAY(%s),",
			       policy_name_of_set(attr->nested, name, sizeof(name)));
	} else if (attr->type == YNL_T_INDEXED_ARRAY) {
		ynl_out_printf(out, "{ .type = NLA_NESTED, },");
	} else if (attr->type == YNL_T_BITFIELD32) {
		uint64_t mask = 0xffffffffu;

		if (attr->enum_def) {
			mask = 0;
			for (int i = 0; i < attr->enum_def->nr_entries; i++)
				mask |= attr->enum_def->type == YNL_DEF_FLAGS ?
					(uint64_t)attr->enum_def->entries[i].value :
					1ULL << attr->enum_def->entries[i].value;
		}
		ynl_out_printf(out, "NLA_POLICY_BITFIELD32(0x%" PRIx64 "),", mask);
	} else {
		ynl_out_printf(out, "{ .type = %s, },", type);
	}
	ynl_out_printf(out, " /* %s */\n", attr->enum_name ? attr->enum_name : attr->name);
}

static void emit_policy(struct ynl_out *out, const char *name, struct ynl_attr *const *attrs,
			int nr, unsigned int max)
{
	ynl_out_printf(out, "KFSIM_YNL_DEF const struct nla_policy %s[%u] = {\n", name, max + 1);
	for (unsigned int v = 0; v <= max; v++)
		for (int i = 0; i < nr; i++)
			if (attrs[i]->value == v)
				emit_policy_entry(out, attrs[i]);
	ynl_out_puts(out, "};\n\n");
}

/* Mark @set and every set its attributes nest, as reached by a request. */
static void mark_request_set(const struct ynl_spec *spec, const struct ynl_attr_set *set,
			     bool *mark)
{
	int idx = (int)(set - spec->sets);

	if (idx < 0 || idx >= spec->nr_sets || mark[idx])
		return;
	mark[idx] = true;
	for (int i = 0; i < set->nr_attrs; i++) {
		const struct ynl_attr *a = ynl_set_attr(set, i);

		if (a->nested)
			mark_request_set(spec, a->nested, mark);
	}
}

/* The sets requests reach (nlspec's pure_nested_structs[...].request); calloc()ed or NULL. */
static bool *request_sets(const struct ynl_spec *spec)
{
	bool *mark = calloc((size_t)spec->nr_sets + 1, sizeof(*mark));

	for (int i = 0; mark && i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		const struct ynl_msg *msgs[2] = { &op->do_.request, &op->dump.request };

		if (op->is_async)
			continue;
		for (int m = 0; m < 2; m++)
			for (int a = 0; a < msgs[m]->nr_attrs; a++)
				if (msgs[m]->attrs[a]->nested)
					mark_request_set(spec, msgs[m]->attrs[a]->nested, mark);
	}
	return mark;
}

bool ynl_set_has_policy(const struct ynl_spec *spec, const struct ynl_attr_set *set)
{
	bool *mark = request_sets(spec);
	bool ret = mark && mark[set - spec->sets];

	free(mark);
	return ret;
}

unsigned int ynl_set_policy_max(const struct ynl_attr_set *set)
{
	unsigned int max = 0;

	for (int i = 0; i < set->nr_attrs; i++)
		if (ynl_set_attr(set, i)->value > max)
			max = ynl_set_attr(set, i)->value;
	return max;
}

/*
 * Whether @attr is ever sent to the kernel (ynl-gen-c.py's attr.request): listed in a request
 * or declared by a set a request reaches.  Only those get range structs.
 */
static bool attr_in_request(const struct ynl_spec *spec, const struct ynl_attr *attr,
			    const bool *mark)
{
	for (int s = 0; s < spec->nr_sets; s++)
		for (int i = 0; mark[s] && i < spec->sets[s].nr_attrs; i++)
			if (ynl_set_attr(&spec->sets[s], i) == attr)
				return true;
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		const struct ynl_msg *msgs[2] = { &op->do_.request, &op->dump.request };

		for (int m = 0; !op->is_async && m < 2; m++)
			for (int a = 0; a < msgs[m]->nr_attrs; a++)
				if (msgs[m]->attrs[a] == attr)
					return true;
	}
	return false;
}

static struct ynl_attr **set_attrs(const struct ynl_attr_set *set)
{
	struct ynl_attr **list = calloc((size_t)set->nr_attrs + 1, sizeof(*list));

	for (int i = 0; list && i < set->nr_attrs; i++)
		list[i] = ynl_set_attr(set, i);
	return list;
}

/*
 * The global policy is named after the ops' attribute set, as ynl-gen-c.py names it
 * (F_<set>_nl_policy; team's set is the family's name, so team_nl_policy there).
 */
static void global_policy_name(const struct ynl_spec *spec, char *buf, size_t size)
{
	for (int i = 0; i < spec->nr_ops; i++)
		if (spec->ops[i].set) {
			snprintf(buf, size, "%s_nl_policy", spec->ops[i].set->render_name);
			return;
		}
	snprintf(buf, size, "%s_nl_policy", spec->c_name);
}

/*
 * Whether the do and dump requests of a split op make one and the same policy.  Both halves
 * resolve their attributes to the op's one attribute set, so the same attribute pointers mean
 * the same types, checks and maxattr.  nlctrl (like netlink_policy_dump_add_policy()) tells
 * policies apart by table pointer and maxtype, so two equal tables would show as two policies
 * where the kernel's hand-written families (ethtool, openvswitch) share one.
 */
bool ynl_op_shares_policy(const struct ynl_op *op)
{
	return op->do_.request.present && op->dump.request.present &&
	       op->do_.request.nr_attrs &&
	       ynl_msg_same_attrs(&op->do_.request, &op->dump.request);
}

/*
 * The request message whose attributes make the policy of an op half, and the policy's name;
 * NULL when that half validates nothing.  split: each half its own (_do_/_dump_ names when both
 * halves have a request that differ; one F_<op>_nl_policy, the name ynl-gen-c.py gives a
 * single op policy, when they are equal); per-op: the do request (else the dump's) for both
 * halves; global: one policy of every request attribute.
 */
const struct ynl_msg *ynl_op_policy(const struct ynl_spec *spec, const struct ynl_op *op,
				    bool dump, char *buf, size_t size)
{
	const struct ynl_op_mode *mode = dump ? &op->dump : &op->do_;
	bool dual = op->do_.request.present && op->dump.request.present &&
		    !ynl_op_shares_policy(op);
	const struct ynl_msg *msg;

	if (!strcmp(spec->kernel_policy, "global")) {
		global_policy_name(spec, buf, size);
		return &mode->request;
	}
	if (!strcmp(spec->kernel_policy, "per-op")) {
		msg = op->do_.request.nr_attrs ? &op->do_.request : &op->dump.request;
		if (!msg->nr_attrs)
			return NULL;
		snprintf(buf, size, "%s_%s_nl_policy", spec->c_name, op->c_name);
		return msg;
	}
	if (!mode->request.nr_attrs)
		return NULL;
	if (dual)
		snprintf(buf, size, "%s_%s_%s_nl_policy", spec->c_name, op->c_name,
			 dump ? "dump" : "do");
	else
		snprintf(buf, size, "%s_%s_nl_policy", spec->c_name, op->c_name);
	/* A shared table is the do request's: both halves point at the same bytes. */
	return ynl_op_shares_policy(op) ? &op->do_.request : &mode->request;
}

static unsigned int global_maxattr(const struct ynl_spec *spec)
{
	unsigned int max = 0;

	for (int i = 0; i < spec->nr_ops; i++) {
		unsigned int a = ynl_attrs_max(spec->ops[i].do_.request.attrs,
					       spec->ops[i].do_.request.nr_attrs);
		unsigned int b = ynl_attrs_max(spec->ops[i].dump.request.attrs,
					       spec->ops[i].dump.request.nr_attrs);

		max = a > max ? a : max;
		max = b > max ? b : max;
	}
	return max;
}

/* Every op policy, once. */
static void for_each_op_policy(const struct ynl_spec *spec, struct ynl_out *out, bool decl)
{
	char name[256], other[256];

	if (!strcmp(spec->kernel_policy, "global")) {
		struct ynl_attr **all = calloc(4096, sizeof(*all));
		int nr = 0;

		if (!all) {
			out->oom = true;
			return;
		}
		for (int i = 0; i < spec->nr_ops; i++) {
			const struct ynl_msg *msgs[2] = { &spec->ops[i].do_.request,
							  &spec->ops[i].dump.request };

			for (int m = 0; m < 2; m++)
				for (int a = 0; a < msgs[m]->nr_attrs && nr < 4096; a++) {
					bool seen = false;

					for (int k = 0; k < nr; k++)
						seen |= all[k] == msgs[m]->attrs[a];
					if (!seen)
						all[nr++] = msgs[m]->attrs[a];
				}
		}
		global_policy_name(spec, name, sizeof(name));
		if (decl)
			ynl_out_printf(out, "KFSIM_YNL_DECL const struct nla_policy %s[%u];\n", name,
				       global_maxattr(spec) + 1);
		else
			emit_policy(out, name, all, nr, global_maxattr(spec));
		free(all);
		return;
	}
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (op->is_async)
			continue;
		for (int half = 0; half < 2; half++) {
			const struct ynl_msg *msg = ynl_op_policy(spec, op, half, name, sizeof(name));
			unsigned int max;

			if (!msg)
				continue;
			/* Both halves may share one policy: print it once. */
			if (half && ynl_op_policy(spec, op, false, other, sizeof(other)) &&
			    !strcmp(other, name))
				continue;
			max = ynl_attrs_max(msg->attrs, msg->nr_attrs);
			if (decl)
				ynl_out_printf(out, "KFSIM_YNL_DECL const struct nla_policy %s[%u];\n",
					       name, max + 1);
			else
				emit_policy(out, name, msg->attrs, msg->nr_attrs, max);
		}
	}
}

static void lower_copy(const char *text, char *buf, size_t size)
{
	size_t i;

	for (i = 0; text[i] && i + 1 < size; i++)
		buf[i] = text[i] == '-' ? '_' : text[i];
	buf[i] = '\0';
}

static bool op_has_kernel_half(const struct ynl_op *op, bool dump)
{
	return !op->is_async && (dump ? op->dump.present : op->do_.present);
}

static int cmp_ops(const void *a, const void *b)
{
	const struct ynl_op *x = *(const struct ynl_op *const *)a;
	const struct ynl_op *y = *(const struct ynl_op *const *)b;

	return (x->req_value > y->req_value) - (x->req_value < y->req_value);
}

static void emit_hooks_decl(struct ynl_out *out, const struct ynl_spec *spec)
{
	/* Each distinct pre/post hook once, in first-use order. */
	const char *seen[256];
	int nr = 0;

	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op_mode *modes[2] = { &spec->ops[i].do_, &spec->ops[i].dump };

		for (int m = 0; m < 2; m++) {
			const char *hooks[2] = { modes[m]->pre, modes[m]->post };

			for (int h = 0; h < 2; h++) {
				char name[256];
				bool dup = false;

				if (!hooks[h])
					continue;
				for (int k = 0; k < nr; k++)
					dup |= !strcmp(seen[k], hooks[h]);
				if (dup || nr == 256)
					continue;
				seen[nr++] = hooks[h];
				lower_copy(hooks[h], name, sizeof(name));
				if (m == 1 && h == 0)
					ynl_out_printf(out, "KFSIM_YNL_DECL int %s(struct netlink_callback "
						       "*cb);\n", name);
				else if (m == 1)
					ynl_out_printf(out, "KFSIM_YNL_DECL int %s(struct netlink_callback "
						       "*cb);\n", name);
				else if (h == 0)
					ynl_out_printf(out, "KFSIM_YNL_DECL int %s(const struct "
						       "genl_split_ops *ops, struct sk_buff *skb, "
						       "struct genl_info *info);\n", name);
				else
					ynl_out_printf(out, "KFSIM_YNL_DECL void %s(const struct "
						       "genl_split_ops *ops, struct sk_buff *skb, "
						       "struct genl_info *info);\n", name);
			}
		}
	}
}

/*
 * resv_start_op of the families whose struct genl_family is hand-written in the kernel: the
 * 6.12 specs do not say it, so this table does, from the kernel's sources (the command after
 * the last one registered before Linux 6.1 started checking new commands strictly).  @op is
 * the spec's name of that last command; @value is used when the spec does not list it.
 */
static const struct {
	const char *family, *op;
	unsigned int value;
} legacy_resv_start_op[] = {
	{ "ethtool", "module-get", 35 },	/* net/ethtool/netlink.c: ETHTOOL_MSG_MODULE_GET + 1 */
	{ "devlink", "selftests-run", 84 },	/* net/devlink/netlink.c */
	{ "ovs_datapath", NULL, 5 },		/* net/openvswitch/datapath.c: OVS_DP_CMD_SET + 1 */
	{ "ovs_vport", NULL, 5 },		/* OVS_VPORT_CMD_SET + 1 */
	{ "ovs_flow", "set", 5 },		/* OVS_FLOW_CMD_SET + 1 */
	{ "tcp_metrics", "del", 3 },		/* net/ipv4/tcp_metrics.c: TCP_METRICS_CMD_DEL + 1 */
	{ "fou", "get", 4 },			/* net/ipv4/fou_core.c: FOU_CMD_GET + 1 */
	{ "team", "port-list-get", 4 },		/* drivers/net/team/team_core.c */
	{ "mptcp_pm", "subflow-destroy", 12 },	/* net/mptcp/pm_kernel.c */
	{ "nlctrl", "getpolicy", 11 },		/* net/netlink/genetlink.c: CTRL_CMD_GETPOLICY + 1 */
};

static unsigned int resv_start_op(const struct ynl_spec *spec)
{
	unsigned int resv = 0;

	for (size_t t = 0; t < sizeof(legacy_resv_start_op) / sizeof(legacy_resv_start_op[0]); t++) {
		if (strcmp(spec->name, legacy_resv_start_op[t].family))
			continue;
		for (int i = 0; legacy_resv_start_op[t].op && i < spec->nr_ops; i++)
			if (!strcmp(spec->ops[i].name, legacy_resv_start_op[t].op))
				return spec->ops[i].req_value + 1;
		return legacy_resv_start_op[t].value;
	}
	/* a family the kernel generates entirely: every command is new (0), unless the spec asks
	 * for laxer validation of some, which the kernel allows only below resv_start_op */

	for (int i = 0; i < spec->nr_ops; i++)
		if (spec->ops[i].dont_validate && spec->ops[i].req_value + 1 > resv)
			resv = spec->ops[i].req_value + 1;
	return resv;
}

/* Which ops struct the family's table is made of (ynl-gen-c.py's pol_to_struct). */
static const char *ops_struct(const struct ynl_spec *spec)
{
	if (!strcmp(spec->kernel_policy, "global"))
		return "genl_small_ops";
	if (!strcmp(spec->kernel_policy, "per-op"))
		return "genl_ops";
	return "genl_split_ops";
}

static bool legacy_ops(const struct ynl_spec *spec)
{
	return strcmp(ops_struct(spec), "genl_split_ops") != 0;
}

/*
 * global and per-op families: one legacy entry per command, in spec order, its validate
 * flags all together; the global policy lives in the family (genl_op_from_small() lends it to
 * each op, genl_cmd_full_to_split() takes it off dumps that do not validate), a per-op policy
 * (the do request's) in the op.
 */
static void emit_legacy_ops_table(struct ynl_out *out, const struct ynl_spec *spec)
{
	bool per_op = !strcmp(spec->kernel_policy, "per-op");
	char name[256];

	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		char dv[128] = "";

		if (!op_has_kernel_half(op, false) && !op_has_kernel_half(op, true))
			continue;
		ynl_out_printf(out, "\t{\n\t\t.cmd\t\t= %u, /* %s */\n", op->req_value,
			       op->enum_name);
		if (op->dont_validate & YNL_DV_STRICT)
			strcat(dv, "GENL_DONT_VALIDATE_STRICT");
		if (op->dont_validate & YNL_DV_DUMP)
			strcat(dv, *dv ? " | GENL_DONT_VALIDATE_DUMP" : "GENL_DONT_VALIDATE_DUMP");
		if (op->dont_validate & YNL_DV_DUMP_STRICT)
			strcat(dv, *dv ? " | GENL_DONT_VALIDATE_DUMP_STRICT" :
				   "GENL_DONT_VALIDATE_DUMP_STRICT");
		if (*dv)
			ynl_out_printf(out, "\t\t.validate\t= %s,\n", dv);
		if (op_has_kernel_half(op, false))
			ynl_out_printf(out, "\t\t.doit\t\t= %s_nl_%s_doit,\n", spec->c_name,
				       op->c_name);
		if (op_has_kernel_half(op, true))
			ynl_out_printf(out, "\t\t.dumpit\t\t= %s_nl_%s_dumpit,\n", spec->c_name,
				       op->c_name);
		if (per_op) {
			const struct ynl_msg *msg = ynl_op_policy(spec, op, false, name,
								  sizeof(name));

			if (msg)
				ynl_out_printf(out, "\t\t.policy\t\t= %s,\n\t\t.maxattr\t= %u,\n", name,
					       ynl_attrs_max(msg->attrs, msg->nr_attrs));
		}
		if (op->flags)
			ynl_out_printf(out, "\t\t.flags\t\t= %s%s%s,\n",
				       op->flags & YNL_OP_ADMIN_PERM ? "GENL_ADMIN_PERM" : "",
				       (op->flags & YNL_OP_ADMIN_PERM) &&
				       (op->flags & YNL_OP_UNS_ADMIN_PERM) ? " | " : "",
				       op->flags & YNL_OP_UNS_ADMIN_PERM ? "GENL_UNS_ADMIN_PERM" : "");
		ynl_out_puts(out, "\t},\n");
	}
}

static void emit_ops_table(struct ynl_out *out, const struct ynl_spec *spec)
{
	const struct ynl_op **sorted = calloc((size_t)spec->nr_ops + 1, sizeof(*sorted));
	int nr = 0;
	char name[256];

	if (!sorted) {
		out->oom = true;
		return;
	}
	for (int i = 0; i < spec->nr_ops; i++)
		if (op_has_kernel_half(&spec->ops[i], false) ||
		    op_has_kernel_half(&spec->ops[i], true))
			sorted[nr++] = &spec->ops[i];
	qsort(sorted, (size_t)nr, sizeof(*sorted), cmp_ops);
	ynl_out_printf(out, "/* Ops table for %s */\nKFSIM_YNL_DEF const struct %s "
		       "%s_nl_ops[%d] = {\n", spec->name, ops_struct(spec), spec->c_name, 0);
	if (legacy_ops(spec)) {
		nr = 0;
		emit_legacy_ops_table(out, spec);
	}
	for (int i = 0; i < nr; i++) {
		const struct ynl_op *op = sorted[i];

		for (int half = 0; half < 2; half++) {
			const struct ynl_op_mode *mode = half ? &op->dump : &op->do_;
			unsigned int flags = 0;
			char dv[128] = "";

			if (!op_has_kernel_half(op, half))
				continue;
			ynl_out_printf(out, "\t{\n\t\t.cmd\t\t= %u, /* %s */\n", op->req_value,
				       op->enum_name);
			if (mode->pre) {
				lower_copy(mode->pre, name, sizeof(name));
				ynl_out_printf(out, "\t\t.%s\t= %s,\n", half ? "start" : "pre_doit",
					       name);
			}
			ynl_out_printf(out, "\t\t.%s\t\t= %s_nl_%s_%s,\n", half ? "dumpit" : "doit",
				       spec->c_name, op->c_name, half ? "dumpit" : "doit");
			if (mode->post) {
				lower_copy(mode->post, name, sizeof(name));
				ynl_out_printf(out, "\t\t.%s\t= %s,\n", half ? "done" : "post_doit",
					       name);
			}
			{
				const struct ynl_msg *msg = ynl_op_policy(spec, op, half, name,
								      sizeof(name));

				if (msg)
					ynl_out_printf(out, "\t\t.policy\t\t= %s,\n\t\t.maxattr\t= %u,\n",
						       name, !strcmp(spec->kernel_policy, "global") ?
						       global_maxattr(spec) :
						       ynl_attrs_max(msg->attrs, msg->nr_attrs));
			}
			if (op->dont_validate & YNL_DV_STRICT && !half)
				strcat(dv, "GENL_DONT_VALIDATE_STRICT");
			if (op->dont_validate & YNL_DV_DUMP && half)
				strcat(dv, "GENL_DONT_VALIDATE_DUMP");
			if (op->dont_validate & YNL_DV_DUMP_STRICT && half)
				strcat(dv, *dv ? " | GENL_DONT_VALIDATE_DUMP_STRICT" :
					   "GENL_DONT_VALIDATE_DUMP_STRICT");
			if (*dv)
				ynl_out_printf(out, "\t\t.validate\t= %s,\n", dv);
			flags = op->flags;
			ynl_out_printf(out, "\t\t.flags\t\t= %s%s%s,\n",
				       half ? "GENL_CMD_CAP_DUMP" : "GENL_CMD_CAP_DO",
				       flags & YNL_OP_ADMIN_PERM ? " | GENL_ADMIN_PERM" : "",
				       flags & YNL_OP_UNS_ADMIN_PERM ? " | GENL_UNS_ADMIN_PERM" : "");
			ynl_out_puts(out, "\t},\n");
		}
	}
	ynl_out_puts(out, "};\n\n");
	free(sorted);
}

/* Count the split ops (the table's size must be exact in the header). */
static int count_split_ops(const struct ynl_spec *spec)
{
	int n = 0;

	for (int i = 0; i < spec->nr_ops; i++) {
		int halves = op_has_kernel_half(&spec->ops[i], false) +
			     op_has_kernel_half(&spec->ops[i], true);

		n += legacy_ops(spec) ? !!halves : halves;
	}
	return n;
}

static const char *upper_name(const struct ynl_spec *spec, char *buf, size_t size)
{
	size_t i;

	for (i = 0; spec->c_name[i] && i + 1 < size; i++)
		buf[i] = (spec->c_name[i] >= 'a' && spec->c_name[i] <= 'z') ?
			 (char)(spec->c_name[i] - 'a' + 'A') : spec->c_name[i];
	buf[i] = '\0';
	return buf;
}

static void emit_header(const struct ynl_spec *spec, struct ynl_out *hdr)
{
	char name[256], guard[256], up[256];
	const struct ynl_def *fixed = ynl_family_hdr(spec);

	snprintf(guard, sizeof(guard), "KFSIM_YNL_%s_KERNEL_H", spec->c_name);
	for (char *c = guard; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 'a' + 'A');
	ynl_emit_banner(hdr, spec, "kernel header");
	ynl_out_printf(hdr, "#ifndef %s\n#define %s\n\n#include <kfsim/netlink.h>\n\n", guard,
		       guard);
	ynl_emit_scope_macros(hdr);
	/*
	 * Only the struct this header uses: the family's fixed header (.hdrsize).  Any other
	 * struct of the spec is the uapi header's (the kernel's code takes it from there); a
	 * copy here collided with it where both are included, e.g. nl80211.yaml's
	 * sta-flag-update, which is struct nl80211_sta_flag_update of <linux/nl80211.h>.
	 */
	if (ynl_family_hdr(spec))
		ynl_emit_struct_def(hdr, ynl_family_hdr(spec), ynl_family_hdr(spec)->render_name);
	ynl_out_puts(hdr, "/* Common nested types */\n");
	for (int s = 0; s < spec->nr_sets; s++)
		if (ynl_set_has_policy(spec, &spec->sets[s]))
			ynl_out_printf(hdr, "KFSIM_YNL_DECL const struct nla_policy %s[%u];\n",
			       policy_name_of_set(&spec->sets[s], name, sizeof(name)),
			       ynl_set_policy_max(&spec->sets[s]) + 1);
	ynl_out_puts(hdr, "\n/* Request policies of the operations */\n");
	for_each_op_policy(spec, hdr, true);
	ynl_out_puts(hdr, "\n");
	if (!ynl_is_genl(spec)) {
		ynl_out_printf(hdr, "/* %s is netlink-raw (protocol %lld): policies only, no genl "
			       "family. */\n\n#endif /* %s */\n", spec->name,
			       (long long)spec->protonum, guard);
		return;
	}
	emit_hooks_decl(hdr, spec);
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (op_has_kernel_half(op, false))
			ynl_out_printf(hdr, "KFSIM_YNL_DECL int %s_nl_%s_doit(struct sk_buff *skb, "
				       "struct genl_info *info);\n", spec->c_name, op->c_name);
		if (op_has_kernel_half(op, true))
			ynl_out_printf(hdr, "KFSIM_YNL_DECL int %s_nl_%s_dumpit(struct sk_buff *skb, "
				       "struct netlink_callback *cb);\n", spec->c_name, op->c_name);
	}
	ynl_out_printf(hdr, "\nKFSIM_YNL_DECL const struct %s %s_nl_ops[%d];\n",
		       ops_struct(spec), spec->c_name, count_split_ops(spec));
	if (spec->nr_mcgrps) {
		ynl_out_puts(hdr, "\nenum {\n");
		for (int g = 0; g < spec->nr_mcgrps; g++) {
			char grp[256];

			snprintf(grp, sizeof(grp), "%s_NLGRP_%s", spec->c_name, spec->mcgrps[g].name);
			for (char *c = grp; *c; c++)
				*c = *c == '-' ? '_' : (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : *c;
			ynl_out_printf(hdr, "\t%s,\n", grp);
		}
		ynl_out_puts(hdr, "};\n");
		ynl_out_printf(hdr, "\nKFSIM_YNL_DECL const struct genl_multicast_group "
			       "%s_nl_mcgrps[%d];\n", spec->c_name, spec->nr_mcgrps);
	}
	ynl_out_printf(hdr, "\n/* The family, as an initializer too (one copy per in-process kernel). */\n"
		       "#define %s_NL_FAMILY_INIT { \\\n\t.name = \"%s\", \\\n\t.version = %lld, \\\n"
		       "\t.netnsok = true, \\\n\t.parallel_ops = true, \\\n\t.hdrsize = %s%s%s, \\\n"
		       "\t.resv_start_op = %u, \\\n\t.%s = %s_nl_ops, \\\n"
		       "\t.n_%s = %d, \\\n", upper_name(spec, up, sizeof(up)), spec->name,
		       (long long)spec->version, fixed ? "sizeof(" : "0", fixed ? fixed->c_type : "",
		       fixed ? ")" : "", resv_start_op(spec),
		       !strcmp(spec->kernel_policy, "global") ? "small_ops" :
		       !strcmp(spec->kernel_policy, "per-op") ? "ops" : "split_ops", spec->c_name,
		       !strcmp(spec->kernel_policy, "global") ? "small_ops" :
		       !strcmp(spec->kernel_policy, "per-op") ? "ops" : "split_ops",
		       count_split_ops(spec));
	if (!strcmp(spec->kernel_policy, "global")) {
		char pname[256];

		global_policy_name(spec, pname, sizeof(pname));
		ynl_out_printf(hdr, "\t.policy = %s, \\\n\t.maxattr = %u, \\\n", pname,
			       global_maxattr(spec));
	}
	if (spec->nr_mcgrps)
		ynl_out_printf(hdr, "\t.mcgrps = %s_nl_mcgrps, \\\n\t.n_mcgrps = %d, \\\n",
			       spec->c_name, spec->nr_mcgrps);
	ynl_out_puts(hdr, "}\n\n");
	ynl_out_printf(hdr, "KFSIM_YNL_DECL struct genl_family %s_nl_family;\n\n#endif /* %s */\n",
		       spec->c_name, guard);
}

void ynl_emit_kernel(const struct ynl_spec *spec, struct ynl_out *hdr, struct ynl_out *src)
{
	char name[256];

	emit_header(spec, hdr);

	ynl_emit_banner(src, spec, "kernel source");
	ynl_out_printf(src, "#include \"%s-kernel.h\"\n\n", spec->ident);
	emit_ranges(src, spec);
	ynl_out_puts(src, "/* Common nested types */\n");
	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];
		struct ynl_attr **attrs;

		if (!ynl_set_has_policy(spec, set))
			continue;
		attrs = set_attrs(set);
		if (!attrs) {
			src->oom = true;
			return;
		}
		emit_policy(src, policy_name_of_set(set, name, sizeof(name)), attrs, set->nr_attrs,
			    ynl_set_policy_max(set));
		free(attrs);
	}
	ynl_out_puts(src, "/* Request policies of the operations */\n");
	for_each_op_policy(spec, src, false);
	if (!ynl_is_genl(spec))
		return;
	{
		/* Print the table with its exact size: emit into a scratch buffer first. */
		struct ynl_out table;

		ynl_out_init(&table);
		emit_ops_table(&table, spec);
		if (table.buf) {
			char needle[64], *at;

			snprintf(needle, sizeof(needle), "_nl_ops[%d]", 0);
			at = strstr(table.buf, needle);
			if (at) {
				*at = '\0';
				ynl_out_puts(src, table.buf);
				ynl_out_printf(src, "_nl_ops[%d]", count_split_ops(spec));
				ynl_out_puts(src, at + strlen(needle));
			}
		}
		src->oom |= table.oom;
		ynl_out_release(&table);
	}
	if (spec->nr_mcgrps) {
		ynl_out_printf(src, "KFSIM_YNL_DEF const struct genl_multicast_group "
			       "%s_nl_mcgrps[%d] = {\n", spec->c_name, spec->nr_mcgrps);
		for (int g = 0; g < spec->nr_mcgrps; g++)
			ynl_out_printf(src, "\t[%d] = { \"%s\", },\n", g, spec->mcgrps[g].name);
		ynl_out_puts(src, "};\n\n");
	}
	ynl_out_printf(src, "KFSIM_YNL_DEF struct genl_family %s_nl_family = %s_NL_FAMILY_INIT;\n",
		       spec->c_name, upper_name(spec, name, sizeof(name)));
}
