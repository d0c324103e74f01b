// SPDX-License-Identifier: MIT
/*
 * YNL spec reader, C naming: the identifiers the emitters use, as the kernel generator
 * (c_upper()/c_lower()) makes them, with C keywords avoided.
 */
#include "ynl_parse_internal.h"

/* c_upper()/c_lower() of the kernel generator: case change and '-' -> '_'. */
char *c_case(struct ynl_parser *p, const char *name, bool upper)
{
	char *out = xprintf(p, "%s", name);

	/* Anything else that cannot be in an identifier ("set id" in nftables.yaml) too. */
	for (char *c = out; *c; c++)
		*c = (*c == '-' || *c == ' ') ? '_' : (char)(upper ? toupper((unsigned char)*c) :
							       tolower((unsigned char)*c));
	return out;
}

/* -- names ------------------------------------------------------------------------------- */

static bool is_c_keyword(const char *name)
{
	static const char *const kw[] = {
		"auto", "bool", "break", "case", "char", "const", "continue", "default", "do",
		"double", "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int",
		"long", "register", "return", "short", "signed", "sizeof", "static", "struct",
		"switch", "typedef", "union", "unsigned", "void", "volatile", "while", NULL
	};

	for (int i = 0; kw[i]; i++)
		if (!strcmp(kw[i], name))
			return true;
	return false;
}

void compute_names(struct ynl_parser *p)
{
	struct ynl_spec *spec = p->spec;

	spec->ident = xprintf(p, "%s", spec->name);
	for (char *c = (char *)spec->ident; *c; c++)
		if (*c == '-')
			*c = '_';
	spec->c_name = c_case(p, spec->ident, false);
	spec->fam_key = c_case(p, spec->c_family_name ? spec->c_family_name :
			       xprintf(p, "%s_FAMILY_NAME", spec->name), true);
	spec->ver_key = c_case(p, spec->c_version_name ? spec->c_version_name :
			       xprintf(p, "%s_FAMILY_VERSION", spec->name), true);
	spec->uapi_header = spec->uapi_header_key ? spec->uapi_header_key :
			    xprintf(p, "linux/%s.h", spec->ident);
	{
		size_t len = strlen(spec->uapi_header);

		if (!strncmp(spec->uapi_header, "linux/", 6) && len > 8 &&
		    !strcmp(spec->uapi_header + len - 2, ".h"))
			spec->uapi_header_name = xprintf(p, "%.*s", (int)(len - 8),
							 spec->uapi_header + 6);
		else
			spec->uapi_header_name = spec->ident;
	}
	spec->op_prefix = c_case(p, spec->ops_name_prefix ? spec->ops_name_prefix :
				 xprintf(p, "%s-cmd-", spec->name), true);
	spec->async_op_prefix = spec->async_prefix ? c_case(p, spec->async_prefix, true) :
				spec->op_prefix;

	for (int s = 0; s < spec->nr_sets; s++) {
		struct ynl_attr_set *set = &spec->sets[s];

		set->c_name = c_case(p, set->name, false);
		if (is_c_keyword(set->c_name))
			set->c_name = xprintf(p, "%s_", set->c_name);
		if (!strcmp(set->c_name, spec->c_name))
			set->c_name = "";
		set->render_name = *set->c_name ? xprintf(p, "%s_%s", spec->c_name, set->c_name) :
				   spec->c_name;
	}
	for (int s = 0; s < spec->nr_sets; s++) {
		struct ynl_attr_set *set = &spec->sets[s];
		struct ynl_attr_set *base = set->subset_of ? set->subset_of : set;
		const char *pfx;

		if (base->name_prefix_key)
			pfx = base->name_prefix_key;
		else if (!strcmp(base->name, spec->name))
			pfx = xprintf(p, "%s-a-", spec->ident);
		else
			pfx = xprintf(p, "%s-a-%s-", spec->ident, base->name);
		set->prefix = c_case(p, pfx, true);
		set->max_name = c_case(p, base->attr_max_name_key ? base->attr_max_name_key :
				       xprintf(p, "%smax", set->prefix), true);
		set->cnt_name = c_case(p, base->attr_cnt_name_key ? base->attr_cnt_name_key :
				       xprintf(p, "__%smax", set->prefix), true);
		if (set->subset_of)
			set->max_value = set->subset_of->max_value;
	}
	for (int s = 0; s < spec->nr_sets; s++) {
		struct ynl_attr_set *set = &spec->sets[s];

		if (set->subset_of)
			continue;
		for (int i = 0; i < set->nr_attrs; i++) {
			struct ynl_attr *attr = &set->attrs[i];

			attr->enum_name = c_case(p, xprintf(p, "%s%s", attr->name_prefix ?
					attr->name_prefix : set->prefix, attr->name), true);
			attr->c_name = c_case(p, attr->name, false);
			if (isdigit((unsigned char)attr->c_name[0]))	/* rt_link's 6rd-prefix */
				attr->c_name = xprintf(p, "_%s", attr->c_name);
			if (is_c_keyword(attr->c_name))
				attr->c_name = xprintf(p, "%s_", attr->c_name);
		}
	}
	for (int i = 0; i < spec->nr_ops; i++) {
		struct ynl_op *op = &spec->ops[i];

		op->c_name = c_case(p, op->name, false);
		op->enum_name = c_case(p, xprintf(p, "%s%s", op->is_async ? spec->async_op_prefix :
						  spec->op_prefix, op->name), true);
		if (spec->directional && !op->is_async)
			op->rsp_enum_name = xprintf(p, "%s_REPLY", op->enum_name);
		else
			op->rsp_enum_name = op->enum_name;
	}
}
