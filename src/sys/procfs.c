/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libmount/libmount.h>

#include "sys/fsutil.h"
#include "sys/procfs.h"
#include "sys/shares.h"

int procfs_parse_meminfo(const char *text, uint64_t *ret_dirty, uint64_t *ret_writeback)
{
	uint64_t d, w;

	if (text_kib(text, "Dirty", &d) || text_kib(text, "Writeback", &w))
		return -EINVAL;
	*ret_dirty = d;
	*ret_writeback = w;
	return 0;
}

int procfs_meminfo(const char *root, uint64_t *ret_dirty, uint64_t *ret_writeback)
{
	char p[PATH_MAX], buf[8192];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/meminfo")))
		return r;
	if ((r = read_text(p, buf + 1, sizeof(buf) - 1)))
		return r;
	buf[0] = '\n'; /* so that the first line matches "\nName:" too */
	return procfs_parse_meminfo(buf, ret_dirty, ret_writeback);
}

int procfs_parse_vmstat(const char *text, size_t page_size, struct knobs_vmstat *ret)
{
	static const char *const names[] = { "nr_dirty", "nr_writeback", "nr_dirtied", "nr_written" };
	uint64_t v[4];
	unsigned seen = 0;
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		for (int i = 0; i < 4; i++) {
			size_t n = strlen(names[i]);
			char num[24];
			if (len <= n + 1 || strncmp(line, names[i], n) || line[n] != ' ' || len - n - 1 >= sizeof(num))
				continue;
			memcpy(num, line + n + 1, len - n - 1);
			num[len - n - 1] = 0;
			if (parse_u64(num, &v[i]) || v[i] > UINT64_MAX / page_size)
				return -EINVAL;
			seen |= 1u << i;
		}
		if (seen == 15)
			break; /* the rest is events */
		line = eol ? eol + 1 : NULL;
	}
	if (seen != 15)
		return -EINVAL;
	ret->dirty = v[0] * page_size;
	ret->writeback = v[1] * page_size;
	ret->dirtied = v[2] * page_size;
	ret->written = v[3] * page_size;
	return 0;
}

int procfs_vmstat(const char *root, int *fd1, struct knobs_vmstat *ret)
{
	char p[PATH_MAX], buf[16384];
	size_t len = 0;
	ssize_t n;
	int r, fd;

	if (!*fd1) {
		if ((r = path_at(p, sizeof(p), root, "/proc/vmstat")))
			return r;
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			return -errno;
		*fd1 = fd + 1;
	}
	/* from the start each time: the kernel makes the text afresh */
	while (len < sizeof(buf) - 1 &&
	       (n = pread(*fd1 - 1, buf + len, sizeof(buf) - 1 - len, (off_t)len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			close(*fd1 - 1);
			*fd1 = 0; /* opened afresh next time */
			return r;
		}
		len += (size_t)n;
	}
	buf[len] = 0;
	return procfs_parse_vmstat(buf, (size_t)sysconf(_SC_PAGESIZE), ret);
}

/* ROOT/proc/sys/kernel/osrelease into buf: 0, or -errno */
static int osrelease(const char *root, char *buf, size_t len)
{
	char p[PATH_MAX];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/sys/kernel/osrelease")))
		return r;
	return read_text(p, buf, len);
}

bool procfs_kernel_at_least(const char *root, unsigned maj, unsigned min)
{
	char buf[128];
	unsigned a, b;

	if (osrelease(root, buf, sizeof(buf)) || sscanf(buf, "%u.%u", &a, &b) != 2)
		return false;
	return a > maj || (a == maj && b >= min);
}

bool procfs_kernel_stalls_strict(const char *root)
{
	char buf[128];
	unsigned a, b, c, rc;

	if (osrelease(root, buf, sizeof(buf)))
		return false;
	/* "7.0.0-rc3" (Debian, kernel.org) or "7.0-rc3" (the Makefile's own) */
	if (!(sscanf(buf, "%u.%u.%u-rc%u", &a, &b, &c, &rc) == 4 ||
	      (sscanf(buf, "%u.%u-rc%u", &a, &b, &rc) == 3 && (c = 0, true))))
		return false;
	return a == 7 && b == 0 && c == 0 && rc >= 1 && rc <= 6;
}

int procfs_vm_read(const char *root, enum vm_knob k, uint64_t *ret)
{
	char p[PATH_MAX];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/sys/vm/%s", vm_knob_names[k])))
		return r;
	return read_u64(p, ret);
}

int procfs_vm_write(const char *root, enum vm_knob k, uint64_t v)
{
	char p[PATH_MAX];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/sys/vm/%s", vm_knob_names[k])))
		return r;
	return write_u64(p, v);
}

void procfs_whole_disk(const char *root, const char *name, char *disk, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX];

	snprintf(disk, len, "%s", name);
	if (path_at(p, sizeof(p), root, "/sys/class/block/%s", name) || !realpath(p, real))
		return;
	block_dir_whole(real);
	if (strrchr(real, '/'))
		snprintf(disk, len, "%s", strrchr(real, '/') + 1);
}

