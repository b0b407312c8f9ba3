/* /proc/meminfo and debugfs' bdi stats: "KEY: N kB" lines */
#include "sys/fsutil.h"
#include "sys/procfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	uint64_t a, b;

	if (s) {
		procfs_parse_meminfo(s, &a, &b);
		text_kib(s, "BdiWriteback", &a);
		free(s);
	}
	return 0;
}
