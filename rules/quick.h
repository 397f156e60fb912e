/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The classifier's quick test: what dynpf_rule_match() (match.h) would say
 * of a chain entry on the commonest fields, decided inline in the chain walk
 * (bpf/classify.h) before any call, for the BPF programs and, to test it,
 * for user space.
 *
 * Most entries a packet meets past its key fail here (the near misses of a
 * rule set: same key, another TCP flag, TTL, port range, DSCP ...), so the
 * test is made for them: the drain turns each rule, once, as it links the
 * entry, into a struct dynpf_qtest (dynpf_qtest_make()), and the packet
 * makes, once per stack, one 64-bit word of its exact fields and its
 * ranged ones apart (struct dynpf_quick). One masked compare and three
 * range checks, in arithmetic, then one branch: no branch per field, taken
 * one way for one entry and the other for the next (a test of the rule's
 * fields per entry cost about 10 ns an entry on syn, bench --versus with a
 * variant that skipped it for the near misses).
 *
 * A rule's first TLV test and first value test follow (the bitmap of types
 * seen, the TCP MSS and window scale), and then DYNPF_Q_ASK when the rule
 * tests more than this decides: dynpf_rule_match() says.
 */
#ifndef DYNPF_RULES_QUICK_H
#define DYNPF_RULES_QUICK_H

#include "match.h"

/*
 * The packet's quick word (struct dynpf_quick.w), per stack: the TCP flags
 * (0 without TCP), what the stack has, the IP fields valid with an IP
 * header, and the interface. A rule's want and mask (struct dynpf_qtest)
 * are in the same layout.
 */
#define DYNPF_QW_FLAGS 0xffull      /* TCP flags, with DYNPF_QW_TCP */
#define DYNPF_QW_TCP (1ull << 8)    /* a TCP header */
#define DYNPF_QW_PORTS (1ull << 9)  /* TCP or UDP: ports valid */
#define DYNPF_QW_L3 (1ull << 10)    /* an IP header: family, protocol, DSCP, TTL valid */
#define DYNPF_QW_NEVER (1ull << 11) /* never set: a rule no packet matches */
#define DYNPF_QW_FAM_SHIFT 12       /* 4 bits: 4 or 6 */
#define DYNPF_QW_PROTO_SHIFT 16     /* 8 bits */
#define DYNPF_QW_DSCP_SHIFT 24      /* 6 bits */
#define DYNPF_QW_IF_SHIFT 32        /* the interface's index */

/*
 * The fields the quick test decides exactly as dynpf_rule_match() does: a
 * rule that tests nothing else, and at most one TLV and one value test of
 * the kinds dynpf_quick_tlv() and dynpf_quick_val() decide, is decided
 * without the call (the catch-all, "tcp dport 22", "udp", "tcp flags syn /
 * syn,ack", "ip6 exthdr routing", "tcp option mss missing", "tcp mss 1-535",
 * "geneve option 0x0102:0x80").
 */
#define DYNPF_QUICK_FIELDS                                                               \
	(DYNPF_M_IFINDEX | DYNPF_M_FAMILY | DYNPF_M_PROTO | DYNPF_M_TTL | DYNPF_M_DSCP | \
	 DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS)

/* dynpf_quick()'s answers. */
enum {
	DYNPF_Q_MATCH = 0, /* the rule matches */
	DYNPF_Q_FAIL,      /* it does not */
	DYNPF_Q_ASK,       /* no rejection here: dynpf_rule_match() decides */
};

/* Per stack, the packet's side of the test (dynpf_quick_init()). */
struct dynpf_quick {
	__u64 w; /* DYNPF_QW_* */
	__u16 sport;
	__u16 dport;
	__u8 ttl;
	__u8 l3;  /* 4 or 6; 0: no IP header */
	__u8 tcp; /* a TCP header: the options were decoded (if parsed) */
	__u8 pad;
};

/* A range lo..hi as a start and a span (x in it: x - lo <= span, unsigned). */
#define DYNPF_QSPAN(lo, hi) ((hi) >= (lo) ? (hi) - (lo) : 0)

/*
 * An exact field of the quick word, bits wide at shift: its bits in the
 * mask, v in the want; a value wider than the field never matches.
 */
dynpf_inline void dynpf_qfield(__u64 *want, __u64 *mask, __u64 v, __u32 bits, __u32 shift)
{
	__u64 all = (1ull << bits) - 1;

	*mask |= all << shift;
	*want |= (v & all) << shift;
	if (v > all)
		*want |= DYNPF_QW_NEVER;
}

