// SPDX-License-Identifier: MIT
/*
 * Dropped objects that fault: with the guard on (kfsim_bpf_guard_dropped(), set by kfsim-bpf-cc's
 * runner), every bpf_obj_new() object gets pages of its own, and bpf_obj_drop() makes them
 * inaccessible instead of freeing them.  A plain load or store through a reference the drop
 * invalidated then faults at a known address, which the verifier calls "invalid mem access
 * 'scalar'" (the register no longer holds a pointer); kfsim_bpf_dropped_object() tells the
 * fault handler that the address was such an object.
 *
 * Invariants: a guarded object's header and body start a private anonymous mapping, which is
 * never unmapped (a dead address is never reused, so a later access still faults); the dead
 * ranges are kept in a fixed table, the oldest forgotten when it is full (its pages stay
 * inaccessible: a fault there is then a plain crash).  Guarded objects are not charged to a
 * memory cgroup.  The setting and the table are per process: the runner sets it before its
 * programs run, and each program runs in a process of its own.
 * Not modelled here: a reference that died at bpf_spin_unlock points at an object the collection
 * still holds and kfsim still walks: its memory stays valid (docs/bpf-graph.md, static-only).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "bpf_explore_internal.h"

#define BPF_GUARD_MAGIC 0x67756172645f6f6bull /* in hdr->reserved[0] */
#define BPF_GUARD_DEAD_MAX 8192

static bool guard_on;
static struct {
	uintptr_t start, end;
} dead[BPF_GUARD_DEAD_MAX];
static unsigned int nr_dead, dead_next;

void kfsim_bpf_guard_dropped(bool on)
{
	guard_on = on;
}

static size_t guard_len(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) & ~(page - 1);
}

struct bpf_obj_hdr *bpf_guard_alloc(size_t size)
{
	struct bpf_obj_hdr *hdr;

	if (!guard_on)
		return NULL;
	hdr = mmap(NULL, guard_len(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (hdr == MAP_FAILED)
		return NULL;
	hdr->reserved[0] = BPF_GUARD_MAGIC;
	return hdr;
}

bool bpf_guard_free(struct bpf_obj_hdr *hdr)
{
	size_t len;

	if (hdr->reserved[0] != BPF_GUARD_MAGIC)
		return false;
	len = guard_len(sizeof(*hdr) + hdr->size);
	if (mprotect(hdr, len, PROT_NONE)) {
		munmap(hdr, len);
		return true;
	}
	dead[dead_next].start = (uintptr_t)hdr;
	dead[dead_next].end = (uintptr_t)hdr + len;
	dead_next = (dead_next + 1) % BPF_GUARD_DEAD_MAX;
	if (nr_dead < BPF_GUARD_DEAD_MAX)
		nr_dead++;
	return true;
}

bool kfsim_bpf_dropped_object(const void *addr)
{
	for (unsigned int i = 0; i < nr_dead; i++)
		if ((uintptr_t)addr >= dead[i].start && (uintptr_t)addr < dead[i].end)
			return true;
	return false;
}
