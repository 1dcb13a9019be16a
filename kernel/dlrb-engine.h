/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deadline-rb engine: the scheduling policy of the deadline-rb I/O
 * scheduler, free of blk-mq calls so that it can be unit-tested with KUnit
 * and compiled and benchmarked on the host against tools/lib/rbtree.c.
 *
 * Requests are present on both sort[] and fifo[] of their I/O priority
 * class and direction, and on the back-merge hash while mergeable, from
 * dlrb_add() until dlrb_remove(); requests on the dispatch list are on
 * nothing else.  The caller serialises all calls on one engine (the glue
 * holds its spinlock) but dlrb_completed(), which needs no lock, and
 * dlrb_has_sorted() and dlrb_empty(), which without it are hints.  Time
 * is a number passed in by the caller, in nanoseconds.
 *
 * rq->fifo_time holds the time a request was added, not its deadline: the
 * deadline is that plus the direction's expire as it is now, so a lowered
 * read_expire applies to requests already queued, and since one direction
 * shares one expire, each FIFO stays ordered by deadline.
 */
#ifndef _DLRB_ENGINE_H
#define _DLRB_ENGINE_H

#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

enum dlrb_dir {
	DLRB_READ,
	DLRB_WRITE,
	DLRB_NR_DIRS,
};

/* I/O priority classes, highest first; a request of no class is BE. */
enum dlrb_class {
	DLRB_RT,
	DLRB_BE,
	DLRB_IDLE,
	DLRB_NR_CLASSES,
};

/* Tunables: defaults and accepted ranges (DESIGN.md §3.3). */
#define DLRB_READ_EXPIRE_MS	500	/* a read should start within this */
#define DLRB_WRITE_EXPIRE_MS	5000	/* a write should start within this */
#define DLRB_EXPIRE_MIN_MS	1
#define DLRB_EXPIRE_MAX_MS	600000
#define DLRB_WRITES_STARVED	2	/* read batches while writes wait */
#define DLRB_WRITES_STARVED_MAX	1000
/*
 * A batch of 16 seeks or 8 MiB in a row, as mq-deadline's 16 requests of
 * up to 512 KiB; a seek costs as long as 512 KiB of transfer, about 8 ms
 * on a 7200 rpm disk serving a sorted queue.  Measured on the seek-modelled
 * disk (tests/hdd); the seed's 32 and 16 allowed two seeks a batch.
 */
#define DLRB_FIFO_BATCH		64	/* cost units per batch */
#define DLRB_SEEK_COST		4	/* cost units of a seek in a batch */
#define DLRB_COST_MIN		1
#define DLRB_COST_MAX		65536
#define DLRB_HASH_SHIFT		10	/* log2 of back-merge hash buckets */
#define DLRB_HASH_SHIFT_MIN	4
#define DLRB_HASH_SHIFT_MAX	20
/* a lower class waits at most this long before it goes first */
#define DLRB_PRIO_AGING_EXPIRE_MS	10000	/* mq-deadline's */

/* A contiguous request costs one unit per this many sectors, rounded up. */
#define DLRB_SECTORS_PER_UNIT	256

/* Counters, per direction; read under the caller's lock. */
struct dlrb_stats {
	u64 inserted;		/* requests added to the sort */
	u64 merged_front;	/* bios merged in front of a request */
	u64 merged_back;	/* bios merged at the back of a request */
	u64 merged_rq;		/* requests merged into another request */
	u64 dispatched;		/* requests handed to the driver */
	u64 expired;		/* ... of which past their deadline */
	u64 batches;		/* batches started */
	u64 starved;		/* write batches forced by writes_starved */
	u64 unsorted;		/* requests put on the dispatch list */
	u32 queued;		/* requests in the sort now */
};

/* Counters, per class and direction; read under the caller's lock. */
struct dlrb_class_stats {
	u64 inserted;		/* requests added to the sort */
	u64 merged;		/* bios and requests merged into its requests */
	u64 dispatched;		/* requests handed to the driver */
	u64 aged;		/* ... of which in a batch opened by aging */
	u32 queued;		/* requests in the sort now */
};

/* One I/O priority class: its own sort, FIFOs and writes_starved count. */
struct dlrb_prio {
	struct rb_root sort[DLRB_NR_DIRS];	/* by start sector */
	struct list_head fifo[DLRB_NR_DIRS];	/* by deadline */
	unsigned int starved;		/* read batches in a row, writes waiting */
	u64 last_served;		/* when a request of it was dispatched */
	/* its batch, put aside when a higher class came: as in the engine */
	int saved_dir;			/* -1: none */
	int saved_budget;
	struct request *saved_next;
	sector_t saved_end;
	struct dlrb_class_stats stats[DLRB_NR_DIRS];
};

/*
 * What the engine keeps in the three pointers struct request reserves for
 * I/O schedulers (rq->elv; in 6.1 the core never reads them, and only bfq
 * uses elv.icq).  The back-merge hash links through here, not through
 * rq->hash: the elevator core moves rq->hash into its own fixed 64-bucket
 * table after every back merge (elv_rqhash_reposition()), which would steal
 * entries from ours.
 */
