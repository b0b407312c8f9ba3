/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/mountpt.h"

/* The directory that holds path's last component, opened O_PATH, each
 * component from "/" on its own with O_NOFOLLOW (what openat2's
 * RESOLVE_NO_SYMLINKS does, on every kernel): a symbolic link on the way is
 * -ELOOP. The last component goes into `base` ("" for "/"). */
static int open_parent(const char *path, char base[NAME_MAX + 1])
{
	const char *s = path;
	int fd, r;

	base[0] = 0;
	if (path[0] != '/')
		return -EINVAL;
	if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	for (;;) {
		const char *e, *rest;
		struct stat st;
		int nfd;

		while (*s == '/')
			s++;
		if (!*s)
			return fd;
		e = strchrnul(s, '/');
		if ((size_t)(e - s) > NAME_MAX) {
			r = -ENAMETOOLONG;
			break;
		}
		memcpy(base, s, (size_t)(e - s));
		base[e - s] = 0;
		/* mountinfo's paths have none; one would climb out of the check */
		if (!strcmp(base, ".") || !strcmp(base, "..")) {
			r = -EINVAL;
			break;
		}
		for (rest = e; *rest == '/'; rest++)
			;
		if (!*rest)
			return fd; /* base is the last component */
		/* O_PATH | O_NOFOLLOW opens a link itself: fstat tells */
		if ((nfd = openat(fd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			r = -errno;
			break;
		}
		close(fd);
		fd = nfd;
		if (fstat(fd, &st) < 0) {
			r = -errno;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			r = S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
			break;
		}
		s = e;
	}
	close(fd);
	return r;
}

/* Is `name` in `dirfd` ("": dirfd itself), not followed, mount `id` of
 * device `dev`, and that mount's root where `want_root`? 0, -ELOOP,
 * -EXDEV or -errno. */
static int is_that_mount(int dirfd, const char *name, int id, dev_t dev, bool want_root)
{
	struct statx sx;
	int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (name[0] ? 0 : AT_EMPTY_PATH);

	if (statx(dirfd, name, flags, STATX_TYPE | STATX_MNT_ID, &sx) < 0)
		return -errno;
	if (S_ISLNK(sx.stx_mode))
		return -ELOOP;
	/* the mount id (Linux 5.8) names that very mount. The device number
	 * must agree too where it is a block device's; a btrfs file's st_dev
	 * is its subvolume's, never mountinfo's, so there the id alone tells,
	 * and without it nothing does */
	if (sx.stx_mask & STATX_MNT_ID) {
		if (sx.stx_mnt_id != (uint64_t)id)
			return -EXDEV;
	} else if (!major(dev)) {
		return -EXDEV;
	}
	if (major(dev) && makedev(sx.stx_dev_major, sx.stx_dev_minor) != dev)
		return -EXDEV;
	if (want_root && (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	    !(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return -EXDEV;
	return 0;
}

/* An O_RDONLY descriptor of the file `fd` (O_PATH, checked) is: fd's own
 * "." for a directory, so that no name is looked up again; for a file bind
 * mount, `base` in `pfd` opened again and checked to be the same file
 * (opening a regular file does nothing else). */
static int reopen(int fd, int pfd, const char *base, const struct stat *st)
{
	struct stat st2;
	int rfd;

	if (S_ISDIR(st->st_mode)) {
		rfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return rfd < 0 ? -errno : rfd;
	}
	if (!S_ISREG(st->st_mode) || pfd < 0)
		return -EXDEV; /* a mount on a FIFO or a device node is no disk's */
	rfd = openat(pfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	if (fstat(rfd, &st2) < 0 || st2.st_dev != st->st_dev || st2.st_ino != st->st_ino) {
		close(rfd);
		return -EXDEV;
	}
	return rfd;
}

int mountpt_open(const char *path, int id, dev_t dev)
{
	char base[NAME_MAX + 1];
	int pfd = open_parent(path, base), fd, r;
	struct stat st;

	if (pfd < 0)
		return pfd;
	if (!base[0]) { /* "/" */
		fd = pfd;
		pfd = -1;
	} else if ((fd = openat(pfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		r = -errno;
		close(pfd);
		return r;
	}
	r = is_that_mount(fd, "", id, dev, false);
	if (!r)
		r = fstat(fd, &st) < 0 ? -errno : reopen(fd, pfd, base, &st);
	close(fd);
	if (pfd >= 0)
		close(pfd);
	return r;
}

int mountpt_unmount(const char *path, int id, dev_t dev)
{
	char base[NAME_MAX + 1], at[64 + NAME_MAX];
	int pfd = open_parent(path, base), r;

	if (pfd < 0)
		return pfd;
	r = base[0] ? is_that_mount(pfd, base, id, dev, true) : -EINVAL;
	/* umount2 takes a path: the last name, looked up in the directory
	 * just checked through its descriptor (a rename above cannot move
	 * it; no working directory changed) and not followed */
	if (!r) {
		snprintf(at, sizeof(at), "/proc/self/fd/%d/%s", pfd, base);
		if (umount2(at, UMOUNT_NOFOLLOW) < 0)
			r = -errno;
	}
	close(pfd);
	return r;
}

const char *mountpt_strerror(int err)
{
	if (err == -ELOOP)
		return "a symbolic link is on the way now, not the mount";
	if (err == -EXDEV)
		return "another file system is there now, not the mount";
	return strerror(-err);
}
