// SPDX-License-Identifier: MIT
/*
 * A trace's dependencies, for a closed-loop replay (kfsim_blktrace_deps(), <kfsim/bfq_sim.h>):
 * from its completions ("C" events), how many of its own I/Os each process had in flight when
 * it queued each one, and how long it had waited since what let it go on.
 *
 * A record ends when completions of its device and direction have covered all its sectors.  A
 * merged request completes once for all the bios merged into it (one completion covers several
 * records), and a bio the device split to its own limits ("X" events: a loop device's 512 KiB,
 * an NVMe drive's max_sectors_kb) completes per part (several completions cover one record),
 * so the match is coverage, counted per record, not equality or containment.  The records
 * still in flight are kept in a red-black tree ordered by (device, sector, record), so a
 * completion finds what it overlaps with one descent, from the longest record's length before
 * its first sector, and a walk up to its last.
 * Completions carry no useful pid (they run in interrupt context): a record's own pid is the
 * process whose in-flight count a match lowers.
 */
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/blkdev.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/rbtree.h>
#include <kfsim/slab.h>

#include "blktrace_internal.h"

struct deps_done {
	u64 time_ns;
	size_t seq;	/* its place in the file: qsort() moves elements, so ties need it */
	size_t recs_before;	/* the records the Q events before it in the file make */
	u32 dev;
	bool write;
	u64 sector, end;
};

struct deps_node {
	struct rb_node rb;
	size_t rec;
	u64 covered;	/* its sectors that completions have covered so far */
};

struct deps_proc {	/* the process pids[i] of struct deps */
	unsigned int inflight;
	bool has_done;
	u64 last_done_ns, last_queued_ns;
};

struct deps {
	struct kfsim_blktrace_rec *recs;
	struct deps_node *nodes;
	struct rb_root tree;
	int *pids;		/* the distinct pids, sorted */
	struct deps_proc *procs; /* one per pid */
	unsigned int nr_procs;
	u64 max_sectors;	/* the longest record: how far before a completion to look */
	struct rb_node **cand;	/* a completion's overlapping records (deps_complete()) */
	size_t nr_cand, cap_cand;
};

/*
 * The trace's completions with data, in file order, each with the number of records the queue
 * events before it make (a bio larger than BLK_DEF_MAX_SECTORS_CAP makes several, as
 * kfsim_blktrace_parse_buf() splits it).
 */
static long deps_read_done(const char *buf, size_t size, struct deps_done **out)
{
	const char *p = buf, *end = buf + size;
	struct deps_done *arr = NULL;
	size_t nr = 0, cap = 0, recs = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct blktrace_q q;
		char kind = blktrace_parse_data_event(p, eol, &q);

		if (kind == 'Q')
			recs += blktrace_q_nr_recs(&q);
		if (kind == 'C') {
			if (nr == cap) {
				size_t bigger = cap ? cap * 2 : 1024;
				/* kvcalloc() refuses a size that overflows */
				struct deps_done *grown = kvcalloc(bigger, sizeof(*arr), GFP_KERNEL);

				if (!grown) {
					kvfree(arr);
					return -ENOMEM;
				}
				if (arr)
					memcpy(grown, arr, nr * sizeof(*arr));
				kvfree(arr);
				arr = grown;
				cap = bigger;
			}
			arr[nr] = (struct deps_done){ q.time_ns, nr, recs, q.dev, q.write, q.sector,
						      q.sector + q.nr_sectors };
			nr++;
		}
		p = nl ? nl + 1 : end;
	}
	*out = arr;
	return (long)nr;
}

