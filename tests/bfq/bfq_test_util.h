/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_BFQ_UTIL_H
#define KFSIM_TESTS_BFQ_UTIL_H

/* Helpers for driving BFQ by hand: a disk with N equal ranges, requests from a small pool. */
#include <kfsim/bfq.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

#define TEST_CAPACITY 1000000ULL

static inline struct bfq_data *test_bfq(struct gendisk *disk, unsigned int nr_actuators,
					unsigned int kver, struct bfq_tunables *tun_in)
{
	struct bfq_tunables tun;
	struct bfq_data *bfqd;

	disk->capacity = TEST_CAPACITY;
	disk->ia_ranges = NULL;
	if (nr_actuators > 1) {
		struct blk_independent_access_ranges *iars =
			disk_alloc_independent_access_ranges(disk, (int)nr_actuators);

		for (unsigned int i = 0; i < nr_actuators; i++) {
			iars->ia_range[i].sector = TEST_CAPACITY / nr_actuators * i;
			iars->ia_range[i].nr_sectors = TEST_CAPACITY / nr_actuators;
		}
		if (disk_set_independent_access_ranges(disk, iars))
			return NULL;
	}
	if (tun_in) {
		tun = *tun_in;
	} else {
		bfq_tunables_default(&tun);
		tun.low_latency = false;
	}
	tun.kernel_version = kver;
	bfqd = bfq_init_queue(disk, &tun);
	return IS_ERR(bfqd) ? NULL : bfqd;
}

/* A new prepared and inserted request of @bic. */
static inline struct request *test_rq(struct bfq_data *bfqd, struct bfq_io_cq *bic, sector_t sector,
				      unsigned int sectors, bool write)
{
	struct request *rq = kzalloc(sizeof(*rq), GFP_KERNEL);

	blk_rq_init_from_bio(rq, sector, sectors << SECTOR_SHIFT,
			     write ? REQ_OP_WRITE : REQ_OP_READ, bic->ioprio);
	if (bfq_prepare_request(bic, rq)) {
		kfree(rq);
		return NULL;
	}
	bfq_insert_request(bfqd, rq);
	return rq;
}

static inline struct bfq_queue *RQ_BFQQ_OF(const struct request *rq)
{
	return rq->elv_priv[1];
}

/* Dispatch, letting the idle timer fire (and time pass) when BFQ idles. */
static inline struct request *test_dispatch(struct bfq_data *bfqd)
{
	struct request *rq = bfq_dispatch_request(bfqd);

	while (!rq && bfqd->idle_slice_timer_expires) {
		bfqd->now_ns = bfqd->idle_slice_timer_expires;
		bfq_idle_slice_timer(bfqd);
		rq = bfq_dispatch_request(bfqd);
	}
	return rq;
}

static inline void test_finish(struct bfq_data *bfqd, struct request *rq)
{
	bfq_finish_request(bfqd, rq);
	kfree(rq);
}

#endif
