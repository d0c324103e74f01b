// SPDX-License-Identifier: MIT
/*
 * Decoding an NLMSG_ERROR / NLMSG_DONE and its extended ACK TLVs into struct kfsim_nl_error.
 * Only bytes inside nlmsg_len are read; a TLV that runs past the end ends the decoding.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <kfsim/err.h>
#include <kfsim/nl_client.h>

static const struct nlattr *tlv_next(const u8 *p, const u8 *end)
{
	const struct nlattr *a = (const struct nlattr *)p;

	if (end - p < NLA_HDRLEN || a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
		return NULL;
	return a;
}

static u32 tlv_u32(const struct nlattr *a)
{
	u32 v = 0;

	if (a->nla_len >= NLA_HDRLEN + sizeof(u32))
		memcpy(&v, (const u8 *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

int kfsim_nl_error_parse(const struct nlmsghdr *nlh, struct kfsim_nl_error *err)
{
	const u8 *start = (const u8 *)nlh, *end, *p;
	const struct nlattr *a;
	s32 code;

	if (!nlh || !err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(s32))
		return -EINVAL;
	end = start + nlh->nlmsg_len;
	memcpy(&code, start + NLMSG_HDRLEN, sizeof(code));
	err->error = code;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		err->in_done = true;
		p = start + NLMSG_HDRLEN + sizeof(s32);
	} else if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsghdr *echo = (const struct nlmsghdr *)(start + NLMSG_HDRLEN + 4);

		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr))
			return nlh->nlmsg_len == NLMSG_HDRLEN + sizeof(s32) ? 0 : -EINVAL;
		err->capped = nlh->nlmsg_flags & NLM_F_CAPPED;
		p = (const u8 *)echo + (err->capped ? NLMSG_HDRLEN : NLMSG_ALIGN(echo->nlmsg_len));
	} else {
		return -EINVAL;
	}
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;

	while (p < end && (a = tlv_next(p, end))) {
		const u8 *data = (const u8 *)a + NLA_HDRLEN;
		size_t len = a->nla_len - NLA_HDRLEN;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			len = strnlen((const char *)data, len);
			if (len >= sizeof(err->msg))
				len = sizeof(err->msg) - 1;
			memcpy(err->msg, data, len);
			err->msg[len] = '\0';
			break;
		case NLMSGERR_ATTR_OFFS:
			err->has_offs = true;
			err->offs = tlv_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			err->has_miss_type = true;
			err->miss_type = tlv_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			err->has_miss_nest = true;
			err->miss_nest = tlv_u32(a);
			break;
		case NLMSGERR_ATTR_POLICY:
			if (len <= sizeof(err->policy)) {
				memcpy(err->policy, data, len);
				err->policy_len = len;
			}
			break;
		default:
			break;
		}
		p += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

const char *kfsim_nl_error_format(const struct kfsim_nl_error *err, char *buf, size_t len)
{
	size_t n;

	if (!len)
		return buf;
	if (err->msg[0])
		n = snprintf(buf, len, "%s", err->msg);
	else if (err->has_miss_type)
		n = snprintf(buf, len, "missing attribute type %u", err->miss_type);
	else
		n = snprintf(buf, len, "%s",
			     strerror(err->error < 0 && err->error != INT_MIN ? -err->error
									      : err->error));
	if (n < len && err->has_offs)
		n += snprintf(buf + n, len - n, " (offset %u)", err->offs);
	if (n < len && err->has_miss_type && err->msg[0])
		n += snprintf(buf + n, len - n, " (missing attribute type %u)", err->miss_type);
	if (n < len && err->has_miss_nest)
		snprintf(buf + n, len - n, " (in nest at offset %u)", err->miss_nest);
	return buf;
}
