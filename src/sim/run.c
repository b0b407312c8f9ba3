/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "sim/run.h"

const char *const run_col_names[COL_COUNT] = {
	"write_return_s", "durable_s", "sync_after_s", "peak_dirty_mib",
	"other_max_pause_ms", "fsync_p99_ms", "fast_write_mbps", "device_written_mib",
	"peak_nr_dirty_mib",
};

/* Nothing in a scenario should take this long; a run that does is stuck. */
#define RUN_LIMIT_USEC ((uint64_t)RUN_LIMIT_HOURS * 3600 * 1000000)

static double mib(uint64_t pages) { return (double)pages_to_bytes(pages) / (double)MIB; }

/* The main writer: the last task in a main role, as measure() reads it. */
static int main_task(const struct scenario *sc)
{
	int mt = 0;

	for (int i = 0; i < sc->ntask; i++)
		if (sc->role[i] == ROLE_MAIN || sc->role[i] == ROLE_MAIN_FAST)
			mt = i;
	return mt;
}

/* A sample once a step has passed, or `last`: the run's end state, so that
 * the series ends where the run did (all written, all durable); or `ret`:
 * the page cache as it was when the main writer's last write returned
 * (its stats), before a sync, as a probe run then sees it. */
static void sample(struct run_series *se, const struct sim_kernel *s, const struct scenario *sc,
		   bool last, bool ret)
{
	int mt = main_task(sc);
	const struct sim_task_stats *st = sim_task_stats(s, mt);
	uint64_t now = ret ? st->write_return_usec : sim_now_usec(s), gd = 0, gw = 0;
	uint32_t k;

	if ((last || ret) && se->n && se->t_s[se->n - 1] >= (double)now / 1e6)
		return;
	if (!last && !ret && now < se->next_usec)
		return;
	if (se->n == SERIES_MAX) { /* keep every other point, halve the rate */
		uint32_t j = 0;
		for (uint32_t i = 0; i < se->n; i++) {
			/* (the write return's row is kept) */
			if (i % 2 && i != se->ret_k)
				continue;
			if (i == se->ret_k)
				se->ret_k = j;
			se->t_s[j] = se->t_s[i];
			se->written_mib[j] = se->written_mib[i];
			se->durable_mib[j] = se->durable_mib[i];
			se->global_dirty_mib[j] = se->global_dirty_mib[i];
			se->global_writeback_mib[j] = se->global_writeback_mib[i];
			for (int d = 0; d < sc->ndev; d++) {
				se->dirty_mib[d][j] = se->dirty_mib[d][i];
				se->writeback_mib[d][j] = se->writeback_mib[d][i];
				se->thresh_mib[d][j] = se->thresh_mib[d][i];
			}
			j++;
		}
		se->n = j;
		se->step_usec *= 2;
		se->next_usec = (now + se->step_usec - 1) / se->step_usec * se->step_usec;
		if (!last && !ret && now < se->next_usec)
			return;
	}
	k = se->n++;
	if (ret)
		se->ret_k = k;
	else
		se->next_usec = (now / se->step_usec + 1) * se->step_usec;
	se->t_s[k] = (double)now / 1e6;
	se->written_mib[k] = (float)((double)st->written_bytes / (double)MIB);
	se->durable_mib[k] = (float)((double)sim_dev_written_bytes(s, sc->task[mt].dev) / (double)MIB);
	for (int d = 0; d < sc->ndev; d++) {
		uint64_t dirty = ret ? st->return_dirty[d] : sim_dev_dirty(s, d);
		uint64_t wb = ret ? st->return_writeback[d] : sim_dev_writeback(s, d);

		se->dirty_mib[d][k] = (float)mib(dirty);
		se->writeback_mib[d][k] = (float)mib(wb);
		se->thresh_mib[d][k] = (float)mib(sim_dev_wb_thresh(s, d));
		gd += dirty;
		gw += wb;
	}
	se->global_dirty_mib[k] = (float)mib(gd);
	se->global_writeback_mib[k] = (float)mib(gw);
}

