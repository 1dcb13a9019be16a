// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl apply: carry out the configuration (conf.c) on every whole disk it
 * matches, each disk all or nothing: the scheduler switched when it must
 * be (writing the name loads the module), then the tunables that differ.
 * A disk where something is refused is put back and reported; the others
 * still apply.  A second run changes nothing.  A disk that dlctl disable
 * switched off is left alone (switch.c).
 *
 * dlctl save: the settings of deadline-rb disks, as configuration.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dlctl.h"
#include "sysfs.h"

/* Keep @n changes of one disk with the run's, for an undo at output. */
static int keep_changes(struct ctl *c, struct change *ch, size_t n)
{
	struct change *all;

	if (!n)
		return 0;
	all = realloc(c->changes, (c->nr_changes + n) * sizeof(*all));
	if (!all) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	c->changes = all;
	memcpy(all + c->nr_changes, ch, n * sizeof(*ch));
	c->nr_changes += n;
	return 0;
}

static const struct conf_setting *sched_setting(const struct conf_setting *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(set[i].key, "scheduler") == 0)
			return &set[i];
	return NULL;
}

/*
 * The tunables of @set that differ on @disk, into @tun (*@nt of them): each
 * from its value now, or with @unswitched (a dry run, the switch not made)
 * from the default the switch would give it.  Fails, saying why, on a
 * tunable that cannot be read.
 */
static int prepare_tunables(const char *disk, const struct conf_setting *set, size_t n,
			    bool unswitched, struct change *tun, size_t *nt)
{
	size_t i;

	*nt = 0;
	for (i = 0; i < n; i++) {
		const struct param *p = find_param(set[i].key);
		struct change *ch = &tun[*nt];

		/* p->name: the change outlives @set (an undo at output) */
		if (!p)
			continue;
		if (param_check_dev(p, disk, set[i].num))
			return -1;
		if (!unswitched) {
			if (change_prepare(ch, disk, p->name))
				return -1;
		} else {
			uint32_t def;

			memset(ch, 0, sizeof(*ch));
			snprintf(ch->dev, sizeof(ch->dev), "%s", disk);
			ch->what = p->name;
			/* none to be had (param_default said why): shown as "?" */
			if (param_default(p, disk, &def))
				snprintf(ch->old, sizeof(ch->old), "?");
			else
				snprintf(ch->old, sizeof(ch->old), "%" PRIu32, def);
		}
		snprintf(ch->new, sizeof(ch->new), "%" PRIu32, set[i].num);
		if (strcmp(ch->old, ch->new))
			(*nt)++;
	}
	return 0;
}

/*
 * Is @disk as @set has it already?  Read without the lock, so that a run
 * with nothing to do (udev's, at every event) need not wait for it; one
 * with something to do reads again under it.
 */
static bool as_configured(const char *disk, const struct conf_setting *set, size_t n)
{
	char cur[64], attr[256], val[64], want[32];
	size_t i;

	if (active_sched(disk, cur, sizeof(cur)))
		return false;
	for (i = 0; i < n; i++) {
		const struct param *p = find_param(set[i].key);

		if (!p) {	/* the scheduler */
			if (strcmp(cur, set[i].value))
				return false;
			continue;
		}
		snprintf(want, sizeof(want), "%" PRIu32, set[i].num);
		if (iosched_attr(attr, sizeof(attr), disk, p->name) ||
		    sysfs_read(val, sizeof(val), "%s", attr) || strcmp(val, want))
			return false;
	}
	return true;
}

/* @n changes on @disk as apply prints them, made or (a dry run) not. */
static void print_changes(struct ctl *c, const char *disk, const struct change *ch, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(c->out_f, "%s: %s: %s -> %s\n", disk, ch[i].what, ch[i].old, ch[i].new);
}

/*
 * Carry out @set on @disk.  Returns 0 (applied, or nothing to do), 1 when
 * the disk was refused something and is as it was, -1 when it could not be
 * put back.  A dry run prepares the same changes and prints them, but
 * makes none.
 */
