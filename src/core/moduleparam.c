// SPDX-License-Identifier: MIT
/*
 * Module parameters: the parameter types of kernel/params.c and the registry that kfsim's parts
 * (and kernel code built against <linux/moduleparam.h>) fill at start-up.  The command line code
 * (cmdline.c) looks parameters up here; core itself names no module.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/moduleparam.h>
#include <kfsim/printk.h>
#include "cmdline_internal.h"

/* ---- parameter types (kernel/params.c STANDARD_PARAM_DEF and friends) ---- */

/* kstrtou8() and friends: the wide parse, then the type's range (-ERANGE outside it). */
static bool in_range_s(long long v, long long lo, long long hi)
{
	return v >= lo && v <= hi;
}

static bool in_range_u(unsigned long long v, unsigned long long lo, unsigned long long hi)
{
	return v >= lo && v <= hi;
}

#define KFSIM_INT_PARAM(name, type, fmt, lo, hi, parse, wide, in_range)                           \
	static int param_set_##name(const char *val, const struct kernel_param *kp)               \
	{                                                                                         \
		wide v;                                                                           \
		int ret = parse(val, 0, &v);                                                      \
		if (ret)                                                                          \
			return ret;                                                               \
		if (!in_range(v, lo, hi))                                                         \
			return -ERANGE;                                                           \
		*(type *)kp->arg = (type)v;                                                       \
		return 0;                                                                         \
	}                                                                                         \
	static int param_get_##name(char *buffer, const struct kernel_param *kp)                  \
	{                                                                                         \
		return snprintf(buffer, 4096, fmt "\n", *(type *)kp->arg);                        \
	}                                                                                         \
	const struct kernel_param_ops param_ops_##name = { 0, param_set_##name, param_get_##name }

KFSIM_INT_PARAM(byte, unsigned char, "%hhu", 0, UCHAR_MAX, kstrtoull, unsigned long long, in_range_u);
KFSIM_INT_PARAM(short, short, "%hi", SHRT_MIN, SHRT_MAX, kstrtoll, long long, in_range_s);
KFSIM_INT_PARAM(ushort, unsigned short, "%hu", 0, USHRT_MAX, kstrtoull, unsigned long long, in_range_u);
KFSIM_INT_PARAM(int, int, "%i", INT_MIN, INT_MAX, kstrtoll, long long, in_range_s);
KFSIM_INT_PARAM(uint, unsigned int, "%u", 0, UINT_MAX, kstrtoull, unsigned long long, in_range_u);
KFSIM_INT_PARAM(long, long, "%li", LONG_MIN, LONG_MAX, kstrtoll, long long, in_range_s);
KFSIM_INT_PARAM(ulong, unsigned long, "%lu", 0, ULONG_MAX, kstrtoull, unsigned long long, in_range_u);
KFSIM_INT_PARAM(ullong, unsigned long long, "%llu", 0, ULLONG_MAX, kstrtoull, unsigned long long, in_range_u);
KFSIM_INT_PARAM(hexint, unsigned int, "%#08x", 0, UINT_MAX, kstrtoull, unsigned long long, in_range_u);

static int param_set_bool(const char *val, const struct kernel_param *kp)
{
	return kstrtobool(val ? val : "1", kp->arg);	/* a bare word means "set" */
}

static int param_get_bool(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, 4096, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = { KERNEL_PARAM_OPS_FL_NOARG, param_set_bool,
						 param_get_bool };

static int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val ? val : "1", &v);

	if (!ret)
		*(bool *)kp->arg = !v;
	return ret;
}

const struct kernel_param_ops param_ops_invbool = { KERNEL_PARAM_OPS_FL_NOARG, param_set_invbool,
						    param_get_bool };

/* charp values are copies owned here, so a later value frees the earlier one. */
static pthread_mutex_t charp_lock = PTHREAD_MUTEX_INITIALIZER;

