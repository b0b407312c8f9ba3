/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Amounts written for people: see units.h. */
#include <stdio.h>

#include "model/units.h"

void bytes_text(char *buf, size_t len, uint64_t bytes, unsigned flags)
{
	if (bytes >= GIB)
		snprintf(buf, len, "%.1f GiB", (double)bytes / GIB);
	else if (bytes >= 10 * MIB && flags & BYTES_MIB_SHORT)
		snprintf(buf, len, "%.0f MiB", (double)bytes / MIB);
	else if (bytes >= MIB)
		snprintf(buf, len, "%.1f MiB", (double)bytes / MIB);
	else if (flags & BYTES_KIB_DOWN)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes / KIB));
	else
		snprintf(buf, len, "%.0f KiB", (double)bytes / KIB);
}
