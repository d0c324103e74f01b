// SPDX-License-Identifier: MIT
/*
 * kfsim ethtool: ethtool 6.3's output lines and error wording byte for byte, its exit codes,
 * the built-in segment and --config, --json, dumps, and kfsim's own option errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_run.h"

#define RUN(result, ...) \
	assert_int_equal(cli_run(result, (const char *const[]){ "ethtool", __VA_ARGS__, NULL }), 0)

static void expect(struct cli_result *r, int status, const char *out, const char *err)
{
	if (r->status != status || strcmp(r->out, out) || strcmp(r->err, err))
		print_error("status %d\nstdout:\n%s\nstderr:\n%s\n", r->status, r->out, r->err);
	assert_int_equal(r->status, status);
	assert_string_equal(r->out, out);
	assert_string_equal(r->err, err);
	cli_result_free(r);
}

static void test_get_cfg_golden(void **state)
{
	struct cli_result r;

	RUN(&r, "--get-plca-cfg", "eth0");
	expect(&r, 0, "PLCA settings for eth0:\n"
		      "\tEnabled: Yes\n"
		      "\tlocal node ID: 0 (coordinator)\n"
		      "\tNode count: 8\n"
		      "\tTO timer: 32 BT\n"
		      "\tBurst count: 0 (disabled)\n"
		      "\tBurst timer: 128 BT\n", "");
	RUN(&r, "--get-plca-cfg", "eth1");
	expect(&r, 0, "PLCA settings for eth1:\n"
		      "\tEnabled: Yes\n"
		      "\tlocal node ID: 1 (follower)\n"
		      "\tNode count: 8 (ignored)\n"
		      "\tTO timer: 32 BT\n"
		      "\tBurst count: 0 (disabled)\n"
		      "\tBurst timer: 128 BT\n", "");
	RUN(&r, "--get-plca-cfg", "eth2");
	expect(&r, 0, "PLCA settings for eth2:\n"
		      "\tEnabled: No\n"
		      "\tlocal node ID: 255 (unconfigured)\n"
		      "\tNode count: 8 (ignored)\n"
		      "\tTO timer: 32 BT\n"
		      "\tBurst count: 0 (disabled)\n"
		      "\tBurst timer: 128 BT\n", "");
}

static void test_get_status_golden(void **state)
{
	struct cli_result r;

	RUN(&r, "--get-plca-status", "eth1");
	expect(&r, 0, "PLCA status of eth1:\n\tStatus: on\n", "");
	RUN(&r, "--get-plca-status", "eth2");
	expect(&r, 0, "PLCA status of eth2:\n\tStatus: off\n", "");
	/* A dump prints a blank line before each device that has PLCA. */
	RUN(&r, "--get-plca-status", "*");
	expect(&r, 0, "\nPLCA status of eth0:\n\tStatus: on\n"
		      "\nPLCA status of eth1:\n\tStatus: on\n"
		      "\nPLCA status of eth2:\n\tStatus: off\n", "");
}

static void test_set_and_kernel_errors(void **state)
{
	struct cli_result r;

	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "2", "enable", "on", "to-tmr", "0x20");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "node-cnt", "0");
	expect(&r, 76, "", "netlink error: integer out of range (offset 36)\n"
			   "netlink error: Numerical result out of range\n");
	RUN(&r, "--set-plca-cfg", "eth2", "enable", "on");
	expect(&r, 76, "", "netlink error: PLCA node ID is not set\n"
			   "netlink error: Invalid argument\n");
	RUN(&r, "--set-plca-cfg", "eth0", "burst-tmr", "300");
	expect(&r, 76, "", "netlink error: integer out of range (offset 36)\n"
			   "netlink error: Numerical result out of range\n");
	RUN(&r, "--no-admin", "--set-plca-cfg", "eth0", "node-id", "1");
	expect(&r, 76, "", "netlink error: Operation not permitted\n");
	RUN(&r, "--get-plca-cfg", "eth3");
	expect(&r, 1, "", "netlink error: Operation not supported\n");
	RUN(&r, "--get-plca-cfg", "lo");
	expect(&r, 1, "", "netlink error: Operation not supported\n");
	RUN(&r, "--set-plca-cfg", "eth3", "node-id", "1");
	expect(&r, 76, "", "netlink error: Operation not supported\n");
	RUN(&r, "--get-plca-status", "nosuch0");
	expect(&r, 1, "", "netlink error: no device matches name (offset 24)\n"
			  "netlink error: No such device\n");
}

