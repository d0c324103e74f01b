// SPDX-License-Identifier: MIT
/*
 * The headers kfsim-bpf-cc generates from a BPF object's BTF (the ground truth the verifier
 * uses):
 *
 *   kfsim_bpfcc_types.h   included before the program: KFSIM_BPFCC_BTF_ID_OF(expr), a
 *                         _Generic map from each named struct to its BTF id, which is what
 *                         bpf_core_type_id_local(type) asks natively;
 *   kfsim_bpfcc_tables.h  included after it: every struct with its special fields (flattened:
 *                         nested structs and arrays become "a.b", "a[1]"), the global variables
 *                         of the data sections that hold special fields, the maps, and the
 *                         programs with what their test_expect_* annotations say.
 *
 * A special field is a member whose type is one of the kernel's opaque BPF structs, or a pointer
 * tagged __kptr (the struct it points to is its "contains"); a root's
 * "contains:TYPE:NODE" decl tag sits on the member (component_idx = member) or, for a global
 * variable, on the variable (component_idx = -1), as clang emits __contains().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfcc.h"
#include "../../include/bpf-compat/kfsim_bpfrt.h"

#define MAX_FIELDS 64
#define MAX_DEPTH 8

struct field {
	unsigned int kind;
	char name[128];
	unsigned int offset;
	unsigned int size;
	int contains;
	char contains_node[64];
};

struct fields {
	struct field f[MAX_FIELDS];
	unsigned int nr;
	/* members the kernel's field search refuses: a __kptr to a struct the BTF only declares
	 * (kptr_to_fwd()), a member at a bit offset that is no whole byte (unaligned_members()) */
	unsigned int refused_members;
};

static const struct {
	const char *name;
	unsigned int kind;
} special_types[] = {
	{"bpf_spin_lock", KFSIM_BPFRT_SPIN_LOCK}, {"bpf_list_head", KFSIM_BPFRT_LIST_HEAD},
	{"bpf_list_node", KFSIM_BPFRT_LIST_NODE}, {"bpf_rb_root", KFSIM_BPFRT_RB_ROOT},
	{"bpf_rb_node", KFSIM_BPFRT_RB_NODE},	  {"bpf_refcount", KFSIM_BPFRT_REFCOUNT},
};

static __u32 skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

static unsigned int special_kind(const struct btf *btf, const struct btf_type *t)
{
	const char *name;

	if (!btf_is_struct(t))
		return 0;
	name = btf__name_by_offset(btf, t->name_off);
	for (size_t i = 0; name && i < sizeof(special_types) / sizeof(special_types[0]); i++)
		if (!strcmp(name, special_types[i].name))
			return special_types[i].kind;
	return 0;
}

/*
 * The struct a "struct T __kptr *" member points to (clang: a pointer to the type tag "kptr"),
 * or 0 when @t is no such pointer.  "kptr_untrusted" and "percpu_kptr" are kinds kfsim does
 * not model: their members stay plain.
 */
static __u32 kptr_pointee(const struct btf *btf, const struct btf_type *t)
{
	bool tagged = false;
	__u32 id;

	if (!btf_is_ptr(t))
		return 0;
	id = t->type;
	for (t = btf__type_by_id(btf, id); t && (btf_is_mod(t) || btf_is_type_tag(t));
	     t = btf__type_by_id(btf, id)) {
		const char *tag = btf__name_by_offset(btf, t->name_off);

		tagged |= btf_is_type_tag(t) && tag && !strcmp(tag, "kptr");
		id = t->type;
	}
	return tagged && t && btf_is_struct(t) ? id : 0;
}

/*
 * Whether @t is a "struct T __kptr *" member whose struct the BTF only declares (clang emits a
 * forward declaration for a struct the program never uses but through that pointer).  The
 * kernel's btf_find_kptr() wants a struct there: at BTF load, when it parses the member's
 * struct (btf_parse_struct_metas(): one with a special field or a __kptr to a defined struct as
 * a member), the whole BTF is refused; a struct with no other special field is not parsed then
 * (measured on the running 6.18.44: "Error loading .BTF into kernel: -22").  kfsim models no
 * such member, so it stays a plain pointer apart from that refusal.
 */
