/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* TCP (RFC 9293); its options are walked and decoded by tlvstep.h. */
#ifndef DYNPF_PARSERS_TCP_H
#define DYNPF_PARSERS_TCP_H

#include "cursor.h"
#include "tlvstep.h"

/*
 * The two option layouts most TCP segments carry, decoded in place with
 * constant offsets instead of walked (as Linux's tcp_parse_options() takes
 * NOP, NOP, timestamps without a walk):
 *   - a SYN or SYN-ACK from Linux, 20 bytes: MSS, SACK permitted,
 *     timestamps, NOP, window scale;
 *   - an established segment with timestamps, 12 bytes: NOP, NOP,
 *     timestamps.
 * Recognised by comparing the bytes that are not values (kinds, lengths,
 * the NOPs); the result is the walk's (the same fields, the same TLVs in the family's
 * list; tests/parsers/tcpfast.c holds them to it over every capture and
 * random option areas). The walk calls dynpf_tlv_walk_area() and steps
 * through the TLVs one by one: syn's parse took 70 ns with it at 10,000
 * rules (whose tests need the options), 39 ns with this (31 without the
 * options), and syn at 10,000 rules 261 -> 226 ns (bench --versus, the
 * stages' table). The TLVs are counted at once, and listed only when a rule
 * reads the list. Any other area is walked. DYNPF_TCP_OPT_FAST 0 builds the
 * walk alone (the test's reference).
 * off, len: the option area's packet offset and length. 1 when decoded.
 */
#ifndef DYNPF_TCP_OPT_FAST
#define DYNPF_TCP_OPT_FAST 1
#endif
/* The layouts' TLVs, as the walk lists them: kind, length, offset in the area. */
#define DYNPF_TCP_LIST(l, kind, len, at) \
	dynpf_tlv_list_add(l, l->n, DYNPF_TLV_TCP_OPT, kind, len, off + (at), p->nlayers, 2)
#define DYNPF_TCPO_BIT(kind) (1ull << DYNPF_TCPOPT_##kind)
dynpf_inline int dynpf_tcp_opts_fast(struct dynpf_cursor *c, struct dynpf_pkt *p,
				     struct dynpf_l4 *l4, __u32 off, __u32 len)
{
	struct dynpf_tlv_list *l;
	const __u8 *o;

	if (!DYNPF_TCP_OPT_FAST)
		return 0;
	__u64 w;
	__u32 x;

	if (len == 20) {
		/* Read as two 64-bit words and one 32-bit word, each compared
		 * under a mask and decoded by shifts (byte by byte: 14 loads). */
		o = dynpf__slice(c, off, 20);
		if (!o)
			return 0;
		w = dynpf_load_be64(o);
		x = dynpf_load_be32(o + 16);
		if ((w & 0xffff0000ffffffffull) != 0x020400000402080aull ||
		    (x & 0xffffff00) != 0x01030300)
			return 0;
		l4->mss = w >> 32;
		l4->wscale = x;
		w = dynpf_load_be64(o + 8);
		l4->ts_val = w >> 32;
		l4->ts_ecr = w;
		l4->opts |=
			DYNPF_TCPO_MSS | DYNPF_TCPO_SACK_PERM | DYNPF_TCPO_TS | DYNPF_TCPO_WSCALE;
		l = dynpf_tlv_count_n(p, DYNPF_TLV_TCP_OPT,
				      DYNPF_TCPO_BIT(MSS) | DYNPF_TCPO_BIT(SACK_PERM) |
					      DYNPF_TCPO_BIT(TS) | DYNPF_TCPO_BIT(NOP) |
					      DYNPF_TCPO_BIT(WSCALE),
				      5);
		if (c->skip & DYNPF_SKIP_TLV_LIST)
			return 1;
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_MSS, 4, 0);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_SACK_PERM, 2, 4);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_TS, 10, 6);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_NOP, 1, 16);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_WSCALE, 3, 17);
		return 1;
	}
	if (len == 12) {
		o = dynpf__slice(c, off, 12);
		if (!o)
			return 0;
		w = dynpf_load_be64(o);
		if ((w >> 32) != 0x0101080a)
			return 0;
		l4->ts_val = w;
		l4->ts_ecr = dynpf_load_be32(o + 8);
		l4->opts |= DYNPF_TCPO_TS;
		l = dynpf_tlv_count_n(p, DYNPF_TLV_TCP_OPT,
				      DYNPF_TCPO_BIT(NOP) | DYNPF_TCPO_BIT(TS), 3);
		if (c->skip & DYNPF_SKIP_TLV_LIST)
			return 1;
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_NOP, 1, 0);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_NOP, 1, 1);
		DYNPF_TCP_LIST(l, DYNPF_TCPOPT_TS, 10, 2);
		return 1;
	}
	return 0;
}

