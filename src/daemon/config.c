/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration file and its drop-ins (config.h says the format),
 * parsed into a struct gov_config through libinih; every key's range and
 * meaning is policy/tunables.c's table, shared with wbsim. No state: the
 * caller owns what it parsed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/ini.h"
#include "model/parse.h"
#include "model/units.h"
#include "daemon/buskind.h"
#include "daemon/config.h"
#include "daemon/metrics.h"
#include "sys/fsutil.h"
#include "policy/tunables.h"

/* etc/wbgovd.service's ReadWritePaths= holds each (tests/cli/install.sh
 * checks): /run/wbgov is its RuntimeDirectory, and Debian's
 * prometheus-node-exporter reads its textfile collector's *.prom from the
 * second. */
const char *const config_metrics_dirs[] = { "/run/wbgov", "/var/lib/prometheus/node-exporter",
					    NULL };

struct ctx {
	struct ini_text in; /* the file being read, its line, the first error */
	unsigned file;     /* its index in c->files */
	struct gov_config *c;
	struct config_daemon *d;
	config_note_fn note;
	void *note_ctx;
	char section[64];  /* the current [device ...] section */
	int rule;          /* its index in c->rules, -1 in [global] */
	unsigned keys[GOV_MAX_RULES]; /* bit per match key given */
	bool fixed_size[GOV_MAX_RULES];
	bool has_target[GOV_MAX_RULES];
	bool has_mode[GOV_MAX_RULES];
	unsigned seen_global; /* bit per global key in this file: duplicates are errors */
	unsigned seen_daemon; /* ... and per key of wbgovd's own */
	unsigned limits_file; /* the last file that set floor or ceiling */
};

