/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov: what the governor does, per device; sync, eject and cp with
 * progress; apply and restore by hand. Options and exit codes; the commands are in
 * src/cli. Read-only commands need no root. */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cli/cli.h"
#include "sys/busname.h"
#include "sys/conffile.h"

#define VERSION "0.1"
/* the Makefile sets it from PREFIX; this is for a compile without it
 * (make analyze) */
#ifndef LOCALEDIR
#define LOCALEDIR "/usr/local/share/locale"
#endif

static void usage(FILE *f)
{
	/* TRANSLATORS: the commands and options stay as they are; "Usage:"
	 * may change its length, the lines under it follow */
	fputs(_("Usage: wbgov status [--json|--prometheus] [--bus BUS]\n"
	      "       wbgov watch [--interval SECONDS] [--json] [--bus BUS]\n"
	      "       wbgov sync [PATH|DEVICE]\n"
	      "       wbgov eject [--no-power-off] PATH|DEVICE\n"
	      "       wbgov cp [--quiet] [--json] SRC... DEST\n"
	      "       wbgov explain [--json] [--bus BUS] DEVICE\n"
	      "       wbgov apply --once [-c FILE]\n"
	      "       wbgov restore\n"
	      "       wbgov notify [--bus system|session|ADDRESS] [--threshold SIZE]\n"
	      "       wbgov --help | --version\n"), f);
	fputs("\n", f);
	fputs(_("Common options: --root DIR (find /proc and /sys there), --state-dir DIR\n"
	      "(wbgovd's, default /run/wbgov). DEVICE: sdb, /dev/sdb1, LABEL=x, UUID=x, 8:16,\n"
	      "btrfs-1, a path.\n"
	      "status, watch, explain and cp need no root. See wbgov(8).\n"
	      "Exit status: 0 ok, 1 a knob could not be restored or (cp) DEST written but its\n"
	      "directory not synced, 64 usage, 66 no such SRC (cp), 69 no such device or\n"
	      "(apply) no per-device knobs, 73 DEST cannot be written (cp), 74 I/O error,\n"
	      "75 the lock is held (apply, restore: wbgovd runs) or the device is busy\n"
	      "(eject), 77 permission, 130 interrupted.\n"),
	      f);
}

/* Each command's own usage, for `wbgov CMD --help`. */
static const struct {
	const char *name, *synopsis, *text;
} commands[] = {
	{ "status", "status [--json|--prometheus] [--bus BUS]",
	  N_("One line per device: model, bus, measured bandwidth, the kernel's strict_limit\n"
	  "and max_bytes, dirty + writeback, seconds to drain, mount points. --json: one\n"
	  "JSON object (wbgov(8) gives its schema). --prometheus: the same figures in\n"
	  "Prometheus's text format, as wbgovd --metrics-file writes them (wbgov(8) lists\n"
	  "the metrics). Needs no root: where debugfs cannot be read, dirty + writeback\n"
	  "and the seconds to drain are wbgovd's, asked on D-Bus (--bus: system, session,\n"
	  "none or an address; default the system bus, none under --root).") },
	{ "watch", "watch [--interval SECONDS] [--json] [--bus BUS]",
	  N_("The status table again every SECONDS (0.1 to 3600, default 1) until Ctrl-C,\n"
	  "each under the time it was read. --json: status's object on one line each\n"
	  "time (JSON Lines), with its \"time\".") },
	{ "sync", "sync [PATH|DEVICE]",
	  N_("Write the file system of PATH, every file system of DEVICE, or everything,\n"
	  "showing what is left, the rate and the ETA; \"durable\" when it is.") },
	{ "eject", "eject [--no-power-off] PATH|DEVICE",
	  N_("Sync the disk holding PATH (or DEVICE) with progress, unmount all of its\n"
	  "mounts, flush it and power it off, then say \"safe to remove\". A busy mount,\n"
	  "or another disk of the same USB device (a card reader's other slot) that is\n"
	  "mounted or in use, is named, and nothing is done. --no-power-off: stop after\n"
	  "the flush. Needs root.") },
	{ "cp", "cp [--quiet] [--json] SRC... DEST",
	  N_("Copy files, each sent to the device as it is written, and return when they\n"
	  "are on it, showing the bytes that are durable, the rate and the ETA. DEST is a\n"
	  "file, or a directory the SRCs go into; directories are not copied. A copy\n"
	  "that fails or is interrupted (INT, TERM, HUP, PIPE) is removed: DEST is the old\n"
	  "file or the whole new one. A replaced DEST keeps its permissions (as root, its\n"
	  "owner and group); one with other hard links is refused. --quiet: nothing but\n"
	  "errors. --json: the progress as JSON Lines on standard output. Needs no root.") },
	{ "explain", "explain [--json] [--bus BUS] DEVICE",
	  N_("Why DEVICE (sdb, /dev/sdb1, 8:16, btrfs-1, a path) has the limit it has:\n"
	  "facts, measured bandwidth and where it came from, the data still to write,\n"
	  "the rule, the limit, and the knobs in the kernel now. --json: one JSON object\n"
	  "(wbgov(8)). --bus: where wbgovd is, as for status.") },
	{ "apply", "apply --once [-c FILE]",
	  N_("Without the daemon: give every device the limit the rule gives it now, once,\n"
	  "recording the knobs it changes for `wbgov restore`. Needs root; refused while\n"
	  "wbgovd, another apply or a restore holds the state directory's lock, and on\n"
	  "Linux < 6.2 (no per-device knobs: only wbgovd can follow the writes).") },
	{ "notify", "notify [--bus system|session|ADDRESS] [--threshold SIZE]",
	  N_("A desktop session's agent: while a device holds at least SIZE (default 8M)\n"
	  "still to write, shows \"Writing 120 MiB to SanDisk Cruzer \xe2\x80\x94 24 s left\" through the\n"
	  "session's notification server, then \"safe to remove\" when it has drained.\n"
	  "--bus: where wbgovd is (default the system bus). Runs until INT or TERM.") },
	{ "restore", "restore",
	  N_("Give back every knob recorded in the state file (after `apply --once`, or a\n"
	  "wbgovd that was killed). Needs root; refused while wbgovd runs.") },
};

