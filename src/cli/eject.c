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

/* One eject: the disk, what goes with it, and what was found of it. */
struct eject {
	const struct cli *o;
	bool power_off;
	struct knobs_dev *devs;       /* the disk's bdis (cli_resolve) */
	int nd;
	struct mount_list *mounts;    /* the disk's mounts */
	char disk[KNOBS_NAME_MAX];
	bool fuse;                    /* a FUSE server holds the node */
	enum eject_power kind;
	char attr[PATH_MAX];          /* eject_power_kind's */
	char usbdir[PATH_MAX];
	const char *usb;              /* the USB device ("1-2"), "" when none */
	struct eject_sibling sibs[MAX_SIBLINGS];
	int ns;                       /* the other disks on that USB device */
};

/* `arg` as a disk with a bdi of its own (not a share, not tmpfs). 0 or
 * the exit status. */
static int eject_find(struct eject *e, const char *arg)
{
	e->nd = cli_resolve(e->o, arg, e->devs, MAXDEV);
	if (e->nd > 0 && e->devs[0].is_share) {
		/* nothing to power off; and nothing of it is opened here */
		fprintf(stderr, _("wbgov eject: %s is on no disk (tmpfs, proc, a network file "
				"system?)\n"), arg);
		return EX_UNAVAILABLE;
	}
	if (e->nd < 0) {
		struct stat st;
		if (stat(arg, &st) == 0)
			fprintf(stderr, _("wbgov eject: %s is on no disk (tmpfs, proc, a network file "
					"system?)\n"), arg);
		else
			fprintf(stderr, _("wbgov eject: %s: no such disk, partition or path\n"), arg);
		return EX_UNAVAILABLE;
	}
	snprintf(e->disk, sizeof(e->disk), "%s", e->devs[0].disk);
	for (int i = 0; i < e->nd; i++)
		e->fuse |= e->devs[i].is_fuse; /* a fuseblk bdi: a FUSE server holds the node */
	return 0;
}

/* Everything looked at first; nothing is done until all is well. 0 or
 * the exit status. */
static int eject_check(struct eject *e)
{
	const struct cli *o = e->o;
	char who[2048];
	int r;

	if (procfs_mounts(o->root, e->disk, e->mounts) < 0 || e->mounts->truncated) {
		fprintf(stderr, _("wbgov eject: %s's mounts cannot all be listed; unmount some\n"), e->disk);
		return EX_UNAVAILABLE;
	}
	for (const char *m = mount_list_next(e->mounts, NULL); m; m = mount_list_next(e->mounts, m)) {
		if (!strcmp(m, "/")) {
			fprintf(stderr, _("wbgov eject: %s holds the root file system\n"), e->disk);
			return EX_UNAVAILABLE;
		}
	}
	e->kind = eject_power_kind(o->root, e->disk, e->attr, sizeof(e->attr));
	if (e->power_off && e->kind == EJECT_POWER_NONE) {
		fprintf(stderr, _("wbgov eject: wbgov cannot power off %s (bus %s: NVMe, MMC and virtio "
				"disks cannot be); --no-power-off unmounts and flushes it\n"), e->disk,
			e->devs[0].bus[0] ? e->devs[0].bus : _("unknown"));
		return EX_UNAVAILABLE;
	}
	if (e->power_off && e->kind == EJECT_POWER_USB &&
	    eject_usb_device(o->root, e->disk, e->usbdir, sizeof(e->usbdir)) == 0) {
		e->usb = strrchr(e->usbdir, '/') ? strrchr(e->usbdir, '/') + 1 : e->usbdir;
		e->ns = eject_siblings(o->root, e->disk, e->sibs, MAX_SIBLINGS);
		if (e->ns == MAX_SIBLINGS) {
			fprintf(stderr, _("wbgov eject: USB device %s has more disks than wbgov looks at; "
					"--no-power-off unmounts and flushes %s\n"), e->usb, e->disk);
			return EX_UNAVAILABLE;
		}
		if ((r = siblings_in_use(o, e->usb, e->sibs, e->ns,
					 _("unmount it first; nothing was done"))))
			return r;
	}
	if ((r = mounts_free(o, e->mounts)))
		return r;
	if (eject_stacked(o->root, e->disk, who, sizeof(who)) > 0) {
		fprintf(stderr, _("wbgov eject: %s is in use by %s, stacked on it; close that first\n"),
			e->disk, who);
		return EX_TEMPFAIL;
	}
	/* a process with the node open (a dd to it, a partitioning tool) may
	 * write after us. A FUSE file system's server (mount.exfat-fuse)
	 * holds it until its mount goes, then exits: looked at after */
	if (!e->fuse && eject_node_holders(o->root, e->disk, who, sizeof(who)) > 0) {
		fprintf(stderr, _("wbgov eject: /dev/%s is open in %s: not safe to remove; close it and "
				"eject again\n"), e->disk, who);
		return EX_TEMPFAIL;
	}
	return 0;
}

/* Synced with progress, unmounted, and the node let go of. 0 or the exit
 * status. */
