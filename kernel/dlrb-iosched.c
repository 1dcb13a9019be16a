// SPDX-License-Identifier: GPL-2.0
/*
 * deadline-rb: a deadline I/O scheduler whose sort lists are red-black trees,
 * after Jens Axboe's 2002 "deadline-ioscheduler rb-tree sort", with every
 * knob that scheduler hard-coded made a per-queue sysfs attribute.
 *
 * This file is the blk-mq glue: elevator ops, locking, sysfs and debugfs.
 * The policy itself lives in dlrb-engine.c.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/ctype.h>
#include <linux/ioprio.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/jiffies.h>
#include <trace/events/block.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-debugfs.h"
#include "blk-mq-sched.h"

#include "dlrb-compat.h"
#include "dlrb-engine.h"

struct dlrb_data {
	/*
	 * run time data, and the settings in e.*, all under lock
	 */
	struct dlrb_engine e;
	spinlock_t lock;			/* protects e */
	spinlock_t zone_lock;			/* zone unlocks vs dispatch */

	atomic64_t completed[DLRB_NR_DIRS];	/* counted requests freed */
	atomic64_t requeued[DLRB_NR_DIRS];	/* handed back by the driver */

	/*
	 * settings outside the engine, read without the lock
	 */
	unsigned int async_depth;		/* tags writes may take */
	struct request_queue *q;		/* async_depth's bound (6.1, 6.12) */
};

/*
 * The engine's clock, in nanoseconds: jiffies, as mq-deadline's, which
 * move once a tick and never back.  Deadlines are milliseconds; reading
 * the clocksource on every insert and dispatch would be a hardware access
 * where that is the HPET (as in the QEMU guest).  Not the coarse clock of
 * ktime_get_coarse_ns(): that is wall time, which settimeofday() and NTP
 * steps move (a clock set back an hour put off every deadline by an hour),
 * and it costs a seqcount loop where jiffies are one load.
 */
static u64 dlrb_now(void)
{
	return jiffies64_to_nsecs(get_jiffies_64());
}

/*
 * The class of an I/O priority: real-time, idle, or best-effort for the
 * rest, as in mq-deadline (no class, and the invalid one, are BE).
 */
static enum dlrb_class dlrb_ioprio_class(u16 ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return DLRB_RT;
	case IOPRIO_CLASS_IDLE:
		return DLRB_IDLE;
	default:
		return DLRB_BE;
	}
}

/*
 * The class @rq is queued in: its I/O priority's (on 6.12 its first bio's).
 * A write to a sequential zone (up to 6.9) is best-effort whatever its
 * priority: dlrb_zone_may_go() keeps a zone's writes in order by their
 * neighbours in one tree, so they must share one.
 */
static enum dlrb_class dlrb_queued_class(struct request_queue *q,
					 struct request *rq)
{
	if (dlrb_zone_locking(q) && dlrb_zone_write(rq))
		return DLRB_BE;
	return dlrb_ioprio_class(req_get_ioprio(rq));
}

/* The class a request made of @bio would be queued in, as above. */
static enum dlrb_class dlrb_bio_class(struct request_queue *q,
				      struct bio *bio)
{
	if (dlrb_zone_locking(q) && dlrb_zone_bio_write(bio))
		return DLRB_BE;
	return dlrb_ioprio_class(bio->bi_ioprio);
}

static enum dlrb_dir dlrb_bio_dir(struct bio *bio)
{
	return bio_data_dir(bio) == WRITE ? DLRB_WRITE : DLRB_READ;
}

/*
 * init / exit
 */
static int dlrb_init_sched(struct request_queue *q, dlrb_init_arg *arg)
{
	struct elevator_queue *eq;
	struct dlrb_data *dd;
	int ret = -ENOMEM;

	eq = dlrb_elv_alloc(q, arg);
	if (!eq)
		return ret;

	dd = kzalloc_node(sizeof(*dd), GFP_KERNEL, q->node);
	if (!dd)
		goto err_eq;

	ret = dlrb_init(&dd->e);
	if (ret)
		goto err_dd;
	spin_lock_init(&dd->lock);
	spin_lock_init(&dd->zone_lock);
	dd->q = q;
	if (dlrb_zone_locking(q))
		dd->e.may_go = dlrb_zone_may_go;
	eq->elevator_data = dd;

	/* One sort for the whole queue: dispatch queue-wide, not per hctx. */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);

	q->elevator = eq;
	dlrb_depth_init(q, &dd->async_depth);
	return 0;

