/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * One parse of a frame with the cursor's skip bits set, as the BPF programs
 * parse for a rule set: the function TCPFAST_PARSE. tcpfast.c includes it
 * with the TCP options' fast path built in, tcpfast_ref.c with
 * DYNPF_TCP_OPT_FAST 0 (every area walked), so each gets its own build of
 * the parse graph.
 */
#include "graph.h"

void TCPFAST_PARSE(const __u8 *data, __u32 len, struct dynpf_pkt *p, __u8 skip)
{
	static struct dynpf_area area;
	struct dynpf_cursor c;

	memset(p, 0, sizeof(*p));
	dynpf_cur_init(&c, data, len, &area, DYNPF_PARSE_CFG_DEFAULT);
	c.skip = skip;
	dynpf_parse_packet(&c, p);
	p->hook = DYNPF_HOOK_NATIVE;
}
