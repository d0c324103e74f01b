// SPDX-License-Identifier: MIT
/*
 * uapi header emitter: what the kernel's ynl-gen-c.py --mode uapi renders (Linux 6.12), with the
 * same names: family name/version defines, definitions (consts, enums, flags with render-max),
 * one attribute enum per non-subset set ending in the cnt/max pair, the command enum(s) and
 * mcast group name defines.
 *
 * Two deliberate differences: the include guard is KFSIM_YNL_<FAMILY>_UAPI_H, so the header can
 * sit next to the system's linux/ headers without one hiding the other; and a directional
 * family (6.12 refused to render it) gets the two enums of the hand-written ethtool_netlink.h:
 * requests <PFX>USER_NONE.. and replies/notifications <PFX>KERNEL_NONE.., each with its
 * __<PFX>{USER,KERNEL}_CNT and <PFX>{USER,KERNEL}_MAX.  Directional specs (devlink, ethtool)
 * also give several sets one name prefix, or a set an attribute named "max", so the derived
 * count and max names of a set can repeat a name already in the header: such a set's two names
 * get "_" and its set name appended (__DEVLINK_ATTR_MAX_DL_ATTR_STATS), so the header compiles.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ynl_emit.h"

const char *ynl_emit_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* writes_defines(): names padded with tabs to a common column. */
struct define {
	const char *name;
	const char *str;
	int64_t value;
};

static void write_defines(struct ynl_out *out, const struct define *defs, int nr)
{
	size_t longest = 0;

	for (int i = 0; i < nr; i++)
		if (strlen(defs[i].name) > longest)
			longest = strlen(defs[i].name);
	longest = ((longest + 8) / 8) * 8;
	for (int i = 0; i < nr; i++) {
		size_t tabs = (longest - strlen(defs[i].name) + 7) / 8;

		ynl_out_printf(out, "#define %s", defs[i].name);
		while (tabs--)
			ynl_out_puts(out, "\t");
		if (defs[i].str)
			ynl_out_printf(out, "\"%s\"\n", defs[i].str);
		else
			ynl_out_printf(out, "%" PRId64 "\n", defs[i].value);
	}
}

