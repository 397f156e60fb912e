/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * IPv6 extension headers (RFC 8200): hop-by-hop and destination options,
 * routing (SRv6 SRH, RFC 8754, in full), fragment, AH (RFC 4302) and ESP
 * (RFC 4303), the last two behind IPv4 too (in the stack's chain, as
 * behind IPv6), and jumbograms (RFC 2675). Each is one layer of the parse
 * graph; the chain is bounded by the max_ext setting (at most
 * DYNPF_MAX_EXT), and what RFC 8200 says should not occur is flagged. The
 * options and SRH TLVs are decoded in tlvstep.h.
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

/*
 * The opening every extension header parser shares: slice the header's
 * fixed part (size bytes at c->off), claim its entry (dynpf_ext_begin():
 * the chain's limit is checked first), and once the whole header is there,
 * note its next header and its length in the entry. The length comes from
 * the header's own type, never the next one's: hop-by-hop, destination and
 * routing headers count 8-byte units after the first 8 bytes, AH 4-byte
 * units minus 2 (RFC 4302); a fragment header and ESP's SPI and sequence
 * number are their fixed part, and what follows ESP's is encrypted (its
 * next header stays 0). proto is a constant at each use, so only its own
 * rule is left in the code. The fixed part, with *ep and *lenp set, or
 * NULL with *err set.
 */
dynpf_inline const void *dynpf_ext_open(struct dynpf_cursor *c, struct dynpf_pkt *p,
					const int proto, const __u32 size, const __u32 unit,
					const __u32 adj, struct dynpf_ext **ep, __u32 *lenp,
					int *err)
{
	const __u8 *h = dynpf__slice(c, c->off, size);
	struct dynpf_ext *e;
	__u32 len = size;

	e = dynpf_ext_begin(c, p, proto, err);
	if (!e)
		return NULL;
	if (!h) {
		*err = -DYNPF_E_TRUNCATED;
		return NULL;
	}
	if (unit) {
		len = ((__u32)h[1] + adj) * unit;
		if (len < size) {
			*err = -DYNPF_E_BAD_LEN;
			return NULL;
		}
		if (!dynpf_cur_need(c, c->off, len)) {
			*err = -DYNPF_E_TRUNCATED;
			return NULL;
		}
	}
	if (proto != DYNPF_P_ESP)
		e->nexthdr = h[0];
	e->len = len;
	*ep = e;
	*lenp = len;
	return h;
}

/*
 * The close of a header that carries TLVs (options, SRH TLVs): count its
 * entry, step over its len bytes, and walk the area that starts skip bytes
 * into it, the layer kept if the walk fails.
 */
dynpf_inline int dynpf_ext_close_tlvs(struct dynpf_cursor *c, struct dynpf_pkt *p,
				      const struct dynpf_ext *e, __u8 family, __u32 len, __u32 skip)
{
	__u8 idx = dynpf_ext_commit(c, p);
	int r;

	c->off += len;
	c->keep_layer = 1;
	r = dynpf_tlv_walk_inline(c, p, family, c->off - len + skip, len - skip, idx);
	if (r < 0)
		return r;
	return dynpf_ipproto_next(e->nexthdr, 1);
}

#define DYNPF_JUMBO_MIN 65536

/*
 * RFC 2675, section 3: a jumbogram has payload length 0, next header
 * hop-by-hop, and a Jumbo Payload option in it of at least 65,536, which
 * then bounds the payload as the payload length would have; every other
 * combination is an error of the hop-by-hop header (payload length 0 and no
 * Jumbo option; a Jumbo option with a payload length; a Jumbo value below
 * 65,536). ip.h kept the packet's end for payload length 0. The first
 * entry of the chain is the hop-by-hop header right after the IPv6 header.
 * next: what the header's parse returned.
 */
