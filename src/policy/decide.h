/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The governor's decision, pure, in two steps that nothing else takes:
 * what applies to a device (wbgov.conf's [global] values and the [device]
 * section that matches it, resolved once per device per decision by
 * gov_resolve), and the rule (gov_decide): those settings + what is known
 * of its bandwidth -> the per-device knob values, and what the figure says
 * of the device. Nothing else reads a per-device setting, chooses a cap or
 * classes a figure. */
#ifndef WBGOV_POLICY_DECIDE_H
#define WBGOV_POLICY_DECIDE_H

#include "knobs/knobs.h"
#include "policy/bwmeter.h"

enum gov_mode { MODE_TIME, MODE_FIXED, MODE_OFF };

/* The match keys of a [device] section, each a shell glob (fnmatch(3), as
 * sh's case: `*` crosses `/`) against one fact of struct knobs_dev. */
enum match_kind {
	MATCH_SERIAL, MATCH_MODEL, MATCH_BUS, MATCH_DEVNUM, MATCH_MOUNT, MATCH_LABEL, MATCH_UUID,
	MATCH_USB, MATCH_WWN, MATCH_COUNT
};
/* "serial", "model", ...: the keys as wbgov.conf spells them */
extern const char *const gov_match_keys[MATCH_COUNT];

/* A [device ...] section of wbgov.conf: it matches a device when every
 * key it gives matches. */
struct gov_rule {
	char match[MATCH_COUNT][KNOBS_NAME_MAX]; /* a glob per key given, "" for none */
	char name[KNOBS_NAME_MAX];  /* the section's: "stick" for [device stick] */
	enum gov_mode mode;
	uint64_t fixed_bytes;  /* MODE_FIXED */
	uint64_t target_ms;    /* MODE_TIME; 0 = the global target */
	unsigned line;         /* where it was read, for messages: this line ... */
	unsigned file;         /* ... of files[file] of its gov_config */
};

#define GOV_MAX_RULES 32
/* The main file and its drop-ins, at most this many, each name shorter. */
#define GOV_MAX_FILES 33
#define GOV_FILE_NAME_MAX 256

struct gov_config {
	uint64_t target_ms;     /* seconds of measured bandwidth a device may hold */
	uint64_t floor_bytes;   /* the smallest cap, whatever the bandwidth */
	uint64_t ceiling_bytes; /* a cap above this marks a fast device ... */
	uint64_t fast_target_ms; /* ... which gets this many seconds instead, unless */
	uint64_t global_drain_ms; /* the global threshold drains within this: no cap */
	uint64_t initial_bytes; /* every device until it is measured */
	struct gov_rule rules[GOV_MAX_RULES];
	int nrules;
	char files[GOV_MAX_FILES][GOV_FILE_NAME_MAX]; /* what was read, in order */
	int nfiles;
};

/* What sync writes of a capped device beyond its cap: a writer dirties 32
 * pages (128 KiB) between two looks at its limit, and the journal commits
 * after the data. Measured on 6.18 at 1 MB/s under a cap of 0.93 MB: 1.0
 * MiB dirty or under writeback when dd returned, sync 0.93-0.95 s. A
 * measured device's cap is bandwidth x target less this, so that sync
 * takes no longer than the target. */
#define GOV_SYNC_SLACK_BYTES (256ULL << 10)

/* target 1 s; floor 256 KiB (the smallest strict cap measured to cost no
 * throughput on Linux 6.18); start 4 MiB; past the 256 MiB ceiling 2 s, or
 * no cap when the global threshold drains within 10 s. */
void gov_config_defaults(struct gov_config *c);

enum gov_why {
	WHY_MEASURED,     /* bandwidth x target, less the sync slack */
	WHY_FLOOR,        /* ... raised to the floor */
	WHY_FAST,         /* bandwidth x target above the ceiling: fast_target seconds */
	WHY_UNMEASURED,   /* not measured yet: the start cap */
	WHY_LOWER_BOUND,  /* only a lower bound so far, below the start cap */
	WHY_RAMP,         /* not measured yet, outrunning its start cap: grown */
	WHY_HELD,         /* not measured yet, and the cap held it, not the device: let go */
	WHY_FIXED,        /* a config section: mode fixed */
	WHY_OFF,          /* a config section: mode off */
	WHY_ABOVE_GLOBAL, /* the cap would exceed the global threshold: not needed */
	WHY_DRAINS_FAST,  /* fast, and the global threshold drains within global_drain */
	WHY_FAILING,      /* it fails commands: no cap while it does */
	WHY_THROTTLED,    /* a write throttle on its disk bounds its speed: a cap for that speed */
	WHY_COUNT
};
extern const char *const gov_why_text[WHY_COUNT];

/* What a bandwidth figure says of the device, whatever its cap: what
 * device memory keeps of it. */
enum gov_bw_class {
	GOV_BW_NONE,        /* nothing worth keeping: none, remembered, or a lower
			       bound within what its start cap allows */
	GOV_BW_KNOWN,       /* measured with a backlog of its own */
	GOV_BW_FAST,        /* a lower bound that shows it fast: bandwidth x
			       target above the ceiling */
	GOV_BW_LOWER_BOUND, /* not known, and a lower bound above its start cap's
			       worth (bandwidth x target above `initial`) */
};

