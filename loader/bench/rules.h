/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf bench, the rule benchmarks: classification ns per packet against
 * the number of rules loaded through the control channel, rule updates per
 * second through the ring beside raw BPF map writes, the time from submit to
 * effective, and nft -f where nftables is installed. rules_run.c says how.
 *
 * What main.c and --live call, then what the rules_*.c share:
 *
 *   rules_run.c       the run: rule counts, growing the set, each benchmark
 *   rules_gen.c       the generated rules, and transactions of them
 *   rules_classify.c  classification: checked, then timed per rule count
 *   rules_updates.c   rule updates per second, and the raw map-write floor
 *   rules_effect.c    the time from submit to effective
 *   rules_single.c    single-rule transactions: rates, ack latency, in force
 *   rules_cli.c       the CLI against a daemon: rule add, rules apply
 *   rules_nft.c       nft -f of the same rules
 *   rules_stages.c    where the time goes: dynpf_xdp stopped after each stage
 *   rules_frames.c    --frames: a capture's frames in turn, one test run each
 *   rules_opts.c      option areas with a rule that tests them, against direct
 *   rules_print.c     the tables, and the JSON
 */
#ifndef DYNPF_BENCH_RULES_H
#define DYNPF_BENCH_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bench/bench.h"
#include "channel/ring.h"
#include "pcap/capture.h"

#define BENCH_RULES_NSHAPES 2            /* syn and ipv6-udp */
#define BENCH_RULES_MAX_COUNTS 16        /* rule counts of one run, 0 and 1 included */
#define BENCH_RULES_MAX_COUNT 131070     /* ids 1 .. N-1, the catch-all is 131071 */
#define BENCH_FRAME_ROUNDS_DEFAULT 1000u /* --frame-rounds */
#define BENCH_FRAME_ROUNDS_MAX 1000000u
#define BENCH_FRAME_REPEAT_MAX 1000000u /* --frame-repeat */