err_dd:
	kfree(dd);
err_eq:
	dlrb_elv_put(eq);
	return ret;
}

static void dlrb_exit_sched(struct elevator_queue *eq)
{
	struct dlrb_data *dd = eq->elevator_data;
	enum dlrb_dir dir;

	WARN_ON_ONCE(!dlrb_empty(&dd->e));
	WARN_ON_ONCE(atomic_read(&dd->e.owned[DLRB_RT]) ||
		     atomic_read(&dd->e.owned[DLRB_BE]) ||
		     atomic_read(&dd->e.owned[DLRB_IDLE]));
	for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++)
		WARN_ONCE(dd->e.stats[dir].inserted != atomic64_read(&dd->completed[dir]),
			  "deadline-rb: %s: %llu inserted, %lld completed\n",
			  dir == DLRB_READ ? "read" : "write",
			  dd->e.stats[dir].inserted,
			  (long long)atomic64_read(&dd->completed[dir]));

	dlrb_exit(&dd->e);
	kfree(dd);
}

/*
 * merges
 */

/*
 * Back merges: our hash is the index, for bios and for inserted requests
 * alike.  The core keeps a hash of its own (rq->hash, 64 buckets), which we
 * never add to: it puts a request there itself after each merge
 * (elv_rqhash_reposition()), and tries it before asking us.  That does no
 * harm as long as a request leaves the core's hash when it leaves us
 * (dlrb_forget()), so we let it be rather than fight the core.
 */

/*
 * Whether no request waits in the sort: then nothing can be merged with,
 * neither through our hash and tree nor through q->last_merge and the
 * core's hash, which hold only requests of ours.  Exact under the lock;
 * without it, a hint (as has_work's peek).
 */
static bool dlrb_nothing_to_merge(struct dlrb_data *dd)
{
	return !dlrb_has_sorted(&dd->e);
}

/*
 * A mergeable request of @cls and @dir ending at @end.  Unmergeable ones
 * leave lazily.  Only the class and direction are matched here; the core
 * refuses a merge of two I/O priorities or operations (blk_rq_merge_ok(),
 * attempt_merge()).
 */
static struct request *dlrb_back_candidate(struct dlrb_data *dd,
					   enum dlrb_class cls,
					   enum dlrb_dir dir, sector_t end)
{
	struct request *rq;

	lockdep_assert_held(&dd->lock);

	while ((rq = dlrb_find_back(&dd->e, cls, dir, end))) {
		if (rq_mergeable(rq))
			return rq;
		dlrb_hash_del(rq);
	}
	return NULL;
}

/*
 * Look up a request that @bio can be merged into: back merges through our
 * hash, front merges through the sort.  The elevator core has already tried
 * q->last_merge and its own hash.
 */
static int dlrb_request_merge(struct request_queue *q, struct request **rqp,
			      struct bio *bio)
{
	struct dlrb_data *dd = q->elevator->elevator_data;
	const enum dlrb_class cls = dlrb_bio_class(q, bio);
	struct request *rq;

	lockdep_assert_held(&dd->lock);

	rq = dlrb_back_candidate(dd, cls, dlrb_bio_dir(bio),
				 bio->bi_iter.bi_sector);
	if (rq && elv_bio_merge_ok(rq, bio)) {
		*rqp = rq;
		if (blk_discard_mergable(rq))
			return ELEVATOR_DISCARD_MERGE;
		return ELEVATOR_BACK_MERGE;
	}

	if (!dd->e.front_merges)
		return ELEVATOR_NO_MERGE;