static bool kptr_to_fwd(const struct btf *btf, const struct btf_type *t)
{
	bool tagged = false;

	if (!btf_is_ptr(t))
		return false;
	for (t = btf__type_by_id(btf, t->type); t && (btf_is_mod(t) || btf_is_type_tag(t));
	     t = btf__type_by_id(btf, t->type)) {
		const char *tag = btf__name_by_offset(btf, t->name_off);

		tagged |= btf_is_type_tag(t) && tag && !strcmp(tag, "kptr");
	}
	return tagged && t && btf_is_fwd(t) && !btf_kflag(t);
}

/* The "contains:" tag on (@target, @component): the contained struct's id and node name. */
static int contains_tag(const struct btf *btf, __u32 target, int component, char *node, size_t size)
{
	__u32 n = btf__type_cnt(btf);

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *text, *colon;
		char tname[128];
		__s32 cid;

		if (!btf_is_decl_tag(t) || t->type != target ||
		    btf_decl_tag(t)->component_idx != component)
			continue;
		text = btf__name_by_offset(btf, t->name_off);
		if (!text || strncmp(text, "contains:", 9))
			continue;
		text += 9;
		colon = strchr(text, ':');
		if (!colon || (size_t)(colon - text) >= sizeof(tname))
			return -1;
		memcpy(tname, text, colon - text);
		tname[colon - text] = '\0';
		snprintf(node, size, "%s", colon + 1);
		cid = btf__find_by_name_kind(btf, tname, BTF_KIND_STRUCT);
		return cid > 0 ? cid : -1;
	}
	return 0;
}

/* One special field more, when there is room for it. */
static void add_field(struct fields *out, unsigned int kind, const char *name,
		      unsigned int offset, unsigned int size, int contains, const char *node)
{
	struct field *f;

	if (out->nr == MAX_FIELDS)
		return;
	f = &out->f[out->nr++];
	f->kind = kind;
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->offset = offset;
	f->size = size;
	f->contains = contains;
	snprintf(f->contains_node, sizeof(f->contains_node), "%s", node ? node : "");
}

/*
 * The special fields inside type @id placed at @offset under the name @prefix; @contains and
 * @node are the tag that applies to @id itself (a tagged member or variable).
 */
static void collect(const struct btf *btf, __u32 id, const char *prefix, unsigned int offset,
		    int contains, const char *node, struct fields *out, int depth)
{
	const struct btf_type *t;
	unsigned int kind;

	id = skip_mods(btf, id);
	t = btf__type_by_id(btf, id);
	if (!t || depth > MAX_DEPTH)
		return;
	kind = special_kind(btf, t);
	if (kind) {
		add_field(out, kind, prefix, offset, t->size, contains, node);
		return;
	}
	if (kptr_pointee(btf, t)) {	/* a __kptr: a pointer, "contains" the struct it points to */
		add_field(out, KFSIM_BPFRT_KPTR_REF, prefix, offset, 8, (int)kptr_pointee(btf, t),
			  NULL);
		return;
	}
	if (kptr_to_fwd(btf, t)) {
		out->refused_members++;
		return;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		__s64 esize = btf__resolve_size(btf, a->type);

		for (__u32 i = 0; esize > 0 && i < a->nelems && i < MAX_FIELDS; i++) {
			char name[160];

			snprintf(name, sizeof(name), "%s[%u]", prefix, i);
			collect(btf, a->type, name, offset + i * (unsigned int)esize, contains,
				node, out, depth + 1);
		}
		return;
	}
	if (!btf_is_composite(t))
		return;
	for (__u16 m = 0; m < btf_vlen(t); m++) {
		const struct btf_member *mb = btf_members(t) + m;
		const char *mname = btf__name_by_offset(btf, mb->name_off);
		char name[160], mnode[64] = "";
		int mcontains = contains_tag(btf, id, m, mnode, sizeof(mnode));

		snprintf(name, sizeof(name), "%s%s%s", prefix,
			 *prefix && mname && *mname ? "." : "", mname ? mname : "");
		collect(btf, mb->type, name, offset + btf_member_bit_offset(t, m) / 8, mcontains,
			mcontains ? mnode : NULL, out, depth + 1);
	}
}

