// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: received packets per second on a veth pair.
 *
 * The test bed is replay --testbed's (testbed.h): namespaces
 * dynpf-tb-PID-rx and dynpf-tb-PID-tx, the veth pair dynpf-rx / dynpf-tx
 * between them, addresses from 198.18.0.0/15 and 2001:db8::/32, MTU 1500.
 * It is removed at the end, on failure, and on SIGINT, SIGTERM, SIGHUP or
 * SIGPIPE (a second signal removes the namespaces from the handler).
 *
 * The generator. bench_live_tx (loader/bench/bench.bpf.c) returns XDP_TX; run with
 * BPF_PROG_TEST_RUN and BPF_F_TEST_XDP_LIVE_FRAMES, with dynpf-tx as the
 * ctx's ingress_ifindex, every repetition is a real frame the kernel
 * redirects out of dynpf-tx (ndo_xdp_xmit): veth puts it on dynpf-rx's ring
 * and dynpf-rx's NAPI runs the receiver on it, as on a NIC's queue. The
 * mechanism of xdp-trafficgen. A test run carries one frame, and one whose
 * frames reached the peer took 16 to 28 ms here however few it sent (2,048
 * frames of 170 ns), against 13 us with the links down: it waits at its
 * end, about one or two RCU grace periods here. So the program makes each
 * repetition the capture's next frame (bench_live_frames), and
 * one test run sends the whole capture in turn, in batches of LV_BATCH,
 * until SIGUSR1 interrupts it. The generator is one thread, pinned to one
 * CPU. The receiver's NAPI poll runs in the softirq each batch raises, on
 * the same CPU: a frame costs the generator's work plus the receiver's, and
 * the veth ring never overflows. (Threaded NAPI on the other CPU was tried:
 * woken per batch, it lost most frames at the 256-frame ring.) The main
 * thread (counters, control plane) is pinned to another CPU.
 *
 * The receivers, one configuration at a time on dynpf-rx: an empty program
 * that counts and drops (bench_live_drop, the baseline), dynpf_xdp in
 * native XDP mode and dynpf_tc_ingress as a tcx link, with 1 rule and with
 * 10,000 generated rules (bench_rules.c's, loaded through the control
 * channel; the last is the catch-all, made a drop here, so the traffic is
 * dropped and never reaches the stack). dynpf-rx has GRO on: veth accepts
 * redirected frames only on a NAPI-enabled queue, which XDP gives and, for
 * TC, GRO does (frames go up as skbs through GRO, then TC ingress). The
 * received rate comes from the receiver's counters: dynpf's per-CPU
 * dynpf_stats (packets per terminal action), the baseline's bench_live_rx.
 *
 * Control plane under traffic. While the 10,000-rule XDP run goes on, past
 * its measured seconds, 100,000 rule updates are pushed through dynpf_ctrl
 * (loader/channel/ring.h): LV_PUSH_TXNS transactions of LV_PUSH_TXN updates each,
 * flushed one by one. Each transaction deletes the marker rule first (a
 * drop matching every packet, priority just after the generated rules),
 * then deletes the previous transaction's churn rules, adds new ones
 * (generated rules, matching no packet), and adds the other marker last. A
 * sentinel rule (a drop matching every packet, right after the markers)
 * decides a packet only when no marker is there: a packet classified by a
 * rule set that has the transaction's first op but not its last. The commit
 * applies the ops in message order to the side packets do not read, then
 * flips; the side left is brought up to date after an RCU grace period. A
 * packet reading a side part-way through either is counted by the
 * sentinel: its counter must stay 0 (and the catch-all's too).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/bench_live.h"
#include "bench/bench_rules.h"
#include "pcap/capture.h"
#include "channel/ring.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"
#include "match.h"
#include "native.h"
#include "lib/progs.h"
#include "attach/clsact.h"
#include "testbed/testbed.h"
#include "lib/util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define LV_MTU 1500
#define LV_REPEAT (1u << 30) /* frames per test run: until interrupted */
#define LV_FRAME_MAX 1520    /* loader/bench/bench.bpf.c BENCH_LIVE_FRAME_MAX */
#define LV_MAX_FRAMES 65536  /* frames of a capture sent, at most */
#define LV_BATCH 64	     /* frames per batch of a test run (NAPI_POLL_WEIGHT) */
#define LV_DRAIN_MS 100	     /* after the generator stops: frames still on the ring */

#define LV_RULES_BIG 10000
#define LV_PUSH_UPDATES 100000
#define LV_PUSH_TXN 1000 /* updates per transaction: 2 markers, churn deleted, added */
#define LV_PUSH_TXNS (LV_PUSH_UPDATES / LV_PUSH_TXN)
#define LV_CHURN ((LV_PUSH_TXN - 2) / 2)
_Static_assert(LV_PUSH_TXNS * LV_PUSH_TXN == LV_PUSH_UPDATES, "whole transactions");
_Static_assert(2 + 2 * LV_CHURN == LV_PUSH_TXN, "an even transaction");

#define LV_CONTROL_MS 50 /* the control: how long the marker stays deleted */

/* Rule ids of the push: two churn ranges, the markers, the sentinel. */
#define LV_CHURN_BASE 20000
#define LV_MARKER0 (BENCH_RULES_CATCHALL_ID - 11)
#define LV_MARKER1 (BENCH_RULES_CATCHALL_ID - 10)
#define LV_SENTINEL (BENCH_RULES_CATCHALL_ID - 9)
_Static_assert(LV_CHURN_BASE + 2 * LV_CHURN < LV_MARKER0, "churn ids below the markers");
_Static_assert(LV_RULES_BIG < LV_CHURN_BASE, "churn ids above the set's");

enum { LV_EMPTY, LV_XDP1, LV_XDP_BIG, LV_TC1, LV_TC_BIG, LV_NCONF };

static const struct lv_conf {
	const char *label; /* in the table */
	const char *key;   /* in JSON */
	const char *tag;   /* on the lines a second */
	int hook;	   /* DYNPF_HOOK_*, 0: the empty program */
	uint32_t rules;
} lv_confs[LV_NCONF] = {
	[LV_EMPTY] = { "empty XDP_DROP", "empty_xdp_drop", "empty", 0, 0 },
	[LV_XDP1] = { "dynpf XDP, 1 rule", "dynpf_xdp_1_rule", "xdp 1", DYNPF_HOOK_XDP, 1 },
	[LV_XDP_BIG] = { "dynpf XDP, 10,000 rules", "dynpf_xdp_10000_rules", "xdp 10000",
			 DYNPF_HOOK_XDP, LV_RULES_BIG },
	[LV_TC1] = { "dynpf TC, 1 rule", "dynpf_tc_1_rule", "tc 1", DYNPF_HOOK_TC_INGRESS, 1 },
	[LV_TC_BIG] = { "dynpf TC, 10,000 rules", "dynpf_tc_10000_rules", "tc 10000",
			DYNPF_HOOK_TC_INGRESS, LV_RULES_BIG },
};

/* The order they run in: the rule set grows once, from 1 to 10,000 rules. */
static const int lv_order[LV_NCONF] = { LV_EMPTY, LV_XDP1, LV_TC1, LV_XDP_BIG, LV_TC_BIG };

static const char *const act_names[DYNPF_STATS_ACTS] = { "none", "pass", "drop", "redirect" };

/* A growing list of doubles: Mpps per second. */
struct lv_series {
	double *v;
	size_t n, cap;
};

struct lv_run {
	bool done;
	double secs;			/* of sending */
	uint64_t sent;			/* frames the generator ran */
	uint64_t act[DYNPF_STATS_ACTS]; /* received, per terminal action */
	uint64_t rx;			/* received */
	struct lv_series per_s;		/* received Mpps, each second */
};

struct lv_push {
	bool done;
	uint32_t txns, updates;
	double secs; /* the counted transactions, begin to the last flush */
	uint64_t sent, rx, act[DYNPF_STATS_ACTS];
	double rx_secs;	    /* the receive counters' interval */
	uint64_t sentinel;  /* packets a half-applied rule set classified */
	uint64_t catch_all; /* packets that reached the catch-all meanwhile */
	uint32_t gen_first, gen_last;
	uint32_t frames_checked; /* frames a marker decides (the others never reach it) */
	/* The control: the marker deleted in one transaction, added back in the next. */
	uint64_t control; /* packets the sentinel counted meanwhile: must not be 0 */
	double control_ms;
	struct lv_series per_s;
};

enum { XB_NOT_RUN, XB_OK, XB_SKIPPED };

struct bench_live {
	char capture[PATH_MAX];
	uint32_t duration, batch, mtu;
	size_t nframes_capture, nframes;
	size_t skipped_short, skipped_long, skipped_refused, skipped_many;
	uint64_t frame_bytes;		 /* of the frames sent, one each */
	int sender_cpu, main_cpu, ncpus; /* main_cpu -1: not pinned (one CPU) */
	char ns_rx[64], ns_tx[64];
	/* What the native classifier says of the frames, per rule set. */
	uint32_t exp_drop[2], exp_pass[2]; /* [0] 1 rule, [1] 10,000 */
	uint32_t exp_catch_all[2];	   /* decided by the catch-all */
	struct lv_run run[LV_NCONF];
	struct lv_push push;
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
enum { TX_IDLE, TX_RUN, TX_QUIT };

struct lv_sender {
	pthread_t th;
	bool started;
	int prog_fd;
	int ns;	     /* the tx namespace: ingress_ifindex is looked up there */
	int ifindex; /* dynpf-tx */
	int cpu;
	const struct lv_frame *frames; /* frames[0] starts the test run */
	int state;		       /* TX_*, __atomic, set by the main thread */
	int active;		       /* __atomic: 1 while the thread may be in a test run */
	int err;		       /* __atomic: the first failure, -errno */
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
	int quiet_prog, quiet_link;
	int rx_link; /* the receiver's XDP or tcx link, -1 if none */
	struct dynpf_capture cap;
	struct lv_frame *frames;
	struct dynpf_pkt *parsed; /* the frames, parsed natively */
	struct lv_sender tx;
	int ncpus; /* possible CPUs: per-CPU map values */
	uint64_t *percpu;
	struct dynpf_rule_stats *rstats;
	uint32_t rules;	      /* rules loaded now */
	cpu_set_t saved_cpus; /* the main thread's, before it was pinned */
	bool pinned;
	uint32_t gen; /* the generation of the last commit */
};


static int series_add(struct lv_series *s, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		double *n = realloc(s->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->v = n;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

/* A signal came: say so; the caller unwinds and lv_teardown() re-raises it. */
static int lv_signalled(void)
{
	return dynpf_tb_signalled() ? -EINTR : 0;
}

/* Sleep until the absolute CLOCK_MONOTONIC time t (seconds); early on a signal. */
static void sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t, .tv_nsec = (long)((t - (time_t)t) * 1e9) };

	while (!dynpf_tb_signalled() && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* ---- the generator ------------------------------------------------------------ */

static void on_usr1(int sig)
{
	(void)sig; /* only interrupts the generator's test run */
}

static void *sender_main(void *arg)
{
	struct lv_sender *s = arg;
	struct xdp_md ctx = { .data_end = s->frames[0].len, .ingress_ifindex = s->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = s->frames[0].data,
		    .data_size_in = s->frames[0].len, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .repeat = LV_REPEAT, .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = LV_BATCH);
	sigset_t set;
	cpu_set_t cpus;

	sigfillset(&set);
	sigdelset(&set, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &set, NULL);
	CPU_ZERO(&cpus);
	CPU_SET(s->cpu, &cpus);
	if (pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus) ||
	    setns(s->ns, CLONE_NEWNET)) {
		__atomic_store_n(&s->err, -errno, __ATOMIC_SEQ_CST);
		__atomic_store_n(&s->active, 0, __ATOMIC_SEQ_CST);
		return NULL;
	}
	for (;;) {
		int st;

		/* active before state: the main thread stores state, then waits
		 * for active 0, so it never misses a run begun after its store. */
		__atomic_store_n(&s->active, 1, __ATOMIC_SEQ_CST);
		st = __atomic_load_n(&s->state, __ATOMIC_SEQ_CST);
		if (st != TX_RUN) {
			__atomic_store_n(&s->active, 0, __ATOMIC_SEQ_CST);
			if (st == TX_QUIT)
				return NULL;
			usleep(200);
			continue;
		}
		/* Until SIGUSR1 interrupts it (EINTR), or LV_REPEAT frames. */
		if (bpf_prog_test_run_opts(s->prog_fd, &o) && errno != EINTR) {
			__atomic_store_n(&s->err, -errno, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->state, TX_IDLE, __ATOMIC_SEQ_CST);
		}
	}
}

static int sender_start(struct lv_ctx *x)
{
	struct sigaction sa = { .sa_handler = on_usr1 }; /* no SA_RESTART */
	struct lv_sender *s = &x->tx;
	sigset_t all, old;
	int err;

	s->prog_fd = bpf_program__fd(x->ref->progs.bench_live_tx);
	s->ns = x->tb.tx_ns;
	s->ifindex = x->tb.tx_ifindex;
	s->frames = x->frames;
	s->state = TX_IDLE;
	s->active = 1; /* until the thread says where it is */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &s->old_usr1);
	/* The signals go to the main thread, which tears down. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&s->th, NULL, sender_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		sigaction(SIGUSR1, &s->old_usr1, NULL);
		p_err("bench --live: cannot start the generator thread: %s", strerror(err));
		return -err;
	}
	s->started = true;
	return 0;
}

/* Run, or stop: the test run under way is interrupted with SIGUSR1. */
static void sender_set(struct lv_sender *s, int state)
{
	__atomic_store_n(&s->state, state, __ATOMIC_SEQ_CST);
	if (state == TX_RUN || !s->started)
		return;
	/* Again until it is out: a signal just before the test run begins is lost. */
	while (__atomic_load_n(&s->active, __ATOMIC_SEQ_CST)) {
		pthread_kill(s->th, SIGUSR1);
		usleep(1000);
	}
}

static void sender_stop(struct lv_sender *s)
{
	if (!s->started)
		return;
	sender_set(s, TX_QUIT);
	pthread_join(s->th, NULL);
	sigaction(SIGUSR1, &s->old_usr1, NULL);
	s->started = false;
}

static int sender_error(struct lv_sender *s)
{
	int err = __atomic_load_n(&s->err, __ATOMIC_SEQ_CST);

	if (err)
		p_err("bench --live: the generator's test run failed: %s", strerror(-err));
	return err;
}

/* Frames the generator sent so far (its own counter). */
static uint64_t sent_now(const struct lv_ctx *x)
{
	return __atomic_load_n(&x->ref->bss->bench_live_sent, __ATOMIC_RELAXED);
}

/* ---- the test bed ------------------------------------------------------------- */

/*
 * A tcx link of prog_fd on ifindex, in namespace ns; on a kernel without
 * tcx, dynpf's clsact filter (removed with the namespace). The link fd, 0
 * for clsact, or -errno.
 */
static int tc_link(int ns, int prog_fd, int ifindex, bool ingress)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	bool replaced, created;
	int saved, fd, err;

	err = dynpf_netns_enter(ns, &saved);
	if (err)
		return err;
	fd = bpf_link_create(prog_fd, ifindex, ingress ? BPF_TCX_INGRESS : BPF_TCX_EGRESS, &lo);
	if (fd < 0) {
		err = -errno;
		if (err == -EINVAL || err == -EOPNOTSUPP || err == -524 /* ENOTSUPP */) {
			pr_info("bench --live: no tcx links (%s): clsact\n", strerror(-err));
			err = dynpf_clsact_attach(ifindex, ingress, prog_fd, &replaced, &created);
			fd = 0;
		}
	}
	dynpf_netns_leave(&saved);
	return err ?: fd;
}

/*
 * dynpf-tx's own traffic (router solicitations, MLD reports) would reach
 * the receiver: a two-instruction TC_ACT_SHOT on its egress drops it. The
 * generator's frames do not pass there (ndo_xdp_xmit).
 */
static int quiet_tx(struct lv_ctx *x)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = TC_ACT_SHOT },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int err;

	x->quiet_prog = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "dynpf_quiet", "GPL", insns,
				      ARRAY_SIZE(insns), NULL);
	if (x->quiet_prog < 0) {
		err = -errno;
		p_err("bench --live: cannot load the program that quiets %s: %s", DYNPF_TB_TX_IF,
		      strerror(-err));
		return err;
	}
	err = tc_link(x->tb.tx_ns, x->quiet_prog, x->tb.tx_ifindex, false);
	if (err < 0) {
		p_err("bench --live: cannot attach the program that quiets %s: %s",
		      DYNPF_TB_TX_IF, strerror(-err));
		return err;
	}
	x->quiet_link = err ?: -1;
	return 0;
}

