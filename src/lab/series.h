/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbsim run --series: the sampled time series of every run as TSV, for
 * comparing with /proc/meminfo sampled on a real machine (bench/fidelity)
 * and for plotting elsewhere. */
#ifndef WBGOV_LAB_SERIES_H
#define WBGOV_LAB_SERIES_H

#include <stdio.h>

#include "sim/run.h"

/* One header line, then one line per sample of each result in order:
 * policy, t_s, per device DEV_dirty_mib, DEV_writeback_mib, DEV_thresh_mib,
 * then written_mib, durable_mib, global_dirty_mib, global_writeback_mib.
 * Every result must have a series and the same devices (one scenario);
 * else -EINVAL and nothing written. 0, or -EIO from the stream. */
int series_write(FILE *f, const struct run_result *res, int n);

#endif
