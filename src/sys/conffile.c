/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration's files (conffile.h): each read whole with its trust
 * checks and handed to policy/config.c in order, main file first; and
 * wbgovd's own keys, the grammar's hook. No state: the caller owns what
 * it parsed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/ini.h"
#include "model/parse.h"
#include "policy/config.h"
#include "sys/busname.h"
#include "sys/conffile.h"
#include "sys/fsutil.h"


/* etc/wbgovd.service's ReadWritePaths= holds each (tests/cli/install.sh
 * checks): /run/wbgov is its RuntimeDirectory, and Debian's
 * prometheus-node-exporter reads its textfile collector's *.prom from the
 * second. */
const char *const conffile_metrics_dirs[] = { "/run/wbgov", "/var/lib/prometheus/node-exporter",
					      NULL };

/* What the hook keeps between keys: where wbgovd's settings go, and which
 * of its keys the file being read has set. */
struct daemon_keys {
	struct conffile_daemon *d;
	unsigned file;
	unsigned seen;
};

/* Is `path` under one of the directories wbgovd.service may write? */
static bool unit_writable(const char *path)
{
	for (int i = 0; conffile_metrics_dirs[i]; i++) {
		size_t n = strlen(conffile_metrics_dirs[i]);
		if (!strncmp(path, conffile_metrics_dirs[i], n) && path[n] == '/')
			return true;
	}
	return false;
}

bool conffile_metrics_path_ok(const char *p)
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

int conffile_parse_interval(const char *s, uint64_t *ret_ms)
{
	return parse_ms_in(s, CONFFILE_INTERVAL_MIN_MS, CONFFILE_INTERVAL_MAX_MS, ret_ms) ? -EINVAL : 0;
}

/* The hook of policy/config.c: wbgovd's own [global] keys, each once a
 * file. 1 done, 0 failed, -1 not one of them. */
static int daemon_key(void *ctx, struct config_parse *x, const char *key, const char *val)
{
	static const char *const keys[] = { "metrics", "metrics_interval", "bus" };
	struct daemon_keys *dk = ctx;
	struct conffile_daemon *d = dk->d;
	enum bus_kind kind;
	unsigned k;

	for (k = 0; k < 3 && strcmp(key, keys[k]); k++)
		;
	if (k == 3)
		return -1;
	if (dk->file != x->file) /* a later file may set what an earlier one did */
		dk->seen = 0;
	dk->file = x->file;
	if (dk->seen & (1u << k))
		return config_fail(x, "\"%s\" is set twice", key);
	dk->seen |= 1u << k;
	if (k == 0) {
		if (*val && !conffile_metrics_path_ok(val))
			return config_fail(x, "metrics = \"%s\": want an absolute path to a file, without . "
					   "or .. (or nothing: no metrics file)", val);
		snprintf(d->metrics, sizeof(d->metrics), "%s", val);
		d->metrics_file = x->file;
		d->metrics_line = (unsigned)x->in.line;
		if (*val && !unit_writable(val)) {
			char dir[PATH_MAX];
			path_split(val, dir, sizeof(dir), NULL);
			config_note(x, CONFIG_WARNING, "metrics = %s: wbgovd.service may write only under "
				    "%s and %s (ProtectSystem=strict): for another directory add a drop-in "
				    "(systemctl edit wbgovd) with [Service] ReadWritePaths=%s", val,
				    conffile_metrics_dirs[0], conffile_metrics_dirs[1], dir);
		}
	} else if (k == 1) {
		if (conffile_parse_interval(val, &d->metrics_ms))
			return config_fail(x, "metrics_interval = \"%s\": want 1 to 3600 seconds (10, 10s, "
					   "1500ms)", val);
		d->metrics_interval_file = x->file;
		d->metrics_interval_line = (unsigned)x->in.line;
	} else {
		if (!*val || bus_parse_kind(val, &kind) || strlen(val) >= sizeof(d->bus))
			return config_fail(x, "bus = \"%s\": want system, session, none or an address "
					   "(unix:path=...; no other transport)", val);
		snprintf(d->bus, sizeof(d->bus), "%s", val);
		d->bus_file = x->file;
		d->bus_line = (unsigned)x->in.line;
	}
	return 1;
}

/* A parse into c with wbgovd's keys into d (or a scratch copy) through
 * the hook. */
static void begin(struct config_parse *x, struct daemon_keys *dk, struct conffile_daemon *d,
		  struct gov_config *c, char *err, size_t errlen, config_note_fn fn, void *ctx)
{
	static struct conffile_daemon scratch;

