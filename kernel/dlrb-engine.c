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

static struct dlrb_prio *dlrb_prio_of(struct dlrb_engine *e, struct request *rq)
{
	return &e->prio[dlrb_rq_class(rq)];
}

static struct dlrb_class_stats *dlrb_cstats(struct dlrb_engine *e,
					    struct request *rq)
{
	return &dlrb_prio_of(e, rq)->stats[dlrb_dir(rq)];
}

/*
 * sort: one rbtree per class and direction, keyed by start sector
 */
static void dlrb_sort_add(struct dlrb_engine *e, struct request *rq)
{
	const enum dlrb_dir dir = dlrb_dir(rq);
	struct rb_root *root = &dlrb_prio_of(e, rq)->sort[dir];
	struct rb_node **p = &root->rb_node, *parent = NULL;
	struct dlrb_prio *pr;
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
	rb_insert_color(&rq->rb_node, root);

	/* An open batch goes on with the lowest request at or after last_end. */
	if (e->batch_dir == dir && e->batch_class == dlrb_rq_class(rq) &&
	    pos >= e->last_end &&
	    (!e->batch_next || pos < blk_rq_pos(e->batch_next)))
		e->batch_next = rq;
	/* So does one put aside, from where it was. */
	pr = dlrb_prio_of(e, rq);
	if (pr->saved_dir == dir && pos >= pr->saved_end &&
	    (!pr->saved_next || pos < blk_rq_pos(pr->saved_next)))
		pr->saved_next = rq;
}

static void dlrb_sort_del(struct dlrb_engine *e, struct request *rq)
{
	struct dlrb_prio *pr = dlrb_prio_of(e, rq);

	if (e->batch_next == rq)
		e->batch_next = dlrb_next(rq);
	if (pr->saved_next == rq)
		pr->saved_next = dlrb_next(rq);
	rb_erase(&rq->rb_node, &pr->sort[dlrb_dir(rq)]);
	RB_CLEAR_NODE(&rq->rb_node);
}

/* The lowest request at or after @pos, wrapping to the lowest of all. */
static struct request *dlrb_sort_ceil(struct rb_root *root, sector_t pos)
{
	struct rb_node *node = root->rb_node;
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
	if (!ceil && !RB_EMPTY_ROOT(root))
		ceil = dlrb_rq_of(rb_first(root));
	return ceil;
}

/* A request of @cls starting exactly at @pos, for a front merge. */
struct request *dlrb_find_front(struct dlrb_engine *e, enum dlrb_class cls,
				enum dlrb_dir dir, sector_t pos)
{
	struct rb_node *node = e->prio[cls].sort[dir].rb_node;

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

/*
 * A request of @cls and @dir ending exactly at @end, for a back merge.  One
 * hash holds every class and both directions: a request of another class
 * or direction ending there is passed over, never merged with, and must
 * not hide one behind it that would merge (a write ending where a read
 * starts).
 */
struct request *dlrb_find_back(struct dlrb_engine *e, enum dlrb_class cls,
			       enum dlrb_dir dir, sector_t end)
{
	struct dlrb_rq *d;

