// SPDX-License-Identifier: GPL-2.0
/*
 * fifo-floor: the least a Linux 6.1 or 6.12 blk-mq elevator can do, built
 * beside deadline-rb as the yardstick of `make bench` and of the policy
 * test (a plain FIFO must fail the bounds deadline-rb promises).  One
 * spinlock, one list, first in first out: no sorting, no merging, no
 * accounting.  Whatever an elevator costs beyond `none` (the scheduler
 * tags, the insert and dispatch calls, the lock) this one pays too, so
 * deadline-rb's own cost is what it spends above this floor.  Not for use
 * on real disks.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "elevator.h"
#include "blk-mq.h"
#include "blk-mq-sched.h"

#include "dlrb-compat.h"

struct fifo_data {
	spinlock_t lock;		/* protects list */
	struct list_head list;
};

static void fifo_insert_requests(struct blk_mq_hw_ctx *hctx, struct list_head *list,
				 dlrb_insert_t flags)
{
	struct fifo_data *fd = hctx->queue->elevator->elevator_data;

	spin_lock(&fd->lock);
	if (dlrb_insert_at_head(flags))
		list_splice_init(list, &fd->list);
	else
		list_splice_tail_init(list, &fd->list);
	spin_unlock(&fd->lock);
}

static struct request *fifo_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct fifo_data *fd = hctx->queue->elevator->elevator_data;
	struct request *rq;

	spin_lock(&fd->lock);
	rq = list_first_entry_or_null(&fd->list, struct request, queuelist);
	if (rq)
		list_del_init(&rq->queuelist);
	spin_unlock(&fd->lock);
	return rq;
}

/*
 * 6.12's elv_register() wants this hook.  On 6.1 the core calls it only for
 * elevators with a prepare_request hook, which this one has not, so the
 * floor costs the same there as before.
 */
static void fifo_finish_request(struct request *rq)
{
}

static bool fifo_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct fifo_data *fd = hctx->queue->elevator->elevator_data;

	return !list_empty_careful(&fd->list);
}

static int fifo_init_sched(struct request_queue *q, dlrb_init_arg *arg)
{
	struct elevator_queue *eq;
	struct fifo_data *fd;

	eq = dlrb_elv_alloc(q, arg);
	if (!eq)
		return -ENOMEM;
	fd = kzalloc_node(sizeof(*fd), GFP_KERNEL, q->node);
	if (!fd) {
		dlrb_elv_put(eq);
		return -ENOMEM;
	}
	spin_lock_init(&fd->lock);
	INIT_LIST_HEAD(&fd->list);
	eq->elevator_data = fd;
	q->elevator = eq;
	return 0;
}

static void fifo_exit_sched(struct elevator_queue *e)
{
	struct fifo_data *fd = e->elevator_data;

	WARN_ON_ONCE(!list_empty(&fd->list));
	kfree(fd);
}

static struct elevator_type fifo_floor = {
	.ops = {
		.init_sched = fifo_init_sched,
		.exit_sched = fifo_exit_sched,
		.insert_requests = fifo_insert_requests,
		.dispatch_request = fifo_dispatch_request,
		.finish_request = fifo_finish_request,
		.has_work = fifo_has_work,
	},
	.elevator_name = "fifo-floor",
	.elevator_owner = THIS_MODULE,
};

static int __init fifo_floor_init(void)
{
	return elv_register(&fifo_floor);
}

static void __exit fifo_floor_exit(void)
{
	elv_unregister(&fifo_floor);
}

module_init(fifo_floor_init);
module_exit(fifo_floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("FIFO elevator: the benchmark's floor for any blk-mq elevator");
