// SPDX-License-Identifier: MIT
/*
 * The generated tables as kfsim sees a program: one struct kfsim_btf_struct per struct type of
 * the BTF (what KFSIM_BTF_STRUCT() declares by hand), and one per data section that holds special
 * fields, registered with kfsim_bpf_section_init() as the kernel creates the section's map when
 * it loads the object.
 *
 * A section's variables are found at their native addresses: the section's description spans
 * from its lowest variable to the end of its highest, and each field's offset is its variable's
 * native offset plus the field's offset inside it (from the BTF).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfrt.h"

/* The generated tables' kinds are kfsim's (kfsim_bpfrt.h cannot include kfsim's headers). */
#define SAME_KIND(k) ((int)KFSIM_BPFRT_##k == (int)BPF_##k)
_Static_assert(SAME_KIND(SPIN_LOCK) && SAME_KIND(LIST_HEAD) && SAME_KIND(LIST_NODE) &&
		       SAME_KIND(RB_ROOT) && SAME_KIND(RB_NODE) && SAME_KIND(REFCOUNT) &&
		       SAME_KIND(KPTR_REF),
	       "enum kfsim_bpfrt_kind is enum btf_field_type");

static const struct kfsim_bpfrt_object *object;
static struct kfsim_btf_struct *types; /* one per object->types[i] */

struct kfsim_btf_struct *bpfrt_type(unsigned int btf_id)
{
	for (unsigned int i = 0; object && btf_id && i < object->nr_types; i++)
		if (object->types[i].btf_id == btf_id)
			return &types[i];
	return NULL;
}

static struct kfsim_btf_field *convert_fields(const struct kfsim_bpfrt_field *in, unsigned int nr,
					      unsigned int shift)
{
	struct kfsim_btf_field *out = calloc(nr ? nr : 1, sizeof(*out));

	for (unsigned int i = 0; out && i < nr; i++) {
		out[i].type = (enum btf_field_type)in[i].kind;
		out[i].name = in[i].name;
		out[i].offset = in[i].offset + shift;
		out[i].size = in[i].size;
		/* a tag naming a struct the BTF lacks: kfsim refuses the root as it refuses a
		 * missing tag */
		out[i].contains =
			in[i].contains > 0 ? bpfrt_type((unsigned int)in[i].contains) : NULL;
		out[i].contains_node = in[i].contains && in[i].kind != KFSIM_BPFRT_KPTR_REF
					       ? in[i].contains_node
					       : NULL;
	}
	return out;
}

/*
 * Whether the kernel refuses the object's BTF: at BTF load it parses the special fields of every
 * struct that has one as a member (btf_parse_struct_metas(), 6.12 and 6.18), and one it refuses
 * refuses the whole BTF; libbpf then loads the programs without any.  A __kptr member to a
 * struct the BTF only declares is one it refuses there, and so is a bitfield at a bit offset
 * that is no whole byte (bpfcc_gen.c: kptr_to_fwd(), unaligned_members()).
 */
bool bpfrt_btf_refused(void)
{
	for (unsigned int i = 0; object && i < object->nr_types; i++)
		if (types[i].nr_fields &&
		    (object->types[i].refused_members || kfsim_btf_load(&types[i])))
			return true;
	return false;
}

unsigned long long kfsim_bpfrt_local_type_id(unsigned int btf_id);
unsigned long long kfsim_bpfrt_local_type_id(unsigned int btf_id)
{
	struct kfsim_btf_struct *t = bpfrt_type(btf_id);

	/* not a struct of the program (int, a union): no id kfsim's bpf_obj_new_impl() accepts */
	return t ? kfsim_btf_type_id(t) : 0;
}

static int types_init(const struct kfsim_bpfrt_object *obj)
{
	types = calloc(obj->nr_types ? obj->nr_types : 1, sizeof(*types));
	if (!types)
		return -ENOMEM;
	object = obj;
	/* every description exists before any field points at one */
	for (unsigned int i = 0; i < obj->nr_types; i++) {
		types[i].name = obj->types[i].name;
		types[i].size = obj->types[i].size;
	}
	for (unsigned int i = 0; i < obj->nr_types; i++) {
		types[i].fields = convert_fields(obj->types[i].fields, obj->types[i].nr_fields, 0);
		types[i].nr_fields = obj->types[i].nr_fields;
		if (!types[i].fields)
			return -ENOMEM;
	}
	return 0;
}

/* One section: the variables of @obj->vars named @section. */
static int section_init(const struct kfsim_bpfrt_object *obj, const char *section)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	struct kfsim_btf_field *fields;
	struct kfsim_btf_struct *s;
	unsigned int nr = 0, k = 0;

	for (unsigned int i = 0; i < obj->nr_vars; i++) {
		const struct kfsim_bpfrt_var *v = &obj->vars[i];

		if (strcmp(v->section, section))
			continue;
		lo = (uintptr_t)v->addr < lo ? (uintptr_t)v->addr : lo;
		hi = (uintptr_t)v->addr + v->size > hi ? (uintptr_t)v->addr + v->size : hi;
		nr += v->nr_fields;
	}
	s = calloc(1, sizeof(*s));
	fields = calloc(nr ? nr : 1, sizeof(*fields));
	if (!s || !fields)
		return -ENOMEM;
	for (unsigned int i = 0; i < obj->nr_vars; i++) {
		const struct kfsim_bpfrt_var *v = &obj->vars[i];
		struct kfsim_btf_field *vf;

		if (strcmp(v->section, section))
			continue;
		vf = convert_fields(v->fields, v->nr_fields,
				    (unsigned int)((uintptr_t)v->addr - lo));
		if (!vf)
			return -ENOMEM;
		memcpy(fields + k, vf, v->nr_fields * sizeof(*vf));
		k += v->nr_fields;
		free(vf);
	}
	s->name = section;
	s->size = (u32)(hi - lo);
	s->fields = fields;
	s->nr_fields = nr;
	/*
	 * A section whose BTF the kernel refuses still exists (the kernel refuses the whole
	 * object; kfsim reports the reason, kfsim_btf_load(), and every use of the section).
	 */
	kfsim_bpf_section_init((void *)lo, s, section);
	return 0;
}

int bpfrt_sections_init(const struct kfsim_bpfrt_object *obj)
{
	int err = types_init(obj);

	for (unsigned int i = 0; !err && i < obj->nr_vars; i++) {
		bool seen = false;

		for (unsigned int j = 0; j < i; j++)
			seen |= !strcmp(obj->vars[j].section, obj->vars[i].section);
		if (!seen)
			err = section_init(obj, obj->vars[i].section);
	}
	return err;
}
