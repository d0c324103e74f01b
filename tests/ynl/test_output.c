// SPDX-License-Identifier: MIT
/*
 * What the generator writes: the uapi names the kernel's generator uses (checked on kfsim's own
 * ethtool spec, whose values the PLCA netlink contract fixes), policies from checks, and
 * determinism (same input, same bytes; an unchanged file is not rewritten).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <kfsim/ynl_gen.h>
#include "spec_tmp.h"
#include "support/cli_assert.h"

#define ETHTOOL_SPEC KFSIM_SOURCE_DIR "/specs/ethtool.yaml"

static char *slurp(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_whole_file(path);
}

static void generate(struct spec_tmp *t)
{
	char err[1024];

	spec_tmp_init(t, "");
	assert_int_equal(kfsim_ynl_generate(ETHTOOL_SPEC, t->out, KFSIM_YNL_GEN_ALL, err,
					    sizeof(err)), 0);
}

static void test_uapi_names_and_values(void **state)
{
	struct spec_tmp t;
	char *uapi;

	generate(&t);
	uapi = slurp(t.out, "ethtool-uapi.h");
	assert_non_null(strstr(uapi, "#define ETHTOOL_GENL_NAME\t\"ethtool\"\n"
				     "#define ETHTOOL_GENL_VERSION\t1\n"));
	assert_non_null(strstr(uapi, "\tETHTOOL_A_PLCA_HEADER = 1,\n\tETHTOOL_A_PLCA_VERSION,\n"
				     "\tETHTOOL_A_PLCA_ENABLED,\n\tETHTOOL_A_PLCA_STATUS,\n"
				     "\tETHTOOL_A_PLCA_NODE_CNT,\n\tETHTOOL_A_PLCA_NODE_ID,\n"
				     "\tETHTOOL_A_PLCA_TO_TMR,\n\tETHTOOL_A_PLCA_BURST_CNT,\n"
				     "\tETHTOOL_A_PLCA_BURST_TMR,\n\n\t__ETHTOOL_A_PLCA_MAX,\n"
				     "\tETHTOOL_A_PLCA_MAX = (__ETHTOOL_A_PLCA_MAX - 1)\n};"));
	assert_non_null(strstr(uapi, "\tETHTOOL_MSG_USER_NONE,\n\tETHTOOL_MSG_PLCA_GET_CFG = 39,\n"
				     "\tETHTOOL_MSG_PLCA_SET_CFG,\n\tETHTOOL_MSG_PLCA_GET_STATUS,\n"));
	assert_non_null(strstr(uapi, "\tETHTOOL_MSG_KERNEL_NONE,\n"
				     "\tETHTOOL_MSG_PLCA_GET_CFG_REPLY = 39,\n"
				     "\tETHTOOL_MSG_PLCA_GET_STATUS_REPLY,\n\tETHTOOL_MSG_PLCA_NTF,\n"));
	assert_non_null(strstr(uapi, "\tETHTOOL_FLAG_COMPACT_BITSETS = 1,\n"
				     "\tETHTOOL_FLAG_OMIT_REPLY = 2,\n\tETHTOOL_FLAG_STATS = 4,\n"));
	assert_non_null(strstr(uapi, "#define ETHTOOL_MCGRP_MONITOR_NAME\t\"monitor\"\n"));
	/* scope: kernel definitions stay out of the uapi. */
	assert_null(strstr(uapi, "BASIC"));
	free(uapi);
	spec_tmp_cleanup(&t);
}

