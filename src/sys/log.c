/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "sys/log.h"

static int max_level = LOG_INFO_;

void log_set_level(int level) { max_level = level; }

const char *log_escape(char *out, size_t len, const char *in)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!len)
		return out;
	for (const unsigned char *p = (const unsigned char *)in; *p && o + 1 < len; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			out[o++] = (char)*p;
			continue;
		}
		if (o + 5 > len)
			break;
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[*p >> 4];
		out[o++] = hex[*p & 15];
	}
	out[o] = 0;
	return out;
}

void log_msg(int level, const char *fmt, ...)
{
	char line[1024], clean[sizeof(line) * 2];
	va_list ap;

	if (level > max_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* what the line carries from the system (a loop's backing file, a
	 * model, a label, a mount point) may hold a newline and a "<0>": one
	 * line, whatever it says, at the level it was logged at */
	log_escape(clean, sizeof(clean), line);
	/* one write per line, so lines of concurrent writers do not mix */
	fprintf(stderr, "<%d>%s\n", level, clean);
}
