/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/status.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/pidlock.h"
#include "sys/sandbox.h"
#include "sys/uevent.h"

uint64_t daemon_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= GIB)
		snprintf(buf, len, "%.1f GiB", (double)b / GIB);
	else if (b >= MIB)
		snprintf(buf, len, "%.1f MiB", (double)b / MIB);
	else
		snprintf(buf, len, "%.0f KiB", (double)b / KIB);
}

/* How the bandwidth reads in a log line. */
static void fmt_bw(char *buf, size_t len, const struct bwmeter *m)
{
	double mbs = (double)m->est_bps / 1e6;

	switch (m->source) {
	case BW_NONE: snprintf(buf, len, "not measured yet"); break;
	case BW_LOWER_BOUND: snprintf(buf, len, "at least %.1f MB/s", mbs); break;
	case BW_MEASURED: snprintf(buf, len, "%.1f MB/s", mbs); break;
	case BW_REMEMBERED: snprintf(buf, len, "%.1f MB/s (remembered)", mbs); break;
	}
}

/* `sdb (SanDisk Cruzer, usb): 5.1 MB/s -> max_bytes 4.9 MiB, strict (...)`:
 * one line when the decision moves materially, with its one reason. */
static void log_decision(struct daemon *dm, const struct gov_dev *d)
{
	char cap[32], bw[48];
	int i;

	for (i = 0; i < dm->nlogged && strcmp(dm->logged[i].bdi, d->info.bdi); i++)
		;
	fmt_bw(bw, sizeof(bw), &d->meter);
	/* -v: every decision, on the clock of the window lines */
	if (d->dec.govern && d->dec.strict)
		snprintf(cap, sizeof(cap), "max_bytes %llu", (unsigned long long)d->dec.max_bytes);
	else
		snprintf(cap, sizeof(cap), "no cap");
	log_debug("%s: +%.3f s: %s -> %s", d->info.bdi,
		  (double)(daemon_now_usec() - dm->start_usec) / 1e6, bw, cap);
	if (i < dm->nlogged) {
		if (dm->logged[i].err == d->err && dm->logged[i].above_global == d->above_global &&
		    !gov_decision_moved(&dm->logged[i].dec, &d->dec))
			return;
	} else if (dm->nlogged < GOV_MAX_DEV) {
		i = dm->nlogged++;
	} else {
		return;
	}
	snprintf(dm->logged[i].bdi, sizeof(dm->logged[i].bdi), "%s", d->info.bdi);
	dm->logged[i].dec = d->dec;
	dm->logged[i].above_global = d->above_global;
	dm->logged[i].err = d->err;

	{
		char line[768];
		bool warn = daemon_describe(d, dm->state_path, line, sizeof(line));
		if (warn)
			log_warn("%s", line);
		else
			log_info("%s", line);
	}
}

bool daemon_describe(const struct gov_dev *d, const char *state_path, char *buf, size_t len)
{
	char cap[32], bw[48], who[320];

	fmt_bw(bw, sizeof(bw), &d->meter);
	snprintf(who, sizeof(who), "%s%s%s (%s%s%s)", d->info.disk,
		 strcmp(d->info.disk, d->info.bdi) ? " bdi " : "",
		 strcmp(d->info.disk, d->info.bdi) ? d->info.bdi : "",
		 d->info.model[0] ? d->info.model : "unknown model", d->info.bus[0] ? ", " : "",
		 d->info.bus);
	fmt_bytes(cap, sizeof(cap), d->dec.max_bytes);
	if (d->err && d->err_op == GOV_ERR_RECORD)
		snprintf(buf, len, "%s: its original values could not be recorded in %s (%s); "
			 "left as it is", who, state_path, strerror(-d->err));
	else if (d->err && d->err_op == GOV_ERR_READ)
		snprintf(buf, len, "%s: reading %s: %s; left as it is", who,
			 bdi_attr_names[d->err_attr], strerror(-d->err));
	else if (d->err)
		snprintf(buf, len, "%s: %s -> max_bytes %s refused: %s %s (the previous value stays)",
			 who, bw, cap, bdi_attr_names[d->err_attr], strerror(-d->err));
	else if (d->above_global)
		snprintf(buf, len, "%s: %s -> no cap (%s)", who, bw, gov_why_text[WHY_ABOVE_GLOBAL]);
	else if (!d->dec.govern)
		snprintf(buf, len, "%s: left alone (%s)", who, gov_why_text[d->dec.why]);
	else if (!d->dec.strict)
		snprintf(buf, len, "%s: %s -> no cap (%s)", who, bw, gov_why_text[d->dec.why]);
	else
		snprintf(buf, len, "%s: %s -> max_bytes %s, strict (%s)", who, bw, cap,
			 gov_why_text[d->dec.why]);
	return d->err != 0;
}

