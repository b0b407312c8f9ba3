/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sync on D-Bus (bus.h is the API): its options read, its caller's leave
 * asked (busauth.c), then a child syncs the device's file systems and the
 * call is answered when it ends; wbgovd's loop goes on meanwhile. At most
 * BUS_MAX_JOBS children, one a share; none waited for at stop. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include "daemon/bus.h"
#include "daemon/busparts.h"
#include "sys/log.h"
#include "sys/procfs.h"
#include "sys/syncmounts.h"

static struct bus_job *job_free(struct bus *b)
{
	for (int i = 0; i < BUS_MAX_JOBS; i++)
		if (!b->jobs[i].pid)
			return &b->jobs[i];
	return NULL;
}

/* The device object at `path`, if it is still there (an object may go
 * while its caller waits for polkit). */
struct bus_dev *bus_dev_by_path(struct bus *b, const char *path)
{
	for (int i = 0; i < b->ndev; i++)
		if (!strcmp(b->dev[i].path, path))
			return &b->dev[i];
	return NULL;
}

/* Sync's work, once the caller may: a child syncs every file system of
 * the device, and `call` is answered when it ends (1). 0: nothing is
 * mounted, nothing to do (the caller answers); -errno with err set.
 * A share's file systems are those of its st_dev, and its child may wait
 * for as long as its server is gone: wbgovd never waits for it (bus_stop
 * leaves it), and takes one Sync of a share at a time, so that a client
 * that asks again and again cannot fill every job with waits on one dead
 * server. A share mounted only in another namespace has nothing here to
 * open: refused, saying so, rather than answered as if synced. */
int bus_sync_start(struct bus *b, struct bus_dev *d, sd_bus_message *call, uint32_t uid,
		   sd_bus_error *err)
{
	static struct mount_list ml; /* 4 KiB: not on the stack */
	struct bus_job *j = job_free(b);
	const char *sender = sd_bus_message_get_sender(call);
	int fds[2], r;
	pid_t pid;

	if (b->stopping)
		return sd_bus_error_setf(err, ERR_BUSY, "wbgovd is stopping");
	if (!j)
		return sd_bus_error_setf(err, ERR_BUSY, "%d syncs are running; try again when one ends",
					 BUS_MAX_JOBS);
	memset(&ml, 0, sizeof(ml));
	if (d->p.share) {
		struct knobs_dev sd = { .is_share = true, .mounted = true, .minor = d->p.share_minor };
		for (int i = 0; i < BUS_MAX_JOBS; i++)
			if (b->jobs[i].pid && !strcmp(b->jobs[i].path, d->path))
				return sd_bus_error_setf(err, ERR_BUSY, "a Sync of %s (%s) runs already "
							 "(pid %d): its server has not taken everything yet",
							 d->p.name, d->p.model, (int)b->jobs[i].pid);
		r = procfs_dev_mounts(b->root, &sd, &ml);
	} else if (!strcmp(d->p.kind, "share")) {
		return sd_bus_error_setf(err, ERR_SYNC, "%s is a share mounted where wbgovd does not see "
					 "it (another mount namespace): it cannot be synced from here",
					 d->p.name);
	} else {
		r = d->p.disk[0] ? procfs_mounts(b->root, d->p.disk, &ml) : 0;
	}
	if (r <= 0) /* nothing mounted: nothing to sync */
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return sd_bus_error_set_errno(err, errno);
	/* syncfs of each file system, as `wbgov sync DEVICE` does; what fails
	 * goes to the pipe */
	r = sync_mounts_start(&ml, fds[1], "", 0, &pid);
	close(fds[1]);
	if (r < 0) {
		close(fds[0]);
		return sd_bus_error_set_errno(err, -r);
	}
	memset(j, 0, sizeof(*j));
	j->pid = pid;
	j->fd = fds[0];
	j->call = sd_bus_message_ref(call);
	snprintf(j->path, sizeof(j->path), "%s", d->path);
	if (d->p.share)
		log_info("share %s (%s): Sync asked on D-Bus by uid %u (%s): syncing %d file system%s "
			 "(pid %d)", d->p.name, d->p.model, (unsigned)uid, sender ? sender : "?", ml.n,
			 ml.n == 1 ? "" : "s", (int)pid);
	else
		log_info("%s: Sync asked on D-Bus by uid %u (%s): syncing %d file system%s (pid %d)",
			 d->p.name, (unsigned)uid, sender ? sender : "?", ml.n, ml.n == 1 ? "" : "s",
			 (int)pid);
	return 1;
}

/* Sync's options, a{sv}: OPT_NO_INTERACTION (b), nothing else. An
 * unknown key is refused, not ignored as udisks does: a caller that asks
 * for something this wbgovd does not do learns it now. */
