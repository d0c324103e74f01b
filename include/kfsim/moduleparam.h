/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_MODULEPARAM_H
#define KFSIM_MODULEPARAM_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Module parameters (include/linux/moduleparam.h, kernel/params.c).  kfsim's parts play the
 * kernel's built-in modules: each part declares its parameters in a table of its own with
 * KFSIM_MODULE_PARAMS(), and the kernel command line sets them as "<module>.<param>=value",
 * exactly as for a built-in module.  Core names no part: the registry is filled by the parts.
 *
 *	static unsigned int nnodes = 100;
 *	static bool check;
 *	static const struct kernel_param rbtree_params[] = {
 *		KFSIM_PARAM(rbtree, nnodes, uint, 0444),
 *		KFSIM_PARAM(rbtree, check, bool, 0644),
 *	};
 *	KFSIM_MODULE_PARAMS(rbtree, rbtree_params);
 *
 * Kernel code compiled against the compatibility headers uses module_param() as in the kernel
 * (<linux/moduleparam.h> maps it here, with KBUILD_MODNAME as the module name).
 *
 * A value is checked by the parameter's ops->set as in kernel/params.c: int, uint, long, ulong,
 * ullong, short, ushort, byte, hexint through kstrto*() (whole string, optional trailing
 * newline), bool and invbool through kstrtobool() (a bare word sets a bool), charp keeps a copy.
 */
#include <stdbool.h>
#include <kfsim/types.h>

struct kernel_param;

/** KERNEL_PARAM_OPS_FL_NOARG - the parameter may be given without "=value" (bool). */
#define KERNEL_PARAM_OPS_FL_NOARG (1 << 0)

/**
 * struct kernel_param_ops - how a parameter type is set and shown
 * @flags: KERNEL_PARAM_OPS_FL_NOARG or 0
 * @set: parse @val (NULL for a bare word) into kp->arg; 0 or a negative errno
 * @get: print the value into @buffer (at least 4096 bytes); the length
 */
struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

/**
 * struct kernel_param - one parameter
 * @name: the parameter's name inside its module ("nnodes"); the command line says "mod.nnodes"
 * @ops: its type
 * @perm: sysfs permissions, kept for fidelity (kfsim has no sysfs)
 * @arg: the variable
 */
struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	unsigned short perm;
	void *arg;
};

extern const struct kernel_param_ops param_ops_byte, param_ops_short, param_ops_ushort,
	param_ops_int, param_ops_uint, param_ops_long, param_ops_ulong, param_ops_ullong,
	param_ops_hexint, param_ops_bool, param_ops_invbool, param_ops_charp;

/* The C type each parameter type name stands for (module_param()'s compile-time check). */
#define __kfsim_param_type_byte unsigned char
#define __kfsim_param_type_short short
#define __kfsim_param_type_ushort unsigned short
#define __kfsim_param_type_int int
#define __kfsim_param_type_uint unsigned int
#define __kfsim_param_type_long long
#define __kfsim_param_type_ulong unsigned long
#define __kfsim_param_type_ullong unsigned long long
#define __kfsim_param_type_hexint unsigned int
#define __kfsim_param_type_bool bool
#define __kfsim_param_type_invbool bool
#define __kfsim_param_type_charp char *
/* "bool" is a macro in userspace (<stdbool.h>): passed through another macro it arrives as _Bool */
#define param_ops__Bool param_ops_bool
#define __kfsim_param_type__Bool bool

/**
 * KFSIM_PARAM() - a table row: parameter @name of type @type (int, uint, bool, charp, ...) stored
 * in the variable @name, with sysfs permissions @perm; @mod is for symmetry with module_param()
 */
#define KFSIM_PARAM(mod, name, type, perm) KFSIM_PARAM_NAMED(mod, name, name, type, perm)
/** KFSIM_PARAM_NAMED() - KFSIM_PARAM() for a variable @value whose name differs from @name. */
#define KFSIM_PARAM_NAMED(mod, name, value, type, perm)                                           \
	{ #name, &param_ops_##type, (perm),                                                       \
	  (void *)(1 ? &(value) : (__kfsim_param_type_##type *)0) }

/**
 * kfsim_module_params_register() - make module @module and its parameters known
 * @module: the module (part) name, as the command line prefixes it
 * @params: its parameters (may be NULL when @n is 0: a module without parameters)
 * @n: how many
 *
 * Registering the same module again adds parameters to it.  Values given on the command line
 * before registration are applied now.  Return: 0, -EINVAL for a bad name, -ENOMEM.
 */
int kfsim_module_params_register(const char *module, const struct kernel_param *params,
				 unsigned int n);

/** kfsim_module_known() - whether a module called @name (@len bytes) registered itself. */
bool kfsim_module_known(const char *name, size_t len);

/**
 * kfsim_module_param_find() - the parameter "module.param" (dashes and underscores alike)
 *
 * Return: the parameter, or NULL.
 */
const struct kernel_param *kfsim_module_param_find(const char *name);

/**
 * KFSIM_MODULE_PARAMS() - register module @mod with the parameter table @table at start-up
 *
 * Runs as a constructor, so the parameters are known before main() parses a command line.
 */
#define KFSIM_MODULE_PARAMS(mod, table)                                                           \
	__attribute__((constructor)) static void __kfsim_module_params_##mod(void)                \
	{                                                                                         \
		kfsim_module_params_register(#mod, table, sizeof(table) / sizeof((table)[0]));    \
	}

/** KFSIM_MODULE() - register module @mod that has no parameters (yet). */
#define KFSIM_MODULE(mod)                                                                         \
	__attribute__((constructor)) static void __kfsim_module_##mod(void)                       \
	{                                                                                         \
		kfsim_module_params_register(#mod, NULL, 0);                                      \
	}

/**
 * kfsim_module_run() - run a kernel module as a userspace program (the main() that
 * <linux/module.h> of the compatibility headers gives a module)
 * @name: the module's name (KBUILD_MODNAME)
 * @init: its module_init() function, or NULL
 * @exit: its module_exit() function, or NULL
 * @argc: main()'s arguments: words of a kernel command line ("quiet", "loglevel=8",
 * @argv:   "<module>.<param>=value"), where "<param>=value" alone is taken as this module's
 *          parameter, as insmod takes it
 *
 * Parses the words with kfsim_cmdline_parse(), runs @init, and @exit when @init returned 0
 * (the module is then unloaded, as rmmod would).  What the module prints goes to the kfsim log
 * and, at the default console level 7, to stderr.
 *
 * Return: the exit status: 0 when @init returned 0 without a WARN; 1 when a WARN or BUG report
 * was logged; 2 when @init failed ("insmod: ERROR: could not insert module <name>.ko: <reason>"
 * on stderr, as insmod says it) or the command line was refused.
 */
int kfsim_module_run(const char *name, int (*init)(void), void (*exit)(void), int argc,
		     char **argv);

#pragma GCC visibility pop
#endif /* KFSIM_MODULEPARAM_H */
