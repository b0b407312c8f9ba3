/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /var/lib/wbgov/devices: device memory */
#include "daemon/memory.h"
#include "fuzz.h"

static struct memory m;

FUZZ_TEXT_TARGET(MEMORY_FILE_MAX, memory_parse(s, &m))
