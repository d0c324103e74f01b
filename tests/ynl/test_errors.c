// SPDX-License-Identifier: MIT
/*
 * Every kind of bad spec: the exact "file:line:column: message", the errno, and that the output
 * directory is left exactly as it was (no file, no temporary, an older file untouched).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/ynl_gen.h>
#include "support/cli_run.h"
#include "spec_tmp.h"

#define HEAD "name: t\ndoc: d\n"

struct bad_spec {
	const char *what;
	const char *text;
	const char *message;	/* after "<path>:" */
};

static const struct bad_spec bad_specs[] = {
	{ "YAML syntax", HEAD "attribute-sets: [\n", "4:1: while parsing a flow node: did not find expected node content" },
	{ "YAML syntax: bad indentation", HEAD "operations:\n  list: []\n   x: 1\n",
	  "5:4: while parsing a block mapping: did not find expected key" },
	{ "not a mapping", "- a\n- b\n", "1:1: the spec must be a mapping" },
	{ "unknown root key", HEAD "attribute-sets: []\noperations: { list: [] }\nbogus: 1\n",
	  "5:1: unknown key 'bogus' in the spec" },
	{ "missing root key", HEAD "operations: { list: [] }\n",
	  "1:1: missing required key 'attribute-sets' in the spec" },
	{ "unknown protocol", HEAD "protocol: genetlink-x\nattribute-sets: []\noperations: { list: [] }\n",
	  "3:11: unknown protocol 'genetlink-x' (genetlink, genetlink-c, genetlink-legacy or netlink-raw)" },
	{ "key above the protocol level", HEAD "kernel-policy: global\nattribute-sets: []\n"
	  "operations: { list: [] }\n",
	  "3:1: key 'kernel-policy' in the spec needs protocol genetlink-legacy or later, the spec is genetlink" },
	{ "raw needs protonum", HEAD "protocol: netlink-raw\nattribute-sets: []\noperations: { list: [] }\n",
	  "1:1: missing required key 'protonum' in a netlink-raw spec" },
	{ "duplicate key", HEAD "attribute-sets: []\nattribute-sets: []\noperations: { list: [] }\n",
	  "4:1: duplicate key 'attribute-sets' in the spec" },
	{ "unknown attribute key", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32, colour: red }\noperations: { list: [] }\n",
	  "6:31: unknown key 'colour' in attribute" },
	{ "missing attribute type", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a }\noperations: { list: [] }\n",
	  "6:9: missing required key 'type' in attribute 'a'" },
	{ "unknown attribute type", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u24 }\noperations: { list: [] }\n",
	  "6:26: unknown attribute type 'u24'" },
	{ "undefined nested set", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: nest, nested-attributes: nope }\noperations: { list: [] }\n",
	  "6:51: nested-attributes refers to undefined attribute set 'nope'" },
	{ "undefined enum", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32, enum: nope }\noperations: { list: [] }\n",
	  "6:37: enum refers to undefined enum 'nope'" },
	{ "undefined constant in checks", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: string, checks: { max-len: nope } }\noperations: { list: [] }\n",
	  "6:53: max-len refers to undefined constant 'nope'" },
	{ "duplicate attribute value", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32 }\n      - { name: b, type: u32, value: 1 }\n"
	  "operations: { list: [] }\n",
	  "7:9: duplicate value 1 for attribute 'b' (already 'a')" },
	{ "duplicate attribute name", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32 }\n      - { name: a, type: u8 }\noperations: { list: [] }\n",
	  "7:9: duplicate attribute 'a' in set 's'" },
	{ "duplicate enum value", HEAD "definitions:\n  - name: e\n    type: enum\n"
	  "    entries: [ a, { name: b, value: 0 } ]\nattribute-sets: []\noperations: { list: [] }\n",
	  "6:19: duplicate value 0 for entry 'b' (already 'a')" },
	{ "duplicate set", HEAD "attribute-sets:\n  - { name: s, attributes: [] }\n"
	  "  - { name: s, attributes: [] }\noperations: { list: [] }\n",
	  "5:5: duplicate attribute set 's'" },
	{ "duplicate op value", HEAD "attribute-sets: []\noperations:\n  list:\n"
	  "    - { name: a, doc: x, value: 3 }\n    - { name: b, doc: x, value: 3 }\n",
	  "7:7: duplicate value for operation 'b' (already 'a')" },
	{ "op refers to an undefined set", HEAD "attribute-sets: []\noperations:\n  list:\n"
	  "    - { name: a, doc: x, attribute-set: nope }\n",
	  "6:41: attribute-set refers to undefined attribute set 'nope'" },
	{ "notify an undefined op", HEAD "attribute-sets: []\noperations:\n  list:\n"
	  "    - { name: a, doc: x, notify: nope }\n",
	  "6:34: notify refers to undefined operation 'nope'" },
	{ "op without doc", HEAD "attribute-sets: []\noperations:\n  list:\n    - { name: a }\n",
	  "6:7: missing required key 'doc' in operation" },
	{ "integer expected", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32, value: one }\noperations: { list: [] }\n",
	  "6:38: attribute value must be an integer, not 'one'" },
	{ "min above max", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32, checks: { min: 9, max: 2 } }\noperations: { list: [] }\n",
	  "6:39: checks: min 9 is above max 2" },
	{ "struct at genetlink level", HEAD "definitions:\n  - { name: h, type: struct, members: [] }\n"
	  "attribute-sets: []\noperations: { list: [] }\n",
	  "4:30: key 'members' in definition needs protocol genetlink-legacy or later, "
	  "the spec is genetlink" },
	{ "directional at genetlink level", HEAD "attribute-sets: []\n"
	  "operations: { enum-model: directional, list: [] }\n",
	  "4:27: enum-model 'directional' needs protocol genetlink-legacy or later" },
	{ "undefined mcast group", HEAD "attribute-sets: []\noperations:\n  list:\n"
	  "    - { name: a, doc: x, mcgrp: nope }\n",
	  "6:33: operation 'a' names undefined mcast group 'nope'" },
	/* what the kernel's generator or C itself cannot take (issue 16 item 14) */
	{ "name that is not part of a C identifier", HEAD "attribute-sets:\n  - name: s\n"
	  "    attributes:\n      - { name: a.b, type: u32 }\noperations: { list: [] }\n",
	  "6:17: attribute name 'a.b' cannot be part of a C identifier (character '.')" },
	{ "name with a character beyond ASCII: told whole", HEAD "attribute-sets:\n  - name: s\n"
	  "    attributes:\n      - { name: \xc3\xbc-name, type: u32 }\noperations: { list: [] }\n",
	  "6:17: attribute name '\xc3\xbc-name' cannot be part of a C identifier (character '\xc3\xbc')" },
	{ "name too long", HEAD "attribute-sets:\n  - name: s\n    attributes:\n      - { name: "
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, type: u32 }\noperations: { list: [] }\n",
	  "6:17: attribute name is 130 characters long, more than 128" },
	{ "family name over GENL_NAMSIZ", "name: a-very-long-family\ndoc: d\nattribute-sets: []\n"
	  "operations: { list: [] }\n",
	  "1:7: family name 'a-very-long-family' is longer than GENL_NAMSIZ - 1 (15) characters" },
	{ "implicit op value above 255", HEAD "attribute-sets: []\noperations:\n  list:\n"
	  "    - { name: a, doc: x, value: 255 }\n    - { name: b, doc: x }\n",
	  "7:7: operation 'b' has a value above 255" },
	{ "value-start 2^64-1", HEAD "definitions:\n  - name: e\n    type: enum\n"
	  "    value-start: 18446744073709551615\n    entries: [ a, b ]\nattribute-sets: []\n"
	  "operations: { list: [] }\n",
	  "6:18: value-start 18446744073709551615 is outside -2147483648..4294967295" },
	{ "enum value past u32", HEAD "definitions:\n  - name: e\n    type: enum\n"
	  "    value-start: 4294967295\n    entries: [ a, b ]\nattribute-sets: []\n"
	  "operations: { list: [] }\n",
	  "7:19: enum entry 'b' has value 4294967296 outside -2147483648..4294967295" },
	{ "string max-len above u16", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: string, checks: { max-len: 65536 } }\noperations: { list: [] }\n",
	  "6:42: checks: a length above 65535 does not fit struct nla_policy" },
	{ "negative min on an unsigned type", HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32, checks: { min: -5 } }\noperations: { list: [] }\n",
	  "6:39: checks: negative limit for unsigned type u32 of attribute 'a'" },
	/* 6.12's ynl-gen-c.py bounds an integer attribute by its enum (found by spec_fuzz.py) */
	{ "min above the enum's highest value", HEAD
	  "definitions:\n  - { name: e, type: enum, entries: [ a, b, c ] }\nattribute-sets:\n"
	  "  - name: s\n    attributes:\n      - { name: x, type: u32, enum: e, checks: { min: 5 } }\n"
	  "operations: { list: [] }\n",
	  "8:9: attribute 'x': min 5 is above max 2 (a bound not in the checks comes from enum 'e')" },
	{ "enum with gaps on an integer", HEAD
	  "definitions:\n  - { name: e, type: enum, entries: [ a, { name: b, value: 5 } ] }\n"
	  "attribute-sets:\n  - name: s\n    attributes:\n      - { name: x, type: u8, enum: e }\n"
	  "operations: { list: [] }\n",
	  "8:9: attribute 'x': enum 'e' has gaps between its values, so it gives no range (as "
	  "6.12's ynl-gen-c.py refuses it; 6.16's and later validate it with a function "
	  "kfsim-ynl-gen does not generate)" },
	{ "bitfield32 without enum", HEAD "protocol: genetlink-legacy\nattribute-sets:\n"
	  "  - name: s\n    attributes:\n      - { name: x, type: bitfield32 }\n"
	  "operations: { list: [] }\n",
	  "7:9: bitfield32 attribute 'x' needs an enum (the valid bits of its policy)" },
	/* a genl_ops entry has one policy for its do and its dump (spec_fuzz.py seed 6110) */
	{ "per-op with different do and dump requests", HEAD "protocol: genetlink-legacy\n"
	  "kernel-policy: per-op\nattribute-sets:\n  - name: s\n    attributes:\n"
	  "      - { name: a, type: u32 }\n      - { name: b, type: u32 }\noperations:\n  list:\n"
	  "    - name: get\n      doc: x\n      attribute-set: s\n"
	  "      do: { request: { attributes: [ a ] } }\n"
	  "      dump: { request: { attributes: [ a, b ] } }\n",
	  "16:13: operation 'get': kernel-policy per-op gives it one policy, but its do and dump "
	  "requests list different attributes" },
	/* one C function cannot be a pre_doit and a dump's start (spec_fuzz.py seed 6157) */
	{ "one hook name in two roles", HEAD "attribute-sets:\n  - name: s\n"
	  "    attributes: [ { name: a, type: u32 } ]\noperations:\n  list:\n    - name: get\n"
	  "      doc: x\n      attribute-set: s\n"
	  "      do: { pre: hk, request: { attributes: [ a ] } }\n"
	  "      dump: { pre: hk, request: { attributes: [ a ] } }\n",
	  "12:20: hook 'hk' is a dump start/done here and a pre_doit in operation 'get': one C "
	  "function cannot have both prototypes" },
	{ "a second YAML document", HEAD "attribute-sets: []\noperations: { list: [] }\n---\n"
	  "name: u\n",
	  "5:1: a spec is one YAML document, this is a second one" },
};

