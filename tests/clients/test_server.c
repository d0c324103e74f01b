// SPDX-License-Identifier: MIT
/*
 * The kfsim netlink server (<kfsim/nl_server.h>) from its clients' side: opening, binding and
 * options as netlink_bind()/netlink_setsockopt() answer them; state that persists across
 * clients; notifications reaching another client; two clients racing SETs; a non-root client's
 * -EPERM; a client killed in the middle of a dump; bad paths and garbage on the control line;
 * every pidfd the kernel hands the server with a request closed; every component of a listening
 * path judged.
 */
#define _GNU_SOURCE 1 /* setresuid */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <poll.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/net_namespace.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_remote.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>

struct served {
	struct kfsim_net *net;
	struct kfsim_nl_server *server;
	pthread_t thread;
	volatile sig_atomic_t stop;
	char path[64];
};

static void *serve(void *arg)
{
	struct served *sv = arg;

	kfsim_nl_server_run(sv->server, &sv->stop);
	return NULL;
}

static int setup(void **state)
{
	struct served *sv = calloc(1, sizeof(*sv));
	char err[128];

	snprintf(sv->path, sizeof(sv->path), "@kfsim-test-server-%d", (int)getpid());
	sv->net = kfsim_standin_net_create(NULL, err, sizeof(err));
	assert_false(IS_ERR(sv->net));
	sv->server = kfsim_nl_server_create(kfsim_net_nl(sv->net), sv->path);
	assert_false(IS_ERR(sv->server));
	assert_int_equal(pthread_create(&sv->thread, NULL, serve, sv), 0);
	*state = sv;
	return 0;
}

static int teardown(void **state)
{
	struct served *sv = *state;

	sv->stop = 1;
	pthread_join(sv->thread, NULL);
	kfsim_nl_server_destroy(sv->server);
	kfsim_net_destroy(sv->net);
	free(sv);
	return 0;
}

/* ---- PLCA over a server channel ------------------------------------------------------- */

struct plca_cfg {
	u32 node_cnt, to_tmr, burst_cnt;
};

static int keep_reply(const struct kfsim_plca_reply *reply, void *ctx)
{
	*(struct kfsim_plca_reply *)ctx = *reply;
	return 0;
}

