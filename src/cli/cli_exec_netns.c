// SPDX-License-Identifier: MIT
/*
 * `kfsim exec`'s promise, that a program run on the simulation never changes the real machine,
 * kept where a preloaded library cannot keep it: in the kernel.  The shim sees only what goes
 * through libc's symbols; a raw syscall, io_uring, inline assembly, a NETLINK_ROUTE request or a
 * child started without LD_PRELOAD would reach the machine's interfaces.  In a network
 * namespace of its own the program's real kernel has nothing but a loopback device to change.
 *
 * Root (or anyone holding CAP_SYS_ADMIN) gets a plain new network namespace; anyone else one
 * inside a new user namespace that maps only their own uid and gid, so nothing they own or can
 * reach changes, and execve() leaves them the capabilities they had over the machine: none.
 * A mount namespace with a fresh sysfs on /sys comes with it, as `ip netns exec` makes one:
 * sysfs shows the devices of the namespace that mounted it, and writing
 * /sys/class/net/DEV/mtu as root would otherwise still reach the machine's DEV.
 *
 * Root keeps its capabilities over the machine's namespaces (the simulation's SETs need its
 * CAP_NET_ADMIN in the server's user namespace), so the ways back into them are closed too:
 * by name (the nsfs files bound under /run/netns or anywhere else: unmounted in our mount
 * namespace), by process (a PID namespace of its own, with its /proc: `ip link ... netns PID`
 * and /proc/PID/ns/net reach only the program's own processes), by descriptor (a seccomp
 * filter: cli_exec_seal.c, on init as well as on the program).  The machine's /proc, /sys and
 * the like are unmounted, not covered: root could otherwise unmount the cover.  A process of
 * the new PID namespace has to be its init; kfsim is (exec_init()), so that the program, its
 * child, keeps the signal defaults of any other process.  The kfsim the caller started waits
 * outside and stands for the program: the signals sent to it go on to the program, its exit
 * status is the program's, and killing it kills the program.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_exec_netns.h"
#include "cli_exec_seal.h"

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(text);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n != (ssize_t)len)
		err = n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

/* Map only our own ids into the new user namespace: we stay who we were on every file. */
static int map_self(uid_t uid, gid_t gid)
{
	char line[64];
	int err;

	err = write_file("/proc/self/setgroups", "deny");
	if (err && err != -ENOENT)	/* before Linux 3.19 there is no such file, nor need */
		return err;
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned int)uid, (unsigned int)uid);
	err = write_file("/proc/self/uid_map", line);
	if (err)
		return err;
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned int)gid, (unsigned int)gid);
	return write_file("/proc/self/gid_map", line);
}

/*
 * The loopback device up, as on any machine, for programs that talk to 127.0.0.1: it is the
 * new namespace's own, so this is the one interface change kfsim makes, and not the machine's.
 */
static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

