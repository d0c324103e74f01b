// SPDX-License-Identifier: MIT
/*
 * kfsim kernel [--listen PATH] [--mode MODE] [--group GROUP] [--config FILE] [--background]
 * kfsim kernel --stop PATH
 * kfsim kernel --print-path
 *
 * A simulated kernel that stays up: kfsim's in-process kernel (nlctrl, the ethtool family with
 * the PLCA devices of the built-in segment or of --config, the demo family) served on a UNIX
 * socket to any number of clients (<kfsim/nl_server.h>).  Its state (PHY registers, PLCA
 * settings) persists from one client to the next.  Clients are `kfsim ethtool --server PATH`,
 * `kfsim nl --server PATH`, or any unmodified netlink program run with
 * LD_PRELOAD=libkfsim-netlink.so KFSIM_KERNEL=PATH.  SIGTERM or SIGINT stops it cleanly.
 * Without --listen it serves the user's own path (kfsim_nl_server_default_path()); the file is
 * private unless --mode/--group share it on purpose (docs/own-tools.md, "Security model").
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/un.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/net_namespace.h>
#include <kfsim/nl_server.h>
#include "cli.h"

#define CMD "kernel"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct kernel_opts {
	const char *listen_path;
	const char *config;
	const char *stop_path;
	bool background;
	int mode;		/* -1: from the umask */
	gid_t group;		/* (gid_t)-1: the creator's */
	bool print_path;
};

#define O(field) offsetof(struct kernel_opts, field)

static int parse_mode(void *opts, const char *value, char *why, size_t why_size)
{
	char *end;
	unsigned long mode = strtoul(value, &end, 8);

	if (!*value || *end || mode > 0777) {
		snprintf(why, why_size, "expected octal permission bits such as 0660");
		return -EINVAL;
	}
	((struct kernel_opts *)opts)->mode = (int)mode;
	return 0;
}

static int parse_group(void *opts, const char *value, char *why, size_t why_size)
{
	struct group *gr = getgrnam(value);
	char *end;
	unsigned long gid = strtoul(value, &end, 10);

	if (gr)
		gid = gr->gr_gid;
	else if (!*value || *end || gid >= (gid_t)-1) {
		snprintf(why, why_size, "expected a group name or number");
		return -EINVAL;
	}
	((struct kernel_opts *)opts)->group = (gid_t)gid;
	return 0;
}

static void format_mode(const void *opts, char *buf, size_t size)
{
	int mode = ((const struct kernel_opts *)opts)->mode;

	if (mode < 0)
		snprintf(buf, size, "from the umask");
	else
		snprintf(buf, size, "%04o", mode);
}

static const char *const not_with_stop[] = { "stop", "print-path", NULL };

static const struct kfsim_opt kernel_opts_table[] = {
	{ "listen", KFSIM_OPT_STRING, O(listen_path), "PATH",
	  "the socket to create (a name starting with '@' is abstract);\n"
	  "without it, the user's own path (see --print-path)" },
	{ "config", KFSIM_OPT_INPUT, O(config), "FILE",
	  "the devices, as for 'kfsim ethtool --config', instead of the\n"
	  "built-in segment: a regular file of yours or root's that no one\n"
	  "else may change (docs/own-tools.md)" },
	{ "background", KFSIM_OPT_FLAG, O(background), NULL,
	  "return once the socket listens; the server goes on alone" },
	{ "stop", KFSIM_OPT_STRING, O(stop_path), "PATH",
	  "stop the server at PATH (its user or root only)",
	  .excludes = (const char *const[]){ "listen", "config", "background", NULL } },
	{ "mode", KFSIM_OPT_CALL, 0, "MODE",
	  "the socket file's permission bits, to share it on purpose (0660\n"
	  "with --group); a client needs write permission to connect",
	  .call = parse_mode, .format = format_mode, .excludes = not_with_stop },
	{ "group", KFSIM_OPT_CALL, 0, "GROUP", "the socket file's group (name or number)",
	  .call = parse_group, .excludes = not_with_stop },
	{ "print-path", KFSIM_OPT_FLAG, O(print_path), NULL,
	  "print the user's own socket path and exit:\n"
	  "$XDG_RUNTIME_DIR/kfsim-kernel.sock, else /tmp/kfsim-UID/kernel.sock",
	  .excludes = (const char *const[]){ "listen", "config", "background", NULL } },
};

static int kernel_serve(void *opts, const struct kfsim_cli_args *args);

static void kernel_defaults(void *opts, unsigned int verb)
{
	struct kernel_opts *o = opts;

	(void)verb;
	o->mode = -1;
	o->group = (gid_t)-1;
}

