/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shares (shares.h): mountinfo, NFS's mountstats and CIFS's Stats parsed
 * with bounded buffers, nothing under a mount point looked at. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/fsutil.h"
#include "sys/shares.h"

/* strlcpy: truncate to the buffer, always terminate */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

/* The next blank-separated field of *s into dst (len bytes), undoing the
 * kernel's octal escapes (mangle(), seq_escape(): "\040" for a blank, "\011",
 * "\012", "\134"). 0, or -EINVAL: no field, or longer than dst holds. */
static int field(const char **s, char *dst, size_t len)
{
	const char *p = *s;
	size_t o = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return -EINVAL;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
		char c = *p++;
		if (c == '\\' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' &&
		    p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 3;
		}
		if (o + 1 >= len)
			return -EINVAL;
		dst[o++] = c;
	}
	dst[o] = 0;
	*s = p;
	return 0;
}

static int number(const char *s, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT_MAX)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

/* user_id=N among the comma-separated super options */
static void user_id_of(const char *opts, struct share_mount *m)
{
	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char num[16];
		size_t n;
		if (strncmp(p, "user_id=", 8))
			continue;
		n = strcspn(p + 8, ",");
		if (n == 0 || n >= sizeof(num))
			return;
		memcpy(num, p + 8, n);
		num[n] = 0;
		m->has_user_id = number(num, &m->user_id) == 0;
		return;
	}
}

int shares_parse_mountinfo_line(const char *line, struct share_mount *ret)
{
	struct share_mount m;
	char f[SHARE_TEXT_MAX], opts[SHARE_TEXT_MAX];
	const char *s = line;
	unsigned id;
	bool dash = false;

	memset(&m, 0, sizeof(m));
	/* mount id, parent id, major:minor, root, mount point, options */
	if (field(&s, f, sizeof(f)) || number(f, &id) || id > INT_MAX)
		return -EINVAL;
	m.id = (int)id;
	if (field(&s, f, sizeof(f)) || number(f, &id))
		return -EINVAL;
	if (field(&s, f, sizeof(f)) || !strchr(f, ':'))
		return -EINVAL;
	*strchr(f, ':') = 0;
	if (number(f, &m.major) || number(f + strlen(f) + 1, &m.minor))
		return -EINVAL;
	if (field(&s, f, sizeof(f)) || field(&s, m.target, sizeof(m.target)) ||
	    field(&s, f, sizeof(f)))
		return -EINVAL;
	/* optional fields ("shared:1", "master:7"), then "-" */
	while (!dash) {
		if (field(&s, f, sizeof(f)))
			return -EINVAL;
		dash = !strcmp(f, "-");
	}
	if (field(&s, m.fstype, sizeof(m.fstype)) || field(&s, m.source, sizeof(m.source)))
		return -EINVAL;
	if (field(&s, opts, sizeof(opts)) == 0)
		user_id_of(opts, &m);
	*ret = m;
	return 0;
}

static bool is_fuse_type(const char *fstype)
{
	return !strcmp(fstype, "fuse") || (!strncmp(fstype, "fuse.", 5) && fstype[5]);
}

bool shares_fstype(const char *fstype)
{
	static const char *const types[] = { "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs" };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(fstype, types[i]))
			return true;
	return is_fuse_type(fstype); /* "fuseblk" is not "fuse" nor "fuse.X" */
}

/* "cifs-N", "smb3-N", "9p-N": the type whose super_setup_bdi made it into
 * `type`, and N. */
static bool seq_bdi(const char *bdi, char *type, size_t len, unsigned long *seq)
{
	static const char *const types[] = { "cifs", "smb3", "9p" };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t n = strlen(types[i]);
		char *end;
		if (strncmp(bdi, types[i], n) || bdi[n] != '-' || bdi[n + 1] < '1' || bdi[n + 1] > '9')
			continue;
		errno = 0;
		*seq = strtoul(bdi + n + 1, &end, 10);
		if (errno || *end)
			return false;
		copy(type, len, types[i]);
		return true;
	}
	return false;
}

/* "0:N": N */
static bool anon_bdi(const char *bdi, unsigned *minor)
{
	return !strncmp(bdi, "0:", 2) && number(bdi + 2, minor) == 0;
}

