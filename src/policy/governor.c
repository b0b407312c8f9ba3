/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/room.h"
#include "model/units.h"
#include "policy/governor.h"

void gov_init(struct governor *g, const struct gov_config *cfg, const struct knobs_ops *ops,
	      void *kctx, const struct gov_hooks *hooks)
{
	struct gov_dev *dev = g->dev;
	struct knobs_dev *scan = g->scan;
	struct knobs_limit *limits = g->limits;
	int dev_room = g->dev_room, scan_room = g->scan_room, limit_room = g->limit_room;

	memset(g, 0, sizeof(*g));
	g->dev = dev;
	g->dev_room = dev_room;
	g->scan = scan;
	g->scan_room = scan_room;
	g->limits = limits;
	g->limit_room = limit_room;
	g->cfg = *cfg;
	g->ops = ops;
	g->kctx = kctx;
	if (hooks)
		g->hooks = *hooks;
	g->want_rescan = true;
}

void gov_free(struct governor *g)
{
	free(g->dev);
	free(g->scan);
	free(g->limits);
	g->dev = NULL;
	g->scan = NULL;
	g->limits = NULL;
	g->ndev = g->dev_room = g->scan_room = g->limit_room = 0;
}

void gov_set_config(struct governor *g, const struct gov_config *cfg)
{
	g->cfg = *cfg;
	for (int i = 0; i < g->ndev; i++)
		g->dev[i].decided = false;
}

struct gov_dev *gov_find(struct governor *g, const char *bdi)
{
	for (int i = 0; i < g->ndev; i++)
		if (!strcmp(g->dev[i].info.bdi, bdi))
			return &g->dev[i];
	return NULL;
}

enum gov_state gov_dev_state(const struct gov_dev *d)
{
	if (d->err)
		return GOV_STATE_ERROR;
	if (!d->decided)
		return GOV_STATE_DECIDING;
	if (d->above_global || (d->dec.govern && !d->dec.strict))
		return GOV_STATE_UNCAPPED;
	return d->dec.govern ? GOV_STATE_CAPPED : GOV_STATE_LEFT_ALONE;
}

const char *gov_state_key(int state)
{
	static const char *const key[GOV_STATE_COUNT] = {
		[GOV_STATE_ERROR] = "error", [GOV_STATE_DECIDING] = "deciding",
		[GOV_STATE_UNCAPPED] = "uncapped", [GOV_STATE_LEFT_ALONE] = "left_alone",
		[GOV_STATE_CAPPED] = "capped",
	};

	return state >= 0 && state < GOV_STATE_COUNT ? key[state] : key[GOV_STATE_ERROR];
}

static int restore_dev(struct governor *g, struct gov_dev *d, enum bdi_attr *failed);

/* A bdi left the list. A pulled disk's bdi is gone with its knobs; a loop
 * device's stays after detach and would hand our cap to its next user, so
 * give back what is still there. */
static void forget(struct governor *g, int i)
{
	enum bdi_attr a;

	restore_dev(g, &g->dev[i], &a);
	if (g->hooks.gone)
		g->hooks.gone(g->hooks.ctx, &g->dev[i]);
	g->dev[i] = g->dev[--g->ndev];
}

static bool same_device(const struct knobs_dev *a, const struct knobs_dev *b)
{
	return !strcmp(a->disk, b->disk) && !strcmp(a->id, b->id) && a->major == b->major &&
	       a->minor == b->minor;
}

/* Every bdi there, into g->scan: a list that fills the room given may
 * have more, so the room grows and the list is taken again. Without the
 * memory for all, those that fit (g->nomem); -errno when none do. */
static int scan_all(struct governor *g)
{
	int n = knobs_devices_all(g->ops, g->kctx, &g->scan, &g->scan_room, &g->nomem);

	if (n == -ENOMEM)
		g->nomem = true;
	return n;
}

