/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flexible proportions: each wb's share of recent writeback completions.
 * Mirrors lib/flex_proportions.c (exact sums: the per-CPU counter error of
 * the kernel is not modelled) and the period timer of mm/page-writeback.c. */
#ifndef WBGOV_MODEL_FPROP_H
#define WBGOV_MODEL_FPROP_H

#include <stdbool.h>
#include <stdint.h>

struct fprop_global {
	int64_t events;  /* starts at 1 (fprop_global_init) */
	unsigned period;
	uint64_t period_time; /* wb_domain.period_time: next timer expiry, 0 = off */
};

struct fprop_local {
	int64_t events;
	unsigned period;
};

void fprop_global_init(struct fprop_global *p);
void fprop_local_init(struct fprop_local *pl);

/* fprop_new_period(): age by `periods`; false when nothing is left to age. */
bool fprop_new_period(struct fprop_global *p, unsigned periods);

/* fprop_fraction_percpu(): the wb's share as numerator/denominator. */
void fprop_fraction(struct fprop_global *p, struct fprop_local *pl, uint64_t *ret_num,
		    uint64_t *ret_den);

/* wb_domain_writeout_add() -> __fprop_add_percpu_max(): count `nr` completed
 * pages, honouring max_prop_frac (a bdi's max_ratio), and start the period
 * timer if it was off. */
void wb_domain_writeout_add(struct fprop_global *p, struct fprop_local *pl,
			    unsigned max_prop_frac, int64_t nr, uint64_t now_jif,
			    uint64_t period_len_jif);

/* writeout_period(): the timer callback, run when now >= period_time. */
void writeout_period(struct fprop_global *p, uint64_t now_jif, uint64_t period_len_jif);

#endif