bool shares_bdi_name(const char *bdi)
{
	char type[8];
	unsigned long seq;
	unsigned minor;

	return anon_bdi(bdi, &minor) || seq_bdi(bdi, type, sizeof(type), &seq);
}

void shares_name(const struct share_mount *m, char *buf, size_t len)
{
	const char *src = m->source;

	if (is_fuse_type(m->fstype) && m->fstype[4] == '.' &&
	    (!src[0] || !strcmp(src, "none") || !strcmp(src, m->fstype) ||
	     !strcmp(src, m->fstype + 5) || !strcmp(src, "fuse"))) {
		copy(buf, len, m->fstype + 5); /* rclone's own type says more than "rclone" */
		return;
	}
	copy(buf, len, src[0] ? src : m->fstype);
}

void shares_identity(const struct share_mount *m, char *buf, size_t len)
{
	const char *family = !strcmp(m->fstype, "nfs4") ? "nfs" :
			     !strcmp(m->fstype, "smb3") ? "cifs" : m->fstype;

	if (is_fuse_type(m->fstype) || !strcmp(m->fstype, "virtiofs")) {
		/* virtiofs's source is the host's tag: the guest's own */
		if (m->has_user_id)
			snprintf(buf, len, "%s:uid=%u:%s", family, m->user_id, m->source);
		else
			snprintf(buf, len, "%s:%s", family, m->source);
	} else if (!strcmp(family, "cifs") && !strncmp(m->source, "//", 2)) {
		snprintf(buf, len, "cifs:%s", m->source); /* "cifs://server/share" */
	} else {
		snprintf(buf, len, "%s:%s", family, m->source);
	}
	for (char *p = buf; *p; p++)
		if (*p <= ' ' || *p > '~')
			*p = '_';
}

/* Every line of ROOT/proc/self/mountinfo, in order, to `fn` (nonzero
 * stops). 0 or -errno. A line longer than the buffer is skipped whole. */
