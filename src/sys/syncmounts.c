/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sync child shared by wbgov and wbgovd: see syncmounts.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/fsutil.h"
#include "sys/mountpt.h"
#include "sys/syncmounts.h"

static _Noreturn void sync_child(const struct mount_list *ml, int err_fd, const char *err_prefix,
				 unsigned flags)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t set;
	int i = 0;

	sigemptyset(&set);
	for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++) {
		struct sigaction was;
		sigaddset(&set, sigs[k]);
		/* a handler of the parent's means nothing here: the default.
		 * What the parent's caller ignored stays ignored (nohup's HUP:
		 * a hangup must not end the sync the command waits for) */
		if (sigaction(sigs[k], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			signal(sigs[k], SIG_DFL);
	}
	if (flags & SYNC_MOUNTS_KEEP_ON_INT)
		signal(SIGINT, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	fd_keep_only(err_fd);
	if (!ml->n || ml->truncated) {
		/* no file system named, or more than the list holds: everything */
		sync();
		_exit(0);
	}
	for (const char *m = mount_list_next(ml, NULL); m; m = mount_list_next(ml, m), i++) {
		int fd;
		if (ml->id[i] >= 0)
			fd = mountpt_open(m, ml->id[i], ml->dev[i]);
		else if ((fd = open(m, O_RDONLY | O_CLOEXEC)) < 0)
			fd = -errno;
		if (fd < 0 || syncfs(fd) < 0) {
			dprintf(err_fd, "%s%s: %s\n", err_prefix, m,
				mountpt_strerror(fd < 0 ? fd : -errno));
			_exit(1);
		}
		close(fd);
	}
	_exit(0);
}

int sync_mounts_start(const struct mount_list *ml, int err_fd, const char *err_prefix,
		      unsigned flags, pid_t *ret_pid)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		sync_child(ml, err_fd, err_prefix, flags);
	*ret_pid = pid;
	return 0;
}

int sync_mounts_reap(pid_t pid, bool block)
{
	int status = 0;
	pid_t w;

	while ((w = waitpid(pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (w < 0)
		return -errno;
	if (w == 0)
		return -EAGAIN;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? -ECANCELED : -EIO;
}