static void test_each_bad_spec_is_reported_at_its_position(void **state)
{
	for (size_t i = 0; i < sizeof(bad_specs) / sizeof(bad_specs[0]); i++) {
		const struct bad_spec *b = &bad_specs[i];
		struct spec_tmp t;
		char err[1024], want[1024];
		int ret;

		spec_tmp_init(&t, b->text);
		ret = kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL | KFSIM_YNL_GEN_TEST, err,
					 sizeof(err));
		snprintf(want, sizeof(want), "%s:%s", t.path, b->message);
		/* the case's problem is told first; what the reading found after it may follow */
		if (strncmp(err, want, strlen(want)) || (err[strlen(want)] && err[strlen(want)] != '\n'))
			print_error("%s:\n  got  %s\n  want %s\n", b->what, err, want);
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(strncmp(err, want, strlen(want)), 0);
		assert_true(!err[strlen(want)] || err[strlen(want)] == '\n');
		assert_int_equal(spec_tmp_count(&t), 0);
		spec_tmp_cleanup(&t);
	}
}

/* Each of @told[0 .. @nr) is in @err, in that order, and nothing follows the last. */
static void assert_told_in_order(const char *err, const char *const *told, size_t nr)
{
	const char *at = err;

	for (size_t i = 0; i < nr; i++) {
		at = strstr(at, told[i]);
		if (!at)
			print_error("missing or out of order: %s\n", told[i]);
		assert_non_null(at);
		at += strlen(told[i]);
	}
	assert_string_equal(at, "");
}

