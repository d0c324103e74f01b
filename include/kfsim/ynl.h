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
 * - Errors: the kernel library's: ys->err.code a positive errno (or an enum ynl_error_code)
 *   and ys->err.msg its text, e.g. "Kernel error: 'integer out of range' (bad attribute:
 *   .node-cnt)", the offset resolved to the attribute path by walking the request with its
 *   policy.  Internally, functions return negative errnos.
 * - The socket API below is the kernel's YNL C library's (tools/net/ynl/lib/ynl.h, 6.12):
 *   programs written for it (tools/net/ynl/samples) compile and run unchanged; only the
 *   transport differs, chosen when the socket is created (see ynl_sock_create()).
 *
 * Only uapi types are used here, so this header may share a translation unit with libnl's and
 * with <kfsim/netlink.h>.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/types.h>

/* kfsim's netlink client (<kfsim/nl_client.h>): only pointers to it appear here. */
struct kfsim_nl_client;
struct kfsim_nl_error;
struct kfsim_nl_family_info;

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
	__u8 type;
	__u16 len;
	const char *name;
	const struct kfsim_ynl_policy_nest *nest;
};

/** struct kfsim_ynl_policy_nest - a set's table: @max_attr + 1 entries. */
struct kfsim_ynl_policy_nest {
	unsigned int max_attr;
	const struct kfsim_ynl_policy_attr *table;
};

/**
 * enum ynl_error_code - what struct ynl_error's @code holds (the kernel library's values)
 *
 * Below __YNL_ERRNO_END the code is a positive errno (the kernel's answer, or the socket
 * call's); above it, a failure the library itself detected.
 */
enum ynl_error_code {
	YNL_ERROR_NONE = 0,
	__YNL_ERRNO_END = 4096,
	YNL_ERROR_INTERNAL,
	YNL_ERROR_DUMP_INTER,
	YNL_ERROR_EXPECT_ACK,
	YNL_ERROR_EXPECT_MSG,
	YNL_ERROR_UNEXPECT_MSG,
	YNL_ERROR_ATTR_MISSING,
	YNL_ERROR_ATTR_INVALID,
	YNL_ERROR_UNKNOWN_NTF,
	YNL_ERROR_INV_RESP,
	YNL_ERROR_INPUT_INVALID,
	YNL_ERROR_INPUT_TOO_BIG,
};

/**
 * struct ynl_error - what failed (the kernel's YNL C library's struct, same members)
 * @code: positive errno or enum ynl_error_code; 0 = none
 * @attr_offs: the kernel's NLMSGERR_ATTR_OFFS (from the start of the request's nlmsghdr)
 * @msg: the library's text, e.g. "Kernel error: 'integer out of range' (bad attribute:
 *       .node-cnt)"
 */
struct ynl_error {
	enum ynl_error_code code;
	unsigned int attr_offs;
	char msg[512];
};

/** struct kfsim_ynl_bin - one string or binary element of a multi-attr/indexed-array. */
struct kfsim_ynl_bin {
	__u32 len;	/* strings: without the NUL */
	void *data;	/* strings are NUL-terminated */
};

/** struct kfsim_ynl_bitfield32 - NLA_BITFIELD32 payload. */
struct kfsim_ynl_bitfield32 {
	__u32 value;
	__u32 selector;
};

/* ---- building ------------------------------------------------------------------------ */

/**
 * struct kfsim_ynl_msg - a growing attribute buffer (the payload after the family headers)
 * @buf / @len / @cap: the bytes; @limit: puts beyond this size fail (models the kernel's
 * fixed-size buffers; 0 = KFSIM_YNL_MSG_LIMIT)
 * @overflow: a put did not fit (the buffer then holds everything before it)
 */
struct kfsim_ynl_msg {
	__u8 *buf;
	__u32 len, cap, limit;
	bool overflow;
};

#define KFSIM_YNL_MSG_LIMIT 65535u

