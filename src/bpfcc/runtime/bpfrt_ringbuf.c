// SPDX-License-Identifier: MIT
/*
 * BPF ring buffers natively (BPF_MAP_TYPE_RINGBUF, 5.8+): bpf_ringbuf_reserve(),
 * bpf_ringbuf_submit(), bpf_ringbuf_discard(), bpf_ringbuf_output() and bpf_ringbuf_query().
 *
 * The ring is kernel/bpf/ringbuf.c's (6.12 source, the running 6.18 the referee): max_entries
 * bytes of data, a consumer, a producer and a pending position; each record is an 8-byte header
 * { u32 len; s32 pg_off; } then the data, rounded up to 8.  A reserved record's len has
 * BPF_RINGBUF_BUSY_BIT; submit clears it, discard sets BPF_RINGBUF_DISCARD_BIT.  A reservation
 * that would move the producer more than the ring's size - 1 past the consumer (or past the
 * oldest record not yet committed) gets NULL, as does one larger than the ring.  The kernel maps
 * the data pages twice so a record that wraps is contiguous; here the data has twice the ring's
 * size, a record is written and read at its offset contiguously, and the second half holds a
 * wrapped record's tail.  pg_off is 0 (no pages here).  The consumer is
 * kfsim_bpfrt_ringbuf_consume() (include/bpf-compat/kfsim_bpfrt.h), as libbpf's ring_buffer
 * callback sees records: the committed ones in order, discarded ones skipped.
 *
 * Flags (6.12, 6.18): reserve's must be 0 (else NULL); submit and discard ignore bits other
 * than BPF_RB_NO_WAKEUP and BPF_RB_FORCE_WAKEUP; output's others are -EINVAL, and a full ring
 * -EAGAIN.  Wakeups are not modelled (no waiter natively).  query: BPF_RB_AVAIL_DATA,
 * BPF_RB_RING_SIZE, BPF_RB_CONS_POS, BPF_RB_PROD_POS, any other flag 0.
 *
 * The verifier's rules a run can see (check_helper_call(), check_func_arg(), 6.12 and the
 * running 6.18): reserve's result is ringbuf_mem_or_null: a maybe-NULL result (one verifier id)
 * that acquires a reference (one more: "id=2,ref_obj_id=2" for the first call), released only
 * by submit or discard of the record's start; a record still held at the program's exit is
 * "Unreleased reference id=N alloc_insn=M".  The released pointer is a scalar to the verifier
 * afterwards (release_reference()), so a second release is "R1 type=scalar
 * expected=ringbuf_mem"; any other pointer is named by its register type (map_value, fp, ...);
 * a pointer into a held record but not at its start is "R1 must have zero offset when passed to
 * release func or trusted arg to kfunc".  The map must be a ring buffer ("cannot pass map_type
 * 2 into func bpf_ringbuf_reserve#131", check_map_func_compatibility()), reserve's size a
 * constant the verifier knows ("R2 is not a known constant'", the kernel's quote included),
 * and no helper runs under a bpf_spin_lock.
 *
 * The table of reservations is per thread (a program runs in one), emptied at each program
 * invocation; the rings live as long as the map.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include "bpfrt.h"

#define MAP_RINGBUF 27 /* enum bpf_map_type */
#define BPF_RINGBUF_BUSY_BIT (1u << 31)
#define BPF_RINGBUF_DISCARD_BIT (1u << 30)
#define BPF_RINGBUF_HDR_SZ 8u
#define RINGBUF_MAX_RECORD_SZ (UINT32_MAX / 4)
enum { BPF_RB_NO_WAKEUP = 1, BPF_RB_FORCE_WAKEUP = 2 };
enum { BPF_RB_AVAIL_DATA, BPF_RB_RING_SIZE, BPF_RB_CONS_POS, BPF_RB_PROD_POS };
/* the helpers' numbers (enum bpf_func_id), which the verifier's messages carry */
#define FUNC_RINGBUF_OUTPUT 130
#define FUNC_RINGBUF_RESERVE 131
#define FUNC_RINGBUF_QUERY 134
#define MAX_RECORDS 1024

