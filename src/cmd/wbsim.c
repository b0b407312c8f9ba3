#include <stdio.h>
#include <string.h>
#include "lab/lab.h"
int main(int argc, char **argv)
{
	struct sim_params p = { 0 };
	struct scenario sc;
	struct run_result r;
	if (argc < 3) return 64;
	for (int i = 3; i < argc; i++) sim_param_set(&p, argv[i]);
	if (scenario_build(argv[1], &p, &sc)) return 64;
	int e = lab_run(argv[1], argv[2], &p, false, &r);
	if (e) { fprintf(stderr, "err %d\n", e); return 1; }
	printf("%s %s sim=%.1fs", r.scenario, r.policy, r.sim_seconds);
	for (int c = 0; c < COL_COUNT; c++) if (r.has[c]) printf(" %s=%.2f", run_col_names[c], r.val[c]);
	printf("\n");
	return 0;
}
