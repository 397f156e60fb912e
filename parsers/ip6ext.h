/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * IPv6 extension headers (RFC 8200): hop-by-hop and destination options,
 * routing (SRv6 SRH, RFC 8754, in full), fragment, AH (RFC 4302) and ESP
 * (RFC 4303). Each is one layer of the parse graph; the chain is bounded by
 * the max_ext setting (at most DYNPF_MAX_EXT), and what RFC 8200 says
 * should not occur is flagged. The options and SRH TLVs are decoded in
 * tlvstep.h.
 */
#ifndef DYNPF_PARSERS_IP6EXT_H
#define DYNPF_PARSERS_IP6EXT_H

#include "cursor.h"
#include "ip.h"
#include "tlvstep.h"

struct dynpf_ip6_ext2 {
	__u8 nexthdr;
	__u8 hdrlen; /* in 8-byte units, not counting the first 8 bytes */
} DYNPF_WIRE;

struct dynpf_ip6_rt {
	__u8 nexthdr;
	__u8 hdrlen;
	__u8 type;
	__u8 segleft;
	__u8 last_entry; /* SRH */
	__u8 flags;      /* SRH */
	__be16 tag;      /* SRH */
} DYNPF_WIRE;

struct dynpf_ip6_frag {
	__u8 nexthdr;
	__u8 reserved;
	__be16 off_m;
	__be32 id;
} DYNPF_WIRE;

struct dynpf_ip6_ah {
	__u8 nexthdr;
	__u8 plen; /* in 4-byte units, minus 2 */
	__be16 reserved;
	__be32 spi;
	__be32 seq;
} DYNPF_WIRE;

struct dynpf_ip6_esp {
	__be32 spi;
	__be32 seq;
} DYNPF_WIRE;

/*
 * Note a header of type proto joining the chain: flag what RFC 8200 forbids
 * (hop-by-hop not first, a header twice; destination options may come
 * twice, before routing and last). Shared with the direct-access baseline
 * (loader/bench/bench.bpf.c), which must flag the same.
 */
dynpf_inline void dynpf_ip6chain_note(struct dynpf_ip6chain *ch, int proto)
{
	__u32 bit = 1u << ((proto - DYNPF_P_HOPOPTS) & 7);

	if (proto == DYNPF_P_HOPOPTS && ch->n)
		ch->flags |= DYNPF_EXT_HBH_NOT_FIRST;
	if (ch->seen & bit) {
		if (proto != DYNPF_P_DSTOPTS || (ch->seen & 0x8000))
			ch->flags |= DYNPF_EXT_REPEATED;
		if (proto == DYNPF_P_DSTOPTS)
			ch->seen |= 0x8000;
	}
	ch->seen |= bit;
}

/*
 * Claim the next entry of the chain for a header of type proto: enforce the
 * length limit, flag what RFC 8200 forbids, and fill the common fields. The
 * entry only counts (ip6.n) once the caller has validated the fixed part.
 */
dynpf_inline struct dynpf_ext *dynpf_ext_begin(struct dynpf_cursor *c, struct dynpf_pkt *p,
					       int proto, int *err)
{
	struct dynpf_ip6chain *ch = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].ip6;
	__u32 n = ch->n;
	struct dynpf_ext *e;

	if (n >= DYNPF_MAX_EXT || n >= c->max_ext) {
		*err = -DYNPF_E_DEPTH;
		return NULL;
	}
	dynpf_ip6chain_note(ch, proto);
	e = &ch->ext[n & (DYNPF_MAX_EXT - 1)];
	*e = (struct dynpf_ext){ .proto = proto, .layer = p->nlayers, .off = c->off };
	*err = 0;
	return e;
}

/* The entry is valid: count it. */
dynpf_inline __u8 dynpf_ext_commit(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_ip6chain *ch = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].ip6;
	__u8 n = ch->n;

	ch->n = n + 1;
	return n;
}

/* Hop-by-hop and destination options. */
dynpf_inline int dynpf_parse_ip6opts(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	const struct dynpf_ip6_ext2 *h = dynpf_cur_slice(c, c->off, struct dynpf_ip6_ext2);
	struct dynpf_ext *e;
	__u32 len;
	__u8 idx;
	int r;

	e = dynpf_ext_begin(c, p, proto, &r);
	if (!e)
		return r;
	if (!h)
		return -DYNPF_E_TRUNCATED;
	len = ((__u32)h->hdrlen + 1) * 8;
	if (!dynpf_cur_need(c, c->off, len))
		return -DYNPF_E_TRUNCATED;
	e->nexthdr = h->nexthdr;
	e->len = len;
	idx = dynpf_ext_commit(c, p);
	c->off += len;
	c->keep_layer = 1;
	r = dynpf_tlv_walk_inline(c, p,
				  proto == DYNPF_P_HOPOPTS ? DYNPF_TLV_IPV6_HBH : DYNPF_TLV_IPV6_DST,
				  c->off - len + 2, len - 2, idx);
	if (r < 0)
		return r;
	return dynpf_ipproto_next(e->nexthdr, 1);
}

