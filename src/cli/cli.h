/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov's commands, one function each, over one context; the main in
 * src/cmd/wbgov.c parses options and calls them. Each returns the exit
 * status (sysexits.h; wbgov(8) lists them). */
#ifndef WBGOV_CLI_CLI_H
#define WBGOV_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cli/i18n.h"
#include "knobs/knobs.h"
#include "sys/knobs_real.h"
#include "sys/procfs.h"

/* The bdis of one disk a DEVICE or PATH names (its own, its fuseblk and
 * btrfs ones): a bound no disk comes near. How many disks there are has
 * none (cli_devices). */
#define MAXDEV 64

struct cli {
	const char *root;      /* /proc and /sys under this */
	const char *state_dir; /* wbgovd's */
	const char *config;
	bool json;
	bool prometheus;       /* status: the text exposition format */
	bool once;
	bool no_power_off;
	bool quiet;            /* cp: no progress, no final line */
	double interval;
	bool watching;         /* status as watch shows it: under its time */
	struct knobs_real *real; /* the machine, under root */
	const char *bus;       /* notify, status, watch, explain: where wbgovd is, as
				  bus_parse_kind reads it (NULL: the system bus; for status,
				  watch and explain only under root /; "none": no bus) */
	uint64_t threshold;    /* notify: data to write worth a notification */
};

int cli_status(const struct cli *o, FILE *f);
int cli_watch(const struct cli *o);
int cli_sync(const struct cli *o, const char *arg);
int cli_eject(const struct cli *o, const char *arg, bool power_off);
int cli_explain(const struct cli *o, const char *arg);
int cli_apply(const struct cli *o);
int cli_restore(const struct cli *o);
/* wbgov cp SRC... DEST: args[0..n-1] are the SRCs and DEST. */
int cli_cp(const struct cli *o, int n, char **args);
int cli_notify(const struct cli *o);

/* Set by cli_on_int (SIGINT, SIGTERM): watch and sync stop watching. */
extern volatile sig_atomic_t cli_interrupted;
void cli_on_int(int sig);

/* "wbgov: WHAT: ARG" on stderr, WHAT translated (a literal: xgettext
 * takes it from the call); EX_USAGE. */
int cli_bad(const char *what, const char *arg);
/* STATE_DIR/NAME */
void cli_path_in(char *buf, size_t len, const struct cli *o, const char *name);
/* Is wbgovd running with this state dir? (its pid file names a live wbgovd) */
bool cli_daemon_running(const struct cli *o);
/* --interval SECONDS (watch: 0.1 to 3600) and --threshold SIZE (notify:
 * above 0) into o: 0, or -EINVAL and o as it was. */
int cli_set_interval(struct cli *o, const char *arg);
int cli_set_threshold(struct cli *o, const char *arg);
/* "4.8 MiB/s" (amounts: bytes_text, model/units.h) */
void cli_human_rate(char *buf, size_t len, double bps);
/* "[########------------]  40 %, WHAT, 4.7 MiB/s, ETA 5 s, 3 s so far"
 * (no rate and ETA while rate_bps is 0): sync's, eject's and cp's line,
 * rewritten in place on a terminal (tty), else a line of its own. */
void cli_progress_line(FILE *f, bool tty, int pct, const char *what, double rate_bps,
		       double eta_s, double elapsed_s);
/* Dirty + writeback of one bdi, where the kernel tells (debugfs). */
int cli_bdi_pending(const struct cli *o, const char *bdi, uint64_t *ret);
/* Where a figure of data still to write came from (pending.c). */
enum pending_source { PENDING_NONE, PENDING_DEBUGFS, PENDING_WBGOVD };
/* ... as a JSON value: null, "debugfs", "wbgovd" */
extern const char *const cli_pending_key[];
struct cli_pending {
	enum pending_source source;
	uint64_t bytes;        /* dirty + writeback; 0 when not known */
	double drain_s;        /* wbgovd's DrainSeconds (-1: it does not know) */
};
/* Data still to write of each of the n bdis into out[]: debugfs's
 * counters where they can be read, else wbgovd's figures on the bus
 * (o->bus), asked once for all of them and waited for at most a second;
 * PENDING_NONE where neither tells. */
