/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A device's and a bdi's knobs in words (describe.h): text from what the
 * governor holds, nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/describe.h"
#include "model/units.h"

/* How the bandwidth reads in a log line. */
void fmt_bw(char *buf, size_t len, const struct bwmeter *m)
{
	double mbs = (double)m->est_bps / 1e6;

	switch (m->source) {
	case BW_NONE: snprintf(buf, len, "not measured yet"); break;
	case BW_LOWER_BOUND: snprintf(buf, len, "at least %.1f MB/s", mbs); break;
	case BW_MEASURED: snprintf(buf, len, "%.1f MB/s", mbs); break;
	case BW_REMEMBERED: snprintf(buf, len, "%.1f MB/s (remembered)", mbs); break;
	}
}

bool daemon_describe(const struct gov_dev *d, const char *state_path, char *buf, size_t len)
{
	char cap[32], bw[48], who[320];

	fmt_bw(bw, sizeof(bw), &d->meter);
	if (d->info.is_share)
		/* "share 0:53 (server:/export, nfs4)" */
		snprintf(who, sizeof(who), "share %s (%s, %s)", d->info.bdi, d->info.model,
			 d->info.bus);
	else
		snprintf(who, sizeof(who), "%s%s%s (%s%s%s)", d->info.disk,
			 strcmp(d->info.disk, d->info.bdi) ? " bdi " : "",
			 strcmp(d->info.disk, d->info.bdi) ? d->info.bdi : "",
			 d->info.model[0] ? d->info.model : "unknown model",
			 d->info.bus[0] ? ", " : "", d->info.bus);
	bytes_text(cap, sizeof(cap), d->dec.max_bytes, 0);
	if (d->err && d->err_op == GOV_ERR_RECORD && d->err == -EEXIST)
		/* hook_save: a record of a previous run holds it */
		snprintf(buf, len, "%s: left as it is: a previous run left its knobs changed and "
			 "they could not be given back; its original values stay in %s", who,
			 state_path);
	else if (d->err && d->err_op == GOV_ERR_RECORD)
		snprintf(buf, len, "%s: its original values could not be recorded in %s (%s); "
			 "left as it is", who, state_path, strerror(-d->err));
	else if (d->err && d->err_op == GOV_ERR_READ)
		snprintf(buf, len, "%s: reading %s: %s; left as it is", who,
			 bdi_attr_names[d->err_attr], strerror(-d->err));
	else if (d->err)
		snprintf(buf, len, "%s: %s -> max_bytes %s refused: %s %s (the previous value stays)",
			 who, bw, cap, bdi_attr_names[d->err_attr], strerror(-d->err));
	else if (d->above_global)
		snprintf(buf, len, "%s: %s -> no cap (%s)", who, bw, gov_why_text[WHY_ABOVE_GLOBAL]);
	else if (!d->dec.govern)
		snprintf(buf, len, "%s: left alone (%s)", who, gov_why_text[d->dec.why]);
	else if (!d->dec.strict)
		snprintf(buf, len, "%s: %s -> no cap (%s)", who, bw, gov_why_text[d->dec.why]);
	else
		snprintf(buf, len, "%s: %s -> max_bytes %s, strict (%s)", who, bw, cap,
			 gov_why_text[d->dec.why]);
	return d->err != 0;
}

void daemon_knobs_text(const char *verb, uint64_t strict_limit, uint64_t max_ratio_fine,
		       uint64_t max_bytes, char *buf, size_t len)
{
	char mb[32];

	if (max_ratio_fine == 1000000) {
		snprintf(buf, len, "strict_limit%s %llu (and no cap)", verb,
			 (unsigned long long)strict_limit);
		return;
	}
	if (max_bytes)
		bytes_text(mb, sizeof(mb), max_bytes, 0);
	snprintf(buf, len, "strict_limit%s %llu and max_bytes %s%s (max_ratio_fine %llu ppm)", verb,
		 (unsigned long long)strict_limit, max_bytes ? "about " : "", max_bytes ? mb : "?",
		 (unsigned long long)max_ratio_fine);
}
