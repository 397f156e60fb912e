/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_EXPECT_H
#define DYNPF_EXPECT_H

#include <stddef.h>

#include <json-c/json.h>

/* Expected results: one JSON object per packet number (1-based). */
struct dynpf_expect {
	json_object **by_pkt; /* by_pkt[n] for packet n, or NULL */
	size_t n;
};

/* Load FILE (JSON lines, each with "pkt"). Errors name file:line. */
int dynpf_expect_load(const char *path, struct dynpf_expect *e);
void dynpf_expect_free(struct dynpf_expect *e);

typedef void (*dynpf_diff_fn)(void *ctx, const char *path, json_object *want, json_object *got);

/*
 * Compare got with want: every key of want must be in got with an equal
 * value (objects recursively, key by key; arrays element by element, same
 * length). Keys only in got are ignored unless strict. Calls fn for each
 * difference; returns how many there were.
 */
int dynpf_json_diff(json_object *want, json_object *got, int strict, dynpf_diff_fn fn, void *ctx);

#endif
