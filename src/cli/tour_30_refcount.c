// SPDX-License-Identifier: MIT
/*
 * Tour step "refcount": refcount_t saturating where atomic_t would wrap and free early, then the
 * Rust-for-Linux shapes in C: an Arc shared and dropped, a cleanup guard, and ForeignOwnable's
 * debug mode catching a double take-back.
 */
#include <kfsim/arc.h>
#include <kfsim/cleanup.h>
#include <kfsim/foreign_ownable.h>
#include <kfsim/refcount.h>
#include <kfsim/refcount_demo.h>
#include <stdio.h>

#include "cli.h"

static int tour_saturation(struct kfsim_tour_ctx *ctx)
{
	struct kfsim_refcount_demo_step steps[KFSIM_REFCOUNT_DEMO_STEPS];
	size_t n = kfsim_refcount_demo(steps);
	FILE *out = ctx->out;
	char path[PATH_MAX];
	int ret;

	fprintf(out, "refcount_t walked through %zu calls (full table: kfsim refcount demo):\n", n);
	for (size_t i = 0; i < n; i++) {
		if (steps[i].warning[0])
			fprintf(out, "  %-32s -> 0x%08x  %s\n", steps[i].call, steps[i].after,
				steps[i].warning);
		if (steps[i].atomic_freed && steps[i].returned == 0)
			fprintf(out, "  %-32s    (a wrapping atomic_t would have freed the object "
				     "here, with 2^32 users still holding it)\n", "");
	}
	ret = kfsim_tour_path(ctx, "refcount_saturation.svg", path);
	if (!ret)
		ret = kfsim_refcount_demo_svg(steps, n, path);
	if (ret)
		return ret;
	kfsim_tour_file(ctx, path);
	fprintf(out, "Picture of the counter against a wrapping atomic_t: %s\n", path);
	return 0;
}

static int tour_arc(FILE *out)
{
	static const int answer = 42;
	const int *arc = arc_try_new(&answer, sizeof(answer), NULL, GFP_KERNEL);
	const int *clone;
	void *cookie;
	bool was;

	if (IS_ERR(arc))
		return (int)PTR_ERR(arc);
	clone = arc_clone(arc);
	fprintf(out, "Arc: created with count 1, cloned: count %u, same allocation: %s\n",
		arc_count(arc), arc_ptr_eq(arc, clone) ? "yes" : "no");
	arc_put(clone);
	was = kfsim_foreign_debug_set(true);
	cookie = foreign_into(&foreign_arc, (void *)arc);
	arc = foreign_from(&foreign_arc, cookie);
	fprintf(out, "ForeignOwnable: into_foreign -> %p, from_foreign -> the Arc again; a second\n"
		     "  from_foreign on the same cookie is caught by the debug mode: %s\n",
		cookie, kfsim_errname((int)PTR_ERR(foreign_from(&foreign_arc, cookie))));
	kfsim_foreign_debug_set(was);
	fprintf(out, "arc_put() of the last reference frees it: returns %d\n", arc_put(arc));
	{
		void *buf __free(kfree) = kmalloc(64, GFP_KERNEL);

		fprintf(out, "cleanup.h: a __free(kfree) buffer (%s) is freed when its scope ends\n",
			buf ? "allocated" : "allocation failed");
	}
	return 0;
}

static int tour_refcount(struct kfsim_tour_ctx *ctx)
{
	int ret = tour_saturation(ctx);

	return ret ? ret : tour_arc(ctx->out);
}

static const char *const try_refcount[] = {
	"kfsim refcount demo --svg refcount.svg",
	"kfsim refcount demo --json",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_refcount = {
	.name = "refcount",
	.title = "refcount_t saturation, Arc, cleanup guards and ForeignOwnable",
	.doc = "refcount.md",
	.try_cmds = try_refcount,
	.run = tour_refcount,
};
