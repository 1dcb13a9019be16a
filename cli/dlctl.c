// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: read, set and reset the deadline-rb I/O scheduler's tunables,
 * switch devices to and from it, show its counters, and profile what a
 * tunable does under a built-in workload (workload.c).
 *
 *   dlctl [-d DEV]... [--json] [--sysfs-root DIR] COMMAND [ARGS]
 *
 * Exit status: 0 ok, 1 failure, 2 usage.  A failed command prints nothing
 * on stdout and leaves every tunable as it was.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include "sysfs.h"
#include "workload.h"

/* CHANGELOG's newest release, passed in by the Makefile (scripts/version.sh). */
#ifndef DLCTL_VERSION
#error "build dlctl through the top-level Makefile, which passes DLCTL_VERSION"
#endif

#define SCHED		"deadline-rb"
#define EXIT_USAGE	2
#define MAX_DEVS	256
#define NAME_LEN	64

/* The tunables, with the kernel's ranges (kernel/dlrb-engine.h). */
enum unit { UNIT_NONE, UNIT_MS, UNIT_BOOL };

struct param {
	const char *name;
	enum unit unit;
	uint32_t def, min, max;
	const char *desc;
};

static const struct param params[] = {
	{ "read_expire", UNIT_MS, 500, 1, 600000, "ms a read should start within" },
	{ "write_expire", UNIT_MS, 5000, 1, 600000, "ms a write should start within" },
	{ "writes_starved", UNIT_NONE, 2, 0, 1000, "read batches while writes wait" },
	{ "fifo_batch", UNIT_NONE, 32, 1, 65536, "cost units per batch" },
	{ "seek_cost", UNIT_NONE, 16, 1, 65536, "cost units of a seek" },
	{ "hash_shift", UNIT_NONE, 10, 4, 20, "log2 of back-merge hash buckets" },
	{ "front_merges", UNIT_BOOL, 1, 0, 1, "look up front merges" },
};
#define NR_PARAMS (sizeof(params) / sizeof(params[0]))

struct ctl {
	char devs[MAX_DEVS][NAME_LEN];	/* the queues to act on */
	int nr_devs;
	bool explicit;			/* chosen with -d */
	const char *first_devarg;	/* the first -d as given, for profile */
	bool json;
	FILE *out;			/* buffered: printed only on success */
	char *outbuf;
	size_t outlen;
};

/*
 * messages: "dlctl: vda: fifo_batch: Invalid argument" on stderr
 */
static void vmessage(const char *fmt, va_list ap, const char *tail)
{
	fputs("dlctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

static void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, "\n");
	va_end(ap);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, "\nTry 'dlctl --help' for more information.\n");
	va_end(ap);
	return EXIT_USAGE;
}

static void usage(void)
{
	size_t i;

	fputs("Usage:\n"
	      " dlctl [options] <command> [<args>]\n"
	      "\n"
	      "Read and set the deadline-rb I/O scheduler's tunables.\n"
	      "\n"
	      "Commands:\n"
	      " show                 every block device, its scheduler, deadline-rb's tunables\n"
	      " get <param>          one tunable\n"
	      " set <param> <value>  set one tunable (all devices or none)\n"
	      " reset                every tunable back to its default\n"
	      " enable               switch the devices to deadline-rb (loads the module)\n"
	      " disable              switch the devices to the kernel's default scheduler\n"
	      " stats                the scheduler's counters (needs debugfs)\n"
	      " profile <param> <values> [options]\n"
	      "                      run a workload at each value, one row per value\n"
	      "\n"
	      "Options:\n"
	      " -d, --device <dev>   act on this device (vda, /dev/vda, /dev/vda1); repeatable;\n"
	      "                      default: every device running deadline-rb\n"
	      " -j, --json           JSON output for show, get, stats and profile\n"
	      "     --sysfs-root <dir>  read sysfs from <dir> instead of /sys\n"
	      " -h, --help           display this help\n"
	      " -V, --version        display version\n"
	      "\n"
	      "Profile options:\n"
	      " -w, --workload <name> randread (default), randwrite, randrw, seqread,\n"
	      "                      seqwrite, seqwrite+randread\n"
	      "     --runtime-per-value <time>  time per value (default 5s)\n"
	      "     --duration <time>  total time, split evenly over the values\n"
	      " -q, --iodepth <n>    I/O threads, one I/O each in flight (default 16)\n"
	      " -b, --bs <size>      bytes per I/O, a multiple of 4k (default 4k)\n"
	      "     --size <size>    use only the first <size> bytes of the device\n"
	      "     --allow-write    let write workloads destroy the device's data\n"
	      "     --csv            comma-separated values instead of a table\n"
	      "\n"
	      "Parameters:\n", stdout);
	for (i = 0; i < NR_PARAMS; i++)
		printf(" %-15s %s (default %" PRIu32 ", %" PRIu32 "..%" PRIu32 ")\n",
		       params[i].name, params[i].desc, params[i].def,
		       params[i].min, params[i].max);
	fputs("\nFor more details see dlctl(8).\n", stdout);
}

static const struct param *find_param(const char *name)
{
	size_t i;

	for (i = 0; i < NR_PARAMS; i++)
		if (strcmp(params[i].name, name) == 0)
			return &params[i];
	return NULL;
}

/*
 * Parse a value for @p as the kernel will accept it.  Expiry times take a
 * unit (250ms, 2s; bare numbers are ms), front_merges takes on/off too.
 * Returns 0, or an error text.
 */
