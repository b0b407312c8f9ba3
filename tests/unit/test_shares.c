/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/shares: which mounts are shares, their names and identities, which
 * bdi is whose (over a small fixture tree of /proc/self/mountinfo and
 * /sys/class/bdi), NFS's mountstats, CIFS's Stats, and malformed lines of
 * each. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/shares.h"

static char g_root[PATH_MAX];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(g_root, sizeof(g_root), "/tmp/wbgov-test-shares-XXXXXX");
	return mkdtemp(g_root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(g_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ROOT/REL with its directories, holding `text` */
static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", g_root, rel);
	for (char *s = p + strlen(g_root) + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0755);
			*s = '/';
		}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void bdi(const char *name)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "/sys/class/bdi/%s/max_bytes", name);
	put(rel, "3355443200\n");
}

static void test_parse_mountinfo(void **state)
{
	struct share_mount m;

	(void)state;
	assert_int_equal(shares_parse_mountinfo_line(
				 "50 22 0:53 / /mnt/my\\040nas rw,relatime shared:50 master:7 - nfs4 "
				 "nas.local:/export rw,vers=4.2\n", &m), 0);
	assert_int_equal(m.id, 50);
	assert_int_equal(m.major, 0);
	assert_int_equal(m.minor, 53);
	assert_string_equal(m.target, "/mnt/my nas");
	assert_string_equal(m.fstype, "nfs4");
	assert_string_equal(m.source, "nas.local:/export");
	assert_false(m.has_user_id);
	/* no optional field; FUSE's user_id among the super options */
	assert_int_equal(shares_parse_mountinfo_line(
				 "53 22 0:56 / /home/u/r rw - fuse.sshfs u@h:/p rw,user_id=1000,group_id=1000",
				 &m), 0);
	assert_true(m.has_user_id);
	assert_int_equal(m.user_id, 1000);
	/* malformed: rejected, not guessed */
	static const char *const bad[] = {
		"", "50 22 0:53 / /mnt rw - nfs4\n", "50 22 0:53 / /mnt rw nfs4 src rw\n",
		"x 22 0:53 / /mnt rw - nfs4 src rw\n", "50 22 053 / /mnt rw - nfs4 src rw\n",
		"50 22 0:-1 / /mnt rw - nfs4 src rw\n", "50 22 0:99999999999 / /mnt rw - nfs4 src rw\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (shares_parse_mountinfo_line(bad[i], &m) != -EINVAL)
			fail_msg("accepted: \"%s\"", bad[i]);
	/* a field longer than the struct holds is refused, not cut */
	{
		char line[2 * SHARE_TEXT_MAX];
		char src[SHARE_TEXT_MAX + 8];
		memset(src, 'a', sizeof(src) - 1);
		src[sizeof(src) - 1] = 0;
		snprintf(line, sizeof(line), "50 22 0:53 / /mnt rw - nfs4 %s rw\n", src);
		assert_int_equal(shares_parse_mountinfo_line(line, &m), -EINVAL);
	}
}

static void test_fstype(void **state)
{
	static const char *const yes[] = { "nfs", "nfs4", "cifs", "smb3", "fuse", "fuse.sshfs",
					   "fuse.rclone", "9p", "virtiofs" };
	static const char *const no[] = { "fuseblk", "fuse.", "tmpfs", "ramfs", "proc", "sysfs",
					  "overlay", "squashfs", "ext4", "btrfs", "nfsd", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!shares_fstype(yes[i]))
			fail_msg("%s is a share's type", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (shares_fstype(no[i]))
			fail_msg("%s is no share's type", no[i]);
}

static void test_bdi_name(void **state)
{
	(void)state;
	assert_true(shares_bdi_name("0:53"));
	assert_true(shares_bdi_name("cifs-3"));
	assert_true(shares_bdi_name("smb3-12"));
	assert_true(shares_bdi_name("9p-1"));
	assert_false(shares_bdi_name("8:16"));
	assert_false(shares_bdi_name("0:53-fuseblk"));
	assert_false(shares_bdi_name("btrfs-1"));
	assert_false(shares_bdi_name("cifs-"));
	assert_false(shares_bdi_name("cifs-0x"));
	assert_false(shares_bdi_name("0:"));
}

static void name_id(const char *line, const char *name, const char *id)
{
	struct share_mount m;
	char buf[256];

	assert_int_equal(shares_parse_mountinfo_line(line, &m), 0);
	shares_name(&m, buf, sizeof(buf));
	if (strcmp(buf, name))
		fail_msg("name of %s: \"%s\", want \"%s\"", line, buf, name);
	shares_identity(&m, buf, sizeof(buf));
	if (strcmp(buf, id))
		fail_msg("identity of %s: \"%s\", want \"%s\"", line, buf, id);
}

static void test_name_identity(void **state)
{
	(void)state;
	name_id("1 2 0:53 / /mnt/nas rw - nfs4 nas.local:/export rw", "nas.local:/export",
		"nfs:nas.local:/export");
	/* v3 and v4 of one export: the same share */
	name_id("1 2 0:54 / /mnt/nas rw - nfs nas.local:/export rw", "nas.local:/export",
		"nfs:nas.local:/export");
	name_id("1 2 0:55 / /mnt/smb rw - cifs //fs/public rw", "//fs/public", "cifs://fs/public");
	name_id("1 2 0:55 / /mnt/smb rw - smb3 //fs/public rw", "//fs/public", "cifs://fs/public");
	name_id("1 2 0:56 / /r rw - fuse.sshfs user@host:/home/user rw,user_id=1000",
		"user@host:/home/user", "fuse.sshfs:uid=1000:user@host:/home/user");
	/* the same source from another user is another share */
	name_id("1 2 0:56 / /r rw - fuse.sshfs user@host:/home/user rw,user_id=1001",
		"user@host:/home/user", "fuse.sshfs:uid=1001:user@host:/home/user");
	/* a FUSE source that says nothing: the subtype */
	name_id("1 2 0:57 / /r rw - fuse.rclone rclone rw,user_id=1000", "rclone",
		"fuse.rclone:uid=1000:rclone");
	name_id("1 2 0:57 / /r rw - fuse.gocryptfs none rw,user_id=1000", "gocryptfs",
		"fuse.gocryptfs:uid=1000:none");
	name_id("1 2 0:57 / /r rw - fuse myfs rw,user_id=1000", "myfs", "fuse:uid=1000:myfs");
	name_id("1 2 0:58 / /mnt/9p rw - 9p hostshare rw", "hostshare", "9p:hostshare");
	/* blanks and control characters never reach an identity */
	name_id("1 2 0:59 / /r rw - cifs //fs/my\\040share rw", "//fs/my share", "cifs://fs/my_share");
}

static void test_device(void **state)
{
	struct knobs_dev d;
	const char *m;

	(void)state;
	put("/proc/self/mountinfo",
	    "22 1 259:1 / / rw - ext4 /dev/nvme0n1p1 rw\n"
	    "50 22 0:53 / /mnt/nas rw - nfs4 nas.local:/export rw\n"
	    "51 22 0:53 /sub /srv/nas-sub rw - nfs4 nas.local:/export rw\n"
	    "52 22 0:60 / /mnt/a rw - cifs //fs/a rw\n"
	    "53 22 0:56 / /home/u/r rw,nosuid - fuse.sshfs u@h:/p rw,user_id=1000\n"
	    "54 22 0:61 / /mnt/b rw - cifs //fs/b rw\n"
	    "55 22 0:60 / /mnt/a2 rw - cifs //fs/a rw\n"
	    "56 22 0:59 / /tmp rw - tmpfs tmpfs rw\n"
	    "57 22 8:18 / /media/x rw - fuseblk /dev/sdb2 rw,user_id=0\n");
	bdi("0:53");
	bdi("0:56");
	bdi("0:59");
	bdi("cifs-4");
	bdi("cifs-9");

	assert_int_equal(shares_device(g_root, "0:53", &d), 0);
	assert_true(d.is_share);
	assert_false(d.is_fuse);
	assert_string_equal(d.bdi, "0:53");
	assert_string_equal(d.disk, "");
	assert_string_equal(d.bus, "nfs4");
	assert_string_equal(d.model, "nas.local:/export");
	assert_string_equal(d.id, "nfs:nas.local:/export");
	assert_int_equal(d.minor, 53);
	assert_true(d.mounted);
	m = knobs_list_next(d.mounts, sizeof(d.mounts), NULL);
	assert_string_equal(m, "/mnt/nas");
	m = knobs_list_next(d.mounts, sizeof(d.mounts), m);
	assert_string_equal(m, "/srv/nas-sub");
	assert_null(knobs_list_next(d.mounts, sizeof(d.mounts), m));

	assert_int_equal(shares_device(g_root, "0:56", &d), 0);
	assert_true(d.is_fuse);
	assert_string_equal(d.bus, "fuse.sshfs");
	assert_string_equal(d.id, "fuse.sshfs:uid=1000:u@h:/p");

	/* CIFS's bdis pair with its superblocks in the order of their first
	 * mounts: cifs-4 is //fs/a (0:60), cifs-9 //fs/b (0:61) */
	assert_int_equal(shares_device(g_root, "cifs-4", &d), 0);
	assert_string_equal(d.model, "//fs/a");
	assert_int_equal(d.minor, 60);
	m = knobs_list_next(d.mounts, sizeof(d.mounts), NULL);
	assert_string_equal(m, "/mnt/a");
	assert_string_equal(knobs_list_next(d.mounts, sizeof(d.mounts), m), "/mnt/a2");
	assert_int_equal(shares_device(g_root, "cifs-9", &d), 0);
	assert_string_equal(d.model, "//fs/b");
	assert_string_equal(d.id, "cifs://fs/b");
	/* a third cifs bdi (a mount this namespace does not see): no pairing
	 * is sure, each is a share known by its bdi alone */
	bdi("cifs-12");
	assert_int_equal(shares_device(g_root, "cifs-4", &d), 0);
	assert_true(d.is_share);
	assert_false(d.mounted);
	assert_string_equal(d.model, "cifs-4");
	assert_string_equal(d.id, "");

	/* tmpfs at a bdi's number, a bdi with no mount, not a share's name */
	assert_int_equal(shares_device(g_root, "0:59", &d), -ENOENT);
	assert_int_equal(shares_device(g_root, "0:77", &d), -ENOENT);
	assert_int_equal(shares_device(g_root, "8:18-fuseblk", &d), -ENOENT);
	assert_int_equal(shares_device(g_root, "9p-1", &d), -ENOENT); /* no 9p mounted, no bdi */

	/* a loop device's backing file: on a share or not, by the table alone */
	assert_true(shares_path_on_share(g_root, "/mnt/nas/disk.img"));
	assert_true(shares_path_on_share(g_root, "/srv/nas-sub/x/disk.img"));
	assert_false(shares_path_on_share(g_root, "/mnt/nasty/disk.img"));
	assert_false(shares_path_on_share(g_root, "/var/tmp/disk.img"));
	assert_false(shares_path_on_share(g_root, "/tmp/disk.img"));
	assert_false(shares_path_on_share(g_root, "disk.img"));
}

#define MS_NAS \
	"device nas.local:/export mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n" \
	"\topts:\trw,vers=4.2\n" \
	"\tbytes:\t0 41943040 0 4194304 0 41943040 0 10240\n" \
	"\tper-op statistics\n" \
	"\t        NULL: 1 1 0 44 24 0 0 0 0\n" \
	"\t       WRITE: 40 40 0 41949120 7040 3 20000 20010 0\n" \
	"\t      COMMIT: 10 10 0 1520 1040 1 3990 4000 0\n"

static void test_mountstats(void **state)
{
	char list[64] = { 0 };
	struct share_written w = { 7, 7, 7, 7 };
	const char *text =
		"device proc mounted on /proc with fstype proc\n"
		"device other:/x mounted on /mnt/other with fstype nfs statvers=1.1\n"
		"\tbytes:\t0 999 0 0 0 999 0 1\n"
		MS_NAS
		"device //fs/a mounted on /mnt/a with fstype cifs\n";

	(void)state;
	knobs_list_add(list, sizeof(list), "/mnt/my nas");
	/* serverwritebytes less directwritebytes: what writeback sent */
	assert_int_equal(shares_parse_mountstats(text, list, sizeof(list), &w), 0);
	assert_true(w.bytes == 41943040 - 4194304);
	assert_true(w.writes == 40);
	assert_true(w.commits == 10 && w.commit_ms == 4000);
	/* not there, not NFS */
	memset(list, 0, sizeof(list));
	knobs_list_add(list, sizeof(list), "/mnt/a");
	assert_int_equal(shares_parse_mountstats(text, list, sizeof(list), &w), -ENOENT);
	memset(list, 0, sizeof(list));
	knobs_list_add(list, sizeof(list), "/mnt/my nas");
	/* malformed: a short bytes line, none at all */
	assert_int_equal(shares_parse_mountstats(
				 "device a:/b mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n"
				 "\tbytes:\t0 1 2\n", list, sizeof(list), &w), -EINVAL);
	assert_int_equal(shares_parse_mountstats(
				 "device a:/b mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n"
				 "\tage:\t3\n", list, sizeof(list), &w), -EINVAL);
	assert_int_equal(shares_parse_mountstats(
				 "device a:/b mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n"
				 "\tbytes:\t0 1 2 3 4 5 6 x\n", list, sizeof(list), &w), -EINVAL);
	/* a short COMMIT line (an old kernel's) counts no COMMIT; the bytes
	 * stand */
	assert_int_equal(shares_parse_mountstats(
				 "device a:/b mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n"
				 "\tbytes:\t0 1 2 3 4 5 6 7\n\t COMMIT: 1 1 0\n", list, sizeof(list), &w),
			 0);
	assert_true(w.bytes == 5 - 3 && w.commits == 0);
	/* more direct than server bytes (a direct write counted as issued,
	 * not yet done): none, never a wrap */
	assert_int_equal(shares_parse_mountstats(
				 "device a:/b mounted on /mnt/my\\040nas with fstype nfs4 statvers=1.1\n"
				 "\tbytes:\t0 0 0 4096 0 0 0 0\n", list, sizeof(list), &w), 0);
	assert_true(w.bytes == 0 && w.writes == 0);
	/* from the file, for a share whose mount is listed; not for CIFS */
	{
		struct knobs_dev d = { .is_share = true };
		snprintf(d.bus, sizeof(d.bus), "nfs4");
		knobs_list_add(d.mounts, sizeof(d.mounts), "/mnt/my nas");
		put("/proc/self/mountstats", text);
		assert_int_equal(shares_mountstats(g_root, &d, &w), 0);
		assert_true(w.bytes == 41943040 - 4194304);
		snprintf(d.bus, sizeof(d.bus), "cifs");
		assert_int_equal(shares_mountstats(g_root, &d, &w), -ENOTSUP);
	}
}

/* /proc/fs/cifs/Stats as cifs_stats_proc_show writes it (6.12): two
 * servers, an SMB 3.1.1 share with a subdirectory mounted, an SMB1 one, and
 * one of another server that reconnects */
#define CIFS_HEAD \
	"Resources in use\nCIFS Session: 2\nShare (unique mount targets): 4\n" \
	"SMB Request/Response Buffer: 2 Pool size: 6\nSMB Small Req/Resp Buffer: 2 Pool size: 30\n" \
	"Operations (MIDs): 0\n\n0 session 0 share reconnects\n" \
	"Total vfs operations: 812 maximum at one time: 3\n\nMax requests in flight: 12"
#define CIFS_PUBLIC \
	"\n1) \\\\FileServer\\Public\nSMBs: 310\n" \
	"Bytes read: 8192  Bytes written: 31457280\n" \
	"Open files: 1 total (local), 1 open on server\n" \
	"TreeConnects: 1 total 0 failed\nTreeDisconnects: 0 total 0 failed\n" \
	"Creates: 12 total 0 failed\nCloses: 11 total 0 failed\nFlushes: 2 total 0 failed\n" \
	"Reads: 2 total 0 failed\nWrites: 31 total 1 failed\nLocks: 0 total 0 failed"
#define CIFS_OLD \
	"\n2) \\\\oldbox\\data\tDISCONNECTED \nSMBs: 40 Oplocks breaks: 0\n" \
	"Reads:  3 Bytes: 12288\nWrites: 7 Bytes: 28672\nFlushes: 1\n" \
	"Locks: 0 HardLinks: 0 Symlinks: 0\nOpens: 4 Closes: 4 Deletes: 0"

static void test_cifs_stats(void **state)
{
	struct share_written w = { 7, 7, 7, 7 };
	const char *text = CIFS_HEAD CIFS_PUBLIC CIFS_OLD "\n";

	(void)state;
	/* SMB2+: Bytes written, and the writes the server took */
	assert_int_equal(shares_parse_cifs_stats(text, "//fileserver/public", &w), 0);
	assert_true(w.bytes == 31457280 && w.writes == 30);
	/* a directory of the share mounted; the case of neither name counts */
	assert_int_equal(shares_parse_cifs_stats(text, "//FILESERVER/public/projects/x", &w), 0);
	assert_true(w.bytes == 31457280);
	/* SMB1, while it reconnects */
	assert_int_equal(shares_parse_cifs_stats(text, "//oldbox/data", &w), 0);
	assert_true(w.bytes == 28672 && w.writes == 7);
	/* not there: another share of the server, a prefix of a name, no UNC */
	assert_int_equal(shares_parse_cifs_stats(text, "//fileserver/pub", &w), -ENOENT);
	assert_int_equal(shares_parse_cifs_stats(text, "//fileserver/publicx", &w), -ENOENT);
	assert_int_equal(shares_parse_cifs_stats(text, "//fileserver", &w), -ENOENT);
	assert_int_equal(shares_parse_cifs_stats(text, "fileserver:/public", &w), -ENOENT);
	assert_int_equal(shares_parse_cifs_stats(CIFS_HEAD "\n", "//fileserver/public", &w), -ENOENT);
	/* two sessions on it (two users' mounts): whose bytes is not told */
	assert_int_equal(shares_parse_cifs_stats(CIFS_HEAD CIFS_PUBLIC CIFS_PUBLIC "\n",
						 "//fileserver/public", &w), -ENOTUNIQ);
	/* malformed: no byte count, a count that is not one, a bad Writes line */
	assert_int_equal(shares_parse_cifs_stats("1) \\\\a\\b\nSMBs: 3\n", "//a/b", &w), -EINVAL);
	assert_int_equal(shares_parse_cifs_stats("1) \\\\a\\b\nBytes read: 1  Bytes written: x\n",
						 "//a/b", &w), -EINVAL);
	assert_int_equal(shares_parse_cifs_stats("1) \\\\a\\b\nBytes read: 1\nBytes written: 5\n",
						 "//a/b", &w), -EINVAL);
	assert_int_equal(shares_parse_cifs_stats("1) \\\\a\\b\nBytes read: 1  Bytes written: 5\n"
						 "Writes: -3 total 0 failed\n", "//a/b", &w), -EINVAL);
	assert_int_equal(shares_parse_cifs_stats("1) \\\\a\\b\nBytes read: 1  Bytes written: 5\n"
						 "Writes: 3 total 0\n", "//a/b", &w), -EINVAL);
	assert_true(w.bytes == 28672); /* untouched by a failure */
	/* from the file, for a CIFS share by its name; not for NFS */
	{
		struct knobs_dev d = { .is_share = true };
		snprintf(d.bus, sizeof(d.bus), "cifs");
		snprintf(d.model, sizeof(d.model), "//fileserver/public");
		put("/proc/fs/cifs/Stats", text);
		assert_int_equal(shares_cifs_stats(g_root, &d, &w), 0);
		assert_true(w.bytes == 31457280);
		snprintf(d.bus, sizeof(d.bus), "smb3");
		assert_int_equal(shares_cifs_stats(g_root, &d, &w), 0);
		snprintf(d.bus, sizeof(d.bus), "nfs4");
		assert_int_equal(shares_cifs_stats(g_root, &d, &w), -ENOTSUP);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_mountinfo), cmocka_unit_test(test_fstype),
		cmocka_unit_test(test_bdi_name),        cmocka_unit_test(test_name_identity),
		cmocka_unit_test(test_device),          cmocka_unit_test(test_mountstats),
		cmocka_unit_test(test_cifs_stats),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
