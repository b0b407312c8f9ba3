/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sys/fsutil.h"
#include "sys/pidlock.h"

static int fill_pid(FILE *f, const void *ctx)
{
	(void)ctx;
	return fprintf(f, "%ld\n", (long)getpid()) < 0 ? -EIO : 0;
}

/* The pid the file holds, 0 if none. */
static long read_pid(const char *pid_path)
{
	char buf[34];
	size_t len;
	char *end;
	long pid;

	if (file_read_trusted(pid_path, false, buf, 32, &len))
		return 0;
	pid = strtol(buf, &end, 10);
	return pid > 0 && (*end == '\n' || !*end) ? pid : 0;
}

int pidlock_take(const char *lock_path, const char *pid_path, char *holder, size_t len)
{
	int fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	int r;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		long pid = read_pid(pid_path);
		if (pid)
			snprintf(holder, len, "%ld", pid);
		else
			snprintf(holder, len, "?");
		close(fd);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	r = file_replace(pid_path, fill_pid, NULL);
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

bool pidlock_held(const char *pid_path, const char *comm)
{
	char p[64], name[64];
	long pid = read_pid(pid_path);

	if (!pid)
		return false;
	snprintf(p, sizeof(p), "/proc/%ld/comm", pid);
	return read_text(p, name, sizeof(name)) == 0 && !strcmp(name, comm);
}
