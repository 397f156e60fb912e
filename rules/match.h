/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What a rule means, in one place for the BPF programs and for user space:
 * the validation of a rule (every field of a RULE_ADD message is checked
 * here, by the drain program and by `dynpf rules check`), the match of a
 * rule against a parse result, and the key a rule and a packet have in the
 * classifier's tuple space (bpf/classify.h).
 *
 * dynpf_rule_match() alone defines whether a rule matches: the tuple space
 * only finds candidates, and a rule that matches a packet always has its key
 * equal to the packet's key under its mask (dynpf_rule_key()), so no match
 * is missed. The native build runs the same function over every rule in
 * priority order: the reference the BPF classifier is tested against.
 */
#ifndef DYNPF_RULES_MATCH_H
#define DYNPF_RULES_MATCH_H

#include "common.h"
#include "dynpf/ctrl.h"

#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif

/* The classifier's key: the fields a rule can match exactly or by prefix. */
struct dynpf_key {
	union {
		struct {
			__u32 ifindex;
			__u8 stack;
			__u8 family;
			__u8 proto;
			__u8 pad;
			__u16 sport;
			__u16 dport;
			__u32 pad2;
			__u8 src[16];
			__u8 dst[16];
		};
		__u64 w[6];
	};
};
_Static_assert(sizeof(struct dynpf_key) == 48, "dynpf_key");

/*
 * Per stack, what the parse found: computed once per packet from layers[].
 * Only the structs of the headers listed there hold this packet's values
 * (the parser fills a header's struct when it parses the header and leaves
 * the others as they were), so every field a rule reads is guarded by one
 * of these.
 */
struct dynpf_cls_stack {
	__u8 l3;    /* 4, 6, or 0: no IP header */
	__u8 l4;    /* DYNPF_P_TCP, _UDP, _ICMP, _ICMPV6, or 0 */
	__u8 proto; /* IPv4 protocol / IPv6 upper-layer header (valid with l3) */
	__u8 l2;    /* 1: an Ethernet header */
	__u8 tun;   /* DYNPF_P_GRE, _VXLAN, _GENEVE, _GTPU: the tunnel header */
	__u8 mpls;  /* 1: MPLS labels */
	__u8 pad[2];
};

/* A stack's view as one word: set by one 64-bit store (dynpf_cls_view_plain()). */
struct dynpf_cls_view {
	union {
		struct dynpf_cls_stack s[DYNPF_MAX_STACKS];
		__u64 w[DYNPF_MAX_STACKS];
	};
};
_Static_assert(sizeof(struct dynpf_cls_stack) == 8, "a stack's view is a word");

#define DYNPF_NERRORS 8 /* DYNPF_E_OK .. DYNPF_E_BAD_HDR */

/*
 * The upper-layer protocol of an IPv6 stack: the next header after the
 * hop-by-hop, routing, fragment, destination options and AH headers; ESP
 * (50) ends the chain, as it does for nft's `meta l4proto`.
 */
dynpf_inline __u8 dynpf_ip6_upper(const struct dynpf_stack *st)
{
	__u8 proto = st->l3.proto;
	__u32 i;

	for (i = 0; i < DYNPF_MAX_EXT; i++) {
		const struct dynpf_ext *e = &st->ip6.ext[i];

		if (i >= st->ip6.n || e->proto == DYNPF_P_ESP)
			break;
		proto = e->nexthdr;
	}
	return proto;
}

/*
 * The view of any parse, from its layers in order: dynpf_cls_view_init()
 * and, for the common packet, the reference of dynpf_cls_view_plain()
 * (test_ctrl's quick test holds the two alike on every capture). Inlined:
 * the BPF classifier keeps v in its per-CPU scratch map value. (On a BPF
 * stack, clang would index v->s[] by or-ing the stack index into the frame
 * pointer, which the verifier refuses.)
 */
dynpf_inline void dynpf_cls_view_walk(struct dynpf_cls_view *v, const struct dynpf_pkt *p)
{
	__u32 i;

	__builtin_memset(v, 0, sizeof(*v));
	for (i = 0; i < DYNPF_MAX_LAYERS; i++) {
		const struct dynpf_layer *l = &p->layers[i];
		struct dynpf_cls_stack *s;

		if (i >= p->nlayers)
			break;
		s = &v->s[l->stack & (DYNPF_MAX_STACKS - 1)];
		switch (l->proto) {
		case DYNPF_P_ETH:
			s->l2 = 1;
			break;
		case DYNPF_P_IPV4:
			if (!s->l3)
				s->l3 = 4;
			break;
		case DYNPF_P_IPV6:
			if (!s->l3)
				s->l3 = 6;
			break;
		case DYNPF_P_TCP:
		case DYNPF_P_UDP:
		case DYNPF_P_ICMP:
		case DYNPF_P_ICMPV6:
			if (s->l3 && !s->l4)
				s->l4 = l->proto;
			break;
		case DYNPF_P_GRE:
		case DYNPF_P_VXLAN:
		case DYNPF_P_GENEVE:
		case DYNPF_P_GTPU:
			if (!s->tun)
				s->tun = l->proto;
			break;
		case DYNPF_P_MPLS:
			s->mpls = 1;
			break;
		}
	}
	for (i = 0; i < DYNPF_MAX_STACKS; i++) {
		const struct dynpf_stack *st = &p->st[i];

		if (v->s[i].l3 == 4)
			v->s[i].proto = st->l3.proto;
		else if (v->s[i].l3 == 6)
			v->s[i].proto = dynpf_ip6_upper(st);
	}
}

/*
 * The common packet, Ethernet, IPv4 or IPv6 and TCP, UDP, ICMP or ICMPv6,
 * all in the outer stack: its view made in a register and stored as one
 * word a stack (1), without the walk's branch per layer and field (0: not
 * such a packet). With 10,000 rules on the wire (bench --live --versus,
 * the medians of 7 pairs, three runs each way round) 1-2% more frames a
 * second; ipv6-udp 3-6% faster in test runs, syn the same; no more
 * instructions for the verifier (an earlier shortcut for the same packets
 * cost 57k more: docs/rules.md, "Tried and left out").
 */
