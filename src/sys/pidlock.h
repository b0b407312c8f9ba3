/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One wbgovd per state dir. The lock is an exclusive flock on a file only
 * its owner can open (0600, in a directory of its own), held as long as
 * the process lives: no stale file can block a start, and no other user
 * can hold it to keep wbgovd from coming back. The pid goes in a separate
 * file, readable by all, for people and for `wbgov status`. */
#ifndef WBGOV_SYS_PIDLOCK_H
#define WBGOV_SYS_PIDLOCK_H

#include <stdbool.h>
#include <stddef.h>

/* Take the lock on `lock_path` (made 0600 if missing, never through a
 * link) and write our pid to `pid_path`. The open descriptor, to keep;
 * -EBUSY when another process holds the lock (its pid, as `pid_path` says,
 * in `holder`, "?" if unreadable), or -errno. */
int pidlock_take(const char *lock_path, const char *pid_path, char *holder, size_t len);

/* Does the process `pid_path` names live, under the name `comm`? (A pid
 * file left by a crash names a dead process, or another program.) */
bool pidlock_held(const char *pid_path, const char *comm);

#endif
