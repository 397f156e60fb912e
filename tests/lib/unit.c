// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The harness of the C unit tests (unit.h). */
#include <stdarg.h>
#include <stdio.h>

#include "unit.h"

static int passed, failed, skipped;

void unit_pass(void)
{
	passed++;
}

/* Count it, then "WHAT NAME: WHY" or "WHAT NAME (WHY)", flushed: in order with stderr. */
static void say(int *count, const char *what, const char *name, const char *open, const char *close,
		const char *fmt, va_list ap)
{
	(*count)++;
	printf("%s %s%s", what, name, open);
	vprintf(fmt, ap);
	printf("%s\n", close);
	fflush(stdout);
}

void unit_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(&failed, "FAIL", name, ": ", "", fmt, ap);
	va_end(ap);
}

void unit_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(&skipped, "skip ", name, " (", ")", fmt, ap);
	va_end(ap);
}

int unit_report(const char *prog)
{
	if (skipped)
		printf("%s: %d passed, %d failed, %d skipped\n", prog, passed, failed, skipped);
	else
		printf("%s: %d passed, %d failed\n", prog, passed, failed);
	return failed ? 1 : 0;
}
