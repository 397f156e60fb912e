// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the command (cmd_bench), its options and its usage, and the
 * order of the benchmarks (bench.h names the files that run them):
 *
 * ns per packet per hook for every packet shape (ns.c), then the dynptr
 * primitives (prims.c; --no-primitives leaves them out, --primitives-only
 * runs them alone), then the rule benchmarks (rules.h; --no-rules leaves
 * them out, --rules-only runs them alone): classification against the
 * number of rules loaded through the control channel, rule updates per
 * second through the ring beside raw BPF map writes, the time from submit to
 * effective, and nft -f where nftables is installed.
 *
 * --live runs alone (live.h): packets per second received on a veth
 * pair in two network namespaces of its own, from a BPF_F_TEST_XDP_LIVE_FRAMES
 * generator, by an empty XDP_DROP program and by dynpf's XDP and TC programs
 * with 1 and 10,000 rules, and rule updates pushed under that traffic.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "bench.skel.h"
#include "bench/bench.h"
#include "bench/live.h"
#include "bench/rules.h"
#include "lib/util.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "lang/rules_lang.h"

#define BENCH_REPEAT_DEFAULT 200000 /* 11 shapes x 3 hooks in well under 60 s */
#define BENCH_RUNS_DEFAULT 5
#define BENCH_REPEAT_MAX 1000000000u

/*
 * Whether the primitives, or the rule benchmarks, run: with the shapes
 * (default), not, or alone.
 */
enum {
	RUN_ALSO,
	RUN_NO,
	RUN_ONLY
};

