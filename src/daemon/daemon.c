/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd's loop, and only that: start (the configuration parsed, then each
 * part started in its order), a step (the governor's tick, the status and
 * metrics files kept up), the wait between steps, reload, stop (every knob
 * given back), and what the service manager hears. Each part it starts is
 * a file of its own: record.c (state file, leftovers, lock), memory.c
 * (device memory), confine.c (debugfs, Landlock, capabilities), events.c
 * (the log of the governor's events), watch.c (what wakes the loop),
 * metrics.c, status.c, bus.c. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "daemon/confine.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/memory.h"
#include "daemon/record.h"
#include "daemon/status.h"
#include "daemon/watch.h"
#include "model/units.h"
#include "sys/conffile.h"
#include "sys/fsutil.h"
#include "sys/log.h"

/* A decision, or a device gone: the status file and the bus follow at
 * the end of the step; the log says it (events.c). */
static void hook_decided(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	dm->status_dirty = true;
	dm->bus_changed = true;
	events_decided(dm, d);
}

static void hook_gone(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	dm->status_dirty = true;
	dm->bus_changed = true;
	events_gone(dm, d);
}

/* What a parse of the configuration says besides an error, to the log:
 * warnings, and with -v the files read. */
static void log_note(void *ctx, enum config_note level, const char *msg)
{
	(void)ctx;
	if (level == CONFIG_WARNING)
		log_warn("%s", msg);
	else
		log_debug("%s", msg);
}

/* What settings_resolve's refusal ends wbgovd with. */
static enum daemon_end settings_end(int r, bool check)
{
	if (r == -EINVAL)
		return DAEMON_BAD_NAME;
	/* a metrics directory not there: the configuration's error for -n,
	 * which has no directory to make; at start, as the state dir's */
	return r == -EEXIST || check ? DAEMON_BAD_CONFIG : DAEMON_NO_STATE_DIR;
}

/* The configuration file and its drop-ins into `cfg`, what the parse
 * says besides an error to `fn` (a missing default file is the defaults,
 * a file named with -c must exist), and wbgovd's own settings, the
 * command line's over the file's, into `set`: at start, at reload and for
 * -n (`check`) alike. 0, or -errno with "FILE:LINE: what is wrong" (or
 * the option) in err and what it ends wbgovd with in *ret_end. */
static int load_settings(const struct daemon_opts *o, struct gov_config *cfg,
			 struct daemon_settings *set, char *err, size_t errlen, config_note_fn fn,
			 void *ctx, bool check, enum daemon_end *ret_end)
{
	static struct conffile_daemon cd; /* its texts are copied into set */
	int r = conffile_load_daemon(o->config_path, strcmp(o->config_path, CONFFILE_DEFAULT_PATH) == 0,
				   cfg, &cd, err, errlen, fn, ctx);

	if (r) {
		*ret_end = DAEMON_BAD_CONFIG;
		return r;
	}
	if ((r = settings_resolve(o, cfg, &cd, set, err, errlen)))
		*ret_end = settings_end(r, check);
	return r;
}

enum daemon_end daemon_start(struct daemon *dm, const struct daemon_opts *o)
{
	struct gov_config cfg; /* parsed once, then the governor's alone */
	char err[PATH_MAX + 256];
	enum daemon_end end;
	int r, feat;
	struct gov_hooks hooks = { .ctx = dm, .decided = hook_decided, .gone = hook_gone };
	struct daemon_settings *set = &dm->settings;

	memset(dm, 0, sizeof(*dm));
	dm->lockfd = -1;
	dm->memory_fd = -1;
	if (load_settings(o, &cfg, set, err, sizeof(err), log_note, NULL, false, &end)) {
		fprintf(stderr, "%s\n", err);
		return end;
	}
	dm->opts = o;
	dm->start_usec = daemon_now_usec();
	dm->real.root = o->root;
	/* without udev's database, labels and UUIDs mean opening the devices:
	 * only for a configuration that matches by them */
	dm->real.probe_fs = gov_config_uses(&cfg, MATCH_LABEL) || gov_config_uses(&cfg, MATCH_UUID);
	if ((o->memory_path && snprintf(dm->memory_path, sizeof(dm->memory_path), "%s",
					o->memory_path) >= (int)sizeof(dm->memory_path)) ||
	    snprintf(dm->state_path, sizeof(dm->state_path), "%s/state", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->status_path, sizeof(dm->status_path), "%s/status", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->pid_path, sizeof(dm->pid_path), "%s/wbgovd.pid", o->state_dir) >= PATH_MAX ||
	    snprintf(dm->lock_path, sizeof(dm->lock_path), "%s/wbgovd.lock", o->state_dir) >= PATH_MAX ||
	    (set->metrics && strlen(set->metrics) + strlen(FILE_TMP_SUFFIX) >= PATH_MAX)) {
		log_err("--state-dir, --memory or --metrics-file: name too long");
		return DAEMON_BAD_NAME;
	}
	if (metrics_file_start(&dm->metrics, set->metrics, set->metrics_usec, &dm->features))
		return DAEMON_NO_STATE_DIR;
	r = dir_of_ours(o->state_dir);
	if (r) {
		log_err("%s: %s; refusing to keep the state there", o->state_dir,
			state_dir_text(r));
		return DAEMON_NO_STATE_DIR;
	}
	r = record_lock(dm);
	if (r)
		return r == -EINTR ? DAEMON_STOPPED : r == -EBUSY ? DAEMON_LOCKED : DAEMON_NO_STATE_DIR;
	if (record_leftovers(dm)) {
		log_err("refusing to start over knobs whose original values are unknown");
		record_unlock(dm);
		return DAEMON_UNKNOWN_ORIGINALS;
	}
	record_sweep(dm);
	memory_start(dm);
	confine_own_debugfs(dm, o);
	confine_probe(dm, o);
	confine_labels(dm);
	{
		/* connected before Landlock; the bus socket is not a file it writes */
		enum bus_kind kind = BUS_OFF;
		if (bus_parse_kind(set->bus, &kind) == 0 && !set->bus && kind == BUS_OFF) {
			log_info("no system bus (%s): not on D-Bus", BUS_SYSTEM_SOCKET);
			feature_set(&dm->features, FEATURE_BUS, FEATURE_OFF, NULL,
				    "no system bus (%s)", BUS_SYSTEM_SOCKET);
		} else if (kind == BUS_OFF) {
			feature_set(&dm->features, FEATURE_BUS, FEATURE_OFF, NULL,
				    "not asked for (bus = none, or --bus none)");
		}
		bus_start(&dm->bus, kind, set->bus, o->root, &dm->real, &dm->features);
	}
	confine_writes(dm, o);
	record_hooks(&hooks);
	memory_hooks(&hooks);
	events_hooks(&hooks);
	gov_init(&dm->gov, &cfg, &knobs_real_ops, &dm->real, &hooks);
	feat = knobs_real_ops.features(&dm->real);
	if (!(feat & KNOBS_BDI_BYTES))
		log_warn("this kernel has no per-device strict_limit/max_bytes (Linux < 6.2): "
			 "the global dirty_bytes pair is used while a slow device holds dirty data");
	else if (feat & KNOBS_BDP_NO_START)
		log_warn("this kernel (7.0-rc1 to rc6) starts no writeback for a writer held at a "
			 "device's strict_limit until the flusher's periodic wakeup (put back by "
			 "cece9dc61daa in 7.0-rc7): a copy to a capped device can take several times "
			 "the device's time (wbsim, kernel = 7.0-rc1); a released kernel has the fix");
	confine_caps(dm);
	events_sysctls(dm, feat & KNOBS_BDI_BYTES);
	log_info("started: target %.1f s, floor %.1f MiB, ceiling %.1f MiB, %d [device] sections",
		 (double)dm->gov.cfg.target_ms / 1000, (double)dm->gov.cfg.floor_bytes / MIB,
		 (double)dm->gov.cfg.ceiling_bytes / MIB, dm->gov.cfg.nrules);
	return DAEMON_OK;
}

uint64_t daemon_step(struct daemon *dm, uint64_t now_usec)
{
	uint64_t delay = gov_tick(&dm->gov, now_usec);

	if (dm->gov.nomem != dm->nomem_logged) {
		dm->nomem_logged = dm->gov.nomem;
		if (dm->gov.nomem)
			log_err("out of memory for more devices: %d bdis governed, the others left as "
				"they are (looked for again at each rescan)", dm->gov.ndev);
		else
			log_notice("memory for every bdi again: %d governed", dm->gov.ndev);
	}

	memory_flush(dm, false);
	if (dm->features.changed) {
		/* the bus came up, the metrics could not be written: shown */
		dm->features.changed = false;
		dm->status_dirty = true;
	}
	if (dm->status_dirty) {
		status_write(dm->status_path, &dm->gov, &dm->features);
		dm->status_dirty = false;
	}
	return metrics_file_step(&dm->metrics, &dm->gov, &dm->real, now_usec, delay);
}

int daemon_reload(struct daemon *dm)
{
	struct gov_config cfg;
	static struct daemon_settings now;
	char err[PATH_MAX + 256];
	enum daemon_end end;
	int r = load_settings(dm->opts, &cfg, &now, err, sizeof(err), log_note, NULL, false, &end);

	if (r) {
		log_err("reload refused, keeping the running configuration: %s", err);
		return r;
	}
	{
		uint64_t was_usec = dm->metrics.interval_usec;
		settings_reload(&dm->settings, &dm->metrics.interval_usec, &now);
		/* the next write was due by the old interval (up to an hour
		 * away): written now, and every new interval from here */
		if (dm->metrics.interval_usec != was_usec)
			dm->metrics.next_usec = 0;
	}
	dm->real.probe_fs = gov_config_uses(&cfg, MATCH_LABEL) || gov_config_uses(&cfg, MATCH_UUID);
	confine_labels(dm);
	gov_set_config(&dm->gov, &cfg);
	gov_request_rescan(&dm->gov); /* labels may be wanted now */
	log_info("configuration reloaded: %d [device] sections", cfg.nrules);
	return 0;
}

/* What the service manager hears (sd_notify(3); nothing without
 * NOTIFY_SOCKET): READY=1 once every device found at start is decided,
 * STATUS= when the count of devices governed or capped changes. */
static void notify_status(struct daemon *dm, bool ready)
{
	int governed = 0, capped = 0;

	for (int i = 0; i < dm->gov.ndev; i++) {
		const struct gov_dev *d = &dm->gov.dev[i];
		if (!d->decided || !d->dec.govern)
			continue;
		governed++;
		capped += d->dec.strict && !d->err && !d->above_global;
	}
	if (!ready && governed == dm->notified_governed && capped == dm->notified_capped)
		return;
	dm->notified_governed = governed;
	dm->notified_capped = capped;
	sd_notifyf(0, "%sSTATUS=governing %d device%s (%d capped)", ready ? "READY=1\n" : "",
		   governed, governed == 1 ? "" : "s", capped);
}

/* One wait, of the loop or of the stop: pfd[0..n) are the caller's (room
 * for `max`), then device memory's save and the bus's descriptors; ppoll
 * for at most `delay_usec` (the bus may want less) with `mask` (NULL: the
 * signal mask as it is); then what came for the save (at stop, what was
 * measured meanwhile saved after it) and for the bus is handled, and
 * ppoll's answer returned (errno as it left it). */
static int wait_once(struct daemon *dm, struct pollfd *pfd, int n, int max, uint64_t now_usec,
		     uint64_t delay_usec, const sigset_t *mask)
{
	struct timespec ts;
	int nbus, usave = -1, r, e;

	if (dm->memory_pid) {
		usave = n;
		pfd[n++] = (struct pollfd){ .fd = dm->memory_fd, .events = POLLIN };
	}
	nbus = bus_pollfds(&dm->bus, pfd + n, max - n, now_usec, &delay_usec);
	ts.tv_sec = (time_t)(delay_usec / 1000000);
	ts.tv_nsec = (long)(delay_usec % 1000000) * 1000;
	r = ppoll(pfd, (nfds_t)(n + nbus), &ts, mask);
	e = errno;
	if (r > 0 && usave >= 0 && pfd[usave].revents) {
		memory_saved(dm);
		if (dm->stopping)
			memory_flush(dm, true);
	}
	bus_dispatch(&dm->bus, pfd + n, nbus);
	errno = e;
	return r;
}

/* The signals wbgovd takes in its loop (blocked but in ppoll). */
static sigset_t loop_signals;
/* When the first SIGTERM (or SIGINT) came, CLOCK_MONOTONIC (usec; 0: none):
 * the stop says how long its way out took from there (tests check what
 * the daemon bounds by its own clock, which a busy machine does not
 * stretch as it does a test's wall time). */
static uint64_t term_usec;

/* Those pending, taken now. ppoll delivers a pending signal only when it
 * waits: when a descriptor is ready it returns with the signal still
 * blocked and pending (the kernel puts the old mask back first), and with
 * a flood of calls on the bus one always was (SIGTERM waited 6.6 s, until
 * the flood ended). */
static void take_signals(volatile sig_atomic_t *term, volatile sig_atomic_t *hup)
{
	const struct timespec now = { 0, 0 };
	int sig;

	while ((sig = sigtimedwait(&loop_signals, NULL, &now)) > 0) {
		if (sig == SIGHUP) {
			*hup = 1;
		} else {
			*term = 1;
			if (!term_usec)
				term_usec = daemon_now_usec();
		}
	}
}

void daemon_run(struct daemon *dm, volatile sig_atomic_t *term, volatile sig_atomic_t *hup,
		const sigset_t *mask)
{
	struct watch w;
	bool ready = false;

	watch_open(&w, dm);
	/* every part has said what it has: a line each, now, and the status
	 * file and the bus show the same */
	features_log(&dm->features);
	dm->status_dirty = true;
	while (!*term) {
		uint64_t delay = daemon_step(dm, daemon_now_usec()), now = daemon_now_usec();
		uint64_t bus_delay = bus_update(&dm->bus, &dm->gov, dm->bus_changed, now);
		struct pollfd pfd[WATCH_MAX_FDS + 1 + 1 + BUS_MAX_JOBS];
		int n, r;

		/* the first step scanned and decided every device there; the
		 * bus is not waited for */
		notify_status(dm, !ready);
		ready = true;
		dm->bus_changed = false;
		if (bus_delay < delay)
			delay = bus_delay;
		n = watch_pollfds(&w, dm, pfd, &delay);
		r = wait_once(dm, pfd, n, (int)(sizeof(pfd) / sizeof(pfd[0])), now, delay, mask);
		if (r > 0)
			take_signals(term, hup);
		watch_dispatch(&w, dm, pfd, r > 0);
		if (*hup) {
			*hup = 0;
			sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
				   (unsigned long long)daemon_now_usec());
			daemon_reload(dm);
			/* READY=1 again once the next step has decided anew */
			ready = false;
		}
	}
	watch_close(&w);
}