static const struct kfsim_cli_spec kernel_spec = {
	.name = CMD,
	.usage = "kfsim kernel [--listen PATH] [--mode MODE] [--group GROUP] [--config FILE]\n"
		 "                    [--background]\n"
		 "       kfsim kernel --stop PATH\n"
		 "       kfsim kernel --print-path",
	.about = "Serve kfsim's simulated kernel (generic netlink: nlctrl, ethtool PLCA, kfsim_demo)\n"
		 "on a UNIX socket until SIGTERM, SIGINT or --stop.  State persists across clients.",
	.opts = kernel_opts_table,
	.nr_opts = ARRAY_SIZE(kernel_opts_table),
	.run = kernel_serve,
	.defaults = kernel_defaults,
	.opts_size = sizeof(struct kernel_opts),
	.notes = "Clients: kfsim ethtool --server PATH ..., kfsim nl policy --server PATH ...,\n"
		 "kfsim exec --server PATH -- PROGRAM ... (any netlink program), or\n"
		 "  LD_PRELOAD=libkfsim-netlink.so KFSIM_KERNEL=PATH program ...\n"
		 "The socket file is made with the umask's bits (private by default), in a directory\n"
		 "only its user (or root) may write to, or a sticky one; clients refuse a server run\n"
		 "by another user than root or themselves unless KFSIM_KERNEL_OWNER names it.\n"
		 "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
};

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

/* Room for every connection the server admits (two descriptors each), if the hard limit allows. */
static void raise_nofile(void)
{
	const rlim_t want = 2 * KFSIM_NL_SERVER_MAX_CLIENTS + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static int kernel_serve(void *opts, const struct kfsim_cli_args *args)
{
	const struct kernel_opts *o = opts;
	const char *listen_path = o->listen_path, *config = o->config, *stop_path = o->stop_path;
	struct kfsim_nl_listen_opts listen_opts = { .mode = o->mode, .group = o->group };
	char own_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct kfsim_nl_server *server;
	struct kfsim_net *net;
	struct sigaction sa = { .sa_handler = on_stop };
	char err[1024];
	int ret;

	ret = kfsim_nl_server_default_path(own_path, sizeof(own_path));
	if (ret && (o->print_path || !listen_path))
		return kfsim_cli_fail(CMD, ret, "$XDG_RUNTIME_DIR is too long for a socket path");
	if (o->print_path) {
		printf("%s\n", own_path);
		return 0;
	}
	if (!listen_path && !stop_path)
		listen_path = own_path;
	if (stop_path) {
		ret = kfsim_nl_server_stop(stop_path);
		if (ret)
			return kfsim_cli_fail(CMD, ret, "cannot stop the kfsim kernel at %s%s",
					      stop_path, ret == -EPERM ?
					      ": it runs as another user" : "");
		return 0;
	}
	raise_nofile();
	ret = config ? kfsim_nl_server_check_config(config, err, sizeof(err)) : 0;
	if (ret)
		return kfsim_cli_fail(CMD, ret, "refusing --config %s: %s", config, err);
	net = kfsim_standin_net_create(config, err, sizeof(err));
	if (IS_ERR(net))
		return kfsim_cli_fail(CMD, (int)PTR_ERR(net), "%s%s%s", config ? config : "",
				      config ? ": " : "", err);
	server = kfsim_nl_server_listen(kfsim_net_nl(net), listen_path, &listen_opts, err,
					sizeof(err));
	if (IS_ERR(server)) {
		ret = (int)PTR_ERR(server);
		kfsim_net_destroy(net);
		return kfsim_cli_fail(CMD, ret, "cannot listen on %s: %s", listen_path, err);
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (o->background) {
		ret = go_background(listen_path);
		if (ret) {
			kfsim_nl_server_destroy(server);
			kfsim_net_destroy(net);
			return kfsim_cli_fail(CMD, ret, "cannot go into the background");
		}
	} else {
		printf("kfsim kernel: listening on %s\n", listen_path);
		fflush(stdout);
	}
	ret = kfsim_nl_server_run(server, &stop_requested);
	kfsim_nl_server_destroy(server);
	kfsim_net_destroy(net);
	if (ret)
		return kfsim_cli_fail(CMD, ret, "serving %s failed", listen_path);
	printf("kfsim kernel: stopped\n");
	return 0;
}

const struct kfsim_cli_command kfsim_cmd_kernel = {
	.name = "kernel",
	.summary = "serve kfsim's simulated kernel on a UNIX socket (for real netlink tools)",
	.spec = &kernel_spec,
};
