/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scenario: the simulated machine, its devices and writers, and the
 * parameters a user may change on the command line. */
#ifndef WBGOV_SIM_SCENARIO_H
#define WBGOV_SIM_SCENARIO_H

#include <stddef.h>

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
	uint64_t speed_bps;      /* the main device's (last) speed */
	uint64_t size_bytes;     /* what the main task writes */
	uint64_t rate_bps;       /* how fast the main task produces it (a copy's rate) */
	unsigned hz;
	unsigned bits;           /* 32 or 64 */
	bool no_memory;          /* wbgov: every device cold, the machine's own too */
	unsigned limit_hours;    /* a run still writing then fails; 0: RUN_LIMIT_HOURS */
	uint64_t seed;           /* the timing jitter's (sim_kernel_cfg.seed); 0: none */
};

#define SCEN_NAME_MAX 32      /* a scenario's name: 31 characters */
#define SCEN_SUMMARY_MAX 128
#define SCEN_WRITER_NAME_MAX 16
#define SCEN_MAX_KNOBS 32     /* [sysctl] and [knob] lines, with --sysctl and --knob */
#define SCEN_MAX_POLICIES 16
/* A copy writer's files: each is an inode the simulator keeps. */
#define SCEN_MAX_FILES 1000000

/* A knob written when the run starts, after the policy's own. */
struct scen_knob {
	bool bdi;               /* a bdi attribute of dev; else a vm sysctl */
	int dev;
	int attr;               /* enum bdi_attr or enum vm_knob */
	uint64_t value;
};

/* A machine, its devices, its writers and the knobs set at the start, as
 * a scenario file (docs/scenarios.md, sim/scenfile.h) describes them. */
struct scenario {
	char name[SCEN_NAME_MAX];
	char summary[SCEN_SUMMARY_MAX];
	/* what `wbsim run` runs without --policy (proposals[].name); none: all */
	const char *policy[SCEN_MAX_POLICIES];
	int npolicy;
	struct sim_kernel_cfg kernel;
	/* [machine] used and kernel_mem given; else they follow mem
	 * (sim_params_memory's defaults) */
	bool used_set;
	bool kernel_mem_set;
	struct sim_dev_cfg dev[SIM_MAX_DEV];
	int ndev;
	struct sim_task_cfg task[SIM_MAX_TASK];
	enum task_role role[SIM_MAX_TASK];
	char task_name[SIM_MAX_TASK][SCEN_WRITER_NAME_MAX];
	uint64_t task_size[SIM_MAX_TASK];      /* copy: bytes in all, as given */
	uint64_t task_file_size[SIM_MAX_TASK]; /* copy: each file's, as given; 0: one file */
	int ntask;
	int main_dev;            /* whose bytes device_written_mib counts */
	struct scen_knob knob[SCEN_MAX_KNOBS];
	int nknob;
};

/* A copy writer's files from its size and file size: files of
 * file_size (or one of size, if 0 or larger), rounded up to pages. */
void scenario_task_files(uint64_t size, uint64_t file_size, uint64_t *ret_files,
			 uint64_t *ret_file_bytes);

/* Apply `p` (--param) to `sc`: mem, used, kernel, hz, bits; speed sets
 * the main device's last stretch, size the main writer's size. 0, or
 * -EINVAL with a message naming the parameters in `err`. */
int scenario_apply(struct scenario *sc, const struct sim_params *p, char *err, size_t len);

/* Parse "key=value" into `p` (the machine's and the scenario's; wbgov's
 * tunables are lab_param_set's). 0; -ENOENT unknown key; -EINVAL bad value. */
int sim_param_set(struct sim_params *p, const char *kv);

/* The machine's memory under `p`: its size, the kernel's own and the
 * applications' (anonymous) memory in use, bytes. */
void sim_params_memory(const struct sim_params *p, uint64_t *ret_mem, uint64_t *ret_kernel,
		       uint64_t *ret_used);

/* The kernel's own and the applications' memory when not given: a share of
 * `mem` (scenario.c says why). */
void scenario_memory_defaults(uint64_t mem, uint64_t *ret_kernel, uint64_t *ret_used);

/* What no single key=value can check: memory in use must fit in memory.
 * 0, or -EINVAL with a message naming the parameters in `err`. */
int sim_params_check(const struct sim_params *p, char *err, size_t len);

#endif
