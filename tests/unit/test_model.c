/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/model: the kernel's dirty-throttling arithmetic.
 *
 * Every expected value below is worked out by hand from the formulas in
 * docs/kernel-notes.md (Linux 6.12–6.18, mm/page-writeback.c,
 * lib/flex_proportions.c, fs/fs-writeback.c); the arithmetic is in the
 * comment next to the assertion. Units: 4 KiB pages, jiffies, ppm ratios
 * (1,000,000 = 100 %), pos_ratio 1.0 = 1024. "/" truncates. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/balance.h"
#include "model/bandwidth.h"
#include "model/bdi.h"
#include "model/fprop.h"
#include "model/limits.h"
#include "model/units.h"

#include "rows.h"

static const struct kcfg K1000 = { .hz = 1000, .long_bits = 64, .ncpus = 16 };
static const struct kcfg K250 = { .hz = 250, .long_bits = 64, .ncpus = 4 };
static const struct kcfg K32 = { .hz = 1000, .long_bits = 32, .ncpus = 1 };
static const struct kcfg K612 = { .hz = 1000, .long_bits = 64, .ncpus = 16, .kver = KVER_6_12 };
static const struct kcfg K61_32 = { .hz = 1000, .long_bits = 32, .ncpus = 1, .kver = KVER_6_1 };

/* ------------------------------------------------------------------ */
/* §1.1 global_dirtyable_memory()                                      */
/* ------------------------------------------------------------------ */

static struct mem_counters mem(uint64_t free_pages, uint64_t reserve, uint64_t file_lru,
			       uint64_t highmem)
{
	struct mem_counters m;

	memset(&m, 0, sizeof(m));
	m.free_pages = free_pages;
	m.totalreserve_pages = reserve;
	m.file_lru_pages = file_lru;
	m.highmem_dirtyable = highmem;
	return m;
}

/* global_dirtyable_memory(m, highmem_is_dirtyable, cap_pages) */
static const struct dirtyable_row {
	const char *name;
	uint64_t free_pages, reserve, file_lru, highmem; /* the counters */
	bool highmem_is_dirtyable;
	uint64_t cap_pages;
	uint64_t want;
} dirtyable_rows[] = {
	/* x = F - min(F, R) + file = 100000 - 20000 + 50000 = 130000; avail = x + 1 */
	{ "reserve and file LRU", 100000, 20000, 50000, 0, false, 0, 130001 },
	/* highmem_is_dirtyable changes nothing when H = 0 (64-bit) */
	{ "highmem_is_dirtyable without highmem", 100000, 20000, 50000, 0, true, 0, 130001 },
	/* F - min(F, R) = 10000 - 10000 = 0, + file 50000, + 1 */
	{ "reserve above free", 10000, 20000, 50000, 0, false, 0, 50001 },
	/* x = 0 -> avail = 0 + 1 */
	{ "never zero", 0, 0, 0, 0, false, 0, 1 },
	/* x = 130000; x -= min(H = 30000, x) -> 100000; + 1 */
	{ "highmem subtracted", 100000, 20000, 50000, 30000, false, 0, 100001 },
	/* highmem_is_dirtyable = 1: H not subtracted -> 130000 + 1 */
	{ "highmem dirtyable", 100000, 20000, 50000, 30000, true, 0, 130001 },
	/* H = 500000 > x = 130000: x -= min(H, x) -> 0; + 1 */
	{ "highmem above all", 100000, 20000, 50000, 500000, false, 0, 1 },
	/* 1 GiB = 1073741824 / 4096 = 262144 pages; x = 4000000 > 262144 -> 262144 + 1 */
	{ "cap-1g on 16 GB", 4000000, 0, 0, 0, false, GIB / PAGE_SIZE, 262145 },
	/* without the option: 4000000 + 1 */
	{ "16 GB uncapped", 4000000, 0, 0, 0, false, 0, 4000001 },
	/* the patch sits inside `if (!vm_highmem_is_dirtyable)`: no cap when dirtyable */
	{ "cap-1g with highmem dirtyable", 4000000, 0, 0, 0, true, GIB / PAGE_SIZE, 4000001 },
	/* x = 262144 is not > 262144: unchanged, + 1 */
	{ "cap-1g at exactly 1 GiB", 262144, 0, 0, 0, false, GIB / PAGE_SIZE, 262145 },
	/* x = 200000 < cap: 200000 + 1 */
	{ "cap-1g below 1 GiB", 200000, 0, 0, 0, false, GIB / PAGE_SIZE, 200001 },
	/* highmem first: 300000 - 50000 = 250000 < 262144, + 1 */
	{ "cap-1g after highmem", 300000, 0, 0, 50000, false, GIB / PAGE_SIZE, 250001 },
};

static void test_dirtyable(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(dirtyable_rows); i++) {
		const struct dirtyable_row *r = &dirtyable_rows[i];
		struct mem_counters m = mem(r->free_pages, r->reserve, r->file_lru, r->highmem);

		row_int_equal(r, global_dirtyable_memory(&m, r->highmem_is_dirtyable, r->cap_pages),
			      r->want);
	}
}

/* ------------------------------------------------------------------ */
/* §2.1 domain_dirty_limits()                                          */
/* ------------------------------------------------------------------ */

/* domain_dirty_limits() from the four knobs as they stand (set directly,
 * not through vm_sysctl_write(): no twin is zeroed here) */
static const struct limits_row {
	const char *name;
	uint64_t dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes;
	uint64_t avail;
	bool rt_task;
	uint64_t dom_dirty_limit;
	uint64_t want_thresh, want_bg;
} limits_rows[] = {
	/* ratio_q = 20*4096/100 = 819 (819.2), bg_ratio_q = 10*4096/100 = 409 (409.6)
	 * thresh = 819*100000/4096 = 81900000/4096 = 19995 (19995.1)
	 * bg     = 409*100000/4096 = 40900000/4096 = 9985 (9985.35) */
	{ "ratios quantised", 20, 10, 0, 0, 100000, false, 0, 19995, 9985 },
	/* avail = 4096: exactly 819 and 409 (not 20 % = 819.2 / 409.6) */
	{ "ratios of 4096 pages", 20, 10, 0, 0, 4096, false, 0, 819, 409 },
	/* thresh = 0*... = 0; bg = 9985 >= 0 -> bg = 0/2 = 0 (no lower bound) */
	{ "dirty_ratio 0", 0, 10, 0, 0, 100000, false, 0, 0, 0 },
	/* 48 MiB = 50331648 / 4096 = 12288 exactly; ceil(16777217 / 4096) = 4096 + 1 = 4097 */
	{ "bytes rounded up", 0, 0, 48 * MIB, 16 * MIB + 1, 100000, false, 0, 12288, 4097 },
	/* ceil(8193/4096) = 3; ceil(4095/4096) = 1 */
	{ "bytes below a page", 0, 0, 8193, 4095, 100000, false, 0, 3, 1 },
	/* dirty_bytes 48 MiB = 12288 pages; bg stays a ratio: 409*100000/4096 = 9985 < 12288 */
	{ "bytes beside a ratio", 0, 10, 48 * MIB, 0, 100000, false, 0, 12288, 9985 },
	/* thresh = 409*100000/4096 = 9985; bg = 19995 >= 9985 -> 9985/2 = 4992 */
	{ "bg above thresh halved", 10, 20, 0, 0, 100000, false, 0, 9985, 4992 },
	/* equal counts as >=: both 9985 -> bg = 4992 */
	{ "bg equal to thresh halved", 10, 10, 0, 0, 100000, false, 0, 9985, 4992 },
	/* bytes: thresh = 8192/4096 = 2; bg = 16 MiB = 4096 pages >= 2 -> 2/2 = 1 */
	{ "bg bytes above thresh bytes", 0, 0, 8192, 16 * MIB, 100000, false, 0, 2, 1 },
	/* D = dom.dirty_limit = 32000 -> D/32 = 1000
	 * bg     = 9985 + 9985/4 + 1000 = 9985 + 2496 + 1000 = 13481
	 * thresh = 19995 + 19995/4 + 1000 = 19995 + 4998 + 1000 = 25993 */
	{ "rt boost", 20, 10, 0, 0, 100000, true, 32000, 25993, 13481 },
	/* not rt: D ignored */
	{ "no rt boost", 20, 10, 0, 0, 100000, false, 32000, 19995, 9985 },
	/* UINT_MAX pages each; boost: thresh = 4294967295 + 1073741823 + 0 > UINT_MAX
	 * -> UINT_MAX = 4294967295; bg = 4294967295 + 1073741823 = 5368709118 >= thresh
	 * -> thresh/2 = 2147483647 */
	{ "rt boost, then the clamp, then the bg rule", 0, 0, 4294967295ULL * 4096,
	  4294967295ULL * 4096, 100000, true, 0, 4294967295ULL, 2147483647ULL },
};

static void test_limits(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(limits_rows); i++) {
		const struct limits_row *r = &limits_rows[i];
		struct vm_sysctl vm;
		uint64_t thresh, bg;

		vm_sysctl_defaults(&vm);
		vm.dirty_ratio = r->dirty_ratio;
		vm.dirty_background_ratio = r->dirty_background_ratio;
		vm.dirty_bytes = r->dirty_bytes;
		vm.dirty_background_bytes = r->dirty_background_bytes;
		domain_dirty_limits(&vm, r->avail, r->rt_task, r->dom_dirty_limit, &thresh, &bg);
		row_int_equal(r, thresh, r->want_thresh);
		row_int_equal(r, bg, r->want_bg);
	}
}

/* ------------------------------------------------------------------ */
/* §2.2 sysctl writes                                                  */
/* ------------------------------------------------------------------ */

/* vm_sysctl_write(), one write a row: a row with .defaults starts from the
 * kernel's defaults (20 %, 10 %, bytes off, 3000, 500), the others go on
 * from the row above. A row checks the value returned and what it names
 * after it, nothing else; .no_effect passes NULL for the effect. */
