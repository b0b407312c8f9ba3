/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbsim: the kernel's dirty throttling and writeback, simulated; every
 * proposal of the seeds and wbgov's own policy side by side. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include "lab/lab.h"
#include "lab/plot.h"
#include "lab/report.h"
#include "lab/series.h"
#include "sim/scenfile.h"
#include "sys/conffile.h"

#define VERSION "0.1"
#define MAX_POLICIES 32
#define MAX_KNOBS SCEN_MAX_KNOBS

static void usage(FILE *f)
{
	fputs("Usage: wbsim list\n"
	      "       wbsim run SCENARIO|FILE [--policy P]... [--config FILE] [--param KEY=VALUE]...\n"
	      "                 [--sysctl vm.KEY=VALUE]... [--knob DEV.ATTR=VALUE]...\n"
	      "                 [--format table|csv|json] [--plot FILE.png|FILE.svg]\n"
	      "                 [--series FILE]\n"
	      "       wbsim table [--config FILE] [--param KEY=VALUE]... [--format table|csv|json]\n"
	      "       wbsim show SCENARIO|FILE [--param KEY=VALUE]... [--sysctl vm.KEY=VALUE]...\n"
	      "                 [--knob DEV.ATTR=VALUE]...\n"
	      "       wbsim --help | --version\n"
	      "\n"
	      "Simulates the Linux kernel's dirty-page throttling and writeback and runs the\n"
	      "seeds' scenarios under each proposal. `run` without --policy runs them all (or\n"
	      "the file's policies). A FILE (a path with a '/', or NAME.scenario) describes a\n"
	      "machine, its devices and writers: see wbsim-scenario(5); `show` prints one.\n"
	      "\n"
	      "Params: mem=16G  speed=5MB/s  size=4G  hz=250  bits=64  memory=on  limit=6h\n"
	      "        seed=0 (N>0: the devices' jitter from seed N; the sawtooth's phase)\n"
	      "        rate=1000MB/s (the main writer's: how fast it produces data)\n"
	      "        memory in use: used=min(1.5G,mem/8)  kernel=min(96M,mem/16)\n"
	      "        wbgov's, as in wbgov.conf: target=1s  floor=256K  ceiling=256M\n"
	      "        initial=4M  fast_target=2s  global_drain=10s\n"
	      "        (sizes binary K/M/G, speeds decimal; speed and size are the main\n"
	      "        device's and writer's)\n"
	      "--sysctl vm.dirty_bytes=48M, --knob sdb.max_bytes=16M: written when the run\n"
	      "starts, after the policy's and the file's own.\n"
	      "--config FILE: wbgov's settings from a wbgov.conf, [global] and [device]\n"
	      "sections (matched against the scenario's devices); --param after it.\n"
	      "--series FILE: every run's samples as TSV (policy, t_s, per device dirty,\n"
	      "writeback and thresh, written, durable, global dirty and writeback, MiB).\n"
	      "\n"
	      "Exit status: 0 ok, 64 bad usage or input, 65 a run still writing after its limit\n"
	      "(6 h), 69 gnuplot missing, 70 internal error, 71 out of memory, 73 the plot or\n"
	      "the series could not be written, 74 output error. See wbsim(1).\n",
	      f);
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "wbsim: %s: %s\n", what, arg);
	return EX_USAGE;
}

static void list(void)
{
	struct scenario sc;

	printf("scenarios:\n");
	for (int i = 0; i < scen_builtin_count; i++) {
		scenfile_builtin(scen_builtins[i].name, &sc);
		printf("  %-18s %s\n", sc.name, sc.summary);
	}
	printf("policies:\n");
	for (int i = 0; i < proposal_count; i++)
		printf("  %-13s %-26s %s\n", proposals[i].name, proposals[i].from, proposals[i].rule);
}

/* The jobs' runs (lab_run_jobs), or the exit status of the first that
 * failed, its message said. */
