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
#include <kfsim/nl_client.h>
#include <kfsim/types.h>
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

void kfsim_ynl_attr_put_uint(struct kfsim_ynl_msg *msg, __u16 type, __u64 value)
{
	u32 v32 = (u32)value;

	if (value == v32)
		kfsim_ynl_attr_put(msg, type, &v32, 4);
	else
		kfsim_ynl_attr_put(msg, type, &value, 8);
}

void kfsim_ynl_attr_put_sint(struct kfsim_ynl_msg *msg, __u16 type, __s64 value)
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

int kfsim_ynl_err_set(struct ynl_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = (enum ynl_error_code)(code < 0 ? -code : code);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

/*
 * ynl_attr_validate() of the kernel library: the same checks and texts ("Invalid attribute
 * (u32 node-cnt)"), code YNL_ERROR_ATTR_INVALID; the caller gets -EINVAL.
 */
static int invalid(struct ynl_error *err, const char *what, const char *name)
{
	kfsim_ynl_err_set(err, YNL_ERROR_ATTR_INVALID, "Invalid attribute (%s%s%s)", what,
			  *what ? " " : "", name ? name : "");
	return -EINVAL;
}

int kfsim_ynl_attr_validate(const struct kfsim_ynl_policy_nest *policy, const struct nlattr *attr,
			    struct ynl_error *err)
{
	u16 type = kfsim_ynl_attr_type(attr);
	u32 len = kfsim_ynl_attr_data_len(attr);
	const struct kfsim_ynl_policy_attr *pa;
	const char *data = kfsim_ynl_attr_data(attr);

	if (type > policy->max_attr) {
		kfsim_ynl_err_set(err, YNL_ERROR_INTERNAL,
				  "Internal error, validating unknown attribute");
		return -EINVAL;
	}
	pa = &policy->table[type];
	switch (pa->type) {
	case KFSIM_YNL_PT_REJECT:
		kfsim_ynl_err_set(err, YNL_ERROR_ATTR_INVALID, "Rejected attribute (%s)", pa->name);
		return -EINVAL;
	case KFSIM_YNL_PT_IGNORE:
	case KFSIM_YNL_PT_FLAG:	/* flags may grow into real attributes */
		return 0;
	case KFSIM_YNL_PT_U8: return len == 1 ? 0 : invalid(err, "u8", pa->name);
	case KFSIM_YNL_PT_U16: return len == 2 ? 0 : invalid(err, "u16", pa->name);
	case KFSIM_YNL_PT_U32: return len == 4 ? 0 : invalid(err, "u32", pa->name);
	case KFSIM_YNL_PT_U64: return len == 8 ? 0 : invalid(err, "u64", pa->name);
	case KFSIM_YNL_PT_BITFIELD32: return len == 8 ? 0 : invalid(err, "bitfield32", pa->name);
	case KFSIM_YNL_PT_UINT:
		return len == 4 || len == 8 ? 0 : invalid(err, "uint", pa->name);
	case KFSIM_YNL_PT_NUL_STR:
		/* the kernel library's len is the max payload with the NUL; ours is without */
		if (len && (!pa->len || len <= pa->len + 1u) && !data[len - 1])
			return 0;
		return invalid(err, "string", pa->name);
	case KFSIM_YNL_PT_STR:
		if (!pa->len || len <= pa->len + 1u)
			return 0;
		return invalid(err, "string", pa->name);
	case KFSIM_YNL_PT_BINARY:
		return !pa->len || len == pa->len ? 0 : invalid(err, "binary", pa->name);
	case KFSIM_YNL_PT_NEST:
		return !len || len >= NLA_HDRLEN ? 0 : invalid(err, "nest", pa->name);
	case 0:
		/* not in the set: parsers skip these before validating (newer kernels) */
		return 0;
	default:
		return invalid(err, "unknown", pa->name);
	}
}

__u64 kfsim_ynl_attr_get_uint(const struct nlattr *attr)
{
	const void *data = kfsim_ynl_attr_data(attr);
	u8 v8;
	u16 v16;
	u32 v32;
	__u64 v64 = 0;

	switch (kfsim_ynl_attr_data_len(attr)) {
	case 1: memcpy(&v8, data, 1); return v8;
	case 2: memcpy(&v16, data, 2); return v16;
	case 4: memcpy(&v32, data, 4); return v32;
	case 8: memcpy(&v64, data, 8); return v64;
	default: return 0;
	}
}

__s64 kfsim_ynl_attr_get_sint(const struct nlattr *attr)
{
	const void *data = kfsim_ynl_attr_data(attr);
	s8 v8;
	s16 v16;
	s32 v32;
	__s64 v64 = 0;

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

/* ynl_err_walk_report_one(): ".name", or why the policy cannot name it. */
static bool path_report_one(const struct kfsim_ynl_policy_nest *policy, u16 type, char *buf,
			    size_t size)
{
	if (!policy) {
		snprintf(buf, size, "!policy");
		return false;
	}
	if (type > policy->max_attr) {
		snprintf(buf, size, "!oob");
		return false;
	}
	if (!policy->table[type].name) {
		snprintf(buf, size, "!name");
		return false;
	}
	snprintf(buf, size, ".%s", policy->table[type].name);
	return true;
}

const char *kfsim_ynl_attr_path(const struct kfsim_ynl_policy_nest *policy, const void *head,
				u32 len, u32 offset, char *buf, size_t size,
				const struct kfsim_ynl_policy_nest **nest_pol)
{
	const struct nlattr *attr;
	size_t used;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!policy) {
		snprintf(buf, size, "!policy");
		return buf;
	}
	kfsim_ynl_attr_for_each(attr, head, len) {
		u32 start = (u32)((const u8 *)attr - (const u8 *)head);
		u16 type = kfsim_ynl_attr_type(attr);
		const struct kfsim_ynl_policy_nest *nest;

		if (start + attr->nla_len <= offset)
			continue;
		if (!path_report_one(policy, type, buf, size))
			return buf;
		nest = policy->table[type].nest;
		if (offset == start) {
			if (nest_pol)
				*nest_pol = nest;
			return buf;
		}
		used = strlen(buf);
		if (!nest) {
			snprintf(buf + used, size - used, "!nest");
			return buf;
		}
		if (offset < start + NLA_HDRLEN)
			return buf;
		kfsim_ynl_attr_path(nest, kfsim_ynl_attr_data(attr), kfsim_ynl_attr_data_len(attr),
				    offset - start - NLA_HDRLEN, buf + used, size - used, nest_pol);
		return buf;
	}
	return buf;
}

/* ---- the socket ----------------------------------------------------------------------- */

/*
 * The list terminator: an address no object ever has (the kernel library's is 0xb4d123).
 * Ours is 8-byte aligned: ynl_dump_foreach() takes &dump->obj of it, which UBSan reports as a
 * misaligned member access for an odd address (the kernel's samples do exactly that on an
 * empty dump).
 */
struct ynl_dump_list_type *YNL_LIST_END = (void *)(0xb4d120);

static void err_reset(struct ynl_sock *ys)
{
	ys->err.code = YNL_ERROR_NONE;
	ys->err.attr_offs = 0;
	ys->err.msg[0] = '\0';
}

struct ynl_sock *kfsim_ynl_sock_create(struct kfsim_nl_client *client,
				       const struct ynl_family *yf, struct ynl_error *e)
{
	struct ynl_sock *ys = calloc(1, sizeof(*ys));
	int ret;

	if (!ys || !(ys->info = calloc(1, sizeof(*ys->info))) ||
	    !(ys->nl_err = calloc(1, sizeof(*ys->nl_err)))) {
		if (ys)
			free(ys->info);
		free(ys);
		kfsim_ynl_err_set(e, ENOMEM, "%s", strerror(ENOMEM));
		return NULL;
	}
	ys->client = client;
	ys->family = yf;
	ys->ntf_last_next = &ys->ntf_first;
	ret = kfsim_nl_resolve(client, yf->name, ys->info, ys->nl_err);
	if (ret) {
		/*
		 * The kernel library reads CTRL_CMD_GETFAMILY's answer; an error (ENOENT for a
		 * family the kernel does not have) is then reported with this text and errno.
		 */
		kfsim_ynl_err_set(e, ret, "failed to receive the socket family info - no such "
				  "family?");
		free(ys->nl_err);
		free(ys->info);
		free(ys);
		return NULL;
	}
	return ys;
}

/*
 * The transport: the running kernel unless KFSIM_KERNEL names kfsim's ("inproc" or the path
 * of a `kfsim kernel --listen` server).  The texts are the kernel library's for a socket that
 * cannot be created.
 */
static struct kfsim_nl_client *open_transport(struct ynl_error *e)
{
	const char *where = getenv("KFSIM_KERNEL");
	struct kfsim_nl_client *c;

	if (!where || !*where)
		c = kfsim_nl_client_open_kernel();
	else if (!strcmp(where, "inproc"))
		c = kfsim_nl_client_open_inproc();	/* the stand-in kernel provides it */
	else
		c = kfsim_nl_client_open_server(where);
	if (IS_ERR(c)) {
		kfsim_ynl_err_set(e, (int)PTR_ERR(c), "failed to create a netlink socket");
		return NULL;
	}
	return c;
}

struct ynl_sock *ynl_sock_create(const struct ynl_family *yf, struct ynl_error *e)
{
	struct kfsim_nl_client *c = open_transport(e);
	struct ynl_sock *ys;

	if (!c)
		return NULL;
	ys = kfsim_ynl_sock_create(c, yf, e);
	if (!ys) {
		kfsim_nl_client_close(c);
		return NULL;
	}
	ys->own_client = true;
	return ys;
}

void ynl_sock_destroy(struct ynl_sock *ys)
{
	struct ynl_ntf_base_type *ntf;

	if (!ys)
		return;
	while ((ntf = ynl_ntf_dequeue(ys)))
		ynl_ntf_free(ntf);
	if (ys->own_client)
		kfsim_nl_client_close(ys->client);
	free(ys->nl_err);
	free(ys->info);
	free(ys);
}

void ynl_ntf_free(struct ynl_ntf_base_type *ntf)
{
	ntf->free(ntf);
}

const struct kfsim_nl_error *kfsim_ynl_sock_nl_err(const struct ynl_sock *ys)
{
	return ys->nl_err;
}

u16 kfsim_ynl_family_id(const struct ynl_sock *ys)
{
	return ys->info->id;
}

int ynl_socket_get_fd(struct ynl_sock *ys)
{
	return kfsim_nl_client_fd(ys->client);
}

/* ynl_ntf_parse(): unknown commands and unparsable notifications are dropped. */
static void ntf_queue(struct ynl_sock *ys, const struct nlmsghdr *nlh)
{
	const struct ynl_family *fam = ys->family;
	const struct genlmsghdr *genl;
	const struct kfsim_ynl_ntf_info *info;
	struct ynl_ntf_base_type *ntf;
	u32 hdrs = NLMSG_HDRLEN + GENL_HDRLEN + (u32)fam->hdr_len;
	struct ynl_error perr = { 0 };

	if (nlh->nlmsg_len < hdrs || nlh->nlmsg_type != ys->info->id)
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
	*ys->ntf_last_next = ntf;
	ys->ntf_last_next = &ntf->next;
}

struct exec_ctx {
	struct ynl_sock *ys;
	u8 reply_cmd;
	kfsim_ynl_reply_cb cb;
	void *arg;
};

static int exec_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct exec_ctx *ctx = arg;
	const struct ynl_family *fam = ctx->ys->family;
	u32 hdrs = NLMSG_HDRLEN + GENL_HDRLEN + (u32)fam->hdr_len;
	const struct genlmsghdr *genl;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		kfsim_ynl_err_set(&ctx->ys->err, YNL_ERROR_INV_RESP,
				  "Kernel responded with truncated message");
		return -EPROTO;
	}
	genl = (const struct genlmsghdr *)((const u8 *)nlh + NLMSG_HDRLEN);
	if (genl->cmd != ctx->reply_cmd) {
		/* a reply with another command is a notification that crossed it */
		ntf_queue(ctx->ys, nlh);
		return 0;
	}
	if (nlh->nlmsg_len < hdrs) {
		kfsim_ynl_err_set(&ctx->ys->err, YNL_ERROR_INV_RESP,
				  "Kernel responded with truncated message");
		return -EPROTO;
	}
	if (!ctx->cb) {
		kfsim_ynl_err_set(&ctx->ys->err, YNL_ERROR_UNEXPECT_MSG,
				  "Received a message when none were expected");
		return -EPROTO;
	}
	return ctx->cb(nlh, fam->hdr_len ? (const u8 *)genl + GENL_HDRLEN : NULL,
		       (const u8 *)nlh + hdrs, nlh->nlmsg_len - hdrs, ctx->arg, &ctx->ys->err);
}

