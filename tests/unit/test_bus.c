/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wbgovd's device objects tell a client that has udisks' objects:
 * the disk's device number as udisks encodes it, and udisks' object path of
 * the disk, for disk names of every kind and for a bdi that is no disk's. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/bus.h"

static struct knobs_dev dev(const char *bdi, const char *disk, unsigned major, unsigned minor)
{
	struct knobs_dev d;

	memset(&d, 0, sizeof(d));
	snprintf(d.bdi, sizeof(d.bdi), "%s", bdi);
	snprintf(d.disk, sizeof(d.disk), "%s", disk);
	d.major = major;
	d.minor = minor;
	return d;
}

/* udisks' Block.DeviceNumber is g_udev_device_get_device_number: glibc's
 * dev_t, whose minor splits around the major (the low 8 bits below it, the
 * rest above bit 20): MAJOR << 8 | MINOR is right only for minors < 256. */
static void test_device_number(void **state)
{
	struct knobs_dev d;

	(void)state;
	d = dev("8:16", "sdb", 8, 16);
	assert_int_equal(bus_device_number(&d), 2064);
	d = dev("259:0", "nvme0n1", 259, 0);
	assert_int_equal(bus_device_number(&d), 66304);
	d = dev("254:0", "dm-0", 254, 0);
	assert_int_equal(bus_device_number(&d), 65024);
	/* the 300th NVMe namespace's minor: 44 below the major, 1 << 20 above */
	d = dev("259:300", "nvme7n3", 259, 300);
	assert_int_equal(bus_device_number(&d), (1u << 20) + (259u << 8) + 44);
	/* sd's majors past 8 and their 4096 disks: 65:0 is sdq */
	d = dev("65:0", "sdq", 65, 0);
	assert_int_equal(bus_device_number(&d), 65u << 8);
	/* a bdi that is not the disk's own: no device number */
	d = dev("btrfs-1", "sda", 8, 0);
	assert_int_equal(bus_device_number(&d), 0);
	d = dev("8:16-fuseblk", "sdb", 8, 16);
	assert_int_equal(bus_device_number(&d), 0);
	d = dev("7:0", "", 7, 0);
	assert_int_equal(bus_device_number(&d), 0);
}

static void test_block_object(void **state)
{
	static const struct {
		const char *bdi, *disk;
		unsigned major, minor;
		const char *path;
	} rows[] = {
		{ "8:16", "sdb", 8, 16, "/org/freedesktop/UDisks2/block_devices/sdb" },
		{ "259:0", "nvme0n1", 259, 0, "/org/freedesktop/UDisks2/block_devices/nvme0n1" },
		{ "254:0", "dm-0", 254, 0, "/org/freedesktop/UDisks2/block_devices/dm_2d0" },
		{ "179:0", "mmcblk0", 179, 0, "/org/freedesktop/UDisks2/block_devices/mmcblk0" },
		/* '_' stays, unlike sd_bus_path_encode (which gives _5f); so does a
		 * leading digit (sd-bus: _31) */
		{ "9:0", "md_d0", 9, 0, "/org/freedesktop/UDisks2/block_devices/md_d0" },
		{ "240:0", "1disk", 240, 0, "/org/freedesktop/UDisks2/block_devices/1disk" },
		{ "251:0", "zd0.x", 251, 0, "/org/freedesktop/UDisks2/block_devices/zd0_2ex" },
		/* no disk's own bdi: no object */
		{ "btrfs-1", "sda", 8, 0, "/" },
		{ "8:16-fuseblk", "sdb", 8, 16, "/" },
		{ "0:61", "", 0, 61, "/" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct knobs_dev d = dev(rows[i].bdi, rows[i].disk, rows[i].major, rows[i].minor);
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(bus_block_object(&d, buf, sizeof(buf)), 0);
		assert_string_equal(buf, rows[i].path);
	}
}

/* A buffer too small is an error, never a cut path (another disk's). */
static void test_block_object_room(void **state)
{
	struct knobs_dev d = dev("254:0", "dm-0", 254, 0);
	const char *want = "/org/freedesktop/UDisks2/block_devices/dm_2d0";
	char buf[64];

	(void)state;
	assert_int_equal(bus_block_object(&d, buf, strlen(want) + 1), 0);
	assert_string_equal(buf, want);
	assert_int_equal(bus_block_object(&d, buf, strlen(want)), -ENAMETOOLONG);
	assert_int_equal(bus_block_object(&d, buf, strlen(want) - 2), -ENAMETOOLONG);
	assert_int_equal(bus_block_object(&d, buf, 10), -ENAMETOOLONG);
	d = dev("btrfs-1", "", 0, 0);
	assert_int_equal(bus_block_object(&d, buf, 1), -ENAMETOOLONG);
	assert_int_equal(bus_block_object(&d, buf, 2), 0);
	assert_string_equal(buf, "/");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_number),
		cmocka_unit_test(test_block_object),
		cmocka_unit_test(test_block_object_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
