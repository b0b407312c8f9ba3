/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

/* A line of /proc/locks (fs/locks.c, lock_get_status()):
 *   1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF
 * its device's major and minor in hex; a waiter's line has "->" after the
 * number, and a pid the reader cannot see is left out. */
long pidlock_parse_locks(const char *text, dev_t dev, ino_t ino)
{
	for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char type[16], mode[16], rw[16];
		unsigned int maj, min;
		unsigned long long i;
		long pid;

		if (sscanf(s, "%*d: %15s %15s %15s %ld %x:%x:%llu", type, mode, rw, &pid, &maj, &min,
			   &i) != 7)
			continue;
		if (!strcmp(type, "FLOCK") && !strcmp(rw, "WRITE") && pid > 0 &&
		    makedev(maj, min) == dev && (ino_t)i == ino)
			return pid;
	}
	return 0;
}

/* Who holds the lock on fd's file, as the kernel says. Not under the
 * root prefix: the lock is a file of this machine, not of a fixture. */
static void holder_of(int fd, struct pidlock_holder *h)
{
	struct stat st;
	char line[256], p[64];
	FILE *f;

	h->pid = 0;
	h->comm[0] = 0;
	if (fstat(fd, &st) < 0 || !(f = fopen("/proc/locks", "re")))
		return;
	/* line by line: the table has a line per lock on the machine */
	while (!h->pid && fgets(line, sizeof(line), f))
		h->pid = pidlock_parse_locks(line, st.st_dev, st.st_ino);
	fclose(f);
	if (!h->pid)
		return;
	snprintf(p, sizeof(p), "/proc/%ld/comm", h->pid);
	if (read_text(p, h->comm, sizeof(h->comm)))
		h->comm[0] = 0;
	for (char *c = h->comm; *c; c++)
		if (*c < ' ' || *c > '~')
			*c = '?'; /* a name any program can give itself, for a terminal */
}

int pidlock_take(const char *lock_path, struct pidlock_holder *ret_holder)
{
	/* read-only: flock needs no write, and a lock file that is there
	 * opens on a file system mounted read-only too */
	int fd = open(lock_path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	/* a holder that lets go between the refusal and the look at
	 * /proc/locks: try again, rather than name no one */
	for (int tries = 0; tries < 3; tries++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK) {
			int e = errno;
			close(fd);
			return -e;
		}
		holder_of(fd, ret_holder);
		if (ret_holder->pid)
			break;
	}
	close(fd);
	return -EBUSY;
}

void pidlock_holder_text(const struct pidlock_holder *h, char *buf, size_t len)
{
	if (!h->pid)
		snprintf(buf, len, "another process");
	else if (h->comm[0])
		snprintf(buf, len, "pid %ld (%s)", h->pid, h->comm);
	else
		snprintf(buf, len, "pid %ld", h->pid);
}

int pidlock_write_pid(const char *pid_path)
{
	return file_replace(pid_path, fill_pid, NULL);
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
