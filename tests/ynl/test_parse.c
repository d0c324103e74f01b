// SPDX-License-Identifier: MIT
/*
 * The spec model, one language feature at a time, on small specs written for each test: the
 * implicit values nlspec.py fills in, the kernel generator's C names, and the features of each
 * protocol level.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ynl/ynl_spec.h"
#include "spec_tmp.h"

#define HEAD "name: fam-x\ndoc: d\n"

static struct ynl_spec *load(struct spec_tmp *t, const char *text)
{
	char err[1024];
	struct ynl_spec *spec;
	int ret;

	spec_tmp_init(t, text);
	spec = ynl_spec_load(t->path, err, sizeof(err), &ret);
	if (!spec)
		print_error("%s\n", err);
	assert_non_null(spec);
	assert_int_equal(ret, 0);
	return spec;
}

static void done(struct spec_tmp *t, struct ynl_spec *spec)
{
	ynl_spec_free(spec);
	spec_tmp_cleanup(t);
}

static void test_attribute_values_count_from_one(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: fam-x\n    attributes:\n"
				  "      - { name: unspec, type: unused, value: 0 }\n"
				  "      - { name: a, type: u32 }\n      - { name: b, type: u8, value: 7 }\n"
				  "      - { name: c, type: flag }\n  - name: other\n    attributes:\n"
				  "      - { name: d, type: string }\noperations: { list: [] }\n");

	assert_int_equal(s->sets[0].attrs[0].value, 0);
	assert_int_equal(s->sets[0].attrs[1].value, 1);
	assert_int_equal(s->sets[0].attrs[2].value, 7);
	assert_int_equal(s->sets[0].attrs[3].value, 8);
	assert_int_equal(s->sets[0].max_value, 8);
	/* A set named like the family drops the set part of the prefix. */
	assert_string_equal(s->sets[0].attrs[1].enum_name, "FAM_X_A_A");
	assert_string_equal(s->sets[0].cnt_name, "__FAM_X_A_MAX");
	assert_string_equal(s->sets[0].max_name, "FAM_X_A_MAX");
	assert_string_equal(s->sets[1].attrs[0].enum_name, "FAM_X_A_OTHER_D");
	assert_int_equal(s->sets[1].attrs[0].value, 1);
	assert_string_equal(s->fam_key, "FAM_X_FAMILY_NAME");
	assert_string_equal(s->ver_key, "FAM_X_FAMILY_VERSION");
	assert_string_equal(s->ident, "fam_x");
	assert_int_equal(s->version, 1);
	assert_string_equal(s->kernel_policy, "split");
	done(&t, s);
}

static void test_enums_flags_and_consts(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, "name: f\ndoc: d\nprotocol: genetlink-c\ndefinitions:\n"
				  "  - { name: k, type: const, value: 16 }\n"
				  "  - { name: e, type: enum, value-start: 3, entries: [ a, b, { name: c, value: 9 } ] }\n"
				  "  - { name: fl, type: flags, entries: [ x, y, { name: z, value: 5 } ], render-max: true }\n"
				  "  - { name: anon, type: enum, enum-name: , entries: [ p ] }\n"
				  "  - { name: named, type: enum, enum-name: my-enum, name-prefix: my-, entries: [ q ] }\n"
				  "attribute-sets: []\noperations: { list: [] }\n");

	assert_int_equal(s->defs[0].value, 16);
	assert_int_equal(s->defs[1].entries[0].value, 3);
	assert_int_equal(s->defs[1].entries[1].value, 4);
	assert_int_equal(s->defs[1].entries[2].value, 9);
	assert_true(s->defs[1].entries[0].value_change);	/* 3 is not 0 */
	assert_false(s->defs[1].entries[1].value_change);
	assert_string_equal(s->defs[1].entries[0].c_name, "F_E_A");
	assert_string_equal(s->defs[1].c_type, "enum f_e");
	assert_int_equal(s->defs[2].entries[0].value, 1);
	assert_int_equal(s->defs[2].entries[1].value, 2);
	assert_int_equal(s->defs[2].entries[2].value, 32);
	assert_int_equal(s->defs[2].mask, 35);
	assert_true(s->defs[2].render_max);
	assert_true(s->defs[3].has_enum_name);
	assert_null(s->defs[3].enum_name);
	assert_string_equal(s->defs[3].c_type, "int");
	assert_string_equal(s->defs[4].c_type, "enum my_enum");
	assert_string_equal(s->defs[4].entries[0].c_name, "MY_Q");
	done(&t, s);
}

