/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's own settings, beside the rule's: the metrics file, how often
 * it is written, and the bus (settings.c). Each is the command line's
 * (--metrics-file, --metrics-interval, --bus) when given, else the
 * configuration's [global] key (metrics, metrics_interval, bus), else the
 * default; resolved once for -n and at start, compared at reload. */
#ifndef WBGOV_DAEMON_SETTINGS_H
#define WBGOV_DAEMON_SETTINGS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/conffile.h"

struct daemon_opts;

struct daemon_settings {
	const char *metrics;       /* the file; NULL: none */
	uint64_t metrics_usec;     /* 0: the default */
	const char *bus;           /* NULL: the default (bus_parse_kind) */
	/* what the messages name: "--metrics-file PATH" or "FILE:LINE:
	 * metrics = PATH" (and the same for the bus) */
	char metrics_from[PATH_MAX + 64];
	char bus_from[PATH_MAX + 64];
	char metrics_buf[PATH_MAX], bus_buf[PATH_MAX]; /* the file's values, kept */
};

/* The settings of `o` over those of the configuration (`cfg` names its
 * files, `cd` its values) into *ret. 0, or what is wrong in err and:
 * -EINVAL for --metrics-interval without a metrics file (a usage error),
 * -EEXIST for a metrics file that is one of wbgovd's own (the state
 * directory's files, device memory), -errno of its directory that is not
 * there (or is no directory). */
int settings_resolve(const struct daemon_opts *o, const struct gov_config *cfg,
		     const struct conffile_daemon *cd, struct daemon_settings *ret, char *err,
		     size_t errlen);

/* At reload: a metrics file or a bus that differs from the running one is
 * logged, naming the file and line, and not applied (Landlock allows
 * writes only in the directories of the start, and the bus keeps its
 * clients and their Sync calls until wbgovd restarts); a new interval
 * applies. `run` is the running settings, updated with what applies. */
void settings_reload(struct daemon_settings *run, uint64_t *metrics_interval_usec,
		     const struct daemon_settings *now);

#endif