static int apply_disk(struct ctl *c, const char *disk, const struct conf_setting *set,
		      size_t n, bool dry_run)
{
	const struct conf_setting *s = sched_setting(set, n);
	struct change sw, *tun = NULL;
	char cur[64];
	bool switching;
	size_t i, nt = 0;
	int ret;

	ret = active_sched(disk, cur, sizeof(cur));
	if (ret) {
		warnx_("%s: scheduler: %s", disk, ret == -ENOENT ? "no scheduler file" :
		       strerror(-ret));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (s && strcmp(s->value, SCHED) && strcmp(set[i].key, "scheduler")) {
			warnx_("%s: %s:%u sets %s, a tunable of " SCHED ", but %s:%u "
			       "chooses %s; nothing applied", disk, set[i].file, set[i].line,
			       set[i].key, s->file, s->line, s->value);
			return 1;
		}
	}
	switching = s && strcmp(cur, s->value);

	/* the switch first: the tunables are the new scheduler's */
	if (switching) {
		if (change_prepare(&sw, disk, "scheduler") ||
		    (!dry_run && change_keep_queue(&sw, disk))) {
			free(sw.keep);
			return 1;
		}
		snprintf(sw.new, sizeof(sw.new), "%s", s->value);
		if (!dry_run && change_apply(&sw, 1)) {
			if (!offers_sched(disk, s->value))
				warnx_("%s: the kernel does not offer %s%s", disk, s->value,
				       strcmp(s->value, SCHED) ? "" :
				       "; is the module installed? (modinfo deadline-rb)");
			free(sw.keep);
			return 1;
		}
	}
	tun = calloc(n ? n : 1, sizeof(*tun));
	if (!tun) {
		warnx_("%s", strerror(ENOMEM));
		ret = 1;
		goto undo;
	}
	if (prepare_tunables(disk, set, n, dry_run && switching, tun, &nt)) {
		ret = 1;
		goto undo;
	}
	if (!dry_run && change_apply(tun, nt)) {
		warnx_("%s: a tunable was refused; the disk is as it was", disk);
		ret = 1;
		goto undo;
	}
	if (switching)
		print_changes(c, disk, &sw, 1);
	print_changes(c, disk, tun, nt);
	if (dry_run) {
		change_free(tun, nt);
		return 0;
	}
	/* applied: the run keeps the changes (and their kept values) */
	if (switching && keep_changes(c, &sw, 1))
		free(sw.keep);
	if (keep_changes(c, tun, nt))
		change_free(tun, nt);
	else
		free(tun);
	return 0;
undo:
	if (switching) {
		if (change_undo(&sw, 1))
			ret = -1;
		free(sw.keep);
	}
	change_free(tun, nt);
	return ret;
}

int cmd_apply(struct ctl *c, int argc, char **argv)
{
	size_t i, nd = 0;
	char **disks = NULL;
	bool locked = c->dry_run;
	struct conf cf;
	int ret = 0, r;

	(void)argv;
	if (argc)
		return usage_error("apply takes no arguments, only -d, --config and --dry-run");
	for (i = 0; i < c->devs.n; i++) {
		if (c->devs.v[i].part) {
			return usage_error("%s: a partition; apply acts on whole disks (-d %s)",
					   c->devs.v[i].part, c->devs.v[i].disk);
		}
	}

	r = conf_read(&cf, c->conf_files, c->nr_conf_files);
	if (r < 0) {
		conf_free(&cf);
		return 1;
	}
	if (r > 0)
		ret = EXIT_USAGE;	/* the rest applies; the status says */

	if (!c->explicit && (r = list_disks(&disks, &nd))) {
		warnx_("%s/block: %s", sysfs_root(), strerror(-r));
		conf_free(&cf);
		return 1;
	}
	for (i = 0; i < (c->explicit ? c->devs.n : nd); i++) {
		const char *disk = c->explicit ? c->devs.v[i].disk : disks[i];
		struct conf_setting *set;
		size_t n;

		if (conf_for_disk(&cf, disk, &set, &n)) {
			ret = 1;
			break;
		}
		if (n && !offers_elevators(disk)) {
			/* bio-based (dm, md, zram): matched by a glob, nothing to do */
			if (c->explicit)
				warnx_("%s: no I/O scheduler (a bio-based device); left alone", disk);
			n = 0;
		}
		if (n && disabled_by_hand(disk)) {
			warnx_("%s: switched off by 'dlctl disable'; left alone until "
			       "'dlctl enable -d %s'", disk, disk);
			n = 0;
		}
		/* the lock only for a disk to change: udev runs this at every event */
		if (n && as_configured(disk, set, n))
			n = 0;
		if (n && !locked) {
			if (take_lock()) {
				free(set);
				ret = 1;
				break;
			}
			locked = true;
		}
		r = n ? apply_disk(c, disk, set, n, c->dry_run) : 0;
		free(set);
		if (r)
			ret = 1;	/* a disk refused: a failure, above a bad file's 2 */
		if (r < 0) {
			warnx_("%s: could not be put back as it was", disk);
			ret = 1;
		}
	}
	free_names(disks, nd);
	conf_free(&cf);
	c->changed = c->nr_changes > 0;
	c->partial = true;	/* what did apply is printed, whatever failed */
	return ret;
}