	rq = dlrb_find_front(&dd->e, cls, dlrb_bio_dir(bio),
			     bio_end_sector(bio));
	if (rq && elv_bio_merge_ok(rq, bio)) {
		*rqp = rq;
		if (blk_discard_mergable(rq))
			return ELEVATOR_DISCARD_MERGE;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

static bool dlrb_bio_merge(struct request_queue *q, struct bio *bio,
			   unsigned int nr_segs)
{
	struct dlrb_data *dd = q->elevator->elevator_data;
	struct request *free = NULL;
	bool ret;

	/*
	 * On a fast device the sort is empty at nearly every submission, and
	 * the lock and the three lookups behind it are then most of what a
	 * read costs us.  A request inserted meanwhile on another CPU is
	 * missed as this bio's merge, and may still take the request that
	 * the bio becomes, at insert (dlrb_insert_merge()).
	 */
	if (dlrb_nothing_to_merge(dd))
		return false;

	spin_lock(&dd->lock);
	ret = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock(&dd->lock);

	if (free)
		blk_mq_free_request(free);
	return ret;
}

/* A bio went into @rq: @type says which end of it moved. */
static void dlrb_request_merged(struct request_queue *q, struct request *rq,
				enum elv_merge type)
{
	struct dlrb_data *dd = q->elevator->elevator_data;

	lockdep_assert_held(&dd->lock);

	if (type == ELEVATOR_FRONT_MERGE)
		dlrb_merged_front(&dd->e, rq);
	else if (type == ELEVATOR_BACK_MERGE)
		dlrb_merged_back(&dd->e, rq);
}

/* Take @rq off everything that may point at it: it leaves the scheduler. */
static void dlrb_forget(struct request_queue *q, struct request *rq)
{
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

/* @next was merged into @rq and is about to be freed. */
static void dlrb_merged_requests(struct request_queue *q, struct request *rq,
				 struct request *next)
{
	struct dlrb_data *dd = q->elevator->elevator_data;

	lockdep_assert_held(&dd->lock);

	dlrb_requests_merged(&dd->e, rq, next);
	dlrb_forget(q, next);
}

/*
 * insert / dispatch
 */

/*
 * Merge @rq at the back of a queued request if one ends where it starts.
 * The core's insert merge tries q->last_merge before its own hash, so that
 * is where our hash's answer goes.  Only back merges: the core has no way
 * to merge a queued request behind a new one.
 */
static bool dlrb_insert_merge(struct request_queue *q, struct dlrb_data *dd,
			      struct request *rq, struct list_head *free)
{
	struct request *prev;

	if (dlrb_nothing_to_merge(dd))
		return false;
	if (rq_mergeable(rq) && !blk_queue_noxmerges(q)) {
		prev = dlrb_back_candidate(dd, dlrb_rq_class(rq), dlrb_dir(rq),
					   blk_rq_pos(rq));
		if (prev)
			q->last_merge = prev;
	}
	return blk_mq_sched_try_insert_merge(q, rq, free);
}

/*
 * Insert @rq: into the sort, or onto @bypass when it is not sorted
 * (passthrough, at-head), or into a queued request it merges with.
 */
static void dlrb_insert_request(struct request_queue *q, struct dlrb_data *dd,
				struct request *rq, bool at_head,
				struct list_head *bypass, struct list_head *free)
{
	lockdep_assert_held(&dd->lock);

	/*
	 * A requeued write may still hold its zone's write lock (zoned
	 * disks, up to 6.9): release it; dispatch takes it again.
	 */
	dlrb_zone_unlock(rq);

	if (at_head || blk_rq_is_passthrough(rq)) {
		trace_block_rq_insert(rq);
		list_add_tail(&rq->queuelist, bypass);
		return;
	}

	dlrb_set_class(rq, dlrb_queued_class(q, rq));

	if (dlrb_insert_merge(q, dd, rq, free))
		return;

	trace_block_rq_insert(rq);
	dlrb_add(&dd->e, rq, rq_mergeable(rq), dlrb_now());
	if (rq_mergeable(rq) && !q->last_merge)
		q->last_merge = rq;
}

static void dlrb_insert_requests(struct blk_mq_hw_ctx *hctx,
				 struct list_head *list, dlrb_insert_t flags)
{
	struct request_queue *q = hctx->queue;
	struct dlrb_data *dd = q->elevator->elevator_data;
	bool at_head = dlrb_insert_at_head(flags);
	LIST_HEAD(bypass);
	LIST_HEAD(free);

	spin_lock(&dd->lock);
	while (!list_empty(list)) {
		struct request *rq;

		rq = list_first_entry(list, struct request, queuelist);
		list_del_init(&rq->queuelist);
		dlrb_insert_request(q, dd, rq, at_head, &bypass, &free);
	}
	/* Unsorted requests leave first, in the order they were given. */
	dlrb_add_dispatch(&dd->e, &bypass, at_head);
	spin_unlock(&dd->lock);

	blk_mq_free_requests(&free);
}

static struct request *dlrb_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	struct dlrb_data *dd = q->elevator->elevator_data;
	unsigned long flags;
	struct request *rq;

	spin_lock(&dd->lock);
	if (!dd->e.may_go) {
		rq = dlrb_dispatch(&dd->e, dlrb_now());
	} else {
		/* No zone unlocks while the engine looks at zone locks. */
		spin_lock_irqsave(&dd->zone_lock, flags);
		rq = dlrb_dispatch(&dd->e, dlrb_now());
		if (rq)
			dlrb_zone_lock(rq);
		spin_unlock_irqrestore(&dd->zone_lock, flags);
	}
	if (rq) {
		dlrb_forget(q, rq);
		rq->rq_flags |= RQF_STARTED;
	}
	spin_unlock(&dd->lock);

	return rq;
}

static bool dlrb_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct dlrb_data *dd = hctx->queue->elevator->elevator_data;

	/* Unlocked peek, as mq-deadline's: a stale answer only costs a rerun. */
	return !list_empty_careful(&dd->e.dispatch) || dlrb_has_sorted(&dd->e);
}

/*
 * scheduler tags: synchronous reads may take every one of nr_requests;
 * writes and asynchronous reads only async_depth of them, so that a write
 * flood can be made to leave tags for the reads that someone waits on.
 * By default async_depth is nr_requests and reserves nothing, as in
 * mq-deadline of 6.12: a limit turns off batched tag allocation for
 * writes, and on 6.12 a reservation of a quarter made batched writers
 * sleep for tags with their plugs half full, losing a quarter of the
 * merges made at insert.
 */

static void dlrb_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct dlrb_data *dd = data->q->elevator->elevator_data;
	struct sbitmap_queue *bt = &data->hctx->sched_tags->bitmap_tags;
	const unsigned int nr = bt->sb.depth;	/* nr_requests */
	unsigned int depth;

