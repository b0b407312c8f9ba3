/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/fidelity's two probes, one static binary so that a busybox guest
 * runs it as is (a shell loop forking awk every 100 ms would itself load a
 * TCG guest's CPU and skew what it measures):
 *
 *   fidelity-probe sample OUT [STATS]
 *                                every 100 ms, "UPTIME_S DIRTY_KIB WRITEBACK_KIB"
 *                                from /proc/meminfo (the machine's) or from a
 *                                bdi's debugfs STATS (BdiReclaimable and
 *                                BdiWriteback: that device's alone, then its
 *                                BdiWriteBandwidth in kB/s and BdiDirtyThresh
 *                                in kB) to OUT, until SIGTERM
 *   fidelity-probe statlog OUT STAT
 *                                every 50 ms, "UPTIME_S" and a block device's
 *                                STAT line (/sys/block/X/stat) as it reads,
 *                                to OUT, until SIGTERM or the file goes (the
 *                                disk unplugged): what wbgovd's meter reads
 *                                without debugfs, at its fastest poll
 *   fidelity-probe once [STATS]  one such sample, to stdout (the moment dd
 *                                returns, which 100 ms samples may miss)
 *   fidelity-probe latency FILE  the device's time per request: 200 writes of
 *                                4 KiB with O_DIRECT | O_DSYNC over FILE's
 *                                first 4 KiB; prints the median in µs
 *   fidelity-probe fsync FILE    a 4 KiB pwrite at offset 0 + fdatasync every
 *                                10 ms (started on the period, as wbsim's
 *                                fsync-loop), until SIGTERM; then prints
 *                                "fsync n N p50_ms X p99_ms Y max_ms Z"
 *   fidelity-probe now           the time in seconds, to the microsecond
 *   fidelity-probe files DIR COUNT SIZE
 *                                COUNT files of SIZE bytes, 256 to a
 *                                directory (DIR/0, DIR/1, ...), written in
 *                                order with write(2) and closed, no sync:
 *                                bench/kernel's many-small-files writers (a
 *                                shell forking dd per file would spend a TCG
 *                                guest's time on the forks)
 *   fidelity-probe fsyncfile FILE
 *                                fsync(2) FILE (a copy's own fsync after
 *                                its last write, timed apart from it)
 *   fidelity-probe copy FILE MIB SERVERFILE
 *                                MIB MiB written to FILE in 1 MiB writes,
 *                                then closed, as a copy tool does;
 *                                SERVERFILE is the same file as its server
 *                                stores it (bench/netfs: a share served by
 *                                the same guest): after each write, what it
 *                                holds (its blocks, so that a size set
 *                                ahead of the data does not count). Prints
 *                                "write_s W close_s C held_mib H
 *                                max_ahead_mib A": the writes' time, the
 *                                close's, what the server held when the
 *                                last write returned, and the most the
 *                                writer was ever ahead of the server
 *
 * Times are CLOCK_BOOTTIME, the clock of /proc/uptime, so that the samples
 * line up with the shell's timestamps of dd and sync.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 10 minutes of 10 ms periods: more than any run of the bench */
#define MAX_LAT 60000

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void sleep_until(uint64_t t)
{
	uint64_t n = now_usec();

	if (t > n) {
		struct timespec d = { .tv_sec = (time_t)((t - n) / 1000000),
				      .tv_nsec = (long)((t - n) % 1000000) * 1000 };
		nanosleep(&d, NULL);
	}
}

/* Dirty and Writeback from /proc/meminfo, or a bdi's own from its debugfs
 * stats (`bdi`) */
static int meminfo(FILE *f, bool bdi, long *dirty, long *wb, long *bw, long *thresh)
{
	char line[128];
	int got = 0;

	rewind(f);
	fflush(f);
	*bw = *thresh = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, bdi ? "BdiReclaimable: %ld kB" : "Dirty: %ld kB", dirty) == 1)
			got |= 1;
		else if (sscanf(line, bdi ? "BdiWriteback: %ld kB" : "Writeback: %ld kB", wb) == 1)
			got |= 2;
		else if (bdi && sscanf(line, "BdiWriteBandwidth: %ld kBps", bw) == 1)
			got |= 4;
		else if (bdi && sscanf(line, "BdiDirtyThresh: %ld kB", thresh) == 1)
			got |= 8;
		if (got == (bdi ? 15 : 3))
			break;
	}
	return (got & 3) == 3 ? 0 : -EIO;
}

