// SPDX-License-Identifier: MIT
/*
 * The last way back from `kfsim exec`'s network namespace (cli_exec_netns.c) into the machine's:
 * a descriptor of the machine's namespace, which a root program's CAP_NET_ADMIN and
 * CAP_SYS_ADMIN over the machine's user namespace would let it enter (setns()) or aim at
 * (IFLA_NET_NS_FD, RTM_NEWNSID then IFLA_TARGET_NETNSID).  Mounts and a PID namespace close the
 * ways by name and by process id; these remain, each measured on Linux 6.18 as root:
 *   - SIOCGSKNS on a socket made in the machine's namespace hands out that namespace; the shim's
 *     own data socket is one (the server made it), and so is any socket passed in;
 *   - the PIDFD_GET_*_NAMESPACE ioctls (Linux 6.11) on a pidfd of a process outside, which
 *     SO_PEERPIDFD gives for whatever listens on a UNIX socket the program can reach: the kfsim
 *     kernel itself, any daemon;
 *   - open_by_handle_at() of a namespace's file handle (Linux 6.18: the same for everyone, so
 *     guessable), refused by the kernel outside the initial PID namespace already;
 *   - setns(), which enters any of them;
 *   - pidfd_getfd() (Linux 5.6) on that same peer pidfd, which copies any descriptor of the
 *     process outside: a socket it made in the machine's namespace (the kfsim kernel's
 *     listening socket) carries that namespace, and SIOCSIFMTU on it set a real MTU;
 *   - bpf()'s *_GET_FD_BY_ID commands, which hand out any BPF program, map, BTF or link of the
 *     machine by its number (ids are counted up from 1): BPF_LINK_DETACH on the link of an XDP
 *     program attached to a device of another namespace took it off that device.
 * And one way around the namespaces altogether: TIOCSTI, which types into the program's
 * terminal what the shell that started `kfsim exec` reads and runs once the program is over,
 * outside every namespace (measured: root's program and another user's typed into theirs;
 * Linux allows it on one's own controlling terminal while dev.tty.legacy_tiocsti is 1, the
 * default), and TIOCLINUX, whose TIOCL_PASTESEL pastes a console's selection the same way.
 * And a way to a network device of the machine's without any namespace: TIOCSETD, which puts a
 * line discipline on a terminal (a pty the program opens will do), and those of SLIP, slcan,
 * 6pack, mkiss and n_gsm register a network device (sl0, slcan0, ...) allocated as
 * alloc_netdev() makes every device, in the initial network namespace, whatever the caller's
 * (drivers/net/slip/slip.c slip_open(): capable(CAP_NET_ADMIN), which root's program holds;
 * the module is loaded on demand while dev.tty.ldisc_autoload is 1).  Not measured here: this
 * kernel has n_tty and n_null alone (attacks.py "exec_ldisc" checks TIOCSETD of n_null).
 * And a way to the machine's network hardware from the program's own namespace: a generic
 * netlink socket of the real kernel made past the shim (syscall(), a program with a runtime of
 * its own), whose families that are not kept per namespace act on the whole machine: dpll's
 * DPLL_CMD_PIN_SET (netnsok, GENL_ADMIN_PERM, which root's program passes) sets the clock pins
 * of the machine's NICs whatever namespace asks (read from Linux 6.18's drivers/dpll; this
 * machine has none).  The shim never makes one (its generic netlink is the simulation's, over
 * a UNIX socket), so socket(AF_NETLINK, ..., NETLINK_GENERIC) is refused whole, and so is
 * io_uring_setup(): a ring's IORING_OP_SOCKET (Linux 5.19) makes a socket without the socket()
 * call this filter looks at (measured: io_uring_setup() opened a ring under kfsim exec).  So
 * are io_uring_enter() and io_uring_register(): a ring made outside and inherited (an open
 * descriptor across exec; Linux refuses to pass a ring over SCM_RIGHTS since 6.7, EINVAL) runs
 * what the program submits as the program, in its namespace, and its IORING_OP_SOCKET opened
 * a real generic netlink socket there (measured as root on 2026-12-07, attacks.py
 * "exec_passed_in").  (A ring whose submission thread polls, IORING_SETUP_SQPOLL,
 * needs no call: that thread runs as the ring's maker, in its namespaces, with its rights; so
 * every ring inherited is closed first, kfsim_exec_close_rings().)
 * Two netlink protocols of the real kernel are the same: a socket in any namespace reaches
 * objects kept for the whole machine.  NETLINK_RDMA: while the RDMA subsystem is in its
 * default shared mode, rdma_dev_access_netns() lets every namespace at every RDMA device (a
 * NIC's RDMA function), and RDMA_NL_ADMIN_PERM asks netlink_capable(CAP_NET_ADMIN), which
 * root's program holds: `rdma dev set NAME name ...`, `rdma link delete`, `rdma system set
 * netns exclusive`.  NETLINK_CRYPTO: crypto_netlink_init() makes it in every namespace,
 * while the algorithms it changes (CRYPTO_MSG_UPDATEALG's priority, CRYPTO_MSG_DELALG) are
 * the machine's, IPsec's among them.  Read from Linux 6.18's drivers/infiniband/core and
 * crypto/crypto_user.c; this machine's kernel has neither, so neither was measured.
 * A seccomp filter, inherited by every process started after it and never lifted, answers
 * these calls with EPERM.  It goes on before the PID namespace's init (kfsim) is forked
 * (cli_exec_netns.c): a root program may ptrace its init, and an init outside the filter,
 * made to execve() a shell, escaped it (measured).  Everything else passes.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "cli_exec_seal.h"

#define SIOCGSKNS_CMD 0x894C	/* <linux/sockios.h>: the namespace of a socket */
#define TIOCSTI_CMD 0x5412	/* <asm-generic/ioctls.h>: type into the terminal's input */
#define TIOCLINUX_CMD 0x541C	/* the console's subcommands, TIOCL_PASTESEL among them */
#define TIOCSETD_CMD 0x5423	/* a terminal's line discipline: N_SLIP makes a network device */
#define PIDFS_NS_FIRST 0xFF01	/* _IO(PIDFS_IOCTL_MAGIC, 1): PIDFD_GET_CGROUP_NAMESPACE ... */
#define PIDFS_NS_LAST 0xFF0A	/* ... the namespace ioctls (GET_INFO has a size: not these) */
#define NR_PIDFD_GETFD 438	/* the same number on every architecture (asm-generic) */
#define NR_IO_URING_SETUP 425	/* likewise; its IORING_OP_SOCKET makes sockets past socket() */
#define NR_IO_URING_REGISTER 427 /* io_uring_enter() (426) between the two */
#define AF_NETLINK_FAMILY 16	/* <linux/socket.h> */
#define NETLINK_GENERIC_PROTO 16 /* <linux/netlink.h> */
#define NETLINK_RDMA_PROTO 20
#define NETLINK_CRYPTO_PROTO 21
/* <linux/bpf.h>'s enum bpf_cmd: the commands that open an object by its id */
#define BPF_PROG_BY_ID 13
#define BPF_MAP_BY_ID 14
#define BPF_BTF_BY_ID 19
#define BPF_LINK_BY_ID 30

