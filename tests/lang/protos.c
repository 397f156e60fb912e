// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Protocols declared at runtime: the check of a declaration
 * (dynpf_proto_check(), rules/protocheck.h), the one the drain runs: every
 * hostile declaration refused with the member it names, the built-in
 * families' encodings accepted, and every refusal's text there.
 */
#include <string.h>

#include "protocheck.h"

#include "lang.h"

/* acme: behind UDP 7777, an 8-byte fixed part, then kind(1) len(1) TLVs. */
static struct dynpf_proto_desc acme(void)
{
	return (struct dynpf_proto_desc){
		.name = "acme",
		.id = 1,
		.at = DYNPF_PAT_UDP,
		.at_val = 7777,
		.fixed = 8,
		.tlv = { .type_size = 1,
			 .hdr_len = 2,
			 .flags = DYNPF_TLVE_PAD1,
			 .len = { .off = 1, .size = 1, .mask = 0xff, .unit = 1 } },
	};
}

/* d is refused, naming field. */
static void refused(const char *name, const struct dynpf_proto_desc *d, unsigned int field)
{
	__u16 f = 0;
	int e = dynpf_proto_check(d, &f);

	CHECK(name, e == -EINVAL && f == field, "check %d field %u (%s), want -EINVAL field %u", e,
	      f, dynpf_proto_why(f) ? dynpf_proto_why(f) : "?", field);
}

static void accepted(const char *name, const struct dynpf_proto_desc *d)
{
	__u16 f = 0;
	int e = dynpf_proto_check(d, &f);

	CHECK(name, !e, "check %d field %u: %s", e, f, dynpf_proto_why(f) ?: "?");
}

