/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_PRINT_H
#define KFSIM_NL_PRINT_H

/*
 * Debug printers of netlink attribute streams, through their policy (src/netlink/nl_print.c):
 * text for people, JSON for tools.  Not kernel API: the kernel has no such printers.
 */
#include <stdio.h>
#include <kfsim/netlink.h>
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/**
 * kfsim_nla_print() - print an attribute stream through its policy, one line per attribute:
 * "@28   [5] u32 = 7" (offset from @base, type, policy type, value), nests indented; attributes
 * outside the policy and leftover bytes are shown as such.  Never reads past @len.
 */
void kfsim_nla_print(FILE *out, const struct nlattr *head, int len, int maxtype,
		     const struct nla_policy *policy, const void *base);

struct kfsim_json;

/**
 * kfsim_nla_print_json() - kfsim_nla_print() as one JSON array value written to @json: an
 * object per attribute with "offset", "type", "nested_flag", "policy" (the policy type name,
 * null outside the policy) and "value" (a number for integers of the policy's size, true for a
 * flag, printable text unquoted, otherwise the hex kfsim_nla_print() shows) or, for nests, "attrs" / "elements";
 * leftover bytes end the array as {"left_over_bytes": N}.  Never reads past @len.
 */
void kfsim_nla_print_json(struct kfsim_json *json, const struct nlattr *head, int len,
			  int maxtype, const struct nla_policy *policy, const void *base);

/** kfsim_nla_type_name() - "u32", "nul-string" ... for an NLA_* type ("?" if unknown). */
const char *kfsim_nla_type_name(int type);

#pragma GCC visibility pop
#endif /* KFSIM_NL_PRINT_H */
