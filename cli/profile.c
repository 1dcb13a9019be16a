// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl profile: set a tunable to each value in turn, run the built-in
 * O_DIRECT workload (workload.c), and print one row per value.  Each
 * value is written and read back through change.c, which also puts the
 * original value back: at the end, on error, and on SIGINT, SIGTERM and
 * SIGHUP (caught here, so they end the run rather than the process).  The
 * lock is held throughout, so no other dlctl changes the tunable under
 * the measurement or after the restore.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"
#include "workload.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* The counters profile reports, each summed over both directions. */
enum { CTR_MERGES, CTR_EXPIRED, CTR_STARVED, CTR_BATCHES, NR_CTRS };

static int read_counters(const char *dev, uint64_t out[NR_CTRS])
{
	struct counter *v;
	size_t n, i;

	if (read_stats(dev, &v, &n))
		return -1;
	memset(out, 0, NR_CTRS * sizeof(out[0]));
	for (i = 0; i < n; i++) {
		uint64_t sum = v[i].v[0] + v[i].v[1];

		if (strncmp(v[i].name, "merged_", 7) == 0)
			out[CTR_MERGES] += sum;
		else if (strcmp(v[i].name, "expired") == 0)
			out[CTR_EXPIRED] += sum;
		else if (strcmp(v[i].name, "starved") == 0)
			out[CTR_STARVED] += sum;
		else if (strcmp(v[i].name, "batches") == 0)
			out[CTR_BATCHES] += sum;
	}
	free(v);
	return 0;
}

/* The "maj:min" of @disk or its partition @part. */
static int read_devno(dev_t *devno, const char *disk, const char *part)
{
	char line[64];
	unsigned int ma, mi;

	if ((part ? sysfs_read(line, sizeof(line), "block/%s/%s/dev", disk, part) :
		    sysfs_read(line, sizeof(line), "block/%s/dev", disk)) ||
	    sscanf(line, "%u:%u", &ma, &mi) != 2)
		return -1;
	*devno = makedev(ma, mi);
	return 0;
}

/* Is @dev (or its partition @part) held by another block device? */
static bool held(const char *dev, const char *part)
{
	char path[4096];
	struct dirent *de;
	DIR *dir;

	if (sysfs_path(path, sizeof(path), "block/%s/%s%sholders", dev,
		       part ? part : "", part ? "/" : ""))
		return false;
	dir = opendir(path);
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		warnx_("%s: %s%sheld by %s; refusing to write to it", dev,
		       part ? part : "", part ? " is " : "", de->d_name);
		closedir(dir);
		return true;
	}
	if (dir)
		closedir(dir);
	return false;
}

/*
 * Before writing to @dev: refuse it if it or one of its partitions is
 * mounted or held by another block device (dm, md).  O_EXCL at open time
 * then catches every other exclusive holder.
 */
static int check_unused(const char *dev)
{
	char path[4096], line[4096];
	dev_t *devs = NULL, *nd;
	struct dirent *de;
	size_t nr = 0, i;
	int ret = -1;
	FILE *f;
	DIR *dir;

	devs = malloc(sizeof(*devs));
	if (!devs)
		return -1;
	if (read_devno(&devs[nr], dev, NULL) == 0)
		nr++;
	if (held(dev, NULL))
		goto out;
	if (!sysfs_path(path, sizeof(path), "block/%s", dev) && (dir = opendir(path))) {
		while ((de = readdir(dir))) {
			if (de->d_name[0] == '.' ||
			    !sysfs_exists("block/%s/%s/partition", dev, de->d_name))
				continue;
			nd = held(dev, de->d_name) ? NULL : realloc(devs, (nr + 1) * sizeof(*devs));
			if (!nd) {
				closedir(dir);
				goto out;
			}
			devs = nd;
			if (read_devno(&devs[nr], dev, de->d_name) == 0)
				nr++;
		}
		closedir(dir);
	}

	/* mountinfo: "36 25 253:1 / /mnt rw ..." */
	ret = 0;
	f = fopen("/proc/self/mountinfo", "re");
	while (f && !ret && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char mnt[1024];

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, mnt) != 3)
			continue;
		for (i = 0; i < nr && !ret; i++) {
			if (devs[i] == makedev(ma, mi)) {
				warnx_("%s: mounted on %s; refusing to write to it", dev, mnt);
				ret = -1;
			}
		}
	}
	if (f)
		fclose(f);
out:
	free(devs);
	return ret;
}

struct profile {
	const char *dev;		/* the queue: its tunables and counters */
	const char *target;		/* where the I/O goes: dev or a partition */
	const struct param *p;
	struct change ch;		/* the tunable: its original, each value */
	struct wl_opts wl;
	int nr_values, cur;
	uint32_t *values;
};

