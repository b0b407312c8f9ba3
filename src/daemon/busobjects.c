/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's objects on D-Bus (bus.h is the API): the device objects'
 * properties and vtables, and what is published when: the objects follow
 * the governor's devices, and a property is signalled when it moved
 * materially. It reads the governor and the kernel's counters. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "daemon/bus.h"
#include "daemon/busparts.h"
#include "daemon/status.h"
#include "knobs/room.h"
#include "sys/fsutil.h"
#include "sys/log.h"

static int get_str(sd_bus *bus, const char *path, const char *iface, const char *prop,
		   sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", (const char *)userdata);
}

static int get_strp(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", *(const char *const *)userdata);
}

static int get_path(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "o", (const char *)userdata);
}

static int get_u64(sd_bus *bus, const char *path, const char *iface, const char *prop,
		   sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "t", *(const uint64_t *)userdata);
}

static int get_double(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "d", *(const double *)userdata);
}

static int get_bool(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "b", (int)*(const bool *)userdata);
}

static int get_source(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", bw_source_key(*(const int *)userdata));
}

static int get_mounts(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct mount_list *l = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "s");
	for (const char *m = mount_list_next(l, NULL); r >= 0 && m; m = mount_list_next(l, m))
		r = sd_bus_message_append(reply, "s", m);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_devices(sd_bus *bus, const char *path, const char *iface, const char *prop,
		       sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct bus *b = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "o");
	for (int i = 0; r >= 0 && i < b->ndev; i++)
		r = sd_bus_message_append(reply, "o", b->dev[i].path);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/* What is in force (features.h): (name, state, how, refused_by), in
 * UTF-8 as D-Bus wants it (how may name a path, which is bytes). */
static int get_features(sd_bus *bus, const char *path, const char *iface, const char *prop,
			sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct bus *b = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "(ssss)");
	for (int i = 0; r >= 0 && b->features && i < FEATURE_COUNT; i++) {
		const struct feature_report *f = &b->features->f[i];
		char how[FEATURE_HOW_MAX * 3];
		if (f->state == FEATURE_UNSAID)
			continue;
		bus_clean_utf8(how, sizeof(how), f->how);
		r = sd_bus_message_append(reply, "(ssss)", feature_name((enum feature)i),
					  feature_state_name(f->state), how, f->refused_by);
	}
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

static const sd_bus_vtable manager_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Devices", "ao", get_devices, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
	SD_BUS_PROPERTY("Features", "a(ssss)", get_features, 0, 0),
	SD_BUS_SIGNAL_WITH_NAMES("DeviceAdded", "o", SD_BUS_PARAM(device), 0),
	SD_BUS_SIGNAL_WITH_NAMES("DeviceRemoved", "o", SD_BUS_PARAM(device), 0),
	SD_BUS_VTABLE_END
};