static void put_c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void put_fields(FILE *f, const char *array, const struct fields *fl)
{
	if (!fl->nr)
		return;
	fprintf(f, "static const struct kfsim_bpfrt_field %s[] = {\n", array);
	for (unsigned int i = 0; i < fl->nr; i++) {
		const struct field *x = &fl->f[i];

		fprintf(f, "\t{%u, ", x->kind);
		put_c_string(f, x->name);
		fprintf(f, ", %u, %u, %d, ", x->offset, x->size, x->contains);
		put_c_string(f, x->contains_node);
		fprintf(f, "},\n");
	}
	fprintf(f, "};\n");
}

/* A struct name usable in C (named). */
static const char *struct_name(const struct btf *btf, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(btf, t->name_off);

	return btf_is_struct(t) && name && *name ? name : NULL;
}

static int write_types_header(const struct btf *btf, const char *dir)
{
	char path[4096];
	__u32 n = btf__type_cnt(btf);
	FILE *f;

	snprintf(path, sizeof(path), "%s/kfsim_bpfcc_types.h", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "/* Generated by kfsim-bpf-cc from the program's BTF: do not edit. */\n"
		   "#if __has_include(\"kfsim_bpfcc_order.h\")\n#include \"kfsim_bpfcc_order.h\"\n"
		   "#endif\n"
		   "#define KFSIM_BPFCC_BTF_ID_OF(expr) _Generic(&(expr), \\\n");
	for (__u32 id = 1; id < n; id++) {
		const char *name = struct_name(btf, btf__type_by_id(btf, id));

		if (name)
			fprintf(f, "\tstruct %s *: %uu, const struct %s *: %uu, \\\n", name, id,
				name, id);
	}
	/*
	 * An anonymous struct ("bpf_obj_new(struct { int data; })") has no name to match: it is
	 * found by its size among the BTF's anonymous structs (the first one of that size).
	 * __builtin_classify_type() 12 is a struct: an int or a union keeps id 0.
	 */
	fprintf(f, "\tdefault: (__builtin_classify_type(expr) == 12 ? "
		   "kfsim_bpfcc_anon_btf_id(sizeof(expr)) : 0u))\n"
		   "static inline __attribute__((unused)) unsigned int "
		   "kfsim_bpfcc_anon_btf_id(unsigned long size)\n{\n\tswitch (size) {\n");
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		bool first = true;

		if (!btf_is_struct(t) || t->name_off)
			continue;
		for (__u32 j = 1; j < id; j++) {
			const struct btf_type *u = btf__type_by_id(btf, j);

			first &= !(btf_is_struct(u) && !u->name_off && u->size == t->size);
		}
		if (first)
			fprintf(f, "\tcase %u: return %uu;\n", t->size, id);
	}
	fprintf(f, "\t}\n\treturn 0;\n}\n");
	return fclose(f) ? -errno : 0;
}

/*
 * The members of the struct @id, and of the structs it holds (arrays of them too, not unions),
 * at a bit offset that is no whole byte: a bitfield after another one.  The kernel's search for
 * special fields looks at every member's offset before its type (btf_find_struct_field(), nested
 * structs since 6.10: btf_find_nested_struct(); 6.12 and the running 6.18) and refuses such a
 * member (-EINVAL), so the BTF of a program whose node or lock holder has one is refused whole
 * (measured on the running 6.18.44: every bpf_obj_new() is then "requires prog BTF").
 */
