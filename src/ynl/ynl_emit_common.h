/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_EMIT_COMMON_H
#define KFSIM_YNL_EMIT_COMMON_H

/*
 * What the kernel and user emitters share: the banner, the scope macros that let a test compile
 * generated code with internal linkage (KFSIM_YNL_LOCAL), struct definitions of fixed headers,
 * and the list of the spec's genetlink ops in command order.
 */
#include "ynl_out.h"
#include "ynl_spec.h"

void ynl_emit_banner(struct ynl_out *out, const struct ynl_spec *spec, const char *what);
/* #ifndef-guarded KFSIM_YNL_DECL / KFSIM_YNL_DEF (see docs/ynl.md). */
void ynl_emit_scope_macros(struct ynl_out *out);
/* Every struct definition of the spec, each behind its own guard (kernel and user share them). */
void ynl_emit_structs(struct ynl_out *out, const struct ynl_spec *spec);
/* The family's fixed header struct (operations.fixed-header), or NULL. */
const struct ynl_def *ynl_family_hdr(const struct ynl_spec *spec);
/* Highest attribute value in @attrs (0 when empty). */
unsigned int ynl_attrs_max(struct ynl_attr *const *attrs, int nr);
/*
 * @v as a C constant of type long long in @buf (at least 32 bytes): INT64_MIN is written
 * (-9223372036854775807LL - 1), as -9223372036854775808LL is the negation of a constant too
 * large for long long (a warning, an error under -Werror).
 */
const char *ynl_c_s64(int64_t v, char *buf);
/*
 * The definition whose bits make @attr's NLA_POLICY_MASK, NULL for none: its flags-mask, else
 * (ynl-gen-c.py: a flags attribute's mask wins over its min/max checks) its flags enum or enum
 * with enum-as-flags; netlink-raw keeps min/max checks instead.  One rule for the policy and
 * the test's random values (two copies had drifted: a test value outside the policy's mask).
 */
const struct ynl_def *ynl_attr_mask_def(const struct ynl_attr *attr);
/* Whether @attr's policy entry is { .len = N } (NLA_UNSPEC): a binary with min-len alone. */
bool ynl_attr_policy_unspec(const struct ynl_attr *attr);
/* The mask of ynl_attr_mask_def(@attr) (entries' bits; an enum-as-flags enum's 1 << value). */
uint64_t ynl_attr_mask(const struct ynl_attr *attr, const struct ynl_def *def);
/* Whether the family talks generic netlink (everything but netlink-raw). */
bool ynl_is_genl(const struct ynl_spec *spec);
/*
 * Whether @set has a kernel policy: some request reaches it through nests (ynl-gen-c.py's
 * struct.request); sets met only in replies get none, as in the kernel's generated files.
 */
bool ynl_set_has_policy(const struct ynl_spec *spec, const struct ynl_attr_set *set);
/* Highest attribute value @set lists: a subset-of set is sized by its own attributes. */
unsigned int ynl_set_policy_max(const struct ynl_attr_set *set);
/* Whether a split op's do and dump requests are equal, so both halves share one policy table. */
bool ynl_op_shares_policy(const struct ynl_op *op);
/*
 * The request whose attributes make the kernel policy of one half of @op (NULL when that half
 * validates nothing), with the policy table's name in @buf: the names F-kernel.c uses.
 */
const struct ynl_msg *ynl_op_policy(const struct ynl_spec *spec, const struct ynl_op *op,
				    bool dump, char *buf, size_t size);

/*
 * Whether the user-side code has a struct for @set: only sets some attribute nests
 * (ynl-gen-c.py's pure nested structs); top-level sets live in the op messages.
 */
bool ynl_set_is_nested(const struct ynl_spec *spec, const struct ynl_attr_set *set);
/*
 * The struct tag of @set's user-side struct: its render name, with '_' appended when that
 * names a definition of the spec too (struct ethtool_stringset_), as ynl-gen-c.py does.
 * Return: a pointer into a small rotating buffer, valid for the next few calls.
 */
const char *ynl_user_set_tag(const struct ynl_spec *spec, const struct ynl_attr_set *set);

/* A non-array nest member is held by pointer only when its set (transitively) contains itself. */
bool ynl_user_nest_by_ptr(const struct ynl_attr *a);
/*
 * ynl-gen-c.py's type_consistent: a dump whose reply is the do's reply shares its struct
 * (F_op_rsp, listed as F_op_list); otherwise the dump has F_op_rsp_dump and F_op_rsp_list.
 */
bool ynl_user_dump_consistent(const struct ynl_op *op);
/*
 * The message of @op the user code has a struct for, by kind: 0 req, 1 rsp, 2 req_dump (only
 * when the dump has a request), 3 rsp_dump (only when not consistent), 4 event; else NULL.
 */
const struct ynl_msg *ynl_user_op_msg(const struct ynl_op *op, int kind);

/* One struct definition as struct @tag, under a KFSIM_YNL_STRUCT_<tag> guard. */
void ynl_emit_struct_def(struct ynl_out *out, const struct ynl_def *def, const char *tag);

#endif /* KFSIM_YNL_EMIT_COMMON_H */
