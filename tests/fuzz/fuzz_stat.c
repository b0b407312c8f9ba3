/* /sys/block/DISK/stat, each poll */
#include "sys/sysfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct knobs_stat st;

	if (s) {
		sysfs_parse_stat(s, &st);
		free(s);
	}
	return 0;
}