static unsigned int unaligned_members(const struct btf *btf, __u32 id, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, skip_mods(btf, id));
	unsigned int nr = 0;

	while (t && btf_is_array(t))
		t = btf__type_by_id(btf, skip_mods(btf, btf_array(t)->type));
	if (!t || !btf_is_struct(t) || special_kind(btf, t) || depth > MAX_DEPTH)
		return 0;
	for (__u16 m = 0; m < btf_vlen(t); m++) {
		if (btf_member_bit_offset(t, m) % 8) {
			nr++;
			continue;
		}
		nr += unaligned_members(btf, btf_members(t)[m].type, depth + 1);
	}
	return nr;
}

/*
 * Whether the kernel searches the struct @t for special fields when it loads the BTF
 * (btf_parse_struct_metas(), 6.12 and 6.18): a member whose type is one of the special structs
 * itself (no typedef or qualifier between: the kernel compares type ids) or a __kptr.
 */
static bool struct_meta_parsed(const struct btf *btf, const struct btf_type *t)
{
	for (__u16 m = 0; m < btf_vlen(t); m++) {
		const struct btf_type *mt = btf__type_by_id(btf, btf_members(t)[m].type);

		if (mt && (special_kind(btf, mt) || kptr_pointee(btf, mt)))
			return true;
	}
	return false;
}

static void write_types(FILE *f, const struct btf *btf)
{
	__u32 n = btf__type_cnt(btf);
	unsigned int nr = 0;

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct fields fl = {.nr = 0};
		char array[64];

		if (!btf_is_struct(t) || special_kind(btf, t))
			continue;
		collect(btf, id, "", 0, 0, NULL, &fl, 0);
		snprintf(array, sizeof(array), "kfsim_bpfcc_type_fields_%u", id);
		put_fields(f, array, &fl);
	}
	fprintf(f, "static const struct kfsim_bpfrt_type kfsim_bpfcc_types[] = {\n");
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct fields fl = {.nr = 0};

		if (!btf_is_struct(t) || special_kind(btf, t))
			continue;
		collect(btf, id, "", 0, 0, NULL, &fl, 0);
		if (struct_meta_parsed(btf, t))
			fl.refused_members += unaligned_members(btf, id, 0);
		fprintf(f, "\t{%u, \"%s\", %u, ", id,
			struct_name(btf, t) ? struct_name(btf, t) : "(anon)", t->size);
		if (fl.nr)
			fprintf(f, "kfsim_bpfcc_type_fields_%u, %u, %u},\n", id, fl.nr,
				fl.refused_members);
		else
			fprintf(f, "0, 0, %u},\n", fl.refused_members);
		nr++;
	}
	if (!nr)
		fprintf(f, "\t{0, 0, 0, 0, 0, 0},\n");
	fprintf(f, "};\n#define KFSIM_BPFCC_NR_TYPES %u\n\n", nr);
}

/* The name of @sec when it is a .data* or .bss* section, else NULL. */
static const char *data_section(const struct btf *btf, const struct btf_type *sec)
{
	const char *name = btf__name_by_offset(btf, sec->name_off);

	if (!btf_is_datasec(sec) || !name ||
	    (strncmp(name, ".data", 5) && strncmp(name, ".bss", 4)))
		return NULL;
	return name;
}

/* Global variables with special fields in the .data* / .bss* sections. */
static void write_vars(FILE *f, const struct btf *btf)
{
	__u32 n = btf__type_cnt(btf);
	unsigned int nr = 0;
	char buf[1 << 14];
	size_t used = 0;

	buf[0] = '\0';
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const char *sname = data_section(btf, sec);
		const struct btf_var_secinfo *vi = btf_var_secinfos(sec);

		for (__u16 i = 0; sname && i < btf_vlen(sec); i++, vi++) {
			const struct btf_type *v = btf__type_by_id(btf, vi->type);
			const char *vname = btf__name_by_offset(btf, v->name_off);
			struct fields fl = {.nr = 0};
			char node[64] = "", array[96];
			int contains;

			if (!btf_is_var(v) || !vname)
				continue;
			contains = contains_tag(btf, vi->type, -1, node, sizeof(node));
			collect(btf, v->type, vname, 0, contains, contains ? node : NULL, &fl, 0);
			if (!fl.nr)
				continue;
			/* offsets inside the variable: its own field paths start with its name */
			snprintf(array, sizeof(array), "kfsim_bpfcc_var_fields_%u", nr);
			put_fields(f, array, &fl);
			used += snprintf(buf + used, sizeof(buf) - used,
					 "\t{\"%s\", \"%s\", (void *)&%s, %u, %s, %u},\n", sname,
					 vname, vname, vi->size, array, fl.nr);
			if (used >= sizeof(buf))
				used = sizeof(buf) - 1;
			nr++;
		}
	}
	fprintf(f,
		"static const struct kfsim_bpfrt_var kfsim_bpfcc_vars[] = {\n%s%s};\n"
		"#define KFSIM_BPFCC_NR_VARS %u\n\n",
		buf, nr ? "" : "\t{0, 0, 0, 0, 0, 0},\n", nr);
}

