// SPDX-License-Identifier: GPL-2.0
/*
 * deadline-rb engine: sort, FIFOs, back-merge hash, batches, starvation.
 *
 * Descends from Jens Axboe's 2002 "deadline-ioscheduler rb-tree sort": the
 * per-direction sort list is a red-black tree keyed by start sector, so that
 * an insert costs O(log N) rather than the O(N) scan of the list it
 * replaced.  Nothing here calls into blk-mq; see dlrb-engine.h.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "dlrb-engine.h"

#define dlrb_rq_of(node)	rb_entry((node), struct request, rb_node)

static struct request *dlrb_next(struct request *rq)
{
	struct rb_node *node = rb_next(&rq->rb_node);

	return node ? dlrb_rq_of(node) : NULL;
}

/*
 * sort: one rbtree per direction, keyed by start sector
 */
static void dlrb_sort_add(struct dlrb_engine *e, struct request *rq)
{
	const enum dlrb_dir dir = dlrb_dir(rq);
	struct rb_node **p = &e->sort[dir].rb_node, *parent = NULL;
	const sector_t pos = blk_rq_pos(rq);

	/* Equal keys go right, so requests at one sector leave in order. */
	while (*p) {
		parent = *p;
		if (pos < blk_rq_pos(dlrb_rq_of(parent)))
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&rq->rb_node, parent, p);
	rb_insert_color(&rq->rb_node, &e->sort[dir]);

	/* An open batch goes on with the lowest request at or after last_end. */
	if (e->batch_dir == dir && pos >= e->last_end &&
	    (!e->batch_next || pos < blk_rq_pos(e->batch_next)))
		e->batch_next = rq;
}

static void dlrb_sort_del(struct dlrb_engine *e, struct request *rq)
{
	if (e->batch_next == rq)
		e->batch_next = dlrb_next(rq);
	rb_erase(&rq->rb_node, &e->sort[dlrb_dir(rq)]);
	RB_CLEAR_NODE(&rq->rb_node);
}

