/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's tunnels (direct.bpf.h): VXLAN and Geneve (its options
 * walked); what they carry is parsed as the next stack.
 */
#ifndef DYNPF_BENCH_DIRECT_TUNNEL_BPF_H
#define DYNPF_BENCH_DIRECT_TUNNEL_BPF_H

#include "direct_tlv.bpf.h"

/* Geneve and VXLAN: what they carry is the next stack (DYNPF_NEXT_INNER). */
#define BENCH_ETH_P_TEB 0x6558
#define BENCH_VXLAN_I 0x08

static __always_inline int tun_inner(__u16 ethertype)
{
	switch (ethertype) {
	case BENCH_ETH_P_TEB:
		return DYNPF_P_ETH | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV4:
		return DYNPF_P_IPV4 | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV6:
		return DYNPF_P_IPV6 | DYNPF_NEXT_INNER;
	}
	return DYNPF_P_NONE;
}

static __always_inline int parse_vxlan(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &cur_st(nh, p)->tun;
	__u32 off = cur_off(nh);
	__u8 *h = nh->pos;

	if ((void *)(h + 8) > nh->data_end || !cur_need(nh, 8)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_VXLAN, off);
		return -1;
	}
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_VXLAN,
		.flags = h[0],
		.inner = BENCH_ETH_P_TEB,
		.vni = (__u32)h[4] << 16 | (__u32)h[5] << 8 | h[6],
	};
	/* RFC 7348: the I flag must be set for the VNI to be valid. */
	if (!(h[0] & BENCH_VXLAN_I)) {
		set_err(p, DYNPF_E_BAD_HDR, DYNPF_P_VXLAN, off);
		return -1;
	}
	add_layer(nh, p, DYNPF_P_VXLAN, off, 8);
	nh->pos = h + 8;
	return DYNPF_P_ETH | DYNPF_NEXT_INNER;
}

static __always_inline int parse_geneve(struct hdr_cursor *nh, struct dynpf_pkt *p,
					struct bench_walk *w)
{
	struct dynpf_tun *t = &cur_st(nh, p)->tun;
	__u32 off = cur_off(nh), optlen;
	__u8 *h = nh->pos, layer;

	if ((void *)(h + 8) > nh->data_end || !cur_need(nh, 8)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_GENEVE, off);
		return -1;
	}
	optlen = (h[0] & 0x3f) * 4;
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_GENEVE,
		.flags = (__u16)h[0] << 8 | h[1],
		.inner = dynpf_get_be16(h + 2),
		.vni = (__u32)h[4] << 16 | (__u32)h[5] << 8 | h[6],
		.opt_len = optlen,
	};
	if (h[0] >> 6) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_GENEVE, off);
		return -1;
	}
	if (!cur_need(nh, 8 + optlen) || (void *)(h + 8 + (optlen & 0xfc)) > nh->data_end) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_GENEVE, off);
		return -1;
	}
	layer = p->nlayers;
	add_layer(nh, p, DYNPF_P_GENEVE, off, 8 + optlen);
	cur_set(nh, off + 8 + optlen);
	if (optlen && call_tlv(nh, p, w, DYNPF_TLV_GENEVE_OPT, off + 8, optlen, layer,
			       DYNPF_P_GENEVE, 0xff) < 0)
		return -1;
	return tun_inner(t->inner);
}

#endif
