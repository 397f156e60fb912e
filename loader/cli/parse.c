// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf parse FILE: offline parsing with the native build, no BPF, no root. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cmds.h"
#include "replay/report.h"

static void parse_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf parse FILE.pcap|FILE.pcapng [OPTIONS]\n"
		"\n"
		"Parses every packet of FILE with the native build of dynpf's parsers (the same\n"
		"source as the BPF programs) and prints the same table or JSON lines as replay.\n"
		"Needs no privileges.\n"
		"\n"
		"  --expect FILE     compare with expected results; exit 1 on any difference\n"
		"  --max-ext N       IPv6 extension headers per chain before `depth` (1..8,\n"
		"                    default 8)\n"
		"  --max-stacks N    stacks of headers: 1 stops at tunnels, 2 parses one\n"
		"                    tunnel's inner packet (default 2)\n"
		"  --rules FILE      parse the protocols the rule file declares too, and give\n"
		"                    each packet the verdict of the native reference classifier\n"
		"                    (several times: each file in turn, a summary each)\n"
		"  --check-decl      with --rules: every protocol the file declares in a\n"
		"                    built-in family's option areas must find that family's\n"
		"                    TLVs; exit 1 where it does not\n"
		"  -q, --quiet       print only differences and the summary\n"
		"  -j, --json        JSON lines (as the global -j)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 all matched, 1 differences, 2 bad input (a capture cut short:\n"
		"parsed up to its last whole record, then the cut is said).\n");
}

int cmd_parse(int argc, char **argv)
{
	static const struct option opts[] = {
		DYNPF_WALK_LONGOPTS,
		{ "rules", required_argument, NULL, 'R' },
		{ "check-decl", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_walk_opts o = { .hooks = DYNPF_HOOKS_NATIVE };
	int c, r;

	o.cfg = DYNPF_PARSE_CFG_DEFAULT;
	while ((c = getopt_long(argc, argv, DYNPF_WALK_SHORTOPTS "h", opts, NULL)) != -1) {
		if (c == 'R') {
			if (dynpf_walk_add_rules(&o, optarg))
				return DYNPF_EXIT_USAGE;
			continue;
		}
		if (c == 'D') {
			o.check_decl = true;
			continue;
		}
		r = dynpf_cli_walk_opt(&o, c, "parse", parse_usage);
		if (r >= 0)
			return r;
	}
	return dynpf_walk_main(&o, argc, argv, "parse");
}