dynpf_inline int dynpf_jumbo_check(struct dynpf_cursor *c, struct dynpf_pkt *p,
				   const struct dynpf_ext *e, int next)
{
	const struct dynpf_stack *st = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)];
	__u32 plen = st->l3.tot_len, jumbo = e->jumbo;

	c->err_off = e->off;
	if (!(e->flags & DYNPF_EXTF_JUMBO))
		return st->l3.version == 6 && !plen && st->ip6.n == 1 ? -DYNPF_E_BAD_HDR : next;
	if (st->l3.version != 6 || plen || jumbo < DYNPF_JUMBO_MIN)
		return -DYNPF_E_BAD_HDR;
	if (!dynpf_cur_need(c, e->off, jumbo))
		return -DYNPF_E_TRUNCATED;
	c->end = e->off + jumbo;
	return next;
}

/* Hop-by-hop and destination options. */
dynpf_inline int dynpf_parse_ip6opts(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	const struct dynpf_ip6_ext2 *h;
	struct dynpf_ext *e;
	__u32 len;
	int r;

	h = dynpf_ext_open(c, p, proto, sizeof(*h), 8, 1, &e, &len, &r);
	if (!h)
		return r;
	r = dynpf_ext_close_tlvs(c, p, e,
				 proto == DYNPF_P_HOPOPTS ? DYNPF_TLV_IPV6_HBH : DYNPF_TLV_IPV6_DST,
				 len, 2);
	if (proto == DYNPF_P_HOPOPTS && r >= 0)
		r = dynpf_jumbo_check(c, p, e, r);
	return r;
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
	const struct dynpf_ip6_rt *h;
	struct dynpf_ext *e;
	__u32 len, segs;
	int r;

	h = dynpf_ext_open(c, p, DYNPF_P_ROUTING, sizeof(*h), 8, 1, &e, &len, &r);
	if (!h)
		return r;
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
	return dynpf_ext_close_tlvs(c, p, e, DYNPF_TLV_SRH_TLV, len, sizeof(*h) + segs);
}

dynpf_inline int dynpf_parse_fragment(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l3 *l3 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l3;
	const struct dynpf_ip6chain *ch;
	const struct dynpf_ip6_frag *h;
	struct dynpf_ext *e;
	__u32 len;
	__u16 om;
	int r;

	h = dynpf_ext_open(c, p, DYNPF_P_FRAGMENT, sizeof(*h), 0, 0, &e, &len, &r);
	if (!h)
		return r;
	/*
	 * RFC 2675: a jumbogram cannot be fragmented. The fault is the Jumbo
	 * option's: reported at the hop-by-hop header (the first entry).
	 */
	ch = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].ip6;
	if (ch->ext[0].proto == DYNPF_P_HOPOPTS && (ch->ext[0].flags & DYNPF_EXTF_JUMBO)) {
		c->err_at = ch->ext[0].layer + 1;
		c->err_off = ch->ext[0].off;
		return -DYNPF_E_BAD_HDR;
	}
	om = dynpf_ntohs(h->off_m);
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
	c->off += len;
	if (e->frag_off) {
		/* A non-first fragment carries no upper-layer header. */
		l3->frag |= DYNPF_FRAG_NONFIRST;
		return DYNPF_P_NONE;
	}
	return dynpf_ipproto_next(e->nexthdr, 1);
}

dynpf_inline int dynpf_parse_ah(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_ip6_ah *h;
	struct dynpf_ext *e;
	__u32 len;
	int r;

	h = dynpf_ext_open(c, p, DYNPF_P_AH, sizeof(*h), 4, 2, &e, &len, &r);
	if (!h)
		return r;
	e->id = dynpf_ntohl(h->spi);
	dynpf_ext_commit(c, p);
	c->off += len;
	/* Behind IPv4 too: what follows is of that family (ICMP, not ICMPv6). */
	return dynpf_ipproto_next(e->nexthdr,
				  p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l3.version == 6);
}

/* ESP: what follows SPI and sequence number is encrypted; the walk ends. */
dynpf_inline int dynpf_parse_esp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_ip6_esp *h;
	struct dynpf_ext *e;
	__u32 len;
	int r;

	h = dynpf_ext_open(c, p, DYNPF_P_ESP, sizeof(*h), 0, 0, &e, &len, &r);
	if (!h)
		return r;
	e->id = dynpf_ntohl(h->spi);
	dynpf_ext_commit(c, p);
	c->off += len;
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_IP6EXT_H */
