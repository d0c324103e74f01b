// SPDX-License-Identifier: MIT
/*
 * One client for both transports: send a request, read every reply until its ACK or
 * NLMSG_DONE, decode errors with their extended ACK, keep multicast notifications aside.
 *
 * Invariants kept:
 *  - A reply belongs to the request when it carries the request's sequence number and the
 *    client's port id; a message with port id 0 is a notification and is queued; anything else
 *    is stale and dropped.
 *  - Every reply of a request is read even when the callback fails, so the next request starts
 *    on a clean socket.
 *  - Nothing past nlmsg_len of a message, or past the bytes received, is read.
 */
#include <stdio.h>
#include <string.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>
#include "nl_transport.h"

#define RXBUF_SIZE (32u * 1024u)
#define REQ_MAX (64u * 1024u)

static struct kfsim_nl_client *client_alloc(bool kernel)
{
	struct kfsim_nl_client *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->kernel = kernel;
	c->rxbuf_size = RXBUF_SIZE;
	c->rxbuf = kmalloc(c->rxbuf_size, GFP_KERNEL);
	if (!c->rxbuf) {
		kfree(c);
		return NULL;
	}
	return c;
}

struct kfsim_nl_client *kfsim_nl_client_open_sim(struct kfsim_nl_kernel *k,
						 const struct kfsim_nl_cred *cred)
{
	struct kfsim_nl_client *c;

	if (!k || !cred)
		return ERR_PTR(-EINVAL);
	c = client_alloc(false);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->sim = kfsim_nl_sock_open(k, cred);
	if (IS_ERR(c->sim)) {
		long err = PTR_ERR(c->sim);

		kfree(c->rxbuf);
		kfree(c);
		return ERR_PTR(err);
	}
	kfsim_nl_sock_setsockopt(c->sim, NETLINK_EXT_ACK, 1);
	kfsim_nl_sock_setsockopt(c->sim, NETLINK_CAP_ACK, 1);
	c->portid = kfsim_nl_sock_portid(c->sim);
	return c;
}

struct kfsim_nl_client *kfsim_nl_client_open_kernel(void)
{
	struct kfsim_nl_client *c = client_alloc(true);
	int err;

	if (!c)
		return ERR_PTR(-ENOMEM);
	err = kfsim_nl_kernel_open(c);
	if (err) {
		kfree(c->rxbuf);
		kfree(c);
		return ERR_PTR(err);
	}
	return c;
}

struct kfsim_nl_client *kfsim_nl_client_open_server(const char *path)
{
	struct kfsim_nl_client *c;
	int err;

	if (!path)
		return ERR_PTR(-EINVAL);
	c = client_alloc(true);
	if (!c)
		return ERR_PTR(-ENOMEM);
	err = kfsim_nl_server_open(c, path);
	if (err) {
		kfree(c->rxbuf);
		kfree(c);
		return ERR_PTR(err);
	}
	return c;
}

static void drop_notifications(struct kfsim_nl_client *c)
{
	while (c->ntf_head) {
		struct kfsim_nl_queued *q = c->ntf_head;

		c->ntf_head = q->next;
		kfree(q);
	}
	c->ntf_tail = NULL;
}

void kfsim_nl_client_close(struct kfsim_nl_client *c)
{
	if (!c)
		return;
	if (c->kernel)
		kfsim_nl_kernel_close(c);
	else
		kfsim_nl_sock_close(c->sim);
	drop_notifications(c);
	kfree(c->rxbuf);
	kfree(c);
}

bool kfsim_nl_client_is_kernel(const struct kfsim_nl_client *c)
{
	return c->kernel && !c->server;
}

int kfsim_nl_client_fd(const struct kfsim_nl_client *c)
{
	return c->kernel ? kfsim_nl_kernel_fd(c) : -1;
}

u32 kfsim_nl_client_portid(const struct kfsim_nl_client *c)
{
	return c->portid;
}

