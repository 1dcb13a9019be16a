/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlctl's shared declarations: the tunables, the one number parser,
 * messages, devices, the lock, output, and the commands.
 *
 * Exit status: 0 ok, 1 failure (a bad value included), 2 a command line
 * that cannot be understood.  A failed command prints nothing on stdout
 * and leaves every tunable and scheduler as it was.
 */
#ifndef DLCTL_H
#define DLCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define SCHED		"deadline-rb"
#define EXIT_USAGE	2

/* param.c: the tunables, with the kernel's ranges (kernel/dlrb-engine.h, dlrb-iosched.c) */
enum unit { UNIT_NONE, UNIT_MS, UNIT_BOOL };

/*
 * A default the kernel computes per device (async_depth: from the queue's
 * nr_requests): how, in words, and its value on @dev, which prints why
 * and fails when it cannot be had.
 */
struct dev_default {
	const char *what;	/* "3/4 of nr_requests": --help */
	int (*get)(const char *dev, uint32_t *val);
	bool is_max;		/* and the most the kernel takes there */
};

struct param {
	const char *name;
	enum unit unit;
	uint32_t def;				/* the default ... */
	const struct dev_default *dev_def;	/* ... unless this says */
	uint32_t min, max;
	const char *desc;
};

extern const struct param params[];
extern const size_t nr_params;
const struct param *find_param(const char *name);
/* @p's default on @dev: what reset writes.  Prints why and fails. */
int param_default(const struct param *p, const char *dev, uint32_t *val);
/* Is @v within what @dev takes for @p?  Prints why not and fails. */
int param_check_dev(const struct param *p, const char *dev, uint32_t v);
/* @p's default for a reader: "500", or how each device's is chosen. */
const char *param_default_text(const struct param *p, char *buf, size_t size);

/* param.c: the one number parser.  Returns NULL, or why not. */
enum num_kind {
	NUM_PLAIN,	/* 16 */
	NUM_MS,		/* 250, 250ms, 2s, 1m: milliseconds */
	NUM_SECONDS,	/* 5, 500ms, 5s, 1m: milliseconds, a bare number is s */
	NUM_SIZE,	/* 4096, 4k, 4KiB, 4KB (10^3), 1M: bytes */
};
const char *parse_num(const char *s, enum num_kind kind, uint64_t *out);
/* A tunable's value; on error prints "dlctl: NAME: 'S': why" and fails. */
int parse_value(const struct param *p, const char *s, uint32_t *val);
/* The same, returning NULL or "NAME: 'S': why" (in @buf). */
const char *value_error(const struct param *p, const char *s, uint32_t *val, char *buf,
			size_t size);

/* msg.c */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_to_syslog(void);
void syslog_output(const char *buf, size_t len);
/* @s with control bytes and quotes escaped, for a message; 4 at a time. */
const char *esc(const char *s);
/* Flush stdout; on a write error say so.  Returns 0 or 1. */
int flush_stdout(void);

/* device.c: a device named with -d, or found running deadline-rb */
struct dev {
	char *disk;	/* the queue: "vda" */
	char *part;	/* the partition asked for ("vda1"), or NULL */
	char *node;	/* the path given with -d, or NULL for a bare name */
};

struct devs {
	struct dev *v;
	size_t n;
};

/* Every entry of ROOT/block, sorted; -errno on failure. */
int list_disks(char ***names, size_t *n);
void free_names(char **names, size_t n);
/* Device nodes: /dev (tests: DLCTL_TEST_DEV_DIR). */
const char *dev_dir(void);
/* @disk's names in /dev/disk/by-id (links to ../../DISK), sorted; -errno. */
int disk_ids(const char *disk, char ***ids, size_t *n);
/* -d's argument to a disk (and partition); prints why not and fails. */
int resolve_dev(const char *arg, struct dev *d);
int add_dev(struct devs *ds, const struct dev *d);
void free_devs(struct devs *ds);
/*
 * The active scheduler of @disk (the bracketed word).  -ENOENT when the
 * disk has no scheduler file (bio-based: zram, dm, md), other -errno when
 * it cannot be read.
 */
int active_sched(const char *disk, char *buf, size_t size);
/* Is @name one of the schedulers @disk offers? */
bool offers_sched(const char *disk, const char *name);
/* Does @disk offer schedulers at all, a request queue, not bio-based? */
bool offers_elevators(const char *disk);
/* Did dlctl disable switch @disk off (and no enable since)? (switch.c) */
bool disabled_by_hand(const char *disk);
/*
 * Without -d: every disk running deadline-rb (none is an error unless
 * @none_ok); with -d: each must run it.  Prints why and fails.
 */
int select_dlrb(struct devs *ds, bool explicit, bool none_ok);

/* lock.c: one dlctl changing things at a time; state kept across runs */
int take_lock(void);
/* RUN_DIR/<name>, with the run directory created. */
int run_path(char *buf, size_t size, const char *name);

/*
 * change.c: writes to sysfs applied all or nothing.  Each is read back;
 * on a refusal or a mismatch, every change made so far, the failed one
 * included, is put back in reverse order.  set, reset, enable, disable and
 * profile all go through it.
 */
struct kept {
	char attr[256];
	char val[256];
};

struct change {
	char attr[256];		/* under the sysfs root */
	char dev[64];		/* for messages */
	const char *what;	/* "scheduler", or a tunable: "fifo_batch" */
	char old[256];
	char new[256];
	bool done;		/* written, or tried */
	bool failed;		/* refused, or reads back otherwise */
	/* a scheduler switch resets these: written back after an undo */
	struct kept *keep;
	size_t nr_keep;
};

