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

#endif /* KFSIM_STANDIN_NL_PEER_CRED_H */