/*
 * Every problem the reading can go past is told in one run, in file order, each at its
 * position, and nothing is written; a small buffer keeps whole lines and counts the rest.
 */
static void test_every_problem_of_a_spec_at_once(void **state)
{
	static const char text[] = HEAD
		"protocol: genetlink\n"
		"definitions:\n"
		"  - name: e\n"
		"    type: enum\n"
		"    entris: [ a ]\n"				/* 7:5 unknown key */
		"    entries: [ a ]\n"
		"attribute-sets:\n"
		"  - name: s\n"
		"    attributes:\n"
		"      - { name: a, type: u32, nam: x }\n"	/* 12:31 unknown key */
		"      - { name: b, type: u32, name: c }\n"	/* 13:31 duplicate key */
		"      - { name: 'd$', type: u32 }\n"		/* 14:17 a name that is no C */
		"operations:\n"
		"  list:\n"
		"    - name: get\n"				/* 17:7 no doc: this one stops */
		"      attribute-set: s\n"
		"      dont-validate: [ strict ]\n"
		"      do: { request: { attributes: [ a ] } }\n"
		"      dumpp: {}\n";				/* 21:7 unknown key */
	/* in the order found: an operation's keys are checked before what it lacks */
	static const char *const told[] = {
		":7:5: unknown key 'entris' in definition\n",
		":12:31: unknown key 'nam' in attribute\n",
		":13:31: duplicate key 'name' in attribute\n",
		":14:17: attribute name 'd$' cannot be part of a C identifier (character '$')\n",
		":21:7: unknown key 'dumpp' in operation\n",
		":17:7: missing required key 'doc' in operation",
	};
	struct spec_tmp t;
	char err[2048], small[200];

	(void)state;
	spec_tmp_init(&t, text);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL, err, sizeof(err)),
			 -EINVAL);
	print_message("told:\n%s\n", err);
	assert_told_in_order(err, told, sizeof(told) / sizeof(told[0]));
	assert_int_equal(spec_tmp_count(&t), 0);

	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL, small, sizeof(small)),
			 -EINVAL);
	print_message("told in %zu bytes:\n%s\n", sizeof(small), small);
	assert_true(strlen(small) < sizeof(small));
	assert_non_null(strstr(small, ":7:5: unknown key 'entris' in definition\n"));
	assert_non_null(strstr(small, "more problems"));
	spec_tmp_cleanup(&t);
}

