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
 * The generator. bench_live_tx (loader/bench/live.bpf.h) returns XDP_TX; run with
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
 * 10,000 generated rules (rules_gen.c's, loaded through the control
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
 * links the new entries, born at the next generation, and marks the deleted
 * ones dead from it, in message order, then publishes the generation. A
 * packet that saw part of a transaction would be counted by the sentinel:
 * its counter must stay 0 (and the catch-all's too). Then the single-rule
 * transactions of the rules benchmark (rules_single.c) run, traffic on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/live.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"

const struct lv_conf lv_confs[LV_NCONF] = {
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

/* A signal came: say so; the caller unwinds and lv_teardown() re-raises it. */
int lv_signalled(void)
{
	return dynpf_tb_signalled() ? -EINTR : 0;
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
	lv_sender_stop(&x->tx);
	rx_detach(x);
	dynpf_quiet_off(&x->quiet, x->tb.tx_ns);
	if (x->ctrl_open)
		dynpf_ctrl_close(&x->c);
	x->ctrl_open = false;
	bpf_object__close(x->versus);
	x->versus = NULL;
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
		bench_say_unloaded("bench --live", "the bench's BPF programs", err);
		return err;
	}
	return 0;
}

static int lv_setup(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	int err;

	lv_capture_path(x->cfg->capture, res->capture, sizeof(res->capture));
	err = lv_frames_load(x, res->capture);
	if (err)
		return err;
	err = lv_expect(x);
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
	err = err ?: lv_live_probe(x);
	/* dynpf as shipped, trace off, rule tables for every id (the catch-all's is the last). */
	err = err
		      ?: dynpf_progs_open_hooks(&x->pr, DYNPF_TRACE_OFF, NULL, DYNPF_MAX_RULES,
						1u << DYNPF_HOOK_XDP | 1u << DYNPF_HOOK_TC_INGRESS);
	if (err)
		return err;
	if (x->cfg->versus)
		err = bench_versus_load(x->cfg->versus, x->pr.skel, &x->versus, &x->versus_fd);
	err = err ?: dynpf_ctrl_open(&x->c, x->pr.skel);
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
	err = lv_frames_check(x);
	err = err ?: lv_frames_fill(x);
	err = err ?: dynpf_quiet_on(&x->quiet, x->tb.tx_ns, x->tb.tx_ifindex, DYNPF_TB_TX_IF);
	err = err ?: dynpf_testbed_up(&x->tb);
	err = err ?: rx_gro_on(x);
	err = err ?: lv_signalled();
	if (err)
		return err;
	x->tx.cpu = res->sender_cpu = pick_cpus(&res->main_cpu, &x->saved_cpus);
	x->pinned = res->main_cpu >= 0;
	err = lv_sender_start(x);
	if (!err && x->cfg->print_live)
		printf("dynpf bench --live: %s, %zu frames in turn, %u s a configuration; netns "
		       "%s, %s\n",
		       res->capture, res->nframes, x->cfg->duration, res->ns_tx, res->ns_rx);
	return err;
}

int bench_live_run(const struct bench_live_cfg *cfg, struct bench_live **out)
{
	struct lv_ctx x = { .cfg = cfg, .quiet = DYNPF_QUIET_INIT, .rx = DYNPF_RX_INIT };
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
			err = lv_load_set(&x, lv_confs[conf].rules);
		/* The target's pairs on this rule set, before the push changes it. */
		for (int k = 0; !err && k < LV_NPAIRS; k++)
			if (lv_pair_conf[k] == conf)
				err = lv_run_pairs(&x, k);
		if (!err && conf == LV_XDP_BIG && cfg->versus)
			err = lv_run_versus(&x);
		err = err ?: lv_run_conf(&x, conf);
	}
	if (!err && cfg->xdp_bench)
		lv_run_xdp_bench(&x);
	err = err ?: lv_signalled();
	lv_teardown(&x); /* dies of a signal that came */
	if (err == -EOPNOTSUPP && res->unavailable[0]) {
		*out = res; /* the caller says why, and the targets unmeasured */
		return err;
	}
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
