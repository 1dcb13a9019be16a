// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: enable and disable, all devices or none.  enable records what
 * each device ran before (in /run/dlctl/before-enable-DISK, gone at reboot);
 * disable acts only on devices running deadline-rb and puts back that
 * record, or else what the kernel itself would choose.  disable also leaves
 * /run/dlctl/disabled-DISK, which `dlctl apply` (and so udev's rule) heeds
 * until enable: a disk switched off by hand stays off.  Both files name the
 * very disk they were written for, so that a disk added later under the
 * same name is not mistaken for it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"

static int record_path(char *buf, size_t size, const char *what, const char *disk)
{
	char name[300];

	snprintf(name, sizeof(name), "%s-%s", what, disk);
	return run_path(buf, size, name);
}

/*
 * The disk itself, not its name: "seq:N" from diskseq, which the kernel
 * never gives twice in a boot; else "maj:min"; else "-".
 */
static void identity(const char *disk, char *buf, size_t size)
{
	char v[64];

	if (!sysfs_read(v, sizeof(v), "block/%s/diskseq", disk))
		snprintf(buf, size, "seq:%s", v);
	else if (!sysfs_read(v, sizeof(v), "block/%s/dev", disk))
		snprintf(buf, size, "%s", v);
	else
		snprintf(buf, size, "-");
}

/* Write "IDENTITY[ WORD]" to /run/dlctl/WHAT-DISK, or say why not. */
static void record(const char *what, const char *disk, const char *word)
{
	char path[4096], id[80];
	FILE *f;

	identity(disk, id, sizeof(id));
	if (record_path(path, sizeof(path), what, disk) || !(f = fopen(path, "we")) ||
	    (fprintf(f, "%s%s%s\n", id, word ? " " : "", word ? word : "") < 0) | fclose(f))
		warnx_("%s: cannot record %s (%s)", disk, what, path);
}

/* The word of /run/dlctl/WHAT-DISK, if it was written for this very disk. */
static bool recorded(const char *what, const char *disk, char *word, size_t size)
{
	char path[4096], id[80], rid[80], rw[64] = "";
	bool ok = false;
	FILE *f;

	if (record_path(path, sizeof(path), what, disk) || !(f = fopen(path, "re")))
		return false;
	identity(disk, id, sizeof(id));
	if (fscanf(f, "%79s %63s", rid, rw) >= 1 && strcmp(rid, id) == 0) {
		snprintf(word, size, "%s", rw);
		ok = true;
	}
	fclose(f);
	return ok;
}

static void forget(const char *what, const char *disk)
{
	char path[4096];

	if (!record_path(path, sizeof(path), what, disk))
		unlink(path);
}

/* What @disk ran before enable, if recorded for it and still offered. */
static bool ran_before(const char *disk, char *sched, size_t size)
{
	return recorded("before-enable", disk, sched, size) && *sched &&
	       offers_sched(disk, sched);
}

bool disabled_by_hand(const char *disk)
{
	char w[64];

	return recorded("disabled", disk, w, sizeof(w));
}

/*
 * The kernel's own choice (elevator_get_default()): none for a queue
 * whose driver asks for none (loop: BLK_MQ_F_NO_SCHED_BY_DEFAULT, which
 * 6.1's debugfs prints as bit "7"); else mq-deadline for one hardware
 * queue or tags shared across them, when the kernel has it; else none.
 * Without debugfs the flags are unknown: loop devices are recognised by
 * name, and the hardware queues are counted in mq/, which lists only
 * those with CPUs mapped.
 */
static void kernel_default(const char *disk, char *buf, size_t size)
{
	char path[4096], flags[512], *t, *save;
	bool no_sched = false, shared = false;
	struct dirent *de;
	int hwq = 0, dbg = 0;
	DIR *dir;

	if (!sysfs_read(flags, sizeof(flags), "kernel/debug/block/%s/hctx0/flags", disk)) {
		for (t = strtok_r(flags, " |", &save); t; t = strtok_r(NULL, " |", &save)) {
			no_sched |= strcmp(t, "NO_SCHED_BY_DEFAULT") == 0 || strcmp(t, "7") == 0;
			shared |= strcmp(t, "TAG_HCTX_SHARED") == 0;
		}
	} else {
		no_sched = strncmp(disk, "loop", 4) == 0;
	}
	/* every hardware queue is in debugfs; mq/ has those with CPUs mapped */
	if (!sysfs_path(path, sizeof(path), "kernel/debug/block/%s", disk) && (dir = opendir(path))) {
		while ((de = readdir(dir)))
			dbg += strncmp(de->d_name, "hctx", 4) == 0;
		closedir(dir);
	}
	if (!sysfs_path(path, sizeof(path), "block/%s/mq", disk) && (dir = opendir(path))) {
		while ((de = readdir(dir)))
			hwq += de->d_name[0] != '.';
		closedir(dir);
	}
	if (dbg)
		hwq = dbg;
	snprintf(buf, size, "%s", !no_sched && (hwq == 1 || shared) &&
		 offers_sched(disk, "mq-deadline") ? "mq-deadline" : "none");
}

/* Once the output is out, and so the switches stay: what /run keeps. */
static void commit_enable(struct ctl *c)
{
	size_t i;

	for (i = 0; i < c->nr_changes; i++) {
		forget("disabled", c->changes[i].dev);
		if (strcmp(c->changes[i].old, SCHED))
			record("before-enable", c->changes[i].dev, c->changes[i].old);
	}
}

static void commit_disable(struct ctl *c)
{
	size_t i;

	for (i = 0; i < c->nr_changes; i++) {
		forget("before-enable", c->changes[i].dev);
		record("disabled", c->changes[i].dev, NULL);
	}
}

static int switch_devs(struct ctl *c, bool enable)
{
	char want[64];
	size_t i;

	if (!c->devs.n)
		return 0;
	c->changes = calloc(c->devs.n, sizeof(*c->changes));
	if (!c->changes) {
		warnx_("%s", strerror(ENOMEM));
		return 1;
	}
	c->nr_changes = c->devs.n;
	for (i = 0; i < c->devs.n; i++) {
		const char *dk = c->devs.v[i].disk;

		if (change_prepare(&c->changes[i], dk, "scheduler"))
			return 1;
		if (change_keep_queue(&c->changes[i], dk))
			return 1;
		if (enable)
			snprintf(want, sizeof(want), SCHED);
		else if (!ran_before(dk, want, sizeof(want)))
			kernel_default(dk, want, sizeof(want));
		snprintf(c->changes[i].new, sizeof(c->changes[i].new), "%s", want);
	}
	if (change_apply(c->changes, c->devs.n)) {
		for (i = 0; enable && i < c->devs.n; i++) {
			const char *dk = c->devs.v[i].disk;

			if (!c->changes[i].failed)
				continue;
			if (!offers_elevators(dk))
				warnx_("%s: a bio-based device, without I/O schedulers", dk);
			else if (!offers_sched(dk, SCHED))
				warnx_("%s: the kernel does not offer " SCHED
				       "; is the module installed? (modinfo deadline-rb)", dk);
		}
		return 1;
	}
	c->changed = true;
	c->commit = enable ? commit_enable : commit_disable;
	for (i = 0; i < c->devs.n; i++) {
		const struct change *ch = &c->changes[i];

		if (strcmp(ch->old, ch->new))
			fprintf(c->out_f, "%s: %s -> %s\n", ch->dev, ch->old, ch->new);
		else
			fprintf(c->out_f, "%s: %s already\n", ch->dev, ch->new);
	}
	return 0;
}

int cmd_enable(struct ctl *c, int argc, char **argv)
{
	(void)argv;
	if (argc)
		return usage_error("enable takes no arguments");
	if (!c->explicit)
		return usage_error("enable needs the devices: dlctl enable -d DEV...");
	if (take_lock())
		return 1;
	return switch_devs(c, true);
}

/* Only devices that run deadline-rb; naming another one is not an error. */
int cmd_disable(struct ctl *c, int argc, char **argv)
{
	char sched[64];
	size_t i, k;

	(void)argv;
	if (argc)
		return usage_error("disable takes no arguments");
	if (take_lock())
		return 1;
	if (!c->explicit) {
		if (select_dlrb(&c->devs, false, true))
			return 1;
		if (!c->devs.n)
			warnx_("no device runs " SCHED "; nothing to disable");
	}
	for (i = 0; i < c->devs.n; i++) {
		int ret = active_sched(c->devs.v[i].disk, sched, sizeof(sched));

		if (ret && ret != -ENOENT) {
			warnx_("%s: scheduler: %s", c->devs.v[i].disk, strerror(-ret));
			return 1;
		}
	}
	for (i = k = 0; i < c->devs.n; i++) {
		struct dev *d = &c->devs.v[i];
		int ret = active_sched(d->disk, sched, sizeof(sched));

		if (ret || strcmp(sched, SCHED)) {
			warnx_("%s: runs %s, not " SCHED "; left alone", d->disk,
			       ret ? "no scheduler" : sched);
			free(d->disk);
			free(d->part);
			free(d->node);
			continue;
		}
		c->devs.v[k++] = *d;
	}
	c->devs.n = k;
	return switch_devs(c, false);
}
