/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf's grammar (config.h says the format) over the text of each
 * file in turn, into a struct gov_config through the ini reader; every
 * key's range and meaning is policy/tunables.c's table, shared with wbsim.
 * No state: the caller owns what it parsed. */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/ini.h"
#include "model/parse.h"
#include "model/units.h"
#include "policy/config.h"
#include "policy/tunables.h"

int config_fail(struct config_parse *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ini_vfail(&x->in, fmt, ap);
	va_end(ap);
	return 0;
}

void config_at(struct config_parse *x, const char *name, int line)
{
	x->in.name = name;
	x->in.line = line;
}

void config_note(struct config_parse *x, enum config_note level, const char *fmt, ...)
{
	char what[384], msg[768];
	va_list ap;

	if (!x->note)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (level == CONFIG_WARNING)
		snprintf(msg, sizeof(msg), "%s:%d: warning: %s", x->in.name, x->in.line, what);
	else
		snprintf(msg, sizeof(msg), "%s", what);
	x->note(x->note_ctx, level, msg);
}

enum header_error { HDR_TWICE, HDR_TOO_MANY, HDR_UNKNOWN };

/* An error about the [section] line itself (the reader's count goes on). */
static int fail_header(struct config_parse *x, enum header_error e, const char *section, int other)
{
	int line = x->in.line;
	const struct gov_rule *r = other >= 0 ? &x->c->rules[other] : NULL;

	x->in.line = x->in.header_line;
	if (e == HDR_TWICE && r && r->file != x->file)
		config_fail(x, "[%s] appears twice (first in %s:%u)", section, x->c->files[r->file],
			    r->line);
	else if (e == HDR_TWICE)
		config_fail(x, "[%s] appears twice", section);
	else if (e == HDR_TOO_MANY)
		config_fail(x, "too many [device] sections (at most %d)", GOV_MAX_RULES);
	else
		config_fail(x, "unknown section [%s] (global, or device NAME)", section);
	x->in.line = line;
	return 0;
}

static int new_rule(struct config_parse *x, const char *section)
{
	struct gov_config *c = x->c;
	struct gov_rule *r;

	for (int i = 0; i < c->nrules; i++)
		if (!strcmp(c->rules[i].name, section + (section[6] ? 7 : 6)))
			return fail_header(x, HDR_TWICE, section, i);
	if (c->nrules == GOV_MAX_RULES)
		return fail_header(x, HDR_TOO_MANY, section, -1);
	x->rule = c->nrules++;
	r = &c->rules[x->rule];
	memset(r, 0, sizeof(*r));
	r->mode = MODE_TIME;
	r->line = (unsigned)x->in.header_line;
	r->file = x->file;
	snprintf(r->name, sizeof(r->name), "%.63s", section + (section[6] ? 7 : 6));
	snprintf(x->section, sizeof(x->section), "%.63s", section);
	return 1;
}

static int global_key(struct config_parse *x, const char *key, const char *val)
{
	const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
	char want[96];
	unsigned bit;
	uint64_t *at;
	int r;

	if (!t && x->key && (r = x->key(x->key_ctx, x, key, val)) >= 0)
		return r;
	if (!t)
		return config_fail(x, "unknown key \"%s\" in [global] (target, floor, ceiling, initial, "
				   "fast_target, global_drain%s)", key, x->key_names ? x->key_names : "");
	bit = 1u << (t - gov_tunables);
	if (x->seen_global & bit)
		return config_fail(x, "\"%s\" is set twice", key);
	x->seen_global |= bit;
	at = gov_tunable_at(t, x->c);
	r = t->unit == GOV_UNIT_MS ? parse_ms_in(val, t->min, t->max, at) :
				     parse_size_in(val, t->min, t->max, at);
	if (r) {
		gov_tunable_want(t, want, sizeof(want));
		return config_fail(x, "%s = \"%s\": want %s", key, val, want);
	}
	if (!strcmp(key, "floor") || !strcmp(key, "ceiling"))
		x->limits_file = x->file;
	return 1;
}

/* ------------------------------------------------ globs that never match */

/* One unit of a shell glob: a literal character, `?`, a [...] set, `*`. */
enum glob_unit { G_LIT, G_ANY, G_SET, G_STAR };

static const char *glob_next(const char *p, enum glob_unit *u, char *lit)
{
	if (*p == '*' || *p == '?') {
		*u = *p == '*' ? G_STAR : G_ANY;
		return p + 1;
	}
	if (*p == '[') {
		const char *q = p + 1;
		if (*q == '!' || *q == '^')
			q++;
		if (*q == ']')
			q++;
		while (*q && *q != ']')
			q++;
		if (*q == ']') {
			*u = G_SET;
			return q + 1;
		}
		/* unterminated: fnmatch takes the [ for itself */
	}
	if (*p == '\\' && p[1])
		p++;
	*u = G_LIT;
	*lit = *p;
	return p + 1;
}

