/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which bus wbgovd and wbgov talk to, as --bus and wbgov.conf's `bus`
 * name it: a parse of its own, without sd-bus, so that the configuration
 * reader (which wbsim links too) needs no libsystemd. */
#ifndef WBGOV_SYS_BUSNAME_H
#define WBGOV_SYS_BUSNAME_H

#include <stdbool.h>

#define BUS_SYSTEM_SOCKET "/run/dbus/system_bus_socket"

enum bus_kind { BUS_OFF, BUS_SYSTEM, BUS_SESSION, BUS_ADDRESS };

/* "system", "session", "none", or an address of the unix transport
 * ("unix:path=..."): 0, or -EINVAL for anything else (a "unixexec:"
 * address would have root run a program, and a list of addresses one
 * after another). NULL: the system bus when its socket is there (or
 * DBUS_SYSTEM_BUS_ADDRESS says where it is), else none. */
int bus_parse_kind(const char *arg, enum bus_kind *ret_kind);

/* Does `arg`, as given (not NULL), name no bus at all ("none")? */
bool bus_named_off(const char *arg);

/* Is `a` one address of the unix transport ("unix:path=/run/x")? */
bool bus_address_ok(const char *a);

/* The environment's address `name` (DBUS_SYSTEM_BUS_ADDRESS,
 * DBUS_SESSION_BUS_ADDRESS) where bus_address_ok says it may be used;
 * NULL otherwise (and for a set-uid caller, secure_getenv). */
const char *bus_env_address(const char *name);

#endif
