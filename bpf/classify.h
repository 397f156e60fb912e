/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The data path's classifier: after the parse, find the first terminal
 * rule that matches (in priority order) and the non-terminal rules before
 * it, among the entries alive at the packet's generation (bpf/rules.h),
 * and act.
 */
#ifndef DYNPF_BPF_CLASSIFY_H
#define DYNPF_BPF_CLASSIFY_H

#include "rules.h"

/*
 * The bench's ablation (bpf/dynpf.bpf.c defines it): true to stop making the
 * candidate tuples after step NONE (none made), SELECT, QUICK or FIELD.
 */
#ifndef DYNPF_CAND_STOP
#define DYNPF_CAND_STOP(step) 0
#endif
/* The ablation's: true to leave the candidates' cache out (below). */
#ifndef DYNPF_CC_OFF
#define DYNPF_CC_OFF 0
#endif

#define DYNPF_NS_PER_S 1000000000ull
#define DYNPF_MAX_NONTERM 6 /* non-terminal rules acting on one packet */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} dynpf_events SEC(".maps");

/* Bytes of a sampled packet, on their way to dynpf_events. */
struct dynpf_sample_buf {
	__u8 b[DYNPF_SAMPLE_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_sample_buf);
} dynpf_sample_buf SEC(".maps");

/*
 * One byte test: a global subprogram, verified once, not once per test of
 * the rule nor per path to it. dp, the packet's dynptr, is cloned onto this
 * frame before anything else and read through the clone: the verifier keeps
 * no dynptr argument's type across a spill, and clang spills it in a body
 * this size.
 */
DYNPF_SUBPROG int dynpf_data_test_g(const struct bpf_dynptr *dp, const struct dynpf_data_test *t,
				    const struct dynpf_pkt *p, const struct dynpf_cls_view *v,
				    __u32 stack)
{
	struct bpf_dynptr pkt;

	if (bpf_dynptr_clone(dp, &pkt) || !t || !p || !v)
		return 0;
	return dynpf_data_match(t, p, v, stack & (DYNPF_MAX_STACKS - 1), &pkt);
}

/*
 * A rule's tests but its byte tests: a global subprogram, verified once
 * with any rule and any parse result, not once per place the chain walk
 * reaches it.
 */
DYNPF_SUBPROG int dynpf_rule_match_g(const struct dynpf_rule *r, const struct dynpf_pkt *p,
				     const struct dynpf_cls_view *v)
{
	if (!r || !p || !v)
		return 0;
	return dynpf_rule_match_fields(r, p, v);
}

/*
 * A rule's byte tests (DYNPF_M_DATA), once its other tests matched: called
 * only for the rules that have some. dp is read through a clone made first
 * (see above). Apart from dynpf_rule_match_g(), not called from it: the
 * packet program's frame, this one's and a byte test's are one chain of
 * calls, which may use 512 bytes of stack in all, and the three were 512
 * with the rule's other tests in this frame (dynpf_rule_match_g(), 120
 * bytes, where this one needs 48): the packet program's frame had no byte
 * to spare, and each change to the parse that grew it failed to load.
 */
DYNPF_SUBPROG int dynpf_rule_data_g(const struct bpf_dynptr *dp, const struct dynpf_rule *r,
				    const struct dynpf_pkt *p, const struct dynpf_cls_view *v)
{
	struct bpf_dynptr pkt;
	__u32 i;

	if (bpf_dynptr_clone(dp, &pkt) || !r || !p || !v)
		return 0;
	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		if (i >= r->m.ndata)
			break;
		if (!dynpf_data_test_g(&pkt, &r->m.data[i], p, v, r->m.stack))
			return 0;
	}
	return 1;
}

