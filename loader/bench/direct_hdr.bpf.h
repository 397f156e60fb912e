/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's fixed headers (direct.bpf.h): Ethernet and its VLAN
 * tags, IPv4 (options skipped, not walked), IPv6 (the extension chain is
 * direct_ext.bpf.h's), UDP and the tunnels its ports name.
 */
#ifndef DYNPF_BENCH_DIRECT_HDR_BPF_H
#define DYNPF_BENCH_DIRECT_HDR_BPF_H

#include "direct_cursor.bpf.h"

/* Ethernet, then up to DYNPF_MAX_VLANS 802.1Q/802.1ad tags. */
static __always_inline int parse_eth(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_l2 *l2 = &cur_st(nh, p)->l2;
	struct dynpf_ethhdr *eth = nh->pos;
	struct dynpf_vlanhdr *vh;
	__u32 off = cur_off(nh);
	__u16 proto;
	int next, i;

	if ((void *)(eth + 1) > nh->data_end || !cur_need(nh, sizeof(*eth))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_ETH, off);
		return -1;
	}
	proto = dynpf_ntohs(eth->proto);
	*l2 = (struct dynpf_l2){ .ethertype = proto };
	__builtin_memcpy(l2->dst, eth->dst, 6);
	__builtin_memcpy(l2->src, eth->src, 6);
	add_layer(nh, p, DYNPF_P_ETH, off, sizeof(*eth));
	nh->pos = eth + 1;
	next = next_from_ethertype(proto);

	for (i = 0; i < DYNPF_MAX_VLANS; i++) {
		if (next != DYNPF_P_VLAN && next != DYNPF_P_QINQ)
			return next;
		vh = nh->pos;
		if ((void *)(vh + 1) > nh->data_end || !cur_need(nh, sizeof(*vh))) {
			set_err(p, DYNPF_E_TRUNCATED, next, cur_off(nh));
			return -1;
		}
		proto = dynpf_ntohs(vh->proto);
		l2->vlan_tpid[i] = l2->ethertype;
		l2->vlan_tci[i] = dynpf_ntohs(vh->tci);
		l2->nvlan = i + 1;
		l2->ethertype = proto;
		add_layer(nh, p, next, cur_off(nh), sizeof(*vh));
		nh->pos = vh + 1;
		next = next_from_ethertype(proto);
	}
	if (next == DYNPF_P_VLAN || next == DYNPF_P_QINQ) {
		set_err(p, DYNPF_E_DEPTH, next, cur_off(nh));
		return -1;
	}
	return next;
}

static __always_inline int parse_ipv4(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l3 *l3 = &st->l3;
	struct dynpf_iphdr *iph = nh->pos;
	__u32 off = cur_off(nh), hlen, tot_len;
	__u16 frag;

	if ((void *)(iph + 1) > nh->data_end || !cur_need(nh, sizeof(*iph))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV4, off);
		return -1;
	}
	if (iph->ver_ihl >> 4 != 4) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_IPV4, off);
		return -1;
	}
	hlen = (iph->ver_ihl & 0xf) * 4;
	tot_len = dynpf_ntohs(iph->tot_len);
	if (hlen < sizeof(*iph) || tot_len < hlen) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_IPV4, off);
		return -1;
	}
	if (!cur_need(nh, tot_len)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV4, off);
		return -1;
	}
	frag = dynpf_ntohs(iph->frag_off);
	*l3 = (struct dynpf_l3){
		.version = 4,
		.proto = iph->proto,
		.ttl = iph->ttl,
		.tos = iph->tos,
		.tot_len = tot_len,
		.id = dynpf_ntohs(iph->id),
		.frag_off = frag & DYNPF_IP_OFFMASK,
		.hdr_len = hlen,
	};
	__builtin_memcpy(l3->saddr, iph->saddr, 4);
	__builtin_memcpy(l3->daddr, iph->daddr, 4);
	if (frag & DYNPF_IP_DF)
		l3->frag |= DYNPF_FRAG_DF;
	if (frag & DYNPF_IP_MF)
		l3->frag |= DYNPF_FRAG_MF;
	if (frag & (DYNPF_IP_MF | DYNPF_IP_OFFMASK))
		l3->frag |= DYNPF_FRAG_IS_FRAG;
	st->ip4opt = (struct dynpf_ipv4opt){};
	add_layer(nh, p, DYNPF_P_IPV4, off, hlen);
	nh->lend = off + tot_len;
	/* hlen <= 60: a bounded step, checked against data_end by the next header. */
	nh->pos += hlen & 0x3c;
	if (frag & DYNPF_IP_OFFMASK) {
		l3->frag |= DYNPF_FRAG_NONFIRST;
		return DYNPF_P_NONE;
	}
	return next_from_ipproto(iph->proto, 0);
}

