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
 *   WBGOV_TEST_LANDLOCK=eperm   Landlock's calls fail with EPERM, as under
 *                               a seccomp filter that refuses them (a
 *                               unit's SystemCallFilter=)
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int syncfs(int fd);
int fsync(int fd);
long syscall(long number, ...);

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	const char *m = getenv("WBGOV_TEST_LANDLOCK");
	long a[6];
	va_list ap;

	if (m && !strcmp(m, "eperm") && (number == SYS_landlock_create_ruleset ||
					 number == SYS_landlock_add_rule ||
					 number == SYS_landlock_restrict_self)) {
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
