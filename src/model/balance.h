/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dirty throttling arithmetic: freerun, position ratio, pause. Mirrors the
 * pieces of balance_dirty_pages() in mm/page-writeback.c (6.14–6.18); the
 * control flow that strings them together, with its side effects on the
 * page cache and the flusher, is the simulated kernel's (src/sim). */
#ifndef WBGOV_MODEL_BALANCE_H
#define WBGOV_MODEL_BALANCE_H

#include "model/units.h"

/* struct dirty_throttle_control, global domain. */
struct dtc {
	uint64_t avail;
	uint64_t dirty;        /* NR_FILE_DIRTY + NR_WRITEBACK */
	uint64_t thresh;
	uint64_t bg_thresh;
	uint64_t limit;        /* hard_dirty_limit() */
	uint64_t wb_dirty;     /* WB_RECLAIMABLE + WB_WRITEBACK */
	uint64_t wb_thresh;
	uint64_t wb_bg_thresh;
	int64_t pos_ratio;     /* 1.0 = 1 << RATELIMIT_CALC_SHIFT */
	bool freerun;
	bool dirty_exceeded;
};

/* The per-task state balance_dirty_pages() keeps in task_struct. */
struct task_dirty {
	uint64_t nr_dirtied;
	uint64_t nr_dirtied_pause; /* 32 pages for a new task (kernel/fork.c) */
	uint64_t dirty_paused_when;
};

void task_dirty_init(struct task_dirty *t);

/* wb_dirty_limits(): wb_bg_thresh is proportional to wb_thresh. */
static inline uint64_t wb_bg_thresh_of(const struct dtc *d)
{
	return d->thresh ? d->wb_thresh * d->bg_thresh / d->thresh : 0;
}

/* domain_dirty_freerun(): strict wbs look at their own counters only. */
bool domain_dirty_freerun(const struct dtc *d, bool strict);

/* dirty_poll_interval(): ~sqrt(headroom), a power of two. */
uint64_t dirty_poll_interval(uint64_t dirty, uint64_t thresh);

/* pos_ratio_polynom(): 1 + ((setpoint - dirty) / (limit - setpoint))^3,
 * clamped to [0, 2]. */
int64_t pos_ratio_polynom(uint64_t setpoint, uint64_t dirty, uint64_t limit);

/* wb_position_ratio(): fills d->pos_ratio; `d->limit` must be set. */
void wb_position_ratio(struct dtc *d, bool strict, uint64_t write_bw);
/* The same as `kver` computes it: before 6.14 (6.12, 6.1) a strict wb with
 * wb_dirty < 8 gets min(2 x the global pos_ratio, 2.0), and the non-strict
 * wb line uses max(wb_thresh, (limit - dirty) / 8), the idle floor of the
 * time, uncapped by max_ratio. */
void wb_position_ratio_kver(struct dtc *d, bool strict, uint64_t write_bw, enum sim_kver kver);

/* wb_dirty_exceeded() */
static inline bool wb_dirty_exceeded(const struct dtc *d, bool strict)
{
	return d->wb_dirty > d->wb_thresh && (d->dirty > d->thresh || strict);
}

/* wb_max_pause(): ~1/8 of the time the device needs for wb_dirty, <= 200 ms. */
uint64_t wb_max_pause(const struct kcfg *k, uint64_t avg_write_bw, uint64_t wb_dirty);

/* wb_min_pause(): returns min_pause, fills the next nr_dirtied_pause. */
int64_t wb_min_pause(const struct kcfg *k, uint64_t avg_write_bw, uint64_t dirty_ratelimit,
		     int64_t max_pause, uint64_t task_ratelimit, uint64_t *ret_nr_dirtied_pause);

/* The tail of one balance_dirty_pages() iteration once pos_ratio is known:
 * how long the task sleeps. Updates the task state as the kernel does.
 * Returns the pause in jiffies, 0 when the task does not sleep. *ret_again
 * is set when the kernel would loop (task_ratelimit 0, wb still dirty). */
struct bdp_throttle_in {
	uint64_t pages_dirtied;
	uint64_t now;
	uint64_t dirty_ratelimit;
	uint64_t avg_write_bw;
	int64_t pos_ratio;
	uint64_t wb_dirty;
	uint64_t wb_stat_error;
};
uint64_t bdp_throttle(const struct kcfg *k, struct task_dirty *t, const struct bdp_throttle_in *in,
		      uint64_t *ret_task_ratelimit, bool *ret_again);

/* The freerun exit of balance_dirty_pages(). */
void bdp_freerun_exit(struct task_dirty *t, uint64_t now, uint64_t poll_interval);

/* balance_dirty_pages_ratelimited_flags(): does this task enter
 * balance_dirty_pages() now? `cpu_ratelimits` is this CPU's bdp_ratelimits
 * (reset as the kernel does); `ratelimit_pages` the global. */
bool bdp_ratelimited_enter(const struct task_dirty *t, bool wb_dirty_exceeded,
			   uint64_t *cpu_ratelimits, uint64_t ratelimit_pages);

/* wb_stat_error(): nr_cpu_ids * WB_STAT_BATCH, in pages: how far a wb's
 * per-CPU counters read without summing (wb_stat()) may be from the sum. */
uint64_t wb_stat_error(const struct kcfg *k);
uint64_t wb_stat_error_pages(unsigned nr_cpu_ids);

#endif
