// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: the configuration that `dlctl apply` carries out, in the places
 * and with the precedence of sysctl.d(5):
 *
 *   /usr/lib/dlctl.d/ *.conf, /etc/dlctl.d/ *.conf  sorted by file name over
 *                                                  both; /etc hides /usr/lib
 *   /etc/dlctl.conf                                last
 *
 * A file is sections of settings (dlctl.conf(5)):
 *
 *   [name sd*]        kernel names, a glob
 *   [id wwn-0x5000*]  a glob over the disk's /dev/disk/by-id/ names
 *   [rotational]  [nonrotational]  [all]
 *   scheduler = deadline-rb
 *   fifo_batch = 16
 *
 * For one disk, the sections that match it are taken in order and a later
 * setting of a key wins.  A file with any error is reported (FILE:LINE:
 * why) and none of it is used.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"

static const char *const section_kinds[] = {
	[MATCH_NAME] = "name", [MATCH_ID] = "id", [MATCH_ROTATIONAL] = "rotational",
	[MATCH_NONROTATIONAL] = "nonrotational", [MATCH_ALL] = "all",
};

/* The root the standard places are under: "" but in a test build. */
static const char *conf_root(void)
{
	return test_hook("DLCTL_TEST_CONF_ROOT", "");
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* A scheduler's name as the kernel spells them: [a-z0-9_-], 1..15. */
static bool sched_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < 16 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* A new setting at @pos of @sec's, those from @pos on one further; or NULL. */
static struct conf_setting *add_setting(struct conf_section *sec, size_t pos, const char *key,
					const char *value, uint32_t num, const char *file,
					unsigned int line)
{
	struct conf_setting *s = realloc(sec->set, (sec->n + 1) * sizeof(*s));

	if (!s)
		return NULL;
	sec->set = s;
	memmove(s + pos + 1, s + pos, (sec->n - pos) * sizeof(*s));
	sec->n++;
	s += pos;
	memset(s, 0, sizeof(*s));
	snprintf(s->key, sizeof(s->key), "%s", key);
	snprintf(s->value, sizeof(s->value), "%s", value);
	s->num = num;
	s->file = file;
	s->line = line;
	return s;
}

static const char section_shape[] = "a section is [kind] or [kind glob], alone on its line";

/*
 * "[kind glob]", trimmed: the section, or why not.  The header ends at
 * the line's last ']', so that a glob's bracket expression (sd[ab]) is
 * part of it.
 */
static const char *parse_section(char *s, struct conf_section *sec)
{
	size_t len = strlen(s), k, n;
	char *arg;

	if (len < 2 || s[len - 1] != ']')
		return section_shape;
	s[len - 1] = '\0';
	s = trim(s + 1);
	arg = s + strcspn(s, " \t");
	if (*arg)
		*arg++ = '\0';
	arg = trim(arg);
	for (k = 0; k < sizeof(section_kinds) / sizeof(section_kinds[0]); k++)
		if (strcmp(s, section_kinds[k]) == 0)
			break;
	if (k == sizeof(section_kinds) / sizeof(section_kinds[0]))
		return "unknown section type (name, id, rotational, nonrotational, all)";
	sec->kind = k;
	if (k == MATCH_NAME || k == MATCH_ID) {
		if (!*arg)
			return k == MATCH_NAME ? "[name] needs a glob of kernel names" :
			       "[id] needs a glob of /dev/disk/by-id/ names";
		if (strchr(arg, '/') || strcspn(arg, " \t") != strlen(arg))
			return "a glob is one word, without '/'";
		for (n = strlen(arg); n && arg[n - 1] == '\\'; n--)
			;
		if ((strlen(arg) - n) % 2)
			return "a glob ends in a lone backslash, which matches nothing "
			       "(a backslash itself is written \\\\)";
		sec->glob = strdup(arg);
		if (!sec->glob)
			return strerror(ENOMEM);
	} else if (*arg) {
		return "this section type takes no glob";
	}
	return NULL;
}

/*
 * What a file of @st is to read: 0 /dev/null, which a symbolic link to
 * hides a file of its name as in sysctl.d(5) and reads as empty; 1 no
 * file to read (a directory; anything but a regular file in the standard
 * places, @listed), the reason in @buf; 2 a file to read.
 */
static int file_kind(const struct stat *st, bool listed, char *buf, size_t size)
{
	if (S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3))
		return 0;
	if (S_ISDIR(st->st_mode) || (listed && !S_ISREG(st->st_mode))) {
		snprintf(buf, size, "%s", S_ISDIR(st->st_mode) ? "a directory, not a file" :
			 "not a regular file (a FIFO, a socket or a device)");
		return 1;
	}
	return 2;
}

