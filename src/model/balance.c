/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/balance.h"
#include "model/limits.h"

void task_dirty_init(struct task_dirty *t)
{
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = DIRTY_POLL_THRESH;
	t->dirty_paused_when = 0;
}

bool domain_dirty_freerun(const struct dtc *d, bool strict)
{
	if (strict)
		return d->wb_dirty <= dirty_freerun_ceiling(d->wb_thresh, d->wb_bg_thresh);
	return d->dirty <= dirty_freerun_ceiling(d->thresh, d->bg_thresh);
}

uint64_t dirty_poll_interval(uint64_t dirty, uint64_t thresh)
{
	if (thresh > dirty)
		return 1ULL << (ilog2_u64(thresh - dirty) >> 1);
	return 1;
}

int64_t pos_ratio_polynom(uint64_t setpoint, uint64_t dirty, uint64_t limit)
{
	int64_t x, p;

	/* div64_s64 truncates toward zero; the shifts are arithmetic */
	x = (int64_t)(((int64_t)setpoint - (int64_t)dirty) * (1LL << RATELIMIT_CALC_SHIFT)) /
	    (int64_t)((limit - setpoint) | 1);
	p = x;
	p = (p * x) >> RATELIMIT_CALC_SHIFT;
	p = (p * x) >> RATELIMIT_CALC_SHIFT;
	p += 1 << RATELIMIT_CALC_SHIFT;
	if (p < 0)
		p = 0;
	if (p > (2LL << RATELIMIT_CALC_SHIFT))
		p = 2LL << RATELIMIT_CALC_SHIFT;
	return p;
}

void wb_position_ratio(struct dtc *d, bool strict, uint64_t write_bw)
{
	wb_position_ratio_kver(d, strict, write_bw, KVER_6_18);
}

void wb_position_ratio_kver(struct dtc *d, bool strict, uint64_t write_bw, enum sim_kver kver)
{
	uint64_t freerun = dirty_freerun_ceiling(d->thresh, d->bg_thresh);
	uint64_t limit = d->limit;
	uint64_t wb_thresh = d->wb_thresh;
	uint64_t setpoint, wb_setpoint, span, x_intercept, x;
	int64_t pos_ratio;

	d->pos_ratio = 0;
	if (d->dirty >= limit)
		return;
	setpoint = (freerun + limit) / 2;
	pos_ratio = pos_ratio_polynom(setpoint, d->dirty, limit);

	if (strict) {
		int64_t wb_pos_ratio;

		/* before 6.14: a strict wb with almost nothing dirty runs at
		 * twice the global rate */
		if (kver != KVER_6_18 && d->wb_dirty < 8) {
			d->pos_ratio = pos_ratio * 2 < 2 << RATELIMIT_CALC_SHIFT ?
					       pos_ratio * 2 : 2 << RATELIMIT_CALC_SHIFT;
			return;
		}
		if (d->wb_dirty >= wb_thresh)
			return;
		wb_setpoint = dirty_freerun_ceiling(wb_thresh, d->wb_bg_thresh);
		if (wb_setpoint == 0 || wb_setpoint == wb_thresh)
			return;
		wb_pos_ratio = pos_ratio_polynom(wb_setpoint, d->wb_dirty, wb_thresh);
		d->pos_ratio = pos_ratio < wb_pos_ratio ? pos_ratio : wb_pos_ratio;
		return;
	}

	/* the wb control line: slope -1/(8 * write_bw) in the single-wb case */
	if (wb_thresh > d->thresh)
		wb_thresh = d->thresh;
	/* before 6.14 the idle floor is here, not capped by max_ratio */
	if (kver != KVER_6_18 && wb_thresh < (limit - d->dirty) / 8)
		wb_thresh = (limit - d->dirty) / 8;
	x = (wb_thresh << 16) / (d->thresh | 1);
	wb_setpoint = setpoint * x >> 16;
	span = (d->thresh - wb_thresh + 8 * write_bw) * x >> 16;
	x_intercept = wb_setpoint + span;
	if (d->wb_dirty < x_intercept - span / 4)
		pos_ratio = (int64_t)((uint64_t)pos_ratio * (x_intercept - d->wb_dirty) /
				      ((x_intercept - wb_setpoint) | 1));
	else
		pos_ratio /= 4;

	/* wb reserve area: safeguard against an idle disk */
	x_intercept = wb_thresh / 2;
	if (d->wb_dirty < x_intercept) {
		if (d->wb_dirty > x_intercept / 8)
			pos_ratio = (int64_t)((uint64_t)pos_ratio * x_intercept / d->wb_dirty);
		else
			pos_ratio *= 8;
	}
	d->pos_ratio = pos_ratio;
}

uint64_t wb_max_pause(const struct kcfg *k, uint64_t avg_write_bw, uint64_t wb_dirty)
{
	uint64_t t = wb_dirty / (1 + avg_write_bw / rp2(1 + k->hz / 8));

	t++;
	return min_u64(t, max_pause_jif(k));
}

