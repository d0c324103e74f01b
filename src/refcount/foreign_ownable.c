// SPDX-License-Identifier: MIT
/*
 * ForeignOwnable (rust/kernel/types.rs, 6.3) for box, arc and unit, with a debugobjects-style
 * checker.
 *
 * Debug-mode invariants: every cookie handed out while debug mode is on has one entry in the
 * table; @owners counts the into_foreign() not yet matched by from_foreign() (an Arc can be
 * handed out once per reference; a box once), and an entry at 0 owners stays as a tombstone so
 * a second take-back or a late borrow is recognised.  @borrows and @mut_borrowed describe the
 * live borrows.  A rule violation changes nothing: no count, no object.
 *
 * The table is process-global, as the kernel's debugobjects table is; it is allocated with
 * malloc, not kmalloc, so that fault injection aimed at the caller's kmalloc()s never hits it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/foreign_ownable.h>
#include "refcount/arc_internal.h"

/* --- the owning kinds ------------------------------------------------------------------------ */

static void *box_identity(void *ptr)
{
	return ptr;
}

const struct foreign_ownable_ops foreign_box = {
	.name = "box",
	.into_foreign = box_identity,
	.borrow = box_identity,
	.from_foreign = box_identity,
};

static void *arc_into_foreign(void *owned)
{
	struct arc_inner *inner = arc_inner_of(owned, "into_foreign");

	return inner ? (void *)inner : ERR_PTR(-EINVAL);
}

static void *arc_data_of_cookie(void *foreign)
{
	struct arc_inner *inner = foreign;

	if (inner->magic != ARC_MAGIC) {
		pr_err("foreign_ownable: arc: cookie %p is not an Arc (bad magic %#x)\n", foreign,
		       inner->magic);
		return ERR_PTR(-EINVAL);
	}
	return inner->data;
}

const struct foreign_ownable_ops foreign_arc = {
	.name = "arc",
	.into_foreign = arc_into_foreign,
	.borrow = arc_data_of_cookie,
	.from_foreign = arc_data_of_cookie,
	.shared_mut = true,
};

static void *unit_into_foreign(void *owned)
{
	return (void *)&foreign_unit;	/* any fixed non-NULL address: Rust uses NonNull::dangling() */
}

static void *unit_nothing(void *foreign)
{
	return NULL;
}

const struct foreign_ownable_ops foreign_unit = {
	.name = "unit",
	.into_foreign = unit_into_foreign,
	.borrow = unit_nothing,
	.from_foreign = unit_nothing,
};

/* --- the debug table --------------------------------------------------------------------------- */

#define FOREIGN_HASH_BITS 10
#define FOREIGN_HASH_SIZE (1u << FOREIGN_HASH_BITS)

struct foreign_entry {
	struct foreign_entry *next;
	void *cookie;
	const struct foreign_ownable_ops *ops;
	unsigned int owners;
	unsigned int borrows;
	bool mut_borrowed;
};

static atomic_bool foreign_debug;
static pthread_mutex_t foreign_table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct foreign_entry *foreign_table[FOREIGN_HASH_SIZE];

static unsigned int foreign_hash(const void *cookie)
{
	uintptr_t key = (uintptr_t)cookie >> 4;

	return (unsigned int)((key * 0x9e3779b97f4a7c15ull) >> (64 - FOREIGN_HASH_BITS));
}

static struct foreign_entry *foreign_lookup(const void *cookie)
{
	struct foreign_entry *entry = foreign_table[foreign_hash(cookie)];

	while (entry && entry->cookie != cookie)
		entry = entry->next;
	return entry;
}

static void foreign_table_clear(void)
{
	for (unsigned int bucket = 0; bucket < FOREIGN_HASH_SIZE; bucket++) {
		while (foreign_table[bucket]) {
			struct foreign_entry *entry = foreign_table[bucket];

			foreign_table[bucket] = entry->next;
			free(entry);
		}
	}
}

bool kfsim_foreign_debug_set(bool on)
{
	bool was;

	pthread_mutex_lock(&foreign_table_lock);
	was = atomic_exchange(&foreign_debug, on);
	if (!on)
		foreign_table_clear();
	pthread_mutex_unlock(&foreign_table_lock);
	return was;
}

