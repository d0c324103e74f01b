// SPDX-License-Identifier: MIT
/*
 * The netlink core (net/netlink/af_netlink.c, 6.18): namespaces' socket tables, user sockets
 * and the kernel sockets protocols create with netlink_kernel_create(), delivery (unicast,
 * broadcast to groups), the receive loop with its ACKs and extended ACK TLVs, and dumps.  It
 * names no protocol: generic netlink is one cfg.input among possible others (genl_kernel.c).
 *
 * Invariants kept:
 *  - Every message a socket receives is queued as one buffer (one recvmsg() worth): a reply,
 *    an ACK, a notification or one dump step; recv hands them out in order.
 *  - At most one dump runs per socket; the next step runs only when the reader has emptied the
 *    queue, and the last step appends NLMSG_DONE to its buffer when it fits (else a buffer of
 *    its own), as netlink_dump() does.
 *  - An ACK's NLMSGERR_ATTR_OFFS / MISS_NEST is reported only when the pointer lies inside the
 *    request buffer (the kernel WARNs and omits it otherwise).
 *  - A protocol's group count only grows (netlink_change_ngroups()); a socket joins 1..ngroups.
 *  - Not thread-safe: one thread uses a kernel and its sockets at a time.
 */
#include "af_netlink.h"

#define KFSIM_NL_SEND_MAX (64u * 1024u)
#define GROUP_LONGS (KFSIM_NL_MAX_GROUPS / BITS_PER_LONG)

/* A running dump: the kernel's nlk->cb and what netlink_dump() keeps beside it. */
struct netlink_dump {
	struct netlink_callback cb;
	struct netlink_dump_control control;
	struct netlink_ext_ack extack; /* the steps' extack: its message goes with NLMSG_DONE */
	struct sk_buff *req;	       /* a private copy of the request message */
	int done_errno;		       /* > 0 while the dump goes on */
};

/* struct netlink_sock: a user socket, or (@kernel_cfg set) a protocol's kernel socket. */
struct kfsim_nl_sock {
	struct kfsim_nl_kernel *net;
	int protocol;
	struct kfsim_nl_cred cred;	/* the opener's: the file's f_cred */
	struct kfsim_nl_cred sender;	/* the calling task's (current_cred()) */
	u32 portid;
	bool ext_ack;
	bool cap_ack;
	size_t dump_size;
	unsigned long groups[GROUP_LONGS];
	struct sk_buff *rxq_head, *rxq_tail;
	struct netlink_dump *dump;
	struct kfsim_nl_sock *next;
	/* kernel sockets */
	bool kernel_sock;
	struct netlink_kernel_cfg cfg;
	unsigned int ngroups; /* nl_table[protocol].groups */
};

/* A namespace's netlink: its user sockets and one kernel socket per protocol. */
struct kfsim_nl_kernel {
	struct kfsim_nl_sock *socks;
	u32 next_portid;
	struct kfsim_nl_sock *ksk[KFSIM_NL_MAX_LINKS];
};

struct kfsim_nl_kernel *kfsim_netlink_net_create(void)
{
	struct kfsim_nl_kernel *net = kzalloc(sizeof(*net), GFP_KERNEL);

	if (!net)
		return ERR_PTR(-ENOMEM);
	net->next_portid = 1;
	return net;
}

void kfsim_netlink_net_destroy(struct kfsim_nl_kernel *net)
{
	if (!net)
		return;
	while (net->socks)
		kfsim_nl_sock_close(net->socks);
	for (unsigned int unit = 0; unit < ARRAY_SIZE(net->ksk); unit++)
		kfsim_netlink_kernel_release(net->ksk[unit]);
	kfree(net);
}

struct kfsim_nl_sock *kfsim_netlink_kernel_create(struct kfsim_nl_kernel *net, int unit,
						  const struct netlink_kernel_cfg *cfg)
{
	struct kfsim_nl_sock *ksk;

	if (!net || !cfg || unit < 0 || unit >= KFSIM_NL_MAX_LINKS || net->ksk[unit])
		return NULL;
	ksk = kzalloc(sizeof(*ksk), GFP_KERNEL);
	if (!ksk)
		return NULL;
	ksk->net = net;
	ksk->protocol = unit;
	ksk->kernel_sock = true;
	ksk->cfg = *cfg;
	/* __netlink_kernel_create(): at least 32 groups */
	ksk->ngroups = min_t(unsigned int, max_t(unsigned int, cfg->groups, 32), KFSIM_NL_MAX_GROUPS);
	net->ksk[unit] = ksk;
	return ksk;
}