/*
 * GRO on dynpf-rx (the legacy ETHTOOL_SGRO): a veth queue takes redirected
 * frames only with NAPI on, which an XDP program turns on, and for the TC
 * runs GRO does.
 */
static int rx_gro_on(struct lv_ctx *x)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_SGRO, .data = 1 };
	struct ifreq ifr = { 0 };
	int saved, fd, err;

	err = dynpf_netns_enter(x->tb.rx_ns, &saved);
	if (err)
		return err;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = fd < 0 ? -errno : 0;
	if (!err) {
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", DYNPF_TB_RX_IF);
		ifr.ifr_data = (void *)&ev;
		if (ioctl(fd, SIOCETHTOOL, &ifr))
			err = -errno;
		close(fd);
	}
	dynpf_netns_leave(&saved);
	if (err)
		p_err("bench --live: cannot turn GRO on on %s: %s", DYNPF_TB_RX_IF, strerror(-err));
	return err;
}

/* ---- the receivers ------------------------------------------------------------ */

static void rx_detach(struct lv_ctx *x)
{
	int saved;

	if (x->rx_link > 0)
		close(x->rx_link);
	if (x->rx_link == 0 && !dynpf_netns_enter(x->tb.rx_ns, &saved)) {
		dynpf_clsact_detach(x->tb.rx_ifindex, true); /* clsact: no tcx */
		dynpf_netns_leave(&saved);
	}
	x->rx_link = -1;
}