static void profile_tick(void *arg, double elapsed, uint64_t ios)
{
	struct profile *pr = arg;

	fprintf(stderr, "\r\033[Kdlctl: %s: %s=%" PRIu32 " (%d/%d) %4.1f/%.1f s %8" PRIu64 " I/Os",
		pr->dev, pr->p->name, pr->values[pr->cur], pr->cur + 1, pr->nr_values,
		elapsed, pr->wl.runtime, ios);
}

struct row {
	uint32_t value;
	struct wl_result res;
	uint64_t ctr[NR_CTRS];
};

enum {
	C_VALUE, C_DEVICE, C_TARGET, C_PARAMETER, C_ORIGINAL, C_WORKLOAD, C_IODEPTH,
	C_BS, C_SIZE, C_RUNTIME, C_SECONDS, C_DIR0, C_MERGES = C_DIR0 + 12, C_EXPIRED, C_STARVED,
	C_BATCHES, NR_COLS
};
#define PER_DIR 6	/* IOS IOPS MBPS P50_US P99_US MAX_US */

static void profile_cols(struct col *cols)
{
	static const char *const names[] = {
		"VALUE", "DEVICE", "TARGET", "PARAMETER", "ORIGINAL", "WORKLOAD", "IODEPTH",
		"BS", "SIZE", "RUNTIME", "SECONDS",
	};
	static const char *const per_dir[PER_DIR] = {
		"IOS", "IOPS", "MBPS", "P50_US", "P99_US", "MAX_US"
	};
	static const char *const ctrs[] = { "MERGES", "EXPIRED", "STARVED", "BATCHES" };
	int i, d;

	for (i = 0; i < C_DIR0; i++) {
		snprintf(cols[i].name, sizeof(cols[i].name), "%s", names[i]);
		cols[i].type = i == C_VALUE || i == C_ORIGINAL || i >= C_IODEPTH ? COL_NUM : COL_STR;
	}
	for (d = 0; d < 2; d++) {
		for (i = 0; i < PER_DIR; i++) {
			struct col *cl = &cols[C_DIR0 + d * PER_DIR + i];

			snprintf(cl->name, sizeof(cl->name), "%s_%s", d ? "WRITE" : "READ",
				 per_dir[i]);
			cl->type = COL_NUM;
			cl->def = i > 0;
		}
	}
	for (i = 0; i < 4; i++) {
		snprintf(cols[C_MERGES + i].name, sizeof(cols[0].name), "%s", ctrs[i]);
		cols[C_MERGES + i].type = COL_NUM;
		cols[C_MERGES + i].def = i < 3;
	}
	for (i = 0; i < NR_COLS; i++)
		cols[i].right = cols[i].type == COL_NUM;
	cols[C_VALUE].def = true;
}

static int print_rows(struct ctl *c, const struct profile *pr, const struct row *rows, int nr)
{
	const char *orig = pr->ch.old;
	struct col cols[NR_COLS] = { 0 };
	char title[512];
	struct out *t;
	int i, d, k, ret = -1;

	profile_cols(cols);
	t = out_new(&c->out, "profile", cols, NR_COLS, true);
	if (!t)
		return -1;
	snprintf(title, sizeof(title),
		 "%s%s%s: %s, %s, iodepth %u, bs %zu, %.1f s per value (was %s, restored)",
		 pr->target, strcmp(pr->target, pr->dev) ? " on " : "",
		 strcmp(pr->target, pr->dev) ? pr->dev : "", pr->p->name,
		 wl_kind_name(pr->wl.kind), pr->wl.iodepth, pr->wl.bs, pr->wl.runtime, orig);
	out_title(t, title);
	for (i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		double s = r->res.seconds > 0 ? r->res.seconds : 1;

		out_line(t);
		if (out_cellf(t, C_VALUE, "%" PRIu32, r->value) ||
		    out_cell(t, C_DEVICE, pr->dev) || out_cell(t, C_TARGET, pr->target) ||
		    out_cell(t, C_PARAMETER, pr->p->name) || out_cell(t, C_ORIGINAL, orig) ||
		    out_cell(t, C_WORKLOAD, wl_kind_name(pr->wl.kind)) ||
		    out_cellf(t, C_IODEPTH, "%u", pr->wl.iodepth) ||
		    out_cellf(t, C_BS, "%zu", pr->wl.bs) ||
		    out_cellf(t, C_SIZE, "%" PRIu64, pr->wl.size) ||
		    out_cellf(t, C_RUNTIME, "%.3f", pr->wl.runtime) ||
		    out_cellf(t, C_SECONDS, "%.3f", r->res.seconds))
			goto out;
		for (d = 0; d < 2; d++) {
			const struct lat_hist *h = &r->res.lat[d];
			int c0 = C_DIR0 + d * PER_DIR;

			if (out_cellf(t, c0, "%" PRIu64, r->res.ios[d]) ||
			    out_cellf(t, c0 + 1, "%.0f", (double)r->res.ios[d] / s) ||
			    out_cellf(t, c0 + 2, "%.2f", (double)r->res.bytes[d] / s / 1e6) ||
			    out_cellf(t, c0 + 3, "%.1f", lat_percentile(h, 0.50) / 1000.0) ||
			    out_cellf(t, c0 + 4, "%.1f", lat_percentile(h, 0.99) / 1000.0) ||
			    out_cellf(t, c0 + 5, "%.1f", h->max_ns / 1000.0))
				goto out;
		}
		for (k = 0; k < NR_CTRS; k++)
			if (out_cellf(t, C_MERGES + k, "%" PRIu64, r->ctr[k]))
				goto out;
	}
	ret = out_print(t, c->out_f);
out:
	out_free(t);
	return ret;
}