void kfsim_netlink_kernel_release(struct kfsim_nl_sock *ksk)
{
	if (!ksk)
		return;
	ksk->net->ksk[ksk->protocol] = NULL;
	if (ksk->cfg.release)
		ksk->cfg.release(ksk->cfg.user_data);
	kfree(ksk);
}

struct kfsim_nl_sock *kfsim_netlink_kernel_sock(const struct kfsim_nl_kernel *net, int unit)
{
	if (!net || unit < 0 || unit >= KFSIM_NL_MAX_LINKS)
		return NULL;
	return net->ksk[unit];
}

void *kfsim_netlink_kernel_data(const struct kfsim_nl_sock *ksk)
{
	return ksk ? ksk->cfg.user_data : NULL;
}

struct kfsim_nl_kernel *kfsim_netlink_sock_net(const struct kfsim_nl_sock *sk)
{
	return sk->net;
}

/* ns_capable() on one set of credentials: the server's namespace, or (@net) the socket's. */
static bool cred_capable(const struct kfsim_nl_cred *cred, int cap, bool net)
{
	switch (cap) {
	case CAP_NET_ADMIN:
		return cred->net_admin || (net && cred->net_admin_netns);
	case CAP_SYS_ADMIN:
		return cred->sys_admin;
	default:
		return false;
	}
}

/*
 * netlink_ns_capable(): file_ns_capable() on the opener's credentials and ns_capable() on the
 * sending task's; both must hold @cap.
 */
bool kfsim_netlink_sock_capable(const struct kfsim_nl_sock *sk, int cap)
{
	return cred_capable(&sk->cred, cap, false) && cred_capable(&sk->sender, cap, false);
}

bool kfsim_netlink_sock_net_capable(const struct kfsim_nl_sock *sk, int cap)
{
	return cred_capable(&sk->cred, cap, true) && cred_capable(&sk->sender, cap, true);
}

void kfsim_nl_sock_set_sender(struct kfsim_nl_sock *sock, const struct kfsim_nl_cred *sender)
{
	if (sock)
		sock->sender = sender ? *sender : sock->cred;
}

/* netlink_lookup(): the user socket of @protocol bound to @portid. */
static struct kfsim_nl_sock *netlink_lookup(const struct kfsim_nl_kernel *net, int protocol,
					    u32 portid)
{
	for (struct kfsim_nl_sock *s = net->socks; s; s = s->next)
		if (s->protocol == protocol && s->portid == portid)
			return s;
	return NULL;
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
	sock->net = k;
	sock->protocol = NETLINK_GENERIC;
	sock->cred = *cred;
	sock->sender = *cred;	/* the opener sends, until told otherwise */
	do {
		sock->portid = k->next_portid++;
	} while (!sock->portid || netlink_lookup(k, sock->protocol, sock->portid));
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

static void dump_free(struct netlink_dump *d)
{
	kfsim_skb_free(d->req);
	kfree(d);
}

/* The dump ends (finished or abandoned): its done callback, then its state goes. */
static void dump_end(struct kfsim_nl_sock *sock)
{
	struct netlink_dump *d = sock->dump;

	if (!d)
		return;
	sock->dump = NULL;
	if (d->control.done)
		d->control.done(&d->cb);
	dump_free(d);
}

void kfsim_nl_sock_close(struct kfsim_nl_sock *sock)
{
	struct kfsim_nl_sock **pp;

	if (!sock)
		return;
	dump_end(sock);
	purge_queue(sock);
	for (pp = &sock->net->socks; *pp && *pp != sock; pp = &(*pp)->next)
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
	if (!portid || portid == sock->portid)
		return 0;
	if (netlink_lookup(sock->net, sock->protocol, portid))
		return -EADDRINUSE;
	sock->portid = portid;
	return 0;
}

static bool in_group(const struct kfsim_nl_sock *s, unsigned int group)
{
	return group < KFSIM_NL_MAX_GROUPS &&
	       (s->groups[group / BITS_PER_LONG] & (1UL << (group % BITS_PER_LONG)));
}

int kfsim_nl_sock_setsockopt(struct kfsim_nl_sock *sock, int opt, u32 val)
{
	struct kfsim_nl_sock *ksk;
	unsigned long bit;
	int err;

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
	/* netlink_setsockopt(): groups 1..ngroups of the protocol, its bind callback consulted */
	ksk = sock->net->ksk[sock->protocol];
	if (!ksk)
		return -EINVAL;
	if (!(ksk->cfg.flags & NL_CFG_F_NONROOT_RECV) &&
	    !kfsim_netlink_sock_net_capable(sock, CAP_NET_ADMIN))
		return -EPERM;
	if (!val || val - 1 >= ksk->ngroups)
		return -EINVAL;
	bit = 1UL << (val % BITS_PER_LONG);
	if (opt == NETLINK_DROP_MEMBERSHIP) {
		sock->groups[val / BITS_PER_LONG] &= ~bit;
		return 0;
	}
	if (ksk->cfg.bind) {
		err = ksk->cfg.bind(sock, val);
		if (err)
			return err;
	}
	sock->groups[val / BITS_PER_LONG] |= bit;
	return 0;
}

int kfsim_nl_sock_set_dump_size(struct kfsim_nl_sock *sock, size_t size)
{
	if (size < 128 || size > 65536)
		return -EINVAL;
	sock->dump_size = size;
	return 0;
}

static void sock_queue(struct kfsim_nl_sock *sock, struct sk_buff *skb)
{
	skb->next = NULL;
	if (sock->rxq_tail)
		sock->rxq_tail->next = skb;
	else
		sock->rxq_head = skb;
	sock->rxq_tail = skb;
}

int kfsim_netlink_unicast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid)
{
	struct kfsim_nl_sock *sock = netlink_lookup(ssk->net, ssk->protocol, portid);

	if (!sock) {
		kfsim_skb_free(skb);
		return -ECONNREFUSED;
	}
	sock_queue(sock, skb);
	return 0;
}

