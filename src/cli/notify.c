/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov notify: a desktop session's agent. It follows wbgovd's devices on
 * D-Bus and, while one holds data still to write, shows "Writing 120 MiB
 * to SanDisk Cruzer — 24 s left" through org.freedesktop.Notifications,
 * updated in place at most once a second, then "safe to remove" when it
 * has drained. The summary is plain text (the specification allows no
 * markup there); the body, the mount points, is escaped for the
 * specification's markup when the server says it reads markup
 * ("body-markup" in GetCapabilities) and sent as it is otherwise: a mount
 * point is named by a disk's label, and "<a href=...>" in a label must
 * not become a link. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "cli/cli.h"
#include "daemon/bus.h"
#include "knobs/room.h"
#include "model/units.h"

#define NOTIFY_NAME "org.freedesktop.Notifications"
#define NOTIFY_PATH "/org/freedesktop/Notifications"
/* The application entry the notifications come from (make install puts
 * wbgov-notify.desktop in $XDG_DATA_DIRS/applications): GNOME Settings
 * lists it, and mutes what carries its name in the "desktop-entry" hint */
#define NOTIFY_DESKTOP_ENTRY "wbgov-notify"
/* one update a second per device: a notification server animates each */
#define NOTIFY_EVERY_USEC 1000000ULL

struct agent;

/* What the notification server does with a body: asked once per server
 * (a new owner of the name may be another server) before the first body
 * is sent to it. */
enum caps {
	CAPS_UNKNOWN,  /* to ask */
	CAPS_ASKING,   /* GetCapabilities on its way */
	CAPS_PLAIN,    /* a body is shown as it is */
	CAPS_MARKUP,   /* "body-markup": a body is parsed */
	CAPS_FAILED,   /* no answer: the next notification goes without a body */
};

struct ndev {
	struct agent *owner;
	char path[160];
	char name[KNOBS_NAME_MAX];
	char model[3 * KNOBS_NAME_MAX];
	char mounts[1024];       /* joined by ", " */
	bool known;
	uint64_t pending;
	double drain_s;
	bool shown;              /* "Writing" is up: "safe to remove" follows */
	uint32_t id;             /* the server's id of our notification, 0 none */
	bool in_flight;          /* a Notify is on its way: its id is not known */
	sd_bus_slot *call;       /* ... its reply's slot (userdata: this entry) */
	uint64_t sent_usec;
	char last[512];          /* summary last sent */
};

struct agent {
	sd_bus *sys;             /* where wbgovd is */
	sd_bus *sess;            /* where the notification server is */
	char owner[256];         /* wbgovd's unique name: only its signals count */
	uint64_t threshold;
	struct ndev *dev;        /* one per device object (knobs/room.h) */
	int n, room;
	bool notify_failed;      /* said once */
	enum caps caps;
	sd_bus_slot *caps_call;  /* GetCapabilities' reply */
};

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

static struct ndev *dev_of(struct agent *a, const char *path, bool add)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->dev[i].path, path))
			return &a->dev[i];
	if (!add || strlen(path) >= sizeof(a->dev[0].path) ||
	    !room_for(&a->dev, &a->room, a->n + 1, sizeof(*a->dev)))
		return NULL;
	/* the array may have moved: a Notify on its way answers to its
	 * entry's new place */
	for (int i = 0; i < a->n; i++)
		if (a->dev[i].call)
			sd_bus_slot_set_userdata(a->dev[i].call, &a->dev[i]);
	memset(&a->dev[a->n], 0, sizeof(a->dev[0]));
	snprintf(a->dev[a->n].path, sizeof(a->dev[0].path), "%s", path);
	a->dev[a->n].drain_s = -1;
	a->dev[a->n].owner = a;
	return &a->dev[a->n++];
}

/* An a{sv} of io.github.wbgov.Governor1.Device into d; what it does not know
 * is skipped. */
