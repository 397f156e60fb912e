// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the control plane under traffic. While the 10,000-rule
 * XDP run goes on, past its measured seconds, 100,000 rule updates are
 * pushed through dynpf_ctrl: LV_PUSH_TXNS transactions of LV_PUSH_TXN
 * updates each, flushed one by one, a line a second; then the control,
 * and the push's rules removed again (live_run.c says what is checked).
 * Then the single-rule transactions of the rules benchmark
 * (rules_single.c), the traffic still on: its second column.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bench/live.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"

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
			ops[n++] =
				(struct lv_op){ .del = true, .id = lv_churn_id(LV_PUSH_TXNS, i) };
		ops[n++] = (struct lv_op){ .del = true, .id = LV_SENTINEL };
		return n;
	}
	if (k == 0) {
		ops[n++] = (struct lv_op){ .id = LV_SENTINEL, .match_all = true };
	} else {
		ops[n++] = (struct lv_op){ .del = true, .id = marker[(k - 1) & 1] };
		for (uint32_t i = 0; i < LV_CHURN; i++)
			ops[n++] = (struct lv_op){ .del = true, .id = lv_churn_id(k - 1, i) };
	}
	for (uint32_t i = 0; i < LV_CHURN; i++)
		ops[n++] = (struct lv_op){ .id = lv_churn_id(k, i) };
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

	err = lv_rule_count(x, LV_SENTINEL, &before);
	t0 = dynpf_now();
	err = err ?: lv_txn(x, &del, 1, "the control: deleting the marker");
	if (err)
		return err;
	usleep(LV_CONTROL_MS * 1000);
	err = lv_txn(x, &add, 1, "the control: adding the marker back");
	p->control_ms = (dynpf_now() - t0) * 1e3;
	err = err ?: lv_rule_count(x, LV_SENTINEL, &after);
	p->control = after - before;
	return err;
}

int lv_push(struct lv_ctx *x, struct lv_window *w)
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
	err = lv_txn(x, ops, n, "setting up the push");
	err = err ?: lv_rule_count(x, BENCH_RULES_CATCHALL_ID, &ca0);
	err = err ?: lv_rx_read(x, LV_XDP_BIG, act0);
	if (err)
		return err;
	p->gen_first = x->gen;
	sent0 = lv_sent_now(x);
	t0 = tick = dynpf_now();
	/* The ticks go on from the measured seconds: a line each second. */
	w->tick = t0;
	memcpy(w->act_tick, act0, sizeof(act0));
	w->sent_tick = sent0;
	for (int k = 1; k <= LV_PUSH_TXNS && !dynpf_tb_signalled(); k++) {
		n = push_ops(k, ops);
		err = lv_txn(x, ops, n, "an update transaction");
		err = err ?: lv_sender_error(&x->tx);
		if (err)
			return err;
		p->txns = k;
		p->updates += n;
		if (dynpf_now() - tick >= 1) {
			snprintf(extra, sizeof(extra), "  %u updates", p->updates);
			err = lv_window_tick(x, LV_XDP_BIG, w, "push", &p->per_s, extra);
			if (err)
				return err;
			tick = w->tick;
		}
	}
	t1 = dynpf_now();
	err = lv_signalled();
	err = err ?: lv_rx_read(x, LV_XDP_BIG, act1);
	err = err ?: lv_rule_count(x, LV_SENTINEL, &p->sentinel);
	err = err ?: lv_rule_count(x, BENCH_RULES_CATCHALL_ID, &ca1);
	if (err)
		return err;
	sent1 = lv_sent_now(x);
	p->gen_last = x->gen;
	err = push_control(x, p);
	if (err)
		return err;
	p->secs = t1 - t0;
	p->rx_secs = t1 - t0;
	p->sent = sent1 - sent0;
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		p->act[i] = act1[i] - act0[i];
	p->rx = lv_sum_acts(p->act);
	p->catch_all = ca1 - ca0;
	p->done = true;
	/* Back to the 10,000 rules, for the TC run. */
	n = push_ops(-1, ops);
	return lv_txn(x, ops, n, "removing the push's rules");
}

int lv_single(struct lv_ctx *x)
{
	struct bench_live *r = x->res;
	uint64_t act0[DYNPF_STATS_ACTS], act1[DYNPF_STATS_ACTS];
	double t0;
	int err;

	if (x->cfg->print_live)
		printf("single-rule transactions: %u of each kind, the traffic on\n", RB_SGL_N);
	err = lv_rx_read(x, LV_XDP_BIG, act0);
	if (err)
		return err;
	t0 = dynpf_now();
	err = rb_single_run(&x->c, bpf_program__fd(dynpf_progs_prog(&x->pr, DYNPF_HOOK_XDP)),
			    x->pr.skel->maps.dynpf_verdicts, x->rules, &r->single);
	err = err ?: lv_sender_error(&x->tx);
	err = err ?: lv_rx_read(x, LV_XDP_BIG, act1);
	if (err)
		return err;
	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		act1[i] -= act0[i];
	r->single_mpps = lv_sum_acts(act1) / (dynpf_now() - t0) / 1e6;
	return 0;
}
