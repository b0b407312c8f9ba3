/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device hotplug: the kernel's uevents for the bdi and block subsystems,
 * through libudev. Where udevd runs, its processed events (with ID_BUS and
 * friends in its database); where it does not, the kernel's own, which still
 * arrive over netlink (add/remove of a bdi, change when a loop device is
 * attached or detached). */
#ifndef WBGOV_SYS_UEVENT_H
#define WBGOV_SYS_UEVENT_H

#include "knobs/knobs.h"

struct uevent_mon;

int uevent_open(struct uevent_mon **ret);
int uevent_fd(const struct uevent_mon *m);
/* Read every pending event; returns how many concern bdis or disks. */
int uevent_drain(struct uevent_mon *m);
void uevent_close(struct uevent_mon *m);

/* Does udevd run (and keep a database)? */
bool uevent_udevd_running(void);

/* Where udevd keeps a database, take ID_BUS and ID_SERIAL_SHORT from it
 * (they beat what sysfs alone tells). Not ID_MODEL: the model stays
 * sysfs's, so that a [device] model = matches the same with or without
 * udevd (knobs_dev.model_id is the ID_MODEL form of it). No-op otherwise. */
void udev_enrich(struct knobs_dev *d);

#endif