/*
 * Every attribute typed with a gapped enum is told in one run, in whichever set it is: 6.18's
 * devlink.yaml has two (var-attr-type), ethtool.yaml 27 (rxfh-fields); kfsim told the
 * first alone.  An attribute typed with a contiguous enum between them is not told.
 */
static void test_every_gapped_enum_attribute_at_once(void **state)
{
	static const char text[] = HEAD
		"definitions:\n"
		"  - { name: g, type: enum, entries: [ a, { name: b, value: 4 } ] }\n"
		"  - { name: ok, type: enum, entries: [ a, b ] }\n"
		"attribute-sets:\n"
		"  - name: s\n"
		"    attributes:\n"
		"      - { name: x, type: u8, enum: g }\n"		/* 9:9 */
		"      - { name: y, type: u32, enum: ok }\n"
		"      - { name: z, type: u32, enum: g, checks: { max: 9 } }\n"	/* 11:9 */
		"  - name: t\n"
		"    attributes:\n"
		"      - { name: w, type: u16, enum: g }\n"		/* 14:9 */
		"operations: { list: [] }\n";
	static const char *const told[] = {
		":9:9: attribute 'x': enum 'g' has gaps between its values",
		":11:9: attribute 'z': enum 'g' has gaps between its values",
		":14:9: attribute 'w': enum 'g' has gaps between its values",
		"does not generate)",
	};
	struct spec_tmp t;
	char err[2048];

	(void)state;
	spec_tmp_init(&t, text);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL | KFSIM_YNL_GEN_TEST,
					    err, sizeof(err)), -EINVAL);
	print_message("told:\n%s\n", err);
	assert_told_in_order(err, told, sizeof(told) / sizeof(told[0]));
	assert_int_equal(spec_tmp_count(&t), 0);
	spec_tmp_cleanup(&t);
}