static ssize_t xport_send(struct kfsim_nl_client *c, const void *buf, size_t len)
{
	return c->kernel ? kfsim_nl_kernel_send(c, buf, len) : kfsim_nl_sock_send(c->sim, buf, len);
}

static ssize_t xport_recv(struct kfsim_nl_client *c, int timeout_ms)
{
	if (c->kernel)
		return kfsim_nl_kernel_recv(c, c->rxbuf, c->rxbuf_size, timeout_ms);
	return kfsim_nl_sock_recv(c->sim, c->rxbuf, c->rxbuf_size);
}

static void queue_notification(struct kfsim_nl_client *c, const struct nlmsghdr *nlh)
{
	struct kfsim_nl_queued *q = kmalloc(sizeof(*q) + nlh->nlmsg_len, GFP_KERNEL);

	if (!q)
		return;
	q->next = NULL;
	q->len = nlh->nlmsg_len;
	memcpy(q->data, nlh, nlh->nlmsg_len);
	if (c->ntf_tail)
		c->ntf_tail->next = q;
	else
		c->ntf_head = q;
	c->ntf_tail = q;
}

static bool msg_ok(const struct nlmsghdr *nlh, size_t remaining)
{
	return remaining >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_HDRLEN &&
	       nlh->nlmsg_len <= remaining;
}

/*
 * The next whole message of the datagram in rxbuf[*@off, @n) that is not a notification,
 * queueing the notifications on the way (port 0, and a sequence number other than *@seq, or
 * than 0 when the request's is not known, @seq NULL); NULL at the datagram's end.
 */
static const struct nlmsghdr *next_answer(struct kfsim_nl_client *c, size_t *off, size_t n,
					  const u32 *seq)
{
	while (*off < n && msg_ok((const struct nlmsghdr *)(c->rxbuf + *off), n - *off)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(c->rxbuf + *off);

		*off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (nlh->nlmsg_pid == 0 && (seq ? nlh->nlmsg_seq != *seq : nlh->nlmsg_seq == 0)) {
			queue_notification(c, nlh);
			continue;
		}
		return nlh;
	}
	return NULL;
}

int kfsim_nl_request(struct kfsim_nl_client *c, struct nlmsghdr *req, kfsim_nl_msg_cb cb, void *arg,
		     struct kfsim_nl_error *err)
{
	struct kfsim_nl_error local;
	int cb_err = 0, result = 0;
	bool done = false;
	ssize_t n;
	u32 seq;

	if (!err)
		err = &local;
	memset(err, 0, sizeof(*err));
	if (!c || !req || req->nlmsg_len < NLMSG_HDRLEN || req->nlmsg_len > REQ_MAX)
		return -EINVAL;
	seq = ++c->seq;
	if (!seq)
		seq = ++c->seq; /* 0 marks notifications */
	req->nlmsg_seq = seq;
	req->nlmsg_pid = 0;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	n = xport_send(c, req, req->nlmsg_len);
	if (n < 0)
		return (int)n;

	while (!done) {
		const struct nlmsghdr *nlh;
		size_t off = 0;

		n = xport_recv(c, -1);
		if (n < 0)
			return (int)n;
		if ((size_t)n > c->rxbuf_size)
			return -EMSGSIZE;
		while (!done && (nlh = next_answer(c, &off, (size_t)n, &seq))) {
			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != c->portid)
				continue; /* stale */
			if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
				if (kfsim_nl_error_parse(nlh, err))
					return -EPROTO;
				result = err->error;
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_NOOP || nlh->nlmsg_type == NLMSG_OVERRUN)
				continue;
			if (cb && !cb_err)
				cb_err = cb(nlh, arg);
		}
	}
	if (result)
		return result;
	return cb_err;
}

