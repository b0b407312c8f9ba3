/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seam between decisions and a machine: one ops table to read and write
 * the kernel's writeback knobs and read its counters. Backends: the real
 * kernel under a root prefix (a fixture tree in tests), and the simulated
 * kernel. The governor sees only this. */
#ifndef WBGOV_KNOBS_KNOBS_H
#define WBGOV_KNOBS_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/bdi.h"
#include "model/limits.h"

#define KNOBS_NAME_MAX 64
#define KNOBS_ID_MAX 160

/* A bdi and the facts about the device behind it: a disk's, or a share's
 * (is_share: a network or FUSE file system's, with no disk under it). */
struct knobs_dev {
	/* /sys/class/bdi/<bdi>: "8:16", "btrfs-1", "8:16-fuseblk"; a share's
	 * "0:53" (NFS, FUSE), "cifs-2", "9p-1" */
	char bdi[KNOBS_NAME_MAX];
	char disk[KNOBS_NAME_MAX];   /* the whole disk whose stat counts its I/O; "" if none
					(always for a share) */
	/* a share's name: "server:/export", "//server/share", "user@host:/path" */
	char model[KNOBS_NAME_MAX];
	char serial[KNOBS_NAME_MAX];
	/* a stable name for device memory, the same after a replug or reboot:
	 * "wwid:...", "serial:MODEL:SERIAL", "dm-uuid:...", "loop:FILE:SECTORS",
	 * "model:MODEL:SECTORS", "name:vda:SECTORS" (fixed disks only); a btrfs or
	 * fuseblk bdi prefixes its kind; a share "nfs:server:/export",
	 * "cifs://server/share", "fuse.sshfs:uid=1000:user@host:/path".
	 * "" when the device has nothing stable to tell */
	char id[KNOBS_ID_MAX];
	/* the model as udev's ID_MODEL spells it, made from sysfs's model alone
	 * (no vendor, blanks as underscores: "Cruzer_Blade"), with or without
	 * udevd: a [device] model = copied from `udevadm info` matches too */
	char model_id[KNOBS_NAME_MAX];
	/* "usb", "ata", "nvme", "mmc", "loop", "virtual", ""; a share's file
	 * system type as mountinfo gives it: "nfs4", "cifs", "fuse.sshfs" */
	char bus[32];
	char usb[10];                /* its USB device's idVendor:idProduct, "0781:5567"; "" */
	char wwn[KNOBS_NAME_MAX];    /* sysfs's wwid: "naa.5000c500a1b2c3d4", "eui...."; "" */
	/* Lists, each value ended by a NUL and the list by an empty one
	 * (knobs_list_add, knobs_list_next): where the disk and its partitions
	 * are mounted, and their filesystems' labels and UUIDs */
	char mounts[512];
	char labels[256];
	char uuids[256];
	unsigned major, minor;       /* of the disk; a share's st_dev (0:N) */
	bool removable;
	bool rotational;
	bool stacked;                /* loop, dm, md: facts from the disks under it */
	bool is_fuse;                /* a FUSE bdi: fuseblk, or a FUSE or virtiofs share */
	/* a share: NFS, CIFS, FUSE without a block device, 9p, virtiofs. Its
	 * counters are the bdi's own (debugfs) or its file system's (NFS's
	 * mountstats), never a disk's; nothing may touch its mount, which
	 * blocks while its server does not answer */
	bool is_share;
	bool mounted;                /* a filesystem on it is mounted */
};

/* What a log line calls the device: its disk ("sdb"), a share's name
 * ("server:/export"), else its bdi. */
static inline const char *knobs_dev_label(const struct knobs_dev *d)
{
	return d->disk[0] ? d->disk : d->model[0] ? d->model : d->bdi;
}

/* Append `v` to a list of knobs_dev (mounts, labels, uuids) of `size`
 * bytes, zeroed at first; false when it does not fit (nothing added), or
 * `v` is empty or there already. */
bool knobs_list_add(char *list, size_t size, const char *v);
/* The value after `prev` (NULL: the first), NULL after the last. */
const char *knobs_list_next(const char *list, size_t size, const char *prev);

/* /sys/block/<disk>/stat, the fields wbgov reads. */
struct knobs_stat {
	uint64_t writes;          /* write requests completed */
	uint64_t sectors_written;
	uint64_t inflight;        /* requests in flight now */
	uint64_t io_ticks_ms;     /* time with requests in flight */
	/* commands the device failed (a SCSI disk's device/ioerr_cnt: USB
	 * sticks, card readers, SATA); have_io_errors: it counts them */
	uint64_t io_errors;
	bool have_io_errors;
};

/* /proc/vmstat nr_dirty, nr_writeback, nr_dirtied, nr_written, in bytes. */
struct knobs_vmstat {
	uint64_t dirty;
	uint64_t writeback;
	uint64_t dirtied; /* cumulative: a write anywhere moves it at once */
	uint64_t written;
};

/* /sys/kernel/debug/bdi/<bdi>/stats, in bytes. */
struct knobs_bdi_counters {
	uint64_t dirty;     /* BdiReclaimable: dirty, not yet submitted */
	uint64_t writeback; /* BdiWriteback: submitted, not yet completed */
	uint64_t thresh;    /* BdiDirtyThresh: where its writers are stopped now */
};

/* A limit on a block device's write bandwidth that a cgroup puts on it
 * (blk-throttle: v1 blkio.throttle.write_bps_device, v2 io.max wbps): the
 * smallest one found for the device. */
