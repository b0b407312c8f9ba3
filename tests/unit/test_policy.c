/* The governor's pieces: the decision rule, the bandwidth meter, and the
 * governor against an in-memory knobs backend that records every write. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/units.h"
#include "policy/governor.h"

#define MB 1000000ULL

static struct knobs_dev dev_usb(void)
{
	struct knobs_dev d = { .bdi = "8:16", .disk = "sdb", .model = "Cruzer Blade",
			       .serial = "4C53000", .bus = "usb", .major = 8, .minor = 16,
			       .removable = true };
	return d;
}

static struct knobs_dev dev_nvme(void)
{
	struct knobs_dev d = { .bdi = "259:0", .disk = "nvme0n1", .model = "SN850X",
			       .serial = "23123K", .bus = "nvme", .major = 259, .minor = 0 };
	return d;
}

/* ------------------------------------------------------------- decide */

static void test_decide_unmeasured(void **state)
{
	struct gov_config c;
	struct gov_decision d;
	struct knobs_dev usb = dev_usb(), nvme = dev_nvme(), hdd = dev_nvme();

	(void)state;
	gov_config_defaults(&c);
	gov_decide(&c, &usb, 0, 0, &d);
	assert_true(d.govern && d.strict);
	assert_int_equal(d.max_bytes, 16 * MIB);
	assert_int_equal(d.why, WHY_UNMEASURED_SLOW);
	gov_decide(&c, &nvme, 0, 0, &d);
	assert_true(d.govern);
	assert_false(d.strict);
	assert_int_equal(d.why, WHY_UNMEASURED_FAST);
	strcpy(hdd.bus, "ata");
	hdd.rotational = true;
	gov_decide(&c, &hdd, 0, 0, &d);
	assert_true(d.strict); /* rotational: small until measured */
}

static void test_decide_measured(void **state)
{
	struct gov_config c;
	struct gov_decision d;
	struct knobs_dev usb = dev_usb();

	(void)state;
	gov_config_defaults(&c);
	gov_decide(&c, &usb, 5 * MB, 0, &d); /* 1 s of 5 MB/s */
	assert_true(d.strict);
	assert_int_equal(d.max_bytes, 5 * MB);
	assert_int_equal(d.why, WHY_MEASURED);
	gov_decide(&c, &usb, 2 * MB, 0, &d); /* 2 MB < floor 4 MiB */
	assert_int_equal(d.max_bytes, 4 * MIB);
	assert_int_equal(d.why, WHY_FLOOR);
	gov_decide(&c, &usb, 300 * MB, 0, &d); /* 300 MB > ceiling 256 MiB: 2 s */
	assert_true(d.strict);
	assert_int_equal(d.max_bytes, 600 * MB);
	assert_int_equal(d.why, WHY_FAST);
	gov_decide(&c, &usb, 260 * MB, 0, &d); /* 260 MB < 256 MiB: 1 s */
	assert_int_equal(d.max_bytes, 260 * MB);
	assert_int_equal(d.why, WHY_MEASURED);
	gov_decide(&c, &usb, 270 * MB, 0, &d); /* just above: 2 s */
	assert_int_equal(d.max_bytes, 540 * MB);
	c.fast_target_ms = 500; /* never below the ceiling */
	gov_decide(&c, &usb, 300 * MB, 0, &d);
	assert_int_equal(d.max_bytes, 256 * MIB);
	/* fast, and the global threshold (4.7 GB) drains within 10 s: no cap */
	c.fast_target_ms = 2000;
	gov_decide(&c, &usb, 500 * MB, 4700 * MB, &d);
	assert_false(d.strict);
	assert_int_equal(d.why, WHY_DRAINS_FAST);
	gov_decide(&c, &usb, 300 * MB, 4700 * MB, &d); /* 15.7 s: capped at 2 s */
	assert_true(d.strict);
	assert_int_equal(d.max_bytes, 600 * MB);
	gov_decide(&c, &usb, 5 * MB, 4700 * MB, &d); /* a slow device: the threshold is moot */
	assert_int_equal(d.max_bytes, 5 * MB);
	c.target_ms = 2500;
	gov_decide(&c, &usb, 10 * MB, 0, &d);
	assert_int_equal(d.max_bytes, 25 * MB);
}