/* Take one packet's worth of credit from a rule's bucket: 1 if it conforms. */
static __always_inline int dynpf_bucket_take(__u32 id, __u64 rate, __u64 burst)
{
	struct dynpf_bucket *b = bpf_map_lookup_elem(&dynpf_buckets, &id);
	__u64 now = bpf_ktime_get_ns(), cost, cap, credit;
	int ok;

	if (!b || !rate)
		return 0;
	cost = DYNPF_NS_PER_S / rate;
	if (!cost)
		cost = 1;
	cap = cost * burst;
	bpf_spin_lock(&b->lock);
	credit = b->credit + (now - b->last);
	if (credit > cap)
		credit = cap;
	b->last = now;
	ok = credit >= cost;
	if (ok)
		credit -= cost;
	b->credit = credit;
	bpf_spin_unlock(&b->lock);
	return ok;
}

static __always_inline void dynpf_rule_count(__u32 id, __u32 len)
{
	struct dynpf_rule_stats *s = bpf_map_lookup_elem(&dynpf_rule_stats, &id);

	if (s) {
		s->packets++;
		s->bytes += len;
	}
}

/* The first cap bytes of the packet and its parse result, to dynpf_events. */
static __always_inline void dynpf_sample(const struct bpf_dynptr *pkt, const struct dynpf_pkt *p,
					 const struct dynpf_verdict *v)
{
	struct dynpf_sample_buf *buf;
	struct dynpf_sample hdr = {};
	struct bpf_dynptr ev;
	__u32 zero = 0, cap;

	buf = bpf_map_lookup_elem(&dynpf_sample_buf, &zero);
	if (!buf)
		return;
	cap = v->sample_len;
	if (cap > p->pkt_len)
		cap = p->pkt_len;
	if (cap > DYNPF_SAMPLE_MAX)
		cap = DYNPF_SAMPLE_MAX;
	if (bpf_dynptr_read(buf->b, cap, pkt, 0, 0))
		cap = 0;
	hdr.rule = v->sample;
	hdr.ifindex = p->ifindex;
	hdr.pkt_len = p->pkt_len;
	hdr.cap_len = cap;
	hdr.ts_ns = bpf_ktime_get_ns();
	hdr.hook = p->hook;
	if (bpf_ringbuf_reserve_dynptr(&dynpf_events, sizeof(hdr) + sizeof(*p) + cap, 0, &ev)) {
		bpf_ringbuf_discard_dynptr(&ev, 0);
		return;
	}
	bpf_dynptr_write(&ev, 0, &hdr, sizeof(hdr), 0);
	bpf_dynptr_write(&ev, sizeof(hdr), (void *)p, sizeof(*p), 0);
	if (cap)
		bpf_dynptr_write(&ev, sizeof(hdr) + sizeof(*p), buf->b, cap, 0);
	bpf_ringbuf_submit_dynptr(&ev, 0);
}

/* The classifier's working state for one packet: too big for the stack. */
#define DYNPF_COLL_SLOTS 8 /* >= DYNPF_MAX_NONTERM, a power of 2 */
struct dynpf_cls_scratch {
	struct dynpf_key keys[DYNPF_MAX_STACKS];
	struct dynpf_quick q[DYNPF_MAX_STACKS];
	__u64 hash; /* of the masked key of the tuple being walked */
	__u32 slot; /* and that tuple's */
	__u64 gen;  /* the generation the packet read: the entries alive at it */
	struct dynpf_cls_view view;
	__u32 cc;   /* the outer stack's entry of the candidates' cache */
	__u64 qv;   /* the stack's quick filters' values (dynpf_qf_word()) */
	__u64 fsv;  /* and its field filters' (dynpf_fs_vals()) */
	__u32 best; /* the best terminal rule so far, 0: none */
	__u32 best_prio;
	__u32 best_ent; /* its entry */
	__u32 nc;       /* non-terminal matches in coll[] */
	__u32 coll[DYNPF_COLL_SLOTS];
	__u32 coll_prio[DYNPF_COLL_SLOTS]; /* their priorities: no rule lookup
					    * to order them */
	__u32 coll_ent[DYNPF_COLL_SLOTS];  /* and their entries */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_cls_scratch);
} dynpf_cls_scratch SEC(".maps");

