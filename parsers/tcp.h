/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* TCP (RFC 9293) and its options, walked by the generic TLV walker. */
#ifndef DYNPF_PARSERS_TCP_H
#define DYNPF_PARSERS_TCP_H

#include "cursor.h"
#include "tlv.h"

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
dynpf_inline void dynpf_tcp_opt_decode(struct dynpf_l4 *l4, const __u8 *a, __u64 o,
				       __u64 kind, __u64 len)
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

dynpf_inline int dynpf_parse_tcp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l4;
	const struct dynpf_tcphdr *th = dynpf_cur_slice(c, c->off, struct dynpf_tcphdr);
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
	if (doff > sizeof(*th)) {
		/* The header is valid: an error from here on is in its options. */
		c->keep_layer = 1;
		r = dynpf_tlv_walk(c, p, DYNPF_TLV_TCP_OPT, c->off - doff + sizeof(*th),
				   doff - sizeof(*th), 0);
		if (r < 0)
			return r;
	}
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_TCP_H */