dynpf_inline int dynpf_cls_view_plain(struct dynpf_cls_view *v, const struct dynpf_pkt *p)
{
	const struct dynpf_layer *l = p->layers;
	__u32 l3 = l[1].proto, l4 = l[2].proto;
	union {
		struct dynpf_cls_stack s;
		__u64 w;
	} s;

	if (p->nlayers != 3 || l[0].proto != DYNPF_P_ETH || l3 - DYNPF_P_IPV4 > 1 ||
	    l4 - DYNPF_P_TCP > DYNPF_P_ICMPV6 - DYNPF_P_TCP ||
	    (l[0].stack | l[1].stack | l[2].stack))
		return 0;
	_Static_assert(DYNPF_P_IPV6 == DYNPF_P_IPV4 + 1 && DYNPF_P_UDP == DYNPF_P_TCP + 1 &&
			       DYNPF_P_ICMP == DYNPF_P_TCP + 2 && DYNPF_P_ICMPV6 == DYNPF_P_TCP + 3,
		       "the ranges tested above");
	s.w = 0;
	s.s.l3 = l3 == DYNPF_P_IPV4 ? 4 : 6;
	s.s.l4 = l4;
	s.s.proto = l3 == DYNPF_P_IPV4 ? p->st[0].l3.proto : dynpf_ip6_upper(&p->st[0]);
	s.s.l2 = 1;
	v->w[0] = s.w;
	v->w[1] = 0;
	return 1;
}

/* The view of p's parse, per stack (struct dynpf_cls_stack). */
dynpf_inline int dynpf_cls_view_init(struct dynpf_cls_view *v, const struct dynpf_pkt *p)
{
	if (!v || !p)
		return 0;
	if (!dynpf_cls_view_plain(v, p))
		dynpf_cls_view_walk(v, p);
	return 0;
}

dynpf_inline int dynpf_has_ports(__u8 l4)
{
	return l4 == DYNPF_P_TCP || l4 == DYNPF_P_UDP;
}

/* The packet's key for the rules of one stack. */
dynpf_inline void dynpf_pkt_key(struct dynpf_key *k, const struct dynpf_pkt *p,
				const struct dynpf_cls_view *v, __u32 stack)
{
	const struct dynpf_cls_stack *cs = &v->s[stack & (DYNPF_MAX_STACKS - 1)];
	const struct dynpf_stack *st = &p->st[stack & (DYNPF_MAX_STACKS - 1)];

	__builtin_memset(k, 0, sizeof(*k));
	k->ifindex = p->ifindex;
	k->stack = stack;
	if (cs->l3) {
		k->family = cs->l3;
		k->proto = cs->proto;
		/* Only an IPv4 address's 4 bytes: the rest stays 0 (copied
		 * whole then cleared, clang cleared them a byte at a time). */
		if (cs->l3 == 4) {
			__builtin_memcpy(k->src, st->l3.saddr, 4);
			__builtin_memcpy(k->dst, st->l3.daddr, 4);
		} else {
			__builtin_memcpy(k->src, st->l3.saddr, 16);
			__builtin_memcpy(k->dst, st->l3.daddr, 16);
		}
	}
	if (dynpf_has_ports(cs->l4)) {
		k->sport = st->l4.sport;
		k->dport = st->l4.dport;
	}
}

dynpf_inline void dynpf_prefix_mask(__u8 *mask, __u32 plen)
{
	__u32 i;

	for (i = 0; i < 16; i++) {
		if (plen >= 8 * (i + 1))
			mask[i] = 0xff;
		else if (plen > 8 * i)
			mask[i] = (__u8)(0xff << (8 - (plen - 8 * i)));
		else
			mask[i] = 0;
	}
}

/*
 * A rule's key and mask: what a matching packet's key must equal under the
 * mask. Exact fields and prefixes only; ranges and everything else are left
 * to dynpf_rule_match().
 */
dynpf_inline void dynpf_rule_key(const struct dynpf_rule *r, struct dynpf_key *k,
				 struct dynpf_key *mask)
{
	const struct dynpf_match *m = &r->m;
	__u32 i;

	__builtin_memset(k, 0, sizeof(*k));
	__builtin_memset(mask, 0, sizeof(*mask));
	mask->stack = 0xff;
	k->stack = m->stack;
	if (m->fields & DYNPF_M_IFINDEX) {
		mask->ifindex = 0xffffffff;
		k->ifindex = m->ifindex;
	}
	if (m->fields & (DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST)) {
		mask->family = 0xff;
		k->family = m->family;
	}
	if (m->fields & DYNPF_M_PROTO) {
		mask->proto = 0xff;
		k->proto = m->proto;
	}
	if ((m->fields & DYNPF_M_SPORT) && m->sport_lo == m->sport_hi) {
		mask->sport = 0xffff;
		k->sport = m->sport_lo;
	}
	if ((m->fields & DYNPF_M_DPORT) && m->dport_lo == m->dport_hi) {
		mask->dport = 0xffff;
		k->dport = m->dport_lo;
	}
	if (m->fields & DYNPF_M_SRC)
		dynpf_prefix_mask(mask->src, m->src_plen);
	if (m->fields & DYNPF_M_DST)
		dynpf_prefix_mask(mask->dst, m->dst_plen);
	for (i = 0; i < 16; i++) {
		k->src[i] = m->src[i] & mask->src[i];
		k->dst[i] = m->dst[i] & mask->dst[i];
	}
}

dynpf_inline void dynpf_key_and(struct dynpf_key *out, const struct dynpf_key *k,
				const struct dynpf_key *mask)
{
	out->w[0] = k->w[0] & mask->w[0];
	out->w[1] = k->w[1] & mask->w[1];
	out->w[2] = k->w[2] & mask->w[2];
	out->w[3] = k->w[3] & mask->w[3];
	out->w[4] = k->w[4] & mask->w[4];
	out->w[5] = k->w[5] & mask->w[5];
}

dynpf_inline int dynpf_key_eq(const struct dynpf_key *a, const struct dynpf_key *b)
{
	return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] &&
	       a->w[3] == b->w[3] && a->w[4] == b->w[4] && a->w[5] == b->w[5];
}

/* IPv6 extension header protocol number -> DYNPF_P_*, or 0. */
dynpf_inline __u32 dynpf_ext_of_ipproto(__u32 n)
{
	switch (n) {
	case 0:
		return DYNPF_P_HOPOPTS;
	case 43:
		return DYNPF_P_ROUTING;
	case 44:
		return DYNPF_P_FRAGMENT;
	case 60:
		return DYNPF_P_DSTOPTS;
	case 51:
		return DYNPF_P_AH;
	case 50:
		return DYNPF_P_ESP;
	}
	return 0;
}

