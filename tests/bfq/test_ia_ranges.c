// SPDX-License-Identifier: MIT
/*
 * Independent access ranges (validation as disk_check_ia_ranges()) and bfq_actuator_index() at
 * every range boundary, against a simple linear model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bfq.h>
#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/hdd_sim.h>
#include <kfsim/random.h>
#include <kfsim/slab.h>
#include "support/log_assert.h"

static struct blk_independent_access_ranges *make_ranges(struct gendisk *disk, int nr,
							 const sector_t *start, const sector_t *len)
{
	struct blk_independent_access_ranges *iars = disk_alloc_independent_access_ranges(disk, nr);

	assert_non_null(iars);
	for (int i = 0; i < nr; i++) {
		iars->ia_range[i].sector = start[i];
		iars->ia_range[i].nr_sectors = len[i];
	}
	return iars;
}

static void test_valid_ranges_are_sorted_and_kept(void **state)
{
	struct gendisk disk = { .capacity = 1000 };
	sector_t start[] = { 600, 0, 300 }, len[] = { 400, 300, 300 };

	assert_int_equal(disk_set_independent_access_ranges(&disk, make_ranges(&disk, 3, start, len)),
			 0);
	assert_non_null(disk.ia_ranges);
	assert_int_equal(disk.ia_ranges->nr_ia_ranges, 3);
	assert_int_equal(disk.ia_ranges->ia_range[0].sector, 0);
	assert_int_equal(disk.ia_ranges->ia_range[1].sector, 300);
	assert_int_equal(disk.ia_ranges->ia_range[2].sector, 600);
	assert_ptr_equal(disk_find_ia_range(disk.ia_ranges, 599), &disk.ia_ranges->ia_range[1]);
	assert_null(disk_find_ia_range(disk.ia_ranges, 1000));
	disk_free_ia_ranges(&disk);
	assert_null(disk.ia_ranges);
}

static void test_invalid_sets_keep_previous_ranges(void **state)
{
	struct gendisk disk = { .capacity = 1000 };
	sector_t good_start[] = { 0, 500 }, good_len[] = { 500, 500 };
	struct {
		int nr;
		sector_t start[3], len[3];
		const char *msg;
	} bad[] = {
		{ 2, { 0, 600 }, { 500, 400 }, "Invalid non-contiguous independent access ranges" },
		{ 2, { 0, 400 }, { 500, 600 }, "Invalid non-contiguous independent access ranges" },
		{ 2, { 100, 500 }, { 400, 500 }, "Invalid non-contiguous independent access ranges" },
		{ 3, { 0, 500, 500 }, { 500, 0, 500 },
		  "Invalid non-contiguous independent access ranges" },
		{ 2, { 0, 500 }, { 500, 400 }, "Independent access ranges do not match disk capacity" },
		{ 2, { 0, 500 }, { 500, 600 }, "Independent access ranges do not match disk capacity" },
	};
	struct blk_independent_access_ranges *kept;

	assert_int_equal(disk_set_independent_access_ranges(&disk, make_ranges(&disk, 2, good_start,
									   good_len)), 0);
	kept = disk.ia_ranges;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		u64 mark = log_mark();

		assert_int_equal(disk_set_independent_access_ranges(
					 &disk, make_ranges(&disk, bad[i].nr, bad[i].start, bad[i].len)),
				 -EINVAL);
		assert_logged(mark, bad[i].msg, 1);
		assert_ptr_equal(disk.ia_ranges, kept);
		assert_int_equal(kept->ia_range[1].sector, 500);
	}
	/* an identical set changes nothing, NULL removes */
	assert_int_equal(disk_set_independent_access_ranges(&disk, make_ranges(&disk, 2, good_start,
									   good_len)), 0);
	assert_ptr_equal(disk.ia_ranges, kept);
	assert_int_equal(disk_set_independent_access_ranges(&disk, NULL), 0);
	assert_null(disk.ia_ranges);
	assert_null(disk_alloc_independent_access_ranges(&disk, 0));
}

