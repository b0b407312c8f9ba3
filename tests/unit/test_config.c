/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf through libinih: the defaults, a full configuration, and one
 * malformed case per message of src/policy/config.c and src/sys/conffile.c,
 * each with its exact "NAME:LINE: " prefix. File cases use a mkdtemp() directory that the group
 * teardown removes. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/ini.h"
#include "model/units.h"
#include "policy/config.h"
#include "policy/decide.h"
#include "policy/tunables.h"
#include "sys/conffile.h"
#include "sys/fsid.h"

#define BASE_TEMPLATE "/tmp/wbgov-test-config-XXXXXX"

static char g_base[PATH_MAX];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(g_base, sizeof(g_base), "%s", BASE_TEMPLATE);
	return mkdtemp(g_base) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	if (g_base[0] && strcmp(g_base, BASE_TEMPLATE))
		nftw(g_base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void file_path(char *p, size_t len, const char *name)
{
	int n = snprintf(p, len, "%s/%s", g_base, name);

	assert_true(n > 0 && (size_t)n < len);
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_defaults(const struct gov_config *c)
{
	assert_int_equal(c->target_ms, 1000);
	assert_int_equal(c->floor_bytes, 256 * KIB);
	assert_int_equal(c->ceiling_bytes, 256 * MIB);
	assert_int_equal(c->fast_target_ms, 2000);
	assert_int_equal(c->initial_bytes, 4 * MIB);
	assert_int_equal(c->nrules, 0);
}

/* One malformed input and the whole message it must give. */
struct bad_case {
	const char *text;
	const char *want;
};

/* Runs every case and reports every mismatch, then fails once. */
static void check_bad(const struct bad_case *cases, size_t n)
{
	int failures = 0;

	for (size_t i = 0; i < n; i++) {
		struct gov_config c;
		char err[512] = "untouched";
		int r = conffile_parse_string("t.conf", cases[i].text, &c, err, sizeof(err));
		if (r == -EINVAL && !strcmp(err, cases[i].want))
			continue;
		failures++;
		print_error("case %zu:\n  input: \"%s\"\n  got:   %d \"%s\"\n  want:  -EINVAL \"%s\"\n", i,
			    cases[i].text, r, err, cases[i].want);
	}
	if (failures)
		fail_msg("%d of %zu malformed cases gave another answer", failures, n);
}

/* ------------------------------------------------------------ good */

static void test_config_defaults_when_missing(void **state)
{
	char p[PATH_MAX], err[256] = "x";
	struct gov_config c;

	(void)state;
	file_path(p, sizeof(p), "no-such.conf");
	memset(&c, 0xaa, sizeof(c));
	assert_int_equal(conffile_load(p, true, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_defaults(&c);
}

static void test_config_missing_not_ok(void **state)
{
	char p[PATH_MAX], want[PATH_MAX + 64], err[PATH_MAX + 64];
	struct gov_config c;

	(void)state;
	file_path(p, sizeof(p), "no-such.conf");
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", p);
	assert_string_equal(err, want);
}

static void test_config_empty(void **state)
{
	char err[256];
	struct gov_config c;

	(void)state;
	assert_int_equal(conffile_parse_string("t.conf", "", &c, err, sizeof(err)), 0);
	assert_defaults(&c);
	assert_int_equal(conffile_parse_string("t.conf", "# nothing\n; at all\n\n[global]\n", &c, err,
					     sizeof(err)), 0);
	assert_defaults(&c);
	assert_int_equal(conffile_load("/dev/null", false, &c, err, sizeof(err)), 0);
	assert_defaults(&c);
}

#define FULL_CONFIG \
	"# /etc/wbgov/wbgov.conf\n"                      /*  1 */ \
	"[global]\n"                                     /*  2 */ \
	"target = 1.5s        ; seconds of bandwidth\n"  /*  3 */ \
	"floor = 8M\n"                                   /*  4 */ \
	"ceiling = 1G\n"                                 /*  5 */ \
	"initial = 32MiB\n"                              /*  6 */ \
	"fast_target = 3s\n"                             /*  7 */ \
	"[device stick]\n"                               /*  8 */ \
	"serial = 4C530001190823115393\n"                /*  9 */ \
	"mode = fixed\n"                                 /* 10 */ \
	"max_bytes = 32M\n"                              /* 11 */ \
	"\n"                                             /* 12 */ \
	"[device backup-disk]\n"                         /* 13 */ \
	"model = WD Elements 25A2\n"                     /* 14 */ \
	"mode = time\n"                                  /* 15 */ \
	"target = 2500ms\n"                              /* 16 */ \
	"\n"                                             /* 17 */ \
	"[device all-usb]\n"                             /* 18 */ \
	"bus = usb\n"                                    /* 19 */ \
	"\n"                                             /* 20 */ \
	"[device old-nvme]\n"                            /* 21 */ \
	"devnum = 259:0\n"                               /* 22 */ \
	"mode = off\n"                                   /* 23 */

static void check_full(const struct gov_config *c)
{
	struct knobs_dev stick = { .bdi = "8:16", .serial = "4C530001190823115393", .bus = "usb",
				   .major = 8, .minor = 16 };
	struct knobs_dev other = { .bdi = "8:32", .serial = "X", .bus = "usb", .major = 8, .minor = 32 };
	struct knobs_dev wd = { .bdi = "8:48", .model = "WD Elements 25A2", .bus = "usb" };
	struct knobs_dev nvme = { .bdi = "259:0", .bus = "nvme", .major = 259, .minor = 0 };

	assert_int_equal(c->target_ms, 1500);
	assert_int_equal(c->floor_bytes, 8 * MIB);
	assert_int_equal(c->ceiling_bytes, GIB);
	assert_int_equal(c->fast_target_ms, 3000);
	assert_int_equal(c->initial_bytes, 32 * MIB);
	assert_int_equal(c->nrules, 4);

	assert_string_equal(c->rules[0].match[MATCH_SERIAL], "4C530001190823115393");
	assert_string_equal(c->rules[0].match[MATCH_MODEL], "");
	assert_string_equal(c->rules[0].name, "stick");
	assert_int_equal(c->rules[0].mode, MODE_FIXED);
	assert_int_equal(c->rules[0].fixed_bytes, 32 * MIB);
	assert_int_equal(c->rules[0].target_ms, 0);
	assert_int_equal(c->rules[0].line, 8);

	assert_string_equal(c->rules[1].match[MATCH_MODEL], "WD Elements 25A2");
	assert_int_equal(c->rules[1].mode, MODE_TIME);
	assert_int_equal(c->rules[1].target_ms, 2500);
	assert_int_equal(c->rules[1].line, 13);

	assert_string_equal(c->rules[2].match[MATCH_BUS], "usb");
	assert_int_equal(c->rules[2].mode, MODE_TIME);
	assert_int_equal(c->rules[2].target_ms, 0);
	assert_int_equal(c->rules[2].line, 18);

	assert_string_equal(c->rules[3].match[MATCH_DEVNUM], "259:0");
	assert_int_equal(c->rules[3].mode, MODE_OFF);
	assert_int_equal(c->rules[3].line, 21);

	/* the first matching section wins */
	assert_ptr_equal(gov_match(c, &stick), &c->rules[0]);
	assert_ptr_equal(gov_match(c, &other), &c->rules[2]);
	assert_ptr_equal(gov_match(c, &wd), &c->rules[1]);
	assert_ptr_equal(gov_match(c, &nvme), &c->rules[3]);
}

static void test_config_full(void **state)
{
	char err[256] = "x";
	struct gov_config c;

	(void)state;
	assert_int_equal(conffile_parse_string("t.conf", FULL_CONFIG, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_full(&c);
}

static void test_config_full_file(void **state)
{
	char p[PATH_MAX], err[256] = "x";
	struct gov_config c;

	(void)state;
	file_path(p, sizeof(p), "full.conf");
	write_file(p, FULL_CONFIG);
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_full(&c);
	/* missing_ok changes nothing for a file that is there */
	assert_int_equal(conffile_load(p, true, &c, err, sizeof(err)), 0);
	check_full(&c);
}

/* Keys before any [section] are [global]'s; [global] may come back later. */
static void test_config_global_anywhere(void **state)
{
	char err[256];
	struct gov_config c;

	(void)state;
	assert_int_equal(conffile_parse_string("t.conf",
					     "floor = 8M\n"
					     "[device a]\nbus = usb\n"
					     "[global]\nceiling = 64M\n"
					     "[device b]\nbus = ata\n",
					     &c, err, sizeof(err)), 0);
	assert_int_equal(c.floor_bytes, 8 * MIB);
	assert_int_equal(c.ceiling_bytes, 64 * MIB);
	assert_int_equal(c.nrules, 2);
	assert_int_equal(c.rules[1].line, 6);
	/* the limits are inclusive */
	assert_int_equal(conffile_parse_string("t.conf", "target = 0.1\nfloor = 4096\n"
					     "[device x]\ntarget = 60s\nbus = usb\n",
					     &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 100);
	assert_int_equal(c.floor_bytes, 4096);
	assert_int_equal(c.rules[0].target_ms, 60000);
	/* exactly 32 sections */
	{
		char text[4096];
		size_t used = 0;
		for (int i = 0; i < GOV_MAX_RULES; i++)
			used += (size_t)snprintf(text + used, sizeof(text) - used,
						 "[device d%d]\nbus = usb\n", i);
		assert_true(used < sizeof(text));
		assert_int_equal(conffile_parse_string("t.conf", text, &c, err, sizeof(err)), 0);
		assert_int_equal(c.nrules, GOV_MAX_RULES);
		assert_int_equal(c.rules[31].line, 63);
	}
}

/* ------------------------------------------------------------- bad */

/* Errors about a key: the key's line. Errors about a section's contents as a
 * whole: its [header] line. */
static void test_config_errors(void **state)
{
	static const struct bad_case cases[] = {
		/* [global] */
		{ "[global]\ntarget = 1s\nspeed = 5\n",
		  "t.conf:3: unknown key \"speed\" in [global] (target, floor, ceiling, initial, fast_target, global_drain, metrics, metrics_interval, bus)" },
		{ "speed = 5\n",
		  "t.conf:1: unknown key \"speed\" in [global] (target, floor, ceiling, initial, fast_target, global_drain, metrics, metrics_interval, bus)" },
		{ "[global]\nfloor = 4M\n; comment\nfloor = 8M\n",
		  "t.conf:4: \"floor\" is set twice" },
		{ "target = 1s\n[device a]\nbus = usb\n[global]\ntarget = 2s\n",
		  "t.conf:5: \"target\" is set twice" },
		{ "[global]\ntarget = 50ms\n",
		  "t.conf:2: target = \"50ms\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "[global]\n\ntarget = 61s\n",
		  "t.conf:3: target = \"61s\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "[global]\ntarget = soon\n",
		  "t.conf:2: target = \"soon\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "[global]\nfast_target = 0s\n",
		  "t.conf:2: fast_target = \"0s\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "fast_target = 2s\nfast_target = 3s\n",
		  "t.conf:2: \"fast_target\" is set twice" },
		{ "[global]\ninitial = 1K\n",
		  "t.conf:2: initial = \"1K\": want a size from 4096 bytes to 1024 GiB, like 4M" },
		{ "[global]\nceiling = big\n",
		  "t.conf:2: ceiling = \"big\": want a size from 4096 bytes to 1024 GiB, like 4M" },
		{ "[global]\nfloor = -4M\n",
		  "t.conf:2: floor = \"-4M\": want a size from 4096 bytes to 1024 GiB, like 4M" },
		/* [device ...] keys */
		{ "[device stick]\nserial = 4C53\nmodel = Cruzer\nserial = 4C54\n",
		  "t.conf:4: \"serial\" is set twice in [device stick]" },
		{ "[device stick]\nbus = usb\nmode = off\nbus = ata\n",
		  "t.conf:4: \"bus\" is set twice in [device stick]" },
		{ "[device stick]\nlabel =\n",
		  "t.conf:2: label = \"\": want a non-empty value of at most 63 characters" },
		{ "[device stick]\nserial =\n",
		  "t.conf:2: serial = \"\": want a non-empty value of at most 63 characters" },
		{ "[device stick]\nmodel = 0123456789012345678901234567890123456789012345678901234567890123\n",
		  "t.conf:2: model = \"0123456789012345678901234567890123456789012345678901234567890123\": "
		  "want a non-empty value of at most 63 characters" },
		{ "[device stick]\ndevnum = 8-16\n",
		  "t.conf:2: devnum = \"8-16\": want MAJOR:MINOR, like 8:16" },
		{ "[device stick]\ndevnum = 8:16x\n",
		  "t.conf:2: devnum = \"8:16x\": want MAJOR:MINOR, like 8:16" },
		{ "[device stick]\ndevnum = 8:\n",
		  "t.conf:2: devnum = \"8:\": want MAJOR:MINOR, like 8:16" },
		{ "[device stick]\nbus = usb\nmode = fast\n",
		  "t.conf:3: mode = \"fast\": want time, fixed or off" },
		{ "[device stick]\nbus = usb\nmode = fixed\nmax_bytes = 100\n",
		  "t.conf:4: max_bytes = \"100\": want a size of at least 4096 bytes, like 16M" },
		{ "[device stick]\nbus = usb\ntarget = 90s\n",
		  "t.conf:3: target = \"90s\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "[device stick]\nbus = usb\ntarget = 0.05\n",
		  "t.conf:3: target = \"0.05\": want seconds from 0.1 to 60, like 1s or 1500ms" },
		{ "[device stick]\nbus = usb\nspeed = 5M\n",
		  "t.conf:3: unknown key \"speed\" in [device stick] (serial, model, bus, devnum, mount, "
		  "label, uuid, usb, wwn, mode, max_bytes, target)" },
		/* [device ...] sections as a whole: the header's line */
		{ "[global]\ntarget = 1s\n[device a]\nmode = off\n",
		  "t.conf:3: this [device] section has no match key (serial, model, bus, devnum, mount, "
		  "label, uuid, usb or wwn)" },
		{ "[global]\n\n[device a]\nbus = usb\nmode = fixed\n",
		  "t.conf:3: mode fixed needs max_bytes" },
		{ "[device a]\nbus = usb\n\n[device b]\nserial = X\nmode = fixed\n",
		  "t.conf:4: mode fixed needs max_bytes" },
		{ "[device a]\nbus = usb\nmax_bytes = 16M\n",
		  "t.conf:1: max_bytes goes with mode fixed" },
		{ "[device a]\nbus = usb\nmode = off\nmax_bytes = 16M\n",
		  "t.conf:1: max_bytes goes with mode fixed" },
		{ "[device a]\nbus = usb\nmode = fixed\nmax_bytes = 16M\ntarget = 2s\n",
		  "t.conf:1: target goes with mode time" },
		{ "[device a]\nbus = usb\nmode = off\ntarget = 2s\n",
		  "t.conf:1: target goes with mode time" },
		/* inih's own syntax errors */
		{ "[global]\ntarget = 1s\nthis is not ini\n",
		  "t.conf:3: not a section, key = value, or comment" },
		{ "[global\ntarget = 1s\n",
		  "t.conf:1: not a section, key = value, or comment" },
		/* the first error wins */
		{ "[global]\nbogus = 1\n[device a]\nmode = off\nfloor = 1\n",
		  "t.conf:2: unknown key \"bogus\" in [global] (target, floor, ceiling, initial, fast_target, global_drain, metrics, metrics_interval, bus)" },
	};

	(void)state;
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_config_floor_above_ceiling(void **state)
{
	static const struct bad_case cases[] = {
		{ "[global]\nfloor = 512M\n", "t.conf: floor is above ceiling" },
		{ "[global]\nfloor = 8M\nceiling = 4M\n", "t.conf: floor is above ceiling" },
	};

	(void)state;
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Errors about a [section] header itself point at the header, like the
 * section checks do (commit 1428141: "config errors point at the [section]
 * line"), not at the first key under it. */
static void test_config_section_errors_at_header(void **state)
{
	char many[4096];
	size_t used = 0;
	struct bad_case cases[] = {
		{ "[global]\ntarget = 1s\n\n[devices usb]\nbus = usb\n",
		  "t.conf:4: unknown section [devices usb] (global, or device NAME)" },
		{ "[device a]\nbus = usb\n[device b]\nbus = ata\n[device a]\nbus = nvme\n",
		  "t.conf:5: [device a] appears twice" },
		{ many, "t.conf:65: too many [device] sections (at most 32)" },
	};

	(void)state;
	for (int i = 0; i <= GOV_MAX_RULES; i++)
		used += (size_t)snprintf(many + used, sizeof(many) - used, "[device d%d]\nbus = usb\n", i);
	assert_true(used < sizeof(many));
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

/* A section repeated right after itself is repeated all the same: it must
 * not merge silently when the same repetition one section later is refused. */
/* A line longer than inih's buffer is refused, with its number: inih
 * would read it in pieces, each taken for a line (a comment ending in
 * "ceiling = 8K" set it), and a first line so long hid every later error.
 * A key of a [device] section set twice is an error, as in [global]. */
static void test_config_long_line_and_device_duplicates(void **state)
{
	static char long_line[512], long_comment[512], long_first[512];
	static struct bad_case cases[] = {
		{ NULL, "t.conf:2: a line longer than 198 characters" },
		{ NULL, "t.conf:2: a line longer than 198 characters" },
		{ NULL, "t.conf:1: a line longer than 198 characters" },
		{ "[device a]\nbus = usb\nmode = fixed\nmax_bytes = 8M\nmax_bytes = 16M\n",
		  "t.conf:5: \"max_bytes\" is set twice in [device a]" },
		{ "[device a]\nbus = usb\nmode = off\nmode = time\n",
		  "t.conf:4: \"mode\" is set twice in [device a]" },
	};

	(void)state;
	memset(long_line, 0, sizeof(long_line));
	strcpy(long_line, "[global]\n# ");
	memset(long_line + strlen(long_line), 'a', 300);
	strcat(long_line, "\ntarget = 5x\n");
	cases[0].text = long_line;
	strcpy(long_comment, "[global]\n# ");
	memset(long_comment + strlen(long_comment), 'a', 190);
	strcat(long_comment, "ceiling = 8K\n");
	cases[1].text = long_comment;
	strcpy(long_first, "# ");
	memset(long_first + 2, 'a', 250);
	strcat(long_first, "\n[device a]\ndevnum = 8:16\nmode = fixed\n");
	cases[2].text = long_first;
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_config_adjacent_duplicate_section(void **state)
{
	static const struct bad_case cases[] = {
		{ "[device a]\nbus = usb\n[device a]\nmode = fixed\nmax_bytes = 16M\n",
		  "t.conf:3: [device a] appears twice" },
	};

	(void)state;
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_config_file_errors(void **state)
{
	char p[PATH_MAX], want[PATH_MAX + 128], err[PATH_MAX + 128];
	struct gov_config c;

	(void)state;
	file_path(p, sizeof(p), "bad.conf");
	write_file(p, "[global]\n\ntarget = 100s\n");
	assert_int_equal(conffile_load(p, true, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:3: target = \"100s\": want seconds from 0.1 to 60, like 1s or 1500ms", p);
	assert_string_equal(err, want);

	/* the wbgovd system test's bad.conf */
	write_file(p, "[global]\ntarget = 1s\n[device a]\nmode = fixed\n");
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:3: this [device] section has no match key (serial, model, "
		 "bus, devnum, mount, label, uuid, usb or wwn)", p);
	assert_string_equal(err, want);

	write_file(p, "[global]\nfloor = 1G\n");
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: floor is above ceiling", p);
	assert_string_equal(err, want);

	/* a message longer than the buffer is cut, still terminated */
	write_file(p, "[global]\nfloor = 1\n");
	assert_int_equal(conffile_load(p, false, &c, err, 8), -EINVAL);
	assert_int_equal(strlen(err), 7);
}

/* What root reads must be what its owner meant: a FIFO or /dev/zero
 * (which would never end, signals blocked) is not a file, and neither
 * blocks; one others can write, or too large, is refused; /dev/null is
 * the defaults; a link to a good file is followed. */
static void test_config_file_trust(void **state)
{
	char p[PATH_MAX], q[PATH_MAX], err[PATH_MAX + 128];
	static char big[INI_TEXT_MAX + 16];
	struct gov_config c;

	(void)state;
	assert_int_equal(conffile_load("/dev/zero", false, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/zero: not a regular file"));
	file_path(p, sizeof(p), "fifo.conf");
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_int_equal(conffile_load("/dev/null", false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 1000);
	file_path(p, sizeof(p), "open.conf");
	write_file(p, "[global]\ntarget = 2s\n");
	assert_int_equal(chmod(p, 0666), 0);
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "writable by others"));
	assert_int_equal(chmod(p, 0644), 0);
	file_path(q, sizeof(q), "link.conf");
	unlink(q);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(conffile_load(q, false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 2000);
	memset(big, '#', sizeof(big) - 1);
	write_file(p, big);
	assert_int_equal(conffile_load(p, false, &c, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "larger than 64 KiB"));
}

/* A directory is not a configuration: fopen() succeeds on it, the first
 * read fails with EISDIR, and that must not pass for an empty file
 * ("wbgovd -n -c /etc/wbgov/" would print "configuration OK"). */
static void test_config_directory_is_an_error(void **state)
{
	char err[PATH_MAX + 128], want[PATH_MAX + 8];
	struct gov_config c;
	int r;

	(void)state;
	r = conffile_load(g_base, false, &c, err, sizeof(err));
	assert_true(r < 0);
	snprintf(want, sizeof(want), "%s:", g_base);
	assert_memory_equal(err, want, strlen(want));
}

/* ------------------------------------------------------------ drop-ins */

/* snprintf that must fit. */
static void fmt_s(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));

static void fmt_s(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

/* A directory of its own for each test: DIR/main.conf and DIR/wbgov.conf.d. */
static void dropin_root(char *dir, size_t len, const char *name)
{
	char d[PATH_MAX];

	file_path(dir, len, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	fmt_s(d, sizeof(d), "%s/wbgov.conf.d", dir);
	assert_int_equal(mkdir(d, 0755), 0);
}

static void dropin_write(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX];

	fmt_s(p, sizeof(p), "%s/%s", dir, name);
	write_file(p, text);
}

/* Every note, one per line. */
struct notes {
	char text[4096];
	int warnings, infos;
};

static void collect(void *ctx, enum config_note level, const char *msg)
{
	struct notes *n = ctx;
	size_t used = strlen(n->text);

	fmt_s(n->text + used, sizeof(n->text) - used, "%s%s\n",
		 level == CONFIG_WARNING ? "W " : "I ", msg);
	if (level == CONFIG_WARNING)
		n->warnings++;
	else
		n->infos++;
}

/* The main file, then wbgov.conf.d/ *.conf in strcmp order (10 before 9,
 * Z before a): a later [global] value replaces an earlier one, [device]
 * sections add up in that order, each rule knows its file and line;
 * other names are ignored, and said so. */
static void test_config_dropins_order(void **state)
{
	char dir[PATH_MAX], main_conf[PATH_MAX], want[PATH_MAX + 64];
	struct notes n = { "", 0, 0 };
	struct gov_config c;
	char err[512];

	(void)state;
	dropin_root(dir, sizeof(dir), "order");
	fmt_s(main_conf, sizeof(main_conf), "%s/main.conf", dir);
	write_file(main_conf, "[global]\ntarget = 2s\nfloor = 1M\n[device main]\nbus = usb\n");
	dropin_write(dir, "wbgov.conf.d/9-late.conf", "target = 5s\n[device nine]\nbus = ata\n");
	dropin_write(dir, "wbgov.conf.d/10-early.conf", "target = 3s\n\n[device ten]\nbus = nvme\n");
	dropin_write(dir, "wbgov.conf.d/Z.conf", "[global]\nceiling = 64M\n");
	dropin_write(dir, "wbgov.conf.d/a.conf", "initial = 8M\n");
	dropin_write(dir, "wbgov.conf.d/a.conf.dpkg-old", "target = bogus\n");
	dropin_write(dir, "wbgov.conf.d/.hidden.conf", "target = bogus\n");
	dropin_write(dir, "wbgov.conf.d/README", "not a configuration\n");
	assert_int_equal(conffile_load_notes(main_conf, false, &c, err, sizeof(err), collect, &n), 0);
	assert_string_equal(err, "");
	assert_int_equal(c.target_ms, 5000); /* 9-late.conf, the last to set it */
	assert_int_equal(c.floor_bytes, MIB);
	assert_int_equal(c.ceiling_bytes, 64 * MIB);
	assert_int_equal(c.initial_bytes, 8 * MIB);
	assert_int_equal(c.nrules, 3);
	assert_string_equal(c.rules[0].name, "main");
	assert_string_equal(c.rules[1].name, "ten");
	assert_string_equal(c.rules[2].name, "nine");
	assert_int_equal(c.rules[1].line, 3);
	assert_int_equal(c.nfiles, 5);
	assert_string_equal(c.files[c.rules[0].file], main_conf);
	fmt_s(want, sizeof(want), "%s/wbgov.conf.d/10-early.conf", dir);
	assert_string_equal(c.files[c.rules[1].file], want);
	fmt_s(want, sizeof(want), "%s/wbgov.conf.d/Z.conf", dir);
	assert_string_equal(c.files[3], want);
	assert_int_equal(n.warnings, 0);
	assert_int_equal(n.infos, 5 + 3); /* read 5, ignored 3 */
	fmt_s(want, sizeof(want), "I %s/wbgov.conf.d/a.conf.dpkg-old: ignored (not NAME.conf)", dir);
	assert_non_null(strstr(n.text, want));
	fmt_s(want, sizeof(want), "I %s/wbgov.conf.d/README: ignored", dir);
	assert_non_null(strstr(n.text, want));
	/* the files in the order read */
	{
		const char *m = strstr(n.text, "main.conf: read"), *t = strstr(n.text, "10-early.conf: read"),
			   *nine = strstr(n.text, "9-late.conf: read"), *z = strstr(n.text, "Z.conf: read"),
			   *a = strstr(n.text, "a.conf: read");
		assert_true(m && t && nine && z && a);
		assert_true(m < t && t < nine && nine < z && z < a);
	}
	/* /dev/null is the defaults alone, whatever /dev holds */
	assert_int_equal(conffile_load("/dev/null", false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 1000);
}

/* A missing main file that may be missing: the drop-ins alone apply. A
 * main file named with -c that is missing: the error, no drop-ins. */
static void test_config_dropins_without_main(void **state)
{
	char dir[PATH_MAX], main_conf[PATH_MAX], err[PATH_MAX + 128];
	struct gov_config c;

	(void)state;
	dropin_root(dir, sizeof(dir), "nomain");
	fmt_s(main_conf, sizeof(main_conf), "%s/wbgov.conf", dir);
	dropin_write(dir, "wbgov.conf.d/stick.conf", "[device stick]\nusb = 0781:5567\nmode = off\n");
	assert_int_equal(conffile_load(main_conf, true, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nrules, 1);
	assert_string_equal(c.rules[0].match[MATCH_USB], "0781:5567");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "wbgov.conf: No such file or directory"));
}

/* Errors in a drop-in name it and its line; a key set twice within one
 * file is still an error; a section name used in two files is refused,
 * naming the first; floor above ceiling names the file that set the last
 * of them; a drop-in must be as trusted as the main file, and so must its
 * directory. */
static void test_config_dropins_errors(void **state)
{
	char dir[PATH_MAX], main_conf[PATH_MAX], d[PATH_MAX], want[PATH_MAX * 2], err[PATH_MAX * 2];
	struct gov_config c;

	(void)state;
	dropin_root(dir, sizeof(dir), "errors");
	fmt_s(main_conf, sizeof(main_conf), "%s/wbgov.conf", dir);
	fmt_s(d, sizeof(d), "%s/wbgov.conf.d", dir);
	write_file(main_conf, "[device stick]\nusb = 0781:*\n");

	dropin_write(dir, "wbgov.conf.d/50-x.conf", "# a comment\ntarget = 2s\ntarget = 3s\n");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EINVAL);
	fmt_s(want, sizeof(want), "%s/50-x.conf:3: \"target\" is set twice", d);
	assert_string_equal(err, want);

	dropin_write(dir, "wbgov.conf.d/50-x.conf", "\n[device stick]\nbus = usb\n");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EINVAL);
	fmt_s(want, sizeof(want), "%s/50-x.conf:2: [device stick] appears twice (first in %s:1)", d,
		 main_conf);
	assert_string_equal(err, want);

	dropin_write(dir, "wbgov.conf.d/50-x.conf", "[device other]\nmode = off\n");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EINVAL);
	fmt_s(want, sizeof(want), "%s/50-x.conf:1: this [device] section has no match key "
		 "(serial, model, bus, devnum, mount, label, uuid, usb or wwn)", d);
	assert_string_equal(err, want);

	dropin_write(dir, "wbgov.conf.d/50-x.conf", "ceiling = 1M\n");
	write_file(main_conf, "floor = 2M\n");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EINVAL);
	fmt_s(want, sizeof(want), "%s/50-x.conf: floor is above ceiling", d);
	assert_string_equal(err, want);

	dropin_write(dir, "wbgov.conf.d/50-x.conf", "target = 2s\n");
	fmt_s(want, sizeof(want), "%s/50-x.conf", d);
	assert_int_equal(chmod(want, 0666), 0);
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EPERM);
	fmt_s(want, sizeof(want), "%s/50-x.conf: owned by another user than root or us, or "
		 "writable by others", d);
	assert_string_equal(err, want);
	fmt_s(want, sizeof(want), "%s/50-x.conf", d);
	assert_int_equal(chmod(want, 0644), 0);
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 2000);

	/* a directory others can write to */
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EPERM);
	fmt_s(want, sizeof(want), "%s: owned by another user than root or us, or writable by others", d);
	assert_string_equal(err, want);
	assert_int_equal(chmod(d, 0755), 0);

	/* a directory named NAME.conf in it */
	dropin_write(dir, "wbgov.conf.d/50-x.conf", "target = 2s\n");
	fmt_s(want, sizeof(want), "%s/60-dir.conf", d);
	assert_int_equal(mkdir(want, 0755), 0);
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -EINVAL);
	fmt_s(want, sizeof(want), "%s/60-dir.conf: a directory, not a configuration file", d);
	assert_string_equal(err, want);
	assert_int_equal(rmdir(want + 0) == 0 || 1, 1);
	fmt_s(want, sizeof(want), "%s/60-dir.conf", d);
	assert_int_equal(rmdir(want), 0);

	/* wbgov.conf.d a file, not a directory */
	assert_int_equal(unlink(strcat(strcpy(want, d), "/50-x.conf")), 0);
	assert_int_equal(rmdir(d), 0);
	write_file(d, "target = 2s\n");
	assert_int_equal(conffile_load(main_conf, false, &c, err, sizeof(err)), -ENOTDIR);
	fmt_s(want, sizeof(want), "%s: not a directory", d);
	assert_string_equal(err, want);
	unlink(d);
}

/* ------------------------------------------------------------ matching */

/* Every match key, as a glob (fnmatch, as sh's case: `*` crosses `/`),
 * against the facts a device has; a section matches when all its keys do. */
static void test_config_match_keys(void **state)
{
	static const char text[] =
		"[device mount]\nmount = /media/*/BACKUP\nmode = off\n"       /* 1 */
		"[device label]\nlabel = MY STICK\nmode = off\n"              /* 4 */
		"[device uuid]\nuuid = 1234-ABCD\nmode = off\n"               /* 7 */
		"[device usb]\nusb = 0781:55[0-9][0-9]\nmode = off\n"         /* 10 */
		"[device wwn]\nwwn = 0x5000c500a1b2c3d4\nmode = off\n"        /* 13 */
		"[device both]\nmodel = Samsung*\nbus = nvme\nmode = off\n"   /* 16 */
		"[device udevmodel]\nmodel = Cruzer_Blade\nmode = off\n"      /* 20 */
		"[device serial]\nserial = S5GX*\nmode = off\n"               /* 23 */
		"[device devnum]\ndevnum = 8:*\nmode = off\n";                /* 26 */
	struct gov_config c;
	char err[256];
	struct knobs_dev d;

	(void)state;
	assert_int_equal(conffile_parse_string("t.conf", text, &c, err, sizeof(err)), 0);
	assert_int_equal(c.nrules, 9);

	/* nothing known: nothing matches */
	memset(&d, 0, sizeof(d));
	assert_null(gov_match(&c, &d));

	/* mount: any of the disk's mount points; * crosses / */
	assert_true(knobs_list_add(d.mounts, sizeof(d.mounts), "/media/user/NO NAME"));
	assert_null(gov_match(&c, &d));
	assert_true(knobs_list_add(d.mounts, sizeof(d.mounts), "/media/alice/x/BACKUP"));
	assert_ptr_equal(gov_match(&c, &d), &c.rules[0]);

	/* label: a blank inside is part of it, no quotes needed */
	memset(&d, 0, sizeof(d));
	knobs_list_add(d.labels, sizeof(d.labels), "OTHER");
	assert_null(gov_match(&c, &d));
	knobs_list_add(d.labels, sizeof(d.labels), "MY STICK");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[1]);

	/* uuid: hex in either case */
	memset(&d, 0, sizeof(d));
	knobs_list_add(d.uuids, sizeof(d.uuids), "1234-abcd");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[2]);

	/* usb: idVendor:idProduct, a [set] in it */
	memset(&d, 0, sizeof(d));
	fmt_s(d.usb, sizeof(d.usb), "0781:5567");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[3]);
	fmt_s(d.usb, sizeof(d.usb), "0781:5A67");
	assert_null(gov_match(&c, &d));

	/* wwn: sysfs's naa. name matches udev's 0x form too */
	memset(&d, 0, sizeof(d));
	fmt_s(d.wwn, sizeof(d.wwn), "naa.5000C500A1B2C3D4");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[4]);
	fmt_s(d.wwn, sizeof(d.wwn), "eui.5000c500a1b2c3d4");
	assert_null(gov_match(&c, &d));

	/* two keys: both must match */
	memset(&d, 0, sizeof(d));
	fmt_s(d.model, sizeof(d.model), "Samsung SSD 980 PRO 1TB");
	fmt_s(d.bus, sizeof(d.bus), "ata");
	assert_null(gov_match(&c, &d));
	fmt_s(d.bus, sizeof(d.bus), "nvme");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[5]);

	/* model: sysfs's "vendor model", or udev's ID_MODEL form of it */
	memset(&d, 0, sizeof(d));
	fmt_s(d.model, sizeof(d.model), "SanDisk Cruzer Blade");
	fmt_s(d.model_id, sizeof(d.model_id), "Cruzer_Blade");
	assert_ptr_equal(gov_match(&c, &d), &c.rules[6]);

	/* serial, devnum: globs too; the first matching section wins */
	memset(&d, 0, sizeof(d));
	fmt_s(d.serial, sizeof(d.serial), "S5GXNX0T123456A");
	d.major = 8;
	d.minor = 16;
	assert_ptr_equal(gov_match(&c, &d), &c.rules[7]);
	d.serial[0] = 0;
	assert_ptr_equal(gov_match(&c, &d), &c.rules[8]);
	d.major = 259;
	assert_null(gov_match(&c, &d));

	/* the keys each section gives */
	assert_true(gov_config_uses(&c, MATCH_LABEL));
	assert_true(gov_config_uses(&c, MATCH_UUID));
	assert_int_equal(conffile_parse_string("t.conf", "[device a]\nbus = usb\n", &c, err, sizeof(err)), 0);
	assert_false(gov_config_uses(&c, MATCH_LABEL));
}

/* The list of a fact: values in order, no duplicate, nothing cut. */
static void test_knobs_list(void **state)
{
	char l[16];
	const char *p;

	(void)state;
	memset(l, 0, sizeof(l));
	assert_null(knobs_list_next(l, sizeof(l), NULL));
	assert_true(knobs_list_add(l, sizeof(l), "/a b"));
	assert_false(knobs_list_add(l, sizeof(l), "/a b"));
	assert_false(knobs_list_add(l, sizeof(l), ""));
	assert_true(knobs_list_add(l, sizeof(l), "/cd"));
	assert_false(knobs_list_add(l, sizeof(l), "/toolong")); /* 5 + 4 + 9 + 1 > 16 */
	assert_true(knobs_list_add(l, sizeof(l), "/e"));
	p = knobs_list_next(l, sizeof(l), NULL);
	assert_string_equal(p, "/a b");
	p = knobs_list_next(l, sizeof(l), p);
	assert_string_equal(p, "/cd");
	p = knobs_list_next(l, sizeof(l), p);
	assert_string_equal(p, "/e");
	assert_null(knobs_list_next(l, sizeof(l), p));
}

/* What wbgovd -n warns of: a value in quotes (inih keeps them), and globs
 * no fact can match; a warning is no error (the parse succeeds) and says
 * FILE:LINE. Good values give none. */
static void test_config_warnings(void **state)
{
	static const struct {
		const char *line;
		const char *want; /* NULL: no warning */
	} cases[] = {
		{ "label = \"MY STICK\"", "t.conf:2: warning: label = \"MY STICK\": never matches: the quotes "
		  "are part of the value (write label = MY STICK)" },
		{ "model = 'Cruzer Blade'", "t.conf:2: warning: model = 'Cruzer Blade': never matches: the "
		  "quotes are part of the value (write model = Cruzer Blade)" },
		{ "usb = 0781-5567", "t.conf:2: warning: usb = 0781-5567: never matches: a USB id is "
		  "VENDOR:PRODUCT, four hex digits each, like 0781:5567" },
		{ "usb = 781:5567", "t.conf:2: warning: usb = 781:5567: never matches: a USB id is "
		  "VENDOR:PRODUCT, four hex digits each, like 0781:5567" },
		{ "usb = 0781:556g", "t.conf:2: warning: usb = 0781:556g: never matches: a USB id is "
		  "VENDOR:PRODUCT, four hex digits each, like 0781:5567" },
		{ "usb = sandisk*", "t.conf:2: warning: usb = sandisk*: never matches: a USB id is "
		  "VENDOR:PRODUCT, four hex digits each, like 0781:5567" },
		{ "uuid = 1234_abcd", "t.conf:2: warning: uuid = 1234_abcd: never matches: a filesystem "
		  "UUID has hex digits and - only" },
		{ "mount = media/*", "t.conf:2: warning: mount = media/*: never matches: a mount point "
		  "starts with /" },
		{ "bus = USB", "t.conf:2: warning: bus = USB: never matches: the buses are usb, ata, nvme, "
		  "mmc, virtio, loop, virtual, and udev's scsi, ieee1394, memstick (case counts)" },
		{ "devnum = 8:1x*", "t.conf:2: warning: devnum = 8:1x*: never matches: a device number is "
		  "MAJOR:MINOR, digits only" },
		{ "usb = 0781:5567", NULL },
		{ "usb = 0781:*", NULL },
		{ "usb = ????:5567", NULL },
		{ "usb = 0781:55[0-9]?", NULL },
		{ "usb = 0781:5[5]67", NULL },
		{ "uuid = 0a1b2c3d-*", NULL },
		{ "uuid = 1234-ABCD", NULL },
		{ "mount = /media/*", NULL },
		{ "mount = */BACKUP", NULL },
		{ "bus = usb", NULL },
		{ "bus = [an]*", NULL },
		{ "devnum = 8:*", NULL },
		{ "label = MY STICK", NULL },
		{ "wwn = naa.5000*", NULL },
	};
	int failures = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256], err[256];
		struct notes n = { "", 0, 0 };
		struct gov_config c;
		int r;
		fmt_s(text, sizeof(text), "[device x]\n%s\nmode = off\n", cases[i].line);
		r = conffile_parse_string_notes("t.conf", text, &c, err, sizeof(err), collect, &n);
		if (r == 0 && !cases[i].want && n.warnings == 0)
			continue;
		if (r == 0 && cases[i].want && n.warnings == 1 && !strncmp(n.text, "W ", 2) &&
		    !strncmp(n.text + 2, cases[i].want, strlen(cases[i].want)) &&
		    n.text[2 + strlen(cases[i].want)] == '\n')
			continue;
		failures++;
		print_error("case \"%s\": got %d, %d warnings: %s  want %s\n", cases[i].line, r,
			    n.warnings, n.text, cases[i].want ? cases[i].want : "(none)");
	}
	if (failures)
		fail_msg("%d warning cases gave another answer", failures);
}

/* wbgovd's own keys: each error on its line, naming what it wants. */
static void test_config_daemon_errors(void **state)
{
	static const struct bad_case cases[] = {
		{ "metrics = wbgov.prom\n",
		  "t.conf:1: metrics = \"wbgov.prom\": want an absolute path to a file, without . or .. "
		  "(or nothing: no metrics file)" },
		{ "[global]\nmetrics = /run/wbgov/../etc/x\n",
		  "t.conf:2: metrics = \"/run/wbgov/../etc/x\": want an absolute path to a file, without . "
		  "or .. (or nothing: no metrics file)" },
		{ "metrics = /run/wbgov/\n",
		  "t.conf:1: metrics = \"/run/wbgov/\": want an absolute path to a file, without . or .. "
		  "(or nothing: no metrics file)" },
		{ "metrics = /run/wbgov/./x.prom\n",
		  "t.conf:1: metrics = \"/run/wbgov/./x.prom\": want an absolute path to a file, without . "
		  "or .. (or nothing: no metrics file)" },
		{ "metrics = /run//wbgov.prom\n",
		  "t.conf:1: metrics = \"/run//wbgov.prom\": want an absolute path to a file, without . or "
		  ".. (or nothing: no metrics file)" },
		{ "metrics = /run/wbgov/a.prom\n; again\nmetrics = /run/wbgov/b.prom\n",
		  "t.conf:3: \"metrics\" is set twice" },
		{ "metrics_interval = 0.5\n",
		  "t.conf:1: metrics_interval = \"0.5\": want 1 to 3600 seconds (10, 10s, 1500ms)" },
		{ "metrics_interval = 3601s\n",
		  "t.conf:1: metrics_interval = \"3601s\": want 1 to 3600 seconds (10, 10s, 1500ms)" },
		{ "metrics_interval = often\n",
		  "t.conf:1: metrics_interval = \"often\": want 1 to 3600 seconds (10, 10s, 1500ms)" },
		{ "bus = systemd\n",
		  "t.conf:1: bus = \"systemd\": want system, session, none or an address (unix:path=...; no other transport)" },
		{ "bus =\n",
		  "t.conf:1: bus = \"\": want system, session, none or an address (unix:path=...; no other transport)" },
		{ "bus = none\nbus = system\n", "t.conf:2: \"bus\" is set twice" },
		{ "[device a]\nbus = usb\nmetrics = /run/wbgov/x.prom\n",
		  "t.conf:3: unknown key \"metrics\" in [device a] (serial, model, bus, devnum, mount, "
		  "label, uuid, usb, wwn, mode, max_bytes, target)" },
	};

	(void)state;
	check_bad(cases, sizeof(cases) / sizeof(cases[0]));
}

/* wbgovd's own keys parsed, with their file and line; unset, line 0. A
 * metrics file outside the unit's writable directories is a warning that
 * names the ReadWritePaths= to add. */
static void test_config_daemon_keys(void **state)
{
	static const struct {
		const char *path, *warn;
	} where[] = {
		{ "/run/wbgov/wbgov.prom", NULL },
		{ "/run/wbgov/sub/wbgov.prom", NULL },
		{ "/var/lib/prometheus/node-exporter/wbgov.prom", NULL },
		{ "/run/wbgovx/wbgov.prom", "W t.conf:1: warning: metrics = /run/wbgovx/wbgov.prom: "
		  "wbgovd.service may write only under /run/wbgov and /var/lib/prometheus/node-exporter "
		  "(ProtectSystem=strict): for another directory add a drop-in (systemctl edit wbgovd) "
		  "with [Service] ReadWritePaths=/run/wbgovx\n" },
		{ "/srv/metrics/wbgov.prom", "W t.conf:1: warning: metrics = /srv/metrics/wbgov.prom: "
		  "wbgovd.service may write only under /run/wbgov and /var/lib/prometheus/node-exporter "
		  "(ProtectSystem=strict): for another directory add a drop-in (systemctl edit wbgovd) "
		  "with [Service] ReadWritePaths=/srv/metrics\n" },
	};
	static struct conffile_daemon d;
	struct gov_config c;
	char err[512], text[256];

	(void)state;
	assert_int_equal(conffile_parse_string_daemon("t.conf", "target = 2s\n", &c, &d, err, sizeof(err),
						    NULL, NULL), 0);
	assert_int_equal(d.metrics_line, 0);
	assert_int_equal(d.metrics_interval_line, 0);
	assert_int_equal(d.bus_line, 0);
	assert_string_equal(d.metrics, "");
	assert_int_equal(d.metrics_ms, 0);
	assert_int_equal(conffile_parse_string_daemon("t.conf",
						    "[global]\ntarget = 2s\nmetrics = /run/wbgov/wbgov.prom\n"
						    "metrics_interval = 15s\n\nbus = unix:path=/run/x\n",
						    &c, &d, err, sizeof(err), NULL, NULL), 0);
	assert_int_equal(c.target_ms, 2000);
	assert_string_equal(d.metrics, "/run/wbgov/wbgov.prom");
	assert_int_equal(d.metrics_line, 3);
	assert_int_equal(d.metrics_ms, 15000);
	assert_int_equal(d.metrics_interval_line, 4);
	assert_string_equal(d.bus, "unix:path=/run/x");
	assert_int_equal(d.bus_line, 6);
	/* empty: no metrics file, said by the file */
	assert_int_equal(conffile_parse_string_daemon("t.conf", "metrics =\nbus = none\n", &c, &d, err,
						    sizeof(err), NULL, NULL), 0);
	assert_string_equal(d.metrics, "");
	assert_int_equal(d.metrics_line, 1);
	assert_string_equal(d.bus, "none");
	/* wbsim and wbgov read the same file and keep nothing of them */
	assert_int_equal(conffile_parse_string("t.conf", "metrics = /run/wbgov/x.prom\nbus = none\n", &c,
					     err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		struct notes n = { "", 0, 0 };
		fmt_s(text, sizeof(text), "metrics = %s\n", where[i].path);
		assert_int_equal(conffile_parse_string_daemon("t.conf", text, &c, &d, err, sizeof(err),
							    collect, &n), 0);
		assert_string_equal(d.metrics, where[i].path);
		assert_string_equal(n.text, where[i].warn ? where[i].warn : "");
	}
}

/* A drop-in's metrics and bus replace the main file's, naming its own
 * file and line. */
/* The grammar alone (policy/config.c) knows the rule's keys only: wbgovd's
 * own come through the reader's hook, and without one are unknown keys,
 * named as such with the rule's keys listed. A hook that takes a key, one
 * that refuses it (its message, at its line) and one that passes it on. */
static int hook_calls;
static int test_hook(void *ctx, struct config_parse *p, const char *key, const char *val)
{
	(void)ctx;
	hook_calls++;
	if (!strcmp(key, "mine"))
		return 1;
	if (!strcmp(key, "bad"))
		return config_fail(p, "bad = \"%s\": refused by the hook", val);
	return -1;
}

static void test_config_grammar_hook(void **state)
{
	static struct config_parse p;
	struct gov_config c;
	char err[512];

	(void)state;
	config_begin(&p, &c, err, sizeof(err), NULL, NULL);
	assert_int_equal(config_text(&p, "g.conf", "[global]\ntarget = 2s\nbus = system\n"), -EINVAL);
	assert_string_equal(err, "g.conf:3: unknown key \"bus\" in [global] (target, floor, ceiling, "
				 "initial, fast_target, global_drain)");

	hook_calls = 0;
	config_begin(&p, &c, err, sizeof(err), NULL, NULL);
	p.key = test_hook;
	p.key_names = ", mine";
	assert_int_equal(config_text(&p, "h.conf", "[global]\nmine = 1\ntarget = 3s\n"), 0);
	assert_int_equal(config_finish(&p), 0);
	assert_int_equal(c.target_ms, 3000);
	assert_int_equal(hook_calls, 1); /* the rule's own key never reaches it */
	assert_int_equal(config_text(&p, "h2.conf", "[global]\n\nbad = x\n"), -EINVAL);
	assert_string_equal(err, "h2.conf:3: bad = \"x\": refused by the hook");

	config_begin(&p, &c, err, sizeof(err), NULL, NULL);
	p.key = test_hook;
	p.key_names = ", mine";
	assert_int_equal(config_text(&p, "h3.conf", "[global]\nother = 1\n"), -EINVAL);
	assert_string_equal(err, "h3.conf:2: unknown key \"other\" in [global] (target, floor, "
				 "ceiling, initial, fast_target, global_drain, mine)");
}

static void test_config_daemon_dropin(void **state)
{
	char dir[PATH_MAX], main_conf[PATH_MAX], want[PATH_MAX + 64], err[512];
	static struct conffile_daemon d;
	struct gov_config c;

	(void)state;
	dropin_root(dir, sizeof(dir), "daemonkeys");
	fmt_s(main_conf, sizeof(main_conf), "%s/main.conf", dir);
	write_file(main_conf, "[global]\nmetrics = /run/wbgov/a.prom\nbus = none\n");
	dropin_write(dir, "wbgov.conf.d/50-metrics.conf", "\nmetrics = /run/wbgov/b.prom\n");
	assert_int_equal(conffile_load_daemon(main_conf, false, &c, &d, err, sizeof(err), NULL, NULL), 0);
	assert_string_equal(d.metrics, "/run/wbgov/b.prom");
	assert_int_equal(d.metrics_line, 2);
	fmt_s(want, sizeof(want), "%s/wbgov.conf.d/50-metrics.conf", dir);
	assert_string_equal(c.files[d.metrics_file], want);
	assert_string_equal(d.bus, "none");
	assert_string_equal(c.files[d.bus_file], main_conf);
	assert_int_equal(d.bus_line, 3);
}

/* label = and uuid = against a real filesystem: libblkid probes an ext4
 * image file as it would a partition (no root needed). */
static void test_fsid_probe_image(void **state)
{
	char img[PATH_MAX], cmd[PATH_MAX + 128], label[64], uuid[64];
	struct gov_config c;
	struct knobs_dev d;
	char err[256];

	(void)state;
	file_path(img, sizeof(img), "fs.img");
	fmt_s(cmd, sizeof(cmd),
		 "PATH=$PATH:/sbin:/usr/sbin mke2fs -q -F -t ext4 -L 'MY STICK' "
		 "-U 0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9 '%s' 1024 >/dev/null 2>&1", img);
	if (system(cmd) != 0)
		skip(); /* no e2fsprogs */
	assert_int_equal(fsid_probe(img, label, sizeof(label), uuid, sizeof(uuid)), 0);
	assert_string_equal(label, "MY STICK");
	assert_string_equal(uuid, "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
	memset(&d, 0, sizeof(d));
	knobs_list_add(d.labels, sizeof(d.labels), label);
	knobs_list_add(d.uuids, sizeof(d.uuids), uuid);
	assert_int_equal(conffile_parse_string("t.conf", "[device a]\nlabel = MY*\n"
					     "uuid = 0A1B2C3D-*\nmode = off\n", &c, err, sizeof(err)), 0);
	assert_ptr_equal(gov_match(&c, &d), &c.rules[0]);
	assert_int_equal(conffile_parse_string("t.conf", "[device a]\nlabel = \"MY STICK\"\nmode = off\n",
					     &c, err, sizeof(err)), 0);
	assert_null(gov_match(&c, &d));
	/* not a filesystem: nothing, no error */
	write_file(img, "nothing here\n");
	assert_int_equal(fsid_probe(img, label, sizeof(label), uuid, sizeof(uuid)), 0);
	assert_string_equal(label, "");
	assert_string_equal(uuid, "");
	unlink(img);
	assert_true(fsid_probe(img, label, sizeof(label), uuid, sizeof(uuid)) < 0);
}

/* udev's ID_FS_LABEL_ENC: \xNN undone, the rest as it is. */
static void test_fsid_udev_decode(void **state)
{
	char out[64];

	(void)state;
	fsid_udev_decode("MY\\x20STICK", out, sizeof(out));
	assert_string_equal(out, "MY STICK");
	fsid_udev_decode("a\\x2fb\\x5cc\\xzz\\x", out, sizeof(out));
	assert_string_equal(out, "a/b\\c\\xzz\\x");
	fsid_udev_decode("\\x00x", out, sizeof(out)); /* no NUL inside */
	assert_string_equal(out, "\\x00x");
}

/* The whole of a manual page's source (run from the top of the tree, as
 * tests/run.sh does). */
static char *man_text(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		fail_msg("%s: %s (run the tests from the top of the tree)", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* Does the manual entry from `at` to `end` (or the end) give `what`,
 * whatever the line breaks in between? */
static bool entry_says(const char *at, const char *end, const char *what)
{
	static char flat[8192];
	size_t o = 0;

	for (; *at && at != end && o + 1 < sizeof(flat); at++) {
		bool sp = *at == ' ' || *at == '\t' || *at == '\n';
		if (sp && o && flat[o - 1] == ' ')
			continue;
		flat[o++] = sp ? ' ' : *at;
	}
	flat[o] = 0;
	return strstr(flat, what) != NULL;
}

/* The manual `path` has an entry "*name*SEP_" whose text, up to the next
 * entry, gives `range`. */
static void man_entry_says(const char *path, const char *name, const char *sep, const char *range)
{
	const char *text = man_text(path), *at, *end;
	char head[96];

	snprintf(head, sizeof(head), "\n*%s*%s_", name, sep);
	at = strstr(text, head);
	if (!at)
		fail_msg("%s has no entry for %s", path, name);
	end = strstr(at + 1, "\n*");
	if (!entry_says(at, end, range))
		fail_msg("%s does not give %s's range as \"%s\"", path, name, range);
}

/* Every tunable key: wbgov.conf takes it in [global] with the table's
 * range, and both manuals describe it with that range; nothing in the
 * manuals' key lists that the table lacks. */
static void test_tunables_one_table(void **state)
{
	struct gov_config c, d;
	char text[256], err[256], range[64];

	(void)state;
	gov_config_defaults(&d);
	for (int i = 0; i < GOV_NTUNABLES; i++) {
		const struct gov_tunable *t = &gov_tunables[i];
		char low[32], high[32];
		/* the range's ends accepted, just past them refused */
		if (t->unit == GOV_UNIT_MS) {
			snprintf(low, sizeof(low), "%llums", (unsigned long long)t->min);
			snprintf(high, sizeof(high), "%llums", (unsigned long long)t->max + 1);
			snprintf(range, sizeof(range), "%g to %g seconds", (double)t->min / 1000,
				 (double)t->max / 1000);
		} else {
			snprintf(low, sizeof(low), "%llu", (unsigned long long)t->min);
			snprintf(high, sizeof(high), "%llu", (unsigned long long)t->max + 1);
			snprintf(range, sizeof(range), "%llu bytes to %llu GiB",
				 (unsigned long long)t->min, (unsigned long long)(t->max / GIB));
		}
		/* (a ceiling at its least wants the floor no higher) */
		snprintf(text, sizeof(text), "[global]\n%s = %s\n%s", t->name, low,
			 strcmp(t->name, "floor") ? "floor = 4096\n" : "");
		if (conffile_parse_string("t.conf", text, &c, err, sizeof(err)))
			fail_msg("%s = %s refused: %s", t->name, low, err);
		assert_int_equal(gov_tunable_get(t, &c), t->min);
		snprintf(text, sizeof(text), "[global]\n%s = %s\n", t->name, high);
		assert_int_equal(conffile_parse_string("t.conf", text, &c, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "want"));
		/* wbgov.conf(5): "*name* = _..._"; wbsim(1): "*name*=_..._";
		 * each with the range before the next entry */
		man_entry_says("man/wbgov.conf.5.scd", t->name, " = ", range);
		man_entry_says("man/wbsim.1.scd", t->name, "=", range);
		/* the defaults are gov_config_defaults' */
		assert_true(gov_tunable_get(t, &d) >= t->min && gov_tunable_get(t, &d) <= t->max);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunables_one_table),
		cmocka_unit_test(test_config_defaults_when_missing),
		cmocka_unit_test(test_config_missing_not_ok),
		cmocka_unit_test(test_config_empty),
		cmocka_unit_test(test_config_full),
		cmocka_unit_test(test_config_full_file),
		cmocka_unit_test(test_config_global_anywhere),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_floor_above_ceiling),
		cmocka_unit_test(test_config_section_errors_at_header),
		cmocka_unit_test(test_config_adjacent_duplicate_section),
		cmocka_unit_test(test_config_long_line_and_device_duplicates),
		cmocka_unit_test(test_config_file_errors),
		cmocka_unit_test(test_config_file_trust),
		cmocka_unit_test(test_config_directory_is_an_error),
		cmocka_unit_test(test_config_dropins_order),
		cmocka_unit_test(test_config_dropins_without_main),
		cmocka_unit_test(test_config_dropins_errors),
		cmocka_unit_test(test_config_match_keys),
		cmocka_unit_test(test_knobs_list),
		cmocka_unit_test(test_config_warnings),
		cmocka_unit_test(test_config_daemon_errors),
		cmocka_unit_test(test_config_daemon_keys),
		cmocka_unit_test(test_config_daemon_dropin),
		cmocka_unit_test(test_config_grammar_hook),
		cmocka_unit_test(test_fsid_probe_image),
		cmocka_unit_test(test_fsid_udev_decode),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
