/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov sync: the writing with progress, which eject shares
 * (cli_sync_watch). */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/units.h"
#include "sys/procfs.h"
#include "sys/syncmounts.h"

/* A share's server that took nothing for this long may not answer: said
 * once, so that a user who waits knows what for. A link that drops out
 * (Wi-Fi, a VPN) comes back within seconds; five are already longer than
 * any write of a few MiB takes on a link that works. */
#define SHARE_STALL_S 5.0

/* Bytes still to write: the device's own when debugfs tells, else the
 * system's Dirty + Writeback. */
static uint64_t left_bytes(const struct cli *o, const struct knobs_dev *d, int nd, bool *per_dev)
{
	uint64_t sum = 0, v, dirty = 0, wb = 0;
	bool all = nd > 0;

	for (int i = 0; i < nd; i++) {
		if (cli_bdi_pending(o, d[i].bdi, &v))
			all = false;
		else
			sum += v;
	}
	*per_dev = all;
	if (all)
		return sum;
	procfs_meminfo(o->root, &dirty, &wb);
	return dirty + wb;
}

/* What is said of a share's server while `wbgov sync` waits for it. */
enum share_news { SHARE_WAITING, SHARE_STALLED, SHARE_GIVEN_UP };

/* ... `left` bytes still to write (per_dev: the share's own, else the
 * system's), `quiet_s` seconds without a byte taken (SHARE_STALLED). */
static void share_said(enum share_news what, const char *cmd, const struct knobs_dev *share,
		       bool per_dev, uint64_t left, double quiet_s)
{
	char h[24];

	bytes_text(h, sizeof(h), left, BYTES_KIB_DOWN);
	switch (what) {
	case SHARE_WAITING:
		/* TRANSLATORS: "wbgov sync: waiting for the server of
		 * nas:/export (nfs4) to take 12.0 MiB; Ctrl-C stops waiting" */
		fprintf(stderr, per_dev ? _("wbgov %s: waiting for the server of %s (%s) to take %s; "
					    "Ctrl-C stops waiting\n") :
					  _("wbgov %s: waiting for the server of %s (%s) to take its part of "
					    "the %s the system has to write; Ctrl-C stops waiting\n"),
			cmd, share->model, share->bus, h);
		break;
	case SHARE_STALLED:
		/* TRANSLATORS: "... for 5 s: the server of nas:/export
		 * (nfs4) may not answer; 12.0 MiB still to write ..." */
		fprintf(stderr, per_dev ? _("wbgov %s: nothing written for %.0f s: the server of %s (%s) "
					    "may not answer; %s still to write; Ctrl-C stops "
					    "waiting\n") :
					  _("wbgov %s: nothing written for %.0f s: the server of %s (%s) "
					    "may not answer; %s (system) still to write; Ctrl-C "
					    "stops waiting\n"),
			cmd, quiet_s, share->model, share->bus, h);
		break;
	case SHARE_GIVEN_UP:
		/* TRANSLATORS: "... of nas:/export (nfs4); 12.0 MiB still to
		 * write to it ..."; "(system)": the system's, when the
		 * kernel does not tell the share's own */
		fprintf(stderr, per_dev ? _("wbgov %s: stopped waiting for the server of %s (%s); %s "
					    "still to write to it, which the kernel goes on "
					    "writing while it answers (wbgov status shows what "
					    "is left)\n") :
					  _("wbgov %s: stopped waiting for the server of %s (%s); %s "
					    "(system) still to write, which the kernel goes on "
					    "writing while it answers (wbgov status shows what "
					    "is left)\n"),
			cmd, share->model, share->bus, h);
		break;
	}
}