/* A map definition member: "__uint(name, N)" is a pointer to an array of N. */
static unsigned int map_uint(const struct btf *btf, const struct btf_member *mb)
{
	const struct btf_type *t = btf__type_by_id(btf, mb->type);

	if (!t || !btf_is_ptr(t))
		return 0;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_array(t) ? btf_array(t)->nelems : 0;
}

static void write_maps(FILE *f, const struct btf *btf)
{
	__s32 sec_id = btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC);
	const struct btf_type *sec = sec_id > 0 ? btf__type_by_id(btf, sec_id) : NULL;
	const struct btf_var_secinfo *vi = sec ? btf_var_secinfos(sec) : NULL;
	unsigned int nr = 0;

	fprintf(f, "static const struct kfsim_bpfrt_map kfsim_bpfcc_maps[] = {\n");
	for (__u16 i = 0; sec && i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *v = btf__type_by_id(btf, vi->type);
		const struct btf_type *def = btf__type_by_id(btf, skip_mods(btf, v->type));
		unsigned int type = 0, max = 0, ksize = 4, vsize = 0, vtype = 0, voff = 0, nrv = 0;

		if (!btf_is_var(v) || !def || !btf_is_struct(def))
			continue;
		for (__u16 m = 0; m < btf_vlen(def); m++) {
			const struct btf_member *mb = btf_members(def) + m;
			const char *mn = btf__name_by_offset(btf, mb->name_off);
			const struct btf_type *pt = btf__type_by_id(btf, mb->type);

			if (!strcmp(mn, "type"))
				type = map_uint(btf, mb);
			else if (!strcmp(mn, "max_entries"))
				max = map_uint(btf, mb);
			else if (!strcmp(mn, "key_size"))
				ksize = map_uint(btf, mb);
			else if (!strcmp(mn, "value_size"))
				vsize = map_uint(btf, mb);
			else if (!strcmp(mn, "key") && btf_is_ptr(pt))
				ksize = (unsigned int)btf__resolve_size(btf, pt->type);
			else if (!strcmp(mn, "value") && btf_is_ptr(pt)) {
				__u32 vid = skip_mods(btf, pt->type);

				vsize = (unsigned int)btf__resolve_size(btf, vid);
				if (btf_is_struct(btf__type_by_id(btf, vid)))
					vtype = vid;
			} else if (!strcmp(mn, "values")) {
				voff = btf_member_bit_offset(def, m) / 8;
				nrv = vi->size > voff ? (vi->size - voff) / 8 : 0;
				vsize = 4;
			}
		}
		fprintf(f, "\t{\"%s\", (void *)&%s, %u, %u, %u, %u, %u, %u, %u},\n",
			btf__name_by_offset(btf, v->name_off),
			btf__name_by_offset(btf, v->name_off), type, ksize, vsize, max, vtype, voff,
			nrv);
		nr++;
	}
	if (!nr)
		fprintf(f, "\t{0, 0, 0, 0, 0, 0, 0, 0, 0},\n");
	fprintf(f, "};\n#define KFSIM_BPFCC_NR_MAPS %u\n\n", nr);
}

