// SPDX-License-Identifier: MIT
/*
 * YNL spec reader: libyaml document -> struct ynl_spec.
 *
 * Invariants:
 * - every problem is reported as "file:line:column: message", one per line, with the 1-based
 *   position libyaml recorded for the offending node (the key for unknown or duplicate keys,
 *   the value for a bad value, the enclosing mapping for a missing key); problems the reading
 *   can go past (unknown, duplicate or too-new keys, bad names and flags: note_at()) are all
 *   told in one run, and the first one it cannot go past (fail_at()) ends the list;
 * - a key is accepted only at the protocol levels whose schema (Linux 6.12
 *   Documentation/netlink/<level>.yaml) lists it, so a genetlink spec cannot use legacy features;
 * - implicit values follow nlspec.py: attributes from 1, enum entries from value-start, ops
 *   from 1 (unified) or the directional request/reply counters.
 * Errors and out-of-memory leave through one longjmp to ynl_spec_load(), which frees the arena.
 */
#include "core/infile.h"
#include "ynl_parse_internal.h"

/* -- definitions ------------------------------------------------------------------------- */

static void parse_entries(struct ynl_parser *p, struct ynl_def *def, yaml_node_t *list)
{
	static const struct ynl_key keys[] = { REQ("name"), KEY("value"), KEY("doc"), KEYS_END };
	const char *pfx;
	int64_t next;

	expect_type(p, list, YAML_SEQUENCE_NODE, "entries");
	def->nr_entries = seq_len(list);
	def->entries = zalloc(p, sizeof(*def->entries) * (size_t)(def->nr_entries + 1));
	pfx = def->name_prefix ? def->name_prefix : xprintf(p, "%s-%s-", p->spec->ident, def->name);
	next = def->value_start;
	for (int i = 0; i < def->nr_entries; i++) {
		yaml_node_t *item = seq_item(p, list, i);
		struct ynl_entry *e = &def->entries[i];
		int64_t raw = next;

		if (item->type == YAML_SCALAR_NODE) {
			e->name = get_name(p, item, "entry");
		} else {
			check_keys(p, item, keys, "enum entry");
			e->name = get_name(p, get(p, item, "name"), "entry name");
			if (get(p, item, "value"))
				raw = get_int(p, get(p, item, "value"), "entry value");
			e->doc = opt_str(p, item, "doc", "doc");
		}
		for (int j = 0; j < i; j++) {
			if (!strcmp(def->entries[j].name, e->name))
				fail_at(p, item, "duplicate entry '%s' in %s '%s'", e->name,
					def->type == YNL_DEF_FLAGS ? "flags" : "enum", def->name);
		}
		if (def->type == YNL_DEF_FLAGS && (raw < 0 || raw > 63))
			fail_at(p, item, "flags entry '%s' has bit %" PRId64 " outside 0..63", e->name,
				raw);
		/* a C enum constant: an int, or (gcc, the kernel's uapi) an unsigned int */
		if (def->type != YNL_DEF_FLAGS && (raw < INT32_MIN || raw > (int64_t)UINT32_MAX))
			fail_at(p, item, "enum entry '%s' has value %" PRId64 " outside %d..%u",
				e->name, raw, INT32_MIN, UINT32_MAX);
		e->value = def->type == YNL_DEF_FLAGS ? (int64_t)(1ULL << raw) : raw;
		for (int j = 0; j < i; j++) {
			if (def->entries[j].value == e->value)
				fail_at(p, item, "duplicate value %" PRId64 " for entry '%s' (already '%s')",
					raw, e->name, def->entries[j].name);
		}
		e->value_change = def->type == YNL_DEF_FLAGS || raw != (i ? next : 0);
		e->c_name = c_case(p, xprintf(p, "%s%s", pfx, e->name), true);
		if (def->type == YNL_DEF_FLAGS)
			def->mask |= e->value;
		next = raw + 1;	/* no overflow: raw is at most UINT32_MAX or 63 */
	}
}

static void parse_members(struct ynl_parser *p, struct ynl_def *def, yaml_node_t *list)
{
	static const struct ynl_key keys[] = {
		KEY_L("name"), KEY_L("type"), KEY_L("doc"), KEY_L("len"), KEY_L("byte-order"),
		KEY_L("enum"), KEY_R("enum-as-flags"), KEY_L("display-hint"), KEY_R("struct"),
		KEYS_END
	};

	expect_type(p, list, YAML_SEQUENCE_NODE, "members");
	def->nr_members = seq_len(list);
	def->members = zalloc(p, sizeof(*def->members) * (size_t)(def->nr_members + 1));
	for (int i = 0; i < def->nr_members; i++) {
		yaml_node_t *item = seq_item(p, list, i), *v;
		struct ynl_member *m = &def->members[i];

		check_keys(p, item, keys, "struct member");
		if (!get(p, item, "name"))
			fail_at(p, item, "missing required key 'name' in struct member");
		if (!get(p, item, "type"))
			fail_at(p, item, "missing required key 'type' in struct member");
		m->name = get_name(p, get(p, item, "name"), "member name");
		m->type = parse_type(p, get(p, item, "type"), "member type");
		if (!ynl_type_is_scalar(m->type) && m->type != YNL_T_BINARY &&
		    m->type != YNL_T_STRING && m->type != YNL_T_PAD)
			fail_at(p, get(p, item, "type"), "struct member type '%s' is not allowed",
				ynl_type_name(m->type));
		m->doc = opt_str(p, item, "doc", "doc");
		if ((v = get(p, item, "len")))
			m->len = get_int(p, v, "len");
		if ((v = get(p, item, "byte-order"))) {
			const char *bo = get_str(p, v, "byte-order");

			if (!strcmp(bo, "big-endian"))
				m->byte_order = YNL_BO_BIG;
			else if (!strcmp(bo, "little-endian"))
				m->byte_order = YNL_BO_LITTLE;
			else
				fail_at(p, v, "byte-order must be big-endian or little-endian");
		}
		m->display_hint = opt_str(p, item, "display-hint", "display-hint");
		if ((v = get(p, item, "enum-as-flags")))
			m->enum_as_flags = get_bool(p, v, "enum-as-flags");
		m->c_name = c_case(p, m->name, false);
		for (int j = 0; j < i; j++)
			if (!strcmp(def->members[j].name, m->name))
				fail_at(p, item, "duplicate member '%s' in struct '%s'", m->name, def->name);
	}
}