/*
 * All slots taken: keep the DYNPF_MAX_NONTERM first in (prio, id) order, so
 * the ones that act are the first that match, whatever the tuple order. A
 * global subprogram: verified once, not once per path to each call.
 */
DYNPF_SUBPROG int dynpf_coll_replace(struct dynpf_cls_scratch *cs, __u32 id, __u32 prio, __u32 ent)
{
	__u32 worst = 0, worst_prio = 0, slot = 0, k;

	if (!cs)
		return 0;

	for (k = 0; k < DYNPF_MAX_NONTERM; k++) {
		__u32 cid = cs->coll[k], cprio = cs->coll_prio[k];

		if (cid && (!worst || dynpf_before(worst_prio, worst, cprio, cid))) {
			worst = cid;
			worst_prio = cprio;
			slot = k;
		}
	}
	if (worst && dynpf_before(prio, id, worst_prio, worst)) {
		slot &= DYNPF_COLL_SLOTS - 1;
		cs->coll[slot] = id;
		cs->coll_prio[slot] = prio;
		cs->coll_ent[slot] = ent;
	}
	return 0;
}

/* The quick fields of stack s (rules/quick.h). */
static __always_inline void dynpf_cls_quick_init(struct dynpf_cls_scratch *cs,
						 const struct dynpf_pkt *p, __u32 s)
{
	s &= DYNPF_MAX_STACKS - 1;
	dynpf_quick_init(&cs->q[s], &cs->view.s[s], &p->st[s], p->ifindex);
}

/*
 * Rule entry e (idx of the pool), alive at the packet's generation and
 * before the best match so far, matches: the new best when it is terminal
 * (1: the walk stops there), else one more non-terminal match (0).
 */
static __always_inline int dynpf_cls_hit(struct dynpf_cls_scratch *cs,
					 const struct dynpf_rule_ent *e, __u32 idx)
{
	if (e->terminal) {
		cs->best = e->r.id;
		cs->best_prio = e->r.prio;
		cs->best_ent = idx;
		return 1;
	}
	if (cs->nc < DYNPF_MAX_NONTERM) {
		__u32 slot = cs->nc++ & (DYNPF_COLL_SLOTS - 1);

		cs->coll[slot] = e->r.id;
		cs->coll_prio[slot] = e->r.prio;
		cs->coll_ent[slot] = idx;
	} else {
		dynpf_coll_replace(cs, e->r.id, e->r.prio, idx);
	}
	return 0;
}

/*
 * One chain entry, idx of the pool: 1 to go on to e->next, 0 to stop the
 * walk. An entry not alive at the packet's generation (unborn, or retired
 * and waiting to be unlinked) is passed over, as one another key's is. The
 * match is behind its subprogram: inlined, the verifier's paths multiply
 * past its budget (tried: 1M instructions with the first entry inlined).
 */
static __always_inline int dynpf_chain_step(struct dynpf_cls_scratch *cs, const struct dynpf_pkt *p,
					    const struct bpf_dynptr *dp, __u32 idx,
					    struct dynpf_rule_ent **ep, void *ctx)
{
	struct dynpf_rule_ent *e = dynpf_ent(idx);
	int q;

	*ep = e;
	if (!e || !dynpf_before(e->r.prio, e->r.id, cs->best_prio, cs->best))
		return 0;
	/* Another key in the bucket; or this key's hash, from another tuple:
	 * a rule must be met through its own tuple only, or a non-terminal
	 * one would act twice. dynpf_hash6() sums its products, so words
	 * that differ only in their top bytes (the slot, an IPv6 prefix's
	 * last byte) give one hash for 1 pair in 256: test_ctrl's churn met
	 * it with a /126 and a /128 tuple. */
	if (e->hash != cs->hash || e->tuple != cs->slot)
		return 1;
	/* Life is tested after the inline rejections: most entries a key
	 * meets fail one of them, and then life does not matter. */
	q = dynpf_quick(&e->r, &e->q, &cs->q[e->r.m.stack & (DYNPF_MAX_STACKS - 1)], p);
	if (q != DYNPF_Q_FAIL && dynpf_ent_alive(e, cs->gen) &&
	    (q == DYNPF_Q_MATCH ||
	     (dynpf_rule_match_g(&e->r, p, &cs->view) &&
	      (!(e->r.m.fields & DYNPF_M_DATA) ||
	       (DYNPF_DP_MAKE(ctx, dp), dynpf_rule_data_g(dp, &e->r, p, &cs->view))))))
		return !dynpf_cls_hit(cs, e, idx);
	return 1;
}