#define P(f) offsetof(struct bus_dev, p.f)
#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
static const sd_bus_vtable device_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Name", "s", get_str, P(name), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Bdi", "s", get_str, P(bdi), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Disk", "s", get_str, P(disk), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Model", "s", get_str, P(model), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Bus", "s", get_str, P(busname), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Kind", "s", get_strp, P(kind), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("DeviceNumber", "t", get_u64, P(devnum), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("UDisksBlock", "o", get_path, P(block_object), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Mounts", "as", get_mounts, P(mounts), CHANGES),
	SD_BUS_PROPERTY("BandwidthBytesPerSecond", "t", get_u64, P(bw_bps), CHANGES),
	SD_BUS_PROPERTY("BandwidthSource", "s", get_source, P(source), CHANGES),
	SD_BUS_PROPERTY("CapBytes", "t", get_u64, P(cap_bytes), CHANGES),
	SD_BUS_PROPERTY("PendingKnown", "b", get_bool, P(pending_known), CHANGES),
	SD_BUS_PROPERTY("PendingBytes", "t", get_u64, P(pending_bytes), CHANGES),
	SD_BUS_PROPERTY("DrainSeconds", "d", get_double, P(drain_s), CHANGES),
	SD_BUS_PROPERTY("State", "s", get_strp, P(state), CHANGES),
	SD_BUS_PROPERTY("Why", "s", get_str, P(why), CHANGES),
	SD_BUS_METHOD_WITH_NAMES("Sync", "a{sv}", SD_BUS_PARAM(options), "", , bus_sync_method,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};
#undef P
#undef CHANGES

static int find_device(sd_bus *bus, const char *path, const char *iface, void *userdata,
		       void **ret_found, sd_bus_error *err)
{
	struct bus *b = userdata;

	(void)bus, (void)iface, (void)err;
	for (int i = 0; i < b->ndev; i++)
		if (!strcmp(b->dev[i].path, path)) {
			*ret_found = &b->dev[i];
			return 1;
		}
	return 0;
}

static int list_devices(sd_bus *bus, const char *prefix, void *userdata, char ***ret_nodes,
			sd_bus_error *err)
{
	struct bus *b = userdata;
	char **v = calloc((size_t)b->ndev + 1, sizeof(*v));

	(void)bus, (void)prefix, (void)err;
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < b->ndev; i++)
		if (!(v[i] = strdup(b->dev[i].path))) {
			for (int k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return -ENOMEM;
		}
	*ret_nodes = v;
	return 0;
}

/* The manager, the devices (a fallback: one vtable for every device,
 * found by path), their enumerator and the ObjectManager on `bus`. */
int bus_objects_add(struct bus *b, sd_bus *bus)
{
	int r = sd_bus_add_object_vtable(bus, NULL, BUS_PATH, BUS_MANAGER_IFACE, manager_vtable, b);

	if (r >= 0)
		r = sd_bus_add_fallback_vtable(bus, NULL, BUS_DEVICE_PREFIX, BUS_DEVICE_IFACE,
					       device_vtable, find_device, b);
	if (r >= 0)
		r = sd_bus_add_node_enumerator(bus, NULL, BUS_DEVICE_PREFIX, list_devices, b);
	if (r >= 0)
		r = sd_bus_add_object_manager(bus, NULL, BUS_PATH);
	return r;
}

/* ------------------------------------------------------------- updates */

static const struct gov_dev *gov_dev_of(const struct governor *g, struct bus_dev *d)
{
	if (d->gi < g->ndev && !strcmp(g->dev[d->gi].info.bdi, d->p.bdi))
		return &g->dev[d->gi];
	for (int i = 0; i < g->ndev; i++)
		if (!strcmp(g->dev[i].info.bdi, d->p.bdi)) {
			d->gi = i;
			return &g->dev[i];
		}
	return NULL;
}

static void static_props(struct bus_props *p, const struct knobs_dev *info)
{
	bus_device_label(info, p->name, sizeof(p->name));
	bus_clean_utf8(p->name, sizeof(p->name), p->name);
	bus_clean_utf8(p->bdi, sizeof(p->bdi), info->bdi);
	bus_clean_utf8(p->disk, sizeof(p->disk), info->disk);
	bus_clean_utf8(p->model, sizeof(p->model), info->model);
	bus_clean_utf8(p->busname, sizeof(p->busname), info->bus);
	p->kind = info->is_share ? "share" : "disk";
	p->share = info->is_share && info->mounted;
	p->share_minor = info->minor;
	p->devnum = bus_device_number(info);
	if (bus_block_object(info, p->block_object, sizeof(p->block_object)) < 0)
		snprintf(p->block_object, sizeof(p->block_object), "/");
}

/* The device's mount points, from the mount table read once per
 * bus_update (b->mt, let go at its end). */
static void read_mounts(struct bus *b, struct bus_props *p)
{
	static struct mount_list raw;
	int i = 0;
	struct knobs_dev d = { .is_share = p->share, .mounted = p->share, .minor = p->share_minor };

	memset(&raw, 0, sizeof(raw));
	memset(&p->mounts, 0, sizeof(p->mounts));
	if (!p->disk[0] && !p->share)
		return;
	snprintf(d.disk, sizeof(d.disk), "%s", p->disk);
	if (!b->mt && procfs_mount_table_read(b->root, &b->mt) != 0)
		b->mt = NULL;
	if (!b->mt || procfs_dev_mounts_of(b->mt, &d, &raw) <= 0)
		return;
	for (const char *m = mount_list_next(&raw, NULL); m; m = mount_list_next(&raw, m), i++) {
		char c[PATH_MAX];
		bus_clean_utf8(c, sizeof(c), m);
		mount_list_add(&p->mounts, c, raw.id[i], raw.dev[i]);
	}
}

/* The governor's view of the device, and its data still to write when it
 * is due, into d->n. */
static void read_now(struct bus *b, struct bus_dev *d, const struct gov_dev *gd,
		     uint64_t sys_pending, uint64_t now_usec)
{
	struct bus_props *n = &d->n;
	uint64_t since = now_usec - d->read_usec;

	n->bw_bps = gd->meter.est_bps;
	n->source = gd->meter.source;
	n->cap_bytes = gd->decided && gd->dec.govern && gd->dec.strict && !gd->above_global ?
			       gd->dec.max_bytes : 0;
	n->state = gov_state_key(gov_dev_state(gd));
	if (gd->err) {
		snprintf(n->why, sizeof(n->why), "%s of %s failed: %s",
			 gd->err_op == GOV_ERR_READ ? "reading" : gd->err_op == GOV_ERR_RECORD ?
			 "recording the original values" : "writing", bdi_attr_names[gd->err_attr],
			 strerror(-gd->err));
	} else if (!gd->decided) {
		n->why[0] = 0;
	} else {
		snprintf(n->why, sizeof(n->why), "%s",
			 gov_why_text[gd->above_global ? WHY_ABOVE_GLOBAL : gd->dec.why]);
	}
	/* debugfs costs about 48 us a read: a device with data is read at
	 * the pace of the signals, the others each second while the system
	 * holds data, none on an idle system */
	if ((d->counters && (!d->read_usec || (n->pending_bytes && since >= BUS_PENDING_USEC - 10000) ||
			     (sys_pending && since >= BUS_IDLE_READ_USEC))) ||
	    (!d->counters && sys_pending && since >= BUS_RECHECK_USEC)) {
		struct knobs_bdi_counters c;
		int r = knobs_real_ops.bdi_counters(b->real, gd->info.bdi, &c);
		d->read_usec = now_usec ? now_usec : 1;
		n->pending_known = r == 0;
		n->pending_bytes = r == 0 ? c.dirty + c.writeback : 0;
		/* no debugfs, or not this bdi: looked for again each minute
		 * while the system holds data (debugfs mounted later) */
		d->counters = r != -ENOTSUP;
	}
	n->drain_s = status_drain_s(n->pending_known, n->pending_bytes, n->bw_bps);
}

/* Material: the bandwidth moved by 5 % or its source changed; data still
 * to write came or went, moved by 1 % of what was last published, or
 * its time to drain by a second. */
static bool bw_moved(const struct bus_props *p, const struct bus_props *n)
{
	uint64_t a = p->bw_bps, c = n->bw_bps, d = a > c ? a - c : c - a;

	return p->source != n->source || (!a != !c) || d * 20 > a;
}

static bool pending_moved(const struct bus_props *p, const struct bus_props *n)
{
	uint64_t a = p->pending_bytes, c = n->pending_bytes, d = a > c ? a - c : c - a;

	if (p->pending_known != n->pending_known || !a != !c || (p->drain_s < 0) != (n->drain_s < 0))
		return true;
	return (a && d * 100 >= a) || fabs(p->drain_s - n->drain_s) >= 1.0;
}

static void publish(struct bus *b, struct bus_dev *d, uint64_t now_usec)
{
	struct bus_props *p = &d->p, *n = &d->n;
	char *names[16];
	int k = 0;

	if (p->mounts.used != n->mounts.used || p->mounts.n != n->mounts.n ||
	    memcmp(p->mounts.buf, n->mounts.buf, n->mounts.used)) {
		p->mounts = n->mounts;
		names[k++] = "Mounts";
	}
	if (bw_moved(p, n)) {
		p->bw_bps = n->bw_bps;
		p->source = n->source;
		names[k++] = "BandwidthBytesPerSecond";
		names[k++] = "BandwidthSource";
	}
	if (p->cap_bytes != n->cap_bytes) {
		p->cap_bytes = n->cap_bytes;
		names[k++] = "CapBytes";
	}
	if (p->state != n->state || strcmp(p->why, n->why)) {
		p->state = n->state;
		memcpy(p->why, n->why, sizeof(p->why));
		names[k++] = "State";
		names[k++] = "Why";
	}
	d->deferred = false;
	if (pending_moved(p, n)) {
		if (d->emitted_usec && now_usec - d->emitted_usec < BUS_PENDING_USEC - 10000) {
			d->deferred = true; /* its turn comes within 250 ms */
		} else {
			p->pending_known = n->pending_known;
			p->pending_bytes = n->pending_bytes;
			p->drain_s = n->drain_s;
			d->emitted_usec = now_usec ? now_usec : 1;
			names[k++] = "PendingKnown";
			names[k++] = "PendingBytes";
			names[k++] = "DrainSeconds";
		}
	}
	if (!k)
		return;
	names[k] = NULL;
	sd_bus_emit_properties_changed_strv(b->bus, d->path, BUS_DEVICE_IFACE, names);
}

static void remove_dev(struct bus *b, int i)
{
	char path[sizeof(b->dev[i].path)];

	snprintf(path, sizeof(path), "%s", b->dev[i].path);
	/* while it is still there: InterfacesRemoved lists its interfaces */
	sd_bus_emit_object_removed(b->bus, path);
	b->dev[i] = b->dev[--b->ndev];
	sd_bus_emit_signal(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "DeviceRemoved", "o", path);
}

/* Objects for the devices the governor has, none for those it has not. */
static bool sync_devices(struct bus *b, const struct governor *g, uint64_t sys_pending,
			 uint64_t now_usec)
{
	bool changed = false;

	for (int i = 0; i < b->ndev;) {
		const struct gov_dev *gd = gov_dev_of(g, &b->dev[i]);
		struct bus_props s;
		if (gd) {
			static_props(&s, &gd->info);
			if (!strcmp(s.name, b->dev[i].p.name) && !strcmp(s.disk, b->dev[i].p.disk) &&
			    !strcmp(s.model, b->dev[i].p.model) && !strcmp(s.busname, b->dev[i].p.busname)) {
				i++;
				continue;
			}
		}
		/* gone, or another device under the same bdi */
		remove_dev(b, i);
		changed = true;
	}
	for (int j = 0; j < g->ndev; j++) {
		const struct gov_dev *gd = &g->dev[j];
		struct bus_dev *d;
		int i;
		for (i = 0; i < b->ndev && strcmp(b->dev[i].p.bdi, gd->info.bdi); i++)
			;
		if (i < b->ndev)
			continue;
		if (!room_for(&b->dev, &b->dev_room, b->ndev + 1, sizeof(*b->dev))) {
			/* governed, not published; tried again at the next change */
			if (!b->nomem_logged)
				log_err("D-Bus: out of memory for the object of %s: not published",
					gd->info.bdi);
			b->nomem_logged = true;
			break;
		}
		d = &b->dev[b->ndev];
		memset(d, 0, sizeof(*d));
		if (bus_device_path(&gd->info, d->path, sizeof(d->path)) < 0)
			continue;
		d->owner = b;
		d->gi = j;
		d->counters = true;
		static_props(&d->n, &gd->info);
		read_mounts(b, &d->n);
		read_now(b, d, gd, sys_pending, now_usec);
		d->p = d->n;
		d->emitted_usec = now_usec ? now_usec : 1;
		b->ndev++;
		sd_bus_emit_object_added(b->bus, d->path);
		sd_bus_emit_signal(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "DeviceAdded", "o", d->path);
		changed = true;
	}
	if (b->ndev == g->ndev)
		b->nomem_logged = false;
	if (changed)
		sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "Devices", NULL);
	return changed;
}

/* The objects in line with the governor, and what moved published. */
uint64_t bus_objects_refresh(struct bus *b, const struct governor *g, bool changed,
			     uint64_t now_usec)
{
	uint64_t sys_pending = g->vm.dirty + g->vm.writeback;
	bool busy = false;

	if (changed)
		sync_devices(b, g, sys_pending, now_usec);
	if (!changed && !b->mounts_stale && now_usec < b->next_usec)
		return b->wake ? b->next_usec - now_usec : UINT64_MAX;
	for (int i = 0; i < b->ndev; i++) {
		struct bus_dev *d = &b->dev[i];
		const struct gov_dev *gd = gov_dev_of(g, d);
		if (!gd)
			continue; /* the next change removes it */
		if (b->mounts_stale)
			read_mounts(b, &d->n);
		read_now(b, d, gd, sys_pending, now_usec);
		publish(b, d, now_usec);
		busy |= d->n.pending_bytes || d->deferred;
	}
	b->mounts_stale = false;
	procfs_mount_table_free(b->mt);
	b->mt = NULL;
	/* while data drains, every 250 ms; else at the governor's next poll
	 * past a second (no wakeup of our own) */
	b->wake = busy;
	b->next_usec = now_usec + (busy ? BUS_PENDING_USEC : BUS_IDLE_READ_USEC);
	return busy ? BUS_PENDING_USEC : UINT64_MAX;
}
