/* wbgov.conf, as wbgovd, wbgov and wbsim --config read it */
#include "daemon/config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = size <= CONFIG_FILE_MAX ? fuzz_string(data, size) : NULL;
	struct gov_config c;
	char err[512];

	if (s) {
		config_parse_string("fuzz.conf", s, &c, err, sizeof(err));
		free(s);
	}
	return 0;
}