enum sysctl_out {
	END, /* the end of a row's checks */
	RATIO, BG_RATIO, BYTES, BG_BYTES, EXPIRE, WRITEBACK, /* the knob, vm_sysctl_get() */
	SET_RATELIMIT, FLUSH_ALL,                            /* the effect */
};
#define UINT_MAX_PAGES_BYTES 17592186040320ULL /* UINT_MAX pages = 4294967295 * 4096 bytes */
static const struct sysctl_row {
	const char *name;
	bool defaults, no_effect;
	enum vm_knob knob;
	uint64_t value;
	int want_ret;
	struct {
		enum sysctl_out out;
		uint64_t v;
	} want[4];
} sysctl_rows[] = {
	/* the last one written wins */
	{ "dirty_bytes zeroes its twin", true, false, VM_DIRTY_BYTES, 48 * MIB, 0,
	  { { BYTES, 50331648 }, { RATIO, 0 }, { SET_RATELIMIT, true } } }, /* 48 * 1048576 */
	/* 15 != 0: changed -> bytes zeroed */
	{ "dirty_ratio zeroes its twin", false, false, VM_DIRTY_RATIO, 15, 0,
	  { { RATIO, 15 }, { BYTES, 0 }, { SET_RATELIMIT, true } } },
	/* background knobs never recompute the ratelimit */
	{ "dirty_background_bytes zeroes its twin", false, false, VM_DIRTY_BACKGROUND_BYTES,
	  16 * MIB, 0, { { BG_BYTES, 16777216 }, { BG_RATIO, 0 }, { SET_RATELIMIT, false } } },
	{ "dirty_background_ratio zeroes its twin", false, false, VM_DIRTY_BACKGROUND_RATIO, 5, 0,
	  { { BG_RATIO, 5 }, { BG_BYTES, 0 } } },
	/* ratio mode, write 20 over 20: nothing happens, ratelimit not recomputed */
	{ "dirty_ratio over the same value", true, false, VM_DIRTY_RATIO, 20, 0,
	  { { RATIO, 20 }, { SET_RATELIMIT, false } } },
	/* bytes mode: dirty_ratio reads 0; writing 0 is "unchanged": bytes kept */
	{ "dirty_bytes, bytes mode", false, false, VM_DIRTY_BYTES, 48 * MIB, 0, { { END, 0 } } },
	{ "dirty_ratio 0 in bytes mode keeps the bytes", false, false, VM_DIRTY_RATIO, 0, 0,
	  { { BYTES, 50331648 }, { RATIO, 0 }, { SET_RATELIMIT, false } } },
	/* dirty_bytes rewritten with its own value: no ratelimit recompute */
	{ "dirty_bytes over the same value", false, false, VM_DIRTY_BYTES, 48 * MIB, 0,
	  { { SET_RATELIMIT, false } } },
	/* dirty_bytes >= 2 * PAGE_SIZE = 8192, else -EINVAL and nothing changes */
	{ "dirty_bytes below two pages", true, false, VM_DIRTY_BYTES, 8191, -EINVAL,
	  { { END, 0 } } },
	{ "dirty_bytes 0", false, false, VM_DIRTY_BYTES, 0, -EINVAL,
	  { { BYTES, 0 }, { RATIO, 20 } } },
	{ "dirty_bytes two pages", false, false, VM_DIRTY_BYTES, 8192, 0,
	  { { BYTES, 8192 }, { RATIO, 0 } } },
	/* UINT_MAX pages: accepted */
	{ "dirty_bytes of UINT_MAX pages", true, false, VM_DIRTY_BYTES, UINT_MAX_PAGES_BYTES, 0,
	  { { BYTES, UINT_MAX_PAGES_BYTES } } },
	/* one byte more: ceil(17592186040321/4096) = 4294967296 > UINT_MAX -> -ERANGE,
	 * old value kept */
	{ "dirty_bytes a byte over UINT_MAX pages", false, false, VM_DIRTY_BYTES,
	  UINT_MAX_PAGES_BYTES + 1, -ERANGE, { { BYTES, UINT_MAX_PAGES_BYTES } } },
	/* ratio mode again; -ERANGE must not zero dirty_ratio */
	{ "dirty_ratio, ratio mode again", false, false, VM_DIRTY_RATIO, 20, 0, { { END, 0 } } },
	{ "dirty_bytes over UINT_MAX pages, ratio mode", false, false, VM_DIRTY_BYTES,
	  UINT_MAX_PAGES_BYTES + 1, -ERANGE, { { RATIO, 20 }, { BYTES, 0 } } },
	/* background twin: same limit; old value and ratio kept */
	{ "dirty_background_bytes over UINT_MAX pages", false, false, VM_DIRTY_BACKGROUND_BYTES,
	  UINT_MAX_PAGES_BYTES + 1, -ERANGE, { { BG_RATIO, 10 }, { BG_BYTES, 0 } } },
	{ "dirty_background_bytes of UINT_MAX pages", false, false, VM_DIRTY_BACKGROUND_BYTES,
	  UINT_MAX_PAGES_BYTES, 0, { { BG_RATIO, 0 } } },
	/* dirty_background_bytes >= 1: cannot be written to 0 */
	{ "dirty_background_bytes 0", true, true, VM_DIRTY_BACKGROUND_BYTES, 0, -EINVAL,
	  { { BG_RATIO, 10 } } },
	{ "dirty_background_bytes 1", false, true, VM_DIRTY_BACKGROUND_BYTES, 1, 0,
	  { { BG_BYTES, 1 }, { BG_RATIO, 0 } } },
	{ "dirty_background_bytes, bytes mode", true, true, VM_DIRTY_BACKGROUND_BYTES, 16 * MIB, 0,
	  { { BG_RATIO, 0 } } },
	/* writing the value it already reads (0) still clears the bytes twin */
	{ "dirty_background_ratio 0 in bytes mode zeroes the bytes", false, true,
	  VM_DIRTY_BACKGROUND_RATIO, 0, 0, { { BG_BYTES, 0 }, { BG_RATIO, 0 } } },
	/* ratios are 0..100 */
	{ "dirty_ratio 101", true, true, VM_DIRTY_RATIO, 101, -EINVAL, { { END, 0 } } },
	{ "dirty_background_ratio 101", false, true, VM_DIRTY_BACKGROUND_RATIO, 101, -EINVAL,
	  { { RATIO, 20 }, { BG_RATIO, 10 } } },
	{ "dirty_ratio 100", false, true, VM_DIRTY_RATIO, 100, 0, { { END, 0 } } },
	{ "dirty_ratio 0", false, true, VM_DIRTY_RATIO, 0, 0, { { RATIO, 0 } } },
	/* new non-zero and different from 500 -> wakeup_flusher_threads() */
	{ "dirty_writeback_centisecs changed", true, false, VM_DIRTY_WRITEBACK_CENTISECS, 1000, 0,
	  { { FLUSH_ALL, true }, { WRITEBACK, 1000 } } },
	/* same value: no flush */
	{ "dirty_writeback_centisecs the same", false, false, VM_DIRTY_WRITEBACK_CENTISECS, 1000, 0,
	  { { FLUSH_ALL, false } } },
	/* zero: disables kupdate, no flush */
	{ "dirty_writeback_centisecs 0", false, false, VM_DIRTY_WRITEBACK_CENTISECS, 0, 0,
	  { { FLUSH_ALL, false }, { WRITEBACK, 0 } } },
	/* 0 -> 500: non-zero and different: flush */
	{ "dirty_writeback_centisecs from 0", false, false, VM_DIRTY_WRITEBACK_CENTISECS, 500, 0,
	  { { FLUSH_ALL, true } } },
	/* dirty_expire_centisecs has no side effect */
	{ "dirty_expire_centisecs", false, false, VM_DIRTY_EXPIRE_CENTISECS, 100, 0,
	  { { FLUSH_ALL, false }, { SET_RATELIMIT, false }, { EXPIRE, 100 } } },
};

static void test_sysctl_write(void **state)
{
	struct vm_sysctl vm;

	(void)state;
	for (size_t i = 0; i < ROWS(sysctl_rows); i++) {
		const struct sysctl_row *r = &sysctl_rows[i];
		struct vm_write_effect eff;

		if (r->defaults)
			vm_sysctl_defaults(&vm);
		row_int_named(r, "its return", vm_sysctl_write(&vm, r->knob, r->value,
							       r->no_effect ? NULL : &eff),
			      r->want_ret);
		for (size_t j = 0; j < ROWS(r->want) && r->want[j].out != END; j++) {
			const enum sysctl_out out = r->want[j].out;

			if (out == SET_RATELIMIT)
				row_bool_equal(r, eff.set_ratelimit, r->want[j].v);
			else if (out == FLUSH_ALL)
				row_bool_equal(r, eff.flush_all, r->want[j].v);
			else
				row_int_named(r, vm_knob_names[out - RATIO],
					      vm_sysctl_get(&vm, (enum vm_knob)(out - RATIO)),
					      r->want[j].v);
		}
	}
}

/* ------------------------------------------------------------------ */
/* §2.3 ratelimit_pages, hard limit and its decay                      */
/* ------------------------------------------------------------------ */

static void test_set_ratelimit(void **state)
{
	struct wb_domain dom = { 0 };
	struct kcfg k4 = K250; /* 4 CPUs */

	(void)state;
	/* 100000 / (4 * 32) = 781 (781.25); dom.dirty_limit = thresh */
	assert_int_equal(writeback_set_ratelimit(&k4, &dom, 100000), 781);
	assert_int_equal(dom.dirty_limit, 100000);
	/* 1000 / 128 = 7 < 16 -> 16 */
	assert_int_equal(writeback_set_ratelimit(&k4, &dom, 1000), 16);
	assert_int_equal(dom.dirty_limit, 1000);
	/* 16 CPUs: 100000 / 512 = 195 (195.3) */
	assert_int_equal(writeback_set_ratelimit(&K1000, &dom, 100000), 195);
}

static void test_hard_dirty_limit(void **state)
{
	struct wb_domain dom = { 0 };

	(void)state;
	dom.dirty_limit = 1200;
	/* limit = max(thresh, dom.dirty_limit) */
	assert_int_equal(hard_dirty_limit(&dom, 1000), 1200);
	assert_int_equal(hard_dirty_limit(&dom, 1500), 1500);
	/* freerun = (t + bg)/2 = (1000 + 501)/2 = 750 (750.5) */
	assert_int_equal(dirty_freerun_ceiling(1000, 501), 750);
}

/* domain_update_dirty_limit(), one call a row, on one domain: a row sets
 * dom.dirty_limit and its stamp first where it has them (not ANY). */
static const struct dirty_limit_row {
	const char *name;
	const struct kcfg *k;
	uint64_t set_limit, set_tstamp;
	uint64_t thresh, dirty, now;
	uint64_t want_limit, want_tstamp;
} dirty_limit_rows[] = {
	/* HZ 1000: BANDWIDTH_INTERVAL = 200; now 199 < 0 + 200: gated */
	{ "follow-up gated", &K1000, 1000, 0, 1200, 500, 199, 1000, 0 },
	/* now 200: limit 1000 < thresh 1200 -> follow up at once to 1200 */
	{ "follow-up", &K1000, ANY, ANY, 1200, 500, 200, 1200, 200 },
	/* now 400: target = max(800, 500) = 800; 1200 - (400 >> 5 = 12) = 1188 */
	{ "decay", &K1000, 1200, 200, 800, 500, 400, 1188, ANY },
	/* now 599 < 400 + 200: gated */
	{ "decay gated", &K1000, ANY, ANY, 800, 500, 599, 1188, ANY },
	/* now 600: 1188 - ((1188 - 800) = 388 >> 5 = 12) = 1176 */
	{ "decay again", &K1000, ANY, ANY, 800, 500, 600, 1176, ANY },
	/* dirty above thresh: target = max(800, 1100) = 1100; 1176 - (76 >> 5 = 2) = 1174 */
	{ "decay towards dirty", &K1000, ANY, ANY, 800, 1100, 800, 1174, ANY },
	/* target 1174 = limit: no change, but the stamp moves (now 1000) */
	{ "at the target", &K1000, ANY, ANY, 800, 1174, 1000, 1174, 1000 },
	/* gap < 32: (1180 - 1174 = 6) >> 5 = 0 -> stays, though limit > target */
	{ "gap below 32", &K1000, 1180, ANY, 1174, 0, 1200, 1180, ANY },
	/* HZ 250: interval = 250/5 = 50 jiffies; 1049 gated */
	{ "HZ 250 gated", &K250, 3200, 1000, 0, 0, 1049, 3200, ANY },
	/* 1050: target max(0, 0) = 0; 3200 - 3200/32 = 3200 - 100 = 3100 */
	{ "HZ 250", &K250, ANY, ANY, 0, 0, 1050, 3100, ANY },
};

static void test_update_dirty_limit(void **state)
{
	struct wb_domain dom = { 0 };

	(void)state;
	for (size_t i = 0; i < ROWS(dirty_limit_rows); i++) {
		const struct dirty_limit_row *r = &dirty_limit_rows[i];

		if (r->set_limit != ANY)
			dom.dirty_limit = r->set_limit;
		if (r->set_tstamp != ANY)
			dom.dirty_limit_tstamp = r->set_tstamp;
		domain_update_dirty_limit(r->k, &dom, r->thresh, r->dirty, r->now);
		row_int_equal(r, dom.dirty_limit, r->want_limit);
		row_int_unless_any(r, dom.dirty_limit_tstamp, r->want_tstamp);
	}
}

/* ------------------------------------------------------------------ */
/* §3.2, §3.5 bdi knobs                                                */
/* ------------------------------------------------------------------ */

static void test_bdi_defaults(void **state)
{
	struct bdi_knobs b;

	(void)state;
	bdi_knobs_init(&b);
	assert_int_equal(b.min_ratio, 0);
	assert_int_equal(b.max_ratio, 1000000);
	assert_int_equal(b.max_prop_frac, 1024);
	assert_false(b.strict);
}

static void test_bdi_max_prop_frac_truncation(void **state)
{
	struct bdi_knobs b;

	(void)state;
	bdi_knobs_init(&b);
	/* max_prop_frac = 1024 * r / 1e6 */
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 976), 0);
	assert_int_equal(b.max_prop_frac, 0); /* 999424 / 1e6 = 0 */
	assert_int_equal(b.max_ratio, 976);
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 977), 0);
	assert_int_equal(b.max_prop_frac, 1); /* 1000448 / 1e6 = 1 */
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 10000), 0);
	assert_int_equal(b.max_prop_frac, 10); /* FUSE 1 %: 10240000 / 1e6 = 10 */
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 500000), 0);
	assert_int_equal(b.max_prop_frac, 512);
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 1000000), 0);
	assert_int_equal(b.max_prop_frac, 1024);
	/* > 100 % refused, old value kept */
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 1000001), -EINVAL);
	assert_int_equal(b.max_ratio, 1000000);
}

static void test_bdi_max_below_min_refused(void **state)
{
	struct bdi_knobs b;
	uint64_t sum = 0;

	(void)state;
	bdi_knobs_init(&b);
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 200000, &sum), 0);
	/* r < min_ratio -> EINVAL */
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 199999), -EINVAL);
	assert_int_equal(b.max_ratio, 1000000);
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 200000), 0);
	/* min above max -> EINVAL */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 200001, &sum), -EINVAL);
	assert_int_equal(b.min_ratio, 200000);
	assert_int_equal(sum, 200000);
}

