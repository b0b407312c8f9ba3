/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the commands share: paths, the daemon's presence, units, text
 * for terminals and JSON, and the one resolver of DEVICE and PATH
 * arguments. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "cli/cli.h"
#include "model/parse.h"
#include "policy/bwmeter.h"
#include "sys/fsutil.h"
#include "sys/pidlock.h"
#include "sys/procfs.h"
#include "sys/shares.h"

volatile sig_atomic_t cli_interrupted;

void cli_on_int(int sig)
{
	(void)sig;
	cli_interrupted = 1;
}

int cli_bad(const char *what, const char *arg)
{
	fprintf(stderr, _("wbgov: %s: %s\n"), _(what), arg);
	return EX_USAGE;
}


void cli_path_in(char *buf, size_t len, const struct cli *o, const char *name)
{
	snprintf(buf, len, "%s/%s", o->state_dir, name);
}

/* Is wbgovd running with this state dir? (its pid file names a live wbgovd) */
bool cli_daemon_running(const struct cli *o)
{
	char p[PATH_MAX];

	cli_path_in(p, sizeof(p), o, "wbgovd.pid");
	return pidlock_held(p, "wbgovd");
}

int cli_set_interval(struct cli *o, const char *arg)
{
	char *end;
	double s = strtod(arg, &end);

	if (*end || !(s >= 0.1 && s <= 3600))
		return -EINVAL;
	o->interval = s;
	return 0;
}

int cli_set_threshold(struct cli *o, const char *arg)
{
	uint64_t v;

	if (parse_size(arg, &v) || !v)
		return -EINVAL;
	o->threshold = v;
	return 0;
}

/* Bytes per second in IEC units: "4.8 MiB/s", "1.9 GiB/s". */
void cli_human_rate(char *buf, size_t len, double bps)
{
	if (bps >= (double)GIB)
		snprintf(buf, len, "%.1f GiB/s", bps / (double)GIB);
	else if (bps >= (double)MIB)
		snprintf(buf, len, "%.1f MiB/s", bps / (double)MIB);
	else
		snprintf(buf, len, "%.0f KiB/s", bps / 1024);
}

/* The progress line of sync, eject and cp, pv's way: a bar of 20, the
 * share done, `what` (the amount left, or done), the rate and the ETA once
 * there is a rate, the time so far. On a terminal it rewrites itself in
 * place; otherwise it is a line of its own. */
void cli_progress_line(FILE *f, bool tty, int pct, const char *what, double rate_bps,
		       double eta_s, double elapsed_s)
{
	char r[24], bar[21];

	if (pct < 0)
		pct = 0;
	if (pct > 100)
		pct = 100;
	for (int i = 0; i < 20; i++)
		bar[i] = i < pct / 5 ? '#' : '-';
	bar[20] = 0;
	if (rate_bps > 0) {
		cli_human_rate(r, sizeof(r), rate_bps);
		fputs(tty ? "\r" : "", f);
		/* TRANSLATORS: [bar] 40 %, 12.0 MiB left, 4.7 MiB/s, ETA 3 s, 5 s so far */
		fprintf(f, _("[%s] %3d %%, %s, %s, ETA %.0f s, %.0f s so far"), bar, pct, what, r,
			eta_s, elapsed_s);
	} else {
		fputs(tty ? "\r" : "", f);
		fprintf(f, _("[%s] %3d %%, %s, %.0f s so far"), bar, pct, what, elapsed_s);
	}
	fputs(tty ? "  " : "\n", f);
	fflush(f);
}

/* Dirty + writeback of one bdi, where the kernel tells (debugfs). */
int cli_bdi_pending(const struct cli *o, const char *bdi, uint64_t *ret)
{
	struct knobs_bdi_counters c;
	int r = knobs_real_ops.bdi_counters(o->real, bdi, &c);

	if (!r)
		*ret = c.dirty + c.writeback;
	return r;
}

/* Where a bandwidth figure came from (enum bw_source). */
const char *cli_source_text(int source)
{
	switch (source) {
	case BW_LOWER_BOUND: return _("a lower bound: not yet seen with a backlog of its own");
	case BW_MEASURED: return _("measured while it had a backlog of its own");
	case BW_REMEMBERED: return _("remembered from an earlier run");
	default: return _("unknown");
	}
}

const char *cli_kind_key(const struct knobs_dev *d)
{
	return d->is_share ? "share" : "disk";
}

/* A JSON string, always valid UTF-8: what sysfs or a mount point holds
 * that is not (a model string in Latin-1) becomes U+FFFD; jansson escapes
 * the rest (quotes, newlines). */
