// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Logging, with libbpf's messages routed through the same verbosity. */
#include <stdarg.h>
#include <stdio.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "lib/log.h"

int dynpf_verbosity;
bool dynpf_json;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int want = level == LIBBPF_WARN ? LOG_WARN : level == LIBBPF_INFO ? LOG_INFO : LOG_DEBUG;

	/* libbpf's INFO is noisy: only show it, and its DEBUG, from -vv. */
	if (want > LOG_WARN && dynpf_verbosity < 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void dynpf_log_init(void)
{
	libbpf_set_print(libbpf_print);
}

void dynpf_log(enum dynpf_log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if ((int)lvl > dynpf_verbosity)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
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
	fprintf(stderr, "dynpf: %s\n", msg);
}
