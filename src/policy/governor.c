#include <errno.h>
#include <string.h>

#include "model/units.h"
#include "policy/governor.h"

void gov_init(struct governor *g, const struct gov_config *cfg, const struct knobs_ops *ops,
	      void *kctx, const struct gov_hooks *hooks)
{
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->ops = ops;
	g->kctx = kctx;
	if (hooks)
		g->hooks = *hooks;
	g->want_rescan = true;
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

static int restore_dev(struct governor *g, struct gov_dev *d);

/* A bdi left the list. A pulled disk's bdi is gone with its knobs; a loop
 * device's stays after detach and would hand our cap to its next user, so
 * give back what is still there. */
static void forget(struct governor *g, int i)
{
	restore_dev(g, &g->dev[i]);
	if (g->hooks.gone)
		g->hooks.gone(g->hooks.ctx, &g->dev[i]);
	g->dev[i] = g->dev[--g->ndev];
}

static void rescan(struct governor *g)
{
	int n = g->ops->devices(g->kctx, g->scan, GOV_MAX_DEV);

	g->want_rescan = false;
	if (n < 0)
		return;
	g->features = g->ops->features(g->kctx);
	/* forget what left: a gone bdi has no knobs to give back */
	for (int i = 0; i < g->ndev;) {
		bool found = false;
		for (int j = 0; j < n && !found; j++)
			found = !strcmp(g->dev[i].info.bdi, g->scan[j].bdi);
		if (found)
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
		if (g->ndev == GOV_MAX_DEV)
			break;
		d = &g->dev[g->ndev++];
		memset(d, 0, sizeof(*d));
		d->info = g->scan[j];
		bwmeter_init(&d->meter, d->info.stacked);
	}
}

static int save_orig(struct governor *g, struct gov_dev *d)
{
	int r;

	if (d->saved)
		return 0;
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_STRICT_LIMIT, &d->orig.strict_limit);
	if (!r)
		r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_RATIO_FINE, &d->orig.max_ratio_fine);
	if (!r && g->hooks.save)
		r = g->hooks.save(g->hooks.ctx, d);
	if (!r)
		d->saved = true;
	return r;
}

static void fail(struct gov_dev *d, enum bdi_attr a, int err)
{
	d->err = err;
	d->err_attr = a;
}

/* Put a bdi's knobs back as they were found. */
static int restore_dev(struct governor *g, struct gov_dev *d)
{
	int r1, r2;

	if (!d->changed)
		return 0;
	r1 = knobs_bdi_set(g->ops, g->kctx, d->info.bdi, BDI_STRICT_LIMIT, d->orig.strict_limit);
	r2 = knobs_bdi_set(g->ops, g->kctx, d->info.bdi, BDI_MAX_RATIO_FINE, d->orig.max_ratio_fine);
	if (r1 < 0 && r1 != -ENOENT && r1 != -ENODEV)
		return r1;
	if (r2 < 0 && r2 != -ENOENT && r2 != -ENODEV)
		return r2;
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

static void apply(struct governor *g, struct gov_dev *d)
{
	const struct gov_decision *dec = &d->dec;
	int r;

	d->err = 0;
	d->above_global = false;
	if (!dec->govern || !dec->strict) {
		/* leave the device as it was found */
		r = restore_dev(g, d);
		if (r)
			fail(d, BDI_MAX_RATIO_FINE, r);
		return;
	}
	r = save_orig(g, d);
	if (r) {
		fail(d, BDI_STRICT_LIMIT, r);
		return;
	}
	/* the cap first: strict_limit without a cap bounds nothing */
	r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &d->max_bytes);
	if (!r && !close_enough(d->max_bytes, dec->max_bytes)) {
		d->changed = true;
		r = g->ops->bdi_write(g->kctx, d->info.bdi, BDI_MAX_BYTES, dec->max_bytes);
		if (!r)
			r = g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &d->max_bytes);
	}
	if (r == -EINVAL && d->max_bytes < dec->max_bytes) {
		/* above the current global threshold (or dirtyable memory): the
		 * global limit bounds this device tighter than the cap would */
		d->above_global = true;
		r = restore_dev(g, d);
		if (r)
			fail(d, BDI_MAX_RATIO_FINE, r);
		return;
	}
	if (r) {
		fail(d, BDI_MAX_BYTES, r);
		return;
	}
	r = knobs_bdi_set(g->ops, g->kctx, d->info.bdi, BDI_STRICT_LIMIT, 1);
	if (r > 0)
		d->changed = true;
	if (r < 0)
		fail(d, BDI_STRICT_LIMIT, r);
}

/* Does this (limited) device hold dirty data? The kernel says so in
 * debugfs; without it, a mounted slow device is assumed to while anything
 * in the system is dirty. */
static bool holds_dirty(struct governor *g, const struct gov_dev *d)
{
	uint64_t bytes;

	if (g->ops->bdi_dirty && g->ops->bdi_dirty(g->kctx, d->info.bdi, &bytes) == 0)
		return bytes > 0;
	return d->info.mounted && g->pending_bytes >= MIB;
}

static int vm_give_back(struct governor *g)
{
	int r;

	if (!g->vm_cap)
		return 0;
	r = knobs_vm_restore(g->ops, g->kctx, g->vm_orig, NULL);
	if (r)
		return r;
	g->vm_cap = 0;
	g->vm_saved = false;
	if (g->hooks.restored_vm)
		g->hooks.restored_vm(g->hooks.ctx);
	if (g->hooks.global)
		g->hooks.global(g->hooks.ctx, 0, 0);
	return 0;
}

