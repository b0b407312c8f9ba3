/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd: the governor on the real machine, its loop (daemon.c), and
 * struct daemon, which every part of it shares: each field says whose it
 * is (record.c, memory.c, events.c, metrics.c, bus.c). What these return
 * says how wbgovd ended; the main maps it to an exit status. */
#ifndef WBGOV_DAEMON_DAEMON_H
#define WBGOV_DAEMON_DAEMON_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/bus.h"
#include "daemon/config.h"
#include "daemon/memory.h"
#include "daemon/metrics.h"
#include "policy/governor.h"
#include "sys/knobs_real.h"
#include "sys/state.h"

/* From SIGTERM, the knobs are given back at once (sysfs writes, the state
 * file in /run); then a Sync child (SIGTERM ends it unless it sits in the
 * kernel's sync) and device memory's last save (an fsync on a busy disk)
 * are waited for this long, and the bus gets BUS_FLUSH_USEC: wbgovd exits
 * within a second whatever the disk, the bus or a child does, and says
 * what it left running. */
#define STOP_WAIT_USEC 500000ULL

struct daemon_opts {
	const char *config_path; /* reread on reload */
	const char *root;        /* where /proc and /sys are: "/" */
	const char *state_dir;   /* state, status, pid file */
	const char *memory_path; /* device memory; NULL: off */
	const char *metrics_path; /* Prometheus text rewritten every metrics_usec; NULL: off */
	uint64_t metrics_usec;
	const char *bus;         /* --bus: NULL for the default (bus_parse_kind) */
	bool check;              /* -n: check the configuration, and no more */
	bool verbose;            /* -v: measurements logged; -n: the files read said */
};

struct daemon {
	/* the configuration file, parsed at start and at each reload into
	 * the governor (gov.cfg, its one copy: read it there) */
	const char *config_path;
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
};

/* How a start or a run ends, said in the log when it happens; the main
 * makes an exit status of it (wbgovd(8), EXIT STATUS). */
enum daemon_end {
	DAEMON_OK,             /* stopped by TERM or INT, every knob given back; -n: OK */
	DAEMON_STOPPED,        /* TERM or INT while the lock was waited for: nothing changed */
	DAEMON_BAD_NAME,       /* --state-dir, --memory or --metrics-file too long */
	DAEMON_BAD_CONFIG,     /* the configuration is wrong, or cannot be read */
	DAEMON_NO_STATE_DIR,   /* the state dir (not ours), its lock or pid file, or the
				  metrics file's directory */
	DAEMON_LOCKED,         /* another wbgovd, or an apply or restore past the wait */
	DAEMON_UNKNOWN_ORIGINALS, /* a previous run's state file cannot be read */
	DAEMON_KNOBS_LEFT,     /* at stop, a knob could not be given back: it stays recorded */
	DAEMON_END_COUNT
};

/* wbgovd, whole: with o->check, the configuration checked ("configuration
 * OK" on stdout, or what is wrong on stderr); else started, run until TERM
 * or INT (HUP reloads) and stopped. How it ended (the main makes an exit
 * status of it). Call once, first thing: it blocks TERM, INT and HUP
 * until the loop waits, and ignores SIGPIPE. */
enum daemon_end daemon_main(const struct daemon_opts *o);

/* Parse the configuration, take the lock, give back what a previous run
 * left, load device memory and start the governor. DAEMON_OK, or why not
 * (the reason logged): then nothing is left changed, nor locked. TERM,
 * INT and HUP must be blocked (a TERM is taken while the lock is waited
 * for). `dm` is large: not on the stack. */
enum daemon_end daemon_start(struct daemon *dm, const struct daemon_opts *o);

/* One poll: the governor's tick, device memory, the status file and the
 * metrics file kept up. How long until the next, in microseconds. */
uint64_t daemon_step(struct daemon *dm, uint64_t now_usec);

/* Reread the configuration file into the governor, which decides every
 * device anew. 0, or -1 with the running configuration kept (a file named
 * with -c that has gone is an error, as at start). */
int daemon_reload(struct daemon *dm);

/* Poll until *term, reloading at each *hup; uevents, when the netlink
 * socket opens, tell of devices coming and going, else a rescan each
 * second. Signals are delivered only inside ppoll, with `mask`. */
void daemon_run(struct daemon *dm, volatile sig_atomic_t *term, volatile sig_atomic_t *hup,
		const sigset_t *mask);

/* Every knob given back, the state file emptied, memory saved, the status
 * and pid files removed, the metrics file saying wbgov_daemon_up 0, the
 * lock let go: DAEMON_OK, or DAEMON_KNOBS_LEFT. */
enum daemon_end daemon_stop(struct daemon *dm);

uint64_t daemon_now_usec(void);

#endif
