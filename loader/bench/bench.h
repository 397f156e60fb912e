/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf bench: what its parts share (private to loader/bench/).
 *
 * The folder, one role a file:
 *
 *   main.c          cmd_bench: its options, its usage, which benchmarks run
 *   shapes.c        the packet shapes and the builders of their bytes
 *   ns.c            ns per packet per hook: empty, direct and dynpf per shape
 *   parity.c        direct's parse against dynpf's, before timing
 *   prims.c         the dynptr primitives: runs, table, JSON
 *   print.c         the shapes' table, and the whole run's text and JSON
 *   common.c        test runs, interleaved runs and medians, JSON arrays, a load
 *                   failure said
 *   txn.c           rule transactions through the control channel
 *   targets.c       the targets of issue 18: target, now, met
 *   rules.h         the rule benchmarks (rules_*.c; rules_run.c says how)
 *   live.h          --live, on the wire (live_*.c; live_run.c says how)
 *   bench.bpf.c     the BPF baselines, in the *.bpf.h beside it
 */
#ifndef DYNPF_BENCH_H
#define DYNPF_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "dynpf/pkt.h"
#include "lib/progs.h"
#include "lib/util.h"

#define BENCH_RUNS_MAX 1000u /* --runs at most: the size of every run array */
#define BENCH_PKT_MAX 9014

/* ---- the packet shapes (shapes.c) ----------------------------------------- */

struct bench_shape;
typedef uint32_t (*bench_build_fn)(const struct bench_shape *s, uint8_t *buf);

struct bench_shape {
	const char *name;
	const char *desc;
	uint32_t len; /* frame bytes, Ethernet header included, no FCS */
	uint8_t ipv;  /* 4 or 6 */
	uint8_t l4;   /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t tcp_flags;
	const uint8_t *opts;
	uint32_t optlen;
	bench_build_fn build; /* NULL: bench_build_packet()'s eth/IP/L4 */
	/* The direct parser does not do dynpf's work on it: why (direct is n/a). */
	const char *no_direct;
	/* A protocol declared at runtime while it runs (docs/rules.md), or NULL. */
	const char *decl;
};

#define BENCH_NSHAPES 12
extern const struct bench_shape bench_shapes[BENCH_NSHAPES];

/* Shape s's bytes in buf (BENCH_PKT_MAX bytes); its length. */
uint32_t bench_build_packet(const struct bench_shape *s, uint8_t *buf);

/* The index of the shape named name in bench_shapes[], or -1. */
int bench_shape_index(const char *name);

/* ---- the targets (targets.c) ------------------------------------------------ */

struct bench_rules;
struct bench_live;
/* Of the rule benchmarks' run (l NULL) or of --live's (l): the table, the JSON. */
void bench_print_targets(const struct bench_rules *r, const struct bench_live *l);
json_object *bench_targets_json(const struct bench_rules *r, const struct bench_live *l);

/* ---- test runs (common.c) --------------------------------------------------- */

/*
 * One BPF_PROG_TEST_RUN of pkt, repeat repetitions: the program's return
 * value in *ret, the mean ns per repetition in *ns (NULL: not wanted).
 * 0, or -errno (not said).
 */
int bench_test_run(int fd, const void *pkt, uint32_t len, uint32_t repeat, uint32_t *ret,
		   uint32_t *ns);

/*
 * The same, where the program must return want: -EPROTO, said, when it
 * returns another value.
 */
int bench_run_want(int fd, const void *pkt, uint32_t len, uint32_t repeat, uint32_t want,
		   uint32_t *ns);

/* One program of bench_interleave()'s runs. */
struct bench_job {
	int fd; /* the program; < 0: left out */
	const void *pkt;
	uint32_t len;
	uint32_t want;  /* what it returns, every run */
	uint32_t *ns;   /* run r's mean ns per repetition in ns[r] */
	double *median; /* and the median of the runs */
};

/*
 * runs rounds of bench_run_want() over jobs[0 .. n-1] in turn, repeat
 * repetitions each, so that drift hits them alike, every other round in
 * the reverse order, so that no job is always the one after another; then
 * each job's median.
 * 0, or bench_run_want()'s error with the failing job's index in *failed.
 */
int bench_interleave(const struct bench_job *jobs, size_t n, uint32_t runs, uint32_t repeat,
		     size_t *failed);

/* "WHO: cannot load WHAT (error): run with -vv to see the verifier log". */
void bench_say_unloaded(const char *who, const char *what, int err);

/* JSON arrays: of whole numbers, and of numbers written as fmt prints them. */
json_object *bench_json_u32s(const uint32_t *v, size_t n);
json_object *bench_json_doubles(const double *v, size_t n, const char *fmt);

/* ---- rule transactions (txn.c) ----------------------------------------------- */

struct dynpf_ctrl;
struct dynpf_ack_commit;
struct dynpf_rule;

/*
 * Say the first refused message among the control channel's acks (or that
 * the commit was not acked), as "WHO: WHAT: ...". Its -errno.
 */
int bench_say_refusal(const struct dynpf_ctrl *c, const char *who, const char *what);

