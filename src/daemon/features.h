/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What of wbgovd's features is in force, and how: each part says so as it
 * starts (confine.c, watch.c, memory.c, metrics.c, bus.c), wbgovd logs a
 * line a feature once started, and the status file, the bus and `wbgov
 * status` show the same. A feature that a service manager's sandbox
 * refused (wbgovd.service's settings) is a warning that names the setting:
 * a unit can turn a feature off, but not without a word. */
#ifndef WBGOV_DAEMON_FEATURES_H
#define WBGOV_DAEMON_FEATURES_H

#include <stdbool.h>
#include <stdio.h>

enum feature {
	FEATURE_KNOBS,        /* the knobs writable */
	FEATURE_DEBUGFS,      /* each device's own dirty and writeback data */
	FEATURE_WAKEUP,       /* before 6.2: a slow device's first write wakes the loop */
	FEATURE_UEVENTS,      /* devices coming and going, told by the kernel */
	FEATURE_LABELS,       /* file system labels and UUIDs, for [device] sections */
	FEATURE_MEMORY,       /* device memory */
	FEATURE_METRICS,      /* the metrics file */
	FEATURE_BUS,          /* D-Bus */
	FEATURE_LANDLOCK,     /* writes confined */
	FEATURE_SECCOMP,      /* a system call filter over wbgovd (its unit's) */
	FEATURE_CAPABILITIES, /* what wbgovd keeps of root's capabilities */
	FEATURE_COUNT
};

enum feature_state {
	FEATURE_UNSAID,     /* not found yet */
	FEATURE_ON,         /* in force */
	FEATURE_NOT_NEEDED, /* not needed here */
	FEATURE_OFF,        /* off: not asked for, or not to be had here */
	FEATURE_REFUSED,    /* refused by a service manager's setting (refused_by) */
};

#define FEATURE_HOW_MAX 320

struct feature_report {
	enum feature_state state;
	char how[FEATURE_HOW_MAX];
	char refused_by[48]; /* "SystemCallFilter=", ...; "" */
};

struct features {
	struct feature_report f[FEATURE_COUNT];
	bool logged; /* the start's lines said: a change is said as it comes */
	bool changed; /* since the status file was last written */
};

/* "debugfs", "write-wakeup", ... and "on", "not-needed", "off", "refused":
 * the names the log, the status file, JSON and D-Bus use. */
const char *feature_name(enum feature f);
const char *feature_state_name(enum feature_state s);

/* What a part found: its state, `refused_by` (NULL or "" unless REFUSED:
 * the unit setting), and how, printf-style. Once the start's lines are
 * said, a change is logged as it comes: a refusal as a warning, the rest
 * at debug priority (the part logs what happened in its own words). */
void feature_set(struct features *fs, enum feature f, enum feature_state s,
		 const char *refused_by, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* What refused a call that failed with -errno `err` where CAP_SYS_ADMIN
 * (or no capability: `cap` false) was needed: under a service manager
 * (INVOCATION_ID) the unit setting, "CapabilityBoundingSet=" when the
 * capability is not in the bounding set, "SystemCallFilter=" for EPERM
 * with it there, "RestrictAddressFamilies=" for EAFNOSUPPORT,
 * "ReadWritePaths=" for EROFS; elsewhere the same in words ("a seccomp
 * filter"); NULL when no sandbox explains the error. */
const char *feature_refused_by(int err, bool cap);

/* Every feature's line, once (at the end of the start). */
void features_log(struct features *fs);

/* The status file's lines, `feature=NAME state=STATE refused_by=SETTING
 * how=TEXT` (how to the end of the line), and back: `line` parsed into
 * *ret_f and *ret, true when it is such a line. */
void features_write(FILE *f, const struct features *fs);
bool features_parse_line(const char *line, enum feature *ret_f, struct feature_report *ret);

#endif
