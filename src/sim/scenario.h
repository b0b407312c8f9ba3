/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seeds' scenarios, with the parameters a user may change. */
#ifndef WBGOV_SIM_SCENARIO_H
#define WBGOV_SIM_SCENARIO_H

#include "model/parse.h"
#include "sim/kernel.h"

enum task_role { ROLE_MAIN, ROLE_FAST, ROLE_MAIN_FAST, ROLE_OTHER };

/* What `--param key=value` may set; 0 = the scenario's own default. */
struct sim_params {
	uint64_t mem_bytes;
	uint64_t used_bytes;     /* anonymous memory in use, if used_set */
	uint64_t kernel_bytes;   /* the kernel's own memory, if kernel_set */
	bool used_set;           /* used=0 is a value, not "the default" */
	bool kernel_set;
	uint64_t speed_bps;      /* the scenario's slow (or only) device */
	uint64_t size_bytes;     /* what the main task writes */
	unsigned hz;
	unsigned bits;           /* 32 or 64 */
	bool no_memory;          /* wbgov: every device cold, the machine's own too */
	unsigned limit_hours;    /* a run still writing then fails; 0: RUN_LIMIT_HOURS */
};

struct scenario {
	const char *name;
	const char *summary;
	struct sim_kernel_cfg kernel;
	struct sim_dev_cfg dev[SIM_MAX_DEV];
	int ndev;
	struct sim_task_cfg task[SIM_MAX_TASK];
	enum task_role role[SIM_MAX_TASK];
	int ntask;
	int main_dev;            /* whose bytes device_written_mib counts */
};

extern const char *const scenario_names[];
extern const int scenario_count;

/* Build scenario `name` with `p` applied. 0, or -ENOENT for an unknown name. */
int scenario_build(const char *name, const struct sim_params *p, struct scenario *ret);
const char *scenario_summary(const char *name);

/* Parse "key=value" into `p` (the machine's and the scenario's; wbgov's
 * tunables are lab_param_set's). 0; -ENOENT unknown key; -EINVAL bad value. */
int sim_param_set(struct sim_params *p, const char *kv);

/* The machine's memory under `p`: its size, the kernel's own and the
 * applications' (anonymous) memory in use, bytes. */
void sim_params_memory(const struct sim_params *p, uint64_t *ret_mem, uint64_t *ret_kernel,
		       uint64_t *ret_used);

/* What no single key=value can check: memory in use must fit in memory.
 * 0, or -EINVAL with a message naming the parameters in `err`. */
int sim_params_check(const struct sim_params *p, char *err, size_t len);

#endif
