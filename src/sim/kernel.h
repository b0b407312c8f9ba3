/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated kernel: page cache accounting per device and per inode, the
 * flusher (background threshold, periodic expiry, sync/fsync, start-all),
 * devices with bandwidth profiles and a request queue, and writer tasks
 * throttled by balance_dirty_pages(). Time advances in jiffies; device
 * completions are timed to the microsecond.
 *
 * Control flow follows fs/fs-writeback.c and mm/page-writeback.c; every
 * number comes from src/model. Simplifications (each one says why it is
 * harmless for what wbsim measures) are listed in docs/simulator.md. */
#ifndef WBGOV_SIM_KERNEL_H
#define WBGOV_SIM_KERNEL_H

#include <stdint.h>

#include "model/balance.h"
#include "model/bandwidth.h"
#include "model/bdi.h"
#include "model/fprop.h"
#include "model/limits.h"

#define SIM_MAX_DEV 6
#define SIM_MAX_TASK 8
#define SIM_MAX_BW_SEG 8

/* One stretch of a device's write speed: `bps` for `for_bytes` completed
 * or `for_usec` elapsed since the stretch began (whichever is set; the
 * last stretch has neither and lasts for ever). */
struct sim_bw_seg {
	uint64_t bps;
	uint64_t for_bytes;
	uint64_t for_usec;
};

/* The kernel a scenario describes (enum sim_kver, model/units.h, where the
 * arithmetic lives): 6.1 has no per-bdi strict_limit/max_bytes (added in
 * 6.2); 6.12 has no idle floor in __wb_calc_thresh (6.13/6.14); 6.18 is the
 * model's reference. */

enum sim_bus { BUS_USB, BUS_SATA, BUS_NVME, BUS_VIRTUAL };

/* A share: a bdi with no disk under it (an NFS, CIFS or FUSE mount),
 * written over its link. The kernel gives a FUSE bdi strict_limit and a 1 %
 * max_ratio at its mount (fuse_bdi_init()); wbgovd counts a share's writes
 * by its bdi (debugfs BdiWritten), with no busy time or requests in flight
 * as a disk's stat has. */
enum sim_share { SHARE_NONE, SHARE_NFS, SHARE_CIFS, SHARE_FUSE };

/* The file system on a device, as far as writeback sees it. */
enum sim_fs {
	SIM_FS_EXT4, /* delayed allocation and io_end (io_end_bytes); a journal that
			writes each file's metadata at its commits */
	SIM_FS_VFAT, /* FAT32: mpage's bio holds what one ->writepages call writes of
			a file (contiguous pages merge into one segment), and its pages
			end writeback together when the whole bio is written; no
			journal: a file's metadata (the FAT, its directory entry) is
			dirty page cache of the device itself, written as a file's */
};

struct sim_dev_cfg {
	char name[16];      /* e.g. "sdb" */
	char model[32];
	char serial[32];
	enum sim_bus bus;
	bool removable;
	bool rotational;
	struct sim_bw_seg bw[SIM_MAX_BW_SEG]; /* write speed over time, in order */
	int nbw;             /* stretches in bw[], at least 1 */
	uint64_t queue_bytes; /* what the block layer holds in flight: nr_requests x
				 the request size, plus the bio the flusher is
				 blocked on; 0: no bound (a throttled loop or
				 cgroup io.max: blk-throttle queues whole bios
				 above the request queue) */
	uint64_t bio_bytes;  /* largest bio; its pages complete together (0: page by page) */
	uint64_t io_end_bytes; /* what one ->writepages call submits of one file ends
				  writeback together, when its last bio completes, in
				  pieces of at most this: ext4 converts the unwritten
				  extents it allocated (2048 blocks at most) before it
				  ends their pages' writeback (0: each bio's pages as
				  it completes) */
	uint64_t latency_usec; /* a request completes no sooner than this after its
				  submission: the command round trip, interrupt and
				  driver worker, which take no bandwidth and overlap
				  between requests in flight (0: at its last byte) */
	uint64_t throttle_bps; /* a cgroup's write throttle on it (blkio or io.max),
				  which wbgov reads as wbgovd does; its speed is still
				  bw[] (0: none) */
	enum sim_fs fs;
	uint32_t inflight_files; /* ext4: at most this many files under writeback at
				    once (0: no bound). Each writepages call takes a
				    journal handle with credits reserved for converting
				    its unwritten extents, held until its pages are
				    written, and jbd2 lets half a transaction be
				    reserved: the flusher waits for one to end. Small
				    files: a few hundred KiB in flight */
	bool known;          /* wbgovd measured it before (device memory): the
				machine's own disks, seen every day */
	uint64_t idle_usec;  /* its bdi was registered this long before the start,
				with nothing written since: the kernel's bandwidth
				estimate was last updated then (0: at the start) */
	enum sim_share share; /* SHARE_NONE: a disk */
};

