/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real-system layer against fixture trees: /sys and /proc laid out the
 * way the kernel lays them out (disks as directories under /sys/devices,
 * /sys/block, /sys/dev/block, /sys/class/block and /sys/class/bdi as
 * relative symlinks into them), built at run time in a mkdtemp() directory
 * that the group teardown removes whatever happened. Covers fsutil, sysfs,
 * procfs, mount points, eject's sysfs facts, SCSI command blocks, state,
 * status, knobs_real and the governor over knobs_real. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/knobs_real.h"
#include "model/units.h"
#include "policy/governor.h"
#include "sys/debugfs.h"
#include "sys/fsid.h"
#include "sys/fsutil.h"
#include "sys/eject.h"
#include "sys/iolimit.h"
#include "sys/mountpt.h"
#include "sys/pidlock.h"
#include "sys/syncmounts.h"
#include "sys/procfs.h"
#include "sys/sandbox.h"
#include "sys/scsi.h"
#include "sys/state.h"
#include "daemon/describe.h"
#include "daemon/status.h"
#include "sys/sysfs.h"

#include "rows.h"

/* ------------------------------------------------------------ fixtures */

/* Under /tmp, not $TMPDIR: bus detection looks for "/usb", "/ata"... in the
 * whole resolved path, fixture prefix included (see test_bus_ignores_root_prefix). */
#define BASE_TEMPLATE "/tmp/wbgov-test-sys-XXXXXX"

static char g_base[PATH_MAX];
static char g_shm[PATH_MAX]; /* a directory on tmpfs, if a test made one */

/* Large objects the tests share, static so that a failed assertion (a
 * longjmp out of the test) leaks nothing. */
static struct governor g_gov;
#define FX_MAX_DEV 64 /* more than any fixture has */
static struct knobs_dev g_out[FX_MAX_DEV];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(g_base, sizeof(g_base), "%s", BASE_TEMPLATE);
	return mkdtemp(g_base) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	if (g_base[0] && strcmp(g_base, BASE_TEMPLATE))
		rm_tree(g_base);
	if (g_shm[0])
		rm_tree(g_shm);
	return 0;
}

static void fmt_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fmt_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < len);
}

/* ROOT/REL, in a buffer of its own (the next call reuses it) */
static const char *fmt_path_s(const char *root, const char *rel)
{
	static char p[PATH_MAX];

	fmt_path(p, sizeof(p), "%s%s", root, rel);
	return p;
}

static void mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	fmt_path(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", tmp, strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", tmp, strerror(errno));
}

static void mkdir_parent(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	fmt_path(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	assert_non_null(slash);
	*slash = 0;
	mkdir_p(dir);
}

/* A fresh fixture root <base>/<name>. */
static void fx_root(char *root, size_t len, const char *name)
{
	fmt_path(root, len, "%s/%s", g_base, name);
	rm_tree(root);
	mkdir_p(root);
}

static void fx_write(const char *root, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	fmt_path(p, sizeof(p), "%s%s", root, rel);
	mkdir_parent(p);
	f = fopen(p, "w");
	if (!f)
		fail_msg("%s: %s", p, strerror(errno));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A relative symlink at `rel` to `target` (both fixture paths from its root),
 * as the kernel makes them ("../../devices/..."), so realpath() stays inside
 * the fixture. */
static void fx_link(const char *root, const char *rel, const char *target)
{
	char p[PATH_MAX], t[PATH_MAX] = "";
	size_t used = 0;
	int depth = -1;

	for (const char *s = rel; *s; s++)
		depth += *s == '/';
	for (int i = 0; i < depth; i++)
		used += (size_t)snprintf(t + used, sizeof(t) - used, "../");
	fmt_path(t + used, sizeof(t) - used, "%s", target + 1);
	fmt_path(p, sizeof(p), "%s%s", root, rel);
	mkdir_parent(p);
	if (symlink(t, p) < 0)
		fail_msg("symlink %s -> %s: %s", p, t, strerror(errno));
}

static void fx_unlink(const char *root, const char *rel)
{
	char p[PATH_MAX];

	fmt_path(p, sizeof(p), "%s%s", root, rel);
	rm_tree(p);
}

/* The raw bytes of a fixture file ("" when missing). */
static const char *fx_read(const char *root, const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	size_t n;

	fmt_path(p, sizeof(p), "%s%s", root, rel);
	buf[0] = 0;
	f = fopen(p, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void assert_file(const char *root, const char *rel, const char *want)
{
	char buf[256];

	fx_read(root, rel, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("%s: \"%s\", want \"%s\"", rel, buf, want);
}

/* /sys/block/<disk>/stat as the kernel prints it: 17 fields (since 5.5),
 * sectors written 987654, in flight 2, io_ticks 3000. */
#define STAT_LINE "    1234        0    56789     1000     4321       17   987654     5000        2     3000     6000        0        0        0        0      100      200\n"

struct fx_disk {
	const char *name;    /* sdb */
	const char *devpath; /* where the kernel puts it: /sys/devices/.../block/sdb */
	const char *dev;     /* 8:16 */
	const char *size;    /* sectors; "0" for a loop device with nothing attached */
	const char *removable, *rotational;
	const char *devdir;  /* what device/ points to (NULL: no link) */
	const char *vendor, *model, *serial; /* in devdir (NULL: no file) */
};

static void fx_file_at(const char *root, const char *dir, const char *leaf, const char *text)
{
	char rel[PATH_MAX];

	if (!text)
		return;
	fmt_path(rel, sizeof(rel), "%s/%s", dir, leaf);
	fx_write(root, rel, text);
}

static void fx_disk_add(const char *root, const struct fx_disk *d)
{
	char rel[PATH_MAX], line[64];

	fmt_path(line, sizeof(line), "%s\n", d->dev);
	fx_file_at(root, d->devpath, "dev", line);
	fmt_path(line, sizeof(line), "%s\n", d->size ? d->size : "1953525168");
	fx_file_at(root, d->devpath, "size", line);
	fmt_path(line, sizeof(line), "%s\n", d->removable ? d->removable : "0");
	fx_file_at(root, d->devpath, "removable", line);
	fmt_path(line, sizeof(line), "%s\n", d->rotational ? d->rotational : "0");
	fx_file_at(root, d->devpath, "queue/rotational", line);
	fx_file_at(root, d->devpath, "stat", STAT_LINE);
	/* every disk has a slaves/ directory, empty unless stacked */
	fx_file_at(root, d->devpath, "slaves/.keep", "");
	if (d->devdir) {
		fx_file_at(root, d->devdir, "vendor", d->vendor);
		fx_file_at(root, d->devdir, "model", d->model);
		fx_file_at(root, d->devdir, "serial", d->serial);
		fmt_path(rel, sizeof(rel), "%s/device", d->devpath);
		fx_link(root, rel, d->devdir);
	}
	fmt_path(rel, sizeof(rel), "/sys/block/%s", d->name);
	fx_link(root, rel, d->devpath);
	fmt_path(rel, sizeof(rel), "/sys/class/block/%s", d->name);
	fx_link(root, rel, d->devpath);
	fmt_path(rel, sizeof(rel), "/sys/dev/block/%s", d->dev);
	fx_link(root, rel, d->devpath);
}

/* A partition: a directory inside its disk's, with a `partition` file. */
static void fx_part_add(const char *root, const char *disk_devpath, const char *name, const char *dev,
			const char *num)
{
	char dir[PATH_MAX], rel[PATH_MAX], line[64];

	fmt_path(dir, sizeof(dir), "%s/%s", disk_devpath, name);
	fmt_path(line, sizeof(line), "%s\n", num);
	fx_file_at(root, dir, "partition", line);
	fmt_path(line, sizeof(line), "%s\n", dev);
	fx_file_at(root, dir, "dev", line);
	fx_file_at(root, dir, "size", "2048000\n");
	fmt_path(rel, sizeof(rel), "/sys/class/block/%s", name);
	fx_link(root, rel, dir);
	fmt_path(rel, sizeof(rel), "/sys/dev/block/%s", dev);
	fx_link(root, rel, dir);
}

/* /sys/devices/virtual/bdi/<name>, linked from /sys/class/bdi. `v62`: the
 * attributes Linux 6.2 added (strict_limit, max_bytes, min_bytes, *_fine). */
static void fx_bdi(const char *root, const char *name, bool v62)
{
	char dir[PATH_MAX], rel[PATH_MAX];

	fmt_path(dir, sizeof(dir), "/sys/devices/virtual/bdi/%s", name);
	fx_file_at(root, dir, "read_ahead_kb", "128\n");
	fx_file_at(root, dir, "max_ratio", "100\n");
	fx_file_at(root, dir, "min_ratio", "0\n");
	fx_file_at(root, dir, "stable_pages_required", "0\n");
	if (v62) {
		fx_file_at(root, dir, "strict_limit", "0\n");
		fx_file_at(root, dir, "max_bytes", "3355443200\n");
		fx_file_at(root, dir, "min_bytes", "0\n");
		fx_file_at(root, dir, "max_ratio_fine", "1000000\n");
		fx_file_at(root, dir, "min_ratio_fine", "0\n");
	}
	fmt_path(rel, sizeof(rel), "/sys/class/bdi/%s", name);
	fx_link(root, rel, dir);
}

#define BDI_DIR "/sys/devices/virtual/bdi/"

/* Where the kernel puts each kind of disk. */
#define USB_HUB "/sys/devices/pci0000:00/0000:00:14.0/usb2"
#define USB_DEV USB_HUB "/2-1"
#define USB_SCSI USB_DEV "/2-1:1.0/host6/target6:0:0/6:0:0:0"
#define USB_DISK USB_SCSI "/block/sdb"
#define NVME_CTRL "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0"
#define NVME_DISK NVME_CTRL "/nvme0n1"
#define NVME_SUBSYS "/sys/devices/virtual/nvme-subsystem/nvme-subsys1"
#define NVME_MP_DISK NVME_SUBSYS "/nvme1n1"
#define ATA_SCSI "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0"
#define ATA_DISK ATA_SCSI "/block/sda"
#define ATA2_SCSI "/sys/devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0"
#define ATA2_DISK ATA2_SCSI "/block/sdc"
#define LOOP0_DISK "/sys/devices/virtual/block/loop0"
#define LOOP1_DISK "/sys/devices/virtual/block/loop1"
#define ZRAM_DISK "/sys/devices/virtual/block/zram0"
#define VIRTIO_DEV "/sys/devices/pci0000:00/0000:00:04.0/virtio1"
#define VIRTIO_DISK VIRTIO_DEV "/block/vda"
#define MMC_CARD "/sys/devices/platform/soc/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa"
#define MMC_DISK MMC_CARD "/block/mmcblk0"
#define XEN_DISK "/sys/devices/vbd-51712/block/xvda" /* a bus sysfs says nothing about */

#define BTRFS_UUID1 "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"
#define BTRFS_UUID2 "ffeeddcc-bbaa-9988-7766-554433221100"

static const struct fx_disk fx_usb = {
	.name = "sdb", .devpath = USB_DISK, .dev = "8:16", .size = "30031872", .removable = "1",
	.rotational = "1", .devdir = USB_SCSI, .vendor = "SanDisk \n", .model = "Cruzer Blade    \n",
};
static const struct fx_disk fx_nvme = {
	.name = "nvme0n1", .devpath = NVME_DISK, .dev = "259:0", .devdir = NVME_CTRL,
	.model = "Samsung SSD 980 PRO 1TB                 \n", .serial = "S5GXNX0T123456A     \n",
};
static const struct fx_disk fx_ata = {
	.name = "sda", .devpath = ATA_DISK, .dev = "8:0", .rotational = "1", .devdir = ATA_SCSI,
	.vendor = "ATA     \n", .model = "ST2000DM008-2FR1\n",
};

static void fx_usb_device(const char *root, bool with_serial)
{
	/* the root hub has a serial of its own: it must not be taken */
	fx_write(root, USB_HUB "/idVendor", "1d6b\n");
	fx_write(root, USB_HUB "/serial", "0000:00:14.0\n");
	fx_write(root, USB_DEV "/idVendor", "0781\n");
	fx_write(root, USB_DEV "/idProduct", "5567\n");
	if (with_serial)
		fx_write(root, USB_DEV "/serial", "4C530001190823115393\n");
	fx_write(root, USB_DEV "/2-1:1.0/bInterfaceClass", "08\n");
}

/* Every kind of disk and bdi wbgov meets. */
static void fx_full(const char *root)
{
	static const struct fx_disk disks[] = {
		{ .name = "sdc", .devpath = ATA2_DISK, .dev = "8:32", .devdir = ATA2_SCSI,
		  .vendor = "ATA     \n", .model = "Samsung SSD 870 \n" },
		{ .name = "nvme1n1", .devpath = NVME_MP_DISK, .dev = "259:2", .devdir = NVME_SUBSYS,
		  .model = "WD_BLACK SN850X 2000GB\n", .serial = "23123K800123\n" },
		{ .name = "loop0", .devpath = LOOP0_DISK, .dev = "7:0", .size = "614400" },
		{ .name = "loop1", .devpath = LOOP1_DISK, .dev = "7:1", .size = "0" },
		{ .name = "zram0", .devpath = ZRAM_DISK, .dev = "252:0", .size = "8388608" },
		{ .name = "vda", .devpath = VIRTIO_DISK, .dev = "253:0", .rotational = "1",
		  .devdir = VIRTIO_DEV },
		{ .name = "mmcblk0", .devpath = MMC_DISK, .dev = "179:0", .devdir = MMC_CARD,
		  .serial = "0x1234abcd\n" },
		{ .name = "xvda", .devpath = XEN_DISK, .dev = "202:0" },
	};
	static const char *const bdis[] = {
		"8:0", "8:16", "8:16-fuseblk", "8:32", "259:0", "259:2", "7:0", "7:1", "252:0",
		"253:0", "179:0", "202:0", "btrfs-1", "btrfs-2", "0:45", "0:33",
		/* names no kernel makes, or whose disk is not there */
		"abc", "8", "8:16x", "8:16-fuse", "8:99", ":16", "btrfs-7",
	};

	fx_disk_add(root, &fx_usb);
	fx_usb_device(root, true);
	fx_disk_add(root, &fx_nvme);
	fx_disk_add(root, &fx_ata);
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++)
		fx_disk_add(root, &disks[i]);
	fx_write(root, LOOP0_DISK "/loop/backing_file", "/var/tmp/disk.img\n");
	fx_write(root, MMC_CARD "/name", "SD16G\n");
	fx_write(root, VIRTIO_DISK "/serial", "ZOO0008\n");
	for (size_t i = 0; i < sizeof(bdis) / sizeof(bdis[0]); i++)
		fx_bdi(root, bdis[i], true);
	/* btrfs: /sys/fs/btrfs/<uuid>/bdi -> the bdi, devices/<member> -> the disk */
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID1 "/bdi", BDI_DIR "btrfs-1");
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID1 "/devices/sdc", ATA2_DISK);
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID2 "/bdi", BDI_DIR "btrfs-2");
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID2 "/devices/sda", ATA_DISK);
	fx_write(root, "/sys/fs/btrfs/features/free_space_tree", "0\n");
}

/* Shares (sys/shares.h): NFS v4 and v3, CIFS, sshfs, a FUSE file system
 * with no subtype and 9p, each with its bdi (NFS and FUSE "0:N" after the
 * superblock's st_dev, CIFS and 9p "TYPE-N"); a tmpfs (a bdi "0:59" made
 * up: tmpfs has none, and one at its number must still not be taken for
 * a share) and a fuseblk on the SD card (its bdi "179:0-fuseblk": a
 * disk's, as before). FUSE bdis as the kernel makes them: strict, 1 %. */
#define FX_SHARE_MOUNTS \
	"50 22 0:53 / /mnt/nas rw,relatime shared:50 - nfs4 nas.local:/export rw,vers=4.2,addr=192.168.1.2\n" \
	"51 22 0:54 / /mnt/old rw,relatime - nfs oldnas:/srv/data rw,vers=3,addr=192.168.1.3\n" \
	"52 22 0:55 / /mnt/smb rw,relatime - cifs //fileserver/public rw,vers=3.1.1,addr=192.168.1.4\n" \
	"53 22 0:56 / /home/user/remote rw,nosuid,nodev - fuse.sshfs user@host:/home/user rw,user_id=1000,group_id=1000\n" \
	"54 22 0:57 / /home/user/myfs rw,nosuid,nodev - fuse myfs rw,user_id=1000,group_id=1000\n" \
	"55 22 0:58 / /mnt/9p rw,relatime - 9p hostshare rw,trans=virtio\n" \
	"56 22 0:59 / /run/user/1000 rw,nosuid,nodev - tmpfs tmpfs rw,size=1620000k\n" \
	"57 22 179:0 / /media/user/SDXC rw,nosuid,nodev - fuseblk /dev/mmcblk0 rw,user_id=0\n"

static void fx_shares(const char *root)
{
	static const char *const bdis[] = { "0:53", "0:54", "cifs-3", "9p-1", "0:59", "179:0-fuseblk" };
	static const char *const fuse[] = { "0:56", "0:57" };

	for (size_t i = 0; i < sizeof(bdis) / sizeof(bdis[0]); i++)
		fx_bdi(root, bdis[i], true);
	for (size_t i = 0; i < sizeof(fuse) / sizeof(fuse[0]); i++) {
		char rel[PATH_MAX];
		fx_bdi(root, fuse[i], true);
		fmt_path(rel, sizeof(rel), BDI_DIR "%s/strict_limit", fuse[i]);
		fx_write(root, rel, "1\n");
		fmt_path(rel, sizeof(rel), BDI_DIR "%s/max_ratio_fine", fuse[i]);
		fx_write(root, rel, "10000\n");
		fmt_path(rel, sizeof(rel), BDI_DIR "%s/max_ratio", fuse[i]);
		fx_write(root, rel, "1\n");
	}
	/* NFS's own counters (fs/nfs/iostat.h order): v4 wrote 40 MiB to its
	 * server, 4 MiB of it O_DIRECT; v3 1 MiB */
	fx_write(root, "/proc/self/mountstats",
		 "device proc mounted on /proc with fstype proc\n"
		 "device nas.local:/export mounted on /mnt/nas with fstype nfs4 statvers=1.1\n"
		 "\topts:\trw,vers=4.2,rsize=1048576,wsize=1048576\n"
		 "\tage:\t100\n"
		 "\tbytes:\t0 41943040 0 4194304 0 41943040 0 10240\n"
		 "\tRPC iostats version: 1.1  p/v: 100003/4 (nfs)\n"
		 "\tper-op statistics\n"
		 "\t        NULL: 1 1 0 44 24 0 0 0 0\n"
		 "\t       WRITE: 40 40 0 41949120 7040 3 20000 20010 0\n"
		 "\t      COMMIT: 10 10 0 1520 1040 1 3990 4000 0\n"
		 "\n"
		 "device oldnas:/srv/data mounted on /mnt/old with fstype nfs statvers=1.1\n"
		 "\tbytes:\t0 1048576 0 0 0 1048576 0 256\n"
		 "\tper-op statistics\n"
		 "\t       WRITE: 1 1 0 1048700 120 0 900 901\n"
		 "\n"
		 "device //fileserver/public mounted on /mnt/smb with fstype cifs\n");
}

/* ------------------------------------------------------------- fsutil */

/* Not a test: with WBGOV_FIXTURE_OUT=DIR, the full fixture is written to
 * DIR for the black-box tests of wbgov (tests/cli/wbgov_fixture.sh), with
 * a meminfo, mounts with a blank and non-ASCII in their names (and a
 * user's FUSE mount whose source names the stick), and a model string
 * that is not UTF-8 (Latin-1, as some USB firmware has). */
static void test_fixture_export(void **state)
{
	const char *out = getenv("WBGOV_FIXTURE_OUT");

	(void)state;
	if (!out)
		return;
	mkdir_p(out);
	fx_full(out);
	fx_write(out, USB_SCSI "/model", "Cruzer \xe9 Blade\n");
	fx_write(out, "/proc/meminfo", "MemTotal: 16000000 kB\nDirty: 4096 kB\nWriteback: 1024 kB\n");
	fx_write(out, "/proc/self/mountinfo",
		 "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n"
		 "40 22 8:17 / /media/user/NO\\040NAME rw,nosuid shared:2 - vfat /dev/sdb1 rw\n"
		 "41 22 8:17 / /media/user/Caf\xc3\xa9 rw,nosuid shared:3 - vfat /dev/sdb1 rw\n"
		 /* a user's FUSE mount naming the stick: none of its mounts */
		 "43 22 0:61 / /media/user/forged rw,nosuid,nodev - fuse.vfat /dev/sdb1 rw,user_id=1000\n"
		 FX_SHARE_MOUNTS);
	fx_shares(out);
	/* sdb1, a partition of sdb */
	fx_file_at(out, USB_DISK "/sdb1", "partition", "1\n");
	fx_file_at(out, USB_DISK "/sdb1", "dev", "8:17\n");
	fx_link(out, "/sys/class/block/sdb1", USB_DISK "/sdb1");
	fx_link(out, "/sys/dev/block/8:17", USB_DISK "/sdb1");
}

static void test_path_at(void **state)
{
	char p[32];

	(void)state;
	assert_int_equal(path_at(p, sizeof(p), "/", "/sys/class/bdi/%s", "8:16"), 0);
	assert_string_equal(p, "/sys/class/bdi/8:16");
	assert_int_equal(path_at(p, sizeof(p), NULL, "/proc/%s", "meminfo"), 0);
	assert_string_equal(p, "/proc/meminfo");
	assert_int_equal(path_at(p, sizeof(p), "/tmp/fx", "/proc/%s", "meminfo"), 0);
	assert_string_equal(p, "/tmp/fx/proc/meminfo");
	assert_int_equal(path_at(p, sizeof(p), "/tmp/fx", "/sys/class/bdi/%s/max_ratio_fine", "8:16"),
			 -ENAMETOOLONG);
	assert_int_equal(path_at(p, 8, "/tmp/fixture", "/x"), -ENAMETOOLONG);
	assert_int_equal(path_at(p, 13, "/tmp/fixture", "%s", ""), 0); /* exactly fits */
}