/*
 * The entry @op may act on, or NULL after reporting why not.  Unknown cookies and cookies
 * already taken back are -EINVAL; the caller then checks borrows.
 */
static struct foreign_entry *foreign_owned_entry(const struct foreign_ownable_ops *ops,
						 void *cookie, const char *op, int *err)
{
	struct foreign_entry *entry = foreign_lookup(cookie);

	*err = -EINVAL;
	if (!entry) {
		WARN(1, "foreign_ownable: %s: %s() of %p, which into_foreign() never returned\n",
		     ops->name, op, cookie);
		return NULL;
	}
	if (entry->ops != ops) {
		WARN(1, "foreign_ownable: %s: %s() of %p, which into_foreign() made as a %s\n",
		     ops->name, op, cookie, entry->ops->name);
		return NULL;
	}
	if (!entry->owners) {
		WARN(1, "foreign_ownable: %s: %s() of %p after from_foreign() took it back%s\n",
		     ops->name, op, cookie, op[0] == 'f' ? " (double take-back)" : "");
		return NULL;
	}
	return entry;
}

static int foreign_debug_into(const struct foreign_ownable_ops *ops, void *cookie)
{
	struct foreign_entry *entry = foreign_lookup(cookie);

	if (entry && entry->owners && (entry->ops != ops || ops == &foreign_box)) {
		WARN(1, "foreign_ownable: %s: into_foreign() of %p, which C code already owns\n",
		     ops->name, cookie);
		return -EINVAL;
	}
	if (!entry) {
		entry = calloc(1, sizeof(*entry));
		if (!entry) {
			pr_warn_once("foreign_ownable: out of memory for debug tracking\n");
			return 0;
		}
		entry->cookie = cookie;
		entry->next = foreign_table[foreign_hash(cookie)];
		foreign_table[foreign_hash(cookie)] = entry;
	}
	if (!entry->owners) {
		entry->borrows = 0;
		entry->mut_borrowed = false;
	}
	entry->ops = ops;
	entry->owners++;
	return 0;
}

/* --- the operations ------------------------------------------------------------------------- */

static bool foreign_cookie_ok(const struct foreign_ownable_ops *ops, void *cookie, const char *op)
{
	if (cookie && !IS_ERR(cookie))
		return true;
	WARN(1, "foreign_ownable: %s: %s() of a %s cookie\n", ops->name, op,
	     cookie ? "ERR_PTR" : "NULL");
	return false;
}

void *foreign_into(const struct foreign_ownable_ops *ops, void *owned)
{
	void *cookie;
	int err = 0;

	if (ops != &foreign_unit && (!owned || IS_ERR(owned))) {
		WARN(1, "foreign_ownable: %s: into_foreign() of a %s object\n", ops->name,
		     owned ? "ERR_PTR" : "NULL");
		return ERR_PTR(-EINVAL);
	}
	cookie = ops->into_foreign(owned);
	if (IS_ERR(cookie) || !atomic_load(&foreign_debug))
		return cookie;
	pthread_mutex_lock(&foreign_table_lock);
	if (atomic_load(&foreign_debug))
		err = foreign_debug_into(ops, cookie);
	pthread_mutex_unlock(&foreign_table_lock);
	return err ? ERR_PTR(err) : cookie;
}

const void *foreign_borrow(const struct foreign_ownable_ops *ops, void *foreign)
{
	struct foreign_entry *entry;
	int err = 0;

	if (!foreign_cookie_ok(ops, foreign, "borrow"))
		return ERR_PTR(-EINVAL);
	if (atomic_load(&foreign_debug)) {
		pthread_mutex_lock(&foreign_table_lock);
		entry = foreign_owned_entry(ops, foreign, "borrow", &err);
		if (entry && entry->mut_borrowed) {
			WARN(1, "foreign_ownable: %s: borrow() of %p while a borrow_mut() is live\n",
			     ops->name, foreign);
			entry = NULL;
			err = -EBUSY;
		}
		if (entry) {
			entry->borrows++;
			err = 0;
		}
		pthread_mutex_unlock(&foreign_table_lock);
		if (err)
			return ERR_PTR(err);
	}
	return ops->borrow(foreign);
}

