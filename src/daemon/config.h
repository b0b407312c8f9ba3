/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /etc/wbgov/wbgov.conf, through libinih:
 *
 *   [global]
 *   target = 1s          ; seconds of measured bandwidth a device may hold dirty
 *   floor = 4M           ; the smallest cap
 *   ceiling = 256M       ; a device whose cap would be larger is a fast one ...
 *   fast_target = 2s     ; ... and gets this many seconds of its bandwidth, unless
 *   global_drain = 10s   ; it drains the whole global threshold within this
 *   initial = 16M        ; USB/removable/rotational devices before a measurement
 *
 *   [device stick]       ; any name; the first matching section wins
 *   serial = 4C530001190823115393   ; or model = ..., bus = usb, devnum = 8:16
 *   mode = fixed         ; time (default) | fixed | off
 *   max_bytes = 32M      ; mode fixed
 *   target = 2s          ; mode time
 */
#ifndef WBGOV_DAEMON_CONFIG_H
#define WBGOV_DAEMON_CONFIG_H

#include <stddef.h>

#include "policy/decide.h"

#define CONFIG_DEFAULT_PATH "/etc/wbgov/wbgov.conf"

/* A configuration file is at most this large. */
#define CONFIG_FILE_MAX (64 * 1024)

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
