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

int plot_script(FILE *f, const char *file, const struct run_result *res, int n)
{
	const char *e = ext(file);
	int rows = n > 0 ? n : 1;

	if (strcmp(e, "png") && strcmp(e, "svg"))
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (!res[i].series)
			return -EINVAL;
	if (!strcmp(e, "png"))
		fprintf(f, "set terminal pngcairo size 1400,%d font ',10'\n", 80 + 280 * rows);
	else
		fprintf(f, "set terminal svg size 1400,%d font 'sans,10'\n", 80 + 280 * rows);
	fputs("set output ", f);
	quoted(f, file);
	fputs("\nset grid\nset key top left\nset xlabel 'time (s)'\nset ylabel 'MiB'\n", f);
	fprintf(f, "set multiplot layout %d,2 title '%s: simulated, wbsim' font ',12'\n", rows,
		n ? res[0].scenario : "");
	for (int i = 0; i < n; i++) {
		const struct run_series *se = res[i].series;

		fprintf(f, "$d%d << EOD\n", i);
		for (uint32_t k = 0; k < se->n; k++) {
			fprintf(f, "%.3f", (double)se->t_s[k]);
			for (int d = 0; d < res[i].ndev; d++)
				fprintf(f, " %.2f %.2f", (double)se->dirty_mib[d][k],
					(double)se->writeback_mib[d][k]);
			fprintf(f, " %.2f %.2f\n", (double)se->written_mib[k], (double)se->durable_mib[k]);
		}
		fputs("EOD\n", f);
		fprintf(f, "set title '%s: dirty and writeback per device'\nplot ", res[i].policy);
		for (int d = 0; d < res[i].ndev; d++)
			fprintf(f, "%s$d%d using 1:%d with lines lw 2 title '%s dirty', "
				   "$d%d using 1:%d with lines lw 2 title '%s writeback'",
				d ? ", " : "", i, 2 + 2 * d, res[i].devname[d], i, 3 + 2 * d,
				res[i].devname[d]);
		fprintf(f, "\nset title '%s: the writer against the device'\n", res[i].policy);
		fprintf(f, "plot $d%d using 1:%d with lines lw 2 title 'write() returned', "
			   "$d%d using 1:%d with lines lw 2 title 'on the device'\n",
			i, 2 + 2 * res[i].ndev, i, 3 + 2 * res[i].ndev);
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
