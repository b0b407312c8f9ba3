/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer targets (tests/fuzz/fuzz_*.c): each feeds one parser of
 * wbgov's the bytes libFuzzer makes, as a NUL-terminated string, and lets
 * ASan and UBSan judge. `make fuzz` builds and runs them. */
#ifndef WBGOV_TESTS_FUZZ_H
#define WBGOV_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string, malloc'd (free it): what a file read gives. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = 0;
	}
	return s;
}

/* A target that hands the input, at most `max` bytes, to STMT as `s` (a
 * C string); longer inputs are skipped, as the reader refuses them. */
#define FUZZ_TEXT_TARGET(max, STMT)                                         \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)        \
	{                                                                   \
		char *s = size <= (max) ? fuzz_string(data, size) : NULL;   \
		if (s) {                                                    \
			STMT;                                               \
			free(s);                                            \
		}                                                           \
		return 0;                                                   \
	}

#endif