int64_t wb_min_pause(const struct kcfg *k, uint64_t avg_write_bw, uint64_t dirty_ratelimit,
		     int64_t max_pause, uint64_t task_ratelimit, uint64_t *ret_nr_dirtied_pause)
{
	int64_t hi = ilog2_u64(avg_write_bw);
	int64_t lo = ilog2_u64(dirty_ratelimit);
	int64_t hz = k->hz, t, pause;
	int64_t rp2hz = (int64_t)rp2(k->hz);
	int64_t pages;

	t = hz / 100 > 1 ? hz / 100 : 1; /* 10 ms for one dd */
	if (hi > lo)
		t += (hi - lo) * (10 * hz) / 1024;
	t = min_i64(t, 1 + max_pause / 2);
	pages = (int64_t)dirty_ratelimit * t / rp2hz;
	if (pages < (int64_t)DIRTY_POLL_THRESH) {
		t = max_pause;
		pages = (int64_t)dirty_ratelimit * t / rp2hz;
		if (pages > (int64_t)DIRTY_POLL_THRESH) {
			pages = DIRTY_POLL_THRESH;
			t = hz * (int64_t)DIRTY_POLL_THRESH / (int64_t)dirty_ratelimit;
		}
	}
	pause = hz * pages / ((int64_t)task_ratelimit + 1);
	if (pause > max_pause) {
		t = max_pause;
		pages = (int64_t)task_ratelimit * t / rp2hz;
	}
	*ret_nr_dirtied_pause = (uint64_t)(pages > 0 ? pages : 0);
	return pages >= (int64_t)DIRTY_POLL_THRESH ? 1 + t / 2 : t;
}

void bdp_freerun_exit(struct task_dirty *t, uint64_t now, uint64_t poll_interval)
{
	t->dirty_paused_when = now;
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = poll_interval;
}

uint64_t bdp_throttle(const struct kcfg *k, struct task_dirty *t, const struct bdp_throttle_in *in,
		      uint64_t *ret_task_ratelimit, bool *ret_again)
{
	uint64_t task_ratelimit = in->dirty_ratelimit * (uint64_t)in->pos_ratio >> RATELIMIT_CALC_SHIFT;
	int64_t max_pause = (int64_t)wb_max_pause(k, in->avg_write_bw, in->wb_dirty);
	uint64_t nr_dirtied_pause;
	int64_t min_pause = wb_min_pause(k, in->avg_write_bw, in->dirty_ratelimit, max_pause,
					 task_ratelimit, &nr_dirtied_pause);
	int64_t now = (int64_t)in->now, period = 0, pause;

	*ret_task_ratelimit = task_ratelimit;
	*ret_again = false;
	if (task_ratelimit == 0) {
		pause = max_pause; /* and the kernel's period, unread on this path */
	} else {
		period = (int64_t)(k->hz * in->pages_dirtied / task_ratelimit);
		pause = period;
		if (t->dirty_paused_when)
			pause -= now - (int64_t)t->dirty_paused_when;
		/* less than 1 s of think time is compensated in later periods */
		if (pause < min_pause) {
			if (pause < -(int64_t)k->hz) {
				t->dirty_paused_when = (uint64_t)now;
				t->nr_dirtied = 0;
			} else if (period) {
				t->dirty_paused_when += (uint64_t)period;
				t->nr_dirtied = 0;
			} else if (t->nr_dirtied_pause <= in->pages_dirtied) {
				t->nr_dirtied_pause += in->pages_dirtied;
			}
			return 0;
		}
		if (pause > max_pause) {
			now += min_i64(pause - max_pause, max_pause);
			pause = max_pause;
		}
	}
	t->dirty_paused_when = (uint64_t)(now + pause);
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = nr_dirtied_pause;
	if (task_ratelimit == 0 && in->wb_dirty > in->wb_stat_error)
		*ret_again = true;
	return (uint64_t)pause;
}

bool bdp_ratelimited_enter(const struct task_dirty *t, bool wb_dirty_exceeded,
			   uint64_t *cpu_ratelimits, uint64_t ratelimit_pages)
{
	uint64_t ratelimit = t->nr_dirtied_pause;

	if (wb_dirty_exceeded)
		ratelimit = min_u64(ratelimit, 32 >> (PAGE_SHIFT - 10));
	if (t->nr_dirtied >= ratelimit) {
		*cpu_ratelimits = 0;
	} else if (*cpu_ratelimits >= ratelimit_pages) {
		*cpu_ratelimits = 0;
		ratelimit = 0;
	}
	return t->nr_dirtied >= ratelimit;
}

uint64_t wb_stat_error_pages(unsigned nr_cpu_ids)
{
	/* WB_STAT_BATCH = 8 * (1 + ilog2(nr_cpu_ids)) */
	return (uint64_t)nr_cpu_ids * 8 * (1 + ilog2_u64(nr_cpu_ids));
}

uint64_t wb_stat_error(const struct kcfg *k)
{
	return wb_stat_error_pages(k->ncpus);
}
