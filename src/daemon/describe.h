/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A device's state and a bdi's knobs in words: the lines wbgovd logs,
 * which wbgov explain and the tests show too. Pure text from what the
 * governor holds: no I/O, no clock, nothing of the daemon's loop, so that
 * wbgov reaches it without the daemon. */
#ifndef WBGOV_DAEMON_DESCRIBE_H
#define WBGOV_DAEMON_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/bwmeter.h"
#include "policy/governor.h"

/* A device's bandwidth as a log line shows it: "5.1 MB/s", "at least
 * 40.0 MB/s", "not measured yet", "5.1 MB/s (remembered)". */
void fmt_bw(char *buf, size_t len, const struct bwmeter *m);

/* The line wbgovd logs for a device's decision, or what failed:
 * "sdb (SanDisk Cruzer, usb): 5.1 MB/s -> max_bytes 4.9 MiB, strict (...)".
 * True when it is a warning (an error). */
bool daemon_describe(const struct gov_dev *d, const char *state_path, char *buf, size_t len);

/* A bdi's knobs in words: "strict_limit 1 and max_bytes about 16.0 MiB
 * (max_ratio_fine 4877 ppm)", `verb` after the knob's name (" was");
 * max_bytes 0: not known. */
void daemon_knobs_text(const char *verb, uint64_t strict_limit, uint64_t max_ratio_fine,
		       uint64_t max_bytes, char *buf, size_t len);

#endif
