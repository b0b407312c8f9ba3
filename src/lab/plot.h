/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plots through gnuplot: per policy one row, dirty and writeback per device
 * over time on the left, the writer's progress against the device's on the
 * right. */
#ifndef WBGOV_LAB_PLOT_H
#define WBGOV_LAB_PLOT_H

#include "sim/run.h"

/* `file` ends in .png or .svg (else -EINVAL). Every result must have a
 * series. 0, -ENOENT (no gnuplot), -EIO (gnuplot failed). */
int plot_write(const char *file, const struct run_result *res, int n);

/* Just the script, for tests and for users without gnuplot. */
int plot_script(FILE *f, const char *file, const struct run_result *res, int n);

#endif
