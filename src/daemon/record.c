/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record that keeps every knob wbgovd changes from being lost: the
 * state file's hooks (an original written before each change, each one
 * given back struck out), a previous run's leftovers given back at start,
 * the temporaries of a save cut short, and the one-instance lock with its
 * pid file. The state file's format is sys/state.c's; what wbgovd logs of
 * decisions is events.c's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/context.h"
#include "daemon/record.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/pidlock.h"

static int hook_save(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;
	int r;

	/* knobs a previous run left changed, not given back at start: what
	 * they hold is not what was found, and the record keeps that; the
	 * device is left alone (said at start, and by daemon_describe) */
	if (state_bdi_held(&dm->state, d->info.bdi))
		return -EEXIST;
	r = state_record_bdi(&dm->state, dm->state_path, d->info.bdi, d->orig.strict_limit,
			     d->orig.max_ratio_fine, d->orig.min_ratio_fine);
	if (r)
		log_err("%s: cannot record the original values in %s: %s; not changing it",
			d->info.bdi, dm->state_path, strerror(-r));
	return r;
}

static void hook_restored(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;

	state_del_bdi(&dm->state, d->info.bdi);
	/* at stop the file is written once, when every knob is back (a
	 * record left by a crash meanwhile is given back again, harmlessly):
	 * an fsync per device is seconds for hundreds on a busy disk */
	if (!dm->stopping)
		state_save(dm->state_path, &dm->state);
	log_info("%s: knobs given back (strict_limit %llu, max_ratio_fine %llu, min_ratio_fine %llu)",
		 d->info.bdi, (unsigned long long)d->orig.strict_limit,
		 (unsigned long long)d->orig.max_ratio_fine, (unsigned long long)d->orig.min_ratio_fine);
}

static int hook_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	struct daemon *dm = ctx;
	int r;

	if (dm->state.vm_held)
		return -EEXIST; /* as in hook_save */
	memcpy(dm->state.vm, vm, sizeof(dm->state.vm));
	dm->state.vm_saved = true;
	r = state_save(dm->state_path, &dm->state);
	if (r) {
		dm->state.vm_saved = false;
		log_err("cannot record vm.dirty_* in %s: %s; not changing them", dm->state_path,
			strerror(-r));
	}
	return r;
}

static void hook_restored_vm(void *ctx)
{
	struct daemon *dm = ctx;

	dm->state.vm_saved = false;
	state_save(dm->state_path, &dm->state);
}

static void report_restore(void *ctx, const char *owner, const char *knob, int err)
{
	(void)ctx;
	log_err("%s: could not give back %s: %s", owner, knob, strerror(-err));
}

static void report_leftover(void *ctx, const char *owner, const char *knob, int err)
{
	struct daemon *dm = ctx;

	log_err("%s: could not give back %s, left changed by a previous run: %s; %s left alone, "
		"its original values kept in %s (tried again at stop; wbgov restore)", owner, knob,
		strerror(-err), strcmp(owner, "vm") ? "the device is" : "vm.dirty_* are",
		dm->state_path);
}

int record_leftovers(struct daemon *dm)
{
	int r = state_load(dm->state_path, &dm->state);

	if (r == -ENOENT)
		return 0;
	if (r) {
		log_err("%s: unreadable (%s); remove it after checking the knobs by hand",
			dm->state_path, r == -EINVAL ? "malformed, or not a regular file" :
			file_trust_text(r));
		return r;
	}
	log_notice("%s: a previous run did not finish; giving its knobs back", dm->state_path);
	state_restore(&knobs_real_ops, &dm->real, &dm->state, report_leftover, dm);
	/* what was given back leaves the file; should it not be rewritten,
	 * the old file still holds every original, and a device is recorded
	 * (hook_save) before it is changed */
	r = state_save(dm->state_path, &dm->state);
	if (r)
		log_warn("%s: cannot rewrite it: %s", dm->state_path, strerror(-r));
	return 0;
}

void record_sweep(struct daemon *dm)
{
	const char *paths[] = { dm->state_path, dm->status_path, dm->pid_path, dm->memory_path,
				dm->metrics.path };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int n = paths[i][0] ? file_tmp_sweep(paths[i]) : 0;
		if (n)
			log_info("%s: %d temporary file%s of a save cut short removed", paths[i], n,
				 n == 1 ? "" : "s");
	}
}

/* wbgov apply --once and restore hold the lock for one pass (milliseconds):
 * a start meanwhile waits this long for it, no more. */
#define LOCK_WAIT_USEC 10000000ULL

static int take_lock(struct daemon *dm)
{
	const uint64_t until = daemon_now_usec() + LOCK_WAIT_USEC;
	struct pidlock_holder h;
	char who[64];
	bool said = false;
	sigset_t stop;
	int fd, r;

	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	while ((fd = pidlock_take(dm->lock_path, &h)) == -EBUSY && strcmp(h.comm, "wbgovd") &&
	       daemon_now_usec() < until) {
		if (!said) {
			pidlock_holder_text(&h, who, sizeof(who));
			log_notice("the lock %s is held by %s (wbgov apply or restore?): waiting for "
				   "it up to %.0f s", dm->lock_path, who, (double)LOCK_WAIT_USEC / 1e6);
			said = true;
		}
		/* TERM and INT are blocked until the loop's ppoll: taken
		 * here, so a stop asked meanwhile is not kept waiting */
		if (sigtimedwait(&stop, NULL, &(struct timespec){ .tv_nsec = 50000000 }) > 0) {
			log_notice("stopped while waiting for the lock %s: nothing was changed",
				   dm->lock_path);
			return -EINTR;
		}
	}
	if (fd == -EBUSY) {
		pidlock_holder_text(&h, who, sizeof(who));
		if (!strcmp(h.comm, "wbgovd"))
			log_err("already running: %s holds the lock %s", who, dm->lock_path);
		else
			log_err("the lock %s is held by %s, still after %.0f s: not starting",
				dm->lock_path, who, (double)LOCK_WAIT_USEC / 1e6);
		return fd;
	}
	if (fd < 0) {
		log_err("the lock %s: %s", dm->lock_path, strerror(-fd));
		return fd;
	}
	r = pidlock_write_pid(dm->pid_path);
	if (r) {
		log_err("%s: %s", dm->pid_path, strerror(-r));
		close(fd);
		return r;
	}
	return fd; /* kept open: the lock lives as long as the process */
}

int record_lock(struct daemon *dm)
{
	int fd = take_lock(dm);

	if (fd < 0)
		return fd;
	dm->lockfd = fd;
	return 0;
}

void record_unlock(struct daemon *dm)
{
	unlink(dm->pid_path);
	close(dm->lockfd);
	dm->lockfd = -1;
}

int record_give_back(struct daemon *dm)
{
	int failed = state_restore(&knobs_real_ops, &dm->real, &dm->state, report_restore, dm);

	if (state_save(dm->state_path, &dm->state))
		failed++;
	return failed ? -EIO : 0;
}

void record_hooks(struct gov_hooks *h)
{
	h->save = hook_save;
	h->restored = hook_restored;
	h->save_vm = hook_save_vm;
	h->restored_vm = hook_restored_vm;
}
