/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "policy/bwmeter.h"

/* A window measures at once past this many sectors (512 GiB). */
#define WIN_MAX_SECTORS (1ULL << 30)

/* bytes per second, without overflow for any window shorter than months */
static uint64_t rate(uint64_t bytes, uint64_t usec)
{
	if (!usec)
		return 0;
	return bytes / usec * 1000000 + bytes % usec * 1000000 / usec;
}

const char *bw_source_key(int source)
{
	static const char *const key[] = {
		[BW_NONE] = "none", [BW_LOWER_BOUND] = "lower_bound", [BW_MEASURED] = "measured",
		[BW_REMEMBERED] = "remembered",
	};

	return source >= 0 && source < (int)(sizeof(key) / sizeof(key[0])) ? key[source] : key[BW_NONE];
}

void bwmeter_init(struct bwmeter *m)
{
	memset(m, 0, sizeof(*m));
}

void bwmeter_seed(struct bwmeter *m, uint64_t bps, bool known)
{
	if (!bps)
		return;
	m->est_bps = bps;
	m->source = BW_REMEMBERED;
	m->known = known;
	m->nhist = 0;
	m->hist_straddles = false;
}

/* Forget the counters (a new device, a counter that went back or jumped):
 * the estimate stays, the window goes. */
static void reprime(struct bwmeter *m, const struct bw_sample *s)
{
	m->win_open = false;
	m->interval_bps = 0;
	m->wb_empty = s->have_wb && !s->wb_bytes && !s->inflight;
	m->last = *s;
	m->primed = true;
}

static void open_window(struct bwmeter *m)
{
	m->win_open = true;
	m->win_usec = m->win_sectors = m->win_ios = m->win_ticks_ms = m->win_held_usec = 0;
	m->win_moves = 0;
	m->win_max_step = 0;
	m->win_lone = 0;
	m->win_polls = m->win_empty = 0;
	m->win_steps = m->win_gaps = 0;
	m->win_queued_kib = 0;
	m->win_idle_usec = 0;
	memset(&m->pre, 0, sizeof(m->pre));
}

/* The window at its last completion, as a stall begins. */
static void stall_begin(struct bwmeter *m)
{
	m->pre.usec = m->win_usec;
	m->pre.sectors = m->win_sectors;
	m->pre.ios = m->win_ios;
	m->pre.moves = m->win_moves;
	m->pre.polls = m->win_polls;
	m->pre.empty = m->win_empty;
	m->pre.steps = m->win_steps;
	m->pre.gaps = m->win_gaps;
	m->pre.queued_kib = m->win_queued_kib;
	m->pre.ticks_ms = m->win_ticks_ms;
	m->pre.held_usec = m->win_held_usec;
	m->pre.backlog = true;
}

/* A completion of `ds` sectors ends a stall. If it and what the window
 * held before the stall are each a bio's worth, the device had a backlog
 * all through the stall and the stall lasted longer than what came before,
 * the device went slower: the window starts at the stall, and holds it and
 * this completion. (A device idle for want of work is not slower; a stall
 * shorter than what came before is a pause a window rides out; a journal
 * block completing while a big bio is served does not mark where the bio's
 * service began; and a small completion ending a stall is part of a lump
 * to come: a 1 MB/s loop's windows split so read 0.2 then 2.0 MB/s.) */
static void stall_end(struct bwmeter *m, uint64_t ds)
{
	if (!m->pre.backlog || m->pre.sectors * 512 < BWMETER_LUMP_BYTES ||
	    ds * 512 < BWMETER_LUMP_BYTES || m->win_usec - m->pre.usec <= m->pre.usec)
		return;
	m->win_usec -= m->pre.usec;
	m->win_sectors -= m->pre.sectors;
	m->win_ios -= m->pre.ios;
	m->win_moves -= m->pre.moves;
	m->win_polls -= m->pre.polls;
	m->win_empty -= m->pre.empty;
	m->win_steps -= m->pre.steps;
	m->win_gaps -= m->pre.gaps;
	m->win_queued_kib -= m->pre.queued_kib;
	m->win_ticks_ms -= m->pre.ticks_ms;
	m->win_held_usec -= m->pre.held_usec;
	m->win_max_step = ds;
	m->win_lone = 0;
	m->pre.usec = 0;
}

