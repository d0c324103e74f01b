// SPDX-License-Identifier: MIT
/* The kfunc registry and the reference timeline with its SVG and Perfetto renderings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/trace_event.h>
#include "bpf_test_types.h"

static void test_registry_entries(void **state)
{
	const struct kfsim_bpf_kfunc *k;
	char buf[128];
	size_t nr;

	k = kfsim_bpf_kfuncs(&nr);
	assert_true(nr >= 18);
	for (size_t i = 0; i < nr; i++) {
		assert_non_null(k[i].doc);
		assert_true(k[i].since >= KERNEL_VERSION(5, 1, 0));
		/* a removed kfunc names what replaced it; no kernel flag marks it */
		if (k[i].until)
			assert_non_null(k[i].replacement);
		else
			assert_null(k[i].replacement);
	}
	k = kfsim_bpf_kfunc_find("bpf_rbtree_remove");
	assert_non_null(k);
	assert_int_equal(k->flags, KF_ACQUIRE | KF_RET_NULL);
	assert_int_equal(k->since, KERNEL_VERSION(6, 3, 0));
	assert_string_equal(kfsim_bpf_kfunc_flags_str(k->flags, buf, sizeof(buf)),
			    "KF_ACQUIRE | KF_RET_NULL");
	assert_string_equal(kfsim_bpf_kfunc_flags_str(0, buf, sizeof(buf)), "0");
	assert_string_equal(kfsim_bpf_kfunc_flags_str(KF_RELEASE, buf, 4), "KF_");
	assert_int_equal(kfsim_bpf_kfunc_find("bpf_rbtree_left")->since, KERNEL_VERSION(6, 16, 0));
	assert_null(kfsim_bpf_kfunc_find("bpf_nope"));
	assert_null(kfsim_bpf_kfunc_find(NULL));
}

static struct glob g;

static int prog(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);
	struct bpf_rb_node *res;

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	res = bpf_rbtree_first(&g.groot);
	res = bpf_rbtree_remove(&g.groot, res);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(container_of(res, struct node_data, node));
	bpf_rbtree_first(&g.groot); /* broken: no lock */
	return 0;
}

static void test_timeline(void **state)
{
	static struct kfsim_bpf_timeline tl;
	struct kfsim_bpf_run_opts opts = {.timeline = &tl};
	struct kfsim_bpf_run run;
	struct kfsim_trace trace;
	int owning = 0, non_owning = 0, violations = 0;
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	kfsim_console_loglevel_set(0);
	glob_init(&g, NULL);
	assert_int_equal(kfsim_bpf_run(&run, "tl", prog, NULL, &opts, NULL), -EINVAL);
	for (int i = 0; i < tl.nr; i++) {
		owning += tl.ev[i].what == KFSIM_BPF_TL_OWNING;
		non_owning += tl.ev[i].what == KFSIM_BPF_TL_NON_OWNING;
		violations += tl.ev[i].what == KFSIM_BPF_TL_VIOLATION;
	}
	assert_int_equal(owning, 2);	 /* obj_new, remove */
	assert_int_equal(non_owning, 2); /* add, first */
	assert_int_equal(violations, 1);
	assert_int_equal(tl.dropped, 0);

	f = open_memstream(&buf, &size);
	assert_int_equal(kfsim_bpf_timeline_svg(&tl, "a <title> & more", f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "a &lt;title&gt; &amp; more"));
	assert_non_null(strstr(buf, "node_data #1"));
	assert_non_null(strstr(buf, "bpf_rbtree_remove"));
	assert_non_null(strstr(buf, "fill='#d33'")); /* the broken rule */
	free(buf);
	assert_int_equal(kfsim_bpf_timeline_svg(NULL, NULL, stdout), -EINVAL);

	buf = NULL;
	f = open_memstream(&buf, &size);
	kfsim_trace_open_stream(&trace, f);
	kfsim_bpf_timeline_trace(&tl, &trace, 3);
	assert_int_equal(kfsim_trace_close(&trace), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"non-owning\""));
	assert_non_null(strstr(buf, "\"owning\""));
	free(buf);
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entries),
		cmocka_unit_test(test_timeline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
