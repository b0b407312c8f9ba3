/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wbgovd does with its privileges at start, and how it gives them
 * up: a debugfs mount of its own where the system has none (before
 * Landlock, which forbids mounting), then its writes confined by Landlock
 * to where its work is (sys/sandbox.c does the confining), and
 * CAP_SYS_ADMIN given up where nothing needs it, and elsewhere held only
 * permitted, raised for the calls that need it. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>

#include "daemon/confine.h"
#include "daemon/context.h"
#include "daemon/watch.h"
#include "sys/debugfs.h"
#include "sys/fsid.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/sandbox.h"
#include "sys/sysfs.h"

void confine_own_debugfs(struct daemon *dm, const struct daemon_opts *o)
{
	int fd, r;
	const char *by;

	if (debugfs_root_wb_only(o->root)) {
		/* neither the system's nor one of its own tells a device's data */
		feature_set(&dm->features, FEATURE_DEBUGFS, FEATURE_OFF, NULL,
			    "not used: before Linux 6.10 its figures of a device are the root "
			    "cgroup's alone, and here writers have cgroups of their own (cgroup "
			    "writeback: cgroup v2 with memory and io); each device is judged by "
			    "/sys/block/*/stat and the write throttles of the cgroups");
		return;
	}
	if (debugfs_mounted(o->root)) {
		feature_set(&dm->features, FEATURE_DEBUGFS, FEATURE_ON, NULL,
			    "the system's, at %s/sys/kernel/debug%s", strcmp(o->root, "/") ? o->root : "",
			    debugfs_bdi_readable(o->root) ? "" : " (its bdi directory not readable)");
		return;
	}
	if (strcmp(o->root, "/")) {
		feature_set(&dm->features, FEATURE_DEBUGFS, FEATURE_OFF, NULL,
			    "none in the tree %s: each device judged by its stat", o->root);
		return;
	}
	r = debugfs_mount_own(&fd);
	if (r == 0) {
		dm->real.debugfs_fd1 = fd + 1;
		feature_set(&dm->features, FEATURE_DEBUGFS, FEATURE_ON, NULL,
			    "its own (none at /sys/kernel/debug), attached nowhere and seen by no "
			    "other process");
		return;
	}
	by = feature_refused_by(r, true);
	feature_set(&dm->features, FEATURE_DEBUGFS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
		    "none at /sys/kernel/debug, and none of its own (fsopen: %s): each device is "
		    "judged by /sys/block/*/stat and the write throttles of the cgroups",
		    strerror(-r));
}

void confine_writes(struct daemon *dm, const struct daemon_opts *o)
{
	char vm[PATH_MAX], bdi[PATH_MAX], mem[PATH_MAX], met[PATH_MAX], *slash;
	const char *knobs[] = { vm, bdi, NULL }, *dirs[] = { o->state_dir, NULL, NULL, NULL };
	int nd = 1, r;

	if (path_at(vm, sizeof(vm), o->root, "/proc/sys/vm") ||
	    path_at(bdi, sizeof(bdi), o->root, "/sys/devices/virtual/bdi"))
		return;
	if (dm->memory_path[0]) {
		snprintf(mem, sizeof(mem), "%s", dm->memory_path);
		slash = strrchr(mem, '/');
		if (slash && slash != mem) {
			*slash = 0;
			dirs[nd++] = mem;
		}
	}
	/* the metrics file's directory: its temporary file is made there and
	 * renamed over it */
	if (dm->metrics.path[0]) {
		path_split(dm->metrics.path, met, sizeof(met), NULL);
		dirs[nd++] = met;
	}
	r = sandbox_writes(knobs, dirs);
	if (r == -EOPNOTSUPP)
		feature_set(&dm->features, FEATURE_LANDLOCK, FEATURE_OFF, NULL,
			    "not in this kernel: writes are not confined");
	else if (r == -EPERM)
		feature_set(&dm->features, FEATURE_LANDLOCK, FEATURE_REFUSED,
			    feature_refused_by(r, false),
			    "its calls refused (EPERM: a seccomp filter that does not name "
			    "landlock_create_ruleset, landlock_add_rule and landlock_restrict_self): "
			    "writes are not confined");
	else if (r)
		feature_set(&dm->features, FEATURE_LANDLOCK, FEATURE_OFF, NULL,
			    "%s: writes are not confined", strerror(-r));
	else
		feature_set(&dm->features, FEATURE_LANDLOCK, FEATURE_ON, NULL,
			    "ABI %d: writes confined to %s, %s, %s%s%s%s%s", sandbox_abi(), vm, bdi,
			    o->state_dir, dirs[1] ? ", " : "", dirs[1] ? dirs[1] : "",
			    dirs[2] ? ", " : "", dirs[2] ? dirs[2] : "");
}

