/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "model/parse.h"
#include "model/units.h"
#include "daemon/config.h"
#include "sys/fsutil.h"
#include "policy/tunables.h"

struct ctx {
	const char *name;
	struct gov_config *c;
	char *err;
	size_t errlen;
	int line;          /* the line the reader gave last */
	int header_line;   /* the last [section] header's */
	bool at_line_start;
	bool failed;       /* an error is in err (its line may be 0) */
	const char *text;  /* the input */
	char section[64];  /* the current [device ...] section */
	char names[GOV_MAX_RULES][64];
	int rule;          /* its index in c->rules, -1 in [global] */
	unsigned nmatch[GOV_MAX_RULES];
	bool fixed_size[GOV_MAX_RULES];
	bool has_target[GOV_MAX_RULES];
	bool has_mode[GOV_MAX_RULES];
	unsigned seen_global; /* bit per global key: duplicates are errors */
};

static int fail(struct ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* Keep the first error, as "FILE:LINE: what"; returns 0 for inih. */
static int fail(struct ctx *x, const char *fmt, ...)
{
	if (!x->failed) {
		char what[256];
		va_list ap;
		x->failed = true;
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		snprintf(x->err, x->errlen, "%s:%d: %s", x->name, x->line, what);
	}
	return 0;
}

/* ini_reader: one line per call, counting lines for the messages. */
static char *reader(char *str, int num, void *stream)
{
	struct ctx *x = stream;

	size_t n = 0;
	const char *p = str;

	if (!*x->text || x->failed)
		return NULL;
	while (x->text[n] && x->text[n] != '\n' && n + 2 < (size_t)num)
		n++;
	if (x->text[n] == '\n')
		n++;
	memcpy(str, x->text, n);
	str[n] = 0;
	x->text += n;
	x->line++;
	/* inih would read a longer line in pieces, each taken for a line (a
	 * long comment ending in "ceiling = 8K" would set it): refused */
	if (str[n - 1] != '\n' && *x->text) {
		fail(x, "a line longer than %d characters", num - 2);
		return NULL;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[')
		x->header_line = x->line;
	return str;
}

enum header_error { HDR_TWICE, HDR_TOO_MANY, HDR_UNKNOWN };

/* An error about the [section] line itself (the reader's count goes on). */
static int fail_header(struct ctx *x, enum header_error e, const char *section)
{
	int line = x->line;

	x->line = x->header_line;
	if (e == HDR_TWICE)
		fail(x, "[%s] appears twice", section);
	else if (e == HDR_TOO_MANY)
		fail(x, "too many [device] sections (at most %d)", GOV_MAX_RULES);
	else
		fail(x, "unknown section [%s] (global, or device NAME)", section);
	x->line = line;
	return 0;
}

static int new_rule(struct ctx *x, const char *section)
{
	struct gov_config *c = x->c;

	for (int i = 0; i < c->nrules; i++)
		if (!strcmp(x->names[i], section))
			return fail_header(x, HDR_TWICE, section);
	if (c->nrules == GOV_MAX_RULES)
		return fail_header(x, HDR_TOO_MANY, section);
	x->rule = c->nrules++;
	memset(&c->rules[x->rule], 0, sizeof(c->rules[x->rule]));
	c->rules[x->rule].mode = MODE_TIME;
	c->rules[x->rule].line = (unsigned)x->header_line;
	snprintf(x->section, sizeof(x->section), "%.63s", section);
	snprintf(x->names[x->rule], sizeof(x->names[x->rule]), "%.63s", section);
	return 1;
}

static int global_key(struct ctx *x, const char *key, const char *val)
{
	const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
	char want[96];
	unsigned bit;

	if (!t)
		return fail(x, "unknown key \"%s\" in [global] (target, floor, ceiling, initial, "
			       "fast_target, global_drain)", key);
	bit = 1u << (t - gov_tunables);
	if (x->seen_global & bit)
		return fail(x, "\"%s\" is set twice", key);
	x->seen_global |= bit;
	if (gov_tunable_set(t, x->c, val)) {
		gov_tunable_want(t, want, sizeof(want));
		return fail(x, "%s = \"%s\": want %s", key, val, want);
	}
	return 1;
}

static int device_key(struct ctx *x, const char *key, const char *val)
{
	struct gov_rule *r = &x->c->rules[x->rule];
	uint64_t v;

	if (!strcmp(key, "serial") || !strcmp(key, "model") || !strcmp(key, "bus") ||
	    !strcmp(key, "devnum")) {
		unsigned a, b;
		char tail;
		if (x->nmatch[x->rule]++)
			return fail(x, "[%s] already has a match key; one of serial, model, bus, devnum",
				    x->section);
		if (!*val || strlen(val) >= sizeof(r->value))
			return fail(x, "%s = \"%s\": want a non-empty value of at most 63 characters", key, val);
		if (!strcmp(key, "devnum") && sscanf(val, "%u:%u%c", &a, &b, &tail) != 2)
			return fail(x, "devnum = \"%s\": want MAJOR:MINOR, like 8:16", val);
		r->kind = key[0] == 's' ? MATCH_SERIAL : key[0] == 'm' ? MATCH_MODEL :
			  key[0] == 'b' ? MATCH_BUS : MATCH_DEVNUM;
		snprintf(r->value, sizeof(r->value), "%s", val);
		return 1;
	}
	if ((!strcmp(key, "mode") && x->has_mode[x->rule]) ||
	    (!strcmp(key, "max_bytes") && x->fixed_size[x->rule]) ||
	    (!strcmp(key, "target") && x->has_target[x->rule]))
		return fail(x, "\"%s\" is set twice in [%s]", key, x->section);
	if (!strcmp(key, "mode")) {
		x->has_mode[x->rule] = true;
		if (!strcmp(val, "time"))
			r->mode = MODE_TIME;
		else if (!strcmp(val, "fixed"))
			r->mode = MODE_FIXED;
		else if (!strcmp(val, "off"))
			r->mode = MODE_OFF;
		else
			return fail(x, "mode = \"%s\": want time, fixed or off", val);
		return 1;
	}
	if (!strcmp(key, "max_bytes")) {
		if (parse_size(val, &v) || v < PAGE_SIZE)
			return fail(x, "max_bytes = \"%s\": want a size of at least 4096 bytes, like 16M", val);
		r->fixed_bytes = v;
		x->fixed_size[x->rule] = true;
		return 1;
	}
	if (!strcmp(key, "target")) {
		/* the [global] key's range and syntax */
		const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
		struct gov_config one;
		char want[96];
		if (gov_tunable_set(t, &one, val)) {
			gov_tunable_want(t, want, sizeof(want));
			return fail(x, "target = \"%s\": want %s", val, want);
		}
		r->target_ms = one.target_ms;
		x->has_target[x->rule] = true;
		return 1;
	}
	return fail(x, "unknown key \"%s\" in [%s] (serial, model, bus, devnum, mode, max_bytes, target)",
		    key, x->section);
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
	struct ctx *x = user;

	if (!*section || !strcmp(section, "global")) {
		x->rule = -1;
		return global_key(x, key, val);
	}
	if (strncmp(section, "device", 6) || (section[6] && section[6] != ' '))
		return fail_header(x, HDR_UNKNOWN, section);
	/* a new header, even with the name of the one before, starts a new rule */
	if (x->rule < 0 || strcmp(x->section, section) ||
	    (int)x->c->rules[x->rule].line != x->header_line) {
		if (!new_rule(x, section))
			return 0;
	}
	return device_key(x, key, val);
}

/* Checks that need a whole section. */
static int finish(struct ctx *x)
{
	struct gov_config *c = x->c;

	for (int i = 0; i < c->nrules && !x->failed; i++) {
		struct gov_rule *r = &c->rules[i];
		x->line = (int)r->line;
		if (!x->nmatch[i])
			fail(x, "this [device] section has no match key (serial, model, bus or devnum)");
		else if (r->mode == MODE_FIXED && !x->fixed_size[i])
			fail(x, "mode fixed needs max_bytes");
		else if (r->mode != MODE_FIXED && x->fixed_size[i])
			fail(x, "max_bytes goes with mode fixed");
		else if (r->mode != MODE_TIME && x->has_target[i])
			fail(x, "target goes with mode time");
	}
	if (!x->failed && c->floor_bytes > c->ceiling_bytes) {
		x->failed = true;
		snprintf(x->err, x->errlen, "%s: floor is above ceiling", x->name);
	}
	return x->failed ? -EINVAL : 0;
}

static int parse(struct ctx *x)
{
	int r;

	gov_config_defaults(x->c);
	x->rule = -1;
	r = ini_parse_stream(reader, x, handler, x);
	if (r > 0 && !x->failed) { /* a syntax error inih found itself */
		x->failed = true;
		snprintf(x->err, x->errlen, "%s:%d: not a section, key = value, or comment", x->name, r);
	}
	if (x->failed)
		return -EINVAL;
	if (r < 0) {
		snprintf(x->err, x->errlen, "%s: out of memory", x->name);
		return -ENOMEM;
	}
	return finish(x);
}

int config_parse_string(const char *name, const char *text, struct gov_config *c, char *err,
			size_t errlen)
{
	struct ctx x = { .name = name, .c = c, .err = err, .errlen = errlen, .text = text,
			 .at_line_start = true };

	err[0] = 0;
	return parse(&x);
}

int config_load(const char *path, bool missing_ok, struct gov_config *c, char *err, size_t errlen)
{
	static char buf[CONFIG_FILE_MAX + 2];
	size_t len;
	int r;

	err[0] = 0;
	r = file_read_trusted(path, true, buf, CONFIG_FILE_MAX, &len);
	if (r == -ENOENT && missing_ok) {
		gov_config_defaults(c);
		return 0;
	}
	if (r) {
		struct stat st;
		if (r == -EINVAL && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(err, errlen, "%s: a directory, not a configuration file", path);
		else if (r == -EFBIG)
			snprintf(err, errlen, "%s: larger than %d KiB", path, CONFIG_FILE_MAX / 1024);
		else
			snprintf(err, errlen, "%s: %s", path, file_trust_text(r));
		return r;
	}
	return config_parse_string(path, buf, c, err, errlen);
}