static char *upper_dup(const char *text, char *buf, size_t size)
{
	size_t i;

	for (i = 0; text[i] && i + 1 < size; i++) {
		char c = (text[i] == '-' || text[i] == ' ') ? '_' : text[i];

		buf[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
	}
	buf[i] = '\0';
	return buf;
}

static char *lower_dup(const char *text, char *buf, size_t size)
{
	size_t i;

	for (i = 0; text[i] && i + 1 < size; i++) {
		char c = (text[i] == '-' || text[i] == ' ') ? '_' : text[i];

		buf[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	buf[i] = '\0';
	return buf;
}

/* uapi_enum_start(): named from enum-name (null = anonymous) or family_<ckey value>. */
static void enum_start(struct ynl_out *out, const struct ynl_spec *spec, bool has_name,
		       const char *name, const char *fallback)
{
	char buf[256];

	if (has_name) {
		if (name)
			ynl_out_printf(out, "enum %s {\n", lower_dup(name, buf, sizeof(buf)));
		else
			ynl_out_puts(out, "enum {\n");
	} else if (fallback) {
		ynl_out_printf(out, "enum %s_%s {\n", spec->c_name,
			       lower_dup(fallback, buf, sizeof(buf)));
	} else {
		ynl_out_puts(out, "enum {\n");
	}
}

/* write_doc_line(): words wrapped before column 79, continuation lines indented by two. */
static void doc_line(struct ynl_out *out, const char *text)
{
	char line[1024] = " *";
	const char *p = text;

	while (*p) {
		size_t wlen;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		wlen = strcspn(p, " \n\t");
		if (strlen(line) + wlen >= 79) {
			ynl_out_printf(out, "%s\n", line);
			snprintf(line, sizeof(line), " *  ");
		}
		if (strlen(line) + wlen + 2 < sizeof(line)) {
			strcat(line, " ");
			strncat(line, p, wlen);
		}
		p += wlen;
	}
	ynl_out_printf(out, "%s\n", line);
}

static void emit_doc_comment(struct ynl_out *out, const struct ynl_def *def)
{
	bool any = def->doc != NULL;

	for (int i = 0; i < def->nr_entries; i++)
		any |= def->entries[i].doc != NULL;
	if (!any)
		return;
	ynl_out_puts(out, "/**\n");
	{
		char text[2048];

		snprintf(text, sizeof(text), "%s%s%s", def->c_type, def->doc ? " - " : "",
			 def->doc ? def->doc : "");
		doc_line(out, text);
		for (int i = 0; i < def->nr_entries; i++) {
			if (!def->entries[i].doc)
				continue;
			snprintf(text, sizeof(text), "@%s: %s", def->entries[i].c_name,
				 def->entries[i].doc);
			doc_line(out, text);
		}
	}
	ynl_out_puts(out, " */\n");
}

/* Doc strings may span lines: keep them on one comment line each. */
static void emit_enum_def(struct ynl_out *out, const struct ynl_spec *spec,
			  const struct ynl_def *def)
{
	char buf[128], buf2[128], pfx[300];

	if (!def->nr_entries) {
		/* C has no empty enum (ethtool.yaml's stringset has entries: []). */
		ynl_out_printf(out, "/* %s: no entries */\n\n", def->c_type);
		return;
	}
	emit_doc_comment(out, def);
	enum_start(out, spec, def->has_enum_name, def->enum_name, def->name);
	for (int i = 0; i < def->nr_entries; i++) {
		const struct ynl_entry *e = &def->entries[i];

		if (e->value_change)
			ynl_out_printf(out, "\t%s = %" PRId64 ",\n", e->c_name, e->value);
		else
			ynl_out_printf(out, "\t%s,\n", e->c_name);
	}
	if (def->render_max) {
		if (def->name_prefix)
			upper_dup(def->name_prefix, pfx, sizeof(pfx));
		else
			snprintf(pfx, sizeof(pfx), "%s_%s_", upper_dup(spec->ident, buf, sizeof(buf)),
				 upper_dup(def->name, buf2, sizeof(buf2)));
		ynl_out_puts(out, "\n\t/* private: */\n");
		if (def->type == YNL_DEF_FLAGS) {
			ynl_out_printf(out, "\t%sMASK = %" PRId64 ",\n", pfx, def->mask);
		} else {
			ynl_out_printf(out, "\t__%sMAX,\n", pfx);
			ynl_out_printf(out, "\t%sMAX = (__%sMAX - 1)\n", pfx, pfx);
		}
	}
	ynl_out_puts(out, "};\n\n");
}

static void emit_definitions(struct ynl_out *out, const struct ynl_spec *spec)
{
	struct define defs[64];
	char names[64][128];
	int nr = 0;

	for (int i = 0; i < spec->nr_defs; i++) {
		const struct ynl_def *def = &spec->defs[i];

		if (def->header || (def->scope && strcmp(def->scope, "uapi")))
			continue;
		if (def->type != YNL_DEF_CONST && nr) {
			/* The kernel's writer folds repeated blank lines into one. */
			write_defines(out, defs, nr);
			nr = 0;
			ynl_out_puts(out, "\n");
		}
		if (def->type == YNL_DEF_ENUM || def->type == YNL_DEF_FLAGS) {
			emit_enum_def(out, spec, def);
		} else if (def->type == YNL_DEF_CONST) {
			char raw[256];

			if (nr == 64) {
				write_defines(out, defs, nr);
				nr = 0;
			}
			snprintf(raw, sizeof(raw), "%s-%s", spec->ident, def->name);
			upper_dup(raw, names[nr], sizeof(names[nr]));
			defs[nr].name = names[nr];
			defs[nr].str = def->value_str;
			defs[nr].value = def->value;
			nr++;
		}
	}
	if (nr) {
		write_defines(out, defs, nr);
		ynl_out_puts(out, "\n");
	}
}

/* Is @name among the @nr names in @seen? */
static bool name_seen(const char *const *seen, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(seen[i], name))
			return true;
	return false;
}

static void emit_attr_sets(struct ynl_out *out, const struct ynl_spec *spec)
{
	const char **seen = NULL;
	int nr_seen = 0, cap = 0;

	for (int s = 0; s < spec->nr_sets; s++) {
		const struct ynl_attr_set *set = &spec->sets[s];
		char cnt[256], max[256], suffix[128];
		uint32_t val = 0;

		if (set->subset_of)
			continue;
		if (nr_seen + set->nr_attrs + 2 > cap) {
			const char **grown;

			cap = (nr_seen + set->nr_attrs + 2) * 2;
			grown = realloc(seen, (size_t)cap * sizeof(*seen));
			if (!grown) {
				free(seen);
				seen = NULL;
				nr_seen = cap = 0;
			} else {
				seen = grown;
			}
		}
		enum_start(out, spec, set->has_enum_name, set->enum_name, NULL);
		for (int i = 0; i < set->nr_attrs; i++) {
			const struct ynl_attr *attr = &set->attrs[i];

			if (attr->value != val) {
				ynl_out_printf(out, "\t%s = %u,\n", attr->enum_name, attr->value);
				val = attr->value;
			} else {
				ynl_out_printf(out, "\t%s,\n", attr->enum_name);
			}
			val++;
			if (seen)
				seen[nr_seen++] = attr->enum_name;
		}
		ynl_out_puts(out, "\n");
		snprintf(cnt, sizeof(cnt), "%s", set->cnt_name);
		snprintf(max, sizeof(max), "%s", set->max_name);
		if (seen && (name_seen(seen, nr_seen, cnt) || name_seen(seen, nr_seen, max))) {
			upper_dup(set->name, suffix, sizeof(suffix));
			snprintf(cnt, sizeof(cnt), "%s_%s", set->cnt_name, suffix);
			snprintf(max, sizeof(max), "%s_%s", set->max_name, suffix);
		}
		if (seen) {
			seen[nr_seen++] = set->cnt_name;
			seen[nr_seen++] = set->max_name;
		}
		if (spec->max_by_define) {
			ynl_out_printf(out, "\t%s\n};\n", cnt);
			ynl_out_printf(out, "#define %s (%s - 1)\n\n", max, cnt);
		} else {
			ynl_out_printf(out, "\t%s,\n\t%s = (%s - 1)\n};\n\n", cnt, max, cnt);
		}
	}
	free(seen);
}

static void emit_cnt_max(struct ynl_out *out, const struct ynl_spec *spec, const char *cnt,
			 const char *max)
{
	ynl_out_puts(out, "\n");
	if (spec->max_by_define) {
		ynl_out_printf(out, "\t%s\n};\n", cnt);
		ynl_out_printf(out, "#define %s (%s - 1)\n\n", max, cnt);
	} else {
		ynl_out_printf(out, "\t%s,\n\t%s = (%s - 1)\n};\n\n", cnt, max, cnt);
	}
}

static void emit_unified_cmds(struct ynl_out *out, const struct ynl_spec *spec)
{
	bool separate_ntf = spec->async_prefix != NULL;
	char cnt[256], max[256], buf[256];
	uint32_t val = 0;

	snprintf(max, sizeof(max), "%s", spec->cmd_max_name ?
		 upper_dup(spec->cmd_max_name, buf, sizeof(buf)) : "");
	if (!spec->cmd_max_name)
		snprintf(max, sizeof(max), "%sMAX", spec->op_prefix);
	if (spec->cmd_cnt_name)
		upper_dup(spec->cmd_cnt_name, cnt, sizeof(cnt));
	else
		snprintf(cnt, sizeof(cnt), "__%sMAX", spec->op_prefix);

	enum_start(out, spec, spec->ops_has_enum_name, spec->ops_enum_name, NULL);
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];

		if (separate_ntf && op->is_async)
			continue;
		if (op->req_value != val) {
			ynl_out_printf(out, "\t%s = %u,\n", op->enum_name, op->req_value);
			val = op->req_value;
		} else {
			ynl_out_printf(out, "\t%s,\n", op->enum_name);
		}
		val++;
	}
	emit_cnt_max(out, spec, cnt, max);
	if (separate_ntf) {
		enum_start(out, spec, spec->has_async_enum, spec->async_enum, NULL);
		for (int i = 0; i < spec->nr_ops; i++) {
			const struct ynl_op *op = &spec->ops[i];

			if (!op->is_async)
				continue;
			if (op->has_value)
				ynl_out_printf(out, "\t%s = %u,\n", op->enum_name, op->value);
			else
				ynl_out_printf(out, "\t%s,\n", op->enum_name);
		}
		ynl_out_puts(out, "};\n\n");
	}
}