/* At stop, the children (a Sync that SIGTERM ends, device memory's last
 * save) until `until_usec`; the bus is served meanwhile, so that the
 * answer to a Sync leaves as its child ends. Signals stay blocked: a
 * second SIGTERM changes nothing. */
static void stop_wait(struct daemon *dm, uint64_t until_usec)
{
	for (;;) {
		struct pollfd pfd[1 + 2 + BUS_MAX_JOBS];
		uint64_t now = daemon_now_usec();

		if ((!dm->memory_pid && !bus_jobs(&dm->bus)) || now >= until_usec)
			return;
		if (wait_once(dm, pfd, 0, (int)(sizeof(pfd) / sizeof(pfd[0])), now, until_usec - now,
			      NULL) < 0 && errno != EINTR)
			return;
	}
}

enum daemon_end daemon_stop(struct daemon *dm)
{
	uint64_t start_usec = daemon_now_usec();
	enum daemon_end rc = DAEMON_OK;

	sd_notify(0, "STOPPING=1\nSTATUS=stopping: giving the knobs back");
	/* no new Sync, and those running are ended: they are waited for
	 * below, alongside the knobs */
	bus_stop_begin(&dm->bus);
	dm->stopping = true;
	log_info("stopping: giving the knobs back");
	gov_last_look(&dm->gov, daemon_now_usec());
	/* the governor's devices, then whatever is still recorded (one of
	 * them that could not be given back, tried again; a previous run's
	 * leftovers held since the start; the vm pair), each tried whatever
	 * the others did; the file keeps what is left */
	if (gov_restore(&dm->gov))
		rc = DAEMON_KNOBS_LEFT;
	if (record_give_back(dm))
		rc = DAEMON_KNOBS_LEFT;
	if (rc)
		log_err("some knobs could not be given back; they are recorded in %s (wbgov restore)",
			dm->state_path);
	memory_flush(dm, true);
	stop_wait(dm, start_usec + STOP_WAIT_USEC);
	if (dm->memory_pid)
		log_warn("%s: device memory still being written by pid %d (a busy disk?): left to "
			 "finish%s", dm->memory_path, (int)dm->memory_pid, dm->memory.dirty ?
			 "; what was measured since it began is not saved" : "");
	/* off the bus: a Sync still running is answered, what is queued
	 * gets a moment to leave */
	bus_stop(&dm->bus, daemon_now_usec() + BUS_FLUSH_USEC);
	if (dm->memory_fd >= 0)
		close(dm->memory_fd);
	unlink(dm->status_path);
	/* the file stays, saying the daemon is down: a stopped wbgovd reads
	 * as stopped, not as a file that went missing */
	metrics_file_publish(&dm->metrics, &dm->gov, &dm->real, false);
	metrics_file_close(&dm->metrics);
	knobs_real_close(&dm->real);
	{
		uint64_t from = term_usec ? term_usec : start_usec, now = daemon_now_usec();
		log_info("stopped: %llu ms from %s to every knob given back", (unsigned long long)
			 ((now > from ? now - from : 0) / 1000), term_usec ? "the signal" : "the stop");
	}
	record_unlock(dm);
	gov_free(&dm->gov);
	events_free(dm);
	return rc;
}

