/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wakes wbgovd's loop besides its clock, and what each asks for: a
 * uevent (a device came or went: a rescan; without netlink, a rescan each
 * second instead), the mount table changing (mountinfo's POLLPRI: a
 * rescan, as a [device] mount = section may match now or no longer, and
 * the bus's Mounts read again), and before Linux 6.2 a write to the
 * mounts of a device whose first write must reach the global pair at once
 * (fanotify: a full poll). The waiting itself is the loop's (daemon.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/context.h"
#include "daemon/watch.h"
#include "sys/fanwatch.h"
#include "sys/log.h"
#include "sys/procfs.h"
#include "sys/uevent.h"

/* Linux < 6.2 (the global pair): the mounts of every device whose first
 * write must reach the pair at once (gov_watch_writes) watched for writes
 * by `*fan` (opened when first needed; -2 once refused, said once), marked
 * anew when that set of mounts changes (`marked`, their names joined). Not
 * over a --root tree: its mount points are not this machine's. */
static void fan_update(struct daemon *dm, int *fan, char *marked, size_t size)
{
	char want[4096] = "";
	size_t len = 0;

	if (*fan == -2 || (dm->gov.features & KNOBS_BDI_BYTES) ||
	    (dm->real.root && strcmp(dm->real.root, "/")))
		return;
	for (int i = 0; i < dm->gov.ndev; i++) {
		const struct gov_dev *d = &dm->gov.dev[i];
		const char *m;

		if (!gov_watch_writes(&dm->gov, d))
			continue;
		for (m = knobs_list_next(d->info.mounts, sizeof(d->info.mounts), NULL); m;
		     m = knobs_list_next(d->info.mounts, sizeof(d->info.mounts), m)) {
			int w = snprintf(want + len, sizeof(want) - len, "%s%c", m, 0);
			if (w < 0 || (size_t)w >= sizeof(want) - len)
				break; /* more than fit: the others are polled */
			len += (size_t)w;
		}
	}
	if (len == 0 && *fan < 0)
		return;
	if (len < size && memcmp(want, marked, len + 1) == 0)
		return;
	if (*fan < 0) {
		*fan = fanwatch_open();
		if (*fan < 0) {
			log_notice("cannot watch mounts for writes (fanotify: %s): a slow device's "
				   "first dirty data is found by polling",
				   strerror(-*fan));
			*fan = -2;
			return;
		}
	}
	fanwatch_flush(*fan);
	for (const char *m = want; m < want + len; m += strlen(m) + 1) {
		int r = fanwatch_mark(*fan, m);
		if (r)
			log_debug("%s: not watched for writes (fanotify: %s)", m, strerror(-r));
	}
	if (len < size) {
		memcpy(marked, want, len);
		marked[len] = 0;
	}
}

void watch_open(struct watch *w, const char *root)
{
	memset(w, 0, sizeof(*w));
	w->fan = -1;
	w->last_scan_usec = daemon_now_usec();
	w->mounts_fd = procfs_mounts_watch(root);
	if (w->mounts_fd < 0)
		w->mounts_fd = -1;
	if (uevent_open(&w->mon) < 0) {
		log_warn("no uevents (netlink): rescanning devices every second instead");
		w->mon = NULL;
	}
}

int watch_pollfds(struct watch *w, struct daemon *dm, struct pollfd *pfd, uint64_t *delay_usec)
{
	int n = 0;

	w->umon = w->umnt = w->ufan = -1;
	if (w->mon) {
		w->umon = n;
		pfd[n++] = (struct pollfd){ .fd = uevent_fd(w->mon), .events = POLLIN };
	} else if (*delay_usec > GOV_POLL_IDLE_USEC) {
		*delay_usec = GOV_POLL_IDLE_USEC;
	}
	if (w->mounts_fd >= 0) {
		w->umnt = n;
		pfd[n++] = (struct pollfd){ .fd = w->mounts_fd, .events = POLLPRI };
	}
	fan_update(dm, &w->fan, w->fan_marked, sizeof(w->fan_marked));
	if (w->fan >= 0) {
		w->ufan = n;
		pfd[n++] = (struct pollfd){ .fd = w->fan, .events = POLLIN };
	}
	return n;
}

void watch_dispatch(struct watch *w, struct daemon *dm, const struct pollfd *pfd, bool woken)
{
	if (woken) {
		if (w->umon >= 0 && (pfd[w->umon].revents & POLLIN) && uevent_drain(w->mon) > 0)
			gov_request_rescan(&dm->gov);
		if (w->umnt >= 0 && (pfd[w->umnt].revents & (POLLPRI | POLLERR))) {
			gov_request_rescan(&dm->gov);
			bus_mounts_changed(&dm->bus);
		}
		if (w->ufan >= 0 && (pfd[w->ufan].revents & POLLIN) && fanwatch_drain(w->fan) > 0)
			gov_request_poll(&dm->gov);
	}
	if (!w->mon && daemon_now_usec() - w->last_scan_usec >= GOV_POLL_IDLE_USEC) {
		/* no uevents: look for devices every second */
		gov_request_rescan(&dm->gov);
		w->last_scan_usec = daemon_now_usec();
	}
}

void watch_close(struct watch *w)
{
	if (w->mounts_fd >= 0)
		close(w->mounts_fd);
	if (w->fan >= 0)
		close(w->fan);
	uevent_close(w->mon);
	w->mounts_fd = w->fan = -1;
	w->mon = NULL;
}
