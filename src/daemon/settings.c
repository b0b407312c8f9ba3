/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's own settings (settings.h): the command line over the
 * configuration, checked, and what a reload may change of them. Writes
 * nothing, starts nothing: daemon.c hands the result to metrics.c and
 * bus.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/context.h"
#include "daemon/metrics.h"
#include "daemon/settings.h"
#include "sys/fsutil.h"
#include "sys/log.h"

/* wbgovd's own files in the state directory (record.c, status.c) */
static const char *const own_files[] = { "state", "status", "wbgovd.pid", "wbgovd.lock", NULL };

static const char *file_of(const struct gov_config *cfg, unsigned i)
{
	return (int)i < cfg->nfiles ? cfg->files[i] : "?";
}

/* "PATH" and "DIR/PATH" name the same file when DIR ends in '/' */
static bool same_path(const char *dir, const char *name, const char *path)
{
	char p[PATH_MAX];
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return snprintf(p, sizeof(p), "%.*s/%s", (int)n, dir, name) < (int)sizeof(p) &&
	       !strcmp(p, path);
}

int settings_resolve(const struct daemon_opts *o, const struct gov_config *cfg,
		     const struct conffile_daemon *cd, struct daemon_settings *ret, char *err,
		     size_t errlen)
{
	char dir[PATH_MAX];
	int r;

	memset(ret, 0, sizeof(*ret));
	err[0] = 0;
	snprintf(ret->metrics_buf, sizeof(ret->metrics_buf), "%s", cd->metrics);
	snprintf(ret->bus_buf, sizeof(ret->bus_buf), "%s", cd->bus);
	if (o->metrics_path) {
		ret->metrics = o->metrics_path;
		snprintf(ret->metrics_from, sizeof(ret->metrics_from), "--metrics-file %s",
			 o->metrics_path);
	} else if (cd->metrics_line) {
		ret->metrics = ret->metrics_buf[0] ? ret->metrics_buf : NULL;
		snprintf(ret->metrics_from, sizeof(ret->metrics_from), "%s:%u: metrics = %s",
			 file_of(cfg, cd->metrics_file), cd->metrics_line, cd->metrics);
	}
	ret->metrics_usec = o->metrics_usec ? o->metrics_usec : cd->metrics_ms * 1000;
	if (o->bus) {
		ret->bus = o->bus;
		snprintf(ret->bus_from, sizeof(ret->bus_from), "--bus %s", o->bus);
	} else if (cd->bus_line) {
		ret->bus = ret->bus_buf;
		snprintf(ret->bus_from, sizeof(ret->bus_from), "%s:%u: bus = %s",
			 file_of(cfg, cd->bus_file), cd->bus_line, cd->bus);
	}
	if (o->metrics_usec && !ret->metrics) {
		snprintf(err, errlen, "--metrics-interval goes with --metrics-file, or metrics = in "
				      "the configuration");
		return -EINVAL;
	}
	if (!ret->metrics)
		return 0;
	/* one of wbgovd's own files, replaced by metrics every few seconds,
	 * would lose the knobs' original values or the device memory */
	for (int i = 0; own_files[i]; i++)
		if (same_path(o->state_dir, own_files[i], ret->metrics)) {
			snprintf(err, errlen, "%s: that is wbgovd's own %s file in its state directory",
				 ret->metrics_from, own_files[i]);
			return -EEXIST;
		}
	if (o->memory_path && !strcmp(o->memory_path, ret->metrics)) {
		snprintf(err, errlen, "%s: that is wbgovd's device memory (--memory)",
			 ret->metrics_from);
		return -EEXIST;
	}
	/* the directory must be there: it is node_exporter's, not ours to
	 * make, and Landlock allows only what exists at start */
	path_split(ret->metrics, dir, sizeof(dir), NULL);
	r = dir_open_trusted(dir);
	if (r < 0) {
		snprintf(err, errlen, "%s: its directory %s: %s", ret->metrics_from, dir,
			 dir_trust_text(r));
		return r;
	}
	close(r);
	return 0;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

void settings_reload(struct daemon_settings *run, uint64_t *metrics_interval_usec,
		     const struct daemon_settings *now)
{
	uint64_t iv = now->metrics_usec ? now->metrics_usec : METRICS_DEFAULT_USEC;

	if (!same(run->metrics, now->metrics))
		log_warn("%s: not applied until wbgovd restarts (its writes are confined to the "
			 "directories it had at start); the metrics file stays %s",
			 now->metrics_from[0] ? now->metrics_from : "metrics (no longer set)",
			 run->metrics ? run->metrics : "off");
	if (!same(run->bus, now->bus))
		log_warn("%s: not applied until wbgovd restarts (its clients and their Sync calls "
			 "keep the bus it is on); D-Bus stays %s",
			 now->bus_from[0] ? now->bus_from : "bus (no longer set)",
			 run->bus ? run->bus : "the default");
	/* the interval is a setting of its own: it applies to the running
	 * file whatever the path says */
	if (run->metrics && iv != *metrics_interval_usec) {
		log_info("metrics file %s: written every %.0f s from now on", run->metrics,
			 (double)iv / 1e6);
		*metrics_interval_usec = iv;
	}
}