static void test_decide_rules(void **state)
{
	struct gov_config c;
	struct gov_decision d;
	struct knobs_dev usb = dev_usb(), nvme = dev_nvme();

	(void)state;
	gov_config_defaults(&c);
	c.rules[0] = (struct gov_rule){ .kind = MATCH_SERIAL, .value = "4C53000", .mode = MODE_FIXED,
					.fixed_bytes = 32 * MIB };
	c.rules[1] = (struct gov_rule){ .kind = MATCH_BUS, .value = "nvme", .mode = MODE_OFF };
	c.rules[2] = (struct gov_rule){ .kind = MATCH_DEVNUM, .value = "8:16", .mode = MODE_OFF };
	c.nrules = 3;
	gov_decide(&c, &usb, 5 * MB, 0, &d); /* the first matching section wins */
	assert_true(d.strict);
	assert_int_equal(d.max_bytes, 32 * MIB);
	assert_int_equal(d.why, WHY_FIXED);
	assert_ptr_equal(d.rule, &c.rules[0]);
	gov_decide(&c, &nvme, 0, 0, &d);
	assert_false(d.govern);
	assert_int_equal(d.why, WHY_OFF);
	c.rules[0] = (struct gov_rule){ .kind = MATCH_MODEL, .value = "Cruzer Blade", .mode = MODE_TIME,
					.target_ms = 3000 };
	gov_decide(&c, &usb, 5 * MB, 0, &d);
	assert_int_equal(d.max_bytes, 15 * MB);
	c.rules[0].value[0] = 0; /* an empty value matches nothing */
	usb.model[0] = 0;
	assert_ptr_equal(gov_match(&c, &usb), &c.rules[2]);
}

/* -------------------------------------------------------------- meter */

static void test_meter_busy_clock(void **state)
{
	struct bwmeter m;
	uint64_t t = 0, sect = 0, busy = 0;

	(void)state;
	bwmeter_init(&m, false);
	assert_false(bwmeter_sample(&m, t, sect, busy, 0));
	/* a 5 MB/s device, fully busy, sampled every 250 ms */
	for (int i = 0; i < 4; i++) {
		t += 250000;
		sect += 5 * MB / 4 / 512;
		busy += 250;
		bwmeter_sample(&m, t, sect, busy, 64 * MIB);
	}
	assert_int_equal(m.nmeasure, 1);
	assert_in_range(m.est_bps, 5 * MB - 5 * MB / 100, 5 * MB + 5 * MB / 100);
	/* lightly loaded: busy 10 % of the time at the same speed */
	for (int i = 0; i < 40; i++) {
		t += 250000;
		sect += 5 * MB / 40 / 512;
		busy += 25;
		bwmeter_sample(&m, t, sect, busy, 0);
	}
	assert_in_range(m.est_bps, 5 * MB - 5 * MB / 50, 5 * MB + 5 * MB / 50);
}

static void test_meter_tracks_a_slowdown(void **state)
{
	struct bwmeter m;
	uint64_t t = 0, sect = 0, busy = 0;

	(void)state;
	bwmeter_init(&m, false);
	bwmeter_sample(&m, t, sect, busy, 0);
	for (int i = 0; i < 20; i++) { /* 60 MB/s */
		t += 250000;
		sect += 60 * MB / 4 / 512;
		busy += 250;
		bwmeter_sample(&m, t, sect, busy, 64 * MIB);
	}
	assert_in_range(m.est_bps, 59 * MB, 61 * MB);
	for (int i = 0; i < 40; i++) { /* then 8 MB/s: ten windows */
		t += 250000;
		sect += 8 * MB / 4 / 512;
		busy += 250;
		bwmeter_sample(&m, t, sect, busy, 64 * MIB);
	}
	assert_in_range(m.est_bps, 8 * MB, 8 * MB + MB / 2);
}

