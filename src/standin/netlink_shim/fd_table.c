// SPDX-License-Identifier: MIT
/*
 * The shim's descriptor table: which of the program's descriptor numbers are its netlink
 * sockets, and which are their hidden control descriptors.
 *
 * A descriptor number goes as high as the kernel lets the program's RLIMIT_NOFILE go
 * (fs.nr_open: 1048576 by default, up to 2^31 - 64), and dup2(), dup3() and fcntl(F_DUPFD) put
 * a socket at any of them.  The table was a fixed array of 65536 before: a socket dup2()'d to
 * 65536 or above was no longer the shim's, so its SOL_NETLINK options reached the UNIX socket
 * beneath, getsockname() named it AF_UNIX and a send over 64 KiB went out unchecked, and a
 * socket() whose descriptors came above it failed with EMFILE.
 *
 * Invariants kept:
 *  - Every number from 0 to INT_MAX has a slot when the shim asks: numbers below
 *    SHIM_FDT_NEAR (where a program's descriptors nearly always are) in an array, read without
 *    a lock on the path every read(), write(), close() and dup2() of the program takes; higher
 *    ones in a hash of the slots in use, looked at under the caller's lock, and only when the
 *    lockless far_hint[] count of their number's residue is not 0.
 *  - A descriptor that is none of the shim's is decided without the lock (shim_fdt_may_hold(),
 *    shim_fdt_may_be_ctl()), but for a far number whose residue a far slot in use shares: the
 *    program's close() and dup2() are async-signal-safe, and a handler's call that waited for
 *    the lock its own thread held hung for ever (measured 2026-12-07: tests/clients/attacks.py
 *    "shim_signals"), as did a fork()ed child's first close() when another thread held it.
 *  - Memory is the array plus one small entry per far slot in use: the caller sweeps the far
 *    slots whose descriptor is gone each time they have doubled (netlink_shim.c), so they stay
 *    within twice the descriptors the program has open.
 *  - Every function but shim_fdt_may_hold() runs under the caller's table lock.
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdlib.h>

#include "fd_table.h"

#define SHIM_FDT_NEAR 1024
#define SHIM_FDT_MIN_HEADS 64
#define SHIM_FDT_HINTS 4096	/* far_hint[]'s residues: a power of two */

struct far_slot {
	struct far_slot *next;
	int fd;
	struct shim_fd_slot slot;
};

static struct shim_fd_slot near[SHIM_FDT_NEAR];
static unsigned int near_end;		/* above every near slot ever used */
static struct far_slot **far_heads;
static size_t far_nr_heads, far_nr;	/* buckets (a power of two), slots */
/* far slots in use (a sock or a ctl) per residue of their number: read without the lock */
static unsigned int far_hint[SHIM_FDT_HINTS];

static bool slot_empty(const struct shim_fd_slot *slot)
{
	return !slot->sock && !slot->ctl;
}

static struct far_slot **far_bucket(int fd)
{
	return &far_heads[(size_t)fd & (far_nr_heads - 1)];
}

static unsigned int *far_hint_of(int fd)
{
	return &far_hint[(unsigned int)fd & (SHIM_FDT_HINTS - 1)];
}

bool shim_fdt_may_hold(int fd)
{
	if (fd < 0)
		return false;
	if (fd < SHIM_FDT_NEAR)
		return __atomic_load_n(&near[fd].sock, __ATOMIC_ACQUIRE) != NULL;
	return __atomic_load_n(far_hint_of(fd), __ATOMIC_ACQUIRE) != 0;
}

bool shim_fdt_may_be_ctl(int fd)
{
	if (fd < 0)
		return false;
	if (fd < SHIM_FDT_NEAR)
		return __atomic_load_n(&near[fd].ctl, __ATOMIC_ACQUIRE) != NULL;
	return __atomic_load_n(far_hint_of(fd), __ATOMIC_ACQUIRE) != 0;
}

static struct far_slot *far_find(int fd)
{
	struct far_slot *far;

	if (!far_nr_heads)
		return NULL;
	for (far = *far_bucket(fd); far && far->fd != fd; far = far->next)
		;
	return far;
}

struct shim_fd_slot *shim_fdt_find(int fd)
{
	struct far_slot *far;

	if (fd < 0)
		return NULL;
	if (fd < SHIM_FDT_NEAR)
		return slot_empty(&near[fd]) ? NULL : &near[fd];
	far = far_find(fd);
	return far ? &far->slot : NULL;
}

