// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the deadline-rb engine: sort order, merge lookups, expiry,
 * batch cost accounting, writes_starved, wrap-around, hash resizing and
 * I/O priority classes; and, from dlrb-compat.h, that the shallow depth
 * Kbuild chose for the tree is the one the running kernel's sbitmap keeps.
 * The requests are bare struct requests with only what the engine reads.
 */
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/module.h>
#include <linux/sbitmap.h>

#include "elevator.h"
#include "blk-mq.h"
#include "blk-mq-sched.h"
#include "dlrb-compat.h"
#include "dlrb-engine.h"

#define MS	NSEC_PER_MSEC

struct dlrb_test {
	struct dlrb_engine e;
};

static int dlrb_test_init(struct kunit *test)
{
	struct dlrb_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_EQ(test, dlrb_init(&t->e), 0);
	test->priv = t;
	return 0;
}

static void dlrb_test_exit(struct kunit *test)
{
	struct dlrb_test *t = test->priv;

	dlrb_exit(&t->e);
}

static struct dlrb_engine *eng(struct kunit *test)
{
	return &((struct dlrb_test *)test->priv)->e;
}

/* A request of @sectors sectors at @pos, read or write. */
static struct request *mkrq(struct kunit *test, enum dlrb_dir dir,
			    sector_t pos, unsigned int sectors)
{
	struct request *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rq);
	rq->cmd_flags = dir == DLRB_WRITE ? REQ_OP_WRITE : REQ_OP_READ;
	rq->__sector = pos;
	rq->__data_len = sectors << SECTOR_SHIFT;
	INIT_LIST_HEAD(&rq->queuelist);
	RB_CLEAR_NODE(&rq->rb_node);
	dlrb_prepare(rq);
	return rq;
}

/* Add a request of class @cls, as the glue does: class, then dlrb_add(). */
static struct request *addc(struct kunit *test, enum dlrb_class cls,
			    enum dlrb_dir dir, sector_t pos, unsigned int sectors,
			    u64 now)
{
	struct request *rq = mkrq(test, dir, pos, sectors);

	dlrb_set_class(rq, cls);
	dlrb_add(eng(test), rq, true, now);
	return rq;
}

static struct request *add(struct kunit *test, enum dlrb_dir dir, sector_t pos,
			   unsigned int sectors, u64 now)
{
	return addc(test, DLRB_BE, dir, pos, sectors, now);
}

/* Dispatch one request, completed at once as by a disk taking no time. */
static struct request *disp(struct dlrb_engine *e, u64 now)
{
	struct request *rq = dlrb_dispatch(e, now);

	if (rq)
		dlrb_completed(e, rq);
	return rq;
}

/* Dispatch everything, returning how many requests came out. */
static unsigned int drain(struct dlrb_engine *e, u64 now)
{
	unsigned int n = 0;

	while (disp(e, now))
		n++;
	return n;
}

static void dlrb_test_sector_order(struct kunit *test)
{
	static const sector_t pos[] = { 800, 80, 8000, 0, 16, 4000, 96, 2048 };
	static const sector_t want[] = { 0, 16, 80, 96, 800, 2048, 4000, 8000 };
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	static_assert(ARRAY_SIZE(pos) == ARRAY_SIZE(want));
	e->fifo_batch = DLRB_COST_MAX;	/* one batch for all */
	for (i = 0; i < ARRAY_SIZE(pos); i++)
		add(test, DLRB_READ, pos[i], 8, i);

	/* should come out in ascending sector order, not insertion order */
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct request *rq = dlrb_dispatch(e, 10 * MS);

		KUNIT_ASSERT_NOT_NULL(test, rq);
		KUNIT_EXPECT_EQ(test, blk_rq_pos(rq), want[i]);
	}
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 10 * MS));
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].batches, 1ULL);
}

static void dlrb_test_front_merge_lookup(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *r = add(test, DLRB_READ, 100, 8, 0);
	struct request *w = add(test, DLRB_WRITE, 200, 8, 0);

	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 100), r);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_front(e, DLRB_BE, DLRB_WRITE, 200), w);
	/* not the other direction's, not the middle of a request */
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_BE, DLRB_WRITE, 100));
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 104));

	/* a bio of 8 sectors merged in front: the key moves to 92 */
	r->__sector = 92;
	r->__data_len += 8 << SECTOR_SHIFT;
	dlrb_merged_front(e, r);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 92), r);
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 100));
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].merged_front, 1ULL);
}

static void dlrb_test_back_merge_lookup(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *a = add(test, DLRB_WRITE, 1000, 8, 0);
	struct request *b = mkrq(test, DLRB_WRITE, 5000, 8);

	dlrb_add(e, b, false, 0);	/* not mergeable: never hashed */

	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 1008), a);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 1000));
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 5008));

	/* a bio merged at the back: found by the new end, not the old */
	a->__data_len += 8 << SECTOR_SHIFT;
	dlrb_merged_back(e, a);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 1016), a);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 1008));

	dlrb_remove(e, a);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 1016));
	dlrb_remove(e, b);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

/*
 * A write ending where a read bio starts, hashed after the read that ends
 * there too, must not hide that read from the bio's back-merge lookup.
 */
static void dlrb_test_back_merge_by_direction(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *r = add(test, DLRB_READ, 2000, 8, 0);
	struct request *w = add(test, DLRB_WRITE, 2000, 8, 0);

	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 2008), r);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 2008), w);
	dlrb_remove(e, r);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 2008));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 2008), w);
	dlrb_remove(e, w);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

