/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_CLIENT_H
#define KFSIM_NL_CLIENT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The user-space side of kfsim's generic netlink: an in-process generic netlink "kernel", its
 * sockets, and one client that talks either to that emulation or to the running Linux kernel over
 * a real AF_NETLINK/NETLINK_GENERIC socket, returning errors with their decoded extended ACK.
 *
 * This header uses only uapi types (<linux/netlink.h>, <linux/genetlink.h>) and kfsim_-prefixed
 * names, so it may share a translation unit with libnl-3's headers: build a request with libnl
 * (nlmsg_alloc + genlmsg_put + nla_put_u32 ...) and hand nlmsg_hdr(msg) to kfsim_nl_request().
 * The kernel side (policies, nla_parse, genl families) is <kfsim/netlink.h>, which uses the
 * kernel's own names and therefore cannot share a translation unit with libnl.
 *
 * Behaviour followed: Linux 6.18 (net/netlink/af_netlink.c netlink_rcv_skb/netlink_ack/
 * netlink_dump, net/netlink/genetlink.c), checked against the running kernel where possible.
 *
 * Errors are negative errno values; functions returning pointers return ERR_PTR().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <kfsim/types.h>

/* Not in every uapi <linux/netlink.h> (added in 6.7). */
#define KFSIM_NL_ATTR_TYPE_SINT 16
#define KFSIM_NL_ATTR_TYPE_UINT 17

/* The kernel's message buffer for a dump step when the reader has no larger buffer. */
#define KFSIM_NL_DUMP_SIZE_DEFAULT 4096

struct kfsim_nl_kernel;
struct kfsim_nl_sock;
struct kfsim_nl_client;

/**
 * struct kfsim_nl_cred - the simulated credentials of the process that opens a socket
 * @net_admin: CAP_NET_ADMIN in the initial user namespace (passes GENL_ADMIN_PERM and
 *             GENL_UNS_ADMIN_PERM)
 * @net_admin_netns: CAP_NET_ADMIN only in the user namespace owning the socket's network
 *                   namespace (passes GENL_UNS_ADMIN_PERM, not GENL_ADMIN_PERM)
 * @sys_admin: CAP_SYS_ADMIN (needed to join GENL_MCAST_CAP_SYS_ADMIN groups)
 */
struct kfsim_nl_cred {
	bool net_admin;
	bool net_admin_netns;
	bool sys_admin;
};

/** KFSIM_NL_CRED_ROOT / KFSIM_NL_CRED_USER - the two usual callers. */
#define KFSIM_NL_CRED_ROOT ((struct kfsim_nl_cred){.net_admin = true, .sys_admin = true})
#define KFSIM_NL_CRED_USER ((struct kfsim_nl_cred){0})

/* ---- the in-process kernel -------------------------------------------------------------- */

/**
 * kfsim_nl_kernel_create() - an in-process generic netlink subsystem
 *
 * The new kernel has the "nlctrl" family (id GENL_ID_CTRL = 0x10, version 2) registered, which
 * answers CTRL_CMD_GETFAMILY and CTRL_CMD_GETPOLICY for every family registered later with
 * kfsim_genl_register_family() (<kfsim/netlink.h>).  Dynamic family ids start at 0x13, as the
 * kernel's (GENL_START_ALLOC).  Two kernels are fully independent.
 *
 * Return: the kernel, or ERR_PTR(-ENOMEM).
 */
struct kfsim_nl_kernel *kfsim_nl_kernel_create(void);

/**
 * kfsim_nl_kernel_destroy() - close every socket still open and free the kernel
 * @k: the kernel, or NULL (nothing happens)
 *
 * Registered families are unregistered, then handed to their destroy hook (struct genl_family's
 * @destroy) when they have one; the others stay owned by their callers.
 */
void kfsim_nl_kernel_destroy(struct kfsim_nl_kernel *k);