int kfsim_netlink_broadcast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid, u32 group,
			    gfp_t allocation)
{
	int delivered = 0;

	for (struct kfsim_nl_sock *s = ssk->net->socks; s; s = s->next) {
		struct sk_buff *copy;

		if (s->protocol != ssk->protocol || s->portid == portid || !in_group(s, group))
			continue;
		copy = kfsim_skb_alloc(skb->len, allocation);
		if (!copy)
			continue; /* that reader overruns, as with ENOBUFS */
		memcpy(copy->data, skb->data, skb->len);
		copy->len = skb->len;
		copy->cb.dst_group = group;
		sock_queue(s, copy);
		delivered++;
	}
	kfsim_skb_free(skb);
	return delivered ? 0 : -ESRCH;
}

bool kfsim_netlink_has_listeners(const struct kfsim_nl_sock *ksk, unsigned int group)
{
	for (const struct kfsim_nl_sock *s = ksk->net->socks; s; s = s->next)
		if (s->protocol == ksk->protocol && in_group(s, group))
			return true;
	return false;
}

int kfsim_netlink_change_ngroups(struct kfsim_nl_sock *ksk, unsigned int groups)
{
	if (groups > KFSIM_NL_MAX_GROUPS)
		return -ENOMEM;
	if (groups > ksk->ngroups)
		ksk->ngroups = groups;
	return 0;
}

void kfsim_netlink_clear_multicast_users(struct kfsim_nl_sock *ksk, unsigned int group)
{
	if (group >= KFSIM_NL_MAX_GROUPS)
		return;
	for (struct kfsim_nl_sock *s = ksk->net->socks; s; s = s->next)
		if (s->protocol == ksk->protocol)
			s->groups[group / BITS_PER_LONG] &= ~(1UL << (group % BITS_PER_LONG));
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

/* netlink_ack(): queue NLMSG_ERROR for the request @nlh, which lies in @in_skb. */
static void netlink_ack(struct sk_buff *in_skb, const struct nlmsghdr *nlh, int err,
			const struct netlink_ext_ack *extack)
{
	struct kfsim_nl_sock *sock = NETLINK_CB(in_skb).sk;
	const void *buf = in_skb->data;
	size_t len = in_skb->len;
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
	sock_queue(sock, skb);
}

int kfsim_netlink_rcv_skb(struct sk_buff *skb,
			  int (*cb)(struct sk_buff *skb, const struct nlmsghdr *nlh,
				    struct netlink_ext_ack *extack))
{
	size_t off = 0, len = skb->len;

	while (len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(skb->data + off);
		struct netlink_ext_ack extack;
		size_t msglen;
		int err = 0;

		memset(&extack, 0, sizeof(extack));
		if (nlh->nlmsg_len < NLMSG_HDRLEN || len - off < nlh->nlmsg_len)
			break;
		if (!(nlh->nlmsg_flags & NLM_F_REQUEST) || nlh->nlmsg_type < NLMSG_MIN_TYPE)
			goto ack;
		err = cb(skb, nlh, &extack);
		if (err == -EINTR) /* a dump started: it answers with NLMSG_DONE, not an ACK */
			goto skip;
	ack:
		if ((nlh->nlmsg_flags & NLM_F_ACK) || err)
			netlink_ack(skb, nlh, err, &extack);
	skip:
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len - off)
			msglen = len - off;
		off += msglen;
	}
	return 0;
}

