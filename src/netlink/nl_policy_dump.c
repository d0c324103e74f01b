// SPDX-License-Identifier: MIT
/*
 * CTRL_CMD_GETPOLICY from the client side: one dump decoded into struct kfsim_nl_policy_dump,
 * and a one-line rendering of an attribute's policy that is the same whichever transport
 * answered, so that the in-process and the running kernel can be compared with diff.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>
#include "nl_transport.h"

#define MAX_POLICIES KFSIM_NL_POLICY_DUMP_MAX
#define MAX_ATTRS 4096

struct walk {
	struct kfsim_nl_policy_dump *dump;
	int err;
	u32 cur; /* the policy index or op being decoded */
	struct kfsim_nl_policy_attr *attr;
};

static void for_each(const u8 *p, const u8 *end,
		     void (*fn)(const struct nlattr *a, const u8 *data, size_t len, struct walk *w),
		     struct walk *w)
{
	while (end - p >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
			return;
		fn(a, p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN, w);
		p += NLA_ALIGN(a->nla_len);
	}
}

static u64 get_uint(const u8 *d, size_t len)
{
	u64 v = 0;
	u32 v32 = 0;

	if (len >= 8) {
		memcpy(&v, d, 8);
		return v;
	}
	if (len >= 4) {
		memcpy(&v32, d, 4);
	} else if (len >= 2) {
		u16 v16;

		memcpy(&v16, d, 2);
		v32 = v16;
	} else if (len == 1) {
		v32 = d[0];
	}
	return v32;
}

static void prop(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	struct kfsim_nl_policy_attr *p = w->attr;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case NL_POLICY_TYPE_ATTR_TYPE:
		p->type = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
		p->has_min_s = true;
		p->min_s = (s64)get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
		p->has_max_s = true;
		p->max_s = (s64)get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		p->has_min_u = true;
		p->min_u = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		p->has_max_u = true;
		p->max_u = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MIN_LENGTH:
		p->has_min_len = true;
		p->min_len = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
		p->has_max_len = true;
		p->max_len = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_POLICY_IDX:
		p->has_policy_idx = true;
		p->policy_idx = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE:
		p->policy_maxtype = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_BITFIELD32_MASK:
		p->has_bitfield32_mask = true;
		p->bitfield32_mask = get_uint(d, len);
		break;
	case NL_POLICY_TYPE_ATTR_MASK:
		p->has_mask = true;
		p->mask = get_uint(d, len);
		break;
	}
}

/* Make room for attribute @type of policy @idx. */
static struct kfsim_nl_policy_attr *slot(struct walk *w, u32 idx, u32 type)
{
	struct kfsim_nl_policy_dump *dump = w->dump;
	struct kfsim_nl_policy_attr *arr;

	if (idx >= MAX_POLICIES || type >= MAX_ATTRS) {
		w->err = -E2BIG;
		return NULL;
	}
	if (idx >= dump->nr_policies) {
		for (u32 i = dump->nr_policies; i <= idx; i++) {
			dump->policies[i] = NULL;
			dump->maxtype[i] = 0;
		}
		dump->nr_policies = idx + 1;
	}
	if (!dump->policies[idx] || type > dump->maxtype[idx]) {
		u32 old = dump->policies[idx] ? dump->maxtype[idx] + 1 : 0;

		arr = krealloc(dump->policies[idx], (type + 1) * sizeof(*arr), GFP_KERNEL);
		if (!arr) {
			w->err = -ENOMEM;
			return NULL;
		}
		memset(arr + old, 0, (type + 1 - old) * sizeof(*arr));
		dump->policies[idx] = arr;
		dump->maxtype[idx] = type;
	}
	return &dump->policies[idx][type];
}

static void attr_nest(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	w->attr = slot(w, w->cur, a->nla_type & NLA_TYPE_MASK);
	if (w->attr)
		for_each(d, d + len, prop, w);
}

static void policy_nest(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	w->cur = a->nla_type & NLA_TYPE_MASK;
	slot(w, w->cur, 0);
	for_each(d, d + len, attr_nest, w);
}

static void op_prop(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	struct kfsim_nl_policy_dump *dump = w->dump;

	if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_POLICY_DO)
		dump->ops[dump->nr_ops].do_policy = get_uint(d, len);
	else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_POLICY_DUMP)
		dump->ops[dump->nr_ops].dump_policy = get_uint(d, len);
}

static void op_nest(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	struct kfsim_nl_policy_dump *dump = w->dump;

	if (dump->nr_ops >= sizeof(dump->ops) / sizeof(dump->ops[0])) {
		w->err = -E2BIG;
		return;
	}
	dump->ops[dump->nr_ops].cmd = a->nla_type & NLA_TYPE_MASK;
	dump->ops[dump->nr_ops].do_policy = -1;
	dump->ops[dump->nr_ops].dump_policy = -1;
	for_each(d, d + len, op_prop, w);
	dump->nr_ops++;
}