static __always_inline int parse_ipv6(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l3 *l3 = &st->l3;
	struct dynpf_ipv6hdr *ip6h = nh->pos;
	__u32 off = cur_off(nh), vtf, plen;

	if ((void *)(ip6h + 1) > nh->data_end || !cur_need(nh, sizeof(*ip6h))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV6, off);
		return -1;
	}
	vtf = dynpf_ntohl(ip6h->ver_tc_flow);
	if (vtf >> 28 != 6) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_IPV6, off);
		return -1;
	}
	plen = dynpf_ntohs(ip6h->payload_len);
	if (!cur_need(nh, sizeof(*ip6h) + plen)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV6, off);
		return -1;
	}
	*l3 = (struct dynpf_l3){
		.version = 6,
		.proto = ip6h->nexthdr,
		.ttl = ip6h->hop_limit,
		.tos = (vtf >> 20) & 0xff,
		.tot_len = plen,
		.hdr_len = sizeof(*ip6h),
		.flow_label = vtf & 0xfffff,
	};
	__builtin_memcpy(l3->saddr, ip6h->saddr, 16);
	__builtin_memcpy(l3->daddr, ip6h->daddr, 16);
	st->ip6.n = 0;
	st->ip6.flags = 0;
	st->ip6.seen = 0;
	add_layer(nh, p, DYNPF_P_IPV6, off, sizeof(*ip6h));
	/* Payload length 0 with hop-by-hop may be a jumbogram: keep the end. */
	if (plen || ip6h->nexthdr != 0)
		nh->lend = off + sizeof(*ip6h) + plen;
	nh->pos = ip6h + 1;
	return next_from_ipproto(ip6h->nexthdr, 1);
}

/* UDP tunnels by their IANA destination ports, as dynpf's UDP parser. */
#define BENCH_PORT_VXLAN 4789
#define BENCH_PORT_GENEVE 6081

static __always_inline int parse_udp(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l4 *l4 = &st->l4;
	struct dynpf_udphdr *uh = nh->pos;
	__u32 off = cur_off(nh), ulen;

	if ((void *)(uh + 1) > nh->data_end || !cur_need(nh, sizeof(*uh))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_UDP, off);
		return -1;
	}
	ulen = dynpf_ntohs(uh->len);
	if (ulen < sizeof(*uh)) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_UDP, off);
		return -1;
	}
	if (!(st->l3.frag & DYNPF_FRAG_IS_FRAG) && !cur_need(nh, ulen)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_UDP, off);
		return -1;
	}
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(uh->sport),
		.dport = dynpf_ntohs(uh->dport),
		.ulen = ulen,
		.hdr_len = sizeof(*uh),
	};
	add_layer(nh, p, DYNPF_P_UDP, off, sizeof(*uh));
	p->l4_payload_off = off + sizeof(*uh);
	nh->pos = uh + 1;
	switch (l4->dport) {
	case BENCH_PORT_VXLAN:
		return DYNPF_P_VXLAN;
	case BENCH_PORT_GENEVE:
		return DYNPF_P_GENEVE;
	}
	return DYNPF_P_NONE;
}

#endif
