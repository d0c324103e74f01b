// SPDX-License-Identifier: MIT
/*
 * The netlink shim's descriptor table (src/standin/netlink_shim/fd_table.c) on its own: what
 * its lockless readers answer as slots come and go.  shim_fdt_may_hold() and
 * shim_fdt_may_be_ctl() are what every read(), write(), close() and dup2() of a program under
 * the shim asks first, and a "maybe" sends the call to the table's lock: once the shim's far
 * sockets are gone they must answer "no" again (attacks.py "shim_signals": a lock a signal
 * handler or a fork()ed child may find held), and their slots must be freed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "standin/netlink_shim/fd_table.h"

/* Stand-ins for the shim's sockets: the table only stores and compares the pointers. */
static struct shim_sock *const sock_a = (struct shim_sock *)0x1000;
static struct shim_sock *const sock_b = (struct shim_sock *)0x2000;

/* Put @s at @fd as its socket (@ctl false) or hidden control descriptor's socket. */
static void put(int fd, struct shim_sock *s, bool ctl)
{
	struct shim_fd_slot *slot = s ? shim_fdt_add(fd) : shim_fdt_find(fd);

	assert_non_null(slot);
	if (ctl)
		shim_fdt_set_ctl(fd, slot, s);
	else
		shim_fdt_set_sock(fd, slot, s);
	shim_fdt_tidy(fd);
}

/* A near and a far socket, each with a control descriptor: asked, then gone, asked again. */
static void test_readers_follow_slots(void **state)
{
	(void)state;
	assert_false(shim_fdt_may_hold(5));
	assert_false(shim_fdt_may_hold(70000));
	assert_false(shim_fdt_may_be_ctl(70001));
	assert_false(shim_fdt_may_hold(-1));
	put(5, sock_a, false);
	put(6, sock_a, true);
	put(70000, sock_b, false);
	put(70001, sock_b, true);
	assert_true(shim_fdt_may_hold(5));
	assert_false(shim_fdt_may_be_ctl(5));
	assert_true(shim_fdt_may_be_ctl(6));
	assert_false(shim_fdt_may_hold(6));
	assert_true(shim_fdt_may_hold(70000));
	assert_true(shim_fdt_may_be_ctl(70001));
	/* another far number of the same residue may be one: the lock decides */
	assert_true(shim_fdt_may_hold(70000 + 4096));
	/* numbers of no far slot's residue are told without the lock */
	assert_false(shim_fdt_may_hold(70002));
	assert_false(shim_fdt_may_be_ctl(1500));
	assert_ptr_equal(shim_fdt_find(70000)->sock, sock_b);
	assert_ptr_equal(shim_fdt_find(70001)->ctl, sock_b);
	assert_null(shim_fdt_find(70000 + 4096));
	assert_int_equal(shim_fdt_far_count(), 2);
	put(5, NULL, false);
	put(6, NULL, true);
	put(70000, NULL, false);
	put(70001, NULL, true);
	assert_false(shim_fdt_may_hold(5));
	assert_false(shim_fdt_may_be_ctl(6));
	assert_false(shim_fdt_may_hold(70000));
	assert_false(shim_fdt_may_be_ctl(70001));
	assert_int_equal(shim_fdt_far_count(), 0);
}

/* shim_fdt_for_each()'s callback: clear whatever the slot holds. */
static void clear(int fd, struct shim_fd_slot *slot, void *arg)
{
	unsigned int *seen = arg;

	(*seen)++;
	if (slot->sock)
		shim_fdt_set_sock(fd, slot, NULL);
	if (slot->ctl)
		shim_fdt_set_ctl(fd, slot, NULL);
}

/* Many far slots up to INT_MAX (the buckets grow), cleared by a walk of a range: all freed. */
static void test_far_slots_walked_and_freed(void **state)
{
	unsigned int seen = 0;

	(void)state;
	for (int i = 0; i < 3000; i++)
		put(2000 + i * 7, sock_a, i % 2);
	put(2147483647, sock_b, false);
	assert_int_equal(shim_fdt_far_count(), 3001);
	assert_true(shim_fdt_may_hold(2147483647));
	shim_fdt_for_each(2000, 2000 + 1499 * 7, clear, &seen);
	assert_int_equal(seen, 1500);
	assert_int_equal(shim_fdt_far_count(), 1501);
	seen = 0;
	shim_fdt_for_each(0, ~0u, clear, &seen);
	assert_int_equal(seen, 1501);
	assert_int_equal(shim_fdt_far_count(), 0);
	for (int fd = 1024; fd < 1024 + 4096; fd++)
		assert_false(shim_fdt_may_hold(fd) || shim_fdt_may_be_ctl(fd));
	assert_false(shim_fdt_may_hold(2147483647));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readers_follow_slots),
		cmocka_unit_test(test_far_slots_walked_and_freed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
