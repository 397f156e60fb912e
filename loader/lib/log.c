// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Logging, with libbpf's messages routed through the same verbosity. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "lib/log.h"

int dynpf_verbosity;
bool dynpf_json;

static bool journald;  /* the daemon's log: "<N>" at the start of each line */
static bool line_open; /* journald: the last write ended inside a line */
static char *capture;  /* p_err's message goes here (dynpf_log_capture) */
static size_t capture_len;

/* syslog's priorities (LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG). */
#define PRIO_ERR 3
static const int prio_of[] = { [LOG_WARN] = 4, [LOG_INFO] = 6, [LOG_DEBUG] = 7 };

/* text on stderr, each line that starts in it with "<prio>" and tag first. */
static void jwrite(int prio, const char *tag, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		if (!line_open)
			fprintf(stderr, "<%d>%s", prio, tag);
		line_open = text[n] != '\n';
		n += !line_open;
		fwrite(text, 1, n, stderr);
		text += n;
	}
}

/* fmt on stderr as it is, or in the daemon's log with tag after the priority. */
static int vlog(int prio, const char *tag, const char *fmt, va_list ap)
{
	char *text;
	int n;

	if (capture)
		return 0;
	if (!journald)
		return vfprintf(stderr, fmt, ap);
	n = vasprintf(&text, fmt, ap);
	if (n < 0)
		return n;
	jwrite(prio, tag, text);
	free(text);
	return n;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int want = level == LIBBPF_WARN ? LOG_WARN : level == LIBBPF_INFO ? LOG_INFO : LOG_DEBUG;

	/* libbpf's INFO is noisy: only show it, and its DEBUG, from -vv. */
	if (want > LOG_WARN && dynpf_verbosity < 2)
		return 0;
	return dynpf_log_lib(want, fmt, ap);
}

int dynpf_log_lib(enum dynpf_log_level lvl, const char *fmt, va_list ap)
{
	return vlog(prio_of[lvl], "", fmt, ap);
}

void dynpf_log_init(void)
{
	libbpf_set_print(libbpf_print);
}

void dynpf_log_journald(void)
{
	journald = true;
}

void dynpf_log_capture(char *buf, size_t len)
{
	capture = len ? buf : NULL;
	capture_len = len;
	if (capture)
		capture[0] = 0;
}

void dynpf_log(enum dynpf_log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if ((int)lvl > dynpf_verbosity && !(journald && lvl <= LOG_INFO))
		return;
	va_start(ap, fmt);
	vlog(prio_of[lvl], "dynpf: ", fmt, ap);
	va_end(ap);
}

void p_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (dynpf_json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "error", json_object_new_string(msg));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		fflush(stdout);
		json_object_put(o);
	}
	if (capture) {
		if (!capture[0])
			snprintf(capture, capture_len, "%.*s", (int)strcspn(msg, "\n"), msg);
	} else if (journald) {
		jwrite(PRIO_ERR, "dynpf: ", msg);
		jwrite(PRIO_ERR, "dynpf: ", "\n");
	} else {
		fprintf(stderr, "dynpf: %s\n", msg);
	}
}
