/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/bandwidth.h"

void wb_bw_init(struct wb_bw *b, uint64_t now_jif)
{
	b->write_bandwidth = INIT_BW;
	b->avg_write_bandwidth = INIT_BW;
	b->dirty_ratelimit = INIT_BW;
	b->balanced_dirty_ratelimit = INIT_BW;
	b->bw_time_stamp = now_jif;
	b->dirtied_stamp = 0;
	b->written_stamp = 0;
}

int64_t wb_update_write_bandwidth(const struct kcfg *k, struct wb_bw *b, uint64_t elapsed,
				  uint64_t written)
{
	const uint64_t period = rp2(3 * k->hz);
	uint64_t avg = b->avg_write_bandwidth;
	uint64_t old = b->write_bandwidth;
	uint64_t bw;
	int64_t delta;

	bw = written - min_u64(written, b->written_stamp);
	bw *= k->hz;
	if (elapsed > period) {
		bw /= elapsed;
		avg = bw;
	} else {
		bw += old * (period - elapsed);
		bw >>= ilog2_u64(period);
		/* one more level of smoothing, for filtering out sudden spikes */
		if (avg > old && old >= bw)
			avg -= (avg - old) >> 3;
		if (avg < old && old <= bw)
			avg += (old - avg) >> 3;
	}
	if (avg < 1)
		avg = 1;
	delta = (int64_t)avg - (int64_t)b->avg_write_bandwidth;
	b->write_bandwidth = bw;
	b->avg_write_bandwidth = avg;
	return delta;
}

void wb_update_dirty_ratelimit(const struct kcfg *k, struct wb_bw *b, const struct dtc *d,
			       bool strict, uint64_t dirtied, uint64_t elapsed)
{
	uint64_t dirty = d->dirty;
	uint64_t freerun = dirty_freerun_ceiling(d->thresh, d->bg_thresh);
	uint64_t setpoint = (freerun + d->limit) / 2;
	uint64_t write_bw = b->avg_write_bandwidth;
	uint64_t dirty_ratelimit = b->dirty_ratelimit;
	uint64_t dirty_rate, task_ratelimit, balanced, step, x, shift;

	dirty_rate = (dirtied - b->dirtied_stamp) * k->hz / elapsed;
	task_ratelimit = (dirty_ratelimit * (uint64_t)d->pos_ratio >> RATELIMIT_CALC_SHIFT) + 1;
	balanced = task_ratelimit * write_bw / (dirty_rate | 1);
	if (balanced > write_bw)
		balanced = write_bw;

	step = 0;
	if (strict) {
		dirty = d->wb_dirty;
		setpoint = (d->wb_thresh + d->wb_bg_thresh) / 2;
		/* before 6.14: an almost clean strict wb aims just above itself */
		if (k->kver != KVER_6_18 && d->wb_dirty < 8)
			setpoint = d->wb_dirty + 1;
	}
	if (dirty < setpoint) {
		x = min_u64(min_u64(b->balanced_dirty_ratelimit, balanced), task_ratelimit);
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = max_u64(max_u64(b->balanced_dirty_ratelimit, balanced), task_ratelimit);
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}
	/* slow down near the target: helps eliminate pointless tremors */
	shift = dirty_ratelimit / (2 * step + 1);
	if (shift < (uint64_t)k->long_bits)
		step = ((step >> shift) + 7) / 8;
	else
		step = 0;
	if (dirty_ratelimit < balanced)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;
	b->dirty_ratelimit = dirty_ratelimit > 1 ? dirty_ratelimit : 1;
	b->balanced_dirty_ratelimit = balanced;
}

int64_t wb_update_bandwidth_at(const struct kcfg *k, struct wb_bw *b, struct wb_domain *dom,
			       const struct dtc *d, bool strict, bool update_ratelimit,
			       uint64_t dirtied, uint64_t written, uint64_t now_jif,
			       bool under_writeback)
{
	uint64_t elapsed = now_jif > b->bw_time_stamp ? now_jif - b->bw_time_stamp : 1;
	int64_t delta = 0;

	/* WB_BANDWIDTH_IDLE_JIF = HZ. Stock kernels divide the nothing an idle
	 * wb wrote by the whole idle time: past the 3 s period the estimate
	 * drops to 1 page/s. The series restarts the period instead, as
	 * wb_bandwidth_estimate_start() does, keeping estimate and ratelimit;
	 * the domain's limit still follows. */
	if (k->bw_idle_restart && elapsed > k->hz && written == b->written_stamp &&
	    !under_writeback) {
		if (update_ratelimit && d)
			domain_update_dirty_limit(k, dom, d->thresh, d->dirty, now_jif);
		goto stamp;
	}
	if (update_ratelimit && d) {
		domain_update_dirty_limit(k, dom, d->thresh, d->dirty, now_jif);
		wb_update_dirty_ratelimit(k, b, d, strict, dirtied, elapsed);
	}
	delta = wb_update_write_bandwidth(k, b, elapsed, written);
stamp:
	b->dirtied_stamp = dirtied;
	b->written_stamp = written;
	b->bw_time_stamp = now_jif;
	return delta;
}

void wb_bandwidth_estimate_start(const struct kcfg *k, struct wb_bw *b, uint64_t dirtied,
				 uint64_t written, uint64_t now_jif, bool inodes_under_writeback)
{
	/* WB_BANDWIDTH_IDLE_JIF = HZ */
	if (now_jif - b->bw_time_stamp > k->hz && !inodes_under_writeback) {
		b->dirtied_stamp = dirtied;
		b->written_stamp = written;
		b->bw_time_stamp = now_jif;
	}
}

uint64_t writeback_chunk_size(uint64_t avg_write_bw, uint64_t dom_dirty_limit,
			      uint64_t work_nr_pages, bool sync_all)
{
	uint64_t pages;

	if (sync_all)
		return UINT64_MAX;
	pages = min_u64(avg_write_bw / 2, dom_dirty_limit / DIRTY_SCOPE);
	pages = min_u64(pages, work_nr_pages);
	return (pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES * MIN_WRITEBACK_PAGES;
}