int kfsim_nl_send_raw(struct kfsim_nl_client *c, const void *buf, size_t len, kfsim_nl_msg_cb cb,
		      void *arg)
{
	int count = 0;
	ssize_t n;

	if (!c || !buf || len > REQ_MAX)
		return -EINVAL;
	n = xport_send(c, buf, len);
	if (n < 0)
		return (int)n;
	/* nothing queued now means no answer: both kernels answer inside sendmsg() */
	while ((n = xport_recv(c, 0)) >= 0) {
		const struct nlmsghdr *nlh;
		size_t off = 0;

		if ((size_t)n > c->rxbuf_size)
			return -EMSGSIZE;
		while ((nlh = next_answer(c, &off, (size_t)n, NULL))) {
			count++;
			if (cb)
				cb(nlh, arg);
		}
	}
	return n == -EAGAIN ? count : (int)n;
}

/* ---- nlctrl helpers ---- */

struct req_buf {
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	u8 attrs[256];
};

static void req_init(struct req_buf *r, u16 type, u16 flags, u8 cmd, u8 version)
{
	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = flags;
	r->genl.cmd = cmd;
	r->genl.version = version;
}

static int req_put(struct req_buf *r, u16 type, const void *data, size_t len)
{
	u8 *p = (u8 *)r + r->nlh.nlmsg_len;
	struct nlattr a = {.nla_len = NLA_HDRLEN + len, .nla_type = type};

	if (r->nlh.nlmsg_len + NLA_ALIGN(NLA_HDRLEN + len) > sizeof(*r))
		return -EMSGSIZE;
	memcpy(p, &a, sizeof(a));
	memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	r->nlh.nlmsg_len += NLA_ALIGN(NLA_HDRLEN + len);
	return 0;
}

/* Walk the attributes in [p, end): calls fn for each whole one. */
static void for_each_attr(const u8 *p, const u8 *end,
			  void (*fn)(const struct nlattr *a, const u8 *data, size_t len, void *arg),
			  void *arg)
{
	while (end - p >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
			return;
		fn(a, p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN, arg);
		p += NLA_ALIGN(a->nla_len);
	}
}

static u32 get_u32(const u8 *data, size_t len)
{
	u32 v = 0;

	if (len >= 4)
		memcpy(&v, data, 4);
	else if (len >= 2) {
		u16 v16;

		memcpy(&v16, data, 2);
		v = v16;
	}
	return v;
}

static void copy_str(char *dst, size_t size, const u8 *data, size_t len)
{
	len = strnlen((const char *)data, len);
	if (len >= size)
		len = size - 1;
	memcpy(dst, data, len);
	dst[len] = '\0';
}

static void op_attr(const struct nlattr *a, const u8 *data, size_t len, void *arg)
{
	u32 *op = arg;

	if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_OP_ID)
		op[0] = get_u32(data, len);
	else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_OP_FLAGS)
		op[1] = get_u32(data, len);
}

static void ops_item(const struct nlattr *a, const u8 *data, size_t len, void *arg)
{
	struct kfsim_nl_family_info *info = arg;
	u32 op[2] = {0, 0};

	if (info->nr_ops >= (sizeof(info->ops) / sizeof(info->ops[0])))
		return;
	for_each_attr(data, data + len, op_attr, op);
	info->ops[info->nr_ops].cmd = op[0];
	info->ops[info->nr_ops].flags = op[1];
	info->nr_ops++;
}

static void grp_attr(const struct nlattr *a, const u8 *data, size_t len, void *arg)
{
	struct kfsim_nl_family_info *info = arg;
	u32 i = info->nr_mcgrps;

	if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_ID)
		info->mcgrps[i].id = get_u32(data, len);
	else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_NAME)
		copy_str(info->mcgrps[i].name, sizeof(info->mcgrps[i].name), data, len);
}

static void grps_item(const struct nlattr *a, const u8 *data, size_t len, void *arg)
{
	struct kfsim_nl_family_info *info = arg;

	if (info->nr_mcgrps >= (sizeof(info->mcgrps) / sizeof(info->mcgrps[0])))
		return;
	memset(&info->mcgrps[info->nr_mcgrps], 0, sizeof(info->mcgrps[0]));
	for_each_attr(data, data + len, grp_attr, info);
	info->nr_mcgrps++;
}

