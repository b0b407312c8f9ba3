/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc: meminfo, the vm.dirty_* sysctls, mountinfo. Paths under `root`. */
#ifndef WBGOV_SYS_PROCFS_H
#define WBGOV_SYS_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "knobs/knobs.h"
#include "model/limits.h"

/* Dirty and Writeback of /proc/meminfo, in bytes. */
int procfs_meminfo(const char *root, uint64_t *ret_dirty, uint64_t *ret_writeback);
/* Parse meminfo text (for tests): both fields are required. */
int procfs_parse_meminfo(const char *text, uint64_t *ret_dirty, uint64_t *ret_writeback);

/* nr_dirty, nr_writeback, nr_dirtied and nr_written of /proc/vmstat, in
 * bytes; all four are required. The file stays open between calls (the
 * daemon glances at it up to 20 times a second): *fd1 is its descriptor
 * + 1, 0 before the first call and after an error. */
int procfs_vmstat(const char *root, int *fd1, struct knobs_vmstat *ret);
int procfs_parse_vmstat(const char *text, size_t page_size, struct knobs_vmstat *ret);

int procfs_vm_read(const char *root, enum vm_knob k, uint64_t *ret);
int procfs_vm_write(const char *root, enum vm_knob k, uint64_t v);

/* Is the running kernel (/proc/sys/kernel/osrelease) at least maj.min?
 * False when it cannot be read. */
bool procfs_kernel_at_least(const char *root, unsigned maj, unsigned min);
/* Is the running kernel (ROOT/proc/sys/kernel/osrelease) 7.0-rc1 to rc6,
 * whose balance_dirty_pages() starts no writeback for a strict-limited
 * writer (KNOBS_BDP_NO_START)? */
bool procfs_kernel_stalls_strict(const char *root);

/* Mount points, one after another, each ended by a NUL: a mount point may
 * hold blanks ("/media/user/NO NAME"), and only a NUL cannot be in one.
 * Beside each, what root checks before it acts on the mount point (opens
 * it to sync, unmounts it: src/sys/mountpt.h): the mount's id and device
 * number as mountinfo gives them. */
#define MOUNT_LIST_MAX 128
struct mount_list {
	int n;          /* how many buf holds */
	bool truncated; /* more than buf holds were found */
	size_t used;
	char buf[4096];
	int id[MOUNT_LIST_MAX];   /* mountinfo's first field; -1: a path, not a mount */
	dev_t dev[MOUNT_LIST_MAX]; /* its major:minor (0:N for btrfs, tmpfs, FUSE) */
};

/* Append `path` with its mount's id and device number to `l`; false (and
 * `truncated` set) when it does not fit. */
bool mount_list_add(struct mount_list *l, const char *path, int id, dev_t dev);

/* The first mount point after `prev` (NULL: the first), NULL after the last. */
const char *mount_list_next(const struct mount_list *l, const char *prev);

/* `l`'s mount points joined by `sep` into buf ("" when none). */
void mount_list_join(const struct mount_list *l, const char *sep, char *buf, size_t len);

/* The whole disk a block device name belongs to ("sdb1" -> "sdb"; a disk
 * is its own) into `disk`. */
void procfs_whole_disk(const char *root, const char *name, char *disk, size_t len);

/* The whole disk of block device number `dev` (ROOT/sys/dev/block/MAJ:MIN,
 * a partition's disk for a partition) into `disk`; -ENOENT for a number
 * that is no block device's (0:N: btrfs, tmpfs, FUSE, NFS). */
int procfs_disk_of_devno(const char *root, dev_t dev, char *disk, size_t len);

/* The mount points of `disk` and its partitions, from ROOT/proc/self/mountinfo
 * (libmount), into `ret` (NULL: only count them). Returns how many there
 * are, or -errno. A mount is the disk's when its device number (mountinfo's
 * major:minor, set by the kernel) is the disk's or a partition's; the
 * source field is not looked at, as fusermount copies it from the user's
 * fsname= ("/dev/sdb1" on a FUSE mount of anyone's). The one exception is
 * btrfs, whose mounts all have an anonymous number: a mount of type
 * exactly "btrfs" (no user can make one; a user's FUSE type is "fuse" or
 * "fuse.SUBTYPE") is the disk's its source names. Every reader of a
 * disk's mounts goes through here, so that they agree: status, explain,
 * the D-Bus Mounts and Sync, knobs_real (mounted, and so [device] mount =
 * and the pre-6.2 dirty check), sync and eject. */
int procfs_mounts(const char *root, const char *disk, struct mount_list *ret);

/* The same for several disks, the table read (and each mount's disk found)
 * once: procfs_mount_table_read fills *ret (0 or -errno), procfs_mounts_of
 * answers for one disk as procfs_mounts does, procfs_mount_table_free lets
 * it go (NULL is fine). */
struct mount_table;
int procfs_mount_table_read(const char *root, struct mount_table **ret);
int procfs_mounts_of(const struct mount_table *t, const char *disk, struct mount_list *ret);
void procfs_mount_table_free(struct mount_table *t);

/* The mount points of device `d` from the table: a disk's as
 * procfs_mounts_of says; a share's (d->is_share) are the mounts of its
 * superblock, st_dev 0:d->minor, of a share's type (shares.h). Status,
 * explain and the D-Bus Mounts go through here. */
int procfs_dev_mounts_of(const struct mount_table *t, const struct knobs_dev *d,
			 struct mount_list *ret);
int procfs_dev_mounts(const char *root, const struct knobs_dev *d, struct mount_list *ret);

/* ROOT/proc/self/mountinfo opened to be watched: poll(2) says POLLPRI (and
 * POLLERR) on it when a mount comes or goes, which spares reading the table
 * every second. Its descriptor (close-on-exec), or -errno. */
int procfs_mounts_watch(const char *root);

/* The disk holding `path` (a file, directory or /dev node): fills `disk`. */
int procfs_disk_of_path(const char *root, const char *path, char *disk, size_t len);

#endif