/* Is a TLV of this family and type in the packet (any header, any stack)? */
dynpf_inline int dynpf_tlv_present(const struct dynpf_pkt *p, const struct dynpf_stack *st,
				   const struct dynpf_cls_stack *cs, const struct dynpf_tlv_test *t)
{
	const struct dynpf_tlv_list *l;
	__u32 i;

	if (t->family == DYNPF_TT_EXT) {
		__u32 e = dynpf_ext_of_ipproto(t->type);

		return e && cs->l3 == 6 && (st->ip6.seen & (1u << ((e - DYNPF_P_HOPOPTS) & 15)));
	}
	if (t->family >= DYNPF_TLV_NALL)
		return 0;
	l = &p->tlv[t->family];
	if (!(l->seen[(t->type >> 6) & 3] & (1ull << (t->type & 63))))
		return 0;
	if (t->family != DYNPF_TLV_GENEVE_OPT && t->family < DYNPF_TLV_NFAM)
		return 1;
	/* Geneve, and declared protocols (types of up to 32 bits): the bitmap
	 * holds the low 8 bits of the type; the list has the whole of the
	 * first DYNPF_MAX_TLVS TLVs. */
	for (i = 0; i < DYNPF_MAX_TLVS; i++) {
		if (i >= l->n)
			break;
		if (l->ent[i].type == t->type)
			return 1;
	}
	return 0;
}

/* A decoded value of the packet, for a value test; 0: the packet has none. */
dynpf_inline int dynpf_pkt_val(const struct dynpf_pkt *p, const struct dynpf_stack *st,
			       const struct dynpf_cls_view *v, const struct dynpf_cls_stack *cs,
			       __u32 field, __u32 *out)
{
	const struct dynpf_tun *tun = &p->st[0].tun;
	__u32 i, tp = v->s[0].tun;

	switch (field) {
	case DYNPF_V_MSS:
		if (cs->l4 != DYNPF_P_TCP || !(st->l4.opts & DYNPF_TCPO_MSS))
			return 0;
		*out = st->l4.mss;
		return 1;
	case DYNPF_V_WSCALE:
		if (cs->l4 != DYNPF_P_TCP || !(st->l4.opts & DYNPF_TCPO_WSCALE))
			return 0;
		*out = st->l4.wscale;
		return 1;
	case DYNPF_V_VNI:
		if (tp != DYNPF_P_VXLAN && tp != DYNPF_P_GENEVE)
			return 0;
		*out = tun->vni;
		return 1;
	case DYNPF_V_TEID:
		if (tp != DYNPF_P_GTPU)
			return 0;
		*out = tun->key;
		return 1;
	case DYNPF_V_GRE_KEY:
		if (tp != DYNPF_P_GRE || !(tun->flags & 0x2000))
			return 0;
		*out = tun->key;
		return 1;
	case DYNPF_V_MPLS_LABEL:
		if (!v->s[0].mpls || !p->st[0].mpls.n)
			return 0;
		*out = p->st[0].mpls.lse[0] >> 12;
		return 1;
	case DYNPF_V_SEGLEFT:
		if (cs->l3 != 6)
			return 0;
		for (i = 0; i < DYNPF_MAX_EXT; i++) {
			if (i >= st->ip6.n)
				break;
			if (st->ip6.ext[i].proto == DYNPF_P_ROUTING) {
				*out = st->ip6.ext[i].segleft;
				return 1;
			}
		}
		return 0;
	}
	return 0;
}

/* The top plen bits of a 32-bit word in network order, as that word is loaded. */
dynpf_inline __u32 dynpf_mask32_be(__u32 plen)
{
	__u32 m = plen >= 32 ? 0xffffffffu : plen ? 0xffffffffu << (32 - plen) : 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	m = __builtin_bswap32(m);
#endif
	return m;
}

/*
 * Is address a in the prefix pfx/plen? Per packet, on every candidate rule
 * with an address: compared a 32-bit word at a time, and only as far as the
 * prefix goes (the rule's host bits are zero, dynpf_rule_check).
 */
dynpf_inline int dynpf_prefix_eq(const __u8 *a, const __u8 *pfx, __u32 plen)
{
	__u32 i, wa, wp;

	for (i = 0; i < 4; i++) {
		if (plen <= 32 * i)
			break;
		__builtin_memcpy(&wa, a + 4 * i, 4);
		__builtin_memcpy(&wp, pfx + 4 * i, 4);
		if ((wa & dynpf_mask32_be(plen - 32 * i)) != wp)
			return 0;
	}
	return 1;
}

/*
 * The packet's bytes, for the byte tests: in BPF its dynptr (the classifier
 * is handed it by the program), natively its buffer of p->pkt_len bytes.
 */
#if defined(__bpf__)
typedef const struct bpf_dynptr *dynpf_bytes_t;
#else
typedef const __u8 *dynpf_bytes_t;
#endif

/* The len (1..DYNPF_DATA_MAX) bytes at off into buf: 0, or -1 past the packet. */
dynpf_inline int dynpf_pkt_bytes(dynpf_bytes_t src, __u32 pkt_len, __u64 off, __u64 len, __u8 *buf)
{
	if (!src || len - 1 >= DYNPF_DATA_MAX || off > pkt_len || len > pkt_len - off)
		return -1;
#if defined(__bpf__)
	return bpf_dynptr_read(buf, len, src, off, 0) ? -1 : 0;
#else
	__builtin_memcpy(buf, src + off, len);
	return 0;
#endif
}

/* The most data bytes a TLV of the family carries: a test past them never matches. */
dynpf_inline __u32 dynpf_tlv_data_max(__u32 where)
{
	switch (where) {
	case DYNPF_TLV_TCP_OPT:
	case DYNPF_TLV_IPV4_OPT:
		return 38; /* a 40-byte option area */
	case DYNPF_TLV_IPV6_HBH:
	case DYNPF_TLV_IPV6_DST:
	case DYNPF_TLV_SRH_TLV:
		return 255;
	case DYNPF_TLV_GENEVE_OPT:
		return 124; /* 5 bits of 4-byte words */
	case DYNPF_DT_GTPU_EXT:
		return 255 * 4 - 2;
	}
	/* A declared protocol's: its area's. */
	return where >= DYNPF_TLV_NFAM && where < DYNPF_TLV_NALL ? DYNPF_TLV_AREA_MAX : 0;
}

/*
 * Do the len bytes at packet offset off, masked, equal the test's value?
 * end: the bytes past it are not the test's (a TLV's or a datagram's end).
 */
dynpf_inline int dynpf_data_at(const struct dynpf_data_test *t, const struct dynpf_pkt *p,
			       dynpf_bytes_t src, __u64 off, __u64 end)
{
	__u64 b[2] = { 0, 0 }, v[2], m[2];

	if (off + t->len > end || dynpf_pkt_bytes(src, p->pkt_len, off, t->len, (__u8 *)b))
		return 0;
	__builtin_memcpy(v, t->val, sizeof(v));
	__builtin_memcpy(m, t->mask, sizeof(m));
	return (b[0] & m[0]) == v[0] && (b[1] & m[1]) == v[1];
}

