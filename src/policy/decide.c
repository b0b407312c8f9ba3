#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "policy/decide.h"

const char *const gov_why_text[] = {
	[WHY_MEASURED] = "measured bandwidth x target",
	[WHY_FLOOR] = "measured bandwidth x target, raised to the floor",
	[WHY_FAST] = "a fast device (bandwidth x target above the ceiling): fast_target seconds of bandwidth",
	[WHY_UNMEASURED_SLOW] = "not measured yet; USB, removable or rotational: a small start",
	[WHY_UNMEASURED_FAST] = "not measured yet; an internal solid-state disk: no cap",
	[WHY_FIXED] = "a [device] section: mode fixed",
	[WHY_OFF] = "a [device] section: mode off",
	[WHY_ABOVE_GLOBAL] = "the cap would exceed the global dirty threshold, which bounds it already",
	[WHY_DRAINS_FAST] = "a fast device that drains the whole global dirty threshold within global_drain: no cap",
};

void gov_config_defaults(struct gov_config *c)
{
	memset(c, 0, sizeof(*c));
	c->target_ms = 1000;
	c->floor_bytes = 4 * MIB;
	c->ceiling_bytes = 256 * MIB;
	/* 2 s: DESIGN.md measured a strict cap of 1 s of a 300 MB/s device
	 * costing 23 % of its throughput, 2 s only 1 % */
	c->fast_target_ms = 2000;
	/* 10 s: measured on 6.18, a strict cap that first bites in the middle
	 * of a stream throttles the writer at the bdi's dirty ratelimit, which
	 * starts at 100 MiB/s and ramps slowly: 2 GiB dd + sync to a 1-2 GB/s
	 * device took 1.20 x as long. A device that drains the whole global
	 * threshold in seconds gains nothing from a cap. */
	c->global_drain_ms = 10000;
	c->initial_bytes = 16 * MIB;
}

const struct gov_rule *gov_match(const struct gov_config *c, const struct knobs_dev *d)
{
	char devnum[32];

	snprintf(devnum, sizeof(devnum), "%u:%u", d->major, d->minor);
	for (int i = 0; i < c->nrules; i++) {
		const struct gov_rule *r = &c->rules[i];
		const char *v = r->kind == MATCH_SERIAL ? d->serial :
				r->kind == MATCH_MODEL  ? d->model :
				r->kind == MATCH_BUS    ? d->bus :
							  devnum;
		if (v[0] && !strcmp(v, r->value))
			return r;
	}
	return NULL;
}

void gov_decide(const struct gov_config *c, const struct knobs_dev *d, uint64_t bw_bps,
		uint64_t global_thresh_bytes, struct gov_decision *ret)
{
	const struct gov_rule *r = gov_match(c, d);
	uint64_t target_ms = c->target_ms, cap;

	memset(ret, 0, sizeof(*ret));
	ret->rule = r;
	ret->govern = true;
	if (r && r->mode == MODE_OFF) {
		ret->govern = false;
		ret->why = WHY_OFF;
		return;
	}
	if (r && r->mode == MODE_FIXED) {
		ret->strict = true;
		ret->max_bytes = r->fixed_bytes;
		ret->why = WHY_FIXED;
		return;
	}
	if (r && r->target_ms)
		target_ms = r->target_ms;
	if (!bw_bps) {
		if (!strcmp(d->bus, "usb") || d->removable || d->rotational) {
			ret->strict = true;
			ret->max_bytes = c->initial_bytes;
			ret->why = WHY_UNMEASURED_SLOW;
		} else {
			ret->why = WHY_UNMEASURED_FAST;
		}
		return;
	}
	cap = bw_bps * target_ms / 1000;
	ret->strict = true;
	ret->why = WHY_MEASURED;
	if (cap > c->ceiling_bytes) {
		if (global_thresh_bytes && global_thresh_bytes <= bw_bps * c->global_drain_ms / 1000) {
			ret->strict = false;
			ret->why = WHY_DRAINS_FAST;
			return;
		}
		cap = bw_bps * c->fast_target_ms / 1000;
		if (cap < c->ceiling_bytes)
			cap = c->ceiling_bytes;
		ret->why = WHY_FAST;
	} else if (cap < c->floor_bytes) {
		cap = c->floor_bytes;
		ret->why = WHY_FLOOR;
	}
	ret->max_bytes = cap;
}
