#include <string.h>

#include "policy/bwmeter.h"

/* A window must hold this much before it counts as a measurement: one
 * second of busy time (about 4 of the kernel's writeback chunks at any
 * speed) and at least 1 MiB, or 256 MiB whatever the time. */
#define WIN_BUSY_USEC 1000000ULL
#define WIN_WALL_USEC 2000000ULL
#define WIN_MIN_SECTORS (1024ULL * 1024 / 512)
#define WIN_MAX_SECTORS (256ULL * 1024 * 1024 / 512)
/* Dirty data waiting: below this the device may just be idle. */
#define PENDING_MIN (1024ULL * 1024)
/* Wall clock: this many samples in a row without progress end a window
 * (the data waiting belongs to another device). */
#define STILL_MAX 8

void bwmeter_init(struct bwmeter *m, bool wall_clock)
{
	memset(m, 0, sizeof(*m));
	m->wall_clock = wall_clock;
}

static bool measure(struct bwmeter *m)
{
	uint64_t bps;

	if (m->win_sectors < WIN_MIN_SECTORS || !m->win_usec)
		return false;
	bps = m->win_sectors * 512 * 1000000ULL / m->win_usec;
	m->last_bps = bps;
	m->nmeasure++;
	m->win_sectors = 0;
	m->win_usec = 0;
	/* halfway to each new window: a slower phase (an SLC cache running out)
	 * shows within a few windows, one odd window moves it only half */
	m->est_bps = m->est_bps ? (m->est_bps + bps) / 2 : bps;
	return true;
}

bool bwmeter_sample(struct bwmeter *m, uint64_t now_usec, uint64_t sectors_written,
		    uint64_t io_ticks_ms, uint64_t pending_bytes)
{
	uint64_t dt, ds, dbusy;
	bool changed = false;

	if (!m->primed || now_usec <= m->last_usec || sectors_written < m->last_sectors ||
	    io_ticks_ms < m->last_busy_ms) {
		/* first sample, or the counters went back (a new device) */
		uint64_t est = m->primed ? m->est_bps : 0;
		bool wall = m->wall_clock;
		bwmeter_init(m, wall);
		m->est_bps = est;
		goto keep;
	}
	dt = now_usec - m->last_usec;
	ds = sectors_written - m->last_sectors;
	dbusy = io_ticks_ms - m->last_busy_ms;

	if (!m->wall_clock) {
		if (ds) {
			m->win_sectors += ds;
			m->win_usec += dbusy * 1000;
		}
		if (m->win_usec >= WIN_BUSY_USEC || m->win_sectors >= WIN_MAX_SECTORS)
			changed = measure(m);
	} else if (m->last_pending >= PENDING_MIN) {
		m->win_sectors += ds;
		m->win_usec += dt;
		m->win_still = ds ? 0 : m->win_still + 1;
		if (m->win_still >= STILL_MAX) {
			m->win_sectors = m->win_usec = 0;
			m->win_still = 0;
		} else if (m->win_usec >= WIN_WALL_USEC || m->win_sectors >= WIN_MAX_SECTORS) {
			changed = measure(m);
		}
	} else {
		/* nothing was waiting: the interval says nothing about speed */
		m->win_sectors = m->win_usec = 0;
		m->win_still = 0;
	}
keep:
	m->primed = true;
	m->last_usec = now_usec;
	m->last_sectors = sectors_written;
	m->last_busy_ms = io_ticks_ms;
	m->last_pending = pending_bytes;
	return changed;
}