static int run_jobs(const struct lab_job *jobs, int n, const struct lab_params *p, bool series,
		    struct run_result *res, const struct run_result **base)
{
	struct lab_failure f;
	int r = lab_run_jobs(jobs, n, p, series, res, base, &f);

	if (!r)
		return 0;
	fprintf(stderr, "wbsim: %s\n", f.msg);
	if (f.refused)
		return EX_USAGE;
	return r == -ETIMEDOUT ? EX_DATAERR : r == -ENOMEM ? EX_OSERR : EX_SOFTWARE;
}

/* The scenario of run or show (a FILE or a built-in name; `arg`), or
 * every built-in one (table; `arg` NULL), into sc[], with --param applied
 * and the --sysctl and --knob after the file's own. 0 or an exit status,
 * the message said. */
static int load_scenarios(const char *arg, const struct lab_params *p, const char *const *knobs,
			  const bool *knob_bdi, int nknob, struct scenario *sc)
{
	char err[512];
	int r;

	for (int i = 0; i < (arg ? 1 : scen_builtin_count); i++) {
		if (!arg)
			scenfile_builtin(scen_builtins[i].name, &sc[i]);
		else if (scenfile_is_path(arg) && (r = scenfile_load(arg, sc, err, sizeof(err)))) {
			fprintf(stderr, "wbsim: %s\n", err);
			return r == -ENOMEM ? EX_OSERR : EX_USAGE;
		} else if (!scenfile_is_path(arg) && scenfile_builtin(arg, sc)) {
			return bad("unknown scenario (see `wbsim list`, or give a FILE)", arg);
		}
		if (scenario_apply(&sc[i], &p->sim, err, sizeof(err))) {
			fprintf(stderr, "wbsim: %s\n", err);
			return EX_USAGE;
		}
	}
	for (int k = 0; k < nknob; k++) {
		r = knob_bdi[k] ? scenfile_add_knob(sc, knobs[k], err, sizeof(err))
				: scenfile_add_sysctl(sc, knobs[k], err, sizeof(err));
		if (r) {
			fprintf(stderr, "wbsim: %s %s\n", knob_bdi[k] ? "--knob" : "--sysctl", err);
			return EX_USAGE;
		}
	}
	return 0;
}

/* --series FILE: written whole or, as a regular file, removed. */
static int write_series(const char *file, const struct run_result *res, int n)
{
	FILE *f = fopen(file, "w");
	struct stat st;
	int r, err;

	if (!f) {
		fprintf(stderr, "wbsim: %s: cannot write the series: %s\n", file, strerror(errno));
		return EX_CANTCREAT;
	}
	r = series_write(f, res, n);
	err = errno;
	if (fclose(f) && !r) {
		r = -EIO;
		err = errno;
	}
	if (!r)
		return 0;
	fprintf(stderr, "wbsim: %s: writing the series: %s\n", file, strerror(r == -EIO ? err : -r));
	if (!stat(file, &st) && S_ISREG(st.st_mode))
		unlink(file);
	return EX_CANTCREAT;
}

/* What the command line asked for. */
struct args {
	const char *cmd, *scenario, *plot, *series, *config;
	const char *policies[MAX_POLICIES], *params[64], *knobs[MAX_KNOBS];
	bool knob_bdi[MAX_KNOBS];
	int npol, npar, nknob;
	enum report_format fmt;
};

/* One option after the command, checked against it: 0 or an exit status,
 * the message said. */