static void parse_definition(struct ynl_parser *p, struct ynl_def *def, yaml_node_t *map)
{
	static const struct ynl_key keys[] = {
		REQ("name"), REQ("type"), KEY("doc"), KEY("header"), KEY("value"),
		KEY("value-start"), KEY("entries"), KEY("render-max"), KEY("scope"),
		KEY_C("enum-name"), KEY_C("name-prefix"), KEY_C("enum-cnt-name"),
		KEY_L("members"), KEYS_END
	};
	yaml_node_t *v;
	const char *type;

	check_keys(p, map, keys, "definition");
	def->loc.line = (int)map->start_mark.line + 1;
	def->loc.col = (int)map->start_mark.column + 1;
	def->name = get_name(p, get(p, map, "name"), "definition name");
	v = get(p, map, "type");
	type = get_str(p, v, "type");
	if (!strcmp(type, "const"))
		def->type = YNL_DEF_CONST;
	else if (!strcmp(type, "enum"))
		def->type = YNL_DEF_ENUM;
	else if (!strcmp(type, "flags"))
		def->type = YNL_DEF_FLAGS;
	else if (!strcmp(type, "struct")) {
		if (p->spec->proto < YNL_PROTO_GENETLINK_LEGACY)
			fail_at(p, v, "definition type 'struct' needs protocol genetlink-legacy or later");
		def->type = YNL_DEF_STRUCT;
	} else {
		fail_at(p, v, "unknown definition type '%s'", type);
	}
	def->doc = opt_str(p, map, "doc", "doc");
	def->header = opt_str(p, map, "header", "header");
	def->scope = opt_str(p, map, "scope", "scope");
	if ((v = get(p, map, "render-max")))
		def->render_max = get_bool(p, v, "render-max");
	if ((v = get(p, map, "enum-name"))) {
		def->has_enum_name = true;
		def->enum_name = get_str_or_null(p, v, "enum-name");
	}
	def->name_prefix = opt_str(p, map, "name-prefix", "name-prefix");
	def->enum_cnt_name = opt_str(p, map, "enum-cnt-name", "enum-cnt-name");
	if ((v = get(p, map, "value-start"))) {
		def->value_start = get_int(p, v, "value-start");
		/* u64 values above s64 keep their bits: 2^64-1 must not pass as -1 */
		if ((scalar_text(v)[0] != '-' && def->value_start < 0) ||
		    def->value_start < INT32_MIN || def->value_start > (int64_t)UINT32_MAX)
			fail_at(p, v, "value-start %s is outside %d..%u", scalar_text(v), INT32_MIN,
				UINT32_MAX);
	}
	def->render_name = c_case(p, xprintf(p, "%s-%s", p->spec->ident, def->name), false);

	switch (def->type) {
	case YNL_DEF_CONST:
		v = get(p, map, "value");
		if (!v)
			fail_at(p, map, "missing required key 'value' in const definition '%s'",
				def->name);
		if (v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		    parse_int_text(scalar_text(v), &def->value))
			break;
		def->value_str = get_str(p, v, "value");
		break;
	case YNL_DEF_ENUM:
	case YNL_DEF_FLAGS:
		if (!get(p, map, "entries"))
			fail_at(p, map, "missing required key 'entries' in %s definition '%s'", type,
				def->name);
		parse_entries(p, def, get(p, map, "entries"));
		if (def->has_enum_name)
			def->c_type = def->enum_name ? xprintf(p, "enum %s", c_case(p, def->enum_name,
								false)) : "int";
		else
			def->c_type = xprintf(p, "enum %s", def->render_name);
		break;
	case YNL_DEF_STRUCT:
		if (!get(p, map, "members"))
			fail_at(p, map, "missing required key 'members' in struct definition '%s'",
				def->name);
		parse_members(p, def, get(p, map, "members"));
		def->c_type = xprintf(p, "struct %s", def->render_name);
		break;
	}
}

static void parse_definitions(struct ynl_parser *p, yaml_node_t *list)
{
	struct ynl_spec *spec = p->spec;

	expect_type(p, list, YAML_SEQUENCE_NODE, "definitions");
	spec->nr_defs = seq_len(list);
	spec->defs = zalloc(p, sizeof(*spec->defs) * (size_t)(spec->nr_defs + 1));
	for (int i = 0; i < spec->nr_defs; i++) {
		yaml_node_t *item = seq_item(p, list, i);

		parse_definition(p, &spec->defs[i], item);
		for (int j = 0; j < i; j++)
			if (!strcmp(spec->defs[j].name, spec->defs[i].name))
				fail_at(p, item, "duplicate definition '%s'", spec->defs[i].name);
	}
	resolve_members(p, list);
}

/* -- attribute sets ---------------------------------------------------------------------- */

/*
 * A limit is an integer, a type limit ("u32-max", "s16-min") or the name of a const.  Unsigned
 * maxima above INT64_MAX keep their bits in @out and set *@is_u.
 */
static int64_t parse_limit(struct ynl_parser *p, yaml_node_t *node, const char *what, bool *is_u)
{
	static const struct {
		const char *name;
		int64_t value;
		bool unsigned_max;
	} limits[] = {
		{ "u8-max", UINT8_MAX, false }, { "u16-max", UINT16_MAX, false },
		{ "u32-max", UINT32_MAX, false }, { "u64-max", -1, true },
		{ "s8-max", INT8_MAX, false }, { "s16-max", INT16_MAX, false },
		{ "s32-max", INT32_MAX, false }, { "s64-max", INT64_MAX, false },
		{ "s8-min", INT8_MIN, false }, { "s16-min", INT16_MIN, false },
		{ "s32-min", INT32_MIN, false }, { "s64-min", INT64_MIN, false },
		{ "u8-min", 0, false }, { "u16-min", 0, false }, { "u32-min", 0, false },
		{ "u64-min", 0, false },
	};
	const char *text;
	char name[256];
	int64_t value, minus = 0;
	struct ynl_def *def;

	*is_u = false;
	expect_type(p, node, YAML_SCALAR_NODE, what);
	text = scalar_text(node);
	if (parse_int_text(text, &value)) {
		if (text[0] != '-' && value < 0)
			*is_u = true;
		return value;
	}
	snprintf(name, sizeof(name), "%s", text);
	{
		char *sub = strstr(name, " - ");

		if (sub) {
			*sub = '\0';
			if (!parse_int_text(sub + 3, &minus))
				fail_at(p, node, "%s '%s' is not 'NAME - N'", what, text);
		}
	}
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (!strcmp(limits[i].name, name)) {
			*is_u = limits[i].unsigned_max;
			return limits[i].value - minus;
		}
	}
	def = find_def(p->spec, name);
	if (!def || def->type != YNL_DEF_CONST || def->value_str)
		fail_at(p, node, "%s refers to undefined constant '%s'", what, name);
	return def->value - minus;
}

static void parse_checks(struct ynl_parser *p, struct ynl_attr *attr, yaml_node_t *map)
{
	static const struct ynl_key keys[] = {
		KEY("min"), KEY("max"), KEY("min-len"), KEY("max-len"), KEY("exact-len"),
		KEY("flags-mask"), KEY_C("unterminated-ok"), KEY("sparse"), KEYS_END
	};
	struct ynl_checks *c = &attr->checks;
	yaml_node_t *v;
	bool is_u, min_is_u = false;

	check_keys(p, map, keys, "checks");
	attr->has_checks = true;
	if ((v = get(p, map, "min"))) {
		c->has_min = true;
		c->min = parse_limit(p, v, "min", &min_is_u);
	}
	if ((v = get(p, map, "max"))) {
		c->has_max = true;
		c->max = parse_limit(p, v, "max", &c->max_is_unsigned);
		c->max_u = (uint64_t)c->max;
	}
	if (c->has_min && c->has_max && !c->max_is_unsigned && c->max < c->min)
		fail_at(p, map, "checks: min %" PRId64 " is above max %" PRId64, c->min, c->max);
	/* ynl-gen-c.py: "negative limit for unsigned type" */
	if (ynl_type_is_scalar(attr->type) && !ynl_type_is_signed(attr->type) &&
	    ((c->has_min && c->min < 0) || (c->has_max && !c->max_is_unsigned && c->max < 0)))
		fail_at(p, map, "checks: negative limit for unsigned type %s of attribute '%s'",
			ynl_type_name(attr->type), attr->name);
	if ((v = get(p, map, "min-len"))) {
		c->has_min_len = true;
		c->min_len = parse_limit(p, v, "min-len", &is_u);
	}
	if ((v = get(p, map, "max-len"))) {
		c->has_max_len = true;
		c->max_len = parse_limit(p, v, "max-len", &is_u);
	}
	if ((v = get(p, map, "exact-len"))) {
		c->has_exact_len = true;
		c->exact_len = parse_limit(p, v, "exact-len", &is_u);
	}
	if ((c->has_min_len && c->min_len < 0) || (c->has_max_len && c->max_len < 0) ||
	    (c->has_exact_len && c->exact_len < 0))
		fail_at(p, map, "checks: lengths must not be negative");
	/* struct nla_policy's .len and the range of a binary are u16 */
	if ((c->has_min_len && c->min_len > UINT16_MAX) ||
	    (c->has_max_len && c->max_len > UINT16_MAX) ||
	    (c->has_exact_len && c->exact_len > UINT16_MAX))
		fail_at(p, map, "checks: a length above %u does not fit struct nla_policy",
			UINT16_MAX);
	if (c->has_min_len && c->has_max_len && c->max_len < c->min_len)
		fail_at(p, map, "checks: min-len %" PRId64 " is above max-len %" PRId64, c->min_len,
			c->max_len);
	if ((v = get(p, map, "flags-mask"))) {
		c->flags_mask = ref_def(p, v, "flags-mask", YNL_DEF_ENUM);
		if (c->flags_mask->type != YNL_DEF_FLAGS)
			fail_at(p, v, "flags-mask '%s' is not a flags definition", c->flags_mask->name);
	}
	if ((v = get(p, map, "unterminated-ok")))
		c->unterminated_ok = get_bool(p, v, "unterminated-ok");
}

