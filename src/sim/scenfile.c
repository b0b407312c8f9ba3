/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ini.h"
#include "model/parse.h"
#include "sim/proposals.h"
#include "sim/scenfile.h"

#define MB 1000000ULL
#define TIB (1024 * GIB)
#define USEC_PER_H (3600ULL * 1000000ULL)
/* speeds, for a device and a writer's source alike: as --param speed */
#define SPEED_MIN 10000ULL
#define SPEED_MAX (100000 * MB)
#define TIME_MAX (720 * USEC_PER_H) /* as --param limit's largest */

enum section { S_NONE, S_SCENARIO, S_MACHINE, S_DEVICE, S_WRITER, S_SYSCTL, S_KNOB };

static const char *const scenario_keys[] = { "name", "summary", "policies", NULL };
enum { M_MEM, M_USED, M_KERNEL_MEM, M_RESERVE, M_LOWMEM, M_CPUS, M_HZ, M_BITS, M_KERNEL };
static const char *const machine_keys[] = {
	"mem", "used", "kernel_mem", "reserve", "lowmem", "cpus", "hz", "bits", "kernel", NULL,
};
enum { D_MODEL, D_SERIAL, D_BUS, D_REMOVABLE, D_ROTATIONAL, D_KNOWN, D_BANDWIDTH, D_QUEUE, D_BIO,
       D_LATENCY, D_IDLE, D_MAIN, D_IO_END, D_THROTTLE, D_FS, D_INFLIGHT_FILES, D_SHARE };
static const char *const device_keys[] = {
	"model", "serial", "bus", "removable", "rotational", "known", "bandwidth", "queue", "bio",
	"latency", "idle", "main", "io_end", "throttle", "fs", "inflight_files", "share", NULL,
};
enum { W_KIND, W_DEVICE, W_SIZE, W_FILE_SIZE, W_RATE, W_START, W_END, W_DELETE, W_PERIOD,
       W_BACKGROUND, W_ROLE, W_FILE_COST, W_FILE_META, W_NKEYS };
static const char *const writer_keys[] = {
	"kind", "device", "size", "file_size", "rate", "start", "end", "delete", "period",
	"background", "role", "file_cost", "file_meta", NULL,
};
static const char *const bus_names[] = { "usb", "sata", "nvme", "virtual" };
static const char *const fs_names[] = { "ext4", "vfat" };
static const char *const share_names[] = { "none", "nfs", "cifs", "fuse" };
static const char *const end_names[] = { "none", "sync", "fsync" };
static const char *const role_names[] = { "main", "fast", "main-fast", "other" };
static const char *const kver_names[] = { "6.18", "6.12", "6.1" };
/* Kernels after 6.18 whose arithmetic the model takes as 6.18's but whose
 * balance_dirty_pages() starts writeback otherwise (enum bdp_start), in
 * the order of sim_kernel_cfg.later - 1 */
static const char *const later_names[] = { "7.0-rc1", "7.0", "7.1" };
static const enum bdp_start later_start[] = { BDP_START_GLOBAL, BDP_START_BOTH, BDP_START_WB };
/* 6.12 with kernel/'s patch series: its knobs exist */
#define SERIES_KERNEL "6.12+series"

/* A writer as the file gives it, made a sim_task_cfg once its section and
 * every device are known. */
struct writer {
	int line;                  /* its [writer] header's */
	unsigned seen;             /* bit per key given */
	int key_line[W_NKEYS];
	char dev[16];
	bool fsync_loop;
	uint64_t size, file_size, rate, start, delete, period, file_cost, file_meta;
	enum sim_task_end end;
	bool background;
	enum task_role role;
};

struct ctx {
	struct ini_text in;        /* the file, its line, the first error */
	struct scenario *sc;
	enum section sect;
	int idx;                   /* the device's or writer's index */
	unsigned seen;             /* bit per key of this [scenario], [machine], [device] */
	bool had_scenario, had_machine, name_set;
	int main_line;             /* the device main = yes's, 0 if none */
	int dev_line[SIM_MAX_DEV];
	unsigned dev_seen[SIM_MAX_DEV]; /* each device's keys, as `seen` */
	int used_line;             /* [machine] used's or kernel_mem's, for the fit check */
	struct writer w[SIM_MAX_TASK];
	char knob_dev[SCEN_MAX_KNOBS][16];
	int knob_line[SCEN_MAX_KNOBS];
};

/* Keep the first error, as "FILE:LINE: what"; returns 0 for inih. */
#define fail(x, ...) ini_fail(&(x)->in, __VA_ARGS__)

static int fail_at(struct ctx *x, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* fail() at another line than the reader's (0: the file) */
static int fail_at(struct ctx *x, int line, const char *fmt, ...)
{
	char what[320];
	int keep = x->in.line;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	x->in.line = line;
	fail(x, "%s", what);
	x->in.line = keep;
	return 0;
}

static int key_index(const char *const *keys, const char *key)
{
	for (int i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return i;
	return -1;
}

static void key_list(const char *const *keys, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; keys[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", keys[i]);
}

static int word_index(const char *const *words, int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(words[i], v))
			return i;
	return -1;
}

/* ------------------------------------------------------------- values */

static bool name_ok(const char *s, size_t max, const char *extra)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      (extra && strchr(extra, *s))))
			return false;
	return true;
}

/* Text a file can hold on a line of its own: no control characters, and
 * no ';' first (written back after "key = ", it would start a comment). */
static bool text_ok(const char *s, size_t max)
{
	if (strlen(s) > max || *s == ';')
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static int parse_bool(const char *v, bool *ret)
{
	if (!strcmp(v, "yes"))
		*ret = true;
	else if (!strcmp(v, "no"))
		*ret = false;
	else
		return -EINVAL;
	return 0;
}

/* A plain decimal integer up to `max`. */
static int parse_uint(const char *v, uint64_t max, uint64_t *ret)
{
	uint64_t n = 0;

	if (!*v)
		return -EINVAL;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		n = n * 10 + (uint64_t)(*v - '0');
	}
	if (n > max)
		return -EINVAL;
	*ret = n;
	return 0;
}

/* "10ms", "1.5s", "2min", "1h", "250us": microseconds, exactly. */
static int parse_time(const char *v, uint64_t *ret)
{
	static const struct { const char *unit; uint64_t usec; } units[] = {
		{ "us", 1 }, { "ms", 1000 }, { "s", 1000000 }, { "min", 60000000 },
		{ "h", USEC_PER_H },
	};
	uint64_t whole = 0, frac = 0, scale = 1;
	int nd = 0;

	while (*v >= '0' && *v <= '9' && nd < 9) {
		whole = whole * 10 + (uint64_t)(*v++ - '0');
		nd++;
	}
	if (!nd)
		return -EINVAL;
	if (*v == '.') {
		int nf = 0;
		v++;
		while (*v >= '0' && *v <= '9' && nf < 6) {
			frac = frac * 10 + (uint64_t)(*v++ - '0');
			scale *= 10;
			nf++;
		}
		if (!nf)
			return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(v, units[i].unit))
			continue;
		if (frac * units[i].usec % scale) /* finer than a microsecond */
			return -EINVAL;
		*ret = whole * units[i].usec + frac * units[i].usec / scale;
		return 0;
	}
	return -EINVAL;
}

