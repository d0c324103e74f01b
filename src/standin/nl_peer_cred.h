/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_STANDIN_NL_PEER_CRED_H
#define KFSIM_STANDIN_NL_PEER_CRED_H

/* What the stand-in kernel's server asks of nl_peer_cred.c. */
#include <sys/socket.h>
#include <kfsim/nl_client.h>

/*
 * kfsim_nl_peer_cred() - the credentials of the process at the other end of @fd, whose
 * SO_PEERCRED is @peer: the capabilities it really holds in the server's user namespace
 * (nothing at all when they cannot be read race-free).
 */
struct kfsim_nl_cred kfsim_nl_peer_cred(int fd, const struct ucred *peer);

/*
 * kfsim_nl_sender_cred() - the same for the process that sent one message, as SCM_CREDENTIALS
 * names it in @sender (pid as seen from the server, real uid), pinned by @pidfd: the SCM_PIDFD
 * the kernel took when it was sent, always closed here; or -1 where the kernel has no SCM_PIDFD,
 * and the process is pinned with pidfd_open() now.  Nothing when it is gone, not visible, no
 * longer that user, or cannot be read race-free.
 */
struct kfsim_nl_cred kfsim_nl_sender_cred(const struct ucred *sender, int pidfd);

/*
 * kfsim_nl_peer_pidfd() - a pidfd of the process at the other end of @fd (SO_PEERPIDFD, taken
 * at connect(); else pidfd_open() of @pid, the SO_PEERCRED one), or -1.
 */
int kfsim_nl_peer_pidfd(int fd, pid_t pid);

/*
 * kfsim_nl_pidfd_user_ns() - a descriptor of the user namespace of the process @pidfd pins
 * (PIDFD_GET_USER_NAMESPACE, Linux 6.11, which never waits on the process; before it,
 * /proc/@pid/ns/user, which waits out an exec in progress), or -1 with errno set.
 */
int kfsim_nl_pidfd_user_ns(int pidfd, pid_t pid);

/* The user every peer that could not be told counts as (gone before it was asked). */
#define KFSIM_NL_ACCOUNT_UNKNOWN ((uid_t)-1)

/*
 * kfsim_nl_peer_account() - whom the process at the other end of @fd (SO_PEERCRED @peer) counts
 * as for each user's share (nl_peer_account.c): the owner of the user namespace directly below
 * the server's that it runs in (a subordinate uid counts as the user it was granted to), or its
 * uid when it runs in ours or cannot be inspected or seen; KFSIM_NL_ACCOUNT_UNKNOWN when it
 * is gone before it could be told.
 */
uid_t kfsim_nl_peer_account(int fd, const struct ucred *peer);

#endif /* KFSIM_STANDIN_NL_PEER_CRED_H */
