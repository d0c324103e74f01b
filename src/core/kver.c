// SPDX-License-Identifier: MIT
/* The kernel version kfsim follows: one process-global setting, read by the parts. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>

static atomic_uint kernel_version = KFSIM_KERNEL_VERSION_DEFAULT;

int kfsim_set_kernel_version(unsigned int code)
{
	if (code < (unsigned int)KERNEL_VERSION(4, 0, 0) || code > (unsigned int)KERNEL_VERSION(255, 255, 255))
		return -EINVAL;
	atomic_store(&kernel_version, code);
	return 0;
}

unsigned int kfsim_kernel_version(void)
{
	return atomic_load(&kernel_version);
}

static int parse_component(const char **text, unsigned long *out)
{
	char *end;

	if (**text < '0' || **text > '9')
		return -EINVAL;
	*out = strtoul(*text, &end, 10);
	if (*out > 255)
		return -EINVAL;
	*text = end;
	return 0;
}

int kfsim_kver_parse(const char *text, unsigned int *code)
{
	unsigned long major, minor, patch = 0;

	if (!text || parse_component(&text, &major) || *text++ != '.' ||
	    parse_component(&text, &minor))
		return -EINVAL;
	if (*text == '.' && (text++, parse_component(&text, &patch)))
		return -EINVAL;
	if (*text)
		return -EINVAL;
	*code = KERNEL_VERSION(major, minor, patch);
	return 0;
}

char *kfsim_kver_format(unsigned int code, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u.%u", code >> 16, (code >> 8) & 0xff, code & 0xff);
	return buf;
}
