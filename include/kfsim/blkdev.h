/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BLKDEV_H
#define KFSIM_BLKDEV_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The slice of the block layer an I/O scheduler sees (include/linux/blkdev.h, blk_types.h,
 * block/blk-ia-ranges.c, Linux 6.3): a disk with a capacity and, for multi-actuator drives, its
 * independent access ranges; bios and requests with a start sector, a size, a direction and the
 * sync flag.
 *
 * Invariants kept here:
 * - a disk's ia_ranges is NULL or a set that is sorted by sector, contiguous, non-overlapping and
 *   covers exactly [0, capacity) (disk_check_ia_ranges() of the kernel);
 * - sizes are in 512-byte sectors whatever the logical block size, as in sysfs.
 *
 * One documented difference: the kernel drops a disk's ranges (ia_ranges = NULL) when a new set is
 * invalid; kfsim returns -EINVAL and keeps the previous set, so bad input never loses state.
 */
#include <kfsim/kernel.h>
#include <kfsim/rbtree.h>
#include <kfsim/types.h>

typedef u64 sector_t;
typedef u32 blk_opf_t;

#define SECTOR_SHIFT 9
#define SECTOR_SIZE (1 << SECTOR_SHIFT)

/* Operations and flags (blk_types.h): the op lives in the low 8 bits of opf. */
#define REQ_OP_BITS 8
#define REQ_OP_MASK ((1U << REQ_OP_BITS) - 1)
enum req_op {
	REQ_OP_READ = 0,
	REQ_OP_WRITE = 1,
};
#define REQ_SYNC (1U << 11)
#define REQ_META (1U << 12)
#define REQ_IDLE (1U << 15)	/* anticipate more I/O after this one (direct writes) */

/* BLK_DEF_MAX_SECTORS_CAP (6.12 include/linux/blkdev.h): the default max_sectors of a queue. */
#define BLK_DEF_MAX_SECTORS_CAP 2560U

/** op_is_write() - whether @op writes (odd op numbers write, as in the kernel). */
static inline bool op_is_write(blk_opf_t op)
{
	return op & 1;
}

/** op_is_sync() - reads are always synchronous; writes only with REQ_SYNC. */
static inline bool op_is_sync(blk_opf_t op)
{
	return (op & REQ_OP_MASK) == REQ_OP_READ || (op & REQ_SYNC);
}

/**
 * struct blk_independent_access_range - one range of sectors served by one actuator
 * @sector: first sector
 * @nr_sectors: number of sectors
 */
struct blk_independent_access_range {
	sector_t sector;
	sector_t nr_sectors;
};

/**
 * struct blk_independent_access_ranges - the ranges of a disk
 * @nr_ia_ranges: how many
 * @ia_range: the ranges, by increasing sector once accepted
 */
struct blk_independent_access_ranges {
	unsigned int nr_ia_ranges;
	struct blk_independent_access_range ia_range[];
};

/**
 * struct gendisk - the part of a disk the scheduler reads
 * @disk_name: "sda"
 * @capacity: size in sectors (get_capacity())
 * @ia_ranges: NULL unless the device reported more than one independent access range
 */
struct gendisk {
	char disk_name[32];
	sector_t capacity;
	struct blk_independent_access_ranges *ia_ranges;
};

/** get_capacity() - the size of @disk in sectors. */
static inline sector_t get_capacity(const struct gendisk *disk)
{
	return disk->capacity;
}

/** set_capacity() - set the size of @disk in sectors. */
static inline void set_capacity(struct gendisk *disk, sector_t size)
{
	disk->capacity = size;
}

/**
 * disk_alloc_independent_access_ranges() - zero-allocate a set of @nr_ia_ranges ranges
 * @disk: the disk (for symmetry with the kernel; not modified)
 * @nr_ia_ranges: how many ranges, at least 1
 *
 * Return: the set, or NULL when @nr_ia_ranges is 0 or memory is short.
 */
struct blk_independent_access_ranges *disk_alloc_independent_access_ranges(struct gendisk *disk,
									   int nr_ia_ranges);