/* SET (@set) or GET eth0's PLCA settings through a fresh channel; Return: the ACK's error. */
static int plca_transact(const char *path, const struct plca_cfg *set, struct plca_cfg *got)
{
	struct kfsim_ethtool_chan *chan = kfsim_ethtool_chan_server(path);
	struct kfsim_plca_attr attrs[3];
	struct kfsim_plca_reply reply = {0};
	struct kfsim_nl_error ack;
	u8 req[256];
	int len, ret;

	if (IS_ERR(chan))
		return (int)PTR_ERR(chan);
	if (set) {
		attrs[0] = (struct kfsim_plca_attr){ETHTOOL_A_PLCA_NODE_CNT, set->node_cnt};
		attrs[1] = (struct kfsim_plca_attr){ETHTOOL_A_PLCA_TO_TMR, set->to_tmr};
		attrs[2] = (struct kfsim_plca_attr){ETHTOOL_A_PLCA_BURST_CNT, set->burst_cnt};
	}
	len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_ethtool_chan_family(chan),
					 set ? ETHTOOL_MSG_PLCA_SET_CFG : ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK, 0, "eth0", 0, attrs,
					 set ? 3 : 0);
	assert_true(len > 0);
	ret = kfsim_ethtool_chan_transact(chan, req, (size_t)len, keep_reply, &reply, &ack);
	kfsim_ethtool_chan_close(chan);
	if (ret)
		return ret;
	if (got) {
		got->node_cnt = reply.value[ETHTOOL_A_PLCA_NODE_CNT];
		got->to_tmr = reply.value[ETHTOOL_A_PLCA_TO_TMR];
		got->burst_cnt = reply.value[ETHTOOL_A_PLCA_BURST_CNT];
	}
	return ack.error;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_open_bind_options(void **state)
{
	struct served *sv = *state;
	struct kfsim_nl_remote a, b;
	u32 val = 7;

	assert_int_equal(kfsim_nl_remote_open(sv->path, NETLINK_GENERIC, SOCK_CLOEXEC, &a), 0);
	assert_int_equal(kfsim_nl_remote_open(sv->path, NETLINK_GENERIC, 0, &b), 0);
	assert_true(a.portid && b.portid && a.portid != b.portid);
	/* only generic netlink is served */
	assert_int_equal(kfsim_nl_remote_open(sv->path, NETLINK_ROUTE, 0, &(struct kfsim_nl_remote){0}),
			 -EPROTONOSUPPORT);
	/* netlink_bind(): port 0 keeps the socket's, a taken one is refused, then only once */
	assert_int_equal(kfsim_nl_remote_bind(&a, 0, 0), 0);
	assert_int_equal(kfsim_nl_remote_bind(&b, a.portid, 0), -EADDRINUSE);
	assert_int_equal(kfsim_nl_remote_bind(&b, 0x40001234, 0), 0);
	assert_int_equal(b.portid, 0x40001234);
	assert_int_equal(kfsim_nl_remote_bind(&b, 0x40001235, 0), -EINVAL);
	assert_int_equal(kfsim_nl_remote_bind(&b, 0x40001234, 0), 0);
	/* options: the modelled ones, the accepted-and-kept ones, and the unknown */
	assert_int_equal(kfsim_nl_remote_getsockopt(&a, NETLINK_EXT_ACK, &val), 0);
	assert_int_equal(val, 0);
	assert_int_equal(kfsim_nl_remote_setsockopt(&a, NETLINK_EXT_ACK, 1), 0);
	assert_int_equal(kfsim_nl_remote_getsockopt(&a, NETLINK_EXT_ACK, &val), 0);
	assert_int_equal(val, 1);
	assert_int_equal(kfsim_nl_remote_setsockopt(&a, NETLINK_GET_STRICT_CHK, 1), 0);
	assert_int_equal(kfsim_nl_remote_getsockopt(&a, NETLINK_GET_STRICT_CHK, &val), 0);
	assert_int_equal(val, 1);
	assert_int_equal(kfsim_nl_remote_setsockopt(&a, 99, 1), -ENOPROTOOPT);
	assert_int_equal(kfsim_nl_remote_getsockopt(&a, 99, &val), -ENOPROTOOPT);
	assert_int_equal(kfsim_nl_remote_setsockopt(&a, NETLINK_ADD_MEMBERSHIP, 0), -EINVAL);
	kfsim_nl_remote_close(&a);
	kfsim_nl_remote_close(&b);
}

static void test_bad_paths(void **state)
{
	struct served *sv = *state;
	struct kfsim_nl_remote r;
	char longpath[200];

	(void)sv;
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(kfsim_nl_remote_open(longpath, NETLINK_GENERIC, 0, &r), -ENAMETOOLONG);
	assert_int_equal(kfsim_nl_remote_open("/nonexistent/kfsim.sock", NETLINK_GENERIC, 0, &r),
			 -ENOENT);
	assert_int_equal(kfsim_nl_remote_open("@kfsim-nobody-listens", NETLINK_GENERIC, 0, &r),
			 -ECONNREFUSED);
	assert_int_equal(r.data_fd, -1);
	assert_ptr_equal(kfsim_nl_server_create(kfsim_net_nl(sv->net), longpath),
			 ERR_PTR(-ENAMETOOLONG));
	/* a live server's name is not taken over */
	assert_ptr_equal(kfsim_nl_server_create(kfsim_net_nl(sv->net), sv->path),
			 ERR_PTR(-EADDRINUSE));
}

