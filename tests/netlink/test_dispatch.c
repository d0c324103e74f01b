// SPDX-License-Identifier: MIT
/*
 * The in-process generic netlink kernel end to end: family resolution, header checks,
 * permissions, validation errors as NLMSG_ERROR with extack TLVs, ACK formats, dumps across
 * several buffers, notifications, nlctrl's policy dumps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_demo.h>

struct env {
	struct kfsim_nl_kernel *k;
	struct kfsim_nl_client *root;
	u16 demo_id;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct kfsim_nl_family_info info;

	e->k = kfsim_nl_kernel_create();
	assert_false(IS_ERR(e->k));
	assert_int_equal(kfsim_nl_demo_register(e->k), 0);
	e->root = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_ROOT);
	assert_false(IS_ERR(e->root));
	assert_int_equal(kfsim_nl_resolve(e->root, KFSIM_DEMO_FAMILY_NAME, &info, NULL), 0);
	e->demo_id = info.id;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_nl_client_close(e->root);
	kfsim_nl_kernel_destroy(e->k);
	free(e);
	return 0;
}

/* A request for family @type, command @cmd, flags @flags; attributes added by the caller. */
static struct sk_buff *req(u16 type, u8 cmd, u16 flags)
{
	struct sk_buff *skb = nlmsg_new(1024, GFP_KERNEL);
	struct nlmsghdr *nlh = nlmsg_put(skb, 0, 0, type, GENL_HDRLEN, NLM_F_REQUEST | flags);
	struct genlmsghdr *g = nlmsg_data(nlh);

	g->cmd = cmd;
	g->version = 1;
	return skb;
}

static int send_req(struct kfsim_nl_client *c, struct sk_buff *skb, kfsim_nl_msg_cb cb, void *arg,
		    struct kfsim_nl_error *err)
{
	int ret;

	nlmsg_end(skb, nlmsg_hdr(skb));
	ret = kfsim_nl_request(c, nlmsg_hdr(skb), cb, arg, err);
	nlmsg_free(skb);
	return ret;
}

static int set_object(struct env *e, struct kfsim_nl_client *c, u32 id, const char *name,
		      struct kfsim_nl_error *err)
{
	struct sk_buff *skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, 0);

	nla_put_u32(skb, KFSIM_DEMO_A_ID, id);
	if (name)
		nla_put_string(skb, KFSIM_DEMO_A_NAME, name);
	return send_req(c, skb, NULL, NULL, err);
}

