/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov's figures for Prometheus (metrics.h): the kernel's side read, the
 * exposition written, and the file wbgovd rewrites from its governor on
 * a clock of its own (--metrics-file). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/metrics.h"
#include "policy/bwmeter.h"
#include "sys/fsutil.h"
#include "sys/log.h"

void metrics_read_kernel(struct knobs_real *real, struct metrics_dev *m)
{
	struct knobs_bdi_counters c;
	uint64_t strict, max;

	m->has_knobs = knobs_real_ops.bdi_read(real, m->info.bdi, BDI_STRICT_LIMIT, &strict) == 0 &&
		       knobs_real_ops.bdi_read(real, m->info.bdi, BDI_MAX_BYTES, &max) == 0;
	m->strict = m->has_knobs && strict;
	m->max_bytes = m->has_knobs ? max : 0;
	m->has_pending = knobs_real_ops.bdi_counters(real, m->info.bdi, &c) == 0;
	m->pending_bytes = m->has_pending ? c.dirty + c.writeback : 0;
}

/* Every family with base units (bytes, seconds) as Prometheus names them;
 * a device's samples carry bdi (what identifies it to the kernel) and
 * device (its disk, as people name it; a share has none, and people name
 * it by its mount's source, "nas:/export": its model, as status shows it). */
enum fam {
	F_INFO, F_BW, F_SOURCE, F_STRICT, F_LIMIT, F_PENDING, F_DRAIN, F_DECISIONS, F_WINDOWS,
	F_WRITE_ERROR, F_COUNT
};

static const struct {
	const char *name, *type, *help;
} fams[F_COUNT] = {
	[F_INFO] = { "wbgov_device_info", "gauge",
		     "A device wbgov sees, with its model and bus as labels; always 1." },
	[F_BW] = { "wbgov_device_write_bandwidth_bytes_per_second", "gauge",
		   "Write bandwidth wbgovd measured for the device (see wbgov_device_bandwidth_source)." },
	[F_SOURCE] = { "wbgov_device_bandwidth_source", "gauge",
		       "Where the bandwidth figure comes from: 1 for the source in force, 0 for the others." },
	[F_STRICT] = { "wbgov_device_strict_limit", "gauge",
		       "The kernel's strict_limit of the bdi: 1 when it is held to a limit of its own." },
	[F_LIMIT] = { "wbgov_device_dirty_limit_bytes", "gauge",
		      "The device's dirty page cache limit, the kernel's max_bytes; no sample without "
		      "strict_limit (no cap of its own: the global threshold alone)." },
	[F_PENDING] = { "wbgov_device_pending_bytes", "gauge",
			"Dirty and writeback data of the bdi itself (needs a readable debugfs)." },
	[F_DRAIN] = { "wbgov_device_drain_seconds", "gauge",
		      "Seconds the device needs to write its pending data at its measured bandwidth." },
	[F_DECISIONS] = { "wbgov_device_decisions_total", "counter",
			  "New decisions wbgovd applied to the device's knobs since it found it "
			  "(failed writes too)." },
	[F_WINDOWS] = { "wbgov_device_measurement_windows_total", "counter",
			"Measurement windows wbgovd closed on the device since it found it." },
	[F_WRITE_ERROR] = { "wbgov_device_write_error", "gauge",
			    "1 when wbgovd's last change of the device's knobs failed (wbgov explain says why)." },
};

/* A label value: \, " and newline escaped, as the format wants; a byte
 * that is not UTF-8 (a model string in Latin-1) as U+FFFD. */
static void label_value(FILE *f, const char *s)
{
	while (*s) {
		int n = text_utf8_len(s);
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			s++;
		} else if (*s == '\\' || *s == '"') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		}
	}
}

/* NAME{bdi="...",device="..."[,KEY="VALUE"]...} VALUE */
static void sample(FILE *f, enum fam k, const struct metrics_dev *m, const char *const *extra,
		   const char *value)
{
	fprintf(f, "%s{bdi=\"", fams[k].name);
	label_value(f, m->info.bdi);
	fputs("\",device=\"", f);
	label_value(f, m->info.is_share ? m->info.model : m->info.disk);
	fputc('"', f);
	for (; extra && extra[0]; extra += 2) {
		fprintf(f, ",%s=\"", extra[0]);
		label_value(f, extra[1]);
		fputc('"', f);
	}
	fprintf(f, "} %s\n", value);
}

