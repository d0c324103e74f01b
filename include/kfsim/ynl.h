/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_H
#define KFSIM_YNL_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The runtime under the user-side code kfsim-ynl-gen generates (F-user.{h,c}): what the kernel's
 * tools/net/ynl/lib/ynl.{c,h} does for its generated code, on kfsim's netlink client
 * (<kfsim/nl_client.h>), so the same generated code talks to the in-process kernel or to the
 * running one.
 *
 * - struct kfsim_ynl_msg builds attributes (nests get NLA_F_NESTED, every attribute is padded to
 *   4 bytes, as the kernel's nla_put does); a put that does not fit sets @overflow and the
 *   generated put returns -EMSGSIZE.
 * - Parsing validates each attribute against a policy table like ynl_attr_validate(): fixed-size
 *   integers must have their exact size (uint/sint 4 or 8), strings must be NUL-terminated
 *   within their max length, exact-length binaries exact, nests empty or >= 4 bytes, unknown
 *   types above the table and REJECT entries are errors.  Attributes a message does not list
 *   but its set knows are skipped, as ynl does.
 * - Errors: a negative errno, plus a message in struct kfsim_ynl_error.  For kernel errors the
 *   message is ynl's: "Kernel error: 'integer out of range' (bad attribute: .node-cnt)", the
 *   offset resolved to the attribute path by walking the request with its policy.
 *
 * Only uapi types are used here, so this header may share a translation unit with libnl's and
 * with <kfsim/netlink.h>.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/types.h>

/* Policy entry types of generated tables (YNL_PT_* of the kernel's ynl.h). */
enum kfsim_ynl_pt {
	KFSIM_YNL_PT_REJECT = 1,	/* the message never carries it */
	KFSIM_YNL_PT_IGNORE,		/* pad/unused: skipped */
	KFSIM_YNL_PT_FLAG,
	KFSIM_YNL_PT_U8,
	KFSIM_YNL_PT_U16,
	KFSIM_YNL_PT_U32,
	KFSIM_YNL_PT_U64,
	KFSIM_YNL_PT_UINT,		/* 4 or 8 bytes */
	KFSIM_YNL_PT_NUL_STR,
	KFSIM_YNL_PT_STR,		/* unterminated-ok string */
	KFSIM_YNL_PT_BINARY,
	KFSIM_YNL_PT_NEST,
	KFSIM_YNL_PT_BITFIELD32,
};

struct kfsim_ynl_policy_nest;

/**
 * struct kfsim_ynl_policy_attr - how one attribute type of a set is checked and named
 * @type: KFSIM_YNL_PT_*; 0 = not in the set (parsing it is an error)
 * @name: the spec's attribute name, for error messages
 * @len: NUL_STR/STR: max length without the NUL (0: none); BINARY: exact length (0: any)
 * @nest: for NEST, the nested set's policy
 */
struct kfsim_ynl_policy_attr {
	u8 type;
	u16 len;
	const char *name;
	const struct kfsim_ynl_policy_nest *nest;
};

/** struct kfsim_ynl_policy_nest - a set's table: @max_attr + 1 entries. */
struct kfsim_ynl_policy_nest {
	unsigned int max_attr;
	const struct kfsim_ynl_policy_attr *table;
};

/** struct kfsim_ynl_error - what failed: @code (negative errno, 0 = none) and text. */
struct kfsim_ynl_error {
	int code;
	char msg[192];
};

/** struct kfsim_ynl_bin - one string or binary element of a multi-attr/indexed-array. */
struct kfsim_ynl_bin {
	u32 len;	/* strings: without the NUL */
	void *data;	/* strings are NUL-terminated */
};

/** struct kfsim_ynl_bitfield32 - NLA_BITFIELD32 payload. */
struct kfsim_ynl_bitfield32 {
	u32 value;
	u32 selector;
};

/* ---- building ------------------------------------------------------------------------ */

/**
 * struct kfsim_ynl_msg - a growing attribute buffer (the payload after the family headers)
 * @buf / @len / @cap: the bytes; @limit: puts beyond this size fail (models the kernel's
 * fixed-size buffers; 0 = KFSIM_YNL_MSG_LIMIT)
 * @overflow: a put did not fit (the buffer then holds everything before it)
 */
struct kfsim_ynl_msg {
	u8 *buf;
	u32 len, cap, limit;
	bool overflow;
};

#define KFSIM_YNL_MSG_LIMIT 65535u

void kfsim_ynl_msg_init(struct kfsim_ynl_msg *msg, u32 limit);
void kfsim_ynl_msg_release(struct kfsim_ynl_msg *msg);
/** kfsim_ynl_attr_put() - append attribute @type with @len bytes of @data (may be NULL if 0). */
void kfsim_ynl_attr_put(struct kfsim_ynl_msg *msg, u16 type, const void *data, u32 len);
/** kfsim_ynl_nest_start() - open nest @type (NLA_F_NESTED set); returns a cookie for _end. */
u32 kfsim_ynl_nest_start(struct kfsim_ynl_msg *msg, u16 type);
void kfsim_ynl_nest_end(struct kfsim_ynl_msg *msg, u32 cookie);
/** kfsim_ynl_attr_put_uint() - 4 bytes when the value fits, else 8 (NLA_UINT/NLA_SINT). */
void kfsim_ynl_attr_put_uint(struct kfsim_ynl_msg *msg, u16 type, u64 value);
void kfsim_ynl_attr_put_sint(struct kfsim_ynl_msg *msg, u16 type, s64 value);
/** kfsim_ynl_attr_put_str() - a NUL-terminated string (@len bytes of @str plus the NUL). */
void kfsim_ynl_attr_put_str(struct kfsim_ynl_msg *msg, u16 type, const char *str, u32 len);

/* ---- parsing ----------------------------------------------------------------------------- */

/** kfsim_ynl_attr_type() - the type without NLA_F_NESTED/NLA_F_NET_BYTEORDER. */
static inline u16 kfsim_ynl_attr_type(const struct nlattr *attr)
{
	return attr->nla_type & NLA_TYPE_MASK;
}

static inline const void *kfsim_ynl_attr_data(const struct nlattr *attr)
{
	return (const u8 *)attr + NLA_HDRLEN;
}

static inline u32 kfsim_ynl_attr_data_len(const struct nlattr *attr)
{
	return attr->nla_len - NLA_HDRLEN;
}

/**
 * kfsim_ynl_attr_next() - the attribute after @attr within [@head, @head + @len), or NULL
 * @attr: NULL for the first
 * A truncated attribute ends the walk (NULL), as nla_ok() does.
 */
const struct nlattr *kfsim_ynl_attr_next(const void *head, u32 len, const struct nlattr *attr);

#define kfsim_ynl_attr_for_each(pos, head, len) \
	for ((pos) = kfsim_ynl_attr_next(head, len, NULL); (pos); \
	     (pos) = kfsim_ynl_attr_next(head, len, pos))

/**
 * kfsim_ynl_attr_validate() - check @attr against @policy (ynl_attr_validate() rules)
 * Return: 0; -EINVAL with @err's message naming the attribute ("Invalid attribute (node-cnt)
 * length 2, expected 4", "Rejected attribute (version)", "Unknown attribute type 20").
 */
int kfsim_ynl_attr_validate(const struct kfsim_ynl_policy_nest *policy, const struct nlattr *attr,
			    struct kfsim_ynl_error *err);

/** Getters: the payload read as the type (validate first: lengths are trusted here). */
u64 kfsim_ynl_attr_get_uint(const struct nlattr *attr);	/* 1, 2, 4 or 8 bytes */
s64 kfsim_ynl_attr_get_sint(const struct nlattr *attr);	/* 1, 2, 4 or 8 bytes, sign-extended */
/**
 * kfsim_ynl_array_append() - grow the malloc'ed array *@array of *@nr elements of @size bytes
 * by one zeroed element
 * Return: the new element, or NULL (array unchanged) when memory is short.
 */
void *kfsim_ynl_array_append(void **array, unsigned int *nr, size_t size);

/** kfsim_ynl_attr_dup() - a malloc'ed copy of the payload with a NUL after it, or NULL. */
void *kfsim_ynl_attr_dup(const struct nlattr *attr, u32 *len);

/* ---- the socket ----------------------------------------------------------------------- */

struct kfsim_ynl_sock;

/** struct kfsim_ynl_ntf_base - head of every parsed notification (generated F_op_ntf). */
struct kfsim_ynl_ntf_base {
	struct kfsim_ynl_ntf_base *next;
	u16 family;
	u8 cmd;
	void (*free)(struct kfsim_ynl_ntf_base *ntf);
};

/**
 * struct kfsim_ynl_ntf_info - how to turn notification @cmd into an object
 * @alloc_size: size of the F_op_ntf struct (head first)
 * @parse: fill the object after the head from the attributes
 * @free: free the object
 */
struct kfsim_ynl_ntf_info {
	size_t alloc_size;
	int (*parse)(struct kfsim_ynl_ntf_base *ntf, const void *attrs, u32 len,
		     struct kfsim_ynl_error *err);
	void (*free)(struct kfsim_ynl_ntf_base *ntf);
};

/**
 * struct kfsim_ynl_family - what the generated code tells the runtime about a family
 * @name: the genetlink family name
 * @hdr_len: bytes of fixed header after struct genlmsghdr
 * @ntf_info / @ntf_info_size: notification parsers indexed by command
 */
struct kfsim_ynl_family {
	const char *name;
	u32 hdr_len;
	const struct kfsim_ynl_ntf_info *ntf_info;
	unsigned int ntf_info_size;
};

/**
 * kfsim_ynl_sock_create() - bind generated family @family to the client @client
 *
 * Resolves the family id (CTRL_CMD_GETFAMILY) and its multicast groups.  @client stays owned by
 * the caller and must outlive the socket.
 *
 * Return: the socket, or NULL with @err set: -ENOENT (no such family), -ENOMEM, request errors.
 */
struct kfsim_ynl_sock *kfsim_ynl_sock_create(struct kfsim_nl_client *client,
					     const struct kfsim_ynl_family *family,
					     struct kfsim_ynl_error *err);

/** kfsim_ynl_sock_destroy() - free the socket and any queued notifications (NULL is fine). */
void kfsim_ynl_sock_destroy(struct kfsim_ynl_sock *ys);

/** kfsim_ynl_sock_err() - the last error (code 0 when the last call succeeded). */
const struct kfsim_ynl_error *kfsim_ynl_sock_err(const struct kfsim_ynl_sock *ys);

/** kfsim_ynl_sock_nl_err() - the last kernel answer, decoded (extack offset, policy...). */
const struct kfsim_nl_error *kfsim_ynl_sock_nl_err(const struct kfsim_ynl_sock *ys);

/** kfsim_ynl_family_id() - the resolved family id. */
u16 kfsim_ynl_family_id(const struct kfsim_ynl_sock *ys);

/**
 * kfsim_ynl_reply_cb - called for every reply of a request
 * @attrs / @len: the attributes after genlmsghdr and the fixed header
 * @hdr: the fixed header (NULL when the family has none)
 * @err: where a failing callback explains itself (it becomes kfsim_ynl_sock_err())
 * Return: 0 or a negative errno (stops the request).
 */
typedef int (*kfsim_ynl_reply_cb)(const struct nlmsghdr *nlh, const void *hdr, const void *attrs,
				  u32 len, void *arg, struct kfsim_ynl_error *err);

/**
 * kfsim_ynl_exec() - send command @cmd with @msg's attributes and collect the replies
 * @fixed_hdr: the family's fixed header (family->hdr_len bytes), or NULL for zeroes
 * @dump: set NLM_F_DUMP
 * @req_policy: the request's set policy, to name the bad attribute in error messages
 * @reply_cmd: replies with another genl cmd are notifications: they are queued instead
 *
 * Return: 0, or a negative errno with kfsim_ynl_sock_err() explaining it.
 */
int kfsim_ynl_exec(struct kfsim_ynl_sock *ys, u8 cmd, const void *fixed_hdr,
		   const struct kfsim_ynl_msg *msg, bool dump,
		   const struct kfsim_ynl_policy_nest *req_policy, u8 reply_cmd,
		   kfsim_ynl_reply_cb cb, void *arg);

/**
 * kfsim_ynl_subscribe() - join the family's multicast group @group
 * Return: 0; -ENOENT for a group the family does not have; -EPERM.
 */
int kfsim_ynl_subscribe(struct kfsim_ynl_sock *ys, const char *group);

/**
 * kfsim_ynl_ntf_check() - read pending notifications and queue the parsed objects
 * Return: how many were queued, or a negative errno.  Notifications of commands the family
 * has no parser for are dropped.
 */
int kfsim_ynl_ntf_check(struct kfsim_ynl_sock *ys);

/** kfsim_ynl_ntf_dequeue() - the oldest queued notification (free with its ->free), or NULL. */
struct kfsim_ynl_ntf_base *kfsim_ynl_ntf_dequeue(struct kfsim_ynl_sock *ys);

/* Used by generated code: record an error on the socket. */
void kfsim_ynl_set_err(struct kfsim_ynl_sock *ys, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kfsim_ynl_err_set() - fill @err with @code and a message (used by generated parsers)
 * Return: @code.
 */
int kfsim_ynl_err_set(struct kfsim_ynl_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kfsim_ynl_attr_path() - name the attribute at byte @offset of the attribute stream
 * [@head, @head + @len) as ".header.dev-name" using @policy; "" when nothing is there.
 */
const char *kfsim_ynl_attr_path(const struct kfsim_ynl_policy_nest *policy, const void *head,
				u32 len, u32 offset, char *buf, size_t size);

#pragma GCC visibility pop
#endif /* KFSIM_YNL_H */