int cli_sync_watch(const struct cli *o, struct knobs_dev *devs, int nd,
		   const struct mount_list *mounts, const char *cmd)
{
	int res;
	pid_t child;
	char prefix[64];
	struct sigaction sa = { .sa_handler = cli_on_int };
	uint64_t start_left, prev_left;
	double rate = 0, moved = 0;
	struct timespec t0, tp;
	bool per_dev, tty = isatty(STDERR_FILENO), shown = false, stall_said = false;
	/* a share: its server may have stopped answering, and then the sync
	 * child waits for as long as it is gone */
	const struct knobs_dev *share = nd == 1 && devs[0].is_share ? &devs[0] : NULL;

	start_left = prev_left = left_bytes(o, devs, nd, &per_dev);
	/* Ctrl-C and SIGTERM taken before the line below says Ctrl-C stops
	 * the wait (the child sets them back to their defaults) */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (share)
		share_said(SHARE_WAITING, cmd, share, per_dev, start_left, 0);
	/* the writing, which Ctrl-C does not stop: it stops the watching */
	snprintf(prefix, sizeof(prefix), "%swbgov %s: ", tty ? "\n" : "", cmd);
	res = sync_mounts_start(mounts, STDERR_FILENO, prefix, SYNC_MOUNTS_KEEP_ON_INT, &child);
	if (res < 0) {
		fprintf(stderr, _("wbgov %s: fork: %s\n"), cmd, strerror(-res));
		return EX_OSERR;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tp = t0;
	for (;;) {
		struct timespec nap = { 0, 200000000 }, now;
		uint64_t left;
		double dt, elapsed;

		if ((res = sync_mounts_reap(child, false)) != -EAGAIN)
			break;
		if (cli_interrupted && share) {
			/* the child only waits for the server, which the kernel
			 * writes to all the same: ended, it is not left waiting
			 * (in state D on a hard mount) for a server that may
			 * never come back. NFS waits are killable; an
			 * uninterruptible one ends it when it returns */
			kill(child, SIGKILL);
			sync_mounts_reap(child, false);
			left = left_bytes(o, devs, nd, &per_dev);
			fputs(tty && shown ? "\n" : "", stderr);
			share_said(SHARE_GIVEN_UP, cmd, share, per_dev, left, 0);
			return 130;
		}
		if (cli_interrupted) {
			fputs(tty && shown ? "\n" : "", stderr);
			fprintf(stderr, _("wbgov %s: stopped watching; the kernel goes on writing and "
					  "the data stays safe (wbgov status shows what is left)\n"), cmd);
			return 130;
		}
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		dt = (double)(now.tv_sec - tp.tv_sec) + (double)(now.tv_nsec - tp.tv_nsec) / 1e9;
		elapsed = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		if (dt < 1.0)
			continue;
		left = left_bytes(o, devs, nd, &per_dev);
		if (prev_left > left) {
			double r = (double)(prev_left - left) / dt;
			rate = rate ? 0.7 * rate + 0.3 * r : r;
			moved = elapsed;
			stall_said = false;
		}
		prev_left = left;
		tp = now;
		if (share && !stall_said && elapsed - moved >= SHARE_STALL_S) {
			fputs(tty && shown ? "\n" : "", stderr);
			share_said(SHARE_STALLED, cmd, share, per_dev, left, elapsed - moved);
			stall_said = true;
		}
		{
			char l[48], h[24];
			uint64_t gone = start_left - (left < start_left ? left : start_left);
			int pct = start_left ? (int)(100 * (double)gone / (double)start_left) : 100;
			bytes_text(h, sizeof(h), left, BYTES_KIB_DOWN);
			/* TRANSLATORS: "12.0 MiB left", of the device; of the system
			 * when the kernel does not tell a device's own */
			snprintf(l, sizeof(l), per_dev ? _("%s left") : _("%s left (system)"), h);
			cli_progress_line(stderr, tty, pct, l, rate, rate > 0 ? (double)left / rate : 0,
					  elapsed);
			shown = true;
		}
	}
	if (res < 0)
		return EX_IOERR; /* the child said why */
	{
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* on a terminal, end the progress line first, if there was one */
		fputs(tty && shown ? "\n" : "", stderr);
		fprintf(stderr, _("wbgov %s: durable after %.1f s\n"), cmd,
			(double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9);
	}
	return 0;
}

int cli_sync(const struct cli *o, const char *arg)
{
	static struct knobs_dev devs[MAXDEV];
	static struct mount_list mounts;
	int nd = 0;

	if (arg && cli_share_of(o, arg,
				CLI_SHARE_NAME | (strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..") ?
							  CLI_SHARE_PATH : 0),
				&devs[0]) == 0) {
		/* a share, or a path on one, known from the mount table's text:
		 * stat(2) there would wait for a server that may be gone. Its
		 * file systems are synced in the child alone */
		nd = 1;
		if (procfs_dev_mounts(o->root, &devs[0], &mounts) <= 0) {
			fprintf(stderr, _("wbgov sync: %s is not mounted here: nothing to sync\n"), arg);
			return 0;
		}
	} else if (arg) {
		struct stat st;
		if (stat(arg, &st) == 0 && !S_ISBLK(st.st_mode)) {
			mount_list_add(&mounts, arg, -1, 0); /* a path: its filesystem */
			nd = cli_resolve(o, arg, devs, MAXDEV);
			if (nd < 0)
				nd = 0; /* tmpfs, NFS...: progress from the system counters */
		} else {
			nd = cli_resolve(o, arg, devs, MAXDEV);
			if (nd < 0) {
				fprintf(stderr, _("wbgov sync: no such device or path: %s\n"), arg);
				return EX_UNAVAILABLE;
			}
			if (procfs_dev_mounts(o->root, &devs[0], &mounts) <= 0) {
				fprintf(stderr, _("wbgov sync: %s is not mounted: nothing to sync\n"), arg);
				return 0;
			}
		}
	}
	return cli_sync_watch(o, devs, nd, &mounts, "sync");
}