/* The capabilities kept, and the seccomp filter over wbgovd, said. */
static void caps_said(struct daemon *dm, bool need_admin, int dropped)
{
	const uint64_t admin = 1ULL << CAP_SYS_ADMIN;
	uint64_t eff, prm, bnd;
	int filters = sandbox_seccomp_filters(), n = 0;

	if (filters > 0)
		feature_set(&dm->features, FEATURE_SECCOMP, FEATURE_ON, NULL,
			    "%d filter%s over wbgovd (its service manager's)", filters,
			    filters == 1 ? "" : "s");
	else
		feature_set(&dm->features, FEATURE_SECCOMP, FEATURE_OFF, NULL,
			    "no system call filter (wbgovd.service sets one)");
	if (sandbox_caps(&eff, &prm, &bnd))
		return;
	for (uint64_t c = prm; c; c &= c - 1)
		n++;
	if (!prm)
		feature_set(&dm->features, FEATURE_CAPABILITIES, FEATURE_ON, NULL, "none kept");
	else if (prm == admin && !(eff & admin) && need_admin)
		feature_set(&dm->features, FEATURE_CAPABILITIES, FEATURE_ON, NULL,
			    "CAP_SYS_ADMIN alone, permitted but effective only for the write "
			    "wake-up's fanotify calls");
	else if (prm == admin && !need_admin)
		feature_set(&dm->features, FEATURE_CAPABILITIES,
			    feature_refused_by(dropped, false) ? FEATURE_REFUSED : FEATURE_OFF,
			    feature_refused_by(dropped, false),
			    "CAP_SYS_ADMIN kept, not needed (capset: %s)", strerror(-dropped));
	else
		feature_set(&dm->features, FEATURE_CAPABILITIES, FEATURE_OFF, NULL,
			    "%d of root's kept (effective %#llx): started without a bounding set "
			    "(wbgovd.service keeps CAP_SYS_ADMIN alone)",
			    n, (unsigned long long)eff);
}

void confine_caps(struct daemon *dm)
{
	int r;

	if (!(knobs_real_ops.features(&dm->real) & KNOBS_BDI_BYTES)) {
		/* kept for the global route's watch (watch.c), but only
		 * permitted: raised for its fanotify calls alone */
		r = sandbox_cap_effective(CAP_SYS_ADMIN, false);
		if (r)
			log_debug("CAP_SYS_ADMIN not lowered: %s", strerror(-r));
		caps_said(dm, true, 0);
		return;
	}
	/* CAP_SYS_ADMIN is for the global route's watch on file systems
	 * (fanotify) alone: not needed here, given up */
	r = sandbox_drop_cap(CAP_SYS_ADMIN);
	if (r)
		log_debug("CAP_SYS_ADMIN not given up: %s", strerror(-r));
	caps_said(dm, false, r);
}

void confine_probe(struct daemon *dm, const struct daemon_opts *o)
{
	int feat = knobs_real_ops.features(&dm->real);
	bool per_dev = feat & KNOBS_BDI_BYTES;
	int r = sysfs_knobs_writable(o->root);
	const char *by = r == -EROFS && secure_getenv("INVOCATION_ID") ? "ProtectKernelTunables=" :
			 r == -EROFS					 ? "a read-only mount" :
									   NULL;

	if (r)
		feature_set(&dm->features, FEATURE_KNOBS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "%s not writable (%s): nothing can be governed",
			    per_dev ? "the bdis' knobs" : "vm.dirty_bytes", strerror(-r));
	else
		feature_set(&dm->features, FEATURE_KNOBS, FEATURE_ON, NULL, "%s%s",
			    per_dev ? "per device: strict_limit and max_bytes (Linux 6.2 and later); the "
				      "global background threshold at an eighth of the dirty one while a "
				      "capped device holds dirty data" :
				      "the global vm.dirty_bytes pair while a slow device holds dirty "
				      "data (Linux before 6.2)",
			    per_dev && (feat & KNOBS_BDP_NO_START) ?
				    "; but this kernel (7.0-rc1 to rc6) starts no writeback for a "
				    "capped writer until the flusher's periodic wakeup" :
				    "");
	if (per_dev) {
		feature_set(&dm->features, FEATURE_WAKEUP, FEATURE_NOT_NEEDED, NULL,
			    "a device's cap is there before its first write (per-device caps)");
		return;
	}
	watch_wakeup_probe(dm);
}

void confine_labels(struct daemon *dm)
{
	char disk[64] = "";

	if (!dm->real.probe_fs) {
		feature_set(&dm->features, FEATURE_LABELS, FEATURE_NOT_NEEDED, NULL,
			    "no [device] section matches by label or uuid");
		return;
	}
	switch (fsid_source(dm->real.root, disk, sizeof(disk))) {
	case FSID_UDEV:
		feature_set(&dm->features, FEATURE_LABELS, FEATURE_ON, NULL, "udev's database");
		break;
	case FSID_PROBE:
		feature_set(&dm->features, FEATURE_LABELS, FEATURE_ON, NULL,
			    "libblkid, opening each disk's device nodes (no udevd)");
		break;
	case FSID_HIDDEN:
		feature_set(&dm->features, FEATURE_LABELS, FEATURE_REFUSED,
			    secure_getenv("INVOCATION_ID") ? "PrivateDevices=" : "a private /dev",
			    "no udevd, and no device nodes to open (/dev/%s is not there): "
			    "[device] label = and uuid = match nothing", disk);
		break;
	}
}
