/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_SPEC_H
#define KFSIM_YNL_SPEC_H

/*
 * The in-memory model of one YNL netlink spec, as the kernel's spec language defines it
 * (Documentation/userspace-api/netlink/specs.rst, schemas genetlink{,-c,-legacy}.yaml and
 * netlink-raw.yaml, Linux 6.12).
 *
 * Invariants once ynl_spec_load() returned 0:
 * - every reference is resolved: attr->nested, attr->enum_def, attr->struct_def, msg attrs,
 *   op->notify, set->subset_of all point into this spec; nothing dangles;
 * - names are unique within their list and attribute values unique within a set, enum values
 *   unique within an enum;
 * - every key that appears is allowed at the spec's protocol level;
 * - implicit values are filled in the way the kernel's nlspec.py fills them (attributes count
 *   up from 1, enum entries from value-start, flags are bit positions, ops from 1);
 * - all C names (the kernel generator's names) are computed.
 * All memory belongs to the spec's arena and goes away with ynl_spec_free().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ynl_proto {
	YNL_PROTO_GENETLINK,
	YNL_PROTO_GENETLINK_C,
	YNL_PROTO_GENETLINK_LEGACY,
	YNL_PROTO_NETLINK_RAW,
};

enum ynl_type {
	YNL_T_UNUSED,
	YNL_T_PAD,
	YNL_T_FLAG,
	YNL_T_BINARY,
	YNL_T_U8,
	YNL_T_U16,
	YNL_T_U32,
	YNL_T_U64,
	YNL_T_S8,
	YNL_T_S16,
	YNL_T_S32,
	YNL_T_S64,
	YNL_T_UINT,
	YNL_T_SINT,
	YNL_T_STRING,
	YNL_T_NEST,
	YNL_T_BITFIELD32,
	YNL_T_INDEXED_ARRAY,
	YNL_T_NEST_TYPE_VALUE,
	YNL_T_SUB_MESSAGE,
	YNL_T_COUNT,
};

enum ynl_byte_order { YNL_BO_HOST, YNL_BO_BIG, YNL_BO_LITTLE };

struct ynl_loc {
	int line;	/* 1-based */
	int col;	/* 1-based */
};

struct ynl_entry {
	const char *name;
	const char *doc;
	int64_t value;		/* the enum value (for flags: the bit value 1 << n) */
	bool value_change;	/* not previous + 1: the header spells "= value" */
	const char *c_name;	/* ETHTOOL_UDP_TUNNEL_TYPE_VXLAN */
};

struct ynl_def;

struct ynl_member {
	const char *name;
	const char *doc;
	enum ynl_type type;	/* scalar, binary or string */
	int64_t len;		/* binary/string length, 0 = none */
	enum ynl_byte_order byte_order;
	struct ynl_def *enum_def;
	bool enum_as_flags;
	const char *display_hint;
	struct ynl_def *struct_def;
	const char *c_name;
};

enum ynl_def_type { YNL_DEF_CONST, YNL_DEF_ENUM, YNL_DEF_FLAGS, YNL_DEF_STRUCT };

struct ynl_def {
	const char *name;
	const char *doc;
	enum ynl_def_type type;
	struct ynl_loc loc;
	int64_t value;			/* const */
	const char *value_str;		/* const given as a string */
	const char *header;		/* defined in this header: not rendered */
	const char *scope;		/* NULL = uapi */
	bool render_max;
	bool has_enum_name;		/* enum-name key present */
	const char *enum_name;		/* NULL with has_enum_name = anonymous */
	const char *name_prefix;
	const char *enum_cnt_name;
	int64_t value_start;
	struct ynl_entry *entries;
	int nr_entries;
	struct ynl_member *members;
	int nr_members;
	/* computed */
	const char *c_type;		/* "enum ethtool_foo", "int", "struct ethtool_foo" */
	const char *render_name;	/* ethtool_foo */
	int64_t mask;			/* flags: OR of all entries */
};