static volatile sig_atomic_t got_term, got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP) {
		got_hup = 1;
	} else {
		got_term = 1;
		/* clock_gettime is async-signal-safe */
		if (!term_usec)
			term_usec = daemon_now_usec();
	}
}

/* What -n says besides its verdict, on the terminal: warnings always,
 * the files read and ignored with -v. */
struct check_notes {
	bool verbose;
	int warnings;
};

static void check_note(void *ctx, enum config_note level, const char *msg)
{
	struct check_notes *n = ctx;

	if (level == CONFIG_WARNING)
		n->warnings++;
	if (level == CONFIG_WARNING || n->verbose)
		fprintf(stderr, "%s\n", msg);
}

/* -n: the configuration parsed, and the verdict said. */
static enum daemon_end check_config(const struct daemon_opts *o)
{
	struct check_notes n = { .verbose = o->verbose };
	struct gov_config cfg;
	static struct daemon_settings set;
	char err[PATH_MAX + 256];
	enum daemon_end end;

	if (load_settings(o, &cfg, &set, err, sizeof(err), check_note, &n, true, &end)) {
		fprintf(stderr, "%s\n", err);
		return end;
	}
	if (o->verbose)
		fprintf(stderr, "metrics file: %s; D-Bus: %s\n",
			set.metrics_from[0] ? set.metrics_from : "none",
			set.bus_from[0] ? set.bus_from : "the system bus where its socket is");
	/* a warning is no error: such a section matches nothing */
	if (n.warnings)
		printf("configuration OK, %d warning%s\n", n.warnings, n.warnings == 1 ? "" : "s");
	else
		printf("configuration OK\n");
	return DAEMON_OK;
}