static int command_help(const char *cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, cmd)) {
			printf(_("Usage: wbgov [OPTIONS] %s\n\n%s\n\nOPTIONS: --root DIR, --state-dir DIR, "
				 "-c FILE. See wbgov(8).\n"), commands[i].synopsis, _(commands[i].text));
			return 0;
		}
	usage(stdout);
	return 0;
}

static int version(void)
{
	printf("wbgov %s\n", VERSION);
	return 0;
}

/* The options that struct cli keeps no trace of having been given. */
struct given {
	bool interval, threshold;
};

/* One option after the command (`word` as it was written): 0, or an exit
 * status, the message said. */
static int take_option(struct cli *o, struct given *g, const char *cmd, int c, const char *arg,
		       const char *word)
{
	switch (c) {
	case 'j': o->json = true; return 0;
	case 'p': o->prometheus = true; return 0;
	case '1': o->once = true; return 0;
	case 'P': o->no_power_off = true; return 0;
	case 'q': o->quiet = true; return 0;
	case 'B':
		/* checked here: status and explain would otherwise show "-" for
		 * a misspelt bus as for a wbgovd that tells nothing */
		if (bus_parse_kind(arg, &(enum bus_kind){ BUS_OFF }) < 0)
			return cli_bad("--bus wants system, session, none or an address (unix:path=...)",
				       arg);
		o->bus = arg;
		return 0;
	case 'T':
		g->threshold = true;
		return cli_set_threshold(o, arg) ?
			       cli_bad("--threshold wants a size above 0 (8M, 512K)", arg) : 0;
	case 'i':
		g->interval = true;
		return cli_set_interval(o, arg) ?
			       cli_bad("--interval wants seconds from 0.1 to 3600", arg) : 0;
	case 'c': o->config = arg; return 0;
	case 'R': o->root = arg; return 0;
	case 'S': o->state_dir = arg; return 0;
	case ':':
		fprintf(stderr, _("wbgov %s: %s needs a value; see wbgov %s --help\n"), cmd, word,
			cmd);
		return EX_USAGE;
	default:
		if (optopt)
			fprintf(stderr, _("wbgov %s: unknown option -%c; see wbgov %s --help\n"), cmd,
				optopt, cmd);
		else
			fprintf(stderr, _("wbgov %s: unknown option %s; see wbgov %s --help\n"), cmd,
				word, cmd);
		return EX_USAGE;
	}
}

/* An option that belongs to another command is refused, not ignored: 0
 * or an exit status, the message said. */
static int options_fit(const struct cli *o, const struct given *g, const char *cmd)
{
	const char *bad = NULL;

	if (o->json && strcmp(cmd, "status") && strcmp(cmd, "explain") && strcmp(cmd, "watch") &&
	    strcmp(cmd, "cp"))
		bad = "--json";
	else if (o->prometheus && strcmp(cmd, "status"))
		bad = "--prometheus";
	else if (o->once && strcmp(cmd, "apply"))
		bad = "--once";
	else if (g->interval && strcmp(cmd, "watch"))
		bad = "--interval";
	else if (o->no_power_off && strcmp(cmd, "eject"))
		bad = "--no-power-off";
	else if (o->quiet && strcmp(cmd, "cp"))
		bad = "--quiet";
	else if (o->bus && strcmp(cmd, "notify") && strcmp(cmd, "status") && strcmp(cmd, "watch") &&
		 strcmp(cmd, "explain"))
		bad = "--bus";
	else if (g->threshold && strcmp(cmd, "notify"))
		bad = "--threshold";
	else if (bus_named_off(o->bus) && !strcmp(cmd, "notify"))
		bad = "--bus none";
	if (bad) {
		fprintf(stderr, _("wbgov %s: %s is not an option of %s; see wbgov %s --help\n"), cmd,
			bad, cmd, cmd);
		return EX_USAGE;
	}
	if (o->json && o->prometheus) {
		fprintf(stderr, _("wbgov status: --json or --prometheus, not both\n"));
		return EX_USAGE;
	}
	return 0;
}