/* The value of family k for m, in buf; false when it has none. */
static bool value_of(enum fam k, const struct metrics_dev *m, char *buf, size_t len)
{
	uint64_t bw = m->has_record ? m->rec.bw_bps : 0;

	switch (k) {
	case F_INFO:
		snprintf(buf, len, "1");
		return true;
	case F_BW:
	case F_SOURCE:
		snprintf(buf, len, "%llu", (unsigned long long)bw);
		return bw != 0;
	case F_STRICT:
		snprintf(buf, len, "%d", m->strict ? 1 : 0);
		return m->has_knobs;
	case F_LIMIT:
		snprintf(buf, len, "%llu", (unsigned long long)m->max_bytes);
		return m->has_knobs && m->strict;
	case F_PENDING:
		snprintf(buf, len, "%llu", (unsigned long long)m->pending_bytes);
		return m->has_pending;
	case F_DRAIN: {
		double s = status_drain_s(m->has_pending, m->pending_bytes, bw);
		snprintf(buf, len, "%.3f", s);
		return s >= 0;
	}
	case F_DECISIONS:
		snprintf(buf, len, "%llu", (unsigned long long)m->rec.decisions);
		return m->has_record && m->rec.has_decisions;
	case F_WINDOWS:
		snprintf(buf, len, "%u", m->rec.measures);
		return m->has_record;
	case F_WRITE_ERROR:
		snprintf(buf, len, "%d", m->rec.err ? 1 : 0);
		return m->has_record;
	case F_COUNT:
		break;
	}
	return false;
}