/* one sample's line: the bdi's estimate and threshold where it has them */
static void print_sample(FILE *o, uint64_t t, long d, long w, long bw, long thresh)
{
	fprintf(o, "%llu.%03llu %ld %ld", (unsigned long long)(t / 1000000),
		(unsigned long long)(t % 1000000 / 1000), d, w);
	if (bw >= 0 && thresh >= 0)
		fprintf(o, " %ld %ld", bw, thresh);
	fputc('\n', o);
}

static int once(const char *stats)
{
	const char *src = stats ? stats : "/proc/meminfo";
	FILE *m = fopen(src, "r");
	uint64_t t = now_usec();
	long d, w, bw, thresh;

	if (!m || meminfo(m, stats != NULL, &d, &w, &bw, &thresh)) {
		fprintf(stderr, "fidelity-probe: no Dirty/Writeback in %s\n", src);
		return 1;
	}
	fclose(m);
	print_sample(stdout, t, d, w, bw, thresh);
	return 0;
}

static int sample(const char *out, const char *stats)
{
	const char *src = stats ? stats : "/proc/meminfo";
	FILE *m = fopen(src, "r");
	FILE *o = fopen(out, "w");
	uint64_t t0 = now_usec();

	if (!m || !o) {
		fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", m ? out : src, strerror(errno));
		return 1;
	}
	setvbuf(m, NULL, _IONBF, 0);
	for (uint64_t i = 1; !stop; i++) {
		long d, w, bw, thresh;
		uint64_t t = now_usec();

		if (meminfo(m, stats != NULL, &d, &w, &bw, &thresh)) {
			fprintf(stderr, "fidelity-probe: no Dirty/Writeback in %s\n", src);
			return 1;
		}
		print_sample(o, t, d, w, bw, thresh);
		fflush(o);
		sleep_until(t0 + i * 100000);
	}
	return fclose(o) ? 1 : 0;
}

static int statlog(const char *out, const char *stat)
{
	FILE *o = fopen(out, "w");
	uint64_t t0 = now_usec();

	if (!o) {
		fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", out, strerror(errno));
		return 1;
	}
	for (uint64_t i = 1; !stop; i++) {
		char line[512];
		uint64_t t = now_usec();
		FILE *f = fopen(stat, "r");

		if (!f)
			break;
		if (fgets(line, sizeof(line), f))
			fprintf(o, "%llu.%06llu %s", (unsigned long long)(t / 1000000),
				(unsigned long long)(t % 1000000), line);
		fclose(f);
		fflush(o);
		sleep_until(t0 + i * 50000);
	}
	return fclose(o) ? 1 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the nearest-rank percentile, as wbsim's percentile() */
static double pct_ms(const uint64_t *v, int n, int p)
{
	int k;

	if (!n)
		return 0;
	k = (n * p + 99) / 100 - 1;
	if (k < 0)
		k = 0;
	return (double)v[k] / 1e3;
}

static int fsync_loop(const char *path)
{
	static uint64_t lat[MAX_LAT];
	static char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	int n = 0;

	if (fd < 0) {
		fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(buf, 'f', sizeof(buf));
	while (!stop && n < MAX_LAT) {
		uint64_t t0 = now_usec();

		if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf) || fdatasync(fd)) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "fidelity-probe: %s: %s\n", path, strerror(errno));
			return 1;
		}
		lat[n++] = now_usec() - t0;
		/* a period after this one began: at once after one that overran */
		sleep_until(t0 + 10000);
	}
	close(fd);
	qsort(lat, (size_t)n, sizeof(lat[0]), cmp_u64);
	printf("fsync n %d p50_ms %.2f p99_ms %.2f max_ms %.2f\n", n, pct_ms(lat, n, 50),
	       pct_ms(lat, n, 99), n ? (double)lat[n - 1] / 1e3 : 0.0);
	return 0;
}