/*
 * Rule r's quick test, into qt: made once, by the drain as it links the
 * entry (and by tests). A range whose end is below its start (no rule
 * check allows it, but the test must not say otherwise than
 * dynpf_rule_match()) and flags the mask cannot hold set the never bit.
 */
dynpf_inline void dynpf_qtest_make(const struct dynpf_rule *r, struct dynpf_qtest *qt)
{
	const struct dynpf_match *m = &r->m;
	__u32 f = m->fields;
	__u64 want = 0, mask = 0;

	*qt = (struct dynpf_qtest){ .sport_span = 0xffff, .dport_span = 0xffff, .ttl_span = 0xff };
	if (f & DYNPF_M_IFINDEX)
		dynpf_qfield(&want, &mask, m->ifindex, 32, DYNPF_QW_IF_SHIFT);
	if (f & (DYNPF_M_FAMILY | DYNPF_M_PROTO | DYNPF_M_TTL | DYNPF_M_DSCP)) {
		mask |= DYNPF_QW_L3;
		want |= DYNPF_QW_L3;
	}
	if (f & DYNPF_M_FAMILY)
		dynpf_qfield(&want, &mask, m->family, 4, DYNPF_QW_FAM_SHIFT);
	if (f & DYNPF_M_PROTO)
		dynpf_qfield(&want, &mask, m->proto, 8, DYNPF_QW_PROTO_SHIFT);
	if (f & DYNPF_M_DSCP)
		dynpf_qfield(&want, &mask, m->dscp, 6, DYNPF_QW_DSCP_SHIFT);
	if (f & DYNPF_M_TTL) {
		qt->ttl_lo = m->ttl_lo;
		qt->ttl_span = DYNPF_QSPAN(m->ttl_lo, m->ttl_hi);
		if (m->ttl_hi < m->ttl_lo)
			want |= DYNPF_QW_NEVER;
	}
	if (f & (DYNPF_M_SPORT | DYNPF_M_DPORT)) {
		mask |= DYNPF_QW_PORTS;
		want |= DYNPF_QW_PORTS;
	}
	if (f & DYNPF_M_SPORT) {
		qt->sport_lo = m->sport_lo;
		qt->sport_span = DYNPF_QSPAN(m->sport_lo, m->sport_hi);
		if (m->sport_hi < m->sport_lo)
			want |= DYNPF_QW_NEVER;
	}
	if (f & DYNPF_M_DPORT) {
		qt->dport_lo = m->dport_lo;
		qt->dport_span = DYNPF_QSPAN(m->dport_lo, m->dport_hi);
		if (m->dport_hi < m->dport_lo)
			want |= DYNPF_QW_NEVER;
	}
	if (f & DYNPF_M_TCP_FLAGS) {
		mask |= DYNPF_QW_TCP | m->tcp_flags_mask;
		want |= DYNPF_QW_TCP | m->tcp_flags;
		if (m->tcp_flags & ~m->tcp_flags_mask)
			want |= DYNPF_QW_NEVER; /* (flags & mask) never equals it */
	}
	if (want & DYNPF_QW_NEVER)
		mask |= DYNPF_QW_NEVER;
	qt->want = want;
	qt->mask = mask;
	qt->more = (f & ~DYNPF_QUICK_FIELDS) || m->ntlv || m->nval;
}

/* Stack s's side of the test, from the view of the parse (match.h). */
dynpf_inline void dynpf_quick_init(struct dynpf_quick *q, const struct dynpf_cls_stack *v,
				   const struct dynpf_stack *st, __u32 ifindex)
{
	__u64 w = (__u64)ifindex << DYNPF_QW_IF_SHIFT;

	q->l3 = v->l3;
	q->tcp = v->l4 == DYNPF_P_TCP;
	q->sport = st->l4.sport;
	q->dport = st->l4.dport;
	q->ttl = st->l3.ttl;
	if (q->tcp)
		w |= DYNPF_QW_TCP | st->l4.flags;
	if (dynpf_has_ports(v->l4))
		w |= DYNPF_QW_PORTS;
	if (v->l3)
		w |= DYNPF_QW_L3 | (__u64)(v->l3 & 0xf) << DYNPF_QW_FAM_SHIFT |
		     (__u64)v->proto << DYNPF_QW_PROTO_SHIFT |
		     (__u64)(st->l3.tos >> 2) << DYNPF_QW_DSCP_SHIFT;
	q->w = w;
}

