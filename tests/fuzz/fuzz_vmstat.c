/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/vmstat, glanced at up to 50 times a second (procfs_parse_vmstat) */
#include "sys/procfs.h"
#include "fuzz.h"

static struct knobs_vmstat v;

FUZZ_TEXT_TARGET(65536, procfs_parse_vmstat(s, 4096, &v))