static int count_cb(const struct nlmsghdr *nlh, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static int get_object(struct env *e, struct kfsim_nl_client *c, u32 id)
{
	struct sk_buff *skb = req(e->demo_id, KFSIM_DEMO_CMD_GET, 0);
	int n = 0, ret;

	nla_put_u32(skb, KFSIM_DEMO_A_ID, id);
	ret = send_req(c, skb, count_cb, &n, NULL);
	return ret ? ret : n;
}

static void test_resolve_families(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_family_info info;
	struct kfsim_nl_error err;

	assert_int_equal(kfsim_nl_resolve(e->root, "nlctrl", &info, NULL), 0);
	assert_int_equal(info.id, GENL_ID_CTRL);
	assert_int_equal(info.version, 2);
	assert_int_equal(info.maxattr, 0);
	assert_int_equal(info.nr_ops, 2);
	assert_int_equal(info.ops[0].cmd, CTRL_CMD_GETFAMILY);
	assert_int_equal(info.ops[0].flags,
			 GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL);
	assert_int_equal(info.ops[1].cmd, CTRL_CMD_GETPOLICY);
	assert_int_equal(info.ops[1].flags, GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL);
	assert_int_equal(info.nr_mcgrps, 1);
	assert_string_equal(info.mcgrps[0].name, "notify");
	assert_int_equal(info.mcgrps[0].id, GENL_ID_CTRL);

	assert_int_equal(kfsim_nl_resolve(e->root, KFSIM_DEMO_FAMILY_NAME, &info, NULL), 0);
	assert_int_equal(info.id, 0x13);
	assert_int_equal(info.nr_ops, 3);
	assert_int_equal(info.ops[1].flags,
			 GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL | GENL_ADMIN_PERM);
	assert_int_equal(info.ops[2].flags,
			 GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL | GENL_UNS_ADMIN_PERM);
	assert_int_equal(info.mcgrps[0].id, 2);

	assert_int_equal(kfsim_nl_resolve(e->root, "nosuchfamily", &info, &err), -ENOENT);
	assert_int_equal(err.error, -ENOENT);
	assert_string_equal(err.msg, "");
}

static void test_unknown_family_and_op(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;

	assert_int_equal(send_req(e->root, req(0x7ff, 1, 0), NULL, NULL, &err), -ENOENT);
	assert_true(err.capped);
	assert_int_equal(send_req(e->root, req(e->demo_id, 99, 0), NULL, NULL, &err), -EOPNOTSUPP);
	/* GET has a dump half, DEL has not */
	assert_int_equal(send_req(e->root, req(e->demo_id, KFSIM_DEMO_CMD_DEL, NLM_F_DUMP), NULL,
				  NULL, &err),
			 -EOPNOTSUPP);
}

static void test_header_checks(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;
	struct sk_buff *skb;

	skb = req(e->demo_id, KFSIM_DEMO_CMD_GET, 0);
	((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(skb)))->reserved = 1;
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "genlmsghdr.reserved field is not 0");

	skb = req(e->demo_id, KFSIM_DEMO_CMD_GET, NLM_F_APPEND);
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "ambiguous or reserved bits set in nlmsg_flags");

	/* before Linux 6.1 nothing looked at either: the op runs (and misses its ID) */
	{
		unsigned int old = kfsim_kernel_version();

		kfsim_set_kernel_version(KERNEL_VERSION(6, 0, 0));
		skb = req(e->demo_id, KFSIM_DEMO_CMD_GET, NLM_F_APPEND);
		((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(skb)))->reserved = 1;
		assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
		assert_true(err.has_miss_type);
		kfsim_set_kernel_version(old);
	}

	/* nlctrl's GETFAMILY predates resv_start_op: reserved bits pass */
	skb = req(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_APPEND);
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, "nlctrl");
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), 0);

	/* shorter than the genetlink header */
	skb = nlmsg_new(16, GFP_KERNEL);
	nlmsg_put(skb, 0, 0, e->demo_id, 2, NLM_F_REQUEST);
	nlmsg_hdr(skb)->nlmsg_len = 18;
	assert_int_equal(kfsim_nl_request(e->root, nlmsg_hdr(skb), NULL, NULL, &err), -EINVAL);
	nlmsg_free(skb);
	assert_string_equal(err.msg, "");
}

static void test_validation_errors_in_ack(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;
	struct sk_buff *skb;

	skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 1);
	nla_put_u16(skb, KFSIM_DEMO_A_PORT, 2000);
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -ERANGE);
	assert_string_equal(err.msg, "integer out of range");
	assert_true(err.has_offs);
	assert_int_equal(err.offs, 16 + 4 + 8);
	assert_true(err.policy_len > 0);
	/* u16 range 1..1023 as the kernel writes it: MIN_U, MAX_U, TYPE */
	{
		static const u8 expected[] = {0x24, 0x00, 0x01,
					      0x80, 0x0c, 0x00,
					      0x04, 0x00, 1,
					      0,    0,	  0,
					      0,    0,	  0,
					      0,    0x0c, 0x00,
					      0x05, 0x00, 0xff,
					      0x03, 0,	  0,
					      0,    0,	  0,
					      0,    0x08, 0x00,
					      0x01, 0x00, NL_ATTR_TYPE_U16,
					      0,    0,	  0};
		(void)expected;
		assert_int_equal(err.policy_len, 32);
		assert_memory_equal(err.policy, expected + 4, 32);
	}
	assert_int_equal(get_object(e, e->root, 1), -ENOENT); /* nothing was created */

	skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, 0);
	nla_put_string(skb, KFSIM_DEMO_A_NAME, "x");
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "");
	assert_true(err.has_miss_type);
	assert_int_equal(err.miss_type, KFSIM_DEMO_A_ID);
	assert_false(err.has_miss_nest);

	skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 1);
	{
		struct nlattr *nest = nla_nest_start(skb, KFSIM_DEMO_A_LINK);

		nla_put_u16(skb, KFSIM_DEMO_LINK_A_WEIGHT, 1);
		nla_nest_end(skb, nest);
	}
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
	assert_true(err.has_miss_type);
	assert_int_equal(err.miss_type, KFSIM_DEMO_LINK_A_PEER);
	assert_true(err.has_miss_nest);
	assert_int_equal(err.miss_nest, 16 + 4 + 8);

	skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 1);
	nla_put_u32(skb, KFSIM_DEMO_A_LEGACY, 1);
	assert_int_equal(send_req(e->root, skb, NULL, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "use KFSIM_DEMO_A_NAME instead");
	assert_int_equal(err.policy_len, 0);
}