bool mount_list_add(struct mount_list *l, const char *path, int id, dev_t dev)
{
	size_t len = strlen(path) + 1;

	if (len > sizeof(l->buf) - l->used || l->n == MOUNT_LIST_MAX) {
		l->truncated = true;
		return false;
	}
	memcpy(l->buf + l->used, path, len);
	l->used += len;
	l->id[l->n] = id;
	l->dev[l->n] = dev;
	l->n++;
	return true;
}

const char *mount_list_next(const struct mount_list *l, const char *prev)
{
	const char *next = prev ? prev + strlen(prev) + 1 : l->buf;

	return next < l->buf + l->used ? next : NULL;
}

void mount_list_join(const struct mount_list *l, const char *sep, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (const char *m = mount_list_next(l, NULL); m; m = mount_list_next(l, m)) {
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? sep : "", m);
		if (used >= len)
			break;
	}
}

int procfs_disk_of_devno(const char *root, dev_t dev, char *disk, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX], *base;

	if (path_at(p, sizeof(p), root, "/sys/dev/block/%u:%u", major(dev), minor(dev)))
		return -ENAMETOOLONG;
	if (!realpath(p, real))
		return -ENOENT; /* btrfs, tmpfs...: an anonymous device */
	base = strrchr(real, '/');
	procfs_whole_disk(root, base ? base + 1 : real, disk, len);
	return 0;
}

struct mount_table {
	struct libmnt_table *tb;
	int n;
	struct mount_entry {
		struct libmnt_fs *fs;
		char disk[64]; /* "" for no disk's */
	} *e;
};

/* The disk `fs` is a mount of (or of one of whose partitions) into
 * `disk`, "" if none: by its device number; by its source only for btrfs
 * (see procfs.h). */
static void disk_of_mount(const char *root, struct libmnt_fs *fs, char *disk, size_t len)
{
	dev_t dev = mnt_fs_get_devno(fs);
	const char *type = mnt_fs_get_fstype(fs), *src = mnt_fs_get_source(fs);

	disk[0] = 0;
	if (major(dev)) {
		if (procfs_disk_of_devno(root, dev, disk, len))
			disk[0] = 0;
		return;
	}
	/* "btrfs" only: fuse.btrfs is anyone's */
	if (!type || strcmp(type, "btrfs") || !src || strncmp(src, "/dev/", 5) || strchr(src + 5, '/'))
		return;
	procfs_whole_disk(root, src + 5, disk, len);
}

void procfs_mount_table_free(struct mount_table *t)
{
	if (!t)
		return;
	mnt_unref_table(t->tb);
	free(t->e);
	free(t);
}

