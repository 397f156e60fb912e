/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The TLV families, and the walk over an option area (dynpf_tlv_walk()),
 * for the protocols that carry one (ip.h, tcp.h, ip6ext.h, tunnel.h).
 *
 * A family is a descriptor (how its types and lengths are laid out, for
 * dynpf_tlv_next() in tlv.h) and a decoder (the fields a rule matches on,
 * read from the area the walker has checked). Every family's TLVs go
 * through one step: pick the family's descriptor, step, record, and hand
 * the TLV to the family's decoder. Adding a family means a descriptor and
 * a decoder here and one case in each switch of the step.
 */
#ifndef DYNPF_PARSERS_TLVSTEP_H
#define DYNPF_PARSERS_TLVSTEP_H

#include "tlv.h"
#include "decltab.h"

/* ---- TCP options (RFC 9293) and IPv4 options (RFC 791) ------------------ */

/*
 * The layout TCP (RFC 9293) and IPv4 (RFC 791) options share: kind(1)
 * length(1) value, the length counting the whole option; kind 0 ends the
 * area, kind 1 is a lone pad byte.
 */
static const struct dynpf_tlv_enc dynpf_kind_len_desc = {
	.type_size = 1,
	.hdr_len = 2,
	.flags = DYNPF_TLVE_END | DYNPF_TLVE_PAD1,
	.len = { .off = 1, .size = 1, .mask = 0xff, .unit = 1, .adj = 0 },
	.end_type = 0,
	.pad_type = { 1 },
};

#define DYNPF_TCPOPT_EOL 0
#define DYNPF_TCPOPT_NOP 1
#define DYNPF_TCPOPT_MSS 2
#define DYNPF_TCPOPT_WSCALE 3
#define DYNPF_TCPOPT_SACK_PERM 4
#define DYNPF_TCPOPT_SACK 5
#define DYNPF_TCPOPT_TS 8

/*
 * Decode the options a rule may match on; other kinds are only recorded.
 * a is the option area (the cursor's scratch area), o the option's offset in
 * it and len its length, already checked to fit the area.
 */
dynpf_inline void dynpf_tcp_opt_decode(struct dynpf_l4 *l4, const __u8 *a, __u64 o, __u64 kind,
				       __u64 len)
{
	const __u64 max = DYNPF_AREA_MAX;
	const __u8 *v;
	__u64 i, n;

	switch (kind) {
	case DYNPF_TCPOPT_MSS:
		v = dynpf_area_ptr(a, o, 4, max);
		if (len != 4 || !v)
			return;
		l4->mss = dynpf_get_be16(v + 2);
		l4->opts |= DYNPF_TCPO_MSS;
		return;
	case DYNPF_TCPOPT_WSCALE:
		v = dynpf_area_ptr(a, o, 3, max);
		if (len != 3 || !v)
			return;
		l4->wscale = v[2];
		l4->opts |= DYNPF_TCPO_WSCALE;
		return;
	case DYNPF_TCPOPT_SACK_PERM:
		if (len == 2)
			l4->opts |= DYNPF_TCPO_SACK_PERM;
		return;
	case DYNPF_TCPOPT_SACK:
		if (len < 10 || (len - 2) % 8)
			return;
		n = (len - 2) / 8;
		for (i = 0; i < DYNPF_MAX_SACK && i < n; i++) {
			v = dynpf_area_ptr(a, o + 2 + 8 * i, 8, max);
			if (!v)
				break;
			l4->sack[i][0] = dynpf_get_be32(v);
			l4->sack[i][1] = dynpf_get_be32(v + 4);
		}
		l4->nsack = i;
		l4->opts |= DYNPF_TCPO_SACK;
		return;
	case DYNPF_TCPOPT_TS:
		v = dynpf_area_ptr(a, o, 10, max);
		if (len != 10 || !v)
			return;
		l4->ts_val = dynpf_get_be32(v + 2);
		l4->ts_ecr = dynpf_get_be32(v + 6);
		l4->opts |= DYNPF_TCPO_TS;
		return;
	}
}

#define DYNPF_IPOPT_EOL 0
#define DYNPF_IPOPT_NOP 1
#define DYNPF_IPOPT_RR_TYPE 7
#define DYNPF_IPOPT_TS_TYPE 68
#define DYNPF_IPOPT_RA_TYPE 148

