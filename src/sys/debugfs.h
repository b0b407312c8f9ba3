/* SPDX-License-Identifier: GPL-2.0-or-later */
/* debugfs: each bdi's own dirty and writeback data
 * (/sys/kernel/debug/bdi/BDI/stats), which nothing else in /proc or /sys
 * tells. systemd mounts debugfs at boot; a system without systemd, or a
 * container, may not. There wbgovd (root) mounts one of its own that no
 * other process sees: a detached mount (fsopen and fsmount, Linux 5.2),
 * attached to no directory, read through its descriptor. Paths under a
 * root prefix as in fsutil.h; the mount only on the real machine. */
#ifndef WBGOV_SYS_DEBUGFS_H
#define WBGOV_SYS_DEBUGFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is debugfs mounted at ROOT/sys/kernel/debug? */
bool debugfs_mounted(const char *root);

/* Can this process list ROOT/sys/kernel/debug/bdi? Not where debugfs is
 * not mounted, nor as a user (the kernel makes it mode 0700 root). */
bool debugfs_bdi_readable(const char *root);

/* Are a bdi's figures in debugfs the root cgroup's alone, while writers
 * have wbs of their own? Before Linux 6.10 bdi_debug_stats_show() prints
 * the bdi's root wb (&bdi->wb) alone; with cgroup writeback in force
 * (cgroup v2 with the memory and io controllers: a desktop's programs in
 * their session's cgroup) a user's copy is dirty in a wb of its cgroup's,
 * which that never shows (measured in a Debian 12 guest under systemd on
 * 6.1: 11 MiB dirty on a stick that read 0). */
bool debugfs_root_wb_only(const char *root);

/* A debugfs mount of our own, attached nowhere (nodev, noexec, nosuid):
 * its descriptor in *ret_fd, close-on-exec. It is the kernel's one debugfs
 * superblock, so nothing of its options changes. 0, or -errno: -EPERM
 * without CAP_SYS_ADMIN in the initial user namespace (a container), or a
 * seccomp filter; -ENODEV for a kernel without debugfs; -ENOSYS before
 * Linux 5.2. */
int debugfs_mount_own(int *ret_fd);

/* The whole text of a bdi's stats (bdi_debug_stats_show()), from our own
 * mount when `own_fd1` (its descriptor + 1) is not 0, else from
 * ROOT/sys/kernel/debug. -ENOTSUP where neither has it. */
int debugfs_bdi_stats(const char *root, int own_fd1, const char *bdi, char *buf, size_t len);

#endif