/*
 * Plain scalars are typed as YAML 1.1 types them (PyYAML's SafeLoader, which the kernel's
 * ynl-gen uses): integers with '_', 0b, leading-0 octal and base-60 groups are integers; "y",
 * "1e5" (no dot) and "+.5" are strings.  The kernel's generator was the referee for each
 * (2026-12-06: it refuses "doc: yes", "doc: 1.5", "doc: .5", "doc: ~", "doc: 0x1F",
 * "doc: 2024-01-01" and an entry "on", and takes the strings).
 */
static void test_yaml11_scalar_types(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, "name: f\ndoc: y\nprotocol: genetlink-c\ndefinitions:\n"
				  "  - { name: k1, type: const, value: 1_000 }\n"
				  "  - { name: k2, type: const, value: 0b101 }\n"
				  "  - { name: k3, type: const, value: 017 }\n"
				  "  - { name: k4, type: const, value: 1:30 }\n"
				  "  - { name: k5, type: const, value: -0x_10 }\n"
				  "  - { name: k6, type: const, value: 1e5 }\n"
				  "  - { name: e, type: enum, doc: +.5, entries: [ a, 'on', \"yes\" ] }\n"
				  "attribute-sets: []\noperations: { list: [] }\n");
	static const char *const not_strings[][2] = {
		{ "yes", "a boolean" }, { "Off", "a boolean" }, { "1.5", "a float" },
		{ ".5", "a float" }, { "1:30.5", "a float" }, { "-.inf", "a float" },
		{ "~", "null" }, { "0x1F", "an integer" }, { "1_0", "an integer" },
		{ "2024-01-01", "a date" },
	};

	(void)state;
	assert_int_equal(s->defs[0].value, 1000);
	assert_int_equal(s->defs[1].value, 5);
	assert_int_equal(s->defs[2].value, 15);
	assert_int_equal(s->defs[3].value, 90);
	assert_int_equal(s->defs[4].value, -16);
	assert_string_equal(s->defs[5].value_str, "1e5");
	assert_string_equal(s->defs[6].entries[1].name, "on");	/* quoted: a string */
	assert_string_equal(s->defs[6].entries[2].name, "yes");
	done(&t, s);

	for (size_t i = 0; i < sizeof(not_strings) / sizeof(not_strings[0]); i++) {
		char text[256], err[1024], want[160];
		int ret;

		snprintf(text, sizeof(text), "name: f\ndoc: %s\nattribute-sets: []\n"
			 "operations: { list: [] }\n", not_strings[i][0]);
		spec_tmp_init(&t, text);
		assert_null(ynl_spec_load(t.path, err, sizeof(err), &ret));
		snprintf(want, sizeof(want), ":2:6: doc must be a string; YAML reads '%s' as %s",
			 not_strings[i][0], not_strings[i][1]);
		if (!strstr(err, want))
			print_error("%s: got %s\n", not_strings[i][0], err);
		assert_non_null(strstr(err, want));
		spec_tmp_cleanup(&t);
	}
}

/*
 * What the kernel's generator (PyYAML 6.0.3, jsonschema; 2026-12-06) decides, beside what
 * test_yaml11_scalar_types() covers: "multi-attr: yes" is a boolean it takes, a quoted 'true'
 * a string it refuses; "1:3_0", "1:059" and "._5" are strings; a name saying "out of memory" is
 * no -ENOMEM; a family name with a bad character is told once.
 */