struct dlrb_rq {
	struct hlist_node hash;	/* back-merge hash, keyed by end sector */
	unsigned long flags;	/* DLRB_RQ_* */
};

#define DLRB_RQ_COUNTED	BIT(0)	/* counted in stats.inserted */
#define DLRB_RQ_CLASS_SHIFT	1	/* bits 1-2: its enum dlrb_class */
#define DLRB_RQ_CLASS	(3UL << DLRB_RQ_CLASS_SHIFT)
#define DLRB_RQ_OWNED	BIT(3)	/* dispatched from the sort, not completed */

static inline struct dlrb_rq *dlrb_rq(struct request *rq)
{
	BUILD_BUG_ON(sizeof(struct dlrb_rq) > sizeof(rq->elv));
	return (struct dlrb_rq *)&rq->elv;
}

struct dlrb_engine {
	/*
	 * run time data
	 */
	struct dlrb_prio prio[DLRB_NR_CLASSES];
	struct list_head dispatch;	/* served first, in order */
	struct hlist_head *hash;	/* 1 << hash_shift buckets */

	int batch_dir;			/* direction of the open batch, or -1 */
	enum dlrb_class batch_class;	/* class of the open batch */
	bool batch_aged;		/* it (or the last) served an aged request */
	int batch_budget;		/* cost units left in the open batch */
	struct request *batch_next;	/* where the open batch goes on */
	sector_t last_end;		/* sector after the last dispatched */

	struct dlrb_stats stats[DLRB_NR_DIRS];
	/* per class: dispatched from the sort, not completed (no lock) */
	atomic_t owned[DLRB_NR_CLASSES];

	/*
	 * settings that change how the i/o scheduler behaves
	 */
	u32 expire_ms[DLRB_NR_DIRS];
	u32 writes_starved;
	u32 fifo_batch;
	u32 seek_cost;
	u32 hash_shift;
	u32 front_merges;		/* 0 or 1 */
	u32 prio_aging_expire_ms;
	/* NULL, or whether a request may go now (zone write locking) */
	bool (*may_go)(struct request *rq);
};

static inline enum dlrb_dir dlrb_dir(struct request *rq)
{
	return rq_data_dir(rq) == WRITE ? DLRB_WRITE : DLRB_READ;
}

static inline enum dlrb_class dlrb_rq_class(struct request *rq)
{
	return (dlrb_rq(rq)->flags & DLRB_RQ_CLASS) >> DLRB_RQ_CLASS_SHIFT;
}

/* Before dlrb_add(); dlrb_prepare() makes a request best-effort. */
static inline void dlrb_set_class(struct request *rq, enum dlrb_class cls)
{
	dlrb_rq(rq)->flags &= ~DLRB_RQ_CLASS;
	dlrb_rq(rq)->flags |= (unsigned long)cls << DLRB_RQ_CLASS_SHIFT;
}

static inline sector_t dlrb_end(struct request *rq)
{
	return blk_rq_pos(rq) + blk_rq_sectors(rq);
}

/* When @rq should start: added at fifo_time, expire_ms[] as it is now. */
static inline u64 dlrb_deadline(const struct dlrb_engine *e, struct request *rq)
{
	return rq->fifo_time + (u64)e->expire_ms[dlrb_dir(rq)] * NSEC_PER_MSEC;
}

int dlrb_init(struct dlrb_engine *e);
void dlrb_exit(struct dlrb_engine *e);
bool dlrb_empty(const struct dlrb_engine *e);
bool dlrb_has_sorted(const struct dlrb_engine *e);

void dlrb_prepare(struct request *rq);
void dlrb_add(struct dlrb_engine *e, struct request *rq, bool mergeable, u64 now);
void dlrb_add_dispatch(struct dlrb_engine *e, struct list_head *list, bool at_head);
void dlrb_remove(struct dlrb_engine *e, struct request *rq);
struct request *dlrb_dispatch(struct dlrb_engine *e, u64 now);
bool dlrb_completed(struct dlrb_engine *e, struct request *rq);

struct request *dlrb_find_back(struct dlrb_engine *e, enum dlrb_class cls,
			       enum dlrb_dir dir, sector_t end);
struct request *dlrb_find_front(struct dlrb_engine *e, enum dlrb_class cls,
				enum dlrb_dir dir, sector_t pos);
void dlrb_hash_del(struct request *rq);
void dlrb_merged_front(struct dlrb_engine *e, struct request *rq);
void dlrb_merged_back(struct dlrb_engine *e, struct request *rq);
void dlrb_requests_merged(struct dlrb_engine *e, struct request *rq,
			  struct request *next);

struct hlist_head *dlrb_hash_alloc(u32 shift);
struct hlist_head *dlrb_hash_swap(struct dlrb_engine *e, struct hlist_head *table,
				  u32 shift);
void dlrb_hash_free(struct hlist_head *table);

#endif /* _DLRB_ENGINE_H */