/* struct bpf_ringbuf_hdr of include/linux/bpf.h */
struct ringbuf_hdr {
	uint32_t len;
	int32_t pg_off;
};

struct ring {
	const void *def;
	const char *name;
	uint64_t mask;
	uint64_t consumer_pos, producer_pos, pending_pos;
	unsigned char *data; /* 2 * (mask + 1) bytes: see above */
};

static struct ring *rings;
static unsigned int nr_rings;

/**
 * struct record - one reservation of this invocation
 * @data: the record's data (what reserve returned)
 * @size: its size
 * @caller: reserve's return address (the leak report's line and instruction)
 * @id: the verifier id of its reference
 * @held: not yet submitted nor discarded
 */
struct record {
	void *data;
	uint64_t size;
	const void *caller;
	unsigned int id;
	bool held;
};

static __thread struct record records[MAX_RECORDS];
static __thread unsigned int nr_records;

/*
 * A free entry: a new one, else the oldest released one (a program that reserved more than
 * MAX_RECORDS in one invocation: a second release of that one is then not recognised as such).
 */
static struct record *new_record(void)
{
	static __thread unsigned int reuse;

	if (nr_records < MAX_RECORDS)
		return &records[nr_records++];
	for (unsigned int n = 0; n < MAX_RECORDS; n++) {
		struct record *rec = &records[reuse++ % MAX_RECORDS];

		if (!rec->held)
			return rec;
	}
	return &records[reuse++ % MAX_RECORDS]; /* 1024 held at once: the oldest forgotten */
}

void bpfrt_ringbuf_reset(void)
{
	nr_records = 0;
}

int bpfrt_ringbuf_init(const struct kfsim_bpfrt_object *obj)
{
	rings = calloc(obj->nr_maps ? obj->nr_maps : 1, sizeof(*rings));
	if (!rings)
		return -ENOMEM;
	for (unsigned int i = 0; i < obj->nr_maps; i++) {
		const struct kfsim_bpfrt_map *m = &obj->maps[i];
		uint64_t size = m->max_entries;

		if (m->type != MAP_RINGBUF)
			continue;
		/*
		 * libbpf (adjust_ringbuf_sz(); this machine's 1.1 does: max_entries 1000 loads
		 * as 4096) rounds a size that is not a power of 2 times the page size up to the
		 * next one before it creates the map, as the kernel wants (ringbuf_map_alloc():
		 * -EINVAL); x86's page size here.  0 stays refused.
		 */
		if (size && ((size & (size - 1)) || size % 4096)) {
			uint64_t mul = 1;

			while (mul * 4096 <= size)
				mul <<= 1;
			size = mul * 4096;
		}
		if (!size || size > (1ull << 32)) {
			fprintf(stderr,
				"map %s: a ring buffer's max_entries must be a power of 2 times the "
				"page size (4096), as the kernel's ringbuf_map_alloc() wants: -EINVAL\n",
				m->name);
			return -EINVAL;
		}
		rings[nr_rings] = (struct ring){.def = m->def, .name = m->name, .mask = size - 1};
		rings[nr_rings].data = aligned_alloc(8, 2 * size);
		if (!rings[nr_rings].data)
			return -ENOMEM;
		memset(rings[nr_rings].data, 0, 2 * size);
		nr_rings++;
	}
	return 0;
}

static struct ring *ring_of(const void *def)
{
	for (unsigned int i = 0; i < nr_rings; i++)
		if (rings[i].def == def)
			return &rings[i];
	return NULL;
}

/* check_map_func_compatibility(): the map argument of a ring buffer helper */
static struct ring *map_arg(const char *helper, int func_id, void *map)
{
	struct ring *r = ring_of(map);

