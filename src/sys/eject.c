/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/eject.h"
#include "sys/fsutil.h"
#include "sys/scsi.h"

int eject_usb_device(const char *root, const char *disk, char *dir, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX];

	if (path_at(p, sizeof(p), root, "/sys/block/%s/device", disk) || !realpath(p, real))
		return -ENODEV;
	/* up from the SCSI device to the USB device that holds it */
	for (char *slash = strrchr(real, '/'); slash && slash != real; slash = strrchr(real, '/')) {
		char q[PATH_MAX + 16];
		snprintf(q, sizeof(q), "%s/idVendor", real);
		if (access(q, F_OK) == 0) {
			if (strlen(real) >= len)
				return -ENAMETOOLONG;
			snprintf(dir, len, "%s", real);
			return 0;
		}
		*slash = 0;
	}
	return -ENODEV;
}

enum eject_power eject_power_kind(const char *root, const char *disk, char *attr, size_t len)
{
	char p[PATH_MAX], usb[PATH_MAX];

	attr[0] = 0;
	if (!path_at(p, sizeof(p), root, "/sys/block/%s/loop", disk) && access(p, F_OK) == 0)
		return EJECT_POWER_LOOP;
	if (eject_usb_device(root, disk, usb, sizeof(usb)) == 0) {
		if (snprintf(p, sizeof(p), "%s/remove", usb) >= (int)sizeof(p) || access(p, W_OK) != 0 ||
		    strlen(p) >= len)
			return EJECT_POWER_NONE;
		snprintf(attr, len, "%s", p);
		return EJECT_POWER_USB;
	}
	if (!path_at(p, sizeof(p), root, "/sys/block/%s/device/delete", disk) &&
	    access(p, W_OK) == 0 && strlen(p) < len) {
		snprintf(attr, len, "%s", p);
		return EJECT_POWER_SCSI;
	}
	return EJECT_POWER_NONE;
}

int eject_siblings(const char *root, const char *disk, struct eject_sibling *out, int max)
{
	char usb[PATH_MAX], p[PATH_MAX], q[PATH_MAX + 300], real[PATH_MAX];
	struct dirent *e;
	size_t ul;
	DIR *d;
	int n = 0;

	if (eject_usb_device(root, disk, usb, sizeof(usb)) ||
	    path_at(p, sizeof(p), root, "/sys/block") || !(d = opendir(p)))
		return 0;
	ul = strlen(usb);
	while (n < max && (e = readdir(d))) {
		const char *base, *colon;
		unsigned lun;
		if (e->d_name[0] == '.' || !strcmp(e->d_name, disk) ||
		    strlen(e->d_name) >= sizeof(out->disk))
			continue;
		snprintf(q, sizeof(q), "%s/%s/device", p, e->d_name);
		/* below the same USB device, not only the same interface as
		 * udisks' sibling id: `remove` cuts every interface */
		if (!realpath(q, real) || strncmp(real, usb, ul) || real[ul] != '/')
			continue;
		snprintf(out[n].disk, sizeof(out[n].disk), "%s", e->d_name);
		/* the SCSI device's name is its address, H:C:T:L */
		base = strrchr(real, '/') + 1;
		colon = strrchr(base, ':');
		out[n].lun = colon && sscanf(colon + 1, "%u", &lun) == 1 && lun <= 0xffff ? (int)lun : -1;
		n++;
	}
	closedir(d);
	return n;
}

static void join(char *buf, size_t len, int n, const char *item)
{
	size_t used = strlen(buf);

	if (used + strlen(item) + 3 >= len)
		return; /* cut: the count says how many */
	snprintf(buf + used, len - used, "%s%s", n ? ", " : "", item);
}

static bool on_dev(const char *path, dev_t dev)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == dev;
}

/* Does process directory `pd` hold something on the filesystem `*ctx`
 * (a dev_t): its cwd, root, executable, an open file or a mapped one? */