/* The lowest request at or after @pos, wrapping to the lowest of all. */
static struct request *dlrb_sort_ceil(struct dlrb_engine *e, enum dlrb_dir dir,
				      sector_t pos)
{
	struct rb_node *node = e->sort[dir].rb_node;
	struct request *ceil = NULL;

	while (node) {
		struct request *rq = dlrb_rq_of(node);

		if (blk_rq_pos(rq) >= pos) {
			ceil = rq;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	if (!ceil && !RB_EMPTY_ROOT(&e->sort[dir]))
		ceil = dlrb_rq_of(rb_first(&e->sort[dir]));
	return ceil;
}

/* A request starting exactly at @pos, for a front merge. */
struct request *dlrb_find_front(struct dlrb_engine *e, enum dlrb_dir dir,
				sector_t pos)
{
	struct rb_node *node = e->sort[dir].rb_node;

	while (node) {
		struct request *rq = dlrb_rq_of(node);

		if (pos < blk_rq_pos(rq))
			node = node->rb_left;
		else if (pos > blk_rq_pos(rq))
			node = node->rb_right;
		else
			return rq;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_find_front);

/*
 * back-merge hash: 1 << hash_shift buckets keyed by end sector
 */
static struct hlist_head *dlrb_bucket(struct dlrb_engine *e, sector_t end)
{
	return &e->hash[hash_64(end, e->hash_shift)];
}

static void dlrb_hash_add(struct dlrb_engine *e, struct request *rq)
{
	hlist_add_head(&dlrb_rq(rq)->hash, dlrb_bucket(e, dlrb_end(rq)));
}

void dlrb_hash_del(struct request *rq)
{
	hlist_del_init(&dlrb_rq(rq)->hash);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_hash_del);

/* A request ending exactly at @end, for a back merge. */
struct request *dlrb_find_back(struct dlrb_engine *e, sector_t end)
{
	struct dlrb_rq *d;

	hlist_for_each_entry(d, dlrb_bucket(e, end), hash) {
		struct request *rq = container_of((void *)d, struct request, elv);

		if (dlrb_end(rq) == end)
			return rq;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_find_back);

struct hlist_head *dlrb_hash_alloc(u32 shift)
{
	/* hlist heads start out NULL: zeroed memory is an empty table */
	return kvcalloc(1UL << shift, sizeof(struct hlist_head), GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_hash_alloc);

void dlrb_hash_free(struct hlist_head *table)
{
	kvfree(table);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_hash_free);

/*
 * Move every live entry into @table of 1 << @shift buckets and return the
 * old table for the caller to free outside its lock.  Every hashed request
 * is on a FIFO, so walking the FIFOs costs the queued requests, not the
 * buckets (a million of them at hash_shift 20, under the caller's lock).
 * Each entry leaves the old chain before it joins the new one, so the old
 * chains stay whole for the entries still on them.
 */
struct hlist_head *dlrb_hash_swap(struct dlrb_engine *e, struct hlist_head *table,
				  u32 shift)
{
	struct hlist_head *old = e->hash;
	struct request *rq;
	enum dlrb_dir dir;

	e->hash = table;
	e->hash_shift = shift;
	for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
		list_for_each_entry(rq, &e->fifo[dir], queuelist) {
			struct dlrb_rq *d = dlrb_rq(rq);

			if (hlist_unhashed(&d->hash))
				continue;
			hlist_del(&d->hash);
			dlrb_hash_add(e, rq);
		}
	}
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_hash_swap);

/*
 * life cycle of a request
 */
void dlrb_prepare(struct request *rq)
{
	INIT_HLIST_NODE(&dlrb_rq(rq)->hash);
	dlrb_rq(rq)->flags = 0;
	RB_CLEAR_NODE(&rq->rb_node);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_prepare);

/* Add @rq to the sort, its FIFO stamped @now, and (if @mergeable) the hash. */
void dlrb_add(struct dlrb_engine *e, struct request *rq, bool mergeable, u64 now)
{
	const enum dlrb_dir dir = dlrb_dir(rq);
	struct dlrb_rq *d = dlrb_rq(rq);

	if (!(d->flags & DLRB_RQ_COUNTED)) {
		d->flags |= DLRB_RQ_COUNTED;
		e->stats[dir].inserted++;
	}
	e->stats[dir].queued++;

	dlrb_sort_add(e, rq);
	INIT_HLIST_NODE(&d->hash);
	if (mergeable)
		dlrb_hash_add(e, rq);
	rq->fifo_time = now;
	list_add_tail(&rq->queuelist, &e->fifo[dir]);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_add);

/*
 * Requests outside the sort (passthrough, at-head, requeued): served first,
 * in the order of @list, ahead of the dispatch list or behind it.  @list is
 * left empty.
 */
void dlrb_add_dispatch(struct dlrb_engine *e, struct list_head *list, bool at_head)
{
	struct request *rq;

	list_for_each_entry(rq, list, queuelist) {
		INIT_HLIST_NODE(&dlrb_rq(rq)->hash);
		RB_CLEAR_NODE(&rq->rb_node);
		e->stats[dlrb_dir(rq)].unsorted++;
	}
	if (at_head)
		list_splice_init(list, &e->dispatch);
	else
		list_splice_tail_init(list, &e->dispatch);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_add_dispatch);

/* Take @rq off the sort, its FIFO and the hash. */
void dlrb_remove(struct dlrb_engine *e, struct request *rq)
{
	list_del_init(&rq->queuelist);
	dlrb_hash_del(rq);
	if (!RB_EMPTY_NODE(&rq->rb_node)) {
		dlrb_sort_del(e, rq);
		e->stats[dlrb_dir(rq)].queued--;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_remove);

/*
 * merges
 */

/* A bio was merged in front of @rq: its start sector, the sort key, moved. */
void dlrb_merged_front(struct dlrb_engine *e, struct request *rq)
{
	e->stats[dlrb_dir(rq)].merged_front++;
	dlrb_sort_del(e, rq);
	dlrb_sort_add(e, rq);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_merged_front);

/* A bio was merged at the back of @rq: its end sector, the hash key, moved. */
void dlrb_merged_back(struct dlrb_engine *e, struct request *rq)
{
	e->stats[dlrb_dir(rq)].merged_back++;
	if (!hlist_unhashed(&dlrb_rq(rq)->hash)) {
		dlrb_hash_del(rq);
		dlrb_hash_add(e, rq);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_merged_back);

/*
 * @next was merged into @rq and is going away.  @rq keeps the earlier of the
 * two deadlines and @next's place in the FIFO if that was earlier.  @next
 * may be a request that was never queued (merged as it was inserted).
 */
void dlrb_requests_merged(struct dlrb_engine *e, struct request *rq,
			  struct request *next)
{
	e->stats[dlrb_dir(next)].merged_rq++;
	if (!list_empty(&rq->queuelist) && !list_empty(&next->queuelist) &&
	    next->fifo_time < rq->fifo_time) {
		list_move(&rq->queuelist, &next->queuelist);
		rq->fifo_time = next->fifo_time;
	}
	dlrb_remove(e, next);
	if (!hlist_unhashed(&dlrb_rq(rq)->hash)) {
		dlrb_hash_del(rq);
		dlrb_hash_add(e, rq);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_requests_merged);

/*
 * dispatch
 */

/* May @rq be dispatched now?  Always, but where a zone is write-locked. */
static bool dlrb_may_go(const struct dlrb_engine *e, struct request *rq)
{
	return !e->may_go || e->may_go(rq);
}

/* The first request from @rq on, in sector order, that may go now. */
static struct request *dlrb_first_may_go(struct dlrb_engine *e,
					 struct request *rq)
{
	while (rq && !dlrb_may_go(e, rq))
		rq = dlrb_next(rq);
	return rq;
}

/*
 * Pick the direction of a new batch: reads while any are queued, unless
 * writes wait too and reads have had writes_starved batches in a row.
 */
static int dlrb_pick_dir(struct dlrb_engine *e)
{
	const bool reads = !RB_EMPTY_ROOT(&e->sort[DLRB_READ]);
	const bool writes = !RB_EMPTY_ROOT(&e->sort[DLRB_WRITE]);

	if (reads) {
		if (!writes)
			return DLRB_READ;
		if (e->starved < e->writes_starved) {
			e->starved++;
			return DLRB_READ;
		}
		e->stats[DLRB_WRITE].starved++;
	} else if (!writes) {
		return -1;
	}
	e->starved = 0;
	return DLRB_WRITE;
}

/*
 * Where a batch in @dir starts: at the FIFO head if its deadline has
 * passed, else at the first request at or after the last dispatched
 * sector, wrapping around.  Where a zone is write-locked, the oldest or
 * the next in sector order that may go; NULL if none may.
 */
static struct request *dlrb_batch_start(struct dlrb_engine *e, enum dlrb_dir dir,
					u64 now)
{
	struct request *rq;

	rq = list_first_entry(&e->fifo[dir], struct request, queuelist);
	if (now >= dlrb_deadline(e, rq)) {
		if (!e->may_go)
			return rq;
		list_for_each_entry(rq, &e->fifo[dir], queuelist)
			if (e->may_go(rq))
				return rq;
		return NULL;
	}
	rq = dlrb_first_may_go(e, dlrb_sort_ceil(e, dir, e->last_end));
	if (!rq && e->may_go)
		rq = dlrb_first_may_go(e, dlrb_rq_of(rb_first(&e->sort[dir])));
	return rq;
}

/*
 * Open a batch and return its first request, or NULL when nothing may go:
 * nothing is queued, or every queued request is a write to a locked zone.
 * When every request of the direction picked waits on a locked zone, the
 * other direction gets the batch rather than the disk idling.
 */
static struct request *dlrb_open_batch(struct dlrb_engine *e, u64 now)
{
	int dir = dlrb_pick_dir(e);
	struct request *first;

	if (dir < 0)
		return NULL;
	first = dlrb_batch_start(e, dir, now);
	if (!first && !RB_EMPTY_ROOT(&e->sort[!dir])) {
		dir = !dir;
		first = dlrb_batch_start(e, dir, now);
	}
	if (!first)
		return NULL;

	e->batch_dir = dir;
	e->batch_budget = e->fifo_batch;
	e->stats[dir].batches++;
	return first;
}

/*
 * The next request for the driver, or NULL when there is none (or, on a
 * zoned disk, when every queued request is a write to a locked zone).  A
 * request that starts where the previous one ended costs one unit per 256
 * sectors, and at least one (a zone reset or an empty flush has none); any
 * other costs seek_cost.  The batch closes when its fifo_batch units are
 * spent or its direction has nothing further up that may go.
 */
struct request *dlrb_dispatch(struct dlrb_engine *e, u64 now)
{
	struct request *rq = NULL;
	enum dlrb_dir dir;
	int cost;

	rq = list_first_entry_or_null(&e->dispatch, struct request, queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		return rq;
	}

	if (e->batch_dir >= 0)
		rq = dlrb_first_may_go(e, e->batch_next);
	if (!rq) {
		e->batch_dir = -1;
		rq = dlrb_open_batch(e, now);
		if (!rq)
			return NULL;
	}

	dir = dlrb_dir(rq);
	if (blk_rq_pos(rq) == e->last_end)
		cost = max(1U, DIV_ROUND_UP(blk_rq_sectors(rq), DLRB_SECTORS_PER_UNIT));
	else
		cost = e->seek_cost;

	e->stats[dir].dispatched++;
	if (now >= dlrb_deadline(e, rq))
		e->stats[dir].expired++;

	e->batch_next = rq;
	dlrb_remove(e, rq);	/* moves batch_next on to rq's successor */
	e->last_end = dlrb_end(rq);
	e->batch_budget -= cost;
	if (e->batch_budget <= 0 || !e->batch_next)
		e->batch_dir = -1;
	return rq;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_dispatch);

bool dlrb_empty(const struct dlrb_engine *e)
{
	return list_empty(&e->dispatch) &&
	       RB_EMPTY_ROOT(&e->sort[DLRB_READ]) &&
	       RB_EMPTY_ROOT(&e->sort[DLRB_WRITE]);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_empty);

/*
 * setup
 */
int dlrb_init(struct dlrb_engine *e)
{
	enum dlrb_dir dir;

	memset(e, 0, sizeof(*e));
	for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
		e->sort[dir] = RB_ROOT;
		INIT_LIST_HEAD(&e->fifo[dir]);
	}
	INIT_LIST_HEAD(&e->dispatch);
	e->batch_dir = -1;
	e->expire_ms[DLRB_READ] = DLRB_READ_EXPIRE_MS;
	e->expire_ms[DLRB_WRITE] = DLRB_WRITE_EXPIRE_MS;
	e->writes_starved = DLRB_WRITES_STARVED;
	e->fifo_batch = DLRB_FIFO_BATCH;
	e->seek_cost = DLRB_SEEK_COST;
	e->front_merges = 1;
	e->hash_shift = DLRB_HASH_SHIFT;
	e->hash = dlrb_hash_alloc(e->hash_shift);
	return e->hash ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_init);

void dlrb_exit(struct dlrb_engine *e)
{
	dlrb_hash_free(e->hash);
	e->hash = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_exit);
