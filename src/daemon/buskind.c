/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/buskind.h"

int bus_parse_kind(const char *arg, enum bus_kind *ret_kind)
{
	if (!arg) {
		*ret_kind = getenv("DBUS_SYSTEM_BUS_ADDRESS") || access(BUS_SYSTEM_SOCKET, F_OK) == 0 ?
				    BUS_SYSTEM : BUS_OFF;
		return 0;
	}
	if (!strcmp(arg, "system"))
		*ret_kind = BUS_SYSTEM;
	else if (!strcmp(arg, "session"))
		*ret_kind = BUS_SESSION;
	else if (!strcmp(arg, "none"))
		*ret_kind = BUS_OFF;
	else if (strchr(arg, ':') && strchr(arg, '='))
		*ret_kind = BUS_ADDRESS; /* "unix:path=/run/x", checked when it connects */
	else
		return -EINVAL;
	return 0;
}
