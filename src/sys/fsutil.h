/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small files of /proc and /sys, every path under a root prefix (tests point
 * it at a fixture tree). Readers return 0 or -errno and fill ret_* only on
 * success. */
#ifndef WBGOV_SYS_FSUTIL_H
#define WBGOV_SYS_FSUTIL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* root + the formatted path; -ENAMETOOLONG if it does not fit. */
int path_at(char *buf, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The whole file (at most len - 1 bytes), NUL-terminated, one trailing
 * newline removed. */
int read_text(const char *path, char *buf, size_t len);
/* The same for `path` relative to the directory descriptor `dirfd`. */
int read_text_at(int dirfd, const char *path, char *buf, size_t len);

/* A file holding one unsigned decimal number (and a newline). */
int read_u64(const char *path, uint64_t *ret);

/* Write a decimal number the way `echo N > file` does; -errno on failure
 * (the kernel keeps the previous value). */
int write_u64(const char *path, uint64_t v);

/* Replace `path` atomically: `fill` writes the new contents to a new
 * temporary file beside it, PATH.tmp.XXXXXX (a name of its own: writers of
 * the same path at once do not meet), mode 0644 whatever the umask, which
 * is flushed to disk and renamed over `path`. 0 or -errno (the old file
 * stays, the temporary is removed). */
#define FILE_TMP_SUFFIX ".tmp.XXXXXX"
int file_replace(const char *path, int (*fill)(FILE *f, const void *ctx), const void *ctx);
/* The same for a file others read while it changes (a metrics file), not
 * flushed to disk (rewritten every few seconds, it need not outlive a
 * crash). */
int file_publish(const char *path, int (*fill)(FILE *f, const void *ctx), const void *ctx);

/* The same as file_publish, for the file `name` in the directory open at
 * `dirfd` (dir_open_trusted): the directory's path is not looked at again,
 * so that no one can swap it for a link to lead the write elsewhere. */
int file_publish_at(int dirfd, const char *name, int (*fill)(FILE *f, const void *ctx),
		    const void *ctx);

/* The temporaries of `path` a writer killed mid-save left beside it
 * (PATH.tmp.XXXXXX: regular files of ours, not links), removed. To be
 * called where no other writer of `path` can be at work (under the lock).
 * How many were removed. */
int file_tmp_sweep(const char *path);

/* In a child the daemon forked: every descriptor above 2 closed but `fd`
 * (the lock, the bus, another child's pipe must not outlive the daemon in
 * it). */
void fd_keep_only(int fd);

/* A block device's sysfs directory, resolved (realpath), cut to its whole
 * disk's in place: a partition sits inside its disk's directory. */
void block_dir_whole(char *real);

/* Read a whole file that root acts on (configuration, state, device
 * memory) into buf, NUL-terminated, its length in *len: a regular file (a
 * FIFO or a device would never end; the character device /dev/null reads
 * as empty), owned by root or by us and writable by no one else, at most
 * `max` bytes, with no NUL inside; a symbolic link only with `follow`.
 * buf holds max + 2 bytes. 0, or -ENOENT, -EINVAL (not a regular file, a
 * link, a NUL inside), -EPERM (owner or mode), -EFBIG, -errno. Never
 * blocks: opened with O_NONBLOCK. */
int file_read_trusted(const char *path, bool follow, char *buf, size_t max, size_t *len);

/* A directory root keeps its files in: made 0755 if missing; one that
 * exists must be a directory (not a link to one) owned by us and writable
 * by no one else, or another user could have made it to lead root's
 * writes; and its path absolute, with no link on the way, every directory
 * above root's or ours and writable by no one else or sticky, so that no
 * one can swap it for a link later. 0, -EPERM (not ours, or a directory
 * above it others could change), -ELOOP (a relative path or a link on the
 * way), -ENOTDIR, or -errno. */
int dir_of_ours(const char *path);
/* What its errors mean, for messages. */
const char *state_dir_text(int err);

/* Is there a directory at `path` (a link to one will do)? 0, -ENOTDIR, or
 * the -errno of stat(2). */
int dir_exists(const char *path);

/* A directory root writes in that is not its own to make (the metrics
 * file's: node_exporter's), opened once: reached with no link on the way
 * (a link there would lead root's writes where its maker chose), owned by
 * us and writable by no one else. Its descriptor (close-on-exec, for
 * file_publish_at), or -ELOOP (a link on the way), -ENOTDIR, -EPERM (owner
 * or mode), -errno. */
int dir_open_trusted(const char *path);
/* What its errors mean, for messages. */
const char *dir_trust_text(int err);

/* What file_read_trusted's errors mean, for messages. */
const char *file_trust_text(int err);

/* In text of "KEY:   N kB" lines (/proc/meminfo, debugfs' bdi stats), the
 * line that starts with KEY and a colon: N x 1024 in *ret_bytes. 0, or
 * -EINVAL when there is no such line, N is not a plain decimal number, or
 * the bytes would not fit in 64 bits. */
int text_kib(const char *text, const char *key, uint64_t *ret_bytes);
/* The same for a plain count ("b_dirty:   3"): N in *ret. */
int text_count(const char *text, const char *key, uint64_t *ret);

/* The length of the UTF-8 sequence at s (1 for NUL), 0 if it is not one:
 * overlong forms, surrogates and code points past U+10FFFF included. */
int text_utf8_len(const char *s);

/* Parse an unsigned decimal number that fills the whole string. */
int parse_u64(const char *s, uint64_t *ret);

/* A path's directory and last name: "a/b" -> "a", "b"; "b" -> ".", "b";
 * "/b" -> "/", "b". `base` (may be NULL) points into `path`. */
void path_split(const char *path, char *dir, size_t dlen, const char **base);

#endif
