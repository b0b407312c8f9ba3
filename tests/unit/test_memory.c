/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device memory (/var/lib/wbgov/devices): what it keeps, and what it
 * refuses to trust. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemon/memory.h"

static char g_dir[PATH_MAX];
static struct memory g_mem; /* large: not on the stack */

static int setup(void **state)
{
	(void)state;
	snprintf(g_dir, sizeof(g_dir), "/tmp/wbgov-test-memory-XXXXXX");
	return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
	return system(cmd);
}

static void path(char *buf, const char *leaf)
{
	assert_true(strlen(g_dir) + 1 + strlen(leaf) < PATH_MAX);
	strcpy(buf, g_dir);
	strcat(buf, "/");
	strcat(buf, leaf);
}

static void write_file(const char *p, const char *text, mode_t mode)
{
	FILE *f;

	unlink(p);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, mode), 0);
}

#define GOOD "# comment\n" \
	"v1 5100000 m 1764756000 serial:SanDisk_Cruzer_Blade:4C530001190823115393\n" \
	"\n" \
	"v1 2400000000 f 1764756100 wwid:eui.0025388b91b2c3d4\n" \
	"v1 90000000 l 1764756200 name:vda:536870912\n"

static void test_memory_parse(void **state)
{
	/* each a line that goes, alone: GOOD's three devices stay */
	static const char *const bad[] = {
		"v1 5100000 m 1764756000\n",                  /* no id */
		"v2 5100000 m 1764756000 serial:x:y\n",       /* unknown version */
		"v1 0 m 1764756000 serial:x:y\n",             /* no bandwidth */
		"v1 -5 m 1764756000 serial:x:y\n",
		"v1 5100000 x 1764756000 serial:x:y\n",       /* unknown source */
		"v1 5100000 mm 1764756000 serial:x:y\n",
		"v1 5100000 m 17647x6000 serial:x:y\n",
		"v1 5100000 m 1764756000 serial:x:y extra\n",
		"v1 99999999999999999999 m 1 serial:x:y\n",
		"v1 1 m 1 serial:\x01:y\n",
		"garbage\n",
		"  \t\n",
	};
	struct memory *m = &g_mem;
	struct memory_dropped d;
	uint64_t when = 0;
	char text[4096], said[160];

	(void)state;
	assert_int_equal(memory_parse(GOOD, m, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(m->n, 3);
	assert_false(m->dirty);
	{
		char src = 0;
		assert_int_equal(memory_get(m, "name:vda:536870912", NULL, &src), 90000000);
		assert_int_equal(src, 'l');
	}
	assert_int_equal(memory_get(m, "serial:SanDisk_Cruzer_Blade:4C530001190823115393", &when, NULL),
			 5100000);
	assert_int_equal(when, 1764756000);
	assert_int_equal(memory_get(m, "wwid:eui.0025388b91b2c3d4", NULL, NULL), 2400000000ULL);
	assert_int_equal(memory_get(m, "wwid:eui", NULL, NULL), 0); /* no prefix match */
	assert_int_equal(memory_parse("", m, NULL), 0);
	assert_int_equal(m->n, 0);
	assert_int_equal(memory_parse("v1 7 m 1 a", m, NULL), 0); /* no final newline */
	assert_int_equal(m->n, 1);
	/* a bad line first, in the middle (GOOD's line 3 is blank) or last:
	 * that line goes, named by its number; the others stay */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int where = 0; where < 3; where++) {
			static const int line_no[] = { 1, 4, 6 };
			const char *g4 = strstr(GOOD, "\n\n") + 2; /* GOOD's line 4 */
			if (where == 0)
				snprintf(text, sizeof(text), "%s" GOOD, bad[i]);
			else if (where == 1)
				snprintf(text, sizeof(text), "%.*s%s%s", (int)(g4 - GOOD), GOOD, bad[i], g4);
			else
				snprintf(text, sizeof(text), GOOD "%s", bad[i]);
			memset(&d, 0x55, sizeof(d));
			if (memory_parse(text, m, &d) != 1 || d.n != 1 || d.line[0] != line_no[where] ||
			    m->n != 3)
				fail_msg("case %zu at line %d: %d dropped (first line %d), %d kept", i,
					 line_no[where], d.n, d.line[0], m->n);
			assert_int_equal(memory_get(m, "wwid:eui.0025388b91b2c3d4", NULL, NULL),
					 2400000000ULL);
			assert_int_equal(memory_get(m, "name:vda:536870912", NULL, NULL), 90000000);
			assert_false(m->dirty);
		}
	}
	/* a device named twice: the first line stays */
	snprintf(text, sizeof(text), GOOD "v1 1 m 1 wwid:eui.0025388b91b2c3d4\n");
	assert_int_equal(memory_parse(text, m, &d), 1);
	assert_int_equal(d.line[0], 6);
	assert_int_equal(memory_get(m, "wwid:eui.0025388b91b2c3d4", NULL, NULL), 2400000000ULL);
	assert_int_equal(memory_parse("v1 1 m 1 a\nv1 2 m 2 a\n", m, &d), 1);
	assert_int_equal(m->n, 1);
	assert_int_equal(memory_get(m, "a", NULL, NULL), 1);
	assert_int_equal(d.line[0], 2);
	/* a line too long to be one, and lines past MEMORY_MAX devices */
	{
		static char big[MEMORY_FILE_MAX];
		size_t used = 0;
		memset(text, 'x', 300);
		used = (size_t)snprintf(big, sizeof(big), "v1 1 m 1 %.300s\n", text);
		for (int i = 0; i < MEMORY_MAX + 9; i++)
			used += (size_t)snprintf(big + used, sizeof(big) - used, "v1 1 m 1 id:%d\n", i);
		assert_true(used < sizeof(big) - 1);
		assert_int_equal(memory_parse(big, m, &d), 10);
		assert_int_equal(m->n, MEMORY_MAX);
		assert_int_equal(d.n, 10);
		assert_int_equal(d.line[0], 1);
		assert_int_equal(d.line[1], MEMORY_MAX + 2);
		assert_int_equal(memory_get(m, "id:0", NULL, NULL), 1);
		assert_int_equal(memory_get(m, "id:255", NULL, NULL), 1);
		assert_int_equal(memory_get(m, "id:256", NULL, NULL), 0);
		memory_dropped_text(&d, said, sizeof(said));
		assert_string_equal(said, "lines 1, 258, 259, 260, 261, 262, 263, 264, ... (10 in all)");
	}
	d.n = 1;
	d.line[0] = 3;
	memory_dropped_text(&d, said, sizeof(said));
	assert_string_equal(said, "line 3");
	d.n = 3;
	d.line[1] = 7;
	d.line[2] = 9;
	memory_dropped_text(&d, said, sizeof(said));
	assert_string_equal(said, "lines 3, 7 and 9");
}

