// SPDX-License-Identifier: GPL-2.0
/*
 * engine-bench: the cost of one request through the scheduler's sort at a
 * given queue depth, for deadline-rb's engine (kernel/dlrb-engine.c built
 * against tools/lib/rbtree.c) and for the 2.5.45 list scan it replaced
 * (list-sched.c).
 *
 *   engine-bench rbtree|list DEPTH ITERATIONS [HASH_SHIFT]
 *
 * Fills the scheduler with DEPTH requests at random sectors (reads and
 * writes, 3:1), then ITERATIONS times dispatches one and inserts a new one,
 * looking for back and front merges first as the block layer would for a
 * bio.  steady_state() is that loop alone: callgrind counts its
 * instructions with --toggle-collect=steady_state; the program itself
 * prints the wall time per request.  At the end everything is drained and
 * counted, so a scheduler that loses requests fails the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlrb-engine.h"
#include "list-sched.h"

static struct dlrb_engine eng;
static struct lrq *reqs;
static unsigned int nr_reqs;
static u64 rng = 0x2545f4914f6cdd1dULL;
static unsigned long merges;
static int use_list;

static u64 next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* 4 KiB at a random 4 KiB-aligned sector of a 4 TiB disk */
static void new_req(struct request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->cmd_flags = next_rand() % 4 == 0;	/* one write in four */
	rq->__data_len = 4096;
	rq->__sector = (next_rand() % (1ULL << 30)) * 8;
}

static void insert(struct request *rq, u64 now)
{
	if (use_list) {
		if (list_sched_insert(rq, now)) {
			merges++;
			list_sched_append(rq, now);	/* rare: keep the depth */
		}
		return;
	}
	/* what dd_bio_merge/elv_merge ask before a request is made */
	if (dlrb_find_back(&eng, DLRB_BE, blk_rq_pos(rq)) ||
	    dlrb_find_front(&eng, DLRB_BE, dlrb_dir(rq), dlrb_end(rq)))
		merges++;
	dlrb_prepare(rq);
	dlrb_add(&eng, rq, true, now);
}

static struct request *dispatch(u64 now)
{
	return use_list ? list_sched_dispatch(now) : dlrb_dispatch(&eng, now);
}

static int cmp_sector(const void *a, const void *b)
{
	const struct request *x = a, *y = b;

	return x->__sector < y->__sector ? -1 : x->__sector > y->__sector;
}

/* Insert and dispatch @iters times at a steady depth; returns requests out. */
noinline unsigned long steady_state(unsigned long iters, u64 *now)
{
	unsigned long i, out = 0;

	for (i = 0; i < iters; i++) {
		struct request *rq = dispatch(*now);

		if (!rq)
			break;
		out++;
		new_req(rq);	/* the completed request's memory comes back */
		insert(rq, *now);
		*now += 1000;
	}
	return out;
}

static double ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long iters, out, drained = 0;
	unsigned int depth, i, shift = DLRB_HASH_SHIFT;
	u64 now = 1;
	double t0, t1;

	if (argc < 4 || argc > 5 || (strcmp(argv[1], "rbtree") && strcmp(argv[1], "list"))) {
		fprintf(stderr, "usage: engine-bench rbtree|list DEPTH ITERATIONS [HASH_SHIFT]\n");
		return 2;
	}
	use_list = strcmp(argv[1], "list") == 0;
	depth = strtoul(argv[2], NULL, 0);
	iters = strtoul(argv[3], NULL, 0);
	if (argc == 5)
		shift = strtoul(argv[4], NULL, 0);
	nr_reqs = depth;
	reqs = calloc(nr_reqs, sizeof(*reqs));
	if (!reqs || !depth)
		return 1;
	if (use_list ? list_sched_init(shift) : dlrb_init(&eng))
		return 1;
	if (!use_list && shift != eng.hash_shift) {
		struct hlist_head *t = dlrb_hash_alloc(shift);

		if (!t)
			return 1;
		dlrb_hash_free(dlrb_hash_swap(&eng, t, shift));
	}

	/* setup: the list gets its requests in order, as its scan would leave them */
	for (i = 0; i < depth; i++)
		new_req(&reqs[i].rq);
	if (use_list) {
		qsort(reqs, depth, sizeof(*reqs), cmp_sector);
		for (i = 0; i < depth; i++)
			list_sched_append(&reqs[i].rq, now);
	} else {
		for (i = 0; i < depth; i++)
			insert(&reqs[i].rq, now);
	}

	t0 = ns_now();
	out = steady_state(iters, &now);
	t1 = ns_now();

	while (dispatch(now))
		drained++;
	if (out != iters || drained != depth) {
		fprintf(stderr, "engine-bench: %s lost requests: %lu of %lu out, %lu of %u drained\n",
			argv[1], out, iters, drained, depth);
		return 1;
	}
	printf("{\"variant\":\"%s\",\"depth\":%u,\"hash_shift\":%u,\"iterations\":%lu,",
	       argv[1], depth, shift, iters);
	printf("\"ns_per_request\":%.1f,\"merges\":%lu}\n", (t1 - t0) / iters, merges);
	if (use_list)
		list_sched_exit();
	else
		dlrb_exit(&eng);
	free(reqs);
	return 0;
}
