/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd on D-Bus (sd-bus): what it knows of each device, for desktops —
 * name, model, mounts, measured bandwidth, cap, data still to write and
 * the seconds it takes — as read-only properties with PropertiesChanged
 * while data drains, and a Sync method. docs/desktop.md is the API:
 *
 *   name    io.github.wbgov.Governor1
 *   /io/github/wbgov/Governor1                io.github.wbgov.Governor1.Manager,
 *                                       org.freedesktop.DBus.ObjectManager
 *   /io/github/wbgov/Governor1/device/<name>  io.github.wbgov.Governor1.Device
 *
 * Governing never waits for the bus: the connection is made without
 * waiting (sd-bus's Hello and the name request are asynchronous, every
 * call bounded by BUS_TIMEOUT_USEC); a bus that cannot be reached, does
 * not answer, takes no more messages or goes away is logged once and tried
 * again now and then; a method that takes long (Sync) runs in a child
 * process and is answered when it ends; the questions Sync asks before
 * it starts (who calls, from the bus; may they, from polkit) are
 * asynchronous calls, each bounded, answered through the same loop. At
 * stop nothing waits past a bound: Sync children get SIGTERM, what is
 * queued gets BUS_FLUSH_USEC. */
#ifndef WBGOV_DAEMON_BUS_H
#define WBGOV_DAEMON_BUS_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/features.h"
#include "policy/governor.h"
#include "sys/busname.h"
#include "sys/knobs_real.h"
#include "sys/procfs.h"

#define BUS_NAME "io.github.wbgov.Governor1"
#define BUS_PATH "/io/github/wbgov/Governor1"
#define BUS_DEVICE_PREFIX "/io/github/wbgov/Governor1/device"
#define BUS_MANAGER_IFACE "io.github.wbgov.Governor1.Manager"
#define BUS_DEVICE_IFACE "io.github.wbgov.Governor1.Device"

/* Data still to write is looked at every 250 ms while a device holds
 * some, and its PropertiesChanged comes at most that often (4 a second:
 * a progress bar moves smoothly; a file manager redraws no faster). */
#define BUS_PENDING_USEC 250000ULL
/* ... and every second for the other devices while the system holds any
 * data dirty or under writeback (a device's data is part of it: when this
 * waited for 1 MiB, a stick holding less read 0); an idle system reads
 * nothing for the bus. */
#define BUS_IDLE_READ_USEC 1000000ULL
/* A bdi without counters in debugfs is looked for again this often. */
#define BUS_RECHECK_USEC 60000000ULL
/* A lost or refused bus is tried again this often. */
#define BUS_RETRY_USEC 10000000ULL
/* A connection that has not got its name within this is dropped (a bus
 * daemon stopped, or too busy to answer: sd-bus's own wait for the
 * authentication is 90 s); each call (Hello, RequestName) is bounded by
 * it too. A busy system bus answers in milliseconds. */
#define BUS_TIMEOUT_USEC 5000000ULL
/* A write queue that has not emptied for BUS_TIMEOUT_USEC, or holds more
 * than this many messages, is a peer that takes no more (a stopped bus
 * daemon; the socket's buffer full): the connection is dropped and made
 * anew later, instead of growing without bound. 70 devices signalling 4
 * times a second queue 280 messages a second. */
#define BUS_QUEUE_MAX 4096
/* At stop, what is queued (the answers to Sync calls) gets this long to
 * leave; a bus that takes nothing is closed without waiting. */
#define BUS_FLUSH_USEC 150000ULL
/* Sync calls running at once (each a child process). */
#define BUS_MAX_JOBS 8
/* At most this much of the bus's work a pass of wbgovd's loop (messages
 * handled, replies sent): whoever may call it (anyone may call the
 * ObjectManager) cannot keep the governor, its metrics or SIGTERM waiting.
 * Handling until sd-bus had nothing left, one client pipelining
 * GetManagedObjects left 17.5 s between passes. What is left waits for the
 * next pass, which comes at once. */
#define BUS_PASS_USEC 20000ULL
#define BUS_PASS_MESSAGES 64
/* Sync calls waiting at once for polkit's answer: each holds only the
 * call. Twice as many may wait for the bus to say who calls (in
 * milliseconds), so that calls held by a hung polkit never keep root's
 * Sync, which polkit is not asked about, from starting. */
