/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device memory, while wbgovd runs: loaded at start, a figure got when a
 * device comes and put when one is measured (the governor's recall and
 * measured hooks), saved by a child process at most every
 * MEMORY_SAVE_USEC and at stop. The file's format and its trust checks
 * are sys/memfile.c's. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/context.h"
#include "daemon/describe.h"
#include "daemon/memory.h"
#include "sys/fsutil.h"
#include "sys/log.h"

/* -v: every window that moved an estimate, with the time since start.
 * What the decision found worth keeping goes to device memory, marked as
 * it classed the figure: measured with a backlog (m), a lower bound that
 * showed the device fast (f), or one above its start cap (l). */
static void hook_measured(void *ctx, const struct gov_dev *d)
{
	static const char mark[] = {
		[GOV_BW_KNOWN] = 'm', [GOV_BW_FAST] = 'f', [GOV_BW_LOWER_BOUND] = 'l',
	};
	struct daemon *dm = ctx;
	const struct bwmeter *m = &d->meter;
	char bw[48];

	fmt_bw(bw, sizeof(bw), m);
	if (m->last_polls)
		log_debug("%s: +%.3f s: window %.1f MB/s (%s backlog: queue empty at %u of %u "
			  "polls, %" PRIu64 " ms of work on average) -> %s",
			  d->info.bdi, (double)(daemon_now_usec() - dm->start_usec) / 1e6,
			  (double)m->last_bps / 1e6, m->last_backlog ? "with" : "without",
			  m->last_empty, m->last_polls, m->last_queued_ms, bw);
	else /* judged by its stat alone (no debugfs) */
		log_debug("%s: +%.3f s: window %.1f MB/s (%s backlog: busy %u %% of it, no request "
			  "in flight at an end of %u of %u polls) -> %s",
			  d->info.bdi, (double)(daemon_now_usec() - dm->start_usec) / 1e6,
			  (double)m->last_bps / 1e6, m->last_backlog ? "with" : "without",
			  m->last_busy_pct, m->last_gaps, m->last_steps, bw);
	if (!dm->memory_path[0] || !d->info.id[0] || d->bw_class == GOV_BW_NONE)
		return;
	memory_put(&dm->memory, d->info.id, m->est_bps, mark[d->bw_class], (uint64_t)time(NULL));
}

/* A new device: its figure from device memory, if any. */
static uint64_t hook_recall(void *ctx, const struct knobs_dev *info, bool *ret_known)
{
	struct daemon *dm = ctx;
	uint64_t when = 0, bps;
	char date[32] = "?", source = 'm';
	time_t t;
	struct tm tm;

	if (!dm->memory_path[0] || !info->id[0])
		return 0;
	bps = memory_get(&dm->memory, info->id, &when, &source);
	if (!bps)
		return 0;
	*ret_known = source != 'l';
	t = (time_t)when;
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	log_info("%s (%s): remembered %s%.1f MB/s, measured %s (%s)", knobs_dev_label(info), info->bdi,
		 source == 'l' ? "at least " : "", (double)bps / 1e6, date, info->id);
	return bps;
}

/* Device memory is written by a child process: its fsync, on a disk busy
 * with the very writeback wbgovd governs, can take seconds, and the loop
 * must go on meanwhile and SIGTERM be honoured within a second. One save
 * at a time (a later one must not land before an earlier one's rename).
 * The child closes every other
 * descriptor (the lock, the bus, a Sync's pipe must not outlive the daemon
 * in it) and keeps TERM blocked: a save cut short would lose it. Its exit
 * status is the errno of a failure. */
