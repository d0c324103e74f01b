/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NETLINK_INTERNAL_H
#define KFSIM_NETLINK_INTERNAL_H

/*
 * What the files of src/netlink/ share and nobody else sees: the in-process kernel and socket
 * structures, the receive path, and the policy range helpers.  Kernel-side files only (this
 * header pulls in <kfsim/netlink.h>, so never include it next to libnl's headers).
 */
#include <kfsim/bug.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h> /* the in-process kernel and its sockets are declared there */

#define KFSIM_NL_MAX_GROUPS 256 /* multicast group ids 0..255 */
#ifndef GENL_START_ALLOC
#define GENL_START_ALLOC (GENL_ID_PMCRAID + 1) /* first dynamic family id */
#endif
#define KFSIM_GENL_MAX_ID 1023

/* A running dump on one socket (netlink_sock's cb + genl's dumpit info). */
struct kfsim_nl_dump {
	struct netlink_callback cb;
	struct genl_dumpit_info info;
	struct netlink_ext_ack extack;
	struct sk_buff *req; /* a private copy of the request message */
	struct nlattr **attrs;
	const struct genl_family *family;
	int done_errno; /* > 0 while the dump goes on */
};

struct kfsim_nl_sock {
	struct kfsim_nl_kernel *kernel;
	struct kfsim_nl_cred cred;
	u32 portid;
	bool ext_ack;
	bool cap_ack;
	size_t dump_size;
	unsigned long groups[KFSIM_NL_MAX_GROUPS / (8 * sizeof(unsigned long))];
	struct sk_buff *rxq_head, *rxq_tail;
	struct kfsim_nl_dump *dump;
	struct kfsim_nl_sock *next;
};

struct kfsim_nl_kernel {
	struct genl_family *families; /* registration order */
	int next_family_id;
	unsigned long mcgrps_used[KFSIM_NL_MAX_GROUPS / (8 * sizeof(unsigned long))];
	struct kfsim_nl_sock *socks;
	u32 next_portid;
	u32 bcast_seq;
	struct genl_family ctrl; /* nlctrl, registered at creation */
};

/* af_netlink.c */
void kfsim_nl_sock_queue(struct kfsim_nl_sock *sock, struct sk_buff *skb);
struct kfsim_nl_sock *kfsim_nl_sock_find(struct kfsim_nl_kernel *k, u32 portid);
/*
 * kfsim_nl_sock_bind() - give @sock the port id @portid (0: keep its own), as netlink_bind()
 * lets a socket choose one; the caller enforces "once".  Return: 0 or -EADDRINUSE.
 */
int kfsim_nl_sock_bind(struct kfsim_nl_sock *sock, u32 portid);
int kfsim_nl_dump_start(struct kfsim_nl_sock *sock, const struct nlmsghdr *nlh,
			const struct genl_family *family, const struct genl_split_ops *op,
			int hdrlen, struct netlink_ext_ack *extack);
void kfsim_nl_dump_abort(struct kfsim_nl_sock *sock);

/* genetlink.c */
int kfsim_genl_rcv_msg(struct kfsim_nl_sock *sock, const struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
const struct genl_family *kfsim_genl_find_byid(struct kfsim_nl_kernel *k, int id);
int kfsim_genl_family_register_locked(struct kfsim_nl_kernel *k, struct genl_family *family,
				      int id);
int kfsim_genl_dump_prepare(struct kfsim_nl_dump *d, const struct genl_split_ops *op, int hdrlen,
			    u32 portid, struct netlink_ext_ack *extack);
/* Iterate a family's commands merged per cmd: do half and dump half (zeroed when absent). */
int kfsim_genl_op_iter(const struct genl_family *family, unsigned int *pos,
		       struct genl_split_ops *doit, struct genl_split_ops *dumpit);

/* genl_ctrl.c */
void kfsim_genl_ctrl_init(struct genl_family *ctrl);

/* nlattr.c */
void kfsim_nla_get_range_unsigned(const struct nla_policy *pt, u64 *min, u64 *max);
void kfsim_nla_get_range_signed(const struct nla_policy *pt, s64 *min, s64 *max);

#endif /* KFSIM_NETLINK_INTERNAL_H */