	hlist_for_each_entry(d, dlrb_bucket(e, end), hash) {
		struct request *rq = container_of((void *)d, struct request, elv);

		if (dlrb_end(rq) == end && dlrb_rq_class(rq) == cls &&
		    dlrb_dir(rq) == dir)
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
	enum dlrb_class cls;
	enum dlrb_dir dir;

	e->hash = table;
	e->hash_shift = shift;
	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++) {
		for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
			list_for_each_entry(rq, &e->prio[cls].fifo[dir], queuelist) {
				struct dlrb_rq *d = dlrb_rq(rq);

				if (hlist_unhashed(&d->hash))
					continue;
				hlist_del(&d->hash);
				dlrb_hash_add(e, rq);
			}
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
	dlrb_set_class(rq, DLRB_BE);
	RB_CLEAR_NODE(&rq->rb_node);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_prepare);

/*
 * Put the open batch aside in its class, to go on from where it was when
 * that class is served next (dlrb_open_batch()).
 */
static void dlrb_suspend(struct dlrb_engine *e)
{
	struct dlrb_prio *p = &e->prio[e->batch_class];

	p->saved_dir = e->batch_dir;
	p->saved_budget = e->batch_budget;
	p->saved_next = e->batch_next;
	p->saved_end = e->last_end;
	e->batch_dir = -1;
}

/*
 * Add @rq to the sort and FIFO of its class, stamped @now, and (if
 * @mergeable) to the hash.  A request of a higher class than the open
 * batch's puts that batch aside, unless it serves an aged request: the
 * next dispatch opens one in the higher class.
 */
void dlrb_add(struct dlrb_engine *e, struct request *rq, bool mergeable, u64 now)
{
	const enum dlrb_dir dir = dlrb_dir(rq);
	const enum dlrb_class cls = dlrb_rq_class(rq);
	struct dlrb_rq *d = dlrb_rq(rq);

	if (!(d->flags & DLRB_RQ_COUNTED)) {
		d->flags |= DLRB_RQ_COUNTED;
		e->stats[dir].inserted++;
		e->prio[cls].stats[dir].inserted++;
	}
	e->stats[dir].queued++;
	e->prio[cls].stats[dir].queued++;

	if (e->batch_dir >= 0 && cls < e->batch_class && !e->batch_aged)
		dlrb_suspend(e);
	dlrb_sort_add(e, rq);
	INIT_HLIST_NODE(&d->hash);
	if (mergeable)
		dlrb_hash_add(e, rq);
	rq->fifo_time = now;
	list_add_tail(&rq->queuelist, &e->prio[cls].fifo[dir]);
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
		dlrb_cstats(e, rq)->queued--;
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
	dlrb_cstats(e, rq)->merged++;
	dlrb_sort_del(e, rq);
	dlrb_sort_add(e, rq);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_merged_front);

/* A bio was merged at the back of @rq: its end sector, the hash key, moved. */
void dlrb_merged_back(struct dlrb_engine *e, struct request *rq)
{
	e->stats[dlrb_dir(rq)].merged_back++;
	dlrb_cstats(e, rq)->merged++;
	if (!hlist_unhashed(&dlrb_rq(rq)->hash)) {
		dlrb_hash_del(rq);
		dlrb_hash_add(e, rq);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_merged_back);

/*
 * @next was merged into @rq and is going away.  @rq keeps the earlier of the
 * two deadlines and @next's place in the FIFO if that was earlier.  @next
 * may be a request that was never queued (merged as it was inserted).  The
 * two are of one class: the core merges no two I/O priorities.
 */
void dlrb_requests_merged(struct dlrb_engine *e, struct request *rq,
			  struct request *next)
{
	e->stats[dlrb_dir(next)].merged_rq++;
	dlrb_cstats(e, rq)->merged++;
	if (!list_empty(&rq->queuelist) && !list_empty(&next->queuelist) &&
	    next->fifo_time < rq->fifo_time &&
	    dlrb_rq_class(rq) == dlrb_rq_class(next)) {
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

static bool dlrb_class_sorted(const struct dlrb_engine *e, enum dlrb_class cls)
{
	return !RB_EMPTY_ROOT(&e->prio[cls].sort[DLRB_READ]) ||
	       !RB_EMPTY_ROOT(&e->prio[cls].sort[DLRB_WRITE]);
}

/*
 * Pick the direction of a new batch in @cls: reads while any are queued,
 * unless writes wait too and reads have had writes_starved batches in a
 * row.
 */
static int dlrb_pick_dir(struct dlrb_engine *e, enum dlrb_class cls)
{
	struct dlrb_prio *p = &e->prio[cls];
	const bool reads = !RB_EMPTY_ROOT(&p->sort[DLRB_READ]);
	const bool writes = !RB_EMPTY_ROOT(&p->sort[DLRB_WRITE]);

	if (reads) {
		if (!writes)
			return DLRB_READ;
		if (p->starved < e->writes_starved) {
			p->starved++;
			return DLRB_READ;
		}
		e->stats[DLRB_WRITE].starved++;
	} else if (!writes) {
		return -1;
	}
	p->starved = 0;
	return DLRB_WRITE;
}

/*
 * Where a batch in @cls and @dir starts: at the FIFO head if its deadline
 * has passed, else at the first request at or after the last dispatched
 * sector, wrapping around.  Where a zone is write-locked, the oldest or
 * the next in sector order that may go; NULL if none may.
 */
static struct request *dlrb_batch_start(struct dlrb_engine *e, enum dlrb_class cls,
					enum dlrb_dir dir, u64 now)
{
	struct dlrb_prio *p = &e->prio[cls];
	struct request *rq;

	rq = list_first_entry(&p->fifo[dir], struct request, queuelist);
	if (now >= dlrb_deadline(e, rq)) {
		if (!e->may_go)
			return rq;
		list_for_each_entry(rq, &p->fifo[dir], queuelist)
			if (e->may_go(rq))
				return rq;
		return NULL;
	}
	rq = dlrb_first_may_go(e, dlrb_sort_ceil(&p->sort[dir], e->last_end));
	if (!rq && e->may_go)
		rq = dlrb_first_may_go(e, dlrb_rq_of(rb_first(&p->sort[dir])));
	return rq;
}

/*
 * Since when class @cls has waited: since it was last served or since its
 * oldest request came, whichever is later.  Not how old that request is:
 * one that waits behind others of its own class waits for its class's
 * batches, which read_expire and write_expire govern, not for a higher
 * class.  @oldest is set to that request, or NULL (then U64_MAX).
 */
static u64 dlrb_class_waits_since(struct dlrb_engine *e, enum dlrb_class cls,
				  struct request **oldest)
{
	struct dlrb_prio *p = &e->prio[cls];
	struct request *rq;
	enum dlrb_dir dir;

	*oldest = NULL;
	for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
		rq = list_first_entry_or_null(&p->fifo[dir], struct request, queuelist);
		if (rq && (!*oldest || rq->fifo_time < (*oldest)->fifo_time))
			*oldest = rq;
	}
	if (!*oldest)
		return U64_MAX;
	return max(p->last_served, (*oldest)->fifo_time);
}

/*
 * Of class @from and those below, the oldest request of the class that
 * has waited longest, if that is prio_aging_expire or more and the request
 * may go; else NULL.  Nothing changes.
 */
static struct request *dlrb_aged_from(struct dlrb_engine *e,
				      enum dlrb_class from, u64 now)
{
	struct request *first = NULL, *rq;
	u64 since = U64_MAX, t;
	enum dlrb_class cls;

	for (cls = from; cls < DLRB_NR_CLASSES; cls++) {
		t = dlrb_class_waits_since(e, cls, &rq);
		if (t < since) {
			since = t;
			first = rq;
		}
	}
	if (!first || now < since + (u64)e->prio_aging_expire_ms * NSEC_PER_MSEC ||
	    !dlrb_may_go(e, first))
		return NULL;
	return first;
}

/*
 * Whether a real-time or best-effort request is with the driver: then an
 * idle one waits, unless aged, as in mq-deadline.  On a disk of many tags
 * it would otherwise be served beside them, and on one of a single tag it
 * would be the request that the block layer holds for the driver next.
 */
static bool dlrb_idle_held(struct dlrb_engine *e)
{
	return atomic_read(&e->owned[DLRB_RT]) || atomic_read(&e->owned[DLRB_BE]);
}

/*
 * Take up again the batch of @cls that a higher class put aside, and
 * return where it goes on; NULL if there is none, or nothing further up
 * that may go.
 */
static struct request *dlrb_resume(struct dlrb_engine *e, enum dlrb_class cls)
{
	struct dlrb_prio *p = &e->prio[cls];
	struct request *rq;

	if (p->saved_dir < 0)
		return NULL;
	rq = dlrb_first_may_go(e, p->saved_next);
	if (rq) {
		e->batch_class = cls;
		e->batch_dir = p->saved_dir;
		e->batch_budget = p->saved_budget;
	}
	p->saved_dir = -1;
	return rq;
}

/*
 * Open a batch and return its first request, or NULL when nothing may go:
 * nothing is queued, every queued request is a write to a locked zone, or
 * only idle requests are queued and a request of another class is with
 * the driver (dlrb_completed() lifts that).
 *
 * The batch is in the highest class with requests queued, where a batch
 * that a higher class put aside goes on; but for one that starts at a
 * lower class's oldest request when that class has waited
 * prio_aging_expire (dlrb_class_waits_since()).  The batch after such an
 * aged batch goes to the highest class again, so aging takes at most every
 * other batch: under an overload of every class the highest still gets
 * half of the batches or more.
 *
 * When every request of the direction picked waits on a locked zone, the
 * other direction gets the batch, then the next class, rather than the
 * disk idling.
 */
static struct request *dlrb_open_batch(struct dlrb_engine *e, u64 now)
{
	struct request *first = NULL;
	enum dlrb_class cls;
	int dir = -1;

	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++)
		if (dlrb_class_sorted(e, cls))
			break;
	if (cls == DLRB_NR_CLASSES)
		return NULL;

	if (!e->batch_aged)
		first = dlrb_aged_from(e, cls + 1, now);
	e->batch_aged = !!first;
	if (first) {
		cls = dlrb_rq_class(first);
		dir = dlrb_dir(first);
		e->prio[cls].saved_dir = -1;	/* the aged batch replaces it */
	}
	for (; !first && cls < DLRB_NR_CLASSES; cls++) {
		if (cls == DLRB_IDLE && dlrb_idle_held(e)) {
			first = dlrb_aged_from(e, DLRB_IDLE, now);
			if (!first)
				break;
			e->batch_aged = true;
			e->prio[cls].saved_dir = -1;
			dir = dlrb_dir(first);
			break;
		}
		first = dlrb_resume(e, cls);
		if (first)
			return first;
		dir = dlrb_pick_dir(e, cls);
		if (dir < 0)
			continue;
		first = dlrb_batch_start(e, cls, dir, now);
		if (!first && !RB_EMPTY_ROOT(&e->prio[cls].sort[!dir])) {
			dir = !dir;
			first = dlrb_batch_start(e, cls, dir, now);
		}
		if (first)
			break;
	}
	if (!first)
		return NULL;

	e->batch_class = cls;
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
 * spent, its class and direction have nothing further up that may go, or
 * a request of a higher class arrives, unless the batch is an aged one
 * (dlrb_add()): then it is put aside, to go on later.
 */
struct request *dlrb_dispatch(struct dlrb_engine *e, u64 now)
{
	struct dlrb_class_stats *cs;
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
	cs = dlrb_cstats(e, rq);
	cs->dispatched++;
	if (e->batch_aged)
		cs->aged++;
	dlrb_prio_of(e, rq)->last_served = now;
	dlrb_rq(rq)->flags |= DLRB_RQ_OWNED;
	atomic_inc(&e->owned[dlrb_rq_class(rq)]);

	e->batch_next = rq;
	dlrb_remove(e, rq);	/* moves batch_next on to rq's successor */
	e->last_end = dlrb_end(rq);
	e->batch_budget -= cost;
	if (e->batch_budget <= 0 || !e->batch_next)
		e->batch_dir = -1;
	return rq;
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_dispatch);

/*
 * @rq, given out by dlrb_dispatch() or not, is done with (completed, or
 * freed unstarted).  No lock needed: the request is the caller's alone.
 * True when it was a real-time or best-effort request and idle requests
 * are queued with none of those left with the driver: the caller should
 * run the queue.  A hint, read without the lock; should it miss, blk-mq
 * retries a dispatch that gave nothing while there was work, 3 ms later.
 */
bool dlrb_completed(struct dlrb_engine *e, struct request *rq)
{
	struct dlrb_rq *d = dlrb_rq(rq);
	enum dlrb_class cls = dlrb_rq_class(rq);

	if (!(d->flags & DLRB_RQ_OWNED))
		return false;
	d->flags &= ~DLRB_RQ_OWNED;
	/* ordered: the reads below see what the other side wrote first */
	if (atomic_dec_return(&e->owned[cls]))
		return false;
	return cls != DLRB_IDLE && !dlrb_idle_held(e) &&
	       (!list_empty_careful(&e->prio[DLRB_IDLE].fifo[DLRB_READ]) ||
		!list_empty_careful(&e->prio[DLRB_IDLE].fifo[DLRB_WRITE]));
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_completed);

/*
 * Whether any request waits in a sort; without the lock, a hint.  Two
 * counts rather than six lists: blk-mq asks this several times an I/O.
 */
bool dlrb_has_sorted(const struct dlrb_engine *e)
{
	return READ_ONCE(e->stats[DLRB_READ].queued) ||
	       READ_ONCE(e->stats[DLRB_WRITE].queued);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_has_sorted);

bool dlrb_empty(const struct dlrb_engine *e)
{
	return list_empty(&e->dispatch) && !dlrb_has_sorted(e);
}
EXPORT_SYMBOL_IF_KUNIT(dlrb_empty);

/*
 * setup
 */
int dlrb_init(struct dlrb_engine *e)
{
	enum dlrb_class cls;
	enum dlrb_dir dir;

	memset(e, 0, sizeof(*e));
	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++) {
		for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
			e->prio[cls].sort[dir] = RB_ROOT;
			INIT_LIST_HEAD(&e->prio[cls].fifo[dir]);
		}
		e->prio[cls].saved_dir = -1;
	}
	INIT_LIST_HEAD(&e->dispatch);
	e->batch_dir = -1;
	e->expire_ms[DLRB_READ] = DLRB_READ_EXPIRE_MS;
	e->expire_ms[DLRB_WRITE] = DLRB_WRITE_EXPIRE_MS;
	e->writes_starved = DLRB_WRITES_STARVED;
	e->fifo_batch = DLRB_FIFO_BATCH;
	e->seek_cost = DLRB_SEEK_COST;
	e->front_merges = 1;
	e->prio_aging_expire_ms = DLRB_PRIO_AGING_EXPIRE_MS;
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