/* The open window's busy time: io_ticks, or its intervals with a request
 * in flight at both ends, whichever is more. Before the kernel accounted
 * io_ticks precisely (6.12 does; 6.1 does not), a request that starts while
 * another is in flight adds one jiffy, not the time since the last event:
 * a USB stick on 6.1 with a command in flight at every poll of a window
 * read busy 69-85 %, and its first window, a copy with one poll in twenty
 * between two commands, 89 % for 26 s (under systemd, without debugfs):
 * it was never a backlog, and the stick kept its start cap through the
 * copy (sync 8 s at 0.5 MB/s). */
static uint64_t busy_usec(const struct bwmeter *m)
{
	uint64_t ticks = m->win_ticks_ms * 1000;

	return ticks > m->win_held_usec ? ticks : m->win_held_usec;
}

/* A closed window of `bytes` in `usec`. Without a backlog it is a lower
 * bound: the estimate rises to it, never falls. With one it is the device's
 * pace, but a loop behind blk-throttle completes in lumps (at 4 MB/s, one
 * 8 MiB bio every 2.1 s, or 6-8 MiB every 1.5-2 s), so one window is off by
 * up to half: the estimate is what the last three completed over their time
 * together, which holds every lump once however they fall (their median was
 * off by a third after a drop, as two windows gave the mean of both). After
 * a change of more than three times (an SLC cache running out: 40 -> 4
 * MB/s) the new window is taken at once and the older ones forgotten; it
 * straddled the change (the bio in service then was partly served at the
 * old pace: 7.0 MB/s after a drop to 4), so the next one replaces it. With
 * windows that end only on a completion of weight, that next one reads
 * 4.0: 40 -> 4 MB/s was followed in 1.2-3.3 s, against 1.2-5.4 s pooled. */
