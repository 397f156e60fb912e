/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's IPv6 extension headers (direct.bpf.h): one header
 * (hop-by-hop, destination options, routing and SRH, fragment, AH, ESP) and
 * the chain of them after the IPv6 header.
 */
#ifndef DYNPF_BENCH_DIRECT_EXT_BPF_H
#define DYNPF_BENCH_DIRECT_EXT_BPF_H

#include "direct_tlv.bpf.h"

/*
 * Claim the next entry of the IPv6 chain for a header of type proto, as
 * dynpf_ext_begin(): depth limit, RFC 8200 flags, common fields. The entry
 * counts (ip6.n) once its fixed part is valid (ext_commit()).
 */
static __always_inline struct dynpf_ext *ext_begin(struct hdr_cursor *nh, struct dynpf_pkt *p,
						   int proto)
{
	struct dynpf_ip6chain *ch = &cur_st(nh, p)->ip6;
	__u32 n = ch->n;
	struct dynpf_ext *e;

	if (n >= DYNPF_MAX_EXT) {
		set_err(p, DYNPF_E_DEPTH, proto, cur_off(nh));
		return NULL;
	}
	dynpf_ip6chain_note(ch, proto);
	e = &ch->ext[n & (DYNPF_MAX_EXT - 1)];
	*e = (struct dynpf_ext){ .proto = proto, .layer = p->nlayers, .off = cur_off(nh) };
	return e;
}

static __always_inline void ext_commit(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	cur_st(nh, p)->ip6.n++;
}

/* Fixed parts of the extension headers, in 8 bytes. */
#define BENCH_EXT_FIXED 8
/* parse_ext(): the chain ends here (non-first fragment, ESP). */
#define BENCH_EXT_STOP 0x100

/*
 * One IPv6 extension header: hop-by-hop, destination options (their
 * options walked), routing (SRH: segments skipped, TLVs walked), fragment,
 * AH, ESP. Its Next Header byte, BENCH_EXT_STOP, or -1 with p->err set.
 */
static __always_inline int parse_ext(struct hdr_cursor *nh, struct dynpf_pkt *p,
				     struct bench_walk *w, int proto)
{
	struct dynpf_l3 *l3 = &cur_st(nh, p)->l3;
	__u32 off = cur_off(nh), len, segs, aoff, alen;
	struct dynpf_ext *e;
	__u8 *h = nh->pos, family, layer;
	__u16 om;

