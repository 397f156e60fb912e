// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf replay FILE: every packet through the real BPF programs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "replay/live.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "replay/report.h"

static void replay_usage(FILE *f)
{
	fprintf(f, "Usage: dynpf replay FILE.pcap|FILE.pcapng [OPTIONS]\n"
		   "\n"
		   "Runs every packet of FILE through dynpf's BPF programs with BPF_PROG_TEST_RUN\n"
		   "(and with --testbed or --iface, also through the programs attached to an\n"
		   "interface) and prints what each parsed: a table, or JSON lines with -j\n"
		   "(docs/json-output.md).\n"
		   "\n"
		   "  --hook HOOK       xdp, xdp-frags, tc or all (default: all)\n"
		   "  --expect FILE     compare with expected results (JSON lines); print a\n"
		   "                    per-packet, per-field diff and exit 1 on any difference\n"
		   "  --check-native    also parse natively; exit 1 where BPF and native differ\n"
		   "  --rules FILE      load the rule file (docs/rules.md) through the control\n"
		   "                    channel, print each packet's verdict and the rule that\n"
		   "                    decided it, then the per-rule counters; with\n"
		   "                    --check-native, the native classifier must agree;\n"
		   "                    several times: each file in turn, one load of the\n"
		   "                    programs, a walk of the capture and a summary each\n"
		   "  --check-decl      with --rules: every protocol the file declares in a\n"
		   "                    built-in family's option areas must find that family's\n"
		   "                    TLVs, on every packet and hook; exit 1 where it does not\n"
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
		   "\n"
		   "On an interface (docs/json-output.md: hooks xdp-live, xdp-generic, tc-live):\n"
		   "  --testbed         make two network namespaces (dynpf-tb-PID-rx, -tx) and a\n"
		   "                    veth pair between them, replay there, remove them\n"
		   "  --iface IFACE     attach dynpf to IFACE and send every frame to it from\n"
		   "                    its veth peer, or from --peer IFACE (a cabled port)\n"
		   "  --mode MODE       xdp (native), xdp-generic or tc (ingress); default xdp\n"
		   "  --mtu N           --testbed: the veth MTU (68..65535, default 9000)\n"
		   "  --xdp-prog PROG   xdp or xdp-frags: the XDP program to attach (default:\n"
		   "                    xdp-frags if the MTU lets frames exceed 3520 bytes)\n"
		   "  --timeout MS      wait this long for a frame's record (default 200)\n"
		   "  Each frame's record is compared with the test run of the same program\n"
		   "  (xdp, xdp-frags or tc), and with --expect and --check-native.\n"
		   "\n"
		   "  -q, --quiet       print only differences and the summary\n"
		   "  -j, --json        JSON lines (as the global -j)\n"
		   "  -h, --help        this text\n"
		   "\n"
		   "Packets a hook cannot run (xdp: over 3520 bytes; tc: over about 3.7 KB; all:\n"
		   "under 14 bytes) are reported as skipped for that hook, not as failures.\n"
		   "Exit status: 0 all matched, 1 differences, 2 bad input or failure (a capture\n"
		   "cut short: replayed up to its last whole record, then the cut is said).\n");
}

/* The words an option takes, and what each means. */
struct word {
	const char *word;
	int value;
};

static const struct word hook_words[] = {
	/* DYNPF_HOOKS_* bits */
	{ "xdp", DYNPF_HOOKS_XDP },
	{ "xdp-frags", DYNPF_HOOKS_XDP_FRAGS },
	{ "tc", DYNPF_HOOKS_TC },
	{ "all", DYNPF_HOOKS_BPF },
	{},
};

static const struct word mode_words[] = {
	{ "xdp", DYNPF_LIVE_XDP },
	{ "xdp-generic", DYNPF_LIVE_XDP_GENERIC },
	{ "tc", DYNPF_LIVE_TC },
	{},
};

static const struct word xdp_prog_words[] = {
	{ "xdp", DYNPF_HOOK_XDP },
	{ "xdp-frags", DYNPF_HOOK_XDP_FRAGS },
	{},
};

/* The value of opt's word arg in words (whole words only); -1 after an error message. */
static int parse_word(const char *opt, const char *arg, const struct word *words,
		      const char *expected)
{
	for (; words->word; words++)
		if (!strcmp(arg, words->word))
			return words->value;
	p_err("%s %s: expected %s", opt, arg, expected);
	return -1;
}

/* A number within [lo, hi]; -1 after an error message. */
static long parse_num(const char *opt, const char *arg, long lo, long hi)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || end == arg || v < lo || v > hi) {
		p_err("%s %s: expected a number from %ld to %ld", opt, arg, lo, hi);
		return -1;
	}
	return v;
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

