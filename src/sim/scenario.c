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
		.bw = { { .bps = bps } }, .nbw = 1, .queue_bytes = 16 * MIB,
	};
	return d;
}

static struct sim_dev_cfg ssd(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "sda", .model = "Samsung SSD 870 EVO", .serial = "S6PNNS0T512345",
		.bus = BUS_SATA, .bw = { { .bps = bps } }, .nbw = 1, .queue_bytes = 64 * MIB,
		.known = true,
	};
	return d;
}

static struct sim_dev_cfg nvme(uint64_t bps)
{
	struct sim_dev_cfg d = {
		.name = "nvme0n1", .model = "WD Black SN850X", .serial = "23123K800123",
		.bus = BUS_NVME, .bw = { { .bps = bps } }, .nbw = 1, .queue_bytes = 128 * MIB,
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
		.bus = BUS_VIRTUAL, .bw = { { .bps = bps } }, .nbw = 1, .queue_bytes = 4 * MIB,
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

/* Memory in use by default: a continuous, increasing share of the machine,
 * so that dirtyable memory grows with mem and has no step. At 16 GiB (every
 * built-in scenario) it is what the scenarios were written for: 96 MiB of
 * kernel memory and 1.5 GiB of applications. Below that both scale with the
 * machine: the kernel's own memory as 1/16 of it up to 96 MiB (reached at
 * 1.5 GiB), the applications as 1/8 of it up to 1.5 GiB (reached at 12 GiB;
 * 1/8 is what small machines had before). An idle 2 GiB machine then has
 * 2048 - 96 - 256 - 64 (reserve) = 1632 MiB dirtyable. */
void sim_params_memory(const struct sim_params *p, uint64_t *ret_mem, uint64_t *ret_kernel,
		       uint64_t *ret_used)
{
	uint64_t mem = or_default(p->mem_bytes, 16 * GIB);

	*ret_mem = mem;
	*ret_kernel = p->kernel_set ? p->kernel_bytes : (mem / 16 < 96 * MIB ? mem / 16 : 96 * MIB);
	*ret_used = p->used_set ? p->used_bytes : (mem / 8 < 1536 * MIB ? mem / 8 : 1536 * MIB);
}

int sim_params_check(const struct sim_params *p, char *err, size_t len)
{
	uint64_t mem, kernel, used;

	sim_params_memory(p, &mem, &kernel, &used);
	if (kernel + used < mem)
		return 0;
	if (err && len)
		snprintf(err, len,
			 "used=%llu MiB + kernel=%llu MiB of memory in use do not fit in mem=%llu MiB: "
			 "make used or kernel smaller, or mem larger",
			 (unsigned long long)(used / MIB), (unsigned long long)(kernel / MIB),
			 (unsigned long long)(mem / MIB));
	return -EINVAL;
}

int scenario_build(const char *name, const struct sim_params *p, struct scenario *sc)
{
	int id = -1;
	uint64_t mem, kernel, used;

	for (int i = 0; i < scenario_count; i++)
		if (!strcmp(name, scenario_names[i]))
			id = i;
	if (id < 0)
		return -ENOENT;
	if (sim_params_check(p, NULL, 0))
		return -EINVAL;
	sim_params_memory(p, &mem, &kernel, &used);
	memset(sc, 0, sizeof(*sc));
	sc->name = scenario_names[id];
	sc->summary = summaries[id];
	sc->kernel = (struct sim_kernel_cfg){
		.k = { .hz = or_default(p->hz, 250), .long_bits = or_default(p->bits, 64), .ncpus = 4 },
		.mem_bytes = mem,
		.kernel_bytes = kernel,
		.anon_bytes = used,
		.reserve_bytes = 64 * MIB,
		.lowmem_bytes = 896 * MIB,
	};

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
		sc->dev[0].bw[0] = (struct sim_bw_seg){ .bps = 60 * MB, .for_bytes = GIB };
		sc->dev[0].bw[1] = (struct sim_bw_seg){ .bps = slow };
		sc->dev[0].nbw = 2;
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
	} else if (KEY("used") || KEY("kernel")) {
		/* whether it fits in mem is sim_params_check's: mem may come later */
		if (parse_size(val, &v) || v > 1024 * GIB)
			return -EINVAL;
		if (KEY("used")) {
			p->used_bytes = v;
			p->used_set = true;
		} else {
			p->kernel_bytes = v;
			p->kernel_set = true;
		}
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
