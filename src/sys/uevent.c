/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/uevent.h"

struct uevent_mon {
	struct udev *udev;
	struct udev_monitor *mon;
};

bool uevent_udevd_running(void) { return access("/run/udev/control", F_OK) == 0; }

int uevent_open(struct uevent_mon **ret)
{
	struct uevent_mon *m = calloc(1, sizeof(*m));
	int r = -ENOMEM;

	if (!m)
		return -ENOMEM;
	m->udev = udev_new();
	if (!m->udev)
		goto fail;
	m->mon = udev_monitor_new_from_netlink(m->udev, uevent_udevd_running() ? "udev" : "kernel");
	if (!m->mon) {
		r = -errno ? -errno : -EPROTO;
		goto fail;
	}
	udev_monitor_filter_add_match_subsystem_devtype(m->mon, "bdi", NULL);
	udev_monitor_filter_add_match_subsystem_devtype(m->mon, "block", "disk");
	r = udev_monitor_enable_receiving(m->mon);
	if (r < 0)
		goto fail;
	*ret = m;
	return 0;
fail:
	uevent_close(m);
	return r < 0 ? r : -EIO;
}

int uevent_fd(const struct uevent_mon *m) { return udev_monitor_get_fd(m->mon); }

int uevent_drain(struct uevent_mon *m)
{
	struct udev_device *d;
	int n = 0;

	while ((d = udev_monitor_receive_device(m->mon))) {
		const char *sub = udev_device_get_subsystem(d);
		if (sub && (!strcmp(sub, "bdi") || !strcmp(sub, "block")))
			n++;
		udev_device_unref(d);
	}
	return n;
}

void uevent_close(struct uevent_mon *m)
{
	if (!m)
		return;
	if (m->mon)
		udev_monitor_unref(m->mon);
	if (m->udev)
		udev_unref(m->udev);
	free(m);
}

void udev_enrich(struct knobs_dev *d)
{
	struct udev *u;
	struct udev_device *dev;
	const char *v;

	if (!uevent_udevd_running() || !d->major)
		return;
	u = udev_new();
	if (!u)
		return;
	dev = udev_device_new_from_devnum(u, 'b', makedev(d->major, d->minor));
	if (dev) {
		if ((v = udev_device_get_property_value(dev, "ID_BUS")) && *v)
			snprintf(d->bus, sizeof(d->bus), "%s", v);
		if ((v = udev_device_get_property_value(dev, "ID_SERIAL_SHORT")) && *v)
			snprintf(d->serial, sizeof(d->serial), "%s", v);
		udev_device_unref(dev);
	}
	udev_unref(u);
}
