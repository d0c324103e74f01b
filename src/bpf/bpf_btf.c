// SPDX-License-Identifier: MIT
/*
 * Struct descriptions checked as the kernel checks program BTF (kernel/bpf/btf.c:
 * btf_parse_fields, btf_parse_graph_root, btf_check_and_fixup_fields), and the type ids that
 * bpf_obj_new() takes.
 *
 * Invariants: a description is used only after a successful load in the kernel version now in
 * force (load_kver == kfsim_kernel_version() and load_err == 0); ids are never reused, and the
 * id table, like the kernel's BTF id space, is process-global and only grows.
 */
#include <pthread.h>
#include <string.h>

#include "bpf_internal.h"

#define BPF_MAX_TYPES 4096

static pthread_mutex_t btf_lock = PTHREAD_MUTEX_INITIALIZER;
/* id -> description; slot 0 unused (BTF id 0 is void). */
static struct kfsim_btf_struct *btf_types[BPF_MAX_TYPES];
static u32 btf_nr_types = 1;

static int btf_load_locked(struct kfsim_btf_struct *s);

static int btf_fail(struct kfsim_btf_struct *s, int err, const char *fmt, const char *arg)
{
	char why[160];

	snprintf(why, sizeof(why), fmt, arg);
	pr_err("kfsim bpf: BTF struct %s: %s (-%s)\n", s->name ? s->name : "?", why,
	       kfsim_errname(err));
	return err;
}

static bool kind_is_root(enum btf_field_type t)
{
	return t == BPF_LIST_HEAD || t == BPF_RB_ROOT;
}

/* The special fields of @s alone: counts, overlaps, lock and refcount offsets, field mask. */
static int btf_parse_fields(struct kfsim_btf_struct *s)
{
	bool refcount_known = kfsim_kernel_at_least(6, 4);
	u32 nr_locks = 0;

	s->field_mask = 0;
	s->spin_lock_off = -1;
	s->refcount_off = -1;
	if (s->nr_fields > BTF_FIELDS_MAX)
		return btf_fail(s, -E2BIG, "more than %s special fields", "10");
	for (u32 i = 0; i < s->nr_fields; i++) {
		const struct kfsim_btf_field *f = &s->fields[i];

		if (f->offset + f->size > s->size || f->offset + f->size < f->offset)
			return btf_fail(s, -EEXIST, "field %s lies outside the struct", f->name);
		for (u32 j = 0; j < i; j++) {
			const struct kfsim_btf_field *g = &s->fields[j];

			if (f->offset < g->offset + g->size && g->offset < f->offset + f->size)
				return btf_fail(s, -EEXIST,
						"field %s overlaps another special field", f->name);
		}
		if (f->type == BPF_REFCOUNT && !refcount_known)
			continue; /* 6.3 has no bpf_refcount: a plain member */
		if (f->type == BPF_SPIN_LOCK) {
			if (++nr_locks > 1)
				return btf_fail(s, -E2BIG,
						"%s: two bpf_spin_locks in one allocation",
						f->name);
			s->spin_lock_off = (s32)f->offset;
		}
		if (f->type == BPF_REFCOUNT) {
			if (s->refcount_off >= 0)
				return btf_fail(s, -E2BIG, "%s: two bpf_refcount fields", f->name);
			s->refcount_off = (s32)f->offset;
		}
		s->field_mask |= f->type;
	}
	if ((s->field_mask & BPF_LIST_NODE) && (s->field_mask & BPF_RB_NODE) && s->refcount_off < 0)
		return btf_fail(s, -EINVAL, "%s",
				refcount_known
					? "a bpf_list_node and a bpf_rb_node need a bpf_refcount"
					: "a bpf_list_node and a bpf_rb_node in one struct (6.3)");
	return 0;
}

/* The __contains tags: every root names an existing node of the right kind, and has a lock. */
static int btf_parse_graph_roots(struct kfsim_btf_struct *s)
{
	for (u32 i = 0; i < s->nr_fields; i++) {
		const struct kfsim_btf_field *f = &s->fields[i];
		enum btf_field_type want;
		struct kfsim_btf_struct *c;
		const struct kfsim_btf_field *node = NULL;
		int err;

		s->node_type[i] = NULL;
		s->node_off[i] = -1;
		if (!kind_is_root(f->type))
			continue;
		if (s->spin_lock_off < 0)
			return btf_fail(s, -EINVAL, "root %s has no bpf_spin_lock beside it",
					f->name);
		c = f->contains;
		if (!c || !f->contains_node)
			return btf_fail(s, -EINVAL, "root %s has no __contains tag", f->name);
		if (c != s && c->loading)
			return btf_fail(s, -ELOOP, "ownership cycle through %s", c->name);
		if (c != s) {
			err = btf_load_locked(c);
			if (err)
				return btf_fail(s, err, "contained struct %s is invalid", c->name);
		}
		for (u32 j = 0; j < c->nr_fields; j++)
			if (!strcmp(c->fields[j].name, f->contains_node))
				node = &c->fields[j];
		if (!node)
			return btf_fail(s, -ENOENT, "__contains names a missing member %s",
					f->contains_node);
		want = f->type == BPF_RB_ROOT ? BPF_RB_NODE : BPF_LIST_NODE;
		if (node->type != want)
			return btf_fail(s, -EINVAL,
					"__contains member %s is not a node of the root's kind",
					node->name);
		/*
		 * Ownership must be acyclic and at most two levels deep: a type that owns others
		 * (has roots) may be owned only by a type that is not itself owned (has no node).
		 */
		if (c == s || ((c->field_mask & (BPF_LIST_HEAD | BPF_RB_ROOT)) &&
			       (s->field_mask & (BPF_LIST_NODE | BPF_RB_NODE))))
			return btf_fail(s, -ELOOP, "ownership cycle or chain through %s", c->name);
		s->node_type[i] = c;
		s->node_off[i] = (s32)node->offset;
		s->node_kind[i] = want;
	}
	return 0;
}

