/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Protocols declared at runtime (include/dynpf/proto.h, docs/rules.md):
 * the header of one bound to a UDP or TCP destination port, an IP protocol
 * or an ethertype, and the option areas of one declared in a built-in
 * family's areas. Both after the walk (dynpf_decl_post(), graph.h), which
 * knows nothing of them: from the layers the walk listed, what the last
 * one's payload is (dynpf_decl_key_after()) and which areas were walked
 * (dynpf_decl_area_of()). This layer finds the declaration by its binding,
 * reads its fixed part and length fields, and walks its TLVs with the
 * generic walker (tlvstep.h) into the protocol's own family. Nothing after
 * it is parsed.
 */
#ifndef DYNPF_PARSERS_DECL_H
#define DYNPF_PARSERS_DECL_H

#include "cursor.h"
#include "tlvstep.h"

/*
 * The value of a header's length field f (include/dynpf/proto.h), for the
 * header at base; -1 when its bytes are not there. One constant-size read
 * per size: the window's reads are of constant sizes.
 */
dynpf_inline __s64 dynpf_decl_field(struct dynpf_cursor *c, __u32 base,
				    const struct dynpf_lenfield *f)
{
	__u32 off = base + f->off;
	const __u8 *b;
	__u64 raw;

	switch (f->size) {
	case 1:
		b = dynpf__slice(c, off, 1);
		if (!b)
			return -1;
		raw = b[0];
		break;
	case 2:
		b = dynpf__slice(c, off, 2);
		if (!b)
			return -1;
		raw = dynpf_get_be16(b);
		break;
	case 3:
		b = dynpf__slice(c, off, 3);
		if (!b)
			return -1;
		raw = dynpf_get_be24(b);
		break;
	case 4:
		b = dynpf__slice(c, off, 4);
		if (!b)
			return -1;
		raw = dynpf_get_be32(b);
		break;
	default:
		return -1;
	}
	return (__s64)(((raw >> (f->shift & 31)) & f->mask) * f->unit + f->adj);
}

/* Does a layer of protocol proto carry an option area a built-in family walks? */
dynpf_inline int dynpf_decl_may_area(__u32 proto)
{
	return proto == DYNPF_P_TCP || proto == DYNPF_P_IPV4 || proto == DYNPF_P_GENEVE ||
	       proto == DYNPF_P_HOPOPTS || proto == DYNPF_P_DSTOPTS || proto == DYNPF_P_ROUTING;
}

/*
 * The option area of layer i, when it carries one a built-in family walks
 * (the walk, that listed the layer, walked it): its family, packet offset,
 * length and stack. 1, or 0. From the layer, as the parsers found it; an
 * SRH's TLVs start after its segments, whose count is read from its header
 * (c: the cursor).
 */
dynpf_inline int dynpf_decl_area_of(struct dynpf_cursor *c, const struct dynpf_pkt *p, __u32 i,
				    __u32 *family, __u32 *off, __u32 *len, __u8 *stack)
{
	const struct dynpf_layer *l;
	const __u8 *rt;
	__u64 li = i;
	__u32 skip;

	/* DYNPF_MAX_LAYERS is no power of 2: a test bounds li (fenced: see
	 * dynpf_area_ptr()). */
	dynpf_barrier_var(li);
	if (li >= DYNPF_MAX_LAYERS)
		return 0;
	dynpf_barrier_var(li);
	l = &p->layers[li];
	switch (l->proto) {
	case DYNPF_P_TCP:
		*family = DYNPF_TLV_TCP_OPT;
		skip = sizeof(struct dynpf_tcphdr);
		break;
	case DYNPF_P_IPV4:
		*family = DYNPF_TLV_IPV4_OPT;
		skip = sizeof(struct dynpf_iphdr);
		break;
	case DYNPF_P_GENEVE:
		*family = DYNPF_TLV_GENEVE_OPT;
		skip = 8;
		break;
	case DYNPF_P_HOPOPTS:
		*family = DYNPF_TLV_IPV6_HBH;
		skip = 2;
		break;
	case DYNPF_P_DSTOPTS:
		*family = DYNPF_TLV_IPV6_DST;
		skip = 2;
		break;
	case DYNPF_P_ROUTING:
		/* next header, length, type, segments left, last entry: type 4 is an SRH. */
		if (!(c->decl & DYNPF_DECL_AREA(DYNPF_TLV_SRH_TLV)))
			return 0;
		rt = dynpf__slice(c, l->off, 5);
		if (!rt || rt[2] != 4)
			return 0;
		*family = DYNPF_TLV_SRH_TLV;
		skip = 8 + ((__u32)rt[4] + 1) * 16;
		break;
	default:
		return 0;
	}
	if (l->len <= skip)
		return 0; /* an empty area: none walked */
	*off = l->off + skip;
	*len = l->len - skip;
	*stack = l->stack;
	return 1;
}

