/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_DEMO_H
#define KFSIM_NL_DEMO_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * "kfsim_demo": a small generic netlink family kfsim registers for its CLI, tour and tests.
 * It keeps named objects (a u32 id each) and has one policy that uses every attribute type and
 * constraint the kernel knows, so that every validation rule can be tried on it.  uapi-style:
 * no kernel names, usable next to libnl.
 *
 *   KFSIM_DEMO_CMD_GET   do: one object by ID; dump: all objects (one message each)
 *   KFSIM_DEMO_CMD_SET   do, GENL_ADMIN_PERM: create/update object ID; notifies "events"
 *   KFSIM_DEMO_CMD_DEL   do, GENL_UNS_ADMIN_PERM: delete object ID; notifies "events"
 *   KFSIM_DEMO_CMD_NTF   the notification (same attributes as a GET reply)
 */
#include <kfsim/nl_client.h>

#define KFSIM_DEMO_FAMILY_NAME "kfsim_demo"
#define KFSIM_DEMO_FAMILY_VERSION 1
#define KFSIM_DEMO_MCGRP_EVENTS "events"

enum {
	KFSIM_DEMO_CMD_UNSPEC,
	KFSIM_DEMO_CMD_GET,
	KFSIM_DEMO_CMD_SET,
	KFSIM_DEMO_CMD_DEL,
	KFSIM_DEMO_CMD_NTF,
};

enum {
	KFSIM_DEMO_A_UNSPEC,
	KFSIM_DEMO_A_ID,       /* u32, min 1 (required by every command) */
	KFSIM_DEMO_A_NAME,     /* nul-string, max 15 characters */
	KFSIM_DEMO_A_PRIO,     /* u8, max 7 */
	KFSIM_DEMO_A_PORT,     /* u16, range 1..1023 */
	KFSIM_DEMO_A_SIZE,     /* u64 */
	KFSIM_DEMO_A_OFFSET,   /* s8, range -5..5 */
	KFSIM_DEMO_A_DELTA,    /* s16, min -100 */
	KFSIM_DEMO_A_TEMP,     /* s32, max 125 */
	KFSIM_DEMO_A_BALANCE,  /* s64 */
	KFSIM_DEMO_A_LABEL,    /* string, max 8 (trailing NUL not counted) */
	KFSIM_DEMO_A_MAC,      /* binary, exactly 6 bytes */
	KFSIM_DEMO_A_BLOB,     /* binary, at most 16 bytes */
	KFSIM_DEMO_A_ENABLED,  /* flag */
	KFSIM_DEMO_A_LINK,     /* nest: KFSIM_DEMO_LINK_A_* */
	KFSIM_DEMO_A_LINKS,    /* nested array of KFSIM_DEMO_LINK_A_* */
	KFSIM_DEMO_A_FEATURES, /* bitfield32, valid bits 0x7 */
	KFSIM_DEMO_A_FLAGS,    /* u32, mask 0x3 */
	KFSIM_DEMO_A_COUNT,    /* uint (4 or 8 bytes) */
	KFSIM_DEMO_A_BIAS,     /* sint (4 or 8 bytes), range -1000..1000 */
	KFSIM_DEMO_A_LEGACY,   /* reject: "use KFSIM_DEMO_A_NAME instead" */
	KFSIM_DEMO_A_RESERVED, /* unspec slot: rejected by strict validation */
	KFSIM_DEMO_A_KEY,      /* binary, min 4 bytes */
	KFSIM_DEMO_A_TIMEOUT,  /* msecs */
	__KFSIM_DEMO_A_MAX,
	KFSIM_DEMO_A_MAX = __KFSIM_DEMO_A_MAX - 1
};

enum {
	KFSIM_DEMO_LINK_A_UNSPEC,
	KFSIM_DEMO_LINK_A_PEER,	  /* u32, range 1..4095 */
	KFSIM_DEMO_LINK_A_WEIGHT, /* u16, max 100 */
	__KFSIM_DEMO_LINK_A_MAX,
	KFSIM_DEMO_LINK_A_MAX = __KFSIM_DEMO_LINK_A_MAX - 1
};

/**
 * kfsim_nl_demo_register() - register the "kfsim_demo" family in @k
 *
 * The family and its objects live as long as @k (kfsim_nl_kernel_destroy() frees them).
 * Return: 0, -EEXIST when already registered, -ENOMEM.
 */
int kfsim_nl_demo_register(struct kfsim_nl_kernel *k);

#pragma GCC visibility pop
#endif /* KFSIM_NL_DEMO_H */
