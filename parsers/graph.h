/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The parse graph: which parser handles which protocol, and the walk that
 * chains them. Each parser returns the next protocol (DYNPF_P_NONE ends the
 * walk) or a negative DYNPF_E_*. This file is the one place that knows the
 * order of layers; a new protocol adds a case here and returns its own
 * successor from its parser.
 */
#ifndef DYNPF_PARSERS_GRAPH_H
#define DYNPF_PARSERS_GRAPH_H

#include "eth.h"
#include "arp.h"
#include "ip.h"
#include "tcp.h"
#include "udp.h"
#include "icmp.h"

dynpf_inline int dynpf_dispatch(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	switch (proto) {
	case DYNPF_P_ETH:
		return dynpf_parse_eth(c, p);
	case DYNPF_P_VLAN:
	case DYNPF_P_QINQ:
		return dynpf_parse_vlan(c, p);
	case DYNPF_P_ARP:
		return dynpf_parse_arp(c, p);
	case DYNPF_P_IPV4:
		return dynpf_parse_ipv4(c, p);
	case DYNPF_P_IPV6:
		return dynpf_parse_ipv6(c, p);
	case DYNPF_P_TCP:
		return dynpf_parse_tcp(c, p);
	case DYNPF_P_UDP:
		return dynpf_parse_udp(c, p);
	case DYNPF_P_ICMP:
		return dynpf_parse_icmp(c, p);
	case DYNPF_P_ICMPV6:
		return dynpf_parse_icmpv6(c, p);
	}
	return DYNPF_P_NONE;
}

dynpf_inline int dynpf_is_l4(int proto)
{
	return proto == DYNPF_P_TCP || proto == DYNPF_P_UDP || proto == DYNPF_P_ICMP ||
	       proto == DYNPF_P_ICMPV6;
}

/*
 * Parse one header and record it. On error the walk's outcome is written to
 * p->err*; the header is listed in layers[] only if its parser said its fixed
 * part was valid (c->keep_layer), so consumers can trust every listed layer.
 */
dynpf_inline int dynpf_layer(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	__u32 start = c->off, n = p->nlayers;
	int r;

	c->err_off = start;
	c->keep_layer = 0;
	if (n >= DYNPF_MAX_LAYERS)
		r = -DYNPF_E_DEPTH;
	else
		r = dynpf_dispatch(c, p, proto);
	if (r >= 0 || c->keep_layer) {
		if (n < DYNPF_MAX_LAYERS) {
			p->layers[n] = (struct dynpf_layer){
				.proto = proto,
				.off = start,
				.len = c->off - start,
				.stack = c->stack,
			};
			p->nlayers = n + 1;
		}
		if (dynpf_is_l4(proto))
			p->l4_payload_off = c->off;
	}
	if (r < 0) {
		p->err = -r;
		p->err_layer = n;
		p->err_proto = proto;
		p->err_off = c->err_off;
	}
	return r;
}

/*
 * Walk the whole packet. The bound is the layer array: a packet can never
 * make the walk longer, and every parser is inlined once. (An earlier
 * version made each layer a global subprogram, so the verifier would check
 * each parser once; it cost a call and a bpf_dynptr_clone() per layer, about
 * 25 ns, and is not needed now that the TCP option loop is the one global
 * subprogram: the loop, not the graph, was what multiplied paths.)
 */
dynpf_inline void dynpf_parse_packet(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	int next = DYNPF_P_ETH;
	__u32 i;

	p->abi = DYNPF_ABI_VERSION;
	p->pkt_len = c->len;
	p->nlayers = 0;
	p->nstacks = 1;
	p->ntlv = 0;
	p->err = DYNPF_E_OK;
	p->err_layer = 0;
	p->err_proto = 0;
	p->err_off = 0;
	p->l4_payload_off = 0;
	for (i = 0; i < DYNPF_TLV_NFAM_USED; i++)
		dynpf_tlv_sum_reset(p, i);
	/* One more round than there are layers, so an endless chain ends in
	 * DYNPF_E_DEPTH rather than silently. */
	for (i = 0; i <= DYNPF_MAX_LAYERS; i++) {
		next = dynpf_layer(c, p, next);
		if (next <= DYNPF_P_NONE)
			break;
	}
}

#endif /* DYNPF_PARSERS_GRAPH_H */
