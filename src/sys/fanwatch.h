/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef WBGOV_SYS_FANWATCH_H
#define WBGOV_SYS_FANWATCH_H

/* A wake-up at the first write to a set of mounts (fanotify FAN_MODIFY on
 * whole mounts). Before Linux 6.2 wbgovd's cap is the global dirty pair,
 * set only while a slow device holds dirty data: polled, a small copy is
 * all dirty before the first poll sees it; woken by its first write, the
 * cap is there within milliseconds. Needs CAP_SYS_ADMIN. 0/-errno. */

/* A fanotify descriptor (non-blocking, close-on-exec) or -errno. */
int fanwatch_open(void);
/* Every write under the mount that holds `path` wakes the descriptor. */
int fanwatch_mark(int fd, const char *path);
/* No mount marked any more. */
int fanwatch_flush(int fd);
/* Every event read and its file descriptor closed: how many, or -errno. */
int fanwatch_drain(int fd);

#endif
