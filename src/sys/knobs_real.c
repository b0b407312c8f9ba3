/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model/balance.h"
#include "sys/knobs_real.h"
#include "sys/debugfs.h"
#include "sys/fsid.h"
#include "sys/fsutil.h"
#include "sys/iolimit.h"
#include "sys/procfs.h"
#include "sys/shares.h"
#include "sys/sysfs.h"
#include "sys/uevent.h"

static const char *root(void *ctx) { return ((struct knobs_real *)ctx)->root; }

static int vm_read(void *ctx, enum vm_knob k, uint64_t *ret) { return procfs_vm_read(root(ctx), k, ret); }
static int vm_write(void *ctx, enum vm_knob k, uint64_t v) { return procfs_vm_write(root(ctx), k, v); }

static int bdi_read(void *ctx, const char *bdi, enum bdi_attr a, uint64_t *ret)
{
	return sysfs_bdi_read(root(ctx), bdi, a, ret);
}

static int bdi_write(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v)
{
	return sysfs_bdi_write(root(ctx), bdi, a, v);
}

/* A share has no disk to count its writes: what its bdi wrote back, as a
 * disk's stat would say it. Where debugfs is readable, BdiWritten (the
 * bdi's WB_WRITTEN, counted as the writeback of each page completes, as a
 * disk's sectors are) in 512-byte sectors and 4 KiB "requests"; the
 * backlog the meter needs is BdiWriteback (bdi_counters), so nothing is
 * said in flight here. Without debugfs, NFS tells what it wrote to its
 * server (/proc/self/mountstats) and CIFS what its server acknowledged
 * (/proc/fs/cifs/Stats, readable by anyone), with no backlog: their
 * windows are lower bounds. FUSE and 9p say nothing of the kind, nor a
 * CIFS share two sessions write to: -ENOTSUP, the share is judged
 * unmeasured (the start cap), never taken for gone. Nothing here looks at
 * the mount: a dead server would hold the caller. */
static int share_stat(struct knobs_real *k, const struct knobs_dev *d, struct knobs_stat *ret)
{
	char buf[2048];
	uint64_t written;
	struct share_written w;

	memset(ret, 0, sizeof(*ret));
	if (debugfs_bdi_stats(k->root, k->debugfs_fd1, d->bdi, buf, sizeof(buf)) == 0 &&
	    text_kib(buf, "BdiWritten", &written) == 0) {
		ret->sectors_written = written / 512;
		ret->writes = written / 4096;
		return 0;
	}
	if (shares_mountstats(k->root, d, &w) && shares_cifs_stats(k->root, d, &w))
		return -ENOTSUP;
	ret->sectors_written = w.bytes / 512;
	ret->writes = w.writes ? w.writes : w.bytes / 4096;
	return 0;
}

static int dev_stat(void *ctx, const struct knobs_dev *d, struct knobs_stat *ret)
{
	if (d->is_share)
		return share_stat(ctx, d, ret);
	return sysfs_disk_stat(root(ctx), d->disk, ret);
}

static int vmstat(void *ctx, struct knobs_vmstat *ret)
{
	return procfs_vmstat(root(ctx), &((struct knobs_real *)ctx)->vmstat_fd1, ret);
}

void knobs_real_close(struct knobs_real *k)
{
	if (k->vmstat_fd1)
		close(k->vmstat_fd1 - 1);
	k->vmstat_fd1 = 0;
	if (k->debugfs_fd1)
		close(k->debugfs_fd1 - 1);
	k->debugfs_fd1 = 0;
}

static int devices(void *ctx, struct knobs_dev *out, int max)
{
	int n = sysfs_devices(root(ctx), out, max);
	struct mount_table *mt = NULL;

	/* the mount table once for every device: none if it cannot be read */
	if (n > 0 && procfs_mount_table_read(root(ctx), &mt) != 0)
		mt = NULL;
	for (int i = 0; i < n; i++) {
		struct mount_list ml;
		/* a share's mounts are its own already (shares_device), and it
		 * has no disk for udev or libblkid to tell of */
		if (out[i].is_share)
			continue;
		if (!strcmp(root(ctx), "/"))
			udev_enrich(&out[i]);
		out[i].mounted = mt && procfs_mounts_of(mt, out[i].disk, &ml) > 0;
		for (const char *m = out[i].mounted ? mount_list_next(&ml, NULL) : NULL; m;
		     m = mount_list_next(&ml, m))
			knobs_list_add(out[i].mounts, sizeof(out[i].mounts), m);
		fsid_facts(root(ctx), ((struct knobs_real *)ctx)->probe_fs, &out[i]);
	}
	procfs_mount_table_free(mt);
	return n;
}