/*
 * Walk one chain from entry idx: chains are in (prio, id) order, so stop at
 * the first rule that cannot beat the best match, or at the first terminal
 * match; collect the non-terminal matches on the way.
 */
static __always_inline void dynpf_chain(struct dynpf_cls_scratch *cs, const struct dynpf_pkt *p,
					const struct bpf_dynptr *dp, __u32 idx, void *ctx)
{
	struct dynpf_rule_ent *e;

	/* A may_goto loop: checked once by the verifier, no call per entry. */
	while (idx) {
		dynpf_cond_break;
		if (!dynpf_chain_step(cs, p, dp, idx, &e, ctx))
			break;
		idx = e->next;
	}
}

/*
 * The catch-alls' chain (dynpf_state.any_head), from entry idx, before any
 * tuple: every entry matches (dynpf_rule_any()), so the first alive at the
 * packet's generation that is terminal is the best match so far, and the
 * non-terminal ones before it are collected. No key, no quick test: against
 * the catch-all in a konst tuple of its own, probed as the others (tuple,
 * head, entry, quick test: a chain of dependent loads), syn with that
 * catch-all alone 126 -> 109-111 ns on xdp, with the bench's 10,000 rules
 * 158 -> 149-157 (alternating runs).
 */
static __always_inline void dynpf_any_chain(struct dynpf_cls_scratch *cs, __u32 idx)
{
	struct dynpf_rule_ent *e;

	while (idx) {
		dynpf_cond_break;
		e = dynpf_ent(idx);
		if (!e)
			break;
		if (dynpf_ent_alive(e, cs->gen) && dynpf_cls_hit(cs, e, idx))
			break;
		idx = e->next;
	}
}

/*
 * The non-terminal rules found before the terminal one act, in (prio, id)
 * order. Returns DYNPF_ACT_DROP when a limit rule drops the packet.
 */
DYNPF_SUBPROG int dynpf_nonterm(struct dynpf_cls_scratch *cs, const struct dynpf_pkt *p,
				struct dynpf_verdict *out)
{
	struct dynpf_rule_ent *e;
	__u32 i, k;

	if (!cs || !p || !out)
		return 0;
	bpf_for(i, 0, DYNPF_MAX_NONTERM) {
		__u32 pick = 0, pick_prio = 0xffffffff, slot = 0;

		for (k = 0; k < DYNPF_MAX_NONTERM; k++) {
			__u32 id = cs->coll[k], prio = cs->coll_prio[k];

			if (id && dynpf_before(prio, id, pick_prio, pick)) {
				pick = id;
				pick_prio = prio;
				slot = k;
			}
		}
		if (!pick)
			break;
		slot &= DYNPF_COLL_SLOTS - 1;
		cs->coll[slot] = 0;
		if (!dynpf_before(pick_prio, pick, cs->best_prio, cs->best))
			continue;
		e = dynpf_ent(cs->coll_ent[slot]);
		if (!e)
			continue;
		dynpf_rule_count(pick, p->pkt_len);
		if (out->nmatch < DYNPF_MAX_NONTERM)
			out->match[out->nmatch++ % DYNPF_MAX_NONTERM] = pick;
		switch (e->r.action) {
		case DYNPF_ACT_MARK:
			out->mark = e->r.arg;
			out->flags |= DYNPF_VF_MARK;
			break;
		case DYNPF_ACT_SAMPLE:
			/* The caller sends it: a global subprogram cannot keep a
			 * dynptr argument across a spill. */
			if (!out->sample &&
			    dynpf_bucket_take(pick, e->r.sample_rate, e->r.sample_rate)) {
				out->sample = pick;
				out->sample_len = e->r.sample_len;
			}
			break;
		case DYNPF_ACT_LIMIT:
			if (!dynpf_bucket_take(pick, e->r.arg, e->r.burst)) {
				out->rule = pick;
				out->action = DYNPF_ACT_DROP;
				return DYNPF_ACT_DROP;
			}
			break;
		}
	}
	return 0;
}

