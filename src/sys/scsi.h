/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The two SCSI commands a disk gets before it loses power, as udisks sends
 * them (src/udiskslinuxdrive.c, handle_power_off): SYNCHRONIZE CACHE, so
 * that the drive writes what its own cache holds, then START STOP UNIT to
 * stop it (a USB-SATA disk parks its heads). Sent through SG_IO to the
 * disk's node; the command blocks are built apart, pure, to be tested byte
 * by byte. */
#ifndef WBGOV_SYS_SCSI_H
#define WBGOV_SYS_SCSI_H

#include <stddef.h>
#include <stdint.h>

enum scsi_op {
	SCSI_SYNCHRONIZE_CACHE, /* SYNCHRONIZE CACHE (10): the whole medium, then answer */
	SCSI_STOP_UNIT,         /* START STOP UNIT: START=0, LOEJ=0, answer when stopped */
};

/* The command descriptor block of `op` into cdb (`len` bytes at least 10):
 * its length, or 0 when it does not fit. */
size_t scsi_cdb(enum scsi_op op, uint8_t *cdb, size_t len);

/* Send `op` (no data moves) to the SCSI disk open at `fd`, waiting up to
 * 30 s as udisks does: 0, -errno from SG_IO (ENOTTY: not a SCSI device),
 * or -EIO when the device answered other than GOOD. */
int scsi_send(int fd, enum scsi_op op);

#endif