static int take_option(struct args *a, int c, const char *arg)
{
	const char *dot;

	switch (c) {
	case 'p':
		if (!proposal_find(arg))
			return bad("unknown policy", arg);
		if (strcmp(a->cmd, "run"))
			return bad("--policy goes with run", arg);
		if (a->npol == MAX_POLICIES)
			return bad("too many policies", arg);
		a->policies[a->npol++] = arg;
		return 0;
	case 'P':
		if (a->npar == (int)(sizeof(a->params) / sizeof(a->params[0])))
			return bad("too many params", arg);
		a->params[a->npar++] = arg;
		return 0;
	case 'c':
		if (a->config)
			return bad("one --config only", arg);
		a->config = arg;
		return 0;
	case 'f':
		if (!strcmp(a->cmd, "show") || !strcmp(a->cmd, "list"))
			return bad("--format goes with run or table", arg);
		if (report_format_parse(arg, &a->fmt))
			return bad("unknown format", arg);
		return 0;
	case 's':
	case 'k':
		if (!a->scenario)
			return bad(c == 's' ? "--sysctl goes with run or show"
					    : "--knob goes with run or show", arg);
		if (a->nknob == MAX_KNOBS)
			return bad("too many --sysctl and --knob", arg);
		a->knob_bdi[a->nknob] = c == 'k';
		a->knobs[a->nknob++] = arg;
		return 0;
	case 'o':
		if (strcmp(a->cmd, "run"))
			return bad("--plot goes with run", arg);
		dot = arg ? strrchr(arg, '.') : NULL;
		if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
			return bad("the plot file must end in .png or .svg", arg);
		a->plot = arg;
		return 0;
	case 'S':
		if (strcmp(a->cmd, "run"))
			return bad("--series goes with run", arg);
		if (!arg || !*arg)
			return bad("--series needs a file name", "''");
		a->series = arg;
		return 0;
	default: return EX_USAGE; /* getopt said which option */
	}
}

/* --config, then each --param, into p: 0 or an exit status, the message
 * said. */
static int settings(const struct args *a, struct lab_params *p)
{
	char err[512];

	lab_params_init(p);
	if (a->config) {
		if (!strcmp(a->cmd, "list") || !strcmp(a->cmd, "show"))
			return bad("--config goes with run or table", a->config);
		if (conffile_load(a->config, false, &p->gov, err, sizeof(err))) {
			fprintf(stderr, "wbsim: %s\n", err);
			return EX_USAGE;
		}
	}
	for (int i = 0; i < a->npar; i++) {
		char want[96];
		int r = lab_param_set(p, a->params[i], want, sizeof(want));
		if (r == -ENOENT)
			return bad("unknown param", a->params[i]);
		if (r && want[0]) {
			fprintf(stderr, "wbsim: %s: want %s\n", a->params[i], want);
			return EX_USAGE;
		}
		if (r)
			return bad("malformed param value", a->params[i]);
	}
	return 0;
}

/* run and table: every job of the scenarios sc[] (nsc of them), then the
 * plot, the series and the report. An exit status, the message said. */
static int run(const struct args *a, const struct lab_params *p, struct scenario *sc, int nsc)
{
	const char *policies[MAX_POLICIES];
	int npol = a->npol, n, rc;
	struct lab_job *jobs;
	struct run_result *res;
	const struct run_result **base;

	memcpy(policies, a->policies, sizeof(policies));
	if (!npol && a->scenario)
		for (int i = 0; i < sc->npolicy; i++)
			policies[npol++] = sc->policy[i];
	if (!npol)
		for (int i = 0; i < proposal_count; i++)
			policies[npol++] = proposals[i].name;
	n = a->scenario ? npol : nsc * proposal_count;
	jobs = calloc((size_t)n, sizeof(*jobs));
	res = calloc((size_t)n, sizeof(*res));
	base = calloc((size_t)n, sizeof(*base));
	if (!jobs || !res || !base) {
		fprintf(stderr, "wbsim: out of memory\n");
		free(jobs);
		free(res);
		free(base);
		return EX_OSERR;
	}
	for (int i = 0; i < n; i++) {
		jobs[i].scenario = a->scenario ? sc : &sc[i / proposal_count];
		jobs[i].policy = a->scenario ? policies[i] : proposals[i % proposal_count].name;
	}
	rc = run_jobs(jobs, n, p, a->plot || a->series, res, base);
	if (!rc && a->plot) {
		int r = plot_write(a->plot, res, n);
		if (r == -ENOENT) {
			fprintf(stderr, "wbsim: gnuplot is not installed: no plot written to %s\n",
				a->plot);
			rc = EX_UNAVAILABLE;
		} else if (r) {
			fprintf(stderr, "wbsim: %s: the plot could not be written\n", a->plot);
			rc = EX_CANTCREAT;
		}
	}
	if (!rc && a->series)
		rc = write_series(a->series, res, n);
	if (!rc) {
		int r = report_print(stdout, a->fmt, res, base, n);
		/* the stream's own error (ENOSPC) where it has one */
		if (r) {
			fprintf(stderr, "wbsim: writing the results: %s\n",
				strerror(r == -EIO && errno ? errno : -r));
			rc = r == -ENOMEM ? EX_OSERR : EX_IOERR;
		}
	}
	if (!rc || rc == EX_UNAVAILABLE || rc == EX_CANTCREAT)
		for (int i = 0; i < n; i++)
			run_result_free(&res[i]);
	free(jobs);
	free(res);
	free(base);
	return rc;
}

