/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef WBGOV_SYS_FANWATCH_H
#define WBGOV_SYS_FANWATCH_H

/* A wake-up at the first write to a set of file systems (fanotify
 * FAN_MODIFY on whole file systems). Before Linux 6.2 wbgovd's cap is the
 * global dirty pair, set only while a slow device holds dirty data:
 * polled, a small copy is all dirty before the first poll sees it; woken
 * by its first write, the cap is there within milliseconds.
 *
 * A file system mark (FAN_MARK_FILESYSTEM, Linux 4.20), not a mount mark:
 * a mount mark is on one mount, and wbgovd's unit gives it a mount
 * namespace of its own (PrivateMounts=), whose copies of the user's mounts
 * see none of the user's writes (measured: 0 events in 3 s; a file system
 * mark: every write, from any namespace).
 *
 * The events are never read: reading one opens the written file (a
 * descriptor per event), and that open waits for a user's write lease to
 * be given up (lease-break-time, 45 s) or for a FUSE server to answer.
 * The descriptor only says "written since it was opened"; the caller
 * closes it (its events discarded, no file opened) and opens another when
 * it wants the next write. Needs CAP_SYS_ADMIN (effective) for open and
 * mark. 0/-errno. */

/* A fanotify descriptor (non-blocking, close-on-exec) or -errno. */
int fanwatch_open(void);
/* Every write to the file system that holds `path` makes the descriptor
 * readable (POLLIN). Where the kernel has no file system marks (before
 * 4.20: EINVAL), the mount that holds `path` is marked instead. */
int fanwatch_mark(int fd, const char *path);

#endif
