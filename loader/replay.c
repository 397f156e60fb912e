// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf replay FILE: every packet through the real BPF programs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "log.h"
#include "progs.h"
#include "report.h"

static void replay_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf replay FILE.pcap|FILE.pcapng [OPTIONS]\n"
		"\n"
		"Runs every packet of FILE through dynpf's BPF programs with BPF_PROG_TEST_RUN\n"
		"and prints what each parsed: a table, or JSON lines with -j (docs/json-output.md).\n"
		"\n"
		"  --hook HOOK       xdp, xdp-frags, tc or all (default: all)\n"
		"  --expect FILE     compare with expected results (JSON lines); print a\n"
		"                    per-packet, per-field diff and exit 1 on any difference\n"
		"  --check-native    also parse natively; exit 1 where BPF and native differ\n"
		"  --rules FILE      load the rule file (docs/rules.md) through the control\n"
		"                    channel, print each packet's verdict and the rule that\n"
		"                    decided it, then the per-rule counters; with\n"
		"                    --check-native, the native classifier must agree\n"
		"  --xdp-linear N    xdp-frags: put only the first N bytes (14..3520) of each\n"
		"                    frame in the linear part, the rest in fragments, so the\n"
		"                    fragment boundary falls inside the headers (default 3520)\n"
		"  --xdp-linear N-M  the same for N, then also run each frame with every size\n"
		"                    up to M and count any parse that differs from the native\n"
		"                    one as a difference\n"
		"  --max-ext N       IPv6 extension headers per chain before `depth` (1..8,\n"
		"                    default 8)\n"
		"  --max-stacks N    stacks of headers: 1 stops at tunnels, 2 parses one\n"
		"                    tunnel's inner packet (default 2)\n"
		"  -q, --quiet       print only differences and the summary\n"
		"  -j, --json        JSON lines (as the global -j)\n"
		"  -h, --help        this text\n"
		"\n"
		"Packets a hook cannot run (xdp: over 3520 bytes; tc: over about 3.7 KB; all:\n"
		"under 14 bytes) are reported as skipped for that hook, not as failures.\n"
		"Exit status: 0 all matched, 1 differences, 2 bad input or failure.\n");
}

/* Parse a --hook word into DYNPF_HOOKS_* bits; 0 when unknown. */
static unsigned int parse_hook_word(const char *w)
{
	if (!strcmp(w, "xdp"))
		return DYNPF_HOOKS_XDP;
	if (!strcmp(w, "xdp-frags"))
		return DYNPF_HOOKS_XDP_FRAGS;
	if (!strcmp(w, "tc"))
		return DYNPF_HOOKS_TC;
	if (!strcmp(w, "all"))
		return DYNPF_HOOKS_BPF;
	return 0;
}

/* --xdp-linear N or N-M (a sweep), each 14..3520. */
static int parse_linear(const char *arg, struct dynpf_walk_opts *o)
{
	unsigned long a, b;
	char *end;

	a = strtoul(arg, &end, 10);
	b = a;
	if (*end == '-')
		b = strtoul(end + 1, &end, 10);
	if (*end || end == arg || a < 14 || b < a || b > DYNPF_XDP_TEST_LINEAR_MAX) {
		p_err("--xdp-linear %s: expected N or N-M, byte counts from 14 to %d", arg,
		      DYNPF_XDP_TEST_LINEAR_MAX);
		return -1;
	}
	o->xdp_linear = a;
	o->xdp_linear_to = b;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hook", required_argument, NULL, 'H' },
		{ "check-native", no_argument, NULL, 'n' },
		{ "xdp-linear", required_argument, NULL, 'L' },
		{ "rules", required_argument, NULL, 'R' },
		DYNPF_WALK_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_walk_opts o = { .hooks = DYNPF_HOOKS_BPF };
	int c, r;

	o.cfg = DYNPF_PARSE_CFG_DEFAULT;
	while ((c = getopt_long(argc, argv, DYNPF_WALK_SHORTOPTS "h", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			o.hooks = parse_hook_word(optarg);
			if (!o.hooks) {
				p_err("--hook %s: expected xdp, xdp-frags, tc or all", optarg);
				return DYNPF_EXIT_USAGE;
			}
			break;
		case 'n':
			o.check_native = true;
			break;
		case 'L':
			if (parse_linear(optarg, &o))
				return DYNPF_EXIT_USAGE;
			break;
		case 'R':
			o.rules = optarg;
			break;
		case 'h':
			replay_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			r = dynpf_walk_common_opt(&o, c, optarg);
			if (r < 0)
				return DYNPF_EXIT_USAGE;
			if (r)
				break;
			fprintf(stderr, "Try 'dynpf replay --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	return dynpf_walk_main(&o, argc, argv, "replay");
}
