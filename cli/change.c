// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: the one rollback.  Every command that writes (set, reset,
 * enable, disable) records each attribute's old and new value, then
 * applies them in order.  A write the kernel refuses, or one that reads
 * back as something else, stops the run and puts back every attribute
 * already touched, that one included, in reverse order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dlctl.h"
#include "sysfs.h"

int change_prepare(struct change *ch, const char *dev, const char *what,
		   const char *attr_fmt, ...)
{
	va_list ap;
	int n, ret;

	memset(ch, 0, sizeof(*ch));
	snprintf(ch->dev, sizeof(ch->dev), "%s", dev);
	ch->what = what;
	va_start(ap, attr_fmt);
	n = vsnprintf(ch->attr, sizeof(ch->attr), attr_fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(ch->attr)) {
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

int change_apply(struct change *ch, size_t n)
{
	size_t i;
	int ret = 0;

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

void change_undo(struct change *ch, size_t n)
{
	int ret;

	while (n--) {
		if (!ch[n].done || reads_as(&ch[n], ch[n].old) == 0)
			continue;
		ret = sysfs_write(ch[n].old, "%s", ch[n].attr);
		if (ret)
			warnx_("%s: %s: cannot put back %s: %s", ch[n].dev, ch[n].what,
			       esc(ch[n].old), strerror(-ret));
		ch[n].done = false;
	}
}