#if defined(__x86_64__)
#define SEAL_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SEAL_ARCH AUDIT_ARCH_AARCH64
#endif

/*
 * A ring made with IORING_SETUP_SQPOLL needs no system call once made: a thread of its maker
 * polls the submission queue in shared memory and runs what it finds as the maker, in the
 * maker's namespaces, past every filter.  One inherited from whoever started `kfsim exec` (a
 * descriptor left open across exec, as a daemon that leaks them to its children leaves it)
 * ran the program's IORING_OP_SOCKET as that process: a real generic netlink socket opened in
 * the machine's namespace, as root and as nobody, while the maker kept its thread awake
 * (measured on 2026-12-08, attacks.py "exec_passed_in").  The filter refuses every io_uring
 * call, so no ring is of use to the program: each one open now is closed, and no other can
 * come in (pidfd_getfd() is refused, a ring over SCM_RIGHTS is EINVAL since Linux 6.7, and
 * /proc/PID/fd of a process outside is beyond the program's PID namespace).  Told by what
 * /proc/self/fd names it, as the kernel's anon_inode_getfile("[io_uring]") made it.
 */
int kfsim_exec_close_rings(char *why, size_t size)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	int *rings = NULL;
	size_t n = 0;

	if (!dir)
		return snprintf(why, size, "cannot list its descriptors in /proc/self/fd (%s)",
				strerror(errno)), -errno;
	while ((d = readdir(dir))) {
		char path[64], target[32];
		ssize_t len;
		int fd, *more;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		fd = atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (fd == dirfd(dir))
			continue;
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0 && errno == ENOENT)
			continue; /* closed since the listing: nothing left to close */
		if (len < 0) {
			/* a descriptor not told is one that may be a ring: fail closed */
			int err = errno;

			closedir(dir);
			free(rings);
			return snprintf(why, size, "cannot tell what descriptor %d is (%s)", fd,
					strerror(err)), -err;
		}
		target[len] = '\0';
		if (strcmp(target, "anon_inode:[io_uring]"))
			continue;
		/* closed after the walk: closing during it may reuse a number readdir() holds */
		more = realloc(rings, (n + 1) * sizeof(*rings));
		if (!more) {
			closedir(dir);
			free(rings);
			return snprintf(why, size, "no memory"), -ENOMEM;
		}
		rings = more;
		rings[n++] = fd;
	}
	closedir(dir);
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "kfsim exec: closed the io_uring ring inherited as descriptor %d: "
			"its polling thread would run the program's requests as its maker, in its "
			"namespaces\n", rings[i]);
		close(rings[i]);
	}
	free(rings);
	return 0;
}

