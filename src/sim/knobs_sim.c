/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/knobs_sim.h"

/* A disk's major:minor; a share's st_dev, an anonymous 0:N as NFS's and
 * FUSE's */
static void devnum(const struct sim_kernel *s, int dev, unsigned *maj, unsigned *min)
{
	if (sim_dev_cfg(s, dev)->share) {
		*maj = 0;
		*min = 50u + (unsigned)dev;
	} else if (sim_dev_cfg(s, dev)->bus == BUS_NVME) {
		*maj = 259;
		*min = (unsigned)dev;
	} else {
		*maj = 8;
		*min = 16u * (unsigned)dev;
	}
}

void knobs_sim_bdi_name(const struct sim_kernel *s, int dev, char *buf, size_t len)
{
	unsigned maj, min;

	if (sim_dev_cfg(s, dev)->share == SHARE_CIFS) {
		snprintf(buf, len, "cifs-%d", dev + 1); /* CIFS names its bdis by a sequence */
		return;
	}
	devnum(s, dev, &maj, &min);
	snprintf(buf, len, "%u:%u", maj, min);
}

static int find(const struct sim_kernel *s, const char *bdi)
{
	char name[32];

	for (int d = 0; d < sim_ndev(s); d++) {
		knobs_sim_bdi_name(s, d, name, sizeof(name));
		if (!strcmp(name, bdi))
			return d;
	}
	return -1;
}

static int vm_read(void *ctx, enum vm_knob k, uint64_t *ret)
{
	*ret = sim_vm_read(ctx, k);
	return 0;
}

static int vm_write(void *ctx, enum vm_knob k, uint64_t v)
{
	return sim_vm_write(ctx, k, v);
}

static int bdi_read(void *ctx, const char *bdi, enum bdi_attr a, uint64_t *ret)
{
	int d = find(ctx, bdi);

	if (d < 0)
		return -ENOENT;
	*ret = sim_bdi_read(ctx, d, a);
	return 0;
}

static int bdi_write(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v)
{
	int d = find(ctx, bdi);

	if (d < 0)
		return -ENOENT;
	return sim_bdi_write(ctx, d, a, v);
}

static int dev_stat(void *ctx, const struct knobs_dev *kd, struct knobs_stat *ret)
{
	struct sim_dev_stat st;
	int d = find(ctx, kd->bdi);

	if (d < 0)
		return -ENOENT;
	sim_dev_stat(ctx, d, &st);
	*ret = (struct knobs_stat){ 0 }; /* a simulated device fails no command */
	ret->writes = st.writes;
	ret->sectors_written = st.sectors_written;
	if (kd->is_share)
		return 0; /* its bdi's BdiWritten: no busy time, nothing in flight */
	ret->io_ticks_ms = st.io_ticks_ms;
	ret->inflight = st.inflight;
	return 0;
}

static int vmstat(void *ctx, struct knobs_vmstat *ret)
{
	ret->dirty = pages_to_bytes(sim_global_dirty(ctx));
	ret->writeback = pages_to_bytes(sim_global_writeback(ctx));
	ret->dirtied = pages_to_bytes(sim_global_dirtied(ctx));
	ret->written = pages_to_bytes(sim_global_written(ctx));
	return 0;
}

static int devices(void *ctx, struct knobs_dev *out, int max)
{
	const struct sim_kernel *s = ctx;
	int n = 0;

	for (int d = 0; d < sim_ndev(s) && n < max; d++) {
		const struct sim_dev_cfg *c = sim_dev_cfg(s, d);
		struct knobs_dev *o = &out[n++];

		memset(o, 0, sizeof(*o));
		knobs_sim_bdi_name(s, d, o->bdi, sizeof(o->bdi));
		snprintf(o->disk, sizeof(o->disk), "%s", c->name);
		snprintf(o->model, sizeof(o->model), "%s", c->model);
		snprintf(o->serial, sizeof(o->serial), "%s", c->serial);
		snprintf(o->bus, sizeof(o->bus), "%s",
			 c->bus == BUS_USB ? "usb" : c->bus == BUS_SATA ? "ata" :
			 c->bus == BUS_NVME ? "nvme" : "virtual");
		devnum(s, d, &o->major, &o->minor);
		o->removable = c->removable;
		o->mounted = true;
		o->rotational = c->rotational;
		if (c->share) {
			/* as sys/shares.c makes one: no disk, its file system's
			 * type for a bus, its name (the model) for an identity */
			static const char *const fstype[] = { "", "nfs4", "cifs", "fuse.rclone" };
			static const char *const family[] = { "", "nfs", "cifs", "fuse.rclone" };

			o->disk[0] = 0;
			o->is_share = true;
			o->is_fuse = c->share == SHARE_FUSE;
			snprintf(o->bus, sizeof(o->bus), "%s", fstype[c->share]);
			snprintf(o->id, sizeof(o->id), "%s:%s", family[c->share], c->model);
		}
	}
	return n;
}

static int bdi_counters(void *ctx, const char *bdi, struct knobs_bdi_counters *ret)
{
	int d = find(ctx, bdi);

	if (d < 0)
		return -ENOENT;
	ret->dirty = pages_to_bytes(sim_dev_dirty(ctx, d));
	ret->writeback = pages_to_bytes(sim_dev_writeback(ctx, d));
	ret->thresh = pages_to_bytes(sim_dev_wb_thresh(ctx, d));
	return 0;
}

/* What knobs_real's features() finds on the kernel the scenario describes:
 * 6.1 has no per-bdi byte knobs, 6.12 no idle floor, 7.0-rc1 no writeback
 * start for a strict-limited writer. */
static int features(void *ctx)
{
	switch (sim_kver(ctx)) {
	case KVER_6_1:
		return 0;
	case KVER_6_12:
		return KNOBS_BDI_BYTES;
	default:
		return KNOBS_BDI_BYTES | KNOBS_WB_FLOOR |
		       (sim_bdp_start(ctx) == BDP_START_GLOBAL ? KNOBS_BDP_NO_START : 0);
	}
}

/* The scenario's cgroup write throttles (a device's `throttle`) */
static int write_limits(void *ctx, struct knobs_limit *out, int max)
{
	const struct sim_kernel *s = ctx;
	int n = 0;

	for (int d = 0; d < sim_ndev(s) && n < max; d++) {
		if (!sim_dev_cfg(s, d)->throttle_bps)
			continue;
		devnum(s, d, &out[n].major, &out[n].minor);
		out[n++].bps = sim_dev_cfg(s, d)->throttle_bps;
	}
	return n;
}

const struct knobs_ops knobs_sim_ops = {
	.vm_read = vm_read, .vm_write = vm_write, .bdi_read = bdi_read, .bdi_write = bdi_write,
	.dev_stat = dev_stat, .vmstat = vmstat, .devices = devices, .features = features,
	.bdi_counters = bdi_counters, .write_limits = write_limits,
};
