/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The columns a text takes on a terminal, so that tables and labels line
 * up in every language: a translated header or label may be longer than
 * the English one, or hold letters of more than one byte (GERÄT). */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cli/cli.h"

int cli_text_width(const char *s)
{
	mbstate_t st;
	int w = 0;

	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t c;
		size_t n = mbrtowc(&c, s, MB_CUR_MAX, &st);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* not of this locale's charset (LC_CTYPE C): a column a
			 * byte, as before there were locales */
			memset(&st, 0, sizeof(st));
			s++;
			w++;
			continue;
		}
		cw = wcwidth(c);
		w += cw < 0 ? 1 : cw;
		s += n;
	}
	return w;
}

void cli_put_padded(FILE *f, const char *s, int width, bool right)
{
	int pad = width - cli_text_width(s);

	if (right)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
	fputs(s, f);
	if (!right)
		fprintf(f, "%*s", pad > 0 ? pad : 0, "");
}
