/* /run/wbgov/state, which root writes back into the kernel */
#include "sys/state.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = size <= STATE_FILE_MAX ? fuzz_string(data, size) : NULL;
	static struct state st;

	if (s) {
		state_parse(s, &st);
		free(s);
	}
	return 0;
}