/**
 * disk_set_independent_access_ranges() - install @iars as the ranges of @disk
 * @disk: the disk
 * @iars: a set from disk_alloc_independent_access_ranges(), or NULL to remove the ranges.
 *        Always consumed: kept by the disk, or freed.
 *
 * The ranges are sorted by sector, then checked: they must be contiguous from sector 0 without
 * overlap ("Invalid non-contiguous independent access ranges") and add up to the capacity
 * ("Independent access ranges do not match disk capacity"); both messages are logged as the
 * kernel logs them.  A set equal to the current one changes nothing.
 *
 * Return: 0; -EINVAL for an invalid set, in which case the disk keeps its previous ranges.
 */
int disk_set_independent_access_ranges(struct gendisk *disk,
				       struct blk_independent_access_ranges *iars);

/**
 * disk_find_ia_range() - the range of @iars that contains @sector
 *
 * Return: the range, or NULL when no range contains it.
 */
struct blk_independent_access_range *disk_find_ia_range(struct blk_independent_access_ranges *iars,
							sector_t sector);

/** disk_free_ia_ranges() - drop the ranges of @disk (its ia_ranges becomes NULL). */
void disk_free_ia_ranges(struct gendisk *disk);

/**
 * struct bvec_iter - where a bio is
 * @bi_sector: first sector
 * @bi_size: remaining bytes
 */
struct bvec_iter {
	sector_t bi_sector;
	unsigned int bi_size;
};

/**
 * struct bio - one I/O as submitted
 * @bi_iter: position and size
 * @bi_opf: operation and flags
 * @bi_ioprio: I/O priority (IOPRIO_PRIO_VALUE())
 */
struct bio {
	struct bvec_iter bi_iter;
	blk_opf_t bi_opf;
	unsigned short bi_ioprio;
};

/** bio_end_sector() - the sector after the last one of @bio. */
static inline sector_t bio_end_sector(const struct bio *bio)
{
	return bio->bi_iter.bi_sector + (bio->bi_iter.bi_size >> SECTOR_SHIFT);
}

/** bio_op() - the operation of @bio (REQ_OP_READ, REQ_OP_WRITE). */
static inline enum req_op bio_op(const struct bio *bio)
{
	return (enum req_op)(bio->bi_opf & REQ_OP_MASK);
}

/*
 * struct blk_list - the kernel's struct list_head (circular, doubly linked, intrusive), kept under
 * a block-layer name because kfsim has no <linux/list.h>: request FIFOs and BFQ's active lists.
 */
struct blk_list {
	struct blk_list *next, *prev;
};

/** blk_list_init() - make @head an empty list (INIT_LIST_HEAD()). */
static inline void blk_list_init(struct blk_list *head)
{
	head->next = head;
	head->prev = head;
}

/** blk_list_empty() - whether @head has no entries (list_empty()). */
static inline bool blk_list_empty(const struct blk_list *head)
{
	return head->next == head;
}

static inline void __blk_list_add(struct blk_list *node, struct blk_list *prev, struct blk_list *next)
{
	next->prev = node;
	node->next = next;
	node->prev = prev;
	prev->next = node;
}

/** blk_list_add() - insert @node at the front of @head (list_add(): LIFO). */
static inline void blk_list_add(struct blk_list *node, struct blk_list *head)
{
	__blk_list_add(node, head, head->next);
}

/** blk_list_add_tail() - insert @node at the back of @head (list_add_tail(): FIFO). */
static inline void blk_list_add_tail(struct blk_list *node, struct blk_list *head)
{
	__blk_list_add(node, head->prev, head);
}

/** blk_list_del_init() - unlink @node and leave it as an empty list (list_del_init()). */
static inline void blk_list_del_init(struct blk_list *node)
{
	node->next->prev = node->prev;
	node->prev->next = node->next;
	blk_list_init(node);
}

#define blk_list_entry(ptr, type, member) container_of(ptr, type, member)

/* rq_flags: the request was handed to the driver (dispatched). */
#define RQF_STARTED (1U << 1)

