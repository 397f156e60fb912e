/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's TLV areas (direct.bpf.h): IPv6 options, SRH TLVs and
 * Geneve options, walked in place by one walker, and the calls into the
 * global subprograms that walk them and the IPv6 chain.
 */
#ifndef DYNPF_BENCH_DIRECT_TLV_BPF_H
#define DYNPF_BENCH_DIRECT_TLV_BPF_H

#include "direct_cursor.bpf.h"

/*
 * The other TLV areas: IPv6 hop-by-hop and destination options and SRH TLVs
 * (type(1) length(1) data; the length excludes the 2-byte header; type 0 a
 * lone pad byte), and Geneve options (class(2) type(1) length(1): low 5
 * bits, 4-byte words after the header; type recorded as class << 8 | type).
 * The same checks and records as dynpf_tlv_next() with dynpf_ip6_opt_desc
 * and dynpf_geneve_opt_desc, and the same decoders (dynpf_ip6_opt_decode(),
 * dynpf_srh_tlv_decode(); Geneve options are only listed), reading in place.
 */
#define BENCH_IP6OPT_PAD1 0
#define BENCH_IP6OPT_PADN 1
#define BENCH_IP6OPT_RA 5
#define BENCH_IP6OPT_JUMBO 0xc2
#define BENCH_SRH_TLV_HMAC 5
/* TLVs per area; more ends the walk (parsers/tlv.h's DYNPF_TLV_MAX_STEPS). */
#define BENCH_TLV_MAX_STEPS 128

/*
 * The IPv6 chain, the TLV areas and a tunnel's inner stack are global
 * subprograms, one per context type: the verifier checks each once, not once
 * per path that reaches it (inlined, the paths through chains and tunnels
 * exceed its one-million-instruction budget, measured). dynpf's TLV walk and
 * rare layers are global subprograms too. A call takes no packet pointer:
 * the callee reads data/data_end from the context and the cursor travels as
 * offsets (struct bench_cur). The common shapes (eth/IP/TCP|UDP) make none.
 */
struct bench_walk;
__noinline int bench_tlv_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			     struct bench_cur *c);
__noinline int bench_tlv_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			    struct bench_cur *c);
__noinline int bench_chain_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			       struct bench_cur *c);
__noinline int bench_chain_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			      struct bench_cur *c);
__noinline int bench_inner_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			       struct bench_cur *c, int next);
__noinline int bench_inner_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			      struct bench_cur *c, int next);

/* args of bench_tlv_*(): family, layer, proto, ext index (0xff: none). */
#define BENCH_TLV_ARGS(family, layer, proto, ext) \
	((__u32)(family) | (__u32)(layer) << 8 | (__u32)(proto) << 16 | (__u32)(ext) << 24)

static __always_inline int call_tlv(struct hdr_cursor *nh, struct dynpf_pkt *p,
				    struct bench_walk *w, __u8 family, __u32 base, __u32 len,
				    __u8 layer, __u8 proto, __u8 ext)
{
	struct bench_cur *c = &w->cur[2];

	cur_save(nh, c);
	c->base = base;
	c->len = len;
	c->args = BENCH_TLV_ARGS(family, layer, proto, ext);
	if (nh->tc)
		return bench_tlv_tc(nh->ctx, p, w, c);
	return bench_tlv_xdp(nh->ctx, p, w, c);
}

static __always_inline int call_chain(struct hdr_cursor *nh, struct dynpf_pkt *p,
				      struct bench_walk *w)
{
	struct bench_cur *c = &w->cur[1];
	int r;

	cur_save(nh, c);
	if (nh->tc)
		r = bench_chain_tc(nh->ctx, p, w, c);
	else
		r = bench_chain_xdp(nh->ctx, p, w, c);
	cur_set(nh, c->off);
	nh->lend = c->lend;
	return r;
}

static __always_inline void ip6_opt_decode(struct dynpf_ext *e, const __u8 *o, __u32 type,
					   __u32 len, const void *data_end)
{
	switch (type) {
	case BENCH_IP6OPT_PAD1:
	case BENCH_IP6OPT_PADN:
		return;
	case BENCH_IP6OPT_RA:
		if (len == 4 && (const void *)(o + 4) <= data_end) {
			e->ra = dynpf_get_be16(o + 2);
			e->flags |= DYNPF_EXTF_RA;
		}
		return;
	case BENCH_IP6OPT_JUMBO:
		if (len == 6 && (const void *)(o + 6) <= data_end) {
			e->jumbo = dynpf_get_be32(o + 2);
			e->flags |= DYNPF_EXTF_JUMBO;
		}
		return;
	}
	/* The two high bits say what a node that does not know it must do. */
	e->unknown_act |= 1 << ((type >> 6) & 3);
}