static int param_set_charp(const char *val, const struct kernel_param *kp)
{
	size_t len = strnlen(val, 1025);
	char *copy;

	if (len == 1025) {
		pr_err("%s: string parameter too long\n", kp->name);
		return -ENOSPC;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&charp_lock);
	*(char **)kp->arg = copy;	/* the previous copy may be a static default: not freed */
	pthread_mutex_unlock(&charp_lock);
	return 0;
}

static int param_get_charp(char *buffer, const struct kernel_param *kp)
{
	const char *v = *(char **)kp->arg;

	return snprintf(buffer, 4096, "%s\n", v ? v : "(null)");
}

const struct kernel_param_ops param_ops_charp = { 0, param_set_charp, param_get_charp };

/* ---- the registry ---- */

struct registered_param {
	char *module;
	const struct kernel_param *param;
};

static struct registered_param *registry;
static unsigned int nr_registered, registry_cap;
static char **modules;
static unsigned int nr_modules;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* Parameter names treat '-' and '_' alike (parameq()); @n bytes of @a against all of @b. */
bool kfsim_param_name_eq(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n && b[i]; i++) {
		char ca = a[i] == '-' ? '_' : a[i], cb = b[i] == '-' ? '_' : b[i];

		if (ca != cb)
			return false;
	}
	return i == n && !b[i];
}

static bool module_known_locked(const char *name, size_t len)
{
	for (unsigned int i = 0; i < nr_modules; i++)
		if (kfsim_param_name_eq(name, len, modules[i]))
			return true;
	return false;
}

bool kfsim_module_known(const char *name, size_t len)
{
	bool known;

	pthread_mutex_lock(&registry_lock);
	known = module_known_locked(name, len);
	pthread_mutex_unlock(&registry_lock);
	return known;
}

const struct kernel_param *kfsim_module_param_find(const char *name)
{
	const char *dot = strchr(name, '.');
	const struct kernel_param *found = NULL;

	if (!dot)
		return NULL;
	pthread_mutex_lock(&registry_lock);
	for (unsigned int i = 0; i < nr_registered && !found; i++) {
		const struct registered_param *r = &registry[i];

		if (kfsim_param_name_eq(name, (size_t)(dot - name), r->module) &&
		    kfsim_param_name_eq(dot + 1, strlen(dot + 1), r->param->name))
			found = r->param;
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

static int add_module_locked(const char *module)
{
	char **grown;

	if (module_known_locked(module, strlen(module)))
		return 0;
	grown = realloc(modules, (nr_modules + 1) * sizeof(*modules));
	if (!grown)
		return -ENOMEM;
	modules = grown;
	modules[nr_modules] = strdup(module);
	if (!modules[nr_modules])
		return -ENOMEM;
	nr_modules++;
	return 0;
}

int kfsim_module_params_register(const char *module, const struct kernel_param *params,
				 unsigned int n)
{
	int ret;

	if (!module || !*module || strchr(module, '.') || (n && !params))
		return -EINVAL;
	pthread_mutex_lock(&registry_lock);
	ret = add_module_locked(module);
	if (!ret && nr_registered + n > registry_cap) {
		unsigned int cap = (nr_registered + n) * 2;
		struct registered_param *grown = realloc(registry, cap * sizeof(*grown));

		if (grown) {
			registry = grown;
			registry_cap = cap;
		} else {
			ret = -ENOMEM;
		}
	}
	for (unsigned int i = 0; !ret && i < n; i++) {
		registry[nr_registered].module = modules[nr_modules - 1];
		for (unsigned int m = 0; m < nr_modules; m++)
			if (!strcmp(modules[m], module))
				registry[nr_registered].module = modules[m];
		registry[nr_registered].param = &params[i];
		nr_registered++;
	}
	pthread_mutex_unlock(&registry_lock);
	/* A command line parsed before this module "loaded" applies to it now, as modprobe would. */
	for (unsigned int i = 0; !ret && i < n; i++)
		kfsim_cmdline_apply_module_param(module, &params[i]);
	return ret;
}
