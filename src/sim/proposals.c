/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "sim/proposals.h"

const struct proposal proposals[] = {
	{ "linux-64", "today's default", "bg 10 %, throttle 20 % of dirtyable memory", false },
	{ "linux-32", "32-bit kernels", "the same ratios over lowmem only (~890 MB)", false },
	{ "bytes", "Linus, mail 001", "dirty_background_bytes 16 MiB, dirty_bytes 48 MiB", false },
	{ "cap-1g", "Linus, mail 004 patch", "ratios over at most 1 GiB of dirtyable memory", false },
	{ "per-file", "Dilger, mail 003",
	  "the writer starts writeout of each 16 MiB piece of a file it passed (waits for queue room)",
	  false },
	/* The kernel's estimate (avg_write_bandwidth), not the device's speed:
	 * it starts at 100 MiB/s and adapts over seconds (kernel.c: proposal_cap). */
	{ "time-1", "Gorman, mail 002",
	  "per-device limit = 1 s of the kernel's bandwidth estimate (starts at 100 MiB/s)", false },
	{ "time-3", "Gorman, mail 002",
	  "per-device limit = 3 s of the kernel's bandwidth estimate (starts at 100 MiB/s)", false },
	{ "writethrough", "Chinner, article",
	  "tiny limit + early I/O for slow devices and sequential streams", false },
	{ "udev-16m", "distributions' udev rules", "strict_limit + 16 MiB max_bytes on USB disks",
	  false },
	{ "wbgov", "this project", "the governor, closed-loop through the knobs", true },
};
const int proposal_count = (int)(sizeof(proposals) / sizeof(proposals[0]));

const struct proposal *proposal_find(const char *name)
{
	for (int i = 0; i < proposal_count; i++)
		if (!strcmp(proposals[i].name, name))
			return &proposals[i];
	return NULL;
}

void proposal_kernel(const struct proposal *pr, const struct sim_params *p,
		     struct sim_kernel_cfg *kc)
{
	(void)p;
	if (!strcmp(pr->name, "linux-64"))
		kc->k.long_bits = 64;
	else if (!strcmp(pr->name, "linux-32"))
		kc->k.long_bits = 32;
	else if (!strcmp(pr->name, "cap-1g"))
		kc->cap_1g = true;
	else if (!strcmp(pr->name, "per-file"))
		kc->per_file_bytes = 16 * MIB;
	else if (!strcmp(pr->name, "time-1") || !strcmp(pr->name, "time-3")) {
		kc->limit_mode = LIMIT_TIME;
		kc->time_limit_ds = pr->name[5] == '1' ? 10 : 30;
	} else if (!strcmp(pr->name, "writethrough")) {
		kc->limit_mode = LIMIT_WRITETHROUGH;
		kc->wt_cap_bytes = 8 * MIB;          /* two minimum writeback chunks */
		kc->wt_slow_bps = 32 * MIB;          /* a USB stick, not an SSD */
		kc->wt_stream_bytes = 64 * MIB;      /* a file written sequentially past this */
	}
}

int proposal_start(const struct proposal *pr, struct sim_kernel *s)
{
	int r;

	if (!strcmp(pr->name, "bytes")) {
		/* the order Linus gave: background first */
		r = sim_vm_write(s, VM_DIRTY_BACKGROUND_BYTES, 16 * MIB);
		if (!r)
			r = sim_vm_write(s, VM_DIRTY_BYTES, 48 * MIB);
		return r;
	}
	if (!strcmp(pr->name, "udev-16m")) {
		/* ACTION=="add", ENV{ID_BUS}=="usb": strict_limit=1, max_bytes=16777216 */
		for (int d = 0; d < sim_ndev(s); d++) {
			if (sim_dev_cfg(s, d)->bus != BUS_USB)
				continue;
			r = sim_bdi_write(s, d, BDI_STRICT_LIMIT, 1);
			if (!r)
				r = sim_bdi_write(s, d, BDI_MAX_BYTES, 16 * MIB);
			/* before 6.2 neither file exists: the rule's writes fail
			 * and it does nothing, as udev's do */
			if (r && r != -ENOENT)
				return r;
		}
	}
	return 0;
}