/*
 * 6.12's ynl-gen-c.py bounds an integer attribute by its enum or flags: where the checks give no
 * min, the enum's lowest value becomes one (unless it is 0 on an unsigned type), and where they
 * give no max, its highest value (for flags the highest bit number).  It refuses an enum with
 * gaps ("Can't get value range for a noncontiguous enum") and a min above the max that results.
 * The bounds of a plain enum are its policy (NLA_POLICY_RANGE/MAX, FULL_RANGE beyond s16), so
 * they go into the checks, where the test generator sees them too; a flags attribute is
 * validated by its mask instead, so its bounds are only checked.  netlink-raw specs are not
 * rendered by ynl-gen-c.py: kfsim keeps its own rule there (emit_policy_entry()).
 */
static void enum_bounds(struct ynl_parser *p, struct ynl_attr *attr, yaml_node_t *item)
{
	const struct ynl_def *def = attr->enum_def;
	struct ynl_checks *c = &attr->checks;
	bool is_flags = def->type == YNL_DEF_FLAGS;
	int64_t lo = 0, hi = 0, min, max;

	for (int i = 0; i < def->nr_entries; i++) {
		int64_t v = def->entries[i].value;

		if (is_flags) /* the bit number: the Python keeps that, not 1 << n */
			v = v > 0 ? __builtin_ctzll((unsigned long long)v) : 0;
		if (!i || v < lo)
			lo = v;
		if (!i || v > hi)
			hi = v;
	}
	/*
	 * Noted, not fatal: every attribute typed with a gapped enum is told in one run (6.18's
	 * devlink.yaml has two, ethtool.yaml 27), and this attribute gets no bounds.  Later
	 * generators (6.16 on) validate such an enum with a generated function; kfsim does not.
	 */
	if (!def->nr_entries || hi - lo + 1 != def->nr_entries) {
		note_at(p, item, "attribute '%s': enum '%s' has gaps between its values, so it "
			"gives no range (as 6.12's ynl-gen-c.py refuses it; 6.16's and later "
			"validate it with a function kfsim-ynl-gen does not generate)", attr->name,
			def->name);
		return;
	}
	min = c->has_min ? c->min : lo;
	max = c->has_max ? c->max : hi;
	if ((c->has_min || lo != 0 || ynl_type_is_signed(attr->type)) &&
	    !(c->has_max && c->max_is_unsigned) && min > max)
		fail_at(p, item, "attribute '%s': min %" PRId64 " is above max %" PRId64 " (a bound "
			"not in the checks comes from enum '%s')", attr->name, min, max, def->name);
	if (is_flags || attr->enum_as_flags)
		return;
	if (!c->has_min && (lo != 0 || ynl_type_is_signed(attr->type))) {
		c->has_min = true;
		c->min = lo;
	}
	if (!c->has_max) {
		c->has_max = true;
		c->max = hi;
		c->max_u = (uint64_t)hi;
	}
	attr->has_checks = true;
}

static const struct ynl_key attr_keys[] = {
	REQ("name"), KEY("type"), KEY("value"), KEY("doc"), KEY("enum"), KEY("enum-as-flags"),
	KEY("nested-attributes"), KEY("multi-attr"), KEY("byte-order"), KEY("display-hint"),
	KEY("checks"), KEY("sub-type"), KEY("type-value"), KEY_C("name-prefix"), KEY_L("struct"),
	KEY_R("sub-message"), KEY_R("selector"), KEY("len"), KEYS_END
};

/*
 * Whether item @k of a set's attribute list repeats an earlier one word for word, explicit
 * value included: ethtool.yaml of 6.18 lists "unspec, unused, value 0" twice in set 'strings'.
 * nlspec.py keys attributes by name, so ynl-gen-c.py keeps one: the repeat is told and skipped.
 * (Without an explicit value the repeat would move the attribute to the next value; any other
 * repeat changes what the name means: parse_attr_names() refuses those.)
 */
static bool repeated_attr(struct ynl_parser *p, const struct ynl_attr_set *set, yaml_node_t *list,
			  int k, bool tell)
{
	yaml_node_t *item = seq_item(p, list, k), *name = NULL;

	if (set->subset_of || item->type != YAML_MAPPING_NODE || !get(p, item, "value") ||
	    !(name = get(p, item, "name")) || name->type != YAML_SCALAR_NODE)
		return false;
	for (int j = 0; j < k; j++) {
		yaml_node_t *prev = seq_item(p, list, j);

		if (!same_node(p, prev, item))
			continue;
		if (tell)
			warn_at(p, item, "attribute '%s' repeated word for word in set '%s': the "
				"repeat is ignored (ynl-gen-c.py keeps one)", scalar_text(name),
				set->name);
		return true;
	}
	return false;
}

/* Pass 1: names, types and values, so that pass 2 can resolve references in any order. */
static void parse_attr_names(struct ynl_parser *p, struct ynl_attr_set *set, yaml_node_t *list)
{
	int64_t next = 1;

	expect_type(p, list, YAML_SEQUENCE_NODE, "attributes");
	set->attrs = zalloc(p, sizeof(*set->attrs) * (size_t)(seq_len(list) + 1));
	for (int k = 0, i = 0; k < seq_len(list); k++, i = set->nr_attrs) {
		yaml_node_t *item = seq_item(p, list, k), *v;
		struct ynl_attr *attr = &set->attrs[i];

		if (repeated_attr(p, set, list, k, true))
			continue;
		set->nr_attrs++;
		check_keys(p, item, attr_keys, "attribute");
		attr->loc.line = (int)item->start_mark.line + 1;
		attr->loc.col = (int)item->start_mark.column + 1;
		attr->set = set;
		attr->name = get_name(p, get(p, item, "name"), "attribute name");
		attr->gen_c_rules = p->spec->proto != YNL_PROTO_NETLINK_RAW;
		attr->sub_type = YNL_T_COUNT;
		for (int j = 0; j < i; j++) {
			if (strcmp(set->attrs[j].name, attr->name))
				continue;
			/* devlink.yaml (6.12) repeats names in a subset: harmless, so a warning. */
			if (!set->subset_of)
				fail_at(p, item, "duplicate attribute '%s' in set '%s'", attr->name,
					set->name);
			warn_at(p, item, "attribute '%s' listed twice in subset '%s'", attr->name,
				set->name);
		}
		if (set->subset_of)
			continue;
		v = get(p, item, "type");
		if (!v)
			fail_at(p, item, "missing required key 'type' in attribute '%s'", attr->name);
		attr->type = parse_type(p, v, "attribute type");
		if ((v = get(p, item, "value"))) {
			next = get_int(p, v, "attribute value");
			if (next < 0 || next > 0x3fff)
				fail_at(p, v, "attribute value %" PRId64 " is outside 0..16383", next);
		}
		attr->value = (uint32_t)next;
		for (int j = 0; j < i; j++)
			if (set->attrs[j].value == attr->value)
				fail_at(p, item, "duplicate value %u for attribute '%s' (already '%s')",
					attr->value, attr->name, set->attrs[j].name);
		next++;
		if (attr->value > set->max_value)
			set->max_value = attr->value;
	}
}

