/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "policy/decide.h"

/* N_(): marked for wbgov's message catalogue (xgettext), and translated
 * where wbgov explain shows it; the text stays English here, for wbgovd's
 * log and JSON's "rule" */
#define N_(s) s
const char *const gov_why_text[WHY_COUNT] = {
	[WHY_MEASURED] = N_("measured bandwidth x target, less 256 KiB of sync slack"),
	[WHY_FLOOR] = N_("measured bandwidth x target, less 256 KiB of sync slack, raised to the "
			 "floor"),
	[WHY_FAST] = N_("a fast device (bandwidth x target above the ceiling): fast_target seconds "
			"of bandwidth"),
	[WHY_UNMEASURED] = N_("not measured yet: the start cap"),
	[WHY_LOWER_BOUND] = N_("not yet seen with a backlog of its own: the start cap"),
	[WHY_RAMP] = N_("not measured yet, and outrunning its start cap: grown while it does, up to "
			"64 MiB"),
	[WHY_HELD] = N_("not measured yet, and a cap held its writer rather than the device: no cap "
			"until measured"),
	[WHY_FIXED] = N_("a [device] section: mode fixed"),
	[WHY_OFF] = N_("a [device] section: mode off"),
	[WHY_ABOVE_GLOBAL] = N_("the cap would exceed the global dirty threshold, which bounds it "
				"already"),
	[WHY_DRAINS_FAST] = N_("a fast device that drains the whole global dirty threshold within "
			       "global_drain: no cap"),
	[WHY_FAILING] = N_("it fails commands: no cap while it does, so that its writers get the "
			   "errors instead of waiting on data it cannot write"),
	[WHY_THROTTLED] = N_("a cgroup's write throttle on its disk (io.max or blkio) bounds its "
			     "speed: the throttle's rate x target, less 256 KiB of sync slack"),
};

void gov_config_defaults(struct gov_config *c)
{
	memset(c, 0, sizeof(*c));
	c->target_ms = 1000;
	/* 256 KiB: on 6.18, a strict cap of 128 KiB cost 13 % of a 0.5 MB/s
	 * device's throughput (4 MiB in 128 KiB writes), 256 KiB nothing
	 * (dd + sync 1.003-1.035 x size/bandwidth, sync 0.5 s); the floor is
	 * for devices slower than that, the cap follows the bandwidth above */
	c->floor_bytes = 256 * KIB;
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
	/* 4 MiB: every device is capped from its first write, whatever its
	 * kind, until measured. A copy to a cold 0.5 MB/s device piles up at
	 * most this before the first measurement lowers the cap; a fast device
	 * writes at about 370 MB/s under it (a tmpfs-backed loop on 6.18: 1 MiB
	 * 125 MB/s, 16 MiB 780 MB/s, 64 MiB as fast as no cap) until the
	 * daemon, polling every 10 ms while it ramps, lets it go. */
	c->initial_bytes = 4 * MIB;
}

const char *const gov_match_keys[MATCH_COUNT] = {
	[MATCH_SERIAL] = "serial", [MATCH_MODEL] = "model", [MATCH_BUS] = "bus",
	[MATCH_DEVNUM] = "devnum", [MATCH_MOUNT] = "mount", [MATCH_LABEL] = "label",
	[MATCH_UUID] = "uuid", [MATCH_USB] = "usb", [MATCH_WWN] = "wwn",
};

static bool glob(const char *pattern, const char *fact, int flags)
{
	return fact[0] && fnmatch(pattern, fact, flags) == 0;
}

/* Any value of a knobs_dev list. */
static bool glob_list(const char *pattern, const char *list, size_t size, int flags)
{
	for (const char *p = knobs_list_next(list, size, NULL); p; p = knobs_list_next(list, size, p))
		if (glob(pattern, p, flags))
			return true;
	return false;
}

