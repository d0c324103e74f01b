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
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli_exec_netns.h"

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

int kfsim_exec_own_netns(char *why, size_t size)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int err = 0;

	if (unshare(CLONE_NEWNET | CLONE_NEWNS)) {
		if (errno != EPERM)
			err = -errno;
		else if (unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS))
			err = -errno;
		else
			err = map_self(uid, gid);
		if (err)
			return snprintf(why, size, "cannot give it a network namespace of its own "
					"(%s): run as root, or where user namespaces are allowed "
					"(sysctl kernel.unprivileged_userns_clone=1)",
					strerror(-err)), err;
	}
	/* our mounts stay ours: none goes back to the machine's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL))
		return err = -errno, snprintf(why, size, "cannot make its mounts private (%s)",
					       strerror(-err)), err;
	/*
	 * Where a fresh sysfs is not allowed (a container that hides parts of /sys), an empty
	 * read-only /sys: the program sees no device rather than the machine's.
	 */
	if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    mount("none", "/sys", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return err = -errno, snprintf(why, size, "cannot hide the machine's /sys (%s)",
					       strerror(-err)), err;
	loopback_up();
	return 0;
}
