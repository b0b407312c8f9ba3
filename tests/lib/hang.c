/* SPDX-License-Identifier: GPL-2.0-or-later */
/* For the black-box tests (LD_PRELOAD into wbgovd): syncfs() and fsync()
 * that do not return soon, as on a disk that does not drain.
 *   WBGOV_TEST_SYNCFS=pause     syncfs() waits for a signal, for ever: a
 *                               sync that only a signal ends
 *   WBGOV_TEST_SYNCFS=stuck:N   syncfs() takes N seconds, deaf to every
 *                               signal but SIGKILL, as a process in the
 *                               kernel's sync (state D) is
 *   WBGOV_TEST_FSYNC=WORD:N     fsync() of a file whose path holds WORD
 *                               takes N seconds, deaf to signals likewise
 *   WBGOV_TEST_SFR=WORD:N       sync_file_range() that waits for the pages
 *                               (SYNC_FILE_RANGE_WAIT_AFTER) of a file whose
 *                               path holds WORD takes N seconds, deaf to
 *                               signals: a share whose server is gone, as
 *                               folio_wait_writeback waits uninterruptibly
 *   WBGOV_TEST_REFUSE=WHAT,...  calls refused as a unit's sandbox refuses
 *                               them: landlock (Landlock's calls), fsopen,
 *                               fanotify (fanotify_init), capset: EPERM, as
 *                               SystemCallFilter= does; netlink, unix
 *                               (socket() of that family): EAFNOSUPPORT,
 *                               as RestrictAddressFamilies= does
 *   WBGOV_TEST_DEAD=PREFIX[:PREFIX...]
 *                               a share whose server stopped answering is
 *                               mounted at PREFIX: a call that names a path
 *                               under it (the stat, statfs, open, access,
 *                               opendir, realpath and fanotify_mark
 *                               families) appends "CALL PATH" to the file
 *                               WBGOV_TEST_DEAD_LOG and fails with EIO, as
 *                               a soft mount does; a hard one would never
 *                               return. A test wants that file empty.
 *   WBGOV_TEST_FANOTIFY=fake    fanotify_init gives a descriptor (of
 *                               /dev/null) and fanotify_mark of a live path
 *                               succeeds, without the capability: the write
 *                               watch runs as an ordinary user
 * Anything else: the real call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int syncfs(int fd);
int fsync(int fd);
int sync_file_range(int fd, off_t off, off_t len, unsigned flags);
long syscall(long number, ...);
int fanotify_init(unsigned flags, unsigned event_f_flags);
int fanotify_mark(int fd, unsigned flags, uint64_t mask, int dirfd, const char *path);
int socket(int domain, int type, int protocol);

/* Is WHAT in WBGOV_TEST_REFUSE's list? */
static int refused(const char *what)
{
	const char *m = getenv("WBGOV_TEST_REFUSE");
	size_t n = strlen(what);

	for (; m && *m; m += strcspn(m, ",") + (m[strcspn(m, ",")] == ',')) {
		if (strncmp(m, what, n) == 0 && (m[n] == ',' || !m[n]))
			return 1;
	}
	return 0;
}

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	if ((refused("landlock") && (number == SYS_landlock_create_ruleset ||
				     number == SYS_landlock_add_rule ||
				     number == SYS_landlock_restrict_self)) ||
	    (refused("fsopen") && number == SYS_fsopen) || (refused("capset") && number == SYS_capset)) {
		errno = EPERM;
		return -1;
	}
	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "syscall");
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* Does `path` name something under WBGOV_TEST_DEAD? Then it is said, and
 * the caller fails. */
static int dead(const char *call, const char *path)
{
	const char *pre = getenv("WBGOV_TEST_DEAD"), *log = getenv("WBGOV_TEST_DEAD_LOG");
	char line[PATH_MAX + 64];
	int fd, len, under = 0;

	/* PREFIX, or several joined by ':' */
	for (; pre && *pre && path && !under; pre += strcspn(pre, ":") + (pre[strcspn(pre, ":")] == ':')) {
		size_t n = strcspn(pre, ":");
		under = n && !strncmp(path, pre, n) && (!path[n] || path[n] == '/');
	}
	if (!under)
		return 0;
	len = snprintf(line, sizeof(line), "%s %s\n", call, path);
	if (log && (fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				      0666)) >= 0) {
		if (write(fd, line, (size_t)(len < (int)sizeof(line) ? len : (int)sizeof(line) - 1)) < 0)
			len = 0;
		close(fd);
	}
	errno = EIO;
	return 1;
}

/* The real function `name`, looked up once into `fn`. */
#define REAL(fn, name) (fn ? (void)0 : (void)(*(void **)&fn = dlsym(RTLD_NEXT, name)))

/* `name` failing on a dead path with `fail` (and errno EIO), else the real
 * one; DEAD_PATH_FN for the calls that fail with -1, DEAD_PTR_FN with NULL */
