/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One scenario under one policy: build the simulated machine, run it to the
 * end, and measure what the seeds talk about. */
#ifndef WBGOV_SIM_RUN_H
#define WBGOV_SIM_RUN_H

#include "sim/proposals.h"

/* Something outside the kernel that acts on it periodically through its
 * knobs: the wbgov governor. */
struct sim_controller {
	void *ctx;
	uint64_t period_usec;
	int (*attach)(void *ctx, struct sim_kernel *s, const struct sim_params *p);
	void (*tick)(void *ctx, uint64_t now_usec);
	void (*detach)(void *ctx);
};

/* CSV column order; a new column goes last, so that scripts reading the CSV
 * by position keep working. COL_PEAK_DIRTY is Dirty + Writeback (what the
 * whole page cache holds unwritten), COL_PEAK_NR_DIRTY Dirty alone
 * (NR_FILE_DIRTY, /proc/meminfo's "Dirty:"). */
enum run_col {
	COL_WRITE_RETURN, COL_DURABLE, COL_SYNC_AFTER, COL_PEAK_DIRTY, COL_OTHER_MAX_PAUSE,
	COL_FSYNC_P99, COL_FAST_WRITE, COL_DEVICE_WRITTEN, COL_PEAK_NR_DIRTY, COL_COUNT
};
extern const char *const run_col_names[COL_COUNT];

#define SERIES_MAX 2048

/* A run still writing after this much simulated time ends with -ETIMEDOUT
 * (--param limit=Nh sets another, up to 720 h). */
#define RUN_LIMIT_HOURS 6

/* What the plots and --series show, sampled at `step_usec` (doubled
 * whenever full), in MiB. Per device: its Dirty and Writeback and the wb
 * threshold its writers are throttled against (sim_dev_wb_thresh(): the
 * cap a policy sets, or the device's share of the global limit); then the
 * same totals as /proc/meminfo's Dirty: and Writeback:. */
struct run_series {
	uint32_t n;
	uint64_t step_usec;
	uint64_t next_usec;             /* the next sample's time */
	uint32_t ret_k;                 /* the main writer's write return's row */
	double t_s[SERIES_MAX];
	float dirty_mib[SIM_MAX_DEV][SERIES_MAX];
	float writeback_mib[SIM_MAX_DEV][SERIES_MAX];
	float thresh_mib[SIM_MAX_DEV][SERIES_MAX];
	float global_dirty_mib[SERIES_MAX];     /* NR_FILE_DIRTY */
	float global_writeback_mib[SERIES_MAX]; /* NR_WRITEBACK */
	float written_mib[SERIES_MAX];  /* the main writer's write() progress */
	float durable_mib[SERIES_MAX];  /* what reached the main writer's device */
	int writer_dev;                 /* ... that device */
	/* the main writer's sync() or fsync() after its last write (END_NONE:
	 * none, or it was never called): called and returned, seconds */
	enum sim_task_end end;
	double end_call_s, end_done_s;
};

struct run_result {
	char scenario[32];
	char policy[32];
	bool has[COL_COUNT];
	double val[COL_COUNT];
	double sim_seconds;
	int ndev;
	char devname[SIM_MAX_DEV][16];
	struct run_series *series; /* NULL unless asked for */
	/* the scenario's start-up knob write the kernel refused (the run
	 * failed with its error), or NULL */
	const struct scen_knob *refused;
};

/* 0, -ENOENT (unknown policy), -EINVAL (a policy without its controller),
 * -ENOMEM, -ETIMEDOUT (still writing after RUN_LIMIT_HOURS),
 * -ENOTRECOVERABLE (a governor left a bdi's knob changed when the run
 * ended), or what a start-up knob write returned (a scenario's own:
 * ret->refused names it). */
int sim_run(const struct scenario *sc, const char *policy, const struct sim_params *p,
	    const struct sim_controller *ctl, bool want_series, struct run_result *ret);
void run_result_free(struct run_result *r);

#endif
