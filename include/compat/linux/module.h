/* SPDX-License-Identifier: MIT */
/* <linux/module.h> for kernel code built against kfsim: module_init()/module_exit() run as a userspace program: the
 * module's main() parses its arguments as a kfsim kernel command line, runs the init function
 * (then the exit function if init returned 0), and exits as insmod would (kfsim_module_run()).
 * Define KFSIM_NO_MODULE_MAIN to write main() yourself and call kfsim_module_run(). */
#ifndef KFSIM_COMPAT_LINUX_MODULE_H
#define KFSIM_COMPAT_LINUX_MODULE_H
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

#define MODULE_LICENSE(l) __kfsim_modinfo("license", l)
#define MODULE_AUTHOR(a) __kfsim_modinfo("author", a)
#define MODULE_DESCRIPTION(d) __kfsim_modinfo("description", d)
#define MODULE_VERSION(v) __kfsim_modinfo("version", v)
#define MODULE_ALIAS(a) __kfsim_modinfo("alias", a)
#define MODULE_IMPORT_NS(ns) __kfsim_modinfo("import_ns", #ns)
#define THIS_MODULE ((struct module *)0)
struct module;

static int (*__kfsim_module_init)(void) __attribute__((__unused__));
static void (*__kfsim_module_exit)(void) __attribute__((__unused__));

#define module_init(fn)                                                                          \
	__attribute__((constructor)) static void __kfsim_module_init_##fn(void)                  \
	{                                                                                        \
		__kfsim_module_init = fn;                                                        \
	}                                                                                        \
	__KFSIM_MODULE_MAIN
#define module_exit(fn)                                                                          \
	__attribute__((constructor)) static void __kfsim_module_exit_##fn(void)                  \
	{                                                                                        \
		__kfsim_module_exit = fn;                                                        \
	}
#define late_initcall(fn) module_init(fn)
#define device_initcall(fn) module_init(fn)

#ifdef KFSIM_NO_MODULE_MAIN
#define __KFSIM_MODULE_MAIN
#else
#define __KFSIM_MODULE_MAIN                                                                      \
	int main(int argc, char **argv)                                                          \
	{                                                                                        \
		return kfsim_module_run(KBUILD_MODNAME, __kfsim_module_init, __kfsim_module_exit,  \
					argc, argv);                                             \
	}
#endif
#endif /* KFSIM_COMPAT_LINUX_MODULE_H */