static int latency(const char *path)
{
	static uint64_t lat[200];
	void *buf;
	int fd = open(path, O_WRONLY | O_CREAT | O_DIRECT | O_DSYNC, 0644);

	if (fd < 0 || posix_memalign(&buf, 4096, 4096)) {
		fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(buf, 'l', 4096);
	/* the block allocated first: the writes after it overwrite in place */
	if (pwrite(fd, buf, 4096, 0) != 4096 || fsync(fd)) {
		fprintf(stderr, "fidelity-probe: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < 200; i++) {
		uint64_t t0 = now_usec();
		if (pwrite(fd, buf, 4096, 0) != 4096) {
			fprintf(stderr, "fidelity-probe: %s: %s\n", path, strerror(errno));
			return 1;
		}
		lat[i] = now_usec() - t0;
	}
	close(fd);
	free(buf);
	qsort(lat, 200, sizeof(lat[0]), cmp_u64);
	printf("%llu\n", (unsigned long long)lat[100]);
	return 0;
}

static int files(const char *dir, const char *count, const char *size)
{
	static char buf[1 << 20];
	char *end;
	unsigned long n = strtoul(count, &end, 10), sz;
	char path[4096];

	if (*end || !n || n > 1000000) {
		fprintf(stderr, "fidelity-probe: files: COUNT \"%s\": want 1 to 1000000\n", count);
		return 64;
	}
	sz = strtoul(size, &end, 10);
	if (*end || !sz || sz > (1UL << 30)) {
		fprintf(stderr, "fidelity-probe: files: SIZE \"%s\": want 1 to 1 GiB in bytes\n", size);
		return 64;
	}
	memset(buf, 'f', sizeof(buf));
	for (unsigned long i = 0; i < n; i++) {
		unsigned long left = sz;
		int fd;

		if (i % 256 == 0) {
			snprintf(path, sizeof(path), "%s/%lu", dir, i / 256);
			if (mkdir(path, 0755) && errno != EEXIST) {
				fprintf(stderr, "fidelity-probe: mkdir %s: %s\n", path, strerror(errno));
				return 1;
			}
		}
		snprintf(path, sizeof(path), "%s/%lu/%lu", dir, i / 256, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", path, strerror(errno));
			return 1;
		}
		while (left) {
			size_t c = left < sizeof(buf) ? left : sizeof(buf);
			ssize_t w = write(fd, buf, c);

			if (w <= 0) {
				fprintf(stderr, "fidelity-probe: %s: %s\n", path,
					w < 0 ? strerror(errno) : "short write");
				return 1;
			}
			left -= (unsigned long)w;
		}
		if (close(fd)) {
			fprintf(stderr, "fidelity-probe: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int fsync_file(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || fsync(fd)) {
		fprintf(stderr, "fidelity-probe: fsync %s: %s\n", path, strerror(errno));
		return 1;
	}
	return close(fd) ? 1 : 0;
}

/* st_blocks of PATH in bytes; 0 when it cannot be read */
static uint64_t held_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

static int copy(const char *path, const char *mib, const char *server)
{
	static char buf[1 << 20];
	char *end;
	unsigned long n = strtoul(mib, &end, 10);
	uint64_t t0, tw, tc, held = 0, ahead = 0;
	int fd;

	if (*end || !n || n > 65536) {
		fprintf(stderr, "fidelity-probe: copy: MIB \"%s\": want 1 to 65536\n", mib);
		return 64;
	}
	memset(buf, 'c', sizeof(buf));
	t0 = now_usec();
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "fidelity-probe: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (unsigned long i = 1; i <= n; i++) {
		size_t done = 0;

		while (done < sizeof(buf)) {
			ssize_t w = write(fd, buf + done, sizeof(buf) - done);

			if (w <= 0) {
				fprintf(stderr, "fidelity-probe: %s: %s\n", path,
					w < 0 ? strerror(errno) : "short write");
				close(fd);
				return 1;
			}
			done += (size_t)w;
		}
		held = held_bytes(server);
		if (((uint64_t)i << 20) > held && ((uint64_t)i << 20) - held > ahead)
			ahead = ((uint64_t)i << 20) - held;
	}
	tw = now_usec();
	if (close(fd)) {
		fprintf(stderr, "fidelity-probe: close %s: %s\n", path, strerror(errno));
		return 1;
	}
	tc = now_usec();
	printf("write_s %.3f close_s %.3f held_mib %.1f max_ahead_mib %.1f\n", (double)(tw - t0) / 1e6,
	       (double)(tc - tw) / 1e6, (double)held / 1048576, (double)ahead / 1048576);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };

	/* no SA_RESTART: SIGTERM ends a sleep or an fdatasync wait at once */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (argc == 2 && !strcmp(argv[1], "now")) {
		uint64_t t = now_usec();

		printf("%llu.%06llu\n", (unsigned long long)(t / 1000000),
		       (unsigned long long)(t % 1000000));
		return 0;
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "sample"))
		return sample(argv[2], argc == 4 ? argv[3] : NULL);
	if (argc == 4 && !strcmp(argv[1], "statlog"))
		return statlog(argv[2], argv[3]);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "once"))
		return once(argc == 3 ? argv[2] : NULL);
	if (argc == 3 && !strcmp(argv[1], "latency"))
		return latency(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fsync"))
		return fsync_loop(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "files"))
		return files(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "fsyncfile"))
		return fsync_file(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "copy"))
		return copy(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: fidelity-probe sample OUT [STATS] | statlog OUT STAT | fsync FILE | once [STATS] | latency FILE | "
			"files DIR COUNT SIZE | fsyncfile FILE | copy FILE MIB SERVERFILE | now\n");
	return 64;
}
