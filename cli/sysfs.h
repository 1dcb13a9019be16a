/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlctl's one path to sysfs: every access goes through a root that tests
 * can point at a fake tree (--sysfs-root, DLCTL_SYSFS_ROOT), as util-linux's
 * ul_path does for lscpu.
 */
#ifndef DLCTL_SYSFS_H
#define DLCTL_SYSFS_H

#include <stddef.h>

/* The root ("/sys" unless overridden); set once at start-up. */
void sysfs_set_root(const char *root);
const char *sysfs_root(void);

/* Read the first line of ROOT/<fmt...> into buf, without its newline. */
int sysfs_read(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write value plus a newline to ROOT/<fmt...>; returns 0 or -errno. */
int sysfs_write(const char *value, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Does ROOT/<fmt...> exist? */
int sysfs_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Build ROOT/<fmt...> into buf; returns 0 or -ENAMETOOLONG. */
int sysfs_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The one spelling of a scheduler tunable's path under the root,
 * "block/DEV/queue/iosched/NAME", or of that directory when @name is NULL;
 * for the functions above as "%s".  async_depth is the block layer's
 * "block/DEV/queue/async_depth" where the scheduler has none of its own
 * (Linux 7.2).  Returns 0 or -ENAMETOOLONG.
 */
int iosched_attr(char *buf, size_t size, const char *dev, const char *name);

#endif
