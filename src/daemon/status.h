/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /run/wbgov/status: what wbgovd knows that sysfs does not — each device's
 * measured bandwidth and the rule behind its limit — for `wbgov status`
 * and `wbgov explain`. One line per bdi:
 *   bdi=8:16 bw=5100000 measures=12 why=0 max_bytes=5100000 strict=1 err=0 source=2 decisions=3
 * (why: enum gov_why, -1 before the first decision; source: enum bw_source,
 * where the bandwidth came from; decisions: how many it applied since it
 * started). New fields go at the end of the line: a reader that knows the
 * first eight reads a newer file, and this one reads an older file's lines
 * (without decisions). Then a line per feature (features.h):
 *   feature=debugfs state=on refused_by=- how=the system's, at /sys/kernel/debug
 * which a reader of the bdi lines skips. */
#ifndef WBGOV_DAEMON_STATUS_H
#define WBGOV_DAEMON_STATUS_H

#include "daemon/features.h"
#include "policy/governor.h"

struct status_entry {
	char bdi[KNOBS_NAME_MAX];
	uint64_t bw_bps;
	unsigned measures;
	int why;
	uint64_t max_bytes;
	int strict;
	int err;
	int source;
	bool has_decisions;    /* the line tells (a wbgovd newer than the field) */
	uint64_t decisions;
};

/* Seconds a device needs to write its `pending` bytes at `bw_bps`: 0 when
 * nothing is pending (whatever is known of its speed), -1 when it cannot be
 * told (pending not known, or data and no measured bandwidth). The one rule
 * behind `wbgov status`, the metrics and the D-Bus DrainSeconds. */
static inline double status_drain_s(bool pending_known, uint64_t pending, uint64_t bw_bps)
{
	if (!pending_known)
		return -1;
	if (!pending)
		return 0;
	return bw_bps ? (double)pending / (double)bw_bps : -1;
}

/* What the file says of one governed device. */
void status_entry_of(const struct gov_dev *d, struct status_entry *ret);
/* The file anew: a line per device, then a line per feature of `fs`
 * (NULL: none). */
int status_write(const char *path, const struct governor *g, const struct features *fs);
/* The features the file tells, into *ret: how many, or -errno. */
int status_features(const char *path, struct features *ret);
/* The entry for `bdi`; -ENOENT without a file or a line for it. */
int status_read(const char *path, const char *bdi, struct status_entry *ret);

#endif