/*
 * Drop from the tuples m of stack s those that the quick filters say hold
 * no rule the packet can match (rules/quick.h): per dimension, a tuple with
 * a rule that does not test it stays (qwild), another only if one of its
 * rules can match the packet's value there, byte d of qv
 * (dynpf_qf_word()). Two loads a dimension, no branch: against a loop that
 * loaded a dimension's values only when a candidate's rules all test it,
 * syn with 10,000 rules 2-4% faster, ipv6-udp the same (bench --versus,
 * both ways round, 2 runs each). The values are one word, shifted per step,
 * not bytes stored in the scratch area and loaded back one by one: values
 * made in a register before each step, against those bytes, took syn with
 * 10,000 rules 1-4% less time, ipv6-udp the same (bench --versus, both
 * ways round, 2 runs each, in two sessions of 2026-12-06), on the wire
 * (bench --live --versus, 3 runs each way) 0-2%, within its noise.
 * barrier_var() keeps clang from hoisting all 16 loads first: the TC
 * programs' frames would pass the 512 bytes their calls may share.
 */
static __always_inline __u64 dynpf_qf_filter(__u64 m, __u64 qv, __u32 s)
{
	struct dynpf_tuple_sel *sel;
	struct dynpf_qsel *qs;
	__u32 zero = 0;

	/* One candidate (one tuple, first, with no load): its probe costs
	 * what the filters would (tcp-opt40 with "tcp option 8 pass", which
	 * they keep: 1.14x with them). */
	if (!(m & (m - 1)))
		return m;
	/* The selection looked up again (an inlined load of its address): as
	 * the caller's, clang kept its fields' addresses in the frame, and the
	 * TC programs' frames went past the 512 bytes their calls may share. */
	sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &zero);
	s &= DYNPF_MAX_STACKS - 1;
	if (!sel || !(m & sel->stk[s].qany))
		return m;
	qs = bpf_map_lookup_elem(&dynpf_qsel, &zero);
	if (!qs)
		return m;
#define DYNPF_QF_STEP(d)                                                           \
	do {                                                                       \
		m &= sel->stk[s].qwild[d] | qs->t[s][d][(qv >> (8 * (d))) & 0xff]; \
		barrier_var(m);                                                    \
	} while (0)
	_Static_assert(DYNPF_QF_N == 8, "a step per dimension");
	DYNPF_QF_STEP(0);
	DYNPF_QF_STEP(1);
	DYNPF_QF_STEP(2);
	DYNPF_QF_STEP(3);
	DYNPF_QF_STEP(4);
	DYNPF_QF_STEP(5);
	DYNPF_QF_STEP(6);
	DYNPF_QF_STEP(7);
#undef DYNPF_QF_STEP
	return m;
}

