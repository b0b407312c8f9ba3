/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The status file (status.h says the format): written by wbgovd's step,
 * read by wbgov status and explain. Nothing else. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/status.h"
#include "sys/fsutil.h"

void status_entry_of(const struct gov_dev *d, struct status_entry *ret)
{
	memset(ret, 0, sizeof(*ret));
	snprintf(ret->bdi, sizeof(ret->bdi), "%s", d->info.bdi);
	ret->bw_bps = d->meter.est_bps;
	ret->measures = d->meter.nmeasure;
	ret->why = !d->decided ? -1 : d->above_global ? (int)WHY_ABOVE_GLOBAL : (int)d->dec.why;
	ret->max_bytes = d->above_global ? 0 : d->dec.max_bytes;
	ret->strict = d->dec.strict && !d->above_global;
	ret->err = d->err;
	ret->source = (int)d->meter.source;
	ret->has_decisions = true;
	ret->decisions = d->decisions;
}

struct status_ctx {
	const struct governor *g;
	const struct features *fs;
};

static int fill_status(FILE *f, const void *ctx)
{
	const struct status_ctx *x = ctx;
	const struct governor *g = x->g;

	for (int i = 0; i < g->ndev; i++) {
		struct status_entry e;
		status_entry_of(&g->dev[i], &e);
		fprintf(f, "bdi=%s bw=%llu measures=%u why=%d max_bytes=%llu strict=%d err=%d source=%d "
			   "decisions=%llu\n",
			e.bdi, (unsigned long long)e.bw_bps, e.measures, e.why,
			(unsigned long long)e.max_bytes, e.strict, e.err, e.source,
			(unsigned long long)e.decisions);
	}
	if (x->fs)
		features_write(f, x->fs);
	return 0;
}

/* Not flushed to disk: it is rewritten at each decision from the loop, an
 * fsync there waits for the disk (seconds when it is busy), and a crashed
 * wbgovd's record is stale anyway. */
int status_write(const char *path, const struct governor *g, const struct features *fs)
{
	struct status_ctx x = { g, fs };

	return file_publish(path, fill_status, &x);
}

int status_features(const char *path, struct features *ret)
{
	char line[FEATURE_HOW_MAX * 4 + 128];
	FILE *f = fopen(path, "re");
	int n = 0;

	memset(ret, 0, sizeof(*ret));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		enum feature id;
		struct feature_report r;
		if (features_parse_line(line, &id, &r)) {
			ret->f[id] = r;
			n++;
		}
	}
	fclose(f);
	return n;
}

int status_read(const char *path, const char *bdi, struct status_entry *ret)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct status_entry e = { 0 };
		unsigned long long bw, mb, dn;
		int n = sscanf(line, "bdi=%63s bw=%llu measures=%u why=%d max_bytes=%llu strict=%d err=%d "
				     "source=%d decisions=%llu",
			       e.bdi, &bw, &e.measures, &e.why, &mb, &e.strict, &e.err, &e.source, &dn);
		if (n < 8)
			continue;
		if (strcmp(e.bdi, bdi))
			continue;
		e.bw_bps = bw;
		e.max_bytes = mb;
		e.has_decisions = n == 9;
		e.decisions = e.has_decisions ? dn : 0;
		*ret = e;
		r = 0;
		break;
	}
	fclose(f);
	return r;
}
