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

/* After a wake-up, the watch is armed again no sooner than this: a copy
 * that goes on writing meanwhile is the governor's to follow (it polls
 * every 10-100 ms while data waits), not a wake-up per write. */
#define FAN_REARM_USEC 100000ULL

/* How many names a list of NUL-ended names holds (an empty one ends it). */
static int count_names(const char *list)
{
	int n = 0;

	for (; *list; list += strlen(list) + 1)
		n++;
	return n;
}

static void fan_close(struct watch *w)
{
	if (w->fan >= 0)
		close(w->fan);
	w->fan = -1;
	w->fan_marked[0] = 0;
	w->fan_marked[1] = 0;
}

/* A descriptor marked on each of `want`'s file systems (mount points, each
 * ended by a NUL, `len` in all), CAP_SYS_ADMIN effective for those calls
 * alone: the descriptor, or -errno where none can be opened (said once by
 * the caller). A mark refused is said and left out: that file system is
 * polled. */
static int fan_arm(const char *want, size_t len)
{
	int fd, r;

	sandbox_cap_effective(CAP_SYS_ADMIN, true);
	fd = fanwatch_open();
	for (const char *m = want; fd >= 0 && m < want + len; m += strlen(m) + 1) {
		r = fanwatch_mark(fd, m);
		if (r)
			log_debug("%s: not watched for writes (fanotify: %s)", m, strerror(-r));
	}
	sandbox_cap_effective(CAP_SYS_ADMIN, false);
	return fd;
}

/* Linux < 6.2 (the global pair): the file systems of every device whose
 * first write must reach the pair at once (gov_watch_writes) watched for
 * writes by w->fan (opened when wanted; refused for good once said),
 * armed anew when that set of mounts changes and after each wake-up (the
 * mount points are marked as this machine's paths, under --root too: a
 * test's fixture names a real mount there). Returns how soon to arm it
 * again (after a wake-up), 0 for no hurry. */
static uint64_t fan_update(struct watch *w, struct daemon *dm)
{
	char want[sizeof(w->fan_marked)] = "";
	size_t len = 0;
	uint64_t since;
	int fd;

	if (w->fan_refused || (dm->gov.features & KNOBS_BDI_BYTES))
		return 0;
	for (int i = 0; i < dm->gov.ndev; i++) {
		const struct gov_dev *d = &dm->gov.dev[i];
		const char *m;

		if (!gov_watch_writes(&dm->gov, d))
			continue;
		for (m = knobs_list_next(d->info.mounts, sizeof(d->info.mounts), NULL); m;
		     m = knobs_list_next(d->info.mounts, sizeof(d->info.mounts), m)) {
			int n = snprintf(want + len, sizeof(want) - len - 1, "%s%c", m, 0);
			if (n < 0 || (size_t)n >= sizeof(want) - len - 1)
				break; /* more than fit: the others are polled */
			len += (size_t)n;
		}
	}
	want[len] = 0; /* the list's end: an empty name */
	if (w->fan >= 0 && memcmp(want, w->fan_marked, len + 1) == 0)
		return 0;
	fan_close(w);
	since = daemon_now_usec() - w->fan_woke_usec;
	if (len == 0)
		return 0;
	if (since < FAN_REARM_USEC)
		return FAN_REARM_USEC - since;
	fd = fan_arm(want, len);
	if (fd < 0) {
		const char *by = feature_refused_by(fd, true);
		feature_set(&dm->features, FEATURE_WAKEUP, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "no fanotify (%s): a slow device's first write is found by polling, "
			    "every 0.1-1 s", strerror(-fd));
		w->fan_refused = true;
		return 0;
	}
	w->fan = fd;
	memcpy(w->fan_marked, want, len + 1);
	log_debug("a write to %d mount%s' file systems wakes the loop", count_names(want),
		  count_names(want) == 1 ? "" : "s");
	return 0;
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
	w->fan = -1;
	w->fan_woke_usec = 0;
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
	rearm = fan_update(w, dm);
	if (rearm && rearm < *delay_usec)
		*delay_usec = rearm;
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
		if (w->ufan >= 0 && (pfd[w->ufan].revents & POLLIN)) {
			/* written: its events discarded unread (fanwatch.h) */
			log_debug("a write to a watched file system: a full poll now");
			fan_close(w);
			w->fan_woke_usec = daemon_now_usec();
			gov_request_poll(&dm->gov);
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
	fan_close(w);
	uevent_close(w->mon);
	w->mounts_fd = -1;
	w->mon = NULL;
}
