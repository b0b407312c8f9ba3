/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knobs backend over the simulated kernel. */
#ifndef WBGOV_SIM_KNOBS_SIM_H
#define WBGOV_SIM_KNOBS_SIM_H

#include "knobs/knobs.h"
#include "sim/kernel.h"

extern const struct knobs_ops knobs_sim_ops;

/* The bdi name the simulated device `dev` has ("8:16", "259:0"). */
void knobs_sim_bdi_name(const struct sim_kernel *s, int dev, char *buf, size_t len);

#endif