/* A mount point as /proc/self/mountinfo writes it, its space, tab, newline and '\\' as \ooo. */
static void unescape_mount_point(char *point)
{
	char *in = point, *out = point;

	while (*in) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*out++ = (char)((in[1] - '0') << 6 | (in[2] - '0') << 3 | (in[3] - '0'));
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

/* The file systems through which a program reaches the machine's namespaces and devices. */
static bool reaches_the_machine(const char *fstype)
{
	static const char *const types[] = {
		"nsfs",		/* /run/netns/NAME: setns() or IFLA_NET_NS_FD enters it */
		"proc",		/* /proc/PID/ns/net of the machine's processes, as nsenter uses it */
		"sysfs",	/* /sys/class/net/DEV/mtu of the machine's devices */
		"bpf",		/* pinned maps and programs of the machine's XDP and tc hooks */
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(fstype, types[i]))
			return true;
	return false;
}

/* One line of /proc/self/mountinfo: where it is mounted, and whether it shows the machine. */
struct mount_seen {
	char *point;
	bool machine;
	bool autofs;	/* an automount point: what the machine's automounter mounts comes in */
};

/* The mounts of our mount namespace, in @info's order (@n of them), or -errno. */
static int read_mounts(FILE *info, struct mount_seen **out, size_t *n)
{
	struct mount_seen *seen = NULL;
	char *line = NULL;
	size_t line_size = 0, room = 0;
	int err = 0;

	*out = NULL;
	*n = 0;
	rewind(info);	/* read afresh: the file shows the mounts as they are now */
	/* whole lines, however long: a mount point cut short would stay mounted */
	while (!err && getline(&line, &line_size, info) > 0) {
		char *sep = strstr(line, " - "), *save = NULL, *field, *fstype;

		if (!sep)
			continue;
		fstype = sep + 3;
		fstype[strcspn(fstype, " \n")] = '\0';
		*sep = '\0';
		/* ID PARENT MAJOR:MINOR ROOT MOUNT-POINT ... */
		field = strtok_r(line, " ", &save);
		for (int i = 0; field && i < 4; i++)
			field = strtok_r(NULL, " ", &save);
		if (!field)
			continue;
		unescape_mount_point(field);
		if (*n == room) {
			struct mount_seen *grown = realloc(seen, (room = room ? 2 * room : 64) *
							   sizeof(*seen));

			if (!grown) {
				err = -ENOMEM;
				break;
			}
			seen = grown;
		}
		seen[*n].machine = reaches_the_machine(fstype);
		seen[*n].autofs = !strcmp(fstype, "autofs");
		seen[*n].point = strdup(field);
		err = seen[*n].point ? 0 : -ENOMEM;
		*n += !err;
	}
	free(line);
	*out = seen;
	return err;
}

static void free_mounts(struct mount_seen *seen, size_t n)
{
	while (n--)
		free(seen[n].point);
	free(seen);
}

/* Does a mount on @above hide @below: the same directory, or one @below is in (not "/")? */
static bool covers(const char *above, const char *below)
{
	size_t len = strlen(above);

	return strcmp(above, "/") && !strncmp(above, below, len) &&
	       (below[len] == '\0' || below[len] == '/');
}

/*
 * Each of our mounts private: a slave, as `ip netns exec` makes them, still receives every
 * mount the machine makes later under a shared one, after hide_machine_mounts() has looked
 * (measured: a network namespace bound in a shared directory while root's program ran, as a
 * container runtime binds each container's, took `ip link add ... netns FILE type veth`, and
 * the pair stayed there; attacks.py "exec_propagation").  Autofs mounts stay slaves, so that
 * what the machine's automounter mounts in them (a home directory over NFS) still appears
 * here; nothing else is mounted there.  A mount hidden below another at the same place stays
 * a slave too, out of every path's reach.
 */
static int stop_propagation(void)
{
	FILE *info = fopen("/proc/self/mountinfo", "re");
	struct mount_seen *seen;
	size_t n;
	int err;

	if (!info)
		return -errno;
	err = read_mounts(info, &seen, &n);
	fclose(info);
	for (size_t i = 0; !err && i < n; i++)
		if (!seen[i].autofs && mount(NULL, seen[i].point, NULL, MS_PRIVATE, NULL) &&
		    errno != EINVAL && errno != ENOENT)
			err = -errno;	/* EINVAL, ENOENT: gone, or no longer a mount point */
	free_mounts(seen, n);
	return err;
}

/*
 * Every mount of those file systems, wherever it is (/proc and /sys, /run/netns/NAME of
 * `ip netns add`, a chroot's or container runtime's copies), unmounted, deepest first, in our
 * mount namespace only, before /sys and /proc get fresh ones of our namespaces.  Mounting those
 * on top would not do: root may unmount ours and find the machine's beneath (`umount /sys`,
 * then writing /sys/class/net/eth0/mtu).  So does a mount made later on the same directory or
 * on one above it (a tmpfs on /x over a proc on /x or /x/proc): unmounting the path would
 * take that one off and leave the machine's proc beneath, for root to find (measured: `ip
 * link add ... netns /x/PID/ns/net`), so it goes first, and the whole is done again until
 * none is left; one that stays all the same is named in @left and refused.  In a new user
 * namespace (@locked) the inherited mounts are locked (EINVAL) and stay, hidden below ours:
 * that user holds no capability over what lies beneath, and a fresh proc or sysfs may only be
 * mounted there while one is visible.
 */
static int hide_machine_mounts(bool locked, char *left, size_t left_size)
{
	/* opened once: the first pass unmounts the /proc it is on */
	FILE *info = fopen("/proc/self/mountinfo", "re");
	struct mount_seen *seen;
	size_t n;
	int err;

	if (!info)
		return -errno;
	for (int pass = 0; ; pass++) {
		size_t first = SIZE_MAX, remaining = 0;

		err = read_mounts(info, &seen, &n);
		for (size_t i = 0; !err && i < n; i++) {
			if (seen[i].machine && first == SIZE_MAX)
				first = i;
			remaining += seen[i].machine;
		}
		if (err || !remaining || (locked && pass > 0) || pass == 4) {
			if (!err && remaining && !locked) {
				snprintf(left, left_size, "%s", seen[first].point);
				err = -EBUSY;
			}
			free_mounts(seen, n);
			fclose(info);
			return err;
		}
		/* deepest (latest) first: a mount on top of another goes before the one it covers */
		for (size_t i = n; i-- > first; ) {
			bool hides = seen[i].machine;

			for (size_t j = first; !hides && j < i; j++)
				hides = seen[j].machine && covers(seen[i].point, seen[j].point);
			if (hides && umount2(seen[i].point, MNT_DETACH) && errno != EINVAL &&
			    errno != ENOENT) {
				err = -errno;
				break;
			}
		}
		free_mounts(seen, n);
		if (err) {
			fclose(info);
			return err;
		}
	}
}

static volatile sig_atomic_t program_pid;

/*
 * A signal sent to us (kill, a supervisor's SIGINT or SIGTERM) goes on to the program, as it
 * reached the program itself before kfsim stood in between.  Not one the kernel sent the whole
 * process group (a terminal's ^C, ^\, hangup): the program, in that group, got it already.
 */
/*
 * `ip netns add NAME` makes the file /run/netns/NAME in the machine's /run before it binds the
 * namespace on it: the bind stays in our mount namespace, the file does not.  Left behind, it
 * is listed by the machine's `ip netns list` and its own `ip netns add NAME` then fails (File
 * exists): measured, root's program left /run/netns/evil.  An empty tmpfs over the directory
 * keeps the program's names its own.  Where the directory does not exist iproute2 makes it,
 * and nothing here stops root's program from doing so (docs/own-tools.md, not covered).
 * NETNS_RUN_DIR is /var/run/netns, which is /run/netns where /var/run links to /run: once.
 */
static int private_netns_dir(char *why, size_t size)
{
	static const char *const dirs[] = { "/run/netns", "/var/run/netns" };
	dev_t done_dev = 0;
	ino_t done_ino = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct stat st;
		int err;

		if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode) ||
		    (st.st_dev == done_dev && st.st_ino == done_ino))
			continue;
		if (mount("tmpfs", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755"))
			return err = -errno, snprintf(why, size, "cannot give it a %s of its own (%s)",
						       dirs[i], strerror(-err)), err;
		if (!stat(dirs[i], &st)) {	/* the new tmpfs: a second name for it is skipped */
			done_dev = st.st_dev;
			done_ino = st.st_ino;
		}
	}
	return 0;
}

