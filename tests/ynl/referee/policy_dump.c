// SPDX-License-Identifier: MIT
/*
 * Registers one family in kfsim's in-process kernel and prints what nlctrl says of it: its
 * maxattr, each op's command and flags, and each op's do and dump policies with nests
 * followed (by structure, not by index).  Built twice per spec by kernel_generator.sh: once
 * over the kernel's ynl-gen-c.py output, once over kfsim-ynl-gen's; the two outputs must match.
 * The family comes from referee_family(), defined next to each generator's output.
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>

void referee_family(struct genl_family *f);

static void render(const struct kfsim_nl_policy_dump *d, int idx, int depth)
{
	if (idx < 0 || (u32)idx >= d->nr_policies || depth > 5 || !d->policies[idx])
		return;
	for (u32 t = 0; t <= d->maxtype[idx]; t++) {
		const struct kfsim_nl_policy_attr *a = &d->policies[idx][t];
		char line[160];

		if (!a->type)
			continue;
		printf("%*s%u: ", 2 * depth + 4, "", t);
		if (a->has_policy_idx) {
			printf("%s maxtype %u\n", a->type == NL_ATTR_TYPE_NESTED ? "nested" :
			       "nested-array", a->policy_maxtype);
			render(d, (int)a->policy_idx, depth + 1);
		} else {
			printf("%s\n", kfsim_nl_policy_attr_format(a, line, sizeof(line)));
		}
	}
}

int main(void)
{
	static struct kfsim_nl_family_info info;
	static struct kfsim_nl_policy_dump dump;
	struct kfsim_nl_kernel *k = kfsim_nl_kernel_create();
	struct genl_family f;
	struct kfsim_nl_client *c;
	int ret;

	memset(&f, 0, sizeof(f));
	referee_family(&f);
	/* one name for both builds (and none that clashes with kfsim's own nlctrl) */
	snprintf(f.name, sizeof(f.name), "ynl_referee");
	if (IS_ERR(k) || (ret = kfsim_genl_register_family(k, &f))) {
		printf("registration failed: %d\n", IS_ERR(k) ? (int)PTR_ERR(k) : ret);
		return 1;
	}
	c = kfsim_nl_client_open_sim(k, &KFSIM_NL_CRED_ROOT);
	if (IS_ERR(c) || kfsim_nl_resolve(c, "ynl_referee", &info, NULL))
		return 1;
	printf("maxattr %u hdrsize %u\n", info.maxattr, info.hdrsize);
	for (u32 i = 0; i < info.nr_ops; i++)
		printf("op %u flags 0x%x\n", info.ops[i].cmd, info.ops[i].flags);
	ret = kfsim_nl_get_policy(c, "ynl_referee", -1, &dump, NULL);
	if (ret == -ENODATA) {
		printf("no policies\n");
	} else if (ret) {
		printf("policy dump failed: %d\n", ret);
		return 1;
	} else {
		for (u32 o = 0; o < dump.nr_ops; o++) {
			printf("op %u do%s\n", dump.ops[o].cmd, dump.ops[o].do_policy < 0 ? " none" : "");
			render(&dump, dump.ops[o].do_policy, 0);
			printf("op %u dump%s\n", dump.ops[o].cmd,
			       dump.ops[o].dump_policy < 0 ? " none" : "");
			render(&dump, dump.ops[o].dump_policy, 0);
		}
		kfsim_nl_policy_dump_free(&dump);
	}
	kfsim_nl_client_close(c);
	kfsim_genl_unregister_family(&f);
	kfsim_nl_kernel_destroy(k);
	return 0;
}
