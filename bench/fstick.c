/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/busy's slow device: fstick MOUNTPOINT SIZE_MIB RATE_BYTES_PER_S [LOG]
 *
 * A slow device that never catches up on idle time: a FUSE file system (the
 * kernel's protocol on /dev/fuse, no libfuse) holding one file, MOUNTPOINT/dev,
 * in memory. Writes are served one at a time, each taking len / RATE from the
 * moment the device is free or the write arrives, whichever is later: time
 * the device spends with nothing to do is lost, as on a USB stick.
 * (blk-throttle gives back idle time within its 100 ms slice, and a token
 * bucket a bucket's worth: a gap of tens of ms between two bios costs a
 * throttled loop nothing, and a stick its length.) Reads are not slowed. A
 * loop device with direct I/O over MOUNTPOINT/dev is the stick: each of its
 * requests reaches this file as one or two writes (1 MiB at most).
 * Runs in the foreground until unmounted; as fast as memory until SIGUSR2
 * (mkfs before it; SIGUSR1: fast again). Run it at a real-time priority
 * (chrt -f): on a loaded machine its own wakeups would add device time.
 *
 * LOG, while throttled: "I FREE_US ARRIVAL_US", an interval the device had
 * nothing to do (from when it went free to the next write's arrival), and
 * "W START_US END_US BYTES REPLY_US" per write (REPLY_US after END_US: this
 * process was late), CLOCK_BOOTTIME microseconds (the clock of /proc/uptime).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_WRITE (1024 * 1024)
#define BUF_SIZE (MAX_WRITE + 65536)

static unsigned char *store;
static uint64_t size_bytes, rate_bps, free_at_ns, written_bytes;
static int fd;
static FILE *idle_log;
/* SIGUSR2: served at RATE from then on; SIGUSR1: as fast as memory (mkfs) */
static volatile sig_atomic_t limited;
static void on_usr(int sig) { limited = sig == SIGUSR2; }

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ULL), (long)(t % 1000000000ULL) };
	while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void reply(uint64_t unique, int err, const void *data, size_t len)
{
	struct fuse_out_header h = { .len = (uint32_t)(sizeof h + len), .error = -err, .unique = unique };
	struct iovec iov[2] = { { &h, sizeof h }, { (void *)data, len } };
	if (writev(fd, iov, data && len ? 2 : 1) < 0 && errno != ENOENT)
		perror("fstick: writev");
}

static void fill_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof *a);
	a->ino = ino;
	if (ino == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0600;
		a->nlink = 1;
		a->size = size_bytes;
		a->blocks = size_bytes / 512;
	}
	a->blksize = 4096;
}

