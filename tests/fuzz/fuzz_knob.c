/* a sysfs knob's value (strict_limit, max_bytes...), and a bdi name */
#include "sys/fsutil.h"
#include "sys/sysfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	uint64_t v;

	if (s) {
		parse_u64(s, &v);
		sysfs_bdi_name_ok(s);
		free(s);
	}
	return 0;
}