/* One direction of a directional family, in value order with gaps spelled out. */
static void emit_direction(struct ynl_out *out, const struct ynl_spec *spec, bool reply)
{
	const char *dir = reply ? "KERNEL" : "USER";
	uint32_t val = 1;

	ynl_out_printf(out, "enum {\n\t%s%s_NONE,\n", spec->op_prefix, dir);
	for (int i = 0; i < spec->nr_ops; i++) {
		const struct ynl_op *op = &spec->ops[i];
		bool has = reply ? op->has_rsp_value : op->has_req_value;
		uint32_t value = reply ? op->rsp_value : op->req_value;
		const char *name = reply ? op->rsp_enum_name : op->enum_name;

		if (!has)
			continue;
		if (value != val)
			ynl_out_printf(out, "\t%s = %u,\n", name, value);
		else
			ynl_out_printf(out, "\t%s,\n", name);
		val = value + 1;
	}
	ynl_out_printf(out, "\n\t/* add new constants above here */\n");
	ynl_out_printf(out, "\t__%s%s_CNT,\n\t%s%s_MAX = __%s%s_CNT - 1\n};\n\n", spec->op_prefix,
		       dir, spec->op_prefix, dir, spec->op_prefix, dir);
}

void ynl_emit_uapi(const struct ynl_spec *spec, struct ynl_out *out)
{
	char guard[256];
	struct define defs[2];

	upper_dup(spec->ident, guard, sizeof(guard));
	ynl_out_puts(out, "/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR "
		     "BSD-3-Clause) */\n");
	ynl_out_printf(out, "/* Do not edit directly, generated by kfsim-ynl-gen from: */\n"
		       "/*\t%s */\n/* YNL-GEN uapi header */\n\n", ynl_emit_basename(spec->path));
	ynl_out_printf(out, "#ifndef KFSIM_YNL_%s_UAPI_H\n#define KFSIM_YNL_%s_UAPI_H\n\n", guard,
		       guard);
	defs[0] = (struct define){ .name = spec->fam_key, .str = spec->name };
	defs[1] = (struct define){ .name = spec->ver_key, .value = spec->version };
	write_defines(out, defs, 2);
	ynl_out_puts(out, "\n");
	emit_definitions(out, spec);
	emit_attr_sets(out, spec);
	if (spec->directional) {
		emit_direction(out, spec, false);
		emit_direction(out, spec, true);
	} else {
		emit_unified_cmds(out, spec);
	}
	if (spec->nr_mcgrps) {
		struct define grp[64];
		int nr = spec->nr_mcgrps < 64 ? spec->nr_mcgrps : 64;

		for (int i = 0; i < nr; i++)
			grp[i] = (struct define){ .name = spec->mcgrps[i].define,
						  .str = spec->mcgrps[i].name };
		write_defines(out, grp, nr);
		ynl_out_puts(out, "\n");
	}
	ynl_out_printf(out, "#endif /* KFSIM_YNL_%s_UAPI_H */\n", guard);
}
