/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd on D-Bus (bus.h is the API): the connection, kept without ever
 * making the governor wait — made, named, watched for a stuck peer, given
 * a bounded amount of work each pass, closed without waiting. The objects
 * are busobjects.c's (their names busnames.c's), Sync bussync.c's and its
 * authorization busauth.c's. It writes no knob and no file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "daemon/bus.h"
#include "daemon/busparts.h"
#include "sys/log.h"

uint64_t bus_mono_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

/* The bus it is on, or tries to be. */
static const char *where(const struct bus *b)
{
	return b->kind == BUS_SYSTEM ? "the system bus" :
	       b->kind == BUS_SESSION ? "the session bus" : b->address;
}

static void lost(struct bus *b, const char *what, int r)
{
	const char *by = feature_refused_by(r, false);

	feature_set(b->features, FEATURE_BUS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
		    "not on %s (%s); tried again every %llu s", where(b), strerror(-r),
		    BUS_RETRY_USEC / 1000000);
	if (!b->failed_logged)
		log_warn("D-Bus: %s: %s; governing goes on, trying again every %llu s", what,
			 strerror(-r), BUS_RETRY_USEC / 1000000);
	b->failed_logged = true;
	/* their callers hear of it from the bus (NoReply) */
	bus_auths_drop(b, NULL, NULL);
	b->bus = sd_bus_close_unref(b->bus);
	b->up = false;
	b->stall_usec = 0;
	b->retry_usec = bus_mono_usec() + BUS_RETRY_USEC;
}

/* The answer to RequestName. Called inside sd_bus_process: it only
 * records, and bus_update acts on it. */
static int name_reply(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct bus *b = userdata;
	uint32_t ret = 0;
	int r;

	(void)err;
	if (sd_bus_message_is_method_error(m, NULL)) {
		r = sd_bus_message_get_errno(m);
		b->name_r = r > 0 ? -r : -EIO;
		return 1;
	}
	r = sd_bus_message_read(m, "u", &ret);
	/* 1: the primary owner, 4: already it; 3 (and 2, queued, which was
	 * not asked for): another process has it */
	b->name_r = r < 0 ? r : ret == 1 || ret == 4 ? 1 : -EEXIST;
	return 1;
}

/* What sd_bus_open_system and sd_bus_open_user would connect to; their
 * own start would send Hello with the default 25 s call timeout. */
static int set_address(struct bus *b, sd_bus *bus)
{
	const char *e;
	char a[PATH_MAX + 32];
	size_t o;

	switch (b->kind) {
	case BUS_SYSTEM:
		e = bus_env_address("DBUS_SYSTEM_BUS_ADDRESS");
		return sd_bus_set_address(bus, e ? e : "unix:path=" BUS_SYSTEM_SOCKET);
	case BUS_SESSION:
		if ((e = bus_env_address("DBUS_SESSION_BUS_ADDRESS")))
			return sd_bus_set_address(bus, e);
		if (!(e = secure_getenv("XDG_RUNTIME_DIR")))
			return -ENOMEDIUM;
		/* $XDG_RUNTIME_DIR/bus, escaped as a D-Bus address value */
		o = (size_t)snprintf(a, sizeof(a), "unix:path=");
		for (; *e && o + 8 < sizeof(a); e++)
			o += (size_t)snprintf(a + o, sizeof(a) - o, strchr("/._-", *e) ||
					      (*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'z') ||
					      (*e >= 'A' && *e <= 'Z') ? "%c" : "%%%02x",
					      (unsigned char)*e);
		if (*e || o + 5 > sizeof(a))
			return -ENAMETOOLONG;
		snprintf(a + o, sizeof(a) - o, "/bus");
		return sd_bus_set_address(bus, a);
	case BUS_ADDRESS: return sd_bus_set_address(bus, b->address);
	default: return -EINVAL;
	}
}

/* Starts the connection: sd_bus_start only connects the socket (a stream
 * socket that does not block) and queues the authentication and Hello;
 * the name is asked for at once, and its answer comes through
 * bus_dispatch. Nothing here waits for the bus. */