int debugfs_bdi_bandwidth(const char *root, const char *bdi, uint64_t *ret_bps)
{
	char buf[2048];

	if (debugfs_bdi_stats(root, 0, bdi, buf, sizeof(buf)))
		return -ENOTSUP;
	return text_kib(buf, "BdiWriteBandwidth", ret_bps) ? -ENOTSUP : 0;
}

/* How far a bdi's per-CPU counters may read from their sum, in bytes
 * (wb_stat_error()), found once: 0 where the CPUs cannot be counted. */
static uint64_t stat_error_bytes(struct knobs_real *k)
{
	if (!k->stat_error_known) {
		int n = sysfs_cpu_ids(k->root);
		long page = sysconf(_SC_PAGESIZE);
		k->stat_error_bytes = n > 0 && page > 0 ?
					      wb_stat_error_pages((unsigned)n) * (uint64_t)page : 0;
		k->stat_error_known = true;
	}
	return k->stat_error_bytes;
}

/* BdiReclaimable and BdiWriteback; BdiDirtyThresh if there (0: unknown).
 * The kernel prints its per-CPU counters without summing them (wb_stat()):
 * an idle bdi reads up to wb_stat_error pages (64-128 KiB on 2 CPUs, MiBs
 * on many), and "nothing left" never came. They are made exact where the
 * kernel says more: no inode of the bdi dirty (b_dirty, b_io, b_more_io
 * empty) is nothing dirty, and writeback within the error while its disk
 * has no request in flight is none. */
static int bdi_counters(void *ctx, const char *bdi, struct knobs_bdi_counters *ret)
{
	struct knobs_real *k = ctx;
	char buf[2048];
	uint64_t wb, rc, th, nd, ni, nm;

	if (!k->wb_scope_known) {
		k->root_wb_only = debugfs_root_wb_only(k->root);
		k->wb_scope_known = true;
	}
	/* figures that are not the bdi's: as if there were none. A share's
	 * are: cgroup writeback needs BDI_CAP_CGROUP_WRITEBACK, which only a
	 * block device's bdi and btrfs's have, so an NFS, CIFS or FUSE bdi's
	 * writeback is all in its root wb */
	if ((k->root_wb_only && !shares_bdi_name(bdi)) ||
	    debugfs_bdi_stats(root(ctx), k->debugfs_fd1, bdi, buf, sizeof(buf)) ||
	    text_kib(buf, "BdiWriteback", &wb) || text_kib(buf, "BdiReclaimable", &rc))
		return -ENOTSUP;
	if (text_kib(buf, "BdiDirtyThresh", &th))
		th = 0;
	if (rc && rc <= stat_error_bytes(k) && !text_count(buf, "b_dirty", &nd) &&
	    !text_count(buf, "b_io", &ni) && !text_count(buf, "b_more_io", &nm) && nd + ni + nm == 0)
		rc = 0;
	if (wb && wb <= stat_error_bytes(k) && sysfs_bdi_inflight(root(ctx), bdi) == 0)
		wb = 0;
	ret->dirty = rc;
	ret->writeback = wb;
	ret->thresh = th;
	return 0;
}

static int write_limits(void *ctx, struct knobs_limit *out, int max)
{
	return iolimit_read(root(ctx), out, max);
}

static int features(void *ctx)
{
	int f = 0;

	if (sysfs_has_bdi_bytes(root(ctx)))
		f |= KNOBS_BDI_BYTES;
	if (procfs_kernel_at_least(root(ctx), 6, 14))
		f |= KNOBS_WB_FLOOR;
	if (procfs_kernel_stalls_strict(root(ctx)))
		f |= KNOBS_BDP_NO_START;
	return f;
}

const struct knobs_ops knobs_real_ops = {
	.vm_read = vm_read, .vm_write = vm_write, .bdi_read = bdi_read, .bdi_write = bdi_write,
	.dev_stat = dev_stat, .vmstat = vmstat, .devices = devices, .features = features,
	.bdi_counters = bdi_counters, .write_limits = write_limits,
};
