// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: output as lsblk and findmnt make it, through libsmartcols: a
 * table, raw (-r), KEY="value" pairs (-P) or JSON (-J), a flat record per
 * line with typed values; -o picks the columns, "+LIST" adds to the
 * default ones; -n drops the header.  CSV (--csv) is written here, from
 * the same cells.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols/libsmartcols.h>

#include "dlctl.h"

struct out {
	struct libscols_table *tb;
	enum out_fmt fmt;
	bool noheadings;
	const struct col *cols;
	size_t n;
	int *map;		/* column id -> table column, or -1 */
	struct libscols_line *ln;
	char *title;
};

static int select_col(struct out *t, const char *name, size_t len, int *next)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (strlen(t->cols[i].name) != len || strncasecmp(t->cols[i].name, name, len))
			continue;
		if (t->map[i] < 0)
			t->map[i] = (*next)++;
		return 0;
	}
	warnx_("unknown column: '%s'", esc(strndupa(name, len)));
	return -1;
}

/* -o "A,B" or "+A,B"; the available columns in the message for an unknown one. */
static int select_cols(struct out *t, const char *spec, bool all)
{
	int next = 0;
	size_t i;

	if (!spec || *spec == '+')
		for (i = 0; i < t->n; i++)
			if (t->cols[i].def || (all && !spec))
				t->map[i] = next++;
	if (spec && *spec == '+')
		spec++;
	while (spec) {
		const char *comma = strchr(spec, ',');
		size_t len = comma ? (size_t)(comma - spec) : strlen(spec);

		if (select_col(t, spec, len, &next)) {
			fputs("dlctl: columns:", stderr);
			for (i = 0; i < t->n; i++)
				fprintf(stderr, "%s%s", i ? "," : " ", t->cols[i].name);
			fputc('\n', stderr);
			return -1;
		}
		spec = comma ? comma + 1 : NULL;
	}
	return 0;
}

static int add_columns(struct out *t)
{
	static const int json[] = {
		[COL_STR] = SCOLS_JSON_STRING,
		[COL_NUM] = SCOLS_JSON_NUMBER,
		[COL_BOOL] = SCOLS_JSON_BOOLEAN_OPTIONAL,	/* null when empty */
	};
	struct libscols_column *cl;
	int k, nsel = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		nsel += t->map[i] >= 0;
	/* in the order chosen */
	for (k = 0; k < nsel; k++) {
		for (i = 0; i < t->n && t->map[i] != k; i++)
			;
		cl = scols_table_new_column(t->tb, t->cols[i].name, 0,
					    t->cols[i].right ? SCOLS_FL_RIGHT : 0);
		if (!cl || scols_column_set_json_type(cl, json[t->cols[i].type]))
			return -1;
	}
	return 0;
}

struct out *out_new(const struct out_opts *o, const char *name, const struct col *cols,
		    size_t n, bool all)
{
	struct out *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t || !(t->map = malloc(n * sizeof(*t->map))) || !(t->tb = scols_new_table())) {
		warnx_("%s", strerror(ENOMEM));
		goto fail;
	}
	t->fmt = o->fmt;
	t->noheadings = o->noheadings;
	t->cols = cols;
	t->n = n;
	for (i = 0; i < n; i++)
		t->map[i] = -1;
	if (select_cols(t, o->columns, all && o->fmt != OUT_TABLE && o->fmt != OUT_RAW))
		goto fail;
	if (scols_table_set_name(t->tb, name) || add_columns(t)) {
		warnx_("%s", strerror(ENOMEM));
		goto fail;
	}
	scols_table_enable_json(t->tb, o->fmt == OUT_JSON);
	scols_table_enable_raw(t->tb, o->fmt == OUT_RAW);
	scols_table_enable_export(t->tb, o->fmt == OUT_PAIRS);
	scols_table_enable_noheadings(t->tb, o->noheadings);
	return t;
fail:
	out_free(t);
	return NULL;
}

/* A line above the table (libsmartcols would cut it to the table's width). */
void out_title(struct out *t, const char *title)
{
	free(t->title);
	t->title = strdup(title);
}

void out_line(struct out *t)
{
	t->ln = scols_table_new_line(t->tb, NULL);
}

int out_cell(struct out *t, size_t id, const char *val)
{
	if (!t->ln) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	if (id >= t->n || t->map[id] < 0 || !val)
		return 0;
	if (scols_line_set_data(t->ln, t->map[id], val)) {
		warnx_("%s", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

int out_cellf(struct out *t, size_t id, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return out_cell(t, id, buf);
}

/* RFC 4180: a field with a comma, quote or line break is quoted. */
static void csv_field(FILE *f, const char *s, bool lower)
{
	bool quote = s && strpbrk(s, ",\"\r\n");

	if (quote)
		fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(lower ? tolower((unsigned char)*s) : *s, f);
	}
	if (quote)
		fputc('"', f);
}

static void print_csv(struct out *t, FILE *f)
{
	size_t nc = scols_table_get_ncols(t->tb), nl = scols_table_get_nlines(t->tb), i, k;

	for (k = 0; k < nc && !t->noheadings; k++) {
		if (k)
			fputc(',', f);
		csv_field(f, scols_column_get_name(scols_table_get_column(t->tb, k)), true);
	}
	if (!t->noheadings)
		fputc('\n', f);
	for (i = 0; i < nl; i++) {
		struct libscols_line *ln = scols_table_get_line(t->tb, i);

		for (k = 0; k < nc; k++) {
			if (k)
				fputc(',', f);
			csv_field(f, scols_cell_get_data(scols_line_get_cell(ln, k)), false);
		}
		fputc('\n', f);
	}
}

int out_print(struct out *t, FILE *f)
{
	if (t->fmt == OUT_CSV) {
		print_csv(t, f);
		return 0;
	}
	if (t->title && t->fmt == OUT_TABLE && !t->noheadings)
		fprintf(f, "%s\n\n", t->title);
	if (scols_table_set_stream(t->tb, f) || scols_print_table(t->tb)) {
		warnx_("cannot print the table");
		return -1;
	}
	return 0;
}

void out_free(struct out *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	free(t->title);
	free(t->map);
	free(t);
}