/* The test_expect_* annotations of the function @fn (bpf_misc.h's decl tags). */
static void write_prog(FILE *f, const struct btf *btf, const struct bpfcc_unit *u, const char *fn,
		       const char *section, unsigned int idx)
{
	__s32 fid = btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC);
	__u32 n = btf__type_cnt(btf);
	int expect = 0, has_retval = 0, nr_calls, nr_accesses, leak_after_merge = 0;
	char at_end[256] = "";
	long long retval = 0;

	fprintf(f, "static const char *const kfsim_bpfcc_msgs_%u[] = {", idx);
	for (__u32 id = 1; fid > 0 && id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *text;

		if (!btf_is_decl_tag(t) || t->type != (__u32)fid)
			continue;
		text = btf__name_by_offset(btf, t->name_off);
		if (!strcmp(text, "comment:test_expect_failure")) {
			expect = -1;
		} else if (!strcmp(text, "comment:test_expect_success")) {
			expect = 1;
		} else if (!strncmp(text, "comment:test_expect_msg=", 24)) {
			const char *msg = strchr(text + 24, '=');

			put_c_string(f, msg ? msg + 1 : text + 24);
			fputs(", ", f);
		} else if (!strncmp(text, "comment:test_retval=", 20)) {
			char *end;

			retval = strtoll(text + 20, &end, 0);
			has_retval = end != text + 20 && !*end;
		}
	}
	fprintf(f, "0};\n");
	nr_calls = bpfcc_write_calls(f, u, fn, idx, &nr_accesses, &leak_after_merge, at_end,
				     sizeof(at_end));
	if (nr_calls < 0) {
		fprintf(stderr,
			"kfsim-bpf-cc: %s: cannot read the instructions of %s (%s): "
			"alloc_insn= will count kfunc calls\n",
			u->display, fn, strerror(-nr_calls));
		fprintf(f, "static const struct kfsim_bpfrt_call kfsim_bpfcc_calls_%u[] = {{0}};\n",
			idx);
		fprintf(f,
			"static const struct kfsim_bpfrt_access kfsim_bpfcc_accesses_%u[] = {{0}};\n",
			idx);
		nr_calls = 0;
		nr_accesses = 0;
	}
	fprintf(f, "#define KFSIM_BPFCC_PROG_%u {\"%s\", ", idx, fn);
	put_c_string(f, section);
	fprintf(f, ", (void *)%s, %d, kfsim_bpfcc_msgs_%u, %d, %lldLL, %d, ", fn, expect, idx,
		has_retval, retval, bpfcc_source_line(u, fn));
	fprintf(f, "kfsim_bpfcc_calls_%u, %d, kfsim_bpfcc_accesses_%u, %d, %d, ", idx, nr_calls,
		idx, nr_accesses, leak_after_merge);
	if (at_end[0])
		put_c_string(f, at_end);
	else
		fputs("0", f);
	fputs("}\n", f);
}

static int write_progs(FILE *f, const struct btf *btf, const struct bpfcc_unit *u)
{
	struct bpf_program *prog;
	unsigned int nr = 0;

	bpf_object__for_each_program(prog, u->bo) write_prog(f, btf, u, bpf_program__name(prog),
							     bpf_program__section_name(prog), nr++);
	fprintf(f, "static const struct kfsim_bpfrt_prog kfsim_bpfcc_progs[] = {\n");
	for (unsigned int i = 0; i < nr; i++)
		fprintf(f, "\tKFSIM_BPFCC_PROG_%u,\n", i);
	if (!nr)
		fprintf(f, "\t{0, 0, 0, 0, 0, 0, 0, 0},\n");
	fprintf(f, "};\n#define KFSIM_BPFCC_NR_PROGS %u\n\n", nr);
	return 0;
}

/*
 * A function of the program with global linkage (a FUNC's vlen) that is no SEC() program: a
 * global subprogram.
 */
static bool global_subprog(const struct btf *btf, const struct btf_type *t,
			   const struct bpfcc_unit *u)
{
	return btf_is_func(t) && btf_vlen(t) == BTF_FUNC_GLOBAL &&
	       !bpf_object__find_program_by_name(u->bo, btf__name_by_offset(btf, t->name_off));
}

