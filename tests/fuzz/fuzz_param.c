/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbsim --param KEY=VALUE: sizes, speeds, durations, the key table
 * (lab_param_set) */
#include "lab/lab.h"
#include "fuzz.h"

static struct lab_params p;
static char want[96];

FUZZ_TEXT_TARGET(4096, (lab_params_init(&p), lab_param_set(&p, s, want, sizeof(want))))