static void test_parse_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse_u64("", &v), -EINVAL);
	assert_int_equal(parse_u64("-1", &v), -EINVAL);
	assert_int_equal(parse_u64("+1", &v), -EINVAL);
	assert_int_equal(parse_u64(" 1", &v), -EINVAL);
	assert_int_equal(parse_u64("1 ", &v), -EINVAL);
	assert_int_equal(parse_u64("12abc", &v), -EINVAL);
	assert_int_equal(parse_u64("0x10", &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on failure */
}

static void test_read_write_u64(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], buf[64];
	uint64_t v = 99;

	(void)state;
	fx_root(root, sizeof(root), "fsutil");
	fx_write(root, "/n", "42\n");
	fmt_path(p, sizeof(p), "%s/n", root);
	assert_int_equal(read_u64(p, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(write_u64(p, 16777216), 0);
	assert_file(root, "/n", "16777216\n"); /* what `echo 16777216 > n` writes */
	assert_int_equal(read_u64(p, &v), 0);
	assert_int_equal(v, 16777216);

	/* malformed contents */
	v = 99;
	fx_write(root, "/n", "");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "\n");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "42 \n");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "42\n\n");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "-1\n");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "[always] madvise never\n");
	assert_int_equal(read_u64(p, &v), -EINVAL);
	fx_write(root, "/n", "99999999999999999999\n");
	assert_int_equal(read_u64(p, &v), -ERANGE);
	/* longer than the 31-byte buffer: cut, and then not a number */
	fx_write(root, "/n", "1234567890123456789012345678901234567890\n");
	assert_int_equal(read_u64(p, &v), -ERANGE);
	assert_int_equal(v, 99);

	/* missing: no file is created */
	fmt_path(p, sizeof(p), "%s/missing", root);
	assert_int_equal(read_u64(p, &v), -ENOENT);
	assert_int_equal(write_u64(p, 1), -ENOENT);
	assert_int_equal(access(p, F_OK), -1);

	/* read_text: one trailing newline removed, cut to the buffer */
	fx_write(root, "/t", "hello\n");
	fmt_path(p, sizeof(p), "%s/t", root);
	assert_int_equal(read_text(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hello");
	assert_int_equal(read_text(p, buf, 4), 0);
	assert_string_equal(buf, "hel");
	fmt_path(p, sizeof(p), "%s", root);
	assert_int_equal(read_text(p, buf, sizeof(buf)), -EISDIR);
}

/* write_u64() promises what `echo N > file` does: the shell opens with
 * O_TRUNC. On sysfs and procfs that makes no difference; on a fixture tree
 * (a regular file) a shorter number written over a longer one must not leave
 * the old tail behind ("3355443200" -> "16777216" must not read back as
 * "16777216\n00"). */
static void test_write_u64_shorter_value(void **state)
{
	char root[PATH_MAX], p[PATH_MAX];
	uint64_t v = 0;

	(void)state;
	fx_root(root, sizeof(root), "fsshort");
	fx_write(root, "/max_bytes", "3355443200\n");
	fmt_path(p, sizeof(p), "%s/max_bytes", root);
	assert_int_equal(write_u64(p, 16777216), 0);
	assert_file(root, "/max_bytes", "16777216\n");
	assert_int_equal(read_u64(p, &v), 0);
	assert_int_equal(v, 16777216);
}

/* -------------------------------------------------------------- sysfs */

/* What sysfs_device() says of one bdi, a row of a table: each field the row
 * names is checked (a string that is not NULL, a value given with IS()),
 * nothing else. */
struct opt {
	bool on;
	uint64_t v;
};
#define IS(x) { true, (x) }
struct dev_row {
	const char *name;
	const char *lookup; /* the bdi looked up */
	const char *bdi, *disk, *bus, *usb, *model, *model_id, *serial, *wwn, *id;
	struct opt major, minor, removable, rotational, stacked, is_fuse;
};

#define DEV_STR(r, d, f)                                                                           \
	do {                                                                                       \
		if ((r)->f)                                                                        \
			row_string_named(r, "d." #f, (d)->f, (r)->f);                              \
	} while (0)
#define DEV_INT(r, d, f)                                                                           \
	do {                                                                                       \
		if ((r)->f.on)                                                                     \
			row_int_named(r, "d." #f, (d)->f, (r)->f.v);                               \
	} while (0)
#define DEV_BOOL(r, d, f)                                                                          \
	do {                                                                                       \
		if ((r)->f.on)                                                                     \
			row_bool_named(r, "d." #f, (d)->f, (r)->f.v);                              \
	} while (0)

static void check_devices(const char *root, const struct dev_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct dev_row *r = &rows[i];
		struct knobs_dev dev, *d = &dev;

		row_int_named(r, "sysfs_device()", sysfs_device(root, r->lookup, d), 0);
		DEV_STR(r, d, bdi);
		DEV_STR(r, d, disk);
		DEV_STR(r, d, bus);
		DEV_STR(r, d, usb);
		DEV_STR(r, d, model);
		DEV_STR(r, d, model_id);
		DEV_STR(r, d, serial);
		DEV_STR(r, d, wwn);
		DEV_STR(r, d, id);
		DEV_INT(r, d, major);
		DEV_INT(r, d, minor);
		DEV_BOOL(r, d, removable);
		DEV_BOOL(r, d, rotational);
		DEV_BOOL(r, d, stacked);
		DEV_BOOL(r, d, is_fuse);
	}
}

static void test_sysfs_bus_detection(void **state)
{
	static const struct dev_row rows[] = {
		/* what [device] usb = and model = match: the USB device's ids (not
		 * the root hub's), the model in udev's ID_MODEL form too */
		{ "8:16, a USB stick", "8:16", .bus = "usb", .disk = "sdb", .stacked = IS(false),
		  .usb = "0781:5567", .model = "SanDisk Cruzer Blade", .model_id = "Cruzer_Blade",
		  .wwn = "" },
		{ "259:0, an NVMe disk", "259:0", .bus = "nvme", .disk = "nvme0n1", .usb = "",
		  .model_id = "Samsung_SSD_980_PRO_1TB" },
		/* native NVMe multipath: the disk sits under the virtual subsystem */
		{ "259:2, NVMe multipath", "259:2", .bus = "nvme", .disk = "nvme1n1" },
		{ "8:0, a SATA disk", "8:0", .bus = "ata", .disk = "sda" },
		{ "7:0, a loop device", "7:0", .bus = "loop", .stacked = IS(true),
		  .model = "loop on /var/tmp/disk.img" },
		/* its own serial, beside device/ */
		{ "253:0, a virtio disk", "253:0", .bus = "virtio", .serial = "ZOO0008",
		  .stacked = IS(false) },
		/* an SD card names itself in device/name (udev's ID_NAME) */
		{ "179:0, an SD card", "179:0", .bus = "mmc", .model = "SD16G",
		  .serial = "0x1234abcd" },
		{ "252:0, zram", "252:0", .bus = "virtual", .stacked = IS(false) },
		{ "202:0, a Xen disk", "202:0", .bus = "", .disk = "xvda", .stacked = IS(false) },
	};
	/* a SCSI or ATA disk's wwid is under device/, an NVMe namespace's beside it */
	static const struct dev_row wwids[] = {
		{ "259:0, its wwid", "259:0", .wwn = "eui.0025388b91b2c3d4" },
		{ "8:0, its wwid", "8:0", .wwn = "naa.5000c500a1b2c3d4" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "bus");
	fx_full(root);
	check_devices(root, rows, ROWS(rows));
	fx_write(root, NVME_DISK "/wwid", "eui.0025388b91b2c3d4  \n");
	fx_write(root, ATA_SCSI "/wwid", "naa.5000c500a1b2c3d4\n");
	check_devices(root, wwids, ROWS(wwids));
}

/* A LUKS stick: dm-0 over sdb1. Its dirty data sits on dm-0's bdi; it is
 * as removable and rotational as the stick, on its bus. Each device has a
 * stable identity for device memory, best first. */
#define DM0_DISK "/sys/devices/virtual/block/dm-0"
#define DM1_DISK "/sys/devices/virtual/block/dm-1"
static void test_sysfs_stacked_and_identity(void **state)
{
	static const struct fx_disk dm0 = { .name = "dm-0", .devpath = DM0_DISK, .dev = "254:0",
					    .size = "2040000" };
	static const struct fx_disk dm1 = { .name = "dm-1", .devpath = DM1_DISK, .dev = "254:1",
					    .size = "2030000" };
	static const struct dev_row rows[] = {
		{ "8:16, the stick", "8:16",
		  .id = "serial:SanDisk_Cruzer_Blade:4C530001190823115393" },
		{ "8:112, LUN 1 of the stick", "8:112",
		  .id = "serial:SanDisk_Cruzer_Blade:4C530001190823115393:lun1" },
		{ "8:16-fuseblk", "8:16-fuseblk",
		  .id = "fuseblk+serial:SanDisk_Cruzer_Blade:4C530001190823115393" },
		/* the wwid beats the serial */
		{ "259:0, NVMe with a wwid", "259:0", .id = "wwid:eui.0025388b91b2c3d4" },
		{ "259:2, NVMe multipath", "259:2",
		  .id = "serial:WD_BLACK_SN850X_2000GB:23123K800123" },
		{ "7:0, loop", "7:0", .id = "loop:/var/tmp/disk.img:614400" },
		{ "8:0, SATA", "8:0", .id = "model:ATA_ST2000DM008-2FR1:1953525168" },
		{ "btrfs-1", "btrfs-1", .id = "btrfs+model:ATA_Samsung_SSD_870:1953525168" },
		/* a fixed disk: its name */
		{ "202:0, Xen", "202:0", .id = "name:xvda:1953525168" },
		/* its serial, not its name */
		{ "253:0, virtio", "253:0", .id = "serial:-:ZOO0008" },
		{ "254:0, LUKS on the stick", "254:0", .disk = "dm-0", .stacked = IS(true),
		  .removable = IS(true), .rotational = IS(true), .bus = "usb",
		  .model = "luks-stick on SanDisk Cruzer Blade",
		  .id = "dm-uuid:CRYPT-LUKS2-0a1b2c3d-luks-stick" },
		/* LVM on LUKS: two levels down */
		{ "254:1, LVM on LUKS", "254:1", .stacked = IS(true), .removable = IS(true),
		  .bus = "usb", .model = "vg-data on luks-stick on SanDisk Cruzer Blade",
		  .id = "dm-uuid:LVM-AbCdEf" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "stacked");
	fx_full(root);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	/* dm-0: LUKS on sdb1; dm-1: an LVM volume on dm-0 */
	fx_disk_add(root, &dm0);
	fx_write(root, DM0_DISK "/dm/name", "luks-stick\n");
	fx_write(root, DM0_DISK "/dm/uuid", "CRYPT-LUKS2-0a1b2c3d-luks-stick\n");
	fx_link(root, DM0_DISK "/slaves/sdb1", USB_DISK "/sdb1");
	fx_disk_add(root, &dm1);
	fx_write(root, DM1_DISK "/dm/name", "vg-data\n");
	fx_write(root, DM1_DISK "/dm/uuid", "LVM-AbCdEf\n");
	fx_link(root, DM1_DISK "/slaves/dm-0", DM0_DISK);
	fx_bdi(root, "254:0", true);
	fx_bdi(root, "254:1", true);
	fx_write(root, NVME_DISK "/wwid", "eui.0025388b91b2c3d4\n");
	/* LUN 1 of the same USB device (a card reader's second slot), the
	 * same model: a name of its own */
	fx_disk_add(root, &(struct fx_disk){ .name = "sdh", .devpath = USB_DEV "/2-1:1.0/host6/target6:0:0/6:0:0:1/block/sdh",
					     .dev = "8:112", .removable = "1", .devdir = USB_DEV "/2-1:1.0/host6/target6:0:0/6:0:0:1",
					     .vendor = "SanDisk \n", .model = "Cruzer Blade    \n" });
	fx_bdi(root, "8:112", true);

	check_devices(root, rows, ROWS(rows));
}

/* Bus detection must look at where the disk sits under /sys/devices, not at
 * the directory the fixture (or a chroot) happens to live in. */
static void test_bus_ignores_root_prefix(void **state)
{
	static const struct dev_row rows[] = {
		{ "259:0", "259:0", .bus = "nvme" },
		{ "8:0", "8:0", .bus = "ata" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "usbhome");
	fx_disk_add(root, &fx_nvme);
	fx_disk_add(root, &fx_ata);
	fx_bdi(root, "259:0", true);
	fx_bdi(root, "8:0", true);
	check_devices(root, rows, ROWS(rows));
}

static void test_sysfs_facts(void **state)
{
	static const struct dev_row rows[] = {
		/* USB stick: removable, SCSI vendor + model padded with blanks, the
		 * serial from the USB device above the disk (not the root hub's) */
		{ "8:16, a USB stick", "8:16", .bdi = "8:16", .major = IS(8), .minor = IS(16),
		  .removable = IS(true), .rotational = IS(true), .is_fuse = IS(false),
		  .model = "SanDisk Cruzer Blade", .serial = "4C530001190823115393" },
		/* NVMe: model and serial on the controller, no vendor file */
		{ "259:0, NVMe", "259:0", .major = IS(259), .minor = IS(0), .removable = IS(false),
		  .rotational = IS(false), .model = "Samsung SSD 980 PRO 1TB",
		  .serial = "S5GXNX0T123456A" },
		/* SATA disk: the SCSI layer's vendor is "ATA" */
		{ "8:0, SATA", "8:0", .removable = IS(false), .rotational = IS(true),
		  .model = "ATA ST2000DM008-2FR1", .serial = "" },
		/* a serial in device/serial, the model in device/name (an SD card) */
		{ "179:0, an SD card", "179:0", .serial = "0x1234abcd", .model = "SD16G" },
		/* nothing known: empty strings, not garbage */
		{ "202:0, nothing known", "202:0", .model = "", .serial = "", .major = IS(202) },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "facts");
	fx_full(root);
	check_devices(root, rows, ROWS(rows));
}

static void test_sysfs_usb_without_serial(void **state)
{
	/* not the root hub's "0000:00:14.0" */
	static const struct dev_row none[] = { { "8:16", "8:16", .bus = "usb", .serial = "" } };
	/* device/serial beats the USB device's */
	static const struct dev_row dev[] = {
		{ "8:16, device/serial", "8:16", .serial = "DEVSERIAL" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "usbnoserial");
	fx_disk_add(root, &fx_usb);
	fx_usb_device(root, false);
	fx_bdi(root, "8:16", true);
	check_devices(root, none, ROWS(none));

	fx_write(root, USB_SCSI "/serial", "  DEVSERIAL  \n");
	fx_usb_device(root, true);
	check_devices(root, dev, ROWS(dev));
}

static void test_sysfs_bdi_kinds(void **state)
{
	static const char *const absent[] = {
		"0:45", "0:33", "7:1", "abc", "8", "8:16x", "8:16-fuse", "8:99", ":16", "btrfs-7",
		"btrfs-", "", "8:16-fuseblk-x",
	};
	static const struct dev_row rows[] = {
		{ "8:16-fuseblk", "8:16-fuseblk", .is_fuse = IS(true), .bdi = "8:16-fuseblk",
		  .disk = "sdb", .bus = "usb" },
		{ "btrfs-1", "btrfs-1", .bdi = "btrfs-1", .disk = "sdc", .bus = "ata",
		  .model = "ATA Samsung SSD 870", .major = IS(8), .minor = IS(32),
		  .is_fuse = IS(false) },
		{ "btrfs-2", "btrfs-2", .disk = "sda" },
	};
	char root[PATH_MAX];
	struct knobs_dev d;

	(void)state;
	fx_root(root, sizeof(root), "kinds");
	fx_full(root);

	check_devices(root, rows, ROWS(rows));
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		int r = sysfs_device(root, absent[i], &d);
		if (r != -ENOENT)
			fail_msg("sysfs_device(\"%s\") = %d, want -ENOENT", absent[i], r);
	}
}

/* fuseblk names its bdi after the block device it was mounted from
 * (fuse_bdi_init(): "%u:%u-fuseblk" of sb->s_dev), which is nearly always a
 * partition: ntfs-3g on /dev/sdb1 makes "8:17-fuseblk". Its I/O is counted
 * on the whole disk, sdb. */
static void test_sysfs_fuseblk_on_partition(void **state)
{
	static const struct dev_row rows[] = {
		{ "8:17-fuseblk", "8:17-fuseblk", .is_fuse = IS(true), .disk = "sdb",
		  .bus = "usb" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "fusepart");
	fx_disk_add(root, &fx_usb);
	fx_usb_device(root, true);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	fx_bdi(root, "8:16", true);
	fx_bdi(root, "8:17-fuseblk", true);
	check_devices(root, rows, ROWS(rows));
}

/* btrfs lists its members under devices/ by their block device name
 * (btrfs_sysfs_add_device() links bdev_kobj()), a partition when the
 * filesystem is on one: devices/sdc1. */
static void test_sysfs_btrfs_on_partition(void **state)
{
	static const struct dev_row rows[] = {
		{ "btrfs-1 on sda2", "btrfs-1", .disk = "sda", .bus = "ata" },
	};
	char root[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "btrfspart");
	fx_disk_add(root, &fx_ata);
	fx_part_add(root, ATA_DISK, "sda2", "8:2", "2");
	fx_bdi(root, "8:0", true);
	fx_bdi(root, "btrfs-1", true);
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID1 "/bdi", BDI_DIR "btrfs-1");
	fx_link(root, "/sys/fs/btrfs/" BTRFS_UUID1 "/devices/sda2", ATA_DISK "/sda2");
	check_devices(root, rows, ROWS(rows));
}

static void test_sysfs_devices_sorted(void **state)
{
	static const char *const want[] = {
		"179:0", "202:0", "252:0", "253:0", "259:0", "259:2", "7:0",
		"8:0", "8:16", "8:16-fuseblk", "8:32", "btrfs-1", "btrfs-2",
	};
	const int nwant = (int)(sizeof(want) / sizeof(want[0]));
	char root[PATH_MAX];
	struct knobs_dev *out = g_out;
	int n;

	(void)state;
	fx_root(root, sizeof(root), "devices");
	fx_full(root);
	n = sysfs_devices(root, out, FX_MAX_DEV);
	assert_int_equal(n, nwant);
	for (int i = 0; i < n && i < nwant; i++)
		assert_string_equal(out[i].bdi, want[i]);
	/* the detached loop device (size 0) is not there; loop0 is */
	for (int i = 0; i < n; i++)
		assert_string_not_equal(out[i].bdi, "7:1");

	/* at most max */
	n = sysfs_devices(root, out, 3);
	assert_int_equal(n, 3);

	/* and through the ops table (no udev at a fixture root) */
	{
		struct knobs_real kr = { .root = root };
		n = knobs_real_ops.devices(&kr, out, FX_MAX_DEV);
		assert_int_equal(n, nwant);
		assert_string_equal(out[8].bdi, "8:16");
		assert_string_equal(out[8].model, "SanDisk Cruzer Blade");
	}

	/* no /sys/class/bdi at all */
	fx_unlink(root, "/sys/class/bdi");
	assert_int_equal(sysfs_devices(root, out, FX_MAX_DEV), -ENOENT);
}

static void test_sysfs_parse_stat(void **state)
{
	struct knobs_stat st = { 0 };

	(void)state;
	assert_int_equal(sysfs_parse_stat(STAT_LINE, &st), 0);
	assert_int_equal(st.sectors_written, 987654);
	assert_int_equal(st.inflight, 2);
	assert_int_equal(st.io_ticks_ms, 3000);

	/* the 11 fields of kernels before 4.18 */
	assert_int_equal(sysfs_parse_stat("1 2 3 4 5 6 700 8 9 1000 11", &st), 0);
	assert_int_equal(st.sectors_written, 700);
	assert_int_equal(st.inflight, 9);
	assert_int_equal(st.io_ticks_ms, 1000);

	/* counters past 2^32 */
	assert_int_equal(sysfs_parse_stat("0 0 0 0 0 0 123456789012345 0 0 98765432109 0 0 0 0 0 0 0",
					  &st), 0);
	assert_true(st.sectors_written == 123456789012345ULL);
	assert_true(st.io_ticks_ms == 98765432109ULL);
}

static void test_sysfs_parse_stat_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage",
		"1 2 3 4 5 6 7 8 9 10",              /* one field short */
		"1 2 3 4 5 6 seven 8 9 10 11",      /* not a number */
		"1,2,3,4,5,6,7,8,9,10,11",
		"1 2 3 4 5 6 7 8 9 x 11 12 13 14 15 16 17",
	};
	struct knobs_stat st = { .sectors_written = 5, .io_ticks_ms = 6, .inflight = 7 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = sysfs_parse_stat(bad[i], &st);
		if (r != -EINVAL)
			fail_msg("sysfs_parse_stat(\"%s\") = %d, want -EINVAL", bad[i], r);
	}
	assert_int_equal(st.sectors_written, 5);
	assert_int_equal(st.io_ticks_ms, 6);
	assert_int_equal(st.inflight, 7);
}

/* The kernel prints unsigned counters; a minus sign is a corrupt line, and
 * taking it as 2^64 - 1 sectors would feed the meter nonsense. */
static void test_sysfs_parse_stat_negative(void **state)
{
	struct knobs_stat st = { 0 };

	(void)state;
	assert_int_equal(sysfs_parse_stat("1 2 3 4 5 6 -7 8 9 10 11 0 0 0 0 0 0", &st), -EINVAL);
}

/* CapEff's bit `cap` in /proc/self/status: 1, 0, or -1 unread. */
static int cap_eff(int cap)
{
	char line[256];
	unsigned long long v;
	int r = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			r = (int)(v >> cap & 1);
	if (f)
		fclose(f);
	return r;
}

/* A capability given up is gone for good: in a child, CAP_SYS_ADMIN
 * dropped, then neither in CapEff nor to be had back (capset refuses, as
 * a mount namespace does); other capabilities stay. */
static void test_sandbox_drop_cap(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() != 0 || cap_eff(CAP_SYS_ADMIN) != 1) {
		/* not root with it: nothing to give up; the call still works */
		assert_int_equal(sandbox_drop_cap(99), -EINVAL);
		return;
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = sandbox_drop_cap(CAP_SYS_ADMIN) == 0 && cap_eff(CAP_SYS_ADMIN) == 0 &&
			 cap_eff(CAP_DAC_OVERRIDE) == 1 && unshare(CLONE_NEWNS) < 0 && errno == EPERM &&
			 sandbox_drop_cap(-1) == -EINVAL;
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(cap_eff(CAP_SYS_ADMIN), 1);
}

static void test_sysfs_disk_stat(void **state)
{
	char root[PATH_MAX];
	struct knobs_stat st = { 0 };
	struct knobs_dev d;
	struct knobs_real kr = { 0 };

	(void)state;
	fx_root(root, sizeof(root), "stat");
	fx_disk_add(root, &fx_usb);
	fx_bdi(root, "8:16", true);
	assert_int_equal(sysfs_disk_stat(root, "sdb", &st), 0);
	assert_int_equal(st.sectors_written, 987654);
	assert_int_equal(st.io_ticks_ms, 3000);
	assert_int_equal(st.inflight, 2);
	assert_false(st.have_io_errors); /* no device/ioerr_cnt */
	fx_write(root, USB_DISK "/device/ioerr_cnt", "0x1c\n");
	assert_int_equal(sysfs_disk_stat(root, "sdb", &st), 0);
	assert_true(st.have_io_errors);
	assert_int_equal(st.io_errors, 28);
	assert_int_equal(sysfs_disk_stat(root, "sdz", &st), -ENOENT);
	fx_write(root, USB_DISK "/stat", "truncated 1 2\n");
	assert_int_equal(sysfs_disk_stat(root, "sdb", &st), -EINVAL);

	/* through the ops table: the bdi's disk */
	fx_write(root, USB_DISK "/stat", STAT_LINE);
	kr.root = root;
	assert_int_equal(sysfs_device(root, "8:16", &d), 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(knobs_real_ops.dev_stat(&kr, &d, &st), 0);
	assert_int_equal(st.sectors_written, 987654);
}

static void test_sysfs_knob_round_trip(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	uint64_t v = 0;

	(void)state;
	fx_root(root, sizeof(root), "knobs");
	fx_bdi(root, "8:16", true);
	kr.root = root;

	assert_int_equal(sysfs_bdi_read(root, "8:16", BDI_STRICT_LIMIT, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sysfs_bdi_read(root, "8:16", BDI_MAX_RATIO_FINE, &v), 0);
	assert_int_equal(v, 1000000);
	assert_int_equal(sysfs_bdi_read(root, "8:16", BDI_MAX_BYTES, &v), 0);
	assert_int_equal(v, 3355443200ULL);
	assert_int_equal(sysfs_bdi_read(root, "8:16", BDI_MAX_RATIO, &v), 0);
	assert_int_equal(v, 100);

	for (int a = 0; a < BDI_ATTR_COUNT; a++) {
		uint64_t want = 1000 + (uint64_t)a, got = 0;
		char rel[PATH_MAX], text[32];
		assert_int_equal(sysfs_bdi_write(root, "8:16", (enum bdi_attr)a, want), 0);
		assert_int_equal(sysfs_bdi_read(root, "8:16", (enum bdi_attr)a, &got), 0);
		assert_int_equal(got, want);
		fmt_path(rel, sizeof(rel), BDI_DIR "8:16/%s", bdi_attr_names[a]);
		fmt_path(text, sizeof(text), "%llu\n", (unsigned long long)want);
		assert_file(root, rel, text);
	}

	/* through the ops table, and read-compare-write */
	assert_int_equal(knobs_real_ops.bdi_write(&kr, "8:16", BDI_STRICT_LIMIT, 1), 0);
	assert_int_equal(knobs_real_ops.bdi_read(&kr, "8:16", BDI_STRICT_LIMIT, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(knobs_bdi_set(&knobs_real_ops, &kr, "8:16", BDI_STRICT_LIMIT, 1), 0);
	assert_int_equal(knobs_bdi_set(&knobs_real_ops, &kr, "8:16", BDI_STRICT_LIMIT, 0), 1);
	assert_file(root, BDI_DIR "8:16/strict_limit", "0\n");

	/* a bdi that is not there (unplugged): -ENOENT, nothing created */
	assert_int_equal(sysfs_bdi_read(root, "8:32", BDI_STRICT_LIMIT, &v), -ENOENT);
	assert_int_equal(sysfs_bdi_write(root, "8:32", BDI_STRICT_LIMIT, 1), -ENOENT);
	assert_int_equal(knobs_real_ops.bdi_read(&kr, "8:32", BDI_MAX_BYTES, &v), -ENOENT);
	assert_int_equal(knobs_real_ops.bdi_write(&kr, "8:32", BDI_MAX_BYTES, 1), -ENOENT);
	assert_int_equal(knobs_bdi_set(&knobs_real_ops, &kr, "8:32", BDI_STRICT_LIMIT, 1), -ENOENT);
	{
		char p[PATH_MAX];
		fmt_path(p, sizeof(p), "%s/sys/class/bdi/8:32", root);
		assert_int_equal(access(p, F_OK), -1);
	}
}

/* Read-compare-write: a knob already holding the value is not written (the
 * file's mtime stays where the test put it). */
static void test_knobs_set_does_not_rewrite(void **state)
{
	char root[PATH_MAX], p[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct timespec old[2] = { { .tv_sec = 946684800 }, { .tv_sec = 946684800 } };
	struct stat sb;

	(void)state;
	fx_root(root, sizeof(root), "rcw");
	fx_bdi(root, "8:16", true);
	kr.root = root;
	fmt_path(p, sizeof(p), "%s" BDI_DIR "8:16/max_ratio_fine", root);
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	assert_int_equal(knobs_bdi_set(&knobs_real_ops, &kr, "8:16", BDI_MAX_RATIO_FINE, 1000000), 0);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mtime, 946684800);
	assert_int_equal(knobs_bdi_set(&knobs_real_ops, &kr, "8:16", BDI_MAX_RATIO_FINE, 5000), 1);
	assert_int_equal(stat(p, &sb), 0);
	assert_true(sb.st_mtime != 946684800);
}

static void test_sysfs_has_bdi_bytes(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };

	(void)state;
	/* 6.2+: every bdi has strict_limit */
	fx_root(root, sizeof(root), "v62");
	fx_bdi(root, "8:0", true);
	fx_bdi(root, "8:16", true);
	fx_bdi(root, "0:45", true);
	kr.root = root;
	assert_true(sysfs_has_bdi_bytes(root));
	assert_int_equal(knobs_real_ops.features(&kr), KNOBS_BDI_BYTES);

	/* 6.1: max_ratio and min_ratio only */
	fx_root(root, sizeof(root), "v61");
	fx_bdi(root, "8:0", false);
	fx_bdi(root, "8:16", false);
	fx_bdi(root, "0:45", false);
	kr.root = root;
	assert_false(sysfs_has_bdi_bytes(root));
	assert_int_equal(knobs_real_ops.features(&kr), 0);

	/* entries without the knobs (stale links, an odd driver's) beside one
	 * that has them, in whatever order readdir gives: the kernel has them
	 * (judged from the first entry only, the answer hung on that order) */
	fx_root(root, sizeof(root), "mixed");
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof(name), "0:9%d", i);
		fx_bdi(root, name, false);
	}
	fx_bdi(root, "8:16", true);
	assert_true(sysfs_has_bdi_bytes(root));

	/* no bdi at all, no /sys/class/bdi */
	fx_root(root, sizeof(root), "nobdi");
	mkdir_p(root);
	assert_false(sysfs_has_bdi_bytes(root));
	fx_write(root, "/sys/class/bdi/.keep", "");
	assert_false(sysfs_has_bdi_bytes(root));
}

/* debugfs /sys/kernel/debug/bdi/<bdi>/stats (bdi_debug_stats_show()) */
#define BDI_STATS(wb, rc) \
	"BdiWriteback:       " wb " kB\n" \
	"BdiReclaimable:     " rc " kB\n" \
	"BdiDirtyThresh:         123456 kB\n" \
	"DirtyThresh:           1633388 kB\n" \
	"BackgroundThresh:       815672 kB\n" \
	"BdiDirtied:           12345678 kB\n" \
	"BdiWritten:           12340000 kB\n" \
	"BdiWriteBandwidth:      102400 kBps\n" \
	"b_dirty:                     3\n" \
	"b_io:                        0\n" \
	"b_more_io:                   0\n" \
	"b_dirty_time:                0\n" \
	"bdi_list:                    1\n" \
	"state:                       1\n"

static void test_knobs_real_bdi_counters(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		"BdiWriteback:        512 kB\n",                          /* no BdiReclaimable */
		"BdiReclaimable:     2048 kB\n",                          /* no BdiWriteback */
		"BdiWriteback:          x kB\nBdiReclaimable:     2048 kB\n",
		"BdiWriteback:        512 kB\nBdiReclaimable:        kB\n",
		"xBdiWriteback:       512 kB\nBdiReclaimable:     2048 kB\n", /* not at a line's start */
		"BdiWriteback: 18014398509481984 kB\nBdiReclaimable: 1 kB\n",   /* 2^64 bytes */
	};
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct knobs_bdi_counters c = { 7, 7, 7 };

	(void)state;
	fx_root(root, sizeof(root), "debugfs");
	kr.root = root;
	/* no debugfs mounted */
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), -ENOTSUP);
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats", BDI_STATS("       512", "      2048"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.writeback, 512 * 1024);
	assert_int_equal(c.dirty, 2048 * 1024);
	assert_int_equal(c.thresh, 123456ULL * 1024);
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats", BDI_STATS("         0", "         0"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.dirty, 0);
	assert_int_equal(c.writeback, 0);
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:32", &c), -ENOTSUP);
	c = (struct knobs_bdi_counters){ 7, 7, 7 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r;
		fx_write(root, "/sys/kernel/debug/bdi/8:16/stats", bad[i]);
		r = knobs_real_ops.bdi_counters(&kr, "8:16", &c);
		if (r != -ENOTSUP)
			fail_msg("bdi_counters(case %zu) = %d, want -ENOTSUP", i, r);
	}
	assert_int_equal(c.dirty, 7);
	assert_int_equal(c.writeback, 7);
}

/* The same stats with the bdi's dirty inodes given: b_dirty, b_io,
 * b_more_io */
#define BDI_STATS_LISTS(wb, rc, d, io, more) \
	"BdiWriteback:       " wb " kB\n" \
	"BdiReclaimable:     " rc " kB\n" \
	"BdiDirtyThresh:            512 kB\n" \
	"b_dirty:            " d "\n" \
	"b_io:               " io "\n" \
	"b_more_io:          " more "\n" \
	"b_dirty_time:                0\n"

/* The per-CPU counters, read without summing, show up to wb_stat_error
 * pages on an idle bdi (2 CPUs: 2 x 16 pages, 128 KiB): nothing dirty
 * when no inode of the bdi is, no writeback within the error when its disk
 * has no request in flight; beyond the error, or with a dirty inode or a
 * request in flight, the figures as the kernel gives them. */
static void test_knobs_real_bdi_counters_exact(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct knobs_bdi_counters c;
	const char *st = "/sys/kernel/debug/bdi/8:16/stats";

	(void)state;
	fx_root(root, sizeof(root), "debugfs-exact");
	kr.root = root;
	fx_write(root, "/sys/devices/system/cpu/possible", "0-1\n");
	fx_write(root, "/sys/dev/block/8:16/inflight", "       0        0\n");
	/* an idle stick: 64 KiB dirty and 96 KiB under writeback, per-CPU */
	fx_write(root, st, BDI_STATS_LISTS("   96", "   64", "0", "0", "0"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.dirty, 0);
	assert_int_equal(c.writeback, 0);
	/* a dirty inode (on any of the three lists): the dirty figure stands */
	fx_write(root, st, BDI_STATS_LISTS("   96", "   64", "0", "1", "0"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.dirty, 64 * 1024);
	fx_write(root, st, BDI_STATS_LISTS("   96", "   64", "0", "0", "2"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.dirty, 64 * 1024);
	/* a request in flight: the writeback figure stands */
	fx_write(root, "/sys/dev/block/8:16/inflight", "       0        1\n");
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.writeback, 96 * 1024);
	/* beyond the error (128 KiB): as given, lists or not */
	fx_write(root, "/sys/dev/block/8:16/inflight", "       0        0\n");
	fx_write(root, st, BDI_STATS_LISTS("  132", "  132", "0", "0", "0"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.dirty, 132 * 1024);
	assert_int_equal(c.writeback, 132 * 1024);
	/* no disk under the bdi (btrfs-1): its writeback is not known to be
	 * idle */
	fx_write(root, "/sys/kernel/debug/bdi/btrfs-1/stats", BDI_STATS_LISTS("   96", "   64", "0", "0", "0"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "btrfs-1", &c), 0);
	assert_int_equal(c.dirty, 0);
	assert_int_equal(c.writeback, 96 * 1024);
}

/* Before Linux 6.10 debugfs shows a bdi's root wb alone: with cgroup
 * writeback in force (cgroup v2 with memory and io), a user's dirty data is
 * in a wb of its cgroup's and the figures are not the bdi's: none, then.
 * From 6.10 (every wb summed), or without cgroup writeback, they are. */
/* Where labels and UUIDs come from without udevd: the device nodes, or
 * none where /dev has no node for a disk sysfs lists (a private /dev, as a
 * unit's PrivateDevices= makes) */
static void test_fsid_source(void **state)
{
	char root[PATH_MAX], disk[64] = "";

	(void)state;
	fx_root(root, sizeof(root), "fsid-source");
	fx_disk_add(root, &fx_usb);
	assert_int_equal(fsid_source(root, disk, sizeof(disk)), FSID_HIDDEN);
	assert_string_equal(disk, "sdb");
	fx_write(root, "/dev/sdb", "");
	assert_int_equal(fsid_source(root, disk, sizeof(disk)), FSID_PROBE);
}

static void test_knobs_real_root_wb_only(void **state)
{
	static const struct {
		const char *release, *controllers;
		bool used;
	} cases[] = {
		{ "6.1.0-40-amd64\n", "cpuset cpu io memory hugetlb pids rdma misc\n", false },
		{ "6.9.12-amd64\n", "cpu memory io\n", false },
		{ "6.10.1\n", "cpuset cpu io memory pids\n", true },
		{ "6.12.57+deb13-amd64\n", "cpuset cpu io memory pids\n", true },
		{ "6.1.0-40-amd64\n", "cpuset cpu memory pids\n", true }, /* no io */
		{ "6.1.0-40-amd64\n", "cpuset cpu io pids\n", true },     /* no memory */
		{ "6.1.0-40-amd64\n", NULL, true },                       /* not cgroup2 there */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char root[PATH_MAX], name[32];
		struct knobs_real kr = { 0 };
		struct knobs_bdi_counters c;
		int r;

		snprintf(name, sizeof(name), "wb-scope-%zu", i);
		fx_root(root, sizeof(root), name);
		kr.root = root;
		fx_write(root, "/proc/sys/kernel/osrelease", cases[i].release);
		if (cases[i].controllers)
			fx_write(root, "/sys/fs/cgroup/cgroup.controllers", cases[i].controllers);
		fx_write(root, "/sys/kernel/debug/bdi/8:16/stats", BDI_STATS("       512", "      2048"));
		assert_int_equal(debugfs_root_wb_only(root), !cases[i].used);
		r = knobs_real_ops.bdi_counters(&kr, "8:16", &c);
		if (r != (cases[i].used ? 0 : -ENOTSUP))
			fail_msg("case %zu (%s): bdi_counters %d", i, cases[i].release, r);
	}
}

/* 7.0-rc1 to rc6, and no other release, is the kernel whose
 * balance_dirty_pages() starts no writeback for a strict-limited writer:
 * knobs_real's features() says KNOBS_BDP_NO_START there alone. */
static void test_kernel_stalls_strict(void **state)
{
	static const struct {
		const char *release;
		bool stalls;
	} cases[] = {
		{ "7.0.0-rc1\n", true },	   { "7.0.0-rc6-amd64\n", true }, { "7.0-rc3\n", true },
		{ "7.0.0-rc7\n", false },	   { "7.0.0\n", false },	    { "7.0.0-1-amd64\n", false },
		{ "7.0.0-rc10\n", false },  { "7.1.0-rc2\n", false },	    { "6.18.44\n", false },
		{ "6.0.0-rc3\n", false },   { "7.0.1-rc1\n", false },	    { "garbage\n", false },
	};
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_root(root, sizeof(root), "stalls-strict");
		kr.root = root;
		fx_write(root, "/proc/sys/kernel/osrelease", cases[i].release);
		if (procfs_kernel_stalls_strict(root) != cases[i].stalls ||
		    !!(knobs_real_ops.features(&kr) & KNOBS_BDP_NO_START) != cases[i].stalls)
			fail_msg("osrelease %s: stalls %d", cases[i].release, procfs_kernel_stalls_strict(root));
	}
	fx_root(root, sizeof(root), "stalls-strict-none");
	assert_false(procfs_kernel_stalls_strict(root));
}

/* A debugfs mount of wbgovd's own is read through its descriptor, not
 * through ROOT/sys/kernel/debug (where nothing is mounted): a directory's
 * descriptor stands for the detached mount here. */
static void test_knobs_real_own_debugfs(void **state)
{
	char root[PATH_MAX], own[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct knobs_bdi_counters c;
	int fd;

	(void)state;
	fx_root(root, sizeof(root), "own-debugfs");
	fmt_path(own, sizeof(own), "%s/mnt", root);
	fx_write(own, "/bdi/8:16/stats", BDI_STATS("       512", "      2048"));
	kr.root = root;
	assert_false(debugfs_mounted(root));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), -ENOTSUP);
	fd = open(own, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	kr.debugfs_fd1 = fd + 1;
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:16", &c), 0);
	assert_int_equal(c.writeback, 512 * 1024);
	assert_int_equal(c.dirty, 2048 * 1024);
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:32", &c), -ENOTSUP);
	/* the path under root is not looked at while the descriptor is there */
	fx_write(root, "/sys/kernel/debug/bdi/8:32/stats", BDI_STATS("         1", "         1"));
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:32", &c), -ENOTSUP);
	knobs_real_close(&kr);
	assert_int_equal(kr.debugfs_fd1, 0);
	assert_int_equal(fcntl(fd, F_GETFD), -1); /* closed */
	assert_int_equal(knobs_real_ops.bdi_counters(&kr, "8:32", &c), 0);
}

static uint64_t limit_of(const struct knobs_limit *l, int n, unsigned major, unsigned minor)
{
	for (int i = 0; i < n; i++)
		if (l[i].major == major && l[i].minor == minor)
			return l[i].bps;
	return 0;
}

/* The write limits of blkio.throttle.write_bps_device (v1) and io.max (v2),
 * the smallest per device; anything malformed skipped. */
static void test_iolimit_parse(void **state)
{
	struct knobs_limit l[4];
	int n = 0;

	(void)state;
	iolimit_parse_v1("7:32 1000000\n7:33 2000000\n8:0 0\nx 5\n7:34 12ab\n7:35  7\n7:36 9\n"
			 ":1 4\n1: 4\n7:32 3000000\n7:37 99999999999999999999999\n",
			 l, &n, 4);
	assert_int_equal(n, 3);
	assert_int_equal(limit_of(l, n, 7, 32), 1000000); /* the smaller of two */
	assert_int_equal(limit_of(l, n, 7, 33), 2000000);
	assert_int_equal(limit_of(l, n, 7, 36), 9);
	/* a fourth device fits, a fifth is not added */
	iolimit_parse_v2("8:16 rbps=max wbps=500000 riops=max wiops=max\n"
			 "8:32 rbps=100 wbps=max riops=max wiops=10\n"
			 "7:33 rbps=max wbps=1500000 riops=max wiops=max\n"
			 "8:48 wbps=7x rbps=max\n"
			 "8:64 rbps=1 wbps=1\n",
			 l, &n, 4);
	assert_int_equal(n, 4);
	assert_int_equal(limit_of(l, n, 8, 16), 500000);
	assert_int_equal(limit_of(l, n, 8, 32), 0);       /* wbps=max: no write limit */
	assert_int_equal(limit_of(l, n, 7, 33), 1500000); /* below v1's 2000000 */
	assert_int_equal(limit_of(l, n, 8, 64), 0);       /* no room */
	n = 0;
	iolimit_parse_v2("", l, &n, 4);
	iolimit_parse_v2("8:16", l, &n, 4);
	iolimit_parse_v2("8:16 rbps=5 xwbps=6 wbps=", l, &n, 4);
	assert_int_equal(n, 0);
	iolimit_parse_v2("8:16 rbps=5 riops=max wbps=6", l, &n, 4); /* last, no newline */
	assert_int_equal(n, 1);
	assert_int_equal(l[0].bps, 6);
}

/* The limits of a machine: v1's blkio root (a child's limit holds no
 * writeback there), v2's io.max wherever io is handed down. */
static void test_iolimit_read(void **state)
{
	char root[PATH_MAX];
	struct knobs_limit l[8];
	int n;

	(void)state;
	fx_root(root, sizeof(root), "iolimit");
	fx_write(root, "/proc/self/mountinfo",
		 "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n"
		 "30 22 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
		 "31 22 0:27 / /sys/fs/cgroup/blkio rw,nosuid - cgroup cgroup rw,blkio\n"
		 "32 22 0:28 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n");
	/* nothing there yet: no limit */
	assert_int_equal(iolimit_read(root, l, 8), 0);
	fx_write(root, "/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device", "7:32 1000000\n");
	fx_write(root, "/sys/fs/cgroup/blkio/user/blkio.throttle.write_bps_device", "7:40 100\n");
	fx_write(root, "/sys/fs/cgroup/memory/blkio.throttle.write_bps_device", "7:41 100\n");
	fx_write(root, "/sys/fs/cgroup/cgroup.subtree_control", "cpu io memory\n");
	fx_write(root, "/sys/fs/cgroup/a.slice/cgroup.subtree_control", "io\n");
	fx_write(root, "/sys/fs/cgroup/a.slice/io.max",
		 "8:16 rbps=max wbps=4000000 riops=max wiops=max\n");
	fx_write(root, "/sys/fs/cgroup/a.slice/b.scope/io.max",
		 "8:16 rbps=max wbps=2000000 riops=max wiops=max\n"
		 "8:32 rbps=max wbps=max riops=max wiops=max\n");
	fx_write(root, "/sys/fs/cgroup/a.slice/b.scope/cgroup.subtree_control", "memory\n");
	/* below a cgroup that does not hand io down there is no io.max: a
	 * file there is not read */
	fx_write(root, "/sys/fs/cgroup/a.slice/b.scope/c/io.max", "8:48 wbps=1\n");
	fx_write(root, "/sys/fs/cgroup/d.slice/io.max",
		 "7:32 rbps=max wbps=3000000 riops=max wiops=max\n");
	n = iolimit_read(root, l, 8);
	assert_int_equal(n, 2);
	assert_int_equal(limit_of(l, n, 7, 32), 1000000);
	assert_int_equal(limit_of(l, n, 8, 16), 2000000);
	/* room for one: one filled */
	assert_int_equal(iolimit_read(root, l, 1), 1);
	/* the root does not hand io down: none of v2's */
	fx_write(root, "/sys/fs/cgroup/cgroup.subtree_control", "cpu memory\n");
	n = iolimit_read(root, l, 8);
	assert_int_equal(n, 1);
	assert_int_equal(limit_of(l, n, 7, 32), 1000000);
	/* no mount table: an error, not "no limit" */
	fx_unlink(root, "/proc/self/mountinfo");
	assert_true(iolimit_read(root, l, 8) < 0);
}

/* A loop device is as slow as the disk under its backing file. The file's
 * st_dev comes from the real filesystem the fixture lives on, so which
 * branch runs depends on it: an anonymous device (major 0) is taken for
 * memory, a block device is looked up under the fixture's /sys/dev/block. */
static void test_sysfs_loop_backing_facts(void **state)
{
	static const struct fx_disk loop0 = {
		.name = "loop0", .devpath = LOOP0_DISK, .dev = "7:0", .size = "614400",
		.rotational = "1",
	};
	char root[PATH_MAX], file[PATH_MAX], devnum[32];
	struct knobs_dev d;
	struct stat sb;

	(void)state;
	fx_root(root, sizeof(root), "loopback");
	fx_disk_add(root, &loop0);
	fx_bdi(root, "7:0", true);
	fx_write(root, LOOP0_DISK "/loop/backing_file", "/images/disk.img\n");

	/* the backing file is not reachable: the loop queue's own facts */
	assert_int_equal(sysfs_device(root, "7:0", &d), 0);
	assert_string_equal(d.model, "loop on /images/disk.img");
	assert_true(d.rotational);
	assert_false(d.removable);
	assert_true(d.stacked);

	fx_write(root, "/images/disk.img", "");
	fmt_path(file, sizeof(file), "%s/images/disk.img", root);
	assert_int_equal(stat(file, &sb), 0);
	if (major(sb.st_dev) == 0) {
		assert_int_equal(sysfs_device(root, "7:0", &d), 0);
		assert_false(d.rotational);
		assert_false(d.removable);
		return;
	}
	/* the file is on a partition of a USB stick: the stick's facts */
	fmt_path(devnum, sizeof(devnum), "%u:%u", major(sb.st_dev), minor(sb.st_dev));
	fx_disk_add(root, &fx_usb);
	fx_part_add(root, USB_DISK, "sdb1", devnum, "1");
	fx_write(root, LOOP0_DISK "/queue/rotational", "0\n");
	assert_int_equal(sysfs_device(root, "7:0", &d), 0);
	assert_true(d.rotational);
	assert_true(d.removable);
	assert_string_equal(d.bus, "loop");
	assert_string_equal(d.model, "loop on /images/disk.img");
}

/* ------------------------------------------------------------- procfs */

#define MEMINFO \
	"MemTotal:       16318276 kB\n" \
	"MemFree:         9251224 kB\n" \
	"MemAvailable:   12710040 kB\n" \
	"Buffers:          254780 kB\n" \
	"Cached:          3521512 kB\n" \
	"Active(file):    1624600 kB\n" \
	"Inactive(file):  1900128 kB\n" \
	"Dirty:             34816 kB\n" \
	"Writeback:          1024 kB\n" \
	"AnonPages:       2570064 kB\n" \
	"WritebackTmp:          0 kB\n" \
	"CommitLimit:    12376460 kB\n" \
	"HugePages_Total:       0\n"

static void test_procfs_parse_meminfo(void **state)
{
	uint64_t dirty = 1, wb = 1;

	(void)state;
	assert_int_equal(procfs_parse_meminfo(MEMINFO, &dirty, &wb), 0);
	assert_int_equal(dirty, 34816ULL * 1024);
	assert_int_equal(wb, 1024ULL * 1024);
	/* zero is a value */
	assert_int_equal(procfs_parse_meminfo("MemTotal: 1 kB\nDirty: 0 kB\nWriteback: 0 kB\n", &dirty, &wb), 0);
	assert_int_equal(dirty, 0);
	assert_int_equal(wb, 0);
}

static void test_procfs_parse_meminfo_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		/* Dirty missing */
		"MemTotal: 16318276 kB\nWriteback: 1024 kB\n",
		/* Writeback missing: WritebackTmp is another field */
		"MemTotal: 16318276 kB\nDirty: 34816 kB\nWritebackTmp: 0 kB\n",
		/* a field that only starts like Dirty */
		"MemTotal: 1 kB\nDirtyish: 5 kB\nWriteback: 1 kB\n",
		/* no number */
		"MemTotal: 1 kB\nDirty: kB\nWriteback: 1 kB\n",
		"MemTotal: 1 kB\nDirty: lots kB\nWriteback: 1 kB\n",
		"MemTotal: 1 kB\nDirty: 1 kB\nWriteback:\n",
		/* a sign, and kB whose bytes do not fit in 64 bits */
		"MemTotal: 1 kB\nDirty: -1 kB\nWriteback: 1 kB\n",
		"MemTotal: 1 kB\nDirty: 18014398509481984 kB\nWriteback: 1 kB\n",
	};
	uint64_t dirty = 11, wb = 22;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = procfs_parse_meminfo(bad[i], &dirty, &wb);
		if (r != -EINVAL)
			fail_msg("procfs_parse_meminfo(case %zu) = %d, want -EINVAL", i, r);
	}
	assert_int_equal(dirty, 11);
	assert_int_equal(wb, 22);
}

static void test_procfs_meminfo_file(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	uint64_t dirty = 0, wb = 0;

	(void)state;
	fx_root(root, sizeof(root), "meminfo");
	kr.root = root;
	assert_int_equal(procfs_meminfo(root, &dirty, &wb), -ENOENT);
	fx_write(root, "/proc/meminfo", MEMINFO);
	assert_int_equal(procfs_meminfo(root, &dirty, &wb), 0);
	assert_int_equal(dirty, 34816ULL * 1024);
	assert_int_equal(wb, 1024ULL * 1024);
	/* Dirty on the first line matches too */
	fx_write(root, "/proc/meminfo", "Dirty: 8 kB\nWriteback: 4 kB\n");
	assert_int_equal(procfs_meminfo(kr.root, &dirty, &wb), 0);
	assert_int_equal(dirty, 8192);
	assert_int_equal(wb, 4096);
	fx_write(root, "/proc/meminfo", "MemTotal: 1 kB\n");
	assert_int_equal(procfs_meminfo(root, &dirty, &wb), -EINVAL);
}

#define VMSTAT_DIRTY "nr_free_pages 3000000\nnr_dirty 8704\nnr_writeback 256\n" \
	"nr_writeback_temp 0\nnr_dirtied 100000\nnr_written 90000\nnr_throttled_written 0\n"
#define VMSTAT_CLEAN "nr_dirty 0\nnr_writeback 0\nnr_dirtied 100000\nnr_written 100000\n"

static void test_procfs_vmstat(void **state)
{
	static const char *const bad[] = {
		"",
		"nr_dirty 1\nnr_writeback 2\nnr_dirtied 3\n",          /* no nr_written */
		"nr_dirty -1\nnr_writeback 2\nnr_dirtied 3\nnr_written 4\n",
		"nr_dirty 1x\nnr_writeback 2\nnr_dirtied 3\nnr_written 4\n",
		"nr_dirty 99999999999999999999\nnr_writeback 2\nnr_dirtied 3\nnr_written 4\n",
		"nr_dirty 4503599627370496\nnr_writeback 2\nnr_dirtied 3\nnr_written 4\n", /* x4096 wraps */
	};
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct knobs_vmstat v = { 7, 7, 7, 7 };

	(void)state;
	assert_int_equal(procfs_parse_vmstat(VMSTAT_DIRTY, 4096, &v), 0);
	assert_int_equal(v.dirty, 8704ULL * 4096);
	assert_int_equal(v.writeback, 256ULL * 4096);
	assert_int_equal(v.dirtied, 100000ULL * 4096);
	assert_int_equal(v.written, 90000ULL * 4096);
	/* nr_dirty_threshold and the like do not stand for nr_dirty */
	assert_int_equal(procfs_parse_vmstat("nr_dirty_threshold 5\nnr_dirty 1\nnr_writeback 2\n"
					     "nr_dirtied 3\nnr_written 4", 4096, &v), 0);
	assert_int_equal(v.dirty, 4096);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v.dirty = 7;
		if (procfs_parse_vmstat(bad[i], 4096, &v) != -EINVAL)
			fail_msg("vmstat case %zu accepted", i);
		assert_int_equal(v.dirty, 7);
	}
	fx_root(root, sizeof(root), "vmstat");
	kr.root = root;
	assert_int_equal(knobs_real_ops.vmstat(&kr, &v), -ENOENT);
	fx_write(root, "/proc/vmstat", VMSTAT_CLEAN);
	assert_int_equal(knobs_real_ops.vmstat(&kr, &v), 0);
	assert_int_equal(v.dirty, 0);
	/* kept open, and read from the start each time */
	assert_int_not_equal(kr.vmstat_fd1, 0);
	{
		int fd1 = kr.vmstat_fd1;
		char p[PATH_MAX];
		FILE *f;
		fmt_path(p, sizeof(p), "%s/proc/vmstat", root);
		assert_non_null(f = fopen(p, "r+"));
		fputs(VMSTAT_DIRTY, f); /* the same file, rewritten in place */
		fclose(f);
		assert_int_equal(knobs_real_ops.vmstat(&kr, &v), 0);
		assert_int_equal(v.dirty, 8704ULL * 4096);
		assert_int_equal(kr.vmstat_fd1, fd1);
	}
	knobs_real_close(&kr);
	assert_int_equal(kr.vmstat_fd1, 0);
}

