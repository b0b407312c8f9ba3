/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/fsutil.h"
#include "sys/shares.h"
#include "sys/sysfs.h"

/* strlcpy: truncate to the buffer, always terminate */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

/* Trim the blanks sysfs pads model and vendor strings with. */
static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = 0;
	while (*p == ' ')
		p++;
	memmove(s, p, strlen(p) + 1);
}

/* The transport, from where the disk sits in the device tree. */
static void bus_from_path(const char *real, struct knobs_dev *d)
{
	if (strstr(real, "/virtual/block/loop")) {
		copy(d->bus, sizeof(d->bus), "loop");
		d->stacked = true;
	} else if (strstr(real, "/usb")) {
		copy(d->bus, sizeof(d->bus), "usb");
	} else if (strstr(real, "/nvme")) {
		copy(d->bus, sizeof(d->bus), "nvme");
	} else if (strstr(real, "/mmc")) {
		copy(d->bus, sizeof(d->bus), "mmc");
	} else if (strstr(real, "/ata")) {
		copy(d->bus, sizeof(d->bus), "ata");
	} else if (strstr(real, "/virtio")) {
		copy(d->bus, sizeof(d->bus), "virtio");
	} else if (strstr(real, "/virtual/")) {
		copy(d->bus, sizeof(d->bus), "virtual");
	}
}

/* A USB disk's serial and ids live on the USB device, a few levels up:
 * the first directory above with an idVendor. */
static void usb_facts(const char *real, struct knobs_dev *d)
{
	char dir[PATH_MAX], f[PATH_MAX + 16], buf[KNOBS_NAME_MAX], vendor[16], product[16];

	copy(dir, sizeof(dir), real);
	while (strlen(dir) > 1) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = 0;
		snprintf(f, sizeof(f), "%s/idVendor", dir);
		if (access(f, R_OK) != 0)
			continue;
		if (read_text(f, vendor, sizeof(vendor)) == 0 &&
		    (snprintf(f, sizeof(f), "%s/idProduct", dir), read_text(f, product, sizeof(product)) == 0)) {
			trim(vendor);
			trim(product);
			if (strlen(vendor) == 4 && strlen(product) == 4)
				snprintf(d->usb, sizeof(d->usb), "%s:%s", vendor, product);
		}
		snprintf(f, sizeof(f), "%s/serial", dir);
		if (!d->serial[0] && read_text(f, buf, sizeof(buf)) == 0) {
			trim(buf);
			copy(d->serial, sizeof(d->serial), buf);
		}
		return;
	}
}

/* The model as udev's ID_MODEL spells it (its udev_replace_whitespace and
 * udev_replace_chars): blanks trimmed, each run of them one '_', and every
 * byte but letters, digits, "#+-.:=@_" and UTF-8 one '_'. */
static void udev_model(const char *model, char *out, size_t len)
{
	size_t o = 0;
	bool blank = false;

	for (const unsigned char *p = (const unsigned char *)model; *p && o + 1 < len; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			blank = o > 0;
			continue;
		}
		if (blank && o + 2 < len)
			out[o++] = '_';
		blank = false;
		out[o++] = (*p >= 0x80 || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
			    (*p >= 'A' && *p <= 'Z') || strchr("#+-.:=@_", *p)) ? (char)*p : '_';
	}
	out[o] = 0;
}

/* A loop device is as slow as what holds its backing file: take removable
 * and rotational from that disk; a file in memory (tmpfs) is neither. */