void kfsim_ynl_msg_init(struct kfsim_ynl_msg *msg, __u32 limit);
void kfsim_ynl_msg_release(struct kfsim_ynl_msg *msg);
/** kfsim_ynl_attr_put() - append attribute @type with @len bytes of @data (may be NULL if 0). */
void kfsim_ynl_attr_put(struct kfsim_ynl_msg *msg, __u16 type, const void *data, __u32 len);
/** kfsim_ynl_nest_start() - open nest @type (NLA_F_NESTED set); returns a cookie for _end. */
__u32 kfsim_ynl_nest_start(struct kfsim_ynl_msg *msg, __u16 type);
void kfsim_ynl_nest_end(struct kfsim_ynl_msg *msg, __u32 cookie);
/** kfsim_ynl_attr_put_uint() - 4 bytes when the value fits, else 8 (NLA_UINT/NLA_SINT). */
void kfsim_ynl_attr_put_uint(struct kfsim_ynl_msg *msg, __u16 type, __u64 value);
void kfsim_ynl_attr_put_sint(struct kfsim_ynl_msg *msg, __u16 type, __s64 value);
/** kfsim_ynl_attr_put_str() - a NUL-terminated string (@len bytes of @str plus the NUL). */
void kfsim_ynl_attr_put_str(struct kfsim_ynl_msg *msg, __u16 type, const char *str, __u32 len);

/* ---- parsing ----------------------------------------------------------------------------- */

/** kfsim_ynl_attr_type() - the type without NLA_F_NESTED/NLA_F_NET_BYTEORDER. */
static inline __u16 kfsim_ynl_attr_type(const struct nlattr *attr)
{
	return attr->nla_type & NLA_TYPE_MASK;
}

static inline const void *kfsim_ynl_attr_data(const struct nlattr *attr)
{
	return (const __u8 *)attr + NLA_HDRLEN;
}

static inline __u32 kfsim_ynl_attr_data_len(const struct nlattr *attr)
{
	return attr->nla_len - NLA_HDRLEN;
}

/**
 * kfsim_ynl_attr_next() - the attribute after @attr within [@head, @head + @len), or NULL
 * @attr: NULL for the first
 * A truncated attribute ends the walk (NULL), as nla_ok() does.
 */
const struct nlattr *kfsim_ynl_attr_next(const void *head, __u32 len, const struct nlattr *attr);

#define kfsim_ynl_attr_for_each(pos, head, len) \
	for ((pos) = kfsim_ynl_attr_next(head, len, NULL); (pos); \
	     (pos) = kfsim_ynl_attr_next(head, len, pos))

/**
 * kfsim_ynl_attr_validate() - check @attr against @policy (ynl_attr_validate() rules)
 * Return: 0; -EINVAL with @err's message naming the attribute ("Invalid attribute (node-cnt)
 * length 2, expected 4", "Rejected attribute (version)", "Unknown attribute type 20").
 */
int kfsim_ynl_attr_validate(const struct kfsim_ynl_policy_nest *policy, const struct nlattr *attr,
			    struct ynl_error *err);

/** Getters: the payload read as the type (validate first: lengths are trusted here). */
__u64 kfsim_ynl_attr_get_uint(const struct nlattr *attr);	/* 1, 2, 4 or 8 bytes */
__s64 kfsim_ynl_attr_get_sint(const struct nlattr *attr);	/* 1, 2, 4 or 8 bytes, sign-extended */
/**
 * kfsim_ynl_array_append() - grow the malloc'ed array *@array of *@nr elements of @size bytes
 * by one zeroed element
 * Return: the new element, or NULL (array unchanged) when memory is short.
 */
void *kfsim_ynl_array_append(void **array, unsigned int *nr, size_t size);

/** kfsim_ynl_attr_dup() - a malloc'ed copy of the payload with a NUL after it, or NULL. */
void *kfsim_ynl_attr_dup(const struct nlattr *attr, __u32 *len);

/* ---- the socket: the kernel YNL C library's API (tools/net/ynl/lib/ynl.h, Linux 6.12) ----- */

struct ynl_ntf_base_type;

/**
 * struct kfsim_ynl_ntf_info - how to turn notification command @cmd into an object
 * @alloc_size: size of the F_op_ntf struct (struct ynl_ntf_base_type's layout first)
 * @parse: fill the object at ntf->data from the attributes; a negative errno with @err set
 * @free: free the object
 */
struct kfsim_ynl_ntf_info {
	size_t alloc_size;
	int (*parse)(struct ynl_ntf_base_type *ntf, const void *attrs, __u32 len,
		     struct ynl_error *err);
	void (*free)(struct ynl_ntf_base_type *ntf);
};

/**
 * struct ynl_family - what generated code tells the library about a family
 * (ynl_<family>_family, passed to ynl_sock_create())
 */