static int read_options(sd_bus_message *m, bool *ret_no_interaction, sd_bus_error *err)
{
	bool no_interaction = false, seen = false;
	int r;

	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *contents = NULL;
		char type;
		int v = 0;
		r = sd_bus_message_read(m, "s", &key);
		if (r >= 0)
			r = sd_bus_message_peek_type(m, &type, &contents);
		if (r < 0)
			break;
		if (strcmp(key, OPT_NO_INTERACTION))
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS,
						 "Sync: unknown option '%.64s' (the one option is "
						 OPT_NO_INTERACTION ", b)", key);
		if (!contents || strcmp(contents, "b"))
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS,
						 "Sync: option '" OPT_NO_INTERACTION "' is a boolean "
						 "(b), not '%.16s'", contents ? contents : "?");
		if (seen)
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "Sync: option '"
						 OPT_NO_INTERACTION "' given twice");
		r = sd_bus_message_read(m, "v", "b", &v);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		no_interaction = v;
		seen = true;
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	if (r < 0)
		return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "Sync: options unreadable: %s",
					 strerror(-r));
	*ret_no_interaction = no_interaction;
	return 0;
}

/* Sync(a{sv} options): who calls is asked of the bus, and for anyone but
 * root polkit is asked, both without waiting; then a child syncs and the
 * call is answered when it ends. The daemon's loop goes on meanwhile. */
int bus_sync_method(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct bus_dev *d = userdata;
	struct bus *b = d->owner;
	bool no_interaction = false;
	int r;

	r = read_options(m, &no_interaction, err);
	if (r < 0)
		return r;
	if (b->stopping)
		return sd_bus_error_setf(err, ERR_BUSY, "wbgovd is stopping");
	if (!job_free(b))
		return sd_bus_error_setf(err, ERR_BUSY, "%d syncs are running; try again when one ends",
					 BUS_MAX_JOBS);
	return bus_auth_ask(b, d, m, no_interaction, err);
}

/* The child closed its end: it has exited, or is about to (the wait is
 * no longer than its exit takes). */
static void job_end(struct bus *b, struct bus_job *j)
{
	int r = sync_mounts_reap(j->pid, true);
	char msg[sizeof(j->err) * 3];

	close(j->fd);
	/* its line without the newline, in UTF-8 as sd-bus wants it (a path
	 * is bytes, and the read may have cut a character) */
	if (j->errlen && j->err[j->errlen - 1] == '\n')
		j->errlen--;
	j->err[j->errlen] = 0;
	bus_clean_utf8(msg, sizeof(msg), j->err);
	if (r == 0)
		sd_bus_reply_method_return(j->call, "");
	else if (b->stopping && r == -ECANCELED)
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "wbgovd stopped; the sync was cancelled");
	else
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "%s",
					   j->errlen ? msg : "the sync process failed");
	sd_bus_message_unref(j->call);
	j->pid = 0;
}

/* What the child wrote; at its end (EOF), the answer. */
static void job_read(struct bus *b, struct bus_job *j)
{
	ssize_t got = read(j->fd, j->err + j->errlen, sizeof(j->err) - 1 - j->errlen);

	if (got > 0)
		j->errlen += (size_t)got;
	if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) ||
	    j->errlen == sizeof(j->err) - 1)
		job_end(b, j);
}

void bus_sync_dispatch(struct bus *b, int fd)
{
	for (int k = 0; k < BUS_MAX_JOBS; k++) {
		struct bus_job *j = &b->jobs[k];
		if (j->pid && j->fd == fd)
			job_read(b, j);
	}
}

int bus_sync_pollfds(const struct bus *b, struct pollfd *pfd, int max)
{
	int n = 0;

	for (int i = 0; i < BUS_MAX_JOBS && n < max; i++)
		if (b->jobs[i].pid && b->jobs[i].fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = b->jobs[i].fd, .events = POLLIN };
	return n;
}

void bus_stop_begin(struct bus *b)
{
	b->stopping = true;
	bus_auths_drop(b, ERR_BUSY, "wbgovd is stopping");
	for (int i = 0; i < BUS_MAX_JOBS; i++)
		if (b->jobs[i].pid)
			kill(b->jobs[i].pid, SIGTERM);
}

int bus_jobs(const struct bus *b)
{
	int n = 0;

	for (int i = 0; i < BUS_MAX_JOBS; i++)
		n += b->jobs[i].pid != 0;
	return n;
}

void bus_sync_stop(struct bus *b)
{
	b->stopping = true;
	for (int i = 0; i < BUS_MAX_JOBS; i++) {
		struct bus_job *j = &b->jobs[i];
		char *name = NULL;
		if (!j->pid)
			continue;
		/* in syncfs (state D): SIGTERM waits for it to return. It goes
		 * on syncing and init reaps it; we do not wait */
		sd_bus_path_decode(j->path, BUS_DEVICE_PREFIX, &name);
		log_warn("Sync of %s: pid %d still running at stop (in a sync, which signals do "
			 "not interrupt); left to finish", name ? name : j->path, (int)j->pid);
		free(name);
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "wbgovd stopped; the sync goes on "
					   "in process %d", (int)j->pid);
		close(j->fd);
		sd_bus_message_unref(j->call);
		j->pid = 0;
	}
	bus_auths_drop(b, ERR_BUSY, "wbgovd is stopping");
}
