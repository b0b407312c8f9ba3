/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov status and watch. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/units.h"
#include "daemon/metrics.h"
#include "daemon/status.h"
#include "knobs/room.h"
#include "policy/bwmeter.h"
#include "sys/fsutil.h"
#include "sys/procfs.h"
#include "sys/sysfs.h"

struct row {
	struct knobs_dev d;
	struct mount_list mounts;
	struct status_entry st;
	bool has_st;
	uint64_t strict, max_bytes, ratio;
	bool has_knobs;
	uint64_t pending;
	bool has_pending;
	struct cli_pending pend; /* pending's source; wbgovd's drain */
};

/* A row per bdi, however many, into *ret (kept for the next call: watch
 * makes one a second). */
static int collect(const struct cli *o, struct row **ret)
{
	static struct knobs_dev *devs;
	static struct row *rows;
	static const char **bdis;
	static struct cli_pending *pend;
	static int devs_room, rows_room, bdis_room, pend_room;
	struct mount_table *mt;
	char sp[PATH_MAX];
	int n = cli_devices(o, &devs, &devs_room);
	/* the daemon's record while it runs; a file left by a run that ended
	 * is not what holds now */
	bool running = cli_daemon_running(o);

	if (n < 0)
		return n;
	if (!room_for(&rows, &rows_room, n, sizeof(*rows)) ||
	    !room_for(&bdis, &bdis_room, n, sizeof(*bdis)) ||
	    !room_for(&pend, &pend_room, n, sizeof(*pend)))
		return -ENOMEM;
	*ret = rows;
	cli_path_in(sp, sizeof(sp), o, "status");
	if (procfs_mount_table_read(o->root, &mt) != 0)
		mt = NULL; /* no mounts shown */
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		memset(r, 0, sizeof(*r));
		r->d = devs[i];
		if (mt)
			procfs_dev_mounts_of(mt, &r->d, &r->mounts);
		r->has_st = running && status_read(sp, r->d.bdi, &r->st) == 0;
		r->has_knobs = sysfs_bdi_read(o->root, r->d.bdi, BDI_STRICT_LIMIT, &r->strict) == 0 &&
			       sysfs_bdi_read(o->root, r->d.bdi, BDI_MAX_BYTES, &r->max_bytes) == 0 &&
			       sysfs_bdi_read(o->root, r->d.bdi, BDI_MAX_RATIO_FINE, &r->ratio) == 0;
		bdis[i] = devs[i].bdi;
	}
	procfs_mount_table_free(mt);
	/* debugfs, else wbgovd on the bus: once for every row */
	cli_pending_fill(o, bdis, pend, n);
	for (int i = 0; i < n; i++) {
		rows[i].pend = pend[i];
		rows[i].has_pending = pend[i].source != PENDING_NONE;
		rows[i].pending = pend[i].bytes;
	}
	return n;
}

/* What wbgovd says is in force, from its status file (while it runs);
 * none otherwise. */
static void read_features(const struct cli *o, bool running, struct features *ret)
{
	char sp[PATH_MAX];

	memset(ret, 0, sizeof(*ret));
	cli_path_in(sp, sizeof(sp), o, "status");
	if (running && status_features(sp, ret) < 0)
		memset(ret, 0, sizeof(*ret));
}

/* The features as JSON: [{name, state, how, refused_by}], in the
 * daemon's order; [] when it does not run. */
static json_t *features_json(const struct features *fs)
{
	json_t *a = json_array();

	for (int i = 0; a && i < FEATURE_COUNT; i++) {
		const struct feature_report *r = &fs->f[i];
		if (r->state == FEATURE_UNSAID)
			continue;
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o}", "name",
						       feature_name((enum feature)i), "state",
						       feature_state_name(r->state), "how",
						       cli_json_text(r->how), "refused_by",
						       cli_json_text_or_null(r->refused_by)))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* The features as text: a line each, as wbgovd logged them at start. */
