/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated kernel's behaviour on small machines built by hand, the
 * simulated knobs, the parsers, and determinism of whole runs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lab/lab.h"
#include "model/ini.h"
#include "sim/kernel.h"
#include "sim/scenario.h"
#include "sim/scenfile.h"

#define MB 1000000ULL

static struct sim_kernel_cfg machine(void)
{
	struct sim_kernel_cfg k = {
		.k = { .hz = 250, .long_bits = 64, .ncpus = 2 },
		.mem_bytes = 4 * GIB, .kernel_bytes = 64 * MIB, .anon_bytes = 512 * MIB,
		.reserve_bytes = 32 * MIB, .lowmem_bytes = 896 * MIB,
	};
	return k;
}

static struct sim_dev_cfg disk(uint64_t bps)
{
	struct sim_dev_cfg d = { .name = "sdx", .bus = BUS_USB, .bw = { { .bps = bps } }, .nbw = 1,
				 .queue_bytes = 16 * MIB };
	return d;
}

static struct sim_task_cfg writer(uint64_t bytes, enum sim_task_end end)
{
	struct sim_task_cfg t = { .kind = TASK_COPY, .dev = 0, .files = 1, .file_bytes = bytes,
				  .rate_bps = 1000 * MB, .end = end };
	return t;
}

static void run_until(struct sim_kernel *s, uint64_t usec)
{
	while (sim_now_usec(s) < usec)
		sim_step(s);
}

static void run_done(struct sim_kernel *s)
{
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0) && sim_now_usec(s) < 3600000000ULL)
		sim_step(s);
}

/* Thresholds on a 4 GiB machine: dirtyable = 4096 - 64 - 512 - 32 MiB
 * = 3488 MiB = 892928 pages (+1); 20 % -> 819 * 892929 / 4096 = 178553. */
static void test_global_limits(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(5 * MB);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, NULL, 0);
	uint64_t thresh, bg, avail;

	(void)state;
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_int_equal(avail, 892929);
	assert_int_equal(thresh, 819ULL * 892929 / 4096);
	assert_int_equal(bg, 409ULL * 892929 / 4096);
	sim_kernel_free(s);
}

/* 20 MiB below every threshold: nothing is written until the inode
 * expires (30 s, seen at a 5 s kupdate wakeup), then all of it. */
static void test_expiry_writes_old_data(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(100 * MB);
	struct sim_task_cfg t = writer(20 * MIB, END_NONE);
	struct sim_kernel *s;

	(void)state;
	k.k.ncpus = 1;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	/* give the device a writeout history so its share is not 0 */
	run_until(s, 1000000);
	assert_int_equal(sim_dev_dirty(s, 0) + sim_dev_writeback(s, 0) + bytes_to_pages(sim_dev_written_bytes(s, 0)),
			 bytes_to_pages(20 * MIB));
	run_until(s, 29000000);
	/* not expired yet: all of it still dirty */
	assert_int_equal(sim_dev_written_bytes(s, 0), 0);
	assert_int_equal(sim_dev_dirty(s, 0), bytes_to_pages(20 * MIB));
	run_until(s, 40000000);
	assert_int_equal(sim_dev_written_bytes(s, 0), 20 * MIB);
	assert_int_equal(sim_global_dirty(s), 0);
	sim_kernel_free(s);
}

/* sync(2) waits for everything; it cannot be faster than dirty/bandwidth. */
static void test_sync_waits_for_all(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(200 * MIB, END_SYNC);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, &t, 1);
	const struct sim_task_stats *st;

	(void)state;
	run_done(s);
	st = sim_task_stats(s, 0);
	assert_true(st->finished);
	assert_int_equal(sim_dev_written_bytes(s, 0), 200 * MIB);
	/* 200 MiB fit under the 4 GiB machine's limits: write() returns at RAM speed */
	assert_true(st->write_return_usec < 1000000);
	/* the sync lasts until the device has it all: 209.7 MB at 10 MB/s */
	assert_true(st->end_done_usec >= 20900000);
	assert_true(st->end_done_usec <= 21300000);
	assert_true(st->durable_usec <= st->end_done_usec);
	sim_kernel_free(s);
}

/* strict_limit + max_bytes bound the device's dirty + writeback and pace
 * the writer to the device. */
static void test_strict_cap_bounds_dirty(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(100 * MIB, END_SYNC);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, &t, 1);
	uint64_t peak = 0;
	const struct sim_task_stats *st;

	(void)state;
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 8 * MIB), 0);
	assert_int_equal(sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1), 0);
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
		uint64_t w = sim_dev_dirty(s, 0) + sim_dev_writeback(s, 0);
		if (w > peak)
			peak = w;
		sim_step(s);
	}
	/* 8 MiB, plus what one poll interval may overshoot */
	assert_true(pages_to_bytes(peak) <= 8 * MIB + MIB);
	st = sim_task_stats(s, 0);
	/* an honest progress bar: 104.9 MB at 10 MB/s */
	assert_true(st->write_return_usec >= 9400000);
	assert_true(st->end_done_usec - st->end_call_usec <= 1000000);
	sim_kernel_free(s);
}

/* One copy under a strict 16 MiB cap, with the jitter of `seed`: its
 * sync's time and when its last byte was durable, microseconds. */
static void strict_copy(uint64_t seed, uint64_t *ret_sync, uint64_t *ret_durable)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(64 * MIB, END_SYNC);
	struct sim_kernel *s;
	const struct sim_task_stats *st;

	k.seed = seed;
	d.queue_bytes = 0;
	d.bio_bytes = 1280 * 1024;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	assert_non_null(s);
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 16 * MIB), 0);
	assert_int_equal(sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1), 0);
	run_done(s);
	st = sim_task_stats(s, 0);
	*ret_sync = st->end_done_usec - st->end_call_usec;
	*ret_durable = st->durable_usec;
	sim_kernel_free(s);
}

/* The jitter: a seed gives the same run each time, seeds give different
 * sync times (where the sawtooth stands when the copy ends), and the
 * device's mean speed is kept: the copy is durable when it would be
 * without jitter, within 3 %. */
static void test_seed_jitter(void **state)
{
	uint64_t sync0, dur0, a, da, b, db, lo = UINT64_MAX, hi = 0;

	(void)state;
	strict_copy(0, &sync0, &dur0);
	strict_copy(1, &a, &da);
	strict_copy(1, &b, &db);
	assert_int_equal(a, b);
	assert_int_equal(da, db);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		strict_copy(seed, &a, &da);
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
		assert_true(da * 100 >= dur0 * 97 && da * 100 <= dur0 * 103);
	}
	assert_true(hi > lo + 50000); /* 50 ms of 1.6 s at most of 16 MiB */
}

/* A file's cost: 1000 files of 4 KiB at 1000 MB/s with 100 us each take
 * 0.1 s, not the 4 ms their bytes would. */
static void test_file_cost(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(100 * MB);
	struct sim_task_cfg t = writer(4096, END_NONE);
	struct sim_kernel *s;
	uint64_t wr;

	(void)state;
	t.files = 1000;
	t.file_cost_usec = 100;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	assert_non_null(s);
	run_done(s);
	wr = sim_task_stats(s, 0)->write_return_usec;
	assert_true(wr >= 100000 && wr <= 108000);
	sim_kernel_free(s);
	t.file_cost_usec = 0;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_done(s);
	assert_true(sim_task_stats(s, 0)->write_return_usec <= 8000);
	sim_kernel_free(s);
}

/* io_end: what one ->writepages call submits of a file ends writeback
 * together, when its last bio is written; without, bio by bio. A sync of
 * a 4 MiB file (one call) on a 10 MB/s device: its Writeback goes from 4
 * MiB to 0 at once with io_end = 8M, in 1 MiB steps without; on vfat
 * (mpage's one bio a call) at once, whatever io_end says of ext4. */