static void test_yaml11_edges(void **state)
{
	static const char *const strings[] = { "1:3_0", "1:059", "._5", "1:5_9.5" };
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32, multi-attr: yes }\n"
				  "      - { name: b, type: u32, multi-attr: Off }\n"
				  "operations: { list: [] }\n");
	char text[256], err[1024];
	const char *first;
	int ret;

	(void)state;
	assert_true(s->sets[0].attrs[0].multi_attr);
	assert_false(s->sets[0].attrs[1].multi_attr);
	done(&t, s);
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		snprintf(text, sizeof(text), "name: f\ndoc: %s\nattribute-sets: []\n"
			 "operations: { list: [] }\n", strings[i]);
		s = load(&t, text);
		assert_string_equal(s->doc, strings[i]);
		done(&t, s);
	}

	spec_tmp_init(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
		      "      - { name: a, type: u32, multi-attr: 'true' }\n"
		      "operations: { list: [] }\nout of memory: 1\n");
	assert_null(ynl_spec_load(t.path, err, sizeof(err), &ret));
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err, "multi-attr must be true or false, not 'true'"));
	assert_non_null(strstr(err, "unknown key 'out of memory'"));
	spec_tmp_cleanup(&t);

	spec_tmp_init(&t, "name: f.m\ndoc: d\nattribute-sets: []\noperations: { list: [] }\n");
	assert_null(ynl_spec_load(t.path, err, sizeof(err), &ret));
	first = strstr(err, "family name 'f.m'");
	assert_non_null(first);
	assert_null(strstr(first + 1, "family name 'f.m'"));
	spec_tmp_cleanup(&t);
}

static void test_checks_limits_and_constants(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "definitions:\n  - { name: len, type: const, value: 20 }\n"
				  "  - { name: m, type: flags, entries: [ a, b ] }\n"
				  "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32, checks: { min: 1, max: u32-max } }\n"
				  "      - { name: b, type: s16, checks: { min: s16-min, max: -2 } }\n"
				  "      - { name: c, type: string, checks: { max-len: len - 1 } }\n"
				  "      - { name: d, type: binary, checks: { exact-len: 6 } }\n"
				  "      - { name: e, type: u8, checks: { flags-mask: m } }\n"
				  "      - { name: f, type: u16, byte-order: big-endian, display-hint: hex }\n"
				  "operations: { list: [] }\n");
	const struct ynl_attr *a = s->sets[0].attrs;

	assert_true(a[0].checks.has_min && a[0].checks.has_max);
	assert_int_equal(a[0].checks.min, 1);
	assert_int_equal(a[0].checks.max, 4294967295LL);
	assert_int_equal(a[1].checks.min, -32768);
	assert_int_equal(a[1].checks.max, -2);
	assert_int_equal(a[2].checks.max_len, 19);
	assert_int_equal(a[3].checks.exact_len, 6);
	assert_ptr_equal(a[4].checks.flags_mask, &s->defs[1]);
	assert_int_equal(a[5].byte_order, YNL_BO_BIG);
	assert_string_equal(a[5].display_hint, "hex");
	done(&t, s);
}

static void test_unified_ops_notify_event_and_groups(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32 }\n      - { name: n, type: nest, nested-attributes: s }\n"
				  "operations:\n  list:\n"
				  "    - { name: get, doc: x, attribute-set: s, do: { request: { attributes: [ a ] }, "
				  "reply: { attributes: [ a, n ] } }, dump: { reply: { attributes: [ a ] } } }\n"
				  "    - { name: set, doc: x, value: 5, attribute-set: s, flags: [ admin-perm ], "
				  "dont-validate: [ strict ], do: { request: { attributes: [ a ] } } }\n"
				  "    - { name: changed, doc: x, notify: get, mcgrp: mon }\n"
				  "    - { name: boom, doc: x, attribute-set: s, event: { attributes: [ a ] }, mcgrp: mon }\n"
				  "mcast-groups:\n  list:\n    - { name: mon }\n");

	assert_int_equal(s->nr_ops, 4);
	assert_int_equal(s->ops[0].req_value, 1);
	assert_int_equal(s->ops[1].req_value, 5);
	assert_int_equal(s->ops[2].req_value, 6);
	assert_int_equal(s->ops[3].req_value, 7);
	assert_true(s->ops[2].is_async);
	assert_ptr_equal(s->ops[2].notify, &s->ops[0]);
	assert_ptr_equal(s->ops[2].set, &s->sets[0]);	/* inherited from the target */
	assert_true(s->ops[3].event.present);
	assert_int_equal(s->ops[1].flags, YNL_OP_ADMIN_PERM);
	assert_int_equal(s->ops[1].dont_validate, YNL_DV_STRICT);
	assert_string_equal(s->ops[0].enum_name, "FAM_X_CMD_GET");
	assert_int_equal(s->ops[0].do_.reply.nr_attrs, 2);
	assert_ptr_equal(s->ops[0].do_.reply.attrs[1], &s->sets[0].attrs[1]);
	assert_string_equal(s->mcgrps[0].define, "FAM_X_MCGRP_MON");
	done(&t, s);
}