void memory_flush(struct daemon *dm, bool now)
{
	int fds[2];
	pid_t pid;

	if (!dm->memory_path[0] || !dm->memory.dirty || dm->memory_pid ||
	    (!now && daemon_now_usec() - dm->memory_saved_usec < MEMORY_SAVE_USEC))
		return;
	dm->memory_saved_usec = daemon_now_usec();
	if (pipe2(fds, O_CLOEXEC) < 0) {
		/* tried again at the next interval */
		log_warn("%s: cannot start saving device memory: %s", dm->memory_path,
			 strerror(errno));
		return;
	}
	if ((pid = fork()) < 0) {
		log_warn("%s: cannot start saving device memory: %s", dm->memory_path,
			 strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		fd_keep_only(fds[1]);
		_exit(-memory_save(dm->memory_path, &dm->memory));
	}
	close(fds[1]);
	dm->memory_pid = pid;
	dm->memory_fd = fds[0];
	/* what is measured from now on is for the next save */
	dm->memory.dirty = false;
}

/* The save ended (its pipe closed): how it went. A failure turns device
 * memory off, as a full disk or a read-only one would fail every save. */
void memory_saved(struct daemon *dm)
{
	int status = 0;

	while (waitpid(dm->memory_pid, &status, 0) < 0 && errno == EINTR)
		;
	close(dm->memory_fd);
	dm->memory_fd = -1;
	dm->memory_pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	log_warn("%s: cannot save device memory: %s; not trying again", dm->memory_path,
		 WIFEXITED(status) ? strerror(WEXITSTATUS(status)) : "the saving process was killed");
	dm->memory_path[0] = 0;
}

/* Device memory at start: a missing file is an empty memory; a file that
 * cannot be trusted is ignored, with one line, and replaced by what this run
 * measures; malformed lines of a trusted one are dropped, with one line, and
 * the rest kept; a directory that is not ours (dir_of_ours: a link on the
 * way, a relative path, another's) turns memory off. */
void memory_start(struct daemon *dm)
{
	char dir[PATH_MAX], lines[128], *slash;
	struct memory_dropped dropped;
	const char *by;
	int r;

	if (!dm->memory_path[0]) {
		feature_set(&dm->features, FEATURE_MEMORY, FEATURE_OFF, NULL,
			    "not asked for (--no-memory): every device is measured anew");
		return;
	}
	snprintf(dir, sizeof(dir), "%s", dm->memory_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		/* root writes there: held to what the state directory is */
		*slash = 0;
		r = dir_of_ours(dir);
		if (r) {
			log_warn("%s: %s; device memory off", dir, state_dir_text(r));
			feature_set(&dm->features, FEATURE_MEMORY, FEATURE_OFF, NULL, "%s: %s", dir,
				    state_dir_text(r));
			dm->memory_path[0] = 0;
			return;
		}
	} else {
		snprintf(dir, sizeof(dir), "%s", slash ? "/" : ".");
	}
	r = memory_load(dm->memory_path, &dm->memory, &dropped);
	if (r == -EPERM || r == -EINVAL || r == -EFBIG) {
		log_warn("%s: ignored (%s); devices are measured anew",
			 dm->memory_path, file_trust_text(r));
		dm->memory.dirty = true; /* replace it with what this run learns */
	} else if (!r && dropped.n) {
		/* the file stays as it is until something new is put */
		memory_dropped_text(&dropped, lines, sizeof(lines));
		log_warn("%s: %d line%s dropped (%s: not \"v1 BYTES_PER_S SOURCE UNIX_TIME ID\", "
			 "a device named twice, or past %d devices); the other %d kept",
			 dm->memory_path, dropped.n, dropped.n > 1 ? "s" : "", lines, MEMORY_MAX,
			 dm->memory.n);
	} else if (r) {
		/* a read that failed (EIO, an LSM's EACCES) says nothing of the
		 * file: keep it as it is, and remember nothing this run */
		log_warn("%s: %s; device memory off", dm->memory_path, strerror(-r));
		feature_set(&dm->features, FEATURE_MEMORY, FEATURE_OFF, NULL, "%s: %s",
			    dm->memory_path, strerror(-r));
		dm->memory_path[0] = 0;
		return;
	}
	/* read-only: a unit whose ReadWritePaths= (or StateDirectory=) does
	 * not name it; what is remembered is used, nothing new kept */
	r = faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) ? -errno : 0;
	by = feature_refused_by(r, false);
	if (r)
		feature_set(&dm->features, FEATURE_MEMORY, by ? FEATURE_REFUSED : FEATURE_OFF, by,
			    "%s: %d device%s remembered, nothing new kept (%s: %s)", dm->memory_path,
			    dm->memory.n, dm->memory.n == 1 ? "" : "s", dir, strerror(-r));
	else
		feature_set(&dm->features, FEATURE_MEMORY, FEATURE_ON, NULL, "%s: %d device%s remembered",
			    dm->memory_path, dm->memory.n, dm->memory.n == 1 ? "" : "s");
}

void memory_hooks(struct gov_hooks *h)
{
	h->measured = hook_measured;
	h->recall = hook_recall;
}