static void test_memory_put(void **state)
{
	struct memory *m = &g_mem;
	char id[32];

	(void)state;
	memset(m, 0, sizeof(*m));
	memory_put(m, "serial:a:b", 5000000, 'm', 100);
	assert_true(m->dirty);
	m->dirty = false;
	memory_put(m, "serial:a:b", 5500000, 'm', 200); /* within 1/8: not news */
	assert_false(m->dirty);
	assert_int_equal(memory_get(m, "serial:a:b", NULL, NULL), 5000000);
	memory_put(m, "serial:a:b", 4000000, 'm', 300);
	assert_true(m->dirty);
	assert_int_equal(memory_get(m, "serial:a:b", NULL, NULL), 4000000);
	memory_put(m, "", 1, 'm', 1);           /* no identity: not kept */
	memory_put(m, "with space", 1, 'm', 1);
	memory_put(m, "serial:c:d", 0, 'm', 1); /* no figure */
	assert_int_equal(m->n, 1);
	/* full: the oldest makes room */
	for (int i = 1; i < MEMORY_MAX; i++) {
		snprintf(id, sizeof(id), "model:x:%d", i);
		memory_put(m, id, 1000, 'm', 1000 + (uint64_t)i);
	}
	assert_int_equal(m->n, MEMORY_MAX);
	memory_put(m, "model:new:1", 7, 'm', 5000);
	assert_int_equal(m->n, MEMORY_MAX);
	assert_int_equal(memory_get(m, "serial:a:b", NULL, NULL), 0); /* time 300: the oldest */
	assert_int_equal(memory_get(m, "model:new:1", NULL, NULL), 7);
	/* a device in use, its figure unchanged, is not the oldest: its time
	 * moves once a day */
	m->dirty = false;
	memory_put(m, "model:x:1", 1000, 'm', 1001 + MEMORY_REFRESH_S - 1);
	assert_false(m->dirty);
	memory_put(m, "model:x:1", 1000, 'm', 1001 + MEMORY_REFRESH_S);
	assert_true(m->dirty);
	memory_put(m, "model:newer:1", 7, 'm', 1001 + MEMORY_REFRESH_S);
	assert_int_equal(memory_get(m, "model:x:1", NULL, NULL), 1000);
	assert_int_equal(memory_get(m, "model:x:2", NULL, NULL), 0);
}

