/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>

#include "model/bdi.h"

const char *const bdi_attr_names[BDI_ATTR_COUNT] = { BDI_ATTR_NAMES };

void bdi_knobs_init(struct bdi_knobs *b)
{
	b->min_ratio = 0;
	b->max_ratio = (uint32_t)RATIO_FULL;
	b->max_prop_frac = FPROP_FRAC_BASE;
	b->strict = false;
}

int bdi_set_max_ratio_ppm(struct bdi_knobs *b, uint64_t ratio)
{
	if (ratio > RATIO_FULL)
		return -EINVAL;
	if (b->min_ratio > ratio)
		return -EINVAL;
	b->max_ratio = (uint32_t)ratio;
	b->max_prop_frac = (uint32_t)(FPROP_FRAC_BASE * ratio / RATIO_FULL);
	return 0;
}

int bdi_set_min_ratio_ppm(struct bdi_knobs *b, uint64_t ratio, uint64_t *bdi_min_ratio_sum)
{
	if (ratio > RATIO_FULL)
		return -EINVAL;
	if (ratio > b->max_ratio)
		return -EINVAL;
	if (ratio < b->min_ratio) {
		*bdi_min_ratio_sum -= b->min_ratio - ratio;
		b->min_ratio = (uint32_t)ratio;
		return 0;
	}
	/* the sum over all bdis must stay strictly below 100 % */
	if (*bdi_min_ratio_sum + (ratio - b->min_ratio) >= RATIO_FULL)
		return -EINVAL;
	*bdi_min_ratio_sum += ratio - b->min_ratio;
	b->min_ratio = (uint32_t)ratio;
	return 0;
}

/* bdi_check_pages_limit() + bdi_ratio_from_pages() */
static int64_t ratio_from_bytes(uint64_t bytes, uint64_t avail, uint64_t thresh_now)
{
	uint64_t pages = bytes >> PAGE_SHIFT;

	if (pages > avail)
		return -EINVAL;
	if (!thresh_now)
		return -EINVAL;
	return (int64_t)(pages * RATIO_FULL / thresh_now);
}

int bdi_set_max_bytes(struct bdi_knobs *b, uint64_t bytes, uint64_t avail, uint64_t thresh_now)
{
	int64_t r = ratio_from_bytes(bytes, avail, thresh_now);

	if (r < 0)
		return (int)r;
	return bdi_set_max_ratio_ppm(b, (uint64_t)r);
}

int bdi_set_min_bytes(struct bdi_knobs *b, uint64_t bytes, uint64_t avail, uint64_t thresh_now,
		      uint64_t *bdi_min_ratio_sum)
{
	int64_t r = ratio_from_bytes(bytes, avail, thresh_now);

	if (r < 0)
		return (int)r;
	return bdi_set_min_ratio_ppm(b, (uint64_t)r, bdi_min_ratio_sum);
}

uint64_t bdi_get_bytes(const struct kcfg *k, uint64_t ratio, uint64_t thresh_now)
{
	/* (dirty_thresh * PAGE_SIZE * ratio): unsigned long, then u64 */
	uint64_t p = ul_mul(k, ul_mul(k, thresh_now, PAGE_SIZE), ratio);
	return p / BDI_RATIO_SCALE / 100;
}

uint64_t global_thresh_from_bdi(uint64_t max_bytes, uint64_t ratio_ppm)
{
	if (!ratio_ppm)
		return 0;
	/* split to stay within 64 bits for any max_bytes */
	return max_bytes / ratio_ppm * RATIO_FULL + max_bytes % ratio_ppm * RATIO_FULL / ratio_ppm;
}

void wb_min_max_ratio(const struct bdi_knobs *b, uint64_t this_bw, uint64_t tot_bw,
		      uint64_t *ret_min, uint64_t *ret_max)
{
	uint64_t mn = b->min_ratio, mx = b->max_ratio;

	if (this_bw < tot_bw) {
		if (mn)
			mn = mn * this_bw / tot_bw;
		if (mx < RATIO_FULL)
			mx = mx * this_bw / tot_bw;
	}
	*ret_min = mn;
	*ret_max = mx;
}

uint64_t wb_calc_thresh_pages(const struct kcfg *k, const struct wb_thresh_in *in)
{
	uint64_t T = in->thresh;
	/* before 6.2 the ratios are whole percents of 100, after ppm of 1e6:
	 * the same value, but the products wrap later on 32-bit kernels */
	uint64_t full = k->kver == KVER_6_1 ? 100 : RATIO_FULL;
	uint64_t unit = RATIO_FULL / full;
	uint64_t w, wb_max_thresh;

	/* the share: products in unsigned long, then widened */
	w = ul_mul(k, T, full - in->bdi_min_ratio_sum / unit) / full;
	w *= in->numerator;
	w /= in->denominator ? in->denominator : 1;
	w += ul_mul(k, T, in->wb_min_ratio / unit) / full;

	/* the idle floor (6.14+): an inactive device still gets a usable
	 * threshold. Before, __wb_calc_thresh() has none (6.12, 6.1: the
	 * non-strict floor is in wb_position_ratio(), not capped, and the
	 * flusher's threshold has no floor at all). */
	if (k->kver == KVER_6_18 && T > in->dirty) {
		uint64_t floor = (T - in->dirty) / (in->strict ? 100 : 8);
		if (w < floor)
			w = floor;
	}
	wb_max_thresh = ul_mul(k, T, in->wb_max_ratio / unit) / full;
	if (w > wb_max_thresh)
		w = wb_max_thresh;
	return w;
}
