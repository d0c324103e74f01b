// SPDX-License-Identifier: MIT
/*
 * One stand-in kernel per process, served by a thread on an abstract socket: what the netlink
 * shim (libkfsim-netlink.so) and the YNL library (KFSIM_KERNEL=inproc) talk to when no
 * `kfsim kernel` server is named.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>

static pthread_mutex_t inproc_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t inproc_pid;
static char inproc_name[64];
static volatile sig_atomic_t inproc_stop;

static void *inproc_thread(void *arg)
{
	struct kfsim_nl_server *server = arg;
	sigset_t all;

	sigfillset(&all);	/* the program's signals are the program's */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	kfsim_nl_server_run(server, &inproc_stop);
	return NULL;
}

/*
 * A server thread on an abstract socket only this process may use: the name is listed in
 * /proc/net/unix for anyone to see, so connections from other processes are refused.  A child
 * after fork() starts its own on first use (sockets opened before the fork still reach the
 * parent's).
 */
int kfsim_standin_inproc_start(const char **path)
{
	struct kfsim_plca_net *net;
	static const struct kfsim_nl_listen_opts own = {
		.mode = -1, .group = (gid_t)-1, .own_process = true,
	};
	struct kfsim_nl_server *server;
	pthread_t thread;
	char err[256];
	int ret = 0;

	pthread_mutex_lock(&inproc_lock);
	if (inproc_pid == getpid())
		goto out;
	snprintf(inproc_name, sizeof(inproc_name), "@kfsim-netlink-%d-%lx", (int)getpid(),
		 (unsigned long)(uintptr_t)&inproc_name ^ (unsigned long)time(NULL));
	net = kfsim_standin_net_create(NULL, err, sizeof(err));
	if (IS_ERR(net)) {
		ret = (int)PTR_ERR(net);
		fprintf(stderr, "kfsim: %s\n", err);
		goto out;
	}
	server = kfsim_nl_server_listen(kfsim_plca_net_kernel(net), inproc_name, &own, err,
				       sizeof(err));
	if (IS_ERR(server)) {
		ret = (int)PTR_ERR(server);
		kfsim_plca_net_destroy(net);
		goto out;
	}
	ret = -pthread_create(&thread, NULL, inproc_thread, server);
	if (ret) {
		kfsim_nl_server_destroy(server);
		kfsim_plca_net_destroy(net);
		goto out;
	}
	pthread_detach(thread);	/* lives as long as the process: its sockets may too */
	inproc_pid = getpid();
out:
	pthread_mutex_unlock(&inproc_lock);
	*path = inproc_name;
	return ret;
}
