/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A protocol declared in a built-in family's option areas (docs/rules.md)
 * against that family: the TLVs its walk found in a parse, against those
 * the family's compiled walk found. `replay --check-decl` and the parse
 * fuzzer hold every such declaration to its family on every packet.
 */
#ifndef DYNPF_REPLAY_DECLCHECK_H
#define DYNPF_REPLAY_DECLCHECK_H

#include <stddef.h>

#include "dynpf/pkt.h"

/*
 * Declared protocol id of t (DYNPF_PAT_AREA) in parse p: NULL when its TLV
 * list is the list of the family it is declared in (entries, count,
 * overflow, types seen; each entry but for its family), else buf, saying
 * the first difference.
 */
const char *dynpf_decl_diff(const struct dynpf_pkt *p, const struct dynpf_proto_tab *t,
			    unsigned int id, char *buf, size_t len);

#endif
