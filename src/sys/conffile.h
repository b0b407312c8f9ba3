/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration's files: /etc/wbgov/wbgov.conf and its drop-ins
 * (wbgov.conf.d/ *.conf), read with their trust checks and handed to
 * policy/config.c's grammar in order; and wbgovd's own [global] keys
 * (metrics, metrics_interval, bus), which every reader checks (a bad `bus
 * =` fails `wbsim --config`, `wbgov apply` and `explain` as it fails
 * wbgovd) and only wbgovd uses. */
#ifndef WBGOV_SYS_CONFFILE_H
#define WBGOV_SYS_CONFFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/config.h"

#define CONFFILE_DEFAULT_PATH "/etc/wbgov/wbgov.conf"

/* The drop-in directory: beside the main file. */
#define CONFFILE_DROPIN_NAME "wbgov.conf.d"
/* At most this many drop-ins. */
#define CONFFILE_DROPINS_MAX 32

/* metrics_interval and --metrics-interval: 1 s to an hour. */
#define CONFFILE_INTERVAL_MIN_MS 1000ULL
#define CONFFILE_INTERVAL_MAX_MS 3600000ULL

/* The directories wbgovd.service lets wbgovd write a metrics file in
 * (ProtectSystem=strict; its ReadWritePaths= name them): NULL-terminated.
 * A metrics file elsewhere is a warning of `wbgovd -n`, which says how to
 * add a directory. */
extern const char *const conffile_metrics_dirs[];

/* wbgovd's own [global] settings, besides the rule's: what wbgovd does
 * with them is its business (wbsim and wbgov check them and use none).
 * `file` indexes gov_config.files; `line` is 0 when the key is not set. */
struct conffile_daemon {
	char metrics[PATH_MAX];  /* metrics = PATH; "" with the key: no file */
	unsigned metrics_file, metrics_line;
	uint64_t metrics_ms;     /* metrics_interval; 0 when not set */
	unsigned metrics_interval_file, metrics_interval_line;
	char bus[PATH_MAX];      /* bus = system|session|none|ADDRESS */
	unsigned bus_file, bus_line;
};

/* A metrics interval as wbgov.conf's metrics_interval and wbgovd's
 * --metrics-interval both take it (10, 10s, 1500ms; 1 to 3600 seconds):
 * one parser for both. 0 and *ret_ms, or -EINVAL. */
int conffile_parse_interval(const char *s, uint64_t *ret_ms);

/* A metrics file's path, as metrics = and --metrics-file both take it:
 * absolute, each component a name (no ".", "..", "//" or trailing "/":
 * wbgovd renames its temporary file over it, and the unit's directories
 * are compared by its text), with room for the temporary name. */
bool conffile_metrics_path_ok(const char *path);

/* DIR/wbgov.conf.d for DIR/FILE ("wbgov.conf.d" for a bare FILE); 0, or
 * -ENAMETOOLONG. */
int conffile_dropin_dir(const char *path, char *buf, size_t len);

/* Parse `path` into `c` (defaults first), then every *.conf of its
 * drop-in directory (none for /dev/null) in strcmp order: later [global]
 * values replace earlier ones, [device] sections add up, and each must be
 * as trusted as the main file; a missing directory is none. wbgovd's own
 * settings go into `d` (zeroed first; may be NULL). Each file must be a
 * regular file (or /dev/null: the defaults) owned by root or by us and
 * writable by no one else (file_read_trusted); read without blocking,
 * however it was made. A missing main file is the defaults when
 * `missing_ok`. On error returns -errno or -EINVAL and writes
 * "FILE:LINE: what is wrong" (or "FILE: ...") into err; notes go to fn
 * (may be NULL). */
int conffile_load_daemon(const char *path, bool missing_ok, struct gov_config *c,
			 struct conffile_daemon *d, char *err, size_t errlen, config_note_fn fn,
			 void *ctx);
int conffile_load_notes(const char *path, bool missing_ok, struct gov_config *c, char *err,
			size_t errlen, config_note_fn fn, void *ctx);
int conffile_load(const char *path, bool missing_ok, struct gov_config *c, char *err,
		  size_t errlen);

/* The same for a string (tests); `name` stands for the file in messages. */
int conffile_parse_string_daemon(const char *name, const char *text, struct gov_config *c,
				 struct conffile_daemon *d, char *err, size_t errlen,
				 config_note_fn fn, void *ctx);
int conffile_parse_string_notes(const char *name, const char *text, struct gov_config *c,
				char *err, size_t errlen, config_note_fn fn, void *ctx);
int conffile_parse_string(const char *name, const char *text, struct gov_config *c, char *err,
			  size_t errlen);

#endif