static int hook_save(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;
	int r = state_record_bdi(&dm->state, dm->state_path, d->info.bdi, d->orig.strict_limit,
				 d->orig.max_ratio_fine);

	if (r)
		log_err("%s: cannot record the original values in %s: %s; not changing it",
			d->info.bdi, dm->state_path, strerror(-r));
	return r;
}

static void hook_restored(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	state_del_bdi(&dm->state, d->info.bdi);
	state_save(dm->state_path, &dm->state);
	log_info("%s: knobs given back (strict_limit %llu, max_ratio_fine %llu)", d->info.bdi,
		 (unsigned long long)d->orig.strict_limit, (unsigned long long)d->orig.max_ratio_fine);
}

static void hook_decided(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	dm->status_dirty = true;
	dm->bus_changed = true;
	log_decision(dm, d);
}

/* -v: every window that moved an estimate, with the time since start.
 * What is worth keeping goes to device memory: a figure measured with a
 * backlog, or a lower bound that showed the device fast. */
static void hook_measured(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;
	const struct bwmeter *m = &d->meter;
	char bw[48];

	fmt_bw(bw, sizeof(bw), m);
	if (m->last_polls)
		log_debug("%s: +%.3f s: window %.1f MB/s (%s backlog: queue empty at %u of %u "
			  "polls, %" PRIu64 " ms of work on average) -> %s",
			  d->info.bdi, (double)(daemon_now_usec() - dm->start_usec) / 1e6,
			  (double)m->last_bps / 1e6, m->last_backlog ? "with" : "without",
			  m->last_empty, m->last_polls, m->last_queued_ms, bw);
	else /* judged by its stat alone (no debugfs) */
		log_debug("%s: +%.3f s: window %.1f MB/s (%s backlog: busy %u %% of it, requests "
			  "in flight at %s poll) -> %s",
			  d->info.bdi, (double)(daemon_now_usec() - dm->start_usec) / 1e6,
			  (double)m->last_bps / 1e6, m->last_backlog ? "with" : "without",
			  m->last_busy_pct, m->last_inflight ? "every" : "not every", bw);
	if (!dm->memory_path[0] || !d->info.id[0])
		return;
	if (m->source == BW_MEASURED)
		memory_put(&dm->memory, d->info.id, m->est_bps, 'm', (uint64_t)time(NULL));
	else if (m->source == BW_LOWER_BOUND &&
		 m->est_bps * dm->gov.cfg.target_ms / 1000 > dm->gov.cfg.ceiling_bytes)
		memory_put(&dm->memory, d->info.id, m->est_bps, 'f', (uint64_t)time(NULL));
	else if (m->source == BW_LOWER_BOUND && !m->known &&
		 m->est_bps * dm->gov.cfg.target_ms / 1000 > dm->gov.cfg.initial_bytes)
		/* more than its start cap allows: next time it starts there */
		memory_put(&dm->memory, d->info.id, m->est_bps, 'l', (uint64_t)time(NULL));
}

/* A new device: its figure from device memory, if any. */
static uint64_t hook_recall(void *ctx, const struct knobs_dev *info, bool *ret_known)
{
	struct daemon *dm = ctx;
	uint64_t when = 0, bps;
	char date[32] = "?", source = 'm';
	time_t t;
	struct tm tm;

	if (!dm->memory_path[0] || !info->id[0])
		return 0;
	bps = memory_get(&dm->memory, info->id, &when, &source);
	if (!bps)
		return 0;
	*ret_known = source != 'l';
	t = (time_t)when;
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	log_info("%s (%s): remembered %s%.1f MB/s, measured %s (%s)", info->disk, info->bdi,
		 source == 'l' ? "at least " : "", (double)bps / 1e6, date, info->id);
	return bps;
}

static void memory_flush(struct daemon *dm, bool now)
{
	int r;

	if (!dm->memory_path[0] || !dm->memory.dirty ||
	    (!now && daemon_now_usec() - dm->memory_saved_usec < MEMORY_SAVE_USEC))
		return;
	dm->memory_saved_usec = daemon_now_usec();
	r = memory_save(dm->memory_path, &dm->memory);
	if (r) {
		log_warn("%s: cannot save device memory: %s; not trying again", dm->memory_path,
			 strerror(-r));
		dm->memory_path[0] = 0;
	}
}