/*
 * Can @id be a section's glob?  Not with a blank or a control byte (udev
 * writes \x20; another rule's link might not), which a section refuses.
 */
static bool id_savable(const char *id)
{
	for (; *id; id++)
		if ((unsigned char)*id <= ' ' || *id == 0x7f)
			return false;
	return true;
}

/*
 * The by-id name a disk is best kept by: wwn-, else the first; NULL if it
 * has none a section can hold.
 */
static char *best_id(const char *disk)
{
	char **ids, *best = NULL;
	size_t n, i, first = SIZE_MAX;

	if (disk_ids(disk, &ids, &n) || !n)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!id_savable(ids[i]))
			continue;
		if (first == SIZE_MAX)
			first = i;
		if (strncmp(ids[i], "wwn-", 4) == 0)
			break;
	}
	if (i < n || first < n)
		best = strdup(ids[i < n ? i : first]);
	free_names(ids, n);
	return best;
}

/*
 * @name as a glob that matches it alone: glob(7)'s special characters and
 * the backslash (udev writes \x20 for a space) escaped, and '#', which
 * would start a comment.
 */
static void print_glob(FILE *f, const char *name)
{
	for (; *name; name++) {
		if (strchr("*?[]\\#", *name))
			fputc('\\', f);
		fputc(*name, f);
	}
}

/*
 * A tunable of @disk as it would be saved in @val; prints why and fails on
 * one that cannot be read or is not a value dlctl.conf(5) takes.  A module
 * without it (an older one) is not an error: -ENOENT.
 */
static int save_value(const char *disk, const struct param *p, char *val, size_t size)
{
	char attr[256], path[4096], msg[512];
	struct stat st;
	uint64_t num64;
	uint32_t num;
	int ret;

	ret = iosched_attr(attr, sizeof(attr), disk, p->name);
	if (!ret)
		ret = sysfs_read(val, size, "%s", attr);
	/* nothing by that name at all: a dangling link is not a module's choice */
	if (ret == -ENOENT && !sysfs_path(path, sizeof(path), "%s", attr) &&
	    lstat(path, &st) && errno == ENOENT)
		return -ENOENT;
	if (ret) {
		warnx_("%s: %s: %s", disk, p->name, strerror(-ret));
		return -1;
	}
	/* as apply will read it back: a bare number is in the tunable's unit */
	if (parse_num(val, NUM_PLAIN, &num64) ||
	    value_error(p, val, &num, msg, sizeof(msg))) {
		warnx_("%s: %s reads back as '%s', not a value to save; nothing saved", disk,
		       p->name, esc(val));
		return -1;
	}
	return 0;
}

int cmd_save(struct ctl *c, int argc, char **argv)
{
	size_t i, j;

	(void)argv;
	if (argc)
		return usage_error("save takes no arguments");
	if (select_dlrb(&c->devs, c->explicit, false))
		return 1;
	fprintf(c->out_f, "# deadline-rb settings, saved by dlctl %s; see dlctl.conf(5)\n",
		DLCTL_VERSION);
	for (i = 0; i < c->devs.n; i++) {
		const char *disk = c->devs.v[i].disk;
		char *id = best_id(disk);

		fputc('\n', c->out_f);
		if (id) {
			fprintf(c->out_f, "# %s\n[id ", disk);
			print_glob(c->out_f, id);
		} else {
			fprintf(c->out_f, "# no /dev/disk/by-id name: by kernel name, "
				"which may differ at the next boot\n[name ");
			print_glob(c->out_f, disk);
		}
		fputs("]\n", c->out_f);
		free(id);
		fprintf(c->out_f, "scheduler = %s\n", SCHED);
		for (j = 0; j < nr_params; j++) {
			char val[64];
			int ret = save_value(disk, &params[j], val, sizeof(val));

			if (ret == -ENOENT)
				continue;	/* a tunable this module does not have */
			if (ret)
				return 1;
			fprintf(c->out_f, "%s = %s%s\n", params[j].name, val,
				params[j].unit == UNIT_MS ? "ms" : "");
		}
	}
	return 0;
}