/* What main.c hands over: the method's settings and the packets. */
struct bench_rules_cfg {
	uint32_t repeat; /* repetitions per test run */
	uint32_t runs;   /* runs per figure: the median is reported */
	int cpu;         /* the CPU the process is pinned to, or -1 */
	/* The empty programs of loader/bench/empty.bpf.h, on xdp and on tc: the floor. */
	int empty_fd[2];
	struct {
		const char *name;
		const uint8_t *pkt;
		uint32_t len;
	} shape[BENCH_RULES_NSHAPES];
	/*
	 * Shapes with option areas, timed with a rule that tests their
	 * options (rules_opts.c): tcp-opt40 and geneve8, with the direct
	 * parser's programs on xdp and tc beside them.
	 */
	struct {
		const char *name;
		const uint8_t *pkt;
		uint32_t len;
	} opt_shape[2];
	int direct_fd[2];
	/* Ascending, no duplicates, 0 and 1 first. */
	uint32_t counts[BENCH_RULES_MAX_COUNTS];
	size_t ncounts;
	const char *versus;    /* --versus: another build's dynpf.bpf.o, or NULL */
	const char *frames;    /* --frames: a capture's frames in turn, or NULL */
	uint32_t frame_rounds; /* --frame-rounds: times through them at each count */
	uint32_t frame_repeat; /* --frame-repeat: repetitions per test run (1: one run a frame) */
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

/* ---- shared by rules_*.c ------------------------------------------------------ */

#define RB_CATCHALL_ID (DYNPF_MAX_RULES - 1) /* pass, the last priority */
#define RB_DROP_ID (DYNPF_MAX_RULES - 2)     /* submit to effective */
#define RB_NKINDS 20                         /* kinds of generated rules */
_Static_assert(BENCH_RULES_CATCHALL_ID == RB_CATCHALL_ID, "one catch-all id");

#define BENCH_UPD_MS 100     /* wall-clock of one update-rate run, at least */
#define BENCH_EFF_SAMPLES 11 /* submit-to-effective samples per rule count */

/* The values of the raw map-write floor: a rule entry of dynpf_rules. */
#define RB_FLOOR_VALUE ((int)sizeof(struct dynpf_rule_ent))

/* Transactions of 1, 64 and 4096 adds (rules_updates.c). */
#define RB_NBATCHES 3
extern const uint32_t rb_upd_batches[RB_NBATCHES];

/* The hooks the rules are timed on (rules_classify.c). */
struct rb_hook {
	const char *name;
	uint32_t pass; /* the return value of a packet that passes */
	uint32_t drop;
};

#define RB_NHOOKS 2
extern const struct rb_hook rb_hooks[RB_NHOOKS];
#define RB_NSHAPES BENCH_RULES_NSHAPES

/* P_XDPFILT: xdp-filter's all-features program, on xdp only, where installed. */
enum {
	P_EMPTY,
	P_DYNPF,
	P_XDPFILT,
	NPROGS
};

/*
 * The ablation (rules_stages.c): the ablation build's dynpf_xdp loaded with
 * dynpf_stop_after 1 .. RB_NSTAGES (bpf/dynpf.bpf.c), on the same maps,
 * timed beside the whole program: the time each stage adds. Each without
 * the candidates' cache (dynpf_cc_off: every packet makes its candidates),
 * and program RB_NSTAGES the whole without it: the table's stages add up
 * to it, and the whole program is shown against it (the cache's ablation).
 */
#define RB_NSTAGES 9
#define RB_NABL (RB_NSTAGES + 1)
extern const char *const rb_stage_names[RB_NSTAGES + 1];

/*
 * Placements: dynpf_xdp loaded RB_NPLACES - 1 more times, the same object
 * on the same maps, and timed beside the bench's own (placement 0). Where
 * the kernel puts a program's code moved one packet's cost by a fifth
 * (docs/bench.md): the targets take, per placement, the ratio to the
 * baseline, and then the median over the placements. --versus's build is
 * loaded as many times, and its A/B is the median of this build's
 * placements (the fastest run of each) over the median of its.
 */
#define RB_NPLACES 3

/*
 * --frames (rules_frames.c): a capture's frames in turn, one test run
 * each, for these programs: the empty one, dynpf_xdp stopped after each
 * stage, the whole, xdp-filter's and --versus's.
 */
enum {
	RB_FR_EMPTY,
	RB_FR_STAGE, /* .. RB_FR_STAGE + RB_NSTAGES - 1, then the whole without the cache */
	RB_FR_WHOLE = RB_FR_STAGE + RB_NABL,
	RB_FR_XF,
	RB_FR_VERSUS,
	RB_FR_N
};
#define RB_FR_MAX_LEN 3000 /* an XDP test run's frame fits a page with its head and tail room */

/*
 * A rule count's rounds timed again when the machine was slow in them
 * (rb_time_steady()): its gauge above RB_SLOW times the lowest of the
 * counts before, at most RB_RETIME_MAX times more, RB_RETIME_PAUSE_MS apart.
 */
#define RB_SLOW 1.15
#define RB_RETIME_MAX 2
#define RB_RETIME_PAUSE_MS 2000

/* One rule count: its load and its classification figures. */
struct rb_set {
	uint32_t rules;
	uint32_t added;            /* by this step's transaction */
	uint32_t tuples;           /* the commit ack's ntuples */
	double load_ms;            /* this step: begin, adds, commit, flushed */
	double total_ms;           /* every step so far */
	uint32_t cand[RB_NSHAPES]; /* rules whose key the packet has (chain walks) */
	uint32_t ns[RB_NSHAPES][RB_NHOOKS][NPROGS][BENCH_RUNS_MAX];
	double med[RB_NSHAPES][RB_NHOOKS][NPROGS];
	/* dynpf_xdp stopped after stage k + 1, or k = RB_NSTAGES: not stopped,
	 * both without the candidates' cache (the whole program:
	 * med[.][0][P_DYNPF]) */
	uint32_t stage_ns[RB_NSHAPES][RB_NABL][BENCH_RUNS_MAX];
	double stage_med[RB_NSHAPES][RB_NABL];
	/* --versus's dynpf_xdp, loaded RB_NPLACES times as this build's */
	uint32_t versus_ns[RB_NSHAPES][RB_NPLACES][BENCH_RUNS_MAX];
	double versus_med[RB_NSHAPES][RB_NPLACES];
	/* dynpf_xdp in placement p >= 1 (0: ns[.][0][P_DYNPF]) */
	uint32_t place_ns[RB_NSHAPES][RB_NPLACES][BENCH_RUNS_MAX];
	double place_med[RB_NSHAPES][RB_NPLACES];
	double fr_ns[RB_FR_N]; /* --frames: mean ns per frame, -1: not timed */
	double *fr_frame_ns;   /* --frames: each frame's mean ns, [frame * RB_FR_N + k] */
	/* rb_time_steady(): the gauge (rb_gauge()) in each attempt at timing
	 * the set, how many attempts, and the one kept (the lowest gauge),
	 * whose figures the set holds */
	double gauge_ns[1 + RB_RETIME_MAX];
	uint32_t timed;
	uint32_t kept;
};

struct rb_upd {
	uint32_t batch;
	double ring[BENCH_RUNS_MAX], elem[BENCH_RUNS_MAX], mbatch[BENCH_RUNS_MAX]; /* updates/s */
	double txn_us[BENCH_RUNS_MAX]; /* wall-clock per ring transaction */
	double med_ring, med_elem, med_batch, med_txn_us;
};

/*
 * rules_single.c: single-rule transactions (issue 19), RB_SGL_N of each
 * kind timed, RB_SGL_CHECKS each checked by the next packet; rule ids from
 * RB_SGL_BASE (above the generated sets' and --live's own).
 */
#define RB_SGL_N 10000
#define RB_SGL_CHECKS 1000
#define RB_SGL_BASE 110000
enum {
	RB_SGL_ADD,
	RB_SGL_REPLACE,
	RB_SGL_DEL,
	RB_SGL_NKINDS
};
extern const char *const rb_sgl_kind[RB_SGL_NKINDS];

struct rb_single {
	bool done;
	uint32_t rules; /* loaded besides */
	uint32_t n;     /* transactions of each kind, timed */
	double per_s[RB_SGL_NKINDS];
	double p50_us[RB_SGL_NKINDS], p99_us[RB_SGL_NKINDS], max_us[RB_SGL_NKINDS];
	double all_per_s; /* the kinds one after another */
	uint32_t checked, in_force;
	uint32_t limbo_max; /* entries waiting to be reclaimed, at most */
};

struct bpf_map;
/*
 * On the control channel c, with rules loaded (said in the output): xdp_fd
 * is dynpf_xdp on c's maps, verdicts its dynpf_verdicts. Leaves the rule
 * set as it found it. 0 or -errno (said; -EPROTO: a change not in force).
 */
int rb_single_run(struct dynpf_ctrl *c, int xdp_fd, struct bpf_map *verdicts, uint32_t rules,
		  struct rb_single *s);
void rb_single_print(const struct rb_single *s, const char *where);

json_object *rb_single_json(const struct rb_single *s); /* NULL when not run */

/*
 * rules_cli.c: the CLI against a daemon the bench starts (issue 19):
 * RB_CLI_N `rule add` and `rule del` processes, and `rules apply` of
 * RB_CLI_CHANGES changes, a line or RB_CLI_BATCH lines a transaction.
 */
#define RB_CLI_N 200
#define RB_CLI_CHANGES 100000
#define RB_CLI_BATCH 100
struct rb_cli {
	bool done;
	char why[256]; /* not measured: why */
	uint32_t rules, n, changes;
	double p50_ms[2], p90_ms[2], max_ms[2]; /* [0] rule add, [1] rule del */
	double apply_per_s[2];                  /* [0] a line, [1] a batch a transaction */
	uint32_t acked[2];
};
/* With the generated set of rules in the daemon. 0 or -errno (said). */
struct rb_ctx;
int rb_cli(struct rb_ctx *x, uint32_t rules);
void rb_cli_print(const struct rb_cli *c);
json_object *rb_cli_json(const struct rb_cli *c);

struct rb_eff {
	uint32_t rules;
	double us[BENCH_EFF_SAMPLES];       /* begin to the first drop after the flush */
	double flush_us[BENCH_EFF_SAMPLES]; /* begin to the flush's return */
	double seen_us[BENCH_EFF_SAMPLES];  /* begin to the poller's first drop */
	double med_us, med_flush_us, min_us, max_us, med_seen_us;
	bool seen; /* a concurrent poller ran */
};

enum {
	NFT_ABSENT,
	NFT_OK,
	NFT_FAILED
};

/* rules_opts.c: the option shapes with a rule testing their options. */
enum {
	RB_OPT_EMPTY,
	RB_OPT_DIRECT,
	RB_OPT_DYNPF,
	RB_OPT_VERSUS, /* --versus: the other build's dynpf_xdp (xdp only) */
	RB_OPT_NPROGS
};
struct rb_opts {
	uint32_t ns[2][RB_NHOOKS][RB_OPT_NPROGS][BENCH_RUNS_MAX];
	double med[2][RB_NHOOKS][RB_OPT_NPROGS];
};
extern const char *const rb_opt_rule_text[2];

struct bench_rules {
	struct bench_rules_cfg cfg;
	struct rb_opts opts;
	double prog_load_ms; /* open, size and load of the programs */
	struct rb_set *set;  /* cfg.ncounts */
	struct rb_upd upd[RB_NBATCHES];
	struct rb_eff eff[2];
	size_t neff;
	struct rb_single single;
	struct rb_cli cli;
	int poller_cpu; /* the concurrent poller's CPU, or -1: none */
	int nft;
	char nft_msg[256];
	char xf_path[256]; /* xdp-filter's object, "" when absent */
	char xf_msg[256];  /* why it is absent or did not load */
	double nft_ms[BENCH_RULES_MAX_COUNTS];
	uint32_t nplaces;               /* placements of dynpf_xdp timed: RB_NPLACES */
	uint32_t fr_frames, fr_skipped; /* --frames: the frames timed, and left out */
	struct rb_frame_info {
		uint32_t num, len; /* the frame's number in the capture (from 1), its bytes */
	} *fr_info;                /* --frames: each frame timed */
	double gauge_min; /* the lowest gauge of the counts timed so far (rb_time_steady()) */
};

struct bpf_object;

/* The working state of one run. */
struct rb_ctx {
	struct bench_rules *res;
	const struct bench_rules_cfg *cfg;
	struct dynpf_bpf *skel;
	struct dynpf_lazy lazy; /* its packet programs (lib/progs.h) */
	struct dynpf_ctrl c;
	int prog_fd[RB_NHOOKS];
	struct bpf_object *stage[RB_NABL];    /* the ablation's programs */
	int stage_fd[RB_NABL];                /* their dynpf_xdp, or -1 */
	struct bpf_object *place[RB_NPLACES]; /* [0] unused: the bench's own */
	int place_fd[RB_NPLACES];             /* dynpf_xdp of placement p >= 1, or -1 */
	/* --versus's object in RB_NPLACES placements, and their dynpf_xdp (or -1) */
	struct bpf_object *versus[RB_NPLACES];
	int versus_fd[RB_NPLACES];
	int xf_fd; /* xdp-filter's program, or -1 */
	struct bpf_object *xf_obj;
	int ncpus;
	struct dynpf_pkt parsed[RB_NSHAPES];
	struct dynpf_capture cap; /* --frames' frames */
};

/* rules_gen.c: the rule of submit to effective, the text of each kind. */
void rb_gen_drop_rule(struct dynpf_rule *r);
extern const char *const rb_kind_text[RB_NKINDS];

/*
 * One transaction: add the rules of ids id_of(arg, 0 .. n-1)
 * (bench_rules_gen()), or delete them; flushed. The commit's ack in *ack.
 */
int rb_txn(struct rb_ctx *x, uint32_t n, uint32_t (*id_of)(uint32_t, uint32_t), uint32_t arg,
	   bool del, struct dynpf_ack_commit *ack, const char *what);

/* Ids from arg: arg + i. */
uint32_t rb_id_from(uint32_t arg, uint32_t i);

/* rules_classify.c: a test run, said when it fails (bench_test_run()). */
int rb_test_run(int fd, const uint8_t *pkt, uint32_t len, uint32_t repeat, uint32_t *ret,
		uint32_t *ns);
void rb_xdpfilter_open(struct rb_ctx *x);
int rb_check_set(struct rb_ctx *x, struct rb_set *s);
int rb_time_steady(struct rb_ctx *x, struct rb_set *s);
double rb_gauge(const struct rb_set *s);

/* rules_opts.c: the option shapes, timed with their option rules. 0 or -errno (said). */
int rb_options(struct rb_ctx *x);
void rb_print_options(const struct bench_rules *r);
json_object *rb_options_json(const struct bench_rules *r);

/* rules_frames.c: --frames, at each rule count. 0 or -errno (said). */
int rb_frames_open(struct rb_ctx *x);
void rb_frames_close(struct rb_ctx *x);
int rb_time_frames(struct rb_ctx *x, struct rb_set *s);
void rb_print_frames(const struct bench_rules *r);
json_object *rb_frames_json(const struct bench_rules *r);

/*
 * rules_stages.c: the counts' header, then the rows of an ablation table:
 * the floor, what each stage adds to the one before, the whole program.
 * at(r, i, k, arg): rule count i's figure after stage k (0: the empty
 * program, RB_NSTAGES + 1: the whole without the candidates' cache,
 * RB_NSTAGES + 2: the whole). No newline after the last row.
 */
void rb_print_stage_rows(const struct bench_rules *r,
			 double (*at)(const struct bench_rules *r, size_t i, int k,
				      const void *arg),
			 const void *arg);

/* rules_stages.c: the ablation's programs, on x->skel's maps. 0 or -errno (said). */
int rb_stages_open(struct rb_ctx *x);
void rb_stages_close(struct rb_ctx *x);
void rb_print_stages(const struct bench_rules *r);
json_object *rb_stages_json(const struct bench_rules *r);

/* rules_updates.c, rules_effect.c, rules_nft.c: 0 or -errno (said). */
int rb_updates(struct rb_ctx *x);
int rb_effective(struct rb_ctx *x, uint32_t rules, struct rb_eff *e);
void rb_nft(struct rb_ctx *x);

#endif