	e = ext_begin(nh, p, proto);
	if (!e)
		return -1;
	if ((void *)(h + BENCH_EXT_FIXED) > nh->data_end || !cur_need(nh, BENCH_EXT_FIXED)) {
		set_err(p, DYNPF_E_TRUNCATED, proto, off);
		return -1;
	}
	e->nexthdr = h[0];
	switch (proto) {
	case DYNPF_P_FRAGMENT:
		om = dynpf_get_be16(h + 2);
		e->len = BENCH_EXT_FIXED;
		e->frag_off = om >> 3;
		e->id = dynpf_get_be32(h + 4);
		if (om & 1) {
			e->flags |= DYNPF_EXTF_FRAG_M;
			l3->frag |= DYNPF_FRAG_MF;
		}
		l3->frag_off = e->frag_off;
		l3->id = e->id & 0xffff;
		if (om & 0xfff9)
			l3->frag |= DYNPF_FRAG_IS_FRAG;
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, BENCH_EXT_FIXED);
		cur_set(nh, off + BENCH_EXT_FIXED);
		if (e->frag_off) {
			l3->frag |= DYNPF_FRAG_NONFIRST;
			return BENCH_EXT_STOP;
		}
		return e->nexthdr;
	case DYNPF_P_ESP:
		/* SPI and sequence number; what follows is encrypted. */
		e->nexthdr = 0;
		e->len = BENCH_EXT_FIXED;
		e->id = dynpf_get_be32(h);
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, BENCH_EXT_FIXED);
		cur_set(nh, off + BENCH_EXT_FIXED);
		return BENCH_EXT_STOP;
	case DYNPF_P_AH:
		/* 4-byte units, minus 2 (RFC 4302); the SPI after 4 bytes. */
		len = ((__u32)h[1] + 2) * 4;
		if ((void *)(h + 12) > nh->data_end || !cur_need(nh, 12)) {
			set_err(p, DYNPF_E_TRUNCATED, proto, off);
			return -1;
		}
		if (len < 12) {
			set_err(p, DYNPF_E_BAD_LEN, proto, off);
			return -1;
		}
		if (!cur_need(nh, len)) {
			set_err(p, DYNPF_E_TRUNCATED, proto, off);
			return -1;
		}
		e->len = len;
		e->id = dynpf_get_be32(h + 4);
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, len);
		cur_set(nh, off + len);
		return e->nexthdr;
	}
	/* Options and routing: length in 8-byte units past the first 8. */
	len = ((__u32)h[1] + 1) * 8;
	if (!cur_need(nh, len) || (void *)(h + (len & 0x7f8)) > nh->data_end) {
		set_err(p, DYNPF_E_TRUNCATED, proto, off);
		return -1;
	}
	e->len = len;
	aoff = off + 2;
	alen = len - 2;
	family = proto == DYNPF_P_HOPOPTS ? DYNPF_TLV_IPV6_HBH : DYNPF_TLV_IPV6_DST;
	if (proto == DYNPF_P_ROUTING) {
		e->rt_type = h[2];
		e->segleft = h[3];
		if (h[2] != 4) {
			ext_commit(nh, p);
			add_layer(nh, p, proto, off, len);
			cur_set(nh, off + len);
			return e->nexthdr;
		}
		/* SRv6: last entry + 1 segments of 16 bytes, then TLVs. */
		segs = ((__u32)h[4] + 1) * 16;
		if (BENCH_EXT_FIXED + segs > len) {
			set_err(p, DYNPF_E_BAD_LEN, proto, off);
			return -1;
		}
		e->last_entry = h[4];
		e->srh_flags = h[5];
		e->srh_tag = dynpf_get_be16(h + 6);
		e->flags |= DYNPF_EXTF_SRH;
		aoff = off + BENCH_EXT_FIXED + segs;
		alen = len - BENCH_EXT_FIXED - segs;
		family = DYNPF_TLV_SRH_TLV;
	}
	ext_commit(nh, p);
	layer = p->nlayers;
	add_layer(nh, p, proto, off, len);
	cur_set(nh, off + len);
	if (alen &&
	    call_tlv(nh, p, w, family, aoff, alen, layer, proto, cur_st(nh, p)->ip6.n - 1) < 0)
		return -1;
	return e->nexthdr;
}

static __always_inline int is_ext(int proto)
{
	return proto >= DYNPF_P_HOPOPTS && proto <= DYNPF_P_ESP;
}

/*
 * The chain of extension headers after the IPv6 header, up to DYNPF_MAX_EXT
 * (dynpf's default). A may_goto loop, bounded by ext_begin()'s depth check
 * (entries in memory): DYNPF_MAX_EXT headers, the next one ends in
 * DYNPF_E_DEPTH. The round's state is the Next Header byte, read back from
 * the result (memory), not the protocol it maps to: every round then looks
 * the same to the verifier, which checks the chain once, not once per
 * sequence of header types (past its budget, measured).
 */
static __always_inline int parse_ip6_chain(struct hdr_cursor *nh, struct dynpf_pkt *p,
					   struct bench_walk *w)
{
	int nxt = cur_st(nh, p)->l3.proto, proto;

	for (;;) {
		dynpf_cond_break;
		proto = next_from_ipproto(nxt, 1);
		if (!is_ext(proto))
			return proto;
		nxt = parse_ext(nh, p, w, proto);
		if (nxt < 0)
			return -1;
		if (nxt == BENCH_EXT_STOP)
			return DYNPF_P_NONE;
	}
	/* may_goto's budget ran out. */
	return DYNPF_P_NONE;
}

#endif