bool gov_match_key(const struct gov_rule *r, enum match_kind k, const struct knobs_dev *d)
{
	const char *g = r->match[k];
	char buf[KNOBS_NAME_MAX + 8];

	if (!g[0])
		return true;
	switch (k) {
	case MATCH_SERIAL: return glob(g, d->serial, 0);
	case MATCH_MODEL: return glob(g, d->model, 0) || glob(g, d->model_id, 0);
	case MATCH_BUS: return glob(g, d->bus, 0);
	case MATCH_DEVNUM:
		if (!d->major && !d->minor)
			return false;
		snprintf(buf, sizeof(buf), "%u:%u", d->major, d->minor);
		return glob(g, buf, 0);
	case MATCH_MOUNT: return glob_list(g, d->mounts, sizeof(d->mounts), 0);
	case MATCH_LABEL: return glob_list(g, d->labels, sizeof(d->labels), 0);
	/* hex: blkid gives ext4's UUIDs in lower case, FAT's in upper */
	case MATCH_UUID: return glob_list(g, d->uuids, sizeof(d->uuids), FNM_CASEFOLD);
	case MATCH_USB: return glob(g, d->usb, FNM_CASEFOLD);
	case MATCH_WWN:
		if (glob(g, d->wwn, FNM_CASEFOLD))
			return true;
		/* udev's ID_WWN writes an NAA name "0x5000c500a1b2c3d4" */
		if (!strncmp(d->wwn, "naa.", 4)) {
			snprintf(buf, sizeof(buf), "0x%s", d->wwn + 4);
			return glob(g, buf, FNM_CASEFOLD);
		}
		return false;
	case MATCH_COUNT: break;
	}
	return false;
}

const struct gov_rule *gov_match(const struct gov_config *c, const struct knobs_dev *d)
{
	for (int i = 0; i < c->nrules; i++) {
		const struct gov_rule *r = &c->rules[i];
		bool all = true, any = false;
		for (int k = 0; k < MATCH_COUNT && all; k++) {
			any |= r->match[k][0] != 0;
			all = gov_match_key(r, (enum match_kind)k, d);
		}
		if (all && any)
			return r;
	}
	return NULL;
}

bool gov_config_uses(const struct gov_config *c, enum match_kind k)
{
	for (int i = 0; i < c->nrules; i++)
		if (c->rules[i].match[k][0])
			return true;
	return false;
}

/* A section's mode, and in mode time its target, over the global values;
 * the other settings are the global ones (a section cannot set them). */
void gov_resolve(const struct gov_config *c, const struct knobs_dev *d, struct gov_settings *ret)
{
	const struct gov_rule *r = gov_match(c, d);

	memset(ret, 0, sizeof(*ret));
	ret->rule = r;
	ret->mode = r ? r->mode : MODE_TIME;
	ret->fixed_bytes = r && r->mode == MODE_FIXED ? r->fixed_bytes : 0;
	ret->target_ms = r && r->mode == MODE_TIME && r->target_ms ? r->target_ms : c->target_ms;
	ret->floor_bytes = c->floor_bytes;
	ret->ceiling_bytes = c->ceiling_bytes;
	ret->fast_target_ms = c->fast_target_ms;
	ret->global_drain_ms = c->global_drain_ms;
	ret->initial_bytes = c->initial_bytes;
}

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

bool gov_decision_moved(const struct gov_decision *a, const struct gov_decision *b,
			enum gov_moved by)
{
	bool news = by == GOV_MOVED_NEWS;
	uint64_t d;

	if (a->govern != b->govern || a->strict != b->strict ||
	    (news ? why_class(a->why) != why_class(b->why) : a->why != b->why))
		return true;
	d = a->max_bytes > b->max_bytes ? a->max_bytes - b->max_bytes : b->max_bytes - a->max_bytes;
	return d > a->max_bytes / (news ? 4 : 8);
}

