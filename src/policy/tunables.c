/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "policy/tunables.h"

#define AT(field) offsetof(struct gov_config, field)
#define SIZE_MAX_BYTES (1024ULL * GIB)

const struct gov_tunable gov_tunables[GOV_NTUNABLES] = {
	{ "target", GOV_UNIT_MS, 100, 60000, AT(target_ms),
	  "seconds of measured bandwidth a device may hold dirty" },
	{ "floor", GOV_UNIT_BYTES, PAGE_SIZE, SIZE_MAX_BYTES, AT(floor_bytes),
	  "the smallest cap, whatever the bandwidth" },
	{ "ceiling", GOV_UNIT_BYTES, PAGE_SIZE, SIZE_MAX_BYTES, AT(ceiling_bytes),
	  "a cap above this marks a fast device, which gets fast_target instead" },
	{ "initial", GOV_UNIT_BYTES, PAGE_SIZE, SIZE_MAX_BYTES, AT(initial_bytes),
	  "the start cap of a device not measured yet" },
	{ "fast_target", GOV_UNIT_MS, 100, 60000, AT(fast_target_ms),
	  "seconds of bandwidth a fast device may hold" },
	{ "global_drain", GOV_UNIT_MS, 100, 60000, AT(global_drain_ms),
	  "a fast device that drains the global dirty threshold within this gets no cap" },
};

const struct gov_tunable *gov_tunable_find(const char *name, size_t len)
{
	for (int i = 0; i < GOV_NTUNABLES; i++)
		if (strlen(gov_tunables[i].name) == len && !strncmp(gov_tunables[i].name, name, len))
			return &gov_tunables[i];
	return NULL;
}

void gov_tunable_want(const struct gov_tunable *t, char *buf, size_t len)
{
	if (t->unit == GOV_UNIT_MS)
		snprintf(buf, len, "seconds from %g to %g, like 1s or 1500ms", (double)t->min / 1000,
			 (double)t->max / 1000);
	else
		snprintf(buf, len, "a size from %llu bytes to %llu GiB, like 4M",
			 (unsigned long long)t->min, (unsigned long long)(t->max / GIB));
}

uint64_t *gov_tunable_at(const struct gov_tunable *t, struct gov_config *c)
{
	return (uint64_t *)(void *)((char *)c + t->offset);
}

uint64_t gov_tunable_get(const struct gov_tunable *t, const struct gov_config *c)
{
	uint64_t v;

	memcpy(&v, (const char *)c + t->offset, sizeof(v));
	return v;
}
