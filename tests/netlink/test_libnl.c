// SPDX-License-Identifier: MIT
/*
 * The user side with libnl-3 as the message builder and reader: requests built with
 * nlmsg_alloc/genlmsg_put/nla_put_*, sent with kfsim_nl_request() to the in-process kernel,
 * replies read with genlmsg_parse().  This file includes libnl's headers and <kfsim/nl_client.h>
 * only, which is what the split between the two kfsim headers is for.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <kfsim/err.h>
#include <kfsim/nl_demo.h>

struct env {
	struct kfsim_nl_kernel *k;
	struct kfsim_nl_client *c;
	int family;
};

static int setup(void **state)
{
	static struct env e;
	struct kfsim_nl_family_info info;

	e.k = kfsim_nl_kernel_create();
	assert_int_equal(kfsim_nl_demo_register(e.k), 0);
	e.c = kfsim_nl_client_open_sim(e.k, &KFSIM_NL_CRED_ROOT);
	assert_int_equal(kfsim_nl_resolve(e.c, KFSIM_DEMO_FAMILY_NAME, &info, NULL), 0);
	e.family = info.id;
	*state = &e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_nl_client_close(e->c);
	kfsim_nl_kernel_destroy(e->k);
	return 0;
}

static struct nl_msg *demo_msg(struct env *e, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, e->family, 0, flags, cmd,
				    KFSIM_DEMO_FAMILY_VERSION));
	return msg;
}

struct reply {
	unsigned int id;
	char name[16];
	int prio;
	int n;
};

static int reply_cb(const struct nlmsghdr *nlh, void *arg)
{
	static struct nla_policy pol[KFSIM_DEMO_A_MAX + 1] = {
		[KFSIM_DEMO_A_ID] = {.type = NLA_U32},
		[KFSIM_DEMO_A_NAME] = {.type = NLA_STRING},
		[KFSIM_DEMO_A_PRIO] = {.type = NLA_U8},
	};
	struct nlattr *tb[KFSIM_DEMO_A_MAX + 1];
	struct reply *r = arg;

	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, KFSIM_DEMO_A_MAX, pol) < 0)
		return -EPROTO;
	r->id = nla_get_u32(tb[KFSIM_DEMO_A_ID]);
	nla_strlcpy(r->name, tb[KFSIM_DEMO_A_NAME], sizeof(r->name));
	r->prio = nla_get_u8(tb[KFSIM_DEMO_A_PRIO]);
	r->n++;
	return 0;
}

static void test_libnl_built_requests(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;
	struct reply r = {0};
	struct nl_msg *msg;
	struct nlattr *nest;

	msg = demo_msg(e, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(msg, KFSIM_DEMO_A_ID, 9);
	nla_put_string(msg, KFSIM_DEMO_A_NAME, "libnl");
	nla_put_u8(msg, KFSIM_DEMO_A_PRIO, 5);
	nest = nla_nest_start(msg, KFSIM_DEMO_A_LINK); /* libnl 3.7 sets NLA_F_NESTED */
	nla_put_u32(msg, KFSIM_DEMO_LINK_A_PEER, 3);
	nla_nest_end(msg, nest);
	assert_int_equal(kfsim_nl_request(e->c, nlmsg_hdr(msg), NULL, NULL, &err), 0);
	nlmsg_free(msg);

	msg = demo_msg(e, KFSIM_DEMO_CMD_GET, 0);
	nla_put_u32(msg, KFSIM_DEMO_A_ID, 9);
	assert_int_equal(kfsim_nl_request(e->c, nlmsg_hdr(msg), reply_cb, &r, &err), 0);
	nlmsg_free(msg);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.id, 9);
	assert_string_equal(r.name, "libnl");
	assert_int_equal(r.prio, 5);
}

/* What libnl lets through, the kernel-strict side refuses, with the kernel's words. */
static void test_libnl_does_not_stop_what_the_kernel_refuses(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;
	struct nl_msg *msg;
	char text[128];

	msg = demo_msg(e, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(msg, KFSIM_DEMO_A_ID, 10);
	nla_put_u32(msg, KFSIM_DEMO_A_PRIO, 1); /* a u8 sent as u32: libnl's minlen is happy */
	assert_int_equal(kfsim_nl_request(e->c, nlmsg_hdr(msg), NULL, NULL, &err), -EINVAL);
	assert_string_equal(kfsim_nl_error_format(&err, text, sizeof(text)),
			    "invalid attribute length (offset 28)");
	nlmsg_free(msg);

	msg = demo_msg(e, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(msg, KFSIM_DEMO_A_ID, 10);
	nla_put_u8(msg, KFSIM_DEMO_A_PRIO, 8); /* libnl has no ranges */
	assert_int_equal(kfsim_nl_request(e->c, nlmsg_hdr(msg), NULL, NULL, &err), -ERANGE);
	assert_string_equal(err.msg, "integer out of range");
	nlmsg_free(msg);

	msg = demo_msg(e, KFSIM_DEMO_CMD_SET, 0);
	nla_put_u32(msg, KFSIM_DEMO_A_ID, 10);
	nla_put_u32(msg, 200, 1); /* libnl ignores types above maxtype */
	assert_int_equal(kfsim_nl_request(e->c, nlmsg_hdr(msg), NULL, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "Unknown attribute type");
	nlmsg_free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libnl_built_requests),
		cmocka_unit_test(test_libnl_does_not_stop_what_the_kernel_refuses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
