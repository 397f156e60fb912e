/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* ARP (RFC 826); addresses decoded for Ethernet/IPv4 only. */
#ifndef DYNPF_PARSERS_ARP_H
#define DYNPF_PARSERS_ARP_H

#include "cursor.h"

dynpf_inline int dynpf_parse_arp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_arp *arp = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].arp;
	const struct dynpf_arp_eth_ipv4 *a;
	const struct dynpf_arphdr *h;
	__u32 hlen;

	/* The fixed part first: its hlen/plen size the rest. */
	h = dynpf_cur_slice(c, c->off, struct dynpf_arphdr);
	if (!h)
		return -DYNPF_E_TRUNCATED;
	*arp = (struct dynpf_arp){
		.htype = dynpf_ntohs(h->htype),
		.ptype = dynpf_ntohs(h->ptype),
		.hlen = h->hlen,
		.plen = h->plen,
		.op = dynpf_ntohs(h->op),
	};
	hlen = sizeof(*h) + 2 * ((__u32)arp->hlen + arp->plen);
	if (!dynpf_cur_need(c, c->off, hlen))
		return -DYNPF_E_TRUNCATED;
	if (arp->htype == 1 && arp->ptype == DYNPF_ETH_P_IPV4 && arp->hlen == 6 && arp->plen == 4) {
		a = dynpf_cur_slice(c, c->off, struct dynpf_arp_eth_ipv4);
		if (!a)
			return -DYNPF_E_TRUNCATED;
		__builtin_memcpy(arp->sha, a->sha, 6);
		__builtin_memcpy(arp->spa, a->spa, 4);
		__builtin_memcpy(arp->tha, a->tha, 6);
		__builtin_memcpy(arp->tpa, a->tpa, 4);
	}
	c->off += hlen;
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_ARP_H */