static int read_props(sd_bus_message *m, struct ndev *d)
{
	int r = sd_bus_message_enter_container(m, 'a', "{sv}");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *k, *s;
		char **v = NULL;
		int b;

		if ((r = sd_bus_message_read(m, "s", &k)) < 0)
			break;
		if (!strcmp(k, "Name") && (r = sd_bus_message_read(m, "v", "s", &s)) >= 0)
			snprintf(d->name, sizeof(d->name), "%s", s);
		else if (!strcmp(k, "Model") && (r = sd_bus_message_read(m, "v", "s", &s)) >= 0)
			snprintf(d->model, sizeof(d->model), "%s", s);
		else if (!strcmp(k, "PendingBytes"))
			r = sd_bus_message_read(m, "v", "t", &d->pending);
		else if (!strcmp(k, "DrainSeconds"))
			r = sd_bus_message_read(m, "v", "d", &d->drain_s);
		else if (!strcmp(k, "PendingKnown") && (r = sd_bus_message_read(m, "v", "b", &b)) >= 0)
			d->known = b;
		else if (!strcmp(k, "Mounts")) {
			r = sd_bus_message_enter_container(m, 'v', "as");
			if (r >= 0)
				r = sd_bus_message_read_strv(m, &v);
			if (r >= 0)
				r = sd_bus_message_exit_container(m);
			d->mounts[0] = 0;
			/* whole entries only: a path cut in a UTF-8 sequence is no
			 * D-Bus string, and half a path names another */
			for (size_t i = 0, l = 0; v && v[i]; i++) {
				size_t add = strlen(v[i]) + (i ? 2 : 0);
				if (l + add >= sizeof(d->mounts))
					break;
				snprintf(d->mounts + l, sizeof(d->mounts) - l, "%s%s", i ? ", " : "", v[i]);
				l += add;
			}
			for (size_t i = 0; v && v[i]; i++)
				free(v[i]);
			free(v);
		} else
			r = sd_bus_message_skip(m, "v");
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

static void close_notification(struct agent *a, struct ndev *d)
{
	if (d->id)
		sd_bus_call_method(a->sess, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_NAME,
				   "CloseNotification", NULL, NULL, "u", d->id);
	d->id = 0;
	d->shown = false;
}

static void forget(struct agent *a, int i)
{
	close_notification(a, &a->dev[i]);
	a->dev[i].call = sd_bus_slot_unref(a->dev[i].call); /* its reply is of no use */
	a->dev[i] = a->dev[--a->n];
	if (a->dev[i].call) /* the last moved here: its reply comes here */
		sd_bus_slot_set_userdata(a->dev[i].call, &a->dev[i]);
}

/* a{sa{sv}}: the interfaces of one object */
static int read_ifaces(sd_bus_message *m, struct agent *a, const char *path)
{
	int r = sd_bus_message_enter_container(m, 'a', "{sa{sv}}");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sa{sv}")) > 0) {
		const char *iface;
		struct ndev *d;
		if ((r = sd_bus_message_read(m, "s", &iface)) < 0)
			break;
		if (!strcmp(iface, BUS_DEVICE_IFACE) && (d = dev_of(a, path, true)))
			r = read_props(m, d);
		else
			r = sd_bus_message_skip(m, "a{sv}");
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

static bool from_daemon(struct agent *a, sd_bus_message *m)
{
	const char *s = sd_bus_message_get_sender(m);

	return s && a->owner[0] && !strcmp(s, a->owner);
}

static int on_managed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	int r;

	(void)err;
	if (sd_bus_message_is_method_error(m, NULL))
		return 0; /* not there yet: NameOwnerChanged says when it comes */
	r = sd_bus_message_enter_container(m, 'a', "{oa{sa{sv}}}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "oa{sa{sv}}")) > 0) {
		const char *path;
		if ((r = sd_bus_message_read(m, "o", &path)) < 0 || (r = read_ifaces(m, a, path)) < 0)
			break;
		r = sd_bus_message_exit_container(m);
	}
	if (r < 0)
		fprintf(stderr, _("wbgov notify: wbgovd's objects: %s\n"), strerror(-r));
	return 0;
}

static void ask_objects(struct agent *a)
{
	sd_bus_call_method_async(a->sys, NULL, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.ObjectManager",
				 "GetManagedObjects", on_managed, a, "");
}

static int on_owner(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *name, *old, *new;

	(void)err;
	if (sd_bus_message_read(m, "sss", &name, &old, &new) < 0 || strcmp(name, BUS_NAME))
		return 0;
	while (a->n)
		forget(a, 0); /* what the old one said holds no more */
	snprintf(a->owner, sizeof(a->owner), "%s", new);
	if (new[0])
		ask_objects(a);
	return 0;
}

static int on_get_owner(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *owner;

	(void)err;
	if (!sd_bus_message_is_method_error(m, NULL) && sd_bus_message_read(m, "s", &owner) >= 0) {
		snprintf(a->owner, sizeof(a->owner), "%s", owner);
		ask_objects(a);
	}
	return 0;
}

static int on_changed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *iface;
	struct ndev *d;

	(void)err;
	if (!from_daemon(a, m) || sd_bus_message_read(m, "s", &iface) < 0 ||
	    strcmp(iface, BUS_DEVICE_IFACE) || !(d = dev_of(a, sd_bus_message_get_path(m), false)))
		return 0;
	read_props(m, d);
	return 0;
}