static void bench_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf bench [OPTIONS]\n"
		"\n"
		"Measures ns per packet with BPF_PROG_TEST_RUN for each packet shape and hook\n"
		"(xdp, xdp-frags, tc), for an empty program, a direct-packet-access parser of\n"
		"the same headers, and dynpf's programs (trace off), and prints them with their\n"
		"ratios. Each figure is the median over the runs of the kernel's mean ns per\n"
		"repetition. Needs root.\n"
		"\n"
		"  --repeat N         repetitions per run (default %d)\n"
		"  --runs N           runs per figure, the median is reported (default %d)\n"
		"  --shape NAME       only these shapes; repeat it or give a comma list\n"
		"                     (default: all)\n"
		"  --no-primitives    leave out the dynptr primitives table\n"
		"  --primitives-only  run only the dynptr primitives (no shapes, no rules)\n"
		"  --no-rules         leave out the rule benchmarks\n"
		"  --rules-only       run only the rule benchmarks (no shapes, no primitives)\n"
		"  --rule-counts LIST the rule counts of the classification table, a comma\n"
		"                     list of 0..%u (default 1,100,1000,10000,100000; 0 and\n"
		"                     1 are always measured)\n"
		"  --versus OBJ       also time the dynpf_xdp of another build's dynpf.bpf.o\n"
		"                     (its maps must be this build's) on the same rule sets,\n"
		"                     in the same rounds: an A/B of two builds in one run\n"
		"                     (with --live: in pairs of slices with this build's,\n"
		"                     on the 10,000 rules)\n"
		"  --frames FILE      also run the frames of the capture FILE in turn, one\n"
		"                     test run each, through every program of the rule\n"
		"                     benchmarks at each rule count (the empty one, dynpf_xdp\n"
		"                     stopped after each stage, the whole, xdp-filter's,\n"
		"                     --versus's), interleaved frame by frame: ns per frame\n"
		"                     with the caches colder than in repeated runs\n"
		"  --frame-rounds N   --frames: times through the capture at each rule count\n"
		"                     (default %u)\n"
		"  --frame-repeat N   --frames: repetitions of a frame per test run (default\n"
		"                     1); with more, each frame's cost with the caches warm\n"
		"                     for it, as in the tables above\n"
		"  --live             on the wire instead, alone (see below): takes only the\n"
		"                     three options that follow, --versus and -j\n"
		"  --capture FILE     --live: the frames to send, in turn (default\n"
		"                     %s)\n"
		"  --duration SECONDS --live: seconds of traffic per configuration (default %d)\n"
		"  --xdp-bench        --live: also run xdp-tools' xdp-bench drop on the receiving\n"
		"                     end, where it works (it is skipped, saying why, where not)\n"
		"  --print-rules N    print the generated set of N rules (1..%u) that the\n"
		"                     classification table loads, as a rule file, and exit\n"
		"  -j, --json         one JSON object with every result (as the global -j)\n"
		"  -h, --help         this text\n"
		"\n"
		"After the shapes, the dynptr primitives: ns per call of the constructor\n"
		"(bpf_dynptr_from_xdp/skb), bpf_dynptr_slice(), bpf_dynptr_clone(),\n"
		"bpf_dynptr_clone() + bpf_dynptr_adjust() (a bounded view) and\n"
		"bpf_dynptr_read(), per hook, on the syn packet.\n"
		"\n"
		"Then the rules: ns per packet of syn and ipv6-udp through dynpf's\n"
		"xdp and tc programs with 0, 1 and each count of generated rules loaded\n"
		"through the control channel (mixed prefixes, ports and ranges, protocols,\n"
		"TCP flags, TLV tests; only a catch-all matches), with the ratio to 1 rule\n"
		"and, on xdp, to xdp-filter's all-features program (libxdp1's object);\n"
		"rule updates per second through the ring in transactions of 1, 64 and 4096\n"
		"adds, beside bpf_map_update_elem() and BPF_MAP_UPDATE_BATCH into an array\n"
		"map (the raw map-write floor); the time from submitting a rule to its\n"
		"effect; and nft -f of the same rules in a new network namespace where nft is\n"
		"installed.\n"
		"\n"
		"--live: packets per second on a veth pair between two network namespaces the\n"
		"bench makes (dynpf-tb-PID-rx and -tx, 198.18.0.0/15 and 2001:db8::/32) and\n"
		"removes at the end, on failure and on Ctrl-C or SIGTERM. A generator thread,\n"
		"pinned to one CPU, sends the capture's frames in turn into one end: an XDP\n"
		"program returning XDP_TX, run with BPF_PROG_TEST_RUN and\n"
		"BPF_F_TEST_XDP_LIVE_FRAMES (as xdp-trafficgen does). On the other end, in\n"
		"turn, for --duration seconds each: an empty XDP_DROP program; dynpf's XDP\n"
		"program (native mode) with 1 and with 10,000 generated rules, loaded through\n"
		"the control channel, the last a catch-all drop; dynpf's TC ingress program\n"
		"(tcx) with the same sets. A line a second gives the Mpps received, per action\n"
		"(dynpf's counters), and a table sums them up with the ratio to the empty\n"
		"program. While the 10,000-rule XDP run goes on, 100,000 rule updates are\n"
		"pushed in transactions of 1,000: updates per second, the rate received\n"
		"meanwhile, and the packets a half-applied rule set classified (must be 0).\n"
		"Sender and receiver share the machine's CPUs: the receiver's NAPI runs on\n"
		"the generator's. With -j: {\"live\": {...}}.\n"
		"\n"
		"Shapes:\n",
		BENCH_REPEAT_DEFAULT, BENCH_RUNS_DEFAULT, BENCH_RULES_MAX_COUNT,
		BENCH_FRAME_ROUNDS_DEFAULT, BENCH_LIVE_CAPTURE_DEFAULT, BENCH_LIVE_DURATION_DEFAULT,
		BENCH_RULES_MAX_COUNT);
	for (size_t i = 0; i < BENCH_NSHAPES; i++) {
		static uint8_t pkt[BENCH_PKT_MAX];

		fprintf(f, "  %-12s %5u bytes  %s\n", bench_shapes[i].name,
			bench_build_packet(&bench_shapes[i], pkt), bench_shapes[i].desc);
	}
	fprintf(f, "\n"
		   "xdp runs packets of at most 3520 bytes and tc of at most about 3.7 KB:\n"
		   "larger ones are shown as n/a. With -j, one JSON object holds every result.\n");
}

