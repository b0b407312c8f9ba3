/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scenario file, as wbsim run FILE reads it; what parses must come back
 * the same from its canonical form (wbsim show), or the target aborts
 * (scenfile_parse, scenfile_write) */
#include <stdio.h>

#include "model/ini.h"
#include "sim/scenfile.h"
#include "fuzz.h"

static struct scenario a, b;
static char err[512];

static void round_trip(const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (scenfile_parse("fuzz.scenario", text, &a, err, sizeof(err)))
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	if (scenfile_write(f, &a) || fclose(f))
		abort();
	if (scenfile_parse("fuzz.scenario", buf, &b, err, sizeof(err))) {
		fprintf(stderr, "the canonical form does not parse: %s\n%s", err, buf);
		abort();
	}
	if (memcmp(&a, &b, sizeof(a))) {
		fprintf(stderr, "the canonical form parses to another scenario:\n%s", buf);
		abort();
	}
	free(buf);
}

FUZZ_TEXT_TARGET(INI_TEXT_MAX, round_trip(s))