static int each_mount(const char *root, int (*fn)(const struct share_mount *m, void *ctx), void *ctx)
{
	char p[PATH_MAX], line[4 * SHARE_TEXT_MAX];
	FILE *f;
	int r;

	if ((r = path_at(p, sizeof(p), root, "/proc/self/mountinfo")))
		return r;
	if (!(f = fopen(p, "re")))
		return -errno;
	r = 0;
	while (!r && fgets(line, sizeof(line), f)) {
		struct share_mount m;
		if (!strchr(line, '\n') && !feof(f)) {
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (shares_parse_mountinfo_line(line, &m) == 0)
			r = fn(&m, ctx);
	}
	fclose(f);
	return r < 0 ? r : 0;
}

struct find_ctx {
	unsigned minor;       /* the share's st_dev 0:minor; */
	bool found;
	struct share_mount first; /* its first mount */
	struct knobs_dev *d;
	/* TYPE-N bdis: the superblocks of TYPE, in the order of their first mounts */
	const char *type;
	unsigned sb_minor[64];
	int nsb;
	bool sb_overflow;
};

static int find_by_dev(const struct share_mount *m, void *ctx)
{
	struct find_ctx *x = ctx;

	if (m->major != 0 || m->minor != x->minor || !shares_fstype(m->fstype))
		return 0;
	if (!x->found)
		x->first = *m;
	else if (strcmp(m->fstype, x->first.fstype))
		return 0; /* not the same superblock's (cannot be: a forged table) */
	x->found = true;
	knobs_list_add(x->d->mounts, sizeof(x->d->mounts), m->target);
	return 0;
}

static int list_sbs(const struct share_mount *m, void *ctx)
{
	struct find_ctx *x = ctx;

	if (m->major != 0 || strcmp(m->fstype, x->type))
		return 0;
	for (int i = 0; i < x->nsb; i++)
		if (x->sb_minor[i] == m->minor)
			return 0;
	if (x->nsb == (int)(sizeof(x->sb_minor) / sizeof(x->sb_minor[0]))) {
		x->sb_overflow = true;
		return 1;
	}
	x->sb_minor[x->nsb++] = m->minor;
	return 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The place of `seq` among the TYPE-N bdis of /sys/class/bdi, sorted by
 * N, and how many there are; -errno. */
static int seq_rank(const char *root, const char *type, unsigned long seq, int *ret_n)
{
	char p[PATH_MAX];
	unsigned long seqs[64];
	int n = 0, rank = -ENOENT;
	DIR *dir;
	struct dirent *e;

	if (path_at(p, sizeof(p), root, "/sys/class/bdi") || !(dir = opendir(p)))
		return -ENOENT;
	while ((e = readdir(dir))) {
		char t[8];
		unsigned long s;
		if (!seq_bdi(e->d_name, t, sizeof(t), &s) || strcmp(t, type))
			continue;
		if (n == (int)(sizeof(seqs) / sizeof(seqs[0]))) {
			closedir(dir);
			return -E2BIG;
		}
		seqs[n++] = s;
	}
	closedir(dir);
	qsort(seqs, (size_t)n, sizeof(seqs[0]), cmp_ulong);
	for (int i = 0; i < n; i++)
		if (seqs[i] == seq)
			rank = i;
	*ret_n = n;
	return rank;
}

int shares_device(const char *root, const char *bdi, struct knobs_dev *d)
{
	struct find_ctx x;
	char type[8];
	unsigned long seq;
	int r;

	memset(d, 0, sizeof(*d));
	memset(&x, 0, sizeof(x));
	x.d = d;
	copy(d->bdi, sizeof(d->bdi), bdi);
	if (seq_bdi(bdi, type, sizeof(type), &seq)) {
		int n = 0, rank;
		x.type = type;
		if ((r = each_mount(root, list_sbs, &x)))
			return r;
		rank = seq_rank(root, type, seq, &n);
		if (rank < 0 && rank != -E2BIG)
			return -ENOENT;
		if (rank < 0 || x.sb_overflow || n != x.nsb) {
			/* mounted where this namespace does not see it, or more
			 * of them than pair for sure: a share all the same,
			 * known by its bdi alone (no memory of it) */
			d->is_share = true;
			copy(d->bus, sizeof(d->bus), type);
			copy(d->model, sizeof(d->model), bdi);
			return 0;
		}
		x.minor = x.sb_minor[rank];
	} else if (!anon_bdi(bdi, &x.minor)) {
		return -ENOENT;
	}
	if ((r = each_mount(root, find_by_dev, &x)))
		return r;
	if (!x.found)
		return -ENOENT; /* no share mounted there: not one we know */
	d->is_share = true;
	d->is_fuse = is_fuse_type(x.first.fstype) || !strcmp(x.first.fstype, "virtiofs");
	d->major = 0;
	d->minor = x.minor;
	d->mounted = true;
	copy(d->bus, sizeof(d->bus), x.first.fstype);
	shares_name(&x.first, d->model, sizeof(d->model));
	shares_identity(&x.first, d->id, sizeof(d->id));
	return 0;
}

struct under_ctx {
	const char *path;
	size_t best;   /* the longest mount point above it so far */
	bool share;    /* ... is a share's */
};

static int under(const struct share_mount *m, void *ctx)
{
	struct under_ctx *x = ctx;
	size_t n = strlen(m->target);

	/* "/" is above everything; "/mnt/a" above "/mnt/a/f", not "/mnt/ab" */
	if (strncmp(x->path, m->target, n) ||
	    (n > 1 && x->path[n] != '/' && x->path[n] != 0) || (x->best && n < x->best))
		return 0;
	x->best = n ? n : 1;
	x->share = shares_fstype(m->fstype); /* the later of two at one place is on top */
	return 0;
}

bool shares_path_on_share(const char *root, const char *path)
{
	struct under_ctx x = { .path = path };

	return path[0] == '/' && each_mount(root, under, &x) == 0 && x.share;
}

/* Is `target` (mountstats's, unescaped) one of the list's? */
static bool in_list(const char *target, const char *list, size_t size)
{
	for (const char *m = knobs_list_next(list, size, NULL); m; m = knobs_list_next(list, size, m))
		if (!strcmp(m, target))
			return true;
	return false;
}

/* The numbers after "NAME:" on a line, at most `max`; how many. */
static int numbers_after(const char *line, const char *name, uint64_t *v, int max)
{
	const char *p = line;
	int n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, name, strlen(name)))
		return -1;
	p += strlen(name);
	while (n < max) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		n++;
		p = end;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return *p && *p != '\n' && n < max ? -1 : n;
}