int dynpf_cli_walk_opt(struct dynpf_walk_opts *o, int c, const char *cmd, void (*usage)(FILE *f))
{
	int r;

	if (c == 'h') {
		usage(stdout);
		return DYNPF_EXIT_OK;
	}
	r = dynpf_walk_common_opt(o, c, optarg);
	if (r > 0)
		return -1;
	return r < 0 ? DYNPF_EXIT_USAGE : dynpf_try_help(cmd);
}

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hook", required_argument, NULL, 'H' },
		{ "check-native", no_argument, NULL, 'n' },
		{ "xdp-linear", required_argument, NULL, 'L' },
		{ "rules", required_argument, NULL, 'R' },
		{ "check-decl", no_argument, NULL, 'D' },
		{ "iface", required_argument, NULL, 'I' },
		{ "peer", required_argument, NULL, 'P' },
		{ "testbed", no_argument, NULL, 'T' },
		{ "mode", required_argument, NULL, 'M' },
		{ "mtu", required_argument, NULL, 'U' },
		{ "timeout", required_argument, NULL, 'W' },
		{ "xdp-prog", required_argument, NULL, 'G' },
		DYNPF_WALK_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_walk_opts o = { .hooks = DYNPF_HOOKS_BPF };
	struct dynpf_live_opts lo = { .mtu = DYNPF_LIVE_MTU_DEFAULT,
				      .timeout_ms = DYNPF_LIVE_TIMEOUT_DEFAULT };
	bool hook_set = false, mode_set = false, mtu_set = false;
	struct dynpf_walk_live live;
	long v;
	int c, r;

	o.cfg = DYNPF_PARSE_CFG_DEFAULT;
	while ((c = getopt_long(argc, argv, DYNPF_WALK_SHORTOPTS "h", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			r = parse_word("--hook", optarg, hook_words, "xdp, xdp-frags, tc or all");
			if (r < 0)
				return DYNPF_EXIT_USAGE;
			o.hooks = r;
			hook_set = true;
			break;
		case 'I':
			lo.iface = optarg;
			break;
		case 'P':
			lo.peer = optarg;
			break;
		case 'T':
			lo.testbed = true;
			break;
		case 'M':
			r = parse_word("--mode", optarg, mode_words, "xdp, xdp-generic or tc");
			if (r < 0)
				return DYNPF_EXIT_USAGE;
			lo.mode = r;
			mode_set = true;
			break;
		case 'U':
			v = parse_num("--mtu", optarg, 68, 65535);
			if (v < 0)
				return DYNPF_EXIT_USAGE;
			lo.mtu = v;
			mtu_set = true;
			break;
		case 'G':
			r = parse_word("--xdp-prog", optarg, xdp_prog_words, "xdp or xdp-frags");
			if (r < 0)
				return DYNPF_EXIT_USAGE;
			lo.xdp_prog = r;
			break;
		case 'W':
			v = parse_num("--timeout", optarg, 1, 60000);
			if (v < 0)
				return DYNPF_EXIT_USAGE;
			lo.timeout_ms = v;
			break;
		case 'n':
			o.check_native = true;
			break;
		case 'L':
			if (parse_linear(optarg, &o))
				return DYNPF_EXIT_USAGE;
			break;
		case 'R':
			if (dynpf_walk_add_rules(&o, optarg))
				return DYNPF_EXIT_USAGE;
			break;
		case 'D':
			o.check_decl = true;
			break;
		default: /* -h, and the options parse has too */
			r = dynpf_cli_walk_opt(&o, c, "replay", replay_usage);
			if (r >= 0)
				return r;
		}
	}
	if (!lo.testbed && !lo.iface) {
		if (mode_set || mtu_set || lo.peer || lo.xdp_prog) {
			p_err("--mode, --mtu, --peer and --xdp-prog need --iface or --testbed");
			return DYNPF_EXIT_USAGE;
		}
		return dynpf_walk_main(&o, argc, argv, "replay");
	}
	if (lo.testbed && (lo.iface || lo.peer)) {
		p_err("--testbed makes its own interfaces: no --iface or --peer with it");
		return DYNPF_EXIT_USAGE;
	}
	if (mtu_set && !lo.testbed) {
		p_err("--mtu sets the test bed's MTU: it needs --testbed");
		return DYNPF_EXIT_USAGE;
	}
	if (lo.xdp_prog && lo.mode == DYNPF_LIVE_TC) {
		p_err("--xdp-prog is for the XDP modes, not --mode tc");
		return DYNPF_EXIT_USAGE;
	}
	if (hook_set || o.xdp_linear || o.n_rules || o.check_decl) {
		p_err("--hook, --xdp-linear, --rules and --check-decl are for test runs: not with %s",
		      lo.testbed ? "--testbed" : "--iface");
		return DYNPF_EXIT_USAGE;
	}
	if (optind >= argc || optind != argc - 1)
		return dynpf_walk_main(&o, argc, argv, "replay"); /* says what is wrong */
	lo.cfg = o.cfg;
	if (dynpf_live_start(&lo, &live))
		return DYNPF_EXIT_USAGE;
	/* Only the test-run hook of the attached program, to compare with. */
	o.hooks = live.ref;
	o.live = &live;
	r = dynpf_walk_main(&o, argc, argv, "replay");
	dynpf_live_stop();
	return r;
}