static void loop_backing_facts(const char *root, const char *disk, struct knobs_dev *d)
{
	char p[PATH_MAX], file[PATH_MAX], back[PATH_MAX], real[PATH_MAX];
	struct stat st;
	uint64_t v;

	if (path_at(p, sizeof(p), root, "/sys/block/%s/loop/backing_file", disk) ||
	    read_text(p, file, sizeof(file)))
		return;
	snprintf(d->model, sizeof(d->model), "loop on %.50s", file);
	/* a file on a share is not looked at: stat and statfs of a hard NFS
	 * mount whose server is gone never return, and this runs in wbgovd's
	 * loop. The loop's own facts stand */
	if (shares_path_on_share(root, file))
		return;
	if (path_at(back, sizeof(back), root, "%s", file) || stat(back, &st) < 0)
		return;
	if (major(st.st_dev) == 0) {
		/* an anonymous device: tmpfs is memory; btrfs, NFS, FUSE could be
		 * anything, so the loop's own facts stand */
		struct statfs fs;
		if (statfs(back, &fs) == 0 && fs.f_type == TMPFS_MAGIC)
			d->rotational = false;
		return;
	}
	if (path_at(p, sizeof(p), root, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev)) ||
	    !realpath(p, real))
		return;
	block_dir_whole(real); /* a partition's queue is its disk's */
	if (!path_at(p, sizeof(p), "", "%s/queue/rotational", real) && read_u64(p, &v) == 0)
		d->rotational = v == 1;
	if (!path_at(p, sizeof(p), "", "%s/removable", real) && read_u64(p, &v) == 0)
		d->removable = v == 1;
}

/* An identity string: printable, no blanks (device memory is one line per
 * device, the id last). */
static void set_id(struct knobs_dev *d, const char *kind, const char *a, const char *b,
		   uint64_t sectors)
{
	char *p;

	if (b)
		snprintf(d->id, sizeof(d->id), "%s:%.60s:%.60s", kind, a, b);
	else if (sectors)
		snprintf(d->id, sizeof(d->id), "%s:%.120s:%llu", kind, a, (unsigned long long)sectors);
	else
		snprintf(d->id, sizeof(d->id), "%s:%.140s", kind, a);
	for (p = d->id; *p; p++)
		if (*p <= ' ' || *p > '~')
			*p = '_';
}

/* A SCSI disk's LUN (its device is .../H:C:T:L); 0 if it has none. */
static unsigned scsi_lun(const char *root, const char *disk)
{
	char p[PATH_MAX], real[PATH_MAX];
	const char *b;
	unsigned h, c, t, l;

	if (path_at(p, sizeof(p), root, "/sys/block/%s/device", disk) || !realpath(p, real))
		return 0;
	b = strrchr(real, '/');
	return b && sscanf(b + 1, "%u:%u:%u:%u", &h, &c, &t, &l) == 4 ? l : 0;
}

/* The most stable name the device offers: a world-wide id, a serial, a
 * device-mapper uuid, a loop's backing file, else model and size, else (a
 * fixed disk only) its name and size. */
static void disk_identity(const char *root, const char *disk, uint64_t sectors, struct knobs_dev *d)
{
	char p[PATH_MAX], buf[KNOBS_ID_MAX];

	d->id[0] = 0;
	if ((!path_at(p, sizeof(p), root, "/sys/block/%s/dm/uuid", disk) &&
	     !read_text(p, buf, sizeof(buf)) && (trim(buf), buf[0]))) {
		set_id(d, "dm-uuid", buf, NULL, 0);
	} else if ((!path_at(p, sizeof(p), root, "/sys/block/%s/wwid", disk) &&
		    !read_text(p, buf, sizeof(buf)) && (trim(buf), buf[0])) ||
		   (!path_at(p, sizeof(p), root, "/sys/block/%s/device/wwid", disk) &&
		    !read_text(p, buf, sizeof(buf)) && (trim(buf), buf[0]))) {
		set_id(d, "wwid", buf, NULL, 0);
	} else if (d->serial[0]) {
		/* the LUNs of a card reader share its USB serial, and often its
		 * model (bench/zoo's two-LUN reader did): one slot's card is not
		 * another's. LUN 0 keeps the name it always had. */
		unsigned lun = !strcmp(d->bus, "usb") ? scsi_lun(root, disk) : 0;
		char s[KNOBS_NAME_MAX + 16];
		snprintf(s, sizeof(s), lun ? "%s:lun%u" : "%s", d->serial, lun);
		set_id(d, "serial", d->model[0] ? d->model : "-", s, 0);
	} else if (!strcmp(d->bus, "loop") &&
		   !path_at(p, sizeof(p), root, "/sys/block/%s/loop/backing_file", disk) &&
		   !read_text(p, buf, sizeof(buf))) {
		set_id(d, "loop", buf, NULL, sectors);
	} else if (d->model[0]) {
		set_id(d, "model", d->model, NULL, sectors);
	} else if (!d->removable && strcmp(d->bus, "usb")) {
		/* a VM's virtio disk tells nothing but its name, which a fixed
		 * disk keeps; a plugged one's sdX name is whatever was free */
		set_id(d, "name", disk, NULL, sectors);
	}
}