static void test_io_end_completes_whole(void **state)
{
	for (int with = 0; with <= 2; with++) {
		struct sim_kernel_cfg k = machine();
		struct sim_dev_cfg d = disk(10 * MB);
		struct sim_task_cfg t = writer(4 * MIB, END_SYNC);
		struct sim_kernel *s;
		uint64_t levels = 0, last = UINT64_MAX;

		(void)state;
		d.bio_bytes = MIB;
		d.io_end_bytes = with == 1 ? 8 * MIB : 0;
		d.fs = with == 2 ? SIM_FS_VFAT : SIM_FS_EXT4;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		assert_non_null(s);
		while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
			uint64_t wb = sim_dev_writeback(s, 0);
			if (wb && wb != last)
				levels++;
			last = wb;
			sim_step(s);
		}
		/* 4 MiB, 3, 2, 1 without; 4 MiB alone with */
		assert_int_equal(levels, with ? 1 : 4);
		assert_true(sim_task_stats(s, 0)->end_done_usec >= 400000);
		sim_kernel_free(s);
	}
}

/* A file's metadata: 100 files of 4 KiB with 40 KiB each for the journal
 * take a 10 MB/s device 0.45 s to sync (its data alone: 0.04 s), and a
 * copy that takes longer than the journal's commit interval has them
 * written meanwhile. */
static void test_file_meta_journal(void **state)
{
	for (int with = 0; with <= 1; with++) {
		struct sim_kernel_cfg k = machine();
		struct sim_dev_cfg d = disk(10 * MB);
		struct sim_task_cfg t = writer(4096, END_SYNC);
		struct sim_kernel *s;
		const struct sim_task_stats *st;
		uint64_t sync_usec;

		(void)state;
		t.files = 100;
		t.file_meta_bytes = with ? 40 * 1024 : 0;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		assert_non_null(s);
		run_done(s);
		st = sim_task_stats(s, 0);
		sync_usec = st->end_done_usec - st->end_call_usec;
		if (with)
			assert_true(sync_usec >= 400000 && sync_usec <= 500000);
		else
			assert_true(sync_usec <= 60000);
		sim_kernel_free(s);
	}
	/* an fsync waits for the journal's commit it makes, even when its
	 * files' data went out before (here written out early, per file) */
	{
		struct sim_kernel_cfg k = machine();
		struct sim_dev_cfg d = disk(10 * MB);
		struct sim_task_cfg t = writer(4096, END_FSYNC);
		struct sim_kernel *s;
		const struct sim_task_stats *st;

		k.per_file_bytes = 4096;
		t.files = 100;
		t.file_meta_bytes = 40 * 1024;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		assert_non_null(s);
		run_done(s);
		st = sim_task_stats(s, 0);
		assert_true(st->end_done_usec - st->end_call_usec >= 350000);
		sim_kernel_free(s);
	}
	/* 10 s of files at 1 per 100 ms: a commit before the sync */
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(4096, END_SYNC);
	struct sim_kernel *s;
	struct sim_dev_stat ds;

	t.files = 100;
	t.file_meta_bytes = 40 * 1024;
	t.file_cost_usec = 100000;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_until(s, 9000000);
	sim_dev_stat(s, 0, &ds);
	/* the first commit, at 5 s: the metadata of the 51 files by then
	 * (2 MB), while their data waits for its expiry (30 s) */
	assert_true(ds.sectors_written * 512 >= 51 * 40 * 1024);
	assert_true(ds.sectors_written * 512 < 60 * 40 * 1024);
	sim_kernel_free(s);
}

/* vfat has no journal: a file's metadata is dirty page cache of the
 * device, counted in Dirty and written as the data is. 100 files of 4 KiB
 * with 4 KiB of metadata each dirty 200 pages (ext4: 100, its journal's in
 * no page cache), and their sync writes both; with no journal, nothing is
 * written before the flusher's expiry, so 10 s of files leave all 200
 * pages dirty where ext4's commit at 5 s wrote the metadata of half. */
static void test_vfat_meta_dirty(void **state)
{
	for (int vfat = 0; vfat <= 1; vfat++) {
		struct sim_kernel_cfg k = machine();
		struct sim_dev_cfg d = disk(10 * MB);
		struct sim_task_cfg t = writer(4096, END_SYNC);
		struct sim_kernel *s;
		struct sim_dev_stat ds;
		uint64_t data;

		(void)state;
		d.fs = vfat ? SIM_FS_VFAT : SIM_FS_EXT4;
		t.files = 100;
		t.file_meta_bytes = 4096;
		t.file_cost_usec = 100000;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		assert_non_null(s);
		run_until(s, 9000000);
		sim_dev_stat(s, 0, &ds);
		data = sim_task_stats(s, 0)->written_bytes / 4096;
		assert_true(data >= 85 && data <= 95);
		if (vfat) {
			/* a page of metadata each file begun, the current one's too */
			assert_in_range(sim_global_dirtied(s), 2 * data, 2 * data + 1);
			assert_int_equal(ds.sectors_written, 0);
		} else {
			assert_int_equal(sim_global_dirtied(s), data);
			assert_true(ds.sectors_written * 512 >= 45 * 4096);
		}
		run_done(s);
		sim_dev_stat(s, 0, &ds);
		/* everything, data and metadata, on the device by the sync's end */
		assert_true(ds.sectors_written * 512 >= 199 * 4096);
		assert_int_equal(sim_global_dirty(s), 0);
		sim_kernel_free(s);
	}
}

/* The write return of one copy under vm.dirty_background_bytes = `bg` and
 * vm.dirty_bytes = `limit`. */
static uint64_t return_under(const struct sim_kernel_cfg *k, const struct sim_dev_cfg *d,
			     const struct sim_task_cfg *t, uint64_t bg, uint64_t limit)
{
	struct sim_kernel *s = sim_kernel_new(k, d, 1, t, 1);
	uint64_t wr;

	assert_non_null(s);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BACKGROUND_BYTES, bg), 0);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BYTES, limit), 0);
	run_done(s);
	wr = sim_task_stats(s, 0)->write_return_usec;
	sim_kernel_free(s);
	return wr;
}

/* vfat: a new file waits while the device's metadata is under writeback
 * (fat_mirror_bhs() locks the FAT block its write holds). 200 files of
 * 8 KiB, 512 bytes of metadata each, written at 4 MB/s to a 1 MB/s device
 * with the flusher started at 256 KiB and no throttling: the writer
 * returns at its own speed on ext4 (0.4 s), and on vfat only as fast as
 * the device takes the metadata written with the data. */
static uint64_t files_meta_return(enum sim_fs fs)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(1 * MB);
	struct sim_task_cfg t = writer(8192, END_NONE);

	d.fs = fs;
	t.files = 200;
	t.file_meta_bytes = 512;
	t.rate_bps = 4 * MB;
	return return_under(&k, &d, &t, 256 * KIB, 64 * MIB);
}

static void test_vfat_meta_stall(void **state)
{
	uint64_t ext4 = files_meta_return(SIM_FS_EXT4), vfat = files_meta_return(SIM_FS_VFAT);

	(void)state;
	assert_true(ext4 >= 400000 && ext4 < 450000);
	assert_true(vfat > 900000);
}

/* inflight_files: at most that many files under writeback at once (ext4's
 * reserved journal credits). 1000 files of 8 KiB synced to a 5 MB/s
 * device with no queue bound: 40 files' pages in flight at most with 40,
 * nearly all of them without; the sync takes as long either way. */
static void test_inflight_files(void **state)
{
	uint64_t took[2];

	for (int with = 0; with <= 1; with++) {
		struct sim_kernel_cfg k = machine();
		struct sim_dev_cfg d = disk(5 * MB);
		struct sim_task_cfg t = writer(8192, END_SYNC);
		struct sim_kernel *s;
		uint64_t most = 0;

		(void)state;
		d.queue_bytes = 0;
		d.inflight_files = with ? 40 : 0;
		t.files = 1000;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		assert_non_null(s);
		while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
			most = sim_dev_writeback(s, 0) > most ? sim_dev_writeback(s, 0) : most;
			sim_step(s);
		}
		if (with)
			assert_true(most <= 80 && most >= 60);
		else
			assert_true(most >= 1900);
		took[with] = sim_task_stats(s, 0)->end_done_usec;
		sim_kernel_free(s);
	}
	assert_true(took[1] * 100 <= took[0] * 105 && took[1] * 100 >= took[0] * 95);
}