/* Decode what a rule may match on: Router Alert, Timestamp, Record Route. */
dynpf_inline void dynpf_ipv4_opt_decode(struct dynpf_ipv4opt *io, const __u8 *a, __u64 o,
					__u64 type, __u64 len)
{
	const __u8 *v;
	__u32 n, max;

	switch (type) {
	case DYNPF_IPOPT_RA_TYPE:
		v = dynpf_area_ptr(a, o, 4, DYNPF_AREA_MAX);
		if (len != 4 || !v)
			return;
		io->ra = dynpf_get_be16(v + 2);
		io->seen |= DYNPF_IPOPT_RA;
		return;
	case DYNPF_IPOPT_TS_TYPE:
		v = dynpf_area_ptr(a, o, 4, DYNPF_AREA_MAX);
		if (len < 4 || !v)
			return;
		io->ts_ptr = v[2];
		io->ts_oflw = v[3] >> 4;
		io->ts_flag = v[3] & 0xf;
		io->seen |= DYNPF_IPOPT_TS;
		return;
	case DYNPF_IPOPT_RR_TYPE:
		v = dynpf_area_ptr(a, o, 3, DYNPF_AREA_MAX);
		if (len < 3 || !v)
			return;
		io->rr_ptr = v[2];
		n = v[2] >= 4 ? (v[2] - 4) / 4 : 0;
		max = (len - 3) / 4;
		io->rr_count = n < max ? n : max;
		io->seen |= DYNPF_IPOPT_RR;
		return;
	}
}

/* ---- IPv6 options (RFC 8200) and SRH TLVs (RFC 8754) -------------------- */

#define DYNPF_IP6OPT_PAD1 0
#define DYNPF_IP6OPT_PADN 1
#define DYNPF_IP6OPT_RA 5
#define DYNPF_IP6OPT_JUMBO 0xc2

#define DYNPF_SRH_TLV_PAD1 0
#define DYNPF_SRH_TLV_PADN 4
#define DYNPF_SRH_TLV_HMAC 5

/*
 * Options of hop-by-hop and destination headers, and SRH TLVs, share one
 * format: type(1) data-length(1) data; the length excludes the 2-byte
 * header; type 0 is a lone padding byte; there is no end marker.
 */
static const struct dynpf_tlv_enc dynpf_ip6_opt_desc = {
	.type_size = 1,
	.hdr_len = 2,
	.flags = DYNPF_TLVE_PAD1,
	.len = { .off = 1, .size = 1, .mask = 0xff, .unit = 1, .adj = 2 },
	.pad_type = { DYNPF_IP6OPT_PAD1 },
};

/* Decode an option of a hop-by-hop or destination header into its entry. */
dynpf_inline void dynpf_ip6_opt_decode(struct dynpf_ext *e, const __u8 *a, __u64 o, __u64 type,
				       __u64 len)
{
	const __u8 *v;

	switch (type) {
	case DYNPF_IP6OPT_PAD1:
	case DYNPF_IP6OPT_PADN:
		return;
	case DYNPF_IP6OPT_RA:
		v = dynpf_area_ptr(a, o, 4, DYNPF_AREA_MAX);
		if (len == 4 && v) {
			e->ra = dynpf_get_be16(v + 2);
			e->flags |= DYNPF_EXTF_RA;
		}
		return;
	case DYNPF_IP6OPT_JUMBO:
		v = dynpf_area_ptr(a, o, 6, DYNPF_AREA_MAX);
		if (len == 6 && v) {
			e->jumbo = dynpf_get_be32(v + 2);
			e->flags |= DYNPF_EXTF_JUMBO;
		}
		return;
	}
	/* The two high bits say what a node that does not know it must do. */
	e->unknown_act |= 1 << ((type >> 6) & 3);
}

/*
 * Decode an SRH TLV into the routing header's entry. Only the HMAC TLV
 * (RFC 8754 2.1.2) carries something a rule matches on: the D flag and the
 * key id, in the 6 bytes before the HMAC itself; a shorter one is only listed.
 */
dynpf_inline void dynpf_srh_tlv_decode(struct dynpf_ext *e, const __u8 *a, __u64 o, __u64 type,
				       __u64 len)
{
	const __u8 *v;

	if (type != DYNPF_SRH_TLV_HMAC || len < 8)
		return;
	v = dynpf_area_ptr(a, o, 8, DYNPF_AREA_MAX);
	if (!v)
		return;
	e->flags |= DYNPF_EXTF_HMAC;
	if (v[2] & 0x80)
		e->flags |= DYNPF_EXTF_HMAC_D;
	else
		e->flags &= ~DYNPF_EXTF_HMAC_D;
	e->id = dynpf_get_be32(v + 4);
}