/* Returns true when a device came. */
static bool rescan(struct governor *g)
{
	int n = scan_all(g);
	bool came = false, partial = g->nomem;

	g->want_rescan = false;
	if (n < 0)
		return false;
	g->features = g->ops->features(g->kctx);
	/* forget what left: a gone bdi has no knobs to give back. A bdi that
	 * now stands for another device (a loop attached to another file
	 * between two scans, another card in a reader) is forgotten too and
	 * found afresh: knobs back, meter anew, memory asked. A list cut
	 * short for want of memory says nothing of the bdis it lacks */
	for (int i = 0; i < g->ndev;) {
		bool named = false, same = false;
		for (int j = 0; j < n && !named; j++)
			if ((named = !strcmp(g->dev[i].info.bdi, g->scan[j].bdi)))
				same = same_device(&g->dev[i].info, &g->scan[j]);
		if (same || (!named && partial))
			i++;
		else
			forget(g, i);
	}
	for (int j = 0; j < n; j++) {
		struct gov_dev *d = gov_find(g, g->scan[j].bdi);
		if (d) {
			d->info = g->scan[j];
			continue;
		}
		if (!room_for(&g->dev, &g->dev_room, g->ndev + 1, sizeof(*g->dev))) {
			g->nomem = true; /* left alone; looked for again at the next rescan */
			break;
		}
		d = &g->dev[g->ndev++];
		came = true;
		memset(d, 0, sizeof(*d));
		d->info = g->scan[j];
		gov_resolve(&g->cfg, &d->info, &d->set); /* anew at each decision */
		d->have_counters = true; /* until the kernel says otherwise */
		bwmeter_init(&d->meter);
		if (g->hooks.recall) {
			bool known = true;
			uint64_t bps = g->hooks.recall(g->hooks.ctx, &d->info, &known);
			bwmeter_seed(&d->meter, bps, known);
		}
		if (g->hooks.found)
			g->hooks.found(g->hooks.ctx, d);
	}
	/* debugfs may have been mounted since: ask again */
	for (int i = 0; i < g->ndev; i++)
		g->dev[i].have_counters = true;
	return came;
}

/* Every device's write throttle from the kernel's list. A list that
 * cannot be read changes nothing. */
static void read_limits(struct governor *g, uint64_t now_usec)
{
	int n = knobs_write_limits_all(g->ops, g->kctx, &g->limits, &g->limit_room);

	g->limits_read = true;
	g->limits_usec = now_usec;
	if (n < 0)
		return;
	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		uint64_t bps = 0;
		for (int j = 0; j < n && d->info.disk[0]; j++) {
			const struct knobs_limit *l = &g->limits[j];
			if (l->major == d->info.major && l->minor == d->info.minor)
				bps = l->bps;
		}
		if (bps == d->limit_bps)
			continue;
		d->limit_bps = bps;
		/* a window open now holds time from before: the next one
		 * judges it */
		d->limit_since = d->meter.nmeasure + (d->meter.win_open ? 1 : 0);
		d->limit_beaten = false;
		if (g->hooks.limited)
			g->hooks.limited(g->hooks.ctx, d);
	}
}

/* Record what failed; returns the error. */
static int fail(struct gov_dev *d, enum bdi_attr a, int err, enum gov_err_op op)
{
	d->err = err;
	d->err_attr = a;
	d->err_op = op;
	return err;
}

static int save_orig(struct governor *g, struct gov_dev *d)
{
	int r;

	if (d->saved)
		return 0;
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_STRICT_LIMIT, &d->orig.strict_limit);
	if (r)
		return fail(d, BDI_STRICT_LIMIT, r, GOV_ERR_READ);
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_RATIO_FINE, &d->orig.max_ratio_fine);
	if (r)
		return fail(d, BDI_MAX_RATIO_FINE, r, GOV_ERR_READ);
	/* min_ratio_fine since 6.2, where the floor is set (apply_floor) */
	d->orig.min_ratio_fine = KNOBS_KEEP;
	r = !(g->features & KNOBS_BDI_BYTES) ? 0 :
		g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MIN_RATIO_FINE, &d->orig.min_ratio_fine);
	if (r)
		return fail(d, BDI_MIN_RATIO_FINE, r, GOV_ERR_READ);
	if (g->hooks.save && (r = g->hooks.save(g->hooks.ctx, d)))
		return fail(d, BDI_STRICT_LIMIT, r, GOV_ERR_RECORD);
	d->saved = true;
	return 0;
}

/* Put a bdi's knobs back as they were found; on failure, `failed` says
 * which knob could not be. */
static int restore_dev(struct governor *g, struct gov_dev *d, enum bdi_attr *failed)
{
	int r;

	if (!d->changed)
		return 0;
	r = knobs_bdi_restore(g->ops, g->kctx, d->info.bdi, d->orig.strict_limit,
			      d->orig.max_ratio_fine, d->orig.min_ratio_fine, failed);
	if (r)
		return r;
	d->changed = false;
	if (g->hooks.restored)
		g->hooks.restored(g->hooks.ctx, d);
	return 0;
}

/* max_bytes reads back recomputed from the current global threshold: within
 * 1/64 of what we want is "already there" (the kernel's own resolution is
 * 1 ppm of the threshold). */
static bool close_enough(uint64_t have, uint64_t want)
{
	uint64_t diff = have > want ? have - want : want - have;
	return diff <= want / 64 + PAGE_SIZE;
}

