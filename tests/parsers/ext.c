// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* IPv4 options and IPv6 extension headers. */
#include <stdio.h>
#include <string.h>

#include "parsers.h"

void test_ipv4_options(void)
{
	/* RA, NOP, RR with one address recorded (ptr 8), TS ptr 5 oflw 1 flag 0, EOL */
	static const unsigned char o[24] = { 148, 4, 0, 0,    1, 7, 7, 8, 1, 2, 3, 4,
					     68,  8, 5, 0x10, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct frame f;

	eth(&f, 0x0800);
	put8(&f, 0x4b); /* IHL 11: 24 option bytes */
	put8(&f, 0);
	put16(&f, 44 + 8);
	put16(&f, 1);
	put16(&f, 0);
	put8(&f, 64);
	put8(&f, 17);
	put16(&f, 0);
	put32(&f, 0xc6120001);
	put32(&f, 0xc6120002);
	put(&f, o, 24);
	udp(&f, 8);
	parse(&f);
	CHECK_EQ("ip4opt", P.err, DYNPF_E_OK);
	expect_layers("ip4opt", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP);
	CHECK_EQ("ip4opt", P.tlv[DYNPF_TLV_IPV4_OPT].n, 5); /* RA NOP RR TS EOL */
	CHECK_EQ("ip4opt", P.st[0].ip4opt.seen, DYNPF_IPOPT_RA | DYNPF_IPOPT_RR | DYNPF_IPOPT_TS);
	CHECK_EQ("ip4opt", P.st[0].ip4opt.rr_count, 1);
	CHECK_EQ("ip4opt", P.st[0].ip4opt.ts_oflw, 1);
	CHECK_EQ("ip4opt", P.st[0].ip4opt.ts_ptr, 5);
	CHECK_EQ("ip4opt", P.tlv[DYNPF_TLV_IPV4_OPT].ent[2].off, 14 + 20 + 5);

	/* A Record Route option that claims more than the area holds. */
	f.b[14 + 20 + 6] = 30;
	parse(&f);
	expect_err("ip4opt-overrun", DYNPF_E_TLV_LEN, DYNPF_P_IPV4, 2);
	CHECK_EQ("ip4opt-overrun", P.err_layer, 1);
	CHECK_EQ("ip4opt-overrun", P.err_off, 14 + 20 + 5);
}

void test_ipv6_ext(void)
{
	/* HBH: RA(5) + PadN; routing SRH 2 segments + HMAC-less TLV; frag first; TCP */
	static const unsigned char hbh[6] = { 5, 2, 0, 0, 1, 0 };
	unsigned char srh[8 + 32 + 8 - 2], dst[14] = { 0x3e, 2, 0, 0, 0xbe, 0, 1, 6 };
	struct frame f;

	memset(srh, 0, sizeof(srh));
	srh[0] = 4; /* type */
	srh[1] = 1; /* segments left */
	srh[2] = 1; /* last entry: 2 segments */
	srh[3] = 0; /* flags */
	srh[4] = 0x12;
	srh[5] = 0x34; /* tag */
	srh[38] = 7;   /* an unknown TLV type, data length 4 */
	srh[39] = 4;
	eth(&f, 0x86dd);
	ipv6(&f, 0, 8 + 48 + 16 + 8 + 20);
	ext(&f, 43, hbh, 8);
	ext(&f, 60, srh, 48);
	ext(&f, 44, dst, 16);
	put8(&f, 6);
	put8(&f, 0);
	put16(&f, 1); /* offset 0, M */
	put32(&f, 0xdeadbeef);
	tcp(&f, 5, 0x02, NULL, 0);
	parse(&f);
	CHECK_EQ("chain", P.err, DYNPF_E_OK);
	expect_layers("chain", 7, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_HOPOPTS, DYNPF_P_ROUTING,
		      DYNPF_P_DSTOPTS, DYNPF_P_FRAGMENT, DYNPF_P_TCP);
	CHECK_EQ("chain", CH.n, 4);
	CHECK_EQ("chain", CH.flags, 0);
	CHECK_EQ("chain", CH.ext[0].ra, 0);
	CHECK_EQ("chain", CH.ext[0].flags & DYNPF_EXTF_RA, DYNPF_EXTF_RA);
	CHECK_EQ("chain", CH.ext[1].rt_type, 4);
	CHECK_EQ("chain", CH.ext[1].segleft, 1);
	CHECK_EQ("chain", CH.ext[1].srh_tag, 0x1234);
	CHECK_EQ("chain", P.tlv[DYNPF_TLV_SRH_TLV].n, 3); /* the TLV, then 2 Pad1 */
	CHECK_EQ("chain", P.tlv[DYNPF_TLV_SRH_TLV].ent[0].type, 7);
	CHECK_EQ("chain", P.tlv[DYNPF_TLV_SRH_TLV].ent[0].len, 6);
	/* dstopts: unknown types 0x3e (action 0) and 0xbe (action 2), then PadN */
	CHECK_EQ("chain", CH.ext[2].unknown_act, 0x5);
	CHECK_EQ("chain", P.tlv[DYNPF_TLV_IPV6_DST].n, 3);
	CHECK_EQ("chain", CH.ext[3].id, 0xdeadbeef);
	CHECK_EQ("chain", CH.ext[3].flags & DYNPF_EXTF_FRAG_M, DYNPF_EXTF_FRAG_M);
	CHECK_EQ("chain", P.st[0].l3.frag, DYNPF_FRAG_MF | DYNPF_FRAG_IS_FRAG);
	CHECK_EQ("chain", P.l4_payload_off, 14 + 40 + 8 + 48 + 16 + 8 + 20);

	/* Every cut of it ends truncated at some layer, never out of bounds. */
	{
		struct frame g;
		unsigned int full = f.n;

		for (unsigned int cut = 54; cut < full; cut++) {
			char name[32];

			memcpy(g.b, f.b, cut);
			g.n = cut;
			parse(&g);
			snprintf(name, sizeof(name), "chain-cut@%u", cut);
			CHECK(name, P.err == DYNPF_E_TRUNCATED, "err %u, want truncated", P.err);
		}
	}

	/* SRH HMAC TLV (RFC 8754 2.1.2): the D flag and key id are decoded. */
	{
		unsigned char h[8 + 16 + 16 - 2];

		memset(h, 0, sizeof(h));
		h[0] = 4;  /* type; segments left 0, last entry 0: 1 segment */
		h[22] = 5; /* HMAC, 14 data bytes: D flag, reserved, key id, 8 bytes */
		h[23] = 14;
		h[24] = 0x80;
		h[26] = 0x01, h[27] = 0x02, h[28] = 0x03, h[29] = 0x04;
		eth(&f, 0x86dd);
		ipv6(&f, 43, 40);
		ext(&f, 59, h, 40);
		parse(&f);
		CHECK_EQ("srh-hmac", P.err, DYNPF_E_OK);
		CHECK_EQ("srh-hmac", CH.ext[0].flags & (DYNPF_EXTF_HMAC | DYNPF_EXTF_HMAC_D),
			 DYNPF_EXTF_HMAC | DYNPF_EXTF_HMAC_D);
		CHECK_EQ("srh-hmac", CH.ext[0].id, 0x01020304);
		CHECK_EQ("srh-hmac", P.tlv[DYNPF_TLV_SRH_TLV].ent[0].type, 5);

		/* 4 data bytes leave no room for the key id: listed, not decoded. */
		f.b[14 + 40 + 8 + 16 + 1] = 4;
		f.b[14 + 40 + 8 + 16 + 6] = 4; /* PadN, 8 data bytes */
		f.b[14 + 40 + 8 + 16 + 7] = 8;
		parse(&f);
		CHECK_EQ("srh-hmac-short", P.err, DYNPF_E_OK);
		CHECK_EQ("srh-hmac-short", CH.ext[0].flags & DYNPF_EXTF_HMAC, 0);
		CHECK_EQ("srh-hmac-short", P.tlv[DYNPF_TLV_SRH_TLV].n, 2);
		CHECK_EQ("srh-hmac-short", P.tlv[DYNPF_TLV_SRH_TLV].ent[0].len, 6);
	}

	/* Nine destination options headers: repeated, and the 9th is too deep. */
	{
		static const unsigned char pad[6] = { 1, 4, 0, 0, 0, 0 };

		eth(&f, 0x86dd);
		ipv6(&f, 60, 9 * 8);
		for (int i = 0; i < 9; i++)
			ext(&f, i < 8 ? 60 : 59, pad, 8);
		parse(&f);
		expect_err("dst-loop", DYNPF_E_DEPTH, DYNPF_P_DSTOPTS, 10);
		CHECK_EQ("dst-loop", CH.flags, DYNPF_EXT_REPEATED);
		CHECK_EQ("dst-loop", P.err_off, 14 + 40 + 64);
	}
	/* Hop-by-hop after a destination header; ESP ends the walk. */
	{
		static const unsigned char pad[6] = { 1, 4, 0, 0, 0, 0 };

		eth(&f, 0x86dd);
		ipv6(&f, 60, 16 + 8);
		ext(&f, 0, pad, 8);
		ext(&f, 50, pad, 8);
		put32(&f, 0x1001);
		put32(&f, 1);
		parse(&f);
		CHECK_EQ("hbh-late", P.err, DYNPF_E_OK);
		CHECK_EQ("hbh-late", CH.flags, DYNPF_EXT_HBH_NOT_FIRST);
		expect_layers("hbh-late", 5, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_DSTOPTS,
			      DYNPF_P_HOPOPTS, DYNPF_P_ESP);
		CHECK_EQ("hbh-late", CH.ext[2].id, 0x1001);
	}
	/* An option running past its header, and SRH segments past the header. */
	{
		static const unsigned char bad[6] = { 1, 5, 0, 0, 0, 0 };

		eth(&f, 0x86dd);
		ipv6(&f, 0, 8 + 8);
		ext(&f, 17, bad, 8);
		udp(&f, 8);
		parse(&f);
		expect_err("opt-overrun", DYNPF_E_TLV_LEN, DYNPF_P_HOPOPTS, 3);
		CHECK_EQ("opt-overrun", P.err_off, 14 + 40 + 2);

		memset(srh, 0, sizeof(srh));
		srh[0] = 4;
		srh[2] = 5; /* 6 segments: 96 bytes, the header has 40 */
		eth(&f, 0x86dd);
		ipv6(&f, 43, 48);
		ext(&f, 59, srh, 48);
		parse(&f);
		expect_err("srh-segs", DYNPF_E_BAD_LEN, DYNPF_P_ROUTING, 2);
	}
	/* A non-first fragment: no L4 after it. AH is skipped by its own rule. */
	{
		static const unsigned char ah[10] = { 4, 0, 0, 0, 0x11, 0x22, 0, 0, 0, 1 };

		eth(&f, 0x86dd);
		ipv6(&f, 51, 24 + 8 + 20);
		put8(&f, 44);
		put8(&f, 4); /* (4 + 2) * 4 = 24 bytes */
		put(&f, ah, 10);
		put(&f, "123456789012", 12);
		put8(&f, 6);
		put8(&f, 0);
		put16(&f, 0x0100); /* offset 32 */
		put32(&f, 7);
		tcp(&f, 5, 0x02, NULL, 0);
		parse(&f);
		CHECK_EQ("ah-frag", P.err, DYNPF_E_OK);
		expect_layers("ah-frag", 4, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_AH,
			      DYNPF_P_FRAGMENT);
		CHECK_EQ("ah-frag", CH.ext[0].len, 24);
		CHECK_EQ("ah-frag", CH.ext[1].frag_off, 32);
		CHECK_EQ("ah-frag", P.st[0].l3.frag & DYNPF_FRAG_NONFIRST, DYNPF_FRAG_NONFIRST);
	}
}