struct ynl_checks {
	bool has_min, has_max;
	int64_t min, max;		/* limits; max may exceed s64 for u64-max: see max_u */
	uint64_t max_u;
	bool max_is_unsigned;
	bool has_min_len, has_max_len, has_exact_len;
	int64_t min_len, max_len, exact_len;
	struct ynl_def *flags_mask;
	bool unterminated_ok;
};

struct ynl_attr_set;
struct ynl_submsg;

struct ynl_attr {
	const char *name;
	const char *doc;
	enum ynl_type type;
	uint32_t value;
	struct ynl_loc loc;
	struct ynl_def *enum_def;
	bool enum_as_flags;
	struct ynl_attr_set *nested;
	bool multi_attr;
	enum ynl_byte_order byte_order;
	const char *display_hint;
	const char *name_prefix;
	struct ynl_def *struct_def;
	enum ynl_type sub_type;		/* indexed-array; YNL_T_COUNT = none */
	const char **type_value;
	int nr_type_value;
	struct ynl_submsg *sub_message;
	struct ynl_attr *selector;
	bool has_checks;
	struct ynl_checks checks;
	int64_t len;			/* binary 'len' */
	/* computed */
	bool gen_c_rules;		/* not netlink-raw: the policy as ynl-gen-c.py prints it */
	const char *enum_name;		/* ETHTOOL_A_PLCA_NODE_CNT */
	const char *c_name;		/* node_cnt */
	struct ynl_attr_set *set;
};

struct ynl_attr_set {
	const char *name;
	const char *doc;
	struct ynl_loc loc;
	const char *name_prefix_key;
	bool has_enum_name;
	const char *enum_name;
	struct ynl_attr_set *subset_of;
	const char *attr_cnt_name_key;
	const char *attr_max_name_key;
	struct ynl_attr *attrs;		/* for a subset: copies pointing at the real attrs */
	struct ynl_attr **real;		/* subset: the parent's attribute for each entry */
	int nr_attrs;
	/* computed */
	const char *c_name;		/* plca ("" when equal to the family) */
	const char *prefix;		/* ETHTOOL_A_PLCA_ */
	const char *max_name;		/* ETHTOOL_A_PLCA_MAX */
	const char *cnt_name;		/* __ETHTOOL_A_PLCA_MAX / override */
	uint32_t max_value;		/* highest attribute value */
	const char *render_name;	/* ethtool_plca */
};

struct ynl_msg {
	bool present;
	bool has_value;
	uint32_t value;
	struct ynl_attr **attrs;	/* resolved in spec order */
	int nr_attrs;
};

struct ynl_op_mode {
	bool present;
	struct ynl_msg request;
	struct ynl_msg reply;
	const char *pre;
	const char *post;
};

#define YNL_OP_ADMIN_PERM	0x1
#define YNL_OP_UNS_ADMIN_PERM	0x2
#define YNL_DV_STRICT		0x1
#define YNL_DV_DUMP		0x2
#define YNL_DV_DUMP_STRICT	0x4

struct ynl_op {
	const char *name;
	const char *doc;
	struct ynl_loc loc;
	bool has_value;
	uint32_t value;
	struct ynl_attr_set *set;
	unsigned int flags;
	unsigned int dont_validate;
	struct ynl_op_mode do_;
	struct ynl_op_mode dump;
	struct ynl_op *notify;
	struct ynl_msg event;
	const char *mcgrp;
	struct ynl_def *fixed_header;
	/* computed (nlspec.py semantics) */
	bool is_async;			/* notify or event */
	bool has_req_value, has_rsp_value;
	uint32_t req_value, rsp_value;
	const char *enum_name;		/* ETHTOOL_MSG_PLCA_GET_CFG */
	const char *rsp_enum_name;	/* directional: ETHTOOL_MSG_PLCA_GET_CFG_REPLY */
	const char *c_name;		/* plca_get_cfg */
};

struct ynl_mcgrp {
	const char *name;
	const char *c_define_name;
	int64_t flags;
	bool has_value;
	uint32_t value;
	const char *define;		/* ETHTOOL_MCGRP_MONITOR_NAME */
};

