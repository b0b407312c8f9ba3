/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Global dirty limits: dirtyable memory, the vm.dirty_* sysctls and the
 * thresholds computed from them. Mirrors global_dirtyable_memory(),
 * domain_dirty_limits(), the dirty_*_handler()s, writeback_set_ratelimit()
 * and update_dirty_limit() of mm/page-writeback.c (6.12–6.18). */
#ifndef WBGOV_MODEL_LIMITS_H
#define WBGOV_MODEL_LIMITS_H

#include "model/units.h"

/* Memory counters global_dirtyable_memory() reads, in pages. */
struct mem_counters {
	uint64_t free_pages;          /* NR_FREE_PAGES */
	uint64_t totalreserve_pages;  /* calculate_totalreserve_pages() */
	uint64_t file_lru_pages;      /* NR_ACTIVE_FILE + NR_INACTIVE_FILE */
	uint64_t highmem_dirtyable;   /* highmem_dirtyable_memory() before min(); 0 on 64-bit */
};

/* /proc/sys/vm/dirty_* */
struct vm_sysctl {
	unsigned dirty_ratio;              /* percent, 0..100 */
	unsigned dirty_background_ratio;   /* percent, 0..100 */
	uint64_t dirty_bytes;              /* 0 = ratio mode */
	uint64_t dirty_background_bytes;   /* 0 = ratio mode */
	unsigned dirty_expire_centisecs;
	unsigned dirty_writeback_centisecs;
};

enum vm_knob {
	VM_DIRTY_RATIO,
	VM_DIRTY_BACKGROUND_RATIO,
	VM_DIRTY_BYTES,
	VM_DIRTY_BACKGROUND_BYTES,
	VM_DIRTY_EXPIRE_CENTISECS,
	VM_DIRTY_WRITEBACK_CENTISECS,
	VM_KNOB_COUNT
};

/* The sysctls' names, as designated initializers (for arrays that extend
 * the enum, as the simulator's does) */
#define VM_KNOB_NAMES                                                                    \
	[VM_DIRTY_RATIO] = "dirty_ratio", [VM_DIRTY_BACKGROUND_RATIO] = "dirty_background_ratio", \
	[VM_DIRTY_BYTES] = "dirty_bytes", [VM_DIRTY_BACKGROUND_BYTES] = "dirty_background_bytes", \
	[VM_DIRTY_EXPIRE_CENTISECS] = "dirty_expire_centisecs",                          \
	[VM_DIRTY_WRITEBACK_CENTISECS] = "dirty_writeback_centisecs"
extern const char *const vm_knob_names[VM_KNOB_COUNT];

/* The kernel's defaults: 20 %, 10 %, bytes off, 30 s expiry, 5 s wakeups. */
void vm_sysctl_defaults(struct vm_sysctl *vm);
uint64_t vm_sysctl_get(const struct vm_sysctl *vm, enum vm_knob knob);

/* What a sysctl write did besides storing the value. */
struct vm_write_effect {
	bool set_ratelimit;   /* writeback_set_ratelimit() was called */
	bool flush_all;       /* dirty_writeback_centisecs: wakeup_flusher_threads() */
};

/* Write one knob with the kernel's handler semantics: range checks
 * (-EINVAL / -ERANGE, old value kept) and the twin knob zeroed ("the last one
 * written wins"). Returns 0 or -errno; `eff` may be NULL. */
int vm_sysctl_write(struct vm_sysctl *vm, enum vm_knob knob, uint64_t value,
		    struct vm_write_effect *eff);

/* global_dirtyable_memory(); `cap_pages` (0: none) counts dirtyable memory
 * up to that many pages: Linus's patch from the fourth mail with 1 GiB, and
 * kernel/'s 0002 (vm.dirty_ratio_max_bytes), which applies it where the
 * ratios are taken; *_bytes are absolute either way. */
uint64_t global_dirtyable_memory(const struct mem_counters *m, bool highmem_is_dirtyable,
				 uint64_t cap_pages);

/* domain_dirty_limits() for the global domain. `dom_dirty_limit` is
 * global_wb_domain.dirty_limit, used only for the rt boost. */
void domain_dirty_limits(const struct vm_sysctl *vm, uint64_t avail, bool rt_task,
			 uint64_t dom_dirty_limit, uint64_t *ret_thresh, uint64_t *ret_bg_thresh);

/* The global wb_domain's hard-limit state. */
struct wb_domain {
	uint64_t dirty_limit;        /* pages */
	uint64_t dirty_limit_tstamp; /* jiffies */
};

/* writeback_set_ratelimit(): also resets dom->dirty_limit. */
uint64_t writeback_set_ratelimit(const struct kcfg *k, struct wb_domain *dom, uint64_t thresh);

/* hard_dirty_limit() */
static inline uint64_t hard_dirty_limit(const struct wb_domain *dom, uint64_t thresh)
{
	return thresh > dom->dirty_limit ? thresh : dom->dirty_limit;
}

/* domain_update_dirty_limit() -> update_dirty_limit(), gated to one step per
 * BANDWIDTH_INTERVAL. */
void domain_update_dirty_limit(const struct kcfg *k, struct wb_domain *dom, uint64_t thresh,
			       uint64_t dirty, uint64_t now_jif);

/* dirty_freerun_ceiling() */
static inline uint64_t dirty_freerun_ceiling(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

#endif
