/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The generic TLV walker. Every option area dynpf understands (TCP options,
 * IPv4 options, IPv6 hop-by-hop/destination options, SRH TLVs, Geneve
 * options), and every protocol declared at runtime, is described by a
 * struct dynpf_tlv_enc (include/dynpf/proto.h) and walked by
 * dynpf_tlv_next(), which checks every length against the area; each TLV is
 * recorded in its family's list in the parse result (dynpf_tlv_record()),
 * and a built-in family's decoder reads the types it knows from bytes
 * already in the area.
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

/*
 * Offsets are 64-bit on purpose: with 32-bit ones clang zero-extends a copy
 * of the register it bounds-checked and indexes with another, and the
 * verifier loses the bound.
 */
struct dynpf_tlv_it { /* lives in struct dynpf_area's it[] */
	__u8 family;  /* DYNPF_TLV_*, or a declared protocol's: which descriptor and decoder */
	__u8 layer;   /* index in layers[] of the header carrying the area */
	__u8 stack;   /* its stack */
	__u8 ext;     /* IPv6 options, SRH: index of its header in st[].ip6.ext */
	__u8 nolist;  /* count the TLVs and their types, list none (DYNPF_SKIP_TLV_LIST) */
	__u8 pad;
	__u16 steps; /* TLVs walked so far */
	__u64 abase; /* where the area starts in the scratch area (<= DYNPF_WIN) */
	__u64 len;   /* bytes in the area */
	__u64 pos;   /* offset of the next TLV within the area */
	__u64 base;  /* packet offset of the area */
	/* current TLV: type, total length, offset in area; the TCP loop
	 * (dynpf_tcp_opt_loop()), which keeps its TLV in registers, has
	 * type hold the types it wants (struct dynpf_area.tcp_want) */
	__u64 type;
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
 * The size bytes (1..4) at off of a TLV's header h, big endian. off + size
 * is within the header (dynpf_tlv_enc_check()); the mask keeps the index
 * inside the 8 bytes the walker reads whatever the descriptor says. With a
 * constant descriptor (the built-in families) it folds to the loads of the
 * bytes it names.
 */
dynpf_inline __u64 dynpf_tlv_be(const __u8 *h, __u64 off, __u64 size)
{
	__u64 v = 0, i;

	for (i = 0; i < 4; i++)
		if (i < size)
			v = v << 8 | h[(off + i) & (DYNPF_TLV_HDR_MAX - 1)];
	return v;
}

/*
 * Step to the next TLV of area a, laid out as d says (struct dynpf_tlv_enc,
 * include/dynpf/proto.h: a built-in family's, a constant, or a declared
 * protocol's, from its map). amax is the size a is valid for
 * (DYNPF_AREA_MAX from where dynpf_cur_fetch_area() put it); it bounds
 * every index for the verifier, while it->len bounds them for the protocol.
 *
 * Returns 1 with it->type/tlen/toff set, 0 at the end of the area (or after an
 * end type, which is itself returned first as a TLV of only its type), or
 * -DYNPF_E_TLV_LEN when the next TLV's header or its length does not fit.
 * Every TLV is at least its header long (at least a byte): the walk always
 * moves on.
 */
dynpf_inline int dynpf_tlv_next(struct dynpf_tlv_it *it, const __u8 *a,
				const struct dynpf_tlv_enc *d, const __u64 amax)
{
	__u64 pos = it->pos, type, tlen, hdr = d->hdr_len, ts = d->type_size, raw;
	const __u8 *h;

	if (pos >= it->len)
		return 0;
	it->toff = pos;
	if (d->flags & DYNPF_TLVE_ALL) {
		/* Pad and end types: TLVs of only their type, which comes first
		 * (one byte is there: pos < len). */
		if (ts > 1 && pos + ts > it->len)
			return -DYNPF_E_TLV_LEN;
		h = dynpf_area_ptr(a, pos, ts, amax);
		if (!h)
			return 0;
		type = dynpf_tlv_be(h, 0, ts);
		if (((d->flags & DYNPF_TLVE_END) && type == d->end_type) ||
		    ((d->flags & DYNPF_TLVE_PAD1) && type == d->pad_type[0]) ||
		    ((d->flags & DYNPF_TLVE_PAD2) && type == d->pad_type[1])) {
			it->type = type;
			it->tlen = ts;
			/* Past an end marker the rest of the area is padding. */
			it->pos = (d->flags & DYNPF_TLVE_END) && type == d->end_type ? it->len
										     : pos + ts;
			return 1;
		}
	}
	if (pos + hdr > it->len)
		return -DYNPF_E_TLV_LEN;
	h = dynpf_area_ptr(a, pos, hdr, amax);
	if (!h)
		return -DYNPF_E_TLV_LEN;
	type = dynpf_tlv_be(h, d->type_off, ts);
	raw = dynpf_tlv_be(h, d->len.off, d->len.size);
	tlen = ((raw >> (d->len.shift & 31)) & d->len.mask) * d->len.unit + d->len.adj;
	if (tlen < hdr || tlen > it->len - pos)
		return -DYNPF_E_TLV_LEN;
	it->type = type;
	it->tlen = tlen;
	it->pos = pos + tlen;
	return 1;
}

/* Add a TLV to list l of family f as its entry n (l->n), or mark the list overflowed. */
dynpf_inline void dynpf_tlv_list_add(struct dynpf_tlv_list *l, __u32 n, const __u32 f, __u32 type,
				     __u32 len, __u32 off, __u32 layer, __u32 hdr)
{
	if (n >= DYNPF_MAX_TLVS) {
		l->overflow = 1;
		return;
	}
	l->ent[n] = (struct dynpf_tlv){
		.type = type,
		.len = len,
		.off = off,
		.family = f,
		.layer = layer,
		.hdr = hdr,
	};
	l->n = n + 1;
}

/*
 * Count n TLVs of built-in family f (a constant) at once, all of types below
 * 64, whose bits are seen: what n dynpf_tlv_record() would count. The caller
 * lists them (dynpf_tlv_list_add()) in the list returned.
 */
dynpf_inline struct dynpf_tlv_list *dynpf_tlv_count_n(struct dynpf_pkt *p, const __u32 f,
						      __u64 seen, __u32 n)
{
	struct dynpf_tlv_list *l = &p->tlv[f];
	__u32 count = l->count + n;

	p->tlv_fams |= 1u << f;
	l->seen[0] |= seen;
	l->count = count < 255 ? count : 255;
	return l;
}

/* One more TLV in family f's list l: the family marked used, the TLV counted (at most 255). */
dynpf_inline void dynpf_tlv_tally(struct dynpf_pkt *p, struct dynpf_tlv_list *l, __u64 f)
{
	p->tlv_fams |= 1u << f;
	if (l->count < 255)
		l->count++;
}

/* Record the current TLV in family f's list and summary; hdr: its header's bytes. */
dynpf_inline void dynpf_tlv_record(struct dynpf_pkt *p, const struct dynpf_tlv_it *it,
				   const __u32 f, __u32 hdr)
{
	__u64 fi = f;
	__u32 n;
	struct dynpf_tlv_list *l;
	__u8 t8 = it->type & 0xff;

	if (fi >= DYNPF_TLV_NALL)
		return;
	/* A declared family is not a constant: the fences keep its bound in
	 * the register that indexes (see dynpf_area_ptr()). A built-in's is. */
	if (!__builtin_constant_p(f)) {
		dynpf_barrier_var(fi);
		if (fi >= DYNPF_TLV_NALL)
			return;
		dynpf_barrier_var(fi);
	}
	l = &p->tlv[fi];
	n = l->n;
	dynpf_tlv_tally(p, l, fi);
	l->seen[t8 >> 6] |= 1ULL << (t8 & 63);
	/* No rule reads the list: tcp-opt40 (10 options) with `tcp option
	 * 8` takes 0.92x the time without the list's stores (bench --versus
	 * both ways round, 2 runs each). */
	if (it->nolist)
		return;
	dynpf_tlv_list_add(l, n, f, it->type, it->tlen, it->base + it->toff, it->layer, hdr);
}

/* Clear list f (its entries are left: n says how many hold anything). */
dynpf_inline void dynpf_tlv_clear(struct dynpf_tlv_list *l)
{
	l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
	l->count = l->overflow = l->n = 0;
}

/*
 * Clear the lists: the first thing a parse does. Only the families the last
 * packet used (tlv_fams) can hold anything: the others were cleared before
 * (in BPF the result is a per-CPU buffer reused packet after packet, zeroed
 * when the map is made; natively the caller zeroes it). The declared
 * families are looked at only when one was used: a packet without them
 * pays one test.
 */
dynpf_inline void dynpf_tlv_reset(struct dynpf_pkt *p)
{
	__u32 f, used = p->tlv_fams;

	/* The common case, a packet after one without TLVs: one test, not
	 * one per family (syn with no rule 0.978-0.989x, bench --versus,
	 * 15 runs, 4 runs). */
	if (!used)
		return;
	for (f = 0; f < DYNPF_TLV_NFAM; f++)
		if (used & (1u << f))
			dynpf_tlv_clear(&p->tlv[f]);
	if (used >> DYNPF_TLV_NFAM)
		for (f = DYNPF_TLV_NFAM; f < DYNPF_TLV_NALL; f++)
			if (used & (1u << f))
				dynpf_tlv_clear(&p->tlv[f]);
	p->tlv_fams = 0;
}

#endif /* DYNPF_PARSERS_TLV_H */
