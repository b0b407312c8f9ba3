/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks for table-driven unit tests: a table is an array of rows, each with
 * a `name`, walked by one loop. Each check is cmocka's own; when it fails, a
 * line naming the row and what it checked comes first, as cmocka's message
 * names only the loop's line. Include after <cmocka.h>. */
#ifndef WBGOV_TEST_ROWS_H
#define WBGOV_TEST_ROWS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* A column a row leaves unchecked: no case of the table has this value. */
#define ANY UINT64_MAX

/* the number of rows of a table */
#define ROWS(t) (sizeof(t) / sizeof((t)[0]))

/* Whole numbers as they were meant: an -errno as a negative number, every
 * other value unsigned. */
static inline void rows_print_int(const char *label, uintmax_t v)
{
	if ((intmax_t)v < 0 && (intmax_t)v >= -4095)
		print_error("%s %jd", label, (intmax_t)v);
	else
		print_error("%s %ju", label, v);
}

static inline void rows_say_int(const char *row, const char *what, uintmax_t got, uintmax_t want)
{
	print_error("row \"%s\": %s:", row, what);
	rows_print_int(" got", got);
	rows_print_int(", want", want);
	print_error("\n");
}

/* what: what the row checks, for the message */
#define row_int_named(row, what, got, want)                                                        \
	do {                                                                                       \
		const uintmax_t got_ = (uintmax_t)(got), want_ = (uintmax_t)(want);                \
		if (got_ != want_)                                                                 \
			rows_say_int((row)->name, what, got_, want_);                              \
		assert_int_equal(got_, want_);                                                     \
	} while (0)

#define row_int_equal(row, got, want) row_int_named(row, #got, got, want)

/* the same, unless the row has ANY in that column */
#define row_int_unless_any(row, got, want)                                                         \
	do {                                                                                       \
		if ((uint64_t)(want) != ANY)                                                       \
			row_int_equal(row, got, want);                                             \
	} while (0)

#define row_bool_named(row, what, got, want)                                                       \
	do {                                                                                       \
		const bool got_ = (got), want_ = (want);                                           \
		if (got_ != want_)                                                                 \
			print_error("row \"%s\": %s: got %s, want %s\n", (row)->name, what,        \
				    got_ ? "true" : "false", want_ ? "true" : "false");            \
		assert_true(got_ == want_);                                                        \
	} while (0)

#define row_bool_equal(row, got, want) row_bool_named(row, #got, got, want)

#define row_string_named(row, what, got, want)                                                     \
	do {                                                                                       \
		const char *got_ = (got), *want_ = (want);                                         \
		if (strcmp(got_, want_))                                                           \
			print_error("row \"%s\": %s: got \"%s\", want \"%s\"\n", (row)->name,     \
				    what, got_, want_);                                            \
		assert_string_equal(got_, want_);                                                  \
	} while (0)

#define row_string_equal(row, got, want) row_string_named(row, #got, got, want)

#endif