/* The command: list, show, run or table. Its exit status. */
static int wbsim(const struct args *a)
{
	struct lab_params p;
	struct scenario *sc;
	int nsc, rc = settings(a, &p);

	if (rc)
		return rc;
	if (!strcmp(a->cmd, "list")) {
		char err[160];
		if (sim_params_check(&p.sim, err, sizeof(err))) {
			fprintf(stderr, "wbsim: %s\n", err);
			return EX_USAGE;
		}
		list();
		return 0;
	}
	nsc = a->scenario ? 1 : scen_builtin_count;
	sc = calloc((size_t)nsc, sizeof(*sc));
	if (!sc) {
		fprintf(stderr, "wbsim: out of memory\n");
		return EX_OSERR;
	}
	rc = load_scenarios(a->scenario, &p, a->knobs, a->knob_bdi, a->nknob, sc);
	if (!rc && !strcmp(a->cmd, "show") && (scenfile_write(stdout, sc) || fflush(stdout))) {
		fprintf(stderr, "wbsim: writing the scenario: %s\n", strerror(errno));
		rc = EX_IOERR;
	} else if (!rc && strcmp(a->cmd, "show")) {
		rc = run(a, &p, sc, nsc);
	}
	free(sc);
	return rc;
}

static const struct option opts[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "param", required_argument, NULL, 'P' },
	{ "config", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'f' },
	{ "plot", required_argument, NULL, 'o' },
	{ "sysctl", required_argument, NULL, 's' },
	{ "knob", required_argument, NULL, 'k' },
	{ "series", required_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	struct args a = { .fmt = FMT_TABLE };
	int c, rc;

	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'V': printf("wbsim %s\n", VERSION); return 0;
		default: return EX_USAGE; /* getopt said which option */
		}
	}
	if (optind >= argc)
		return bad("no command given", "try `wbsim --help`");
	a.cmd = argv[optind++];
	if (strcmp(a.cmd, "list") && strcmp(a.cmd, "run") && strcmp(a.cmd, "table") &&
	    strcmp(a.cmd, "show"))
		return bad("unknown command", a.cmd);
	if (!strcmp(a.cmd, "run") || !strcmp(a.cmd, "show")) {
		if (optind >= argc || argv[optind][0] == '-')
			return bad(!strcmp(a.cmd, "run") ? "run needs a scenario"
							 : "show needs a scenario",
				   "see `wbsim list`, or give a FILE");
		a.scenario = argv[optind++];
	}
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if ((rc = take_option(&a, c, optarg)))
			return rc;
	}
	if (optind < argc)
		return bad("unexpected argument", argv[optind]);
	return wbsim(&a);
}
