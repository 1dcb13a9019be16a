// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: read, set and reset the deadline-rb I/O scheduler's tunables,
 * switch devices to and from it, and show its counters.
 *
 *   dlctl [-d DEV]... [--json] [--sysfs-root DIR] COMMAND [ARGS]
 *
 * Exit status: 0 ok, 1 failure, 2 usage.  A failed command prints nothing
 * on stdout and leaves every tunable as it was.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"

#ifndef DLCTL_VERSION
#define DLCTL_VERSION "0.1.0"
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
	bool json;
	FILE *out;			/* buffered: printed only on success */
	char *outbuf;
	size_t outlen;
};

/*
 * messages: "dlctl: vda: fifo_batch: Invalid argument" on stderr
 */
static void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("dlctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("dlctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'dlctl --help' for more information.\n", stderr);
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
	      "Options:\n"
	      " -d, --device <dev>   act on this device (vda, /dev/vda, /dev/vda1); repeatable;\n"
	      "                      default: every device running deadline-rb\n"
	      " -j, --json           JSON output for show, get and stats\n"
	      "     --sysfs-root <dir>  read sysfs from <dir> instead of /sys\n"
	      " -h, --help           display this help\n"
	      " -V, --version        display version\n"
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

/* debugfs sched/stats: "name read write" per line. */
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
		FILE *f;

		if (sysfs_path(path, sizeof(path), "kernel/debug/block/%s/sched/stats",
			       c->devs[i]) || !(f = fopen(path, "r"))) {
			warnx_("%s: %s: %s (is debugfs mounted, and are you root?)",
			       c->devs[i], path, strerror(errno));
			return 1;
		}
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
	    commands[k].fn != cmd_stats)
		return usage_error("--json applies to show, get and stats");

	for (i = 0; i < nr_devargs; i++) {
		char disk[NAME_LEN];

		if (resolve_dev(devargs[i], disk) || add_dev(&c, disk))
			return 1;
	}
	c.explicit = nr_devargs > 0;

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
