/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* ICMP (RFC 792) and ICMPv6 (RFC 4443): the 8-byte header. */
#ifndef DYNPF_PARSERS_ICMP_H
#define DYNPF_PARSERS_ICMP_H

#include "cursor.h"

#define DYNPF_ICMP_ECHOREPLY 0
#define DYNPF_ICMP_ECHO 8
#define DYNPF_ICMPV6_ECHO_REQUEST 128
#define DYNPF_ICMPV6_ECHO_REPLY 129

/* Both versions share the layout; only the echo type numbers differ. */
dynpf_inline int dynpf_parse_icmp_any(struct dynpf_cursor *c, struct dynpf_pkt *p, int v6)
{
	struct dynpf_l4 *l4 = &p->st[c->stack & (DYNPF_MAX_STACKS - 1)].l4;
	const struct dynpf_icmphdr *ih = dynpf_cur_slice(c, c->off, struct dynpf_icmphdr);
	int echo;

	if (!ih)
		return -DYNPF_E_TRUNCATED;
	*l4 = (struct dynpf_l4){
		.icmp_type = ih->type,
		.icmp_code = ih->code,
		.hdr_len = sizeof(*ih),
	};
	if (v6)
		echo = ih->type == DYNPF_ICMPV6_ECHO_REQUEST || ih->type == DYNPF_ICMPV6_ECHO_REPLY;
	else
		echo = ih->type == DYNPF_ICMP_ECHO || ih->type == DYNPF_ICMP_ECHOREPLY;
	if (echo) {
		l4->sport = dynpf_ntohs(ih->id);
		l4->dport = dynpf_ntohs(ih->seq);
	}
	c->off += sizeof(*ih);
	return DYNPF_P_NONE;
}

dynpf_inline int dynpf_parse_icmp(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	return dynpf_parse_icmp_any(c, p, 0);
}

dynpf_inline int dynpf_parse_icmpv6(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	return dynpf_parse_icmp_any(c, p, 1);
}

#endif /* DYNPF_PARSERS_ICMP_H */
