// SPDX-License-Identifier: MIT
/*
 * The descriptor transports where there is no kernel to reach: the WebAssembly module
 * (cmake/kfsim_wasm_module.cmake swaps this file in for kernel_transport.c).  A page in a
 * browser has neither a NETLINK_GENERIC socket nor a kfsim server's Unix socket, so opening
 * either fails as socket(AF_NETLINK, ...) fails on a system without netlink: -EAFNOSUPPORT.
 * The in-process kernel, which every playground panel uses, is not affected.
 */
#include <errno.h>
#include "nl_transport.h"

int kfsim_nl_kernel_fd(const struct kfsim_nl_client *c)
{
	return -EBADF;
}

int kfsim_nl_server_open(struct kfsim_nl_client *c, const char *path)
{
	return -EAFNOSUPPORT;
}

int kfsim_nl_kernel_open(struct kfsim_nl_client *c)
{
	return -EAFNOSUPPORT;
}

void kfsim_nl_kernel_close(struct kfsim_nl_client *c)
{
}

ssize_t kfsim_nl_kernel_send(struct kfsim_nl_client *c, const void *buf, size_t len)
{
	return -EBADF;
}

ssize_t kfsim_nl_kernel_recv(struct kfsim_nl_client *c, void *buf, size_t len, int timeout_ms)
{
	return -EBADF;
}

int kfsim_nl_kernel_join(struct kfsim_nl_client *c, u32 group)
{
	return -EBADF;
}