/* 6.1's journal commit waits for the data under writeback, and a writer
 * of new files for the commit; 6.12's does not. 78 MiB of 8 KiB files to
 * a 5 MB/s device under the 16/48 MiB pair (bench/fidelity's files-bytes
 * in a 2 GiB guest): 6.12's writer returns at 48 MiB behind, about 7 s;
 * 6.1's stops at the commit at 5 s until some 40 MiB under writeback are
 * written, and returns seconds later. */
static uint64_t files_under_pair(enum sim_kver kver)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(5 * MB);
	struct sim_task_cfg t = writer(8192, END_SYNC);

	k.kver = kver;
	d.queue_bytes = 0;
	d.bio_bytes = 1280 * 1024;
	t.files = 10000;
	t.rate_bps = 70 * MB;
	t.file_cost_usec = 230;
	t.file_meta_bytes = 900;
	return return_under(&k, &d, &t, 16 * MIB, 48 * MIB);
}

static void test_journal_waits_on_6_1(void **state)
{
	uint64_t old = files_under_pair(KVER_6_1), now = files_under_pair(KVER_6_12);

	(void)state;
	assert_true(now >= 6000000 && now <= 9000000);
	assert_true(old >= now + 4000000);
}

/* A device's `throttle`: wbgov reads it as wbgovd reads a cgroup's write
 * throttle, and caps a 500 kB/s device for that speed from the start
 * (under 1 MiB) instead of at the start cap of a device not yet measured
 * (4 MiB). */
static void test_throttle_seen_by_wbgov(void **state)
{
	static const char text[] =
		"[machine]\nmem = 4G\n"
		"[device sdb]\nbandwidth = 500kB/s\nqueue = 0\nbio = 1280K\n%s"
		"[writer w]\ndevice = sdb\nsize = 8M\nrole = main\n";
	struct lab_params p;

	(void)state;
	lab_params_init(&p);
	p.sim.no_memory = true;
	for (int with = 0; with <= 1; with++) {
		struct scenario sc;
		struct run_result r;
		char buf[512], err[256];

		snprintf(buf, sizeof(buf), text, with ? "throttle = 500kB/s\n" : "");
		assert_int_equal(scenfile_parse("t.scenario", buf, &sc, err, sizeof(err)), 0);
		assert_int_equal(lab_run_scenario(&sc, "wbgov", &p, false, &r), 0);
		if (with)
			assert_true(r.val[COL_PEAK_DIRTY] < 1.0);
		else
			assert_true(r.val[COL_PEAK_DIRTY] >= 3.9);
		run_result_free(&r);
	}
}

/* max_bytes alone does nothing below the global freerun point. */
static void test_cap_without_strict_bounds_nothing(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(100 * MIB, END_NONE);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, &t, 1);

	(void)state;
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 8 * MIB), 0);
	run_until(s, 500000);
	assert_true(sim_task_stats(s, 0)->write_return_usec > 0);
	assert_true(pages_to_bytes(sim_dev_dirty(s, 0) + sim_dev_writeback(s, 0)) > 90 * MIB);
	sim_kernel_free(s);
}

/* The kernel's knob semantics, through the simulated sysfs. */
static void test_knob_semantics(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, NULL, 0);
	uint64_t thresh, bg, avail, mb;

	(void)state;
	sim_global_limits(s, &thresh, &bg, &avail);
	/* above the current global threshold: EINVAL, the old value stays */
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, pages_to_bytes(thresh) + 2 * PAGE_SIZE), -EINVAL);
	assert_int_equal(sim_bdi_read(s, 0, BDI_MAX_RATIO_FINE), RATIO_FULL);
	/* 4 MiB of a 697 MiB threshold: 5734 ppm, below 1 % */
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 4 * MIB), 0);
	assert_int_equal(sim_bdi_read(s, 0, BDI_MAX_RATIO_FINE), 1024ULL * 1000000 / thresh);
	mb = sim_bdi_read(s, 0, BDI_MAX_BYTES);
	assert_in_range(mb, 4 * MIB - 8192, 4 * MIB);
	assert_int_equal(sim_bdi_read(s, 0, BDI_MAX_RATIO), 0); /* below 1 %: reads 0 */
	/* dirty_bytes rescales the cap: it is a ratio of the threshold */
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BYTES, 64 * MIB), 0);
	assert_int_equal(sim_vm_read(s, VM_DIRTY_RATIO), 0);
	assert_true(sim_bdi_read(s, 0, BDI_MAX_BYTES) < MIB);
	/* with dirty_bytes set no bdi can get a cap above it */
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 128 * MIB), -EINVAL);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BYTES, 4096), -EINVAL);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_RATIO, 20), 0);
	assert_int_equal(sim_vm_read(s, VM_DIRTY_BYTES), 0);
	assert_int_equal(sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 2), -EINVAL);
	sim_kernel_free(s);
}

/* The knobs of kernel/'s series exist only in a 6.12+series kernel, and
 * check their values as the patches' handlers do. */
static void test_series_knobs(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, NULL, 0);
	uint64_t thresh, bg, avail;

	(void)state;
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, GIB), -ENOENT);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, 16 * MIB), -ENOENT);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 1), -ENOENT);
	assert_int_equal(sim_bdi_write(s, 0, SIM_BDI_MAX_TIME_MS, 1000), -ENOENT);
	sim_kernel_free(s);

	k.kver = KVER_6_12;
	k.series = true;
	s = sim_kernel_new(&k, &d, 1, NULL, 0);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_RATIO_MAX_BYTES), 0);
	/* 0002: the ratios over at most 1 GiB: 20 % of 262144 pages */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, GIB), 0);
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_int_equal(thresh, 819ULL * 262144 / 4096);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_RATIO_MAX_BYTES), GIB);
	/* 0 or at least 32 MiB: less would give thresholds of a few pages or
	 * none; refused, the old value kept */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, 1), -EINVAL);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, PAGE_SIZE), -EINVAL);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, 32 * MIB - 1), -EINVAL);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_RATIO_MAX_BYTES), GIB);
	/* bytes / PAGE_SIZE, rounded down: 8192 pages (+ the 1 that
	 * global_dirtyable_memory() adds), not 8193; 100 % of that */
	assert_int_equal(sim_vm_write(s, VM_DIRTY_RATIO, 100), 0);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, 32 * MIB + 1), 0);
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_int_equal(avail, 8193);
	assert_int_equal(thresh, 8193);
	/* no wrap at the largest value: no cap at all */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, UINT64_MAX), 0);
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_true(avail > GIB / PAGE_SIZE);
	assert_int_equal(thresh, avail);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_RATIO, 20), 0);
	/* bytes are absolute: no cap, for either threshold */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_RATIO_MAX_BYTES, 32 * MIB), 0);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BYTES, 2 * GIB), 0);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BACKGROUND_BYTES, GIB), 0);
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_int_equal(thresh, 2 * GIB / PAGE_SIZE);
	assert_int_equal(bg, GIB / PAGE_SIZE);
	/* 0004: 0 or whole pages, at least 1 MiB */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, MIB - 1), -EINVAL);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES), 0);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, MIB), 0);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, MIB + 1), -EINVAL);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, MIB - PAGE_SIZE), -EINVAL);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES), MIB);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, MIB + PAGE_SIZE), 0);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, 0), 0);
	/* 0005: at most 100 MiB/s, the estimate's starting value */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 100 * MIB), 0);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 100 * MIB + 1),
			 -EINVAL);
	assert_int_equal(sim_vm_read(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH), 100 * MIB);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 0), 0);
	/* 0003: at most a minute */
	assert_int_equal(sim_bdi_write(s, 0, SIM_BDI_MAX_TIME_MS, 60001), -EINVAL);
	assert_int_equal(sim_bdi_read(s, 0, SIM_BDI_MAX_TIME_MS), 0);
	assert_int_equal(sim_bdi_write(s, 0, SIM_BDI_MAX_TIME_MS, 60000), 0);
	assert_int_equal(sim_bdi_read(s, 0, SIM_BDI_MAX_TIME_MS), 60000);
	for (int i = 0; i < VM_KNOB_COUNT; i++)
		assert_string_equal(sim_vm_names[i], vm_knob_names[i]);
	for (int i = 0; i < BDI_ATTR_COUNT; i++)
		assert_string_equal(sim_bdi_names[i], bdi_attr_names[i]);
	sim_kernel_free(s);
}