int procfs_mounts_watch(const char *root)
{
	char p[PATH_MAX];
	int r = path_at(p, sizeof(p), root, "/proc/self/mountinfo"), fd;

	if (r)
		return r;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int procfs_mount_table_read(const char *root, struct mount_table **ret)
{
	char p[PATH_MAX];
	struct mount_table *t;
	struct libmnt_iter *it = NULL;
	struct libmnt_fs *fs;
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/self/mountinfo")))
		return r;
	if (!(t = calloc(1, sizeof(*t))) || !(t->tb = mnt_new_table()) ||
	    !(it = mnt_new_iter(MNT_ITER_FORWARD))) {
		r = -ENOMEM;
		goto fail;
	}
	/* lines libmount cannot parse are skipped (no error callback set) */
	if ((r = mnt_table_parse_file(t->tb, p)) < 0)
		goto fail;
	if (!(t->e = calloc((size_t)mnt_table_get_nents(t->tb) + 1, sizeof(*t->e)))) {
		r = -ENOMEM;
		goto fail;
	}
	/* each mount's disk once, whatever number of disks is asked about */
	while (mnt_table_next_fs(t->tb, it, &fs) == 0 && t->n < mnt_table_get_nents(t->tb)) {
		if (!mnt_fs_get_target(fs))
			continue;
		t->e[t->n].fs = fs;
		disk_of_mount(root, fs, t->e[t->n].disk, sizeof(t->e[t->n].disk));
		t->n++;
	}
	mnt_free_iter(it);
	*ret = t;
	return 0;
fail:
	mnt_free_iter(it);
	procfs_mount_table_free(t);
	return r;
}

int procfs_mounts_of(const struct mount_table *t, const char *disk, struct mount_list *ret)
{
	int n = 0;

	if (ret)
		memset(ret, 0, sizeof(*ret));
	for (int i = 0; i < t->n; i++) {
		struct libmnt_fs *fs = t->e[i].fs;
		if (!t->e[i].disk[0] || strcmp(t->e[i].disk, disk))
			continue;
		if (ret)
			mount_list_add(ret, mnt_fs_get_target(fs), mnt_fs_get_id(fs), mnt_fs_get_devno(fs));
		n++;
	}
	return n;
}

int procfs_dev_mounts_of(const struct mount_table *t, const struct knobs_dev *d,
			 struct mount_list *ret)
{
	int n = 0;

	if (!d->is_share)
		return procfs_mounts_of(t, d->disk, ret);
	if (ret)
		memset(ret, 0, sizeof(*ret));
	if (!d->mounted)
		return 0; /* a share known by its bdi alone */
	for (int i = 0; i < t->n; i++) {
		struct libmnt_fs *fs = t->e[i].fs;
		const char *type = mnt_fs_get_fstype(fs);
		dev_t dev = mnt_fs_get_devno(fs);
		if (major(dev) || minor(dev) != d->minor || !type || !shares_fstype(type))
			continue;
		if (ret)
			mount_list_add(ret, mnt_fs_get_target(fs), mnt_fs_get_id(fs), dev);
		n++;
	}
	return n;
}

int procfs_dev_mounts(const char *root, const struct knobs_dev *d, struct mount_list *ret)
{
	struct mount_table *t;
	int r;

	if (ret)
		memset(ret, 0, sizeof(*ret));
	if ((r = procfs_mount_table_read(root, &t)) != 0)
		return r;
	r = procfs_dev_mounts_of(t, d, ret);
	procfs_mount_table_free(t);
	return r;
}

int procfs_mounts(const char *root, const char *disk, struct mount_list *ret)
{
	struct knobs_dev d = { 0 };

	snprintf(d.disk, sizeof(d.disk), "%s", disk);
	return procfs_dev_mounts(root, &d, ret);
}

int procfs_disk_of_path(const char *root, const char *path, char *disk, size_t len)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return procfs_disk_of_devno(root, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, disk, len);
}
