// SPDX-License-Identifier: MIT
/*
 * One stand-in kernel per process, served by a thread on an abstract socket: what the netlink
 * shim (libkfsim-netlink.so) and the YNL library (KFSIM_KERNEL=inproc) talk to when no
 * `kfsim kernel` server is named.  The stand-in provides it to the netlink client when the
 * library is loaded (kfsim_nl_inproc_provide()): the libraries below never start it themselves.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/net_namespace.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_server.h>

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
	static const struct kfsim_nl_listen_opts own = {
		.mode = -1, .group = (gid_t)-1, .own_process = true,
	};
	struct kfsim_nl_server *server;
	struct kfsim_net *net;
	pthread_t thread;
	unsigned long long nonce[2];
	char err[256];
	int ret = 0;

	pthread_mutex_lock(&inproc_lock);
	if (inproc_pid == getpid())
		goto out;
	/*
	 * A name nobody can foresee: anyone may bind an abstract name first, and the kernel then
	 * refuses ours.  It was the process id and the address of inproc_name mixed with the
	 * time: /proc/net/unix lists the parent's, whence that address, which a child after
	 * fork() shares, so `nobody` bound the names a forked child of root's program would try
	 * in the next seconds, and the child's socket() failed with EADDRINUSE (measured
	 * 2026-12-07, attacks.py "inproc_squat").
	 */
	if (getrandom(nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce)) {
		ret = -EAGAIN;
		goto out;
	}
	snprintf(inproc_name, sizeof(inproc_name), "@kfsim-netlink-%d-%016llx%016llx",
		 (int)getpid(), nonce[0], nonce[1]);
	net = kfsim_standin_net_create(NULL, err, sizeof(err));
	if (IS_ERR(net)) {
		ret = (int)PTR_ERR(net);
		fprintf(stderr, "kfsim: %s\n", err);
		goto out;
	}
	server = kfsim_nl_server_listen(kfsim_net_nl(net), inproc_name, &own, err, sizeof(err));
	if (IS_ERR(server)) {
		ret = (int)PTR_ERR(server);
		kfsim_net_destroy(net);
		goto out;
	}
	ret = -pthread_create(&thread, NULL, inproc_thread, server);
	if (ret) {
		kfsim_nl_server_destroy(server);
		kfsim_net_destroy(net);
		goto out;
	}
	pthread_detach(thread);	/* lives as long as the process: its sockets may too */
	inproc_pid = getpid();
out:
	pthread_mutex_unlock(&inproc_lock);
	*path = inproc_name;
	return ret;
}

/*
 * Provided at load time, before main() and its threads.  The static library's users keep this
 * file through the link option of kfsim_static (CMakeLists.txt), as the shared one always has it.
 */
__attribute__((constructor)) static void inproc_provide(void)
{
	kfsim_nl_inproc_provide(kfsim_standin_inproc_start);
}