static int parse_uint(const char *opt, const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < 1 || v > max) {
		p_err("%s %s: expected an integer from 1 to %u", opt, s, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* Add the shapes of a comma list to *mask; whole names only. */
static int parse_shapes(const char *arg, unsigned int *mask)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i = bench_shape_index(tok);

		if (i < 0) {
			char names[256] = "";

			for (i = 0; i < BENCH_NSHAPES; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", i ? ", " : "", bench_shapes[i].name);
			p_err("--shape %s: unknown shape (%s)", tok, names);
			return -EINVAL;
		}
		*mask |= 1u << i;
	}
	if (!*mask) {
		p_err("--shape '%s': no shape named", arg);
		return -EINVAL;
	}
	return 0;
}

/* Pin to the CPU we run on: steadier numbers, and one per-CPU slot to read. */
static int pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		pr_warn("bench: cannot pin to CPU %d (%s): numbers may be noisier, "
			"parses not compared\n",
			cpu, strerror(errno));
		return -1;
	}
	return cpu;
}

/*
 * --no-X (no) or --X-only into *mode (RUN_*): RUN_NO or RUN_ONLY. Given
 * both, they are refused. 0 or -EINVAL (said).
 */
static int set_mode(int *mode, bool no, const char *no_opt, const char *only_opt)
{
	int want = no ? RUN_NO : RUN_ONLY;

	if (*mode != RUN_ALSO && *mode != want) {
		p_err("bench: %s and %s exclude each other", no_opt, only_opt);
		return -EINVAL;
	}
	*mode = want;
	return 0;
}

/* Long options without a short form. */
enum {
	OPT_NO_PRIMS = 256,
	OPT_PRIMS_ONLY,
	OPT_NO_RULES,
	OPT_RULES_ONLY,
	OPT_RULE_COUNTS,
	OPT_VERSUS,
	OPT_FRAMES,
	OPT_FRAME_ROUNDS,
	OPT_FRAME_REPEAT,
	OPT_LIVE,
	OPT_CAPTURE,
	OPT_DURATION,
	OPT_XDP_BENCH,
	OPT_PRINT_RULES,
};

/*
 * --print-rules N: the generated set of N rules the classification table
 * loads, in the rule language (dynpf_rule_format(), one rule a line, as
 * `dynpf rules check` prints them), for a rule file: scripts/lineprof.sh
 * -r, a daemon, nft's translation by hand.
 */
static int print_rules(uint32_t n)
{
	struct dynpf_rule r;
	char buf[1024];

	printf("# dynpf bench: the generated set of %u rules (the last the catch-all)\n", n);
	for (uint32_t i = 0; i < n; i++) {
		bench_rules_gen(bench_rules_set_id(n, i), &r);
		if (dynpf_rule_format(&r, buf, sizeof(buf)) < 0) {
			p_err("bench: --print-rules: rule %u cannot be written", r.id);
			return DYNPF_EXIT_USAGE;
		}
		printf("%s\n", buf);
	}
	return fflush(stdout) ? DYNPF_EXIT_USAGE : DYNPF_EXIT_OK;
}

/*
 * A kernel that refuses live frames (r->unavailable): the error, and the
 * live targets as not measured; with -j one object, the error in it beside
 * "live" ({"unavailable": why}) and "targets", which `make bench` merges.
 */
static void live_unavailable(const struct bench_live *r)
{
	json_object *top, *live;

	if (!dynpf_json) {
		bench_print_targets(NULL, r);
		fflush(stdout);
		p_err("bench --live: %s", r->unavailable);
		return;
	}
	top = json_object_new_object();
	live = json_object_new_object();
	json_object_object_add(live, "unavailable", json_object_new_string(r->unavailable));
	json_object_object_add(top, "live", live);
	json_object_object_add(top, "targets", bench_targets_json(NULL, r));
	json_object_object_add(top, "error", json_object_new_string(r->unavailable));
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	fprintf(stderr, "dynpf: bench --live: %s\n", r->unavailable);
}