/* A link is detached when its fd closes: nothing stays if dynpf dies. */
static int rx_attach(struct lv_ctx *x, int conf)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	const struct lv_conf *c = &lv_confs[conf];
	int fd, prog, saved, err;

	if (c->hook == DYNPF_HOOK_TC_INGRESS) {
		fd = tc_link(x->tb.rx_ns, bpf_program__fd(x->pr.skel->progs.dynpf_tc_ingress),
			     x->tb.rx_ifindex, true);
		if (fd < 0) {
			p_err("bench --live: cannot attach dynpf_tc_ingress to %s: %s",
			      DYNPF_TB_RX_IF, strerror(-fd));
			return fd;
		}
		x->rx_link = fd;
		return 0;
	}
	prog = c->hook ? bpf_program__fd(x->pr.skel->progs.dynpf_xdp)
		       : bpf_program__fd(x->ref->progs.bench_live_drop);

	err = dynpf_netns_enter(x->tb.rx_ns, &saved);
	if (err)
		return err;
	fd = bpf_link_create(prog, x->tb.rx_ifindex, BPF_XDP, &lo);
	err = fd < 0 ? -errno : 0;
	dynpf_netns_leave(&saved);
	if (err) {
		p_err("bench --live: cannot attach %s to %s in native XDP mode: %s",
		      c->hook ? "dynpf_xdp" : "bench_live_drop", DYNPF_TB_RX_IF, strerror(-err));
		return err;
	}
	x->rx_link = fd;
	return 0;
}

/* What the receiver of conf counted so far, per terminal action. */
static int rx_read(struct lv_ctx *x, int conf, uint64_t act[DYNPF_STATS_ACTS])
{
	const struct lv_conf *c = &lv_confs[conf];
	struct dynpf_stats st = { 0 };
	uint32_t zero = 0;
	int err;

	memset(act, 0, DYNPF_STATS_ACTS * sizeof(*act));
	if (c->hook) {
		err = dynpf_stats_read(bpf_map__fd(x->pr.skel->maps.dynpf_stats), 0, c->hook, &st);
		if (err) {
			p_err("bench --live: cannot read dynpf's counters: %s", strerror(-err));
			return err;
		}
		memcpy(act, st.act, sizeof(st.act));
		return 0;
	}
	if (bpf_map__lookup_elem(x->ref->maps.bench_live_rx, &zero, sizeof(zero), x->percpu,
				 x->ncpus * sizeof(*x->percpu), 0)) {
		err = -errno;
		p_err("bench --live: cannot read the baseline's counter: %s", strerror(-err));
		return err;
	}
	for (int i = 0; i < x->ncpus; i++)
		act[DYNPF_ACT_DROP] += x->percpu[i];
	return 0;
}

/* The packets rule id classified, every CPU. */
static int rule_count(struct lv_ctx *x, uint32_t id, uint64_t *out)
{
	*out = 0;
	if (bpf_map__lookup_elem(x->pr.skel->maps.dynpf_rule_stats, &id, sizeof(id), x->rstats,
				 x->ncpus * sizeof(*x->rstats), 0)) {
		int err = -errno;

		p_err("bench --live: cannot read the counters of rule %u: %s", id, strerror(-err));
		return err;
	}
	for (int i = 0; i < x->ncpus; i++)
		*out += x->rstats[i].packets;
	return 0;
}

static uint64_t sum_acts(const uint64_t *a)
{
	uint64_t n = 0;

	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		n += a[i];
	return n;
}

/* One line a second, like xdp-bench: received Mpps, then per action. */
static void print_second(const struct lv_ctx *x, const char *what, double t,
			 const uint64_t *d, double dt, uint64_t sent, const char *extra)
{
	if (!x->cfg->print_live)
		return;
	printf("%-12s %5.0f s  rx %7.3f Mpps  pass %7.3f  drop %7.3f  redirect %7.3f  sent %7.3f "
	       "Mpps%s\n",
	       what, t, sum_acts(d) / dt / 1e6, d[DYNPF_ACT_PASS] / dt / 1e6,
	       d[DYNPF_ACT_DROP] / dt / 1e6, d[DYNPF_ACT_REDIRECT] / dt / 1e6, sent / dt / 1e6,
	       extra ? extra : "");
	fflush(stdout);
}

/*
 * Traffic on the receiver of conf, from start (the generator's sent count
 * and the counters then) for the configured seconds, a line a second.
 */
struct lv_window {
	double t0, tick;
	uint64_t sent0, sent_tick;
	uint64_t act0[DYNPF_STATS_ACTS], act_tick[DYNPF_STATS_ACTS];
};

static int window_open(struct lv_ctx *x, int conf, struct lv_window *w)
{
	int err = rx_read(x, conf, w->act0);

	if (err)
		return err;
	memcpy(w->act_tick, w->act0, sizeof(w->act0));
	w->sent0 = w->sent_tick = sent_now(x);
	w->t0 = w->tick = dynpf_now();
	return 0;
}

/* A second's line: counters now against the last tick. */
static int window_tick(struct lv_ctx *x, int conf, struct lv_window *w, const char *what,
		       struct lv_series *s, const char *extra)
{
	uint64_t act[DYNPF_STATS_ACTS], d[DYNPF_STATS_ACTS], sent;
	double t;
	int err;

	err = rx_read(x, conf, act);
	if (err)
		return err;
	t = dynpf_now();
	sent = sent_now(x);
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		d[i] = act[i] - w->act_tick[i];
	print_second(x, what, t - w->t0, d, t - w->tick, sent - w->sent_tick, extra);
	err = series_add(s, sum_acts(d) / (t - w->tick) / 1e6);
	memcpy(w->act_tick, act, sizeof(act));
	w->sent_tick = sent;
	w->tick = t;
	return err;
}

static int push(struct lv_ctx *x, struct lv_window *w);

/*
 * One configuration: attach, send for the duration (a line a second), stop,
 * let the ring drain, detach. For the 10,000-rule XDP run, the rule
 * updates are pushed after the measured seconds, the traffic still on.
 */
