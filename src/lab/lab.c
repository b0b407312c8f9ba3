/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/parse.h"
#include "sim/knobs_sim.h"
#include "sim/scenfile.h"
#include "lab/lab.h"
#include "policy/tunables.h"
#include "policy/governor.h"

struct gov_ctl {
	struct governor gov;
	struct gov_config cfg;
	uint64_t next_usec;
	struct sim_kernel *s;
	bool no_memory;
};

static void trace_decision(void *ctx, const struct gov_dev *d)
{
	struct gov_ctl *c = ctx;

	fprintf(stderr, "%.3f gov %s: bw %llu B/s -> strict %d max_bytes %llu (%s) err %d\n",
		(double)sim_now_usec(c->s) / 1e6, knobs_dev_label(&d->info),
		(unsigned long long)d->meter.est_bps, d->dec.strict,
		(unsigned long long)d->dec.max_bytes, gov_why_text[d->dec.why], d->err);
}

static void trace_window(void *ctx, const struct gov_dev *d)
{
	struct gov_ctl *c = ctx;

	fprintf(stderr, "%.3f win %s: %llu B/s (%s backlog: empty at %u of %u polls, %llu ms queued) -> est %llu\n",
		(double)sim_now_usec(c->s) / 1e6, knobs_dev_label(&d->info), (unsigned long long)d->meter.last_bps,
		d->meter.last_backlog ? "with" : "without", d->meter.last_empty, d->meter.last_polls,
		(unsigned long long)d->meter.last_queued_ms, (unsigned long long)d->meter.est_bps);
}

/* Device memory in the simulator: the machine's own disks are known (as
 * after their first day under wbgovd), unless memory=off. */
static uint64_t recall(void *ctx, const struct knobs_dev *info, bool *ret_known)
{
	struct gov_ctl *c = ctx;
	char name[32];

	if (c->no_memory)
		return 0;
	for (int d = 0; d < sim_ndev(c->s); d++) {
		knobs_sim_bdi_name(c->s, d, name, sizeof(name));
		if (!strcmp(name, info->bdi) && sim_dev_cfg(c->s, d)->known) {
			*ret_known = true;
			return sim_dev_cfg(c->s, d)->bw[0].bps;
		}
	}
	return 0;
}

static int ctl_attach(void *ctx, struct sim_kernel *s, const struct sim_params *p)
{
	struct gov_ctl *c = ctx;
	struct gov_hooks h = { .ctx = c, .recall = recall };
	if (getenv("WBSIM_TRACE")) {
		h.decided = trace_decision;
		h.measured = trace_window;
	}
	c->s = s;
	c->no_memory = p->no_memory;
	gov_init(&c->gov, &c->cfg, &knobs_sim_ops, s, &h);
	c->next_usec = 0;
	return 0;
}

static void ctl_tick(void *ctx, uint64_t now_usec)
{
	struct gov_ctl *c = ctx;

	if (now_usec < c->next_usec)
		return;
	c->next_usec = now_usec + gov_tick(&c->gov, now_usec);
}

static void ctl_detach(void *ctx)
{
	struct gov_ctl *c = ctx;

	gov_restore(&c->gov);
}

void lab_params_init(struct lab_params *lp)
{
	memset(&lp->sim, 0, sizeof(lp->sim));
	gov_config_defaults(&lp->gov);
}

int lab_param_set(struct lab_params *lp, const char *kv, char *want, size_t len)
{
	const char *eq = strchr(kv, '=');
	const struct gov_tunable *t = eq ? gov_tunable_find(kv, (size_t)(eq - kv)) : NULL;
	uint64_t *at;
	int r;

	if (want && len)
		want[0] = 0;
	if (!t)
		return sim_param_set(&lp->sim, kv);
	at = gov_tunable_at(t, &lp->gov);
	r = t->unit == GOV_UNIT_MS ? parse_ms_in(eq + 1, t->min, t->max, at) :
				     parse_size_in(eq + 1, t->min, t->max, at);
	if (r) {
		if (want && len)
			gov_tunable_want(t, want, len);
		return -EINVAL;
	}
	return 0;
}

int lab_run_scenario(const struct scenario *sc, const char *policy, const struct lab_params *lp,
		     bool want_series, struct run_result *ret)
{
	struct gov_ctl *c;
	struct sim_controller ctl = {
		.period_usec = 10000, .attach = ctl_attach, .tick = ctl_tick, .detach = ctl_detach,
	};
	int r;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	ctl.ctx = c;
	c->cfg = lp->gov;
	r = sim_run(sc, policy, &lp->sim, &ctl, want_series, ret);
	gov_free(&c->gov);
	free(c);
	return r;
}

int lab_run(const char *scenario, const char *policy, const struct lab_params *lp,
	    bool want_series, struct run_result *ret)
{
	struct scenario sc;
	int r = scenfile_build(scenario, &lp->sim, &sc);

	if (r)
		return r;
	return lab_run_scenario(&sc, policy, lp, want_series, ret);
}

int lab_run_jobs(const struct lab_job *jobs, int n, const struct lab_params *p, bool series,
		 struct run_result *res, const struct run_result **base, struct lab_failure *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < n; i++) {
		const char *sname = jobs[i].scenario->name, *pol = jobs[i].policy;
		int r = lab_run_scenario(jobs[i].scenario, pol, p, series, &res[i]);
		if (!r)
			continue;
		if (res[i].refused) { /* a knob of the file's or --sysctl/--knob */
			const struct scen_knob *kn = res[i].refused;
			bool patched = kn->attr >= (kn->bdi ? BDI_ATTR_COUNT : VM_KNOB_COUNT);
			char k[128];
			scenfile_knob_text(jobs[i].scenario, kn, k, sizeof(k));
			f->refused = true;
			snprintf(f->msg, sizeof(f->msg), "%s under %s: %s: the kernel refused it (%s)%s",
				 sname, pol, k, strerror(-r),
				 r != -ENOENT ? ""
				 : patched ? ": only kernel = 6.12+series (kernel/'s patches) has it"
				 : jobs[i].scenario->kernel.kver == KVER_6_1
					 ? ": 6.1 has no strict_limit, max_bytes, min_bytes or *_fine"
					 : "");
		} else if (r == -ETIMEDOUT) { /* the input's doing, not the simulator's */
			snprintf(f->msg, sizeof(f->msg), "%s under %s: still writing after %d h of "
				 "simulated time; is the device too slow for the data (--param speed)?",
				 sname, pol, p->sim.limit_hours ? (int)p->sim.limit_hours : RUN_LIMIT_HOURS);
		} else if (r == -ENOTRECOVERABLE) {
			snprintf(f->msg, sizeof(f->msg), "%s under %s: a bdi's knob was left changed "
				 "when the run ended (the governor did not give it back)", sname, pol);
		} else {
			snprintf(f->msg, sizeof(f->msg), "%s under %s: %s", sname, pol, strerror(-r));
		}
		for (int k = 0; k < i; k++)
			run_result_free(&res[k]);
		return r;
	}
	/* the base: the kernel's defaults on the same scenario */
	for (int i = 0; i < n; i++) {
		base[i] = NULL;
		for (int k = 0; k < n; k++)
			if (jobs[k].scenario == jobs[i].scenario && !strcmp(res[k].policy, "linux-64"))
				base[i] = &res[k];
	}
	return 0;
}
