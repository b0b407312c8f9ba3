/* wbgov: what the governor does, per device; sync with progress; apply and
 * restore by hand. Read-only commands need no root. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "sys/knobs_real.h"
#include "policy/governor.h"
#include "daemon/config.h"
#include "sys/eject.h"
#include "sys/fsutil.h"
#include "sys/procfs.h"
#include "sys/state.h"
#include "daemon/status.h"
#include "sys/sysfs.h"

#define VERSION "0.1"
#define MAXDEV 64

struct opts {
	const char *root;
	const char *state_dir;
	const char *config;
	bool json;
	bool once;
	bool no_power_off;
	double interval;
};

static struct knobs_real real;
static volatile sig_atomic_t interrupted;

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fputs("Usage: wbgov status [--json]\n"
	      "       wbgov watch [--interval SECONDS]\n"
	      "       wbgov sync [PATH|DEVICE]\n"
	      "       wbgov eject [--no-power-off] PATH|DEVICE\n"
	      "       wbgov explain DEVICE\n"
	      "       wbgov apply --once [-c FILE]\n"
	      "       wbgov restore\n"
	      "       wbgov --help | --version\n"
	      "\n"
	      "Common options: --root DIR (find /proc and /sys there), --state-dir DIR\n"
	      "(wbgovd's, default /run/wbgov). DEVICE: sdb, /dev/sdb1, 8:16, btrfs-1, a path.\n"
	      "status, watch and explain need no root. See wbgov(8).\n"
	      "Exit status: 0 ok, 1 a knob could not be restored, 64 usage, 69 no such device,\n"
	      "74 I/O error, 75 wbgovd is running (apply, restore) or the device is busy (eject),\n"
	      "77 permission, 130 interrupted.\n",
	      f);
}

/* Each command's own usage, for `wbgov CMD --help`. */
static const struct {
	const char *name, *synopsis, *text;
} commands[] = {
	{ "status", "status [--json]",
	  "One line per device: model, bus, measured bandwidth, the kernel's strict_limit\n"
	  "and max_bytes, dirty + writeback, seconds to drain, mount points. --json: one\n"
	  "JSON object (wbgov(8) gives its schema). Needs no root." },
	{ "watch", "watch [--interval SECONDS]",
	  "The status table again every SECONDS (0.1 to 3600, default 1) until Ctrl-C." },
	{ "sync", "sync [PATH|DEVICE]",
	  "Write the file system of PATH, every file system of DEVICE, or everything,\n"
	  "showing what is left, the rate and the ETA; \"durable\" when it is." },
	{ "eject", "eject [--no-power-off] PATH|DEVICE",
	  "Sync the disk holding PATH (or DEVICE) with progress, unmount all of its\n"
	  "mounts, flush it and power it off, then say \"safe to remove\". A busy mount\n"
	  "names the processes holding it, and nothing is done. --no-power-off: stop\n"
	  "after the flush. Needs root." },
	{ "explain", "explain DEVICE",
	  "Why DEVICE (sdb, /dev/sdb1, 8:16, btrfs-1, a path) has the limit it has:\n"
	  "facts, measured bandwidth and where it came from, the rule, the limit, and\n"
	  "the knobs in the kernel now." },
	{ "apply", "apply --once [-c FILE]",
	  "Without the daemon: give every device the limit the rule gives it now, once,\n"
	  "recording the knobs it changes for `wbgov restore`. Needs root." },
	{ "restore", "restore",
	  "Give back every knob recorded in the state file (after `apply --once`, or a\n"
	  "wbgovd that was killed). Needs root; refused while wbgovd runs." },
};

static int command_help(const char *cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, cmd)) {
			printf("Usage: wbgov [OPTIONS] %s\n\n%s\n\nOPTIONS: --root DIR, --state-dir DIR, "
			       "-c FILE. See wbgov(8).\n", commands[i].synopsis, commands[i].text);
			return 0;
		}
	usage(stdout);
	return 0;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "wbgov: %s: %s\n", what, arg);
	return EX_USAGE;
}

static void path_in(char *buf, size_t len, const struct opts *o, const char *name)
{
	snprintf(buf, len, "%s/%s", o->state_dir, name);
}

/* Is wbgovd running with this state dir? (its pid file is locked) */
static bool daemon_running(const struct opts *o)
{
	char p[PATH_MAX];
	int fd;
	bool locked = false;

	path_in(p, sizeof(p), o, "wbgovd.pid");
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		locked = true;
	close(fd);
	return locked;
}

/* Bytes in IEC units, as pv and ls -h show them: "512 KiB", "24.0 MiB". */
static void human(char *buf, size_t len, uint64_t b)
{
	if (b >= GIB)
		snprintf(buf, len, "%.1f GiB", (double)b / GIB);
	else if (b >= MIB)
		snprintf(buf, len, "%.1f MiB", (double)b / MIB);
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b / 1024));
}