static int connect_bus(struct bus *b)
{
	sd_bus *bus = NULL;
	int r;
	const char *what = "connecting";

	if (b->kind == BUS_OFF)
		return 0;
	log_debug("D-Bus: connecting");
	r = sd_bus_new(&bus);
	if (r >= 0)
		r = set_address(b, bus);
	if (r >= 0)
		r = sd_bus_set_bus_client(bus, 1);
	if (r >= 0)
		r = sd_bus_set_method_call_timeout(bus, BUS_TIMEOUT_USEC);
	if (r >= 0)
		r = sd_bus_start(bus);
	if (r >= 0) {
		what = "publishing the objects";
		r = bus_objects_add(b, bus);
	}
	if (r >= 0) {
		what = "taking the name " BUS_NAME;
		r = sd_bus_request_name_async(bus, NULL, BUS_NAME, 0, name_reply, b);
	}
	b->bus = bus;
	b->up = false;
	b->name_r = 0;
	b->stall_usec = 0;
	b->deadline_usec = bus_mono_usec() + BUS_TIMEOUT_USEC;
	if (r < 0) {
		lost(b, what, r);
		return r;
	}
	return 0;
}

/* The name is ours: from here on the objects are published. */
static void bus_up(struct bus *b)
{
	b->up = true;
	log_info("D-Bus: %s on %s", BUS_NAME, where(b));
	feature_set(b->features, FEATURE_BUS, FEATURE_ON, NULL, "%s on %s", BUS_NAME, where(b));
	b->failed_logged = false;
}

/* A connection that is not up by its deadline, or whose write queue has
 * stopped moving, is dropped: true when it was. */
static bool bus_stuck(struct bus *b, uint64_t now_usec)
{
	uint64_t queued = 0;

	if (!b->up) {
		if (b->name_r < 0) {
			lost(b, "taking the name " BUS_NAME, b->name_r);
			return true;
		}
		if (b->name_r > 0) {
			bus_up(b);
			return false;
		}
		if (now_usec >= b->deadline_usec) {
			lost(b, "connecting (no answer from the bus)", -ETIMEDOUT);
			return true;
		}
		return false;
	}
	if (sd_bus_get_n_queued_write(b->bus, &queued) < 0 || !queued) {
		b->stall_usec = 0;
		return false;
	}
	if (!b->stall_usec) {
		b->stall_usec = now_usec ? now_usec : 1;
		log_debug("D-Bus: the write queue stopped moving (%llu messages): dropped in %llu s "
			  "unless it moves", (unsigned long long)queued, BUS_TIMEOUT_USEC / 1000000);
	}
	if (queued > BUS_QUEUE_MAX || now_usec - b->stall_usec >= BUS_TIMEOUT_USEC) {
		lost(b, "the bus takes no more messages (stopped?)", -ETIMEDOUT);
		return true;
	}
	return false;
}

void bus_start(struct bus *b, enum bus_kind kind, const char *address, const char *root,
	       struct knobs_real *real, struct features *features)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->address = address;
	b->root = root;
	b->real = real;
	b->features = features;
	if (kind == BUS_OFF)
		return;
	if (connect_bus(b) == 0)
		feature_set(features, FEATURE_BUS, FEATURE_ON, NULL, "connected to %s, taking the name %s",
			    where(b), BUS_NAME);
}

void bus_mounts_changed(struct bus *b)
{
	b->mounts_stale = true;
}

uint64_t bus_update(struct bus *b, const struct governor *g, bool changed, uint64_t now_usec)
{
	if (b->kind == BUS_OFF)
		return UINT64_MAX;
	if (!b->bus) {
		if (now_usec < b->retry_usec)
			return b->retry_usec - now_usec;
		if (connect_bus(b) < 0)
			return BUS_RETRY_USEC;
	}
	if (!b->up) {
		if (bus_stuck(b, now_usec))
			return BUS_RETRY_USEC;
		if (!b->up) /* still connecting: its deadline is in bus_pollfds */
			return UINT64_MAX;
		/* a new connection: every object anew */
		b->ndev = 0;
		changed = true;
	} else if (bus_stuck(b, now_usec)) {
		return BUS_RETRY_USEC;
	}
	return bus_objects_refresh(b, g, changed, now_usec);
}