static void test_bdi_min_ratio_sum_strict(void **state)
{
	struct bdi_knobs a, b;
	uint64_t sum = 0;

	(void)state;
	bdi_knobs_init(&a);
	bdi_knobs_init(&b);
	assert_int_equal(bdi_set_min_ratio_ppm(&a, 600000, &sum), 0);
	assert_int_equal(sum, 600000);
	/* 600000 + 400000 = 1e6, not < 1e6 -> EINVAL */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 400000, &sum), -EINVAL);
	assert_int_equal(b.min_ratio, 0);
	assert_int_equal(sum, 600000);
	/* 600000 + 399999 = 999999 < 1e6 */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 399999, &sum), 0);
	assert_int_equal(sum, 999999);
	/* lowering always succeeds: a 600000 -> 500000, sum 899999 */
	assert_int_equal(bdi_set_min_ratio_ppm(&a, 500000, &sum), 0);
	assert_int_equal(sum, 899999);
	/* raising b by delta 100001: 899999 + 100001 = 1e6 -> EINVAL */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 500000, &sum), -EINVAL);
	/* delta 100000: 999999 < 1e6 */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 499999, &sum), 0);
	assert_int_equal(sum, 999999);
	/* > 100 % refused */
	assert_int_equal(bdi_set_min_ratio_ppm(&a, 1000001, &sum), -EINVAL);
}

static void test_bdi_set_max_bytes_conversion(void **state)
{
	struct bdi_knobs b;

	(void)state;
	bdi_knobs_init(&b);
	/* pages = 50 MiB >> 12 = 12800; r = 12800 * 1e6 / 100000 = 128000 ppm;
	 * max_prop_frac = 1024 * 128000 / 1e6 = 131 (131.07) */
	assert_int_equal(bdi_set_max_bytes(&b, 50 * MIB, 500000, 100000), 0);
	assert_int_equal(b.max_ratio, 128000);
	assert_int_equal(b.max_prop_frac, 131);
	/* truncating ppm: thresh 100003 -> 12800e6 / 100003 = 127996 (127996.16) */
	assert_int_equal(bdi_set_max_bytes(&b, 50 * MIB, 500000, 100003), 0);
	assert_int_equal(b.max_ratio, 127996);
	/* < 4096 bytes: 4095 >> 12 = 0 pages -> ratio 0 -> max_prop_frac 0 */
	assert_int_equal(bdi_set_max_bytes(&b, 4095, 500000, 100000), 0);
	assert_int_equal(b.max_ratio, 0);
	assert_int_equal(b.max_prop_frac, 0);
	/* exactly thresh: 100000 pages -> 1e6 ppm: accepted */
	assert_int_equal(bdi_set_max_bytes(&b, 100000ULL * 4096, 500000, 100000), 0);
	assert_int_equal(b.max_ratio, 1000000);
}

static void test_bdi_set_max_bytes_einval(void **state)
{
	struct bdi_knobs b;
	uint64_t sum = 0;

	(void)state;
	bdi_knobs_init(&b);
	assert_int_equal(bdi_set_max_bytes(&b, 50 * MIB, 500000, 100000), 0); /* 128000 */
	/* above the global threshold: 100001 pages -> 100001e6/100000 = 1000010 > 1e6 */
	assert_int_equal(bdi_set_max_bytes(&b, 100001ULL * 4096, 500000, 100000), -EINVAL);
	assert_int_equal(b.max_ratio, 128000);
	/* above dirtyable memory: 60000 pages > avail 50000, although 600000 ppm is fine */
	assert_int_equal(bdi_set_max_bytes(&b, 60000ULL * 4096, 50000, 100000), -EINVAL);
	assert_int_equal(b.max_ratio, 128000);
	/* thresh 0 (6.13+): EINVAL, no division */
	assert_int_equal(bdi_set_max_bytes(&b, 4096, 50000, 0), -EINVAL);
	assert_int_equal(b.max_ratio, 128000);
	/* below min_ratio: min 120000; 10000 pages -> 100000 ppm < 120000 */
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 100000, &sum), 0);
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 120000, &sum), 0);
	assert_int_equal(bdi_set_max_bytes(&b, 10000ULL * 4096, 500000, 100000), -EINVAL);
	assert_int_equal(b.max_ratio, 128000);
}

static void test_bdi_set_min_bytes(void **state)
{
	struct bdi_knobs b;
	uint64_t sum = 50000;

	(void)state;
	bdi_knobs_init(&b);
	/* 10000 pages of thresh 100000 -> 100000 ppm; sum 50000 + 100000 */
	assert_int_equal(bdi_set_min_bytes(&b, 10000ULL * 4096, 500000, 100000, &sum), 0);
	assert_int_equal(b.min_ratio, 100000);
	assert_int_equal(sum, 150000);
	/* thresh 0 -> EINVAL */
	assert_int_equal(bdi_set_min_bytes(&b, 4096, 500000, 0, &sum), -EINVAL);
	assert_int_equal(sum, 150000);
}

static void test_bdi_get_bytes_drift(void **state)
{
	(void)state;
	/* thresh 100000: 100000 * 4096 * 128000 / 10000 / 100 = 52428800 = 50 MiB */
	assert_int_equal(bdi_get_bytes(&K1000, 128000, 100000), 52428800);
	/* avail dropped, thresh 80000: 80000*4096*128000/1e6 = 41943040 = 40 MiB */
	assert_int_equal(bdi_get_bytes(&K1000, 128000, 80000), 41943040);
	/* written at thresh 100003 -> 127996 ppm; read back:
	 * 100003 * 4096 = 409612288; * 127996 = 52428734414848;
	 * / 10000 = 5242873441; / 100 = 52428734 (66 bytes short of 50 MiB) */
	assert_int_equal(bdi_get_bytes(&K1000, 127996, 100003), 52428734);
}

/* ------------------------------------------------------------------ */
/* §3.3 __wb_calc_thresh() (6.14–6.18)                                 */
/* ------------------------------------------------------------------ */

/* __wb_calc_thresh(); before 6.14 (6.12 and 6.1) it has no idle floor
 * (kernel-notes §3.4), the cap still applies; 6.1 computes in whole percents. */
static const struct wb_thresh_row {
	const char *name;
	const struct kcfg *k;
	uint64_t thresh, dirty, numerator, denominator;
	uint64_t bdi_min_ratio_sum, wb_min_ratio, wb_max_ratio;
	bool strict;
	uint64_t want;
} wb_thresh_rows[] = {
	/* T <= dirty: no floor. w = 10000 * 1e6 / 1e6 = 10000; * 1 / 4 = 2500 */
	{ "share 1/4", &K1000, 10000, 10000, 1, 4, 0, 0, 1000000, false, 2500 },
	/* 1/3: 10000 * 1 / 3 = 3333 */
	{ "share 1/3", &K1000, 10000, 10000, 1, 3, 0, 0, 1000000, false, 3333 },
	/* fraction 0 and no floor: 0 */
	{ "share 0", &K1000, 10000, 10000, 0, 1, 0, 0, 1000000, false, 0 },
	/* min_ratio 10 % of this bdi, 20 % of all:
	 * w = 10000 * (1e6 - 200000) / 1e6 = 8000; * 1/4 = 2000;
	 * + 10000 * 100000 / 1e6 = 1000 -> 3000 */
	{ "min_ratio", &K1000, 10000, 10000, 1, 4, 200000, 100000, 1000000, false, 3000 },
	/* share 0; floor = (10000 - 2000) / 8 = 1000 */
	{ "idle floor", &K1000, 10000, 2000, 0, 1, 0, 0, 1000000, false, 1000 },
	/* strict: (10000 - 2000) / 100 = 80 */
	{ "idle floor, strict", &K1000, 10000, 2000, 0, 1, 0, 0, 1000000, true, 80 },
	/* the floor is a max(): share 1/2 -> 5000 > 1000 */
	{ "share above the floor", &K1000, 10000, 2000, 1, 2, 0, 0, 1000000, false, 5000 },
	/* (10000 - 9993) / 8 = 0 (0.875): floor truncates to 0 */
	{ "idle floor truncated", &K1000, 10000, 9993, 0, 1, 0, 0, 1000000, false, 0 },
	/* max 5 %: floor 1000; cap = 10000 * 50000 / 1e6 = 500 -> 500 */
	{ "the cap bounds the floor", &K1000, 10000, 2000, 0, 1, 0, 0, 50000, false, 500 },
	/* the cap also bounds the share: 1/1 -> 10000 -> 500 */
	{ "the cap bounds the share", &K1000, 10000, 2000, 1, 1, 0, 0, 50000, false, 500 },
	/* max_ratio 0 (max_bytes < 4096): 0 */
	{ "max_ratio 0", &K1000, 10000, 2000, 1, 1, 0, 0, 0, false, 0 },
	/* 64-bit: 5000 * 1e6 / 1e6 = 5000; cap 5000 */
	{ "64-bit, no wrap", &K1000, 5000, 5000, 1, 1, 0, 0, 1000000, false, 5000 },
	/* 32-bit unsigned long: 5000 * 1e6 = 5000000000 mod 2^32
	 * = 5000000000 - 4294967296 = 705032704; / 1e6 = 705;
	 * cap = the same wrapped product / 1e6 = 705 */
	{ "32-bit wrap", &K32, 5000, 5000, 1, 1, 0, 0, 1000000, false, 705 },
	/* with the idle floor: dirty 0, share 1/2 -> 705/2 = 352;
	 * floor = 5000/8 = 625 (no product, no wrap); cap 705 -> 625 */
	{ "32-bit wrap under the floor", &K32, 5000, 0, 1, 2, 0, 0, 1000000, false, 625 },
	/* thresh 4294 * 1e6 = 4294000000 < 2^32: no wrap yet */
	{ "32-bit, no wrap yet", &K32, 4294, 4294, 1, 1, 0, 0, 1000000, false, 4294 },
	/* share 0, dirty 2000 of 10000: 6.18 floors at 8000/8 = 1000, 6.12 stays 0 */
	{ "6.18 idle floor", &K1000, 10000, 2000, 0, 1, 0, 0, 1000000, false, 1000 },
	{ "6.12 no idle floor", &K612, 10000, 2000, 0, 1, 0, 0, 1000000, false, 0 },
	{ "6.12 no idle floor, strict", &K612, 10000, 2000, 0, 1, 0, 0, 1000000, true, 0 },
	/* the cap: share 1/1 -> 10000, max 5 % -> 500 */
	{ "6.12 the cap", &K612, 10000, 2000, 1, 1, 0, 0, 50000, false, 500 },
	/* min_ratio as in the row "min_ratio": 20 % of all, 10 % this one:
	 * 10000 * 80 / 100 = 8000 * 1/4 = 2000 + 10000 * 10 / 100 = 1000 */
	{ "6.1 min_ratio in percents", &K61_32, 10000, 10000, 1, 4, 200000, 100000, 1000000, false,
	  3000 },
	/* 32-bit: 5000 * 100 does not wrap where 5000 * 1e6 did (705 on 6.18) */
	{ "6.1 32-bit, no wrap", &K61_32, 5000, 5000, 1, 1, 0, 0, 1000000, false, 5000 },
};

static void test_wb_thresh(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(wb_thresh_rows); i++) {
		const struct wb_thresh_row *r = &wb_thresh_rows[i];
		const struct wb_thresh_in in = {
			.thresh = r->thresh,
			.dirty = r->dirty,
			.numerator = r->numerator,
			.denominator = r->denominator,
			.bdi_min_ratio_sum = r->bdi_min_ratio_sum,
			.wb_min_ratio = r->wb_min_ratio,
			.wb_max_ratio = r->wb_max_ratio,
			.strict = r->strict,
		};

		row_int_equal(r, wb_calc_thresh_pages(r->k, &in), r->want);
	}
}

static void test_wb_min_max_ratio_split(void **state)
{
	struct bdi_knobs b;
	uint64_t sum = 0, mn, mx;

	(void)state;
	bdi_knobs_init(&b);
	assert_int_equal(bdi_set_max_ratio_ppm(&b, 500000), 0);
	assert_int_equal(bdi_set_min_ratio_ppm(&b, 100000, &sum), 0);
	/* this_bw 1000 < tot 4000: min 100000 * 1000/4000 = 25000; max 500000 -> 125000 */
	wb_min_max_ratio(&b, 1000, 4000, &mn, &mx);
	assert_int_equal(mn, 25000);
	assert_int_equal(mx, 125000);
	/* single wb (this == tot) or clean (tot 0): unscaled */
	wb_min_max_ratio(&b, 4000, 4000, &mn, &mx);
	assert_int_equal(mn, 100000);
	assert_int_equal(mx, 500000);
	wb_min_max_ratio(&b, 1000, 0, &mn, &mx);
	assert_int_equal(mn, 100000);
	/* max 100 % is not scaled */
	bdi_knobs_init(&b);
	wb_min_max_ratio(&b, 1000, 4000, &mn, &mx);
	assert_int_equal(mn, 0);
	assert_int_equal(mx, 1000000);
}

