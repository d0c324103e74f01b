// SPDX-License-Identifier: MIT
/*
 * Families register through a table only: a dummy family, one row of a table, reaches a namespace
 * (nlctrl resolves it by name) without the netlink core or any command naming it, and its
 * destroy hook frees it with the namespace.  Also: the namespace's per-subsystem parts (attach,
 * lookup, exit order), and the built-in table every command builds from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/genl_builtin.h>
#include <kfsim/net_namespace.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>
#include <kfsim/slab.h>

static int destroyed; /* dummy families handed to their destroy hook */
static char exits[8];  /* pernet exits, in the order they ran */

struct dummy {
	struct genl_family family;
	int pings;
};

static int dummy_ping(struct sk_buff *skb, struct genl_info *info)
{
	struct dummy *dummy = info->family->priv;

	dummy->pings++;
	return 0;
}

static const struct genl_split_ops dummy_ops[] = {
	{.cmd = 1, .doit = dummy_ping, .flags = GENL_CMD_CAP_DO},
};

static void dummy_destroy(struct genl_family *family)
{
	destroyed++;
	kfree(family->priv);
}

static int dummy_init(struct kfsim_net *net)
{
	struct dummy *dummy = kzalloc(sizeof(*dummy), GFP_KERNEL);
	int err;

	if (!dummy)
		return -ENOMEM;
	dummy->family = (struct genl_family){
		.name = "kfsim_dummy",
		.version = 3,
		.split_ops = dummy_ops,
		.n_split_ops = 1,
		.priv = dummy,
		.destroy = dummy_destroy,
	};
	err = kfsim_genl_register_family(kfsim_net_nl(net), &dummy->family);
	if (err)
		kfree(dummy);
	return err;
}

static int refuse_init(struct kfsim_net *net)
{
	return -EBUSY;
}

static const struct kfsim_genl_builtin dummy_table[] = {
	{"kfsim_dummy", NULL, dummy_init},
};

static void test_dummy_family_through_table(void **state)
{
	struct kfsim_nl_family_info info;
	struct kfsim_nl_client *c;
	struct kfsim_nl_error err;
	struct kfsim_net *net = kfsim_net_create();
	char why[64] = "";

	assert_false(IS_ERR(net));
	destroyed = 0;
	assert_int_equal(kfsim_net_add_families(net, dummy_table, 1, why, sizeof(why)), 0);
	c = kfsim_nl_client_open_sim(kfsim_net_nl(net), &KFSIM_NL_CRED_USER);
	assert_false(IS_ERR(c));
	assert_int_equal(kfsim_nl_resolve(c, "kfsim_dummy", &info, &err), 0);
	assert_int_equal(info.id, 0x13); /* the first dynamic id, as the kernel's GENL_START_ALLOC */
	assert_int_equal(info.version, 3);
	assert_int_equal(info.nr_ops, 1);
	kfsim_nl_client_close(c);
	/* a second registration of the same name is the kernel's -EEXIST */
	assert_int_equal(kfsim_net_add_families(net, dummy_table, 1, why, sizeof(why)), -EEXIST);
	assert_string_equal(why, "cannot register the kfsim_dummy family");
	assert_int_equal(destroyed, 0);
	kfsim_net_destroy(net);
	assert_int_equal(destroyed, 1); /* the hook freed it (ASan would see a leak otherwise) */
}

static void test_table_stops_at_first_error(void **state)
{
	const struct kfsim_genl_builtin table[] = {
		{"kfsim_dummy", NULL, dummy_init},
		{"refuser", NULL, refuse_init},
		{"never", NULL, refuse_init},
	};
	struct kfsim_net *net = kfsim_net_create();
	char why[64];

	destroyed = 0;
	assert_int_equal(kfsim_net_add_families(net, table, 3, why, sizeof(why)), -EBUSY);
	assert_string_equal(why, "cannot register the refuser family");
	assert_non_null(kfsim_genl_find_family(kfsim_net_nl(net), "kfsim_dummy"));
	kfsim_net_destroy(net);
	assert_int_equal(destroyed, 1);
}

