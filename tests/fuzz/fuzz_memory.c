/* /var/lib/wbgov/devices: device memory */
#include "daemon/memory.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = size <= MEMORY_FILE_MAX ? fuzz_string(data, size) : NULL;
	static struct memory m;

	if (s) {
		memory_parse(s, &m);
		free(s);
	}
	return 0;
}
