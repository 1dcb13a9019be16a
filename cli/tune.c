// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: the tuning commands.  show lists every device, get reads
 * tunables, set and reset write them on every chosen device or on none.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dlctl.h"
#include "sysfs.h"

/* @p's column name, its name in upper case: FIFO_BATCH. */
static void param_col_name(const struct param *p, char *name, size_t size)
{
	size_t j;

	for (j = 0; p->name[j] && j < size - 1; j++)
		name[j] = (char)toupper((unsigned char)p->name[j]);
	name[j] = '\0';
}

/* NAME, SCHED, then one column per tunable (all of them, or @ps). */
static struct col *tunable_cols(const struct param *const *ps, size_t n, bool sched)
{
	struct col *cols = calloc(n + 2, sizeof(*cols));
	size_t i, k = 0;

	if (!cols) {
		warnx_("%s", strerror(ENOMEM));
		return NULL;
	}
	cols[k++] = (struct col){ .name = "NAME", .def = true };
	if (sched)
		cols[k++] = (struct col){ .name = "SCHED", .def = true };
	for (i = 0; i < n; i++, k++) {
		param_col_name(ps[i], cols[k].name, sizeof(cols[k].name));
		cols[k].type = ps[i]->unit == UNIT_BOOL ? COL_BOOL : COL_NUM;
		cols[k].def = true;
		cols[k].right = true;
	}
	return cols;
}

static void all_params(const struct param **ps)
{
	size_t i;

	for (i = 0; i < nr_params; i++)
		ps[i] = &params[i];
}

static int read_param(const char *dev, const struct param *p, char *buf, size_t size)
{
	char attr[256];
	int ret = iosched_attr(attr, sizeof(attr), dev, p->name);

	if (!ret)
		ret = sysfs_read(buf, size, "%s", attr);
	if (ret)
		warnx_("%s: %s: %s", dev, p->name, strerror(-ret));
	return ret;
}

/*
 * @val as a cell of @p's column, in @val: a number as JSON writes one (no
 * leading zero), a boolean 0 or 1; or NULL, shown as null in JSON, with a
 * message, for anything else a kernel or a copy of /sys might hold.  JSON
 * takes a number column's cell as it is.
 */
static const char *num_cell(const char *dev, const struct param *p, char *val, size_t size)
{
	uint64_t v;

	if (p->unit == UNIT_BOOL ? strcmp(val, "0") && strcmp(val, "1") :
	    parse_num(val, NUM_PLAIN, &v) != NULL) {
		warnx_("%s: %s reads back as '%s', not %s", dev, p->name, esc(val),
		       p->unit == UNIT_BOOL ? "0 or 1" : "a number");
		return NULL;
	}
	if (p->unit != UNIT_BOOL)
		snprintf(val, size, "%" PRIu64, v);
	return val;
}

bool show_column(size_t i, char *name, size_t size, const char **type, const char **desc)
{
	const struct param *p = i >= 2 && i < nr_params + 2 ? &params[i - 2] : NULL;

	if (i == 0 || i == 1) {
		snprintf(name, size, "%s", i ? "SCHED" : "NAME");
		*type = "string";
		*desc = i ? "the active I/O scheduler" : "kernel name of the disk";
		return true;
	}
	if (!p)
		return false;
	param_col_name(p, name, size);
	*type = p->unit == UNIT_BOOL ? "boolean" : "number";
	*desc = p->desc;
	return true;
}

/* show --list-columns: a row per column, as lsblk --list-columns */
static int list_columns(struct ctl *c)
{
	static const struct col cols[] = {
		{ .name = "NAME", .def = true },
		{ .name = "TYPE", .def = true },
		{ .name = "DESCRIPTION", .def = true },
	};
	const char *type, *desc;
	char name[64];
	struct out *t;
	size_t i;
	int ret = 1;

	t = out_new(&c->out, "columns", cols, 3, false);
	if (!t)
		return 1;
	for (i = 0; show_column(i, name, sizeof(name), &type, &desc); i++) {
		out_line(t);
		if (out_cell(t, 0, name) || out_cell(t, 1, type) || out_cell(t, 2, desc))
			goto out;
	}
	ret = out_print(t, c->out_f) ? 1 : 0;
out:
	out_free(t);
	return ret;
}