dynpf_inline int dynpf_parse_hopopts(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	return dynpf_parse_ip6opts(c, p, DYNPF_P_HOPOPTS);
}

dynpf_inline int dynpf_parse_dstopts(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	return dynpf_parse_ip6opts(c, p, DYNPF_P_DSTOPTS);
}

dynpf_inline int dynpf_parse_routing(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_ip6_rt *h = dynpf_cur_slice(c, c->off, struct dynpf_ip6_rt);
	struct dynpf_ext *e;
	__u32 len, segs;
	__u8 idx;
	int r;

	e = dynpf_ext_begin(c, p, DYNPF_P_ROUTING, &r);
	if (!e)
		return r;
	if (!h)
		return -DYNPF_E_TRUNCATED;
	len = ((__u32)h->hdrlen + 1) * 8;
	if (!dynpf_cur_need(c, c->off, len))
		return -DYNPF_E_TRUNCATED;
	e->nexthdr = h->nexthdr;
	e->len = len;
	e->rt_type = h->type;
	e->segleft = h->segleft;
	if (h->type != 4) {
		dynpf_ext_commit(c, p);
		c->off += len;
		return dynpf_ipproto_next(e->nexthdr, 1);
	}
	/* SRv6: last entry + 1 segments of 16 bytes, then TLVs. */
	segs = ((__u32)h->last_entry + 1) * 16;
	if (sizeof(*h) + segs > len)
		return -DYNPF_E_BAD_LEN;
	e->last_entry = h->last_entry;
	e->srh_flags = h->flags;
	e->srh_tag = dynpf_ntohs(h->tag);
	e->flags |= DYNPF_EXTF_SRH;
	idx = dynpf_ext_commit(c, p);
	c->off += len;
	c->keep_layer = 1;
	r = dynpf_tlv_walk_inline(c, p, DYNPF_TLV_SRH_TLV, c->off - len + sizeof(*h) + segs,
				  len - sizeof(*h) - segs, idx);
	if (r < 0)
		return r;
	return dynpf_ipproto_next(e->nexthdr, 1);
}

dynpf_inline int dynpf_parse_fragment(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l3 *l3 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l3;
	const struct dynpf_ip6_frag *h = dynpf_cur_slice(c, c->off, struct dynpf_ip6_frag);
	struct dynpf_ext *e;
	__u16 om;
	int r;

	e = dynpf_ext_begin(c, p, DYNPF_P_FRAGMENT, &r);
	if (!e)
		return r;
	if (!h)
		return -DYNPF_E_TRUNCATED;
	om = dynpf_ntohs(h->off_m);
	e->nexthdr = h->nexthdr;
	e->len = sizeof(*h);
	e->frag_off = om >> 3;
	e->id = dynpf_ntohl(h->id);
	if (om & 1) {
		e->flags |= DYNPF_EXTF_FRAG_M;
		l3->frag |= DYNPF_FRAG_MF;
	}
	/* The packet's fragment state, as IPv4 reports it. */
	l3->frag_off = e->frag_off;
	l3->id = e->id & 0xffff;
	if (om & 0xfff9)
		l3->frag |= DYNPF_FRAG_IS_FRAG;
	dynpf_ext_commit(c, p);
	c->off += sizeof(*h);
	if (e->frag_off) {
		/* A non-first fragment carries no upper-layer header. */
		l3->frag |= DYNPF_FRAG_NONFIRST;
		return DYNPF_P_NONE;
	}
	return dynpf_ipproto_next(e->nexthdr, 1);
}

dynpf_inline int dynpf_parse_ah(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_ip6_ah *h = dynpf_cur_slice(c, c->off, struct dynpf_ip6_ah);
	struct dynpf_ext *e;
	__u32 len;
	int r;

	e = dynpf_ext_begin(c, p, DYNPF_P_AH, &r);
	if (!e)
		return r;
	if (!h)
		return -DYNPF_E_TRUNCATED;
	/* AH counts in 4-byte units, minus 2 (RFC 4302), unlike the others. */
	len = ((__u32)h->plen + 2) * 4;
	if (len < sizeof(*h))
		return -DYNPF_E_BAD_LEN;
	if (!dynpf_cur_need(c, c->off, len))
		return -DYNPF_E_TRUNCATED;
	e->nexthdr = h->nexthdr;
	e->len = len;
	e->id = dynpf_ntohl(h->spi);
	dynpf_ext_commit(c, p);
	c->off += len;
	return dynpf_ipproto_next(e->nexthdr, 1);
}

/* ESP: what follows SPI and sequence number is encrypted; the walk ends. */
dynpf_inline int dynpf_parse_esp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_ip6_esp *h = dynpf_cur_slice(c, c->off, struct dynpf_ip6_esp);
	struct dynpf_ext *e;
	int r;

	e = dynpf_ext_begin(c, p, DYNPF_P_ESP, &r);
	if (!e)
		return r;
	if (!h)
		return -DYNPF_E_TRUNCATED;
	e->len = sizeof(*h);
	e->id = dynpf_ntohl(h->spi);
	dynpf_ext_commit(c, p);
	c->off += sizeof(*h);
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_IP6EXT_H */
