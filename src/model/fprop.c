/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/fprop.h"
#include "model/units.h"

void fprop_global_init(struct fprop_global *p)
{
	p->events = 1;
	p->period = 0;
	p->period_time = 0;
}

void fprop_local_init(struct fprop_local *pl)
{
	pl->events = 0;
	pl->period = 0;
}

bool fprop_new_period(struct fprop_global *p, unsigned periods)
{
	if (p->events <= 1)
		return false;
	if (periods < 64)
		p->events -= p->events - (p->events >> periods);
	else
		p->events = 0;
	p->period += periods;
	return true;
}

/* fprop_reflect_period_percpu(): age a local counter lazily. */
static void fprop_reflect_period(const struct fprop_global *p, struct fprop_local *pl)
{
	unsigned period = p->period;

	if (pl->period == period)
		return;
	if (period - pl->period < 64)
		pl->events >>= (period - pl->period);
	else
		pl->events = 0;
	pl->period = period;
}

void fprop_fraction(struct fprop_global *p, struct fprop_local *pl, uint64_t *ret_num,
		    uint64_t *ret_den)
{
	int64_t num, den;

	fprop_reflect_period(p, pl);
	num = pl->events > 0 ? pl->events : 0;
	den = p->events > 0 ? p->events : 0;
	if (den <= num)
		den = num ? num : 1;
	*ret_num = (uint64_t)num;
	*ret_den = (uint64_t)den;
}

void wb_domain_writeout_add(struct fprop_global *p, struct fprop_local *pl,
			    unsigned max_prop_frac, int64_t nr, uint64_t now_jif,
			    uint64_t period_len_jif)
{
	bool count = true;

	/* __fprop_add_percpu_max() */
	if (max_prop_frac < FPROP_FRAC_BASE) {
		uint64_t n, d;
		int64_t tmp;

		fprop_fraction(p, pl, &n, &d);
		tmp = (int64_t)(d * max_prop_frac) - (int64_t)(n << FPROP_FRAC_SHIFT);
		if (tmp < 0)
			count = false; /* the cap is already reached: the event is dropped */
		else if (tmp < nr * (int64_t)(FPROP_FRAC_BASE - max_prop_frac))
			nr = (tmp + FPROP_FRAC_BASE - max_prop_frac - 1) /
			     (FPROP_FRAC_BASE - max_prop_frac);
	}
	/* __fprop_add_percpu() */
	if (count) {
		fprop_reflect_period(p, pl);
		pl->events += nr;
		p->events += nr;
	}

	/* First event after period switching was turned off? (wp_next_time) */
	if (!p->period_time) {
		p->period_time = now_jif + period_len_jif;
		if (!p->period_time)
			p->period_time = 1;
	}
}

void writeout_period(struct fprop_global *p, uint64_t now_jif, uint64_t period_len_jif)
{
	uint64_t miss = (now_jif - p->period_time) / period_len_jif;

	if (fprop_new_period(p, (unsigned)(miss + 1))) {
		p->period_time = p->period_time + miss * period_len_jif + period_len_jif;
		if (!p->period_time)
			p->period_time = 1;
	} else {
		p->period_time = 0; /* aging zeroed everything: stop the timer */
	}
}