static void test_memory_round_trip(void **state)
{
	char p[PATH_MAX];
	struct memory *m = &g_mem;
	struct stat st;

	(void)state;
	path(p, "devices");
	assert_int_equal(memory_load(p, m, NULL), 0); /* missing: empty */
	assert_int_equal(m->n, 0);
	memory_put(m, "serial:a:b", 5000000, 'm', 100);
	memory_put(m, "wwid:w", 2000000000, 'f', 200);
	assert_int_equal(memory_save(p, m), 0);
	assert_false(m->dirty);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(memory_load(p, m, NULL), 0);
	assert_int_equal(m->n, 2);
	assert_int_equal(memory_get(m, "wwid:w", NULL, NULL), 2000000000);
	/* a link where an older wbgovd made its temporary file is neither
	 * followed nor in the way */
	path(p, "devices.tmp");
	assert_int_equal(symlink("/etc/passwd", p), 0);
	path(p, "devices");
	assert_int_equal(memory_save(p, m), 0);
	assert_int_equal(memory_load(p, m, NULL), 0);
	assert_int_equal(m->n, 2);
	path(p, "devices.tmp");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(p);
}

/* What cannot be trusted is refused whole, with the reason; a bad line
 * alone is dropped alone. */
static void test_memory_untrusted(void **state)
{
	char p[PATH_MAX], big[MEMORY_FILE_MAX + 64];
	struct memory *m = &g_mem;

	(void)state;
	path(p, "devices");
	write_file(p, GOOD, 0664); /* group-writable */
	assert_int_equal(memory_load(p, m, NULL), -EPERM);
	assert_int_equal(m->n, 0);
	write_file(p, GOOD, 0646);
	assert_int_equal(memory_load(p, m, NULL), -EPERM);
	/* a malformed line is no reason to distrust the rest */
	write_file(p, "v1 1 m 1 a\ngarbage\nv1 2 m 2 b\n", 0644);
	{
		struct memory_dropped d;
		assert_int_equal(memory_load(p, m, &d), 0);
		assert_int_equal(m->n, 2);
		assert_int_equal(d.n, 1);
		assert_int_equal(d.line[0], 2);
		assert_false(m->dirty);
	}
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = 0;
	write_file(p, big, 0644);
	assert_int_equal(memory_load(p, m, NULL), -EFBIG);
	/* a NUL in the middle */
	{
		int fd = open(p, O_WRONLY | O_TRUNC);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "v1 1 m 1 a\n\0v1 2 m 2 b\n", 23), 23);
		close(fd);
	}
	assert_int_equal(memory_load(p, m, NULL), -EINVAL);
	/* a symlink is not followed, a FIFO is not waited on, a directory is not read */
	unlink(p);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	assert_int_equal(memory_load(p, m, NULL), -EINVAL);
	unlink(p);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(memory_load(p, m, NULL), -EINVAL);
	unlink(p);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(memory_load(p, m, NULL), -EINVAL);
	rmdir(p);
	/* owned by another user (needs root to make) */
	if (geteuid() == 0) {
		write_file(p, GOOD, 0644);
		assert_int_equal(chown(p, 65534, 65534), 0);
		assert_int_equal(memory_load(p, m, NULL), -EPERM);
		unlink(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_parse),
		cmocka_unit_test(test_memory_put),
		cmocka_unit_test(test_memory_round_trip),
		cmocka_unit_test(test_memory_untrusted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