static void test_kernel_policies_follow_the_checks(void **state)
{
	struct spec_tmp t;
	char *src;

	generate(&t);
	src = slurp(t.out, "ethtool-kernel.c");
	/* net/ethtool/plca.c and netlink.c, attribute by attribute. */
	assert_non_null(strstr(src, "[2] = { .type = NLA_NUL_STRING, .len = 127, },"));
	assert_non_null(strstr(src, "[3] = NLA_POLICY_MASK(NLA_U32, 0x3),"));
	assert_non_null(strstr(src, "[4] = NLA_POLICY_MIN(NLA_U32, 1),"));
	assert_non_null(strstr(src, "ethtool_plca_set_cfg_nl_policy[10] = {\n"
				    "\t[1] = NLA_POLICY_NESTED(ethtool_header_nl_policy),"));
	assert_non_null(strstr(src, "[3] = NLA_POLICY_MAX(NLA_U8, 1), /* ETHTOOL_A_PLCA_ENABLED */\n"
				    "\t[5] = NLA_POLICY_RANGE(NLA_U32, 1, 255), /* ETHTOOL_A_PLCA_NODE_CNT */"));
	assert_non_null(strstr(src, ".flags\t\t= GENL_CMD_CAP_DO | GENL_UNS_ADMIN_PERM,"));
	free(src);
	spec_tmp_cleanup(&t);
}

/*
 * The kernel output as 6.12's ynl-gen-c.py renders it (issue 16 items 8-12): a subset-of nest
 * sized by the subset, no range struct and no nested policy for reply-only attributes, binary
 * min-len as { .len = N }, big-endian integers as NLA_U16, a global policy in the family with
 * genl_small_ops, resv_start_op from the table of hand-written families.
 */
static const char kernel_spec[] =
	"name: ethtool\nprotocol: genetlink-legacy\ndoc: d\nkernel-policy: global\n"
	"attribute-sets:\n"
	"  - name: main\n    attributes:\n"
	"      - { name: id, type: u32 }\n"
	"      - { name: big, type: u32, checks: { max: 100000 } }\n"
	"      - { name: inner, type: nest, nested-attributes: sub }\n"
	"      - { name: reply-big, type: u32, checks: { max: 200000 } }\n"
	"      - { name: reply-nest, type: nest, nested-attributes: other }\n"
	"      - { name: addr, type: binary, checks: { min-len: 16 } }\n"
	"      - { name: port, type: u16, byte-order: big-endian }\n"
	"  - name: full\n    attributes:\n"
	"      - { name: a, type: u32 }\n      - { name: b, type: u32 }\n"
	"      - { name: c, type: u32 }\n      - { name: d, type: u32 }\n"
	"  - name: sub\n    subset-of: full\n    attributes:\n      - { name: a }\n      - { name: b }\n"
	"  - name: other\n    attributes:\n      - { name: x, type: u32 }\n"
	"operations:\n  list:\n"
	"    - name: module-get\n      doc: x\n      value: 34\n      attribute-set: main\n"
	"      dont-validate: [ strict, dump ]\n"
	"      do:\n        request: { attributes: [ id, big, inner, addr, port ] }\n"
	"        reply: { attributes: [ reply-big, reply-nest ] }\n"
	"      dump:\n        reply: { attributes: [ reply-big ] }\n";

static void test_kernel_output_as_the_kernel_generator(void **state)
{
	struct spec_tmp t;
	char err[1024];
	char *src, *hdr;

	spec_tmp_init(&t, kernel_spec);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_KERNEL, err, sizeof(err)),
			 0);
	src = slurp(t.out, "ethtool-kernel.c");
	hdr = slurp(t.out, "ethtool-kernel.h");
	/* 8: sized by the subset's own attributes (b = 2), not the parent's (d = 4) */
	assert_non_null(strstr(src, "ethtool_sub_nl_policy[3] = {"));
	assert_non_null(strstr(hdr, "ethtool_sub_nl_policy[3];"));
	/* 9: reply-only attributes get no range struct, reply-only sets no policy */
	assert_non_null(strstr(src, "ethtool_a_main_big_range"));
	assert_null(strstr(src, "ethtool_a_main_reply_big_range"));
	assert_null(strstr(src, "ethtool_other_nl_policy"));
	/* 10: binary min-len alone is NLA_UNSPEC with a minimum length */
	assert_non_null(strstr(src, "[6] = { .len = 16, },"));
	/* big-endian stays NLA_U16 */
	assert_non_null(strstr(src, "[7] = { .type = NLA_U16, },"));
	/* 11: global policy: small ops without a policy, the family carries it */
	assert_non_null(strstr(src, "const struct genl_small_ops ethtool_nl_ops[1] = {"));
	assert_null(strstr(src, "GENL_CMD_CAP_"));
	assert_non_null(strstr(src, ".validate\t= GENL_DONT_VALIDATE_STRICT | GENL_DONT_VALIDATE_DUMP,"));
	assert_non_null(strstr(hdr, "\t.small_ops = ethtool_nl_ops, \\\n\t.n_small_ops = 1, \\\n"
				    "\t.policy = ethtool_main_nl_policy, \\\n\t.maxattr = 7, \\\n"));
	/* 12: ethtool's resv_start_op is ETHTOOL_MSG_MODULE_GET + 1 */
	assert_non_null(strstr(hdr, "\t.resv_start_op = 35, \\\n"));
	free(src);
	free(hdr);
	spec_tmp_cleanup(&t);
}

