// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the rule sets. bench_rules_gen()'s generated sets of
 * 1 and 10,000 rules, the last the catch-all, made a drop here so that the
 * traffic never reaches the stack; the push's markers and sentinel (drops
 * matching every packet) and churn; the transactions that load them; and
 * what the native classifier says of the frames against them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/live.h"
#include "lib/log.h"
#include "match.h"

/* Rule id of the live sets: the generated rule, the catch-all a drop. */
void lv_rule(uint32_t id, struct dynpf_rule *r)
{
	bench_rules_gen(id, r);
	if (id == BENCH_RULES_CATCHALL_ID)
		r->action = DYNPF_ACT_DROP;
}

/* A drop matching every packet: the markers and the sentinel. */
void lv_match_all(uint32_t id, struct dynpf_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->prio = id;
	r->action = DYNPF_ACT_DROP;
}

uint32_t lv_churn_id(uint32_t batch, uint32_t i)
{
	return LV_CHURN_BASE + (batch & 1) * LV_CHURN + i;
}

/* Op i of ops: a delete, a marker or the sentinel, or a generated rule. */
static void lv_op(const void *arg, uint32_t i, bool *del, struct dynpf_rule *r)
{
	const struct lv_op *op = (const struct lv_op *)arg + i;

	*del = op->del;
	if (op->del)
		r->id = op->id;
	else if (op->match_all)
		lv_match_all(op->id, r);
	else
		lv_rule(op->id, r);
}

int lv_txn(struct lv_ctx *x, const struct lv_op *ops, size_t n, const char *what)
{
	struct dynpf_ack_commit a;
	int err;

	err = bench_txn(&x->c, n, lv_op, ops, "bench --live", what, &a);
	if (err)
		return err;
	x->rules = a.nrules;
	x->gen = a.a.gen;
	return 0;
}

/* Grow the live set to n rules: the catch-all first, then ids rules .. n-1. */
int lv_load_set(struct lv_ctx *x, uint32_t n)
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
	err = lv_txn(x, ops, k, what);
	free(ops);
	if (!err && x->rules != n) {
		p_err("bench --live: after %s, the commit ack says %u rules", what, x->rules);
		err = -EPROTO;
	}
	return err;
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
		    dynpf_rule_match(r, p, &v, NULL))
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
int lv_expect(struct lv_ctx *x)
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
				lv_rule(lv_churn_id(b, i), &rules[n++]);
			lv_match_all(b ? LV_MARKER1 : LV_MARKER0, &rules[n++]);
			if (decide(rules, n, &x->parsed[f], &act) != (b ? LV_MARKER1 : LV_MARKER0))
				by_marker = false;
		}
		res->push.frames_checked += by_marker;
	}
	free(rules);
	return 0;
}