void cli_pending_fill(const struct cli *o, const char *const *bdi, struct cli_pending *out, int n);
/* Seconds to write p's data: wbgovd's own figure, or the bytes over
 * bw_bps as status_drain_s says; -1 when not known. */
double cli_pending_drain_s(const struct cli_pending *p, uint64_t bw_bps);
/* Is a bus asked at all: one named with --bus (not "none"), or the system
 * bus under root "/" (a fixture tree's devices are not the system's). */
bool cli_bus_default(const struct cli *o);

struct sd_bus;
/* The CLI's one way onto a bus, named as --bus names it (NULL: the
 * system bus), started without waiting: sd_bus_start only connects a
 * socket that does not block and queues the authentication and Hello.
 * 0, or -errno (-ENOMEDIUM for "none"). */
int cli_bus_open(const char *where, struct sd_bus **ret);
/* Where a bandwidth figure came from (enum bw_source). */
const char *cli_source_text(int source);
/* What a bdi is for JSON's "kind": "disk", or "share" (a network or FUSE
 * file system's, with no disk: knobs_dev.is_share). */
const char *cli_kind_key(const struct knobs_dev *d);
/* JSON values for the commands' --json (jansson; NULL when out of
 * memory, which json_pack's "o" turns into a failure of the whole):
 * a string, valid UTF-8 whatever `s` holds (U+FFFD for a byte that is
 * not), or null when it is empty; a number, or null when !have; the mount
 * points of `ml`. */
json_t *cli_json_text(const char *s);
json_t *cli_json_text_or_null(const char *s);
json_t *cli_json_u64(bool have, uint64_t v);
json_t *cli_json_real(bool have, double v, int decimals);
json_t *cli_json_mounts(const struct mount_list *ml);
/* An errno value (either sign) as C spells it, "Invalid argument", for JSON:
 * strerror follows LC_MESSAGES, which wbgov sets for its messages. */
json_t *cli_json_errno(int err);
/* Numbers as people write them: 15 significant digits (a rounded figure
 * prints as its decimals), integers as integers. */
#define CLI_JSON_FLAGS JSON_REAL_PRECISION(15)
/* Print doc (taken: freed) on f, then a newline: indented, or on one
 * line (a JSON Lines stream: watch, cp). 0, -ENOMEM (doc is NULL) or
 * -EIO. */
int cli_json_print(FILE *f, json_t *doc, bool one_line);
/* `s` fit for a terminal: invalid UTF-8 and control characters as '?'. */
const char *cli_tty_clean(char *buf, size_t len, const char *s);
/* The columns s takes on a terminal under LC_CTYPE (a byte a column where
 * it is not of the locale's charset). */
int cli_text_width(const char *s);
/* s on f, padded with spaces to width columns on the right (left-aligned)
 * or on the left (right: right-aligned). */
void cli_put_padded(FILE *f, const char *s, int width, bool right);
/* Sync `mounts` (every file system when it is empty or cut) in a child
 * while showing what is left of the data of `devs` (the system's when nd is
 * 0) with its rate and ETA; "durable" when it is. `cmd` names the command
 * in messages. 0, EX_IOERR (the child said why) or 130 (cli_interrupted:
 * the writing goes on). */
int cli_sync_watch(const struct cli *o, struct knobs_dev *devs, int nd,
		   const struct mount_list *mounts, const char *cmd);
/* Every bdi there, into *buf (room for *room, grown as needed and kept
 * by the caller for the next call): how many, or -errno (-ENOMEM). */
int cli_devices(const struct cli *o, struct knobs_dev **buf, int *room);
/* The share `arg` names, as text alone (nothing on the share is looked
 * at: a hard mount whose server is gone never answers): one of its mount
 * points, and with CLI_SHARE_NAME its bdi or its name, with CLI_SHARE_PATH
 * a path under a mount point of a share (made absolute and rid of "." and
 * ".." as text; the deepest mount above it must be the share's). 0 and
 * *ret, or -ENOENT. */
#define CLI_SHARE_NAME 1u
#define CLI_SHARE_PATH 2u
int cli_share_of(const struct cli *o, const char *arg, unsigned how, struct knobs_dev *ret);
/* The bdis a DEVICE or PATH argument names, at most max; -ENODEV. */
int cli_resolve(const struct cli *o, const char *arg, struct knobs_dev *out, int max);

#endif
