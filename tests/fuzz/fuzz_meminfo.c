/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/meminfo and debugfs' bdi stats: "KEY: N kB" lines
 * (procfs_parse_meminfo, text_kib) */
#include "sys/fsutil.h"
#include "sys/procfs.h"
#include "fuzz.h"

static uint64_t a, b;

FUZZ_TEXT_TARGET(65536, (procfs_parse_meminfo(s, &a, &b), text_kib(s, "BdiWriteback", &a)))
