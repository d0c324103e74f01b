/* SPDX-License-Identifier: MIT */
/* <net/genetlink.h>: kfsim/netlink.h has the genetlink side too. */
#include <net/netlink.h>
