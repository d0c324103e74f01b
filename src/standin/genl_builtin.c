// SPDX-License-Identifier: MIT
/*
 * The built-in generic netlink families (<kfsim/genl_builtin.h>): one row per family, in the
 * order they register, so family ids stay as they were (ethtool 0x13, then kfsim_demo).
 */
#include <stdio.h>

#include <kfsim/err.h>
#include <kfsim/genl_builtin.h>
#include <kfsim/kernel.h>
#include <kfsim/nl_demo.h>
#include <kfsim/plca.h>

static int demo_init(struct kfsim_net *net)
{
	return kfsim_nl_demo_register(kfsim_net_nl(net));
}

/*
 * The table: one row X(name, note, init) per family, in registration order.  The rows declare
 * their inits, so a family written as a file of its own (src/standin/family_<name>.c, which
 * src/standin/CMakeLists.txt finds) needs no header to be registered: its file and its row.
 */
#define KFSIM_GENL_BUILTIN_ROWS(X)					\
	X(ETHTOOL_GENL_NAME, "PLCA ops only", kfsim_plca_net_init)	\
	X(KFSIM_DEMO_FAMILY_NAME, NULL, demo_init)

#define DECLARE_INIT(name, note, init) extern int init(struct kfsim_net *net);
KFSIM_GENL_BUILTIN_ROWS(DECLARE_INIT)
#undef DECLARE_INIT

#define ROW(name, note, init) {name, note, init},
const struct kfsim_genl_builtin kfsim_genl_builtins[] = {KFSIM_GENL_BUILTIN_ROWS(ROW)};
#undef ROW
const size_t kfsim_genl_nr_builtins = ARRAY_SIZE(kfsim_genl_builtins);

int kfsim_net_add_families(struct kfsim_net *net, const struct kfsim_genl_builtin *table,
			   size_t nr, char *err, size_t err_size)
{
	for (size_t i = 0; i < nr; i++) {
		int ret = table[i].init(net);

		if (ret) {
			if (err && err_size)
				snprintf(err, err_size, "cannot register the %s family", table[i].name);
			return ret;
		}
	}
	return 0;
}

struct kfsim_net *kfsim_net_create_builtin(char *err, size_t err_size)
{
	struct kfsim_net *net = kfsim_net_create();
	int ret;

	if (IS_ERR(net)) {
		if (err && err_size)
			snprintf(err, err_size, "out of memory");
		return net;
	}
	ret = kfsim_net_add_families(net, kfsim_genl_builtins, kfsim_genl_nr_builtins, err,
				     err_size);
	if (ret) {
		kfsim_net_destroy(net);
		return ERR_PTR(ret);
	}
	return net;
}