/* The first layer of the stack with proto a or b: its index, or -1. */
dynpf_inline int dynpf_layer_find(const struct dynpf_pkt *p, __u32 stack, __u32 a, __u32 b)
{
	__u32 i;

	for (i = 0; i < DYNPF_MAX_LAYERS; i++) {
		const struct dynpf_layer *l = &p->layers[i];

		if (i >= p->nlayers)
			break;
		if (l->stack == stack && (l->proto == a || l->proto == b))
			return i;
	}
	return -1;
}

/*
 * A raw test (DYNPF_DT_L3, _L4, _PAYLOAD) on stack s: the layer's start,
 * the end of its IP datagram (as the parser bounds it: an IPv6 jumbogram's
 * is the packet's), off and len within them.
 */
dynpf_inline int dynpf_data_layer(const struct dynpf_data_test *t, const struct dynpf_pkt *p,
				  const struct dynpf_cls_stack *cs, __u32 s, dynpf_bytes_t src)
{
	const struct dynpf_l3 *l3 = &p->st[s & (DYNPF_MAX_STACKS - 1)].l3;
	__u64 start, end;
	int i;

	if (!cs->l3)
		return 0;
	i = dynpf_layer_find(p, s, DYNPF_P_IPV4, DYNPF_P_IPV6);
	if (i < 0 || i >= DYNPF_MAX_LAYERS)
		return 0;
	start = p->layers[i].off;
	if (cs->l3 == 4)
		end = start + l3->tot_len;
	else if (l3->tot_len || l3->proto != 0)
		end = start + 40 + l3->tot_len;
	else
		end = p->pkt_len;
	if (t->where != DYNPF_DT_L3) {
		if (!cs->l4)
			return 0;
		i = dynpf_layer_find(p, s, cs->l4, cs->l4);
		if (i < 0 || i >= DYNPF_MAX_LAYERS)
			return 0;
		start = p->layers[i].off;
		if (t->where == DYNPF_DT_PAYLOAD)
			start += p->layers[i].len;
	}
	return dynpf_data_at(t, p, src, start + t->off, end);
}

/*
 * A GTP-U extension header test: the outer tunnel's extension headers,
 * walked again from the GTP-U header (the parse keeps their types only):
 * each is a length byte (in 4-byte words), its data, and the next type.
 */
dynpf_inline int dynpf_data_gtpu(const struct dynpf_data_test *t, const struct dynpf_pkt *p,
				 const struct dynpf_cls_view *v, dynpf_bytes_t src)
{
	const struct dynpf_tun *tun = &p->st[0].tun;
	__u64 off, end, elen;
	__u8 b[DYNPF_DATA_MAX];
	__u32 k;
	int i;

	if (v->s[0].tun != DYNPF_P_GTPU || !(tun->flags & 0x04))
		return 0;
	i = dynpf_layer_find(p, 0, DYNPF_P_GTPU, DYNPF_P_GTPU);
	if (i < 0 || i >= DYNPF_MAX_LAYERS)
		return 0;
	off = p->layers[i].off + 12; /* 8 bytes, sequence, N-PDU, next type */
	end = p->layers[i].off + 8 + tun->len;
	for (k = 0; k < DYNPF_MAX_GTP_EXT; k++) {
		if (k >= tun->n_ext || dynpf_pkt_bytes(src, p->pkt_len, off, 1, b))
			break;
		elen = (__u64)b[0] * 4;
		if (!elen || off + elen > end)
			break;
		if (tun->ext_type[k] == t->type &&
		    dynpf_data_at(t, p, src, off + 1 + t->off, off + elen - 1))
			return 1;
		off += elen;
	}
	return 0;
}

/* A TLV data test: some TLV of the type in its family's list has the bytes. */
dynpf_inline int dynpf_data_tlv(const struct dynpf_data_test *t, const struct dynpf_pkt *p,
				dynpf_bytes_t src)
{
	const struct dynpf_tlv_list *l;
	__u32 i, hdr;

	if (t->where >= DYNPF_TLV_NALL)
		return 0;
	l = &p->tlv[t->where];
	if (!(l->seen[(t->type >> 6) & 3] & (1ull << (t->type & 63))))
		return 0;
	for (i = 0; i < DYNPF_MAX_TLVS; i++) {
		const struct dynpf_tlv *e = &l->ent[i];

		dynpf_cond_break;
		if (i >= l->n)
			break;
		/* Its data starts after its header: the family's, or a declaration's. */
		hdr = e->hdr;
		if (e->type == t->type && e->len > hdr &&
		    dynpf_data_at(t, p, src, (__u64)e->off + hdr + t->off, (__u64)e->off + e->len))
			return 1;
	}
	return 0;
}

/* One byte test of rule stack s (dynpf_rule_match()). */
dynpf_inline int dynpf_data_match(const struct dynpf_data_test *t, const struct dynpf_pkt *p,
				  const struct dynpf_cls_view *v, __u32 s, dynpf_bytes_t src)
{
	switch (t->where) {
	case DYNPF_DT_L3:
	case DYNPF_DT_L4:
	case DYNPF_DT_PAYLOAD:
		return dynpf_data_layer(t, p, &v->s[s & (DYNPF_MAX_STACKS - 1)], s, src);
	case DYNPF_DT_GTPU_EXT:
		return dynpf_data_gtpu(t, p, v, src);
	}
	return dynpf_data_tlv(t, p, src);
}

/* The byte tests of rule r (dynpf_rule_match()). */
dynpf_inline int dynpf_rule_match_data(const struct dynpf_rule *r, const struct dynpf_pkt *p,
				       const struct dynpf_cls_view *v, dynpf_bytes_t src)
{
	const struct dynpf_match *m = &r->m;
	__u32 i;

	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		if (i >= m->ndata)
			break;
		if (!dynpf_data_match(&m->data[i], p, v, m->stack & (DYNPF_MAX_STACKS - 1), src))
			return 0;
	}
	return 1;
}

