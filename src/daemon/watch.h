/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wakes wbgovd's loop besides its clock (watch.c). */
#ifndef WBGOV_DAEMON_WATCH_H
#define WBGOV_DAEMON_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

struct daemon;
struct uevent_mon;

/* At most this many descriptors: uevents, mountinfo, fanotify. */
#define WATCH_MAX_FDS 3

struct watch {
	struct uevent_mon *mon;  /* NULL: no netlink, rescans on the clock */
	uint64_t last_scan_usec; /* ... the last of them */
	int mounts_fd;           /* mountinfo, for POLLPRI; -1 */
	int fan;                 /* fanotify, armed (fanwatch.h); -1 */
	bool fan_refused;        /* fanotify cannot be had (said once) */
	uint64_t fan_woke_usec;  /* its last wake-up */
	char fan_marked[4096];   /* the mount points marked, each ended by a NUL,
				  * the list by an empty one */
	int umon, umnt, ufan;    /* where each is in the last watch_pollfds; -1 */
};

/* The watches opened; one that cannot be is said (uevents, as a feature),
 * or left out. */
void watch_open(struct watch *w, struct daemon *dm);

/* Before a wait: the fanotify marks brought in line with the governor's
 * devices (Linux < 6.2, on the real root only), then the descriptors to
 * wait on into pfd (room for WATCH_MAX_FDS): how many. Without uevents,
 * *delay_usec is lowered to a second. */
int watch_pollfds(struct watch *w, struct daemon *dm, struct pollfd *pfd, uint64_t *delay_usec);

/* After the wait on those pfd (`woken`: something came): a rescan, a full
 * poll or the bus's Mounts asked for, as each says. */
void watch_dispatch(struct watch *w, struct daemon *dm, const struct pollfd *pfd, bool woken);

void watch_close(struct watch *w);

#endif
