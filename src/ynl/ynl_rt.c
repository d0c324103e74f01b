// SPDX-License-Identifier: MIT
/*
 * Runtime of generated user-side YNL code (see <kfsim/ynl.h>).
 *
 * Invariants: a struct kfsim_ynl_msg never holds a partial attribute (a put that does not fit
 * leaves the buffer as it was and sets overflow); a nest's length is patched only by its end;
 * notifications are queued in arrival order and each is freed exactly once (dequeue hands it
 * over, destroy frees the rest).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include <kfsim/err.h>
#include <kfsim/ynl.h>

#define KFSIM_YNL_ALIGN(len) (((len) + 3u) & ~3u)

/* ---- building ------------------------------------------------------------------------ */

void kfsim_ynl_msg_init(struct kfsim_ynl_msg *msg, u32 limit)
{
	memset(msg, 0, sizeof(*msg));
	msg->limit = limit ? limit : KFSIM_YNL_MSG_LIMIT;
}

void kfsim_ynl_msg_release(struct kfsim_ynl_msg *msg)
{
	free(msg->buf);
	msg->buf = NULL;
	msg->len = msg->cap = 0;
}

static u8 *msg_reserve(struct kfsim_ynl_msg *msg, u32 bytes)
{
	u8 *buf;
	u32 want;

	if (msg->overflow || bytes > msg->limit || msg->len > msg->limit - bytes) {
		msg->overflow = true;
		return NULL;
	}
	if (msg->len + bytes > msg->cap) {
		want = msg->cap ? msg->cap : 256;
		while (want < msg->len + bytes)
			want *= 2;
		buf = realloc(msg->buf, want);
		if (!buf) {
			msg->overflow = true;
			return NULL;
		}
		msg->buf = buf;
		msg->cap = want;
	}
	buf = msg->buf + msg->len;
	msg->len += bytes;
	return buf;
}

void kfsim_ynl_attr_put(struct kfsim_ynl_msg *msg, u16 type, const void *data, u32 len)
{
	struct nlattr hdr;
	u32 total = KFSIM_YNL_ALIGN(NLA_HDRLEN + len);
	u8 *dst;

	if (len > 0xffff - NLA_HDRLEN) {
		msg->overflow = true;
		return;
	}
	dst = msg_reserve(msg, total);
	if (!dst)
		return;
	hdr.nla_len = (u16)(NLA_HDRLEN + len);
	hdr.nla_type = type;
	memcpy(dst, &hdr, sizeof(hdr));
	if (len)
		memcpy(dst + NLA_HDRLEN, data, len);
	memset(dst + NLA_HDRLEN + len, 0, total - NLA_HDRLEN - len);
}

u32 kfsim_ynl_nest_start(struct kfsim_ynl_msg *msg, u16 type)
{
	u32 cookie = msg->len;

	kfsim_ynl_attr_put(msg, type | NLA_F_NESTED, NULL, 0);
	return cookie;
}

void kfsim_ynl_nest_end(struct kfsim_ynl_msg *msg, u32 cookie)
{
	struct nlattr hdr;
	u32 len;

	if (msg->overflow)
		return;
	len = msg->len - cookie;
	if (len > 0xffff) {
		msg->overflow = true;
		return;
	}
	memcpy(&hdr, msg->buf + cookie, sizeof(hdr));
	hdr.nla_len = (u16)len;
	memcpy(msg->buf + cookie, &hdr, sizeof(hdr));
}

void kfsim_ynl_attr_put_uint(struct kfsim_ynl_msg *msg, u16 type, u64 value)
{
	u32 v32 = (u32)value;

	if (value == v32)
		kfsim_ynl_attr_put(msg, type, &v32, 4);
	else
		kfsim_ynl_attr_put(msg, type, &value, 8);
}

void kfsim_ynl_attr_put_sint(struct kfsim_ynl_msg *msg, u16 type, s64 value)
{
	s32 v32 = (s32)value;

	if (value == v32)
		kfsim_ynl_attr_put(msg, type, &v32, 4);
	else
		kfsim_ynl_attr_put(msg, type, &value, 8);
}

