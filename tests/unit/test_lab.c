/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a wbsim run reports beside its table: the gnuplot script of --plot
 * (on results built by hand, so each element is known to be wanted or not)
 * and the TSV of --series, and the series of real runs against their
 * measured columns. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lab/lab.h"
#include "lab/plot.h"
#include "lab/series.h"

/* Two policies on a stick (sdb) beside an SSD (sda) nothing is written to:
 * sdb dirty up to 12 MiB under a 16 MiB cap, never under writeback; the
 * main writer's sync called at 2 s and returned at 30 s (the first policy)
 * or at 2.01 s (the second), in a run of 40 s. */
static void fake(struct run_result *r, struct run_series *se, const char *policy, double done_s)
{
	memset(r, 0, sizeof(*r));
	memset(se, 0, sizeof(*se));
	snprintf(r->scenario, sizeof(r->scenario), "stick");
	snprintf(r->policy, sizeof(r->policy), "%s", policy);
	r->ndev = 2;
	snprintf(r->devname[0], sizeof(r->devname[0]), "sdb");
	snprintf(r->devname[1], sizeof(r->devname[1]), "sda");
	r->series = se;
	se->n = 5;
	for (uint32_t k = 0; k < se->n; k++) {
		se->t_s[k] = 10 * k;
		se->dirty_mib[0][k] = (float)(3 * k);
		se->thresh_mib[0][k] = 16;
		se->thresh_mib[1][k] = 400;
		se->written_mib[k] = (float)(10 * k);
		se->durable_mib[k] = (float)(5 * k);
		se->global_dirty_mib[k] = se->dirty_mib[0][k];
	}
	se->writer_dev = 0;
	se->end = END_SYNC;
	se->end_call_s = 2.0;
	se->end_done_s = done_s;
}

