/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The governor's tunable keys, one table for wbgov.conf's [global] (and a
 * [device] section's target), `wbsim --param` and the tests that hold the
 * manuals to it: name, unit, range, where it lives in struct gov_config
 * and what it means. Data only: a reader parses a value with model/parse.h's
 * parse_ms_in or parse_size_in (by the unit) straight into its place. The
 * defaults are gov_config_defaults()'s. */
#ifndef WBGOV_POLICY_TUNABLES_H
#define WBGOV_POLICY_TUNABLES_H

#include <stddef.h>
#include <stdint.h>

#include "policy/decide.h"

enum gov_unit {
	GOV_UNIT_MS,    /* seconds, written 1s, 1500ms or 1.5 */
	GOV_UNIT_BYTES, /* a size, written 4M, 256K or 4096 */
};

struct gov_tunable {
	const char *name;
	enum gov_unit unit;
	uint64_t min, max; /* milliseconds or bytes */
	size_t offset;     /* of its uint64_t in struct gov_config */
	const char *text;
};

#define GOV_NTUNABLES 6
extern const struct gov_tunable gov_tunables[GOV_NTUNABLES];

/* The key called `name` (the first `len` characters of it), or NULL. */
const struct gov_tunable *gov_tunable_find(const char *name, size_t len);

/* What a value must be, for messages: "seconds from 0.1 to 60, like 1s or
 * 1500ms". */
void gov_tunable_want(const struct gov_tunable *t, char *buf, size_t len);

/* Its place in c. */
uint64_t *gov_tunable_at(const struct gov_tunable *t, struct gov_config *c);

/* Its value in c. */
uint64_t gov_tunable_get(const struct gov_tunable *t, const struct gov_config *c);

#endif