/* Every literal character of the glob is one of `allowed`. */
static bool glob_literals_in(const char *g, const char *allowed)
{
	enum glob_unit u;
	char c = 0;

	for (const char *p = g; *p;) {
		p = glob_next(p, &u, &c);
		if (u == G_LIT && !strchr(allowed, c))
			return false;
	}
	return true;
}

#define HEX "0123456789abcdefABCDEF"

/* VENDOR:PRODUCT: four hex digits, a colon, four hex digits. */
static bool usb_glob_can_match(const char *g)
{
	enum glob_unit u;
	char c = 0;
	int n = 0;
	bool star = false;

	if (!glob_literals_in(g, HEX ":"))
		return false;
	for (const char *p = g; *p; n++) {
		p = glob_next(p, &u, &c);
		star |= u == G_STAR;
		if (!star && u == G_LIT && (n == 4) != (c == ':'))
			return false;
	}
	return star || n == 9;
}

/* What the bus fact can be: sysfs's, and udev's ID_BUS where udevd runs. */
static const char *const buses[] = { "usb", "ata", "nvme", "mmc", "virtio", "loop", "virtual",
				     "scsi", "ieee1394", "memstick", NULL };

/* A value that can never match the fact it is compared with: a warning,
 * not an error (the section then matches nothing, which harms nothing),
 * so that `wbgovd -n` says what a typo costs. */
static void check_value(struct config_parse *x, const char *key, const char *val)
{
	size_t n = strlen(val);
	const char *why = NULL;

	if (n >= 2 && (val[0] == '"' || val[0] == '\'') && val[n - 1] == val[0]) {
		config_note(x, CONFIG_WARNING, "%s = %s: never matches: the quotes are part of the value "
			    "(write %s = %.*s)", key, val, key, (int)n - 2, val + 1);
		return;
	}
	if (!strcmp(key, "mount")) {
		enum glob_unit u;
		char c = 0;
		glob_next(val, &u, &c);
		if (u == G_LIT && c != '/')
			why = "a mount point starts with /";
	} else if (!strcmp(key, "usb")) {
		if (!usb_glob_can_match(val))
			why = "a USB id is VENDOR:PRODUCT, four hex digits each, like 0781:5567";
	} else if (!strcmp(key, "uuid")) {
		if (!glob_literals_in(val, HEX "-"))
			why = "a filesystem UUID has hex digits and - only";
	} else if (!strcmp(key, "devnum")) {
		if (!glob_literals_in(val, "0123456789:"))
			why = "a device number is MAJOR:MINOR, digits only";
	} else if (!strcmp(key, "bus")) {
		int i;
		for (i = 0; buses[i] && fnmatch(val, buses[i], 0); i++)
			;
		if (!buses[i])
			why = "the buses are usb, ata, nvme, mmc, virtio, loop, virtual, and udev's scsi, "
			      "ieee1394, memstick (case counts)";
	}
	if (why)
		config_note(x, CONFIG_WARNING, "%s = %s: never matches: %s", key, val, why);
}

static bool has_glob(const char *v) { return strpbrk(v, "*?[\\") != NULL; }