static uint64_t global_thresh(struct governor *g, const struct gov_dev *d);

/* The floor (min_bytes) as gov_floor_bytes has it, where it differs from
 * what the kernel holds; `first`: only if the floor now held is above the
 * cap to come, which the kernel would refuse (a cap below the floor is
 * EINVAL), so it goes down before the cap does. */
static int apply_floor(struct governor *g, struct gov_dev *d, bool first)
{
	uint64_t want, have;
	int r;

	if (!gov_floor_kernel(g->features))
		return 0;
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MIN_BYTES, &have);
	if (r)
		return fail(d, BDI_MIN_BYTES, r, GOV_ERR_READ);
	if (first && have <= d->dec.max_bytes)
		return 0;
	want = gov_floor_bytes(&d->dec, g->features, global_thresh(g, d));
	if (close_enough(have, want))
		return 0;
	d->changed = true;
	r = g->ops->bdi_write(g->kctx, d->info.bdi, BDI_MIN_BYTES, want);
	return r ? fail(d, BDI_MIN_BYTES, r, GOV_ERR_WRITE) : 0;
}

static void apply(struct governor *g, struct gov_dev *d)
{
	const struct gov_decision *dec = &d->dec;
	enum bdi_attr a;
	int r;

	d->err = 0;
	d->above_global = false;
	if (!dec->govern || !dec->strict) {
		/* leave the device as it was found */
		r = restore_dev(g, d, &a);
		if (r)
			fail(d, a, r, GOV_ERR_WRITE);
		return;
	}
	if (save_orig(g, d) || apply_floor(g, d, true))
		return;
	/* the cap first: strict_limit without a cap bounds nothing */
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &d->max_bytes);
	if (r) {
		fail(d, BDI_MAX_BYTES, r, GOV_ERR_READ);
		return;
	}
	if (!close_enough(d->max_bytes, dec->max_bytes)) {
		d->changed = true;
		r = g->ops->bdi_write(g->kctx, d->info.bdi, BDI_MAX_BYTES, dec->max_bytes);
		if (r == -EINVAL && d->max_bytes < dec->max_bytes) {
			/* the write refused: above the current global threshold
			 * (or dirtyable memory), which bounds this device tighter
			 * than the cap would */
			d->above_global = true;
			r = restore_dev(g, d, &a);
			if (r)
				fail(d, a, r, GOV_ERR_WRITE);
			return;
		}
		if (r) {
			fail(d, BDI_MAX_BYTES, r, GOV_ERR_WRITE);
			return;
		}
		r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &d->max_bytes);
		if (r) {
			fail(d, BDI_MAX_BYTES, r, GOV_ERR_READ);
			return;
		}
	}
	r = knobs_bdi_set(g->ops, g->kctx, d->info.bdi, BDI_STRICT_LIMIT, 1);
	if (r > 0)
		d->changed = true;
	if (r < 0) {
		/* a cap without strict_limit is half a limit: the cap goes too */
		fail(d, BDI_STRICT_LIMIT, r, GOV_ERR_WRITE);
		restore_dev(g, d, &a);
		return;
	}
	/* a floor it cannot have (the bdis' floors together reach the whole
	 * threshold) is said; the cap stays */
	apply_floor(g, d, false);
}

/* Does this (limited) device hold dirty data? The kernel says so in
 * debugfs. Where it does not tell the device's own figures (no debugfs, or
 * before 6.10 with cgroup writeback, where they are the root cgroup's
 * alone: a desktop user's copy is in a cgroup of its own), the device holds
 * some from a write to its file systems (the watch's wake-up, before the
 * system holds much) and while its disk writes, for GOV_VM_QUIET_USEC
 * after either; and, where no watch tells its writes, while it is mounted
 * and the system holds 1 MiB or more. */
static bool holds_dirty(struct governor *g, const struct gov_dev *d, uint64_t now_usec)
{
	struct knobs_bdi_counters c;

	if (g->ops->bdi_counters && g->ops->bdi_counters(g->kctx, d->info.bdi, &c) == 0)
		return c.dirty + c.writeback > 0;
	if ((d->written_usec && now_usec - d->written_usec < GOV_VM_QUIET_USEC) ||
	    (d->active_usec && now_usec - d->active_usec < GOV_VM_QUIET_USEC))
		return true;
	return !g->writes_watched && d->info.mounted && g->pending_bytes >= MIB;
}

void gov_written(struct governor *g, const char *bdi, uint64_t now_usec)
{
	struct gov_dev *d = gov_find(g, bdi);

	if (d)
		d->written_usec = now_usec ? now_usec : 1;
	g->want_poll = true;
}