/*
 * show: a device without a scheduler (bio-based, or gone since the
 * listing) or with an unreadable tunable is shown without it, as lsblk
 * shows what it can; the problem goes to stderr.
 */
int cmd_show(struct ctl *c, int argc, char **argv)
{
	const struct param *ps[16];
	char **disks = NULL, sched[64], val[64];
	struct col *cols;
	struct out *t = NULL;
	size_t n = 0, i, k;
	int ret = 1, r;

	(void)argv;
	if (argc)
		return usage_error("show takes no arguments");
	if (c->list_columns)
		return list_columns(c);
	all_params(ps);
	cols = tunable_cols(ps, nr_params, true);
	if (!cols)
		return 1;
	if (c->explicit) {
		disks = calloc(c->devs.n ? c->devs.n : 1, sizeof(*disks));
		for (n = 0; disks && n < c->devs.n; n++)
			if (!(disks[n] = strdup(c->devs.v[n].disk)))
				break;
		if (!disks || n < c->devs.n) {
			warnx_("%s", strerror(ENOMEM));
			goto out;
		}
	} else {
		r = list_disks(&disks, &n);
		if (r) {
			warnx_("%s/block: %s", sysfs_root(), strerror(-r));
			goto out;
		}
	}
	t = out_new(&c->out, "blockdevices", cols, nr_params + 2, false);
	if (!t)
		goto out;
	for (i = 0; i < n; i++) {
		r = active_sched(disks[i], sched, sizeof(sched));
		if (r == -ENOENT && !sysfs_exists("block/%s", disks[i]))
			continue;	/* removed since the listing */
		if (r && r != -ENOENT)
			warnx_("%s: scheduler: %s", disks[i], strerror(-r));
		out_line(t);
		if (out_cell(t, 0, disks[i]) || out_cell(t, 1, r ? NULL : sched))
			goto out;
		for (k = 0; !r && strcmp(sched, SCHED) == 0 && k < nr_params; k++)
			if (out_cell(t, k + 2, read_param(disks[i], ps[k], val, sizeof(val)) ?
				     NULL : num_cell(disks[i], ps[k], val, sizeof(val))))
				goto out;
	}
	ret = out_print(t, c->out_f) ? 1 : 0;
out:
	out_free(t);
	free_names(disks, n);
	free(cols);
	return ret;
}

/* get PARAM...: "vda.fifo_batch = 64" per device and parameter, as sysctl. */
int cmd_get(struct ctl *c, int argc, char **argv)
{
	const struct param *ps[16];
	struct col *cols = NULL;
	struct out *t = NULL;
	char val[64];
	size_t i, k;
	int ret = 1;

	if (argc < 1)
		return usage_error("get takes one or more parameter names");
	for (k = 0; k < (size_t)argc; k++) {
		size_t j;

		if (k == nr_params || !(ps[k] = find_param(argv[k])))
			return usage_error("unknown parameter '%s'", esc(argv[k]));
		for (j = 0; j < k; j++)
			if (ps[j] == ps[k])
				return usage_error("get: '%s' given twice", ps[k]->name);
	}
	if (select_dlrb(&c->devs, c->explicit, false))
		return 1;
	if (c->out.fmt_set || c->out.columns) {
		cols = tunable_cols(ps, argc, false);
		t = cols ? out_new(&c->out, "blockdevices", cols, argc + 1, false) : NULL;
		if (!t)
			goto out;
	}
	for (i = 0; i < c->devs.n; i++) {
		const char *dev = c->devs.v[i].disk;

		if (t) {
			out_line(t);
			if (out_cell(t, 0, dev))
				goto out;
		}
		for (k = 0; k < (size_t)argc; k++) {
			if (read_param(dev, ps[k], val, sizeof(val)))
				goto out;
			if (t ? out_cell(t, k + 1, num_cell(dev, ps[k], val, sizeof(val))) :
				fprintf(c->out_f, "%s.%s = %s\n", dev, ps[k]->name, val) < 0)
				goto out;
		}
	}
	ret = t ? (out_print(t, c->out_f) ? 1 : 0) : 0;
out:
	out_free(t);
	free(cols);
	return ret;
}

