/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scenario files (docs/scenarios.md, wbsim-scenario(5)): text -> struct
 * scenario, and back in the canonical form. Every error names the file,
 * the line and the key and value, and says what is wanted; nothing is
 * guessed. */
#ifndef WBGOV_SIM_SCENFILE_H
#define WBGOV_SIM_SCENFILE_H

#include <stddef.h>
#include <stdio.h>

#include "sim/scenario.h"

/* Parse a scenario file's `text`. `filename` names it in messages and,
 * without its directory and ".scenario", is the scenario's name when the
 * file gives none. 0, or -EINVAL with "FILE:LINE: what is wrong" in
 * `err`, or -ENOMEM. */
int scenfile_parse(const char *filename, const char *text, struct scenario *ret, char *err,
		   size_t len);

/* Read the file at `path` (at most INI_TEXT_MAX bytes, model/ini.h) and
 * parse it. 0 or -errno with "PATH: what is wrong" in `err`. */
int scenfile_load(const char *path, struct scenario *ret, char *err, size_t len);

/* The built-in scenarios, scenarios/NAME.scenario compiled in (in `wbsim
 * list` order). */
struct scen_builtin {
	const char *name;
	const char *text;
};
extern const struct scen_builtin scen_builtins[];
extern const int scen_builtin_count;

/* The built-in scenario `name`. 0 or -ENOENT. */
int scenfile_builtin(const char *name, struct scenario *ret);

/* The built-in scenario `name` with `p` applied (scenario_apply). 0,
 * -ENOENT for an unknown name, -EINVAL for parameters that do not fit it. */
int scenfile_build(const char *name, const struct sim_params *p, struct scenario *ret);

/* Is `arg` a file's path (it has a '/' or ends in ".scenario") rather than
 * a built-in scenario's name? */
bool scenfile_is_path(const char *arg);

/* Append a knob write from the command line: "vm.KEY=VALUE" (--sysctl),
 * "DEV.ATTR=VALUE" (--knob), after the file's own. 0, or -EINVAL with what
 * is wrong in `err` (an unknown knob or device is named). */
int scenfile_add_sysctl(struct scenario *sc, const char *kv, char *err, size_t len);
int scenfile_add_knob(struct scenario *sc, const char *kv, char *err, size_t len);

/* "sdb.strict_limit = 1", "vm.dirty_bytes = 48M": the knob as a file line. */
void scenfile_knob_text(const struct scenario *sc, const struct scen_knob *k, char *buf,
			size_t len);

/* Write `sc` as a scenario file, in the canonical form: every key that
 * has a value, in the order of docs/scenarios.md; parsed back, it gives
 * `sc` again. 0, or -EIO when writing failed. */
int scenfile_write(FILE *f, const struct scenario *sc);

#endif