/*
 * The candidates' cache: per CPU, the outer stack's candidate tuples
 * (dynpf_tuple_cands()) of the last packets, by what they are made of: the
 * generation (the rules alive, and so the selection's and both filters'
 * bits, which the drain sets for a rule before the generation that makes it
 * alive is published and clears only a grace period after it died), the
 * view's family, layer 4 and protocol, the field filters' four values and
 * the quick filters' eight. Equal inputs at one generation give what the
 * selection and the filters give (a bit cleared since, a superset: a probe
 * for nothing, no match missed), so a packet of a flow seen at this
 * generation reads one entry instead of the selection's, the 16 quick
 * filters' and the 4 field filters' lines. Direct-mapped: a packet whose
 * inputs differ from the entry's makes its candidates and takes the entry.
 * A commit makes every entry stale (its generation). The entries:
 * struct dynpf_ccache, include/dynpf/ctrl.h (test_ctrl reads them).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_ccache);
} dynpf_ccache SEC(".maps");

/*
 * The candidate tuples of a packet: per stack, by family and protocol, then
 * through the quick filters its TCP flags, TTL, DSCP, port ranges, TLVs
 * and values pass, and the field filters its addresses and ports pass
 * (rules.h). A stack's quick fields are made only when one of its tuples
 * is a candidate (a packet without a tunnel makes none for the inner
 * stack), and its key only when one of them that is not konst
 * (dynpf_tuple_sel.keyed) is left after the filters, which read the
 * parse, not the key (dynpf_fs_filter()): against the key made before
 * the field filters, with 10,000 rules (which the syn and ipv6-udp
 * packets match none of), syn 0.970-1.008x, ipv6-udp 0.953-0.977x (its
 * key holds 32 bytes of addresses; bench --versus, 15 runs, 4 runs).
 * Against a konst tuple alone (a catch-all's, before catch-alls had a chain
 * of their own), the key and the filters cost 2 ns for syn and 6 ns for
 * ipv6-udp (its addresses are 32 bytes).
 */
static __always_inline __u64 dynpf_tuple_cands(struct dynpf_cls_scratch *cs,
					       const struct dynpf_pkt *p, __u64 pub)
{
	const struct dynpf_cls_view *v = &cs->view;
	__u32 s, f, zero = 0, nst = DYNPF_MAX_STACKS;
	struct dynpf_tuple_sel *sel;
	struct dynpf_ccache *cc;
	struct dynpf_cc_ent *ce;
	__u64 cand = 0, m, qv, fsv, tag, idx;

	sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &zero);
	cc = bpf_map_lookup_elem(&dynpf_ccache, &zero);
	if (!sel || !cc)
		return 0;
	/* No rule alive at the packet's generation reads the inner stack
	 * (pub's needs, dynpf_rule_needs()), or no tuple of it is in the
	 * selection (dynpf_run() turns the need off then): its tuples hold
	 * none the packet can match, and its part of the selection, a cache
	 * line, is left unread. */
	if (!(pub & DYNPF_NEED_INNER))
		nst = 1;
	/* Unrolled: each stack's fields at constant offsets, fewer of the
	 * loop's addresses kept in the frame (clang spilled them). With
	 * 10,000 rules syn 0.89-0.99x the time, ipv6-udp 0.96x, the live
	 * capture's frames (--frames, warm) 0.95-0.97x (bench --versus, both
	 * ways round); 0 and 1 rule the same. The verifier: dynpf_xdp 635k ->
	 * 654k instructions, the TC programs 528k -> 659k (611k and 512k
	 * since dynpf_run() reads dynpf_state.inner_sel). */