/* Device memory at start: a missing file is an empty memory; a file that
 * cannot be trusted is ignored, with one line, and replaced by what this run
 * measures; a directory that is not ours turns memory off. */
static void memory_start(struct daemon *dm)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	int r;

	if (!dm->memory_path[0])
		return;
	snprintf(dir, sizeof(dir), "%s", dm->memory_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			log_warn("%s: %s; device memory off", dir, strerror(errno));
			dm->memory_path[0] = 0;
			return;
		}
		if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    (st.st_mode & 022)) {
			log_warn("%s: not a directory of ours, or writable by others; device memory off",
				 dir);
			dm->memory_path[0] = 0;
			return;
		}
	}
	r = memory_load(dm->memory_path, &dm->memory);
	if (r == -EPERM || r == -EINVAL || r == -EFBIG) {
		log_warn("%s: ignored (%s); devices are measured anew",
			 dm->memory_path, r == -EPERM ? "not ours, or writable by others" :
			 r == -EINVAL ? "malformed, or not a regular file" : "too large");
		dm->memory.dirty = true; /* replace it with what this run learns */
	} else if (r) {
		/* a read that failed (EIO, an LSM's EACCES) says nothing of the
		 * file: keep it as it is, and remember nothing this run */
		log_warn("%s: %s; device memory off", dm->memory_path, strerror(-r));
		dm->memory_path[0] = 0;
	}
}

static void hook_gone(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	dm->status_dirty = true;
	dm->bus_changed = true;
	log_info("%s (%s): gone", d->info.disk, d->info.bdi);
	for (int i = 0; i < dm->nlogged; i++)
		if (!strcmp(dm->logged[i].bdi, d->info.bdi))
			dm->logged[i] = dm->logged[--dm->nlogged];
}

static int hook_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	struct daemon *dm = ctx;
	int r;

	memcpy(dm->state.vm, vm, sizeof(dm->state.vm));
	dm->state.vm_saved = true;
	r = state_save(dm->state_path, &dm->state);
	if (r) {
		dm->state.vm_saved = false;
		log_err("cannot record vm.dirty_* in %s: %s; not changing them", dm->state_path,
			strerror(-r));
	}
	return r;
}

static void hook_restored_vm(void *ctx)
{
	struct daemon *dm = ctx;

	dm->state.vm_saved = false;
	state_save(dm->state_path, &dm->state);
}

static void hook_global(void *ctx, uint64_t cap, int err)
{
	(void)ctx;
	if (err)
		log_warn("vm.dirty_bytes %llu refused: %s (the previous values stay)",
			 (unsigned long long)cap, strerror(-err));
	else if (cap)
		log_info("a slow device holds dirty data: vm.dirty_bytes %.1f MiB, "
			 "dirty_background_bytes %.1f MiB (no per-device knobs before Linux 6.2)",
			 (double)cap / MIB, (double)cap / 2 / MIB);
	else
		log_info("no slow device holds dirty data: vm.dirty_* given back");
}

static void report_restore(void *ctx, const char *owner, const char *knob, int err)
{
	(void)ctx;
	log_err("%s: could not give back %s: %s", owner, knob, strerror(-err));
}

/* Knobs a previous run left changed (SIGKILL, a crash): give them back first. */
static int restore_leftovers(struct daemon *dm)
{
	int r = state_load(dm->state_path, &dm->state);

	if (r == -ENOENT)
		return 0;
	if (r) {
		log_err("%s: unreadable (%s); remove it after checking the knobs by hand",
			dm->state_path, r == -EINVAL ? "malformed, or not a regular file" :
			file_trust_text(r));
		return r;
	}
	log_notice("%s: a previous run did not finish; giving its knobs back", dm->state_path);
	if (state_restore(&knobs_real_ops, &dm->real, &dm->state, report_restore, dm))
		return -EIO;
	return state_save(dm->state_path, &dm->state);
}

/* One instance per state dir: a lock on the pid file. */
static int take_lock(struct daemon *dm)
{
	char holder[32];
	int fd = pidlock_take(dm->lock_path, dm->pid_path, holder, sizeof(holder));

	if (fd == -EBUSY)
		log_err("already running (pid %s, lock %s)", holder, dm->pid_path);
	else if (fd < 0)
		log_err("%s: %s", dm->pid_path, strerror(-fd));
	return fd; /* kept open: the lock lives as long as the process */
}

