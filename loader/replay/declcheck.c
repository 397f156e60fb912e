// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A declared protocol's TLVs against its built-in family's: replay/declcheck.h. */
#include <stdio.h>
#include <string.h>

#include "replay/declcheck.h"

const char *dynpf_decl_diff(const struct dynpf_pkt *p, const struct dynpf_proto_tab *t,
			    unsigned int id, char *buf, size_t len)
{
	const struct dynpf_proto_desc *d = &t->d[id % DYNPF_MAX_PROTOS];
	const struct dynpf_tlv_list *a, *b;

	if (id >= DYNPF_MAX_PROTOS || !t->key[id] || d->at != DYNPF_PAT_AREA ||
	    d->at_val >= DYNPF_TLV_NFAM)
		return NULL;
	a = &p->tlv[d->at_val];
	b = &p->tlv[DYNPF_TLV_NFAM + id];
	if (a->count != b->count || a->n != b->n || a->overflow != b->overflow) {
		snprintf(buf, len, "%u TLVs, %u kept, overflow %u; its family's %u, %u, %u",
			 b->count, b->n, b->overflow, a->count, a->n, a->overflow);
		return buf;
	}
	for (unsigned int i = 0; i < a->n && i < DYNPF_MAX_TLVS; i++) {
		struct dynpf_tlv x = a->ent[i], y = b->ent[i];

		if (y.family != DYNPF_TLV_NFAM + id) {
			snprintf(buf, len, "TLV %u: family %u", i, y.family);
			return buf;
		}
		x.family = y.family = 0;
		if (memcmp(&x, &y, sizeof(x))) {
			snprintf(buf, len,
				 "TLV %u: type %u len %u off %u layer %u hdr %u; its family's "
				 "type %u len %u off %u layer %u hdr %u",
				 i, y.type, y.len, y.off, y.layer, y.hdr, x.type, x.len, x.off,
				 x.layer, x.hdr);
			return buf;
		}
	}
	if (memcmp(a->seen, b->seen, sizeof(a->seen))) {
		snprintf(buf, len, "the types seen differ");
		return buf;
	}
	return NULL;
}
