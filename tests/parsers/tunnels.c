// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Tunnels: VXLAN, Geneve, GRE, MPLS, GTP-U, IP in IP. */
#include <string.h>

#include "parsers.h"

void test_tunnels(void)
{
	struct frame f;

	/* VXLAN: inner eth/IPv4/TCP in stack 1. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 17, 8 + 8 + 14 + 20 + 24);
	put16(&f, 5000);
	put16(&f, 4789);
	put16(&f, 8 + 8 + 14 + 20 + 24);
	put16(&f, 0);
	put32(&f, 0x08000000);
	put32(&f, 0x00002a00); /* VNI 42 */
	inner_eth_ipv4_tcp(&f);
	parse(&f);
	CHECK_EQ("vxlan", P.err, DYNPF_E_OK);
	expect_layers("vxlan", 7, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP, DYNPF_P_VXLAN,
		      DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_TCP);
	CHECK_EQ("vxlan", P.nstacks, 2);
	CHECK_EQ("vxlan", P.layers[6].stack, 1);
	CHECK_EQ("vxlan", P.st[0].tun.vni, 42);
	CHECK_EQ("vxlan", P.st[1].l4.mss, 1400);
	CHECK_EQ("vxlan", P.st[0].l4.dport, 4789);
	f.b[14 + 20 + 8] = 0; /* I flag cleared */
	parse(&f);
	expect_err("vxlan-noI", DYNPF_E_BAD_HDR, DYNPF_P_VXLAN, 3);

	/* Geneve: two options (class 0x0102 type 0x83 critical, 1 word; class 0xffff type 1,
	 * 0 words), inner IPv4 via protocol 0x0800; then an option past the area. */
	eth(&f, 0x86dd);
	ipv6(&f, 17, 8 + 8 + 12 + 20 + 24);
	put16(&f, 5000);
	put16(&f, 6081);
	put16(&f, 8 + 8 + 12 + 20 + 24);
	put16(&f, 0);
	put8(&f, 3); /* version 0, 3 words of options */
	put8(&f, 0);
	put16(&f, 0x0800);
	put32(&f, 0x00000700);
	put32(&f, 0x01028301);
	put32(&f, 0xaabbccdd);
	put32(&f, 0xffff0100);
	ipv4(&f, 5, 0, 0, 6, 24);
	tcp(&f, 6, 0x02, (const unsigned char *)"\2\4\5\170", 4);
	parse(&f);
	CHECK_EQ("geneve", P.err, DYNPF_E_OK);
	expect_layers("geneve", 6, DYNPF_P_ETH, DYNPF_P_IPV6, DYNPF_P_UDP, DYNPF_P_GENEVE,
		      DYNPF_P_IPV4, DYNPF_P_TCP);
	CHECK_EQ("geneve", P.tlv[DYNPF_TLV_GENEVE_OPT].n, 2);
	CHECK_EQ("geneve", P.tlv[DYNPF_TLV_GENEVE_OPT].ent[0].type, 0x010283);
	CHECK_EQ("geneve", P.tlv[DYNPF_TLV_GENEVE_OPT].ent[0].len, 8);
	CHECK_EQ("geneve", P.tlv[DYNPF_TLV_GENEVE_OPT].ent[1].len, 4);
	CHECK_EQ("geneve", P.st[0].tun.vni, 7);
	CHECK_EQ("geneve", P.st[0].tun.opt_len, 12);
	f.b[14 + 40 + 8 + 8 + 3] = 0x03; /* first option: 3 words, past the area */
	parse(&f);
	expect_err("geneve-opt", DYNPF_E_TLV_LEN, DYNPF_P_GENEVE, 4);
	CHECK_EQ("geneve-opt", P.err_off, 14 + 40 + 8 + 8);

	/* GRE with checksum, key and sequence, inner IPv6/UDP. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 47, 16 + 40 + 8);
	put16(&f, 0xb000);
	put16(&f, 0x86dd);
	put32(&f, 0);
	put32(&f, 99);
	put32(&f, 5);
	ipv6(&f, 17, 8);
	udp(&f, 8);
	parse(&f);
	CHECK_EQ("gre", P.err, DYNPF_E_OK);
	expect_layers("gre", 5, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_GRE, DYNPF_P_IPV6, DYNPF_P_UDP);
	CHECK_EQ("gre", P.layers[2].len, 16);
	CHECK_EQ("gre", P.st[0].tun.key, 99);
	CHECK_EQ("gre", P.st[0].tun.seq, 5);
	CHECK_EQ("gre", P.st[1].l4.dport, 53);

	/* MPLS: 9 labels with no bottom of stack. */
	eth(&f, 0x8847);
	for (int i = 0; i < 9; i++)
		put32(&f, (unsigned int)(i + 16) << 12 | 64);
	parse(&f);
	expect_err("mpls-nobos", DYNPF_E_DEPTH, DYNPF_P_MPLS, 1);
	/* Two labels, then IPv6 guessed from the first nibble. */
	eth(&f, 0x8847);
	put32(&f, 100 << 12 | 64);
	put32(&f, 200 << 12 | 0x100 | 64);
	ipv6(&f, 59, 0);
	parse(&f);
	CHECK_EQ("mpls", P.err, DYNPF_E_OK);
	expect_layers("mpls", 3, DYNPF_P_ETH, DYNPF_P_MPLS, DYNPF_P_IPV6);
	CHECK_EQ("mpls", P.st[0].mpls.n, 2);
	CHECK_EQ("mpls", P.st[0].mpls.lse[1] >> 12, 200);

	/* GTP-U with a PDU session container extension, inner IPv4/ICMP. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 17, 8 + 12 + 4 + 20 + 8);
	put16(&f, 2152);
	put16(&f, 2152);
	put16(&f, 8 + 12 + 4 + 20 + 8);
	put16(&f, 0);
	put8(&f, 0x34); /* version 1, PT, E */
	put8(&f, 255);
	put16(&f, 4 + 4 + 20 + 8);
	put32(&f, 77);
	put16(&f, 0);
	put8(&f, 0);
	put8(&f, 0x85);
	put32(&f, 0x01000500); /* 1 word, QFI 5, next 0 */
	ipv4(&f, 5, 0, 0, 1, 8);
	put32(&f, 0x08000000);
	put32(&f, 0x00010001);
	parse(&f);
	CHECK_EQ("gtpu", P.err, DYNPF_E_OK);
	expect_layers("gtpu", 6, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_UDP, DYNPF_P_GTPU, DYNPF_P_IPV4,
		      DYNPF_P_ICMP);
	CHECK_EQ("gtpu", P.st[0].tun.key, 77);
	CHECK_EQ("gtpu", P.st[0].tun.n_ext, 1);
	CHECK_EQ("gtpu", P.st[0].tun.ext_type[0], 0x85);
	CHECK_EQ("gtpu", P.st[1].l4.icmp_type, 8);

	/* IP in IP in IP: the third stack is one too many. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 4, 40 + 8);
	ipv4(&f, 5, 0, 0, 4, 20 + 8);
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 8);
	parse(&f);
	expect_err("ipip-depth", DYNPF_E_DEPTH, DYNPF_P_IPV4, 3);
	CHECK_EQ("ipip-depth", P.err_off, 14 + 40);
}