/*
 * The operations' own problems are told all at once: 6.13's rt_neigh.yaml names two notify
 * targets without a reply; here two of them, an undefined mcast group and a per-op command
 * with two requests.
 */
static void test_every_operation_problem_at_once(void **state)
{
	static const char text[] = HEAD
		"protocol: genetlink-legacy\n"
		"kernel-policy: per-op\n"
		"attribute-sets:\n"
		"  - name: s\n"
		"    attributes: [ { name: a, type: u32 }, { name: b, type: u32 } ]\n"
		"operations:\n"
		"  list:\n"
		"    - { name: new, doc: x, attribute-set: s, do: { request: { attributes: [ a ] } } }\n"
		"    - { name: del, doc: x, attribute-set: s, do: { request: { attributes: [ a ] } } }\n"
		"    - { name: new-ntf, doc: x, notify: new }\n"		/* 12:40 */
		"    - { name: del-ntf, doc: x, notify: del }\n"		/* 13:40 */
		"    - name: get\n"
		"      doc: x\n"
		"      attribute-set: s\n"
		"      mcgrp: nope\n"					/* 17:14 */
		"      do: { request: { attributes: [ a ] } }\n"
		"      dump: { request: { attributes: [ b ] } }\n";		/* 19:13 */
	static const char *const told[] = {
		":12:40: notify target 'new' has no reply to reuse\n",
		":13:40: notify target 'del' has no reply to reuse\n",
		":17:14: operation 'get' names undefined mcast group 'nope'\n",
		":19:13: operation 'get': kernel-policy per-op gives it one policy, but its do and "
		"dump requests list different attributes",
	};
	struct spec_tmp t;
	char err[2048];

	(void)state;
	spec_tmp_init(&t, text);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL, err, sizeof(err)),
			 -EINVAL);
	print_message("told:\n%s\n", err);
	assert_told_in_order(err, told, sizeof(told) / sizeof(told[0]));
	assert_int_equal(spec_tmp_count(&t), 0);
	spec_tmp_cleanup(&t);
}