struct gov_decision {
	bool govern;        /* false: leave the knobs as they were found */
	bool strict;
	uint64_t max_bytes; /* with strict: the cap */
	enum gov_why why;
	enum gov_bw_class bw_class;
	const struct gov_rule *rule; /* the section that matched, or NULL */
};

/* What the governor knows of a device when it decides. */
struct gov_input {
	uint64_t bw_bps;     /* 0: not measured */
	bool known;          /* bw_bps rests on a backlog window or memory, not
				only on a lower bound */
	enum bw_source source; /* where bw_bps came from */
	uint64_t global_thresh_bytes; /* the kernel's global dirty threshold; 0 unknown */
	uint64_t min_cap_bytes; /* the smallest cap this kernel honours (0: the floor) */
	uint64_t start_bytes;   /* the start cap now, if above `initial` (a ramp);
				   UINT64_MAX: none (it held the writer, not the device) */
	bool failing;           /* it failed commands lately (its ioerr_cnt), or holds
				   dirty data since, and the cap would be the global
				   pair (before Linux 6.2) */
	uint64_t bound_bps;     /* its speed is at most this (a write throttle on its
				   disk that holds its writers); 0: no bound */
};

/* Every setting that applies to one device: the [global] values, with
 * what the first [device] section matching it says over them. */
struct gov_settings {
	const struct gov_rule *rule; /* the section that matched, or NULL */
	enum gov_mode mode;
	uint64_t fixed_bytes;     /* MODE_FIXED: the cap */
	uint64_t target_ms;       /* MODE_TIME: seconds of bandwidth it may hold */
	uint64_t floor_bytes;
	uint64_t ceiling_bytes;
	uint64_t fast_target_ms;
	uint64_t global_drain_ms;
	uint64_t initial_bytes;
};

/* A start cap is doubled, while an unknown device outruns it, up to this:
 * from 64 MiB a strict cap cost a 1 GB/s writer nothing measurable (a
 * tmpfs-backed loop on 6.18: 1 GiB dd 1.02 s, as without a cap). */
#define GOV_BOOST_MAX_BYTES (64ULL << 20)
/* A start "cap" that is none: the cap held the writer, not the device. */
#define GOV_START_OPEN UINT64_MAX

/* One poll of a device not measured yet, at its start cap. */
struct gov_ramp {
	uint64_t cap_bytes;  /* the cap in force */
	uint64_t over_bytes; /* what it completed beyond a cap's burst, in its
				target's time */
	bool held;           /* the cap holds it, not the device: its data
				waits while the device idles */
	bool slow_kind;      /* of a kind that is often slow (USB, removable,
				rotational, MMC) */
};

/* What applies to device `d` under `c`: the one reader of a gov_config's
 * per-device values. ret->rule points into c. */
void gov_resolve(const struct gov_config *c, const struct knobs_dev *d, struct gov_settings *ret);

/* The first config section matching the device, or NULL. */
const struct gov_rule *gov_match(const struct gov_config *c, const struct knobs_dev *d);

/* Does the one key `k` of `r` match the device? (True when `r` does not
 * give it.) A fact the device does not have matches nothing. */
bool gov_match_key(const struct gov_rule *r, enum match_kind k, const struct knobs_dev *d);

/* Does any section give key `k`? (wbgovd probes filesystem labels and
 * UUIDs only for a configuration that asks.) */
bool gov_config_uses(const struct gov_config *c, enum match_kind k);

void gov_decide(const struct gov_settings *s, const struct gov_input *in, struct gov_decision *ret);

/* Is a device of `bw_bps` a fast one under `s` (bandwidth x target above the
 * ceiling)? The rule's own test, for a caller that must know before it
 * decides (the global threshold matters to a fast device). */
bool gov_fast(const struct gov_settings *s, uint64_t bw_bps);
/* Does a device outrun start cap `cap_bytes`, completing `over_bytes`
 * beyond a cap's burst in its target's time? */
bool gov_outruns(const struct gov_settings *s, uint64_t cap_bytes, uint64_t over_bytes);
/* The start cap after one poll `r` (its start cap `boost_bytes` before it,
 * 0 for none; GOV_START_OPEN: let go until measured); *polls counts the
 * polls in a row it outran its cap. */
uint64_t gov_ramp_step(const struct gov_settings *s, const struct gov_ramp *r, unsigned *polls,
		       uint64_t boost_bytes);

/* How far a decision must move to matter (gov_decision_moved). */
enum gov_moved {
	/* worth writing the knobs again: another reason, or a cap more than
	 * 1/8 away (the estimate wobbles by a few per cent) */
	GOV_MOVED_WRITE,
	/* worth a log line, and what a status shows as news: another class
	 * of reason (FLOOR is MEASURED at the floor, RAMP is UNMEASURED
	 * growing), or a cap more than 1/4 away */
	GOV_MOVED_NEWS,
};

/* Is `b` a change from `a` that matters `by` that measure: the one rule
 * of when a decision has moved. Another govern or strict always is. */
