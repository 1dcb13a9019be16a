// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: sysfs access under a settable root.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlctl.h"
#include "sysfs.h"

static const char *root = "/sys";

void sysfs_set_root(const char *r)
{
	root = r;
}

const char *sysfs_root(void)
{
	return root;
}

static int vpath(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = snprintf(buf, size, "%s/", root);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	int m = vsnprintf(buf + n, size - n, fmt, ap);

	if (m < 0 || (size_t)m >= size - n)
		return -ENAMETOOLONG;
	return 0;
}

int sysfs_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(buf, size, fmt, ap);
	va_end(ap);
	return ret;
}

int iosched_attr(char *buf, size_t size, const char *dev, const char *name)
{
	int n = snprintf(buf, size, "block/%s/queue/iosched%s%s", dev, name ? "/" : "",
			 name ? name : "");

	/*
	 * async_depth: the scheduler's own on Linux 6.1 and 6.12; on 7.2 the
	 * block layer's queue/async_depth, which deadline-rb uses instead
	 */
	if (n >= 0 && (size_t)n < size && name && strcmp(name, "async_depth") == 0 &&
	    !sysfs_exists("%s", buf) && sysfs_exists("block/%s/queue/async_depth", dev))
		n = snprintf(buf, size, "block/%s/queue/async_depth", dev);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int sysfs_exists(const char *fmt, ...)
{
	char path[4096];
	struct stat st;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	return ret == 0 && stat(path, &st) == 0;
}

/*
 * sysfs hands out an attribute in one read, but a copy of /sys or a test
 * tree need not: read to the end, and refuse a value longer than @buf
 * rather than cut it.
 */
int sysfs_read(char *buf, size_t size, const char *fmt, ...)
{
	char path[4096], extra;
	size_t len = 0;
	va_list ap;
	ssize_t n = 0;
	int fd, ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	ret = n < 0 ? -errno : 0;
	/* full, and the first line goes on past it */
	if (!ret && len == size - 1 && !memchr(buf, '\n', len) &&
	    read(fd, &extra, 1) == 1 && extra != '\n')
		ret = -EOVERFLOW;
	close(fd);
	if (ret)
		return ret;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Is @path ROOT/@rel, @rel being a hook's first @len bytes? */
static bool is_path(const char *path, const char *rel, size_t len)
{
	size_t rl = strlen(root);

	return strncmp(path, root, rl) == 0 && path[rl] == '/' &&
	       strlen(path + rl + 1) == len && strncmp(path + rl + 1, rel, len) == 0;
}

/*
 * DLCTL_TEST_FAIL_WRITE names a path (relative to the root) whose writes
 * fail with EIO: the only way for host tests to make a fake sysfs refuse a
 * write as the kernel would, since root ignores file modes.  Test builds
 * only.
 */
static bool injected_failure(const char *path)
{
	const char *fail = test_hook("DLCTL_TEST_FAIL_WRITE", NULL);

	return fail && is_path(path, fail, strlen(fail));
}

/*
 * DLCTL_TEST_CLAMP=PATH:MAX: a number above MAX written to PATH is stored
 * as MAX, as by a kernel that clamps a value instead of refusing it: the
 * write succeeds, and the value reads back as something else.  Test
 * builds only.
 */
static const char *clamped(const char *path, const char *value, char *buf, size_t size)
{
	const char *hook = test_hook("DLCTL_TEST_CLAMP", NULL), *colon;
	uint64_t max, v;

	colon = hook ? strrchr(hook, ':') : NULL;
	if (!colon || !is_path(path, hook, colon - hook) ||
	    parse_num(colon + 1, NUM_PLAIN, &max) || parse_num(value, NUM_PLAIN, &v) ||
	    v <= max)
		return value;
	snprintf(buf, size, "%" PRIu64, max);
	return buf;
}

int sysfs_write(const char *value, const char *fmt, ...)
{
	char path[4096], line[256], max[32];
	va_list ap;
	ssize_t n;
	int fd, ret, len;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	value = clamped(path, value, max, sizeof(max));
	len = snprintf(line, sizeof(line), "%s\n", value);
	if (len < 0 || (size_t)len >= sizeof(line))
		return -EINVAL;
	if (injected_failure(path))
		return -EIO;
	/* No O_CREAT: an attribute exists or it does not (O_TRUNC is what
	 * a shell's ">" does; sysfs ignores it, a fake tree needs it). */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	ret = n < 0 ? -errno : (n == len ? 0 : -EIO);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
