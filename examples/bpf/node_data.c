// SPDX-License-Identifier: MIT
/*
 * The example of the bpf_rbtree cover letter (Linux 6.3): nodes with a key and some data,
 * ordered by key; the program adds three, looks at the first, removes and drops it, and looks
 * at the first again.  The program body is written as a BPF program would be; only the
 * declarations differ (KFSIM_BTF_STRUCT instead of BTF, a struct instead of private(A) globals).
 */
#include <kfsim/bpf_experimental.h>
#include <kfsim/err.h>
#include "bpf_examples.h"

struct node_data {
	long key;
	long data;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(node_data, BTF_FIELD(node_data, node));

/* private(A): the lock and the root it guards share one allocation. */
struct section_a {
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot; /* __contains(node_data, node) */
};
KFSIM_BTF_STRUCT(section_a, BTF_FIELD(section_a, glock),
		 BTF_CONTAINS(section_a, groot, node_data, node));

struct node_data_out {
	struct section_a *a;
	long first_data[2];
	long removed_key;
};

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a = container_of(a, struct node_data, node);
	const struct node_data *node_b = container_of(b, struct node_data, node);

	return node_a->key < node_b->key;
}

static long add_node(struct section_a *a, long key, long data)
{
	struct node_data *n = bpf_obj_new(node_data);

	if (!n)
		return 1;
	n->key = key;
	n->data = data;
	bpf_spin_lock(&a->glock);
	bpf_rbtree_add(&a->groot, &n->node, less); /* n is non-owning from here */
	bpf_spin_unlock(&a->glock);		   /* ... and invalid from here */
	return 0;
}

/* SEC("tc") in the kernel: returns 0 on success. */
static int rbtree_first_and_remove(void *ctx)
{
	struct node_data_out *out = ctx;
	struct section_a *a = out->a;
	struct bpf_rb_node *res;
	struct node_data *o;

	if (add_node(a, 3, 4) || add_node(a, 5, 6) || add_node(a, 1, 2))
		return 1;

	bpf_spin_lock(&a->glock);
	res = bpf_rbtree_first(&a->groot); /* non-owning */
	if (!res) {
		bpf_spin_unlock(&a->glock);
		return 2;
	}
	o = container_of(res, struct node_data, node);
	out->first_data[0] = o->data;
	res = bpf_rbtree_remove(&a->groot, &o->node); /* owning again */
	bpf_spin_unlock(&a->glock);
	if (!res)
		return 3;
	o = container_of(res, struct node_data, node);
	out->removed_key = o->key;
	bpf_obj_drop(o); /* drop only after unlocking */

	bpf_spin_lock(&a->glock);
	res = bpf_rbtree_first(&a->groot);
	if (!res) {
		bpf_spin_unlock(&a->glock);
		return 4;
	}
	out->first_data[1] = container_of(res, struct node_data, node)->data;
	bpf_spin_unlock(&a->glock);
	return 0;
}

/*
 * The broken variant: the same start, then the first node is removed after the lock was
 * released.  bpf_rbtree_first()'s result is non-owning, valid only inside the critical section:
 * the verifier refuses the program at the bpf_rbtree_remove() call.
 */
static int rbtree_remove_after_unlock(void *ctx)
{
	struct node_data_out *out = ctx;
	struct section_a *a = out->a;
	struct bpf_rb_node *res;

	if (add_node(a, 3, 4) || add_node(a, 5, 6) || add_node(a, 1, 2))
		return 1;

	bpf_spin_lock(&a->glock);
	res = bpf_rbtree_first(&a->groot); /* non-owning */
	bpf_spin_unlock(&a->glock);	   /* ... and invalid from here */
	if (!res)
		return 2;
	res = bpf_rbtree_remove(&a->groot, res); /* the broken rule */
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

static int node_data_run(FILE *out, struct kfsim_bpf_example_result *res,
			 const struct kfsim_bpf_run_opts *opts, bool broken)
{
	struct section_a a = {0};
	struct node_data_out ctx = {.a = &a};
	struct kfsim_bpf_run run;
	int err, ret = -1;

	err = kfsim_bpf_private_init(&a, kfsim_btf_of(section_a));
	if (err)
		return err;
	if (broken)
		err = kfsim_bpf_run(&run, "rbtree_remove_after_unlock", rbtree_remove_after_unlock,
				    &ctx, opts, &ret);
	else
		err = kfsim_bpf_run(&run, "rbtree_first_and_remove", rbtree_first_and_remove,
				    &ctx, opts, &ret);
	if (out && broken) {
		fprintf(out, "rbtree_remove_after_unlock: added keys 3, 5, 1, then removed the first\n"
			     "  node after bpf_spin_unlock(): %d rule(s) broken\n", run.nr_violations);
		for (int i = 0; i < run.nr_violations && i < KFSIM_BPF_RUN_MAX_REPORTS; i++)
			fprintf(out, "  %s: %s\n", run.violations[i].kfunc, run.violations[i].msg);
	} else if (out) {
		fprintf(out, "rbtree_first_and_remove: added keys 3, 5, 1 (data 4, 6, 2)\n");
		fprintf(out, "  first node's data: %ld (key 1)\n", ctx.first_data[0]);
		fprintf(out, "  removed and dropped key %ld\n", ctx.removed_key);
		fprintf(out, "  new first node's data: %ld (key 3)\n", ctx.first_data[1]);
		fprintf(out, "  program returned %d, %d rule(s) broken\n", ret, run.nr_violations);
	}
	if (res) {
		*res = (struct kfsim_bpf_example_result){
			.name = broken ? "node_data_broken" : "node_data",
			.violations = run.nr_violations,
			.nr_values = 4,
			.value_names = {"retval", "first_data0", "removed_key", "first_data1"},
			.values = {ret, ctx.first_data[0], ctx.removed_key, ctx.first_data[1]},
		};
	}
	if (res && broken) {
		res->nr_messages = run.nr_violations < KFSIM_BPF_RUN_MAX_REPORTS
					   ? run.nr_violations : KFSIM_BPF_RUN_MAX_REPORTS;
		for (int i = 0; i < res->nr_messages; i++)
			snprintf(res->messages[i], sizeof(res->messages[i]), "%s: %s",
				 run.violations[i].kfunc, run.violations[i].msg);
	}
	kfsim_bpf_private_free(&a, kfsim_btf_of(section_a));
	if (broken) /* the run is expected to break a rule: the example fails when it does not */
		return run.nr_violations ? 0 : err ? err : -EINVAL;
	if (err)
		return err;
	return ret ? -EINVAL : 0;
}

int kfsim_bpf_example_node_data(FILE *out, struct kfsim_bpf_example_result *res,
				const struct kfsim_bpf_run_opts *opts)
{
	return node_data_run(out, res, opts, false);
}

int kfsim_bpf_example_node_data_broken(FILE *out, struct kfsim_bpf_example_result *res,
				       const struct kfsim_bpf_run_opts *opts)
{
	return node_data_run(out, res, opts, true);
}
