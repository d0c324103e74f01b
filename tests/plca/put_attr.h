/* SPDX-License-Identifier: MIT */
/*
 * The ethtool suites' one way of writing a request's attribute by hand, as a tool puts it on the
 * wire: header, payload, zeroed padding (the suites build requests byte by byte, including
 * malformed ones, where nla_put() would refuse).
 */
#ifndef TESTS_PLCA_PUT_ATTR_H
#define TESTS_PLCA_PUT_ATTR_H

#include <string.h>
#include <kfsim/netlink.h>

/* @type with @len bytes of @data at @p; Return: where the next attribute goes. */
static inline u8 *put_attr(u8 *p, u16 type, const void *data, u16 len)
{
	struct nlattr nla = {.nla_len = NLA_HDRLEN + len, .nla_type = type};

	memcpy(p, &nla, sizeof(nla));
	if (len)
		memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	return p + NLA_HDRLEN + NLA_ALIGN(len);
}

#endif /* TESTS_PLCA_PUT_ATTR_H */
