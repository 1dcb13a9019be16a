/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LIST_SCHED_H
#define _LIST_SCHED_H

#include <linux/blk-mq.h>

/* 2.5.45 kept the FIFO and hash links in a struct deadline_rq beside the request. */
struct lrq {
	struct request rq;
	struct list_head fifo;
	struct hlist_node hash;
};

int list_sched_init(unsigned int hash_shift);
void list_sched_exit(void);
struct request *list_sched_insert(struct request *rq, u64 now);
void list_sched_append(struct request *rq, u64 now);
struct request *list_sched_dispatch(u64 now);

#endif