static void parse_attr_details(struct ynl_parser *p, struct ynl_attr_set *set, yaml_node_t *list)
{
	for (int k = 0, i = 0; i < set->nr_attrs; k++, i++) {
		yaml_node_t *item, *v;
		struct ynl_attr *attr = &set->attrs[i];

		while (repeated_attr(p, set, list, k, false))	/* skipped by pass 1 */
			k++;
		item = seq_item(p, list, k);

		if (set->subset_of) {
			struct ynl_attr *real = find_attr(set->subset_of, attr->name);

			if (!real)
				fail_at(p, item, "attribute '%s' is not in set '%s' (subset-of)",
					attr->name, set->subset_of->name);
			set->real[i] = real;
			for (int j = 0; j < i; j++)
				if (set->real[j] == real)
					set->real[i] = NULL;
			if (i == set->nr_attrs - 1) {
				int kept = 0;

				for (int j = 0; j < set->nr_attrs; j++)
					if (set->real[j])
						set->real[kept++] = set->real[j];
				set->nr_attrs = kept;
			}
			continue;
		}
		attr->doc = opt_str(p, item, "doc", "doc");
		if ((v = get(p, item, "enum")))
			attr->enum_def = ref_def(p, v, "enum", YNL_DEF_ENUM);
		if ((v = get(p, item, "enum-as-flags")))
			attr->enum_as_flags = get_bool(p, v, "enum-as-flags");
		if ((v = get(p, item, "nested-attributes")))
			attr->nested = ref_set(p, v, "nested-attributes");
		if ((v = get(p, item, "multi-attr")))
			attr->multi_attr = get_bool(p, v, "multi-attr");
		if ((v = get(p, item, "byte-order"))) {
			const char *bo = get_str(p, v, "byte-order");

			if (!strcmp(bo, "big-endian"))
				attr->byte_order = YNL_BO_BIG;
			else if (!strcmp(bo, "little-endian"))
				attr->byte_order = YNL_BO_LITTLE;
			else
				fail_at(p, v, "byte-order must be big-endian or little-endian, not '%s'",
					bo);
		}
		if ((v = get(p, item, "display-hint"))) {
			/* 6.12's schemas; ipv4-or-v6 is in those of 7.0 (rt-*.yaml, wireguard.yaml).
			 * A hint only tells a reader how to print: the C is the same. */
			static const char *const hints[] = { "hex", "mac", "fddi", "ipv4", "ipv6",
							     "ipv4-or-v6", "uuid" };
			bool ok = false;

			attr->display_hint = get_str(p, v, "display-hint");
			for (size_t h = 0; h < sizeof(hints) / sizeof(hints[0]); h++)
				ok |= !strcmp(hints[h], attr->display_hint);
			if (!ok)
				fail_at(p, v, "unknown display-hint '%s'", attr->display_hint);
		}
		attr->name_prefix = opt_str(p, item, "name-prefix", "name-prefix");
		if ((v = get(p, item, "struct")))
			attr->struct_def = ref_def(p, v, "struct", YNL_DEF_STRUCT);
		if ((v = get(p, item, "sub-type")))
			attr->sub_type = parse_type(p, v, "sub-type");
		if ((v = get(p, item, "type-value"))) {
			expect_type(p, v, YAML_SEQUENCE_NODE, "type-value");
			attr->nr_type_value = seq_len(v);
			attr->type_value = zalloc(p, sizeof(char *) * (size_t)(attr->nr_type_value + 1));
			for (int t = 0; t < attr->nr_type_value; t++)
				attr->type_value[t] = get_str(p, seq_item(p, v, t), "type-value");
		}
		if ((v = get(p, item, "len")))
			attr->len = get_int(p, v, "len");
		if ((v = get(p, item, "checks")))
			parse_checks(p, attr, v);
		if (attr->enum_def && ynl_type_is_scalar(attr->type) && attr->gen_c_rules)
			enum_bounds(p, attr, item);
		/* Type-specific requirements. */
		switch (attr->type) {
		case YNL_T_BITFIELD32:
			/* its policy is NLA_POLICY_BITFIELD32(mask): ynl-gen-c.py needs the enum */
			if (!attr->enum_def && attr->gen_c_rules)
				fail_at(p, item, "bitfield32 attribute '%s' needs an enum (the valid "
					"bits of its policy)", attr->name);
			break;
		case YNL_T_NEST:
			if (!attr->nested)
				fail_at(p, item, "nest attribute '%s' needs nested-attributes",
					attr->name);
			break;
		case YNL_T_INDEXED_ARRAY:
			if (attr->sub_type == YNL_T_COUNT)
				fail_at(p, item, "indexed-array attribute '%s' needs sub-type",
					attr->name);
			if (attr->sub_type == YNL_T_NEST && !attr->nested)
				fail_at(p, item, "indexed-array of nests '%s' needs nested-attributes",
					attr->name);
			break;
		case YNL_T_NEST_TYPE_VALUE:
			if (!attr->nested)
				fail_at(p, item, "nest-type-value attribute '%s' needs nested-attributes",
					attr->name);
			break;
		case YNL_T_SUB_MESSAGE:
			if (!get(p, item, "sub-message") || !get(p, item, "selector"))
				fail_at(p, item, "sub-message attribute '%s' needs sub-message and "
					"selector", attr->name);
			break;
		default:
			break;
		}
		if (attr->has_checks && attr->checks.has_max && ynl_type_is_scalar(attr->type) &&
		    !ynl_type_is_signed(attr->type) && !attr->checks.max_is_unsigned &&
		    attr->checks.max < 0)
			fail_at(p, get(p, item, "checks"), "checks: max of unsigned '%s' is negative",
				attr->name);
	}
}

static void parse_sets(struct ynl_parser *p, yaml_node_t *list)
{
	static const struct ynl_key keys[] = {
		REQ("name"), REQ("attributes"), KEY("doc"), KEY("name-prefix"), KEY("enum-name"),
		KEY("subset-of"), KEY_C("attr-cnt-name"), KEY_C("attr-max-name"),
		/*
		 * The header that already defines the set's enum: in the schemas from 6.16 on
		 * (genetlink-c and up; rt-link.yaml and tc.yaml use it).  6.12's ynl-gen-c.py
		 * does not read it and renders the set as any other: so does kfsim.
		 */
		KEY_C("header"), KEYS_END
	};
	struct ynl_spec *spec = p->spec;

	expect_type(p, list, YAML_SEQUENCE_NODE, "attribute-sets");
	spec->nr_sets = seq_len(list);
	spec->sets = zalloc(p, sizeof(*spec->sets) * (size_t)(spec->nr_sets + 1));
	for (int i = 0; i < spec->nr_sets; i++) {
		yaml_node_t *map = seq_item(p, list, i), *v;
		struct ynl_attr_set *set = &spec->sets[i];

		check_keys(p, map, keys, "attribute set");
		set->loc.line = (int)map->start_mark.line + 1;
		set->loc.col = (int)map->start_mark.column + 1;
		set->name = get_name(p, get(p, map, "name"), "attribute-set name");
		for (int j = 0; j < i; j++)
			if (!strcmp(spec->sets[j].name, set->name))
				fail_at(p, map, "duplicate attribute set '%s'", set->name);
		set->doc = opt_str(p, map, "doc", "doc");
		set->name_prefix_key = opt_str(p, map, "name-prefix", "name-prefix");
		if ((v = get(p, map, "enum-name"))) {
			set->has_enum_name = true;
			set->enum_name = get_str_or_null(p, v, "enum-name");
		}
		set->attr_cnt_name_key = opt_str(p, map, "attr-cnt-name", "attr-cnt-name");
		set->attr_max_name_key = opt_str(p, map, "attr-max-name", "attr-max-name");
		/* 6.12's ynl-gen-c.py names a subset's attributes by its parent's prefix and
		 * never reads the subset's own: the same here, and the author is told */
		if (set->name_prefix_key && get(p, map, "subset-of")) {
			warn_at(p, get_key_node(p, map, "name-prefix"), "name-prefix of set '%s' is "
				"not used: a subset's attributes keep the names of the set it is a "
				"subset of", set->name);
			set->name_prefix_key = NULL;
		}
	}
	/* subset-of may name a later set; resolve before reading attributes. */
	for (int i = 0; i < spec->nr_sets; i++) {
		yaml_node_t *map = seq_item(p, list, i), *v = get(p, map, "subset-of");

		if (!v)
			continue;
		spec->sets[i].subset_of = ref_set(p, v, "subset-of");
		if (spec->sets[i].subset_of->subset_of || spec->sets[i].subset_of == &spec->sets[i])
			fail_at(p, v, "subset-of must name a set that is not itself a subset");
	}
	for (int i = 0; i < spec->nr_sets; i++) {
		struct ynl_attr_set *set = &spec->sets[i];

		if (set->subset_of)
			continue;
		parse_attr_names(p, set, get(p, seq_item(p, list, i), "attributes"));
	}
	for (int i = 0; i < spec->nr_sets; i++) {
		struct ynl_attr_set *set = &spec->sets[i];

		if (!set->subset_of)
			continue;
		parse_attr_names(p, set, get(p, seq_item(p, list, i), "attributes"));
		set->real = zalloc(p, sizeof(*set->real) * (size_t)(set->nr_attrs + 1));
	}
	for (int i = 0; i < spec->nr_sets; i++)
		parse_attr_details(p, &spec->sets[i], get(p, seq_item(p, list, i), "attributes"));
}

