/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lab/report.h"

int report_format_parse(const char *s, enum report_format *ret)
{
	if (!strcmp(s, "table"))
		*ret = FMT_TABLE;
	else if (!strcmp(s, "csv"))
		*ret = FMT_CSV;
	else if (!strcmp(s, "json"))
		*ret = FMT_JSON;
	else
		return -EINVAL;
	return 0;
}

/* Decimals per column: seconds to the millisecond, MiB to a tenth. */
static const int decimals[COL_COUNT] = { 3, 3, 3, 1, 1, 3, 1, 1, 1 };

/* The thresholds behind each tag are explained in docs/proposals.md. */
void report_verdict(const struct run_result *r, const struct run_result *base, char *buf,
		    size_t len)
{
	size_t used = 0;

#define TAG(cond, text)                                                                       \
	do {                                                                                   \
		if (cond)                                                                      \
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", \
						 used ? "," : "", text);                       \
	} while (0)
#define HAS(res, c) ((res) && (res)->has[c])
	buf[0] = 0;
	/* the seeds' complaint: sync (umount, eject) hangs */
	TAG(HAS(r, COL_SYNC_AFTER) && r->val[COL_SYNC_AFTER] > 5.0, "sync-stall");
	/* the copy "finished" long before the data was safe */
	TAG(HAS(r, COL_WRITE_RETURN) && HAS(r, COL_DURABLE) &&
		    r->val[COL_WRITE_RETURN] < 0.5 * r->val[COL_DURABLE],
	    "lying-progress");
	if (base && base != r) {
		TAG(HAS(r, COL_FAST_WRITE) && HAS(base, COL_FAST_WRITE) &&
			    r->val[COL_FAST_WRITE] < 0.97 * base->val[COL_FAST_WRITE],
		    "slower-fast-device");
		TAG(HAS(r, COL_DEVICE_WRITTEN) && HAS(base, COL_DEVICE_WRITTEN) &&
			    r->val[COL_DEVICE_WRITTEN] > 1.05 * base->val[COL_DEVICE_WRITTEN] + 1.0,
		    "more-io");
		TAG(HAS(r, COL_FSYNC_P99) && HAS(base, COL_FSYNC_P99) &&
			    r->val[COL_FSYNC_P99] > 1.5 * base->val[COL_FSYNC_P99] + 1.0,
		    "fsync-latency");
	}
	/* another device's writers stalled for a visible time */
	TAG(HAS(r, COL_OTHER_MAX_PAUSE) && r->val[COL_OTHER_MAX_PAUSE] >= 100.0, "stalls-others");
#undef TAG
#undef HAS
	if (used >= len && len)
		buf[len - 1] = 0;
}

static void cell(FILE *f, const struct run_result *r, int c, const char *none)
{
	if (r->has[c])
		fprintf(f, "%.*f", decimals[c], r->val[c]);
	else
		fputs(none, f);
}

/* The table for people: the two peaks side by side, short names, each
 * column as wide as its widest cell in the scenario's block (not a fixed
 * width for all), so that nine columns are no wider than eight were. */
static const int table_order[COL_COUNT] = {
	COL_WRITE_RETURN, COL_DURABLE, COL_SYNC_AFTER, COL_PEAK_DIRTY, COL_PEAK_NR_DIRTY,
	COL_OTHER_MAX_PAUSE, COL_FSYNC_P99, COL_FAST_WRITE, COL_DEVICE_WRITTEN,
};
static const char *const table_head[COL_COUNT] = {
	[COL_WRITE_RETURN] = "write_s", [COL_DURABLE] = "durable_s", [COL_SYNC_AFTER] = "sync_s",
	[COL_PEAK_DIRTY] = "peak_MiB", [COL_PEAK_NR_DIRTY] = "nr_dirty_MiB",
	[COL_OTHER_MAX_PAUSE] = "oth_pause_ms", [COL_FSYNC_P99] = "fsync99_ms",
	[COL_FAST_WRITE] = "fast_MB/s", [COL_DEVICE_WRITTEN] = "dev_MiB",
};

static void table_cell(const struct run_result *r, int c, char *buf, size_t len)
{
	if (r->has[c])
		snprintf(buf, len, "%.*f", decimals[c], r->val[c]);
	else
		snprintf(buf, len, "-");
}

static void print_table(FILE *f, const struct run_result *res,
			const struct run_result *const *base, int n)
{
	int width[COL_COUNT];

	for (int i = 0; i < n; i++) {
		const struct run_result *r = &res[i];
		char v[128], num[32];

		if (!i || strcmp(res[i - 1].scenario, r->scenario)) {
			for (int c = 0; c < COL_COUNT; c++) {
				width[c] = (int)strlen(table_head[c]);
				for (int k = i; k < n && !strcmp(res[k].scenario, r->scenario); k++) {
					table_cell(&res[k], c, num, sizeof(num));
					if ((int)strlen(num) > width[c])
						width[c] = (int)strlen(num);
				}
			}
			fprintf(f, "%s%-18s %-13s", i ? "\n" : "", r->scenario, "policy");
			for (int k = 0; k < COL_COUNT; k++)
				fprintf(f, "  %*s", width[table_order[k]], table_head[table_order[k]]);
			fprintf(f, "  loses\n");
		}
		fprintf(f, "%-18s %-13s", "", r->policy);
		for (int k = 0; k < COL_COUNT; k++) {
			table_cell(r, table_order[k], num, sizeof(num));
			fprintf(f, "  %*s", width[table_order[k]], num);
		}
		report_verdict(r, base[i], v, sizeof(v));
		fprintf(f, "  %s\n", v[0] ? v : "-");
	}
}

static void print_csv(FILE *f, const struct run_result *res, int n)
{
	fputs("scenario,policy", f);
	for (int c = 0; c < COL_COUNT; c++)
		fprintf(f, ",%s", run_col_names[c]);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s,%s", res[i].scenario, res[i].policy);
		for (int c = 0; c < COL_COUNT; c++) {
			fputc(',', f);
			cell(f, &res[i], c, "");
		}
		fputc('\n', f);
	}
}