/* ------------------------------------------------------------------ */
/* §3.1 flex proportions                                               */
/* ------------------------------------------------------------------ */

#define PLEN 3000 /* VM_COMPLETIONS_PERIOD_LEN = 3 * HZ at HZ 1000 */

/* the fraction n/d fprop_fraction() gives local counter l */
#define assert_fraction(g, l, want_n, want_d)                                                      \
	do {                                                                                       \
		uint64_t n_, d_;                                                                   \
		fprop_fraction(g, l, &n_, &d_);                                                    \
		assert_int_equal(n_, want_n);                                                      \
		assert_int_equal(d_, want_d);                                                      \
	} while (0)

/* a fresh domain with two local counters */
static void fprop_two(struct fprop_global *g, struct fprop_local *a, struct fprop_local *b)
{
	fprop_global_init(g);
	fprop_local_init(a);
	fprop_local_init(b);
}

/* a fresh domain whose one local counter l has seen `events` completions at
 * time 0, uncapped: G = 1 + events, the period timer armed for PLEN */
static void fprop_start(struct fprop_global *g, struct fprop_local *l, uint64_t events)
{
	fprop_global_init(g);
	fprop_local_init(l);
	wb_domain_writeout_add(g, l, 1024, events, 0, PLEN);
}

static void test_fprop_init(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_global_init(&g);
	fprop_local_init(&l);
	assert_int_equal(g.events, 1); /* initialised to 1 */
	assert_int_equal(g.period, 0);
	assert_int_equal(g.period_time, 0);
	/* n = 0, d = 1 */
	assert_fraction(&g, &l, 0, 1);
}

static void test_fprop_fresh_fraction(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_start(&g, &l, 100);
	/* L = 100, G = 1 + 100 = 101 -> 100/101; timer armed at 0 + 3000 */
	assert_fraction(&g, &l, 100, 101);
	assert_int_equal(g.period_time, 3000);
	/* first completion of 1 page: 1/2 */
	fprop_start(&g, &l, 1);
	assert_fraction(&g, &l, 1, 2);
}

static void test_fprop_aging_and_lazy_local(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_start(&g, &l, 100);
	/* timer at 3000, on time: miss = 0 -> 1 period: G = 101 >> 1 = 50 */
	writeout_period(&g, 3000, PLEN);
	assert_int_equal(g.events, 50);
	assert_int_equal(g.period, 1);
	assert_int_equal(g.period_time, 6000); /* 3000 + 0*3000 + 3000 */
	/* the local counter is aged lazily: untouched until read */
	assert_int_equal(l.events, 100);
	/* read: 100 >> 1 = 50; d = 50 <= n = 50 -> d = n */
	assert_fraction(&g, &l, 50, 50);
	assert_int_equal(l.events, 50);
	assert_int_equal(l.period, 1);
}

static void test_fprop_missed_periods(void **state)
{
	struct fprop_global g;
	struct fprop_local a, b;

	(void)state;
	fprop_two(&g, &a, &b);
	wb_domain_writeout_add(&g, &a, 1024, 100, 0, PLEN);
	wb_domain_writeout_add(&g, &b, 1024, 28, 0, PLEN);
	assert_int_equal(g.events, 129); /* 1 + 100 + 28 */
	/* timer late: now 6500, period_time 3000 -> miss = 3500/3000 = 1 -> 2 periods;
	 * G = 129 >> 2 = 32; next expiry 3000 + 3000 + 3000 = 9000 */
	writeout_period(&g, 6500, PLEN);
	assert_int_equal(g.events, 32);
	assert_int_equal(g.period, 2);
	assert_int_equal(g.period_time, 9000);
	/* A: 100 >> 2 = 25 / 32; B: 28 >> 2 = 7 / 32 */
	assert_fraction(&g, &a, 25, 32);
	assert_fraction(&g, &b, 7, 32);
	/* A counts 8 more: aged already, L = 33, G = 40; B unchanged at 7 */
	wb_domain_writeout_add(&g, &a, 1024, 8, 7000, PLEN);
	assert_fraction(&g, &a, 33, 40);
	/* B, idle for another period: G = 40 >> 1 = 20; B = 7 >> 1 = 3 */
	writeout_period(&g, 9000, PLEN);
	assert_fraction(&g, &b, 3, 20);
}

static void test_fprop_lazy_aging_skips_periods(void **state)
{
	struct fprop_global g;
	struct fprop_local a, b;

	(void)state;
	fprop_two(&g, &a, &b);
	wb_domain_writeout_add(&g, &a, 1024, 1000, 0, PLEN); /* G 1001 */
	wb_domain_writeout_add(&g, &b, 1024, 64, 0, PLEN);   /* G 1065 */
	/* three on-time expiries: G = 1065 >> 1 = 532, >> 1 = 266, >> 1 = 133 */
	writeout_period(&g, 3000, PLEN);
	writeout_period(&g, 6000, PLEN);
	writeout_period(&g, 9000, PLEN);
	assert_int_equal(g.events, 133);
	assert_int_equal(g.period, 3);
	/* B was never read: still 64 at period 0; read: 64 >> 3 = 8 */
	assert_int_equal(b.events, 64);
	assert_int_equal(b.period, 0);
	assert_fraction(&g, &b, 8, 133);
	assert_int_equal(b.period, 3);
}

static void test_fprop_new_period_64(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_start(&g, &l, 100);
	/* >= 64 periods: G = 0 */
	assert_true(fprop_new_period(&g, 64));
	assert_int_equal(g.events, 0);
	assert_int_equal(g.period, 64);
	/* local missed 64 periods: 0; n = 0, d = 0 -> d = 1 */
	assert_fraction(&g, &l, 0, 1);
	/* G = 0 <= 1: nothing to age */
	assert_false(fprop_new_period(&g, 1));
	assert_int_equal(g.period, 64);
	/* 63 periods still shift: 1000 >> 63 = 0 */
	fprop_global_init(&g);
	g.events = 1000;
	assert_true(fprop_new_period(&g, 63));
	assert_int_equal(g.events, 0);
}

static void test_fprop_timer_stops_when_idle(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_start(&g, &l, 2);          /* G = 3, timer 3000 */
	writeout_period(&g, 3000, PLEN); /* G = 3 >> 1 = 1 */
	assert_int_equal(g.events, 1);
	assert_int_equal(g.period_time, 6000);
	/* G <= 1: do nothing, stop the timer; period not advanced */
	writeout_period(&g, 6000, PLEN);
	assert_int_equal(g.period_time, 0);
	assert_int_equal(g.period, 1);
	assert_int_equal(g.events, 1);
	/* next completion re-arms: now 50000 + 3000 */
	wb_domain_writeout_add(&g, &l, 1024, 5, 50000, PLEN);
	assert_int_equal(g.period_time, 53000);
	assert_int_equal(g.events, 6);
}

static void test_fprop_max_frac_saturation(void **state)
{
	struct fprop_global g;
	struct fprop_local c, o;

	(void)state;
	fprop_two(&g, &c, &o);
	/* max_prop_frac 512 (50 %). n/d = 0/1: tmp = 1*512 - 0 = 512;
	 * 512 < 100 * (1024 - 512) = 51200 -> nr = ceil(512/512) = 1 */
	wb_domain_writeout_add(&g, &c, 512, 100, 0, PLEN);
	assert_fraction(&g, &c, 1, 2);
	/* at the cap: tmp = 2*512 - 1*1024 = 0 (not < 0); nr = ceil(0/512) = 0 */
	wb_domain_writeout_add(&g, &c, 512, 100, 0, PLEN);
	assert_int_equal(g.events, 2);
	assert_int_equal(c.events, 1);
	/* another wb adds 10: G = 12. tmp = 12*512 - 1*1024 = 5120 < 51200
	 * -> nr = (5120 + 511) / 512 = 10 -> L = 11, G = 22: 11/22 = 512/1024 */
	wb_domain_writeout_add(&g, &o, 1024, 10, 0, PLEN);
	wb_domain_writeout_add(&g, &c, 512, 100, 0, PLEN);
	assert_fraction(&g, &c, 11, 22);
	/* far below the cap the event counts in full: o adds 1000 -> G 1022;
	 * tmp = 1022*512 - 11*1024 = 523264 - 11264 = 512000 >= 5*512 -> nr 5 */
	wb_domain_writeout_add(&g, &o, 1024, 1000, 0, PLEN);
	wb_domain_writeout_add(&g, &c, 512, 5, 0, PLEN);
	assert_fraction(&g, &c, 16, 1027);
}

static void test_fprop_max_frac_drop(void **state)
{
	struct fprop_global g;
	struct fprop_local a, f;

	(void)state;
	fprop_two(&g, &a, &f);
	wb_domain_writeout_add(&g, &a, 1024, 100, 0, PLEN); /* G 101 */
	/* FUSE bdi, max_prop_frac 10: n/d = 0/101, tmp = 101*10 - 0 = 1010;
	 * 1010 < 50 * 1014 -> nr = (1010 + 1013) / 1014 = 1 -> L 1, G 102 */
	wb_domain_writeout_add(&g, &f, 10, 50, 0, PLEN);
	assert_fraction(&g, &f, 1, 102);
	/* tmp = 102*10 - 1*1024 = -4 < 0: dropped, counted nowhere */
	wb_domain_writeout_add(&g, &f, 10, 50, 0, PLEN);
	assert_int_equal(g.events, 102);
	assert_int_equal(f.events, 1);
}

static void test_fprop_max_frac_zero_never_credited(void **state)
{
	struct fprop_global g;
	struct fprop_local a, z;

	(void)state;
	fprop_two(&g, &a, &z);
	/* max_ratio 976 ppm -> max_prop_frac 0. Fresh domain: tmp = 1*0 - 0 = 0,
	 * 0 < 100*1024 -> nr = (0 + 1023) / 1024 = 0: nothing counted */
	wb_domain_writeout_add(&g, &z, 0, 100, 0, PLEN);
	assert_int_equal(g.events, 1);
	assert_int_equal(z.events, 0);
	wb_domain_writeout_add(&g, &a, 1024, 100, 0, PLEN); /* G 101 */
	wb_domain_writeout_add(&g, &z, 0, 100, 0, PLEN);    /* tmp = 0 again: nr 0 */
	assert_fraction(&g, &z, 0, 101);
}

/* wb_domain_writeout_add() calls __fprop_add_percpu_max() and then, whatever
 * it did, re-arms the period timer if it is off ("restarts at the next
 * completion", KERNEL-NOTES §3.1). A completion dropped by the max_prop_frac
 * cap is still a completion. */
static void test_fprop_dropped_event_rearms_timer(void **state)
{
	struct fprop_global g;
	struct fprop_local l;

	(void)state;
	fprop_start(&g, &l, 100); /* G 101, L 100, timer 3000 */
	/* 5 missed expiries: now 18000 -> miss = 15000/3000 = 5 -> 6 periods:
	 * G = 101 >> 6 = 1; next 3000 + 15000 + 3000 = 21000 */
	writeout_period(&g, 18000, PLEN);
	assert_int_equal(g.events, 1);
	assert_int_equal(g.period_time, 21000);
	writeout_period(&g, 21000, PLEN); /* G <= 1: timer stops */
	assert_int_equal(g.period_time, 0);
	/* the bdi is then capped at 1 % (max_prop_frac 10). L = 100 >> 6 = 1, G 1:
	 * n/d = 1/1, tmp = 1*10 - 1*1024 < 0: the event is dropped ... */
	wb_domain_writeout_add(&g, &l, 10, 8, 30000, PLEN);
	assert_fraction(&g, &l, 1, 1);
	assert_int_equal(g.events, 1);
	/* ... but the timer is re-armed: wp_next_time(30000) = 33000 */
	assert_int_equal(g.period_time, 33000);
}

/* ------------------------------------------------------------------ */
/* §5 position ratio                                                   */
/* ------------------------------------------------------------------ */

