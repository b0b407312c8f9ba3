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
			procfs_mounts_of(mt, r->d.disk, &r->mounts);
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


int cli_status(const struct cli *o, FILE *f)
{
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
		fprintf(stderr, "wbgov status: cannot list devices under %s: %s\n", o->root,
			strerror(-n));
		return EX_OSFILE;
	}
	if (o->prometheus) {
		/* what wbgovd's --metrics-file holds, from the same writer */
		static struct metrics_dev *m;
		static int m_room;
		if (!room_for(&m, &m_room, n, sizeof(*m))) {
			fprintf(stderr, "wbgov status: %s\n", strerror(ENOMEM));
			return EX_OSERR;
		}
		for (int i = 0; i < n; i++) {
			struct row *r = &rows[i];
			m[i] = (struct metrics_dev){ .info = r->d, .has_record = r->has_st, .rec = r->st,
						     .has_knobs = r->has_knobs, .strict = r->strict != 0,
						     .max_bytes = r->max_bytes, .has_pending = r->has_pending,
						     .pending_bytes = r->pending };
		}
		return metrics_write(f, running, m, n) ? EX_IOERR : 0;
	}
	/* a meminfo that cannot be read or parsed is unknown, not 0: "-" and
	 * null, as every other figure */
	mem_err = procfs_meminfo(o->root, &dirty, &writeback);
	if (o->json) {
		/* schema 1, in wbgov(8): every key always there, null for unknown;
		 * watch's on one line */
		json_t *devs = json_array(), *doc;
		int rc;
		for (int i = 0; devs && i < n; i++) {
			struct row *r = &rows[i];
			bool bw = r->has_st && r->st.bw_bps;
			double drain = cli_pending_drain_s(&r->pend, bw ? r->st.bw_bps : 0);
			json_t *dev = json_pack(
				"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
				"bdi", cli_json_text(r->d.bdi), "disk", cli_json_text(r->d.disk),
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
		doc = json_pack("{s:i, s:s, s:b, s:o, s:o, s:o}", "schema", 1, "time", when,
				"wbgovd_running", running, "dirty_bytes", cli_json_u64(!mem_err, dirty),
				"writeback_bytes", cli_json_u64(!mem_err, writeback), "devices", devs);
		rc = cli_json_print(f, doc, o->watching);
		if (rc == -ENOMEM)
			fprintf(stderr, "wbgov status: %s\n", strerror(ENOMEM));
		return rc == -ENOMEM ? EX_OSERR : rc ? EX_IOERR : 0;
	}
	{
		/* the text columns as wide as their longest entry, as lsblk does */
		int wd = 6, wb = 3, wm = 5, wu = 3;
		bool no_bw = false, no_pend = false, from_bus = false;
		for (int i = 0; i < n; i++) {
			int l;
			if ((l = (int)strlen(rows[i].d.disk)) > wd) wd = l;
			if ((l = (int)strlen(rows[i].d.bdi)) > wb) wb = l;
			if ((l = (int)strlen(rows[i].d.model)) > wm) wm = l;
			if ((l = (int)strlen(rows[i].d.bus)) > wu) wu = l;
		}
		if (o->watching)
			fprintf(f, "%s, every %.1f s\n\n", when, o->interval);
		fprintf(f, "%-*s %-*s %-*s %-*s %11s %6s %10s %10s %7s  %s\n", wd, "DEVICE", wb, "BDI", wm,
			"MODEL", wu, "BUS", "MEASURED", "STRICT", "MAX", "DIRTY+WB", "DRAIN", "MOUNTS");
		for (int i = 0; i < n; i++) {
			struct row *r = &rows[i];
			char bw[24] = "-", mx[24] = "-", pend[24] = "-", drain[24] = "-", mounts[1024];
			char model[sizeof(r->d.model)], mclean[sizeof(mounts)];

			mount_list_join(&r->mounts, ", ", mounts, sizeof(mounts));
			if (r->has_st && r->st.bw_bps)
				cli_human_rate(bw, sizeof(bw), (double)r->st.bw_bps);
			else
				no_bw = true;
			if (r->has_knobs)
				bytes_text(mx, sizeof(mx), r->max_bytes, BYTES_KIB_DOWN);
			if (r->has_pending) {
				double s = cli_pending_drain_s(&r->pend, r->has_st ? r->st.bw_bps : 0);
				bytes_text(pend, sizeof(pend), r->pending, BYTES_KIB_DOWN);
				if (s >= 0)
					snprintf(drain, sizeof(drain), "%.1f s", s);
				from_bus |= r->pend.source == PENDING_WBGOVD;
			} else {
				no_pend = true;
			}
			fprintf(f, "%-*s %-*s %-*s %-*s %11s %6s %10s %10s %7s  %s\n", wd, r->d.disk, wb,
				r->d.bdi, wm, r->d.model[0] ? cli_tty_clean(model, sizeof(model), r->d.model) : "-",
				wu, r->d.bus[0] ? r->d.bus : "-", bw,
				r->has_knobs ? (r->strict ? "yes" : "no") : "-", mx, pend, drain,
				mounts[0] ? cli_tty_clean(mclean, sizeof(mclean), mounts) : "-");
		}
		if (no_bw)
			fprintf(f, "\nMEASURED, DRAIN: - until wbgovd has measured the device%s\n",
				running ? "" : " (it is not running)");
		if (no_pend)
			fprintf(f, "%sDIRTY+WB, DRAIN: - where the bdi's own counters are not readable "
				   "(debugfs at /sys/kernel/debug, as root) and wbgovd does not tell them "
				   "on the system bus\n", no_bw ? "" : "\n");
		if (from_bus)
			fprintf(f, "%sDIRTY+WB, DRAIN: from wbgovd on D-Bus where debugfs is not "
				   "readable here\n", no_bw || no_pend ? "" : "\n");
	}
	if (mem_err) {
		char mp[PATH_MAX];
		if (path_at(mp, sizeof(mp), o->root, "/proc/meminfo"))
			snprintf(mp, sizeof(mp), "/proc/meminfo");
		fprintf(f, "\nsystem: Dirty -, Writeback - (%s: %s); wbgovd %s\n", mp,
			mem_err == -EINVAL ? "no Dirty or Writeback line it can read" : strerror(-mem_err),
			running ? "running" : "not running");
	} else {
		char d[24], w[24];
		bytes_text(d, sizeof(d), dirty, BYTES_KIB_DOWN);
		bytes_text(w, sizeof(w), writeback, BYTES_KIB_DOWN);
		fprintf(f, "\nsystem: Dirty %s, Writeback %s; wbgovd %s\n", d, w,
			running ? "running" : "not running");
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