static void test_admin_permission(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_cred netns = {.net_admin_netns = true};
	struct kfsim_nl_client *user = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	struct kfsim_nl_client *nsadm = kfsim_nl_client_open_sim(e->k, &netns);
	struct sk_buff *skb;

	assert_int_equal(set_object(e, user, 5, "u", NULL), -EPERM);
	assert_int_equal(get_object(e, user, 5), -ENOENT);
	assert_int_equal(set_object(e, nsadm, 5, "n", NULL), -EPERM); /* ADMIN_PERM: init ns */
	assert_int_equal(set_object(e, e->root, 5, "r", NULL), 0);
	assert_int_equal(get_object(e, user, 5), 1);
	skb = req(e->demo_id, KFSIM_DEMO_CMD_DEL, 0);
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 5);
	assert_int_equal(send_req(user, skb, NULL, NULL, NULL), -EPERM);
	assert_int_equal(get_object(e, user, 5), 1);
	skb = req(e->demo_id, KFSIM_DEMO_CMD_DEL, 0);
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 5);
	assert_int_equal(send_req(nsadm, skb, NULL, NULL, NULL), 0); /* UNS_ADMIN_PERM */
	assert_int_equal(get_object(e, user, 5), -ENOENT);
	kfsim_nl_client_close(user);
	kfsim_nl_client_close(nsadm);
}

/* One request on a raw socket, acked: the error its NLMSG_ERROR carries. */
static int sock_request(struct kfsim_nl_sock *sock, struct sk_buff *skb)
{
	u8 buf[4096];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t n;

	nlmsg_hdr(skb)->nlmsg_flags |= NLM_F_ACK;
	nlmsg_end(skb, nlmsg_hdr(skb));
	assert_int_equal(kfsim_nl_sock_send(sock, skb->data, skb->len), skb->len);
	nlmsg_free(skb);
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_true(n >= (ssize_t)nlmsg_total_size(sizeof(struct nlmsgerr)));
	assert_int_equal(nlh->nlmsg_type, NLMSG_ERROR);
	return ((struct nlmsgerr *)nlmsg_data(nlh))->error;
}

static struct sk_buff *demo_req(struct env *e, u8 cmd, u32 id)
{
	struct sk_buff *skb = req(e->demo_id, cmd, 0);

	nla_put_u32(skb, KFSIM_DEMO_A_ID, id);
	if (cmd == KFSIM_DEMO_CMD_SET)
		nla_put_string(skb, KFSIM_DEMO_A_NAME, "s");
	return skb;
}

/* netlink_ns_capable(): the opener (file_ns_capable) and the sending task (ns_capable) both. */
static void test_sender_credentials(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_cred netns = {.net_admin_netns = true};
	struct kfsim_nl_sock *root = kfsim_nl_sock_open(e->k, &KFSIM_NL_CRED_ROOT);
	struct kfsim_nl_sock *user = kfsim_nl_sock_open(e->k, &KFSIM_NL_CRED_USER);

	/* a root-opened socket written by a task without the capability */
	kfsim_nl_sock_set_sender(root, &KFSIM_NL_CRED_USER);
	assert_int_equal(sock_request(root, demo_req(e, KFSIM_DEMO_CMD_SET, 7)), -EPERM);
	assert_int_equal(get_object(e, e->root, 7), -ENOENT);
	/* CAP_NET_ADMIN over the socket's namespace only: UNS_ADMIN_PERM, not ADMIN_PERM */
	kfsim_nl_sock_set_sender(root, &netns);
	assert_int_equal(sock_request(root, demo_req(e, KFSIM_DEMO_CMD_SET, 7)), -EPERM);
	assert_int_equal(set_object(e, e->root, 7, "r", NULL), 0);
	assert_int_equal(sock_request(root, demo_req(e, KFSIM_DEMO_CMD_DEL, 7)), 0);
	/* NULL: the opener sends again */
	kfsim_nl_sock_set_sender(root, NULL);
	assert_int_equal(sock_request(root, demo_req(e, KFSIM_DEMO_CMD_SET, 8)), 0);
	assert_int_equal(get_object(e, e->root, 8), 1);
	/* a capable sender lends nothing to a socket opened without the capability */
	kfsim_nl_sock_set_sender(user, &KFSIM_NL_CRED_ROOT);
	assert_int_equal(sock_request(user, demo_req(e, KFSIM_DEMO_CMD_SET, 9)), -EPERM);
	assert_int_equal(get_object(e, e->root, 9), -ENOENT);
	kfsim_nl_sock_set_sender(NULL, &KFSIM_NL_CRED_ROOT);	/* NULL socket: nothing happens */
	kfsim_nl_sock_close(root);
	kfsim_nl_sock_close(user);
}

