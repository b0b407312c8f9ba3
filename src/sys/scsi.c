/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <scsi/sg.h>
#include <string.h>
#include <sys/ioctl.h>

#include "sys/scsi.h"

size_t scsi_cdb(enum scsi_op op, uint8_t *cdb, size_t len)
{
	switch (op) {
	case SCSI_SYNCHRONIZE_CACHE:
		/* SBC-3, SYNCHRONIZE CACHE (10): 35h; IMMED 0 (answer when done); LBA 0 and
		 * NUMBER OF LOGICAL BLOCKS 0: from the start to the end */
		if (len < 10)
			return 0;
		memset(cdb, 0, 10);
		cdb[0] = 0x35;
		return 10;
	case SCSI_STOP_UNIT:
		/* SBC-3, START STOP UNIT: 1Bh; IMMED 0; POWER CONDITION 0 (START decides),
		 * LOEJ 0 (no medium to eject), START 0: stop */
		if (len < 6)
			return 0;
		memset(cdb, 0, 6);
		cdb[0] = 0x1b;
		return 6;
	}
	return 0;
}

int scsi_send(int fd, enum scsi_op op)
{
	uint8_t cdb[16], sense[32];
	struct sg_io_hdr io;
	size_t n = scsi_cdb(op, cdb, sizeof(cdb));

	if (!n)
		return -EINVAL;
	/* the v3 header, which sd's block nodes take (bsg's v4 is for
	 * /dev/bsg; udisks tries v4 first and falls back to this) */
	memset(&io, 0, sizeof(io));
	io.interface_id = 'S';
	io.dxfer_direction = SG_DXFER_NONE;
	io.cmd_len = (unsigned char)n;
	io.cmdp = cdb;
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = 30000; /* ms */
	if (ioctl(fd, SG_IO, &io) < 0)
		return -errno;
	if (io.status || io.host_status || io.driver_status)
		return -EIO;
	return 0;
}
