// SPDX-License-Identifier: MIT
/* kfsim nl: policy and decode output, exit codes and usage errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "support/cli_run.h"

static struct cli_result run(const char *const args[])
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, args), 0);
	return r;
}

static void test_policy_demo_text(void **state)
{
	struct cli_result r = run(
		(const char *const[]){"nl", "policy", "--family", "kfsim_demo", "--op", "2", NULL});

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "family kfsim_demo\nop 2: do policy 0\npolicy 0:\n"));
	assert_non_null(strstr(r.out, "  attr 4: u16 range 1..1023\n"));
	assert_non_null(strstr(r.out, "  attr 19: sint range -1000..1000\n"));
	assert_non_null(strstr(r.out, "policy 1:\n  attr 1: u32 range 1..4095\n"));
	assert_null(strstr(r.out, "attr 20:")); /* reject: not advertised */
	assert_string_equal(r.err, "");
	cli_result_free(&r);
}

static void test_policy_json(void **state)
{
	struct cli_result r =
		run((const char *const[]){"nl", "policy", "--family", "nlctrl", "--json", NULL});

	assert_int_equal(r.status, 0);
	assert_true(r.out[0] == '{');
	assert_non_null(strstr(r.out, "\"family_id\": 16"));
	assert_non_null(strstr(r.out, "\"policy\": \"nul-string max-len 15\""));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
}

static void test_policy_unknown_family(void **state)
{
	struct cli_result r =
		run((const char *const[]){"nl", "policy", "--family", "nosuch", NULL});

	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "kfsim nl: -ENOENT: no family 'nosuch'\n");
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "policy", "--family", "nlctrl", "--op", "77", NULL});
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "kfsim nl: -ENOENT: family 'nlctrl' has no op 77\n");
	cli_result_free(&r);
}

static void test_decode_valid(void **state)
{
	struct cli_result r = run((const char *const[]){
		"nl", "decode", "--family", "kfsim_demo", "--op", "2", "08000100", "07000000",
		"0800 0200 61626300", "0c00 0e80 0800 0100 05000000", NULL});

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "kfsim_demo op 2, 48 bytes: valid\n"
				   "  @20   [1] u32 = 7\n"
				   "  @28   [2] nul-string = \"abc\"\n"
				   "  @36   [14|NESTED] nested:\n"
				   "    @40   [1] u32 = 5\n");
	cli_result_free(&r);
}

/* --json carries the attributes the text shows: integers as numbers, nests as "attrs". */
/* Bytes pasted as a C array or from xxd decode the same as plain hex. */
static void test_decode_hex_forms(void **state)
{
	struct cli_result r = run((const char *const[]){
		"nl", "decode", "--family", "kfsim_demo", "--op", "2",
		"0x08, 0x00, 0x01, 0x00,", "0x07,0x00,0x00,0x00", "0400:0d00", NULL});

	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "kfsim_demo op 2, 32 bytes: valid\n"
				   "  @20   [1] u32 = 7\n"
				   "  @28   [13] flag = true\n");
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "decode", "--family", "kfsim_demo", "--op", "2",
				      "0x0g", NULL});
	assert_int_equal(r.status, 2);
	cli_result_free(&r);
}

static void test_decode_valid_json(void **state)
{
	struct cli_result r = run((const char *const[]){
		"nl", "decode", "--family", "kfsim_demo", "--op", "2", "--json", "0500 0600 fb000000",
		"0800 0200 41420000", "0c00 0e80 0800 0100 05000000", NULL});

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"valid\": true,\n  \"attrs\": [\n"));
	assert_non_null(strstr(r.out, "\"policy\": \"s8\",\n      \"value\": -5\n"));
	/* a nul-string padded with NULs is still text */
	assert_non_null(strstr(r.out, "\"policy\": \"nul-string\",\n      \"value\": \"AB\"\n"));
	assert_non_null(strstr(r.out, "\"policy\": \"nested\",\n      \"attrs\": [\n"));
	assert_non_null(strstr(r.out, "\"offset\": 40,\n          \"type\": 1,"));
	assert_non_null(strstr(r.out, "\"value\": 5\n"));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
}

static void test_decode_error_with_caret(void **state)
{
	struct cli_result r =
		run((const char *const[]){"nl", "decode", "--family", "kfsim_demo", "--op", "2",
					  "0800 0100 07000000 0600 0400 d007 0000", NULL});

	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "error: -ERANGE: integer out of range\n"));
	assert_non_null(strstr(r.out, "^^~~~~~~~~~  <- offset 28\n"));
	assert_string_equal(r.err, "kfsim nl: -ERANGE: integer out of range (offset 28)\n");
	cli_result_free(&r);

	/* a whole message given, with a missing NLA_F_NESTED */
	r = run((const char *const[]){"nl", "decode", "--family", "kfsim_demo", "--op", "2",
				      "--json",
				      "28000000 13000100 00000000 00000000 02010000 08000100 "
				      "07000000 0c000e00 08000100 05000000",
				      NULL});
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"message\": \"NLA_F_NESTED is missing\""));
	assert_non_null(strstr(r.out, "\"offset\": 28"));
	/*
	 * one JSON document: the verdict, which says why; no {"error": ...} after it (fuzzing
	 * found the two printed one after the other, which no JSON reader takes)
	 */
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"valid\": false"));
	assert_null(strstr(r.out, "\"error\""));
	assert_string_equal(strstr(r.out, "\n}\n"), "\n}\n");
	assert_string_equal(r.err, "kfsim nl: -EINVAL: NLA_F_NESTED is missing (offset 28)\n");
	cli_result_free(&r);
}

