/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf, as wbgovd, wbgov and wbsim --config read it */
#include "daemon/config.h"
#include "fuzz.h"

static struct gov_config c;
static char err[512];

FUZZ_TEXT_TARGET(CONFIG_FILE_MAX, config_parse_string("fuzz.conf", s, &c, err, sizeof(err)))
