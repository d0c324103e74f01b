// SPDX-License-Identifier: MIT
/*
 * The in-process netlink core: the kernel object, its NETLINK_GENERIC sockets, the receive
 * loop, ACKs with extended ACK TLVs, dumps and multicast (net/netlink/af_netlink.c, 6.18).
 *
 * Invariants kept:
 *  - Every message a socket receives is queued as one buffer (one recvmsg() worth): a reply,
 *    an ACK, a notification or one dump step; recv hands them out in order.
 *  - At most one dump runs per socket; the next step runs only when the reader has emptied the
 *    queue, and the last step appends NLMSG_DONE to its buffer when it fits (else a buffer of
 *    its own), as netlink_dump() does.
 *  - An ACK's NLMSGERR_ATTR_OFFS / MISS_NEST is reported only when the pointer lies inside the
 *    request buffer (the kernel WARNs and omits it otherwise).
 *  - Not thread-safe: one thread uses a kernel and its sockets at a time.
 */
#include <kfsim/cmdline.h>
#include "nl_internal.h"

#define KFSIM_NL_SEND_MAX (64u * 1024u)

struct kfsim_nl_kernel *kfsim_nl_kernel_create(void)
{
	struct kfsim_nl_kernel *k = kzalloc(sizeof(*k), GFP_KERNEL);

	if (!k)
		return ERR_PTR(-ENOMEM);
	k->next_family_id = GENL_START_ALLOC;
	k->next_portid = 1;
	/* group ids 0, 1 and the three fixed families' ids are reserved */
	k->mcgrps_used[0] = 0x3 | BIT(GENL_ID_CTRL) | BIT(GENL_ID_VFS_DQUOT) | BIT(GENL_ID_PMCRAID);
	kfsim_genl_ctrl_init(&k->ctrl);
	if (kfsim_genl_family_register_locked(k, &k->ctrl, GENL_ID_CTRL)) {
		kfree(k);
		return ERR_PTR(-ENOMEM);
	}
	return k;
}

void kfsim_nl_kernel_destroy(struct kfsim_nl_kernel *k)
{
	if (!k)
		return;
	while (k->socks)
		kfsim_nl_sock_close(k->socks);
	while (k->families) {
		struct genl_family *family = k->families;

		kfsim_genl_unregister_family(family);
		if (family->destroy)
			family->destroy(family);
	}
	kfree(k);
}

struct kfsim_nl_sock *kfsim_nl_sock_open(struct kfsim_nl_kernel *k,
					 const struct kfsim_nl_cred *cred)
{
	struct kfsim_nl_sock *sock;

	if (!k || !cred)
		return ERR_PTR(-EINVAL);
	sock = kzalloc(sizeof(*sock), GFP_KERNEL);
	if (!sock)
		return ERR_PTR(-ENOMEM);
	sock->kernel = k;
	sock->cred = *cred;
	do {
		sock->portid = k->next_portid++;
	} while (!sock->portid || kfsim_nl_sock_find(k, sock->portid));
	sock->dump_size = KFSIM_NL_DUMP_SIZE_DEFAULT;
	sock->next = k->socks;
	k->socks = sock;
	return sock;
}

static void purge_queue(struct kfsim_nl_sock *sock)
{
	while (sock->rxq_head) {
		struct sk_buff *skb = sock->rxq_head;

		sock->rxq_head = skb->next;
		kfsim_skb_free(skb);
	}
	sock->rxq_tail = NULL;
}