/* -- sub-messages and selectors ---------------------------------------------------------- */

static void parse_submsgs(struct ynl_parser *p, yaml_node_t *list)
{
	static const struct ynl_key keys[] = { REQ_R("name"), REQ_R("formats"), KEYS_END };
	static const struct ynl_key fkeys[] = {
		REQ_R("value"), KEY_R("attribute-set"), KEY_R("fixed-header"), KEYS_END
	};
	struct ynl_spec *spec = p->spec;

	expect_type(p, list, YAML_SEQUENCE_NODE, "sub-messages");
	spec->nr_submsgs = seq_len(list);
	spec->submsgs = zalloc(p, sizeof(*spec->submsgs) * (size_t)(spec->nr_submsgs + 1));
	for (int i = 0; i < spec->nr_submsgs; i++) {
		yaml_node_t *map = seq_item(p, list, i), *formats;
		struct ynl_submsg *sm = &spec->submsgs[i];

		check_keys(p, map, keys, "sub-message");
		sm->name = get_name(p, get(p, map, "name"), "sub-message name");
		sm->loc.line = (int)map->start_mark.line + 1;
		for (int j = 0; j < i; j++)
			if (!strcmp(spec->submsgs[j].name, sm->name))
				fail_at(p, map, "duplicate sub-message '%s'", sm->name);
		formats = get(p, map, "formats");
		expect_type(p, formats, YAML_SEQUENCE_NODE, "formats");
		sm->nr_formats = seq_len(formats);
		sm->formats = zalloc(p, sizeof(*sm->formats) * (size_t)(sm->nr_formats + 1));
		for (int f = 0; f < sm->nr_formats; f++) {
			yaml_node_t *fm = seq_item(p, formats, f), *v;
			struct ynl_submsg_fmt *fmt = &sm->formats[f];

			check_keys(p, fm, fkeys, "sub-message format");
			fmt->value = get_str(p, get(p, fm, "value"), "value");
			for (int j = 0; j < f; j++)
				if (!strcmp(sm->formats[j].value, fmt->value))
					fail_at(p, fm, "duplicate format '%s' in sub-message '%s'",
						fmt->value, sm->name);
			if ((v = get(p, fm, "attribute-set")))
				fmt->set = ref_set(p, v, "attribute-set");
			if ((v = get(p, fm, "fixed-header")))
				fmt->fixed_header = ref_def(p, v, "fixed-header", YNL_DEF_STRUCT);
		}
	}
}

/* -- operations -------------------------------------------------------------------------- */

static void parse_msg(struct ynl_parser *p, struct ynl_op *op, struct ynl_msg *msg,
		      yaml_node_t *map, const char *what)
{
	static const struct ynl_key keys[] = { KEY("attributes"), KEY_L("value"), KEYS_END };
	yaml_node_t *list, *v;
	int n = 0;

	check_keys(p, map, keys, what);
	msg->present = true;
	if ((v = get(p, map, "value"))) {
		int64_t value = get_int(p, v, "value");

		if (value < 0 || value > 0xffff)
			fail_at(p, v, "message value %" PRId64 " is outside 0..65535", value);
		msg->has_value = true;
		msg->value = (uint32_t)value;
	}
	list = get(p, map, "attributes");
	if (!list)
		return;
	if (is_null(list))
		return;
	expect_type(p, list, YAML_SEQUENCE_NODE, "attributes");
	if (!op->set)
		fail_at(p, list, "operation '%s' lists attributes but has no attribute-set",
			op->name);
	msg->attrs = zalloc(p, sizeof(*msg->attrs) * (size_t)(seq_len(list) + 1));
	for (int i = 0; i < seq_len(list); i++) {
		yaml_node_t *item = seq_item(p, list, i);
		const char *name = get_str(p, item, "attribute");

		struct ynl_def *hdr = op->fixed_header ? op->fixed_header : p->spec->fixed_header;
		struct ynl_attr *attr = find_attr(op->set, name);
		bool in_hdr = false;

		for (int m = 0; hdr && !attr && m < hdr->nr_members; m++)
			in_hdr |= !strcmp(hdr->members[m].name, name);
		if (in_hdr)
			continue;	/* a fixed-header field (rt-*.yaml list them too) */
		if (!attr) {
			/* nftables.yaml (6.12) lists 'name' for rule-attrs, which has none. */
			warn_at(p, item, "operation '%s' lists '%s', which set '%s' does not have; "
				"ignored", op->name, name, op->set->name);
			continue;
		}
		for (int j = 0; j < n && attr; j++) {
			if (msg->attrs[j] != attr)
				continue;
			/* rt_link.yaml (6.12) lists 'group' twice for newlink. */
			warn_at(p, item, "attribute '%s' listed twice in operation '%s'", name,
				op->name);
			attr = NULL;
		}
		if (attr)
			msg->attrs[n++] = attr;
	}
	msg->nr_attrs = n;
}

static void parse_mode(struct ynl_parser *p, struct ynl_op *op, struct ynl_op_mode *mode,
		       yaml_node_t *map, const char *what)
{
	static const struct ynl_key keys[] = {
		KEY("request"), KEY("reply"), KEY("pre"), KEY("post"), KEYS_END
	};
	yaml_node_t *v;

	check_keys(p, map, keys, what);
	mode->present = true;
	if ((v = get(p, map, "request")))
		parse_msg(p, op, &mode->request, v, "request");
	if ((v = get(p, map, "reply")))
		parse_msg(p, op, &mode->reply, v, "reply");
	mode->pre = opt_str(p, map, "pre", "pre");
	mode->post = opt_str(p, map, "post", "post");
}

static unsigned int parse_word_list(struct ynl_parser *p, yaml_node_t *list, const char *what,
				    const char *const *words, const enum ynl_proto *min_proto)
{
	unsigned int bits = 0;

	expect_type(p, list, YAML_SEQUENCE_NODE, what);
	for (int i = 0; i < seq_len(list); i++) {
		yaml_node_t *item = seq_item(p, list, i);
		const char *word = get_str(p, item, what);
		int w;

		for (w = 0; words[w]; w++)
			if (!strcmp(words[w], word))
				break;
		if (!words[w] || min_proto[w] > p->spec->proto)
			fail_at(p, item, "unknown %s '%s'", what, word);
		bits |= 1U << w;
	}
	return bits;
}

