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

static const struct elevator_type *elv_table[ELV_MAX_TYPES] = {
	&bfq_iosched,
	&bfq_62_iosched,
	&none_iosched,
	&mq_deadline_iosched,
};
static unsigned int elv_count = 4;
#define ELV_NR_BUILTIN 4U

const struct elevator_type *elv_find(const char *name)
{
	if (!name)
		return NULL;
	for (unsigned int i = 0; i < elv_count; i++) {
		if (!strcmp(elv_table[i]->elevator_name, name))
			return elv_table[i];
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
	if (elv_count == ELV_MAX_TYPES)
		return -ENOSPC;
	elv_table[elv_count++] = e;
	return 0;
}

void elv_unregister(const struct elevator_type *e)
{
	for (unsigned int i = ELV_NR_BUILTIN; i < elv_count; i++) {
		if (elv_table[i] == e) {
			memmove(&elv_table[i], &elv_table[i + 1],
				(elv_count - i - 1) * sizeof(elv_table[0]));
			elv_table[--elv_count] = NULL;
			return;
		}
	}
}

unsigned int elv_nr_types(void)
{
	return elv_count;
}

const struct elevator_type *elv_type(unsigned int idx)
{
	return idx < elv_count ? elv_table[idx] : NULL;
}

size_t elv_names(char *buf, size_t len, const char *sep)
{
	size_t used = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (unsigned int i = 0; i < elv_count && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "",
				 elv_table[i]->elevator_name);

		if (n < 0)
			break;
		used = min(used + (size_t)n, len - 1);
	}
	return used;
}
