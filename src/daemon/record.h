/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record that keeps every knob wbgovd changes from being lost (the
 * state file, a previous run's leftovers, the lock and pid file): see
 * record.c. Each function logs what went wrong. */
#ifndef WBGOV_DAEMON_RECORD_H
#define WBGOV_DAEMON_RECORD_H

#include "policy/governor.h"

struct daemon;

/* One instance per state dir, and no apply or restore beside it: the lock
 * (waited for while an apply or restore holds it, a TERM or INT taken
 * meanwhile), then our pid in the pid file; dm->lockfd kept open for the
 * process's life. 0; -EINTR stopped while waiting (nothing changed);
 * -EBUSY held by another; another -errno: the lock or pid file. */
int record_lock(struct daemon *dm);

/* The pid file removed and the lock let go. */
void record_unlock(struct daemon *dm);

/* Knobs a previous run left changed (SIGKILL, a crash): given back first.
 * What cannot be given back keeps its record, and its device is left
 * alone (the save hook); the others are governed. Fails (-errno) only
 * when the state file cannot be read: then no original is known. */
int record_leftovers(struct daemon *dm);

/* What a run killed in the middle of a save left (each save has a
 * temporary of its own): removed once the lock is ours, as no apply or
 * restore is writing then. */
void record_sweep(struct daemon *dm);

/* At stop, after the governor's own: whatever is still recorded given
 * back (a device that could not be, tried again; a previous run's
 * leftovers; the vm pair), each tried whatever the others did, and the
 * file written with what is left. 0, or -EIO when something stays. */
int record_give_back(struct daemon *dm);

/* The governor's save, restored, save_vm and restored_vm hooks: each
 * original recorded before its knob changes, struck out once it is back. */
void record_hooks(struct gov_hooks *h);

#endif