static int vm_give_back(struct governor *g)
{
	bool cap = g->vm_cap, bg = g->vm_bg;
	int r;

	g->vm_bg_settled = false;
	if (!cap && !bg)
		return 0;
	r = knobs_vm_restore(g->ops, g->kctx, g->vm_orig, NULL);
	if (r)
		return r;
	g->vm_cap = 0;
	g->vm_bg = false;
	g->vm_saved = false;
	if (g->hooks.restored_vm)
		g->hooks.restored_vm(g->hooks.ctx);
	if (cap && g->hooks.global)
		g->hooks.global(g->hooks.ctx, 0, 0);
	if (bg && g->hooks.background)
		g->hooks.background(g->hooks.ctx, false, VM_DIRTY_BACKGROUND_RATIO, 0, 0, 0);
	return 0;
}

/* The six vm.dirty_* values as found, recorded (hooks.save_vm) before the
 * first change; 0 or -errno (then nothing may change). */
static int vm_save(struct governor *g)
{
	int r = 0;

	if (g->vm_saved)
		return 0;
	for (int k = 0; k < VM_KNOB_COUNT && !r; k++)
		r = g->ops->vm_read(g->kctx, (enum vm_knob)k, &g->vm_orig[k]);
	if (!r && g->hooks.save_vm)
		r = g->hooks.save_vm(g->hooks.ctx, g->vm_orig);
	if (!r)
		g->vm_saved = true;
	return r;
}

/* gov_global_candidate of a device as the governor has it. */
static bool global_candidate(const struct gov_dev *d)
{
	return gov_global_candidate(&d->set, &d->dec, d->meter.known, &d->info);
}

/* gov_held of a device as the governor has it. */
static bool held(const struct gov_dev *d)
{
	return gov_held(&d->dec, d->have_counters ? &d->counters : NULL, &d->meter);
}

/* Never a share's: the watch marks its file system through a path on it
 * (fanotify_mark), and a hard NFS mount whose server stopped answering
 * holds any call on it, the daemon's loop with it. A share's first write
 * is seen by a poll (its debugfs counters, or the system's dirty data). */
bool gov_watch_writes(const struct governor *g, const struct gov_dev *d)
{
	return !(g->features & KNOBS_BDI_BYTES) && !g->vm_cap && d->decided && d->info.mounts[0] &&
	       !d->info.is_share && global_candidate(d);
}

/* Linux < 6.2 has no per-device caps: while a candidate device
 * (gov_global_candidate) holds dirty data, the global pair is set as
 * gov_global_cap says from the smallest cap among those that held some
 * within gov_global_release's time (background as gov_pair_background),
 * and given back when gov_global_release says after none holds any. The
 * smallest of that time, not of this poll: a slow stick's few pages under
 * a pair of a fifth of a MiB read 0 at a poll (the kernel's per-CPU
 * counters), and the pair went up to another disk's 4 MiB start cap
 * mid-copy, 4 MiB more for sync (bench/zoo on 6.1, usb at 0.5 MB/s: 10.20 s
 * of sync after cp). */
static void global_step(struct governor *g, uint64_t now_usec)
{
	uint64_t cap = 0;
	bool any = false, stuck = false;
	int r = 0;

	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		bool cand = d->decided && global_candidate(d);

		/* failing since a failure, until it holds nothing: not a disk
		 * that failed once long ago and was clean since */
		d->failed_dirty = !cand && d->failed_usec &&
				  (now_usec - d->failed_usec < GOV_FAILING_USEC || d->failed_dirty) &&
				  holds_dirty(g, d, now_usec);
		stuck |= d->failed_dirty;
		d->holds_dirty = cand && holds_dirty(g, d, now_usec);
		if (d->holds_dirty)
			d->dirty_usec = now_usec ? now_usec : 1;
		any |= d->holds_dirty;
		if (cand && d->dirty_usec && now_usec >= d->dirty_usec &&
		    !gov_global_release(now_usec - d->dirty_usec) && (!cap || d->dec.max_bytes < cap))
			cap = d->dec.max_bytes;
	}
	if (stuck) {
		/* what a failing device holds may never be written (ext4 on
		 * 6.1 keeps a file's pages dirty once its journal aborted), and
		 * under a pair of a few MiB the pages its writer adds hold that
		 * writer, and every other of the machine, for good (bench/zoo,
		 * shipped, 6.1, usb:error: cp held over 12 min beside a rotational
		 * root disk's start cap); as found, the writer gets its error */
		g->vm_quiet_since = 0;
		if (g->vm_cap)
			vm_give_back(g);
		return;
	}
	if (!any) {
		if (!g->vm_quiet_since)
			g->vm_quiet_since = now_usec;
		if (g->vm_cap && gov_global_release(now_usec - g->vm_quiet_since))
			vm_give_back(g);
		return;
	}
	g->vm_quiet_since = 0;
	cap = gov_global_cap(cap);
	if (cap == g->vm_cap)
		return;
	r = vm_save(g);
	if (r) {
		if (g->hooks.global)
			g->hooks.global(g->hooks.ctx, cap, r);
		return;
	}
	/* background first, as in the first mail: dirty_bytes below the
	 * background threshold would make the kernel halve it. At an eighth
	 * of the cap, as gov_background has it from 6.2 (at half, the flusher
	 * let the device idle after each bio: bench/zoo --bare on 6.1, sd at
	 * 1 and 2 MB/s, 1.040 x the device's time) */
	r = knobs_vm_set(g->ops, g->kctx, VM_DIRTY_BACKGROUND_BYTES, gov_pair_background(cap));
	if (r >= 0)
		r = knobs_vm_set(g->ops, g->kctx, VM_DIRTY_BYTES, cap);
	if (r >= 0)
		g->vm_cap = cap;
	if (g->hooks.global)
		g->hooks.global(g->hooks.ctx, cap, r < 0 ? r : 0);
}

