// SPDX-License-Identifier: MIT
/*
 * What the verifier makes of a global function's prototype (btf_prepare_func_args(), 6.18, the
 * running 6.18's messages): a global (non-static) BPF function is verified on its own, once, for
 * any arguments its BTF prototype allows, so each call is checked against that prototype instead
 * of being walked into.  Its return type must be a scalar (an int or an enum; void is refused
 * too), a pointer argument to a struct or a scalar is memory of that type's size that may be
 * NULL (PTR_TO_MEM | PTR_MAYBE_NULL: the callee must check it, the caller must pass that many
 * readable bytes), and a pointer to a type whose size is unknown (a struct only declared) is
 * refused.  Pointers to a program context, to void, with a decl tag (__arg_ctx, __arg_nonnull
 * and the like) or of other kinds are left alone: kfsim does not model them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "bpfcc.h"

/* The uapi context structs a program type's context pointer may be declared as. */
static bool ctx_struct(const char *name)
{
	static const char *const names[] = {"__sk_buff",
					    "xdp_md",
					    "pt_regs",
					    "bpf_sock",
					    "bpf_sock_addr",
					    "sk_msg_md",
					    "bpf_sock_ops",
					    "bpf_perf_event_data",
					    "bpf_sysctl",
					    "bpf_sockopt",
					    "sk_reuseport_md",
					    "bpf_sk_lookup",
					    "bpf_cgroup_dev_ctx",
					    "bpf_raw_tracepoint_args",
					    "bpf_nf_ctx",
					    "user_pt_regs"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static const struct btf_type *skip_mods(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

/* Whether parameter @arg of function @func_id carries a decl tag ("arg:ctx", "arg:nonnull"). */
static bool arg_tagged(const struct btf *btf, __u32 func_id, int arg)
{
	for (__u32 id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_decl_tag(t) && t->type == func_id &&
		    btf_decl_tag(t)->component_idx == arg)
			return true;
	}
	return false;
}

static const char *kind_name(const struct btf_type *t)
{
	return btf_is_fwd(t) ? "FWD" : btf_is_struct(t) ? "STRUCT" : btf_is_union(t) ? "UNION" : "";
}

int bpfcc_global_args(const struct btf *btf, const char *name, struct bpfcc_global_args *out)
{
	const struct btf_param *params;
	const struct btf_type *fn, *proto, *ret;
	__u32 id, ret_id;
	int func_id;

	memset(out, 0, sizeof(*out));
	func_id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (func_id <= 0)
		return 0;
	fn = btf__type_by_id(btf, (__u32)func_id);
	if (!fn || btf_vlen(fn) != BTF_FUNC_GLOBAL) /* a FUNC's vlen is its linkage */
		return 0; /* a static function is walked into, as part of its caller */
	proto = btf__type_by_id(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto))
		return 0;
	ret_id = proto->type;
	ret = ret_id ? skip_mods(btf, &ret_id) : NULL;
	if (!ret || !(btf_is_int(ret) || btf_is_any_enum(ret))) {
		snprintf(out->refused, sizeof(out->refused),
			 "Global function %s() doesn't return scalar. Only those are supported.",
			 name);
		return 1;
	}
	params = btf_params(proto);
	out->nr_args = btf_vlen(proto) < BPFCC_MAX_ARGS ? btf_vlen(proto) : BPFCC_MAX_ARGS;
	for (int a = 0; a < out->nr_args; a++) {
		const struct btf_type *t, *to;
		__s64 size;

		id = params[a].type;
		t = skip_mods(btf, &id);
		if (!t || !btf_is_ptr(t) || arg_tagged(btf, (__u32)func_id, a))
			continue;
		id = t->type;
		to = skip_mods(btf, &id);
		if (!to || (!btf_is_composite(to) && !btf_is_fwd(to) && !btf_is_int(to) &&
			    !btf_is_any_enum(to)))
			continue; /* void *, pointers to pointers, arrays: not modelled */
		if (btf_is_composite(to) && ctx_struct(btf__name_by_offset(btf, to->name_off))) {
			out->ctx_arg[a] = true; /* the context: PTR_TO_CTX */
			continue;
		}
		size = btf_is_fwd(to) ? -EINVAL : btf__resolve_size(btf, id);
		if (size <= 0) {
			snprintf(out->refused, sizeof(out->refused),
				 "arg#%d reference type('%s %s') size cannot be determined: %lld",
				 a, kind_name(to), btf__name_by_offset(btf, to->name_off),
				 (long long)size);
			return 1;
		}
		out->mem_size[a] = (int)size;
	}
	return 1;
}
