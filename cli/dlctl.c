// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: read, set and reset the deadline-rb I/O scheduler's tunables,
 * switch devices to and from it, show its counters, and profile what a
 * tunable does under a built-in workload.  This file: the command line
 * (options anywhere, as util-linux parses them) and the command table.
 *
 *   dlctl [options] COMMAND [ARGS]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"

/* CHANGELOG's newest release, passed in by the Makefile (scripts/version.sh). */
#ifndef DLCTL_VERSION
#error "build dlctl through the top-level Makefile, which passes DLCTL_VERSION"
#endif

enum {				/* which options a command takes */
	TAKES_OUTPUT = 1 << 0,	/* -J -o -n -r -P --csv */
	TAKES_PROFILE = 1 << 1,	/* -w -q -b --size ... */
	TAKES_APPLY = 1 << 2,	/* --config --dry-run */
	TAKES_COLUMNS = 1 << 3,	/* --list-columns */
	NAMES_PARAMS = 1 << 4,	/* its arguments, or what it does, are tunables */
	ONE_DEVICE = 1 << 5,	/* -d once */
};

static const struct command {
	const char *name;
	int (*fn)(struct ctl *c, int argc, char **argv);
	unsigned int takes;
	const char *args;
	const char *help;
} commands[] = {
	{ "show", cmd_show, TAKES_OUTPUT | TAKES_COLUMNS, "",
	  "every block device, its scheduler, deadline-rb's tunables" },
	{ "get", cmd_get, TAKES_OUTPUT | NAMES_PARAMS, " <param>...", "tunables, one line each" },
	{ "set", cmd_set, NAMES_PARAMS, " <param> <value> | <param>=<value>...",
	  "set tunables, on every device or on none" },
	{ "reset", cmd_reset, NAMES_PARAMS, "", "every tunable back to its default" },
	{ "enable", cmd_enable, 0, "", "switch the -d devices to deadline-rb" },
	{ "disable", cmd_disable, 0, "",
	  "switch deadline-rb devices back to what they ran before" },
	{ "stats", cmd_stats, TAKES_OUTPUT, "", "the scheduler's counters (needs debugfs)" },
	{ "profile", cmd_profile, TAKES_OUTPUT | TAKES_PROFILE | NAMES_PARAMS | ONE_DEVICE,
	  " <param> <value>[,<value>...]...",
	  "run a workload at each value, a row per value" },
	{ "apply", cmd_apply, TAKES_APPLY, "",
	  "carry out dlctl.conf and dlctl.d on the disks they match" },
	{ "save", cmd_save, 0, "", "print deadline-rb disks' settings as configuration" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(const struct command *cmd)
{
	size_t i;

	if (cmd) {
		printf("Usage:\n dlctl [options] %s%s\n\n%s.\n", cmd->name, cmd->args, cmd->help);
		printf("\nOptions:\n -d, --device <dev>     %s\n", cmd->takes & ONE_DEVICE ?
		       "the device to act on; needed when more than one runs " SCHED :
		       "a device to act on; repeatable");
		if (cmd->takes & TAKES_OUTPUT)
			fputs(" -J, --json             JSON output\n"
			      " -o, --output <list>    the columns to show (+<list> adds)\n"
			      " -n, --noheadings       no header line\n"
			      " -r, --raw              raw output\n"
			      " -P, --pairs            KEY=\"value\" output\n"
			      "     --csv              comma-separated values\n", stdout);
		if (cmd->takes & TAKES_COLUMNS)
			fputs(" -H, --list-columns     list the available columns\n", stdout);
	} else {
		fputs("Usage:\n"
		      " dlctl [options] <command> [<args>]\n"
		      "\n"
		      "Read and set the deadline-rb I/O scheduler's tunables.\n"
		      "\n"
		      "Commands:\n", stdout);
		for (i = 0; i < NR_COMMANDS; i++)
			printf(" %-8s %s\n", commands[i].name, commands[i].help);
		fputs("\n"
		      "Options:\n"
		      " -d, --device <dev>     act on this device (vda, vda1, /dev/disk/by-id/...);\n"
		      "                        repeatable; default: every device running deadline-rb\n"
		      "                        (show: every device; apply: every disk configured)\n"
		      " -J, --json             JSON output (show, get, stats, profile)\n"
		      " -o, --output <list>    the columns to show (+<list> adds to the default)\n"
		      " -n, --noheadings       no header line\n"
		      " -r, --raw              raw output\n"
		      " -P, --pairs            KEY=\"value\" output\n"
		      "     --csv              comma-separated values\n"
		      " -H, --list-columns     the columns show can print\n"
		      "     --sysfs-root <dir> read sysfs from <dir> instead of /sys\n"
		      "     --syslog           messages and output to syslog too (udev's rule)\n"
		      " -h, --help             display this help; <command> --help for one command\n"
		      " -V, --version          display version\n", stdout);
	}
	if (!cmd || cmd->takes & TAKES_APPLY)
		fputs("\n"
		      "Apply options:\n"
		      "     --config <file>    this file instead of the standard places; repeatable\n"
		      "     --dry-run          print what would change, change nothing\n",
		      stdout);
	if (!cmd || cmd->takes & TAKES_PROFILE)
		fputs("\n"
		      "Profile options:\n"
		      " -w, --workload <name>  randread (default), randwrite, randrw, seqread,\n"
		      "                        seqwrite, seqwrite+randread\n"
		      "     --runtime-per-value <time>  time per value (default 5s)\n"
		      "     --duration <time>  total time, split evenly over the values\n"
		      " -q, --iodepth <n>      I/O threads, one I/O each in flight (default 16)\n"
		      " -b, --bs <size>        bytes per I/O, a multiple of 4k (default 4k)\n"
		      "     --size <size>      use only the first <size> bytes of the device\n"
		      "     --allow-write      let write workloads destroy the device's data\n",
		      stdout);
	if (cmd && cmd->takes & TAKES_COLUMNS) {
		char name[64];
		const char *type, *desc;

		fputs("\nAvailable output columns:\n", stdout);
		for (i = 0; show_column(i, name, sizeof(name), &type, &desc); i++)
			printf(" %17s  %s\n", name, desc);
	}
	if (!cmd || cmd->takes & NAMES_PARAMS) {
		fputs("\nParameters:\n", stdout);
		for (i = 0; i < nr_params; i++) {
			const struct param *p = &params[i];
			char def[16], max[16];

			if (p->dev_def && p->dev_def->is_max)
				snprintf(max, sizeof(max), "%s", p->dev_def->what);
			else
				snprintf(max, sizeof(max), "%u", p->max);
			printf(" %-17s %s (default %s, %u..%s)\n", p->name, p->desc,
			       param_default_text(p, def, sizeof(def)), p->min, max);
		}
	}
	fputs("\nFor more details see dlctl(8).\n", stdout);
}

/* Output formats exclude each other. */
static int set_fmt(struct ctl *c, enum out_fmt fmt)
{
	if (c->out.fmt_set && c->out.fmt != fmt)
		return usage_error("--json, --raw, --pairs and --csv exclude each other");
	c->out.fmt = fmt;
	c->out.fmt_set = true;
	return 0;
}

enum {
	OPT_SYSFS_ROOT = 256, OPT_CSV, OPT_RUNTIME, OPT_DURATION, OPT_SIZE, OPT_ALLOW_WRITE,
	OPT_CONFIG, OPT_DRY_RUN, OPT_SYSLOG,
};

static const struct option longopts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "raw", no_argument, NULL, 'r' },
	{ "pairs", no_argument, NULL, 'P' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "workload", required_argument, NULL, 'w' },
	{ "runtime-per-value", required_argument, NULL, OPT_RUNTIME },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "iodepth", required_argument, NULL, 'q' },
	{ "bs", required_argument, NULL, 'b' },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "allow-write", no_argument, NULL, OPT_ALLOW_WRITE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "syslog", no_argument, NULL, OPT_SYSLOG },
	{ "list-columns", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

/* Where profile's option @opt goes; its value is checked by profile. */
static const char **profile_opt(struct ctl *c, int opt)
{
	switch (opt) {
	case 'w':
		return &c->workload;
	case OPT_RUNTIME:
		return &c->runtime;
	case OPT_DURATION:
		return &c->duration;
	case 'q':
		return &c->iodepth;
	case 'b':
		return &c->bs;
	default:
		return &c->size;
	}
}

/*
 * Options anywhere on the line (getopt permutes), "--" ends them.  Fills
 * @c, the -d arguments and the first option that @takes must allow.
 */
static int parse_args(int argc, char **argv, struct ctl *c, const char ***devargs,
		      size_t *nr_devargs, unsigned int *takes, const char **first,
		      bool *help, const char **root)
{
	static char names[4][40];
	const char **da;
	int opt, ret = 0, li = -1;

	*takes = 0;
	opterr = 0;	/* its messages would echo an argument's control bytes */
	while ((opt = getopt_long(argc, argv, ":d:Jjo:nrPhHVw:q:b:", longopts, &li)) != -1) {
		unsigned int need = 0;

		switch (opt) {
		case 'd':
			da = realloc(*devargs, (*nr_devargs + 1) * sizeof(**devargs));
			if (!da) {
				warnx_("%s", strerror(ENOMEM));
				return 1;
			}
			*devargs = da;
			da[(*nr_devargs)++] = optarg;
			break;
		case 'J': case 'j': case 'r': case 'P': case OPT_CSV:
			ret = set_fmt(c, opt == 'r' ? OUT_RAW : opt == 'P' ? OUT_PAIRS :
					 opt == OPT_CSV ? OUT_CSV : OUT_JSON);
			need = TAKES_OUTPUT;
			break;
		case 'o':
			c->out.columns = optarg;
			need = TAKES_OUTPUT;
			break;
		case 'n':
			c->out.noheadings = true;
			need = TAKES_OUTPUT;
			break;
		case 'H':
			c->list_columns = true;
			need = TAKES_COLUMNS;
			break;
		case OPT_SYSFS_ROOT:
			*root = optarg;
			break;
		case OPT_SYSLOG:
			log_to_syslog();
			break;
		case 'h':
			*help = true;
			break;
		case 'V':
			printf("dlctl %s\n", DLCTL_VERSION);
			return -1;
		case 'w': case OPT_RUNTIME: case OPT_DURATION: case 'q': case 'b': case OPT_SIZE:
			*profile_opt(c, opt) = optarg;
			need = TAKES_PROFILE;
			break;
		case OPT_ALLOW_WRITE:
			c->allow_write = true;
			need = TAKES_PROFILE;
			break;
		case OPT_CONFIG:
			if (!*optarg)
				return usage_error("--config: an empty file name");
			da = realloc(c->conf_files, (c->nr_conf_files + 1) * sizeof(*da));
			if (!da) {
				warnx_("%s", strerror(ENOMEM));
				return 1;
			}
			c->conf_files = da;
			da[c->nr_conf_files++] = optarg;
			need = TAKES_APPLY;
			break;
		case OPT_DRY_RUN:
			c->dry_run = true;
			need = TAKES_APPLY;
			break;
		case ':':
			return usage_error("option '%s' requires an argument",
					   esc(argv[optind - 1]));
		default:
			if (optopt && !strchr("dJjonrPhHVwqb", optopt))
				return usage_error("invalid option -- '%s'",
						   esc((char[]){ (char)optopt, '\0' }));
			return usage_error("unrecognized option '%s'", esc(argv[optind - 1]));
		}
		if (ret)
			return ret;
		if (need && !(*takes & need)) {
			int k = need == TAKES_OUTPUT ? 0 : need == TAKES_PROFILE ? 1 :
				need == TAKES_APPLY ? 2 : 3;
			char *n = names[k];

			if (li >= 0)
				snprintf(n, sizeof(names[0]), "--%s", longopts[li].name);
			else
				snprintf(n, sizeof(names[0]), "-%c", opt);
			first[k] = n;
		}
		*takes |= need;
		li = -1;
	}
	return 0;
}

/*
 * Descriptors 0-2 open before anything else is: a closed one would be the
 * number the next open() returns (the lock file's), and a report or a
 * message would be written into that file.  A closed stdout becomes
 * /dev/null opened read-only, so that writing the report fails as it
 * does on a full disk, and a change is undone; a closed stdin or stderr,
 * /dev/null.  False when that cannot be done: nothing can be said then.
 */
static bool open_std_fds(void)
{
	int fd, nfd;

	for (fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", fd == 1 ? O_RDONLY : O_RDWR);
		if (nfd != fd) {
			if (nfd >= 0)
				close(nfd);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	static struct ctl c;
	const char *root = getenv("DLCTL_SYSFS_ROOT"), *first[4] = { NULL };
	const char **devargs = NULL;
	const struct command *cmd = NULL;
	size_t nr_devargs = 0, i, outlen = 0;
	unsigned int takes;
	bool help = false;
	char *outbuf = NULL;
	int ret;

	if (!open_std_fds())
		return 1;
	/* a closed pipe is a write error, and a change is then undone */
	signal(SIGPIPE, SIG_IGN);
	ret = parse_args(argc, argv, &c, &devargs, &nr_devargs, &takes, first, &help, &root);
	if (ret)
		goto out;
	if (optind < argc) {
		for (i = 0; i < NR_COMMANDS && strcmp(argv[optind], commands[i].name); i++)
			;
		if (i == NR_COMMANDS) {
			ret = usage_error("unknown command '%s'", esc(argv[optind]));
			goto out;
		}
		cmd = &commands[i];
	}
	if (help) {
		usage(cmd);
		goto out;
	}
	if (!cmd) {
		ret = usage_error("no command given");
		goto out;
	}
	if ((takes & TAKES_OUTPUT) && !(cmd->takes & TAKES_OUTPUT)) {
		ret = usage_error("%s: output options apply to show, get, stats and profile",
				  first[0]);
		goto out;
	}
	if ((takes & TAKES_PROFILE) && !(cmd->takes & TAKES_PROFILE)) {
		ret = usage_error("%s: applies to profile only", first[1]);
		goto out;
	}
	if ((takes & TAKES_APPLY) && !(cmd->takes & TAKES_APPLY)) {
		ret = usage_error("%s: applies to apply only", first[2]);
		goto out;
	}
	if ((takes & TAKES_COLUMNS) && !(cmd->takes & TAKES_COLUMNS)) {
		ret = usage_error("%s: applies to show only", first[3]);
		goto out;
	}
	if (root && !*root && root != getenv("DLCTL_SYSFS_ROOT")) {
		warnx_("--sysfs-root: an empty path");
		ret = 1;
		goto out;
	}
	if (root && *root)
		sysfs_set_root(root);

	for (i = 0; i < nr_devargs; i++) {
		struct dev d;

		if (resolve_dev(devargs[i], &d) || add_dev(&c.devs, &d)) {
			ret = 1;
			goto out;
		}
	}
	c.explicit = nr_devargs > 0;
	c.nr_devargs = nr_devargs;

	c.out_f = open_memstream(&outbuf, &outlen);
	if (!c.out_f) {
		warnx_("%s", strerror(errno));
		ret = 1;
		goto out;
	}
	ret = cmd->fn(&c, argc - optind - 1, argv + optind + 1);
	fclose(c.out_f);
	/* Output only for a command that succeeded (apply: what did apply). */
	if ((!ret || c.partial) && outlen)
		fwrite(outbuf, 1, outlen, stdout);
	else
		outlen = 0;
out:
	if (flush_stdout()) {
		/* apply's report is written whatever its status: so is the undo */
		if (c.changed && (!ret || c.partial)) {
			change_undo(c.changes, c.nr_changes);
			warnx_("the output could not be written, so the change was undone");
		}
		ret = 1;
	} else {
		if (!ret && c.commit)
			c.commit(&c);
		syslog_output(outbuf, outlen);
	}
	free(outbuf);
	free(devargs);
	free(c.conf_files);
	change_free(c.changes, c.nr_changes);
	free_devs(&c.devs);
	return ret < 0 ? 0 : ret;
}
