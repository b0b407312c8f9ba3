/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgov eject: a disk made safe to pull out, in the order of udisks'
 * PowerOff (src/udiskslinuxdrive.c, handle_power_off). First everything
 * that goes with the disk is looked at, and a refusal changes nothing: the
 * other disks on its USB device, which lose power with it (a card
 * reader's or a multi-LUN stick's LUNs), and every mount, partition,
 * stacked device and open node of each. Then the disk's file systems are
 * synced with progress and unmounted (as root, without following a path a
 * user can change: sys/mountpt.h), each disk flushed and sent SCSI
 * SYNCHRONIZE CACHE and START STOP UNIT, and the device powered off. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sys/eject.h"
#include "sys/mountpt.h"
#include "sys/procfs.h"

#define MAX_SIBLINGS 64 /* a card reader has 4 or 6 slots */

/* Why `disk` may not lose its power now, into `why` ("is mounted on
 * /media/x"); false when nothing holds it. */
static bool in_use(const struct cli *o, const char *disk, char *why, size_t len)
{
	static struct mount_list ml; /* 4 KiB: not on the stack */
	char who[1024];

	if (procfs_mounts(o->root, disk, &ml) > 0) {
		mount_list_join(&ml, ", ", who, sizeof(who));
		/* TRANSLATORS: "sdc (LUN 1 of the same USB device 1-2) is
		 * mounted on /media/x, and powering off 1-2 cuts it too" */
		snprintf(why, len, _("is mounted on %s"), who);
	} else if (eject_stacked(o->root, disk, who, sizeof(who)) > 0) {
		snprintf(why, len, _("is in use by %s, stacked on it"), who);
	} else if (eject_node_holders(o->root, disk, who, sizeof(who)) > 0) {
		snprintf(why, len, _("is open in %s"), who);
	} else if (eject_claimable(o->root, disk) == -EBUSY) {
		/* a swap area, a member of a btrfs mounted from another disk */
		snprintf(why, len, "%s", _("is held by the kernel (swap, a file system on several disks)"));
	} else {
		return false;
	}
	return true;
}

/* The first disk of `s` in use, named with why in one line ending in
 * `then`: EX_TEMPFAIL; 0 when none is. */
static int siblings_in_use(const struct cli *o, const char *usb, const struct eject_sibling *s,
			   int ns, const char *then)
{
	char why[1200], clean[1200], lun[32] = "";

	for (int i = 0; i < ns; i++) {
		if (!in_use(o, s[i].disk, why, sizeof(why)))
			continue;
		if (s[i].lun >= 0)
			snprintf(lun, sizeof(lun), _("LUN %d of "), s[i].lun);
		fprintf(stderr, _("wbgov eject: %s (%sthe same USB device %s) %s, and powering off %s "
				"cuts it too: %s\n"), s[i].disk, lun, usb,
			cli_tty_clean(clean, sizeof(clean), why), usb, then);
		return EX_TEMPFAIL;
	}
	return 0;
}

/* Refuse a mount a process holds, before anything is done. 0 or the exit
 * status. */
static int mounts_free(const struct cli *o, const struct mount_list *ml)
{
	char who[2048];
	int i = 0;

	for (const char *m = mount_list_next(ml, NULL); m; m = mount_list_next(ml, m), i++) {
		struct stat st;
		int fd;
		/* opened as it will be unmounted: that mount, reached with no link */
		fd = mountpt_open(m, ml->id[i], ml->dev[i]);
		if (fd < 0) {
			fprintf(stderr, _("wbgov eject: %s: %s; nothing was done\n"), m, mountpt_strerror(fd));
			return EX_TEMPFAIL;
		}
		/* fstat's st_dev is what a holder's files show (for btrfs, the
		 * subvolume's, not mountinfo's number) */
		if (fstat(fd, &st) < 0)
			st.st_dev = ml->dev[i];
		close(fd);
		if (eject_holders(o->root, st.st_dev, who, sizeof(who)) > 0) {
			fprintf(stderr, _("wbgov eject: %s is busy, held by %s; close them and eject again\n"),
				m, who);
			return EX_TEMPFAIL;
		}
	}
	return 0;
}

/* Unmount each of `ml`, the last mounted first (one may sit inside
 * another). 0 or the exit status. */