/**
 * kfsim_nl_sock_open() - open a NETLINK_GENERIC socket on the in-process kernel
 * @k: the kernel
 * @cred: the opener's credentials (copied), checked on every request that needs a capability;
 *        the sending task's (kfsim_nl_sock_set_sender()) are these until set otherwise
 *
 * The socket gets a unique port id (1, 2, ...), no options set and no groups joined.
 *
 * Return: the socket, or ERR_PTR(-EINVAL) for a NULL argument, ERR_PTR(-ENOMEM).
 */
struct kfsim_nl_sock *kfsim_nl_sock_open(struct kfsim_nl_kernel *k,
					 const struct kfsim_nl_cred *cred);

/**
 * kfsim_nl_sock_set_sender() - the credentials of the task that makes the next calls on @sock
 * @sender: copied; NULL: the opener's again (the default)
 *
 * Linux checks a GENL_ADMIN_PERM / GENL_UNS_ADMIN_PERM request and a GENL_MCAST_CAP_* join
 * against the opener's credentials (file_ns_capable()) and the sending task's
 * (ns_capable(current)); kfsim asks both, so a descriptor handed to another process, or kept by
 * one that dropped its capabilities, sends with the sender's rights.  A server sets this before
 * each request it reads from a process other than the opener.
 */
void kfsim_nl_sock_set_sender(struct kfsim_nl_sock *sock, const struct kfsim_nl_cred *sender);

/** kfsim_nl_sock_close() - close @sock (NULL is fine); queued messages are dropped. */
void kfsim_nl_sock_close(struct kfsim_nl_sock *sock);

/** kfsim_nl_sock_portid() - the socket's netlink port id (what the kernel calls snd_portid). */
u32 kfsim_nl_sock_portid(const struct kfsim_nl_sock *sock);

/**
 * kfsim_nl_sock_bind() - bind() with a port id: give @sock the port id @portid, as
 * netlink_bind() lets a socket choose one (0 keeps its own).  The kernel allows this once per
 * socket; enforcing "once" is the caller's (the server's BIND does).
 * Return: 0, or -EADDRINUSE when another socket holds @portid.
 */
int kfsim_nl_sock_bind(struct kfsim_nl_sock *sock, u32 portid);

/**
 * kfsim_nl_sock_setsockopt() - set a SOL_NETLINK option
 * @opt: NETLINK_EXT_ACK, NETLINK_CAP_ACK, NETLINK_ADD_MEMBERSHIP or NETLINK_DROP_MEMBERSHIP
 * @val: 0/1 for the flags; the multicast group id for membership
 *
 * Return: 0 (also for a group id in range that no family owns: it is joined and never hears
 * anything, as on the kernel); -ENOPROTOOPT for another option; -EINVAL for group 0 or a group
 * beyond the kernel's group count (a multiple of 64); -EPERM when the group is flagged
 * GENL_MCAST_CAP_NET_ADMIN / _SYS_ADMIN and the credentials lack the capability, when the
 * kernel version in force (kfsim_set_kernel_version()) is 6.6 or later, as in Linux.
 */
int kfsim_nl_sock_setsockopt(struct kfsim_nl_sock *sock, int opt, u32 val);

/**
 * kfsim_nl_sock_set_dump_size() - the size of each buffer a dump step fills
 * @size: bytes, at least 128 (the kernel sizes dump buffers from the reader's receive buffer;
 *        tests use a small size to force a dump across several buffers)
 *
 * Return: 0 or -EINVAL.
 */
int kfsim_nl_sock_set_dump_size(struct kfsim_nl_sock *sock, size_t size);

/**
 * kfsim_nl_sock_send() - sendmsg() of one buffer holding one or more netlink messages
 * @buf: the bytes; @len: their length
 *
 * Runs netlink_rcv_skb(): each message with NLM_F_REQUEST and a type >= NLMSG_MIN_TYPE goes to
 * generic netlink (family by nlmsg_type, header checks, permission, policy validation, then the
 * handler); replies, ACKs (NLMSG_ERROR with the extack TLVs when NETLINK_EXT_ACK is set) and the
 * first dump buffer are queued on @sock for kfsim_nl_sock_recv().  A truncated message ends the
 * buffer silently, as in the kernel.
 *
 * Return: @len, or -EINVAL for a NULL buffer, -EMSGSIZE for more than 64 KiB, -EBUSY when a dump
 * is still running on the socket (the kernel's answer too), -ENOMEM.
 */