static void dlrb_test_requests_merged(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq = add(test, DLRB_READ, 0, 8, 50 * MS);
	struct request *next = add(test, DLRB_READ, 8, 8, 10 * MS);

	/* next (earlier deadline) is merged into rq: rq inherits it */
	rq->__data_len += 8 << SECTOR_SHIFT;
	dlrb_requests_merged(e, rq, next);
	KUNIT_EXPECT_EQ(test, rq->fifo_time, next->fifo_time);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&e->prio[DLRB_BE].fifo[DLRB_READ],
						   struct request, queuelist), rq);
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 8));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 16), rq);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].queued, 1U);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].merged_rq, 1ULL);
}

static void dlrb_test_expiry_picks_fifo_head(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *old = add(test, DLRB_READ, 90000, 8, 0);
	struct request *rq;

	e->fifo_batch = 1;	/* one request per batch */
	add(test, DLRB_READ, 10, 8, 1 * MS);

	/* before the deadline: the sort decides, lowest sector first */
	rq = dlrb_dispatch(e, 100 * MS);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(rq), 10ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].expired, 0ULL);

	/* a new batch after read_expire (500 ms): the FIFO head goes first */
	add(test, DLRB_READ, 20, 8, 2 * MS);
	rq = dlrb_dispatch(e, 501 * MS);
	KUNIT_EXPECT_PTR_EQ(test, rq, old);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].expired, 1ULL);
}

/* How many requests one batch holds: dispatch until the batch closes. */
static unsigned int batch_len(struct dlrb_engine *e, u64 now)
{
	unsigned int n = 0;

	do {
		if (!dlrb_dispatch(e, now))
			break;
		n++;
	} while (e->batch_dir >= 0);
	return n;
}

static void dlrb_test_contiguous_cost(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	/* 4 KiB back to back: one unit each, so 64 fit in fifo_batch 64 */
	for (i = 0; i < 80; i++)
		add(test, DLRB_READ, i * 8, 8, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 64U);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 16U);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].batches, 2ULL);
}

static void dlrb_test_large_contiguous_cost(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	/* 257 sectors round up to 2 units: 32 of them spend 64 */
	for (i = 0; i < 40; i++)
		add(test, DLRB_WRITE, i * 257, 257, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 32U);
}

static void dlrb_test_seek_cost(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	/*
	 * 0 starts where the last dispatch ended (sector 0): 1 unit.  Every
	 * other request seeks: 4 units.  1 + 16 * 4 >= 64: 17 requests.
	 */
	for (i = 0; i < 40; i++)
		add(test, DLRB_READ, i * 1000, 8, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 17U);

	/* the next batch starts with a seek: 16 * 4 = 64, 16 requests */
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 16U);

	/* a dearer seek fits fewer: 64 / 16 = 4 seeks */
	e->seek_cost = 16;
	for (i = 0; i < 10; i++)
		add(test, DLRB_READ, 100000 + i * 1000, 8, 0);
	drain(e, 0);
	for (i = 0; i < 10; i++)
		add(test, DLRB_READ, 200000 + i * 1000, 8, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 4U);
}

static void dlrb_test_writes_starved(struct kunit *test)
{
	static const enum dlrb_dir want[] = {
		DLRB_READ, DLRB_READ, DLRB_WRITE,
		DLRB_READ, DLRB_READ, DLRB_WRITE,
		DLRB_READ, DLRB_READ, DLRB_WRITE,
	};
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	e->fifo_batch = 1;	/* one request per batch */
	for (i = 0; i < 10; i++) {
		add(test, DLRB_READ, i * 1000, 8, 0);
		add(test, DLRB_WRITE, i * 1000 + 500, 8, 0);
	}
	/* reads are preferred until they have had writes_starved batches */
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct request *rq = dlrb_dispatch(e, 0);

		KUNIT_ASSERT_NOT_NULL(test, rq);
		KUNIT_EXPECT_EQ_MSG(test, dlrb_dir(rq), want[i], "dispatch %u", i);
	}
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].starved, 3ULL);

	/* writes_starved 0: a waiting write goes first every time */
	drain(e, 0);
	e->writes_starved = 0;
	add(test, DLRB_READ, 0, 8, 0);
	add(test, DLRB_WRITE, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, dlrb_dir(dlrb_dispatch(e, 0)), DLRB_WRITE);
	KUNIT_EXPECT_EQ(test, dlrb_dir(dlrb_dispatch(e, 0)), DLRB_READ);
}

static void dlrb_test_writes_only(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);

	/* with no reads queued, writes need no starvation to go */
	add(test, DLRB_WRITE, 64, 8, 0);
	add(test, DLRB_WRITE, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 0ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 64ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].starved, 0ULL);
}

static void dlrb_test_wrap_around(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);

	/* dispatch one request ending at 250; with nothing above, the batch ends */
	add(test, DLRB_READ, 242, 8, 0);
	KUNIT_ASSERT_NOT_NULL(test, dlrb_dispatch(e, 0));
	KUNIT_EXPECT_LT(test, e->batch_dir, 0);

	add(test, DLRB_READ, 100, 8, 0);
	add(test, DLRB_READ, 200, 8, 0);
	add(test, DLRB_READ, 300, 8, 0);
	e->fifo_batch = DLRB_COST_MAX;
	/* the batch starts at or after 250; from the top it wraps to 100 */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 300ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 100ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 200ULL);
}

static void dlrb_test_batch_takes_new_arrival(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);

	e->fifo_batch = DLRB_COST_MAX;
	add(test, DLRB_READ, 0, 8, 0);
	add(test, DLRB_READ, 1000, 8, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 0ULL);
	/* arrives between the last dispatched and the batch's next: next */
	add(test, DLRB_READ, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 8ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 1000ULL);
}

