// SPDX-License-Identifier: MIT
/*
 * What the shim keeps from the machine's network: the requests it does not simulate.
 *
 * The shim simulates generic netlink alone.  Passed on, everything else a tool asks of the
 * network (NETLINK_ROUTE's `ip link set eth0 mtu 1400`, `tc`, `bridge`; an interface ioctl such
 * as `ethtool -K eth9 sg off`; a route or ARP ioctl) reached the kernel of whatever network
 * namespace the program ran in: with LD_PRELOAD set by hand, the machine's, where eth0, a
 * simulated device's name, is a real interface (measured 2026-12-07: `ip link set eth0 mtu
 * 1400` under the shim set a real eth0's MTU; attacks.py "shim_host").
 *
 * Invariant kept: such a request reaches the kernel only in the network namespace `kfsim exec`
 * made for the program (it names it in KFSIM_EXEC_NETNS, "DEV:INODE" of the namespace file),
 * which goes away with the program.  Anywhere else (the shim preloaded by hand, or a namespace
 * the program made or entered since) it fails as on a kernel without the feature, and says
 * why once on stderr.  The variable set by hand is the user's word, as LD_PRELOAD is.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "host_guard.h"

/*
 * KFSIM_EXEC_NETNS as the program was started with it, read before main(): the variable is the
 * word of whoever started the program (kfsim exec, or the user by hand), not of the program,
 * which set the machine's namespace in its own environment at run time (os.environ in Python)
 * and had the shim let its NETLINK_ROUTE socket through (measured 2026-12-07, attack
 * "shim_dlvsym").
 */
static char exec_netns[64];

__attribute__((constructor)) static void read_exec_netns(void)
{
	const char *named = getenv("KFSIM_EXEC_NETNS");

	if (named && strlen(named) < sizeof(exec_netns))
		memcpy(exec_netns, named, strlen(named) + 1);
}

bool shim_in_exec_netns(void)
{
	unsigned long long dev, ino;
	struct stat st;
	char tail;

	if (sscanf(exec_netns, "%llu:%llu%c", &dev, &ino, &tail) != 2)
		return false;
	/* thread-self: setns() moves one thread, and the request goes out on this one's */
	if (stat("/proc/thread-self/ns/net", &st) && stat("/proc/self/ns/net", &st))
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

static bool said_socket, said_ioctl, said_sockopt, said_family, said_loader, said_taken;

/*
 * Once per kind: an atomic exchange, not a lock, since a child fork()ed while another thread
 * held one would wait for ever at its first refusal.
 */
static void say_refused(bool *said, const char *what, const char *answer)
{
	if (!__atomic_exchange_n(said, true, __ATOMIC_ACQ_REL))
		fprintf(stderr, "kfsim-netlink: %s refused (%s): only generic netlink is simulated, "
			"and outside the network namespace of `kfsim exec` it would reach this "
			"machine's network (run the program with `kfsim exec`)\n", what, answer);
}

void shim_say_host_refused(bool socket, const char *what)
{
	say_refused(socket ? &said_socket : &said_ioctl, what,
		    socket ? "EPROTONOSUPPORT" : "EOPNOTSUPP");
}

void shim_say_taken_refused(const char *what)
{
	say_refused(&said_taken, what, "EPERM");
}

void shim_say_loader_refused(const char *what)
{
	say_refused(&said_loader, what, "EINVAL");
}

void shim_say_host_refused_as(const char *what, const char *answer)
{
	/* once per answer: a socket option's ENOPROTOOPT, a socket family's EAFNOSUPPORT */
	say_refused(strcmp(answer, "ENOPROTOOPT") ? &said_family : &said_sockopt, what, answer);
}

/*
 * Socket options that configure the machine's network and outlive the socket, set on a socket
 * of another family than netlink (Linux 6.18's numbers):
 *  - x_tables' replacements, the legacy iptables, ip6tables, arptables and ebtables
 *    (IPT_SO_SET_REPLACE and _ADD_COUNTERS 64, 65 at SOL_IP and SOL_IPV6; ARPT_ 96, 97; EBT_
 *    128, 129): `iptables-legacy -P OUTPUT DROP` is one setsockopt() on a raw socket, and by
 *    hand it replaced the filter table of the machine's namespace (measured 2026-12-07, as root
 *    in a namespace standing for the machine, attack "shim_host_sockopts");
 *  - IPVS's, IP_VS_SO_SET_* (IP_VS_BASE_CTL 1152 and the 15 after it, at SOL_IP): ipvsadm's
 *    virtual services, where the kernel has IPVS (not here);
 *  - multicast routing's, MRT_* and MRT6_* (200..212 at SOL_IP and SOL_IPV6): a VIF or a
 *    forwarding entry added by another socket than the routing daemon's stays after it (and
 *    VIFF_REGISTER makes the pimreg device), where the kernel has it (not here).
 */
bool shim_sockopt_configures(int level, int name)
{
	if (level != IPPROTO_IP && level != IPPROTO_IPV6)
		return false;
	if (name == 64 || name == 65 || (name >= 200 && name <= 212))
		return true;
	return level == IPPROTO_IP && (name == 96 || name == 97 || name == 128 || name == 129 ||
				   (name >= 1152 && name < 1152 + 16));
}

/*
 * The line disciplines that register a network device when a tty is put under them
 * (include/uapi/linux/tty.h numbers; each driver's open calls register_netdev() or a
 * channel of one): SLIP, PPP, STRIP, AX.25 (mkiss), X.25, 6pack, synchronous PPP, slcan,
 * CAIF, n_gsm (its network interface), MCTP and can327.
 */
static bool network_ldisc(int ldisc)
{
	static const int nets[] = { 1, 3, 4, 5, 6, 7, 14, 17, 20, 21, 28, 30 };

	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if (ldisc == nets[i])
			return true;
	return false;
}

/*
 * Not socket requests, yet each makes or changes a network device of the namespace the
 * program runs in, and with the shim preloaded by hand that is the machine's (measured
 * 2026-12-07, as root in a namespace standing for the machine, attack "shim_host_devices":
 * TUNSETIFF and TUNSETPERSIST on /dev/net/tun left a real, persistent tap device):
 *  - if_tun.h's requests, _IOC('T', 200..227): TUNSETIFF makes or attaches a tun/tap device,
 *    the rest configure it ('T' 00-AF are the sound timers', the terminals' have no size);
 *  - ppp-ioctl.h's, _IOC('t', 0x00..0x7f): PPPIOCNEWUNIT makes pppN, the rest change it
 *    (the asm-generic terminal requests of x86 and arm64 are 'T', never 't');
 *  - TIOCSETD to a line discipline that registers a network device (network_ldisc()): @ldisc
 *    is the value the caller copied and will pass on (ioctl() in netlink_shim.c).
 */
bool shim_makes_host_device(unsigned int cmd, const int *ldisc)
{
	if (_IOC_TYPE(cmd) == 'T' && _IOC_NR(cmd) >= 200 && _IOC_NR(cmd) <= 227)
		return true;
	if (_IOC_TYPE(cmd) == 't' && _IOC_NR(cmd) < 0x80)
		return true;
	return cmd == TIOCSETD && ldisc && network_ldisc(*ldisc);
}
