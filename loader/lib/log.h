/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_LOG_H
#define DYNPF_LOG_H

#include <stdbool.h>

enum dynpf_log_level { LOG_WARN = 0, LOG_INFO = 1, LOG_DEBUG = 2 };

extern int dynpf_verbosity; /* -v raises it; libbpf's printer follows it */
extern bool dynpf_json;     /* global -j: errors become JSON too */

void dynpf_log_init(void);
void dynpf_log(enum dynpf_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One-line error for the user: "dynpf: ..." on stderr, or {"error": ...}. */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define pr_warn(...) dynpf_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...) dynpf_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) dynpf_log(LOG_DEBUG, __VA_ARGS__)

#endif