static void test_meter_wall_clock(void **state)
{
	struct bwmeter m;
	uint64_t t = 0, sect = 0;

	(void)state;
	bwmeter_init(&m, true);
	bwmeter_sample(&m, t, 0, 0, 64 * MIB);
	/* a throttled loop device: 8 MiB bursts every 0.8 s, io_ticks ~0 */
	for (int i = 1; i <= 32; i++) {
		t += 250000;
		if (i % 4 == 0 && i % 16) /* not every window gets the same bursts */
			sect += 8 * MIB / 512;
		else if (i % 16 == 0)
			sect += 8 * MIB / 512;
		bwmeter_sample(&m, t, sect, 0, 64 * MIB);
	}
	/* 8 MiB per second */
	assert_true(m.nmeasure >= 3);
	assert_in_range(m.est_bps, 8 * MIB - 8 * MIB / 10, 8 * MIB + 8 * MIB / 10);
	/* with nothing waiting the interval says nothing */
	{
		uint64_t est = m.est_bps;
		for (int i = 0; i < 20; i++) {
			t += 250000;
			bwmeter_sample(&m, t, sect, 0, 0);
		}
		assert_int_equal(m.est_bps, est);
	}
}

static void test_meter_counter_reset(void **state)
{
	struct bwmeter m;

	(void)state;
	bwmeter_init(&m, false);
	bwmeter_sample(&m, 0, 1000000, 5000, 0);
	m.est_bps = 7 * MB;
	/* a replugged disk with the same name starts from zero */
	assert_false(bwmeter_sample(&m, 250000, 10, 1, 0));
	assert_int_equal(m.win_sectors, 0);
	assert_int_equal(m.est_bps, 7 * MB);
}

/* ----------------------------------------------------- a fake machine */

struct fake_bdi {
	struct knobs_dev info;
	uint64_t val[BDI_ATTR_COUNT];
	int fail_write[BDI_ATTR_COUNT];
	struct knobs_stat st;
};

struct fake {
	struct fake_bdi bdi[4];
	int n;
	uint64_t dirty, writeback;
	int writes;
	char log[64][48];
	int saves;
	int save_fail;
	int gone;
	int restored;
	uint64_t thresh_bytes; /* max_bytes above it: EINVAL */
	int features;
	uint64_t vm[VM_KNOB_COUNT];
	int vm_writes;
	int64_t bdi_dirty[4];   /* -1: the kernel does not tell */
	int vm_saves;
};

static struct fake_bdi *fb(struct fake *f, const char *bdi)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->bdi[i].info.bdi, bdi))
			return &f->bdi[i];
	return NULL;
}

static int f_vm_read(void *ctx, enum vm_knob k, uint64_t *ret)
{
	*ret = ((struct fake *)ctx)->vm[k];
	return 0;
}

/* with the kernel's twin rule: the last written of a pair wins */
static int f_vm_write(void *ctx, enum vm_knob k, uint64_t v)
{
	struct fake *f = ctx;
	struct vm_sysctl vm = {
		.dirty_ratio = (unsigned)f->vm[VM_DIRTY_RATIO],
		.dirty_background_ratio = (unsigned)f->vm[VM_DIRTY_BACKGROUND_RATIO],
		.dirty_bytes = f->vm[VM_DIRTY_BYTES],
		.dirty_background_bytes = f->vm[VM_DIRTY_BACKGROUND_BYTES],
		.dirty_expire_centisecs = (unsigned)f->vm[VM_DIRTY_EXPIRE_CENTISECS],
		.dirty_writeback_centisecs = (unsigned)f->vm[VM_DIRTY_WRITEBACK_CENTISECS],
	};
	int r = vm_sysctl_write(&vm, k, v, NULL);

	if (r)
		return r;
	for (int i = 0; i < VM_KNOB_COUNT; i++)
		f->vm[i] = vm_sysctl_get(&vm, (enum vm_knob)i);
	f->vm_writes++;
	return 0;
}

static int f_bdi_read(void *ctx, const char *bdi, enum bdi_attr a, uint64_t *ret)
{
	struct fake_bdi *b = fb(ctx, bdi);

	if (!b)
		return -ENOENT;
	*ret = b->val[a];
	return 0;
}

static int f_bdi_write(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v)
{
	struct fake *f = ctx;
	struct fake_bdi *b = fb(f, bdi);

	if (!b)
		return -ENOENT;
	if (b->fail_write[a])
		return b->fail_write[a];
	if (a == BDI_MAX_BYTES && f->thresh_bytes && v > f->thresh_bytes)
		return -EINVAL;
	snprintf(f->log[f->writes++ % 64], 48, "%s %s %llu", bdi, bdi_attr_names[a],
		 (unsigned long long)v);
	b->val[a] = v;
	if (a == BDI_MAX_BYTES)
		b->val[BDI_MAX_RATIO_FINE] = v / 1000; /* some ppm */
	if (a == BDI_MAX_RATIO_FINE)
		b->val[BDI_MAX_BYTES] = v == RATIO_FULL ? f->thresh_bytes : v * 1000;
	return 0;
}

