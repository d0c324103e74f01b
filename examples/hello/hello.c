// SPDX-License-Identifier: MIT
/*
 * The smallest kfsim program: boot parameters, a memory cgroup, an accounted allocation that
 * the limit refuses, and the kernel log read back.
 *
 *	cc hello.c $(pkg-config --cflags --libs kfsim) -o hello && ./hello
 */
#include <stdio.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

int main(void)
{
	struct mem_cgroup *memcg, *old;
	char *small, *big;
	char log[1024];

	if (kfsim_cmdline_parse("cgroup.memory=nobpf") || kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0)))
		return 1;
	memcg = kfsim_memcg_create("hello", 4096);	/* memory.max: one page */
	if (IS_ERR(memcg))
		return 1;
	old = set_active_memcg(memcg);
	small = kmalloc(64, GFP_KERNEL_ACCOUNT);
	big = kmalloc(8192, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);	/* 3 more pages: refused */
	set_active_memcg(old);
	pr_info("hello: charged %zu bytes, %llu charge(s) refused\n", kfsim_memcg_usage(memcg),
		(unsigned long long)kfsim_memcg_failcnt(memcg));
	kfree(small);
	kfsim_dmesg_format(0, log, sizeof(log));
	printf("hello from kfsim: small=%s big=%s nobpf=%d\n%s", small ? "ok" : "NULL",
	       big ? "ok" : "NULL", kfsim_cmdline_has_option("cgroup.memory", "nobpf"), log);
	return (small && !big && kfsim_memcg_destroy(memcg) == 0) ? 0 : 1;
}