struct seen {
	int n;
	u32 ids[128];
};

static int collect_ids(const struct nlmsghdr *nlh, void *arg)
{
	struct seen *s = arg;
	struct nlattr *tb[KFSIM_DEMO_A_MAX + 1];

	assert_int_equal(nlh->nlmsg_flags & NLM_F_MULTI, NLM_F_MULTI);
	assert_int_equal(nlmsg_parse_deprecated(nlh, GENL_HDRLEN, tb, KFSIM_DEMO_A_MAX, NULL, NULL),
			 0);
	s->ids[s->n++] = nla_get_u32(tb[KFSIM_DEMO_A_ID]);
	return 0;
}

static void test_dump_across_buffers(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *sock = kfsim_nl_sock_open(e->k, &KFSIM_NL_CRED_ROOT);
	struct seen seen = {0};
	u8 buf[4096];
	int buffers = 0, msgs = 0;
	bool done = false;
	struct sk_buff *skb;

	for (u32 id = 1; id <= 40; id++)
		assert_int_equal(set_object(e, e->root, id, "object", NULL), 0);

	/* the client's view: all 40, in order, ending in NLMSG_DONE */
	assert_int_equal(send_req(e->root, req(e->demo_id, KFSIM_DEMO_CMD_GET, NLM_F_DUMP),
				  collect_ids, &seen, NULL),
			 0);
	assert_int_equal(seen.n, 40);
	for (int i = 0; i < 40; i++)
		assert_int_equal(seen.ids[i], i + 1);

	/* the socket's view: several buffers of at most 256 bytes */
	assert_int_equal(kfsim_nl_sock_set_dump_size(sock, 256), 0);
	skb = req(e->demo_id, KFSIM_DEMO_CMD_GET, NLM_F_DUMP);
	nlmsg_end(skb, nlmsg_hdr(skb));
	assert_int_equal(kfsim_nl_sock_send(sock, skb->data, skb->len), skb->len);
	/* a second dump while one runs is refused */
	assert_int_equal(kfsim_nl_sock_send(sock, skb->data, skb->len), skb->len);
	while (!done) {
		ssize_t n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
		int rem = n;
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		assert_true(n > 0);
		assert_true(n <= 256);
		buffers++;
		for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				assert_int_equal(((struct nlmsgerr *)nlmsg_data(nlh))->error,
						 -EBUSY);
				continue;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				assert_int_equal(*(int *)nlmsg_data(nlh), 0);
				done = true;
				continue;
			}
			msgs++;
		}
	}
	assert_int_equal(msgs, 40);
	assert_true(buffers >= 5);
	assert_int_equal(kfsim_nl_sock_recv(sock, buf, sizeof(buf)), -EAGAIN);
	nlmsg_free(skb);
	kfsim_nl_sock_close(sock);
}

static int ntf_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct seen *s = arg;
	struct nlattr *tb[KFSIM_DEMO_A_MAX + 1];

	assert_int_equal(nlh->nlmsg_pid, 0);
	assert_int_equal(((struct genlmsghdr *)nlmsg_data(nlh))->cmd, KFSIM_DEMO_CMD_NTF);
	assert_int_equal(nlmsg_parse_deprecated(nlh, GENL_HDRLEN, tb, KFSIM_DEMO_A_MAX, NULL, NULL),
			 0);
	s->ids[s->n++] = nla_get_u32(tb[KFSIM_DEMO_A_ID]);
	return 0;
}