static int f_dev_stat(void *ctx, const struct knobs_dev *d, struct knobs_stat *ret)
{
	struct fake_bdi *b = fb(ctx, d->bdi);

	if (!b)
		return -ENOENT;
	*ret = b->st;
	return 0;
}

static int f_meminfo(void *ctx, uint64_t *dirty, uint64_t *writeback)
{
	struct fake *f = ctx;

	*dirty = f->dirty;
	*writeback = f->writeback;
	return 0;
}

static int f_devices(void *ctx, struct knobs_dev *out, int max)
{
	struct fake *f = ctx;
	int n = 0;

	for (int i = 0; i < f->n && n < max; i++)
		out[n++] = f->bdi[i].info;
	return n;
}

static int f_features(void *ctx)
{
	return ((struct fake *)ctx)->features;
}

static int f_bdi_dirty(void *ctx, const char *bdi, uint64_t *ret)
{
	struct fake *f = ctx;

	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->bdi[i].info.bdi, bdi)) {
			if (f->bdi_dirty[i] < 0)
				return -ENOTSUP;
			*ret = (uint64_t)f->bdi_dirty[i];
			return 0;
		}
	return -ENOENT;
}

static const struct knobs_ops fake_ops = {
	.vm_read = f_vm_read, .vm_write = f_vm_write, .bdi_read = f_bdi_read,
	.bdi_write = f_bdi_write, .dev_stat = f_dev_stat, .meminfo = f_meminfo,
	.devices = f_devices, .features = f_features, .bdi_dirty = f_bdi_dirty,
};

static int h_save(void *ctx, const struct gov_dev *d)
{
	struct fake *f = ctx;

	(void)d;
	f->saves++;
	/* originals must be saved before any write */
	assert_int_equal(f->writes, 0);
	return f->save_fail;
}

static void h_gone(void *ctx, const struct gov_dev *d)
{
	(void)d;
	((struct fake *)ctx)->gone++;
}

static void h_restored(void *ctx, const struct gov_dev *d)
{
	(void)d;
	((struct fake *)ctx)->restored++;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->n = 2;
	f->bdi[0].info = dev_usb();
	f->bdi[1].info = dev_nvme();
	for (int i = 0; i < 2; i++) {
		f->bdi[i].val[BDI_MAX_RATIO_FINE] = RATIO_FULL;
		f->bdi[i].val[BDI_MAX_RATIO] = 100;
		f->bdi[i].val[BDI_MAX_BYTES] = 3 * GIB;
	}
	f->thresh_bytes = 3 * GIB;
	f->features = KNOBS_BDI_BYTES;
	f->vm[VM_DIRTY_RATIO] = 20;
	f->vm[VM_DIRTY_BACKGROUND_RATIO] = 10;
	f->vm[VM_DIRTY_EXPIRE_CENTISECS] = 3000;
	f->vm[VM_DIRTY_WRITEBACK_CENTISECS] = 500;
}

static int h_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	struct fake *f = ctx;

	f->vm_saves++;
	/* recorded before any change: the kernel still holds what was found */
	assert_int_equal(f->vm[VM_DIRTY_BYTES], 0);
	assert_int_equal(f->vm[VM_DIRTY_RATIO], 20);
	assert_int_equal(vm[VM_DIRTY_RATIO], 20);
	return 0;
}

static void gov_setup(struct governor *g, struct fake *f)
{
	struct gov_config c;
	struct gov_hooks h = { .ctx = f, .save = h_save, .gone = h_gone, .restored = h_restored,
			       .save_vm = h_save_vm };

	gov_config_defaults(&c);
	gov_init(g, &c, &fake_ops, f, &h);
}

static struct governor G; /* large: not on the stack */

