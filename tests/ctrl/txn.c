// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * build/test_ctrl: single-rule transactions in force for the next packet
 * once acked; reclaim (every retired entry unlinked and freed, the chains
 * whole, the pool accounted for); a commit held until a grace period makes
 * room for it.
 */
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "dynpf.skel.h"

#include "ctrl.h"

#define TXN_BASE 2000 /* rule ids of these tests */

/* One transaction: delete rule del (0: none), add r (NULL: none). Its commit's ack. */
static struct dynpf_ack_commit one(uint32_t del, const struct dynpf_rule *r)
{
	uint64_t s;

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	if (del)
		dynpf_ctrl_del(&c, del, NULL);
	if (r)
		dynpf_ctrl_add(&c, r, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	return ack_of(s);
}

/* Rule TXN_BASE + i: TCP from 198.18.0.(i % 200), destination port 1000 + i. */
static struct dynpf_rule txn_rule(uint32_t i, uint8_t action)
{
	struct dynpf_rule r = rule(TXN_BASE + i, 10, action);

	m_src4(&r, i % 200, 32);
	m_proto(&r, 6);
	m_dport(&r, 1000 + i, 1000 + i);
	return r;
}

/*
 * 300 single-rule transactions, adds, replaces (the action changed) and
 * deletes in turn, over 100 rules loaded: each, once acked, decides the very
 * next packet, with no grace period waited for in between.
 */
void test_single_in_force(void)
{
	struct dynpf_rule base[100];
	struct dynpf_verdict v;
	int wrong = 0, runs = 0;
	uint64_t held;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("single: reopen", 0, "cannot load the programs");
		return;
	}
	for (int i = 0; i < 100; i++) {
		base[i] = rule(i + 1, 100 + i, DYNPF_ACT_COUNT);
		m_proto(&base[i], 17);
		m_dport(&base[i], i, i);
	}
	CHECK_EQ("single: 100 rules", txn(base, 100).a.err, 0);
	held = c.nheld;
	for (uint32_t i = 0; i < 100; i++) {
		struct dynpf_rule add = txn_rule(i, DYNPF_ACT_DROP);
		struct dynpf_rule rep = txn_rule(i, DYNPF_ACT_PASS);
		struct dynpf_ack_commit a[3];

		mk4(&p, 6, i % 200, 1, 40000, 1000 + i, 0x02);
		a[0] = one(0, &add);
		runs += !run(&p, &v, NULL);
		wrong += a[0].a.err || v.rule != add.id || v.action != DYNPF_ACT_DROP ||
			 v.gen != a[0].a.gen;
		a[1] = one(add.id, &rep);
		runs += !run(&p, &v, NULL);
		wrong += a[1].a.err || v.rule != rep.id || v.action != DYNPF_ACT_PASS ||
			 v.gen != a[1].a.gen;
		a[2] = one(rep.id, NULL);
		runs += !run(&p, &v, NULL);
		wrong += a[2].a.err || v.rule == rep.id || v.gen != a[2].a.gen;
		if (wrong && wrong < 3)
			printf("single: rule %u: acks %d %d %d, last verdict rule %u action %u gen "
			       "%u\n",
			       add.id, a[0].a.err, a[1].a.err, a[2].a.err, v.rule, v.action, v.gen);
	}
	CHECK_EQ("single: test runs", runs, 300);
	CHECK_EQ("single: changes not in force for the next packet", wrong, 0);
	CHECK_EQ("single: no commit held for room", c.nheld, held);
}

struct chains {
	int bad;
	uint32_t linked, live, konst;
};

/*
 * The chain from head h: of linked entries, in (prio, id) order, with their
 * back pointers right, each in the chain it belongs to: bucket b of nb
 * (konst < 0), or konst tuple konst's (dynpf_kheads).
 */
static void walk_chain(struct chains *w, const struct dynpf_rules_view *view, uint32_t h,
		       uint32_t b, uint32_t nb, int konst)
{
	uint32_t prev = 0, n = 0, lp = 0, li = 0;

	for (uint32_t cur = h; cur && n <= view->nents; n++) {
		const struct dynpf_rule_ent *e = &view->ent[cur];

		w->bad += e->prev != prev || e->state != DYNPF_ENT_LINKED ||
			  (n && (e->r.prio < lp || (e->r.prio == lp && e->r.id < li)));
		w->bad += konst < 0 ? (e->hash & (nb - 1)) != b : e->tuple != (uint32_t)konst;
		w->live += dynpf_rules_view_get(view, e->r.id) == &e->r;
		w->konst += konst >= 0;
		lp = e->r.prio;
		li = e->r.id;
		prev = cur;
		cur = e->next;
		w->linked++;
	}
	w->bad += n > view->nents; /* a cycle */
}