#define BUS_MAX_AUTHS 16
/* ... of which one user's calls may hold this many: a user who calls
 * Sync in a loop against a polkit that asks for a password (or hangs)
 * keeps the others' calls from waiting for nothing but their own. */
#define BUS_MAX_AUTHS_PER_UID 4
#define BUS_AUTH_SLOTS (2 * BUS_MAX_AUTHS)
/* The polkit action a caller other than root needs for Sync
 * (etc/polkit/io.github.wbgov.Governor1.policy). */
#define BUS_POLKIT_ACTION "io.github.wbgov.sync"
/* polkit answers a check without user interaction in milliseconds; one
 * not answered within this is a refusal ("polkit did not answer"). Below
 * D-Bus' default call timeout (25 s), so that the caller gets the reason
 * and not its own timeout. */
#define BUS_AUTH_USEC 10000000ULL
/* ... and with user interaction allowed, a person reads a dialog and types
 * a password: five minutes. */
#define BUS_AUTH_INTERACTIVE_USEC 300000000ULL

/* What a device object shows; Get and PropertiesChanged give the values
 * last published, so a client that follows the signals and one that
 * asks see the same. */
struct bus_props {
	char name[KNOBS_NAME_MAX];      /* "sdb", or the bdi when it is not a disk's own */
	char bdi[KNOBS_NAME_MAX];
	char disk[KNOBS_NAME_MAX];
	char model[3 * KNOBS_NAME_MAX]; /* valid UTF-8: a bad byte is U+FFFD */
	char busname[32];               /* "usb", "ata", ...; a share's type, "nfs4" */
	const char *kind;               /* "disk", or "share" (knobs_dev.is_share) */
	bool share;                     /* ... and so mounts of its st_dev, not its disk's */
	unsigned share_minor;
	struct mount_list mounts;       /* valid UTF-8, as model */
	uint64_t bw_bps;
	int source;                     /* enum bw_source */
	uint64_t cap_bytes;             /* 0: no cap */
	bool pending_known;             /* the kernel tells (debugfs) */
	uint64_t pending_bytes;         /* dirty + writeback, 0 when not known */
	double drain_s;                 /* -1: not known */
	uint64_t devnum;                /* the disk's dev_t (makedev), 0: the bdi is no disk's */
	char block_object[200];         /* udisks' object of that disk, "/": none */
	const char *state;              /* gov_state_key(): "capped", "left_alone"... */
	char why[256];
};

struct bus;

struct bus_dev {
	struct bus *owner;
	char path[160];
	int gi;                    /* its index in the governor's dev[], checked */
	struct bus_props p;        /* published */
	struct bus_props n;        /* read now (scratch) */
	bool counters;             /* debugfs has this bdi: worth reading */
	uint64_t read_usec;        /* counters last read */
	uint64_t emitted_usec;     /* pending last published */
	bool deferred;             /* a pending change waits for its turn */
};

struct bus_job {
	pid_t pid;                 /* 0: free */
	int fd;                    /* the child's stderr: EOF when it ends */
	struct sd_bus_message *call;
	char err[256];
	size_t errlen;
	char path[160];
};

/* A Sync call waiting for its authorization: first the caller's uid
 * (GetConnectionCredentials), then, for all but root, polkit's answer. */
struct bus_auth {
	struct bus *owner;
	struct sd_bus_message *call; /* NULL: free */
	struct sd_bus_slot *slot;    /* the question in flight */
	char path[160];              /* the device's object */
	bool interactive;            /* polkit may ask the user */
	uint32_t uid;                /* the caller's, once known */
	char cancel_id[32];          /* polkit's cancellation id of the check */
	uint64_t asked_usec;         /* when polkit was asked (CLOCK_MONOTONIC) */
	bool polkit;                 /* ... and its answer is awaited */
};

