/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf bench --live: packets on the wire. A veth pair between two network
 * namespaces the bench makes (testbed/testbed.h), a traffic generator on its
 * sending end (BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES), and on its
 * receiving end, in turn, an empty XDP_DROP program and dynpf's XDP and TC
 * programs with 1 and 10,000 generated rules: received packets per second,
 * per action, from the receivers' counters; and 100,000 rule updates pushed
 * through the control channel while the 10,000-rule XDP run goes on.
 * live_run.c says how.
 *
 * What main.c calls, then what the live_*.c share:
 *
 *   live_run.c       set up, every configuration in turn, tear down
 *   live_frames.c    the capture's frames: loaded, checked, handed over
 *   live_gen.c       the generator thread
 *   live_rx.c        the receivers: attached, detached, their counters
 *   live_measure.c   one configuration: traffic, a line a second, the figure
 *   live_rules.c     the live rule sets, and what the native classifier says
 *   live_push.c      the control plane under traffic
 *   live_xdpbench.c  xdp-tools' xdp-bench, where it works
 *   live_print.c     the table, and the JSON
 */
#ifndef DYNPF_BENCH_LIVE_H
#define DYNPF_BENCH_LIVE_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "attach/attach.h"
#include "bench/bench.h"
#include "bench/rules.h"
#include "channel/ring.h"
#include "lib/progs.h"
#include "pcap/capture.h"
#include "testbed/testbed.h"

#define BENCH_LIVE_CAPTURE_DEFAULT "pcap-tests/tcp_options.pcap"
#define BENCH_LIVE_DURATION_DEFAULT 5
#define BENCH_LIVE_DURATION_MAX 3600

struct bench_live_cfg {
	const char *capture; /* NULL: BENCH_LIVE_CAPTURE_DEFAULT */
	uint32_t duration;   /* seconds of traffic per configuration */
	bool xdp_bench;      /* also run xdp-tools' xdp-bench drop, where it works */
	bool print_live;     /* a line per second on stdout, like xdp-bench */
	const char *versus;  /* --versus: another build's dynpf.bpf.o, or NULL */
};

struct bench_live;

/*
 * Make the test bed, run every configuration, tear it all down (also on
 * failure; SIGINT, SIGTERM, SIGHUP and SIGPIPE tear down, then the process
 * dies of the signal). 0 and *out (free it), or -errno (said); but
 * -EOPNOTSUPP, unsaid, with *out (free it) whose unavailable says why, when
 * the kernel refuses the generator's live frames (nothing was set up).
 */
int bench_live_run(const struct bench_live_cfg *cfg, struct bench_live **out);

void bench_live_print_text(const struct bench_live *r);
json_object *bench_live_json(const struct bench_live *r);
void bench_live_free(struct bench_live *r);

/* ---- shared by live_*.c ------------------------------------------------------- */

#define LV_MTU 1500
#define LV_REPEAT (1u << 30) /* frames per test run: until interrupted */
#define LV_FRAME_MAX 1520    /* loader/bench/live.bpf.h BENCH_LIVE_FRAME_MAX */
#define LV_MAX_FRAMES 65536  /* frames of a capture sent, at most */
#define LV_BATCH 64          /* frames per batch of a test run (NAPI_POLL_WEIGHT) */
#define LV_DRAIN_MS 100      /* after the generator stops: frames still on the ring */

#define LV_RULES_BIG 10000
#define LV_PUSH_UPDATES 100000
#define LV_PUSH_TXN 1000 /* updates per transaction: 2 markers, churn deleted, added */
#define LV_PUSH_TXNS (LV_PUSH_UPDATES / LV_PUSH_TXN)
#define LV_CHURN ((LV_PUSH_TXN - 2) / 2)
_Static_assert(LV_PUSH_TXNS *LV_PUSH_TXN == LV_PUSH_UPDATES, "whole transactions");
_Static_assert(2 + 2 * LV_CHURN == LV_PUSH_TXN, "an even transaction");

#define LV_CONTROL_MS 50 /* the control: how long the marker stays deleted */

/* Rule ids of the push: two churn ranges, the markers, the sentinel. */
#define LV_CHURN_BASE 20000
#define LV_MARKER0 (BENCH_RULES_CATCHALL_ID - 11)
#define LV_MARKER1 (BENCH_RULES_CATCHALL_ID - 10)
#define LV_SENTINEL (BENCH_RULES_CATCHALL_ID - 9)
_Static_assert(LV_CHURN_BASE + 2 * LV_CHURN < LV_MARKER0, "churn ids below the markers");
_Static_assert(LV_RULES_BIG < LV_CHURN_BASE, "churn ids above the set's");

