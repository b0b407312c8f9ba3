/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Making file systems durable in a child process, for `wbgov sync` and
 * `wbgov eject` (which watch the progress meanwhile) and for the daemon's
 * D-Bus Sync (whose loop must go on meanwhile): a syncfs(2) can take
 * minutes on a slow stick, and only its own process waits for it. */
#ifndef WBGOV_SYS_SYNCMOUNTS_H
#define WBGOV_SYS_SYNCMOUNTS_H

#include <stdbool.h>
#include <sys/types.h>

#include "sys/procfs.h"

/* SIGINT ignored in the child: Ctrl-C stops a watching command, not the
 * writing it started. */
#define SYNC_MOUNTS_KEEP_ON_INT 1u

/* Fork a child that syncfs()es each file system of `ml` in turn, or calls
 * sync() when `ml` is empty or truncated (more mounts than it holds). A
 * mount from mountinfo (id >= 0) is opened as mountpt.h says, as the child
 * may be root's and the path a user's to change; a path a caller gave (id
 * -1) is opened as given. The child has TERM, INT and HUP unblocked and,
 * where the parent caught them, at their defaults (a daemon blocks and
 * catches them, and a child inherits both: a stop must end it); one the
 * parent ignored stays ignored (nohup's HUP); INT is ignored with
 * SYNC_MOUNTS_KEEP_ON_INT; and
 * every descriptor but 0-2 and `err_fd` closed (a pid lock or a bus
 * connection must not outlive the parent in it). The first mount that
 * fails ends it with status 1, after one line "ERR_PREFIXPATH: reason\n"
 * on `err_fd`. 0 and *ret_pid, or -errno of fork. */
int sync_mounts_start(const struct mount_list *ml, int err_fd, const char *err_prefix,
		      unsigned flags, pid_t *ret_pid);

/* Reap the child `pid` (waiting for it with `block`, else not): 0 when it
 * synced everything, -EIO when it failed (it said why) or died of another
 * signal, -ECANCELED when SIGTERM ended it, -EAGAIN when it still runs
 * (only without `block`), -errno of waitpid. */
int sync_mounts_reap(pid_t pid, bool block);

#endif