void foreign_borrow_end(const struct foreign_ownable_ops *ops, void *foreign)
{
	struct foreign_entry *entry;

	if (!atomic_load(&foreign_debug))
		return;
	pthread_mutex_lock(&foreign_table_lock);
	entry = foreign_lookup(foreign);
	if (entry && entry->borrows)
		entry->borrows--;
	else
		WARN(1, "foreign_ownable: %s: borrow_end() of %p without a live borrow()\n",
		     ops->name, foreign);
	pthread_mutex_unlock(&foreign_table_lock);
}

/* Whether @entry still has borrows live; warns, as taking ownership or a mutable borrow
 * then would break Rust's aliasing rules.  Called with foreign_table_lock held. */
static bool borrows_live(const struct foreign_ownable_ops *ops, void *foreign,
			 const struct foreign_entry *entry, const char *what)
{
	if (!entry->borrows && !entry->mut_borrowed)
		return false;
	WARN(1, "foreign_ownable: %s: %s() of %p while %u borrow()%s and %s borrow_mut() are live\n",
	     ops->name, what, foreign, entry->borrows, entry->borrows == 1 ? "" : "s",
	     entry->mut_borrowed ? "a" : "no");
	return true;
}

void *foreign_borrow_mut(const struct foreign_ownable_ops *ops, void *foreign,
			 struct foreign_borrow_mut *guard)
{
	struct foreign_entry *entry;
	void *data;
	int err = 0;

	*guard = (struct foreign_borrow_mut){ 0 };
	if (!foreign_cookie_ok(ops, foreign, "borrow_mut"))
		return ERR_PTR(-EINVAL);
	if (atomic_load(&foreign_debug)) {
		pthread_mutex_lock(&foreign_table_lock);
		entry = foreign_owned_entry(ops, foreign, "borrow_mut", &err);
		if (entry && borrows_live(ops, foreign, entry, "borrow_mut")) {
			entry = NULL;
			err = -EBUSY;
		}
		if (entry) {
			entry->mut_borrowed = true;
			err = 0;
		}
		pthread_mutex_unlock(&foreign_table_lock);
		if (err)
			return ERR_PTR(err);
	}
	data = ops->borrow(foreign);
	if (IS_ERR(data))
		return data;
	*guard = (struct foreign_borrow_mut){ .ops = ops, .foreign = foreign, .data = data };
	return data;
}

void foreign_borrow_mut_end(struct foreign_borrow_mut *guard)
{
	struct foreign_entry *entry;

	if (!guard->ops)
		return;
	if (atomic_load(&foreign_debug)) {
		pthread_mutex_lock(&foreign_table_lock);
		entry = foreign_lookup(guard->foreign);
		if (entry)
			entry->mut_borrowed = false;
		pthread_mutex_unlock(&foreign_table_lock);
	}
	guard->ops = NULL;
}

void *foreign_from(const struct foreign_ownable_ops *ops, void *foreign)
{
	struct foreign_entry *entry;
	int err = 0;

	if (!foreign_cookie_ok(ops, foreign, "from_foreign"))
		return ERR_PTR(-EINVAL);
	if (atomic_load(&foreign_debug)) {
		pthread_mutex_lock(&foreign_table_lock);
		entry = foreign_owned_entry(ops, foreign, "from_foreign", &err);
		if (entry && borrows_live(ops, foreign, entry, "from_foreign")) {
			entry = NULL;
			err = -EBUSY;
		}
		if (entry) {
			entry->owners--;
			err = 0;
		}
		pthread_mutex_unlock(&foreign_table_lock);
		if (err)
			return ERR_PTR(err);
	}
	return ops->from_foreign(foreign);
}

void *foreign_try_from(const struct foreign_ownable_ops *ops, void *foreign)
{
	return foreign ? foreign_from(ops, foreign) : NULL;
}
