/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Ethernet II and its 802.1Q / 802.1ad tags. */
#ifndef DYNPF_PARSERS_ETH_H
#define DYNPF_PARSERS_ETH_H

#include "cursor.h"

/* Map an ethertype to the next layer; 0 (DYNPF_P_NONE) ends the walk. */
dynpf_inline int dynpf_ethertype_next(__u16 proto)
{
	switch (proto) {
	case DYNPF_ETH_P_8021Q:
		return DYNPF_P_VLAN;
	case DYNPF_ETH_P_8021AD:
		return DYNPF_P_QINQ;
	case DYNPF_ETH_P_ARP:
		return DYNPF_P_ARP;
	case DYNPF_ETH_P_IPV4:
		return DYNPF_P_IPV4;
	case DYNPF_ETH_P_IPV6:
		return DYNPF_P_IPV6;
	case DYNPF_ETH_P_MPLS_UC:
	case DYNPF_ETH_P_MPLS_MC:
		return DYNPF_P_MPLS;
	default:
		/* Includes 802.3 length fields (< 0x0600): LLC is not parsed. */
		return DYNPF_P_NONE;
	}
}

dynpf_inline int dynpf_parse_eth(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l2 *l2 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l2;
	const struct dynpf_ethhdr *eth = dynpf_cur_slice(c, c->off, struct dynpf_ethhdr);
	__u16 proto;

	if (!eth)
		return -DYNPF_E_TRUNCATED;
	proto = dynpf_ntohs(eth->proto);
#if defined(__bpf__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * The addresses are the header's first 12 bytes and l2's: two loads
	 * and four 64-bit stores (the header's tail, the ethertype in host
	 * order, no tag), where clang copies 6-byte arrays a byte at a time.
	 */
	{
		__u64 *w = (__u64 *)(void *)l2;

		_Static_assert(sizeof(*l2) == 32 && __builtin_offsetof(struct dynpf_l2, src) == 6 &&
				       __builtin_offsetof(struct dynpf_l2, ethertype) == 12 &&
				       __builtin_offsetof(struct dynpf_l2, nvlan) == 14,
			       "struct dynpf_l2: the header's layout, then the tags");
		w[0] = *(const __u64 *)(const void *)eth;
		w[1] = *(const __u32 *)(const void *)((const __u8 *)eth + 8) | (__u64)proto << 32;
		w[2] = 0;
		w[3] = 0;
	}
#else
	*l2 = (struct dynpf_l2){ .ethertype = proto };
	__builtin_memcpy(l2->dst, eth->dst, 6);
	__builtin_memcpy(l2->src, eth->src, 6);
#endif
	c->off += sizeof(*eth);
	/* The outer tag, when the kernel moved it out of the bytes: it was
	 * the first after the MAC addresses, so it is the first tag. */
	if (c->area->vlan_offload && !c->stack) {
		__u32 tag = c->area->vlan_offload;

		l2->vlan_tpid[0] = tag >> 16;
		l2->vlan_tci[0] = tag & 0xffff;
		l2->nvlan = 1;
		l2->flags = DYNPF_L2_VLAN_OFFLOAD;
		c->area->vlan_offload = 0;
	}
	return dynpf_ethertype_next(proto);
}

/* One 802.1Q or 802.1ad tag; the caller enforces the depth limit. */
dynpf_inline int dynpf_parse_vlan(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l2 *l2 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l2;
	const struct dynpf_vlanhdr *vh = dynpf_cur_slice(c, c->off, struct dynpf_vlanhdr);
	__u32 n = l2->nvlan;
	__u16 proto;

	if (!vh)
		return -DYNPF_E_TRUNCATED;
	if (n >= DYNPF_MAX_VLANS)
		return -DYNPF_E_DEPTH;
	proto = dynpf_ntohs(vh->proto);
	/* The tag's TPID is the ethertype that announced it. */
	l2->vlan_tpid[n] = l2->ethertype;
	l2->vlan_tci[n] = dynpf_ntohs(vh->tci);
	l2->nvlan = n + 1;
	l2->ethertype = proto;
	c->off += sizeof(*vh);
	return dynpf_ethertype_next(proto);
}

#endif /* DYNPF_PARSERS_ETH_H */