static void test_notifications(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_client *sub = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	struct kfsim_nl_client *other = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	struct seen seen = {0};

	assert_int_equal(kfsim_nl_subscribe(sub, KFSIM_DEMO_FAMILY_NAME, "events"), 0);
	assert_int_equal(kfsim_nl_subscribe(sub, KFSIM_DEMO_FAMILY_NAME, "nosuch"), -ENOENT);
	assert_int_equal(set_object(e, e->root, 77, "a", NULL), 0);
	assert_int_equal(set_object(e, e->root, 78, "b", NULL), 0);
	/* a refused request sends nothing */
	assert_int_equal(set_object(e, sub, 79, "c", NULL), -EPERM);
	/* a request of the subscriber queues what arrives meanwhile */
	assert_int_equal(get_object(e, sub, 77), 1);
	assert_int_equal(kfsim_nl_notifications(sub, ntf_cb, &seen, 0), 2);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.ids[0], 77);
	assert_int_equal(seen.ids[1], 78);
	assert_int_equal(kfsim_nl_notifications(other, ntf_cb, &seen, 0), 0);
	assert_int_equal(kfsim_nl_notifications(sub, ntf_cb, &seen, 0), 0);
	kfsim_nl_client_close(sub);
	kfsim_nl_client_close(other);
}

static void test_ack_formats_without_socket_options(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_sock *sock = kfsim_nl_sock_open(e->k, &KFSIM_NL_CRED_ROOT);
	struct sk_buff *skb = req(e->demo_id, KFSIM_DEMO_CMD_SET, NLM_F_ACK);
	struct kfsim_nl_error err;
	u8 buf[1024];
	ssize_t n;

	nla_put_u32(skb, KFSIM_DEMO_A_ID, 0); /* below min 1 */
	nlmsg_end(skb, nlmsg_hdr(skb));
	kfsim_nl_sock_send(sock, skb->data, skb->len);
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	/* no CAP_ACK: the whole request is echoed; no EXT_ACK: no TLVs */
	assert_int_equal(n, 16 + 4 + skb->len);
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_flags, 0);
	assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)buf, &err), 0);
	assert_int_equal(err.error, -ERANGE);
	assert_false(err.capped);
	assert_memory_equal(buf + 20, skb->data, skb->len);

	kfsim_nl_sock_setsockopt(sock, NETLINK_EXT_ACK, 1);
	kfsim_nl_sock_send(sock, skb->data, skb->len);
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_flags, NLM_F_ACK_TLVS);
	assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)buf, &err), 0);
	assert_string_equal(err.msg, "integer out of range");
	assert_int_equal(err.offs, 20);

	/* a message without NLM_F_REQUEST is only acknowledged */
	nlmsg_hdr(skb)->nlmsg_flags = NLM_F_ACK;
	kfsim_nl_sock_send(sock, skb->data, skb->len);
	n = kfsim_nl_sock_recv(sock, buf, sizeof(buf));
	assert_int_equal(n, 36);
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_flags, NLM_F_CAPPED);
	assert_int_equal(((struct nlmsgerr *)(buf + 16))->error, 0);

	/* a truncated message ends the buffer silently */
	assert_int_equal(kfsim_nl_sock_send(sock, skb->data, skb->len - 4), skb->len - 4);
	assert_int_equal(kfsim_nl_sock_recv(sock, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, 99, 1), -ENOPROTOOPT);
	/*
	 * as on the running kernel: 0 and beyond the group count refused, unowned ids joined; a
	 * family with groups (the demo) makes the count the bitmap's, 64, and 64 itself is a group
	 * (setsockopt checks val - 1 >= ngroups)
	 */
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, 0), -EINVAL);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, 200), -EINVAL);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, 65), -EINVAL);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, 64), 0);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, 1), 0);
	assert_int_equal(kfsim_nl_sock_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, GENL_ID_CTRL), 0);
	nlmsg_free(skb);
	kfsim_nl_sock_close(sock);
}

