/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Tunnels and label stacks: MPLS (RFC 3032), GRE (RFC 2784/2890), VXLAN
 * (RFC 7348), Geneve (RFC 8926, options through the TLV walker), GTP-U
 * (3GPP TS 29.281), and IP-in-IP / IPv6-in-IPv6 (announced by ip.h). A tunnel
 * header belongs to the stack that carries it; what it carries is parsed as
 * the next stack (DYNPF_NEXT_INNER), up to the max_stacks setting.
 */
#ifndef DYNPF_PARSERS_TUNNEL_H
#define DYNPF_PARSERS_TUNNEL_H

#include "cursor.h"
#include "tlvstep.h"

#define DYNPF_ETH_P_TEB 0x6558 /* transparent Ethernet bridging */

/* The inner packet's first protocol, from an ethertype; 0: not parsed. */
dynpf_inline int dynpf_tun_inner(__u16 ethertype)
{
	switch (ethertype) {
	case DYNPF_ETH_P_TEB:
		return DYNPF_P_ETH | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV4:
		return DYNPF_P_IPV4 | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV6:
		return DYNPF_P_IPV6 | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_MPLS_UC:
	case DYNPF_ETH_P_MPLS_MC:
		return DYNPF_P_MPLS | DYNPF_NEXT_INNER;
	}
	return DYNPF_P_NONE;
}

/* IP version guessed from the first nibble (MPLS, GTP-U payloads). */
dynpf_inline int dynpf_guess_ip(struct dynpf_cursor *c, int inner)
{
	const __u8 *b = dynpf_cur_slice(c, c->off, __u8);

	if (!b)
		return DYNPF_P_NONE;
	if (b[0] >> 4 == 4)
		return DYNPF_P_IPV4 | inner;
	if (b[0] >> 4 == 6)
		return DYNPF_P_IPV6 | inner;
	return DYNPF_P_NONE;
}

/* An MPLS label stack, up to bottom-of-stack: one layer. */
dynpf_inline int dynpf_parse_mpls(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_mpls *m = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].mpls;
	__u32 i, lse;

	m->n = 0;
	for (i = 0; i < DYNPF_MAX_MPLS; i++) {
		const struct dynpf_be32 *l = dynpf_cur_slice(c, c->off, struct dynpf_be32);

		if (!l)
			return -DYNPF_E_TRUNCATED;
		lse = dynpf_ntohl(l->v);
		m->lse[i] = lse;
		m->n = i + 1;
		c->off += 4;
		if (lse & 0x100) /* bottom of stack */
			return dynpf_guess_ip(c, 0);
	}
	/* No bottom of stack within the limit. */
	c->err_off = c->off;
	return -DYNPF_E_DEPTH;
}

struct dynpf_grehdr {
	__be16 flags;
	__be16 proto;
} DYNPF_WIRE;

#define DYNPF_GRE_C 0x8000
#define DYNPF_GRE_R 0x4000
#define DYNPF_GRE_K 0x2000
#define DYNPF_GRE_S 0x1000
#define DYNPF_GRE_RESERVED 0x0ff8 /* strict source route, recursion, flags */
#define DYNPF_GRE_VERSION 0x0007

dynpf_inline int dynpf_parse_gre(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].tun;
	const struct dynpf_grehdr *g = dynpf_cur_slice(c, c->off, struct dynpf_grehdr);
	__u32 len = sizeof(*g), f;
	const struct dynpf_be32 *v;

	if (!g)
		return -DYNPF_E_TRUNCATED;
	f = dynpf_ntohs(g->flags);
	*t = (struct dynpf_tun){ .proto = DYNPF_P_GRE, .flags = f, .inner = dynpf_ntohs(g->proto) };
	/* RFC 2784 2.3.1: version 0; version 1 is PPTP's (RFC 2637); no other. */
	if ((f & DYNPF_GRE_VERSION) > 1)
		return -DYNPF_E_BAD_VERSION;
	/*
	 * RFC 2784: bits 1-5 must be zero, but for key and sequence (RFC 2890);
	 * PPTP's enhanced GRE (version 1, RFC 2637) also uses bit 8, A.
	 */
	if (f & (DYNPF_GRE_R | DYNPF_GRE_RESERVED) & ~((f & DYNPF_GRE_VERSION) == 1 ? 0x0080 : 0))
		return -DYNPF_E_BAD_HDR;
	if (f & DYNPF_GRE_C)
		len += 4; /* checksum + reserved1 */
	if (f & DYNPF_GRE_K) {
		v = dynpf_cur_slice(c, c->off + len, struct dynpf_be32);
		if (!v)
			return -DYNPF_E_TRUNCATED;
		t->key = dynpf_ntohl(v->v);
		len += 4;
	}
	if (f & DYNPF_GRE_S) {
		v = dynpf_cur_slice(c, c->off + len, struct dynpf_be32);
		if (!v)
			return -DYNPF_E_TRUNCATED;
		t->seq = dynpf_ntohl(v->v);
		len += 4;
	}
	if (!dynpf_cur_need(c, c->off, len))
		return -DYNPF_E_TRUNCATED;
	c->off += len;
	/* Version 1 is PPTP's enhanced GRE: its payload is not parsed. */
	if ((f & DYNPF_GRE_VERSION) == 1)
		return DYNPF_P_NONE;
	return dynpf_tun_inner(t->inner);
}

struct dynpf_vxlanhdr {
	__u8 flags;
	__u8 reserved[3];
	__u8 vni[3];
	__u8 reserved2;
} DYNPF_WIRE;

#define DYNPF_VXLAN_I 0x08