/* pos_ratio_polynom(setpoint, dirty, limit) */
static const struct polynom_row {
	const char *name;
	uint64_t setpoint, dirty, limit;
	int64_t want;
} polynom_rows[] = {
	/* thresh 1000, bg 500: freerun 750, limit 1000, setpoint (750+1000)/2 = 875;
	 * denominator (1000 - 875) | 1 = 125 */
	/* freerun: x = (125 << 10)/125 = 1024; 1024^3 >> 20 = 1024; + 1024 = 2048 */
	{ "at freerun", 875, 750, 1000, 2048 },
	/* setpoint: x = 0 -> 1024 */
	{ "at the setpoint", 875, 875, 1000, 1024 },
	/* limit: x = -1024; 1024*1024>>10 = 1024; 1024*-1024>>10 = -1024; + 1024 = 0 */
	{ "at the limit", 875, 1000, 1000, 0 },
	/* dirty 0: x = 875*1024/125 = 7168: 7168^2 >> 10 = 50176;
	 * 50176 * 7168 >> 10 = 351232; + 1024 -> clamp 2048 */
	{ "clamped to 2", 875, 0, 1000, 2048 },
	/* dirty 1100: x = -225*1024/125 = -1843 (trunc of -1843.2);
	 * 1843^2 = 3396649 >> 10 = 3317; 3317 * -1843 = -6113231 >> 10 = -5970;
	 * + 1024 = -4946 -> clamp 0 */
	{ "clamped to 0", 875, 1100, 1000, 0 },
	/* dirty 900: x = -25600/125 = -204 (trunc toward 0, not -205);
	 * (-204)^2 = 41616 >> 10 = 40; 40 * -204 = -8160 >> 10 = -8 (floor of -7.97,
	 * arithmetic shift); 1024 - 8 = 1016 */
	{ "rounding above the setpoint", 875, 900, 1000, 1016 },
	/* dirty 850: x = 25600/125 = 204; 41616 >> 10 = 40; 8160 >> 10 = 7; 1031 */
	{ "rounding below the setpoint", 875, 850, 1000, 1031 },
	/* dirty 950: x = -76800/125 = -614 (-614.4); 376996 >> 10 = 368;
	 * 368 * -614 = -225952 >> 10 = -221 (floor of -220.66); 1024 - 221 = 803 */
	{ "rounding near the limit", 875, 950, 1000, 803 },
	/* odd denominator: setpoint 150, limit 200: (200-150)|1 = 51.
	 * dirty 175: x = -25600/51 = -501 (-501.96); 251001 >> 10 = 245;
	 * 245 * -501 = -122745 >> 10 = -120 (floor of -119.87); 904 */
	{ "odd denominator", 150, 175, 200, 904 },
};

static void test_polynom(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(polynom_rows); i++) {
		const struct polynom_row *r = &polynom_rows[i];

		row_int_equal(r, pos_ratio_polynom(r->setpoint, r->dirty, r->limit), r->want);
	}
}

static struct dtc mkdtc(uint64_t thresh, uint64_t bg, uint64_t limit, uint64_t dirty,
			uint64_t wb_thresh, uint64_t wb_bg_thresh, uint64_t wb_dirty)
{
	struct dtc d;

	memset(&d, 0, sizeof(d));
	d.thresh = thresh;
	d.bg_thresh = bg;
	d.limit = limit;
	d.dirty = dirty;
	d.wb_thresh = wb_thresh;
	d.wb_bg_thresh = wb_bg_thresh;
	d.wb_dirty = wb_dirty;
	return d;
}

/* wb_position_ratio(): as 6.18 computes it (LATEST), or as kernel `kver` does
 * (wb_position_ratio_kver()). Before 6.14 a strict wb with wb_dirty < 8 runs
 * at min(2 x global, 2.0); the non-strict line floors wb_thresh at
 * (limit - dirty) / 8. */
#define LATEST (-1)
static const struct position_row {
	const char *name;
	uint64_t thresh, bg, limit, dirty, wb_thresh, wb_bg_thresh, wb_dirty; /* the dtc */
	bool strict;
	uint64_t write_bw;
	int kver; /* KVER_*, or LATEST */
	int64_t want;
} position_rows[] = {
	/* global: dirty 750 = freerun -> 2048. wb: thresh 200, bg 100 ->
	 * wb_setpoint 150; wb_dirty 175 -> 904 (the polynom row "odd denominator");
	 * min(2048, 904) = 904 */
	{ "strict, the wb's position", 1000, 500, 1000, 750, 200, 100, 175, true, 25600, LATEST,
	  904 },
	/* wb at its setpoint: x = 0 -> 1024 */
	{ "strict, wb at its setpoint", 1000, 500, 1000, 750, 200, 100, 150, true, 25600, LATEST,
	  1024 },
	/* global lower: dirty 900 -> 1016; wb_dirty 100: x = 51200/51 = 1003;
	 * 1003^2 = 1006009 >> 10 = 982; 982 * 1003 = 984946 >> 10 = 961; 1985;
	 * min(1016, 1985) = 1016 */
	{ "strict, the global position", 1000, 500, 1000, 900, 200, 100, 100, true, 25600, LATEST,
	  1016 },
	/* wb_dirty >= wb_thresh: 0, whatever the global position */
	{ "strict, wb at its threshold", 1000, 500, 1000, 100, 200, 100, 200, true, 25600, LATEST,
	  0 },
	/* degenerate: wb_thresh 1, wb_bg 0 -> wb_setpoint (1+0)/2 = 0 -> 0 */
	{ "strict, wb setpoint 0", 1000, 500, 1000, 100, 1, 0, 0, true, 25600, LATEST, 0 },
	/* degenerate: wb_thresh 2, wb_bg 2 -> setpoint 2 == wb_thresh -> 0 */
	{ "strict, wb setpoint at its threshold", 1000, 500, 1000, 100, 2, 2, 0, true, 25600,
	  LATEST, 0 },
	/* global dirty >= limit: 0 (strict or not) */
	{ "strict, global at the limit", 1000, 500, 1000, 1000, 200, 100, 10, true, 25600, LATEST,
	  0 },
	{ "global at the limit", 1000, 500, 1000, 1000, 1000, 500, 10, false, 25600, LATEST, 0 },
	/* global dirty 900 -> 1016 (the row "strict, the global position");
	 * wb_dirty 5: 6.12 2032 */
	{ "6.12 strict, wb_dirty below 8", 1000, 500, 1000, 900, 200, 100, 5, true, 25600,
	  KVER_6_12, 2032 },
	/* 6.18: the wb cubic at 5 of setpoint 150 is 2048; min(1016, 2048) */
	{ "6.18 strict, wb_dirty below 8", 1000, 500, 1000, 900, 200, 100, 5, true, 25600,
	  KVER_6_18, 1016 },
	/* non-strict, global dirty 200: p = 2048 (clamped). wb_thresh 10,
	 * wb_dirty 150, write_bw 25.
	 * 6.12: Wt = max(10, (1000 - 200)/8 = 100) = 100; x16 = 6553600/1001 = 6547;
	 * wb_setpoint = 875 * 6547 >> 16 = 87; span = 1100 * 6547 >> 16 = 109;
	 * x_intercept 196; 150 < 196 - 27: p = 2048 * 46 / 109 = 864 */
	{ "6.12 wb line, thresh floored", 1000, 500, 1000, 200, 10, 5, 150, false, 25, KVER_6_12,
	  864 },
	/* 6.18: Wt = 10: x16 = 654; wb_setpoint 8; span 1190 * 654 >> 16 = 11;
	 * x_intercept 19; 150 >= 19 - 2: p = 2048 / 4 = 512 */
	{ "6.18 wb line, thresh not floored", 1000, 500, 1000, 200, 10, 5, 150, false, 25,
	  KVER_6_18, 512 },
	/* Non-strict, single device: thresh 1000, bg 500, limit 1000, dirty 875
	 * (global setpoint -> p = 1024), wb_thresh 1000, write_bw 25 pages/s:
	 *   x16 = (1000 << 16) / (1000 | 1 = 1001) = 65536000/1001 = 65470
	 *   wb_setpoint = 875 * 65470 >> 16 = 57286250 >> 16 = 874
	 *   span = (1000 - 1000 + 8*25) * 65470 >> 16 = 13094000 >> 16 = 199
	 *   x_intercept = 874 + 199 = 1073; floor from 1073 - 199/4 = 1073 - 49 = 1024
	 *   reserve area h = 1000/2 = 500, h/8 = 62 */
	/* wb_dirty 874: p = 1024 * (1073 - 874) / (199 | 1 = 199) = 1024 */
	{ "wb line at the wb setpoint", 1000, 500, 1000, 875, 1000, 500, 874, false, 25, LATEST,
	  1024 },
	/* wb_dirty 1000 < 1024: p = 1024 * 73 / 199 = 74752/199 = 375 */
	{ "wb line", 1000, 500, 1000, 875, 1000, 500, 1000, false, 25, LATEST, 375 },
	/* wb_thresh 1500 > thresh is clamped to 1000: same 375 */
	{ "wb line, wb_thresh clamped", 1000, 500, 1000, 875, 1500, 750, 1000, false, 25, LATEST,
	  375 },
	/* wb_dirty 1030 >= 1024: p = 1024/4 = 256 */
	{ "wb line floor", 1000, 500, 1000, 875, 1000, 500, 1030, false, 25, LATEST, 256 },
	/* far past the wb threshold, still 1/4 of the global value: only dirty >= limit stops */
	{ "wb line floor, far past", 1000, 500, 1000, 875, 1000, 500, 5000, false, 25, LATEST,
	  256 },
	/* wb_dirty 300 (62 < 300 < 500): line p = 1024 * (1073-300)/199 = 791552/199 = 3977;
	 * then p = 3977 * 500 / 300 = 1988500/300 = 6628 (not clamped to 2048) */
	{ "reserve area", 1000, 500, 1000, 875, 1000, 500, 300, false, 25, LATEST, 6628 },
	/* wb_dirty 50 <= 62: line p = 1024 * 1023 / 199 = 1047552/199 = 5264; * 8 = 42112 */
	{ "reserve area, below h/8", 1000, 500, 1000, 875, 1000, 500, 50, false, 25, LATEST,
	  42112 },
	/* JBOD, wb_thresh 500 of 1000: x16 = (500 << 16)/1001 = 32768000/1001 = 32735;
	 * wb_setpoint = 875 * 32735 >> 16 = 28643125 >> 16 = 437;
	 * span = (1000 - 500 + 200) * 32735 >> 16 = 22914500 >> 16 = 349;
	 * x_intercept = 786; floor from 786 - 87 = 699; h = 250.
	 * wb_dirty 600: p = 1024 * (786 - 600) / (349 | 1 = 349) = 190464/349 = 545 */
	{ "JBOD", 1000, 500, 1000, 875, 500, 250, 600, false, 25, LATEST, 545 },
	/* wb_dirty 437 = wb_setpoint: 1024 * 349 / 349 = 1024 */
	{ "JBOD at the wb setpoint", 1000, 500, 1000, 875, 500, 250, 437, false, 25, LATEST, 1024 },
};

static void test_position(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(position_rows); i++) {
		const struct position_row *r = &position_rows[i];
		struct dtc d = mkdtc(r->thresh, r->bg, r->limit, r->dirty, r->wb_thresh,
				     r->wb_bg_thresh, r->wb_dirty);

		if (r->kver == LATEST)
			wb_position_ratio(&d, r->strict, r->write_bw);
		else
			wb_position_ratio_kver(&d, r->strict, r->write_bw, (enum sim_kver)r->kver);
		row_int_equal(r, d.pos_ratio, r->want);
	}
}

static void test_dirty_exceeded_and_freerun(void **state)
{
	struct dtc d;

	(void)state;
	/* non-strict freerun: dirty <= (1000 + 500)/2 = 750 */
	d = mkdtc(1000, 500, 1000, 750, 200, 100, 190);
	assert_true(domain_dirty_freerun(&d, false));
	d.dirty = 751;
	assert_false(domain_dirty_freerun(&d, false));
	/* strict: wb_dirty <= (200 + 100)/2 = 150, global ignored (dirty 5000) */
	d = mkdtc(1000, 500, 1000, 5000, 200, 100, 150);
	assert_true(domain_dirty_freerun(&d, true));
	d.wb_dirty = 151;
	assert_false(domain_dirty_freerun(&d, true));
	/* wb_bg_thresh = wb_thresh * bg / thresh = 200 * 500 / 1000 = 100; thresh 0 -> 0 */
	d = mkdtc(1000, 500, 1000, 0, 200, 0, 0);
	assert_int_equal(wb_bg_thresh_of(&d), 100);
	d.thresh = 0;
	assert_int_equal(wb_bg_thresh_of(&d), 0);
	/* dirty_exceeded = wb_dirty > wb_thresh && (dirty > thresh || strict) */
	d = mkdtc(1000, 500, 1000, 900, 200, 100, 201);
	assert_false(wb_dirty_exceeded(&d, false));
	assert_true(wb_dirty_exceeded(&d, true));
	d.dirty = 1001;
	assert_true(wb_dirty_exceeded(&d, false));
	d.wb_dirty = 200;
	assert_false(wb_dirty_exceeded(&d, true));
}

/* ------------------------------------------------------------------ */
/* §4, §6 poll interval, pauses, one throttled pass                    */
/* ------------------------------------------------------------------ */

