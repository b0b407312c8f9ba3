/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which of wbgovd's features is in force (features.h): the record each
 * part fills, its lines in the log and in the status file, and which unit
 * setting refused a call. Nothing here finds a feature: the parts do. */
#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/features.h"
#include "sys/log.h"
#include "sys/sandbox.h"

static const char *const names[FEATURE_COUNT] = {
	[FEATURE_KNOBS] = "knobs",
	[FEATURE_DEBUGFS] = "debugfs",
	[FEATURE_WAKEUP] = "write-wakeup",
	[FEATURE_UEVENTS] = "uevents",
	[FEATURE_LABELS] = "fs-labels",
	[FEATURE_MEMORY] = "device-memory",
	[FEATURE_METRICS] = "metrics",
	[FEATURE_BUS] = "bus",
	[FEATURE_LANDLOCK] = "landlock",
	[FEATURE_SECCOMP] = "seccomp",
	[FEATURE_CAPABILITIES] = "capabilities",
};

static const char *const state_names[] = {
	[FEATURE_UNSAID] = "unknown", [FEATURE_ON] = "on", [FEATURE_NOT_NEEDED] = "not-needed",
	[FEATURE_OFF] = "off",        [FEATURE_REFUSED] = "refused",
};

const char *feature_name(enum feature f)
{
	return (unsigned)f < FEATURE_COUNT ? names[f] : "?";
}

const char *feature_state_name(enum feature_state s)
{
	return (unsigned)s <= FEATURE_REFUSED ? state_names[s] : "?";
}

static void log_one(enum feature f, const struct feature_report *r)
{
	if (r->state == FEATURE_REFUSED)
		log_warn("feature %s refused by %s: %s", names[f], r->refused_by, r->how);
	else
		log_info("feature %s %s: %s", names[f], state_names[r->state], r->how);
}

void feature_set(struct features *fs, enum feature f, enum feature_state s,
		 const char *refused_by, const char *fmt, ...)
{
	struct feature_report *r, was;
	va_list ap;

	if ((unsigned)f >= FEATURE_COUNT)
		return;
	r = &fs->f[f];
	was = *r;
	r->state = s;
	snprintf(r->refused_by, sizeof(r->refused_by), "%s",
		 s == FEATURE_REFUSED && refused_by ? refused_by : "");
	va_start(ap, fmt);
	vsnprintf(r->how, sizeof(r->how), fmt, ap);
	va_end(ap);
	/* after the start's lines, the part says what happened in its own
	 * words (the bus its loss, say): the feature's new line is for -v,
	 * but for a refusal, which is never said only there */
	if (was.state != r->state || strcmp(was.how, r->how))
		fs->changed = true;
	if (fs->logged && (was.state != r->state || strcmp(was.how, r->how))) {
		if (r->state == FEATURE_REFUSED && was.state != FEATURE_REFUSED)
			log_one(f, r);
		else
			log_debug("feature %s %s: %s", names[f], state_names[r->state], r->how);
	}
}

const char *feature_refused_by(int err, bool cap)
{
	uint64_t eff, prm, bnd;
	/* systemd sets it for every unit it starts: under a unit, the
	 * setting is named (wbgovd is no set-uid program: secure_getenv all
	 * the same) */
	bool unit = secure_getenv("INVOCATION_ID") != NULL;

	err = err < 0 ? -err : err;
	if (err == EAFNOSUPPORT)
		return unit ? "RestrictAddressFamilies=" : "an address family filter";
	if (err == EROFS)
		return unit ? "ReadWritePaths=" : "a read-only mount";
	if (err != EPERM && err != EACCES)
		return NULL;
	if (cap && sandbox_caps(&eff, &prm, &bnd) == 0) {
		if (!(bnd & (1ULL << CAP_SYS_ADMIN)))
			return unit ? "CapabilityBoundingSet=" : "the capability bounding set";
		if (!(prm & (1ULL << CAP_SYS_ADMIN)))
			return unit ? "User=" : "a user without CAP_SYS_ADMIN";
	}
	/* with the capability there, a call that root may make and that is
	 * refused: a seccomp filter (sandbox_seccomp_filters() tells where
	 * the kernel says so) */
	return unit ? "SystemCallFilter=" : "a seccomp filter";
}

void features_log(struct features *fs)
{
	for (int f = 0; f < FEATURE_COUNT; f++)
		if (fs->f[f].state != FEATURE_UNSAID)
			log_one((enum feature)f, &fs->f[f]);
	fs->logged = true;
}

void features_write(FILE *f, const struct features *fs)
{
	for (int i = 0; i < FEATURE_COUNT; i++) {
		const struct feature_report *r = &fs->f[i];
		char how[FEATURE_HOW_MAX * 4];

		if (r->state == FEATURE_UNSAID)
			continue;
		fprintf(f, "feature=%s state=%s refused_by=%s how=%s\n", names[i],
			state_names[r->state], r->refused_by[0] ? r->refused_by : "-",
			log_escape(how, sizeof(how), r->how));
	}
}

bool features_parse_line(const char *line, enum feature *ret_f, struct feature_report *ret)
{
	char name[32], state[32], by[sizeof(ret->refused_by)];
	int how = 0, f = -1, s = -1;

	if (sscanf(line, "feature=%31s state=%31s refused_by=%47s how=%n", name, state, by, &how) != 3 ||
	    !how)
		return false;
	for (int i = 0; i < FEATURE_COUNT; i++)
		if (!strcmp(name, names[i]))
			f = i;
	for (int i = FEATURE_ON; i <= FEATURE_REFUSED; i++)
		if (!strcmp(state, state_names[i]))
			s = i;
	if (f < 0 || s < 0)
		return false;
	*ret_f = (enum feature)f;
	memset(ret, 0, sizeof(*ret));
	ret->state = (enum feature_state)s;
	snprintf(ret->refused_by, sizeof(ret->refused_by), "%s", strcmp(by, "-") ? by : "");
	snprintf(ret->how, sizeof(ret->how), "%.*s", (int)strcspn(line + how, "\n"), line + how);
	return true;
}