/* ---- Geneve options (RFC 8926) ------------------------------------------ */

/* class(2) type(1) length(1, low 5 bits, 4-byte words after the header). */
static const struct dynpf_tlv_enc dynpf_geneve_opt_desc = {
	.type_size = 3,
	.hdr_len = 4,
	.len = { .off = 3, .size = 1, .mask = 0x1f, .unit = 4, .adj = 4 },
};

/* ---- the step and the walk ---------------------------------------------- */

dynpf_inline const struct dynpf_tlv_enc *dynpf_tlv_desc_of(__u32 family)
{
	switch (family) {
	case DYNPF_TLV_TCP_OPT:
	case DYNPF_TLV_IPV4_OPT:
		return &dynpf_kind_len_desc;
	case DYNPF_TLV_IPV6_HBH:
	case DYNPF_TLV_IPV6_DST:
	case DYNPF_TLV_SRH_TLV:
		return &dynpf_ip6_opt_desc;
	case DYNPF_TLV_GENEVE_OPT:
		return &dynpf_geneve_opt_desc;
	}
	return NULL;
}

/*
 * One TLV of the area: step, record, decode. Inlined in the walk's may_goto
 * loop (it was a global subprogram called per TLV: about 10 ns a call
 * here), and specialised per family: family is a constant at each use (see
 * dynpf_tlv_walk_area()), so the descriptor's fields and the choice of
 * decoder fold into the code instead of being loaded per TLV. A declared
 * protocol's step (d from its map, family not a constant) records only:
 * decode is 0. 1 for a TLV, 0 at the end of the area, or -DYNPF_E_*.
 */
dynpf_inline int dynpf_tlv_step_in(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				   struct dynpf_pkt *p, const __u32 family,
				   const struct dynpf_tlv_enc *d, const int decode)
{
	struct dynpf_stack *st;
	const __u8 *b;
	__u64 abase = it->abase;
	int r;

	/* The area: in the window, or behind it; AREA_MAX bytes either way. */
	if (abase > DYNPF_WIN || !d)
		return -DYNPF_E_TLV_LEN;
	b = a->b + abase;
	r = dynpf_tlv_next(it, b, d, DYNPF_AREA_MAX);
	if (r <= 0)
		return r;
	dynpf_tlv_record(p, it, family, d->hdr_len);
	if (!decode)
		return 1;
	st = &p->st[it->stack & (DYNPF_MAX_STACKS - 1)];
	switch (family) {
	case DYNPF_TLV_TCP_OPT:
		dynpf_tcp_opt_decode(&st->l4, b, it->toff, it->type, it->tlen);
		break;
	case DYNPF_TLV_IPV4_OPT:
		dynpf_ipv4_opt_decode(&st->ip4opt, b, it->toff, it->type, it->tlen);
		break;
	case DYNPF_TLV_IPV6_HBH:
	case DYNPF_TLV_IPV6_DST:
		dynpf_ip6_opt_decode(&st->ip6.ext[it->ext & (DYNPF_MAX_EXT - 1)], b, it->toff,
				     it->type, it->tlen);
		break;
	case DYNPF_TLV_SRH_TLV:
		dynpf_srh_tlv_decode(&st->ip6.ext[it->ext & (DYNPF_MAX_EXT - 1)], b, it->toff,
				     it->type, it->tlen);
		break;
	}
	return 1;
}

/* The loop over one area's TLVs, for one family (a constant, or a declared one's d). */
dynpf_inline int dynpf_tlv_loop(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				struct dynpf_pkt *p, const __u32 family,
				const struct dynpf_tlv_enc *d, const int decode)
{
	int r;

	it->steps = 0;
	for (;;) {
		dynpf_cond_break;
		if (it->steps++ >= DYNPF_TLV_MAX_STEPS)
			return it->pos < it->len ? -DYNPF_E_TLV_COUNT : 0;
		r = dynpf_tlv_step_in(a, it, p, family, d, decode);
		if (r <= 0)
			return r;
	}
	return -DYNPF_E_TLV_COUNT;
}