static bool judge(struct bwmeter *m, uint64_t bytes, uint64_t usec, bool backlog, uint64_t cap)
{
	uint64_t old = m->est_bps, bps = rate(bytes, usec), sb = 0, su = 0;

	m->last_bps = bps;
	m->last_backlog = backlog;
	m->last_polls = m->win_polls;
	m->last_empty = m->win_empty;
	m->last_queued_ms = bwmeter_queued_ms(m);
	m->last_busy_pct = m->win_usec ? (unsigned)(busy_usec(m) * 100 / m->win_usec) : 0;
	m->last_steps = m->win_steps;
	m->last_gaps = m->win_gaps;
	m->nmeasure++;
	if (!backlog) {
		if (bps <= m->est_bps)
			return false; /* slower, but it may just not have been asked for more */
		if (m->known && m->source != BW_LOWER_BOUND && bps < 2 * m->est_bps) {
			/* above a pace measured with a backlog: a device that
			 * got faster, or one that swallowed a burst. What was
			 * dirty or in flight at the window's start may have sat
			 * in a device buffer or a throttle's credit (qemu's let
			 * a 5.2 MB/s disk under a 5 MB cap read 6.1-6.5 MB/s in
			 * windows where its queue ran dry, and the cap rose over
			 * the measured 4.4): the window must beat the pace by a
			 * quarter without one cap's worth of its bytes, and
			 * counts so. A burst adds less than the pace itself
			 * (qemu's, 1.2-1.5 x): a window of twice the pace or
			 * more is a device that got faster, and counts whole
			 * (a rise taken at 20 MB/s from a window that straddled
			 * it, then 40 MB/s discounted by the 19.7 MB cap that
			 * opened, read 20: the rise was never followed) */
			uint64_t lb = bytes > cap ? rate(bytes - cap, usec) : 0;
			if (lb <= m->est_bps + m->est_bps / 4)
				return false;
			bps = lb;
		} else if (m->known && bps <= m->est_bps + m->est_bps / 4) {
			/* above a lower bound that followed a measured pace (a
			 * rise seen through the discount above), by less than
			 * a quarter: not news. By more, the next windows raise
			 * it undiscounted: under the larger cap a raise opens,
			 * one cap's worth is most of a window (a window that
			 * straddled 4 -> 40 MB/s read 26.3, counted 22.9, and
			 * discounted by its 21.5 MB cap, 40 MB/s read 18) */
			return false;
		}
		m->est_bps = bps;
		m->source = BW_LOWER_BOUND;
		m->nhist = 0;
		return true;
	}
	m->known = true;
	if (bps > 3 * m->est_bps && m->source == BW_MEASURED && m->nhist && !m->rise_seen) {
		/* more than three times above a pace measured with a backlog:
		 * believed when the next window says so too. One short window
		 * can hold a burst a throttle or a buffer let through (CI: a
		 * 0.5 MB/s loop, polled every second once its queue was short,
		 * read 1.9 and 2.3 MB/s in one window of two polls, then 0.7
		 * and 0.5; the cap taken from it left 3 s to sync). A drop is
		 * taken at once: a cap too large is what costs */
		m->rise_seen = true;
		return false;
	}
	if (!m->est_bps || bps > 3 * m->est_bps || bps < m->est_bps / 3) {
		m->nhist = 0;
		m->hist_straddles = m->est_bps != 0;
	} else if (m->hist_straddles) {
		m->nhist = 0;
		m->hist_straddles = false;
	} else if (m->nhist == 3) {
		memmove(m->hist_bytes, m->hist_bytes + 1, 2 * sizeof(m->hist_bytes[0]));
		memmove(m->hist_usec, m->hist_usec + 1, 2 * sizeof(m->hist_usec[0]));
		m->nhist = 2;
	}
	m->hist_bytes[m->nhist] = bytes;
	m->hist_usec[m->nhist++] = usec;
	for (unsigned i = 0; i < m->nhist; i++) {
		sb += m->hist_bytes[i];
		su += m->hist_usec[i];
	}
	m->est_bps = rate(sb, su);
	m->source = BW_MEASURED;
	m->rise_seen = false;
	return m->est_bps != old;
}

uint64_t bwmeter_queued_ms(const struct bwmeter *m)
{
	uint64_t bps = rate(m->win_sectors * 512, m->win_usec), queued;

	if (!m->win_polls)
		return 0;
	queued = m->win_queued_kib / m->win_polls * 1024;
	if (!bps)
		return queued ? UINT64_MAX : 0;
	return queued / bps * 1000 + queued % bps * 1000 / bps;
}

/* Did the device have a backlog of its own through the window? Without
 * debugfs: a request in flight at both ends of four intervals in five at
 * least, and the disk busy 90 % of the window (busy_usec). A USB stick serves one
 * command at a time and a poll may fall between two: at 0.5 MB/s in 1 MiB
 * requests (6.1 under systemd, whose debugfs tells the root cgroup's
 * writeback alone) the first window ended busy 90 % with one such poll,
 * and the stick went unmeasured for 15 s of a copy. A bio-based device such
 * as dm-linear moves io_ticks only when a bio starts or ends: one 4 MiB bio
 * in service for 0.8 s shows no busy time until it completes, so no single
 * interval between two completions can be judged by it, and the window is,
 * ending at a completion. With debugfs: its writeback queue empty at no
 * more than one poll in five (under a 1 s cap a 5 MB/s device runs dry for
 * an instant now and then), and on average half a second of work at the
 * pace it went: a fast disk fed 4 MB/s by a loop's backing file always has
 * a little in flight, and was taken for a 6.5 MB/s one. */
bool bwmeter_busy(const struct bwmeter *m)
{
	return m->win_usec && busy_usec(m) * 100 >= m->win_usec * BWMETER_BUSY_PCT;
}