static void pass_on(int sig, siginfo_t *info, void *context)
{
	(void)context;
	if (program_pid > 0 && info->si_code != SI_KERNEL)
		kill(program_pid, sig);
}

static void pass_signals_on(void)
{
	static const int passed[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_sigaction = pass_on, .sa_flags = SA_SIGINFO | SA_RESTART };

	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++)
		sigaction(passed[i], &sa, NULL);
}

/* A wait status as an exit status: the program's, or 128 + the signal that ended it. */
static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Init of the new PID namespace: pass the signals someone sends it on to the program (init
 * ignores those it has no handler for), reap whatever the program leaves behind, and exit as
 * the program did.  Never returns.
 */
static void exec_init(pid_t program)
{
	int status;
	pid_t pid;

	program_pid = program;
	pass_signals_on();
	for (;;) {
		pid = wait(&status);
		if (pid == program)
			_exit(exit_status(status));
		if (pid < 0 && errno != EINTR)
			_exit(1);
	}
}

/*
 * The kfsim that started it all waits for the namespace's init and exits as it does; signals
 * meant for the program go to it through init (a terminal's ^C reaches the program itself,
 * in the same process group).
 */
static void wait_outside(pid_t init)
{
	int status;

	program_pid = init;
	pass_signals_on();
	while (waitpid(init, &status, 0) < 0)
		if (errno != EINTR)
			_exit(1);
	_exit(exit_status(status));
}