	if (op_is_sync(opf) && !op_is_write(opf))
		return;
	depth = READ_ONCE(dd->async_depth);
	if (depth >= nr)
		return;		/* no limit: keep batched tag allocation */
	/*
	 * In the kernel's own terms: a share of each word up to 6.16 (which
	 * mq-deadline's async_depth got wrong), of the whole map since.
	 */
	data->shallow_depth = dlrb_shallow_depth(&bt->sb, depth);
}

/* nr_requests or async_depth changed, or a new hctx: dlrb-compat.h */
static void dlrb_depth_updated(dlrb_depth_arg *arg)
{
	struct dlrb_data *dd = dlrb_depth_queue(arg)->elevator->elevator_data;

	dlrb_depth_sync(arg, &dd->async_depth);
}

#ifdef DLRB_OWN_ASYNC_DEPTH
static int dlrb_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	dlrb_depth_updated(hctx);
	return 0;
}
#endif

/*
 * per-request hooks
 */
static void dlrb_prepare_request(struct request *rq)
{
	dlrb_prepare(rq);
}

/*
 * Called for every prepared request when it is freed, completed or not.
 * On a zoned disk (up to 6.9) a write releases its zone here; dispatch may
 * have stopped at that zone's writes, so the queue is run again.  Idle
 * requests may have been held back for this one: the same.
 */
static void dlrb_finish_request(struct request *rq)
{
	struct dlrb_data *dd = rq->q->elevator->elevator_data;
	unsigned long flags;

	/* Requests the core never inserted (they bypassed us) are not ours. */
	if (dlrb_rq(rq)->flags & DLRB_RQ_COUNTED)
		atomic64_inc(&dd->completed[dlrb_dir(rq)]);

	/*
	 * Idle requests wait while one of another class is with the driver;
	 * when the last is done, restart the queue for them as this request
	 * is freed, rather than at blk-mq's next retry (3 ms).
	 */
	if (dlrb_completed(&dd->e, rq))
		blk_mq_sched_mark_restart_hctx(rq->mq_hctx);

	if (dlrb_zone_locking(rq->q)) {
		spin_lock_irqsave(&dd->zone_lock, flags);
		dlrb_zone_unlock(rq);
		spin_unlock_irqrestore(&dd->zone_lock, flags);
		if (dlrb_has_sorted(&dd->e))
			blk_mq_sched_mark_restart_hctx(rq->mq_hctx);
	}
}