/* (With debugfs, a device whose queue holds less than half a second at its
 * pace, yet never ran dry and was busy 90 % of the window, had a backlog
 * all the same: a USB stick of 40 MB/s takes two 1 MiB requests at a time,
 * 50 ms of work, while the rest waits dirty; a fast disk fed slowly idles
 * most of the window.) */
static bool window_backlog(const struct bwmeter *m)
{
	if (!m->win_polls)
		return m->win_steps && m->win_gaps * 5 <= m->win_steps && bwmeter_busy(m);
	if (m->win_empty * 5 > m->win_polls)
		return false;
	return bwmeter_queued_ms(m) >= BWMETER_QUEUE_USEC / 1000 ||
	       (m->win_empty == 0 && bwmeter_busy(m));
}

/* Is the open window worth a figure? Short ones must hold more than a
 * device buffer swallows in a burst. With a backlog all along, 256 KiB or
 * more completed a second or more after the window's start is the device's
 * own pace, even in one completion (at 0.5 MB/s a loop's 2 MiB bios
 * complete every 4 s, and a start cap must come down fast); a few 10 KiB
 * journal blocks are not, and it ends at a completion of weight (`ds`
 * sectors in the last interval). Without, the window is a lower bound, and the
 * request in service at its start may have begun long before: its largest
 * step must be at most a quarter of it. */
static bool window_done(const struct bwmeter *m, uint64_t ds)
{
	uint64_t bytes = m->win_sectors * 512;

	if (m->win_sectors >= WIN_MAX_SECTORS)
		return true;
	if (!(m->win_ios >= BWMETER_WIN_IOS && bytes >= BWMETER_WIN_BYTES) &&
	    m->win_usec < BWMETER_WIN_MIN_USEC)
		return false;
	if (window_backlog(m)) {
		uint64_t bps = rate(bytes, m->win_usec);
		/* a measured pace more than three times off, in one poll's
		 * completions smaller than a bio's worth: wait for the next (a
		 * 4 MB/s loop completing a small bio between two 8 MiB ones
		 * read 0.3 MB/s, and its cap fell to the floor); a lump is the
		 * device's pace, off or not (the first 8 MiB after a drop) */
		if (m->known && m->win_moves < 2 && bytes < BWMETER_LUMP_BYTES &&
		    (bps > 3 * m->est_bps || 3 * bps < m->est_bps))
			return false;
		/* nor on a lone completion far smaller than the window's
		 * largest, after a stall: a journal block while a loop serves
		 * 8 MiB (1.7 MB, then 0.04 MB 1.5 s on, read 0.9 MB/s; the next
		 * 6.7 MB came 0.15 s later). Completions that keep coming are
		 * the pace, however small: a stick's requests after a drop
		 * (0.4 MB a poll after 4 MB ones held a window for 7 s), and
		 * so is a second lone one (a stick's 1.25 and 0.75 MiB
		 * requests every 0.2-0.4 s after a drop from 40 to 4 MB/s,
		 * after polls of 6.9 MiB, held a window for 3.8 s) */
		if (ds * 4 < m->win_max_step && !m->last_moved && m->win_lone < 2)
			return false;
		return bytes >= BWMETER_STEP_BYTES;
	}
	return m->win_moves >= BWMETER_WIN_MOVES && m->win_sectors >= 4 * m->win_max_step;
}

/* One poll's interval, as bwmeter_sample reads it. */
struct step {
	uint64_t dt, ds, dios, dticks; /* us, sectors, ios, io_ticks ms since the last poll */
	uint64_t queued;               /* bytes queued at its start (debugfs) */
	bool moved;                    /* sectors completed */
	bool backlog;                  /* work queued (debugfs) or in flight at both ends */
	bool debugfs;                  /* ... told by debugfs at both ends */
	bool p_empty;                  /* nothing queued at its start */
	bool held;                     /* a request in flight at both ends */
};