static bool holds_file(const char *pd, const void *ctx)
{
	static const char *const links[] = { "cwd", "root", "exe" };
	dev_t dev = *(const dev_t *)ctx;
	char p[2 * PATH_MAX], line[PATH_MAX + 128];
	struct dirent *e;
	DIR *d;
	FILE *f;
	bool found = false;

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", pd, links[i]);
		if (on_dev(p, dev))
			return true;
	}
	snprintf(p, sizeof(p), "%s/fd", pd);
	if ((d = opendir(p))) {
		while (!found && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/fd/%s", pd, e->d_name);
			found = on_dev(p, dev);
		}
		closedir(d);
		if (found)
			return true;
	}
	/* mapped files: "addr perms offset MAJ:MIN inode path", MAJ:MIN in hex */
	snprintf(p, sizeof(p), "%s/maps", pd);
	if ((f = fopen(p, "re"))) {
		while (!found && fgets(line, sizeof(line), f)) {
			unsigned ma, mi;
			unsigned long ino;
			if (sscanf(line, "%*s %*s %*s %x:%x %lu", &ma, &mi, &ino) == 3 && ino &&
			    makedev(ma, mi) == dev)
				found = true;
		}
		fclose(f);
	}
	return found;
}

/* Every process under ROOT/proc but this one for which holds() says so,
 * as "PID (comm)" joined into buf; how many. */
static int processes(const char *root, bool (*holds)(const char *pd, const void *ctx),
		     const void *ctx, char *buf, size_t len)
{
	char p[PATH_MAX], pd[PATH_MAX + 300], comm[64], item[96];
	struct dirent *e;
	DIR *d;
	int n = 0;

	buf[0] = 0;
	if (path_at(p, sizeof(p), root, "/proc") || !(d = opendir(p)))
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
			continue;
		snprintf(pd, sizeof(pd), "%s/%s", p, e->d_name);
		if (!holds(pd, ctx))
			continue;
		snprintf(pd, sizeof(pd), "%s/%s/comm", p, e->d_name);
		if (read_text(pd, comm, sizeof(comm)))
			snprintf(comm, sizeof(comm), "?");
		snprintf(item, sizeof(item), "%ld (%s)", pid, comm);
		join(buf, len, n++, item);
	}
	closedir(d);
	return n;
}

int eject_holders(const char *root, dev_t dev, char *buf, size_t len)
{
	return processes(root, holds_file, &dev, buf, len);
}

/* The device numbers of DISK and its partitions, at most max. */
static int disk_devs(const char *root, const char *disk, dev_t *out, int max)
{
	char p[PATH_MAX], q[PATH_MAX + 300], text[32];
	struct dirent *e;
	DIR *d;
	unsigned ma, mi;
	int n = 0;

	if (path_at(p, sizeof(p), root, "/sys/block/%s", disk))
		return 0;
	snprintf(q, sizeof(q), "%s/dev", p);
	if (!read_text(q, text, sizeof(text)) && sscanf(text, "%u:%u", &ma, &mi) == 2)
		out[n++] = makedev(ma, mi);
	if (!(d = opendir(p)))
		return n;
	while (n < max && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(q, sizeof(q), "%s/%s/partition", p, e->d_name);
		if (access(q, F_OK))
			continue;
		snprintf(q, sizeof(q), "%s/%s/dev", p, e->d_name);
		if (!read_text(q, text, sizeof(text)) && sscanf(text, "%u:%u", &ma, &mi) == 2)
			out[n++] = makedev(ma, mi);
	}
	closedir(d);
	return n;
}

struct node_set {
	dev_t devs[128];
	int n;
};

