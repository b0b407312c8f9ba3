/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Measures one device's write bandwidth from its own counters, as the daemon
 * does on a real kernel (the kernel's estimate lives in debugfs, starts at
 * 100 MiB/s and lags by seconds). Pure: the caller passes the counters and
 * the time.
 *
 * What a measurement is worth depends on whether the device was the
 * bottleneck. Bytes completed per second of wall clock are always a lower
 * bound of what the device can do; they are its speed only while it had
 * work queued the whole time. So a window without a backlog can only raise
 * the estimate (above a pace measured with a backlog, only when it beats
 * it by a quarter without one strict cap's worth of its bytes, which may
 * have waited in a device buffer or a throttle's credit), and only windows
 * in which the
 * device had a backlog of its own move it down or up (the bytes of the
 * last three over their time together; after a drop of more than three
 * times at once, after such a rise when a second window confirms it, as one
 * window can hold a throttle's burst): a fast disk written
 * lightly (4 KiB + fdatasync) keeps its figure, a stick whose cache runs
 * out loses it.
 *
 * A backlog of its own, per device: with debugfs, the bdi's own pages under
 * writeback (a throttled loop device holds its queue before the disk counts
 * it: /sys/block/X/stat showed nothing in flight and io_ticks +20 ms in 12 s
 * while 60 MiB drained at 5 MB/s); without it, requests in flight at both
 * ends of four intervals in five and the disk busy 90 % of the window
 * (io_ticks, which dm moves only as a bio starts or ends, or the intervals
 * in flight at both ends, where 6.1's io_ticks fall short).
 *
 * Windows begin and end at a poll where sectors moved, so a window holds
 * whole completions: a stacked device completing 4 MiB bios every 0.8 s
 * (dm-linear at 5 MB/s) is measured by the time between completions, not by
 * how many of them one poll happened to catch. A completion of a bio's
 * worth after a stall with a backlog longer than all the window held before
 * it starts the window at the stall: a device that slows down in the
 * middle of a window is measured from its last completion at the old pace,
 * not by a mean of both (40 -> 4 MB/s in 8 MiB bios read 15.7 MB/s). A
 * window with a backlog does not end on the first lone completion, after a
 * stall, under a quarter of its largest (a journal block between two lumps);
 * a second is the pace (a stick's small requests after a drop). */
#ifndef WBGOV_POLICY_BWMETER_H
#define WBGOV_POLICY_BWMETER_H

#include <stdbool.h>
#include <stdint.h>

/* One poll of a device. */
struct bw_sample {
	uint64_t now_usec;
	uint64_t sectors;     /* written, cumulative (stat field 7) */
	uint64_t ios;         /* write requests completed, cumulative (field 5) */
	uint64_t io_ticks_ms; /* time with I/O in flight, cumulative (field 10) */
	uint64_t inflight;    /* requests in flight now (field 9) */
	bool have_wb;         /* wb_bytes was read from the kernel (debugfs) */
	uint64_t wb_bytes;    /* the bdi's pages under writeback now */
	uint64_t cap_bytes;   /* its strict cap now, 0 without one */
};

/* Where the estimate came from. */
enum bw_source {
	BW_NONE,        /* not measured */
	BW_LOWER_BOUND, /* only windows without a backlog: at least this fast */
	BW_MEASURED,    /* a window with a backlog of its own */
	BW_REMEMBERED,  /* a figure kept from an earlier run (the caller's) */
};

/* The source's one spelling in every output (JSON, Prometheus, D-Bus):
 * "none", "lower_bound", "measured", "remembered"; "none" for a value out
 * of range. */
const char *bw_source_key(int source);

struct bwmeter {
	bool primed;
	struct bw_sample last;
	/* the window being accumulated; it starts at a poll where sectors moved */
	bool win_open;
	unsigned win_steps;   /* intervals seen without debugfs */
	unsigned win_gaps;    /* ... of them without a request in flight at an end */
	uint64_t win_usec;
	uint64_t win_sectors;
	uint64_t win_ios;
	uint64_t win_ticks_ms; /* io_ticks gone by in it */
	uint64_t win_held_usec; /* its intervals with a request in flight at
				   both ends, summed */
	unsigned win_moves;   /* intervals in which sectors moved */
	uint64_t win_max_step; /* the most sectors one interval moved */
	unsigned win_lone;    /* completions after a stall under a quarter of it */
	unsigned win_polls;   /* intervals seen with debugfs at both ends */
	unsigned win_empty;   /* ... of them with its writeback empty at an end */
	uint64_t win_queued_kib; /* writeback queued at their starts, summed */
	uint64_t win_idle_usec; /* nothing moved nor queued since */
	/* the window as it was at its last completion, while a stall follows */
	struct {
		uint64_t usec, sectors, ios, queued_kib, ticks_ms, held_usec;
		unsigned moves, polls, empty, steps, gaps;
		bool backlog; /* the stall has had a backlog all along */
	} pre;
	bool last_moved;      /* sectors moved in the last interval */
	uint64_t quiet_usec;  /* nothing moved nor queued for this long */
	bool wb_empty;        /* the kernel said nothing was queued at the last
				 poll that read it, and nothing moved nor was
				 in flight since (a caller may skip debugfs while
				 a known device idles) */
	/* the estimate */
	uint64_t est_bps;     /* 0 = not measured */
	enum bw_source source;
	bool known;           /* est rests on a backlog window or memory */
	uint64_t hist_bytes[3], hist_usec[3]; /* the last backlog windows */
	unsigned nhist;
	bool hist_straddles;  /* its one window made a change of 3x or more */
	bool rise_seen;       /* the last backlog window read 3x above the
				 measured pace; the next must confirm it */
	/* for logs and explain */
	uint64_t last_bps;    /* the latest window's rate */
	bool last_backlog;
	unsigned last_polls, last_empty; /* its debugfs polls, empty ones */
	uint64_t last_queued_ms; /* its queue on average, in ms of work */
	unsigned last_busy_pct; /* its busy time over its time (bwmeter_busy) */
	unsigned last_steps, last_gaps; /* ... its intervals, and those without a
					   request in flight at an end */
	uint64_t interval_bps; /* the latest interval's rate, 0 if it was idle */
	unsigned nmeasure;
};

void bwmeter_init(struct bwmeter *m);

/* Start from a figure measured before (device memory): known at once if it
 * was measured with a backlog, else only at least that fast; windows move
 * it as any measurement would. */
void bwmeter_seed(struct bwmeter *m, uint64_t bps, bool known);

/* The open window's queue (debugfs), on average over its polls, in
 * milliseconds of work at the pace the window went. 0 without polls. */
uint64_t bwmeter_queued_ms(const struct bwmeter *m);
/* The open window's device busy BWMETER_BUSY_PCT of it: io_ticks, or the
 * intervals with a request in flight at both ends, whichever says more. */
bool bwmeter_busy(const struct bwmeter *m);

/* One poll. Returns true when the estimate changed. */
bool bwmeter_sample(struct bwmeter *m, const struct bw_sample *s);

/* Bounds, exported for tests and documentation. A window measures when it
 * lasts a second or holds BWMETER_WIN_IOS requests and BWMETER_WIN_BYTES,
 * and then, with a backlog, BWMETER_STEP_BYTES; without one, at least
 * BWMETER_WIN_MOVES polls with movement. A window shorter than a
 * second must hold more than any device buffer can swallow in a burst (a
 * 5 MB/s stick with a few MiB of RAM acknowledges them at USB speed; qemu's
 * throttle let 4 MiB through at 18 MB/s), and enough requests that the one
 * in service at its start weighs little. */
#define BWMETER_WIN_IOS 8
#define BWMETER_WIN_BYTES (32ULL << 20)
#define BWMETER_WIN_MIN_USEC 1000000ULL
#define BWMETER_WIN_MOVES 2
#define BWMETER_STEP_BYTES (256ULL << 10)
/* One poll's completions this large are a bio's worth, believed alone even
 * when far off a measured pace; smaller ones (a journal block between two
 * big bios) wait for the next completion. */
#define BWMETER_LUMP_BYTES (1ULL << 20)
/* Quiet this long, a device busy again starts a window afresh. */
#define BWMETER_QUIET_USEC 1000000ULL
/* Without debugfs, nothing in flight nor completed this long, then a
 * request in flight, in a window that is no backlog: the window starts
 * afresh there (what is in flight began after it). */
#define BWMETER_GAP_USEC 500000ULL
/* A backlog: at least this much time's work queued at the device's pace. */
#define BWMETER_QUEUE_USEC 500000ULL
/* ... or busy this share of the window (bwmeter_busy), per cent. */
#define BWMETER_BUSY_PCT 90
/* This long with nothing moving and no backlog seen: the window ends.
 * Long, because a stacked device's stat may show nothing for seconds
 * between two completions of big bios. */
#define BWMETER_IDLE_USEC 4000000ULL
/* Faster than this is a counter that jumped, not a device. */
#define BWMETER_MAX_BPS (256ULL * 1000 * 1000 * 1000)

#endif
