// SPDX-License-Identifier: GPL-2.0
/*
 * dlrb-hdd: a seek-modelled disk for the guest, a test fixture of
 * deadline-rb's (never part of what is installed).  One blk-mq disk, hdd0,
 * with one hardware queue, that completes each request when a model of a
 * 7200 rpm drive says it would, so that the order a scheduler dispatches
 * in costs what it costs on a rotating disk:
 *
 * - Geometry: zoned recording, ZONES zones of equal track count from the
 *   outer diameter (LBA 0) inwards, the outermost zone carrying the
 *   datasheet's outer sustained rate, the innermost its inner rate, those
 *   between in a straight line.  A "track" here is one revolution of data
 *   under the active head, so that the sustained rate is what one track
 *   per revolution delivers (head and cylinder switches included, as the
 *   datasheet's sustained figure includes them).
 * - Seek: Ruemmler and Wilkes, "An Introduction to Disk Drive Modeling"
 *   (IEEE Computer, 1994): a + b*sqrt(d) for short seeks, c + e*d for long
 *   ones, d the distance as a fraction of the full stroke.  The constants
 *   are fitted at load to the datasheet: a is the track-to-track time, the
 *   two pieces meet with the same slope at the boundary, the full stroke
 *   costs the full-stroke time, and the boundary is placed so that the mean
 *   over all seeks, weighted as datasheets weigh them (every start and end
 *   track equally likely), is the average seek time.  Where no boundary
 *   reaches that mean, the curve is a square root scaled to the mean, and
 *   the full stroke it gives is logged.
 * - Rotation: the platter turns at rpm from load time on; a request waits,
 *   after its seek, until its first sector comes under the head.
 * - Transfer: sectors over the track's sectors per revolution.
 * - A request that starts where the one before it ended costs its
 *   transfer only: no seek, and no rotation missed while the host turned
 *   round (the drive's buffer takes a write; for a read, the drive went on
 *   reading ahead while idle, up to READ_AHEAD_NS of it, and what it has
 *   read already comes from the buffer).  So a sequential stream runs at
 *   the sustained rate, and no faster.  One such stream, as a drive with
 *   one cache segment.
 *
 * queue_depth commands are accepted at once (1, as a disk without command
 * queueing, by default; more are served in arrival order), through blk-mq's
 * dispatch budget as SCSI does it, so everything else waits in the
 * scheduler.  Timing comes from the model and the guest's clock, not from
 * the time the emulator takes; with QEMU's -icount the clock is the
 * instruction count, and runs repeat.  With store=1 the data written is
 * kept (4 KiB pages, allocated on write) so that fio can verify it;
 * unwritten sectors read as zeros.
 *
 * The parameters are those of the drive named below, from its manufacturer's
 * specification; each can be changed at load.  /sys/kernel/debug/dlrb-hdd/
 * has the fitted model (model) and counters (stats; write anything to
 * clear them): among them the head's reversals, which a scheduler that
 * sweeps in one direction keeps to one or two per sweep.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

/*
 * The drive.  Times in microseconds, rates in kB/s (1000 bytes).
 *
 * Mechanics: Hitachi Travelstar 7K320, 2.5 inch SATA, HTS723232L9SA60
 * (320 GB), "7K320 SATA OEM Specification" revision 1.6, 9 April 2010,
 * section 4.4.2: average seek 12 ms (read/write, typical), full stroke
 * 20.0 ms (read, typical), single track 1.0 ms (read, typical), 7200 rpm,
 * 8.3 ms a revolution, average latency 4.2 ms.
 *
 * Media rates: the pages of that specification that give them were not to
 * be had here, so they are Hitachi's Deskstar 7K500 (HDS725050KLA360,
 * 7200 rpm, the same maker's same years), "Deskstar 7K500 and Deskstar
 * E7K500 Hard Disk Drive specification", table 10: sustained read 64.8
 * MB/s in zone 0, 31.0 MB/s in zone 29, 30 zones.
 */
#define DATASHEET_NAME	"Hitachi Travelstar 7K320 (seek, rotation), Deskstar 7K500 (media rate)"
#define DS_CAPACITY_GB	320
#define DS_RPM		7200
#define DS_T2T_US	1000	/* single track seek, read, typical */
#define DS_AVG_US	12000	/* average seek, typical */
#define DS_FULL_US	20000	/* full stroke seek, read, typical */
#define DS_RATE_OD_KBS	64800	/* sustained read, zone 0 */
#define DS_RATE_ID_KBS	31000	/* sustained read, zone 29 */
#define DS_ZONES	30