static void test_directional_numbering(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "protocol: genetlink-legacy\nattribute-sets:\n  - name: s\n"
				  "    attributes:\n      - { name: a, type: u32 }\noperations:\n"
				  "  enum-model: directional\n  name-prefix: fx-msg-\n  list:\n"
				  "    - { name: get, doc: x, attribute-set: s, do: { request: { value: 39, attributes: [ a ] }, "
				  "reply: { value: 39, attributes: [ a ] } } }\n"
				  "    - { name: set, doc: x, attribute-set: s, do: { request: { attributes: [ a ] } } }\n"
				  "    - { name: status, doc: x, attribute-set: s, do: { request: { attributes: [ a ] }, "
				  "reply: { attributes: [ a ] } } }\n"
				  "    - { name: ntf, doc: x, notify: get }\n");

	/* The PLCA numbering: requests 39..41, replies 39, 40 and the notification 41. */
	assert_int_equal(s->ops[0].req_value, 39);
	assert_int_equal(s->ops[0].rsp_value, 39);
	assert_int_equal(s->ops[1].req_value, 40);
	assert_false(s->ops[1].has_rsp_value);
	assert_int_equal(s->ops[2].req_value, 41);
	assert_int_equal(s->ops[2].rsp_value, 40);
	assert_false(s->ops[3].has_req_value);
	assert_int_equal(s->ops[3].rsp_value, 41);
	assert_string_equal(s->ops[0].enum_name, "FX_MSG_GET");
	assert_string_equal(s->ops[0].rsp_enum_name, "FX_MSG_GET_REPLY");
	assert_string_equal(s->ops[3].rsp_enum_name, "FX_MSG_NTF");
	done(&t, s);
}

static void test_legacy_features(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "protocol: genetlink-legacy\nversion: 2\nkernel-policy: per-op\n"
				  "definitions:\n  - name: hdr\n    type: struct\n    members:\n"
				  "      - { name: a, type: u8 }\n      - { name: p, type: pad, len: 3 }\n"
				  "  - { name: fl, type: flags, entries: [ x ] }\n"
				  "attribute-sets:\n  - name: s\n    attr-cnt-name: __my-cnt\n    attr-max-name: my-max\n"
				  "    attributes:\n      - { name: b, type: bitfield32, enum: fl }\n"
				  "      - { name: arr, type: indexed-array, sub-type: nest, nested-attributes: s }\n"
				  "      - { name: ntv, type: nest-type-value, nested-attributes: s, type-value: [ b ] }\n"
				  "      - { name: m, type: u32, multi-attr: true }\n"
				  "      - { name: st, type: binary, struct: hdr }\n"
				  "  - name: sub\n    subset-of: s\n    attributes:\n      - { name: m }\n"
				  "operations:\n  fixed-header: hdr\n  list:\n"
				  "    - { name: go, doc: x, attribute-set: s, flags: [ uns-admin-perm ], do: { request: { attributes: [ b ] } } }\n");

	assert_int_equal(s->version, 2);
	assert_string_equal(s->kernel_policy, "per-op");
	assert_int_equal(s->defs[0].nr_members, 2);
	assert_int_equal(s->defs[0].members[1].len, 3);
	assert_string_equal(s->sets[0].cnt_name, "__MY_CNT");
	assert_string_equal(s->sets[0].max_name, "MY_MAX");
	assert_int_equal(s->sets[0].attrs[0].type, YNL_T_BITFIELD32);
	assert_int_equal(s->sets[0].attrs[1].sub_type, YNL_T_NEST);
	assert_int_equal(s->sets[0].attrs[2].nr_type_value, 1);
	assert_true(s->sets[0].attrs[3].multi_attr);
	assert_ptr_equal(s->sets[0].attrs[4].struct_def, &s->defs[0]);
	assert_ptr_equal(s->sets[1].subset_of, &s->sets[0]);
	assert_ptr_equal(ynl_set_attr(&s->sets[1], 0), &s->sets[0].attrs[3]);
	assert_string_equal(s->sets[1].cnt_name, "__MY_CNT");	/* a subset shares its parent's */
	assert_ptr_equal(s->fixed_header, &s->defs[0]);
	assert_int_equal(s->ops[0].flags, YNL_OP_UNS_ADMIN_PERM);
	done(&t, s);
}