/* Split "1,16,64" and "1 16 64" alike into values checked against the range. */
static int parse_values(const struct param *p, int argc, char **argv,
			uint32_t **values, int *nr)
{
	int i, n = 0, max = 0, ret = 0;
	char *s, *tok, *save;

	for (i = 0; i < argc; i++)
		for (s = argv[i], max++; *s; s++)
			max += *s == ',';
	*values = calloc(max, sizeof(**values));
	if (!*values) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < argc && !ret; i++) {
		for (tok = strtok_r(argv[i], ",", &save); tok && !ret;
		     tok = strtok_r(NULL, ",", &save))
			ret = parse_value(p, tok, &(*values)[n++]);
	}
	if (!ret && !n) {
		warnx_("%s: no values to profile", p->name);
		ret = -1;
	}
	*nr = n;
	return ret;
}

/* Profile's options, parsed by main() with the rest: values checked here. */
static int parse_opts(struct ctl *c, struct profile *pr, uint64_t *size)
{
	uint64_t v, dur = 0;
	const char *why;
	int k;

	if (c->workload) {
		k = wl_kind_parse(c->workload);
		if (k < 0) {
			warnx_("--workload: '%s': not one of %s", esc(c->workload), wl_kind_list());
			return -1;
		}
		pr->wl.kind = k;
	}
	if (c->runtime || c->duration) {
		const char *s = c->runtime ? c->runtime : c->duration;

		why = parse_num(s, NUM_SECONDS, &v);
		if (!why && (!v || v > 86400000))
			why = "out of range (1ms..1 day)";
		if (why) {
			warnx_("--%s: '%s': %s", c->runtime ? "runtime-per-value" : "duration",
			       esc(s), why);
			return -1;
		}
		pr->wl.runtime = v / 1000.0;
		dur = c->duration ? v : 0;
	}
	if (c->iodepth) {
		why = parse_num(c->iodepth, NUM_PLAIN, &v);
		if (why || !v || v > 1024) {
			warnx_("--iodepth: '%s': %s", esc(c->iodepth), why ? why : "out of range (1..1024)");
			return -1;
		}
		pr->wl.iodepth = v;
	}
	if (c->bs) {
		why = parse_num(c->bs, NUM_SIZE, &v);
		if (why || !v || v % 4096 || v > 16 << 20) {
			warnx_("--bs: '%s': %s", esc(c->bs), why ? why : "not a multiple of 4k up to 16M");
			return -1;
		}
		pr->wl.bs = v;
	}
	if (c->size) {
		why = parse_num(c->size, NUM_SIZE, &v);
		if (why || !v) {
			warnx_("--size: '%s': %s", esc(c->size), why ? why : "out of range");
			return -1;
		}
		*size = v;
	}
	if (dur)
		pr->wl.runtime = dur / 1000.0 / pr->nr_values;
	if (wl_kind_writes(pr->wl.kind) && !c->allow_write) {
		warnx_("the %s workload writes to the device and destroys its data; "
		       "add --allow-write to do that", wl_kind_name(pr->wl.kind));
		return -1;
	}
	return 0;
}

/* Run every value; rows[] gets one per completed value. */
static int run_values(struct profile *pr, struct row *rows, int *nr_rows, const char *node)
{
	uint64_t before[NR_CTRS], after[NR_CTRS];
	int i, k, ret;

	if (read_counters(pr->dev, before))
		return -1;
	for (i = 0; i < pr->nr_values && !interrupted; i++) {
		snprintf(pr->ch.new, sizeof(pr->ch.new), "%" PRIu32, pr->values[i]);
		pr->cur = i;
		/* refused, or read back otherwise: the original is put back */
		if (change_apply(&pr->ch, 1))
			return -1;
		ret = wl_run(&pr->wl, &rows[i].res, &interrupted);
		if (pr->wl.tick)
			fputs("\r\033[K", stderr);
		if (ret) {
			warnx_("%s: %s", node, strerror(-ret));
			return -1;
		}
		if (read_counters(pr->dev, after))
			return -1;
		rows[i].value = pr->values[i];
		for (k = 0; k < NR_CTRS; k++) {
			rows[i].ctr[k] = after[k] - before[k];
			before[k] = after[k];	/* the next run starts here */
		}
		if (!interrupted)
			(*nr_rows)++;
	}
	return 0;
}