/* The kernel's "bytes:" line (nfs_show_stats(): NFSIOS_* byte counters in
 * enum order): normalreadbytes normalwritebytes directreadbytes
 * directwritebytes serverreadbytes serverwritebytes readpages writepages.
 * serverwritebytes is added as each WRITE call completes
 * (nfs_writeback_done, fs/nfs/write.c), the same moment a disk's sectors
 * are counted, and holds O_DIRECT writes too, which never were in the page
 * cache; directwritebytes counts those as they are issued. What the bdi
 * wrote back is the difference (a direct write in flight reads a moment
 * low; a counter that goes back restarts the meter's window). */
#define MS_DIRECT_WRITE 3
#define MS_SERVER_WRITE 5
#define MS_BYTES_FIELDS 8

int shares_parse_mountstats(const char *text, const char *targets, size_t size,
			    struct share_written *ret)
{
	const char *line = text;
	bool in = false, have_bytes = false, have_writes = false;
	struct share_written w = { 0 };

	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		uint64_t v[MS_BYTES_FIELDS];
		int n;
		if (!strncmp(line, "device ", 7)) {
			/* "device SRC mounted on TARGET with fstype TYPE statvers=1.1" */
			char src[SHARE_TEXT_MAX], word[16], target[SHARE_TEXT_MAX], type[32];
			const char *s = line + 7;
			if (in)
				break; /* the next mount's: ours is done */
			in = !field(&s, src, sizeof(src)) && !field(&s, word, sizeof(word)) &&
			     !strcmp(word, "mounted") && !field(&s, word, sizeof(word)) &&
			     !strcmp(word, "on") && !field(&s, target, sizeof(target)) &&
			     !field(&s, word, sizeof(word)) && !strcmp(word, "with") &&
			     !field(&s, word, sizeof(word)) && !strcmp(word, "fstype") &&
			     !field(&s, type, sizeof(type)) &&
			     (!strcmp(type, "nfs") || !strcmp(type, "nfs4")) &&
			     in_list(target, targets, size);
			continue;
		}
		if (!in)
			continue;
		if ((n = numbers_after(line, "bytes:", v, MS_BYTES_FIELDS)) >= 0) {
			if (n != MS_BYTES_FIELDS)
				return -EINVAL;
			w.bytes = v[MS_SERVER_WRITE] > v[MS_DIRECT_WRITE] ?
					  v[MS_SERVER_WRITE] - v[MS_DIRECT_WRITE] : 0;
			have_bytes = true;
		} else if ((n = numbers_after(line, "WRITE:", v, MS_BYTES_FIELDS)) >= 0) {
			/* ops trans timeouts bytes_sent bytes_recv queue rtt execute [errors] */
			if (n < 1)
				return -EINVAL;
			w.writes = v[0];
			have_writes = true;
		} else if ((n = numbers_after(line, "COMMIT:", v, MS_BYTES_FIELDS)) >= 0) {
			/* the same fields; execute: from the call's start to its
			 * reply, the server's stable write included. A line
			 * without it counts none (the bytes stand) */
			if (n >= 8) {
				w.commits = v[0];
				w.commit_ms = v[7];
			}
		}
	}
	if (!have_bytes)
		return in ? -EINVAL : -ENOENT;
	(void)have_writes; /* an old kernel's per-op table may lack it: 0 */
	*ret = w;
	return 0;
}

/* ROOT/REL, a file of /proc, whole in *ret (malloc'd, NUL-ended; the
 * caller frees it), at most `max` bytes of it. */
static int proc_text(const char *root, const char *rel, size_t max, char **ret)
{
	char p[PATH_MAX];
	FILE *f;
	size_t n;
	int r;

	if ((r = path_at(p, sizeof(p), root, "%s", rel)))
		return r;
	if (!(*ret = malloc(max)))
		return -ENOMEM;
	if (!(f = fopen(p, "re"))) {
		r = -errno;
		free(*ret);
		*ret = NULL;
		return r;
	}
	n = fread(*ret, 1, max - 1, f);
	(*ret)[n] = 0;
	fclose(f);
	return 0;
}