static void dlrb_test_dispatch_list_first(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *head = mkrq(test, DLRB_WRITE, 4096, 8);
	struct request *tail = mkrq(test, DLRB_READ, 8192, 8);

	LIST_HEAD(list);

	add(test, DLRB_READ, 0, 8, 0);
	list_add_tail(&tail->queuelist, &list);
	dlrb_add_dispatch(e, &list, false);
	KUNIT_EXPECT_TRUE(test, list_empty(&list));
	list_add_tail(&head->queuelist, &list);
	dlrb_add_dispatch(e, &list, true);
	KUNIT_EXPECT_FALSE(test, dlrb_empty(e));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 0), head);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 0), tail);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 0ULL);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

static void dlrb_test_at_head_order(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq[4];
	unsigned int i;
	LIST_HEAD(list);

	rq[3] = mkrq(test, DLRB_READ, 0, 8);
	list_add_tail(&rq[3]->queuelist, &list);
	dlrb_add_dispatch(e, &list, false);
	/* three at the head in one call: they leave in the order given */
	for (i = 0; i < 3; i++) {
		rq[i] = mkrq(test, DLRB_WRITE, 100 - i, 8);
		list_add_tail(&rq[i]->queuelist, &list);
	}
	dlrb_add_dispatch(e, &list, true);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, dlrb_dispatch(e, 0), rq[i], "dispatch %u", i);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
	/* counted apart from the sort's requests */
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].unsorted, 3ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].unsorted, 1ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].dispatched, 0ULL);
}

static void dlrb_test_equal_sectors_in_order(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq[5];
	unsigned int i;

	e->fifo_batch = DLRB_COST_MAX;
	for (i = 0; i < ARRAY_SIZE(rq); i++)
		rq[i] = add(test, DLRB_READ, 64, 8, 0);
	/* one sector, five requests: first in, first out */
	for (i = 0; i < ARRAY_SIZE(rq); i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, dlrb_dispatch(e, 0), rq[i], "dispatch %u", i);
}

static void dlrb_test_zero_and_huge_cost(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	/* zero-sector requests (zone resets) at sector 0 still cost a unit */
	for (i = 0; i < 80; i++)
		add(test, DLRB_WRITE, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 64U);
	drain(e, 0);

	/* a 1 GiB discard right after the last request spends the budget */
	add(test, DLRB_WRITE, 0, 1U << 21, 0);
	add(test, DLRB_WRITE, 1U << 21, 8, 0);
	e->last_end = 0;
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 1U);
	KUNIT_EXPECT_LT(test, e->batch_budget, 0);
}

static void dlrb_test_lowered_expire_applies(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *old = add(test, DLRB_READ, 90000, 8, 0);

	e->fifo_batch = 1;
	add(test, DLRB_READ, 10, 8, 0);
	/* 100 ms in, under the default 500 ms: the sort decides */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 100 * MS)), 10ULL);
	add(test, DLRB_READ, 20, 8, 100 * MS);
	/* read_expire lowered to 50 ms: the queued request is now late */
	e->expire_ms[DLRB_READ] = 50;
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 101 * MS), old);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].expired, 1ULL);
}

static void dlrb_test_write_expiry(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *old = add(test, DLRB_WRITE, 90000, 8, 0);

	e->fifo_batch = 1;
	add(test, DLRB_WRITE, 10, 8, 1 * MS);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 4999 * MS)), 10ULL);
	add(test, DLRB_WRITE, 20, 8, 4999 * MS);
	/* past write_expire (5000 ms): the oldest write, not the next sector */
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 5000 * MS), old);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].expired, 1ULL);
}

static void dlrb_test_expired_head_above_last(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);

	e->fifo_batch = DLRB_COST_MAX;
	e->last_end = 5000;
	add(test, DLRB_READ, 9000, 8, 0);
	add(test, DLRB_READ, 100, 8, 1 * MS);
	add(test, DLRB_READ, 6000, 8, 1 * MS);
	/* the expired head at 9000 opens the batch; it goes on upwards only */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 600 * MS)), 9000ULL);
	KUNIT_EXPECT_LT(test, e->batch_dir, 0);
	/* the next batch: the oldest left (100 and 6000 tie; 100 came first) */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 600 * MS)), 100ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 600 * MS)), 6000ULL);
}

static void dlrb_test_batch_next_merged_away(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *b, *c;

	e->fifo_batch = DLRB_COST_MAX;
	add(test, DLRB_READ, 0, 8, 0);
	b = add(test, DLRB_READ, 100, 8, 0);
	c = add(test, DLRB_READ, 108, 8, 0);
	add(test, DLRB_READ, 300, 8, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, e->batch_next, b);

	/* the batch's next request is merged into its successor: c goes next */
	c->__sector = 100;
	c->__data_len += 8 << SECTOR_SHIFT;
	dlrb_requests_merged(e, c, b);
	dlrb_merged_front(e, c);
	KUNIT_EXPECT_PTR_EQ(test, e->batch_next, c);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 0), c);

	/* a bio front-merged below the last end: the batch does not go back */
	add(test, DLRB_READ, 400, 8, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 300ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 400ULL);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

static void dlrb_test_merged_before_queued(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq = add(test, DLRB_WRITE, 0, 8, 0);
	struct request *next = mkrq(test, DLRB_WRITE, 8, 8);

	/* next, never queued, merged into rq as it was inserted */
	rq->__data_len += 8 << SECTOR_SHIFT;
	dlrb_requests_merged(e, rq, next);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].merged_rq, 1ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].queued, 1U);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].inserted, 1ULL);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 16), rq);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 0), rq);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