/*
 * @path opened for reading; or NULL, with *@why 0 or 1 as file_kind()
 * says, or -1 for a file that cannot be opened, and the reason in @buf.
 * What is not to be read is never opened (a FIFO would wait, a device
 * might act), and a listed file is opened without blocking, then looked
 * at again: it may have been replaced.  A file named with --config may be
 * a pipe (--config <(...)).
 */
static FILE *open_conf(const char *path, bool listed, int *why, char *buf, size_t size)
{
	struct stat st, lst;
	FILE *f;
	int fd;

	if (stat(path, &st)) {
		int err = errno;

		if (err == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			snprintf(buf, size, "a dangling symbolic link");
		else
			snprintf(buf, size, "%s", strerror(err));
		*why = -1;
		return NULL;
	}
	*why = file_kind(&st, listed, buf, size);
	if (*why != 2)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (listed ? O_NONBLOCK : 0));
	if (fd >= 0 && fstat(fd, &st) == 0) {
		*why = file_kind(&st, listed, buf, size);
		if (*why != 2) {
			close(fd);
			return NULL;
		}
	}
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		snprintf(buf, size, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		*why = -1;
		return NULL;
	}
	return f;
}

/*
 * The end of a line's content: its first '#' that no backslash escapes
 * (a glob's "\#" is a '#' in a by-id name), or its newline.
 */
static size_t content_len(const char *line)
{
	size_t i;

	for (i = 0; line[i] && line[i] != '\n' && line[i] != '#'; i++)
		if (line[i] == '\\' && line[i + 1] && line[i + 1] != '\n')
			i++;
	return i;
}

#define LINE_MAX_LEN	4096	/* a line, its newline included */

/*
 * The next line of @f into @buf, its newline kept, and its length, which a
 * NUL byte makes other than strlen()'s, in *@len: 1, 0 at the end of the
 * file, -1 for a line that does not fit (--config /dev/zero must not eat
 * the memory).
 */
