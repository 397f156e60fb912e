/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* TCP (RFC 9293); its options are walked and decoded by tlvstep.h. */
#ifndef DYNPF_PARSERS_TCP_H
#define DYNPF_PARSERS_TCP_H

#include "cursor.h"
#include "tlvstep.h"

dynpf_inline int dynpf_parse_tcp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l4;
	const struct dynpf_tcphdr *th = dynpf_cur_slice(c, c->off, struct dynpf_tcphdr);
	__u32 doff;
	int r;

	if (!th)
		return -DYNPF_E_TRUNCATED;
	doff = (th->doff_res >> 4) * 4;
	if (doff < sizeof(*th))
		return -DYNPF_E_BAD_LEN;
	if (!dynpf_cur_need(c, c->off, doff))
		return -DYNPF_E_TRUNCATED;
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(th->sport),
		.dport = dynpf_ntohs(th->dport),
		.seq = dynpf_ntohl(th->seq),
		.ack = dynpf_ntohl(th->ack),
		.window = dynpf_ntohs(th->window),
		.flags = th->flags,
		.hdr_len = doff,
	};
	c->off += doff;
	if (doff > sizeof(*th) && !(c->skip & DYNPF_SKIP_TCP_OPT)) {
		/* The header is valid: an error from here on is in its options. */
		c->keep_layer = 1;
		r = dynpf_tlv_walk(c, p, DYNPF_TLV_TCP_OPT, c->off - doff + sizeof(*th),
				   doff - sizeof(*th), 0);
		if (r < 0)
			return r;
	}
	return DYNPF_P_NONE;
}

#endif /* DYNPF_PARSERS_TCP_H */