/*
 * TCP options, walked with the position in a register: the loop of the
 * other families (dynpf_tlv_loop()) keeps it in the iterator, in memory,
 * and each TLV then waits for the last one's store to be loaded back
 * (dynpf_tlv_next() and dynpf_tlv_record() read the iterator's fields).
 * The same TLVs, recorded and decoded the same way, with the same errors
 * (tests/parsers/tcpfast.c holds the two to each other). An area has at
 * most 40 bytes, so at most 40 TLVs: below DYNPF_TLV_MAX_STEPS, no count.
 * For the verifier, the position is tested against the area's length
 * (at most 40) before it goes round, so the states at the top of the loop
 * have it in 1 .. 39 from the second round on and prune each other; the
 * count of TLVs stays in memory (kept in a register, a constant that
 * differs every round, the verifier could not prune the rounds: "the
 * sequence of 8193 jumps is too complex").
 */
#ifndef DYNPF_TCP_OPT_LOOP
#define DYNPF_TCP_OPT_LOOP 1
#endif
dynpf_inline int dynpf_tcp_opt_loop(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				    struct dynpf_pkt *p)
{
	struct dynpf_tlv_list *l = &p->tlv[DYNPF_TLV_TCP_OPT];
	struct dynpf_l4 *l4 = &p->st[it->stack & (DYNPF_MAX_STACKS - 1)].l4;
	__u64 abase = it->abase, len = it->len, pos = it->pos, kind, olen, next, seen = 0;
	__u32 nolist = it->nolist, n;
	const __u8 *b, *h;
	int r = 0;

	/* A TCP header holds at most 40 bytes of options. */
	if (abase > DYNPF_WIN || len > 40)
		return -DYNPF_E_TLV_LEN;
	b = a->b + abase;
	for (;;) {
		dynpf_cond_break;
		if (pos >= len)
			break;
		h = dynpf_area_ptr(b, pos, 2, DYNPF_AREA_MAX);
		if (!h)
			break;
		kind = h[0];
		if (kind == DYNPF_TCPOPT_EOL || kind == DYNPF_TCPOPT_NOP) {
			/* A byte alone; past an end marker, padding. */
			olen = 1;
			next = kind == DYNPF_TCPOPT_EOL ? len : pos + 1;
		} else {
			/* Its length covers its 2 header bytes and fits: both
			 * bytes are in the area (h[1] may lie past it, unread
			 * but for this test). */
			olen = h[1];
			if (olen < 2 || olen > len - pos) {
				r = -DYNPF_E_TLV_LEN;
				break;
			}
			next = pos + olen;
		}
		/* Recorded as dynpf_tlv_record() does, the types below 64 kept
		 * in a register until the walk ends. */
		if (kind < 64)
			seen |= 1ULL << kind;
		else
			l->seen[kind >> 6] |= 1ULL << (kind & 63);
		dynpf_tlv_tally(p, l, DYNPF_TLV_TCP_OPT);
		if (!nolist) {
			n = l->n;
			dynpf_tlv_list_add(l, n, DYNPF_TLV_TCP_OPT, kind, olen, it->base + pos,
					   it->layer, 2);
		}
		if (kind > DYNPF_TCPOPT_NOP)
			dynpf_tcp_opt_decode(l4, b, pos, kind, olen);
		pos = next;
		if (pos >= len)
			break;
		/* Every type the rules the packet may match test for is seen:
		 * the rest of the area cannot change their presence tests
		 * (the types seen only grow), and the rules that read more
		 * want the whole area (the option gate, bpf/rules.h). Never
		 * with DYNPF_TCP_OPT_WHOLE: 40 bytes hold at most 40 types.
		 * The wanted types are read from the iterator each round: in
		 * a register of their own, they took the frames of the
		 * functions this loop is inlined in past the stack their
		 * calls may share. */
		if (!(it->type & ~seen))
			break;
	}
	it->pos = pos;
	l->seen[0] |= seen;
	return r;
}

/*
 * Geneve options (RFC 8926), walked with the position in a register, as TCP
 * options are (dynpf_tcp_opt_loop()): the walk of the other families keeps
 * it in the iterator, and each option waits for the last one's store to be
 * loaded back. The same TLVs as that walk with dynpf_geneve_opt_desc,
 * recorded the same way, with the same errors (tests/parsers/tcpfast.c
 * holds the two to each other). Geneve's option length is 6 bits of 4-byte
 * words, so an area holds at most 252 bytes and 63 options: below
 * DYNPF_TLV_MAX_STEPS, no count. Every option is its 4-byte header and
 * its data; there is no pad or end type.
 */
