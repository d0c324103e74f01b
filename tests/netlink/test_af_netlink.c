// SPDX-License-Identifier: MIT
/*
 * The netlink core on its own (src/netlink/af_netlink.c): a protocol of this test's making
 * plugs in through netlink_kernel_create() exactly as generic netlink does, and gets requests,
 * ACKs, unicast and broadcast delivery, group counts, bind refusals and dumps from the core
 * alone.  That the core answers without generic netlink is the point: it knows no protocol.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "netlink/af_netlink.h"

#define ECHO_TYPE 0x42

struct echo_proto {
	struct kfsim_nl_sock *ksk;
	int requests, starts, steps, dones, released;
	int refuse_group;
};

static struct echo_proto *proto; /* the input callback has only the buffer */

/* Each request is answered with a copy of itself, from the kernel's port. */
static int echo_msg(struct sk_buff *skb, const struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack)
{
	struct sk_buff *reply = nlmsg_new(nlmsg_len(nlh), GFP_KERNEL);
	struct nlmsghdr *rep;

	proto->requests++;
	if ((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		return -EOPNOTSUPP; /* replaced by the dump test's input */
	if (nlh->nlmsg_type != ECHO_TYPE) {
		NL_SET_ERR_MSG(extack, "not an echo");
		nlmsg_free(reply);
		return -EINVAL;
	}
	assert_non_null(reply);
	rep = nlmsg_put(reply, NETLINK_CB(skb).portid, nlh->nlmsg_seq, ECHO_TYPE, nlmsg_len(nlh), 0);
	memcpy(nlmsg_data(rep), nlmsg_data(nlh), nlmsg_len(nlh));
	nlmsg_end(reply, rep);
	return netlink_unicast(proto->ksk, reply, NETLINK_CB(skb).portid);
}

static void echo_input(struct sk_buff *skb)
{
	netlink_rcv_skb(skb, echo_msg);
}

static int echo_bind(struct kfsim_nl_sock *sk, int group)
{
	(void)sk;
	return group == proto->refuse_group ? -EPERM : 0;
}

static void echo_release(void *data)
{
	((struct echo_proto *)data)->released++;
}

static int dump_start(struct netlink_callback *cb)
{
	struct echo_proto *p = cb->data;

	p->starts++;
	return 0;
}

/* Three steps of one message each, then the end. */
static int dump_step(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct echo_proto *p = cb->data;
	struct nlmsghdr *nlh;

	p->steps++;
	if (cb->args[0] == 3)
		return 0;
	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, ECHO_TYPE, 4,
			NLM_F_MULTI);
	memcpy(nlmsg_data(nlh), &cb->args[0], 4);
	nlmsg_end(skb, nlh);
	cb->args[0]++;
	return skb->len;
}

static int dump_done(struct netlink_callback *cb)
{
	((struct echo_proto *)cb->data)->dones++;
	return 0;
}

static int dump_msg(struct sk_buff *skb, const struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack)
{
	struct netlink_dump_control c = {
		.start = dump_start,
		.dump = dump_step,
		.done = dump_done,
		.data = proto,
		.module = proto,
	};

	return netlink_dump_start(proto->ksk, skb, nlh, &c, extack);
}

static void dump_input(struct sk_buff *skb)
{
	netlink_rcv_skb(skb, dump_msg);
}

struct env {
	struct kfsim_nl_kernel *net;
	struct echo_proto p;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct netlink_kernel_cfg cfg = {
		.input = echo_input,
		.flags = NL_CFG_F_NONROOT_RECV,
		.bind = echo_bind,
		.release = echo_release,
		.user_data = &e->p,
	};

	e->net = kfsim_netlink_net_create();
	assert_false(IS_ERR(e->net));
	e->p.ksk = netlink_kernel_create(e->net, NETLINK_GENERIC, &cfg);
	assert_non_null(e->p.ksk);
	e->p.refuse_group = -1;
	proto = &e->p;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_netlink_net_destroy(e->net);
	assert_int_equal(e->p.released, 1); /* the core released the protocol's socket */
	free(e);
	return 0;
}

static size_t put_request(u8 *buf, u16 type, u16 flags, u32 seq, const char *text)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t n = strlen(text) + 1;

	nlh->nlmsg_len = NLMSG_HDRLEN + n;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	memcpy(buf + NLMSG_HDRLEN, text, n);
	return NLMSG_ALIGN(nlh->nlmsg_len);
}