int shares_mountstats(const char *root, const struct knobs_dev *d, struct share_written *ret)
{
	char *buf;
	int r;

	if (!d->is_share || strncmp(d->bus, "nfs", 3))
		return -ENOTSUP;
	/* every mount has a block (an NFS one some 3-5 KiB): 1 MiB is
	 * hundreds of NFS mounts */
	if ((r = proc_text(root, "/proc/self/mountstats", 1 << 20, &buf)))
		return r;
	r = shares_parse_mountstats(buf, d->mounts, sizeof(d->mounts), ret);
	free(buf);
	return r;
}

/* "//server/share" of a CIFS source ("//server/share/dir"), or of a tree
 * name with '\\' for '/': its length in `s`, 0 if it is not one. */
static size_t unc_len(const char *s)
{
	size_t n;

	if ((s[0] != '/' && s[0] != '\\') || (s[1] != '/' && s[1] != '\\'))
		return 0;
	n = 2 + strcspn(s + 2, "/\\");
	if (n == 2 || (s[n] != '/' && s[n] != '\\'))
		return 0; /* no server, or no share */
	n++;
	n += strcspn(s + n, "/\\\t\n"); /* a share's name may hold blanks */
	return s[n - 1] == '/' || s[n - 1] == '\\' ? 0 : n;
}

static bool unc_equal(const char *a, const char *b)
{
	size_t n = unc_len(a);

	if (!n || n != unc_len(b))
		return false;
	for (size_t i = 0; i < n; i++) {
		char x = a[i] == '\\' ? '/' : a[i], y = b[i] == '\\' ? '/' : b[i];
		if (tolower((unsigned char)x) != tolower((unsigned char)y))
			return false;
	}
	return true;
}

/* "N) TREE": TREE, or NULL for another line */
static const char *tcon_header(const char *line)
{
	const char *p = line;

	if (*p < '1' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p[0] == ')' && p[1] == ' ' ? p + 2 : NULL;
}

int shares_parse_cifs_stats(const char *text, const char *source, struct share_written *ret)
{
	struct share_written w = { 0 };
	bool in = false, have_bytes = false;
	int found = 0;

	if (!unc_len(source))
		return -ENOENT;
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *tree = tcon_header(line), *p;
		uint64_t v[2];
		char *end;

		if (tree) {
			in = unc_equal(tree, source);
			if (in && ++found > 1)
				return -ENOTUNIQ;
			continue;
		}
		if (!in)
			continue;
		/* SMB2+: "Bytes read: R  Bytes written: W" */
		if (!strncmp(line, "Bytes read:", 11)) {
			if (numbers_after(line, "Bytes read:", v, 1) != 1)
				return -EINVAL;
			end = strstr(line, "Bytes written:");
			if (!end || end > strchrnul(line, '\n') ||
			    numbers_after(end, "Bytes written:", v, 1) != 1)
				return -EINVAL;
			w.bytes = v[0];
			have_bytes = true;
			continue;
		}
		/* SMB1: "Writes: N Bytes: W"; SMB2+: "Writes: N total F failed" */
		if (strncmp(line, "Writes:", 7))
			continue;
		for (p = line + 7; *p == ' '; p++)
			;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v[0] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		if (numbers_after(end, "Bytes:", v + 1, 1) == 1) {
			w.writes = v[0];
			w.bytes = v[1];
			have_bytes = true;
			continue;
		}
		if (strncmp(end, " total ", 7) || end[7] < '0' || end[7] > '9')
			return -EINVAL;
		v[1] = strtoull(end + 7, &end, 10);
		if (errno || strncmp(end, " failed", 7) || (end[7] && end[7] != '\n'))
			return -EINVAL;
		w.writes = v[0] > v[1] ? v[0] - v[1] : 0; /* those the server took */
	}
	if (!found)
		return -ENOENT;
	if (!have_bytes)
		return -EINVAL;
	*ret = w;
	return 0;
}

int shares_cifs_stats(const char *root, const struct knobs_dev *d, struct share_written *ret)
{
	char *buf;
	int r;

	if (!d->is_share || (strcmp(d->bus, "cifs") && strcmp(d->bus, "smb3")))
		return -ENOTSUP;
	/* a few hundred bytes a share, some 2 KiB with CONFIG_CIFS_STATS2's
	 * table a server: 256 KiB is a hundred servers */
	if ((r = proc_text(root, "/proc/fs/cifs/Stats", 256 << 10, &buf)))
		return r;
	r = shares_parse_cifs_stats(buf, d->model, ret);
	free(buf);
	return r;
}