static int parse_speed_range(const char *v, uint64_t *ret)
{
	uint64_t b;

	if (parse_speed(v, &b) || b < SPEED_MIN || b > SPEED_MAX)
		return -EINVAL;
	*ret = b;
	return 0;
}

static int parse_size_range(const char *v, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t b;

	if (parse_size(v, &b) || b < min || b > max)
		return -EINVAL;
	*ret = b;
	return 0;
}

static void fmt_size(uint64_t v, char *buf, size_t len)
{
	static const struct { char suffix; uint64_t unit; } u[] = {
		{ 'T', TIB }, { 'G', GIB }, { 'M', MIB }, { 'K', KIB },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (v && v % u[i].unit == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / u[i].unit), u[i].suffix);
			return;
		}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void fmt_speed(uint64_t v, char *buf, size_t len)
{
	if (v % (1000 * MB) == 0)
		snprintf(buf, len, "%lluGB/s", (unsigned long long)(v / (1000 * MB)));
	else if (v % MB == 0)
		snprintf(buf, len, "%lluMB/s", (unsigned long long)(v / MB));
	else if (v % 1000 == 0)
		snprintf(buf, len, "%llukB/s", (unsigned long long)(v / 1000));
	else
		snprintf(buf, len, "%lluB/s", (unsigned long long)v);
}

static void fmt_time(uint64_t v, char *buf, size_t len)
{
	static const struct { const char *unit; uint64_t usec; } u[] = {
		{ "h", USEC_PER_H }, { "min", 60000000 }, { "s", 1000000 }, { "ms", 1000 },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (v && v % u[i].usec == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(v / u[i].usec), u[i].unit);
			return;
		}
	snprintf(buf, len, v ? "%lluus" : "%llus", (unsigned long long)v);
}

/* "60MB/s for 1G, 8MB/s for 30s, 5MB/s": stretches, the last plain */
static int parse_bandwidth(const char *v, struct sim_dev_cfg *d, char *why, size_t len)
{
	char buf[INI_LINE_MAX + 1], *save = NULL, *part;
	bool plain = false;
	int n = 0;

	snprintf(why, len, "SPEED, or stretches SPEED for SIZE or SPEED for TIME, "
			   "comma-separated, the last a plain SPEED, like 60MB/s for 1G, 8MB/s");
	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, strlen(v) + 1);
	for (part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		struct sim_bw_seg *s = &d->bw[n];
		char *end, *forw = NULL;

		if (plain) /* a plain SPEED that was not the last */
			return -EINVAL;
		if (n == SIM_MAX_BW_SEG) {
			snprintf(why, len, "at most %d stretches", SIM_MAX_BW_SEG);
			return -EINVAL;
		}
		while (*part == ' ')
			part++;
		end = part + strlen(part);
		while (end > part && end[-1] == ' ')
			*--end = 0;
		end = strchr(part, ' ');
		if (end) {
			*end++ = 0;
			if (strncmp(end, "for ", 4))
				return -EINVAL;
			forw = end + 4;
		}
		if (parse_speed_range(part, &s->bps)) {
			snprintf(why, len, "speeds from 10kB/s to 100GB/s, like 5MB/s");
			return -EINVAL;
		}
		n++;
		plain = !forw;
		if (plain)
			continue;
		if (!parse_time(forw, &s->for_usec)) {
			if (s->for_usec < 1000 || s->for_usec > TIME_MAX) {
				snprintf(why, len, "a stretch's time from 1ms to 720h");
				return -EINVAL;
			}
		} else if (parse_size_range(forw, PAGE_SIZE, TIB, &s->for_bytes)) {
			snprintf(why, len, "a stretch's size from 4K to 1T, or its time from 1ms to "
					   "720h, like 1G or 30s");
			return -EINVAL;
		}
	}
	if (!plain) /* empty, or the last lasts for ever: no "for" */
		return -EINVAL;
	d->nbw = n;
	return 0;
}

static void fmt_bandwidth(const struct sim_dev_cfg *d, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < d->nbw && n < len; i++) {
		char sp[32], fo[32] = "";
		fmt_speed(d->bw[i].bps, sp, sizeof(sp));
		if (d->bw[i].for_bytes)
			fmt_size(d->bw[i].for_bytes, fo, sizeof(fo));
		else if (d->bw[i].for_usec)
			fmt_time(d->bw[i].for_usec, fo, sizeof(fo));
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s", i ? ", " : "", sp,
				      fo[0] ? " for " : "", fo);
	}
}

/* ------------------------------------------------------------- knobs */

static bool attr_is_bytes(bool bdi, int attr)
{
	if (bdi)
		return attr == BDI_MAX_BYTES || attr == BDI_MIN_BYTES;
	return attr == VM_DIRTY_BYTES || attr == VM_DIRTY_BACKGROUND_BYTES ||
	       attr == SIM_VM_DIRTY_RATIO_MAX_BYTES || attr == SIM_VM_DIRTY_FILE_WRITEOUT_BYTES;
}

static int find_dev(const struct scenario *sc, const char *name)
{
	for (int d = 0; d < sc->ndev; d++)
		if (!strcmp(sc->dev[d].name, name))
			return d;
	return -1;
}

/* One knob's value: a size for the *_bytes, else a plain number in the
 * range the kernel's file takes (it checks the rest when written). */
static int knob_value(bool bdi, int attr, const char *v, uint64_t *ret, char *why, size_t len)
{
	uint64_t max = UINT32_MAX;
	const char *unit = "a number";

	if (attr_is_bytes(bdi, attr)) {
		snprintf(why, len, "a size up to 1T, like 48M");
		return parse_size_range(v, 0, TIB, ret);
	}
	if (bdi && attr == BDI_STRICT_LIMIT)
		max = 1, unit = "0 or 1";
	else if (bdi && attr == SIM_BDI_MAX_TIME_MS)
		max = 60000, unit = "milliseconds from 0 to 60000";
	else if (!bdi && attr == SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH)
		max = UINT64_MAX, unit = "bytes per second";
	else if ((bdi && (attr == BDI_MAX_RATIO || attr == BDI_MIN_RATIO)) ||
		 (!bdi && (attr == VM_DIRTY_RATIO || attr == VM_DIRTY_BACKGROUND_RATIO)))
		max = 100, unit = "a percentage from 0 to 100";
	else if (bdi)
		max = 1000000, unit = "parts per million from 0 to 1000000";
	snprintf(why, len, "%s", unit);
	return parse_uint(v, max, ret);
}

