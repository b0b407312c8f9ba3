/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd: gives every block device a dirty-cache limit worth a few seconds
 * of its measured write speed, and gives every knob back on exit. Here its
 * options and exit statuses (wbgovd(8)); the daemon is src/daemon/. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sysexits.h>

#include "daemon/bus.h"
#include "daemon/daemon.h"
#include "daemon/memory.h"
#include "daemon/metrics.h"
#include "sys/conffile.h"

#define VERSION "0.1"

/* What each end of wbgovd exits with (sysexits.h; wbgovd(8), EXIT STATUS). */
static const int exit_status[DAEMON_END_COUNT] = {
	[DAEMON_OK] = 0,
	[DAEMON_STOPPED] = 0,
	[DAEMON_BAD_NAME] = EX_USAGE,
	[DAEMON_BAD_CONFIG] = EX_CONFIG,
	[DAEMON_NO_STATE_DIR] = EX_CANTCREAT,
	[DAEMON_LOCKED] = EX_TEMPFAIL,
	[DAEMON_UNKNOWN_ORIGINALS] = EX_SOFTWARE,
	[DAEMON_KNOBS_LEFT] = EX_OSERR,
};

static void usage(FILE *f)
{
	fputs("Usage: wbgovd [-c FILE] [--root DIR] [--state-dir DIR] [--memory FILE|--no-memory]\n"
	      "              [--metrics-file FILE [--metrics-interval SECONDS]]\n"
	      "              [--bus system|session|none|ADDRESS] [-v]\n"
	      "       wbgovd -n [-c FILE] [-v]\n"
	      "       wbgovd --help | --version\n"
	      "\n"
	      "Gives every block device a dirty page cache limit worth a second (by default)\n"
	      "of its measured write speed (strict_limit + max_bytes), every knob back on exit.\n"
	      "\n"
	      "  -c, --config FILE   configuration (default " CONFFILE_DEFAULT_PATH "),\n"
	      "                      then " CONFFILE_DROPIN_NAME "/*.conf beside it\n"
	      "  -n, --check         check the configuration and exit (-v: the files read)\n"
	      "      --root DIR      find /proc and /sys under DIR (tests)\n"
	      "      --state-dir DIR where originals and status go (default /run/wbgov)\n"
	      "      --memory FILE   device memory: bandwidth measured per device, kept\n"
	      "                      across runs (default " MEMORY_DEFAULT_PATH ")\n"
	      "      --no-memory     measure every device anew, keep nothing\n"
	      "      --metrics-file FILE\n"
	      "                      write wbgov status --prometheus there, for\n"
	      "                      node_exporter's textfile collector (DIR/wbgov.prom)\n"
	      "      --metrics-interval SECONDS\n"
	      "                      how often, 1 to 3600 (default 10)\n"
	      "      --bus BUS       publish on D-Bus (" BUS_NAME "): system (the default\n"
	      "                      when its socket is there), session, none, or an address\n"
	      "  -v, --verbose       log measurements too\n"
	      "\n"
	      "Signals: TERM/INT restore and exit, HUP reloads the configuration.\n"
	      "Exit status: 0 ok, 64 usage, 70 the state file a previous run left is unreadable,\n"
	      "71 a knob could not be restored, 73 state dir (or metrics directory),\n"
	      "75 already running (or its lock held by wbgov apply/restore past 10 s),\n"
	      "78 configuration. See wbgovd(8).\n",
	      f);
}

static const struct option opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, 'n' },
	{ "root", required_argument, NULL, 'R' },
	{ "state-dir", required_argument, NULL, 'S' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "memory", required_argument, NULL, 'M' },
	{ "no-memory", no_argument, NULL, 'N' },
	{ "metrics-file", required_argument, NULL, 'F' },
	{ "metrics-interval", required_argument, NULL, 'I' },
	{ "bus", required_argument, NULL, 'B' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Option `c` with its argument into `o`: -1 to go on, or the exit status
 * to end with at once (--help, --version; a bad value, said on stderr). */
static int take_opt(int c, const char *arg, struct daemon_opts *o)
{
	enum bus_kind k;
	uint64_t ms;

	switch (c) {
	case 'c': o->config_path = arg; return -1;
	case 'n': o->check = true; return -1;
	case 'R': o->root = arg; return -1;
	case 'S': o->state_dir = arg; return -1;
	case 'v': o->verbose = true; return -1;
	case 'N': o->memory_path = NULL; return -1;
	case 'M':
	case 'F':
		if (!*arg) {
			fprintf(stderr, "wbgovd: --%s: want a file name\n",
				c == 'M' ? "memory" : "metrics-file");
			return EX_USAGE;
		}
		if (c == 'F' && !conffile_metrics_path_ok(arg)) {
			fprintf(stderr, "wbgovd: --metrics-file wants an absolute path to a file, without "
					". or ..: %s\n", arg);
			return EX_USAGE;
		}
		if (c == 'F')
			o->metrics_path = arg;
		else if (o->memory_path) /* --no-memory wins */
			o->memory_path = arg;
		return -1;
	case 'I':
		if (conffile_parse_interval(arg, &ms)) {
			fprintf(stderr, "wbgovd: --metrics-interval wants 1 to 3600 seconds (10, 10s, "
					"1500ms): %s\n", arg);
			return EX_USAGE;
		}
		o->metrics_usec = ms * 1000;
		return -1;
	case 'B':
		if (bus_parse_kind(arg, &k)) {
			fprintf(stderr, "wbgovd: --bus: want system, session, none or an address "
					"(unix:path=...; no other transport): %s\n", arg);
			return EX_USAGE;
		}
		o->bus = arg;
		return -1;
	case 'h': usage(stdout); return 0;
	case 'V': printf("wbgovd %s\n", VERSION); return 0;
	default: return EX_USAGE;
	}
}

int main(int argc, char **argv)
{
	struct daemon_opts o = { .config_path = CONFFILE_DEFAULT_PATH, .root = "/",
				 .state_dir = "/run/wbgov", .memory_path = MEMORY_DEFAULT_PATH };
	int c, rc;

	daemon_signals(); /* from the first instruction, --help's output too */
	while ((c = getopt_long(argc, argv, "c:nvhV", opts, NULL)) != -1)
		if ((rc = take_opt(c, optarg, &o)) >= 0)
			return rc;
	if (optind < argc) {
		fprintf(stderr, "wbgovd: unexpected argument: %s\n", argv[optind]);
		return EX_USAGE;
	}
	return exit_status[daemon_main(&o)];
}