static const char good_spec[] = HEAD
	"attribute-sets:\n  - name: s\n    attributes:\n      - { name: a, type: u32 }\n"
	"operations:\n  list:\n    - { name: get, doc: x, attribute-set: s, do: { request: "
	"{ attributes: [ a ] }, reply: { attributes: [ a ] } } }\n";

static void test_a_failed_run_leaves_older_files_alone(void **state)
{
	struct spec_tmp t;
	char err[1024], old[400];
	struct stat before, after;
	FILE *f;

	spec_tmp_init(&t, good_spec);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL, err, sizeof(err)), 0);
	assert_int_equal(spec_tmp_count(&t), 5);
	snprintf(old, sizeof(old), "%s/t-uapi.h", t.out);
	assert_int_equal(stat(old, &before), 0);
	/* Break the spec: the next run must fail and change nothing. */
	f = fopen(t.path, "a");
	assert_non_null(f);
	fputs("bogus: 1\n", f);
	fclose(f);
	assert_int_equal(kfsim_ynl_generate(t.path, t.out, KFSIM_YNL_GEN_ALL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":10:1: unknown key 'bogus' in the spec"));
	assert_int_equal(spec_tmp_count(&t), 5);
	assert_int_equal(stat(old, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	spec_tmp_cleanup(&t);
}

/* Several specs, one bad: the run fails before any of them is written. */
static void test_one_bad_spec_among_several_writes_nothing(void **state)
{
	struct spec_tmp good, bad;
	struct cli_result r;

	spec_tmp_init(&good, good_spec);
	spec_tmp_init(&bad, HEAD "attribute-sets: []\noperations: { list: [] }\nbogus: 1\n");
	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--out-dir", good.out,
							     good.path, bad.path, NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "unknown key 'bogus' in the spec"));
	assert_int_equal(spec_tmp_count(&good), 0);
	cli_result_free(&r);
	spec_tmp_cleanup(&good);
	spec_tmp_cleanup(&bad);
}

static void test_missing_file_and_unwritable_dir(void **state)
{
	char err[1024];

	assert_int_equal(kfsim_ynl_generate("/nonexistent/x.yaml", "/tmp", KFSIM_YNL_GEN_UAPI, err,
					    sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.yaml: No such file or directory");
	assert_int_equal(kfsim_ynl_generate(KFSIM_SOURCE_DIR "/specs/ethtool.yaml",
					    "/nonexistent-dir", KFSIM_YNL_GEN_UAPI, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(kfsim_ynl_generate(KFSIM_SOURCE_DIR "/specs/ethtool.yaml", "/tmp", 0, err,
					    sizeof(err)), -EINVAL);
}

static void test_cli_exit_statuses(void **state)
{
	struct spec_tmp t;
	struct cli_result r;

	spec_tmp_init(&t, HEAD "attribute-sets: []\noperations: { lisst: [] }\n");
	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--out-dir", t.out, t.path,
							     NULL }), 0);
	assert_int_equal(r.status, 1);
	/* one line per problem, each with the command's prefix */
	assert_int_equal(count_lines(r.err), 2);
	assert_non_null(strstr(r.err, "kfsim ynl-gen: -EINVAL: "));
	assert_non_null(strstr(r.err, "spec.yaml:4:15: unknown key 'lisst' in operations\n"
				      "kfsim ynl-gen: -EINVAL: "));
	assert_non_null(strstr(r.err, "spec.yaml:4:13: missing required key 'list' in operations\n"));
	assert_int_equal(spec_tmp_count(&t), 0);
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--mode", "pdf", t.path,
							     NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "kfsim ynl-gen: invalid value 'pdf' for --mode: expected uapi, "
			    "kernel, user, test or all\n");
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--json", "--mode", "uapi",
							     "--out-dir", t.out,
							     KFSIM_SOURCE_DIR "/specs/ethtool.yaml",
							     NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(count_lines(r.out), 1);
	assert_non_null(strstr(r.out, "\"family\": \"ethtool\", \"files\": [\""));
	assert_non_null(strstr(r.out, "/out/ethtool-uapi.h\"]}]}\n"));
	assert_int_equal(spec_tmp_count(&t), 1);
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--help", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "file:line:column: message"));
	cli_result_free(&r);
	spec_tmp_cleanup(&t);
}