int metrics_write(FILE *f, bool daemon_up, const struct metrics_dev *dev, int n)
{
	/* the state set's members, in the order it has always had */
	static const enum bw_source sources[] = { BW_MEASURED, BW_LOWER_BOUND, BW_REMEMBERED };

	fputs("# HELP wbgov_daemon_up 1 while wbgovd runs, else 0.\n"
	      "# TYPE wbgov_daemon_up gauge\n", f);
	fprintf(f, "wbgov_daemon_up %d\n", daemon_up ? 1 : 0);
	for (int k = 0; k < F_COUNT; k++) {
		bool head = false;
		for (int i = 0; i < n; i++) {
			const struct metrics_dev *m = &dev[i];
			char v[32];
			if (!value_of((enum fam)k, m, v, sizeof(v)))
				continue;
			if (!head) {
				fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fams[k].name, fams[k].help,
					fams[k].name, fams[k].type);
				head = true;
			}
			if (k == F_INFO) {
				const char *labels[] = { "model", m->info.model, "bus", m->info.bus, NULL };
				sample(f, F_INFO, m, labels, v);
			} else if (k == F_SOURCE) {
				/* a state set: every source, 1 for the one in force */
				for (size_t s = 0; s < sizeof(sources) / sizeof(sources[0]); s++) {
					const char *labels[] = { "source", bw_source_key(sources[s]), NULL };
					sample(f, F_SOURCE, m, labels,
					       m->rec.source == (int)sources[s] ? "1" : "0");
				}
			} else {
				sample(f, (enum fam)k, m, NULL, v);
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------- the file wbgovd rewrites */

struct metrics_ctx {
	const struct governor *g;
	struct knobs_real *real;
	bool up;
};

/* The metrics file's contents: wbgovd's record of every device it governs
 * and the kernel's knobs and counters now, as `wbgov status --prometheus`
 * shows them; at exit, wbgov_daemon_up 0 alone. */
static int fill_metrics(FILE *f, const void *ctx)
{
	const struct metrics_ctx *x = ctx;
	const struct governor *g = x->g;
	int n = x->up ? g->ndev : 0, r;
	struct metrics_dev *m = calloc((size_t)n + 1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		m[i].info = g->dev[i].info;
		m[i].has_record = true;
		status_entry_of(&g->dev[i], &m[i].rec);
		metrics_read_kernel(x->real, &m[i]);
	}
	r = metrics_write(f, x->up, m, n);
	free(m);
	return r;
}

/* Whether the file is written, said; `r`: the last write's error, or
 * (at start) whether its directory takes writes. */
static void metrics_said(const struct metrics_file *mf, int r)
{
	const char *by = feature_refused_by(r, false);

	if (!mf->features)
		return;
	if (r)
		feature_set(mf->features, FEATURE_METRICS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "%s not written (%s); tried again every %.0f s", mf->path, strerror(-r),
			    (double)mf->interval_usec / 1e6);
	else
		feature_set(mf->features, FEATURE_METRICS, FEATURE_ON, NULL, "%s, every %.0f s",
			    mf->path, (double)mf->interval_usec / 1e6);
}

int metrics_file_start(struct metrics_file *mf, const char *path, uint64_t interval_usec,
		       struct features *features)
{
	char dir[PATH_MAX];
	int r;

	memset(mf, 0, sizeof(*mf));
	mf->dirfd = -1;
	mf->features = features;
	if (!path) {
		if (features)
			feature_set(features, FEATURE_METRICS, FEATURE_OFF, NULL,
				    "not asked for (metrics = in wbgov.conf, or --metrics-file)");
		return 0;
	}
	if (snprintf(mf->path, sizeof(mf->path), "%s", path) >= (int)sizeof(mf->path)) {
		mf->path[0] = 0;
		return -ENAMETOOLONG;
	}
	mf->interval_usec = interval_usec ? interval_usec : METRICS_DEFAULT_USEC;
	/* the directory must be there: it is node_exporter's, not ours to
	 * make, and Landlock allows only what exists at start */
	path_split(mf->path, dir, sizeof(dir), &mf->name);
	r = dir_open_trusted(dir);
	if (r < 0) {
		log_err("--metrics-file %s: its directory %s: %s", mf->path, dir, dir_trust_text(r));
		mf->path[0] = 0;
		return r;
	}
	mf->dirfd = r;
	/* read-only: under wbgovd.service, a directory its ReadWritePaths=
	 * does not name (ProtectSystem=strict) */
	metrics_said(mf, faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) ? -errno : 0);
	return 0;
}

/* Replace the metrics file; a failure is logged when it starts and when
 * it ends, and tried again at the next interval (a full disk passes). */
void metrics_file_publish(struct metrics_file *mf, const struct governor *g,
			  struct knobs_real *real, bool up)
{
	struct metrics_ctx x = { g, real, up };
	int r;

	if (!mf->path[0])
		return;
	r = file_publish_at(mf->dirfd, mf->name, fill_metrics, &x);
	if (r && r != mf->err)
		log_warn("%s: cannot write the metrics: %s%s; trying again every %.0f s",
			 mf->path, strerror(-r),
			 r == -EROFS ? " (under wbgovd.service: add the directory with a drop-in, "
				       "[Service] ReadWritePaths=DIR; see wbgov.conf(5))" : "",
			 (double)mf->interval_usec / 1e6);
	else if (!r && mf->err)
		log_info("%s: metrics written again", mf->path);
	if (r != mf->err)
		metrics_said(mf, r);
	mf->err = r;
}

void metrics_file_close(struct metrics_file *mf)
{
	if (mf->dirfd >= 0)
		close(mf->dirfd);
	mf->dirfd = -1;
	mf->path[0] = 0;
}

uint64_t metrics_file_step(struct metrics_file *mf, const struct governor *g,
			   struct knobs_real *real, uint64_t now_usec, uint64_t delay_usec)
{
	if (!mf->path[0])
		return delay_usec;
	/* on its own clock: a quiet governor sleeps 5 s between polls */
	if (now_usec >= mf->next_usec) {
		metrics_file_publish(mf, g, real, true);
		mf->next_usec = now_usec + mf->interval_usec;
	}
	return mf->next_usec - now_usec < delay_usec ? mf->next_usec - now_usec : delay_usec;
}
