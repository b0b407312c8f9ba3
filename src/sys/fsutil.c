/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "sys/fsutil.h"

int path_at(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	size_t rl;
	int n;

	if (!root || !strcmp(root, "/"))
		root = "";
	rl = strlen(root);
	if (rl >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rl);
	va_start(ap, fmt);
	n = vsnprintf(buf + rl, len - rl, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - rl)
		return -ENAMETOOLONG;
	return 0;
}

int read_text(const char *path, char *buf, size_t len)
{
	return read_text_at(AT_FDCWD, path, buf, len);
}

int read_text_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	buf[0] = 0;
	if (fd < 0)
		return errno ? -errno : -EIO;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	if (got && buf[got - 1] == '\n')
		buf[got - 1] = 0;
	return 0;
}

int parse_u64(const char *s, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*ret = v;
	return 0;
}

int file_read_trusted(const char *path, bool follow, char *buf, size_t max, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, r = 0;

	*len = 0;
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		r = 1; /* /dev/null: empty */
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022))
		r = -EPERM;
	else if ((uint64_t)st.st_size > max)
		r = -EFBIG;
	/* a byte more than allowed: a file that grew since fstat shows */
	while (!r && got < max + 1) {
		n = read(fd, buf + got, max + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r = -errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (r == 1)
		return 0;
	if (!r && got > max)
		r = -EFBIG;
	if (r)
		return r;
	buf[got] = 0;
	if (strlen(buf) != got)
		return -EINVAL;
	*len = got;
	return 0;
}

/* text_kib and text_count: "KEY: N" x `unit`. */
static int text_number(const char *text, const char *key, uint64_t unit, uint64_t *ret)
{
	size_t k = strlen(key);

	for (const char *s = text; s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		uint64_t v = 0;
		const char *d;
		if (strncmp(s, key, k) || s[k] != ':')
			continue;
		for (d = s + k + 1; *d == ' ' || *d == '\t'; d++)
			;
		if (*d < '0' || *d > '9')
			return -EINVAL; /* "-1" is no number of kB */
		for (; *d >= '0' && *d <= '9'; d++) {
			if (v > (UINT64_MAX / unit - (uint64_t)(*d - '0')) / 10)
				return -EINVAL;
			v = v * 10 + (uint64_t)(*d - '0');
		}
		*ret = v * unit;
		return 0;
	}
	return -EINVAL;
}

int text_kib(const char *text, const char *key, uint64_t *ret_bytes)
{
	return text_number(text, key, 1024, ret_bytes);
}

int text_count(const char *text, const char *key, uint64_t *ret)
{
	return text_number(text, key, 1, ret);
}

int dir_of_ours(const char *path)
{
	char real[PATH_MAX], *slash;
	struct stat st;

	/* a relative path is refused before anything is made of it */
	if (path[0] != '/')
		return -ELOOP;
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	/* and no one else can move it, or a directory above it, away and put
	 * a link in its place between this check and a later open: a path
	 * with no link on the way, every directory above root's or ours and
	 * writable by no one else, or sticky (/tmp: others cannot rename
	 * what is ours in it) */
	if (!realpath(path, real))
		return -errno;
	{
		size_t n = strlen(path);
		while (n > 1 && path[n - 1] == '/')
			n--; /* "/run/wbgov/" is "/run/wbgov" */
		if (strlen(real) != n || strncmp(real, path, n))
			return -ELOOP;
	}
	while ((slash = strrchr(real, '/'))) {
		slash[slash == real] = 0; /* "/x" -> "/", "/" -> "" */
		if (!real[0] || lstat(real, &st) < 0)
			break;
		if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
		    ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)))
			return -EPERM;
		if (!strcmp(real, "/"))
			break;
	}
	return 0;
}

int dir_exists(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int dir_open_trusted(const char *path)
{
	struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	struct stat st;
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS) {
		/* before Linux 5.6: the last link refused, and none on the way */
		char real[PATH_MAX];
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && (!realpath(path, real) || strcmp(real, path))) {
			close(fd);
			return -ELOOP;
		}
	}
	if (fd < 0)
		return errno == EXDEV ? -ELOOP : -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

const char *dir_trust_text(int err)
{
	switch (err) {
	case -EPERM: return "owned by another user, or writable by others";
	case -ELOOP: return "a link on its way (or not an absolute path free of links)";
	case -ENOTDIR: return "not a directory";
	default: return strerror(-err);
	}
}

const char *state_dir_text(int err)
{
	switch (err) {
	case -EPERM: return "not a directory of ours, or it or a directory above it writable by others";
	case -ELOOP: return "not an absolute path free of links";
	default: return strerror(-err);
	}
}