struct knobs_limit {
	unsigned major, minor; /* the whole disk's */
	uint64_t bps;
};

enum knobs_feature {
	KNOBS_BDI_BYTES = 1 << 0, /* strict_limit, max_bytes, *_fine: Linux 6.2+ */
	/* Linux 6.14+: a strict wb's threshold has an idle floor capped by its
	 * max_ratio, so a cap below 0.1 % of the global threshold still works.
	 * Before, max_prop_frac = 1024 x ratio / 10^6 truncates to 0 there and
	 * the bdi's completions are never credited: its threshold stays 0. */
	KNOBS_WB_FLOOR = 1 << 1,
	/* Linux 7.0-rc1 to rc6: balance_dirty_pages() starts no writeback for
	 * a strict-limited writer below the global background threshold
	 * (64dd89ae01f2 removed it with laptop_mode; cece9dc61daa, 7.0-rc7,
	 * put it back): a writer held at a device's cap waits for the
	 * flusher's periodic wakeup. wbgovd says so; wbsim's kernel 7.0-rc1. */
	KNOBS_BDP_NO_START = 1 << 2,
};

struct knobs_ops {
	int (*vm_read)(void *ctx, enum vm_knob k, uint64_t *ret);
	int (*vm_write)(void *ctx, enum vm_knob k, uint64_t v);
	int (*bdi_read)(void *ctx, const char *bdi, enum bdi_attr a, uint64_t *ret);
	int (*bdi_write)(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v);
	int (*dev_stat)(void *ctx, const struct knobs_dev *d, struct knobs_stat *ret);
	/* /proc/vmstat: the system's dirty and writeback data now, and what was
	 * dirtied and written back since boot, in bytes */
	int (*vmstat)(void *ctx, struct knobs_vmstat *ret);
	/* every bdi now; returns how many were filled (at most max) or -errno */
	int (*devices)(void *ctx, struct knobs_dev *out, int max);
	int (*features)(void *ctx);
	/* a bdi's own counters, where the kernel tells (debugfs); -ENOTSUP
	 * where it does not */
	int (*bdi_counters)(void *ctx, const char *bdi, struct knobs_bdi_counters *ret);
	/* every device's write-bandwidth limit now, one entry per limited
	 * device; how many were filled (at most max) or -errno. NULL where
	 * there are none */
	int (*write_limits)(void *ctx, struct knobs_limit *out, int max);
};

/* Are these a new bdi's knobs as the kernel makes them? strict_limit 0 and
 * max_ratio_fine 100 %; a FUSE filesystem's: strict and 1 % (fuse_bdi_init;
 * the strict default may go upstream, so either). Anything else was set by
 * someone: a udev rule, a script, an earlier wbgov. */
static inline bool knobs_bdi_default(bool is_fuse, uint64_t strict_limit, uint64_t max_ratio_fine)
{
	if (is_fuse)
		return strict_limit <= 1 && (max_ratio_fine == 10000 || max_ratio_fine == 1000000);
	return strict_limit == 0 && max_ratio_fine == 1000000;
}

/* Read-compare-write: write `v` only if the knob does not already hold it.
 * Returns 1 when it wrote, 0 when the value was already there, or -errno
 * (the previous value stays in place). */
int knobs_bdi_set(const struct knobs_ops *ops, void *ctx, const char *bdi, enum bdi_attr a,
		  uint64_t v);

/* A knob's original that was not recorded (a state file of an older
 * wbgovd has no min_ratio_fine): it is left as it is. */
#define KNOBS_KEEP UINT64_MAX

/* Give a bdi's governed knobs back as they were found: min_ratio_fine (the
 * floor goes first: a cap cannot go below it), max_ratio_fine (the cap
 * goes), then strict_limit, all tried. 0 when all hold their values again
 * or the bdi has gone (a stick pulled out); else the first -errno, with
 * *ret_attr naming its knob. min_ratio_fine KNOBS_KEEP: not touched. */
int knobs_bdi_restore(const struct knobs_ops *ops, void *ctx, const char *bdi,
		      uint64_t strict_limit, uint64_t max_ratio_fine, uint64_t min_ratio_fine,
		      enum bdi_attr *ret_attr);
int knobs_vm_set(const struct knobs_ops *ops, void *ctx, enum vm_knob k, uint64_t v);

/* Give the dirty and background pairs back as `vm` (all six values as read
 * before) had them: a *_bytes twin reads 0 in ratio mode and cannot be
 * written 0, so each pair is restored through whichever member was in force.
 * Returns 0 or the first error; `failed` (may be NULL) gets the knob. */
int knobs_vm_restore(const struct knobs_ops *ops, void *ctx, const uint64_t vm[VM_KNOB_COUNT],
		     enum vm_knob *failed);

/* Every device ops->devices lists, however many, into *buf (room for
 * *room, grown as needed: knobs/room.h; kept by the caller for the next
 * call). How many, or -ENOMEM when there is room for none; *ret_partial
 * says memory ran short and the list may lack some. */
int knobs_devices_all(const struct knobs_ops *ops, void *ctx, struct knobs_dev **buf, int *room,
		      bool *ret_partial);

/* The same for ops->write_limits: how many, 0 without the op, or -errno
 * (-ENOMEM when there is room for none; with room for some, those). */
int knobs_write_limits_all(const struct knobs_ops *ops, void *ctx, struct knobs_limit **buf,
			   int *room);

#endif
