/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knobs backend over the running kernel: /proc and /sys under a root
 * prefix ("/" in production, a fixture tree in tests). */
#ifndef WBGOV_SYS_KNOBS_REAL_H
#define WBGOV_SYS_KNOBS_REAL_H

#include "knobs/knobs.h"

struct knobs_real {
	const char *root;
	int vmstat_fd1;  /* /proc/vmstat kept open: its fd + 1, 0 if not */
	/* a debugfs mount of our own (sys/debugfs.h), read instead of
	 * ROOT/sys/kernel/debug: its fd + 1, 0 if none */
	int debugfs_fd1;
	/* devices() probes device nodes with libblkid for filesystem labels
	 * and UUIDs where udev keeps no database (wbgovd: when a [device]
	 * section asks; wbgov explain) */
	bool probe_fs;
	/* wb_stat_error in bytes (bdi_counters), found at the first read */
	bool stat_error_known;
	uint64_t stat_error_bytes;
	/* debugfs shows the root cgroup's wb alone (debugfs_root_wb_only()):
	 * its figures are not the bdi's, and bdi_counters says there are none
	 * (found at the first read) */
	bool wb_scope_known;
	bool root_wb_only;
};

extern const struct knobs_ops knobs_real_ops;

/* Close what the backend keeps open. */
void knobs_real_close(struct knobs_real *k);

/* The kernel's own write-bandwidth estimate of a bdi (debugfs
 * BdiWriteBandwidth, bytes/s), where debugfs is mounted and readable: a
 * cross-check of wbgov's measurement. -ENOTSUP otherwise. */
int debugfs_bdi_bandwidth(const char *root, const char *bdi, uint64_t *ret_bps);

#endif
