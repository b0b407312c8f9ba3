/* /proc: meminfo, the vm.dirty_* sysctls, mountinfo. Paths under `root`. */
#ifndef WBGOV_SYS_PROCFS_H
#define WBGOV_SYS_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knobs.h"
#include "model/limits.h"

/* Dirty and Writeback of /proc/meminfo, in bytes. */
int procfs_meminfo(const char *root, uint64_t *ret_dirty, uint64_t *ret_writeback);
/* Parse meminfo text (for tests): both fields are required. */
int procfs_parse_meminfo(const char *text, uint64_t *ret_dirty, uint64_t *ret_writeback);

/* nr_dirty, nr_writeback, nr_dirtied and nr_written of /proc/vmstat, in
 * bytes; all four are required. The file stays open between calls (the
 * daemon glances at it up to 20 times a second): *fd1 is its descriptor
 * + 1, 0 before the first call and after an error. */
int procfs_vmstat(const char *root, int *fd1, struct knobs_vmstat *ret);
int procfs_parse_vmstat(const char *text, size_t page_size, struct knobs_vmstat *ret);

int procfs_vm_read(const char *root, enum vm_knob k, uint64_t *ret);
int procfs_vm_write(const char *root, enum vm_knob k, uint64_t v);

/* Is the running kernel (/proc/sys/kernel/osrelease) at least maj.min?
 * False when it cannot be read. */
bool procfs_kernel_at_least(const char *root, unsigned maj, unsigned min);

/* The mount points of `disk` and its partitions, space-separated into buf
 * ("" when none). Returns the count or -errno. */
int procfs_mounts(const char *root, const char *disk, char *buf, size_t len);

/* The disk holding `path` (a file, directory or /dev node): fills `disk`. */
int procfs_disk_of_path(const char *root, const char *path, char *disk, size_t len);

#endif