/* From here on, writes only where wbgovd's work is (Landlock): the vm and
 * bdi knobs, the state directory and device memory's. */
static void confine(struct daemon *dm, const struct daemon_opts *o)
{
	char vm[PATH_MAX], bdi[PATH_MAX], mem[PATH_MAX], *slash;
	const char *knobs[] = { vm, bdi, NULL }, *dirs[] = { o->state_dir, NULL, NULL };
	int r;

	if (path_at(vm, sizeof(vm), o->root, "/proc/sys/vm") ||
	    path_at(bdi, sizeof(bdi), o->root, "/sys/devices/virtual/bdi"))
		return;
	if (dm->memory_path[0]) {
		snprintf(mem, sizeof(mem), "%s", dm->memory_path);
		slash = strrchr(mem, '/');
		if (slash && slash != mem) {
			*slash = 0;
			dirs[1] = mem;
		}
	}
	r = sandbox_writes(knobs, dirs);
	if (r == -EOPNOTSUPP)
		log_info("no Landlock in this kernel: writes are not confined");
	else if (r)
		log_warn("Landlock: %s; writes are not confined", strerror(-r));
	else
		log_debug("Landlock ABI %d: writes confined to %s, %s, %s%s%s", sandbox_abi(), vm, bdi,
			  o->state_dir, dirs[1] ? ", " : "", dirs[1] ? dirs[1] : "");
}

int daemon_start(struct daemon *dm, const struct daemon_opts *o, const struct gov_config *cfg)
{
	int r;
	const struct gov_hooks hooks = {
		.ctx = dm, .save = hook_save, .restored = hook_restored, .decided = hook_decided,
		.gone = hook_gone, .measured = hook_measured, .recall = hook_recall,
		.save_vm = hook_save_vm, .restored_vm = hook_restored_vm, .global = hook_global,
	};

	memset(dm, 0, sizeof(*dm));
	dm->lockfd = -1;
	dm->config_path = o->config_path;
	dm->cfg = *cfg;
	dm->start_usec = daemon_now_usec();
	dm->real.root = o->root;
	if ((o->memory_path && snprintf(dm->memory_path, sizeof(dm->memory_path), "%s",
					o->memory_path) >= (int)sizeof(dm->memory_path)) ||
	    snprintf(dm->state_path, sizeof(dm->state_path), "%s/state", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->status_path, sizeof(dm->status_path), "%s/status", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->pid_path, sizeof(dm->pid_path), "%s/wbgovd.pid", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->lock_path, sizeof(dm->lock_path), "%s/wbgovd.lock", o->state_dir) >= PATH_MAX) {
		log_err("--state-dir or --memory: name too long");
		return EX_USAGE;
	}
	r = dir_of_ours(o->state_dir);
	if (r) {
		log_err("%s: %s; refusing to keep the state there", o->state_dir,
			state_dir_text(r));
		return EX_CANTCREAT;
	}
	dm->lockfd = take_lock(dm);
	if (dm->lockfd < 0)
		return dm->lockfd == -EBUSY ? EX_TEMPFAIL : EX_CANTCREAT;
	if (restore_leftovers(dm)) {
		log_err("refusing to start over knobs whose original values are unknown");
		unlink(dm->pid_path);
		close(dm->lockfd);
		dm->lockfd = -1;
		return EX_SOFTWARE;
	}
	memory_start(dm);
	{
		/* connected before Landlock; the bus socket is not a file it writes */
		enum bus_kind kind = BUS_OFF;
		if (bus_parse_kind(o->bus, &kind) == 0 && !o->bus && kind == BUS_OFF)
			log_info("no system bus (%s): not on D-Bus", BUS_SYSTEM_SOCKET);
		bus_start(&dm->bus, kind, o->bus, o->root, &dm->real);
	}
	confine(dm, o);
	gov_init(&dm->gov, &dm->cfg, &knobs_real_ops, &dm->real, &hooks);
	if (!(knobs_real_ops.features(&dm->real) & KNOBS_BDI_BYTES))
		log_warn("this kernel has no per-device strict_limit/max_bytes (Linux < 6.2): "
			 "the global dirty_bytes pair is used while a slow device holds dirty data");
	log_info("started: target %.1f s, floor %.1f MiB, ceiling %.1f MiB, %d [device] sections",
		 (double)dm->cfg.target_ms / 1000, (double)dm->cfg.floor_bytes / MIB,
		 (double)dm->cfg.ceiling_bytes / MIB, dm->cfg.nrules);
	return 0;
}

