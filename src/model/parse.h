/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human units for the command line and the config file: sizes, speeds,
 * durations. Pure. */
#ifndef WBGOV_MODEL_PARSE_H
#define WBGOV_MODEL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Sizes take K/M/G/T (binary, optional "iB" or "B"); speeds take k/M/G
 * (decimal, optional "B/s"; a bare number is MB/s); durations are seconds
 * with up to three decimals and an optional "s", or "ms". 0 or -EINVAL. */
int parse_size(const char *s, uint64_t *ret);
int parse_speed(const char *s, uint64_t *ret);
int parse_ms(const char *s, uint64_t *ret);

/* The same, and within [min, max] (bytes; milliseconds): 0, -EINVAL for
 * what is not a size or a duration, -ERANGE for one out of range. *ret is
 * written only on success, so that a setting's place can be given. */
int parse_size_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret);
int parse_ms_in(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

#endif
