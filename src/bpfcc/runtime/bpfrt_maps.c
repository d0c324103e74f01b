// SPDX-License-Identifier: MIT
/*
 * The maps of a program's ".maps" section, natively: arrays, hashes (and their per-CPU forms,
 * with one CPU) and maps of maps.  A map is found by the address of its definition, which is
 * what a program passes to bpf_map_lookup_elem().  Each value that holds special fields (a lock,
 * roots, a __kptr) is registered as a kfsim section named after the map, as the kernel gives a
 * map value its record; values are zeroed when created.
 *
 * Not modelled: update flags other than BPF_ANY/BPF_NOEXIST/BPF_EXIST, LRU eviction, per-CPU
 * copies, any other map type (lookups in one return NULL).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include "bpfrt.h"

enum {
	MAP_HASH = 1,
	MAP_ARRAY = 2,
	MAP_PERCPU_HASH = 5,
	MAP_PERCPU_ARRAY = 6,
	MAP_LRU_HASH = 9,
	MAP_ARRAY_OF_MAPS = 12,
	MAP_HASH_OF_MAPS = 13,
	MAP_RINGBUF = 27,
};

enum { BPF_ANY, BPF_NOEXIST, BPF_EXIST };

struct bpfrt_map {
	const struct kfsim_bpfrt_map *def;
	struct kfsim_btf_struct *value_type; /* NULL: no special fields */
	size_t stride;			     /* value size rounded up to 8, as the kernel's */
	unsigned char *values;
	unsigned char *keys; /* hashes */
	bool *used;	     /* hashes */
};

static struct bpfrt_map *maps;
static unsigned int nr_maps;

static bool is_hash(const struct bpfrt_map *m)
{
	unsigned int t = m->def->type;

	return t == MAP_HASH || t == MAP_PERCPU_HASH || t == MAP_LRU_HASH;
}

static void value_init(struct bpfrt_map *m, unsigned int idx)
{
	memset(m->values + idx * m->stride, 0, m->stride);
	if (m->value_type)
		kfsim_bpf_section_init(m->values + idx * m->stride, m->value_type, m->def->name);
}

int bpfrt_maps_init(const struct kfsim_bpfrt_object *obj)
{
	nr_maps = obj->nr_maps;
	maps = calloc(nr_maps ? nr_maps : 1, sizeof(*maps));
	if (!maps)
		return -ENOMEM;
	for (unsigned int i = 0; i < nr_maps; i++) {
		struct bpfrt_map *m = &maps[i];
		size_t n;

		m->def = &obj->maps[i];
		n = m->def->max_entries ? m->def->max_entries : 1;
		m->stride = (m->def->value_size + 7) & ~(size_t)7;
		m->value_type = bpfrt_type(m->def->value_type);
		if (m->value_type && !m->value_type->nr_fields)
			m->value_type = NULL;
		/* a ring buffer's data is bpfrt_ringbuf.c's */
		if (m->def->type == MAP_ARRAY_OF_MAPS || m->def->type == MAP_HASH_OF_MAPS ||
		    m->def->type == MAP_RINGBUF)
			continue;
		m->values = aligned_alloc(8, n * (m->stride ? m->stride : 8));
		if (!m->values)
			return -ENOMEM;
		if (is_hash(m)) {
			m->keys = calloc(n, m->def->key_size ? m->def->key_size : 1);
			m->used = calloc(n, sizeof(*m->used));
			if (!m->keys || !m->used)
				return -ENOMEM;
			continue;
		}
		for (unsigned int e = 0; e < n; e++)
			value_init(m, e); /* an array's elements exist from the start */
	}
	return 0;
}

static struct bpfrt_map *map_of(const void *def)
{
	for (unsigned int i = 0; i < nr_maps; i++)
		if (maps[i].def->def == def)
			return &maps[i];
	return NULL;
}

