// SPDX-License-Identifier: GPL-2.0
/*
 * The yardstick for the engine benchmark: the sort of the 2.5.45 deadline
 * scheduler that Jens Axboe's rbtree patch replaced (../../../../shared/seeds/),
 * reproduced faithfully: one list per direction in elevator order, a
 * back-merge hash, and an insertion point found by scanning the list from
 * its back with bio_rq_in_between() (2.5.45 drivers/block/elevator.c),
 * checking each request for a front merge on the way.  Only the parts that
 * the benchmark exercises: merge lookup, insert, dispatch in sort order
 * with FIFO expiry.
 */
#include <linux/blk-mq.h>
#include <linux/hash.h>
#include <linux/list.h>

#include "list-sched.h"

#define list_entry_rq(ptr)	list_entry((ptr), struct request, queuelist)
static inline struct lrq *lrq(struct request *rq)
{
	return container_of(rq, struct lrq, rq);
}

static inline struct request *lrq_rq(struct lrq *l)
{
	return &l->rq;
}

static struct list_head sort_list[2], fifo_list[2];
static struct hlist_head *hash;
static unsigned int hash_shift;
static u64 expire_ns[2] = { 500 * NSEC_PER_MSEC, 5000 * NSEC_PER_MSEC };

int list_sched_init(unsigned int shift)
{
	int dir;

	for (dir = 0; dir < 2; dir++) {
		INIT_LIST_HEAD(&sort_list[dir]);
		INIT_LIST_HEAD(&fifo_list[dir]);
	}
	hash_shift = shift;
	hash = calloc(1UL << shift, sizeof(*hash));
	return hash ? 0 : -ENOMEM;
}

void list_sched_exit(void)
{
	free(hash);
}

static sector_t rq_end(struct request *rq)
{
	return blk_rq_pos(rq) + blk_rq_sectors(rq);
}

/* deadline_find_hash(): a request ending at @sector */
static struct request *find_hash(sector_t sector)
{
	struct lrq *l;

	hlist_for_each_entry(l, &hash[hash_64(sector, hash_shift)], hash)
		if (rq_end(lrq_rq(l)) == sector)
			return lrq_rq(l);
	return NULL;
}

/* 2.5.45 elevator.c, for one device */
static int bio_rq_in_between(sector_t bio_sector, struct request *rq,
			     struct list_head *head)
{
	struct list_head *next = rq->queuelist.next;
	struct request *next_rq;

	if (next == head)
		return 0;
	next_rq = list_entry_rq(next);
	/* if bio is in between the two, this is the sweet spot */
	if (bio_sector < blk_rq_pos(next_rq) && bio_sector > blk_rq_pos(rq))
		return 1;
	/* next_rq is ordered wrt rq, but bio is not in between the two */
	if (blk_rq_pos(next_rq) > blk_rq_pos(rq))
		return 0;
	/* next_rq and rq not ordered: insert if before next_rq or after rq */
	if (bio_sector > blk_rq_pos(rq) || bio_sector < blk_rq_pos(next_rq))
		return 1;
	return 0;
}

/*
 * deadline_merge() of 2.5.45, for a bio of @nr sectors at @sector: the
 * hash for a back merge, then the scan for the insertion point and front
 * merges.  Returns the merge candidate (NULL if none) and *insert.
 */
static struct request *merge_scan(int dir, sector_t sector, unsigned int nr,
				  struct list_head **insert)
{
	struct list_head *entry, *head = &sort_list[dir];
	struct request *rq;

	*insert = NULL;
	rq = find_hash(sector);
	if (rq)
		return rq;

	entry = head;
	while ((entry = entry->prev) != head) {
		rq = list_entry_rq(entry);
		if (!*insert && bio_rq_in_between(sector, rq, head)) {
			*insert = &rq->queuelist;
			break;
		}
		if (blk_rq_pos(rq) - nr == sector)
			return rq;	/* front merge */
	}
	return NULL;
}

static u64 last_sector[2];

struct request *list_sched_insert(struct request *rq, u64 now)
{
	const int dir = rq_data_dir(rq);
	struct list_head *insert;
	struct request *merge;

	merge = merge_scan(dir, blk_rq_pos(rq), blk_rq_sectors(rq), &insert);
	if (merge)
		return merge;	/* the caller counts it and inserts anyway */

	/* no insertion point found: check the very front */
	if (!insert && !list_empty(&sort_list[dir])) {
		struct request *first = list_entry_rq(sort_list[dir].next);

		if (rq_end(rq) < blk_rq_pos(first) && blk_rq_pos(rq) > last_sector[dir])
			insert = &sort_list[dir];
	}
	if (!insert)
		insert = sort_list[dir].prev;
	list_add(&rq->queuelist, insert);

	rq->fifo_time = now + expire_ns[dir];
	list_add_tail(&lrq(rq)->fifo, &fifo_list[dir]);
	INIT_HLIST_NODE(&lrq(rq)->hash);
	hlist_add_head(&lrq(rq)->hash, &hash[hash_64(rq_end(rq), hash_shift)]);
	return NULL;
}

/* Setup only: append @rq, which sorts after every request queued. */
void list_sched_append(struct request *rq, u64 now)
{
	const int dir = rq_data_dir(rq);

	list_add_tail(&rq->queuelist, &sort_list[dir]);
	rq->fifo_time = now + expire_ns[dir];
	list_add_tail(&lrq(rq)->fifo, &fifo_list[dir]);
	INIT_HLIST_NODE(&lrq(rq)->hash);
	hlist_add_head(&lrq(rq)->hash, &hash[hash_64(rq_end(rq), hash_shift)]);
}

/*
 * Reads first; the FIFO head if it has expired, else the head of the sort
 * list, which the insertion keeps in elevator order.
 */
struct request *list_sched_dispatch(u64 now)
{
	struct request *rq;
	int dir = list_empty(&sort_list[READ]) ? WRITE : READ;

	if (list_empty(&sort_list[dir]))
		return NULL;
	rq = lrq_rq(list_first_entry(&fifo_list[dir], struct lrq, fifo));
	if (now < rq->fifo_time)
		rq = list_entry_rq(sort_list[dir].next);
	list_del_init(&rq->queuelist);
	list_del_init(&lrq(rq)->fifo);
	hlist_del_init(&lrq(rq)->hash);
	last_sector[dir] = rq_end(rq);
	return rq;
}