int kfsim_exec_own_netns(char *why, size_t size)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int alive[2], err = 0;
	bool locked = false;
	char left[256];
	pid_t pid;

	/* the rings it inherited, whose threads run as their maker, outside all that follows */
	err = kfsim_exec_close_rings(why, size);
	if (err)
		return err;
	if (unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID)) {
		locked = true;	/* a new user namespace: the inherited mounts are locked */
		if (errno != EPERM)
			err = -errno;
		else if (unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID))
			err = -errno;
		else
			err = map_self(uid, gid);
		if (err)
			return snprintf(why, size, "cannot give it a network namespace of its own "
					"(%s): run as root, or where user namespaces are allowed "
					"(sysctl kernel.unprivileged_userns_clone=1)",
					strerror(-err)), err;
	}
	/* our mounts stay ours: none goes back to the machine's namespace, none comes in */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) || (err = stop_propagation()))
		return err = err ? err : -errno, snprintf(why, size, "cannot make its mounts "
							  "private (%s)", strerror(-err)), err;
	err = hide_machine_mounts(locked, left, sizeof(left));
	if (err == -EBUSY)
		return snprintf(why, size, "a proc, sysfs, bpf or nsfs mount of the machine's stays "
				"at %s however often it is unmounted", left), err;
	if (err)
		return snprintf(why, size, "cannot unmount the machine's /proc, /sys and named "
				"network namespaces (%s)", strerror(-err)), err;
	/*
	 * Read-only: sysfs shows our namespace's network devices alone, but the machine's buses
	 * and drivers whole, and writing a NIC's name to /sys/bus/DRIVER-BUS/drivers/NAME/unbind
	 * takes a real interface away (seen here: virtio_net's eth0).  A tool may not; root may
	 * remount it (docs/own-tools.md, not covered).  Where a fresh sysfs is not allowed (a
	 * container that hides parts of /sys), an empty read-only /sys: the program sees no device
	 * rather than the machine's.
	 */
	if (mount("sysfs", "/sys", "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    mount("none", "/sys", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return err = -errno, snprintf(why, size, "cannot hide the machine's /sys (%s)",
					       strerror(-err)), err;
	err = private_netns_dir(why, size);
	if (err)
		return err;
	/*
	 * The ways back by descriptor closed (cli_exec_seal.c) before init is forked, not in the
	 * program alone: root's program may ptrace its init, and an init outside the filter,
	 * made to execve() a shell, set a real MTU through setns() (measured).
	 */
	err = kfsim_exec_seal_namespaces(why, size);
	if (err)
		return err;
	if (pipe2(alive, O_CLOEXEC))
		return err = -errno, snprintf(why, size, "cannot make a pipe (%s)", strerror(-err)),
		       err;
	fflush(NULL);
	pid = fork();	/* the first child is the new PID namespace's init */
	if (pid < 0)
		return err = -errno, snprintf(why, size, "cannot fork (%s)", strerror(-err)), err;
	if (pid > 0)
		wait_outside(pid);	/* keeps alive[1] open as long as it lives */
	/*
	 * The kfsim the caller started stands for the program: when it is killed (SIGKILL, which
	 * it cannot pass on), so is init, and with init every process of its namespace.  The pipe
	 * tells whether it died before the request was made.
	 */
	close(alive[1]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) ||
	    poll(&(struct pollfd){ .fd = alive[0], .events = POLLIN }, 1, 0))
		_exit(1);
	close(alive[0]);
	/* init: its /proc, whose processes are the program's own */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		fprintf(stderr, "kfsim exec: -%d: cannot mount /proc of its own PID namespace (%s)\n",
			errno, strerror(errno));
		_exit(1);
	}
	loopback_up();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kfsim exec: cannot fork (%s)\n", strerror(errno));
		_exit(1);
	}
	if (pid > 0)
		exec_init(pid);
	return 0;	/* the program's process */
}