void kfsim_ynl_attr_put_str(struct kfsim_ynl_msg *msg, u16 type, const char *str, u32 len)
{
	struct nlattr hdr;
	u32 total = KFSIM_YNL_ALIGN(NLA_HDRLEN + len + 1);
	u8 *dst;

	if (len + 1 > 0xffff - NLA_HDRLEN) {
		msg->overflow = true;
		return;
	}
	dst = msg_reserve(msg, total);
	if (!dst)
		return;
	hdr.nla_len = (u16)(NLA_HDRLEN + len + 1);
	hdr.nla_type = type;
	memcpy(dst, &hdr, sizeof(hdr));
	memcpy(dst + NLA_HDRLEN, str, len);
	memset(dst + NLA_HDRLEN + len, 0, total - NLA_HDRLEN - len);
}

/* ---- parsing ----------------------------------------------------------------------------- */

const struct nlattr *kfsim_ynl_attr_next(const void *head, u32 len, const struct nlattr *attr)
{
	const u8 *start = head, *end = start + len, *pos;
	struct nlattr hdr;

	if (!attr)
		pos = start;
	else
		pos = (const u8 *)attr + KFSIM_YNL_ALIGN(attr->nla_len);
	if (pos >= end || (size_t)(end - pos) < NLA_HDRLEN)
		return NULL;
	memcpy(&hdr, pos, sizeof(hdr));
	if (hdr.nla_len < NLA_HDRLEN || hdr.nla_len > (size_t)(end - pos))
		return NULL;
	return (const struct nlattr *)pos;
}

int kfsim_ynl_err_set(struct kfsim_ynl_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int kfsim_ynl_attr_validate(const struct kfsim_ynl_policy_nest *policy, const struct nlattr *attr,
			    struct kfsim_ynl_error *err)
{
	u16 type = kfsim_ynl_attr_type(attr);
	u32 len = kfsim_ynl_attr_data_len(attr);
	const struct kfsim_ynl_policy_attr *pa;
	const char *data = kfsim_ynl_attr_data(attr);
	u32 want = 0;

	if (type > policy->max_attr || !policy->table[type].type)
		return kfsim_ynl_err_set(err, -EINVAL, "Unknown attribute type %u", type);
	pa = &policy->table[type];
	switch (pa->type) {
	case KFSIM_YNL_PT_REJECT:
		return kfsim_ynl_err_set(err, -EINVAL, "Rejected attribute (%s)", pa->name);
	case KFSIM_YNL_PT_IGNORE:
	case KFSIM_YNL_PT_FLAG:
		return 0;
	case KFSIM_YNL_PT_U8: want = 1; break;
	case KFSIM_YNL_PT_U16: want = 2; break;
	case KFSIM_YNL_PT_U32: want = 4; break;
	case KFSIM_YNL_PT_U64: want = 8; break;
	case KFSIM_YNL_PT_BITFIELD32: want = 8; break;
	case KFSIM_YNL_PT_UINT:
		if (len != 4 && len != 8)
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) length %u, "
						 "expected 4 or 8", pa->name, len);
		return 0;
	case KFSIM_YNL_PT_NUL_STR:
		if (!len || data[len - 1])
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) string not "
						 "NUL-terminated", pa->name);
		if (pa->len && len - 1 > pa->len)
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) string "
						 "length %u, max %u", pa->name, len - 1, pa->len);
		return 0;
	case KFSIM_YNL_PT_STR:
		if (pa->len && len > pa->len + 1u)
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) string "
						 "length %u, max %u", pa->name, len, pa->len);
		return 0;
	case KFSIM_YNL_PT_BINARY:
		if (pa->len && len != pa->len)
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) length %u, "
						 "expected %u", pa->name, len, pa->len);
		return 0;
	case KFSIM_YNL_PT_NEST:
		if (len && len < NLA_HDRLEN)
			return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) nest length "
						 "%u", pa->name, len);
		return 0;
	default:
		return kfsim_ynl_err_set(err, -EINVAL, "Unknown policy type %u", pa->type);
	}
	if (len != want)
		return kfsim_ynl_err_set(err, -EINVAL, "Invalid attribute (%s) length %u, "
					 "expected %u", pa->name, len, want);
	return 0;
}

