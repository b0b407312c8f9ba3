/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state directory's lock, and wbgovd's pid file. Whoever changes the
 * knobs or the state file takes the lock first and holds it for the whole
 * read-modify-write: wbgovd as long as it lives, `wbgov apply --once` and
 * `wbgov restore` for their one pass; two of them at once would each take
 * the other's changes for the originals. The lock is an exclusive flock on
 * a file only its owner can open (0600, in a directory of its own), held by
 * an open descriptor: no stale file can block anyone, and no other user can
 * hold it. Who holds it is the kernel's word (/proc/locks). The pid file
 * is separate, readable by all, for people and for `wbgov status`. */
#ifndef WBGOV_SYS_PIDLOCK_H
#define WBGOV_SYS_PIDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Who holds a lock: pid 0 when the kernel does not say (the holder in
 * another pid namespace, or gone since), comm "" when unreadable. */
struct pidlock_holder {
	long pid;
	char comm[16];
};

/* Take the lock on `lock_path` without waiting (the file made 0600 if
 * missing, never opened through a link). The open descriptor, to keep
 * while the lock is needed (closing it lets go); -EBUSY when another
 * process holds it (who, in *ret_holder), or -errno of the open. */
int pidlock_take(const char *lock_path, struct pidlock_holder *ret_holder);

/* "pid 1234 (wbgovd)", "pid 1234", or "another process". */
void pidlock_holder_text(const struct pidlock_holder *h, char *buf, size_t len);

/* In the text of /proc/locks, the pid of the process that holds an
 * exclusive flock on the file (dev, ino); 0 if none does. */
long pidlock_parse_locks(const char *text, dev_t dev, ino_t ino);

/* Write our pid to `pid_path` (replaced atomically). 0 or -errno. */
int pidlock_write_pid(const char *pid_path);

/* Does the process `pid_path` names live, under the name `comm`? (A pid
 * file left by a crash names a dead process, or another program.) */
bool pidlock_held(const char *pid_path, const char *comm);

#endif