/* The peak of one device's dirty + writeback over a whole run, pages. */
static uint64_t run_peak(struct sim_kernel *s, int dev)
{
	uint64_t peak = 0;

	while (!(sim_done(s, false) && sim_global_writeback(s) == 0) && sim_now_usec(s) < 3600000000ULL) {
		uint64_t w = sim_dev_dirty(s, dev) + sim_dev_writeback(s, dev);
		if (w > peak)
			peak = w;
		sim_step(s);
	}
	return peak;
}

/* A 1 GiB copy to a 10 MB/s device under each of the series' per-device
 * knobs. 0003's max_time_ms and 0005's writethrough follow the estimate,
 * which starts at 100 MiB/s and adapts once writeback runs: then the limit
 * is about 10 MB (1 s of the estimate; writethrough's at least 8 MiB), and
 * the sync short. Writethrough starts
 * only when the estimate is below its bandwidth: the first hundreds of MiB
 * pile up as today. 0004 on the 16 MiB queue: the writer waits for room, so
 * the piece being written and the queue are all the device holds. */
static void test_series_limits(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(GIB, END_SYNC);
	struct sim_kernel *s;
	uint64_t peak;

	(void)state;
	k.kver = KVER_6_12;
	k.series = true;
	for (int c = 0; c < 4; c++) {
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		if (c == 1)
			assert_int_equal(sim_bdi_write(s, 0, SIM_BDI_MAX_TIME_MS, 1000), 0);
		else if (c == 2)
			assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 32 * MB), 0);
		else if (c == 3)
			assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_FILE_WRITEOUT_BYTES, 16 * MIB), 0);
		peak = run_peak(s, 0);
		if (c == 0) /* the global limits alone: hundreds of MiB, a minute's sync */
			assert_true(pages_to_bytes(peak) > 600 * MIB &&
				    sim_task_stats(s, 0)->end_done_usec - sim_task_stats(s, 0)->end_call_usec >
					    30000000);
		else if (c == 3)
			assert_true(pages_to_bytes(peak) <= 33 * MIB);
		/* the time limit holds once the estimate has come down; the
		 * first seconds at 100 MiB/s hold more */
		if (c == 1 || c == 2)
			assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) <= 11 * MIB);
		/* writethrough's limit is 1 s of the estimate (~9.5 MiB), not
		 * its 8 MiB least */
		if (c == 2)
			assert_int_equal(sim_dev_wb_thresh(s, 0),
					 max_u64(8 * MIB / PAGE_SIZE, sim_dev_kernel_bw(s, 0)));
		if (c == 2)
			assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 8 * MIB);
		if (c)
			assert_true(sim_task_stats(s, 0)->end_done_usec - sim_task_stats(s, 0)->end_call_usec <
				    4000000);
		sim_kernel_free(s);
	}
}

/* A device whose bdi was registered more than the estimate's 3 s period
 * before anything was written to it, under a strict limit: the writer is
 * throttled before the flusher has restarted the estimator, and the first
 * update in balance_dirty_pages() divides the nothing written by all that
 * time. Stock 6.12 drops the estimate to 1 page/s (measured under qemu:
 * BdiWriteBandwidth 4 kB/s); the series restarts the period and keeps
 * 100 MiB/s until the device's writes say otherwise, and 0003's
 * max_time_ms gets 1 s of that instead of its 1 MiB floor. */
static void test_idle_estimate(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(64 * MIB, END_SYNC);

	(void)state;
	k.kver = KVER_6_12;
	d.idle_usec = 30000000;
	for (int c = 0; c < 3; c++) {
		struct sim_kernel *s;
		uint64_t least = UINT64_MAX;

		k.series = c > 0;
		s = sim_kernel_new(&k, &d, 1, &t, 1);
		if (c < 2)
			assert_int_equal(sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1), 0);
		else
			assert_int_equal(sim_bdi_write(s, 0, SIM_BDI_MAX_TIME_MS, 1000), 0);
		while (sim_now_usec(s) < 1000000) {
			least = min_u64(least, sim_dev_kernel_bw(s, 0));
			sim_step(s);
		}
		assert_int_equal(least, c == 0 ? 1 : INIT_BW);
		if (c == 2) /* 1 s of 100 MiB/s */
			assert_int_equal(pages_to_bytes(sim_dev_wb_thresh(s, 0)), 100 * MIB);
		assert_int_equal(sim_now_usec(s) / 1000, 1000); /* times from the start */
		sim_kernel_free(s);
	}
}

/* 0005's hysteresis: a wb enters writethrough when its estimate falls
 * below vm.dirty_writethrough_bandwidth (X) and leaves only above 2X; the
 * state is the wb's own, and writing 0 clears it. A written-through wb's
 * limit is 1 s of its estimate, at least 8 MiB; one that is not has the
 * share of the global limit (hundreds of MiB here). */
static void test_writethrough_hysteresis(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(GIB, END_SYNC);
	struct sim_kernel *s;
	uint64_t bw, wt_limit;

	(void)state;
	k.kver = KVER_6_12;
	k.series = true;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	/* the estimate comes down near the device's 10 MB/s (2441 pages/s) */
	run_until(s, 20000000);
	bw = sim_dev_kernel_bw(s, 0);
	assert_true(bw > 2300 && bw < 3300);
	wt_limit = max_u64(8 * MIB / PAGE_SIZE, bw);
	assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
	/* below X = 16 MB/s: in */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 16 * MB), 0);
	assert_int_equal(sim_dev_wb_thresh(s, 0), wt_limit);
	/* X = 8 MB/s: between X and 2X, stays in */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 8 * MB), 0);
	assert_int_equal(sim_dev_wb_thresh(s, 0), wt_limit);
	/* X = 4 MB/s: above 2X, out */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 4 * MB), 0);
	assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
	/* and not back in between X and 2X */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 8 * MB), 0);
	assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
	/* in again; 0 turns it off but keeps the wb's state, so 8 MB/s
	 * finds the wb still in (the kernel's WB_writethrough bit) */
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 16 * MB), 0);
	assert_int_equal(sim_dev_wb_thresh(s, 0), wt_limit);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 0), 0);
	assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 8 * MB), 0);
	assert_int_equal(sim_dev_wb_thresh(s, 0), wt_limit);
	sim_kernel_free(s);

	/* driven by the estimate: a device at 10 MB/s, then 24 MB/s (between
	 * X = 16 MB/s and 2X), then 48 MB/s; the limit follows the estimate
	 * while in, and lets it rise */
	d.bw[0] = (struct sim_bw_seg){ .bps = 10 * MB, .for_usec = 20000000 };
	d.bw[1] = (struct sim_bw_seg){ .bps = 24 * MB, .for_usec = 20000000 };
	d.bw[2] = (struct sim_bw_seg){ .bps = 48 * MB };
	d.nbw = 3;
	t = writer(4 * GIB, END_SYNC);
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	assert_int_equal(sim_vm_write(s, SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH, 16 * MB), 0);
	for (int sec = 1; sec <= 60; sec++) {
		uint64_t x_pages = 16 * MB / PAGE_SIZE;

		run_until(s, sec * 1000000ULL);
		bw = sim_dev_kernel_bw(s, 0);
		if (sec <= 10) { /* the estimate above X, coming down: out */
			assert_true(bw > x_pages);
			assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
		} else if (sec >= 30 && sec <= 40) { /* 24 MB/s measured: in */
			assert_true(bw > x_pages && bw < 2 * x_pages);
			assert_int_equal(sim_dev_wb_thresh(s, 0), max_u64(8 * MIB / PAGE_SIZE, bw));
		} else if (sec >= 50) { /* above 2X: out */
			assert_true(bw > 2 * x_pages);
			assert_true(pages_to_bytes(sim_dev_wb_thresh(s, 0)) > 100 * MIB);
		}
	}
	sim_kernel_free(s);
}