static int run_conf(struct lv_ctx *x, int conf)
{
	const struct lv_conf *c = &lv_confs[conf];
	struct lv_run *r = &x->res->run[conf];
	uint64_t act[DYNPF_STATS_ACTS];
	struct lv_window w;
	double t_end;
	int err;

	if (x->cfg->print_live)
		printf("%s: %s on %s%s\n", c->label,
		       !c->hook			      ? "bench_live_drop, native XDP"
		       : c->hook == DYNPF_HOOK_XDP ? "dynpf_xdp, native XDP"
						   : "dynpf_tc_ingress, tcx",
		       DYNPF_TB_RX_IF, c->hook == DYNPF_HOOK_TC_INGRESS ? " ingress" : "");
	pr_info("bench --live: %s\n", c->label);
	err = rx_attach(x, conf);
	if (err)
		return err;
	err = window_open(x, conf, &w);
	if (err)
		goto out;
	sender_set(&x->tx, TX_RUN);
	t_end = w.t0 + x->cfg->duration;
	while (!dynpf_tb_signalled()) {
		double next = w.tick + 1 > t_end ? t_end : w.tick + 1;

		sleep_until(next);
		if (dynpf_tb_signalled() || (err = sender_error(&x->tx)))
			break;
		err = window_tick(x, conf, &w, c->tag, &r->per_s, NULL);
		if (err || dynpf_now() >= t_end - 1e-3)
			break;
	}
	err = err ?: lv_signalled();
	if (err)
		goto out;
	/* The figure: from the first to the last tick. */
	r->secs = w.tick - w.t0;
	r->sent = w.sent_tick - w.sent0;
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		r->act[i] = w.act_tick[i] - w.act0[i];
	r->rx = sum_acts(r->act);
	r->done = true;
	if (conf == LV_XDP_BIG) {
		err = push(x, &w);
		if (err)
			goto out;
	}
	sender_set(&x->tx, TX_IDLE);
	err = sender_error(&x->tx);
	if (err)
		goto out;
	/* Frames still queued are received (or dropped) before the next run. */
	usleep(LV_DRAIN_MS * 1000);
	err = rx_read(x, conf, act);
out:
	sender_set(&x->tx, TX_IDLE);
	rx_detach(x);
	return err;
}

/* ---- rule sets ---------------------------------------------------------------- */

/* Rule id of the live sets: the generated rule, the catch-all a drop. */
static void lv_rule(uint32_t id, struct dynpf_rule *r)
{
	bench_rules_gen(id, r);
	if (id == BENCH_RULES_CATCHALL_ID)
		r->action = DYNPF_ACT_DROP;
}

/* A drop matching every packet: the markers and the sentinel. */
static void lv_match_all(uint32_t id, struct dynpf_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->prio = id;
	r->action = DYNPF_ACT_DROP;
}

static uint32_t churn_id(uint32_t batch, uint32_t i)
{
	return LV_CHURN_BASE + (batch & 1) * LV_CHURN + i;
}


/* Ops of one transaction: add (rule) or delete (id). */
struct lv_op {
	bool del;
	uint32_t id;
	bool match_all; /* add: a marker or the sentinel, else a generated rule */
};

static int txn(struct lv_ctx *x, const struct lv_op *ops, size_t n, const char *what)
{
	struct dynpf_ack_commit a;
	struct dynpf_rule r;
	int err;

	dynpf_ctrl_take(&x->c);
	err = dynpf_ctrl_begin(&x->c, NULL);
	for (size_t i = 0; !err && i < n; i++) {
		if (ops[i].del) {
			err = dynpf_ctrl_del(&x->c, ops[i].id, NULL);
			continue;
		}
		if (ops[i].match_all)
			lv_match_all(ops[i].id, &r);
		else
			lv_rule(ops[i].id, &r);
		err = dynpf_ctrl_add(&x->c, &r, NULL);
	}
	err = err ?: bench_commit(&x->c, "bench --live", what, &a);
	if (err)
		return err;
	x->rules = a.nrules;
	x->gen = a.a.gen;
	return 0;
}

/* Grow the live set to n rules: the catch-all first, then ids rules .. n-1. */
static int load_set(struct lv_ctx *x, uint32_t n)
{
	struct lv_op *ops = calloc(n, sizeof(*ops));
	size_t k = 0;
	char what[64];
	int err;

	if (!ops)
		return -ENOMEM;
	if (!x->rules)
		ops[k++] = (struct lv_op){ .id = BENCH_RULES_CATCHALL_ID };
	for (uint32_t id = x->rules ? x->rules : 1; id < n; id++)
		ops[k++] = (struct lv_op){ .id = id };
	snprintf(what, sizeof(what), "loading %u rules", n);
	err = txn(x, ops, k, what);
	free(ops);
	if (!err && x->rules != n) {
		p_err("bench --live: after %s, the commit ack says %u rules", what, x->rules);
		err = -EPROTO;
	}
	return err;
}

/* ---- the control plane under traffic ---------------------------------------------- */

/*
 * Transaction k of the push (k >= 1): the marker of k - 1 deleted first,
 * the churn of k - 1 deleted, the churn of k added, the marker of k added
 * last. k = 0 sets up (the sentinel, churn 0, marker 0); k = -1 removes
 * everything the push added.
 */
static size_t push_ops(int k, struct lv_op *ops)
{
	static const uint32_t marker[2] = { LV_MARKER0, LV_MARKER1 };
	size_t n = 0;

	if (k < 0) {
		ops[n++] = (struct lv_op){ .del = true, .id = marker[LV_PUSH_TXNS & 1] };
		for (uint32_t i = 0; i < LV_CHURN; i++)
			ops[n++] = (struct lv_op){ .del = true, .id = churn_id(LV_PUSH_TXNS, i) };
		ops[n++] = (struct lv_op){ .del = true, .id = LV_SENTINEL };
		return n;
	}
	if (k == 0) {
		ops[n++] = (struct lv_op){ .id = LV_SENTINEL, .match_all = true };
	} else {
		ops[n++] = (struct lv_op){ .del = true, .id = marker[(k - 1) & 1] };
		for (uint32_t i = 0; i < LV_CHURN; i++)
			ops[n++] = (struct lv_op){ .del = true, .id = churn_id(k - 1, i) };
	}
	for (uint32_t i = 0; i < LV_CHURN; i++)
		ops[n++] = (struct lv_op){ .id = churn_id(k, i) };
	ops[n++] = (struct lv_op){ .id = marker[k & 1], .match_all = true };
	return n;
}

/*
 * The check's control: the marker deleted in a transaction of its own and
 * added back LV_CONTROL_MS later in another. In between, every packet the
 * markers would decide is the sentinel's: it must count some, or the check
 * could not see a rule set without a marker at all.
 */
static int push_control(struct lv_ctx *x, struct lv_push *p)
{
	static const uint32_t marker = LV_PUSH_TXNS & 1 ? LV_MARKER1 : LV_MARKER0;
	struct lv_op del = { .del = true, .id = marker };
	struct lv_op add = { .id = marker, .match_all = true };
	uint64_t before = 0, after = 0;
	double t0;
	int err;

	err = rule_count(x, LV_SENTINEL, &before);
	t0 = dynpf_now();
	err = err ?: txn(x, &del, 1, "the control: deleting the marker");
	if (err)
		return err;
	usleep(LV_CONTROL_MS * 1000);
	err = txn(x, &add, 1, "the control: adding the marker back");
	p->control_ms = (dynpf_now() - t0) * 1e3;
	err = err ?: rule_count(x, LV_SENTINEL, &after);
	p->control = after - before;
	return err;
}