static void top(const struct nlattr *a, const u8 *d, size_t len, struct walk *w)
{
	switch (a->nla_type & NLA_TYPE_MASK) {
	case CTRL_ATTR_FAMILY_ID:
		w->dump->family_id = get_uint(d, len);
		break;
	case CTRL_ATTR_OP_POLICY:
		for_each(d, d + len, op_nest, w);
		break;
	case CTRL_ATTR_POLICY:
		for_each(d, d + len, policy_nest, w);
		break;
	}
}

static int policy_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct walk *w = arg;
	const u8 *p = (const u8 *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EPROTO;
	for_each(p, (const u8 *)nlh + nlh->nlmsg_len, top, w);
	return w->err;
}

int kfsim_nl_get_policy(struct kfsim_nl_client *c, const char *family, int op,
			struct kfsim_nl_policy_dump *dump, struct kfsim_nl_error *err)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
		u8 attrs[64];
	} r;
	struct walk w = {.dump = dump};
	size_t namelen;
	u8 *p;
	int ret;

	if (!c || !family || !dump || (namelen = strlen(family) + 1) > GENL_NAMSIZ)
		return -EINVAL;
	memset(dump, 0, sizeof(*dump));
	memset(&r, 0, sizeof(r));
	r.nlh.nlmsg_type = GENL_ID_CTRL;
	r.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r.genl.cmd = CTRL_CMD_GETPOLICY;
	r.genl.version = 1;
	p = r.attrs;
	*(struct nlattr *)p =
		(struct nlattr){.nla_len = NLA_HDRLEN + namelen, .nla_type = CTRL_ATTR_FAMILY_NAME};
	memcpy(p + NLA_HDRLEN, family, namelen);
	p += NLA_ALIGN(NLA_HDRLEN + namelen);
	if (op >= 0) {
		u32 v = op;

		*(struct nlattr *)p =
			(struct nlattr){.nla_len = NLA_HDRLEN + 4, .nla_type = CTRL_ATTR_OP};
		memcpy(p + NLA_HDRLEN, &v, 4);
		p += NLA_HDRLEN + 4;
	}
	r.nlh.nlmsg_len = p - (u8 *)&r;
	ret = kfsim_nl_request(c, &r.nlh, policy_cb, &w, err);
	if (ret)
		kfsim_nl_policy_dump_free(dump);
	return ret;
}

void kfsim_nl_policy_dump_free(struct kfsim_nl_policy_dump *dump)
{
	if (!dump)
		return;
	for (u32 i = 0; i < dump->nr_policies; i++)
		kfree(dump->policies[i]);
	dump->nr_policies = 0;
}

static const char *const type_names[] = {
	[NL_ATTR_TYPE_INVALID] = "invalid",
	[NL_ATTR_TYPE_FLAG] = "flag",
	[NL_ATTR_TYPE_U8] = "u8",
	[NL_ATTR_TYPE_U16] = "u16",
	[NL_ATTR_TYPE_U32] = "u32",
	[NL_ATTR_TYPE_U64] = "u64",
	[NL_ATTR_TYPE_S8] = "s8",
	[NL_ATTR_TYPE_S16] = "s16",
	[NL_ATTR_TYPE_S32] = "s32",
	[NL_ATTR_TYPE_S64] = "s64",
	[NL_ATTR_TYPE_BINARY] = "binary",
	[NL_ATTR_TYPE_STRING] = "string",
	[NL_ATTR_TYPE_NUL_STRING] = "nul-string",
	[NL_ATTR_TYPE_NESTED] = "nested",
	[NL_ATTR_TYPE_NESTED_ARRAY] = "nested-array",
	[NL_ATTR_TYPE_BITFIELD32] = "bitfield32",
	[KFSIM_NL_ATTR_TYPE_SINT] = "sint",
	[KFSIM_NL_ATTR_TYPE_UINT] = "uint",
};

const char *kfsim_nl_policy_attr_format(const struct kfsim_nl_policy_attr *a, char *buf, size_t len)
{
	size_t n;

	if (!len)
		return buf;
	if (a->type < sizeof(type_names) / sizeof(type_names[0]) && type_names[a->type])
		n = snprintf(buf, len, "%s", type_names[a->type]);
	else
		n = snprintf(buf, len, "type-%u", a->type);
#define APPEND(...)                                                                                \
	do {                                                                                       \
		if (n < len)                                                                       \
			n += snprintf(buf + n, len - n, __VA_ARGS__);                              \
	} while (0)
	if (a->has_min_u || a->has_max_u)
		APPEND(" range %" PRIu64 "..%" PRIu64, a->min_u, a->max_u);
	if (a->has_min_s || a->has_max_s)
		APPEND(" range %" PRId64 "..%" PRId64, a->min_s, a->max_s);
	if (a->has_min_len)
		APPEND(" min-len %u", a->min_len);
	if (a->has_max_len)
		APPEND(" max-len %u", a->max_len);
	if (a->has_mask)
		APPEND(" mask 0x%" PRIx64, a->mask);
	if (a->has_bitfield32_mask)
		APPEND(" bitfield32-mask 0x%x", a->bitfield32_mask);
	if (a->has_policy_idx)
		APPEND(" policy %u maxtype %u", a->policy_idx, a->policy_maxtype);
#undef APPEND
	return buf;
}
