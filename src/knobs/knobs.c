/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "knobs/knobs.h"
#include "knobs/room.h"

int knobs_bdi_set(const struct knobs_ops *ops, void *ctx, const char *bdi, enum bdi_attr a,
		  uint64_t v)
{
	uint64_t cur;
	int r = ops->bdi_read(ctx, bdi, a, &cur);

	if (r)
		return r;
	if (cur == v)
		return 0;
	r = ops->bdi_write(ctx, bdi, a, v);
	return r ? r : 1;
}

static bool gone(int r) { return r == -ENOENT || r == -ENODEV; }

int knobs_bdi_restore(const struct knobs_ops *ops, void *ctx, const char *bdi,
		      uint64_t strict_limit, uint64_t max_ratio_fine, uint64_t min_ratio_fine,
		      enum bdi_attr *ret_attr)
{
	int r0 = min_ratio_fine == KNOBS_KEEP ? 0 :
						knobs_bdi_set(ops, ctx, bdi, BDI_MIN_RATIO_FINE, min_ratio_fine);
	int r1 = knobs_bdi_set(ops, ctx, bdi, BDI_MAX_RATIO_FINE, max_ratio_fine);
	int r2 = knobs_bdi_set(ops, ctx, bdi, BDI_STRICT_LIMIT, strict_limit);

	if (r0 < 0 && !gone(r0)) {
		*ret_attr = BDI_MIN_RATIO_FINE;
		return r0;
	}
	if (r1 < 0 && !gone(r1)) {
		*ret_attr = BDI_MAX_RATIO_FINE;
		return r1;
	}
	if (r2 < 0 && !gone(r2)) {
		*ret_attr = BDI_STRICT_LIMIT;
		return r2;
	}
	return 0;
}

int knobs_vm_set(const struct knobs_ops *ops, void *ctx, enum vm_knob k, uint64_t v)
{
	uint64_t cur;
	int r = ops->vm_read(ctx, k, &cur);

	if (r)
		return r;
	if (cur == v)
		return 0;
	r = ops->vm_write(ctx, k, v);
	return r ? r : 1;
}

int knobs_vm_restore(const struct knobs_ops *ops, void *ctx, const uint64_t vm[VM_KNOB_COUNT],
		     enum vm_knob *failed)
{
	static const enum vm_knob pairs[2][2] = {
		{ VM_DIRTY_BACKGROUND_BYTES, VM_DIRTY_BACKGROUND_RATIO },
		{ VM_DIRTY_BYTES, VM_DIRTY_RATIO },
	};
	int first = 0;

	for (int p = 0; p < 2; p++) {
		enum vm_knob k = vm[pairs[p][0]] ? pairs[p][0] : pairs[p][1];
		int r = knobs_vm_set(ops, ctx, k, vm[k]);
		if (r < 0 && !first) {
			first = r;
			if (failed)
				*failed = k;
		}
	}
	return first;
}

bool knobs_list_add(char *list, size_t size, const char *v)
{
	size_t used = 0, n = strlen(v);

	if (!n)
		return false;
	for (const char *p = knobs_list_next(list, size, NULL); p; p = knobs_list_next(list, size, p)) {
		if (!strcmp(p, v))
			return false;
		used = (size_t)(p - list) + strlen(p) + 1;
	}
	/* the value, its NUL and the empty one that ends the list */
	if (used + n + 2 > size)
		return false;
	memcpy(list + used, v, n + 1);
	list[used + n + 1] = 0;
	return true;
}

const char *knobs_list_next(const char *list, size_t size, const char *prev)
{
	const char *p = prev ? prev + strlen(prev) + 1 : list;

	return p < list + size && *p ? p : NULL;
}

int knobs_devices_all(const struct knobs_ops *ops, void *ctx, struct knobs_dev **buf, int *room,
		      bool *ret_partial)
{
	int n;

	*ret_partial = false;
	if (!room_for(buf, room, ROOM_FIRST, sizeof(**buf)))
		return -ENOMEM;
	for (;;) {
		/* a list that fills the room may have more */
		n = ops->devices(ctx, *buf, *room);
		if (n < *room)
			return n;
		if (!room_for(buf, room, *room + 1, sizeof(**buf))) {
			*ret_partial = true;
			return n;
		}
	}
}

int knobs_write_limits_all(const struct knobs_ops *ops, void *ctx, struct knobs_limit **buf,
			   int *room)
{
	int n;

	if (!ops->write_limits)
		return 0;
	if (!room_for(buf, room, ROOM_FIRST, sizeof(**buf)))
		return -ENOMEM;
	for (;;) {
		/* a list that fills the room may have more */
		n = ops->write_limits(ctx, *buf, *room);
		if (n < *room || !room_for(buf, room, *room + 1, sizeof(**buf)))
			return n;
	}
}