static void test_governor_applies_cap_before_strict(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	assert_int_equal(f.saves, 1);    /* only the USB stick is changed */
	assert_int_equal(f.writes, 2);
	assert_string_equal(f.log[0], "8:16 max_bytes 16777216");
	assert_string_equal(f.log[1], "8:16 strict_limit 1");
	assert_int_equal(f.bdi[1].val[BDI_STRICT_LIMIT], 0);
	/* nothing changed: nothing written (read-compare-write) */
	gov_tick(&G, 250000);
	gov_tick(&G, 500000);
	assert_int_equal(f.writes, 2);
}

static void test_governor_reapplies_after_drift(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	/* the kernel recomputed max_bytes from a new threshold: 1/64 off */
	f.bdi[0].val[BDI_MAX_BYTES] = 16 * MIB - 16 * MIB / 32;
	gov_tick(&G, 250000);
	assert_int_equal(f.writes, 3);
	assert_string_equal(f.log[2], "8:16 max_bytes 16777216");
	/* within the kernel's resolution: left alone */
	f.bdi[0].val[BDI_MAX_BYTES] = 16 * MIB - 4096;
	gov_tick(&G, 500000);
	assert_int_equal(f.writes, 3);
}

static void test_governor_follows_measurement(void **state)
{
	struct fake f;
	uint64_t t = 0;

	(void)state;
	fake_init(&f);
	gov_setup(&G, &f);
	f.dirty = 64 * MIB;
	for (int i = 0; i < 12; i++) { /* the stick writes 5 MB/s, busy */
		f.bdi[0].st.sectors_written += 5 * MB / 4 / 512;
		f.bdi[0].st.io_ticks_ms += 250;
		gov_tick(&G, t);
		t += 250000;
	}
	assert_in_range(f.bdi[0].val[BDI_MAX_BYTES], 5 * MB - 50000, 5 * MB + 50000);
	assert_int_equal(f.bdi[0].val[BDI_STRICT_LIMIT], 1);
	assert_int_equal(gov_tick(&G, t), GOV_POLL_BUSY_USEC);
	f.dirty = 0;
	assert_int_equal(gov_tick(&G, t + 250000), GOV_POLL_IDLE_USEC);
}

static void test_governor_restore_is_exact(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	f.bdi[0].val[BDI_MAX_RATIO_FINE] = 123456; /* someone's own setting */
	f.bdi[0].val[BDI_STRICT_LIMIT] = 0;
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	assert_int_equal(f.bdi[0].val[BDI_STRICT_LIMIT], 1);
	assert_int_equal(gov_restore(&G), 0);
	assert_int_equal(f.bdi[0].val[BDI_MAX_RATIO_FINE], 123456);
	assert_int_equal(f.bdi[0].val[BDI_STRICT_LIMIT], 0);
	assert_int_equal(f.restored, 1);
	/* a second restore writes nothing */
	{
		int w = f.writes;
		assert_int_equal(gov_restore(&G), 0);
		assert_int_equal(f.writes, w);
	}
}

static void test_governor_device_leaves(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	f.n = 1; /* the NVMe stays, the stick is pulled: */
	f.bdi[0] = f.bdi[1];
	gov_tick(&G, 250000); /* its stat fails: a rescan is asked for */
	gov_tick(&G, 500000);
	assert_int_equal(f.gone, 1);
	assert_null(gov_find(&G, "8:16"));
	assert_int_equal(gov_restore(&G), 0); /* nothing to give back */
}

static void test_governor_save_failure_changes_nothing(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	f.save_fail = -EROFS;
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	assert_int_equal(f.writes, 0);
	assert_int_equal(gov_find(&G, "8:16")->err, -EROFS);
}

/* A cap above the global threshold is refused (EINVAL): the global limit
 * is tighter already, so the device is left as it was, quietly. */
static void test_governor_cap_above_global(void **state)
{
	struct fake f;
	int w;

	(void)state;
	fake_init(&f);
	f.thresh_bytes = 8 * MIB; /* vm.dirty_bytes 8 MiB: 16 MiB is refused */
	f.bdi[0].val[BDI_MAX_BYTES] = 8 * MIB; /* an uncapped bdi reads the threshold */
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	assert_int_equal(gov_find(&G, "8:16")->err, 0);
	assert_true(gov_find(&G, "8:16")->above_global);
	assert_int_equal(f.bdi[0].val[BDI_STRICT_LIMIT], 0); /* not half-applied */
	assert_int_equal(f.bdi[0].val[BDI_MAX_RATIO_FINE], RATIO_FULL);
	w = f.writes;
	gov_tick(&G, 250000); /* and not retried on every poll */
	assert_int_equal(f.writes, w);
}

