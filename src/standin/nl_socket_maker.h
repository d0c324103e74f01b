/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_STANDIN_NL_SOCKET_MAKER_H
#define KFSIM_STANDIN_NL_SOCKET_MAKER_H

/*
 * A server's data sockets made in an empty network namespace of a user namespace of its own,
 * by a helper process (nl_socket_maker.c), for a server that may not make a network namespace
 * itself (not root).
 */
#include <stdbool.h>
#include <sys/types.h>

struct nl_socket_maker {
	int pidfd;	/* the helper; -1 when none runs */
	int fd;		/* our end of its connection; -1 when none */
	bool started;	/* it ran: every pair comes from it, never from the server's namespace */
};

/*
 * kfsim_nl_socket_maker_start() - start the helper (@m's descriptors -1 before).  Return: 0,
 * or -errno when it cannot run (user namespaces not allowed here), with nothing left running.
 */
int kfsim_nl_socket_maker_start(struct nl_socket_maker *m);

/*
 * kfsim_nl_socket_maker_pair() - a connected pair of SOCK_SEQPACKET UNIX sockets (close-on-exec)
 * made by the helper, into @sv.  Return: 0, or -errno (the helper gone, and not restartable).
 */
int kfsim_nl_socket_maker_pair(struct nl_socket_maker *m, int sv[2]);

/* kfsim_nl_socket_maker_stop() - the helper ends (it reads the end of its connection). */
void kfsim_nl_socket_maker_stop(struct nl_socket_maker *m);

#endif /* KFSIM_STANDIN_NL_SOCKET_MAKER_H */
