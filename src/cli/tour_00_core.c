// SPDX-License-Identifier: MIT
/*
 * Tour step "core": the kernel environment at work.  Each paragraph shows one facility doing
 * what the kernel's does, with what it logged.
 */
#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>
#include <kfsim/spinlock.h>
#include "cli.h"

static void tour_cmdline(FILE *out)
{
	char kver[16];
	const char *text = kfsim_cmdline_text();

	fprintf(out, "Kernel version followed: %s (--kver changes it)\n",
		kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	fprintf(out, "Kernel command line: \"%s\"%s\n", text, *text ? "" : " (none: --cmdline sets it)");
	fprintf(out, "  cgroup.memory=nobpf given: %s\n",
		kfsim_cmdline_has_option("cgroup.memory", "nobpf") ? "yes (BPF objects not charged)"
								   : "no (BPF objects charged)");
	if (*kfsim_cmdline_unknown())
		fprintf(out, "  unknown parameters, passed to user space: %s\n", kfsim_cmdline_unknown());
}

static int tour_kmalloc(FILE *out)
{
	struct mem_cgroup *memcg = kfsim_memcg_create("tour", 4096);
	struct mem_cgroup *old;
	void *objs[8];
	int n = 0;

	if (IS_ERR(memcg))
		return (int)PTR_ERR(memcg);
	old = set_active_memcg(memcg);
	while (n < 8 && (objs[n] = kmalloc(1024, GFP_KERNEL_ACCOUNT | __GFP_NOWARN)))
		n++;
	set_active_memcg(old);
	fprintf(out, "kmalloc(1024, GFP_KERNEL_ACCOUNT) on %s in a 4 KiB memory cgroup:\n",
		kfsim_kmalloc_backend());
	fprintf(out, "  %d allocations succeeded, then the charge was refused (failcnt %llu),\n", n,
		(unsigned long long)kfsim_memcg_failcnt(memcg));
	fprintf(out, "  usage %zu bytes;", kfsim_memcg_usage(memcg));
	while (n)
		kfree(objs[--n]);
	fprintf(out, " after kfree() of each: %zu bytes\n", kfsim_memcg_usage(memcg));
	fprintf(out, "  kmalloc(0) = ZERO_SIZE_PTR (%p), which kfree() accepts\n", kmalloc(0, GFP_KERNEL));
	return kfsim_memcg_destroy(memcg);
}

static void tour_warn(FILE *out)
{
	unsigned long before = kfsim_warn_count();
	void *ptr = ERR_PTR(-ENOSPC);

	for (int i = 0; i < 3; i++)
		WARN_ONCE(i >= 0, "kfsim tour: WARN_ONCE fires on the first of three passes\n");
	fprintf(out, "WARN_ONCE in a loop of 3: %lu report(s) in the log\n", kfsim_warn_count() - before);
	fprintf(out, "ERR_PTR(-ENOSPC): IS_ERR=%d, PTR_ERR=%ld (-%s)\n", IS_ERR(ptr), PTR_ERR(ptr),
		kfsim_errname((int)PTR_ERR(ptr)));
}

static void tour_lock(FILE *out)
{
	DEFINE_SPINLOCK(lock);

	spin_lock(&lock);
	spin_unlock(&lock);
	spin_unlock(&lock);	/* the misuse the debug check catches */
	fprintf(out, "spin_unlock() of a lock nobody holds: reported as \"BUG: spinlock already "
		     "unlocked\" (see the log below), the lock left intact\n");
}

static int tour_core(struct kfsim_tour_ctx *ctx)
{
	tour_cmdline(ctx->out);
	tour_warn(ctx->out);
	tour_lock(ctx->out);
	return tour_kmalloc(ctx->out);
}

static const char *const try_core[] = {
	"kfsim --cmdline 'cgroup.memory=nobpf foo' --kver 6.12 tour --json --out /tmp/kfsim-tour",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_core = {
	.name = "core",
	.title = "The kernel environment: command line, kmalloc and memcg, WARN, locks",
	.doc = "core.md",
	.try_cmds = try_core,
	.run = tour_core,
};
