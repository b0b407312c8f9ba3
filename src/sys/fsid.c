/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <libudev.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/fsid.h"
#include "sys/fsutil.h"
#include "sys/uevent.h"

void fsid_udev_decode(const char *enc, char *out, size_t len)
{
	size_t o = 0;
	unsigned v;

	for (const char *p = enc; *p && o + 1 < len; p++) {
		if (p[0] == '\\' && p[1] == 'x' && sscanf(p + 2, "%2x", &v) == 1 &&
		    p[2] && p[3] && strspn(p + 2, "0123456789abcdefABCDEF") >= 2 && v) {
			out[o++] = (char)v;
			p += 3;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = 0;
}

int fsid_probe(const char *path, char *label, size_t llen, char *uuid, size_t ulen)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *v;
	int r;

	label[0] = uuid[0] = 0;
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 0);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0)
			snprintf(label, llen, "%s", v);
		if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
			snprintf(uuid, ulen, "%s", v);
	}
	blkid_free_probe(pr);
	/* 1: nothing found; -2: two filesystems claim it (blkid says neither) */
	return r < 0 ? -EIO : 0;
}

/* One block device's (a partition's or a whole disk's). */
static void fsid_one(const char *root, bool udev, bool probe, const char *name, struct knobs_dev *d)
{
	char label[KNOBS_NAME_MAX * 2] = "", uuid[KNOBS_NAME_MAX] = "", p[PATH_MAX];

	if (udev) {
		char dev[32];
		unsigned maj, min;
		struct udev *u;
		struct udev_device *ud;
		const char *v;

		if (path_at(p, sizeof(p), root, "/sys/class/block/%s/dev", name) ||
		    read_text(p, dev, sizeof(dev)) || sscanf(dev, "%u:%u", &maj, &min) != 2 ||
		    !(u = udev_new()))
			return;
		if ((ud = udev_device_new_from_devnum(u, 'b', makedev(maj, min)))) {
			if ((v = udev_device_get_property_value(ud, "ID_FS_LABEL_ENC")))
				fsid_udev_decode(v, label, sizeof(label));
			if ((v = udev_device_get_property_value(ud, "ID_FS_UUID_ENC")))
				fsid_udev_decode(v, uuid, sizeof(uuid));
			udev_device_unref(ud);
		}
		udev_unref(u);
	} else if (probe) {
		if (path_at(p, sizeof(p), root, "/dev/%s", name) ||
		    fsid_probe(p, label, sizeof(label), uuid, sizeof(uuid)))
			return;
	}
	knobs_list_add(d->labels, sizeof(d->labels), label);
	knobs_list_add(d->uuids, sizeof(d->uuids), uuid);
}

enum fsid_source fsid_source(const char *root, char *ret_disk, size_t len)
{
	char p[PATH_MAX];
	DIR *dir;
	struct dirent *e;
	enum fsid_source s = FSID_PROBE;

	if (!strcmp(root, "/") && uevent_udevd_running())
		return FSID_UDEV;
	if (path_at(p, sizeof(p), root, "/sys/class/block") || !(dir = opendir(p)))
		return FSID_PROBE;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		if (!path_at(p, sizeof(p), root, "/dev/%s", e->d_name) && access(p, F_OK) &&
		    errno == ENOENT) {
			snprintf(ret_disk, len, "%s", e->d_name);
			s = FSID_HIDDEN;
		}
		break; /* one disk tells */
	}
	closedir(dir);
	return s;
}

void fsid_facts(const char *root, bool probe, struct knobs_dev *d)
{
	/* udev's database, where udevd keeps one: no device is opened */
	bool udev = !strcmp(root, "/") && uevent_udevd_running();
	char p[PATH_MAX];
	DIR *dir;
	struct dirent *e;
	int parts = 0;

	memset(d->labels, 0, sizeof(d->labels));
	memset(d->uuids, 0, sizeof(d->uuids));
	if ((!udev && !probe) || !d->disk[0] ||
	    path_at(p, sizeof(p), root, "/sys/block/%s", d->disk) || !(dir = opendir(p)))
		return;
	while ((e = readdir(dir))) {
		char part[PATH_MAX];
		if (e->d_name[0] == '.' ||
		    path_at(part, sizeof(part), root, "/sys/block/%s/%s/partition", d->disk, e->d_name) ||
		    access(part, F_OK))
			continue;
		parts++;
		fsid_one(root, udev, probe, e->d_name, d);
	}
	closedir(dir);
	if (!parts) /* a filesystem on the whole disk, as on many sticks */
		fsid_one(root, udev, probe, d->disk, d);
}
