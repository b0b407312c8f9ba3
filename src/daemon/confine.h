/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's privileges at start, used and given up (confine.c). In this
 * order, each saying in one line what it could not do: */
#ifndef WBGOV_DAEMON_CONFINE_H
#define WBGOV_DAEMON_CONFINE_H

struct daemon;
struct daemon_opts;

/* Each device's own dirty and writeback data is in debugfs alone. Where
 * the system has not mounted it, a mount of our own that no other process
 * sees (sys/debugfs.h); where that is refused (a container, a kernel
 * without debugfs), devices are judged by their stat and by the write
 * throttles of the cgroups. Not under --root: a fixture says what it has.
 * Before confine_writes, as Landlock forbids mounting. */
void confine_own_debugfs(struct daemon *dm, const struct daemon_opts *o);

/* From here on, writes only where wbgovd's work is (Landlock): the vm and
 * bdi knobs, the state directory, device memory's and the metrics file's
 * directories. After the bus is connected: its socket is not a file. */
void confine_writes(struct daemon *dm, const struct daemon_opts *o);

/* CAP_SYS_ADMIN given up for good where the kernel has per-device knobs:
 * only the global route (Linux < 6.2) watches mounts with fanotify. */
void confine_caps(struct daemon *dm);

/* What the sandbox leaves wbgovd, said as features (features.h) before it
 * confines itself: the knobs writable, and before Linux 6.2 the write
 * wake-up (fanotify) to be had. */
void confine_probe(struct daemon *dm, const struct daemon_opts *o);

/* Where labels and UUIDs come from for the configuration in force
 * (dm->real.probe_fs), said: at start and at each reload. */
void confine_labels(struct daemon *dm);

#endif
