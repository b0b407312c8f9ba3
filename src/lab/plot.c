/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/plot.h"

static const char *ext(const char *file)
{
	const char *dot = strrchr(file, '.');
	return dot ? dot + 1 : "";
}

/* gnuplot strings are single-quoted; a quote inside is doubled. */
static void quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static bool nonzero(const float *v, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (v[k] != 0)
			return true;
	return false;
}

static double max_of(const float *v, uint32_t n)
{
	double m = 0;

	for (uint32_t k = 0; k < n; k++)
		if (v[k] > m)
			m = v[k];
	return m;
}

/* One line of a panel: a column of the data block, its legend entry, its
 * look, and the samples behind it (to leave an all-zero line out). */
struct line {
	int col;
	const char *title;
	const char *style;
	const float *v;
	bool cap; /* the wb threshold, not data */
};

/* A label in the band above the data (panel() leaves the top eighth of
 * every panel free), beside x: left of it when `left`, else right. */
static void label(FILE *f, const char *text, double x, bool left)
{
	fputs("set label ", f);
	quoted(f, text);
	fprintf(f, " at %.3f, graph 0.95 %s offset %s,0 front\n", x, left ? "right" : "left",
		left ? "-0.6" : "0.6");
}

/* The panels' geometry, for placing labels: a column's width in pixels and
 * how much of it the data gets (the fixed margins below, in characters of
 * about 7 pixels at the 10 pt font). */
#define COL_PX 680
#define MARGIN_L 10
#define MARGIN_R 24
#define DATA_PX (COL_PX - 7 * (MARGIN_L + MARGIN_R))

/* The sync (or fsync) that ends the main writer's copy: a dotted vertical
 * line where it was called and one where it returned, each labelled
 * between the two; one label when they are too close for two. */
static void markers(FILE *f, const struct run_series *se, double xmax)
{
	const char *what = se->end == END_FSYNC ? "fsync()" : "sync()";
	char text[96];

	fputs("unset arrow\nunset label\n", f);
	if (se->end == END_NONE)
		return;
	for (int k = 0; k < 2; k++) {
		double x = k ? se->end_done_s : se->end_call_s;
		fprintf(f, "set arrow from %.3f, graph 0 to %.3f, graph 1 nohead front "
			   "lc rgb '#444444' dt 3 lw 1.5\n", x, x);
	}
	{
		char ret[64];
		/* the two labels face each other between the lines where they
		 * fit; else one label, on the side with room */
		double gap_px = (se->end_done_s - se->end_call_s) / xmax * DATA_PX;
		int len;

		len = snprintf(text, sizeof(text), "%s at %.1f s", what, se->end_call_s);
		len += snprintf(ret, sizeof(ret), "returned at %.1f s", se->end_done_s);
		if (gap_px > 7.0 * (len + 4)) {
			label(f, text, se->end_call_s, false);
			label(f, ret, se->end_done_s, true);
			return;
		}
	}
	snprintf(text, sizeof(text), "%s at %.1f s, returned %.1f s later", what, se->end_call_s,
		 se->end_done_s - se->end_call_s);
	label(f, text, se->end_call_s, se->end_call_s > 0.5 * xmax);
}

/* One panel: the lines that are not zero throughout, on 0 to 15 % above
 * the highest of them (room for the markers' labels). A cap more than
 * three times above the data (a stick under the kernel's defaults, allowed
 * gigabytes, holding 200 MiB) would squash the data into the bottom of the
 * panel: the scale is the data's then, and the cap's legend entry says how
 * high it went. */
static void panel(FILE *f, int blk, const char *title, const char *ylabel, const struct line *ls,
		  int nl, uint32_t npts)
{
	double data = 0, cap = 0, ymax;
	char capped[64] = "";
	int shown = 0;

	for (int l = 0; l < nl; l++) {
		double m = max_of(ls[l].v, npts);
		if (ls[l].cap)
			cap = m > cap ? m : cap;
		else
			data = m > data ? m : data;
	}
	ymax = data > cap ? data : cap;
	if (data > 0 && cap > 3 * data) {
		ymax = data;
		snprintf(capped, sizeof(capped), " (to %.0f)", cap);
	}
	fputs("set title ", f);
	quoted(f, title);
	fputs("\nset ylabel ", f);
	quoted(f, ylabel);
	fprintf(f, "\nset yrange [0:%.3f]\nplot ", ymax > 0 ? ymax * 1.15 : 1.0);
	for (int l = 0; l < nl; l++) {
		char t[128];

		if (!nonzero(ls[l].v, npts))
			continue;
		fprintf(f, "%s$d%d using 1:%d with lines %s title ", shown++ ? ", " : "", blk,
			ls[l].col, ls[l].style);
		snprintf(t, sizeof(t), "%s%s", ls[l].title, ls[l].cap ? capped : "");
		quoted(f, t);
	}
	if (!shown) /* a device idle under this policy, busy under another */
		fputs("NaN notitle", f);
	fputc('\n', f);
}

