/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deadline-rb: what differs between the kernel series it builds for (Linux
 * 6.1, 6.12 and 7.2), in one place, so that the glue and the engine carry no
 * version checks of their own.  Include it after the block/ headers, whose
 * symbols it tests.
 *
 * Checked against the three trees:
 * - 6.4 turned insert_requests' "bool at_head" into blk_insert_t flags
 *   (BLK_MQ_INSERT_AT_HEAD, in block/blk-mq.h).
 * - 6.12's elv_register() refuses an elevator without finish_request; we
 *   have one on every series, as mq-deadline does.
 * - The rest of what the glue uses from block/ (blk_mq_sched_try_merge,
 *   blk_mq_sched_try_insert_merge, blk_mq_free_requests, elv_rqhash_del,
 *   elv_bio_merge_ok, rq_mergeable, blk_discard_mergable,
 *   elv_rb_{former,latter}_request, blk_mq_debugfs_rq_show,
 *   QUEUE_FLAG_SQ_SCHED) has the same signature on all three;
 *   rq->elv.priv[] is the scheduler's alone on all (the core only clears
 *   elv.icq).
 * - Zoned disks: up to 6.9 an elevator that declares ELEVATOR_F_ZBD_SEQ_WRITE
 *   keeps one write per sequential zone in flight (blk_req_zone_write_lock
 *   at dispatch, unlock at finish and requeue); 6.10 replaced that with zone
 *   write plugging in the core, and removed the feature flag and the lock.
 *   The helpers below compile to nothing there.
 * - Scheduler tags: a shallow depth, which limits what writes may take,
 *   limited each word of the tag bitmap up to 6.16, and limits the whole
 *   bitmap since "lib/sbitmap: convert shallow_depth from one word to the
 *   whole sbitmap" (6.17, in Debian's 6.12 since 6.12.43).  No symbol
 *   changed with it, only its documented meaning, so Kbuild reads that from
 *   the tree's <linux/sbitmap.h> and defines DLRB_SHALLOW_WHOLE_MAP; the
 *   KUnit suite checks the answer against the running kernel's sbitmap.
 * - 7.2: the core allocates the elevator queue for init_sched, and owns
 *   async_depth (queue/async_depth); depth_updated() takes the queue.
 *   Kbuild finds each in the tree's declarations (dlrb-compat.mk).
 * - Not used by the module, so nothing here for them: block/blk-mq-tag.h
 *   (folded into blk-mq.h by 6.12), RQF_ELVPRIV (gone; 6.12 marks requests
 *   with RQF_USE_SCHED).
 */
#ifndef _DLRB_COMPAT_H
#define _DLRB_COMPAT_H

/*
 * Feature tests, not version numbers: a distribution kernel may carry a
 * backport, and the symbol itself says what the tree has.
 */
#ifdef BLK_MQ_INSERT_AT_HEAD		/* 6.4+: flags */
#define dlrb_insert_t blk_insert_t

static inline bool dlrb_insert_at_head(dlrb_insert_t flags)
{
	return flags & BLK_MQ_INSERT_AT_HEAD;
}
#else					/* 6.1: a bool */
#define dlrb_insert_t bool

static inline bool dlrb_insert_at_head(dlrb_insert_t at_head)
{
	return at_head;
}
#endif

/*
 * The shallow depth that lets writes hold at most @depth of the tags in
 * @sb, and all of them only when @depth is a multiple of a word's share.
 */
#ifdef DLRB_SHALLOW_WHOLE_MAP		/* 6.17+, Debian 6.12.43+, 7.2 */
static inline unsigned int dlrb_shallow_depth(const struct sbitmap *sb,
					      unsigned int depth)
{
	return depth;
}
#else					/* up to 6.16: per word */
static inline unsigned int dlrb_shallow_depth(const struct sbitmap *sb,
					      unsigned int depth)
{
	return max(1U, (depth << sb->shift) / sb->depth);
}
#endif

/*
 * The elevator queue: on 6.1 and 6.12 init_sched allocates it
 * (elevator_alloc()) and puts it when it fails; 7.2's core allocates it,
 * hands it to init_sched, and puts it itself when init_sched fails.
 */
#ifdef DLRB_ELV_QUEUE_FROM_CORE		/* 7.2 */
#define dlrb_init_arg struct elevator_queue

static inline struct elevator_queue *
dlrb_elv_alloc(struct request_queue *q, struct elevator_queue *eq)
{
	return eq;
}

static inline void dlrb_elv_put(struct elevator_queue *eq)
{
}
#else					/* 6.1, 6.12 */
#define dlrb_init_arg struct elevator_type

static inline struct elevator_queue *
dlrb_elv_alloc(struct request_queue *q, struct elevator_type *et)
{
	return elevator_alloc(q, et);
}

static inline void dlrb_elv_put(struct elevator_queue *eq)
{
	kobject_put(&eq->kobj);
}
#endif

