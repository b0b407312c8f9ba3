/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf's and scenario files' reader: see ini.h. */
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/ini.h"

int ini_vfail(struct ini_text *t, const char *fmt, va_list ap)
{
	int n;

	if (t->failed)
		return 0;
	t->failed = true;
	if (t->line)
		n = snprintf(t->err, t->errlen, "%s:%d: ", t->name, t->line);
	else
		n = snprintf(t->err, t->errlen, "%s: ", t->name);
	if (n >= 0 && (size_t)n < t->errlen)
		vsnprintf(t->err + n, t->errlen - (size_t)n, fmt, ap);
	return 0;
}

int ini_fail(struct ini_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ini_vfail(t, fmt, ap);
	va_end(ap);
	return 0;
}

int ini_next_line(const char **text, char *buf, int num)
{
	const char *t = *text;
	size_t n = 0;

	if (!*t || num < 3)
		return 0;
	while (t[n] && t[n] != '\n' && n + 2 < (size_t)num)
		n++;
	if (t[n] == '\n')
		n++;
	memcpy(buf, t, n);
	buf[n] = 0;
	*text = t + n;
	return buf[n - 1] != '\n' && **text ? -1 : (int)n;
}

struct reading {
	struct ini_text *t;
	ini_line_fn line;
	void *user;
};

/* inih's ini_reader: one line per call. */
static char *reader(char *str, int num, void *stream)
{
	struct reading *r = stream;
	struct ini_text *t = r->t;
	const char *p = str;
	int n;

	if (t->failed || !(n = ini_next_line(&t->text, str, num)))
		return NULL;
	t->line++;
	if (n < 0) {
		ini_fail(t, "a line longer than %d characters", num - 2);
		return NULL;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[')
		t->header_line = t->line;
	return !r->line || r->line(r->user, str) ? str : NULL;
}

int ini_text_parse(struct ini_text *t, const char *text, ini_line_fn line, ini_key_fn key,
		   void *user, const char *syntax)
{
	struct reading r = { .t = t, .line = line, .user = user };
	int at;

	t->text = text;
	t->line = 0;
	t->header_line = 0;
	at = ini_parse_stream(reader, &r, key, user);
	if (at > 0 && !t->failed) { /* a syntax error inih found itself */
		t->line = at;
		ini_fail(t, "%s", syntax);
	}
	if (t->failed)
		return -EINVAL;
	if (at < 0) {
		t->line = 0;
		ini_fail(t, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