static const char *parse_value(const struct param *p, const char *s, uint32_t *val)
{
	unsigned long long v = 0;
	const char *end = s;
	unsigned long long scale = 1;

	if (p->unit == UNIT_BOOL) {
		static const char *const on[] = { "1", "on", "yes", "true" };
		static const char *const off[] = { "0", "off", "no", "false" };
		size_t i;

		for (i = 0; i < 4; i++) {
			if (strcasecmp(s, on[i]) == 0) {
				*val = 1;
				return NULL;
			}
			if (strcasecmp(s, off[i]) == 0) {
				*val = 0;
				return NULL;
			}
		}
		return "not a boolean (0, 1, on, off)";
	}
	if (!isdigit((unsigned char)*s))
		return "not a decimal number";
	for (end = s; isdigit((unsigned char)*end); end++) {
		if (v > (ULLONG_MAX - 9) / 10)
			return "out of range";
		v = v * 10 + (*end - '0');
	}
	if (p->unit == UNIT_MS && strcmp(end, "s") == 0)
		scale = 1000;
	else if (!(p->unit == UNIT_MS && strcmp(end, "ms") == 0) && *end)
		return p->unit == UNIT_MS ? "not a time (like 250, 250ms, 2s)" :
					    "not a decimal number";
	if (v > UINT32_MAX / scale)
		return "out of range";
	v *= scale;
	if (v < p->min || v > p->max)
		return "out of range";
	*val = (uint32_t)v;
	return NULL;
}

/* Copy at most @size - 1 bytes of @src, always terminated. */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * devices
 */

/* The active scheduler of @dev (the bracketed name), or "" if none. */
static int active_sched(const char *dev, char *buf, size_t size)
{
	char line[512], *l, *r;
	int ret;

	ret = sysfs_read(line, sizeof(line), "block/%s/queue/scheduler", dev);
	if (ret)
		return ret;
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!l || !r) {
		copy_str(buf, size, line[0] ? line : "none");
		return 0;
	}
	*r = '\0';
	copy_str(buf, size, l + 1);
	return 0;
}

static bool runs_dlrb(const char *dev)
{
	char s[NAME_LEN];

	return active_sched(dev, s, sizeof(s)) == 0 && strcmp(s, SCHED) == 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every disk under ROOT/block, sorted; returns the count or -errno. */
static int list_disks(char names[][NAME_LEN], int max)
{
	char path[4096], *ptrs[MAX_DEVS], tmp[MAX_DEVS][NAME_LEN];
	struct dirent *de;
	DIR *dir;
	int n = 0, i;

	if (sysfs_path(path, sizeof(path), "block"))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && n < max) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= NAME_LEN)
			continue;
		copy_str(tmp[n], NAME_LEN, de->d_name);
		ptrs[n] = tmp[n];
		n++;
	}
	closedir(dir);
	qsort(ptrs, n, sizeof(ptrs[0]), name_cmp);
	for (i = 0; i < n; i++)
		copy_str(names[i], NAME_LEN, ptrs[i]);
	return n;
}

/*
 * Resolve vda, /dev/vda or a partition (/dev/vda1 means vda) to a disk
 * with a request queue.  Returns 0 or prints why not and returns -1.
 */
static int resolve_dev(const char *arg, char *disk)
{
	char disks[MAX_DEVS][NAME_LEN];
	const char *name = arg;
	int n, i;

	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	if (!*name || strchr(name, '/') || strlen(name) >= NAME_LEN) {
		warnx_("%s: not a block device name", arg);
		return -1;
	}
	if (sysfs_exists("block/%s/queue", name)) {
		copy_str(disk, NAME_LEN, name);
		return 0;
	}
	n = list_disks(disks, MAX_DEVS);
	for (i = 0; i < n; i++) {
		if (sysfs_exists("block/%s/%s/partition", disks[i], name)) {
			copy_str(disk, NAME_LEN, disks[i]);
			return 0;
		}
	}
	warnx_("%s: no such block device", arg);
	return -1;
}

static int add_dev(struct ctl *c, const char *disk)
{
	int i;

	for (i = 0; i < c->nr_devs; i++)
		if (strcmp(c->devs[i], disk) == 0)
			return 0;
	if (c->nr_devs == MAX_DEVS) {
		warnx_("too many devices (at most %d)", MAX_DEVS);
		return -1;
	}
	copy_str(c->devs[c->nr_devs++], NAME_LEN, disk);
	return 0;
}

