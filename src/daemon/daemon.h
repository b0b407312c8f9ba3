/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's loop (daemon.c): the governor on the real machine started,
 * run and stopped. What these return says how wbgovd ended; the main maps
 * it to an exit status. What every part shares is context.h. */
#ifndef WBGOV_DAEMON_DAEMON_H
#define WBGOV_DAEMON_DAEMON_H

#include <signal.h>
#include <stdint.h>

#include "daemon/context.h"

/* From SIGTERM, the knobs are given back at once (sysfs writes, the state
 * file in /run); then a Sync child (SIGTERM ends it unless it sits in the
 * kernel's sync) and device memory's last save (an fsync on a busy disk)
 * are waited for this long, and the bus gets BUS_FLUSH_USEC: wbgovd exits
 * within a second whatever the disk, the bus or a child does, and says
 * what it left running. */
#define STOP_WAIT_USEC 500000ULL

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

/* wbgovd's signals, for the main to set first thing, before its options
 * are read: TERM, INT and HUP blocked until the loop waits (a TERM during
 * start-up must not kill it between two knob writes) and caught, SIGPIPE
 * ignored (a log stream, or the pipe --help writes to, whose reader went
 * away is EPIPE, not a death). */
void daemon_signals(void);

/* wbgovd, whole, after daemon_signals: with o->check, the configuration
 * checked ("configuration OK" on stdout, or what is wrong on stderr); else
 * started, run until TERM or INT (HUP reloads) and stopped. How it ended
 * (the main makes an exit status of it). Call once. */
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
 * device anew. 0, or -errno with the running configuration kept (a file
 * named with -c that has gone is an error, as at start). */
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

#endif
