// SPDX-License-Identifier: MIT
/*
 * This process's own kernel, as the netlink client reaches it (KFSIM_KERNEL=inproc): the
 * client side knows only that some part of the program provides one and where it listens.
 * The stand-in kernel (src/standin/) provides it when libkfsim is loaded; the YNL library and
 * every other user of the client ask for it here, so that no library below the stand-in starts
 * the stand-in itself (issue 33).
 *
 * The one provider is global state, as the kernel's registered protocols are: it is set once
 * at load time, before threads, and read under a lock so that a late provide() is safe.
 */
#include <pthread.h>
#include <kfsim/err.h>
#include <kfsim/nl_client.h>

static pthread_mutex_t provider_lock = PTHREAD_MUTEX_INITIALIZER;
static int (*provider)(const char **path);

void kfsim_nl_inproc_provide(int (*start)(const char **path))
{
	pthread_mutex_lock(&provider_lock);
	provider = start;
	pthread_mutex_unlock(&provider_lock);
}

struct kfsim_nl_client *kfsim_nl_client_open_inproc(void)
{
	int (*start)(const char **path);
	const char *path = NULL;
	int ret;

	pthread_mutex_lock(&provider_lock);
	start = provider;
	pthread_mutex_unlock(&provider_lock);
	if (!start)
		return ERR_PTR(-EPROTONOSUPPORT);
	ret = start(&path);
	if (ret)
		return ERR_PTR(ret);
	return kfsim_nl_client_open_server(path);
}
