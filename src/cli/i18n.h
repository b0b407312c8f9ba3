/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Translation of what people read: wbgov's messages, --help texts and
 * notifications, through gettext (libintl is in glibc; po/ holds the
 * catalogues, src/cmd/wbgov.c binds them). What programs read stays as it
 * is in every locale: JSON, Prometheus text, D-Bus names and values, and
 * wbgovd's log lines (wbgovd binds no catalogue). */
#ifndef WBGOV_CLI_I18N_H
#define WBGOV_CLI_I18N_H

#include <libintl.h>

#define WBGOV_TEXTDOMAIN "wbgov"
#define _(s) gettext(s)
/* a text marked for the catalogue where it is written (a table), looked up
 * with _() where it is shown */
#define N_(s) s

#endif
