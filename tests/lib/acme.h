/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The declared protocol the unit tests share (docs/rules.md's example):
 * acme, behind UDP 7777, an 8-byte fixed part, then type(1) length(1)
 * TLVs, the length counting the 2-byte header, type 0 a pad byte:
 * `protocol acme udp dport 7777 header 8 tlv type u8 length u8 includes-header pad 0`.
 */
#ifndef DYNPF_TESTS_ACME_H
#define DYNPF_TESTS_ACME_H

#include "dynpf/proto.h"

static inline struct dynpf_proto_desc test_acme(__u8 id)
{
	return (struct dynpf_proto_desc){
		.name = "acme",
		.id = id,
		.at = DYNPF_PAT_UDP,
		.at_val = 7777,
		.fixed = 8,
		.tlv = { .type_size = 1,
			 .hdr_len = 2,
			 .flags = DYNPF_TLVE_PAD1,
			 .len = { .off = 1, .size = 1, .mask = 0xff, .unit = 1 } },
	};
}

#endif
