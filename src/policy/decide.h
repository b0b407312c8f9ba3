/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The governor's rule: a device's settings (gov_resolve) + what is known
 * of its bandwidth -> the per-device knob values, and what the figure says
 * of the device. Nothing else chooses a cap or a class. Pure. */
#ifndef WBGOV_POLICY_DECIDE_H
#define WBGOV_POLICY_DECIDE_H

#include "policy/bwmeter.h"
#include "policy/settings.h"

/* What sync writes of a capped device beyond its cap: a writer dirties 32
 * pages (128 KiB) between two looks at its limit, and the journal commits
 * after the data. Measured on 6.18 at 1 MB/s under a cap of 0.93 MB: 1.0
 * MiB dirty or under writeback when dd returned, sync 0.93-0.95 s. A
 * measured device's cap is bandwidth x target less this, so that sync
 * takes no longer than the target. */
#define GOV_SYNC_SLACK_BYTES (256ULL << 10)

enum gov_why {
	WHY_MEASURED,     /* bandwidth x target, less the sync slack */
	WHY_FLOOR,        /* ... raised to the floor */
	WHY_FAST,         /* bandwidth x target above the ceiling: fast_target seconds */
	WHY_UNMEASURED,   /* not measured yet: the start cap */
	WHY_LOWER_BOUND,  /* only a lower bound so far, below the start cap */
	WHY_RAMP,         /* not measured yet, outrunning its start cap: grown */
	WHY_HELD,         /* not measured yet, and the cap held it, not the device: let go */
	WHY_FIXED,        /* a config section: mode fixed */
	WHY_OFF,          /* a config section: mode off */
	WHY_ABOVE_GLOBAL, /* the cap would exceed the global threshold: not needed */
	WHY_DRAINS_FAST,  /* fast, and the global threshold drains within global_drain */
	WHY_FAILING,      /* it fails commands: no cap while it does */
	WHY_THROTTLED,    /* a write throttle on its disk bounds its speed: a cap for that speed */
	WHY_COUNT
};
extern const char *const gov_why_text[WHY_COUNT];

/* What a bandwidth figure says of the device, whatever its cap: what
 * device memory keeps of it. */
enum gov_bw_class {
	GOV_BW_NONE,        /* nothing worth keeping: none, remembered, or a lower
			       bound within what its start cap allows */
	GOV_BW_KNOWN,       /* measured with a backlog of its own */
	GOV_BW_FAST,        /* a lower bound that shows it fast: bandwidth x
			       target above the ceiling */
	GOV_BW_LOWER_BOUND, /* not known, and a lower bound above its start cap's
			       worth (bandwidth x target above `initial`) */
};

struct gov_decision {
	bool govern;        /* false: leave the knobs as they were found */
	bool strict;
	uint64_t max_bytes; /* with strict: the cap */
	enum gov_why why;
	enum gov_bw_class bw_class;
	const struct gov_rule *rule; /* the section that matched, or NULL */
};

/* What the governor knows of a device when it decides. */
struct gov_input {
	uint64_t bw_bps;     /* 0: not measured */
	bool known;          /* bw_bps rests on a backlog window or memory, not
				only on a lower bound */
	enum bw_source source; /* where bw_bps came from */
	uint64_t global_thresh_bytes; /* the kernel's global dirty threshold; 0 unknown */
	uint64_t min_cap_bytes; /* the smallest cap this kernel honours (0: the floor) */
	uint64_t start_bytes;   /* the start cap now, if above `initial` (a ramp);
				   UINT64_MAX: none (it held the writer, not the device) */
	bool failing;           /* it failed commands lately (its ioerr_cnt), and the
				   cap would be the global pair (before Linux 6.2) */
	uint64_t bound_bps;     /* its speed is at most this (a write throttle on its
				   disk that holds its writers); 0: no bound */
};

void gov_decide(const struct gov_settings *s, const struct gov_input *in, struct gov_decision *ret);

/* Is a device of `bw_bps` a fast one under `s` (bandwidth x target above the
 * ceiling)? The rule's own test, for a caller that must know before it
 * decides (the global threshold matters to a fast device). */
bool gov_fast(const struct gov_settings *s, uint64_t bw_bps);

/* Is `b` a material change from `a` (what gets logged, and what a status
 * shows as news): another reason, or a cap more than 1/4 away. */
bool gov_decision_moved(const struct gov_decision *a, const struct gov_decision *b);

#endif