static int unmount_all(const struct mount_list *ml)
{
	const char *ms[MOUNT_LIST_MAX];
	int n = 0;

	for (const char *m = mount_list_next(ml, NULL); m; m = mount_list_next(ml, m))
		ms[n++] = m;
	while (n--) {
		int r = mountpt_unmount(ms[n], ml->id[n], ml->dev[n]);
		if (r) {
			fprintf(stderr, _("wbgov eject: unmounting %s: %s\n"), ms[n], mountpt_strerror(r));
			return r == -EBUSY || r == -ELOOP || r == -EXDEV ? EX_TEMPFAIL : EX_OSERR;
		}
		fprintf(stderr, _("wbgov eject: unmounted %s\n"), ms[n]);
	}
	return 0;
}

int cli_eject(const struct cli *o, const char *arg, bool power_off)
{
	static struct knobs_dev devs[MAXDEV];
	static struct mount_list mounts;
	struct eject_sibling sibs[MAX_SIBLINGS];
	char disk[KNOBS_NAME_MAX], attr[PATH_MAX], usbdir[PATH_MAX], who[2048], also[1024] = "";
	const char *usb = "";
	enum eject_power kind;
	bool fuse = false;
	int nd, ns = 0, r;

	if (geteuid() != 0) {
		fprintf(stderr, _("wbgov eject: unmounting and powering off a device needs root\n"));
		return EX_NOPERM;
	}
	nd = cli_resolve(o, arg, devs, MAXDEV);
	if (nd > 0 && devs[0].is_share) {
		/* nothing to power off; and nothing of it is opened here */
		fprintf(stderr, _("wbgov eject: %s is on no disk (tmpfs, proc, a network file "
				"system?)\n"), arg);
		return EX_UNAVAILABLE;
	}
	if (nd < 0) {
		struct stat st;
		if (stat(arg, &st) == 0)
			fprintf(stderr, _("wbgov eject: %s is on no disk (tmpfs, proc, a network file "
					"system?)\n"), arg);
		else
			fprintf(stderr, _("wbgov eject: %s: no such disk, partition or path\n"), arg);
		return EX_UNAVAILABLE;
	}
	snprintf(disk, sizeof(disk), "%s", devs[0].disk);
	for (int i = 0; i < nd; i++)
		fuse |= devs[i].is_fuse; /* a fuseblk bdi: a FUSE server holds the node */

	/* --- everything looked at first; nothing is done until all is well */
	if (procfs_mounts(o->root, disk, &mounts) < 0 || mounts.truncated) {
		fprintf(stderr, _("wbgov eject: %s's mounts cannot all be listed; unmount some\n"), disk);
		return EX_UNAVAILABLE;
	}
	for (const char *m = mount_list_next(&mounts, NULL); m; m = mount_list_next(&mounts, m)) {
		if (!strcmp(m, "/")) {
			fprintf(stderr, _("wbgov eject: %s holds the root file system\n"), disk);
			return EX_UNAVAILABLE;
		}
	}
	kind = eject_power_kind(o->root, disk, attr, sizeof(attr));
	if (power_off && kind == EJECT_POWER_NONE) {
		fprintf(stderr, _("wbgov eject: wbgov cannot power off %s (bus %s: NVMe, MMC and virtio "
				"disks cannot be); --no-power-off unmounts and flushes it\n"), disk,
			devs[0].bus[0] ? devs[0].bus : _("unknown"));
		return EX_UNAVAILABLE;
	}
	if (power_off && kind == EJECT_POWER_USB &&
	    eject_usb_device(o->root, disk, usbdir, sizeof(usbdir)) == 0) {
		usb = strrchr(usbdir, '/') ? strrchr(usbdir, '/') + 1 : usbdir;
		ns = eject_siblings(o->root, disk, sibs, MAX_SIBLINGS);
		if (ns == MAX_SIBLINGS) {
			fprintf(stderr, _("wbgov eject: USB device %s has more disks than wbgov looks at; "
					"--no-power-off unmounts and flushes %s\n"), usb, disk);
			return EX_UNAVAILABLE;
		}
		if ((r = siblings_in_use(o, usb, sibs, ns, _("unmount it first; nothing was done"))))
			return r;
	}
	if ((r = mounts_free(o, &mounts)))
		return r;
	if (eject_stacked(o->root, disk, who, sizeof(who)) > 0) {
		fprintf(stderr, _("wbgov eject: %s is in use by %s, stacked on it; close that first\n"),
			disk, who);
		return EX_TEMPFAIL;
	}
	/* a process with the node open (a dd to it, a partitioning tool) may
	 * write after us. A FUSE file system's server (mount.exfat-fuse)
	 * holds it until its mount goes, then exits: looked at after */
	if (!fuse && eject_node_holders(o->root, disk, who, sizeof(who)) > 0) {
		fprintf(stderr, _("wbgov eject: /dev/%s is open in %s: not safe to remove; close it and "
				"eject again\n"), disk, who);
		return EX_TEMPFAIL;
	}

	/* --- synced, unmounted */
	if (mounts.n && (r = cli_sync_watch(o, devs, nd, &mounts, "eject")))
		return r;
	if ((r = unmount_all(&mounts)))
		return r;
	if ((r = procfs_mounts(o->root, disk, &mounts)) < 0) {
		fprintf(stderr, _("wbgov eject: reading the mount table: %s; %s was not powered off\n"),
			strerror(-r), disk);
		return EX_OSERR;
	}
	if (r > 0) {
		mount_list_join(&mounts, ", ", who, sizeof(who));
		fprintf(stderr, _("wbgov eject: %s is mounted again on %s: not safe to remove\n"), disk,
			who);
		return EX_TEMPFAIL;
	}
	for (int i = 0; eject_node_holders(o->root, disk, who, sizeof(who)) > 0; i++) {
		struct timespec nap = { 0, 100000000 };
		if (i == 30) {
			fprintf(stderr, _("wbgov eject: %s is unmounted, but /dev/%s is open in %s: not "
					"safe to remove; close it and eject again\n"), disk, disk, who);
			return EX_TEMPFAIL;
		}
		nanosleep(&nap, NULL);
	}
	/* the sync took a while: a card put in the reader meanwhile may have
	 * been mounted */
	if (ns && (r = siblings_in_use(o, usb, sibs, ns, _("it was not powered off"))))
		return r;

	/* --- flushed: the disk, and those that go with it. The kernel may
	 * let go of a disk a moment after its last unmount returned (a loop
	 * device in a loaded CI run, once): a claim is looked at for 2 s */
	for (int i = 0; (r = eject_flush(o->root, disk)) == -EBUSY && i < 20; i++) {
		struct timespec nap = { 0, 100000000 };
		nanosleep(&nap, NULL);
	}
	if (r) {
		if (r == -EBUSY)
			fprintf(stderr, _("wbgov eject: %s is unmounted, but the kernel still holds it "
					"(swap, a mount in another mount namespace, a file system on several "
					"disks): not safe to remove\n"), disk);
		else
			fprintf(stderr, _("wbgov eject: flushing /dev/%s: %s\n"), disk, strerror(-r));
		return r == -EBUSY ? EX_TEMPFAIL : EX_IOERR;
	}
	if (!power_off) {
		fprintf(stderr, _("wbgov eject: %s is unmounted and flushed: safe to remove\n"), disk);
		return 0;
	}
	for (int i = 0; i < ns; i++) {
		if ((r = eject_flush(o->root, sibs[i].disk))) {
			fprintf(stderr, _("wbgov eject: flushing /dev/%s: %s; %s was not powered off\n"),
				sibs[i].disk, strerror(-r), usb);
			return r == -EBUSY ? EX_TEMPFAIL : EX_IOERR;
		}
	}

	/* --- the drive's own cache written and the drive stopped, then off.
	 * A bridge that refuses the SCSI commands is powered off all the same,
	 * as udisks does: the flush above already asked for the cache */
	for (int i = -1; kind != EJECT_POWER_LOOP && i < ns; i++) {
		const char *d = i < 0 ? disk : sibs[i].disk;
		if (strncmp(d, "sd", 2))
			continue;
		if ((r = eject_scsi_stop(o->root, d)))
			fprintf(stderr, _("wbgov eject: %s did not take SCSI SYNCHRONIZE CACHE or START "
					"STOP UNIT (%s); going on\n"), d, strerror(-r));
		else
			fprintf(stderr, _("wbgov eject: %s wrote its cache and stopped (SCSI SYNCHRONIZE "
					"CACHE, START STOP UNIT)\n"), d);
	}
	if ((r = eject_power_off(o->root, disk, kind, attr))) {
		fprintf(stderr, _("wbgov eject: powering off %s: %s (it is unmounted and flushed)\n"),
			disk, strerror(-r));
		return EX_OSERR;
	}
	for (int i = 0; i < ns; i++) {
		size_t l = strlen(also);
		snprintf(also + l, sizeof(also) - l, "%s%.31s", i ? ", " : _(", and with it "),
			 sibs[i].disk);
	}
	if (kind == EJECT_POWER_USB)
		fprintf(stderr, _("wbgov eject: %s is powered off (USB device %s%s): safe to remove\n"),
			disk, usb, also);
	else if (kind == EJECT_POWER_SCSI)
		fprintf(stderr, _("wbgov eject: %s is stopped and deleted from the system (SCSI delete): "
				"safe to remove\n"), disk);
	else
		fprintf(stderr, _("wbgov eject: %s is detached: safe to remove\n"), disk);
	return 0;
}
