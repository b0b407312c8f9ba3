/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The names wbgovd's objects go by on D-Bus (bus.h is the API): a
 * device's object path, udisks' object and device number of its disk,
 * and text made valid UTF-8 for sd-bus. Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <systemd/sd-bus.h>

#include "daemon/bus.h"
#include "daemon/busparts.h"
#include "sys/fsutil.h"

/* sd-bus refuses a string that is not valid UTF-8, and USB firmware
 * sends Latin-1 models: the object must still be there. */
void bus_clean_utf8(char *buf, size_t len, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t o = 0;

	if (!len)
		return;
	while (*s) {
		int n = text_utf8_len((const char *)s);
		if (!n || *s < 0x20 || *s == 0x7f) {
			if (o + 3 >= len)
				break;
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
			continue;
		}
		if (o + (size_t)n >= len)
			break;
		memcpy(buf + o, s, (size_t)n);
		o += (size_t)n;
		s += n;
	}
	buf[o] = 0;
}

/* The bdi is its disk's own ("8:16" of sdb), not a file system's
 * ("btrfs-1", "8:16-fuseblk"). */
static bool is_disk_bdi(const struct knobs_dev *info)
{
	char own[32];

	snprintf(own, sizeof(own), "%u:%u", info->major, info->minor);
	return info->disk[0] && !strcmp(own, info->bdi);
}

/* "sdb" for a disk's own bdi, else the bdi ("8:16-fuseblk", "btrfs-1"). */
void bus_device_label(const struct knobs_dev *info, char *buf, size_t len)
{
	snprintf(buf, len, "%s", is_disk_bdi(info) ? info->disk : info->bdi);
}

/* udisks' udisks_safe_append_to_object_path: [A-Za-z0-9_] as they are,
 * every other byte as _xx. Not sd_bus_path_encode, which also escapes
 * '_' and a leading digit. */
int bus_block_object(const struct knobs_dev *info, char *buf, size_t len)
{
	static const char prefix[] = "/org/freedesktop/UDisks2/block_devices/";
	size_t o;

	if (!is_disk_bdi(info))
		return snprintf(buf, len, "/") >= (int)len ? -ENAMETOOLONG : 0;
	if (len <= sizeof(prefix))
		return -ENAMETOOLONG;
	o = (size_t)snprintf(buf, len, "%s", prefix);
	for (const unsigned char *c = (const unsigned char *)info->disk; *c; c++) {
		bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9') || *c == '_';
		if (o + (plain ? 1 : 3) >= len)
			return -ENAMETOOLONG;
		o += (size_t)snprintf(buf + o, len - o, plain ? "%c" : "_%02x", *c);
	}
	return 0;
}

uint64_t bus_device_number(const struct knobs_dev *info)
{
	return is_disk_bdi(info) ? (uint64_t)makedev(info->major, info->minor) : 0;
}

int bus_device_path(const struct knobs_dev *info, char *buf, size_t len)
{
	char label[KNOBS_NAME_MAX], *p = NULL;
	int r;

	bus_device_label(info, label, sizeof(label));
	r = sd_bus_path_encode(BUS_DEVICE_PREFIX, label, &p);
	if (r < 0)
		return r;
	r = snprintf(buf, len, "%s", p) >= (int)len ? -ENAMETOOLONG : 0;
	free(p);
	return r;
}