/*
 * ynl_ext_ack_check(): "Kernel error: 'msg' (bad attribute: .a, missing attribute: .b)",
 * "Kernel error: bad attribute: .a" without a message, strerror() without either;
 * "Kernel warning: ..." for an ACK that carries a message.
 */
static void ext_ack_format(struct ynl_sock *ys, const struct kfsim_ynl_msg *msg,
			   const struct kfsim_ynl_policy_nest *req_policy, u32 attrs_off)
{
	const struct kfsim_nl_error *ne = ys->nl_err;
	const char *level = ys->err.code ? "error" : "warning";
	char bad[sizeof(ys->err.msg)] = "", miss[sizeof(ys->err.msg)] = "";
	size_t n;

	if (ne->has_offs) {
		ys->err.attr_offs = ne->offs;
		n = (size_t)snprintf(bad, sizeof(bad), "%sbad attribute: ", ne->msg[0] ? " (" : "");
		if (ne->offs >= attrs_off)
			kfsim_ynl_attr_path(req_policy, msg->buf, msg->len, ne->offs - attrs_off,
					    bad + n, sizeof(bad) - n, NULL);
	}
	if (ne->has_miss_type) {
		const struct kfsim_ynl_policy_nest *nest_pol = req_policy;

		n = (size_t)snprintf(miss, sizeof(miss), "%smissing attribute: ",
				     bad[0] ? ", " : (ne->msg[0] ? " (" : ""));
		if (ne->has_miss_nest && ne->miss_nest >= attrs_off) {
			kfsim_ynl_attr_path(req_policy, msg->buf, msg->len, ne->miss_nest - attrs_off,
					    miss + n, sizeof(miss) - n, &nest_pol);
			n = strlen(miss);
		}
		if (n < sizeof(miss))
			path_report_one(nest_pol, (u16)ne->miss_type, miss + n, sizeof(miss) - n);
	}
	/* kfsim_ynl_err_set() keeps the code and cuts the text at the message buffer, as libynl */
	if (ne->msg[0])
		kfsim_ynl_err_set(&ys->err, (int)ys->err.code, "Kernel %s: '%s'%s%s%s", level,
				  ne->msg, bad, miss, bad[0] || miss[0] ? ")" : "");
	else if (bad[0] || miss[0])
		kfsim_ynl_err_set(&ys->err, (int)ys->err.code, "Kernel %s: %s%s", level, bad, miss);
	else if (ys->err.code)
		kfsim_ynl_err_set(&ys->err, (int)ys->err.code, "%s", strerror((int)ys->err.code));
}