json_t *cli_json_text(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	json_t *j = json_string(str);
	size_t o = 0;
	char *buf;

	if (j) /* valid already, the usual case */
		return j;
	buf = malloc(strlen(str) * 3 + 1);
	if (!buf)
		return NULL;
	while (*s) {
		int n = text_utf8_len((const char *)s);
		if (!n) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
		} else {
			memcpy(buf + o, s, (size_t)n);
			o += (size_t)n;
			s += n;
		}
	}
	j = json_stringn(buf, o);
	free(buf);
	return j;
}

json_t *cli_json_text_or_null(const char *s)
{
	return s[0] ? cli_json_text(s) : json_null();
}

json_t *cli_json_u64(bool have, uint64_t v)
{
	if (!have)
		return json_null();
	return json_integer(v > (uint64_t)LLONG_MAX ? LLONG_MAX : (json_int_t)v);
}

/* The number printf's %.*f shows, not one bit more: printed with
 * CLI_JSON_FLAGS' 15 significant digits, 2.5 stays 2.5, not
 * 2.4999999999999996. */
json_t *cli_json_real(bool have, double v, int decimals)
{
	char buf[64];

	if (!have)
		return json_null();
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_real(strtod(buf, NULL));
}

json_t *cli_json_errno(int err)
{
	static locale_t c;
	int e = err < 0 ? -err : err;

	if (!c)
		c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return cli_json_text(c ? strerror_l(e, c) : strerror(e));
}