static void test_stale_socket_file_replaced(void **state)
{
	struct served *sv = *state;
	char path[] = "/tmp/kfsim-stale-XXXXXX";
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct kfsim_nl_server *s;
	char sock_path[128];
	int fd;

	assert_non_null(mkdtemp(path));
	snprintf(sock_path, sizeof(sock_path), "%s/k.sock", path);
	assert_true(strlen(sock_path) < sizeof(sun.sun_path));
	memcpy(sun.sun_path, sock_path, strlen(sock_path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	close(fd);	/* the file stays, nobody answers: a crashed server's leftover */
	s = kfsim_nl_server_create(kfsim_net_nl(sv->net), sock_path);
	assert_false(IS_ERR(s));
	kfsim_nl_server_destroy(s);
	assert_int_equal(access(sock_path, F_OK), -1);	/* removed on destroy */
	rmdir(path);
}

/* kfsim_nl_server_listen() on @path: 0 when it listened (and is destroyed again), else the error. */
static int listen_result(struct served *sv, const char *path, char *err, size_t err_size)
{
	struct kfsim_nl_server *s = kfsim_nl_server_listen(kfsim_net_nl(sv->net), path, NULL, err,
							   err_size);

	if (IS_ERR(s))
		return (int)PTR_ERR(s);
	kfsim_nl_server_destroy(s);
	return 0;
}

/* What the check must decide, asked independently: the file's group is its owner's own. */
static bool group_is_private(const char *path)
{
	struct stat st;
	struct passwd *pw;
	struct group *gr;

	assert_int_equal(stat(path, &st), 0);
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	return pw && gr && pw->pw_gid == st.st_gid && !strcmp(pw->pw_name, gr->gr_name) &&
	       !gr->gr_mem[0];
}

/*
 * Every component of the path is judged, from /: a directory others may write to (its group
 * too, unless the owner's private one), a link loop, a file on the way are refused, naming the
 * component; links of ours are followed; a relative path starts at the working directory; a
 * missing last directory is made 0700.
 */
static void test_listen_path_walk(void **state)
{
	struct served *sv = *state;
	char top[] = "/tmp/kfsim-walk-XXXXXX", path[256], err[256], cwd[512];
	struct stat st;

	assert_non_null(mkdtemp(top));
	assert_int_equal(chmod(top, 0755), 0);
	snprintf(path, sizeof(path), "%s/open", top);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/open/new/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/open/new", top);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);	/* made, private */
	assert_int_equal(rmdir(path), 0);

	snprintf(path, sizeof(path), "%s/open", top);
	assert_int_equal(chmod(path, 0757), 0);	/* others may write: above the socket's dir */
	snprintf(path, sizeof(path), "%s/open/sub", top);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/open/sub/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "/open is writable by others and not sticky"));
	snprintf(path, sizeof(path), "%s/open", top);
	if (geteuid() == 0) {
		/* its group may write, and the group is nogroup, not the owner's own */
		assert_int_equal(chmod(path, 0775), 0);
		assert_int_equal(chown(path, 0, 65534), 0);
		assert_false(group_is_private(path));
		snprintf(path, sizeof(path), "%s/open/sub/k.sock", top);
		assert_int_equal(listen_result(sv, path, err, sizeof(err)), -EPERM);
		assert_non_null(strstr(err, "/open is writable by others and not sticky"));
		snprintf(path, sizeof(path), "%s/open", top);
		assert_int_equal(chown(path, 0, 0), 0);
		/* root's own group (named root, root's primary, no members): as a umask of 002 */
		assert_true(group_is_private(path));
		snprintf(path, sizeof(path), "%s/open/sub/k.sock", top);
		assert_int_equal(listen_result(sv, path, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/open", top);
	}
	assert_int_equal(chmod(path, 01775), 0);	/* sticky: trusted */
	snprintf(path, sizeof(path), "%s/open/sub/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), 0);

	snprintf(path, sizeof(path), "%s/loop1", top);
	assert_int_equal(symlink("loop2", path), 0);
	snprintf(path, sizeof(path), "%s/loop2", top);
	assert_int_equal(symlink("loop1", path), 0);
	snprintf(path, sizeof(path), "%s/loop1/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), -ELOOP);

	snprintf(path, sizeof(path), "%s/file", top);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	snprintf(path, sizeof(path), "%s/file/sub/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), -ENOTDIR);
	assert_non_null(strstr(err, "/file is not a directory"));

	snprintf(path, sizeof(path), "%s/mine", top);
	assert_int_equal(symlink("open/sub", path), 0);	/* ours: followed, its target judged */
	snprintf(path, sizeof(path), "%s/mine/k.sock", top);
	assert_int_equal(listen_result(sv, path, err, sizeof(err)), 0);

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(top), 0);
	/* ".." after a link climbs from its target, as the kernel resolves it: open/sub/k.sock */
	assert_int_equal(listen_result(sv, "mine/../sub/k.sock", err, sizeof(err)), 0);
	/*
	 * A working directory so deep that it and the relative path pass the walk's 1023 bytes:
	 * refused, never cut short (that made and bound a directory nobody asked for).
	 */
	assert_int_equal(mkdir("deep", 0755), 0);
	assert_int_equal(chdir("deep"), 0);
	for (int i = 0; i < 5; i++) {
		char name[201], here[1024];
		size_t len = 200;

		/* the last one brings the working directory to 1000 bytes (getcwd() still works) */
		assert_non_null(getcwd(here, sizeof(here)));
		if (i == 4)
			len = 1000 - strlen(here) - 1;
		memset(name, 'd', len);
		name[len] = '\0';
		assert_int_equal(mkdir(name, 0755), 0);
		assert_int_equal(chdir(name), 0);
	}
	assert_int_equal(listen_result(sv, "abcdefghijklmnopqrstuvwxyz/k.sock", err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err, "longer than 1023 bytes"));
	assert_int_equal(access("abcdefghijklmnopqrstuvwxyz", F_OK), -1);
	assert_int_equal(chdir(cwd), 0);

	snprintf(path, sizeof(path), "rm -rf %s", top);
	assert_int_equal(system(path), 0);
}

/* `kfsim kernel --config`: only a file no other user chose or may change; nothing waits. */
static void test_config_file_check(void **state)
{
	char top[] = "/tmp/kfsim-config-XXXXXX", path[256], err[256];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(top));
	assert_int_equal(chmod(top, 0755), 0);
	snprintf(path, sizeof(path), "%s/ok.conf", top);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), 0);
	assert_int_equal(chmod(path, 0646), 0);	/* anyone may change it */
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "ok.conf is writable by others"));
	assert_int_equal(chmod(path, 0664), 0);	/* its group may: refused unless private */
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)),
			 group_is_private(path) ? 0 : -EPERM);
	if (geteuid() == 0) {
		/* root may give it a group of others: nogroup, whose name is no user's */
		assert_int_equal(chown(path, 0, 65534), 0);
		assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), -EPERM);
		assert_non_null(strstr(err, "ok.conf is writable by others"));
		assert_int_equal(chown(path, 0, 0), 0);
		/* root's own group (named root, root's primary, no members): Debian's exception */
		assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), 0);
	}
	assert_int_equal(chmod(path, 0644), 0);

	snprintf(path, sizeof(path), "%s/link.conf", top);
	assert_int_equal(symlink("ok.conf", path), 0);	/* ours: followed */
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), 0);

	/* a FIFO nobody writes to: refused at once (opening it to read would wait) */
	snprintf(path, sizeof(path), "%s/fifo.conf", top);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is a FIFO"));

	assert_int_equal(kfsim_nl_server_check_config(top, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(kfsim_nl_server_check_config("/dev/null", err, sizeof(err)), -EINVAL);
	snprintf(path, sizeof(path), "%s/none.conf", top);
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), -ENOENT);

	/* a directory on the way that others may change (not sticky) */
	snprintf(path, sizeof(path), "%s/open", top);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chmod(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/open/x.conf", top);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kfsim_nl_server_check_config(path, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "/open is writable by others and not sticky"));

	snprintf(path, sizeof(path), "rm -rf %s", top);
	assert_int_equal(system(path), 0);
}