/* The slowest device under 0003: 1 s of a 1 MB/s device is below the
 * 1 MiB floor. Floored after the background scaling, the background
 * threshold equalled the limit, the writer stopped at the limit with no
 * background writeback, and each MiB waited for the 30 s expiry (usb-iso's
 * 256 MiB at 1 MB/s took 5669 s). Floored first, the writer keeps the
 * device's pace. */
static void test_time_floor_keeps_slow_device_busy(void **state)
{
	struct lab_params p;
	struct run_result r;
	char want[128];

	(void)state;
	lab_params_init(&p);
	assert_int_equal(lab_param_set(&p, "speed=1MB/s", want, sizeof(want)), 0);
	assert_int_equal(lab_param_set(&p, "size=256M", want, sizeof(want)), 0);
	assert_int_equal(lab_run("usb-iso", "time-1", &p, false, &r), 0);
	/* 268 MB at 1 MB/s: 268 s, then a sync of about the floor's 1 s */
	assert_true(r.val[COL_WRITE_RETURN] < 280);
	assert_true(r.val[COL_SYNC_AFTER] < 2);
	run_result_free(&r);
}

/* Linus's bytes: global dirty stays near 48 MiB. */
static void test_bytes_limit_holds(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(20 * MB);
	struct sim_task_cfg t = writer(300 * MIB, END_SYNC);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, &t, 1);
	uint64_t peak = 0;

	(void)state;
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BACKGROUND_BYTES, 16 * MIB), 0);
	assert_int_equal(sim_vm_write(s, VM_DIRTY_BYTES, 48 * MIB), 0);
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
		uint64_t g = sim_global_dirty(s) + sim_global_writeback(s);
		if (g > peak)
			peak = g;
		sim_step(s);
	}
	assert_true(pages_to_bytes(peak) <= 50 * MIB);
	assert_true(pages_to_bytes(peak) >= 40 * MIB);
	sim_kernel_free(s);
}

/* With bio_bytes, a bio's pages end writeback together, at the µs its last
 * byte is written: 4.5 MiB to a 10 MB/s device in 1 MiB bios completes in
 * 1 MiB steps and a last 0.5 MiB one, never part of a bio. Without, page by
 * page. */
static uint64_t run_counting_partial(uint64_t bio_bytes, uint64_t *ret_writes, uint64_t *ret_t)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(4 * MIB + 512 * KIB, END_SYNC);
	struct sim_kernel *s;
	struct sim_dev_stat ds;
	uint64_t partial = 0, wb_prev = 0;

	d.bio_bytes = bio_bytes;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
		uint64_t done = sim_dev_written_bytes(s, 0), wb = sim_dev_writeback(s, 0);
		if (done % MIB && done != 4 * MIB + 512 * KIB)
			partial++;
		/* writeback falls by whole bios only */
		if (bio_bytes && wb < wb_prev)
			assert_true((wb_prev - wb) % 256 == 0 || wb_prev - wb == 128);
		wb_prev = wb;
		sim_step(s);
	}
	sim_dev_stat(s, 0, &ds);
	*ret_writes = ds.writes;
	assert_int_equal(ds.sectors_written, (4 * MIB + 512 * KIB) / 512);
	/* sync starts its device in the jiffy of the call: 4718592 B at
	 * 10 MB/s = 471859.2 µs after that jiffy began */
	*ret_t = sim_task_stats(s, 0)->durable_usec - sim_task_stats(s, 0)->end_call_usec / 4000 * 4000;
	sim_kernel_free(s);
	return partial;
}

static void test_bio_completes_whole(void **state)
{
	uint64_t writes, t;

	(void)state;
	assert_int_equal(run_counting_partial(MIB, &writes, &t), 0);
	assert_int_equal(writes, 5); /* four of 1 MiB, one of 512 KiB */
	assert_in_range(t, 471858, 471860);
	/* page by page: most steps see part of a MiB done */
	assert_true(run_counting_partial(0, &writes, &t) > 50);
	assert_int_equal(writes, (4 * MIB + 512 * KIB) / (128 * KIB));
	assert_in_range(t, 471858, 471860);
}

/* A bio never holds two files' pages: two 1.5 MiB files in 1 MiB bios are
 * four requests (1 + 0.5, 1 + 0.5), not three. */
static void test_bio_never_across_files(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(1536 * KIB, END_SYNC);
	struct sim_kernel *s;
	struct sim_dev_stat ds;

	(void)state;
	t.files = 2;
	d.bio_bytes = MIB;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_done(s);
	sim_dev_stat(s, 0, &ds);
	assert_int_equal(sim_dev_written_bytes(s, 0), 3 * MIB);
	assert_int_equal(ds.writes, 4);
	sim_kernel_free(s);
}

/* With bio_bytes 0 the model is what it was before bios: the strict 8 MiB
 * cap of test_strict_cap_bounds_dirty gives the same microseconds as the
 * commit before bios (9a138df: write() returned at 9688143, sync at 10492000). */
static void test_bio_zero_unchanged(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(100 * MIB, END_SYNC);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, &t, 1);

	(void)state;
	assert_int_equal(sim_bdi_write(s, 0, BDI_MAX_BYTES, 8 * MIB), 0);
	assert_int_equal(sim_bdi_write(s, 0, BDI_STRICT_LIMIT, 1), 0);
	run_done(s);
	assert_int_equal(sim_task_stats(s, 0)->write_return_usec, 9688143);
	assert_int_equal(sim_task_stats(s, 0)->end_done_usec, 10492000);
	sim_kernel_free(s);
}

/* queue_bytes bounds what is under writeback; 0 bounds nothing (blk-throttle:
 * on 6.18 a sync of 256 MiB to a throttled loop put it all under writeback). */
static uint64_t peak_writeback(uint64_t queue_bytes)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(64 * MIB, END_SYNC);
	struct sim_kernel *s;
	uint64_t peak = 0;

	d.queue_bytes = queue_bytes;
	d.bio_bytes = MIB;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	while (!(sim_done(s, false) && sim_global_writeback(s) == 0)) {
		if (sim_dev_writeback(s, 0) > peak)
			peak = sim_dev_writeback(s, 0);
		sim_step(s);
	}
	sim_kernel_free(s);
	return pages_to_bytes(peak);
}

static void test_queue_bounds_writeback(void **state)
{
	(void)state;
	assert_int_equal(peak_writeback(16 * MIB), 16 * MIB);
	assert_int_equal(peak_writeback(0), 64 * MIB);
	/* at least one whole bio, however small the queue */
	assert_int_equal(peak_writeback(4096), MIB);
}

/* A device's latency overlaps the requests in flight: a 64 MiB copy and
 * sync at 10 MB/s takes as long with 5 ms per request as without (within a
 * jiffy), page by page and in 1 MiB bios (64 of them: 320 ms if the latency
 * were served one request after another). */
static uint64_t copy_sync_usec(uint64_t latency_usec, uint64_t bio_bytes)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_task_cfg t = writer(64 * MIB, END_SYNC);
	struct sim_kernel *s;
	uint64_t end;

	d.latency_usec = latency_usec;
	d.bio_bytes = bio_bytes;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_done(s);
	assert_true(sim_task_stats(s, 0)->finished);
	assert_int_equal(sim_dev_written_bytes(s, 0), 64 * MIB);
	end = sim_task_stats(s, 0)->end_done_usec;
	sim_kernel_free(s);
	return end;
}

static void test_latency_keeps_throughput(void **state)
{
	(void)state;
	for (int b = 0; b < 2; b++) {
		uint64_t bio = b ? MIB : 0;
		uint64_t t0 = copy_sync_usec(0, bio), t5 = copy_sync_usec(5000, bio);
		/* 67.1 MB at 10 MB/s */
		assert_in_range(t0, 6710000, 6800000);
		assert_in_range(t5, t0, t0 + 4000);
	}
}

