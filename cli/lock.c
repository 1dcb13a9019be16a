// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: one run at a time changes things.  Commands that write (set,
 * reset, enable, disable, profile) take an flock(2) on /run/dlctl/lock
 * before they read the values they may have to put back, and hold it
 * until they exit, so that two runs cannot interleave their writes and a
 * rollback never undoes another run's change.  /run/dlctl also keeps
 * what each device ran before `enable`, for `disable`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dlctl.h"

#define RUN_DIR		"/run/dlctl"
#define LOCK_WAIT_S	30

static const char *run_dir(void)
{
	return test_hook("DLCTL_TEST_RUN_DIR", RUN_DIR);
}

int run_path(char *buf, size_t size, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", run_dir(), name);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	if (mkdir(run_dir(), 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int take_lock(void)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	char path[4096];
	int fd, ret, i;

	ret = run_path(path, sizeof(path), "lock");
	if (ret) {
		warnx_("%s: %s", run_dir(), strerror(-ret));
		return -1;
	}
	/* never closed: the lock goes with the process */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK) {
			warnx_("%s: %s", path, strerror(errno));
			return -1;
		}
		if (i == 0)
			warnx_("waiting for another dlctl to finish (%s)", path);
		if (i == LOCK_WAIT_S * 20) {
			warnx_("%s: still held after %d s; giving up", path, LOCK_WAIT_S);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}
