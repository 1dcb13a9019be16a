// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: which devices to act on.  -d takes a kernel name (vda, vda1) or
 * any path to a block device node (/dev/vda, /dev/disk/by-id/..., a
 * symlink), resolved as util-linux does: stat(2), then the node's
 * /sys/dev/block/MAJ:MIN.  A partition stands for its disk's queue.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

int list_disks(char ***names, size_t *n)
{
	char path[PATH_MAX];
	struct dirent **des;
	int nr, i;

	*names = NULL;
	*n = 0;
	if (sysfs_path(path, sizeof(path), "block"))
		return -ENAMETOOLONG;
	nr = scandir(path, &des, not_dot, alphasort);
	if (nr < 0)
		return -errno;
	*names = calloc(nr ? nr : 1, sizeof(**names));
	for (i = 0; i < nr; i++) {
		if (*names && !((*names)[i] = strdup(des[i]->d_name))) {
			free_names(*names, i);
			*names = NULL;
		}
		free(des[i]);
	}
	free(des);
	if (!*names)
		return -ENOMEM;
	*n = nr;
	return 0;
}

void free_names(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

const char *dev_dir(void)
{
	return test_hook("DLCTL_TEST_DEV_DIR", "/dev");
}

int disk_ids(const char *disk, char ***ids, size_t *n)
{
	char dir[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	struct dirent **des;
	const char *base;
	int nr, i, ret = 0;
	ssize_t len;

	*ids = NULL;
	*n = 0;
	snprintf(dir, sizeof(dir), "%s/disk/by-id", dev_dir());
	nr = scandir(dir, &des, not_dot, alphasort);
	if (nr < 0)
		return errno == ENOENT ? 0 : -errno;
	for (i = 0; i < nr; i++) {
		char **v;

		if (ret || (size_t)snprintf(link, sizeof(link), "%s/%s", dir,
					    des[i]->d_name) >= sizeof(link))
			goto next;
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			goto next;
		target[len] = '\0';
		base = strrchr(target, '/');
		if (strcmp(base ? base + 1 : target, disk))
			goto next;
		v = realloc(*ids, (*n + 1) * sizeof(*v));
		if (!v || !(v[*n] = strdup(des[i]->d_name))) {
			if (v)
				*ids = v;
			ret = -ENOMEM;
			goto next;
		}
		*ids = v;
		(*n)++;
next:
		free(des[i]);
	}
	free(des);
	if (ret) {
		free_names(*ids, *n);
		*ids = NULL;
		*n = 0;
	}
	return ret;
}

static int set_dev(struct dev *d, const char *disk, const char *part, const char *node)
{
	d->disk = strdup(disk);
	d->part = part ? strdup(part) : NULL;
	d->node = node ? strdup(node) : NULL;
	if (!d->disk || (part && !d->part) || (node && !d->node)) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/* A sysfs device directory: a disk, or a partition of one. */
static int from_sysfs_dir(const char *dir, const char *arg, struct dev *d, const char *node)
{
	char real[PATH_MAX], copy[PATH_MAX + 16], name[NAME_MAX + 1], *disk;

	if (!realpath(dir, real)) {
		warnx_("%s: no such block device", esc(arg));
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", real);
	snprintf(name, sizeof(name), "%s", basename(copy));
	snprintf(copy, sizeof(copy), "%s/partition", real);
	if (access(copy, F_OK))
		return set_dev(d, name, NULL, node);
	snprintf(copy, sizeof(copy), "%s", real);
	disk = basename(dirname(copy));
	if (!sysfs_exists("block/%s", disk)) {
		warnx_("%s: partition %s of %s, which is not in %s/block", esc(arg), name,
		       disk, sysfs_root());
		return -1;
	}
	return set_dev(d, disk, name, node);
}

/* A bare kernel name: ROOT/block/NAME, else a partition of some disk. */
static int by_name(const char *arg, struct dev *d)
{
	char path[PATH_MAX], **disks;
	size_t n, i;
	int ret;

	if (sysfs_exists("block/%s", arg))
		return set_dev(d, arg, NULL, NULL);
	if (sysfs_exists("class/block/%s/partition", arg) &&
	    !sysfs_path(path, sizeof(path), "class/block/%s", arg))
		return from_sysfs_dir(path, arg, d, NULL);
	/* a tree without class/block: look under every disk */
	ret = list_disks(&disks, &n);
	if (ret) {
		warnx_("%s/block: %s", sysfs_root(), strerror(-ret));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (sysfs_exists("block/%s/%s/partition", disks[i], arg))
			break;
	ret = i < n ? set_dev(d, disks[i], arg, NULL) : -1;
	if (i == n)
		warnx_("%s: no such block device", esc(arg));
	free_names(disks, n);
	return ret;
}

int resolve_dev(const char *arg, struct dev *d)
{
	char path[PATH_MAX];
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (!*arg || (!strchr(arg, '/') && strlen(arg) > NAME_MAX) ||
	    strcmp(arg, ".") == 0 || strcmp(arg, "..") == 0) {
		warnx_("'%s': not a block device name", esc(arg));
		return -1;
	}
	if (!strchr(arg, '/'))
		return by_name(arg, d);
	if (stat(arg, &st)) {
		warnx_("%s: %s", esc(arg), strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		warnx_("%s: not a block device", esc(arg));
		return -1;
	}
	if (sysfs_path(path, sizeof(path), "dev/block/%u:%u", major(st.st_rdev),
		       minor(st.st_rdev)) || access(path, F_OK)) {
		warnx_("%s: block device %u:%u is not in %s/dev/block", esc(arg),
		       major(st.st_rdev), minor(st.st_rdev), sysfs_root());
		return -1;
	}
	return from_sysfs_dir(path, arg, d, arg);
}

/* A disk named twice is acted on once: the first -d for it wins. */
int add_dev(struct devs *ds, const struct dev *d)
{
	struct dev *v;
	size_t i;

	for (i = 0; i < ds->n; i++) {
		if (strcmp(ds->v[i].disk, d->disk) == 0) {
			free(d->disk);
			free(d->part);
			free(d->node);
			return 0;
		}
	}
	v = realloc(ds->v, (ds->n + 1) * sizeof(*v));
	if (!v) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	ds->v = v;
	ds->v[ds->n++] = *d;
	return 0;
}

void free_devs(struct devs *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		free(ds->v[i].disk);
		free(ds->v[i].part);
		free(ds->v[i].node);
	}
	free(ds->v);
	ds->v = NULL;
	ds->n = 0;
}

void sched_word(const char *line, char *buf, size_t size)
{
	const char *l = strchr(line, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r)
		snprintf(buf, size, "%.*s", (int)(r - l - 1), l + 1);
	else
		snprintf(buf, size, "%s", *line ? line : "none");
}

int active_sched(const char *disk, char *buf, size_t size)
{
	char line[512];
	int ret = sysfs_read(line, sizeof(line), "block/%s/queue/scheduler", disk);

	if (!ret)
		sched_word(line, buf, size);
	return ret;
}

bool offers_sched(const char *disk, const char *name)
{
	char line[512], *t, *save;

	if (sysfs_read(line, sizeof(line), "block/%s/queue/scheduler", disk))
		return false;
	for (t = strtok_r(line, " []", &save); t; t = strtok_r(NULL, " []", &save))
		if (strcmp(t, name) == 0)
			return true;
	return false;
}

/*
 * A request queue lists the schedulers it offers, the active one in
 * brackets ("[none] mq-deadline").  One with nothing to offer reads as a
 * bare "none": a bio-based device (zram, dm, md) on 6.1, and on 6.12, which
 * has no such file for a bio-based one, a queue whose driver takes no
 * scheduler (BLK_MQ_F_NO_SCHED).  No file is nothing to offer either.  A
 * line of one other word is a test's fake tree, which keeps the word
 * written without the brackets: a queue.
 */
bool offers_elevators(const char *disk)
{
	char line[512];

	return sysfs_read(line, sizeof(line), "block/%s/queue/scheduler", disk) == 0 &&
	       strcmp(line, "none");
}

int select_dlrb(struct devs *ds, bool explicit, bool none_ok)
{
	char sched[64], **disks;
	size_t n, i;
	int ret, bad = 0;

	if (explicit) {
		for (i = 0; i < ds->n; i++) {
			const char *dk = ds->v[i].disk;

			ret = active_sched(dk, sched, sizeof(sched));
			if (ret == -ENOENT)
				warnx_("%s: has no I/O scheduler", dk);
			else if (ret)
				warnx_("%s: scheduler: %s", dk, strerror(-ret));
			else if (strcmp(sched, SCHED))
				warnx_("%s: does not run " SCHED "; enable it with 'dlctl -d %s enable'",
				       dk, dk);
			bad |= ret || strcmp(sched, SCHED);
		}
		return bad ? -1 : 0;
	}
	ret = list_disks(&disks, &n);
	if (ret) {
		warnx_("%s/block: %s", sysfs_root(), strerror(-ret));
		return -1;
	}
	for (i = 0; i < n && !bad; i++) {
		struct dev d = { 0 };

		ret = active_sched(disks[i], sched, sizeof(sched));
		if (ret == -ENOENT)
			continue;	/* no scheduler, or gone since the listing */
		if (ret) {
			warnx_("%s: scheduler: %s", disks[i], strerror(-ret));
			bad = 1;
		} else if (strcmp(sched, SCHED) == 0) {
			bad = set_dev(&d, disks[i], NULL, NULL) || add_dev(ds, &d);
		}
	}
	free_names(disks, n);
	if (bad)
		return -1;
	if (!ds->n && !none_ok) {
		warnx_("no device runs " SCHED "; enable it with 'dlctl -d DEV enable'");
		return -1;
	}
	return 0;
}
