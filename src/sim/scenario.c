/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/parse.h"
#include "sim/scenario.h"

const char *const scenario_names[] = {
	"usb-iso", "usb-git-clone", "fsync-behind-slow", "tempfiles",
	"streaming-fast", "32-vs-64", "mixed", "slc-cliff", "cold-unknown", "fast-beside-stick",
};
const int scenario_count = (int)(sizeof(scenario_names) / sizeof(scenario_names[0]));

static const char *const summaries[] = {
	"16 GiB desktop, 64-bit: a 4 GiB ISO to a 5 MB/s USB stick, then sync (Artem, Linus)",
	"200 MiB of small files (a git clone) to a 5 MB/s stick, then sync (Linus, mail 004)",
	"a 4 KiB write + fdatasync every 10 ms on a 500 MB/s SSD while usb-iso runs (Mel, mail 002)",
	"SSD: 1 GiB of files written and deleted within 10 s: what reaches the disk (Linus, mail 004)",
	"8 GiB written sequentially to a 2 GB/s NVMe, then sync (Chinner: streaming wants cache)",
	"usb-iso under a 32-bit kernel on the same machine (the article's observation)",
	"a 2 GiB copy to a 5 MB/s stick and, from 5 s on, 2 GiB to the SSD with fsync",
	"a stick writing 60 MB/s for its first GiB, then 8 MB/s: a 2 GiB copy, then sync",
	"40 MiB to a 2 MB/s device of no known kind (an SD card in a built-in reader), then sync",
	"4 KiB + fdatasync every 10 ms on an NVMe while 200 MiB drain to a stick, then 2 GiB to the NVMe",
};

#define MB 1000000ULL

static struct sim_dev_cfg stick(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "sdb", .model = "Cruzer Blade", .serial = "4C530001190823115393",
		.bus = BUS_USB, .removable = true, .rotational = false,
		.fast_bps = bps, .slow_bps = bps, .queue_bytes = 16 * MIB,
	};
	return d;
}

static struct sim_dev_cfg ssd(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "sda", .model = "Samsung SSD 870 EVO", .serial = "S6PNNS0T512345",
		.bus = BUS_SATA, .fast_bps = bps, .slow_bps = bps, .queue_bytes = 64 * MIB,
		.known = true,
	};
	return d;
}

static struct sim_dev_cfg nvme(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "nvme0n1", .model = "WD Black SN850X", .serial = "23123K800123",
		.bus = BUS_NVME, .fast_bps = bps, .slow_bps = bps, .queue_bytes = 128 * MIB,
		.known = true,
	};
	return d;
}

/* A device whose facts say nothing: not USB, not removable, not
 * rotational (an SD card in a built-in reader, a virtio or network disk). */
static struct sim_dev_cfg unknown_kind(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "mmcblk0", .model = "SD card", .serial = "0x1234abcd",
		.bus = BUS_VIRTUAL, .fast_bps = bps, .slow_bps = bps, .queue_bytes = 4 * MIB,
	};
	return d;
}

static uint64_t or_default(uint64_t v, uint64_t def) { return v ? v : def; }

static void add_task(struct scenario *sc, struct sim_task_cfg t, enum task_role r)
{
	sc->task[sc->ntask] = t;
	sc->role[sc->ntask] = r;
	sc->ntask++;
}

