#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sys/pidlock.h"

int pidlock_take(const char *path, char *holder, size_t len)
{
	char buf[32];
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
		buf[strcspn(buf, "\n")] = 0;
		snprintf(holder, len, "%s", buf[0] ? buf : "?");
		close(fd);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	if (ftruncate(fd, 0) == 0) {
		int w = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		if (write(fd, buf, (size_t)w) != w) {
			/* the lock is what counts; the pid is for people */
		}
	}
	return fd;
}

bool pidlock_held(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool held = false;

	if (fd < 0)
		return false;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		held = true;
	close(fd);
	return held;
}
