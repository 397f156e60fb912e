/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* IPv4 (RFC 791) and the IPv6 fixed header (RFC 8200); IPv4 options: tlvstep.h. */
#ifndef DYNPF_PARSERS_IP_H
#define DYNPF_PARSERS_IP_H

#include "cursor.h"
#include "tlvstep.h"

#define DYNPF_IPPROTO_HOPOPTS 0
#define DYNPF_IPPROTO_ROUTING 43
#define DYNPF_IPPROTO_FRAGMENT 44
#define DYNPF_IPPROTO_ESP 50
#define DYNPF_IPPROTO_AH 51
#define DYNPF_IPPROTO_NONE 59
#define DYNPF_IPPROTO_DSTOPTS 60

/* Map an IP protocol / next header to the next layer. */
dynpf_inline int dynpf_ipproto_next(__u8 proto, int v6)
{
	if (v6) {
		switch (proto) {
		case DYNPF_IPPROTO_HOPOPTS:
			return DYNPF_P_HOPOPTS;
		case DYNPF_IPPROTO_ROUTING:
			return DYNPF_P_ROUTING;
		case DYNPF_IPPROTO_FRAGMENT:
			return DYNPF_P_FRAGMENT;
		case DYNPF_IPPROTO_DSTOPTS:
			return DYNPF_P_DSTOPTS;
		}
	}
	switch (proto) {
	/* IPsec, behind IPv4 as behind IPv6 (RFC 4302, 4303). */
	case DYNPF_IPPROTO_AH:
		return DYNPF_P_AH;
	case DYNPF_IPPROTO_ESP:
		return DYNPF_P_ESP;
	case DYNPF_IPPROTO_IPIP: /* IPv4 in IPv4 or IPv6 (RFC 2003, 2473) */
		return DYNPF_P_IPV4 | DYNPF_NEXT_INNER;
	case DYNPF_IPPROTO_IPV6: /* IPv6 in IPv4 or IPv6 (RFC 4213, 2473) */
		return DYNPF_P_IPV6 | DYNPF_NEXT_INNER;
	case DYNPF_IPPROTO_GRE:
		return DYNPF_P_GRE;
	case DYNPF_IPPROTO_TCP:
		return DYNPF_P_TCP;
	case DYNPF_IPPROTO_UDP:
		return DYNPF_P_UDP;
	case DYNPF_IPPROTO_ICMP:
		return v6 ? DYNPF_P_NONE : DYNPF_P_ICMP;
	case DYNPF_IPPROTO_ICMPV6:
		return v6 ? DYNPF_P_ICMPV6 : DYNPF_P_NONE;
	default:
		return DYNPF_P_NONE;
	}
}

/*
 * A stack's extension-header chain starts empty at its IP header: IPv6's
 * extension headers, and AH and ESP behind either version.
 */
dynpf_inline void dynpf_chain_reset(struct dynpf_stack *st)
{
	st->ip6.n = 0;
	st->ip6.flags = 0;
	st->ip6.seen = 0;
}

dynpf_inline int dynpf_parse_ipv4(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)];
	struct dynpf_l3 *l3 = &st->l3;
	const struct dynpf_iphdr *ip = dynpf_cur_slice(c, c->off, struct dynpf_iphdr);
	__u32 hlen, tot_len;
	__u16 frag;
	int r;

	if (!ip)
		return -DYNPF_E_TRUNCATED;
	if (ip->ver_ihl >> 4 != 4)
		return -DYNPF_E_BAD_VERSION;
	hlen = (ip->ver_ihl & 0xf) * 4;
	tot_len = dynpf_ntohs(ip->tot_len);
	if (hlen < sizeof(*ip) || tot_len < hlen)
		return -DYNPF_E_BAD_LEN;
	if (!dynpf_cur_need(c, c->off, tot_len))
		return -DYNPF_E_TRUNCATED;
	frag = dynpf_ntohs(ip->frag_off);
	*l3 = (struct dynpf_l3){
		.version = 4,
		.proto = ip->proto,
		.ttl = ip->ttl,
		.tos = ip->tos,
		.tot_len = tot_len,
		.id = dynpf_ntohs(ip->id),
		.frag_off = frag & DYNPF_IP_OFFMASK,
		.hdr_len = hlen,
	};
	__builtin_memcpy(l3->saddr, ip->saddr, 4);
	__builtin_memcpy(l3->daddr, ip->daddr, 4);
	if (frag & DYNPF_IP_DF)
		l3->frag |= DYNPF_FRAG_DF;
	if (frag & DYNPF_IP_MF)
		l3->frag |= DYNPF_FRAG_MF;
	if (frag & (DYNPF_IP_MF | DYNPF_IP_OFFMASK))
		l3->frag |= DYNPF_FRAG_IS_FRAG;
	if (frag & DYNPF_IP_OFFMASK)
		l3->frag |= DYNPF_FRAG_NONFIRST;
	st->ip4opt = (struct dynpf_ipv4opt){};
	dynpf_chain_reset(st);
	/* Trailing bytes past the datagram (Ethernet padding) are not ours. */
	c->end = c->off + tot_len;
	c->off += hlen;
	if (hlen > sizeof(*ip)) {
		/* The header is valid: an error from here on is in its options. */
		c->keep_layer = 1;
		r = dynpf_tlv_walk(c, p, DYNPF_TLV_IPV4_OPT, c->off - hlen + sizeof(*ip),
				   hlen - sizeof(*ip), 0);
		if (r < 0)
			return r;
		c->keep_layer = 0;
	}
	/* A non-first fragment carries no L4 header, whatever its bytes say. */
	if (frag & DYNPF_IP_OFFMASK)
		return DYNPF_P_NONE;
	return dynpf_ipproto_next(l3->proto, 0); /* not ip: the walk may slide the window */
}

dynpf_inline int dynpf_parse_ipv6(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l3 *l3 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l3;
	const struct dynpf_ipv6hdr *ip6 = dynpf_cur_slice(c, c->off, struct dynpf_ipv6hdr);
	__u32 vtf, plen;

	if (!ip6)
		return -DYNPF_E_TRUNCATED;
	vtf = dynpf_ntohl(ip6->ver_tc_flow);
	if (vtf >> 28 != 6)
		return -DYNPF_E_BAD_VERSION;
	plen = dynpf_ntohs(ip6->payload_len);
	if (!dynpf_cur_need(c, c->off, sizeof(*ip6) + plen))
		return -DYNPF_E_TRUNCATED;
	*l3 = (struct dynpf_l3){
		.version = 6,
		.proto = ip6->nexthdr,
		.ttl = ip6->hop_limit,
		.tos = (vtf >> 20) & 0xff,
		.tot_len = plen,
		.hdr_len = sizeof(*ip6),
		.flow_label = vtf & 0xfffff,
	};
	__builtin_memcpy(l3->saddr, ip6->saddr, 16);
	__builtin_memcpy(l3->daddr, ip6->daddr, 16);
	dynpf_chain_reset(&p->st[c->stack & (DYNPF_MAX_STACKS - 1)]);
	/*
	 * Payload length 0 with a hop-by-hop header may be a jumbogram (RFC
	 * 2675), sized by its option: keep the packet's end for it.
	 */
	if (plen || ip6->nexthdr != 0)
		c->end = c->off + sizeof(*ip6) + plen;
	c->off += sizeof(*ip6);
	return dynpf_ipproto_next(ip6->nexthdr, 1);
}

#endif /* DYNPF_PARSERS_IP_H */