static void fx_vm(const char *root, uint64_t ratio, uint64_t bg_ratio, uint64_t bytes, uint64_t bg_bytes)
{
	char v[32];

	fmt_path(v, sizeof(v), "%llu\n", (unsigned long long)ratio);
	fx_write(root, "/proc/sys/vm/dirty_ratio", v);
	fmt_path(v, sizeof(v), "%llu\n", (unsigned long long)bg_ratio);
	fx_write(root, "/proc/sys/vm/dirty_background_ratio", v);
	fmt_path(v, sizeof(v), "%llu\n", (unsigned long long)bytes);
	fx_write(root, "/proc/sys/vm/dirty_bytes", v);
	fmt_path(v, sizeof(v), "%llu\n", (unsigned long long)bg_bytes);
	fx_write(root, "/proc/sys/vm/dirty_background_bytes", v);
	fx_write(root, "/proc/sys/vm/dirty_expire_centisecs", "3000\n");
	fx_write(root, "/proc/sys/vm/dirty_writeback_centisecs", "500\n");
}

static void test_procfs_vm(void **state)
{
	static const uint64_t want[VM_KNOB_COUNT] = {
		[VM_DIRTY_RATIO] = 20, [VM_DIRTY_BACKGROUND_RATIO] = 10, [VM_DIRTY_BYTES] = 0,
		[VM_DIRTY_BACKGROUND_BYTES] = 0, [VM_DIRTY_EXPIRE_CENTISECS] = 3000,
		[VM_DIRTY_WRITEBACK_CENTISECS] = 500,
	};
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	uint64_t v;

	(void)state;
	fx_root(root, sizeof(root), "vm");
	fx_vm(root, 20, 10, 0, 0);
	kr.root = root;
	for (int k = 0; k < VM_KNOB_COUNT; k++) {
		assert_int_equal(procfs_vm_read(root, (enum vm_knob)k, &v), 0);
		assert_int_equal(v, want[k]);
	}
	assert_int_equal(procfs_vm_write(root, VM_DIRTY_BYTES, 268435456), 0);
	assert_file(root, "/proc/sys/vm/dirty_bytes", "268435456\n");
	assert_int_equal(procfs_vm_read(root, VM_DIRTY_BYTES, &v), 0);
	assert_int_equal(v, 268435456);
	assert_int_equal(knobs_real_ops.vm_write(&kr, VM_DIRTY_BACKGROUND_BYTES, 67108864), 0);
	assert_int_equal(knobs_real_ops.vm_read(&kr, VM_DIRTY_BACKGROUND_BYTES, &v), 0);
	assert_int_equal(v, 67108864);
	assert_int_equal(knobs_vm_set(&knobs_real_ops, &kr, VM_DIRTY_BACKGROUND_BYTES, 67108864), 0);

	fx_unlink(root, "/proc/sys/vm/dirty_ratio");
	assert_int_equal(procfs_vm_read(root, VM_DIRTY_RATIO, &v), -ENOENT);
	assert_int_equal(procfs_vm_write(root, VM_DIRTY_RATIO, 20), -ENOENT);
	fx_write(root, "/proc/sys/vm/dirty_expire_centisecs", "thirty\n");
	assert_int_equal(procfs_vm_read(root, VM_DIRTY_EXPIRE_CENTISECS, &v), -EINVAL);
}