/*
 * Rules of 6.12's ynl-gen-c.py that specs of the kernel's corpus never met and spec_fuzz.py's
 * did: an enum bounds its integer attribute where the checks do not (min only when the enum does
 * not start at 0 or the type is signed), a flags attribute is validated by its mask even with a
 * max, a multi-attr string is NLA_STRING, the global policy is named after the ops' set.
 */
static const char rules_spec[] =
	"name: t\nprotocol: genetlink-legacy\ndoc: d\nkernel-policy: global\n"
	"definitions:\n"
	"  - { name: e, type: enum, entries: [ a, b, c ] }\n"
	"  - { name: fl, type: flags, entries: [ x, y ] }\n"
	"attribute-sets:\n"
	"  - name: main\n    attributes:\n"
	"      - { name: pick, type: u32, enum: e, checks: { min: 1 } }\n"
	"      - { name: pick-max, type: u8, enum: e, checks: { max: 1 } }\n"
	"      - { name: opts, type: u32, enum: fl, checks: { max: 9 } }\n"
	"      - { name: names, type: string, multi-attr: true }\n"
	"      - { name: sval, type: s32, enum: e }\n"
	"      - { name: plain, type: u16, enum: e }\n"
	"operations:\n  list:\n"
	"    - name: get\n      doc: x\n      attribute-set: main\n"
	"      do: { request: { attributes: [ pick, pick-max, opts, names, sval, plain ] } }\n";

static void test_kernel_policy_rules_of_ynl_gen_c(void **state)
{
	struct spec_tmp t;
	char err[1024];
	char *src, *hdr;

	spec_tmp_init(&t, rules_spec);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_KERNEL, err, sizeof(err)),
			 0);
	src = slurp(t.out, "t-kernel.c");
	hdr = slurp(t.out, "t-kernel.h");
	assert_non_null(strstr(src, "const struct nla_policy t_main_nl_policy[7] = {"));
	assert_non_null(strstr(hdr, "\t.policy = t_main_nl_policy, \\\n\t.maxattr = 6, \\\n"));
	assert_non_null(strstr(src, "[1] = NLA_POLICY_RANGE(NLA_U32, 1, 2),"));
	assert_non_null(strstr(src, "[2] = NLA_POLICY_MAX(NLA_U8, 1),"));
	assert_non_null(strstr(src, "[3] = NLA_POLICY_MASK(NLA_U32, 0x3),"));
	assert_non_null(strstr(src, "[4] = { .type = NLA_STRING, },"));
	assert_non_null(strstr(src, "[5] = NLA_POLICY_RANGE(NLA_S32, 0, 2),"));
	assert_non_null(strstr(src, "[6] = NLA_POLICY_MAX(NLA_U16, 2),"));
	free(src);
	free(hdr);
	spec_tmp_cleanup(&t);
}

static void test_generation_is_deterministic(void **state)
{
	static const char *const files[] = {
		"ethtool-uapi.h", "ethtool-kernel.h", "ethtool-kernel.c", "ethtool-user.h",
		"ethtool-user.c",
	};
	struct spec_tmp a, b;
	struct stat before, after;
	char path[512], err[1024];

	generate(&a);
	generate(&b);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *x = slurp(a.out, files[i]), *y = slurp(b.out, files[i]);

		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	/* Same input again: nothing is rewritten, so builds depending on it stay up to date. */
	snprintf(path, sizeof(path), "%s/ethtool-user.c", a.out);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(kfsim_ynl_generate(ETHTOOL_SPEC, a.out, KFSIM_YNL_GEN_ALL, err,
					    sizeof(err)), 0);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	assert_int_equal(spec_tmp_count(&a), 5);
	spec_tmp_cleanup(&a);
	spec_tmp_cleanup(&b);
}