static int push(struct lv_ctx *x, struct lv_window *w)
{
	struct lv_push *p = &x->res->push;
	struct lv_op ops[LV_PUSH_TXN + 1];
	uint64_t act0[DYNPF_STATS_ACTS], act1[DYNPF_STATS_ACTS], sent0, sent1, ca0, ca1;
	double t0, t1, tick;
	char extra[64];
	size_t n;
	int err;

	if (x->cfg->print_live)
		printf("push: %u rule updates, in %u transactions of %u, the traffic on\n",
		       LV_PUSH_UPDATES, LV_PUSH_TXNS, LV_PUSH_TXN);
	pr_info("bench --live: pushing %u rule updates\n", LV_PUSH_UPDATES);
	n = push_ops(0, ops);
	err = txn(x, ops, n, "setting up the push");
	err = err ?: rule_count(x, BENCH_RULES_CATCHALL_ID, &ca0);
	err = err ?: rx_read(x, LV_XDP_BIG, act0);
	if (err)
		return err;
	p->gen_first = x->gen;
	sent0 = sent_now(x);
	t0 = tick = dynpf_now();
	/* The ticks go on from the measured seconds: a line each second. */
	w->tick = t0;
	memcpy(w->act_tick, act0, sizeof(act0));
	w->sent_tick = sent0;
	for (int k = 1; k <= LV_PUSH_TXNS && !dynpf_tb_signalled(); k++) {
		n = push_ops(k, ops);
		err = txn(x, ops, n, "an update transaction");
		err = err ?: sender_error(&x->tx);
		if (err)
			return err;
		p->txns = k;
		p->updates += n;
		if (dynpf_now() - tick >= 1) {
			snprintf(extra, sizeof(extra), "  %u updates", p->updates);
			err = window_tick(x, LV_XDP_BIG, w, "push", &p->per_s, extra);
			if (err)
				return err;
			tick = w->tick;
		}
	}
	t1 = dynpf_now();
	err = lv_signalled();
	err = err ?: rx_read(x, LV_XDP_BIG, act1);
	err = err ?: rule_count(x, LV_SENTINEL, &p->sentinel);
	err = err ?: rule_count(x, BENCH_RULES_CATCHALL_ID, &ca1);
	if (err)
		return err;
	sent1 = sent_now(x);
	p->gen_last = x->gen;
	err = push_control(x, p);
	if (err)
		return err;
	p->secs = t1 - t0;
	p->rx_secs = t1 - t0;
	p->sent = sent1 - sent0;
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		p->act[i] = act1[i] - act0[i];
	p->rx = sum_acts(p->act);
	p->catch_all = ca1 - ca0;
	p->done = true;
	/* Back to the 10,000 rules, for the TC run. */
	n = push_ops(-1, ops);
	return txn(x, ops, n, "removing the push's rules");
}

/* ---- what the native classifier says ----------------------------------------------- */

/* The rule of rules[0 .. n-1] deciding p (0: the default, pass), its action in *act. */
static uint32_t decide(const struct dynpf_rule *rules, size_t n, const struct dynpf_pkt *p,
		       uint8_t *act)
{
	const struct dynpf_rule *best = NULL;
	struct dynpf_cls_view v;

	dynpf_cls_view_init(&v, p);
	*act = DYNPF_ACT_PASS;
	if (dynpf_is_arp_nd(p, &v)) /* pass-arp-nd, on by default */
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct dynpf_rule *r = &rules[i];

		if (dynpf_act_terminal(r->action) &&
		    (!best || dynpf_before(r->prio, r->id, best->prio, best->id)) &&
		    dynpf_rule_match(r, p, &v))
			best = r;
	}
	if (!best)
		return 0;
	*act = best->action;
	return best->id;
}

/*
 * The frames against the live sets of 1 and 10,000 rules (the expected
 * actions), and against the push's two consistent sets: the frames a marker
 * decides in both are the ones the half-applied check covers.
 */
static int expect(struct lv_ctx *x)
{
	size_t cap = LV_RULES_BIG + LV_CHURN + 1;
	struct dynpf_rule *rules = calloc(cap, sizeof(*rules));
	struct bench_live *res = x->res;
	uint32_t sizes[2] = { 1, LV_RULES_BIG };
	uint8_t act;

	if (!rules)
		return -ENOMEM;
	for (int s = 0; s < 2; s++) {
		for (uint32_t i = 0; i < sizes[s]; i++)
			lv_rule(bench_rules_set_id(sizes[s], i), &rules[i]);
		for (size_t f = 0; f < res->nframes; f++) {
			uint32_t id = decide(rules, sizes[s], &x->parsed[f], &act);

			pr_debug("bench --live: frame %zu, %u rules: rule %u decides, action %u\n",
				 f + 1, sizes[s], id, act);
			if (act == DYNPF_ACT_DROP)
				res->exp_drop[s]++;
			else
				res->exp_pass[s]++;
			if (id == BENCH_RULES_CATCHALL_ID)
				res->exp_catch_all[s]++;
		}
	}
	/* rules[] holds the 10,000: add a marker and one churn batch. */
	for (size_t f = 0; f < res->nframes; f++) {
		bool by_marker = true;

		for (uint32_t b = 0; b < 2; b++) {
			size_t n = LV_RULES_BIG;

			for (uint32_t i = 0; i < LV_CHURN; i++)
				lv_rule(churn_id(b, i), &rules[n++]);
			lv_match_all(b ? LV_MARKER1 : LV_MARKER0, &rules[n++]);
			if (decide(rules, n, &x->parsed[f], &act) != (b ? LV_MARKER1 : LV_MARKER0))
				by_marker = false;
		}
		res->push.frames_checked += by_marker;
	}
	free(rules);
	return 0;
}

/* ---- the capture -------------------------------------------------------------------- */

static int no_frames(const struct bench_live *res)
{
	p_err("bench --live: %s: no frame to send (%zu in the capture: %zu shorter than 14 "
	      "bytes, %zu longer than the MTU of %u allows, %zu refused by the live-frames test "
	      "run)",
	      res->capture, res->nframes_capture, res->skipped_short, res->skipped_long, LV_MTU,
	      res->skipped_refused);
	return -EINVAL;
}

/*
 * The frames to send: at least an Ethernet header, at most the MTU's frame
 * (4 bytes more with a VLAN tag), and taken by a live-frames test run.
 */
static int frames_load(struct lv_ctx *x, const char *path)
{
	struct bench_live *res = x->res;
	int err;

	err = dynpf_capture_load(path, &x->cap);
	if (err)
		return err;
	res->nframes_capture = x->cap.n;
	x->frames = calloc(x->cap.n ? x->cap.n : 1, sizeof(*x->frames));
	x->parsed = calloc(x->cap.n ? x->cap.n : 1, sizeof(*x->parsed));
	if (!x->frames || !x->parsed)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap.n; i++) {
		const struct dynpf_frame *f = &x->cap.frames[i];
		uint16_t tpid = f->len >= 14 ? f->data[12] << 8 | f->data[13] : 0;
		uint32_t max = LV_MTU + 14 + (tpid == 0x8100 || tpid == 0x88a8 ? 4 : 0);

		if (f->len < 14) {
			res->skipped_short++;
			continue;
		}
		if (f->len > max) {
			res->skipped_long++;
			continue;
		}
		if (res->nframes == LV_MAX_FRAMES) {
			res->skipped_many++;
			continue;
		}
		x->frames[res->nframes].data = f->data;
		x->frames[res->nframes].len = f->len;
		dynpf_parse_native(f->data, f->len, &x->parsed[res->nframes], NULL);
		res->nframes++;
	}
	return res->nframes ? 0 : no_frames(res);
}

/*
 * Each frame once through the generator, into the void: the links are
 * down, so nothing is sent (veth refuses), but the kernel checks the
 * frame. Refused frames are dropped from the list.
 */
static int frames_check(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	int prog = bpf_program__fd(x->ref->progs.bench_live_tx), saved, err;
	size_t k = 0;

	err = dynpf_netns_enter(x->tb.tx_ns, &saved);
	if (err)
		return err;
	for (size_t i = 0; i < res->nframes; i++) {
		struct xdp_md ctx = { .data_end = x->frames[i].len,
				      .ingress_ifindex = x->tb.tx_ifindex };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = x->frames[i].data,
			    .data_size_in = x->frames[i].len, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = 1,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		if (bpf_prog_test_run_opts(prog, &o)) {
			err = -errno;
			if (err != -EINVAL)
				break;
			res->skipped_refused++;
			err = 0;
			continue;
		}
		x->frames[k] = x->frames[i];
		x->parsed[k] = x->parsed[i];
		k++;
	}
	dynpf_netns_leave(&saved);
	if (err) {
		p_err("bench --live: BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES failed: %s",
		      strerror(-err));
		return err;
	}
	res->nframes = k;
	for (size_t i = 0; i < k; i++)
		res->frame_bytes += x->frames[i].len;
	return k ? 0 : no_frames(res);
}

/* ---- xdp-bench ---------------------------------------------------------------------- */

/*
 * xdp-tools' xdp-bench drop on dynpf-rx, in the rx namespace (setns, so the
 * host's /sys/fs/bpf stays in view), while the generator sends for the
 * duration. It is stopped with SIGINT, as a user would. Where it cannot
 * attach (Debian 12's xdp-tools 1.3.1 wants the tracepoint
 * xdp_redirect_map_err, gone from recent kernels) it exits at once: said,
 * and skipped.
 */
