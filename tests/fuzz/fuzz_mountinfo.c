/* a line of /proc/self/mountinfo (mount points any user can name) */
#include "sys/procfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = size < 4096 ? fuzz_string(data, size) : NULL;
	static char mnt[PATH_MAX], src[PATH_MAX];

	if (s) {
		procfs_parse_mountinfo_line(s, mnt, src);
		free(s);
	}
	return 0;
}