static void features_text(FILE *f, const struct features *fs)
{
	char how[FEATURE_HOW_MAX * 4];
	bool head = false;

	for (int i = 0; i < FEATURE_COUNT; i++) {
		const struct feature_report *r = &fs->f[i];
		if (r->state == FEATURE_UNSAID)
			continue;
		if (!head)
			/* TRANSLATORS: the heading of the lines "debugfs on: ..." */
			fprintf(f, "\n%s\n", _("wbgovd's features:"));
		head = true;
		cli_tty_clean(how, sizeof(how), r->how);
		if (r->state == FEATURE_REFUSED)
			/* TRANSLATORS: "landlock refused by SystemCallFilter=: ..." */
			fprintf(f, _("  %s refused by %s: %s\n"), feature_name((enum feature)i),
				r->refused_by, how);
		else
			fprintf(f, "  %s %s: %s\n", feature_name((enum feature)i),
				feature_state_name(r->state), how);
	}
}

/* The text table's columns. */
enum { C_DEV, C_BDI, C_MODEL, C_BUS, C_BW, C_STRICT, C_MAX, C_PEND, C_DRAIN, C_MOUNTS, NCOL };
/* TRANSLATORS: the headers of status's table, which takes their width;
 * the footnotes under it name them */
static const char *const col_head[NCOL] = {
	N_("DEVICE"), N_("BDI"),  N_("MODEL"),    N_("BUS"),   N_("MEASURED"),
	N_("STRICT"), N_("MAX"),  N_("DIRTY+WB"), N_("DRAIN"), N_("MOUNTS"),
};
/* the width of the figures, so that a table stays as wide from one
 * second of watch to the next */
static const int col_min[NCOL] = { [C_BW] = 11, [C_STRICT] = 6, [C_MAX] = 10, [C_PEND] = 10,
				   [C_DRAIN] = 7 };
#define CELL_MAX 1024

/* A row's cells as the text table shows them, "-" for unknown. */
static void row_cells(const struct row *r, char cell[NCOL][CELL_MAX])
{
	char mounts[CELL_MAX];

	snprintf(cell[C_DEV], CELL_MAX, "%s", r->d.disk[0] ? r->d.disk : "-"); /* a share has none */
	snprintf(cell[C_BDI], CELL_MAX, "%s", r->d.bdi);
	if (r->d.model[0])
		cli_tty_clean(cell[C_MODEL], CELL_MAX, r->d.model);
	else
		snprintf(cell[C_MODEL], CELL_MAX, "-");
	snprintf(cell[C_BUS], CELL_MAX, "%s", r->d.bus[0] ? r->d.bus : "-");
	snprintf(cell[C_BW], CELL_MAX, "-");
	if (r->has_st && r->st.bw_bps)
		cli_human_rate(cell[C_BW], CELL_MAX, (double)r->st.bw_bps);
	snprintf(cell[C_STRICT], CELL_MAX, "%s", r->has_knobs ? (r->strict ? _("yes") : _("no")) : "-");
	snprintf(cell[C_MAX], CELL_MAX, "-");
	if (r->has_knobs)
		bytes_text(cell[C_MAX], CELL_MAX, r->max_bytes, BYTES_KIB_DOWN);
	snprintf(cell[C_PEND], CELL_MAX, "-");
	snprintf(cell[C_DRAIN], CELL_MAX, "-");
	if (r->has_pending) {
		double s = cli_pending_drain_s(&r->pend, r->has_st ? r->st.bw_bps : 0);
		bytes_text(cell[C_PEND], CELL_MAX, r->pending, BYTES_KIB_DOWN);
		if (s >= 0)
			snprintf(cell[C_DRAIN], CELL_MAX, "%.1f s", s);
	}
	mount_list_join(&r->mounts, ", ", mounts, sizeof(mounts));
	if (mounts[0])
		cli_tty_clean(cell[C_MOUNTS], CELL_MAX, mounts);
	else
		snprintf(cell[C_MOUNTS], CELL_MAX, "-");
}

/* A line of the table: the figures right-aligned, the mounts last and
 * unpadded. */
static void put_row(FILE *f, char cell[NCOL][CELL_MAX], const int *w)
{
	for (int c = 0; c < C_MOUNTS; c++) {
		cli_put_padded(f, cell[c], w[c], c >= C_BW);
		fputc(' ', f);
	}
	fprintf(f, " %s\n", cell[C_MOUNTS]);
}

