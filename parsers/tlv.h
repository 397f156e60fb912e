/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The generic TLV walker. Every option area dynpf understands (TCP options
 * now; IPv4 options, IPv6 hop-by-hop/destination options, SRH TLVs and Geneve
 * options share it) is described by a struct dynpf_tlv_desc and walked by
 * dynpf_tlv_next(), which checks every length against the area and records
 * each TLV in the parse result. The family's parser only decodes the types
 * it knows, from bytes already in the area: no helper call per TLV.
 *
 * The area is fetched once by the caller with dynpf_cur_area(), so its bytes
 * are on hand (in the packet or copied) and the walk is plain loads.
 */
#ifndef DYNPF_PARSERS_TLV_H
#define DYNPF_PARSERS_TLV_H

#include "cursor.h"

#define DYNPF_TLV_NOTYPE 0xffffffffu

struct dynpf_tlv_desc {
	__u8 family;    /* DYNPF_TLV_* */
	__u8 hdr_len;   /* bytes of type + length fields */
	__u8 type_len;  /* 1, 2 or 3 bytes of type, big endian, at offset 0 */
	__u8 len_off;   /* offset of the 1-byte length field */
	__u8 len_mask;  /* bits of the length byte that hold the length */
	__u8 len_unit;  /* total length = (len & mask) * unit + adj */
	__u8 len_adj;
	__u8 min_len;   /* smallest valid total length */
	__u32 end_type; /* single-byte type ending the area, or DYNPF_TLV_NOTYPE */
	__u32 pad1_type; /* single-byte padding type, or DYNPF_TLV_NOTYPE */
};

/*
 * Offsets are 64-bit on purpose: with 32-bit ones clang zero-extends a copy
 * of the register it bounds-checked and indexes with another, and the
 * verifier loses the bound.
 */
struct dynpf_tlv_it {
	__u64 len;     /* bytes in the area */
	__u64 pos;     /* offset of the next TLV within the area */
	__u64 base;    /* packet offset of the area */
	__u64 type;    /* current TLV: type, total length, offset in area */
	__u64 tlen;
	__u64 toff;
};

dynpf_inline void dynpf_tlv_it_init(struct dynpf_tlv_it *it, __u32 len, __u32 base)
{
	*it = (struct dynpf_tlv_it){ .len = len, .base = base };
}

/*
 * Step to the next TLV of area a. amax is the size a is valid for (the
 * buffer size given to dynpf_cur_area); it bounds every index for the
 * verifier, while it->len bounds them for the protocol.
 *
 * Returns 1 with it->type/tlen/toff set, 0 at the end of the area (or after an
 * end type, which is itself returned first as a 1-byte TLV), or
 * -DYNPF_E_TLV_LEN when the next TLV's header or its length does not fit.
 */
dynpf_inline int dynpf_tlv_next(struct dynpf_tlv_it *it, const __u8 *a,
				const struct dynpf_tlv_desc *d, const __u64 amax)
{
	__u64 pos = it->pos, type, tlen;
	const __u8 *h;

	if (pos >= it->len)
		return 0;
	h = dynpf_area_ptr(a, pos, 1, amax);
	if (!h)
		return 0;
	type = h[0];
	it->toff = pos;
	if (type == d->end_type || type == d->pad1_type) {
		it->type = type;
		it->tlen = 1;
		/* Past an end marker the rest of the area is padding. */
		it->pos = type == d->end_type ? it->len : pos + 1;
		return 1;
	}
	if (pos + d->hdr_len > it->len)
		return -DYNPF_E_TLV_LEN;
	/* Type and length fields sit in the first 4 bytes of every family. */
	h = dynpf_area_ptr(a, pos, d->hdr_len, amax);
	if (!h)
		return -DYNPF_E_TLV_LEN;
	if (d->type_len >= 2)
		type = (type << 8) | h[1];
	if (d->type_len >= 3)
		type = (type << 8) | h[2];
	tlen = (h[d->len_off & 3] & d->len_mask) * d->len_unit + d->len_adj;
	if (tlen < d->min_len || tlen > it->len - pos)
		return -DYNPF_E_TLV_LEN;
	it->type = type;
	it->tlen = tlen;
	it->pos = pos + tlen;
	return 1;
}

/* Record the current TLV in the packet's list and its family summary. */
dynpf_inline void dynpf_tlv_record(struct dynpf_pkt *p, const struct dynpf_tlv_desc *d,
				   const struct dynpf_tlv_it *it, __u8 layer)
{
	struct dynpf_tlv_sum *sum = &p->tlvsum[d->family & (DYNPF_TLV_NFAM - 1)];
	__u32 n = p->ntlv;
	__u8 t8 = it->type & 0xff;

	sum->seen[t8 >> 6] |= 1ULL << (t8 & 63);
	if (sum->count < 255)
		sum->count++;
	if (n >= DYNPF_MAX_TLVS) {
		sum->overflow = 1;
		return;
	}
	p->tlv[n] = (struct dynpf_tlv){
		.type = it->type,
		.len = it->tlen,
		.off = it->base + it->toff,
		.family = d->family,
		.layer = layer,
	};
	p->ntlv = n + 1;
}

/* Clear a family's summary before walking its first area in a packet. */
dynpf_inline void dynpf_tlv_sum_reset(struct dynpf_pkt *p, __u8 family)
{
	p->tlvsum[family & (DYNPF_TLV_NFAM - 1)] = (struct dynpf_tlv_sum){};
}

#endif /* DYNPF_PARSERS_TLV_H */
