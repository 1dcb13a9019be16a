// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: messages on stderr ("dlctl: vda: fifo_batch: Invalid argument"),
 * arguments escaped in them, and stdout checked at exit as util-linux's
 * close_stdout does.  With --syslog (udev's rule) the messages and the
 * output also go to syslog, where nobody reads udevd's pipes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "dlctl.h"

static bool to_syslog;

void log_to_syslog(void)
{
	openlog("dlctl", LOG_PID, LOG_DAEMON);
	to_syslog = true;
}

/* The output, a line a record, once it is out. */
void syslog_output(const char *buf, size_t len)
{
	const char *nl;

	while (to_syslog && len) {
		nl = memchr(buf, '\n', len);
		syslog(LOG_INFO, "%.*s", (int)(nl ? nl - buf : (ptrdiff_t)len), buf);
		if (!nl)
			break;
		len -= (size_t)(nl + 1 - buf);
		buf = nl + 1;
	}
}

static void vmessage(const char *fmt, va_list ap, const char *tail)
{
	if (to_syslog) {
		va_list aq;

		va_copy(aq, ap);
		vsyslog(LOG_WARNING, fmt, aq);
		va_end(aq);
	}
	fputs("dlctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, "\n");
	va_end(ap);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, "\nTry 'dlctl --help' for more information.\n");
	va_end(ap);
	return EXIT_USAGE;
}

/*
 * A terminal must not receive an argument's escape sequences: control
 * bytes, DEL and the backslash itself come out as \xHH.  Long arguments
 * are cut.  Four buffers, so that one message can hold four arguments.
 */
const char *esc(const char *s)
{
	static char bufs[4][256];
	static unsigned int next;
	char *b = bufs[next++ % 4], *o = b;
	const size_t room = sizeof(bufs[0]) - 8;

	for (; *s && (size_t)(o - b) < room; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f || ch == '\\')
			o += sprintf(o, "\\x%02x", ch);
		else
			*o++ = (char)ch;
	}
	strcpy(o, *s ? "..." : "");
	return b;
}

/* As util-linux's close_stdout(), without exiting: the caller may undo. */
int flush_stdout(void)
{
	errno = 0;
	if (!ferror(stdout) && fflush(stdout) == 0 && fclose(stdout) == 0)
		return 0;
	warnx_("write error: %s", strerror(errno ? errno : EIO));
	return 1;
}

/*
 * The test builds' hooks (tests/host/dlctl.sh): the environment variable
 * @name if set, else @def.  A release build has none (dlctl.h).
 */
#ifdef DLCTL_TEST_HOOKS
const char *test_hook(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}
#endif
