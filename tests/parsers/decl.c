// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Protocols declared at runtime (parsers/decl.h, the declared walks of
 * tlvstep.h): a header behind each kind of binding, its fixed part and
 * length fields, its TLVs recorded in its own family, every error it can
 * end the walk with, the limits, and a protocol declared in a built-in
 * family's option areas walking them as that family does.
 */
#include <stdlib.h>
#include <string.h>

#include "protocheck.h"

#include "parsers.h"
#include "../lib/acme.h"

static struct dynpf_proto_tab tab;

/* The parse of f with the declarations of tab (or none). */
static void parse_with(const struct frame *f, const struct dynpf_proto_tab *t)
{
	unsigned char *copy = malloc(f->n ? f->n : 1);

	memcpy(copy, f->b, f->n);
	dynpf_parse_native_decl(copy, f->n, 0, 0, &P, NULL, t);
	free(copy);
}

/* Only d declared (checked first: the tests' declarations are valid ones). */
static void declare(const struct dynpf_proto_desc *d)
{
	__u16 field;

	memset(&tab, 0, sizeof(tab));
	CHECK("declaration", !dynpf_proto_check(d, &field), "'%s' refused: field %u", d->name,
	      field);
	dynpf_proto_tab_set(&tab, d);
}

#define ACME (P.tlv[DYNPF_TLV_NFAM + 3])

/* Ethernet, IPv4, UDP to dport, n bytes of payload from pl. */
static void udp_to(struct frame *f, unsigned int dport, const unsigned char *pl, unsigned int n)
{
	eth(f, 0x0800);
	ipv4(f, 5, 0, 0, 17, 8 + n);
	put16(f, 40000);
	put16(f, dport);
	put16(f, 8 + n);
	put16(f, 0);
	put(f, pl, n);
}

