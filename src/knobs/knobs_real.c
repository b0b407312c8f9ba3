#include <string.h>

#include "knobs/knobs_real.h"
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

static int meminfo(void *ctx, uint64_t *dirty, uint64_t *writeback)
{
	return procfs_meminfo(root(ctx), dirty, writeback);
}

static int devices(void *ctx, struct knobs_dev *out, int max)
{
	int n = sysfs_devices(root(ctx), out, max);

	if (n > 0 && !strcmp(root(ctx), "/"))
		for (int i = 0; i < n; i++)
			udev_enrich(&out[i]);
	return n;
}

static int features(void *ctx) { return sysfs_has_bdi_bytes(root(ctx)) ? KNOBS_BDI_BYTES : 0; }

const struct knobs_ops knobs_real_ops = {
	.vm_read = vm_read, .vm_write = vm_write, .bdi_read = bdi_read, .bdi_write = bdi_write,
	.dev_stat = dev_stat, .meminfo = meminfo, .devices = devices, .features = features,
};
