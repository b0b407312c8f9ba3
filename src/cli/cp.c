/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov cp: a copy that returns when the data is on the device, and whose
 * progress counts the bytes that are there, not those in the page cache.
 * Andreas Dilger's per-file early writeout (the seeds' mail 003: "start
 * writing at 16MB dirty on a single file") done in user space: each chunk
 * is sent to the device as soon as it is written (sync_file_range WRITE),
 * the one before it is waited for, so the device never idles and at most
 * WINDOW chunks of the file are ever dirty or under writeback; written and
 * read pages leave the cache. The copy goes to a temporary name beside
 * DEST and is renamed over it once fsync says it is whole on the
 * device: DEST names either the old file or the whole new one.
 *
 * To or from a share (NFS, SMB, a FUSE file system), every call on its
 * files can wait for as long as its server is gone, and a signal the copy
 * catches does not end that wait: the copy runs in a child, which does
 * all of the above, and the parent only watches it (cp_share). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/units.h"
#include "sys/fsutil.h"

/* Chunk and window, measured with bench/cp-window (48 MiB from tmpfs, two
 * runs each): to a 5 MB/s device, a throttled loop or a stick, every chunk
 * of 1, 2, 4 or 8 MiB with 2 or 3 in flight kept the device busy (wall /
 * ideal 0.999-1.006; 8 MiB x 3 once 1.012); to a tmpfs-backed loop at
 * memory speed (1 GiB; noisy), 4 MiB x 2 took 0.28-0.29 s, 2 MiB x 2
 * 0.25-0.33 s, 1 MiB x 2 0.96-2.83 s, 8 MiB x 2 0.70-0.73 s, cp + sync
 * 0.72-0.81 s. A larger window only adds to what sits dirty: 2 x 4 MiB is
 * 1.7 s of a 5 MB/s stick, the most an eject after a Ctrl-C waits for. */
#ifndef CHUNK_BYTES /* -D for a measurement build */
#define CHUNK_BYTES (4 * MIB)
#endif
#ifndef WINDOW
#define WINDOW 2
#endif
/* The durable count moves this much at a time: each chunk is waited for
 * in steps (a step's wait returns when its pages are written), so the
 * count and the rate move ten times a second on a 5 MB/s device, not once
 * per chunk. */
#define STEP_BYTES (512 * 1024)
/* The rate is taken over the last RATE_SPAN_S seconds of durable bytes:
 * long enough to smooth a device that completes writes in lumps, short
 * enough to follow a stick whose speed drops. */
#define RATE_SPAN_S 5.0
#define RING 64

/* The exit status of a copy that is in DEST, its data durable, whose
 * directory could not be synced after the rename: done, but its name may
 * not survive a crash. As apply's 1, "done, not all of it". */
#define CP_NAME_NOT_DURABLE 1

/* A share's server that took nothing for this long may not answer (as
 * sync.c's SHARE_STALL_S): said once, until the copy moves again. */
#define SHARE_STALL_S 5.0
/* After a stop, the child that copies to a share gets this long to remove
 * its partial copy and end: a copy that moves stops within a step
 * (STEP_BYTES, a quarter of a second at 2 MB/s); one that waits for a
 * server that is gone would hold the user for as long as it is. */
#define SHARE_GRACE_S 1.0

/* In the child of a copy to or from a share: the pipe to the parent that
 * watches, which is told each move of the count (struct share_msg); -1
 * otherwise. */
static int progress_fd = -1;

struct share_msg {
	uint64_t durable, total;
};

/* The signal that stopped the copy: INT and TERM (Ctrl-C, kill), HUP (the
 * terminal hung up: whoever asked for the copy is gone), PIPE (whoever
 * read its progress is gone). */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	if (!stop_signal) /* the first: a hang-up's PIPE that follows is its echo */
		stop_signal = sig;
	cli_interrupted = 1;
}

/* "" for Ctrl-C (the message it always had), " by SIGHUP" and so on */
static const char *signal_text(void)
{
	switch (stop_signal) {
	/* TRANSLATORS: after "wbgov cp: interrupted" */
	case SIGTERM: return _(" by SIGTERM");
	case SIGHUP: return _(" by SIGHUP (hang-up)");
	case SIGPIPE: return _(" by SIGPIPE (the reader of the progress is gone)");
	default: return "";
	}
}

struct src {
	const char *path, *dst; /* dst: DEST, or DEST/basename(SRC) */
	char *dst_buf;
	uint64_t size;
};

