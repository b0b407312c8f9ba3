/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /run/wbgov/state: the values wbgovd found on every knob it changed,
 * written before the change, so a restore works after a crash or SIGKILL
 * (`wbgov restore`, or the next start). Text, one knob owner per line:
 *   bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0
 * (min_ratio_fine absent: not recorded, an older wbgovd's line; left alone)
 *   vm dirty_bytes 0 ... (pre-6.2 kernels: the global pair)
 * Written atomically (a temporary file renamed over it). */
#ifndef WBGOV_SYS_STATE_H
#define WBGOV_SYS_STATE_H

#include "knobs/knobs.h"

/* The file is read at most this large: a line of some 60 bytes per bdi,
 * 250000 bdis (the kernel has no limit of its own but the block device
 * numbers), a bound on what root trusts, not on how many it holds. It is
 * read into STATE_FILE_FIRST first, and a larger buffer if it is larger. */
#define STATE_FILE_MAX (16 * 1024 * 1024)
#define STATE_FILE_FIRST (64 * 1024)

struct state_bdi {
	char bdi[KNOBS_NAME_MAX];
	uint64_t strict_limit;
	uint64_t max_ratio_fine;
	uint64_t min_ratio_fine; /* KNOBS_KEEP: not recorded */
	/* the last state_restore could not give it back: its knobs are not
	 * what was found, and this record is all that knows the originals
	 * (not written to the file) */
	bool held;
};

/* What it holds is freed by state_free; state_load and state_parse fill
 * it anew (free what it held first). */
struct state {
	struct state_bdi *bdi; /* n of them, room for room (knobs/room.h) */
	int n, room;
	bool vm_saved;
	bool vm_held;      /* as held, for the vm record */
	uint64_t vm[VM_KNOB_COUNT];
};

/* -ENOENT when there is no state file; -EINVAL for a malformed one (a bdi
 * name that is not one entry of /sys/class/bdi included), or one that is
 * not a regular file of root's or ours; -EPERM, -EFBIG as
 * file_read_trusted. */
int state_load(const char *path, struct state *st);
/* The same for the file's text, which it cuts into lines in place. */
int state_parse(char *text, struct state *st);
void state_free(struct state *st);
/* An empty state removes the file. */
int state_save(const char *path, const struct state *st);
int state_put_bdi(struct state *st, const char *bdi, uint64_t strict_limit,
		  uint64_t max_ratio_fine, uint64_t min_ratio_fine);
void state_del_bdi(struct state *st, const char *bdi);
/* Record a bdi's originals and write the file at once, before any knob of
 * it changes: 0 or -errno (then nothing may be changed). */
int state_record_bdi(struct state *st, const char *path, const char *bdi, uint64_t strict_limit,
		     uint64_t max_ratio_fine, uint64_t min_ratio_fine);

/* Give every recorded knob back (read-compare-write) and drop what was
 * given back or is gone. `report(ctx, owner, knob, err)` is called for each
 * owner (a bdi, or "vm") whose knob could not be written; its record stays,
 * with its original values, marked held. Returns the number of failures. */
int state_restore(const struct knobs_ops *ops, void *kctx, struct state *st,
		  void (*report)(void *ctx, const char *owner, const char *knob, int err), void *ctx);

/* Is `bdi` recorded and held (see state_bdi)? Nothing may change its
 * knobs, nor record what they hold now as the originals. */
bool state_bdi_held(const struct state *st, const char *bdi);

#endif