ssize_t kfsim_nl_sock_send(struct kfsim_nl_sock *sock, const void *buf, size_t len);

/**
 * kfsim_nl_sock_recv() - recvmsg() of the next queued buffer
 * @buf: destination; @len: its size
 *
 * If the queue is empty and a dump is running, the next dump step runs first (as netlink_dump()
 * runs from recvmsg): it fills one buffer of the dump size and, when the dump is over, appends
 * NLMSG_DONE (int error, NLM_F_MULTI, extack message TLV if any).
 *
 * Return: the length of the buffer (larger than @len if it was truncated, like MSG_TRUNC), or
 * -EAGAIN when nothing is queued.
 */
ssize_t kfsim_nl_sock_recv(struct kfsim_nl_sock *sock, void *buf, size_t len);

/**
 * kfsim_nl_sock_recv_queued() - kfsim_nl_sock_recv() of what is queued already
 * @buf: destination; @len: its size
 *
 * As kfsim_nl_sock_recv(), but a running dump's next step never runs: for a reader that must
 * take the replies made so far off the socket (a server bounding what it holds for a client)
 * while the client's buffer of requests is only partly run, where stepping its dump would
 * finish it between two of the buffer's messages.
 *
 * Return: as kfsim_nl_sock_recv(); -EAGAIN when nothing is queued, a dump running or not.
 */
ssize_t kfsim_nl_sock_recv_queued(struct kfsim_nl_sock *sock, void *buf, size_t len);

/* ---- errors with extended ACK ----------------------------------------------------------- */

/**
 * struct kfsim_nl_error - an NLMSG_ERROR (or failing NLMSG_DONE) and its extended ACK, decoded
 * @error: the negative errno the kernel reported (0 for a plain ACK)
 * @msg: NLMSGERR_ATTR_MSG, "" when absent
 * @has_offs / @offs: NLMSGERR_ATTR_OFFS, the bad attribute's offset from the start of the
 *                    request's nlmsghdr
 * @has_miss_type / @miss_type: NLMSGERR_ATTR_MISS_TYPE, a required attribute that was missing
 * @has_miss_nest / @miss_nest: NLMSGERR_ATTR_MISS_NEST, offset of the nest it was missing from
 * @policy / @policy_len: the payload of NLMSGERR_ATTR_POLICY (NL_POLICY_TYPE_ATTR_* attributes
 *                        describing the policy the bad attribute violated), 0 when absent
 * @capped: NLM_F_CAPPED was set (only the request's header was echoed)
 * @in_done: the error came in an NLMSG_DONE ending a dump
 */
struct kfsim_nl_error {
	int error;
	char msg[128];
	bool has_offs;
	u32 offs;
	bool has_miss_type;
	u32 miss_type;
	bool has_miss_nest;
	u32 miss_nest;
	u8 policy[256];
	u16 policy_len;
	bool capped;
	bool in_done;
};

/**
 * kfsim_nl_error_parse() - decode an NLMSG_ERROR or NLMSG_DONE message
 * @nlh: the message (nlmsg_len bytes are read, never more)
 * @err: filled; zeroed first
 *
 * Honours NLM_F_CAPPED (TLVs follow only the echoed header) and NLM_F_ACK_TLVS.
 *
 * Return: 0, or -EINVAL when @nlh is neither type or is too short to hold the error code.
 */
int kfsim_nl_error_parse(const struct nlmsghdr *nlh, struct kfsim_nl_error *err);

/**
 * kfsim_nl_error_format() - "Kernel error: 'integer out of range' (offset 40)" style text
 *
 * Return: @buf.  Formats: the extack message and offset when present, "missing attribute type
 * N (in nest at offset M)" for MISS_TYPE, else strerror(). -EINVAL when nothing fits is never
 * returned: the text is truncated to @len.
 */