/* Every test of rule r but its byte tests (dynpf_rule_match()). */
dynpf_inline int dynpf_rule_match_fields(const struct dynpf_rule *r, const struct dynpf_pkt *p,
					 const struct dynpf_cls_view *v)
{
	const struct dynpf_match *m = &r->m;
	const struct dynpf_cls_stack *cs = &v->s[m->stack & (DYNPF_MAX_STACKS - 1)];
	const struct dynpf_stack *st = &p->st[m->stack & (DYNPF_MAX_STACKS - 1)];
	__u32 f = m->fields, i;

	if ((f & DYNPF_M_IFINDEX) && p->ifindex != m->ifindex)
		return 0;
	if ((f & DYNPF_M_ERROR) && p->err != m->error)
		return 0;
	if (f & (DYNPF_M_ETH_SRC | DYNPF_M_ETH_DST | DYNPF_M_ETHERTYPE | DYNPF_M_VLAN)) {
		if (!cs->l2)
			return 0;
		if ((f & DYNPF_M_ETH_SRC) && __builtin_memcmp(st->l2.src, m->eth_src, 6))
			return 0;
		if ((f & DYNPF_M_ETH_DST) && __builtin_memcmp(st->l2.dst, m->eth_dst, 6))
			return 0;
		if ((f & DYNPF_M_ETHERTYPE) && st->l2.ethertype != m->ethertype)
			return 0;
		if ((f & DYNPF_M_VLAN) &&
		    (!st->l2.nvlan || (st->l2.vlan_tci[0] & 0xfff) != m->vlan))
			return 0;
	}
	if (f & (DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST | DYNPF_M_PROTO | DYNPF_M_FRAG |
		 DYNPF_M_TTL | DYNPF_M_DSCP)) {
		if (!cs->l3)
			return 0;
		if ((f & (DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST)) && cs->l3 != m->family)
			return 0;
		if ((f & DYNPF_M_SRC) && !dynpf_prefix_eq(st->l3.saddr, m->src, m->src_plen))
			return 0;
		if ((f & DYNPF_M_DST) && !dynpf_prefix_eq(st->l3.daddr, m->dst, m->dst_plen))
			return 0;
		if ((f & DYNPF_M_PROTO) && cs->proto != m->proto)
			return 0;
		if ((f & DYNPF_M_TTL) && (st->l3.ttl < m->ttl_lo || st->l3.ttl > m->ttl_hi))
			return 0;
		if ((f & DYNPF_M_DSCP) && (st->l3.tos >> 2) != m->dscp)
			return 0;
		if (f & DYNPF_M_FRAG) {
			__u8 fr = st->l3.frag;

			switch (m->frag) {
			case DYNPF_MF_NOT:
				if (fr & DYNPF_FRAG_IS_FRAG)
					return 0;
				break;
			case DYNPF_MF_ANY:
				if (!(fr & DYNPF_FRAG_IS_FRAG))
					return 0;
				break;
			case DYNPF_MF_FIRST:
				if (!(fr & DYNPF_FRAG_IS_FRAG) || (fr & DYNPF_FRAG_NONFIRST))
					return 0;
				break;
			case DYNPF_MF_NONFIRST:
				if (!(fr & DYNPF_FRAG_NONFIRST))
					return 0;
				break;
			default:
				return 0;
			}
		}
	}
	if (f & (DYNPF_M_SPORT | DYNPF_M_DPORT)) {
		if (!dynpf_has_ports(cs->l4))
			return 0;
		if ((f & DYNPF_M_SPORT) &&
		    (st->l4.sport < m->sport_lo || st->l4.sport > m->sport_hi))
			return 0;
		if ((f & DYNPF_M_DPORT) &&
		    (st->l4.dport < m->dport_lo || st->l4.dport > m->dport_hi))
			return 0;
	}
	if (f & DYNPF_M_TCP_FLAGS) {
		if (cs->l4 != DYNPF_P_TCP || (st->l4.flags & m->tcp_flags_mask) != m->tcp_flags)
			return 0;
	}
	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		if (i >= m->ntlv)
			break;
		if (dynpf_tlv_present(p, st, cs, &m->tlv[i]) == m->tlv[i].neg)
			return 0;
	}
	for (i = 0; i < DYNPF_MATCH_VALS; i++) {
		__u32 val;

		if (i >= m->nval)
			break;
		if (!dynpf_pkt_val(p, st, v, cs, m->val[i].field, &val) || val < m->val[i].lo ||
		    val > m->val[i].hi)
			return 0;
	}
	return 1;
}

/*
 * Does rule r match the packet? The one definition (see the top). src: the
 * packet's bytes, for the byte tests.
 */
dynpf_inline int dynpf_rule_match(const struct dynpf_rule *r, const struct dynpf_pkt *p,
				  const struct dynpf_cls_view *v, dynpf_bytes_t src)
{
	return dynpf_rule_match_fields(r, p, v) &&
	       (!(r->m.fields & DYNPF_M_DATA) || dynpf_rule_match_data(r, p, v, src));
}

/*
 * Does rule r test nothing? Then dynpf_rule_match() says yes for every
 * packet: a catch-all ("pass", "count", a default "drop" last). The
 * classifier keeps such rules in a chain of their own, walked before any
 * tuple (bpf/rules.h, "Catch-alls").
 */
dynpf_inline int dynpf_rule_any(const struct dynpf_rule *r)
{
	return !r->m.fields && !r->m.ntlv && !r->m.nval;
}

/*
 * Can the packet be ARP, or ICMPv6 neighbour or router discovery (types
 * 133-137)? Read without the view: a field the parse left from an earlier
 * packet may say yes, never no for a packet that is one. dynpf_is_arp_nd()
 * decides with the view.
 */
dynpf_inline int dynpf_maybe_arp_nd(const struct dynpf_pkt *p)
{
	return p->st[0].l2.ethertype == DYNPF_ETH_P_ARP ||
	       (__u8)(p->st[0].l4.icmp_type - 133) <= 137 - 133;
}

/* ARP, and ICMPv6 neighbour and router discovery (types 133-137): what
 * `set pass-arp-nd on` lets through before any rule. */
dynpf_inline int dynpf_is_arp_nd(const struct dynpf_pkt *p, const struct dynpf_cls_view *v)
{
	return dynpf_maybe_arp_nd(p) &&
	       (p->st[0].l2.ethertype == DYNPF_ETH_P_ARP || v->s[0].l4 == DYNPF_P_ICMPV6);
}

/*
 * The declared protocols rule r tests (bit id: its TLV or byte tests name
 * family DYNPF_TLV_NFAM + id): they must be declared while it is loaded.
 */
dynpf_inline __u32 dynpf_rule_decls(const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	__u32 mask = 0, i, f;

	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		f = m->tlv[i].family;
		if (i < m->ntlv && f >= DYNPF_TLV_NFAM && f < DYNPF_TLV_NALL)
			mask |= 1u << (f - DYNPF_TLV_NFAM);
	}
	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		f = m->data[i].where;
		if (i < m->ndata && f >= DYNPF_TLV_NFAM && f < DYNPF_TLV_NALL)
			mask |= 1u << (f - DYNPF_TLV_NFAM);
	}
	return mask;
}

/* What a test of a declared protocol needs: it may be anywhere, in any area. */
#define DYNPF_NEED_ANY_DECL                                                             \
	(DYNPF_NEED_DECL | DYNPF_NEED_INNER | DYNPF_NEED_TCP_OPT | DYNPF_NEED_TUN_OPT | \
	 DYNPF_NEED_TLV_LIST)