static int on_added(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *path;

	(void)err;
	if (from_daemon(a, m) && sd_bus_message_read(m, "o", &path) >= 0)
		read_ifaces(m, a, path);
	return 0;
}

static int on_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *path;

	(void)err;
	if (!from_daemon(a, m) || sd_bus_message_read(m, "o", &path) < 0)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->dev[i].path, path)) {
			forget(a, i); /* unplugged: nothing more to say of it */
			break;
		}
	return 0;
}

static int on_notified(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct ndev *d = userdata;
	uint32_t id;

	(void)err;
	d->in_flight = false;
	d->call = sd_bus_slot_unref(d->call);
	if (sd_bus_message_is_method_error(m, NULL)) {
		/* no notification server (yet): said once, tried again at the
		 * next change */
		const sd_bus_error *e = sd_bus_message_get_error(m);
		if (!d->owner->notify_failed)
			fprintf(stderr, _("wbgov notify: Notify: %s\n"),
				e && e->message ? e->message : _("failed"));
		d->owner->notify_failed = true;
		return 0;
	}
	d->owner->notify_failed = false;
	if (sd_bus_message_read(m, "u", &id) >= 0)
		d->id = id;
	return 0;
}

static int on_caps(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	char **caps = NULL;

	(void)err;
	a->caps_call = sd_bus_slot_unref(a->caps_call);
	if (sd_bus_message_is_method_error(m, NULL) || sd_bus_message_read_strv(m, &caps) < 0) {
		a->caps = CAPS_FAILED;
		return 0;
	}
	a->caps = CAPS_PLAIN;
	for (size_t i = 0; caps[i]; i++) {
		if (!strcmp(caps[i], "body-markup"))
			a->caps = CAPS_MARKUP;
		free(caps[i]);
	}
	free(caps);
	return 0;
}

static void ask_caps(struct agent *a)
{
	if (sd_bus_call_method_async(a->sess, &a->caps_call, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_NAME,
				     "GetCapabilities", on_caps, a, "") < 0)
		a->caps = CAPS_FAILED;
	else
		a->caps = CAPS_ASKING;
}

/* Another server, or none: what the old one could do says nothing of it,
 * and its ids are not this one's. */
static int on_server(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct agent *a = userdata;
	const char *name, *old, *new;

	(void)err;
	if (sd_bus_message_read(m, "sss", &name, &old, &new) < 0 || strcmp(name, NOTIFY_NAME))
		return 0;
	a->caps_call = sd_bus_slot_unref(a->caps_call);
	a->caps = CAPS_UNKNOWN;
	/* a notification of ours is shown anew (replaces_id 0), and a reply
	 * still to come is the old server's: not waited for */
	for (int i = 0; i < a->n; i++) {
		struct ndev *d = &a->dev[i];
		d->call = sd_bus_slot_unref(d->call);
		d->in_flight = false;
		d->id = 0;
		d->last[0] = 0;
	}
	return 0;
}

/* text, escaped for the Desktop Notifications markup (XML's five
 * entities), into buf; whole characters and entities only, cut short
 * where buf ends. */
