// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf [OPTIONS] COMMAND [ARGS]: the command table and global options. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "dynpf/pkt.h"
#include "lib/log.h"
#include "lib/util.h"

#define DYNPF_VERSION "0.1.0"

static const struct dynpf_cmd cmds[] = {
	{ "replay", cmd_replay, "run a capture through the BPF programs (BPF_PROG_TEST_RUN)" },
	{ "parse", cmd_parse, "parse a capture with the native build of the parsers" },
	{ "bench", cmd_bench, "ns per packet per hook (test runs); --live: Mpps on a veth pair" },
	{ "rules", cmd_rules, "rule files: check, and load or save with the daemon" },
	{ "daemon", cmd_daemon, "attach to interfaces, take rules at runtime (docs/daemon.md)" },
	{ "status", cmd_status, "the daemon: interfaces, attach modes, rule set" },
	{ "attach", cmd_attach, "attach the daemon's programs to an interface" },
	{ "detach", cmd_detach, "detach them from an interface" },
	{ "rule", cmd_rule, "add, delete or list rules of the running daemon" },
	{ "stats", cmd_stats, "the daemon's counters: per hook, per parse error, per rule" },
	{ "events", cmd_events, "packets sample rules send, parsed; -w writes a pcap" },
	{ "help", NULL, "this text" },
};

static void usage(FILE *f)
{
	static const char head[] = "Usage: dynpf [OPTIONS] COMMAND [ARGS]\n"
				   "\n"
				   "Commands:\n";
	static const char tail[] =
		"\n"
		"Options:\n"
		"  -j, --json      JSON output (errors too)\n"
		"  -v, --verbose   more messages; -vv adds libbpf's and the verifier's\n"
		"  -t, --timeout SECONDS\n"
		"                  how long to wait for the daemon (default $DYNPF_TIMEOUT\n"
		"                  or 60)\n"
		"  -V, --version   print the version and the parse-result ABI\n"
		"  -h, --help      this text\n"
		"\n"
		"'dynpf COMMAND --help' describes a command.\n";

	dynpf_cmds_usage(f, cmds, ARRAY_SIZE(cmds), head, tail);
}

/* SECONDS for the CLI's wait on the daemon: positive, at most a day. */
static int parse_timeout(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v <= 86400)) {
		p_err("%s: '%s' is not a number of seconds (more than 0, at most 86400)", what, s);
		return -1;
	}
	dynpf_client_timeout = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },          { "verbose", no_argument, NULL, 'v' },
		{ "timeout", required_argument, NULL, 't' }, { "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },          {},
	};
	const char *tmo = getenv("DYNPF_TIMEOUT");
	const struct dynpf_cmd *cmd;
	int c, first;

	dynpf_log_init();
	if (tmo && *tmo && parse_timeout(tmo, "$DYNPF_TIMEOUT"))
		return DYNPF_EXIT_USAGE;
	/* '+': stop at the command, its options are its own. */
	while ((c = getopt_long(argc, argv, "+jt:vVh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			dynpf_json = true;
			break;
		case 'v':
			dynpf_verbosity++;
			break;
		case 't':
			if (parse_timeout(optarg, "--timeout"))
				return DYNPF_EXIT_USAGE;
			break;
		case 'V':
			printf("dynpf %s (parse result ABI %d)\n", DYNPF_VERSION,
			       DYNPF_ABI_VERSION);
			return DYNPF_EXIT_OK;
		case 'h':
			usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return DYNPF_EXIT_USAGE;
	}
	cmd = dynpf_cmd_find(cmds, ARRAY_SIZE(cmds), argv[optind]);
	if (!cmd) {
		p_err("unknown command '%s': try 'dynpf help'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	if (!cmd->fn) {
		usage(stdout);
		return DYNPF_EXIT_OK;
	}
	first = optind;
	optind = 0; /* getopt restarts on the command's own arguments */
	return cmd->fn(argc - first, argv + first);
}
