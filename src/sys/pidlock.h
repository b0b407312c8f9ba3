/* One wbgovd per state dir: an exclusive flock on its pid file, held as
 * long as the process lives (no stale file can block a start), and the
 * pid written in it for people. */
#ifndef WBGOV_SYS_PIDLOCK_H
#define WBGOV_SYS_PIDLOCK_H

#include <stdbool.h>
#include <stddef.h>

/* Take the lock on `path` (made 0644 if missing) and write our pid. The
 * open descriptor, to keep; -EBUSY when another process holds it (its pid,
 * as its file says, in `holder`, "?" if unreadable), or -errno. */
int pidlock_take(const char *path, char *holder, size_t len);

/* Does a live process hold the lock on `path`? */
bool pidlock_held(const char *path);

#endif