static void run_xdp_bench(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	char *argv[] = { "xdp-bench", "drop", "-i", "1", DYNPF_TB_RX_IF, NULL };
	bool had_xdp_dir = access("/sys/fs/bpf/xdp", F_OK) == 0, stopped = false;
	size_t len = 0, cap = 4096;
	int pfd[2], status = 0, saved;
	double t_end;
	pid_t pid;

	res->xb = XB_SKIPPED;
	res->xb_out = calloc(1, cap);
	if (!res->xb_out || pipe2(pfd, O_CLOEXEC)) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot start it: %s", strerror(errno));
		return;
	}
	if (dynpf_netns_enter(x->tb.rx_ns, &saved)) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot enter %s", x->tb.ns_rx);
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec xdp-bench: %s\n", strerror(errno));
		_exit(127);
	}
	dynpf_netns_leave(&saved);
	close(pfd[1]);
	if (pid < 0) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot start it: %s", strerror(errno));
		close(pfd[0]);
		return;
	}
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	sender_set(&x->tx, TX_RUN);
	t_end = dynpf_now() + x->cfg->duration + 1; /* its first interval prints nothing */
	for (;;) {
		ssize_t r;

		if (len + 1024 > cap) {
			char *n = realloc(res->xb_out, 2 * cap);

			if (!n)
				break;
			res->xb_out = n;
			cap *= 2;
		}
		r = read(pfd[0], res->xb_out + len, cap - len - 1);
		if (r > 0) {
			len += r;
			continue;
		}
		if (r == 0)
			break; /* it exited */
		if (!stopped && (dynpf_tb_signalled() || dynpf_now() >= t_end)) {
			kill(pid, SIGINT); /* as a user would */
			stopped = true;
			t_end = dynpf_now();
		}
		if (stopped && dynpf_now() > t_end + 5)
			kill(pid, SIGKILL);
		usleep(50000);
	}
	sender_set(&x->tx, TX_IDLE);
	res->xb_out[len] = 0;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!had_xdp_dir)
		rmdir("/sys/fs/bpf/xdp"); /* libxdp's, if it made it and it is empty */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && strstr(res->xb_out, "exec")) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "not installed, skipped");
		return;
	}
	if (!stopped) {
		/* It ended on its own: its first error line says why. */
		const char *why = strstr(res->xb_out, "failed to find kernel BTF type ID");
		char line[160];

		if (!why)
			why = res->xb_out;
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(why, "\n"), why);
		snprintf(res->xb_msg, sizeof(res->xb_msg),
			 "does not work on this kernel (exit %d: %s), skipped",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), line);
		return;
	}
	res->xb = XB_OK;
	snprintf(res->xb_msg, sizeof(res->xb_msg), "ran for %u s on %s", x->cfg->duration,
		 DYNPF_TB_RX_IF);
}

/* ---- set up, run, tear down ------------------------------------------------------------- */

/*
 * The generator's CPU: the first this process may use; the main thread
 * (counters, control plane) goes to the next one, if there is one, and
 * *saved keeps its mask for lv_teardown().
 */
static int pick_cpus(int *main_cpu, cpu_set_t *saved)
{
	int first = -1;
	cpu_set_t one;

	*main_cpu = -1;
	if (sched_getaffinity(0, sizeof(*saved), saved))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, saved))
			continue;
		if (first < 0) {
			first = c;
			continue;
		}
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			*main_cpu = c;
		break;
	}
	return first < 0 ? 0 : first;
}