/*
 * What rule r needs of the parse (DYNPF_NEED_*): the parts a lean parse may
 * skip without changing whether r matches. A TCP option area, a tunnel's
 * inner packet and Geneve options do not change the layers before them (an
 * error in a TCP option area keeps the TCP header and its ports), so only
 * the rules that test them need them; a test of the parse error, and a
 * sample's event (it carries the parse), need all of it. IPv4 and IPv6
 * options and SRH TLVs are always walked: an error in them ends the parse
 * before the layers after them, which any rule may test. Every walk counts
 * its TLVs and keeps the bitmap of their types, which decides the TLV tests
 * of the built-in families of 8-bit types; it lists them one by one only
 * for the tests that read the list (DYNPF_NEED_TLV_LIST).
 */
dynpf_inline __u32 dynpf_rule_needs(const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	__u32 needs = 0, i;

	if ((m->fields & DYNPF_M_ERROR) || r->action == DYNPF_ACT_SAMPLE)
		return DYNPF_NEED_FULL;
	if (m->stack)
		needs |= DYNPF_NEED_INNER;
	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		if (i >= m->ntlv)
			break;
		/* A declared protocol may be anywhere, in any area: all but
		 * the parse error's parts, and the declared walks. */
		if (m->tlv[i].family >= DYNPF_TLV_NFAM && m->tlv[i].family < DYNPF_TLV_NALL)
			needs |= DYNPF_NEED_ANY_DECL;
		/* A TLV of any stack matches (dynpf_tlv_present()): the inner
		 * packet's count; an extension header is its stack's own. */
		if (m->tlv[i].family != DYNPF_TT_EXT)
			needs |= DYNPF_NEED_INNER;
		if (m->tlv[i].family == DYNPF_TLV_TCP_OPT)
			needs |= DYNPF_NEED_TCP_OPT;
		/* Types wider than the bitmap of types seen: the list. */
		if (m->tlv[i].family == DYNPF_TLV_GENEVE_OPT)
			needs |= DYNPF_NEED_TUN_OPT | DYNPF_NEED_TLV_LIST;
	}
	for (i = 0; i < DYNPF_MATCH_VALS; i++) {
		if (i >= m->nval)
			break;
		if (m->val[i].field == DYNPF_V_MSS || m->val[i].field == DYNPF_V_WSCALE)
			needs |= DYNPF_NEED_TCP_OPT;
	}
	/* Byte tests: a TLV's, as its presence test; a layer's, its stack's
	 * (m->stack above); GTP-U extension headers are the outer tunnel's. */
	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		if (i >= m->ndata)
			break;
		if (m->data[i].where < DYNPF_TLV_NFAM)
			needs |= DYNPF_NEED_INNER | DYNPF_NEED_TLV_LIST;
		else if (m->data[i].where < DYNPF_TLV_NALL)
			needs |= DYNPF_NEED_ANY_DECL;
		if (m->data[i].where == DYNPF_TLV_TCP_OPT)
			needs |= DYNPF_NEED_TCP_OPT;
		if (m->data[i].where == DYNPF_TLV_GENEVE_OPT)
			needs |= DYNPF_NEED_TUN_OPT;
	}
	return needs;
}

/*
 * What rule r, which reads TCP options (DYNPF_NEED_TCP_OPT), reads of an
 * option area: the types below 64 it tests the presence of (bit t: type t),
 * or DYNPF_TCP_OPT_WHOLE when it reads more (a value: MSS, window scale; a
 * byte test; a type of 64 or more; a declared protocol, which may lie in
 * an area). A walk that has seen every type of the first kind may end
 * there: the rest of the area cannot change a presence test, since the
 * types seen only grow as a walk goes on (the option gate, bpf/rules.h).
 */
dynpf_inline __u64 dynpf_rule_tcp_opt_types(const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	__u64 types = 0;
	__u32 i;

	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		if (i >= m->ntlv)
			break;
		if (m->tlv[i].family >= DYNPF_TLV_NFAM && m->tlv[i].family < DYNPF_TLV_NALL)
			return DYNPF_TCP_OPT_WHOLE;
		if (m->tlv[i].family != DYNPF_TLV_TCP_OPT)
			continue;
		if (m->tlv[i].type >= 64)
			return DYNPF_TCP_OPT_WHOLE;
		types |= 1ull << m->tlv[i].type;
	}
	for (i = 0; i < DYNPF_MATCH_VALS; i++) {
		if (i >= m->nval)
			break;
		if (m->val[i].field == DYNPF_V_MSS || m->val[i].field == DYNPF_V_WSCALE)
			return DYNPF_TCP_OPT_WHOLE;
	}
	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		if (i >= m->ndata)
			break;
		if (m->data[i].where == DYNPF_TLV_TCP_OPT ||
		    (m->data[i].where >= DYNPF_TLV_NFAM && m->data[i].where < DYNPF_TLV_NALL))
			return DYNPF_TCP_OPT_WHOLE;
	}
	/* None: it reads options some other way; all of them, then. */
	return types ? types : DYNPF_TCP_OPT_WHOLE;
}

/* Rule order, (prio, id): is rule a before rule b? */
dynpf_inline int dynpf_before(__u32 prio_a, __u32 id_a, __u32 prio_b, __u32 id_b)
{
	return prio_a < prio_b || (prio_a == prio_b && id_a < id_b);
}

dynpf_inline int dynpf_act_terminal(__u32 action)
{
	switch (action) {
#define DYNPF_X_CASE(n, v, t, term) \
	case v:                     \
		return term;
		DYNPF_ACTIONS(DYNPF_X_CASE)
#undef DYNPF_X_CASE
	}
	return 0;
}

dynpf_inline int dynpf_zero(const __u8 *b, __u32 n)
{
	__u32 i;

	for (i = 0; i < 16; i++) {
		if (i >= n)
			break;
		if (b[i])
			return 0;
	}
	return 1;
}

/* Are the bits of a past the prefix length all zero? */
dynpf_inline int dynpf_host_bits_zero(const __u8 *a, __u32 plen)
{
	__u8 mask[16];
	__u32 i;

	dynpf_prefix_mask(mask, plen);
	for (i = 0; i < 16; i++)
		if (a[i] & ~mask[i])
			return 0;
	return 1;
}

/*
 * The order of a rule's TLV tests: by family in the rule language's order
 * (TCP and IPv4 options, IPv6 extension headers, hop-by-hop and destination
 * options, SRH TLVs, Geneve options), then by type. One order, so one rule
 * has one representation.
 */
