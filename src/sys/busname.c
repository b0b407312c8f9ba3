/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/busname.h"

bool bus_address_ok(const char *a)
{
	/* one address (a list, "unix:...;unixexec:...", could run a
	 * program when the first fails), of the unix transport: its
	 * "path=", "abstract=" or "dir=" as sd-bus reads them */
	return a && !strncmp(a, "unix:", 5) && strchr(a, '=') && !strchr(a, ';');
}

const char *bus_env_address(const char *name)
{
	/* a root daemon's environment is its service manager's, but a
	 * set-uid or file-capable caller's is the user's (AT_SECURE) */
	const char *a = secure_getenv(name);

	return bus_address_ok(a) ? a : NULL;
}

int bus_parse_kind(const char *arg, enum bus_kind *ret_kind)
{
	if (!arg) {
		*ret_kind = bus_env_address("DBUS_SYSTEM_BUS_ADDRESS") ||
					    access(BUS_SYSTEM_SOCKET, F_OK) == 0 ?
				    BUS_SYSTEM : BUS_OFF;
		return 0;
	}
	if (!strcmp(arg, "system"))
		*ret_kind = BUS_SYSTEM;
	else if (!strcmp(arg, "session"))
		*ret_kind = BUS_SESSION;
	else if (!strcmp(arg, "none"))
		*ret_kind = BUS_OFF;
	else if (bus_address_ok(arg))
		*ret_kind = BUS_ADDRESS; /* "unix:path=/run/x", checked when it connects */
	else
		return -EINVAL;
	return 0;
}

bool bus_named_off(const char *arg)
{
	enum bus_kind k;

	return arg && bus_parse_kind(arg, &k) == 0 && k == BUS_OFF;
}