struct bus {
	enum bus_kind kind;
	const char *address;       /* BUS_ADDRESS */
	const char *root;
	struct knobs_real *real;
	struct features *features; /* where the bus says whether it is up */
	struct sd_bus *bus;        /* NULL: not connected */
	bool up;                   /* ... connected and the name is ours */
	int name_r;                /* the name request's answer: 0 none yet, 1 ours, -errno */
	uint64_t deadline_usec;    /* not up by then: dropped */
	uint64_t stall_usec;       /* since when the write queue has not emptied; 0 */
	bool stopping;             /* bus_stop_begin: no new Sync */
	bool failed_logged;        /* "cannot reach the bus" said */
	uint64_t retry_usec;       /* next attempt to connect */
	uint64_t next_usec;        /* next refresh */
	bool wake;                 /* ... worth a wakeup of its own */
	bool mounts_stale;         /* the mount table changed */
	bool more;                 /* the last pass left work: the next comes at once */
	struct mount_table *mt;    /* read once in a bus_update, NULL between */
	struct bus_dev *dev;       /* one per device of the governor (knobs/room.h) */
	int ndev, dev_room;
	bool nomem_logged;         /* "no memory for an object" said */
	struct bus_job jobs[BUS_MAX_JOBS];
	struct bus_auth auths[BUS_AUTH_SLOTS];
	unsigned auth_seq;         /* for the polkit cancellation ids */
};


/* Begin to connect and take the name, without waiting: the objects are
 * published when the name is ours (bus_update). A failure is logged and
 * tried again later (BUS_RETRY_USEC). Call before the daemon confines
 * itself. */
void bus_start(struct bus *b, enum bus_kind kind, const char *address, const char *root,
	       struct knobs_real *real, struct features *features);

/* The mount table changed (the daemon's loop watches mountinfo): each
 * device's Mounts is read again at the next bus_update, not every second. */
void bus_mounts_changed(struct bus *b);

/* Bring the objects in line with the governor's devices (`changed`: the
 * set or a decision moved), read what is due and publish what moved
 * materially. Returns how long until it wants to be called again, in
 * microseconds (UINT64_MAX: not before something happens). */
uint64_t bus_update(struct bus *b, const struct governor *g, bool changed, uint64_t now_usec);

/* ppoll: the descriptors the bus wants watched, at most `max`, into pfd;
 * how many. *timeout_usec is lowered to what the bus needs. */
int bus_pollfds(struct bus *b, struct pollfd *pfd, int max, uint64_t now_usec,
		uint64_t *timeout_usec);

/* After ppoll: handle what arrived on the descriptors of bus_pollfds (the
 * same pfd and count), and what is queued on the connection. */
void bus_dispatch(struct bus *b, const struct pollfd *pfd, int n);

/* Stopping: Sync is refused from here on, and each Sync child gets
 * SIGTERM (bus_pollfds and bus_dispatch reap those that end). */
void bus_stop_begin(struct bus *b);

/* Sync children still running. */
int bus_jobs(const struct bus *b);

/* Off the bus: each Sync still running is answered with an error and left
 * to finish (logged with its pid), what is queued gets until
 * `flush_until_usec` (CLOCK_MONOTONIC) to leave, and the connection is
 * closed. */
void bus_stop(struct bus *b, uint64_t flush_until_usec);

/* The object path of a device ("/io/github/wbgov/Governor1/device/sdb"), from
 * its name escaped as sd_bus_path_encode does (udisks' way: dm-0 ->
 * dm_2d0). 0 or -errno. */
int bus_device_path(const struct knobs_dev *info, char *buf, size_t len);

/* udisks' object of the device's disk, for a client that has udisks'
 * objects: "/org/freedesktop/UDisks2/block_devices/" and the disk's name
 * escaped as udisks escapes it (every byte but [A-Za-z0-9_] as _xx: dm-0 ->
 * dm_2d0); "/" when the bdi is not a disk's own (btrfs-1, 8:16-fuseblk).
 * 0 or -ENAMETOOLONG. */
int bus_block_object(const struct knobs_dev *info, char *buf, size_t len);

/* The disk's device number as udisks' Block.DeviceNumber gives it (the
 * dev_t of makedev, not MAJOR << 8 | MINOR); 0 when the bdi is not a disk's
 * own. */
uint64_t bus_device_number(const struct knobs_dev *info);

/* `s` as valid UTF-8 into buf: every byte that is not part of a valid
 * sequence becomes U+FFFD, control characters too; cut to fit. */
void bus_clean_utf8(char *buf, size_t len, const char *s);

#endif