int bpfcc_nr_global_subprogs(const struct bpfcc_unit *u, const struct btf *btf)
{
	__u32 n = btf__type_cnt(btf);
	int nr = 0;

	for (__u32 id = 1; id < n; id++)
		nr += global_subprog(btf, btf__type_by_id(btf, id), u);
	return nr;
}

/* The global subprograms: the runtime checks the lock at their entry (bpfrt_subprogs.c). */
static void write_globals(FILE *f, const struct btf *btf, const struct bpfcc_unit *u)
{
	__u32 n = btf__type_cnt(btf);

	fprintf(f, "static const void *const kfsim_bpfcc_globals[] = {\n");
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (global_subprog(btf, t, u))
			fprintf(f, "\t(const void *)%s,\n", btf__name_by_offset(btf, t->name_off));
	}
	fprintf(f, "\tNULL,\n};\nstatic const char *const kfsim_bpfcc_global_names[] = {\n");
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (global_subprog(btf, t, u))
			fprintf(f, "\t\"%s\",\n", btf__name_by_offset(btf, t->name_off));
	}
	fprintf(f, "\tNULL,\n};\n\n");
}

/*
 * The functions the object takes the address of (callbacks), with what the runtime needs of
 * their BTF: the return type's size (natively the upper bits of a 4-byte return are undefined)
 * and the linkage (bpfrt_callbacks.c).
 */
static int write_funcs(FILE *f, const struct btf *btf, const struct bpfcc_unit *u)
{
	char **names;
	int nr = bpfcc_callbacks(u, &names);

	if (nr < 0)
		return nr;
	fprintf(f, "static const struct kfsim_bpfrt_func kfsim_bpfcc_funcs[] = {\n");
	for (int i = 0; i < nr; i++) {
		int id = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC);
		const struct btf_type *fn = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
		const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
		int ret = proto && btf_is_func_proto(proto) && proto->type
				  ? btf__resolve_type(btf, proto->type)
				  : 0;
		const struct btf_type *rt = ret > 0 ? btf__type_by_id(btf, (__u32)ret) : NULL;
		long long size = rt ? btf__resolve_size(btf, (__u32)ret) : 0;

		/* no BTF for it: taken as a 64-bit return, as a BPF register is */
		if (!fn)
			size = 8;
		fprintf(f, "\t{\"%s\", (const void *)%s, %lld, %d},\n", names[i], names[i],
			size < 0 ? 8 : size, fn && btf_vlen(fn) == BTF_FUNC_GLOBAL);
		free(names[i]);
	}
	free(names);
	fprintf(f, "\t{NULL, NULL, 0, 0},\n};\n\n");
	return 0;
}

/* The offset of data variable @name in the BPF object, or -1. */
static long data_var_offset(const struct btf *btf, const char *name)
{
	__u32 n = btf__type_cnt(btf);

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vi = btf_var_secinfos(sec);

		for (__u16 i = 0; data_section(btf, sec) && i < btf_vlen(sec); i++, vi++) {
			const struct btf_type *v = btf__type_by_id(btf, vi->type);

			if (!strcmp(btf__name_by_offset(btf, v->name_off), name))
				return vi->offset;
		}
	}
	return -1;
}

bool bpfcc_needs_order(const struct btf *btf)
{
	__u32 n = btf__type_cnt(btf);

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const char *name = data_section(btf, sec);

		if (name && strcmp(name, ".data") && strcmp(name, ".bss") && btf_vlen(sec) > 1)
			return true;
	}
	return false;
}