u64 kfsim_ynl_attr_get_uint(const struct nlattr *attr)
{
	const void *data = kfsim_ynl_attr_data(attr);
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64 = 0;

	switch (kfsim_ynl_attr_data_len(attr)) {
	case 1: memcpy(&v8, data, 1); return v8;
	case 2: memcpy(&v16, data, 2); return v16;
	case 4: memcpy(&v32, data, 4); return v32;
	case 8: memcpy(&v64, data, 8); return v64;
	default: return 0;
	}
}

s64 kfsim_ynl_attr_get_sint(const struct nlattr *attr)
{
	const void *data = kfsim_ynl_attr_data(attr);
	s8 v8;
	s16 v16;
	s32 v32;
	s64 v64 = 0;

	switch (kfsim_ynl_attr_data_len(attr)) {
	case 1: memcpy(&v8, data, 1); return v8;
	case 2: memcpy(&v16, data, 2); return v16;
	case 4: memcpy(&v32, data, 4); return v32;
	case 8: memcpy(&v64, data, 8); return v64;
	default: return 0;
	}
}

void *kfsim_ynl_array_append(void **array, unsigned int *nr, size_t size)
{
	u8 *grown;

	if (*nr >= 0xffffff)
		return NULL;
	grown = realloc(*array, (*nr + 1) * size);
	if (!grown)
		return NULL;
	*array = grown;
	memset(grown + *nr * size, 0, size);
	return grown + (*nr)++ * size;
}

void *kfsim_ynl_attr_dup(const struct nlattr *attr, u32 *len)
{
	u32 n = kfsim_ynl_attr_data_len(attr);
	char *copy = malloc(n + 1);

	if (!copy)
		return NULL;
	memcpy(copy, kfsim_ynl_attr_data(attr), n);
	copy[n] = '\0';
	*len = n;
	return copy;
}

const char *kfsim_ynl_attr_path(const struct kfsim_ynl_policy_nest *policy, const void *head,
				u32 len, u32 offset, char *buf, size_t size)
{
	const struct nlattr *attr;
	size_t used;

	if (size)
		buf[0] = '\0';
	kfsim_ynl_attr_for_each(attr, head, len) {
		u32 start = (u32)((const u8 *)attr - (const u8 *)head);
		u16 type = kfsim_ynl_attr_type(attr);
		const struct kfsim_ynl_policy_attr *pa;

		if (offset < start || offset >= start + attr->nla_len)
			continue;
		pa = policy && type <= policy->max_attr ? &policy->table[type] : NULL;
		if (pa && pa->name)
			snprintf(buf, size, ".%s", pa->name);
		else
			snprintf(buf, size, ".%u", type);
		used = strlen(buf);
		if (offset >= start + NLA_HDRLEN && pa && pa->type == KFSIM_YNL_PT_NEST && pa->nest)
			kfsim_ynl_attr_path(pa->nest, kfsim_ynl_attr_data(attr),
					    kfsim_ynl_attr_data_len(attr), offset - start - NLA_HDRLEN,
					    buf + used, size - used);
		break;
	}
	return buf;
}

/* ---- the socket ----------------------------------------------------------------------- */

struct kfsim_ynl_sock {
	struct kfsim_nl_client *client;
	const struct kfsim_ynl_family *family;
	struct kfsim_nl_family_info info;
	struct kfsim_ynl_error err;
	struct kfsim_nl_error nl_err;
	struct kfsim_ynl_ntf_base *ntf_first, **ntf_last;
};

void kfsim_ynl_set_err(struct kfsim_ynl_sock *ys, int code, const char *fmt, ...)
{
	va_list ap;

	ys->err.code = code;
	va_start(ap, fmt);
	vsnprintf(ys->err.msg, sizeof(ys->err.msg), fmt, ap);
	va_end(ap);
}

struct kfsim_ynl_sock *kfsim_ynl_sock_create(struct kfsim_nl_client *client,
					     const struct kfsim_ynl_family *family,
					     struct kfsim_ynl_error *err)
{
	struct kfsim_ynl_sock *ys = calloc(1, sizeof(*ys));
	int ret;

