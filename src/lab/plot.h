/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plots through gnuplot: per policy one row; in it a panel per device that
 * was written to under any policy (dirty, writeback and its wb_thresh, the
 * cap its writers are throttled against), then the main writer's progress
 * against what reached its device; the main writer's sync marked where it
 * was called and where it returned. Lines that are zero throughout are
 * left out, legends sit right of the data, all panels share the time axis.
 *
 * Each panel has its own linear y range, not a log scale: dirty memory
 * starts and ends at 0 and writeback falls to 0 between bursts, which a log
 * axis cannot draw, and a log axis squeezes 12 against 16 MiB under a cap
 * into a sliver; a panel per device shows a 16 MiB cap at full height
 * beside another device's gigabytes. */
#ifndef WBGOV_LAB_PLOT_H
#define WBGOV_LAB_PLOT_H

#include "sim/run.h"

/* `file` ends in .png or .svg (else -EINVAL). Every result must have a
 * series. 0, -ENOENT (no gnuplot), -EIO (gnuplot failed). */
int plot_write(const char *file, const struct run_result *res, int n);

/* Just the script, for tests and for users without gnuplot. */
int plot_script(FILE *f, const char *file, const struct run_result *res, int n);

#endif