/* What wbgovd's --metrics-file holds, from the same writer. */
static int status_prometheus(FILE *f, const struct row *rows, int n, bool running)
{
	static struct metrics_dev *m;
	static int m_room;
	if (!room_for(&m, &m_room, n, sizeof(*m))) {
		fprintf(stderr, "wbgov status: %s\n", strerror(ENOMEM));
		return EX_OSERR;
	}
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		m[i] = (struct metrics_dev){ .info = r->d, .has_record = r->has_st, .rec = r->st,
					     .has_knobs = r->has_knobs, .strict = r->strict != 0,
					     .max_bytes = r->max_bytes, .has_pending = r->has_pending,
					     .pending_bytes = r->pending };
	}
	return metrics_write(f, running, m, n) ? EX_IOERR : 0;
}

/* Schema 1, in wbgov(8): every key always there, null for unknown;
 * watch's on one line. `mem_err`: /proc/meminfo's figures unknown. */
static int status_json(const struct cli *o, FILE *f, const struct row *rows, int n, bool running,
		       const char *when, int mem_err, uint64_t dirty, uint64_t writeback)
{
	static struct features fs;
	json_t *devs = json_array(), *doc;
	int rc;

	for (int i = 0; devs && i < n; i++) {
		const struct row *r = &rows[i];
		bool bw = r->has_st && r->st.bw_bps;
		double drain = cli_pending_drain_s(&r->pend, bw ? r->st.bw_bps : 0);
		json_t *dev = json_pack(
			"{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"bdi", cli_json_text(r->d.bdi), "kind", cli_kind_key(&r->d),
			"disk", cli_json_text(r->d.disk),
			"model", cli_json_text_or_null(r->d.model),
			"bus", cli_json_text_or_null(r->d.bus), "mounts", cli_json_mounts(&r->mounts),
			"bandwidth_bps", cli_json_u64(bw, r->st.bw_bps),
			"bandwidth_source", bw ? json_string(bw_source_key(r->st.source)) : json_null(),
			"strict_limit", r->has_knobs ? json_boolean(r->strict) : json_null(),
			"max_bytes", cli_json_u64(r->has_knobs, r->max_bytes),
			"max_ratio_fine", cli_json_u64(r->has_knobs, r->ratio),
			"dirty_writeback_bytes", cli_json_u64(r->has_pending, r->pending),
			"pending_source", r->has_pending ? json_string(cli_pending_key[r->pend.source])
							 : json_null(),
			"drain_s", cli_json_real(drain >= 0, drain, 2));
		if (json_array_append_new(devs, dev)) {
			json_decref(devs);
			devs = NULL;
		}
	}
	read_features(o, running, &fs);
	doc = json_pack("{s:i, s:s, s:b, s:o, s:o, s:o, s:o}", "schema", 1, "time", when,
			"wbgovd_running", running, "dirty_bytes", cli_json_u64(!mem_err, dirty),
			"writeback_bytes", cli_json_u64(!mem_err, writeback), "devices", devs,
			"features", features_json(&fs));
	rc = cli_json_print(f, doc, o->watching);
	if (rc == -ENOMEM)
		fprintf(stderr, "wbgov status: %s\n", strerror(ENOMEM));
	return rc == -ENOMEM ? EX_OSERR : rc ? EX_IOERR : 0;
}

/* The table: every column as wide as its longest entry, its header's in
 * this language too, as lsblk does; what a "-" means below it. */
static void status_table(const struct cli *o, FILE *f, const struct row *rows, int n,
			 bool running, const char *when)
{
	bool no_bw = false, no_pend = false, from_bus = false;
	int w[NCOL];
	char cell[NCOL][CELL_MAX];

	for (int c = 0; c < NCOL; c++)
		w[c] = col_min[c] > cli_text_width(_(col_head[c])) ? col_min[c] :
								  cli_text_width(_(col_head[c]));
	for (int i = 0; i < n; i++) {
		row_cells(&rows[i], cell);
		for (int c = 0; c < NCOL; c++)
			if (cli_text_width(cell[c]) > w[c])
				w[c] = cli_text_width(cell[c]);
	}
	if (o->watching) {
		fprintf(f, _("%s, every %.1f s"), when, o->interval);
		fputs("\n\n", f);
	}
	for (int c = 0; c < NCOL; c++)
		snprintf(cell[c], CELL_MAX, "%s", _(col_head[c]));
	put_row(f, cell, w);
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		row_cells(r, cell);
		put_row(f, cell, w);
		no_bw |= !(r->has_st && r->st.bw_bps);
		no_pend |= !r->has_pending;
		from_bus |= r->has_pending && r->pend.source == PENDING_WBGOVD;
	}
	if (no_bw)
		fprintf(f, "\n%s\n",
			running ? _("MEASURED, DRAIN: - until wbgovd has measured the device") :
				  _("MEASURED, DRAIN: - until wbgovd has measured the device (it "
				    "is not running)"));
	if (no_pend)
		fprintf(f, "%s%s\n", no_bw ? "" : "\n",
			_("DIRTY+WB, DRAIN: - where the bdi's own counters are not readable "
			  "(debugfs at /sys/kernel/debug, as root) and wbgovd does not tell them "
			  "on D-Bus"));
	if (from_bus)
		fprintf(f, "%s%s\n", no_bw || no_pend ? "" : "\n",
			_("DIRTY+WB, DRAIN: from wbgovd on D-Bus where debugfs is not readable "
			  "here"));
}

