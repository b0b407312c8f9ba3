/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "model/units.h"
#include "policy/decide.h"

const char *const gov_why_text[WHY_COUNT] = {
	[WHY_MEASURED] = "measured bandwidth x target, less 256 KiB of sync slack",
	[WHY_FLOOR] = "measured bandwidth x target, less 256 KiB of sync slack, raised to the floor",
	[WHY_FAST] = "a fast device (bandwidth x target above the ceiling): fast_target seconds of bandwidth",
	[WHY_UNMEASURED] = "not measured yet: the start cap",
	[WHY_LOWER_BOUND] = "not yet seen with a backlog of its own: the start cap",
	[WHY_RAMP] = "not measured yet, and outrunning its start cap: grown while it does, up to 64 MiB",
	[WHY_HELD] = "not measured yet, and a cap held its writer rather than the device: no cap until measured",
	[WHY_FIXED] = "a [device] section: mode fixed",
	[WHY_OFF] = "a [device] section: mode off",
	[WHY_ABOVE_GLOBAL] = "the cap would exceed the global dirty threshold, which bounds it already",
	[WHY_DRAINS_FAST] = "a fast device that drains the whole global dirty threshold within global_drain: no cap",
	[WHY_FAILING] = "it fails commands: no cap while it does, so that its writers get the errors instead of waiting on data it cannot write",
	[WHY_THROTTLED] = "a cgroup's write throttle on its disk (io.max or blkio) bounds its speed: the throttle's rate x target, less 256 KiB of sync slack",
};

bool gov_fast(const struct gov_settings *s, uint64_t bw_bps)
{
	return bw_bps * s->target_ms / 1000 > s->ceiling_bytes;
}

static void decide(const struct gov_settings *s, const struct gov_input *in,
		   struct gov_decision *ret)
{
	uint64_t floor = s->floor_bytes, cap;
	uint64_t start = in->start_bytes > s->initial_bytes ? in->start_bytes : s->initial_bytes;
	enum gov_why start_why = in->start_bytes > s->initial_bytes ? WHY_RAMP : WHY_UNMEASURED;

	memset(ret, 0, sizeof(*ret));
	ret->rule = s->rule;
	ret->govern = true;
	if (s->mode == MODE_OFF) {
		ret->govern = false;
		ret->why = WHY_OFF;
		return;
	}
	if (in->failing) {
		/* a strict cap over pages that cannot be written holds their
		 * writer for good (measured under qemu on 6.1: a stick failing
		 * every write kept dd waiting under the global pair until its
		 * timeout; without a cap it got its errors) */
		ret->why = WHY_FAILING;
		return;
	}
	ret->strict = true;
	if (s->mode == MODE_FIXED) {
		ret->max_bytes = s->fixed_bytes;
		ret->why = WHY_FIXED;
		return;
	}
	if (in->min_cap_bytes > floor)
		floor = in->min_cap_bytes;
	if (!in->known && in->start_bytes == UINT64_MAX) {
		/* no cap until measured; a lower bound may say why already */
		uint64_t t = in->global_thresh_bytes;
		ret->strict = false;
		ret->why = in->bw_bps && t && t <= in->bw_bps * s->global_drain_ms / 1000 ?
				   WHY_DRAINS_FAST : WHY_HELD;
		return;
	}
	if (!in->bw_bps) {
		/* device facts do not say slow (an SD card is neither removable
		 * nor rotational): every device starts small */
		ret->max_bytes = start > floor ? start : floor;
		ret->why = start_why;
		return;
	}
	cap = in->bw_bps * s->target_ms / 1000;
	ret->why = WHY_MEASURED;
	if (gov_fast(s, in->bw_bps)) {
		/* a lower bound this high is enough: it is at least this fast */
		uint64_t t = in->global_thresh_bytes;
		if (t && t <= in->bw_bps * s->global_drain_ms / 1000) {
			ret->strict = false;
			ret->why = WHY_DRAINS_FAST;
			return;
		}
		cap = in->bw_bps * s->fast_target_ms / 1000;
		if (cap < s->ceiling_bytes)
			cap = s->ceiling_bytes;
		ret->why = WHY_FAST;
	} else {
		cap = cap > GOV_SYNC_SLACK_BYTES ? cap - GOV_SYNC_SLACK_BYTES : 0;
		if (!in->known && cap < start) {
			/* light use shows little of what a device can do: no
			 * less than for a device never seen */
			cap = start;
			ret->why = start_why == WHY_RAMP ? WHY_RAMP : WHY_LOWER_BOUND;
		}
	}
	if (cap < floor) {
		cap = floor;
		ret->why = WHY_FLOOR;
	}
	ret->max_bytes = cap;
}

/* A device whose speed is bounded (a write throttle holds its writers)
 * gets no more than a device measured at the bound would: whatever the
 * rules say before a measurement, the largest cap that can be right for
 * it is the bound's. A cap no larger than that stands: the bound is only
 * an upper one (a 1 MB/s stick behind a 10 MB/s throttle). */
static void decide_bounded(const struct gov_settings *s, const struct gov_input *in,
			   struct gov_decision *ret)
{
	struct gov_input b;
	struct gov_decision bd;

	decide(s, in, ret);
	if (!in->bound_bps || !ret->govern || ret->why == WHY_FIXED || ret->why == WHY_FAILING)
		return;
	b = *in;
	b.bw_bps = in->bound_bps;
	b.known = true;
	b.start_bytes = 0;
	decide(s, &b, &bd);
	/* a device measured with a backlog keeps its own figure near the
	 * bound (its windows wobble about the throttle's rate: no flapping
	 * between the two reasons); far above it, the throttle came after the
	 * measurement */
	if (bd.strict && (!ret->strict || bd.max_bytes < ret->max_bytes) &&
	    (!in->known || bd.max_bytes < ret->max_bytes - ret->max_bytes / 8)) {
		*ret = bd;
		ret->why = WHY_THROTTLED;
	}
}

/* What the figure itself says, whatever the cap (a section's mode, a
 * throttle): a window with a backlog is the device's speed; a lower
 * bound is worth keeping when it shows the device fast, or, while the
 * device is not known, faster than its start cap allows (it starts there
 * next time). */
static enum gov_bw_class bw_class(const struct gov_settings *s, const struct gov_input *in)
{
	if (in->source == BW_MEASURED)
		return GOV_BW_KNOWN;
	if (in->source != BW_LOWER_BOUND)
		return GOV_BW_NONE;
	if (gov_fast(s, in->bw_bps))
		return GOV_BW_FAST;
	if (!in->known && in->bw_bps * s->target_ms / 1000 > s->initial_bytes)
		return GOV_BW_LOWER_BOUND;
	return GOV_BW_NONE;
}

void gov_decide(const struct gov_settings *s, const struct gov_input *in, struct gov_decision *ret)
{
	decide_bounded(s, in, ret);
	ret->bw_class = bw_class(s, in);
}

/* FLOOR is MEASURED at the floor: a device near it wobbles between them;
 * a ramp is the start cap growing. */
static enum gov_why why_class(enum gov_why w)
{
	return w == WHY_FLOOR ? WHY_MEASURED : w == WHY_RAMP ? WHY_UNMEASURED : w;
}

bool gov_decision_moved(const struct gov_decision *a, const struct gov_decision *b)
{
	uint64_t d;

	if (a->govern != b->govern || a->strict != b->strict || why_class(a->why) != why_class(b->why))
		return true;
	d = a->max_bytes > b->max_bytes ? a->max_bytes - b->max_bytes : b->max_bytes - a->max_bytes;
	return d > a->max_bytes / 4;
}
