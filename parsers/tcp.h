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

/* kind(1) len(1) value; len counts the whole option; EOL ends, NOP pads. */
static const struct dynpf_tlv_desc dynpf_tcp_opt_desc = {
	.family = DYNPF_TLV_TCP_OPT,
	.hdr_len = 2,
	.type_len = 1,
	.len_off = 1,
	.len_mask = 0xff,
	.len_unit = 1,
	.len_adj = 0,
	.min_len = 2,
	.end_type = DYNPF_TCPOPT_EOL,
	.pad1_type = DYNPF_TCPOPT_NOP,
};

/*
 * Decode the options a rule may match on; other kinds are only recorded.
 * a is the option area (a buffer of DYNPF_TCP_MAX_OPTLEN bytes), o the
 * option's offset in it and len its length, already checked to fit the area.
 */
dynpf_inline void dynpf_tcp_opt_decode(struct dynpf_l4 *l4, const __u8 *a, __u64 o,
				       __u64 kind, __u64 len)
{
	const __u64 max = DYNPF_TCP_MAX_OPTLEN;
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

struct dynpf_tcp_optarea {
	__u8 b[DYNPF_TCP_MAX_OPTLEN];
};

/*
 * One TCP option: step, record, decode. A global subprogram, called once per
 * option from the loop in dynpf_tcp_opts(): verified once on its own, the
 * body's dozen branches do not multiply across 40 iterations of the loop.
 * Returns 1 for an option, 0 at the end of the area, or -DYNPF_E_*.
 */
DYNPF_SUBPROG int dynpf_tcp_opt_step(const struct dynpf_tcp_optarea *area,
				      struct dynpf_tlv_it *it, struct dynpf_pkt *p, __u32 layer)
{
	const struct dynpf_tlv_desc *d = &dynpf_tcp_opt_desc;
	int r;

	if (!area || !it || !p)
		return -DYNPF_E_TLV_LEN;
	r = dynpf_tlv_next(it, area->b, d, sizeof(*area));
	if (r <= 0)
		return r;
	dynpf_tlv_record(p, d, it, layer);
	/* TCP options never ride in an inner stack yet: stack 0. */
	dynpf_tcp_opt_decode(&p->st[0].l4, area->b, it->toff, it->type, it->tlen);
	return 1;
}

/*
 * The whole option area (at most 40 bytes) is fetched once, then walked in
 * place: the per-option cost is a few loads, not a kfunc call.
 */
dynpf_inline int dynpf_tcp_opts(struct dynpf_cursor *c, struct dynpf_pkt *p, __u32 off,
				__u32 len)
{
	struct dynpf_tcp_optarea buf = {};
	struct dynpf_tlv_it it;
	__u32 i, layer = p->nlayers;
	int r;

	/* Copied, not sliced: a global subprogram may not get packet memory. */
	if (dynpf_cur_fetch(c, off, len, &buf))
		return -DYNPF_E_TRUNCATED;
	dynpf_tlv_it_init(&it, len, off);
	/* 40 bytes hold at most 40 options (all NOPs): the bound is exact. */
	for (i = 0; i < DYNPF_TCP_MAX_OPTLEN; i++) {
		r = dynpf_tcp_opt_step(&buf, &it, p, layer);
		if (r < 0) {
			c->err_off = off + it.pos;
			return r;
		}
		if (!r)
			break;
	}
	return 0;
}

dynpf_inline int dynpf_parse_tcp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l4;
	struct dynpf_tcphdr buf;
	const struct dynpf_tcphdr *th = dynpf_cur_slice(c, c->off, &buf);
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
		r = dynpf_tcp_opts(c, p, c->off - doff + sizeof(*th), doff - sizeof(*th));
		if (r < 0)
			return r;
	}
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_TCP_H */
