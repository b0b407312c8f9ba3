/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/fsutil.h"
#include "sys/iolimit.h"

/* io.max and write_bps_device have a line per limited device; a cgroup
 * tree is walked no deeper than this, and no more cgroups than this are
 * looked into (a machine with thousands of containers: the limits of
 * those walked hold, the others are not seen). */
#define LIMIT_TEXT_MAX 16384
#define WALK_DEPTH_MAX 32
#define WALK_CGROUPS_MAX 4096

static void add(struct knobs_limit *out, int *n, int max, unsigned major, unsigned minor,
		uint64_t bps)
{
	for (int i = 0; i < *n; i++)
		if (out[i].major == major && out[i].minor == minor) {
			if (bps < out[i].bps)
				out[i].bps = bps;
			return;
		}
	if (*n < max)
		out[(*n)++] = (struct knobs_limit){ .major = major, .minor = minor, .bps = bps };
}

/* "MAJ:MIN" at the start of `s`, the rest after it in *end; -EINVAL. */
static int devnum(const char *s, unsigned *major, unsigned *minor, const char **end)
{
	uint64_t a, b;
	const char *p = s;
	size_t k = strspn(p, "0123456789");

	if (!k || k > 9 || p[k] != ':')
		return -EINVAL;
	a = strtoull(p, NULL, 10);
	p += k + 1;
	k = strspn(p, "0123456789");
	if (!k || k > 9)
		return -EINVAL;
	b = strtoull(p, NULL, 10);
	*major = (unsigned)a;
	*minor = (unsigned)b;
	*end = p + k;
	return 0;
}

/* "8:16 1048576" per line (blkcg_print_blkgs() of tg_print_conf_u64): a
 * line that is not so is skipped */
void iolimit_parse_v1(const char *text, struct knobs_limit *out, int *n, int max)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned major, minor;
		const char *p;
		uint64_t bps;
		char num[24];
		size_t k;

		if (devnum(l, &major, &minor, &p) || *p != ' ')
			continue;
		p++;
		k = strspn(p, "0123456789");
		if (!k || k >= sizeof(num) || (p[k] && p[k] != '\n'))
			continue;
		memcpy(num, p, k);
		num[k] = 0;
		if (parse_u64(num, &bps) || !bps)
			continue;
		add(out, n, max, major, minor, bps);
	}
}

/* "8:16 rbps=max wbps=1048576 riops=max wiops=max" per line
 * (tg_prfill_limit()): wbps= a number, or "max" for none */
void iolimit_parse_v2(const char *text, struct knobs_limit *out, int *n, int max)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *eol = strchr(l, '\n'), *p, *w;
		unsigned major, minor;
		uint64_t bps;
		char num[24];
		size_t k;

		if (!eol)
			eol = l + strlen(l);
		if (devnum(l, &major, &minor, &p) || *p != ' ')
			continue;
		for (w = p; w && w < eol; w = strchr(w + 1, ' ')) {
			if (strncmp(w, " wbps=", 6))
				continue;
			w += 6;
			k = strspn(w, "0123456789");
			if (!k || k >= sizeof(num) || (w + k < eol && w[k] != ' '))
				break;
			memcpy(num, w, k);
			num[k] = 0;
			if (parse_u64(num, &bps) == 0 && bps)
				add(out, n, max, major, minor, bps);
			break;
		}
	}
}

/* Does the cgroup at `dirfd` hand the io controller down to its children
 * (so that they have io.max)? */
static bool hands_down_io(int dirfd)
{
	char buf[512], *save = NULL;

	if (read_text_at(dirfd, "cgroup.subtree_control", buf, sizeof(buf)))
		return false;
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
		if (!strcmp(t, "io"))
			return true;
	return false;
}

/* The io.max of every cgroup below the one at `dirfd` (the root has none),
 * descending only where io is handed down. Directories through
 * descriptors: a path of nested systemd units can be long. */
static void walk_v2(int dirfd, int depth, int *budget, char *buf, struct knobs_limit *out, int *n,
		    int max)
{
	DIR *dir;
	struct dirent *e;
	int fd;

	if (depth >= WALK_DEPTH_MAX || !hands_down_io(dirfd) || (fd = dup(dirfd)) < 0)
		return;
	if (!(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(dir)) && *budget > 0) {
		int c;
		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		c = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (c < 0)
			continue;
		--*budget;
		if (read_text_at(c, "io.max", buf, LIMIT_TEXT_MAX) == 0)
			iolimit_parse_v2(buf, out, n, max);
		walk_v2(c, depth + 1, budget, buf, out, n, max);
		close(c);
	}
	closedir(dir);
}

/* Only the root cgroup's limit in v1: v1 has no cgroup writeback, so the
 * flusher writes every page cache page back from the root cgroup, and a
 * child's limit holds only its own direct writes (blkio-controller.rst:
 * "all the buffered writes are still system wide"). In v2 writeback is
 * charged to the cgroup that dirtied the page, and the root has no io.max:
 * any cgroup's limit may hold a device's writeback. */
int iolimit_read(const char *root, struct knobs_limit *out, int max)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char p[PATH_MAX], *buf = malloc(LIMIT_TEXT_MAX);
	int n = 0, r = 0, budget = WALK_CGROUPS_MAX;

	if (!tb || !it || !buf) {
		r = -ENOMEM;
		goto out;
	}
	if ((r = path_at(p, sizeof(p), root, "/proc/self/mountinfo")) ||
	    (r = mnt_table_parse_file(tb, p)) < 0)
		goto out;
	r = 0;
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);
		if (!type || !target)
			continue;
		if (!strcmp(type, "cgroup2")) {
			int d;
			if (path_at(p, sizeof(p), root, "%s", target))
				continue;
			d = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (d < 0)
				continue;
			walk_v2(d, 0, &budget, buf, out, &n, max);
			close(d);
		} else if (!strcmp(type, "cgroup") && mnt_fs_match_options(fs, "blkio") == 1) {
			if (path_at(p, sizeof(p), root, "%s/blkio.throttle.write_bps_device",
				    target) || read_text(p, buf, LIMIT_TEXT_MAX))
				continue;
			iolimit_parse_v1(buf, out, &n, max);
		}
	}
out:
	free(buf);
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r < 0 ? r : n;
}
