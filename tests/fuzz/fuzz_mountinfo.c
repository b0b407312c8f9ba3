/* SPDX-License-Identifier: GPL-2.0-or-later */
/* a line of /proc/self/mountinfo (mount points any user can name) */
#include "sys/procfs.h"
#include "fuzz.h"

static char mnt[PATH_MAX], src[PATH_MAX];

FUZZ_TEXT_TARGET(4095, procfs_parse_mountinfo_line(s, mnt, src))