int bpfrt_map_type(const void *def)
{
	struct bpfrt_map *m = map_of(def);

	return m ? (int)m->def->type : -1;
}

bool bpfrt_map_value_at(const void *p, unsigned int *value_size, unsigned int *off)
{
	for (unsigned int i = 0; i < nr_maps; i++) {
		const struct bpfrt_map *m = &maps[i];
		size_t n = m->def->max_entries ? m->def->max_entries : 1;
		const unsigned char *b = p;

		if (!m->values || b < m->values || b >= m->values + n * m->stride)
			continue;
		*value_size = m->def->value_size;
		*off = (unsigned int)((size_t)(b - m->values) % m->stride);
		return true;
	}
	return false;
}

/*
 * The program's key and value, read as the helper reads them: key_size or value_size bytes from
 * the pointer, which the verifier checked against the BPF stack or map value the pointer is in.
 * A key or value the C program declared smaller (a u32 for a map's 8-byte value, the verifier
 * accepting the stack slot beside it that the program wrote) reads past its C object natively,
 * into the bytes beside it on the native stack (not the same bytes as the BPF stack's: the
 * layouts differ, docs/bpf-graph.md); ASan's redzones there would stop a run the kernel
 * accepts, so these reads are not instrumented, and are byte loads ASan's memcpy()/memcmp()
 * interceptors do not see.
 */
