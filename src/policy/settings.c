/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "model/units.h"
#include "policy/settings.h"

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