static void dlrb_test_tunables_mid_batch(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i;

	for (i = 0; i < 20; i++)
		add(test, DLRB_READ, i * 8, 8, 0);
	KUNIT_ASSERT_NOT_NULL(test, dlrb_dispatch(e, 0));
	KUNIT_EXPECT_EQ(test, e->batch_budget, DLRB_FIFO_BATCH - 1);
	/* a lower fifo_batch takes effect at the next batch, not this one */
	e->fifo_batch = 2;
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 19U);
	for (i = 0; i < 5; i++)
		add(test, DLRB_READ, 160 + i * 8, 8, 0);
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 2U);
	drain(e, 0);

	/* seek_cost raised mid-batch: charged from the next request on */
	for (i = 0; i < 5; i++)
		add(test, DLRB_READ, 10000 + i * 1000, 8, 0);
	e->fifo_batch = 40;
	e->seek_cost = 16;
	KUNIT_ASSERT_NOT_NULL(test, dlrb_dispatch(e, 0));	/* 16 of 40 */
	e->seek_cost = 30;
	KUNIT_EXPECT_EQ(test, batch_len(e, 0), 1U);	/* 30 > 24 left */
}

/*
 * Zone write locking as the glue does it, with zones of 1000 sectors:
 * writes to the locked zone [lo, hi) wait, and so does a write above
 * another queued write to its zone.
 */
static sector_t dlrb_test_locked_lo, dlrb_test_locked_hi;

static bool dlrb_test_may_go(struct request *rq)
{
	struct rb_node *prev = rb_prev(&rq->rb_node);

	if (dlrb_dir(rq) == DLRB_READ)
		return true;
	if (blk_rq_pos(rq) >= dlrb_test_locked_lo && blk_rq_pos(rq) < dlrb_test_locked_hi)
		return false;
	return !prev || blk_rq_pos(rb_entry(prev, struct request, rb_node)) / 1000 !=
		blk_rq_pos(rq) / 1000;
}

static void dlrb_test_locked_zone_skipped(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *r;

	e->may_go = dlrb_test_may_go;
	e->fifo_batch = DLRB_COST_MAX;
	dlrb_test_locked_lo = 1000;
	dlrb_test_locked_hi = 2000;
	add(test, DLRB_WRITE, 1500, 8, 0);	/* oldest, in the locked zone */
	add(test, DLRB_WRITE, 1000, 8, 0);
	add(test, DLRB_WRITE, 2000, 8, 0);
	add(test, DLRB_WRITE, 500, 8, 0);

	/* sorted: from 0 up, past the locked zone's writes */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 500ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 2000ULL);
	/* only locked writes left: nothing may go, though work is queued */
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 0));
	KUNIT_EXPECT_FALSE(test, dlrb_empty(e));

	/* reads still go while the writes wait */
	r = add(test, DLRB_READ, 1200, 8, 0);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 0), r);
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 0));

	/* the zone unlocks: the lowest of its writes first, though above 1208 */
	dlrb_test_locked_hi = 0;
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 1000ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 0)), 1500ULL);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

static void dlrb_test_locked_zone_fifo(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);

	e->may_go = dlrb_test_may_go;
	e->fifo_batch = 1;
	dlrb_test_locked_lo = 1000;
	dlrb_test_locked_hi = 2000;
	add(test, DLRB_WRITE, 1500, 8, 0);	/* expired, but its zone is locked */
	add(test, DLRB_WRITE, 7000, 8, 1 * MS);
	add(test, DLRB_WRITE, 3000, 8, 2 * MS);
	/* the oldest write that may go, not the locked FIFO head */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 6000 * MS)), 7000ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(dlrb_dispatch(e, 6000 * MS)), 3000ULL);
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 6000 * MS));
}

static void dlrb_test_hash_resize_live(struct kunit *test)
{
	static const u32 shifts[] = { 4, 20, 10, 4 };
	struct dlrb_engine *e = eng(test);
	const unsigned int nr = 200;
	struct request **rqs = kunit_kcalloc(test, nr, sizeof(*rqs), GFP_KERNEL);
	unsigned int i, s;

	KUNIT_ASSERT_NOT_NULL(test, rqs);
	for (i = 0; i < nr; i++)
		rqs[i] = add(test, i % 2 ? DLRB_WRITE : DLRB_READ, i * 64, 8, 0);
	/* queued but not mergeable: never hashed, and not by a resize either */
	dlrb_add(e, mkrq(test, DLRB_READ, 1 << 20, 8), false, 0);

	for (s = 0; s < ARRAY_SIZE(shifts); s++) {
		struct hlist_head *table = dlrb_hash_alloc(shifts[s]);
		unsigned int found = 0;

		KUNIT_ASSERT_NOT_NULL(test, table);
		dlrb_hash_free(dlrb_hash_swap(e, table, shifts[s]));
		KUNIT_EXPECT_EQ(test, e->hash_shift, shifts[s]);
		/* every live entry moved, and is found by its end sector */
		for (i = 0; i < nr; i++)
			found += dlrb_find_back(e, DLRB_BE, i % 2 ? DLRB_WRITE : DLRB_READ,
						 i * 64 + 8) == rqs[i];
		KUNIT_EXPECT_EQ_MSG(test, found, nr, "after resize to shift %u", shifts[s]);
	}
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, (1 << 20) + 8));
	KUNIT_EXPECT_EQ(test, drain(e, 0), nr + 1);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 8));
}