/* ext4's journal commits its transaction this often (jbd2's commit
 * interval, the commit= mount option's default) */
#define JOURNAL_COMMIT_SEC 5

/* 0005's least limit for a written-through wb: two of the flusher's 4 MiB
 * minimum writeback chunks (its limit is 1 s of its estimate, at least this) */
#define WT_CAP_BYTES (8 * MIB)

/* 0002's least vm.dirty_ratio_max_bytes but 0: the ratios of less would
 * give thresholds of a few pages, or none */
#define RATIO_MAX_BYTES_MIN (32 * MIB)

/* Changes to the kernel that the seeds' proposals make. */
enum sim_limit_mode {
	LIMIT_STOCK,        /* the kernel as it is */
	LIMIT_TIME,         /* Gorman: per-device limit = N s of estimated bandwidth */
	LIMIT_WRITETHROUGH, /* Chinner: tiny limits + early I/O for slow devices/streams */
};

struct sim_kernel_cfg {
	struct kcfg k;
	enum sim_kver kver;
	bool series;             /* 6.12 with kernel/'s patches: their knobs exist */
	int later;               /* 0, or a kernel after 6.18 (1 + its index in
				    scenfile.c's later_names): 6.18's arithmetic,
				    its own k.bdp_start */
	uint64_t mem_bytes;
	uint64_t kernel_bytes;   /* kernel memory: neither free nor file LRU */
	uint64_t anon_bytes;     /* applications */
	uint64_t reserve_bytes;  /* totalreserve_pages */
	uint64_t lowmem_bytes;   /* 32-bit only: directly mapped memory */
	bool cap_1g;             /* Linus, mail 004 */
	uint64_t per_file_bytes; /* Dilger, mail 003: 0 = off */
	enum sim_limit_mode limit_mode;
	unsigned time_limit_ds;  /* LIMIT_TIME: N, in tenths of a second */
	uint64_t wt_cap_bytes;   /* writethrough's least limit (0: WT_CAP_BYTES) */
	uint64_t wt_slow_bps;    /* below this estimated bandwidth: writethrough */
	uint64_t wt_stream_bytes; /* a file written sequentially past this: a stream */
	/* 0: every time exact. Else the seed of a deterministic jitter: each
	 * device serves from 0.5x to 1.5x its speed in a jiffy (its mean
	 * unchanged), as a throttle's dispatch slices, a worker's scheduling
	 * and the interrupts' timing make a real device's progress uneven;
	 * where the writeback sawtooth stands when a copy ends moves with it,
	 * as between identical real runs */
	uint64_t seed;
};

enum sim_task_kind { TASK_COPY, TASK_FSYNC_LOOP };
enum sim_task_end { END_NONE, END_SYNC, END_FSYNC };

struct sim_task_cfg {
	enum sim_task_kind kind;
	int dev;
	uint64_t files;          /* COPY: number of files */
	uint64_t file_bytes;     /* COPY: size of each; FSYNC_LOOP: bytes per write */
	uint64_t rate_bps;       /* how fast the task produces data (CPU, source) */
	uint64_t file_cost_usec; /* COPY: each file's time besides its bytes (create,
				    open, close: the file system's CPU work) */
	uint64_t file_meta_bytes; /* COPY: what each file adds to the file system's
				     metadata (its inode, directory entry, bitmaps).
				     ext4: to its journal, written to the device at
				     the journal's commits: every JOURNAL_COMMIT_SEC
				     and at sync or fsync. vfat: dirty pages of the
				     device's own page cache */
	uint64_t start_usec;
	enum sim_task_end end;   /* after the last write */
	uint64_t delete_at_usec; /* unlink every file then (0 = never) */
	uint64_t period_usec;    /* FSYNC_LOOP: one write + fdatasync per period */
	bool background;         /* runs only while the foreground tasks run */
};

/* What a task saw. Times are microseconds from the start. */
struct sim_task_stats {
	uint64_t written_bytes;
	uint64_t write_return_usec;  /* the last write() returned */
	uint64_t durable_usec;       /* its last byte reached the device */
	uint64_t end_call_usec;      /* sync()/fsync() issued */
	uint64_t end_done_usec;      /* ... and returned */
	uint64_t max_pause_usec;     /* longest single throttling pause */
	uint64_t total_pause_usec;
	uint64_t *lat_usec;          /* FSYNC_LOOP: write + fdatasync latencies */
	uint64_t nlat, cap_lat;
	/* each device's Dirty and Writeback, pages, when its last write()
	 * returned: what a probe run then sees, before a sync starts */
	uint64_t return_dirty[SIM_MAX_DEV], return_writeback[SIM_MAX_DEV];
	bool finished;
};