const char *file_trust_text(int err)
{
	switch (err) {
	case -EINVAL: return "not a regular file, a link, or a NUL inside";
	case -EPERM: return "owned by another user than root or us, or writable by others";
	case -EFBIG: return "too large";
	default: return strerror(-err);
	}
}

void block_dir_whole(char *real)
{
	char p[PATH_MAX + 16], *base;

	if (snprintf(p, sizeof(p), "%s/partition", real) < (int)sizeof(p) && access(p, F_OK) == 0 &&
	    (base = strrchr(real, '/')) && base != real)
		*base = 0;
}

int read_u64(const char *path, uint64_t *ret)
{
	char buf[32];
	int r = read_text(path, buf, sizeof(buf));

	if (r)
		return r;
	return parse_u64(buf, ret);
}

int write_u64(const char *path, uint64_t v)
{
	char buf[32];
	int fd, n;
	ssize_t w;

	n = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	do
		w = write(fd, buf, (size_t)n);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return w == n ? 0 : -EIO;
}

/* A temporary file beside `path`, filled, then renamed over it: a reader
 * sees the old file or the new one, never a part. The temporary's name is
 * new each time (mkostemp: O_CREAT | O_EXCL, never through a link): two
 * writers of the same path each rename their own whole file, and nothing
 * left in the way (a file, a link, a directory of an older writer's fixed
 * name) stops a save or is touched. `synced`: flushed to disk first (a
 * record that must outlive a crash). `mode` is set whatever the umask.
 * On any failure the temporary goes. */
static int replace(const char *path, int (*fill)(FILE *f, const void *ctx), const void *ctx,
		   bool synced, mode_t mode)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s" FILE_TMP_SUFFIX, path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) < 0) {
		r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	errno = 0;
	r = fill(f, ctx);
	if (!r && (fflush(f) || (synced && fsync(fileno(f))) || ferror(f)))
		r = errno ? -errno : -EIO;
	if (fclose(f) && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

int file_publish_at(int dirfd, const char *name, int (*fill)(FILE *f, const void *ctx),
		    const void *ctx)
{
	char tmp[NAME_MAX + 1];
	FILE *f = NULL;
	int fd = -1, r;

	/* a name of its own beside it (mkostemp has no *at form) */
	for (unsigned i = 0; fd < 0 && i < 100; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (snprintf(tmp, sizeof(tmp), "%s.tmp.%06lx", name,
			     ((unsigned long)ts.tv_nsec ^ (unsigned long)getpid() << 8 ^ i) & 0xffffff) >=
		    (int)sizeof(tmp))
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		r = -errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return r;
	}
	errno = 0;
	r = fill(f, ctx);
	if (!r && (fflush(f) || ferror(f)))
		r = errno ? -errno : -EIO;
	if (fclose(f) && !r)
		r = -errno;
	if (!r && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r)
		unlinkat(dirfd, tmp, 0);
	return r;
}

int file_replace(const char *path, int (*fill)(FILE *f, const void *ctx), const void *ctx)
{
	return replace(path, fill, ctx, true, 0644);
}

int file_publish(const char *path, int (*fill)(FILE *f, const void *ctx), const void *ctx)
{
	return replace(path, fill, ctx, false, 0644);
}

int text_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned c = s[0], cp;
	int n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void path_split(const char *path, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, dlen, ".");
	else if (slash == path)
		snprintf(dir, dlen, "/");
	else
		snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
	if (base)
		*base = slash ? slash + 1 : path;
}

void fd_keep_only(int fd)
{
	if (fd > 3)
		close_range(3, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
}

int file_tmp_sweep(const char *path)
{
	char dir[PATH_MAX], want[NAME_MAX + 1];
	const char *base;
	size_t len;
	struct dirent *e;
	DIR *d;
	int dfd, n = 0;

	path_split(path, dir, sizeof(dir), &base);
	/* "NAME.tmp." and six characters mkostemp chose */
	if (snprintf(want, sizeof(want), "%s" FILE_TMP_SUFFIX, base) >= (int)sizeof(want) ||
	    !(d = opendir(dir)))
		return 0;
	len = strlen(want) - 6;
	dfd = dirfd(d);
	while ((e = readdir(d))) {
		struct stat st;
		if (strlen(e->d_name) != len + 6 || strncmp(e->d_name, want, len) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		n += unlinkat(dfd, e->d_name, 0) == 0;
	}
	closedir(d);
	return n;
}