static void lv_teardown(struct lv_ctx *x)
{
	sender_stop(&x->tx);
	rx_detach(x);
	if (x->quiet_link > 0)
		close(x->quiet_link);
	x->quiet_link = -1;
	if (x->quiet_prog >= 0)
		close(x->quiet_prog);
	x->quiet_prog = -1;
	if (x->ctrl_open)
		dynpf_ctrl_close(&x->c);
	x->ctrl_open = false;
	dynpf_progs_close(&x->pr);
	bench_bpf__destroy(x->ref);
	x->ref = NULL;
	if (x->have_tb)
		dynpf_testbed_destroy(&x->tb);
	x->have_tb = false;
		dynpf_capture_free(&x->cap);
	free(x->frames);
	free(x->parsed);
	free(x->percpu);
	free(x->rstats);
	x->frames = NULL;
	x->parsed = NULL;
	x->percpu = NULL;
	x->rstats = NULL;
	if (x->pinned)
		sched_setaffinity(0, sizeof(x->saved_cpus), &x->saved_cpus);
	x->pinned = false;
	dynpf_tb_signals_restore();
	if (dynpf_tb_signalled()) {
		int sig = dynpf_tb_signalled();

		p_err("%s: the test bed is removed", strsignal(sig));
		signal(sig, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
}

/* The generator's frames: value i of bench_live_frames is frame i. */
struct lv_frame_val {
	uint32_t len;
	uint8_t data[LV_FRAME_MAX];
};

static int frames_fill(struct lv_ctx *x)
{
	const struct bpf_map *m = x->ref->maps.bench_live_frames;
	struct lv_frame_val v;

	if (bpf_map__value_size(m) != sizeof(v)) {
		p_err("bench --live: bench_live_frames has values of %u bytes, not %zu",
		      bpf_map__value_size(m), sizeof(v));
		return -EPROTO;
	}
	for (uint32_t i = 0; i < x->res->nframes; i++) {
		memset(&v, 0, sizeof(v));
		v.len = x->frames[i].len;
		memcpy(v.data, x->frames[i].data, v.len);
		if (bpf_map__update_elem(m, &i, sizeof(i), &v, sizeof(v), BPF_ANY)) {
			int err = -errno;

			p_err("bench --live: cannot write frame %u into bench_live_frames: %s", i,
			      strerror(-err));
			return err;
		}
	}
	x->ref->bss->bench_live_next = 0;
	x->ref->bss->bench_live_nframes = x->res->nframes;
	return 0;
}

/* The bench's programs: the generator and the baseline only. */
static int load_ref(struct lv_ctx *x)
{
	struct bpf_program *p;
	int err;

	x->ref = bench_bpf__open();
	if (!x->ref) {
		err = -errno;
		p_err("bench --live: cannot open the bench's BPF object: %s", strerror(-err));
		return err;
	}
	err = bpf_map__set_max_entries(x->ref->maps.bench_live_frames, x->res->nframes);
	if (err) {
		p_err("bench --live: cannot size bench_live_frames: %s", strerror(-err));
		return err;
	}
	bpf_object__for_each_program(p, x->ref->obj)
		bpf_program__set_autoload(p, p == x->ref->progs.bench_live_tx ||
						     p == x->ref->progs.bench_live_drop);
	err = bench_bpf__load(x->ref);
	if (err) {
		p_err("bench --live: cannot load the bench's BPF programs (%s): run with -vv to "
		      "see the verifier log",
		      strerror(-err));
		return err;
	}
	return 0;
}

/* A default capture found next to the binary too (build/dynpf, ../pcap-tests/). */
static void capture_path(const char *given, char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	snprintf(out, len, "%s", given ? given : BENCH_LIVE_CAPTURE_DEFAULT);
	if (given || access(out, R_OK) == 0)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	if ((size_t)snprintf(out, len, "%s/../%s", exe, BENCH_LIVE_CAPTURE_DEFAULT) >= len ||
	    access(out, R_OK))
		snprintf(out, len, "%s", BENCH_LIVE_CAPTURE_DEFAULT);
}

static int lv_setup(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	int err;

	capture_path(x->cfg->capture, res->capture, sizeof(res->capture));
	err = frames_load(x, res->capture);
	if (err)
		return err;
	err = expect(x);
	if (err)
		return err;
	x->ncpus = libbpf_num_possible_cpus();
	if (x->ncpus <= 0) {
		p_err("bench --live: cannot count the possible CPUs");
		return -EINVAL;
	}
	x->percpu = calloc(x->ncpus, sizeof(*x->percpu));
	x->rstats = calloc(x->ncpus, sizeof(*x->rstats));
	if (!x->percpu || !x->rstats)
		return -ENOMEM;
	err = lv_signalled();
	err = err ?: load_ref(x);
	/* dynpf as shipped, trace off, rule tables for every id (the catch-all's is the last). */
	err = err ?: dynpf_progs_open_hooks(&x->pr, false, NULL, DYNPF_MAX_RULES,
					    1u << DYNPF_HOOK_XDP | 1u << DYNPF_HOOK_TC_INGRESS);
	if (err)
		return err;
	err = dynpf_ctrl_open(&x->c, x->pr.skel);
	if (err)
		return err;
	x->ctrl_open = true;
	err = lv_signalled();
	if (err)
		return err;
	dynpf_testbed_remove_stale();
	err = dynpf_testbed_create(&x->tb, LV_MTU);
	if (err)
		return err;
	x->have_tb = true;
	dynpf_tb_signals_guard(&x->tb);
	snprintf(res->ns_rx, sizeof(res->ns_rx), "%s", strrchr(x->tb.ns_rx, '/') + 1);
	snprintf(res->ns_tx, sizeof(res->ns_tx), "%s", strrchr(x->tb.ns_tx, '/') + 1);
	err = frames_check(x);
	err = err ?: frames_fill(x);
	err = err ?: quiet_tx(x);
	err = err ?: dynpf_testbed_up(&x->tb);
	err = err ?: rx_gro_on(x);
	err = err ?: lv_signalled();
	if (err)
		return err;
	x->tx.cpu = res->sender_cpu = pick_cpus(&res->main_cpu, &x->saved_cpus);
	x->pinned = res->main_cpu >= 0;
	err = sender_start(x);
	if (!err && x->cfg->print_live)
		printf("dynpf bench --live: %s, %zu frames in turn, %u s a configuration; netns "
		       "%s, %s\n",
		       res->capture, res->nframes, x->cfg->duration, res->ns_tx, res->ns_rx);
	return err;
}

int bench_live_run(const struct bench_live_cfg *cfg, struct bench_live **out)
{
	struct lv_ctx x = { .cfg = cfg, .quiet_prog = -1, .quiet_link = -1, .rx_link = -1 };
	struct bench_live *res;
	int err;

	res = calloc(1, sizeof(*res));
	if (!res) {
		p_err("bench: out of memory");
		return -ENOMEM;
	}
	x.res = res;
	res->duration = cfg->duration;
	res->batch = LV_BATCH;
	res->mtu = LV_MTU;
	res->main_cpu = -1;
	res->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	dynpf_tb_signals_catch();
	err = lv_setup(&x);
	for (int i = 0; !err && i < LV_NCONF; i++) {
		int conf = lv_order[i];

		if (lv_confs[conf].rules && x.rules < lv_confs[conf].rules)
			err = load_set(&x, lv_confs[conf].rules);
		err = err ?: run_conf(&x, conf);
	}
	if (!err && cfg->xdp_bench)
		run_xdp_bench(&x);
	err = err ?: lv_signalled();
	lv_teardown(&x); /* dies of a signal that came */
	if (err) {
		if (err == -ENOMEM)
			p_err("bench: out of memory");
		bench_live_free(res);
		return err;
	}
	*out = res;
	return 0;
}

void bench_live_free(struct bench_live *r)
{
	if (!r)
		return;
	for (int i = 0; i < LV_NCONF; i++)
		free(r->run[i].per_s.v);
	free(r->push.per_s.v);
	free(r->xb_out);
	free(r);
}

/* ---- output ------------------------------------------------------------------------------ */

static double mpps(uint64_t n, double secs)
{
	return secs > 0 ? n / secs / 1e6 : 0;
}

/* ns a frame costs above the empty program: the receiver's extra work. */
static double ns_over(double m, double empty)
{
	return m > 0 && empty > 0 ? 1e3 / m - 1e3 / empty : 0;
}

void bench_live_print_text(const struct bench_live *r)
{
	double empty = mpps(r->run[LV_EMPTY].rx, r->run[LV_EMPTY].secs);
	const struct lv_push *p = &r->push;
	double steady = mpps(r->run[LV_XDP_BIG].rx, r->run[LV_XDP_BIG].secs);
	printf("\nlive: %s, %zu of its %zu frames (%llu bytes),\n"
	       "veth %s -> %s, MTU %u, %u s a configuration\n",
	       r->capture, r->nframes, r->nframes_capture, (unsigned long long)r->frame_bytes,
	       DYNPF_TB_TX_IF, DYNPF_TB_RX_IF, r->mtu, r->duration);
	printf("%-23s %6s %7s %9s %6s %6s %8s %6s\n", "configuration", "Mpps", "x empty",
	       "+ns/frame", "pass", "drop", "redirect", "sent");
	for (int c = 0; c < LV_NCONF; c++) {
		const struct lv_run *run = &r->run[c];
		double m = mpps(run->rx, run->secs);

		printf("%-23s %6.3f %6.2fx", lv_confs[c].label, m, empty > 0 ? m / empty : 0);
		if (c == LV_EMPTY)
			printf(" %9s", "-");
		else
			printf(" %9.0f", ns_over(m, empty));
		printf(" %6.3f %6.3f %8.3f %6.3f\n", mpps(run->act[DYNPF_ACT_PASS], run->secs),
		       mpps(run->act[DYNPF_ACT_DROP], run->secs),
		       mpps(run->act[DYNPF_ACT_REDIRECT], run->secs), mpps(run->sent, run->secs));
	}
	printf("\nMpps: frames the receiver counted a second, over the seconds the generator\n"
	       "sent (pass, drop, redirect: dynpf's per-action counters in dynpf_stats; the\n"
	       "empty program counts its own). x empty: Mpps / the empty program's Mpps.\n"
	       "+ns/frame: 1/Mpps - 1/(empty Mpps), what a frame costs above the empty\n"
	       "program. sent: Mpps the generator made; a frame the receiver had no room\n"
	       "for would be dropped at its veth ring.\n");
	printf("Generator: BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES of\n"
	       "bench_live_tx (XDP_TX) on %s, each frame the capture's next one, in\n"
	       "batches of %u, one test run until stopped; one thread pinned to CPU %d.\n",
	       DYNPF_TB_TX_IF, r->batch, r->sender_cpu);
	if (r->main_cpu >= 0)
		printf("The counters and the control plane run on CPU %d.\n", r->main_cpu);
	printf("Sender and receiver share this machine's %d CPUs: the receiver's NAPI poll\n"
	       "runs in the softirq the generator's batches raise, on the generator's CPU,\n"
	       "so a frame costs the generator's work plus the receiver's (the empty row is\n"
	       "mostly the generator's).\n",
	       r->ncpus);
	printf("Receivers on %s: the empty program (counts, XDP_DROP) and dynpf_xdp in\n"
	       "native XDP mode, dynpf_tc_ingress as a tcx link (GRO on: the frames go up as\n"
	       "skbs). Rules: bench_rules.c's generated sets, the last the catch-all, made a\n"
	       "drop here so that the traffic never reaches the stack. Of the %zu frames,\n"
	       "1 rule drops %u (%u by the catch-all) and passes %u; 10,000 rules drop %u\n"
	       "(%u by the catch-all, %u by a generated drop rule) and pass %u.\n",
	       DYNPF_TB_RX_IF, r->nframes, r->exp_drop[0], r->exp_catch_all[0], r->exp_pass[0],
	       r->exp_drop[1], r->exp_catch_all[1], r->exp_drop[1] - r->exp_catch_all[1],
	       r->exp_pass[1]);
	if (r->skipped_short || r->skipped_long || r->skipped_refused || r->skipped_many)
		printf("Not sent: %zu frames shorter than 14 bytes, %zu longer than the MTU "
		       "allows, %zu refused by the live-frames test run, %zu past the first %d.\n",
		       r->skipped_short, r->skipped_long, r->skipped_refused, r->skipped_many,
		       LV_MAX_FRAMES);
	if (p->done) {
		printf("\ncontrol plane under traffic, %s:\n", lv_confs[LV_XDP_BIG].label);
		printf("  %u rule updates in %u transactions of %u: %.0f updates/s\n"
		       "  (%.2f s, generations %u to %u)\n",
		       p->updates, p->txns, LV_PUSH_TXN, p->secs > 0 ? p->updates / p->secs : 0,
		       p->secs, p->gen_first, p->gen_last);
		printf("  received during the push: %.3f Mpps, %.2fx the steady %.3f\n"
		       "  (drop %.3f, pass %.3f, redirect %.3f)\n",
		       mpps(p->rx, p->rx_secs), steady > 0 ? mpps(p->rx, p->rx_secs) / steady : 0,
		       steady, mpps(p->act[DYNPF_ACT_DROP], p->rx_secs),
		       mpps(p->act[DYNPF_ACT_PASS], p->rx_secs),
		       mpps(p->act[DYNPF_ACT_REDIRECT], p->rx_secs));
		printf("  half-applied: %llu packets (sentinel rule %u), catch-all: %llu\n"
		       "  (checked on %u of the %zu frames)\n",
		       (unsigned long long)p->sentinel, LV_SENTINEL,
		       (unsigned long long)p->catch_all, p->frames_checked, r->nframes);
		printf("  control: marker deleted for %.0f ms, the sentinel counted %llu packets\n",
		       p->control_ms, (unsigned long long)p->control);
		printf("Each transaction deletes the marker rule first (a drop of every packet,\n"
		       "after the generated rules), deletes the previous transaction's %u churn\n"
		       "rules (generated, matching no frame), adds %u new ones, and adds the other\n"
		       "marker last. The sentinel, a drop of every packet right after the markers,\n"
		       "decides a packet only when no marker is there: a packet classified by a\n"
		       "rule set with the transaction's first op and not its last (a half-applied\n"
		       "set). Its count must be 0. The control deletes the marker in a transaction\n"
		       "of its own and adds it back in the next: then the sentinel must count.\n"
		       "Frames a generated rule decides never reach the markers: not checked.\n",
		       LV_CHURN, LV_CHURN);
	}
	if (r->xb != XB_NOT_RUN) {
		printf("\nxdp-bench: %s\n", r->xb_msg);
		if (r->xb == XB_OK && r->xb_out)
			printf("%s", r->xb_out);
	}
}

static json_object *jseries(const struct lv_series *s)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < s->n; i++)
		json_object_array_add(a, dynpf_json_num(s->v[i], "%.3f"));
	return a;
}