void kfsim_nl_sock_close(struct kfsim_nl_sock *sock)
{
	struct kfsim_nl_sock **pp;

	if (!sock)
		return;
	kfsim_nl_dump_abort(sock);
	purge_queue(sock);
	for (pp = &sock->kernel->socks; *pp && *pp != sock; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = sock->next;
	kfree(sock);
}

u32 kfsim_nl_sock_portid(const struct kfsim_nl_sock *sock)
{
	return sock->portid;
}

int kfsim_nl_sock_bind(struct kfsim_nl_sock *sock, u32 portid)
{
	struct kfsim_nl_sock *other;

	if (!portid || portid == sock->portid)
		return 0;
	other = kfsim_nl_sock_find(sock->kernel, portid);
	if (other)
		return -EADDRINUSE;
	sock->portid = portid;
	return 0;
}

struct kfsim_nl_sock *kfsim_nl_sock_find(struct kfsim_nl_kernel *k, u32 portid)
{
	for (struct kfsim_nl_sock *s = k->socks; s; s = s->next)
		if (s->portid == portid)
			return s;
	return NULL;
}

/* The family owning multicast group @id, and the group's index in it. */
static const struct genl_family *group_owner(struct kfsim_nl_kernel *k, u32 id, unsigned int *idx)
{
	for (const struct genl_family *f = k->families; f; f = f->kfsim_next) {
		if (f->n_mcgrps && id >= f->mcgrp_offset && id < f->mcgrp_offset + f->n_mcgrps) {
			*idx = id - f->mcgrp_offset;
			return f;
		}
	}
	return NULL;
}

/* The kernel's genl group count: the group bitmap's size, whole longs. */
static u32 ngroups(const struct kfsim_nl_kernel *k)
{
	u32 longs = 1;

	for (u32 i = 0; i < ARRAY_SIZE(k->mcgrps_used); i++)
		if (k->mcgrps_used[i])
			longs = i + 1;
	return longs * 8 * sizeof(long);
}

int kfsim_nl_sock_setsockopt(struct kfsim_nl_sock *sock, int opt, u32 val)
{
	const struct genl_family *family;
	unsigned long bit;
	unsigned int idx;
	u8 flags;

	switch (opt) {
	case NETLINK_EXT_ACK:
		sock->ext_ack = val;
		return 0;
	case NETLINK_CAP_ACK:
		sock->cap_ack = val;
		return 0;
	case NETLINK_ADD_MEMBERSHIP:
	case NETLINK_DROP_MEMBERSHIP:
		break;
	default:
		return -ENOPROTOOPT;
	}
	/* netlink_setsockopt(): groups 1..ngroups, ngroups a multiple of BITS_PER_LONG */
	if (!val || val >= ngroups(sock->kernel))
		return -EINVAL;
	bit = 1UL << (val % (8 * sizeof(long)));
	if (opt == NETLINK_DROP_MEMBERSHIP) {
		sock->groups[val / (8 * sizeof(long))] &= ~bit;
		return 0;
	}
	/*
	 * genl_bind(): a group no family owns is joined and simply never hears anything.  The
	 * GENL_MCAST_CAP_* flags are enforced since Linux 6.6; older kernels let anyone join.
	 */
	family = group_owner(sock->kernel, val, &idx);
	if (family && kfsim_kernel_at_least(6, 6)) {
		flags = family->mcgrps[idx].flags;
		if ((flags & GENL_MCAST_CAP_NET_ADMIN) && !sock->cred.net_admin &&
		    !sock->cred.net_admin_netns)
			return -EPERM;
		if ((flags & GENL_MCAST_CAP_SYS_ADMIN) && !sock->cred.sys_admin)
			return -EPERM;
	}
	sock->groups[val / (8 * sizeof(long))] |= bit;
	return 0;
}

int kfsim_nl_sock_set_dump_size(struct kfsim_nl_sock *sock, size_t size)
{
	if (size < 128 || size > 65536)
		return -EINVAL;
	sock->dump_size = size;
	return 0;
}

void kfsim_nl_sock_queue(struct kfsim_nl_sock *sock, struct sk_buff *skb)
{
	skb->next = NULL;
	if (sock->rxq_tail)
		sock->rxq_tail->next = skb;
	else
		sock->rxq_head = skb;
	sock->rxq_tail = skb;
}

static bool in_buffer(const void *p, const void *buf, size_t len)
{
	return (const u8 *)p >= (const u8 *)buf && (const u8 *)p < (const u8 *)buf + len;
}

/* The size the extended ACK TLVs take (netlink_ack_tlv_len). */
static size_t ack_tlv_len(const struct netlink_ext_ack *extack, int err, const void *buf,
			  size_t len)
{
	size_t tlvlen = 0;

	if (extack->_msg)
		tlvlen += nla_total_size(strlen(extack->_msg) + 1);
	if (!err) {
		if (extack->cookie_len)
			tlvlen += nla_total_size(extack->cookie_len);
		return tlvlen;
	}
	if (extack->bad_attr && in_buffer(extack->bad_attr, buf, len))
		tlvlen += nla_total_size(sizeof(u32));
	if (extack->policy)
		tlvlen += 256; /* an upper bound for one policy description */
	if (extack->miss_type)
		tlvlen += nla_total_size(sizeof(u32));
	if (extack->miss_nest && in_buffer(extack->miss_nest, buf, len))
		tlvlen += nla_total_size(sizeof(u32));
	return tlvlen;
}

/* netlink_ack(): queue NLMSG_ERROR for the request @nlh that lies in [@buf, @buf + @len). */
static void netlink_ack(struct kfsim_nl_sock *sock, const void *buf, size_t len,
			const struct nlmsghdr *nlh, int err, const struct netlink_ext_ack *extack)
{
	size_t payload = sizeof(struct nlmsgerr), tlvlen = 0;
	struct nlmsgerr *errmsg;
	struct nlmsghdr *rep;
	struct sk_buff *skb;
	u16 flags = 0;

	if (err && !sock->cap_ack)
		payload += nlmsg_len(nlh);
	else
		flags |= NLM_F_CAPPED;
	if (sock->ext_ack)
		tlvlen = ack_tlv_len(extack, err, buf, len);
	if (tlvlen)
		flags |= NLM_F_ACK_TLVS;

	skb = nlmsg_new(payload + tlvlen, GFP_KERNEL);
	if (!skb)
		return; /* the kernel sets ENOBUFS on the socket; the reader sees nothing */
	rep = nlmsg_put(skb, sock->portid, nlh->nlmsg_seq, NLMSG_ERROR, sizeof(*errmsg), flags);
	errmsg = nlmsg_data(rep);
	errmsg->error = err;
	errmsg->msg = *nlh;
	if (!(flags & NLM_F_CAPPED)) {
		memcpy(skb_tail_pointer(skb), nlmsg_data(nlh), nlmsg_len(nlh));
		skb->len += NLMSG_ALIGN(nlmsg_len(nlh));
		errmsg->msg.nlmsg_len = nlh->nlmsg_len;
	}
	if (tlvlen) {
		if (extack->_msg)
			nla_put_string(skb, NLMSGERR_ATTR_MSG, extack->_msg);
		if (!err && extack->cookie_len)
			nla_put(skb, NLMSGERR_ATTR_COOKIE, extack->cookie_len, extack->cookie);
		if (err && extack->bad_attr && in_buffer(extack->bad_attr, buf, len))
			nla_put_u32(skb, NLMSGERR_ATTR_OFFS,
				    (const u8 *)extack->bad_attr - (const u8 *)nlh);
		if (err && extack->policy)
			kfsim_nla_policy_put(skb, extack->policy, NLMSGERR_ATTR_POLICY, -1);
		if (err && extack->miss_type)
			nla_put_u32(skb, NLMSGERR_ATTR_MISS_TYPE, extack->miss_type);
		if (err && extack->miss_nest && in_buffer(extack->miss_nest, buf, len))
			nla_put_u32(skb, NLMSGERR_ATTR_MISS_NEST,
				    (const u8 *)extack->miss_nest - (const u8 *)nlh);
	}
	nlmsg_end(skb, rep);
	kfsim_nl_sock_queue(sock, skb);
}

ssize_t kfsim_nl_sock_send(struct kfsim_nl_sock *sock, const void *buf, size_t len)
{
	const u8 *p = buf;
	size_t off = 0;
	u8 *copy;

	if (!sock || (!buf && len))
		return -EINVAL;
	if (len > KFSIM_NL_SEND_MAX)
		return -EMSGSIZE;
	/* The kernel works on its own copy: handlers may keep pointers into the request. */
	copy = kmalloc(len ? len : 1, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, p, len);

	while (len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(copy + off);
		struct netlink_ext_ack extack;
		size_t msglen;
		int err = 0;

		memset(&extack, 0, sizeof(extack));
		if (nlh->nlmsg_len < NLMSG_HDRLEN || len - off < nlh->nlmsg_len)
			break;
		if (!(nlh->nlmsg_flags & NLM_F_REQUEST) || nlh->nlmsg_type < NLMSG_MIN_TYPE)
			goto ack;
		err = kfsim_genl_rcv_msg(sock, nlh, &extack);
		if (err == -EINTR) /* a dump started: it answers with NLMSG_DONE, not an ACK */
			goto skip;
	ack:
		if ((nlh->nlmsg_flags & NLM_F_ACK) || err)
			netlink_ack(sock, copy, len, nlh, err, &extack);
	skip:
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len - off)
			msglen = len - off;
		off += msglen;
	}
	kfree(copy);
	return len;
}

