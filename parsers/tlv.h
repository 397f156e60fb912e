/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The generic TLV walker. Every option area dynpf understands (TCP options,
 * IPv4 options, IPv6 hop-by-hop/destination options, SRH TLVs, Geneve
 * options) is described by a struct dynpf_tlv_desc and walked by
 * dynpf_tlv_next(), which checks every length against the area; each TLV is
 * recorded in its family's list in the parse result (dynpf_tlv_record()),
 * and the family's decoder reads the types it knows from bytes already in
 * the area.
 *
 * The families (their descriptors and decoders) and the walk itself,
 * dynpf_tlv_walk(), are in tlvstep.h: it walks the area in place in the
 * cursor's window, or fetches it once into the scratch area behind it, in
 * dynpf_tlv_walk_area(), a global subprogram with a may_goto loop, so the
 * verifier checks the walk once, not once per path that reaches an area,
 * and no call is made per TLV. Nothing here knows a family.
 */
#ifndef DYNPF_PARSERS_TLV_H
#define DYNPF_PARSERS_TLV_H

#include "cursor.h"

#define DYNPF_TLV_NOTYPE 0xffffffffu

struct dynpf_tlv_desc {
	__u8 hdr_len;  /* bytes of type + length fields */
	__u8 type_len; /* 1, 2 or 3 bytes of type, big endian, at offset 0 */
	__u8 len_off;  /* offset of the 1-byte length field */
	__u8 len_mask; /* bits of the length byte that hold the length */
	__u8 len_unit; /* total length = (len & mask) * unit + adj */
	__u8 len_adj;
	__u8 min_len;    /* smallest valid total length */
	__u32 end_type;  /* single-byte type ending the area, or DYNPF_TLV_NOTYPE */
	__u32 pad1_type; /* single-byte padding type, or DYNPF_TLV_NOTYPE */
};

/*
 * Offsets are 64-bit on purpose: with 32-bit ones clang zero-extends a copy
 * of the register it bounds-checked and indexes with another, and the
 * verifier loses the bound.
 */
struct dynpf_tlv_it { /* lives in struct dynpf_area's it[] */
	__u8 family;  /* DYNPF_TLV_*: which descriptor and decoder */
	__u8 layer;   /* index in layers[] of the header carrying the area */
	__u8 stack;   /* its stack */
	__u8 ext;     /* IPv6 options, SRH: index of its header in st[].ip6.ext */
	__u8 pad[2];
	__u16 steps; /* TLVs walked so far */
	__u64 abase; /* where the area starts in the scratch area (<= DYNPF_WIN) */
	__u64 len;   /* bytes in the area */
	__u64 pos;   /* offset of the next TLV within the area */
	__u64 base;  /* packet offset of the area */
	__u64 type;  /* current TLV: type, total length, offset in area */
	__u64 tlen;
	__u64 toff;
};

_Static_assert(sizeof(struct dynpf_tlv_it) <= sizeof(((struct dynpf_area *)0)->it),
	       "the iterator fits its place in the scratch area");

dynpf_inline void dynpf_tlv_it_init(struct dynpf_tlv_it *it, __u32 len, __u32 base)
{
	*it = (struct dynpf_tlv_it){ .len = len, .base = base };
}

/*
 * Step to the next TLV of area a. amax is the size a is valid for
 * (DYNPF_AREA_MAX from where dynpf_cur_fetch_area() put it); it bounds
 * every index for the verifier, while it->len bounds them for the protocol.
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

/* Record the current TLV in its family's list and summary. */
dynpf_inline void dynpf_tlv_record(struct dynpf_pkt *p, const struct dynpf_tlv_it *it,
				   const __u32 f)
{
	__u32 n;
	struct dynpf_tlv_list *l;
	__u8 t8 = it->type & 0xff;

	if (f >= DYNPF_TLV_NFAM)
		return;
	l = &p->tlv[f];
	n = l->n;
	p->tlv_fams |= 1 << f;

	l->seen[t8 >> 6] |= 1ULL << (t8 & 63);
	if (l->count < 255)
		l->count++;
	if (n >= DYNPF_MAX_TLVS) {
		l->overflow = 1;
		return;
	}
	l->ent[n] = (struct dynpf_tlv){
		.type = it->type,
		.len = it->tlen,
		.off = it->base + it->toff,
		.family = f,
		.layer = it->layer,
	};
	l->n = n + 1;
}

/*
 * Clear the lists: the first thing a parse does. Only the families the last
 * packet used (tlv_fams) can hold anything: the others were cleared before
 * (in BPF the result is a per-CPU buffer reused packet after packet, zeroed
 * when the map is made; natively the caller zeroes it).
 */
dynpf_inline void dynpf_tlv_reset(struct dynpf_pkt *p)
{
	__u32 f, used = p->tlv_fams;

	for (f = 0; f < DYNPF_TLV_NFAM; f++) {
		struct dynpf_tlv_list *l = &p->tlv[f];

		if (!(used & (1u << f)))
			continue;
		l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
		l->count = l->overflow = l->n = 0;
	}
	p->tlv_fams = 0;
}

/* At most this many TLVs per area; more ends the walk with DYNPF_E_TLV_COUNT. */
#define DYNPF_TLV_MAX_STEPS 128

#endif /* DYNPF_PARSERS_TLV_H */
