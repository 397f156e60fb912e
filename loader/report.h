/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_REPORT_H
#define DYNPF_REPORT_H

#include <stdbool.h>

/* Hooks a walk runs each packet through (bits of 1 << DYNPF_HOOK_*). */
#define DYNPF_HOOKS_NATIVE (1u << 0)
#define DYNPF_HOOKS_XDP (1u << 1)
#define DYNPF_HOOKS_XDP_FRAGS (1u << 2)
#define DYNPF_HOOKS_TC (1u << 3)
#define DYNPF_HOOKS_BPF (DYNPF_HOOKS_XDP | DYNPF_HOOKS_XDP_FRAGS | DYNPF_HOOKS_TC)

struct dynpf_walk_opts {
	const char *capture;
	const char *expect;  /* expected-results file, or NULL */
	unsigned int hooks;  /* DYNPF_HOOKS_* to report */
	bool check_native;   /* fail when a BPF hook and native disagree */
	bool quiet;          /* only diffs and the summary */
};

/*
 * Parse every packet of a capture on the chosen hooks, print the records
 * (text table, or JSON lines with -j), compare with --expect and native, and
 * print a summary. Returns 0 when everything matched, 1 on any difference,
 * 2 on bad input or a failure to run.
 */
int dynpf_walk_capture(const struct dynpf_walk_opts *o);

#endif