static void dump_free(struct kfsim_nl_dump *d)
{
	kfree(d->attrs);
	kfsim_skb_free(d->req);
	kfree(d);
}

void kfsim_nl_dump_abort(struct kfsim_nl_sock *sock)
{
	struct kfsim_nl_dump *d = sock->dump;

	if (!d)
		return;
	if (d->info.op.done)
		d->info.op.done(&d->cb);
	sock->dump = NULL;
	dump_free(d);
}

/* netlink_dump(): one step; Return: 0, or -ENOMEM when no buffer could be had. */
static int dump_step(struct kfsim_nl_sock *sock)
{
	struct kfsim_nl_dump *d = sock->dump;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	skb = kfsim_skb_alloc(max_t(size_t, sock->dump_size, d->cb.min_dump_alloc), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	skb->cb.portid = sock->portid;
	if (d->done_errno > 0) {
		d->done_errno = d->info.op.dumpit(skb, &d->cb);
		/* A dump that makes no progress into an empty buffer would spin for ever. */
		if (d->done_errno > 0 && skb->len == 0)
			d->done_errno = -EMSGSIZE;
	}
	if (d->done_errno > 0 ||
	    skb_tailroom(skb) < (unsigned int)nlmsg_total_size(sizeof(d->done_errno))) {
		kfsim_nl_sock_queue(sock, skb);
		return 0;
	}
	nlh = nlmsg_put(skb, sock->portid, d->cb.nlh->nlmsg_seq, NLMSG_DONE, sizeof(d->done_errno),
			NLM_F_MULTI | d->cb.answer_flags);
	memcpy(nlmsg_data(nlh), &d->done_errno, sizeof(d->done_errno));
	if (d->extack._msg && sock->ext_ack) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		if (!nla_put_string(skb, NLMSGERR_ATTR_MSG, d->extack._msg))
			nlmsg_end(skb, nlh);
	}
	kfsim_nl_sock_queue(sock, skb);
	kfsim_nl_dump_abort(sock);
	return 0;
}