struct job {
	const struct cli *o;
	uint64_t total, durable; /* bytes of the whole job */
	int nfiles;
	const char *file;        /* being copied now, for --json */
	struct timespec t0;
	double last_show;
	bool tty, shown;
	/* (time, durable) when the count moved, for the rate; each sample
	 * gathers the moves of 0.1 s from its first (ring_t0) */
	double ring_t[RING], ring_t0[RING];
	uint64_t ring_d[RING];
	int ring_n, ring_head;
	char *buf;
};

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void sample(struct job *j, double t)
{
	int last = (j->ring_head + j->ring_n - 1) % RING;

	/* one sample per 0.1 s is enough for a 5 s span */
	if (j->ring_n && t - j->ring_t0[last] < 0.1) {
		j->ring_d[last] = j->durable;
		j->ring_t[last] = t;
		return;
	}
	if (j->ring_n == RING) {
		j->ring_head = (j->ring_head + 1) % RING;
		j->ring_n--;
	}
	last = (j->ring_head + j->ring_n) % RING;
	j->ring_t[last] = j->ring_t0[last] = t;
	j->ring_d[last] = j->durable;
	j->ring_n++;
}

/* Durable bytes per second over the last RATE_SPAN_S, and the ETA: what
 * is left at that rate, less the time since (so it counts down between
 * two moves of the count). Pages leave writeback when their whole bio
 * completes, and a file system's bio can be megabytes: the count moves in
 * lumps (6 MiB every 1.25 s on a 5 MB/s loop, stacked as a stick or not),
 * the first step of a lump blocks and the rest of it returns at once. Only
 * samples at least SETTLE_S old are used, so a lump is counted whole or
 * not at all, whichever moment the line is drawn. 0 and 0 while there is
 * no rate yet. */
#define SETTLE_S 0.05
static double rate_eta(const struct job *j, double now, double *eta)
{
	int n = j->ring_n, last, first;
	double r, e;

	*eta = 0;
	while (n > 0 && now - j->ring_t[(j->ring_head + n - 1) % RING] < SETTLE_S)
		n--;
	if (n < 2)
		return 0;
	last = (j->ring_head + n - 1) % RING;
	first = (last + RING - 1) % RING; /* at least the one before */
	for (int i = 0; i < n - 1; i++) {
		int k = (j->ring_head + i) % RING;
		if (j->ring_t[last] - j->ring_t[k] <= RATE_SPAN_S) {
			first = k;
			break;
		}
	}
	if (j->ring_t[last] <= j->ring_t[first] || j->ring_d[last] <= j->ring_d[first])
		return 0;
	r = (double)(j->ring_d[last] - j->ring_d[first]) / (j->ring_t[last] - j->ring_t[first]);
	e = (double)(j->total > j->ring_d[last] ? j->total - j->ring_d[last] : 0) / r -
	    (now - j->ring_t[last]);
	*eta = e > 0 ? e : 0;
	return r;
}

/* The progress, at most once a second (`final`: the last, always): a line
 * on a terminal, a JSON object a line on standard output with --json,
 * nothing otherwise until the end. */
static void show(struct job *j, bool final)
{
	double now = since(&j->t0), eta, rate;
	int pct;

	if (j->o->quiet || (!final && now - j->last_show < 1.0))
		return;
	if (!final && !j->o->json && !j->tty)
		return;
	j->last_show = now;
	rate = rate_eta(j, now, &eta);
	pct = j->total ? (int)(100 * (double)j->durable / (double)j->total) : 100;
	if (j->o->json) {
		/* schema 1, in wbgov(8); one object a line */
		cli_json_print(stdout,
			       json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "schema", 1,
					 "elapsed_s", cli_json_real(true, now, 3),
					 "durable_bytes", cli_json_u64(true, j->durable),
					 "total_bytes", cli_json_u64(true, j->total),
					 "rate_bps", cli_json_u64(rate > 0, (uint64_t)(rate + 0.5)),
					 "eta_s", cli_json_real(rate > 0, eta, 3),
					 "file", cli_json_text_or_null(final || !j->file ? "" : j->file),
					 "done", final),
			       true);
		fflush(stdout);
		return;
	}
	if (!final) {
		char what[64], d[24], t[24];
		bytes_text(d, sizeof(d), j->durable, BYTES_KIB_DOWN);
		bytes_text(t, sizeof(t), j->total, BYTES_KIB_DOWN);
		/* TRANSLATORS: "12.0 MiB of 48.0 MiB durable" */
		snprintf(what, sizeof(what), _("%s of %s durable"), d, t);
		cli_progress_line(stderr, true, pct, what, rate, eta, now);
		j->shown = true;
		return;
	}
	{
		char t[24], r[24];
		if (j->durable < 1024)
			snprintf(t, sizeof(t), ngettext("%llu byte", "%llu bytes", (unsigned long)j->durable),
				 (unsigned long long)j->durable);
		else
			bytes_text(t, sizeof(t), j->durable, BYTES_KIB_DOWN);
		cli_human_rate(r, sizeof(r), now > 0 ? (double)j->durable / now : 0);
		fputs(j->tty && j->shown ? "\n" : "", stderr);
		/* TRANSLATORS: "wbgov cp: 48.0 MiB in 2 files durable after 9.6 s (5.0 MiB/s)" */
		fprintf(stderr, ngettext("wbgov cp: %s in %d file durable after %.1f s (%s)\n",
					 "wbgov cp: %s in %d files durable after %.1f s (%s)\n",
					 (unsigned long)j->nfiles), t, j->nfiles, now, r);
	}
}