static void markup_escape(char *buf, size_t len, const char *text)
{
	size_t l = 0;

	for (const char *p = text; *p; p++) {
		const char *e;
		char one[2] = { *p, 0 };
		size_t n;
		switch (*p) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&apos;"; break;
		default: e = one; break;
		}
		n = strlen(e);
		if (l + n >= len)
			break;
		memcpy(buf + l, e, n);
		l += n;
	}
	/* a UTF-8 sequence cut at the end is dropped: the body must stay a
	 * D-Bus string */
	if (l && (buf[l - 1] & 0x80)) {
		size_t k = l - 1, need;
		unsigned char lead;
		while (k > 0 && ((unsigned char)buf[k] & 0xc0) == 0x80)
			k--;
		lead = (unsigned char)buf[k];
		need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		if (l - k < need)
			l = k;
	}
	buf[l] = 0;
}

static int send_notification(struct agent *a, struct ndev *d, const char *summary, bool progress)
{
	sd_bus_message *m = NULL;
	/* each byte at most an entity of 6 */
	char body[6 * sizeof(d->mounts)];
	int r = sd_bus_message_new_method_call(a->sess, &m, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_NAME,
					       "Notify");

	if (a->caps == CAPS_MARKUP)
		markup_escape(body, sizeof(body), d->mounts);
	else if (a->caps == CAPS_PLAIN)
		snprintf(body, sizeof(body), "%s", d->mounts);
	else /* not known: no body rather than one that may be read as markup */
		body[0] = 0;
	if (r >= 0)
		r = sd_bus_message_append(m, "susssas", "wbgov", d->id, "drive-removable-media", summary,
					  body, 0);
	/* progress: low urgency, and transient (not kept in the tray) */
	if (r >= 0)
		r = sd_bus_message_append(m, "a{sv}", 4, "category", "s", "device", "urgency", "y",
					  (uint8_t)(progress ? 0 : 1), "transient", "b", (int)progress,
					  "desktop-entry", "s", NOTIFY_DESKTOP_ENTRY);
	if (r >= 0)
		r = sd_bus_message_append(m, "i", -1);
	if (r >= 0)
		r = sd_bus_call_async(a->sess, &d->call, m, on_notified, d, 0);
	sd_bus_message_unref(m);
	if (r < 0) {
		if (!a->notify_failed)
			fprintf(stderr, _("wbgov notify: Notify: %s\n"), strerror(-r));
		a->notify_failed = true;
		return r;
	}
	d->in_flight = true;
	snprintf(d->last, sizeof(d->last), "%s", summary);
	return 0;
}

/* What each device should show now; returns when to look again. */
static uint64_t consider(struct agent *a, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	bool blind = false;

	for (int i = 0; i < a->n; i++) {
		struct ndev *d = &a->dev[i];
		const char *who = d->model[0] ? d->model : d->name;
		char summary[512], size[32];
		bool progress;

		if (d->known && (d->pending >= a->threshold || (d->shown && d->pending))) {
			bytes_text(size, sizeof(size), d->pending, BYTES_MIB_SHORT);
			/* TRANSLATORS: a notification's summary: "Writing 120 MiB to
			 * SanDisk Cruzer — 24 s left", then without the time where
			 * the device's speed is not known */
			if (d->drain_s >= 0)
				snprintf(summary, sizeof(summary), _("Writing %s to %s \xe2\x80\x94 %.0f s left"),
					 size, who, d->drain_s < 1 ? 1 : d->drain_s);
			else
				snprintf(summary, sizeof(summary), _("Writing %s to %s"), size, who);
			progress = true;
		} else if (d->shown && d->known && !d->pending) {
			if (d->mounts[0])
				snprintf(summary, sizeof(summary),
					 _("%s: all written, safe to remove once unmounted"), who);
			else
				snprintf(summary, sizeof(summary), _("%s: safe to remove"), who);
			progress = false;
		} else {
			continue;
		}
		if (d->shown && !strcmp(summary, d->last))
			continue;
		if (a->caps == CAPS_UNKNOWN)
			ask_caps(a);
		if (a->caps == CAPS_ASKING || d->in_flight ||
		    (d->sent_usec && now - d->sent_usec < NOTIFY_EVERY_USEC)) {
			uint64_t t = a->caps == CAPS_ASKING || d->in_flight ? now + 100000 :
									       d->sent_usec + NOTIFY_EVERY_USEC;
			if (t < next)
				next = t;
			continue;
		}
		if (send_notification(a, d, summary, progress) == 0) {
			d->sent_usec = now;
			d->shown = progress;
		}
		blind |= a->caps == CAPS_FAILED;
	}
	if (blind)
		a->caps = CAPS_UNKNOWN; /* sent without a body: ask again for the next */
	return next;
}