	if (!ys) {
		kfsim_ynl_err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	ys->client = client;
	ys->family = family;
	ys->ntf_last = &ys->ntf_first;
	ret = kfsim_nl_resolve(client, family->name, &ys->info, &ys->nl_err);
	if (ret) {
		kfsim_ynl_err_set(err, ret, "family '%s' not found: %s", family->name,
				  strerror(-ret));
		free(ys);
		return NULL;
	}
	return ys;
}

void kfsim_ynl_sock_destroy(struct kfsim_ynl_sock *ys)
{
	struct kfsim_ynl_ntf_base *ntf;

	if (!ys)
		return;
	while ((ntf = kfsim_ynl_ntf_dequeue(ys)))
		ntf->free(ntf);
	free(ys);
}

const struct kfsim_ynl_error *kfsim_ynl_sock_err(const struct kfsim_ynl_sock *ys)
{
	return &ys->err;
}

const struct kfsim_nl_error *kfsim_ynl_sock_nl_err(const struct kfsim_ynl_sock *ys)
{
	return &ys->nl_err;
}

u16 kfsim_ynl_family_id(const struct kfsim_ynl_sock *ys)
{
	return ys->info.id;
}

static void ntf_queue(struct kfsim_ynl_sock *ys, const struct nlmsghdr *nlh)
{
	const struct kfsim_ynl_family *fam = ys->family;
	const struct genlmsghdr *genl;
	const struct kfsim_ynl_ntf_info *info;
	struct kfsim_ynl_ntf_base *ntf;
	u32 hdrs = NLMSG_HDRLEN + GENL_HDRLEN + fam->hdr_len;
	struct kfsim_ynl_error perr = { 0 };

	if (nlh->nlmsg_len < hdrs || nlh->nlmsg_type != ys->info.id)
		return;
	genl = (const struct genlmsghdr *)((const u8 *)nlh + NLMSG_HDRLEN);
	if (genl->cmd >= fam->ntf_info_size || !fam->ntf_info[genl->cmd].parse)
		return;
	info = &fam->ntf_info[genl->cmd];
	ntf = calloc(1, info->alloc_size);
	if (!ntf)
		return;
	ntf->family = nlh->nlmsg_type;
	ntf->cmd = genl->cmd;
	ntf->free = info->free;
	if (info->parse(ntf, (const u8 *)nlh + hdrs, nlh->nlmsg_len - hdrs, &perr)) {
		info->free(ntf);
		return;
	}
	*ys->ntf_last = ntf;
	ys->ntf_last = &ntf->next;
}

struct exec_ctx {
	struct kfsim_ynl_sock *ys;
	u8 reply_cmd;
	kfsim_ynl_reply_cb cb;
	void *arg;
};

static int exec_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct exec_ctx *ctx = arg;
	const struct kfsim_ynl_family *fam = ctx->ys->family;
	u32 hdrs = NLMSG_HDRLEN + GENL_HDRLEN + fam->hdr_len;
	const struct genlmsghdr *genl;

	if (nlh->nlmsg_len < hdrs) {
		kfsim_ynl_set_err(ctx->ys, -EPROTO, "reply shorter than its headers");
		return -EPROTO;
	}
	genl = (const struct genlmsghdr *)((const u8 *)nlh + NLMSG_HDRLEN);
	if (genl->cmd != ctx->reply_cmd) {
		/* ynl: a reply with another command is a notification that crossed it. */
		ntf_queue(ctx->ys, nlh);
		return 0;
	}
	if (!ctx->cb)
		return 0;
	/* A reply that fails user-side validation: its message, not a kernel error, is reported. */
	return ctx->cb(nlh, fam->hdr_len ? (const u8 *)genl + GENL_HDRLEN : NULL,
		       (const u8 *)nlh + hdrs, nlh->nlmsg_len - hdrs, ctx->arg, &ctx->ys->err);
}