int bpfcc_write_order(struct btf *btf, const char *pass1, const char *dir)
{
	static long offset_of[BPFCC_MAX_SECS];
	char cmd[4096 + 64], line[1024], path[4096 + 32];
	long max_counter = -1;
	FILE *p, *f;

	for (long i = 0; i < BPFCC_MAX_SECS; i++)
		offset_of[i] = -1;
	snprintf(cmd, sizeof(cmd), "objdump -t '%s'", pass1);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	/* "0000000000000000 g     O .data.A.kfsim3	0000000000000004 .hidden glock" */
	while (fgets(line, sizeof(line), p)) {
		char *sec = strstr(line, ".kfsim"), *name;
		long counter;

		if (!sec)
			continue;
		counter = strtol(sec + 6, NULL, 10);
		line[strcspn(line, "\n")] = '\0';
		name = strrchr(line, ' ');
		if (counter < 0 || counter >= BPFCC_MAX_SECS || !name)
			continue;
		if (counter > max_counter)
			max_counter = counter;
		offset_of[counter] = data_var_offset(btf, name + 1);
	}
	if (pclose(p))
		return -EIO;
	snprintf(path, sizeof(path), "%s/kfsim_bpfcc_order.h", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "/* Generated by kfsim-bpf-cc: each SEC() use's section suffix (bpf_helpers.h). "
		   "*/\n"
		   "#define KFSIM_BPFCC_SEC_SUFFIX(n) KFSIM_BPFCC_ORDER_##n\n");
	/* uses beyond those the first build saw: __COUNTER__ also counts bpf_misc.h's __msg() */
	for (long i = 0; i < BPFCC_MAX_SECS && i <= max_counter + 256; i++)
		if (offset_of[i] >= 0)
			fprintf(f, "#define KFSIM_BPFCC_ORDER_%ld \".kfsim%08ld\"\n", i,
				offset_of[i]);
		else
			fprintf(f, "#define KFSIM_BPFCC_ORDER_%ld \".kfsimx%ld\"\n", i, i);
	return fclose(f) ? -errno : 0;
}

int bpfcc_generate(const struct bpfcc_unit *u, struct btf *btf, const char *dir)
{
	char path[4096];
	FILE *f;
	int err;

	err = write_types_header(btf, dir);
	if (err)
		goto fail;
	snprintf(path, sizeof(path), "%s/kfsim_bpfcc_tables.h", dir);
	f = fopen(path, "w");
	if (!f) {
		err = -errno;
		goto fail;
	}
	fprintf(f,
		"/* Generated by kfsim-bpf-cc from the BTF of %s: do not edit. */\n"
		"#include <kfsim_bpfrt.h>\n\n",
		u->display);
	write_types(f, btf);
	write_vars(f, btf);
	write_maps(f, btf);
	err = write_progs(f, btf, u);
	/* the BPF object itself, for --kernel */
	fprintf(f,
		"__asm__(\".pushsection .rodata\\n.balign 8\\n"
		"kfsim_bpfcc_bpf_obj:\\n.incbin \\\"%s\\\"\\nkfsim_bpfcc_bpf_obj_end:\\n"
		".popsection\");\n"
		"extern const unsigned char kfsim_bpfcc_bpf_obj[], kfsim_bpfcc_bpf_obj_end[];\n\n",
		u->object);
	write_globals(f, btf, u);
	if (!err)
		err = write_funcs(f, btf, u);
	fprintf(f, "const struct kfsim_bpfrt_object kfsim_bpfcc_object = {\n\t\"%s\", ", u->name);
	put_c_string(f, u->source);
	fprintf(f, ",\n\tkfsim_bpfcc_types, KFSIM_BPFCC_NR_TYPES, kfsim_bpfcc_vars, "
		   "KFSIM_BPFCC_NR_VARS,\n\tkfsim_bpfcc_maps, KFSIM_BPFCC_NR_MAPS, "
		   "kfsim_bpfcc_progs, KFSIM_BPFCC_NR_PROGS,\n"
		   "\tkfsim_bpfcc_bpf_obj, kfsim_bpfcc_bpf_obj_end,\n"
		   "\tkfsim_bpfcc_globals, kfsim_bpfcc_global_names,\n"
		   "\tkfsim_bpfcc_funcs,\n};\n");
	if (fclose(f) && !err)
		err = -errno;
	if (!err)
		return 0;
fail:
	fprintf(stderr, "kfsim-bpf-cc: cannot write the generated headers in %s: %s\n", dir,
		strerror(-err));
	return err;
}
