/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wakes wbgovd's loop besides its clock, and what each asks for: a
 * uevent (a device came or went: a rescan; without netlink, a rescan each
 * second instead), the mount table changing (mountinfo's POLLPRI: a
 * rescan, as a [device] mount = section may match now or no longer, and
 * the bus's Mounts read again), and before Linux 6.2 a write to the file
 * systems of a device whose first write must reach the global pair at
 * once (fanotify: a full poll). The waiting itself is the loop's (daemon.c). */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/context.h"
#include "daemon/watch.h"
#include "sys/fanwatch.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/procfs.h"
#include "sys/sandbox.h"
#include "sys/uevent.h"

/* After a wake-up, a device's watch is armed again no sooner than this: a
 * copy that goes on writing meanwhile is the governor's to follow (it
 * polls every 10-100 ms while data waits), not a wake-up per write. */
#define FAN_REARM_USEC 100000ULL

static void fan_close(struct watch_fan *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* A descriptor marked on each file system of `mounts` (a knobs list of
 * mount points), CAP_SYS_ADMIN effective for those calls alone: the
 * descriptor, or -errno where none can be opened. A mark refused is said
 * and left out: that file system is polled. */
static int fan_arm(const char *mounts, size_t size)
{
	int fd, r;

	sandbox_cap_effective(CAP_SYS_ADMIN, true);
	fd = fanwatch_open();
	for (const char *m = knobs_list_next(mounts, size, NULL); fd >= 0 && m;
	     m = knobs_list_next(mounts, size, m)) {
		r = fanwatch_mark(fd, m);
		if (r)
			log_debug("%s: not watched for writes (fanotify: %s)", m, strerror(-r));
	}
	sandbox_cap_effective(CAP_SYS_ADMIN, false);
	return fd;
}

/* The write wake-up said as a feature: in force, or refused (-errno `r`). */
static void wakeup_said(struct daemon *dm, int r)
{
	const char *by = r < 0 ? feature_refused_by(r, true) : NULL;

	if (r >= 0)
		feature_set(&dm->features, FEATURE_WAKEUP, FEATURE_ON, NULL,
			    "fanotify: a write to a slow device's file systems wakes the loop");
	else
		feature_set(&dm->features, FEATURE_WAKEUP, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "no fanotify (%s): a slow device's first write is found by polling, "
			    "every 0.1-1 s", strerror(-r));
}

void watch_wakeup_probe(struct daemon *dm)
{
	int fd;

	sandbox_cap_effective(CAP_SYS_ADMIN, true);
	fd = fanwatch_open();
	sandbox_cap_effective(CAP_SYS_ADMIN, false);
	if (fd >= 0)
		close(fd);
	wakeup_said(dm, fd);
}

/* The slot of bdi `bdi`, or a free one (its bdi set), or NULL. */
static struct watch_fan *fan_slot(struct watch *w, const char *bdi)
{
	struct watch_fan *free_slot = NULL;

	for (int i = 0; i < WATCH_FAN_MAX; i++) {
		if (!strcmp(w->fan[i].bdi, bdi))
			return &w->fan[i];
		if (!w->fan[i].bdi[0] && !free_slot)
			free_slot = &w->fan[i];
	}
	if (free_slot) {
		memset(free_slot, 0, sizeof(*free_slot));
		free_slot->fd = -1;
		snprintf(free_slot->bdi, sizeof(free_slot->bdi), "%s", bdi);
	}
	return free_slot;
}

/* Linux < 6.2 (the global pair): the file systems of each device whose
 * first write must reach the pair at once (gov_watch_writes) watched for
 * writes, a fanotify descriptor per device (WATCH_FAN_MAX of them: the
 * wake-up names the device written), armed anew when its mounts change
 * and FAN_REARM_USEC after each wake-up. The mount points are marked as
 * this machine's paths, under --root too: a test's fixture names a real
 * mount there. Returns how soon one is to be armed again, 0 for no hurry. */
static uint64_t fan_update(struct watch *w, struct daemon *dm)
{
	uint64_t now = daemon_now_usec(), soonest = 0;
	bool want[WATCH_FAN_MAX] = { false }, all = true;

	if (w->fan_refused || (dm->gov.features & KNOBS_BDI_BYTES))
		return 0;
	for (int i = 0; i < dm->gov.ndev; i++) {
		const struct gov_dev *d = &dm->gov.dev[i];
		struct watch_fan *f;
		int fd;

		if (!gov_watch_writes(&dm->gov, d))
			continue;
		f = fan_slot(w, d->info.bdi);
		if (!f) {
			all = false; /* more than WATCH_FAN_MAX: polled */
			continue;
		}
		want[f - w->fan] = true;
		if (f->fd >= 0 && !memcmp(f->mounts, d->info.mounts, sizeof(f->mounts)))
			continue;
		fan_close(f);
		if (now - f->woke_usec < FAN_REARM_USEC) {
			uint64_t left = FAN_REARM_USEC - (now - f->woke_usec);
			if (!soonest || left < soonest)
				soonest = left;
			continue;
		}
		fd = fan_arm(d->info.mounts, sizeof(d->info.mounts));
		if (fd < 0) {
			wakeup_said(dm, fd);
			w->fan_refused = true;
			break;
		}
		f->fd = fd;
		memcpy(f->mounts, d->info.mounts, sizeof(f->mounts));
		log_debug("%s: a write to its file systems wakes the loop", d->info.bdi);
	}
	/* the devices no longer wanted let go */
	for (int i = 0; i < WATCH_FAN_MAX; i++) {
		if (want[i] || !w->fan[i].bdi[0])
			continue;
		fan_close(&w->fan[i]);
		w->fan[i].bdi[0] = 0;
	}
	if (w->fan_refused)
		for (int i = 0; i < WATCH_FAN_MAX; i++)
			fan_close(&w->fan[i]);
	gov_set_writes_watched(&dm->gov, !w->fan_refused && all);
	return soonest;
}

/* Is this process in a network namespace of its own (a unit's
 * PrivateNetwork=)? The kernel's uevents reach the host's alone. */
static bool own_netns(const char *root)
{
	char self[64], init[64], p[PATH_MAX];
	ssize_t a, b;

	if (path_at(p, sizeof(p), root, "/proc/1/ns/net"))
		return false;
	a = readlink("/proc/self/ns/net", self, sizeof(self) - 1);
	b = readlink(p, init, sizeof(init) - 1);
	return a > 0 && b > 0 && (a != b || memcmp(self, init, (size_t)a));
}

void watch_open(struct watch *w, struct daemon *dm)
{
	const char *root = dm->real.root;
	const char *by;
	int r;

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < WATCH_FAN_MAX; i++)
		w->fan[i].fd = -1;
	w->last_scan_usec = daemon_now_usec();
	w->mounts_fd = procfs_mounts_watch(root);
	if (w->mounts_fd < 0)
		w->mounts_fd = -1;
	r = uevent_open(&w->mon);
	if (r < 0) {
		w->mon = NULL;
		by = feature_refused_by(r, false);
		feature_set(&dm->features, FEATURE_UEVENTS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "no netlink (%s): devices looked for every second instead", strerror(-r));
	} else if (!strcmp(root, "/") && own_netns(root)) {
		/* the socket opens, and nothing ever comes */
		feature_set(&dm->features, FEATURE_UEVENTS, FEATURE_REFUSED,
			    secure_getenv("INVOCATION_ID") ? "PrivateNetwork=" : "a network namespace",
			    "in a network namespace of its own, where no uevent comes: devices looked "
			    "for every second instead");
		uevent_close(w->mon);
		w->mon = NULL;
	} else {
		feature_set(&dm->features, FEATURE_UEVENTS, FEATURE_ON, NULL, "netlink (%s's)",
			    uevent_udevd_running() ? "udevd" : "the kernel");
	}
}

int watch_pollfds(struct watch *w, struct daemon *dm, struct pollfd *pfd, uint64_t *delay_usec)
{
	uint64_t rearm;
	int n = 0;

	w->umon = w->umnt = -1;
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
	rearm = fan_update(w, dm);
	if (rearm && rearm < *delay_usec)
		*delay_usec = rearm;
	for (int i = 0; i < WATCH_FAN_MAX; i++) {
		w->ufan[i] = -1;
		if (w->fan[i].fd < 0)
			continue;
		w->ufan[i] = n;
		pfd[n++] = (struct pollfd){ .fd = w->fan[i].fd, .events = POLLIN };
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
		for (int i = 0; i < WATCH_FAN_MAX; i++) {
			struct watch_fan *f = &w->fan[i];
			if (w->ufan[i] < 0 || !(pfd[w->ufan[i]].revents & POLLIN))
				continue;
			/* written: its events discarded unread (fanwatch.h) */
			log_debug("%s: a write to its file systems: a full poll now", f->bdi);
			fan_close(f);
			f->woke_usec = daemon_now_usec();
			gov_written(&dm->gov, f->bdi, f->woke_usec);
		}
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
	for (int i = 0; i < WATCH_FAN_MAX; i++)
		fan_close(&w->fan[i]);
	uevent_close(w->mon);
	w->mounts_fd = -1;
	w->mon = NULL;
}
