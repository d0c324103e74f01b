// SPDX-License-Identifier: MIT
/*
 * The scheduler registry (block/elevator.c's elv_list): the built-in rows first, in the order
 * of enum kfsim_bfq_sched, then whatever elv_register() added.  Names are unique.
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>

/*
 * The built-in schedulers, in the order of enum kfsim_bfq_sched: one row X(name) each, for the
 * `const struct elevator_type name_iosched` its own file (src/bfq/sched_<name>.c) defines.  The
 * rows declare the types and fill the table, and the table counts itself; what
 * elv_register() adds goes after it, in elv_added[].
 */
#define ELV_BUILTIN_TYPES(X)	\
	X(bfq)			\
	X(bfq_62)		\
	X(none)			\
	X(mq_deadline)

#define ELV_DECLARE(name) extern const struct elevator_type name##_iosched;
#define ELV_POINTER(name) &name##_iosched,
ELV_BUILTIN_TYPES(ELV_DECLARE)

static const struct elevator_type *const elv_builtin[] = { ELV_BUILTIN_TYPES(ELV_POINTER) };
#define ELV_NR_BUILTIN ARRAY_SIZE(elv_builtin)
_Static_assert(ARRAY_SIZE(elv_builtin) <= ELV_MAX_TYPES, "ELV_MAX_TYPES below the built-in rows");

/* Global as the kernel's elv_list is: the types registered at run time, in order. */
static const struct elevator_type *elv_added[ELV_MAX_TYPES - ELV_NR_BUILTIN + 1];
static unsigned int elv_nr_added;

const struct elevator_type *elv_type(unsigned int idx)
{
	if (idx < ELV_NR_BUILTIN)
		return elv_builtin[idx];
	idx -= ELV_NR_BUILTIN;
	return idx < elv_nr_added ? elv_added[idx] : NULL;
}

const struct elevator_type *elv_find(const char *name)
{
	const struct elevator_type *e;

	if (!name)
		return NULL;
	for (unsigned int i = 0; (e = elv_type(i)); i++) {
		if (!strcmp(e->elevator_name, name))
			return e;
	}
	return NULL;
}

int elv_register(const struct elevator_type *e)
{
	const struct elevator_mq_ops *ops = e ? &e->ops : NULL;

	if (!e || !e->elevator_name || !*e->elevator_name || !ops->init_sched ||
	    !ops->exit_sched || !ops->insert_requests || !ops->dispatch_request ||
	    !ops->has_work || (ops->next_timer && !ops->timer_fn))
		return -EINVAL;
	if (elv_find(e->elevator_name)) {
		pr_err("elevator: %s already registered\n", e->elevator_name);
		return -EBUSY;
	}
	if (ELV_NR_BUILTIN + elv_nr_added >= ELV_MAX_TYPES)
		return -ENOSPC;
	elv_added[elv_nr_added++] = e;
	return 0;
}

void elv_unregister(const struct elevator_type *e)
{
	for (unsigned int i = 0; i < elv_nr_added; i++) {
		if (elv_added[i] == e) {
			memmove(&elv_added[i], &elv_added[i + 1],
				(elv_nr_added - i - 1) * sizeof(elv_added[0]));
			elv_added[--elv_nr_added] = NULL;
			return;
		}
	}
}

unsigned int elv_nr_types(void)
{
	return ELV_NR_BUILTIN + elv_nr_added;
}

size_t elv_names(char *buf, size_t len, const char *sep)
{
	const struct elevator_type *e;
	size_t used = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (unsigned int i = 0; (e = elv_type(i)) && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "", e->elevator_name);

		if (n < 0)
			break;
		used = min(used + (size_t)n, len - 1);
	}
	return used;
}
