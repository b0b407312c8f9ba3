/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wakes wbgovd's loop besides its clock (watch.c). */
#ifndef WBGOV_DAEMON_WATCH_H
#define WBGOV_DAEMON_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "knobs/knobs.h"

struct daemon;
struct uevent_mon;

/* Before Linux 6.2, the devices whose writes wake the loop, each by a
 * fanotify descriptor of its own (the wake-up names the device): at most
 * this many; the others are polled. */
#define WATCH_FAN_MAX 8
/* At most this many descriptors: uevents, mountinfo, fanotify's. */
#define WATCH_MAX_FDS (2 + WATCH_FAN_MAX)

struct watch_fan {
	char bdi[KNOBS_NAME_MAX]; /* "": a free slot */
	int fd;                   /* armed; -1 */
	uint64_t woke_usec;       /* its last wake-up */
	char mounts[sizeof(((struct knobs_dev *)0)->mounts)]; /* the mount points marked */
};

struct watch {
	struct uevent_mon *mon;  /* NULL: no netlink, rescans on the clock */
	uint64_t last_scan_usec; /* ... the last of them */
	int mounts_fd;           /* mountinfo, for POLLPRI; -1 */
	struct watch_fan fan[WATCH_FAN_MAX];
	bool fan_refused;        /* fanotify cannot be had (said once) */
	int umon, umnt;          /* where each is in the last watch_pollfds; -1 */
	int ufan[WATCH_FAN_MAX];
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

/* Before Linux 6.2: can the watch be had (fanotify)? Tried at start, so
 * that a refusal is said then, as a feature, not at the first mount. */
void watch_wakeup_probe(struct daemon *dm);

#endif
