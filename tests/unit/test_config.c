/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov.conf through libinih: the defaults, a full configuration, and one
 * malformed case per message of src/sys/config.c, each with its exact
 * "NAME:LINE: " prefix. File cases use a mkdtemp() directory that the group
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

#include "model/units.h"
#include "policy/decide.h"
#include "daemon/config.h"
#include "policy/tunables.h"

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
		int r = config_parse_string("t.conf", cases[i].text, &c, err, sizeof(err));
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
	assert_int_equal(config_load(p, true, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_defaults(&c);
}

static void test_config_missing_not_ok(void **state)
{
	char p[PATH_MAX], want[PATH_MAX + 64], err[PATH_MAX + 64];
	struct gov_config c;

	(void)state;
	file_path(p, sizeof(p), "no-such.conf");
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", p);
	assert_string_equal(err, want);
}

static void test_config_empty(void **state)
{
	char err[256];
	struct gov_config c;

	(void)state;
	assert_int_equal(config_parse_string("t.conf", "", &c, err, sizeof(err)), 0);
	assert_defaults(&c);
	assert_int_equal(config_parse_string("t.conf", "# nothing\n; at all\n\n[global]\n", &c, err,
					     sizeof(err)), 0);
	assert_defaults(&c);
	assert_int_equal(config_load("/dev/null", false, &c, err, sizeof(err)), 0);
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

	assert_int_equal(c->rules[0].kind, MATCH_SERIAL);
	assert_string_equal(c->rules[0].value, "4C530001190823115393");
	assert_int_equal(c->rules[0].mode, MODE_FIXED);
	assert_int_equal(c->rules[0].fixed_bytes, 32 * MIB);
	assert_int_equal(c->rules[0].target_ms, 0);
	assert_int_equal(c->rules[0].line, 8);

	assert_int_equal(c->rules[1].kind, MATCH_MODEL);
	assert_string_equal(c->rules[1].value, "WD Elements 25A2");
	assert_int_equal(c->rules[1].mode, MODE_TIME);
	assert_int_equal(c->rules[1].target_ms, 2500);
	assert_int_equal(c->rules[1].line, 13);

	assert_int_equal(c->rules[2].kind, MATCH_BUS);
	assert_string_equal(c->rules[2].value, "usb");
	assert_int_equal(c->rules[2].mode, MODE_TIME);
	assert_int_equal(c->rules[2].target_ms, 0);
	assert_int_equal(c->rules[2].line, 18);

	assert_int_equal(c->rules[3].kind, MATCH_DEVNUM);
	assert_string_equal(c->rules[3].value, "259:0");
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
	assert_int_equal(config_parse_string("t.conf", FULL_CONFIG, &c, err, sizeof(err)), 0);
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
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_full(&c);
	/* missing_ok changes nothing for a file that is there */
	assert_int_equal(config_load(p, true, &c, err, sizeof(err)), 0);
	check_full(&c);
}

/* Keys before any [section] are [global]'s; [global] may come back later. */
static void test_config_global_anywhere(void **state)
{
	char err[256];
	struct gov_config c;

	(void)state;
	assert_int_equal(config_parse_string("t.conf",
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
	assert_int_equal(config_parse_string("t.conf", "target = 0.1\nfloor = 4096\n"
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
		assert_int_equal(config_parse_string("t.conf", text, &c, err, sizeof(err)), 0);
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
		  "t.conf:3: unknown key \"speed\" in [global] (target, floor, ceiling, initial, fast_target, global_drain)" },
		{ "speed = 5\n",
		  "t.conf:1: unknown key \"speed\" in [global] (target, floor, ceiling, initial, fast_target, global_drain)" },
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
		{ "[device stick]\nserial = 4C53\nmodel = Cruzer\n",
		  "t.conf:3: [device stick] already has a match key; one of serial, model, bus, devnum" },
		{ "[device stick]\nbus = usb\nmode = off\nbus = ata\n",
		  "t.conf:4: [device stick] already has a match key; one of serial, model, bus, devnum" },
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
		  "t.conf:3: unknown key \"speed\" in [device stick] (serial, model, bus, devnum, mode, "
		  "max_bytes, target)" },
		/* [device ...] sections as a whole: the header's line */
		{ "[global]\ntarget = 1s\n[device a]\nmode = off\n",
		  "t.conf:3: this [device] section has no match key (serial, model, bus or devnum)" },
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
		  "t.conf:2: unknown key \"bogus\" in [global] (target, floor, ceiling, initial, fast_target, global_drain)" },
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
	assert_int_equal(config_load(p, true, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:3: target = \"100s\": want seconds from 0.1 to 60, like 1s or 1500ms", p);
	assert_string_equal(err, want);

	/* the wbgovd system test's bad.conf */
	write_file(p, "[global]\ntarget = 1s\n[device a]\nmode = fixed\n");
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:3: this [device] section has no match key (serial, model, bus or devnum)", p);
	assert_string_equal(err, want);

	write_file(p, "[global]\nfloor = 1G\n");
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: floor is above ceiling", p);
	assert_string_equal(err, want);

	/* a message longer than the buffer is cut, still terminated */
	write_file(p, "[global]\nfloor = 1\n");
	assert_int_equal(config_load(p, false, &c, err, 8), -EINVAL);
	assert_int_equal(strlen(err), 7);
}

/* What root reads must be what its owner meant: a FIFO or /dev/zero
 * (which would never end, signals blocked) is not a file, and neither
 * blocks; one others can write, or too large, is refused; /dev/null is
 * the defaults; a link to a good file is followed. */
static void test_config_file_trust(void **state)
{
	char p[PATH_MAX], q[PATH_MAX], err[PATH_MAX + 128];
	static char big[CONFIG_FILE_MAX + 16];
	struct gov_config c;

	(void)state;
	assert_int_equal(config_load("/dev/zero", false, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/zero: not a regular file"));
	file_path(p, sizeof(p), "fifo.conf");
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_int_equal(config_load("/dev/null", false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 1000);
	file_path(p, sizeof(p), "open.conf");
	write_file(p, "[global]\ntarget = 2s\n");
	assert_int_equal(chmod(p, 0666), 0);
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "writable by others"));
	assert_int_equal(chmod(p, 0644), 0);
	file_path(q, sizeof(q), "link.conf");
	unlink(q);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(config_load(q, false, &c, err, sizeof(err)), 0);
	assert_int_equal(c.target_ms, 2000);
	memset(big, '#', sizeof(big) - 1);
	write_file(p, big);
	assert_int_equal(config_load(p, false, &c, err, sizeof(err)), -EFBIG);
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
	r = config_load(g_base, false, &c, err, sizeof(err));
	assert_true(r < 0);
	snprintf(want, sizeof(want), "%s:", g_base);
	assert_memory_equal(err, want, strlen(want));
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
		if (config_parse_string("t.conf", text, &c, err, sizeof(err)))
			fail_msg("%s = %s refused: %s", t->name, low, err);
		assert_int_equal(gov_tunable_get(t, &c), t->min);
		snprintf(text, sizeof(text), "[global]\n%s = %s\n", t->name, high);
		assert_int_equal(config_parse_string("t.conf", text, &c, err, sizeof(err)), -EINVAL);
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
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