#pragma unroll
	for (s = 0; s < DYNPF_MAX_STACKS; s++) {
		if (s >= nst)
			break;
		f = v->s[s].l3 == 4 ? 1 : v->s[s].l3 == 6 ? 2 : 0;
		/* The inner stack has no cache: with no tuple in its
		 * selection, no values to make (its selection is read again
		 * below, the same lines). */
		if (s && !(sel->stk[s].fam[f] & (f ? sel->proto[s][v->s[s].proto] : ~0ull)))
			continue;
		dynpf_cls_quick_init(cs, p, s);
		qv = dynpf_qf_word(&cs->q[s & (DYNPF_MAX_STACKS - 1)], p, s);
		fsv = dynpf_fs_vals(&p->st[s], &v->s[s], f == 2);
		if (s == 0 && !DYNPF_CC_OFF) {
			tag = ~(cs->gen << 24 | (v->w[0] & 0xffffff));
			idx = ((fsv ^ qv * 0x9e3779b97f4a7c15ull ^ tag) * 0xff51afd7ed558ccdull) >>
			      56;
			ce = &cc->e[idx & (DYNPF_CC_SLOTS - 1)];
			if (ce->tag == tag && ce->fsv == fsv && ce->qv == qv) {
				m = ce->cand;
				goto key;
			}
			/* Taken now, its candidates stored last: no other
			 * packet runs on this CPU before this one is done
			 * (XDP and TC ingress run in the softirq, TC egress
			 * with it held off; the per-CPU scratch areas rest
			 * on the same). A torn entry would outlive its
			 * packet, where a torn scratch area would not. */
			ce->tag = tag;
			ce->fsv = fsv;
			ce->qv = qv;
			cs->cc = idx;
		}
		/* The values kept in the scratch area, not in the frame: in
		 * registers across the filters, the TC programs' frames went
		 * past the 512 bytes their calls may share. */
		cs->qv = qv;
		cs->fsv = fsv;
		barrier_var(cs);
		m = sel->stk[s].fam[f];
		if (f)
			m &= sel->proto[s][v->s[s].proto];
		if (DYNPF_CAND_STOP(SELECT))
			continue;
		m = dynpf_qf_filter(m, cs->qv, s);
		if (DYNPF_CAND_STOP(QUICK))
			continue;
		/* Only konst tuples (flags, TTL, ranges): no key, no filter. */
		if (f && (m & sel->stk[s].keyed))
			m = dynpf_fs_filter_v(sel, m, cs->fsv, s, f == 2);
		if (s == 0 && !DYNPF_CC_OFF) {
			/* The entry found again by its index (cs->cc): its
			 * address kept across the filters went to the frame. */
			cc = bpf_map_lookup_elem(&dynpf_ccache, &zero);
			if (cc)
				cc->e[cs->cc & (DYNPF_CC_SLOTS - 1)].cand = m;
		}
key:
		/* The key, for the probes: none when no keyed tuple is left
		 * (the packet that matches nothing, most of them), and the
		 * selection's line not read when no tuple is. */
		if (m && (m & sel->stk[s].keyed))
			dynpf_pkt_key(&cs->keys[s], p, v, s);
		if (DYNPF_CAND_STOP(FIELD))
			continue;
		cand |= m;
	}
	return cand;
}

/*
 * Classify the packet p with the rules alive at the generation of pub (the
 * state's published word, read once by the packet): fills out and returns
 * the terminal action (DYNPF_ACT_PASS, _DROP, _REDIRECT). Inlined: a call
 * costs about 12 ns on this CPU (its return goes through the SRSO "safe
 * RET" thunk), a fifth of classifying against one rule, and the verifier
 * merges the states the parse ends in before it gets here (the cursor is
 * dead by then): inlined, it walks about 4k more instructions.
 */
