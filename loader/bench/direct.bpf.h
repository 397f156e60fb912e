/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct-packet-access parser: the yardstick of `dynpf bench`
 * (bench.bpf.c includes it; bench_direct_* are its programs).
 *
 * It parses the same headers as dynpf's parsers/, on purpose the same way,
 * with direct packet access instead of dynptrs: the headers read the classic
 * way, through data/data_end and a header cursor (xdp-tools'
 * headers/xdp/parsing_helpers.h), with no kfunc in the path (only xdp.frags
 * calls one helper, bpf_xdp_get_buff_len(), for the length of all
 * fragments, which dynpf gets from bpf_dynptr_size()). It mirrors parsers/
 * and shares none of its parsing code, so that the two can be compared: it
 * takes from the product only the ABI (include/dynpf/: struct dynpf_pkt and
 * its constants), parsers/common.h's byte-order and verifier helpers, and
 * dynpf_ip6chain_note() (tlvstep.h: the RFC 8200 flags, which must be the
 * same). It is never part of the product: keep it apart, and when a parser
 * of parsers/ learns something, teach it here by hand.
 *
 * The direct parser is kept honest: it does the work dynpf_run() does, not
 * less. It looks up a per-CPU struct dynpf_pkt and a per-CPU stats slot,
 * fills the same layer list, L2/L3/L4 fields and TLV records (every TCP option
 * walked, NOP and EOL included; MSS, window scale, SACK-permitted, SACK blocks
 * and timestamps decoded), honours the IP datagram's end like the cursor does,
 * and counts the packet. `dynpf bench` compares its result with dynpf's on
 * every shape before timing: if they differ, the comparison is not fair and
 * the bench says so.
 *
 * It also walks IPv6 extension headers (hop-by-hop and destination options
 * with their options, RA/Jumbo/unknown-action decoded; routing, SRH segments
 * skipped and TLVs walked, HMAC decoded; fragment; AH; ESP) and VXLAN and
 * Geneve (options walked) with the inner stack of headers, filling
 * st[].ip6, st[].tun and the TLV lists as dynpf does. The IPv6 chain, each of
 * those TLV areas and the inner stack are global subprograms (a call each,
 * as dynpf's rare layers and TLV areas are); the common shapes make no call.
 *
 * What it does not do: read across XDP fragments (direct access sees only the
 * linear part; the bench shapes keep every header in it), parse ARP/ICMP/
 * ICMPv6, IPv4 options (skipped, not walked), GRE, GTP-U, MPLS or IP-in-IP,
 * or honour dynpf's max_ext/max_stacks settings (it uses their defaults, 8
 * and 2, which the bench loads dynpf with).
 *
 * Its parts: direct_cursor.bpf.h (cursor, result bookkeeping),
 * direct_hdr.bpf.h (Ethernet, VLAN, IPv4, IPv6, UDP), direct_tcp.bpf.h (TCP
 * and its options), direct_tlv.bpf.h (the other TLV areas), direct_ext.bpf.h
 * (the IPv6 extension chain), direct_tunnel.bpf.h (VXLAN, Geneve); here, the
 * stack of headers, the whole packet and the programs.
 */
#ifndef DYNPF_BENCH_DIRECT_BPF_H
#define DYNPF_BENCH_DIRECT_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_pkt);
} bench_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DYNPF_HOOK_MAX);
	__type(key, __u32);
	__type(value, struct dynpf_stats);
} bench_stats SEC(".maps");

#include "direct_cursor.bpf.h"
#include "direct_hdr.bpf.h"
#include "direct_tcp.bpf.h"
#include "direct_tlv.bpf.h"
#include "direct_ext.bpf.h"
#include "direct_tunnel.bpf.h"

/*
 * One stack of headers, from next: eth → vlan* → ipv4|ipv6 → ext* →
 * tcp|udp → vxlan|geneve. The inner stack's first protocol (with
 * DYNPF_NEXT_INNER), DYNPF_P_NONE at the end, or -1 on error.
 */
static __always_inline int parse_stack(struct hdr_cursor *nh, struct dynpf_pkt *p,
				       struct bench_walk *w, int next, const int inner)
{
	if (next == DYNPF_P_ETH)
		next = parse_eth(nh, p);
	if (next == DYNPF_P_IPV4) {
		next = parse_ipv4(nh, p);
	} else if (next == DYNPF_P_IPV6) {
		next = parse_ipv6(nh, p);
		/*
		 * The inner stack, itself a global subprogram, walks the chain
		 * in line: four frames would not fit the 512-byte stack.
		 */
		if (is_ext(next))
			next = inner ? parse_ip6_chain(nh, p, w) : call_chain(nh, p, w);
	}
	if (next == DYNPF_P_TCP)
		next = parse_tcp(nh, p, w);
	else if (next == DYNPF_P_UDP)
		next = parse_udp(nh, p);
	if (next == DYNPF_P_VXLAN)
		next = parse_vxlan(nh, p);
	else if (next == DYNPF_P_GENEVE)
		next = parse_geneve(nh, p, w);
	return next;
}

/*
 * The whole packet: the outer stack, and a tunnel's inner one, then the same
 * bookkeeping as dynpf_run(): result fields, hook, ifindex, counters.
 */
