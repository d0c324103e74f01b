/* SPDX-License-Identifier: MIT */
/* The shim's descriptor table: which descriptor numbers are its sockets (fd_table.c). */
#ifndef KFSIM_NETLINK_SHIM_FD_TABLE_H
#define KFSIM_NETLINK_SHIM_FD_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* The shim's own, not exported (why: host_guard.h). */
#pragma GCC visibility push(hidden)

struct shim_sock;

/* What one descriptor number is to the shim. */
struct shim_fd_slot {
	struct shim_sock *sock;	/* the socket the program's descriptor refers to */
	struct shim_sock *ctl;	/* the socket whose hidden control descriptor this is */
};

/*
 * May @fd refer to one of the shim's sockets?  Without a lock: false means certainly not (the
 * path every read() and write() of the program takes); true means look with shim_fdt_find().
 */
bool shim_fdt_may_hold(int fd);

/* May @fd be a hidden control descriptor?  Without a lock, as shim_fdt_may_hold(). */
bool shim_fdt_may_be_ctl(int fd);

/* The slot of @fd, or NULL when it has none.  Under the caller's table lock, as all below. */
struct shim_fd_slot *shim_fdt_find(int fd);

/* The slot of @fd, made empty if it had none; NULL for a negative @fd or out of memory. */
struct shim_fd_slot *shim_fdt_add(int fd);

/*
 * Make @s (or NULL) the socket, or the control descriptor's socket, of @slot (of @fd): the one
 * way to change a slot's fields, since shim_fdt_may_hold() and shim_fdt_may_be_ctl() read them
 * without the lock and the far slots in use are counted.
 */
void shim_fdt_set_sock(int fd, struct shim_fd_slot *slot, struct shim_sock *s);
void shim_fdt_set_ctl(int fd, struct shim_fd_slot *slot, struct shim_sock *s);

/* Forget @fd's slot if both its fields are NULL (the memory of a far one is freed). */
void shim_fdt_tidy(int fd);

/*
 * Call @fn on every slot whose number is in [@first, @last], in no particular order; @fn may
 * clear the fields of any slot (with shim_fdt_set_sock() and shim_fdt_set_ctl()) but adds
 * none and frees none (no shim_fdt_tidy()).  Slots left empty are forgotten afterwards.
 */
void shim_fdt_for_each(unsigned int first, unsigned int last,
		       void (*fn)(int fd, struct shim_fd_slot *slot, void *arg), void *arg);

/* How many slots above the array there are (the caller sweeps when they have doubled). */
size_t shim_fdt_far_count(void);

#pragma GCC visibility pop

#endif
