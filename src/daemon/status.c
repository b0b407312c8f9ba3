/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/status.h"
#include "sys/fsutil.h"

static int fill_status(FILE *f, const void *ctx)
{
	const struct governor *g = ctx;

	for (int i = 0; i < g->ndev; i++) {
		const struct gov_dev *d = &g->dev[i];
		fprintf(f, "bdi=%s bw=%llu measures=%u why=%d max_bytes=%llu strict=%d err=%d source=%d\n",
			d->info.bdi, (unsigned long long)d->meter.est_bps, d->meter.nmeasure,
			!d->decided ? -1 : d->above_global ? (int)WHY_ABOVE_GLOBAL : (int)d->dec.why,
			(unsigned long long)(d->above_global ? 0 : d->dec.max_bytes),
			d->dec.strict && !d->above_global, d->err, (int)d->meter.source);
	}
	return 0;
}

int status_write(const char *path, const struct governor *g)
{
	return file_replace(path, fill_status, g);
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
		unsigned long long bw, mb;
		if (sscanf(line, "bdi=%63s bw=%llu measures=%u why=%d max_bytes=%llu strict=%d err=%d source=%d",
			   e.bdi, &bw, &e.measures, &e.why, &mb, &e.strict, &e.err, &e.source) != 8)
			continue;
		if (strcmp(e.bdi, bdi))
			continue;
		e.bw_bps = bw;
		e.max_bytes = mb;
		*ret = e;
		r = 0;
		break;
	}
	fclose(f);
	return r;
}
