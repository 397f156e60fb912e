/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's TCP (direct.bpf.h): the header, and its options
 * walked in place, each checked against data_end, and decoded as dynpf
 * decodes them.
 */
#ifndef DYNPF_BENCH_DIRECT_TCP_BPF_H
#define DYNPF_BENCH_DIRECT_TCP_BPF_H

#include "direct_cursor.bpf.h"

/* TCP option kinds (parsers/tlvstep.h has them too, with the dynptr walker). */
#define BENCH_TCPOPT_EOL 0
#define BENCH_TCPOPT_NOP 1
#define BENCH_TCPOPT_MSS 2
#define BENCH_TCPOPT_WSCALE 3
#define BENCH_TCPOPT_SACK_PERM 4
#define BENCH_TCPOPT_SACK 5
#define BENCH_TCPOPT_TS 8

static __always_inline void tcp_opt_record(struct dynpf_pkt *p, __u8 kind, __u32 len, __u32 off,
					   __u8 layer)
{
	tlv_record(p, DYNPF_TLV_TCP_OPT, kind, len, off, layer);
}

/*
 * Decode the options dynpf decodes. o points at the option's kind byte and
 * len is its length, already checked against the option area; every byte
 * read is checked against data_end here, the classic way.
 */
static __always_inline void tcp_opt_decode(struct dynpf_l4 *l4, const __u8 *o, __u32 len,
					   const void *data_end)
{
	__u32 i, n;

	switch (o[0]) {
	case BENCH_TCPOPT_MSS:
		if (len != 4 || (const void *)(o + 4) > data_end)
			return;
		l4->mss = dynpf_get_be16(o + 2);
		l4->opts |= DYNPF_TCPO_MSS;
		return;
	case BENCH_TCPOPT_WSCALE:
		if (len != 3 || (const void *)(o + 3) > data_end)
			return;
		l4->wscale = o[2];
		l4->opts |= DYNPF_TCPO_WSCALE;
		return;
	case BENCH_TCPOPT_SACK_PERM:
		if (len == 2)
			l4->opts |= DYNPF_TCPO_SACK_PERM;
		return;
	case BENCH_TCPOPT_SACK:
		if (len < 10 || (len - 2) % 8)
			return;
		n = (len - 2) / 8;
		for (i = 0; i < DYNPF_MAX_SACK && i < n; i++) {
			const __u8 *b = o + 2 + 8 * i;

			if ((const void *)(b + 8) > data_end)
				break;
			l4->sack[i][0] = dynpf_get_be32(b);
			l4->sack[i][1] = dynpf_get_be32(b + 4);
		}
		l4->nsack = i;
		l4->opts |= DYNPF_TCPO_SACK;
		return;
	case BENCH_TCPOPT_TS:
		if (len != 10 || (const void *)(o + 10) > data_end)
			return;
		l4->ts_val = dynpf_get_be32(o + 2);
		l4->ts_ecr = dynpf_get_be32(o + 6);
		l4->opts |= DYNPF_TCPO_TS;
		return;
	}
}

/*
 * Walk the olen (<= 40) option bytes that follow the TCP header th, option
 * by option, in place: every option's bytes are checked against data_end
 * before they are read, like the kernel selftest
 * progs/test_parse_tcp_hdr_opt.c. 0, or -1 with p->err set.
 *
 * A may_goto loop (every round moves pos on, so 40 rounds at most): pos
 * starts from a value the verifier does not know and is masked each round,
 * so every round looks the same to it and it prunes them, however many
 * paths (extension header chains, tunnels) lead here. A plain bounded loop
 * is checked once per round per path: past its one-million-instruction
 * budget once IPv6 chains and tunnels reach it (measured).
 */
static __always_inline int tcp_opts_walk(struct hdr_cursor *nh, struct dynpf_pkt *p,
					 struct bench_walk *w, __u8 *th, __u32 olen, __u8 layer)
{
	__u32 base = (void *)th - nh->data + sizeof(struct dynpf_tcphdr);
	__u8 *opts = th + sizeof(struct dynpf_tcphdr);
	struct dynpf_l4 *l4 = &cur_st(nh, p)->l4;
	__u64 pos = w->zero, len;
	__u8 *o;
	__u8 kind;

	for (;;) {
		dynpf_cond_break;
		dynpf_barrier_var(pos);
		pos &= 0x3f;
		if (pos >= olen)
			break;
		o = opts + pos;
		if ((void *)(o + 1) > nh->data_end)
			goto bad;
		kind = o[0];
		if (kind == BENCH_TCPOPT_EOL) {
			tcp_opt_record(p, kind, 1, base + pos, layer);
			break;
		}
		if (kind == BENCH_TCPOPT_NOP) {
			tcp_opt_record(p, kind, 1, base + pos, layer);
			pos++;
			continue;
		}
		if (pos + 2 > olen || (void *)(o + 2) > nh->data_end)
			goto bad;
		len = o[1];
		if (len < 2 || len > olen - pos)
			goto bad;
		tcp_opt_record(p, kind, len, base + pos, layer);
		tcp_opt_decode(l4, o, len, nh->data_end);
		pos += len;
	}
	return 0;
bad:
	/* The TCP header itself was valid: it stays listed, like dynpf's. */
	return area_err(p, DYNPF_E_TLV_LEN, DYNPF_P_TCP, base + pos, layer);
}

static __always_inline int parse_tcp(struct hdr_cursor *nh, struct dynpf_pkt *p,
				     struct bench_walk *w)
{
	struct dynpf_l4 *l4 = &cur_st(nh, p)->l4;
	struct dynpf_tcphdr *th = nh->pos;
	__u32 off = cur_off(nh), doff;
	__u8 layer = p->nlayers;
	int r = 0;

	if ((void *)(th + 1) > nh->data_end || !cur_need(nh, sizeof(*th))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_TCP, off);
		return -1;
	}
	doff = (th->doff_res >> 4) * 4;
	if (doff < sizeof(*th)) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_TCP, off);
		return -1;
	}
	if (!cur_need(nh, doff)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_TCP, off);
		return -1;
	}
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(th->sport),
		.dport = dynpf_ntohs(th->dport),
		.seq = dynpf_ntohl(th->seq),
		.ack = dynpf_ntohl(th->ack),
		.window = dynpf_ntohs(th->window),
		.flags = th->flags,
		.hdr_len = doff,
	};
	add_layer(nh, p, DYNPF_P_TCP, off, doff);
	p->l4_payload_off = off + doff;
	if (doff > sizeof(*th))
		r = tcp_opts_walk(nh, p, w, (__u8 *)th, doff - sizeof(*th), layer);
	nh->pos = (__u8 *)th + (doff & 0x3c);
	return r < 0 ? r : DYNPF_P_NONE;
}

#endif
