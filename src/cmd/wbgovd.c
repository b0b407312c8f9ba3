/* wbgovd: gives every block device a dirty-cache limit worth a few seconds
 * of its measured write speed, and gives every knob back on exit. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "sys/knobs_real.h"
#include "policy/governor.h"
#include "daemon/config.h"
#include "sys/log.h"
#include "sys/state.h"
#include "daemon/memory.h"
#include "daemon/status.h"
#include "sys/uevent.h"

#define VERSION "0.1"

static volatile sig_atomic_t got_term, got_hup;

/* Device memory goes to disk at most this often, and at exit. */
#define MEMORY_SAVE_USEC 10000000ULL

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else
		got_term = 1;
}

struct daemon {
	const char *config_path;
	char state_path[PATH_MAX];
	char status_path[PATH_MAX];
	char pid_path[PATH_MAX];
	struct knobs_real real;
	struct state state;
	struct governor gov;
	/* device memory: "" when off */
	char memory_path[PATH_MAX];
	struct memory memory;
	uint64_t memory_saved_usec;
	bool status_dirty;
	uint64_t start_usec;
	/* what was last logged per bdi: a decision is logged when it moves
	 * materially (gov_decision_moved), not at every re-measurement */
	struct {
		char bdi[KNOBS_NAME_MAX];
		struct gov_decision dec;
		bool above_global;
		int err;
	} logged[GOV_MAX_DEV];
	int nlogged;
};

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

