/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device memory while wbgovd runs (memory.c): its state is struct
 * daemon's, "" for its path when off; the file is sys/memfile.h's. */
#ifndef WBGOV_DAEMON_MEMORY_H
#define WBGOV_DAEMON_MEMORY_H

#include <stdbool.h>

#include "policy/governor.h"
#include "sys/memfile.h"

struct daemon;

/* Device memory goes to disk at most this often, and at exit. */
#define MEMORY_SAVE_USEC 10000000ULL

/* At start: the file loaded; a directory that is not ours, or a file that
 * cannot be read, turns memory off (one line says why). */
void memory_start(struct daemon *dm);
/* A save begun in a child process when something new was put, the last
 * at least MEMORY_SAVE_USEC ago (or `now`) and none is running:
 * dm->memory_fd ends (EOF) when it does. */
void memory_flush(struct daemon *dm, bool now);
/* That save ended: its child reaped; a failure turns memory off. */
void memory_saved(struct daemon *dm);
/* The governor's recall hook (a new device's figure from memory) and
 * measured hook (a figure worth keeping put). */
void memory_hooks(struct gov_hooks *h);

#endif
