/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/parse.h"
#include "sim/scenario.h"

#define MB 1000000ULL

static uint64_t or_default(uint64_t v, uint64_t def) { return v ? v : def; }

void scenario_task_files(uint64_t size, uint64_t file_size, uint64_t *ret_files,
			 uint64_t *ret_file_bytes)
{
	uint64_t fb = file_size && file_size <= size ? file_size : size;

	fb = (fb + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	*ret_file_bytes = fb;
	*ret_files = fb ? (size + fb - 1) / fb : 1;
	if (!*ret_files)
		*ret_files = 1;
}

/* Memory in use by default: a continuous, increasing share of the machine,
 * so that dirtyable memory grows with mem and has no step. At 16 GiB (every
 * built-in scenario) it is what the scenarios were written for: 96 MiB of
 * kernel memory and 1.5 GiB of applications. Below that both scale with the
 * machine: the kernel's own memory as 1/16 of it up to 96 MiB (reached at
 * 1.5 GiB), the applications as 1/8 of it up to 1.5 GiB (reached at 12 GiB;
 * 1/8 is what small machines had before). An idle 2 GiB machine then has
 * 2048 - 96 - 256 - 64 (reserve) = 1632 MiB dirtyable. */
void scenario_memory_defaults(uint64_t mem, uint64_t *ret_kernel, uint64_t *ret_used)
{
	*ret_kernel = mem / 16 < 96 * MIB ? mem / 16 : 96 * MIB;
	*ret_used = mem / 8 < 1536 * MIB ? mem / 8 : 1536 * MIB;
}

void sim_params_memory(const struct sim_params *p, uint64_t *ret_mem, uint64_t *ret_kernel,
		       uint64_t *ret_used)
{
	uint64_t mem = or_default(p->mem_bytes, 16 * GIB);

	*ret_mem = mem;
	scenario_memory_defaults(mem, ret_kernel, ret_used);
	if (p->kernel_set)
		*ret_kernel = p->kernel_bytes;
	if (p->used_set)
		*ret_used = p->used_bytes;
}

/* Memory in use that does not fit in memory: -EINVAL, saying so in `err`. */
static int misfit(uint64_t used, uint64_t kernel, uint64_t mem, char *err, size_t len)
{
	if (err && len)
		snprintf(err, len,
			 "used=%llu MiB + kernel=%llu MiB of memory in use do not fit in mem=%llu MiB: "
			 "make used or kernel smaller, or mem larger",
			 (unsigned long long)(used / MIB), (unsigned long long)(kernel / MIB),
			 (unsigned long long)(mem / MIB));
	return -EINVAL;
}

int sim_params_check(const struct sim_params *p, char *err, size_t len)
{
	uint64_t mem, kernel, used;

	sim_params_memory(p, &mem, &kernel, &used);
	if (kernel + used < mem)
		return 0;
	return misfit(used, kernel, mem, err, len);
}

int scenario_apply(struct scenario *sc, const struct sim_params *p, char *err, size_t len)
{
	struct sim_kernel_cfg *k = &sc->kernel;
	uint64_t mem = or_default(p->mem_bytes, k->mem_bytes), kernel, used;
	int mt = -1;

	scenario_memory_defaults(mem, &kernel, &used);
	if (p->kernel_set)
		kernel = p->kernel_bytes;
	else if (sc->kernel_mem_set)
		kernel = k->kernel_bytes;
	if (p->used_set)
		used = p->used_bytes;
	else if (sc->used_set)
		used = k->anon_bytes;
	if (kernel + used >= mem)
		return misfit(used, kernel, mem, err, len);
	k->mem_bytes = mem;
	k->kernel_bytes = kernel;
	k->anon_bytes = used;
	sc->used_set |= p->used_set;
	sc->kernel_mem_set |= p->kernel_set;
	if (p->hz)
		k->k.hz = p->hz;
	if (p->bits)
		k->k.long_bits = p->bits;
	if (p->speed_bps) {
		struct sim_dev_cfg *d = &sc->dev[sc->main_dev];
		d->bw[d->nbw - 1].bps = p->speed_bps;
	}
	for (int i = 0; i < sc->ntask; i++)
		if (sc->role[i] == ROLE_MAIN || sc->role[i] == ROLE_MAIN_FAST)
			mt = i;
	if (p->size_bytes && mt >= 0) {
		uint64_t files, fb;
		scenario_task_files(p->size_bytes, sc->task_file_size[mt], &files, &fb);
		if (files > SCEN_MAX_FILES) {
			if (err && len)
				snprintf(err, len, "size=%llu MiB: writer %s would write %llu files of "
					 "%llu KiB; at most %d",
					 (unsigned long long)(p->size_bytes / MIB), sc->task_name[mt],
					 (unsigned long long)files, (unsigned long long)(fb / 1024),
					 SCEN_MAX_FILES);
			return -EINVAL;
		}
		sc->task_size[mt] = p->size_bytes;
		sc->task[mt].files = files;
		sc->task[mt].file_bytes = fb;
	}
	if (p->rate_bps && mt >= 0)
		sc->task[mt].rate_bps = p->rate_bps;
	return 0;
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
	} else if (KEY("speed") || KEY("rate")) {
		if (parse_speed(val, &v) || v < 10000 || v > 100000 * MB)
			return -EINVAL;
		*(KEY("speed") ? &p->speed_bps : &p->rate_bps) = v;
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
	} else if (KEY("seed")) {
		char *end;
		unsigned long long n;
		errno = 0;
		n = strtoull(val, &end, 10);
		if (*val < '0' || *val > '9' || *end || errno || n > 1000000)
			return -EINVAL;
		p->seed = n;
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
