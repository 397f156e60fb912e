// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Every length field bounds what follows (parsers/README.md): the UDP length,
 * GTP-U's Length and a jumbogram's Jumbo Payload end the bytes the headers
 * after them may use, inner stacks included; GRE versions; AH and ESP behind
 * IPv4.
 */
#include <string.h>

#include "parsers.h"

/* eth / IPv4 / UDP (ulen) to dport, the IP payload plen bytes. */
static void udp4_to(struct frame *f, unsigned int plen, unsigned int ulen, unsigned int dport)
{
	eth(f, 0x0800);
	ipv4(f, 5, 0, 0, 17, plen);
	put16(f, 5000);
	put16(f, dport);
	put16(f, ulen);
	put16(f, 0);
}

static void vxlan(struct frame *f)
{
	put32(f, 0x08000000);
	put32(f, 0x00002a00);
}

static void test_udp_length(void)
{
	struct frame f;

	/* The datagram ends 12 bytes after the UDP header: VXLAN, then 4 bytes of
	 * the inner Ethernet header; the rest of the IP payload is not its. */
	udp4_to(&f, 8 + 8 + 14 + 20 + 24, 20, 4789);
	vxlan(&f);
	inner_eth_ipv4_tcp(&f);
	parse(&f);
	expect_err("udp-len-inner", DYNPF_E_TRUNCATED, DYNPF_P_ETH, 4);
	CHECK_EQ("udp-len-inner", P.err_layer, 4);
	CHECK_EQ("udp-len-inner", P.st[0].l4.ulen, 20);
	/* UDP length 8: no payload, not even the VXLAN header. */
	udp4_to(&f, 8 + 8 + 14 + 20 + 24, 8, 4789);
	vxlan(&f);
	inner_eth_ipv4_tcp(&f);
	parse(&f);
	expect_err("udp-len-8-vxlan", DYNPF_E_TRUNCATED, DYNPF_P_VXLAN, 3);
	udp4_to(&f, 8 + 8 + 20 + 24, 8, 6081);
	put32(&f, 0x00000800);
	put32(&f, 0x00000700);
	ipv4(&f, 5, 0, 0, 6, 24);
	tcp(&f, 6, 0x02, syn_opts, 4);
	parse(&f);
	expect_err("udp-len-8-geneve", DYNPF_E_TRUNCATED, DYNPF_P_GENEVE, 3);
	/* The same behind IPv6. */
	eth(&f, 0x86dd);
	ipv6(&f, 17, 8 + 8 + 14 + 20 + 24);
	put16(&f, 5000);
	put16(&f, 4789);
	put16(&f, 20);
	put16(&f, 0);
	vxlan(&f);
	inner_eth_ipv4_tcp(&f);
	parse(&f);
	expect_err("udp6-len-inner", DYNPF_E_TRUNCATED, DYNPF_P_ETH, 4);
	/* Whole: the datagram is the IP payload. */
	udp4_to(&f, 8 + 8 + 14 + 20 + 24, 8 + 8 + 14 + 20 + 24, 4789);
	vxlan(&f);
	inner_eth_ipv4_tcp(&f);
	parse(&f);
	CHECK_EQ("udp-len-whole", P.err, DYNPF_E_OK);
	CHECK_EQ("udp-len-whole", P.nlayers, 7);
}

/* GTP-U G-PDU: flags, Length, TEID 77. */
static void gtpu(struct frame *f, unsigned int flags, unsigned int len)
{
	put8(f, flags);
	put8(f, 255);
	put16(f, len);
	put32(f, 77);
}