const char *kfsim_nl_error_format(const struct kfsim_nl_error *err, char *buf, size_t len);

/**
 * kfsim_nl_print_caret() - hex dump of @buf, 16 bytes a row, with "^^~~~~~~~~~" under the 4
 * bytes at @offs (an NLMSGERR_ATTR_OFFS); @offs < 0: no caret.
 */
void kfsim_nl_print_caret(FILE *out, const void *buf, size_t len, long offs);

/**
 * kfsim_nl_svg_message() - draw the genetlink message @buf as an SVG byte grid on @out, each
 * byte coloured by what it belongs to (headers, attribute headers, payload, padding, leftover)
 * and the attribute at @bad_offs (an NLMSGERR_ATTR_OFFS; < 0: none) outlined in red.
 * Return: 0, -EINVAL for a buffer shorter than both headers or longer than 4096 bytes, -ENOMEM.
 */
int kfsim_nl_svg_message(FILE *out, const void *buf, size_t len, long bad_offs, const char *title);

/* ---- the client: one API, two transports ---------------------------------------------- */

/**
 * kfsim_nl_client_open_sim() - a client on the in-process kernel @k with credentials @cred
 *
 * Sets NETLINK_EXT_ACK and NETLINK_CAP_ACK on its socket.
 * Return: the client or ERR_PTR(-EINVAL / -ENOMEM).
 */
struct kfsim_nl_client *kfsim_nl_client_open_sim(struct kfsim_nl_kernel *k,
						 const struct kfsim_nl_cred *cred);

/**
 * kfsim_nl_client_open_kernel() - a client on the running kernel's NETLINK_GENERIC
 *
 * Opens the socket with libnl-3 (nl_socket_alloc + nl_connect), sets NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK, and starts sequence numbers at the libnl-chosen value.
 * Return: the client, or ERR_PTR(-EAFNOSUPPORT / -EPROTONOSUPPORT / -EACCES ...) with the
 * reason the socket could not be opened.
 */
struct kfsim_nl_client *kfsim_nl_client_open_kernel(void);

/**
 * kfsim_nl_client_open_server() - a client on the kfsim server listening at @path
 *
 * The server is `kfsim kernel --listen PATH` (<kfsim/nl_server.h>): its kernel and devices
 * persist across clients.  Credentials are the calling process's (root: CAP_NET_ADMIN).
 * Sets NETLINK_EXT_ACK and NETLINK_CAP_ACK; sequence numbers start at 1.
 * Return: the client, or ERR_PTR(-ENOENT / -ECONNREFUSED) when no server listens at @path,
 * ERR_PTR(-ENAMETOOLONG / -ENOMEM).
 */
struct kfsim_nl_client *kfsim_nl_client_open_server(const char *path);

/**
 * kfsim_nl_client_open_inproc() - a client on this process's own stand-in kernel
 *
 * The kernel is started on first use by whoever provided it (kfsim_nl_inproc_provide(); the
 * stand-in kernel of libkfsim does so when it is loaded): the netlink client names no kernel of
 * its own, as a socket names no kernel.  It is then reached as kfsim_nl_client_open_server()
 * reaches a server.
 * Return: the client; ERR_PTR(-EPROTONOSUPPORT) when nothing provides an in-process kernel, the
 * provider's error when it cannot start, or kfsim_nl_client_open_server()'s errors.
 */
struct kfsim_nl_client *kfsim_nl_client_open_inproc(void);

/**
 * kfsim_nl_inproc_provide() - name the function that starts this process's own kernel
 * @start: starts it once (later calls return the same one) and gives the socket path
 *         kfsim_nl_client_open_server() reaches it at; 0 or -errno.  NULL withdraws it.
 *
 * One provider per process, as one kernel per process: a later call replaces the earlier one.
 */
void kfsim_nl_inproc_provide(int (*start)(const char **path));

/** kfsim_nl_client_close() - close the client (NULL is fine). */
void kfsim_nl_client_close(struct kfsim_nl_client *c);

