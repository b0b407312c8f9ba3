/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Landlock (Linux 5.13+): once wbgovd has what it needs open, the kernel
 * keeps it from writing anywhere but where its work is, whatever a file
 * it reads or a bug makes of it. Reads stay free (sysfs, procfs, the
 * configuration). */
#ifndef WBGOV_SYS_SANDBOX_H
#define WBGOV_SYS_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* From now on this process (and its children) may write files only
 * beneath `knobs` (existing files: the knob directories) and create,
 * replace and remove files only beneath `dirs` (its state and memory
 * directories); with Landlock ABI 4 or later it may neither connect nor
 * bind a TCP socket. Both lists end with NULL; a directory that does not
 * exist is skipped. 0, or -EOPNOTSUPP where the kernel has no Landlock,
 * or -EPERM where a seccomp filter refuses its calls (nothing changed in
 * either case), or another -errno. */
int sandbox_writes(const char *const *knobs, const char *const *dirs);

/* The Landlock ABI in force after sandbox_writes, 0 if none. */
int sandbox_abi(void);

/* Capability `cap` (CAP_*) given up for good: out of this process's
 * effective, permitted and inheritable sets (which needs no privilege),
 * and out of its bounding set where it may (CAP_SETPCAP). 0 or -errno. */
int sandbox_drop_cap(int cap);

/* Capability `cap` raised into the effective set from the permitted one
 * (`on`; -EPERM where it is not permitted), or lowered out of it, where it
 * stays permitted: a privilege held only for the calls that need it. 0 or
 * -errno. */
int sandbox_cap_effective(int cap, bool on);

/* This process's effective, permitted and bounding capability sets, a bit
 * per CAP_*. 0 or -errno. */
int sandbox_caps(uint64_t *ret_effective, uint64_t *ret_permitted, uint64_t *ret_bounding);

/* How many seccomp filters are over this process (a unit's
 * SystemCallFilter= is one, at least), 0 for none, or -errno. */
int sandbox_seccomp_filters(void);

#endif
