// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The reference of tcpfast.c: the parse graph built without the TCP
 * options' fast path (parsers/tcp.h), so every option area is walked.
 */
#define DYNPF_TCP_OPT_FAST 0
#include "graph.h"

#include "parsers.h"

void tcpfast_parse_walk(const __u8 *data, __u32 len, struct dynpf_pkt *p, __u8 skip)
{
	static struct dynpf_area area;
	struct dynpf_cursor c;

	memset(p, 0, sizeof(*p));
	dynpf_cur_init(&c, data, len, &area, DYNPF_PARSE_CFG_DEFAULT);
	c.skip = skip;
	dynpf_parse_packet(&c, p);
	p->hook = DYNPF_HOOK_NATIVE;
}