/* A strict cap alone leaves a slow device idle between its bios. The
 * flusher writes a strict bdi only while its dirty pages not yet
 * submitted exceed the bdi's background threshold, which is its cap x
 * background / dirty threshold: half the cap at the kernel's 10/20. Each
 * pass submits all of them, ext4 in one bio, whose pages leave writeback
 * together when its last request completes; meanwhile the writer, held at
 * the cap, can dirty only what the bio left of it, less than half: below
 * the background threshold, so nothing is queued behind the bio. When it
 * completes the device has nothing to do until the writer wakes from its
 * throttle pause (up to 200 ms; about 1/8 of its dirty data's drain time
 * by the kernel's bandwidth estimate) and dirties past the threshold
 * again. Traced on 6.18 (bench/busy's fstick, a 2 MB/s device that loses
 * its idle time; cap 1.6 MiB, 32 MiB in 128 KiB writes): one gap per 1.25
 * MiB bio, 5-120 ms each, the bdi holding 384 KiB dirty and nothing under
 * writeback as each began; dd + sync 1.005-1.024 x the device's time on a
 * quiet machine, 1.053 x with its CPUs loaded (load average 7.7, idle 0.89
 * s while dd ran: the gaps are the writer's and the flusher's wakeups;
 * 1.018 x, 0.27 s, with the background at 5 % right after). A bigger cap has fewer, longer
 * bios, and the sync pays for it: strict caps of 1 / 2 / 4 MiB there,
 * 1.019 / 1.009 / 1.004 x, sync 0.2-0.5 / 1.0 / 1.6-2.0 s.
 *
 * With the background threshold below a third of the cap, a writer that
 * dirties past the setpoint (halfway between threshold and cap) with a bio
 * in flight has more than the threshold dirty: the next bio is queued
 * behind it. With 1 MiB writes and a cap of 1.7 MiB it takes less than a
 * fifth (one write must pass the setpoint). Background 10 / 5 / 2 % of a
 * 20 % dirty ratio, same device, best of 3 interleaved: 2 MB/s, 128 KiB
 * writes 1.011 / 1.005 / 1.004 x (medians 1.021 / 1.007 / 1.004), 1 MiB
 * writes 1.020 / 1.004 / 1.004 (medians 1.021 / 1.014 / 1.004); idle 0.32 /
 * 0.13 / 0.07 s a copy. An eighth: 2 % at the kernel's 20 %; lower would
 * only start writeback sooner for every device. Before / after, 16 s of
 * data, best of 3 (medians), x device time: 0.5 MB/s 128 KiB 1.007 ->
 * 1.004, 1 MB/s 1.013 -> 1.002, 2 MB/s 1.018 (1.022) -> 1.005 (1.006), 5
 * MB/s 1.017 (1.020) -> 1.008 (1.012); 1 MiB writes at 2 MB/s 1.013 (1.020)
 * -> 1.004 (1.005), at 5 MB/s 1.007 (1.010) -> 1.007 (1.007); a device
 * given it all at sync (no cap) 1.005. 1 MiB writes at 0.5 and 1 MB/s (a
 * cap of 0.26 / 0.65 MiB, less than a write) stay at one bio in flight
 * whatever the background (1.005, 1.011-1.014 x both). A smaller request
 * size (max_sectors_kb 128, not 1280) instead: idle 0.22 s, medians
 * 1.011-1.013 x (the pages leave writeback with their bio, not with each
 * request). */
void gov_background(const uint64_t found[VM_KNOB_COUNT], bool slow_dirty,
		    struct gov_background *ret)
{
	uint64_t dirty_ratio = found[VM_DIRTY_RATIO], bg_ratio = found[VM_DIRTY_BACKGROUND_RATIO];
	uint64_t dirty_bytes = found[VM_DIRTY_BYTES], bg_bytes = found[VM_DIRTY_BACKGROUND_BYTES];
	uint64_t want;

	memset(ret, 0, sizeof(*ret));
	if (!slow_dirty)
		return;
	if (!dirty_bytes && !bg_bytes) {
		/* a background ratio of 0 writes back at once: leave it */
		want = dirty_ratio / GOV_BG_SHARE_DIV;
		if (want < 1)
			want = 1;
		if (bg_ratio > want) {
			ret->lower = true;
			ret->knob = VM_DIRTY_BACKGROUND_RATIO;
			ret->value = want;
		}
	} else if (dirty_bytes && bg_bytes) {
		want = dirty_bytes / GOV_BG_SHARE_DIV;
		if (want < PAGE_SIZE)
			want = PAGE_SIZE;
		if (bg_bytes > want) {
			ret->lower = true;
			ret->knob = VM_DIRTY_BACKGROUND_BYTES;
			ret->value = want;
		}
	}
}

/* Below the ceiling, more than 1.5 caps per target beyond a cap's burst;
 * at a fast cap, more than half a cap: such a cap bites only once the
 * writer has filled 3/4 of it, and then throttles it at the kernel's
 * initial 100 MiB/s ratelimit until released. */
bool gov_outruns(const struct gov_settings *s, uint64_t cap_bytes, uint64_t over_bytes)
{
	if (cap_bytes >= s->ceiling_bytes)
		return over_bytes > cap_bytes / 2;
	return over_bytes > cap_bytes + cap_bytes / 2;
}

/* A device not yet known, at a start cap it outruns (beyond a cap's burst)
 * or that holds it: grow the start cap, up to the size from which a cap
 * costs a fast writer nothing. Two polls in a row: double it; one poll by
 * 4 caps a second or more: four times (a 2 GB/s device under 4 MiB is at
 * 64 MiB in two polls; no more at once, or the flusher waits for 3/4 of a
 * big cap before it writes anything measurable). Held at 64 MiB still: let
 * it go until a window says what it is. */
