/* wbsim --param KEY=VALUE: sizes, speeds, durations, the key table */
#include "lab/lab.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct lab_params p;
	char want[96];

	if (s) {
		lab_params_init(&p);
		lab_param_set(&p, s, want, sizeof(want));
		free(s);
	}
	return 0;
}
