// SPDX-License-Identifier: GPL-2.0
/*
 * The workload behind `dlctl profile`; see workload.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

static const struct kind {
	const char *name;
	bool seq;		/* the threads share one sequential stream */
	unsigned int write_pct;	/* writes, in percent of I/Os */
} kinds[WL_NR_KINDS] = {
	[WL_RANDREAD] = { "randread", false, 0 },
	[WL_RANDWRITE] = { "randwrite", false, 100 },
	[WL_RANDRW] = { "randrw", false, 30 },
	[WL_SEQREAD] = { "seqread", true, 0 },
	[WL_SEQWRITE] = { "seqwrite", true, 100 },
	/* and thread 0 reads at random: see worker_main() */
	[WL_SEQWRITE_RANDREAD] = { "seqwrite+randread", true, 100 },
};

int wl_kind_parse(const char *name)
{
	int i;

	for (i = 0; i < WL_NR_KINDS; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return i;
	return -1;
}

const char *wl_kind_name(enum wl_kind kind)
{
	return kinds[kind].name;
}

bool wl_kind_writes(enum wl_kind kind)
{
	return kinds[kind].write_pct > 0;
}

const char *wl_kind_list(void)
{
	return "randread, randwrite, randrw, seqread, seqwrite, seqwrite+randread";
}

static unsigned int lat_index(uint64_t ns)
{
	unsigned int msb, shift, idx;

	if (ns < LAT_SUB)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	shift = msb - LAT_SUB_BITS;
	idx = (shift + 1) * LAT_SUB + (unsigned int)((ns >> shift) - LAT_SUB);
	return idx < LAT_BUCKETS ? idx : LAT_BUCKETS - 1;
}

/* The middle of bucket idx. */
static uint64_t lat_value(unsigned int idx)
{
	unsigned int shift;

	if (idx < LAT_SUB)
		return idx;
	shift = idx / LAT_SUB - 1;
	return ((uint64_t)(idx % LAT_SUB + LAT_SUB) << shift) +
	       ((1ull << shift) >> 1);
}

void lat_add(struct lat_hist *h, uint64_t ns)
{
	h->bucket[lat_index(ns)]++;
	h->count++;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	unsigned int i;

	for (i = 0; i < LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t lat_percentile(const struct lat_hist *h, double p)
{
	uint64_t want, seen = 0, v;
	unsigned int i;

	if (!h->count)
		return 0;
	want = (uint64_t)(p * (double)h->count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want) {
			v = lat_value(i);
			return v < h->max_ns ? v : h->max_ns;
		}
	}
	return h->max_ns;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void nap(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

struct shared {
	const struct wl_opts *o;
	uint64_t blocks;		/* o->size / o->bs */
	atomic_uint_fast64_t cursor;	/* next block of the sequential stream */
	atomic_uint_fast64_t ios;	/* for the progress line */
	atomic_int done;
	atomic_int error;		/* first -errno */
	atomic_uint ready;		/* threads set up and waiting for go */
	atomic_int go;			/* the clock starts when all are ready */
};

struct worker {
	pthread_t thread;
	struct shared *sh;
	unsigned int id;
	uint64_t rng;
	struct wl_result res;
};

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct wl_opts *o = sh->o;
	bool seq = kinds[o->kind].seq;
	unsigned int write_pct = kinds[o->kind].write_pct;
	void *buf;
	int err = 0;

	if (o->kind == WL_SEQWRITE_RANDREAD && w->id == 0)
		seq = false, write_pct = 0;

	if (posix_memalign(&buf, 4096, o->bs)) {
		atomic_store(&sh->error, -ENOMEM);
		atomic_store(&sh->done, 1);
		atomic_fetch_add(&sh->ready, 1);
		return NULL;
	}
	memset(buf, 0x5a ^ (int)w->id, o->bs);
	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load(&sh->go))
		nap(100);

	while (!atomic_load_explicit(&sh->done, memory_order_relaxed)) {
		bool write = write_pct == 100 ||
			     (write_pct && xorshift(&w->rng) % 100 < write_pct);
		uint64_t block, t0, t1;
		ssize_t n;

		if (seq)
			block = atomic_fetch_add(&sh->cursor, 1) % sh->blocks;
		else
			block = xorshift(&w->rng) % sh->blocks;

		t0 = now_ns();
		if (write)
			n = pwrite(o->fd, buf, o->bs, (off_t)(block * o->bs));
		else
			n = pread(o->fd, buf, o->bs, (off_t)(block * o->bs));
		t1 = now_ns();
		if (n != (ssize_t)o->bs) {
			if (n < 0 && errno == EINTR)
				continue;
			err = n < 0 ? -errno : -EIO;
			break;
		}
		w->res.ios[write]++;
		w->res.bytes[write] += o->bs;
		lat_add(&w->res.lat[write], t1 - t0);
		atomic_fetch_add_explicit(&sh->ios, 1, memory_order_relaxed);
	}
	if (err) {
		int zero = 0;

		atomic_compare_exchange_strong(&sh->error, &zero, err);
		atomic_store(&sh->done, 1);
	}
	free(buf);
	return NULL;
}

int wl_run(const struct wl_opts *o, struct wl_result *res,
	   volatile sig_atomic_t *stop)
{
	struct shared sh = { .o = o, .blocks = o->size / o->bs };
	struct worker *w;
	unsigned int i, started = 0;
	uint64_t t0;
	double t;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!o->iodepth || !o->bs || !sh.blocks)
		return -EINVAL;
	w = calloc(o->iodepth, sizeof(*w));
	if (!w)
		return -ENOMEM;

	for (i = 0; i < o->iodepth; i++) {
		w[i].sh = &sh;
		w[i].id = i;
		w[i].rng = 0x9e3779b97f4a7c15ull * (i + 1) ^ (uint64_t)getpid();
		ret = pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		if (ret) {
			atomic_store(&sh.error, -ret);
			break;
		}
		started++;
	}
	while (atomic_load(&sh.ready) < started)
		nap(1000);
	t0 = now_ns();
	atomic_store(&sh.go, 1);
	for (;;) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };

		t = (double)(now_ns() - t0) / 1e9;
		if (atomic_load(&sh.done) || atomic_load(&sh.error) ||
		    (stop && *stop) || t >= o->runtime)
			break;
		if (o->tick)
			o->tick(o->tick_arg, t, atomic_load(&sh.ios));
		if (o->runtime - t < 0.1)
			tick.tv_nsec = (long)((o->runtime - t) * 1e9);
		nanosleep(&tick, NULL);
	}
	atomic_store(&sh.done, 1);
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		res->ios[0] += w[i].res.ios[0];
		res->ios[1] += w[i].res.ios[1];
		res->bytes[0] += w[i].res.bytes[0];
		res->bytes[1] += w[i].res.bytes[1];
		lat_merge(&res->lat[0], &w[i].res.lat[0]);
		lat_merge(&res->lat[1], &w[i].res.lat[1]);
	}
	res->seconds = (double)(now_ns() - t0) / 1e9;
	free(w);
	return atomic_load(&sh.error);
}
