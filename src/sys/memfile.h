/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /var/lib/wbgov/devices: the write bandwidth measured for each device,
 * kept across plugs and reboots, so a known stick gets its cap the moment
 * it appears instead of the start cap. One line per device:
 *   v1 BYTES_PER_S SOURCE UNIX_TIME ID
 * (SOURCE: m measured with a backlog, f a lower bound that showed it fast,
 * l a lower bound above what the start cap allows;
 * ID as in struct knobs_dev, last because it is the longest). The file is
 * trusted only if it is a regular file owned by this user and writable by
 * no one else, at most MEMORY_FILE_MAX bytes, with no NUL inside;
 * otherwise it is ignored whole (the caller logs it once) and rewritten
 * from what this run measures. In a trusted file a malformed line is
 * dropped alone (the caller says how many and which): the other devices'
 * figures are kept, and the file is rewritten without it only when
 * something new is put. */
#ifndef WBGOV_SYS_MEMFILE_H
#define WBGOV_SYS_MEMFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knobs.h"

#define MEMORY_MAX 256
#define MEMORY_FILE_MAX (64 * 1024)
/* A figure seen again unchanged refreshes its time once a day at most. */
#define MEMORY_REFRESH_S (24 * 3600)
#define MEMORY_DEFAULT_PATH "/var/lib/wbgov/devices"

struct memory_entry {
	char id[KNOBS_ID_MAX];
	uint64_t bps;
	char source;       /* 'm', 'f' or 'l' */
	uint64_t when;     /* unix seconds it was last put (a day's precision) */
};

struct memory {
	struct memory_entry e[MEMORY_MAX];
	int n;
	bool dirty;        /* changed since the last save */
};

/* The lines a parse dropped: how many, and the numbers (from 1) of the
 * first MEMORY_DROPPED_SHOWN. */
#define MEMORY_DROPPED_SHOWN 8
struct memory_dropped {
	int n;
	int line[MEMORY_DROPPED_SHOWN];
};

/* Parse the file's text line by line: a line that is malformed, names a
 * device an earlier line named, or comes past MEMORY_MAX devices is
 * dropped, the others kept (`m` is not marked dirty). Returns the number
 * of lines dropped; which, in *ret_dropped (may be NULL). */
int memory_parse(const char *text, struct memory *m, struct memory_dropped *ret_dropped);

/* "line 3", "lines 3 and 7", "lines 1, 2, ..., 8, ... (12 in all)". */
void memory_dropped_text(const struct memory_dropped *d, char *buf, size_t len);

/* Load `path` with the checks above, then memory_parse. 0 (also for a
 * missing file: empty, and with lines dropped: *ret_dropped says so);
 * -EPERM foreign-owned or writable by others, -EINVAL not a regular file,
 * a link or a NUL inside, -EFBIG too large, or the -errno of open/read.
 * `m` is empty on any error. */
int memory_load(const char *path, struct memory *m, struct memory_dropped *ret_dropped);

/* Write `m` atomically (the directory must exist and be ours). */
int memory_save(const char *path, struct memory *m);

/* The remembered bandwidth of `id`, 0 if none. */
uint64_t memory_get(const struct memory *m, const char *id, uint64_t *ret_when, char *ret_source);

/* Remember `bps` for `id` (source 'm', 'f' or 'l'): marks the memory dirty when
 * the figure is new or moved by more than 1/8, or its time is a day old. The
 * entry put longest ago makes room. */
void memory_put(struct memory *m, const char *id, uint64_t bps, char source, uint64_t now);

#endif