/* The system's line: /proc/meminfo's Dirty and Writeback, and whether
 * wbgovd runs. */
static void status_system(const struct cli *o, FILE *f, int mem_err, uint64_t dirty,
			  uint64_t writeback, bool running)
{
	const char *daemon;

	/* TRANSLATORS: after "system: Dirty 4.0 MiB, Writeback 1.0 MiB; " */
	daemon = running ? _("wbgovd running") : _("wbgovd not running");
	if (mem_err) {
		char mp[PATH_MAX];
		if (path_at(mp, sizeof(mp), o->root, "/proc/meminfo"))
			snprintf(mp, sizeof(mp), "/proc/meminfo");
		fputc('\n', f);
		/* TRANSLATORS: Dirty and Writeback are /proc/meminfo's names */
		fprintf(f, _("system: Dirty -, Writeback - (%s: %s); %s"), mp,
			mem_err == -EINVAL ? _("no Dirty or Writeback line it can read") :
					     strerror(-mem_err),
			daemon);
		fputc('\n', f);
	} else {
		char d[24], wb[24];
		bytes_text(d, sizeof(d), dirty, BYTES_KIB_DOWN);
		bytes_text(wb, sizeof(wb), writeback, BYTES_KIB_DOWN);
		fputc('\n', f);
		/* TRANSLATORS: Dirty and Writeback are /proc/meminfo's names */
		fprintf(f, _("system: Dirty %s, Writeback %s; %s"), d, wb, daemon);
		fputc('\n', f);
	}
}

int cli_status(const struct cli *o, FILE *f)
{
	static struct features fs;
	struct row *rows = NULL;
	uint64_t dirty = 0, writeback = 0;
	int n = collect(o, &rows), mem_err;
	bool running = cli_daemon_running(o);
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	/* when it was read: UTC for JSON, local time for people */
	if (!(o->json ? gmtime_r(&now, &tm) : localtime_r(&now, &tm)) ||
	    !strftime(when, sizeof(when), o->json ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(when, sizeof(when), "?");

	if (n < 0) {
		fprintf(stderr, _("wbgov status: cannot list devices under %s: %s\n"), o->root,
			strerror(-n));
		return EX_OSFILE;
	}
	if (o->prometheus)
		return status_prometheus(f, rows, n, running);
	/* a meminfo that cannot be read or parsed is unknown, not 0: "-" and
	 * null, as every other figure */
	mem_err = procfs_meminfo(o->root, &dirty, &writeback);
	if (o->json)
		return status_json(o, f, rows, n, running, when, mem_err, dirty, writeback);
	status_table(o, f, rows, n, running, when);
	status_system(o, f, mem_err, dirty, writeback, running);
	/* once a second in watch is too much of them */
	if (!o->watching) {
		read_features(o, running, &fs);
		features_text(f, &fs);
	}
	return 0;
}

int cli_watch(const struct cli *co)
{
	struct cli w = *co, *o = &w;
	struct sigaction sa = { .sa_handler = cli_on_int };
	bool tty = isatty(STDOUT_FILENO);

	w.watching = true;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!cli_interrupted) {
		struct timespec ts = { (time_t)o->interval,
				       (long)((o->interval - (double)(time_t)o->interval) * 1e9) };
		if (tty && !o->json)
			fputs("\033[H\033[2J", stdout);
		cli_status(o, stdout);
		if (!tty && !o->json)
			fputc('\n', stdout);
		fflush(stdout);
		nanosleep(&ts, NULL);
	}
	return 0;
}