static void test_dirty_poll_interval(void **state)
{
	(void)state;
	/* 1 << (ilog2(thresh - dirty) / 2) */
	assert_int_equal(dirty_poll_interval(0, 10000), 64);      /* ilog2 13 -> 6 */
	assert_int_equal(dirty_poll_interval(0, 1048576), 1024);  /* ilog2 20 -> 10 */
	assert_int_equal(dirty_poll_interval(9997, 10000), 1);    /* ilog2 3 = 1 -> 0 */
	assert_int_equal(dirty_poll_interval(9996, 10000), 2);    /* ilog2 4 = 2 -> 1 */
	assert_int_equal(dirty_poll_interval(9999, 10000), 1);    /* ilog2 1 = 0 */
	assert_int_equal(dirty_poll_interval(10000, 10000), 1);   /* thresh <= dirty */
	assert_int_equal(dirty_poll_interval(20000, 10000), 1);
}

static void test_max_pause(void **state)
{
	(void)state;
	/* HZ 1000: rp2(1 + 125) = 128; bw 25600/128 = 200; t = wb_dirty/201 + 1;
	 * MAX_PAUSE = 200 */
	assert_int_equal(wb_max_pause(&K1000, 25600, 10000), 50);  /* 49 + 1 */
	assert_int_equal(wb_max_pause(&K1000, 25600, 100000), 200); /* 497 + 1 -> 200 */
	assert_int_equal(wb_max_pause(&K1000, 25600, 0), 1);
	assert_int_equal(wb_max_pause(&K1000, 25600, 500), 3);     /* 2 + 1 */
	/* HZ 250: rp2(1 + 31) = 32; 25600/32 = 800; t = wb_dirty/801 + 1; MAX_PAUSE 50 */
	assert_int_equal(wb_max_pause(&K250, 25600, 10000), 13);   /* 12 + 1 */
	assert_int_equal(wb_max_pause(&K250, 25600, 100000), 50);  /* 124 + 1 -> 50 */
	/* slow device, bw 100 < 128: 1 + 0 = 1 -> t = wb_dirty + 1 */
	assert_int_equal(wb_max_pause(&K1000, 100, 37), 38);
}

/* wb_min_pause(k, avg_write_bw, dirty_ratelimit, max_pause, task_ratelimit):
 * min_pause and the next nr_dirtied_pause */
static const struct min_pause_row {
	const char *name;
	const struct kcfg *k;
	uint64_t avg_write_bw, dirty_ratelimit;
	int64_t max_pause;
	uint64_t task_ratelimit;
	int64_t want;
	uint64_t want_nr_dirtied_pause;
} min_pause_rows[] = {
	/* one dd: hi = lo = ilog2(25600) = 14; t = max(1, 10) = 10; min(10, 1 + 200/2);
	 * pages = 25600 * 10 / rp2(1000) = 256000/1024 = 250; pause = 1000*250/25601 = 9
	 * <= 200; pages >= 32 -> min_pause = 1 + 10/2 = 6 */
	{ "one writer", &K1000, 25600, 25600, 200, 25600, 6, 250 },
	/* 4 writers: rl 6400, lo = 12; t = 10 + 2*10000/1024 = 10 + 19 = 29;
	 * pages = 6400*29/1024 = 181; pause = 181000/6401 = 28; 1 + 29/2 = 15 */
	{ "four writers", &K1000, 25600, 6400, 200, 6400, 15, 181 },
	/* rl 1000, lo = 9: t = 10 + 5*10000/1024 = 10 + 48 = 58; pages = 58000/1024 = 56;
	 * pause = 56000/1001 = 55; 1 + 58/2 = 30 */
	{ "ratelimit 1000", &K1000, 25600, 1000, 200, 1000, 30, 56 },
	/* rl 300, lo = 8: t = 10 + 6*10000/1024 = 10 + 58 = 68; pages = 20400/1024 = 19 < 32
	 * -> t = max_pause 200, pages = 60000/1024 = 58 > 32 -> pages 32,
	 * t = 1000*32/300 = 106; pause = 32000/301 = 106 <= 200; 1 + 106/2 = 54 */
	{ "below the poll threshold", &K1000, 25600, 300, 200, 300, 54, 32 },
	/* task_rl tiny (100): t 10, pages 250; pause = 250000/101 = 2475 > 200
	 * -> t = 200, pages = 100 * 200 / 1024 = 19 < 32 -> min_pause = t = 200 */
	{ "task ratelimit tiny", &K1000, 25600, 25600, 200, 100, 200, 19 },
	/* task_rl 0: pause = 250000/1 > max 50 -> t = 50, pages = 0: nr_dirtied_pause 0 */
	{ "task ratelimit 0", &K1000, 25600, 25600, 50, 0, 50, 0 },
	/* HZ 250: t = max(1, 2) = 2; rp2(250) = 256; max_pause 50 -> min(2, 26) = 2;
	 * pages = 25600*2/256 = 200; pause = 250*200/25601 = 1; 1 + 2/2 = 2 */
	{ "HZ 250, one writer", &K250, 25600, 25600, 50, 25600, 2, 200 },
	/* 4 writers: t = 2 + 2*2500/1024 = 2 + 4 = 6; pages = 6400*6/256 = 150;
	 * pause = 37500/6401 = 5; 1 + 6/2 = 4 */
	{ "HZ 250, four writers", &K250, 25600, 6400, 50, 6400, 4, 150 },
};

static void test_min_pause(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(min_pause_rows); i++) {
		const struct min_pause_row *r = &min_pause_rows[i];
		uint64_t nrp;

		const int64_t min_pause = wb_min_pause(r->k, r->avg_write_bw, r->dirty_ratelimit,
						       r->max_pause, r->task_ratelimit, &nrp);

		row_int_equal(r, min_pause, r->want);
		row_int_equal(r, nrp, r->want_nr_dirtied_pause);
	}
}

static struct bdp_throttle_in bdp_in(uint64_t pages_dirtied, uint64_t now, int64_t pos_ratio,
				     uint64_t wb_dirty)
{
	struct bdp_throttle_in in;

	memset(&in, 0, sizeof(in));
	in.pages_dirtied = pages_dirtied;
	in.now = now;
	in.dirty_ratelimit = 25600;
	in.avg_write_bw = 25600;
	in.pos_ratio = pos_ratio;
	in.wb_dirty = wb_dirty;
	in.wb_stat_error = 640; /* 16 CPUs */
	return in;
}

/* bdp_throttle(), one call a row, HZ 1000, 16 CPUs (bdp_in()): the task as
 * the row gives it (task_dirty_init() and then its three fields), and what
 * the row checks after the call, nothing else. */
enum bdp_out { TASK_RATELIMIT = 1, PAUSE, AGAIN, PAUSED_WHEN, NR_DIRTIED, NR_DIRTIED_PAUSE };
static const char *const bdp_out_names[] = {
	[TASK_RATELIMIT] = "task_ratelimit", [PAUSE] = "pause", [AGAIN] = "again",
	[PAUSED_WHEN] = "dirty_paused_when", [NR_DIRTIED] = "nr_dirtied",
	[NR_DIRTIED_PAUSE] = "nr_dirtied_pause",
};
static const struct bdp_row {
	const char *name;
	uint64_t paused_when, nr_dirtied, nr_dirtied_pause; /* the task before */
	uint64_t pages_dirtied, now;                         /* bdp_in() */
	int64_t pos_ratio;
	uint64_t wb_dirty;
	struct {
		enum bdp_out out;
		uint64_t v;
	} want[NR_DIRTIED_PAUSE + 1]; /* up to the first 0 */
} bdp_rows[] = {
	/* task_ratelimit = 25600 * 0 >> 10 = 0 -> period = pause = max_pause
	 * = 10000/201 + 1 = 50; sleeps, then loops (wb_dirty 10000 > 640);
	 * nr_dirtied_pause from wb_min_pause with task_rl 0 */
	{ "zero ratelimit", 0, 32, 32, 32, 1000, 0, 10000,
	  { { TASK_RATELIMIT, 0 }, { PAUSE, 50 }, { AGAIN, true }, { PAUSED_WHEN, 1050 },
	    { NR_DIRTIED, 0 }, { NR_DIRTIED_PAUSE, 0 } } },
	/* the task as the row above left it; wb_dirty 500 <= wb_stat_error 640: the
	 * pipe is let through, no loop; max_pause = 500/201 + 1 = 3 */
	{ "zero ratelimit, wb within the stat error", 1050, 0, 0, 32, 2000, 0, 500,
	  { { PAUSE, 3 }, { AGAIN, false } } },
	/* task_rl = 25600; period = 1000*32/25600 = 1; pause = 1 - (1000 - 1000) = 1;
	 * min_pause 6 (the min_pause row "one writer"): 1 < 6, period != 0
	 * -> dirty_paused_when += 1, nr_dirtied = 0, no sleep; nr_dirtied_pause untouched */
	{ "short pause banked", 1000, 32, 32, 32, 1000, 1024, 100000,
	  { { TASK_RATELIMIT, 25600 }, { PAUSE, 0 }, { AGAIN, false }, { PAUSED_WHEN, 1001 },
	    { NR_DIRTIED, 0 }, { NR_DIRTIED_PAUSE, 32 } } },
	/* period 1; pause = 1 - (3000 - 1000) = -1999 < -HZ -> reset to now */
	{ "reset after a long think", 1000, 32, 32, 32, 3000, 1024, 100000,
	  { { PAUSE, 0 }, { PAUSED_WHEN, 3000 }, { NR_DIRTIED, 0 } } },
	/* period = 16000/25600 = 0; pause 0 < 6; period 0 and 16 <= 16
	 * -> nr_dirtied_pause += 16 = 32; nr_dirtied and the clock untouched */
	{ "zero period grows the poll", 1000, 16, 16, 16, 1000, 1024, 100000,
	  { { PAUSE, 0 }, { NR_DIRTIED_PAUSE, 32 }, { NR_DIRTIED, 16 }, { PAUSED_WHEN, 1000 } } },
	/* the task as the row above left it: nr_dirtied_pause 32 > 16, unchanged */
	{ "zero period, poll already grown", 1000, 16, 32, 16, 1000, 1024, 100000,
	  { { NR_DIRTIED_PAUSE, 32 } } },
	/* task_rl = 25600*512 >> 10 = 12800; period = 250000/12800 = 19; pause 19;
	 * max 200; min_pause: t 10, pages 250, 250000/12801 = 19 <= 200 -> 6.
	 * 6 <= 19 <= 200: sleep 19 */
	{ "normal sleep", 1000, 0, 32, 250, 1000, 512, 100000,
	  { { TASK_RATELIMIT, 12800 }, { PAUSE, 19 }, { AGAIN, false }, { PAUSED_WHEN, 1019 },
	    { NR_DIRTIED_PAUSE, 250 } } },
	/* first pass of a task (dirty_paused_when 0): pause = period, nothing subtracted */
	{ "normal sleep, first pass", 0, 0, 32, 250, 50000, 512, 100000,
	  { { PAUSE, 19 }, { PAUSED_WHEN, 50019 } } },
	/* task_rl = 25600*10 >> 10 = 250; period = 100000/250 = 400; pause 400 > max 200
	 * -> now += min(400 - 200, 200) = 5200; pause = 200;
	 * dirty_paused_when = 5200 + 200 = 5400.
	 * nr_dirtied_pause: 250000/251 = 996 > 200 -> pages = 250*200/1024 = 48 */
	{ "long pause trimmed", 5000, 0, 32, 100, 5000, 10, 100000,
	  { { TASK_RATELIMIT, 250 }, { PAUSE, 200 }, { AGAIN, false }, { PAUSED_WHEN, 5400 },
	    { NR_DIRTIED_PAUSE, 48 } } },
	/* 60 pages: period = 60000/250 = 240 -> now += 40; paused_when = 5040 + 200 */
	{ "long pause trimmed, 60 pages", 5000, 0, 32, 60, 5000, 10, 100000,
	  { { PAUSE, 200 }, { PAUSED_WHEN, 5240 } } },
};

static void test_bdp_throttle(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(bdp_rows); i++) {
		const struct bdp_row *r = &bdp_rows[i];
		const struct bdp_throttle_in in = bdp_in(r->pages_dirtied, r->now, r->pos_ratio,
							 r->wb_dirty);
		struct task_dirty t;
		uint64_t trl, pause;
		bool again;

		task_dirty_init(&t);
		t.dirty_paused_when = r->paused_when;
		t.nr_dirtied = r->nr_dirtied;
		t.nr_dirtied_pause = r->nr_dirtied_pause;
		pause = bdp_throttle(&K1000, &t, &in, &trl, &again);
		const uint64_t got[] = {
			[TASK_RATELIMIT] = trl, [PAUSE] = pause,
			[PAUSED_WHEN] = t.dirty_paused_when, [NR_DIRTIED] = t.nr_dirtied,
			[NR_DIRTIED_PAUSE] = t.nr_dirtied_pause,
		};
		for (size_t j = 0; j < ROWS(r->want) && r->want[j].out; j++) {
			const enum bdp_out out = r->want[j].out;

			if (out == AGAIN)
				row_bool_equal(r, again, r->want[j].v);
			else
				row_int_named(r, bdp_out_names[out], got[out], r->want[j].v);
		}
	}
}

