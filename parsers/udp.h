/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* UDP (RFC 768). */
#ifndef DYNPF_PARSERS_UDP_H
#define DYNPF_PARSERS_UDP_H

#include "cursor.h"

dynpf_inline int dynpf_parse_udp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)];
	const struct dynpf_udphdr *uh = dynpf_cur_slice(c, c->off, struct dynpf_udphdr);
	__u32 ulen;

	if (!uh)
		return -DYNPF_E_TRUNCATED;
	ulen = dynpf_ntohs(uh->len);
	/*
	 * RFC 2675 section 4: a UDP jumbogram (more than 65,535 bytes) has
	 * length 0, and ends where the jumbogram does (c->end already).
	 */
	if (!ulen && st->ip6.n && (st->ip6.ext[0].flags & DYNPF_EXTF_JUMBO) &&
	    c->end - c->off > 0xffff)
		ulen = c->end - c->off;
	if (ulen < sizeof(*uh))
		return -DYNPF_E_BAD_LEN;
	/* A first fragment holds only part of the datagram its length counts. */
	if (!(st->l3.frag & DYNPF_FRAG_IS_FRAG) && !dynpf_cur_need(c, c->off, ulen))
		return -DYNPF_E_TRUNCATED;
	/*
	 * The datagram ends where its length says: a tunnel header and the
	 * inner packet behind it are read within it, never from the bytes
	 * after it (parsers/README.md, "Length fields").
	 */
	if (ulen < c->end - c->off)
		c->end = c->off + ulen;
	st->l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(uh->sport),
		.dport = dynpf_ntohs(uh->dport),
		.ulen = ulen > 0xffff ? 0 : ulen, /* the field: 0 in a UDP jumbogram */
		.hdr_len = sizeof(*uh),
	};
	c->off += sizeof(*uh);
	/* UDP tunnels by their IANA destination ports. */
	switch (st->l4.dport) {
	case 4789:
		return DYNPF_P_VXLAN;
	case 6081:
		return DYNPF_P_GENEVE;
	case 2152:
		return DYNPF_P_GTPU;
	}
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_UDP_H */
