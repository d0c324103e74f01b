// SPDX-License-Identifier: MIT
/*
 * struct sk_buff, reduced to what netlink needs: one linear, fixed-capacity byte buffer.  The
 * data follows the struct in the same allocation, so a buffer is one kmalloc and one kfree.
 */
#include <kfsim/netlink.h>

#define KFSIM_SKB_MAX (64u * 1024u)

struct sk_buff *kfsim_skb_alloc(unsigned int size, gfp_t flags)
{
	struct sk_buff *skb;

	if (size > KFSIM_SKB_MAX)
		return NULL;
	skb = kmalloc(sizeof(*skb) + size, flags & ~__GFP_ZERO);
	if (!skb)
		return NULL;
	memset(skb, 0, sizeof(*skb));
	skb->data = (unsigned char *)(skb + 1);
	skb->end = size;
	return skb;
}

void kfsim_skb_free(struct sk_buff *skb)
{
	kfree(skb);
}
