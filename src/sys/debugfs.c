/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sys/debugfs.h"
#include "sys/fsutil.h"
#include "sys/procfs.h"

/* include/uapi/linux/magic.h */
#define DEBUGFS_MAGIC_ 0x64626720

bool debugfs_mounted(const char *root)
{
	char p[PATH_MAX];
	struct statfs st;

	return path_at(p, sizeof(p), root, "/sys/kernel/debug") == 0 && statfs(p, &st) == 0 &&
	       st.f_type == DEBUGFS_MAGIC_;
}

bool debugfs_bdi_readable(const char *root)
{
	char p[PATH_MAX];

	return path_at(p, sizeof(p), root, "/sys/kernel/debug/bdi") == 0 &&
	       access(p, R_OK | X_OK) == 0;
}

/* Not a mount namespace of our own with debugfs on /sys/kernel/debug:
 * wbgovd reads the mount table for every device's mounts, and a namespace
 * sees the host's later mounts only where the host's are shared. systemd
 * makes them so; without systemd (where debugfs is missing) they are
 * private, the kernel's default, and a stick mounted after wbgovd started
 * would never show there. A detached mount leaves wbgovd where it is. The
 * system calls through syscall(2): glibc 2.36 has no wrappers. */
bool debugfs_root_wb_only(const char *root)
{
	char p[PATH_MAX], buf[512], *w, *save = NULL;
	bool memory = false, io = false;

	/* 6.10: "writeback: collect stats of all wb of bdi in
	 * bdi_debug_stats_show" (mm/backing-dev.c, bdi_collect_stats()) */
	if (procfs_kernel_at_least(root, 6, 10))
		return false;
	/* cgroup writeback needs both controllers on the default hierarchy:
	 * cgroup2 at /sys/fs/cgroup (a hybrid's tmpfs there has no such file) */
	if (path_at(p, sizeof(p), root, "/sys/fs/cgroup/cgroup.controllers") ||
	    read_text(p, buf, sizeof(buf)))
		return false;
	for (w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		memory |= !strcmp(w, "memory");
		io |= !strcmp(w, "io");
	}
	return memory && io;
}

int debugfs_mount_own(int *ret_fd)
{
	int fs, mnt, e;

	fs = (int)syscall(SYS_fsopen, "debugfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		e = errno;
		close(fs);
		return -e;
	}
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
			   MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NOSUID);
	e = errno;
	close(fs);
	if (mnt < 0)
		return -e;
	*ret_fd = mnt;
	return 0;
}

int debugfs_bdi_stats(const char *root, int own_fd1, const char *bdi, char *buf, size_t len)
{
	char p[PATH_MAX];

	if (own_fd1) {
		int n = snprintf(p, sizeof(p), "bdi/%s/stats", bdi);
		if (n < 0 || (size_t)n >= sizeof(p) || read_text_at(own_fd1 - 1, p, buf, len))
			return -ENOTSUP;
		return 0;
	}
	if (path_at(p, sizeof(p), root, "/sys/kernel/debug/bdi/%s/stats", bdi) ||
	    read_text(p, buf, len))
		return -ENOTSUP;
	return 0;
}