static void family_attr(const struct nlattr *a, const u8 *data, size_t len, void *arg)
{
	struct kfsim_nl_family_info *info = arg;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case CTRL_ATTR_FAMILY_NAME:
		copy_str(info->name, sizeof(info->name), data, len);
		break;
	case CTRL_ATTR_FAMILY_ID:
		info->id = get_u32(data, len);
		break;
	case CTRL_ATTR_VERSION:
		info->version = get_u32(data, len);
		break;
	case CTRL_ATTR_HDRSIZE:
		info->hdrsize = get_u32(data, len);
		break;
	case CTRL_ATTR_MAXATTR:
		info->maxattr = get_u32(data, len);
		break;
	case CTRL_ATTR_OPS:
		for_each_attr(data, data + len, ops_item, info);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		for_each_attr(data, data + len, grps_item, info);
		break;
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const u8 *p = (const u8 *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EPROTO;
	memset(arg, 0, sizeof(struct kfsim_nl_family_info));
	for_each_attr(p, (const u8 *)nlh + nlh->nlmsg_len, family_attr, arg);
	return 0;
}

int kfsim_nl_resolve(struct kfsim_nl_client *c, const char *name, struct kfsim_nl_family_info *info,
		     struct kfsim_nl_error *err)
{
	struct req_buf r;
	int ret;

	if (!c || !name || !info || strlen(name) >= GENL_NAMSIZ)
		return -EINVAL;
	req_init(&r, GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1);
	req_put(&r, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	memset(info, 0, sizeof(*info));
	ret = kfsim_nl_request(c, &r.nlh, family_cb, info, err);
	if (!ret && !info->id)
		return -EPROTO;
	return ret;
}

int kfsim_nl_subscribe(struct kfsim_nl_client *c, const char *family, const char *group)
{
	struct kfsim_nl_family_info *info;
	int ret = -ENOENT;

	if (!c || !family || !group)
		return -EINVAL;
	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	if (kfsim_nl_resolve(c, family, info, NULL)) {
		kfree(info);
		return -ENOENT;
	}
	for (u32 i = 0; i < info->nr_mcgrps; i++) {
		if (strcmp(info->mcgrps[i].name, group))
			continue;
		ret = c->kernel ? kfsim_nl_kernel_join(c, info->mcgrps[i].id)
				: kfsim_nl_sock_setsockopt(c->sim, NETLINK_ADD_MEMBERSHIP,
							   info->mcgrps[i].id);
		break;
	}
	kfree(info);
	return ret;
}

int kfsim_nl_notifications(struct kfsim_nl_client *c, kfsim_nl_msg_cb cb, void *arg, int timeout_ms)
{
	int count = 0;
	ssize_t n;

	if (!c || !cb)
		return -EINVAL;
	for (;;) {
		size_t off = 0;

		while (c->ntf_head) {
			struct kfsim_nl_queued *q = c->ntf_head;

			c->ntf_head = q->next;
			if (!c->ntf_head)
				c->ntf_tail = NULL;
			cb((const struct nlmsghdr *)q->data, arg);
			kfree(q);
			count++;
		}
		n = xport_recv(c, count ? 0 : timeout_ms);
		if (n == -EAGAIN || n == -ETIMEDOUT)
			return count;
		if (n < 0)
			return (int)n;
		if ((size_t)n > c->rxbuf_size)
			n = c->rxbuf_size;
		while (msg_ok((const struct nlmsghdr *)(c->rxbuf + off), n - off)) {
			const struct nlmsghdr *nlh = (const struct nlmsghdr *)(c->rxbuf + off);

			off += NLMSG_ALIGN(nlh->nlmsg_len);
			if (nlh->nlmsg_pid == 0)
				queue_notification(c, nlh);
		}
	}
}
