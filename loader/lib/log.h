/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_LOG_H
#define DYNPF_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

enum dynpf_log_level {
	LOG_WARN = 0,
	LOG_INFO = 1,
	LOG_DEBUG = 2
};

extern int dynpf_verbosity; /* -v raises it; libbpf's printer follows it */
extern bool dynpf_json;     /* global -j: errors become JSON too */

void dynpf_log_init(void);
void dynpf_log(enum dynpf_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One-line error for the user: "dynpf: ..." on stderr, or {"error": ...}. */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A library's message (its own name first, "libxdp: ..."), as it is on
 * stderr, or in the daemon's log with lvl's priority: for the printers that
 * libraries take (libbpf's is dynpf_log_init()'s). What to show is theirs.
 */
int dynpf_log_lib(enum dynpf_log_level lvl, const char *fmt, va_list ap);

#define pr_warn(...) dynpf_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...) dynpf_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) dynpf_log(LOG_DEBUG, __VA_ARGS__)

/*
 * The daemon's log, for journald, which takes a line's priority from a
 * "<N>" before it: every line written from now on starts with one, p_err's
 * "<3>dynpf: ", pr_warn's "<4>dynpf: ", pr_info's "<6>dynpf: ", pr_debug's
 * "<7>dynpf: ", libbpf's "<4>", "<6>" or "<7>" before its own words. pr_info
 * lines are written whatever the verbosity.
 */
void dynpf_log_journald(void);

/*
 * While buf is set, p_err() writes its message (the first line of the first
 * one, no "dynpf: ") there instead of on stderr, and nothing else is logged
 * (pr_*, libbpf's and libxdp's messages): the daemon hands the error of a
 * client's attach to that client. buf NULL stops it.
 */
void dynpf_log_capture(char *buf, size_t len);

#endif