/* An fsync-loop alone on an idle device: each 4 KiB write + fdatasync
 * takes the device's latency (the write is served in 41 µs at 100 MB/s,
 * but completes only at submission + latency), or its transfer time when
 * that is longer (4096 µs at 1 MB/s). Returns the p99, checking that every
 * sample is `want_usec`. */
static void fsync_loop_latencies(uint64_t bps, uint64_t latency_usec, uint64_t bio_bytes,
				 uint64_t want_usec)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(bps);
	struct sim_task_cfg t = { .kind = TASK_FSYNC_LOOP, .dev = 0, .file_bytes = 4096,
				  .period_usec = 10000, .end = END_NONE };
	struct sim_kernel *s;
	const struct sim_task_stats *st;

	d.latency_usec = latency_usec;
	d.bio_bytes = bio_bytes;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_until(s, 2000000);
	st = sim_task_stats(s, 0);
	assert_in_range(st->nlat, 150, 200);
	for (uint64_t i = 0; i < st->nlat; i++)
		assert_int_equal(st->lat_usec[i], want_usec);
	sim_kernel_free(s);
}

static void test_latency_idle_request(void **state)
{
	(void)state;
	fsync_loop_latencies(100 * MB, 2000, 0, 2000);
	fsync_loop_latencies(100 * MB, 2000, 512 * KIB, 2000);
	fsync_loop_latencies(100 * MB, 0, 0, 40);
	fsync_loop_latencies(1 * MB, 1000, 512 * KIB, 4096);
}

/* The kernel version: 6.12 gives an idle device no floor in its threshold
 * (6.18: (thresh - dirty) / 8); an unknown version is refused. */
static void test_kver_idle_floor(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(10 * MB);
	struct sim_kernel *s = sim_kernel_new(&k, &d, 1, NULL, 0);
	uint64_t thresh, bg, avail;

	(void)state;
	sim_global_limits(s, &thresh, &bg, &avail);
	assert_int_equal(sim_dev_wb_thresh(s, 0), thresh / 8);
	sim_kernel_free(s);
	k.kver = KVER_6_12;
	s = sim_kernel_new(&k, &d, 1, NULL, 0);
	assert_int_equal(sim_dev_wb_thresh(s, 0), 0);
	sim_kernel_free(s);
	k.kver = (enum sim_kver)(KVER_6_1 + 1);
	assert_null(sim_kernel_new(&k, &d, 1, NULL, 0));
}

/* A deleted file's dirty pages never reach the device. */
static void test_delete_cancels_dirty(void **state)
{
	struct sim_kernel_cfg k = machine();
	struct sim_dev_cfg d = disk(500 * MB);
	struct sim_task_cfg t = writer(50 * MIB, END_NONE);
	struct sim_kernel *s;

	(void)state;
	t.delete_at_usec = 2000000;
	s = sim_kernel_new(&k, &d, 1, &t, 1);
	run_until(s, 60000000);
	assert_int_equal(sim_dev_written_bytes(s, 0), 0);
	assert_int_equal(sim_global_dirty(s), 0);
	sim_kernel_free(s);
}

/* The ini reader's line step: newline kept, the last line without one, the
 * end, and a line too long for inih's buffer refused rather than split. */
static void test_ini_next_line(void **state)
{
	const char *t = "a = 1\nbb\nccccccccc";
	char buf[8];

	(void)state;
	assert_int_equal(ini_next_line(&t, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "a = 1\n");
	assert_int_equal(ini_next_line(&t, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "bb\n");
	assert_int_equal(ini_next_line(&t, buf, sizeof(buf)), -1); /* 9 > 8 - 2 */
	t = "abcdef";
	assert_int_equal(ini_next_line(&t, buf, sizeof(buf)), 6); /* the last line fits */
	assert_int_equal(ini_next_line(&t, buf, sizeof(buf)), 0);
}

struct ini_seen {
	struct ini_text in;
	int keys, lines, stop_at, bad_key_at;
	char last[64];
};

static bool seen_line(void *user, const char *line)
{
	struct ini_seen *s = user;

	(void)line;
	s->lines++;
	if (s->in.line == s->stop_at)
		return ini_fail(&s->in, "stopped by the line's rule"), false;
	return true;
}

static int seen_key(void *user, const char *section, const char *key, const char *val)
{
	struct ini_seen *s = user;

	if (s->in.line == s->bad_key_at)
		return ini_fail(&s->in, "%s = \"%s\": bad", key, val);
	s->keys++;
	snprintf(s->last, sizeof(s->last), "[%s] %s=%s @%d/%d", section, key, val, s->in.line,
		 s->in.header_line);
	return 1;
}

/* The reader both file kinds go through: every line counted and seen, the
 * header's line kept, the first error kept and the reading stopped there,
 * inih's own syntax error with the caller's words, a message cut to the
 * caller's buffer. */
static void test_ini_text_parse(void **state)
{
	char err[128];
	struct ini_seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = sizeof(err) };
	assert_int_equal(ini_text_parse(&s.in, "# c\n[a]\nk = 1\n\n[b x]\nj = 2\n", seen_line,
					seen_key, &s, "syntax"), 0);
	assert_false(s.in.failed);
	assert_int_equal(s.lines, 6);
	assert_int_equal(s.keys, 2);
	assert_string_equal(s.last, "[b x] j=2 @6/5");

	memset(&s, 0, sizeof(s));
	s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = sizeof(err) };
	s.bad_key_at = 3;
	assert_int_equal(ini_text_parse(&s.in, "[a]\nk = 1\nk = 2\nj = 3\nnot ini\n", seen_line,
					seen_key, &s, "syntax"), -EINVAL);
	assert_string_equal(err, "t.ini:3: k = \"2\": bad");
	assert_int_equal(s.keys, 1);
	assert_int_equal(s.lines, 3); /* nothing read past the error */

	memset(&s, 0, sizeof(s));
	s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = sizeof(err) };
	s.stop_at = 2;
	assert_int_equal(ini_text_parse(&s.in, "[a]\nk = 1\n", seen_line, seen_key, &s, "syntax"),
			 -EINVAL);
	assert_string_equal(err, "t.ini:2: stopped by the line's rule");
	assert_int_equal(s.keys, 0);

	memset(&s, 0, sizeof(s));
	s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = sizeof(err) };
	assert_int_equal(ini_text_parse(&s.in, "[a]\nk = 1\nnot ini\n", NULL, seen_key, &s,
					"not a section"), -EINVAL);
	assert_string_equal(err, "t.ini:3: not a section");

	{
		static char text[INI_LINE_MAX + 16];
		memset(&s, 0, sizeof(s));
		s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = sizeof(err) };
		strcpy(text, "[a]\n#");
		memset(text + 5, 'a', INI_LINE_MAX);
		assert_int_equal(ini_text_parse(&s.in, text, NULL, seen_key, &s, "syntax"), -EINVAL);
		assert_string_equal(err, "t.ini:2: a line longer than 198 characters");
	}

	/* cut to the buffer, still a string; the file itself at line 0 */
	memset(&s, 0, sizeof(s));
	s.in = (struct ini_text){ .name = "t.ini", .err = err, .errlen = 10 };
	ini_fail(&s.in, "what %d", 1);
	assert_string_equal(err, "t.ini: wh");
	ini_fail(&s.in, "a second error");
	assert_string_equal(err, "t.ini: wh");
}