int main(int argc, char **argv)
{
	char opts[256];
	unsigned char *buf;

	if (argc == 5) {
		idle_log = fopen(argv[4], "w");
		if (idle_log)
			setvbuf(idle_log, NULL, _IOFBF, 1 << 22);
	}
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: fstick MOUNTPOINT SIZE_MIB RATE_BYTES_PER_S\n");
		return 64;
	}
	size_bytes = strtoull(argv[2], NULL, 10) << 20;
	rate_bps = strtoull(argv[3], NULL, 10);
	store = mmap(NULL, size_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf = malloc(BUF_SIZE);
	if (store == MAP_FAILED || !buf || !rate_bps)
		return 70;
	struct sigaction sa = { .sa_handler = on_usr };
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("fstick: /dev/fuse");
		return 71;
	}
	snprintf(opts, sizeof opts, "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fd);
	if (mount("fstick", argv[1], "fuse.fstick", MS_NOSUID | MS_NODEV, opts)) {
		perror("fstick: mount");
		return 72;
	}
	for (;;) {
		ssize_t n = read(fd, buf, BUF_SIZE);
		if (n < 0) {
			if (errno == EINTR || errno == ENOENT || errno == EAGAIN)
				continue;
			if (errno == ENODEV)
				break; /* unmounted */
			perror("fstick: read");
			return 73;
		}
		struct fuse_in_header *in = (void *)buf;
		void *arg = buf + sizeof *in;
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *ii = arg;
			struct fuse_init_out o = { 0 };
			o.major = FUSE_KERNEL_VERSION;
			o.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ? ii->minor : FUSE_KERNEL_MINOR_VERSION;
			o.max_readahead = ii->max_readahead;
			o.flags = (FUSE_ASYNC_DIO | FUSE_BIG_WRITES | FUSE_MAX_PAGES) & ii->flags;
			o.max_background = 16;
			o.congestion_threshold = 12;
			o.max_write = MAX_WRITE;
			o.time_gran = 1;
			o.max_pages = MAX_WRITE / 4096;
			reply(in->unique, 0, &o, sizeof o);
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out e = { 0 };
			if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, "dev")) {
				reply(in->unique, ENOENT, NULL, 0);
				break;
			}
			e.nodeid = 2;
			e.attr_valid = e.entry_valid = 3600;
			fill_attr(&e.attr, 2);
			reply(in->unique, 0, &e, sizeof e);
			break;
		}
		case FUSE_GETATTR:
		case FUSE_SETATTR: {
			struct fuse_attr_out a = { 0 };
			a.attr_valid = 3600;
			fill_attr(&a.attr, in->nodeid);
			reply(in->unique, 0, &a, sizeof a);
			break;
		}
		case FUSE_OPEN:
		case FUSE_OPENDIR: {
			struct fuse_open_out o = { 0 };
			reply(in->unique, 0, &o, sizeof o);
			break;
		}
		case FUSE_READ: {
			struct fuse_read_in *r = arg;
			uint64_t off = r->offset, len = r->size;
			if (in->nodeid != 2 || off >= size_bytes)
				len = 0;
			else if (off + len > size_bytes)
				len = size_bytes - off;
			reply(in->unique, 0, store + (len ? off : 0), len);
			break;
		}
		case FUSE_WRITE: {
			struct fuse_write_in *w = arg;
			const unsigned char *data = (const unsigned char *)(w + 1);
			struct fuse_write_out o = { 0 };
			uint64_t off = w->offset, len = w->size, start, t;
			if (off >= size_bytes || off + len > size_bytes) {
				reply(in->unique, ENOSPC, NULL, 0);
				break;
			}
			memcpy(store + off, data, len);
			/* serial service, no credit for idle time */
			t = now_ns();
			if (!limited)
				free_at_ns = t;
			start = free_at_ns > t ? free_at_ns : t;
			if (limited && idle_log && t > free_at_ns && free_at_ns)
				fprintf(idle_log, "I %llu %llu\n", (unsigned long long)(free_at_ns / 1000),
					(unsigned long long)(t / 1000));
			if (limited) {
				free_at_ns = start + len * 1000000000ULL / rate_bps;
			}
			sleep_until(free_at_ns);
			if (limited && idle_log)
				fprintf(idle_log, "W %llu %llu %llu %llu\n", (unsigned long long)(start / 1000),
					(unsigned long long)(free_at_ns / 1000), (unsigned long long)len,
					(unsigned long long)(now_ns() / 1000));
			written_bytes += len;
			o.size = (uint32_t)len;
			reply(in->unique, 0, &o, sizeof o);
			break;
		}
		case FUSE_READDIR:
			reply(in->unique, 0, NULL, 0);
			break;
		case FUSE_STATFS: {
			struct fuse_statfs_out s = { 0 };
			s.st.bsize = s.st.frsize = 4096;
			s.st.blocks = size_bytes / 4096;
			s.st.namelen = 255;
			reply(in->unique, 0, &s, sizeof s);
			break;
		}
		case FUSE_FLUSH:
		case FUSE_RELEASE:
		case FUSE_RELEASEDIR:
		case FUSE_FSYNC:
		case FUSE_FSYNCDIR:
		case FUSE_ACCESS:
			reply(in->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;
		case FUSE_DESTROY:
			reply(in->unique, 0, NULL, 0);
			goto out;
		case FUSE_FALLOCATE:
			reply(in->unique, EOPNOTSUPP, NULL, 0);
			break;
		default:
			reply(in->unique, ENOSYS, NULL, 0);
			break;
		}
	}
out:
	if (idle_log)
		fclose(idle_log);
	fprintf(stderr, "fstick: %llu bytes written\n", (unsigned long long)written_bytes);
	return 0;
}