static void test_bad_arguments(void **state)
{
	struct cli_result r;

	RUN(&r, "--set-plca-cfg", "eth0");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): parameters missing\n");
	RUN(&r, "--set-plca-cfg", "eth0", "node-id", "x");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value 'x' for parameter 'node-id'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "node-id", "-1");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '-1' for parameter 'node-id'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "to-tmr", "4294967296");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '4294967296' for parameter 'to-tmr'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "burst-cnt", "0x");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '0x' for parameter 'burst-cnt'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "enable", "yes");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value 'yes' for parameter 'enable'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "speed", "10");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): unknown parameter 'speed'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "node-id", "1", "node-id", "2");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): duplicate parameter 'node-id'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "to-tmr");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): no value for parameter 'to-tmr'\n");
	RUN(&r, "--get-plca-cfg", "eth0", "extra");
	expect(&r, 1, "", "ethtool: unexpected parameter 'extra'\n");
	RUN(&r, "--get-plca-status");
	expect(&r, 1, "", "ethtool: bad command line argument(s)\n"
			  "For more information run ethtool -h\n");
}

static void test_kfsim_option_errors(void **state)
{
	struct cli_result r;

	RUN(&r, "--frobnicate", "--get-plca-cfg", "eth0");
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "unknown option '--frobnicate'"));
	cli_result_free(&r);
	RUN(&r, "--kernel", "--config", "x.conf", "--get-plca-cfg", "eth0");
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
	RUN(&r, "--config");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "option '--config' needs a value"));
	cli_result_free(&r);
	RUN(&r, "--json");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "missing subcommand: expected --get-plca-cfg"));
	cli_result_free(&r);
	RUN(&r, "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--set-plca-cfg DEVNAME\tSet PLCA configuration"));
	cli_result_free(&r);
}

/*
 * kfsim's own options go through the option table: one line naming the option, exit status 2;
 * from the action on, ethtool's rules (its words, exit status 1).
 */