	if (!r)
		kfsim_bpf_helper_refused(helper, "the ring buffer helpers take a ring buffer map",
					 "cannot pass map_type %d into func %s#%d",
					 bpfrt_map_type(map), helper, func_id);
	return r;
}

static uint64_t round8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* __bpf_ringbuf_reserve(): the record's data, or NULL when it does not fit */
static void *ring_reserve(struct ring *r, uint64_t size)
{
	uint64_t len, pend = r->pending_pos, new_prod;
	struct ringbuf_hdr *hdr;

	if (size > RINGBUF_MAX_RECORD_SZ)
		return NULL;
	len = round8(size + BPF_RINGBUF_HDR_SZ);
	if (len > r->mask + 1)
		return NULL;
	/* the pending position moves past the committed records */
	while (r->producer_pos > pend) {
		uint32_t l;

		hdr = (struct ringbuf_hdr *)(r->data + (pend & r->mask));
		l = hdr->len;
		if (l & BPF_RINGBUF_BUSY_BIT)
			break;
		pend += round8((l & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ);
	}
	r->pending_pos = pend;
	new_prod = r->producer_pos + len;
	if (new_prod - r->consumer_pos > r->mask || new_prod - pend > r->mask)
		return NULL;
	hdr = (struct ringbuf_hdr *)(r->data + (r->producer_pos & r->mask));
	hdr->len = (uint32_t)size | BPF_RINGBUF_BUSY_BIT;
	hdr->pg_off = 0;
	r->producer_pos = new_prod;
	return hdr + 1;
}

static void ring_commit(void *sample, bool discard)
{
	struct ringbuf_hdr *hdr = (struct ringbuf_hdr *)sample - 1;
	uint32_t len = hdr->len ^ BPF_RINGBUF_BUSY_BIT;

	if (discard)
		len |= BPF_RINGBUF_DISCARD_BIT;
	__atomic_store_n(&hdr->len, len, __ATOMIC_RELEASE);
}

void *kfsim_bpfrt_ringbuf_reserve(void *map, unsigned long long size, unsigned long long flags,
				  int size_known, const char *file, int line);
void *kfsim_bpfrt_ringbuf_reserve(void *map, unsigned long long size, unsigned long long flags,
				  int size_known, const char *file, int line)
{
	const void *caller = __builtin_return_address(0);
	struct kfsim_bpf_decision d = {.kfunc = "bpf_ringbuf_reserve", .natural = true,
				       .can_flip = true};
	struct record *rec;
	struct ring *r;
	void *p;

	if (bpfrt_helper("bpf_ringbuf_reserve", file, line))
		return NULL;
	bpfrt_site(file, line);
	r = map_arg("bpf_ringbuf_reserve", FUNC_RINGBUF_RESERVE, map);
	if (!r)
		goto out_null;
	if (!size_known) {
		/* ARG_CONST_ALLOC_SIZE_OR_ZERO: check_reg_const_size() wants a constant */
		kfsim_bpf_helper_refused("bpf_ringbuf_reserve",
					 "the size of a reservation must be a constant the "
					 "verifier knows",
					 "R2 is not a known constant'");
		goto out_null;
	}
	/* the maybe-NULL result's id, then the reference's (acquire_reference()) */
	kfsim_bpf_verifier_ids(1);
	rec = new_record();
	*rec = (struct record){.caller = caller, .size = size, .held = true};
	rec->id = kfsim_bpf_verifier_ids(1);
	p = flags ? NULL : ring_reserve(r, size);
	/* the verifier walks the NULL branch too: the exploring mode takes it */
	if (!p) {
		d.natural = false;
		d.can_flip = false;
		kfsim_bpf_explore_decide(&d);
	} else if (kfsim_bpf_explore_decide(&d)) {
		/* the path that got NULL: the reservation never happened */
		r->producer_pos -= round8(size + BPF_RINGBUF_HDR_SZ);
		p = NULL;
	}
	rec->data = p;
	if (!p)
		rec->held = false; /* NULL: the reference dies on the NULL branch */
	bpfrt_site(NULL, 0);
	return p;
out_null:
	bpfrt_site(NULL, 0);
	return NULL;
}

/* The release argument of submit and discard: its record, or NULL after the report. */
static struct record *release_arg(const char *helper, void *sample, const void *here)
{
	/* what the BPF object's data-flow refuses at this call (not checked for NULL) comes first */
	const char *refused = bpfrt_refused_call(kfsim_bpf_site.file, kfsim_bpf_site.line);

	if (refused) {
		kfsim_bpf_helper_refused(helper, "the record must be checked for NULL first", "%s",
					 refused);
		return NULL;
	}
	for (unsigned int i = nr_records; i-- > 0;) {
		struct record *rec = &records[i];
		char *start = rec->data;

		if (!start)
			continue;
		if (sample == start) {
			if (rec->held)
				return rec;
			/* release_reference() made every copy a scalar */
			kfsim_bpf_helper_refused(helper,
						 "the record was submitted or discarded already: its "
						 "pointer is a scalar to the verifier",
						 "R1 type=scalar expected=ringbuf_mem");
			return NULL;
		}
		if (rec->held && (char *)sample > start && (char *)sample < start + rec->size) {
			kfsim_bpf_helper_refused(helper,
						 "submit and discard take the pointer reserve returned",
						 "R1 must have zero offset when passed to release func "
						 "or trusted arg to kfunc");
			return NULL;
		}
	}
	kfsim_bpf_helper_refused(helper, "submit and discard take a pointer reserve returned",
				 "R1 type=%s expected=ringbuf_mem",
				 sample ? bpfrt_reg_type(sample, here) : "scalar");
	return NULL;
}

static void release(const char *helper, void *sample, bool discard, const char *file, int line,
		    const void *here)
{
	struct record *rec;

	if (bpfrt_helper(helper, file, line))
		return;
	bpfrt_site(file, line);
	rec = release_arg(helper, sample, here);
	if (rec) {
		rec->held = false;
		ring_commit(sample, discard);
	}
	bpfrt_site(NULL, 0);
}

void kfsim_bpfrt_ringbuf_submit(void *sample, unsigned long long flags, const char *file,
				int line);
void kfsim_bpfrt_ringbuf_submit(void *sample, unsigned long long flags, const char *file, int line)
{
	(void)flags; /* only wakeups, which are not modelled */
	release("bpf_ringbuf_submit", sample, false, file, line, __builtin_frame_address(0));
}

void kfsim_bpfrt_ringbuf_discard(void *sample, unsigned long long flags, const char *file,
				 int line);
void kfsim_bpfrt_ringbuf_discard(void *sample, unsigned long long flags, const char *file, int line)
{
	(void)flags;
	release("bpf_ringbuf_discard", sample, true, file, line, __builtin_frame_address(0));
}

long kfsim_bpfrt_ringbuf_output(void *map, const void *data, unsigned long long size,
				unsigned long long flags, const char *file, int line);
long kfsim_bpfrt_ringbuf_output(void *map, const void *data, unsigned long long size,
				unsigned long long flags, const char *file, int line)
{
	struct ring *r;
	void *rec;

	if (bpfrt_helper("bpf_ringbuf_output", file, line))
		return -EINVAL;
	bpfrt_site(file, line);
	r = map_arg("bpf_ringbuf_output", FUNC_RINGBUF_OUTPUT, map);
	bpfrt_site(NULL, 0);
	if (!r)
		return -EINVAL;
	if (flags & ~(unsigned long long)(BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP))
		return -EINVAL;
	rec = ring_reserve(r, size);
	if (!rec)
		return -EAGAIN;
	if (size)
		memcpy(rec, data, size);
	ring_commit(rec, false);
	return 0;
}

unsigned long long kfsim_bpfrt_ringbuf_query(void *map, unsigned long long flags,
					     const char *file, int line);
unsigned long long kfsim_bpfrt_ringbuf_query(void *map, unsigned long long flags,
					     const char *file, int line)
{
	struct ring *r;

	if (bpfrt_helper("bpf_ringbuf_query", file, line))
		return 0;
	bpfrt_site(file, line);
	r = map_arg("bpf_ringbuf_query", FUNC_RINGBUF_QUERY, map);
	bpfrt_site(NULL, 0);
	if (!r)
		return 0;
	switch (flags) {
	case BPF_RB_AVAIL_DATA:
		return r->producer_pos - r->consumer_pos;
	case BPF_RB_RING_SIZE:
		return r->mask + 1;
	case BPF_RB_CONS_POS:
		return r->consumer_pos;
	case BPF_RB_PROD_POS:
		return r->producer_pos;
	default:
		return 0;
	}
}

/*
 * The consumer, as libbpf's ringbuf_process_ring(): committed records in order, each given to
 * @fn (a nonzero return stops, and is returned), discarded ones skipped; stops at a record
 * still reserved.  Return: the records given to @fn, or @fn's nonzero return, or -EINVAL for
 * a map that is no ring buffer.
 */
long kfsim_bpfrt_ringbuf_consume(void *map, int (*fn)(void *ctx, void *data, __SIZE_TYPE__ size),
				 void *ctx)
{
	struct ring *r = ring_of(map);
	long n = 0;

	if (!r)
		return -EINVAL;
	while (r->consumer_pos < r->producer_pos) {
		struct ringbuf_hdr *hdr = (struct ringbuf_hdr *)(r->data + (r->consumer_pos & r->mask));
		uint32_t len = __atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);
		int err;

		if (len & BPF_RINGBUF_BUSY_BIT)
			break;
		r->consumer_pos += round8((len & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ);
		if (len & BPF_RINGBUF_DISCARD_BIT)
			continue;
		err = fn ? fn(ctx, hdr + 1, len) : 0;
		if (err)
			return err;
		n++;
	}
	return n;
}

/* How many reservations of this invocation before record @i came from its call site. */
static int nth_at_site(unsigned int i)
{
	int n = 0;

	for (unsigned int j = 0; j < i; j++)
		n += records[j].caller == records[i].caller;
	return n;
}

/*
 * The program returned: every record still reserved is a leak, in acquisition order (the
 * verifier's array from 6.14), from 6.14 with the exit's line after the last.
 */
void bpfrt_ringbuf_exit(void)
{
	unsigned int last = nr_records;

	for (unsigned int i = 0; i < nr_records; i++)
		if (records[i].held)
			last = i;
	for (unsigned int i = 0; i < nr_records; i++) {
		struct record *rec = &records[i];
		int insn;

		if (!rec->held)
			continue;
		rec->held = false;
		insn = bpfrt_call_insn_nth("bpf_ringbuf_reserve", rec->caller, nth_at_site(i));
		if (insn < 0)
			insn = (int)i + 1;
		bpfrt_leak_report("bpf_ringbuf_reserve",
				  "every record reserve returned must be submitted or discarded "
				  "before the program exits",
				  rec->caller, rec->id, insn, i == last);
	}
	nr_records = 0;
}

/* The runner's consumer (-v): every ring's new records, printed after an invocation. */
static int print_record(void *ctx, void *data, size_t size)
{
	const struct ring *r = ctx;
	const unsigned char *b = data;

	printf("        ringbuf %s: record of %zu bytes:", r->name, size);
	for (size_t i = 0; i < size && i < 64; i++)
		printf(" %02x", b[i]);
	printf("%s\n", size > 64 ? " ..." : "");
	return 0;
}

void bpfrt_ringbuf_print(void)
{
	for (unsigned int i = 0; i < nr_rings; i++)
		kfsim_bpfrt_ringbuf_consume((void *)rings[i].def, print_record, &rings[i]);
	fflush(stdout);
}
