// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: the one rollback.  Every command that writes (set, reset,
 * enable, disable, profile) records each attribute's old and new value, then
 * applies them in order.  A write the kernel refuses, or one that reads
 * back as something else, stops the run and puts back every attribute
 * already touched, that one included, in reverse order.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlctl.h"
#include "sysfs.h"

int change_prepare(struct change *ch, const char *dev, const char *what)
{
	int n, ret;

	memset(ch, 0, sizeof(*ch));
	snprintf(ch->dev, sizeof(ch->dev), "%s", dev);
	ch->what = what;
	if (strcmp(what, "scheduler") == 0) {
		n = snprintf(ch->attr, sizeof(ch->attr), "block/%s/queue/scheduler", dev);
		ret = n < 0 || (size_t)n >= sizeof(ch->attr);
	} else {
		ret = iosched_attr(ch->attr, sizeof(ch->attr), dev, what);
	}
	if (ret) {
		warnx_("%s: %s: path too long", dev, what);
		return -1;
	}
	ret = sysfs_read(ch->old, sizeof(ch->old), "%s", ch->attr);
	if (ret) {
		warnx_("%s: %s: %s", dev, what, strerror(-ret));
		return -1;
	}
	/* a scheduler is put back by its active name */
	if (strcmp(what, "scheduler") == 0) {
		char w[sizeof(ch->old)];

		sched_word(ch->old, w, sizeof(w));
		memcpy(ch->old, w, sizeof(w));
	}
	return 0;
}

/* Does @ch's attribute now read as @val? */
static int reads_as(const struct change *ch, const char *val)
{
	char line[sizeof(ch->new)], w[sizeof(ch->new)];
	int ret = sysfs_read(line, sizeof(line), "%s", ch->attr);

	if (ret)
		return ret;
	sched_word(line, w, sizeof(w));
	return strcmp(strcmp(ch->what, "scheduler") ? line : w, val) ? -EINVAL : 0;
}

static int keep_one(struct change *ch, const char *attr)
{
	struct kept *k = realloc(ch->keep, (ch->nr_keep + 1) * sizeof(*k));

	if (!k)
		return -1;
	ch->keep = k;
	k += ch->nr_keep;
	snprintf(k->attr, sizeof(k->attr), "%s", attr);
	if (sysfs_read(k->val, sizeof(k->val), "%s", attr) == 0)
		ch->nr_keep++;	/* write-only or unreadable ones cannot come back */
	return 0;
}

/*
 * Kept, and so put back, in this order: nr_requests first, since writing
 * it sets async_depth (deadline-rb's, mq-deadline's) to its default.
 */
int change_keep_queue(struct change *ch, const char *dev)
{
	char path[4096], attr[256];
	struct dirent *de;
	DIR *dir;
	int ret;

	if (iosched_attr(attr, sizeof(attr), dev, NULL) ||
	    sysfs_path(path, sizeof(path), "%s", attr))
		return -1;
	snprintf(attr, sizeof(attr), "block/%s/queue/nr_requests", dev);
	ret = keep_one(ch, attr);
	dir = ret ? NULL : opendir(path);
	while (dir && !ret && (de = readdir(dir))) {
		/* a name too long to keep could not come back either */
		if (de->d_name[0] == '.' || iosched_attr(attr, sizeof(attr), dev, de->d_name))
			continue;
		ret = keep_one(ch, attr);
	}
	if (dir)
		closedir(dir);
	if (ret) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/*
 * Ctrl-C between two devices would leave some changed: SIGINT, SIGTERM
 * and SIGHUP, where they would end the process, stay blocked from the
 * first write to the end of the run (the output and its undo included),
 * and act only at exit.  A command that catches them itself (profile,
 * which puts its value back when one comes) keeps them.
 */
static void block_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_DFL)
			sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

int change_apply(struct change *ch, size_t n)
{
	size_t i;
	int ret = 0;

	block_signals();

	for (i = 0; i < n && !ret; i++) {
		ret = sysfs_write(ch[i].new, "%s", ch[i].attr);
		ch[i].done = true;	/* a refused write may still have acted */
		ch[i].failed = ret || reads_as(&ch[i], ch[i].new);
		if (ret) {
			warnx_("%s: %s: %s: %s", ch[i].dev, ch[i].what, esc(ch[i].new),
			       strerror(-ret));
		} else if (ch[i].failed) {
			warnx_("%s: %s: wrote %s, but it did not take", ch[i].dev, ch[i].what,
			       esc(ch[i].new));
			ret = -EINVAL;
		}
	}
	if (ret)
		change_undo(ch, n);
	return ret ? -1 : 0;
}

int change_undo(struct change *ch, size_t n)
{
	size_t i;
	int ret, bad = 0;

	while (n--) {
		if (!ch[n].done || reads_as(&ch[n], ch[n].old) == 0)
			continue;
		ret = sysfs_write(ch[n].old, "%s", ch[n].attr);
		if (ret) {
			warnx_("%s: %s: cannot put back %s: %s", ch[n].dev, ch[n].what,
			       esc(ch[n].old), strerror(-ret));
			bad = -1;
		}
		ch[n].done = false;
		/* the old scheduler's tunables, reset by the switches */
		for (i = 0; !ret && i < ch[n].nr_keep; i++) {
			struct kept *k = &ch[n].keep[i];
			char now[sizeof(k->val)];

			if (sysfs_read(now, sizeof(now), "%s", k->attr) == 0 &&
			    strcmp(now, k->val) && sysfs_write(k->val, "%s", k->attr)) {
				warnx_("%s: cannot put back %s (%s)", ch[n].dev, esc(k->val),
				       k->attr);
				bad = -1;
			}
		}
	}
	return bad;
}

void change_free(struct change *ch, size_t n)
{
	while (ch && n--)
		free(ch[n].keep);
	free(ch);
}