/* The interval into the open window. */
static void window_add(struct bwmeter *m, const struct step *st)
{
	m->win_usec += st->dt;
	m->win_sectors += st->ds;
	m->win_ios += st->dios;
	m->win_ticks_ms += st->dticks;
	m->win_held_usec += st->held ? st->dt : 0;
	m->win_moves += st->moved;
	if (st->ds > m->win_max_step)
		m->win_max_step = st->ds;
	if (st->debugfs) {
		m->win_polls++;
		m->win_empty += !st->backlog;
		m->win_queued_kib += st->queued / 1024;
	} else {
		m->win_steps++;
		m->win_gaps += !st->backlog;
		if (m->win_polls) {
			/* a poll without debugfs in a window judged by it:
			 * the caller skipped the read while the device
			 * idled; an interval begun with nothing queued is
			 * an empty poll, or idle time would count as a
			 * backlog at a crawl */
			m->win_polls++;
			m->win_empty += st->p_empty || !st->backlog;
		}
	}
	m->pre.backlog = m->pre.backlog && (st->moved || st->backlog);
	if (st->moved && !m->last_moved) {
		stall_end(m, st->ds);
		m->win_lone += st->ds * 4 < m->win_max_step;
	}
	if (!st->moved && !st->backlog) {
		/* idle: a window over long idle time measures nothing */
		m->win_idle_usec += st->dt;
		if (m->win_idle_usec >= BWMETER_IDLE_USEC)
			m->win_open = false;
	} else {
		m->win_idle_usec = 0;
	}
}

/* The window judged where it ends, if it ends at this poll, and one
 * opened at a poll that moved; true when the estimate changed. */
static bool window_end(struct bwmeter *m, const struct bw_sample *s, const struct step *st)
{
	bool changed = false;

	if (!st->moved && m->win_open && m->last_moved && !s->inflight &&
	    !(s->have_wb && s->wb_bytes >= BWMETER_STEP_BYTES) && m->win_moves >= BWMETER_WIN_MOVES &&
	    !window_backlog(m) && m->win_usec > st->dt) {
		/* it stopped, nothing in flight (a journal page under
		 * writeback aside): what the window holds was done within it,
		 * but for the largest step, which may have begun before; at
		 * least that fast. A fast disk written once, at sync, in a few
		 * polls' big steps is measured so, or never */
		uint64_t bytes = (m->win_sectors - m->win_max_step) * 512;
		if (bytes >= BWMETER_WIN_BYTES) {
			changed |= judge(m, bytes, m->win_usec - st->dt, false, s->cap_bytes);
			m->win_open = false;
		}
	}
	if (st->moved && m->win_open && window_done(m, st->ds)) {
		changed |= judge(m, m->win_sectors * 512, m->win_usec, window_backlog(m),
				 s->cap_bytes);
		m->win_open = false;
	}
	if (st->moved && !m->win_open) {
		/* anchor here: the window holds only what completes after */
		open_window(m);
	}
	return changed;
}