/* A device's /sys/block/X/stat as far as wbgov reads it. */
struct sim_dev_stat {
	uint64_t writes;          /* completed requests: bios, or 128 KiB each without */
	uint64_t sectors_written;
	uint64_t io_ticks_ms;
	uint64_t inflight;
};

struct sim_kernel;

struct sim_kernel *sim_kernel_new(const struct sim_kernel_cfg *cfg, const struct sim_dev_cfg *devs,
				  int ndev, const struct sim_task_cfg *tasks, int ntask);
void sim_kernel_free(struct sim_kernel *s);

/* Advance one jiffy. */
void sim_step(struct sim_kernel *s);
uint64_t sim_now_usec(const struct sim_kernel *s);
uint64_t sim_now_jif(const struct sim_kernel *s);
/* True once every foreground task has finished (its writes, sync, deletes)
 * and, when `until_clean`, nothing dirty is left on any device. */
bool sim_done(const struct sim_kernel *s, bool until_clean);

int sim_ndev(const struct sim_kernel *s);
enum sim_kver sim_kver(const struct sim_kernel *s);
enum bdp_start sim_bdp_start(const struct sim_kernel *s);
int sim_ntask(const struct sim_kernel *s);
const struct sim_dev_cfg *sim_dev_cfg(const struct sim_kernel *s, int dev);
const struct sim_task_stats *sim_task_stats(const struct sim_kernel *s, int task);
const struct sim_task_cfg *sim_task_cfg(const struct sim_kernel *s, int task);

/* Page cache state, in pages. */
uint64_t sim_global_dirty(const struct sim_kernel *s);     /* NR_FILE_DIRTY */
uint64_t sim_global_writeback(const struct sim_kernel *s); /* NR_WRITEBACK */
uint64_t sim_global_dirtied(const struct sim_kernel *s);   /* vmstat nr_dirtied */
uint64_t sim_global_written(const struct sim_kernel *s);   /* vmstat nr_written */
uint64_t sim_dev_dirty(const struct sim_kernel *s, int dev);
uint64_t sim_dev_writeback(const struct sim_kernel *s, int dev);
uint64_t sim_dev_written_bytes(const struct sim_kernel *s, int dev);
void sim_dev_stat(const struct sim_kernel *s, int dev, struct sim_dev_stat *ret);
/* The kernel's own estimate (what debugfs shows), pages/s. */
uint64_t sim_dev_kernel_bw(const struct sim_kernel *s, int dev);
/* The global thresholds as the kernel computes them now, pages. */
void sim_global_limits(const struct sim_kernel *s, uint64_t *ret_thresh, uint64_t *ret_bg,
		       uint64_t *ret_avail);
/* The wb threshold a writer of `dev` is throttled against now, pages. */
uint64_t sim_dev_wb_thresh(const struct sim_kernel *s, int dev);

/* The sysctls and the bdi attribute that kernel/'s series adds, numbered
 * after enum vm_knob's and enum bdi_attr's: they exist only in a simulated
 * kernel with cfg.series (kernel = 6.12+series), as in the patched kernel. */
enum sim_series_vm {
	SIM_VM_DIRTY_RATIO_MAX_BYTES = VM_KNOB_COUNT, /* 0002 (Linus) */
	SIM_VM_DIRTY_FILE_WRITEOUT_BYTES,             /* 0004 (Dilger) */
	SIM_VM_DIRTY_WRITETHROUGH_BANDWIDTH,          /* 0005 (Chinner), bytes/s */
	SIM_VM_COUNT
};
enum sim_series_bdi {
	SIM_BDI_MAX_TIME_MS = BDI_ATTR_COUNT,         /* 0003 (Gorman) */
	SIM_BDI_COUNT
};
/* Every knob's name, the series' included, indexed by the enums above */
extern const char *const sim_vm_names[SIM_VM_COUNT];
extern const char *const sim_bdi_names[SIM_BDI_COUNT];

/* The kernel's knobs, with the kernel's semantics: `knob` an enum vm_knob
 * or sim_series_vm, `attr` an enum bdi_attr or sim_series_bdi. 0 or -errno;
 * -ENOENT for a knob this kernel has no file for. */
int sim_vm_write(struct sim_kernel *s, int knob, uint64_t value);
uint64_t sim_vm_read(const struct sim_kernel *s, int knob);

int sim_bdi_write(struct sim_kernel *s, int dev, int attr, uint64_t value);
uint64_t sim_bdi_read(const struct sim_kernel *s, int dev, int attr);

#endif