/* Does process directory `pd` have one of the nodes `*ctx` open? */
static bool holds_node(const char *pd, const void *ctx)
{
	const struct node_set *ns = ctx;
	char p[2 * PATH_MAX];
	struct dirent *f;
	DIR *fds;
	bool found = false;

	snprintf(p, sizeof(p), "%s/fd", pd);
	if (!(fds = opendir(p)))
		return false;
	while (!found && (f = readdir(fds))) {
		char fp[3 * PATH_MAX];
		struct stat st;
		if (f->d_name[0] == '.')
			continue;
		snprintf(fp, sizeof(fp), "%s/%s", p, f->d_name);
		if (stat(fp, &st) || !S_ISBLK(st.st_mode))
			continue;
		for (int i = 0; i < ns->n && !found; i++)
			found = st.st_rdev == ns->devs[i];
	}
	closedir(fds);
	return found;
}

int eject_node_holders(const char *root, const char *disk, char *buf, size_t len)
{
	struct node_set ns;

	buf[0] = 0;
	ns.n = disk_devs(root, disk, ns.devs, (int)(sizeof(ns.devs) / sizeof(ns.devs[0])));
	return ns.n ? processes(root, holds_node, &ns, buf, len) : 0;
}

/* The holders of /sys/class/block/NAME. */
static int holders_of(const char *root, const char *name, char *buf, size_t len, int n)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (path_at(p, sizeof(p), root, "/sys/class/block/%s/holders", name) || !(d = opendir(p)))
		return n;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			join(buf, len, n++, e->d_name);
	closedir(d);
	return n;
}

int eject_stacked(const char *root, const char *disk, char *buf, size_t len)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n;

	buf[0] = 0;
	n = holders_of(root, disk, buf, len, 0);
	/* its partitions: /sys/block/DISK/DISKpN with a `partition` file */
	if (path_at(p, sizeof(p), root, "/sys/block/%s", disk) || !(d = opendir(p)))
		return n;
	while ((e = readdir(d))) {
		char q[PATH_MAX + 300];
		if (e->d_name[0] == '.')
			continue;
		snprintf(q, sizeof(q), "%s/%s/partition", p, e->d_name);
		if (access(q, F_OK) == 0)
			n = holders_of(root, e->d_name, buf, len, n);
	}
	closedir(d);
	return n;
}

/* ROOT/dev/DISK opened read-only, without waiting for a medium; -errno */
static int open_disk(const char *root, const char *disk, int flags)
{
	char p[PATH_MAX];
	int fd;

	if (path_at(p, sizeof(p), root, "/dev/%s", disk))
		return -ENAMETOOLONG;
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	return fd < 0 ? -errno : fd;
}

int eject_claimable(const char *root, const char *disk)
{
	int fd = open_disk(root, disk, O_EXCL);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int eject_flush(const char *root, const char *disk)
{
	int fd = open_disk(root, disk, O_EXCL), r = 0;

	if (fd < 0)
		return fd;
	/* fsync writes the device's dirty buffers and flushes its cache;
	 * BLKFLSBUF then drops the clean ones */
	if (fsync(fd) < 0 || ioctl(fd, BLKFLSBUF, 0) < 0)
		r = -errno;
	close(fd);
	return r;
}

int eject_scsi_stop(const char *root, const char *disk)
{
	int fd = open_disk(root, disk, O_EXCL), r, r2;

	if (fd < 0)
		return fd;
	r = scsi_send(fd, SCSI_SYNCHRONIZE_CACHE);
	r2 = scsi_send(fd, SCSI_STOP_UNIT);
	close(fd);
	return r ? r : r2;
}

int eject_power_off(const char *root, const char *disk, enum eject_power kind, const char *attr)
{
	int fd, r = 0;

	switch (kind) {
	case EJECT_POWER_LOOP:
		fd = open_disk(root, disk, 0);
		if (fd < 0)
			return fd;
		if (ioctl(fd, LOOP_CLR_FD, 0) < 0)
			r = -errno;
		close(fd);
		return r;
	case EJECT_POWER_USB:
	case EJECT_POWER_SCSI:
		return write_u64(attr, 1);
	case EJECT_POWER_NONE:
		break;
	}
	return -EOPNOTSUPP;
}