dynpf_inline __u32 dynpf_tlv_test_rank(__u32 family)
{
	switch (family) {
	case DYNPF_TLV_TCP_OPT:
		return 0;
	case DYNPF_TLV_IPV4_OPT:
		return 1;
	case DYNPF_TT_EXT:
		return 2;
	case DYNPF_TLV_IPV6_HBH:
		return 3;
	case DYNPF_TLV_IPV6_DST:
		return 4;
	case DYNPF_TLV_SRH_TLV:
		return 5;
	case DYNPF_TLV_GENEVE_OPT:
		return 6;
	}
	/* Declared protocols' families, by id; then anything else. */
	if (family >= DYNPF_TLV_NFAM && family < DYNPF_TLV_NALL)
		return 7 + family - DYNPF_TLV_NFAM;
	return 7 + DYNPF_MAX_PROTOS;
}

/* Is TLV test a strictly before b? */
dynpf_inline int dynpf_tlv_test_before(const struct dynpf_tlv_test *a,
				       const struct dynpf_tlv_test *b)
{
	__u32 ra = dynpf_tlv_test_rank(a->family), rb = dynpf_tlv_test_rank(b->family);

	return ra < rb || (ra == rb && a->type < b->type);
}

/* The largest value of a value test's field (the field's width). */
dynpf_inline __u32 dynpf_val_max(__u32 field)
{
	switch (field) {
	case DYNPF_V_MSS:
		return 0xffff;
	case DYNPF_V_WSCALE:
	case DYNPF_V_SEGLEFT:
		return 0xff;
	case DYNPF_V_VNI:
		return 0xffffff;
	case DYNPF_V_MPLS_LABEL:
		return 0xfffff;
	}
	return 0xffffffff; /* TEID, GRE key */
}

/*
 * Is a byte test one the classifier can hold (used: it is one of the rule's
 * ndata; an unused one is all zero)? 0 or -EINVAL. The language gives the
 * same reasons in its words (loader/lang/match.c, data_test()).
 */
dynpf_inline int dynpf_data_test_check(const struct dynpf_data_test *t, int used)
{
	__u32 k, any = 0;

	if (!used)
		return t->where || t->len || t->off || t->type || !dynpf_zero(t->val, 16) ||
				       !dynpf_zero(t->mask, 16)
			       ? -EINVAL
			       : 0;
	if (t->len == 0 || t->len > DYNPF_DATA_MAX)
		return -EINVAL;
	switch (t->where) {
	case DYNPF_DT_L3:
	case DYNPF_DT_L4:
	case DYNPF_DT_PAYLOAD:
		if (t->type)
			return -EINVAL;
		if ((__u32)t->off + t->len > 0xffff)
			return -EINVAL;
		break;
	case DYNPF_DT_GTPU_EXT:
		if (t->type > 0xff || !t->type)
			return -EINVAL;
		if ((__u32)t->off + t->len > dynpf_tlv_data_max(t->where))
			return -EINVAL;
		break;
	default:
		if (t->where >= DYNPF_TLV_NALL ||
		    (t->where < DYNPF_TLV_NFAM &&
		     t->type > (t->where == DYNPF_TLV_GENEVE_OPT ? 0xffffffu : 0xffu)))
			return -EINVAL;
		if ((__u32)t->off + t->len > dynpf_tlv_data_max(t->where))
			return -EINVAL;
	}
	for (k = 0; k < DYNPF_DATA_MAX; k++) {
		if (k >= t->len && (t->val[k] || t->mask[k]))
			return -EINVAL;
		if (t->val[k] & ~t->mask[k])
			return -EINVAL;
		any |= t->mask[k];
	}
	/* A mask of nothing tests nothing. */
	return any ? 0 : -EINVAL;
}

#define DYNPF_REFUSE(fld)               \
	do {                            \
		*field = DYNPF_F_##fld; \
		return -EINVAL;         \
	} while (0)

/*
 * Is this a rule the classifier can hold? 0, or -EINVAL with *field set to
 * the first field that is wrong. Fields a rule does not use must be zero,
 * so one rule has one representation.
 */