static void test_render_max_and_max_by_define(void **state)
{
	struct spec_tmp t;
	char err[1024], *uapi;

	spec_tmp_init(&t, "name: m\ndoc: d\nprotocol: genetlink-c\nmax-by-define: true\n"
		      "definitions:\n  - { name: e, type: enum, entries: [ a, b ], render-max: true }\n"
		      "  - { name: f, type: flags, entries: [ x, y ], render-max: true }\n"
		      "attribute-sets:\n  - { name: s, attributes: [ { name: a, type: u8 } ] }\n"
		      "operations: { list: [ { name: get, doc: x } ] }\n");
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_UAPI, err, sizeof(err)), 0);
	uapi = slurp(t.out, "m-uapi.h");
	assert_non_null(strstr(uapi, "\t/* private: */\n\t__M_E_MAX,\n\tM_E_MAX = (__M_E_MAX - 1)\n};"));
	assert_non_null(strstr(uapi, "\t/* private: */\n\tM_F_MASK = 3,\n};"));
	assert_non_null(strstr(uapi, "\t__M_A_S_MAX\n};\n#define M_A_S_MAX (__M_A_S_MAX - 1)\n"));
	assert_non_null(strstr(uapi, "\tM_CMD_GET = 1,\n\n\t__M_CMD_MAX\n};\n"
				     "#define M_CMD_MAX (__M_CMD_MAX - 1)\n"));
	free(uapi);
	spec_tmp_cleanup(&t);
}

/*
 * devlink's and ethtool's 6.12 specs give two sets one name prefix (dl-attr-stats) and a set an
 * attribute named "max" (c33-pse-pw-limit): the derived count/max names repeat, and the header
 * did not compile.  The later set's names get its set name appended; the header compiles.
 */
static void test_uapi_names_never_repeat(void **state)
{
	struct spec_tmp t;
	char err[1024], cmd[1024], *uapi;

	spec_tmp_init(&t, "name: d\ndoc: x\nprotocol: genetlink\n"
		      "attribute-sets:\n"
		      "  - { name: main, name-prefix: d-attr-, attributes: [ { name: a, type: u8 } ] }\n"
		      "  - { name: stats, name-prefix: d-attr-, attributes: [ { name: rx, type: u32 } ] }\n"
		      "  - { name: lim, attributes: [ { name: min, type: u32 }, { name: max, type: u32 } ] }\n"
		      "operations: { list: [ { name: get, doc: x } ] }\n");
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_UAPI, err, sizeof(err)), 0);
	uapi = slurp(t.out, "d-uapi.h");
	assert_non_null(strstr(uapi, "\t__D_ATTR_MAX,\n\tD_ATTR_MAX = (__D_ATTR_MAX - 1)\n"));
	assert_non_null(strstr(uapi, "\t__D_ATTR_MAX_STATS,\n"
				     "\tD_ATTR_MAX_STATS = (__D_ATTR_MAX_STATS - 1)\n"));
	assert_non_null(strstr(uapi, "\tD_A_LIM_MAX,\n\n\t__D_A_LIM_MAX_LIM,\n"));
	snprintf(cmd, sizeof(cmd), "printf '#include <linux/types.h>\\n#include \"%s/d-uapi.h\"\\n' | "
		 "cc -fsyntax-only -Werror -x c -", t.out);
	assert_int_equal(system(cmd), 0);
	free(uapi);
	spec_tmp_cleanup(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uapi_names_and_values),
		cmocka_unit_test(test_kernel_policies_follow_the_checks),
		cmocka_unit_test(test_kernel_policy_rules_of_ynl_gen_c),
		cmocka_unit_test(test_generation_is_deterministic),
		cmocka_unit_test(test_kernel_output_as_the_kernel_generator),
		cmocka_unit_test(test_render_max_and_max_by_define),
		cmocka_unit_test(test_uapi_names_never_repeat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