dynpf_inline int dynpf_parse_vxlan(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].tun;
	const struct dynpf_vxlanhdr *h = dynpf_cur_slice(c, c->off, struct dynpf_vxlanhdr);

	if (!h)
		return -DYNPF_E_TRUNCATED;
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_VXLAN,
		.flags = h->flags,
		.inner = DYNPF_ETH_P_TEB,
		.vni = dynpf_get_be24(h->vni),
	};
	/* RFC 7348: the I flag must be set for the VNI to be valid. */
	if (!(h->flags & DYNPF_VXLAN_I))
		return -DYNPF_E_BAD_HDR;
	c->off += sizeof(*h);
	return DYNPF_P_ETH | DYNPF_NEXT_INNER;
}

struct dynpf_genevehdr {
	__u8 ver_optlen; /* version:2, option length:6 in 4-byte words */
	__u8 flags;      /* O:1 C:1 */
	__be16 proto;
	__u8 vni[3];
	__u8 reserved;
} DYNPF_WIRE;

dynpf_inline int dynpf_parse_geneve(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].tun;
	const struct dynpf_genevehdr *h = dynpf_cur_slice(c, c->off, struct dynpf_genevehdr);
	__u32 optlen;
	int r;

	if (!h)
		return -DYNPF_E_TRUNCATED;
	optlen = (h->ver_optlen & 0x3f) * 4;
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_GENEVE,
		.flags = (__u16)h->ver_optlen << 8 | h->flags,
		.inner = dynpf_ntohs(h->proto),
		.vni = dynpf_get_be24(h->vni),
		.opt_len = optlen,
	};
	if (h->ver_optlen >> 6)
		return -DYNPF_E_BAD_VERSION;
	if (!dynpf_cur_need(c, c->off, sizeof(*h) + optlen))
		return -DYNPF_E_TRUNCATED;
	c->off += sizeof(*h) + optlen;
	if (!(c->skip & DYNPF_SKIP_TUN_OPT)) {
		c->keep_layer = 1;
		r = dynpf_tlv_walk_inline(c, p, DYNPF_TLV_GENEVE_OPT, c->off - optlen, optlen, 0);
		if (r < 0)
			return r;
	}
	return dynpf_tun_inner(t->inner);
}

struct dynpf_gtpuhdr {
	__u8 flags; /* version:3 PT:1 reserved:1 E:1 S:1 PN:1 */
	__u8 type;
	__be16 len;
	__be32 teid;
} DYNPF_WIRE;

struct dynpf_gtpu_opt {
	__be16 seq;
	__u8 npdu;
	__u8 next_ext;
} DYNPF_WIRE;

#define DYNPF_GTPU_GPDU 255

dynpf_inline int dynpf_parse_gtpu(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].tun;
	const struct dynpf_gtpuhdr *h = dynpf_cur_slice(c, c->off, struct dynpf_gtpuhdr);
	const struct dynpf_gtpu_opt *o;
	__u32 i, next, elen, glen;
	const __u8 *l;
	__u8 flags, type;

	if (!h)
		return -DYNPF_E_TRUNCATED;
	/* Kept: the next slice may slide the window away from h. */
	flags = h->flags;
	type = h->type;
	glen = dynpf_ntohs(h->len);
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_GTPU,
		.flags = h->flags,
		.msg_type = h->type,
		.key = dynpf_ntohl(h->teid),
		.len = glen,
	};
	/* GTPv1 (version 1) with protocol type GTP (PT 1). */
	if (flags >> 5 != 1 || !(flags & 0x10))
		return -DYNPF_E_BAD_VERSION;
	/*
	 * TS 29.281 5.1: Length counts what follows the mandatory 8 bytes, the
	 * optional fields and extension headers included; it ends the message
	 * for them and for the inner packet.
	 */
	if ((flags & 0x07) && glen < sizeof(*o)) {
		c->err_off = c->off + 2;
		return -DYNPF_E_BAD_LEN;
	}
	if (!dynpf_cur_need(c, c->off, sizeof(*h) + glen))
		return -DYNPF_E_TRUNCATED;
	c->end = c->off + sizeof(*h) + glen;
	c->off += sizeof(*h);
	if (flags & 0x07) {
		o = dynpf_cur_slice(c, c->off, struct dynpf_gtpu_opt);
		if (!o)
			return -DYNPF_E_TRUNCATED;
		t->seq = dynpf_ntohs(o->seq);
		next = (flags & 0x04) ? o->next_ext : 0;
		t->next_ext = next;
		c->off += sizeof(*o);
		/* Extension headers: length in 4-byte words, next type last. */
		for (i = 0; i <= DYNPF_MAX_GTP_EXT && next; i++) {
			if (i == DYNPF_MAX_GTP_EXT) {
				c->err_off = c->off;
				return -DYNPF_E_DEPTH;
			}
			t->ext_type[i] = next;
			t->n_ext = i + 1;
			l = dynpf_cur_slice(c, c->off, __u8);
			if (!l)
				return -DYNPF_E_TRUNCATED;
			elen = (__u32)l[0] * 4;
			if (!elen) {
				c->err_off = c->off;
				return -DYNPF_E_BAD_LEN;
			}
			l = dynpf_cur_slice(c, c->off + elen - 1, __u8);
			if (!l || !dynpf_cur_need(c, c->off, elen))
				return -DYNPF_E_TRUNCATED;
			next = l[0];
			c->off += elen;
		}
	}
	if (type != DYNPF_GTPU_GPDU)
		return DYNPF_P_NONE;
	return dynpf_guess_ip(c, DYNPF_NEXT_INNER);
}

#endif /* DYNPF_PARSERS_TUNNEL_H */
