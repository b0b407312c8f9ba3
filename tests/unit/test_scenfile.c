/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scenario files (src/sim/scenfile.c): every key, the defaults, one
 * malformed case per message with its exact "FILE:LINE: " text, the
 * canonical form parsed back for every built-in scenario, --sysctl and
 * --knob, --param on top of a file, and a knob the kernel refuses (6.1). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lab/lab.h"
#include "model/ini.h"
#include "sim/scenfile.h"

#define MB 1000000ULL

static char err[512];

static int parse(const char *text, struct scenario *sc)
{
	return scenfile_parse("t.scenario", text, sc, err, sizeof(err));
}

/* The smallest file: one device, one writer. */
#define MIN_DEV "[device sdb]\nbandwidth = 5MB/s\n"
#define MIN_WRITER "[writer w]\ndevice = sdb\nsize = 40M\nrole = main\n"
#define MINIMAL MIN_DEV MIN_WRITER

/* the canonical text of `sc` */
static char *text_of(const struct scenario *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(scenfile_write(f, sc), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_defaults(void **state)
{
	struct scenario sc;

	(void)state;
	assert_int_equal(parse(MINIMAL, &sc), 0);
	assert_string_equal(sc.name, "t"); /* the file's name */
	assert_string_equal(sc.summary, "");
	assert_int_equal(sc.npolicy, 0);
	assert_int_equal(sc.kernel.mem_bytes, 16 * GIB);
	assert_int_equal(sc.kernel.anon_bytes, 1536 * MIB);
	assert_int_equal(sc.kernel.kernel_bytes, 96 * MIB);
	assert_false(sc.used_set);
	assert_false(sc.kernel_mem_set);
	assert_int_equal(sc.kernel.reserve_bytes, 64 * MIB);
	assert_int_equal(sc.kernel.lowmem_bytes, 896 * MIB);
	assert_int_equal(sc.kernel.k.ncpus, 4);
	assert_int_equal(sc.kernel.k.hz, 250);
	assert_int_equal(sc.kernel.k.long_bits, 64);
	assert_int_equal(sc.kernel.kver, KVER_6_18);
	assert_int_equal(sc.ndev, 1);
	assert_string_equal(sc.dev[0].name, "sdb");
	assert_int_equal(sc.dev[0].bus, BUS_VIRTUAL);
	assert_false(sc.dev[0].removable || sc.dev[0].rotational || sc.dev[0].known);
	assert_int_equal(sc.dev[0].nbw, 1);
	assert_int_equal(sc.dev[0].bw[0].bps, 5 * MB);
	assert_int_equal(sc.dev[0].queue_bytes, 16 * MIB);
	assert_int_equal(sc.dev[0].bio_bytes, 0);
	assert_int_equal(sc.dev[0].latency_usec, 0);
	assert_int_equal(sc.main_dev, 0);
	assert_int_equal(sc.ntask, 1);
	assert_string_equal(sc.task_name[0], "w");
	assert_int_equal(sc.task[0].kind, TASK_COPY);
	assert_int_equal(sc.task[0].dev, 0);
	assert_int_equal(sc.task[0].files, 1);
	assert_int_equal(sc.task[0].file_bytes, 40 * MIB);
	assert_int_equal(sc.task[0].rate_bps, 1000 * MB);
	assert_int_equal(sc.task[0].start_usec, 0);
	assert_int_equal(sc.task[0].end, END_SYNC);
	assert_int_equal(sc.task[0].delete_at_usec, 0);
	assert_false(sc.task[0].background);
	assert_int_equal(sc.role[0], ROLE_MAIN);
	assert_int_equal(sc.nknob, 0);
	/* the memory defaults follow mem */
	assert_int_equal(parse("[machine]\nmem = 2G\n" MINIMAL, &sc), 0);
	assert_int_equal(sc.kernel.anon_bytes, 256 * MIB);
	assert_int_equal(sc.kernel.kernel_bytes, 96 * MIB);
	/* a fsync-loop runs in the background, 10 ms apart */
	assert_int_equal(parse(MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 4K\n", &sc),
			 0);
	assert_int_equal(sc.task[1].kind, TASK_FSYNC_LOOP);
	assert_true(sc.task[1].background);
	assert_int_equal(sc.task[1].period_usec, 10000);
	assert_int_equal(sc.task[1].file_bytes, 4096);
	assert_int_equal(sc.task[1].end, END_NONE);
	assert_int_equal(sc.role[1], ROLE_OTHER);
}

static const char every_key[] =
	"# every key, none at its default\n"
	"; a comment of the other kind\n"
	"[scenario]\n"
	"name = every-key\n"
	"summary = all of them: a \"quoted\" word # and a hash\n"
	"policies = wbgov linux-64\n"
	"\n"
	"[machine]\n"
	"mem = 8G\n"
	"used = 1G\n"
	"kernel_mem = 200M\n"
	"reserve = 32M\n"
	"lowmem = 768M\n"
	"cpus = 2\n"
	"hz = 1000\n"
	"bits = 32\n"
	"kernel = 6.12\n"
	"\n"
	"[device sda]\n"
	"bandwidth = 400MB/s\n"
	"inflight_files = 41\n"
	"\n"
	"[device sdc]\n"
	"model = Ultra Fit\n"
	"serial = 0101abc\n"
	"bus = usb\n"
	"removable = yes\n"
	"rotational = yes\n"
	"known = yes\n"
	"bandwidth = 60MB/s for 1G, 20MB/s for 90s, 500kB/s for 4096, 8MB/s\n"
	"queue = 8M\n"
	"bio = 1M\n"
	"latency = 1500us\n"
	"fs = vfat\n"
	"main = yes\n"
	"\n"
	"[writer clone]\n"
	"kind = copy\n"
	"device = sdc\n"
	"size = 100M\n"
	"file_size = 64K\n"
	"rate = 50MB/s\n"
	"start = 1.5s\n"
	"end = fsync\n"
	"delete = 2min\n"
	"background = no\n"
	"role = main-fast\n"
	"\n"
	"[writer f]\n"
	"kind = fsync-loop\n"
	"device = sda\n"
	"size = 8K\n"
	"start = 250ms\n"
	"period = 1h\n"
	"background = yes\n"
	"role = other\n"
	"\n"
	"[writer bg]\n"
	"device = sda\n"
	"size = 1G\n"
	"end = none\n"
	"background = yes\n"
	"role = fast\n"
	"\n"
	"[sysctl]\n"
	"vm.dirty_bytes = 48M\n"
	"vm.dirty_background_bytes = 16M\n"
	"vm.dirty_ratio = 30\n"
	"vm.dirty_background_ratio = 5\n"
	"vm.dirty_expire_centisecs = 1500\n"
	"vm.dirty_writeback_centisecs = 250\n"
	"\n"
	"[knob]\n"
	"sdc.strict_limit = 1\n"
	"sdc.max_bytes = 16M\n"
	"sdc.min_bytes = 1M\n"
	"sda.max_ratio = 50\n"
	"sda.min_ratio = 1\n"
	"sda.max_ratio_fine = 250000\n"
	"sda.min_ratio_fine = 100\n"
	"\n"
	"[sysctl]\n"
	"vm.dirty_ratio = 20\n";

static void test_every_key(void **state)
{
	struct scenario sc;
	const struct sim_dev_cfg *d;
	static const struct { bool bdi; int dev; int attr; uint64_t v; } knobs[] = {
		{ false, 0, VM_DIRTY_BYTES, 48 * MIB },
		{ false, 0, VM_DIRTY_BACKGROUND_BYTES, 16 * MIB },
		{ false, 0, VM_DIRTY_RATIO, 30 },
		{ false, 0, VM_DIRTY_BACKGROUND_RATIO, 5 },
		{ false, 0, VM_DIRTY_EXPIRE_CENTISECS, 1500 },
		{ false, 0, VM_DIRTY_WRITEBACK_CENTISECS, 250 },
		{ true, 1, BDI_STRICT_LIMIT, 1 },
		{ true, 1, BDI_MAX_BYTES, 16 * MIB },
		{ true, 1, BDI_MIN_BYTES, MIB },
		{ true, 0, BDI_MAX_RATIO, 50 },
		{ true, 0, BDI_MIN_RATIO, 1 },
		{ true, 0, BDI_MAX_RATIO_FINE, 250000 },
		{ true, 0, BDI_MIN_RATIO_FINE, 100 },
		{ false, 0, VM_DIRTY_RATIO, 20 },
	};

	(void)state;
	assert_int_equal(parse(every_key, &sc), 0);
	assert_string_equal(sc.name, "every-key");
	assert_string_equal(sc.summary, "all of them: a \"quoted\" word # and a hash");
	assert_int_equal(sc.npolicy, 2);
	assert_string_equal(sc.policy[0], "wbgov");
	assert_string_equal(sc.policy[1], "linux-64");
	assert_int_equal(sc.kernel.mem_bytes, 8 * GIB);
	assert_int_equal(sc.kernel.anon_bytes, GIB);
	assert_int_equal(sc.kernel.kernel_bytes, 200 * MIB);
	assert_true(sc.used_set && sc.kernel_mem_set);
	assert_int_equal(sc.kernel.reserve_bytes, 32 * MIB);
	assert_int_equal(sc.kernel.lowmem_bytes, 768 * MIB);
	assert_int_equal(sc.kernel.k.ncpus, 2);
	assert_int_equal(sc.kernel.k.hz, 1000);
	assert_int_equal(sc.kernel.k.long_bits, 32);
	assert_int_equal(sc.kernel.kver, KVER_6_12);
	assert_int_equal(sc.ndev, 2);
	d = &sc.dev[1];
	assert_string_equal(d->name, "sdc");
	assert_string_equal(d->model, "Ultra Fit");
	assert_string_equal(d->serial, "0101abc");
	assert_int_equal(d->bus, BUS_USB);
	assert_true(d->removable && d->rotational && d->known);
	assert_int_equal(d->nbw, 4);
	assert_int_equal(d->bw[0].bps, 60 * MB);
	assert_int_equal(d->bw[0].for_bytes, GIB);
	assert_int_equal(d->bw[1].bps, 20 * MB);
	assert_int_equal(d->bw[1].for_usec, 90000000);
	assert_int_equal(d->bw[2].bps, 500000);
	assert_int_equal(d->bw[2].for_bytes, 4096);
	assert_int_equal(d->bw[3].bps, 8 * MB);
	assert_int_equal(d->bw[3].for_bytes + d->bw[3].for_usec, 0);
	assert_int_equal(d->queue_bytes, 8 * MIB);
	assert_int_equal(d->bio_bytes, MIB);
	assert_int_equal(d->latency_usec, 1500);
	assert_int_equal(d->fs, SIM_FS_VFAT);
	assert_int_equal(sc.dev[0].fs, SIM_FS_EXT4);
	assert_int_equal(sc.dev[0].inflight_files, 41);
	assert_int_equal(d->inflight_files, 0);
	assert_int_equal(sc.main_dev, 1);
	assert_int_equal(sc.ntask, 3);
	assert_int_equal(sc.task[0].kind, TASK_COPY);
	assert_int_equal(sc.task[0].dev, 1);
	assert_int_equal(sc.task_size[0], 100 * MIB);
	assert_int_equal(sc.task_file_size[0], 64 * KIB);
	assert_int_equal(sc.task[0].files, 1600);
	assert_int_equal(sc.task[0].file_bytes, 64 * KIB);
	assert_int_equal(sc.task[0].rate_bps, 50 * MB);
	assert_int_equal(sc.task[0].start_usec, 1500000);
	assert_int_equal(sc.task[0].end, END_FSYNC);
	assert_int_equal(sc.task[0].delete_at_usec, 120000000);
	assert_false(sc.task[0].background);
	assert_int_equal(sc.role[0], ROLE_MAIN_FAST);
	assert_int_equal(sc.task[1].kind, TASK_FSYNC_LOOP);
	assert_int_equal(sc.task[1].dev, 0);
	assert_int_equal(sc.task[1].file_bytes, 8192);
	assert_int_equal(sc.task[1].start_usec, 250000);
	assert_int_equal(sc.task[1].period_usec, 3600000000ULL);
	assert_true(sc.task[1].background);
	assert_int_equal(sc.role[1], ROLE_OTHER);
	assert_int_equal(sc.task[2].end, END_NONE);
	assert_true(sc.task[2].background);
	assert_int_equal(sc.role[2], ROLE_FAST);
	assert_int_equal(sc.nknob, (int)(sizeof(knobs) / sizeof(knobs[0])));
	for (int k = 0; k < sc.nknob; k++) {
		assert_int_equal(sc.knob[k].bdi, knobs[k].bdi);
		assert_int_equal(sc.knob[k].attr, knobs[k].attr);
		assert_int_equal(sc.knob[k].value, knobs[k].v);
		if (knobs[k].bdi)
			assert_int_equal(sc.knob[k].dev, knobs[k].dev);
	}
}

/* Parsed, written, parsed again: the same scenario, the same text. */
static void round_trip(const char *name, const char *text)
{
	struct scenario a, b;
	char *t1, *t2;

	if (scenfile_parse(name, text, &a, err, sizeof(err)))
		fail_msg("%s", err);
	t1 = text_of(&a);
	if (scenfile_parse(name, t1, &b, err, sizeof(err)))
		fail_msg("%s, in:\n%s", err, t1);
	if (memcmp(&a, &b, sizeof(a)))
		fail_msg("%s: parsed back, the canonical form differs:\n%s", name, t1);
	t2 = text_of(&b);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
}

static void test_round_trip(void **state)
{
	(void)state;
	assert_int_equal(scen_builtin_count, 10);
	for (int i = 0; i < scen_builtin_count; i++)
		round_trip(scen_builtins[i].name, scen_builtins[i].text);
	round_trip("every-key.scenario", every_key);
	round_trip("t.scenario", MINIMAL);
}

/* What the built-in files say is what the C builders made (wbsim table's
 * output is byte-identical too: tests/cli/wbsim_scenario_file.sh). */
static void test_builtins(void **state)
{
	struct scenario sc;

	(void)state;
	for (int i = 0; i < scen_builtin_count; i++) {
		assert_int_equal(scenfile_builtin(scen_builtins[i].name, &sc), 0);
		assert_string_equal(sc.name, scen_builtins[i].name);
		assert_true(sc.summary[0]);
		assert_int_equal(sc.kernel.mem_bytes, 16 * GIB);
		assert_int_equal(sc.main_dev, 0);
		assert_int_equal(sc.nknob, 0);
	}
	assert_int_equal(scenfile_builtin("nosuch", &sc), -ENOENT);
	assert_int_equal(scenfile_builtin("usb-git-clone", &sc), 0);
	assert_int_equal(sc.task[0].files, 12800);
	assert_int_equal(sc.task[0].file_bytes, 16384);
	assert_int_equal(sc.task[0].rate_bps, 200 * MB);
	assert_int_equal(scenfile_builtin("32-vs-64", &sc), 0);
	assert_int_equal(sc.kernel.k.long_bits, 32);
	assert_int_equal(scenfile_builtin("tempfiles", &sc), 0);
	assert_int_equal(sc.task[0].end, END_NONE);
	assert_int_equal(sc.task[0].delete_at_usec, 10000000);
	assert_int_equal(sc.task[0].files, 16384);
	assert_int_equal(scenfile_builtin("fast-beside-stick", &sc), 0);
	assert_false(sc.dev[1].known);
	assert_int_equal(sc.dev[1].queue_bytes, 128 * MIB);
	assert_int_equal(sc.task[2].start_usec, 20000000);
	assert_int_equal(sc.task[2].rate_bps, 4000 * MB);
	assert_int_equal(sc.role[2], ROLE_FAST);
	assert_int_equal(scenfile_builtin("slc-cliff", &sc), 0);
	assert_int_equal(sc.dev[0].nbw, 2);
	assert_int_equal(sc.dev[0].bw[0].for_bytes, GIB);
	assert_int_equal(sc.dev[0].bw[1].bps, 8 * MB);
}

struct bad {
	const char *text;
	const char *msg;
};

static void test_errors(void **state)
{
	static const struct bad cases[] = {
		/* syntax */
		{ "mem = 16G\n", "t.scenario:1: \"mem\" before any [section]" },
		{ "[machine]\nmem 16G\n", "t.scenario:2: not a [section], key = value, or comment" },
		{ "[machine\n", "t.scenario:1: not a [section], key = value, or comment" },
		{ "[machine] x\n", "t.scenario:1: text after the section's ]" },
		{ "[machine]\n  mem = 1G\n",
		  "t.scenario:2: a line that starts with a blank: write it at the line's start" },
		{ "[machine]\n# " "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		  "xx\nmem = 1G\n", "t.scenario:2: a line longer than 198 characters" },
		{ "[nosuch]\n", "t.scenario:1: unknown section [nosuch] (scenario, machine, device NAME, "
				"writer NAME, sysctl, knob)" },
		{ "[machine]\n[machine]\n", "t.scenario:2: [machine] appears twice" },
		{ "[scenario]\n[scenario]\n", "t.scenario:2: [scenario] appears twice" },
		{ "[machine]\nmem = 1G\nmem = 2G\n", "t.scenario:3: \"mem\" is set twice" },
		{ "[machine]\ncolour = red\n", "t.scenario:2: unknown key \"colour\" in [machine] (mem, "
					       "used, kernel_mem, reserve, lowmem, cpus, hz, bits, kernel)" },
		/* [scenario] */
		{ "[scenario]\nname = USB\n", "t.scenario:2: name = \"USB\": want a-z, 0-9 and -, 1 to 31 "
					      "characters, like usb-iso" },
		{ "[scenario]\nname = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		  "t.scenario:2: name = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": want a-z, 0-9 and -, 1 to 31 "
		  "characters, like usb-iso" },
		{ "[scenario]\nsummary = \x01\n", "t.scenario:2: summary = \"\x01\": want one line of at "
						  "most 127 characters, not starting with ;" },
		/* written back as "summary = ;x", it would be a comment */
		{ "[scenario]\nsummary =;x\n", "t.scenario:2: summary = \";x\": want one line of at most 127 "
						 "characters, not starting with ;" },
		{ "[scenario]\npolicies = linux-64 nosuch\n",
		  "t.scenario:2: policies: unknown policy \"nosuch\" (see wbsim list)" },
		{ "[scenario]\npolicies = wbgov wbgov\n", "t.scenario:2: policies: \"wbgov\" is named twice" },
		{ "[scenario]\nfoo = 1\n", "t.scenario:2: unknown key \"foo\" in [scenario] (name, summary, "
					   "policies)" },
		/* [machine] */
		{ "[machine]\nmem = 32M\n", "t.scenario:2: mem = \"32M\": want a size from 64M to 4T, like 16G" },
		{ "[machine]\nused = lots\n", "t.scenario:2: used = \"lots\": want a size from 0 to 1T, like 1536M" },
		{ "[machine]\nkernel_mem = 2T\n", "t.scenario:2: kernel_mem = \"2T\": want a size from 0 to 1T, "
						  "like 1536M" },
		{ "[machine]\nreserve = 2G\n", "t.scenario:2: reserve = \"2G\": want a size from 0 to 1G, like 64M" },
		{ "[machine]\nlowmem = 1M\n", "t.scenario:2: lowmem = \"1M\": want a size from 16M to 4G, like 896M" },
		{ "[machine]\ncpus = 0\n", "t.scenario:2: cpus = \"0\": want 1 to 64" },
		{ "[machine]\ncpus = 65\n", "t.scenario:2: cpus = \"65\": want 1 to 64" },
		{ "[machine]\nhz = 200\n", "t.scenario:2: hz = \"200\": want 100, 250, 300 or 1000" },
		{ "[machine]\nbits = 16\n", "t.scenario:2: bits = \"16\": want 32 or 64" },
		{ "[machine]\nkernel = 5.15\n", "t.scenario:2: kernel = \"5.15\": want 6.1, 6.12, 6.18, 7.0-rc1, 7.0, "
						"7.1 (the kernel's version, for what differs) or 6.12+series "
						"(6.12 with kernel/'s patches)" },
		{ "[machine]\nmem = 1G\nused = 1G\n" MINIMAL,
		  "t.scenario:3: used (1024 MiB) and kernel_mem (64 MiB) do not fit in mem (1024 MiB)" },
		/* [device] */
		{ "[device SDB]\n", "t.scenario:1: [device SDB]: want a name as in /dev/NAME: a-z, 0-9, _ and "
				    "-, at most 15 characters, like sdb" },
		{ "[device a.b]\n", "t.scenario:1: [device a.b]: want a name as in /dev/NAME: a-z, 0-9, _ and "
				    "-, at most 15 characters, like sdb" },
		{ "[device sdb]\n[device sdb]\n", "t.scenario:2: [device sdb] appears twice" },
		{ "[device a]\n[device b]\n[device c]\n[device d]\n[device e]\n[device f]\n[device g]\n",
		  "t.scenario:7: more than 6 [device] sections" },
		{ "[device sdb]\nspeed = 5MB/s\n",
		  "t.scenario:2: unknown key \"speed\" in [device sdb] (model, serial, bus, removable, "
		  "rotational, known, bandwidth, queue, bio, latency, idle, main, io_end, throttle, fs, inflight_files, share)" },
		{ "[device sdb]\ninflight_files = -1\n",
		  "t.scenario:2: inflight_files = \"-1\": want 0 (no bound) to 100000" },
		{ "[device sdb]\ninflight_files = 100001\n",
		  "t.scenario:2: inflight_files = \"100001\": want 0 (no bound) to 100000" },
		{ "[device sdb]\nbandwidth = 5MB/s\nfs = vfat\ninflight_files = 40\n" MIN_WRITER,
		  "t.scenario:1: [device sdb]: inflight_files is ext4's (its journal's reserved credits); "
		  "vfat has no journal" },
		{ "[device sdb]\nfs = fat\n", "t.scenario:2: fs = \"fat\": want ext4 or vfat" },
		{ "[device sdb]\nbandwidth = 5MB/s\nfs = vfat\nio_end = 2M\n" MIN_WRITER,
		  "t.scenario:1: [device sdb]: io_end is ext4's; with fs = vfat a file's writeback ends "
		  "with its bio" },
		{ "[device sdb]\nmodel = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		  "t.scenario:2: model = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": want one line of 1 to 31 characters, "
		  "not starting with ;" },
		{ "[device sdb]\nbus = scsi\n", "t.scenario:2: bus = \"scsi\": want usb, sata, nvme or virtual" },
		{ "[device sdb]\nremovable = true\n", "t.scenario:2: removable = \"true\": want yes or no" },
		{ "[device sdb]\nbandwidth = 5XB/s\n",
		  "t.scenario:2: bandwidth = \"5XB/s\": want speeds from 10kB/s to 100GB/s, like 5MB/s" },
		{ "[device sdb]\nbandwidth = 1kB/s\n",
		  "t.scenario:2: bandwidth = \"1kB/s\": want speeds from 10kB/s to 100GB/s, like 5MB/s" },
		{ "[device sdb]\nbandwidth = 60MB/s for 1G\n",
		  "t.scenario:2: bandwidth = \"60MB/s for 1G\": want SPEED, or stretches SPEED for SIZE or "
		  "SPEED for TIME, comma-separated, the last a plain SPEED, like 60MB/s for 1G, 8MB/s" },
		{ "[device sdb]\nbandwidth = 60MB/s, 8MB/s\n",
		  "t.scenario:2: bandwidth = \"60MB/s, 8MB/s\": want SPEED, or stretches SPEED for SIZE or "
		  "SPEED for TIME, comma-separated, the last a plain SPEED, like 60MB/s for 1G, 8MB/s" },
		{ "[device sdb]\nbandwidth = 60MB/s during 1G, 8MB/s\n",
		  "t.scenario:2: bandwidth = \"60MB/s during 1G, 8MB/s\": want SPEED, or stretches SPEED for "
		  "SIZE or SPEED for TIME, comma-separated, the last a plain SPEED, like 60MB/s for 1G, 8MB/s" },
		{ "[device sdb]\nbandwidth = 60MB/s for 1 week, 8MB/s\n",
		  "t.scenario:2: bandwidth = \"60MB/s for 1 week, 8MB/s\": want a stretch's size from 4K to 1T, "
		  "or its time from 1ms to 720h, like 1G or 30s" },
		{ "[device sdb]\nbandwidth = 60MB/s for 1us, 8MB/s\n",
		  "t.scenario:2: bandwidth = \"60MB/s for 1us, 8MB/s\": want a stretch's time from 1ms to 720h" },
		{ "[device sdb]\nbandwidth = 1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, "
		  "1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s\n",
		  "t.scenario:2: bandwidth = \"1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, "
		  "1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s for 1s, 1MB/s\": want at most 8 stretches" },
		{ "[device sdb]\nqueue = 1K\n", "t.scenario:2: queue = \"1K\": want 0 (no bound) or a size from 4K to 4G, like 16M" },
		{ "[device sdb]\nbio = 6K\n", "t.scenario:2: bio = \"6K\": want 0 or a multiple of 4K up to 1G, "
					      "like 1M" },
		{ "[device sdb]\nlatency = 1001ms\n",
		  "t.scenario:2: latency = \"1001ms\": want a time from 0s to 1s, like 2ms" },
		{ "[device sdb]\nlatency = 2\n",
		  "t.scenario:2: latency = \"2\": want a time from 0s to 1s, like 2ms" },
		{ "[device a]\nmain = yes\n[device b]\nmain = yes\n",
		  "t.scenario:4: main = yes on a second device (a has it, line 2): one device is the main one" },
		{ "[device sdb]\n" MIN_WRITER, "t.scenario:1: [device sdb] has no bandwidth =" },
		{ "[scenario]\nname = x\n", "t.scenario: no [device NAME] section: 1 to 6 devices" },
		{ MIN_DEV, "t.scenario: no [writer NAME] section: 1 to 8 writers" },
		/* [writer] */
		{ "[writer W]\n", "t.scenario:1: [writer W]: want a name of a-z, 0-9, _ and -, at most 15 "
				  "characters, like iso" },
		{ MINIMAL "[writer w]\n", "t.scenario:7: [writer w] appears twice" },
		{ "[writer a]\n[writer b]\n[writer c]\n[writer d]\n[writer e]\n[writer f]\n[writer g]\n"
		  "[writer h]\n[writer i]\n", "t.scenario:9: more than 8 [writer] sections" },
		{ "[writer w]\nspeed = 1\n", "t.scenario:2: unknown key \"speed\" in [writer w] (kind, device, "
					     "size, file_size, rate, start, end, delete, period, background, role, file_cost, file_meta)" },
		{ "[writer w]\nkind = dd\n", "t.scenario:2: kind = \"dd\": want copy or fsync-loop" },
		{ "[writer w]\ndevice = /dev/sdb\n",
		  "t.scenario:2: device = \"/dev/sdb\": want the NAME of a [device NAME]" },
		{ "[writer w]\nsize = 0\n", "t.scenario:2: size = \"0\": want a size up to 1T, like 4G" },
		{ "[writer w]\nfile_size = 1000\n", "t.scenario:2: file_size = \"1000\": want a multiple of 4K "
						    "up to 1T (the simulator writes whole pages), like 16K" },
		{ "[writer w]\nrate = fast\n", "t.scenario:2: rate = \"fast\": want a speed from 10kB/s to "
					       "100GB/s, like 1000MB/s" },
		{ "[writer w]\nstart = 5\n", "t.scenario:2: start = \"5\": want a time from 0s to 720h, like 5s" },
		{ "[writer w]\nstart = 1.0000001s\n",
		  "t.scenario:2: start = \"1.0000001s\": want a time from 0s to 720h, like 5s" },
		{ "[writer w]\nstart = 721h\n", "t.scenario:2: start = \"721h\": want a time from 0s to 720h, "
						"like 5s" },
		{ "[writer w]\ndelete = 0s\n", "t.scenario:2: delete = \"0s\": want a time from 1us to 720h, "
					       "like 5s" },
		{ "[writer w]\nperiod = 100us\n", "t.scenario:2: period = \"100us\": want a time from 1ms to "
						  "720h, like 10ms" },
		{ "[writer w]\nend = close\n", "t.scenario:2: end = \"close\": want sync, fsync or none" },
		{ "[writer w]\nbackground = 1\n", "t.scenario:2: background = \"1\": want yes or no" },
		{ "[writer w]\nrole = boss\n", "t.scenario:2: role = \"boss\": want main, fast, main-fast or other" },
		{ MIN_DEV "[writer w]\nsize = 1G\nrole = main\n", "t.scenario:3: [writer w] has no device =" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nrole = main\n", "t.scenario:3: [writer w] has no size =" },
		{ MIN_DEV "[writer w]\ndevice = sdc\nsize = 1G\n",
		  "t.scenario:4: device = \"sdc\": no [device sdc] in the file" },
		{ MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 4K\nrate = 1MB/s\n",
		  "t.scenario:11: rate is a copy writer's key, not an fsync-loop's" },
		{ MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 4K\nend = sync\n",
		  "t.scenario:11: end is a copy writer's key, not an fsync-loop's" },
		{ MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 128M\n",
		  "t.scenario:10: size: an fsync-loop writes 1 byte to 64M per period" },
		{ MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 4K\nbackground = no\n",
		  "t.scenario:11: background = no: an fsync-loop never ends by itself; it runs while the "
		  "others do (yes)" },
		{ MINIMAL "[writer f]\nkind = fsync-loop\ndevice = sdb\nsize = 4K\nrole = fast\n",
		  "t.scenario:11: role = fast: a copy writer's role, not an fsync-loop's" },
		{ MINIMAL "[writer c]\ndevice = sdb\nsize = 1G\nperiod = 1s\n",
		  "t.scenario:10: period is an fsync-loop writer's key, not a copy's" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nsize = 100\nrole = main\n",
		  "t.scenario:5: size: a copy writes 4K to 1T" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nsize = 1M\nfile_size = 2M\nrole = main\n",
		  "t.scenario:6: file_size is larger than size" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nsize = 1T\nfile_size = 4K\nrole = main\n",
		  "t.scenario:6: file_size: 268435456 files; at most 1000000" },
		{ MINIMAL "[writer x]\ndevice = sdb\nsize = 1G\nrole = main-fast\n",
		  "t.scenario:10: role = main-fast: writer w is the main one already" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nsize = 1G\nrole = main\nbackground = yes\n",
		  "t.scenario:7: background = yes: the main writer runs in the foreground" },
		{ MIN_DEV "[writer w]\ndevice = sdb\nsize = 1G\n",
		  "t.scenario: no writer has role = main or main-fast: one is the main writer, whose times "
		  "are reported" },
		/* [sysctl] and [knob] */
		{ "[sysctl]\nvm.swappiness = 10\n",
		  "t.scenario:2: unknown sysctl \"vm.swappiness\" (vm.dirty_ratio, vm.dirty_background_ratio, "
		  "vm.dirty_bytes, vm.dirty_background_bytes, vm.dirty_expire_centisecs, "
		  "vm.dirty_writeback_centisecs; with kernel = 6.12+series also vm.dirty_ratio_max_bytes, "
		  "vm.dirty_file_writeout_bytes, vm.dirty_writethrough_bandwidth)" },
		{ "[sysctl]\nvm.dirty_ratio = 101\n",
		  "t.scenario:2: vm.dirty_ratio = \"101\": want a percentage from 0 to 100" },
		{ "[sysctl]\nvm.dirty_bytes = 48 MB\n",
		  "t.scenario:2: vm.dirty_bytes = \"48 MB\": want a size up to 1T, like 48M" },
		{ "[sysctl]\nvm.dirty_expire_centisecs = -1\n",
		  "t.scenario:2: vm.dirty_expire_centisecs = \"-1\": want a number" },
		{ "[knob]\nstrict_limit = 1\n",
		  "t.scenario:2: \"strict_limit\" is no knob: want DEVICE.ATTR, like sdb.max_bytes" },
		{ "[knob]\nsdb.read_ahead_kb = 1\n",
		  "t.scenario:2: unknown bdi attribute \"read_ahead_kb\" (strict_limit, max_bytes, min_bytes, "
		  "max_ratio, min_ratio, max_ratio_fine, min_ratio_fine; with kernel = 6.12+series also "
		  "max_time_ms)" },
		{ "[knob]\nsdb.strict_limit = 2\n", "t.scenario:2: sdb.strict_limit = \"2\": want 0 or 1" },
		{ "[knob]\nsdb.max_ratio_fine = 1000001\n",
		  "t.scenario:2: sdb.max_ratio_fine = \"1000001\": want parts per million from 0 to 1000000" },
		{ MINIMAL "[knob]\nsdc.max_bytes = 16M\n", "t.scenario:8: sdc.max_bytes: no [device sdc] in the file" },
	};
	struct scenario sc;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = 0;
		if (parse(cases[i].text, &sc) != -EINVAL)
			fail_msg("case %zu was accepted:\n%s", i, cases[i].text);
		if (strcmp(err, cases[i].msg))
			fail_msg("case %zu:\n got: %s\nwant: %s", i, err, cases[i].msg);
	}
	/* a name from the file's: when it is none, the file must give one */
	assert_int_equal(scenfile_parse("/mnt/My Stick.scenario", MINIMAL, &sc, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "/mnt/My Stick.scenario: no name = in [scenario], and the file's name is "
				 "not one (a-z, 0-9 and -, 1 to 31 characters)");
	assert_int_equal(scenfile_parse("/mnt/My Stick.scenario", "[scenario]\nname = stick\n" MINIMAL,
					&sc, err, sizeof(err)), 0);
	assert_string_equal(sc.name, "stick");
	/* 32 knobs at most */
	{
		char text[4096] = MINIMAL "[sysctl]\n";
		for (int i = 0; i <= SCEN_MAX_KNOBS; i++)
			strcat(text, "vm.dirty_ratio = 20\n");
		assert_int_equal(parse(text, &sc), -EINVAL);
		assert_string_equal(err, "t.scenario:40: more than 32 knobs");
	}
}

static void test_cli_knobs(void **state)
{
	struct scenario sc;
	char e[256];

	(void)state;
	assert_int_equal(scenfile_builtin("usb-iso", &sc), 0);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_bytes=48M", e, sizeof(e)), 0);
	assert_int_equal(scenfile_add_knob(&sc, "sda.max_ratio = 5", e, sizeof(e)), 0);
	assert_int_equal(sc.nknob, 2);
	assert_false(sc.knob[0].bdi);
	assert_int_equal(sc.knob[0].attr, VM_DIRTY_BYTES);
	assert_int_equal(sc.knob[0].value, 48 * MIB);
	assert_true(sc.knob[1].bdi);
	assert_int_equal(sc.knob[1].dev, 1);
	assert_int_equal(sc.knob[1].attr, BDI_MAX_RATIO);
	assert_int_equal(sc.knob[1].value, 5);
	scenfile_knob_text(&sc, &sc.knob[1], e, sizeof(e));
	assert_string_equal(e, "sda.max_ratio = 5");
	scenfile_knob_text(&sc, &sc.knob[0], e, sizeof(e));
	assert_string_equal(e, "vm.dirty_bytes = 48M");
	assert_int_equal(scenfile_add_knob(&sc, "sdx.max_bytes=16M", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "sdx.max_bytes=16M: no device sdx in usb-iso (sdb, sda)");
	assert_int_equal(scenfile_add_knob(&sc, "sdb.colour=1", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "sdb.colour=1: unknown bdi attribute \"colour\" (strict_limit, max_bytes, "
			       "min_bytes, max_ratio, min_ratio, max_ratio_fine, min_ratio_fine; with "
			       "kernel = 6.12+series also max_time_ms)");
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_ratio", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "vm.dirty_ratio: want vm.KEY=VALUE");
	assert_int_equal(scenfile_add_sysctl(&sc, "dirty_ratio=5", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "unknown sysctl \"dirty_ratio\""));
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_ratio=x", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "vm.dirty_ratio=x: want a percentage from 0 to 100");
	assert_int_equal(sc.nknob, 2); /* nothing added by the bad ones */
	while (sc.nknob < SCEN_MAX_KNOBS)
		assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_ratio=20", e, sizeof(e)), 0);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_ratio=20", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "vm.dirty_ratio=20: more than 32 knobs");
}

/* --param on top of a file: speed the main device's last stretch, size
 * the main writer's, memory as the file has it unless given. */
static void test_params_on_a_file(void **state)
{
	struct sim_params p = { 0 };
	struct scenario sc;
	char e[256];

	(void)state;
	assert_int_equal(sim_param_set(&p, "speed=4MB/s"), 0);
	assert_int_equal(sim_param_set(&p, "size=3G"), 0);
	assert_int_equal(scenfile_build("slc-cliff", &p, &sc), 0);
	assert_int_equal(sc.dev[0].bw[0].bps, 60 * MB); /* the cache stays */
	assert_int_equal(sc.dev[0].bw[1].bps, 4 * MB);
	assert_int_equal(sc.dev[1].bw[0].bps, 500 * MB);
	assert_int_equal(sc.task[0].file_bytes, 3 * GIB);
	/* a file's main device need not be the first, nor its main writer */
	assert_int_equal(parse("[device a]\nbandwidth = 1GB/s\n[device b]\nbandwidth = 5MB/s\nmain = yes\n"
			       "[writer x]\ndevice = a\nsize = 1G\n"
			       "[writer y]\ndevice = b\nsize = 100M\nfile_size = 1M\nrole = main\n", &sc), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(sim_param_set(&p, "speed=2MB/s"), 0);
	assert_int_equal(sim_param_set(&p, "size=10M"), 0);
	assert_int_equal(scenario_apply(&sc, &p, e, sizeof(e)), 0);
	assert_int_equal(sc.dev[0].bw[0].bps, 1000 * MB);
	assert_int_equal(sc.dev[1].bw[0].bps, 2 * MB);
	assert_int_equal(sc.task[0].file_bytes, GIB);
	assert_int_equal(sc.task[1].files, 10);
	assert_int_equal(sc.task[1].file_bytes, MIB);
	/* the file's used stays under --param mem; --param used wins */
	assert_int_equal(parse("[machine]\nmem = 8G\nused = 3G\n" MINIMAL, &sc), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(sim_param_set(&p, "mem=4G"), 0);
	assert_int_equal(scenario_apply(&sc, &p, e, sizeof(e)), 0);
	assert_int_equal(sc.kernel.mem_bytes, 4 * GIB);
	assert_int_equal(sc.kernel.anon_bytes, 3 * GIB);
	assert_int_equal(sc.kernel.kernel_bytes, 96 * MIB);
	assert_int_equal(sim_param_set(&p, "mem=3G"), 0);
	assert_int_equal(scenario_apply(&sc, &p, e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "used=3072 MiB + kernel=96 MiB of memory in use do not fit in mem=3072 MiB: "
			       "make used or kernel smaller, or mem larger");
	/* too many files: refused, not a memory blow-up */
	memset(&p, 0, sizeof(p));
	assert_int_equal(sim_param_set(&p, "size=1T"), 0);
	assert_int_equal(scenfile_build("usb-git-clone", &p, &sc), -EINVAL);
	assert_int_equal(scenfile_builtin("usb-git-clone", &sc), 0);
	assert_int_equal(scenario_apply(&sc, &p, e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "size=1048576 MiB: writer clone would write 67108864 files of 16 KiB; "
			       "at most 1000000");
}

#define SMALL_6(kver, knob)                                                         \
	"[machine]\nkernel = " kver "\n"                                             \
	"[device sdb]\nbus = usb\nbandwidth = 40MB/s\n"                              \
	"[writer w]\ndevice = sdb\nsize = 8M\nrole = main\n"                          \
	"[knob]\n" knob "\n"

/* A knob the kernel has not: the run fails, naming it. */
static void test_kver_refusal(void **state)
{
	struct lab_params lp;
	struct run_result r;
	struct scenario sc;

	(void)state;
	lab_params_init(&lp);
	assert_int_equal(parse(SMALL_6("6.1", "sdb.strict_limit = 1"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -ENOENT);
	assert_ptr_equal(r.refused, &sc.knob[0]);
	assert_int_equal(parse(SMALL_6("6.1", "sdb.max_ratio_fine = 5000"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -ENOENT);
	assert_int_equal(parse(SMALL_6("6.1", "sdb.max_bytes = 16M"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -ENOENT);
	assert_int_equal(parse(SMALL_6("6.1", "sdb.min_bytes = 1M"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -ENOENT);
	/* 6.1 has max_ratio */
	assert_int_equal(parse(SMALL_6("6.1", "sdb.max_ratio = 1"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), 0);
	assert_null(r.refused);
	run_result_free(&r);
	/* 6.2 and later have them all */
	assert_int_equal(parse(SMALL_6("6.12", "sdb.strict_limit = 1"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), 0);
	run_result_free(&r);
	/* the udev rule's writes fail on 6.1 and it does nothing: linux-64 */
	assert_int_equal(parse(SMALL_6("6.1", "sdb.max_ratio = 100"), &sc), 0);
	{
		struct run_result a, b;
		assert_int_equal(lab_run_scenario(&sc, "udev-16m", &lp, false, &a), 0);
		assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &b), 0);
		assert_memory_equal(a.val, b.val, sizeof(a.val));
		run_result_free(&a);
		run_result_free(&b);
	}
	/* a value the kernel refuses: max_bytes above the global threshold */
	assert_int_equal(parse(SMALL_6("6.18", "sdb.max_bytes = 1T"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -EINVAL);
	assert_ptr_equal(r.refused, &sc.knob[0]);
	/* the series' knobs: only its kernel has them, and they round-trip */
	assert_int_equal(parse(SMALL_6("6.12", "sdb.max_time_ms = 1000"), &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -ENOENT);
	assert_ptr_equal(r.refused, &sc.knob[0]);
	assert_int_equal(parse(SMALL_6("6.12+series", "sdb.max_time_ms = 1000"), &sc), 0);
	assert_true(sc.kernel.series && sc.kernel.kver == KVER_6_12);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_file_writeout_bytes=16M", err, sizeof(err)), 0);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_ratio_max_bytes=1G", err, sizeof(err)), 0);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_writethrough_bandwidth=32000000", err,
					     sizeof(err)), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), 0);
	run_result_free(&r);
	{
		char *t = text_of(&sc), *t2;
		struct scenario again;
		assert_non_null(strstr(t, "kernel = 6.12+series\n"));
		assert_non_null(strstr(t, "vm.dirty_file_writeout_bytes = 16M\n"));
		assert_non_null(strstr(t, "vm.dirty_ratio_max_bytes = 1G\n"));
		assert_non_null(strstr(t, "vm.dirty_writethrough_bandwidth = 32000000\n"));
		assert_non_null(strstr(t, "sdb.max_time_ms = 1000\n"));
		assert_int_equal(parse(t, &again), 0);
		t2 = text_of(&again);
		assert_string_equal(t2, t);
		free(t2);
		free(t);
	}
	assert_int_equal(parse(SMALL_6("6.12+series", "sdb.max_time_ms = 60001"), &sc), -EINVAL);
	if (!strstr(err, "want milliseconds from 0 to 60000"))
		fail_msg("%s", err);
	assert_int_equal(scenfile_add_sysctl(&sc, "vm.dirty_file_writeout_bytes=512K", err, sizeof(err)), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &r), -EINVAL);
	/* a device's idle time before the start */
	assert_int_equal(parse("[device sdb]\nbandwidth = 5MB/s\nidle = 30s\n" MIN_WRITER, &sc), 0);
	assert_int_equal(sc.dev[0].idle_usec, 30000000);
	{
		char *t = text_of(&sc);
		assert_non_null(strstr(t, "idle = 30s\n"));
		free(t);
	}
	assert_int_equal(parse("[device sdb]\nbandwidth = 5MB/s\nidle = 25h\n" MIN_WRITER, &sc), -EINVAL);
	assert_string_equal(err, "t.scenario:3: idle = \"25h\": want a time from 0s to 24h, like 30s");
}

/* The file's sysctls come after the policy's: the ratios written back
 * make "bytes" the stock kernel again. */
static void test_knobs_after_policy(void **state)
{
	static const char base[] = "[device sdb]\nbandwidth = 20MB/s\n"
				   "[writer w]\ndevice = sdb\nsize = 200M\nrole = main\n";
	char text[512];
	struct lab_params lp;
	struct run_result stock, bytes, undone;
	struct scenario sc;

	(void)state;
	lab_params_init(&lp);
	assert_int_equal(parse(base, &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "linux-64", &lp, false, &stock), 0);
	assert_int_equal(lab_run_scenario(&sc, "bytes", &lp, false, &bytes), 0);
	snprintf(text, sizeof(text), "%s[sysctl]\nvm.dirty_background_ratio = 10\nvm.dirty_ratio = 20\n",
		 base);
	assert_int_equal(parse(text, &sc), 0);
	assert_int_equal(lab_run_scenario(&sc, "bytes", &lp, false, &undone), 0);
	assert_true(bytes.val[COL_PEAK_DIRTY] < stock.val[COL_PEAK_DIRTY] / 2);
	assert_memory_equal(undone.val, stock.val, sizeof(stock.val));
	run_result_free(&stock);
	run_result_free(&bytes);
	run_result_free(&undone);
}

static void test_load(void **state)
{
	char dir[] = "/tmp/wbgov-test-scenfile-XXXXXX", path[PATH_MAX], want[PATH_MAX + 64];
	struct scenario sc;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/no such.scenario", dir);
	assert_int_equal(scenfile_load(path, &sc, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_string_equal(err, want);
	assert_int_equal(scenfile_load(dir, &sc, err, sizeof(err)), -EISDIR);
	snprintf(path, sizeof(path), "%s/usb stick.scenario", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[scenario]\nname = stick\n" MINIMAL, f);
	fclose(f);
	assert_int_equal(scenfile_load(path, &sc, err, sizeof(err)), 0);
	assert_string_equal(sc.name, "stick");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(MINIMAL "[machine]\nhz = 7\n", f);
	fclose(f);
	assert_int_equal(scenfile_load(path, &sc, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:8: hz = \"7\": want 100, 250, 300 or 1000", path);
	assert_string_equal(err, want);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(MINIMAL, f);
	fputc(0, f);
	fclose(f);
	assert_int_equal(scenfile_load(path, &sc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a NUL byte: not a text file"));
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i <= INI_TEXT_MAX / 8; i++)
		fputs("# ......\n", f);
	fclose(f);
	assert_int_equal(scenfile_load(path, &sc, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "larger than 64 KiB"));
	unlink(path);
	rmdir(dir);
	assert_true(scenfile_is_path("a/b"));
	assert_true(scenfile_is_path("usb-iso.scenario"));
	assert_false(scenfile_is_path("usb-iso"));
	assert_false(scenfile_is_path(".scenario"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cli_knobs),
		cmocka_unit_test(test_params_on_a_file),
		cmocka_unit_test(test_kver_refusal),
		cmocka_unit_test(test_knobs_after_policy),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