static __always_inline int dynpf_classify(const struct dynpf_pkt *p, struct dynpf_verdict *out,
					  __u64 pub, const struct bpf_dynptr *dp, __u32 any_head,
					  __u32 tuples, void *ctx)
{
	struct dynpf_cls_scratch *cs;
	struct dynpf_rule_ent *e;
	__u32 i, zero = 0;
	__u64 cand = 0;

	/* out: zeroed, its generation set (dynpf_classify_or_pass()). */
	if (!p || !out)
		return DYNPF_ACT_PASS;
	out->action = pub & DYNPF_PUB_DROP ? DYNPF_ACT_DROP : DYNPF_ACT_PASS;
	cs = bpf_map_lookup_elem(&dynpf_cls_scratch, &zero);
	if (!cs)
		return DYNPF_ACT_PASS;
	/*
	 * The view of the parse, only for what reads it: the tuples' rules
	 * and the ARP/ND test. A rule set of catch-alls alone (tuples 0: no
	 * tuple slot in use, dynpf_run()) needs neither for most packets:
	 * with a catch-all alone, syn 108 -> 104 ns, ipv6-udp 107 -> 102
	 * (bench --versus, 9 runs).
	 */
	/* pub's bit tested twice: kept in a local, it took a packet program
	 * past the verifier's 1M instructions. */
	if (tuples || (!(pub & DYNPF_PUB_ARP_ND_RULES) && dynpf_maybe_arp_nd(p))) {
		dynpf_cls_view_init(&cs->view, p);
		if (!(pub & DYNPF_PUB_ARP_ND_RULES) && dynpf_is_arp_nd(p, &cs->view)) {
			out->action = DYNPF_ACT_PASS;
			return DYNPF_ACT_PASS;
		}
	}
	if (!(pub & DYNPF_PUB_RULES))
		return out->action;
	cs->gen = DYNPF_PUB_GEN(pub);
	cs->best = 0;
	cs->best_prio = 0xffffffff;
	cs->best_ent = 0;
	cs->nc = 0;
	__builtin_memset(cs->coll, 0, sizeof(cs->coll));
	/* The catch-alls first: their best is the bar every tuple must beat
	 * (any_head read after pub: dynpf_run()). */
	dynpf_any_chain(cs, any_head);

	/*
	 * The tuples that can hold a rule for this packet (rules.h, "Tuple
	 * selection"), walked in slot order; a plain bounded loop, no
	 * iterator kfunc call per tuple.
	 */
	if (tuples && !DYNPF_CAND_STOP(NONE))
		cand = dynpf_tuple_cands(cs, p, pub);
	/* Addresses in cs made again, not kept in the frame from before the
	 * candidates: the TC programs' calls may use 512 bytes of stack. */
	barrier_var(cs);
	while (cand) {
		dynpf_cond_break;
		struct dynpf_tuple *tu;
		__u32 *head, *khead;

		i = __builtin_ctzll(cand);
		cand &= cand - 1;
		tu = dynpf_tuple(i);
		/* A konst tuple's chain hangs from its own head (dynpf_kheads),
		 * looked up beside the tuple. Not in the konst branch below:
		 * clang merged it with the bucket's lookup into one call site
		 * of two maps, which the verifier does not inline (a call: 1
		 * rule 13 ns slower). */
		khead = dynpf_khead(i);
		if (!tu || !tu->used || tu->min_prio > cs->best_prio)
			continue;
		/* The tuple's stack is kept in its mask's pad byte; its slot
		 * goes in the key's (dynpf_key_hash). */
		if (tu->konst) {
			cs->hash = tu->khash;
			head = khead;
		} else {
			cs->hash = dynpf_key_hash_masked(&cs->keys[tu->mask.pad & 1], &tu->mask, i);
			head = dynpf_head(cs->hash);
		}
		cs->slot = i;
		if (head && *head)
			dynpf_chain(cs, p, dp, *head, ctx);
	}
	if (cs->nc && dynpf_nonterm(cs, p, out) == DYNPF_ACT_DROP)
		return DYNPF_ACT_DROP;
	if (!cs->best)
		return out->action;
	e = dynpf_ent(cs->best_ent);
	if (!e)
		return out->action;
	dynpf_rule_count(cs->best, p->pkt_len);
	out->rule = cs->best;
	out->action = e->r.action;
	out->arg = e->r.arg;
	return e->r.action;
}

/*
 * dynpf_classify() at the published word pub the packet read (dynpf_run():
 * once, for its parse and its classification), without its work when no
 * rule is alive and the default passes (a fresh attach, a parse-only run):
 * the verdict is known.
 */
static __always_inline void dynpf_classify_or_pass(const struct dynpf_pkt *p,
						   struct dynpf_verdict *out, __u64 pub,
						   const struct bpf_dynptr *dp, __u32 any_head,
						   __u32 tuples, void *ctx)
{
	__builtin_memset(out, 0, sizeof(*out));
	out->gen = DYNPF_PUB_GEN(pub);
	/* One branch, not one per test: the verifier walks the rest of the
	 * program once per path that gets here. */
	out->action = !(pub & (DYNPF_PUB_RULES | DYNPF_PUB_DROP)) * DYNPF_ACT_PASS;
	if (!out->action)
		dynpf_classify(p, out, pub, dp, any_head, tuples, ctx);
}

#endif /* DYNPF_BPF_CLASSIFY_H */
