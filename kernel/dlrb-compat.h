/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deadline-rb: what differs between the kernel series it builds for (Linux
 * 6.1 and 6.12), in one place, so that the glue and the engine carry no
 * version checks of their own.  Include it after the block/ headers, whose
 * symbols it tests.
 *
 * Checked against both trees:
 * - 6.4 turned insert_requests' "bool at_head" into blk_insert_t flags
 *   (BLK_MQ_INSERT_AT_HEAD, in block/blk-mq.h).
 * - 6.12's elv_register() refuses an elevator without finish_request; we
 *   have one on every series, as mq-deadline does.
 * - The rest of what the glue uses from block/ (elevator_alloc,
 *   blk_mq_sched_try_merge, blk_mq_sched_try_insert_merge,
 *   blk_mq_free_requests, elv_rqhash_del, elv_bio_merge_ok, rq_mergeable,
 *   blk_discard_mergable, elv_rb_{former,latter}_request,
 *   blk_mq_debugfs_rq_show, QUEUE_FLAG_SQ_SCHED) has the same signature on
 *   both; rq->elv.priv[] is the scheduler's alone on both (the core only
 *   clears elv.icq).
 * - Not used by the module, so nothing here for them: block/blk-mq-tag.h
 *   (folded into blk-mq.h by 6.12), RQF_ELVPRIV (gone; 6.12 marks requests
 *   with RQF_USE_SCHED), ELEVATOR_F_* and zone write locking (gone since
 *   6.10, where zone write plugging does that job).
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

#endif /* _DLRB_COMPAT_H */