/* Without -d: every queue running deadline-rb; none is an error. */
static int default_devs(struct ctl *c)
{
	char disks[MAX_DEVS][NAME_LEN];
	int n, i;

	if (c->explicit)
		return 0;
	n = list_disks(disks, MAX_DEVS);
	if (n < 0) {
		warnx_("%s/block: %s", sysfs_root(), strerror(-n));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (runs_dlrb(disks[i]) && add_dev(c, disks[i]))
			return -1;
	if (!c->nr_devs) {
		warnx_("no device runs " SCHED "; enable it with 'dlctl -d DEV enable'");
		return -1;
	}
	return 0;
}

/* With -d: each named device must run deadline-rb for get/set/reset/stats. */
static int check_devs_run_dlrb(struct ctl *c)
{
	int i, bad = 0;

	for (i = 0; i < c->nr_devs; i++) {
		if (!runs_dlrb(c->devs[i])) {
			warnx_("%s: does not run " SCHED "; enable it with 'dlctl -d %s enable'",
			       c->devs[i], c->devs[i]);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static int read_param(const char *dev, const struct param *p, char *buf, size_t size)
{
	int ret = sysfs_read(buf, size, "block/%s/queue/iosched/%s", dev, p->name);

	if (ret)
		warnx_("%s: %s: %s", dev, p->name, strerror(-ret));
	return ret;
}

/*
 * JSON: just what dlctl prints, strings here are device and parameter
 * names and kernel words, escaped all the same.
 */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* A tunable's value as JSON: a number if it is one, else a string. */
static void json_value(FILE *f, const char *v)
{
	const char *p = v;

	while (isdigit((unsigned char)*p))
		p++;
	if (*v && !*p && (v[0] != '0' || !v[1]))
		fputs(v, f);
	else
		json_str(f, v);
}

/*
 * commands
 */
static int cmd_show(struct ctl *c, int argc, char **argv)
{
	char disks[MAX_DEVS][NAME_LEN], sched[NAME_LEN], val[64];
	int n, i;
	size_t k;

	(void)argv;
	if (argc)
		return usage_error("show takes no arguments");
	if (c->explicit) {
		n = c->nr_devs;
		for (i = 0; i < n; i++)
			copy_str(disks[i], NAME_LEN, c->devs[i]);
	} else {
		n = list_disks(disks, MAX_DEVS);
		if (n < 0) {
			warnx_("%s/block: %s", sysfs_root(), strerror(-n));
			return 1;
		}
	}

	if (c->json)
		fputs("{\"devices\":[", c->out);
	else
		fprintf(c->out, "%-10s %-12s %s\n", "DEVICE", "SCHEDULER", "TUNABLES");
	for (i = 0; i < n; i++) {
		int ret = active_sched(disks[i], sched, sizeof(sched));
		bool dl;

		if (ret) {
			warnx_("%s: scheduler: %s", disks[i], strerror(-ret));
			return 1;
		}
		dl = strcmp(sched, SCHED) == 0;
		if (c->json) {
			fprintf(c->out, "%s{\"name\":", i ? "," : "");
			json_str(c->out, disks[i]);
			fputs(",\"scheduler\":", c->out);
			json_str(c->out, sched);
			fputs(",\"tunables\":", c->out);
			fputs(dl ? "{" : "null", c->out);
		} else {
			fprintf(c->out, "%-10s %-12s", disks[i], sched);
		}
		for (k = 0; dl && k < NR_PARAMS; k++) {
			if (read_param(disks[i], &params[k], val, sizeof(val)))
				return 1;
			if (c->json) {
				fprintf(c->out, "%s\"%s\":", k ? "," : "", params[k].name);
				json_value(c->out, val);
			} else {
				fprintf(c->out, " %s=%s", params[k].name, val);
			}
		}
		if (c->json)
			fputs(dl ? "}}" : "}", c->out);
		else
			fputc('\n', c->out);
	}
	if (c->json)
		fputs("]}\n", c->out);
	return 0;
}

static int cmd_get(struct ctl *c, int argc, char **argv)
{
	const struct param *p;
	char val[64];
	int i;

	if (argc != 1)
		return usage_error("get takes one parameter name");
	p = find_param(argv[0]);
	if (!p)
		return usage_error("unknown parameter '%s'", argv[0]);
	if (default_devs(c) || check_devs_run_dlrb(c))
		return 1;

	if (c->json) {
		fputs("{\"parameter\":", c->out);
		json_str(c->out, p->name);
		fputs(",\"devices\":[", c->out);
	}
	for (i = 0; i < c->nr_devs; i++) {
		if (read_param(c->devs[i], p, val, sizeof(val)))
			return 1;
		if (c->json) {
			fprintf(c->out, "%s{\"name\":", i ? "," : "");
			json_str(c->out, c->devs[i]);
			fputs(",\"value\":", c->out);
			json_value(c->out, val);
			fputc('}', c->out);
		} else {
			fprintf(c->out, "%s.%s = %s\n", c->devs[i], p->name, val);
		}
	}
	if (c->json)
		fputs("]}\n", c->out);
	return 0;
}

/*
 * One tunable on one device: what it was and what it becomes.  A change
 * is applied to every device or to none: on the first refusal, what was
 * already changed is put back and the command fails.
 */
struct change {
	const char *dev;
	const struct param *p;
	char old[64];
	char new[64];
};

static int apply(struct change *ch, int nr)
{
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = sysfs_write(ch[i].new, "block/%s/queue/iosched/%s", ch[i].dev,
				  ch[i].p->name);
		if (ret) {
			warnx_("%s: %s: %s", ch[i].dev, ch[i].p->name, strerror(-ret));
			break;
		}
	}
	if (i == nr)
		return 0;
	while (--i >= 0) {
		ret = sysfs_write(ch[i].old, "block/%s/queue/iosched/%s", ch[i].dev,
				  ch[i].p->name);
		if (ret)
			warnx_("%s: %s: cannot restore %s: %s", ch[i].dev,
			       ch[i].p->name, ch[i].old, strerror(-ret));
	}
	return 1;
}

/* Set @ps to @vals on every device, recording the old values first. */
static int change_all(struct ctl *c, const struct param *const *ps,
		      const uint32_t *vals, int nr_ps)
{
	int nr = c->nr_devs * nr_ps, i, ret;
	struct change *ch = calloc(nr, sizeof(*ch));

	if (!ch) {
		warnx_("%s", strerror(ENOMEM));
		return 1;
	}
	for (i = 0; i < nr; i++) {
		ch[i].dev = c->devs[i / nr_ps];
		ch[i].p = ps[i % nr_ps];
		snprintf(ch[i].new, sizeof(ch[i].new), "%" PRIu32, vals[i % nr_ps]);
		if (read_param(ch[i].dev, ch[i].p, ch[i].old, sizeof(ch[i].old))) {
			free(ch);
			return 1;
		}
	}
	ret = apply(ch, nr);
	for (i = 0; !ret && i < nr; i++)
		fprintf(c->out, "%s.%s = %s\n", ch[i].dev, ch[i].p->name, ch[i].new);
	free(ch);
	return ret;
}

static int cmd_set(struct ctl *c, int argc, char **argv)
{
	const struct param *p;
	const char *why;
	uint32_t val;

	if (argc != 2)
		return usage_error("set takes a parameter name and a value");
	p = find_param(argv[0]);
	if (!p)
		return usage_error("unknown parameter '%s'", argv[0]);
	why = parse_value(p, argv[1], &val);
	if (why) {
		warnx_("%s: '%s': %s (%" PRIu32 "..%" PRIu32 ")", p->name, argv[1], why,
		       p->min, p->max);
		return 1;
	}
	if (default_devs(c) || check_devs_run_dlrb(c))
		return 1;
	return change_all(c, &p, &val, 1);
}

static int cmd_reset(struct ctl *c, int argc, char **argv)
{
	const struct param *ps[NR_PARAMS];
	uint32_t vals[NR_PARAMS];
	size_t k;

	(void)argv;
	if (argc)
		return usage_error("reset takes no arguments");
	if (default_devs(c) || check_devs_run_dlrb(c))
		return 1;
	for (k = 0; k < NR_PARAMS; k++) {
		ps[k] = &params[k];
		vals[k] = params[k].def;
	}
	return change_all(c, ps, vals, NR_PARAMS);
}

/*
 * enable / disable: switch schedulers, all devices or none
 */

/* The kernel's own choice (elevator_get_default()): mq-deadline for a
 * single hardware queue when it is available, none otherwise.
 */
static void default_sched(const char *dev, char *buf, size_t size)
{
	char path[4096], line[512];
	struct dirent *de;
	int hwq = 0;
	DIR *dir;

	if (!sysfs_path(path, sizeof(path), "block/%s/mq", dev) && (dir = opendir(path))) {
		while ((de = readdir(dir)))
			hwq += de->d_name[0] != '.';
		closedir(dir);
	}
	snprintf(buf, size, "none");
	if (hwq != 1 || sysfs_read(line, sizeof(line), "block/%s/queue/scheduler", dev))
		return;
	for (char *t = strtok(line, " []"); t; t = strtok(NULL, " []"))
		if (strcmp(t, "mq-deadline") == 0)
			snprintf(buf, size, "mq-deadline");
}

static int switch_all(struct ctl *c, bool enable)
{
	char old[MAX_DEVS][NAME_LEN], want[NAME_LEN], now[NAME_LEN];
	int i, ret, bad = -1;

	if (!c->explicit)
		return usage_error("%s needs the devices: dlctl -d DEV %s",
				   enable ? "enable" : "disable", enable ? "enable" : "disable");
	for (i = 0; i < c->nr_devs; i++) {
		ret = active_sched(c->devs[i], old[i], NAME_LEN);
		if (ret) {
			warnx_("%s: scheduler: %s", c->devs[i], strerror(-ret));
			return 1;
		}
	}
	for (i = 0; i < c->nr_devs && bad < 0; i++) {
		if (enable)
			snprintf(want, sizeof(want), SCHED);
		else
			default_sched(c->devs[i], want, sizeof(want));
		ret = sysfs_write(want, "block/%s/queue/scheduler", c->devs[i]);
		if (!ret && (active_sched(c->devs[i], now, sizeof(now)) || strcmp(now, want)))
			ret = -EINVAL;
		if (ret) {
			warnx_("%s: cannot switch to %s: %s%s", c->devs[i], want, strerror(-ret),
			       enable && ret == -EINVAL ? " (is the module installed?)" : "");
			bad = i;
		}
	}
	if (bad < 0) {
		for (i = 0; i < c->nr_devs; i++) {
			active_sched(c->devs[i], now, sizeof(now));
			fprintf(c->out, "%s: %s -> %s\n", c->devs[i], old[i], now);
		}
		return 0;
	}
	for (i = bad - 1; i >= 0; i--)
		if (sysfs_write(old[i], "block/%s/queue/scheduler", c->devs[i]))
			warnx_("%s: cannot switch back to %s", c->devs[i], old[i]);
	return 1;
}

static int cmd_enable(struct ctl *c, int argc, char **argv)
{
	(void)argv;
	if (argc)
		return usage_error("enable takes no arguments");
	return switch_all(c, true);
}

static int cmd_disable(struct ctl *c, int argc, char **argv)
{
	(void)argv;
	if (argc)
		return usage_error("disable takes no arguments");
	return switch_all(c, false);
}

/* debugfs sched/stats: "name read write" per line; path gets its name. */
static FILE *open_stats(const char *dev, char *path, size_t size)
{
	FILE *f = NULL;

	if (sysfs_path(path, size, "kernel/debug/block/%s/sched/stats", dev) ||
	    !(f = fopen(path, "r")))
		warnx_("%s: %s: %s (is debugfs mounted, and are you root?)", dev, path,
		       strerror(errno));
	return f;
}

static int cmd_stats(struct ctl *c, int argc, char **argv)
{
	char path[4096], name[64];
	unsigned long long r, w;
	int i, n;

	(void)argv;
	if (argc)
		return usage_error("stats takes no arguments");
	if (default_devs(c) || check_devs_run_dlrb(c))
		return 1;
	if (c->json)
		fputs("{\"devices\":[", c->out);
	for (i = 0; i < c->nr_devs; i++) {
		FILE *f = open_stats(c->devs[i], path, sizeof(path));

		if (!f)
			return 1;
		if (c->json) {
			fprintf(c->out, "%s{\"name\":", i ? "," : "");
			json_str(c->out, c->devs[i]);
			fputs(",\"stats\":{", c->out);
		} else {
			fprintf(c->out, "%s%-14s %12s %12s\n", i ? "\n" : "", c->devs[i],
				"read", "write");
		}
		n = 0;
		while (fscanf(f, "%63s %llu %llu", name, &r, &w) == 3) {
			if (c->json)
				fprintf(c->out, "%s\"%s\":{\"read\":%llu,\"write\":%llu}",
					n ? "," : "", name, r, w);
			else
				fprintf(c->out, "%-14s %12llu %12llu\n", name, r, w);
			n++;
		}
		fclose(f);
		if (!n) {
			warnx_("%s: %s: no counters", c->devs[i], path);
			return 1;
		}
		if (c->json)
			fputs("}}", c->out);
	}
	if (c->json)
		fputs("]}\n", c->out);
	return 0;
}

/*
 * profile: set a tunable to each value in turn, run a built-in O_DIRECT
 * workload, and print one row per value.  The original value is put back
 * at the end, on error and on SIGINT/SIGTERM/SIGHUP.
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* "5", "5s", "500ms", "2m": seconds; 0 < t <= 1 day. */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtod(s, &end);
	if (errno)
		return -1;
	if (strcmp(end, "ms") == 0)
		v /= 1000;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		v *= 60;
	else if (*end && strcmp(end, "s") != 0)
		return -1;
	if (!(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

/* "4096", "4k", "1M", "2G" (binary multiples): bytes. */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (*end && end[1] && strcasecmp(end + 1, "ib") && strcasecmp(end + 1, "b"))
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* The counters profile reports, each summed over both directions. */
enum { CTR_MERGES, CTR_EXPIRED, CTR_STARVED, CTR_BATCHES, NR_CTRS };

static int read_counters(const char *dev, unsigned long long out[NR_CTRS])
{
	char path[4096], name[64];
	unsigned long long r, w;
	int n = 0;
	FILE *f;

	memset(out, 0, NR_CTRS * sizeof(out[0]));
	f = open_stats(dev, path, sizeof(path));
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu %llu", name, &r, &w) == 3) {
		if (strncmp(name, "merged_", 7) == 0)
			out[CTR_MERGES] += r + w;
		else if (strcmp(name, "expired") == 0)
			out[CTR_EXPIRED] += r + w;
		else if (strcmp(name, "starved") == 0)
			out[CTR_STARVED] += r + w;
		else if (strcmp(name, "batches") == 0)
			out[CTR_BATCHES] += r + w;
		n++;
	}
	fclose(f);
	if (!n) {
		warnx_("%s: %s: no counters", dev, path);
		return -1;
	}
	return 0;
}

/* ROOT/block/<disk>/<attr>, or of its partition <part> if not NULL. */
static int read_disk_attr(char *buf, size_t size, const char *disk, const char *part,
			  const char *attr)
{
	if (part)
		return sysfs_read(buf, size, "block/%s/%s/%s", disk, part, attr);
	return sysfs_read(buf, size, "block/%s/%s", disk, attr);
}

/* The "maj:min" of @disk or its partition @part. */
static int read_devno(dev_t *devno, const char *disk, const char *part)
{
	char line[64];
	unsigned int ma, mi;

	if (read_disk_attr(line, sizeof(line), disk, part, "dev") ||
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
	dev_t devs[MAX_DEVS];
	struct dirent *de;
	int nr = 0, i;
	FILE *f;
	DIR *dir;

	if (read_devno(&devs[nr], dev, NULL) == 0)
		nr++;
	if (!sysfs_path(path, sizeof(path), "block/%s", dev) && (dir = opendir(path))) {
		while ((de = readdir(dir)) && nr < MAX_DEVS) {
			if (de->d_name[0] == '.' ||
			    !sysfs_exists("block/%s/%s/partition", dev, de->d_name))
				continue;
			if (held(dev, de->d_name)) {
				closedir(dir);
				return -1;
			}
			if (read_devno(&devs[nr], dev, de->d_name) == 0)
				nr++;
		}
		closedir(dir);
	}
	if (held(dev, NULL))
		return -1;

	/* mountinfo: "36 25 253:1 / /mnt rw ..." */
	f = fopen("/proc/self/mountinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int ma, mi;
		char mnt[1024];

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, mnt) != 3)
			continue;
		for (i = 0; i < nr; i++) {
			if (devs[i] == makedev(ma, mi)) {
				warnx_("%s: mounted on %s; refusing to write to it", dev, mnt);
				fclose(f);
				return -1;
			}
		}
	}
	if (f)
		fclose(f);
	return 0;
}

/* Device nodes: /dev, or DLCTL_DEV_DIR for tests against a fake tree. */
static const char *dev_dir(void)
{
	const char *d = getenv("DLCTL_DEV_DIR");

	return d && *d ? d : "/dev";
}

struct profile {
	const char *dev;		/* the queue: its tunables and counters */
	char target[NAME_LEN];		/* where the I/O goes: dev or a partition */
	const struct param *p;
	struct wl_opts wl;
	int nr_values, cur;
	uint32_t *values;
	bool progress;
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
	unsigned long long ctr[NR_CTRS];
};

static double iops(const struct row *r, int dir)
{
	return r->res.seconds > 0 ? (double)r->res.ios[dir] / r->res.seconds : 0;
}

static double mbps(const struct row *r, int dir)
{
	return r->res.seconds > 0 ? (double)r->res.bytes[dir] / r->res.seconds / 1e6 : 0;
}

static double lat_us(const struct row *r, int dir, double p)
{
	const struct lat_hist *h = &r->res.lat[dir];

	return (double)(p >= 1 ? h->max_ns : lat_percentile(h, p)) / 1000;
}

static const double pcts[3] = { 0.50, 0.99, 1 };

enum fmt { FMT_TABLE, FMT_JSON, FMT_CSV };

static void print_rows(FILE *out, enum fmt fmt, const struct profile *pr,
		       const struct row *rows, int nr, const char *orig)
{
	static const char *const dirs[2] = { "read", "write" };
	int i, d, k;

	if (fmt == FMT_JSON) {
		fputs("{\"device\":", out);
		json_str(out, pr->dev);
		fputs(",\"target\":", out);
		json_str(out, pr->target);
		fputs(",\"parameter\":", out);
		json_str(out, pr->p->name);
		fputs(",\"original\":", out);
		json_value(out, orig);
		fputs(",\"workload\":", out);
		json_str(out, wl_kind_name(pr->wl.kind));
		fprintf(out, ",\"iodepth\":%u,\"bs\":%zu,\"size\":%" PRIu64
			",\"runtime_per_value\":%.3f,\"rows\":[",
			pr->wl.iodepth, pr->wl.bs, pr->wl.size, pr->wl.runtime);
		for (i = 0; i < nr; i++) {
			const struct row *r = &rows[i];

			fprintf(out, "%s{\"value\":%" PRIu32 ",\"seconds\":%.3f", i ? "," : "",
				r->value, r->res.seconds);
			for (d = 0; d < 2; d++)
				fprintf(out, ",\"%s\":{\"ios\":%" PRIu64 ",\"iops\":%.1f,"
					"\"mb_per_s\":%.2f,\"lat_us\":{\"p50\":%.1f,"
					"\"p99\":%.1f,\"max\":%.1f}}",
					dirs[d], r->res.ios[d], iops(r, d), mbps(r, d),
					lat_us(r, d, pcts[0]), lat_us(r, d, pcts[1]),
					lat_us(r, d, pcts[2]));
			fprintf(out, ",\"merges\":%llu,\"expired\":%llu,\"starved\":%llu,"
				"\"batches\":%llu}", r->ctr[CTR_MERGES], r->ctr[CTR_EXPIRED],
				r->ctr[CTR_STARVED], r->ctr[CTR_BATCHES]);
		}
		fputs("]}\n", out);
		return;
	}
	if (fmt == FMT_CSV) {
		fprintf(out, "%s", pr->p->name);
		for (d = 0; d < 2; d++)
			fprintf(out, ",%s_iops,%s_mb_per_s,%s_p50_us,%s_p99_us,%s_max_us",
				dirs[d], dirs[d], dirs[d], dirs[d], dirs[d]);
		fputs(",merges,expired,starved,batches\n", out);
		for (i = 0; i < nr; i++) {
			fprintf(out, "%" PRIu32, rows[i].value);
			for (d = 0; d < 2; d++) {
				fprintf(out, ",%.1f,%.2f", iops(&rows[i], d), mbps(&rows[i], d));
				for (k = 0; k < 3; k++)
					fprintf(out, ",%.1f", lat_us(&rows[i], d, pcts[k]));
			}
			fprintf(out, ",%llu,%llu,%llu,%llu\n", rows[i].ctr[CTR_MERGES],
				rows[i].ctr[CTR_EXPIRED], rows[i].ctr[CTR_STARVED],
				rows[i].ctr[CTR_BATCHES]);
		}
		return;
	}
	fprintf(out, "%s%s%s: %s, %s, iodepth %u, bs %zu, %.1f s per value (was %s, restored)\n\n",
		pr->target, strcmp(pr->target, pr->dev) ? " on " : "",
		strcmp(pr->target, pr->dev) ? pr->dev : "", pr->p->name, wl_kind_name(pr->wl.kind), pr->wl.iodepth, pr->wl.bs,
		pr->wl.runtime, orig);
	fprintf(out, "%14s | %-37s | %-37s |\n", "", "read", "write");
	fprintf(out, "%14s |", pr->p->name);
	for (d = 0; d < 2; d++)
		fprintf(out, " %7s %6s %6s %7s %7s |", "IOPS", "MB/s", "p50us", "p99us",
			"maxus");
	fprintf(out, " %8s %8s %8s\n", "merges", "expired", "starved");
	for (i = 0; i < nr; i++) {
		fprintf(out, "%14" PRIu32 " |", rows[i].value);
		for (d = 0; d < 2; d++) {
			fprintf(out, " %7.0f %6.1f", iops(&rows[i], d), mbps(&rows[i], d));
			for (k = 0; k < 3; k++)
				fprintf(out, " %*.0f", k ? 7 : 6, lat_us(&rows[i], d, pcts[k]));
			fputs(" |", out);
		}
		fprintf(out, " %8llu %8llu %8llu\n", rows[i].ctr[CTR_MERGES],
			rows[i].ctr[CTR_EXPIRED], rows[i].ctr[CTR_STARVED]);
	}
}

/* Split "1,16,64" and "1 16 64" alike into values checked against the range. */
static int parse_values(const struct param *p, int argc, char **argv,
			uint32_t **values, int *nr)
{
	int i, n = 0, max = 0;
	char *s, *tok, *save;

	for (i = 0; i < argc; i++)
		for (s = argv[i], max++; *s; s++)
			max += *s == ',';
	*values = calloc(max, sizeof(**values));
	if (!*values) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < argc; i++) {
		char *copy = strdup(argv[i]);

		if (!copy) {
			warnx_("%s", strerror(ENOMEM));
			return -1;
		}
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			const char *why = parse_value(p, tok, &(*values)[n]);

			if (why) {
				warnx_("%s: '%s': %s (%" PRIu32 "..%" PRIu32 ")", p->name, tok,
				       why, p->min, p->max);
				free(copy);
				return -1;
			}
			n++;
		}
		free(copy);
	}
	if (!n) {
		warnx_("%s: no values to profile", p->name);
		return -1;
	}
	*nr = n;
	return 0;
}

static int cmd_profile(struct ctl *c, int argc, char **argv)
{
	enum { OPT_RUNTIME = 256, OPT_DURATION, OPT_ALLOW_WRITE, OPT_CSV, OPT_SIZE };
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "runtime-per-value", required_argument, NULL, OPT_RUNTIME },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "iodepth", required_argument, NULL, 'q' },
		{ "bs", required_argument, NULL, 'b' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "allow-write", no_argument, NULL, OPT_ALLOW_WRITE },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ NULL, 0, NULL, 0 },
	};
	struct profile pr = { .wl = { .kind = WL_RANDREAD, .iodepth = 16, .bs = 4096,
				      .runtime = 5 } };
	double duration = 0;
	bool allow_write = false, runtime_set = false;
	enum fmt fmt = c->json ? FMT_JSON : FMT_TABLE;
	uint64_t size = 0, dev_bytes, sectors;
	unsigned long long before[NR_CTRS], after[NR_CTRS];
	char orig[64], line[64], node[4096];
	struct sigaction sa, old_sa[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct row *rows = NULL;
	int opt, ret = 1, i, k, nr_rows = 0, fd = -1;
	unsigned long ul;
	char *end;

	/* argv[0] is the first argument after "profile": getopt wants a name. */
	argv--;
	argc++;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "w:q:b:j", longopts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			k = wl_kind_parse(optarg);
			if (k < 0)
				return usage_error("unknown workload '%s' (%s)", optarg,
						   wl_kind_list());
			pr.wl.kind = k;
			break;
		case OPT_RUNTIME:
			if (parse_seconds(optarg, &pr.wl.runtime))
				return usage_error("--runtime-per-value: '%s' is not a time "
						   "(like 5, 5s, 500ms, 1m)", optarg);
			runtime_set = true;
			break;
		case OPT_DURATION:
			if (parse_seconds(optarg, &duration))
				return usage_error("--duration: '%s' is not a time "
						   "(like 30, 30s, 2m)", optarg);
			break;
		case 'q':
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (!isdigit((unsigned char)*optarg) || *end || errno || !ul || ul > 1024)
				return usage_error("--iodepth: '%s' is not 1..1024", optarg);
			pr.wl.iodepth = ul;
			break;
		case 'b':
			if (parse_size(optarg, &size) || !size || size % 4096 || size > 16 << 20)
				return usage_error("--bs: '%s' is not a multiple of 4k up to 16M",
						   optarg);
			pr.wl.bs = size;
			size = 0;
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &size) || !size)
				return usage_error("--size: '%s' is not a size (like 64M, 1G)",
						   optarg);
			break;
		case OPT_ALLOW_WRITE:
			allow_write = true;
			break;
		case 'j':
			fmt = FMT_JSON;
			break;
		case OPT_CSV:
			fmt = FMT_CSV;
			break;
		default:
			fputs("Try 'dlctl --help' for more information.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (c->json && fmt == FMT_CSV)
		return usage_error("--json and --csv exclude each other");
	if (duration && runtime_set)
		return usage_error("give --duration or --runtime-per-value, not both");
	if (argc - optind < 2)
		return usage_error("profile takes a parameter name and values");
	pr.p = find_param(argv[optind]);
	if (!pr.p)
		return usage_error("unknown parameter '%s'", argv[optind]);
	if (parse_values(pr.p, argc - optind - 1, argv + optind + 1, &pr.values,
			 &pr.nr_values))
		goto out;
	if (duration)
		pr.wl.runtime = duration / pr.nr_values;
	if (wl_kind_writes(pr.wl.kind) && !allow_write) {
		warnx_("the %s workload writes to the device and destroys its data; "
		       "add --allow-write to do that", wl_kind_name(pr.wl.kind));
		goto out;
	}

	if (default_devs(c) || check_devs_run_dlrb(c))
		goto out;
	if (c->nr_devs != 1) {
		warnx_("profile runs on one device; choose it with -d DEV");
		goto out;
	}
	pr.dev = c->devs[0];
	/* -d /dev/sdb1: the tunables are sdb's, the I/O goes to sdb1 only */
	copy_str(pr.target, sizeof(pr.target), pr.dev);
	if (c->first_devarg) {
		const char *a = c->first_devarg;

		if (strncmp(a, "/dev/", 5) == 0)
			a += 5;
		if (strcmp(a, pr.dev) && sysfs_exists("block/%s/%s/partition", pr.dev, a))
			copy_str(pr.target, sizeof(pr.target), a);
	}
	if (read_param(pr.dev, pr.p, orig, sizeof(orig)) || read_counters(pr.dev, before))
		goto out;
	if (wl_kind_writes(pr.wl.kind) && check_unused(pr.dev))
		goto out;
	if (read_disk_attr(line, sizeof(line), pr.dev,
			   strcmp(pr.target, pr.dev) ? pr.target : NULL, "size") ||
	    sscanf(line, "%" SCNu64, &sectors) != 1 || !sectors) {
		warnx_("%s: cannot read its size", pr.target);
		goto out;
	}
	dev_bytes = sectors * 512;
	pr.wl.size = size && size < dev_bytes ? size : dev_bytes;
	if (pr.wl.size < pr.wl.bs) {
		warnx_("%s: smaller than one block of %zu bytes", pr.target, pr.wl.bs);
		goto out;
	}

	snprintf(node, sizeof(node), "%s/%s", dev_dir(), pr.target);
	fd = open(node, O_DIRECT | O_CLOEXEC |
		  (wl_kind_writes(pr.wl.kind) ? O_RDWR | O_EXCL : O_RDONLY));
	if (fd < 0) {
		warnx_("%s: %s%s", node, strerror(errno), errno == EBUSY ?
		       " (mounted or open exclusively elsewhere); refusing to write to it" : "");
		goto out;
	}
	pr.wl.fd = fd;
	rows = calloc(pr.nr_values, sizeof(*rows));
	if (!rows) {
		warnx_("%s", strerror(ENOMEM));
		goto out;
	}
	pr.progress = isatty(STDERR_FILENO);
	if (pr.progress) {
		pr.wl.tick = profile_tick;
		pr.wl.tick_arg = &pr;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &sa, &old_sa[k]);

	ret = 0;
	for (i = 0; i < pr.nr_values && !interrupted && !ret; i++) {
		snprintf(line, sizeof(line), "%" PRIu32, pr.values[i]);
		pr.cur = i;
		ret = sysfs_write(line, "block/%s/queue/iosched/%s", pr.dev, pr.p->name);
		if (ret) {
			warnx_("%s: %s: %s: %s", pr.dev, pr.p->name, line, strerror(-ret));
			break;
		}
		ret = wl_run(&pr.wl, &rows[i].res, &interrupted);
		if (pr.progress)
			fputs("\r\033[K", stderr);
		if (ret) {
			warnx_("%s: %s", node, strerror(-ret));
			break;
		}
		if (read_counters(pr.dev, after)) {
			ret = -EIO;
			break;
		}
		rows[i].value = pr.values[i];
		for (k = 0; k < NR_CTRS; k++) {
			rows[i].ctr[k] = after[k] - before[k];
			before[k] = after[k];	/* the next run starts here */
		}
		if (!interrupted)
			nr_rows++;
	}

	/* Always put the original value back. */
	k = sysfs_write(orig, "block/%s/queue/iosched/%s", pr.dev, pr.p->name);
	if (k) {
		warnx_("%s: %s: cannot restore %s: %s", pr.dev, pr.p->name, orig,
		       strerror(-k));
		ret = ret ? ret : k;
	}
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &old_sa[k], NULL);
	if (interrupted) {
		warnx_("%s: interrupted by %s; %s restored to %s", pr.dev,
		       strsignal(interrupted), pr.p->name, orig);
		ret = 1;
	}
	if (!ret)
		print_rows(c->out, fmt, &pr, rows, nr_rows, orig);
	ret = ret ? 1 : 0;