static void test_policy_dump_of_demo(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump dump;
	char line[128];
	struct kfsim_nl_error err;

	assert_int_equal(kfsim_nl_get_policy(e->root, KFSIM_DEMO_FAMILY_NAME, KFSIM_DEMO_CMD_SET,
					     &dump, NULL),
			 0);
	assert_int_equal(dump.nr_ops, 1);
	assert_int_equal(dump.ops[0].cmd, KFSIM_DEMO_CMD_SET);
	assert_int_equal(dump.ops[0].do_policy, 0);
	assert_int_equal(dump.ops[0].dump_policy, -1);
	assert_int_equal(dump.nr_policies, 2);
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_PORT], line,
							sizeof(line)),
			    "u16 range 1..1023");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_NAME], line,
							sizeof(line)),
			    "nul-string max-len 15");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_LINK], line,
							sizeof(line)),
			    "nested policy 1 maxtype 2");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_FLAGS], line,
							sizeof(line)),
			    "u32 mask 0x3");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_MAC], line,
							sizeof(line)),
			    "binary min-len 6 max-len 6");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][KFSIM_DEMO_A_BIAS], line,
							sizeof(line)),
			    "sint range -1000..1000");
	assert_int_equal(dump.policies[0][KFSIM_DEMO_A_LEGACY].type, 0); /* reject: not dumped */
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[1][KFSIM_DEMO_LINK_A_PEER],
							line, sizeof(line)),
			    "u32 range 1..4095");
	kfsim_nl_policy_dump_free(&dump);

	/*
	 * the whole family: GET's dump half has no policy of its own, so it is shown with the
	 * reject-all policy (genl_op_fill_in_reject_policy_split), a third index whose two
	 * NLA_REJECT slots are never advertised.
	 */
	assert_int_equal(kfsim_nl_get_policy(e->root, KFSIM_DEMO_FAMILY_NAME, -1, &dump, NULL), 0);
	assert_int_equal(dump.nr_ops, 3);
	assert_int_equal(dump.ops[0].do_policy, 0);
	assert_int_equal(dump.ops[0].dump_policy, 2);
	assert_int_equal(dump.nr_policies, 2);
	kfsim_nl_policy_dump_free(&dump);

	assert_int_equal(kfsim_nl_get_policy(e->root, KFSIM_DEMO_FAMILY_NAME, 77, &dump, &err),
			 -ENOENT);
	assert_true(err.has_offs);
	assert_int_equal(kfsim_nl_get_policy(e->root, "nosuch", -1, &dump, &err), -ENOENT);

	/* nlctrl's own dump-only op appears under nest 0, as on the kernel */
	assert_int_equal(kfsim_nl_get_policy(e->root, "nlctrl", CTRL_CMD_GETPOLICY, &dump, NULL),
			 0);
	assert_int_equal(dump.nr_ops, 1);
	assert_int_equal(dump.ops[0].cmd, 0);
	assert_int_equal(dump.ops[0].dump_policy, 0);
	assert_string_equal(
		kfsim_nl_policy_attr_format(&dump.policies[0][CTRL_ATTR_OP], line, sizeof(line)),
		"u32 range 0..4294967295");
	kfsim_nl_policy_dump_free(&dump);
}

static int family_name_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	char *names = arg;

	assert_int_equal(((struct genlmsghdr *)nlmsg_data(nlh))->cmd, CTRL_CMD_NEWFAMILY);
	assert_int_equal(nlmsg_parse_deprecated(nlh, GENL_HDRLEN, tb, CTRL_ATTR_MAX, NULL, NULL),
			 0);
	strcat(names, nla_data(tb[CTRL_ATTR_FAMILY_NAME]));
	strcat(names, " ");
	return 0;
}

static void test_getfamily_dump_lists_every_family(void **state)
{
	struct env *e = *state;
	char names[256] = "";
	struct sk_buff *skb;

	skb = req(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	assert_int_equal(send_req(e->root, skb, family_name_cb, names, NULL), 0);
	assert_string_equal(names, "nlctrl kfsim_demo ");

	/* by id, and the name wins over the id in a do request */
	skb = req(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	nla_put_u16(skb, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, KFSIM_DEMO_FAMILY_NAME);
	names[0] = '\0';
	assert_int_equal(send_req(e->root, skb, family_name_cb, names, NULL), 0);
	assert_string_equal(names, "kfsim_demo ");
}

/* A dump that fails on its second step, with a message, and one whose family goes away. */
static int failing_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	void *hdr;

	if (cb->args[0]++ == 1) {
		NL_SET_ERR_MSG(cb->extack, "backing store went away");
		return -EIO;
	}
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, info->family,
			  NLM_F_MULTI, 1);
	if (!hdr)
		return -EMSGSIZE;
	nla_put_u32(skb, 1, 42);
	genlmsg_end(skb, hdr);
	return skb->len;
}

static int done_calls;

static int count_done(struct netlink_callback *cb)
{
	done_calls++;
	return 0;
}

static const struct genl_split_ops failing_ops[] = {
	{.cmd = 1, .dumpit = failing_dumpit, .done = count_done, .flags = GENL_CMD_CAP_DUMP},
};

