/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_REPORT_H
#define DYNPF_REPORT_H

#include <stdbool.h>

#include "dynpf/pkt.h"
#include "lib/progs.h"

/* Hooks a walk runs each packet through (bits of 1 << DYNPF_HOOK_*). */
#define DYNPF_HOOKS_NATIVE (1u << 0)
#define DYNPF_HOOKS_XDP (1u << 1)
#define DYNPF_HOOKS_XDP_FRAGS (1u << 2)
#define DYNPF_HOOKS_TC (1u << 3)
#define DYNPF_HOOKS_BPF (DYNPF_HOOKS_XDP | DYNPF_HOOKS_XDP_FRAGS | DYNPF_HOOKS_TC)

struct dynpf_frame;

/*
 * A hook whose parse results come from elsewhere than a test run: frames
 * sent on an interface with dynpf attached (replay --iface, loader/replay/live.c).
 * Each packet goes through it after the test-run hooks; its record is
 * checked like theirs (--expect, --check-native) and must equal the record
 * of the test-run hook ref, field by field, when that hook parsed the packet.
 */
struct dynpf_walk_live {
	const char *name; /* its hook name in the records: xdp-live, ... */
	unsigned int ref; /* the DYNPF_HOOKS_* bit of the test-run hook to agree with */
	enum dynpf_run_result (*run)(void *ctx, const struct dynpf_frame *f, struct dynpf_pkt *out,
				     char *reason, size_t reason_len);
	/* After the walk: check the hook's counters, return the disagreements. */
	unsigned long (*check_counters)(void *ctx, unsigned long parsed, const unsigned long *err);
	void *ctx;
};

/* --rules files in one walk at most: each a pass over the capture. */
#define DYNPF_WALK_RULES_MAX 32

struct dynpf_walk_opts {
	const char *capture;
	const char *expect;      /* expected-results file, or NULL */
	unsigned int hooks;      /* DYNPF_HOOKS_* to report */
	bool check_native;       /* fail when a BPF hook and native disagree */
	bool quiet;              /* only diffs and the summary */
	unsigned int xdp_linear; /* xdp-frags: bytes in the linear part, 0: max */
	/*
	 * If above xdp_linear: also run every frame through xdp-frags with each
	 * linear size up to this one, and count each parse that differs from
	 * the native one as a native mismatch.
	 */
	unsigned int xdp_linear_to;
	struct dynpf_parse_cfg cfg; /* parse limits, for native and BPF alike */
	/* Rule files to classify with (replay --rules), each in turn. */
	const char *rules[DYNPF_WALK_RULES_MAX];
	unsigned int n_rules;
	bool check_decl; /* its protocols declared in option areas: their families' TLVs */
	const struct dynpf_walk_live *live; /* replay --iface, or NULL */
};

/*
 * Parse every packet of a capture on the chosen hooks, print the records
 * (text table, or JSON lines with -j), compare with --expect and native, and
 * print a summary. Returns 0 when everything matched, 1 on any difference,
 * 2 on bad input or a failure to run. A capture cut short is walked up to
 * its last whole record; the cut is said after the summary, and 2 returned.
 */
int dynpf_walk_capture(const struct dynpf_walk_opts *o);

/* --rules FILE once more: 0, or -1 (said) past DYNPF_WALK_RULES_MAX. */
int dynpf_walk_add_rules(struct dynpf_walk_opts *o, const char *file);

/* Options replay and parse share: --expect, -q, -j. 1 if c was one. */
int dynpf_walk_common_opt(struct dynpf_walk_opts *o, int c, const char *arg);

/* Take the one capture argument left after the options and walk it. */
int dynpf_walk_main(struct dynpf_walk_opts *o, int argc, char **argv, const char *cmd);

/* getopt_long entries for the shared options (put them in each table). */
#define DYNPF_WALK_LONGOPTS                                                                      \
	{ "expect", required_argument, NULL, 'e' }, { "max-ext", required_argument, NULL, 'X' }, \
		{ "max-stacks", required_argument, NULL, 'S' },                                  \
		{ "quiet", no_argument, NULL, 'q' }, { "json", no_argument, NULL, 'j' }
#define DYNPF_WALK_SHORTOPTS "qj"

#endif