dynpf_inline int dynpf_rule_check(const struct dynpf_rule *r, __u16 *field)
{
	const struct dynpf_match *m = &r->m;
	__u32 f = m->fields, maxp, i;

	*field = DYNPF_F_NONE;
	if (r->id == 0 || r->id >= DYNPF_MAX_RULES)
		DYNPF_REFUSE(ID);
	if (r->pad || m->pad0)
		DYNPF_REFUSE(PAD);
	switch (r->action) {
	case DYNPF_ACT_PASS:
	case DYNPF_ACT_DROP:
	case DYNPF_ACT_COUNT:
		if (r->arg)
			DYNPF_REFUSE(ARG);
		break;
	case DYNPF_ACT_REDIRECT:
		if (!r->arg)
			DYNPF_REFUSE(ARG);
		break;
	case DYNPF_ACT_MARK:
		break;
	case DYNPF_ACT_SAMPLE:
		if (r->arg)
			DYNPF_REFUSE(ARG);
		if (r->sample_len == 0 || r->sample_len > DYNPF_SAMPLE_MAX)
			DYNPF_REFUSE(SAMPLE_LEN);
		if (r->sample_rate == 0)
			DYNPF_REFUSE(SAMPLE_RATE);
		break;
	case DYNPF_ACT_LIMIT:
		if (!r->arg)
			DYNPF_REFUSE(ARG);
		if (!r->burst)
			DYNPF_REFUSE(BURST);
		break;
	default:
		DYNPF_REFUSE(ACTION);
	}
	if (r->action != DYNPF_ACT_SAMPLE && (r->sample_len || r->sample_rate))
		DYNPF_REFUSE(SAMPLE_LEN);
	if (r->action != DYNPF_ACT_LIMIT && r->burst)
		DYNPF_REFUSE(BURST);
	if (f & ~DYNPF_M_ALL)
		DYNPF_REFUSE(FIELDS);
	if (m->stack >= DYNPF_MAX_STACKS)
		DYNPF_REFUSE(STACK);
	if (!(f & DYNPF_M_IFINDEX) && m->ifindex)
		DYNPF_REFUSE(FIELDS);
	/* Interface indexes start at 1 (found by fuzz/fuzz_ctrlmsg.c). */
	if ((f & DYNPF_M_IFINDEX) && !m->ifindex)
		DYNPF_REFUSE(IFINDEX);
	if (!(f & DYNPF_M_ETH_SRC) && !dynpf_zero(m->eth_src, 6))
		DYNPF_REFUSE(FIELDS);
	if (!(f & DYNPF_M_ETH_DST) && !dynpf_zero(m->eth_dst, 6))
		DYNPF_REFUSE(FIELDS);
	if (!(f & DYNPF_M_ETHERTYPE) && m->ethertype)
		DYNPF_REFUSE(ETHERTYPE);
	if ((f & DYNPF_M_VLAN) ? m->vlan > 4095 : m->vlan != 0)
		DYNPF_REFUSE(VLAN);
	if (f & (DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST)) {
		/* An address names its family (the FAMILY bit too, as the
		 * language sets it), which an IP ethertype must agree with. */
		if ((m->family != 4 && m->family != 6) || !(f & DYNPF_M_FAMILY))
			DYNPF_REFUSE(FAMILY);
		if ((f & DYNPF_M_ETHERTYPE) && ((m->ethertype == 0x0800 && m->family != 4) ||
						(m->ethertype == 0x86dd && m->family != 6)))
			DYNPF_REFUSE(FAMILY);
	} else if (m->family) {
		DYNPF_REFUSE(FAMILY);
	}
	maxp = m->family == 4 ? 32 : 128;
	if (f & DYNPF_M_SRC) {
		if (m->src_plen > maxp || !dynpf_host_bits_zero(m->src, m->src_plen))
			DYNPF_REFUSE(SRC);
	} else if (m->src_plen || !dynpf_zero(m->src, 16)) {
		DYNPF_REFUSE(SRC);
	}
	if (f & DYNPF_M_DST) {
		if (m->dst_plen > maxp || !dynpf_host_bits_zero(m->dst, m->dst_plen))
			DYNPF_REFUSE(DST);
	} else if (m->dst_plen || !dynpf_zero(m->dst, 16)) {
		DYNPF_REFUSE(DST);
	}
	if (!(f & DYNPF_M_PROTO) && m->proto)
		DYNPF_REFUSE(PROTO);
	if ((f & DYNPF_M_FRAG) ? (m->frag < DYNPF_MF_NOT || m->frag > DYNPF_MF_NONFIRST)
			       : m->frag != 0)
		DYNPF_REFUSE(FRAG);
	if ((f & DYNPF_M_DSCP) ? m->dscp > 63 : m->dscp != 0)
		DYNPF_REFUSE(DSCP);
	if ((f & DYNPF_M_TTL) ? m->ttl_lo > m->ttl_hi : (m->ttl_lo || m->ttl_hi))
		DYNPF_REFUSE(TTL);
	if ((f & DYNPF_M_SPORT) ? m->sport_lo > m->sport_hi : (m->sport_lo || m->sport_hi))
		DYNPF_REFUSE(SPORT);
	if ((f & DYNPF_M_DPORT) ? m->dport_lo > m->dport_hi : (m->dport_lo || m->dport_hi))
		DYNPF_REFUSE(DPORT);
	if ((f & DYNPF_M_TCP_FLAGS) ? !m->tcp_flags_mask || (m->tcp_flags & ~m->tcp_flags_mask)
				    : (m->tcp_flags || m->tcp_flags_mask))
		DYNPF_REFUSE(TCP_FLAGS);
	/*
	 * One rule, one representation, the one the language gives (found by
	 * fuzz/fuzz_ctrlmsg.c: rules-save printed rules that loaded back
	 * different, or not at all): TCP flags name their protocol, and ports
	 * with a protocol have TCP's or UDP's.
	 */
	if ((f & DYNPF_M_TCP_FLAGS) && (!(f & DYNPF_M_PROTO) || m->proto != 6))
		DYNPF_REFUSE(PROTO);
	if ((f & (DYNPF_M_SPORT | DYNPF_M_DPORT)) && (f & DYNPF_M_PROTO) && m->proto != 6 &&
	    m->proto != 17)
		DYNPF_REFUSE(PROTO);
	/* A later fragment has no L4 header: no ports, no flags. */
	if ((f & DYNPF_M_FRAG) && m->frag == DYNPF_MF_NONFIRST &&
	    (f & (DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS)))
		DYNPF_REFUSE(FRAG);
	if ((f & DYNPF_M_ERROR) ? m->error >= DYNPF_NERRORS : m->error != 0)
		DYNPF_REFUSE(ERROR);
	if (m->ntlv > DYNPF_MATCH_TLVS)
		DYNPF_REFUSE(TLV);
	for (i = 0; i < DYNPF_MATCH_TLVS; i++) {
		const struct dynpf_tlv_test *t = &m->tlv[i];

		if (i >= m->ntlv) {
			if (t->family || t->neg || t->type || t->pad[0] || t->pad[1])
				DYNPF_REFUSE(TLV);
			continue;
		}
		if (t->neg > 1 || t->pad[0] || t->pad[1])
			DYNPF_REFUSE(TLV);
		if (t->family == DYNPF_TT_EXT) {
			if (!dynpf_ext_of_ipproto(t->type))
				DYNPF_REFUSE(TLV);
		} else if (t->family >= DYNPF_TLV_NALL) {
			DYNPF_REFUSE(TLV);
		} else if (t->family < DYNPF_TLV_NFAM &&
			   t->type > (t->family == DYNPF_TLV_GENEVE_OPT ? 0xffffffu : 0xffu)) {
			DYNPF_REFUSE(TLV);
		}
		/* Each test once, in dynpf_tlv_test_before() order: the
		 * language's (found by fuzzing: rules-save printed rules that
		 * loaded back different). */
		if (i && !dynpf_tlv_test_before(&m->tlv[i - 1], t))
			DYNPF_REFUSE(TLV);
	}
	if (m->nval > DYNPF_MATCH_VALS)
		DYNPF_REFUSE(VAL);
	for (i = 0; i < DYNPF_MATCH_VALS; i++) {
		const struct dynpf_val_test *t = &m->val[i];

		if (i >= m->nval) {
			if (t->field || t->lo || t->hi || t->pad[0] || t->pad[1] || t->pad[2])
				DYNPF_REFUSE(VAL);
			continue;
		}
		if (t->field == 0 || t->field >= DYNPF_V_MAX || t->lo > t->hi ||
		    t->hi > dynpf_val_max(t->field) || t->pad[0] || t->pad[1] || t->pad[2])
			DYNPF_REFUSE(VAL);
		/* Each field once, in field order (as the language sorts them). */
		if (i && m->val[i - 1].field >= t->field)
			DYNPF_REFUSE(VAL);
	}
	if (m->ndata > DYNPF_MATCH_DATA || !(f & DYNPF_M_DATA) != !m->ndata)
		DYNPF_REFUSE(DATA);
	for (i = 0; i < DYNPF_MATCH_DATA; i++) {
		if (dynpf_data_test_check(&m->data[i], i < m->ndata))
			DYNPF_REFUSE(DATA);
	}
	return 0;
}

#endif /* DYNPF_RULES_MATCH_H */