#define DEAD_FN(ret, name, params, args, path, fail)                                 \
	ret name params;                                                             \
	ret name params                                                              \
	{                                                                            \
		static ret (*real) params;                                           \
		if (dead(#name, path))                                               \
			return fail;                                                 \
		REAL(real, #name);                                                   \
		return real args;                                                    \
	}
#define DEAD_PATH_FN(ret, name, params, args, path) DEAD_FN(ret, name, params, args, path, (ret)-1)
#define DEAD_PTR_FN(ret, name, params, args, path) DEAD_FN(ret, name, params, args, path, NULL)

struct stat;
struct stat64;
struct statx;
struct statfs;
struct statfs64;
struct statvfs;
struct statvfs64;
DEAD_PATH_FN(int, stat, (const char *p, struct stat *b), (p, b), p)
DEAD_PATH_FN(int, stat64, (const char *p, struct stat64 *b), (p, b), p)
DEAD_PATH_FN(int, lstat, (const char *p, struct stat *b), (p, b), p)
DEAD_PATH_FN(int, lstat64, (const char *p, struct stat64 *b), (p, b), p)
DEAD_PATH_FN(int, fstatat, (int d, const char *p, struct stat *b, int f), (d, p, b, f), p)
DEAD_PATH_FN(int, fstatat64, (int d, const char *p, struct stat64 *b, int f), (d, p, b, f), p)
DEAD_PATH_FN(int, statx, (int d, const char *p, int f, unsigned m, struct statx *b), (d, p, f, m, b), p)
DEAD_PATH_FN(int, statfs, (const char *p, struct statfs *b), (p, b), p)
DEAD_PATH_FN(int, statfs64, (const char *p, struct statfs64 *b), (p, b), p)
DEAD_PATH_FN(int, statvfs, (const char *p, struct statvfs *b), (p, b), p)
DEAD_PATH_FN(int, statvfs64, (const char *p, struct statvfs64 *b), (p, b), p)
DEAD_PATH_FN(int, access, (const char *p, int m), (p, m), p)
DEAD_PATH_FN(int, faccessat, (int d, const char *p, int m, int f), (d, p, m, f), p)
DEAD_PATH_FN(int, chdir, (const char *p), (p), p)

DEAD_PTR_FN(char *, realpath, (const char *p, char *r), (p, r), p)
DEAD_PTR_FN(void *, opendir, (const char *p), (p), p)
DEAD_PATH_FN(int, __open_2, (const char *p, int f), (p, f), p)
DEAD_PATH_FN(int, __open64_2, (const char *p, int f), (p, f), p)
DEAD_PATH_FN(int, __openat_2, (int d, const char *p, int f), (d, p, f), p)
DEAD_PATH_FN(int, __openat64_2, (int d, const char *p, int f), (d, p, f), p)

#define DEAD_OPEN_FN(name, params, args, path)                                       \
	int name params;                                                             \
	int name params                                                              \
	{                                                                            \
		static int (*real) params;                                           \
		va_list ap;                                                          \
		unsigned mode = 0;                                                   \
		if (dead(#name, path))                                               \
			return -1;                                                   \
		if (f & (O_CREAT | O_TMPFILE)) {                                     \
			va_start(ap, f);                                             \
			mode = va_arg(ap, unsigned);                                 \
			va_end(ap);                                                  \
		}                                                                    \
		REAL(real, #name);                                                   \
		return real args;                                                    \
	}

DEAD_OPEN_FN(open, (const char *p, int f, ...), (p, f, mode), p)
DEAD_OPEN_FN(open64, (const char *p, int f, ...), (p, f, mode), p)
DEAD_OPEN_FN(openat, (int d, const char *p, int f, ...), (d, p, f, mode), p)
DEAD_OPEN_FN(openat64, (int d, const char *p, int f, ...), (d, p, f, mode), p)

FILE *fopen(const char *p, const char *m)
{
	static FILE *(*real)(const char *, const char *);

	if (dead("fopen", p))
		return NULL;
	REAL(real, "fopen");
	return real(p, m);
}

int fanotify_mark(int fd, unsigned flags, uint64_t mask, int dirfd, const char *path)
{
	static int (*real)(int, unsigned, uint64_t, int, const char *);
	const char *m = getenv("WBGOV_TEST_FANOTIFY");

	if (dead("fanotify_mark", path))
		return -1;
	if (m && !strcmp(m, "fake"))
		return 0;
	REAL(real, "fanotify_mark");
	return real(fd, flags, mask, dirfd, path);
}

int fanotify_init(unsigned flags, unsigned event_f_flags)
{
	const char *fake = getenv("WBGOV_TEST_FANOTIFY");

	if (fake && !strcmp(fake, "fake") && !refused("fanotify"))
		return (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (refused("fanotify")) {
		errno = EPERM;
		return -1;
	}
	return (int)syscall(SYS_fanotify_init, flags, event_f_flags);
}

int socket(int domain, int type, int protocol)
{
	static int (*real)(int, int, int);

	if ((refused("netlink") && domain == AF_NETLINK) || (refused("unix") && domain == AF_UNIX)) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "socket");
	return real(domain, type, protocol);
}

static void deaf_for(const char *seconds)
{
	sigset_t all;
	struct timespec ts = { .tv_sec = atoi(seconds) };

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	while (nanosleep(&ts, &ts) < 0)
		;
}

int syncfs(int fd)
{
	const char *m = getenv("WBGOV_TEST_SYNCFS");

	if (m && !strcmp(m, "pause"))
		for (;;)
			pause();
	if (m && !strncmp(m, "stuck:", 6))
		deaf_for(m + 6);
	return (int)syscall(SYS_syncfs, fd);
}

/* WORD:N of `var` names the file `fd`: deaf for N seconds */
static void deaf_if_named(const char *var, int fd)
{
	const char *m = getenv(var), *colon = m ? strchr(m, ':') : NULL;
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (colon && (n = readlink(link, path, sizeof(path) - 1)) > 0) {
		path[n] = 0;
		if (memmem(path, (size_t)n, m, (size_t)(colon - m)))
			deaf_for(colon + 1);
	}
}

int fsync(int fd)
{
	deaf_if_named("WBGOV_TEST_FSYNC", fd);
	return (int)syscall(SYS_fsync, fd);
}

int sync_file_range(int fd, off_t off, off_t len, unsigned flags)
{
	if (flags & SYNC_FILE_RANGE_WAIT_AFTER)
		deaf_if_named("WBGOV_TEST_SFR", fd);
	return (int)syscall(SYS_sync_file_range, fd, off, len, flags);
}