static int eject_unmount(struct eject *e)
{
	const struct cli *o = e->o;
	char who[2048];
	int r;

	if (e->mounts->n && (r = cli_sync_watch(o, e->devs, e->nd, e->mounts, "eject")))
		return r;
	if ((r = unmount_all(e->mounts)))
		return r;
	if ((r = procfs_mounts(o->root, e->disk, e->mounts)) < 0) {
		fprintf(stderr, _("wbgov eject: reading the mount table: %s; %s was not powered off\n"),
			strerror(-r), e->disk);
		return EX_OSERR;
	}
	if (r > 0) {
		mount_list_join(e->mounts, ", ", who, sizeof(who));
		fprintf(stderr, _("wbgov eject: %s is mounted again on %s: not safe to remove\n"), e->disk,
			who);
		return EX_TEMPFAIL;
	}
	for (int i = 0; eject_node_holders(o->root, e->disk, who, sizeof(who)) > 0; i++) {
		struct timespec nap = { 0, 100000000 };
		if (i == 30) {
			fprintf(stderr, _("wbgov eject: %s is unmounted, but /dev/%s is open in %s: not "
					"safe to remove; close it and eject again\n"), e->disk, e->disk, who);
			return EX_TEMPFAIL;
		}
		nanosleep(&nap, NULL);
	}
	/* the sync took a while: a card put in the reader meanwhile may have
	 * been mounted */
	if (e->ns && (r = siblings_in_use(o, e->usb, e->sibs, e->ns, _("it was not powered off"))))
		return r;
	return 0;
}

/* Flushed: the disk, and those that go with it. The kernel may let go of
 * a disk a moment after its last unmount returned (a loop device in a
 * loaded CI run, once): a claim is looked at for 2 s. 0 or the exit
 * status. */
static int eject_flush_all(const struct eject *e)
{
	int r;

	for (int i = 0; (r = eject_flush(e->o->root, e->disk)) == -EBUSY && i < 20; i++) {
		struct timespec nap = { 0, 100000000 };
		nanosleep(&nap, NULL);
	}
	if (r) {
		if (r == -EBUSY)
			fprintf(stderr, _("wbgov eject: %s is unmounted, but the kernel still holds it "
					"(swap, a mount in another mount namespace, a file system on several "
					"disks): not safe to remove\n"), e->disk);
		else
			fprintf(stderr, _("wbgov eject: flushing /dev/%s: %s\n"), e->disk, strerror(-r));
		return r == -EBUSY ? EX_TEMPFAIL : EX_IOERR;
	}
	if (!e->power_off)
		return 0;
	for (int i = 0; i < e->ns; i++) {
		if ((r = eject_flush(e->o->root, e->sibs[i].disk))) {
			fprintf(stderr, _("wbgov eject: flushing /dev/%s: %s; %s was not powered off\n"),
				e->sibs[i].disk, strerror(-r), e->usb);
			return r == -EBUSY ? EX_TEMPFAIL : EX_IOERR;
		}
	}
	return 0;
}

/* The drive's own cache written and the drive stopped, then off. A
 * bridge that refuses the SCSI commands is powered off all the same, as
 * udisks does: the flush before already asked for the cache. 0 or the
 * exit status. */
static int eject_off(const struct eject *e)
{
	char also[1024] = "";
	int r;

	for (int i = -1; e->kind != EJECT_POWER_LOOP && i < e->ns; i++) {
		const char *d = i < 0 ? e->disk : e->sibs[i].disk;
		if (strncmp(d, "sd", 2))
			continue;
		if ((r = eject_scsi_stop(e->o->root, d)))
			fprintf(stderr, _("wbgov eject: %s did not take SCSI SYNCHRONIZE CACHE or START "
					"STOP UNIT (%s); going on\n"), d, strerror(-r));
		else
			fprintf(stderr, _("wbgov eject: %s wrote its cache and stopped (SCSI SYNCHRONIZE "
					"CACHE, START STOP UNIT)\n"), d);
	}
	if ((r = eject_power_off(e->o->root, e->disk, e->kind, e->attr))) {
		fprintf(stderr, _("wbgov eject: powering off %s: %s (it is unmounted and flushed)\n"),
			e->disk, strerror(-r));
		return EX_OSERR;
	}
	for (int i = 0; i < e->ns; i++) {
		size_t l = strlen(also);
		snprintf(also + l, sizeof(also) - l, "%s%.31s", i ? ", " : _(", and with it "),
			 e->sibs[i].disk);
	}
	if (e->kind == EJECT_POWER_USB)
		fprintf(stderr, _("wbgov eject: %s is powered off (USB device %s%s): safe to remove\n"),
			e->disk, e->usb, also);
	else if (e->kind == EJECT_POWER_SCSI)
		fprintf(stderr, _("wbgov eject: %s is stopped and deleted from the system (SCSI delete): "
				"safe to remove\n"), e->disk);
	else
		fprintf(stderr, _("wbgov eject: %s is detached: safe to remove\n"), e->disk);
	return 0;
}

int cli_eject(const struct cli *o, const char *arg, bool power_off)
{
	static struct knobs_dev devs[MAXDEV];
	static struct mount_list mounts;
	static struct eject e; /* 9 KiB: not on the stack */
	int r;

	if (geteuid() != 0) {
		fprintf(stderr, _("wbgov eject: unmounting and powering off a device needs root\n"));
		return EX_NOPERM;
	}
	memset(&e, 0, sizeof(e));
	e.o = o;
	e.power_off = power_off;
	e.devs = devs;
	e.mounts = &mounts;
	e.usb = "";
	if ((r = eject_find(&e, arg)) || (r = eject_check(&e)) || (r = eject_unmount(&e)) ||
	    (r = eject_flush_all(&e)))
		return r;
	if (!power_off) {
		fprintf(stderr, _("wbgov eject: %s is unmounted and flushed: safe to remove\n"), e.disk);
		return 0;
	}
	return eject_off(&e);
}
