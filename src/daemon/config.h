/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /etc/wbgov/wbgov.conf and /etc/wbgov/wbgov.conf.d/ *.conf, through libinih:
 *
 *   [global]
 *   target = 1s          ; seconds of measured bandwidth a device may hold dirty
 *   floor = 4M           ; the smallest cap
 *   ceiling = 256M       ; a device whose cap would be larger is a fast one ...
 *   fast_target = 2s     ; ... and gets this many seconds of its bandwidth, unless
 *   global_drain = 10s   ; it drains the whole global threshold within this
 *   initial = 16M        ; USB/removable/rotational devices before a measurement
 *   metrics = /run/wbgov/wbgov.prom ; wbgovd's own: its metrics file ("": none),
 *   metrics_interval = 10s ; how often it is written,
 *   bus = system         ; and where it is on D-Bus (--metrics-file,
 *                        ; --metrics-interval and --bus win over these)
 *
 *   [device stick]       ; any name; the first matching section wins
 *   usb = 0781:*         ; shell globs; every key given must match: serial,
 *   label = BACKUP*      ; model, bus, devnum, mount, label, uuid, usb, wwn
 *   mode = fixed         ; time (default) | fixed | off
 *   max_bytes = 32M      ; mode fixed
 *   target = 2s          ; mode time
 *
 * The drop-ins come after the main file, in strcmp order: a [global] key
 * they set replaces the value before, their [device] sections come after
 * those before.
 */
#ifndef WBGOV_DAEMON_CONFIG_H
#define WBGOV_DAEMON_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/decide.h"

#define CONFIG_DEFAULT_PATH "/etc/wbgov/wbgov.conf"

/* The drop-in directory: beside the main file. */
#define CONFIG_DROPIN_NAME "wbgov.conf.d"
/* At most this many drop-ins. */
#define CONFIG_DROPINS_MAX 32

/* What a parse says besides an error: a warning ("FILE:LINE: warning: KEY =
 * VALUE: never matches: why": a value in quotes, a glob no fact can match)
 * or which files were read and which ignored ("FILE: read"). */
enum config_note { CONFIG_WARNING, CONFIG_INFO };
typedef void (*config_note_fn)(void *ctx, enum config_note level, const char *msg);

/* The directories wbgovd.service lets wbgovd write a metrics file in
 * (ProtectSystem=strict; its ReadWritePaths= name them): NULL-terminated.
 * A metrics file elsewhere is a warning of `wbgovd -n`, which says how to
 * add a directory. */
extern const char *const config_metrics_dirs[];

/* wbgovd's own [global] settings, besides the rule's: what wbgovd does
 * with them is its business (wbsim and wbgov check them and use none).
 * `file` indexes gov_config.files; `line` is 0 when the key is not set. */
struct config_daemon {
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
int config_parse_interval(const char *s, uint64_t *ret_ms);

/* DIR/wbgov.conf.d for DIR/FILE ("wbgov.conf.d" for a bare FILE); 0, or
 * -ENAMETOOLONG. */
int config_dropin_dir(const char *path, char *buf, size_t len);

/* Parse `path` into `c` (defaults first), then every *.conf of its
 * drop-in directory (none for /dev/null) in strcmp order: later [global]
 * values replace earlier ones, [device] sections add up, and each must be
 * as trusted as the main file; a missing directory is none. */
int config_load_notes(const char *path, bool missing_ok, struct gov_config *c, char *err,
		      size_t errlen, config_note_fn fn, void *ctx);
int config_parse_string_notes(const char *name, const char *text, struct gov_config *c, char *err,
			      size_t errlen, config_note_fn fn, void *ctx);
/* The same, with wbgovd's own settings into `d` (zeroed first). */
int config_load_daemon(const char *path, bool missing_ok, struct gov_config *c,
		       struct config_daemon *d, char *err, size_t errlen, config_note_fn fn,
		       void *ctx);
int config_parse_string_daemon(const char *name, const char *text, struct gov_config *c,
			       struct config_daemon *d, char *err, size_t errlen, config_note_fn fn,
			       void *ctx);

/* Parse `path` into `c` (defaults first). It must be a regular file (or
 * /dev/null: the defaults) owned by root or by us and writable by no one
 * else (file_read_trusted); read without blocking, however it was made. A missing file is the defaults
 * when `missing_ok`. On error returns -errno or -EINVAL and writes
 * "FILE:LINE: what is wrong" (or "FILE: ...") into err. */
int config_load(const char *path, bool missing_ok, struct gov_config *c, char *err, size_t errlen);

/* The same for a string (tests); `name` stands for the file in messages. */
int config_parse_string(const char *name, const char *text, struct gov_config *c, char *err,
			size_t errlen);

#endif
