/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sandbox.h"

/* newer than Debian 12's headers (6.1) */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)

/* landlock_ruleset_attr as of Linux 6.7: fs, then net */
struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
};

static int abi_in_force;

int sandbox_abi(void) { return abi_in_force; }

static int add_beneath(int ruleset, const char *dir, uint64_t access)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access };
	int r = 0;

	pb.parent_fd = open(dir, O_PATH | O_CLOEXEC | O_DIRECTORY);
	if (pb.parent_fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		r = -errno;
	close(pb.parent_fd);
	return r;
}

int sandbox_writes(const char *const *knobs, const char *const *dirs)
{
	const uint64_t make = LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |
			      LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |
			      LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
			      LANDLOCK_ACCESS_FS_MAKE_SYM;
	uint64_t write = LANDLOCK_ACCESS_FS_WRITE_FILE, handled;
	struct ruleset_attr attr = { 0 };
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	int ruleset, r = 0;

	/* ENOSYS, EOPNOTSUPP: a kernel without Landlock, or with it off;
	 * EPERM: a seccomp filter refuses the call (a unit's
	 * SystemCallFilter= that does not name it) */
	if (abi < 1)
		return abi < 0 && errno == EPERM ? -EPERM : -EOPNOTSUPP;
	if (abi >= 3)
		write |= LANDLOCK_ACCESS_FS_TRUNCATE;
	handled = write | make | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE;
	if (abi >= 2)
		handled |= LANDLOCK_ACCESS_FS_REFER;
	attr.handled_access_fs = handled;
	if (abi >= 4)
		attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr,
			       abi >= 4 ? sizeof(attr) : sizeof(attr.handled_access_fs), 0);
	if (ruleset < 0)
		return -errno;
	for (int i = 0; !r && knobs[i]; i++)
		r = add_beneath(ruleset, knobs[i], write);
	for (int i = 0; !r && dirs[i]; i++)
		r = add_beneath(ruleset, dirs[i],
				write | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE);
	if (!r && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		r = -errno;
	if (!r && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		r = -errno;
	close(ruleset);
	if (!r)
		abi_in_force = (int)abi;
	return r;
}

/* Capability `cap` into the effective set (`on`: it must be permitted),
 * or out of it, and with `all` out of every set. */
static int cap_set(int cap, bool all, bool on)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];
	unsigned i = (unsigned)cap / 32;
	uint32_t bit = 1u << ((unsigned)cap % 32);

	if (cap < 0 || i >= 2)
		return -EINVAL;
	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	if (on) {
		if (!(d[i].permitted & bit))
			return -EPERM;
		d[i].effective |= bit;
	} else {
		d[i].effective &= ~bit;
		if (all) {
			d[i].permitted &= ~bit;
			d[i].inheritable &= ~bit;
		}
	}
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

int sandbox_drop_cap(int cap)
{
	int r = cap_set(cap, true, false);

	if (r)
		return r;
	/* EPERM without CAP_SETPCAP: gone from the sets above all the same */
	(void)prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	return 0;
}

int sandbox_cap_effective(int cap, bool on)
{
	return cap_set(cap, false, on);
}

int sandbox_caps(uint64_t *ret_effective, uint64_t *ret_permitted, uint64_t *ret_bounding)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];
	uint64_t bnd = 0;

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	for (int c = 0; c < 64; c++) {
		int r = prctl(PR_CAPBSET_READ, c, 0, 0, 0);
		if (r < 0)
			break; /* past the last capability this kernel knows */
		if (r)
			bnd |= 1ULL << c;
	}
	*ret_effective = d[0].effective | (uint64_t)d[1].effective << 32;
	*ret_permitted = d[0].permitted | (uint64_t)d[1].permitted << 32;
	*ret_bounding = bnd;
	return 0;
}

int sandbox_seccomp_filters(void)
{
	char line[128];
	int mode = -1, n = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "Seccomp: %d", &mode);
		sscanf(line, "Seccomp_filters: %d", &n);
	}
	fclose(f);
	if (mode < 0)
		return -ENOSYS;
	/* 2: filter mode; before 5.9 no count is given: one at least */
	return mode == 2 ? (n > 0 ? n : 1) : 0;
}