#define MOUNT_FORGED \
	"306 22 0:61 / /media/user/forged rw,nosuid,nodev - fuse.vfat /dev/sdb1 rw,user_id=1000\n"

/* Disks with partitions, and the mountinfo lines that name them. */
static void fx_mounts(const char *root)
{
	static const struct fx_disk sdc = {
		.name = "sdc", .devpath = ATA2_DISK, .dev = "8:32", .devdir = ATA2_SCSI,
	};

	fx_disk_add(root, &fx_usb);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	fx_part_add(root, USB_DISK, "sdb2", "8:18", "2");
	fx_disk_add(root, &fx_nvme);
	fx_part_add(root, NVME_DISK, "nvme0n1p1", "259:1", "1");
	fx_part_add(root, NVME_DISK, "nvme0n1p2", "259:3", "2");
	fx_disk_add(root, &sdc);
	fx_write(root, "/proc/self/mountinfo",
		 "22 1 259:3 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
		 "23 22 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
		 "24 22 259:1 / /boot/efi rw,relatime shared:29 - vfat /dev/nvme0n1p1 rw,fmask=0077\n"
		 "25 22 0:45 / /mnt/nfs rw,relatime shared:40 - nfs4 server:/export rw,vers=4.2\n"
		 "26 22 0:50 / /tmp rw,nosuid,nodev shared:41 - tmpfs tmpfs rw,size=8159136k\n"
		 "300 22 8:17 / /media/user/My\\040Stick rw,nosuid,nodev,relatime shared:300 - vfat /dev/sdb1 rw,uid=1000\n"
		 "301 22 8:18 / /mnt/back\\134slash\\011tab rw,relatime - ext4 /dev/sdb2 rw\n"
		 "302 22 8:17 /photos /srv/photos rw,relatime shared:300 - vfat /dev/sdb1 rw,uid=1000\n"
		 "303 22 8:32 / /srv/data rw,relatime shared:301 master:7 propagation_from:2 - xfs /dev/sdc rw\n"
		 "304 22 253:0 / /mnt/lvm rw,relatime - ext4 /dev/mapper/vg-data rw\n"
		 "this line is not mountinfo\n"
		 "305 22 8:16 / /mnt/nodash rw,relatime\n"
		 /* a user's FUSE mounts (fusermount3 -o fsname=/dev/sdb1): the
		  * source is theirs to say, the device number the kernel's (0:N) */
		 MOUNT_FORGED
		 "307 22 0:62 / /home/user/fake\\040stick rw,nosuid,nodev - fuse /dev/sdb rw,user_id=1000\n"
		 "308 22 0:63 / /home/user/fakepool rw,nosuid,nodev - fuse.btrfs /dev/sdc rw,user_id=1000\n"
		 "309 22 0:64 / /home/user/ghost rw,nosuid,nodev - fuse /dev/sda rw,user_id=1000\n"
		 /* root's exFAT through FUSE (fuseblk): the partition's own number */
		 "310 22 8:18 / /media/user/EXFAT rw,nosuid,nodev - fuseblk /dev/sdb2 rw,user_id=0\n"
		 /* btrfs: anonymous numbers, so its source (which only root can
		  * give) tells its disk */
		 "311 22 0:65 / /mnt/pool rw,relatime - btrfs /dev/sdc rw,subvolid=5,subvol=/\n"
		 "312 22 0:65 /home /mnt/pool-home rw,relatime - btrfs /dev/sdc rw,subvolid=256,subvol=/home\n");
}

/* The list's mount points joined by '|' (which none of them holds). */
static const char *ml_str(const struct mount_list *l)
{
	static char buf[4096];

	mount_list_join(l, "|", buf, sizeof(buf));
	return buf;
}

static void test_procfs_mounts(void **state)
{
	char root[PATH_MAX], buf[16];
	struct mount_list l;
	const char *m;

	(void)state;
	fx_root(root, sizeof(root), "mounts");
	fx_mounts(root);

	/* partitions count for their disk; \040 \134 \011 unescaped, each
	 * mount point whole, blanks and all */
	assert_int_equal(procfs_mounts(root, "sdb", &l), 4);
	assert_int_equal(l.n, 4);
	assert_false(l.truncated);
	m = mount_list_next(&l, NULL);
	assert_string_equal(m, "/media/user/My Stick");
	m = mount_list_next(&l, m);
	assert_string_equal(m, "/mnt/back\\slash\ttab");
	m = mount_list_next(&l, m);
	assert_string_equal(m, "/srv/photos");
	m = mount_list_next(&l, m);
	assert_string_equal(m, "/media/user/EXFAT"); /* fuseblk: the partition's number */
	assert_null(mount_list_next(&l, m));
	/* each with its mount id and device number, for root to check */
	assert_int_equal(l.id[0], 300);
	assert_true(l.dev[0] == makedev(8, 17));
	assert_int_equal(l.id[1], 301);
	assert_true(l.dev[1] == makedev(8, 18));
	assert_int_equal(l.id[3], 310);
	assert_int_equal(procfs_mounts(root, "sdb", NULL), 4); /* only counted */

	assert_int_equal(procfs_mounts(root, "nvme0n1", &l), 2);
	assert_string_equal(ml_str(&l), "/|/boot/efi");

	/* a whole disk without a partition table, and the btrfs on it (by its
	 * source: type "btrfs" exactly), each subvolume mount */
	assert_int_equal(procfs_mounts(root, "sdc", &l), 3);
	assert_string_equal(ml_str(&l), "/srv/data|/mnt/pool|/mnt/pool-home");
	assert_true(l.dev[1] == makedev(0, 65));

	/* a FUSE mount whose source names a disk is not that disk's, whatever
	 * its type: fsname= and subtype= are the user's */
	assert_int_equal(procfs_mounts(root, "sda", &l), 0);
	fx_disk_add(root, &fx_ata); /* sda there or not */
	assert_int_equal(procfs_mounts(root, "sda", &l), 0);
	assert_null(strstr(ml_str(&l), "forged"));

	/* a partition is not a disk of its own; unknown disks have none */
	assert_int_equal(procfs_mounts(root, "sdb1", &l), 0);
	assert_null(mount_list_next(&l, NULL));
	assert_string_equal(ml_str(&l), "");
	assert_int_equal(procfs_mounts(root, "sdz", &l), 0);

	/* joined into a short buffer: cut and terminated */
	assert_int_equal(procfs_mounts(root, "sdb", &l), 4);
	memset(buf, 'x', sizeof(buf));
	mount_list_join(&l, ", ", buf, 10);
	assert_string_equal(buf, "/media/us");
	assert_int_equal(buf[10], 'x');

	/* the table read once answers for every disk as procfs_mounts does */
	{
		static const char *const disks[] = { "sdb", "nvme0n1", "sdc", "sda", "sdb1", "sdz" };
		struct mount_table *mt = NULL;
		struct mount_list one;
		assert_int_equal(procfs_mount_table_read(root, &mt), 0);
		for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
			int n = procfs_mounts(root, disks[i], &one);
			char want[4096];
			snprintf(want, sizeof(want), "%s", ml_str(&one));
			assert_int_equal(procfs_mounts_of(mt, disks[i], &l), n);
			assert_string_equal(ml_str(&l), want);
			assert_memory_equal(l.id, one.id, (size_t)n * sizeof(l.id[0]));
			assert_memory_equal(l.dev, one.dev, (size_t)n * sizeof(l.dev[0]));
		}
		procfs_mount_table_free(mt);
	}

	fx_unlink(root, "/proc/self/mountinfo");
	assert_int_equal(procfs_mounts(root, "sdb", &l), -ENOENT);
	assert_int_equal(l.n, 0);
	{
		struct mount_table *mt = NULL;
		assert_int_equal(procfs_mount_table_read(root, &mt), -ENOENT);
		assert_null(mt);
		procfs_mount_table_free(NULL);
	}
}

/* More mount points than the list holds: the list says so, and holds
 * whole ones only. */
static void test_mount_list_full(void **state)
{
	struct mount_list l = { 0 };
	char p[1000];
	int added = 0;

	(void)state;
	memset(p, 'a', sizeof(p) - 1);
	p[0] = '/';
	p[sizeof(p) - 1] = 0;
	while (mount_list_add(&l, p, -1, 0))
		added++;
	assert_int_equal(added, 4); /* 4 x 1000 bytes in 4096 */
	assert_true(l.truncated);
	assert_int_equal(l.n, 4);
	for (const char *m = mount_list_next(&l, NULL); m; m = mount_list_next(&l, m))
		assert_string_equal(m, p);
	assert_true(mount_list_add(&l, "/x", -1, 0)); /* a short one still fits */
	assert_string_equal(ml_str(&l) + strlen(ml_str(&l)) - 3, "|/x");

	/* at most MOUNT_LIST_MAX, each with its id and number */
	memset(&l, 0, sizeof(l));
	for (int i = 0; i < MOUNT_LIST_MAX; i++)
		assert_true(mount_list_add(&l, "/m", i, makedev(8, (unsigned)i)));
	assert_false(l.truncated);
	assert_false(mount_list_add(&l, "/m", 999, 0));
	assert_true(l.truncated);
	assert_int_equal(l.n, MOUNT_LIST_MAX);
	assert_int_equal(l.id[MOUNT_LIST_MAX - 1], MOUNT_LIST_MAX - 1);
	assert_true(l.dev[5] == makedev(8, 5));
}

static void test_procfs_disk_of_path(void **state)
{
	char root[PATH_MAX], file[PATH_MAX], node[PATH_MAX], rel[PATH_MAX], disk[64];
	struct stat sb;

	(void)state;
	fx_root(root, sizeof(root), "diskof");
	fx_disk_add(root, &fx_usb);
	fx_write(root, "/data/file", "x\n");
	fmt_path(file, sizeof(file), "%s/data/file", root);
	assert_int_equal(stat(file, &sb), 0);

	/* the file's filesystem has no block device in the fixture yet */
	assert_int_equal(procfs_disk_of_path(root, file, disk, sizeof(disk)), -ENOENT);

	/* make the file's st_dev a partition of sdb */
	fmt_path(rel, sizeof(rel), "%u:%u", major(sb.st_dev), minor(sb.st_dev));
	fx_part_add(root, USB_DISK, "sdb1", rel, "1");
	assert_int_equal(procfs_disk_of_path(root, file, disk, sizeof(disk)), 0);
	assert_string_equal(disk, "sdb");
	fmt_path(node, sizeof(node), "%s/data", root);
	assert_int_equal(procfs_disk_of_path(root, node, disk, sizeof(disk)), 0);
	assert_string_equal(disk, "sdb");

	fmt_path(node, sizeof(node), "%s/data/missing", root);
	assert_int_equal(procfs_disk_of_path(root, node, disk, sizeof(disk)), -ENOENT);

	/* a /dev node: its rdev, the whole disk as is */
	fmt_path(node, sizeof(node), "%s/dev-sdb", root);
	if (mknod(node, S_IFBLK | 0600, makedev(8, 16)) == 0) {
		assert_int_equal(procfs_disk_of_path(root, node, disk, sizeof(disk)), 0);
		assert_string_equal(disk, "sdb");
	}
}

/* statx's mount id and device number of `path` (not followed) */
static void mount_of(const char *path, int *id, dev_t *dev)
{
	struct statx sx;

	assert_int_equal(statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx), 0);
	assert_true(sx.stx_mask & STATX_MNT_ID);
	*id = (int)sx.stx_mnt_id;
	*dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
}