static void dlrb_test_counters(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq = add(test, DLRB_READ, 0, 8, 0);

	add(test, DLRB_WRITE, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].inserted, 1ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].queued, 1U);

	/* a requeued request comes back, but counts as inserted once */
	dlrb_remove(e, rq);
	dlrb_add(e, rq, true, 0);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].inserted, 1ULL);
	KUNIT_EXPECT_EQ(test, drain(e, 0), 2U);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].dispatched, 1ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_WRITE].dispatched, 1ULL);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].queued, 0U);
}

/*
 * The engine's invariants: each tree in sector order and holding only its
 * class and direction, queued equal to the tree sizes, each FIFO ordered
 * by deadline, and the open batch going on in its class and direction,
 * passing over nothing that starts at or after the last dispatched
 * sector.  Its next request is the successor of the one dispatched last,
 * which may start below last_end when the two overlap.
 */
static void dlrb_check_invariants(struct kunit *test, struct dlrb_engine *e)
{
	enum dlrb_class cls;
	enum dlrb_dir dir;

	for (dir = DLRB_READ; dir < DLRB_NR_DIRS; dir++) {
		u32 total = 0;

		for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++) {
			struct dlrb_prio *p = &e->prio[cls];
			struct request *rq, *prev = NULL;
			struct rb_node *node;
			u32 n = 0;

			for (node = rb_first(&p->sort[dir]); node; node = rb_next(node)) {
				rq = rb_entry(node, struct request, rb_node);
				KUNIT_ASSERT_EQ(test, dlrb_rq_class(rq), cls);
				KUNIT_ASSERT_EQ(test, dlrb_dir(rq), dir);
				if (prev)
					KUNIT_ASSERT_LE(test, blk_rq_pos(prev), blk_rq_pos(rq));
				prev = rq;
				n++;
			}
			KUNIT_ASSERT_EQ(test, n, p->stats[dir].queued);
			total += n;
			prev = NULL;
			list_for_each_entry(rq, &p->fifo[dir], queuelist) {
				if (prev)
					KUNIT_ASSERT_LE(test, prev->fifo_time, rq->fifo_time);
				prev = rq;
			}
		}
		KUNIT_ASSERT_EQ(test, total, e->stats[dir].queued);
	}
	if (e->batch_dir >= 0 && e->batch_next) {
		struct rb_node *node = rb_prev(&e->batch_next->rb_node);
		struct request *before;

		KUNIT_ASSERT_EQ(test, dlrb_rq_class(e->batch_next), e->batch_class);
		KUNIT_ASSERT_EQ(test, (int)dlrb_dir(e->batch_next), e->batch_dir);
		if (node) {
			before = rb_entry(node, struct request, rb_node);
			KUNIT_ASSERT_LT(test, blk_rq_pos(before), e->last_end);
		}
	}
	for (cls = DLRB_RT; cls < DLRB_NR_CLASSES; cls++) {
		struct dlrb_prio *p = &e->prio[cls];
		struct rb_node *node;

		if (p->saved_dir < 0 || !p->saved_next)
			continue;
		KUNIT_ASSERT_EQ(test, dlrb_rq_class(p->saved_next), cls);
		KUNIT_ASSERT_EQ(test, (int)dlrb_dir(p->saved_next), p->saved_dir);
		node = rb_prev(&p->saved_next->rb_node);
		if (node)
			KUNIT_ASSERT_LT(test, blk_rq_pos(rb_entry(node, struct request, rb_node)),
					p->saved_end);
	}
}

/*
 * Random inserts and dispatches in every class: never idle while work is
 * queued, and the invariants hold throughout.
 */
static void dlrb_test_never_idle_with_work(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	unsigned int i, queued = 0, out = 0;
	u32 x = 12345;

	e->fifo_batch = 8;
	e->prio_aging_expire_ms = 300;	/* some requests age in 2 s */
	for (i = 0; i < 2000; i++) {
		u64 now = (u64)i * MS;

		x = x * 1103515245 + 12345;	/* any cheap, fixed sequence */
		if ((x >> 16) % 3) {
			addc(test, (x >> 24) % DLRB_NR_CLASSES,
			     (x >> 8) & 1 ? DLRB_WRITE : DLRB_READ,
			     (x >> 12) % 100000, 8 << ((x >> 4) % 4), now);
			queued++;
		} else if (!dlrb_empty(e)) {
			KUNIT_ASSERT_NOT_NULL(test, disp(e, now));
			out++;
		}
		dlrb_check_invariants(test, e);
	}
	out += drain(e, 3000 * MS);
	KUNIT_EXPECT_EQ(test, out, queued);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].queued + e->stats[DLRB_WRITE].queued, 0U);
}

/*
 * I/O priority classes
 */

/* Every RT request before any BE one, every BE one before any IDLE one. */
static void dlrb_test_class_order(struct kunit *test)
{
	static const enum dlrb_class cls[] = {
		DLRB_IDLE, DLRB_BE, DLRB_RT, DLRB_BE, DLRB_IDLE, DLRB_RT, DLRB_BE,
	};
	struct dlrb_engine *e = eng(test);
	enum dlrb_class last = DLRB_RT;
	unsigned int i, n[DLRB_NR_CLASSES] = {};
	struct request *rq;

	for (i = 0; i < ARRAY_SIZE(cls); i++)
		addc(test, cls[i], i % 2 ? DLRB_WRITE : DLRB_READ, 1000 * (7 - i), 8, i);
	/* the oldest (an IDLE read) long expired, but not aged (10 s) */
	for (i = 0; (rq = disp(e, 2000 * MS)); i++) {
		KUNIT_EXPECT_GE(test, dlrb_rq_class(rq), last);
		last = dlrb_rq_class(rq);
		n[last]++;
	}
	KUNIT_EXPECT_EQ(test, i, (unsigned int)ARRAY_SIZE(cls));
	KUNIT_EXPECT_EQ(test, n[DLRB_RT], 2U);
	KUNIT_EXPECT_EQ(test, n[DLRB_BE], 3U);
	KUNIT_EXPECT_EQ(test, n[DLRB_IDLE], 2U);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_RT].stats[DLRB_READ].dispatched, 1ULL);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_RT].stats[DLRB_WRITE].dispatched, 1ULL);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_READ].aged, 0ULL);
}