int bus_pollfds(struct bus *b, struct pollfd *pfd, int max, uint64_t now_usec,
		uint64_t *timeout_usec)
{
	int n = 0;
	uint64_t t;

	if (b->more)
		*timeout_usec = 0; /* work left from the last pass */
	if (b->bus && n < max) {
		int fd = sd_bus_get_fd(b->bus), ev = sd_bus_get_events(b->bus);
		if (fd >= 0 && ev >= 0)
			pfd[n++] = (struct pollfd){ .fd = fd, .events = (short)ev };
		if (sd_bus_get_timeout(b->bus, &t) >= 0 && t != UINT64_MAX) {
			t = t > now_usec ? t - now_usec : 0;
			if (t < *timeout_usec)
				*timeout_usec = t;
		}
		/* the deadline to be up, or for the write queue to move */
		t = !b->up ? b->deadline_usec : b->stall_usec ? b->stall_usec + BUS_TIMEOUT_USEC :
			UINT64_MAX;
		if (t != UINT64_MAX) {
			t = t > now_usec ? t - now_usec : 0;
			if (t < *timeout_usec)
				*timeout_usec = t;
		}
	}
	n += bus_sync_pollfds(b, pfd + n, max - n);
	if (!b->bus && b->kind != BUS_OFF && !b->stopping) {
		t = b->retry_usec > now_usec ? b->retry_usec - now_usec : 0;
		if (t < *timeout_usec)
			*timeout_usec = t;
	}
	return n;
}

void bus_dispatch(struct bus *b, const struct pollfd *pfd, int n)
{
	bool process = false;
	uint64_t t;

	for (int i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (b->bus && pfd[i].fd == sd_bus_get_fd(b->bus)) {
			process = true;
			continue;
		}
		bus_sync_dispatch(b, pfd[i].fd);
	}
	if (!b->bus)
		return;
	if (sd_bus_get_timeout(b->bus, &t) >= 0 && t != UINT64_MAX)
		process = true; /* sd-bus decides whether it is due */
	/* work left from the last pass, in sd-bus's queue: no event says so */
	process |= b->more;
	b->more = false;
	if (process) {
		uint64_t until = bus_mono_usec() + BUS_PASS_USEC;
		int r, handled = 0;
		while ((r = sd_bus_process(b->bus, NULL)) > 0) {
			if (++handled >= BUS_PASS_MESSAGES || bus_mono_usec() >= until) {
				b->more = true; /* the rest at the next pass */
				break;
			}
		}
		if (r < 0)
			lost(b, b->up ? "the connection was lost" : "connecting", r);
	}
}

/* What is queued gets until `until_usec` to leave: sd_bus_process writes
 * it (and answers what comes in; Sync is refused while stopping). Never
 * sd_bus_flush: it waits without a bound. */
static void flush_bounded(struct bus *b, uint64_t until_usec)
{
	uint64_t queued, now;

	while (b->bus && sd_bus_get_n_queued_write(b->bus, &queued) >= 0 && queued &&
	       (now = bus_mono_usec()) < until_usec) {
		struct pollfd pfd = { .fd = sd_bus_get_fd(b->bus), .events = POLLOUT };
		struct timespec ts = { .tv_sec = (time_t)((until_usec - now) / 1000000),
				       .tv_nsec = (long)((until_usec - now) % 1000000) * 1000 };
		int r, ev = sd_bus_get_events(b->bus);

		if (pfd.fd < 0 || ev < 0)
			break;
		pfd.events = (short)ev;
		if (ppoll(&pfd, 1, &ts, NULL) < 0 && errno != EINTR)
			break;
		/* bounded too: a flood of calls would be answered for ever */
		while ((r = sd_bus_process(b->bus, NULL)) > 0 && bus_mono_usec() < until_usec)
			;
		if (r < 0)
			break;
	}
}

void bus_stop(struct bus *b, uint64_t flush_until_usec)
{
	bus_sync_stop(b);
	if (b->bus) {
		if (b->up)
			flush_bounded(b, flush_until_usec);
		b->bus = sd_bus_close_unref(b->bus);
	}
	b->up = false;
	free(b->dev);
	b->dev = NULL;
	b->ndev = b->dev_room = 0;
}