int kfsim_nl_dump_start(struct kfsim_nl_sock *sock, const struct nlmsghdr *nlh,
			const struct genl_family *family, const struct genl_split_ops *op,
			int hdrlen, struct netlink_ext_ack *extack)
{
	struct kfsim_nl_dump *d;
	int err;

	if (sock->dump)
		return -EBUSY;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->req = kfsim_skb_alloc(nlh->nlmsg_len, GFP_KERNEL);
	if (!d->req) {
		kfree(d);
		return -ENOMEM;
	}
	memcpy(d->req->data, nlh, nlh->nlmsg_len);
	d->req->len = nlh->nlmsg_len;
	d->req->cb.portid = sock->portid;
	d->family = family;
	d->cb.skb = d->req;
	d->cb.nlh = nlmsg_hdr(d->req);
	d->cb.family = family->id;
	d->done_errno = 1;
	/* Offsets reported for errors found now must point into the caller's buffer. */
	err = kfsim_genl_dump_prepare(d, op, hdrlen, sock->portid, extack);
	if (err) {
		if (extack->bad_attr && in_buffer(extack->bad_attr, d->req->data, d->req->len))
			extack->bad_attr = (const struct nlattr *)((const u8 *)nlh +
								   ((const u8 *)extack->bad_attr -
								    d->req->data));
		if (extack->miss_nest && in_buffer(extack->miss_nest, d->req->data, d->req->len))
			extack->miss_nest = (const struct nlattr *)((const u8 *)nlh +
								    ((const u8 *)extack->miss_nest -
								     d->req->data));
		dump_free(d);
		return err;
	}
	sock->dump = d;
	err = dump_step(sock);
	if (err)
		return err;
	return -EINTR;
}

ssize_t kfsim_nl_sock_recv(struct kfsim_nl_sock *sock, void *buf, size_t len)
{
	struct sk_buff *skb;
	size_t n;

	if (!sock || (!buf && len))
		return -EINVAL;
	if (!sock->rxq_head && sock->dump) {
		int err = dump_step(sock);

		if (err)
			return err;
	}
	skb = sock->rxq_head;
	if (!skb)
		return -EAGAIN;
	sock->rxq_head = skb->next;
	if (!sock->rxq_head)
		sock->rxq_tail = NULL;
	n = skb->len;
	memcpy(buf, skb->data, min(n, len));
	kfsim_skb_free(skb);
	return n;
}

int kfsim_genlmsg_reply(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_sock *sock = info->kfsim_sock;

	if (!sock) {
		kfsim_skb_free(skb);
		return -ECONNREFUSED;
	}
	kfsim_nl_sock_queue(sock, skb);
	return 0;
}

int kfsim_genlmsg_multicast(const struct genl_family *family, struct sk_buff *skb, u32 portid,
			    unsigned int group, gfp_t flags)
{
	struct kfsim_nl_kernel *k = family->kfsim_kernel;
	int delivered = 0;
	unsigned int id;

	if (!k || WARN_ON_ONCE(group >= family->n_mcgrps)) {
		kfsim_skb_free(skb);
		return -EINVAL;
	}
	id = family->mcgrp_offset + group;
	for (struct kfsim_nl_sock *s = k->socks; s; s = s->next) {
		struct sk_buff *copy;

		if (s->portid == portid ||
		    !(s->groups[id / (8 * sizeof(long))] & (1UL << (id % (8 * sizeof(long))))))
			continue;
		copy = kfsim_skb_alloc(skb->len, flags);
		if (!copy)
			continue; /* that reader overruns, as with ENOBUFS */
		memcpy(copy->data, skb->data, skb->len);
		copy->len = skb->len;
		copy->cb.dst_group = id;
		kfsim_nl_sock_queue(s, copy);
		delivered++;
	}
	kfsim_skb_free(skb);
	return delivered ? 0 : -ESRCH;
}