static int disk_facts_at(const char *root, const char *disk, struct knobs_dev *d, int depth);

/* A device-mapper or md device writes to the disks under it: it is as
 * removable, rotational and on the bus of those (a LUKS stick is a USB
 * stick). Its own facts say "virtual". */
static void stacked_facts(const char *root, const char *disk, struct knobs_dev *d, int depth)
{
	char p[PATH_MAX], name[KNOBS_NAME_MAX] = "", lower[KNOBS_NAME_MAX] = "";
	DIR *dir;
	struct dirent *e;
	bool first = true, removable = false, rotational = false;

	/* every disk has slaves/; only one with entries in it is stacked */
	if (path_at(p, sizeof(p), root, "/sys/block/%s/slaves", disk) || !(dir = opendir(p)))
		return;
	while ((e = readdir(dir))) {
		struct knobs_dev s;
		char whole[KNOBS_NAME_MAX], real[PATH_MAX], *base;
		if (e->d_name[0] == '.' ||
		    path_at(p, sizeof(p), root, "/sys/class/block/%s", e->d_name) || !realpath(p, real))
			continue;
		block_dir_whole(real); /* a partition's facts are its disk's */
		base = strrchr(real, '/');
		copy(whole, sizeof(whole), base ? base + 1 : real);
		memset(&s, 0, sizeof(s));
		if (disk_facts_at(root, whole, &s, depth + 1))
			continue;
		removable |= s.removable;
		rotational |= s.rotational;
		if (first) {
			copy(d->bus, sizeof(d->bus), s.bus);
			copy(d->usb, sizeof(d->usb), s.usb); /* a LUKS stick is that stick */
			snprintf(lower, sizeof(lower), "%s", s.model[0] ? s.model : whole);
			first = false;
		}
	}
	closedir(dir);
	if (first)
		return; /* no disk under it */
	d->stacked = true;
	d->removable |= removable;
	d->rotational = rotational;
	if (!path_at(p, sizeof(p), root, "/sys/block/%s/dm/name", disk))
		read_text(p, name, sizeof(name));
	if (lower[0])
		snprintf(d->model, sizeof(d->model), "%.20s on %.39s", name[0] ? name : disk, lower);
}

/* /sys/block/DISK/ATTR, trimmed, into `dst`; left as it is when it cannot
 * be read. */
static void disk_text(const char *root, const char *disk, const char *attr, char *dst, size_t len)
{
	char p[PATH_MAX], buf[KNOBS_NAME_MAX];

	if (!path_at(p, sizeof(p), root, "/sys/block/%s/%s", disk, attr) &&
	    read_text(p, buf, sizeof(buf)) == 0) {
		trim(buf);
		copy(dst, len, buf);
	}
}

/* Facts of disk `disk` (a name under /sys/block). */
static int disk_facts(const char *root, const char *disk, struct knobs_dev *d)
{
	return disk_facts_at(root, disk, d, 0);
}