static unsigned int capacity_gb = DS_CAPACITY_GB;
module_param(capacity_gb, uint, 0444);
MODULE_PARM_DESC(capacity_gb, "capacity in GB (10^9 bytes)");
static unsigned int rpm = DS_RPM;
module_param(rpm, uint, 0444);
MODULE_PARM_DESC(rpm, "spindle speed");
static unsigned int t2t_seek_us = DS_T2T_US;
module_param(t2t_seek_us, uint, 0444);
MODULE_PARM_DESC(t2t_seek_us, "track-to-track seek, us");
static unsigned int avg_seek_us = DS_AVG_US;
module_param(avg_seek_us, uint, 0444);
MODULE_PARM_DESC(avg_seek_us, "average seek, us");
static unsigned int full_seek_us = DS_FULL_US;
module_param(full_seek_us, uint, 0444);
MODULE_PARM_DESC(full_seek_us, "full stroke seek, us");
static unsigned int rate_od_kbs = DS_RATE_OD_KBS;
module_param(rate_od_kbs, uint, 0444);
MODULE_PARM_DESC(rate_od_kbs, "sustained rate at the outer diameter, kB/s");
static unsigned int rate_id_kbs = DS_RATE_ID_KBS;
module_param(rate_id_kbs, uint, 0444);
MODULE_PARM_DESC(rate_id_kbs, "sustained rate at the inner diameter, kB/s");
static unsigned int zones = DS_ZONES;
module_param(zones, uint, 0444);
MODULE_PARM_DESC(zones, "recording zones, 1..64");
static unsigned int queue_depth = 1;
module_param(queue_depth, uint, 0444);
MODULE_PARM_DESC(queue_depth, "commands accepted at once, 1..64 (1: no command queueing)");
static bool store;
module_param(store, bool, 0444);
MODULE_PARM_DESC(store, "keep the data written, so that it reads back");

#define MAX_ZONES	64
#define READ_AHEAD_NS	(100 * NSEC_PER_MSEC)	/* about 6 MB at the outer rate */
#define TAGS		64	/* the scheduler gets twice that: 128 requests */
#define PPB		1000000000ULL	/* fractions of the stroke, in 1e-9 */
#define SQRT_PPB	31623ULL	/* sqrt(PPB), rounded */

struct hdd_cmd {
	struct hrtimer timer;
	struct request *rq;
};

struct hdd_stats {
	u64 requests, reads, writes, flushes, sectors, sequential, seeks;
	u64 seek_ns, rotate_ns, xfer_ns, busy_ns;
	u64 reversals, descents;
};

static struct hdd {
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	struct dentry *dbg;
	struct xarray pages;
	atomic_t inflight;

	/* the geometry */
	u64 sectors, rot_ns, tracks, tracks_per_zone;
	u64 zone_lba[MAX_ZONES + 1];	/* first LBA of each zone, then the end */
	u32 spt[MAX_ZONES];		/* sectors per track (revolution) */
	/* the seek curve: a + b*sqrt(f) below f0, c + e*f from it (ns, f in PPB) */
	u64 a, b, c, e, f0;
	u64 model_avg_ns, model_full_ns;

	spinlock_t lock;		/* protects what follows */
	u64 busy_until;			/* when the head is free, ns */
	u64 track;			/* where the head is */
	u64 next_lba;			/* the sequential stream's next sector */
	int dir;			/* the head's last direction: -1, 0, 1 */
	struct hdd_stats st;
} hdd;

/* ---- the model ---- */

static unsigned int zone_of(u64 lba)
{
	unsigned int z = 0;

	while (z + 1 < zones && lba >= hdd.zone_lba[z + 1])
		z++;
	return z;
}

static u64 track_of(u64 lba, u32 *offset)
{
	unsigned int z = zone_of(lba);
	u64 rel = lba - hdd.zone_lba[z];
	u32 off;

	rel = div_u64_rem(rel, hdd.spt[z], &off);
	if (offset)
		*offset = off;
	return (u64)z * hdd.tracks_per_zone + rel;
}