static void exit_a(struct kfsim_net *net, void *data)
{
	strcat(exits, "a");
	assert_ptr_equal(data, exits);
}

static void exit_b(struct kfsim_net *net, void *data)
{
	strcat(exits, "b");
}

static void test_pernet_parts(void **state)
{
	static const struct kfsim_pernet_ops a = {"a", exit_a}, b = {"b", exit_b}, c = {"c", NULL};
	struct kfsim_net *net = kfsim_net_create();

	exits[0] = '\0';
	assert_int_equal(kfsim_net_attach(net, &a, exits), 0);
	assert_int_equal(kfsim_net_attach(net, &b, NULL), 0);
	assert_int_equal(kfsim_net_attach(net, &b, NULL), -EEXIST);
	assert_int_equal(kfsim_net_attach(net, NULL, NULL), -EINVAL);
	assert_ptr_equal(kfsim_net_generic(net, &a), exits);
	assert_null(kfsim_net_generic(net, &c));
	assert_null(kfsim_plca_net_of(net)); /* no PLCA part unless its row ran */
	kfsim_kmalloc_fail_nth(1);
	assert_int_equal(kfsim_net_attach(net, &c, NULL), -ENOMEM);
	kfsim_kmalloc_fail_nth(0);
	kfsim_net_destroy(net);
	assert_string_equal(exits, "ba"); /* last attached, first to go */
}

/* The table `kfsim nl`, `kfsim kernel` and the shim share: every row resolvable, in order. */
static void test_builtin_table(void **state)
{
	char why[64];
	struct kfsim_net *net = kfsim_net_create_builtin(why, sizeof(why));
	struct kfsim_plca_net *plca;
	int prev_id = 0;

	assert_false(IS_ERR(net));
	assert_true(kfsim_genl_nr_builtins >= 2);
	for (size_t i = 0; i < kfsim_genl_nr_builtins; i++) {
		const struct genl_family *f =
			kfsim_genl_find_family(kfsim_net_nl(net), kfsim_genl_builtins[i].name);

		assert_non_null(f);
		assert_true(f->id > prev_id); /* ids follow the table's order */
		prev_id = f->id;
	}
	plca = kfsim_plca_net_of(net);
	assert_non_null(plca);
	assert_ptr_equal(kfsim_plca_net_ns(plca), net);
	assert_ptr_equal(kfsim_plca_net_kernel(plca), kfsim_net_nl(net));
	assert_int_equal(kfsim_plca_net_init(net), -EEXIST);
	kfsim_net_destroy(net);

	/* the stand-in kernel: the same families, and the built-in segment's devices */
	net = kfsim_standin_net_create(NULL, why, sizeof(why));
	assert_false(IS_ERR(net));
	assert_non_null(kfsim_genl_find_family(kfsim_net_nl(net), "kfsim_demo"));
	assert_non_null(dev_get_by_name(kfsim_plca_net_of(net), "eth0"));
	kfsim_net_destroy(net);
	/* --config is the ethtool family's: its error is the stand-in's */
	net = kfsim_standin_net_create("/nonexistent.conf", why, sizeof(why));
	assert_ptr_equal(net, ERR_PTR(-ENOENT));
	assert_non_null(strstr(why, "cannot open '/nonexistent.conf'"));
	/* a namespace without the ethtool family has nobody to take the option */
	net = kfsim_net_create();
	assert_false(IS_ERR(net));
	assert_int_equal(kfsim_plca_net_configure(net, NULL, why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "no PLCA namespace among the built-in families");
	kfsim_net_destroy(net);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dummy_family_through_table),
		cmocka_unit_test(test_table_stops_at_first_error),
		cmocka_unit_test(test_pernet_parts),
		cmocka_unit_test(test_builtin_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