static int disk_facts_at(const char *root, const char *disk, struct knobs_dev *d, int depth)
{
	char p[PATH_MAX], real[PATH_MAX], buf[KNOBS_NAME_MAX], vendor[KNOBS_NAME_MAX] = "";
	uint64_t v;
	int r;

	uint64_t sectors;

	copy(d->disk, sizeof(d->disk), disk);
	if ((r = path_at(p, sizeof(p), root, "/sys/block/%s/size", disk)))
		return r;
	if (read_u64(p, &v) || v == 0)
		return -ENOENT; /* gone, or a loop device with nothing attached */
	sectors = v;
	path_at(p, sizeof(p), root, "/sys/block/%s/dev", disk);
	if (read_text(p, buf, sizeof(buf)) == 0)
		sscanf(buf, "%u:%u", &d->major, &d->minor);
	path_at(p, sizeof(p), root, "/sys/block/%s/removable", disk);
	d->removable = read_u64(p, &v) == 0 && v == 1;
	path_at(p, sizeof(p), root, "/sys/block/%s/queue/rotational", disk);
	d->rotational = read_u64(p, &v) == 0 && v == 1;
	path_at(p, sizeof(p), root, "/sys/block/%s/device/vendor", disk);
	if (read_text(p, vendor, sizeof(vendor)) == 0)
		trim(vendor);
	path_at(p, sizeof(p), root, "/sys/block/%s/device/model", disk);
	if (read_text(p, buf, sizeof(buf)) == 0) {
		trim(buf);
		udev_model(buf, d->model_id, sizeof(d->model_id));
		if (vendor[0])
			snprintf(d->model, sizeof(d->model), "%.30s %.31s", vendor, buf);
		else
			copy(d->model, sizeof(d->model), buf);
	}
	/* an SD/MMC card (and a Memory Stick) names itself in device/name,
	 * udev's ID_NAME */
	if (!d->model[0])
		disk_text(root, disk, "device/name", d->model, sizeof(d->model));
	disk_text(root, disk, "device/serial", d->serial, sizeof(d->serial));
	/* a virtio disk's serial is the disk's own attribute (udev's
	 * ID_SERIAL for it) */
	if (!d->serial[0])
		disk_text(root, disk, "serial", d->serial, sizeof(d->serial));
	path_at(p, sizeof(p), root, "/sys/block/%s", disk);
	if (realpath(p, real)) {
		char rroot[PATH_MAX];
		size_t skip = 0;
		/* judge the device path only, not where a fixture tree lives */
		if (root && strcmp(root, "/") && realpath(root, rroot) &&
		    !strncmp(real, rroot, strlen(rroot)))
			skip = strlen(rroot);
		bus_from_path(real + skip, d);
		if (!strcmp(d->bus, "usb"))
			usb_facts(real, d);
	}
	/* SCSI and ATA disks (through libata's SAT) name it under device/,
	 * NVMe namespaces beside it */
	if ((!path_at(p, sizeof(p), root, "/sys/block/%s/device/wwid", disk) &&
	     !read_text(p, d->wwn, sizeof(d->wwn))) ||
	    (!path_at(p, sizeof(p), root, "/sys/block/%s/wwid", disk) &&
	     !read_text(p, d->wwn, sizeof(d->wwn))))
		trim(d->wwn);
	else
		d->wwn[0] = 0;
	if (!strcmp(d->bus, "loop"))
		loop_backing_facts(root, disk, d);
	else if (depth < 4)
		stacked_facts(root, disk, d, depth);
	disk_identity(root, disk, sectors, d);
	return 0;
}

/* The whole disk of the block device whose sysfs directory is `real`: a
 * partition ("sdb1", a fuseblk or btrfs member on it) sits inside its disk. */
static int whole_disk_of(char *real, char *disk, size_t len)
{
	char *base;

	block_dir_whole(real);
	base = strrchr(real, '/');
	if (!base)
		return -ENOENT;
	copy(disk, len, base + 1);
	return 0;
}

/* The disk a "MAJ:MIN" names. */
static int disk_of_devnum(const char *root, const char *devnum, char *disk, size_t len)
{
	char p[PATH_MAX], real[PATH_MAX];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/sys/dev/block/%s", devnum)))
		return r;
	if (!realpath(p, real))
		return -errno;
	return whole_disk_of(real, disk, len);
}