static void test_gtpu_length(void)
{
	struct frame f;

	/* Length 4: an inner IPv4 header of 20 bytes does not fit in it. */
	udp4_to(&f, 8 + 8 + 20 + 8, 8 + 8 + 20 + 8, 2152);
	gtpu(&f, 0x30, 4);
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 8);
	parse(&f);
	expect_err("gtpu-len-4", DYNPF_E_TRUNCATED, DYNPF_P_IPV4, 4);
	CHECK_EQ("gtpu-len-4", P.st[0].tun.len, 4);
	/* Length 1000 in a 33-byte message: past the datagram. */
	udp4_to(&f, 8 + 8 + 25, 8 + 8 + 25, 2152);
	gtpu(&f, 0x30, 1000);
	put(&f, "0123456789012345678901234", 25);
	parse(&f);
	expect_err("gtpu-len-past", DYNPF_E_TRUNCATED, DYNPF_P_GTPU, 3);
	/* S set, Length 2: too short for the optional fields. */
	udp4_to(&f, 8 + 8 + 4, 8 + 8 + 4, 2152);
	gtpu(&f, 0x32, 2);
	put32(&f, 0);
	parse(&f);
	expect_err("gtpu-len-opt", DYNPF_E_BAD_LEN, DYNPF_P_GTPU, 3);
	/* E set, an extension header of one word past a Length of 4. */
	udp4_to(&f, 8 + 8 + 8, 8 + 8 + 8, 2152);
	gtpu(&f, 0x34, 4);
	put32(&f, 0x00000085);
	put32(&f, 0x01000500);
	parse(&f);
	expect_err("gtpu-ext-past-len", DYNPF_E_TRUNCATED, DYNPF_P_GTPU, 3);
	/* Valid, with 6 bytes of the datagram past its Length: not parsed. */
	udp4_to(&f, 8 + 8 + 20 + 8 + 6, 8 + 8 + 20 + 8 + 6, 2152);
	gtpu(&f, 0x30, 20 + 8);
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 8);
	put(&f, "extra!", 6);
	parse(&f);
	CHECK_EQ("gtpu-len-ok", P.err, DYNPF_E_OK);
	CHECK_EQ("gtpu-len-ok", P.nlayers, 6);
	CHECK_EQ("gtpu-len-ok", P.l4_payload_off, 14 + 20 + 8 + 8 + 20 + 8);
}

/* IPv6 with payload length plen, then a hop-by-hop header with a Jumbo
 * Payload option of jumbo (or PadN when jumbo is 0) and next header nh. */
static void jumbo6(struct frame *f, unsigned int plen, unsigned int jumbo, unsigned int nh)
{
	unsigned char opt[6] = { 0xc2, 4, jumbo >> 24, jumbo >> 16, jumbo >> 8, jumbo };

	if (!jumbo) {
		opt[0] = 1; /* PadN */
		memset(opt + 2, 0, 4);
	}
	eth(f, 0x86dd);
	ipv6(f, 0, plen);
	ext(f, nh, opt, 8);
}

/* A jumbogram of 70,000 bytes, hop-by-hop then a UDP datagram filling it. */
static void jumbo_udp(struct frame *f)
{
	jumbo6(f, 0, 70000, 17);
	udp(f, 70000 - 8);
	while (f->n < 14 + 40 + 70000)
		put8(f, 0);
}