static __attribute__((no_sanitize("address"))) void prog_read(void *dst, const void *src,
							     size_t n)
{
	const volatile unsigned char *s = src;
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

/* @stored (the map's own key) equals the program's @key, key_size bytes read as prog_read(). */
static __attribute__((no_sanitize("address"))) bool prog_key_equal(const unsigned char *stored,
								   const void *key, size_t n)
{
	const volatile unsigned char *k = key;

	for (size_t i = 0; i < n; i++)
		if (stored[i] != k[i])
			return false;
	return true;
}

static long hash_find(const struct bpfrt_map *m, const void *key)
{
	for (unsigned int e = 0; e < m->def->max_entries; e++)
		if (m->used[e] && prog_key_equal(m->keys + e * m->def->key_size, key,
						 m->def->key_size))
			return e;
	return -1;
}

/* copy_map_value(): every byte but the special fields; @src is the program's (prog_read()). */
static __attribute__((no_sanitize("address"))) void copy_value(const struct bpfrt_map *m,
							      void *dst, const void *src)
{
	unsigned char *d = dst;
	const volatile unsigned char *s = src;

	for (u32 b = 0; b < m->def->value_size; b++) {
		bool special = false;

		for (u32 f = 0; m->value_type && f < m->value_type->nr_fields; f++) {
			const struct kfsim_btf_field *x = &m->value_type->fields[f];

			special |= b >= x->offset && b < x->offset + x->size;
		}
		if (!special)
			d[b] = s[b];
	}
}

static void *map_lookup(void *map, const void *key, const char *file, int line)
{
	struct bpfrt_map *m = map_of(map);
	u32 idx;
	long e;

	if (!m || !key)
		return NULL;
	prog_read(&idx, key, sizeof(idx));
	switch (m->def->type) {
	case MAP_ARRAY_OF_MAPS:
	case MAP_HASH_OF_MAPS:
		/* the definition's ".values = { [i] = &inner }" holds the inner maps */
		return idx < m->def->nr_values
			       ? ((void **)((char *)m->def->def + m->def->values_off))[idx]
			       : NULL;
	case MAP_ARRAY:
	case MAP_PERCPU_ARRAY:
		return idx < m->def->max_entries ? m->values + idx * m->stride : NULL;
	default:
		if (!is_hash(m))
			return NULL;
		e = hash_find(m, key);
		return e < 0 ? NULL : m->values + e * m->stride;
	}
}

long kfsim_bpfrt_map_update_elem(void *map, const void *key, const void *value,
				 unsigned long long flags, const char *file, int line);

/* A zeroed element for @key (an explored path's fabricated lookup result), or NULL when full. */
static void *fabricate_elem(void *map, const void *key, const char *file, int line)
{
	struct bpfrt_map *m = map_of(map);
	void *zero = calloc(1, m->stride ? m->stride : 1);
	long err;

	if (!zero)
		return NULL;
	err = kfsim_bpfrt_map_update_elem(map, key, zero, BPF_NOEXIST, file, line);
	free(zero);
	return err ? NULL : map_lookup(map, key, file, line);
}

/*
 * >= 6.14: a lookup in an array with a key on the stack whose value the verifier knows, inside
 * the array, is not maybe-NULL (check_helper_call(), can_elide_value_nullness()): no NULL
 * branch, and no id but the spin lock's.  Natively a key is on the stack when it lies on the
 * running program's stack (bpfrt_on_prog_stack()); its value is known to the run
 * but not always to the verifier (a value loaded from memory): that difference stays.
 */
static __attribute__((noinline)) bool lookup_never_null(const struct bpfrt_map *m,
							 const void *key)
{
	uint32_t idx;

	if (!m || !key || (m->def->type != MAP_ARRAY && m->def->type != MAP_PERCPU_ARRAY) ||
	    kfsim_kernel_version() < KERNEL_VERSION(6, 14, 0) ||
	    !bpfrt_on_prog_stack(key, __builtin_frame_address(0)))
		return false;
	prog_read(&idx, key, sizeof(idx));
	return idx < m->def->max_entries;
}

static void *lookup_elem(void *map, const void *key, const char *file, int line);

void *kfsim_bpfrt_map_lookup_elem(void *map, const void *key, const char *file, int line);
void *kfsim_bpfrt_map_lookup_elem(void *map, const void *key, const char *file, int line)
{
	void *value = lookup_elem(map, key, file, line);

	kfsim_bpf_lookup_result(value); /* an unchecked NULL's lock names map_value_or_null */
	return value;
}

static void *lookup_elem(void *map, const void *key, const char *file, int line)
{
	struct bpfrt_map *m = map_of(map);
	struct kfsim_bpf_decision d = {.kfunc = "bpf_map_lookup_elem"};
	void *value;

	if (bpfrt_helper("bpf_map_lookup_elem", file, line))
		return NULL;
	if (lookup_never_null(m, key)) {
		/* the id a value with a spin lock gets (reg_may_point_to_spin_lock()) */
		kfsim_bpf_verifier_ids(m->value_type && m->value_type->spin_lock_off >= 0);
		return map_lookup(map, key, file, line);
	}
	kfsim_bpf_verifier_ids(1); /* the maybe-NULL result's id (check_helper_call()) */
	value = map_lookup(map, key, file, line);
	/* the other outcome of a missing key in a hash: the element, zeroed, as if it were there */
	d.natural = value;
	d.can_flip = value || (m && key && is_hash(m));
	d.fabricates = !value;
	if (!kfsim_bpf_explore_decide(&d))
		return value;
	if (value)
		return NULL;
	return fabricate_elem(map, key, file, line);
}

/* bpf_map_lookup_percpu_elem(): one CPU (as bpf_get_smp_processor_id() says), CPU 0's copy. */
void *kfsim_bpfrt_map_lookup_percpu_elem(void *map, const void *key, unsigned int cpu,
					 const char *file, int line);
void *kfsim_bpfrt_map_lookup_percpu_elem(void *map, const void *key, unsigned int cpu,
					 const char *file, int line)
{
	if (bpfrt_helper("bpf_map_lookup_percpu_elem", file, line))
		return NULL;
	kfsim_bpf_verifier_ids(1); /* a maybe-NULL result, as bpf_map_lookup_elem() */
	return cpu ? NULL : map_lookup(map, key, file, line);
}

long kfsim_bpfrt_map_update_elem(void *map, const void *key, const void *value,
				 unsigned long long flags, const char *file, int line);
long kfsim_bpfrt_map_update_elem(void *map, const void *key, const void *value,
				 unsigned long long flags, const char *file, int line)
{
	struct bpfrt_map *m = map_of(map);
	long e;

	if (bpfrt_helper("bpf_map_update_elem", file, line))
		return -EINVAL;
	if (!m || !key || !value || flags > BPF_EXIST)
		return -EINVAL;
	if (!is_hash(m)) {
		void *dst = map_lookup(map, key, file, line);

		if (m->def->type == MAP_ARRAY_OF_MAPS || m->def->type == MAP_HASH_OF_MAPS)
			return -EOPNOTSUPP;
		if (!dst)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		copy_value(m, dst, value);
		return 0;
	}
	e = hash_find(m, key);
	if (e >= 0 && flags == BPF_NOEXIST)
		return -EEXIST;
	if (e < 0 && flags == BPF_EXIST)
		return -ENOENT;
	if (e < 0) {
		for (e = 0; e < m->def->max_entries && m->used[e]; e++)
			;
		if (e == m->def->max_entries)
			return -E2BIG;
		m->used[e] = true;
		prog_read(m->keys + e * m->def->key_size, key, m->def->key_size);
		value_init(m, (unsigned int)e);
	}
	copy_value(m, m->values + e * m->stride, value);
	return 0;
}

long kfsim_bpfrt_map_delete_elem(void *map, const void *key, const char *file, int line);
long kfsim_bpfrt_map_delete_elem(void *map, const void *key, const char *file, int line)
{
	struct bpfrt_map *m = map_of(map);
	long e;

	if (bpfrt_helper("bpf_map_delete_elem", file, line))
		return -EINVAL;
	if (!m || !key)
		return -EINVAL;
	if (!is_hash(m))
		return -EINVAL;
	e = hash_find(m, key);
	if (e < 0)
		return -ENOENT;
	/*
	 * The element's lists and trees are freed with it (bpf_obj_free_fields()), but its memory
	 * stays a map value: a preallocated hash puts it back on its free list, and a program that
	 * looked it up before the delete may still use it, lock included (the verifier does not
	 * follow deletes; measured on the running 6.18: a lock of the deleted value is accepted).
	 * So the value stays registered, emptied, until an update takes the slot again.
	 */
	if (m->value_type) {
		void *v = m->values + e * m->stride;

		kfsim_bpf_private_free(v, m->value_type);
		kfsim_bpf_section_init(v, m->value_type, m->def->name);
	}
	m->used[e] = false;
	return 0;
}

/*
 * bpf_for_each_map_elem()'s walk (bpfrt_callbacks.c): the map types whose ops have
 * map_for_each_callback (6.12 to 6.18: arrays and hashes, per-CPU and LRU ones too; not maps of
 * maps), their slots in order.
 */
int bpfrt_map_walk_type(const void *def)
{
	const struct bpfrt_map *m = map_of(def);

	if (!m)
		return -1;
	switch (m->def->type) {
	case MAP_ARRAY:
	case MAP_PERCPU_ARRAY:
	case MAP_HASH:
	case MAP_PERCPU_HASH:
	case MAP_LRU_HASH:
		return BPFRT_WALK_OK;
	default:
		return BPFRT_WALK_NOT_ALLOWED;
	}
}

bool bpfrt_map_slot(const void *def, unsigned int pos, void **key, void **value,
		    unsigned int *key_size, unsigned int *value_size)
{
	const struct bpfrt_map *m = map_of(def);

	if (!m || !m->values || pos >= m->def->max_entries)
		return false;
	*key_size = m->def->key_size;
	*value_size = m->def->value_size;
	*value = m->values + pos * m->stride;
	*key = NULL; /* an array's key is its index */
	if (is_hash(m)) {
		*key = m->keys + pos * m->def->key_size;
		if (!m->used[pos])
			*value = NULL;
	}
	return true;
}