/* Any other refusal is an error, and nothing is half-applied. */
static void test_governor_write_error_keeps_previous(void **state)
{
	struct fake f;

	(void)state;
	fake_init(&f);
	f.bdi[0].fail_write[BDI_MAX_BYTES] = -EACCES;
	gov_setup(&G, &f);
	gov_tick(&G, 0);
	assert_int_equal(gov_find(&G, "8:16")->err, -EACCES);
	assert_int_equal(gov_find(&G, "8:16")->err_attr, BDI_MAX_BYTES);
	assert_int_equal(f.bdi[0].val[BDI_STRICT_LIMIT], 0);
	assert_int_equal(f.bdi[0].val[BDI_MAX_RATIO_FINE], RATIO_FULL);
}

/* Linux < 6.2: the global pair while the stick holds dirty data, given
 * back 5 s after it stops, as found (ratio mode). */
static void test_governor_pre_62_global_pair(void **state)
{
	struct fake f;
	uint64_t t = 0;

	(void)state;
	fake_init(&f);
	f.features = 0;
	f.bdi_dirty[0] = 0;
	f.bdi_dirty[1] = 0;
	gov_setup(&G, &f);
	gov_tick(&G, t);
	assert_int_equal(f.vm_writes, 0); /* nothing dirty on the stick */
	assert_int_equal(f.writes, 0);    /* and no per-bdi knob is touched */
	f.bdi_dirty[1] = 500 * MIB;       /* the NVMe: not a slow device */
	gov_tick(&G, t += 250000);
	assert_int_equal(f.vm_writes, 0);
	f.bdi_dirty[0] = MIB;             /* the stick */
	gov_tick(&G, t += 250000);
	assert_int_equal(f.vm_saves, 1);
	assert_int_equal(f.vm[VM_DIRTY_BYTES], 16 * MIB);
	assert_int_equal(f.vm[VM_DIRTY_BACKGROUND_BYTES], 8 * MIB);
	assert_int_equal(f.vm[VM_DIRTY_RATIO], 0);
	f.bdi_dirty[0] = 0;
	gov_tick(&G, t += 250000);
	gov_tick(&G, t += 4000000);       /* 4 s quiet: kept */
	assert_int_equal(f.vm[VM_DIRTY_BYTES], 16 * MIB);
	gov_tick(&G, t += 1250000);       /* 5.25 s quiet: given back */
	assert_int_equal(f.vm[VM_DIRTY_RATIO], 20);
	assert_int_equal(f.vm[VM_DIRTY_BACKGROUND_RATIO], 10);
	assert_int_equal(f.vm[VM_DIRTY_BYTES], 0);
	assert_int_equal(f.vm[VM_DIRTY_BACKGROUND_BYTES], 0);
	/* and gov_restore() gives it back when stopping mid-copy */
	f.bdi_dirty[0] = MIB;
	gov_tick(&G, t += 250000);
	assert_int_equal(f.vm[VM_DIRTY_BYTES], 16 * MIB);
	assert_int_equal(gov_restore(&G), 0);
	assert_int_equal(f.vm[VM_DIRTY_RATIO], 20);
	assert_int_equal(f.vm[VM_DIRTY_BYTES], 0);
	assert_int_equal(f.writes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_unmeasured),
		cmocka_unit_test(test_decide_measured),
		cmocka_unit_test(test_decide_rules),
		cmocka_unit_test(test_meter_busy_clock),
		cmocka_unit_test(test_meter_tracks_a_slowdown),
		cmocka_unit_test(test_meter_wall_clock),
		cmocka_unit_test(test_meter_counter_reset),
		cmocka_unit_test(test_governor_applies_cap_before_strict),
		cmocka_unit_test(test_governor_reapplies_after_drift),
		cmocka_unit_test(test_governor_follows_measurement),
		cmocka_unit_test(test_governor_restore_is_exact),
		cmocka_unit_test(test_governor_device_leaves),
		cmocka_unit_test(test_governor_save_failure_changes_nothing),
		cmocka_unit_test(test_governor_cap_above_global),
		cmocka_unit_test(test_governor_write_error_keeps_previous),
		cmocka_unit_test(test_governor_pre_62_global_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
