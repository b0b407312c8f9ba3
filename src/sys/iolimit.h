/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The write-bandwidth limits cgroups put on block devices (blk-throttle):
 * cgroup v1's blkio.throttle.write_bps_device, cgroup v2's io.max wbps.
 * A disk so limited holds its writeback above its queue, where its own
 * /sys/block/DISK/stat does not count it: without debugfs its backlog shows
 * nowhere but in the limit itself, which bounds its speed. Found through
 * ROOT/proc/self/mountinfo (libmount), paths under a root prefix as in
 * fsutil.h. */
#ifndef WBGOV_SYS_IOLIMIT_H
#define WBGOV_SYS_IOLIMIT_H

#include "knobs/knobs.h"

/* Every limited device, one entry each with the smallest limit found for
 * it: in the root cgroup of a v1 blkio hierarchy, and in every cgroup of a
 * v2 hierarchy (io.max, walked where the io controller is handed down).
 * Fills at most `max` entries and returns how many were filled, or -errno
 * when the mount table cannot be read. No cgroup, no limit: 0. */
int iolimit_read(const char *root, struct knobs_limit *out, int max);

/* Parsers, for tests. Each adds the write limits of one file's text into
 * out[*n] (at most max entries, one per device, the smallest kept). */
void iolimit_parse_v1(const char *text, struct knobs_limit *out, int *n, int max);
void iolimit_parse_v2(const char *text, struct knobs_limit *out, int *n, int max);

#endif
