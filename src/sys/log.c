/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "sys/log.h"

static int max_level = LOG_INFO_;

void log_set_level(int level) { max_level = level; }

void log_msg(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > max_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write per line, so lines of concurrent writers do not mix */
	fprintf(stderr, "<%d>%s\n", level, line);
}
