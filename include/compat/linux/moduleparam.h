/* SPDX-License-Identifier: MIT */
/* <linux/moduleparam.h> for kernel code built against kfsim: module_param() and friends, registered in kfsim's module
 * parameter table under KBUILD_MODNAME (see <kfsim/moduleparam.h>): "<module>.<param>=value" on
 * the kfsim command line (or "<param>=value" as insmod takes it) sets them. */
#ifndef KFSIM_COMPAT_LINUX_MODULEPARAM_H
#define KFSIM_COMPAT_LINUX_MODULEPARAM_H
#include <kfsim/moduleparam.h>

#ifndef KBUILD_MODNAME
#error "define KBUILD_MODNAME as kbuild does: -DKBUILD_MODNAME='\"name\"'"
#endif
#ifndef __PASTE
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#endif

/* @type is pasted at this level: "bool" is a macro in userspace (<stdbool.h>). */
#define module_param(name, type, perm)                                                           \
	__kfsim_module_param(name, name, param_ops_##type, __kfsim_param_type_##type, perm)
#define module_param_named(name, value, type, perm)                                              \
	__kfsim_module_param(name, value, param_ops_##type, __kfsim_param_type_##type, perm)
#define module_param_unsafe(name, type, perm) module_param(name, type, perm)
#define core_param(name, var, type, perm) module_param_named(name, var, type, perm)
#define __kfsim_module_param(name, value, ops, ctype, perm)                                      \
	static const struct kernel_param __kfsim_param_##name = {                                \
		#name, &ops, (perm), (void *)(1 ? &(value) : (ctype *)0)                         \
	};                                                                                       \
	__attribute__((constructor)) static void __kfsim_param_register_##name(void)             \
	{                                                                                        \
		kfsim_module_params_register(KBUILD_MODNAME, &__kfsim_param_##name, 1);          \
	}

/* Documentation strings: kept in the object, as modinfo keeps them. */
#define __kfsim_modinfo(tag, info)                                                               \
	static const char __PASTE(__kfsim_modinfo_, __COUNTER__)[]                               \
		__attribute__((__unused__)) = tag "=" info
#define MODULE_PARM_DESC(name, desc) __kfsim_modinfo("parm", #name ":" desc)
#endif /* KFSIM_COMPAT_LINUX_MODULEPARAM_H */
