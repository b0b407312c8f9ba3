/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every part of wbgovd shares, and nothing else: its options (struct
 * daemon_opts), its state (struct daemon: each field says whose it is)
 * and its clock. The parts (record.c, memory.c, confine.c, events.c,
 * watch.c, metrics.c, bus.c) include this, not the loop's daemon.h. */
#ifndef WBGOV_DAEMON_CONTEXT_H
#define WBGOV_DAEMON_CONTEXT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "daemon/bus.h"
#include "daemon/features.h"
#include "sys/memfile.h"
#include "daemon/metrics.h"
#include "daemon/settings.h"
#include "policy/governor.h"
#include "sys/knobs_real.h"
#include "sys/state.h"

struct daemon_opts {
	const char *config_path; /* reread on reload */
	const char *root;        /* where /proc and /sys are: "/" */
	const char *state_dir;   /* state, status, pid file */
	const char *memory_path; /* device memory; NULL: off */
	const char *metrics_path; /* --metrics-file: Prometheus text rewritten every
				     metrics_usec; NULL: the configuration's metrics */
	uint64_t metrics_usec;   /* 0: the configuration's metrics_interval */
	const char *bus;         /* --bus: NULL for the configuration's, or the default */
	bool check;              /* -n: check the configuration, and no more */
	bool verbose;            /* -v: measurements logged; -n: the files read said */
};

struct daemon {
	/* the command line, for each reload: the configuration file
	 * (opts->config_path) is parsed at start and at each reload into the
	 * governor (gov.cfg, its one copy: read it there) */
	const struct daemon_opts *opts;
	/* settings.c's: the metrics file and the bus, as resolved at start */
	struct daemon_settings settings;
	/* record.c's: the lock and the state file of original values */
	int lockfd;
	char state_path[PATH_MAX];
	char pid_path[PATH_MAX];
	char lock_path[PATH_MAX];
	struct state state;
	char status_path[PATH_MAX]; /* what wbgov status reads, rewritten by the step */
	struct knobs_real real;
	struct governor gov;
	/* memory.c's: device memory, "" when off */
	char memory_path[PATH_MAX];
	struct memory memory;
	uint64_t memory_saved_usec;
	pid_t memory_pid;     /* the child saving it; 0 */
	int memory_fd;        /* its pipe: EOF when it ends; -1 */
	struct metrics_file metrics; /* --metrics-file */
	bool status_dirty;
	bool stopping;        /* daemon_stop: the state file is written once, at the end */
	bool nomem_logged;    /* "no memory for more bdis" said */
	uint64_t start_usec;
	/* events.c's: what was last logged per bdi: a decision is logged
	 * when it moves materially (gov_decision_moved), not at every
	 * re-measurement */
	struct daemon_logged {
		char bdi[KNOBS_NAME_MAX];
		struct gov_decision dec;
		bool above_global;
		int err;
	} *logged;
	int nlogged, logged_room;
	/* the last STATUS= sent: devices governed, capped */
	int notified_governed, notified_capped;
	/* D-Bus: the objects follow the devices (a device came, went, or its
	 * decision moved: bus_changed) */
	struct bus bus;
	bool bus_changed;
	/* what is in force, as each part found it (features.h) */
	struct features features;
};

/* CLOCK_MONOTONIC in microseconds: the clock of the loop and of the
 * times the log gives since start. */
static inline uint64_t daemon_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

#endif
