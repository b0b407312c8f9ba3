/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov's figures for Prometheus, in the text exposition format (0.0.4)
 * that node_exporter's textfile collector reads: one writer for `wbgov
 * status --prometheus` and for the file wbgovd rewrites every few seconds
 * (--metrics-file), so the two say the same thing in the same words. The
 * families, their labels and units are in wbgov(8). */
#ifndef WBGOV_DAEMON_METRICS_H
#define WBGOV_DAEMON_METRICS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/features.h"
#include "daemon/status.h"
#include "knobs/knobs.h"
#include "policy/governor.h"
#include "sys/conffile.h"
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

/* --metrics-interval: the default, and its range. node_exporter reads the
 * file at each scrape (every 15 s or more, usually); 10 s adds a tenth of a
 * wakeup a second to an idle wbgovd's 3.4. */
#define METRICS_DEFAULT_USEC 10000000ULL
#define METRICS_MIN_USEC (CONFFILE_INTERVAL_MIN_MS * 1000)
#define METRICS_MAX_USEC (CONFFILE_INTERVAL_MAX_MS * 1000)

/* The file wbgovd rewrites every interval_usec (--metrics-file), replaced
 * whole each time (file_publish); path "" when off. */
struct metrics_file {
	char path[PATH_MAX];
	int dirfd;            /* its directory, opened once (dir_open_trusted); -1 */
	const char *name;     /* ... and its name there, in path */
	uint64_t interval_usec, next_usec;
	int err;              /* the last write's error, said once */
	struct features *features; /* where the file says whether it is written */
};

/* `path` (NULL: off) every `interval_usec` (0: METRICS_DEFAULT_USEC). Its
 * directory must be there, as node_exporter's is, and is opened once
 * (dir_open_trusted: no link on the way, ours and writable by no one else;
 * the file is written through that descriptor, so that no one can swap
 * the path for a link to a directory of root's later): 0, or -errno with
 * the reason logged (-ENAMETOOLONG unlogged) and the file off. Whether it
 * is written is said in `features` (NULL: nowhere), now and as it
 * changes. */
int metrics_file_start(struct metrics_file *mf, const char *path, uint64_t interval_usec,
		       struct features *features);

/* Rewritten from the governor's devices when its interval is up: the
 * delay until the next poll, `delay_usec` or less to meet the next one. */
/* Its directory let go (at stop, after the last publish). */
void metrics_file_close(struct metrics_file *mf);

uint64_t metrics_file_step(struct metrics_file *mf, const struct governor *g,
			   struct knobs_real *real, uint64_t now_usec, uint64_t delay_usec);

/* Rewritten now: the devices (`up`), or wbgov_daemon_up 0 alone (at stop,
 * so a stopped wbgovd reads as stopped). */
void metrics_file_publish(struct metrics_file *mf, const struct governor *g,
			  struct knobs_real *real, bool up);

#endif