static void test_bdp_freerun_exit_and_enter(void **state)
{
	struct task_dirty t;
	uint64_t cpu;

	(void)state;
	task_dirty_init(&t);
	assert_int_equal(t.nr_dirtied_pause, 32); /* 128 >> (12 - 10) */
	/* freerun exit: paused_when = now, nr_dirtied 0, poll = interval */
	t.nr_dirtied = 40;
	bdp_freerun_exit(&t, 777, 64);
	assert_int_equal(t.dirty_paused_when, 777);
	assert_int_equal(t.nr_dirtied, 0);
	assert_int_equal(t.nr_dirtied_pause, 64);

	/* nr_dirtied 10 < ratelimit 64, cpu 10 < ratelimit_pages 195: no entry */
	t.nr_dirtied = 10;
	cpu = 10;
	assert_false(bdp_ratelimited_enter(&t, false, &cpu, 195));
	assert_int_equal(cpu, 10);
	/* dirty_exceeded: ratelimit = min(64, 32 >> 2 = 8) = 8 <= 10: enter, cpu reset */
	assert_true(bdp_ratelimited_enter(&t, true, &cpu, 195));
	assert_int_equal(cpu, 0);
	/* this CPU's count reached ratelimit_pages: forced entry, reset */
	cpu = 195;
	assert_true(bdp_ratelimited_enter(&t, false, &cpu, 195));
	assert_int_equal(cpu, 0);
	/* nr_dirtied 64 >= 64: enter */
	t.nr_dirtied = 64;
	cpu = 3;
	assert_true(bdp_ratelimited_enter(&t, false, &cpu, 195));
	assert_int_equal(cpu, 0);
}

static void test_wb_stat_error(void **state)
{
	struct kcfg k = K1000;

	(void)state;
	/* nr_cpu_ids * 8 * (1 + ilog2(nr_cpu_ids)): 16 * 8 * 5 = 640 */
	assert_int_equal(wb_stat_error(&k), 640);
	k.ncpus = 1; /* 1 * 8 * 1 */
	assert_int_equal(wb_stat_error(&k), 8);
	k.ncpus = 6; /* 6 * 8 * (1 + 2) = 144 */
	assert_int_equal(wb_stat_error(&k), 144);
}

/* ------------------------------------------------------------------ */
/* §7 bandwidth, §6.3 dirty_ratelimit, §8.4 chunk size                 */
/* ------------------------------------------------------------------ */

/* wb_update_write_bandwidth(k, b, elapsed, written) from the state a row
 * gives (write_bandwidth, avg_write_bandwidth, written_stamp): the delta of
 * the average it returns and the two rates after (ANY: not checked). HZ 1000:
 * P = rp2(3000) = 4096 (log2 12); HZ 250: P = rp2(750) = 1024 (log2 10). */
static const struct write_bw_row {
	const char *name;
	const struct kcfg *k;
	uint64_t write_bw, avg_write_bw, written_stamp;
	uint64_t elapsed, written;
	int64_t want_delta;
	uint64_t want_write_bw, want_avg_write_bw;
} write_bw_rows[] = {
	/* 12800 pages in 1000 jiffies from INIT_BW:
	 * bw = (12800*1000 + 25600*(4096 - 1000)) >> 12 = (12800000 + 79257600) / 4096
	 *    = 92057600 / 4096 = 22475. avg == old: no smoothing step */
	{ "EWMA", &K1000, 25600, 25600, 0, 1000, 12800, 0, 22475, 25600 },
	/* the next second (as the row above left it), another 12800:
	 * bw = (12800000 + 22475*3096) >> 12 = (12800000 + 69582600) / 4096 = 82382600/4096
	 * = 20112; avg 25600 > old 22475 >= bw 20112: avg -= (25600 - 22475) >> 3 = 390
	 * -> 25210 */
	{ "EWMA, the next second", &K1000, 22475, 25600, 12800, 1000, 25600, -390, 20112, 25210 },
	/* rising: bw = (40000*1000 + 30000*3096) >> 12 = 132880000/4096 = 32441;
	 * avg 25600 < old 30000 <= 32441: avg += (30000 - 25600) >> 3 = 550 -> 26150 */
	{ "avg follows a rise", &K1000, 30000, 25600, 0, 1000, 40000, 550, 32441, 26150 },
	/* spike then drop (as the row above left it): old 32441, new bw below it;
	 * avg 26150 < old but old > bw: avg unchanged.
	 * bw = (0 + 32441*3096) >> 12 = 100437336/4096 = 24520 */
	{ "avg holds after a spike", &K1000, 32441, 26150, 40000, 1000, 40000, 0, 24520, 26150 },
	/* elapsed 5000 > P 4096: bw = 10000*1000/5000 = 2000; avg = bw */
	{ "reset after a period", &K1000, 25600, 25600, 0, 5000, 10000, 2000 - 25600, 2000, 2000 },
	/* nothing written: bw 0, avg = max(0, 1) = 1 */
	{ "reset, nothing written", &K1000, 25600, 25600, 0, 5000, 0, ANY, 0, 1 },
	/* written went backwards (redirty): delta = written - min(written, stamp) = 0 */
	{ "reset, written went backwards", &K1000, 25600, 25600, 500, 5000, 400, ANY, 0, ANY },
	/* 12800 pages in 250 jiffies:
	 * (12800*250 + 25600*774) >> 10 = (3200000 + 19814400)/1024 = 23014400/1024 = 22475 */
	{ "HZ 250", &K250, 25600, 25600, 0, 250, 12800, ANY, 22475, ANY },
	/* elapsed = P exactly is not a reset: (5120*250 + 25600*0) >> 10 = 1280000/1024 = 1250;
	 * avg == old: unchanged */
	{ "HZ 250, elapsed a period", &K250, 25600, 25600, 0, 1024, 5120, ANY, 1250, 25600 },
	/* elapsed 1025 > P: 5120*250/1025 = 1280000/1025 = 1248; avg = 1248 */
	{ "HZ 250, reset", &K250, 25600, 25600, 0, 1025, 5120, ANY, 1248, 1248 },
};

static void test_write_bw(void **state)
{
	struct wb_bw b;

	(void)state;
	wb_bw_init(&b, 0);
	assert_int_equal(b.write_bandwidth, 25600); /* INIT_BW = 100 << 8 */
	assert_int_equal(b.avg_write_bandwidth, 25600);
	for (size_t i = 0; i < ROWS(write_bw_rows); i++) {
		const struct write_bw_row *r = &write_bw_rows[i];
		int64_t delta;

		wb_bw_init(&b, 0);
		b.write_bandwidth = r->write_bw;
		b.avg_write_bandwidth = r->avg_write_bw;
		b.written_stamp = r->written_stamp;
		delta = wb_update_write_bandwidth(r->k, &b, r->elapsed, r->written);
		row_int_unless_any(r, delta, r->want_delta);
		row_int_equal(r, b.write_bandwidth, r->want_write_bw);
		row_int_unless_any(r, b.avg_write_bandwidth, r->want_avg_write_bw);
	}
}

static void test_update_bandwidth_stamps(void **state)
{
	struct wb_bw b;
	struct wb_domain dom = { 0 };

	(void)state;
	wb_bw_init(&b, 0);
	/* elapsed 1000, 12800 written: as the write_bw row "EWMA" -> 22475; stamps move */
	wb_update_bandwidth_at(&K1000, &b, &dom, NULL, false, false, 300, 12800, 1000, false);
	assert_int_equal(b.write_bandwidth, 22475);
	assert_int_equal(b.written_stamp, 12800);
	assert_int_equal(b.dirtied_stamp, 300);
	assert_int_equal(b.bw_time_stamp, 1000);
	assert_int_equal(b.dirty_ratelimit, 25600); /* no ratelimit update */
	/* now == stamp: elapsed = max(0, 1) = 1; nothing written:
	 * (0 + 22475 * 4095) >> 12 = 92035125/4096 = 22469 */
	wb_update_bandwidth_at(&K1000, &b, &dom, NULL, false, false, 300, 12800, 1000, false);
	assert_int_equal(b.write_bandwidth, 22469);
}

/* __wb_update_bandwidth() after an idle spell: stock kernels divide the
 * nothing written by the whole idle time and, past the 3 s period, the
 * estimate drops to 1 page/s; the series' first patch restarts the period
 * instead, keeping estimate and ratelimit, and still moves the domain's
 * limit. Only an idle wb: pages written or an inode under writeback, or no
 * more than HZ, and the update runs as before. */
static void test_update_bandwidth_idle(void **state)
{
	struct kcfg series = K1000;
	struct wb_bw b;
	struct wb_domain dom = { 0 };
	struct dtc d = { .thresh = 1000, .bg_thresh = 500, .limit = 1000, .dirty = 100,
			 .pos_ratio = 1 << RATELIMIT_CALC_SHIFT };

	(void)state;
	series.bw_idle_restart = true;
	/* stock: 10 s idle, nothing written: bw = 0, avg max(0, 1) */
	wb_bw_init(&b, 0);
	wb_update_bandwidth_at(&K1000, &b, &dom, &d, true, true, 40, 0, 10000, false);
	assert_int_equal(b.avg_write_bandwidth, 1);
	assert_int_equal(b.write_bandwidth, 0);
	/* the series: estimate and ratelimit kept, the period restarts now */
	wb_bw_init(&b, 0);
	dom = (struct wb_domain){ 0 };
	wb_update_bandwidth_at(&series, &b, &dom, &d, true, true, 40, 0, 10000, false);
	assert_int_equal(b.avg_write_bandwidth, INIT_BW);
	assert_int_equal(b.write_bandwidth, INIT_BW);
	assert_int_equal(b.dirty_ratelimit, INIT_BW);
	assert_int_equal(b.balanced_dirty_ratelimit, INIT_BW);
	assert_int_equal(b.bw_time_stamp, 10000);
	assert_int_equal(b.dirtied_stamp, 40);
	assert_int_equal(b.written_stamp, 0);
	assert_int_equal(dom.dirty_limit, 1000); /* domain_update_dirty_limit() ran */
	assert_int_equal(dom.dirty_limit_tstamp, 10000);
	/* an inode under writeback: not idle */
	wb_bw_init(&b, 0);
	wb_update_bandwidth_at(&series, &b, &dom, NULL, false, false, 0, 0, 10000, true);
	assert_int_equal(b.avg_write_bandwidth, 1);
	/* 12800 pages written since the stamp: 12800 * 1000 / 10000 */
	wb_bw_init(&b, 0);
	wb_update_bandwidth_at(&series, &b, &dom, NULL, false, false, 0, 12800, 10000, false);
	assert_int_equal(b.avg_write_bandwidth, 1280);
	/* elapsed HZ is not more than WB_BANDWIDTH_IDLE_JIF:
	 * (0 + 25600 * (4096 - 1000)) >> 12 = 19350 */
	wb_bw_init(&b, 0);
	wb_update_bandwidth_at(&series, &b, &dom, NULL, false, false, 0, 0, 1000, false);
	assert_int_equal(b.write_bandwidth, 19350);
}

static void test_bandwidth_estimate_start(void **state)
{
	struct wb_bw b;

	(void)state;
	wb_bw_init(&b, 0);
	/* elapsed 1000 is not > HZ: stamps kept */
	wb_bandwidth_estimate_start(&K1000, &b, 50, 60, 1000, false);
	assert_int_equal(b.bw_time_stamp, 0);
	/* inodes under writeback: kept */
	wb_bandwidth_estimate_start(&K1000, &b, 50, 60, 1001, true);
	assert_int_equal(b.bw_time_stamp, 0);
	/* idle > 1 s: restart at now with the current counters */
	wb_bandwidth_estimate_start(&K1000, &b, 50, 60, 1001, false);
	assert_int_equal(b.bw_time_stamp, 1001);
	assert_int_equal(b.dirtied_stamp, 50);
	assert_int_equal(b.written_stamp, 60);
}

/* wb_update_dirty_ratelimit(): thresh 1000, bg 500, limit 1000 ->
 * global setpoint 875; write_bw 25600 (INIT_BW); 200 jiffies at HZ 1000.
 * A row gives the dtc, its pos_ratio, the wb's two ratelimits before, and the
 * pages dirtied; it checks both ratelimits after (ANY: not checked). */