json_t *cli_json_mounts(const struct mount_list *ml)
{
	json_t *a = json_array();

	for (const char *m = mount_list_next(ml, NULL); a && m; m = mount_list_next(ml, m))
		if (json_array_append_new(a, cli_json_text(m))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

int cli_json_print(FILE *f, json_t *doc, bool one_line)
{
	/* the whole text first: a failure prints nothing, not half an object */
	char *text = doc ? json_dumps(doc, CLI_JSON_FLAGS | (one_line ? 0 : JSON_INDENT(2))) : NULL;
	int r = text ? 0 : -ENOMEM;

	json_decref(doc);
	if (text && (fputs(text, f) == EOF || fputc('\n', f) == EOF))
		r = -EIO;
	free(text);
	return r;
}

/* A copy of `s` fit for a terminal: bytes that are not UTF-8, and control
 * characters (a device's model string could hold an escape sequence), as
 * '?'. */
const char *cli_tty_clean(char *buf, size_t len, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t o = 0;

	while (*s && o + 5 < len) {
		int n = text_utf8_len((const char *)s);
		if (!n || *s < 0x20 || *s == 0x7f) {
			buf[o++] = '?';
			s++;
			continue;
		}
		memcpy(buf + o, s, (size_t)n);
		o += (size_t)n;
		s += n;
	}
	buf[o] = 0;
	return buf;
}

/* The bdis a DEVICE argument names: a disk (sdb, /dev/sdb1), a bdi (8:16,
 * btrfs-1) or a path on a mounted filesystem. */
/* LABEL=, UUID=, PARTLABEL=, PARTUUID=: the device node that holds it, as
 * fstab and mount name file systems (libblkid probes the real devices, so
 * not under a fixture root). 0, or -ENODEV. */
static int by_tag(const struct cli *o, const char *arg, char *dev, size_t len)
{
	char *found;

	if (strcmp(o->root, "/"))
		return -ENODEV;
	found = blkid_evaluate_tag(arg, NULL, NULL);
	if (!found)
		return -ENODEV;
	snprintf(dev, len, "%s", found);
	free(found);
	return 0;
}

int cli_devices(const struct cli *o, struct knobs_dev **buf, int *room)
{
	bool partial;
	int n = knobs_devices_all(&knobs_real_ops, o->real, buf, room, &partial);

	/* a list cut short is not shown as if whole */
	return partial ? -ENOMEM : n;
}

/* `arg` made absolute (the working directory before it) with its ".",
 * ".." and repeated '/' taken away as text: a symbolic link on the way is
 * not followed, as that would look at the share. 0, or -ENAMETOOLONG. */
static int lexical_path(const char *arg, char *buf, size_t len)
{
	char cwd[PATH_MAX];
	const char *parts[2] = { cwd, arg };
	size_t o = 0;

	cwd[0] = 0;
	/* getcwd is the kernel's d_path: it asks no server */
	if (arg[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return -errno;
	for (int k = 0; k < 2; k++) {
		for (const char *s = parts[k]; *s;) {
			size_t n;
			while (*s == '/')
				s++;
			n = strcspn(s, "/");
			if (!n)
				break;
			if (n == 2 && !strncmp(s, "..", 2)) {
				while (o > 0 && buf[--o] != '/')
					;
			} else if (n != 1 || s[0] != '.') {
				if (o + 1 + n + 1 > len)
					return -ENAMETOOLONG;
				buf[o++] = '/';
				memcpy(buf + o, s, n);
				o += n;
			}
			s += n;
		}
	}
	if (!o)
		buf[o++] = '/';
	buf[o] = 0;
	return 0;
}

/* cli_share_of among the n devices of `all`. */
static int share_among(const struct cli *o, const struct knobs_dev *all, int n, const char *arg,
		       unsigned how, struct knobs_dev *ret)
{
	char abs[PATH_MAX];
	size_t best = 0;
	int found = -1;

	for (int i = 0; i < n; i++) {
		const struct knobs_dev *s = &all[i];
		bool named = s->is_share && (how & CLI_SHARE_NAME) &&
			     (!strcmp(s->bdi, arg) || !strcmp(s->model, arg));
		for (const char *m = s->is_share ? knobs_list_next(s->mounts, sizeof(s->mounts), NULL) : NULL;
		     m && !named; m = knobs_list_next(s->mounts, sizeof(s->mounts), m))
			named = !strcmp(m, arg);
		if (named) {
			*ret = *s;
			return 0;
		}
	}
	/* the mount table says whether the path is on a share (the deepest
	 * mount above it), and the shares' mount points which one */
	if (!(how & CLI_SHARE_PATH) || lexical_path(arg, abs, sizeof(abs)) || !shares_path_on_share(o->root, abs))
		return -ENOENT;
	for (int i = 0; i < n; i++) {
		const struct knobs_dev *s = &all[i];
		for (const char *m = s->is_share ? knobs_list_next(s->mounts, sizeof(s->mounts), NULL) : NULL;
		     m; m = knobs_list_next(s->mounts, sizeof(s->mounts), m)) {
			size_t l = strlen(m);
			bool above = !strcmp(m, "/") || (!strncmp(abs, m, l) && (abs[l] == '/' || !abs[l]));
			if (above && l > best) {
				best = l;
				found = i;
			}
		}
	}
	if (found < 0)
		return -ENOENT;
	*ret = all[found];
	return 0;
}

int cli_share_of(const struct cli *o, const char *arg, unsigned how, struct knobs_dev *ret)
{
	static struct knobs_dev *all;
	static int all_room;
	int n = cli_devices(o, &all, &all_room);

	return n < 0 ? n : share_among(o, all, n, arg, how, ret);
}

int cli_resolve(const struct cli *o, const char *arg, struct knobs_dev *out, int max)
{
	static struct knobs_dev *all;
	static int all_room;
	char disk[KNOBS_NAME_MAX] = "", dev[PATH_MAX];
	const char *name = arg;
	int n = cli_devices(o, &all, &all_room), k = 0;

	if (n < 0)
		return n;
	/* a share by its bdi, its name or a mount point, or a path under one,
	 * as text: a path on it is not looked at (stat of a hard NFS mount
	 * whose server is gone never returns). A bare name is a kernel's
	 * first, whatever directory wbgov runs in */
	if (max > 0 && share_among(o, all, n, arg, CLI_SHARE_NAME | (strchr(arg, '/') ? CLI_SHARE_PATH : 0),
				   &out[0]) == 0)
		return 1;
	if (!strncmp(arg, "LABEL=", 6) || !strncmp(arg, "UUID=", 5) ||
	    !strncmp(arg, "PARTLABEL=", 10) || !strncmp(arg, "PARTUUID=", 9)) {
		if (by_tag(o, arg, dev, sizeof(dev)))
			return -ENODEV;
		name = arg = dev;
	}
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	for (int i = 0; i < n; i++)
		if (!strcmp(all[i].bdi, arg))
			snprintf(disk, sizeof(disk), "%s", all[i].disk);
	if (!disk[0]) {
		char p[PATH_MAX];
		/* a kernel name (sdb, sdb1, dm-0) has no '/' and is not . or ..:
		 * "/", "." and ".." are paths, and /sys/class/block/.. exists */
		bool kname = name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
		if (kname && !path_at(p, sizeof(p), o->root, "/sys/class/block/%s", name) &&
		    access(p, F_OK) == 0)
			procfs_whole_disk(o->root, name, disk, sizeof(disk));
		else if (procfs_disk_of_path(o->root, arg, disk, sizeof(disk))) {
			return -ENODEV;
		}
	}
	for (int i = 0; i < n && k < max; i++)
		if (!all[i].is_share && !strcmp(all[i].disk, disk))
			out[k++] = all[i];
	return k ? k : -ENODEV;
}

