/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network and FUSE shares: the mounts whose bdi writes to a server, not to
 * a disk (NFS, CIFS/SMB, FUSE without a block device, 9p, virtiofs); how
 * each is named and remembered; which bdi is its; and what says how much
 * it wrote back where debugfs does not (NFS's /proc/self/mountstats).
 *
 * Only /proc and /sys are read here, never the mount itself: a hard NFS
 * mount to a server that stopped answering blocks stat(2), statfs(2),
 * open(2) and syncfs(2) of anything under it, for as long as the server is
 * gone. Mount points and sources are mountinfo's text, unescaped; they are
 * names to show and to match, never paths to open. Paths under `root`. */
#ifndef WBGOV_SYS_SHARES_H
#define WBGOV_SYS_SHARES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knobs.h"

#define SHARE_TEXT_MAX 512

/* One line of /proc/self/mountinfo (proc(5)): its device number (field 3,
 * the superblock's st_dev), mount point (field 5), file system type and
 * source (after the "-"), and for FUSE the user_id= of its super options
 * (the user whose server it is). */
struct share_mount {
	int id;
	unsigned major, minor;
	char target[SHARE_TEXT_MAX];
	char fstype[32];
	char source[SHARE_TEXT_MAX];
	bool has_user_id;
	unsigned user_id;
};

/* Parse one mountinfo line (no newline needed): 0, or -EINVAL for a line
 * that is not one (fields missing, no "-", a number that is not one, a
 * field longer than the struct holds: rejected, not cut). The octal
 * escapes the kernel writes for blank, tab, newline and backslash
 * ("\040") are undone. */
int shares_parse_mountinfo_line(const char *line, struct share_mount *ret);

/* Is a mount of this type a share wbgovd governs? nfs, nfs4, cifs, smb3,
 * fuse and fuse.SUBTYPE (FUSE without a block device: sshfs, rclone), 9p,
 * virtiofs. Not fuseblk (its bdi is MAJ:MIN-fuseblk, on a disk), nor
 * tmpfs, ramfs, proc, sysfs, overlay, squashfs and the other pseudo or
 * local file systems: they have no bdi of their own that writes back, or
 * one on a disk. */
bool shares_fstype(const char *fstype);

/* Could `bdi` be a share's? "0:N" (NFS and FUSE name theirs after the
 * superblock's st_dev: super_setup_bdi_name "%u:%u"), and "cifs-N",
 * "smb3-N", "9p-N" (CIFS and 9p call super_setup_bdi, "TYPE-SEQ"). */
bool shares_bdi_name(const char *bdi);

/* What a person calls the share: the mount's source ("server:/export",
 * "//server/share", "user@host:/path"), or for a FUSE mount whose source
 * says nothing ("", "none", the bare type) its subtype ("rclone"). */
void shares_name(const struct share_mount *m, char *buf, size_t len);

/* Its identity for device memory, the same at every mount: the family and
 * the source, "nfs:server:/export", "cifs://server/share",
 * "fuse.sshfs:uid=1000:user@host:/path". A FUSE mount's source is whatever
 * its user said (fusermount copies fsname=), so its user's id is part of
 * it: no user can pass a mount of theirs for another's share. Printable,
 * blanks as '_'. */
void shares_identity(const struct share_mount *m, char *buf, size_t len);

/* Fill `d` for bdi `bdi` if it is a share's: is_share, is_fuse for FUSE
 * and virtiofs, bus = the file system type ("nfs4", "fuse.sshfs"), model =
 * its name, id = its identity, major:minor = its st_dev, mounts and
 * mounted from its mount points. A "0:N" bdi is the share mounted with
 * st_dev 0:N. A "TYPE-N" bdi (CIFS, 9p) says nothing of its mount: the
 * kernel numbers them in the order their superblocks were made, which is
 * the order their first mounts appear in mountinfo, so when there are as
 * many such bdis of TYPE as superblocks of TYPE mounted they pair in that
 * order; otherwise (a share mounted in another namespace only) it is
 * listed under its bdi's name alone, with no identity. -ENOENT when `bdi`
 * is no share's (a tmpfs, no mount at all). */
int shares_device(const char *root, const char *bdi, struct knobs_dev *d);

/* Is `path` (a real path, as a loop device's backing_file names it) on a
 * share? By the mount table's text alone: the mount whose mount point is
 * the longest one above the path. A path that cannot be told is not. */
bool shares_path_on_share(const char *root, const char *path);

/* What an NFS mount wrote to its server, from /proc/self/mountstats. */
struct share_written {
	uint64_t bytes;  /* written back from the page cache (see shares.c) */
	uint64_t writes; /* WRITE calls completed */
	uint64_t commits;   /* NFS: COMMIT calls completed, */
	uint64_t commit_ms; /* ... and the milliseconds they took in all */
};

/* Parse mountstats text for the first mount whose mount point is one of
 * `targets` (a knobs_dev mounts list of `size` bytes): its "bytes:" line,
 * and its per-op "WRITE:" and "COMMIT:" lines if there are. 0, -ENOENT (no such NFS
 * mount), -EINVAL (its lines malformed). */
int shares_parse_mountstats(const char *text, const char *targets, size_t size,
			    struct share_written *ret);

/* The same from ROOT/proc/self/mountstats, for share `d`. -ENOTSUP for a
 * share that is not NFS. */
int shares_mountstats(const char *root, const struct knobs_dev *d, struct share_written *ret);

/* What a CIFS/SMB share wrote to its server, from /proc/fs/cifs/Stats
 * (cifs_stats_proc_show, fs/smb/client/cifs_debug.c): one block a tree
 * connection, "N) \\server\share" (then "\tDISCONNECTED " while it
 * reconnects), "SMBs: N", and its dialect's counters: SMB2 and later
 * "Bytes read: R  Bytes written: W" and "Writes: N total F failed"
 * (smb2_print_stats), SMB1 "Writes: N Bytes: W" (cifs_print_stats).
 * `source` is the mount's ("//server/share", or "//server/share/dir" for a
 * directory of it): the block whose tree name is its server and share,
 * '\' read as '/', without regard to case (SMB names are not). 0;
 * -ENOENT (no such block); -ENOTUNIQ (two blocks for it: two sessions,
 * as two users' mounts of one share have, whose bytes cannot be told
 * apart); -EINVAL (its lines malformed, or no byte count). */
int shares_parse_cifs_stats(const char *text, const char *source, struct share_written *ret);

/* The same from ROOT/proc/fs/cifs/Stats, for share `d` (its name is its
 * source). -ENOTSUP for a share that is not CIFS. */
int shares_cifs_stats(const char *root, const struct knobs_dev *d, struct share_written *ret);

#endif
