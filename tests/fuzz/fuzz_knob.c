/* SPDX-License-Identifier: GPL-2.0-or-later */
/* a sysfs knob's value (strict_limit, max_bytes...), and a bdi name
 * (parse_u64, sysfs_bdi_name_ok) */
#include "sys/fsutil.h"
#include "sys/sysfs.h"
#include "fuzz.h"

static uint64_t v;

FUZZ_TEXT_TARGET(4096, (parse_u64(s, &v), sysfs_bdi_name_ok(s)))