static void usage(FILE *f)
{
	fputs("Usage: wbgovd [-c FILE] [--root DIR] [--state-dir DIR] [--memory FILE|--no-memory] [-v]\n"
	      "       wbgovd -n [-c FILE]\n"
	      "       wbgovd --help | --version\n"
	      "\n"
	      "Gives every block device a dirty page cache limit worth a second (by default)\n"
	      "of its measured write speed (strict_limit + max_bytes), every knob back on exit.\n"
	      "\n"
	      "  -c, --config FILE   configuration (default " CONFIG_DEFAULT_PATH ")\n"
	      "  -n, --check         check the configuration and exit\n"
	      "      --root DIR      find /proc and /sys under DIR (tests)\n"
	      "      --state-dir DIR where originals and status go (default /run/wbgov)\n"
	      "      --memory FILE   device memory: bandwidth measured per device, kept\n"
	      "                      across runs (default " MEMORY_DEFAULT_PATH ")\n"
	      "      --no-memory     measure every device anew, keep nothing\n"
	      "  -v, --verbose       log measurements too\n"
	      "\n"
	      "Signals: TERM/INT restore and exit, HUP reloads the configuration.\n"
	      "Exit status: 0 ok, 64 usage, 70 knobs left by a previous run could not be given\n"
	      "back, 71 a knob could not be restored, 73 state dir, 75 already running,\n"
	      "78 configuration. See wbgovd(8).\n",
	      f);
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
	char cap[32], bw[48], who[320];
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
		  (double)(now_usec() - dm->start_usec) / 1e6, bw, cap);
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

	snprintf(who, sizeof(who), "%s%s%s (%s%s%s)", d->info.disk,
		 strcmp(d->info.disk, d->info.bdi) ? " bdi " : "",
		 strcmp(d->info.disk, d->info.bdi) ? d->info.bdi : "",
		 d->info.model[0] ? d->info.model : "unknown model", d->info.bus[0] ? ", " : "",
		 d->info.bus);
	fmt_bytes(cap, sizeof(cap), d->dec.max_bytes);
	if (d->err)
		log_warn("%s: %s -> max_bytes %s refused: %s %s (the previous value stays)", who, bw,
			 cap, bdi_attr_names[d->err_attr], strerror(-d->err));
	else if (d->above_global)
		log_info("%s: %s -> no cap (%s)", who, bw, gov_why_text[WHY_ABOVE_GLOBAL]);
	else if (!d->dec.govern)
		log_info("%s: left alone (%s)", who, gov_why_text[d->dec.why]);
	else if (!d->dec.strict)
		log_info("%s: %s -> no cap (%s)", who, bw, gov_why_text[d->dec.why]);
	else
		log_info("%s: %s -> max_bytes %s, strict (%s)", who, bw, cap, gov_why_text[d->dec.why]);
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
			  d->info.bdi, (double)(now_usec() - dm->start_usec) / 1e6,
			  (double)m->last_bps / 1e6, m->last_backlog ? "with" : "without",
			  m->last_empty, m->last_polls, m->last_queued_ms, bw);
	else /* judged by its stat alone (no debugfs) */
		log_debug("%s: +%.3f s: window %.1f MB/s (%s backlog: busy %u %% of it, requests "
			  "in flight at %s poll) -> %s",
			  d->info.bdi, (double)(now_usec() - dm->start_usec) / 1e6,
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
	    (!now && now_usec() - dm->memory_saved_usec < MEMORY_SAVE_USEC))
		return;
	dm->memory_saved_usec = now_usec();
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
			dm->state_path, strerror(-r));
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
	char buf[32];
	int fd = open(dm->pid_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
		buf[strcspn(buf, "\n")] = 0;
		log_err("already running (pid %s, lock %s)", buf[0] ? buf : "?", dm->pid_path);
		close(fd);
		return -EBUSY;
	}
	if (ftruncate(fd, 0) == 0) {
		int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		if (write(fd, buf, (size_t)n) != n)
			log_warn("%s: could not write the pid", dm->pid_path);
	}
	return fd; /* kept open: the lock lives as long as the process */
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'R' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "memory", required_argument, NULL, 'M' },
		{ "no-memory", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static struct daemon dm; /* large: not on the stack */
	const char *state_dir = "/run/wbgov";
	bool check = false, no_memory = false;
	struct gov_config cfg;
	struct gov_hooks hooks = { .ctx = &dm, .save = hook_save, .restored = hook_restored,
				   .decided = hook_decided, .gone = hook_gone, .measured = hook_measured,
				   .recall = hook_recall, .save_vm = hook_save_vm,
				   .restored_vm = hook_restored_vm, .global = hook_global };
	struct uevent_mon *mon = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	char err[512];
	int c, lockfd, rc = 0;

	/* from the first instruction, TERM/INT/HUP only interrupt ppoll(): a
	 * TERM during start-up must not kill us between two knob writes */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	dm.config_path = CONFIG_DEFAULT_PATH;
	snprintf(dm.memory_path, sizeof(dm.memory_path), "%s", MEMORY_DEFAULT_PATH);
	dm.start_usec = now_usec();
	dm.real.root = "/";
	while ((c = getopt_long(argc, argv, "c:nvhV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': dm.config_path = optarg; break;
		case 'n': check = true; break;
		case 'R': dm.real.root = optarg; break;
		case 'S': state_dir = optarg; break;
		case 'v': log_set_level(LOG_DEBUG_); break;
		case 'M':
			if (!*optarg || snprintf(dm.memory_path, sizeof(dm.memory_path), "%s", optarg) >=
						(int)sizeof(dm.memory_path)) {
				fprintf(stderr, "wbgovd: --memory: want a file name\n");
				return EX_USAGE;
			}
			break;
		case 'N': no_memory = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("wbgovd %s\n", VERSION); return 0;
		default: return EX_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wbgovd: unexpected argument: %s\n", argv[optind]);
		return EX_USAGE;
	}
	/* -n: a missing default file is fine (defaults), a named one must exist */
	if (config_load(dm.config_path, strcmp(dm.config_path, CONFIG_DEFAULT_PATH) == 0, &cfg, err,
			sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return EX_CONFIG;
	}
	if (check) {
		printf("configuration OK\n");
		return 0;
	}
	if (snprintf(dm.state_path, sizeof(dm.state_path), "%s/state", state_dir) >= PATH_MAX ||
	    snprintf(dm.status_path, sizeof(dm.status_path), "%s/status", state_dir) >= PATH_MAX ||
	    snprintf(dm.pid_path, sizeof(dm.pid_path), "%s/wbgovd.pid", state_dir) >= PATH_MAX) {
		fprintf(stderr, "wbgovd: --state-dir too long\n");
		return EX_USAGE;
	}
	if (mkdir(state_dir, 0755) < 0 && errno != EEXIST) {
		log_err("%s: %s", state_dir, strerror(errno));
		return EX_CANTCREAT;
	}
	lockfd = take_lock(&dm);
	if (lockfd < 0)
		return lockfd == -EBUSY ? EX_TEMPFAIL : EX_CANTCREAT;
	if (restore_leftovers(&dm)) {
		log_err("refusing to start over knobs whose original values are unknown");
		unlink(dm.pid_path);
		return EX_SOFTWARE;
	}

	/* a poll that waits for a CPU behind a busy writer delays the release
	 * of a fast device (measured: 10 ms polls came 19-118 ms apart beside
	 * dd on 2 cores); the polls are short. Without CAP_SYS_NICE the unit's
	 * Nice= does it. */
	if (setpriority(PRIO_PROCESS, 0, -10) < 0 && errno != EPERM && errno != EACCES)
		log_warn("setpriority: %s", strerror(errno));

	if (uevent_open(&mon) < 0) {
		log_warn("no uevents (netlink): rescanning devices every second instead");
		mon = NULL;
	}
	if (no_memory)
		dm.memory_path[0] = 0;
	memory_start(&dm);
	gov_init(&dm.gov, &cfg, &knobs_real_ops, &dm.real, &hooks);
	if (!(knobs_real_ops.features(&dm.real) & KNOBS_BDI_BYTES))
		log_warn("this kernel has no per-device strict_limit/max_bytes (Linux < 6.2): "
			 "the global dirty_bytes pair is used while a slow device holds dirty data");
	log_info("started: target %.1f s, floor %.1f MiB, ceiling %.1f MiB, %d [device] sections",
		 (double)cfg.target_ms / 1000, (double)cfg.floor_bytes / MIB,
		 (double)cfg.ceiling_bytes / MIB, cfg.nrules);

	uint64_t last_scan_usec = now_usec();

	while (!got_term) {
		uint64_t delay = gov_tick(&dm.gov, now_usec());
		struct pollfd pfd = { .fd = mon ? uevent_fd(mon) : -1, .events = POLLIN };
		struct timespec ts;

		memory_flush(&dm, false);
		if (dm.status_dirty) {
			status_write(dm.status_path, &dm.gov);
			dm.status_dirty = false;
		}
		if (!mon && delay > GOV_POLL_IDLE_USEC)
			delay = GOV_POLL_IDLE_USEC;
		ts.tv_sec = (time_t)(delay / 1000000);
		ts.tv_nsec = (long)(delay % 1000000) * 1000;
		if (ppoll(mon ? &pfd : NULL, mon ? 1 : 0, &ts, &orig) > 0 && mon) {
			if (uevent_drain(mon) > 0)
				gov_request_rescan(&dm.gov);
		}
		if (!mon && now_usec() - last_scan_usec >= GOV_POLL_IDLE_USEC) {
			/* no uevents: look for devices every second */
			gov_request_rescan(&dm.gov);
			last_scan_usec = now_usec();
		}
		if (got_hup) {
			got_hup = 0;
			/* a file named with -c that has gone is an error, as
			 * at start: not a reason to fall back to the defaults */
			if (config_load(dm.config_path, strcmp(dm.config_path, CONFIG_DEFAULT_PATH) == 0,
					&cfg, err, sizeof(err)))
				log_err("reload refused, keeping the running configuration: %s", err);
			else {
				gov_set_config(&dm.gov, &cfg);
				log_info("configuration reloaded: %d [device] sections", cfg.nrules);
			}
		}
	}
	log_info("stopping: giving the knobs back");
	gov_last_look(&dm.gov, now_usec());
	if (gov_restore(&dm.gov)) {
		log_err("some knobs could not be given back; they are recorded in %s (wbgov restore)",
			dm.state_path);
		rc = EX_OSERR;
	} else if (state_restore(&knobs_real_ops, &dm.real, &dm.state, report_restore, &dm) ||
		   state_save(dm.state_path, &dm.state)) {
		rc = EX_OSERR;
	}
	memory_flush(&dm, true);
	unlink(dm.status_path);
	uevent_close(mon);
	knobs_real_close(&dm.real);
	unlink(dm.pid_path);
	close(lockfd);
	return rc;
}
