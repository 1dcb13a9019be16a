/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of struct request and its accessors for the engine to build
 * on the host against tools/include, as tools/testing/radix-tree does for
 * the xarray.  Field names and types are the 6.1 kernel's.
 */
#ifndef _SHIM_BLK_MQ_H
#define _SHIM_BLK_MQ_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/math.h>
#include <linux/time64.h>
#include <linux/kernel.h>
#include <errno.h>
#include <string.h>

#ifndef READ
#define READ	0
#define WRITE	1
#define U64_MAX	((u64)~0ULL)	/* linux/limits.h, not in tools/include */
#endif

typedef u64 sector_t;

struct request {
	unsigned int cmd_flags;		/* bit 0: write, as REQ_OP_WRITE */
	unsigned int __data_len;	/* bytes */
	sector_t __sector;
	struct list_head queuelist;
	struct hlist_node hash;
	struct rb_node rb_node;
	struct {
		void *icq;
		void *priv[2];
	} elv;
	u64 fifo_time;
};

static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->__sector;
}

static inline unsigned int blk_rq_sectors(const struct request *rq)
{
	return rq->__data_len >> 9;
}

#define rq_data_dir(rq)	((rq)->cmd_flags & 1 ? WRITE : READ)

#endif