/* IDLE goes only when no RT or BE request is queued, until it ages. */
static void dlrb_test_idle_only_when_others_empty(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *idle = addc(test, DLRB_IDLE, DLRB_READ, 0, 8, 0);
	struct request *rq;
	unsigned int i;

	/* a best-effort stream, one request queued at a time for 9 s */
	for (i = 0; i < 900; i++) {
		addc(test, DLRB_BE, DLRB_WRITE, 1000 + i * 8, 8, i * 10 * MS);
		rq = disp(e, i * 10 * MS);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		KUNIT_ASSERT_EQ(test, dlrb_rq_class(rq), DLRB_BE);
	}
	/* the best-effort stream pauses: the idle request goes */
	KUNIT_EXPECT_PTR_EQ(test, disp(e, 9000 * MS), idle);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_READ].aged, 0ULL);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

/*
 * A request of a lower class waits at most prio_aging_expire, plus the
 * batch in progress: then it opens a batch of its own.  The batch after
 * that is the higher class's again, and the class then waits a
 * prio_aging_expire from that service, however old its requests.
 */
static void dlrb_test_aging_bound(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *idle1, *idle2, *rq;
	unsigned int i, after = 0, sector = 0;
	u64 now = 0;

	e->prio_aging_expire_ms = 100;
	e->fifo_batch = 16;
	e->seek_cost = 1;
	idle1 = addc(test, DLRB_IDLE, DLRB_READ, 500000, 8, 0);
	idle2 = addc(test, DLRB_IDLE, DLRB_READ, 400000, 8, 1 * MS);
	/* an RT flood that never drains: two requests queued per dispatch */
	for (i = 0; i < 400; i++) {
		now = i * MS;
		addc(test, DLRB_RT, DLRB_READ, (sector += 4096) % 300000, 8, now);
		addc(test, DLRB_RT, DLRB_READ, (sector += 4096) % 300000, 8, now);
		rq = disp(e, now);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		if (rq == idle1)
			break;
		KUNIT_ASSERT_EQ(test, dlrb_rq_class(rq), DLRB_RT);
		if (now >= 100 * MS)
			after++;
	}
	/* served within one batch of 16 requests after it aged */
	KUNIT_EXPECT_PTR_EQ(test, rq, idle1);
	KUNIT_EXPECT_GE(test, now, 100 * MS);
	KUNIT_EXPECT_LE(test, after, 16U);
	KUNIT_EXPECT_TRUE(test, e->batch_aged);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_READ].aged, 1ULL);

	/* idle2 is as old, but its class was served just now: RT's turn */
	for (i = 0; i < 48; i++) {
		rq = disp(e, now + i * MS);
		KUNIT_ASSERT_NOT_NULL(test, rq);
		KUNIT_EXPECT_EQ(test, dlrb_rq_class(rq), DLRB_RT);
		addc(test, DLRB_RT, DLRB_READ, (sector += 4096) % 300000, 8, now + i * MS);
	}
	/* a prio_aging_expire after idle1's service, within one batch: idle2 */
	now += 100 * MS;
	for (i = 0; i <= 16; i++) {
		rq = disp(e, now);
		if (rq == idle2)
			break;
		addc(test, DLRB_RT, DLRB_READ, (sector += 4096) % 300000, 8, now);
	}
	KUNIT_EXPECT_PTR_EQ(test, rq, idle2);
	KUNIT_EXPECT_LE(test, i, 16U);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_READ].aged, 2ULL);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_RT].stats[DLRB_READ].aged, 0ULL);
}

/*
 * Aging is a class going unserved, not a request being old: a best-effort
 * backlog far older than prio_aging_expire, served a moment ago, does not
 * go ahead of a real-time request (in mq-deadline it would, all of it).
 */
static void dlrb_test_aging_is_starvation(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq, *rt;
	unsigned int i;

	e->prio_aging_expire_ms = 100;
	for (i = 0; i < 64; i++)
		add(test, DLRB_READ, i * 1000, 8, 0);
	rq = disp(e, 1000 * MS);
	KUNIT_EXPECT_EQ(test, dlrb_rq_class(rq), DLRB_BE);
	for (i = 0; i < 8; i++) {
		rt = addc(test, DLRB_RT, DLRB_READ, 500 + i, 8, (1000 + i) * MS);
		KUNIT_EXPECT_PTR_EQ(test, disp(e, (1000 + i) * MS), rt);
		/* the real-time reader thinks: best-effort gets the disk */
		rq = disp(e, (1000 + i) * MS);
		KUNIT_EXPECT_EQ(test, dlrb_rq_class(rq), DLRB_BE);
	}
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].stats[DLRB_READ].aged, 0ULL);

	/* unserved for prio_aging_expire under a real-time flood: aged */
	for (i = 0; i < 8; i++)
		addc(test, DLRB_RT, DLRB_READ, 600 + i, 8, 1010 * MS);
	rq = disp(e, 1110 * MS);
	KUNIT_EXPECT_EQ(test, dlrb_rq_class(rq), DLRB_BE);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].stats[DLRB_READ].aged, 1ULL);
}