/** kfsim_nl_client_is_kernel() - true when @c talks to the running kernel (not kfsim's). */
bool kfsim_nl_client_is_kernel(const struct kfsim_nl_client *c);

/**
 * kfsim_nl_client_fd() - the descriptor to poll for what the client will read
 * Return: the socket of the running-kernel or server transport; -1 for the in-process one.
 */
int kfsim_nl_client_fd(const struct kfsim_nl_client *c);

/** kfsim_nl_client_portid() - the client socket's port id. */
u32 kfsim_nl_client_portid(const struct kfsim_nl_client *c);

/**
 * kfsim_nl_msg_cb - called for every reply message of a request, in order
 * @nlh: the message (valid during the call only)
 * Return: 0 to go on, or a negative errno that aborts the request and is returned (the rest of
 * the replies are still read and dropped so that the socket stays in sync).
 */
typedef int (*kfsim_nl_msg_cb)(const struct nlmsghdr *nlh, void *arg);

/**
 * kfsim_nl_request() - send one request and collect every reply until its ACK or NLMSG_DONE
 * @c: the client
 * @req: a complete netlink message (nlmsg_len bytes); its nlmsg_seq is overwritten with the
 *       client's next sequence number, nlmsg_pid with 0, and NLM_F_REQUEST | NLM_F_ACK are set
 * @cb: called for each reply (non-error, non-DONE) message carrying that seq, may be NULL
 * @err: filled with the decoded error and extack (also on success: error 0, a warning message
 *       may be present); may be NULL
 *
 * Multicast notifications that arrive meanwhile (nlmsg_seq 0 or portid 0) are queued for
 * kfsim_nl_notifications().
 *
 * Return: 0; the negative errno the kernel answered; the callback's error; -EINVAL for a
 * malformed @req; -EPROTO for a reply stream that breaks the netlink rules; socket errors.
 */
int kfsim_nl_request(struct kfsim_nl_client *c, struct nlmsghdr *req, kfsim_nl_msg_cb cb, void *arg,
		     struct kfsim_nl_error *err);

/**
 * kfsim_nl_send_raw() - send one datagram as it is and hand back every answer it caused
 * @c: a client of the running kernel or of an in-process kernel (not of a server: its answers
 *     come later)
 * @buf: the bytes, untouched: nlmsg_len may lie, several messages may follow one another, the
 *       last may be cut short; seq, pid and flags are the caller's
 * @len: their length
 * @cb: called for each answer (replies, NLMSG_ERROR and NLMSG_DONE alike), may be NULL;
 *      notifications (seq and portid 0) are queued for kfsim_nl_notifications()
 *
 * Both kernels handle a netlink datagram inside sendmsg() (a dump's next part inside
 * recvmsg()), so what is not queued when the send returns never comes: a message that claims
 * more bytes than the datagram holds is dropped without an answer, and that is no wait here.
 *
 * Return: the number of answers, -EINVAL for a NULL @buf or more than 64 KiB, -EMSGSIZE for an
 * answer larger than the receive buffer, or the transport's error.
 */
int kfsim_nl_send_raw(struct kfsim_nl_client *c, const void *buf, size_t len, kfsim_nl_msg_cb cb,
		      void *arg);

/**
 * struct kfsim_nl_family_info - what CTRL_CMD_GETFAMILY answered for a family
 * @ops / @nr_ops: command number and GENL_* flags (GENL_CMD_CAP_DO/DUMP/HASPOL, ADMIN_PERM ...)
 * @mcgrps / @nr_mcgrps: multicast group names and ids
 */
struct kfsim_nl_family_info {
	char name[GENL_NAMSIZ];
	u16 id;
	u32 version;
	u32 hdrsize;
	u32 maxattr;
	u32 nr_ops;
	struct {
		u32 cmd;
		u32 flags;
	} ops[256];
	u32 nr_mcgrps;
	struct {
		char name[GENL_NAMSIZ];
		u32 id;
	} mcgrps[16];
};

