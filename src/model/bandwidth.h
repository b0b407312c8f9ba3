/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's per-wb write bandwidth and dirty ratelimit estimators, and
 * the writeback chunk size derived from them. Mirrors
 * wb_update_write_bandwidth(), wb_update_dirty_ratelimit(),
 * __wb_update_bandwidth(), wb_bandwidth_estimate_start() (mm/page-writeback.c)
 * and writeback_chunk_size() (fs/fs-writeback.c). */
#ifndef WBGOV_MODEL_BANDWIDTH_H
#define WBGOV_MODEL_BANDWIDTH_H

#include "model/balance.h"
#include "model/limits.h"

struct wb_bw {
	uint64_t write_bandwidth;          /* pages/s, EWMA over ~4 s */
	uint64_t avg_write_bandwidth;      /* smoothed once more */
	uint64_t dirty_ratelimit;          /* pages/s */
	uint64_t balanced_dirty_ratelimit;
	uint64_t bw_time_stamp;            /* jiffies */
	uint64_t dirtied_stamp;            /* WB_DIRTIED at bw_time_stamp */
	uint64_t written_stamp;            /* WB_WRITTEN at bw_time_stamp */
};

/* wb_init(): every rate starts at INIT_BW (100 MiB/s). */
void wb_bw_init(struct wb_bw *b, uint64_t now_jif);

/* wb_update_write_bandwidth(). Returns the change of avg_write_bandwidth,
 * which the caller adds to bdi.tot_write_bandwidth when the wb has dirty IO. */
int64_t wb_update_write_bandwidth(const struct kcfg *k, struct wb_bw *b, uint64_t elapsed,
				  uint64_t written);

/* wb_update_dirty_ratelimit(): `d` holds the pass's limits and pos_ratio. */
void wb_update_dirty_ratelimit(const struct kcfg *k, struct wb_bw *b, const struct dtc *d,
			       bool strict, uint64_t dirtied, uint64_t elapsed);

/* __wb_update_bandwidth(). `d` may be NULL when update_ratelimit is false.
 * With k->bw_idle_restart (the series), an update after more than 1 s in
 * which nothing was written and nothing was under writeback (no inode, no
 * page: WB_WRITEBACK) only restarts the period (and moves the domain's
 * limit). Returns the change of avg_write_bandwidth (see above). */
int64_t wb_update_bandwidth_at(const struct kcfg *k, struct wb_bw *b, struct wb_domain *dom,
			       const struct dtc *d, bool strict, bool update_ratelimit,
			       uint64_t dirtied, uint64_t written, uint64_t now_jif,
			       bool under_writeback);

/* wb_bandwidth_estimate_start(): after more than 1 s of idleness the stamps
 * restart, so idle time does not dilute the estimate. */
void wb_bandwidth_estimate_start(const struct kcfg *k, struct wb_bw *b, uint64_t dirtied,
				 uint64_t written, uint64_t now_jif, bool inodes_under_writeback);

/* writeback_chunk_size(): pages one inode visit may write. */
uint64_t writeback_chunk_size(uint64_t avg_write_bw, uint64_t dom_dirty_limit,
			      uint64_t work_nr_pages, bool sync_all);

#endif
