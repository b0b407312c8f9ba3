/* The governor's rule: device facts + measured bandwidth -> the per-device
 * knob values. Pure. */
#ifndef WBGOV_POLICY_DECIDE_H
#define WBGOV_POLICY_DECIDE_H

#include "knobs/knobs.h"

enum gov_mode { MODE_TIME, MODE_FIXED, MODE_OFF };

enum match_kind { MATCH_SERIAL, MATCH_MODEL, MATCH_BUS, MATCH_DEVNUM };

/* A [device ...] section of wbgov.conf. */
struct gov_rule {
	enum match_kind kind;
	char value[KNOBS_NAME_MAX];
	enum gov_mode mode;
	uint64_t fixed_bytes;  /* MODE_FIXED */
	uint64_t target_ms;    /* MODE_TIME; 0 = the global target */
	unsigned line;         /* where it was read, for messages */
};

#define GOV_MAX_RULES 32

struct gov_config {
	uint64_t target_ms;     /* seconds of measured bandwidth a device may hold */
	uint64_t floor_bytes;   /* the smallest cap */
	uint64_t ceiling_bytes; /* a cap above this marks a fast device ... */
	uint64_t fast_target_ms; /* ... which gets this many seconds instead, unless */
	uint64_t global_drain_ms; /* the global threshold drains within this: no cap */
	uint64_t initial_bytes; /* unmeasured USB, removable or rotational devices */
	struct gov_rule rules[GOV_MAX_RULES];
	int nrules;
};

/* target 1 s, floor 4 MiB, ceiling 256 MiB then 2 s, 16 MiB before a
 * measurement. */
void gov_config_defaults(struct gov_config *c);

enum gov_why {
	WHY_MEASURED,     /* bandwidth x target */
	WHY_FLOOR,        /* bandwidth x target, raised to the floor */
	WHY_FAST,         /* bandwidth x target above the ceiling: fast_target seconds */
	WHY_UNMEASURED_SLOW, /* not measured yet; USB, removable or rotational */
	WHY_UNMEASURED_FAST, /* not measured yet; an internal SSD/NVMe */
	WHY_FIXED,        /* a config section: mode fixed */
	WHY_OFF,          /* a config section: mode off */
	WHY_ABOVE_GLOBAL, /* the cap would exceed the global threshold: not needed */
	WHY_DRAINS_FAST,  /* fast, and the global threshold drains within global_drain */
};
extern const char *const gov_why_text[];

struct gov_decision {
	bool govern;        /* false: leave the knobs as they were found */
	bool strict;
	uint64_t max_bytes; /* with strict: the cap */
	enum gov_why why;
	const struct gov_rule *rule; /* the section that matched, or NULL */
};

/* The first config section matching the device, or NULL. */
const struct gov_rule *gov_match(const struct gov_config *c, const struct knobs_dev *d);

/* `bw_bps` 0 means not measured yet; `global_thresh_bytes` is the kernel's
 * current global dirty threshold (0: unknown). */
void gov_decide(const struct gov_config *c, const struct knobs_dev *d, uint64_t bw_bps,
		uint64_t global_thresh_bytes, struct gov_decision *ret);

#endif