/* The driver gave @rq back; the core will insert it again, at the head. */
static void dlrb_requeue_request(struct request *rq)
{
	struct dlrb_data *dd = rq->q->elevator->elevator_data;

	atomic64_inc(&dd->requeued[dlrb_dir(rq)]);
}

/*
 * sysfs: values are decimal, in the units of DESIGN.md §3.3.  Unlike
 * mq-deadline, which clamps, a value out of range is refused with -EINVAL
 * (-ERANGE when it does not fit in 32 bits) and the old one stays.
 */
static int dlrb_parse(const char *page, u32 min, u32 max, u32 *val)
{
	u32 v;
	int ret;

	/* kstrtou32() would take a leading '+' and skip nothing else. */
	if (!isdigit(page[0]))
		return -EINVAL;
	ret = kstrtou32(page, 10, &v);
	if (ret)
		return ret;
	if (v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

/* Parse, then set under the lock: dispatch reads the settings under it. */
static ssize_t dlrb_store(struct elevator_queue *eq, const char *page,
			  size_t count, u32 min, u32 max, u32 *field)
{
	struct dlrb_data *dd = eq->elevator_data;
	u32 val;
	int ret;

	ret = dlrb_parse(page, min, max, &val);
	if (ret)
		return ret;
	spin_lock(&dd->lock);
	*field = val;
	spin_unlock(&dd->lock);
	return count;
}

#define DLRB_ATTR_RW(name, field, min, max)				\
static u32 *dlrb_##name##_ptr(struct elevator_queue *eq)		\
{									\
	struct dlrb_data *dd = eq->elevator_data;			\
									\
	return &dd->e.field;						\
}									\
static ssize_t dlrb_##name##_show(struct elevator_queue *eq, char *page) \
{									\
	return sysfs_emit(page, "%u\n", READ_ONCE(*dlrb_##name##_ptr(eq))); \
}									\
static ssize_t dlrb_##name##_store(struct elevator_queue *eq,		\
				   const char *page, size_t count)	\
{									\
	return dlrb_store(eq, page, count, min, max, dlrb_##name##_ptr(eq)); \
}

DLRB_ATTR_RW(read_expire, expire_ms[DLRB_READ], DLRB_EXPIRE_MIN_MS, DLRB_EXPIRE_MAX_MS)
DLRB_ATTR_RW(write_expire, expire_ms[DLRB_WRITE], DLRB_EXPIRE_MIN_MS, DLRB_EXPIRE_MAX_MS)
DLRB_ATTR_RW(writes_starved, writes_starved, 0, DLRB_WRITES_STARVED_MAX)
DLRB_ATTR_RW(fifo_batch, fifo_batch, DLRB_COST_MIN, DLRB_COST_MAX)
DLRB_ATTR_RW(seek_cost, seek_cost, DLRB_COST_MIN, DLRB_COST_MAX)
DLRB_ATTR_RW(front_merges, front_merges, 0, 1)
DLRB_ATTR_RW(prio_aging_expire, prio_aging_expire_ms, DLRB_EXPIRE_MIN_MS, DLRB_EXPIRE_MAX_MS)
#undef DLRB_ATTR_RW

static ssize_t dlrb_hash_shift_show(struct elevator_queue *eq, char *page)
{
	struct dlrb_data *dd = eq->elevator_data;

	return sysfs_emit(page, "%u\n", READ_ONCE(dd->e.hash_shift));
}

/*
 * Resize the back-merge hash under live I/O: allocate outside the lock,
 * move every entry under it, free the old table after.  The elevator core
 * serialises stores (e->sysfs_lock), so two resizes never race.
 */
static ssize_t dlrb_hash_shift_store(struct elevator_queue *eq,
				     const char *page, size_t count)
{
	struct dlrb_data *dd = eq->elevator_data;
	struct hlist_head *table;
	unsigned int noio;
	u32 shift;
	int ret;

	ret = dlrb_parse(page, DLRB_HASH_SHIFT_MIN, DLRB_HASH_SHIFT_MAX, &shift);
	if (ret)
		return ret;
	if (shift == READ_ONCE(dd->e.hash_shift))
		return count;

	/*
	 * No I/O to reclaim memory for the table: the elevator's sysfs_lock
	 * is held, and an elevator switch that waits for it has frozen the
	 * queue (7.2's lockdep: fs_reclaim -> q_usage_counter ->
	 * elevator_lock -> sysfs_lock).
	 */
	noio = memalloc_noio_save();
	table = dlrb_hash_alloc(shift);
	memalloc_noio_restore(noio);
	if (!table)
		return -ENOMEM;
	spin_lock(&dd->lock);
	table = dlrb_hash_swap(&dd->e, table, shift);
	spin_unlock(&dd->lock);
	dlrb_hash_free(table);
	return count;
}

#ifdef DLRB_OWN_ASYNC_DEPTH
/*
 * 1..nr_requests tags; nr_requests, the default, reserves nothing.  A
 * change of nr_requests sets it back to that default.
 */
static ssize_t dlrb_async_depth_show(struct elevator_queue *eq, char *page)
{
	struct dlrb_data *dd = eq->elevator_data;

	return sysfs_emit(page, "%u\n", READ_ONCE(dd->async_depth));
}

static ssize_t dlrb_async_depth_store(struct elevator_queue *eq,
				      const char *page, size_t count)
{
	struct dlrb_data *dd = eq->elevator_data;
	u32 depth;
	int ret;

	ret = dlrb_parse(page, 1, min_t(unsigned long, READ_ONCE(dd->q->nr_requests),
					UINT_MAX), &depth);
	if (ret)
		return ret;
	WRITE_ONCE(dd->async_depth, depth);
	return count;
}
#endif

#define DLRB_ATTR(name) \
	__ATTR(name, 0644, dlrb_##name##_show, dlrb_##name##_store)

static struct elv_fs_entry dlrb_attrs[] = {
	DLRB_ATTR(read_expire),
	DLRB_ATTR(write_expire),
	DLRB_ATTR(writes_starved),
	DLRB_ATTR(fifo_batch),
	DLRB_ATTR(seek_cost),
	DLRB_ATTR(hash_shift),
	DLRB_ATTR(front_merges),
#ifdef DLRB_OWN_ASYNC_DEPTH
	DLRB_ATTR(async_depth),
#endif
	DLRB_ATTR(prio_aging_expire),
	__ATTR_NULL
};

#undef DLRB_ATTR

/*
 * debugfs: /sys/kernel/debug/block/<dev>/sched/
 */
#ifdef CONFIG_BLK_DEBUG_FS
static void dlrb_stat_line(struct seq_file *m, const char *name, u64 r, u64 w)
{
	seq_printf(m, "%-16s %llu %llu\n", name, r, w);
}

static const char *const dlrb_class_names[DLRB_NR_CLASSES] = {
	[DLRB_RT] = "rt",
	[DLRB_BE] = "be",
	[DLRB_IDLE] = "idle",
};

static void dlrb_class_line(struct seq_file *m, enum dlrb_class cls,
			    const char *name, u64 r, u64 w)
{
	char full[24];

	snprintf(full, sizeof(full), "%s_%s", dlrb_class_names[cls], name);
	dlrb_stat_line(m, full, r, w);
}

/*
 * One line per counter: its name, then the read and the write value; the
 * counters of the whole queue, then those of each class (rt_*, be_*,
 * idle_*).
 */
static int dlrb_stats_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct dlrb_data *dd = q->elevator->elevator_data;
	struct dlrb_class_stats cs[DLRB_NR_CLASSES][DLRB_NR_DIRS];
	struct dlrb_stats r, w;
	enum dlrb_class cls;

	spin_lock(&dd->lock);
	r = dd->e.stats[DLRB_READ];
	w = dd->e.stats[DLRB_WRITE];
	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++)
		memcpy(cs[cls], dd->e.prio[cls].stats, sizeof(cs[cls]));
	spin_unlock(&dd->lock);

	dlrb_stat_line(m, "inserted", r.inserted, w.inserted);
	dlrb_stat_line(m, "merged_front", r.merged_front, w.merged_front);
	dlrb_stat_line(m, "merged_back", r.merged_back, w.merged_back);
	dlrb_stat_line(m, "merged_rq", r.merged_rq, w.merged_rq);
	dlrb_stat_line(m, "dispatched", r.dispatched, w.dispatched);
	dlrb_stat_line(m, "expired", r.expired, w.expired);
	dlrb_stat_line(m, "batches", r.batches, w.batches);
	dlrb_stat_line(m, "starved", r.starved, w.starved);
	dlrb_stat_line(m, "unsorted", r.unsorted, w.unsorted);
	dlrb_stat_line(m, "queued", r.queued, w.queued);
	dlrb_stat_line(m, "completed", atomic64_read(&dd->completed[DLRB_READ]),
		       atomic64_read(&dd->completed[DLRB_WRITE]));
	dlrb_stat_line(m, "requeued", atomic64_read(&dd->requeued[DLRB_READ]),
		       atomic64_read(&dd->requeued[DLRB_WRITE]));
	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++) {
		struct dlrb_class_stats *cr = &cs[cls][DLRB_READ];
		struct dlrb_class_stats *cw = &cs[cls][DLRB_WRITE];

		dlrb_class_line(m, cls, "inserted", cr->inserted, cw->inserted);
		dlrb_class_line(m, cls, "dispatched", cr->dispatched, cw->dispatched);
		dlrb_class_line(m, cls, "merged", cr->merged, cw->merged);
		dlrb_class_line(m, cls, "queued", cr->queued, cw->queued);
		dlrb_class_line(m, cls, "aged", cr->aged, cw->aged);
	}
	return 0;
}

static int dlrb_batching_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct dlrb_data *dd = q->elevator->elevator_data;
	enum dlrb_class cls;
	int dir, budget;
	bool aged;

	spin_lock(&dd->lock);
	dir = dd->e.batch_dir;
	budget = dd->e.batch_budget;
	cls = dd->e.batch_class;
	aged = dd->e.batch_aged;
	spin_unlock(&dd->lock);

	if (dir < 0)
		seq_puts(m, "none\n");
	else
		seq_printf(m, "%s %d %s%s\n", dir == DLRB_READ ? "read" : "write", budget,
			   dlrb_class_names[cls], aged ? " aged" : "");
	return 0;
}

static int dlrb_starved_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct dlrb_data *dd = q->elevator->elevator_data;

	/* read batches in a row with writes waiting, per class */
	seq_printf(m, "%u %u %u\n", READ_ONCE(dd->e.prio[DLRB_RT].starved),
		   READ_ONCE(dd->e.prio[DLRB_BE].starved),
		   READ_ONCE(dd->e.prio[DLRB_IDLE].starved));
	return 0;
}