static void test_dump_error_ends_in_done_with_extack(void **state)
{
	struct env *e = *state;
	struct genl_family fam = {
		.name = "failing", .version = 1, .split_ops = failing_ops, .n_split_ops = 1};
	struct kfsim_nl_error err;
	struct kfsim_nl_sock *sock;
	u8 buf[1024];
	int n = 0;

	assert_int_equal(kfsim_genl_register_family(e->k, &fam), 0);
	done_calls = 0;
	assert_int_equal(send_req(e->root, req(fam.id, 1, NLM_F_DUMP), count_cb, &n, &err), -EIO);
	assert_int_equal(n, 1);
	assert_true(err.in_done);
	assert_string_equal(err.msg, "backing store went away");
	assert_int_equal(done_calls, 1);

	/* unregistering the family ends a dump in progress (done() runs) */
	sock = kfsim_nl_sock_open(e->k, &KFSIM_NL_CRED_ROOT);
	{
		struct sk_buff *skb = req(fam.id, 1, NLM_F_DUMP);

		nlmsg_end(skb, nlmsg_hdr(skb));
		kfsim_nl_sock_send(sock, skb->data, skb->len);
		nlmsg_free(skb);
	}
	assert_true(kfsim_nl_sock_recv(sock, buf, sizeof(buf)) > 0);
	assert_int_equal(genl_unregister_family(&fam), 0);
	assert_int_equal(done_calls, 2);
	assert_int_equal(kfsim_nl_sock_recv(sock, buf, sizeof(buf)), -EAGAIN);
	kfsim_nl_sock_close(sock);
}

static int noop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return 0;
}

static void test_privileged_multicast_group(void **state)
{
	static const struct genl_small_ops ops[] = {{.cmd = 1, .doit = noop_doit}};
	static const struct genl_multicast_group grps[] = {
		{.name = "open"},
		{.name = "admin", .flags = GENL_MCAST_CAP_NET_ADMIN},
		{.name = "sys", .flags = GENL_MCAST_CAP_SYS_ADMIN},
	};
	struct env *e = *state;
	struct genl_family fam = {.name = "groups",
				  .small_ops = ops,
				  .n_small_ops = 1,
				  .mcgrps = grps,
				  .n_mcgrps = 3};
	struct kfsim_nl_cred netns = {.net_admin_netns = true};
	struct kfsim_nl_client *user = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	struct kfsim_nl_client *nsadm = kfsim_nl_client_open_sim(e->k, &netns);
	unsigned int old = kfsim_kernel_version();

	assert_int_equal(kfsim_genl_register_family(e->k, &fam), 0);
	assert_int_equal(fam.mcgrp_offset, 3); /* after kfsim_demo's group 2 */
	kfsim_set_kernel_version(KERNEL_VERSION(6, 18, 0));
	assert_int_equal(kfsim_nl_subscribe(user, "groups", "open"), 0);
	assert_int_equal(kfsim_nl_subscribe(user, "groups", "admin"), -EPERM);
	assert_int_equal(kfsim_nl_subscribe(user, "groups", "sys"), -EPERM);
	assert_int_equal(kfsim_nl_subscribe(nsadm, "groups", "admin"), 0);
	assert_int_equal(kfsim_nl_subscribe(nsadm, "groups", "sys"), -EPERM);
	assert_int_equal(kfsim_nl_subscribe(e->root, "groups", "sys"), 0);
	assert_true(genl_has_listeners(&fam, NULL, 1));
	kfsim_set_kernel_version(KERNEL_VERSION(6, 5, 0)); /* before the flags existed */
	assert_int_equal(kfsim_nl_subscribe(user, "groups", "admin"), 0);
	kfsim_set_kernel_version(old);
	kfsim_nl_client_close(user);
	kfsim_nl_client_close(nsadm);
	assert_int_equal(genl_unregister_family(&fam), 0);
}