/*
 * Record @dev's current value of @what: queue/scheduler for "scheduler",
 * else the tunable queue/iosched/@what.  Prints why and fails.
 */
int change_prepare(struct change *ch, const char *dev, const char *what);
/* Keep @dev's nr_requests, then queue/iosched/ *, for undoing a switch. */
int change_keep_queue(struct change *ch, const char *dev);
/*
 * Signals that would end the process stay blocked from here until it
 * exits; one the caller catches (profile) is left to its handler.
 */
int change_apply(struct change *ch, size_t n);
/* Put back what was written; -1 (and a message) if something could not be. */
int change_undo(struct change *ch, size_t n);
void change_free(struct change *ch, size_t n);
/* The active word of a scheduler line ("[bfq]" in "none [bfq]"), or all. */
void sched_word(const char *line, char *buf, size_t size);

/* output.c: tables, JSON, pairs and CSV through libsmartcols */
enum out_fmt { OUT_TABLE, OUT_RAW, OUT_PAIRS, OUT_JSON, OUT_CSV };

struct out_opts {
	enum out_fmt fmt;
	bool fmt_set;		/* any of -J -r -P --csv */
	bool noheadings;
	const char *columns;	/* -o */
};

enum col_type { COL_STR, COL_NUM, COL_BOOL };

struct col {
	char name[64];		/* upper case; JSON's key is its lower case */
	enum col_type type;
	bool def;		/* shown without -o */
	bool right;
};

struct out;
/* @all: machine formats show every column without -o (profile). */
struct out *out_new(const struct out_opts *o, const char *name, const struct col *cols,
		    size_t n, bool all);
void out_title(struct out *t, const char *title);
void out_line(struct out *t);
/* Set column @id of the current line; NULL for none (null in JSON). */
int out_cell(struct out *t, size_t id, const char *val);
int out_cellf(struct out *t, size_t id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int out_print(struct out *t, FILE *f);
void out_free(struct out *t);

/* dlctl.c: what a command gets */
struct ctl {
	struct devs devs;
	bool explicit;		/* devices chosen with -d */
	struct out_opts out;
	bool list_columns;	/* -H: the columns, not the devices (show) */
	FILE *out_f;		/* buffered: printed only on success */
	/* profile's options, parsed with the rest */
	const char *workload, *runtime, *duration, *iodepth, *bs, *size;
	bool allow_write;
	/* apply's options */
	const char **conf_files;
	size_t nr_conf_files;
	bool dry_run;
	size_t nr_devargs;	/* -d as given, before disks named twice merge */
	/* what a command changed: undone when its output cannot be written */
	struct change *changes;
	size_t nr_changes;
	bool changed;		/* every one of them applied */
	bool partial;		/* output even on failure: what did apply (apply) */
	/* after the output was written: what a command keeps in /run */
	void (*commit)(struct ctl *c);
};

/* show's column @i: its name, type and what it holds; false past the last. */
bool show_column(size_t i, char *name, size_t size, const char **type, const char **desc);

int cmd_show(struct ctl *c, int argc, char **argv);
int cmd_get(struct ctl *c, int argc, char **argv);
int cmd_set(struct ctl *c, int argc, char **argv);
int cmd_reset(struct ctl *c, int argc, char **argv);
int cmd_enable(struct ctl *c, int argc, char **argv);
int cmd_disable(struct ctl *c, int argc, char **argv);
int cmd_stats(struct ctl *c, int argc, char **argv);
int cmd_profile(struct ctl *c, int argc, char **argv);
int cmd_apply(struct ctl *c, int argc, char **argv);
int cmd_save(struct ctl *c, int argc, char **argv);

/* conf.c: dlctl.conf(5), the configuration apply carries out */
enum match_kind { MATCH_NAME, MATCH_ID, MATCH_ROTATIONAL, MATCH_NONROTATIONAL, MATCH_ALL };

struct conf_setting {
	char key[32];		/* "scheduler", or a tunable */
	char value[64];		/* as written */
	uint32_t num;		/* a tunable's value, in its unit */
	bool implicit;		/* scheduler = deadline-rb, since tunables are set */
	const char *file;	/* where it was said */
	unsigned int line;
};

struct conf_section {
	enum match_kind kind;
	char *glob;		/* [name GLOB], [id GLOB] */
	struct conf_setting *set;
	size_t n;
	const char *file;
	unsigned int line;
};

struct conf {
	struct conf_section *sec;
	size_t n;
	char **names;		/* the files read, which settings point into */
	size_t nr_names;
};

/*
 * Read @files, or with none the standard places (dlctl.conf(5)).  A file
 * with an error is reported and left out.  Returns how many were left
 * out, or -1 when one cannot be read at all.
 */
int conf_read(struct conf *cf, const char *const *files, size_t nr_files);
void conf_free(struct conf *cf);
/* What @cf sets on @disk, a setting per key, the last one said winning. */
int conf_for_disk(const struct conf *cf, const char *disk, struct conf_setting **out,
		  size_t *nr);

/* stats.c: debugfs sched/stats, "name read write" per line */
struct counter {
	char name[32];
	uint64_t v[2];		/* read, write */
};

/* Parse @dev's counters; prints why and fails on anything malformed. */
int read_stats(const char *dev, struct counter **ctrs, size_t *n);

/* msg.c: a test build's hook, the environment's @name; else @def */
#ifdef DLCTL_TEST_HOOKS
const char *test_hook(const char *name, const char *def);
#else
#define test_hook(name, def)	(def)	/* not even the name in a release */
#endif

#endif
