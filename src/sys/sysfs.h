/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /sys: the bdis, the disks behind them and their facts, their knobs and
 * their I/O counters. Every path is built from `root`. */
#ifndef WBGOV_SYS_SYSFS_H
#define WBGOV_SYS_SYSFS_H

#include <stdbool.h>

#include "knobs/knobs.h"

/* Every bdi backed by a present disk (a detached loop device is not
 * present), with the facts sysfs gives: bus from the device path, removable,
 * rotational, model, serial; and every share's (shares.h: NFS, CIFS, FUSE
 * without a block device, 9p, virtiofs, from the mount table). Returns the
 * count or -errno. */
int sysfs_devices(const char *root, struct knobs_dev *out, int max);

/* Fill `d` for one bdi name; -ENOENT if it has no present disk and is no
 * mounted share's. */
int sysfs_device(const char *root, const char *bdi, struct knobs_dev *d);

/* /sys/block/<disk>/stat: writes completed (field 5), sectors written
 * (field 7), in flight (field 9), io_ticks (field 10). */
int sysfs_disk_stat(const char *root, const char *disk, struct knobs_stat *ret);
/* Parse one stat line (for tests). */
int sysfs_parse_stat(const char *line, struct knobs_stat *ret);

/* A bdi name that can only name an entry of /sys/class/bdi: one path
 * component (no '/', not "." or ".."), printable, no blank, at most 63
 * characters. A name read from a file root trusts less than the kernel
 * (the state file) must pass, or it could lead a write anywhere. */
bool sysfs_bdi_name_ok(const char *bdi);

/* A bdi's knob; -EINVAL for a name sysfs_bdi_name_ok refuses. Opened
 * without following a link at the knob itself. */
int sysfs_bdi_read(const char *root, const char *bdi, enum bdi_attr a, uint64_t *ret);
int sysfs_bdi_write(const char *root, const char *bdi, enum bdi_attr a, uint64_t v);

/* Linux 6.2+: the bdis have strict_limit and max_bytes. */
bool sysfs_has_bdi_bytes(const char *root);

/* Can this process write the knobs it governs with (a bdi's strict_limit
 * on 6.2+, else vm.dirty_bytes)? 0, or -errno: EROFS where they are
 * mounted read-only (a unit's ProtectKernelTunables=), EACCES. */
int sysfs_knobs_writable(const char *root);

/* nr_cpu_ids: the highest possible CPU's number plus one
 * (/sys/devices/system/cpu/possible, "0-3,8"), or -errno. */
int sysfs_cpu_ids(const char *root);

/* The requests in flight (reads and writes) on the block device whose
 * device number is the bdi's name ("8:16": /sys/dev/block/8:16/inflight),
 * or -errno (-ENOENT: no such block device, as for btrfs-1). */
int sysfs_bdi_inflight(const char *root, const char *bdi);

#endif