bool gov_decision_moved(const struct gov_decision *a, const struct gov_decision *b,
			enum gov_moved by);

/* While a device under a strict cap below the ceiling holds dirty data
 * (Linux 6.2+), the global background threshold is at most this share of
 * the global dirty threshold (1/GOV_BG_SHARE_DIV): a strict bdi's
 * background threshold is its cap x background / dirty threshold, and at
 * the kernel's 10/20 its flusher has the device idle after every bio (see
 * gov_background in decide.c). */
#define GOV_BG_SHARE_DIV 8

/* Before 6.2, the global pair's background bytes for a dirty_bytes of
 * `cap`: the same eighth, a page at least. */
static inline uint64_t gov_pair_background(uint64_t cap)
{
	return cap / GOV_BG_SHARE_DIV > PAGE_SIZE ? cap / GOV_BG_SHARE_DIV : PAGE_SIZE;
}

/* The floor a strict cap gets on its bdi (min_bytes), 0 for none. Before
 * 6.14 (no KNOBS_WB_FLOOR in `features`) a strict wb's threshold is its
 * share of the global threshold by its writeout fraction, with no floor:
 * a new bdi's fraction is 0, and a wb that has no cgroup writeback of its
 * own (vfat, exFAT, NTFS) stayed near it through a whole copy, its writer
 * stopped at 0-184 KiB under a 4-64 MiB cap (BdiDirtyThresh on 6.12, the
 * shipped zoo: 1.30 x the device's time, against 1.03 for ext4). The bdi's
 * min_ratio is added to that share: three quarters of the cap, at most
 * GOV_FLOOR_MAX_BYTES and a GOV_FLOOR_SHARE_DIV-th of the global threshold
 * `thresh_bytes` (0: unknown, no floor). Every floor is taken from every
 * other wb's share (the kernel's bdi_min_ratio), and a slow device is the
 * one whose share stays small: a fast one earns its own at once. */
#define GOV_FLOOR_MAX_BYTES (8ULL << 20)
#define GOV_FLOOR_SHARE_DIV 32
uint64_t gov_floor_bytes(const struct gov_decision *dec, int features, uint64_t thresh_bytes);
/* Does a kernel of these `features` get floors at all (6.2 to 6.13)? */
bool gov_floor_kernel(int features);

/* --- Before 6.2: the global pair. A cap is global there: every disk's
 * writers live under it. */

/* How long no slow device may hold dirty data before the global pair (pre-6.2
 * route) or the background threshold (6.2+) goes back. */
#define GOV_VM_QUIET_USEC 5000000ULL

/* A kind of device that is often slow: USB, removable, rotational, or an
 * SD/MMC card (which says neither: it is not removable, the slot is). */
bool gov_slow_kind(const struct knobs_dev *k);

/* Does a device under decision `dec` (settings `s`; `known`: measured)
 * call for the global pair while it holds dirty data: a strict cap below
 * the ceiling, on a device known to be slow, or not yet measured but of a
 * slow kind (an unknown internal SSD would put the whole machine at the
 * start cap until measured). */
bool gov_global_candidate(const struct gov_settings *s, const struct gov_decision *dec, bool known,
			  const struct knobs_dev *info);

/* The pair's dirty_bytes for `smallest`, the smallest cap among the
 * candidates holding dirty data: that cap, floor included (a slow
 * device's sync after a copy is as short as under a per-device cap), and
 * at least two pages twice over (the kernel's least dirty_bytes). Its
 * background is gov_pair_background's. */
uint64_t gov_global_cap(uint64_t smallest);

/* Does the pair (before 6.2) or the lowered background threshold (6.2+)
 * go back, none having held dirty data for `quiet_usec`? */
bool gov_global_release(uint64_t quiet_usec);

/* --- The start cap's growth: held by its cap, not by the device? A
 * quarter of the threshold the kernel stops its writers at, or more, waits
 * dirty while next to nothing is being written back: the device idles with
 * work at hand. `c`: the bdi's counters (debugfs; NULL: not known), under
 * decision `dec`, measured by `m`. */
bool gov_held(const struct gov_decision *dec, const struct knobs_bdi_counters *c,
	      const struct bwmeter *m);

/* What the global background threshold should be now. */
struct gov_background {
	bool lower;        /* write `knob` = `value`; false: as found */
	enum vm_knob knob; /* VM_DIRTY_BACKGROUND_RATIO or VM_DIRTY_BACKGROUND_BYTES */
	uint64_t value;    /* percent for the ratio, bytes for the bytes */
};

/* The rule for the global background threshold: `found` the six vm.dirty_*
 * values as wbgovd found them (vm_knob order), `slow_dirty` whether a device
 * under a strict cap below the ceiling holds dirty data now. Lowered to
 * 1/GOV_BG_SHARE_DIV of the dirty threshold, in the pair's own unit, only
 * where both pairs are in one unit (a mixed pair's thresholds are not
 * comparable without the machine's dirtyable memory: left as found); never
 * raised. */
void gov_background(const uint64_t found[VM_KNOB_COUNT], bool slow_dirty,
		    struct gov_background *ret);

#endif