#ifndef DYNPF_GENEVE_OPT_LOOP
#define DYNPF_GENEVE_OPT_LOOP 1
#endif
#define DYNPF_GENEVE_OPT_MAX 252
dynpf_inline int dynpf_geneve_opt_loop(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				       struct dynpf_pkt *p)
{
	struct dynpf_tlv_list *l = &p->tlv[DYNPF_TLV_GENEVE_OPT];
	__u64 abase = it->abase, len = it->len, pos = it->pos, type, olen;
	__u32 nolist = it->nolist, n;
	const __u8 *b, *h;
	int r = 0;

	if (abase > DYNPF_WIN || len > DYNPF_GENEVE_OPT_MAX)
		return -DYNPF_E_TLV_LEN;
	b = a->b + abase;
	for (;;) {
		dynpf_cond_break;
		if (pos >= len)
			break;
		/* class (2), type (1), 3 reserved bits and the length in words */
		h = pos + 4 <= len ? dynpf_area_ptr(b, pos, 4, DYNPF_AREA_MAX) : NULL;
		if (!h) {
			r = -DYNPF_E_TLV_LEN;
			break;
		}
		type = (__u64)h[0] << 16 | (__u64)h[1] << 8 | h[2];
		olen = (__u64)(h[3] & 0x1f) * 4 + 4;
		if (olen > len - pos) {
			r = -DYNPF_E_TLV_LEN;
			break;
		}
		/* Recorded as dynpf_tlv_record() does (its low byte in seen). */
		dynpf_tlv_tally(p, l, DYNPF_TLV_GENEVE_OPT);
		l->seen[(type & 0xff) >> 6] |= 1ULL << (type & 63);
		if (!nolist) {
			n = l->n;
			dynpf_tlv_list_add(l, n, DYNPF_TLV_GENEVE_OPT, type, olen, it->base + pos,
					   it->layer, 4);
		}
		pos += olen;
	}
	it->pos = pos;
	return r;
}

/* One loop per family, each with its descriptor folded in. */
dynpf_inline int dynpf_tlv_walk_in(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				   struct dynpf_pkt *p, __u32 family)
{
	/* Each case hands its family on as a constant. */
#define DYNPF_TLV_FAMILY_LOOP(f) \
	case f:                  \
		return dynpf_tlv_loop(a, it, p, f, dynpf_tlv_desc_of(f), 1)
	switch (family) {
	case DYNPF_TLV_TCP_OPT:
		if (DYNPF_TCP_OPT_LOOP)
			return dynpf_tcp_opt_loop(a, it, p);
		return dynpf_tlv_loop(a, it, p, DYNPF_TLV_TCP_OPT,
				      dynpf_tlv_desc_of(DYNPF_TLV_TCP_OPT), 1);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV4_OPT);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV6_HBH);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV6_DST);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_SRH_TLV);
	case DYNPF_TLV_GENEVE_OPT:
		if (DYNPF_GENEVE_OPT_LOOP)
			return dynpf_geneve_opt_loop(a, it, p);
		return dynpf_tlv_loop(a, it, p, DYNPF_TLV_GENEVE_OPT,
				      dynpf_tlv_desc_of(DYNPF_TLV_GENEVE_OPT), 1);
	}
#undef DYNPF_TLV_FAMILY_LOOP
	return -DYNPF_E_TLV_LEN;
}

/*
 * The walk over an area's TLVs for the inline parse graph (TCP and IPv4
 * options): one global subprogram per area, its rounds bounded by may_goto
 * (dynpf_cond_break), so the verifier checks each loop like an iterator's
 * and once, not once per path that reaches an area, and no call is made
 * per TLV. The step count lives in the iterator (memory), so it does not
 * keep the rounds' states apart. 0, or -DYNPF_E_* with it->pos at the TLV
 * that failed.
 */
DYNPF_SUBPROG int dynpf_tlv_walk_area(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				      struct dynpf_pkt *p)
{
	if (!a || !it || !p)
		return -DYNPF_E_TLV_LEN;
	return dynpf_tlv_walk_in(a, it, p, it->family);
}

/*
 * A declared protocol's walk over its header's area (parsers/decl.h): the
 * step of the built-in families, with the declaration's descriptor (from
 * the table, not a constant) and no decoder. A global subprogram, verified
 * once, like dynpf_tlv_walk_area().
 */
DYNPF_SUBPROG int dynpf_tlv_walk_decl(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				      struct dynpf_pkt *p, const struct dynpf_tlv_enc *d)
{
	if (!a || !it || !p || !d)
		return -DYNPF_E_TLV_LEN;
	return dynpf_tlv_loop(a, it, p, it->family, d, 0);
}