/* Linux 6.2+: while a device under a strict cap below the ceiling holds
 * dirty data, the global background threshold as gov_background says (a
 * strict bdi's own background threshold is its cap times the global
 * background / dirty share: at the kernel's 10/20 the device idles between
 * its bios); given back once none has held any for GOV_VM_QUIET_USEC, and
 * at stop. */
static void background_step(struct governor *g, uint64_t now_usec)
{
	struct gov_background b;
	uint64_t found[VM_KNOB_COUNT];
	bool dirty = false;
	int r = 0;

	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		d->holds_dirty = d->decided && d->dec.govern && d->dec.strict && !d->above_global &&
				 d->dec.max_bytes < d->set.ceiling_bytes && g->pending_bytes &&
				 holds_dirty(g, d, now_usec);
		dirty |= d->holds_dirty;
	}
	if (!dirty) {
		if (!g->vm_quiet_since)
			g->vm_quiet_since = now_usec;
		if (gov_global_release(now_usec - g->vm_quiet_since))
			vm_give_back(g);
		return;
	}
	g->vm_quiet_since = 0;
	if (g->vm_bg || g->vm_bg_settled)
		return;
	g->vm_bg_settled = true;
	if (g->vm_saved)
		memcpy(found, g->vm_orig, sizeof(found));
	for (int k = 0; k < VM_KNOB_COUNT && !r && !g->vm_saved; k++)
		r = g->ops->vm_read(g->kctx, (enum vm_knob)k, &found[k]);
	if (r)
		return;
	gov_background(found, true, &b);
	if (!b.lower)
		return;
	r = vm_save(g);
	if (!r)
		r = knobs_vm_set(g->ops, g->kctx, b.knob, b.value);
	if (r >= 0)
		g->vm_bg = true;
	if (g->hooks.background)
		g->hooks.background(g->hooks.ctx, true, b.knob, found[b.knob], b.value,
				    r < 0 ? r : 0);
}

/* The kernel's global dirty threshold in bytes, from a bdi's knobs: max_bytes
 * reads back as max_ratio_fine ppm of it. 0 when unknown. */
static uint64_t global_thresh(struct governor *g, const struct gov_dev *d)
{
	uint64_t mb, ppm;

	if (g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &mb) ||
	    g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_RATIO_FINE, &ppm))
		return 0;
	return global_thresh_from_bdi(mb, ppm);
}

/* Before 6.14 a cap under 977 ppm of the global threshold leaves the bdi's
 * max_prop_frac at 0 and its threshold at 0 (KERNEL-NOTES 10.3): the
 * smallest cap is then 1000 ppm of it. */
static uint64_t min_cap(const struct governor *g, uint64_t thresh)
{
	if (g->features & KNOBS_WB_FLOOR)
		return 0;
	return thresh / 1000 + PAGE_SIZE;
}

/* One device's counters into its meter. Returns true when a measurement
 * window closed (hooks.measured is for the caller, once it has decided). */