/*
 * A TLV test as dynpf_tlv_present() makes it: a family's bitmap of types
 * seen (exact for the built-in families of 8-bit types), then for Geneve's
 * and declared protocols' types the family's list (a call less for a rule
 * on a Geneve option: geneve8 on xdp 341-362 -> 326-332 ns, alternating
 * bench runs), or an IPv6 extension header of stack s. DYNPF_Q_ASK for a
 * family past the lists.
 */
dynpf_inline int dynpf_quick_tlv(const struct dynpf_tlv_test *t, const struct dynpf_pkt *p,
				 const struct dynpf_quick *q, __u32 s)
{
	__u32 f = t->family, type = t->type, present, e;

	if (f == DYNPF_TT_EXT) {
		e = dynpf_ext_of_ipproto(type);
		present = e && q->l3 == 6 &&
			  (p->st[s & 1].ip6.seen & (1u << ((e - DYNPF_P_HOPOPTS) & 15)));
	} else if (f < DYNPF_TLV_NALL) {
		const struct dynpf_tlv_list *l = &p->tlv[f];

		present = (l->seen[(type >> 6) & 3] >> (type & 63)) & 1;
		/* Types wider than the bitmap's 8 bits (Geneve's, declared
		 * ones): the list, as dynpf_tlv_present() reads it. */
		if (present && (f == DYNPF_TLV_GENEVE_OPT || f >= DYNPF_TLV_NFAM)) {
			__u32 i;

			present = 0;
			for (i = 0; i < DYNPF_MAX_TLVS; i++) {
				dynpf_cond_break;
				if (i >= l->n)
					break;
				if (l->ent[i].type == type) {
					present = 1;
					break;
				}
			}
		}
	} else {
		return DYNPF_Q_ASK;
	}
	return !!present == t->neg ? DYNPF_Q_FAIL : DYNPF_Q_MATCH;
}

/* A value test as dynpf_pkt_val() makes it: the TCP MSS and window scale. */
dynpf_inline int dynpf_quick_val(const struct dynpf_val_test *t, const struct dynpf_pkt *p,
				 const struct dynpf_quick *q, __u32 s)
{
	const struct dynpf_l4 *l4 = &p->st[s & 1].l4;
	__u32 val;

	switch (t->field) {
	case DYNPF_V_MSS:
		if (!q->tcp || !(l4->opts & DYNPF_TCPO_MSS))
			return DYNPF_Q_FAIL;
		val = l4->mss;
		break;
	case DYNPF_V_WSCALE:
		if (!q->tcp || !(l4->opts & DYNPF_TCPO_WSCALE))
			return DYNPF_Q_FAIL;
		val = l4->wscale;
		break;
	default:
		return DYNPF_Q_ASK;
	}
	return val < t->lo || val > t->hi ? DYNPF_Q_FAIL : DYNPF_Q_MATCH;
}

/*
 * What dynpf_rule_match() would say of rule r (its quick test qt) on packet
 * p, whose stack r->m.stack has the side q: DYNPF_Q_MATCH, _FAIL, or _ASK.
 * Every rejection mirrors one of dynpf_rule_match()'s tests.
 */
dynpf_inline int dynpf_quick(const struct dynpf_rule *r, const struct dynpf_qtest *qt,
			     const struct dynpf_quick *q, const struct dynpf_pkt *p)
{
	__u32 s = r->m.stack & 1;
	__u64 bad;
	int t = DYNPF_Q_MATCH, v = DYNPF_Q_MATCH;

	/* Each term is nonzero when its test fails: no branch but the last. */
	bad = (q->w ^ qt->want) & qt->mask;
	bad |= ((__u64)qt->sport_span - (__u16)(q->sport - qt->sport_lo)) >> 63;
	bad |= ((__u64)qt->dport_span - (__u16)(q->dport - qt->dport_lo)) >> 63;
	bad |= ((__u64)qt->ttl_span - (__u8)(q->ttl - qt->ttl_lo)) >> 63;
	if (bad)
		return DYNPF_Q_FAIL;
	if (!qt->more)
		return DYNPF_Q_MATCH;
	/* The first TLV and value tests: "tcp option mss missing" and "ip6
	 * exthdr routing" fail here for most packets that reach them. */
	if (r->m.ntlv) {
		t = dynpf_quick_tlv(&r->m.tlv[0], p, q, s);
		if (t == DYNPF_Q_FAIL)
			return DYNPF_Q_FAIL;
	}
	if (r->m.nval) {
		v = dynpf_quick_val(&r->m.val[0], p, q, s);
		if (v == DYNPF_Q_FAIL)
			return DYNPF_Q_FAIL;
	}
	if ((r->m.fields & ~DYNPF_QUICK_FIELDS) || r->m.ntlv > 1 || r->m.nval > 1 || t || v)
		return DYNPF_Q_ASK;
	return DYNPF_Q_MATCH;
}

