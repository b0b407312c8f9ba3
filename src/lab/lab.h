/* wbsim's experiments: scenarios under policies, with the governor of
 * src/policy wired to the simulated kernel through the knobs seam for the
 * wbgov policy. Above policy, sim and knobs; below cmd. */
#ifndef WBGOV_LAB_LAB_H
#define WBGOV_LAB_LAB_H

#include "sim/run.h"

/* Run `scenario` under `policy`. 0, -ENOENT (unknown scenario or policy),
 * or another -errno. */
int lab_run(const char *scenario, const char *policy, const struct sim_params *p,
	    bool want_series, struct run_result *ret);

#endif