static bool drain(sd_bus *b, const char *what)
{
	int r;

	while ((r = sd_bus_process(b, NULL)) > 0)
		;
	if (r < 0)
		fprintf(stderr, _("wbgov notify: the %s bus: %s\n"), what, strerror(-r));
	return r >= 0;
}

int cli_notify(const struct cli *o)
{
	static struct agent a;
	struct sigaction sa = { .sa_handler = cli_on_int };
	sigset_t block, orig;
	int r, rc = 0;

	memset(&a, 0, sizeof(a));
	a.threshold = o->threshold;
	r = cli_bus_open(o->bus, &a.sys);
	if (r < 0) {
		fprintf(stderr, _("wbgov notify: cannot reach the %s bus, where wbgovd is: %s\n"),
			o->bus ? o->bus : "system", strerror(-r));
		return EX_UNAVAILABLE;
	}
	r = sd_bus_open_user(&a.sess);
	if (r < 0) {
		fprintf(stderr, _("wbgov notify: cannot reach the session bus (DBUS_SESSION_BUS_ADDRESS), "
				"where notifications go: %s\n"), strerror(-r));
		sd_bus_unref(a.sys);
		return EX_UNAVAILABLE;
	}
	r = sd_bus_add_match(a.sys, NULL,
			     "type='signal',interface='org.freedesktop.DBus.Properties',"
			     "member='PropertiesChanged',path_namespace='" BUS_PATH "'", on_changed, &a);
	if (r >= 0)
		r = sd_bus_match_signal(a.sys, NULL, NULL, BUS_PATH, "org.freedesktop.DBus.ObjectManager",
					"InterfacesAdded", on_added, &a);
	if (r >= 0)
		r = sd_bus_match_signal(a.sys, NULL, NULL, BUS_PATH, "org.freedesktop.DBus.ObjectManager",
					"InterfacesRemoved", on_removed, &a);
	if (r >= 0)
		r = sd_bus_add_match(a.sys, NULL,
				     "type='signal',sender='org.freedesktop.DBus',"
				     "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
				     "arg0='" BUS_NAME "'", on_owner, &a);
	if (r >= 0)
		r = sd_bus_add_match(a.sess, NULL,
				     "type='signal',sender='org.freedesktop.DBus',"
				     "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
				     "arg0='" NOTIFY_NAME "'", on_server, &a);
	if (r >= 0)
		r = sd_bus_call_method_async(a.sys, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus",
					     "org.freedesktop.DBus", "GetNameOwner", on_get_owner, &a,
					     "s", BUS_NAME);
	if (r < 0) {
		fprintf(stderr, _("wbgov notify: watching wbgovd: %s\n"), strerror(-r));
		rc = EX_UNAVAILABLE;
		goto out;
	}

	/* INT and TERM end it, and only between two waits */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!cli_interrupted) {
		struct pollfd pfd[2];
		sd_bus *bs[2] = { a.sys, a.sess };
		uint64_t now, next, t;
		struct timespec ts;

		if (!drain(a.sys, "system") || !drain(a.sess, "session")) {
			rc = EX_UNAVAILABLE;
			break;
		}
		now = now_usec();
		next = consider(&a, now);
		for (int i = 0; i < 2; i++) {
			pfd[i] = (struct pollfd){ .fd = sd_bus_get_fd(bs[i]),
						  .events = (short)sd_bus_get_events(bs[i]) };
			if (sd_bus_get_timeout(bs[i], &t) >= 0 && t < next)
				next = t;
		}
		t = next == UINT64_MAX ? 60000000ULL : next > now ? next - now : 0;
		ts.tv_sec = (time_t)(t / 1000000);
		ts.tv_nsec = (long)(t % 1000000) * 1000;
		ppoll(pfd, 2, &ts, &orig);
	}
	for (int i = 0; i < a.n; i++)
		if (a.dev[i].shown)
			close_notification(&a, &a.dev[i]); /* a progress left behind says nothing */
out:
	a.caps_call = sd_bus_slot_unref(a.caps_call);
	sd_bus_flush_close_unref(a.sess);
	sd_bus_flush_close_unref(a.sys);
	free(a.dev);
	return rc;
}