/* Bytes per second likewise: "4.8 MiB/s", "1.9 GiB/s". */
static void human_rate(char *buf, size_t len, double bps)
{
	if (bps >= (double)GIB)
		snprintf(buf, len, "%.1f GiB/s", bps / (double)GIB);
	else if (bps >= (double)MIB)
		snprintf(buf, len, "%.1f MiB/s", bps / (double)MIB);
	else
		snprintf(buf, len, "%.0f KiB/s", bps / 1024);
}

/* Dirty + writeback of one bdi, where the kernel tells (debugfs). */
static int bdi_pending(const char *bdi, uint64_t *ret)
{
	struct knobs_bdi_counters c;
	int r = knobs_real_ops.bdi_counters(&real, bdi, &c);

	if (!r)
		*ret = c.dirty + c.writeback;
	return r;
}

/* Where a bandwidth figure came from (enum bw_source). */
static const char *source_text(int source)
{
	switch (source) {
	case BW_LOWER_BOUND: return "a lower bound: not yet seen with a backlog of its own";
	case BW_MEASURED: return "measured while it had a backlog of its own";
	case BW_REMEMBERED: return "remembered from an earlier run";
	default: return "unknown";
	}
}

struct row {
	struct knobs_dev d;
	struct mount_list mounts;
	struct status_entry st;
	bool has_st;
	uint64_t strict, max_bytes, ratio;
	bool has_knobs;
	uint64_t pending;
	bool has_pending;
};

static int collect(const struct opts *o, struct row *rows, int max)
{
	static struct knobs_dev devs[MAXDEV];
	char sp[PATH_MAX];
	int n = knobs_real_ops.devices(&real, devs, max < MAXDEV ? max : MAXDEV);

	if (n < 0)
		return n;
	path_in(sp, sizeof(sp), o, "status");
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		memset(r, 0, sizeof(*r));
		r->d = devs[i];
		procfs_mounts(o->root, r->d.disk, &r->mounts);
		r->has_st = status_read(sp, r->d.bdi, &r->st) == 0;
		r->has_knobs = sysfs_bdi_read(o->root, r->d.bdi, BDI_STRICT_LIMIT, &r->strict) == 0 &&
			       sysfs_bdi_read(o->root, r->d.bdi, BDI_MAX_BYTES, &r->max_bytes) == 0 &&
			       sysfs_bdi_read(o->root, r->d.bdi, BDI_MAX_RATIO_FINE, &r->ratio) == 0;
		r->has_pending = bdi_pending(r->d.bdi, &r->pending) == 0;
	}
	return n;
}

/* The length of the UTF-8 sequence at s, 0 if it is not one (overlong
 * forms, surrogates and code points past U+10FFFF included). */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0], cp;
	int n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string, always valid UTF-8: what sysfs or a mount point holds
 * that is not (a model string in Latin-1) becomes U+FFFD. */
static void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", f);
			s++;
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s++);
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		}
	}
	fputc('"', f);
}

/* A copy of `s` fit for a terminal: bytes that are not UTF-8, and control
 * characters (a device's model string could hold an escape sequence), as
 * '?'. */