/* A number as the CSV prints it (%.*f), and no more digits: with
 * JSON_REAL_PRECISION(15) a figure of three decimals prints as itself. */
static json_t *json_fixed(double v, int places)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", places, v);
	return json_real(strtod(buf, NULL));
}

static json_t *run_json(const struct run_result *r, const struct run_result *base)
{
	json_t *o = json_pack("{s:s, s:s}", "scenario", r->scenario, "policy", r->policy), *loses;
	char v[128], *p = v, *tok;

	for (int c = 0; o && c < COL_COUNT; c++)
		if (json_object_set_new(o, run_col_names[c],
					r->has[c] ? json_fixed(r->val[c], decimals[c]) : json_null()))
			json_decref(o), o = NULL;
	report_verdict(r, base, v, sizeof(v));
	loses = json_array();
	while (loses && (tok = strsep(&p, ",")) && *tok)
		if (json_array_append_new(loses, json_string(tok)))
			json_decref(loses), loses = NULL;
	if (o && json_object_set_new(o, "simulated_s", json_fixed(r->sim_seconds, 3)))
		json_decref(o), o = NULL;
	if (!o) {
		json_decref(loses);
		return NULL;
	}
	/* json_object_set_new lets go of `loses` when it fails */
	if (json_object_set_new(o, "loses", loses))
		json_decref(o), o = NULL;
	return o;
}

/* schema 2, in wbsim(1): {"schema": 2, "runs": [one object a run]} */
static int print_json(FILE *f, const struct run_result *res,
		      const struct run_result *const *base, int n)
{
	json_t *runs = json_array(), *doc;
	char *text;
	int r;

	for (int i = 0; runs && i < n; i++)
		if (json_array_append_new(runs, run_json(&res[i], base[i])))
			json_decref(runs), runs = NULL;
	doc = json_pack("{s:i, s:o}", "schema", 2, "runs", runs);
	/* the whole text first: a failure prints nothing, not half a document */
	text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) : NULL;
	json_decref(doc);
	if (!text)
		return -ENOMEM;
	r = fputs(text, f) == EOF || fputc('\n', f) == EOF ? -EIO : 0;
	free(text);
	return r;
}

int report_print(FILE *f, enum report_format fmt, const struct run_result *res,
		 const struct run_result *const *base, int n)
{
	int r = 0;

	switch (fmt) {
	case FMT_TABLE: print_table(f, res, base, n); break;
	case FMT_CSV: print_csv(f, res, n); break;
	case FMT_JSON: r = print_json(f, res, base, n); break;
	}
	if (r == -ENOMEM)
		return r;
	if (r || fflush(f) || ferror(f))
		return -EIO;
	return 0;
}