static __always_inline void direct_run(void *ctx, int tc, void *data, void *data_end, __u32 pkt_len,
				       __u32 hook, __u32 ifindex)
{
	struct hdr_cursor nh = { .pos = data,
				 .data = data,
				 .data_end = data_end,
				 .lend = pkt_len,
				 .tc = tc,
				 .ctx = ctx };
	struct dynpf_stats *s;
	struct bench_walk *w;
	struct dynpf_pkt *p;
	__u32 zero = 0;
	int next;

	s = bpf_map_lookup_elem(&bench_stats, &hook);
	p = bpf_map_lookup_elem(&bench_scratch, &zero);
	w = bpf_map_lookup_elem(&bench_walk, &zero);
	if (!s || !p || !w)
		return;
	p->abi = DYNPF_ABI_VERSION;
	p->pkt_len = pkt_len;
	p->nlayers = 0;
	p->nstacks = 1;
	p->err = DYNPF_E_OK;
	p->err_layer = 0;
	p->err_proto = 0;
	p->err_off = 0;
	p->l4_payload_off = 0;
	/* Every family's list, as dynpf resets them. */
	for (int f = 0; f < DYNPF_TLV_NFAM; f++) {
		struct dynpf_tlv_list *l = &p->tlv[f];

		l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
		l->count = l->overflow = l->n = 0;
	}

	next = parse_stack(&nh, p, w, DYNPF_P_ETH, 0);
	if (next > DYNPF_P_NONE && (next & DYNPF_NEXT_INNER)) {
		/* A tunnel's inner packet: the next stack (DYNPF_MAX_STACKS is 2). */
		struct bench_cur *c = &w->cur[0];

		cur_save(&nh, c);
		c->stack = 1;
		p->nstacks = 2;
		if (nh.tc)
			bench_inner_tc(nh.ctx, p, w, c, next & 0xff);
		else
			bench_inner_xdp(nh.ctx, p, w, c, next & 0xff);
	}

	p->hook = hook;
	p->ifindex = ifindex;
	s->packets++;
	s->bytes += p->pkt_len;
	s->err[p->err & (DYNPF_STATS_ERR_SLOTS - 1)]++;
}

/* The global subprograms, for each context type (see call_tlv()). */
#define BENCH_GLOBALS(sfx, ctype, TC)                                                           \
	static __always_inline void cur_load_##sfx(struct hdr_cursor *nh, ctype *ctx,           \
						   const struct bench_cur *c)                   \
	{                                                                                       \
		nh->data = (void *)(long)ctx->data;                                             \
		nh->data_end = (void *)(long)ctx->data_end;                                     \
		nh->lend = c->lend;                                                             \
		nh->stack = c->stack;                                                           \
		nh->tc = TC;                                                                    \
		nh->ctx = ctx;                                                                  \
		cur_set(nh, c->off);                                                            \
	}                                                                                       \
                                                                                                \
	__noinline int bench_tlv_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w,   \
				       struct bench_cur *c)                                     \
	{                                                                                       \
		struct hdr_cursor nh;                                                           \
		struct dynpf_ext *e;                                                            \
		__u32 args;                                                                     \
		__u8 ext;                                                                       \
                                                                                                \
		if (!ctx || !p || !w || !c)                                                     \
			return -1;                                                              \
		args = c->args;                                                                 \
		ext = args >> 24;                                                               \
		cur_load_##sfx(&nh, ctx, c);                                                    \
		e = ext == 0xff ? NULL                                                          \
				: &p->st[c->stack & (DYNPF_MAX_STACKS - 1)]                     \
					   .ip6.ext[ext & (DYNPF_MAX_EXT - 1)];                 \
		return tlv_walk(&nh, p, w, args & 0xff, c->base, c->len, (args >> 8) & 0xff,    \
				(args >> 16) & 0xff, e);                                        \
	}                                                                                       \
                                                                                                \
	__noinline int bench_chain_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w, \
					 struct bench_cur *c)                                   \
	{                                                                                       \
		struct hdr_cursor nh;                                                           \
		int r;                                                                          \
                                                                                                \
		if (!ctx || !p || !w || !c)                                                     \
			return -1;                                                              \
		cur_load_##sfx(&nh, ctx, c);                                                    \
		r = parse_ip6_chain(&nh, p, w);                                                 \
		cur_save(&nh, c);                                                               \
		return r;                                                                       \
	}                                                                                       \
                                                                                                \
	__noinline int bench_inner_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w, \
					 struct bench_cur *c, int next)                         \
	{                                                                                       \
		struct hdr_cursor nh;                                                           \
                                                                                                \
		if (!ctx || !p || !w || !c)                                                     \
			return -1;                                                              \
		cur_load_##sfx(&nh, ctx, c);                                                    \
		next = parse_stack(&nh, p, w, next, 1);                                         \
		/* A tunnel in the tunnel: no third stack, as dynpf's default. */               \
		if (next > DYNPF_P_NONE && (next & DYNPF_NEXT_INNER))                           \
			set_err(p, DYNPF_E_DEPTH, next & 0xff, cur_off(&nh));                   \
		return 0;                                                                       \
	}

BENCH_GLOBALS(xdp, struct xdp_md, 0)
BENCH_GLOBALS(tc, struct __sk_buff, 1)

SEC("xdp")
int bench_direct_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(ctx, 0, data, data_end, data_end - data, DYNPF_HOOK_XDP, ctx->ingress_ifindex);
	return XDP_PASS;
}

/* Headers in the linear part only; the length counts every fragment. */
SEC("xdp.frags")
int bench_direct_xdp_frags(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(ctx, 0, data, data_end, bpf_xdp_get_buff_len(ctx), DYNPF_HOOK_XDP_FRAGS,
		   ctx->ingress_ifindex);
	return XDP_PASS;
}

SEC("tc")
int bench_direct_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	direct_run(skb, 1, data, data_end, skb->len, DYNPF_HOOK_TC_INGRESS, skb->ifindex);
	return BENCH_TC_NEXT;
}

#endif