/*
 * DYNPF_TCP_OPT_GATE(p, inner): 0 when no rule that reads TCP options can
 * match packet p, its outer stack's TCP header parsed, else the tuples of
 * those that may (inner: rules of the inner stack may be alive, the parse
 * does not skip it); DYNPF_TCP_OPT_TYPES(those): the option types the walk must see
 * before it may end (struct dynpf_area.tcp_want). bpf/rules.h, the BPF
 * build's, defines both before it includes the parse graph. Natively, and
 * in builds without rules: every tuple, the whole area.
 */
#ifndef DYNPF_TCP_OPT_GATE
#define DYNPF_TCP_OPT_GATE(p, inner) (~0ull)
#define DYNPF_TCP_OPT_TYPES(m) DYNPF_TCP_OPT_WHOLE
#endif

dynpf_inline int dynpf_parse_tcp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l4;
	const struct dynpf_tcphdr *th = dynpf_cur_slice(c, c->off, struct dynpf_tcphdr);
	__u64 cands;
	__u32 doff;
	int r;

	if (!th)
		return -DYNPF_E_TRUNCATED;
	doff = (th->doff_res >> 4) * 4;
	if (doff < sizeof(*th))
		return -DYNPF_E_BAD_LEN;
	if (!dynpf_cur_need(c, c->off, doff))
		return -DYNPF_E_TRUNCATED;
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(th->sport),
		.dport = dynpf_ntohs(th->dport),
		.seq = dynpf_ntohl(th->seq),
		.ack = dynpf_ntohl(th->ack),
		.window = dynpf_ntohs(th->window),
		.flags = th->flags,
		.hdr_len = doff,
	};
	c->off += doff;
	if (doff <= sizeof(*th) || (c->skip & DYNPF_SKIP_TCP_OPT))
		return DYNPF_P_NONE;
	/* The header is valid: an error from here on is in its options. */
	c->keep_layer = 1;
	if (dynpf_tcp_opts_fast(c, p, l4, c->off - doff + sizeof(*th), doff - sizeof(*th)))
		return DYNPF_P_NONE;
	/* Rules read options, but maybe only rules the packet's fields rule
	 * out (the outer stack's, no declared protocol to parse after TCP).
	 * bench --live (tcp_options.pcap, the bench's 10,000 rules): 0.49x
	 * -> 0.53x of the empty program, 161-167 -> 142 ns a frame. Asked
	 * after the fast path, which costs less than the gate: asked before
	 * it, syn with 10,000 rules (whose rules want its options) took 142
	 * and 149 ns against 128 and 133. */
	c->area->tcp_want = DYNPF_TCP_OPT_WHOLE;
	if ((c->skip & DYNPF_SKIP_TCP_OPT_GATE) && !c->stack && !c->decl) {
		cands = DYNPF_TCP_OPT_GATE(p, !(c->skip & DYNPF_SKIP_INNER));
		if (!cands)
			return DYNPF_P_NONE;
		c->area->tcp_want = DYNPF_TCP_OPT_TYPES(cands);
	}
	r = dynpf_tlv_walk(c, p, DYNPF_TLV_TCP_OPT, c->off - doff + sizeof(*th), doff - sizeof(*th),
			   0);
	return r < 0 ? r : DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_TCP_H */
