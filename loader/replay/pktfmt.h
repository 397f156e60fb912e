/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_PKTFMT_H
#define DYNPF_PKTFMT_H

#include <stdio.h>

#include <json-c/json.h>

#include "dynpf/pkt.h"

const char *dynpf_err_name(unsigned int err);     /* "truncated", or "e<N>" */
const char *dynpf_proto_name(unsigned int proto); /* "tcp", or "p<N>" */
const char *dynpf_hook_name(unsigned int hook);   /* "xdp", "xdp-frags", "tc", ... */

/*
 * The declarations whose names the records give declared protocols' layers
 * and TLVs (NULL: none known, "proto<ID>"): replay and parse set the ones
 * their rule file declares. Borrowed, until set again.
 */
void dynpf_pktfmt_protos(const struct dynpf_proto_tab *tab);
/* A declared protocol's name, or "proto<ID>". */
const char *dynpf_decl_name(unsigned int id);

/*
 * The packet record of docs/json-output.md, without "pkt" and "hook" (the
 * caller adds those). The one definition of what each field means: the text
 * output is rendered from this object too.
 */
json_object *dynpf_pkt_to_json(const struct dynpf_pkt *p);

/* One readable line: "eth vlan(10) ipv4(a > b) tcp(1 > 2 S mss 1460)". */
void dynpf_pkt_print_text(FILE *f, json_object *rec);

#endif