/*
 * Quick filters: tuples dropped before their probe, by the fields a rule
 * tests outside its key (the classifier's step 2 in docs/rules.md; the maps
 * in bpf/rules.h). The packet makes, per stack, one value per dimension
 * below, each of 8 bits (dynpf_qf_val()); a rule says which values of a
 * dimension it can match (dynpf_qf_rule()): all of them (it does not test
 * that field), or a set holding every value its tests accept. The drain
 * keeps, per stack,
 * dimension and value, the tuples with a rule that can match that value,
 * and per dimension the tuples with a rule that tests nothing there; a
 * packet probes a tuple only if every dimension lets it through. A
 * dimension's set is a superset of what the rule's tests accept (a port
 * range by its high bytes, the MSS by its high byte), never a subset:
 * dynpf_rule_match() and the quick test still decide.
 *
 * Ports pinned in the key (an exact port) are the field filters' already:
 * here, only port ranges.
 */
enum {
	DYNPF_QF_FLAGS,  /* the TCP flags (0 without TCP) */
	DYNPF_QF_TTL,    /* the TTL or hop limit */
	DYNPF_QF_DSCP,   /* the DSCP */
	DYNPF_QF_SPORT,  /* the source port's high byte */
	DYNPF_QF_DPORT,  /* the destination port's high byte */
	DYNPF_QF_TLV,    /* 8 TLVs seen or not: DYNPF_QF_TLV_* */
	DYNPF_QF_MSS,    /* 0: no MSS; 1 + its high byte (at most 255) */
	DYNPF_QF_WSCALE, /* 0: no window scale; 1 + its value (at most 255) */
	DYNPF_QF_N,
};
#define DYNPF_QF_VALS 256

/*
 * The TLVs of DYNPF_QF_TLV, the ones rules test most: the TCP options of
 * a SYN (any stack, as dynpf_tlv_present() finds them), then stack s's
 * IPv6 extension headers.
 */
#define DYNPF_QF_TLV_MSS 0     /* TCP option 2, 3, 4 and 8: bits 0 to 3 */
#define DYNPF_QF_TLV_HOPOPTS 4 /* extension headers: bits 4 to 7 */

/* The bit of DYNPF_QF_TLV a TLV test reads, or -1: the dimension does not hold it. */
dynpf_inline int dynpf_qf_tlv_bit(const struct dynpf_tlv_test *t)
{
	if (t->family == DYNPF_TLV_TCP_OPT) {
		switch (t->type) {
		case 2: /* MSS */
		case 3: /* window scale */
		case 4: /* SACK permitted */
			return DYNPF_QF_TLV_MSS + t->type - 2;
		case 8: /* timestamps */
			return DYNPF_QF_TLV_MSS + 3;
		}
		return -1;
	}
	if (t->family != DYNPF_TT_EXT)
		return -1;
	switch (dynpf_ext_of_ipproto(t->type)) {
	case DYNPF_P_HOPOPTS:
		return DYNPF_QF_TLV_HOPOPTS;
	case DYNPF_P_ROUTING:
		return DYNPF_QF_TLV_HOPOPTS + 1;
	case DYNPF_P_FRAGMENT:
		return DYNPF_QF_TLV_HOPOPTS + 2;
	case DYNPF_P_DSTOPTS:
		return DYNPF_QF_TLV_HOPOPTS + 3;
	}
	return -1;
}

/* A value's class in DYNPF_QF_MSS and _WSCALE: 1 + v >> shift, at most 255. */
dynpf_inline __u32 dynpf_qf_class(__u32 v, __u32 shift)
{
	v >>= shift;
	return 1 + (v < 254 ? v : 254);
}

/*
 * Stack s's value in dimension d (struct dynpf_quick q, made by
 * dynpf_quick_init()), each read where the quick test and
 * dynpf_rule_match() read it. With d a constant, inlined to its one case:
 * the classifier makes each value in a register right before its filter's
 * step (dynpf_qf_filter()).
 */
