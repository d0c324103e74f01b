/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SKBUFF_H
#define KFSIM_SKBUFF_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The socket buffer netlink messages are built in (include/linux/skbuff.h, reduced to what
 * netlink uses: a linear, fixed-size buffer with netlink's control block).
 */
#include <kfsim/slab.h>
#include <kfsim/types.h>

/* ==== the message buffer (a minimal struct sk_buff) ===================================== */

struct kfsim_nl_sock;

/**
 * struct netlink_skb_parms - the netlink control block of a buffer (NETLINK_CB(skb))
 * @portid: sender's port id on a request, destination on a reply (0: the kernel)
 * @dst_group: multicast group a notification goes to (0: unicast)
 * @sk: on a request, the socket that sent it (its credentials are checked)
 */
struct netlink_skb_parms {
	u32 portid;
	u32 dst_group;
	u32 flags;
	struct kfsim_nl_sock *sk;
};

/**
 * struct sk_buff - one fixed-size netlink message buffer
 * @data: the bytes; @len: how many are used; @end: the capacity
 * @cb: NETLINK_CB()
 *
 * Unlike the kernel's, this one is only ever linear and never grows: allocate what you need
 * with nlmsg_new()/genlmsg_new() (NLMSG_DEFAULT_SIZE when unsure).
 */
struct sk_buff {
	unsigned char *data;
	unsigned int len;
	unsigned int end;
	struct netlink_skb_parms cb;
	/* private: */
	struct sk_buff *next;
};

#define NETLINK_CB(skb) ((skb)->cb)

/**
 * kfsim_skb_alloc() - a buffer with room for @size bytes
 * Return: the buffer, or NULL when @size is above 64 KiB or memory is short.
 */
struct sk_buff *kfsim_skb_alloc(unsigned int size, gfp_t flags);

/** kfsim_skb_free() - free @skb (NULL is fine). */
void kfsim_skb_free(struct sk_buff *skb);

static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb)
{
	return skb->data + skb->len;
}

static inline unsigned int skb_tailroom(const struct sk_buff *skb)
{
	return skb->end - skb->len;
}

/** skb_trim() - cut @skb back to @len bytes (no-op when already shorter). */
static inline void skb_trim(struct sk_buff *skb, unsigned int len)
{
	if (skb->len > len)
		skb->len = len;
}

/** kfree_skb() / consume_skb() - free a buffer. */
static inline void kfree_skb(struct sk_buff *skb)
{
	kfsim_skb_free(skb);
}

static inline void consume_skb(struct sk_buff *skb)
{
	kfsim_skb_free(skb);
}

#pragma GCC visibility pop
#endif /* KFSIM_SKBUFF_H */
