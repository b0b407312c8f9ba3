/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/kernel.h"

/* ---------------------------------------------------------------- state */

enum list_id { L_NONE, L_DIRTY, L_IO, L_MORE_IO };

struct ilist {
	int32_t head, tail;
	uint32_t n;
};

struct inode {
	int dev;
	int task;
	uint64_t dirty;         /* pages, PAGECACHE_TAG_DIRTY */
	uint64_t writeback;     /* pages under writeback */
	uint64_t appended;      /* pages written in order: the write offset */
	uint64_t dirtied_when;  /* jiffies, valid while dirty */
	uint64_t mark;          /* dev->submitted after this inode's last submission */
	uint64_t wb_done_usec;  /* when its writeback last drained */
	int32_t prev, next;
	uint8_t list;
	bool deleted;
	bool stream;
};

/* A request in the device's queue: one bio, or with bio_bytes 0 a run of
 * one file's pages that completes page by page. In the queue `at_usec` is
 * when it was submitted; among the served pages waiting out the device's
 * latency, when they complete, and `last` marks a request's last pages. */
struct req {
	int32_t inode;
	uint32_t pages;
	uint64_t at_usec;
	bool last;
};

/* A ring of requests that grows when full. */
struct ring {
	struct req *v;
	uint32_t cap, head, len;
};

/* An io_end (cfg.io_end_bytes): pages of one file submitted by one
 * ->writepages call, in bios of their own, whose writeback ends when the
 * last of them is written. Open while the call may add pages to it. */
struct ioend {
	int32_t inode;
	uint32_t pages, done;
	bool open;
};

struct device {
	struct sim_dev_cfg cfg;
	struct req *q;
	uint32_t qcap, qhead, qlen;
	struct ring late;         /* served, completing when the latency is over */
	uint64_t late_pages;
	uint64_t queued_pages;    /* in flight: queued or in `late` */
	uint64_t queue_limit_pages;
	uint64_t bio_pages;       /* cfg.bio_bytes in pages; 0: page by page */
	uint64_t ioend_pages;     /* cfg.io_end_bytes in pages; 0: none */
	struct ioend *ioe;        /* in submission order, the open one last */
	uint32_t ioe_cap, ioe_head, ioe_len;
	int32_t open_inode;       /* the tail bio is still being built for it (-1 none) */
	uint64_t requests_done;   /* bios completed (bio_pages != 0) */
	uint64_t head_done_bytes; /* progress into the head request */
	uint64_t credit;          /* bytes * 1e6 carried between ticks */
	uint64_t submitted;       /* pages, cumulative */
	uint64_t completed;
	uint64_t busy_usec;
	uint64_t journal_bytes;   /* the files' metadata waiting for the journal's commit */
	uint64_t commit_jif;      /* ... which is then (0: nothing waits) */
	uint64_t commit_mark;     /* 6.1: the commit ends when `completed` reaches this */
	int seg;                  /* the stretch of cfg.bw[] it is in */
	uint64_t seg_bytes, seg_usec; /* completed bytes and time when it began */
};

enum work_kind { W_NONE, W_SYNC, W_START_ALL, W_KUPDATE, W_BACKGROUND };
enum flusher_phase { PH_WORKS, PH_START_ALL, PH_KUPDATE, PH_BACKGROUND, PH_END };

/* One bdi with its root wb and its flusher. */
struct wb {
	struct bdi_knobs knobs;
	struct fprop_local completions;
	struct wb_bw bw;
	uint64_t reclaimable; /* WB_RECLAIMABLE */
	uint64_t writeback;   /* WB_WRITEBACK */
	uint64_t dirtied;     /* WB_DIRTIED */
	uint64_t written;     /* WB_WRITTEN */
	uint64_t writeback_inodes;
	uint64_t bw_dwork_at; /* 0 = not queued */
	bool dirty_exceeded;
	unsigned max_time_ms; /* 0003's bdi max_time_ms (Gorman), 0 = off */
	bool wt_slow;         /* 0005: written through for its slowness */
	uint32_t nr_stream;
	struct ilist b_dirty, b_io, b_more_io;

	/* flusher */
	bool running;
	bool kick;            /* wb_wakeup() */
	bool start_all;       /* WB_start_all */
	uint64_t wakeup_at;   /* wb_wakeup_delayed(), 0 = none */
	uint64_t last_old_flush;
	uint64_t sync_queued, sync_done;
	uint64_t sync_done_mark; /* dev->submitted when the last sync work finished */
	enum work_kind work;
	enum flusher_phase phase;
	int64_t nr_pages;
	uint64_t dirtied_before;
	bool pass_active;
	uint64_t pass_start;
	uint64_t pass_wrote;
	int32_t cur;          /* inode being written, -1 none */
	uint64_t slice_left;
	uint64_t slice_chunk;
	uint64_t slice_wrote;
};

enum task_state { TS_WAIT_START, TS_WRITE, TS_SLEEP, TS_EARLY, TS_FSYNC_SUBMIT, TS_WAIT_IO, TS_SYNC,
		  TS_THINK, TS_WAIT_DELETE, TS_DONE };

struct task {
	struct sim_task_cfg cfg;
	struct sim_task_stats st;
	struct task_dirty td;
	enum task_state state;
	int cpu;
	uint64_t wake_jif;
	bool bdp_again;
	uint64_t credit;       /* pages * 1e6 */
	uint64_t debt;         /* the same units: a file's cost (file_cost_usec) not yet paid */
	uint64_t budget_pages;
	int32_t first_inode;
	int32_t meta_inode;    /* vfat: its files' metadata, in the device's own
				  page cache (-1: none) */
	uint64_t meta_bytes;   /* ... less than a page of it not yet dirtied */
	uint64_t cur_file;
	uint64_t file_done;    /* pages of the current file */
	uint64_t file_pages;
	uint64_t outstanding;  /* dirty + writeback pages of its files */
	uint64_t wait_mark;    /* TS_WAIT_IO: dev->completed to reach */
	int32_t early_inode;   /* TS_EARLY: the file being written out early */
	int sync_dev;          /* TS_SYNC: which device the sync is at */
	bool sync_queued;
	uint64_t sync_seq;
	bool sync_waiting_io;
	uint64_t iter_start_usec;
	uint64_t think_until_usec;
	bool writes_done;
	bool last_write_pending; /* the last write() is throttled */
};

struct sim_kernel {
	struct sim_kernel_cfg cfg;
	struct kcfg k;
	struct vm_sysctl vm;
	struct wb_domain dom;
	struct fprop_global completions;
	uint64_t ratelimit_pages;
	uint64_t bdi_min_ratio;
	uint64_t cpu_ratelimits[64];
	uint64_t jif, start_jif;
	uint64_t nr_dirty, nr_writeback, file_lru;
	uint64_t mem_pages, kernel_pages, anon_pages, reserve_pages, lowmem_pages;
	/* the series' sysctls (or the proposal's equivalent) */
	uint64_t ratio_max_bytes;    /* 0002: vm.dirty_ratio_max_bytes, 0 = off */
	uint64_t file_writeout_bytes; /* 0004: vm.dirty_file_writeout_bytes */
	uint64_t wt_bps;             /* 0005: vm.dirty_writethrough_bandwidth */
	uint64_t wt_cap_pages;       /* writethrough's least limit */
	uint64_t rng;                /* cfg.seed's jitter: splitmix64's state */
	int ndev, ntask;
	struct device dev[SIM_MAX_DEV];
	struct wb wb[SIM_MAX_DEV];
	struct task task[SIM_MAX_TASK];
	struct inode *ino;
	uint32_t nino;
};

static uint64_t jif_usec(const struct sim_kernel *s, uint64_t jif)
{
	return (jif - s->start_jif) * 1000000ULL / s->k.hz;
}

uint64_t sim_now_usec(const struct sim_kernel *s) { return jif_usec(s, s->jif); }
uint64_t sim_now_jif(const struct sim_kernel *s) { return s->jif; }

/* Make room for one more element in a growing array (doubling). */
static void grow(void **arr, uint32_t *cap, uint32_t len, size_t elem, uint32_t first)
{
	if (len < *cap)
		return;
	*cap = *cap ? *cap * 2 : first;
	*arr = realloc(*arr, elem * *cap);
	if (!*arr)
		abort(); /* a simulation cannot go on without its state */
}

/* ---------------------------------------------------------------- lists */

static void list_del(struct sim_kernel *s, int32_t i)
{
	struct inode *in = &s->ino[i];
	struct wb *w = &s->wb[in->dev];
	struct ilist *l;

	if (in->list == L_NONE)
		return;
	l = in->list == L_DIRTY ? &w->b_dirty : in->list == L_IO ? &w->b_io : &w->b_more_io;
	if (in->prev >= 0)
		s->ino[in->prev].next = in->next;
	else
		l->head = in->next;
	if (in->next >= 0)
		s->ino[in->next].prev = in->prev;
	else
		l->tail = in->prev;
	l->n--;
	in->prev = in->next = -1;
	in->list = L_NONE;
}

