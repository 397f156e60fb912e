/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_PARSERS_NATIVE_H
#define DYNPF_PARSERS_NATIVE_H

#include "dynpf/pkt.h"

/* Parse len bytes at data, as the BPF programs would; cfg NULL: defaults. */
void dynpf_parse_native(const __u8 *data, __u32 len, struct dynpf_pkt *p,
			const struct dynpf_parse_cfg *cfg);

/*
 * The same, for bytes whose outer VLAN tag (tpid, tci) the kernel took off
 * the front, as TC ingress gets them (the tc program reads skb->vlan_*).
 */
void dynpf_parse_native_offload(const __u8 *data, __u32 len, __u16 tpid, __u16 tci,
				struct dynpf_pkt *p, const struct dynpf_parse_cfg *cfg);

/*
 * The same, with the protocols declared in tab (NULL: none), as the BPF
 * programs parse with the declarations in force while they trace (every
 * declared protocol walked).
 */
void dynpf_parse_native_decl(const __u8 *data, __u32 len, __u16 tpid, __u16 tci,
			     struct dynpf_pkt *p, const struct dynpf_parse_cfg *cfg,
			     const struct dynpf_proto_tab *tab);

#endif