/**
 * struct request - a request as the scheduler and the driver handle it
 * @__sector: first sector
 * @__data_len: size in bytes
 * @cmd_flags: operation and flags (of its bio)
 * @bio: the bio it was made from (one bio per request: kfsim does not merge)
 * @start_time_ns: when it was inserted into the scheduler
 * @io_start_time_ns: when it was dispatched to the device
 * @fifo_time: when it expires in its queue's FIFO (scheduler private)
 * @elv_priv: scheduler private pointers (BFQ: the bfq_queue and the bfq_io_cq)
 * @rb_node: link in a scheduler sort list (by sector)
 * @queuelist: link in a FIFO (scheduler, then device queue)
 * @rq_flags: RQF_* state
 * @pid: the issuing process (kfsim: a job index)
 * @tag: device tag while in the device, -1 otherwise
 * @injected: dispatched by BFQ's actuator injection rather than from the in-service queue
 * @actuator: the actuator that serves it (set by the device model)
 * @cache_hit: served from the device's read-ahead cache
 * @done_ns: completion time (device model)
 * @bio_storage: the bio itself
 */
struct request {
	sector_t __sector;
	unsigned int __data_len;
	blk_opf_t cmd_flags;
	struct bio *bio;
	u64 start_time_ns;
	u64 io_start_time_ns;
	u64 fifo_time;
	void *elv_priv[2];
	struct rb_node rb_node;
	struct blk_list queuelist;
	unsigned int rq_flags;
	int pid;
	int tag;
	bool injected;
	bool cache_hit;
	unsigned int actuator;
	u64 media_start_ns;
	u64 media_end_ns;
	u64 done_ns;
	struct bio bio_storage;
};

/** blk_rq_pos() - the first sector of @rq. */
static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->__sector;
}

/** blk_rq_bytes() - the size of @rq in bytes. */
static inline unsigned int blk_rq_bytes(const struct request *rq)
{
	return rq->__data_len;
}

/** blk_rq_sectors() - the size of @rq in sectors. */
static inline unsigned int blk_rq_sectors(const struct request *rq)
{
	return rq->__data_len >> SECTOR_SHIFT;
}

/** blk_rq_end_sector() - the sector after the last one of @rq. */
static inline sector_t blk_rq_end_sector(const struct request *rq)
{
	return rq->__sector + blk_rq_sectors(rq);
}

/** rq_is_sync() - whether @rq is synchronous (op_is_sync() of its flags). */
static inline bool rq_is_sync(const struct request *rq)
{
	return op_is_sync(rq->cmd_flags);
}

/** rq_data_dir() - 0 for a read, 1 for a write (READ/WRITE). */
static inline int rq_data_dir(const struct request *rq)
{
	return op_is_write(rq->cmd_flags) ? 1 : 0;
}

/**
 * blk_rq_init_from_bio() - make @rq a request for one bio: position @sector, @bytes, @opf
 *
 * The bio lives inside the request (rq->bio == &rq->bio_storage).  Every other field starts at
 * zero (@tag at -1): a device model reads @done_ns 0 as "not completed yet" until it sets it.
 */
static inline void blk_rq_init_from_bio(struct request *rq, sector_t sector, unsigned int bytes,
					blk_opf_t opf, unsigned short ioprio)
{
	*rq = (struct request){ 0 };
	rq->bio_storage.bi_iter.bi_sector = sector;
	rq->bio_storage.bi_iter.bi_size = bytes;
	rq->bio_storage.bi_opf = opf;
	rq->bio_storage.bi_ioprio = ioprio;
	rq->bio = &rq->bio_storage;
	rq->__sector = sector;
	rq->__data_len = bytes;
	rq->cmd_flags = opf;
	RB_CLEAR_NODE(&rq->rb_node);
	blk_list_init(&rq->queuelist);
	rq->tag = -1;
}

/* I/O priority classes and levels (include/uapi/linux/ioprio.h). */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_NR_LEVELS 8
enum {
	IOPRIO_CLASS_NONE,
	IOPRIO_CLASS_RT,
	IOPRIO_CLASS_BE,
	IOPRIO_CLASS_IDLE,
};
#define IOPRIO_PRIO_VALUE(class, level) ((unsigned short)(((class) << IOPRIO_CLASS_SHIFT) | (level)))
#define IOPRIO_PRIO_CLASS(ioprio) (((ioprio) >> IOPRIO_CLASS_SHIFT) & 0x7)
#define IOPRIO_PRIO_LEVEL(ioprio) ((ioprio) & 0x7)

#pragma GCC visibility pop
#endif /* KFSIM_BLKDEV_H */