static void test_jumbo(void)
{
	struct frame f;

	/* Jumbo 70000 in a 26-byte payload: truncated, at the hop-by-hop header. */
	jumbo6(&f, 0, 70000, 17);
	udp(&f, 0);
	put(&f, "0123456789", 10);
	parse(&f);
	expect_err("jumbo-past", DYNPF_E_TRUNCATED, DYNPF_P_HOPOPTS, 3);
	CHECK_EQ("jumbo-past", P.err_layer, 2);
	/* Below 65,536, with a payload length, without the option. */
	jumbo6(&f, 0, 8946, 59);
	parse(&f);
	expect_err("jumbo-small", DYNPF_E_BAD_HDR, DYNPF_P_HOPOPTS, 3);
	jumbo6(&f, 8, 70000, 59);
	parse(&f);
	expect_err("jumbo-plen", DYNPF_E_BAD_HDR, DYNPF_P_HOPOPTS, 3);
	jumbo6(&f, 0, 0, 59);
	parse(&f);
	expect_err("plen-0-no-jumbo", DYNPF_E_BAD_HDR, DYNPF_P_HOPOPTS, 3);
	/* A whole jumbogram of 70,000 bytes: its UDP datagram fills it. */
	jumbo_udp(&f);
	parse(&f);
	CHECK_EQ("jumbo", P.err, DYNPF_E_OK);
	expect_layers("jumbo", 4, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_HOPOPTS, DYNPF_P_UDP);
	CHECK_EQ("jumbo", CH.ext[0].jumbo, 70000);
	/* A UDP jumbogram: UDP length 0, the datagram is the rest (RFC 2675 4). */
	f.b[14 + 40 + 8 + 4] = 0;
	f.b[14 + 40 + 8 + 5] = 0;
	parse(&f);
	CHECK_EQ("jumbo-udp-0", P.err, DYNPF_E_OK);
	CHECK_EQ("jumbo-udp-0", P.st[0].l4.ulen, 0);
	CHECK_EQ("jumbo-udp-0", P.l4_payload_off, 14 + 40 + 8 + 8);
	/* Length 0 outside a jumbogram stays an error. */
	eth(&f, 0x86dd);
	ipv6(&f, 17, 8);
	udp(&f, 0);
	parse(&f);
	expect_err("udp-0", DYNPF_E_BAD_LEN, DYNPF_P_UDP, 2);
	jumbo_udp(&f);
	/* A fragment header behind it: the jumbogram's fault, not the fragment's. */
	f.n = 14 + 40 + 8;
	f.b[14 + 40] = 44;
	put32(&f, 0x11000000); /* next 17, offset 0 */
	put32(&f, 1);
	udp(&f, 70000 - 16);
	while (f.n < 14 + 40 + 70000)
		put8(&f, 0);
	parse(&f);
	expect_err("jumbo-frag", DYNPF_E_BAD_HDR, DYNPF_P_HOPOPTS, 3);
	CHECK_EQ("jumbo-frag", P.err_layer, 2);
	/* Payload length 0 without hop-by-hop: an empty payload, ok. */
	eth(&f, 0x86dd);
	ipv6(&f, 59, 0);
	parse(&f);
	CHECK_EQ("plen-0", P.err, DYNPF_E_OK);
}

static void test_gre_version(void)
{
	struct frame f;

	for (unsigned int v = 0; v < 8; v++) {
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 47, 4 + 20 + 8);
		put16(&f, v);
		put16(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 17, 8);
		udp(&f, 8);
		parse(&f);
		if (v < 2) {
			CHECK_EQ("gre-version-ok", P.err, DYNPF_E_OK);
			CHECK_EQ("gre-version-ok", P.nlayers, v ? 3 : 5);
		} else {
			expect_err("gre-version-bad", DYNPF_E_BAD_VERSION, DYNPF_P_GRE, 2);
		}
	}
}

static void test_ipsec_ipv4(void)
{
	struct frame f;

	/* AH (4 words + 2: 24 bytes) then TCP. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 51, 24 + 20);
	put8(&f, 6);
	put8(&f, 4);
	put16(&f, 0);
	put32(&f, 0x1000);
	put32(&f, 1);
	put32(&f, 0);
	put32(&f, 0);
	put32(&f, 0);
	tcp(&f, 5, 0x02, NULL, 0);
	parse(&f);
	CHECK_EQ("ah4", P.err, DYNPF_E_OK);
	expect_layers("ah4", 4, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_AH, DYNPF_P_TCP);
	CHECK_EQ("ah4", CH.n, 1);
	CHECK_EQ("ah4", CH.ext[0].id, 0x1000);
	CHECK_EQ("ah4", CH.ext[0].len, 24);
	CHECK_EQ("ah4", P.st[0].l4.dport, 80);
	/* ICMP behind AH behind IPv4 is ICMP, not ICMPv6. */
	f.b[14 + 20] = 1;
	parse(&f);
	expect_layers("ah4-icmp", 4, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_AH, DYNPF_P_ICMP);
	/* Its length past the datagram. */
	f.b[14 + 20 + 1] = 40;
	parse(&f);
	expect_err("ah4-len", DYNPF_E_TRUNCATED, DYNPF_P_AH, 2);
	/* ESP: the walk ends after SPI and sequence number. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 50, 8 + 16);
	put32(&f, 0x2000);
	put32(&f, 9);
	put(&f, "encrypted bytes!", 16);
	parse(&f);
	CHECK_EQ("esp4", P.err, DYNPF_E_OK);
	expect_layers("esp4", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_ESP);
	CHECK_EQ("esp4", CH.ext[0].id, 0x2000);
}

void test_lengths(void)
{
	test_udp_length();
	test_gtpu_length();
	test_jumbo();
	test_gre_version();
	test_ipsec_ipv4();
}
