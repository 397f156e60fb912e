// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: one configuration. Attach its receiver, let the
 * generator send for the duration, a line a second (like xdp-bench), take
 * the figure from the first to the last tick, stop, let the ring drain,
 * detach. For the 10,000-rule XDP run, the rule updates are pushed
 * (live_push.c) after the measured seconds, the traffic still on. Then
 * the pairs of slices the live targets are measured with (live.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/live.h"
#include "lib/log.h"
#include "lib/util.h"

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

/* Sleep until the absolute CLOCK_MONOTONIC time t (seconds); early on a signal. */
static void sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t, .tv_nsec = (long)((t - (time_t)t) * 1e9) };

	while (!dynpf_tb_signalled() &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* One line a second, like xdp-bench: received Mpps, then per action. */
static void print_second(const struct lv_ctx *x, const char *what, double t, const uint64_t *d,
			 double dt, uint64_t sent, const char *extra)
{
	if (!x->cfg->print_live)
		return;
	printf("%-12s %5.0f s  rx %7.3f Mpps  pass %7.3f  drop %7.3f  redirect %7.3f  sent %7.3f "
	       "Mpps%s\n",
	       what, t, lv_sum_acts(d) / dt / 1e6, d[DYNPF_ACT_PASS] / dt / 1e6,
	       d[DYNPF_ACT_DROP] / dt / 1e6, d[DYNPF_ACT_REDIRECT] / dt / 1e6, sent / dt / 1e6,
	       extra ? extra : "");
	fflush(stdout);
}

static int window_open(struct lv_ctx *x, int conf, struct lv_window *w)
{
	int err = lv_rx_read(x, conf, w->act0);

	if (err)
		return err;
	memcpy(w->act_tick, w->act0, sizeof(w->act0));
	w->sent0 = w->sent_tick = lv_sent_now(x);
	w->t0 = w->tick = dynpf_now();
	return 0;
}

/* A second's line: counters now against the last tick. */
int lv_window_tick(struct lv_ctx *x, int conf, struct lv_window *w, const char *what,
		   struct lv_series *s, const char *extra)
{
	uint64_t act[DYNPF_STATS_ACTS], d[DYNPF_STATS_ACTS], sent;
	double t;
	int err;

	err = lv_rx_read(x, conf, act);
	if (err)
		return err;
	t = dynpf_now();
	sent = lv_sent_now(x);
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		d[i] = act[i] - w->act_tick[i];
	print_second(x, what, t - w->t0, d, t - w->tick, sent - w->sent_tick, extra);
	err = series_add(s, lv_sum_acts(d) / (t - w->tick) / 1e6);
	memcpy(w->act_tick, act, sizeof(act));
	w->sent_tick = sent;
	w->tick = t;
	return err;
}

/*
 * One configuration: attach, send for the duration (a line a second), stop,
 * let the ring drain, detach. For the 10,000-rule XDP run, the rule
 * updates are pushed after the measured seconds, the traffic still on.
 */
int lv_run_conf(struct lv_ctx *x, int conf)
{
	const struct lv_conf *c = &lv_confs[conf];
	struct lv_run *r = &x->res->run[conf];
	uint64_t act[DYNPF_STATS_ACTS];
	struct lv_window w;
	double t_end;
	int err;

	if (x->cfg->print_live)
		printf("%s: %s on %s%s\n", c->label,
		       !c->hook                    ? "bench_live_drop, native XDP"
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
	lv_sender_set(&x->tx, TX_RUN);
	t_end = w.t0 + x->cfg->duration;
	while (!dynpf_tb_signalled()) {
		double next = w.tick + 1 > t_end ? t_end : w.tick + 1;

		sleep_until(next);
		if (dynpf_tb_signalled() || (err = lv_sender_error(&x->tx)))
			break;
		err = lv_window_tick(x, conf, &w, c->tag, &r->per_s, NULL);
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
	r->rx = lv_sum_acts(r->act);
	r->done = true;
	if (conf == LV_XDP_BIG) {
		err = lv_push(x, &w);
		err = err ?: lv_single(x);
		if (err)
			goto out;
	}
	lv_sender_set(&x->tx, TX_IDLE);
	err = lv_sender_error(&x->tx);
	if (err)
		goto out;
	/* Frames still queued are received (or dropped) before the next run. */
	usleep(LV_DRAIN_MS * 1000);
	err = lv_rx_read(x, conf, act);
out:
	lv_sender_set(&x->tx, TX_IDLE);
	rx_detach(x);
	return err;
}

/* ---- the pairs of slices --------------------------------------------------------- */

const int lv_pair_conf[LV_NPAIRS] = { [LV_PAIR_XDP1] = LV_XDP1, [LV_PAIR_XDP_BIG] = LV_XDP_BIG };

/*
 * One slice: conf's receiver attached, traffic for LV_WARM_MS, then its
 * counters over ms; traffic off, the ring drained, detached.
 * *mpps: what it received a second.
 */
static int slice(struct lv_ctx *x, int conf, uint32_t ms, double *mpps)
{
	uint64_t a0[DYNPF_STATS_ACTS], a1[DYNPF_STATS_ACTS];
	double t0, t1;
	int err;

	err = rx_attach(x, conf);
	if (err)
		return err;
	lv_sender_set(&x->tx, TX_RUN);
	sleep_until(dynpf_now() + LV_WARM_MS / 1e3);
	err = lv_signalled() ?: lv_sender_error(&x->tx) ?: lv_rx_read(x, conf, a0);
	if (err)
		goto out;
	t0 = dynpf_now();
	sleep_until(t0 + ms / 1e3);
	err = lv_signalled() ?: lv_sender_error(&x->tx) ?: lv_rx_read(x, conf, a1);
	t1 = dynpf_now();
	if (err)
		goto out;
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		a1[i] -= a0[i];
	*mpps = lv_sum_acts(a1) / (t1 - t0) / 1e6;
out:
	lv_sender_set(&x->tx, TX_IDLE);
	usleep(LV_DRAIN_MS * 1000);
	rx_detach(x);
	return err;
}

/* A pair's slice: LV_SLICE_MS, or 200 ms a second of --duration below 5 s. */
static uint32_t pair_slice_ms(const struct lv_ctx *x)
{
	return x->cfg->duration >= 5 ? LV_SLICE_MS : 200 * x->cfg->duration;
}

/* One receiver of a pair: its configuration, and whether --versus's dynpf_xdp stands for it. */
struct lv_side {
	int conf;
	bool versus;
	const char *name; /* in the pair's line */
	const char *what; /* in an error */
	double *mpps;     /* per pair */
};

/*
 * LV_PAIRS pairs of slices of num and den, den's first in every other pair
 * (neither always first): per pair num's Mpps / den's in ratio[], a line
 * each ("tag word i: den ..., num ..., ratio"), the median in *med.
 */
static int run_pairs(struct lv_ctx *x, uint32_t ms, const char *tag, const char *word,
		     struct lv_side num, struct lv_side den, double *ratio, double *med)
{
	int err = 0;

	for (int i = 0; !err && i < LV_PAIRS; i++) {
		for (int k = 0; !err && k < 2; k++) {
			struct lv_side *sd = (k ^ i) & 1 ? &num : &den;

			x->on_versus = sd->versus;
			err = slice(x, sd->conf, ms, &sd->mpps[i]);
			x->on_versus = false;
		}
		if (!err && den.mpps[i] <= 0) {
			p_err("bench --live: %s received nothing in %u ms", den.what, ms);
			err = -EIO;
		}
		if (!err) {
			ratio[i] = num.mpps[i] / den.mpps[i];
			if (x->cfg->print_live)
				printf("%-12s %s %d: %s %.3f Mpps, %s %.3f, %.3fx\n", tag, word,
				       i + 1, den.name, den.mpps[i], num.name, num.mpps[i],
				       ratio[i]);
		}
	}
	if (err)
		return err;
	*med = dynpf_median(ratio, LV_PAIRS);
	return 0;
}

/*
 * The pairs of one live target (live.h): the empty program and dynpf's
 * configuration of the pair in turn, on the rule set loaded now.
 */
int lv_run_pairs(struct lv_ctx *x, int pair)
{
	struct lv_pairs *pp = &x->res->pairs[pair];
	int conf = lv_pair_conf[pair];
	uint32_t ms = pair_slice_ms(x);
	struct lv_side dynpf = { conf, false, "dynpf", "dynpf", pp->dynpf };
	struct lv_side empty = { LV_EMPTY, false, "empty", "the empty program", pp->empty };
	int err;

	pp->slice_ms = ms;
	pr_info("bench --live: %s against the empty program, %d pairs of %u ms\n",
		lv_confs[conf].label, LV_PAIRS, ms);
	err = run_pairs(x, ms, lv_confs[conf].tag, "pair", dynpf, empty, pp->ratio, &pp->med);
	pp->done = !err;
	return err;
}

/*
 * --versus (live.h): this build's dynpf_xdp and the other build's, in
 * turn, on the rule set loaded now (10,000 rules). Both count in the same
 * dynpf_stats: each slice reads the counters it moved.
 */
int lv_run_versus(struct lv_ctx *x)
{
	struct lv_versus *v = &x->res->versus;
	uint32_t ms = pair_slice_ms(x);
	struct lv_side mine = { LV_XDP_BIG, false, "this build", "this build", v->mine };
	struct lv_side other = { LV_XDP_BIG, true, "--versus", "the --versus build", v->other };
	int err;

	snprintf(v->object, sizeof(v->object), "%s", x->cfg->versus);
	v->slice_ms = ms;
	pr_info("bench --live: this build against --versus, %d pairs of %u ms\n", LV_PAIRS, ms);
	err = run_pairs(x, ms, lv_confs[LV_XDP_BIG].tag, "versus", mine, other, v->ratio, &v->med);
	v->done = !err;
	return err;
}
