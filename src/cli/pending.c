/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each bdi's data still to write, for status, watch and explain: the
 * kernel's own counters in debugfs where they can be read (root, debugfs
 * mounted), else wbgovd's figures on D-Bus. debugfs is mode 0700 root, so
 * an ordinary user reads nothing there; wbgovd, which runs as root (with a
 * debugfs mount of its own where the system has none), publishes the same
 * counters as PendingBytes and DrainSeconds to everyone (docs/desktop.md).
 * The bus is asked once per command, with one GetManagedObjects, and
 * waited for at most CLI_BUS_WAIT_USEC in all: a bus daemon that is stopped
 * or hung costs that second, never a hang. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "cli/cli.h"
#include "daemon/bus.h"
#include "daemon/status.h"
#include "knobs/room.h"
#include "sys/busname.h"
#include "sys/debugfs.h"

/* The whole wait for the bus: connect, authenticate, Hello, the call and
 * its answer. A system bus that works answers in milliseconds; a second
 * is what a user notices least and a loaded machine still meets. */
#define CLI_BUS_WAIT_USEC 1000000ULL

const char *const cli_pending_key[] = {
	[PENDING_NONE] = NULL, [PENDING_DEBUGFS] = "debugfs", [PENDING_WBGOVD] = "wbgovd",
};

static uint64_t mono_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

/* wbgovd's figures of one GetManagedObjects, by bdi */
struct bus_fig {
	char bdi[KNOBS_NAME_MAX];
	uint64_t bytes;
	double drain_s;
};

struct ask {
	struct bus_fig *v;
	int n, room;
	bool done;
	int err;
};

/* One Device object's a{sv}: its figure kept when wbgovd knows it. */
static int read_device(sd_bus_message *m, struct ask *a)
{
	struct bus_fig f = { .drain_s = -1 };
	bool known = false, has_bdi = false;
	int r = sd_bus_message_enter_container(m, 'a', "{sv}");

	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *k, *s;
		int b;

		if ((r = sd_bus_message_read(m, "s", &k)) < 0)
			break;
		if (!strcmp(k, "Bdi") && (r = sd_bus_message_read(m, "v", "s", &s)) >= 0) {
			has_bdi = strlen(s) < sizeof(f.bdi);
			snprintf(f.bdi, sizeof(f.bdi), "%s", s);
		} else if (!strcmp(k, "PendingKnown") && (r = sd_bus_message_read(m, "v", "b", &b)) >= 0)
			known = b;
		else if (!strcmp(k, "PendingBytes"))
			r = sd_bus_message_read(m, "v", "t", &f.bytes);
		else if (!strcmp(k, "DrainSeconds"))
			r = sd_bus_message_read(m, "v", "d", &f.drain_s);
		else
			r = sd_bus_message_skip(m, "v");
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	if (r < 0)
		return r;
	if (known && has_bdi) {
		if (!room_for(&a->v, &a->room, a->n + 1, sizeof(*a->v)))
			return -ENOMEM;
		a->v[a->n++] = f;
	}
	return 0;
}

/* a{oa{sa{sv}}} */
static int on_managed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct ask *a = userdata;
	const sd_bus_error *e = sd_bus_message_get_error(m);
	int r;

	(void)err;
	a->done = true;
	if (e) {
		a->err = -sd_bus_error_get_errno(e);
		return 0;
	}
	r = sd_bus_message_enter_container(m, 'a', "{oa{sa{sv}}}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "oa{sa{sv}}")) > 0) {
		const char *path;
		if ((r = sd_bus_message_read(m, "o", &path)) < 0)
			break;
		r = sd_bus_message_enter_container(m, 'a', "{sa{sv}}");
		while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sa{sv}")) > 0) {
			const char *iface;
			if ((r = sd_bus_message_read(m, "s", &iface)) < 0)
				break;
			r = strcmp(iface, BUS_DEVICE_IFACE) ? sd_bus_message_skip(m, "a{sv}") :
							      read_device(m, a);
			if (r >= 0)
				r = sd_bus_message_exit_container(m);
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	a->err = r < 0 ? r : 0;
	return 0;
}