static void test_kfsim_options_from_the_table(void **state)
{
	static const struct {
		const char *args[5];
		const char *message;
	} bad[] = {
		{ { "--server" }, "kfsim ethtool: option '--server' needs a value\n" },
		{ { "--server", "", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: invalid value '' for --server: expected PATH\n" },
		{ { "--config", "", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: invalid value '' for --config: expected FILE\n" },
		{ { "--json=1", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: option '--json' takes no value\n" },
		{ { "-Z", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: unknown option '-Z' (see 'kfsim ethtool --help')\n" },
		{ { "eth0", "--get-plca-cfg" }, "kfsim ethtool: unexpected argument 'eth0'\n" },
		{ { "--no-admin" }, "kfsim ethtool: missing subcommand: expected --get-plca-cfg, "
				    "--set-plca-cfg or --get-plca-status (see 'kfsim ethtool "
				    "--help')\n" },
		{ { "--server", "/x", "--kernel", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: --server excludes --kernel, --config and --no-admin: the server "
		  "has its own devices and takes your credentials\n" },
		{ { "--kernel", "--no-admin", "--get-plca-cfg", "eth0" },
		  "kfsim ethtool: --no-admin applies to the in-process kernel only\n" },
	};
	struct cli_result r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[7] = { "ethtool" };

		for (int a = 0; a < 5 && bad[i].args[a]; a++)
			args[a + 1] = bad[i].args[a];
		assert_int_equal(cli_run(&r, args), 0);
		expect(&r, 2, "", bad[i].message);
	}
	/* "--config FILE" where FILE looks like the action: it is the file, and no action is left */
	RUN(&r, "--config", "--get-plca-cfg");
	expect(&r, 2, "", "kfsim ethtool: missing subcommand: expected --get-plca-cfg, --set-plca-cfg or "
			  "--get-plca-status (see 'kfsim ethtool --help')\n");
	/* after the action, words are ethtool's: "--json" is a device name, "--help" a parameter */
	RUN(&r, "--get-plca-cfg", "eth0", "--help");
	expect(&r, 1, "", "ethtool: unexpected parameter '--help'\n");
	RUN(&r, "--set-plca-cfg", "eth0", "enable", "on", "--json");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): unknown parameter '--json'\n");
	/* a value may look like an option: ethtool's parse_u32() refuses "-h", the table says so */
	RUN(&r, "--set-plca-cfg", "eth0", "node-id", "-h");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '-h' for parameter 'node-id'\n");
	/* every keyword row, in the order ethtool's set_plca_params[] lists them */
	RUN(&r, "--set-plca-cfg", "eth2", "burst-tmr", "0x80", "burst-cnt", "+0", "to-tmr", "32",
	    "node-cnt", "8", "node-id", "0", "enable", "off");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "enable", "ON");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value 'ON' for parameter 'enable'\n");
	/* ethtool's -I/--include-statistics: taken before the action, and no change for PLCA */
	{
		struct cli_result plain;

		RUN(&plain, "--get-plca-cfg", "eth0");
		RUN(&r, "-I", "--get-plca-cfg", "eth0");
		expect(&r, 0, plain.out, "");
		RUN(&r, "--include-statistics", "--json", "--get-plca-status", "*");
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "\"ifname\": \"eth0\""));
		cli_result_free(&r);
		cli_result_free(&plain);
	}
	RUN(&r, "--get-plca-cfg", "-I", "eth0");
	expect(&r, 1, "", "ethtool: unexpected parameter 'eth0'\n");
	/* the help's parameter lines come from the same table */
	RUN(&r, "-h");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\t\t[ enable on|off ]\n\t\t[ node-id N ]\n\t\t[ node-cnt N ]\n"
				      "\t\t[ to-tmr N ]\n\t\t[ burst-cnt N ]\n\t\t[ burst-tmr N ]\n"));
	assert_non_null(strstr(r.out, "  [ node-cnt N ]          nodes on the segment"));
	assert_non_null(strstr(r.out, "  --server PATH"));
	cli_result_free(&r);
}

static void write_file(const char *path, const char *text)
{
	FILE *file = fopen(path, "w");

	assert_non_null(file);
	fputs(text, file);
	fclose(file);
}

static void test_config_file(void **state)
{
	char path[] = "/tmp/kfsim-plca-XXXXXX";
	struct cli_result r;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_file(path, "# two nodes\n"
			 "dev t1s0 ifindex 7 phy ncn26000 enable on node-id 0 node-cnt 2 burst-cnt 3\n"
			 "dev t1s1 phy oa-tc14 node-id 1 enable on   # follower\n"
			 "dev vendor0 phy bad-idm\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "t1s0");
	expect(&r, 0, "PLCA settings for t1s0:\n"
		      "\tEnabled: Yes\n"
		      "\tlocal node ID: 0 (coordinator)\n"
		      "\tNode count: 2\n"
		      "\tTO timer: 32 BT\n"
		      "\tBurst count: 3 (enabled)\n"
		      "\tBurst timer: 128 BT\n", "");
	RUN(&r, "--config", path, "--get-plca-status", "t1s1");
	expect(&r, 0, "PLCA status of t1s1:\n\tStatus: on\n", "");
	/* The foreign register map: genphy_c45_plca_get_cfg's -ENODEV. */
	RUN(&r, "--config", path, "--get-plca-cfg", "vendor0");
	expect(&r, 1, "", "netlink error: No such device\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "eth0");
	expect(&r, 1, "", "netlink error: no device matches name (offset 24)\n"
			  "netlink error: No such device\n");

	write_file(path, "dev a0 phy oa-tc14\ndev b0 phy oa-tc14 node-cnt 0\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim ethtool: -EINVAL: "));
	assert_non_null(strstr(r.err, "line 2: invalid value '0' for 'node-cnt': expected an integer from 1 to 255"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
	write_file(path, "dev a0 phy oa-tc14 enable on\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "line 1: a0: PLCA node ID is not set"));
	cli_result_free(&r);
	write_file(path, "dev a0 phy warp9\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "unknown PHY model 'warp9'"));
	cli_result_free(&r);
	unlink(path);
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOENT"));
	cli_result_free(&r);
	/* a directory opens for reading, but is not a device file */
	RUN(&r, "--config", KFSIM_BINARY_DIR, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim ethtool: -EISDIR: "));
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
}

/* ethtool's rules before anything is sent: wildcard SETs, over-long names, parse_u32. */
static void test_ethtool_argument_rules(void **state)
{
	char name[130];
	struct cli_result r;

	RUN(&r, "--set-plca-cfg", "*", "node-id", "1");
	expect(&r, 1, "", "subcommand does not support wildcard dump\n");
	RUN(&r, "--set-plca-cfg", "*");
	expect(&r, 1, "", "subcommand does not support wildcard dump\n");
	memset(name, 'n', 128);
	name[128] = '\0';
	RUN(&r, "--get-plca-cfg", name);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "' longer than 127 characters\n"));
	assert_int_equal(strncmp(r.err, "device name 'nnn", 16), 0);
	cli_result_free(&r);
	RUN(&r, "--set-plca-cfg", name, "node-id", "1");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "' longer than 127 characters\n"));
	cli_result_free(&r);
	/* 127 characters go to the kernel, which knows no such device. */
	name[127] = '\0';
	RUN(&r, "--get-plca-cfg", name);
	expect(&r, 1, "", "netlink error: no device matches name (offset 24)\n"
			  "netlink error: No such device\n");
	/* strtoul() semantics: sign and leading blanks are taken, "-0" is 0. */
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "+5");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", " 5");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "-0");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "0X1f");
	expect(&r, 0, "", "");
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "5 ");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '5 ' for parameter 'node-id'\n");
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): invalid value '' for parameter 'node-id'\n");
	/* The duplicate is found before its missing value. */
	RUN(&r, "--set-plca-cfg", "eth2", "node-id", "1", "node-id");
	expect(&r, 1, "", "ethtool (--set-plca-cfg): duplicate parameter 'node-id'\n");
}

/* ethtool -h's PLCA lines, tabs and all. */
static void test_help_lines(void **state)
{
	struct cli_result r;

	RUN(&r, "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "        ethtool [ FLAGS ] --get-plca-cfg DEVNAME\tGet PLCA configuration\n"
				      "        ethtool [ FLAGS ] --set-plca-cfg DEVNAME\tSet PLCA configuration\n"
				      "\t\t[ enable on|off ]\n\t\t[ node-id N ]\n\t\t[ node-cnt N ]\n"
				      "\t\t[ to-tmr N ]\n\t\t[ burst-cnt N ]\n\t\t[ burst-tmr N ]\n"
				      "        ethtool [ FLAGS ] --get-plca-status DEVNAME\tGet PLCA status information\n"));
	cli_result_free(&r);
}