/* Root opens and unmounts a mount point only along a path with no
 * symbolic link, and only that mount: mountinfo's path is text a user can
 * make lead elsewhere (a directory of theirs renamed, a link left in its
 * place). /proc stands for a mount: nothing here can unmount it (each
 * call is refused before umount2). */
static void test_mountpt(void **state)
{
	char root[PATH_MAX], p[PATH_MAX];
	int id, proc_id, fd;
	dev_t dev, proc_dev;
	struct stat a, b;

	(void)state;
	fx_root(root, sizeof(root), "mountpt");
	fx_write(root, "/real/dir/file", "x\n");
	fmt_path(p, sizeof(p), "%s/real", root);
	assert_int_equal(symlink(p, fmt_path_s(root, "/link")), 0);
	assert_int_equal(symlink("/", fmt_path_s(root, "/slash")), 0);
	assert_int_equal(symlink("/proc", fmt_path_s(root, "/proc")), 0);
	assert_int_equal(symlink("file", fmt_path_s(root, "/real/dir/filelink")), 0);
	assert_int_equal(mkfifo(fmt_path_s(root, "/real/fifo"), 0600), 0);
	mount_of("/proc", &proc_id, &proc_dev);
	fmt_path(p, sizeof(p), "%s/real/dir", root);
	mount_of(p, &id, &dev);

	/* the mount, reached with no link: opened (any directory of it will
	 * do for syncfs), the same directory */
	fd = mountpt_open("/proc", proc_id, proc_dev);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	close(fd);
	assert_int_equal(stat("/proc", &b), 0);
	assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	fd = mountpt_open(p, id, dev);
	assert_true(fd >= 0);
	close(fd);
	{ /* "/": no parent to walk */
		int root_id;
		dev_t root_dev;
		mount_of("/", &root_id, &root_dev);
		fd = mountpt_open("/", root_id, root_dev);
		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(mountpt_open("/", root_id + 1, root_dev), -EXDEV);
	}

	/* a link on the way or at the end: refused, open and unmount alike */
	fmt_path(p, sizeof(p), "%s/slash/proc", root);
	assert_int_equal(mountpt_open(p, proc_id, proc_dev), -ELOOP);
	assert_int_equal(mountpt_unmount(p, proc_id, proc_dev), -ELOOP);
	fmt_path(p, sizeof(p), "%s/proc", root);
	assert_int_equal(mountpt_open(p, proc_id, proc_dev), -ELOOP);
	assert_int_equal(mountpt_unmount(p, proc_id, proc_dev), -ELOOP);
	fmt_path(p, sizeof(p), "%s/link/dir", root);
	assert_int_equal(mountpt_open(p, id, dev), -ELOOP);
	assert_int_equal(mountpt_unmount(p, id, dev), -ELOOP);
	fmt_path(p, sizeof(p), "%s/real/dir/filelink", root);
	assert_int_equal(mountpt_open(p, id, dev), -ELOOP);

	/* another mount than mountinfo said, or another device */
	fmt_path(p, sizeof(p), "%s/real/dir", root);
	assert_int_equal(mountpt_open(p, id + 1, dev), -EXDEV);
	assert_int_equal(mountpt_open(p, id, makedev(major(dev) + 1, minor(dev))), -EXDEV);
	assert_int_equal(mountpt_open("/proc", id, dev), -EXDEV);
	/* the right mount, but not its root: no unmount */
	assert_int_equal(mountpt_unmount(p, id, dev), -EXDEV);
	/* a FIFO is no disk's mount point, and opening it must not block */
	fmt_path(p, sizeof(p), "%s/real/fifo", root);
	assert_int_equal(mountpt_open(p, id, dev), -EXDEV);

	/* not mountinfo's kind of path */
	assert_int_equal(mountpt_unmount("/", proc_id, proc_dev), -EINVAL);
	assert_int_equal(mountpt_unmount("proc", proc_id, proc_dev), -EINVAL);
	assert_int_equal(mountpt_unmount("/tmp/../proc", proc_id, proc_dev), -EINVAL);
	assert_int_equal(mountpt_open("/nonexistent/dir", id, dev), -ENOENT);
	assert_string_equal(mountpt_strerror(-ENOENT), strerror(ENOENT));
	assert_non_null(strstr(mountpt_strerror(-ELOOP), "symbolic link"));
}

/* The sync child: each mount synced and status 0; the first that cannot
 * be opened as mountpt.h says ends it with one line on the error
 * descriptor and -EIO. (An empty list would sync() the whole machine:
 * not here.) */
static void test_sync_mounts(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], want[PATH_MAX + 64], got[PATH_MAX + 64];
	struct mount_list ml;
	int id, fds[2];
	dev_t dev;
	pid_t pid;
	ssize_t n;

	(void)state;
	fx_root(root, sizeof(root), "syncmounts");
	fx_write(root, "/real/file", "x\n");
	fmt_path(p, sizeof(p), "%s/real", root);
	assert_int_equal(symlink(p, fmt_path_s(root, "/link")), 0);
	mount_of(p, &id, &dev);

	memset(&ml, 0, sizeof(ml));
	assert_true(mount_list_add(&ml, p, id, dev));
	assert_true(mount_list_add(&ml, fmt_path_s(root, "/real/file"), -1, 0));
	assert_int_equal(sync_mounts_start(&ml, STDERR_FILENO, "", 0, &pid), 0);
	assert_int_equal(sync_mounts_reap(pid, true), 0);

	memset(&ml, 0, sizeof(ml));
	assert_true(mount_list_add(&ml, p, id, dev));
	fmt_path(p, sizeof(p), "%s/link", root);
	assert_true(mount_list_add(&ml, p, id, dev));
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	assert_int_equal(sync_mounts_start(&ml, fds[1], "wbgov sync: ", 0, &pid), 0);
	close(fds[1]);
	n = read(fds[0], got, sizeof(got) - 1);
	close(fds[0]);
	assert_true(n > 0);
	got[n] = 0;
	snprintf(want, sizeof(want), "wbgov sync: %s: %s\n", p, mountpt_strerror(-ELOOP));
	assert_string_equal(got, want);
	assert_int_equal(sync_mounts_reap(pid, true), -EIO);
	assert_int_equal(sync_mounts_reap(pid, true), -ECHILD);
}

/* As root, in a mount namespace of its own: a tmpfs at DIR/real/mnt is
 * not unmounted through DIR/link/mnt (link -> real), and is unmounted by
 * its own path. Not as root: nothing to run (unit tests run as anyone). */
static void test_mountpt_unmount_real(void **state)
{
	char root[PATH_MAX], real[PATH_MAX], viaLink[PATH_MAX];
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		return;
	fx_root(root, sizeof(root), "mountpt-real");
	fmt_path(real, sizeof(real), "%s/real/mnt", root);
	mkdir_p(real);
	fmt_path(viaLink, sizeof(viaLink), "%s/real", root);
	assert_int_equal(symlink(viaLink, fmt_path_s(root, "/link")), 0);
	fmt_path(viaLink, sizeof(viaLink), "%s/link/mnt", root);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int id;
		dev_t dev;
		struct statx sx;
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			_exit(10);
		if (mount("wbgov-test", real, "tmpfs", 0, "size=64k") < 0)
			_exit(11);
		if (statx(AT_FDCWD, real, 0, STATX_MNT_ID, &sx) < 0)
			_exit(12);
		id = (int)sx.stx_mnt_id;
		dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
		if (mountpt_unmount(viaLink, id, dev) != -ELOOP)
			_exit(13);
		if (statx(AT_FDCWD, real, 0, STATX_MNT_ID, &sx) < 0 || (int)sx.stx_mnt_id != id)
			_exit(14); /* still mounted */
		if (mountpt_unmount(real, id + 1, dev) != -EXDEV)
			_exit(15);
		if (mountpt_unmount(real, id, dev) != 0)
			_exit(16);
		if (statx(AT_FDCWD, real, 0, STATX_MNT_ID, &sx) < 0 || (int)sx.stx_mnt_id == id)
			_exit(17); /* gone */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 10 || WEXITSTATUS(status) == 11)
		return; /* no mount namespace here (a container without CAP_SYS_ADMIN) */
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The command blocks of the two SCSI commands sent before power-off,
 * byte by byte (SBC-3). */
static void test_scsi_cdb(void **state)
{
	static const uint8_t sync10[10] = { 0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t stop[6] = { 0x1b, 0, 0, 0, 0, 0 };
	uint8_t cdb[16];
	char root[PATH_MAX];
	int fd;

	(void)state;
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_cdb(SCSI_SYNCHRONIZE_CACHE, cdb, sizeof(cdb)), 10);
	assert_memory_equal(cdb, sync10, 10);
	assert_int_equal(cdb[10], 0xee); /* nothing past it */
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_cdb(SCSI_STOP_UNIT, cdb, sizeof(cdb)), 6);
	assert_memory_equal(cdb, stop, 6);
	assert_int_equal(cdb[6], 0xee);
	/* too small a buffer: nothing written */
	memset(cdb, 0xee, sizeof(cdb));
	assert_int_equal(scsi_cdb(SCSI_SYNCHRONIZE_CACHE, cdb, 9), 0);
	assert_int_equal(scsi_cdb(SCSI_STOP_UNIT, cdb, 5), 0);
	assert_int_equal(cdb[0], 0xee);
	/* a file is not a SCSI device */
	fx_root(root, sizeof(root), "scsi");
	fx_write(root, "/dev/sdb", "");
	fd = open(fmt_path_s(root, "/dev/sdb"), O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(scsi_send(fd, SCSI_SYNCHRONIZE_CACHE), -ENOTTY);
	close(fd);
}

/* A card reader: USB device 2-1 with two LUNs, sd1 (8:16) and sd2 (8:32),
 * beside an ATA disk; the reader's `remove` powers off both. */
#define RDR_LUN0 USB_DEV "/2-1:1.0/host6/target6:0:0/6:0:0:0"
#define RDR_LUN1 USB_DEV "/2-1:1.0/host6/target6:0:0/6:0:1:1"

static void fx_reader(const char *root)
{
	static const struct fx_disk sd1 = {
		.name = "sd1", .devpath = RDR_LUN0 "/block/sd1", .dev = "8:16", .removable = "1",
		.devdir = RDR_LUN0, .vendor = "Generic-\n", .model = "SD/MMC          \n",
	};
	static const struct fx_disk sd2 = {
		.name = "sd2", .devpath = RDR_LUN1 "/block/sd2", .dev = "8:32", .removable = "1",
		.devdir = RDR_LUN1, .vendor = "Generic-\n", .model = "Micro SD/M2     \n",
	};

	fx_write(root, USB_HUB "/idVendor", "1d6b\n");
	fx_write(root, USB_DEV "/idVendor", "058f\n");
	fx_write(root, USB_DEV "/idProduct", "6366\n");
	fx_write(root, USB_DEV "/2-1:1.0/bInterfaceClass", "08\n");
	fx_write(root, USB_DEV "/remove", "");
	fx_disk_add(root, &sd1);
	fx_disk_add(root, &sd2);
	fx_disk_add(root, &fx_ata);
	fx_bdi(root, "8:0", true);
	fx_bdi(root, "8:16", true);
	fx_bdi(root, "8:32", true);
	fx_write(root, "/proc/meminfo", "MemTotal: 16000000 kB\nDirty: 0 kB\nWriteback: 0 kB\n");
	/* sd2 is mounted; a user's FUSE mount says it is sd1 */
	fx_write(root, "/proc/self/mountinfo",
		 "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		 "40 22 8:32 / /media/user/CARD2 rw,nosuid,nodev shared:2 - vfat /dev/sd2 rw\n"
		 "41 22 0:61 / /media/user/forged rw,nosuid,nodev - fuse.vfat /dev/sd1 rw,user_id=1000\n");
}

/* What powers off with a disk: the other LUNs of its USB device. */
static void test_eject_siblings(void **state)
{
	char root[PATH_MAX], dir[PATH_MAX], attr[PATH_MAX], p[PATH_MAX];
	struct eject_sibling s[4];

	(void)state;
	fx_root(root, sizeof(root), "reader");
	fx_reader(root);
	assert_int_equal(eject_usb_device(root, "sd1", dir, sizeof(dir)), 0);
	fmt_path(p, sizeof(p), "%s%s", root, USB_DEV);
	assert_string_equal(dir, p);
	assert_int_equal(eject_power_kind(root, "sd1", attr, sizeof(attr)), EJECT_POWER_USB);
	fmt_path(p, sizeof(p), "%s%s/remove", root, USB_DEV);
	assert_string_equal(attr, p);

	assert_int_equal(eject_siblings(root, "sd1", s, 4), 1);
	assert_string_equal(s[0].disk, "sd2");
	assert_int_equal(s[0].lun, 1);
	assert_int_equal(eject_siblings(root, "sd2", s, 4), 1);
	assert_string_equal(s[0].disk, "sd1");
	assert_int_equal(s[0].lun, 0);
	assert_int_equal(eject_siblings(root, "sd1", s, 0), 0); /* no room */
	/* not on USB: none, and no USB device */
	assert_int_equal(eject_siblings(root, "sda", s, 4), 0);
	assert_int_equal(eject_usb_device(root, "sda", dir, sizeof(dir)), -ENODEV);
	assert_int_equal(eject_siblings(root, "sdz", s, 4), 0);

	/* sd2's mount is sd2's; the forged one is no one's */
	assert_int_equal(procfs_mounts(root, "sd2", NULL), 1);
	assert_int_equal(procfs_mounts(root, "sd1", NULL), 0);
	/* no node under the fixture root: nothing holds it */
	assert_int_equal(eject_claimable(root, "sd1"), -ENOENT);
}

/* Not a test either: with WBGOV_READER_OUT=DIR, the card reader fixture
 * (fx_reader) for tests/cli/wbgov_eject_fixture.sh. */
static void test_reader_export(void **state)
{
	const char *out = getenv("WBGOV_READER_OUT");

	(void)state;
	if (!out)
		return;
	mkdir_p(out);
	fx_reader(out);
}

/* knobs_real's device list says which disks have a filesystem mounted, from
 * mountinfo (a partition's mount counts for its disk). */
static void test_knobs_real_mounted(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct knobs_dev *out = g_out;
	int n;

	(void)state;
	fx_root(root, sizeof(root), "mounted");
	fx_mounts(root);
	fx_disk_add(root, &fx_ata); /* sda: nothing mounted */
	fx_bdi(root, "8:0", true);
	fx_bdi(root, "8:16", true);
	fx_bdi(root, "8:32", true);
	fx_bdi(root, "259:0", true);
	kr.root = root;
	n = knobs_real_ops.devices(&kr, out, 16);
	assert_int_equal(n, 4);
	assert_string_equal(out[0].bdi, "259:0");
	assert_true(out[0].mounted);
	assert_string_equal(out[1].bdi, "8:0");
	/* sda: only a user's FUSE mount names it (/home/user/ghost) */
	assert_false(out[1].mounted);
	assert_null(knobs_list_next(out[1].mounts, sizeof(out[1].mounts), NULL));
	assert_string_equal(out[2].bdi, "8:16");
	assert_true(out[2].mounted);
	assert_string_equal(out[3].bdi, "8:32");
	assert_true(out[3].mounted);
	/* a [device] mount = rule sees the same: the forged mount points
	 * match no disk, the real ones theirs */
	{
		struct gov_rule rule = { 0 };
		snprintf(rule.match[MATCH_MOUNT], sizeof(rule.match[MATCH_MOUNT]), "/home/user/*");
		for (int i = 0; i < n; i++)
			assert_false(gov_match_key(&rule, MATCH_MOUNT, &out[i]));
		snprintf(rule.match[MATCH_MOUNT], sizeof(rule.match[MATCH_MOUNT]), "/media/user/*");
		assert_true(gov_match_key(&rule, MATCH_MOUNT, &out[2]));
		assert_false(gov_match_key(&rule, MATCH_MOUNT, &out[1]));
		snprintf(rule.match[MATCH_MOUNT], sizeof(rule.match[MATCH_MOUNT]), "/media/user/forged");
		assert_false(gov_match_key(&rule, MATCH_MOUNT, &out[2]));
	}

	fx_unlink(root, "/proc/self/mountinfo");
	n = knobs_real_ops.devices(&kr, out, 16);
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++)
		assert_false(out[i].mounted);
}

/* -------------------------------------------------------------- state */

static void state_path(char *p, size_t len, const char *root)
{
	fmt_path(p, len, "%s/run/wbgov/state", root);
	mkdir_parent(p);
}

static void test_state_round_trip(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], buf[1024];
	struct state st, back = { 0 };

	(void)state;
	fx_root(root, sizeof(root), "state");
	state_path(p, sizeof(p), root);
	memset(&st, 0, sizeof(st));
	assert_int_equal(state_load(p, &back), -ENOENT);

	assert_int_equal(state_put_bdi(&st, "8:16", 0, 1000000, KNOBS_KEEP), 0);
	assert_int_equal(state_put_bdi(&st, "8:17-fuseblk", 1, 10000, KNOBS_KEEP), 0);
	assert_int_equal(state_put_bdi(&st, "btrfs-1", 0, 500000, 20000), 0);
	st.vm_saved = true;
	st.vm[VM_DIRTY_RATIO] = 20;
	st.vm[VM_DIRTY_BACKGROUND_RATIO] = 10;
	st.vm[VM_DIRTY_BYTES] = 0;
	st.vm[VM_DIRTY_BACKGROUND_BYTES] = 0;
	st.vm[VM_DIRTY_EXPIRE_CENTISECS] = 3000;
	st.vm[VM_DIRTY_WRITEBACK_CENTISECS] = 500;
	assert_int_equal(state_save(p, &st), 0);

	/* the documented format, and no temporary left behind */
	fx_read(root, "/run/wbgov/state", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\nbdi 8:16 strict_limit 0 max_ratio_fine 1000000\n"));
	assert_non_null(strstr(buf, "\nbdi 8:17-fuseblk strict_limit 1 max_ratio_fine 10000\n"));
	/* the floor's original where it was recorded; none (an older
	 * wbgovd's line) is left alone at restore */
	assert_non_null(strstr(buf, "\nbdi btrfs-1 strict_limit 0 max_ratio_fine 500000 min_ratio_fine 20000\n"));
	assert_non_null(strstr(buf, "\nvm dirty_ratio 20 dirty_background_ratio 10 dirty_bytes 0 "
				    "dirty_background_bytes 0 dirty_expire_centisecs 3000 "
				    "dirty_writeback_centisecs 500\n"));
	assert_int_equal(buf[0], '#');
	{
		char tmp[PATH_MAX];
		fmt_path(tmp, sizeof(tmp), "%s.tmp", p);
		assert_int_equal(access(tmp, F_OK), -1);
	}

	/* filled anew, whatever it held */
	memset(&back, 0xaa, sizeof(back));
	assert_int_equal(state_load(p, &back), 0);
	assert_int_equal(back.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(back.bdi[i].bdi, st.bdi[i].bdi);
		assert_int_equal(back.bdi[i].strict_limit, st.bdi[i].strict_limit);
		assert_int_equal(back.bdi[i].max_ratio_fine, st.bdi[i].max_ratio_fine);
		assert_int_equal(back.bdi[i].min_ratio_fine, st.bdi[i].min_ratio_fine);
	}
	assert_true(back.vm_saved);
	for (int k = 0; k < VM_KNOB_COUNT; k++)
		assert_int_equal(back.vm[k], st.vm[k]);

	/* bdis only, no vm line */
	st.vm_saved = false;
	assert_int_equal(state_save(p, &st), 0);
	state_free(&back);
	assert_int_equal(state_load(p, &back), 0);
	assert_int_equal(back.n, 3);
	assert_false(back.vm_saved);

	/* comments and blank lines are fine */
	fx_write(root, "/run/wbgov/state", "# hand-edited\n\nbdi 8:0 strict_limit 0 max_ratio_fine 1000000\n");
	state_free(&back);
	assert_int_equal(state_load(p, &back), 0);
	assert_int_equal(back.n, 1);
	assert_string_equal(back.bdi[0].bdi, "8:0");
	state_free(&back);
	state_free(&st);
}

static void test_state_empty_removes_file(void **state)
{
	char root[PATH_MAX], p[PATH_MAX];
	struct state st;

	(void)state;
	fx_root(root, sizeof(root), "stateempty");
	state_path(p, sizeof(p), root);
	memset(&st, 0, sizeof(st));
	assert_int_equal(state_save(p, &st), 0); /* nothing there, nothing to remove */
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(state_put_bdi(&st, "8:16", 0, 1000000, KNOBS_KEEP), 0);
	assert_int_equal(state_save(p, &st), 0);
	assert_int_equal(access(p, F_OK), 0);
	state_del_bdi(&st, "8:16");
	assert_int_equal(st.n, 0);
	assert_int_equal(state_save(p, &st), 0);
	assert_int_equal(access(p, F_OK), -1);
	state_free(&st);
	assert_int_equal(state_load(p, &st), -ENOENT);
}

static void test_state_malformed(void **state)
{
	static const char *const bad[] = {
		"garbage\n",
		"bdi 8:16\n",
		"bdi 8:16 strict_limit 0\n",
		"bdi 8:16 strict_limit x max_ratio_fine 1000000\n",
		"bdi 8:16 max_ratio_fine 1000000 strict_limit 0\n",
		"BDI 8:16 strict_limit 0 max_ratio_fine 1000000\n",
		" bdi 8:16 strict_limit 0 max_ratio_fine 1000000\n",
		"vm\n",
		"vm dirty_ratio 20\n",
		"vm dirty_ratio 20 dirty_background_ratio 10 dirty_bytes 0 dirty_background_bytes 0 "
		"dirty_expire_centisecs 3000\n",
		"vm dirty_background_ratio 10 dirty_ratio 20 dirty_bytes 0 dirty_background_bytes 0 "
		"dirty_expire_centisecs 3000 dirty_writeback_centisecs 500\n",
		"vm dirty_ratio twenty dirty_background_ratio 10 dirty_bytes 0 dirty_background_bytes 0 "
		"dirty_expire_centisecs 3000 dirty_writeback_centisecs 500\n",
		/* a good line, then a bad one */
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000\nnonsense\n",
		/* names that are not one entry of /sys/class/bdi */
		"bdi ../../../../tmp/x/evil strict_limit 0 max_ratio_fine 1\n",
		"bdi .. strict_limit 0 max_ratio_fine 1\n",
		"bdi 8:16/../../x strict_limit 0 max_ratio_fine 1\n",
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000 more\n",
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine\n",
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine -1\n",
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 18446744073709551615\n",
		"bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0 more\n",
	};
	char root[PATH_MAX], p[PATH_MAX];
	struct state st;

	(void)state;
	fx_root(root, sizeof(root), "statebad");
	state_path(p, sizeof(p), root);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r;
		fx_write(root, "/run/wbgov/state", bad[i]);
		r = state_load(p, &st);
		if (r != -EINVAL)
			fail_msg("state_load(\"%s\") = %d, want -EINVAL", bad[i], r);
	}
}

