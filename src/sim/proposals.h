/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seeds' proposals as simulator policies: a change to the kernel, a set
 * of knob writes at start, or (wbgov) a governor driving the knobs. */
#ifndef WBGOV_SIM_PROPOSALS_H
#define WBGOV_SIM_PROPOSALS_H

#include "sim/scenario.h"

struct proposal {
	const char *name;
	const char *from;     /* who proposed it */
	const char *rule;
	bool governor;        /* needs the wbgov controller */
};

extern const struct proposal proposals[];
extern const int proposal_count;

const struct proposal *proposal_find(const char *name);
/* The kernel this policy runs: word size, cap_1g, per-file, time-N, ... */
void proposal_kernel(const struct proposal *pr, const struct sim_params *p,
		     struct sim_kernel_cfg *kc);
/* Knob writes made when the machine starts (bytes, udev rules). 0 or -errno. */
int proposal_start(const struct proposal *pr, struct sim_kernel *s);

#endif