static void test_raw_sub_messages_and_selectors(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "protocol: netlink-raw\nprotonum: 0\n"
				  "attribute-sets:\n  - name: outer\n    attributes:\n"
				  "      - { name: kind, type: string }\n      - { name: in, type: nest, nested-attributes: inner }\n"
				  "  - name: inner\n    attributes:\n"
				  "      - { name: data, type: sub-message, sub-message: sm, selector: kind }\n"
				  "  - name: vlan\n    attributes:\n      - { name: id, type: u16 }\n"
				  "sub-messages:\n  - name: sm\n    formats:\n      - { value: vlan, attribute-set: vlan }\n"
				  "      - { value: dummy }\noperations: { list: [] }\n");

	assert_true(s->has_protonum);
	assert_int_equal(s->proto, YNL_PROTO_NETLINK_RAW);
	assert_ptr_equal(s->sets[1].attrs[0].sub_message, &s->submsgs[0]);
	/* The selector lives in the enclosing set (as in tc.yaml). */
	assert_ptr_equal(s->sets[1].attrs[0].selector, &s->sets[0].attrs[0]);
	assert_ptr_equal(s->submsgs[0].formats[0].set, &s->sets[2]);
	assert_null(s->submsgs[0].formats[1].set);
	done(&t, s);
}

static void test_kernel_spec_quirks_are_warnings(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32 }\n  - name: sub\n    subset-of: s\n"
				  "    attributes: [ { name: a }, { name: a } ]\noperations:\n  list:\n"
				  "    - { name: get, doc: x, attribute-set: s, do: { request: { attributes: [ a, a, zz ] } } }\n");

	/* devlink.yaml repeats subset entries, rt_link.yaml op attributes, nftables.yaml names
	 * an attribute its set lacks: reported, then left out. */
	assert_int_equal(s->nr_warnings, 3);
	assert_non_null(strstr(s->warnings[0], ":9:32: warning: attribute 'a' listed twice in subset 'sub'"));
	assert_non_null(strstr(s->warnings[1], "warning: attribute 'a' listed twice in operation 'get'"));
	assert_non_null(strstr(s->warnings[2], "warning: operation 'get' lists 'zz', which set 's' does not have; ignored"));
	assert_int_equal(s->sets[1].nr_attrs, 1);
	assert_int_equal(s->ops[0].do_.request.nr_attrs, 1);
	done(&t, s);
}

/*
 * 6.18's ethtool.yaml lists "unspec, unused, value 0" twice in set 'strings': a word-for-word
 * repeat with its value is one attribute (nlspec.py keys them by name), told and skipped; the
 * same name with anything else different stays an error (test_errors.c).
 */