/* The seek time over @f of the stroke (PPB), with the curve's constants. */
static u64 seek_curve(u64 f, u64 a, u64 b, u64 c, u64 e, u64 f0)
{
	if (f < f0)
		return a + div64_u64(b * int_sqrt64(f), SQRT_PPB);
	return c + div64_u64(e * f, PPB);
}

/* From track @from to @to: one track is f = 0, the full stroke f = 1. */
static u64 seek_ns(u64 from, u64 to)
{
	u64 d = from > to ? from - to : to - from;

	if (!d)
		return 0;
	return seek_curve(div64_u64((d - 1) * PPB, max_t(u64, hdd.tracks - 2, 1)), hdd.a,
			  hdd.b, hdd.c, hdd.e, hdd.f0);
}

/*
 * The mean seek over all start and end tracks: distances f weigh 2(1 - f),
 * summed at 1000 midpoints.  The datasheets' "weighted average of all
 * possible seek combinations" is this.
 */
static u64 seek_mean(u64 a, u64 b, u64 c, u64 e, u64 f0)
{
	u64 sum = 0, wsum = 0;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		u64 f = (2 * i + 1) * (PPB / 2000), w = 1999 - 2 * i;

		sum += seek_curve(f, a, b, c, e, f0) * w;
		wsum += w;
	}
	return div64_u64(sum, wsum);
}

/* The curve's constants for boundary @f0 (see the top of the file). */
static void seek_fit(u64 f0, u64 *b, u64 *c, u64 *e)
{
	u64 a = t2t_seek_us * 1000ULL, full = full_seek_us * 1000ULL;

	*e = div64_u64((full - a) * PPB, PPB + f0);
	*b = div64_u64(2 * *e * int_sqrt64(f0), SQRT_PPB);
	*c = full - *e;
}

static void model_init(void)
{
	u64 a = t2t_seek_us * 1000ULL, target = avg_seek_us * 1000ULL;
	u64 lo = 1000, hi = PPB, spt_sum = 0, b, c, e, m;
	unsigned int z, i;

	hdd.sectors = div_u64((u64)capacity_gb * 1000000000ULL, 512);
	hdd.rot_ns = div_u64(60ULL * NSEC_PER_SEC, rpm);
	for (z = 0; z < zones; z++) {
		u64 rate = rate_od_kbs - (zones > 1 ?
			div_u64((u64)(rate_od_kbs - rate_id_kbs) * z, zones - 1) : 0);

		/* bytes per revolution, in sectors */
		hdd.spt[z] = max_t(u64, 1, div64_u64(rate * 1000 * hdd.rot_ns,
						     NSEC_PER_SEC * 512ULL));
		spt_sum += hdd.spt[z];
	}
	hdd.tracks_per_zone = div64_u64(hdd.sectors + spt_sum - 1, spt_sum);
	hdd.tracks = hdd.tracks_per_zone * zones;
	hdd.zone_lba[0] = 0;
	for (z = 0; z < zones; z++)
		hdd.zone_lba[z + 1] = hdd.zone_lba[z] + hdd.tracks_per_zone * hdd.spt[z];

	/* the boundary whose curve has the datasheet's mean: bisection */
	hdd.a = a;
	for (i = 0; i < 48 && lo + 1 < hi; i++) {
		u64 mid = lo + (hi - lo) / 2;

		seek_fit(mid, &b, &c, &e);
		if (seek_mean(a, b, c, e, mid) < target)
			lo = mid;
		else
			hi = mid;
	}
	hdd.f0 = hi;
	seek_fit(hdd.f0, &hdd.b, &hdd.c, &hdd.e);
	m = seek_mean(a, hdd.b, hdd.c, hdd.e, hdd.f0);
	if (m + 1000 < target) {
		/* out of the curve's reach: a square root, scaled to the mean */
		hdd.f0 = PPB + 1;
		hdd.b = div64_u64((target - a) * SQRT_PPB, seek_mean(0, SQRT_PPB, 0, 0, PPB + 1));
		pr_info("dlrb-hdd: no two-piece curve has the %u us mean; a square root instead\n",
			avg_seek_us);
	}
	hdd.model_avg_ns = seek_mean(a, hdd.b, hdd.c, hdd.e, hdd.f0);
	hdd.model_full_ns = seek_curve(PPB, a, hdd.b, hdd.c, hdd.e, hdd.f0);
}

