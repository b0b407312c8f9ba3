/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arrays that grow with the machine: the devices the governor holds, and
 * what the daemon and wbgov keep per device. No fixed limit on how many;
 * memory that runs out is the caller's to report (the device is left
 * alone), never a crash. */
#ifndef WBGOV_KNOBS_ROOM_H
#define WBGOV_KNOBS_ROOM_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Room for this many at first; doubled as more come. */
#define ROOM_FIRST 32

/* Room for `want` elements of `size` in the array *arrp points to (a
 * `T **`), which has room for *have: grown (doubled) when short. False
 * when memory is short, the array and *have as they were. The pointer is
 * read and written with memcpy: a `T **` is no `void **`. */
static inline bool room_for(void *arrp, int *have, int want, size_t size)
{
	int n = *have ? *have : ROOM_FIRST;
	void *old, *p;

	if (want <= *have)
		return true;
	if (want > INT_MAX / 2)
		return false;
	while (n < want)
		n *= 2;
	memcpy(&old, arrp, sizeof(old));
	p = reallocarray(old, (size_t)n, size);
	if (!p)
		return false;
	memcpy(arrp, &p, sizeof(p));
	*have = n;
	return true;
}

#endif