/*
 * --live: the on-the-wire bench alone (live.h). Its JSON is one
 * object with one key, "live"; the other runs' JSON is as it was.
 */
static int run_live(const struct bench_live_cfg *lc)
{
	struct bench_live *r = NULL;
	int err;

	if (dynpf_probe_kernel())
		return DYNPF_EXIT_USAGE;
	err = bench_live_run(lc, &r);
	if (err == -EOPNOTSUPP && r) {
		live_unavailable(r);
		bench_live_free(r);
		return DYNPF_EXIT_USAGE;
	}
	if (err)
		return DYNPF_EXIT_USAGE;
	if (dynpf_json) {
		json_object *top = json_object_new_object();

		json_object_object_add(top, "live", bench_live_json(r));
		json_object_object_add(top, "targets", bench_targets_json(NULL, r));
		printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
		json_object_put(top);
	} else {
		bench_live_print_text(r);
		bench_print_targets(NULL, r);
	}
	/* A capture cut short: its whole records were sent; the cut, then exit 2. */
	err = r->capture_end[0] ? DYNPF_EXIT_USAGE : DYNPF_EXIT_OK;
	if (err) {
		fflush(stdout); /* after the results, on a pipe too */
		p_err("%s", r->capture_end);
	}
	bench_live_free(r);
	return err;
}

/* The packets of the rule benchmarks: syn and ipv6-udp, and the empty programs. */
static int run_rules(struct bench_ctx *b, struct bench_rules_cfg *rc, struct bench_rules **out)
{
	static uint8_t pkt[BENCH_RULES_NSHAPES][BENCH_PKT_MAX], opt_pkt[2][BENCH_PKT_MAX];
	static const char *const names[BENCH_RULES_NSHAPES] = { "syn", "ipv6-udp" };
	static const char *const opt_names[2] = { "tcp-opt40", "geneve8" };

	rc->repeat = b->repeat;
	rc->runs = b->runs;
	rc->cpu = b->cpu;
	rc->empty_fd[0] = b->fd[0][V_EMPTY]; /* xdp */
	rc->empty_fd[1] = b->fd[2][V_EMPTY]; /* tc */
	for (size_t i = 0; i < BENCH_RULES_NSHAPES; i++) {
		int s = bench_shape_index(names[i]);

		if (s < 0)
			abort(); /* they are in bench_shapes[] */
		rc->shape[i].name = bench_shapes[s].name;
		rc->shape[i].len = bench_build_packet(&bench_shapes[s], pkt[i]);
		rc->shape[i].pkt = pkt[i];
	}
	rc->direct_fd[0] = b->fd[0][V_DIRECT];
	rc->direct_fd[1] = b->fd[2][V_DIRECT];
	for (size_t i = 0; i < 2; i++) {
		int s = bench_shape_index(opt_names[i]);

		if (s < 0)
			abort();
		rc->opt_shape[i].name = bench_shapes[s].name;
		rc->opt_shape[i].len = bench_build_packet(&bench_shapes[s], opt_pkt[i]);
		rc->opt_shape[i].pkt = opt_pkt[i];
	}
	return bench_rules_run(rc, out);
}

/*
 * The protocol declared by text (a `protocol` line; NULL: none) in both
 * tables of s's rule set, and the parse told to walk it (DYNPF_PUB_DECL, as
 * a commit publishes it while a rule tests one), with the whole parse:
 * only while a shape that has one runs, so the others run with none. 0 or
 * -errno (said).
 */