#define REFUSED(what, field, ...)                    \
	do {                                         \
		struct dynpf_proto_desc d_ = acme(); \
		__VA_ARGS__;                         \
		refused(what, &d_, DYNPF_F_##field); \
	} while (0)

#define ACCEPTED(what, ...)                          \
	do {                                         \
		struct dynpf_proto_desc d_ = acme(); \
		__VA_ARGS__;                         \
		accepted(what, &d_);                 \
	} while (0)

void test_proto_check(void)
{
	ACCEPTED("acme");
	/* Names the language writes back: [a-z][a-z0-9_-]*, 1-15, NUL after. */
	ACCEPTED("name of 15", memcpy(d_.name, "a23456789012345", 16));
	REFUSED("name of 16", PROTO_NAME, memcpy(d_.name, "a234567890123456", 16));
	REFUSED("empty name", PROTO_NAME, memset(d_.name, 0, 16));
	REFUSED("name from a digit", PROTO_NAME, d_.name[0] = '1');
	REFUSED("uppercase name", PROTO_NAME, d_.name[1] = 'C');
	REFUSED("a blank in a name", PROTO_NAME, d_.name[2] = ' ');
	REFUSED("bytes after the NUL", PROTO_NAME, d_.name[9] = 'x');
	REFUSED("id 8", PROTO_ID, d_.id = DYNPF_MAX_PROTOS);
	REFUSED("at 0", PROTO_AT, d_.at = 0);
	REFUSED("at 6", PROTO_AT, d_.at = DYNPF_PAT_MAX);
	/* What dynpf parses itself. */
	REFUSED("port 0", PROTO_PORT, d_.at_val = 0);
	REFUSED("udp geneve", PROTO_PORT, d_.at_val = 6081);
	REFUSED("udp vxlan", PROTO_PORT, d_.at_val = 4789);
	REFUSED("udp gtpu", PROTO_PORT, d_.at_val = 2152);
	ACCEPTED("tcp 6081", d_.at = DYNPF_PAT_TCP; d_.at_val = 6081);
	REFUSED("ip proto tcp", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 6);
	REFUSED("ip proto routing", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 43);
	REFUSED("ip proto 256", PROTO_IPPROTO, d_.at = DYNPF_PAT_IP; d_.at_val = 256);
	ACCEPTED("ip proto 253", d_.at = DYNPF_PAT_IP; d_.at_val = 253);
	ACCEPTED("ip proto sctp", d_.at = DYNPF_PAT_IP; d_.at_val = 132);
	REFUSED("ether type ipv6", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x86dd);
	REFUSED("ether type mpls", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x8847);
	REFUSED("ether type a length", PROTO_ETHERTYPE, d_.at = DYNPF_PAT_ETHER;
		d_.at_val = 0x05dc);
	ACCEPTED("ether type 0x88b5", d_.at = DYNPF_PAT_ETHER; d_.at_val = 0x88b5);
	REFUSED("area 6", PROTO_AREA, d_.at = DYNPF_PAT_AREA; d_.at_val = DYNPF_TLV_NFAM;
		d_.fixed = 0);
	ACCEPTED("area geneve", d_.at = DYNPF_PAT_AREA; d_.at_val = DYNPF_TLV_GENEVE_OPT;
		 d_.fixed = 0);
	REFUSED("area with a fixed part", PROTO_FIXED, d_.at = DYNPF_PAT_AREA; d_.at_val = 0);
	REFUSED("area with a header length", PROTO_HDR_F_SIZE, d_.at = DYNPF_PAT_AREA;
		d_.at_val = 0; d_.fixed = 0; d_.hdr_f = (struct dynpf_lenfield){ .size = 1 });
	REFUSED("pad", PROTO_PAD, d_.pad = 1);
	REFUSED("pad2", PROTO_PAD, d_.pad2 = 1);
	/* Offsets past any header: a fixed part past 512, a field past it. */
	REFUSED("fixed 513", PROTO_FIXED, d_.fixed = 513);
	ACCEPTED("fixed 512", d_.fixed = 512);
	REFUSED("a length field past the fixed part", PROTO_HDR_F_OFF,
		d_.hdr_f =
			(struct dynpf_lenfield){ .off = 7, .size = 2, .mask = 0xffff, .unit = 1 });
	REFUSED("a 5-byte field", PROTO_HDR_F_SIZE,
		d_.hdr_f = (struct dynpf_lenfield){ .size = 5, .mask = 1, .unit = 1 });
	REFUSED("no field, an adjustment", PROTO_HDR_F_SIZE, d_.hdr_f.adj = 8);
	ACCEPTED("geneve-like header length",
		 d_.hdr_f =
			 (struct dynpf_lenfield){ .size = 1, .mask = 0x3f, .unit = 4, .adj = 8 });
	REFUSED("a shift past the field", PROTO_HDR_F_SHIFT,
		d_.hdr_f = (struct dynpf_lenfield){ .size = 1, .shift = 8, .mask = 1, .unit = 1 });
	REFUSED("a mask past the shifted field", PROTO_HDR_F_MASK,
		d_.hdr_f =
			(struct dynpf_lenfield){ .size = 1, .shift = 4, .mask = 0x1f, .unit = 1 });
	REFUSED("a mask of no bits", PROTO_FIXED_F_MASK,
		d_.fixed_f = (struct dynpf_lenfield){ .size = 1, .mask = 0, .unit = 1 });
	REFUSED("units of 0", PROTO_FIXED_F_UNIT,
		d_.fixed_f = (struct dynpf_lenfield){ .size = 2, .mask = 0xffff });
	ACCEPTED("a 4-byte field, all of it",
		 d_.fixed_f = (struct dynpf_lenfield){
			 .off = 4, .size = 4, .mask = 0xffffffff, .unit = 1 });
	/* TLVs: what the walker cannot read. */
	REFUSED("type of 0 bytes", PROTO_TYPE_SIZE, d_.tlv.type_size = 0);
	REFUSED("type of 5 bytes", PROTO_TYPE_SIZE, d_.tlv.type_size = 5);
	REFUSED("type past 8 bytes", PROTO_TYPE_OFF, d_.tlv.flags = 0; d_.tlv.pad_type[0] = 0;
		d_.tlv.type_off = 6; d_.tlv.type_size = 3);
	REFUSED("a pad type with the type not first", PROTO_TYPE_OFF, d_.tlv.type_off = 2;
		d_.tlv.len.off = 0; d_.tlv.hdr_len = 3);
	REFUSED("length of 0 bytes", PROTO_LEN_SIZE, d_.tlv.len.size = 0);
	REFUSED("length on the type", PROTO_LEN_OFF, d_.tlv.len.off = 0);
	REFUSED("length past 8 bytes", PROTO_LEN_OFF, d_.tlv.len.off = 6; d_.tlv.len.size = 3);
	REFUSED("length of no units", PROTO_LEN_UNIT, d_.tlv.len.unit = 0);
	REFUSED("length of no bits", PROTO_LEN_MASK, d_.tlv.len.mask = 0);
	REFUSED("a header length that is not the fields'", PROTO_HDR_LEN, d_.tlv.hdr_len = 4);
	REFUSED("a header of 0 bytes", PROTO_HDR_LEN, d_.tlv.hdr_len = 0);
	REFUSED("unknown flags", PROTO_FLAGS, d_.tlv.flags |= 0x80);
	REFUSED("pad2 without pad1", PROTO_FLAGS, d_.tlv.flags = DYNPF_TLVE_PAD2);
	REFUSED("a pad type wider than the type", PROTO_PADS, d_.tlv.pad_type[0] = 256);
	REFUSED("two equal pad types", PROTO_PADS, d_.tlv.flags |= DYNPF_TLVE_PAD2;
		d_.tlv.pad_type[1] = 0);
	REFUSED("an unused pad type", PROTO_PADS, d_.tlv.pad_type[1] = 3);
	REFUSED("an end type that pads", PROTO_END, d_.tlv.flags |= DYNPF_TLVE_END);
	REFUSED("an unused end type", PROTO_END, d_.tlv.end_type = 1);
	ACCEPTED("an end type", d_.tlv.flags |= DYNPF_TLVE_END; d_.tlv.end_type = 0xff;
		 d_.tlv.pad_type[0] = 1);
	/* Diameter-like AVPs: code(4) flags(1) length(3), the length counting all. */
	ACCEPTED("u32 type, u24 length",
		 d_.tlv = (struct dynpf_tlv_enc){
			 .type_size = 4,
			 .hdr_len = 8,
			 .len = { .off = 5, .size = 3, .mask = 0xffffff, .unit = 1 } });
	/* Every refusal has its text. */
	for (unsigned int f = DYNPF_F_PROTO_NAME; f <= DYNPF_F_PROTO_PADS; f++)
		CHECK("why", dynpf_proto_why(f) && strlen(dynpf_proto_why(f)) > 10,
		      "field %u has no text", f);
	CHECK("why", !dynpf_proto_why(DYNPF_F_DATA), "match.data has a declaration's text");
}
