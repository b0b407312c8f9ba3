/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbsim's experiments: scenarios under policies, with the governor of
 * src/policy wired to the simulated kernel through the knobs seam for the
 * wbgov policy. Above policy, sim and knobs; below cmd. */
#ifndef WBGOV_LAB_LAB_H
#define WBGOV_LAB_LAB_H

#include <stddef.h>

#include "policy/decide.h"
#include "sim/run.h"

/* What a run is given: the simulated machine and scenario, and wbgov's
 * configuration (the wbgov policy's). */
struct lab_params {
	struct sim_params sim;
	struct gov_config gov;
};

/* The scenarios' own defaults, and wbgov's (gov_config_defaults). */
void lab_params_init(struct lab_params *lp);

/* "key=value": one of wbgov's tunables (policy/tunables.h, the keys and
 * ranges of wbgov.conf's [global]) or the simulator's (sim_param_set). 0;
 * -ENOENT an unknown key; -EINVAL a bad value, with what is wanted in
 * `want` ("" when the key is the simulator's). */
int lab_param_set(struct lab_params *lp, const char *kv, char *want, size_t len);

/* Run `sc` (with lp's --param applied: scenario_apply) under `policy`.
 * 0, -ENOENT (unknown policy), or another -errno (sim_run's). */
int lab_run_scenario(const struct scenario *sc, const char *policy, const struct lab_params *lp,
		     bool want_series, struct run_result *ret);

/* Run the built-in `scenario` under `policy`, lp's --param applied. 0,
 * -ENOENT (unknown scenario or policy), or another -errno. */
int lab_run(const char *scenario, const char *policy, const struct lab_params *lp,
	    bool want_series, struct run_result *ret);

/* One run of many: a scenario under a policy. */
struct lab_job {
	const struct scenario *scenario;
	const char *policy;
};

/* Why a run of lab_run_jobs failed. */
struct lab_failure {
	bool refused;  /* the kernel refused a knob of the file's or --sysctl/--knob */
	char msg[640]; /* "SCENARIO under POLICY: what", for its user */
};

/* Run every job into res[] and, for each, the base it is compared with:
 * its scenario's run under linux-64, the kernel's defaults (NULL where
 * that was not run). 0; or -errno of the first run that failed (the runs
 * before it freed), with what to tell in *f: -ETIMEDOUT still writing at
 * the time limit, -ENOTRECOVERABLE a bdi's knob left changed at the end. */
int lab_run_jobs(const struct lab_job *jobs, int n, const struct lab_params *p, bool series,
		 struct run_result *res, const struct run_result **base, struct lab_failure *f);

#endif
