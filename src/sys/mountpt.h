/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A mount point opened or unmounted by root, from what mountinfo said of
 * it (its path, mount id and device number), without following anything
 * a user can change. The path is mountinfo's text from a moment ago: a
 * user who owns a directory on the way can rename it and leave a
 * symbolic link in its place, or mount a FUSE file system over it, so a
 * plain open() or umount2() as root could reach a directory only root may
 * read, or another mount. Here each component is opened on its own with
 * O_NOFOLLOW from "/", and what is found is checked to be that mount
 * (statx's mount id, and the device number where it is a block device's)
 * before it is used. Paths are the real ones (mountinfo's), not under a
 * root prefix. */
#ifndef WBGOV_SYS_MOUNTPT_H
#define WBGOV_SYS_MOUNTPT_H

#include <sys/types.h>

/* Open the file system of mount `id` (device `dev`) at `path` for
 * syncfs(2): an O_RDONLY descriptor of the directory (or the regular file
 * of a file bind mount) found there, or -ELOOP (a symbolic link on the
 * way), -EXDEV (another file system is there now), -errno. The directory
 * need not be the mount's root: any of its own will do for syncfs. */
int mountpt_open(const char *path, int id, dev_t dev);

/* Unmount mount `id` (device `dev`) at `path` (umount2, not lazy): only
 * when the path leads, with no symbolic link, to the root of that very
 * mount and nothing is mounted over it. 0, or -ELOOP, -EXDEV (another
 * mount, or not a mount's root), -EINVAL (not an absolute path, or "/"),
 * -errno of umount2 (EBUSY: in use). */
int mountpt_unmount(const char *path, int id, dev_t dev);

/* What mountpt_open's and mountpt_unmount's errors mean, for messages. */
const char *mountpt_strerror(int err);

#endif
