/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Small helpers every part of loader/ may use: clocks, medians, JSON numbers. */
#ifndef DYNPF_LIB_UTIL_H
#define DYNPF_LIB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Exit codes shared by every command. */
#define DYNPF_EXIT_OK 0
#define DYNPF_EXIT_DIFF 1  /* ran, found differences */
#define DYNPF_EXIT_USAGE 2 /* bad invocation, bad input, or failure */

/*
 * The name of v in a table of names indexed by value (built from an
 * X-macro table of the ABI: [val] = "name"), or dflt where it has none.
 */
const char *dynpf_table_name(const char *const *names, size_t n, unsigned int v, const char *dflt);
#define DYNPF_NAME_OF(names, v, dflt) dynpf_table_name(names, ARRAY_SIZE(names), v, dflt)
/* A row of such a table from a row X(NAME, val, "name", ...) of the ABI's. */
#define DYNPF_NAME_ROW(n, v, t, ...) [v] = t,

/* CLOCK_MONOTONIC, in seconds and in whole milliseconds. */
double dynpf_now(void);
int64_t dynpf_now_ms(void);

/* The median of n values (0 when n is 0); v is left as it was. */
double dynpf_median(const double *v, size_t n);
double dynpf_median_u32(const uint32_t *v, size_t n);

/* A JSON number written as fmt prints it ("%.1f"), not with every digit. */
json_object *dynpf_json_num(double v, const char *fmt);

#endif