static json_object *jacts(const uint64_t *act, double secs)
{
	json_object *o = json_object_new_object();

	for (int i = DYNPF_ACT_PASS; i < DYNPF_STATS_ACTS; i++)
		json_object_object_add(o, act_names[i], dynpf_json_num(mpps(act[i], secs), "%.3f"));
	return o;
}

json_object *bench_live_json(const struct bench_live *r)
{
	json_object *o = json_object_new_object(), *confs = json_object_new_array();
	json_object *gen = json_object_new_object(), *fr = json_object_new_object();
	double empty = mpps(r->run[LV_EMPTY].rx, r->run[LV_EMPTY].secs);
	const struct lv_push *p = &r->push;

	json_object_object_add(gen, "method", json_object_new_string(
						      "BPF_PROG_TEST_RUN, BPF_F_TEST_XDP_LIVE_FRAMES, "
						      "XDP_TX on the sending veth end"));
	json_object_object_add(gen, "frames",
			       json_object_new_string("the capture's, in turn, one test run until "
						      "stopped"));
	json_object_object_add(gen, "batch_size", json_object_new_int64(r->batch));
	json_object_object_add(gen, "cpu", json_object_new_int(r->sender_cpu));
	json_object_object_add(gen, "receiver",
			       json_object_new_string("NAPI softirq on the generator's CPU"));
	json_object_object_add(o, "generator", gen);
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	json_object_object_add(o, "main_cpu",
			       r->main_cpu >= 0 ? json_object_new_int(r->main_cpu) : NULL);
	json_object_object_add(o, "capture", json_object_new_string(r->capture));
	json_object_object_add(fr, "capture", json_object_new_int64(r->nframes_capture));
	json_object_object_add(fr, "sent", json_object_new_int64(r->nframes));
	json_object_object_add(fr, "short", json_object_new_int64(r->skipped_short));
	json_object_object_add(fr, "too_long", json_object_new_int64(r->skipped_long));
	json_object_object_add(fr, "refused", json_object_new_int64(r->skipped_refused));
	json_object_object_add(fr, "past_limit", json_object_new_int64(r->skipped_many));
	json_object_object_add(fr, "bytes", json_object_new_int64(r->frame_bytes));
	json_object_object_add(o, "frames", fr);
	json_object_object_add(o, "duration_s", json_object_new_int64(r->duration));
	json_object_object_add(o, "mtu", json_object_new_int64(r->mtu));
	json_object_object_add(o, "netns", json_object_new_string(r->ns_rx));
	for (int c = 0; c < LV_NCONF; c++) {
		const struct lv_run *run = &r->run[c];
		json_object *j = json_object_new_object();
		double m = mpps(run->rx, run->secs);

		json_object_object_add(j, "name", json_object_new_string(lv_confs[c].key));
		json_object_object_add(j, "label", json_object_new_string(lv_confs[c].label));
		json_object_object_add(j, "hook",
				       json_object_new_string(!lv_confs[c].hook ? "xdp"
							      : lv_confs[c].hook == DYNPF_HOOK_XDP
								      ? "xdp"
								      : "tc"));
		json_object_object_add(j, "rules", json_object_new_int64(lv_confs[c].rules));
		json_object_object_add(j, "mpps", dynpf_json_num(m, "%.3f"));
		json_object_object_add(j, "ratio_to_empty", dynpf_json_num(empty > 0 ? m / empty : 0, "%.3f"));
		json_object_object_add(j, "ns_per_frame_over_empty",
				       c == LV_EMPTY ? NULL : dynpf_json_num(ns_over(m, empty), "%.1f"));
		json_object_object_add(j, "actions_mpps", jacts(run->act, run->secs));
		json_object_object_add(j, "sent_mpps", dynpf_json_num(mpps(run->sent, run->secs), "%.3f"));
		json_object_object_add(j, "received", json_object_new_int64(run->rx));
		json_object_object_add(j, "sent", json_object_new_int64(run->sent));
		json_object_object_add(j, "seconds", dynpf_json_num(run->secs, "%.3f"));
		json_object_object_add(j, "per_second_mpps", jseries(&run->per_s));
		json_object_array_add(confs, j);
	}
	json_object_object_add(o, "configurations", confs);
	if (p->done) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "configuration",
				       json_object_new_string(lv_confs[LV_XDP_BIG].key));
		json_object_object_add(j, "updates", json_object_new_int64(p->updates));
		json_object_object_add(j, "transactions", json_object_new_int64(p->txns));
		json_object_object_add(j, "updates_per_transaction",
				       json_object_new_int64(LV_PUSH_TXN));
		json_object_object_add(j, "seconds", dynpf_json_num(p->secs, "%.3f"));
		json_object_object_add(j, "updates_per_s",
				       dynpf_json_num(p->secs > 0 ? p->updates / p->secs : 0, "%.0f"));
		json_object_object_add(j, "rx_mpps", dynpf_json_num(mpps(p->rx, p->rx_secs), "%.3f"));
		json_object_object_add(j, "actions_mpps", jacts(p->act, p->rx_secs));
		json_object_object_add(j, "sent_mpps", dynpf_json_num(mpps(p->sent, p->rx_secs), "%.3f"));
		json_object_object_add(j, "half_applied", json_object_new_int64(p->sentinel));
		json_object_object_add(j, "sentinel_rule", json_object_new_int64(LV_SENTINEL));
		json_object_object_add(j, "catch_all", json_object_new_int64(p->catch_all));
		json_object_object_add(j, "frames_checked", json_object_new_int64(p->frames_checked));
		json_object_object_add(j, "control_sentinel", json_object_new_int64(p->control));
		json_object_object_add(j, "control_ms", dynpf_json_num(p->control_ms, "%.1f"));
		json_object_object_add(j, "generation_first", json_object_new_int64(p->gen_first));
		json_object_object_add(j, "generation_last", json_object_new_int64(p->gen_last));
		json_object_object_add(j, "per_second_mpps", jseries(&p->per_s));
		json_object_object_add(o, "push", j);
	}
	if (r->xb != XB_NOT_RUN) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "status",
				       json_object_new_string(r->xb == XB_OK ? "ok" : "skipped"));
		json_object_object_add(j, "message", json_object_new_string(r->xb_msg));
		if (r->xb == XB_OK && r->xb_out)
			json_object_object_add(j, "output", json_object_new_string(r->xb_out));
		json_object_object_add(o, "xdp_bench", j);
	}
	return o;
}