/* The ethtool family (PLCA ops) of the plca part is in kfsim nl's in-process kernel too. */
static void test_ethtool_family(void **state)
{
	struct cli_result r = run(
		(const char *const[]){"nl", "policy", "--family", "ethtool", "--op", "40", NULL});

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "family ethtool\nop 40: do policy 0\n"));
	assert_non_null(strstr(r.out, "  attr 5: u32 range 1..255\n"));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "decode", "--family", "ethtool", "--op", "40",
				      "0800 0500 08000000", NULL});
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "[5] u32 = 8\n"));
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "decode", "--family", "ethtool", "--op", "40",
				      "0800 0500 00000000", NULL});
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "kfsim nl: -ERANGE: integer out of range (offset 20)\n");
	cli_result_free(&r);
}

/*
 * A whole message goes through the request path itself (genl_family_rcv_msg): for a command
 * at or above resv_start_op (ethtool's PLCA ops) the reserved byte and nlmsg_flags are
 * checked, and a message too short for the genetlink header gets a bare -EINVAL.
 */
static void test_decode_whole_message_header_checks(void **state)
{
	static const struct {
		const char *hex, *err;
	} cases[] = {
		/* reserved byte 1 */
		{"14000000 14000500 01000000 00000000 27010100",
		 "kfsim nl: -EINVAL: genlmsghdr.reserved field is not 0\n"},
		/* NLM_F_EXCL on a do */
		{"14000000 14000502 01000000 00000000 27010000",
		 "kfsim nl: -EINVAL: ambiguous or reserved bits set in nlmsg_flags\n"},
		/* NLM_F_ROOT alone is not a dump */
		{"14000000 14000101 01000000 00000000 27010000",
		 "kfsim nl: -EINVAL: ambiguous or reserved bits set in nlmsg_flags\n"},
		/* no genetlink header at all */
		{"10000000 14000100 01000000 00000000", "kfsim nl: -EINVAL: Invalid argument\n"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_result r = run((const char *const[]){
			"nl", "decode", "--family", "ethtool", "--op", "39", cases[i].hex, NULL});

		assert_int_equal(r.status, 1);
		assert_string_equal(r.err, cases[i].err);
		assert_non_null(strstr(r.out, "INVALID"));
		cli_result_free(&r);
	}
	/* NLM_F_DUMP (ROOT|MATCH) is allowed and selects the dump op */
	struct cli_result r = run((const char *const[]){"nl", "decode", "--family", "ethtool",
		"--op", "39", "14000000 14000503 01000000 00000000 27010000", NULL});

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "(dump)"));
	cli_result_free(&r);
}

static void test_usage_errors(void **state)
{
	/* a whole message carries its own command: --op must agree with it */
	struct cli_result w = run((const char *const[]){
		"nl", "decode", "--family", "kfsim_demo", "--op", "1",
		"1c000000 13000100 00000000 00000000 02010000 08000100 07000000", NULL});

	assert_int_equal(w.status, 2);
	assert_string_equal(w.err, "kfsim nl: invalid value '1' for --op: the message's genetlink "
				   "command is 2\n");
	assert_string_equal(w.out, "");
	cli_result_free(&w);

	struct cli_result r = run((const char *const[]){"nl", "frob", NULL});

	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
			    "kfsim nl: unknown subcommand 'frob': expected policy or decode\n");
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "decode", "--family", "kfsim_demo", "--op", "2", "zz",
				      NULL});
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "policy", NULL});
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "kfsim nl: option '--family' is required\n");
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "policy", "--family", "nlctrl", "--op", "300", NULL});
	assert_int_equal(r.status, 2);
	cli_result_free(&r);
	r = run((const char *const[]){"nl", "decode", "--family", "kfsim_demo", "--op", "9", "00",
				      NULL});
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "kfsim nl: -EOPNOTSUPP: family 'kfsim_demo' has no do op 9\n");
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_demo_text),	cmocka_unit_test(test_policy_json),
		cmocka_unit_test(test_policy_unknown_family),	cmocka_unit_test(test_decode_valid),
		cmocka_unit_test(test_decode_error_with_caret), cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_decode_whole_message_header_checks),
		cmocka_unit_test(test_ethtool_family),
		cmocka_unit_test(test_decode_valid_json),
		cmocka_unit_test(test_decode_hex_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