static void parse_op(struct ynl_parser *p, struct ynl_op *op, yaml_node_t *map)
{
	static const struct ynl_key keys[] = {
		REQ("name"), REQ("doc"), KEY("value"), KEY("attribute-set"), KEY("flags"),
		KEY("dont-validate"), KEY("do"), KEY("dump"), KEY("notify"), KEY("event"),
		KEY("mcgrp"), KEY_L("fixed-header"), KEY("config-cond"), KEYS_END
	};
	static const char *const flag_words[] = { "admin-perm", "uns-admin-perm", NULL };
	static const enum ynl_proto flag_min[] = { YNL_PROTO_GENETLINK,
						   YNL_PROTO_GENETLINK_LEGACY };
	static const char *const dv_words[] = { "strict", "dump", "dump-strict", NULL };
	static const enum ynl_proto dv_min[] = { 0, 0, 0 };
	yaml_node_t *v;

	check_keys(p, map, keys, "operation");
	op->loc.line = (int)map->start_mark.line + 1;
	op->loc.col = (int)map->start_mark.column + 1;
	op->name = get_name(p, get(p, map, "name"), "operation name");
	op->doc = opt_str(p, map, "doc", "doc");
	if ((v = get(p, map, "value"))) {
		int64_t value = get_int(p, v, "value");

		if (value < 0 || value > 255)
			fail_at(p, v, "operation value %" PRId64 " is outside 0..255", value);
		op->has_value = true;
		op->value = (uint32_t)value;
	}
	if ((v = get(p, map, "attribute-set")))
		op->set = ref_set(p, v, "attribute-set");
	if ((v = get(p, map, "flags")))
		op->flags = parse_word_list(p, v, "flag", flag_words, flag_min);
	if ((v = get(p, map, "dont-validate")))
		op->dont_validate = parse_word_list(p, v, "dont-validate", dv_words, dv_min);
	if ((v = get(p, map, "fixed-header")))
		op->fixed_header = ref_def(p, v, "fixed-header", YNL_DEF_STRUCT);
	if ((v = get(p, map, "do")))
		parse_mode(p, op, &op->do_, v, "do");
	if ((v = get(p, map, "dump")))
		parse_mode(p, op, &op->dump, v, "dump");
	if ((v = get(p, map, "event"))) {
		parse_msg(p, op, &op->event, v, "event");
		op->is_async = true;
	}
	op->mcgrp = opt_str(p, map, "mcgrp", "mcgrp");
	if (get(p, map, "notify"))
		op->is_async = true;
	if (get(p, map, "notify") && get(p, map, "event"))
		fail_at(p, get_key_node(p, map, "event"), "operation '%s' has both notify and event",
			op->name);
}

/* nlspec.py _dictify_ops_unified()/_dictify_ops_directional(). */
static void number_ops(struct ynl_parser *p, yaml_node_t *list)
{
	struct ynl_spec *spec = p->spec;
	int64_t req = 1, rsp = 1;

	for (int i = 0; i < spec->nr_ops; i++) {
		struct ynl_op *op = &spec->ops[i];
		yaml_node_t *map = seq_item(p, list, i);

		if (!spec->directional) {
			/*
			 * Legacy families (devlink.yaml) give per-message values instead of an op
			 * value: the request's becomes the command id and the count goes on from
			 * it, so the ids match the family's hand-written uapi.
			 */
			struct ynl_op_mode *mode = op->do_.present ? &op->do_ :
						   op->dump.present ? &op->dump : NULL;

			if (op->has_value)
				req = op->value;
			else if (mode && mode->request.has_value)
				req = mode->request.value;
			op->has_req_value = op->has_rsp_value = true;
			op->req_value = op->rsp_value = (uint32_t)req;
			if (mode && mode->reply.has_value)
				op->rsp_value = mode->reply.value;
			req++;
			continue;
		}
		if (op->is_async) {
			if (op->has_value)
				rsp = op->value;
			op->has_rsp_value = true;
			op->rsp_value = (uint32_t)rsp;
			rsp++;
		} else if (op->do_.present || op->dump.present) {
			struct ynl_op_mode *mode = op->do_.present ? &op->do_ : &op->dump;

			if (mode->request.has_value)
				req = mode->request.value;
			if (mode->reply.has_value)
				rsp = mode->reply.value;
			op->has_req_value = true;
			op->req_value = (uint32_t)req;
			req++;
			if (mode->reply.present) {
				op->has_rsp_value = true;
				op->rsp_value = (uint32_t)rsp;
				rsp++;
			}
		} else {
			fail_at(p, map, "directional operation '%s' needs do, dump, notify or event",
				op->name);
		}
	}
}

static void check_op_values(struct ynl_parser *p, yaml_node_t *list)
{
	struct ynl_spec *spec = p->spec;
	bool separate_ntf = spec->async_prefix != NULL;
	/* genlmsghdr.cmd is a u8; a netlink-raw message type the u16 nlmsg_type */
	uint32_t max = spec->proto == YNL_PROTO_NETLINK_RAW ? UINT16_MAX : UINT8_MAX;

	for (int i = 0; i < spec->nr_ops; i++) {
		struct ynl_op *op = &spec->ops[i];

		if ((op->has_req_value && op->req_value > max) ||
		    (op->has_rsp_value && op->rsp_value > max))
			fail_at(p, seq_item(p, list, i), "operation '%s' has a value above %u",
				op->name, max);

		for (int j = 0; j < i; j++) {
			struct ynl_op *other = &spec->ops[j];
			bool clash;

			if (spec->directional) {
				/* Replies may share an id (nftables getrule/getrule-reset). */
				clash = op->has_req_value && other->has_req_value &&
					op->req_value == other->req_value;
			} else {
				/* A separate notification enum has its own values. */
				clash = op->req_value == other->req_value &&
					(!separate_ntf || op->is_async == other->is_async);
			}
			if (clash)
				fail_at(p, seq_item(p, list, i),
					"duplicate value for operation '%s' (already '%s')", op->name,
					other->name);
		}
	}
}

/*
 * A hook is one C function: a pre_doit (int, ops/skb/info), a post_doit (void, the same) or a
 * dump's start/done (int, netlink_callback).  One name in two of these roles gets two
 * prototypes; 6.12's ynl-gen-c.py prints both, and its C does not compile (spec_fuzz.py seed
 * 6157: "pre" of a do and of a dump).  Every such use is told.
 */
static const char *hook_of(const struct ynl_op *op, int k)
{
	const struct ynl_op_mode *mode = k >= 2 ? &op->dump : &op->do_;

	return k & 1 ? mode->post : mode->pre;
}

static void check_hooks(struct ynl_parser *p, yaml_node_t *list)
{
	static const char *const role[] = { "pre_doit", "post_doit", "dump start/done",
					    "dump start/done" };
	struct ynl_spec *spec = p->spec;

	for (int i = 0; i < spec->nr_ops; i++) {
		for (int k = 0; k < 4; k++) {
			const char *name = hook_of(&spec->ops[i], k);
			bool told = false;

			for (int j = 0; j <= i && name && !told; j++) {
				for (int l = 0; l < (j < i ? 4 : k) && !told; l++) {
					const char *other = hook_of(&spec->ops[j], l);

					if (!other || strcmp(other, name) || !strcmp(role[k], role[l]))
						continue;
					note_at(p, get(p, get(p, seq_item(p, list, i), k >= 2 ? "dump" :
							      "do"), k & 1 ? "post" : "pre"),
						"hook '%s' is a %s here and a %s in operation '%s': one C "
						"function cannot have both prototypes", name, role[k],
						role[l], spec->ops[j].name);
					told = true;
				}
			}
		}
	}
}

