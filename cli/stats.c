// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: deadline-rb's counters, from debugfs sched/stats ("name read
 * write" per line).  The one parser behind `stats` and `profile`: a line
 * that is not a name and two unsigned decimal numbers, or a name seen
 * twice, is an error, never silently the end of the file.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dlctl.h"
#include "sysfs.h"

static bool good_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!islower((unsigned char)s[n]) && !isdigit((unsigned char)s[n]) && s[n] != '_')
			return false;
	return n && n < sizeof(((struct counter *)0)->name);
}

static int parse_line(char *line, struct counter *ctr)
{
	char *tok[4], *save;
	int k;

	for (k = 0; k < 4; k++)
		tok[k] = strtok_r(k ? NULL : line, " \t\n", &save);
	if (!tok[2] || tok[3] || !good_name(tok[0]) || parse_num(tok[1], NUM_PLAIN, &ctr->v[0]) ||
	    parse_num(tok[2], NUM_PLAIN, &ctr->v[1]))
		return -1;
	snprintf(ctr->name, sizeof(ctr->name), "%s", tok[0]);
	return 0;
}

int read_stats(const char *dev, struct counter **ctrs, size_t *n)
{
	char path[4096], *line = NULL;
	size_t cap = 0, i;
	int lineno = 0, ret = -1;
	struct counter *v = NULL, *nv;
	FILE *f = NULL;

	*n = 0;
	errno = ENAMETOOLONG;
	if (sysfs_path(path, sizeof(path), "kernel/debug/block/%s/sched/stats", dev) ||
	    !(f = fopen(path, "re"))) {
		warnx_("%s: %s: %s (is debugfs mounted, and are you root?)", dev, path,
		       strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			warnx_("%s", strerror(ENOMEM));
			goto out;
		}
		v = nv;
		if (parse_line(line, &v[*n])) {
			warnx_("%s: %s:%d: not a counter line (name read write)", dev, path, lineno);
			goto out;
		}
		for (i = 0; i < *n; i++) {
			if (strcmp(v[i].name, v[*n].name) == 0) {
				warnx_("%s: %s:%d: %s counted twice", dev, path, lineno, v[i].name);
				goto out;
			}
		}
		(*n)++;
	}
	if (ferror(f))
		warnx_("%s: %s: %s", dev, path, strerror(errno));
	else if (!*n)
		warnx_("%s: %s: no counters", dev, path);
	else
		ret = 0;
out:
	free(line);
	fclose(f);
	if (ret) {
		free(v);
		v = NULL;
		*n = 0;
	}
	*ctrs = v;
	return ret;
}

/*
 * The counters of one I/O priority class (rt_dispatched, be_aged, ...): 15
 * of them, too many for a table to stay readable.  -o shows them; JSON,
 * pairs and CSV have every column.
 */
static bool class_counter(const char *name)
{
	static const char *const classes[] = { "rt_", "be_", "idle_" };
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strncmp(name, classes[i], strlen(classes[i])) == 0)
			return true;
	return false;
}

/* A record per device and direction: NAME, DIR, one column per counter. */
int cmd_stats(struct ctl *c, int argc, char **argv)
{
	static const char *const dirs[2] = { "read", "write" };
	struct counter **per = NULL;
	size_t *nper = NULL, ncols = 2, i, k, j;
	struct col *cols = NULL;
	struct out *t = NULL;
	int ret = 1, d;

	(void)argv;
	if (argc)
		return usage_error("stats takes no arguments");
	if (select_dlrb(&c->devs, c->explicit, false))
		return 1;
	per = calloc(c->devs.n, sizeof(*per));
	nper = calloc(c->devs.n, sizeof(*nper));
	cols = calloc(2, sizeof(*cols));
	if (!per || !nper || !cols)
		goto nomem;
	cols[0] = (struct col){ .name = "NAME", .def = true };
	cols[1] = (struct col){ .name = "DIR", .def = true };
	for (i = 0; i < c->devs.n; i++) {
		if (read_stats(c->devs.v[i].disk, &per[i], &nper[i]))
			goto out;
		/* the columns: every counter any device has, in order seen */
		for (k = 0; k < nper[i]; k++) {
			struct col *nc;

			for (j = 2; j < ncols && strcasecmp(cols[j].name, per[i][k].name); j++)
				;
			if (j < ncols)
				continue;
			nc = realloc(cols, (ncols + 1) * sizeof(*cols));
			if (!nc)
				goto nomem;
			cols = nc;
			cols[ncols] = (struct col){ .type = COL_NUM, .right = true,
						    .def = !class_counter(per[i][k].name) };
			for (j = 0; per[i][k].name[j]; j++)
				cols[ncols].name[j] = (char)toupper((unsigned char)per[i][k].name[j]);
			ncols++;
		}
	}
	t = out_new(&c->out, "stats", cols, ncols, true);
	if (!t)
		goto out;
	for (i = 0; i < c->devs.n; i++) {
		for (d = 0; d < 2; d++) {
			out_line(t);
			if (out_cell(t, 0, c->devs.v[i].disk) || out_cell(t, 1, dirs[d]))
				goto out;
			for (k = 0; k < nper[i]; k++) {
				for (j = 2; strcasecmp(cols[j].name, per[i][k].name); j++)
					;
				if (out_cellf(t, j, "%" PRIu64, per[i][k].v[d]))
					goto out;
			}
		}
	}
	ret = out_print(t, c->out_f) ? 1 : 0;
	goto out;
nomem:
	warnx_("%s", strerror(ENOMEM));
out:
	out_free(t);
	for (i = 0; per && i < c->devs.n; i++)
		free(per[i]);
	free(per);
	free(nper);
	free(cols);
	return ret;
}