#ifdef SEAL_ARCH
#define ARG_LO(n) (offsetof(struct seccomp_data, args) + (n) * sizeof(__u64))
#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int kfsim_exec_seal_namespaces(char *why, size_t size)
{
	/*
	 * Another architecture's system calls (i386's on x86_64, with their own numbers) and
	 * x32's are refused whole: the numbers below are the native ones.  The shim is native,
	 * so a program it goes into is too.
	 */
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SEAL_ARCH, 1, 0),
		DENY,
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __x86_64__
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),	/* __X32_SYSCALL_BIT */
		DENY,
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_setns, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open_by_handle_at, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_PIDFD_GETFD, 0, 1),
		DENY,
		/*
		 * no ring, no IORING_OP_SOCKET: the generic netlink rule below cannot see its
		 * sockets; and none used either, one made outside and inherited
		 */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, NR_IO_URING_SETUP, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, NR_IO_URING_REGISTER, 1, 0),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_bpf, 0, 7),
		/* bpf()'s command is an int: the low 32 bits of its first argument */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_PROG_BY_ID, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_MAP_BY_ID, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_BTF_BY_ID, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BPF_LINK_BY_ID, 0, 1),
		DENY,
		ALLOW,	/* any other bpf() command */
		/*
		 * socket(AF_NETLINK, any type, NETLINK_GENERIC, _RDMA or _CRYPTO): both ints, the
		 * low 32 bits
		 */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 8),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK_FAMILY, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETLINK_GENERIC_PROTO, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETLINK_RDMA_PROTO, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETLINK_CRYPTO_PROTO, 0, 1),
		DENY,
		ALLOW,	/* any other socket */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 1, 0),
		ALLOW,
		/* ioctl's request is an unsigned int: its low 32 bits (little-endian here) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIOCGSKNS_CMD, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI_CMD, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX_CMD, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSETD_CMD, 0, 1),
		DENY,
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, PIDFS_NS_FIRST, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, PIDFS_NS_LAST, 1, 0),
		DENY,
		ALLOW,
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	/* root, or the owner of the new user namespace: CAP_SYS_ADMIN, so no no_new_privs */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
	snprintf(why, size, "cannot close the ways back into the machine's namespaces (seccomp: "
		 "%s)", strerror(errno));
	return -errno;
}
#else
int kfsim_exec_seal_namespaces(char *why, size_t size)
{
	snprintf(why, size, "no seccomp filter for this architecture: the program could enter "
		 "the machine's network namespace");
	return -ENOSYS;
}
#endif
