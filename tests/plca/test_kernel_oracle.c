// SPDX-License-Identifier: MIT
/*
 * The referee: the same PLCA requests sent to kfsim's ethtool family and to the running
 * kernel's, answer for answer (errno, extack message, offset, missing-attribute type, the
 * policy that failed, and whether the error came as NLMSG_ERROR or inside NLMSG_DONE).
 *
 * kfsim follows the running kernel's release for this (uname), so the 6.11+ header (PHY_INDEX)
 * and the dump start rules are those the kernel has.  Devices compared: "lo" (no PHY on
 * either side) and a name no namespace has.  Without root the kernel answers every SET with
 * -EPERM: kfsim is asked as the same user.  Each case prints what both sides said.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/plca.h>
#include <kfsim/nl_client.h>

static struct kfsim_plca_net *net;
static struct kfsim_ethtool_chan *inproc, *kernel;

/* A request: @dev in the header, plus header attributes @hdr_extra (type, u32 value) pairs. */
struct oracle_case {
	const char *what;
	u8 cmd;
	u16 nlflags;
	const char *dev;
	struct kfsim_plca_attr attr;
	int nr;
	u16 hdr_type;	/* an extra u32 header attribute (FLAGS, PHY_INDEX), 0 = none */
	u32 hdr_value;
};

/* Build @c for @family: ethtool's request, with the extra header attribute appended inside. */
static int build(u8 *buf, size_t size, u16 family, const struct oracle_case *c)
{
	int len = kfsim_ethtool_plca_request(buf, size, family, c->cmd, c->nlflags, 7, c->dev, 0,
					     c->nr ? &c->attr : NULL, c->nr);
	struct nlattr *hdr = (struct nlattr *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);
	int hdr_end = NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(hdr->nla_len);
	u8 extra[8];
	u16 alen = 8;

	assert_true(len > 0);
	if (!c->hdr_type)
		return len;
	/* Insert the attribute at the end of the header nest, moving what follows. */
	memcpy(extra, &alen, 2);
	memcpy(extra + 2, &c->hdr_type, 2);
	memcpy(extra + 4, &c->hdr_value, 4);
	assert_true((size_t)len + 8 <= size);
	memmove(buf + hdr_end + 8, buf + hdr_end, (size_t)(len - hdr_end));
	memcpy(buf + hdr_end, extra, 8);
	hdr->nla_len += 8;
	len += 8;
	((struct nlmsghdr *)buf)->nlmsg_len = (u32)len;
	return len;
}

static int count_reply(const struct kfsim_plca_reply *reply, void *ctx)
{
	(void)reply;
	(*(int *)ctx)++;
	return 0;
}

/* "-95 in NLMSG_ERROR 'msg' @20" */
static const char *describe(const struct kfsim_nl_error *e, char *buf)
{
	int n = snprintf(buf, 192, "%d in %s", e->error, e->in_done ? "NLMSG_DONE" : "NLMSG_ERROR");

	if (e->msg[0])
		n += snprintf(buf + n, (size_t)(192 - n), " '%s'", e->msg);
	if (e->has_offs)
		snprintf(buf + n, (size_t)(192 - n), " @%u", e->offs);
	return buf;
}

static void compare(const struct oracle_case *c, bool count_replies)
{
	struct kfsim_nl_error ours, theirs;
	char ours_text[192], theirs_text[192];
	int our_replies = 0, their_replies = 0;
	u8 req[256];
	int len;

	len = build(req, sizeof(req), kfsim_ethtool_chan_family(inproc), c);
	assert_int_equal(kfsim_ethtool_chan_transact(inproc, req, len, count_reply, &our_replies,
						     &ours), 0);
	len = build(req, sizeof(req), kfsim_ethtool_chan_family(kernel), c);
	assert_int_equal(kfsim_ethtool_chan_transact(kernel, req, len, count_reply, &their_replies,
						     &theirs), 0);
	print_message("%-32s kernel: %s | kfsim: %s\n", c->what, describe(&theirs, theirs_text),
		      describe(&ours, ours_text));
	assert_int_equal(ours.error, theirs.error);
	assert_string_equal(ours.msg, theirs.msg);
	assert_int_equal(ours.in_done, theirs.in_done);
	assert_int_equal(ours.has_offs, theirs.has_offs);
	assert_int_equal(ours.offs, theirs.offs);
	assert_int_equal(ours.has_miss_type, theirs.has_miss_type);
	assert_int_equal(ours.miss_type, theirs.miss_type);
	assert_int_equal(ours.policy_len, theirs.policy_len);
	assert_memory_equal(ours.policy, theirs.policy, ours.policy_len);
	if (count_replies)
		assert_int_equal(our_replies, their_replies);
}

#define DO (NLM_F_REQUEST | NLM_F_ACK)
#define DUMP (NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP)
#define NODEV "kfsimnodev0"