static bool measure(struct governor *g, struct gov_dev *d, const struct knobs_stat *st,
		    uint64_t now_usec)
{
	struct bw_sample s = {
		.now_usec = now_usec, .sectors = st->sectors_written, .ios = st->writes,
		.io_ticks_ms = st->io_ticks_ms, .inflight = st->inflight,
		.cap_bytes = d->decided && d->dec.govern && d->dec.strict ? d->dec.max_bytes : 0,
	};

	/* debugfs costs 48 us a read: read it while something moves or waits
	 * on this device, and, for a device not yet known, while anything
	 * waits in the system (held() looks for its data waiting); a clean
	 * system's idle devices are not read (the meter keeps the last word:
	 * nothing queued) */
	if (d->have_counters && g->ops->bdi_counters &&
	    (st->sectors_written != d->meter.last.sectors || st->inflight || d->counters.writeback ||
	     d->counters.dirty || (!d->meter.known && (g->pending_bytes >= MIB || !d->meter.primed)))) {
		if (g->ops->bdi_counters(g->kctx, d->info.bdi, &d->counters) == 0)
			s.have_wb = true;
		else
			d->have_counters = false;
	}
	s.wb_bytes = d->counters.writeback;
	{
		unsigned n = d->meter.nmeasure;
		bwmeter_sample(&d->meter, &s);
		/* faster than its throttle allows, by half (a window between
		 * two lumps of a throttled loop reads up to a quarter over):
		 * not every writer of it is held by it */
		if (d->meter.nmeasure != n && d->limit_bps && !d->limit_beaten &&
		    d->meter.nmeasure > d->limit_since &&
		    d->meter.last_bps > d->limit_bps + d->limit_bps / 2) {
			d->limit_beaten = true;
			if (g->hooks.limited)
				g->hooks.limited(g->hooks.ctx, d);
		}
		return d->meter.nmeasure != n;
	}
}

/* Failed commands since the last poll, said at most every
 * GOV_IO_ERRORS_USEC (a failing stick fails every write, at every poll). */
static void io_errors(struct governor *g, struct gov_dev *d, const struct knobs_stat *st,
		      uint64_t now_usec)
{
	if (d->have_io_errors && st->have_io_errors && st->io_errors > d->io_errors) {
		d->io_errors_unsaid += st->io_errors - d->io_errors;
		d->failed_usec = now_usec ? now_usec : 1;
	}
	d->io_errors = st->io_errors;
	d->have_io_errors = st->have_io_errors;
	if (d->io_errors_unsaid && (!d->io_errors_said_usec ||
				    now_usec - d->io_errors_said_usec >= GOV_IO_ERRORS_USEC)) {
		if (g->hooks.io_errors)
			g->hooks.io_errors(g->hooks.ctx, d, d->io_errors_unsaid);
		d->io_errors_unsaid = 0;
		d->io_errors_said_usec = now_usec;
	}
}

/* What a device completes per second beyond one cap's worth, over its
 * current window: under a strict cap at most a cap is dirty or in flight at
 * once, so a burst into a slow device's buffer is at most a cap, and what
 * comes beyond it is the device's own pace. 0 without a window yet. */
static uint64_t beyond_cap_bps(const struct gov_dev *d)
{
	const struct bwmeter *m = &d->meter;
	uint64_t bytes = m->win_sectors * 512, cap = d->dec.max_bytes;

	if (!m->win_open || m->win_moves < 2 || !m->win_usec || bytes <= cap)
		return 0;
	return (bytes - cap) / m->win_usec * 1000000 + (bytes - cap) % m->win_usec * 1000000 / m->win_usec;
}

/* Not yet known, and held at a cap it outruns (gov_outruns): look again
 * soon. */
static bool ramping(const struct gov_dev *d)
{
	/* a cap its throttle made: the device cannot go faster (a window
	 * that does beats the throttle, and the cap goes) */
	if (!d->decided || !d->dec.strict || d->meter.known || d->dec.why == WHY_THROTTLED)
		return false;
	return gov_outruns(&d->set, d->dec.max_bytes, beyond_cap_bps(d) * d->set.target_ms / 1000);
}

/* A device not yet known at a strict start cap: this poll's figures, and
 * the start cap gov_ramp_step gives it. */
static void grow_start(struct gov_dev *d)
{
	struct gov_ramp r;

	if (d->meter.known || !d->decided || !d->dec.strict || d->dec.why == WHY_THROTTLED) {
		d->ramp_polls = 0;
		return;
	}
	r.cap_bytes = d->dec.max_bytes;
	r.over_bytes = beyond_cap_bps(d) * d->set.target_ms / 1000;
	r.held = held(d);
	r.slow_kind = gov_slow_kind(&d->info);
	d->boost_bytes = gov_ramp_step(&d->set, &r, &d->ramp_polls, d->boost_bytes);
}

/* What the governor knows of a device for a decision under its settings
 * (d->set, resolved for it). */