/* Parse "KEY" = "VALUE" of [sysctl] (bdi false) or [knob] into a new
 * knob; `devname` gets a [knob]'s device, resolved by the caller. 0;
 * -ENOENT (an unknown knob, named in `why`); -EINVAL (a bad value: `why`
 * says what is wanted); -E2BIG (too many knobs). */
static int knob_parse(struct scenario *sc, bool bdi, const char *key, const char *val,
		      char *devname, size_t devlen, char *why, size_t len)
{
	const char *attr_name = key;
	struct scen_knob *k;
	char want[96];
	int attr = -1, n;

	if (sc->nknob == SCEN_MAX_KNOBS) {
		snprintf(why, len, "more than %d knobs", SCEN_MAX_KNOBS);
		return -E2BIG;
	}
	if (!bdi) {
		if (strncmp(key, "vm.", 3) ||
		    (attr = word_index(sim_vm_names, SIM_VM_COUNT, key + 3)) < 0) {
			snprintf(why, len, "unknown sysctl \"%s\" (vm.dirty_ratio, "
				 "vm.dirty_background_ratio, vm.dirty_bytes, vm.dirty_background_bytes, "
				 "vm.dirty_expire_centisecs, vm.dirty_writeback_centisecs; with "
				 "kernel = " SERIES_KERNEL " also vm.dirty_ratio_max_bytes, "
				 "vm.dirty_file_writeout_bytes, vm.dirty_writethrough_bandwidth)", key);
			return -ENOENT;
		}
	} else {
		const char *dot = strchr(key, '.');
		if (!dot || dot == key || (size_t)(dot - key) >= devlen) {
			snprintf(why, len, "\"%s\" is no knob: want DEVICE.ATTR, like sdb.max_bytes",
				 key);
			return -ENOENT;
		}
		n = (int)(dot - key);
		snprintf(devname, devlen, "%.*s", n, key);
		attr_name = dot + 1;
		if ((attr = word_index(sim_bdi_names, SIM_BDI_COUNT, attr_name)) < 0) {
			snprintf(why, len, "unknown bdi attribute \"%s\" (strict_limit, max_bytes, "
				 "min_bytes, max_ratio, min_ratio, max_ratio_fine, min_ratio_fine; "
				 "with kernel = " SERIES_KERNEL " also max_time_ms)",
				 attr_name);
			return -ENOENT;
		}
	}
	k = &sc->knob[sc->nknob];
	if (knob_value(bdi, attr, val, &k->value, want, sizeof(want))) {
		snprintf(why, len, "want %s", want);
		memset(k, 0, sizeof(*k));
		return -EINVAL;
	}
	k->bdi = bdi;
	k->attr = attr;
	k->dev = 0;
	sc->nknob++;
	return 0;
}

void scenfile_knob_text(const struct scenario *sc, const struct scen_knob *k, char *buf,
			size_t len)
{
	char v[32];

	if (attr_is_bytes(k->bdi, k->attr))
		fmt_size(k->value, v, sizeof(v));
	else
		snprintf(v, sizeof(v), "%llu", (unsigned long long)k->value);
	if (k->bdi)
		snprintf(buf, len, "%s.%s = %s", sc->dev[k->dev].name, sim_bdi_names[k->attr], v);
	else
		snprintf(buf, len, "vm.%s = %s", sim_vm_names[k->attr], v);
}

/* "KEY=VALUE" from the command line, blanks around '=' allowed */
static int add_cli(struct scenario *sc, bool bdi, const char *kv, char *err, size_t len)
{
	char key[64], dev[16], why[320];
	const char *eq = strchr(kv, '='), *val;
	size_t kl;

	if (!eq) {
		snprintf(err, len, "%s: want %s=VALUE", kv, bdi ? "DEVICE.ATTR" : "vm.KEY");
		return -EINVAL;
	}
	kl = (size_t)(eq - kv);
	while (kl && (kv[kl - 1] == ' ' || kv[kl - 1] == '\t'))
		kl--;
	if (kl >= sizeof(key)) {
		snprintf(err, len, "%s: unknown %s", kv, bdi ? "knob" : "sysctl");
		return -EINVAL;
	}
	memcpy(key, kv, kl);
	key[kl] = 0;
	val = eq + 1;
	while (*val == ' ' || *val == '\t')
		val++;
	if (knob_parse(sc, bdi, key, val, dev, sizeof(dev), why, sizeof(why))) {
		snprintf(err, len, "%s: %s", kv, why);
		return -EINVAL;
	}
	if (bdi) {
		int d = find_dev(sc, dev);
		if (d < 0) {
			char names[128];
			size_t n = 0;
			names[0] = 0;
			for (int i = 0; i < sc->ndev && n < sizeof(names); i++)
				n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
						      sc->dev[i].name);
			sc->nknob--;
			memset(&sc->knob[sc->nknob], 0, sizeof(sc->knob[0]));
			snprintf(err, len, "%s: no device %s in %s (%s)", kv, dev, sc->name, names);
			return -EINVAL;
		}
		sc->knob[sc->nknob - 1].dev = d;
	}
	return 0;
}

int scenfile_add_sysctl(struct scenario *sc, const char *kv, char *err, size_t len)
{
	return add_cli(sc, false, kv, err, len);
}

int scenfile_add_knob(struct scenario *sc, const char *kv, char *err, size_t len)
{
	return add_cli(sc, true, kv, err, len);
}

/* ------------------------------------------------------------ sections */

