/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "model/limits.h"

const char *const vm_knob_names[VM_KNOB_COUNT] = { VM_KNOB_NAMES };

void vm_sysctl_defaults(struct vm_sysctl *vm)
{
	vm->dirty_ratio = 20;
	vm->dirty_background_ratio = 10;
	vm->dirty_bytes = 0;
	vm->dirty_background_bytes = 0;
	vm->dirty_expire_centisecs = 3000;
	vm->dirty_writeback_centisecs = 500;
}

uint64_t vm_sysctl_get(const struct vm_sysctl *vm, enum vm_knob knob)
{
	switch (knob) {
	case VM_DIRTY_RATIO: return vm->dirty_ratio;
	case VM_DIRTY_BACKGROUND_RATIO: return vm->dirty_background_ratio;
	case VM_DIRTY_BYTES: return vm->dirty_bytes;
	case VM_DIRTY_BACKGROUND_BYTES: return vm->dirty_background_bytes;
	case VM_DIRTY_EXPIRE_CENTISECS: return vm->dirty_expire_centisecs;
	case VM_DIRTY_WRITEBACK_CENTISECS: return vm->dirty_writeback_centisecs;
	case VM_KNOB_COUNT: break;
	}
	return 0;
}

/* DIV_ROUND_UP(bytes, PAGE_SIZE) > UINT_MAX is -ERANGE in the *_bytes handlers. */
static bool bytes_over_uint_pages(uint64_t bytes)
{
	return (bytes + PAGE_SIZE - 1) / PAGE_SIZE > UINT_MAX_PAGES;
}

int vm_sysctl_write(struct vm_sysctl *vm, enum vm_knob knob, uint64_t value,
		    struct vm_write_effect *eff)
{
	struct vm_write_effect none = { 0 };

	if (!eff)
		eff = &none;
	*eff = none;

	switch (knob) {
	case VM_DIRTY_RATIO: /* dirty_ratio_handler(): twin zeroed only if changed */
		if (value > 100)
			return -EINVAL;
		if (value != vm->dirty_ratio) {
			vm->dirty_ratio = (unsigned)value;
			vm->dirty_bytes = 0;
			eff->set_ratelimit = true;
		}
		return 0;
	case VM_DIRTY_BACKGROUND_RATIO: /* always zeroes dirty_background_bytes */
		if (value > 100)
			return -EINVAL;
		vm->dirty_background_ratio = (unsigned)value;
		vm->dirty_background_bytes = 0;
		return 0;
	case VM_DIRTY_BYTES: /* dirty_bytes_min = 2 pages */
		if (value < 2 * PAGE_SIZE)
			return -EINVAL;
		if (value != vm->dirty_bytes) {
			if (bytes_over_uint_pages(value))
				return -ERANGE;
			vm->dirty_bytes = value;
			vm->dirty_ratio = 0;
			eff->set_ratelimit = true;
		}
		return 0;
	case VM_DIRTY_BACKGROUND_BYTES: /* minimum 1 */
		if (value < 1)
			return -EINVAL;
		if (bytes_over_uint_pages(value))
			return -ERANGE;
		vm->dirty_background_bytes = value;
		vm->dirty_background_ratio = 0;
		return 0;
	case VM_DIRTY_EXPIRE_CENTISECS:
		if (value > 0x7fffffff)
			return -EINVAL;
		vm->dirty_expire_centisecs = (unsigned)value;
		return 0;
	case VM_DIRTY_WRITEBACK_CENTISECS:
		if (value > 0x7fffffff)
			return -EINVAL;
		if (value && value != vm->dirty_writeback_centisecs)
			eff->flush_all = true;
		vm->dirty_writeback_centisecs = (unsigned)value;
		return 0;
	case VM_KNOB_COUNT:
		break;
	}
	return -EINVAL;
}

uint64_t global_dirtyable_memory(const struct mem_counters *m, bool highmem_is_dirtyable,
				 uint64_t cap_pages)
{
	uint64_t x = m->free_pages;

	x -= min_u64(x, m->totalreserve_pages);
	x += m->file_lru_pages;
	if (!highmem_is_dirtyable) {
		x -= min_u64(m->highmem_dirtyable, x);
		/* mail 004: "just say that anything over 1GB is highmem" */
		if (cap_pages && x > cap_pages)
			x = cap_pages;
	}
	return x + 1; /* never 0 */
}

void domain_dirty_limits(const struct vm_sysctl *vm, uint64_t avail, bool rt_task,
			 uint64_t dom_dirty_limit, uint64_t *ret_thresh, uint64_t *ret_bg_thresh)
{
	/* ratios per-PAGE_SIZE for precision: 20 % -> 819/4096 */
	uint64_t ratio = vm->dirty_ratio * PAGE_SIZE / 100;
	uint64_t bg_ratio = vm->dirty_background_ratio * PAGE_SIZE / 100;
	uint64_t thresh, bg_thresh;

	if (vm->dirty_bytes)
		thresh = (vm->dirty_bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	else
		thresh = ratio * avail / PAGE_SIZE;
	if (vm->dirty_background_bytes)
		bg_thresh = (vm->dirty_background_bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	else
		bg_thresh = bg_ratio * avail / PAGE_SIZE;

	if (rt_task) { /* rt_or_dl_task(current) */
		bg_thresh += bg_thresh / 4 + dom_dirty_limit / 32;
		thresh += thresh / 4 + dom_dirty_limit / 32;
	}
	if (thresh > UINT_MAX_PAGES)
		thresh = UINT_MAX_PAGES;
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	*ret_thresh = thresh;
	*ret_bg_thresh = bg_thresh;
}

uint64_t writeback_set_ratelimit(const struct kcfg *k, struct wb_domain *dom, uint64_t thresh)
{
	uint64_t rl;

	dom->dirty_limit = thresh;
	rl = thresh / (k->ncpus * 32);
	return rl < 16 ? 16 : rl;
}

void domain_update_dirty_limit(const struct kcfg *k, struct wb_domain *dom, uint64_t thresh,
			       uint64_t dirty, uint64_t now_jif)
{
	uint64_t limit = dom->dirty_limit;

	if (now_jif < dom->dirty_limit_tstamp + bandwidth_interval_jif(k))
		return;
	dom->dirty_limit_tstamp = now_jif;
	/* update_dirty_limit(): follow up at once, down by 1/32 of the gap */
	if (limit < thresh) {
		dom->dirty_limit = thresh;
		return;
	}
	thresh = max_u64(thresh, dirty);
	if (limit > thresh)
		dom->dirty_limit = limit - ((limit - thresh) >> 5);
}