static void input_of(struct governor *g, const struct gov_dev *d, uint64_t now_usec,
		     struct gov_input *in)
{
	memset(in, 0, sizeof(*in));
	in->bw_bps = d->meter.est_bps;
	in->known = d->meter.known;
	in->source = d->meter.source;
	in->start_bytes = d->meter.known ? 0 : d->boost_bytes;
	/* before 6.2 only: a per-device strict cap lets the writer of a
	 * failing stick have its EIO (6.12 under qemu: dd and sync got
	 * it); the global pair, a few MiB for the whole machine, held
	 * the writer until the guest's timeout (6.1) */
	in->failing = !(g->features & KNOBS_BDI_BYTES) && d->failed_usec &&
		      (now_usec - d->failed_usec < GOV_FAILING_USEC || d->failed_dirty);
	in->bound_bps = d->limit_beaten ? 0 : d->limit_bps;
	/* the threshold matters to a fast device, and before 6.14 to a slow
	 * one; gov_decide makes the rule */
	if ((g->features & KNOBS_BDI_BYTES) &&
	    (!(g->features & KNOBS_WB_FLOOR) || gov_fast(&d->set, in->bw_bps))) {
		in->global_thresh_bytes = global_thresh(g, d);
		in->min_cap_bytes = min_cap(g, in->global_thresh_bytes);
	}
}

/* How soon to glance again while a device is not yet known. */
static uint64_t glance_usec(const struct governor *g, uint64_t now_usec)
{
	if (g->pending_bytes >= MIB)
		return GOV_GLANCE_BUSY_USEC;
	return now_usec < g->watch_until_usec ? GOV_POLL_WATCH_USEC : GOV_POLL_WATCH_LATE_USEC;
}

/* Between full polls, while a device is not yet known, a glance at
 * /proc/vmstat alone: a full poll is due when its time comes, when a
 * writer wakes an idle system (nr_dirtied moved), or when someone dirties
 * at bulk pace (it may be for the unknown device, held at its start cap;
 * a stick at its cap dirties at its own few MB/s). */
static bool glance_suffices(const struct governor *g, uint64_t now_usec, bool bulk)
{
	if (now_usec >= g->next_full_usec || g->vm_cap || g->vm.dirtied < g->dirtied_at_full || bulk)
		return false;
	return g->busy_at_full || g->vm.dirtied - g->dirtied_at_full < GOV_WATCH_BYTES;
}

/* The next tick after a full poll that wants `delay`: glance sooner while a
 * device is unknown, more often while data waits. */
static uint64_t next_tick(struct governor *g, uint64_t now_usec, uint64_t delay)
{
	uint64_t glance = glance_usec(g, now_usec);

	g->next_full_usec = now_usec + delay;
	return g->unknown && glance < delay ? glance : delay;
}

