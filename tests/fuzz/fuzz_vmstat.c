/* /proc/vmstat, glanced at up to 50 times a second */
#include "sys/procfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct knobs_vmstat v;

	if (s) {
		procfs_parse_vmstat(s, 4096, &v);
		free(s);
	}
	return 0;
}