ssize_t kfsim_nl_sock_send(struct kfsim_nl_sock *sock, const void *buf, size_t len)
{
	struct kfsim_nl_sock *ksk;
	struct sk_buff *skb;

	if (!sock || (!buf && len))
		return -EINVAL;
	if (len > KFSIM_NL_SEND_MAX)
		return -EMSGSIZE;
	/* The kernel works on its own copy: handlers may keep pointers into the request. */
	skb = kfsim_skb_alloc(len, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	if (len)
		memcpy(skb->data, buf, len);
	skb->len = len;
	NETLINK_CB(skb).portid = sock->portid;
	NETLINK_CB(skb).sk = sock;
	/* netlink_unicast() to the kernel socket: its protocol's input runs now */
	ksk = sock->net->ksk[sock->protocol];
	if (!ksk || !ksk->cfg.input) {
		kfsim_skb_free(skb);
		return -ECONNREFUSED;
	}
	ksk->cfg.input(skb);
	kfsim_skb_free(skb);
	return len;
}

/* netlink_dump(): one step; Return: 0, or -ENOMEM when no buffer could be had. */
static int dump_step(struct kfsim_nl_sock *sock)
{
	struct netlink_dump *d = sock->dump;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	skb = kfsim_skb_alloc(max_t(size_t, sock->dump_size, d->cb.min_dump_alloc), GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	skb->cb.portid = sock->portid;
	if (d->done_errno > 0) {
		d->done_errno = d->control.dump(skb, &d->cb);
		/* A dump that makes no progress into an empty buffer would spin for ever. */
		if (d->done_errno > 0 && skb->len == 0)
			d->done_errno = -EMSGSIZE;
	}
	if (d->done_errno > 0 ||
	    skb_tailroom(skb) < (unsigned int)nlmsg_total_size(sizeof(d->done_errno))) {
		sock_queue(sock, skb);
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
	sock_queue(sock, skb);
	dump_end(sock);
	return 0;
}

/* A pointer the start callback reported into the dump's copy, moved into the request @nlh. */
static const struct nlattr *to_request(const struct nlattr *p, const struct sk_buff *copy,
				       const struct nlmsghdr *nlh)
{
	if (!p || !in_buffer(p, copy->data, copy->len))
		return p;
	return (const struct nlattr *)((const u8 *)nlh + ((const u8 *)p - copy->data));
}

int kfsim_netlink_dump_start(struct kfsim_nl_sock *ssk, struct sk_buff *skb,
			     const struct nlmsghdr *nlh, const struct netlink_dump_control *control,
			     struct netlink_ext_ack *extack)
{
	struct kfsim_nl_sock *sock = NETLINK_CB(skb).sk;
	struct netlink_dump *d;
	int err;

	if (!sock || sock->net != ssk->net || !control->dump)
		return -ECONNREFUSED;
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
	d->req->cb.sk = sock;
	d->control = *control;
	d->cb.skb = d->req;
	d->cb.nlh = nlmsg_hdr(d->req);
	d->cb.data = control->data;
	d->cb.min_dump_alloc = control->min_dump_alloc;
	d->done_errno = 1;
	if (control->start) {
		d->cb.extack = extack;
		err = control->start(&d->cb);
		if (err) {
			/* Offsets reported for errors found now must point into the request. */
			extack->bad_attr = to_request(extack->bad_attr, d->req, nlh);
			extack->miss_nest = to_request(extack->miss_nest, d->req, nlh);
			dump_free(d);
			return err;
		}
	}
	/* The steps run later, from recv, with the dump's own extack. */
	d->cb.extack = &d->extack;
	sock->dump = d;
	err = dump_step(sock);
	if (err)
		return err;
	return -EINTR;
}

void kfsim_netlink_dump_abort_module(struct kfsim_nl_sock *ksk, const void *module)
{
	for (struct kfsim_nl_sock *s = ksk->net->socks; s; s = s->next)
		if (s->protocol == ksk->protocol && s->dump && s->dump->control.module == module)
			dump_end(s);
}

/* The next queued buffer into @buf; a running dump's next step first when @step_dump. */
static ssize_t sock_recv(struct kfsim_nl_sock *sock, void *buf, size_t len, bool step_dump)
{
	struct sk_buff *skb;
	size_t n;

	if (!sock || (!buf && len))
		return -EINVAL;
	if (step_dump && !sock->rxq_head && sock->dump) {
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

ssize_t kfsim_nl_sock_recv(struct kfsim_nl_sock *sock, void *buf, size_t len)
{
	return sock_recv(sock, buf, len, true);
}

ssize_t kfsim_nl_sock_recv_queued(struct kfsim_nl_sock *sock, void *buf, size_t len)
{
	return sock_recv(sock, buf, len, false);
}
