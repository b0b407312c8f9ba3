/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v1's blkio.throttle.write_bps_device and v2's io.max, read each
 * second while data waits (iolimit_parse_v1, iolimit_parse_v2) */
#include "sys/iolimit.h"
#include "fuzz.h"

static struct knobs_limit l[8];

FUZZ_TEXT_TARGET(16384, {
	int n = 0;
	iolimit_parse_v1(s, l, &n, 8);
	iolimit_parse_v2(s, l, &n, 8);
	if (n < 0 || n > 8)
		abort();
})
