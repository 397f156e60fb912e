// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf replay FILE: every packet through the real BPF programs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "log.h"
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

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hook", required_argument, NULL, 'H' },
		{ "check-native", no_argument, NULL, 'n' },
		DYNPF_WALK_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_walk_opts o = { .hooks = DYNPF_HOOKS_BPF };
	int c;

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
		case 'h':
			replay_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			if (dynpf_walk_common_opt(&o, c, optarg))
				break;
			fprintf(stderr, "Try 'dynpf replay --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	return dynpf_walk_main(&o, argc, argv, "replay");
}