/* The main writer's sync()/fsync(), for the plots' marker. */
static void series_end(struct run_series *se, const struct sim_kernel *s, const struct scenario *sc)
{
	int mt = main_task(sc);
	const struct sim_task_stats *st = sim_task_stats(s, mt);

	se->writer_dev = sc->task[mt].dev;
	se->end = END_NONE;
	if (sc->task[mt].end == END_NONE || !st->end_call_usec)
		return;
	se->end = sc->task[mt].end;
	se->end_call_s = (double)st->end_call_usec / 1e6;
	se->end_done_s = (double)st->end_done_usec / 1e6;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile. */
static uint64_t percentile(const uint64_t *v, uint64_t n, unsigned pct)
{
	uint64_t *c, r, rank;

	if (!n)
		return 0;
	c = malloc(sizeof(*c) * n);
	if (!c)
		return 0;
	memcpy(c, v, sizeof(*c) * n);
	qsort(c, n, sizeof(*c), cmp_u64);
	rank = (pct * n + 99) / 100;
	r = c[rank ? rank - 1 : 0];
	free(c);
	return r;
}

static void set(struct run_result *r, enum run_col c, double v)
{
	r->has[c] = true;
	r->val[c] = v;
}

/* `peak_pages`: the most Dirty + Writeback seen, `peak_dirty_pages` the most
 * Dirty alone, both over all devices and checked every jiffy. */
static void measure(const struct scenario *sc, const struct sim_kernel *s, uint64_t peak_pages,
		    uint64_t peak_dirty_pages, struct run_result *r)
{
	for (int i = 0; i < sc->ntask; i++) {
		const struct sim_task_stats *st = sim_task_stats(s, i);
		const struct sim_task_cfg *tc = &sc->task[i];
		bool main_task = sc->role[i] == ROLE_MAIN || sc->role[i] == ROLE_MAIN_FAST;
		bool fast = sc->role[i] == ROLE_FAST || sc->role[i] == ROLE_MAIN_FAST;

		if (main_task) {
			set(r, COL_WRITE_RETURN, (double)st->write_return_usec / 1e6);
			if (!tc->delete_at_usec)
				set(r, COL_DURABLE, (double)st->durable_usec / 1e6);
			if (tc->end != END_NONE) /* its sync() or fsync() */
				set(r, COL_SYNC_AFTER,
				    (double)(st->end_done_usec - st->end_call_usec) / 1e6);
		}
		if (fast && st->durable_usec > tc->start_usec)
			set(r, COL_FAST_WRITE, (double)st->written_bytes /
						       ((double)(st->durable_usec - tc->start_usec) / 1e6) / 1e6);
		if (!main_task && tc->dev != sc->main_dev) {
			double ms = (double)st->max_pause_usec / 1e3;
			if (!r->has[COL_OTHER_MAX_PAUSE] || ms > r->val[COL_OTHER_MAX_PAUSE])
				set(r, COL_OTHER_MAX_PAUSE, ms);
		}
		if (tc->kind == TASK_FSYNC_LOOP)
			set(r, COL_FSYNC_P99, (double)percentile(st->lat_usec, st->nlat, 99) / 1e3);
	}
	set(r, COL_PEAK_DIRTY, mib(peak_pages));
	set(r, COL_PEAK_NR_DIRTY, mib(peak_dirty_pages));
	set(r, COL_DEVICE_WRITTEN, (double)sim_dev_written_bytes(s, sc->main_dev) / (double)MIB);
}

int sim_run(const struct scenario *sc, const char *policy, const struct sim_params *p,
	    const struct sim_controller *ctl, bool want_series, struct run_result *r)
{
	const struct proposal *pr = proposal_find(policy);
	struct sim_kernel_cfg kc = sc->kernel;
	struct sim_kernel *s;
	uint64_t peak = 0, peak_dirty = 0, next_ctl = 0, found[SIM_MAX_DEV][3] = { { 0 } };
	bool returned = false; /* the main writer's last write, in the series */
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (!pr)
		return -ENOENT;
	if (pr->governor && !ctl)
		return -EINVAL;
	proposal_kernel(pr, p, &kc);
	kc.seed = p->seed;
	s = sim_kernel_new(&kc, sc->dev, sc->ndev, sc->task, sc->ntask);
	if (!s)
		return -ENOMEM;
	snprintf(r->scenario, sizeof(r->scenario), "%s", sc->name);
	snprintf(r->policy, sizeof(r->policy), "%s", pr->name);
	r->ndev = sc->ndev;
	for (int d = 0; d < sc->ndev; d++)
		snprintf(r->devname[d], sizeof(r->devname[d]), "%s", sc->dev[d].name);
	if (want_series) {
		r->series = calloc(1, sizeof(*r->series));
		if (!r->series) {
			sim_kernel_free(s);
			return -ENOMEM;
		}
		r->series->step_usec = 10000;
		r->series->ret_k = UINT32_MAX;
	}
	err = proposal_start(pr, s);
	/* the scenario's own knobs, after the policy's, in the file's order */
	for (int k = 0; k < sc->nknob && !err; k++) {
		const struct scen_knob *kn = &sc->knob[k];
		err = kn->bdi ? sim_bdi_write(s, kn->dev, (enum bdi_attr)kn->attr, kn->value)
			      : sim_vm_write(s, (enum vm_knob)kn->attr, kn->value);
		if (err)
			r->refused = kn;
	}
	/* what a governor must give back when the run ends */
	for (int d = 0; d < sc->ndev; d++) {
		found[d][0] = sim_bdi_read(s, d, BDI_STRICT_LIMIT);
		found[d][1] = sim_bdi_read(s, d, BDI_MAX_RATIO_FINE);
		found[d][2] = sim_bdi_read(s, d, BDI_MIN_RATIO_FINE);
	}
	if (!err && pr->governor)
		err = ctl->attach(ctl->ctx, s, p);
	while (!err) {
		uint64_t now = sim_now_usec(s), d;

		if (sim_done(s, false) && sim_global_writeback(s) == 0)
			break;
		if (now > (p->limit_hours ? (uint64_t)p->limit_hours * 3600 * 1000000 : RUN_LIMIT_USEC)) {
			err = -ETIMEDOUT;
			break;
		}
		if (pr->governor && now >= next_ctl) {
			ctl->tick(ctl->ctx, now);
			next_ctl = now + ctl->period_usec;
		}
		sim_step(s);
		d = sim_global_dirty(s);
		if (d > peak_dirty)
			peak_dirty = d;
		d += sim_global_writeback(s);
		if (d > peak)
			peak = d;
		if (r->series && !returned && sim_task_stats(s, main_task(sc))->write_return_usec) {
			returned = true;
			sample(r->series, s, sc, false, true);
		}
		if (r->series)
			sample(r->series, s, sc, false, false);
	}
	/* the end, before a governor gives its knobs back */
	if (!err && r->series)
		sample(r->series, s, sc, true, false);
	if (pr->governor) {
		ctl->detach(ctl->ctx);
		/* every knob back as it was found, or the run is not a result */
		for (int d = 0; d < sc->ndev && !err; d++)
			if (sim_bdi_read(s, d, BDI_STRICT_LIMIT) != found[d][0] ||
			    sim_bdi_read(s, d, BDI_MAX_RATIO_FINE) != found[d][1] ||
			    sim_bdi_read(s, d, BDI_MIN_RATIO_FINE) != found[d][2])
				err = -ENOTRECOVERABLE;
	}
	if (!err) {
		r->sim_seconds = (double)sim_now_usec(s) / 1e6;
		measure(sc, s, peak, peak_dirty, r);
		if (r->series)
			series_end(r->series, s, sc);
	}
	sim_kernel_free(s);
	if (err)
		run_result_free(r);
	return err;
}

void run_result_free(struct run_result *r)
{
	free(r->series);
	r->series = NULL;
}