/* The protocol's input sees every request; the core ACKs what asked and what failed. */
static void test_requests_and_acks(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *sock = kfsim_nl_sock_open(e->net, &KFSIM_NL_CRED_USER);
	u8 req[256], buf[512];
	size_t len;
	ssize_t n;

	assert_false(IS_ERR(sock));
	assert_ptr_equal(kfsim_netlink_kernel_data(e->p.ksk), &e->p);
	assert_ptr_equal(kfsim_netlink_kernel_sock(e->net, NETLINK_GENERIC), e->p.ksk);
	/* a second kernel socket for the same protocol is refused */
	assert_null(netlink_kernel_create(e->net, NETLINK_GENERIC,
					  &(struct netlink_kernel_cfg){.input = echo_input}));
	kfsim_nl_sock_setsockopt(sock, NETLINK_EXT_ACK, 1);

	/* two requests in one buffer: an echo with an ACK, then a refused one */
	len = put_request(req, ECHO_TYPE, NLM_F_REQUEST | NLM_F_ACK, 1, "hello");
	len += put_request(req + len, GENL_ID_CTRL, NLM_F_REQUEST, 2, "nlctrl?");
	assert_int_equal(kfsim_nl_sock_send(sock, req, len), len);
	assert_int_equal(e->p.requests, 2);

	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_int_equal(n, NLMSG_ALIGN(NLMSG_HDRLEN + 6));
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, ECHO_TYPE);
	assert_string_equal((char *)buf + NLMSG_HDRLEN, "hello");
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, NLMSG_ERROR);
	assert_int_equal(((struct nlmsgerr *)NLMSG_DATA(buf))->error, 0);
	/* the core knows no generic netlink: nlctrl's id is just a type the protocol refused */
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(((struct nlmsgerr *)NLMSG_DATA(buf))->error, -EINVAL);
	assert_true(((struct nlmsghdr *)buf)->nlmsg_flags & NLM_F_ACK_TLVS);
	assert_int_equal(kfsim_nl_sock_recv(sock, buf, sizeof(buf)), -EAGAIN);

	/* a control message is only acknowledged; the protocol never sees it */
	len = put_request(req, NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, 3, "");
	assert_int_equal(kfsim_nl_sock_send(sock, req, len), len);
	assert_int_equal(e->p.requests, 2);
	assert_true(kfsim_nl_sock_recv(sock, buf, sizeof(buf)) > 0);
	assert_int_equal(((struct nlmsgerr *)NLMSG_DATA(buf))->error, 0);

	/* unicast to a port nobody holds */
	assert_int_equal(netlink_unicast(e->p.ksk, nlmsg_new(16, GFP_KERNEL), 999), -ECONNREFUSED);
	kfsim_nl_sock_close(sock);
}

static struct sk_buff *note(void)
{
	struct sk_buff *skb = nlmsg_new(8, GFP_KERNEL);

	nlmsg_end(skb, nlmsg_put(skb, 0, 0, ECHO_TYPE, 4, 0));
	return skb;
}