uint64_t daemon_step(struct daemon *dm, uint64_t now_usec)
{
	uint64_t delay = gov_tick(&dm->gov, now_usec);

	if (dm->gov.overflow != dm->overflow_logged) {
		dm->overflow_logged = dm->gov.overflow;
		if (dm->gov.overflow)
			log_warn("more than %d bdis: those past the first %d are left as they are",
				 GOV_MAX_DEV, GOV_MAX_DEV);
	}

	memory_flush(dm, false);
	if (dm->status_dirty) {
		status_write(dm->status_path, &dm->gov);
		dm->status_dirty = false;
	}
	return delay;
}

int daemon_reload(struct daemon *dm)
{
	struct gov_config cfg;
	char err[512];

	if (config_load(dm->config_path, strcmp(dm->config_path, CONFIG_DEFAULT_PATH) == 0, &cfg,
			err, sizeof(err))) {
		log_err("reload refused, keeping the running configuration: %s", err);
		return -1;
	}
	dm->cfg = cfg;
	gov_set_config(&dm->gov, &cfg);
	log_info("configuration reloaded: %d [device] sections", cfg.nrules);
	return 0;
}

void daemon_run(struct daemon *dm, volatile sig_atomic_t *term, volatile sig_atomic_t *hup,
		const sigset_t *mask)
{
	struct uevent_mon *mon = NULL;
	uint64_t last_scan_usec = daemon_now_usec();

	if (uevent_open(&mon) < 0) {
		log_warn("no uevents (netlink): rescanning devices every second instead");
		mon = NULL;
	}
	while (!*term) {
		uint64_t delay = daemon_step(dm, daemon_now_usec()), now = daemon_now_usec();
		uint64_t bus_delay = bus_update(&dm->bus, &dm->gov, dm->bus_changed, now);
		struct pollfd pfd[1 + 2 + BUS_MAX_JOBS];
		struct timespec ts;
		int n = 0, nbus;

		dm->bus_changed = false;
		if (bus_delay < delay)
			delay = bus_delay;
		if (mon)
			pfd[n++] = (struct pollfd){ .fd = uevent_fd(mon), .events = POLLIN };
		else if (delay > GOV_POLL_IDLE_USEC)
			delay = GOV_POLL_IDLE_USEC;
		nbus = bus_pollfds(&dm->bus, pfd + n, (int)(sizeof(pfd) / sizeof(pfd[0])) - n, now, &delay);
		ts.tv_sec = (time_t)(delay / 1000000);
		ts.tv_nsec = (long)(delay % 1000000) * 1000;
		if (ppoll(pfd, (nfds_t)(n + nbus), &ts, mask) > 0 && mon && pfd[0].revents) {
			if (uevent_drain(mon) > 0)
				gov_request_rescan(&dm->gov);
		}
		bus_dispatch(&dm->bus, pfd + n, nbus);
		if (!mon && daemon_now_usec() - last_scan_usec >= GOV_POLL_IDLE_USEC) {
			/* no uevents: look for devices every second */
			gov_request_rescan(&dm->gov);
			last_scan_usec = daemon_now_usec();
		}
		if (*hup) {
			*hup = 0;
			daemon_reload(dm);
		}
	}
	uevent_close(mon);
}

int daemon_stop(struct daemon *dm)
{
	int rc = 0;

	/* off the bus first: nothing answers for the devices from here on */
	bus_stop(&dm->bus);
	log_info("stopping: giving the knobs back");
	gov_last_look(&dm->gov, daemon_now_usec());
	if (gov_restore(&dm->gov)) {
		log_err("some knobs could not be given back; they are recorded in %s (wbgov restore)",
			dm->state_path);
		rc = EX_OSERR;
	} else if (state_restore(&knobs_real_ops, &dm->real, &dm->state, report_restore, dm) ||
		   state_save(dm->state_path, &dm->state)) {
		rc = EX_OSERR;
	}
	memory_flush(dm, true);
	unlink(dm->status_path);
	knobs_real_close(&dm->real);
	unlink(dm->pid_path);
	close(dm->lockfd);
	dm->lockfd = -1;
	return rc;
}