/* The model: the range whose [sector, sector + nr) holds the last sector, else 0. */
static unsigned int model_index(const struct bfq_data *bfqd, sector_t first, unsigned int sectors)
{
	sector_t end = first + sectors - 1;

	for (unsigned int i = 0; i < bfqd->num_actuators; i++) {
		if (end >= bfqd->sector[i] && end < bfqd->sector[i] + bfqd->nr_sectors[i])
			return i;
	}
	return 0;
}

static struct bfq_data *bfq_on(struct gendisk *disk, int nr, const sector_t *start,
			       const sector_t *len)
{
	struct bfq_tunables tun;
	struct bfq_data *bfqd;

	if (nr)
		assert_int_equal(disk_set_independent_access_ranges(disk, make_ranges(disk, nr, start,
										      len)), 0);
	bfq_tunables_default(&tun);
	tun.kernel_version = KERNEL_VERSION(6, 3, 0);
	bfqd = bfq_init_queue(disk, &tun);
	assert_false(IS_ERR(bfqd));
	return bfqd;
}

static void test_actuator_index_at_every_boundary(void **state)
{
	struct gendisk disk = { .capacity = 4000 };
	sector_t start[] = { 0, 1000, 1500, 3999 }, len[] = { 1000, 500, 2499, 1 };
	struct bfq_data *bfqd = bfq_on(&disk, 4, start, len);

	assert_int_equal(bfqd->num_actuators, 4);
	for (int i = 0; i < 4; i++) {
		for (int delta = -2; delta <= 2; delta++) {
			s64 s = (s64)start[i] + delta;

			if (s < 0 || s >= 4000)
				continue;
			for (unsigned int sectors = 1; sectors <= 16; sectors *= 2) {
				struct bio bio = { .bi_iter = { (sector_t)s, sectors << 9 } };

				if ((sector_t)s + sectors > 4000)
					continue;
				assert_int_equal(bfq_actuator_index(bfqd, &bio),
						 model_index(bfqd, (sector_t)s, sectors));
			}
		}
	}
	/* a bio straddling 999|1000 belongs to the range of its last sector */
	{
		struct bio straddle = { .bi_iter = { 996, 8 << 9 } };
		struct bio before = { .bi_iter = { 992, 8 << 9 } };

		assert_int_equal(bfq_actuator_index(bfqd, &straddle), 1);
		assert_int_equal(bfq_actuator_index(bfqd, &before), 0);
	}
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_out_of_range_warns_once_and_uses_zero(void **state)
{
	struct gendisk disk = { .capacity = 2000 };
	sector_t start[] = { 0, 1000 }, len[] = { 1000, 1000 };
	struct bfq_data *bfqd = bfq_on(&disk, 2, start, len);
	struct bio past = { .bi_iter = { 1999, 8 << 9 } };
	unsigned long warns = kfsim_warn_count();
	u64 mark = log_mark();

	assert_int_equal(bfq_actuator_index(bfqd, &past), 0);
	assert_int_equal(bfq_actuator_index(bfqd, &past), 0);
	assert_int_equal(kfsim_warn_count() - warns, 1);
	assert_logged(mark, "bio sector out of ranges: end=2006", 1);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_too_many_ranges_fall_back_to_one_actuator(void **state)
{
	struct gendisk disk = { .capacity = 9 * 100 };
	sector_t start[9], len[9];
	struct bfq_data *bfqd;
	u64 mark = log_mark();

	for (int i = 0; i < 9; i++) {
		start[i] = (sector_t)i * 100;
		len[i] = 100;
	}
	bfqd = bfq_on(&disk, 9, start, len);
	assert_logged(mark, "nr_ia_ranges higher than act limit: iars=9, max=8.", 1);
	assert_logged(mark, "Falling back to single actuator mode.", 1);
	assert_int_equal(bfqd->num_actuators, 1);
	assert_int_equal(bfqd->sector[0], 0);
	assert_int_equal(bfqd->nr_sectors[0], 900);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_pre_6_3_and_no_ranges_use_one_actuator(void **state)
{
	struct gendisk disk = { .capacity = 2000 };
	sector_t start[] = { 0, 1000 }, len[] = { 1000, 1000 };
	struct bfq_tunables tun;
	struct bfq_data *bfqd;
	struct bio hi = { .bi_iter = { 1500, 4096 } };

	bfqd = bfq_on(&disk, 0, NULL, NULL);
	assert_int_equal(bfqd->num_actuators, 1);
	assert_int_equal(bfqd->nr_sectors[0], 2000);
	bfq_exit_queue(bfqd);
	assert_int_equal(disk_set_independent_access_ranges(&disk, make_ranges(&disk, 2, start, len)),
			 0);
	bfq_tunables_default(&tun);
	tun.kernel_version = KERNEL_VERSION(6, 2, 0);
	bfqd = bfq_init_queue(&disk, &tun);
	assert_false(IS_ERR(bfqd));
	assert_int_equal(bfqd->num_actuators, 1);
	assert_false(bfqd->actuator_injection);
	assert_int_equal(bfq_actuator_index(bfqd, &hi), 0);
	/* every active list is usable, not only the first two (the mainline 6.3 omission) */
	for (int i = 0; i < BFQ_MAX_ACTUATORS; i++)
		assert_true(blk_list_empty(&bfqd->active_list[i]));
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_random_ranges_against_model(void **state)
{
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 42);
	for (int round = 0; round < 200; round++) {
		unsigned int nr = 2 + kfsim_prandom_below(&rnd, 7);
		struct gendisk disk = { .capacity = 0 };
		sector_t start[8], len[8];
		struct bfq_data *bfqd;

		for (unsigned int i = 0; i < nr; i++) {
			start[i] = disk.capacity;
			len[i] = 1 + kfsim_prandom_below(&rnd, 100);
			disk.capacity += len[i];
		}
		bfqd = bfq_on(&disk, (int)nr, start, len);
		for (int k = 0; k < 50; k++) {
			sector_t s = kfsim_prandom_below(&rnd, (u32)disk.capacity);
			unsigned int n = 1 + kfsim_prandom_below(&rnd, (u32)(disk.capacity - s));
			struct bio bio = { .bi_iter = { s, n << 9 } };

			assert_int_equal(bfq_actuator_index(bfqd, &bio), model_index(bfqd, s, n));
		}
		bfq_exit_queue(bfqd);
		disk_free_ia_ranges(&disk);
	}
}

static void test_hdd_describes_its_ranges(void **state)
{
	struct kfsim_hdd_params p;
	struct gendisk disk = { 0 };
	struct kfsim_hdd *hdd;

	kfsim_hdd_params_default(&p, 2);
	p.capacity = 4001;
	hdd = kfsim_hdd_create(&p);
	assert_false(IS_ERR(hdd));
	assert_int_equal(kfsim_hdd_set_ia_ranges(hdd, &disk), 0);
	assert_int_equal(disk.ia_ranges->nr_ia_ranges, 2);
	assert_int_equal(disk.ia_ranges->ia_range[1].sector, 2000);
	for (sector_t s = 1995; s < 2005; s++)
		assert_int_equal(kfsim_hdd_actuator_of(hdd, s), s >= 2000);
	kfsim_hdd_destroy(hdd);
	disk_free_ia_ranges(&disk);
	p.nr_actuators = 0;
	assert_ptr_equal(kfsim_hdd_create(&p), ERR_PTR(-EINVAL));
	p.nr_actuators = 17;
	assert_ptr_equal(kfsim_hdd_create(&p), ERR_PTR(-EINVAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_ranges_are_sorted_and_kept),
		cmocka_unit_test(test_invalid_sets_keep_previous_ranges),
		cmocka_unit_test(test_actuator_index_at_every_boundary),
		cmocka_unit_test(test_out_of_range_warns_once_and_uses_zero),
		cmocka_unit_test(test_too_many_ranges_fall_back_to_one_actuator),
		cmocka_unit_test(test_pre_6_3_and_no_ranges_use_one_actuator),
		cmocka_unit_test(test_random_ranges_against_model),
		cmocka_unit_test(test_hdd_describes_its_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
