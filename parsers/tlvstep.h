/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The one TLV step every family's walk calls (see dynpf_tlv_walk() in
 * tlv.h): pick the family's descriptor, step, record, and hand the TLV to the
 * family's decoder. Adding a family means a descriptor and a decoder in its
 * protocol's file and one case in each switch below.
 */
#ifndef DYNPF_PARSERS_TLVSTEP_H
#define DYNPF_PARSERS_TLVSTEP_H

#include "ip.h"
#include "ip6ext.h"
#include "tcp.h"
#include "tlv.h"
#include "tunnel.h"

dynpf_inline const struct dynpf_tlv_desc *dynpf_tlv_desc_of(__u32 family)
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
 * decoder fold into the code instead of being loaded per TLV. 1 for a TLV,
 * 0 at the end of the area, or -DYNPF_E_*.
 */
dynpf_inline int dynpf_tlv_step_in(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				   struct dynpf_pkt *p, const __u32 family)
{
	const struct dynpf_tlv_desc *d = dynpf_tlv_desc_of(family);
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
	dynpf_tlv_record(p, it, family);
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

/* The loop over one area's TLVs, for one family (a constant). */
dynpf_inline int dynpf_tlv_loop(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				struct dynpf_pkt *p, const __u32 family)
{
	int r;

	it->steps = 0;
	for (;;) {
		dynpf_cond_break;
		if (it->steps++ >= DYNPF_TLV_MAX_STEPS)
			return it->pos < it->len ? -DYNPF_E_TLV_COUNT : 0;
		r = dynpf_tlv_step_in(a, it, p, family);
		if (r <= 0)
			return r;
	}
	return -DYNPF_E_TLV_COUNT;
}

/* One loop per family, each with its descriptor folded in. */
dynpf_inline int dynpf_tlv_walk_in(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				   struct dynpf_pkt *p, __u32 family)
{
	/* Each case hands its family on as a constant. */
#define DYNPF_TLV_FAMILY_LOOP(f)                                               \
	case f:                                                                \
		return dynpf_tlv_loop(a, it, p, f)
	switch (family) {
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_TCP_OPT);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV4_OPT);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV6_HBH);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_IPV6_DST);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_SRH_TLV);
		DYNPF_TLV_FAMILY_LOOP(DYNPF_TLV_GENEVE_OPT);
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
 * keep the rounds' states apart.
 */
DYNPF_SUBPROG int dynpf_tlv_walk_area(const struct dynpf_area *a, struct dynpf_tlv_it *it,
				      struct dynpf_pkt *p)
{
	if (!a || !it || !p)
		return -DYNPF_E_TLV_LEN;
	return dynpf_tlv_walk_in(a, it, p, it->family);
}

#endif /* DYNPF_PARSERS_TLVSTEP_H */
