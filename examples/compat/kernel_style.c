// SPDX-License-Identifier: MIT
/*
 * A kernel module written against <linux/...> names only, built as a userspace program with
 * kfsim's compatibility headers:
 *
 *	cc -std=gnu11 -DKBUILD_MODNAME='"kernel_style"' -I"$(pkg-config --variable=compatdir kfsim)" \
 *		kernel_style.c $(pkg-config --cflags --libs kfsim) -o kernel_style
 *	./kernel_style nobjs=5
 */
#include <linux/cleanup.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rbtree.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

static int nobjs = 3;
module_param(nobjs, int, 0444);
MODULE_PARM_DESC(nobjs, "How many objects to put in the tree");

struct obj {
	struct rb_node node;
	struct kref ref;
	int key;
};

static struct rb_root_cached tree = RB_ROOT_CACHED;
static DEFINE_SPINLOCK(tree_lock);

static bool obj_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct obj, node)->key < rb_entry(b, struct obj, node)->key;
}

static void obj_release(struct kref *ref)
{
	kfree(container_of(ref, struct obj, ref));
}

static int __init kernel_style_init(void)
{
	struct rb_node *rb, *next;
	int sum = 0;

	for (int i = 0; i < nobjs; i++) {
		struct obj *o __free(kfree) = kzalloc(sizeof(*o), GFP_KERNEL);

		if (!o)
			return -ENOMEM;
		o->key = nobjs - i;
		kref_init(&o->ref);
		scoped_guard(spinlock, &tree_lock)
			rb_add_cached(&no_free_ptr(o)->node, &tree, obj_less);
	}
	for (rb = rb_first_cached(&tree); rb; rb = next) {
		struct obj *o = rb_entry(rb, struct obj, node);

		next = rb_next(rb);
		sum = sum * 10 + o->key;
		rb_erase_cached(rb, &tree);
		kref_put(&o->ref, obj_release);
	}
	pr_info("kernel_style: %d objects in key order: %d\n", nobjs, sum);
	return 0;
}

static void __exit kernel_style_exit(void)
{
	pr_info("kernel_style: unloaded\n");
}

module_init(kernel_style_init)
module_exit(kernel_style_exit)

MODULE_LICENSE("MIT");
MODULE_DESCRIPTION("kfsim compatibility headers example");