static void test_parsers(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("16G", &v), 0);
	assert_int_equal(v, 16 * GIB);
	assert_int_equal(parse_size("1.5MiB", &v), 0);
	assert_int_equal(v, 3 * MIB / 2);
	assert_int_equal(parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("4X", &v), -EINVAL);
	assert_int_equal(parse_size("", &v), -EINVAL);
	assert_int_equal(parse_size("-1", &v), -EINVAL);
	assert_int_equal(parse_size("1.", &v), -EINVAL);
	assert_int_equal(parse_speed("5", &v), 0);
	assert_int_equal(v, 5 * MB);
	assert_int_equal(parse_speed("5MB/s", &v), 0);
	assert_int_equal(v, 5 * MB);
	assert_int_equal(parse_speed("2.5G", &v), 0);
	assert_int_equal(v, 2500 * MB);
	assert_int_equal(parse_speed("300kB/s", &v), 0);
	assert_int_equal(v, 300000);
	assert_int_equal(parse_speed("5 MB", &v), -EINVAL);
	assert_int_equal(parse_ms("1.25", &v), 0);
	assert_int_equal(v, 1250);
	assert_int_equal(parse_ms("2s", &v), 0);
	assert_int_equal(v, 2000);
	assert_int_equal(parse_ms("0.0001", &v), -EINVAL);
	assert_int_equal(parse_size("99999999999999999999G", &v), -EINVAL);
	/* a plain byte count past 2^34 / 1000 is a size (the overflow guard
	 * is for the product with the unit, not the number alone) */
	assert_int_equal(parse_size("40000000", &v), 0);
	assert_int_equal(v, 40000000);
	assert_int_equal(parse_size("18446744073709550", &v), 0);
	assert_int_equal(v, 18446744073709550ULL);
	assert_int_equal(parse_size("18446744073709551", &v), -EINVAL);
	assert_int_equal(parse_size("18014398509481984K", &v), -EINVAL); /* 2^64 bytes */
}

static void test_params(void **state)
{
	struct sim_params p = { 0 };

	(void)state;
	assert_int_equal(sim_param_set(&p, "mem=8G"), 0);
	assert_int_equal(p.mem_bytes, 8 * GIB);
	assert_int_equal(sim_param_set(&p, "bits=32"), 0);
	assert_int_equal(sim_param_set(&p, "bits=16"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "hz=999"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "colour=red"), -ENOENT);
	assert_int_equal(sim_param_set(&p, "target"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "mem=1M"), -EINVAL); /* too small a machine */
	assert_int_equal(sim_param_set(&p, "speed=0"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "seed=8"), 0);
	assert_int_equal(p.seed, 8);
	assert_int_equal(sim_param_set(&p, "seed=-1"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "seed=x"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "seed=1000001"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "rate=2GB/s"), 0);
	assert_int_equal(p.rate_bps, 2000 * MB);
	assert_int_equal(sim_param_set(&p, "rate=1kB/s"), -EINVAL);
}

/* Dirtyable memory when usb-iso starts on a machine of `mem` (a size as
 * --param takes it), pages; `extra` is one more key=value or NULL. */
static uint64_t start_dirtyable(const char *mem, const char *extra)
{
	struct sim_params p = { 0 };
	struct scenario sc;
	struct sim_kernel *s;
	char kv[64];
	uint64_t thresh, bg, avail;

	snprintf(kv, sizeof(kv), "mem=%s", mem);
	assert_int_equal(sim_param_set(&p, kv), 0);
	if (extra)
		assert_int_equal(sim_param_set(&p, extra), 0);
	assert_int_equal(scenfile_build("usb-iso", &p, &sc), 0);
	s = sim_kernel_new(&sc.kernel, sc.dev, sc.ndev, sc.task, sc.ntask);
	assert_non_null(s);
	sim_global_limits(s, &thresh, &bg, &avail);
	sim_kernel_free(s);
	return avail;
}

/* Memory in use is a continuous function of mem: 1 MiB less memory must
 * not mean 4 times less dirtyable (it once did, at 2 GiB), and more memory
 * never means less dirtyable. */
static void test_memory_in_use_has_no_cliff(void **state)
{
	static const char *const sweep[] = {
		"256M", "512M", "768M", "1G", "1500M", "1536M", "1537M", "2047M", "2G", "2049M",
		"3G", "4G", "8G", "12G", "12289M", "16G", "24G", "32G", "64G",
	};
	uint64_t a = start_dirtyable("2047M", NULL), b = start_dirtyable("2G", NULL), prev = 0;

	(void)state;
	assert_true(b >= a && (b - a) * 100 <= a); /* within 1 % */
	for (size_t i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++) {
		uint64_t d = start_dirtyable(sweep[i], NULL);
		assert_true(d > prev);
		prev = d;
	}
	/* the built-in scenarios' 16 GiB machine: 16384 - 96 - 1536 - 64 (reserve) MiB */
	assert_int_equal(start_dirtyable("16G", NULL), 14688 * (MIB / PAGE_SIZE) + 1);
}

static void test_memory_in_use_params(void **state)
{
	struct sim_params p = { 0 };
	char err[160];

	(void)state;
	/* used= and kernel= are taken as given: 1 GiB more in use, 1 GiB less dirtyable */
	assert_int_equal(start_dirtyable("4G", "used=512M") - start_dirtyable("4G", "used=1536M"),
			 GIB / PAGE_SIZE);
	assert_int_equal(start_dirtyable("4G", "kernel=0") - start_dirtyable("4G", "kernel=1G"),
			 GIB / PAGE_SIZE);
	/* used=0 is a value, not the default */
	assert_int_equal(start_dirtyable("4G", "used=0"),
			 (4 * GIB - 96 * MIB - 64 * MIB) / PAGE_SIZE + 1);
	assert_int_equal(sim_param_set(&p, "used=abc"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "kernel=-1"), -EINVAL);
	assert_int_equal(sim_param_set(&p, "used=2000G"), -EINVAL);
	/* memory in use must fit in memory, whichever order the keys come in */
	assert_int_equal(sim_param_set(&p, "used=3G"), 0);
	assert_int_equal(sim_params_check(&p, err, sizeof(err)), 0); /* mem=16G by default */
	assert_int_equal(sim_param_set(&p, "mem=2G"), 0);
	assert_int_equal(sim_params_check(&p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "used=3072 MiB"));
	assert_non_null(strstr(err, "kernel=96 MiB"));
	assert_non_null(strstr(err, "mem=2048 MiB"));
	{
		struct scenario sc;
		assert_int_equal(scenfile_build("usb-iso", &p, &sc), -EINVAL);
	}
	assert_int_equal(sim_param_set(&p, "used=1952M"), 0); /* 1952 + 96 = 2048: nothing free */
	assert_int_equal(sim_params_check(&p, err, sizeof(err)), -EINVAL);
	assert_int_equal(sim_param_set(&p, "used=1951M"), 0);
	assert_int_equal(sim_params_check(&p, err, sizeof(err)), 0);
	assert_int_equal(sim_param_set(&p, "kernel=2G"), 0);
	assert_int_equal(sim_params_check(&p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "kernel=2048 MiB"));
}

/* wbgov's keys in wbsim are wbgov.conf's: the same names, ranges and
 * messages (policy/tunables.c), all six of them. */