static int next_line(FILE *f, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	int ch;

	while ((ch = getc(f)) != EOF) {
		if (n == size - 1)
			return -1;
		buf[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	buf[n] = '\0';
	*len = n;
	return n > 0;
}

/*
 * One file into @cf's sections.  Returns 0, 1 when the file has an error
 * or is not one to read (reported, and @cf left as it was), -1 when a file
 * named with --config (not @listed) cannot be read.
 */
static int read_file(struct conf *cf, const char *path, bool listed)
{
	struct conf_section *secs = NULL, *cur = NULL;
	size_t nsecs = 0, cap = 0, i;
	unsigned int lineno = 0;
	char line[LINE_MAX_LEN], *name;
	const char *why = NULL;
	char msg[512];
	size_t len;
	FILE *f;
	int ret = 0, got;

	/* in the standard places, one that cannot be opened is skipped too */
	f = open_conf(path, listed, &ret, msg, sizeof(msg));
	if (!f) {
		if (ret < 0 && !listed) {
			warnx_("%s: %s", path, msg);
			return -1;
		}
		if (ret)
			warnx_("%s: %s; nothing from this file is applied", path, msg);
		return ret ? 1 : 0;
	}
	ret = 0;
	name = strdup(path);
	if (!name) {
		warnx_("%s", strerror(ENOMEM));
		fclose(f);
		return -1;
	}
	while (!why && (got = next_line(f, line, sizeof(line), &len)) != 0) {
		char *s, *eq, *key, *val;
		const struct param *p;
		uint32_t num = 0;
		bool cut;

		lineno++;
		if (got < 0) {
			why = "a line longer than 4095 bytes";
			break;
		}
		if (len != strlen(line)) {
			why = "a NUL byte in the line";
			break;
		}
		if (lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0) {
			why = "a byte order mark (U+FEFF) at the start; save the file without one";
			break;
		}
		cut = line[content_len(line)] == '#';
		line[content_len(line)] = '\0';
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			if (nsecs == cap) {
				struct conf_section *n;

				cap = cap ? 2 * cap : 8;
				n = realloc(secs, cap * sizeof(*n));
				if (!n) {
					why = strerror(ENOMEM);
					break;
				}
				secs = n;
			}
			cur = &secs[nsecs++];
			memset(cur, 0, sizeof(*cur));
			cur->file = name;
			cur->line = lineno;
			why = parse_section(s, cur);
			if (why == section_shape && cut)
				why = "a section is [kind] or [kind glob], alone on its line "
				      "(a '#' in a glob is written \\#)";
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			why = "expected 'key = value' or '[section]'";
			break;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (!cur) {
			why = "a setting before any section";
		} else if (!*key) {
			why = "a setting without a key";
		} else if (!*val) {
			snprintf(msg, sizeof(msg), "%s: no value", esc(key));
			why = msg;
		} else if (strcmp(key, "scheduler") == 0) {
			if (!sched_name_ok(val)) {
				snprintf(msg, sizeof(msg), "scheduler: '%s': not a scheduler's name",
					 esc(val));
				why = msg;
			}
		} else if (!(p = find_param(key))) {
			snprintf(msg, sizeof(msg), "unknown key '%s' (scheduler, or a tunable: "
				 "dlctl --help lists them)", esc(key));
			why = msg;
		} else {
			why = value_error(p, val, &num, msg, sizeof(msg));
		}
		if (!why && !add_setting(cur, cur->n, key, val, num, name, lineno))
			why = strerror(ENOMEM);
	}
	if (!why && ferror(f))
		why = strerror(errno ? errno : EIO);
	fclose(f);

	/* a section that sets tunables runs deadline-rb unless it says */
	for (i = 0; !why && i < nsecs; i++) {
		struct conf_section *sec = &secs[i];
		bool tunables = false, sched = false;
		struct conf_setting *s;
		size_t j;

		for (j = 0; j < sec->n; j++) {
			sched |= strcmp(sec->set[j].key, "scheduler") == 0;
			tunables |= strcmp(sec->set[j].key, "scheduler") != 0;
		}
		if (tunables && !sched) {
			/* first, as if said on the section's line, before its own */
			s = add_setting(sec, 0, "scheduler", SCHED, 0, name, sec->line);
			if (!s) {
				why = strerror(ENOMEM);
				break;
			}
			s->implicit = true;
		}
	}

	if (why) {
		warnx_("%s:%u: %s; nothing from this file is applied", path, lineno, why);
		for (i = 0; i < nsecs; i++) {
			free(secs[i].glob);
			free(secs[i].set);
		}
		free(secs);
		free(name);
		return 1;
	}
	if (nsecs) {
		struct conf_section *all = realloc(cf->sec, (cf->n + nsecs) * sizeof(*all));

		if (!all) {
			warnx_("%s", strerror(ENOMEM));
			ret = -1;
		} else {
			cf->sec = all;
			memcpy(cf->sec + cf->n, secs, nsecs * sizeof(*secs));
			cf->n += nsecs;
		}
	}
	free(secs);
	if (ret == 0) {
		char **names = realloc(cf->names, (cf->nr_names + 1) * sizeof(*names));

		if (names) {
			cf->names = names;
			names[cf->nr_names++] = name;	/* the sections point at it */
			return 0;
		}
		warnx_("%s", strerror(ENOMEM));
		ret = -1;
	}
	free(name);	/* unreachable sections may point at it: conf is dropped */
	return ret;
}

static int by_name(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;

	return strcmp(strrchr(*x, '/') + 1, strrchr(*y, '/') + 1);
}

/* Add DIR/ *.conf to @paths, but names already there from a later place. */
static int scan_dir(const char *dir, char ***paths, size_t *n)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t i;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **np, *path;

		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".conf"))
			continue;
		for (i = 0; i < *n; i++)
			if (strcmp(strrchr((*paths)[i], '/') + 1, de->d_name) == 0)
				break;
		if (i < *n)
			continue;	/* hidden by /etc's file of that name */
		np = realloc(*paths, (*n + 1) * sizeof(*np));
		if (!np || asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			if (np)
				*paths = np;
			closedir(d);
			return -ENOMEM;
		}
		*paths = np;
		(*paths)[(*n)++] = path;
	}
	closedir(d);
	return 0;
}

