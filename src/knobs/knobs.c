#include "knobs/knobs.h"

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