static int btf_load_locked(struct kfsim_btf_struct *s)
{
	unsigned int kver = kfsim_kernel_version();
	int err;

	if (__atomic_load_n(&s->loaded_kver, __ATOMIC_ACQUIRE) == kver)
		return s->load_err;
	s->loading = 1;
	err = btf_parse_fields(s);
	if (!err)
		err = btf_parse_graph_roots(s);
	s->loading = 0;
	if (!err && !s->id) {
		if (btf_nr_types >= BPF_MAX_TYPES)
			err = btf_fail(s, -E2BIG, "%s", "too many types loaded");
		else {
			s->id = btf_nr_types;
			__atomic_store_n(&btf_types[s->id], s, __ATOMIC_RELEASE);
			__atomic_store_n(&btf_nr_types, s->id + 1, __ATOMIC_RELEASE);
		}
	}
	s->load_err = err;
	__atomic_store_n(&s->loaded_kver, kver, __ATOMIC_RELEASE);
	return err;
}

int kfsim_btf_load(struct kfsim_btf_struct *s)
{
	int err;

	if (!s || !s->name || (!s->fields && s->nr_fields))
		return -EINVAL;
	if (__atomic_load_n(&s->loaded_kver, __ATOMIC_ACQUIRE) == kfsim_kernel_version())
		return s->load_err;
	pthread_mutex_lock(&btf_lock);
	err = btf_load_locked(s);
	pthread_mutex_unlock(&btf_lock);
	return err;
}

u64 kfsim_btf_type_id(struct kfsim_btf_struct *s)
{
	if (kfsim_btf_load(s))
		return 0;
	return s->id;
}

struct kfsim_btf_struct *bpf_btf_type_by_id(u64 id)
{
	struct kfsim_btf_struct *s = NULL;

	/* lock-free: slots are written once, before the count that publishes them */
	if (id > 0 && id < __atomic_load_n(&btf_nr_types, __ATOMIC_ACQUIRE))
		s = __atomic_load_n(&btf_types[id], __ATOMIC_ACQUIRE);
	if (s && kfsim_btf_load(s))
		return NULL;
	return s;
}

void bpf_alloc_drain_roots(void *base, struct kfsim_btf_struct *type)
{
	struct bpf_spin_lock *lock = (struct bpf_spin_lock *)((char *)base + type->spin_lock_off);

	for (u32 i = 0; i < type->nr_fields; i++) {
		void *root = (char *)base + type->fields[i].offset;

		if (type->fields[i].type == BPF_LIST_HEAD)
			bpf_list_head_drain(root, lock, type->node_off[i]);
		else if (type->fields[i].type == BPF_RB_ROOT)
			bpf_rb_root_drain(root, lock, type->node_off[i]);
	}
}

void bpf_obj_init_fields(void *obj, struct kfsim_btf_struct *type)
{
	for (u32 i = 0; i < type->nr_fields; i++) {
		const struct kfsim_btf_field *f = &type->fields[i];
		void *p = (char *)obj + f->offset;

		if (kind_is_root(f->type))
			/* an empty list is lazily initialised, an empty tree is zero */
			memset(p, 0, f->size);
		else if (f->type == BPF_REFCOUNT && type->refcount_off >= 0)
			__atomic_store_n((u32 *)p, 1, __ATOMIC_RELAXED);
		else if (f->type == BPF_RB_NODE)
			/* RB_CLEAR_NODE: the parent word points at the node itself */
			*(void **)p = p;
		else if (f->type == BPF_LIST_NODE)
			bpf_dlist_init(p);
	}
}

int kfsim_bpf_section_init(void *data, struct kfsim_btf_struct *s, const char *name)
{
	int err, reg;

	if (!data || !s)
		return -EINVAL;
	err = kfsim_btf_load(s);
	/* the kernel creates the map even when its BTF record is invalid: register it anyway */
	reg = bpf_alloc_register(data, s, name ? name : s->name, !err);
	if (err || reg)
		return err ? err : reg;
	for (u32 i = 0; i < s->nr_fields; i++) {
		const struct kfsim_btf_field *f = &s->fields[i];

		if (kind_is_root(f->type) || f->type == BPF_SPIN_LOCK)
			memset((char *)data + f->offset, 0, f->size);
	}
	return 0;
}

int kfsim_bpf_private_init(void *data, struct kfsim_btf_struct *s)
{
	return kfsim_bpf_section_init(data, s, NULL);
}

int kfsim_bpf_private_free(void *data, struct kfsim_btf_struct *s)
{
	struct bpf_alloc_view v;
	struct bpf_spin_lock *lock;

	if (!data || !s)
		return -EINVAL;
	if (!bpf_alloc_lookup(data, &v) || v.base != data || v.type != s || !v.name)
		return -EINVAL;
	if (!v.valid || kfsim_btf_load(s) || s->spin_lock_off < 0) {
		/* registered without a valid record: nothing to drain, but it must go */
		bpf_alloc_unregister(data);
		return 0;
	}
	lock = (struct bpf_spin_lock *)((char *)data + s->spin_lock_off);
	if (bpf_tstate.held == lock)
		return -EBUSY;
	bpf_alloc_drain_roots(data, s);
	bpf_alloc_unregister(data);
	return 0;
}