struct ynl_family {
/* private: */
	const char *name;
	size_t hdr_len;		/* fixed header after struct genlmsghdr */
	const struct kfsim_ynl_ntf_info *ntf_info;
	unsigned int ntf_info_size;
};

/**
 * struct ynl_ntf_base_type - the head every F_op_ntf shares
 * @family / @cmd: the notification's family id and genetlink command
 * @free: frees the whole notification (ynl_ntf_free() calls it)
 * @data: the parsed object (F_op_rsp), 8-byte aligned
 */
struct ynl_ntf_base_type {
	__u16 family;
	__u8 cmd;
	struct ynl_ntf_base_type *next;
	void (*free)(struct ynl_ntf_base_type *ntf);
	unsigned char data[] __attribute__((aligned(8)));
};

/**
 * struct ynl_sock - a YNL socket bound to one family
 * @err: the last request's error, cleared at the start of every request (public, as in the
 *       kernel's library: programs print ys->err.msg)
 *
 * The transport is chosen when the socket is created: ynl_sock_create() reads KFSIM_KERNEL
 * (unset: the running kernel; "inproc": kfsim's in-process kernel; a path: the `kfsim kernel
 * --listen` server there); kfsim_ynl_sock_create() takes a client the caller opened.
 */
struct ynl_sock {
	struct ynl_error err;

/* private: */
	const struct ynl_family *family;
	struct kfsim_nl_client *client;
	bool own_client;		/* opened by ynl_sock_create(): closed with the socket */
	struct kfsim_nl_family_info *info;
	struct kfsim_nl_error *nl_err;
	struct ynl_ntf_base_type *ntf_first;
	struct ynl_ntf_base_type **ntf_last_next;
};

/**
 * struct ynl_dump_list_type - the shape of every generated F_op_list element
 * Lists end with YNL_LIST_END, not NULL; an empty dump is YNL_LIST_END itself.
 */
struct ynl_dump_list_type {
	struct ynl_dump_list_type *next;
	unsigned char data[] __attribute__((aligned(8)));
};

extern struct ynl_dump_list_type *YNL_LIST_END;

static inline bool ynl_dump_obj_is_last(void *obj)
{
	return (unsigned char *)obj - offsetof(struct ynl_dump_list_type, data) ==
	       (unsigned char *)YNL_LIST_END;
}

static inline void *ynl_dump_obj_next(void *obj)
{
	struct ynl_dump_list_type *list;

	list = (struct ynl_dump_list_type *)((unsigned char *)obj -
					     offsetof(struct ynl_dump_list_type, data));
	return (unsigned char *)list->next + offsetof(struct ynl_dump_list_type, data);
}

/** ynl_dump_foreach() - walk the objects of a dump list (@iter points at each one). */
#define ynl_dump_foreach(dump, iter)					\
	for (typeof(dump->obj) *iter = &dump->obj;			\
	     !ynl_dump_obj_is_last(iter);				\
	     iter = ynl_dump_obj_next(iter))

/** ynl_dump_empty() - true when a dump call returned no object (NULL means it failed). */
static inline bool ynl_dump_empty(void *dump)
{
	return dump == (void *)YNL_LIST_END;
}

/**
 * ynl_sock_create() - open a socket for family @yf and resolve its id and multicast groups
 * @e: where a failure is explained (may be NULL)
 *
 * Transport: KFSIM_KERNEL unset or empty: the running kernel (AF_NETLINK, NETLINK_GENERIC,
 * NETLINK_CAP_ACK and NETLINK_EXT_ACK set); KFSIM_KERNEL=inproc: an in-process kfsim kernel
 * with the built-in families and devices (one per process, started on first use);
 * KFSIM_KERNEL=PATH: the `kfsim kernel --listen PATH` server.
 *
 * Return: the socket, or NULL with @e set; for a family the kernel does not have:
 * code ENOENT, "failed to receive the socket family info - no such family?" (the kernel
 * library's text).
 */
struct ynl_sock *ynl_sock_create(const struct ynl_family *yf, struct ynl_error *e);

/**
 * kfsim_ynl_sock_create() - ynl_sock_create() on a client the caller opened (<kfsim/nl_client.h>)
 * @client: stays owned by the caller and must outlive the socket
 */