enum {
	LV_EMPTY,
	LV_XDP1,
	LV_XDP_BIG,
	LV_TC1,
	LV_TC_BIG,
	LV_NCONF
};

struct lv_conf {
	const char *label; /* in the table */
	const char *key;   /* in JSON */
	const char *tag;   /* on the lines a second */
	int hook;          /* DYNPF_HOOK_*, 0: the empty program */
	uint32_t rules;
};

/* The configurations (live_run.c), in the order of the table. */
extern const struct lv_conf lv_confs[LV_NCONF];

/* A growing list of doubles: Mpps per second. */
struct lv_series {
	double *v;
	size_t n, cap;
};

struct lv_run {
	bool done;
	double secs;                    /* of sending */
	uint64_t sent;                  /* frames the generator ran */
	uint64_t act[DYNPF_STATS_ACTS]; /* received, per terminal action */
	uint64_t rx;                    /* received */
	struct lv_series per_s;         /* received Mpps, each second */
};

struct lv_push {
	bool done;
	uint32_t txns, updates;
	double secs; /* the counted transactions, begin to the last flush */
	uint64_t sent, rx, act[DYNPF_STATS_ACTS];
	double rx_secs;     /* the receive counters' interval */
	uint64_t sentinel;  /* packets a half-applied rule set classified */
	uint64_t catch_all; /* packets that reached the catch-all meanwhile */
	uint32_t gen_first, gen_last;
	uint32_t frames_checked; /* frames a marker decides (the others never reach it) */
	/* The control: the marker deleted in one transaction, added back in the next. */
	uint64_t control; /* packets the sentinel counted meanwhile: must not be 0 */
	double control_ms;
	struct lv_series per_s;
};

/*
 * The live targets' figure: LV_PAIRS pairs of slices of LV_SLICE_MS, the
 * empty program's and dynpf's one after the other (every other pair the
 * other way round), the ratio per pair and its median. The configurations'
 * runs are seconds apart, and this VM has phases, seconds long, in which
 * every frame costs 1.3-1.5x: a ratio of two runs moved by 0.07 between
 * make bench runs, on a target 0.05 wide.
 */
#define LV_PAIRS 7
#define LV_SLICE_MS 1000 /* with --duration 5 or more; 200 ms a second below */
#define LV_WARM_MS 100   /* traffic on before a slice's counters are read */
struct lv_pairs {
	bool done;
	uint32_t slice_ms;
	double empty[LV_PAIRS], dynpf[LV_PAIRS]; /* received Mpps of each slice */
	double ratio[LV_PAIRS];                  /* dynpf / empty, per pair */
	double med;
};
enum {
	LV_PAIR_XDP1,
	LV_PAIR_XDP_BIG,
	LV_NPAIRS
};
extern const int lv_pair_conf[LV_NPAIRS];

/*
 * --versus: this build's dynpf_xdp and the other build's (on the same maps,
 * the same 10,000 rules) in turn, LV_PAIRS pairs of slices as above.
 */
struct lv_versus {
	bool done;
	char object[PATH_MAX]; /* the other build's dynpf.bpf.o */
	uint32_t slice_ms;
	double mine[LV_PAIRS], other[LV_PAIRS]; /* received Mpps of each slice */
	double ratio[LV_PAIRS];                 /* this build / the other, per pair */
	double med;
};
enum {
	XB_NOT_RUN,
	XB_OK,
	XB_SKIPPED
};

struct bench_live {
	char capture[PATH_MAX];
	char capture_end[512]; /* where the capture stopped short of its end (capture.h), or "" */
	char unavailable[256]; /* why the kernel cannot run the bench (lv_live_probe), or "" */
	uint32_t duration, batch, mtu;
	size_t nframes_capture, nframes;
	size_t skipped_short, skipped_long, skipped_refused, skipped_many;
	uint64_t frame_bytes;            /* of the frames sent, one each */
	int sender_cpu, main_cpu, ncpus; /* main_cpu -1: not pinned (one CPU) */
	char ns_rx[64], ns_tx[64];
	/* What the native classifier says of the frames, per rule set. */
	uint32_t exp_drop[2], exp_pass[2]; /* [0] 1 rule, [1] 10,000 */
	uint32_t exp_catch_all[2];         /* decided by the catch-all */
	struct lv_run run[LV_NCONF];
	struct lv_pairs pairs[LV_NPAIRS];
	struct lv_versus versus;
	struct lv_push push;
	/* Single-rule transactions under the same traffic, after the push. */
	struct rb_single single;
	double single_mpps; /* received meanwhile */
	int xb;
	char xb_msg[256];
	char *xb_out; /* xdp-bench's own output, where it ran */
};

/* One frame the generator sends. */
struct lv_frame {
	const uint8_t *data;
	uint32_t len;
};