/* Stable orders by time: the file's order (the array index) breaks ties. */
static int done_cmp(const void *a, const void *b)
{
	const struct deps_done *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static struct deps_proc *deps_proc_of(struct deps *d, int pid)
{
	const int *hit = bsearch(&pid, d->pids, d->nr_procs, sizeof(pid), blktrace_pid_cmp);

	return &d->procs[hit - d->pids];
}

/* (device, sector, record index): a total order, so equal extents stay apart. */
static bool deps_less(const struct deps *d, size_t a, u32 dev, u64 sector, size_t b)
{
	const struct kfsim_blktrace_rec *r = &d->recs[a];

	if (r->dev != dev)
		return r->dev < dev;
	if (r->sector != sector)
		return r->sector < sector;
	return a < b;
}

static void deps_insert(struct deps *d, size_t i)
{
	struct rb_node **link = &d->tree.rb_node, *parent = NULL;

	while (*link) {
		struct deps_node *n = rb_entry(*link, struct deps_node, rb);

		parent = *link;
		link = deps_less(d, i, d->recs[n->rec].dev, d->recs[n->rec].sector, n->rec) ?
			       &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&d->nodes[i].rb, parent, link);
	rb_insert_color(&d->nodes[i].rb, &d->tree);
}

/* The first record in flight at or after (@dev, @sector). */
static struct rb_node *deps_lower_bound(const struct deps *d, u32 dev, u64 sector)
{
	struct rb_node *n = d->tree.rb_node, *found = NULL;

	while (n) {
		size_t i = rb_entry(n, struct deps_node, rb)->rec;

		if (deps_less(d, i, dev, sector, 0)) {
			n = n->rb_right;
		} else {
			found = n;
			n = n->rb_left;
		}
	}
	return found;
}

/* The sectors of record @r that completion @c covers: 0 for another device or direction. */
static u64 deps_overlap(const struct deps_done *c, const struct kfsim_blktrace_rec *r)
{
	u64 lo = max(r->sector, c->sector), hi = min(r->sector + r->nr_sectors, c->end);

	if (r->dev != c->dev || r->write != c->write || lo >= hi)
		return 0;
	return hi - lo;
}

static const struct kfsim_blktrace_rec *deps_rec(const struct deps *d, const struct rb_node *n)
{
	return &d->recs[rb_entry(n, struct deps_node, rb)->rec];
}

/*
 * Whether a record newer than @k's among the candidates overlaps the part of @k's record that
 * @c covers: then @k's is an older request at those sectors, whose own completion the trace
 * lost (a tracer's buffer that overflowed): one request per sector is in flight at a time.
 */
static bool deps_newer_overlaps(const struct deps *d, size_t k, const struct deps_done *c)
{
	const struct kfsim_blktrace_rec *r = deps_rec(d, d->cand[k]);
	size_t ri = rb_entry(d->cand[k], struct deps_node, rb)->rec;
	u64 lo = max(r->sector, c->sector), hi = min(r->sector + r->nr_sectors, c->end);

	for (size_t j = 0; j < d->nr_cand; j++) {
		const struct kfsim_blktrace_rec *o = deps_rec(d, d->cand[j]);

		if (rb_entry(d->cand[j], struct deps_node, rb)->rec > ri &&
		    o->sector < hi && o->sector + o->nr_sectors > lo)
			return true;
	}
	return false;
}

/*
 * A completion covers the sectors it overlaps of every record in flight, but those of an older
 * record that a newer one overlaps there (deps_newer_overlaps()); a record whose sectors are
 * all covered ends.  Return: how many ended, or -ENOMEM.  Records of the other direction or
 * not overlapped may sit between them in the tree: the walk looks at every record from the
 * longest record's length before the completion's first sector to its last.
 */
static long deps_complete(struct deps *d, const struct deps_done *c)
{
	u64 from = c->sector > d->max_sectors ? c->sector - d->max_sectors : 0;
	struct rb_node *n = deps_lower_bound(d, c->dev, from);
	size_t matched = 0;

	d->nr_cand = 0;
	for (; n; n = rb_next(n)) {
		const struct kfsim_blktrace_rec *r = deps_rec(d, n);

		if (r->dev != c->dev || r->sector >= c->end)
			break;
		if (!deps_overlap(c, r))
			continue;
		if (d->nr_cand == d->cap_cand) {
			size_t bigger = d->cap_cand ? d->cap_cand * 2 : 16;
			struct rb_node **grown = kvcalloc(bigger, sizeof(*grown), GFP_KERNEL);

			if (!grown)
				return -ENOMEM;
			if (d->cand)
				memcpy(grown, d->cand, d->nr_cand * sizeof(*grown));
			kvfree(d->cand);
			d->cand = grown;
			d->cap_cand = bigger;
		}
		d->cand[d->nr_cand++] = n;
	}
	/* credit every candidate first, then end the full ones: the check reads all of them */
	for (size_t k = 0; k < d->nr_cand; k++) {
		struct deps_node *dn = rb_entry(d->cand[k], struct deps_node, rb);

		if (!deps_newer_overlaps(d, k, c))
			dn->covered += deps_overlap(c, &d->recs[dn->rec]);
	}
	for (size_t k = 0; k < d->nr_cand; k++) {
		struct deps_node *dn = rb_entry(d->cand[k], struct deps_node, rb);
		const struct kfsim_blktrace_rec *r = &d->recs[dn->rec];
		struct deps_proc *p;

		if (dn->covered < r->nr_sectors)
			continue;
		p = deps_proc_of(d, r->pid);
		rb_erase(&dn->rb, &d->tree);
		p->inflight--;
		p->has_done = true;
		p->last_done_ns = c->time_ns;
		matched++;
	}
	return (long)matched;
}

/* A record is queued: what its process had in flight, and what it waited for. */
static void deps_queue(struct deps *d, size_t i)
{
	struct kfsim_blktrace_rec *r = &d->recs[i];
	struct deps_proc *p = deps_proc_of(d, r->pid);

	r->depth = p->inflight + 1;
	if (p->inflight)
		r->think_ns = r->time_ns - p->last_queued_ns;
	else
		r->think_ns = p->has_done ? r->time_ns - p->last_done_ns : 0;
	p->inflight++;
	p->last_queued_ns = r->time_ns;
	deps_insert(d, i);
}

/* Add deps_complete()'s @got to *@matched; return 0, or its -errno. */
static long deps_done_add(size_t *matched, long got)
{
	if (got < 0)
		return got;
	*matched += (size_t)got;
	return 0;
}

long kfsim_blktrace_deps(const char *buf, size_t size, struct kfsim_blktrace_rec *recs, size_t nr)
{
	struct deps d = { .recs = recs, .tree = RB_ROOT };
	struct deps_done *done = NULL;
	size_t *order = NULL;
	size_t k = 0, matched = 0;
	long nr_done, ret;

	for (size_t i = 0; i < nr; i++) {
		recs[i].depth = 0, recs[i].think_ns = 0;
		d.max_sectors = max_t(u64, d.max_sectors, recs[i].nr_sectors);
	}
	nr_done = deps_read_done(buf, size, &done);
	if (nr_done <= 0)
		return nr_done;
	order = blktrace_time_order(recs, nr);
	d.nodes = kvcalloc(nr ? nr : 1, sizeof(*d.nodes), GFP_KERNEL);
	if (!order || !d.nodes || blktrace_distinct_pids(recs, nr, &d.pids, &d.nr_procs)) {
		ret = -ENOMEM;
		goto out;
	}
	d.procs = kvcalloc(d.nr_procs ? d.nr_procs : 1, sizeof(*d.procs), GFP_KERNEL);
	if (!d.procs) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		d.nodes[i].rec = i;
	qsort(done, (size_t)nr_done, sizeof(*done), done_cmp);
	ret = 0;
	/*
	 * One sweep in time order; at the same time, the file's order: the tracer printed its
	 * events in the order of a clock finer than the one it prints (tracefs prints
	 * microseconds), so a completion and a queue event of the same printed time are in the
	 * order they happened, whatever the layout's resolution.
	 */
	for (size_t i = 0; i < nr; i++) {
		const struct kfsim_blktrace_rec *r = &recs[order[i]];

		while (k < (size_t)nr_done && ret >= 0 &&
		       (done[k].time_ns < r->time_ns ||
			(done[k].time_ns == r->time_ns && done[k].recs_before <= order[i])))
			ret = deps_done_add(&matched, deps_complete(&d, &done[k++]));
		if (ret < 0)
			goto out;
		deps_queue(&d, order[i]);
	}
	while (k < (size_t)nr_done && ret >= 0)
		ret = deps_done_add(&matched, deps_complete(&d, &done[k++]));
	if (ret >= 0)
		ret = (long)matched;
out:
	kvfree(done);
	kvfree(order);
	kvfree(d.nodes);
	kvfree(d.pids);
	kvfree(d.procs);
	kvfree(d.cand);
	return ret;
}
