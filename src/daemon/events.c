/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wbgovd logs of what the governor does: a device's decision when it
 * moves materially (its words are describe.c's), a device gone, knobs
 * another rule set before wbgovd (a device's, and vm.dirty_* at start),
 * a write throttle, failing commands, the global pair before Linux 6.2.
 * Logging only: nothing here decides or writes a knob or a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/context.h"
#include "daemon/describe.h"
#include "daemon/events.h"
#include "knobs/room.h"
#include "model/units.h"
#include "sys/log.h"
#include "sys/procfs.h"

/* `sdb (SanDisk Cruzer, usb): 5.1 MB/s -> max_bytes 4.9 MiB, strict (...)`:
 * one line when the decision moves materially, with its one reason. */
void events_decided(struct daemon *dm, const struct gov_dev *d)
{
	char cap[32], bw[48];
	int i;

	for (i = 0; i < dm->nlogged && strcmp(dm->logged[i].bdi, d->info.bdi); i++)
		;
	fmt_bw(bw, sizeof(bw), &d->meter);
	/* -v: every decision, on the clock of the window lines */
	if (d->dec.govern && d->dec.strict)
		snprintf(cap, sizeof(cap), "max_bytes %llu", (unsigned long long)d->dec.max_bytes);
	else
		snprintf(cap, sizeof(cap), "no cap");
	log_debug("%s: +%.3f s: %s -> %s", d->info.bdi,
		  (double)(daemon_now_usec() - dm->start_usec) / 1e6, bw, cap);
	if (i < dm->nlogged) {
		if (dm->logged[i].err == d->err && dm->logged[i].above_global == d->above_global &&
		    !gov_decision_moved(&dm->logged[i].dec, &d->dec, GOV_MOVED_NEWS))
			return;
	} else if (room_for(&dm->logged, &dm->logged_room, dm->nlogged + 1, sizeof(*dm->logged))) {
		i = dm->nlogged++;
	} else {
		return; /* no memory: its next decisions are logged again */
	}
	snprintf(dm->logged[i].bdi, sizeof(dm->logged[i].bdi), "%s", d->info.bdi);
	dm->logged[i].dec = d->dec;
	dm->logged[i].above_global = d->above_global;
	dm->logged[i].err = d->err;

	{
		char line[768];
		bool warn = daemon_describe(d, dm->state_path, line, sizeof(line));
		if (warn)
			log_warn("%s", line);
		else
			log_info("%s", line);
	}
}

/* A device whose knobs someone set before wbgovd saw it: a udev rule (the
 * udev-rule packages write strict_limit and max_bytes for USB disks), a
 * script. wbgovd sets its own while it runs, as it does for every device
 * (the rule's fixed cap is what wbgovd replaces with one that follows the
 * device's speed), and gives these back at exit; a [device] section with
 * mode = off leaves them as they are. Said once per device that comes. */
static void hook_found(void *ctx, const struct gov_dev *d)
{
	struct daemon *dm = ctx;
	const struct gov_rule *r;
	uint64_t strict, fine, mb;
	char what[160];

	if (state_bdi_held(&dm->state, d->info.bdi))
		return; /* set by a previous run, and said so at start */
	if (knobs_real_ops.bdi_read(&dm->real, d->info.bdi, BDI_STRICT_LIMIT, &strict) ||
	    knobs_real_ops.bdi_read(&dm->real, d->info.bdi, BDI_MAX_RATIO_FINE, &fine) ||
	    knobs_bdi_default(d->info.is_fuse, strict, fine))
		return;
	if (knobs_real_ops.bdi_read(&dm->real, d->info.bdi, BDI_MAX_BYTES, &mb))
		mb = 0;
	daemon_knobs_text("", strict, fine, mb, what, sizeof(what));
	r = d->set.rule;
	if (d->set.mode == MODE_OFF)
		log_notice("%s (%s): %s before wbgovd: set by another rule (a udev rule?); "
			   "[device %s] says mode = off: left as it is", knobs_dev_label(&d->info), d->info.bdi,
			   what, r->name);
	else
		log_notice("%s (%s): %s before wbgovd: set by another rule (a udev rule?); wbgovd "
			   "sets its own while it runs and gives these back at exit (mode = off in a "
			   "[device] section would leave them)", knobs_dev_label(&d->info), d->info.bdi, what);
}

/* vm.dirty_* as a sysctl.d file may have left them, before wbgovd changes
 * anything: said once at start. From Linux 6.2 wbgovd never writes them;
 * before, it lowers dirty_bytes while a slow device holds dirty data and
 * gives the values found back. */
void events_sysctls(struct daemon *dm, bool per_device)
{
	static const struct {
		enum vm_knob k;
		uint64_t dflt;
	} knobs[] = {
		{ VM_DIRTY_BYTES, 0 }, { VM_DIRTY_BACKGROUND_BYTES, 0 },
		{ VM_DIRTY_RATIO, 20 }, { VM_DIRTY_BACKGROUND_RATIO, 10 },
	};
	uint64_t v[4];
	const char *then = per_device ?
		"wbgovd leaves it as it is (it bounds every device's dirty data, and the kernel "
		"refuses a device cap above the threshold it makes)" :
		"wbgovd replaces it while a slow device holds dirty data and gives it back";

	for (int i = 0; i < 4; i++)
		if (procfs_vm_read(dm->real.root, knobs[i].k, &v[i]))
			return;
	for (int i = 0; i < 4; i++) {
		char b[32];
		/* a *_bytes knob set zeroes its ratio twin: not news twice */
		if (v[i] == knobs[i].dflt || (i >= 2 && v[i] == 0 && v[i - 2]))
			continue;
		bytes_text(b, sizeof(b), v[i], 0);
		log_notice("vm.%s is %llu%s%s%s before wbgovd (the kernel's default is %llu): set by "
			   "another rule (a sysctl.d file?); %s", vm_knob_names[knobs[i].k],
			   (unsigned long long)v[i], i < 2 ? " (" : "", i < 2 ? b : "", i < 2 ? ")" : "",
			   (unsigned long long)knobs[i].dflt, then);
	}
}

/* A write throttle on a device's disk, said when it comes, changes or goes,
 * and when the device beats it. */
static void hook_limited(void *ctx, const struct gov_dev *d)
{
	(void)ctx;
	if (d->limit_beaten)
		log_info("%s (%s): wrote at %.1f MB/s, faster than the %.1f MB/s its write throttle "
			 "allows: not every writer of it is held by the throttle, which no longer "
			 "bounds its cap", knobs_dev_label(&d->info), d->info.bdi, (double)d->meter.last_bps / 1e6,
			 (double)d->limit_bps / 1e6);
	else if (d->limit_bps)
		log_info("%s (%s): a cgroup's write throttle holds it at %.1f MB/s (io.max or "
			 "blkio.throttle.write_bps_device): its cap is no more than for that speed",
			 knobs_dev_label(&d->info), d->info.bdi, (double)d->limit_bps / 1e6);
	else
		log_info("%s (%s): its write throttle is gone", knobs_dev_label(&d->info), d->info.bdi);
}

static void hook_global(void *ctx, uint64_t cap, int err)
{
	(void)ctx;
	if (err == -EEXIST)
		return; /* left alone: said at start (record_leftovers) */
	if (err)
		log_warn("vm.dirty_bytes %llu refused: %s (the previous values stay)",
			 (unsigned long long)cap, strerror(-err));
	else if (cap)
		log_info("a slow device holds dirty data: vm.dirty_bytes %.1f MiB, "
			 "dirty_background_bytes %.1f MiB (no per-device knobs before Linux 6.2)",
			 (double)cap / MIB, (double)gov_pair_background(cap) / MIB);
	else
		log_info("no slow device holds dirty data: vm.dirty_* given back");
}

static void hook_background(void *ctx, bool lowered, enum vm_knob k, uint64_t from, uint64_t to,
			    int err)
{
	(void)ctx;
	if (err == -EEXIST)
		return; /* left alone: said at start (record_leftovers) */
	if (!lowered)
		log_info("no capped device holds dirty data: vm.dirty_* given back");
	else if (err)
		log_warn("vm.%s %llu refused: %s (it stays %llu; a capped slow device may idle "
			 "between its writes)", vm_knob_names[k], (unsigned long long)to,
			 strerror(-err), (unsigned long long)from);
	else
		log_info("a capped device holds dirty data: vm.%s %llu -> %llu (under a strict cap "
			 "the background threshold is the cap's share of it: below an eighth of the "
			 "dirty threshold the device has its next write queued, not idle)",
			 vm_knob_names[k], (unsigned long long)from, (unsigned long long)to);
}

static void hook_io_errors(void *ctx, const struct gov_dev *d, uint64_t n)
{
	(void)ctx;
	log_warn("%s (%s): %llu failed command%s (the device's ioerr_cnt): its writes may be "
		 "failing, or it is going; its writers and sync get the errors (before Linux 6.2 "
		 "it has no cap while it fails, so that the global pair does not hold them)",
		 knobs_dev_label(&d->info), d->info.bdi, (unsigned long long)n, n == 1 ? "" : "s");
}

void events_gone(struct daemon *dm, const struct gov_dev *d)
{
	log_info("%s (%s): gone", knobs_dev_label(&d->info), d->info.bdi);
	for (int i = 0; i < dm->nlogged; i++)
		if (!strcmp(dm->logged[i].bdi, d->info.bdi))
			dm->logged[i] = dm->logged[--dm->nlogged];
}

void events_hooks(struct gov_hooks *h)
{
	h->found = hook_found;
	h->limited = hook_limited;
	h->global = hook_global;
	h->background = hook_background;
	h->io_errors = hook_io_errors;
}

void events_free(struct daemon *dm)
{
	free(dm->logged);
	dm->logged = NULL;
	dm->nlogged = dm->logged_room = 0;
}