/*
 * Serve @rq on the model: when it will be done, in ns of ktime_get().
 * The head is free at busy_until; the request starts then or at @now.
 */
static u64 model_serve(struct request *rq, u64 now)
{
	u64 pos = blk_rq_pos(rq), n = blk_rq_sectors(rq), start, seek = 0, rot = 0, xfer;
	u64 track, end_track;
	unsigned int z = zone_of(pos);
	u32 off;
	int dir;

	spin_lock(&hdd.lock);
	start = max(now, hdd.busy_until);
	if (req_op(rq) == REQ_OP_FLUSH || !n) {
		hdd.st.flushes++;
		goto out;
	}
	track = track_of(pos, &off);
	xfer = div_u64(n * hdd.rot_ns, hdd.spt[z]);
	if (pos == hdd.next_lba) {
		hdd.st.sequential++;
		/* read ahead while idle: that much is in the buffer already */
		if (rq_data_dir(rq) == READ && now > hdd.busy_until) {
			u64 ahead = min(now - hdd.busy_until, (u64)READ_AHEAD_NS);

			start = now;
			xfer = ahead < xfer ? xfer - ahead : 0;
		}
	} else {
		u64 arrive, phase, target;

		seek = seek_ns(hdd.track, track);
		arrive = start + seek;
		div64_u64_rem(arrive, hdd.rot_ns, &phase);
		target = div_u64((u64)off * hdd.rot_ns, hdd.spt[z]);
		rot = target >= phase ? target - phase : target + hdd.rot_ns - phase;
		hdd.st.seeks += seek > 0;
	}
	dir = track > hdd.track ? 1 : track < hdd.track ? -1 : 0;
	if (dir) {
		hdd.st.reversals += hdd.dir && dir != hdd.dir;
		hdd.st.descents += dir < 0;
		hdd.dir = dir;
	}
	end_track = track_of(min(pos + n, hdd.sectors) - 1, NULL);
	hdd.track = end_track;
	hdd.next_lba = pos + n;
	hdd.st.requests++;
	hdd.st.sectors += n;
	if (rq_data_dir(rq) == WRITE)
		hdd.st.writes++;
	else
		hdd.st.reads++;
	hdd.st.seek_ns += seek;
	hdd.st.rotate_ns += rot;
	hdd.st.xfer_ns += xfer;
	hdd.st.busy_ns += seek + rot + xfer;
	start += seek + rot + xfer;
out:
	hdd.busy_until = start;
	spin_unlock(&hdd.lock);
	return start;
}

/* ---- the data, with store=1 ---- */

/* The page that holds byte offset @idx pages in, made if @make and absent. */
static struct page *data_page(unsigned long idx, bool make)
{
	struct page *page = xa_load(&hdd.pages, idx), *old;

	if (page || !make)
		return page;
	page = alloc_page(GFP_NOIO | __GFP_ZERO);
	if (!page)
		return ERR_PTR(-ENOMEM);
	old = xa_cmpxchg(&hdd.pages, idx, NULL, page, GFP_NOIO);
	if (!old)
		return page;
	__free_page(page);
	return xa_is_err(old) ? ERR_PTR(xa_err(old)) : old;
}

static int copy_data(struct request *rq)
{
	bool write = rq_data_dir(rq) == WRITE;
	u64 pos = blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int poff = offset_in_page(pos);
			unsigned int len = min(bv.bv_len - done, (unsigned int)PAGE_SIZE - poff);
			struct page *page = data_page(pos >> PAGE_SHIFT, write);
			void *buf;

			if (IS_ERR(page))
				return PTR_ERR(page);
			buf = kmap_local_page(bv.bv_page) + bv.bv_offset + done;
			if (write)
				memcpy_to_page(page, poff, buf, len);
			else if (page)
				memcpy_from_page(buf, page, poff, len);
			else
				memset(buf, 0, len);
			kunmap_local(buf);
			done += len;
			pos += len;
		}
	}
	return 0;
}

/* ---- blk-mq ---- */

static int hdd_get_budget(struct request_queue *q)
{
	if (atomic_inc_return(&hdd.inflight) > queue_depth) {
		atomic_dec(&hdd.inflight);
		return -1;
	}
	return 0;
}