int cmd_profile(struct ctl *c, int argc, char **argv)
{
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct profile pr = { .wl = { .kind = WL_RANDREAD, .iodepth = 16, .bs = 4096,
				      .runtime = 5 } };
	uint64_t size = 0, sectors;
	char line[64], node[4096];
	struct sigaction sa, old_sa[3];
	struct row *rows = NULL;
	int ret = 1, k, nr_rows = 0, fd = -1;
	const struct dev *d;

	if (c->runtime && c->duration)
		return usage_error("give --duration or --runtime-per-value, not both");
	if (argc < 2)
		return usage_error("profile takes a parameter name and values");
	pr.p = find_param(argv[0]);
	if (!pr.p)
		return usage_error("unknown parameter '%s'", esc(argv[0]));
	if (c->nr_devargs > 1)
		return usage_error("profile runs on one device; give -d once");
	if (parse_values(pr.p, argc - 1, argv + 1, &pr.values, &pr.nr_values) ||
	    parse_opts(c, &pr, &size) || take_lock() ||
	    select_dlrb(&c->devs, c->explicit, false))
		goto out;
	if (c->devs.n != 1) {
		warnx_("profile runs on one device, and %zu run " SCHED
		       "; choose one with -d DEV", c->devs.n);
		goto out;
	}
	/* -d /dev/sdb1: the tunables are sdb's, the I/O goes to sdb1 only */
	d = &c->devs.v[0];
	pr.dev = d->disk;
	pr.target = d->part ? d->part : d->disk;
	for (k = 0; k < pr.nr_values; k++)
		if (param_check_dev(pr.p, pr.dev, pr.values[k]))
			goto out;
	if (change_prepare(&pr.ch, pr.dev, pr.p->name))
		goto out;
	if (wl_kind_writes(pr.wl.kind) && check_unused(pr.dev))
		goto out;
	if ((d->part ? sysfs_read(line, sizeof(line), "block/%s/%s/size", pr.dev, d->part) :
		       sysfs_read(line, sizeof(line), "block/%s/size", pr.dev)) ||
	    parse_num(line, NUM_PLAIN, &sectors) || !sectors || sectors > UINT64_MAX / 512) {
		warnx_("%s: cannot read its size", pr.target);
		goto out;
	}
	pr.wl.size = size && size < sectors * 512 ? size : sectors * 512;
	if (pr.wl.size < pr.wl.bs) {
		warnx_("%s: smaller than one block of %zu bytes", pr.target, pr.wl.bs);
		goto out;
	}

	/* the path given with -d, else the node of the kernel name */
	if (d->node)
		snprintf(node, sizeof(node), "%s", d->node);
	else
		snprintf(node, sizeof(node), "%s/%s", dev_dir(), pr.target);
	fd = open(node, O_DIRECT | O_CLOEXEC |
		  (wl_kind_writes(pr.wl.kind) ? O_RDWR | O_EXCL : O_RDONLY));
	if (fd < 0) {
		warnx_("%s: %s%s", esc(node), strerror(errno), errno == EBUSY ?
		       " (mounted or open exclusively elsewhere); refusing to write to it" : "");
		goto out;
	}
	pr.wl.fd = fd;
	rows = calloc(pr.nr_values, sizeof(*rows));
	if (!rows) {
		warnx_("%s", strerror(ENOMEM));
		goto out;
	}
	if (isatty(STDERR_FILENO)) {
		pr.wl.tick = profile_tick;
		pr.wl.tick_arg = &pr;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &sa, &old_sa[k]);
	ret = run_values(&pr, rows, &nr_rows, node) ? 1 : 0;

	/* Always put the original value back (still catching the signals). */
	if (change_undo(&pr.ch, 1))
		ret = 1;
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &old_sa[k], NULL);
	if (interrupted) {
		warnx_("%s: interrupted by %s; %s restored to %s", pr.dev,
		       strsignal(interrupted), pr.p->name, pr.ch.old);
		ret = 1;
	}
	if (!ret && print_rows(c, &pr, rows, nr_rows))
		ret = 1;
out:
	if (fd >= 0)
		close(fd);
	free(rows);
	free(pr.values);
	return ret;
}
