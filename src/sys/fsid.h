/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The labels and UUIDs of the filesystems on a disk (on each partition, or
 * on the whole disk when it has none), for wbgov.conf's label = and uuid =.
 * Where udevd runs: its database (what its blkid builtin found). Else, when
 * asked: libblkid's probe of the device node, /dev/NAME under root (root
 * can open it; a test puts an image file there). */
#ifndef WBGOV_SYS_FSID_H
#define WBGOV_SYS_FSID_H

#include <stdbool.h>

#include "knobs/knobs.h"

/* Fill d->labels and d->uuids (d->disk named). `probe`: libblkid may open
 * device nodes where udev has no database. */
void fsid_facts(const char *root, bool probe, struct knobs_dev *d);

/* The label and UUID of the filesystem in `path` (a device node or an
 * image file), through libblkid: 0 (either may be ""), or -errno. */
int fsid_probe(const char *path, char *label, size_t llen, char *uuid, size_t ulen);

/* Where labels and UUIDs come from here: FSID_UDEV (udevd's database),
 * FSID_PROBE (the device nodes, opened), or FSID_HIDDEN: no udevd, and a
 * disk sysfs lists has no node under /dev (a private /dev, as a unit's
 * PrivateDevices= makes; its name in ret_disk). */
enum fsid_source { FSID_UDEV, FSID_PROBE, FSID_HIDDEN };
enum fsid_source fsid_source(const char *root, char *ret_disk, size_t len);

/* Undo udev's \xNN encoding (ID_FS_LABEL_ENC) into out. */
void fsid_udev_decode(const char *enc, char *out, size_t len);

#endif