/* Groups: 1..ngroups (32 at creation, as the kernel rounds up), grown by the protocol. */
static void test_groups(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *a = kfsim_nl_sock_open(e->net, &KFSIM_NL_CRED_USER);
	struct kfsim_nl_sock *b = kfsim_nl_sock_open(e->net, &KFSIM_NL_CRED_USER);
	u8 buf[64];

	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 0), -EINVAL);
	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 32), 0);
	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 33), -EINVAL);
	assert_int_equal(kfsim_netlink_change_ngroups(e->p.ksk, 64), 0);
	assert_int_equal(kfsim_netlink_change_ngroups(e->p.ksk, 32), 0); /* never shrinks */
	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 64), 0);
	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 65), -EINVAL);
	/* the protocol's bind callback may refuse a join */
	e->p.refuse_group = 5;
	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 5), -EPERM);
	assert_false(kfsim_netlink_has_listeners(e->p.ksk, 5));

	assert_int_equal(kfsim_nl_sock_setsockopt(a, NETLINK_ADD_MEMBERSHIP, 3), 0);
	assert_int_equal(kfsim_nl_sock_setsockopt(b, NETLINK_ADD_MEMBERSHIP, 3), 0);
	assert_true(kfsim_netlink_has_listeners(e->p.ksk, 3));
	/* everyone in the group but the excluded port */
	assert_int_equal(netlink_broadcast(e->p.ksk, note(), kfsim_nl_sock_portid(b), 3,
					   GFP_KERNEL), 0);
	assert_true(kfsim_nl_sock_recv(a, buf, sizeof(buf)) > 0);
	assert_int_equal(kfsim_nl_sock_recv(b, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(netlink_broadcast(e->p.ksk, note(), 0, 4, GFP_KERNEL), -ESRCH);
	/* the group's owner leaves: its listeners are cleared */
	kfsim_netlink_clear_multicast_users(e->p.ksk, 3);
	assert_false(kfsim_netlink_has_listeners(e->p.ksk, 3));
	assert_int_equal(netlink_broadcast(e->p.ksk, note(), 0, 3, GFP_KERNEL), -ESRCH);
	kfsim_nl_sock_close(a);
	kfsim_nl_sock_close(b);
}

static void request_dump(struct kfsim_nl_sock *sock)
{
	u8 req[64];
	size_t len = put_request(req, ECHO_TYPE, NLM_F_REQUEST | NLM_F_DUMP, 7, "");

	assert_int_equal(kfsim_nl_sock_send(sock, req, len), len);
}

/* The setup's protocol (released once) makes way for one whose requests start dumps. */
static void dumping_proto(struct env *e)
{
	e->p.ksk = kfsim_netlink_kernel_sock(e->net, NETLINK_GENERIC);
	kfsim_netlink_kernel_release(e->p.ksk);
	assert_int_equal(e->p.released, 1);
	e->p.released = 0;
	e->p.ksk = netlink_kernel_create(e->net, NETLINK_GENERIC,
					 &(struct netlink_kernel_cfg){.input = dump_input,
								      .release = echo_release,
								      .user_data = &e->p});
	assert_non_null(e->p.ksk);
}

/* Dumps: started once, stepped as the reader empties its queue, done once, however it ends. */
static void test_dumps(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *sock = kfsim_nl_sock_open(e->net, &KFSIM_NL_CRED_USER);
	u8 buf[4096];
	int msgs = 0;
	ssize_t n;

	dumping_proto(e);

	request_dump(sock);
	assert_int_equal(e->p.starts, 1);
	assert_int_equal(e->p.steps, 1); /* the first step runs at once */
	while ((n = kfsim_nl_sock_recv(sock, buf, sizeof(buf))) > 0) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;

		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		assert_int_equal(nlh->nlmsg_type, ECHO_TYPE);
		msgs++;
	}
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, NLMSG_DONE);
	assert_int_equal(msgs, 3);
	assert_int_equal(e->p.dones, 1);

	/* a second dump while one runs is refused; closing the socket ends it */
	request_dump(sock);
	request_dump(sock);
	assert_int_equal(e->p.starts, 2);
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf)); /* the first step */
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf)); /* the refusal */
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, NLMSG_ERROR);
	assert_int_equal(((struct nlmsgerr *)NLMSG_DATA(buf))->error, -EBUSY);
	/* its owner can end it (an unregistered family's dumps) */
	kfsim_netlink_dump_abort_module(e->p.ksk, &e->p);
	assert_int_equal(e->p.dones, 2);
	request_dump(sock);
	kfsim_nl_sock_close(sock);
	assert_int_equal(e->p.dones, 3);
}

/*
 * kfsim_nl_sock_recv_queued(): what is queued, and never the next step of a running dump,
 * which kfsim_nl_sock_recv() runs when the queue is empty.
 */
static void test_recv_queued_leaves_the_dump(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *sock = kfsim_nl_sock_open(e->net, &KFSIM_NL_CRED_USER);
	u8 buf[4096];

	dumping_proto(e);
	assert_int_equal(kfsim_nl_sock_recv_queued(sock, buf, sizeof(buf)), -EAGAIN);
	request_dump(sock);
	assert_int_equal(e->p.steps, 1);
	/* the first step's buffer is queued: taken, and the dump stays where it was */
	assert_true(kfsim_nl_sock_recv_queued(sock, buf, sizeof(buf)) > 0);
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, ECHO_TYPE);
	assert_int_equal(kfsim_nl_sock_recv_queued(sock, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(kfsim_nl_sock_recv_queued(sock, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(e->p.steps, 1);
	assert_int_equal(e->p.dones, 0);
	/* the plain recv steps it on */
	assert_true(kfsim_nl_sock_recv(sock, buf, sizeof(buf)) > 0);
	assert_int_equal(e->p.steps, 2);
	kfsim_nl_sock_close(sock);
	assert_int_equal(e->p.dones, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_requests_and_acks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dumps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recv_queued_leaves_the_dump, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