/*
 * A dump whose second device fails (a foreign PLCA map: -ENODEV) ends in NLMSG_DONE carrying
 * the error; libmnl stops there, so ethtool has printed the first device and exits 0.  A
 * repeated key in the configuration file is refused.
 */
static void test_dump_ending_in_error_and_config_duplicates(void **state)
{
	char path[] = "/tmp/kfsim-plca-XXXXXX";
	struct cli_result r;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_file(path, "dev a0 phy oa-tc14\ndev b0 phy bad-idm\ndev c0 phy oa-tc14\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "*");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "PLCA settings for a0:"));
	assert_null(strstr(r.out, "c0"));
	cli_result_free(&r);
	write_file(path, "dev a0 phy oa-tc14 node-id 1 node-id 2\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "line 1: duplicate keyword 'node-id'"));
	cli_result_free(&r);
	write_file(path, "dev a0 phy oa-tc14 phy ncn26000\n");
	RUN(&r, "--config", path, "--get-plca-cfg", "a0");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "line 1: duplicate keyword 'phy'"));
	cli_result_free(&r);
	unlink(path);
}

static void test_json(void **state)
{
	struct cli_result r;

	RUN(&r, "--json", "--get-plca-cfg", "eth1");
	assert_int_equal(r.status, 0);
	assert_true(r.out[0] == '{');
	assert_non_null(strstr(r.out, "\"ifname\": \"eth1\""));
	assert_non_null(strstr(r.out, "\"node_id\": 1"));
	assert_non_null(strstr(r.out, "\"version\": 16"));
	assert_non_null(strstr(r.out, "\"error\": 0"));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
	RUN(&r, "--json", "--set-plca-cfg", "eth0", "node-cnt", "0");
	assert_int_equal(r.status, 76);
	assert_non_null(strstr(r.out, "\"errno\": \"ERANGE\""));
	assert_non_null(strstr(r.out, "\"extack\": \"integer out of range\""));
	assert_non_null(strstr(r.out, "\"offset\": 36"));
	cli_result_free(&r);
}

static void test_running_kernel(void **state)
{
	struct cli_result r;

	/* lo has no PHY on any kernel: the kernel's answer, printed as ethtool prints it. */
	RUN(&r, "--kernel", "--get-plca-cfg", "lo");
	if (strstr(r.err, "cannot reach the running kernel")) {
		print_message("skipped: %s", r.err);
		cli_result_free(&r);
		skip();
	}
	expect(&r, 1, "", "netlink error: Operation not supported\n");
	RUN(&r, "--kernel", "--set-plca-cfg", "kfsimnodev0", "node-cnt", "0");
	if (geteuid() != 0)	/* the permission check comes before the policy */
		expect(&r, 76, "", "netlink error: Operation not permitted\n");
	else
		expect(&r, 76, "", "netlink error: integer out of range (offset 40)\n"
				   "netlink error: Numerical result out of range\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_cfg_golden),
		cmocka_unit_test(test_get_status_golden),
		cmocka_unit_test(test_set_and_kernel_errors),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_kfsim_option_errors),
		cmocka_unit_test(test_config_file),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_running_kernel),
		cmocka_unit_test(test_ethtool_argument_rules),
		cmocka_unit_test(test_help_lines),
		cmocka_unit_test(test_kfsim_options_from_the_table),
		cmocka_unit_test(test_dump_ending_in_error_and_config_duplicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
