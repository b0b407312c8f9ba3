/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Constants and integer helpers shared by the kernel model.
 *
 * Counts are 4 KiB pages, rates pages per second, times jiffies; ratios are
 * ppm of the global threshold like the kernel's BDI_RATIO_SCALE. Every helper
 * here is pure. See docs/kernel-notes.md, appendix "constants". */
#ifndef WBGOV_MODEL_UNITS_H
#define WBGOV_MODEL_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ULL << PAGE_SHIFT)
#define BDI_RATIO_SCALE 10000ULL           /* include/linux/backing-dev.h */
#define RATIO_FULL (100 * BDI_RATIO_SCALE) /* 100 % = 1,000,000 ppm */
#define FPROP_FRAC_SHIFT 10                /* include/linux/flex_proportions.h */
#define FPROP_FRAC_BASE (1U << FPROP_FRAC_SHIFT)
#define RATELIMIT_CALC_SHIFT 10 /* mm/page-writeback.c: pos_ratio 1.0 = 1024 */
#define DIRTY_SCOPE 8           /* include/linux/writeback.h */
#define MIN_WRITEBACK_PAGES (4096ULL >> (PAGE_SHIFT - 10)) /* fs/fs-writeback.c */
#define DIRTY_POLL_THRESH (128UL >> (PAGE_SHIFT - 10))     /* 32 pages */
#define INIT_BW (100ULL << (20 - PAGE_SHIFT)) /* mm/backing-dev.c: 100 MiB/s */
#define UINT_MAX_PAGES 4294967295ULL          /* thresholds are clamped to UINT_MAX */

#define KIB 1024ULL
#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)

/* Bytes for a person to read, in IEC units: "1.5 GiB", "24.0 MiB", and
 * under 1 MiB whole KiB to the nearest ("2 KiB", "1024 KiB" just below
 * 1 MiB), as wbgovd's log says them. The flags fit other readers: */
#define BYTES_KIB_DOWN 1u  /* KiB rounded down (what wbgov's progress lines and
                            * tables show, as pv does): "1023 KiB", never 1 MiB */
#define BYTES_MIB_SHORT 2u /* whole MiB from 10 MiB on ("120 MiB"): a desktop
                            * notification's title is short */
void bytes_text(char *buf, size_t len, uint64_t bytes, unsigned flags);

/* The kernel releases whose throttling arithmetic the model tells apart
 * (docs/kernel-notes.md §0.2, §3.4, §5): 6.14–6.18 (the reference); 6.2–6.12,
 * without the idle floor in __wb_calc_thresh but with the older one in
 * wb_position_ratio() and the `wb_dirty < 8` rules of strict wbs; 6.1, the
 * same with ratios in percent (no BDI_RATIO_SCALE) and no per-bdi
 * strict_limit or max_bytes. */
enum sim_kver { KVER_6_18 = 0, KVER_6_12, KVER_6_1 };

/* Where balance_dirty_pages() starts background writeback, which changed
 * after 6.18 (docs/kernel-notes.md §0.2):
 * - BDP_START_BOTH: when the global dirty count is above the background
 *   threshold, and whenever the writer is not free-running (6.1-6.18 with
 *   laptop_mode 0; 7.0, where cece9dc61daa put the second back);
 * - BDP_START_GLOBAL: the first alone (64dd89ae01f2 removed laptop_mode
 *   and the second with it: 7.0-rc1 to rc6). A strictlimit or memcg
 *   writer throttled below the global background threshold then waits
 *   for the flusher's periodic wakeup;
 * - BDP_START_WB: both, and a strictlimit wb above its own background
 *   threshold before it is throttled (0437906841d0, 7.1). */
enum bdp_start { BDP_START_BOTH = 0, BDP_START_GLOBAL, BDP_START_WB };

/* What differs between kernels the model runs as: HZ (a build option;
 * Debian's amd64 kernels use 250), the width of `unsigned long` (32-bit
 * kernels wrap some products, KERNEL-NOTES §10.18), the number of CPUs,
 * the release (0: 6.18) and whether kernel/'s series is applied where it
 * changes the model's arithmetic. */
struct kcfg {
	unsigned hz;
	unsigned long_bits; /* 64 or 32 */
	unsigned ncpus;
	enum sim_kver kver;
	enum bdp_start bdp_start;
	bool bw_idle_restart; /* the series' first patch: an update after more
				 than 1 s with nothing written and no inode
				 under writeback restarts the estimator's
				 period instead of dividing by the idle time */
};

static inline uint64_t bytes_to_pages(uint64_t bytes) { return bytes >> PAGE_SHIFT; }
static inline uint64_t pages_to_bytes(uint64_t pages) { return pages << PAGE_SHIFT; }

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max_i64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ilog2(): floor(log2(x)); ilog2(0) is undefined in the kernel, 0 here. */
static inline unsigned ilog2_u64(uint64_t x)
{
	unsigned r = 0;
	while (x >>= 1)
		r++;
	return r;
}

/* roundup_pow_of_two() */
static inline uint64_t rp2(uint64_t x)
{
	uint64_t r = 1;
	while (r < x)
		r <<= 1;
	return r;
}

/* An `unsigned long` product as the kernel computes it: wraps at 32 bits on
 * 32-bit kernels (e.g. `thresh * (100 * BDI_RATIO_SCALE - bdi_min_ratio)` in
 * __wb_calc_thresh). */
static inline uint64_t ul_mul(const struct kcfg *k, uint64_t a, uint64_t b)
{
	uint64_t p = a * b;
	return k->long_bits == 32 ? (p & 0xffffffffULL) : p;
}

/* Truncate a value to the kernel's unsigned long. */
static inline uint64_t ul(const struct kcfg *k, uint64_t a)
{
	return k->long_bits == 32 ? (a & 0xffffffffULL) : a;
}

/* MAX_PAUSE and BANDWIDTH_INTERVAL: max(HZ/5, 1) — 200 ms. */
static inline uint64_t max_pause_jif(const struct kcfg *k) { return k->hz / 5 ? k->hz / 5 : 1; }
static inline uint64_t bandwidth_interval_jif(const struct kcfg *k) { return max_pause_jif(k); }

/* msecs_to_jiffies() for whole results (round up, as the kernel does). */
static inline uint64_t msecs_to_jiffies(const struct kcfg *k, uint64_t ms)
{
	return (ms * k->hz + 999) / 1000;
}

#endif
