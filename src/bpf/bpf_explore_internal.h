/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_EXPLORE_INTERNAL_H
#define KFSIM_BPF_EXPLORE_INTERNAL_H
/*
 * The kfuncs' side of the decision points (<kfsim/bpf_explore.h>, bpf_explore.c): whether the
 * thread explores, the question at a result, and the fabricated node a NULL result becomes.
 */
#include <kfsim/bpf_explore.h>
#include "bpf_internal.h"

/* The thread's explorer (NULL: none); read by bpf_enter_fast_mask() and the kfuncs. */
extern __thread kfsim_bpf_explore_fn bpf_explorer;

/* The thread explores, and a run is going on: the kfuncs ask at their decision points. */
static inline bool bpf_exploring(void)
{
	return unlikely(bpf_explorer != NULL) && bpf_tstate.run;
}

/*
 * bpf_explore() - ask the explorer about the result of the kfunc being run (bpf_tstate.kfunc)
 * @natural: the run's result is a pointer (an insert's 0)
 * @can_flip: the other outcome can be given
 * @fabricates: the other outcome is a fabricated object
 * Return: true to give the other outcome.
 */
bool bpf_explore(bool natural, bool can_flip, bool fabricates);

/* Where a fabricated rb node goes: the leftmost place, the root, a node's missing child. */
enum bpf_explore_rb_place { BPF_EXPLORE_FIRST, BPF_EXPLORE_ROOT, BPF_EXPLORE_LEFT, BPF_EXPLORE_RIGHT };

/*
 * A new object of @decl's contained type (zeroed as bpf_obj_new() gives it), its node linked in
 * @root at @place (@parent for LEFT/RIGHT), owned by the tree: the node, or NULL without memory.
 */
struct rb_node *bpf_explore_rb_fabricate(const struct bpf_root_decl *decl, struct bpf_rb_root *root,
					 enum bpf_explore_rb_place place, struct rb_node *parent);

/* A new object of @decl's contained type, its node first on the list @head: the node, or NULL. */
struct bpf_list_node *bpf_explore_list_fabricate(const struct bpf_root_decl *decl,
						 struct bpf_list_head *head);

/* bpf_guard.c: an object on pages of its own when the guard is on (else NULL); and its end */
struct bpf_obj_hdr *bpf_guard_alloc(size_t size);
/* A guarded object's pages made inaccessible (true), or false: not guarded, kfree() it. */
bool bpf_guard_free(struct bpf_obj_hdr *hdr);

#endif /* KFSIM_BPF_EXPLORE_INTERNAL_H */