/*
 * kfsim_ynl_gen_main() as the program kfsim-ynl-gen runs it (its main() is this one call), in
 * this process: stdout and stderr captured, the exit status returned.
 */
static int run_tool(struct cli_result *r, const char *const args[])
{
	char *argv[16] = { "kfsim-ynl-gen" };
	int argc = 1, saved[2];
	FILE *tmp[2] = { tmpfile(), tmpfile() };

	assert_non_null(tmp[0]);
	assert_non_null(tmp[1]);
	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	fflush(NULL);
	for (int i = 0; i < 2; i++) {
		saved[i] = dup(i + 1);
		dup2(fileno(tmp[i]), i + 1);
	}
	r->status = kfsim_ynl_gen_main("kfsim-ynl-gen", argc, argv);
	fflush(NULL);
	for (int i = 0; i < 2; i++) {
		long size;
		char *text;

		dup2(saved[i], i + 1);
		close(saved[i]);
		size = ftell(tmp[i]);
		text = calloc((size_t)size + 1, 1);
		assert_non_null(text);
		rewind(tmp[i]);
		assert_int_equal(fread(text, 1, (size_t)size, tmp[i]), (size_t)size);
		fclose(tmp[i]);
		*(i ? &r->err : &r->out) = text;
	}
	return 0;
}

/*
 * kfsim-ynl-gen and kfsim ynl-gen parse with the same option table: the same errors, each one
 * line naming the option with exit status 2, only the program's name differs; a failed run is
 * the compiler-style line alone for the tool, "kfsim ynl-gen: -EXXX: ..." for the command.
 */
/*
 * kfsim-ynl-gen's bad command line with --json: the one stderr line and the JSON error on
 * stdout, as 'kfsim ynl-gen' gives (the program of its own printed no JSON; found by
 * tests/cli/cli_fuzz.py).  Without --json, or with it after "--", stdout stays empty.
 */