/* A btrfs filesystem's bdi: its first member disk. */
static int disk_of_btrfs(const char *root, const char *bdi, char *disk, size_t len)
{
	char p[PATH_MAX], link[PATH_MAX];
	DIR *dir, *devs;
	struct dirent *e, *m;
	int r = -ENOENT;

	if (path_at(p, sizeof(p), root, "/sys/fs/btrfs") || !(dir = opendir(p)))
		return -ENOENT;
	while (r && (e = readdir(dir))) {
		ssize_t n;
		char *base;

		if (e->d_name[0] == '.' || strlen(e->d_name) != 36)
			continue;
		if (path_at(p, sizeof(p), root, "/sys/fs/btrfs/%s/bdi", e->d_name))
			continue;
		n = readlink(p, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		base = strrchr(link, '/');
		if (strcmp(base ? base + 1 : link, bdi))
			continue;
		if (path_at(p, sizeof(p), root, "/sys/fs/btrfs/%s/devices", e->d_name) ||
		    !(devs = opendir(p)))
			continue;
		while ((m = readdir(devs))) {
			char real[PATH_MAX];
			if (m->d_name[0] == '.' ||
			    path_at(p, sizeof(p), root, "/sys/class/block/%s", m->d_name) ||
			    !realpath(p, real))
				continue;
			r = whole_disk_of(real, disk, len);
			break;
		}
		closedir(devs);
	}
	closedir(dir);
	return r;
}

int sysfs_device(const char *root, const char *bdi, struct knobs_dev *d)
{
	char devnum[32], disk[KNOBS_NAME_MAX];
	int r;

	/* NFS and FUSE without a block device ("0:N"), CIFS and 9p
	 * ("cifs-N", "9p-N"): no disk, a share of the mount table's */
	if (shares_bdi_name(bdi))
		return shares_device(root, bdi, d);
	memset(d, 0, sizeof(*d));
	copy(d->bdi, sizeof(d->bdi), bdi);
	if (!strncmp(bdi, "btrfs-", 6)) {
		r = disk_of_btrfs(root, bdi, disk, sizeof(disk));
	} else {
		unsigned maj, min;
		char rest[16] = "";
		if (sscanf(bdi, "%u:%u%15s", &maj, &min, rest) < 2)
			return -ENOENT;
		if (rest[0] && strcmp(rest, "-fuseblk"))
			return -ENOENT;
		d->is_fuse = rest[0] != 0;
		if (maj == 0)
			return -ENOENT; /* "0:N-fuseblk" is no block device's */
		snprintf(devnum, sizeof(devnum), "%u:%u", maj, min);
		r = disk_of_devnum(root, devnum, disk, sizeof(disk));
	}
	if (r)
		return r;
	if ((r = disk_facts(root, disk, d)))
		return r;
	/* a btrfs or FUSE bdi writes through its own page cache path: its
	 * speed is not the bare disk's */
	if (d->id[0] && (d->is_fuse || !strncmp(bdi, "btrfs-", 6))) {
		char id[KNOBS_ID_MAX];
		snprintf(id, sizeof(id), "%s+%.150s", d->is_fuse ? "fuseblk" : "btrfs", d->id);
		copy(d->id, sizeof(d->id), id);
	}
	return 0;
}

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct knobs_dev *)a)->bdi, ((const struct knobs_dev *)b)->bdi);
}

int sysfs_devices(const char *root, struct knobs_dev *out, int max)
{
	char p[PATH_MAX];
	DIR *dir;
	struct dirent *e;
	int n = 0, r;

	if ((r = path_at(p, sizeof(p), root, "/sys/class/bdi")))
		return r;
	dir = opendir(p);
	if (!dir)
		return -errno;
	while (n < max && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		if (sysfs_device(root, e->d_name, &out[n]) == 0)
			n++;
	}
	closedir(dir);
	qsort(out, (size_t)n, sizeof(*out), cmp_dev);
	return n;
}

int sysfs_parse_stat(const char *line, struct knobs_stat *ret)
{
	unsigned long long f[11];

	if (strchr(line, '-'))
		return -EINVAL; /* %llu would take a sign */
	if (sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10]) != 11)
		return -EINVAL;
	ret->writes = f[4];
	ret->sectors_written = f[6];
	ret->inflight = f[8];
	ret->io_ticks_ms = f[9];
	return 0;
}