static int bench_declare(struct dynpf_bpf *s, const char *text)
{
	struct dynpf_ruleset rs;
	struct dynpf_rule_err rerr;
	struct dynpf_state st;
	uint32_t zero = 0;
	int err = 0;

	dynpf_ruleset_init(&rs);
	if (text && dynpf_ruleset_parse(&rs, "bench", text, strlen(text), &rerr)) {
		p_err("bench: %s", rerr.msg);
		return -EINVAL;
	}
	for (uint32_t side = 0; side < 2 && !err; side++)
		err = bpf_map_update_elem(bpf_map__fd(s->maps.dynpf_protos), &side, &rs.protos, 0);
	if (!err)
		err = bpf_map_lookup_elem(bpf_map__fd(s->maps.dynpf_state), &zero, &st);
	if (!err) {
		st.pub = (st.pub & ~(__u64)DYNPF_PUB_DECL) | DYNPF_NEED_FULL |
			 (text ? DYNPF_PUB_DECL : 0);
		err = bpf_map_update_elem(bpf_map__fd(s->maps.dynpf_state), &zero, &st, 0);
	}
	dynpf_ruleset_free(&rs);
	if (err)
		p_err("bench: cannot declare a protocol: %s", strerror(errno));
	return err ? -errno : 0;
}

