/* Measures a device's write bandwidth from its /sys/block/X/stat counters,
 * as the daemon does on a real kernel (the kernel's own estimate lives in
 * debugfs, which may be absent).
 *
 * Two clocks. A physical disk counts the time it has I/O in flight
 * (io_ticks), so sectors written per busy second is its speed even when it
 * is only partly loaded. A stacked device (loop) does not: on a loop device
 * throttled to 10 MB/s, io_ticks advanced 196 ms during 10 s of writing,
 * because bios wait in the throttle before they are counted. There, only
 * wall-clock time while dirty data is waiting measures the speed. Pure: the
 * caller passes the counters and the time. */
#ifndef WBGOV_POLICY_BWMETER_H
#define WBGOV_POLICY_BWMETER_H

#include <stdbool.h>
#include <stdint.h>

struct bwmeter {
	bool wall_clock;
	bool primed;
	uint64_t last_usec;
	uint64_t last_sectors;
	uint64_t last_busy_ms;
	uint64_t last_pending;  /* bytes of dirty + writeback data at the last sample */
	/* the window being accumulated */
	uint64_t win_sectors;
	uint64_t win_usec;       /* wall clock, or busy time */
	unsigned win_still;      /* wall clock: consecutive intervals without progress */
	/* the estimate */
	uint64_t est_bps;        /* 0 = not measured yet */
	uint64_t last_bps;       /* the latest window's rate */
	unsigned nmeasure;
};

void bwmeter_init(struct bwmeter *m, bool wall_clock);

/* One sample: the device's counters and how much dirty + writeback data the
 * system holds (bytes; per device where known, else global). Returns true
 * when the estimate changed. */
bool bwmeter_sample(struct bwmeter *m, uint64_t now_usec, uint64_t sectors_written,
		    uint64_t io_ticks_ms, uint64_t pending_bytes);

#endif