static void test_lab_params(void **state)
{
	struct lab_params lp;
	char want[96];

	(void)state;
	lab_params_init(&lp);
	assert_int_equal(lp.gov.target_ms, 1000);
	assert_int_equal(lab_param_set(&lp, "target=2s", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.target_ms, 2000);
	assert_int_equal(lab_param_set(&lp, "target=90s", want, sizeof(want)), -EINVAL);
	assert_string_equal(want, "seconds from 0.1 to 60, like 1s or 1500ms");
	assert_int_equal(lab_param_set(&lp, "target=0.05", want, sizeof(want)), -EINVAL);
	assert_int_equal(lp.gov.target_ms, 2000); /* a bad value leaves it */
	assert_int_equal(lab_param_set(&lp, "floor=40000000", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.floor_bytes, 40000000);
	assert_int_equal(lab_param_set(&lp, "ceiling=1G", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.ceiling_bytes, GIB);
	assert_int_equal(lab_param_set(&lp, "initial=1M", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.initial_bytes, MIB);
	assert_int_equal(lab_param_set(&lp, "fast_target=3s", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.fast_target_ms, 3000);
	assert_int_equal(lab_param_set(&lp, "global_drain=5", want, sizeof(want)), 0);
	assert_int_equal(lp.gov.global_drain_ms, 5000);
	assert_int_equal(lab_param_set(&lp, "initial=1K", want, sizeof(want)), -EINVAL);
	assert_string_equal(want, "a size from 4096 bytes to 1024 GiB, like 4M");
	/* the simulator's own keys pass through, with no want text */
	assert_int_equal(lab_param_set(&lp, "mem=8G", want, sizeof(want)), 0);
	assert_int_equal(lp.sim.mem_bytes, 8 * GIB);
	assert_int_equal(lab_param_set(&lp, "hz=7", want, sizeof(want)), -EINVAL);
	assert_string_equal(want, "");
	assert_int_equal(lab_param_set(&lp, "colour=red", want, sizeof(want)), -ENOENT);
	/* and they reach the governor: a start cap of 1 MiB holds a cold
	 * stick's first copy to less than the default 4 MiB does */
	{
		struct lab_params def, small;
		struct run_result a, b;
		lab_params_init(&def);
		lab_params_init(&small);
		assert_int_equal(lab_param_set(&small, "initial=1M", NULL, 0), 0);
		assert_int_equal(lab_run("cold-unknown", "wbgov", &def, false, &a), 0);
		assert_int_equal(lab_run("cold-unknown", "wbgov", &small, false, &b), 0);
		assert_true(b.val[COL_PEAK_DIRTY] < a.val[COL_PEAK_DIRTY]);
		run_result_free(&a);
		run_result_free(&b);
	}
}

static void test_runs_are_deterministic(void **state)
{
	struct lab_params p;
	struct run_result a, b;

	(void)state;
	lab_params_init(&p);
	assert_int_equal(lab_run("slc-cliff", "wbgov", &p, true, &a), 0);
	assert_int_equal(lab_run("slc-cliff", "wbgov", &p, true, &b), 0);
	assert_memory_equal(a.val, b.val, sizeof(a.val));
	assert_int_equal(a.series->n, b.series->n);
	assert_memory_equal(a.series, b.series, sizeof(*a.series));
	run_result_free(&a);
	run_result_free(&b);
	assert_int_equal(lab_run("nosuch", "wbgov", &p, false, &a), -ENOENT);
	assert_int_equal(lab_run("usb-iso", "nosuch", &p, false, &a), -ENOENT);
}

/* Each proposal does what it says, on usb-iso (4 GiB to a 5 MB/s USB stick
 * on a 16 GiB machine, where today's kernel holds 2.8 GiB dirty) and on
 * streaming-fast (8 GiB to a 2 GB/s NVMe): the bounds are the proposals'
 * own numbers, so a policy replaced by the stock kernel fails here. */
static void test_proposals_do_what_they_say(void **state)
{
	static const char *const pols[] = { "linux-64", "bytes", "cap-1g", "per-file",
					    "writethrough", "udev-16m" };
	struct run_result iso[6], fast[6];
	struct lab_params p;

	(void)state;
	lab_params_init(&p);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(lab_run("usb-iso", pols[i], &p, false, &iso[i]), 0);
		assert_int_equal(lab_run("streaming-fast", pols[i], &p, false, &fast[i]), 0);
	}
	/* today's kernel: gigabytes dirty, a sync of minutes */
	assert_true(iso[0].val[COL_PEAK_DIRTY] > 1024);
	assert_true(iso[0].val[COL_SYNC_AFTER] > 60);
	/* bytes: dirty_bytes 48 MiB is the most anything holds dirty */
	assert_true(iso[1].val[COL_PEAK_DIRTY] <= 48 + 0.5);
	assert_true(iso[1].val[COL_SYNC_AFTER] <= 48 * MIB / (5.0 * MB));
	/* cap-1g: the 20 % ratio over at most 1 GiB, 204.8 MiB */
	assert_true(iso[2].val[COL_PEAK_DIRTY] <= 204.8 + 0.5);
	assert_true(iso[2].val[COL_PEAK_DIRTY] > 100);
	/* per-file (kernel/'s 0004): the writer itself submits each 16 MiB
	 * piece of the file it has passed, and waits for room in the stick's
	 * 16 MiB queue as submit_bio() does: the open piece and the queue are
	 * all that is dirty or under writeback, and the sync is short; the
	 * NVMe's deep queue never makes it wait, and it loses nothing */
	assert_true(iso[3].val[COL_PEAK_DIRTY] <= 16 + 16 + 1);
	assert_true(iso[3].val[COL_SYNC_AFTER] < 5);
	assert_true(fast[3].val[COL_FAST_WRITE] >= 0.99 * fast[0].val[COL_FAST_WRITE]);
	/* writethrough: the stick is slow, and the ISO a stream past 64 MiB:
	 * at most that before an 8 MiB limit; and the fast NVMe's stream is
	 * written through too, which costs it */
	assert_true(iso[4].val[COL_PEAK_DIRTY] <= 64 + 0.5);
	assert_true(iso[4].val[COL_SYNC_AFTER] < 2);
	assert_true(fast[4].val[COL_FAST_WRITE] < 0.9 * fast[0].val[COL_FAST_WRITE]);
	/* udev-16m: 16 MiB strict on the USB stick; the NVMe is not USB and
	 * runs exactly as under today's kernel */
	assert_true(iso[5].val[COL_PEAK_DIRTY] <= 16 + 0.5);
	assert_memory_equal(fast[5].val, fast[0].val, sizeof(fast[0].val));
	for (int i = 0; i < 6; i++) {
		run_result_free(&iso[i]);
		run_result_free(&fast[i]);
	}
}

/* The seeds: the 32-bit kernel stalls far less than the 64-bit one. */
static void test_32_vs_64(void **state)
{
	struct lab_params p;
	struct run_result r64, r32;

	(void)state;
	lab_params_init(&p);
	assert_int_equal(lab_run("usb-iso", "linux-64", &p, false, &r64), 0);
	assert_int_equal(lab_run("usb-iso", "linux-32", &p, false, &r32), 0);
	assert_true(r64.val[COL_SYNC_AFTER] >= 60);
	assert_true(r64.val[COL_WRITE_RETURN] < r64.val[COL_DURABLE] / 2);
	assert_true(r32.val[COL_PEAK_DIRTY] <= r64.val[COL_PEAK_DIRTY] / 4);
	assert_true(r32.val[COL_SYNC_AFTER] <= r64.val[COL_SYNC_AFTER] / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_limits),
		cmocka_unit_test(test_expiry_writes_old_data),
		cmocka_unit_test(test_sync_waits_for_all),
		cmocka_unit_test(test_strict_cap_bounds_dirty),
		cmocka_unit_test(test_cap_without_strict_bounds_nothing),
		cmocka_unit_test(test_knob_semantics),
		cmocka_unit_test(test_series_knobs),
		cmocka_unit_test(test_series_limits),
		cmocka_unit_test(test_idle_estimate),
		cmocka_unit_test(test_writethrough_hysteresis),
		cmocka_unit_test(test_time_floor_keeps_slow_device_busy),
		cmocka_unit_test(test_bytes_limit_holds),
		cmocka_unit_test(test_delete_cancels_dirty),
		cmocka_unit_test(test_bio_completes_whole),
		cmocka_unit_test(test_bio_never_across_files),
		cmocka_unit_test(test_bio_zero_unchanged),
		cmocka_unit_test(test_queue_bounds_writeback),
		cmocka_unit_test(test_latency_keeps_throughput),
		cmocka_unit_test(test_latency_idle_request),
		cmocka_unit_test(test_kver_idle_floor),
		cmocka_unit_test(test_ini_next_line),
		cmocka_unit_test(test_ini_text_parse),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_memory_in_use_has_no_cliff),
		cmocka_unit_test(test_memory_in_use_params),
		cmocka_unit_test(test_lab_params),
		cmocka_unit_test(test_proposals_do_what_they_say),
		cmocka_unit_test(test_runs_are_deterministic),
		cmocka_unit_test(test_seed_jitter),
		cmocka_unit_test(test_file_cost),
		cmocka_unit_test(test_io_end_completes_whole),
		cmocka_unit_test(test_vfat_meta_dirty),
		cmocka_unit_test(test_inflight_files),
		cmocka_unit_test(test_vfat_meta_stall),
		cmocka_unit_test(test_throttle_seen_by_wbgov),
		cmocka_unit_test(test_file_meta_journal),
		cmocka_unit_test(test_journal_waits_on_6_1),
		cmocka_unit_test(test_32_vs_64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