/* Policy and device errors of do requests (validation happens before the device lookup). */
static void test_do_requests(void **state)
{
	static const struct oracle_case cases[] = {
		{ "SET node-cnt 0", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_NODE_CNT, 0 }, 1 },
		{ "SET node-cnt 256", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_NODE_CNT, 256 }, 1 },
		{ "SET node-id 300", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_NODE_ID, 300 }, 1 },
		{ "SET enable 2", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_ENABLED, 2 }, 1 },
		{ "SET to-tmr 256", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_TO_TMR, 256 }, 1 },
		{ "SET burst-cnt 999", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_BURST_CNT, 999 }, 1 },
		{ "SET burst-tmr 256", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_BURST_TMR, 256 }, 1 },
		{ "SET VERSION", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_VERSION, 1 }, 1 },
		{ "SET type 20", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { 20, 1 }, 1 },
		{ "SET no such device", ETHTOOL_MSG_PLCA_SET_CFG, DO, NODEV, { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1 },
		{ "SET lo", ETHTOOL_MSG_PLCA_SET_CFG, DO, "lo", { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1 },
		{ "SET lo, no attribute", ETHTOOL_MSG_PLCA_SET_CFG, DO, "lo", {}, 0 },
		{ "GET_CFG no such device", ETHTOOL_MSG_PLCA_GET_CFG, DO, NODEV, {}, 0 },
		{ "GET_CFG lo", ETHTOOL_MSG_PLCA_GET_CFG, DO, "lo", {}, 0 },
		{ "GET_STATUS lo", ETHTOOL_MSG_PLCA_GET_STATUS, DO, "lo", {}, 0 },
		{ "GET_CFG lo + NODE_ID", ETHTOOL_MSG_PLCA_GET_CFG, DO, "lo", { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1 },
		{ "GET_CFG empty header", ETHTOOL_MSG_PLCA_GET_CFG, DO, NULL, {}, 0 },
		{ "GET_CFG flags STATS", ETHTOOL_MSG_PLCA_GET_CFG, DO, "lo", {}, 0,
		  ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS },
		{ "GET_CFG phy-index 0", ETHTOOL_MSG_PLCA_GET_CFG, DO, "lo", {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 0 },
		/* 6.11+: an index naming no PHY of the device (lo has none). */
		{ "GET_CFG lo phy-index 1", ETHTOOL_MSG_PLCA_GET_CFG, DO, "lo", {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 1 },
		{ "GET_STATUS lo phy-index 7", ETHTOOL_MSG_PLCA_GET_STATUS, DO, "lo", {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 7 },
		{ "SET lo phy-index 7", ETHTOOL_MSG_PLCA_SET_CFG, DO, "lo", { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1,
		  ETHTOOL_A_HEADER_PHY_INDEX, 7 },
		{ "SET no device, phy-index 7", ETHTOOL_MSG_PLCA_SET_CFG, DO, NULL,
		  { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1, ETHTOOL_A_HEADER_PHY_INDEX, 7 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		compare(&cases[i], true);
}

/*
 * Dumps: the header is parsed by ethnl_default_start(), so its errors are NLMSG_ERROR with the
 * offset, not an error inside NLMSG_DONE; a header with only PHY_INDEX has no device for it.
 */
static void test_dump_headers(void **state)
{
	static const struct oracle_case cases[] = {
		{ "dump GET_CFG no such device", ETHTOOL_MSG_PLCA_GET_CFG, DUMP, NODEV, {}, 0 },
		{ "dump GET_STATUS no such device", ETHTOOL_MSG_PLCA_GET_STATUS, DUMP, NODEV, {}, 0 },
		{ "dump GET_CFG phy-index only", ETHTOOL_MSG_PLCA_GET_CFG, DUMP, NULL, {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 1 },
		{ "dump GET_STATUS phy-index only", ETHTOOL_MSG_PLCA_GET_STATUS, DUMP, NULL, {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 3 },
		/* a device and an index: the device is ignored, the index applies to each one */
		{ "dump GET_CFG lo phy-index 1", ETHTOOL_MSG_PLCA_GET_CFG, DUMP, "lo", {}, 0,
		  ETHTOOL_A_HEADER_PHY_INDEX, 1 },
		{ "dump GET_CFG flags STATS", ETHTOOL_MSG_PLCA_GET_CFG, DUMP, NULL, {}, 0,
		  ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS },
		{ "dump GET_CFG + NODE_ID", ETHTOOL_MSG_PLCA_GET_CFG, DUMP, NULL,
		  { ETHTOOL_A_PLCA_NODE_ID, 1 }, 1 },
	};

	(void)state;
	/* The replies differ (kfsim's segment has PHYs, the kernel's lo has none): errors only. */
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		compare(&cases[i], false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_do_requests),
		cmocka_unit_test(test_dump_headers),
	};
	unsigned int kver;
	struct utsname uts;
	char release[32];
	int ret;

	if (uname(&uts) || sscanf(uts.release, "%31[0-9.]", release) != 1 ||
	    kfsim_kver_parse(release, &kver)) {
		printf("skipped: cannot read the running kernel's release '%s'\n", uts.release);
		return 77;
	}
	kernel = kfsim_ethtool_chan_kernel();
	if (IS_ERR(kernel)) {
		printf("skipped: the running kernel's ethtool netlink is unreachable (%s)\n",
		       kfsim_errname((int)PTR_ERR(kernel)));
		return 77;
	}
	kfsim_set_kernel_version(kver);
	printf("running kernel %s: kfsim follows %u.%u\n", uts.release, kver >> 16,
	       (kver >> 8) & 0xff);
	net = kfsim_plca_net_default();
	inproc = kfsim_ethtool_chan_inproc(net, geteuid() == 0);
	if (!net || IS_ERR(inproc)) {
		printf("kfsim: cannot build the in-process namespace\n");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	kfsim_ethtool_chan_close(inproc);
	kfsim_ethtool_chan_close(kernel);
	kfsim_plca_net_destroy(net);
	return ret;
}
