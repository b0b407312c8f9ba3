#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/knobs_real.h"
#include "sys/fsutil.h"
#include "sys/procfs.h"
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

static int dev_stat(void *ctx, const struct knobs_dev *d, struct knobs_stat *ret)
{
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
}

static int devices(void *ctx, struct knobs_dev *out, int max)
{
	int n = sysfs_devices(root(ctx), out, max);

	for (int i = 0; i < n; i++) {
		if (!strcmp(root(ctx), "/"))
			udev_enrich(&out[i]);
		out[i].mounted = procfs_mounts(root(ctx), out[i].disk, NULL) > 0;
	}
	return n;
}

int debugfs_bdi_bandwidth(const char *root, const char *bdi, uint64_t *ret_bps)
{
	char p[PATH_MAX], buf[2048], *s;
	unsigned long long kbps;

	if (path_at(p, sizeof(p), root, "/sys/kernel/debug/bdi/%s/stats", bdi) ||
	    read_text(p, buf, sizeof(buf)))
		return -ENOTSUP;
	if (!(s = strstr(buf, "BdiWriteBandwidth:")) || sscanf(s + 18, "%llu", &kbps) != 1)
		return -ENOTSUP;
	*ret_bps = kbps * 1024; /* kBps */
	return 0;
}

/* debugfs: BdiReclaimable, BdiWriteback and BdiDirtyThresh, kB */
static int bdi_counters(void *ctx, const char *bdi, struct knobs_bdi_counters *ret)
{
	char p[PATH_MAX], buf[2048], *s;
	unsigned long long wb = 0, rc = 0, th = 0;

	if (path_at(p, sizeof(p), root(ctx), "/sys/kernel/debug/bdi/%s/stats", bdi) ||
	    read_text(p, buf, sizeof(buf)))
		return -ENOTSUP;
	if (!(s = strstr(buf, "BdiWriteback:")) || sscanf(s + 13, "%llu", &wb) != 1 ||
	    !(s = strstr(buf, "BdiReclaimable:")) || sscanf(s + 15, "%llu", &rc) != 1 ||
	    wb > UINT64_MAX / 1024 || rc > UINT64_MAX / 1024)
		return -ENOTSUP;
	/* optional: 0 = unknown */
	if (!(s = strstr(buf, "BdiDirtyThresh:")) || sscanf(s + 15, "%llu", &th) != 1 ||
	    th > UINT64_MAX / 1024)
		th = 0;
	ret->dirty = rc * 1024;
	ret->writeback = wb * 1024;
	ret->thresh = th * 1024;
	return 0;
}

static int features(void *ctx)
{
	int f = 0;

	if (sysfs_has_bdi_bytes(root(ctx)))
		f |= KNOBS_BDI_BYTES;
	if (procfs_kernel_at_least(root(ctx), 6, 14))
		f |= KNOBS_WB_FLOOR;
	return f;
}

const struct knobs_ops knobs_real_ops = {
	.vm_read = vm_read, .vm_write = vm_write, .bdi_read = bdi_read, .bdi_write = bdi_write,
	.dev_stat = dev_stat, .vmstat = vmstat, .devices = devices, .features = features,
	.bdi_counters = bdi_counters,
};