static const struct ratelimit_row {
	const char *name;
	const struct kcfg *k;
	uint64_t dirty, wb_thresh, wb_bg_thresh, wb_dirty; /* the dtc's, besides 1000/500/1000 */
	int64_t pos_ratio;
	bool strict;
	uint64_t dirty_ratelimit, balanced_dirty_ratelimit;
	uint64_t dirtied;
	uint64_t want, want_balanced;
} ratelimit_rows[] = {
	/* pos_ratio 803 = pos_ratio_polynom(875, 950, 1000);
	 * dirty_rate = 20000 * 1000 / 200 = 100000;
	 * task_rl = (25600 * 803 >> 10) + 1 = 20556800/1024 + 1 = 20075 + 1 = 20076;
	 * balanced = 20076 * 25600 / (100000 | 1 = 100001) = 513945600/100001 = 5139;
	 * dirty 950 >= 875: x = max(10000, 5139, 20076) = 20076; rl 25600 > x
	 * -> step = 5524; shift = 25600 / 11049 = 2; step = ceil((5524 >> 2 = 1381)/8) = 173;
	 * rl >= balanced -> 25600 - 173 = 25427 */
	{ "step down", &K1000, 950, 1000, 500, 950, 803, false, 25600, 10000, 20000, 25427, 5139 },
	/* pos_ratio 1244 = pos_ratio_polynom(875, 800, 1000);
	 * dirty_rate = 2000*1000/200 = 10000; task_rl = (10000*1244 >> 10) + 1
	 * = 12440000/1024 + 1 = 12148 + 1 = 12149; balanced = 12149*25600/10001
	 * = 311014400/10001 = 31098 > write_bw -> 25600;
	 * dirty 800 < 875: x = min(20000, 25600, 12149) = 12149; step = 2149;
	 * shift = 10000/4299 = 2; step = ceil((2149 >> 2 = 537)/8) = 68; 10000 + 68 */
	{ "step up", &K1000, 800, 1000, 500, 800, 1244, false, 10000, 20000, 2000, 10068, 25600 },
	/* the same rates as "step up" but global dirty 950 >= setpoint:
	 * x = max(20000, 25600, 12149) = 25600; rl 10000 > x? no -> step 0 */
	{ "no step when the signals disagree", &K1000, 950, 1000, 500, 950, 1244, false, 10000,
	  20000, 2000, 10000, 25600 },
	/* strict: dirty = wb_dirty 100, setpoint = (200 + 100)/2 = 150 -> the rising
	 * branch as in "step up": 10068 */
	{ "strict: the wb's own setpoint", &K1000, 950, 200, 100, 100, 1244, true, 10000, 20000,
	  2000, 10068, ANY },
	/* Before 6.14 a strict wb with wb_dirty < 8 takes wb_dirty + 1 as its
	 * setpoint. wb_thresh 8, wb_bg 4: setpoint (8 + 4)/2 = 6; wb_dirty 7.
	 * 6.18: 7 >= 6: x = max(20000, 25600, 12149) = 25600; rl 10000 < x: no step. */
	{ "6.18 strict, wb_dirty below 8", &K1000, 950, 8, 4, 7, 1244, true, 10000, 20000, 2000,
	  10000, ANY },
	/* 6.12: setpoint 8 > 7: the rising branch of "step up": 10068 */
	{ "6.12 strict, wb_dirty below 8", &K612, 950, 8, 4, 7, 1244, true, 10000, 20000, 2000,
	  10068, ANY },
	/* pos_ratio 1016 = pos_ratio_polynom(875, 900, 1000);
	 * task_rl = (25600*1016 >> 10) + 1 = 25400 + 1 = 25401; dirty_rate 100000;
	 * balanced = 25401*25600/100001 = 6502; x = max(6502, 6502, 25401) = 25401;
	 * step = 199; shift = 25600/399 = 64 -> not < 64 -> step 0 */
	{ "small gap: no step", &K1000, 900, 1000, 500, 900, 1016, false, 25600, 6502, 20000, 25600,
	  6502 },
};

static void test_dirty_ratelimit(void **state)
{
	(void)state;
	for (size_t i = 0; i < ROWS(ratelimit_rows); i++) {
		const struct ratelimit_row *r = &ratelimit_rows[i];
		struct dtc d = mkdtc(1000, 500, 1000, r->dirty, r->wb_thresh, r->wb_bg_thresh,
				     r->wb_dirty);
		struct wb_bw b;

		d.pos_ratio = r->pos_ratio;
		wb_bw_init(&b, 0);
		b.dirty_ratelimit = r->dirty_ratelimit;
		b.balanced_dirty_ratelimit = r->balanced_dirty_ratelimit;
		wb_update_dirty_ratelimit(r->k, &b, &d, r->strict, r->dirtied, 200);
		row_int_equal(r, b.dirty_ratelimit, r->want);
		row_int_unless_any(r, b.balanced_dirty_ratelimit, r->want_balanced);
	}
}

static void test_chunk_size(void **state)
{
	(void)state;
	/* INIT_BW: min(25600/2 = 12800, 1000000/8 = 125000, nr) = 12800;
	 * round_down(12800 + 1024, 1024) = 13312 pages = 52 MiB */
	assert_int_equal(writeback_chunk_size(25600, 1000000, UINT64_MAX, false), 13312);
	assert_int_equal(13312ULL * 4096, 52 * MIB);
	/* slow device: 100/2 = 50 -> round_down(1074, 1024) = 1024 (4 MiB minimum) */
	assert_int_equal(writeback_chunk_size(100, 1000000, UINT64_MAX, false), 1024);
	/* bounded by dirty_limit/8: 40000/8 = 5000 -> round_down(6024) = 5120 */
	assert_int_equal(writeback_chunk_size(25600, 40000, UINT64_MAX, false), 5120);
	/* bounded by work.nr_pages 10 -> 1034 -> 1024 */
	assert_int_equal(writeback_chunk_size(25600, 1000000, 10, false), 1024);
	/* exact multiple: 2048/2 = 1024 -> 2048 -> 2048 */
	assert_int_equal(writeback_chunk_size(2048, 1000000, UINT64_MAX, false), 2048);
	/* WB_SYNC_ALL / tagged: the whole inode */
	assert_int_equal(writeback_chunk_size(25600, 1000000, 10, true), UINT64_MAX);
}

/* The inverse of bdi_get_bytes: 4984233984 bytes at 1000000 ppm is the
 * threshold itself; 49842339 at 10000 ppm: 49842339/10000 = 4984 r 2339,
 * 4984 * 1e6 + 2339 * 1e6 / 10000 = 4984000000 + 233900 = 4984233900. */
static void test_global_thresh_from_bdi(void **state)
{
	(void)state;
	assert_int_equal(global_thresh_from_bdi(4984233984ULL, 1000000), 4984233984ULL);
	assert_int_equal(global_thresh_from_bdi(49842339ULL, 10000), 4984233900ULL);
	assert_int_equal(global_thresh_from_bdi(16777216ULL, 0), 0);
}

/* The amounts people read: the log's style (0), wbgov's (KiB rounded
 * down) and the notification's (whole MiB from 10 MiB), each edge. */
static void test_bytes_text(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *plain, *kib_down, *mib_short;
	} t[] = {
		{ 0ULL, "0 KiB", "0 KiB", "0 KiB" },
		{ 1ULL, "0 KiB", "0 KiB", "0 KiB" },
		{ 511ULL, "0 KiB", "0 KiB", "0 KiB" },
		{ 512ULL, "0 KiB", "0 KiB", "0 KiB" },
		{ 513ULL, "1 KiB", "0 KiB", "1 KiB" },
		{ 1023ULL, "1 KiB", "0 KiB", "1 KiB" },
		{ 1024ULL, "1 KiB", "1 KiB", "1 KiB" },
		{ 1535ULL, "1 KiB", "1 KiB", "1 KiB" },
		{ 1536ULL, "2 KiB", "1 KiB", "2 KiB" },
		{ 2560ULL, "2 KiB", "2 KiB", "2 KiB" },
		{ 3584ULL, "4 KiB", "3 KiB", "4 KiB" },
		{ 1048575ULL, "1024 KiB", "1023 KiB", "1024 KiB" },
		{ 1048576ULL, "1.0 MiB", "1.0 MiB", "1.0 MiB" },
		{ 1101004ULL, "1.0 MiB", "1.0 MiB", "1.0 MiB" },
		{ 10485759ULL, "10.0 MiB", "10.0 MiB", "10.0 MiB" },
		{ 10433331ULL, "9.9 MiB", "9.9 MiB", "9.9 MiB" },
		{ 10485760ULL, "10.0 MiB", "10.0 MiB", "10 MiB" },
		{ 11010048ULL, "10.5 MiB", "10.5 MiB", "10 MiB" },
		{ 12058624ULL, "11.5 MiB", "11.5 MiB", "12 MiB" },
		{ 125829120ULL, "120.0 MiB", "120.0 MiB", "120 MiB" },
		{ 1073741823ULL, "1024.0 MiB", "1024.0 MiB", "1024 MiB" },
		{ 1073741824ULL, "1.0 GiB", "1.0 GiB", "1.0 GiB" },
		{ 1127428915ULL, "1.0 GiB", "1.0 GiB", "1.0 GiB" },
		{ 1649267441664ULL, "1536.0 GiB", "1536.0 GiB", "1536.0 GiB" },
		{ UINT64_MAX, "17179869184.0 GiB", "17179869184.0 GiB",
		  "17179869184.0 GiB" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		bytes_text(buf, sizeof(buf), t[i].bytes, 0);
		assert_string_equal(buf, t[i].plain);
		bytes_text(buf, sizeof(buf), t[i].bytes, BYTES_KIB_DOWN);
		assert_string_equal(buf, t[i].kib_down);
		bytes_text(buf, sizeof(buf), t[i].bytes, BYTES_MIB_SHORT);
		assert_string_equal(buf, t[i].mib_short);
	}
	/* a short buffer: cut, still a string */
	bytes_text(buf, 4, 120 * MIB, 0);
	assert_string_equal(buf, "120");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirtyable),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_sysctl_write),
		cmocka_unit_test(test_set_ratelimit),
		cmocka_unit_test(test_hard_dirty_limit),
		cmocka_unit_test(test_update_dirty_limit),
		cmocka_unit_test(test_bdi_defaults),
		cmocka_unit_test(test_bdi_max_prop_frac_truncation),
		cmocka_unit_test(test_bdi_max_below_min_refused),
		cmocka_unit_test(test_bdi_min_ratio_sum_strict),
		cmocka_unit_test(test_bdi_set_max_bytes_conversion),
		cmocka_unit_test(test_bdi_set_max_bytes_einval),
		cmocka_unit_test(test_bdi_set_min_bytes),
		cmocka_unit_test(test_bdi_get_bytes_drift),
		cmocka_unit_test(test_wb_thresh),
		cmocka_unit_test(test_wb_min_max_ratio_split),
		cmocka_unit_test(test_fprop_init),
		cmocka_unit_test(test_fprop_fresh_fraction),
		cmocka_unit_test(test_fprop_aging_and_lazy_local),
		cmocka_unit_test(test_fprop_missed_periods),
		cmocka_unit_test(test_fprop_lazy_aging_skips_periods),
		cmocka_unit_test(test_fprop_new_period_64),
		cmocka_unit_test(test_fprop_timer_stops_when_idle),
		cmocka_unit_test(test_fprop_max_frac_saturation),
		cmocka_unit_test(test_fprop_max_frac_drop),
		cmocka_unit_test(test_fprop_max_frac_zero_never_credited),
		cmocka_unit_test(test_fprop_dropped_event_rearms_timer),
		cmocka_unit_test(test_polynom),
		cmocka_unit_test(test_position),
		cmocka_unit_test(test_dirty_exceeded_and_freerun),
		cmocka_unit_test(test_dirty_poll_interval),
		cmocka_unit_test(test_max_pause),
		cmocka_unit_test(test_min_pause),
		cmocka_unit_test(test_bdp_throttle),
		cmocka_unit_test(test_bdp_freerun_exit_and_enter),
		cmocka_unit_test(test_wb_stat_error),
		cmocka_unit_test(test_write_bw),
		cmocka_unit_test(test_update_bandwidth_stamps),
		cmocka_unit_test(test_update_bandwidth_idle),
		cmocka_unit_test(test_bandwidth_estimate_start),
		cmocka_unit_test(test_dirty_ratelimit),
		cmocka_unit_test(test_chunk_size),
		cmocka_unit_test(test_global_thresh_from_bdi),
		cmocka_unit_test(test_bytes_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