/* The command `cmd` with its argument `arg` (cp: its n words `args`). */
static int run(struct cli *o, const char *cmd, const char *arg, int n, char **args)
{
	static struct knobs_real real;

	real.root = o->root;
	o->real = &real;
	if (!strcmp(cmd, "status"))
		return arg ? cli_bad("status takes no argument", arg) : cli_status(o, stdout);
	if (!strcmp(cmd, "watch"))
		return arg ? cli_bad("watch takes no argument", arg) : cli_watch(o);
	if (!strcmp(cmd, "sync"))
		return cli_sync(o, arg);
	if (!strcmp(cmd, "eject"))
		return arg ? cli_eject(o, arg, !o->no_power_off)
			   : cli_bad("eject needs a PATH or DEVICE", _("e.g. /media/stick or sdb"));
	if (!strcmp(cmd, "cp"))
		return cli_cp(o, n, args);
	if (!strcmp(cmd, "explain"))
		return arg ? cli_explain(o, arg) : cli_bad("explain needs a DEVICE", _("e.g. sdb"));
	if (!strcmp(cmd, "apply"))
		return arg ? cli_bad("apply takes no argument", arg) : cli_apply(o);
	if (!strcmp(cmd, "notify"))
		return arg ? cli_bad("notify takes no argument", arg) : cli_notify(o);
	if (!strcmp(cmd, "restore"))
		return arg ? cli_bad("restore takes no argument", arg) : cli_restore(o);
	return cli_bad("unknown command", cmd);
}

static const struct option opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "prometheus", no_argument, NULL, 'p' },
	{ "once", no_argument, NULL, '1' },
	{ "interval", required_argument, NULL, 'i' },
	{ "no-power-off", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "config", required_argument, NULL, 'c' },
	{ "root", required_argument, NULL, 'R' },
	{ "state-dir", required_argument, NULL, 'S' },
	{ "bus", required_argument, NULL, 'B' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The messages in the user's language (LC_MESSAGES, LANGUAGE), in
 * UTF-8 whatever the locale's charset: notifications go over D-Bus, which
 * takes nothing else, and the rest of wbgov writes UTF-8 already. Only
 * LC_CTYPE and LC_MESSAGES: numbers keep their decimal point, as JSON and
 * Prometheus text want. WBGOV_TEXTDOMAINDIR: the catalogues of a build
 * not installed (the tests), for a user's wbgov alone: a catalogue holds
 * the format strings printf is given, and root takes none from its
 * environment (nor does a set-uid caller: secure_getenv). */
static void i18n_init(void)
{
	const char *dir = geteuid() ? secure_getenv("WBGOV_TEXTDOMAINDIR") : NULL;

	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
	bindtextdomain(WBGOV_TEXTDOMAIN, dir && dir[0] ? dir : LOCALEDIR);
	bind_textdomain_codeset(WBGOV_TEXTDOMAIN, "UTF-8");
	textdomain(WBGOV_TEXTDOMAIN);
}

int main(int argc, char **argv)
{
	struct cli o = { .root = "/", .state_dir = "/run/wbgov", .config = CONFFILE_DEFAULT_PATH,
			 .interval = 1.0, .threshold = 8ULL << 20 };
	struct given g = { 0 };
	const char *cmd, *arg = NULL;
	int c, first, rc;

	i18n_init();
	while ((c = getopt_long(argc, argv, "+c:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config = optarg; break;
		case 'R': o.root = optarg; break;
		case 'S': o.state_dir = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': return version();
		case 'j': case 'p': case '1': case 'i': case 'P': case 'q': case 'B': case 'T':
			return cli_bad("that option goes after the command", argv[optind - 1]);
		default: return EX_USAGE;
		}
	}
	if (optind >= argc)
		return cli_bad("no command given", _("try `wbgov --help`"));
	cmd = argv[optind];
	/* the command's own options may come before or after its argument:
	 * parse the rest afresh (optind 0) with GNU's permuting order */
	argc -= optind;
	argv += optind;
	optind = 0;
	opterr = 0; /* the messages name the command */
	while ((c = getopt_long(argc, argv, ":c:hqV", opts, NULL)) != -1) {
		if (c == 'h')
			return command_help(cmd);
		if (c == 'V')
			return version();
		if ((rc = take_option(&o, &g, cmd, c, optarg, argv[optind - 1])))
			return rc;
	}
	first = optind; /* cp's SRC... DEST */
	if (optind < argc)
		arg = argv[optind++];
	if (optind < argc && strcmp(cmd, "cp"))
		return cli_bad("unexpected argument", argv[optind]);
	if ((rc = options_fit(&o, &g, cmd)))
		return rc;
	return run(&o, cmd, arg, argc - first, argv + first);
}