dynpf_inline __u32 dynpf_qf_val(const struct dynpf_quick *q, const struct dynpf_pkt *p, __u32 s,
				__u32 d)
{
	const struct dynpf_stack *st = &p->st[s & 1];
	__u64 tcpo;
	__u32 tlv, x;

	switch (d) {
	case DYNPF_QF_FLAGS:
		return q->w & DYNPF_QW_FLAGS;
	case DYNPF_QF_TTL:
		return q->ttl;
	case DYNPF_QF_DSCP:
		return (q->w >> DYNPF_QW_DSCP_SHIFT) & 0x3f;
	case DYNPF_QF_SPORT:
		return q->sport >> 8;
	case DYNPF_QF_DPORT:
		return q->dport >> 8;
	case DYNPF_QF_TLV:
		tcpo = p->tlv[DYNPF_TLV_TCP_OPT].seen[0];
		tlv = ((tcpo >> 2) & 7) | ((tcpo >> 5) & 8);
		if (q->l3 == 6) {
			x = st->ip6.seen;
			tlv |= ((x >> (DYNPF_P_HOPOPTS - DYNPF_P_HOPOPTS)) & 1) << 4 |
			       ((x >> (DYNPF_P_ROUTING - DYNPF_P_HOPOPTS)) & 1) << 5 |
			       ((x >> (DYNPF_P_FRAGMENT - DYNPF_P_HOPOPTS)) & 1) << 6 |
			       ((x >> (DYNPF_P_DSTOPTS - DYNPF_P_HOPOPTS)) & 1) << 7;
		}
		return tlv;
	case DYNPF_QF_MSS:
		if (q->tcp && (st->l4.opts & DYNPF_TCPO_MSS))
			return dynpf_qf_class(st->l4.mss, 8);
		return 0;
	case DYNPF_QF_WSCALE:
		if (q->tcp && (st->l4.opts & DYNPF_TCPO_WSCALE))
			return dynpf_qf_class(st->l4.wscale, 0);
		return 0;
	}
	return 0;
}

/*
 * Stack s's values in the 8 dimensions as one word, byte d the value of
 * dimension d: what the classifier's quick filters index and its
 * candidates' cache is keyed by (bpf/classify.h).
 */
dynpf_inline __u64 dynpf_qf_word(const struct dynpf_quick *q, const struct dynpf_pkt *p, __u32 s)
{
	__u64 qv = 0;
	__u32 d;

	for (d = 0; d < DYNPF_QF_N; d++)
		qv |= (__u64)(dynpf_qf_val(q, p, s, d) & 0xff) << (8 * d);
	return qv;
}

/* Stack s's values, one byte per dimension, into v (the tests' reference). */
dynpf_inline void dynpf_qf_vals(const struct dynpf_quick *q, const struct dynpf_pkt *p, __u32 s,
				__u8 *v)
{
	__u64 qv = dynpf_qf_word(q, p, s);
	__u32 d;

	for (d = 0; d < DYNPF_QF_N; d++)
		v[d] = qv >> (8 * d);
}

/* The values of a dimension a rule can match: lo <= v <= hi, (v & mask) == want. */
struct dynpf_qf_set {
	__u16 lo, hi; /* lo > hi: none */
	__u8 want, mask;
};

dynpf_inline int dynpf_qf_in(const struct dynpf_qf_set *c, __u32 v)
{
	return v >= c->lo && v <= c->hi && (v & c->mask) == c->want;
}

/* A port range's high bytes: 0 for an exact port (the key's: the field filters). */
dynpf_inline int dynpf_qf_port(struct dynpf_qf_set *c, __u32 lo, __u32 hi)
{
	if (lo == hi)
		return 0;
	c->lo = lo > hi ? 1 : lo >> 8;
	c->hi = lo > hi ? 0 : hi >> 8;
	return 1;
}

/*
 * Rule r's values of dimension d, into c: 0 if it can match any (it does
 * not test the field), 1 if only those of c. Every value a packet the rule
 * matches can have is in c: each test below is one of dynpf_rule_match()'s,
 * read as it reads it.
 */