/* Rehash into @nr_heads buckets; on failure the old ones stay (longer chains, still right). */
static void far_resize(size_t nr_heads)
{
	struct far_slot **heads = calloc(nr_heads, sizeof(*heads));
	struct far_slot **old = far_heads;
	size_t old_nr = far_nr_heads;

	if (!heads)
		return;
	far_heads = heads;
	far_nr_heads = nr_heads;
	for (size_t i = 0; i < old_nr; i++) {
		while (old[i]) {
			struct far_slot *far = old[i];

			old[i] = far->next;
			far->next = *far_bucket(far->fd);
			*far_bucket(far->fd) = far;
		}
	}
	free(old);
}

struct shim_fd_slot *shim_fdt_add(int fd)
{
	struct far_slot *far;

	if (fd < 0)
		return NULL;
	if (fd < SHIM_FDT_NEAR) {
		if ((unsigned int)fd >= near_end)
			near_end = (unsigned int)fd + 1;
		return &near[fd];
	}
	far = far_find(fd);
	if (far)
		return &far->slot;
	if (far_nr >= far_nr_heads)
		far_resize(far_nr_heads ? far_nr_heads * 2 : SHIM_FDT_MIN_HEADS);
	if (!far_nr_heads)
		return NULL;
	far = calloc(1, sizeof(*far));
	if (!far)
		return NULL;
	far->fd = fd;
	far->next = *far_bucket(fd);
	*far_bucket(fd) = far;
	far_nr++;
	return &far->slot;
}

/*
 * Store @s in @field of @slot (of @fd), keeping far_hint[]: counted up before a far slot is
 * used, so that a lockless reader who sees the field set sees the hint too, and down after.
 */
static void set_field(int fd, struct shim_fd_slot *slot, struct shim_sock **field,
		      struct shim_sock *s)
{
	bool was_empty = slot_empty(slot), far = fd >= SHIM_FDT_NEAR;
	unsigned int *hint = far_hint_of(fd);

	if (far && was_empty && s)
		__atomic_store_n(hint, *hint + 1, __ATOMIC_RELEASE);
	__atomic_store_n(field, s, __ATOMIC_RELEASE);
	if (far && !was_empty && slot_empty(slot))
		__atomic_store_n(hint, *hint - 1, __ATOMIC_RELEASE);
}

void shim_fdt_set_sock(int fd, struct shim_fd_slot *slot, struct shim_sock *s)
{
	set_field(fd, slot, &slot->sock, s);
}

void shim_fdt_set_ctl(int fd, struct shim_fd_slot *slot, struct shim_sock *s)
{
	set_field(fd, slot, &slot->ctl, s);
}

/* Unlink and free the far slots in [@first, @last] left empty. */
static void far_tidy_range(unsigned int first, unsigned int last)
{
	for (size_t i = 0; i < far_nr_heads; i++) {
		struct far_slot **link = &far_heads[i];

		while (*link) {
			struct far_slot *far = *link;

			if ((unsigned int)far->fd < first || (unsigned int)far->fd > last ||
			    !slot_empty(&far->slot)) {
				link = &far->next;
				continue;
			}
			*link = far->next;
			free(far);
			far_nr--;
		}
	}
	if (far_nr_heads > SHIM_FDT_MIN_HEADS && far_nr < far_nr_heads / 8)
		far_resize(far_nr_heads / 2);
}

void shim_fdt_tidy(int fd)
{
	struct far_slot *far, **link;

	if (fd < SHIM_FDT_NEAR || !far_nr_heads)
		return;
	for (link = far_bucket(fd); (far = *link) && far->fd != fd; link = &far->next)
		;
	if (!far || !slot_empty(&far->slot))
		return;
	*link = far->next;
	free(far);
	far_nr--;
}

void shim_fdt_for_each(unsigned int first, unsigned int last,
		       void (*fn)(int fd, struct shim_fd_slot *slot, void *arg), void *arg)
{
	for (unsigned int fd = first; fd <= last && fd < near_end; fd++)
		if (!slot_empty(&near[fd]))
			fn((int)fd, &near[fd], arg);
	if (last < SHIM_FDT_NEAR || !far_nr)
		return;
	for (size_t i = 0; i < far_nr_heads; i++)
		for (struct far_slot *far = far_heads[i]; far; far = far->next)
			if ((unsigned int)far->fd >= first && (unsigned int)far->fd <= last &&
			    !slot_empty(&far->slot))
				fn(far->fd, &far->slot, arg);
	far_tidy_range(first, last);
}

size_t shim_fdt_far_count(void)
{
	return far_nr;
}