/*
 * Set @n tunables on every chosen device, all or nothing, under the lock,
 * to @vals, or with @vals NULL to each one's default on each device (read
 * under the lock, as the old values are); what changed stays in
 * c->changes, to be undone if it cannot be printed.
 */
static int tune(struct ctl *c, const struct param *const *ps, const uint32_t *vals, size_t n)
{
	size_t nr, i;

	if (take_lock() || select_dlrb(&c->devs, c->explicit, false))
		return 1;
	nr = c->devs.n * n;
	c->changes = calloc(nr, sizeof(*c->changes));
	if (!c->changes) {
		warnx_("%s", strerror(ENOMEM));
		return 1;
	}
	c->nr_changes = nr;
	for (i = 0; i < nr; i++) {
		struct change *ch = &c->changes[i];
		const char *dev = c->devs.v[i / n].disk;
		const struct param *p = ps[i % n];
		uint32_t v;

		if (change_prepare(ch, dev, p->name))
			return 1;
		if (vals) {
			v = vals[i % n];
			if (param_check_dev(p, dev, v))
				return 1;
		} else if (param_default(p, dev, &v)) {
			return 1;
		}
		snprintf(ch->new, sizeof(ch->new), "%" PRIu32, v);
	}
	if (change_apply(c->changes, nr))
		return 1;
	c->changed = true;
	/* set echoes what it set, as sysctl; reset says only what it changed */
	for (i = 0; i < nr; i++)
		if (vals || strcmp(c->changes[i].old, c->changes[i].new))
			fprintf(c->out_f, "%s.%s = %s\n", c->changes[i].dev, c->changes[i].what,
				c->changes[i].new);
	return 0;
}

/* set NAME VALUE, or set NAME=VALUE...: every pair on every device, or none. */
int cmd_set(struct ctl *c, int argc, char **argv)
{
	const struct param *ps[16];
	uint32_t vals[16];
	size_t n = 0, k;
	int i;

	if (argc == 2 && !strchr(argv[0], '=')) {
		ps[0] = find_param(argv[0]);
		if (!ps[0])
			return usage_error("unknown parameter '%s'", esc(argv[0]));
		if (parse_value(ps[0], argv[1], &vals[0]))
			return 1;
		return tune(c, ps, vals, 1);
	}
	if (argc < 1)
		return usage_error("set takes NAME VALUE, or NAME=VALUE pairs");
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const struct param *p;

		if (!eq)
			return usage_error("'%s': not NAME=VALUE", esc(argv[i]));
		*eq = '\0';
		p = find_param(argv[i]);
		if (!p)
			return usage_error("unknown parameter '%s'", esc(argv[i]));
		/* a parameter given twice: the last value wins, as with sysctl */
		for (k = 0; k < n && ps[k] != p; k++)
			;
		if (parse_value(p, eq + 1, &vals[k]))
			return 1;
		ps[k] = p;
		n += k == n;
	}
	return tune(c, ps, vals, n);
}

int cmd_reset(struct ctl *c, int argc, char **argv)
{
	const struct param *ps[16];

	(void)argv;
	if (argc)
		return usage_error("reset takes no arguments");
	all_params(ps);
	return tune(c, ps, NULL, nr_params);
}