dynpf_inline int dynpf_qf_rule(const struct dynpf_rule *r, __u32 d, struct dynpf_qf_set *c)
{
	const struct dynpf_match *m = &r->m;
	__u32 f = m->fields, i, lo = 1, hi = 255, field, shift;
	int b;

	*c = (struct dynpf_qf_set){ .lo = 0, .hi = 255 };
	switch (d) {
	case DYNPF_QF_FLAGS:
		if (!(f & DYNPF_M_TCP_FLAGS))
			return 0;
		c->want = m->tcp_flags;
		c->mask = m->tcp_flags_mask;
		if (m->tcp_flags & ~m->tcp_flags_mask)
			c->lo = 1, c->hi = 0; /* (flags & mask) never equals it */
		return 1;
	case DYNPF_QF_TTL:
		if (!(f & DYNPF_M_TTL))
			return 0;
		c->lo = m->ttl_lo;
		c->hi = m->ttl_hi;
		return 1;
	case DYNPF_QF_DSCP:
		if (!(f & DYNPF_M_DSCP))
			return 0;
		c->lo = m->dscp;
		c->hi = m->dscp > 63 ? 0 : m->dscp;
		return 1;
	case DYNPF_QF_SPORT:
		return (f & DYNPF_M_SPORT) && dynpf_qf_port(c, m->sport_lo, m->sport_hi);
	case DYNPF_QF_DPORT:
		return (f & DYNPF_M_DPORT) && dynpf_qf_port(c, m->dport_lo, m->dport_hi);
	case DYNPF_QF_TLV:
		for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
			if (i >= m->ntlv)
				break;
			b = dynpf_qf_tlv_bit(&m->tlv[i]);
			if (b < 0 || m->tlv[i].neg > 1)
				continue;
			if ((c->mask >> b) & 1 && ((c->want >> b) & 1) == m->tlv[i].neg)
				c->lo = 1, c->hi = 0; /* present and missing */
			c->mask |= 1u << b;
			c->want = (c->want & ~(1u << b)) | (!m->tlv[i].neg << b);
		}
		return c->mask != 0;
	case DYNPF_QF_MSS:
	case DYNPF_QF_WSCALE:
		field = d == DYNPF_QF_MSS ? DYNPF_V_MSS : DYNPF_V_WSCALE;
		shift = d == DYNPF_QF_MSS ? 8 : 0;
		b = 0;
		for (i = 0; i < DYNPF_MATCH_VALS; i++) {
			if (i >= m->nval)
				break;
			if (m->val[i].field != field)
				continue;
			b = 1;
			if (m->val[i].lo > m->val[i].hi) {
				lo = 1, hi = 0;
				break;
			}
			if (dynpf_qf_class(m->val[i].lo, shift) > lo)
				lo = dynpf_qf_class(m->val[i].lo, shift);
			if (dynpf_qf_class(m->val[i].hi, shift) < hi)
				hi = dynpf_qf_class(m->val[i].hi, shift);
		}
		/* Class 0, no such value, is never in: the test needs one. */
		c->lo = lo;
		c->hi = hi;
		return b;
	}
	return 0;
}

/*
 * The dimensions rule r tests, a bit each: the d for which dynpf_qf_rule()
 * returns 1, in one pass over the rule (the drain makes it for every rule
 * it links; test_ctrl holds it to dynpf_qf_rule()). Part of its tuple
 * (bpf/drain.bpf.c).
 */
dynpf_inline __u32 dynpf_qf_dims(const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	__u32 f = m->fields, dims = 0, i;

	if (f & DYNPF_M_TCP_FLAGS)
		dims |= 1u << DYNPF_QF_FLAGS;
	if (f & DYNPF_M_TTL)
		dims |= 1u << DYNPF_QF_TTL;
	if (f & DYNPF_M_DSCP)
		dims |= 1u << DYNPF_QF_DSCP;
	if ((f & DYNPF_M_SPORT) && m->sport_lo != m->sport_hi)
		dims |= 1u << DYNPF_QF_SPORT;
	if ((f & DYNPF_M_DPORT) && m->dport_lo != m->dport_hi)
		dims |= 1u << DYNPF_QF_DPORT;
	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		if (i >= m->ntlv)
			break;
		if (m->tlv[i].neg <= 1 && dynpf_qf_tlv_bit(&m->tlv[i]) >= 0)
			dims |= 1u << DYNPF_QF_TLV;
	}
	for (i = 0; i < DYNPF_MATCH_VALS; i++) {
		if (i >= m->nval)
			break;
		if (m->val[i].field == DYNPF_V_MSS)
			dims |= 1u << DYNPF_QF_MSS;
		if (m->val[i].field == DYNPF_V_WSCALE)
			dims |= 1u << DYNPF_QF_WSCALE;
	}
	return dims;
}

#endif /* DYNPF_RULES_QUICK_H */
