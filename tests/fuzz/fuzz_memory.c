/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /var/lib/wbgov/devices: device memory, line by line (memory_parse,
 * memory_dropped_text) */
#include "daemon/memory.h"
#include "fuzz.h"

static struct memory m;
static struct memory_dropped d;
static char text[160];

/* every line kept or dropped, and what the log would say of the dropped */
FUZZ_TEXT_TARGET(MEMORY_FILE_MAX,
		 if (memory_parse(s, &m, &d)) memory_dropped_text(&d, text, sizeof(text)))