int cli_bus_open(const char *where, struct sd_bus **ret)
{
	enum bus_kind kind;
	sd_bus *b = NULL;
	int r;

	if (bus_parse_kind(where ? where : "system", &kind) < 0)
		return -EINVAL;
	switch (kind) {
	case BUS_SYSTEM: return sd_bus_open_system(ret);
	case BUS_SESSION: return sd_bus_open_user(ret);
	case BUS_OFF: return -ENOMEDIUM;
	case BUS_ADDRESS: break;
	}
	r = sd_bus_new(&b);
	if (r >= 0)
		r = sd_bus_set_address(b, where);
	if (r >= 0)
		r = sd_bus_set_bus_client(b, 1);
	if (r >= 0)
		r = sd_bus_start(b);
	if (r < 0) {
		sd_bus_unref(b);
		return r;
	}
	*ret = b;
	return 0;
}

/* wbgovd's figures into a, within CLI_BUS_WAIT_USEC: 0, or -errno
 * (-ETIMEDOUT, or -ENXIO and the like when wbgovd is not on the bus). */
static int ask_wbgovd(const struct cli *o, struct ask *a)
{
	uint64_t deadline = mono_usec() + CLI_BUS_WAIT_USEC, now;
	sd_bus *b = NULL;
	int r = cli_bus_open(o->bus, &b);

	if (r < 0)
		return r;
	r = sd_bus_call_method_async(b, NULL, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.ObjectManager",
				     "GetManagedObjects", on_managed, a, "");
	while (r >= 0 && !a->done && (now = mono_usec()) < deadline) {
		r = sd_bus_process(b, NULL);
		if (r == 0)
			r = sd_bus_wait(b, deadline - now);
	}
	/* not sd_bus_flush_close_unref: a flush waits for a bus that reads
	 * nothing */
	sd_bus_close(b);
	sd_bus_unref(b);
	if (r < 0)
		return r;
	return a->done ? a->err : -ETIMEDOUT;
}

bool cli_bus_default(const struct cli *o)
{
	/* a fixture tree's devices are not those the system's wbgovd
	 * governs: only a bus named with --bus is asked for them */
	return o->bus ? !bus_named_off(o->bus) : !strcmp(o->root, "/");
}

void cli_pending_fill(const struct cli *o, const char *const *bdi, struct cli_pending *out, int n)
{
	static struct ask a;
	bool want = false;

	for (int i = 0; i < n; i++) {
		struct knobs_bdi_counters c;
		memset(&out[i], 0, sizeof(out[i]));
		out[i].drain_s = -1;
		if (knobs_real_ops.bdi_counters(o->real, bdi[i], &c) == 0) {
			out[i].source = PENDING_DEBUGFS;
			out[i].bytes = c.dirty + c.writeback;
		} else {
			want = true;
		}
	}
	/* a bdi that a readable debugfs does not list has no counters:
	 * wbgovd reads the same debugfs, and knows no more */
	if (!want || !cli_bus_default(o) || debugfs_bdi_readable(o->root))
		return;
	a.n = 0;
	a.done = false;
	a.err = 0;
	if (ask_wbgovd(o, &a) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (out[i].source != PENDING_NONE)
			continue;
		for (int k = 0; k < a.n; k++) {
			if (strcmp(a.v[k].bdi, bdi[i]))
				continue;
			out[i].source = PENDING_WBGOVD;
			out[i].bytes = a.v[k].bytes;
			out[i].drain_s = a.v[k].drain_s;
			break;
		}
	}
}

double cli_pending_drain_s(const struct cli_pending *p, uint64_t bw_bps)
{
	if (p->source == PENDING_WBGOVD)
		return p->drain_s;
	return status_drain_s(p->source != PENDING_NONE, p->bytes, bw_bps);
}