/* The script for `res` as a string (free it). */
static char *script(const char *file, const struct run_result *res, int n, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*ret = plot_script(f, file, res, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_plot_script(void **state)
{
	static struct run_series se[2];
	struct run_result res[2];
	char *s;
	int r;

	(void)state;
	fake(&res[0], &se[0], "slow", 30.0);
	fake(&res[1], &se[1], "quick", 2.01);
	s = script("out.svg", res, 2, &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(s, "set terminal svg"));
	assert_non_null(strstr(s, "set output 'out.svg'"));
	/* the idle SSD gets no panel, and the title says so: two rows of a
	 * stick panel and the writer's */
	assert_non_null(strstr(s, "set multiplot layout 2,2 title 'stick, simulated by wbsim (idle, not drawn: sda)'"));
	assert_null(strstr(s, ": sda'"));
	assert_non_null(strstr(s, "set title 'stick under slow: sdb'"));
	assert_non_null(strstr(s, "set title 'stick under quick: the copy to sdb'"));
	/* the stick's lines: dirty and its cap, not the writeback that is
	 * zero throughout */
	assert_int_equal(count(s, "title 'dirty'"), 2);
	assert_int_equal(count(s, "title 'wb_thresh (cap)'"), 2);
	assert_int_equal(count(s, "title 'writeback'"), 0);
	assert_int_equal(count(s, "title 'write() returned'"), 2);
	/* the stick's scale shows its 16 MiB cap above 12 MiB of dirty */
	assert_int_equal(count(s, "set yrange [0:18.400]"), 2);
	/* the sync: two lines and two labels where there is room, one label
	 * for a sync that returned at once */
	assert_int_equal(count(s, "set arrow from 2.000, graph 0 to 2.000, graph 1 nohead"), 2);
	assert_int_equal(count(s, "set arrow from 30.000, graph 0 to 30.000, graph 1 nohead"), 1);
	assert_int_equal(count(s, "set arrow from 2.010, graph 0 to 2.010, graph 1 nohead"), 1);
	assert_non_null(strstr(s, "set label 'sync() at 2.0 s' at 2.000, graph 0.95 left"));
	assert_non_null(strstr(s, "set label 'returned at 30.0 s' at 30.000, graph 0.95 right"));
	assert_non_null(strstr(s, "set label 'sync() at 2.0 s, returned 0.0 s later' at 2.000, graph 0.95"));
	assert_int_equal(count(s, "unset label"), 2);
	assert_non_null(strstr(s, "set xlabel 'simulated time (s)'"));
	assert_non_null(strstr(s, "set ylabel 'page cache (MiB)'"));
	free(s);

	/* a cap far above the data: the data's scale, the cap's height in
	 * its legend entry */
	for (uint32_t k = 0; k < se[0].n; k++)
		se[0].thresh_mib[0][k] = 3000;
	se[1].end = END_NONE;
	s = script("out.png", res, 2, &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(s, "set terminal pngcairo"));
	assert_non_null(strstr(s, "set yrange [0:13.800]"));
	assert_non_null(strstr(s, "title 'wb_thresh (cap) (to 3000)'"));
	assert_int_equal(count(s, "set arrow from"), 2); /* the second run has no sync */
	free(s);

	/* refused: another format, a result without a series */
	s = script("out.pdf", res, 2, &r);
	assert_int_equal(r, -EINVAL);
	free(s);
	res[1].series = NULL;
	s = script("out.svg", res, 2, &r);
	assert_int_equal(r, -EINVAL);
	free(s);
}

static void test_series_tsv(void **state)
{
	static struct run_series se[2];
	struct run_result res[2];
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f;

	(void)state;
	fake(&res[0], &se[0], "slow", 30.0);
	fake(&res[1], &se[1], "quick", 2.01);
	snprintf(res[0].devname[1], sizeof(res[0].devname[1]), "s\td");
	snprintf(res[1].devname[1], sizeof(res[1].devname[1]), "s\td");
	f = open_memstream(&buf, &len);
	assert_int_equal(series_write(f, res, 2), 0);
	fclose(f);
	line = strtok(buf, "\n");
	assert_string_equal(line, "policy\tt_s\tsdb_dirty_mib\tsdb_writeback_mib\tsdb_thresh_mib\t"
				  "s_d_dirty_mib\ts_d_writeback_mib\ts_d_thresh_mib\twritten_mib\t"
				  "durable_mib\tglobal_dirty_mib\tglobal_writeback_mib");
	line = strtok(NULL, "\n");
	assert_string_equal(line, "slow\t0.000\t0.000\t0.000\t16.000\t0.000\t0.000\t400.000\t"
				  "0.000\t0.000\t0.000\t0.000");
	for (int k = 1; k < 5; k++)
		assert_non_null(strtok(NULL, "\n"));
	line = strtok(NULL, "\n");
	assert_string_equal(line, "quick\t0.000\t0.000\t0.000\t16.000\t0.000\t0.000\t400.000\t"
				  "0.000\t0.000\t0.000\t0.000");
	for (int k = 1; k < 5; k++)
		assert_non_null(strtok(NULL, "\n"));
	assert_null(strtok(NULL, "\n"));
	free(buf);

	/* runs of different devices do not make one table: nothing written */
	snprintf(res[1].devname[1], sizeof(res[1].devname[1]), "nvme0n1");
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(series_write(f, res, 2), -EINVAL);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

/* Real runs: the series ends where the run did and agrees with what the
 * run measured every jiffy. */
static void test_series_of_runs(void **state)
{
	static const char *const pols[] = { "linux-64", "udev-16m" };
	struct lab_params p;

	(void)state;
	lab_params_init(&p);
	for (int i = 0; i < 2; i++) {
		struct run_result r;
		const struct run_series *se;
		double md = 0, mn = 0;

		assert_int_equal(lab_run("usb-iso", pols[i], &p, true, &r), 0);
		se = r.series;
		assert_non_null(se);
		assert_true(se->n > 100 && se->n <= SERIES_MAX);
		for (uint32_t k = 1; k < se->n; k++)
			assert_true(se->t_s[k] > se->t_s[k - 1]);
		for (uint32_t k = 0; k < se->n; k++) {
			double d = se->global_dirty_mib[k], w = se->global_writeback_mib[k];
			md = d + w > md ? d + w : md;
			mn = d > mn ? d : mn;
			/* the stick (sdb, device 0) is all that is written */
			assert_true(fabs(se->dirty_mib[0][k] - d) < 1e-3);
			assert_true(fabs(se->writeback_mib[0][k] - w) < 1e-3);
			if (i == 1)
				assert_true(se->thresh_mib[0][k] <= 16.0f);
		}
		/* a sample is never above the peak the run measured */
		assert_true(md <= r.val[COL_PEAK_DIRTY] + 1e-3);
		assert_true(mn <= r.val[COL_PEAK_NR_DIRTY] + 1e-3);
		if (i == 0) { /* smooth: the largest sample close to the peak */
			assert_true(md > r.val[COL_PEAK_DIRTY] - 16);
			assert_true(mn > r.val[COL_PEAK_NR_DIRTY] - 16);
		}
		/* the end: all written and durable; the sync as measured */
		assert_true(fabs(se->t_s[se->n - 1] - r.sim_seconds) < 1e-6);
		assert_true(fabs(se->written_mib[se->n - 1] - 4096) < 1e-3);
		assert_true(fabs(se->durable_mib[se->n - 1] - 4096) < 1e-3);
		assert_int_equal(se->end, END_SYNC);
		assert_int_equal(se->writer_dev, 0);
		assert_true(fabs(se->end_call_s - r.val[COL_WRITE_RETURN]) < 0.01);
		assert_true(fabs(se->end_done_s - se->end_call_s - r.val[COL_SYNC_AFTER]) < 1e-6);
		run_result_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_script),
		cmocka_unit_test(test_series_tsv),
		cmocka_unit_test(test_series_of_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