static void parse_operations(struct ynl_parser *p, yaml_node_t *map)
{
	static const struct ynl_key keys[] = {
		REQ("list"), KEY("enum-model"), KEY("name-prefix"), KEY("enum-name"),
		KEY("async-prefix"), KEY("async-enum"), KEY_L("fixed-header"), KEYS_END
	};
	struct ynl_spec *spec = p->spec;
	yaml_node_t *list, *v;

	check_keys(p, map, keys, "operations");
	if ((v = get(p, map, "enum-model"))) {
		const char *model = get_str(p, v, "enum-model");

		if (!strcmp(model, "directional")) {
			if (spec->proto < YNL_PROTO_GENETLINK_LEGACY)
				fail_at(p, v, "enum-model 'directional' needs protocol genetlink-legacy "
					"or later");
			spec->directional = true;
		} else if (strcmp(model, "unified")) {
			fail_at(p, v, "enum-model must be unified or directional, not '%s'", model);
		}
	}
	spec->ops_name_prefix = opt_str(p, map, "name-prefix", "name-prefix");
	if ((v = get(p, map, "enum-name"))) {
		spec->ops_has_enum_name = true;
		spec->ops_enum_name = get_str_or_null(p, v, "enum-name");
	}
	spec->async_prefix = opt_str(p, map, "async-prefix", "async-prefix");
	if ((v = get(p, map, "async-enum"))) {
		spec->has_async_enum = true;
		spec->async_enum = get_str_or_null(p, v, "async-enum");
	}
	if ((v = get(p, map, "fixed-header")))
		spec->fixed_header = ref_def(p, v, "fixed-header", YNL_DEF_STRUCT);
	list = get(p, map, "list");
	expect_type(p, list, YAML_SEQUENCE_NODE, "list");
	spec->nr_ops = seq_len(list);
	spec->ops = zalloc(p, sizeof(*spec->ops) * (size_t)(spec->nr_ops + 1));
	for (int i = 0; i < spec->nr_ops; i++) {
		yaml_node_t *item = seq_item(p, list, i);

		parse_op(p, &spec->ops[i], item);
		for (int j = 0; j < i; j++)
			if (!strcmp(spec->ops[j].name, spec->ops[i].name))
				fail_at(p, item, "duplicate operation '%s'", spec->ops[i].name);
	}
	for (int i = 0; i < spec->nr_ops; i++) {
		yaml_node_t *item = seq_item(p, list, i);

		if ((v = get(p, item, "notify"))) {
			const char *name = get_str(p, v, "notify");

			spec->ops[i].notify = find_op(spec, name);
			if (!spec->ops[i].notify)
				fail_at(p, v, "notify refers to undefined operation '%s'", name);
			/* rt_neigh.yaml and rt_rule.yaml of 6.13-6.14 name a do without reply:
			 * each such op is told (the load fails at the end) */
			if (!spec->ops[i].notify->do_.reply.present &&
			    !spec->ops[i].notify->dump.reply.present)
				note_at(p, v, "notify target '%s' has no reply to reuse", name);
			if (!spec->ops[i].set)
				spec->ops[i].set = spec->ops[i].notify->set;
		}
	}
	number_ops(p, list);
	check_op_values(p, list);
	check_hooks(p, list);
}

static void parse_mcgrps(struct ynl_parser *p, yaml_node_t *map)
{
	static const struct ynl_key keys[] = { REQ("list"), KEYS_END };
	static const struct ynl_key gkeys[] = {
		REQ("name"), KEY_C("c-define-name"), KEY("flags"), KEY_R("value"), KEYS_END
	};
	struct ynl_spec *spec = p->spec;
	yaml_node_t *list;

	check_keys(p, map, keys, "mcast-groups");
	list = get(p, map, "list");
	expect_type(p, list, YAML_SEQUENCE_NODE, "list");
	spec->nr_mcgrps = seq_len(list);
	spec->mcgrps = zalloc(p, sizeof(*spec->mcgrps) * (size_t)(spec->nr_mcgrps + 1));
	for (int i = 0; i < spec->nr_mcgrps; i++) {
		yaml_node_t *item = seq_item(p, list, i), *v;
		struct ynl_mcgrp *grp = &spec->mcgrps[i];

		check_keys(p, item, gkeys, "mcast group");
		grp->name = get_name(p, get(p, item, "name"), "mcast group name");
		for (int j = 0; j < i; j++)
			if (!strcmp(spec->mcgrps[j].name, grp->name))
				fail_at(p, item, "duplicate mcast group '%s'", grp->name);
		grp->c_define_name = opt_str(p, item, "c-define-name", "c-define-name");
		if ((v = get(p, item, "value"))) {
			grp->has_value = true;
			grp->value = (uint32_t)get_int(p, v, "value");
		}
		grp->define = grp->c_define_name ? c_case(p, grp->c_define_name, true) :
			      c_case(p, xprintf(p, "%s-mcgrp-%s", spec->ident, grp->name), true);
	}
}

/* -- root -------------------------------------------------------------------------------- */

