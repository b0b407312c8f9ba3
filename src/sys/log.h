/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One small logging module: stderr lines with journald's <N> priority
 * prefixes (sd-daemon(3)). */
#ifndef WBGOV_SYS_LOG_H
#define WBGOV_SYS_LOG_H

enum log_level { LOG_ERR_ = 3, LOG_WARNING_ = 4, LOG_NOTICE_ = 5, LOG_INFO_ = 6, LOG_DEBUG_ = 7 };

#include <stddef.h>

void log_set_level(int max_level);
/* `in` into `out` (room for `len`), every control character (a newline,
 * an escape) written \xNN: a line that stays one line, with no priority
 * prefix or terminal sequence of its own. Every log line goes through it.
 * Returns out. */
const char *log_escape(char *out, size_t len, const char *in);
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_err(...) log_msg(LOG_ERR_, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARNING_, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE_, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO_, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG_, __VA_ARGS__)

#endif