static const char *tty_clean(char *buf, size_t len, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t o = 0;

	while (*s && o + 5 < len) {
		int n = utf8_len(s);
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

/* A string, or null when it is empty (unknown). */
static void json_str_or_null(FILE *f, const char *s)
{
	if (s[0])
		json_str(f, s);
	else
		fputs("null", f);
}

static int print_status(const struct opts *o, FILE *f)
{
	static struct row rows[MAXDEV];
	uint64_t dirty = 0, writeback = 0;
	int n = collect(o, rows, MAXDEV);
	bool running = daemon_running(o);

	if (n < 0) {
		fprintf(stderr, "wbgov: cannot list devices under %s: %s\n", o->root, strerror(-n));
		return EX_OSFILE;
	}
	procfs_meminfo(o->root, &dirty, &writeback);
	if (o->json) {
		/* schema 1, in wbgov(8): every key always there, null for unknown */
		fprintf(f, "{\"schema\": 1, \"wbgovd_running\": %s, \"dirty_bytes\": %llu, "
			   "\"writeback_bytes\": %llu, \"devices\": [",
			running ? "true" : "false", (unsigned long long)dirty, (unsigned long long)writeback);
		for (int i = 0; i < n; i++) {
			struct row *r = &rows[i];
			bool bw = r->has_st && r->st.bw_bps;
			fprintf(f, "%s\n  {\"bdi\": ", i ? "," : "");
			json_str(f, r->d.bdi);
			fputs(", \"disk\": ", f);
			json_str(f, r->d.disk);
			fputs(", \"model\": ", f);
			json_str_or_null(f, r->d.model);
			fputs(", \"bus\": ", f);
			json_str_or_null(f, r->d.bus);
			fputs(", \"mounts\": [", f);
			for (const char *m = mount_list_next(&r->mounts, NULL); m;
			     m = mount_list_next(&r->mounts, m)) {
				if (m != r->mounts.buf)
					fputs(", ", f);
				json_str(f, m);
			}
			fputc(']', f);
			if (bw)
				fprintf(f, ", \"bandwidth_bps\": %llu, \"bandwidth_source\": \"%s\"",
					(unsigned long long)r->st.bw_bps,
					r->st.source == BW_MEASURED ? "measured" :
					r->st.source == BW_REMEMBERED ? "remembered" : "lower_bound");
			else
				fputs(", \"bandwidth_bps\": null, \"bandwidth_source\": null", f);
			if (r->has_knobs)
				fprintf(f, ", \"strict_limit\": %s, \"max_bytes\": %llu, \"max_ratio_fine\": %llu",
					r->strict ? "true" : "false", (unsigned long long)r->max_bytes,
					(unsigned long long)r->ratio);
			else
				fputs(", \"strict_limit\": null, \"max_bytes\": null, \"max_ratio_fine\": null", f);
			if (r->has_pending)
				fprintf(f, ", \"dirty_writeback_bytes\": %llu", (unsigned long long)r->pending);
			else
				fputs(", \"dirty_writeback_bytes\": null", f);
			if (r->has_pending && bw)
				fprintf(f, ", \"drain_s\": %.2f", (double)r->pending / (double)r->st.bw_bps);
			else
				fputs(", \"drain_s\": null", f);
			fputc('}', f);
		}
		fputs(n ? "\n]}\n" : "]}\n", f);
		return 0;
	}
	{
		/* the text columns as wide as their longest entry, as lsblk does */
		int wd = 6, wb = 3, wm = 5, wu = 3;
		bool no_bw = false, no_pend = false;
		for (int i = 0; i < n; i++) {
			int l;
			if ((l = (int)strlen(rows[i].d.disk)) > wd) wd = l;
			if ((l = (int)strlen(rows[i].d.bdi)) > wb) wb = l;
			if ((l = (int)strlen(rows[i].d.model)) > wm) wm = l;
			if ((l = (int)strlen(rows[i].d.bus)) > wu) wu = l;
		}
		fprintf(f, "%-*s %-*s %-*s %-*s %11s %6s %10s %10s %7s  %s\n", wd, "DEVICE", wb, "BDI", wm,
			"MODEL", wu, "BUS", "MEASURED", "STRICT", "MAX", "DIRTY+WB", "DRAIN", "MOUNTS");
		for (int i = 0; i < n; i++) {
			struct row *r = &rows[i];
			char bw[24] = "-", mx[24] = "-", pend[24] = "-", drain[24] = "-", mounts[1024];
			char model[sizeof(r->d.model)], mclean[sizeof(mounts)];

			mount_list_join(&r->mounts, ", ", mounts, sizeof(mounts));
			if (r->has_st && r->st.bw_bps)
				human_rate(bw, sizeof(bw), (double)r->st.bw_bps);
			else
				no_bw = true;
			if (r->has_knobs)
				human(mx, sizeof(mx), r->max_bytes);
			if (r->has_pending) {
				human(pend, sizeof(pend), r->pending);
				if (r->has_st && r->st.bw_bps)
					snprintf(drain, sizeof(drain), "%.1f s",
						 (double)r->pending / (double)r->st.bw_bps);
			} else {
				no_pend = true;
			}
			fprintf(f, "%-*s %-*s %-*s %-*s %11s %6s %10s %10s %7s  %s\n", wd, r->d.disk, wb,
				r->d.bdi, wm, r->d.model[0] ? tty_clean(model, sizeof(model), r->d.model) : "-",
				wu, r->d.bus[0] ? r->d.bus : "-", bw,
				r->has_knobs ? (r->strict ? "yes" : "no") : "-", mx, pend, drain,
				mounts[0] ? tty_clean(mclean, sizeof(mclean), mounts) : "-");
		}
		if (no_bw)
			fprintf(f, "\nMEASURED, DRAIN: - until wbgovd has measured the device%s\n",
				running ? "" : " (it is not running)");
		if (no_pend)
			fprintf(f, "%sDIRTY+WB, DRAIN: - where the bdi's own counters are not readable "
				   "(debugfs at /sys/kernel/debug, as root)\n", no_bw ? "" : "\n");
	}
	{
		char d[24], w[24];
		human(d, sizeof(d), dirty);
		human(w, sizeof(w), writeback);
		fprintf(f, "\nsystem: Dirty %s, Writeback %s; wbgovd %s\n", d, w,
			running ? "running" : "not running");
	}
	return 0;
}

static int cmd_watch(const struct opts *o)
{
	struct sigaction sa = { .sa_handler = on_int };
	bool tty = isatty(STDOUT_FILENO);

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!interrupted) {
		struct timespec ts = { (time_t)o->interval,
				       (long)((o->interval - (double)(time_t)o->interval) * 1e9) };
		if (tty)
			fputs("\033[H\033[2J", stdout);
		print_status(o, stdout);
		if (!tty)
			fputc('\n', stdout);
		fflush(stdout);
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* The bdis a DEVICE argument names: a disk (sdb, /dev/sdb1), a bdi (8:16,
 * btrfs-1) or a path on a mounted filesystem. */
static int resolve(const struct opts *o, const char *arg, struct knobs_dev *out, int max)
{
	static struct knobs_dev all[MAXDEV];
	char disk[KNOBS_NAME_MAX] = "";
	const char *name = arg;
	int n = knobs_real_ops.devices(&real, all, MAXDEV), k = 0;

	if (n < 0)
		return n;
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
		if (!strcmp(all[i].disk, disk))
			out[k++] = all[i];
	return k ? k : -ENODEV;
}

static int cmd_explain(const struct opts *o, const char *arg)
{
	static struct knobs_dev devs[MAXDEV];
	struct gov_config cfg;
	char err[512], sp[PATH_MAX];
	int n = resolve(o, arg, devs, MAXDEV);
	bool running = daemon_running(o);

	if (n < 0) {
		fprintf(stderr, "wbgov explain: no such device or path: %s\n", arg);
		return EX_UNAVAILABLE;
	}
	if (config_load(o->config, !strcmp(o->config, CONFIG_DEFAULT_PATH), &cfg, err, sizeof(err))) {
		fprintf(stderr, "wbgov explain: %s\n", err);
		return EX_CONFIG;
	}
	path_in(sp, sizeof(sp), o, "status");
	for (int i = 0; i < n; i++) {
		struct knobs_dev *d = &devs[i];
		struct status_entry st;
		struct gov_decision dec;
		/* the daemon's record, while it runs: a file left by a run that
		 * ended is not what holds now */
		bool has_st = running && status_read(sp, d->bdi, &st) == 0;
		bool decided = has_st && st.why >= 0 && st.why < WHY_COUNT;
		uint64_t bw = has_st ? st.bw_bps : 0, v, strict = 0, mb = 0, fine = 0;
		bool per_dev = sysfs_bdi_read(o->root, d->bdi, BDI_STRICT_LIMIT, &strict) == 0 &&
			       sysfs_bdi_read(o->root, d->bdi, BDI_MAX_BYTES, &mb) == 0 &&
			       sysfs_bdi_read(o->root, d->bdi, BDI_MAX_RATIO_FINE, &fine) == 0;
		struct mount_list ml;
		char mounts[1024], mclean[1024], sclean[sizeof(d->serial)];

		procfs_mounts(o->root, d->disk, &ml);
		mount_list_join(&ml, ", ", mounts, sizeof(mounts));
		if (decided) {
			/* the daemon's own decision: it knows what this cannot (a
			 * start cap grown, a lower bound, the smallest cap of this
			 * kernel) */
			memset(&dec, 0, sizeof(dec));
			dec.why = (enum gov_why)st.why;
			dec.govern = dec.why != WHY_OFF;
			dec.strict = st.strict;
			dec.max_bytes = st.max_bytes;
			dec.rule = gov_match(&cfg, d);
		} else {
			struct gov_input in = { .bw_bps = bw,
						.known = has_st && st.source >= BW_MEASURED };
			if (per_dev)
				in.global_thresh_bytes = global_thresh_from_bdi(mb, fine);
			gov_decide(&cfg, d, &in, &dec);
		}
		printf("%s%s (bdi %s)\n", i ? "\n" : "", d->disk, d->bdi);
		printf("  facts:       model \"%s\", serial \"%s\", bus %s, removable %s, rotational %s%s\n",
		       tty_clean(mclean, sizeof(mclean), d->model), tty_clean(sclean, sizeof(sclean), d->serial),
		       d->bus[0] ? d->bus : "unknown", d->removable ? "yes" : "no",
		       d->rotational ? "yes" : "no", d->is_fuse ? ", a FUSE (fuseblk) filesystem's bdi" : "");
		printf("  mounted on:  %s\n", mounts[0] ? tty_clean(mclean, sizeof(mclean), mounts) : "-");
		if (has_st && bw)
			printf("  measured:    %.1f MiB/s (%s; %u window%s of /sys/block/%s/stat)\n",
			       (double)bw / (double)MIB, source_text(st.source), st.measures,
			       st.measures == 1 ? "" : "s", d->disk);
		else
			printf("  measured:    not yet%s\n", running ? "" : " (wbgovd is not running)");
		if (debugfs_bdi_bandwidth(o->root, d->bdi, &v) == 0)
			printf("  kernel:      %.1f MiB/s, its own estimate (debugfs; 0 while the bdi is clean)\n",
			       (double)v / (double)MIB);
		if (dec.rule)
			printf("  config:      section at %s:%u matches\n", o->config, dec.rule->line);
		printf("  %s %s\n", decided ? "rule:       " : "rule (if wbgovd ran):",
		       gov_why_text[dec.why]);
		if (!dec.govern)
			printf("  limit:       none set by wbgov\n");
		else if (!dec.strict)
			printf("  limit:       no cap (the kernel's global limits apply)\n");
		else if (!per_dev)
			printf("  limit:       %.1f MiB, through the global dirty_bytes while this device "
			       "holds dirty data (no per-device knobs before Linux 6.2)\n",
			       (double)dec.max_bytes / MIB);
		else
			printf("  limit:       strict_limit 1, max_bytes %llu (%.1f MiB)\n",
			       (unsigned long long)dec.max_bytes, (double)dec.max_bytes / MIB);
		if (decided && st.err)
			printf("  kernel said: %s, when wbgovd wrote the limit (the previous value "
			       "stays)\n", strerror(st.err < 0 ? -st.err : st.err));
		if (per_dev)
			printf("  kernel now:  strict_limit %llu, max_bytes %llu, max_ratio_fine %llu ppm\n",
			       (unsigned long long)strict, (unsigned long long)mb, (unsigned long long)fine);
		else
			printf("  kernel now:  no per-device strict_limit/max_bytes (Linux < 6.2)\n");
	}
	return 0;
}

/* Bytes still to write: the device's own when debugfs tells, else the
 * system's Dirty + Writeback. */
static uint64_t left_bytes(const struct opts *o, const struct knobs_dev *d, int nd, bool *per_dev)
{
	uint64_t sum = 0, v, dirty = 0, wb = 0;
	bool all = nd > 0;

	for (int i = 0; i < nd; i++) {
		if (bdi_pending(d[i].bdi, &v))
			all = false;
		else
			sum += v;
	}
	*per_dev = all;
	if (all)
		return sum;
	procfs_meminfo(o->root, &dirty, &wb);
	return dirty + wb;
}

/* Sync `mounts` (every file system when it is empty or cut) in a child
 * while showing what is left of the data of `devs` (the system's when nd is
 * 0) with its rate and ETA; "durable" when it is. 0, EX_IOERR (the child
 * said why) or 130 (interrupted: the writing goes on). */
static int sync_watch(const struct opts *o, struct knobs_dev *devs, int nd,
		      const struct mount_list *mounts, const char *cmd)
{
	int status = 0;
	pid_t child;
	struct sigaction sa = { .sa_handler = on_int };
	uint64_t start_left, prev_left;
	double rate = 0;
	struct timespec t0, tp;
	bool per_dev, tty = isatty(STDERR_FILENO), shown = false;

	start_left = prev_left = left_bytes(o, devs, nd, &per_dev);
	child = fork();
	if (child < 0) {
		fprintf(stderr, "wbgov %s: fork: %s\n", cmd, strerror(errno));
		return EX_OSERR;
	}
	if (child == 0) {
		/* the writing: syncfs of each filesystem, or sync() of everything;
		 * Ctrl-C stops the watching, not this */
		signal(SIGINT, SIG_IGN);
		if (!mounts->n || mounts->truncated) {
			/* no file system named, or more than the list holds */
			sync();
			_exit(0);
		}
		for (const char *m = mount_list_next(mounts, NULL); m; m = mount_list_next(mounts, m)) {
			int fd = open(m, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || syncfs(fd) < 0) {
				fprintf(stderr, "%swbgov %s: %s: %s\n", tty ? "\n" : "", cmd, m,
					strerror(errno));
				_exit(1);
			}
			close(fd);
		}
		_exit(0);
	}
	sigaction(SIGINT, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tp = t0;
	for (;;) {
		struct timespec nap = { 0, 200000000 }, now;
		uint64_t left;
		double dt, elapsed;
		pid_t w = waitpid(child, &status, WNOHANG);

		if (w == child)
			break;
		if (interrupted) {
			fprintf(stderr, "%swbgov %s: stopped watching; the kernel goes on writing and "
					"the data stays safe (wbgov status shows what is left)\n",
				tty && shown ? "\n" : "", cmd);
			return 130;
		}
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		dt = (double)(now.tv_sec - tp.tv_sec) + (double)(now.tv_nsec - tp.tv_nsec) / 1e9;
		elapsed = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		if (dt < 1.0)
			continue;
		left = left_bytes(o, devs, nd, &per_dev);
		if (prev_left > left) {
			double r = (double)(prev_left - left) / dt;
			rate = rate ? 0.7 * rate + 0.3 * r : r;
		}
		prev_left = left;
		tp = now;
		{
			/* pv's way: the bar, the share done, what is left, the rate */
			char l[24], r[24], bar[21];
			uint64_t gone = start_left - (left < start_left ? left : start_left);
			int pct = start_left ? (int)(100 * (double)gone / (double)start_left) : 100;
			for (int i = 0; i < 20; i++)
				bar[i] = i < pct / 5 ? '#' : '-';
			bar[20] = 0;
			human(l, sizeof(l), left);
			human_rate(r, sizeof(r), rate);
			if (rate > 0)
				fprintf(stderr, "%s[%s] %3d %%, %s left%s, %s, ETA %.0f s, %.0f s so far%s",
					tty ? "\r" : "", bar, pct, l, per_dev ? "" : " (system)", r,
					(double)left / rate, elapsed, tty ? "  " : "\n");
			else
				fprintf(stderr, "%s[%s] %3d %%, %s left%s, %.0f s so far%s", tty ? "\r" : "",
					bar, pct, l, per_dev ? "" : " (system)", elapsed, tty ? "  " : "\n");
			shown = true;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return EX_IOERR; /* the child said why */
	{
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* on a terminal, end the progress line first, if there was one */
		fprintf(stderr, "%swbgov %s: durable after %.1f s\n", tty && shown ? "\n" : "", cmd,
			(double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9);
	}
	return 0;
}

static int cmd_sync(const struct opts *o, const char *arg)
{
	static struct knobs_dev devs[MAXDEV];
	static struct mount_list mounts;
	int nd = 0;

	if (arg) {
		struct stat st;
		if (stat(arg, &st) == 0 && !S_ISBLK(st.st_mode)) {
			mount_list_add(&mounts, arg); /* a path: its filesystem */
			nd = resolve(o, arg, devs, MAXDEV);
			if (nd < 0)
				nd = 0; /* tmpfs, NFS...: progress from the system counters */
		} else {
			nd = resolve(o, arg, devs, MAXDEV);
			if (nd < 0) {
				fprintf(stderr, "wbgov: no such device or path: %s\n", arg);
				return EX_UNAVAILABLE;
			}
			if (procfs_mounts(o->root, devs[0].disk, &mounts) <= 0) {
				fprintf(stderr, "wbgov: %s is not mounted: nothing to sync\n", arg);
				return 0;
			}
		}
	}
	return sync_watch(o, devs, nd, &mounts, "sync");
}

/* wbgov eject: every file system of the disk synced with progress, then
 * unmounted, the disk flushed and powered off; checked first so that a
 * refusal changes nothing (a busy mount, something stacked on the disk, a
 * disk wbgov cannot power off). */
static int cmd_eject(const struct opts *o, const char *arg, bool power_off)
{
	static struct knobs_dev devs[MAXDEV];
	static struct mount_list mounts;
	const char *ms[64];
	char disk[KNOBS_NAME_MAX], attr[PATH_MAX], who[2048];
	enum eject_power kind;
	int nd, n = 0, r;

	if (geteuid() != 0) {
		fprintf(stderr, "wbgov eject: unmounting and powering off a device needs root\n");
		return EX_NOPERM;
	}
	nd = resolve(o, arg, devs, MAXDEV);
	if (nd < 0) {
		struct stat st;
		if (stat(arg, &st) == 0)
			fprintf(stderr, "wbgov eject: %s is on no disk (tmpfs, proc, a network file "
					"system?)\n", arg);
		else
			fprintf(stderr, "wbgov eject: %s: no such disk, partition or path\n", arg);
		return EX_UNAVAILABLE;
	}
	snprintf(disk, sizeof(disk), "%s", devs[0].disk);
	procfs_mounts(o->root, disk, &mounts);
	if (mounts.truncated) {
		fprintf(stderr, "wbgov eject: %s has more mounts than wbgov can list; unmount some\n",
			disk);
		return EX_UNAVAILABLE;
	}
	for (const char *m = mount_list_next(&mounts, NULL); m; m = mount_list_next(&mounts, m)) {
		struct stat st;
		if (!strcmp(m, "/")) {
			fprintf(stderr, "wbgov eject: %s holds the root file system\n", disk);
			return EX_UNAVAILABLE;
		}
		if (n == (int)(sizeof(ms) / sizeof(ms[0]))) {
			fprintf(stderr, "wbgov eject: %s has more mounts than wbgov can list\n", disk);
			return EX_UNAVAILABLE;
		}
		ms[n++] = m;
		if (stat(m, &st) == 0 && eject_holders(o->root, st.st_dev, who, sizeof(who)) > 0) {
			fprintf(stderr, "wbgov eject: %s is busy, held by %s; close them and eject again\n",
				m, who);
			return EX_TEMPFAIL;
		}
	}
	if (eject_stacked(o->root, disk, who, sizeof(who)) > 0) {
		fprintf(stderr, "wbgov eject: %s is in use by %s, stacked on it; close that first\n",
			disk, who);
		return EX_TEMPFAIL;
	}
	kind = eject_power_kind(o->root, disk, attr, sizeof(attr));
	if (power_off && kind == EJECT_POWER_NONE) {
		fprintf(stderr, "wbgov eject: wbgov cannot power off %s (bus %s); --no-power-off "
				"unmounts and flushes it\n", disk, devs[0].bus[0] ? devs[0].bus : "unknown");
		return EX_UNAVAILABLE;
	}
	if (n && (r = sync_watch(o, devs, nd, &mounts, "eject")))
		return r;
	while (n--) { /* the last mounted first: one may sit inside another */
		if (umount2(ms[n], 0) < 0) {
			r = errno;
			fprintf(stderr, "wbgov eject: unmounting %s: %s\n", ms[n], strerror(r));
			return r == EBUSY ? EX_TEMPFAIL : EX_OSERR;
		}
		fprintf(stderr, "wbgov eject: unmounted %s\n", ms[n]);
	}
	if ((r = eject_flush(disk))) {
		fprintf(stderr, "wbgov eject: flushing /dev/%s: %s\n", disk, strerror(-r));
		return EX_IOERR;
	}
	if (!power_off) {
		fprintf(stderr, "wbgov eject: %s is unmounted and flushed: safe to remove\n", disk);
		return 0;
	}
	if ((r = eject_power_off(disk, kind, attr))) {
		fprintf(stderr, "wbgov eject: powering off %s: %s (it is unmounted and flushed)\n",
			disk, strerror(-r));
		return EX_OSERR;
	}
	fprintf(stderr, "wbgov eject: %s is %s: safe to remove\n", disk,
		kind == EJECT_POWER_LOOP ? "detached" : "powered off");
	return 0;
}

static void report_restore(void *ctx, const char *owner, const char *knob, int err)
{
	(void)ctx;
	fprintf(stderr, "wbgov: %s: could not give back %s: %s\n", owner, knob, strerror(-err));
}

static int cmd_restore(const struct opts *o)
{
	struct state st;
	char p[PATH_MAX];
	int r;

	if (daemon_running(o)) {
		fprintf(stderr, "wbgov: wbgovd is running; stop it (it gives every knob back)\n");
		return EX_TEMPFAIL;
	}
	path_in(p, sizeof(p), o, "state");
	r = state_load(p, &st);
	if (r == -ENOENT) {
		printf("nothing to restore\n");
		return 0;
	}
	if (r) {
		fprintf(stderr, "wbgov: %s: %s\n", p, r == -EINVAL ? "malformed" : strerror(-r));
		return EX_DATAERR;
	}
	{
		int n = st.n + (st.vm_saved ? 1 : 0);
		int bad_n = state_restore(&knobs_real_ops, &real, &st, report_restore, NULL);
		r = state_save(p, &st);
		if (r)
			fprintf(stderr, "wbgov: %s: %s\n", p, strerror(-r));
		printf("restored %d of %d\n", n - bad_n, n);
		return bad_n || r ? 1 : 0;
	}
}

struct apply_ctx {
	struct state st;
	char path[PATH_MAX];
	int save_err; /* the last failure to record originals, for the message */
};

/* The originals reach the state file before the knob changes. */
static int hook_save(void *ctx, const struct gov_dev *d)
{
	struct apply_ctx *a = ctx;
	int r = state_put_bdi(&a->st, d->info.bdi, d->orig.strict_limit, d->orig.max_ratio_fine);

	if (!r)
		r = state_save(a->path, &a->st);
	if (r)
		a->save_err = r;
	return r;
}

static int hook_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	struct apply_ctx *a = ctx;

	memcpy(a->st.vm, vm, sizeof(a->st.vm));
	a->st.vm_saved = true;
	return state_save(a->path, &a->st);
}

static int cmd_apply(const struct opts *o)
{
	static struct governor g;
	static struct apply_ctx a;
	struct gov_config cfg;
	struct gov_hooks h = { .ctx = &a, .save = hook_save, .save_vm = hook_save_vm };
	char err[512];
	int r, failed = 0;

	if (!o->once)
		return bad("apply runs one pass and needs --once", "(wbgovd is the daemon)");
	if (geteuid() != 0) {
		fprintf(stderr, "wbgov apply: writing the kernel's knobs needs root\n");
		return EX_NOPERM;
	}
	if (daemon_running(o)) {
		fprintf(stderr, "wbgov apply: wbgovd is running and already applies the limits\n");
		return EX_TEMPFAIL;
	}
	if (config_load(o->config, !strcmp(o->config, CONFIG_DEFAULT_PATH), &cfg, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return EX_CONFIG;
	}
	if (mkdir(o->state_dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "wbgov: %s: %s\n", o->state_dir, strerror(errno));
		return EX_CANTCREAT;
	}
	path_in(a.path, sizeof(a.path), o, "state");
	r = state_load(a.path, &a.st);
	if (r && r != -ENOENT) {
		fprintf(stderr, "wbgov: %s: unreadable; run wbgov restore first\n", a.path);
		return EX_DATAERR;
	}
	if (r == -ENOENT)
		memset(&a.st, 0, sizeof(a.st));
	gov_init(&g, &cfg, &knobs_real_ops, &real, &h);
	gov_tick(&g, 0); /* facts only: nothing is measured in one pass */
	for (int i = 0; i < g.ndev; i++) {
		const struct gov_dev *d = &g.dev[i];
		if (d->err && !d->saved && a.save_err) {
			/* nothing was written to a device whose originals could
			 * not be recorded */
			failed++;
			fprintf(stderr, "wbgov apply: %s: its knobs could not be recorded in %s (%s); "
					"left as they are\n", d->info.bdi, a.path, strerror(-a.save_err));
		} else if (d->err) {
			failed++;
			fprintf(stderr, "wbgov apply: %s: %s: %s\n", d->info.bdi,
				bdi_attr_names[d->err_attr], strerror(-d->err));
		} else if (d->dec.strict) {
			printf("%s (%s): max_bytes %.1f MiB, strict (%s)\n", d->info.disk, d->info.bdi,
			       (double)d->dec.max_bytes / MIB, gov_why_text[d->dec.why]);
		}
	}
	return failed ? (failed == g.ndev ? EX_NOPERM : 1) : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "once", no_argument, NULL, '1' },
		{ "interval", required_argument, NULL, 'i' },
		{ "no-power-off", no_argument, NULL, 'P' },
		{ "config", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'R' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .root = "/", .state_dir = "/run/wbgov", .config = CONFIG_DEFAULT_PATH,
			  .interval = 1.0 };
	const char *cmd, *arg = NULL;
	bool interval_set = false;
	int c;

	while ((c = getopt_long(argc, argv, "+c:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config = optarg; break;
		case 'R': o.root = optarg; break;
		case 'S': o.state_dir = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("wbgov %s\n", VERSION); return 0;
		case 'j': case '1': case 'i': case 'P':
			return bad("that option goes after the command", argv[optind - 1]);
		default: return EX_USAGE;
		}
	}
	if (optind >= argc)
		return bad("no command given", "try `wbgov --help`");
	cmd = argv[optind];
	/* the command's own options may come before or after its argument:
	 * parse the rest afresh (optind 0) with GNU's permuting order */
	argc -= optind;
	argv += optind;
	optind = 0;
	opterr = 0; /* the messages below name the command */
	while ((c = getopt_long(argc, argv, ":c:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j': o.json = true; break;
		case '1': o.once = true; break;
		case 'P': o.no_power_off = true; break;
		case 'i': {
			char *end;
			o.interval = strtod(optarg, &end);
			interval_set = true;
			if (*end || !(o.interval >= 0.1 && o.interval <= 3600))
				return bad("--interval wants seconds from 0.1 to 3600", optarg);
			break;
		}
		case 'c': o.config = optarg; break;
		case 'R': o.root = optarg; break;
		case 'S': o.state_dir = optarg; break;
		case 'h': return command_help(cmd);
		case 'V': printf("wbgov %s\n", VERSION); return 0;
		case ':':
			fprintf(stderr, "wbgov %s: %s needs a value; see wbgov %s --help\n", cmd,
				argv[optind - 1], cmd);
			return EX_USAGE;
		default:
			if (optopt)
				fprintf(stderr, "wbgov %s: unknown option -%c; see wbgov %s --help\n", cmd,
					optopt, cmd);
			else
				fprintf(stderr, "wbgov %s: unknown option %s; see wbgov %s --help\n", cmd,
					argv[optind - 1], cmd);
			return EX_USAGE;
		}
	}
	if (optind < argc)
		arg = argv[optind++];
	if (optind < argc)
		return bad("unexpected argument", argv[optind]);
	/* an option that belongs to another command is refused, not ignored */
	if ((o.json && strcmp(cmd, "status")) || (o.once && strcmp(cmd, "apply")) ||
	    (interval_set && strcmp(cmd, "watch")) || (o.no_power_off && strcmp(cmd, "eject"))) {
		fprintf(stderr, "wbgov %s: %s is not an option of %s; see wbgov %s --help\n", cmd,
			o.json ? "--json" : o.once ? "--once" : interval_set ? "--interval" : "--no-power-off",
			cmd, cmd);
		return EX_USAGE;
	}
	real.root = o.root;

	if (!strcmp(cmd, "status"))
		return arg ? bad("status takes no argument", arg) : print_status(&o, stdout);
	if (!strcmp(cmd, "watch"))
		return arg ? bad("watch takes no argument", arg) : cmd_watch(&o);
	if (!strcmp(cmd, "sync"))
		return cmd_sync(&o, arg);
	if (!strcmp(cmd, "eject"))
		return arg ? cmd_eject(&o, arg, !o.no_power_off) : bad("eject needs a PATH or DEVICE", "e.g. /media/stick or sdb");
	if (!strcmp(cmd, "explain"))
		return arg ? cmd_explain(&o, arg) : bad("explain needs a DEVICE", "e.g. sdb");
	if (!strcmp(cmd, "apply"))
		return arg ? bad("apply takes no argument", arg) : cmd_apply(&o);
	if (!strcmp(cmd, "restore"))
		return arg ? bad("restore takes no argument", arg) : cmd_restore(&o);
	return bad("unknown command", cmd);
}