bool bwmeter_sample(struct bwmeter *m, const struct bw_sample *s)
{
	const struct bw_sample *p = &m->last;
	struct step st;
	bool changed = false;

	if (!m->primed || s->now_usec <= p->now_usec || s->sectors < p->sectors ||
	    s->ios < p->ios || s->io_ticks_ms < p->io_ticks_ms) {
		reprime(m, s);
		return false;
	}
	st.dt = s->now_usec - p->now_usec;
	st.ds = s->sectors - p->sectors;
	st.dios = s->ios - p->ios;
	st.dticks = s->io_ticks_ms - p->io_ticks_ms;
	/* a counter that jumps (a driver bug, a forged tree) would give any
	 * bandwidth: ds x 512 above BWMETER_MAX_BPS x dt is not a device */
	if (st.ds > BWMETER_MAX_BPS / 512 * st.dt / 1000000 + 8) {
		reprime(m, s);
		return false;
	}
	st.moved = st.ds > 0;
	st.queued = p->wb_bytes;
	/* nothing queued at the last poll, as the kernel said then or last */
	st.p_empty = (p->have_wb ? !p->wb_bytes : m->wb_empty) && !p->inflight;
	m->interval_bps = rate(st.ds * 512, st.dt);
	if (st.ds * 512 >= BWMETER_WIN_BYTES && st.p_empty) {
		/* nothing was queued at the last poll (the kernel said so): all
		 * that completed since was submitted since, so this interval is
		 * a lower bound already, if more than a device buffer; a device
		 * coming out of idle need not wait for a window to be let go */
		changed |= judge(m, st.ds * 512, st.dt, false, s->cap_bytes);
	}
	st.held = p->inflight > 0 && s->inflight > 0;
	st.debugfs = s->have_wb && p->have_wb;
	if (st.debugfs)
		/* work queued at both ends; how much, the window judges */
		st.backlog = p->wb_bytes > 0 && s->wb_bytes > 0;
	else
		/* requests in flight at both ends; how busy, the window judges */
		st.backlog = st.held;

	if (st.p_empty && m->quiet_usec >= BWMETER_QUIET_USEC &&
	    (st.moved || (s->have_wb && s->wb_bytes)) &&
	    (!m->win_open || !window_backlog(m) || m->win_sectors * 512 < BWMETER_STEP_BYTES)) {
		/* busy again after a second of quiet that ended with nothing
		 * queued (the kernel said so), and no backlog window of weight
		 * open (a window of mkfs's burst at memory speed would hold the
		 * first copy's measurement back for good; a fast device that runs
		 * dry between its bursts is not quiet): that poll is the one true
		 * start of
		 * what comes, even if the first completion is a journal block
		 * finishing while a big bio is still being served; and the
		 * device has had work since it came (at most this interval's
		 * idle start is lost) */
		open_window(m);
		st.backlog = s->have_wb && s->wb_bytes > 0;
		st.queued = s->wb_bytes;
	} else if (m->win_open && st.moved && m->last_moved && m->win_usec &&
		   (st.ds * 512 >= BWMETER_WIN_BYTES || (s->cap_bytes && st.ds * 512 > s->cap_bytes)) &&
		   m->interval_bps / 4 > rate(m->win_sectors * 512, m->win_usec)) {
		/* a bulk write after light use: 32 MiB in one poll, or more than
		 * its strict cap lets be dirty or in flight at once (so written
		 * and completed within the poll), at four times the window's
		 * pace. Start over at the last poll (sectors moved there too),
		 * or the light part would hide what the device does, and hold a
		 * start cap it outruns for a dozen polls */
		open_window(m);
	} else if (!s->have_wb && !p->have_wb && !p->inflight && s->inflight &&
		   m->quiet_usec >= BWMETER_GAP_USEC && (!m->win_open || !window_backlog(m))) {
		/* without debugfs: busy again after half a second with nothing
		 * in flight nor completed. A window holding that idle time is no
		 * backlog (it is one only once 90 % of it is busy); the one that
		 * starts here may be. On 6.1 under systemd a stick's first window
		 * opened at the mount's journal block, held 2.3 s of requests
		 * that wrote no sectors and 0.7 s with nothing in flight, then the
		 * copy: it became a backlog only 10 s into the copy */
		open_window(m);
	}
	if (m->win_open && m->last_moved && !st.moved)
		stall_begin(m);
	if (m->win_open)
		window_add(m, &st);
	changed |= window_end(m, s, &st);
	m->last_moved = st.moved;
	if (s->have_wb)
		m->wb_empty = !s->wb_bytes;
	else if (st.moved || s->inflight)
		m->wb_empty = false;
	if (st.moved || (s->have_wb && s->wb_bytes) || s->inflight)
		m->quiet_usec = 0;
	else
		m->quiet_usec += st.dt;
	m->last = *s;
	return changed;
}