static int device_key(struct config_parse *x, const char *key, const char *val)
{
	struct gov_rule *r = &x->c->rules[x->rule];

	for (int k = 0; k < MATCH_COUNT; k++) {
		unsigned maj, min;
		char tail;
		if (strcmp(key, gov_match_keys[k]))
			continue;
		if (x->keys[x->rule] & (1u << k))
			return config_fail(x, "\"%s\" is set twice in [%s]", key, x->section);
		x->keys[x->rule] |= 1u << k;
		if (!*val || strlen(val) >= sizeof(r->match[k]))
			return config_fail(x, "%s = \"%s\": want a non-empty value of at most 63 characters",
					   key, val);
		if (k == MATCH_DEVNUM && !has_glob(val) && sscanf(val, "%u:%u%c", &maj, &min, &tail) != 2)
			return config_fail(x, "devnum = \"%s\": want MAJOR:MINOR, like 8:16", val);
		snprintf(r->match[k], sizeof(r->match[k]), "%s", val);
		check_value(x, key, val);
		return 1;
	}
	if ((!strcmp(key, "mode") && x->has_mode[x->rule]) ||
	    (!strcmp(key, "max_bytes") && x->fixed_size[x->rule]) ||
	    (!strcmp(key, "target") && x->has_target[x->rule]))
		return config_fail(x, "\"%s\" is set twice in [%s]", key, x->section);
	if (!strcmp(key, "mode")) {
		x->has_mode[x->rule] = true;
		if (!strcmp(val, "time"))
			r->mode = MODE_TIME;
		else if (!strcmp(val, "fixed"))
			r->mode = MODE_FIXED;
		else if (!strcmp(val, "off"))
			r->mode = MODE_OFF;
		else
			return config_fail(x, "mode = \"%s\": want time, fixed or off", val);
		return 1;
	}
	if (!strcmp(key, "max_bytes")) {
		if (parse_size_in(val, PAGE_SIZE, UINT64_MAX, &r->fixed_bytes))
			return config_fail(x, "max_bytes = \"%s\": want a size of at least 4096 bytes, like 16M",
					   val);
		x->fixed_size[x->rule] = true;
		return 1;
	}
	if (!strcmp(key, "target")) {
		/* the [global] key's range and syntax */
		const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
		char want[96];
		if (parse_ms_in(val, t->min, t->max, &r->target_ms)) {
			gov_tunable_want(t, want, sizeof(want));
			return config_fail(x, "target = \"%s\": want %s", val, want);
		}
		x->has_target[x->rule] = true;
		return 1;
	}
	return config_fail(x, "unknown key \"%s\" in [%s] (serial, model, bus, devnum, mount, label, "
			   "uuid, usb, wwn, mode, max_bytes, target)", key, x->section);
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
	struct config_parse *x = user;

	if (!*section || !strcmp(section, "global")) {
		x->rule = -1;
		return global_key(x, key, val);
	}
	if (strncmp(section, "device", 6) || (section[6] && section[6] != ' '))
		return fail_header(x, HDR_UNKNOWN, section, -1);
	/* a new header, even with the name of the one before, starts a new rule */
	if (x->rule < 0 || strcmp(x->section, section) ||
	    (int)x->c->rules[x->rule].line != x->in.header_line) {
		if (!new_rule(x, section))
			return 0;
	}
	return device_key(x, key, val);
}

/* Checks that need a whole section, or every file. */
int config_finish(struct config_parse *x)
{
	struct gov_config *c = x->c;

	for (int i = 0; i < c->nrules && !x->in.failed; i++) {
		struct gov_rule *r = &c->rules[i];
		config_at(x, c->files[r->file], (int)r->line);
		if (!x->keys[i])
			config_fail(x, "this [device] section has no match key (serial, model, bus, devnum, "
				    "mount, label, uuid, usb or wwn)");
		else if (r->mode == MODE_FIXED && !x->fixed_size[i])
			config_fail(x, "mode fixed needs max_bytes");
		else if (r->mode != MODE_FIXED && x->fixed_size[i])
			config_fail(x, "max_bytes goes with mode fixed");
		else if (r->mode != MODE_TIME && x->has_target[i])
			config_fail(x, "target goes with mode time");
	}
	if (!x->in.failed && c->floor_bytes > c->ceiling_bytes) {
		config_at(x, c->nfiles ? c->files[x->limits_file] : "?", 0);
		config_fail(x, "floor is above ceiling");
	}
	return x->in.failed ? -EINVAL : 0;
}

int config_text(struct config_parse *x, const char *name, const char *text)
{
	struct gov_config *c = x->c;

	config_at(x, name, 0);
	if (strlen(name) >= GOV_FILE_NAME_MAX)
		return config_fail(x, "a path longer than %d characters", GOV_FILE_NAME_MAX - 1), -EINVAL;
	if (c->nfiles == GOV_MAX_FILES)
		return config_fail(x, "more than %d files with the drop-ins", GOV_MAX_FILES), -EINVAL;
	x->file = (unsigned)c->nfiles++;
	snprintf(c->files[x->file], sizeof(c->files[x->file]), "%s", name);
	x->in.name = c->files[x->file];
	x->rule = -1;
	x->section[0] = 0;
	x->seen_global = 0; /* a later file may set what an earlier one did */
	return ini_text_parse(&x->in, text, NULL, handler, x,
			      "not a section, key = value, or comment");
}

void config_begin(struct config_parse *x, struct gov_config *c, char *err, size_t errlen,
		  config_note_fn fn, void *ctx)
{
	memset(x, 0, sizeof(*x));
	x->in.err = err;
	x->in.errlen = errlen;
	x->c = c;
	x->note = fn;
	x->note_ctx = ctx;
	x->rule = -1;
	err[0] = 0;
	gov_config_defaults(c);
}
