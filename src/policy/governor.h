/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The governor: every bdi gets a dirty-cache limit worth `target` seconds of
 * its measured write bandwidth, through whatever knobs the kernel offers,
 * and every knob it changed goes back on restore. The same code runs against
 * the real kernel (wbgovd) and the simulated one (wbsim's wbgov policy).
 * No I/O of its own: everything goes through the knobs ops table; events
 * reach the caller through hooks. */
#ifndef WBGOV_POLICY_GOVERNOR_H
#define WBGOV_POLICY_GOVERNOR_H

#include "knobs/knobs.h"
#include "policy/bwmeter.h"
#include "policy/decide.h"

/* Polling. A device still held at a start cap while it completes more than
 * the cap per target (a fast device being written in bulk) is polled every
 * 10 ms until measured: each 10 ms at 4 MiB costs a 1 GB/s writer about
 * 6 ms. While data waits (a speed changes, an SLC cache runs out) every
 * 100 ms; when the system is clean every second, or, while a device has
 * never been measured, a glance at /proc/vmstat every 50 ms (21 us) that
 * turns into a full poll as soon as anything is being dirtied: under a
 * small cap a fast device drains at once, so Dirty + Writeback stay small
 * while its writer is throttled; nr_dirtied grows. */
#define GOV_POLL_RAMP_USEC 10000ULL
#define GOV_POLL_BUSY_USEC 100000ULL
#define GOV_POLL_WATCH_USEC 50000ULL
/* While data waits and a device is unknown, glances come every 20 ms
 * (21 us each): a bulk writer to it is seen within 20 ms. */
#define GOV_GLANCE_BUSY_USEC 20000ULL
/* Every 50 ms for a minute after a device appears (or the daemon starts):
 * a new device is written soon after it comes, if at all. After that,
 * every 300 ms: in a VM a wakeup costs 60 us of CPU and one with a read of
 * /proc/vmstat 104 us, and 20 a second kept an idle machine with a
 * never-written device at 0.37 % of a core (5 a second: 0.067 %). A fast
 * device first written then pays up to 300 ms at its start cap instead of
 * 50 (about 370 MB/s under 4 MiB on 6.18). */
#define GOV_WATCH_FRESH_USEC 60000000ULL
#define GOV_POLL_WATCH_LATE_USEC 300000ULL
#define GOV_POLL_IDLE_USEC 1000000ULL
/* Past that minute, with nothing dirtied since the last full poll and
 * nothing waiting, the glances are the watch: a full poll (a stat read per
 * device) waits this long, or for the glance that sees a writer. */
#define GOV_POLL_QUIET_USEC 5000000ULL
/* Dirtying at this pace (nr_dirtied) while a device is not yet known: poll
 * at the ramp pace, whatever device it is for. A stick at its cap dirties
 * at its own speed; a bulk writer to a fast device far faster. */
#define GOV_BULK_BPS (32ULL * 1000 * 1000)
/* What a glance must see dirtied for a full poll. */
#define GOV_WATCH_BYTES (256ULL * 1024)

/* Write throttles (knobs_limit) are read at every rescan and, while data
 * waits, at most this often: one set or changed while wbgovd runs holds
 * within a second of a copy's start. Not while the system is clean: on a
 * systemd machine with the io controller handed down it is a walk of the
 * cgroup tree. */
#define GOV_LIMITS_USEC 1000000ULL

struct gov_orig {
	uint64_t strict_limit;
	uint64_t max_ratio_fine;
	uint64_t min_ratio_fine;
};

enum gov_err_op { GOV_ERR_WRITE, GOV_ERR_READ, GOV_ERR_RECORD };

struct gov_dev {
	struct knobs_dev info;
	struct bwmeter meter;
	bool have_counters;    /* the kernel tells this bdi's writeback (debugfs) */
	struct knobs_bdi_counters counters; /* ... as read at the last poll */
	struct gov_settings set; /* what applies to it (gov_resolve), at the last poll */
	struct gov_decision dec; /* the decision applied */
	bool decided;          /* dec holds a decision */
	/* what the last poll's decision, applied or not, made of its figure:
	 * hooks.measured records it */
	enum gov_bw_class bw_class;
	uint64_t decisions;    /* new decisions applied (hooks.decided), failed ones too */
	unsigned ramp_polls;   /* polls in a row outrunning its cap, unknown */
	uint64_t boost_bytes;  /* its start cap, doubled while it outran it */
	bool saved;            /* orig holds what we found */
	bool changed;          /* we wrote a knob of this bdi */
	struct gov_orig orig;
	uint64_t max_bytes;    /* last read back */
	uint64_t drift_usec;   /* when max_bytes was last read for drift */
	bool above_global;     /* the kernel refused the cap: above the global threshold */
	bool holds_dirty;      /* under a cap that calls for a global knob (before 6.2 the
				  global pair, from 6.2 the background threshold), it
				  holds dirty data now */
	uint64_t dirty_usec;   /* before 6.2: when it was last seen holding dirty
				  data; 0 never */
	/* pre-6.2 route, for a device whose own figures the kernel does not
	 * tell: when a write to its file systems woke the caller
	 * (gov_written), and when its disk was last seen writing (its
	 * written sectors moved); 0 never */
	uint64_t written_usec, active_usec;
	uint64_t io_errors;    /* failed commands counted at the last poll */
	bool have_io_errors;   /* ... and the device counts them */
	uint64_t io_errors_unsaid, io_errors_said_usec; /* hooks.io_errors */
	uint64_t failed_usec;  /* when it last failed a command; 0 never */
	bool failed_dirty;     /* before 6.2: it failed a command and holds dirty
				  data (global_step): failing until it holds none */
	/* A cgroup's write throttle on its disk bounds its speed: without
	 * debugfs a throttled disk's backlog waits above its queue, where its
	 * stat does not count it, and the limit is all that tells its pace.
	 * Believed until a window goes faster than it allows by half (some
	 * writer is not held by it: a throttle in a cgroup v2 that not every
	 * writer is in), and from the next limit read anew. */
	uint64_t limit_bps;    /* 0: none */
	unsigned limit_since;  /* windows from meter.nmeasure this on judge it */
	bool limit_beaten;
	int err;               /* last knob error, 0 if none */
	enum bdi_attr err_attr;
	enum gov_err_op err_op; /* ... what failed: reading it, writing it, or
				   recording the originals before a change */
};

struct gov_hooks {
	void *ctx;
	/* Before the first change of a bdi: persist its originals. Non-zero
	 * means "not safe to change" and the bdi is left alone. */
	int (*save)(void *ctx, const struct gov_dev *d);
	/* After a restore of a bdi: its record may go. */
	void (*restored)(void *ctx, const struct gov_dev *d);
	/* A new decision was applied (or failed: d->err). */
	void (*decided)(void *ctx, const struct gov_dev *d);
	/* A new bdi, before anything is decided or changed for it. */
	void (*found)(void *ctx, const struct gov_dev *d);
	/* A bdi disappeared. */
	void (*gone)(void *ctx, const struct gov_dev *d);
	/* A new bdi: a bandwidth remembered for this device (0: none), and
	 * whether it was measured with a backlog (else a lower bound). */
	uint64_t (*recall)(void *ctx, const struct knobs_dev *info, bool *ret_known);
	/* A measurement window closed (d->meter.last_bps, .last_backlog); the
	 * estimate may have moved, and the decision made since says what the
	 * figure is worth (d->bw_class). */
	void (*measured)(void *ctx, const struct gov_dev *d);
	/* Linux < 6.2: before the global pair is first changed, persist the six
	 * vm.dirty_* values found (non-zero: leave them alone); after they are
	 * given back, the record may go. */
	int (*save_vm)(void *ctx, const uint64_t vm[VM_KNOB_COUNT]);
	void (*restored_vm)(void *ctx);
	/* The global pair was applied (cap > 0) or given back (0). */
	void (*global)(void *ctx, uint64_t cap, int err);
	/* Linux 6.2+: the global background threshold was lowered (`lowered`:
	 * `knob` from `from` to `to`, or the write failed: err) or given back
	 * (!lowered: every vm.dirty_* value as found). */
	void (*background)(void *ctx, bool lowered, enum vm_knob knob, uint64_t from, uint64_t to,
			   int err);
	/* The device failed `n` more commands since it was last said (at most
	 * every GOV_IO_ERRORS_USEC; before 6.2 it has no cap meanwhile:
	 * WHY_FAILING). */
	void (*io_errors)(void *ctx, const struct gov_dev *d, uint64_t n);
	/* Its write throttle came, changed or went (d->limit_bps), or a
	 * window beat it (d->limit_beaten). */
	void (*limited)(void *ctx, const struct gov_dev *d);
};

/* Failed commands of a device are said at most this often; and before 6.2
 * it has no cap until this long after its last, and while it holds dirty
 * data since. */
#define GOV_IO_ERRORS_USEC 10000000ULL
#define GOV_FAILING_USEC 30000000ULL

/* How often an idle device's cap is read back for drift (the kernel
 * recomputes it from the global threshold of the moment); a device being
 * written is read at every poll. */
#define GOV_DRIFT_IDLE_USEC 10000000ULL

/* Devices are looked for again this often even with uevents, which can be
 * lost (a netlink buffer that overflowed, a udevd restarting): one that
 * came unannounced is governed within a minute. */
#define GOV_RESCAN_USEC 60000000ULL

struct governor {
	struct gov_config cfg;
	const struct knobs_ops *ops;
	void *kctx;
	struct gov_hooks hooks;
	int features;
	/* as many as the machine has bdis (knobs/room.h) */
	struct gov_dev *dev;   /* ndev of them, room for dev_room */
	int ndev, dev_room;
	struct knobs_dev *scan; /* scratch for rescans, room for scan_room */
	int scan_room;
	struct knobs_limit *limits; /* scratch for write throttles, room for limit_room */
	int limit_room;
	bool limits_read;
	uint64_t limits_usec;  /* when they were last read */
	bool nomem;            /* the last scan found bdis there was no memory
				  for: those are left alone */
	bool want_rescan;
	bool want_poll;        /* a full poll at the next tick, not a glance */
	uint64_t pending_bytes;
	/* Linux < 6.2: dirty_background_bytes/dirty_bytes while a slow device
	 * holds dirty data */
	bool vm_saved;
	uint64_t vm_orig[VM_KNOB_COUNT];
	uint64_t vm_cap;         /* the dirty_bytes applied, 0 = not applied */
	/* Linux 6.2+: the background threshold gov_background gave, while a
	 * device under a strict cap below the ceiling holds dirty data */
	bool vm_bg;              /* lowered (vm_orig holds what was found) */
	bool vm_bg_settled;      /* looked at in this busy spell (found low enough, or
				    the change failed): not again until quiet */
	uint64_t vm_quiet_since; /* usec; 0 = a slow device holds data */
	uint64_t last_rescan_usec;
	/* the last full poll: a glance compares with it */
	uint64_t last_full_usec;
	uint64_t next_full_usec;
	uint64_t watch_until_usec; /* glances every 50 ms until then: a device came */
	uint64_t dirtied_at_full;
	bool unknown;            /* a governed device is not yet known */
	bool busy_at_full;       /* data was waiting at the last full poll */
	bool ticked;
	uint64_t last_tick_usec;
	struct knobs_vmstat vm;
	/* the caller's watch wakes it at a write to the file systems of the
	 * devices gov_watch_writes names (gov_written) */
	bool writes_watched;
};

/* `hooks` may be NULL. Does not touch the machine. `g` is zeroed memory or
 * a governor gov_init had: its arrays are kept for reuse (gov_free frees
 * them). */
void gov_init(struct governor *g, const struct gov_config *cfg, const struct knobs_ops *ops,
	      void *kctx, const struct gov_hooks *hooks);
/* Its arrays freed; it holds no device. */
void gov_free(struct governor *g);
/* Replace the configuration (SIGHUP): every device is decided anew. */
void gov_set_config(struct governor *g, const struct gov_config *cfg);
/* Ask for a device rescan at the next tick (a uevent arrived). */
static inline void gov_request_rescan(struct governor *g) { g->want_rescan = true; }
/* Ask for a full poll at the next tick (a write to a watched mount). */
static inline void gov_request_poll(struct governor *g) { g->want_poll = true; }
/* Linux < 6.2, while the global pair is not applied: a device whose first
 * write must reach it at once (its mounts are watched for writes; a poll
 * would find a small copy all dirty already). Never a share (its mount
 * may hang whoever touches it). */
bool gov_watch_writes(const struct governor *g, const struct gov_dev *d);
/* The caller watches those devices' file systems for writes (or no
 * longer: a watch that cannot be had). */
static inline void gov_set_writes_watched(struct governor *g, bool on) { g->writes_watched = on; }
/* A write to the file systems of the device of bdi `bdi` woke the caller
 * (its watch): it holds dirty data from now on, and a full poll comes at
 * the next tick. */
void gov_written(struct governor *g, const char *bdi, uint64_t now_usec);
/* One poll: rescan if asked, measure, decide, apply. Returns the delay until
 * the next poll, in microseconds. */
uint64_t gov_tick(struct governor *g, uint64_t now_usec);
/* A last reading of every device's counters before stopping, so that what
 * the devices did since the last poll still counts (a disk that finished a
 * sync since is measured by it). Changes no knob. */
void gov_last_look(struct governor *g, uint64_t now_usec);
/* Give back every knob changed. 0, or the first error (all are tried). */
int gov_restore(struct governor *g);

struct gov_dev *gov_find(struct governor *g, const char *bdi);

/* Where a device stands, as wbgovd shows it: its last knob change failed;
 * not decided yet; decided without a limit of its own (no cap, or one the
 * global threshold bounds already); left as it was (mode off); capped. */
enum gov_state {
	GOV_STATE_ERROR, GOV_STATE_DECIDING, GOV_STATE_UNCAPPED, GOV_STATE_LEFT_ALONE,
	GOV_STATE_CAPPED, GOV_STATE_COUNT
};
enum gov_state gov_dev_state(const struct gov_dev *d);
/* The state's one spelling in every output: "error", "deciding",
 * "uncapped", "left_alone", "capped"; "error" for a value out of range. */
const char *gov_state_key(int state);

#endif