struct ynl_sock *kfsim_ynl_sock_create(struct kfsim_nl_client *client,
				       const struct ynl_family *yf, struct ynl_error *e);

/** ynl_sock_destroy() - free the socket and queued notifications; close what it opened. */
void ynl_sock_destroy(struct ynl_sock *ys);

/**
 * ynl_subscribe() - join the family's multicast group @grp_name
 * Return: 0, or -1 with ys->err set (ENOENT "Multicast group 'x' not found", or the errno of
 * joining).
 */
int ynl_subscribe(struct ynl_sock *ys, const char *grp_name);

/**
 * ynl_socket_get_fd() - the file descriptor to poll for notifications
 * Return: the descriptor, or -1 on kfsim's in-process transport (nothing to poll: call
 * ynl_ntf_check()).
 */
int ynl_socket_get_fd(struct ynl_sock *ys);

/**
 * ynl_ntf_check() - read and parse every notification already received, without waiting
 * Return: 0, or a negative value on a socket error.
 */
int ynl_ntf_check(struct ynl_sock *ys);

/** ynl_has_ntf() - are parsed notifications queued (not counting unread ones)? */
static inline bool ynl_has_ntf(struct ynl_sock *ys)
{
	return ys->ntf_last_next != &ys->ntf_first;
}

/** ynl_ntf_dequeue() - the oldest parsed notification (free with ynl_ntf_free()), or NULL. */
struct ynl_ntf_base_type *ynl_ntf_dequeue(struct ynl_sock *ys);

/** ynl_ntf_free() - free a dequeued notification. */
void ynl_ntf_free(struct ynl_ntf_base_type *ntf);

/* ---- used by generated code ---------------------------------------------------------- */

/** kfsim_ynl_sock_nl_err() - the last kernel answer, decoded (extack offset, policy...). */
const struct kfsim_nl_error *kfsim_ynl_sock_nl_err(const struct ynl_sock *ys);

/** kfsim_ynl_family_id() - the resolved family id. */
__u16 kfsim_ynl_family_id(const struct ynl_sock *ys);

/**
 * kfsim_ynl_reply_cb - called for every reply of a request
 * @attrs / @len: the attributes after genlmsghdr and the fixed header
 * @hdr: the fixed header (NULL when the family has none)
 * @err: where a failing callback explains itself (it becomes ys->err)
 * Return: 0 or a negative errno (stops the request).
 */
typedef int (*kfsim_ynl_reply_cb)(const struct nlmsghdr *nlh, const void *hdr, const void *attrs,
				  __u32 len, void *arg, struct ynl_error *err);

/**
 * kfsim_ynl_exec() - send command @cmd with @msg's attributes and collect the replies
 * @fixed_hdr: the family's fixed header (family->hdr_len bytes), or NULL for zeroes
 * @dump: set NLM_F_DUMP
 * @req_policy: the request's set policy, to name the bad attribute in error messages
 * @reply_cmd: replies with another genl cmd are notifications: they are queued instead
 *
 * Return: 0, or a negative errno with ys->err explaining it (the kernel library's texts).
 */
int kfsim_ynl_exec(struct ynl_sock *ys, __u8 cmd, const void *fixed_hdr,
		   const struct kfsim_ynl_msg *msg, bool dump,
		   const struct kfsim_ynl_policy_nest *req_policy, __u8 reply_cmd,
		   kfsim_ynl_reply_cb cb, void *arg);

/**
 * kfsim_ynl_err_set() - fill @err with @code (stored as a positive errno or enum
 * ynl_error_code) and a message; @err may be NULL
 * Return: @code as given (generated code returns it).
 */
int kfsim_ynl_err_set(struct ynl_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kfsim_ynl_attr_path() - name the attribute at byte @offset of the attribute stream
 * [@head, @head + @len) as ".header.dev-name" using @policy, the way the kernel library does
 * ("!policy", "!oob", "!name", "!nest" where the policy cannot say); "" when nothing is there.
 * @nest_pol: if not NULL, receives the nested policy of the attribute found (MISS_NEST)
 */
const char *kfsim_ynl_attr_path(const struct kfsim_ynl_policy_nest *policy, const void *head,
				__u32 len, __u32 offset, char *buf, size_t size,
				const struct kfsim_ynl_policy_nest **nest_pol);

#pragma GCC visibility pop
#endif /* KFSIM_YNL_H */