static void section_header(struct ctx *x, const char *s)
{
	struct scenario *sc = x->sc;
	const char *arg = strchr(s, ' ');
	size_t n = arg ? (size_t)(arg - s) : strlen(s);

	x->seen = 0;
	x->idx = -1;
	if (!arg && !strcmp(s, "scenario")) {
		if (x->had_scenario)
			fail(x, "[scenario] appears twice");
		x->had_scenario = true;
		x->sect = S_SCENARIO;
	} else if (!arg && !strcmp(s, "machine")) {
		if (x->had_machine)
			fail(x, "[machine] appears twice");
		x->had_machine = true;
		x->sect = S_MACHINE;
	} else if (!arg && !strcmp(s, "sysctl")) {
		x->sect = S_SYSCTL;
	} else if (!arg && !strcmp(s, "knob")) {
		x->sect = S_KNOB;
	} else if (arg && n == 6 && !strncmp(s, "device", 6)) {
		x->sect = S_DEVICE;
		arg++;
		if (!name_ok(arg, sizeof(sc->dev[0].name) - 1, "_-")) {
			fail(x, "[device %s]: want a name as in /dev/NAME: a-z, 0-9, _ and -, at most "
				"%zu characters, like sdb", arg, sizeof(sc->dev[0].name) - 1);
			return;
		}
		if (find_dev(sc, arg) >= 0) {
			fail(x, "[device %s] appears twice", arg);
			return;
		}
		if (sc->ndev == SIM_MAX_DEV) {
			fail(x, "more than %d [device] sections", SIM_MAX_DEV);
			return;
		}
		x->idx = sc->ndev++;
		x->dev_line[x->idx] = x->in.line;
		snprintf(sc->dev[x->idx].name, sizeof(sc->dev[0].name), "%s", arg);
		sc->dev[x->idx].bus = BUS_VIRTUAL;
		sc->dev[x->idx].queue_bytes = 16 * MIB;
	} else if (arg && n == 6 && !strncmp(s, "writer", 6)) {
		struct writer *w;
		x->sect = S_WRITER;
		arg++;
		if (!name_ok(arg, SCEN_WRITER_NAME_MAX - 1, "_-")) {
			fail(x, "[writer %s]: want a name of a-z, 0-9, _ and -, at most %d characters, "
				"like iso", arg, SCEN_WRITER_NAME_MAX - 1);
			return;
		}
		for (int i = 0; i < sc->ntask; i++)
			if (!strcmp(sc->task_name[i], arg)) {
				fail(x, "[writer %s] appears twice", arg);
				return;
			}
		if (sc->ntask == SIM_MAX_TASK) {
			fail(x, "more than %d [writer] sections", SIM_MAX_TASK);
			return;
		}
		x->idx = sc->ntask++;
		snprintf(sc->task_name[x->idx], SCEN_WRITER_NAME_MAX, "%s", arg);
		w = &x->w[x->idx];
		w->line = x->in.line;
		w->rate = 1000 * MB;
		w->period = 10000;
		w->end = END_SYNC;
		w->role = ROLE_OTHER;
	} else {
		x->sect = S_NONE;
		fail(x, "unknown section [%s] (scenario, machine, device NAME, writer NAME, sysctl, "
			"knob)", s);
	}
}

/* A key given twice in a section: an error, not "the last wins". */
static bool twice(struct ctx *x, unsigned *seen, int k, const char *key)
{
	if (*seen & (1u << k)) {
		fail(x, "\"%s\" is set twice", key);
		return true;
	}
	*seen |= 1u << k;
	return false;
}

static int unknown_key(struct ctx *x, const char *key, const char *section,
		       const char *const *keys)
{
	char list[256];

	key_list(keys, list, sizeof(list));
	return fail(x, "unknown key \"%s\" in [%s] (%s)", key, section, list);
}

