/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Where the parse finds the protocols declared at runtime (struct
 * dynpf_proto_tab, include/dynpf/proto.h): in BPF the map dynpf_protos,
 * two tables, the one in force at a packet's generation and the one
 * before or after it (dynpf_decl_pick()), which the drain
 * (bpf/drain.bpf.c) writes as a transaction that changes them commits;
 * natively the
 * cursor's table, which the caller hands the native parse
 * (parsers/native.h).
 */
#ifndef DYNPF_PARSERS_DECLTAB_H
#define DYNPF_PARSERS_DECLTAB_H

#include "cursor.h"

/*
 * Of the two tables (map dynpf_protos), the index of the one in force at
 * generation gen: born at or before it, the later born.
 */
dynpf_inline __u32 dynpf_proto_tab_cur(const struct dynpf_proto_tab *t0,
				       const struct dynpf_proto_tab *t1, __u64 gen)
{
	return t1->born <= gen && (t1->born > t0->born || t0->born > gen);
}

#if defined(__bpf__)
/*
 * __weak: the packet programs and the drain (two units, bpf/) each have it,
 * and the BPF static linker keeps one (as bpf/rules.h's maps).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE); /* read by user space as memory */
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct dynpf_proto_tab);
} dynpf_protos __weak SEC(".maps");

dynpf_inline const struct dynpf_proto_tab *dynpf_decl_tab(const struct dynpf_cursor *c)
{
	__u32 k = c->tab_idx & 1;

	return bpf_map_lookup_elem(&dynpf_protos, &k);
}

/*
 * The table a packet classified at generation gen reads: of the two, the
 * one in force the latest at or before gen (born <= gen, the larger born).
 * A commit that changes the declarations writes the other one, born at its
 * generation, only once no packet can still read it (bpf/drain.bpf.c). Its
 * index in c->tab_idx.
 */
dynpf_inline const struct dynpf_proto_tab *dynpf_decl_pick(struct dynpf_cursor *c, __u64 gen)
{
	__u32 k0 = 0, k1 = 1;
	const struct dynpf_proto_tab *t0 = bpf_map_lookup_elem(&dynpf_protos, &k0);
	const struct dynpf_proto_tab *t1 = bpf_map_lookup_elem(&dynpf_protos, &k1);

	if (!t0 || !t1)
		return NULL;
	c->tab_idx = dynpf_proto_tab_cur(t0, t1, gen);
	return c->tab_idx ? t1 : t0;
}
#else
dynpf_inline const struct dynpf_proto_tab *dynpf_decl_tab(const struct dynpf_cursor *c)
{
	return c->tab;
}
#endif

#endif /* DYNPF_PARSERS_DECLTAB_H */