int conf_read(struct conf *cf, const char *const *files, size_t nr_files)
{
	static const char *const dirs[] = { "/etc/dlctl.d", "/usr/lib/dlctl.d" };
	char **paths = NULL, path[PATH_MAX];
	struct stat st;
	size_t n = 0, i;
	int ret = 0, r;

	memset(cf, 0, sizeof(*cf));
	if (nr_files) {
		for (i = 0; i < nr_files && ret >= 0; i++) {
			r = read_file(cf, files[i], false);
			ret = r < 0 ? -1 : ret + r;
		}
		return ret;
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s%s", conf_root(), dirs[i]);
		r = scan_dir(path, &paths, &n);
		if (r) {
			warnx_("%s: %s", path, strerror(-r));
			ret = -1;
			break;
		}
	}
	if (ret == 0) {
		if (n)
			qsort(paths, n, sizeof(*paths), by_name);
		for (i = 0; i < n && ret >= 0; i++) {
			r = read_file(cf, paths[i], true);
			ret = r < 0 ? -1 : ret + r;
		}
	}
	snprintf(path, sizeof(path), "%s/etc/dlctl.conf", conf_root());
	/* lstat: a link to nothing is reported, not taken for no file */
	if (ret >= 0 && lstat(path, &st) == 0) {
		r = read_file(cf, path, true);
		ret = r < 0 ? -1 : ret + r;
	} else if (ret >= 0 && errno != ENOENT) {
		warnx_("%s: %s; nothing from this file is applied", path, strerror(errno));
		ret++;
	}
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return ret;
}

void conf_free(struct conf *cf)
{
	size_t i;

	for (i = 0; i < cf->n; i++) {
		free(cf->sec[i].glob);
		free(cf->sec[i].set);
	}
	free(cf->sec);
	for (i = 0; i < cf->nr_names; i++)
		free(cf->names[i]);
	free(cf->names);
	memset(cf, 0, sizeof(*cf));
}

/* Is one of @disk's /dev/disk/by-id/ names matched by @glob? */
static bool id_matches(const char *disk, const char *glob)
{
	char **ids = NULL;
	size_t n = 0, i;
	bool hit = false;

	if (disk_ids(disk, &ids, &n))
		return false;
	for (i = 0; i < n; i++)
		hit |= fnmatch(glob, ids[i], 0) == 0;
	free_names(ids, n);
	return hit;
}

static bool section_matches(const struct conf_section *sec, const char *disk)
{
	char rot[16];

	switch (sec->kind) {
	case MATCH_NAME:
		return fnmatch(sec->glob, disk, 0) == 0;
	case MATCH_ID:
		return id_matches(disk, sec->glob);
	case MATCH_ROTATIONAL:
	case MATCH_NONROTATIONAL:
		if (sysfs_read(rot, sizeof(rot), "block/%s/queue/rotational", disk))
			return false;
		return (strcmp(rot, "1") == 0) == (sec->kind == MATCH_ROTATIONAL);
	default:
		return true;
	}
}

int conf_for_disk(const struct conf *cf, const char *disk, struct conf_setting **out,
		  size_t *nr)
{
	struct conf_setting *v = NULL;
	size_t n = 0, i, j, k;

	for (i = 0; i < cf->n; i++) {
		const struct conf_section *sec = &cf->sec[i];

		if (!section_matches(sec, disk))
			continue;
		for (j = 0; j < sec->n; j++) {
			for (k = 0; k < n && strcmp(v[k].key, sec->set[j].key); k++)
				;
			if (k == n) {
				struct conf_setting *nv = realloc(v, (n + 1) * sizeof(*nv));

				if (!nv) {
					free(v);
					warnx_("%s", strerror(ENOMEM));
					return -1;
				}
				v = nv;
				n++;
			}
			v[k] = sec->set[j];	/* a later one wins */
		}
	}
	*out = v;
	*nr = n;
	return 0;
}