static int dlrb_queued_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct dlrb_data *dd = q->elevator->elevator_data;
	u32 r, w;

	spin_lock(&dd->lock);
	r = dd->e.stats[DLRB_READ].queued;
	w = dd->e.stats[DLRB_WRITE].queued;
	spin_unlock(&dd->lock);

	seq_printf(m, "%u %u\n", r, w);
	return 0;
}

#define DLRB_DEBUGFS_LIST(name, head)					\
static struct list_head *dlrb_##name##_head(struct seq_file *m)		\
{									\
	struct request_queue *q = m->private;				\
	struct dlrb_data *dd = q->elevator->elevator_data;		\
									\
	return &dd->e.head;						\
}									\
static void *dlrb_##name##_start(struct seq_file *m, loff_t *pos)	\
	__acquires(&dd->lock)						\
{									\
	struct request_queue *q = m->private;				\
	struct dlrb_data *dd = q->elevator->elevator_data;		\
									\
	spin_lock(&dd->lock);						\
	return seq_list_start(dlrb_##name##_head(m), *pos);		\
}									\
static void *dlrb_##name##_next(struct seq_file *m, void *v, loff_t *pos) \
{									\
	return seq_list_next(v, dlrb_##name##_head(m), pos);		\
}									\
static void dlrb_##name##_stop(struct seq_file *m, void *v)		\
	__releases(&dd->lock)						\
{									\
	struct request_queue *q = m->private;				\
	struct dlrb_data *dd = q->elevator->elevator_data;		\
									\
	spin_unlock(&dd->lock);						\
}									\
static const struct seq_operations dlrb_##name##_seq_ops = {		\
	.start	= dlrb_##name##_start,					\
	.next	= dlrb_##name##_next,					\
	.stop	= dlrb_##name##_stop,					\
	.show	= blk_mq_debugfs_rq_show,				\
}

DLRB_DEBUGFS_LIST(rt_read_fifo, prio[DLRB_RT].fifo[DLRB_READ]);
DLRB_DEBUGFS_LIST(rt_write_fifo, prio[DLRB_RT].fifo[DLRB_WRITE]);
DLRB_DEBUGFS_LIST(read_fifo, prio[DLRB_BE].fifo[DLRB_READ]);
DLRB_DEBUGFS_LIST(write_fifo, prio[DLRB_BE].fifo[DLRB_WRITE]);
DLRB_DEBUGFS_LIST(idle_read_fifo, prio[DLRB_IDLE].fifo[DLRB_READ]);
DLRB_DEBUGFS_LIST(idle_write_fifo, prio[DLRB_IDLE].fifo[DLRB_WRITE]);
DLRB_DEBUGFS_LIST(dispatch, dispatch);
#undef DLRB_DEBUGFS_LIST

static const struct blk_mq_debugfs_attr dlrb_queue_debugfs_attrs[] = {
	{"stats", 0400, dlrb_stats_show},
	{"queued", 0400, dlrb_queued_show},
	{"batching", 0400, dlrb_batching_show},
	{"starved", 0400, dlrb_starved_show},
	/* best-effort (and no class) as read_ and write_fifo_list */
	{"rt_read_fifo_list", 0400, .seq_ops = &dlrb_rt_read_fifo_seq_ops},
	{"rt_write_fifo_list", 0400, .seq_ops = &dlrb_rt_write_fifo_seq_ops},
	{"read_fifo_list", 0400, .seq_ops = &dlrb_read_fifo_seq_ops},
	{"write_fifo_list", 0400, .seq_ops = &dlrb_write_fifo_seq_ops},
	{"idle_read_fifo_list", 0400, .seq_ops = &dlrb_idle_read_fifo_seq_ops},
	{"idle_write_fifo_list", 0400, .seq_ops = &dlrb_idle_write_fifo_seq_ops},
	{"dispatch", 0400, .seq_ops = &dlrb_dispatch_seq_ops},
	{},
};
#endif /* CONFIG_BLK_DEBUG_FS */

static struct elevator_type dlrb_sched = {
	.ops = {
		.depth_updated		= dlrb_depth_updated,
		.limit_depth		= dlrb_limit_depth,
#ifdef DLRB_OWN_ASYNC_DEPTH
		.init_hctx		= dlrb_init_hctx,
#endif
		.insert_requests	= dlrb_insert_requests,
		.dispatch_request	= dlrb_dispatch_request,
		.prepare_request	= dlrb_prepare_request,
		.finish_request		= dlrb_finish_request,
		.requeue_request	= dlrb_requeue_request,
		.next_request		= elv_rb_latter_request,
		.former_request		= elv_rb_former_request,
		.bio_merge		= dlrb_bio_merge,
		.request_merge		= dlrb_request_merge,
		.request_merged		= dlrb_request_merged,
		.requests_merged	= dlrb_merged_requests,
		.has_work		= dlrb_has_work,
		.init_sched		= dlrb_init_sched,
		.exit_sched		= dlrb_exit_sched,
	},
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = dlrb_queue_debugfs_attrs,
#endif
	.elevator_attrs = dlrb_attrs,
#ifdef ELEVATOR_F_ZBD_SEQ_WRITE
	.elevator_features = ELEVATOR_F_ZBD_SEQ_WRITE,
#endif
	.elevator_name = "deadline-rb",
	.elevator_owner = THIS_MODULE,
};
MODULE_ALIAS("deadline-rb-iosched");

static int __init dlrb_module_init(void)
{
	return elv_register(&dlrb_sched);
}

static void __exit dlrb_module_exit(void)
{
	elv_unregister(&dlrb_sched);
}

module_init(dlrb_module_init);
module_exit(dlrb_module_exit);

MODULE_AUTHOR("deadline-rb developers, after Jens Axboe");
MODULE_LICENSE("GPL");
MODULE_VERSION(DLRB_VERSION);
MODULE_DESCRIPTION("Deadline I/O scheduler with rbtree sort and per-queue tunables");
