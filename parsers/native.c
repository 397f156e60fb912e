// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The native build of the parse graph: the same headers over a byte buffer. */
#include "graph.h"
#include "native.h"

void dynpf_parse_native_decl(const __u8 *data, __u32 len, __u16 tpid, __u16 tci,
			     struct dynpf_pkt *p, const struct dynpf_parse_cfg *cfg,
			     const struct dynpf_proto_tab *tab)
{
	static __thread struct dynpf_area area;
	struct dynpf_cursor c;

	memset(p, 0, sizeof(*p));
	dynpf_cur_init(&c, data, len, &area, cfg ? *cfg : DYNPF_PARSE_CFG_DEFAULT);
	area.vlan_offload = tpid ? (__u32)tpid << 16 | tci : 0;
	c.tab = tab;
	c.decl = tab ? tab->bits : 0;
	dynpf_parse_packet(&c, p);
	p->hook = DYNPF_HOOK_NATIVE;
}

void dynpf_parse_native_offload(const __u8 *data, __u32 len, __u16 tpid, __u16 tci,
				struct dynpf_pkt *p, const struct dynpf_parse_cfg *cfg)
{
	dynpf_parse_native_decl(data, len, tpid, tci, p, cfg, NULL);
}

void dynpf_parse_native(const __u8 *data, __u32 len, struct dynpf_pkt *p,
			const struct dynpf_parse_cfg *cfg)
{
	dynpf_parse_native_decl(data, len, 0, 0, p, cfg, NULL);
}