/* Two writers replacing the same file at once, a reader reading it all the
 * while: no save fails, no read sees a part of a file. Each writer's
 * temporary is its own (a shared PATH.tmp let one writer remove or rename
 * the other's half-written file). */
#define SAVES 3000
#define SAVE_BYTES 12000

static int fill_pattern(FILE *f, const void *ctx)
{
	int c = *(const int *)ctx;

	/* "<length>\n" then the body, then "end\n": a part shows */
	fprintf(f, "%d\n", SAVE_BYTES);
	for (int i = 0; i < SAVE_BYTES; i++)
		fputc('a' + (c + i) % 26, f);
	fputs("end\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The temporaries a save cut short left beside a file are removed, and
 * nothing else: another length, a link, a directory, the file itself. */
static void test_file_tmp_sweep(void **state)
{
	char root[PATH_MAX], path[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "sweep");
	fx_write(root, "/d/state", "x\n");
	fx_write(root, "/d/state.tmp.a1B2c3", "half");
	fx_write(root, "/d/state.tmp.Zz9yY8", "half");
	fx_write(root, "/d/state.tmp.abc", "not mkostemp's");
	fx_write(root, "/d/status.tmp.a1B2c3", "another file's");
	mkdir_p(fmt_path_s(root, "/d/state.tmp.dirdir"));
	assert_int_equal(symlink("state", fmt_path_s(root, "/d/state.tmp.lnklnk")), 0);
	fmt_path(path, sizeof(path), "%s/d/state", root);
	assert_int_equal(file_tmp_sweep(path), 2);
	assert_int_equal(access(fmt_path_s(root, "/d/state.tmp.a1B2c3"), F_OK), -1);
	assert_int_equal(access(fmt_path_s(root, "/d/state.tmp.Zz9yY8"), F_OK), -1);
	assert_int_equal(access(fmt_path_s(root, "/d/state"), F_OK), 0);
	assert_int_equal(access(fmt_path_s(root, "/d/state.tmp.abc"), F_OK), 0);
	assert_int_equal(access(fmt_path_s(root, "/d/status.tmp.a1B2c3"), F_OK), 0);
	assert_int_equal(access(fmt_path_s(root, "/d/state.tmp.dirdir"), F_OK), 0);
	assert_int_equal(faccessat(AT_FDCWD, fmt_path_s(root, "/d/state.tmp.lnklnk"), F_OK,
				   AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(file_tmp_sweep(path), 0);
	fmt_path(path, sizeof(path), "%s/nowhere/state", root);
	assert_int_equal(file_tmp_sweep(path), 0);
}

/* 0 for the whole file, 1 for a part, 2 for an error other than ENOENT */
static int read_whole(const char *p)
{
	static char buf[SAVE_BYTES + 64];
	size_t got = 0;
	ssize_t n;
	int fd = open(p, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : 2;
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = 0;
	return atoi(buf) == SAVE_BYTES && got == strlen(buf) && got > 4 &&
	       !strcmp(buf + got - 4, "end\n") ? 0 : 1;
}

static void test_file_replace_concurrent(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], tmp[PATH_MAX];
	int (*const savers[2])(const char *, int (*)(FILE *, const void *), const void *) = {
		file_replace, file_publish,
	};
	struct stat st;
	char why[2][128] = { "", "" };
	volatile int *cnt;

	(void)state;
	/* on tmpfs, as /run/wbgov is: 12000 saves without waiting for a disk
	 * (elsewhere, under the fixture root) */
	fmt_path(g_shm, sizeof(g_shm), "/dev/shm/wbgov-test-XXXXXX");
	if (mkdtemp(g_shm)) {
		fmt_path(root, sizeof(root), "%s", g_shm);
	} else {
		g_shm[0] = 0;
		fx_root(root, sizeof(root), "concurrent");
		mkdir_p(root);
	}
	/* the children's counts: saves failed, reads, reads of a part */
	cnt = mmap(NULL, sizeof(*cnt) * 3, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(cnt != MAP_FAILED);
	for (int k = 0; k < 2; k++) {
		pid_t w[2], rd;
		int status;

		memset((void *)cnt, 0, sizeof(*cnt) * 3);
		fmt_path(p, sizeof(p), "%s/file%d", root, k);
		for (int i = 0; i < 2; i++) {
			w[i] = fork();
			assert_true(w[i] >= 0);
			if (w[i] == 0) {
				for (int n = 0; n < SAVES; n++)
					if (savers[k](p, fill_pattern, &n))
						__atomic_add_fetch(&cnt[0], 1, __ATOMIC_RELAXED);
				_exit(0);
			}
		}
		rd = fork();
		assert_true(rd >= 0);
		if (rd == 0) {
			/* until both writers are done (their parent reaps them) */
			while (kill(w[0], 0) == 0 || kill(w[1], 0) == 0) {
				int r = read_whole(p);
				cnt[1]++;
				cnt[2] += r != 0;
				if (r == 2)
					_exit(1);
			}
			_exit(0);
		}
		for (int i = 0; i < 2; i++) {
			assert_int_equal(waitpid(w[i], &status, 0), w[i]);
			assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		/* zombies answer kill(0): reaped, the reader ends */
		assert_int_equal(waitpid(rd, &status, 0), rd);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		assert_true(cnt[1] > 0);
		if (cnt[0] || cnt[2])
			snprintf(why[k], sizeof(why[k]), "%s: %d saves of %d failed, %d reads of %d saw a part",
				 k ? "file_publish" : "file_replace", cnt[0], 2 * SAVES, cnt[2], cnt[1]);
	}
	munmap((void *)cnt, sizeof(*cnt) * 3);
	if (why[0][0] || why[1][0])
		fail_msg("%s%s%s", why[0], why[0][0] && why[1][0] ? "; " : "", why[1]);
	for (int k = 0; k < 2; k++) {
		fmt_path(p, sizeof(p), "%s/file%d", root, k);
		assert_int_equal(read_whole(p), 0);
		/* mode 0644 whatever the umask */
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0644);
	}
	{
		/* no temporary left behind */
		DIR *d = opendir(root);
		struct dirent *e;
		int n = 0;
		assert_non_null(d);
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				n++;
		closedir(d);
		assert_int_equal(n, 2);
	}
	/* the name an older writer used, taken by a directory, a file of
	 * someone else's or a link: no obstacle, and left alone */
	fmt_path(p, sizeof(p), "%s/in-the-way", root);
	fmt_path(tmp, sizeof(tmp), "%s.tmp", p);
	for (int k = 0; k < 3; k++) {
		int n = k;
		if (k == 0)
			assert_int_equal(mkdir(tmp, 0755), 0);
		else if (k == 1)
			fx_write(root, "/in-the-way.tmp", "theirs\n");
		else
			assert_int_equal(symlink("/etc/passwd", tmp), 0);
		{
			mode_t old = umask(077);
			assert_int_equal(file_publish(p, fill_pattern, &n), 0);
			assert_int_equal(file_replace(p, fill_pattern, &n), 0);
			umask(old);
		}
		assert_int_equal(read_whole(p), 0);
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0644);
		assert_int_equal(lstat(tmp, &st), 0);
		if (k == 0)
			assert_true(S_ISDIR(st.st_mode));
		else if (k == 1)
			assert_file(root, "/in-the-way.tmp", "theirs\n");
		else
			assert_true(S_ISLNK(st.st_mode));
		assert_int_equal(remove(tmp), 0);
	}
}

/* The state directory's lock: exclusive, refused at once while another
 * process holds it, which is named (pid and name, from /proc/locks); let
 * go with the descriptor. */
static void test_pidlock(void **state)
{
	static const char locks[] =
		"1: POSIX  ADVISORY  WRITE 11 fd:01:77 0 EOF\n"
		"2: FLOCK  ADVISORY  READ  12 fd:01:77 0 EOF\n"
		"3: FLOCK  ADVISORY  WRITE 13 fd:02:77 0 EOF\n"
		"4: -> FLOCK  ADVISORY  WRITE 14 fd:01:77 0 EOF\n"
		"5: FLOCK  ADVISORY  WRITE 15 fd:01:78 0 EOF\n"
		"6: FLOCK  ADVISORY  WRITE 16 fd:01:77 0 EOF\n";
	char root[PATH_MAX], p[PATH_MAX], text[64];
	struct pidlock_holder h;
	struct stat st;
	int fd, fd2, pfd[2];
	pid_t child;

	(void)state;
	assert_int_equal(pidlock_parse_locks(locks, makedev(0xfd, 1), 77), 16);
	assert_int_equal(pidlock_parse_locks(locks, makedev(0xfd, 1), 79), 0);
	assert_int_equal(pidlock_parse_locks("garbage\n", makedev(0xfd, 1), 77), 0);
	assert_int_equal(pidlock_parse_locks("", makedev(0xfd, 1), 77), 0);

	fx_root(root, sizeof(root), "pidlock");
	mkdir_p(root);
	fmt_path(p, sizeof(p), "%s/wbgovd.lock", root);
	fd = pidlock_take(p, &h);
	assert_true(fd >= 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* another process holds it: refused at once, the holder named */
	assert_int_equal(pipe(pfd), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct pidlock_holder ch;
		int r = pidlock_take(p, &ch);
		char msg[64];
		pidlock_holder_text(&ch, msg, sizeof(msg));
		_exit(r == -EBUSY && ch.pid == getppid() && write(pfd[1], msg, strlen(msg) + 1) > 0 ?
		      0 : 1);
	}
	{
		int status;
		assert_int_equal(waitpid(child, &status, 0), child);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_true(read(pfd[0], text, sizeof(text)) > 0);
	close(pfd[0]);
	close(pfd[1]);
	{
		char want[64], comm[16];
		assert_int_equal(read_text("/proc/self/comm", comm, sizeof(comm)), 0);
		snprintf(want, sizeof(want), "pid %ld (%s)", (long)getpid(), comm);
		assert_string_equal(text, want);
	}
	/* in the same process too (flock locks the open file, not the
	 * process): a second take is a second holder */
	assert_int_equal(pidlock_take(p, &h), -EBUSY);
	assert_int_equal(h.pid, getpid());
	close(fd);
	fd2 = pidlock_take(p, &h);
	assert_true(fd2 >= 0);
	close(fd2);
	/* not through a link */
	fx_unlink(root, "/wbgovd.lock");
	fx_link(root, "/wbgovd.lock", "/etc/passwd");
	assert_int_equal(pidlock_take(p, &h), -ELOOP);
	h.pid = 0;
	pidlock_holder_text(&h, text, sizeof(text));
	assert_string_equal(text, "another process");
	h.pid = 42;
	h.comm[0] = 0;
	pidlock_holder_text(&h, text, sizeof(text));
	assert_string_equal(text, "pid 42");
}

/* The state directory: ours, writable by no one else, and no one can swap
 * it for a link later: no link on its path, no directory above it that
 * others can change (a sticky one, as /tmp, is fine). */
/* A path's directory and last name, as cp and the metrics file take them. */
static void test_path_split(void **state)
{
	static const struct { const char *path, *dir, *base; } cases[] = {
		{ "a/b", "a", "b" }, { "b", ".", "b" }, { "/b", "/", "b" },
		{ "/x/y z/f.prom", "/x/y z", "f.prom" }, { "dir/", "dir", "" },
	};
	char dir[64];
	const char *base;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		path_split(cases[i].path, dir, sizeof(dir), &base);
		assert_string_equal(dir, cases[i].dir);
		assert_string_equal(base, cases[i].base);
	}
	path_split("a/b", dir, sizeof(dir), NULL);
	assert_string_equal(dir, "a");
}

static void test_dir_of_ours(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], q[PATH_MAX];

	(void)state;
	fx_root(root, sizeof(root), "dirs");
	mkdir_p(root);
	fmt_path(p, sizeof(p), "%s/st", root);
	assert_int_equal(dir_of_ours(p), 0);
	fmt_path(p, sizeof(p), "%s/st/", root);
	assert_int_equal(dir_of_ours(p), 0);
	assert_int_equal(chmod(root, 0777), 0); /* a parent anyone may change */
	fmt_path(p, sizeof(p), "%s/st", root);
	assert_int_equal(dir_of_ours(p), -EPERM);
	assert_int_equal(chmod(root, 01777), 0); /* ... unless sticky */
	assert_int_equal(dir_of_ours(p), 0);
	assert_int_equal(chmod(root, 0755), 0);
	fmt_path(q, sizeof(q), "%s/link", root);
	assert_int_equal(symlink(root, q), 0);
	fmt_path(q, sizeof(q), "%s/link/st", root);
	assert_int_equal(dir_of_ours(q), -ELOOP);
	assert_int_equal(chmod(p, 0777), 0);
	assert_int_equal(dir_of_ours(p), -EPERM);
	assert_int_equal(dir_of_ours("relative-st"), -ELOOP);
	rmdir("relative-st");
}

/* The state file is what root writes back into the kernel: a link, a FIFO,
 * one others could have written, or a name that leaves /sys/class/bdi is
 * not taken; and the knob writer refuses such a name itself, so a link
 * planted where it leads is never written through. */
static void test_state_trust(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], target[PATH_MAX], buf[64];
	struct state st;

	(void)state;
	fx_root(root, sizeof(root), "statetrust");
	state_path(p, sizeof(p), root);
	fx_write(root, "/run/wbgov/state.real", "bdi 8:16 strict_limit 0 max_ratio_fine 1000000\n");
	fx_link(root, "/run/wbgov/state", "state.real");
	assert_int_equal(state_load(p, &st), -EINVAL);
	fx_unlink(root, "/run/wbgov/state");
	fx_write(root, "/run/wbgov/state", "bdi 8:16 strict_limit 0 max_ratio_fine 1000000\n");
	assert_int_equal(chmod(p, 0666), 0);
	assert_int_equal(state_load(p, &st), -EPERM);
	assert_int_equal(chmod(p, 0644), 0);
	assert_int_equal(state_load(p, &st), 0);
	state_free(&st);
	fx_unlink(root, "/run/wbgov/state");
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(state_load(p, &st), -EINVAL);
	unlink(p);
	/* a link planted in the bdi directory's parent: "../evil" reaches it */
	fx_write(root, "/tmp/target", "7\n");
	fmt_path(target, sizeof(target), "%s/tmp/target", root);
	fx_link(root, "/sys/class/evil", target);
	assert_false(sysfs_bdi_name_ok("../evil"));
	assert_false(sysfs_bdi_name_ok(""));
	assert_false(sysfs_bdi_name_ok("a b"));
	assert_true(sysfs_bdi_name_ok("8:16-fuseblk"));
	assert_int_equal(sysfs_bdi_write(root, "../evil", BDI_STRICT_LIMIT, 1), -EINVAL);
	assert_string_equal(fx_read(root, "/tmp/target", buf, sizeof(buf)), "7\n");
}

/* Values wbgovd would write back into the kernel: a minus sign is a corrupt
 * record, not 2^64 - 1. */
static void test_state_malformed_negative(void **state)
{
	char root[PATH_MAX], p[PATH_MAX];
	struct state st;

	(void)state;
	fx_root(root, sizeof(root), "stateneg");
	state_path(p, sizeof(p), root);
	fx_write(root, "/run/wbgov/state", "bdi 8:16 strict_limit -1 max_ratio_fine 1000000\n");
	assert_int_equal(state_load(p, &st), -EINVAL);
}

static void test_state_put_bdi(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], name[16];
	struct state st;
	FILE *f;

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_int_equal(state_put_bdi(&st, "8:16", 0, 1000000, KNOBS_KEEP), 0);
	/* a later record of the same bdi is what wbgovd itself set: keep the first */
	assert_int_equal(state_put_bdi(&st, "8:16", 1, 5000, KNOBS_KEEP), 0);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.bdi[0].strict_limit, 0);
	assert_int_equal(st.bdi[0].max_ratio_fine, 1000000);
	state_del_bdi(&st, "8:99"); /* not there: nothing happens */
	assert_int_equal(st.n, 1);

	state_free(&st);

	/* as many as come: no limit of its own */
	for (int i = 0; i < 5000; i++) {
		fmt_path(name, sizeof(name), "%d:%d", 8 + i / 256, i % 256);
		assert_int_equal(state_put_bdi(&st, name, 0, 1000000, KNOBS_KEEP), 0);
	}
	assert_int_equal(state_put_bdi(&st, "8:5", 1, 1, KNOBS_KEEP), 0); /* known: kept as it was */
	assert_int_equal(st.n, 5000);
	assert_int_equal(st.bdi[5].strict_limit, 0);

	/* a file of them (some 240 KiB, more than the first read takes) */
	fx_root(root, sizeof(root), "statebig");
	state_path(p, sizeof(p), root);
	assert_int_equal(state_save(p, &st), 0);
	state_free(&st);
	assert_int_equal(state_load(p, &st), 0);
	assert_int_equal(st.n, 5000);
	assert_string_equal(st.bdi[4999].bdi, "27:135");
	state_free(&st);

	/* one larger than root reads: refused, nothing taken */
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), STATE_FILE_MAX + 1), 0);
	fclose(f);
	assert_int_equal(state_load(p, &st), -EFBIG);
	assert_int_equal(st.n, 0);
}

struct report_log {
	int n;
	char owner[8][KNOBS_NAME_MAX];
	char knob[8][32];
	int err[8];
};

static void report(void *ctx, const char *owner, const char *knob, int err)
{
	struct report_log *l = ctx;

	if (l->n < 8) {
		snprintf(l->owner[l->n], sizeof(l->owner[l->n]), "%s", owner);
		snprintf(l->knob[l->n], sizeof(l->knob[l->n]), "%s", knob);
		l->err[l->n] = err;
	}
	l->n++;
}

static void test_state_restore_bdi(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct state st;
	struct report_log rl = { 0 };

	(void)state;
	fx_root(root, sizeof(root), "restore");
	fx_bdi(root, "8:16", true);
	fx_bdi(root, "8:32", true);
	fx_bdi(root, "8:48", true);
	/* what wbgovd left on them */
	fx_write(root, BDI_DIR "8:16/strict_limit", "1\n");
	fx_write(root, BDI_DIR "8:16/max_ratio_fine", "5000\n");
	fx_write(root, BDI_DIR "8:32/strict_limit", "1\n");
	fx_write(root, BDI_DIR "8:32/max_ratio_fine", "1000000\n");
	/* 8:48: strict_limit cannot be read or written (EISDIR) */
	fx_unlink(root, BDI_DIR "8:48/strict_limit");
	{
		char p[PATH_MAX];
		fmt_path(p, sizeof(p), "%s" BDI_DIR "8:48/strict_limit", root);
		mkdir_p(p);
	}
	kr.root = root;

	memset(&st, 0, sizeof(st));
	state_put_bdi(&st, "8:16", 0, 1000000, KNOBS_KEEP);
	state_put_bdi(&st, "8:99", 0, 1000000, KNOBS_KEEP); /* unplugged since: done */
	state_put_bdi(&st, "8:32", 0, 1000000, KNOBS_KEEP);
	state_put_bdi(&st, "8:48", 0, 1000000, KNOBS_KEEP);

	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, report, &rl), 1);
	assert_file(root, BDI_DIR "8:16/strict_limit", "0\n");
	assert_file(root, BDI_DIR "8:16/max_ratio_fine", "1000000\n");
	assert_file(root, BDI_DIR "8:32/strict_limit", "0\n");
	assert_file(root, BDI_DIR "8:32/max_ratio_fine", "1000000\n");
	{
		char p[PATH_MAX];
		fmt_path(p, sizeof(p), "%s/sys/class/bdi/8:99", root);
		assert_int_equal(access(p, F_OK), -1); /* not created */
	}
	/* only the failure stays, and was reported */
	assert_int_equal(st.n, 1);
	assert_string_equal(st.bdi[0].bdi, "8:48");
	assert_int_equal(rl.n, 1);
	assert_string_equal(rl.owner[0], "8:48");
	assert_string_equal(rl.knob[0], "strict_limit");
	assert_int_equal(rl.err[0], -EISDIR);
	/* held, with its original values: nothing may record it anew */
	assert_true(state_bdi_held(&st, "8:48"));
	assert_int_equal(st.bdi[0].strict_limit, 0);
	assert_int_equal(st.bdi[0].max_ratio_fine, 1000000);
	assert_false(state_bdi_held(&st, "8:16"));
	assert_int_equal(state_put_bdi(&st, "8:48", 1, 1000000, KNOBS_KEEP), 0);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.bdi[0].strict_limit, 0);

	/* fixed: the next try succeeds and empties the state */
	fx_unlink(root, BDI_DIR "8:48/strict_limit");
	fx_write(root, BDI_DIR "8:48/strict_limit", "1\n");
	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, NULL, NULL), 0);
	assert_int_equal(st.n, 0);
	assert_false(state_bdi_held(&st, "8:48"));
	assert_file(root, BDI_DIR "8:48/strict_limit", "0\n");
	/* a record made later in the slot is not held */
	assert_int_equal(state_put_bdi(&st, "8:64", 0, 1000000, KNOBS_KEEP), 0);
	assert_false(state_bdi_held(&st, "8:64"));
	state_free(&st);
}

static void test_state_restore_vm_pair(void **state)
{
	char root[PATH_MAX];
	struct knobs_real kr = { 0 };
	struct state st;
	struct report_log rl = { 0 };

	(void)state;
	fx_root(root, sizeof(root), "restorevm");
	kr.root = root;

	/* ratios were in force; wbgovd set bytes (the kernel zeroed the ratios) */
	fx_vm(root, 0, 0, 268435456, 67108864);
	memset(&st, 0, sizeof(st));
	st.vm_saved = true;
	st.vm[VM_DIRTY_RATIO] = 20;
	st.vm[VM_DIRTY_BACKGROUND_RATIO] = 10;
	st.vm[VM_DIRTY_EXPIRE_CENTISECS] = 3000;
	st.vm[VM_DIRTY_WRITEBACK_CENTISECS] = 500;
	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, report, &rl), 0);
	assert_false(st.vm_saved);
	assert_file(root, "/proc/sys/vm/dirty_ratio", "20\n");
	assert_file(root, "/proc/sys/vm/dirty_background_ratio", "10\n");
	/* a 0 would be refused by the kernel: the bytes were not written */
	assert_file(root, "/proc/sys/vm/dirty_bytes", "268435456\n");
	assert_file(root, "/proc/sys/vm/dirty_background_bytes", "67108864\n");

	/* dirty_bytes was in force, the background pair by ratio */
	fx_vm(root, 20, 10, 0, 0);
	memset(&st, 0, sizeof(st));
	st.vm_saved = true;
	st.vm[VM_DIRTY_BYTES] = 536870912;
	st.vm[VM_DIRTY_BACKGROUND_RATIO] = 5;
	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, report, &rl), 0);
	assert_file(root, "/proc/sys/vm/dirty_bytes", "536870912\n");
	assert_file(root, "/proc/sys/vm/dirty_background_ratio", "5\n");
	assert_file(root, "/proc/sys/vm/dirty_ratio", "20\n");
	assert_file(root, "/proc/sys/vm/dirty_background_bytes", "0\n");
	assert_int_equal(rl.n, 0);

	/* a sysctl that cannot be written: reported, kept for the next try */
	fx_unlink(root, "/proc/sys/vm/dirty_ratio");
	memset(&st, 0, sizeof(st));
	st.vm_saved = true;
	st.vm[VM_DIRTY_RATIO] = 20;
	st.vm[VM_DIRTY_BACKGROUND_RATIO] = 10;
	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, report, &rl), 1);
	assert_true(st.vm_saved);
	assert_true(st.vm_held);
	assert_int_equal(rl.n, 1);
	assert_string_equal(rl.owner[0], "vm");
	assert_string_equal(rl.knob[0], "dirty_ratio");
	assert_int_equal(rl.err[0], -ENOENT);
	assert_file(root, "/proc/sys/vm/dirty_background_ratio", "10\n");
}