/*
 * async_depth.  On 6.1 and 6.12 it is the scheduler's own
 * iosched/async_depth, and depth_updated() runs for each hctx, before
 * q->nr_requests changes: all of the tags again, as mq-deadline.  7.2's
 * core has queue/async_depth (q->async_depth, scaled with nr_requests),
 * and calls depth_updated() with the queue after either changed: the
 * scheduler takes the core's value, as mq-deadline does, and has no
 * attribute of its own.  dlrb_depth_sync() puts the value to use in
 * *@async_depth.
 */
#if defined(DLRB_QUEUE_ASYNC_DEPTH) && defined(DLRB_DEPTH_UPDATED_QUEUE)	/* 7.2 */
#define dlrb_depth_arg struct request_queue

static inline struct request_queue *dlrb_depth_queue(struct request_queue *q)
{
	return q;
}

static inline void dlrb_depth_sync(struct request_queue *q,
				   unsigned int *async_depth)
{
	WRITE_ONCE(*async_depth, q->async_depth);
	/* no shallow depth may be below it, or tag waiters are not woken */
	blk_mq_set_min_shallow_depth(q, 1);
}

/* A new scheduler on the queue reserves nothing, as mq-deadline. */
static inline void dlrb_depth_init(struct request_queue *q,
				   unsigned int *async_depth)
{
	q->async_depth = q->nr_requests;
	dlrb_depth_sync(q, async_depth);
}
#elif !defined(DLRB_QUEUE_ASYNC_DEPTH) && !defined(DLRB_DEPTH_UPDATED_QUEUE)
#define DLRB_OWN_ASYNC_DEPTH
#define dlrb_depth_arg struct blk_mq_hw_ctx

static inline struct request_queue *dlrb_depth_queue(struct blk_mq_hw_ctx *hctx)
{
	return hctx->queue;
}

static inline void dlrb_depth_sync(struct blk_mq_hw_ctx *hctx,
				   unsigned int *async_depth)
{
	struct sbitmap_queue *bt = &hctx->sched_tags->bitmap_tags;

	WRITE_ONCE(*async_depth, bt->sb.depth);
	sbitmap_queue_min_shallow_depth(bt, 1);
}

/* Each hctx's init_hctx syncs it. */
static inline void dlrb_depth_init(struct request_queue *q,
				   unsigned int *async_depth)
{
}
#else
#error "deadline-rb: a tree with only one of q->async_depth and depth_updated(q) is unchecked"
#endif

#ifdef ELEVATOR_F_ZBD_SEQ_WRITE	/* up to 6.9: the elevator locks zones */
static inline bool dlrb_zone_locking(struct request_queue *q)
{
	return blk_queue_is_zoned(q);
}

/*
 * May @rq, queued in the sort, go now?  Not a write to a sequential zone
 * that has a write in flight; nor one above another queued write to its
 * zone, which would land past the write pointer: the batch may have come
 * to @rq from a read in that zone, or by wrapping around.
 */
static inline bool dlrb_zone_may_go(struct request *rq)
{
	struct rb_node *node = rb_prev(&rq->rb_node);
	struct request *prev;

	if (!blk_req_needs_zone_write_lock(rq))
		return true;
	if (blk_req_zone_is_write_locked(rq))
		return false;
	if (!node)
		return true;
	prev = rb_entry(node, struct request, rb_node);
	return disk_zone_no(rq->q->disk, blk_rq_pos(prev)) !=
	       disk_zone_no(rq->q->disk, blk_rq_pos(rq));
}

/* Is @rq a write that must reach its zone in order? */
static inline bool dlrb_zone_write(struct request *rq)
{
	return blk_req_needs_zone_write_lock(rq);
}

/*
 * Is @bio a write that must reach its zone in order?  As dlrb_zone_write()
 * for the request it would become, so that its merge lookups search the
 * class that request would be queued in.
 */
static inline bool dlrb_zone_bio_write(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;

	return bdev_op_is_zoned_write(disk->part0, bio_op(bio)) &&
	       disk_zone_is_seq(disk, bio->bi_iter.bi_sector);
}

static inline void dlrb_zone_lock(struct request *rq)
{
	blk_req_zone_write_lock(rq);
}

static inline void dlrb_zone_unlock(struct request *rq)
{
	blk_req_zone_write_unlock(rq);
}
#else					/* 6.10+: zone write plugging */
static inline bool dlrb_zone_locking(struct request_queue *q)
{
	return false;
}

static inline bool dlrb_zone_may_go(struct request *rq)
{
	return true;
}

static inline bool dlrb_zone_write(struct request *rq)
{
	return false;
}

static inline bool dlrb_zone_bio_write(struct bio *bio)
{
	return false;
}

static inline void dlrb_zone_lock(struct request *rq)
{
}

static inline void dlrb_zone_unlock(struct request *rq)
{
}
#endif

#endif /* _DLRB_COMPAT_H */