/* On a terminal, end the progress line before a message. */
static void end_line(struct job *j)
{
	if (j->tty && j->shown) {
		fputc('\n', stderr);
		j->shown = false;
	}
}

/* The count to the parent that watches a copy to a share: 16 bytes,
 * within PIPE_BUF, so each write is whole. A parent gone (it stopped
 * waiting) is a SIGPIPE, which stops the copy as a reader gone does. */
static void tell_parent(const struct job *j)
{
	struct share_msg m = { j->durable, j->total };

	if (progress_fd >= 0 && write(progress_fd, &m, sizeof(m)) < 0)
		progress_fd = -1;
}

/* Wait until [*done, to) of the file is on the device, a step at a time,
 * then drop those pages from the cache. 0 or -errno (a write-back error:
 * EIO, ENOSPC). */
static int wait_durable(struct job *j, int fd, uint64_t *done, uint64_t to)
{
	while (*done < to && !cli_interrupted) {
		uint64_t len = to - *done < STEP_BYTES ? to - *done : STEP_BYTES;
		if (sync_file_range(fd, (off64_t)*done, (off64_t)len,
				    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER) < 0)
			return -errno;
		/* clean now: they can go, and make room for what is to come */
		posix_fadvise(fd, (off_t)*done, (off_t)len, POSIX_FADV_DONTNEED);
		*done += len;
		j->durable += len;
		tell_parent(j);
		sample(j, since(&j->t0));
		show(j, false);
	}
	return 0;
}

