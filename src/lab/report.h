/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbsim's results as a table, CSV or JSON, and the verdict that says where a
 * policy loses. Output is deterministic: fixed decimals, fixed order. */
#ifndef WBGOV_LAB_REPORT_H
#define WBGOV_LAB_REPORT_H

#include <stdio.h>

#include "sim/run.h"

enum report_format { FMT_TABLE, FMT_CSV, FMT_JSON };

/* "table", "csv", "json" -> 0 and *ret, else -EINVAL. */
int report_format_parse(const char *s, enum report_format *ret);

/* Where `r` loses, as comma-separated tags ("" when it does not), judged
 * against the stock kernel's run `base` of the same scenario (may be NULL). */
void report_verdict(const struct run_result *r, const struct run_result *base, char *buf,
		    size_t len);

/* Print `n` results. `base[i]` is the linux-64 run of result i's scenario or
 * NULL. Returns 0 or -errno from the stream. */
int report_print(FILE *f, enum report_format fmt, const struct run_result *res,
		 const struct run_result *const *base, int n);

#endif
