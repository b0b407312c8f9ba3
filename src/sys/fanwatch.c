/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include "sys/fanwatch.h"

int fanwatch_open(void)
{
	/* a notification class: nothing waits for an answer from us */
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			       O_RDONLY | O_CLOEXEC | O_LARGEFILE);

	return fd < 0 ? -errno : fd;
}

int fanwatch_mark(int fd, const char *path)
{
	return fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_MODIFY, AT_FDCWD, path) ? -errno
											   : 0;
}

int fanwatch_flush(int fd)
{
	return fanotify_mark(fd, FAN_MARK_FLUSH | FAN_MARK_MOUNT, 0, AT_FDCWD, NULL) ? -errno : 0;
}

int fanwatch_drain(int fd)
{
	/* aligned for the event records read into it */
	struct fanotify_event_metadata buf[64];
	int n = 0;

	for (;;) {
		ssize_t len = read(fd, buf, sizeof(buf));
		const struct fanotify_event_metadata *m = buf;

		if (len < 0)
			return errno == EAGAIN ? n : -errno;
		if (len == 0)
			return n;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			/* each event holds the written file open */
			if (m->fd >= 0)
				close(m->fd);
			n++;
		}
	}
}
