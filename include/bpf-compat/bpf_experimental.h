/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_COMPAT_EXPERIMENTAL_H
#define KFSIM_BPF_COMPAT_EXPERIMENTAL_H
/*
 * "bpf_experimental.h" for BPF C files outside the kernel tree: the graph kfuncs (bpf_obj_new,
 * bpf_rbtree_*, bpf_list_*, bpf_refcount_acquire) as a BPF program declares them, and the
 * convenience macros the kernel's selftests use.  The same file serves both builds:
 * clang -target bpf (the declarations are __ksym externs the kernel resolves) and
 * kfsim-bpf-cc's native build (the same names are libkfsim's checked kfuncs).
 *
 * The declarations come from kfsim's one kfunc list, include/kfsim/bpf_kfunc_list.h, so a kfunc
 * kfsim gains is declared here too.  The list also names three helpers (bpf_spin_lock,
 * bpf_spin_unlock, bpf_kptr_xchg) that <bpf/bpf_helpers.h> already declares: their rows are
 * declared under other names and never used.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <kfsim/bpf_kfunc_list.h>

#ifndef NULL
#define NULL ((void *)0)
#endif

/** bpf_rb_less_t - less(a, b): a sorts before b (the rbtree's ordering callback) */
typedef bool (*bpf_rb_less_t)(struct bpf_rb_node *a, const struct bpf_rb_node *b);

#pragma push_macro("bpf_spin_lock")
#pragma push_macro("bpf_spin_unlock")
#pragma push_macro("bpf_kptr_xchg")
#undef bpf_spin_lock
#undef bpf_spin_unlock
#undef bpf_kptr_xchg
/* function-like: the struct tag "struct bpf_spin_lock" in the parameters keeps its name */
#define bpf_spin_lock(...) __kfsim_list_row_bpf_spin_lock(__VA_ARGS__)
#define bpf_spin_unlock(...) __kfsim_list_row_bpf_spin_unlock(__VA_ARGS__)
#define bpf_kptr_xchg(...) __kfsim_list_row_bpf_kptr_xchg(__VA_ARGS__)
#define __KFSIM_COMPAT_KFUNC(name, ret, params, ...) extern ret name params __ksym;
KFSIM_BPF_KFUNC_LIST(__KFSIM_COMPAT_KFUNC)
#undef __KFSIM_COMPAT_KFUNC
#undef bpf_spin_lock
#undef bpf_spin_unlock
#undef bpf_kptr_xchg
#pragma pop_macro("bpf_spin_lock")
#pragma pop_macro("bpf_spin_unlock")
#pragma pop_macro("bpf_kptr_xchg")

/** __contains() - on a bpf_rb_root/bpf_list_head: it holds struct @name linked by @node */
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

/** bpf_obj_new() - a new object of @type (owning, maybe NULL) */
#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
/** bpf_obj_drop() - release an owning reference */
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
/** bpf_refcount_acquire() - another owning reference to a refcounted object (maybe NULL) */
#define bpf_refcount_acquire(kptr) bpf_refcount_acquire_impl(kptr, NULL)
/** bpf_rbtree_add() - insert an owned node (0, or -EINVAL and the node dropped) */
#define bpf_rbtree_add(head, node, less) bpf_rbtree_add_impl(head, node, less, NULL, 0)
/** bpf_list_push_front() - put an owned node first (0, or -EINVAL and the node dropped) */
#define bpf_list_push_front(head, node) bpf_list_push_front_impl(head, node, NULL, 0)
/** bpf_list_push_back() - put an owned node last (0, or -EINVAL and the node dropped) */
#define bpf_list_push_back(head, node) bpf_list_push_back_impl(head, node, NULL, 0)

/*
 * may_goto LABEL (6.9+): BPF_JMP | BPF_JCOND (0xe5) with src_reg BPF_MAY_GOTO (0), the jump
 * offset in instructions after the instruction itself (little-endian: code, registers, then
 * the 16-bit offset and a zero immediate).  A compiler that knows the mnemonic says
 * __BPF_FEATURE_MAY_GOTO (kfsim-bpf-cc's native build, where "may_goto" is the runtime's loop
 * budget); for clang (19 does not say it for -target bpf) the instruction is spelled in bytes.
 */
#ifdef __BPF_FEATURE_MAY_GOTO
#define __kfsim_may_goto(label) asm volatile goto("may_goto %l[" #label "]" :::: label)
#else
/* one directive per field: clang's BPF assembler misplaces ".byte a, b" and a lone .short */
#define __kfsim_may_goto(label)                                                                    \
	asm volatile goto("1: .byte 0xe5\n\t.byte 0\n\t"                                          \
			  ".long ((%l[" #label "] - 1b - 8) / 8) & 0xffff\n\t.short 0" :::: label)
#endif

#ifndef can_loop
/** can_loop - true while the frame's loop budget lasts (may_goto): `while (cond && can_loop)` */
#define can_loop                                                                                   \
	({                                                                                         \
		__label__ __kfsim_spent, __kfsim_go_on;                                           \
		bool __kfsim_ret = true;                                                           \
		__kfsim_may_goto(__kfsim_spent);                                                   \
		goto __kfsim_go_on;                                                                \
	__kfsim_spent:                                                                             \
		__kfsim_ret = false;                                                               \
	__kfsim_go_on:;                                                                            \
		__kfsim_ret;                                                                       \
	})
#endif

#ifndef cond_break
/** cond_break - `break` out of the enclosing loop when the frame's loop budget is spent */
#define cond_break                                                                                 \
	({                                                                                         \
		__label__ __kfsim_spent, __kfsim_go_on;                                           \
		__kfsim_may_goto(__kfsim_spent);                                                   \
		goto __kfsim_go_on;                                                                \
	__kfsim_spent:                                                                             \
		break;                                                                             \
	__kfsim_go_on:;                                                                            \
	})
#endif

#endif /* KFSIM_BPF_COMPAT_EXPERIMENTAL_H */
