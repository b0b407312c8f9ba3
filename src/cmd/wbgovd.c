/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd: gives every block device a dirty-cache limit worth a few seconds
 * of its measured write speed, and gives every knob back on exit. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sysexits.h>

#include "daemon/config.h"
#include "daemon/daemon.h"
#include "daemon/memory.h"
#include "sys/log.h"

#define VERSION "0.1"

static volatile sig_atomic_t got_term, got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else
		got_term = 1;
}

/* What a configuration check says besides its verdict: warnings always,
 * the files read and ignored with -v; to the terminal with -n, else to
 * the log. */
struct notes {
	bool check, verbose;
	int warnings;
};

static void on_note(void *ctx, enum config_note level, const char *msg)
{
	struct notes *n = ctx;

	if (level == CONFIG_WARNING)
		n->warnings++;
	if (n->check && (level == CONFIG_WARNING || n->verbose))
		fprintf(stderr, "%s\n", msg);
	else if (!n->check && level == CONFIG_WARNING)
		log_warn("%s", msg);
	else if (!n->check)
		log_debug("%s", msg);
}

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
	      "  -c, --config FILE   configuration (default " CONFIG_DEFAULT_PATH "),\n"
	      "                      then " CONFIG_DROPIN_NAME "/*.conf beside it\n"
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

int main(int argc, char **argv)
{
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
	static struct daemon dm; /* large: not on the stack */
	struct daemon_opts o = { .config_path = CONFIG_DEFAULT_PATH, .root = "/",
				 .state_dir = "/run/wbgov", .memory_path = MEMORY_DEFAULT_PATH };
	bool check = false, verbose = false;
	struct notes notes = { 0 };
	struct gov_config cfg;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	char err[512];
	enum daemon_end how;
	int c;

	/* from the first instruction, TERM/INT/HUP only interrupt ppoll(): a
	 * TERM during start-up must not kill us between two knob writes */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a log stream whose reader went away is EPIPE, not a death with
	 * every knob left set */
	signal(SIGPIPE, SIG_IGN);

	while ((c = getopt_long(argc, argv, "c:nvhV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config_path = optarg; break;
		case 'n': check = true; break;
		case 'R': o.root = optarg; break;
		case 'S': o.state_dir = optarg; break;
		case 'v': log_set_level(LOG_DEBUG_); verbose = true; break;
		case 'M':
			if (!*optarg) {
				fprintf(stderr, "wbgovd: --memory: want a file name\n");
				return EX_USAGE;
			}
			if (o.memory_path)
				o.memory_path = optarg;
			break;
		case 'N': o.memory_path = NULL; break;
		case 'F':
			if (!*optarg) {
				fprintf(stderr, "wbgovd: --metrics-file: want a file name\n");
				return EX_USAGE;
			}
			o.metrics_path = optarg;
			break;
		case 'I': {
			char *end;
			double sec = strtod(optarg, &end);
			if (end == optarg || *end || !(sec >= (double)METRICS_MIN_USEC / 1e6 &&
						       sec <= (double)METRICS_MAX_USEC / 1e6)) {
				fprintf(stderr, "wbgovd: --metrics-interval wants seconds from 1 to 3600: %s\n",
					optarg);
				return EX_USAGE;
			}
			o.metrics_usec = (uint64_t)(sec * 1e6);
			break;
		}
		case 'B': {
			enum bus_kind k;
			if (bus_parse_kind(optarg, &k)) {
				fprintf(stderr, "wbgovd: --bus: want system, session, none or an address "
						"(unix:path=...): %s\n", optarg);
				return EX_USAGE;
			}
			o.bus = optarg;
			break;
		}
		case 'h': usage(stdout); return 0;
		case 'V': printf("wbgovd %s\n", VERSION); return 0;
		default: return EX_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wbgovd: unexpected argument: %s\n", argv[optind]);
		return EX_USAGE;
	}
	if (o.metrics_usec && !o.metrics_path) {
		fprintf(stderr, "wbgovd: --metrics-interval goes with --metrics-file\n");
		return EX_USAGE;
	}
	if (check) {
		/* -n: a missing default file is fine (defaults), a named one must exist */
		notes.check = check;
		notes.verbose = verbose;
		if (config_load_notes(o.config_path, strcmp(o.config_path, CONFIG_DEFAULT_PATH) == 0,
				      &cfg, err, sizeof(err), on_note, &notes)) {
			fprintf(stderr, "%s\n", err);
			return EX_CONFIG;
		}
		/* a warning is no error: such a section matches nothing */
		if (notes.warnings)
			printf("configuration OK, %d warning%s\n", notes.warnings,
			       notes.warnings == 1 ? "" : "s");
		else
			printf("configuration OK\n");
		return 0;
	}
	how = daemon_start(&dm, &o);
	if (how != DAEMON_OK)
		return exit_status[how];
	/* a poll that waits for a CPU behind a busy writer delays the release
	 * of a fast device (measured: 10 ms polls came 19-118 ms apart beside
	 * dd on 2 cores); the polls are short. Without CAP_SYS_NICE the unit's
	 * Nice= does it. */
	if (setpriority(PRIO_PROCESS, 0, -10) < 0 && errno != EPERM && errno != EACCES)
		log_warn("setpriority: %s", strerror(errno));
	daemon_run(&dm, &got_term, &got_hup, &orig);
	return exit_status[daemon_stop(&dm)];
}