uint64_t gov_ramp_step(const struct gov_settings *s, const struct gov_ramp *r, unsigned *polls,
		       uint64_t boost_bytes)
{
	uint64_t cap = r->cap_bytes, b = 0;

	if (!gov_outruns(s, cap, r->over_bytes) && !r->held) {
		*polls = 0;
		return boost_bytes;
	}
	if (r->over_bytes >= 4 * cap)
		b = 4 * cap;
	else if (++*polls >= 2)
		b = r->held ? 4 * cap : 2 * cap;
	if (!b)
		return boost_bytes;
	*polls = 0;
	/* a device of a kind that is often slow stays at 64 MiB until
	 * measured: a 40 MB/s stick whose flusher had not begun yet looked
	 * held, was let go, and its 228 MiB copy piled up (sync 5.2 s) */
	if (cap >= GOV_BOOST_MAX_BYTES)
		return r->held && !r->slow_kind ? GOV_START_OPEN : boost_bytes;
	return b < GOV_BOOST_MAX_BYTES ? b : GOV_BOOST_MAX_BYTES;
}

bool gov_floor_kernel(int features)
{
	return (features & KNOBS_BDI_BYTES) && !(features & KNOBS_WB_FLOOR);
}

uint64_t gov_floor_bytes(const struct gov_decision *dec, int features, uint64_t thresh_bytes)
{
	uint64_t f = dec->max_bytes / 4 * 3;

	if (!gov_floor_kernel(features) || !dec->govern || !dec->strict)
		return 0;
	if (f > GOV_FLOOR_MAX_BYTES)
		f = GOV_FLOOR_MAX_BYTES;
	if (f > thresh_bytes / GOV_FLOOR_SHARE_DIV)
		f = thresh_bytes / GOV_FLOOR_SHARE_DIV;
	return f;
}

bool gov_slow_kind(const struct knobs_dev *k)
{
	return !strcmp(k->bus, "usb") || !strcmp(k->bus, "mmc") || k->removable || k->rotational;
}

bool gov_global_candidate(const struct gov_settings *s, const struct gov_decision *dec, bool known,
			  const struct knobs_dev *info)
{
	if (!dec->govern || !dec->strict || dec->max_bytes >= s->ceiling_bytes)
		return false;
	return known || gov_slow_kind(info);
}

uint64_t gov_global_cap(uint64_t smallest)
{
	/* it throttles every writer on the machine while the slow device
	 * holds dirty data (bench/zoo measures what a fast disk's writers pay
	 * meanwhile); a cap held at the start cap (4 MiB) left a 1 MB/s card
	 * 4 s of sync */
	return smallest < 2 * PAGE_SIZE * 2 ? 2 * PAGE_SIZE * 2 : smallest;
}

bool gov_global_release(uint64_t quiet_usec)
{
	return quiet_usec >= GOV_VM_QUIET_USEC;
}

/* A device lightly used (4 KiB fdatasyncs) beside a busy one has a small
 * writeout share and a trickle for the kernel's own bandwidth estimate;
 * under a strict cap the kernel then stops a bulk writer at a threshold
 * far below the cap and paces it at that estimate, the device idles, and
 * what it completes says nothing of what it can do (measured: a
 * tmpfs-backed loop crept at 13-20 MB/s under 8-19 MiB). */
bool gov_held(const struct gov_decision *dec, const struct knobs_bdi_counters *c,
	      const struct bwmeter *m)
{
	uint64_t t;

	if (!c)
		return false;
	t = c->thresh && c->thresh < dec->max_bytes ? c->thresh : dec->max_bytes;
	/* and it has been so: its queue empty at four polls in five of the
	 * window, or holding an eighth of a second of work at the window's
	 * pace on average (a slow device's pile waits dirty too, but its queue
	 * holds a good part of a second; a fast disk whose writer the kernel
	 * paces at its dirty ratelimit under the cap is fed small chunks it
	 * does at once: measured, a 2 GB/s root disk crept 8.5, 98, 163 MB/s
	 * under caps made of its own lower bounds) */
	if (c->dirty + c->writeback < t / 4 || c->writeback > t / 8 || !m->win_open ||
	    m->win_polls < 3)
		return false;
	return m->win_empty * 5 >= m->win_polls * 4 || bwmeter_queued_ms(m) < 125;
}
