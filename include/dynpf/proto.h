/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Protocols declared at runtime: what a declaration says (struct
 * dynpf_proto_desc), the TLV encoding the walker reads (struct
 * dynpf_tlv_enc: the built-in families are instances of it too,
 * parsers/tlvstep.h), and the table of declarations the packet programs
 * read (struct dynpf_proto_tab, the map dynpf_protos: two, each in force
 * from a generation of the rule set on). docs/rules.md, "Protocols declared at runtime", is the
 * reference; rules/protocheck.h checks a declaration, for the drain and for the
 * rule language alike.
 *
 * A declared protocol sits behind a UDP or TCP destination port, an IP
 * protocol number or an ethertype (a header of its own: a fixed part, then
 * TLVs), or is a TLV family walked over a known header's option area. Its
 * TLVs are recorded in the parse result as family DYNPF_TLV_NFAM + its id.
 */
#ifndef DYNPF_PROTO_H
#define DYNPF_PROTO_H

#include "types.h"

/* Limits, stated in docs/rules.md and enforced by dynpf_proto_check(). */
#define DYNPF_MAX_PROTOS 8        /* declared protocols at once (ids 0..7) */
#define DYNPF_PROTO_NAME_MAX 16   /* bytes of a name, its NUL included */
#define DYNPF_PROTO_FIXED_MAX 512 /* bytes of a header's fixed part */
#define DYNPF_TLV_HDR_MAX 8       /* bytes of a TLV's header: its type and length fields */
#define DYNPF_TLV_AREA_MAX 2048   /* bytes of one TLV area (a longer one: bad_len) */
#define DYNPF_TLV_MAX_STEPS 128   /* TLVs walked per area (more: tlv_count) */

/* Where a declared protocol is. X(name, value, words) */
#define DYNPF_PROTO_ATS(X)        \
	X(UDP, 1, "udp dport")    \
	X(TCP, 2, "tcp dport")    \
	X(IP, 3, "ip proto")      \
	X(ETHER, 4, "ether type") \
	X(AREA, 5, "in")

enum dynpf_proto_at {
#define DYNPF_X_ENUM(n, v, t) DYNPF_PAT_##n = v,
	DYNPF_PROTO_ATS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_PAT_MAX
};

/*
 * A length field: size bytes (1..4, big endian) at off from the start of
 * its header or TLV; its value is ((field >> shift) & mask) * unit + adj.
 * size 0: no field (every other member 0).
 */
struct dynpf_lenfield {
	__u16 off;
	__u8 size;
	__u8 shift;
	__u32 mask;
	__u16 unit;
	__u16 adj;
};

/* dynpf_tlv_enc.flags */
#define DYNPF_TLVE_END 0x01  /* end_type: a TLV of only its type ends the area */
#define DYNPF_TLVE_PAD1 0x02 /* pad_type[0]: a TLV of only its type, padding */
#define DYNPF_TLVE_PAD2 0x04 /* pad_type[1] too */
#define DYNPF_TLVE_ALL 0x07

/*
 * How the TLVs of an area are laid out. The type: type_size bytes at
 * type_off, big endian. The whole TLV's length: the length field (adj is
 * hdr_len when the field does not count the TLV's header, 0 when it does);
 * a TLV shorter than its header, or longer than what is left of the area,
 * ends the walk with DYNPF_E_TLV_LEN. hdr_len: where the later of the two
 * fields ends; the TLV's data follows it. Pad and end types are TLVs of
 * only their type field (type_off 0): type_size bytes.
 */
struct dynpf_tlv_enc {
	__u8 type_off;
	__u8 type_size;
	__u8 hdr_len;
	__u8 flags; /* DYNPF_TLVE_* */
	struct dynpf_lenfield len;
	__u32 end_type;
	__u32 pad_type[2];
};

/*
 * A declaration. Header protocols (at UDP, TCP, IP, ETHER): the header
 * starts right after the one it is bound to; its fixed part is `fixed`
 * bytes, or, with fixed_f, as long as that field says (at least `fixed`
 * bytes, which hold the fields); its TLVs run from there to where hdr_f
 * says the header ends, or without it to the end of the payload (the UDP
 * datagram, the IP datagram, the packet). Area protocols (AREA): at_val is
 * the DYNPF_TLV_* family whose option areas they walk again, with their
 * own encoding; no header (fixed, fixed_f, hdr_f all 0).
 */
struct dynpf_proto_desc {
	char name[DYNPF_PROTO_NAME_MAX]; /* [a-z][a-z0-9_-]*, NUL-padded */
	__u8 id;                         /* 0 .. DYNPF_MAX_PROTOS - 1 */
	__u8 at;                         /* DYNPF_PAT_* */
	__u16 at_val;                    /* port, IP protocol, ethertype, or DYNPF_TLV_* */
	__u16 fixed;
	__u16 pad;
	struct dynpf_lenfield fixed_f;
	struct dynpf_lenfield hdr_f;
	struct dynpf_tlv_enc tlv;
	__u32 pad2;
};

/*
 * The declarations of the rule set from generation born on (map
 * dynpf_protos, an array of two: the one in force, and the one before or
 * after it). key[i]: at << 16 | at_val of protocol i, 0
 * when slot i is free. bits: the binding kinds in use, what the parser
 * checks (DYNPF_DECL_*). What packets read, and only that: the drain
 * counts the rules that test each protocol on its own (a declaration in use
 * cannot be deleted), so a rule's add or delete leaves the tables alone.
 */
#define DYNPF_DECL_UDP 0x01
#define DYNPF_DECL_TCP 0x02
#define DYNPF_DECL_IP 0x04
#define DYNPF_DECL_ETHER 0x08
#define DYNPF_DECL_AREA(f) (0x100u << (f)) /* an option area of built-in family f */

struct dynpf_proto_tab {
	__u64 born; /* the first generation whose packets read it (parsers/decltab.h) */
	__u32 n;
	__u32 bits;
	__u32 key[DYNPF_MAX_PROTOS];
	struct dynpf_proto_desc d[DYNPF_MAX_PROTOS];
};

/* The key a protocol's binding has in dynpf_proto_tab.key. */
#define DYNPF_PROTO_KEY(at, val) ((__u32)(at) << 16 | (__u16)(val))

DYNPF_ASSERT_SIZE(struct dynpf_lenfield, 12);
DYNPF_ASSERT_SIZE(struct dynpf_tlv_enc, 28);
DYNPF_ASSERT_SIZE(struct dynpf_proto_desc, 80);
DYNPF_ASSERT_SIZE(struct dynpf_proto_tab, 16 + 32 + 8 * 80);

#endif /* DYNPF_PROTO_H */