/* ------------------------------------------------------------- status */

/* One drain rule for status, metrics and D-Bus: nothing pending drains in 0 s
 * even at an unknown speed; data at an unknown speed, or an unknown amount,
 * cannot be told. */
static void test_status_drain(void **state)
{
	(void)state;
	assert_true(status_drain_s(true, 0, 0) == 0);
	assert_true(status_drain_s(true, 10000000, 5000000) == 2.0);
	assert_true(status_drain_s(true, 1, 0) < 0);
	assert_true(status_drain_s(false, 0, 5000000) < 0);
	assert_true(status_drain_s(false, 10000000, 5000000) < 0);
}

static void test_status_round_trip(void **state)
{
	char root[PATH_MAX], p[PATH_MAX], buf[1024];
	struct governor *g = &g_gov;
	struct status_entry e;
	static struct features fs, back;

	(void)state;
	gov_free(g);
	memset(g, 0, sizeof(*g));
	/* two devices, as the governor holds them (later tests reuse them) */
	g->dev = calloc(2, sizeof(*g->dev));
	assert_non_null(g->dev);
	g->dev_room = 2;
	fx_root(root, sizeof(root), "status");
	fmt_path(p, sizeof(p), "%s/status", root);
	assert_int_equal(status_read(p, "8:16", &e), -ENOENT);

	g->ndev = 2;
	snprintf(g->dev[0].info.bdi, sizeof(g->dev[0].info.bdi), "8:16");
	g->dev[0].meter.est_bps = 5100000;
	g->dev[0].meter.nmeasure = 12;
	g->dev[0].meter.source = BW_MEASURED;
	g->dev[0].decided = true;
	g->dev[0].dec.why = WHY_MEASURED;
	g->dev[0].dec.max_bytes = 5100000;
	g->dev[0].dec.strict = true;
	g->dev[0].decisions = 3;
	snprintf(g->dev[1].info.bdi, sizeof(g->dev[1].info.bdi), "259:0");
	g->dev[1].err = -EIO;
	memset(&fs, 0, sizeof(fs));
	feature_set(&fs, FEATURE_DEBUGFS, FEATURE_ON, NULL, "the system's, at /sys/kernel/debug");
	/* a path from the system, with a newline in it, stays on its line */
	feature_set(&fs, FEATURE_MEMORY, FEATURE_REFUSED, "ReadWritePaths=", "/var/lib/x\ny: EROFS");
	assert_int_equal(status_write(p, g, &fs), 0);

	fx_read(root, "/status", buf, sizeof(buf));
	assert_string_equal(buf,
			    "bdi=8:16 bw=5100000 measures=12 why=0 max_bytes=5100000 strict=1 err=0 source=2 decisions=3\n"
			    "bdi=259:0 bw=0 measures=0 why=-1 max_bytes=0 strict=0 err=-5 source=0 decisions=0\n"
			    "feature=debugfs state=on refused_by=- how=the system's, at /sys/kernel/debug\n"
			    "feature=device-memory state=refused refused_by=ReadWritePaths= how=/var/lib/x\\x0ay: EROFS\n");
	/* ... and back */
	assert_int_equal(status_features(p, &back), 2);
	assert_int_equal(back.f[FEATURE_DEBUGFS].state, FEATURE_ON);
	assert_string_equal(back.f[FEATURE_DEBUGFS].refused_by, "");
	assert_string_equal(back.f[FEATURE_DEBUGFS].how, "the system's, at /sys/kernel/debug");
	assert_int_equal(back.f[FEATURE_MEMORY].state, FEATURE_REFUSED);
	assert_string_equal(back.f[FEATURE_MEMORY].refused_by, "ReadWritePaths=");
	assert_int_equal(back.f[FEATURE_BUS].state, FEATURE_UNSAID);

	assert_int_equal(status_read(p, "8:16", &e), 0);
	assert_string_equal(e.bdi, "8:16");
	assert_int_equal(e.bw_bps, 5100000);
	assert_int_equal(e.measures, 12);
	assert_int_equal(e.why, WHY_MEASURED);
	assert_int_equal(e.max_bytes, 5100000);
	assert_int_equal(e.strict, 1);
	assert_int_equal(e.err, 0);
	assert_int_equal(e.source, BW_MEASURED);
	assert_true(e.has_decisions);
	assert_int_equal(e.decisions, 3);
	assert_int_equal(status_read(p, "259:0", &e), 0);
	assert_int_equal(e.why, -1);
	assert_int_equal(e.err, -EIO);
	assert_int_equal(status_read(p, "8:0", &e), -ENOENT);
	assert_int_equal(status_read(p, "8:1", &e), -ENOENT); /* no prefix match */

	/* malformed lines are skipped */
	fx_write(root, "/status", "garbage\nbdi=8:16 bw=x\n"
				   "feature=debugfs state=sideways refused_by=- how=x\n"
				   "feature=nosuch state=on refused_by=- how=x\n"
				   "feature=bus state=on refused_by=-\n"
				   "bdi=8:16 bw=7 measures=1 why=0 max_bytes=4194304 strict=1 err=0 source=1\n");
	assert_int_equal(status_features(p, &back), 0);
	assert_int_equal(status_read(p, "8:16", &e), 0);
	assert_int_equal(e.bw_bps, 7);
	/* ... and a line of a wbgovd before the decisions field reads, without them */
	assert_false(e.has_decisions);
	assert_int_equal(e.decisions, 0);

	/* an empty governor: an empty file */
	g->ndev = 0;
	assert_int_equal(status_write(p, g, NULL), 0);
	assert_string_equal(fx_read(root, "/status", buf, sizeof(buf)), "");
	assert_int_equal(status_read(p, "8:16", &e), -ENOENT);
}

/* ----------------------------------------------------------- governor */

/* knobs_real_ops, with every write logged on its way to the fixture. */
struct rec {
	struct knobs_real real; /* first: knobs_real_ops reads ctx as this */
	char state_path[PATH_MAX];
	struct state st;
	int nsave, ngone;
	int nw;
	struct {
		char bdi[KNOBS_NAME_MAX];
		enum bdi_attr a;
		uint64_t v;
		bool state_on_disk;
	} w[32];
	int nvm;
	struct {
		enum vm_knob k;
		uint64_t v;
		bool state_on_disk;
	} vw[32];
	int nsave_vm, nrestored_vm, nglobal;
	uint64_t last_cap;
	int last_global_err;
};

static struct rec g_rec;

static int rec_bdi_write(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v)
{
	struct rec *r = ctx;

	if (r->nw < 32) {
		snprintf(r->w[r->nw].bdi, sizeof(r->w[r->nw].bdi), "%s", bdi);
		r->w[r->nw].a = a;
		r->w[r->nw].v = v;
		r->w[r->nw].state_on_disk = r->state_path[0] && access(r->state_path, F_OK) == 0;
	}
	r->nw++;
	return knobs_real_ops.bdi_write(ctx, bdi, a, v);
}

static int rec_vm_write(void *ctx, enum vm_knob k, uint64_t v)
{
	struct rec *r = ctx;

	if (r->nvm < 32) {
		r->vw[r->nvm].k = k;
		r->vw[r->nvm].v = v;
		r->vw[r->nvm].state_on_disk = r->state_path[0] && access(r->state_path, F_OK) == 0;
	}
	r->nvm++;
	return knobs_real_ops.vm_write(ctx, k, v);
}

/* What wbgovd's vm hooks do: the six values on disk before the first change. */
static int rec_save_vm(void *ctx, const uint64_t vm[VM_KNOB_COUNT])
{
	struct rec *r = ctx;

	r->nsave_vm++;
	r->st.vm_saved = true;
	memcpy(r->st.vm, vm, sizeof(r->st.vm));
	return state_save(r->state_path, &r->st);
}

static void rec_restored_vm(void *ctx)
{
	struct rec *r = ctx;

	r->nrestored_vm++;
	r->st.vm_saved = false;
	state_save(r->state_path, &r->st);
}

static void rec_global(void *ctx, uint64_t cap, int err)
{
	struct rec *r = ctx;

	r->nglobal++;
	r->last_cap = cap;
	r->last_global_err = err;
}

/* What wbgovd's save hook does: the originals on disk before any change. */
static int rec_save(void *ctx, const struct gov_dev *d)
{
	struct rec *r = ctx;
	int e;

	r->nsave++;
	e = state_put_bdi(&r->st, d->info.bdi, d->orig.strict_limit, d->orig.max_ratio_fine, d->orig.min_ratio_fine);
	return e ? e : state_save(r->state_path, &r->st);
}

static void rec_gone(void *ctx, const struct gov_dev *d)
{
	(void)d;
	((struct rec *)ctx)->ngone++;
}

static void rec_init(struct rec *r, struct knobs_ops *ops, struct gov_hooks *hooks, const char *root)
{
	state_free(&r->st);
	memset(r, 0, sizeof(*r));
	r->real.root = root;
	state_path(r->state_path, sizeof(r->state_path), root);
	*ops = knobs_real_ops;
	ops->bdi_write = rec_bdi_write;
	ops->vm_write = rec_vm_write;
	memset(hooks, 0, sizeof(*hooks));
	hooks->ctx = r;
	hooks->save = rec_save;
	hooks->gone = rec_gone;
	hooks->save_vm = rec_save_vm;
	hooks->restored_vm = rec_restored_vm;
	hooks->global = rec_global;
}

/* g governs the fixture at root under the default configuration, every knob
 * write and hook call recorded in r */
static void gov_start(struct governor *g, struct rec *r, struct knobs_ops *ops,
		      struct gov_hooks *hooks, const char *root)
{
	struct gov_config cfg;

	rec_init(r, ops, hooks, root);
	gov_config_defaults(&cfg);
	gov_init(g, &cfg, ops, r, hooks);
}

static void assert_vm_write(const struct rec *r, int i, enum vm_knob k, uint64_t v)
{
	assert_true(i < r->nvm);
	if (r->vw[i].k != k || r->vw[i].v != v)
		fail_msg("vm write %d: %s %llu, want %s %llu", i, vm_knob_names[r->vw[i].k],
			 (unsigned long long)r->vw[i].v, vm_knob_names[k], (unsigned long long)v);
}

static void assert_write(const struct rec *r, int i, const char *bdi, enum bdi_attr a, uint64_t v)
{
	assert_true(i < r->nw);
	if (strcmp(r->w[i].bdi, bdi) || r->w[i].a != a || r->w[i].v != v)
		fail_msg("write %d: %s %s %llu, want %s %s %llu", i, r->w[i].bdi,
			 bdi_attr_names[r->w[i].a], (unsigned long long)r->w[i].v, bdi,
			 bdi_attr_names[a], (unsigned long long)v);
}

#define NVME_BDI_FILES(X) X(strict_limit, "0\n") X(max_bytes, "3355443200\n") \
	X(min_bytes, "0\n") X(max_ratio_fine, "1000000\n") X(min_ratio_fine, "0\n") \
	X(max_ratio, "100\n") X(min_ratio, "0\n")
#define ASSERT_NVME_FILE(name, text) assert_file(root, BDI_DIR "259:0/" #name, text);

static void fx_gov(const char *root, bool v62)
{
	fx_disk_add(root, &fx_usb);
	fx_usb_device(root, true);
	fx_disk_add(root, &fx_nvme);
	fx_bdi(root, "8:16", v62);
	fx_bdi(root, "259:0", v62);
	fx_write(root, "/proc/meminfo", MEMINFO);
	fx_write(root, "/proc/vmstat", VMSTAT_DIRTY);
	fx_write(root, "/proc/sys/kernel/osrelease", v62 ? "6.18.0-1-amd64\n" : "6.1.0-40-amd64\n");
	fx_vm(root, 20, 10, 0, 0);
}

static void test_gov_end_to_end(void **state)
{
	char root[PATH_MAX];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;
	struct gov_dev *usb;

	(void)state;
	fx_root(root, sizeof(root), "gov");
	fx_gov(root, true);
	gov_start(g, r, &ops, &hooks, root);

	gov_tick(g, 1000000);
	assert_int_equal(g->ndev, 2);
	assert_int_equal(g->features, KNOBS_BDI_BYTES | KNOBS_WB_FLOOR);
	usb = gov_find(g, "8:16");
	assert_non_null(usb);
	assert_string_equal(usb->info.bus, "usb");
	assert_int_equal(usb->dec.why, WHY_UNMEASURED);
	assert_int_equal(usb->err, 0);
	/* device facts do not say slow: the NVMe disk starts capped too */
	assert_int_equal(gov_find(g, "259:0")->dec.why, WHY_UNMEASURED);

	/* each bdi: the cap first, then strict_limit; the originals were on
	 * disk before its first write */
	assert_int_equal(r->nw, 4);
	assert_write(r, 0, "259:0", BDI_MAX_BYTES, 4194304);
	assert_write(r, 1, "259:0", BDI_STRICT_LIMIT, 1);
	assert_write(r, 2, "8:16", BDI_MAX_BYTES, 4194304);
	assert_write(r, 3, "8:16", BDI_STRICT_LIMIT, 1);
	assert_int_equal(r->nsave, 2);
	assert_true(r->w[0].state_on_disk);
	assert_true(r->w[2].state_on_disk);
	assert_file(root, BDI_DIR "8:16/max_bytes", "4194304\n");
	assert_file(root, BDI_DIR "8:16/strict_limit", "1\n");
	assert_file(root, "/run/wbgov/state", "# wbgov: the values found on the knobs wbgovd changed; "
			  "`wbgov restore` gives them back\n"
			  "bdi 259:0 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0\n"
			  "bdi 8:16 strict_limit 0 max_ratio_fine 1000000 min_ratio_fine 0\n");
	assert_int_equal(r->nvm, 0);

	/* the next tick: everything already in place, nothing written */
	gov_tick(g, 2500000);
	assert_int_equal(r->nw, 4);

	/* the kernel stored each cap as a ratio of its threshold */
	fx_write(root, BDI_DIR "8:16/max_ratio_fine", "1250\n");
	fx_write(root, BDI_DIR "259:0/max_ratio_fine", "1250\n");

	assert_int_equal(gov_restore(g), 0);
	assert_int_equal(r->nw, 8);
	assert_file(root, BDI_DIR "8:16/strict_limit", "0\n");
	assert_file(root, BDI_DIR "8:16/max_ratio_fine", "1000000\n");
	assert_file(root, BDI_DIR "259:0/strict_limit", "0\n");
	assert_file(root, BDI_DIR "259:0/max_ratio_fine", "1000000\n");
	assert_int_equal(r->nvm, 0);

	/* restored twice: nothing more to write */
	assert_int_equal(gov_restore(g), 0);
	assert_int_equal(r->nw, 8);
}

/* wbgovd killed after a change: the state file alone puts the knobs back. */
static void test_gov_crash_then_state_restore(void **state)
{
	char root[PATH_MAX];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;
	struct knobs_real kr = { 0 };
	struct state st;

	(void)state;
	fx_root(root, sizeof(root), "govcrash");
	fx_gov(root, true);
	fx_write(root, BDI_DIR "8:16/max_ratio_fine", "800000\n"); /* someone's own setting */
	gov_start(g, r, &ops, &hooks, root);
	gov_tick(g, 1000000);
	assert_file(root, BDI_DIR "8:16/strict_limit", "1\n");
	fx_write(root, BDI_DIR "8:16/max_ratio_fine", "5000\n");
	/* wbgovd dies here, without gov_restore() */

	kr.root = root;
	assert_int_equal(state_load(r->state_path, &st), 0);
	assert_int_equal(st.n, 2); /* the stick and the NVMe */
	assert_int_equal(state_restore(&knobs_real_ops, &kr, &st, NULL, NULL), 0);
	assert_int_equal(st.n, 0);
	assert_file(root, BDI_DIR "8:16/strict_limit", "0\n");
	assert_file(root, BDI_DIR "8:16/max_ratio_fine", "800000\n");
	assert_int_equal(state_save(r->state_path, &st), 0);
	assert_int_equal(access(r->state_path, F_OK), -1);
	state_free(&st);
}

#define MOUNT_SDB1 "300 22 8:17 / /media/user/STICK rw,nosuid,nodev,relatime shared:300 - vfat /dev/sdb1 rw\n"

/* Before 6.2 there are no per-bdi byte knobs: no bdi is written; while a
 * slow device holds dirty data the global pair is set (background at an eighth),
 * and given back once none has for 5 s, or by gov_restore(). Without
 * debugfs, "holds dirty data" is "mounted while anything is dirty"; mounts
 * are looked at again every 5 s, as no uevent tells of them. */
static void test_gov_pre_62_global_pair(void **state)
{
	char root[PATH_MAX], buf[512];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;
	struct gov_dev *usb;

	(void)state;
	fx_root(root, sizeof(root), "gov61");
	fx_gov(root, false);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	fx_write(root, "/proc/self/mountinfo", "22 1 259:1 / / rw - ext4 /dev/nvme0n1p1 rw\n");
	gov_start(g, r, &ops, &hooks, root);

	/* dirty data, but the stick is not mounted: nothing to do */
	gov_tick(g, 1000000);
	assert_int_equal(g->ndev, 2);
	assert_int_equal(g->features, 0);
	usb = gov_find(g, "8:16");
	assert_non_null(usb);
	assert_false(usb->info.mounted);
	assert_true(usb->decided && usb->dec.strict);
	assert_int_equal(usb->dec.max_bytes, 4194304);
	assert_false(usb->holds_dirty);
	assert_int_equal(r->nvm, 0);

	/* it gets mounted; the rescan 5 s after the first (at 1 s) finds it */
	fx_write(root, "/proc/self/mountinfo", "22 1 259:1 / / rw - ext4 /dev/nvme0n1p1 rw\n" MOUNT_SDB1);
	gov_tick(g, 5000000);
	assert_int_equal(r->nvm, 0);
	gov_tick(g, 6000000);
	assert_int_equal(r->nvm, 0);
	gov_tick(g, 6250000);
	usb = gov_find(g, "8:16");
	assert_true(usb->info.mounted);
	assert_true(usb->holds_dirty);
	assert_false(gov_find(g, "259:0")->holds_dirty);
	assert_int_equal(r->nsave_vm, 1);
	assert_int_equal(r->nvm, 2);
	assert_vm_write(r, 0, VM_DIRTY_BACKGROUND_BYTES, 524288);
	assert_vm_write(r, 1, VM_DIRTY_BYTES, 4194304);
	assert_true(r->vw[0].state_on_disk);
	fx_read(root, "/run/wbgov/state", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\nvm dirty_ratio 20 dirty_background_ratio 10 dirty_bytes 0 "
				    "dirty_background_bytes 0 dirty_expire_centisecs 3000 "
				    "dirty_writeback_centisecs 500\n"));
	assert_file(root, "/proc/sys/vm/dirty_background_bytes", "524288\n");
	assert_file(root, "/proc/sys/vm/dirty_bytes", "4194304\n");
	assert_int_equal(r->last_cap, 4194304);
	assert_int_equal(r->last_global_err, 0);
	assert_int_equal(r->nw, 0);
	/* the kernel zeroes the ratio twins */
	fx_write(root, "/proc/sys/vm/dirty_ratio", "0\n");
	fx_write(root, "/proc/sys/vm/dirty_background_ratio", "0\n");

	gov_tick(g, 6500000);
	assert_int_equal(r->nvm, 2);

	/* clean: given back 5 s later, through the ratios that were in force */
	fx_write(root, "/proc/meminfo", "MemTotal: 16318276 kB\nDirty: 0 kB\nWriteback: 0 kB\n");
	fx_write(root, "/proc/vmstat", VMSTAT_CLEAN);
	gov_tick(g, 7000000);
	gov_tick(g, 11900000);
	assert_int_equal(r->nvm, 2);
	gov_tick(g, 12000000);
	assert_int_equal(r->nvm, 4);
	assert_vm_write(r, 2, VM_DIRTY_BACKGROUND_RATIO, 10);
	assert_vm_write(r, 3, VM_DIRTY_RATIO, 20);
	assert_file(root, "/proc/sys/vm/dirty_ratio", "20\n");
	assert_file(root, "/proc/sys/vm/dirty_background_ratio", "10\n");
	assert_int_equal(r->nrestored_vm, 1);
	assert_int_equal(r->last_cap, 0);
	assert_int_equal(access(r->state_path, F_OK), -1);
	fx_write(root, "/proc/sys/vm/dirty_bytes", "0\n");
	fx_write(root, "/proc/sys/vm/dirty_background_bytes", "0\n");

	/* dirty again, then stopped: gov_restore() gives the pair back */
	fx_write(root, "/proc/meminfo", MEMINFO);
	fx_write(root, "/proc/vmstat", "nr_dirty 8704\nnr_writeback 256\nnr_dirtied 200000\nnr_written 190000\n");
	gov_tick(g, 13000000);
	assert_int_equal(r->nvm, 6);
	assert_int_equal(r->nsave_vm, 2);
	fx_write(root, "/proc/sys/vm/dirty_ratio", "0\n");
	fx_write(root, "/proc/sys/vm/dirty_background_ratio", "0\n");
	assert_int_equal(gov_restore(g), 0);
	assert_int_equal(r->nvm, 8);
	assert_file(root, "/proc/sys/vm/dirty_ratio", "20\n");
	assert_file(root, "/proc/sys/vm/dirty_background_ratio", "10\n");
	assert_int_equal(r->nw, 0);
}

/* With debugfs, the kernel says which bdi holds dirty data: mounted or not. */
static void test_gov_pre_62_debugfs(void **state)
{
	char root[PATH_MAX];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;

	(void)state;
	fx_root(root, sizeof(root), "gov61dbg");
	fx_gov(root, false);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats",
		 "BdiWriteback:                0 kB\nBdiReclaimable:            4096 kB\n");
	gov_start(g, r, &ops, &hooks, root);
	gov_tick(g, 1000000);
	assert_true(gov_find(g, "8:16")->holds_dirty);
	assert_int_equal(r->nvm, 2);
	assert_vm_write(r, 1, VM_DIRTY_BYTES, 4194304);

	/* debugfs says clean: that beats "mounted while anything is dirty" */
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats",
		 "BdiWriteback:                0 kB\nBdiReclaimable:               0 kB\n");
	fx_write(root, "/proc/self/mountinfo", MOUNT_SDB1);
	gov_request_rescan(g);
	gov_tick(g, 2000000);
	assert_true(gov_find(g, "8:16")->info.mounted);
	assert_false(gov_find(g, "8:16")->holds_dirty);
}

