/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The built-in O_DIRECT workload behind `dlctl profile`: iodepth threads,
 * each with one synchronous I/O in flight (so the device sees up to
 * iodepth requests at once, as fio's psync engine with numjobs does), and
 * a log-linear latency histogram per direction.  The clock starts when
 * every thread is ready, so thread start-up is not counted as idle time.
 */
#ifndef DLCTL_WORKLOAD_H
#define DLCTL_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wl_kind {
	WL_RANDREAD,		/* every thread: random reads */
	WL_RANDWRITE,		/* every thread: random writes */
	WL_RANDRW,		/* every thread: 70% random reads, 30% random writes */
	WL_SEQREAD,		/* every thread takes the next block of one stream */
	WL_SEQWRITE,		/* the same, writing */
	WL_SEQWRITE_RANDREAD,	/* one random reader; the rest write one stream */
	WL_NR_KINDS
};

/* Name ("randread", ...) to kind; -1 if unknown. */
int wl_kind_parse(const char *name);
const char *wl_kind_name(enum wl_kind kind);
bool wl_kind_writes(enum wl_kind kind);
/* "randread, randwrite, ..." for messages. */
const char *wl_kind_list(void);

/* 64 sub-buckets per power of two: percentiles within 1.6%. */
#define LAT_SUB_BITS	6
#define LAT_SUB		(1u << LAT_SUB_BITS)
#define LAT_BUCKETS	((40 - LAT_SUB_BITS + 1) * LAT_SUB)	/* to 2^40 ns */

struct lat_hist {
	uint64_t count;
	uint64_t max_ns;
	uint64_t bucket[LAT_BUCKETS];
};

void lat_add(struct lat_hist *h, uint64_t ns);
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);
/* The latency below which a fraction p (0..1) of the samples fall. */
uint64_t lat_percentile(const struct lat_hist *h, double p);

enum { WL_READ, WL_WRITE };

struct wl_result {
	uint64_t ios[2];
	uint64_t bytes[2];
	struct lat_hist lat[2];
	double seconds;		/* wall time the threads ran */
};

struct wl_opts {
	int fd;			/* opened with O_DIRECT */
	enum wl_kind kind;
	unsigned int iodepth;	/* threads */
	size_t bs;		/* bytes per I/O, a multiple of 4096 */
	uint64_t size;		/* bytes of the device to use, from offset 0 */
	double runtime;		/* seconds */
	/* Called about 10 times a second from the calling thread. */
	void (*tick)(void *arg, double elapsed, uint64_t ios);
	void *tick_arg;
};

/*
 * Run the workload for o->runtime seconds or until *stop becomes non-zero.
 * Returns 0, or -errno of the first failed I/O (the run stops there).
 */
int wl_run(const struct wl_opts *o, struct wl_result *res,
	   volatile sig_atomic_t *stop);

#endif
