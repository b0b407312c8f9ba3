/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include "sys/fanwatch.h"

int fanwatch_open(void)
{
	/* a notification class: nothing waits for an answer from us. The
	 * event flags would be those of each event's file, were one ever
	 * read: non-blocking, so that even then a lease could not hold us */
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			       O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_LARGEFILE);

	return fd < 0 ? -errno : fd;
}

int fanwatch_mark(int fd, const char *path)
{
	if (fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_MODIFY, AT_FDCWD, path) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	return fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_MODIFY, AT_FDCWD, path) ? -errno
											   : 0;
}
