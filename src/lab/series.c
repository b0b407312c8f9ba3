/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "lab/series.h"

/* A device's name in a column name: what is not [A-Za-z0-9._-] becomes
 * '_', so that no name breaks the TSV (a tab) or a tool's column syntax. */
static void dev_column(FILE *f, const char *dev, const char *what)
{
	fputc('\t', f);
	for (; *dev; dev++) {
		char c = *dev;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '.' || c == '_' || c == '-';
		fputc(ok ? c : '_', f);
	}
	fprintf(f, "_%s", what);
}

int series_write(FILE *f, const struct run_result *res, int n)
{
	for (int i = 0; i < n; i++) {
		if (!res[i].series || res[i].ndev != res[0].ndev)
			return -EINVAL;
		for (int d = 0; d < res[i].ndev; d++)
			if (strcmp(res[i].devname[d], res[0].devname[d]))
				return -EINVAL;
	}
	fputs("policy\tt_s", f);
	for (int d = 0; n && d < res[0].ndev; d++) {
		dev_column(f, res[0].devname[d], "dirty_mib");
		dev_column(f, res[0].devname[d], "writeback_mib");
		dev_column(f, res[0].devname[d], "thresh_mib");
	}
	fputs("\twritten_mib\tdurable_mib\tglobal_dirty_mib\tglobal_writeback_mib\n", f);
	for (int i = 0; i < n; i++) {
		const struct run_series *se = res[i].series;

		/* MiB to three decimals: 1 KiB, finer than a page */
		for (uint32_t k = 0; k < se->n; k++) {
			fprintf(f, "%s\t%.3f", res[i].policy, se->t_s[k]);
			for (int d = 0; d < res[i].ndev; d++)
				fprintf(f, "\t%.3f\t%.3f\t%.3f", (double)se->dirty_mib[d][k],
					(double)se->writeback_mib[d][k], (double)se->thresh_mib[d][k]);
			fprintf(f, "\t%.3f\t%.3f\t%.3f\t%.3f\n", (double)se->written_mib[k],
				(double)se->durable_mib[k], (double)se->global_dirty_mib[k],
				(double)se->global_writeback_mib[k]);
		}
	}
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}