/*
 * Commit the open transaction, flush, and check its ack (said as above when
 * refused); the ack in *ack (may be NULL). 0 or -errno.
 */
int bench_commit(struct dynpf_ctrl *c, const char *who, const char *what,
		 struct dynpf_ack_commit *ack);

/* Op i of a transaction: the rule to add in *r, or *del and the id in r->id. */
typedef void (*bench_op_fn)(const void *arg, uint32_t i, bool *del, struct dynpf_rule *r);

/* One transaction of n ops, committed and flushed as bench_commit(). */
int bench_txn(struct dynpf_ctrl *c, uint32_t n, bench_op_fn op, const void *arg, const char *who,
	      const char *what, struct dynpf_ack_commit *ack);

/* ---- ns per packet per hook (ns.c, parity.c) -------------------------------- */

enum {
	V_EMPTY,
	V_DIRECT,
	V_DYNPF,
	NVARIANTS
};
extern const char *const bench_variant_names[NVARIANTS];

struct bench_hook {
	const char *name;
	int hook;          /* DYNPF_HOOK_* */
	uint32_t max_len;  /* largest packet its test run builds; 0: no limit */
	uint32_t retval;   /* what every program returns */
	const char *limit; /* why a longer packet is n/a */
};

#define BENCH_NHOOKS 3
extern const struct bench_hook bench_hooks[BENCH_NHOOKS];

/* The dynptr primitives' programs; PR_EMPTY is the shapes' empty program. */
enum {
	PR_EMPTY,
	PR_CTOR,
	PR_SLICE,
	PR_CLONE,
	PR_CLONE_ADJUST,
	PR_READ,
	NPRIMS
};

struct dynpf_bpf;
struct bench_bpf;

struct bench_ctx {
	struct dynpf_bpf *dynpf;
	struct dynpf_lazy dynpf_lazy; /* its packet programs (lib/progs.h) */
	struct bench_bpf *ref;
	int fd[BENCH_NHOOKS][NVARIANTS];
	int prim_fd[BENCH_NHOOKS][NPRIMS];
	int cpu;      /* the CPU we are pinned to, or -1 */
	int ncpus;    /* possible CPUs: per-CPU map values */
	void *percpu; /* ncpus struct dynpf_pkt, for reading the scratch maps */
	uint32_t repeat;
	uint32_t runs;
	/*
	 * From the programs' rodata (loader/bench/prims.bpf.h): calls per
	 * primitive program, and the bytes each slice or read takes.
	 */
	uint32_t prim_calls;
	uint32_t prim_off;
	uint32_t prim_len;
};

struct bench_result {
	const struct bench_shape *shape;
	const struct bench_hook *hook;
	bool na;
	char reason[128];
	uint32_t len;   /* frame bytes */
	bool no_direct; /* direct does not do dynpf's work here: n/a, not compared */
	uint32_t ns[NVARIANTS][BENCH_RUNS_MAX];
	double median[NVARIANTS];
	const char *mismatch; /* first field where direct and dynpf differ */
	uint8_t err;          /* dynpf's parse error on this shape */
	uint32_t ntlv;        /* TLVs dynpf walked: sum of p->tlv[f].count */
};

/* The programs' fds in b->fd and b->prim_fd (no dynpf loaded: -1 for it). */
void bench_find_progs(struct bench_ctx *b);

/* Shape s on hook h: checked against direct, then timed. 0 or -errno (said). */
int bench_one(struct bench_ctx *b, const struct bench_shape *s, size_t h, struct bench_result *res);

/*
 * Run pkt once through dynpf (and direct, where it does the same work) on
 * hook h, and note in res what dynpf parsed and where direct differs.
 */
int bench_check_parity(struct bench_ctx *b, size_t h, const uint8_t *pkt, uint32_t len,
		       struct bench_result *res);

/* ---- the dynptr primitives (prims.c) ----------------------------------------- */

/* One hook's primitive programs: ns per packet, every run and the median. */
struct prim_result {
	uint32_t ns[NPRIMS][BENCH_RUNS_MAX];
	double median[NPRIMS];
};

/* Every hook's primitives, pr[BENCH_NHOOKS]. 0 or -errno (said). */
int bench_prims(struct bench_ctx *b, struct prim_result *pr);
void bench_prims_print_text(const struct bench_ctx *b, const struct prim_result *pr);
json_object *bench_prims_json(const struct bench_ctx *b, const struct prim_result *pr);

struct bpf_object;
struct dynpf_bpf;
/*
 * --versus: the dynpf_xdp of another build's dynpf.bpf.o at path, loaded on
 * skel's maps with skel's read-only settings (rules_stages.c): *obj (close
 * it) and the program's fd in *fd; 0 or -errno (said).
 */
int bench_versus_load(const char *path, struct dynpf_bpf *skel, struct bpf_object **obj, int *fd);

/* ---- output (print.c) ---------------------------------------------------------- */

struct bench_rules;

/* The run: n shape results, the primitives and the rules (NULL: not run). */
void bench_print_text(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		      const struct prim_result *pr, const struct bench_rules *rr);
void bench_print_json(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		      const struct prim_result *pr, const struct bench_rules *rr);

#endif