static __always_inline void srh_tlv_decode(struct dynpf_ext *e, const __u8 *o, __u32 type,
					   __u32 len, const void *data_end)
{
	if (type != BENCH_SRH_TLV_HMAC || len < 8 || (const void *)(o + 8) > data_end)
		return;
	e->flags |= DYNPF_EXTF_HMAC;
	if (o[2] & 0x80)
		e->flags |= DYNPF_EXTF_HMAC_D;
	else
		e->flags &= ~DYNPF_EXTF_HMAC_D;
	e->id = dynpf_get_be32(o + 4);
}

/*
 * Walk the len-byte area at packet offset base, of family (IPv6 options, SRH
 * TLVs or Geneve options), carried by layer; e is its extension header's
 * entry (NULL for Geneve). Every TLV's bytes are checked against data_end
 * before they are read. A may_goto loop, like dynpf's walk: pos is masked
 * each round and the step count (DYNPF_TLV_MAX_STEPS per area, as dynpf's)
 * lives in a map value, so the rounds look alike to the verifier and it
 * prunes them. 0, or -1 with p->err set.
 */
static __always_inline int tlv_walk(struct hdr_cursor *nh, struct dynpf_pkt *p,
				    struct bench_walk *w, __u8 family, __u32 base, __u32 len,
				    __u8 layer, __u16 proto, struct dynpf_ext *e)
{
	__u64 pos = w->zero, type, tlen;
	int geneve = family == DYNPF_TLV_GENEVE_OPT, err = DYNPF_E_TLV_LEN;
	__u8 *o;

	w->steps = 0;
	for (;;) {
		dynpf_cond_break;
		/* An area is at most 2048 bytes (IPv6 options): so is pos. */
		dynpf_barrier_var(pos);
		pos &= 0xfff;
		if (pos >= len)
			return 0;
		if (w->steps++ >= BENCH_TLV_MAX_STEPS) {
			err = DYNPF_E_TLV_COUNT;
			goto bad;
		}
		o = nh->data + ((base + pos) & BENCH_OFF_MASK);
		if ((void *)(o + 4) > nh->data_end) {
			/* Fewer than 4 bytes left in the linear part: one at a time. */
			if ((void *)(o + 1) > nh->data_end)
				goto bad;
			if (!geneve && o[0] == BENCH_IP6OPT_PAD1) {
				tlv_record(p, family, 0, 1, base + pos, layer);
				pos++;
				continue;
			}
			if (geneve || (void *)(o + 2) > nh->data_end || pos + 2 > len)
				goto bad;
			tlen = (__u32)o[1] + 2;
			if (tlen > len - pos)
				goto bad;
			tlv_record(p, family, o[0], tlen, base + pos, layer);
			if (e && family != DYNPF_TLV_SRH_TLV)
				ip6_opt_decode(e, o, o[0], tlen, nh->data_end);
			pos += tlen;
			continue;
		}
		if (geneve) {
			if (pos + 4 > len)
				goto bad;
			type = (__u32)o[0] << 16 | (__u32)o[1] << 8 | o[2];
			tlen = (o[3] & 0x1f) * 4 + 4;
		} else {
			type = o[0];
			if (type == BENCH_IP6OPT_PAD1) {
				tlv_record(p, family, 0, 1, base + pos, layer);
				pos++;
				continue;
			}
			if (pos + 2 > len)
				goto bad;
			tlen = (__u32)o[1] + 2;
		}
		if (tlen > len - pos)
			goto bad;
		tlv_record(p, family, type, tlen, base + pos, layer);
		if (e && family == DYNPF_TLV_SRH_TLV)
			srh_tlv_decode(e, o, type, tlen, nh->data_end);
		else if (e)
			ip6_opt_decode(e, o, type, tlen, nh->data_end);
		pos += tlen;
	}
	/* may_goto's budget ran out: stop, as dynpf's walk does. */
	return 0;
bad:
	/* The header carrying the area was valid: it stays listed, like dynpf's. */
	return area_err(p, err, proto, base + pos, layer);
}

#endif
