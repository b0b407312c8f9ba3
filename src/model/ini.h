/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ini reader of wbgov.conf and of scenario files: inih over text in
 * memory, one line at a time, each line counted (every message names one)
 * and a line too long for inih's buffer refused (inih would read it in
 * pieces, each taken for a line: a long comment ending in "ceiling = 8K"
 * would set it); the first error kept, as "FILE:LINE: what". Pure: the
 * caller reads the file, and says what its sections and keys mean. */
#ifndef WBGOV_MODEL_INI_H
#define WBGOV_MODEL_INI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* The largest file either reads, bytes: a hand-written file is far
 * smaller, and what is read is held whole. */
#define INI_TEXT_MAX (64 * 1024)
/* The longest line: inih's own line buffer (INI_MAX_LINE, 200) less
 * "\r\n". */
#define INI_LINE_MAX 198

struct ini_text {
	const char *name;  /* the file, for messages */
	char *err;         /* the first error */
	size_t errlen;
	int line;          /* the line read last; 0: the file as a whole */
	int header_line;   /* the last [section] header's line */
	bool failed;       /* err holds the first error */
	const char *text;  /* what is left to read */
};

/* Keep the first error: "NAME:LINE: what" into err, "NAME: what" at line
 * 0. Returns 0, what an inih handler returns for an error. */
int ini_fail(struct ini_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with the arguments as a va_list (a caller's own variadic). */
int ini_vfail(struct ini_text *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Each line as read, before inih parses it (a file's own rules on lines,
 * and sections without keys, of which inih says nothing): false stops the
 * reading, after an ini_fail. */
typedef bool (*ini_line_fn)(void *user, const char *line);
/* inih's handler: each key = value in its section; 0 after an ini_fail. */
typedef int (*ini_key_fn)(void *user, const char *section, const char *key, const char *val);

/* Parse `text` (up to its NUL) as the file t->name: `line` (may be NULL)
 * sees each line, `key` each key, until the first error. A line inih
 * cannot parse fails with `syntax`. 0, -EINVAL (t->err says what and
 * where) or -ENOMEM ("NAME: out of memory"). */
int ini_text_parse(struct ini_text *t, const char *text, ini_line_fn line, ini_key_fn key,
		   void *user, const char *syntax);

/* The reader's step: the next line of *text, newline kept, into buf (num
 * bytes, as inih gives), and *text past it. Its length; 0 at the end of
 * the text; -1 for a line longer than num - 2 characters. */
int ini_next_line(const char **text, char *buf, int num);

#endif