struct ynl_submsg_fmt {
	const char *value;
	struct ynl_attr_set *set;
	struct ynl_def *fixed_header;
};

struct ynl_submsg {
	const char *name;
	struct ynl_loc loc;
	struct ynl_submsg_fmt *formats;
	int nr_formats;
};

struct ynl_arena;

struct ynl_spec {
	struct ynl_arena *arena;
	const char *path;
	const char *name;
	const char *doc;
	enum ynl_proto proto;
	const char *uapi_header_key;
	int64_t version;
	const char *c_family_name;
	const char *c_version_name;
	bool max_by_define;
	const char *kernel_policy;	/* split (default), per-op, global */
	bool has_protonum;
	int64_t protonum;
	const char *cmd_cnt_name;
	const char *cmd_max_name;
	struct ynl_def *defs;
	int nr_defs;
	struct ynl_attr_set *sets;
	int nr_sets;
	bool directional;
	const char *ops_name_prefix;
	bool ops_has_enum_name;
	const char *ops_enum_name;
	const char *async_prefix;
	bool has_async_enum;
	const char *async_enum;
	struct ynl_def *fixed_header;
	struct ynl_op *ops;
	int nr_ops;
	struct ynl_mcgrp *mcgrps;
	int nr_mcgrps;
	struct ynl_submsg *submsgs;
	int nr_submsgs;
	const char **kernel_headers;	/* kernel-family.headers */
	int nr_kernel_headers;
	const char *sock_priv;		/* kernel-family.sock-priv */
	/* Problems the kernel's own tools accept, reported but not fatal (file:line:col: warning:). */
	const char *warnings[16];
	int nr_warnings;
	/* computed */
	const char *ident;		/* name with '-' -> '_' */
	const char *c_name;		/* lower-case ident */
	const char *fam_key;		/* ETHTOOL_FAMILY_NAME */
	const char *ver_key;		/* ETHTOOL_FAMILY_VERSION */
	const char *uapi_header;	/* linux/ethtool.h */
	const char *uapi_header_name;	/* ethtool (for the include guard) */
	const char *op_prefix;		/* ETHTOOL_MSG_ */
	const char *async_op_prefix;
};

/**
 * ynl_spec_load() - read, check and resolve the spec in @path
 * @err: receives every problem found, "file:line:column: message" each, one per line (those
 *       the reading can go past, then the first one it cannot, if any; "and N more problems"
 *       when @err cannot hold them all), on failure (at least 512 bytes)
 * @errp: receives 0, -EINVAL (bad spec), -ENOMEM or the errno of opening @path
 *
 * Return: the spec, or NULL with @err filled (bad YAML, unknown or missing key, wrong value
 * type, reference to an undefined set/enum/struct/attribute/op, duplicate name or value,
 * key not allowed at the spec's protocol level, out of memory).
 */
struct ynl_spec *ynl_spec_load(const char *path, char *err, size_t err_size, int *errp);

/** ynl_spec_free() - release a spec from ynl_spec_load() (NULL is fine). */
void ynl_spec_free(struct ynl_spec *spec);

/* Names and facts shared by the emitters. */
const char *ynl_type_name(enum ynl_type type);
bool ynl_type_is_scalar(enum ynl_type type);	/* fixed-size ints and uint/sint */
bool ynl_type_is_signed(enum ynl_type type);
int ynl_type_size(enum ynl_type type);		/* fixed ints: bytes; else 0 */
const char *ynl_type_ctype(enum ynl_type type);	/* __u32, __s8 ... */
const char *ynl_proto_name(enum ynl_proto proto);
/* Whether two request/reply blocks list the same attributes, in any order. */
bool ynl_msg_same_attrs(const struct ynl_msg *a, const struct ynl_msg *b);

/* The attributes a set really declares (a subset resolves to its parent's attrs). */
static inline struct ynl_attr *ynl_set_attr(const struct ynl_attr_set *set, int i)
{
	return set->real ? set->real[i] : &set->attrs[i];
}

#endif /* KFSIM_YNL_SPEC_H */