/* read(2) until len bytes or the end of the file. */
static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int write_full(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The exit status for an errno of the destination: no room or an I/O
 * error is EX_IOERR, anything else (permission, a read-only file system)
 * EX_CANTCREAT. */
static int dst_status(int err)
{
	return err == EIO || err == ENOSPC || err == EDQUOT || err == EFBIG ? EX_IOERR : EX_CANTCREAT;
}

/* "DEST has N links": a copy renamed over it would give only this name
 * the new content and leave the other names the old one. */
static void say_links(const char *dst, nlink_t n)
{
	fprintf(stderr, _("wbgov cp: %s has %lu links: replacing it would split them, leaving %lu with "
			"the old content; remove it first, or write through every link with cp(1)\n"),
		dst, (unsigned long)n, (unsigned long)n - 1);
}

/* The copy that replaces a file takes that file's owner and group where
 * it may (root: always, as cp(1) keeps them by writing in place; another
 * user: the group, if a member), before any data is in it. 0 or -errno;
 * not being allowed is no error: the copy is then the copier's. */
static int take_owner(int out, const struct stat *old)
{
	struct stat now;

	if (fstat(out, &now) < 0)
		return -errno;
	if (now.st_uid == old->st_uid && now.st_gid == old->st_gid)
		return 0;
	/* EINVAL: an owner this user namespace does not map */
	if (fchown(out, old->st_uid, old->st_gid) == 0)
		return 0;
	if (errno != EPERM && errno != EINVAL)
		return -errno;
	if (now.st_gid != old->st_gid && fchown(out, (uid_t)-1, old->st_gid) < 0 &&
	    errno != EPERM && errno != EINVAL)
		return -errno;
	return 0;
}

/* The file DEST names in `dfd` now, not followed: its stat in *old, and
 * its access ACL (malloc'd, *ret_len bytes; NULL, 0 when it has none),
 * read from that very file, not by name again, which another user who can
 * write the directory could point at a file of theirs meanwhile. 1 when
 * it is a regular file (to be replaced, and what it was kept), 0 when
 * there is none or something else, -errno when its ACL cannot be read. */
static int old_file(int dfd, const char *base, struct stat *old, char **ret_acl, size_t *ret_len)
{
	char p[64];
	ssize_t n;
	int fd = openat(dfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC), r;

	*ret_acl = NULL;
	*ret_len = 0;
	r = fd >= 0 && fstat(fd, old) == 0 && S_ISREG(old->st_mode);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	/* its size first: an ACL has no bound of its own */
	if (r && (n = getxattr(p, "system.posix_acl_access", NULL, 0)) < 0 && errno != ENODATA &&
	    errno != ENOTSUP)
		r = -errno;
	else if (r && n > 0 && !(*ret_acl = malloc((size_t)n)))
		r = -ENOMEM;
	else if (r && n > 0 && (n = getxattr(p, "system.posix_acl_access", *ret_acl, (size_t)n)) < 0)
		r = -errno; /* ERANGE: it grew meanwhile */
	else if (r && n > 0)
		*ret_len = (size_t)n;
	if (r < 0) {
		free(*ret_acl);
		*ret_acl = NULL;
	}
	if (fd >= 0)
		close(fd);
	return r;
}

/* ... and, once its data is written (a write by a user without
 * CAP_FSETID clears setuid and setgid), that file's permission bits and
 * access ACL (`acl`, as old_file read it). Setuid and setgid only where
 * the owner (setuid) or owner and group (setgid) are that file's: never
 * to a file of another owner. 0 or -errno. */
static int take_mode(int out, const struct stat *old, const char *acl, size_t acl_len)
{
	struct stat now;
	mode_t mode = old->st_mode & 07777;

	if (fstat(out, &now) < 0)
		return -errno;
	if (now.st_uid != old->st_uid)
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (now.st_gid != old->st_gid)
		mode &= ~(mode_t)S_ISGID;
	if (fchmod(out, mode) < 0)
		return -errno;
	/* with an ACL, the group bits are its mask, not the owning group's
	 * rights: without the ACL they would give the group what the named
	 * entries had */
	if (acl_len && fsetxattr(out, "system.posix_acl_access", acl, acl_len, 0) < 0)
		return -errno;
	return 0;
}

/* The data of `in` into `out`, chunk by chunk: each chunk's writeout
 * started at once (Dilger's early writeout) and waited for WINDOW - 1
 * chunks behind, so that what the bar shows is on the device. A source
 * that grows or shrinks meanwhile moves j->total. 0, or the exit status
 * with *err and *what (the path it concerns). */
static int copy_data(struct job *j, const struct src *s, int in, int out, int *err,
		     const char **what)
{
	uint64_t off = 0, done = 0, counted = s->size;
	int status = 0;

	posix_fadvise(in, 0, 0, POSIX_FADV_SEQUENTIAL);
	while (!status) {
		ssize_t n = read_full(in, j->buf, CHUNK_BYTES);
		if (n < 0) {
			*err = (int)-n, *what = s->path, status = EX_IOERR;
			break;
		}
		if (n == 0)
			break;
		if ((*err = -write_full(out, j->buf, (size_t)n))) {
			*what = s->dst, status = dst_status(*err);
			break;
		}
		/* start this chunk's writeout now (Dilger's early writeout) */
		if (sync_file_range(out, (off64_t)off, (off64_t)n, SYNC_FILE_RANGE_WRITE) < 0) {
			*err = errno, *what = s->dst, status = EX_IOERR;
			break;
		}
		posix_fadvise(in, (off_t)off, (off_t)n, POSIX_FADV_DONTNEED);
		off += (uint64_t)n;
		if (off > counted) { /* it grew while copied */
			j->total += off - counted;
			counted = off;
		}
		/* ... and wait for those before, WINDOW - 1 chunks behind */
		if (off > (WINDOW - 1) * CHUNK_BYTES &&
		    (*err = -wait_durable(j, out, &done, off - (WINDOW - 1) * CHUNK_BYTES))) {
			*what = s->dst, status = EX_IOERR;
			break;
		}
		if (cli_interrupted)
			break;
	}
	if (off < counted) /* it shrank */
		j->total -= counted - off;
	if (!status && !cli_interrupted && (*err = -wait_durable(j, out, &done, off)))
		*what = s->dst, status = EX_IOERR;
	return status;
}

/* What became of a copy, said; its exit status. `pending`: the copy
 * never took its name (interrupted before the rename: 130). */
static int copy_said(struct job *j, const struct src *s, const char *dir, int status, int err,
		     const char *what, bool pending)
{
	if (status == CP_NAME_NOT_DURABLE) {
		end_line(j);
		fprintf(stderr, _("wbgov cp: %s: %s; %s holds the whole copy, its data durable, but the "
				"directory could not be synced: its name may not survive a crash (try sync)\n"),
			dir, strerror(err), s->dst);
	} else if (status) {
		end_line(j);
		fprintf(stderr, _("wbgov cp: %s: %s; %s not written (the partial copy is removed)\n"), what,
			strerror(err), s->dst);
	} else if (pending) {
		end_line(j);
		fprintf(stderr,
			_("wbgov cp: interrupted%s; %s not written (the partial copy is removed)\n"),
			signal_text(), s->dst);
		status = 130;
	}
	return status;
}

/* Copy one file to a temporary name beside its destination, durable, then
 * renamed over it and the directory synced. On an error or an interrupt
 * before the rename, the temporary file is removed and the destination is
 * as it was. After it, the destination holds the copy: a directory that
 * cannot be synced is said (CP_NAME_NOT_DURABLE), nothing is removed. */
static int copy_one(struct job *j, const struct src *s, int index)
{
	char dir[PATH_MAX], tmp[NAME_MAX + 1];
	const char *base, *what = NULL;
	struct stat st, old;
	bool replace;
	char *acl = NULL;
	size_t acl_len = 0;
	int in, out = -1, dfd, err = 0, status = 0, r;

	path_split(s->dst, dir, sizeof(dir), &base);
	in = open(s->path, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0) {
		end_line(j);
		fprintf(stderr, _("wbgov cp: %s: %s\n"), s->path, strerror(errno));
		if (in >= 0)
			close(in);
		return EX_NOINPUT;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = errno;
		close(in);
		end_line(j);
		fprintf(stderr, _("wbgov cp: %s: %s\n"), dir, strerror(err));
		return EX_CANTCREAT;
	}
	/* a file that is there is replaced, and what it was kept (a link or
	 * anything else is replaced by a new file, as a new file) */
	r = old_file(dfd, base, &old, &acl, &acl_len);
	if (r < 0) {
		close(in);
		close(dfd);
		end_line(j);
		fprintf(stderr, _("wbgov cp: %s: its ACL cannot be read: %s; not replaced\n"), s->dst,
			strerror(-r));
		return dst_status(-r);
	}
	replace = r > 0;
	if (replace && old.st_nlink > 1) { /* linked since plan() looked */
		free(acl);
		close(in);
		close(dfd);
		end_line(j);
		say_links(s->dst, old.st_nlink);
		return EX_CANTCREAT;
	}
	/* ".NAME.wbgov-PID-N": a leftover (after SIGKILL, a crash) says whose */
	for (int tries = 0; tries < 100 && out < 0; tries++) {
		char tail[48];
		int room;
		snprintf(tail, sizeof(tail), ".wbgov-%ld-%d", (long)getpid(), index * 100 + tries);
		room = NAME_MAX - 1 - (int)strlen(tail);
		snprintf(tmp, sizeof(tmp), ".%.*s%s", room, base, tail);
		/* a new file: the source's permissions, less the umask, as cp
		 * gives one; a replacement: the copier's alone while written,
		 * the old file's once whole (take_mode) */
		out = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			     replace ? 0600 : st.st_mode & 0777);
		if (out < 0 && errno != EEXIST)
			break;
	}
	if (out < 0) {
		err = errno;
		free(acl);
		close(in);
		close(dfd);
		end_line(j);
		fprintf(stderr, _("wbgov cp: cannot create a file in %s: %s\n"), dir, strerror(err));
		return dst_status(err);
	}
	if (replace && (err = -take_owner(out, &old)))
		what = s->dst, status = dst_status(err);
	j->file = s->dst;
	if (!status)
		status = copy_data(j, s, in, out, &err, &what);
	else
		j->total -= s->size; /* none of it is copied */
	if (!status && !cli_interrupted && replace && (err = -take_mode(out, &old, acl, acl_len)))
		what = s->dst, status = dst_status(err);
	/* data, the metadata to find it (size, blocks) and the inode's mode
	 * and owner on the device, the device's cache flushed; then the name,
	 * and the directory's entry */
	if (!status && !cli_interrupted && fsync(out) < 0)
		err = errno, what = s->dst, status = EX_IOERR;
	if (!status && !cli_interrupted) {
		posix_fadvise(out, 0, 0, POSIX_FADV_DONTNEED);
		if (close(out) < 0)
			err = errno, what = s->dst, status = EX_IOERR;
		out = -1;
	}
	if (!status && !cli_interrupted && renameat(dfd, tmp, dfd, base) < 0) {
		err = errno, what = s->dst, status = dst_status(errno);
	} else if (!status && !cli_interrupted) {
		tmp[0] = 0; /* renamed: DEST holds the copy, nothing to remove */
		/* some file systems do not sync a directory (EINVAL): the
		 * rename is all they have. Synced even if a signal came since:
		 * the copy is DEST now, and this makes its name durable */
		if (fsync(dfd) < 0 && errno != EINVAL)
			err = errno, status = CP_NAME_NOT_DURABLE;
	}
	if (out >= 0)
		close(out);
	if (tmp[0] && (status || cli_interrupted))
		unlinkat(dfd, tmp, 0);
	close(in);
	close(dfd);
	free(acl);
	return copy_said(j, s, dir, status, err, what, tmp[0] != 0);
}