/* The generator thread. */
enum {
	TX_IDLE,
	TX_RUN,
	TX_QUIT
};

struct lv_sender {
	pthread_t th;
	bool started;
	int prog_fd;
	int ns;      /* the tx namespace: ingress_ifindex is looked up there */
	int ifindex; /* dynpf-tx */
	int cpu;
	const struct lv_frame *frames; /* frames[0] starts the test run */
	int state;                     /* TX_*, __atomic, set by the main thread */
	int active;                    /* __atomic: 1 while the thread may be in a test run */
	int err;                       /* __atomic: the first failure, -errno */
	struct sigaction old_usr1;
};

/* The whole run's state: torn down by lv_teardown() whatever happened. */
struct lv_ctx {
	const struct bench_live_cfg *cfg;
	struct bench_live *res;
	struct dynpf_testbed tb;
	bool have_tb;
	struct bench_bpf *ref;
	struct dynpf_progs pr;
	struct dynpf_ctrl c;
	bool ctrl_open;
	struct dynpf_quiet quiet; /* drops dynpf-tx's own traffic (attach.h) */
	struct dynpf_rx rx;       /* the receiver of the configuration running */
	struct dynpf_capture cap;
	struct lv_frame *frames;
	struct dynpf_pkt *parsed; /* the frames, parsed natively */
	struct lv_sender tx;
	int ncpus; /* possible CPUs: per-CPU map values */
	uint64_t *percpu;
	struct dynpf_rule_stats *rstats;
	uint32_t rules;       /* rules loaded now */
	cpu_set_t saved_cpus; /* the main thread's, before it was pinned */
	bool pinned;
	uint32_t gen;              /* the generation of the last commit */
	struct bpf_object *versus; /* --versus's object, its dynpf_xdp's fd */
	int versus_fd;
	bool on_versus; /* rx_attach() attaches it for dynpf_xdp */
};

/*
 * Traffic on the receiver of conf, from start (the generator's sent count
 * and the counters then) for the configured seconds, a line a second.
 */
struct lv_window {
	double t0, tick;
	uint64_t sent0, sent_tick;
	uint64_t act0[DYNPF_STATS_ACTS], act_tick[DYNPF_STATS_ACTS];
};

/* A signal came: -EINTR (the caller unwinds and lv_teardown() re-raises it), else 0. */
int lv_signalled(void);

/* live_frames.c */
void lv_capture_path(const char *given, char *out, size_t len);
int lv_frames_load(struct lv_ctx *x, const char *path);
int lv_live_probe(struct lv_ctx *x);
int lv_frames_check(struct lv_ctx *x);
int lv_frames_fill(struct lv_ctx *x);

/* live_gen.c */
int lv_sender_start(struct lv_ctx *x);
void lv_sender_set(struct lv_sender *s, int state);
void lv_sender_stop(struct lv_sender *s);
int lv_sender_error(struct lv_sender *s);
uint64_t lv_sent_now(const struct lv_ctx *x);

/* live_rx.c: the attach code, then the counters. */
int rx_gro_on(struct lv_ctx *x);
void rx_detach(struct lv_ctx *x);
int rx_attach(struct lv_ctx *x, int conf);
int lv_rx_read(struct lv_ctx *x, int conf, uint64_t act[DYNPF_STATS_ACTS]);
int lv_rule_count(struct lv_ctx *x, uint32_t id, uint64_t *out);
uint64_t lv_sum_acts(const uint64_t *a);

/* live_measure.c */
int lv_window_tick(struct lv_ctx *x, int conf, struct lv_window *w, const char *what,
		   struct lv_series *s, const char *extra);
int lv_run_conf(struct lv_ctx *x, int conf);
int lv_run_pairs(struct lv_ctx *x, int pair);
int lv_run_versus(struct lv_ctx *x);

/* live_rules.c */
void lv_rule(uint32_t id, struct dynpf_rule *r);
void lv_match_all(uint32_t id, struct dynpf_rule *r);
uint32_t lv_churn_id(uint32_t batch, uint32_t i);

/* Ops of one transaction: add (rule) or delete (id). */
struct lv_op {
	bool del;
	uint32_t id;
	bool match_all; /* add: a marker or the sentinel, else a generated rule */
};

int lv_txn(struct lv_ctx *x, const struct lv_op *ops, size_t n, const char *what);
int lv_load_set(struct lv_ctx *x, uint32_t n);
int lv_expect(struct lv_ctx *x);

/* live_push.c: the push, then single-rule transactions (rules_single.c), traffic on */
int lv_push(struct lv_ctx *x, struct lv_window *w);
int lv_single(struct lv_ctx *x);

/* live_xdpbench.c */
void lv_run_xdp_bench(struct lv_ctx *x);

#endif
