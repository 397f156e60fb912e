// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf parse FILE: offline parsing with the native build, no BPF, no root. */
#include <getopt.h>
#include <stdio.h>

#include "cmds.h"
#include "log.h"
#include "report.h"

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
		"  -q, --quiet       print only differences and the summary\n"
		"  -j, --json        JSON lines (as the global -j)\n"
		"  -h, --help        this text\n");
}

int cmd_parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "expect", required_argument, NULL, 'e' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_walk_opts o = { .hooks = DYNPF_HOOKS_NATIVE };
	int c;

	while ((c = getopt_long(argc, argv, "qjh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o.expect = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'j': /* also accepted before the command */
			dynpf_json = true;
			break;
		case 'h':
			parse_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf parse --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		p_err(optind >= argc ? "parse: missing the capture file (dynpf parse FILE.pcap)"
				     : "parse: one capture file expected, got extra '%s'",
		      argv[argc - 1]);
		return DYNPF_EXIT_USAGE;
	}
	o.capture = argv[optind];
	return dynpf_walk_capture(&o);
}