int sysfs_disk_stat(const char *root, const char *disk, struct knobs_stat *ret)
{
	char p[PATH_MAX], buf[512];
	int r;

	if ((r = path_at(p, sizeof(p), root, "/sys/block/%s/stat", disk)))
		return r;
	if ((r = read_text(p, buf, sizeof(buf))))
		return r;
	if ((r = sysfs_parse_stat(buf, ret)))
		return r;
	/* "0x1c" */
	path_at(p, sizeof(p), root, "/sys/block/%s/device/ioerr_cnt", disk);
	ret->have_io_errors = read_text(p, buf, sizeof(buf)) == 0 &&
			      sscanf(buf, "%" SCNx64, &ret->io_errors) == 1;
	return 0;
}

bool sysfs_bdi_name_ok(const char *bdi)
{
	size_t n = strlen(bdi);

	if (!n || n >= KNOBS_NAME_MAX || !strcmp(bdi, ".") || !strcmp(bdi, ".."))
		return false;
	for (const char *c = bdi; *c; c++)
		if (*c == '/' || *c <= ' ' || *c == 0x7f)
			return false;
	return true;
}

/* The path of bdi knob `a`, for a name that is one entry of /sys/class/bdi. */
static int bdi_path(char *p, size_t len, const char *root, const char *bdi, enum bdi_attr a)
{
	if (!sysfs_bdi_name_ok(bdi))
		return -EINVAL;
	return path_at(p, len, root, "/sys/class/bdi/%s/%s", bdi, bdi_attr_names[a]);
}

int sysfs_bdi_read(const char *root, const char *bdi, enum bdi_attr a, uint64_t *ret)
{
	char p[PATH_MAX];
	int r = bdi_path(p, sizeof(p), root, bdi, a);

	return r ? r : read_u64(p, ret);
}

int sysfs_bdi_write(const char *root, const char *bdi, enum bdi_attr a, uint64_t v)
{
	char p[PATH_MAX];
	int r = bdi_path(p, sizeof(p), root, bdi, a);

	return r ? r : write_u64(p, v);
}

/* The strict_limit of some bdi into p: 0, or -ENOENT where none has one
 * (any: the first entry may be one without knobs). */
static int some_strict_limit(const char *root, char *p, size_t len)
{
	DIR *dir;
	struct dirent *e;
	int r = -ENOENT;

	if (path_at(p, len, root, "/sys/class/bdi") || !(dir = opendir(p)))
		return -ENOENT;
	while (r && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		if (!path_at(p, len, root, "/sys/class/bdi/%s/strict_limit", e->d_name) &&
		    access(p, F_OK) == 0)
			r = 0;
	}
	closedir(dir);
	return r;
}

bool sysfs_has_bdi_bytes(const char *root)
{
	char p[PATH_MAX];

	return some_strict_limit(root, p, sizeof(p)) == 0;
}

int sysfs_cpu_ids(const char *root)
{
	char p[PATH_MAX], buf[512];
	long last = -1;

	if (path_at(p, sizeof(p), root, "/sys/devices/system/cpu/possible") ||
	    read_text(p, buf, sizeof(buf)))
		return -ENOENT;
	/* the last number of the list is the highest */
	for (char *s = buf; *s;) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < 0 || v > 65535)
			return -EINVAL;
		last = v;
		s = *end ? end + 1 : end;
	}
	return last < 0 ? -EINVAL : (int)last + 1;
}

int sysfs_bdi_inflight(const char *root, const char *bdi)
{
	char p[PATH_MAX], buf[64];
	unsigned long long r, w;

	if (path_at(p, sizeof(p), root, "/sys/dev/block/%s/inflight", bdi) ||
	    read_text(p, buf, sizeof(buf)))
		return -ENOENT;
	if (sscanf(buf, "%llu %llu", &r, &w) != 2 || r + w > INT_MAX)
		return -EINVAL;
	return (int)(r + w);
}

int sysfs_knobs_writable(const char *root)
{
	char p[PATH_MAX];

	if (some_strict_limit(root, p, sizeof(p)) &&
	    path_at(p, sizeof(p), root, "/proc/sys/vm/dirty_bytes"))
		return -ENAMETOOLONG;
	/* as the process is (AT_EACCESS): a read-only mount is EROFS */
	return faccessat(AT_FDCWD, p, W_OK, AT_EACCESS) ? -errno : 0;
}
