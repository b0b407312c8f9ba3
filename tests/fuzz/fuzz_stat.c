/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /sys/block/DISK/stat, each poll (sysfs_parse_stat) */
#include "sys/sysfs.h"
#include "fuzz.h"

static struct knobs_stat st;

FUZZ_TEXT_TARGET(4096, sysfs_parse_stat(s, &st))