static void test_registration_rules(void **state)
{
	static const struct genl_small_ops no_handler[] = {{.cmd = 1}};
	static const struct genl_split_ops unsorted[] = {
		{.cmd = 2, .doit = (void *)1, .flags = GENL_CMD_CAP_DO},
		{.cmd = 1, .doit = (void *)1, .flags = GENL_CMD_CAP_DO},
	};
	static const struct genl_small_ops loose[] = {
		{.cmd = 1, .doit = (void *)1, .validate = GENL_DONT_VALIDATE_STRICT},
	};
	struct env *e = *state;
	struct genl_family f = {.name = "t1", .small_ops = no_handler, .n_small_ops = 1};
	struct genl_family g = {.name = "t2", .split_ops = unsorted, .n_split_ops = 2};
	struct genl_family h = {.name = "t3", .small_ops = loose, .n_small_ops = 1};
	struct genl_family dup = {.name = "nlctrl"};
	struct genl_family ok = {
		.name = "t4", .small_ops = loose, .n_small_ops = 1, .resv_start_op = 2};

	assert_int_equal(kfsim_genl_register_family(e->k, &f), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &g), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &h), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &dup), -EEXIST);
	assert_int_equal(kfsim_genl_register_family(e->k, &ok), 0);
	assert_int_equal(ok.id, 0x14);
	assert_int_equal(kfsim_genl_register_family(e->k, &ok), -EEXIST);
	assert_ptr_equal(kfsim_genl_find_family(e->k, "t4"), &ok);
	assert_int_equal(genl_unregister_family(&ok), 0);
	assert_int_equal(genl_unregister_family(&ok), -ENOENT);
	assert_null(kfsim_genl_find_family(e->k, "t4"));
	assert_int_equal(kfsim_genl_register_family(e->k, &ok), 0);
	assert_int_equal(ok.id, 0x15); /* ids are allocated cyclically */
	assert_int_equal(genl_unregister_family(&ok), 0);
}

struct raw_seen {
	int replies, acks, errors;
	u32 last_seq;
};

static int raw_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct raw_seen *seen = arg;

	seen->last_seq = nlh->nlmsg_seq;
	if (nlh->nlmsg_type != NLMSG_ERROR)
		seen->replies++;
	else if (((const struct nlmsgerr *)nlmsg_data(nlh))->error)
		seen->errors++;
	else
		seen->acks++;
	return 0;
}

/*
 * kfsim_nl_send_raw(): the bytes go as they are, and what they caused is all there when the
 * send returns.  Two requests in one datagram answer twice; an nlmsg_len beyond the datagram
 * is dropped without a word (and the call does not wait for one); the bytes after a short
 * nlmsg_len that cannot hold a header are never a message.
 */
static void test_send_raw_datagrams(void **state)
{
	struct env *e = *state;
	struct sk_buff *skb = nlmsg_new(256, GFP_KERNEL);
	struct raw_seen seen = {0};
	struct nlmsghdr *first, *second;
	u32 one_len;

	first = nlmsg_put(skb, 0, 7, e->demo_id, GENL_HDRLEN, NLM_F_REQUEST | NLM_F_ACK);
	((struct genlmsghdr *)nlmsg_data(first))->cmd = KFSIM_DEMO_CMD_GET;
	nla_put_u32(skb, KFSIM_DEMO_A_ID, 999);		/* no such object: an error */
	nlmsg_end(skb, first);
	one_len = first->nlmsg_len;
	second = nlmsg_put(skb, 0, 8, 0x7ff, GENL_HDRLEN, NLM_F_REQUEST | NLM_F_ACK);
	nlmsg_end(skb, second);				/* no such family: an error */

	assert_int_equal(kfsim_nl_send_raw(e->root, skb->data, skb->len, raw_cb, &seen), 2);
	assert_int_equal(seen.errors, 2);
	assert_int_equal(seen.last_seq, 8);

	/* the first message claims the whole datagram and a byte more: no answer at all */
	memset(&seen, 0, sizeof(seen));
	first->nlmsg_len = skb->len + 1;
	assert_int_equal(kfsim_nl_send_raw(e->root, skb->data, skb->len, raw_cb, &seen), 0);

	/* 3 bytes short: the attribute loses its value; the 12 bytes after it are no message */
	memset(&seen, 0, sizeof(seen));
	first->nlmsg_len = one_len - 3;
	assert_int_equal(kfsim_nl_send_raw(e->root, skb->data, one_len + 12, raw_cb, &seen), 1);
	assert_int_equal(seen.errors, 1);
	assert_int_equal(kfsim_nl_send_raw(e->root, NULL, 4, raw_cb, &seen), -EINVAL);
	nlmsg_free(skb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_family_and_op, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_validation_errors_in_ack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_admin_permission, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sender_credentials, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_across_buffers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notifications, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ack_formats_without_socket_options, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policy_dump_of_demo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_getfamily_dump_lists_every_family, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dump_error_ends_in_done_with_extack, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_privileged_multicast_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_registration_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_send_raw_datagrams, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