static void parse_root(struct ynl_parser *p, yaml_node_t *root)
{
	static const struct ynl_key keys[] = {
		REQ("name"), REQ("doc"), REQ("attribute-sets"), REQ("operations"),
		KEY("protocol"), KEY("uapi-header"), KEY("definitions"), KEY("mcast-groups"),
		KEY("license"), KEY("kernel-family"),
		KEY_C("c-family-name"), KEY_C("c-version-name"), KEY_C("max-by-define"),
		KEY_C("cmd-cnt-name"), KEY_C("cmd-max-name"),
		KEY_L("version"), KEY_L("kernel-policy"),
		KEY_R("protonum"), KEY_R("sub-messages"), KEYS_END
	};
	struct ynl_spec *spec = p->spec;
	yaml_node_t *v;

	expect_type(p, root, YAML_MAPPING_NODE, "the spec");
	/* The protocol decides which keys exist: read it before checking the others. */
	v = get(p, root, "protocol");
	spec->proto = YNL_PROTO_GENETLINK;
	if (v) {
		const char *proto = get_str(p, v, "protocol");
		int i;

		for (i = 0; i <= YNL_PROTO_NETLINK_RAW; i++)
			if (!strcmp(proto, ynl_proto_name((enum ynl_proto)i)))
				break;
		if (i > YNL_PROTO_NETLINK_RAW)
			fail_at(p, v, "unknown protocol '%s' (genetlink, genetlink-c, genetlink-legacy "
				"or netlink-raw)", proto);
		spec->proto = (enum ynl_proto)i;
	}
	check_keys(p, root, keys, "the spec");
	if (spec->proto == YNL_PROTO_NETLINK_RAW && !get(p, root, "protonum"))
		fail_at(p, root, "missing required key 'protonum' in a netlink-raw spec");
	spec->name = get_name(p, get(p, root, "name"), "family name");
	/* get_name() told any other character already: a family name has no space either */
	if (strchr(spec->name, ' '))
		fail_at(p, get(p, root, "name"), "family name '%s' is not an identifier",
			spec->name);
	/* a generic netlink family's name travels in a char[GENL_NAMSIZ] (16) */
	if (spec->proto != YNL_PROTO_NETLINK_RAW && strlen(spec->name) > 15)
		fail_at(p, get(p, root, "name"), "family name '%s' is longer than GENL_NAMSIZ - 1 "
			"(15) characters", spec->name);
	spec->doc = opt_str(p, root, "doc", "doc");
	spec->uapi_header_key = opt_str(p, root, "uapi-header", "uapi-header");
	spec->c_family_name = opt_str(p, root, "c-family-name", "c-family-name");
	spec->c_version_name = opt_str(p, root, "c-version-name", "c-version-name");
	spec->cmd_cnt_name = opt_str(p, root, "cmd-cnt-name", "cmd-cnt-name");
	spec->cmd_max_name = opt_str(p, root, "cmd-max-name", "cmd-max-name");
	if ((v = get(p, root, "max-by-define")))
		spec->max_by_define = get_bool(p, v, "max-by-define");
	spec->version = 1;
	if ((v = get(p, root, "version")))
		spec->version = get_int(p, v, "version");
	spec->kernel_policy = "split";
	if ((v = get(p, root, "kernel-policy"))) {
		spec->kernel_policy = get_str(p, v, "kernel-policy");
		if (strcmp(spec->kernel_policy, "split") && strcmp(spec->kernel_policy, "per-op") &&
		    strcmp(spec->kernel_policy, "global"))
			fail_at(p, v, "kernel-policy must be split, per-op or global, not '%s'",
				spec->kernel_policy);
	}
	if ((v = get(p, root, "protonum"))) {
		spec->has_protonum = true;
		spec->protonum = get_int(p, v, "protonum");
	}
	if ((v = get(p, root, "kernel-family"))) {
		static const struct ynl_key kkeys[] = { KEY("headers"), KEY("sock-priv"), KEYS_END };
		yaml_node_t *hdrs;

		check_keys(p, v, kkeys, "kernel-family");
		spec->sock_priv = opt_str(p, v, "sock-priv", "sock-priv");
		if ((hdrs = get(p, v, "headers"))) {
			expect_type(p, hdrs, YAML_SEQUENCE_NODE, "headers");
			spec->nr_kernel_headers = seq_len(hdrs);
			spec->kernel_headers = zalloc(p, sizeof(char *) *
						      (size_t)(spec->nr_kernel_headers + 1));
			for (int i = 0; i < spec->nr_kernel_headers; i++)
				spec->kernel_headers[i] = get_str(p, seq_item(p, hdrs, i), "header");
		}
	}
	/* The family's identifier is needed for default enum prefixes. */
	spec->ident = c_case(p, spec->name, false);
	if ((v = get(p, root, "definitions")))
		parse_definitions(p, v);
	parse_sets(p, get(p, root, "attribute-sets"));
	if ((v = get(p, root, "sub-messages")))
		parse_submsgs(p, v);
	resolve_sub_message_attrs(p, get(p, root, "attribute-sets"));
	parse_operations(p, get(p, root, "operations"));
	if ((v = get(p, root, "mcast-groups")))
		parse_mcgrps(p, v);
	for (int i = 0; i < spec->nr_ops; i++) {
		struct ynl_op *op = &spec->ops[i];
		yaml_node_t *ops = get(p, get(p, root, "operations"), "list");
		bool found = !op->mcgrp;

		for (int g = 0; g < spec->nr_mcgrps && !found; g++)
			found = !strcmp(spec->mcgrps[g].name, op->mcgrp);
		if (!found)
			note_at(p, get(p, seq_item(p, ops, i), "mcgrp"),
				"operation '%s' names undefined mcast group '%s'", op->name, op->mcgrp);
		/*
		 * per-op: a command is one struct genl_ops with one policy for its do and its
		 * dump.  Two different requests cannot both be it (6.12's ynl-gen-c.py prints a
		 * _do_ and a _dump_ table and an ops table naming neither: C that does not link).
		 */
		if (!strcmp(spec->kernel_policy, "per-op") && op->do_.request.nr_attrs &&
		    op->dump.request.nr_attrs &&
		    !ynl_msg_same_attrs(&op->do_.request, &op->dump.request))
			note_at(p, get(p, seq_item(p, ops, i), "dump"), "operation '%s': kernel-policy "
				"per-op gives it one policy, but its do and dump requests list "
				"different attributes", op->name);
	}
	compute_names(p);
}

static int load_document(struct ynl_parser *p, FILE *file)
{
	yaml_parser_t parser;
	int ok;

	if (!yaml_parser_initialize(&parser)) {
		snprintf(p->err, p->err_size, "%s: out of memory", p->path);
		return -ENOMEM;
	}
	yaml_parser_set_input_file(&parser, file);
	ok = yaml_parser_load(&parser, &p->doc);
	if (!ok) {
		snprintf(p->err, p->err_size, "%s:%zu:%zu: %s%s%s", p->path,
			 parser.problem_mark.line + 1, parser.problem_mark.column + 1,
			 parser.context ? parser.context : "", parser.context ? ": " : "",
			 parser.problem ? parser.problem : "YAML syntax error");
		yaml_parser_delete(&parser);
		return parser.error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
	}
	if (!yaml_document_get_root_node(&p->doc)) {
		snprintf(p->err, p->err_size, "%s:1:1: empty document", p->path);
		yaml_parser_delete(&parser);
		yaml_document_delete(&p->doc);
		return -EINVAL;
	}
	/* A spec is one document: ynl-gen-c.py's yaml.safe_load() refuses a second. */
	{
		yaml_document_t extra;

		ok = yaml_parser_load(&parser, &extra);
		if (!ok || yaml_document_get_root_node(&extra)) {
			snprintf(p->err, p->err_size, "%s:%zu:%zu: %s", p->path,
				 ok ? extra.start_mark.line + 1 : parser.problem_mark.line + 1,
				 ok ? extra.start_mark.column + 1 : parser.problem_mark.column + 1,
				 ok ? "a spec is one YAML document, this is a second one" :
				 parser.problem ? parser.problem : "YAML syntax error");
			if (ok)
				yaml_document_delete(&extra);
			yaml_parser_delete(&parser);
			yaml_document_delete(&p->doc);
			return -EINVAL;
		}
		yaml_document_delete(&extra);
	}
	yaml_parser_delete(&parser);
	return 0;
}

/* The one setjmp: every fail_at() below parse_root() lands here. */
static int parse_protected(struct ynl_parser *p)
{
	if (setjmp(p->fail_jump))
		return -1;
	parse_root(p, yaml_document_get_root_node(&p->doc));
	if (p->problems.nr) {
		ynl_parse_finish(p);
		return -1;
	}
	return 0;
}

struct ynl_spec *ynl_spec_load(const char *path, char *err, size_t err_size, int *errp)
{
	struct ynl_parser *p;
	struct ynl_spec *spec = NULL;
	struct ynl_arena *arena;
	FILE *file;
	int ret;

	*errp = -EINVAL;
	file = kfsim_infile_open(path, errp);
	if (!file) {
		snprintf(err, err_size, "%s: %s", path, strerror(-*errp));
		return NULL;
	}
	arena = ynl_arena_create();
	p = calloc(1, sizeof(*p));
	if (!arena || !p)
		goto oom;
	spec = ynl_arena_alloc(arena, sizeof(*spec));
	if (!spec)
		goto oom;
	spec->arena = arena;
	spec->path = ynl_arena_strdup(arena, path);
	if (!spec->path)
		goto oom;
	p->spec = spec;
	p->path = spec->path;
	p->err = err;
	p->err_size = err_size;
	kfsim_problem_list_init(&p->problems, err, err_size, "\n");
	*errp = load_document(p, file);
	if (*errp) {
		spec = NULL;
		goto out;
	}
	ret = parse_protected(p);
	yaml_document_delete(&p->doc);
	if (ret) {
		/* not strstr(err, ...): a spec's own names may say "out of memory" */
		*errp = p->out_of_memory ? -ENOMEM : -EINVAL;
		spec = NULL;
		goto out;
	}
	fclose(file);
	free(p);
	*errp = 0;
	return spec;
oom:
	*errp = -ENOMEM;
	snprintf(err, err_size, "%s: out of memory", path);
	spec = NULL;
out:
	fclose(file);
	free(p);
	ynl_arena_destroy(arena);
	return spec;
}

void ynl_spec_free(struct ynl_spec *spec)
{
	if (spec)
		ynl_arena_destroy(spec->arena);
}
