/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What ejecting a disk takes from the system: the other disks that lose
 * power with it, who holds its file systems, what is stacked on it,
 * flushing it, and powering it off as udisks does (a USB device through
 * its `remove`, a SCSI or SATA disk through `delete`; a loop device is
 * detached). Paths under a root prefix, as in fsutil.h, the device nodes
 * (ROOT/dev/DISK) too. */
#ifndef WBGOV_SYS_EJECT_H
#define WBGOV_SYS_EJECT_H

#include <stddef.h>
#include <sys/types.h>

enum eject_power {
	EJECT_POWER_NONE, /* wbgov cannot power it off (virtio, NVMe, mmc...) */
	EJECT_POWER_LOOP, /* a loop device: detached */
	EJECT_POWER_USB,  /* its USB device's remove */
	EJECT_POWER_SCSI, /* its SCSI device's delete */
};

/* How DISK (a whole disk's kernel name) can be powered off, and for USB
 * and SCSI the sysfs file that does it (in `attr`). */
enum eject_power eject_power_kind(const char *root, const char *disk, char *attr, size_t len);

/* DISK's USB device: the first directory above its device with an
 * idVendor (its interfaces have none), resolved, into `dir`. 0, or
 * -ENODEV when DISK is not on USB. */
int eject_usb_device(const char *root, const char *disk, char *dir, size_t len);

/* A disk on the same USB device as another. */
struct eject_sibling {
	char disk[32];
	int lun; /* its SCSI address's LUN (H:C:T:L), -1 when it has none */
};

/* The other disks on DISK's USB device, which its `remove` powers off
 * too: a card reader's or a multi-LUN stick's LUNs, a dock's drives. At
 * most max into out; how many (0 when DISK is not on USB). */
int eject_siblings(const char *root, const char *disk, struct eject_sibling *out, int max);

/* Processes with an open file, a working or root directory, an executable
 * or a mapping on the file system of device `dev` (a stat's st_dev): "PID
 * (comm)" joined by ", " into buf (cut to fit). Returns how many (0 when
 * /proc says none). */
int eject_holders(const char *root, dev_t dev, char *buf, size_t len);

/* Processes that have the node of DISK or of one of its partitions open (a
 * dd to /dev/sdb, a partitioning tool): "PID (comm)" joined by ", " into
 * buf. Returns how many. A loop device detached while one does is only
 * marked to go when it is closed, and a USB stick pulled so loses writes. */
int eject_node_holders(const char *root, const char *disk, char *buf, size_t len);

/* Block devices stacked on DISK or its partitions (their holders/: dm,
 * md), joined by ", " into buf. Returns how many. */
int eject_stacked(const char *root, const char *disk, char *buf, size_t len);

/* Is /dev/DISK free of the kernel's holders: no mount of it or of a
 * partition, no swap, no btrfs, no device-mapper? Opened O_EXCL, which the
 * kernel refuses (EBUSY) while any of them claims it, and closed at once.
 * 0, -EBUSY, or -errno (ENOENT: no node). */
int eject_claimable(const char *root, const char *disk);

/* Write what the kernel holds for /dev/DISK to the device and flush its
 * cache (fsync, BLKFLSBUF), the node opened O_EXCL as udisks does:
 * -EBUSY while the kernel holds it (see eject_claimable). 0 or -errno. */
int eject_flush(const char *root, const char *disk);

/* SCSI SYNCHRONIZE CACHE, then START STOP UNIT (stop) to /dev/DISK (sys/
 * scsi.h), as udisks does before it powers off. Some USB bridges refuse
 * one or both, which udisks ignores: the caller may too. 0 or the first
 * -errno. */
int eject_scsi_stop(const char *root, const char *disk);

/* Power off as eject_power_kind said: 0 or -errno. */
int eject_power_off(const char *root, const char *disk, enum eject_power kind, const char *attr);

#endif
