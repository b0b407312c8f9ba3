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
 *   WBGOV_TEST_REFUSE=WHAT,...  calls refused as a unit's sandbox refuses
 *                               them: landlock (Landlock's calls), fsopen,
 *                               fanotify (fanotify_init), capset: EPERM, as
 *                               SystemCallFilter= does; netlink, unix
 *                               (socket() of that family): EAFNOSUPPORT,
 *                               as RestrictAddressFamilies= does
 * Anything else: the real call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
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
long syscall(long number, ...);
int fanotify_init(unsigned flags, unsigned event_f_flags);
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

int fanotify_init(unsigned flags, unsigned event_f_flags)
{
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

int fsync(int fd)
{
	const char *m = getenv("WBGOV_TEST_FSYNC"), *colon = m ? strchr(m, ':') : NULL;
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (colon && (n = readlink(link, path, sizeof(path) - 1)) > 0) {
		path[n] = 0;
		if (memmem(path, (size_t)n, m, (size_t)(colon - m)))
			deaf_for(colon + 1);
	}
	return (int)syscall(SYS_fsync, fd);
}