uint64_t gov_tick(struct governor *g, uint64_t now_usec)
{
	bool ramp = false, unknown = false, moving = false, bulk, quiet;
	uint64_t dirtied0 = g->vm.dirtied, tick0 = g->last_tick_usec;
	bool ticked = g->ticked;

	if (g->ops->vmstat(g->kctx, &g->vm) == 0)
		g->pending_bytes = g->vm.dirty + g->vm.writeback;
	g->last_tick_usec = now_usec;
	g->ticked = true;
	/* someone dirties at bulk pace: if it is for a device not yet known,
	 * which is moving, its start cap must not hold it for 100 ms */
	bulk = ticked && now_usec > tick0 && g->vm.dirtied > dirtied0 &&
	       (g->vm.dirtied - dirtied0) / (now_usec - tick0) >= GOV_BULK_BPS / 1000000;
	if (!g->want_rescan && !g->want_poll && g->last_full_usec && g->unknown &&
	    glance_suffices(g, now_usec, bulk)) {
		uint64_t left = g->next_full_usec - now_usec, glance = glance_usec(g, now_usec);
		return left < glance ? left : glance;
	}
	/* nothing dirtied since the last full poll, nothing waiting, the
	 * first minute past */
	quiet = g->last_full_usec && g->vm.dirtied - g->dirtied_at_full < GOV_WATCH_BYTES &&
		g->pending_bytes < MIB && now_usec >= g->watch_until_usec;
	g->want_poll = false;
	g->last_full_usec = now_usec;
	g->dirtied_at_full = g->vm.dirtied;
	g->busy_at_full = g->pending_bytes >= MIB;
	/* a clock gone back (it should not: CLOCK_MONOTONIC) restarts the count */
	if (now_usec < g->last_rescan_usec || now_usec - g->last_rescan_usec >= GOV_RESCAN_USEC)
		g->want_rescan = true;
	if (g->want_rescan) {
		g->last_rescan_usec = now_usec;
		if (rescan(g))
			g->watch_until_usec = now_usec + GOV_WATCH_FRESH_USEC;
		read_limits(g, now_usec);
	} else if (!g->limits_read || now_usec < g->limits_usec ||
		   (g->pending_bytes >= MIB && now_usec - g->limits_usec >= GOV_LIMITS_USEC)) {
		read_limits(g, now_usec);
	}
	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		struct gov_input in;
		struct knobs_stat st = { 0 };
		struct gov_decision dec;
		bool closed = false;
		int r;

		r = g->ops->dev_stat(g->kctx, &d->info, &st);
		if (r == -ENOENT || r == -ENODEV) {
			g->want_rescan = true; /* it left between two scans */
			continue;
		}
		if (r == 0) {
			/* its disk writes (holds_dirty; not requests in flight,
			 * which count reads too) */
			if (d->meter.primed && st.sectors_written != d->meter.last.sectors)
				d->active_usec = now_usec;
			closed = measure(g, d, &st, now_usec);
			io_errors(g, d, &st, now_usec);
		}
		gov_resolve(&g->cfg, &d->info, &d->set);
		grow_start(d);
		input_of(g, d, now_usec, &in);
		gov_decide(&d->set, &in, &dec);
		d->bw_class = dec.bw_class;
		if (closed && g->hooks.measured)
			g->hooks.measured(g->hooks.ctx, d);
		unknown |= !d->meter.known && dec.govern && dec.strict;
		moving |= !d->meter.known && dec.govern && dec.strict && d->meter.interval_bps;
		if (!(g->features & KNOBS_BDI_BYTES)) {
			/* no per-device knobs: remember, and act globally below */
			if (!d->decided || gov_decision_moved(&d->dec, &dec, GOV_MOVED_WRITE)) {
				d->dec = dec;
				d->decided = true;
				d->decisions++;
				if (g->hooks.decided)
					g->hooks.decided(g->hooks.ctx, d);
			}
			continue;
		}
		if (d->decided && !gov_decision_moved(&d->dec, &dec, GOV_MOVED_WRITE)) {
			/* re-apply only if the kernel drifted the cap: looked at
			 * while the device is written, and now and then while
			 * it idles (an idle machine reads no knob each second) */
			if (d->dec.strict && !d->above_global &&
			    (d->meter.interval_bps || d->counters.dirty || d->counters.writeback ||
			     now_usec - d->drift_usec >= GOV_DRIFT_IDLE_USEC)) {
				uint64_t mb;
				d->drift_usec = now_usec;
				if (g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &mb) == 0 &&
				    !close_enough(mb, d->dec.max_bytes))
					apply(g, d);
			}
		} else {
			d->dec = dec;
			d->decided = true;
			d->drift_usec = now_usec;
			apply(g, d);
			d->decisions++;
			if (g->hooks.decided)
				g->hooks.decided(g->hooks.ctx, d);
		}
		ramp |= ramping(d) || (!d->meter.known && d->decided && d->dec.strict && held(d));
	}
	if (!(g->features & KNOBS_BDI_BYTES)) {
		/* mounts come and go without uevents: look again now and then */
		if (now_usec - g->last_rescan_usec >= GOV_VM_QUIET_USEC)
			g->want_rescan = true;
		global_step(g, now_usec);
	} else {
		background_step(g, now_usec);
	}
	g->unknown = unknown;
	if (ramp || (bulk && moving))
		return next_tick(g, now_usec, GOV_POLL_RAMP_USEC);
	if (g->pending_bytes >= MIB)
		return next_tick(g, now_usec, GOV_POLL_BUSY_USEC);
	return next_tick(g, now_usec, unknown && quiet && !g->want_rescan ? GOV_POLL_QUIET_USEC
								   : GOV_POLL_IDLE_USEC);
}

void gov_last_look(struct governor *g, uint64_t now_usec)
{
	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		struct knobs_stat st = { 0 };
		struct gov_input in;
		struct gov_decision dec;
		if (g->ops->dev_stat(g->kctx, &d->info, &st) || !measure(g, d, &st, now_usec))
			continue;
		/* what the window is worth is the rule's to say: decided, not
		 * applied */
		gov_resolve(&g->cfg, &d->info, &d->set);
		input_of(g, d, now_usec, &in);
		gov_decide(&d->set, &in, &dec);
		d->bw_class = dec.bw_class;
		if (g->hooks.measured)
			g->hooks.measured(g->hooks.ctx, d);
	}
}

int gov_restore(struct governor *g)
{
	int first = vm_give_back(g);

	for (int i = 0; i < g->ndev; i++) {
		enum bdi_attr a;
		int r = restore_dev(g, &g->dev[i], &a);
		if (r && !first)
			first = r;
	}
	return first;
}
