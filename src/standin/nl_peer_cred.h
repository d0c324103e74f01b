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

#endif /* KFSIM_STANDIN_NL_PEER_CRED_H */