static void test_udp(void)
{
	/* 8 bytes of fixed part; TLVs 5 (4 bytes), a pad byte, 9 (2 bytes). */
	static const unsigned char pl[] = { 1, 2, 3, 4, 5, 6, 7, 8, 5, 4, 0xaa, 0xbb, 0, 9, 2 };
	const unsigned int at = 14 + 20 + 8;
	struct dynpf_proto_desc d = test_acme(3);
	struct frame f;

	declare(&d);
	udp_to(&f, 7777, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("acme", 4, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP, DYNPF_P_DECL);
	CHECK_EQ("acme", P.err, DYNPF_E_OK);
	CHECK_EQ("acme: its id", P.layers[3].sub, 3);
	CHECK_EQ("acme: the header", P.layers[3].off, at);
	CHECK_EQ("acme: the header", P.layers[3].len, sizeof(pl));
	CHECK_EQ("acme: TLVs", ACME.n, 3);
	CHECK_EQ("acme: TLVs", ACME.count, 3);
	CHECK_EQ("acme: TLVs", P.tlv_fams, 1u << (DYNPF_TLV_NFAM + 3));
	CHECK_EQ("acme: TLV 0", ACME.ent[0].type, 5);
	CHECK_EQ("acme: TLV 0", ACME.ent[0].len, 4);
	CHECK_EQ("acme: TLV 0", ACME.ent[0].off, at + 8);
	CHECK_EQ("acme: TLV 0", ACME.ent[0].hdr, 2);
	CHECK_EQ("acme: TLV 0", ACME.ent[0].family, DYNPF_TLV_NFAM + 3);
	CHECK_EQ("acme: TLV 0", ACME.ent[0].layer, 3);
	CHECK_EQ("acme: the pad", ACME.ent[1].type, 0);
	CHECK_EQ("acme: the pad", ACME.ent[1].len, 1);
	CHECK_EQ("acme: TLV 2", ACME.ent[2].off, at + 13);
	CHECK_EQ("acme: seen", !!(ACME.seen[0] & (1ull << 9)), 1);
	/* Another port, or no declarations: UDP ends the walk, as before. */
	udp_to(&f, 7778, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("acme: another port", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP);
	CHECK_EQ("acme: another port", P.tlv_fams, 0);
	udp_to(&f, 7777, pl, sizeof(pl));
	parse_with(&f, NULL);
	expect_layers("acme: not declared", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP);
	/* A TLV past the area: tlv_len at it, the header listed. */
	udp_to(&f, 7777, pl, sizeof(pl) - 1);
	parse_with(&f, &tab);
	expect_err("acme: a TLV past the datagram", DYNPF_E_TLV_LEN, DYNPF_P_DECL, 4);
	CHECK_EQ("acme: a TLV past the datagram", P.err_off, at + 13);
	CHECK_EQ("acme: a TLV past the datagram", ACME.n, 2);
	/* Length 1: shorter than its own header. */
	{
		unsigned char bad[] = { 1, 2, 3, 4, 5, 6, 7, 8, 5, 1, 0 };

		udp_to(&f, 7777, bad, sizeof(bad));
		parse_with(&f, &tab);
		expect_err("acme: length 1", DYNPF_E_TLV_LEN, DYNPF_P_DECL, 4);
		CHECK_EQ("acme: length 1", P.err_off, at + 8);
	}
	/* Length 0 (a length of 0 never loops: the walk refuses it). */
	{
		unsigned char zero[] = { 1, 2, 3, 4, 5, 6, 7, 8, 5, 0 };

		udp_to(&f, 7777, zero, sizeof(zero));
		parse_with(&f, &tab);
		expect_err("acme: length 0", DYNPF_E_TLV_LEN, DYNPF_P_DECL, 4);
	}
	/* The fixed part cut short: truncated, the header not listed. */
	udp_to(&f, 7777, pl, 7);
	parse_with(&f, &tab);
	expect_err("acme: 7 bytes", DYNPF_E_TRUNCATED, DYNPF_P_DECL, 3);
	/* 8 bytes: a header without TLVs. */
	udp_to(&f, 7777, pl, 8);
	parse_with(&f, &tab);
	expect_layers("acme: no TLVs", 4, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP, DYNPF_P_DECL);
	CHECK_EQ("acme: no TLVs", P.err, DYNPF_E_OK);
	CHECK_EQ("acme: no TLVs", ACME.n, 0);
	/* The TLVs end with the datagram, not with the frame's padding. */
	udp_to(&f, 7777, pl, 8);
	put8(&f, 9);
	put8(&f, 2);
	f.b[14 + 3] += 2; /* the IP and UDP lengths: 2 bytes more */
	f.b[14 + 20 + 5] += 2;
	put(&f, pl, 6); /* Ethernet padding past the IP datagram */
	parse_with(&f, &tab);
	CHECK_EQ("acme: padding", P.err, DYNPF_E_OK);
	CHECK_EQ("acme: padding", ACME.n, 1);
	CHECK_EQ("acme: padding", ACME.ent[0].len, 2);
}

/* Length fields: where the header ends, where its fixed part ends. */
static void test_lengths_decl(void)
{
	/* Geneve-like: 6 bits of length in 4-byte words after 8 bytes. */
	static const unsigned char pl[] = { 2, 0, 0, 0, 0, 0, 0,    0,    7,    6,
					    1, 2, 3, 4, 0, 0, 0xee, 0xee, 0xee, 0xee };
	const unsigned int at = 14 + 20 + 8;
	struct dynpf_proto_desc d = test_acme(3);
	struct frame f;

	d.hdr_f = (struct dynpf_lenfield){ .size = 1, .mask = 0x3f, .unit = 4, .adj = 8 };
	declare(&d);
	udp_to(&f, 7777, pl, sizeof(pl));
	parse_with(&f, &tab);
	CHECK_EQ("header length", P.err, DYNPF_E_OK);
	CHECK_EQ("header length", P.layers[3].len, 16);
	CHECK_EQ("header length: TLVs", ACME.n, 3);
	CHECK_EQ("header length: TLVs", ACME.ent[1].off, at + 14);
	/* Past the datagram: truncated. Below the fixed part: bad_len at the field. */
	{
		unsigned char big[sizeof(pl)], small[sizeof(pl)];

		memcpy(big, pl, sizeof(pl));
		memcpy(small, pl, sizeof(pl));
		big[0] = 4; /* 24 bytes */
		udp_to(&f, 7777, big, sizeof(big));
		parse_with(&f, &tab);
		expect_err("header length past the datagram", DYNPF_E_TRUNCATED, DYNPF_P_DECL, 3);
		/* The mask: the top bits are not the length. */
		small[0] = 0xc2;
		udp_to(&f, 7777, small, sizeof(small));
		parse_with(&f, &tab);
		CHECK_EQ("header length: masked", P.err, DYNPF_E_OK);
		CHECK_EQ("header length: masked", P.layers[3].len, 16);
		d.hdr_f.adj = 0; /* now 2 words: 8 bytes, the fixed part alone */
		declare(&d);
		small[0] = 1; /* 4 bytes: below the fixed part */
		udp_to(&f, 7777, small, sizeof(small));
		parse_with(&f, &tab);
		expect_err("header length below the fixed part", DYNPF_E_BAD_LEN, DYNPF_P_DECL, 3);
		CHECK_EQ("header length below the fixed part", P.err_off, at);
	}
	/* The fixed part's end from a field (a u16 at 2, in bytes), TLVs to the end. */
	{
		static const unsigned char fx[] = { 0xff, 0xff, 0, 6, 9, 9, 5, 2, 6, 3, 0 };

		d = test_acme(3);
		d.fixed = 4;
		d.fixed_f =
			(struct dynpf_lenfield){ .off = 2, .size = 2, .mask = 0xffff, .unit = 1 };
		declare(&d);
		udp_to(&f, 7777, fx, sizeof(fx));
		parse_with(&f, &tab);
		CHECK_EQ("fixed part from a field", P.err, DYNPF_E_OK);
		CHECK_EQ("fixed part from a field", ACME.n, 2);
		CHECK_EQ("fixed part from a field", ACME.ent[0].off, at + 6);
		CHECK_EQ("fixed part from a field", ACME.ent[1].type, 6);
		CHECK_EQ("fixed part from a field", P.layers[3].len, sizeof(fx));
	}
}

/* A u32 type, a u24 length counting its 8-byte header in 4-byte words, an end type. */
static void test_wide_fields(void)
{
	static const unsigned char pl[] = { 0, 0, 1, 0x07, 0x80, 0,    0,    3,    1,   2,
					    3, 4, 0, 0,    0,    0xff, 0x11, 0x22, 0x33 };
	struct dynpf_proto_desc d = test_acme(3);
	struct frame f;

	d.fixed = 0;
	d.tlv = (struct dynpf_tlv_enc){
		.type_size = 4,
		.hdr_len = 8,
		.flags = DYNPF_TLVE_END,
		.end_type = 0xff,
		.len = { .off = 5, .size = 3, .mask = 0xffffff, .unit = 4 },
	};
	declare(&d);
	udp_to(&f, 7777, pl, sizeof(pl));
	parse_with(&f, &tab);
	CHECK_EQ("wide", P.err, DYNPF_E_OK);
	CHECK_EQ("wide", ACME.n, 2);
	CHECK_EQ("wide", ACME.ent[0].type, 0x107);
	CHECK_EQ("wide", ACME.ent[0].len, 12);
	CHECK_EQ("wide", ACME.ent[0].hdr, 8);
	CHECK_EQ("wide: the end type", ACME.ent[1].type, 0xff);
	CHECK_EQ("wide: the end type", ACME.ent[1].len, 4);
}

/* The other bindings: TCP's payload, an IP protocol, an ethertype. */
static void test_bindings(void)
{
	static const unsigned char pl[] = { 1, 2, 3, 4, 5, 6, 7, 8, 5, 2 };
	struct dynpf_proto_desc d = test_acme(3);
	struct frame f;

	d.at = DYNPF_PAT_TCP;
	d.at_val = 80;
	declare(&d);
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 6, 20 + sizeof(pl));
	tcp(&f, 5, 0x18, NULL, 0);
	put(&f, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("tcp dport", 4, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_TCP, DYNPF_P_DECL);
	CHECK_EQ("tcp dport", ACME.n, 1);
	CHECK_EQ("tcp dport: the payload after it", P.l4_payload_off, 14 + 20 + 20);

	d.at = DYNPF_PAT_IP;
	d.at_val = 253;
	declare(&d);
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 253, sizeof(pl));
	put(&f, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("ip proto", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_DECL);
	CHECK_EQ("ip proto", ACME.n, 1);
	/* Behind IPv6 and a destination options header. */
	{
		static const unsigned char pad[6] = { 1, 4, 0, 0, 0, 0 };

		eth(&f, 0x86dd);
		ipv6(&f, 60, 8 + sizeof(pl));
		ext(&f, 253, pad, 8);
		put(&f, pl, sizeof(pl));
		parse_with(&f, &tab);
		expect_layers("ip6 proto", 4, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_DSTOPTS,
			      DYNPF_P_DECL);
		CHECK_EQ("ip6 proto", ACME.n, 1);
	}
	/* A non-first fragment has no header of it. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x0010, 253, sizeof(pl));
	put(&f, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("ip proto, a later fragment", 2, DYNPF_P_ETH, DYNPF_P_IPV4);

	d.at = DYNPF_PAT_ETHER;
	d.at_val = 0x88b5;
	declare(&d);
	eth(&f, 0x88b5);
	put(&f, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("ether type", 2, DYNPF_P_ETH, DYNPF_P_DECL);
	CHECK_EQ("ether type", ACME.n, 1);
	/* Behind a VLAN tag. */
	eth(&f, 0x8100);
	put16(&f, 5);
	put16(&f, 0x88b5);
	put(&f, pl, sizeof(pl));
	parse_with(&f, &tab);
	expect_layers("ether type, tagged", 3, DYNPF_P_ETH, DYNPF_P_VLAN, DYNPF_P_DECL);
}

/* The limits: 128 TLVs an area, 2048 bytes an area. */
static void test_limits(void)
{
	static unsigned char pl[8 + 2100];
	struct dynpf_proto_desc d = test_acme(3);
	struct frame f;

	declare(&d);
	memset(pl, 0, sizeof(pl)); /* pad bytes: one-byte TLVs */
	udp_to(&f, 7777, pl, 8 + 128);
	parse_with(&f, &tab);
	CHECK_EQ("128 TLVs", P.err, DYNPF_E_OK);
	CHECK_EQ("128 TLVs", ACME.count, 128);
	CHECK_EQ("128 TLVs: the first 40 kept", ACME.n, DYNPF_MAX_TLVS);
	CHECK_EQ("128 TLVs: the first 40 kept", ACME.overflow, 1);
	udp_to(&f, 7777, pl, 8 + 129);
	parse_with(&f, &tab);
	expect_err("129 TLVs", DYNPF_E_TLV_COUNT, DYNPF_P_DECL, 4);
	udp_to(&f, 7777, pl, 8 + 2048);
	parse_with(&f, &tab);
	expect_err("2048 bytes of TLVs", DYNPF_E_TLV_COUNT, DYNPF_P_DECL, 4);
	udp_to(&f, 7777, pl, 8 + 2049);
	parse_with(&f, &tab);
	expect_err("2049 bytes of TLVs", DYNPF_E_BAD_LEN, DYNPF_P_DECL, 4);
}

/* The TLV lists of families a and b are the same, but for the family each names. */
static int same_list(const struct dynpf_tlv_list *a, const struct dynpf_tlv_list *b)
{
	if (memcmp(a->seen, b->seen, sizeof(a->seen)) || a->count != b->count ||
	    a->overflow != b->overflow || a->n != b->n)
		return 0;
	for (unsigned int i = 0; i < a->n && i < DYNPF_MAX_TLVS; i++) {
		struct dynpf_tlv x = a->ent[i], y = b->ent[i];

		x.family = y.family = 0;
		if (memcmp(&x, &y, sizeof(x)))
			return 0;
	}
	return 1;
}

/* TCP options declared in TCP's option area: the same list as the built-in walk's. */
static void test_area(void)
{
	static const unsigned char bad[8] = { 1, 1, 2, 4, 5, 0xb4, 3, 9 };
	struct dynpf_proto_desc d = {
		.name = "tcpopts",
		.id = 0,
		.at = DYNPF_PAT_AREA,
		.at_val = DYNPF_TLV_TCP_OPT,
		.tlv = { .type_size = 1,
			 .hdr_len = 2,
			 .flags = DYNPF_TLVE_END | DYNPF_TLVE_PAD1,
			 .end_type = 0,
			 .pad_type = { 1 },
			 .len = { .off = 1, .size = 1, .mask = 0xff, .unit = 1 } },
	};
	struct frame f;

	declare(&d);
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x4000, 6, 40);
	tcp(&f, 10, 0x02, syn_opts, 20);
	parse_with(&f, &tab);
	CHECK_EQ("tcp options, declared", P.err, DYNPF_E_OK);
	CHECK_EQ("tcp options, declared", P.tlv[DYNPF_TLV_NFAM].n, 5);
	CHECK("tcp options, declared", same_list(&TCPO, &P.tlv[DYNPF_TLV_NFAM]),
	      "the lists differ");
	CHECK_EQ("tcp options, declared: still decoded", P.st[0].l4.mss, 1460);
	/* A bad option: the same list up to it; the error is TCP's. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x4000, 6, 28);
	tcp(&f, 7, 0x02, bad, 8);
	parse_with(&f, &tab);
	expect_err("tcp options, declared, a bad one", DYNPF_E_TLV_LEN, DYNPF_P_TCP, 3);
	CHECK_EQ("tcp options, declared, a bad one", TCPO.n, 3);
	CHECK("tcp options, declared, a bad one", same_list(&TCPO, &P.tlv[DYNPF_TLV_NFAM]),
	      "the lists differ");
	/* In hop-by-hop options (a rare layer): deferred, the same. */
	{
		static const unsigned char ra[14] = { 5, 2, 0, 0, 1, 2, 0, 0, 0xc2, 4, 0, 0, 0, 1 };

		d.at_val = DYNPF_TLV_IPV6_HBH;
		d.tlv.flags = DYNPF_TLVE_PAD1;
		d.tlv.pad_type[0] = 0;
		d.tlv.end_type = 0;
		d.tlv.len.adj = 2;
		declare(&d);
		eth(&f, 0x86dd);
		ipv6(&f, 0, 16);
		ext(&f, 59, ra, 16);
		parse_with(&f, &tab);
		CHECK_EQ("hbh, declared", P.tlv[DYNPF_TLV_IPV6_HBH].n, 3);
		CHECK("hbh, declared",
		      same_list(&P.tlv[DYNPF_TLV_IPV6_HBH], &P.tlv[DYNPF_TLV_NFAM]),
		      "the lists differ");
	}
}

void test_decl(void)
{
	test_udp();
	test_lengths_decl();
	test_wide_fields();
	test_bindings();
	test_limits();
	test_area();
}
