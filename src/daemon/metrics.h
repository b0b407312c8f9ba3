/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov's figures for Prometheus, in the text exposition format (0.0.4)
 * that node_exporter's textfile collector reads: one writer for `wbgov
 * status --prometheus` and for the file wbgovd rewrites every few seconds
 * (--metrics-file), so the two say the same thing in the same words. The
 * families, their labels and units are in wbgov(8). */
#ifndef WBGOV_DAEMON_METRICS_H
#define WBGOV_DAEMON_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/status.h"
#include "knobs/knobs.h"
#include "sys/knobs_real.h"

/* One bdi: its facts, wbgovd's record of it, the kernel's knobs and
 * counters now. Each has_* false: the family has no sample for it. */
struct metrics_dev {
	struct knobs_dev info;
	bool has_record;        /* a running wbgovd's (status_entry_of, status_read) */
	struct status_entry rec;
	bool has_knobs;         /* strict_limit and max_bytes: Linux 6.2+ */
	bool strict;
	uint64_t max_bytes;
	bool has_pending;       /* dirty + writeback of the bdi itself (debugfs) */
	uint64_t pending_bytes;
};

/* The kernel's side of m->info.bdi, read now: the knobs from sysfs, dirty
 * + writeback from debugfs where it is readable. */
void metrics_read_kernel(struct knobs_real *real, struct metrics_dev *m);

/* The whole exposition: wbgov_daemon_up, then each family that has a
 * sample, its HELP and TYPE lines once, a sample per device. Label values
 * are escaped (\\, \", \n) and valid UTF-8 (a byte that is not becomes
 * U+FFFD). 0, or -EIO when the stream failed. */
int metrics_write(FILE *f, bool daemon_up, const struct metrics_dev *dev, int n);

#endif
