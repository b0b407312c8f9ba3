/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How the parts of wbgovd on D-Bus call each other; the rest of wbgovd
 * reads bus.h only. bus.c keeps the connection, busobjects.c the device
 * objects and what they publish, busnames.c their names, bussync.c the
 * Sync method and its children, busauth.c who may call it. */
#ifndef WBGOV_DAEMON_BUSPARTS_H
#define WBGOV_DAEMON_BUSPARTS_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "daemon/bus.h"

#define ERR_BUSY "io.github.wbgov.Governor1.Error.Busy"
#define ERR_SYNC "io.github.wbgov.Governor1.Error.SyncFailed"
#define ERR_GONE "io.github.wbgov.Governor1.Error.NoSuchDevice"
#define ERR_AUTH "io.github.wbgov.Governor1.Error.NotAuthorized"
/* the one option of Sync: udisks' name, so a client sets it as for udisks */
#define OPT_NO_INTERACTION "auth.no_user_interaction"

/* CLOCK_MONOTONIC in microseconds. */
uint64_t bus_mono_usec(void);

/* busnames.c: "sdb" for a disk's own bdi, else the bdi ("8:16-fuseblk",
 * "btrfs-1"). */
void bus_device_label(const struct knobs_dev *info, char *buf, size_t len);

/* busobjects.c: the manager's and the devices' vtables, their enumerator
 * and the ObjectManager, added to a new connection. 0 or -errno. */
int bus_objects_add(struct bus *b, sd_bus *bus);
/* ... the objects in line with the governor's devices (`changed`: the set
 * or a decision moved), what is due read and what moved published; how
 * long until it wants to be called again (bus_update's answer). */
uint64_t bus_objects_refresh(struct bus *b, const struct governor *g, bool changed,
			     uint64_t now_usec);

/* bussync.c: the Sync method (device_vtable's handler). */
int bus_sync_method(sd_bus_message *m, void *userdata, sd_bus_error *err);
/* ... the device object at `path`, if it is still there (an object may go
 * while its caller waits for polkit). */
struct bus_dev *bus_dev_by_path(struct bus *b, const char *path);
/* ... Sync's work once the caller may: 1 started (answered when its child
 * ends), 0 nothing mounted (the caller answers), -errno with err set. */
int bus_sync_start(struct bus *b, struct bus_dev *d, sd_bus_message *call, uint32_t uid,
		   sd_bus_error *err);
/* ... the children's descriptors into pfd (at most max): how many; and
 * what arrived on one of them. */
int bus_sync_pollfds(const struct bus *b, struct pollfd *pfd, int max);
void bus_sync_dispatch(struct bus *b, int fd);
/* ... at stop: each Sync still running answered and left to finish, each
 * call waiting for its authorization answered. */
void bus_sync_stop(struct bus *b);

/* busauth.c: who calls `m` (Sync of d) is asked of the bus, then polkit
 * for anyone but root; 1: the call waits for the answers, or -errno with
 * err set. */
int bus_auth_ask(struct bus *b, struct bus_dev *d, sd_bus_message *m, bool no_interaction,
		 sd_bus_error *err);
/* ... every call still waiting for its authorization answered with `name`
 * and `msg` (NULL: not answered, the bus is gone) and let go. */
void bus_auths_drop(struct bus *b, const char *name, const char *msg);

#endif