int kfsim_ynl_exec(struct ynl_sock *ys, u8 cmd, const void *fixed_hdr,
		   const struct kfsim_ynl_msg *msg, bool dump,
		   const struct kfsim_ynl_policy_nest *req_policy, u8 reply_cmd,
		   kfsim_ynl_reply_cb cb, void *arg)
{
	u32 hdr_len = (u32)ys->family->hdr_len;
	u32 attrs_off = NLMSG_HDRLEN + GENL_HDRLEN + KFSIM_YNL_ALIGN(hdr_len);
	u32 total = attrs_off + msg->len;
	struct exec_ctx ctx = { ys, reply_cmd, cb, arg };
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	int ret;

	err_reset(ys);
	if (msg->overflow) {
		kfsim_ynl_err_set(&ys->err, YNL_ERROR_INPUT_TOO_BIG,
				  "Constructed message longer than internal buffer");
		return -EMSGSIZE;
	}
	nlh = calloc(1, total);
	if (!nlh) {
		kfsim_ynl_err_set(&ys->err, ENOMEM, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	nlh->nlmsg_len = total;
	nlh->nlmsg_type = ys->info->id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	genl = (struct genlmsghdr *)((u8 *)nlh + NLMSG_HDRLEN);
	genl->cmd = cmd;
	genl->version = (u8)ys->info->version;
	if (hdr_len && fixed_hdr)
		memcpy((u8 *)genl + GENL_HDRLEN, fixed_hdr, hdr_len);
	if (msg->len)
		memcpy((u8 *)nlh + attrs_off, msg->buf, msg->len);
	ret = kfsim_nl_request(ys->client, nlh, exec_reply, &ctx, ys->nl_err);
	if (ret && !ys->err.code) {
		ys->err.code = (enum ynl_error_code)(ret < 0 ? -ret : ret);
		ext_ack_format(ys, msg, req_policy, attrs_off);
	} else if (!ret && ys->nl_err->msg[0]) {
		ext_ack_format(ys, msg, req_policy, attrs_off);
	}
	free(nlh);
	return ret;
}

int ynl_subscribe(struct ynl_sock *ys, const char *grp_name)
{
	u32 i;
	int ret;

	for (i = 0; i < ys->info->nr_mcgrps; i++)
		if (!strcmp(ys->info->mcgrps[i].name, grp_name))
			break;
	if (i == ys->info->nr_mcgrps) {
		kfsim_ynl_err_set(&ys->err, ENOENT, "Multicast group '%s' not found", grp_name);
		return -1;
	}
	ret = kfsim_nl_subscribe(ys->client, ys->family->name, grp_name);
	if (ret) {
		kfsim_ynl_err_set(&ys->err, ret, "Subscribing to multicast group failed");
		return -1;
	}
	return 0;
}

static int ntf_cb(const struct nlmsghdr *nlh, void *arg)
{
	ntf_queue(arg, nlh);
	return 0;
}

int ynl_ntf_check(struct ynl_sock *ys)
{
	int ret = kfsim_nl_notifications(ys->client, ntf_cb, ys, 0);

	return ret < 0 ? ret : 0;
}

struct ynl_ntf_base_type *ynl_ntf_dequeue(struct ynl_sock *ys)
{
	struct ynl_ntf_base_type *ntf;

	if (!ynl_has_ntf(ys))
		return NULL;
	ntf = ys->ntf_first;
	ys->ntf_first = ntf->next;
	if (ys->ntf_last_next == &ntf->next)
		ys->ntf_last_next = &ys->ntf_first;
	ntf->next = NULL;
	return ntf;
}