/* Merge lookups never return a request of another class. */
static void dlrb_test_no_merge_across_classes(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rt = addc(test, DLRB_RT, DLRB_READ, 100, 8, 0);
	struct request *be = addc(test, DLRB_BE, DLRB_READ, 100, 8, 0);
	struct request *idle = addc(test, DLRB_IDLE, DLRB_WRITE, 300, 8, 0);

	/* one hash for every class: the same end sector, found by class */
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_RT, DLRB_READ, 108), rt);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 108), be);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_IDLE, DLRB_READ, 108));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_front(e, DLRB_RT, DLRB_READ, 100), rt);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_front(e, DLRB_BE, DLRB_READ, 100), be);
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_IDLE, DLRB_READ, 100));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_IDLE, DLRB_WRITE, 308), idle);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_WRITE, 308));
	KUNIT_EXPECT_NULL(test, dlrb_find_front(e, DLRB_RT, DLRB_WRITE, 300));

	/* a merge counts for the class of the request merged into */
	rt->__data_len += 8 << SECTOR_SHIFT;
	dlrb_merged_back(e, rt);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_find_back(e, DLRB_RT, DLRB_READ, 116), rt);
	KUNIT_EXPECT_NULL(test, dlrb_find_back(e, DLRB_BE, DLRB_READ, 116));
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_RT].stats[DLRB_READ].merged, 1ULL);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].stats[DLRB_READ].merged, 0ULL);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_RT].stats[DLRB_READ].queued, 1U);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].stats[DLRB_READ].queued, 1U);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_WRITE].inserted, 1ULL);
}

/*
 * A request of a higher class arriving mid-batch puts the batch aside: it
 * goes next, then the batch goes on from where it was with the budget it
 * had left.  A batch serving an aged request is not put aside.
 */
static void dlrb_test_higher_class_mid_batch(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *rq, *rt;
	unsigned int i;

	e->fifo_batch = DLRB_COST_MAX;
	for (i = 0; i < 4; i++)
		add(test, DLRB_READ, 1000 * (i + 1), 8, 0);
	rq = disp(e, 1 * MS);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(rq), 1000ULL);
	KUNIT_EXPECT_EQ(test, e->batch_class, DLRB_BE);
	KUNIT_EXPECT_GE(test, e->batch_dir, 0);

	rt = addc(test, DLRB_RT, DLRB_READ, 2500, 8, 1 * MS);
	KUNIT_EXPECT_LT(test, e->batch_dir, 0);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].saved_dir, (int)DLRB_READ);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_BE].saved_budget,
			DLRB_COST_MAX - (int)e->seek_cost);
	KUNIT_EXPECT_PTR_EQ(test, disp(e, 1 * MS), rt);
	/* the best-effort batch goes on where it was, with what it had left */
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 1 * MS)), 2000ULL);
	KUNIT_EXPECT_EQ(test, e->batch_class, DLRB_BE);
	KUNIT_EXPECT_EQ(test, e->batch_budget, DLRB_COST_MAX - 2 * (int)e->seek_cost);
	KUNIT_EXPECT_LT(test, e->prio[DLRB_BE].saved_dir, 0);
	KUNIT_EXPECT_EQ(test, e->stats[DLRB_READ].batches, 2ULL);	/* BE, RT */

	/* same class or lower: the batch goes on */
	addc(test, DLRB_BE, DLRB_READ, 100, 8, 1 * MS);
	addc(test, DLRB_IDLE, DLRB_READ, 200, 8, 1 * MS);
	KUNIT_EXPECT_GE(test, e->batch_dir, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 1 * MS)), 3000ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 1 * MS)), 4000ULL);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 1 * MS)), 100ULL);

	/* the IDLE request ages: its batch is not put aside by an RT arrival */
	addc(test, DLRB_IDLE, DLRB_READ, 300, 8, 1 * MS);
	addc(test, DLRB_BE, DLRB_READ, 5000, 8, 1 * MS);
	rq = disp(e, 20000 * MS);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(rq), 200ULL);
	KUNIT_EXPECT_TRUE(test, e->batch_aged);
	rt = addc(test, DLRB_RT, DLRB_READ, 6000, 8, 20000 * MS);
	KUNIT_EXPECT_GE(test, e->batch_dir, 0);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 20000 * MS)), 300ULL);
	/* then the RT request, even with the BE one aged */
	KUNIT_EXPECT_PTR_EQ(test, disp(e, 20000 * MS), rt);
	KUNIT_EXPECT_EQ(test, blk_rq_pos(disp(e, 20000 * MS)), 5000ULL);
	KUNIT_EXPECT_TRUE(test, dlrb_empty(e));
}

/*
 * An idle request waits while a request of another class is with the
 * driver, dispatched and not completed; the completion of the last says
 * so.  An aged idle request does not wait.
 */