static void test_repeated_attribute_is_one(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: unspec, type: unused, value: 0 }\n"
				  "      - { value: 0, type: unused, name: unspec }\n"
				  "      - { name: a, type: u32, checks: { max: 7 } }\n"
				  "operations:\n  list:\n"
				  "    - { name: get, doc: x, attribute-set: s, do: { request: { attributes: [ a ] } } }\n");

	(void)state;
	assert_int_equal(s->nr_warnings, 1);
	assert_non_null(strstr(s->warnings[0], ":7:9: warning: attribute 'unspec' repeated word for "
			       "word in set 's': the repeat is ignored (ynl-gen-c.py keeps one)"));
	assert_int_equal(s->sets[0].nr_attrs, 2);
	assert_string_equal(s->sets[0].attrs[1].name, "a");
	assert_int_equal(s->sets[0].attrs[1].value, 1);
	/* pass 2 read the details of 'a', not of the skipped repeat */
	assert_true(s->sets[0].attrs[1].has_checks);
	assert_int_equal(s->sets[0].attrs[1].checks.max, 7);
	done(&t, s);
}

/* A subset's name-prefix: 6.12's ynl-gen-c.py never reads it, its attributes keep the parent's
 * names (spec_fuzz.py seed 6263): told, and the names are the parent's. */
static void test_subset_name_prefix_is_unused(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32 }\n"
				  "  - { name: sub, subset-of: s, name-prefix: x-, attributes: [ { name: a } ] }\n"
				  "operations: { list: [] }\n");

	(void)state;
	assert_int_equal(s->nr_warnings, 1);
	assert_non_null(strstr(s->warnings[0], ":7:32: warning: name-prefix of set 'sub' is not "
			       "used: a subset's attributes keep the names of the set it is a subset of"));
	assert_string_equal(s->sets[1].prefix, s->sets[0].prefix);
	done(&t, s);
}

/* Keys of the schemas after 6.12 that the kernel's specs use: an attribute set's header
 * (6.16's rt-link.yaml, tc.yaml) and display-hint ipv4-or-v6 (7.0's rt-addr.yaml). */
static void test_newer_schema_keys(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "protocol: genetlink-c\nattribute-sets:\n  - name: s\n"
				  "    header: linux/if_link.h\n    attributes:\n"
				  "      - { name: a, type: binary, display-hint: ipv4-or-v6 }\n"
				  "operations: { list: [] }\n");

	(void)state;
	assert_int_equal(s->nr_warnings, 0);
	assert_string_equal(s->sets[0].attrs[0].display_hint, "ipv4-or-v6");
	done(&t, s);
}

static void test_anchors_and_aliases(void **state)
{
	struct spec_tmp t;
	struct ynl_spec *s = load(&t, HEAD "attribute-sets:\n  - name: s\n    attributes:\n"
				  "      - { name: a, type: u32 }\n      - { name: b, type: u32 }\n"
				  "operations:\n  list:\n    - name: get\n      doc: x\n      attribute-set: s\n"
				  "      do: &op\n        request:\n          attributes: &all [ a, b ]\n"
				  "        reply:\n          attributes: *all\n      dump: *op\n");

	assert_true(s->ops[0].dump.present);
	assert_int_equal(s->ops[0].dump.reply.nr_attrs, 2);
	assert_int_equal(s->ops[0].do_.request.nr_attrs, 2);
	done(&t, s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attribute_values_count_from_one),
		cmocka_unit_test(test_enums_flags_and_consts),
		cmocka_unit_test(test_yaml11_scalar_types),
		cmocka_unit_test(test_yaml11_edges),
		cmocka_unit_test(test_checks_limits_and_constants),
		cmocka_unit_test(test_unified_ops_notify_event_and_groups),
		cmocka_unit_test(test_directional_numbering),
		cmocka_unit_test(test_legacy_features),
		cmocka_unit_test(test_raw_sub_messages_and_selectors),
		cmocka_unit_test(test_kernel_spec_quirks_are_warnings),
		cmocka_unit_test(test_repeated_attribute_is_one),
		cmocka_unit_test(test_subset_name_prefix_is_unused),
		cmocka_unit_test(test_newer_schema_keys),
		cmocka_unit_test(test_anchors_and_aliases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