/* dynpf bench: the command table (cli/cmds.h) calls it. */
/* The rule set of s needs the whole parse (its published word says so). 0 or -errno (said). */
static int bench_need_everything(struct dynpf_bpf *s)
{
	struct dynpf_state st;
	uint32_t zero = 0;
	int fd = bpf_map__fd(s->maps.dynpf_state), err;

	err = bpf_map_lookup_elem(fd, &zero, &st);
	if (!err) {
		st.pub |= DYNPF_NEED_FULL;
		err = bpf_map_update_elem(fd, &zero, &st, 0);
	}
	if (err)
		p_err("bench: cannot set what dynpf's parse needs: %s", strerror(errno));
	return err ? -errno : 0;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, 'r' },
		{ "runs", required_argument, NULL, 'n' },
		{ "shape", required_argument, NULL, 's' },
		{ "no-primitives", no_argument, NULL, OPT_NO_PRIMS },
		{ "primitives-only", no_argument, NULL, OPT_PRIMS_ONLY },
		{ "no-rules", no_argument, NULL, OPT_NO_RULES },
		{ "rules-only", no_argument, NULL, OPT_RULES_ONLY },
		{ "rule-counts", required_argument, NULL, OPT_RULE_COUNTS },
		{ "versus", required_argument, NULL, OPT_VERSUS },
		{ "frames", required_argument, NULL, OPT_FRAMES },
		{ "frame-rounds", required_argument, NULL, OPT_FRAME_ROUNDS },
		{ "frame-repeat", required_argument, NULL, OPT_FRAME_REPEAT },
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "capture", required_argument, NULL, OPT_CAPTURE },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "xdp-bench", no_argument, NULL, OPT_XDP_BENCH },
		{ "print-rules", required_argument, NULL, OPT_PRINT_RULES },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct bench_ctx b = { .repeat = BENCH_REPEAT_DEFAULT, .runs = BENCH_RUNS_DEFAULT };
	static struct bench_result res[BENCH_NSHAPES * BENCH_NHOOKS];
	static struct prim_result prim_res[BENCH_NHOOKS];
	const struct prim_result *pr = NULL;
	struct bench_rules_cfg rc = { 0 };
	struct bench_rules *rr = NULL;
	struct bench_live_cfg lc = { .duration = BENCH_LIVE_DURATION_DEFAULT };
	unsigned int mask = 0;
	int c, err, ret = DYNPF_EXIT_USAGE, prims = RUN_ALSO, rules = RUN_ALSO;
	bool counts_given = false, live = false, live_opts = false, other_opts = false;
	bool rounds_given = false;
	const char *versus = NULL;
	uint32_t print_n = 0;
	size_t n = 0;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': /* also accepted before the command */
			dynpf_json = true;
			break;
		case 'r':
			if (parse_uint("--repeat", optarg, BENCH_REPEAT_MAX, &b.repeat))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case 'n':
			if (parse_uint("--runs", optarg, BENCH_RUNS_MAX, &b.runs))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case 's':
			if (parse_shapes(optarg, &mask))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case OPT_LIVE:
			live = true;
			break;
		case OPT_CAPTURE:
			lc.capture = optarg;
			live_opts = true;
			break;
		case OPT_DURATION:
			if (parse_uint("--duration", optarg, BENCH_LIVE_DURATION_MAX, &lc.duration))
				return DYNPF_EXIT_USAGE;
			live_opts = true;
			break;
		case OPT_XDP_BENCH:
			lc.xdp_bench = true;
			live_opts = true;
			break;
		case OPT_PRINT_RULES:
			if (parse_uint("--print-rules", optarg, BENCH_RULES_MAX_COUNT, &print_n))
				return DYNPF_EXIT_USAGE;
			break;
		case OPT_NO_PRIMS:
		case OPT_PRIMS_ONLY:
			other_opts = true;
			if (set_mode(&prims, c == OPT_NO_PRIMS, "--no-primitives",
				     "--primitives-only"))
				return DYNPF_EXIT_USAGE;
			break;
		case OPT_NO_RULES:
		case OPT_RULES_ONLY:
			other_opts = true;
			if (set_mode(&rules, c == OPT_NO_RULES, "--no-rules", "--rules-only"))
				return DYNPF_EXIT_USAGE;
			break;
		case OPT_RULE_COUNTS:
			if (bench_rules_parse_counts(optarg, &rc))
				return DYNPF_EXIT_USAGE;
			counts_given = true;
			other_opts = true;
			break;
		case OPT_VERSUS:
			versus = optarg; /* the rule benchmarks', or --live's */
			break;
		case OPT_FRAMES:
			rc.frames = optarg;
			other_opts = true;
			break;
		case OPT_FRAME_ROUNDS:
			if (parse_uint("--frame-rounds", optarg, BENCH_FRAME_ROUNDS_MAX,
				       &rc.frame_rounds))
				return DYNPF_EXIT_USAGE;
			rounds_given = true;
			other_opts = true;
			break;
		case OPT_FRAME_REPEAT:
			if (parse_uint("--frame-repeat", optarg, BENCH_FRAME_REPEAT_MAX,
				       &rc.frame_repeat))
				return DYNPF_EXIT_USAGE;
			rounds_given = true;
			other_opts = true;
			break;
		case 'h':
			bench_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf bench --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		p_err("bench: unexpected argument '%s'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	if (versus && live) {
		lc.versus = versus;
	} else if (versus) {
		rc.versus = versus;
		other_opts = true;
	}
	if (print_n) {
		if (live || live_opts || other_opts || dynpf_json) {
			p_err("bench: --print-rules runs alone");
			return DYNPF_EXIT_USAGE;
		}
		return print_rules(print_n);
	}
	if (live_opts && !live) {
		p_err("bench: --capture, --duration and --xdp-bench go with --live");
		return DYNPF_EXIT_USAGE;
	}
	if (live && other_opts) {
		p_err("bench: --live runs alone: it takes --capture, --duration, --xdp-bench, "
		      "--versus and -j only");
		return DYNPF_EXIT_USAGE;
	}
	if (live) {
		lc.print_live = !dynpf_json;
		return run_live(&lc);
	}
	if (prims == RUN_ONLY && mask) {
		p_err("bench: --shape and --primitives-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if (rules == RUN_ONLY && mask) {
		p_err("bench: --shape and --rules-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if (prims == RUN_ONLY && rules == RUN_ONLY) {
		p_err("bench: --primitives-only and --rules-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if ((counts_given || rc.frames) && (rules == RUN_NO || prims == RUN_ONLY)) {
		p_err("bench: %s without the rule benchmarks (%s)",
		      counts_given ? "--rule-counts" : "--frames",
		      rules == RUN_NO ? "--no-rules" : "--primitives-only");
		return DYNPF_EXIT_USAGE;
	}
	if (rounds_given && !rc.frames) {
		p_err("bench: --frame-rounds and --frame-repeat go with --frames");
		return DYNPF_EXIT_USAGE;
	}
	if (!rc.frame_rounds)
		rc.frame_rounds = BENCH_FRAME_ROUNDS_DEFAULT;
	if (!rc.frame_repeat)
		rc.frame_repeat = 1;
	/* Said now, not after the shapes' minute: the rule benchmarks read it last. */
	if (rc.frames && access(rc.frames, R_OK)) {
		p_err("bench: --frames %s: %s", rc.frames, strerror(errno));
		return DYNPF_EXIT_USAGE;
	}
	if (rules == RUN_ONLY)
		prims = RUN_NO;
	if (prims == RUN_ONLY)
		rules = RUN_NO;
	if (!counts_given)
		bench_rules_default_counts(&rc);
	if (prims == RUN_ONLY || rules == RUN_ONLY)
		mask = 0;
	else if (!mask)
		mask = (1u << BENCH_NSHAPES) - 1;

	if (dynpf_probe_kernel())
		return DYNPF_EXIT_USAGE;

	b.ncpus = libbpf_num_possible_cpus();
	if (b.ncpus <= 0) {
		p_err("bench: cannot count the possible CPUs: %s", strerror(-b.ncpus));
		return DYNPF_EXIT_USAGE;
	}
	b.percpu = calloc(b.ncpus, sizeof(struct dynpf_pkt));
	if (!b.percpu) {
		p_err("bench: out of memory");
		return DYNPF_EXIT_USAGE;
	}
	b.cpu = pin_cpu();

	/* dynpf as shipped: the defaults, trace off (the shapes need it). */
	if (rules != RUN_ONLY) {
		b.dynpf = dynpf_bpf__open();
		if (b.dynpf)
			dynpf_skel_maps_only(b.dynpf);
		if (!b.dynpf || dynpf_bpf__load(b.dynpf)) {
			bench_say_unloaded("bench", "dynpf's BPF programs", -errno);
			goto destroy_dynpf;
		}
		if (dynpf_lazy_open(b.dynpf, 0, 0, &b.dynpf_lazy))
			goto destroy_dynpf;
	}
	if (b.dynpf && b.dynpf->rodata->dynpf_trace_on) {
		p_err("bench: dynpf_trace_on defaults to on: refusing to time the trace");
		goto destroy_dynpf;
	}
	/*
	 * The shapes table times the whole parse, as with rules on every
	 * option and the inner packet (dynpf_state.needs): no rule is loaded,
	 * and the data path would otherwise skip what no rule needs.
	 */
	if (b.dynpf && bench_need_everything(b.dynpf))
		goto destroy_dynpf;
	b.ref = bench_bpf__open_and_load();
	if (!b.ref) {
		bench_say_unloaded("bench", "the reference programs", -errno);
		goto destroy_dynpf;
	}
	bench_find_progs(&b);
	b.prim_calls = b.ref->rodata->bench_prim_calls;
	b.prim_off = b.ref->rodata->bench_prim_off;
	b.prim_len = b.ref->rodata->bench_prim_len;

	for (size_t s = 0; s < BENCH_NSHAPES; s++) {
		if (!(mask & (1u << s)))
			continue;
		if (b.dynpf && bench_shapes[s].decl && bench_declare(b.dynpf, bench_shapes[s].decl))
			goto destroy_ref;
		for (size_t h = 0; h < BENCH_NHOOKS; h++) {
			err = bench_one(&b, &bench_shapes[s], h, &res[n]);
			if (err)
				goto destroy_ref;
			n++;
		}
		if (b.dynpf && bench_shapes[s].decl && bench_declare(b.dynpf, NULL))
			goto destroy_ref;
	}
	if (prims != RUN_NO) {
		err = bench_prims(&b, prim_res);
		if (err)
			goto destroy_ref;
		pr = prim_res;
	}
	if (rules != RUN_NO) {
		err = run_rules(&b, &rc, &rr);
		if (err)
			goto destroy_ref;
	}
	if (dynpf_json)
		bench_print_json(&b, res, n, pr, rr);
	else
		bench_print_text(&b, res, n, pr, rr);
	bench_rules_free(rr);
	ret = DYNPF_EXIT_OK;

destroy_ref:
	bench_bpf__destroy(b.ref);
destroy_dynpf:
	dynpf_lazy_close(&b.dynpf_lazy);
	dynpf_bpf__destroy(b.dynpf);
	free(b.percpu);
	return ret;
}