static void list_add_tail(struct sim_kernel *s, int32_t i, enum list_id id)
{
	struct inode *in = &s->ino[i];
	struct wb *w = &s->wb[in->dev];
	struct ilist *l = id == L_DIRTY ? &w->b_dirty : id == L_IO ? &w->b_io : &w->b_more_io;

	list_del(s, i);
	in->prev = l->tail;
	in->next = -1;
	if (l->tail >= 0)
		s->ino[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
	l->n++;
	in->list = (uint8_t)id;
}

static bool wb_has_dirty_io(const struct wb *w)
{
	return w->b_dirty.n + w->b_io.n + w->b_more_io.n > 0;
}

/* ------------------------------------------------------- global limits */

static struct mem_counters mem_now(const struct sim_kernel *s)
{
	struct mem_counters m = { 0 };
	uint64_t used = s->kernel_pages + s->anon_pages + s->file_lru;

	m.free_pages = s->mem_pages > used ? s->mem_pages - used : 0;
	m.totalreserve_pages = s->reserve_pages;
	m.file_lru_pages = s->file_lru;
	if (s->k.long_bits == 32 && s->mem_pages > s->lowmem_pages) {
		/* page cache and anonymous memory live in highmem first */
		uint64_t high = s->mem_pages - s->lowmem_pages;
		uint64_t file_high = s->anon_pages < high ? min_u64(s->file_lru, high - s->anon_pages) : 0;
		uint64_t used_high = min_u64(high, s->anon_pages + s->file_lru);
		m.highmem_dirtyable = (high - used_high) + file_high;
	}
	return m;
}

static uint64_t dirtyable(const struct sim_kernel *s)
{
	struct mem_counters m = mem_now(s);
	/* 0002 converts its cap as bytes / PAGE_SIZE: rounding up wrapped
	 * ULONG_MAX to 0 */
	return global_dirtyable_memory(&m, false, s->ratio_max_bytes / PAGE_SIZE);
}

static void global_limits(const struct sim_kernel *s, uint64_t *thresh, uint64_t *bg,
			  uint64_t *avail)
{
	uint64_t a = dirtyable(s);

	domain_dirty_limits(&s->vm, a, false, s->dom.dirty_limit, thresh, bg);
	if (avail)
		*avail = a;
}

void sim_global_limits(const struct sim_kernel *s, uint64_t *ret_thresh, uint64_t *ret_bg,
		       uint64_t *ret_avail)
{
	global_limits(s, ret_thresh, ret_bg, ret_avail);
}

/* ----------------------------------------------------- per-wb limits */

/* 0005's per-wb state, with hysteresis: a wb enters writethrough when its
 * estimate falls below vm.dirty_writethrough_bandwidth and leaves only when
 * it rises above twice that. The estimate is noisy, and under the
 * writethrough limit it measures only what the limit lets through: one
 * threshold would flap, or never let a device with a large
 * bandwidth-delay product out. Evaluated whenever the estimate or the
 * knob changes. */
static void wb_writethrough_update(const struct sim_kernel *s, struct wb *w)
{
	uint64_t knob_pages = bytes_to_pages(s->wt_bps);

	if (!s->wt_bps)
		return; /* off: wb_writethrough() says no, the bit stays */
	if (w->bw.avg_write_bandwidth < knob_pages)
		w->wt_slow = true;
	else if (w->bw.avg_write_bandwidth > 2 * knob_pages)
		w->wt_slow = false;
}

/* 0005's wb_writethrough(): in the slow state above; the writethrough
 * proposal adds Chinner's streams. */
static bool wb_writethrough(const struct sim_kernel *s, const struct wb *w)
{
	return s->wt_bps && (w->wt_slow || w->nr_stream > 0);
}

/* The limit of a written-through wb, pages: at least 1 s of its estimate
 * (a fixed 8 MiB would hold a device with a large bandwidth-delay product
 * below its speed, and the estimate with it); a stream of the proposal's
 * on a wb that is not slow keeps the fixed limit. */
static uint64_t wb_writethrough_limit(const struct sim_kernel *s, const struct wb *w)
{
	return w->wt_slow ? max_u64(s->wt_cap_pages, w->bw.avg_write_bandwidth) : s->wt_cap_pages;
}

static bool wb_strict(const struct sim_kernel *s, const struct wb *w)
{
	return w->knobs.strict || w->max_time_ms || wb_writethrough(s, w);
}

/* The limits the series adds at the end of __wb_calc_thresh(), pages:
 * 0003's max_time_ms of the wb's bandwidth estimate, at least 1 MiB, then
 * scaled like the ratios for a background threshold (the floor first: a
 * background threshold equal to the limit would leave a writer held at
 * the limit with no background writeback, its pages waiting for the 30 s
 * expiry), then 0005's writethrough (no background threshold, at most
 * wb_writethrough_limit()). `T` is the threshold asked for, `thresh` the domain's:
 * T < thresh is the background one. */
static uint64_t series_cap(const struct sim_kernel *s, const struct wb *w, uint64_t wb_thresh,
			   uint64_t T, uint64_t thresh)
{
	bool bg = thresh && T < thresh;

	if (w->max_time_ms) {
		uint64_t t = max_u64(w->bw.avg_write_bandwidth * w->max_time_ms / 1000, MIB / PAGE_SIZE);
		if (bg)
			t = t * T / thresh;
		wb_thresh = min_u64(wb_thresh, t);
	}
	if (wb_writethrough(s, w))
		wb_thresh = bg ? 0 : min_u64(wb_thresh, wb_writethrough_limit(s, w));
	return wb_thresh;
}

/* __wb_calc_thresh() for the threshold `T` of a domain whose dirty
 * threshold is `thresh` */
static uint64_t wb_calc_thresh(const struct sim_kernel *s, struct wb *w, uint64_t T,
			       uint64_t thresh_all, uint64_t dirty)
{
	struct wb_thresh_in in = { 0 };
	uint64_t thresh;

	fprop_fraction((struct fprop_global *)&s->completions, &w->completions, &in.numerator,
		       &in.denominator);
	in.thresh = T;
	in.dirty = dirty;
	in.bdi_min_ratio_sum = s->bdi_min_ratio;
	wb_min_max_ratio(&w->knobs, w->bw.avg_write_bandwidth, w->bw.avg_write_bandwidth,
			 &in.wb_min_ratio, &in.wb_max_ratio);
	in.strict = wb_strict(s, w);
	thresh = wb_calc_thresh_pages(&s->k, &in);
	return series_cap(s, w, thresh, T, thresh_all);
}

/* domain_dirty_avail(gdtc, true) + domain_dirty_limits() */
static void fill_gdtc(const struct sim_kernel *s, struct dtc *d)
{
	memset(d, 0, sizeof(*d));
	global_limits(s, &d->thresh, &d->bg_thresh, &d->avail);
	d->dirty = s->nr_dirty + s->nr_writeback;
}

/* wb_dirty_limits() */
static void wb_dirty_limits(struct sim_kernel *s, struct wb *w, struct dtc *d)
{
	d->wb_thresh = wb_calc_thresh(s, w, d->thresh, d->thresh, d->dirty);
	/* 0005: a written-through wb has no background threshold */
	d->wb_bg_thresh = wb_writethrough(s, w) ? 0 : wb_bg_thresh_of(d);
	d->wb_dirty = w->reclaimable + w->writeback;
}

uint64_t sim_dev_wb_thresh(const struct sim_kernel *s, int dev)
{
	struct dtc d;

	fill_gdtc(s, &d);
	return wb_calc_thresh(s, (struct wb *)&s->wb[dev], d.thresh, d.thresh, d.dirty);
}

/* wb_over_bg_thresh() with wb_bg_dirty_limits() */
static bool wb_over_bg_thresh(struct sim_kernel *s, struct wb *w)
{
	uint64_t thresh, bg;

	global_limits(s, &thresh, &bg, NULL);
	if (s->nr_dirty > bg)
		return true;
	return w->reclaimable > wb_calc_thresh(s, w, bg, thresh, s->nr_dirty);
}

/* ------------------------------------------------------------ bandwidth */

static void wb_update_bandwidth(struct sim_kernel *s, struct wb *w)
{
	wb_update_bandwidth_at(&s->k, &w->bw, &s->dom, NULL, false, false, w->dirtied, w->written,
			       s->jif, w->writeback_inodes > 0 || w->writeback > 0);
	wb_writethrough_update(s, w);
}

/* ------------------------------------------------------------- devices */

/* splitmix64: the jitter's numbers, the same for the same seed everywhere */
static uint64_t rng_next(struct sim_kernel *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* What a device serves in `dt` at `rate`, bytes x 1e6: exact, or with
 * cfg.seed from 0.5x to 1.5x of it, uniformly (its mean unchanged) */
static uint64_t dev_credit(struct sim_kernel *s, uint64_t rate, uint64_t dt)
{
	if (!s->cfg.seed)
		return rate * dt;
	return rate * dt / 1000 * (500 + rng_next(s) % 1001);
}

/* The speed of the stretch of bw[] the device is in. A stretch with
 * for_bytes ends once that much more has completed, one with for_usec once
 * that much more time has passed; the next begins there. */
static uint64_t dev_rate(const struct sim_kernel *s, struct device *d)
{
	uint64_t done = pages_to_bytes(d->completed + d->late_pages), now = sim_now_usec(s);

	while (d->seg < d->cfg.nbw - 1) {
		const struct sim_bw_seg *g = &d->cfg.bw[d->seg];
		if (g->for_bytes ? done < d->seg_bytes + g->for_bytes : now < d->seg_usec + g->for_usec)
			break;
		d->seg++;
		d->seg_bytes = done;
		d->seg_usec = now;
	}
	return d->cfg.bw[d->seg].bps;
}

static uint64_t dev_room(const struct device *d)
{
	return d->queued_pages < d->queue_limit_pages ? d->queue_limit_pages - d->queued_pages : 0;
}

/* What inode `i` may queue now: the device queue's room, and none for a
 * file not yet under writeback while cfg.inflight_files are (its
 * writepages call would wait in start_this_handle() for reserved journal
 * credits, which another's end of writeback gives back). */
static uint64_t inode_room(const struct sim_kernel *s, int32_t i)
{
	const struct inode *in = &s->ino[i];
	const struct device *d = &s->dev[in->dev];

	if (d->cfg.inflight_files && !in->writeback &&
	    s->wb[in->dev].writeback_inodes >= d->cfg.inflight_files)
		return 0;
	return dev_room(d);
}

/* Make room for one more in a ring of `elem`-byte elements holding `len`
 * from `*head`: when full, doubled and unrolled to start at 0. */
static void ring_grow(void **v, size_t elem, uint32_t *cap, uint32_t *head, uint32_t len)
{
	uint32_t ncap;
	char *nv;

	if (len < *cap)
		return;
	ncap = *cap ? *cap * 2 : 64;
	nv = malloc(elem * ncap);
	if (!nv)
		abort(); /* a simulation cannot go on without its state */
	for (uint32_t k = 0; *cap && k < len; k++) /* (a ring never made holds none) */
		memcpy(nv + elem * k, (char *)*v + elem * ((*head + k) % *cap), elem);
	free(*v);
	*v = nv;
	*cap = ncap;
	*head = 0;
}

/* Append a request to a ring, growing it when full. */
static void ring_push(struct req **v, uint32_t *cap, uint32_t *head, uint32_t *len, struct req r)
{
	ring_grow((void **)v, sizeof(**v), cap, head, *len);
	(*v)[(*head + *len) % *cap] = r;
	(*len)++;
}

static void q_push(struct device *d, int32_t i, uint32_t pages, uint64_t now_usec)
{
	ring_push(&d->q, &d->qcap, &d->qhead, &d->qlen, (struct req){ i, pages, now_usec, false });
}

/* Queue `n` pages of inode `i`. With bios (bio_pages), a file's consecutive
 * pages fill the bio being built for it up to bio_pages, as ext4's
 * writepages does; a bio is never shared between files, is closed when the
 * ->writepages call that built it returns (end_writepages()), and one the
 * device has begun to serve takes no more pages. Without, the pages merge
 * into the file's last request without bound and complete page by page. */
static void dev_queue_bios(struct device *d, int32_t i, uint64_t n, uint64_t now_usec)
{
	struct req *tail = d->qlen ? &d->q[(d->qhead + d->qlen - 1) % d->qcap] : NULL;

	if (!d->bio_pages) {
		/* with a latency, pages submitted later are a request of their
		 * own: they cannot complete before their own submission + it */
		if (tail && tail->inode == i && tail->pages + n < UINT32_MAX &&
		    (!d->cfg.latency_usec || tail->at_usec == now_usec))
			tail->pages += (uint32_t)n;
		else
			q_push(d, i, (uint32_t)n, now_usec);
		return;
	}
	while (n) {
		uint64_t add;

		tail = d->qlen ? &d->q[(d->qhead + d->qlen - 1) % d->qcap] : NULL;
		if (tail && d->open_inode == i && tail->inode == i && tail->pages < d->bio_pages &&
		    !(d->qlen == 1 && d->head_done_bytes)) {
			add = min_u64(n, d->bio_pages - tail->pages);
			tail->pages += (uint32_t)add;
			tail->at_usec = now_usec; /* a bio is submitted once built */
		} else {
			add = min_u64(n, d->bio_pages);
			q_push(d, i, (uint32_t)add, now_usec);
		}
		n -= add;
	}
	d->open_inode = i;
}

static struct ioend *ioe_at(struct device *d, uint32_t k)
{
	return &d->ioe[(d->ioe_head + k) % d->ioe_cap];
}

/* Queue `n` pages of inode `i`, in io_ends when the device has them: an
 * io_end takes the pages of its file's call up to ioend_pages, and a new
 * one starts a new bio (ext4_io_submit() at each extent's end). */
static void dev_queue(struct device *d, int32_t i, uint64_t n, uint64_t now_usec)
{
	while (d->ioend_pages && n) {
		struct ioend *e = d->ioe_len ? ioe_at(d, d->ioe_len - 1) : NULL;
		uint64_t add;

		if (!e || !e->open || e->inode != i || e->pages == d->ioend_pages) {
			if (e)
				e->open = false;
			ring_grow((void **)&d->ioe, sizeof(*d->ioe), &d->ioe_cap, &d->ioe_head,
				  d->ioe_len);
			e = ioe_at(d, d->ioe_len++);
			*e = (struct ioend){ i, 0, 0, true };
			d->open_inode = -1; /* a bio of its own */
		}
		add = min_u64(n, d->ioend_pages - e->pages);
		e->pages += (uint32_t)add;
		dev_queue_bios(d, i, add, now_usec);
		n -= add;
	}
	if (n)
		dev_queue_bios(d, i, n, now_usec);
}

static void complete(struct sim_kernel *s, int32_t i, uint64_t n, uint64_t t_usec);

/* End the writeback of the io_ends at the head whose pages are all
 * written and to which no call adds more, at `t`. */
static void ioend_finish(struct sim_kernel *s, struct device *d, uint64_t t)
{
	while (d->ioe_len) {
		struct ioend *e = ioe_at(d, 0);
		if (e->open || e->done < e->pages)
			break;
		complete(s, e->inode, e->pages, t);
		d->ioe_head = (d->ioe_head + 1) % d->ioe_cap;
		d->ioe_len--;
	}
}

/* The ->writepages call returns: its last bio is submitted as it is, and
 * its last io_end takes no more. */
static void end_writepages(struct sim_kernel *s, struct device *d)
{
	d->open_inode = -1;
	if (d->ioe_len) {
		ioe_at(d, d->ioe_len - 1)->open = false;
		ioend_finish(s, d, sim_now_usec(s));
	}
}

/* Put `n` dirty pages of inode `i` under writeback and queue them. */
static void submit(struct sim_kernel *s, int32_t i, uint64_t n)
{
	struct inode *in = &s->ino[i];
	struct device *d = &s->dev[in->dev];
	struct wb *w = &s->wb[in->dev];

	if (!n)
		return;
	if (in->writeback == 0)
		w->writeback_inodes++;
	in->dirty -= n;
	in->writeback += n;
	w->reclaimable -= n;
	w->writeback += n;
	s->nr_dirty -= n;
	s->nr_writeback += n;
	dev_queue(d, i, n, sim_now_usec(s));
	d->queued_pages += n;
	d->submitted += n;
	in->mark = d->submitted;
}

static void task_outstanding_sub(struct sim_kernel *s, int task, uint64_t n, uint64_t t_usec)
{
	struct task *t;

	if (task < 0)
		return;
	t = &s->task[task];
	t->outstanding -= n;
	if (t->outstanding == 0 && t->writes_done && !t->st.durable_usec)
		t->st.durable_usec = t_usec;
}

/* __folio_end_writeback() for `n` pages of inode `i`. */
static void complete(struct sim_kernel *s, int32_t i, uint64_t n, uint64_t t_usec)
{
	struct inode *in = &s->ino[i];
	struct wb *w = &s->wb[in->dev];

	in->writeback -= n;
	w->writeback -= n;
	s->nr_writeback -= n;
	s->dev[in->dev].completed += n;
	w->written += n;
	wb_domain_writeout_add(&s->completions, &w->completions, w->knobs.max_prop_frac, (int64_t)n,
			       s->jif, 3ULL * s->k.hz);
	if (in->deleted)
		s->file_lru -= n; /* freed */
	else
		task_outstanding_sub(s, in->task, n, t_usec);
	if (in->writeback == 0) {
		in->wb_done_usec = t_usec;
		/* wb_inode_writeback_end(): a bandwidth update BANDWIDTH_INTERVAL later */
		w->writeback_inodes--;
		if (!w->bw_dwork_at)
			w->bw_dwork_at = s->jif + bandwidth_interval_jif(&s->k);
	}
}

/* The journal's commit on device `d`: the files' metadata since the last
 * one, queued behind what is queued (jbd2 writes its blocks itself: they
 * take the device's time, not the page cache's counters). */
static void journal_commit(struct sim_kernel *s, struct device *d)
{
	uint64_t n = (d->journal_bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	d->journal_bytes = 0;
	d->commit_jif = 0;
	if (!n || !d->q) /* (the queue is made with the device: for the analyzer) */
		return;
	dev_queue_bios(d, -1, n, sim_now_usec(s));
	d->open_inode = -1;
	d->queued_pages += n;
	d->submitted += n;
	/* 6.1's commit waits for the data under writeback before it as well
	 * (measured: a writer of small files stops for as long, Dirty flat,
	 * while Writeback drains to 0); 6.12's does not */
	if (s->k.kver == KVER_6_1)
		d->commit_mark = d->submitted;
}

/* `n` pages of inode `i` end writeback at `t`; `last`: its request's last.
 * Inode -1: the journal's, in no page cache. */
static void dev_complete(struct sim_kernel *s, struct device *d, int32_t i, uint64_t n, bool last,
			 uint64_t t)
{
	d->queued_pages -= n;
	if (last)
		d->requests_done++;
	if (i < 0) {
		d->completed += n;
		return;
	}
	if (!d->ioend_pages) {
		complete(s, i, n, t);
		return;
	}
	/* written: their io_end's writeback ends with its last page */
	for (uint32_t k = 0; n && k < d->ioe_len; k++) {
		struct ioend *e = ioe_at(d, k);
		uint64_t add = min_u64(n, e->pages - e->done);
		if (e->inode != i || !add)
			continue;
		e->done += (uint32_t)add;
		n -= add;
	}
	ioend_finish(s, d, t);
}

/* Complete the served pages whose latency is over by `until`. */
static uint64_t dev_complete_late(struct sim_kernel *s, struct device *d, uint64_t until)
{
	uint64_t last_t = 0;

	while (d->late.len) {
		struct req r = d->late.v[d->late.head];
		if (r.at_usec > until)
			break;
		d->late.head = (d->late.head + 1) % d->late.cap;
		d->late.len--;
		d->late_pages -= r.pages;
		dev_complete(s, d, r.inode, r.pages, r.last, r.at_usec);
		last_t = r.at_usec;
	}
	return last_t;
}

/* The device writes for one jiffy, in FIFO order. A bio's pages end
 * writeback together when its last byte is written (bio_end_io); without
 * bios, each page as its last byte is written. With a latency, no sooner
 * than their request's submission + latency: served pages wait for that in
 * `late` (in FIFO order too, as both times grow along the queue) while the
 * device serves the next request, so the latency overlaps and takes no
 * bandwidth from a busy device. */
static void dev_tick(struct sim_kernel *s, struct device *d)
{
	uint64_t t0 = sim_now_usec(s);
	uint64_t dt = jif_usec(s, s->jif + 1) - t0;
	uint64_t rate = 1, add, bytes, used = 0, last_t;

	if (!d->qlen) {
		d->credit = 0;
		if (!d->late.len)
			return;
		goto late;
	}
	/* this jiffy's speed, the jitter's included: the times below stay
	 * within the jiffy */
	add = dev_credit(s, dev_rate(s, d), dt);
	d->credit += add;
	rate = max_u64(1, add / dt);
	bytes = d->credit / 1000000ULL;
	d->credit %= 1000000ULL;
	while (d->qlen && used < bytes) {
		struct req *r = &d->q[d->qhead];
		uint64_t left = (uint64_t)r->pages * PAGE_SIZE - d->head_done_bytes;
		uint64_t take = min_u64(left, bytes - used);
		uint64_t before = d->head_done_bytes / PAGE_SIZE;
		uint64_t after, n;

		d->head_done_bytes += take;
		used += take;
		after = d->head_done_bytes / PAGE_SIZE;
		n = after - before;
		if (d->bio_pages && after < r->pages)
			n = 0; /* the bio is not done */
		else if (d->bio_pages)
			n = r->pages;
		if (n) {
			uint64_t t = t0 + used * 1000000ULL / (rate ? rate : 1);
			uint64_t ready = r->at_usec + d->cfg.latency_usec;
			int32_t ino = r->inode;
			bool last = after == r->pages;
			if (last) {
				d->qhead = (d->qhead + 1) % d->qcap;
				d->qlen--;
				d->head_done_bytes = 0;
			}
			if (!d->cfg.latency_usec) {
				dev_complete(s, d, ino, n, last, t);
			} else {
				ring_push(&d->late.v, &d->late.cap, &d->late.head, &d->late.len,
					  (struct req){ ino, (uint32_t)n, max_u64(t, ready), last });
				d->late_pages += n;
			}
		}
	}
late:
	last_t = dev_complete_late(s, d, t0 + dt);
	if (d->qlen || d->late.len) {
		d->busy_usec += dt;
	} else {
		/* busy until its last byte, or its last completion */
		d->busy_usec += max_u64(used * 1000000ULL / (rate ? rate : 1), last_t ? last_t - t0 : 0);
		d->credit = 0;
	}
}

/* ------------------------------------------------------------- flusher */

static void wb_wakeup(struct wb *w) { w->kick = true; }

/* wb_wakeup_delayed(): never postpones an earlier wakeup */
static void wb_wakeup_delayed(struct sim_kernel *s, struct wb *w)
{
	uint64_t at;

	if (!s->vm.dirty_writeback_centisecs)
		return;
	at = s->jif + msecs_to_jiffies(&s->k, s->vm.dirty_writeback_centisecs * 10ULL);
	if (!w->wakeup_at || at < w->wakeup_at)
		w->wakeup_at = at;
}

static uint64_t expire_jif(const struct sim_kernel *s)
{
	return msecs_to_jiffies(&s->k, s->vm.dirty_expire_centisecs * 10ULL);
}

/* queue_io(): b_more_io first, then the b_dirty inodes dirtied before the
 * cutoff, oldest first (b_dirty is kept in dirtied_when order). */
static void queue_io(struct sim_kernel *s, struct wb *w, uint64_t dirtied_before)
{
	while (w->b_more_io.head >= 0)
		list_add_tail(s, w->b_more_io.head, L_IO);
	while (w->b_dirty.head >= 0 && s->ino[w->b_dirty.head].dirtied_when <= dirtied_before)
		list_add_tail(s, w->b_dirty.head, L_IO);
}

/* redirty_tail_locked() */
static void redirty_tail(struct sim_kernel *s, struct wb *w, int32_t i)
{
	struct inode *in = &s->ino[i];

	if (w->b_dirty.tail >= 0 && in->dirtied_when < s->ino[w->b_dirty.tail].dirtied_when)
		in->dirtied_when = s->jif;
	list_add_tail(s, i, L_DIRTY);
}

/* requeue_inode() */
static void requeue_inode(struct sim_kernel *s, struct wb *w, int32_t i, bool sync_all,
			  bool slice_used_up)
{
	struct inode *in = &s->ino[i];

	if (in->deleted)
		return;
	if (in->dirty && sync_all)
		in->dirtied_when = s->jif; /* sync livelock prevention */
	if (in->dirty) {
		if (slice_used_up && in->dirtied_when <= w->dirtied_before)
			list_add_tail(s, i, L_MORE_IO);
		else
			redirty_tail(s, w, i);
	} else {
		list_del(s, i);
	}
}

static bool sync_queued(const struct wb *w) { return w->sync_queued > w->sync_done; }

/* Start the next inode of the current work; false when none is left. */
static bool start_slice(struct sim_kernel *s, struct wb *w)
{
	int32_t i;
	bool sync_all = w->work == W_SYNC;

	i = w->b_io.head;
	if (i < 0)
		return false;
	list_del(s, i);
	w->cur = i;
	wb_bandwidth_estimate_start(&s->k, &w->bw, w->dirtied, w->written, s->jif,
				    w->writeback_inodes > 0);
	w->slice_chunk = writeback_chunk_size(w->bw.avg_write_bandwidth, s->dom.dirty_limit,
					      (uint64_t)(w->nr_pages > 0 ? w->nr_pages : 0), sync_all);
	/* WB_SYNC_ALL writes the pages tagged now (tag_pages_for_writeback) */
	w->slice_left = sync_all ? s->ino[i].dirty : w->slice_chunk;
	w->slice_wrote = 0;
	return true;
}

static void end_slice(struct sim_kernel *s, struct wb *w)
{
	int32_t i = w->cur;
	bool sync_all = w->work == W_SYNC;
	bool used_up = !sync_all && w->slice_wrote >= w->slice_chunk;

	w->cur = -1;
	end_writepages(s, &s->dev[w - s->wb]);
	requeue_inode(s, w, i, sync_all, used_up);
	/* do_writepages(): update the estimate once in a while */
	if (s->jif > w->bw.bw_time_stamp + bandwidth_interval_jif(&s->k))
		wb_update_bandwidth(s, w);
	if (w->nr_pages != INT64_MAX)
		w->nr_pages -= (int64_t)w->slice_wrote;
	w->pass_wrote += w->slice_wrote;
}

enum step_result { STEP_BLOCKED, STEP_DONE };

/* wb_writeback() + writeback_sb_inodes() as a resumable state machine:
 * submission stops (and resumes next jiffy) when the device queue is full. */
static enum step_result wb_writeback_step(struct sim_kernel *s, struct wb *w)
{
	int guard = 0;

	while (guard++ < 100000) {
		if (w->cur >= 0) {
			struct inode *in = &s->ino[w->cur];
			uint64_t want = min_u64(w->slice_left, in->dirty);
			uint64_t n = min_u64(want, inode_room(s, w->cur));

			if (in->deleted)
				want = n = 0;
			submit(s, w->cur, n);
			w->slice_left -= n;
			w->slice_wrote += n;
			if (n < want)
				return STEP_BLOCKED;
			end_slice(s, w);
			/* bail out to wb_writeback() every 100 ms to re-check */
			if (w->pass_wrote && (s->jif >= w->pass_start + s->k.hz / 10 || w->nr_pages <= 0))
				w->pass_active = false;
			else if (start_slice(s, w))
				continue;
			else
				w->pass_active = false;
			if (w->pass_wrote == 0 && w->b_more_io.n == 0)
				return STEP_DONE;
			continue;
		}
		/* the head of wb_writeback()'s loop */
		if (w->nr_pages <= 0)
			return STEP_DONE;
		if ((w->work == W_BACKGROUND || w->work == W_KUPDATE) && sync_queued(w))
			return STEP_DONE;
		if (w->work == W_BACKGROUND && !wb_over_bg_thresh(s, w))
			return STEP_DONE;
		if (w->b_io.n == 0) {
			if (w->work == W_KUPDATE)
				w->dirtied_before = s->jif > expire_jif(s) ? s->jif - expire_jif(s) : 0;
			else if (w->work == W_BACKGROUND)
				w->dirtied_before = s->jif;
			queue_io(s, w, w->dirtied_before);
		}
		w->pass_active = true;
		w->pass_start = s->jif;
		w->pass_wrote = 0;
		if (!start_slice(s, w))
			return STEP_DONE; /* nothing to write */
	}
	return STEP_DONE;
}

static void finish_work(struct sim_kernel *s, struct wb *w)
{
	if (w->work == W_SYNC) {
		w->sync_done++;
		w->sync_done_mark = s->dev[w - s->wb].submitted;
	}
	w->work = W_NONE;
	w->pass_active = false;
}

/* The next work of one wb_do_writeback() pass: queued works, start-all,
 * kupdate, background, each checked once per pass; W_NONE ends the pass. */
static enum work_kind next_work(struct sim_kernel *s, struct wb *w)
{
	uint64_t interval = msecs_to_jiffies(&s->k, s->vm.dirty_writeback_centisecs * 10ULL);

	w->dirtied_before = s->jif;
	w->nr_pages = INT64_MAX;
	switch (w->phase) {
	case PH_WORKS:
		if (sync_queued(w))
			return W_SYNC;
		w->phase = PH_START_ALL;
		/* fall through */
	case PH_START_ALL: /* wb_check_start_all() */
		w->phase = PH_KUPDATE;
		if (w->start_all) {
			w->start_all = false;
			w->nr_pages = (int64_t)s->nr_dirty;
			return W_START_ALL;
		}
		/* fall through */
	case PH_KUPDATE: /* wb_check_old_data_flush() */
		w->phase = PH_BACKGROUND;
		if (s->vm.dirty_writeback_centisecs && s->jif >= w->last_old_flush + interval) {
			w->last_old_flush = s->jif;
			if (s->nr_dirty) {
				w->nr_pages = (int64_t)s->nr_dirty;
				return W_KUPDATE;
			}
		}
		/* fall through */
	case PH_BACKGROUND: /* wb_check_background_flush() */
		w->phase = PH_END;
		if (wb_over_bg_thresh(s, w))
			return W_BACKGROUND;
		/* fall through */
	case PH_END:
		break;
	}
	return W_NONE;
}

/* wb_workfn(): passes of wb_do_writeback() while works are queued, then
 * sleep until the next wakeup. */
static void flusher_run(struct sim_kernel *s, struct wb *w)
{
	int guard = 0;

	if (!w->running) {
		bool due = w->wakeup_at && s->jif >= w->wakeup_at;
		if (!(w->kick || due || sync_queued(w) || w->start_all))
			return;
		w->running = true;
		w->kick = false;
		if (due)
			w->wakeup_at = 0;
		w->phase = PH_WORKS;
	}
	while (guard++ < 64) {
		if (w->work == W_NONE) {
			w->work = next_work(s, w);
			if (w->work == W_NONE) {
				if (sync_queued(w)) {
					w->phase = PH_WORKS; /* another pass */
					continue;
				}
				w->running = false;
				if (wb_has_dirty_io(w))
					wb_wakeup_delayed(s, w);
				return;
			}
		}
		if (wb_writeback_step(s, w) == STEP_BLOCKED)
			return;
		finish_work(s, w);
	}
}

/* wakeup_flusher_threads(): start-all on every wb with dirty inodes. */
static void wakeup_flusher_threads(struct sim_kernel *s)
{
	for (int d = 0; d < s->ndev; d++)
		if (wb_has_dirty_io(&s->wb[d]))
			s->wb[d].start_all = true;
}

/* --------------------------------------------------------------- writes */

/* folio_account_dirtied() + __mark_inode_dirty() for `n` newly dirty pages. */
static void account_dirtied(struct sim_kernel *s, struct task *t, int32_t i, uint64_t n)
{
	struct inode *in = &s->ino[i];
	struct wb *w = &s->wb[in->dev];

	if (in->dirty == 0) {
		if (!wb_has_dirty_io(w))
			wb_wakeup_delayed(s, w);
		in->dirtied_when = s->jif;
		if (in->list == L_NONE)
			list_add_tail(s, i, L_DIRTY);
	}
	in->dirty += n;
	in->appended += n;
	w->reclaimable += n;
	w->dirtied += n;
	s->nr_dirty += n;
	s->file_lru += n;
	t->outstanding += n;
	t->td.nr_dirtied += n;
	s->cpu_ratelimits[t->cpu] += n;
	if (!in->stream && s->cfg.wt_stream_bytes &&
	    in->appended >= bytes_to_pages(s->cfg.wt_stream_bytes)) {
		in->stream = true;
		w->nr_stream++;
	}
}

static void record_pause(struct sim_kernel *s, struct task *t, uint64_t pause_jif)
{
	uint64_t us = pause_jif * 1000000ULL / s->k.hz;

	t->st.total_pause_usec += us;
	if (us > t->st.max_pause_usec)
		t->st.max_pause_usec = us;
}

/* balance_dirty_pages(): one pass; returns the pause in jiffies (0: go on). */
static uint64_t balance_dirty_pages(struct sim_kernel *s, struct task *t, struct wb *w)
{
	struct dtc d;
	bool strict = wb_strict(s, w);
	uint64_t pause, task_ratelimit;
	bool again;
	struct bdp_throttle_in in;

	fill_gdtc(s, &d);
	if (strict)
		wb_dirty_limits(s, w, &d);
	d.freerun = domain_dirty_freerun(&d, strict);
	if (!w->running && (s->nr_dirty > d.bg_thresh ||
			    (s->k.bdp_start == BDP_START_WB && strict && d.wb_dirty > d.wb_bg_thresh)))
		wb_wakeup(w); /* wb_start_background_writeback() */
	if (wb_writethrough(s, w) && w->reclaimable && !w->running)
		wb_wakeup(w); /* writethrough: I/O starts at once */
	if (d.freerun) {
		bdp_freerun_exit(&t->td, s->jif,
				 strict ? dirty_poll_interval(d.wb_dirty, d.wb_thresh)
					: dirty_poll_interval(d.dirty, d.thresh));
		return 0;
	}
	if (!w->running && s->k.bdp_start != BDP_START_GLOBAL)
		wb_wakeup(w);
	/* balance_wb_limits() */
	if (!strict)
		wb_dirty_limits(s, w, &d);
	d.dirty_exceeded = wb_dirty_exceeded(&d, strict);
	d.limit = hard_dirty_limit(&s->dom, d.thresh);
	wb_position_ratio_kver(&d, strict, w->bw.avg_write_bandwidth, s->k.kver);
	w->dirty_exceeded = d.dirty_exceeded;
	if (s->jif > w->bw.bw_time_stamp + bandwidth_interval_jif(&s->k)) {
		wb_update_bandwidth_at(&s->k, &w->bw, &s->dom, &d, strict, true, w->dirtied,
				       w->written, s->jif, w->writeback_inodes > 0 || w->writeback > 0);
		wb_writethrough_update(s, w);
	}
	in = (struct bdp_throttle_in){
		.pages_dirtied = t->td.nr_dirtied,
		.now = s->jif,
		.dirty_ratelimit = w->bw.dirty_ratelimit,
		.avg_write_bw = w->bw.avg_write_bandwidth,
		.pos_ratio = d.pos_ratio,
		.wb_dirty = d.wb_dirty,
		.wb_stat_error = wb_stat_error(&s->k),
	};
	pause = bdp_throttle(&s->k, &t->td, &in, &task_ratelimit, &again);
	t->bdp_again = again;
	return pause;
}

/* balance_dirty_pages_ratelimited(): maybe throttle; returns the pause. */
static uint64_t bdp_ratelimited(struct sim_kernel *s, struct task *t, struct wb *w)
{
	if (!bdp_ratelimited_enter(&t->td, w->dirty_exceeded, &s->cpu_ratelimits[t->cpu],
				   s->ratelimit_pages))
		return 0;
	return balance_dirty_pages(s, t, w);
}

/* Pages the task can dirty before balance_dirty_pages_ratelimited() next
 * lets it in: the per-task poll interval or the per-CPU ratelimit. */
static uint64_t pages_until_check(const struct sim_kernel *s, const struct task *t,
				  const struct wb *w)
{
	uint64_t rl = t->td.nr_dirtied_pause, a, b;

	if (w->dirty_exceeded)
		rl = min_u64(rl, 32 >> (PAGE_SHIFT - 10));
	a = rl > t->td.nr_dirtied ? rl - t->td.nr_dirtied : 1;
	b = s->ratelimit_pages > s->cpu_ratelimits[t->cpu] ?
		    s->ratelimit_pages - s->cpu_ratelimits[t->cpu] : 1;
	return max_u64(1, min_u64(a, b));
}

static void task_sleep(struct sim_kernel *s, struct task *t, uint64_t pause)
{
	record_pause(s, t, pause);
	t->wake_jif = s->jif + pause;
	t->state = TS_SLEEP;
}

/* A WB_SYNC_ALL ->writepages of inode `i`: true when all its dirty pages
 * are queued, false when the queue filled up. */
static bool writepages_all(struct sim_kernel *s, int32_t i)
{
	struct inode *in = &s->ino[i];
	struct device *d = &s->dev[in->dev];

	if (!in->dirty || in->deleted)
		return true;
	submit(s, i, min_u64(in->dirty, inode_room(s, i)));
	if (in->dirty)
		return false;
	list_del(s, i);
	end_writepages(s, d);
	return true;
}

/* Submit the task's dirty pages (WB_SYNC_ALL write of its files, as fsync
 * does); true when all are queued, false when the queue filled up. */
static bool fsync_submit(struct sim_kernel *s, struct task *t)
{
	uint64_t nfiles = t->cfg.kind == TASK_FSYNC_LOOP ? 1 : t->cfg.files;
	struct device *d = &s->dev[t->cfg.dev];

	for (uint64_t f = 0; f < nfiles && f <= t->cur_file; f++)
		if (!writepages_all(s, t->first_inode + (int32_t)f))
			return false;
	/* vfat's fsync writes the file's metadata buffers too
	 * (sync_mapping_buffers()): here, all of them */
	if (t->meta_inode >= 0 && !writepages_all(s, t->meta_inode))
		return false;
	t->wait_mark = t->meta_inode >= 0 ? s->ino[t->meta_inode].mark : 0;
	for (uint64_t f = 0; f < nfiles && f <= t->cur_file; f++)
		t->wait_mark = max_u64(t->wait_mark, s->ino[t->first_inode + (int32_t)f].mark);
	/* then a new file's fsync commits the journal and waits for that too
	 * (ext4_sync_file(): the data, then jbd2's commit) */
	if (d->journal_bytes) {
		journal_commit(s, d);
		t->wait_mark = d->submitted;
	}
	return true;
}

/* 0004: did the write of the last `n` pages of `in` pass a boundary of
 * vm.dirty_file_writeout_bytes? */
static bool passed_piece(const struct sim_kernel *s, const struct inode *in, uint64_t n)
{
	uint64_t piece = bytes_to_pages(s->file_writeout_bytes);

	return piece && in->appended / piece > (in->appended - n) / piece;
}

/* 0004's file_dirty_writeout(), which the writer calls from
 * generic_write_sync() when its write passed a piece boundary: the file's
 * dirty pages below the boundary, submitted by the writer itself
 * (WB_SYNC_NONE, nr_to_write LONG_MAX), which waits for room in the
 * device's queue as submit_bio() waits for a request. The file is written in
 * order and the flusher cleans its oldest pages first, so its dirty pages
 * are the last `dirty` below the write offset. True when all are queued. */
static bool early_writeout(struct sim_kernel *s, int32_t i)
{
	struct inode *in = &s->ino[i];
	struct device *d = &s->dev[in->dev];
	uint64_t piece = bytes_to_pages(s->file_writeout_bytes), open_piece;

	if (!piece || in->deleted)
		return true;
	open_piece = in->appended % piece;
	if (in->dirty > open_piece)
		submit(s, i, min_u64(in->dirty - open_piece, inode_room(s, i)));
	if (in->dirty > open_piece)
		return false;
	end_writepages(s, d);
	return true;
}

static void task_finish(struct sim_kernel *s, struct task *t)
{
	t->state = TS_DONE;
	t->st.finished = true;
	(void)s;
}

static void delete_files(struct sim_kernel *s, struct task *t)
{
	for (uint64_t f = 0; f < t->cfg.files && f <= t->cur_file; f++) {
		int32_t i = t->first_inode + (int32_t)f;
		struct inode *in = &s->ino[i];
		struct wb *w = &s->wb[in->dev];

		if (in->deleted)
			continue;
		/* truncate: dirty pages are cancelled, never written */
		w->reclaimable -= in->dirty;
		s->nr_dirty -= in->dirty;
		s->file_lru -= in->dirty;
		task_outstanding_sub(s, (int)(t - s->task), in->dirty, sim_now_usec(s));
		t->outstanding -= in->writeback; /* they reach the device, but not for this task */
		in->dirty = 0;
		in->deleted = true;
		if (in->stream)
			w->nr_stream--;
		list_del(s, i);
		/* its clean pages are left to reclaim */
	}
}

static void after_writes(struct sim_kernel *s, struct task *t, uint64_t t_usec)
{
	t->writes_done = true;
	t->st.write_return_usec = t_usec;
	for (int d = 0; d < s->ndev; d++) {
		t->st.return_dirty[d] = sim_dev_dirty(s, d);
		t->st.return_writeback[d] = sim_dev_writeback(s, d);
	}
	if (t->outstanding == 0 && !t->st.durable_usec)
		t->st.durable_usec = t_usec;
	t->st.end_call_usec = t_usec;
	switch (t->cfg.end) {
	case END_SYNC:
		wakeup_flusher_threads(s);
		t->state = TS_SYNC;
		t->sync_dev = 0;
		t->sync_queued = false;
		break;
	case END_FSYNC:
		t->state = TS_FSYNC_SUBMIT;
		break;
	case END_NONE:
		if (t->cfg.delete_at_usec)
			t->state = TS_WAIT_DELETE;
		else
			task_finish(s, t);
		break;
	}
}

static void end_call_done(struct sim_kernel *s, struct task *t)
{
	t->st.end_done_usec = sim_now_usec(s);
	if (t->cfg.delete_at_usec)
		t->state = TS_WAIT_DELETE;
	else
		task_finish(s, t);
}

static bool foreground_running(const struct sim_kernel *s)
{
	for (int i = 0; i < s->ntask; i++)
		if (!s->task[i].cfg.background && s->task[i].state != TS_DONE)
			return true;
	return false;
}

/* balance_dirty_pages() loops while task_ratelimit is 0: after its sleep the
 * task re-enters it before dirtying more. True when it sleeps again. */
static bool throttle_again(struct sim_kernel *s, struct task *t, struct wb *w)
{
	uint64_t pause;

	if (!t->bdp_again)
		return false;
	t->bdp_again = false;
	pause = balance_dirty_pages(s, t, w);
	if (pause)
		task_sleep(s, t, pause);
	return pause != 0;
}

/* A new file: its cost (creating, opening, closing it) in the writer's
 * time, its pages at the writer's rate in that time; its metadata for the
 * journal's next commit (ext4) or in the device's page cache (vfat). */
static void new_file(struct sim_kernel *s, struct task *t)
{
	struct device *d = &s->dev[t->cfg.dev];

	t->debt += bytes_to_pages(t->cfg.rate_bps) * t->cfg.file_cost_usec;
	if (!t->cfg.file_meta_bytes)
		return;
	if (t->meta_inode >= 0) {
		/* dirtied as the writer's own pages are: counted, throttled,
		 * written by the flusher and by sync */
		t->meta_bytes += t->cfg.file_meta_bytes;
		if (t->meta_bytes >= PAGE_SIZE)
			account_dirtied(s, t, t->meta_inode, t->meta_bytes / PAGE_SIZE);
		t->meta_bytes %= PAGE_SIZE;
		return;
	}
	d->journal_bytes += t->cfg.file_meta_bytes;
	/* the commit timer runs from its transaction's start, which may be
	 * before the copy: with a seed, anywhere in the interval */
	if (!d->commit_jif)
		d->commit_jif = s->jif + (s->cfg.seed ? 1 + rng_next(s) % (JOURNAL_COMMIT_SEC * s->k.hz)
						     : JOURNAL_COMMIT_SEC * s->k.hz);
}

/* A file's cost first, from what the writer has this tick (`budget`,
 * pages) and the credit it carries: the writer does nothing else
 * meanwhile. False while some is left to pay; else `budget` is what
 * remains. */
static bool pay_debt(struct task *t, uint64_t *budget)
{
	uint64_t pay;

	t->credit += *budget * 1000000ULL;
	pay = min_u64(t->debt, t->credit);
	t->debt -= pay;
	t->credit -= pay;
	*budget = t->credit / 1000000ULL;
	t->credit %= 1000000ULL;
	return !t->debt;
}

/* Whether the copy's next file must wait to begin. vfat: its cluster
 * allocation copies the FAT block to the second FAT under the buffer's
 * lock (fat_mirror_bhs()), which a write of the block holds until it
 * completes: not while the metadata is under writeback (measured: the
 * writer of small files sleeps there most of its time). ext4: it needs
 * the journal, not while 6.1's commit waits. */
static bool new_file_waits(const struct sim_kernel *s, const struct task *t)
{
	const struct device *d = &s->dev[t->cfg.dev];

	if (t->file_done || t->last_write_pending || !t->cfg.file_meta_bytes)
		return false;
	if (t->meta_inode >= 0)
		return s->ino[t->meta_inode].writeback != 0;
	return d->commit_mark > d->completed;
}

/* A copy task writes files sequentially as fast as its source allows. */
static void run_copy(struct sim_kernel *s, struct task *t, uint64_t t0, uint64_t dt)
{
	uint64_t budget, per_tick;

	t->credit += bytes_to_pages(t->cfg.rate_bps) * dt;
	budget = 0;
	if (!pay_debt(t, &budget))
		return;
	per_tick = budget ? budget : 1;
	while (t->state == TS_WRITE) {
		int32_t i = t->first_inode + (int32_t)t->cur_file;
		struct wb *w = &s->wb[s->ino[i].dev];
		uint64_t n, pause;

		if (!pay_debt(t, &budget) || !budget)
			return;

		if (throttle_again(s, t, w))
			return;
		if (new_file_waits(s, t))
			return;
		n = min_u64(budget, t->file_pages - t->file_done);
		n = min_u64(n, pages_until_check(s, t, w));
		account_dirtied(s, t, i, n);
		t->file_done += n;
		t->st.written_bytes += pages_to_bytes(n);
		budget -= n;
		if (t->file_done == t->file_pages) {
			t->cur_file++;
			t->file_done = 0;
			if (t->cur_file == t->cfg.files) {
				t->cur_file--; /* stays on the last file */
				t->last_write_pending = true;
			} else {
				new_file(s, t);
			}
		}
		/* 0004: the write passed a piece boundary of the file */
		if (passed_piece(s, &s->ino[i], n) && !early_writeout(s, i)) {
			t->early_inode = i;
			t->state = TS_EARLY;
			return;
		}
		pause = bdp_ratelimited(s, t, w);
		if (pause) {
			task_sleep(s, t, pause);
			return;
		}
		if (t->last_write_pending) {
			t->last_write_pending = false;
			after_writes(s, t, t0 + (per_tick - budget) * dt / per_tick);
			return;
		}
	}
}

/* An fsync-happy program: one small write + fdatasync per period. */
static void run_fsync_loop(struct sim_kernel *s, struct task *t, uint64_t t0)
{
	int32_t i = t->first_inode;
	struct wb *w = &s->wb[s->ino[i].dev];
	uint64_t n = max_u64(1, bytes_to_pages(t->cfg.file_bytes)), pause;

	if (t->bdp_again) {
		if (!throttle_again(s, t, w))
			t->state = TS_FSYNC_SUBMIT;
		return;
	}
	t->iter_start_usec = t0;
	account_dirtied(s, t, i, n);
	t->st.written_bytes += pages_to_bytes(n);
	pause = bdp_ratelimited(s, t, w);
	if (pause) {
		task_sleep(s, t, pause);
		return;
	}
	t->state = TS_FSYNC_SUBMIT;
}

static void record_latency(struct sim_task_stats *st, uint64_t us)
{
	uint32_t cap = (uint32_t)st->cap_lat;

	grow((void **)&st->lat_usec, &cap, (uint32_t)st->nlat, sizeof(*st->lat_usec), 256);
	st->cap_lat = cap;
	st->lat_usec[st->nlat++] = us;
}

static void task_tick(struct sim_kernel *s, struct task *t)
{
	uint64_t t0 = sim_now_usec(s), dt = jif_usec(s, s->jif + 1) - t0;
	int guard = 0;

	while (guard++ < 8) {
		switch (t->state) {
		case TS_WAIT_START:
			if (t0 < t->cfg.start_usec)
				return;
			t->state = TS_WRITE;
			t->st.write_return_usec = 0;
			if (t->cfg.kind == TASK_COPY)
				new_file(s, t); /* the first file's */
			if (t->cfg.kind == TASK_FSYNC_LOOP)
				t->iter_start_usec = t0;
			continue;
		case TS_WRITE:
			if (t->cfg.background && !foreground_running(s)) {
				task_finish(s, t);
				return;
			}
			if (t->cfg.kind == TASK_COPY) {
				run_copy(s, t, t0, dt);
				if (t->state == TS_WRITE)
					return;
			} else {
				run_fsync_loop(s, t, t0);
			}
			continue;
		case TS_SLEEP:
			if (s->jif < t->wake_jif)
				return;
			t->state = TS_WRITE;
			if (t->bdp_again)
				continue;
			if (t->cfg.kind == TASK_FSYNC_LOOP) {
				t->state = TS_FSYNC_SUBMIT;
				continue;
			}
			if (t->last_write_pending) {
				t->last_write_pending = false;
				after_writes(s, t, t0);
			}
			continue;
		case TS_EARLY: /* then on as after a pause */
			if (!early_writeout(s, t->early_inode))
				return;
			t->state = TS_SLEEP;
			t->wake_jif = s->jif;
			continue;
		case TS_FSYNC_SUBMIT:
			if (!fsync_submit(s, t))
				return;
			t->state = TS_WAIT_IO;
			continue;
		case TS_WAIT_IO: {
			struct device *d = &s->dev[t->cfg.dev];
			if (d->completed < t->wait_mark)
				return;
			if (t->cfg.kind == TASK_FSYNC_LOOP) {
				uint64_t done = s->ino[t->first_inode].wb_done_usec;
				record_latency(&t->st, done > t->iter_start_usec ? done - t->iter_start_usec : 0);
				t->state = TS_THINK;
				t->think_until_usec = t->iter_start_usec + t->cfg.period_usec;
				continue;
			}
			end_call_done(s, t);
			return;
		}
		case TS_THINK:
			if (t->cfg.background && !foreground_running(s)) {
				task_finish(s, t);
				return;
			}
			if (t0 < t->think_until_usec)
				return;
			t->state = TS_WRITE;
			continue;
		case TS_SYNC: {
			/* sync(2): each superblock in turn: a WB_SYNC_ALL work, then
			 * wait_sb_inodes() for everything under writeback */
			struct wb *w;
			if (t->sync_dev >= s->ndev) {
				end_call_done(s, t);
				return;
			}
			w = &s->wb[t->sync_dev];
			if (!t->sync_queued) {
				/* sync_fs(): the journal's commit, waited for with the rest */
				journal_commit(s, &s->dev[t->sync_dev]);
				t->sync_seq = ++w->sync_queued;
				t->sync_queued = true;
				t->sync_waiting_io = false;
				wb_wakeup(w);
				flusher_run(s, w);
			}
			if (!t->sync_waiting_io) {
				if (w->sync_done < t->sync_seq)
					return;
				t->sync_waiting_io = true;
				t->wait_mark = w->sync_done_mark;
			}
			if (s->dev[t->sync_dev].completed < t->wait_mark)
				return;
			t->sync_dev++;
			t->sync_queued = false;
			continue;
		}
		case TS_WAIT_DELETE:
			if (t0 < t->cfg.delete_at_usec)
				return;
			delete_files(s, t);
			task_finish(s, t);
			return;
		case TS_DONE:
			return;
		}
	}
}

/* ------------------------------------------------------------ the tick */

/* kswapd, roughly: keep free memory above the reserve by dropping clean
 * page cache. */
static void reclaim(struct sim_kernel *s)
{
	uint64_t used = s->kernel_pages + s->anon_pages + s->file_lru;
	uint64_t low = s->reserve_pages + s->reserve_pages / 4;
	uint64_t free_pages = s->mem_pages > used ? s->mem_pages - used : 0;

	if (free_pages < low) {
		uint64_t clean = s->file_lru - s->nr_dirty - s->nr_writeback;
		s->file_lru -= min_u64(clean, low - free_pages + s->reserve_pages);
	}
}

void sim_step(struct sim_kernel *s)
{
	if (s->completions.period_time && s->jif >= s->completions.period_time)
		writeout_period(&s->completions, s->jif, 3ULL * s->k.hz);
	for (int d = 0; d < s->ndev; d++) {
		struct wb *w = &s->wb[d];
		if (w->bw_dwork_at && s->jif >= w->bw_dwork_at) {
			w->bw_dwork_at = 0;
			wb_update_bandwidth(s, w);
		}
		flusher_run(s, w);
	}
	for (int i = 0; i < s->ntask; i++)
		task_tick(s, &s->task[i]);
	for (int d = 0; d < s->ndev; d++)
		flusher_run(s, &s->wb[d]);
	for (int d = 0; d < s->ndev; d++) {
		struct device *dv = &s->dev[d];
		if (dv->commit_jif && s->jif >= dv->commit_jif)
			journal_commit(s, dv);
		dev_tick(s, dv);
	}
	reclaim(s);
	s->jif++;
}

bool sim_done(const struct sim_kernel *s, bool until_clean)
{
	if (foreground_running(s))
		return false;
	if (until_clean && (s->nr_dirty || s->nr_writeback))
		return false;
	return true;
}

/* --------------------------------------------------------- construction */

static uint64_t usec_to_jif(const struct sim_kernel_cfg *cfg, uint64_t usec)
{
	return usec * cfg->k.hz / 1000000;
}

static uint64_t max_idle_jif(const struct sim_kernel_cfg *cfg, const struct sim_dev_cfg *devs,
			     int ndev)
{
	uint64_t m = 0;

	for (int d = 0; d < ndev; d++)
		m = max_u64(m, usec_to_jif(cfg, devs[d].idle_usec));
	return m;
}

/* A copy of files with metadata to a vfat device: that metadata is an
 * inode of its own, the device's page cache. */
static bool has_meta_inode(const struct sim_task_cfg *t, const struct sim_dev_cfg *devs)
{
	return t->kind == TASK_COPY && t->file_meta_bytes && devs[t->dev].fs == SIM_FS_VFAT;
}

struct sim_kernel *sim_kernel_new(const struct sim_kernel_cfg *cfg, const struct sim_dev_cfg *devs,
				  int ndev, const struct sim_task_cfg *tasks, int ntask)
{
	struct sim_kernel *s;
	uint64_t thresh, bg;
	uint32_t nino = 0;

	if (ndev < 1 || ndev > SIM_MAX_DEV || ntask > SIM_MAX_TASK || cfg->k.ncpus > 64 ||
	    !cfg->k.hz || cfg->kver > KVER_6_1)
		return NULL;
	for (int d = 0; d < ndev; d++)
		if (devs[d].nbw < 1 || devs[d].nbw > SIM_MAX_BW_SEG || !devs[d].bw[devs[d].nbw - 1].bps)
			return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->k = cfg->k;
	s->k.kver = cfg->kver; /* the model's arithmetic reads it from kcfg */
	s->k.bw_idle_restart = cfg->series;
	/* jiffy 0 means "unset" in places; the idlest device's bdi was
	 * registered at jiffy hz */
	s->start_jif = s->jif = cfg->k.hz + max_idle_jif(cfg, devs, ndev);
	vm_sysctl_defaults(&s->vm);
	fprop_global_init(&s->completions);
	s->mem_pages = bytes_to_pages(cfg->mem_bytes);
	s->kernel_pages = bytes_to_pages(cfg->kernel_bytes);
	s->anon_pages = bytes_to_pages(cfg->anon_bytes);
	s->reserve_pages = bytes_to_pages(cfg->reserve_bytes);
	s->lowmem_pages = bytes_to_pages(cfg->lowmem_bytes);
	/* the proposals as the series' knobs would set them */
	s->ratio_max_bytes = cfg->cap_1g ? GIB : 0;
	s->file_writeout_bytes = cfg->per_file_bytes;
	s->wt_bps = cfg->limit_mode == LIMIT_WRITETHROUGH ? cfg->wt_slow_bps : 0;
	s->wt_cap_pages = bytes_to_pages(cfg->wt_cap_bytes ? cfg->wt_cap_bytes : WT_CAP_BYTES);
	s->rng = cfg->seed;
	s->ndev = ndev;
	for (int d = 0; d < ndev; d++) {
		struct device *dv = &s->dev[d];
		struct wb *w = &s->wb[d];

		dv->cfg = devs[d];
		dv->bio_pages = bytes_to_pages(devs[d].bio_bytes);
		if (devs[d].bio_bytes && !dv->bio_pages)
			dv->bio_pages = 1;
		dv->open_inode = -1;
		/* vfat: one bio a ->writepages call of a file, whose pages
		 * end writeback together */
		dv->ioend_pages = devs[d].fs == SIM_FS_VFAT ? UINT32_MAX :
							      bytes_to_pages(devs[d].io_end_bytes);
		/* a device takes at least one whole bio; queue_bytes 0 is a
		 * queue without bound (blk-throttle holds bios above the request
		 * queue, however many) */
		dv->queue_limit_pages = devs[d].queue_bytes ?
			max_u64(max_u64(1, bytes_to_pages(devs[d].queue_bytes)), dv->bio_pages) :
			UINT64_MAX;
		dv->qcap = 64;
		dv->q = malloc(sizeof(*dv->q) * dv->qcap);
		bdi_knobs_init(&w->knobs);
		if (devs[d].share == SHARE_FUSE) {
			/* fuse_bdi_init(): BDI_CAP_STRICTLIMIT, max_ratio 1 */
			w->knobs.strict = true;
			bdi_set_max_ratio_ppm(&w->knobs, 10000);
		}
		if (cfg->limit_mode == LIMIT_TIME)
			w->max_time_ms = cfg->time_limit_ds * 100;
		fprop_local_init(&w->completions);
		/* the estimate's clock started when the bdi was registered: an
		 * update after more than its 3 s period divides what was
		 * written by all that time */
		wb_bw_init(&w->bw, s->jif - usec_to_jif(cfg, devs[d].idle_usec));
		w->b_dirty = w->b_io = w->b_more_io = (struct ilist){ -1, -1, 0 };
		w->cur = -1;
		w->last_old_flush = s->jif;
		if (!dv->q) {
			sim_kernel_free(s);
			return NULL;
		}
	}
	for (int i = 0; i < ntask; i++)
		nino += (uint32_t)(tasks[i].kind == TASK_FSYNC_LOOP ? 1 : tasks[i].files) +
			(has_meta_inode(&tasks[i], devs) ? 1 : 0);
	s->ino = calloc(nino ? nino : 1, sizeof(*s->ino));
	if (!s->ino) {
		sim_kernel_free(s);
		return NULL;
	}
	s->nino = nino;
	s->ntask = ntask;
	nino = 0;
	for (int i = 0; i < ntask; i++) {
		struct task *t = &s->task[i];
		uint32_t nf = (uint32_t)(tasks[i].kind == TASK_FSYNC_LOOP ? 1 : tasks[i].files);

		t->cfg = tasks[i];
		t->cpu = i % (int)cfg->k.ncpus;
		task_dirty_init(&t->td);
		t->state = TS_WAIT_START;
		t->first_inode = (int32_t)nino;
		t->file_pages = bytes_to_pages(tasks[i].file_bytes);
		t->meta_inode = has_meta_inode(&tasks[i], devs) ? (int32_t)(nino + nf++) : -1;
		for (uint32_t f = 0; f < nf; f++) {
			struct inode *in = &s->ino[nino++];
			in->dev = tasks[i].dev;
			in->task = i;
			in->prev = in->next = -1;
		}
	}
	global_limits(s, &thresh, &bg, NULL);
	s->ratelimit_pages = writeback_set_ratelimit(&s->k, &s->dom, thresh);
	s->dom.dirty_limit_tstamp = s->jif;
	return s;
}

void sim_kernel_free(struct sim_kernel *s)
{
	if (!s)
		return;
	for (int d = 0; d < SIM_MAX_DEV; d++) {
		free(s->dev[d].q);
		free(s->dev[d].late.v);
		free(s->dev[d].ioe);
	}
	for (int i = 0; i < s->ntask; i++)
		free(s->task[i].st.lat_usec);
	free(s->ino);
	free(s);
}

/* ------------------------------------------------------------ accessors */

enum sim_kver sim_kver(const struct sim_kernel *s) { return s->k.kver; }
enum bdp_start sim_bdp_start(const struct sim_kernel *s) { return s->k.bdp_start; }
int sim_ndev(const struct sim_kernel *s) { return s->ndev; }
int sim_ntask(const struct sim_kernel *s) { return s->ntask; }
const struct sim_dev_cfg *sim_dev_cfg(const struct sim_kernel *s, int dev) { return &s->dev[dev].cfg; }
const struct sim_task_stats *sim_task_stats(const struct sim_kernel *s, int task) { return &s->task[task].st; }
const struct sim_task_cfg *sim_task_cfg(const struct sim_kernel *s, int task) { return &s->task[task].cfg; }
uint64_t sim_global_dirty(const struct sim_kernel *s) { return s->nr_dirty; }
uint64_t sim_global_writeback(const struct sim_kernel *s) { return s->nr_writeback; }
uint64_t sim_dev_dirty(const struct sim_kernel *s, int dev) { return s->wb[dev].reclaimable; }

uint64_t sim_global_dirtied(const struct sim_kernel *s)
{
	uint64_t n = 0;

	for (int d = 0; d < s->ndev; d++)
		n += s->wb[d].dirtied;
	return n;
}

uint64_t sim_global_written(const struct sim_kernel *s)
{
	uint64_t n = 0;

	for (int d = 0; d < s->ndev; d++)
		n += s->wb[d].written;
	return n;
}
uint64_t sim_dev_writeback(const struct sim_kernel *s, int dev) { return s->wb[dev].writeback; }
uint64_t sim_dev_kernel_bw(const struct sim_kernel *s, int dev) { return s->wb[dev].bw.avg_write_bandwidth; }

uint64_t sim_dev_written_bytes(const struct sim_kernel *s, int dev)
{
	return pages_to_bytes(s->dev[dev].completed);
}

void sim_dev_stat(const struct sim_kernel *s, int dev, struct sim_dev_stat *ret)
{
	const struct device *d = &s->dev[dev];

	if (d->bio_pages) {
		/* a request counts when it completes, with all its sectors */
		ret->sectors_written = pages_to_bytes(d->completed) / 512;
		ret->writes = d->requests_done;
	} else {
		/* completed pages, plus the part of a page the device is writing */
		ret->sectors_written = (pages_to_bytes(d->completed) + d->head_done_bytes % PAGE_SIZE) / 512;
		/* the queue merges a file's pages without bound; count the
		 * requests a real block layer would have made of them */
		ret->writes = d->completed / 32;
	}
	ret->io_ticks_ms = d->busy_usec / 1000;
	ret->inflight = d->qlen + d->late.len;
}

/* ---------------------------------------------------------------- knobs */

const char *const sim_vm_names[SIM_VM_COUNT] = {
	VM_KNOB_NAMES,
	[SIM_VM_DIRTY_RATIO_MAX_BYTES] = "dirty_ratio_max_bytes",
	[SIM_VM_DIRTY_FILE_WRITEOUT_BYTES] = "dirty_file_writeout_bytes",
	[SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH] = "dirty_writethrough_bandwidth",
};

const char *const sim_bdi_names[SIM_BDI_COUNT] = {
	BDI_ATTR_NAMES,
	[SIM_BDI_MAX_TIME_MS] = "max_time_ms",
};

static void set_ratelimit(struct sim_kernel *s)
{
	uint64_t thresh, bg;

	global_limits(s, &thresh, &bg, NULL);
	s->ratelimit_pages = writeback_set_ratelimit(&s->k, &s->dom, thresh);
}

/* The series' sysctls, with its handlers' checks */
static int series_vm_write(struct sim_kernel *s, int knob, uint64_t value)
{
	if (!s->cfg.series)
		return -ENOENT;
	switch (knob) {
	case SIM_VM_DIRTY_RATIO_MAX_BYTES:
		/* 0 or at least 32 MiB: a few pages would give thresholds of 0 */
		if (value && value < RATIO_MAX_BYTES_MIN)
			return -EINVAL;
		/* recomputes the ratelimit when changed */
		if (value != s->ratio_max_bytes) {
			s->ratio_max_bytes = value;
			set_ratelimit(s);
		}
		return 0;
	case SIM_VM_DIRTY_FILE_WRITEOUT_BYTES: /* 0 or whole pages, at least 1 MiB */
		if (value && (value < MIB || value % PAGE_SIZE))
			return -EINVAL;
		s->file_writeout_bytes = value;
		return 0;
	case SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH: /* at most INIT_BW, 100 MiB/s (extra2) */
		if (value > 100 * MIB)
			return -EINVAL;
		s->wt_bps = value;
		/* each wb enters or leaves by its estimate now; 0 leaves the
		 * state bits as they are (the kernel does not walk its wbs) */
		for (int d = 0; d < s->ndev; d++)
			wb_writethrough_update(s, &s->wb[d]);
		return 0;
	}
	return -EINVAL;
}

int sim_vm_write(struct sim_kernel *s, int knob, uint64_t value)
{
	struct vm_write_effect eff;
	int r;

	if (knob < 0 || knob >= SIM_VM_COUNT)
		return -EINVAL;
	if (knob >= VM_KNOB_COUNT)
		return series_vm_write(s, knob, value);
	r = vm_sysctl_write(&s->vm, (enum vm_knob)knob, value, &eff);
	if (r)
		return r;
	if (eff.set_ratelimit)
		set_ratelimit(s);
	if (eff.flush_all)
		wakeup_flusher_threads(s);
	return 0;
}

uint64_t sim_vm_read(const struct sim_kernel *s, int knob)
{
	switch (knob) {
	case SIM_VM_DIRTY_RATIO_MAX_BYTES: return s->ratio_max_bytes;
	case SIM_VM_DIRTY_FILE_WRITEOUT_BYTES: return s->file_writeout_bytes;
	case SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH: return s->wt_bps;
	}
	return knob >= 0 && knob < VM_KNOB_COUNT ? vm_sysctl_get(&s->vm, (enum vm_knob)knob) : 0;
}

int sim_bdi_write(struct sim_kernel *s, int dev, int attr, uint64_t value)
{
	struct bdi_knobs *b = &s->wb[dev].knobs;
	uint64_t thresh, bg, avail;

	if (attr == SIM_BDI_MAX_TIME_MS) { /* 0003: at most a minute */
		if (!s->cfg.series)
			return -ENOENT;
		if (value > 60000)
			return -EINVAL;
		s->wb[dev].max_time_ms = (unsigned)value;
		return 0;
	}

	/* 6.1 has only max_ratio and min_ratio: the rest came with 6.2 */
	if (s->cfg.kver == KVER_6_1 && attr != BDI_MAX_RATIO && attr != BDI_MIN_RATIO)
		return -ENOENT;
	global_limits(s, &thresh, &bg, &avail);
	switch (attr) {
	case BDI_STRICT_LIMIT:
		if (value > 1)
			return -EINVAL;
		b->strict = value == 1;
		return 0;
	case BDI_MAX_BYTES: return bdi_set_max_bytes(b, value, avail, thresh);
	case BDI_MIN_BYTES: return bdi_set_min_bytes(b, value, avail, thresh, &s->bdi_min_ratio);
	case BDI_MAX_RATIO:
		if (value > 100)
			return -EINVAL;
		return bdi_set_max_ratio_ppm(b, value * BDI_RATIO_SCALE);
	case BDI_MIN_RATIO:
		if (value > 100)
			return -EINVAL;
		return bdi_set_min_ratio_ppm(b, value * BDI_RATIO_SCALE, &s->bdi_min_ratio);
	case BDI_MAX_RATIO_FINE: return bdi_set_max_ratio_ppm(b, value);
	case BDI_MIN_RATIO_FINE: return bdi_set_min_ratio_ppm(b, value, &s->bdi_min_ratio);
	case BDI_ATTR_COUNT: break;
	}
	return -EINVAL;
}

uint64_t sim_bdi_read(const struct sim_kernel *s, int dev, int attr)
{
	const struct bdi_knobs *b = &s->wb[dev].knobs;
	uint64_t thresh, bg;

	if (attr == SIM_BDI_MAX_TIME_MS)
		return s->wb[dev].max_time_ms;
	global_limits(s, &thresh, &bg, NULL);
	switch (attr) {
	case BDI_STRICT_LIMIT: return b->strict;
	case BDI_MAX_BYTES: return bdi_get_bytes(&s->k, b->max_ratio, thresh);
	case BDI_MIN_BYTES: return bdi_get_bytes(&s->k, b->min_ratio, thresh);
	case BDI_MAX_RATIO: return b->max_ratio / BDI_RATIO_SCALE;
	case BDI_MIN_RATIO: return b->min_ratio / BDI_RATIO_SCALE;
	case BDI_MAX_RATIO_FINE: return b->max_ratio;
	case BDI_MIN_RATIO_FINE: return b->min_ratio;
	case BDI_ATTR_COUNT: break;
	}
	return 0;
}
