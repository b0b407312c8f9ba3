/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf, as wbgovd, wbgov and wbsim --config read it, warnings (a
 * quoted value, a glob that never matches) included
 * (conffile_parse_string_notes) */
#include "sys/conffile.h"
#include "model/ini.h"
#include "fuzz.h"

static struct gov_config c;
static char err[512];

static void ignore(void *ctx, enum config_note level, const char *msg)
{
	(void)ctx;
	(void)level;
	(void)msg;
}

FUZZ_TEXT_TARGET(INI_TEXT_MAX,
		 conffile_parse_string_notes("fuzz.conf", s, &c, err, sizeof(err), ignore, NULL))