/* Linux < 6.2 has no per-device caps: while a slow device holds dirty data,
 * the global pair is set to the smallest cap among them (background at
 * half), and given back once none has held any for GOV_VM_QUIET_USEC. */
static void global_step(struct governor *g, uint64_t now_usec)
{
	uint64_t cap = 0;
	int r = 0;

	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		d->holds_dirty = d->decided && d->dec.govern && d->dec.strict && holds_dirty(g, d);
		if (d->holds_dirty && (!cap || d->dec.max_bytes < cap))
			cap = d->dec.max_bytes;
	}
	if (!cap) {
		if (!g->vm_quiet_since)
			g->vm_quiet_since = now_usec;
		if (g->vm_cap && now_usec - g->vm_quiet_since >= GOV_VM_QUIET_USEC)
			vm_give_back(g);
		return;
	}
	g->vm_quiet_since = 0;
	if (cap < 2 * PAGE_SIZE * 2)
		cap = 2 * PAGE_SIZE * 2; /* dirty_bytes must be at least two pages */
	if (cap == g->vm_cap)
		return;
	if (!g->vm_saved) {
		for (int k = 0; k < VM_KNOB_COUNT && !r; k++)
			r = g->ops->vm_read(g->kctx, (enum vm_knob)k, &g->vm_orig[k]);
		if (!r && g->hooks.save_vm)
			r = g->hooks.save_vm(g->hooks.ctx, g->vm_orig);
		if (r) {
			if (g->hooks.global)
				g->hooks.global(g->hooks.ctx, cap, r);
			return;
		}
		g->vm_saved = true;
	}
	/* background first, as in the first mail: dirty_bytes below the
	 * background threshold would make the kernel halve it */
	r = knobs_vm_set(g->ops, g->kctx, VM_DIRTY_BACKGROUND_BYTES, cap / 2);
	if (r >= 0)
		r = knobs_vm_set(g->ops, g->kctx, VM_DIRTY_BYTES, cap);
	if (r >= 0)
		g->vm_cap = cap;
	if (g->hooks.global)
		g->hooks.global(g->hooks.ctx, cap, r < 0 ? r : 0);
}

static bool same_decision(const struct gov_decision *a, const struct gov_decision *b)
{
	return a->govern == b->govern && a->strict == b->strict && a->max_bytes == b->max_bytes &&
	       a->why == b->why;
}

/* The kernel's global dirty threshold in bytes, from a bdi's knobs: max_bytes
 * reads back as max_ratio_fine ppm of it. Read only for a device fast enough
 * for the answer to matter; 0 when unknown. */
static uint64_t global_thresh(struct governor *g, const struct gov_dev *d)
{
	uint64_t mb, ppm;

	if (!d->meter.est_bps || d->meter.est_bps * g->cfg.target_ms / 1000 <= g->cfg.ceiling_bytes)
		return 0;
	if (g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &mb) ||
	    g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_RATIO_FINE, &ppm))
		return 0;
	return global_thresh_from_bdi(mb, ppm);
}

uint64_t gov_tick(struct governor *g, uint64_t now_usec)
{
	uint64_t dirty = 0, writeback = 0;

	if (g->want_rescan)
		rescan(g);
	if (g->ops->meminfo(g->kctx, &dirty, &writeback) == 0)
		g->pending_bytes = dirty + writeback;
	for (int i = 0; i < g->ndev; i++) {
		struct gov_dev *d = &g->dev[i];
		struct knobs_stat st;
		struct gov_decision dec;
		int r;

		r = g->ops->dev_stat(g->kctx, &d->info, &st);
		if (r == -ENOENT || r == -ENODEV) {
			g->want_rescan = true; /* it left between two scans */
			continue;
		}
		if (r == 0)
			bwmeter_sample(&d->meter, now_usec, st.sectors_written, st.io_ticks_ms,
				       g->pending_bytes);
		gov_decide(&g->cfg, &d->info, d->meter.est_bps, global_thresh(g, d), &dec);
		if (!(g->features & KNOBS_BDI_BYTES)) {
			/* no per-device knobs: remember, and act globally below */
			if (!d->decided || !same_decision(&dec, &d->dec)) {
				d->dec = dec;
				d->decided = true;
				if (g->hooks.decided)
					g->hooks.decided(g->hooks.ctx, d);
			}
			continue;
		}
		if (d->decided && same_decision(&dec, &d->dec)) {
			/* re-apply only if the kernel drifted the cap */
			if (dec.strict && !d->above_global) {
				uint64_t mb;
				if (g->ops->bdi_read(g->kctx, d->info.bdi, BDI_MAX_BYTES, &mb) == 0 &&
				    !close_enough(mb, dec.max_bytes))
					apply(g, d);
			}
			continue;
		}
		d->dec = dec;
		d->decided = true;
		apply(g, d);
		if (g->hooks.decided)
			g->hooks.decided(g->hooks.ctx, d);
	}
	if (!(g->features & KNOBS_BDI_BYTES)) {
		/* mounts come and go without uevents: look again now and then */
		if (now_usec - g->last_rescan_usec >= GOV_VM_QUIET_USEC) {
			g->want_rescan = true;
			g->last_rescan_usec = now_usec;
		}
		global_step(g, now_usec);
	}
	return g->pending_bytes >= MIB ? GOV_POLL_BUSY_USEC : GOV_POLL_IDLE_USEC;
}

int gov_restore(struct governor *g)
{
	int first = vm_give_back(g);

	for (int i = 0; i < g->ndev; i++) {
		int r = restore_dev(g, &g->dev[i]);
		if (r && !first)
			first = r;
	}
	return first;
}