/*
 * After churn, every retired entry reclaimed: nothing in limbo, each entry
 * of the pool either alive (once, in its bucket's chain, its konst
 * tuple's or the catch-alls', chains in (prio, id) order with their back pointers right) or
 * free, the tuples in use those with rules. konst: how many alive rules
 * are in konst tuples' chains (-1: any number).
 */
void test_reclaim(int konst)
{
	int fd = bpf_map__fd(pr.skel->maps.dynpf_heads);
	int kfd = bpf_map__fd(pr.skel->maps.dynpf_kheads);
	uint32_t nb = bpf_map__max_entries(pr.skel->maps.dynpf_heads);
	uint32_t nk = bpf_map__max_entries(pr.skel->maps.dynpf_kheads);
	struct dynpf_rules_view view;
	const struct dynpf_state *st;
	struct chains w = {};
	uint32_t h, k0;

	CHECK_EQ("reclaim: quiesce", dynpf_ctrl_quiesce(&c), 0);
	CHECK_EQ("reclaim: limbo", c.limbo, 0);
	if (dynpf_rules_view_open(pr.skel, &view)) {
		CHECK("reclaim: view", 0, "cannot map the rule set");
		return;
	}
	st = view.st;
	for (uint32_t b = 0; b < nb; b++)
		if (!bpf_map_lookup_elem(fd, &b, &h) && h)
			walk_chain(&w, &view, h, b, nb, -1);
	for (uint32_t t = 0; t < nk; t++)
		if (!bpf_map_lookup_elem(kfd, &t, &h) && h)
			walk_chain(&w, &view, h, 0, nb, (int)t);
	/* The catch-alls' chain, from the state: entries of no tuple. */
	k0 = w.konst;
	if (st->any_head)
		walk_chain(&w, &view, st->any_head, 0, nb, DYNPF_TUPLE_ANY);
	w.konst = k0;
	if (konst >= 0)
		CHECK_EQ("reclaim: the konst tuples' rules in their chains", w.konst, konst);
	CHECK_EQ("reclaim: chains whole, ordered, of linked entries in their buckets", w.bad, 0);
	CHECK_EQ("reclaim: every entry linked is alive", w.linked, st->nrules);
	CHECK_EQ("reclaim: every rule alive is linked", w.live, st->nrules);
	CHECK_EQ("reclaim: the pool accounted for", st->nfree + st->nrules, st->hwm - 1);
	CHECK_EQ("reclaim: the limbo ring empty", st->limbo_tail - st->limbo_head, 0);
	CHECK_EQ("reclaim: tuple slots in use", st->tuples_used, st->ntuples);
	dynpf_rules_view_close(&view);
}

/*
 * A pool of 64 entries and 31 rules: their set replaced whole, then again
 * at once, needs entries that only a grace period frees. The second commit
 * is held, then applied, and acked: the last set is the one in force.
 */
void test_held(void)
{
	struct dynpf_rule r[31];
	struct dynpf_verdict v;
	struct pkt p;
	uint64_t s;
	int bad = 0;

	if (reopen(32)) {
		CHECK("held: reopen", 0, "cannot load the programs");
		return;
	}
	CHECK_EQ("held: none yet", c.nheld, 0);
	for (int k = 0; k < 3; k++) {
		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		for (int i = 0; i < 31; i++) {
			r[i] = rule(i + 1, i + 1, k == 2 ? DYNPF_ACT_DROP : DYNPF_ACT_COUNT);
			if (i >= 28) {
				/* a konst tuple (TTL ranges 1-2 and 3-4), its
				 * chain in dynpf_kheads: no packet here has
				 * such a TTL */
				r[i].m.fields |= DYNPF_M_TTL;
				r[i].m.ttl_lo = 1 + 2 * (i & 1);
				r[i].m.ttl_hi = r[i].m.ttl_lo + 1;
			} else {
				m_proto(&r[i], 6);
				m_dport(&r[i], 100 * k + i, 100 * k + i);
			}
			if (k)
				dynpf_ctrl_del(&c, i + 1, NULL);
			dynpf_ctrl_add(&c, &r[i], NULL);
		}
		dynpf_ctrl_commit(&c, &s);
		CHECK_EQ("held: flush", dynpf_ctrl_flush(&c), 0);
		bad += ack_of(s).a.err != 0 || ack_of(s).nrules != 31;
	}
	CHECK_EQ("held: the three commits acked, 31 rules each", bad, 0);
	CHECK("held: the third waited for room", c.nheld > 0, "never held");
	mk4(&p, 6, 1, 1, 40000, 205, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("held: the last set decides", v.rule, 6);
	CHECK_EQ("held: the last set decides", v.action, DYNPF_ACT_DROP);
	mk4(&p, 6, 1, 1, 40000, 105, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("held: nothing of the one before", v.rule, 0);
	test_reclaim(3);
}
