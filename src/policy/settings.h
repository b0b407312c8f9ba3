/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The governor's configuration (wbgov.conf's [global] values and [device]
 * sections) and its one resolver: what applies to one device. Every
 * per-device setting is read here, in gov_resolve, once per device per
 * decision; everyone else (the rule, the governor's ramp, wbgov explain)
 * receives its struct gov_settings. Pure. */
#ifndef WBGOV_POLICY_SETTINGS_H
#define WBGOV_POLICY_SETTINGS_H

#include "knobs/knobs.h"

enum gov_mode { MODE_TIME, MODE_FIXED, MODE_OFF };

/* The match keys of a [device] section, each a shell glob (fnmatch(3), as
 * sh's case: `*` crosses `/`) against one fact of struct knobs_dev. */
enum match_kind {
	MATCH_SERIAL, MATCH_MODEL, MATCH_BUS, MATCH_DEVNUM, MATCH_MOUNT, MATCH_LABEL, MATCH_UUID,
	MATCH_USB, MATCH_WWN, MATCH_COUNT
};
/* "serial", "model", ...: the keys as wbgov.conf spells them */
extern const char *const gov_match_keys[MATCH_COUNT];

/* A [device ...] section of wbgov.conf: it matches a device when every
 * key it gives matches. */
struct gov_rule {
	char match[MATCH_COUNT][KNOBS_NAME_MAX]; /* a glob per key given, "" for none */
	char name[KNOBS_NAME_MAX];  /* the section's: "stick" for [device stick] */
	enum gov_mode mode;
	uint64_t fixed_bytes;  /* MODE_FIXED */
	uint64_t target_ms;    /* MODE_TIME; 0 = the global target */
	unsigned line;         /* where it was read, for messages: this line ... */
	unsigned file;         /* ... of files[file] of its gov_config */
};

#define GOV_MAX_RULES 32
/* The main file and its drop-ins, at most this many, each name shorter. */
#define GOV_MAX_FILES 33
#define GOV_FILE_NAME_MAX 256

struct gov_config {
	uint64_t target_ms;     /* seconds of measured bandwidth a device may hold */
	uint64_t floor_bytes;   /* the smallest cap, whatever the bandwidth */
	uint64_t ceiling_bytes; /* a cap above this marks a fast device ... */
	uint64_t fast_target_ms; /* ... which gets this many seconds instead, unless */
	uint64_t global_drain_ms; /* the global threshold drains within this: no cap */
	uint64_t initial_bytes; /* every device until it is measured */
	struct gov_rule rules[GOV_MAX_RULES];
	int nrules;
	char files[GOV_MAX_FILES][GOV_FILE_NAME_MAX]; /* what was read, in order */
	int nfiles;
};

/* target 1 s; floor 256 KiB (the smallest strict cap measured to cost no
 * throughput on Linux 6.18); start 4 MiB; past the 256 MiB ceiling 2 s, or
 * no cap when the global threshold drains within 10 s. */
void gov_config_defaults(struct gov_config *c);

/* Every setting that applies to one device: the [global] values, with
 * what the first [device] section matching it says over them. */
struct gov_settings {
	const struct gov_rule *rule; /* the section that matched, or NULL */
	enum gov_mode mode;
	uint64_t fixed_bytes;     /* MODE_FIXED: the cap */
	uint64_t target_ms;       /* MODE_TIME: seconds of bandwidth it may hold */
	uint64_t floor_bytes;
	uint64_t ceiling_bytes;
	uint64_t fast_target_ms;
	uint64_t global_drain_ms;
	uint64_t initial_bytes;
};

/* What applies to device `d` under `c`. ret->rule points into c. */
void gov_resolve(const struct gov_config *c, const struct knobs_dev *d, struct gov_settings *ret);

/* The first config section matching the device, or NULL. */
const struct gov_rule *gov_match(const struct gov_config *c, const struct knobs_dev *d);

/* Does the one key `k` of `r` match the device? (True when `r` does not
 * give it.) A fact the device does not have matches nothing. */
bool gov_match_key(const struct gov_rule *r, enum match_kind k, const struct knobs_dev *d);

/* Does any section give key `k`? (wbgovd probes filesystem labels and
 * UUIDs only for a configuration that asks.) */
bool gov_config_uses(const struct gov_config *c, enum match_kind k);

#endif