/* The signal mask before daemon_signals: the loop's ppoll waits with it. */
static sigset_t orig_mask;

void daemon_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	/* from here on, TERM/INT/HUP only interrupt ppoll(): a TERM during
	 * start-up must not kill us between two knob writes */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	loop_signals = block;
	sigprocmask(SIG_BLOCK, &block, &orig_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a log stream whose reader went away is EPIPE, not a death with
	 * every knob left set */
	signal(SIGPIPE, SIG_IGN);
}

enum daemon_end daemon_main(const struct daemon_opts *o)
{
	static struct daemon dm; /* large: not on the stack */
	enum daemon_end how;

	if (o->verbose)
		log_set_level(LOG_DEBUG_);
	if (o->check)
		return check_config(o);
	how = daemon_start(&dm, o);
	if (how != DAEMON_OK)
		return how;
	/* a poll that waits for a CPU behind a busy writer delays the release
	 * of a fast device (measured: 10 ms polls came 19-118 ms apart beside
	 * dd on 2 cores); the polls are short. Without CAP_SYS_NICE the unit's
	 * Nice= does it. */
	if (setpriority(PRIO_PROCESS, 0, -10) < 0 && errno != EPERM && errno != EACCES)
		log_warn("setpriority: %s", strerror(errno));
	daemon_run(&dm, &got_term, &got_hup, &orig_mask);
	return daemon_stop(&dm);
}
