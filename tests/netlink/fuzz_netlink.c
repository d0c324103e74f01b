// SPDX-License-Identifier: MIT
/*
 * libFuzzer target over everything that reads untrusted netlink bytes: the validator and
 * parser (strict, liberal, deprecated-strict, over a policy with every type and constraint,
 * nests and nested arrays), the attribute printer, the extack decoder, and the in-process
 * kernel's receive path (headers, dispatch, ACKs, dumps).  Built only with clang by
 * scripts/fuzz-netlink; any out-of-bounds read, leak or UB stops the run.
 *
 * Input: byte 0 chooses the target and flags, the rest is the bytes under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_demo.h>
#include <kfsim/printk.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Every rejected input logs a pr_warn() ("attribute type 1 has an invalid length"), which the
 * default console level (7, as the kernel's) echoes: millions of lines in a minute.  The ring
 * still records them; only the console is quieted, as "quiet" does on a kernel command line.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	kfsim_console_loglevel_set(1);	/* KERN_ALERT and above only */
	return 0;
}

static const struct nla_policy inner[4] = {
	[1] = NLA_POLICY_RANGE(NLA_U32, 1, 4095),
	[2] = {.type = NLA_NUL_STRING, .len = 3},
	[3] = _NLA_POLICY_NESTED(3, inner), /* recursion until the depth limit */
};

static const struct netlink_range_validation range = {.min = 5, .max = 1ULL << 40};

static const struct nla_policy policy[] = {
	[0] = {.strict_start_type = 20},
	[1] = NLA_POLICY_MAX(NLA_U8, 7),
	[2] = NLA_POLICY_RANGE(NLA_U16, 1, 1023),
	[3] = NLA_POLICY_MIN(NLA_U32, 1),
	[4] = NLA_POLICY_FULL_RANGE(NLA_U64, &range),
	[5] = NLA_POLICY_RANGE(NLA_S8, -5, 5),
	[6] = NLA_POLICY_MIN(NLA_S16, -100),
	[7] = NLA_POLICY_MAX(NLA_S32, 125),
	[8] = {.type = NLA_S64},
	[9] = {.type = NLA_STRING, .len = 4},
	[10] = {.type = NLA_NUL_STRING},
	[11] = {.type = NLA_BINARY, .len = 3},
	[12] = {.type = NLA_FLAG},
	[13] = NLA_POLICY_NESTED(inner),
	[14] = NLA_POLICY_NESTED_ARRAY(inner),
	[15] = NLA_POLICY_BITFIELD32(0x7),
	[16] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[17] = {.type = NLA_UINT},
	[18] = NLA_POLICY_RANGE(NLA_SINT, -10, 10),
	[19] = {.type = NLA_REJECT, .reject_message = "no"},
	[20] = {.type = NLA_UNSPEC, .len = 2},
	[21] = NLA_POLICY_EXACT_LEN_WARN(6),
	[22] = NLA_POLICY_MIN_LEN(4),
	[23] = {.type = NLA_MSECS},
	[24] = NLA_POLICY_MAX(NLA_BE16, 0x100),
	[25] = NLA_POLICY_MASK(NLA_BE32, 0xff),
	[26] = {.type = NLA_NESTED},
};

#define MAXTYPE ((int)ARRAY_SIZE(policy) - 1)

static void fuzz_parse(const u8 *data, size_t size, unsigned int validate)
{
	struct nlattr *tb[MAXTYPE + 1];
	struct netlink_ext_ack extack = {0};
	u8 *copy = malloc(size ? size : 1);
	int err;

	memcpy(copy, data, size); /* exact-size heap copy: ASan sees any overread */
	err = __nla_parse(tb, MAXTYPE, (struct nlattr *)copy, size, policy, validate, &extack);
	if (!err) {
		/* what the validator accepted must be readable as its type says */
		if (tb[1])
			(void)nla_get_u8(tb[1]);
		if (tb[4])
			(void)nla_get_u64(tb[4]);
		if (tb[17])
			(void)nla_get_uint(tb[17]);
		if (tb[18])
			(void)nla_get_sint(tb[18]);
		if (tb[13]) {
			struct nlattr *itb[4];

			(void)nla_parse_nested_deprecated(itb, 3, tb[13], inner, NULL);
		}
	}
	if (extack.bad_attr && kfsim_nl_ext_ack_offset(&extack, copy, size) < 0)
		abort(); /* a bad attribute must point into the buffer */
	free(copy);
}

static void fuzz_error_parse(const u8 *data, size_t size)
{
	struct kfsim_nl_error err;
	u8 *copy;
	char text[256];

	if (size < NLMSG_HDRLEN)
		return;
	copy = malloc(size);
	memcpy(copy, data, size);
	((struct nlmsghdr *)copy)->nlmsg_len = size;
	((struct nlmsghdr *)copy)->nlmsg_type = data[4] & 1 ? NLMSG_DONE : NLMSG_ERROR;
	if (!kfsim_nl_error_parse((struct nlmsghdr *)copy, &err))
		kfsim_nl_error_format(&err, text, sizeof(text));
	free(copy);
}

static void fuzz_kernel(const u8 *data, size_t size, bool root)
{
	static struct kfsim_nl_kernel *k;
	struct kfsim_nl_cred cred = {.net_admin = root};
	struct kfsim_nl_sock *sock;
	u8 buf[8192];

	if (!k) {
		k = kfsim_nl_kernel_create();
		kfsim_nl_demo_register(k);
	}
	sock = kfsim_nl_sock_open(k, &cred);
	kfsim_nl_sock_setsockopt(sock, NETLINK_EXT_ACK, 1);
	kfsim_nl_sock_setsockopt(sock, NETLINK_CAP_ACK, size & 1);
	kfsim_nl_sock_set_dump_size(sock, 256);
	kfsim_nl_sock_send(sock, data, size);
	for (int i = 0; i < 64 && kfsim_nl_sock_recv(sock, buf, sizeof(buf)) > 0; i++)
		;
	kfsim_nl_sock_close(sock);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	u8 mode;

	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	mode = data[0];
	data++;
	size--;
	switch (mode % 6) {
	case 0:
		fuzz_parse(data, size, NL_VALIDATE_STRICT);
		break;
	case 1:
		fuzz_parse(data, size, NL_VALIDATE_LIBERAL);
		break;
	case 2:
		fuzz_parse(data, size, NL_VALIDATE_DEPRECATED_STRICT);
		break;
	case 3: {
		/* attributes are 4-byte aligned in every netlink buffer; keep that contract */
		u8 *copy = malloc(size ? size : 1);

		memcpy(copy, data, size);
		kfsim_nla_print(devnull, (const struct nlattr *)copy, size, MAXTYPE, policy, copy);
		free(copy);
		break;
	}
	case 4:
		fuzz_error_parse(data, size);
		break;
	case 5:
		fuzz_kernel(data, size, mode & 0x80);
		break;
	}
	return 0;
}
