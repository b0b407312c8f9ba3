/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wbgovd does with its privileges at start, and how it gives them
 * up: a debugfs mount of its own where the system has none (before
 * Landlock, which forbids mounting), then its writes confined by Landlock
 * to where its work is (sys/sandbox.c does the confining), and
 * CAP_SYS_ADMIN given up where nothing needs it, and elsewhere held only
 * permitted, raised for the calls that need it. */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>

#include "daemon/confine.h"
#include "daemon/context.h"
#include "sys/debugfs.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/sandbox.h"

void confine_own_debugfs(struct daemon *dm, const struct daemon_opts *o)
{
	int fd, r;

	if (strcmp(o->root, "/") || debugfs_mounted(o->root))
		return;
	r = debugfs_mount_own(&fd);
	if (r == 0) {
		dm->real.debugfs_fd1 = fd + 1;
		log_info("debugfs is not mounted at /sys/kernel/debug: wbgovd mounted one of its "
			 "own, attached nowhere and seen by no other process, for each device's own "
			 "dirty and writeback data");
	} else {
		log_notice("debugfs is not mounted at /sys/kernel/debug, and wbgovd cannot mount one "
			   "of its own (%s): each device is judged by /sys/block/*/stat and the write "
			   "throttles of the cgroups", strerror(-r));
	}
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
		log_info("no Landlock in this kernel: writes are not confined");
	else if (r == -EPERM)
		log_warn("Landlock's calls are refused (EPERM: a seccomp filter, such as a unit's "
			 "SystemCallFilter= that does not name landlock_create_ruleset, "
			 "landlock_add_rule and landlock_restrict_self); writes are not confined");
	else if (r)
		log_warn("Landlock: %s; writes are not confined", strerror(-r));
	else
		log_debug("Landlock ABI %d: writes confined to %s, %s, %s%s%s%s%s", sandbox_abi(), vm,
			  bdi, o->state_dir, dirs[1] ? ", " : "", dirs[1] ? dirs[1] : "",
			  dirs[2] ? ", " : "", dirs[2] ? dirs[2] : "");
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
		return;
	}
	/* CAP_SYS_ADMIN is for the global route's watch on file systems
	 * (fanotify) alone: not needed here, given up */
	r = sandbox_drop_cap(CAP_SYS_ADMIN);
	if (r)
		log_debug("CAP_SYS_ADMIN not given up: %s", strerror(-r));
}