static void hdd_put_budget(struct request_queue *q, int token)
{
	atomic_dec(&hdd.inflight);
}

static enum hrtimer_restart hdd_done(struct hrtimer *t)
{
	struct hdd_cmd *cmd = container_of(t, struct hdd_cmd, timer);

	blk_mq_end_request(cmd->rq, BLK_STS_OK);
	/* the budget is free: let the scheduler dispatch again */
	atomic_dec(&hdd.inflight);
	blk_mq_run_hw_queues(hdd.disk->queue, true);
	return HRTIMER_NORESTART;
}

static blk_status_t hdd_queue_rq(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct hdd_cmd *cmd = blk_mq_rq_to_pdu(rq);
	u64 done;

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_FLUSH:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	/* before start: a request given back is started again, from idle */
	if (store && req_op(rq) != REQ_OP_FLUSH && copy_data(rq))
		return BLK_STS_RESOURCE;
	blk_mq_start_request(rq);
	done = model_serve(rq, ktime_get_ns());
	cmd->rq = rq;
	/*
	 * Set up here, each time, rather than in init_request(), whose
	 * numa_node argument is unsigned up to 6.12 and int in 7.2; with
	 * hrtimer_setup() where the tree has it (7.2 has no hrtimer_init()).
	 * DLRB_HRTIMER_SETUP: kernel/dlrb-compat.mk.
	 */
#ifdef DLRB_HRTIMER_SETUP
	hrtimer_setup(&cmd->timer, hdd_done, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
#else
	hrtimer_init(&cmd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	cmd->timer.function = hdd_done;
#endif
	hrtimer_start(&cmd->timer, ns_to_ktime(done), HRTIMER_MODE_ABS);
	return BLK_STS_OK;
}

static const struct blk_mq_ops hdd_mq_ops = {
	.queue_rq	= hdd_queue_rq,
	.get_budget	= hdd_get_budget,
	.put_budget	= hdd_put_budget,
};

static const struct block_device_operations hdd_fops = {
	.owner		= THIS_MODULE,
};

/* ---- debugfs ---- */

static int stats_show(struct seq_file *m, void *v)
{
	struct hdd_stats st;

	spin_lock(&hdd.lock);
	st = hdd.st;
	spin_unlock(&hdd.lock);
	seq_printf(m, "requests %llu\nreads %llu\nwrites %llu\nflushes %llu\nsectors %llu\n",
		   st.requests, st.reads, st.writes, st.flushes, st.sectors);
	seq_printf(m, "sequential %llu\nseeks %llu\nreversals %llu\ndescents %llu\n",
		   st.sequential, st.seeks, st.reversals, st.descents);
	seq_printf(m, "seek_ns %llu\nrotate_ns %llu\nxfer_ns %llu\nbusy_ns %llu\n",
		   st.seek_ns, st.rotate_ns, st.xfer_ns, st.busy_ns);
	return 0;
}

static int stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, stats_show, NULL);
}

static ssize_t stats_write(struct file *file, const char __user *buf, size_t len, loff_t *ppos)
{
	spin_lock(&hdd.lock);
	memset(&hdd.st, 0, sizeof(hdd.st));
	spin_unlock(&hdd.lock);
	return len;
}