static int scenario_key(struct ctx *x, const char *key, const char *v)
{
	struct scenario *sc = x->sc;
	int k = key_index(scenario_keys, key);

	if (k < 0)
		return unknown_key(x, key, "scenario", scenario_keys);
	if (twice(x, &x->seen, k, key))
		return 0;
	if (k == 0) {
		if (!name_ok(v, SCEN_NAME_MAX - 1, "-"))
			return fail(x, "name = \"%s\": want a-z, 0-9 and -, 1 to %d characters, "
				       "like usb-iso", v, SCEN_NAME_MAX - 1);
		snprintf(sc->name, sizeof(sc->name), "%s", v);
		x->name_set = true;
	} else if (k == 1) {
		if (!text_ok(v, SCEN_SUMMARY_MAX - 1))
			return fail(x, "summary = \"%s\": want one line of at most %d characters, "
				       "not starting with ;", v, SCEN_SUMMARY_MAX - 1);
		snprintf(sc->summary, sizeof(sc->summary), "%s", v);
	} else {
		char buf[INI_LINE_MAX + 1], *save = NULL;
		if (strlen(v) >= sizeof(buf) || !*v)
			return fail(x, "policies = \"%s\": want policy names, space-separated", v);
		memcpy(buf, v, strlen(v) + 1);
		for (char *p = strtok_r(buf, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
			const struct proposal *pr = proposal_find(p);
			if (!pr)
				return fail(x, "policies: unknown policy \"%s\" (see wbsim list)", p);
			for (int i = 0; i < sc->npolicy; i++)
				if (sc->policy[i] == pr->name)
					return fail(x, "policies: \"%s\" is named twice", p);
			if (sc->npolicy == SCEN_MAX_POLICIES)
				return fail(x, "policies: more than %d", SCEN_MAX_POLICIES);
			sc->policy[sc->npolicy++] = pr->name;
		}
	}
	return 1;
}

static int machine_key(struct ctx *x, const char *key, const char *v)
{
	struct sim_kernel_cfg *kc = &x->sc->kernel;
	int k = key_index(machine_keys, key);
	uint64_t n;

	if (k < 0)
		return unknown_key(x, key, "machine", machine_keys);
	if (twice(x, &x->seen, k, key))
		return 0;
	switch (k) {
	case M_MEM:
		if (parse_size_range(v, 64 * MIB, 4 * TIB, &kc->mem_bytes))
			return fail(x, "mem = \"%s\": want a size from 64M to 4T, like 16G", v);
		break;
	case M_USED:
	case M_KERNEL_MEM:
		if (parse_size_range(v, 0, TIB, &n))
			return fail(x, "%s = \"%s\": want a size from 0 to 1T, like 1536M", key, v);
		if (k == M_USED) {
			kc->anon_bytes = n;
			x->sc->used_set = true;
		} else {
			kc->kernel_bytes = n;
			x->sc->kernel_mem_set = true;
		}
		x->used_line = x->in.line;
		break;
	case M_RESERVE:
		if (parse_size_range(v, 0, GIB, &kc->reserve_bytes))
			return fail(x, "reserve = \"%s\": want a size from 0 to 1G, like 64M", v);
		break;
	case M_LOWMEM:
		if (parse_size_range(v, 16 * MIB, 4 * GIB, &kc->lowmem_bytes))
			return fail(x, "lowmem = \"%s\": want a size from 16M to 4G, like 896M", v);
		break;
	case M_CPUS:
		if (parse_uint(v, 64, &n) || n < 1)
			return fail(x, "cpus = \"%s\": want 1 to 64", v);
		kc->k.ncpus = (unsigned)n;
		break;
	case M_HZ:
		if (parse_uint(v, 1000, &n) || (n != 100 && n != 250 && n != 300 && n != 1000))
			return fail(x, "hz = \"%s\": want 100, 250, 300 or 1000", v);
		kc->k.hz = (unsigned)n;
		break;
	case M_BITS:
		if (parse_uint(v, 64, &n) || (n != 32 && n != 64))
			return fail(x, "bits = \"%s\": want 32 or 64", v);
		kc->k.long_bits = (unsigned)n;
		break;
	case M_KERNEL: {
		int i = word_index(kver_names, 3, v), l = word_index(later_names, 3, v);
		kc->series = i < 0 && !strcmp(v, SERIES_KERNEL);
		if (kc->series)
			i = KVER_6_12;
		kc->later = l + 1;
		kc->k.bdp_start = l < 0 ? BDP_START_BOTH : later_start[l];
		if (l >= 0)
			i = KVER_6_18;
		if (i < 0)
			return fail(x, "kernel = \"%s\": want 6.1, 6.12, 6.18, 7.0-rc1, 7.0, 7.1 (the "
				       "kernel's version, for what differs) or " SERIES_KERNEL
				       " (6.12 with kernel/'s patches)", v);
		kc->kver = (enum sim_kver)i;
		break;
	}
	}
	return 1;
}

static int device_key(struct ctx *x, const char *key, const char *v)
{
	struct sim_dev_cfg *d = &x->sc->dev[x->idx];
	int k = key_index(device_keys, key);
	char why[192];
	bool b;
	int i;

	if (k < 0) {
		char sect[32];
		snprintf(sect, sizeof(sect), "device %s", d->name);
		return unknown_key(x, key, sect, device_keys);
	}
	if (twice(x, &x->seen, k, key))
		return 0;
	x->dev_seen[x->idx] = x->seen;
	switch (k) {
	case D_MODEL:
	case D_SERIAL:
		if (!*v || !text_ok(v, sizeof(d->model) - 1))
			return fail(x, "%s = \"%s\": want one line of 1 to %zu characters, not "
				       "starting with ;", key, v, sizeof(d->model) - 1);
		snprintf(k == D_MODEL ? d->model : d->serial, sizeof(d->model), "%s", v);
		break;
	case D_BUS:
		if ((i = word_index(bus_names, 4, v)) < 0)
			return fail(x, "bus = \"%s\": want usb, sata, nvme or virtual", v);
		d->bus = (enum sim_bus)i;
		break;
	case D_INFLIGHT_FILES: {
		uint64_t n;

		if (parse_uint(v, 100000, &n))
			return fail(x, "inflight_files = \"%s\": want 0 (no bound) to 100000", v);
		d->inflight_files = (uint32_t)n;
		break;
	}
	case D_SHARE:
		if ((i = word_index(share_names, 4, v)) < 0)
			return fail(x, "share = \"%s\": want none, nfs, cifs or fuse", v);
		d->share = (enum sim_share)i;
		break;
	case D_FS:
		if ((i = word_index(fs_names, 2, v)) < 0)
			return fail(x, "fs = \"%s\": want ext4 or vfat", v);
		d->fs = (enum sim_fs)i;
		break;
	case D_REMOVABLE:
	case D_ROTATIONAL:
	case D_KNOWN:
	case D_MAIN:
		if (parse_bool(v, &b))
			return fail(x, "%s = \"%s\": want yes or no", key, v);
		if (k == D_REMOVABLE)
			d->removable = b;
		else if (k == D_ROTATIONAL)
			d->rotational = b;
		else if (k == D_KNOWN)
			d->known = b;
		else if (b && x->main_line)
			return fail(x, "main = yes on a second device (%s has it, line %d): one "
				       "device is the main one", x->sc->dev[x->sc->main_dev].name,
				    x->main_line);
		else if (b) {
			x->main_line = x->in.line;
			x->sc->main_dev = x->idx;
		}
		break;
	case D_BANDWIDTH:
		if (parse_bandwidth(v, d, why, sizeof(why))) {
			memset(d->bw, 0, sizeof(d->bw));
			d->nbw = 0;
			return fail(x, "bandwidth = \"%s\": want %s", v, why);
		}
		break;
	case D_QUEUE:
		/* 0: no bound, as on a blk-throttled device whose bios wait above
		 * the request queue however many there are */
		if (parse_size_range(v, 0, 4 * GIB, &d->queue_bytes) ||
		    (d->queue_bytes && d->queue_bytes < PAGE_SIZE))
			return fail(x, "queue = \"%s\": want 0 (no bound) or a size from 4K to 4G, like 16M", v);
		break;
	case D_BIO:
		if (parse_size_range(v, 0, GIB, &d->bio_bytes) || d->bio_bytes % PAGE_SIZE)
			return fail(x, "bio = \"%s\": want 0 or a multiple of 4K up to 1G, like 1M", v);
		break;
	case D_THROTTLE:
		if (strcmp(v, "0") && parse_speed_range(v, &d->throttle_bps))
			return fail(x, "throttle = \"%s\": want 0 (none) or a speed from 10kB/s to "
				       "100GB/s, like 5MB/s", v);
		if (!strcmp(v, "0"))
			d->throttle_bps = 0;
		break;
	case D_IO_END:
		if (parse_size_range(v, 0, GIB, &d->io_end_bytes) || d->io_end_bytes % PAGE_SIZE)
			return fail(x, "io_end = \"%s\": want 0 or a multiple of 4K up to 1G, like 8M", v);
		break;
	case D_LATENCY:
		/* a request's fixed time; 1 s is far beyond any device's */
		if (parse_time(v, &d->latency_usec) || d->latency_usec > 1000000) {
			d->latency_usec = 0;
			return fail(x, "latency = \"%s\": want a time from 0s to 1s, like 2ms", v);
		}
		break;
	case D_IDLE:
		if (parse_time(v, &d->idle_usec) || d->idle_usec > 24 * 3600 * 1000000ULL) {
			d->idle_usec = 0;
			return fail(x, "idle = \"%s\": want a time from 0s to 24h, like 30s", v);
		}
		break;
	}
	return 1;
}

static int writer_key(struct ctx *x, const char *key, const char *v)
{
	struct writer *w = &x->w[x->idx];
	int k = key_index(writer_keys, key), i;

	if (k < 0) {
		char sect[32];
		snprintf(sect, sizeof(sect), "writer %s", x->sc->task_name[x->idx]);
		return unknown_key(x, key, sect, writer_keys);
	}
	if (twice(x, &w->seen, k, key))
		return 0;
	w->key_line[k] = x->in.line;
	switch (k) {
	case W_KIND:
		if (strcmp(v, "copy") && strcmp(v, "fsync-loop"))
			return fail(x, "kind = \"%s\": want copy or fsync-loop", v);
		w->fsync_loop = !strcmp(v, "fsync-loop");
		break;
	case W_DEVICE:
		if (!name_ok(v, sizeof(w->dev) - 1, "_-"))
			return fail(x, "device = \"%s\": want the NAME of a [device NAME]", v);
		snprintf(w->dev, sizeof(w->dev), "%s", v);
		break;
	case W_SIZE:
		/* its range depends on the kind: checked with the section */
		if (parse_size_range(v, 1, TIB, &w->size))
			return fail(x, "size = \"%s\": want a size up to 1T, like 4G", v);
		break;
	case W_FILE_SIZE:
		if (parse_size_range(v, PAGE_SIZE, TIB, &w->file_size) || w->file_size % PAGE_SIZE)
			return fail(x, "file_size = \"%s\": want a multiple of 4K up to 1T (the "
				       "simulator writes whole pages), like 16K", v);
		break;
	case W_RATE:
		if (parse_speed_range(v, &w->rate))
			return fail(x, "rate = \"%s\": want a speed from 10kB/s to 100GB/s, like "
				       "1000MB/s", v);
		break;
	case W_FILE_META:
		if (parse_size_range(v, 0, MIB, &w->file_meta))
			return fail(x, "file_meta = \"%s\": want a size from 0 to 1M, like 512 or 1K", v);
		break;
	case W_FILE_COST:
		if (parse_time(v, &w->file_cost) || w->file_cost > 1000000)
			return fail(x, "file_cost = \"%s\": want a time from 0s to 1s, like 40us", v);
		break;
	case W_START:
	case W_DELETE:
	case W_PERIOD: {
		uint64_t t, min = k == W_START ? 0 : k == W_PERIOD ? 1000 : 1;
		if (parse_time(v, &t) || t < min || t > TIME_MAX)
			return fail(x, "%s = \"%s\": want a time from %s to 720h, like %s", key, v,
				    k == W_START ? "0s" : k == W_PERIOD ? "1ms" : "1us",
				    k == W_PERIOD ? "10ms" : "5s");
		if (k == W_START)
			w->start = t;
		else if (k == W_DELETE)
			w->delete = t;
		else
			w->period = t;
		break;
	}
	case W_END:
		if ((i = word_index(end_names, 3, v)) < 0)
			return fail(x, "end = \"%s\": want sync, fsync or none", v);
		w->end = (enum sim_task_end)i;
		break;
	case W_BACKGROUND:
		if (parse_bool(v, &w->background))
			return fail(x, "background = \"%s\": want yes or no", v);
		break;
	case W_ROLE:
		if ((i = word_index(role_names, 4, v)) < 0)
			return fail(x, "role = \"%s\": want main, fast, main-fast or other", v);
		w->role = (enum task_role)i;
		break;
	}
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
	struct ctx *x = user;
	char why[320], dev[16];
	int r;

	(void)section; /* the reader followed the headers (even empty sections) */
	if (x->in.failed)
		return 0;
	switch (x->sect) {
	case S_NONE:
		return fail(x, "\"%s\" before any [section]", key);
	case S_SCENARIO: return scenario_key(x, key, val);
	case S_MACHINE: return machine_key(x, key, val);
	case S_DEVICE: return device_key(x, key, val);
	case S_WRITER: return writer_key(x, key, val);
	case S_SYSCTL:
	case S_KNOB:
		r = knob_parse(x->sc, x->sect == S_KNOB, key, val, dev, sizeof(dev), why, sizeof(why));
		if (r == -EINVAL)
			return fail(x, "%s = \"%s\": %s", key, val, why);
		if (r)
			return fail(x, "%s", why);
		if (x->sect == S_KNOB) {
			snprintf(x->knob_dev[x->sc->nknob - 1], sizeof(x->knob_dev[0]), "%s", dev);
			x->knob_line[x->sc->nknob - 1] = x->in.line;
		}
		return 1;
	}
	return 0;
}

/* Each line before inih reads it: one that starts with a blank refused,
 * and the [section] headers followed here (inih says nothing of a section
 * without keys). */
static bool line_rules(void *user, const char *str)
{
	struct ctx *x = user;
	const char *p = str;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (!*p || *p == '#' || *p == ';')
		return true;
	/* inih would take an indented line for more of the value above */
	if (p > str) {
		fail(x, "a line that starts with a blank: write it at the line's start");
		return false;
	}
	if (*p == '[') {
		const char *end = strchr(p, ']'), *q;
		char name[INI_LINE_MAX + 1];
		if (!end)
			return true; /* inih's error: not a section */
		for (q = end + 1; *q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'; q++)
			;
		if (*q && *q != '#' && *q != ';') {
			fail(x, "text after the section's ]");
			return false;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
		section_header(x, name);
	}
	return true;
}

/* ------------------------------------------------------------ finish */

static int finish_writer(struct ctx *x, int i, int *main_task)
{
	struct scenario *sc = x->sc;
	struct writer *w = &x->w[i];
	struct sim_task_cfg *t = &sc->task[i];
	const char *name = sc->task_name[i];
	static const int copy_only[] = { W_FILE_SIZE, W_RATE, W_END, W_DELETE, W_FILE_COST,
					 W_FILE_META };
	int d;

	if (!(w->seen & (1u << W_DEVICE)))
		return fail_at(x, w->line, "[writer %s] has no device =", name);
	if (!(w->seen & (1u << W_SIZE)))
		return fail_at(x, w->line, "[writer %s] has no size =", name);
	d = find_dev(sc, w->dev);
	if (d < 0)
		return fail_at(x, w->key_line[W_DEVICE], "device = \"%s\": no [device %s] in the file",
			       w->dev, w->dev);
	if (w->fsync_loop) {
		for (size_t k = 0; k < sizeof(copy_only) / sizeof(copy_only[0]); k++)
			if (w->seen & (1u << copy_only[k]))
				return fail_at(x, w->key_line[copy_only[k]], "%s is a copy writer's "
					       "key, not an fsync-loop's", writer_keys[copy_only[k]]);
		if (w->size > 64 * MIB)
			return fail_at(x, w->key_line[W_SIZE], "size: an fsync-loop writes 1 byte to "
				       "64M per period");
		/* nothing ends it but the others' end */
		if ((w->seen & (1u << W_BACKGROUND)) && !w->background)
			return fail_at(x, w->key_line[W_BACKGROUND], "background = no: an fsync-loop "
				       "never ends by itself; it runs while the others do (yes)");
		w->background = true;
		w->end = END_NONE;
	} else {
		if (w->seen & (1u << W_PERIOD))
			return fail_at(x, w->key_line[W_PERIOD],
				       "period is an fsync-loop writer's key, not a copy's");
		if (w->size < PAGE_SIZE)
			return fail_at(x, w->key_line[W_SIZE], "size: a copy writes 4K to 1T");
		if (w->file_size > w->size)
			return fail_at(x, w->key_line[W_FILE_SIZE], "file_size is larger than size");
	}
	if (w->role != ROLE_OTHER && w->fsync_loop)
		return fail_at(x, w->key_line[W_ROLE], "role = %s: a copy writer's role, not an "
			       "fsync-loop's", role_names[w->role]);
	if (w->role == ROLE_MAIN || w->role == ROLE_MAIN_FAST) {
		if (*main_task >= 0)
			return fail_at(x, w->key_line[W_ROLE], "role = %s: writer %s is the main one "
				       "already", role_names[w->role], sc->task_name[*main_task]);
		if (w->background)
			return fail_at(x, w->key_line[W_BACKGROUND], "background = yes: the main "
				       "writer runs in the foreground");
		*main_task = i;
	}
	t->kind = w->fsync_loop ? TASK_FSYNC_LOOP : TASK_COPY;
	t->dev = d;
	t->start_usec = w->start;
	t->end = w->end;
	t->background = w->background;
	sc->role[i] = w->role;
	sc->task_size[i] = w->size;
	if (w->fsync_loop) {
		t->file_bytes = w->size;
		t->period_usec = w->period;
		return 1;
	}
	t->rate_bps = w->rate;
	t->file_cost_usec = w->file_cost;
	t->file_meta_bytes = w->file_meta;
	t->delete_at_usec = w->delete;
	sc->task_file_size[i] = w->file_size;
	scenario_task_files(w->size, w->file_size, &t->files, &t->file_bytes);
	if (t->files > SCEN_MAX_FILES)
		return fail_at(x, w->key_line[W_FILE_SIZE], "file_size: %llu files; at most %d",
			(unsigned long long)t->files, SCEN_MAX_FILES);
	return 1;
}

static int finish(struct ctx *x)
{
	struct scenario *sc = x->sc;
	struct sim_kernel_cfg *kc = &sc->kernel;
	int main_task = -1;
	uint64_t kernel, used;

	if (!x->name_set) {
		const char *base = strrchr(x->in.name, '/');
		char nm[SCEN_NAME_MAX + 16];
		size_t n, suf = strlen(".scenario");
		base = base ? base + 1 : x->in.name;
		n = strlen(base);
		if (n > suf && !strcmp(base + n - suf, ".scenario"))
			n -= suf;
		snprintf(nm, sizeof(nm), "%.*s", (int)(n < sizeof(nm) - 1 ? n : sizeof(nm) - 1), base);
		if (n >= sizeof(nm) || !name_ok(nm, SCEN_NAME_MAX - 1, "-"))
			return fail_at(x, 0, "no name = in [scenario], and the file's name is not "
				       "one (a-z, 0-9 and -, 1 to %d characters)", SCEN_NAME_MAX - 1);
		snprintf(sc->name, sizeof(sc->name), "%.*s", SCEN_NAME_MAX - 1, nm);
	}
	if (!sc->ndev)
		return fail_at(x, 0, "no [device NAME] section: 1 to %d devices", SIM_MAX_DEV);
	for (int d = 0; d < sc->ndev; d++) {
		if (!sc->dev[d].nbw)
			return fail_at(x, x->dev_line[d], "[device %s] has no bandwidth =",
				       sc->dev[d].name);
		if (sc->dev[d].fs == SIM_FS_VFAT && sc->dev[d].io_end_bytes)
			return fail_at(x, x->dev_line[d], "[device %s]: io_end is ext4's; with fs = "
				       "vfat a file's writeback ends with its bio", sc->dev[d].name);
		if (sc->dev[d].fs == SIM_FS_VFAT && sc->dev[d].inflight_files)
			return fail_at(x, x->dev_line[d], "[device %s]: inflight_files is ext4's "
				       "(its journal's reserved credits); vfat has no journal",
				       sc->dev[d].name);
		if (sc->dev[d].share &&
		    (x->dev_seen[d] & (1u << D_BUS | 1u << D_REMOVABLE | 1u << D_ROTATIONAL |
				       1u << D_FS | 1u << D_IO_END | 1u << D_INFLIGHT_FILES |
				       1u << D_THROTTLE)))
			return fail_at(x, x->dev_line[d], "[device %s]: a share has no disk: no bus, "
				       "removable, rotational, fs, io_end, inflight_files or throttle",
				       sc->dev[d].name);
	}
	if (!sc->ntask)
		return fail_at(x, 0, "no [writer NAME] section: 1 to %d writers", SIM_MAX_TASK);
	for (int i = 0; i < sc->ntask; i++)
		if (!finish_writer(x, i, &main_task))
			return 0;
	if (main_task < 0)
		return fail_at(x, 0, "no writer has role = main or main-fast: one is the main "
			       "writer, whose times are reported");
	for (int k = 0; k < sc->nknob; k++) {
		if (!sc->knob[k].bdi)
			continue;
		sc->knob[k].dev = find_dev(sc, x->knob_dev[k]);
		if (sc->knob[k].dev < 0) {
			sc->knob[k].dev = 0;
			return fail_at(x, x->knob_line[k], "%s.%s: no [device %s] in the file",
				       x->knob_dev[k], sim_bdi_names[sc->knob[k].attr],
				       x->knob_dev[k]);
		}
	}
	scenario_memory_defaults(kc->mem_bytes, &kernel, &used);
	if (sc->kernel_mem_set)
		kernel = kc->kernel_bytes;
	if (sc->used_set)
		used = kc->anon_bytes;
	if (kernel + used >= kc->mem_bytes)
		return fail_at(x, x->used_line, "used (%llu MiB) and kernel_mem (%llu MiB) do not "
			       "fit in mem (%llu MiB)", (unsigned long long)(used / MIB),
			       (unsigned long long)(kernel / MIB),
			       (unsigned long long)(kc->mem_bytes / MIB));
	kc->kernel_bytes = kernel;
	kc->anon_bytes = used;
	return 1;
}

int scenfile_parse(const char *filename, const char *text, struct scenario *sc, char *err,
		   size_t len)
{
	struct ctx *x = calloc(1, sizeof(*x));
	int r;

	if (len)
		err[0] = 0;
	if (!x) {
		snprintf(err, len, "%s: out of memory", filename);
		return -ENOMEM;
	}
	memset(sc, 0, sizeof(*sc));
	sc->kernel.k.hz = 250;
	sc->kernel.k.long_bits = 64;
	sc->kernel.k.ncpus = 4;
	sc->kernel.kver = KVER_6_18;
	sc->kernel.mem_bytes = 16 * GIB;
	sc->kernel.reserve_bytes = 64 * MIB;
	sc->kernel.lowmem_bytes = 896 * MIB;
	x->in.name = filename;
	x->in.err = err;
	x->in.errlen = len;
	x->sc = sc;
	x->sect = S_NONE;
	ini_text_parse(&x->in, text, line_rules, handler, x,
		       "not a [section], key = value, or comment");
	if (!x->in.failed)
		finish(x);
	r = x->in.failed ? -EINVAL : 0;
	free(x);
	return r;
}

bool scenfile_is_path(const char *arg)
{
	size_t n = strlen(arg), s = strlen(".scenario");

	return strchr(arg, '/') || (n > s && !strcmp(arg + n - s, ".scenario"));
}

int scenfile_load(const char *path, struct scenario *sc, char *err, size_t len)
{
	char *buf = malloc(INI_TEXT_MAX + 1);
	FILE *f;
	size_t n;
	int r = 0;

	if (!buf) {
		snprintf(err, len, "%s: out of memory", path);
		return -ENOMEM;
	}
	f = fopen(path, "re");
	if (!f) {
		r = -errno;
		snprintf(err, len, "%s: %s", path, strerror(-r));
		free(buf);
		return r;
	}
	n = fread(buf, 1, INI_TEXT_MAX + 1, f);
	if (ferror(f)) {
		r = -errno;
		snprintf(err, len, "%s: %s", path, strerror(r ? -r : EIO));
		r = r ? r : -EIO;
	} else if (n > INI_TEXT_MAX) {
		snprintf(err, len, "%s: larger than %d KiB", path, INI_TEXT_MAX / 1024);
		r = -EFBIG;
	} else if (memchr(buf, 0, n)) {
		snprintf(err, len, "%s: a NUL byte: not a text file", path);
		r = -EINVAL;
	}
	fclose(f);
	if (!r) {
		buf[n] = 0;
		r = scenfile_parse(path, buf, sc, err, len);
	}
	free(buf);
	return r;
}

int scenfile_builtin(const char *name, struct scenario *sc)
{
	char file[64], err[512];

	for (int i = 0; i < scen_builtin_count; i++) {
		if (strcmp(scen_builtins[i].name, name))
			continue;
		snprintf(file, sizeof(file), "%s.scenario", name);
		/* tests/unit/test_scenfile.c parses each: an error here is a bug */
		if (scenfile_parse(file, scen_builtins[i].text, sc, err, sizeof(err))) {
			fprintf(stderr, "built-in scenario %s\n", err);
			abort();
		}
		return 0;
	}
	return -ENOENT;
}

int scenfile_build(const char *name, const struct sim_params *p, struct scenario *sc)
{
	int r = scenfile_builtin(name, sc);

	if (r)
		return r;
	return scenario_apply(sc, p, NULL, 0);
}

/* ------------------------------------------------------------ writing */

int scenfile_write(FILE *f, const struct scenario *sc)
{
	const struct sim_kernel_cfg *kc = &sc->kernel;
	char a[64], b[INI_LINE_MAX + 1];
	int prev = -1;

	fprintf(f, "[scenario]\nname = %s\n", sc->name);
	if (sc->summary[0])
		fprintf(f, "summary = %s\n", sc->summary);
	if (sc->npolicy) {
		fputs("policies =", f);
		for (int i = 0; i < sc->npolicy; i++)
			fprintf(f, " %s", sc->policy[i]);
		fputc('\n', f);
	}
	fmt_size(kc->mem_bytes, a, sizeof(a));
	fprintf(f, "\n[machine]\nmem = %s\n", a);
	if (sc->used_set) {
		fmt_size(kc->anon_bytes, a, sizeof(a));
		fprintf(f, "used = %s\n", a);
	}
	if (sc->kernel_mem_set) {
		fmt_size(kc->kernel_bytes, a, sizeof(a));
		fprintf(f, "kernel_mem = %s\n", a);
	}
	fmt_size(kc->reserve_bytes, a, sizeof(a));
	fprintf(f, "reserve = %s\n", a);
	fmt_size(kc->lowmem_bytes, a, sizeof(a));
	fprintf(f, "lowmem = %s\ncpus = %u\nhz = %u\nbits = %u\nkernel = %s\n", a, kc->k.ncpus,
		kc->k.hz, kc->k.long_bits, kc->series ? SERIES_KERNEL : kc->later ? later_names[kc->later - 1] : kver_names[kc->kver]);
	for (int d = 0; d < sc->ndev; d++) {
		const struct sim_dev_cfg *dv = &sc->dev[d];
		fprintf(f, "\n[device %s]\n", dv->name);
		if (dv->model[0])
			fprintf(f, "model = %s\n", dv->model);
		if (dv->serial[0])
			fprintf(f, "serial = %s\n", dv->serial);
		fmt_bandwidth(dv, b, sizeof(b));
		if (dv->share)
			fprintf(f, "share = %s\n", share_names[dv->share]);
		else
			fprintf(f, "bus = %s\nremovable = %s\nrotational = %s\n", bus_names[dv->bus],
				dv->removable ? "yes" : "no", dv->rotational ? "yes" : "no");
		fprintf(f, "known = %s\nbandwidth = %s\n", dv->known ? "yes" : "no", b);
		fmt_size(dv->queue_bytes, a, sizeof(a));
		fprintf(f, "queue = %s\n", a);
		fmt_size(dv->bio_bytes, a, sizeof(a));
		fprintf(f, "bio = %s\n", a);
		if (dv->throttle_bps) {
			fmt_speed(dv->throttle_bps, a, sizeof(a));
			fprintf(f, "throttle = %s\n", a);
		}
		if (dv->io_end_bytes) {
			fmt_size(dv->io_end_bytes, a, sizeof(a));
			fprintf(f, "io_end = %s\n", a);
		}
		if (dv->fs != SIM_FS_EXT4)
			fprintf(f, "fs = %s\n", fs_names[dv->fs]);
		if (dv->inflight_files)
			fprintf(f, "inflight_files = %u\n", dv->inflight_files);
		fmt_time(dv->latency_usec, a, sizeof(a));
		fprintf(f, "latency = %s\n", a);
		if (dv->idle_usec) {
			fmt_time(dv->idle_usec, a, sizeof(a));
			fprintf(f, "idle = %s\n", a);
		}
		if (d == sc->main_dev)
			fputs("main = yes\n", f);
	}
	for (int i = 0; i < sc->ntask; i++) {
		const struct sim_task_cfg *t = &sc->task[i];
		bool copy = t->kind == TASK_COPY;
		fprintf(f, "\n[writer %s]\nkind = %s\ndevice = %s\n", sc->task_name[i],
			copy ? "copy" : "fsync-loop", sc->dev[t->dev].name);
		fmt_size(sc->task_size[i], a, sizeof(a));
		fprintf(f, "size = %s\n", a);
		if (copy && sc->task_file_size[i]) {
			fmt_size(sc->task_file_size[i], a, sizeof(a));
			fprintf(f, "file_size = %s\n", a);
		}
		if (copy) {
			fmt_speed(t->rate_bps, a, sizeof(a));
			fprintf(f, "rate = %s\n", a);
		}
		if (copy && t->file_meta_bytes) {
			fmt_size(t->file_meta_bytes, a, sizeof(a));
			fprintf(f, "file_meta = %s\n", a);
		}
		if (copy && t->file_cost_usec) {
			fmt_time(t->file_cost_usec, a, sizeof(a));
			fprintf(f, "file_cost = %s\n", a);
		}
		fmt_time(t->start_usec, a, sizeof(a));
		fprintf(f, "start = %s\n", a);
		if (copy)
			fprintf(f, "end = %s\n", end_names[t->end]);
		if (copy && t->delete_at_usec) {
			fmt_time(t->delete_at_usec, a, sizeof(a));
			fprintf(f, "delete = %s\n", a);
		}
		if (!copy) {
			fmt_time(t->period_usec, a, sizeof(a));
			fprintf(f, "period = %s\n", a);
		}
		fprintf(f, "background = %s\nrole = %s\n", t->background ? "yes" : "no",
			role_names[sc->role[i]]);
	}
	for (int k = 0; k < sc->nknob; k++) {
		if (prev != sc->knob[k].bdi)
			fprintf(f, "\n[%s]\n", sc->knob[k].bdi ? "knob" : "sysctl");
		prev = sc->knob[k].bdi;
		scenfile_knob_text(sc, &sc->knob[k], b, sizeof(b));
		fprintf(f, "%s\n", b);
	}
	return ferror(f) ? -EIO : 0;
}