/*
 * An option area of built-in family `family`, walked again for each
 * protocol declared in it (DYNPF_PAT_AREA), each into its own family's
 * list, from the iterator the built-in walk set up (its position reset).
 * A TLV a declaration's encoding refuses ends that walk, not the parse: the
 * header carrying the area, and its family's walk, say whether the area is
 * well formed.
 */
dynpf_inline void dynpf_tlv_walk_decl_areas_in(const struct dynpf_area *a, struct dynpf_tlv_it *it,
					       struct dynpf_pkt *p,
					       const struct dynpf_proto_tab *tab, __u32 family)
{
	__u32 i, key = DYNPF_PROTO_KEY(DYNPF_PAT_AREA, family);

	for (i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (tab->key[i] != key)
			continue;
		it->pos = 0;
		it->family = DYNPF_TLV_NFAM + i;
		dynpf_tlv_loop(a, it, p, DYNPF_TLV_NFAM + i, &tab->d[i].tlv, 0);
	}
}

/*
 * The iterator of the walk over the len-byte area at packet offset off (len
 * > 0), of family `family`, carried by the header about to become layer
 * p->nlayers, the area fetched; NULL when the packet does not have it.
 */
dynpf_inline struct dynpf_tlv_it *dynpf_tlv_open(struct dynpf_cursor *c, struct dynpf_pkt *p,
						 __u8 family, __u32 off, __u32 len, __u8 ext)
{
	struct dynpf_tlv_it *it = (struct dynpf_tlv_it *)c->area->it;
	int abase = dynpf_cur_fetch_area(c, off, len);

	if (abase < 0)
		return NULL;
	dynpf_tlv_it_init(it, len, off);
	it->abase = abase;
	it->family = family;
	it->layer = p->nlayers;
	it->stack = c->stack;
	it->ext = ext;
	it->nolist = !!(c->skip & DYNPF_SKIP_TLV_LIST);
	return it;
}

/*
 * Walk the len-byte option area at packet offset off, of the given family,
 * carried by the header about to become layer p->nlayers. 0, or -DYNPF_E_*
 * with c->err_off at the TLV that failed. inl: the walk inlined rather than
 * called, for parsers that run inside a global subprogram already (the
 * rare layers, dynpf_layer_step()): verified once there too, and a call
 * (about 10 ns) less per area. (Protocols declared in such areas walk them
 * after the parse: parsers/decl.h.)
 */
dynpf_inline int dynpf__tlv_walk(struct dynpf_cursor *c, struct dynpf_pkt *p, __u8 family,
				 __u32 off, __u32 len, __u8 ext, const int inl)
{
	struct dynpf_tlv_it *it;
	int r;

	if (!len)
		return 0;
	it = dynpf_tlv_open(c, p, family, off, len, ext);
	if (!it)
		return -DYNPF_E_TRUNCATED;
	if (family == DYNPF_TLV_TCP_OPT)
		it->type = c->area->tcp_want; /* the types it wants */
	if (inl)
		r = dynpf_tlv_walk_in(c->area, it, p, family);
	else
		r = dynpf_tlv_walk_area(c->area, it, p);
	if (r < 0)
		c->err_off = off + it->pos;
	return r;
}

/*
 * A declared protocol's area at off, len bytes, of its family, laid out as
 * d says. 0, or -DYNPF_E_* with c->err_off at the TLV that failed.
 */
dynpf_inline int dynpf_tlv_walk_enc(struct dynpf_cursor *c, struct dynpf_pkt *p, __u8 family,
				    __u32 off, __u32 len, const struct dynpf_tlv_enc *d)
{
	struct dynpf_tlv_it *it;
	int r;

	if (!len)
		return 0;
	it = dynpf_tlv_open(c, p, family, off, len, 0);
	if (!it)
		return -DYNPF_E_TRUNCATED;
	r = dynpf_tlv_walk_decl(c->area, it, p, d);
	if (r < 0)
		c->err_off = off + it->pos;
	return r;
}

#define dynpf_tlv_walk(c, p, family, off, len, ext) dynpf__tlv_walk(c, p, family, off, len, ext, 0)
#define dynpf_tlv_walk_inline(c, p, family, off, len, ext) \
	dynpf__tlv_walk(c, p, family, off, len, ext, 1)

#endif /* DYNPF_PARSERS_TLVSTEP_H */