/*
 * Where the walk ended without an error, what a declared protocol may be
 * bound behind (decl: the bindings the declarations use): the binding's key, or 0.
 * The last layer's payload is one dynpf does not parse: a UDP datagram on
 * a port that is no tunnel's, a TCP segment, an IP protocol it does not
 * know (not a later fragment), an ethertype it does not know.
 */
dynpf_inline __u32 dynpf_decl_key_after(const struct dynpf_pkt *p, __u32 decl)
{
	const struct dynpf_layer *l;
	const struct dynpf_stack *st;
	__u64 n = p->nlayers;

	if (p->err || !n)
		return 0;
	n--;
	dynpf_barrier_var(n);
	if (n >= DYNPF_MAX_LAYERS)
		return 0;
	dynpf_barrier_var(n);
	l = &p->layers[n];
	st = &p->st[l->stack & (DYNPF_MAX_STACKS - 1)];
	switch (l->proto) {
	case DYNPF_P_UDP:
		return decl & DYNPF_DECL_UDP ? DYNPF_PROTO_KEY(DYNPF_PAT_UDP, st->l4.dport) : 0;
	case DYNPF_P_TCP:
		return decl & DYNPF_DECL_TCP ? DYNPF_PROTO_KEY(DYNPF_PAT_TCP, st->l4.dport) : 0;
	case DYNPF_P_ETH:
	case DYNPF_P_VLAN:
	case DYNPF_P_QINQ:
		return decl & DYNPF_DECL_ETHER ? DYNPF_PROTO_KEY(DYNPF_PAT_ETHER, st->l2.ethertype)
					       : 0;
	case DYNPF_P_IPV4:
	case DYNPF_P_IPV6:
	case DYNPF_P_HOPOPTS:
	case DYNPF_P_ROUTING:
	case DYNPF_P_FRAGMENT:
	case DYNPF_P_DSTOPTS:
	case DYNPF_P_AH:
		if (!(decl & DYNPF_DECL_IP) || (st->l3.frag & DYNPF_FRAG_NONFIRST))
			return 0;
		/* The next header of the chain's last entry, else the IP header's. */
		if (l->proto != DYNPF_P_IPV4 && l->proto != DYNPF_P_IPV6 && st->ip6.n &&
		    st->ip6.n <= DYNPF_MAX_EXT)
			return DYNPF_PROTO_KEY(
				DYNPF_PAT_IP,
				st->ip6.ext[(st->ip6.n - 1) & (DYNPF_MAX_EXT - 1)].nexthdr);
		return DYNPF_PROTO_KEY(DYNPF_PAT_IP, st->l3.proto);
	}
	return 0;
}

dynpf_inline int dynpf_parse_decl(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	const struct dynpf_proto_tab *tab = dynpf_decl_tab(c);
	const struct dynpf_proto_desc *d = NULL;
	__u32 start = c->off, i, fend, hend, room;
	__s64 v;
	int r;

	if (!tab || !c->decl_key)
		return DYNPF_P_NONE;
	for (i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (tab->key[i] == c->decl_key) {
			d = &tab->d[i];
			break;
		}
	}
	if (!d)
		return DYNPF_P_NONE; /* nothing declared there after all: no layer */
	c->decl_id = i + 1;
	if (c->off > c->end)
		return -DYNPF_E_TRUNCATED;
	room = c->end - c->off;
	/* The fixed part, which holds the length fields. */
	fend = d->fixed;
	if (fend > room)
		return -DYNPF_E_TRUNCATED;
	if (d->fixed_f.size) {
		v = dynpf_decl_field(c, start, &d->fixed_f);
		if (v < 0)
			return -DYNPF_E_TRUNCATED;
		if (v < d->fixed) {
			c->err_off = start + d->fixed_f.off;
			return -DYNPF_E_BAD_LEN;
		}
		if (v > room)
			return -DYNPF_E_TRUNCATED;
		fend = v;
	}
	/* Where the header, and its TLVs, end: a length field, or the payload's end. */
	hend = room;
	if (d->hdr_f.size) {
		v = dynpf_decl_field(c, start, &d->hdr_f);
		if (v < 0)
			return -DYNPF_E_TRUNCATED;
		if (v < fend) {
			c->err_off = start + d->hdr_f.off;
			return -DYNPF_E_BAD_LEN;
		}
		if (v > room)
			return -DYNPF_E_TRUNCATED;
		hend = v;
	}
	/* The fixed part is valid: an error from here on is in the TLVs. */
	c->keep_layer = 1;
	if (hend - fend > DYNPF_TLV_AREA_MAX) {
		c->err_off = start + fend;
		return -DYNPF_E_BAD_LEN;
	}
	c->off = start + hend;
	r = dynpf_tlv_walk_enc(c, p, DYNPF_TLV_NFAM + i, start + fend, hend - fend, &d->tlv);
	if (r < 0)
		return r;
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_DECL_H */
