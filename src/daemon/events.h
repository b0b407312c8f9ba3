/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What wbgovd logs of what the governor does (events.c). */
#ifndef WBGOV_DAEMON_EVENTS_H
#define WBGOV_DAEMON_EVENTS_H

#include <stdbool.h>

#include "policy/governor.h"

struct daemon;

/* A device decided: its line (daemon_describe) at info, or warning for an
 * error, when the decision moved materially (gov_decision_moved) or its
 * error changed; with -v, every decision on the clock of the window lines. */
void events_decided(struct daemon *dm, const struct gov_dev *d);

/* A device gone: said, and its last logged decision forgotten. */
void events_gone(struct daemon *dm, const struct gov_dev *d);

/* vm.dirty_* as a sysctl.d file may have left them, said once at start
 * (`per_device`: the kernel has per-device knobs, and wbgovd leaves the
 * global ones alone). */
void events_sysctls(struct daemon *dm, bool per_device);

/* The governor's found, limited, global and io_errors hooks: each a line. */
void events_hooks(struct gov_hooks *h);

/* What was last logged per device, let go. */
void events_free(struct daemon *dm);

#endif