/**
 * kfsim_nl_resolve() - look up a family by name with CTRL_CMD_GETFAMILY
 * Return: 0 and @info filled; -ENOENT when no such family (the kernel's answer); -EINVAL for a
 * NULL or over-long @name; request errors.
 */
int kfsim_nl_resolve(struct kfsim_nl_client *c, const char *name, struct kfsim_nl_family_info *info,
		     struct kfsim_nl_error *err);

/**
 * kfsim_nl_subscribe() - join the multicast group @group of family @family
 * Return: 0; -ENOENT for an unknown family or group; -EPERM (see kfsim_nl_sock_setsockopt()).
 */
int kfsim_nl_subscribe(struct kfsim_nl_client *c, const char *family, const char *group);

/**
 * kfsim_nl_notifications() - deliver queued and newly arrived multicast notifications
 * @cb: called for each message
 * @timeout_ms: how long to wait for the first one on the real kernel (0: only what is there);
 *              the in-process kernel never waits
 *
 * Return: the number of messages delivered, or a negative errno.
 */
int kfsim_nl_notifications(struct kfsim_nl_client *c, kfsim_nl_msg_cb cb, void *arg,
			   int timeout_ms);

/* ---- policy dumps (CTRL_CMD_GETPOLICY), decoded --------------------------------------- */

/**
 * struct kfsim_nl_policy_attr - one attribute of one dumped policy (NL_POLICY_TYPE_ATTR_*)
 * @type: NL_ATTR_TYPE_* (0 = the attribute is not in the dump: unspec/reject)
 * @has_*: which of the optional properties the dump carried
 */
struct kfsim_nl_policy_attr {
	u32 type;
	bool has_min_s, has_max_s, has_min_u, has_max_u, has_min_len, has_max_len;
	bool has_policy_idx, has_bitfield32_mask, has_mask;
	s64 min_s, max_s;
	u64 min_u, max_u;
	u32 min_len, max_len;
	u32 policy_idx, policy_maxtype;
	u32 bitfield32_mask;
	u64 mask;
};

/**
 * struct kfsim_nl_policy_dump - a family's policies as CTRL_CMD_GETPOLICY dumped them
 * @ops: per command: the policy index for do / dump (-1 when none)
 * @policies: per policy index, an array of @maxtype[idx] + 1 attributes
 */
/* Policies one dump may describe (devlink's 6.12 spec alone has about a hundred). */
#define KFSIM_NL_POLICY_DUMP_MAX 512

struct kfsim_nl_policy_dump {
	u16 family_id;
	u32 nr_ops;
	struct {
		u32 cmd;
		s32 do_policy, dump_policy;
	} ops[256];
	u32 nr_policies;
	u32 maxtype[KFSIM_NL_POLICY_DUMP_MAX];
	struct kfsim_nl_policy_attr *policies[KFSIM_NL_POLICY_DUMP_MAX];
};

/**
 * kfsim_nl_get_policy() - dump family @family's policies (all ops, or only @op when >= 0)
 * Return: 0 and @dump filled (release with kfsim_nl_policy_dump_free()); -ENOENT for an unknown
 * family or op (for an op, the error's offset points at CTRL_ATTR_OP); -ENODATA when nothing
 * has a policy; request errors; -E2BIG when more than 64 policies or attribute types >= 4096.
 */
int kfsim_nl_get_policy(struct kfsim_nl_client *c, const char *family, int op,
			struct kfsim_nl_policy_dump *dump, struct kfsim_nl_error *err);

/** kfsim_nl_policy_dump_free() - free what kfsim_nl_get_policy() allocated in @dump. */
void kfsim_nl_policy_dump_free(struct kfsim_nl_policy_dump *dump);

/**
 * kfsim_nl_policy_attr_format() - one line describing @attr, e.g. "u32 range 1..255",
 * "nul-string max-len 127", "nested policy 1 maxtype 4", identical for both transports.
 * Return: @buf.
 */
const char *kfsim_nl_policy_attr_format(const struct kfsim_nl_policy_attr *attr, char *buf,
					size_t len);

#pragma GCC visibility pop
#endif /* KFSIM_NL_CLIENT_H */
