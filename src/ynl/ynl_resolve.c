// SPDX-License-Identifier: MIT
/*
 * YNL spec reader, resolution: lookups by name (definitions, attribute sets, attributes,
 * sub-messages, operations) and the passes that resolve references made before their target.
 */
#include "ynl_parse_internal.h"

struct ynl_def *find_def(struct ynl_spec *spec, const char *name)
{
	for (int i = 0; i < spec->nr_defs; i++)
		if (!strcmp(spec->defs[i].name, name))
			return &spec->defs[i];
	return NULL;
}

struct ynl_def *ref_def(struct ynl_parser *p, yaml_node_t *node, const char *what,
			int want)
{
	const char *name = get_str(p, node, what);
	struct ynl_def *def = find_def(p->spec, name);

	if (!def)
		fail_at(p, node, "%s refers to undefined %s '%s'", what,
			want == YNL_DEF_STRUCT ? "struct" : "enum", name);
	if (want == YNL_DEF_STRUCT && def->type != YNL_DEF_STRUCT)
		fail_at(p, node, "%s '%s' is not a struct", what, name);
	if (want == YNL_DEF_ENUM && def->type != YNL_DEF_ENUM && def->type != YNL_DEF_FLAGS)
		fail_at(p, node, "%s '%s' is not an enum or flags", what, name);
	return def;
}

/* Struct members may name enums/structs defined later in the list: resolve in a second pass. */
void resolve_members(struct ynl_parser *p, yaml_node_t *list)
{
	for (int i = 0; i < p->spec->nr_defs; i++) {
		struct ynl_def *def = &p->spec->defs[i];
		yaml_node_t *members, *v;

		if (def->type != YNL_DEF_STRUCT)
			continue;
		members = get(p, seq_item(p, list, i), "members");
		for (int m = 0; m < def->nr_members; m++) {
			yaml_node_t *item = seq_item(p, members, m);

			if ((v = get(p, item, "enum")))
				def->members[m].enum_def = ref_def(p, v, "member enum", YNL_DEF_ENUM);
			if ((v = get(p, item, "struct")))
				def->members[m].struct_def = ref_def(p, v, "member struct",
								     YNL_DEF_STRUCT);
		}
	}
}

static struct ynl_attr_set *find_set(struct ynl_spec *spec, const char *name)
{
	for (int i = 0; i < spec->nr_sets; i++)
		if (spec->sets[i].name && !strcmp(spec->sets[i].name, name))
			return &spec->sets[i];
	return NULL;
}

struct ynl_attr_set *ref_set(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	const char *name = get_str(p, node, what);
	struct ynl_attr_set *set = find_set(p->spec, name);

	if (!set)
		fail_at(p, node, "%s refers to undefined attribute set '%s'", what, name);
	return set;
}

struct ynl_attr *find_attr(const struct ynl_attr_set *set, const char *name)
{
	for (int i = 0; i < set->nr_attrs; i++)
		if (!strcmp(ynl_set_attr(set, i)->name, name))
			return ynl_set_attr(set, i);
	return NULL;
}

static struct ynl_submsg *find_submsg(struct ynl_spec *spec, const char *name)
{
	for (int i = 0; i < spec->nr_submsgs; i++)
		if (!strcmp(spec->submsgs[i].name, name))
			return &spec->submsgs[i];
	return NULL;
}

/* A selector names an attribute of the same set or of a set that nests this one (tc.yaml). */
static struct ynl_attr *find_selector(struct ynl_spec *spec, struct ynl_attr_set *set,
				      const char *name, int depth)
{
	struct ynl_attr *found = find_attr(set, name);

	for (int s = 0; !found && depth < 4 && s < spec->nr_sets; s++) {
		struct ynl_attr_set *outer = &spec->sets[s];

		if (outer->subset_of)
			continue;
		for (int i = 0; !found && i < outer->nr_attrs; i++)
			if (outer->attrs[i].nested == set && outer != set)
				found = find_selector(spec, outer, name, depth + 1);
	}
	return found;
}

void resolve_sub_message_attrs(struct ynl_parser *p, yaml_node_t *sets)
{
	struct ynl_spec *spec = p->spec;

	for (int s = 0; s < spec->nr_sets; s++) {
		struct ynl_attr_set *set = &spec->sets[s];
		yaml_node_t *attrs;

		if (set->subset_of)
			continue;
		attrs = get(p, seq_item(p, sets, s), "attributes");
		for (int i = 0; i < set->nr_attrs; i++) {
			yaml_node_t *item = seq_item(p, attrs, i), *v;
			struct ynl_attr *attr = &set->attrs[i];

			if ((v = get(p, item, "sub-message"))) {
				const char *name = get_str(p, v, "sub-message");

				attr->sub_message = find_submsg(spec, name);
				if (!attr->sub_message)
					fail_at(p, v, "sub-message refers to undefined sub-message '%s'",
						name);
			}
			if ((v = get(p, item, "selector"))) {
				const char *name = get_str(p, v, "selector");

				attr->selector = find_selector(spec, set, name, 0);
				if (!attr->selector)
					fail_at(p, v, "selector refers to undefined attribute '%s' in set "
						"'%s'", name, set->name);
			}
		}
	}
}

struct ynl_op *find_op(struct ynl_spec *spec, const char *name)
{
	for (int i = 0; i < spec->nr_ops; i++)
		if (!strcmp(spec->ops[i].name, name))
			return &spec->ops[i];
	return NULL;
}
