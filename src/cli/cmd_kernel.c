// SPDX-License-Identifier: MIT
/*
 * kfsim kernel --listen PATH [--config FILE] [--background]
 * kfsim kernel --stop PATH
 *
 * A simulated kernel that stays up: kfsim's in-process kernel (nlctrl, the ethtool family with
 * the PLCA devices of the built-in segment or of --config, the demo family) served on a UNIX
 * socket to any number of clients (<kfsim/nl_server.h>).  Its state (PHY registers, PLCA
 * settings) persists from one client to the next.  Clients are `kfsim ethtool --server PATH`,
 * `kfsim nl --server PATH`, or any unmodified netlink program run with
 * LD_PRELOAD=libkfsim-netlink.so KFSIM_KERNEL=PATH.  SIGTERM or SIGINT stops it cleanly.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>
#include "cli.h"

#define CMD "kernel"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void kernel_help(void)
{
	printf("Usage: kfsim kernel --listen PATH [--config FILE] [--background]\n"
	       "       kfsim kernel --stop PATH\n\n"
	       "Serve kfsim's simulated kernel (generic netlink: nlctrl, ethtool PLCA, kfsim_demo)\n"
	       "on a UNIX socket until SIGTERM, SIGINT or --stop.  State persists across clients.\n\n"
	       "  --listen PATH   the socket to create (a name starting with '@' is abstract)\n"
	       "  --config FILE   the devices, as for 'kfsim ethtool --config', instead of the\n"
	       "                  built-in segment\n"
	       "  --background    return once the socket listens; the server goes on alone\n"
	       "  --stop PATH     stop the server at PATH (its user or root only)\n\n"
	       "Clients: kfsim ethtool --server PATH ..., kfsim nl policy --server PATH ...,\n"
	       "kfsim exec --server PATH -- PROGRAM ... (any netlink program), or\n"
	       "  LD_PRELOAD=libkfsim-netlink.so KFSIM_KERNEL=PATH program ...\n"
	       "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n");
}

static int value_of(int argc, char **argv, int *i, const char *name, const char **out)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);

	if (arg[n] == '=')
		*out = arg + n + 1;
	else if (*i + 1 < argc)
		*out = argv[++*i];
	else
		return kfsim_cli_usage(CMD, "option '%s' needs a value", name);
	if (!**out)
		return kfsim_cli_usage(CMD, "invalid value '' for %s: expected a path", name);
	return 0;
}

/* Into the background: the parent returns once the socket listens (it already does). */
static int go_background(const char *path)
{
	pid_t pid = fork();
	int null;

	if (pid < 0)
		return -errno;
	if (pid > 0) {
		printf("kfsim kernel: listening on %s (pid %d)\n", path, (int)pid);
		fflush(stdout);
		_exit(0);
	}
	setsid();
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	return 0;
}

static int kernel_main(int argc, char **argv)
{
	const char *listen_path = NULL, *config = NULL, *stop_path = NULL;
	bool background = false;
	struct kfsim_nl_server *server;
	struct kfsim_plca_net *net;
	struct sigaction sa = { .sa_handler = on_stop };
	char err[256];
	int ret;

	if (kfsim_cli_wants_help(argc, argv)) {
		kernel_help();
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--listen") || !strncmp(arg, "--listen=", 9))
			ret = value_of(argc, argv, &i, "--listen", &listen_path);
		else if (!strcmp(arg, "--config") || !strncmp(arg, "--config=", 9))
			ret = value_of(argc, argv, &i, "--config", &config);
		else if (!strcmp(arg, "--stop") || !strncmp(arg, "--stop=", 7))
			ret = value_of(argc, argv, &i, "--stop", &stop_path);
		else if (!strcmp(arg, "--background"))
			background = true, ret = 0;
		else
			ret = kfsim_cli_usage(CMD, "unknown argument '%s' (see 'kfsim kernel --help')",
					      arg);
		if (ret)
			return ret;
	}
	if (stop_path) {
		if (listen_path || config || background)
			return kfsim_cli_usage(CMD, "--stop takes no other option");
		ret = kfsim_nl_server_stop(stop_path);
		if (ret)
			return kfsim_cli_fail(CMD, ret, "cannot stop the kfsim kernel at %s%s",
					      stop_path, ret == -EPERM ?
					      ": it runs as another user" : "");
		return 0;
	}
	if (!listen_path)
		return kfsim_cli_usage(CMD, "--listen PATH is required (see 'kfsim kernel --help')");

	net = kfsim_standin_net_create(config, err, sizeof(err));
	if (IS_ERR(net))
		return kfsim_cli_fail(CMD, (int)PTR_ERR(net), "%s%s%s", config ? config : "",
				      config ? ": " : "", err);
	server = kfsim_nl_server_create(kfsim_plca_net_kernel(net), listen_path);
	if (IS_ERR(server)) {
		ret = (int)PTR_ERR(server);
		kfsim_plca_net_destroy(net);
		return kfsim_cli_fail(CMD, ret, "cannot listen on %s%s", listen_path,
				      ret == -EADDRINUSE ? ": another kfsim kernel serves it" : "");
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (background) {
		ret = go_background(listen_path);
		if (ret) {
			kfsim_nl_server_destroy(server);
			kfsim_plca_net_destroy(net);
			return kfsim_cli_fail(CMD, ret, "cannot go into the background");
		}
	} else {
		printf("kfsim kernel: listening on %s\n", listen_path);
		fflush(stdout);
	}
	ret = kfsim_nl_server_run(server, &stop_requested);
	kfsim_nl_server_destroy(server);
	kfsim_plca_net_destroy(net);
	if (ret)
		return kfsim_cli_fail(CMD, ret, "serving %s failed", listen_path);
	printf("kfsim kernel: stopped\n");
	return 0;
}

const struct kfsim_cli_command kfsim_cmd_kernel = {
	.name = "kernel",
	.summary = "serve kfsim's simulated kernel on a UNIX socket (for real netlink tools)",
	.run = kernel_main,
};