int kfsim_ynl_exec(struct kfsim_ynl_sock *ys, u8 cmd, const void *fixed_hdr,
		   const struct kfsim_ynl_msg *msg, bool dump,
		   const struct kfsim_ynl_policy_nest *req_policy, u8 reply_cmd,
		   kfsim_ynl_reply_cb cb, void *arg)
{
	u32 hdr_len = ys->family->hdr_len;
	u32 attrs_off = NLMSG_HDRLEN + GENL_HDRLEN + KFSIM_YNL_ALIGN(hdr_len);
	u32 total = attrs_off + msg->len;
	struct exec_ctx ctx = { ys, reply_cmd, cb, arg };
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	int ret;

	memset(&ys->err, 0, sizeof(ys->err));
	if (msg->overflow) {
		kfsim_ynl_set_err(ys, -EMSGSIZE, "Constructed message longer than internal buffer");
		return -EMSGSIZE;
	}
	nlh = calloc(1, total);
	if (!nlh) {
		kfsim_ynl_set_err(ys, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	nlh->nlmsg_len = total;
	nlh->nlmsg_type = ys->info.id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	genl = (struct genlmsghdr *)((u8 *)nlh + NLMSG_HDRLEN);
	genl->cmd = cmd;
	genl->version = (u8)ys->info.version;
	if (hdr_len && fixed_hdr)
		memcpy((u8 *)genl + GENL_HDRLEN, fixed_hdr, hdr_len);
	if (msg->len)
		memcpy((u8 *)nlh + attrs_off, msg->buf, msg->len);
	ret = kfsim_nl_request(ys->client, nlh, exec_reply, &ctx, &ys->nl_err);
	if (ret && !ys->err.code) {
		char path[128] = "";

		if (ys->nl_err.has_offs && ys->nl_err.offs >= attrs_off)
			kfsim_ynl_attr_path(req_policy, msg->buf, msg->len,
					    ys->nl_err.offs - attrs_off, path, sizeof(path));
		if (ys->nl_err.msg[0] && path[0])
			kfsim_ynl_set_err(ys, ret, "Kernel error: '%s' (bad attribute: %s)",
					  ys->nl_err.msg, path);
		else if (ys->nl_err.msg[0])
			kfsim_ynl_set_err(ys, ret, "Kernel error: '%s'", ys->nl_err.msg);
		else if (path[0])
			kfsim_ynl_set_err(ys, ret, "Kernel error: %s (bad attribute: %s)",
					  strerror(-ret), path);
		else if (ys->nl_err.has_miss_type) {
			const char *name = req_policy && ys->nl_err.miss_type <= req_policy->max_attr ?
				req_policy->table[ys->nl_err.miss_type].name : NULL;

			if (name && !ys->nl_err.has_miss_nest)
				kfsim_ynl_set_err(ys, ret, "Kernel error: missing attribute: .%s",
						  name);
			else
				kfsim_ynl_set_err(ys, ret, "Kernel error: missing attribute type %u",
						  ys->nl_err.miss_type);
		} else {
			kfsim_ynl_set_err(ys, ret, "Kernel error: %s", strerror(-ret));
		}
	}
	free(nlh);
	return ret;
}

int kfsim_ynl_subscribe(struct kfsim_ynl_sock *ys, const char *group)
{
	int ret = kfsim_nl_subscribe(ys->client, ys->family->name, group);

	if (ret)
		kfsim_ynl_set_err(ys, ret, "cannot join group '%s': %s", group, strerror(-ret));
	return ret;
}

static int ntf_cb(const struct nlmsghdr *nlh, void *arg)
{
	ntf_queue(arg, nlh);
	return 0;
}

int kfsim_ynl_ntf_check(struct kfsim_ynl_sock *ys)
{
	int before = 0, after = 0, ret;
	struct kfsim_ynl_ntf_base *ntf;

	for (ntf = ys->ntf_first; ntf; ntf = ntf->next)
		before++;
	ret = kfsim_nl_notifications(ys->client, ntf_cb, ys, 0);
	if (ret < 0)
		return ret;
	for (ntf = ys->ntf_first; ntf; ntf = ntf->next)
		after++;
	return after - before;
}

struct kfsim_ynl_ntf_base *kfsim_ynl_ntf_dequeue(struct kfsim_ynl_sock *ys)
{
	struct kfsim_ynl_ntf_base *ntf = ys->ntf_first;

	if (!ntf)
		return NULL;
	ys->ntf_first = ntf->next;
	if (!ys->ntf_first)
		ys->ntf_last = &ys->ntf_first;
	ntf->next = NULL;
	return ntf;
}
