/* The knobs backend over the running kernel: /proc and /sys under a root
 * prefix ("/" in production, a fixture tree in tests). */
#ifndef WBGOV_SYS_KNOBS_REAL_H
#define WBGOV_SYS_KNOBS_REAL_H

#include "knobs/knobs.h"

struct knobs_real {
	const char *root;
};

extern const struct knobs_ops knobs_real_ops;

/* The kernel's own write-bandwidth estimate of a bdi (debugfs
 * BdiWriteBandwidth, bytes/s), where debugfs is mounted and readable: a
 * cross-check of wbgov's measurement. -ENOTSUP otherwise. */
int debugfs_bdi_bandwidth(const char *root, const char *bdi, uint64_t *ret_bps);

#endif
