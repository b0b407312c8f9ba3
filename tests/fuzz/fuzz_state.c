/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /run/wbgov/state, which root writes back into the kernel (state_parse) */
#include "sys/state.h"
#include "fuzz.h"

static struct state st;

FUZZ_TEXT_TARGET(STATE_FILE_MAX, (state_parse(s, &st), state_free(&st)))