/* The destinations, every source checked, before anything is written: a
 * refusal writes nothing. */
static int plan(struct src *srcs, int n, const char *dest, uint64_t *total)
{
	struct stat ds, st;
	int dest_err = stat(dest, &ds) < 0 ? errno : 0;
	bool dest_dir = !dest_err && S_ISDIR(ds.st_mode);
	size_t dl = strlen(dest);
	char dir[PATH_MAX];
	const char *base;
	struct statvfs vfs;

	if (dest_err && dest_err != ENOENT && dest_err != ENOTDIR) { /* EACCES, ELOOP... */
		fprintf(stderr, _("wbgov cp: %s: %s\n"), dest, strerror(dest_err));
		return EX_CANTCREAT;
	}
	if (n > 1 && !dest_dir) {
		fprintf(stderr, _("wbgov cp: %s: %s; several files go into a directory\n"), dest,
			dest_err ? _("no such directory") : _("not a directory"));
		return EX_USAGE;
	}
	if (!dest_dir && dl && dest[dl - 1] == '/') {
		fprintf(stderr, _("wbgov cp: %s: no such directory\n"), dest);
		return EX_CANTCREAT;
	}
	*total = 0;
	for (int i = 0; i < n; i++) {
		struct src *s = &srcs[i];
		if (stat(s->path, &st) < 0) {
			fprintf(stderr, _("wbgov cp: %s: %s\n"), s->path, strerror(errno));
			return EX_NOINPUT;
		}
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, _("wbgov cp: %s is a directory; wbgov cp copies files, not "
					"directory trees (cp -r, then wbgov sync)\n"), s->path);
			return EX_NOINPUT;
		}
		if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, _("wbgov cp: %s is not a regular file\n"), s->path);
			return EX_NOINPUT;
		}
		if (faccessat(AT_FDCWD, s->path, R_OK, AT_EACCESS) < 0) {
			fprintf(stderr, _("wbgov cp: %s: %s\n"), s->path, strerror(errno));
			return EX_NOINPUT;
		}
		s->size = (uint64_t)st.st_size;
		*total += s->size;
		if (dest_dir) {
			/* DEST/the source's name (a file's path ends in no '/') */
			path_split(s->path, dir, sizeof(dir), &base);
			s->dst_buf = malloc(PATH_MAX);
			if (!s->dst_buf) {
				fprintf(stderr, _("wbgov cp: out of memory\n"));
				return EX_OSERR;
			}
			if (snprintf(s->dst_buf, PATH_MAX, "%s%s%s", dest, dest[dl - 1] == '/' ? "" : "/",
				     base) >= PATH_MAX) {
				fprintf(stderr, _("wbgov cp: %s/%s: path too long\n"), dest, base);
				return EX_USAGE;
			}
			s->dst = s->dst_buf;
		} else {
			s->dst = dest;
		}
		/* a file with other names: replaced by rename, they would keep
		 * the old content (a link itself is replaced, not followed) */
		if (lstat(s->dst, &ds) == 0 && S_ISREG(ds.st_mode) && ds.st_nlink > 1) {
			say_links(s->dst, ds.st_nlink);
			return EX_CANTCREAT;
		}
		if (stat(s->dst, &ds) == 0) {
			if (S_ISDIR(ds.st_mode)) {
				fprintf(stderr, _("wbgov cp: %s is a directory\n"), s->dst);
				return EX_CANTCREAT;
			}
			if (ds.st_dev == st.st_dev && ds.st_ino == st.st_ino) {
				fprintf(stderr, _("wbgov cp: %s and %s are the same file\n"), s->path, s->dst);
				return EX_USAGE;
			}
		}
		path_split(s->dst, dir, sizeof(dir), &base);
		if (!base[0] || faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) < 0) {
			fprintf(stderr, _("wbgov cp: cannot write in %s: %s\n"), dir,
				base[0] ? strerror(errno) : _("no file name"));
			return EX_CANTCREAT;
		}
	}
	/* every destination is in one directory: a copy that cannot fit is
	 * refused before it fills the device (metadata needs a little more,
	 * and a file replaced frees its room only at the end) */
	if (statvfs(dir, &vfs) == 0 && vfs.f_frsize && vfs.f_blocks &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < *total) {
		char need[24], have[24];
		bytes_text(need, sizeof(need), *total, BYTES_KIB_DOWN);
		bytes_text(have, sizeof(have), (uint64_t)vfs.f_bavail * vfs.f_frsize, BYTES_KIB_DOWN);
		fprintf(stderr, _("wbgov cp: %s has %s free; the copy needs %s\n"), dir, have, need);
		return EX_CANTCREAT;
	}
	return 0;
}

