/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_CMDLINE_INTERNAL_H
#define KFSIM_CORE_CMDLINE_INTERNAL_H

/* What the command line (cmdline.c) and the module parameter registry (moduleparam.c) share. */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/moduleparam.h>

/* parameq(): the first @n bytes of @a name the same parameter as all of @b ('-' == '_'). */
bool kfsim_param_name_eq(const char *a, size_t n, const char *b);

/* Apply the boot command line's value of "@module.<param>" (if any) to @param. */
void kfsim_cmdline_apply_module_param(const char *module, const struct kernel_param *param);

#endif /* KFSIM_CORE_CMDLINE_INTERNAL_H */