/* The shim's question, asked of the stand-in: its devices are its own, nothing else is. */
static void test_owns_its_devices_only(void **state)
{
	struct served *sv = *state;

	assert_int_equal(kfsim_standin_owns_dev(sv->path, "eth0"), 1);
	assert_int_equal(kfsim_standin_owns_dev(sv->path, "eth3"), 1);	/* no PLCA, still its device */
	assert_int_equal(kfsim_standin_owns_dev(sv->path, "nosuchdev"), 0);
	/* no server: nobody can tell */
	assert_true(kfsim_standin_owns_dev("/nonexistent/kfsim.sock", "eth0") < 0);
}

static void test_state_persists_across_clients(void **state)
{
	struct served *sv = *state;
	struct plca_cfg set = {12, 40, 3}, got = {0};

	assert_int_equal(plca_transact(sv->path, &set, NULL), 0);
	assert_int_equal(plca_transact(sv->path, NULL, &got), 0);
	assert_int_equal(got.node_cnt, 12);
	assert_int_equal(got.to_tmr, 40);
	assert_int_equal(got.burst_cnt, 3);
}

static int count_ntf(const struct nlmsghdr *nlh, void *arg)
{
	struct kfsim_plca_reply reply;

	if (!kfsim_ethtool_plca_parse(nlh, nlh->nlmsg_len, &reply) &&
	    reply.cmd == ETHTOOL_MSG_PLCA_NTF && !strcmp(reply.devname, "eth0"))
		*(u32 *)arg = reply.value[ETHTOOL_A_PLCA_NODE_CNT];
	return 0;
}