/* The copy itself, in wbgov or in the child of cp_share. */
static int cp_run(const struct cli *o, int n, char **args)
{
	struct sigaction sa = { .sa_handler = on_stop }, was;
	struct src *srcs;
	struct job j = { .o = o, .tty = isatty(STDERR_FILENO) };
	int nsrc = n - 1, r, copied = 0;

	srcs = calloc((size_t)nsrc, sizeof(*srcs));
	if (!srcs) {
		fprintf(stderr, _("wbgov cp: out of memory\n"));
		return EX_OSERR;
	}
	for (int i = 0; i < nsrc; i++)
		srcs[i].path = args[i];
	r = plan(srcs, nsrc, args[n - 1], &j.total);
	if (!r && !(j.buf = malloc(CHUNK_BYTES))) {
		fprintf(stderr, _("wbgov cp: out of memory\n"));
		r = EX_OSERR;
	}
	if (!r) {
		/* Ctrl-C, kill, a hang-up, the progress's reader gone: the
		 * file being copied is removed, those before stay. HUP and
		 * PIPE stay ignored where the caller ignores them (nohup: the
		 * copy is to outlive the terminal); INT is taken even so, as a
		 * shell without job control ignores it in `wbgov cp ... &`,
		 * and `kill -INT` there means it. */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		if (sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			sigaction(SIGHUP, &sa, NULL);
		if (sigaction(SIGPIPE, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			sigaction(SIGPIPE, &sa, NULL);
		/* past a file size limit (ulimit -f), a write fails with EFBIG
		 * and the partial copy is removed, instead of a death that
		 * leaves it */
		signal(SIGXFSZ, SIG_IGN);
		clock_gettime(CLOCK_MONOTONIC, &j.t0);
		tell_parent(&j);
		sample(&j, 0);
		for (int i = 0; i < nsrc && !r && !cli_interrupted; i++) {
			j.nfiles = i + 1;
			r = copy_one(&j, &srcs[i], i);
			if (!r)
				copied++;
		}
		if (!r && copied < nsrc) { /* interrupted between two files */
			end_line(&j);
			fprintf(stderr, _("wbgov cp: interrupted%s; %s not written\n"), signal_text(),
				srcs[copied].dst);
			r = 130;
		}
		if (r && copied)
			fprintf(stderr, ngettext("wbgov cp: %d of %d file copied and durable before that\n",
						 "wbgov cp: %d of %d files copied and durable before that\n",
						 (unsigned long)nsrc), copied, nsrc);
		if (!r)
			show(&j, true);
	}
	for (int i = 0; i < nsrc; i++)
		free(srcs[i].dst_buf);
	free(srcs);
	free(j.buf);
	return r;
}

/* The messages of the child since the last call: the latest into *m, and
 * whether the count moved. false at the end of the pipe (*eof). */
static bool read_msgs(int fd, struct share_msg *m, bool *eof)
{
	struct share_msg v[64];
	bool moved = false;
	ssize_t got;

	while ((got = read(fd, v, sizeof(v))) > 0) {
		/* whole messages only: each write is one (PIPE_BUF) */
		size_t k = (size_t)got / sizeof(v[0]);
		if (k && v[k - 1].durable != m->durable)
			moved = true;
		if (k)
			*m = v[k - 1];
		if (got < (ssize_t)sizeof(v))
			break;
	}
	if (got == 0)
		*eof = true;
	return moved;
}

/* Watch the child `pid` that copies to or from `share`, its counts on
 * `fd`: its exit status when it ends; after a stop (INT, TERM, HUP) and
 * SHARE_GRACE_S more, 130 with what is left said, the child left to wait
 * for the server (and to remove its partial copy when it answers). */
static int cp_watch(const struct knobs_dev *share, pid_t pid, int fd, const char *dest)
{
	struct sigaction sa = { .sa_handler = on_stop }, was;
	struct share_msg m = { 0, 0 };
	struct timespec t0;
	double moved = 0, stop_at = 0;
	bool eof = false, said = false, stopping = false, tty = isatty(STDERR_FILENO);

	/* as cp_run takes them; PIPE is not the parent's: it writes no
	 * progress of its own */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int status;
		double now;

		if (!eof && poll(&p, 1, 100) > 0 && read_msgs(fd, &m, &eof)) {
			moved = since(&t0);
			said = false;
		} else if (eof) {
			struct timespec nap = { 0, 100000000 };
			nanosleep(&nap, NULL);
		}
		if (waitpid(pid, &status, WNOHANG) == pid) {
			if (WIFEXITED(status))
				return WEXITSTATUS(status);
			/* a stop before the copy took its signals: nothing
			 * written yet (a partial copy exists only after) */
			if (stopping || WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM) {
				fprintf(stderr, _("wbgov cp: interrupted%s; %s not written\n"), signal_text(),
					dest);
				return 130;
			}
			fprintf(stderr, _("wbgov cp: the copy died of signal %d; %s not written\n"),
				WTERMSIG(status), dest);
			return EX_SOFTWARE;
		}
		now = since(&t0);
		if (cli_interrupted && !stopping) {
			/* the same signal: a Ctrl-C reached it too, a kill did not */
			kill(pid, stop_signal ? stop_signal : SIGTERM);
			stopping = true;
			stop_at = now;
		}
		if (stopping && now - stop_at >= SHARE_GRACE_S) {
			char left[24], total[24];
			bytes_text(left, sizeof(left), m.total > m.durable ? m.total - m.durable : 0,
				   BYTES_KIB_DOWN);
			bytes_text(total, sizeof(total), m.total, BYTES_KIB_DOWN);
			fputs(tty ? "\n" : "", stderr);
			/* TRANSLATORS: "wbgov cp: interrupted; the server of
			 * nas:/export (nfs4) does not answer: 12.0 MiB of 48.0
			 * MiB not durable there, DEST not written; process 123
			 * waits for the server ..." */
			fprintf(stderr, _("wbgov cp: interrupted%s; the server of %s (%s) does not answer: %s "
					"of %s not durable there, %s not written; process %d waits for the "
					"server, and removes the partial copy when it answers\n"),
				signal_text(), share->model, share->bus, left, total, dest, (int)pid);
			return 130;
		}
		if (!stopping && !said && m.total > m.durable && now - moved >= SHARE_STALL_S) {
			char left[24], total[24];
			bytes_text(left, sizeof(left), m.total - m.durable, BYTES_KIB_DOWN);
			bytes_text(total, sizeof(total), m.total, BYTES_KIB_DOWN);
			fputs(tty ? "\n" : "", stderr);
			/* TRANSLATORS: "... for 5 s: the server of nas:/export (nfs4)
			 * may not answer; 12.0 MiB of 48.0 MiB not yet durable ..." */
			fprintf(stderr, _("wbgov cp: nothing written for %.0f s: the server of %s (%s) may not "
					"answer; %s of %s not yet durable; Ctrl-C stops the copy\n"),
				now - moved, share->model, share->bus, left, total);
			said = true;
		}
	}
}

/* A copy to or from a share: in a child, watched (cp_watch). */
static int cp_share(const struct cli *o, int n, char **args, const struct knobs_dev *share)
{
	int fds[2], r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0) {
		fprintf(stderr, _("wbgov cp: pipe: %s\n"), strerror(errno));
		return EX_OSERR;
	}
	fflush(NULL); /* nothing buffered is written twice */
	if ((pid = fork()) < 0) {
		r = errno;
		close(fds[0]);
		close(fds[1]);
		fprintf(stderr, _("wbgov cp: fork: %s\n"), strerror(r));
		return EX_OSERR;
	}
	if (pid == 0) {
		close(fds[0]);
		progress_fd = fds[1];
		r = cp_run(o, n, args);
		fflush(NULL);
		_exit(r);
	}
	close(fds[1]);
	r = cp_watch(share, pid, fds[0], args[n - 1]);
	close(fds[0]);
	return r;
}

int cli_cp(const struct cli *o, int n, char **args)
{
	struct knobs_dev share;

	if (n < 2)
		return cli_bad("cp needs SRC... DEST", n ? args[0] : _("no argument"));
	for (int i = 0; i < n; i++)
		if (!args[i][0])
			return cli_bad("cp: an empty name", i == n - 1 ? "DEST" : "SRC");
	/* DEST first: a copy waits for the server it writes to */
	for (int i = n - 1; i >= 0; i--)
		if (cli_share_of(o, args[i], CLI_SHARE_PATH, &share) == 0)
			return cp_share(o, n, args, &share);
	return cp_run(o, n, args);
}