out:
	if (fd >= 0)
		close(fd);
	free(rows);
	free(pr.values);
	return ret;
}

static const struct command {
	const char *name;
	int (*fn)(struct ctl *c, int argc, char **argv);
} commands[] = {
	{ "show", cmd_show },
	{ "get", cmd_get },
	{ "set", cmd_set },
	{ "reset", cmd_reset },
	{ "enable", cmd_enable },
	{ "disable", cmd_disable },
	{ "stats", cmd_stats },
	{ "profile", cmd_profile },
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ctl c;
	const char *root = getenv("DLCTL_SYSFS_ROOT");
	const char *devargs[MAX_DEVS];
	int nr_devargs = 0, opt, ret, i;
	size_t k;

	while ((opt = getopt_long(argc, argv, "+d:jhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (nr_devargs == MAX_DEVS)
				return usage_error("too many devices (at most %d)", MAX_DEVS);
			devargs[nr_devargs++] = optarg;
			break;
		case 'j':
			c.json = true;
			break;
		case 'R':
			root = optarg;
			break;
		case 'h':
			usage();
			return 0;
		case 'V':
			printf("dlctl %s\n", DLCTL_VERSION);
			return 0;
		default:
			fputs("Try 'dlctl --help' for more information.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_error("no command given");
	if (root && *root)
		sysfs_set_root(root);

	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(argv[optind], commands[k].name) == 0)
			break;
	if (k == sizeof(commands) / sizeof(commands[0]))
		return usage_error("unknown command '%s'", argv[optind]);
	if (c.json && commands[k].fn != cmd_show && commands[k].fn != cmd_get &&
	    commands[k].fn != cmd_stats && commands[k].fn != cmd_profile)
		return usage_error("--json applies to show, get, stats and profile");

	for (i = 0; i < nr_devargs; i++) {
		char disk[NAME_LEN];

		if (resolve_dev(devargs[i], disk) || add_dev(&c, disk))
			return 1;
	}
	c.explicit = nr_devargs > 0;
	c.first_devarg = nr_devargs ? devargs[0] : NULL;

	c.out = open_memstream(&c.outbuf, &c.outlen);
	if (!c.out) {
		warnx_("%s", strerror(errno));
		return 1;
	}
	ret = commands[k].fn(&c, argc - optind - 1, argv + optind + 1);
	fclose(c.out);
	/* Output only for a command that succeeded. */
	if (!ret && c.outlen && fwrite(c.outbuf, 1, c.outlen, stdout) != c.outlen)
		ret = 1;
	free(c.outbuf);
	if (fflush(stdout)) {
		warnx_("write error: %s", strerror(errno));
		ret = 1;
	}
	return ret;
}