static const struct file_operations stats_fops = {
	.owner		= THIS_MODULE,
	.open		= stats_open,
	.read		= seq_read,
	.write		= stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int model_show(struct seq_file *m, void *v)
{
	seq_printf(m, "drive %s\n", DATASHEET_NAME);
	seq_printf(m, "sectors %llu\ntracks %llu\nzones %u\nspt_od %u\nspt_id %u\n",
		   hdd.sectors, hdd.tracks, zones, hdd.spt[0], hdd.spt[zones - 1]);
	seq_printf(m, "rotation_ns %llu\nseek_a_ns %llu\nseek_b_ns %llu\nseek_c_ns %llu\n",
		   hdd.rot_ns, hdd.a, hdd.b, hdd.c);
	seq_printf(m, "seek_e_ns %llu\nseek_boundary_ppb %llu\n", hdd.e, hdd.f0);
	seq_printf(m, "seek_avg_ns %llu\nseek_full_ns %llu\nseek_t2t_ns %llu\n",
		   hdd.model_avg_ns, hdd.model_full_ns, seek_ns(0, 1));
	seq_printf(m, "seek_full_track_ns %llu\n", seek_ns(0, hdd.tracks - 1));
	seq_printf(m, "queue_depth %u\nstore %d\n", queue_depth, store);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(model);

/* ---- module ---- */

static int __init hdd_init(void)
{
#ifdef BLK_FEAT_ROTATIONAL		/* 6.11+: limits at allocation */
	struct queue_limits lim = {
		.logical_block_size	= 512,
		.physical_block_size	= 4096,
		.max_hw_sectors		= 1024,
		.features		= BLK_FEAT_ROTATIONAL | BLK_FEAT_WRITE_CACHE,
	};
#endif
	struct gendisk *disk;
	int ret;

	if (!capacity_gb || !rpm || !zones || zones > MAX_ZONES || !queue_depth ||
	    queue_depth > TAGS || rate_id_kbs > rate_od_kbs || !rate_id_kbs ||
	    t2t_seek_us > avg_seek_us || avg_seek_us > full_seek_us) {
		pr_err("dlrb-hdd: parameters out of range\n");
		return -EINVAL;
	}
	model_init();
	spin_lock_init(&hdd.lock);
	xa_init(&hdd.pages);

	hdd.set.ops = &hdd_mq_ops;
	hdd.set.nr_hw_queues = 1;
	hdd.set.queue_depth = TAGS;
	hdd.set.numa_node = NUMA_NO_NODE;
	hdd.set.cmd_size = sizeof(struct hdd_cmd);
	hdd.set.flags = BLK_MQ_F_BLOCKING;	/* queue_rq may allocate pages */
	ret = blk_mq_alloc_tag_set(&hdd.set);
	if (ret)
		return ret;
#ifdef BLK_FEAT_ROTATIONAL
	disk = blk_mq_alloc_disk(&hdd.set, &lim, NULL);
#else
	disk = blk_mq_alloc_disk(&hdd.set, NULL);
#endif
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto free_set;
	}
#ifndef BLK_FEAT_ROTATIONAL		/* 6.1: rotational unless told otherwise */
	blk_queue_logical_block_size(disk->queue, 512);
	blk_queue_physical_block_size(disk->queue, 4096);
	blk_queue_max_hw_sectors(disk->queue, 1024);
	blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_write_cache(disk->queue, true, false);
#endif
	disk->major = 0;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->fops = &hdd_fops;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "hdd0");
	set_capacity(disk, hdd.sectors);
	hdd.disk = disk;
	ret = register_blkdev(0, "dlrb-hdd");
	if (ret < 0)
		goto put_disk;
	disk->major = ret;
	ret = add_disk(disk);
	if (ret)
		goto unregister;
	hdd.dbg = debugfs_create_dir("dlrb-hdd", NULL);
	debugfs_create_file("stats", 0600, hdd.dbg, NULL, &stats_fops);
	debugfs_create_file("model", 0400, hdd.dbg, NULL, &model_fops);
	pr_info("dlrb-hdd: hdd0, %llu sectors, %s; seek %llu/%llu/%llu us (t2t/avg/full)\n",
		hdd.sectors, DATASHEET_NAME, div_u64(seek_ns(0, 1), 1000),
		div_u64(hdd.model_avg_ns, 1000), div_u64(hdd.model_full_ns, 1000));
	return 0;

unregister:
	unregister_blkdev(disk->major, "dlrb-hdd");
put_disk:
	put_disk(disk);
free_set:
	blk_mq_free_tag_set(&hdd.set);
	return ret;
}

static void __exit hdd_exit(void)
{
	struct page *page;
	unsigned long idx;

	debugfs_remove_recursive(hdd.dbg);
	del_gendisk(hdd.disk);
	unregister_blkdev(hdd.disk->major, "dlrb-hdd");
	put_disk(hdd.disk);
	blk_mq_free_tag_set(&hdd.set);
	xa_for_each(&hdd.pages, idx, page)
		__free_page(page);
	xa_destroy(&hdd.pages);
}

module_init(hdd_init);
module_exit(hdd_exit);
MODULE_DESCRIPTION("deadline-rb test fixture: a seek-modelled rotating disk");
MODULE_LICENSE("GPL");
