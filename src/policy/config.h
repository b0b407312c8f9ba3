/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf's grammar over text, pure: its sections, the rule's keys
 * (policy/tunables.c's table) and their checks. Reading the file and its
 * drop-ins is sys/conffile.c's, which hands each text over in order; a
 * [global] key the rule does not know goes to a hook (wbgovd's own keys,
 * sys/conffile.c's, which every reader checks).
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
#ifndef WBGOV_POLICY_CONFIG_H
#define WBGOV_POLICY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "model/ini.h"
#include "policy/decide.h"

/* What a parse says besides an error: a warning ("FILE:LINE: warning: KEY =
 * VALUE: never matches: why": a value in quotes, a glob no fact can match)
 * or which files were read and which ignored ("FILE: read"). */
enum config_note { CONFIG_WARNING, CONFIG_INFO };
typedef void (*config_note_fn)(void *ctx, enum config_note level, const char *msg);

struct config_parse;
/* A [global] key the rule does not know, with its value: 1 taken, 0
 * failed (after config_fail), -1 not the hook's either. */
typedef int (*config_key_fn)(void *ctx, struct config_parse *p, const char *key, const char *val);

/* One parse, over the files in order. */
struct config_parse {
	struct ini_text in; /* the file being read, its line, the first error */
	unsigned file;      /* its index in c->files */
	struct gov_config *c;
	config_note_fn note;
	void *note_ctx;
	config_key_fn key;     /* NULL: every other key is unknown */
	void *key_ctx;
	const char *key_names; /* the hook's keys, for the message of an unknown one */
	char section[64];      /* the current [device ...] section */
	int rule;              /* its index in c->rules, -1 in [global] */
	unsigned keys[GOV_MAX_RULES]; /* bit per match key given */
	bool fixed_size[GOV_MAX_RULES];
	bool has_target[GOV_MAX_RULES];
	bool has_mode[GOV_MAX_RULES];
	unsigned seen_global; /* bit per global key in this file: duplicates are errors */
	unsigned limits_file; /* the last file that set floor or ceiling */
};

/* A parse into `c` (its defaults first), its first error into err, its
 * notes to fn (may be NULL). */
void config_begin(struct config_parse *p, struct gov_config *c, char *err, size_t errlen,
		  config_note_fn fn, void *ctx);
/* One file's text, named `name` in messages, after those before it: 0,
 * or -EINVAL (err says what and where) or -ENOMEM. */
int config_text(struct config_parse *p, const char *name, const char *text);
/* The checks that need a whole section or every file: 0 or -EINVAL. */
int config_finish(struct config_parse *p);

/* Keep the first error, "FILE:LINE: what" at the line being read ("FILE:
 * what" at line 0; config_at sets both); returns 0, what an ini handler
 * returns for an error. */
int config_fail(struct config_parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void config_at(struct config_parse *p, const char *name, int line);
/* A warning ("FILE:LINE: warning: what") or a word of what was read. */
void config_note(struct config_parse *p, enum config_note level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