static void note(struct ctx *x, enum config_note level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Keep the first error, as "FILE:LINE: what"; returns 0 for inih. */
#define fail(x, ...) ini_fail(&(x)->in, __VA_ARGS__)

/* A warning ("FILE:LINE: warning: what") or a word of what was read. */
static void note(struct ctx *x, enum config_note level, const char *fmt, ...)
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
static int fail_header(struct ctx *x, enum header_error e, const char *section, int other)
{
	int line = x->in.line;
	const struct gov_rule *r = other >= 0 ? &x->c->rules[other] : NULL;

	x->in.line = x->in.header_line;
	if (e == HDR_TWICE && r && r->file != x->file)
		fail(x, "[%s] appears twice (first in %s:%u)", section, x->c->files[r->file], r->line);
	else if (e == HDR_TWICE)
		fail(x, "[%s] appears twice", section);
	else if (e == HDR_TOO_MANY)
		fail(x, "too many [device] sections (at most %d)", GOV_MAX_RULES);
	else
		fail(x, "unknown section [%s] (global, or device NAME)", section);
	x->in.line = line;
	return 0;
}

static int new_rule(struct ctx *x, const char *section)
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

/* Is `path` under one of the directories wbgovd.service may write? */
static bool unit_writable(const char *path)
{
	for (int i = 0; config_metrics_dirs[i]; i++) {
		size_t n = strlen(config_metrics_dirs[i]);
		if (!strncmp(path, config_metrics_dirs[i], n) && path[n] == '/')
			return true;
	}
	return false;
}

/* An absolute path to a file, each component a name: no ".", "..", "//"
 * or trailing "/" (wbgovd renames its temporary file over it, and the
 * warning below compares it by its text), room for the temporary name. */
static bool file_path_ok(const char *p)
{
	if (p[0] != '/' || strlen(p) + strlen(FILE_TMP_SUFFIX) >= PATH_MAX)
		return false;
	for (const char *c = p; *c; c++) {
		if (*c != '/')
			continue;
		if (c[1] == '/' || c[1] == 0 || (c[1] == '.' && (c[2] == '/' || c[2] == 0)) ||
		    (c[1] == '.' && c[2] == '.' && (c[3] == '/' || c[3] == 0)))
			return false;
	}
	return true;
}

int config_parse_interval(const char *s, uint64_t *ret_ms)
{
	return parse_ms_in(s, METRICS_MIN_USEC / 1000, METRICS_MAX_USEC / 1000, ret_ms) ? -EINVAL : 0;
}

/* metrics, metrics_interval, bus: wbgovd's own. 1 done, 0 failed, -1 not
 * one of them. */
static int daemon_key(struct ctx *x, const char *key, const char *val)
{
	static const char *const keys[] = { "metrics", "metrics_interval", "bus" };
	struct config_daemon *d = x->d;
	enum bus_kind kind;
	unsigned k;

	for (k = 0; k < 3 && strcmp(key, keys[k]); k++)
		;
	if (k == 3)
		return -1;
	if (x->seen_daemon & (1u << k))
		return fail(x, "\"%s\" is set twice", key);
	x->seen_daemon |= 1u << k;
	if (k == 0) {
		if (*val && !file_path_ok(val))
			return fail(x, "metrics = \"%s\": want an absolute path to a file, without . or .. "
				       "(or nothing: no metrics file)", val);
		snprintf(d->metrics, sizeof(d->metrics), "%s", val);
		d->metrics_file = x->file;
		d->metrics_line = (unsigned)x->in.line;
		if (*val && !unit_writable(val)) {
			char dir[PATH_MAX];
			path_split(val, dir, sizeof(dir), NULL);
			note(x, CONFIG_WARNING, "metrics = %s: wbgovd.service may write only under %s and "
			     "%s (ProtectSystem=strict): for another directory add a drop-in "
			     "(systemctl edit wbgovd) with [Service] ReadWritePaths=%s", val,
			     config_metrics_dirs[0], config_metrics_dirs[1], dir);
		}
	} else if (k == 1) {
		if (config_parse_interval(val, &d->metrics_ms))
			return fail(x, "metrics_interval = \"%s\": want 1 to 3600 seconds (10, 10s, "
				       "1500ms)", val);
		d->metrics_interval_file = x->file;
		d->metrics_interval_line = (unsigned)x->in.line;
	} else {
		if (!*val || bus_parse_kind(val, &kind) || strlen(val) >= sizeof(d->bus))
			return fail(x, "bus = \"%s\": want system, session, none or an address "
				       "(unix:path=...; no other transport)", val);
		snprintf(d->bus, sizeof(d->bus), "%s", val);
		d->bus_file = x->file;
		d->bus_line = (unsigned)x->in.line;
	}
	return 1;
}

static int global_key(struct ctx *x, const char *key, const char *val)
{
	const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
	char want[96];
	unsigned bit;
	uint64_t *at;
	int r;

	if (!t && (r = daemon_key(x, key, val)) >= 0)
		return r;
	if (!t)
		return fail(x, "unknown key \"%s\" in [global] (target, floor, ceiling, initial, "
			       "fast_target, global_drain, metrics, metrics_interval, bus)", key);
	bit = 1u << (t - gov_tunables);
	if (x->seen_global & bit)
		return fail(x, "\"%s\" is set twice", key);
	x->seen_global |= bit;
	at = gov_tunable_at(t, x->c);
	r = t->unit == GOV_UNIT_MS ? parse_ms_in(val, t->min, t->max, at) :
				     parse_size_in(val, t->min, t->max, at);
	if (r) {
		gov_tunable_want(t, want, sizeof(want));
		return fail(x, "%s = \"%s\": want %s", key, val, want);
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
static void check_value(struct ctx *x, const char *key, const char *val)
{
	size_t n = strlen(val);
	const char *why = NULL;

	if (n >= 2 && (val[0] == '"' || val[0] == '\'') && val[n - 1] == val[0]) {
		note(x, CONFIG_WARNING, "%s = %s: never matches: the quotes are part of the value "
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
		note(x, CONFIG_WARNING, "%s = %s: never matches: %s", key, val, why);
}

static bool has_glob(const char *v) { return strpbrk(v, "*?[\\") != NULL; }

static int device_key(struct ctx *x, const char *key, const char *val)
{
	struct gov_rule *r = &x->c->rules[x->rule];

	for (int k = 0; k < MATCH_COUNT; k++) {
		unsigned maj, min;
		char tail;
		if (strcmp(key, gov_match_keys[k]))
			continue;
		if (x->keys[x->rule] & (1u << k))
			return fail(x, "\"%s\" is set twice in [%s]", key, x->section);
		x->keys[x->rule] |= 1u << k;
		if (!*val || strlen(val) >= sizeof(r->match[k]))
			return fail(x, "%s = \"%s\": want a non-empty value of at most 63 characters", key, val);
		if (k == MATCH_DEVNUM && !has_glob(val) && sscanf(val, "%u:%u%c", &maj, &min, &tail) != 2)
			return fail(x, "devnum = \"%s\": want MAJOR:MINOR, like 8:16", val);
		snprintf(r->match[k], sizeof(r->match[k]), "%s", val);
		check_value(x, key, val);
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
		if (parse_size_in(val, PAGE_SIZE, UINT64_MAX, &r->fixed_bytes))
			return fail(x, "max_bytes = \"%s\": want a size of at least 4096 bytes, like 16M", val);
		x->fixed_size[x->rule] = true;
		return 1;
	}
	if (!strcmp(key, "target")) {
		/* the [global] key's range and syntax */
		const struct gov_tunable *t = gov_tunable_find(key, strlen(key));
		char want[96];
		if (parse_ms_in(val, t->min, t->max, &r->target_ms)) {
			gov_tunable_want(t, want, sizeof(want));
			return fail(x, "target = \"%s\": want %s", val, want);
		}
		x->has_target[x->rule] = true;
		return 1;
	}
	return fail(x, "unknown key \"%s\" in [%s] (serial, model, bus, devnum, mount, label, uuid, "
		       "usb, wwn, mode, max_bytes, target)", key, x->section);
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
	struct ctx *x = user;

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
static int finish(struct ctx *x)
{
	struct gov_config *c = x->c;

	for (int i = 0; i < c->nrules && !x->in.failed; i++) {
		struct gov_rule *r = &c->rules[i];
		x->in.name = c->files[r->file];
		x->in.line = (int)r->line;
		if (!x->keys[i])
			fail(x, "this [device] section has no match key (serial, model, bus, devnum, mount, "
				"label, uuid, usb or wwn)");
		else if (r->mode == MODE_FIXED && !x->fixed_size[i])
			fail(x, "mode fixed needs max_bytes");
		else if (r->mode != MODE_FIXED && x->fixed_size[i])
			fail(x, "max_bytes goes with mode fixed");
		else if (r->mode != MODE_TIME && x->has_target[i])
			fail(x, "target goes with mode time");
	}
	if (!x->in.failed && c->floor_bytes > c->ceiling_bytes) {
		x->in.name = c->nfiles ? c->files[x->limits_file] : "?";
		x->in.line = 0;
		fail(x, "floor is above ceiling");
	}
	return x->in.failed ? -EINVAL : 0;
}

/* One file's text, after those before it. */
static int parse_text(struct ctx *x, const char *name, const char *text)
{
	struct gov_config *c = x->c;

	x->in.name = name;
	x->in.line = 0;
	if (strlen(name) >= GOV_FILE_NAME_MAX)
		return fail(x, "a path longer than %d characters", GOV_FILE_NAME_MAX - 1), -EINVAL;
	if (c->nfiles == GOV_MAX_FILES)
		return fail(x, "more than %d files with the drop-ins", GOV_MAX_FILES), -EINVAL;
	x->file = (unsigned)c->nfiles++;
	snprintf(c->files[x->file], sizeof(c->files[x->file]), "%s", name);
	x->in.name = c->files[x->file];
	x->rule = -1;
	x->section[0] = 0;
	x->seen_global = 0; /* a later file may set what an earlier one did */
	x->seen_daemon = 0;
	return ini_text_parse(&x->in, text, NULL, handler, x,
			      "not a section, key = value, or comment");
}

int config_parse_string_daemon(const char *name, const char *text, struct gov_config *c,
			       struct config_daemon *d, char *err, size_t errlen, config_note_fn fn,
			       void *ctx)
{
	static struct config_daemon scratch;
	struct ctx x = { .in = { .err = err, .errlen = errlen }, .c = c, .d = d ? d : &scratch,
			 .note = fn, .note_ctx = ctx };
	int r;

	err[0] = 0;
	memset(x.d, 0, sizeof(*x.d));
	gov_config_defaults(c);
	if ((r = parse_text(&x, name, text)))
		return r;
	return finish(&x);
}

int config_parse_string_notes(const char *name, const char *text, struct gov_config *c, char *err,
			      size_t errlen, config_note_fn fn, void *ctx)
{
	return config_parse_string_daemon(name, text, c, NULL, err, errlen, fn, ctx);
}

int config_parse_string(const char *name, const char *text, struct gov_config *c, char *err,
			size_t errlen)
{
	return config_parse_string_notes(name, text, c, err, errlen, NULL, NULL);
}

/* "FILE: what is wrong" for a file that cannot be read. */
static void load_error(struct ctx *x, const char *path, int r)
{
	struct stat st;

	x->in.name = path;
	x->in.line = 0;
	if (r == -EINVAL && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		fail(x, "a directory, not a configuration file");
	else if (r == -EFBIG)
		fail(x, "larger than %d KiB", INI_TEXT_MAX / 1024);
	else
		fail(x, "%s", file_trust_text(r));
}

/* Read and parse one file; -ENOENT (nothing said) when it is missing and
 * that is fine. */
static int load_one(struct ctx *x, const char *path, bool missing_ok)
{
	static char buf[INI_TEXT_MAX + 2];
	size_t len;
	int r = file_read_trusted(path, true, buf, INI_TEXT_MAX, &len);

	if (r == -ENOENT && missing_ok)
		return r;
	if (r) {
		load_error(x, path, r);
		return r;
	}
	note(x, CONFIG_INFO, "%s: read", path);
	return parse_text(x, path, buf);
}

int config_dropin_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(buf, len, "%s", CONFIG_DROPIN_NAME);
	else
		n = snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, CONFIG_DROPIN_NAME);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool dropin_name(const char *name)
{
	size_t n = strlen(name), s = strlen(".conf");

	return name[0] != '.' && n > s && !strcmp(name + n - s, ".conf");
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* Every DIR/ *.conf in strcmp order, after the main file. A directory others
 * could write to is refused: they could put a file of theirs in it (it
 * would be refused) or take root's out. */
static int load_dropins(struct ctx *x, const char *dir)
{
	static char names[CONFIG_DROPINS_MAX][GOV_FILE_NAME_MAX];
	char path[PATH_MAX + GOV_FILE_NAME_MAX];
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, n = 0, r = 0;

	x->in.name = dir;
	x->in.line = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		fail(x, "%s", errno == ENOTDIR ? "not a directory" : strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) < 0 || (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)) {
		close(fd);
		fail(x, "owned by another user than root or us, or writable by others");
		return -EPERM;
	}
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		fail(x, "%s", strerror(-r));
		return r;
	}
	while (!r && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!dropin_name(e->d_name)) {
			note(x, CONFIG_INFO, "%s/%s: ignored (not NAME.conf)", dir, e->d_name);
			continue;
		}
		if (n == CONFIG_DROPINS_MAX) {
			fail(x, "more than %d *.conf files", CONFIG_DROPINS_MAX);
			r = -EFBIG;
		} else if (strlen(dir) + strlen(e->d_name) + 1 >= GOV_FILE_NAME_MAX) {
			fail(x, "%s: a path longer than %d characters", e->d_name, GOV_FILE_NAME_MAX - 1);
			r = -ENAMETOOLONG;
		} else {
			snprintf(names[n++], sizeof(names[0]), "%s", e->d_name);
		}
	}
	closedir(d);
	if (r)
		return r;
	/* strcmp: the C locale's order, whatever the locale of the moment */
	qsort(names, (size_t)n, sizeof(names[0]), cmp_name);
	for (int i = 0; i < n && !r; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		r = load_one(x, path, false);
	}
	return r;
}

int config_load_daemon(const char *path, bool missing_ok, struct gov_config *c,
		       struct config_daemon *d, char *err, size_t errlen, config_note_fn fn, void *ctx)
{
	static struct config_daemon scratch;
	struct ctx x = { .in = { .err = err, .errlen = errlen }, .c = c, .d = d ? d : &scratch,
			 .note = fn, .note_ctx = ctx };
	char dir[PATH_MAX];
	int r;

	err[0] = 0;
	memset(x.d, 0, sizeof(*x.d));
	gov_config_defaults(c);
	r = load_one(&x, path, missing_ok);
	if (r && x.in.failed)
		return r;
	/* drop-ins apply without a main file too (a package's, over the
	 * defaults); /dev/null is the defaults alone */
	if (strcmp(path, "/dev/null")) {
		if (config_dropin_dir(path, dir, sizeof(dir))) {
			x.in.name = path;
			x.in.line = 0;
			fail(&x, "a path too long for its drop-in directory");
			return -ENAMETOOLONG;
		}
		if ((r = load_dropins(&x, dir)))
			return r;
	}
	return finish(&x);
}

int config_load_notes(const char *path, bool missing_ok, struct gov_config *c, char *err,
		      size_t errlen, config_note_fn fn, void *ctx)
{
	return config_load_daemon(path, missing_ok, c, NULL, err, errlen, fn, ctx);
}

int config_load(const char *path, bool missing_ok, struct gov_config *c, char *err, size_t errlen)
{
	return config_load_notes(path, missing_ok, c, err, errlen, NULL, NULL);
}
