/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-bdi knobs and the per-wb threshold. Mirrors __bdi_set_min_ratio(),
 * __bdi_set_max_ratio(), bdi_set_max_bytes(), bdi_get_bytes(),
 * bdi_set_strict_limit() (mm/page-writeback.c, sysfs in mm/backing-dev.c)
 * and __wb_calc_thresh() as consolidated in 6.14. */
#ifndef WBGOV_MODEL_BDI_H
#define WBGOV_MODEL_BDI_H

#include "model/units.h"

struct bdi_knobs {
	uint32_t min_ratio;     /* ppm of the global threshold */
	uint32_t max_ratio;     /* ppm; 1,000,000 = no cap */
	uint32_t max_prop_frac; /* FPROP_FRAC_BASE * max_ratio / 1e6 */
	bool strict;            /* BDI_CAP_STRICTLIMIT */
};

/* The sysfs attributes of /sys/class/bdi/<bdi>/ that the model knows. */
enum bdi_attr {
	BDI_STRICT_LIMIT,
	BDI_MAX_BYTES,
	BDI_MIN_BYTES,
	BDI_MAX_RATIO,      /* percent */
	BDI_MIN_RATIO,      /* percent */
	BDI_MAX_RATIO_FINE, /* ppm */
	BDI_MIN_RATIO_FINE, /* ppm */
	BDI_ATTR_COUNT
};
/* The attributes' file names, as designated initializers (for arrays
 * that extend the enum, as the simulator's does) */
#define BDI_ATTR_NAMES                                                                   \
	[BDI_STRICT_LIMIT] = "strict_limit", [BDI_MAX_BYTES] = "max_bytes",              \
	[BDI_MIN_BYTES] = "min_bytes", [BDI_MAX_RATIO] = "max_ratio",                    \
	[BDI_MIN_RATIO] = "min_ratio", [BDI_MAX_RATIO_FINE] = "max_ratio_fine",          \
	[BDI_MIN_RATIO_FINE] = "min_ratio_fine"
extern const char *const bdi_attr_names[BDI_ATTR_COUNT];

/* bdi_init(): min 0, max 100 %, not strict. */
void bdi_knobs_init(struct bdi_knobs *b);

/* __bdi_set_max_ratio() / __bdi_set_min_ratio(). `bdi_min_ratio_sum` is the
 * kernel's global bdi_min_ratio (the sum over every bdi). 0 or -EINVAL. */
int bdi_set_max_ratio_ppm(struct bdi_knobs *b, uint64_t ratio);
int bdi_set_min_ratio_ppm(struct bdi_knobs *b, uint64_t ratio, uint64_t *bdi_min_ratio_sum);

/* bdi_set_max_bytes(): bytes -> ppm of the current global threshold
 * `thresh_now` (what global_dirty_limits() returns for the writer), refused
 * above dirtyable memory `avail`, at thresh 0, or above 100 %. */
int bdi_set_max_bytes(struct bdi_knobs *b, uint64_t bytes, uint64_t avail, uint64_t thresh_now);
int bdi_set_min_bytes(struct bdi_knobs *b, uint64_t bytes, uint64_t avail, uint64_t thresh_now,
		      uint64_t *bdi_min_ratio_sum);

/* bdi_get_bytes(): a ratio read back against the current threshold. */
uint64_t bdi_get_bytes(const struct kcfg *k, uint64_t ratio, uint64_t thresh_now);

/* Its inverse: the global threshold in bytes from a bdi's max_bytes and
 * max_ratio_fine as sysfs shows them; 0 when the ratio is 0. */
uint64_t global_thresh_from_bdi(uint64_t max_bytes, uint64_t ratio_ppm);

/* Everything __wb_calc_thresh() reads. */
struct wb_thresh_in {
	uint64_t thresh;            /* T: the domain's thresh or bg_thresh */
	uint64_t dirty;             /* the domain's dirty count filled by the caller */
	uint64_t numerator;         /* the wb's writeout fraction (fprop) */
	uint64_t denominator;
	uint64_t bdi_min_ratio_sum; /* bdi_min_ratio */
	uint64_t wb_min_ratio;      /* after wb_min_max_ratio() */
	uint64_t wb_max_ratio;
	bool strict;
};

/* __wb_calc_thresh() (6.14–6.18): the writeout share of T, plus min_ratio,
 * the idle floor ((T - dirty)/100 strict, /8 otherwise), capped by max_ratio
 * (the cap applies to the floor too). With k->kver 6.12 or 6.1, no floor;
 * 6.1 computes in whole percents (ppm / 10000). */
uint64_t wb_calc_thresh_pages(const struct kcfg *k, const struct wb_thresh_in *in);

/* wb_min_max_ratio() with cgroup writeback: a bdi's ratios split among its wbs
 * by bandwidth. With one wb per bdi (root cgroup) this returns them as is. */
void wb_min_max_ratio(const struct bdi_knobs *b, uint64_t this_bw, uint64_t tot_bw,
		      uint64_t *ret_min, uint64_t *ret_max);

#endif
