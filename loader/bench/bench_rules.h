/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf bench, the rule benchmarks (bench_rules.c): classification ns per
 * packet against the number of rules loaded through the control channel,
 * rule updates per second through the ring beside raw BPF map writes, the
 * time from submit to effective, and nft -f where nftables is installed.
 */
#ifndef DYNPF_BENCH_RULES_H
#define DYNPF_BENCH_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define BENCH_RULES_NSHAPES 2	  /* syn and ipv6-udp */
#define BENCH_RULES_MAX_COUNTS 16 /* rule counts of one run, 0 and 1 included */
#define BENCH_RULES_MAX_COUNT 131070 /* ids 1 .. N-1, the catch-all is 131071 */

/* What bench.c hands over: the method's settings and the packets. */
struct bench_rules_cfg {
	uint32_t repeat; /* repetitions per test run */
	uint32_t runs;	 /* runs per figure: the median is reported */
	int cpu;	 /* the CPU the process is pinned to, or -1 */
	/* The empty programs of loader/bench/bench.bpf.c, on xdp and on tc: the floor. */
	int empty_fd[2];
	struct {
		const char *name;
		const uint8_t *pkt;
		uint32_t len;
	} shape[BENCH_RULES_NSHAPES];
	/* Ascending, no duplicates, 0 and 1 first. */
	uint32_t counts[BENCH_RULES_MAX_COUNTS];
	size_t ncounts;
};

struct bench_rules;
struct dynpf_rule;

/*
 * The generated rules, for the live bench too: the rule of id (one per id,
 * deterministic; ids 10, 20 .. 80 share the syn and ipv6-udp packets' keys),
 * and the catch-all: id BENCH_RULES_CATCHALL_ID, no match, action pass, the
 * last priority. The set of n rules is bench_rules_set_id(n, 0 .. n-1), in
 * priority order: ids 1 .. n-1 and the catch-all.
 */
#define BENCH_RULES_CATCHALL_ID (BENCH_RULES_MAX_COUNT + 1)
void bench_rules_gen(uint32_t id, struct dynpf_rule *r);

/* Say the first refused message among the control channel's acks (or that
 * the commit was not acked), as "WHO: WHAT: ...". Its -errno. */
struct dynpf_ctrl;
int bench_say_refusal(const struct dynpf_ctrl *c, const char *who, const char *what);

/* Commit the open transaction, flush, and check its ack (said as above when
 * refused); the ack in *ack (may be NULL). 0 or -errno. */
struct dynpf_ack_commit;
int bench_commit(struct dynpf_ctrl *c, const char *who, const char *what,
		 struct dynpf_ack_commit *ack);
uint32_t bench_rules_set_id(uint32_t n, uint32_t i);

/*
 * Parse --rule-counts (a comma list of 0 .. BENCH_RULES_MAX_COUNT) into
 * cfg->counts, adding 0 and 1 (the baselines). 0 or -EINVAL (said).
 */
int bench_rules_parse_counts(const char *arg, struct bench_rules_cfg *cfg);

/* The default counts: 0, 1, 100, 1000, 10000, 100000. */
void bench_rules_default_counts(struct bench_rules_cfg *cfg);

/* Run every rule benchmark: 0 and *out (free it), or -errno (said). */
int bench_rules_run(const struct bench_rules_cfg *cfg, struct bench_rules **out);

void bench_rules_print_text(const struct bench_rules *r);
json_object *bench_rules_json(const struct bench_rules *r);
void bench_rules_free(struct bench_rules *r);

#endif
