/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Protocols declared at runtime (include/dynpf/proto.h, docs/rules.md):
 * the header of one bound to a UDP or TCP destination port, an IP protocol
 * or an ethertype. The parser of the header it follows hands over with
 * dynpf_decl_next() (cursor.h) when the side's declarations bind something
 * there; this layer finds the declaration by that binding, reads its fixed
 * part and length fields, and walks its TLVs with the generic walker
 * (tlvstep.h) into the protocol's own family. Nothing after it is parsed.
 * A protocol declared in a built-in family's option areas is walked where
 * that family is (dynpf_tlv_walk_decl_areas()).
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