static void dlrb_test_idle_waits_for_driver(struct kunit *test)
{
	struct dlrb_engine *e = eng(test);
	struct request *be, *rt, *idle;

	be = add(test, DLRB_READ, 100, 8, 0);
	idle = addc(test, DLRB_IDLE, DLRB_READ, 200, 8, 0);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 1 * MS), be);
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 1 * MS));
	KUNIT_EXPECT_FALSE(test, dlrb_empty(e));
	rt = addc(test, DLRB_RT, DLRB_READ, 300, 8, 1 * MS);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 1 * MS), rt);
	/* the BE request done, the RT one still out: held */
	KUNIT_EXPECT_FALSE(test, dlrb_completed(e, be));
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 2 * MS));
	/* the last done: the caller is told to run the queue */
	KUNIT_EXPECT_TRUE(test, dlrb_completed(e, rt));
	KUNIT_EXPECT_FALSE(test, dlrb_completed(e, rt));	/* counted once */
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 2 * MS), idle);
	KUNIT_EXPECT_FALSE(test, dlrb_completed(e, idle));
	KUNIT_EXPECT_EQ(test, atomic_read(&e->owned[DLRB_RT]) +
			atomic_read(&e->owned[DLRB_BE]) +
			atomic_read(&e->owned[DLRB_IDLE]), 0);

	/* aged, it goes beside a best-effort request with the driver */
	be = add(test, DLRB_WRITE, 400, 8, 3 * MS);
	idle = addc(test, DLRB_IDLE, DLRB_WRITE, 500, 8, 3 * MS);
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 4 * MS), be);
	KUNIT_EXPECT_NULL(test, dlrb_dispatch(e, 4 * MS));
	KUNIT_EXPECT_PTR_EQ(test, dlrb_dispatch(e, 10003 * MS), idle);
	KUNIT_EXPECT_EQ(test, e->prio[DLRB_IDLE].stats[DLRB_WRITE].aged, 1ULL);
}

/*
 * async_depth's tags, through the running kernel's sbitmap: writes get at
 * most async_depth tags, and at least 7/8 of them, whether the kernel
 * limits each word or the whole map.  A Kbuild that read the tree wrongly
 * gives a quarter of the tags (whole map scaled again) or four times them.
 */
static void dlrb_test_shallow_depth(struct kunit *test)
{
	static const unsigned int cases[][2] = {	/* nr_requests, async_depth */
		{ 256, 64 }, { 256, 128 }, { 64, 16 }, { 256, 100 }, { 128, 4 },
		{ 2048, 1000 },
	};
	struct sbitmap_queue sbq;
	unsigned int i, got, shallow;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ(test, sbitmap_queue_init_node(&sbq, cases[i][0], -1, false,
							      GFP_KERNEL, NUMA_NO_NODE), 0);
		sbitmap_queue_min_shallow_depth(&sbq, 1);
		shallow = dlrb_shallow_depth(&sbq.sb, cases[i][1]);
		for (got = 0; sbitmap_queue_get_shallow(&sbq, shallow) >= 0; got++)
			;
		sbitmap_queue_free(&sbq);
		KUNIT_EXPECT_LE_MSG(test, got, cases[i][1], "nr_requests %u", cases[i][0]);
		KUNIT_EXPECT_GE_MSG(test, got * 8, cases[i][1] * 7, "nr_requests %u, got %u",
				    cases[i][0], got);
	}
}

static struct kunit_case dlrb_engine_cases[] = {
	KUNIT_CASE(dlrb_test_sector_order),
	KUNIT_CASE(dlrb_test_front_merge_lookup),
	KUNIT_CASE(dlrb_test_back_merge_lookup),
	KUNIT_CASE(dlrb_test_back_merge_by_direction),
	KUNIT_CASE(dlrb_test_requests_merged),
	KUNIT_CASE(dlrb_test_expiry_picks_fifo_head),
	KUNIT_CASE(dlrb_test_contiguous_cost),
	KUNIT_CASE(dlrb_test_large_contiguous_cost),
	KUNIT_CASE(dlrb_test_seek_cost),
	KUNIT_CASE(dlrb_test_writes_starved),
	KUNIT_CASE(dlrb_test_writes_only),
	KUNIT_CASE(dlrb_test_wrap_around),
	KUNIT_CASE(dlrb_test_batch_takes_new_arrival),
	KUNIT_CASE(dlrb_test_dispatch_list_first),
	KUNIT_CASE(dlrb_test_at_head_order),
	KUNIT_CASE(dlrb_test_equal_sectors_in_order),
	KUNIT_CASE(dlrb_test_zero_and_huge_cost),
	KUNIT_CASE(dlrb_test_lowered_expire_applies),
	KUNIT_CASE(dlrb_test_write_expiry),
	KUNIT_CASE(dlrb_test_expired_head_above_last),
	KUNIT_CASE(dlrb_test_batch_next_merged_away),
	KUNIT_CASE(dlrb_test_merged_before_queued),
	KUNIT_CASE(dlrb_test_tunables_mid_batch),
	KUNIT_CASE(dlrb_test_locked_zone_skipped),
	KUNIT_CASE(dlrb_test_locked_zone_fifo),
	KUNIT_CASE(dlrb_test_hash_resize_live),
	KUNIT_CASE(dlrb_test_counters),
	KUNIT_CASE(dlrb_test_never_idle_with_work),
	KUNIT_CASE(dlrb_test_class_order),
	KUNIT_CASE(dlrb_test_idle_only_when_others_empty),
	KUNIT_CASE(dlrb_test_aging_bound),
	KUNIT_CASE(dlrb_test_aging_is_starvation),
	KUNIT_CASE(dlrb_test_no_merge_across_classes),
	KUNIT_CASE(dlrb_test_higher_class_mid_batch),
	KUNIT_CASE(dlrb_test_idle_waits_for_driver),
	KUNIT_CASE(dlrb_test_shallow_depth),
	{}
};

static struct kunit_suite dlrb_engine_suite = {
	.name = "deadline-rb-engine",
	.init = dlrb_test_init,
	.exit = dlrb_test_exit,
	.test_cases = dlrb_engine_cases,
};

kunit_test_suite(dlrb_engine_suite);

/* MODULE_IMPORT_NS() takes a string from 6.13 on; MODULE_INFO() on all */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the deadline-rb engine");