int plot_script(FILE *f, const char *file, const struct run_result *res, int n)
{
	const char *e = ext(file);
	bool shown[SIM_MAX_DEV] = { false };
	int rows = n > 0 ? n : 1, cols = 1, ndev = n ? res[0].ndev : 0;
	double xmax = 0;
	char title[256], idle[128] = "";

	if (strcmp(e, "png") && strcmp(e, "svg"))
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		const struct run_series *se = res[i].series;

		if (!se || !se->n || res[i].ndev != ndev)
			return -EINVAL;
		if (se->t_s[se->n - 1] > xmax)
			xmax = se->t_s[se->n - 1];
		for (int d = 0; d < ndev; d++)
			if (nonzero(se->dirty_mib[d], se->n) || nonzero(se->writeback_mib[d], se->n))
				shown[d] = true;
	}
	/* a device nothing was written to under any policy gets no panel */
	for (int d = 0; d < ndev; d++) {
		if (shown[d])
			cols++;
		else
			snprintf(idle + strlen(idle), sizeof(idle) - strlen(idle), "%s%s",
				 idle[0] ? ", " : "", res[0].devname[d]);
	}
	if (!strcmp(e, "png"))
		fprintf(f, "set terminal pngcairo size %d,%d font ',10'\n", COL_PX * cols,
			70 + 290 * rows);
	else
		fprintf(f, "set terminal svg size %d,%d font 'sans,10'\n", COL_PX * cols,
			70 + 290 * rows);
	fputs("set output ", f);
	quoted(f, file);
	/* noenhanced: names like wb_thresh and sdb are text, not markup;
	 * fixed margins keep the panels of a column aligned whatever their
	 * tick labels; the legend sits right of the data, in the margin */
	fprintf(f, "\nset termoption noenhanced\nset grid\n"
		   "set key at graph 1.03, graph 1 left top Left reverse samplen 2\n"
		   "set lmargin %d\nset rmargin %d\nset tmargin 2.5\nset bmargin 3.5\n"
		   "set xlabel 'simulated time (s)' offset 0,0.5\nset xrange [0:%.3f]\n",
		MARGIN_L, MARGIN_R, xmax > 0 ? xmax : 1.0);
	snprintf(title, sizeof(title), "%s, simulated by wbsim%s%s%s", n ? res[0].scenario : "",
		 idle[0] ? " (idle, not drawn: " : "", idle, idle[0] ? ")" : "");
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	quoted(f, title);
	fputs(" font ',13'\n", f);
	for (int i = 0; i < n; i++) {
		const struct run_series *se = res[i].series;
		int wcol = 2 + 3 * ndev;

		fprintf(f, "$d%d << EOD\n", i);
		for (uint32_t k = 0; k < se->n; k++) {
			fprintf(f, "%.3f", se->t_s[k]);
			for (int d = 0; d < ndev; d++)
				fprintf(f, " %.3f %.3f %.3f", (double)se->dirty_mib[d][k],
					(double)se->writeback_mib[d][k], (double)se->thresh_mib[d][k]);
			fprintf(f, " %.3f %.3f\n", (double)se->written_mib[k], (double)se->durable_mib[k]);
		}
		fputs("EOD\n", f);
		markers(f, se, xmax);
		for (int d = 0; d < ndev; d++) {
			const struct line ls[] = {
				{ 2 + 3 * d, "dirty", "lw 2 lc rgb '#1f77b4'", se->dirty_mib[d], false },
				{ 3 + 3 * d, "writeback", "lw 2 lc rgb '#ff7f0e'", se->writeback_mib[d], false },
				{ 4 + 3 * d, "wb_thresh (cap)", "lw 2 dt 2 lc rgb '#d62728'", se->thresh_mib[d], true },
			};
			if (!shown[d])
				continue;
			snprintf(title, sizeof(title), "%s under %s: %s", res[i].scenario, res[i].policy,
				 res[i].devname[d]);
			panel(f, i, title, "page cache (MiB)", ls, 3, se->n);
		}
		{
			const struct line ls[] = {
				{ wcol, "write() returned", "lw 2 lc rgb '#9467bd'", se->written_mib, false },
				{ wcol + 1, "on the device", "lw 2 lc rgb '#2ca02c'", se->durable_mib, false },
			};
			snprintf(title, sizeof(title), "%s under %s: the copy to %s", res[i].scenario,
				 res[i].policy, res[i].devname[se->writer_dev]);
			panel(f, i, title, "written (MiB)", ls, 2, se->n);
		}
	}
	fputs("unset multiplot\n", f);
	return ferror(f) ? -EIO : 0;
}

/* Is `prog` an executable somewhere on PATH? */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[4096];

	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (n && n < sizeof(dir) - strlen(prog) - 2) {
			snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, path, prog);
			if (access(dir, X_OK) == 0)
				return true;
		}
		path += n + (path[n] == ':');
	}
	return false;
}

int plot_write(const char *file, const struct run_result *res, int n)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	FILE *p;
	int r, st;

	if (strcmp(ext(file), "png") && strcmp(ext(file), "svg"))
		return -EINVAL;
	if (!on_path("gnuplot"))
		return -ENOENT;
	/* gnuplot prints the picture to stdout when it cannot open the file */
	p = popen("exec gnuplot >/dev/null", "w");
	if (!p)
		return -errno;
	sigaction(SIGPIPE, &ign, &old); /* a gnuplot that dies is an error, not a signal */
	r = plot_script(p, file, res, n);
	st = pclose(p);
	sigaction(SIGPIPE, &old, NULL);
	if (st == -1)
		return -EIO;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -ENOENT;
	if (r)
		return r;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}