	config_begin(x, c, err, errlen, fn, ctx);
	dk->d = d ? d : &scratch;
	dk->file = 0;
	dk->seen = 0;
	memset(dk->d, 0, sizeof(*dk->d));
	x->key = daemon_key;
	x->key_ctx = dk;
	x->key_names = ", metrics, metrics_interval, bus";
}

int conffile_parse_string_daemon(const char *name, const char *text, struct gov_config *c,
				 struct conffile_daemon *d, char *err, size_t errlen,
				 config_note_fn fn, void *ctx)
{
	struct config_parse x;
	struct daemon_keys dk;
	int r;

	begin(&x, &dk, d, c, err, errlen, fn, ctx);
	if ((r = config_text(&x, name, text)))
		return r;
	return config_finish(&x);
}

int conffile_parse_string_notes(const char *name, const char *text, struct gov_config *c,
				char *err, size_t errlen, config_note_fn fn, void *ctx)
{
	return conffile_parse_string_daemon(name, text, c, NULL, err, errlen, fn, ctx);
}

int conffile_parse_string(const char *name, const char *text, struct gov_config *c, char *err,
			  size_t errlen)
{
	return conffile_parse_string_notes(name, text, c, err, errlen, NULL, NULL);
}

/* "FILE: what is wrong" for a file that cannot be read. */
static void load_error(struct config_parse *x, const char *path, int r)
{
	struct stat st;

	config_at(x, path, 0);
	if (r == -EINVAL && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		config_fail(x, "a directory, not a configuration file");
	else if (r == -EFBIG)
		config_fail(x, "larger than %d KiB", INI_TEXT_MAX / 1024);
	else
		config_fail(x, "%s", file_trust_text(r));
}

/* Read and parse one file; -ENOENT (nothing said) when it is missing and
 * that is fine. */
static int load_one(struct config_parse *x, const char *path, bool missing_ok)
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
	config_note(x, CONFIG_INFO, "%s: read", path);
	return config_text(x, path, buf);
}

int conffile_dropin_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(buf, len, "%s", CONFFILE_DROPIN_NAME);
	else
		n = snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, CONFFILE_DROPIN_NAME);
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
static int load_dropins(struct config_parse *x, const char *dir)
{
	static char names[CONFFILE_DROPINS_MAX][GOV_FILE_NAME_MAX];
	char path[PATH_MAX + GOV_FILE_NAME_MAX];
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, n = 0, r = 0;

	config_at(x, dir, 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		config_fail(x, "%s", errno == ENOTDIR ? "not a directory" : strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) < 0 || (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)) {
		close(fd);
		config_fail(x, "owned by another user than root or us, or writable by others");
		return -EPERM;
	}
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		config_fail(x, "%s", strerror(-r));
		return r;
	}
	while (!r && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!dropin_name(e->d_name)) {
			config_note(x, CONFIG_INFO, "%s/%s: ignored (not NAME.conf)", dir, e->d_name);
			continue;
		}
		if (n == CONFFILE_DROPINS_MAX) {
			config_fail(x, "more than %d *.conf files", CONFFILE_DROPINS_MAX);
			r = -EFBIG;
		} else if (strlen(dir) + strlen(e->d_name) + 1 >= GOV_FILE_NAME_MAX) {
			config_fail(x, "%s: a path longer than %d characters", e->d_name, GOV_FILE_NAME_MAX - 1);
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

int conffile_load_daemon(const char *path, bool missing_ok, struct gov_config *c,
			 struct conffile_daemon *d, char *err, size_t errlen, config_note_fn fn,
			 void *ctx)
{
	struct config_parse x;
	struct daemon_keys dk;
	char dir[PATH_MAX];
	int r;

	begin(&x, &dk, d, c, err, errlen, fn, ctx);
	r = load_one(&x, path, missing_ok);
	if (r && x.in.failed)
		return r;
	/* drop-ins apply without a main file too (a package's, over the
	 * defaults); /dev/null is the defaults alone */
	if (strcmp(path, "/dev/null")) {
		if (conffile_dropin_dir(path, dir, sizeof(dir))) {
			config_at(&x, path, 0);
			config_fail(&x, "a path too long for its drop-in directory");
			return -ENAMETOOLONG;
		}
		if ((r = load_dropins(&x, dir)))
			return r;
	}
	return config_finish(&x);
}

int conffile_load_notes(const char *path, bool missing_ok, struct gov_config *c, char *err,
			size_t errlen, config_note_fn fn, void *ctx)
{
	return conffile_load_daemon(path, missing_ok, c, NULL, err, errlen, fn, ctx);
}

int conffile_load(const char *path, bool missing_ok, struct gov_config *c, char *err,
		  size_t errlen)
{
	return conffile_load_notes(path, missing_ok, c, err, errlen, NULL, NULL);
}