/* The stick's stat with `sectors` written (STAT_LINE's other fields). */
static void fx_usb_written(const char *root, unsigned long sectors)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "    1234        0    56789     1000     4321       17 %8lu     5000        2     3000 "
		 "    6000        0        0        0        0      100      200\n",
		 sectors);
	fx_write(root, USB_DISK "/stat", line);
}

/* Before 6.2, where the kernel does not tell a device's own figures (no
 * debugfs; before 6.10 with cgroup writeback, figures that are the root
 * cgroup's alone) and a watch tells the writes to its file systems: a
 * mounted stick holds dirty data from a write to it (gov_written) and
 * while its disk writes, until 5 s after either; not merely because the
 * system holds data (another disk's writes do not put the machine under
 * the stick's cap). Where no watch tells its writes, as before: mounted
 * while the system holds 1 MiB. */
static void test_gov_pre_62_watched(void **state)
{
	char root[PATH_MAX];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;
	struct gov_dev *usb;

	(void)state;
	fx_root(root, sizeof(root), "gov61w");
	fx_gov(root, false);
	fx_part_add(root, USB_DISK, "sdb1", "8:17", "1");
	fx_write(root, "/proc/self/mountinfo", "22 1 259:1 / / rw - ext4 /dev/nvme0n1p1 rw\n" MOUNT_SDB1);
	gov_start(g, r, &ops, &hooks, root);
	gov_set_writes_watched(g, true);

	/* mounted, the system holds data (another disk's), the stick was not
	 * written: nothing */
	gov_tick(g, 1000000);
	usb = gov_find(g, "8:16");
	assert_true(usb->info.mounted);
	assert_false(usb->holds_dirty);
	assert_int_equal(r->nvm, 0);

	/* a write to its file systems: the pair at once */
	gov_written(g, "8:16", 1500000);
	assert_true(g->want_poll);
	gov_tick(g, 1500000);
	assert_true(usb->holds_dirty);
	assert_int_equal(r->nvm, 2);
	assert_vm_write(r, 1, VM_DIRTY_BYTES, 4194304);
	fx_write(root, "/proc/sys/vm/dirty_ratio", "0\n");
	fx_write(root, "/proc/sys/vm/dirty_background_ratio", "0\n");

	/* its disk writes at 4 s: held 5 s past that, beyond the write's 5 s */
	fx_usb_written(root, 987654 + 2048);
	gov_request_poll(g);
	gov_tick(g, 4000000);
	gov_request_poll(g);
	gov_tick(g, 8900000);
	assert_true(usb->holds_dirty);
	/* quiet from 9 s: the pair back 5 s later */
	gov_request_poll(g);
	gov_tick(g, 9100000);
	assert_false(usb->holds_dirty);
	gov_request_poll(g);
	gov_tick(g, 14000000);
	assert_int_equal(r->nvm, 2);
	gov_request_poll(g);
	gov_tick(g, 14200000);
	assert_int_equal(r->nvm, 4);
	assert_int_equal(r->last_cap, 0);
	fx_write(root, "/proc/sys/vm/dirty_bytes", "0\n");
	fx_write(root, "/proc/sys/vm/dirty_background_bytes", "0\n");

	/* no watch: mounted while the system holds data is holding */
	gov_set_writes_watched(g, false);
	gov_request_poll(g);
	gov_tick(g, 15000000);
	assert_true(usb->holds_dirty);
	assert_int_equal(r->nvm, 6);
	assert_int_equal(gov_restore(g), 0);
}

/* Unplugged: the bdi and its knobs vanish; nothing to give back, no error.
 * A loop device detached: its bdi stays, so the originals go back. */
static void test_gov_unplug_and_detach(void **state)
{
	static const struct fx_disk loop0 = {
		.name = "loop0", .devpath = LOOP0_DISK, .dev = "7:0", .size = "614400", .rotational = "1",
	};
	char root[PATH_MAX];
	struct governor *g = &g_gov;
	struct knobs_ops ops;
	struct gov_hooks hooks;
	struct rec *r = &g_rec;
	int nw;

	(void)state;
	fx_root(root, sizeof(root), "govunplug");
	fx_gov(root, true);
	fx_disk_add(root, &loop0);
	fx_bdi(root, "7:0", true);
	gov_start(g, r, &ops, &hooks, root);
	gov_tick(g, 1000000);
	assert_int_equal(g->ndev, 3);
	assert_file(root, BDI_DIR "7:0/strict_limit", "1\n");
	assert_file(root, BDI_DIR "8:16/strict_limit", "1\n");
	nw = r->nw;

	/* the stick is pulled: disk and bdi gone */
	fx_unlink(root, "/sys/class/bdi/8:16");
	fx_unlink(root, BDI_DIR "8:16");
	fx_unlink(root, "/sys/block/sdb");
	fx_unlink(root, "/sys/dev/block/8:16");
	fx_unlink(root, USB_DEV);
	gov_tick(g, 1250000); /* its stat is gone: asks for a rescan */
	gov_tick(g, 1500000);
	assert_int_equal(g->ndev, 2);
	assert_null(gov_find(g, "8:16"));
	assert_int_equal(r->ngone, 1);
	assert_int_equal(r->nw, nw);

	/* the loop device is detached: size 0, the bdi is still there */
	fx_write(root, BDI_DIR "7:0/max_ratio_fine", "5000\n");
	fx_write(root, LOOP0_DISK "/size", "0\n");
	gov_request_rescan(g);
	gov_tick(g, 1750000);
	assert_null(gov_find(g, "7:0"));
	assert_int_equal(r->ngone, 2);
	assert_file(root, BDI_DIR "7:0/strict_limit", "0\n");
	assert_file(root, BDI_DIR "7:0/max_ratio_fine", "1000000\n");
}

/* ---------------------------------------------------------- faults */

/* A fault injected through the --root backend (knobs_real over a fixture
 * tree) into the stick (8:16) while an NVMe disk (259:0) is governed
 * beside it. Whatever the fault: one line says what failed (the line
 * wbgovd logs, daemon_describe()), the other device is still governed,
 * no knob of the stick is half-applied (strict_limit 1 only over the cap
 * that goes with it), and gov_restore() gives back what it changed.
 * WBGOV_FAULTS_OUT=FILE writes the table docs/reliability.md holds. */
enum fault_kind { F_READ, F_WRITE, F_VANISH, F_FILE, F_STAT, F_CLOCK, F_UNANNOUNCED };

struct fault {
	enum fault_kind kind;
	enum bdi_attr a;
	int err;
	const char *rel, *text; /* F_FILE, F_STAT: a file of the tree and what it holds */
	const char *what;
};

struct fault_rec {
	struct rec r; /* first: knobs_real reads ctx as its knobs_real */
	const struct fault *f;
	bool vanished;
};

static struct fault_rec g_frec;

static int fault_bdi_read(void *ctx, const char *bdi, enum bdi_attr a, uint64_t *ret)
{
	struct fault_rec *fr = ctx;

	if (fr->f->kind == F_READ && !strcmp(bdi, "8:16") && a == fr->f->a)
		return fr->f->err;
	return knobs_real_ops.bdi_read(ctx, bdi, a, ret);
}

/* The fixture's max_bytes at max_ratio_fine 1000000: its global threshold */
#define FAULT_THRESH 3355443200ULL

static int fault_bdi_write(void *ctx, const char *bdi, enum bdi_attr a, uint64_t v)
{
	struct fault_rec *fr = ctx;
	char p[PATH_MAX], text[32];
	int r;

	if (!strcmp(bdi, "8:16") && fr->f->kind == F_WRITE && a == fr->f->a)
		return fr->f->err;
	if (!strcmp(bdi, "8:16") && fr->f->kind == F_VANISH && !fr->vanished) {
		/* pulled out between the read and the write */
		fx_unlink(fr->r.real.root, "/sys/class/bdi/8:16");
		fx_unlink(fr->r.real.root, BDI_DIR "8:16");
		fr->vanished = true;
	}
	r = rec_bdi_write(ctx, bdi, a, v);
	if (r)
		return r;
	/* the kernel keeps one value, a share of its threshold, and shows it
	 * both ways: max_bytes written sets max_ratio_fine, and back */
	if (a == BDI_MAX_BYTES) {
		uint64_t ppm = v * 1000000 / FAULT_THRESH;
		fmt_path(p, sizeof(p), "/sys/class/bdi/%s/max_ratio_fine", bdi);
		snprintf(text, sizeof(text), "%llu\n", (unsigned long long)ppm);
		fx_write(fr->r.real.root, p, text);
		fmt_path(p, sizeof(p), "/sys/class/bdi/%s/max_bytes", bdi);
		snprintf(text, sizeof(text), "%llu\n", (unsigned long long)(FAULT_THRESH * ppm / 1000000));
		fx_write(fr->r.real.root, p, text);
	} else if (a == BDI_MAX_RATIO_FINE) {
		fmt_path(p, sizeof(p), "/sys/class/bdi/%s/max_bytes", bdi);
		snprintf(text, sizeof(text), "%llu\n", (unsigned long long)(FAULT_THRESH * v / 1000000));
		fx_write(fr->r.real.root, p, text);
	}
	return 0;
}

static void fault_row(FILE *out, const struct fault *f, const char *stick, const char *line)
{
	if (out)
		fprintf(out, "| %s | %s | %s |\n", f->what, stick, line);
}

static void test_fault_table(void **state)
{
	static const int errs[] = { EINVAL, ENOENT, EACCES, EIO, EBUSY };
	static const enum bdi_attr attrs[] = { BDI_STRICT_LIMIT, BDI_MAX_RATIO_FINE, BDI_MAX_BYTES };
	static struct fault faults[64];
	static char whats[64][96];
	static const struct fault more[] = {
		{ F_VANISH, 0, 0, NULL, NULL, "the bdi vanishes between a read and a write" },
		{ F_FILE, 0, 0, BDI_DIR "8:16/max_bytes", "", "max_bytes empty" },
		{ F_FILE, 0, 0, BDI_DIR "8:16/max_bytes", "4194", "max_bytes truncated" },
		{ F_FILE, 0, 0, BDI_DIR "8:16/max_bytes", "x\177\n", "max_bytes garbage" },
		{ F_FILE, 0, 0, BDI_DIR "8:16/max_bytes", "99999999999999999999999\n", "max_bytes huge" },
		{ F_FILE, 0, 0, BDI_DIR "8:16/strict_limit", "-1\n", "strict_limit negative" },
		{ F_STAT, 0, 0, USB_DISK "/stat", "", "its stat empty" },
		{ F_STAT, 0, 0, USB_DISK "/stat", "garbage\n", "its stat garbage" },
		{ F_STAT, 0, 0, USB_DISK "/stat", STAT_LINE STAT_LINE, "its stat twice as long" },
		{ F_STAT, 0, 0, USB_DISK "/stat",
		  "    1234        0    56789     1000     4321       17        0     5000        2     3000     6000\n",
		  "its stat going backwards" },
		{ F_STAT, 0, 0, USB_DISK "/stat",
		  "    1234        0    56789     1000     4321       17 18446744073709551615     5000        2     3000     6000\n",
		  "its stat jumping to 2^64 - 1 sectors" },
		{ F_CLOCK, 0, 0, NULL, NULL, "the clock going back 1 s, then 1 h forward" },
		{ F_UNANNOUNCED, 0, 0, NULL, NULL, "a device coming without a uevent" },
	};
	const char *out_path = getenv("WBGOV_FAULTS_OUT");
	FILE *out = out_path ? fopen(out_path, "w") : NULL;
	int n = 0;

	(void)state;
	for (size_t e = 0; e < sizeof(errs) / sizeof(errs[0]); e++)
		for (size_t a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++)
			for (int w = 0; w < 2; w++) {
				snprintf(whats[n], sizeof(whats[n]), "%s %s: %s", w ? "writing" : "reading",
					 bdi_attr_names[attrs[a]], strerrorname_np(errs[e]));
				faults[n] = (struct fault){ w ? F_WRITE : F_READ, attrs[a], -errs[e], NULL,
							    NULL, whats[n] };
				n++;
			}
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		faults[n++] = more[i];
	if (out)
		fprintf(out, "| fault in the stick (8:16) | the stick's knobs after it | what wbgovd logs |\n"
			     "|---|---|---|\n");
	for (int i = 0; i < n; i++) {
		const struct fault *f = &faults[i];
		static const struct fx_disk loop0 = {
			.name = "loop0", .devpath = LOOP0_DISK, .dev = "7:0", .size = "614400",
			.rotational = "1",
		};
		char root[PATH_MAX], name[32], line[768], stick[96], sl[8], rt[32];
		int r;
		struct governor *g = &g_gov;
		struct gov_config cfg;
		struct knobs_ops ops;
		struct gov_hooks hooks;
		struct fault_rec *fr = &g_frec;
		const struct gov_dev *d;

		snprintf(name, sizeof(name), "fault%d", i);
		fx_root(root, sizeof(root), name);
		fx_gov(root, true);
		rec_init(&fr->r, &ops, &hooks, root);
		fr->f = f;
		fr->vanished = false;
		ops.bdi_read = fault_bdi_read;
		ops.bdi_write = fault_bdi_write;
		hooks.ctx = fr;
		if (f->kind == F_FILE || f->kind == F_STAT)
			fx_write(root, f->rel, f->text);
		gov_config_defaults(&cfg);
		gov_init(g, &cfg, &ops, fr, &hooks);
		gov_tick(g, 1000000);
		if (f->kind == F_STAT || f->kind == F_CLOCK) {
			gov_tick(g, 1100000);
			gov_tick(g, f->kind == F_CLOCK ? 100000 : 1200000);
			gov_tick(g, f->kind == F_CLOCK ? 3600100000ULL : 1300000);
		}
		if (f->kind == F_UNANNOUNCED) {
			fx_disk_add(root, &loop0);
			fx_bdi(root, "7:0", true);
			gov_tick(g, 30000000);
			assert_null(gov_find(g, "7:0"));
			gov_tick(g, 61000000);
			assert_non_null(gov_find(g, "7:0"));
			assert_file(root, BDI_DIR "7:0/strict_limit", "1\n");
		}
		/* the other device is governed whatever befell the stick */
		assert_file(root, BDI_DIR "259:0/strict_limit", "1\n");
		d = gov_find(g, "8:16");
		assert_non_null(d);
		daemon_describe(d, fr->r.state_path, line, sizeof(line));
		if ((f->kind == F_READ || (f->kind == F_WRITE && f->a != BDI_MAX_RATIO_FINE)) &&
		    (!d->err || d->err_attr != f->a || !strstr(line, bdi_attr_names[f->a]) ||
		     !strstr(line, strerror(-f->err))))
			/* one line naming the knob and the error */
			fail_msg("%s: %s", f->what, line);
		if (f->kind == F_STAT || f->kind == F_CLOCK)
			assert_true(d->meter.est_bps < BWMETER_MAX_BPS);
		/* no knob half-applied: strict_limit 1 over a cap, or both as found */
		sl[0] = rt[0] = 0;
		if (access(fmt_path_s(root, BDI_DIR "8:16/strict_limit"), F_OK) == 0) {
			fx_read(root, BDI_DIR "8:16/strict_limit", sl, sizeof(sl));
			fx_read(root, BDI_DIR "8:16/max_ratio_fine", rt, sizeof(rt));
			sl[strcspn(sl, "\n")] = 0;
			rt[strcspn(rt, "\n")] = 0;
			if (!strcmp(sl, "1") ? !strcmp(rt, "1000000") :
			    strcmp(rt, "1000000") && strcmp(f->what, "strict_limit negative"))
				fail_msg("%s: strict_limit %s with max_ratio_fine %s", f->what, sl, rt);
			snprintf(stick, sizeof(stick), "strict_limit %s, max_ratio_fine %s", sl, rt);
		} else {
			snprintf(stick, sizeof(stick), "gone with its bdi");
		}
		/* what it changed goes back; a write of max_ratio_fine that fails
		 * shows here, as wbgovd stops: it says so and the state file
		 * keeps the record for wbgov restore */
		r = gov_restore(g);
		if (f->kind == F_WRITE && f->a == BDI_MAX_RATIO_FINE && f->err == -ENOENT) {
			/* ENOENT from a knob is a bdi that went: nothing to give back */
			assert_int_equal(r, 0);
			snprintf(line, sizeof(line), "at stop: the bdi taken for gone, as ENOENT from a "
						     "knob means; its record dropped");
		} else if (f->kind == F_WRITE && f->a == BDI_MAX_RATIO_FINE) {
			assert_int_equal(r, f->err);
			state_free(&fr->r.st);
			assert_true(state_load(fr->r.state_path, &fr->r.st) == 0 && fr->r.st.n >= 1);
			snprintf(line, sizeof(line), "at stop: some knobs could not be given back; they are "
						     "recorded in /run/wbgov/state (wbgov restore)");
		} else {
			assert_int_equal(r, 0);
			if (access(fmt_path_s(root, BDI_DIR "8:16/strict_limit"), F_OK) == 0 &&
			    strcmp(f->what, "strict_limit negative"))
				assert_file(root, BDI_DIR "8:16/strict_limit", "0\n");
		}
		assert_file(root, BDI_DIR "259:0/strict_limit", "0\n");
		fault_row(out, f, stick, line);
	}
	if (out)
		fclose(out);
}

/* The kernel's own estimate from debugfs, when it is there: a cross-check
 * for `wbgov explain`; absent or malformed, -ENOTSUP. */
static void test_debugfs_bandwidth(void **state)
{
	char root[PATH_MAX];
	uint64_t bps = 0;

	(void)state;
	fx_root(root, sizeof(root), "debugfs-bw");
	assert_int_equal(debugfs_bdi_bandwidth(root, "8:16", &bps), -ENOTSUP);
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats",
		 "BdiWriteback:            0 kB\nBdiReclaimable:          8 kB\n"
		 "BdiWriteBandwidth:   4980 kBps\n");
	assert_int_equal(debugfs_bdi_bandwidth(root, "8:16", &bps), 0);
	assert_int_equal(bps, 4980ULL * 1024);
	fx_write(root, "/sys/kernel/debug/bdi/8:16/stats", "BdiWriteBandwidth: lots\n");
	assert_int_equal(debugfs_bdi_bandwidth(root, "8:16", &bps), -ENOTSUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_at),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_read_write_u64),
		cmocka_unit_test(test_write_u64_shorter_value),
		cmocka_unit_test(test_sysfs_bus_detection),
		cmocka_unit_test(test_sysfs_stacked_and_identity),
		cmocka_unit_test(test_bus_ignores_root_prefix),
		cmocka_unit_test(test_sysfs_facts),
		cmocka_unit_test(test_sysfs_usb_without_serial),
		cmocka_unit_test(test_sysfs_bdi_kinds),
		cmocka_unit_test(test_sysfs_fuseblk_on_partition),
		cmocka_unit_test(test_sysfs_btrfs_on_partition),
		cmocka_unit_test(test_sysfs_devices_sorted),
		cmocka_unit_test(test_sysfs_parse_stat),
		cmocka_unit_test(test_sysfs_parse_stat_malformed),
		cmocka_unit_test(test_sysfs_parse_stat_negative),
		cmocka_unit_test(test_sysfs_disk_stat),
		cmocka_unit_test(test_sandbox_drop_cap),
		cmocka_unit_test(test_sysfs_knob_round_trip),
		cmocka_unit_test(test_knobs_set_does_not_rewrite),
		cmocka_unit_test(test_sysfs_has_bdi_bytes),
		cmocka_unit_test(test_sysfs_loop_backing_facts),
		cmocka_unit_test(test_knobs_real_bdi_counters),
		cmocka_unit_test(test_knobs_real_bdi_counters_exact),
		cmocka_unit_test(test_knobs_real_root_wb_only),
		cmocka_unit_test(test_fsid_source),
		cmocka_unit_test(test_knobs_real_own_debugfs),
		cmocka_unit_test(test_kernel_stalls_strict),
		cmocka_unit_test(test_iolimit_parse),
		cmocka_unit_test(test_iolimit_read),
		cmocka_unit_test(test_knobs_real_mounted),
		cmocka_unit_test(test_procfs_parse_meminfo),
		cmocka_unit_test(test_procfs_parse_meminfo_malformed),
		cmocka_unit_test(test_procfs_meminfo_file),
		cmocka_unit_test(test_procfs_vmstat),
		cmocka_unit_test(test_procfs_vm),
		cmocka_unit_test(test_procfs_mounts),
		cmocka_unit_test(test_mount_list_full),
		cmocka_unit_test(test_procfs_disk_of_path),
		cmocka_unit_test(test_mountpt),
		cmocka_unit_test(test_sync_mounts),
		cmocka_unit_test(test_mountpt_unmount_real),
		cmocka_unit_test(test_scsi_cdb),
		cmocka_unit_test(test_eject_siblings),
		cmocka_unit_test(test_fixture_export),
		cmocka_unit_test(test_reader_export),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_state_empty_removes_file),
		cmocka_unit_test(test_file_replace_concurrent),
		cmocka_unit_test(test_file_tmp_sweep),
		cmocka_unit_test(test_pidlock),
		cmocka_unit_test(test_state_malformed),
		cmocka_unit_test(test_state_malformed_negative),
		cmocka_unit_test(test_state_trust),
		cmocka_unit_test(test_path_split),
		cmocka_unit_test(test_dir_of_ours),
		cmocka_unit_test(test_state_put_bdi),
		cmocka_unit_test(test_state_restore_bdi),
		cmocka_unit_test(test_state_restore_vm_pair),
		cmocka_unit_test(test_status_drain),
		cmocka_unit_test(test_status_round_trip),
		cmocka_unit_test(test_gov_end_to_end),
		cmocka_unit_test(test_gov_crash_then_state_restore),
		cmocka_unit_test(test_gov_pre_62_global_pair),
		cmocka_unit_test(test_gov_pre_62_debugfs),
		cmocka_unit_test(test_gov_pre_62_watched),
		cmocka_unit_test(test_gov_unplug_and_detach),
		cmocka_unit_test(test_fault_table),
		cmocka_unit_test(test_debugfs_bandwidth),
	};

	/* a run that writes the fixture or the faults' table out runs that
	 * alone: the black-box tests write the fixture once each, and the
	 * whole suite took 9 s of system time */
	if (getenv("WBGOV_FIXTURE_OUT"))
		cmocka_set_test_filter("test_fixture_export");
	else if (getenv("WBGOV_FAULTS_OUT"))
		cmocka_set_test_filter("test_fault_table");
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