static struct sim_task_cfg copy_task(int dev, uint64_t total, uint64_t file_bytes, uint64_t rate)
{
	struct sim_task_cfg t = {
		.kind = TASK_COPY, .dev = dev, .rate_bps = rate, .end = END_SYNC,
	};
	if (file_bytes == 0 || file_bytes > total)
		file_bytes = total;
	t.file_bytes = (file_bytes + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	t.files = (total + t.file_bytes - 1) / t.file_bytes;
	if (!t.files)
		t.files = 1;
	return t;
}

int scenario_build(const char *name, const struct sim_params *p, struct scenario *sc)
{
	int id = -1;

	for (int i = 0; i < scenario_count; i++)
		if (!strcmp(name, scenario_names[i]))
			id = i;
	if (id < 0)
		return -ENOENT;
	memset(sc, 0, sizeof(*sc));
	sc->name = scenario_names[id];
	sc->summary = summaries[id];
	sc->kernel = (struct sim_kernel_cfg){
		.k = { .hz = or_default(p->hz, 250), .long_bits = or_default(p->bits, 64), .ncpus = 4 },
		.mem_bytes = or_default(p->mem_bytes, 16 * GIB),
		.kernel_bytes = 96 * MIB,
		.anon_bytes = 1536 * MIB,
		.reserve_bytes = 64 * MIB,
		.lowmem_bytes = 896 * MIB,
	};
	if (sc->kernel.mem_bytes < 2 * GIB) /* small machines: scale the apps down */
		sc->kernel.anon_bytes = sc->kernel.mem_bytes / 8;

	switch (id) {
	case 0: /* usb-iso */
	case 2: /* fsync-behind-slow */
	case 5: /* 32-vs-64 */
		sc->dev[0] = stick(or_default(p->speed_bps, 5 * MB));
		sc->dev[1] = ssd(500 * MB);
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 4 * GIB), 0, 1000 * MB), ROLE_MAIN);
		if (id == 2) {
			struct sim_task_cfg f = {
				.kind = TASK_FSYNC_LOOP, .dev = 1, .file_bytes = 4096,
				.period_usec = 10000, .background = true,
			};
			add_task(sc, f, ROLE_OTHER);
		}
		if (id == 5 && !p->bits)
			sc->kernel.k.long_bits = 32;
		break;
	case 1: /* usb-git-clone */
		sc->dev[0] = stick(or_default(p->speed_bps, 5 * MB));
		sc->dev[1] = ssd(500 * MB);
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 200 * MIB), 16 * 1024, 200 * MB),
			 ROLE_MAIN);
		break;
	case 3: { /* tempfiles */
		struct sim_task_cfg t = copy_task(0, or_default(p->size_bytes, GIB), 64 * 1024, 1000 * MB);
		sc->dev[0] = ssd(or_default(p->speed_bps, 500 * MB));
		sc->ndev = 1;
		t.end = END_NONE;
		t.delete_at_usec = 10000000;
		add_task(sc, t, ROLE_MAIN);
		break;
	}
	case 4: /* streaming-fast */
		sc->dev[0] = nvme(or_default(p->speed_bps, 2000 * MB));
		sc->ndev = 1;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 8 * GIB), 0, 4000 * MB),
			 ROLE_MAIN_FAST);
		break;
	case 6: { /* mixed */
		struct sim_task_cfg f = copy_task(1, 2 * GIB, 0, 1000 * MB);
		sc->dev[0] = stick(or_default(p->speed_bps, 5 * MB));
		sc->dev[1] = ssd(500 * MB);
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 2 * GIB), 0, 1000 * MB), ROLE_MAIN);
		f.start_usec = 5000000;
		f.end = END_FSYNC;
		add_task(sc, f, ROLE_FAST);
		break;
	}
	case 8: /* cold-unknown */
		sc->dev[0] = unknown_kind(or_default(p->speed_bps, 2 * MB));
		sc->dev[1] = ssd(500 * MB);
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 40 * MIB), 0, 1000 * MB), ROLE_MAIN);
		break;
	case 9: { /* fast-beside-stick */
		struct sim_task_cfg light = {
			.kind = TASK_FSYNC_LOOP, .dev = 1, .file_bytes = 4096,
			.period_usec = 10000, .background = true,
		};
		struct sim_task_cfg bulk = copy_task(1, 2 * GIB, 0, 4000 * MB);
		sc->dev[0] = stick(or_default(p->speed_bps, 5 * MB));
		sc->dev[1] = nvme(2000 * MB);
		sc->dev[1].known = false; /* what the scenario is about */
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 200 * MIB), 0, 1000 * MB), ROLE_MAIN);
		add_task(sc, light, ROLE_OTHER);
		/* the NVMe in bulk once the stick has drained for a while */
		bulk.start_usec = 20000000;
		bulk.end = END_FSYNC;
		add_task(sc, bulk, ROLE_FAST);
		break;
	}
	case 7: { /* slc-cliff */
		uint64_t slow = or_default(p->speed_bps, 8 * MB);
		sc->dev[0] = stick(slow);
		sc->dev[0].fast_bps = 60 * MB;
		sc->dev[0].fast_bytes = GIB;
		sc->dev[1] = ssd(500 * MB);
		sc->ndev = 2;
		add_task(sc, copy_task(0, or_default(p->size_bytes, 2 * GIB), 0, 1000 * MB), ROLE_MAIN);
		break;
	}
	}
	sc->main_dev = 0;
	return 0;
}

const char *scenario_summary(const char *name)
{
	for (int i = 0; i < scenario_count; i++)
		if (!strcmp(name, scenario_names[i]))
			return summaries[i];
	return NULL;
}

int sim_param_set(struct sim_params *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t klen;
	uint64_t v;

	if (!eq)
		return -EINVAL;
	klen = (size_t)(eq - kv);
	const char *val = eq + 1;
#define KEY(k) (klen == strlen(k) && !strncmp(kv, k, klen))
	if (KEY("mem")) {
		if (parse_size(val, &v) || v < 64 * MIB)
			return -EINVAL;
		p->mem_bytes = v;
	} else if (KEY("size")) {
		if (parse_size(val, &v) || v < PAGE_SIZE || v > 1024 * GIB)
			return -EINVAL;
		p->size_bytes = v;
	} else if (KEY("speed")) {
		if (parse_speed(val, &v) || v < 10000 || v > 100000 * MB)
			return -EINVAL;
		p->speed_bps = v;
	} else if (KEY("hz")) {
		if (strcmp(val, "100") && strcmp(val, "250") && strcmp(val, "300") && strcmp(val, "1000"))
			return -EINVAL;
		p->hz = (unsigned)atoi(val);
	} else if (KEY("bits")) {
		if (strcmp(val, "32") && strcmp(val, "64"))
			return -EINVAL;
		p->bits = (unsigned)atoi(val);
	} else if (KEY("limit")) {
		char *end;
		unsigned long h = strtoul(val, &end, 10);
		if (!*val || *val == '-' || strcmp(end, "h") || h < 1 || h > 720)
			return -EINVAL;
		p->limit_hours = (unsigned)h;
	} else if (KEY("memory")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return -EINVAL;
		p->no_memory = !strcmp(val, "off");
	} else {
		return -ENOENT;
	}
#undef KEY
	return 0;
}