static void test_notification_reaches_other_client(void **state)
{
	struct served *sv = *state;
	struct kfsim_nl_client *mon = kfsim_nl_client_open_server(sv->path);
	struct plca_cfg set = {21, 32, 0};
	u32 seen = 0;
	int n;

	assert_false(IS_ERR(mon));
	assert_int_equal(kfsim_nl_subscribe(mon, ETHTOOL_GENL_NAME, ETHTOOL_MCGRP_MONITOR_NAME), 0);
	assert_int_equal(plca_transact(sv->path, &set, NULL), 0);
	n = kfsim_nl_notifications(mon, count_ntf, &seen, 2000);
	assert_true(n >= 1);
	assert_int_equal(seen, 21);
	kfsim_nl_client_close(mon);
}

struct racer {
	const char *path;
	struct plca_cfg cfg;
	int failures;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	for (int i = 0; i < 60; i++)
		if (plca_transact(r->path, &r->cfg, NULL))
			r->failures++;
	return NULL;
}

static void test_racing_sets_never_mix(void **state)
{
	struct served *sv = *state;
	struct racer a = {sv->path, {10, 40, 1}, 0}, b = {sv->path, {20, 60, 2}, 0};
	struct plca_cfg got;
	pthread_t ta, tb;

	pthread_create(&ta, NULL, race, &a);
	pthread_create(&tb, NULL, race, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(a.failures + b.failures, 0);
	assert_int_equal(plca_transact(sv->path, NULL, &got), 0);
	assert_true((got.node_cnt == 10 && got.to_tmr == 40 && got.burst_cnt == 1) ||
		    (got.node_cnt == 20 && got.to_tmr == 60 && got.burst_cnt == 2));
}

static void test_non_root_set_is_eperm(void **state)
{
	struct served *sv = *state;
	struct plca_cfg before, after, set = {99, 99, 9};
	int status;
	pid_t pid;

	if (geteuid() != 0)
		skip();	/* the test drops root; without it there is nothing to drop */
	assert_int_equal(plca_transact(sv->path, NULL, &before), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		_exit(plca_transact(sv->path, &set, NULL) == -EPERM ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(plca_transact(sv->path, NULL, &after), 0);
	assert_memory_equal(&before, &after, sizeof(before));
}

static void wait_clients(struct kfsim_nl_server *s, unsigned int want)
{
	for (int i = 0; i < 200 && kfsim_nl_server_clients(s) != want; i++)
		usleep(10000);
	assert_int_equal(kfsim_nl_server_clients(s), want);
}

static void test_client_killed_mid_dump(void **state)
{
	struct served *sv = *state;
	struct plca_cfg got;
	unsigned int base;
	int status;
	pid_t pid;

	wait_clients(sv->server, 0);
	base = kfsim_nl_server_clients(sv->server);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct kfsim_nl_remote r;
		struct {
			struct nlmsghdr nlh;
			struct genlmsghdr genl;
		} req = {
			.nlh = {.nlmsg_len = sizeof(req), .nlmsg_type = GENL_ID_CTRL,
				.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1},
			.genl = {.cmd = CTRL_CMD_GETFAMILY, .version = 1},
		};

		if (kfsim_nl_remote_open(sv->path, NETLINK_GENERIC, 0, &r))
			_exit(1);
		if (send(r.data_fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req))
			_exit(2);
		kill(getpid(), SIGKILL);	/* gone before reading a byte */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	wait_clients(sv->server, base);
	assert_int_equal(plca_transact(sv->path, NULL, &got), 0);
}

/* Descriptors the server holds now (this process's, the clients' closed). */
static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

/*
 * Requests in every shape a pidfd can come with (SCM_PIDFD on each packet): two messages in
 * one packet, an empty packet, descriptors sent along (more than the server's room:
 * MSG_CTRUNC; refused at sendmsg() from Linux 6.16 on), a control request.  The server's descriptors count the same after.
 */
static void send_every_shape(const char *path)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
	} req[2] = {
		{ .nlh = {.nlmsg_len = sizeof(req[0]), .nlmsg_type = GENL_ID_CTRL,
			  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 1},
		  .genl = {.cmd = CTRL_CMD_GETFAMILY, .version = 1} },
		{ .nlh = {.nlmsg_len = sizeof(req[0]), .nlmsg_type = GENL_ID_CTRL,
			  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 2},
		  .genl = {.cmd = CTRL_CMD_GETFAMILY, .version = 1} },
	};
	union {
		char buf[CMSG_SPACE(8 * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = req, .iov_len = sizeof(req) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct kfsim_nl_remote r;
	struct cmsghdr *cmsg;
	char reply[4096];
	ssize_t sent;
	u32 val;

	assert_int_equal(kfsim_nl_remote_open(path, NETLINK_GENERIC, 0, &r), 0);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(send(r.data_fd, req, sizeof(req), 0), (ssize_t)sizeof(req));
		assert_true(recv(r.data_fd, reply, sizeof(reply), 0) > 0);	/* two errors */
		assert_true(recv(r.data_fd, reply, sizeof(reply), 0) > 0);
	}
	assert_int_equal(send(r.data_fd, req, 0, 0), 0);
	memset(&control, 0, sizeof(control));
	msg.msg_control = control.buf;
	msg.msg_controllen = sizeof(control.buf);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(8 * sizeof(int));
	for (int i = 0; i < 8; i++)
		memcpy(CMSG_DATA(cmsg) + i * sizeof(int), &r.data_fd, sizeof(int));
	iov.iov_len = sizeof(req[0]);
	sent = sendmsg(r.data_fd, &msg, 0);
	if (sent < 0) {	/* Linux 6.16 on: the server refuses descriptors (SO_PASSRIGHTS) */
		assert_int_equal(errno, EPERM);
	} else {	/* before: they arrive, and are closed */
		assert_int_equal(sent, (ssize_t)sizeof(req[0]));
		assert_true(recv(r.data_fd, reply, sizeof(reply), 0) > 0);
	}
	assert_int_equal(kfsim_nl_remote_getsockopt(&r, NETLINK_EXT_ACK, &val), 0);
	kfsim_nl_remote_close(&r);
}

static void test_every_sender_pidfd_closed(void **state)
{
	struct served *sv = *state;
	int before, status;
	pid_t pid;

	wait_clients(sv->server, 0);
	before = open_fds();
	send_every_shape(sv->path);	/* a capable opener: each sender is asked */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {	/* an opener without capabilities: nobody is asked */
		if (geteuid() == 0 &&
		    (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)))
			_exit(3);
		send_every_shape(sv->path);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	wait_clients(sv->server, 0);
	assert_int_equal(open_fds(), before);
}

static void test_garbage_on_control_line(void **state)
{
	struct served *sv = *state;
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct plca_cfg got;
	char junk[40] = "not a kfsim request";
	socklen_t len;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sv->path);
	sun.sun_path[0] = '\0';
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(sv->path));
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sun, len), 0);
	assert_int_equal(send(fd, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
	/* the server hangs up rather than guess what was meant */
	assert_int_equal(recv(fd, junk, sizeof(junk), 0), 0);
	close(fd);
	assert_int_equal(plca_transact(sv->path, NULL, &got), 0);
}

/* A server that answers the OPEN with @err (or nothing) and hangs up with it unread. */
struct refuser {
	int listen_fd;
	bool answer;
};

/* The thread's status: NULL when it did what it should (cmocka asserts in the test's thread). */
static void *refuse_unread(void *arg)
{
	struct refuser *r = arg;
	struct kfsim_nl_wire_rep rep = {.err = -EACCES};
	struct pollfd pfd;
	const char *failed = NULL;
	int fd = accept(r->listen_fd, NULL, NULL);

	if (fd < 0)
		return "accept";
	/* the client's OPEN has arrived: closing now, unread, resets the client */
	pfd = (struct pollfd){.fd = fd, .events = POLLIN};
	if (poll(&pfd, 1, 5000) != 1)
		failed = "no OPEN";
	else if (r->answer && send(fd, &rep, sizeof(rep), 0) != (ssize_t)sizeof(rep))
		failed = "send";
	close(fd);
	return (void *)failed;
}

/*
 * The refusal's reason survives the reset: AF_UNIX reports ECONNRESET before the data queued
 * for the client when the server closes with the client's request unread (a race the
 * unprivileged attacks met on a fresh machine); without a reason the error stays ECONNRESET.
 */
static void test_refusal_read_after_reset(void **state)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct kfsim_nl_remote remote;
	struct refuser r;
	pthread_t thread;
	void *failed;
	char path[64];
	socklen_t len;
	int err;

	(void)state;
	for (int answer = 1; answer >= 0; answer--) {
		snprintf(path, sizeof(path), "@kfsim-test-refuser-%d-%d", (int)getpid(), answer);
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
		sun.sun_path[0] = '\0';
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
		r.answer = answer;
		r.listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		assert_true(r.listen_fd >= 0);
		assert_int_equal(bind(r.listen_fd, (struct sockaddr *)&sun, len), 0);
		assert_int_equal(listen(r.listen_fd, 1), 0);
		assert_int_equal(pthread_create(&thread, NULL, refuse_unread, &r), 0);
		err = kfsim_nl_remote_open(path, NETLINK_GENERIC, 0, &remote);
		pthread_join(thread, &failed);
		close(r.listen_fd);
		assert_null(failed);
		assert_int_equal(err, answer ? -EACCES : -ECONNRESET);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_bind_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owns_its_devices_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_socket_file_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_listen_path_walk, setup, teardown),
		cmocka_unit_test(test_config_file_check),
		cmocka_unit_test_setup_teardown(test_state_persists_across_clients, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notification_reaches_other_client, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_racing_sets_never_mix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_non_root_set_is_eperm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_killed_mid_dump, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_on_control_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_sender_pidfd_closed, setup, teardown),
		cmocka_unit_test(test_refusal_read_after_reset),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
