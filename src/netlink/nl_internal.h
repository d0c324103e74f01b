/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NETLINK_INTERNAL_H
#define KFSIM_NETLINK_INTERNAL_H

/*
 * What the generic netlink files of src/netlink/ share and nobody else sees: generic netlink's
 * state in a namespace and its request path, and the policy range helpers.  The netlink core
 * below it is af_netlink.h.  Kernel-side files only (this header pulls in <kfsim/netlink.h>,
 * so never include it next to libnl's headers).
 */
#include "af_netlink.h"

#ifndef GENL_START_ALLOC
#define GENL_START_ALLOC (GENL_ID_PMCRAID + 1) /* first dynamic family id */
#endif
#define KFSIM_GENL_MAX_ID 1023

/*
 * struct genl_net - generic netlink in one namespace: what net/netlink/genetlink.c keeps in its
 * globals (the family idr, the group bitmap) and net->genl_sock.  kfsim's namespaces are values,
 * so each has its own families; it is the user data of its kernel socket.
 */
struct genl_net {
	struct kfsim_nl_sock *sock; /* net->genl_sock */
	struct genl_family *families; /* registration order */
	int next_family_id;
	unsigned long mc_groups[KFSIM_NL_MAX_GROUPS / BITS_PER_LONG];
	unsigned int mc_groups_longs; /* the bitmap's size in use, whole longs; never shrinks */
	struct genl_family ctrl;      /* nlctrl, registered by genl_init() */
};

/* genl_kernel.c */
struct genl_net *kfsim_genl_net(const struct kfsim_nl_kernel *k);

/* genetlink.c */
void kfsim_genl_rcv(struct sk_buff *skb);
int kfsim_genl_bind(struct kfsim_nl_sock *sk, int group);
const struct genl_family *kfsim_genl_find_byid(struct kfsim_nl_kernel *k, int id);
int kfsim_genl_family_register_locked(struct kfsim_nl_kernel *k, struct genl_family *family,
				      int id);
/* Iterate a family's commands merged per cmd: do half and dump half (zeroed when absent). */
int kfsim_genl_op_iter(const struct genl_family *family, unsigned int *pos,
		       struct genl_split_ops *doit, struct genl_split_ops *dumpit);

/* genl_ctrl.c */
void kfsim_genl_ctrl_init(struct genl_family *ctrl);

/* nlattr.c */
void kfsim_nla_get_range_unsigned(const struct nla_policy *pt, u64 *min, u64 *max);
void kfsim_nla_get_range_signed(const struct nla_policy *pt, s64 *min, s64 *max);

#endif /* KFSIM_NETLINK_INTERNAL_H */