static void test_tool_usage_error_as_json(void **state)
{
	static const char *const lines[][5] = {
		{ "--json", NULL },
		{ "--json", "--mode", "pdf", "x.yaml", NULL },
		{ "--mode", "pdf", "--json", "x.yaml", NULL }, /* --json after the bad option */
	};
	struct cli_result r;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(run_tool(&r, lines[i]), 0);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		assert_non_null(strstr(r.out, "\"error\": {"));
		assert_non_null(strstr(r.out, "\"status\": 2"));
		cli_result_free(&r);
	}
	assert_int_equal(run_tool(&r, (const char *const[]){ "--mode", "pdf", "--", "--json",
							      NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

static void test_tool_and_command_share_the_command_line(void **state)
{
	static const struct {
		const char *args[4];
		const char *message;
	} bad[] = {
		{ { "--bogus", "x.yaml" }, "unknown option '--bogus' (see '%s --help')" },
		{ { "--mode" }, "option '--mode' needs a value" },
		{ { "--mode", "pdf", "x.yaml" },
		  "invalid value 'pdf' for --mode: expected uapi, kernel, user, test or all" },
		{ { "--out", "", "x.yaml" }, "invalid value '' for --out: expected DIR" },
		{ { "--json=1", "x.yaml" }, "option '--json' takes no value" },
		{ { "--mode", "uapi" }, "missing SPEC: expected one or more YAML spec files" },
		{ { "--out-dir" }, "option '--out-dir' needs a value" },
	};
	static const char *const progs[] = { "kfsim-ynl-gen", "kfsim ynl-gen" };
	struct cli_result r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int p = 0; p < 2; p++) {
			const char *args[6] = { "ynl-gen" };
			char line[512], body[256];

			for (int a = 0; a < 4 && bad[i].args[a]; a++)
				args[a + 1] = bad[i].args[a];
			if (p == 0)
				assert_int_equal(run_tool(&r, args + 1), 0);
			else
				assert_int_equal(cli_run(&r, args), 0);
			snprintf(body, sizeof(body), bad[i].message, progs[p]);
			snprintf(line, sizeof(line), "%s: %s\n", progs[p], body);
			if (r.status != 2 || strcmp(r.err, line))
				print_error("%s: status %d, stderr '%s'\n", progs[p], r.status, r.err);
			assert_int_equal(r.status, 2);
			assert_string_equal(r.err, line);
			assert_string_equal(r.out, "");
			cli_result_free(&r);
		}
	}

	/* a bad spec: the tool's line is the compiler's "file:line:column: message" alone */
	struct spec_tmp t;

	spec_tmp_init(&t, HEAD "attribute-sets: []\noperations: { lisst: [] }\n");
	assert_int_equal(run_tool(&r, (const char *const[]){ t.path, "--out", t.out, NULL }), 0);
	assert_int_equal(r.status, 1);
	/* the typo, and what it leaves missing: every problem of the file, one line each */
	assert_int_equal(count_lines(r.err), 2);
	assert_non_null(strstr(r.err, "spec.yaml:4:15: unknown key 'lisst' in operations\n"));
	assert_non_null(strstr(r.err, "spec.yaml:4:13: missing required key 'list' in operations\n"));
	assert_null(strstr(r.err, "ynl-gen"));
	assert_int_equal(spec_tmp_count(&t), 0);
	cli_result_free(&r);
	/* with --json the tool also says why on stdout (options after the spec, as before) */
	assert_int_equal(run_tool(&r, (const char *const[]){ t.path, "--json", "--out", t.out,
							      NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"command\": \"ynl-gen\""));
	assert_non_null(strstr(r.out, "\"errno\": \"EINVAL\""));
	cli_result_free(&r);
	spec_tmp_cleanup(&t);

	/* the help names the program it came from */
	assert_int_equal(run_tool(&r, (const char *const[]){ "-h", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim-ynl-gen [--mode "));
	assert_null(strstr(r.out, "kfsim ynl-gen"));
	assert_non_null(strstr(r.out, "(also --out-dir)"));
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--help", NULL }), 0);
	assert_non_null(strstr(r.out, "Usage: kfsim ynl-gen [--mode "));
	cli_result_free(&r);
}

/* The public entry point: the same table, and the program name it is given. */
static void test_gen_main_entry_point(void **state)
{
	char *argv[] = { "x", "--mode", "uapi", NULL };
	struct spec_tmp t;

	/* no SPEC: usage error, exit status 2 */
	assert_int_equal(kfsim_ynl_gen_main("my-gen", 3, argv), 2);
	spec_tmp_init(&t, HEAD "attribute-sets: []\noperations: { list: [] }\n");
	{
		char *ok[] = { "x", "--mode", "uapi", "--out", t.out, t.path, NULL };

		assert_int_equal(kfsim_ynl_gen_main("my-gen", 6, ok), 0);
		assert_int_equal(spec_tmp_count(&t), 1);
	}
	spec_tmp_cleanup(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_bad_spec_is_reported_at_its_position),
		cmocka_unit_test(test_every_problem_of_a_spec_at_once),
		cmocka_unit_test(test_every_gapped_enum_attribute_at_once),
		cmocka_unit_test(test_every_operation_problem_at_once),
		cmocka_unit_test(test_a_failed_run_leaves_older_files_alone),
		cmocka_unit_test(test_missing_file_and_unwritable_dir),
		cmocka_unit_test(test_one_bad_spec_among_several_writes_nothing),
		cmocka_unit_test(test_cli_exit_statuses),
		cmocka_unit_test(test_tool_and_command_share_the_command_line),
		cmocka_unit_test(test_tool_usage_error_as_json),
		cmocka_unit_test(test_gen_main_entry_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
