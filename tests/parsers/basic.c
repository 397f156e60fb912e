// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Whole frames, malformed ones, and every truncation of them. */
#include <stdio.h>
#include <string.h>

#include "parsers.h"

void test_good(void)
{
	struct frame f;

	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x4000, 6, 40);
	tcp(&f, 10, 0x02, syn_opts, 20);
	parse(&f);
	expect_layers("syn", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_TCP);
	CHECK_EQ("syn", P.err, DYNPF_E_OK);
	CHECK_EQ("syn", P.st[0].l4.mss, 1460);
	CHECK_EQ("syn", P.st[0].l4.wscale, 7);
	CHECK_EQ("syn", P.st[0].l4.ts_val, 1);
	CHECK_EQ("syn", !!(P.st[0].l4.opts & DYNPF_TCPO_SACK_PERM), 1);
	CHECK_EQ("syn", TCPO.n, 5);
	CHECK_EQ("syn", TCPO.ent[4].type, 3);
	CHECK_EQ("syn", TCPO.ent[4].off, 14 + 20 + 20 + 17);
	CHECK_EQ("syn", P.l4_payload_off, 74);
	CHECK_EQ("syn", P.st[0].l3.frag, DYNPF_FRAG_DF);
	CHECK_EQ("syn", TCPO.count, 5);
	CHECK_EQ("syn", !!(TCPO.seen[0] & (1ULL << 8)), 1);

	/* QinQ + VLAN + IPv6 + UDP */
	eth(&f, 0x88a8);
	put16(&f, 0x2005);
	put16(&f, 0x8100);
	put16(&f, 0x0064);
	put16(&f, 0x86dd);
	ipv6(&f, 17, 8);
	udp(&f, 8);
	parse(&f);
	expect_layers("qinq", 5, DYNPF_P_ETH, DYNPF_P_QINQ, DYNPF_P_VLAN, DYNPF_P_IPV6,
		      DYNPF_P_UDP);
	CHECK_EQ("qinq", P.err, DYNPF_E_OK);
	CHECK_EQ("qinq", P.st[0].l2.nvlan, 2);
	CHECK_EQ("qinq", P.st[0].l2.vlan_tci[0], 0x2005);
	CHECK_EQ("qinq", P.st[0].l2.vlan_tpid[0], 0x88a8);
	CHECK_EQ("qinq", P.st[0].l2.vlan_tpid[1], 0x8100);
	CHECK_EQ("qinq", P.st[0].l2.ethertype, 0x86dd);
	CHECK_EQ("qinq", P.st[0].l3.flow_label, 0x12345);
	CHECK_EQ("qinq", P.st[0].l3.tos, 0x2e);
	CHECK_EQ("qinq", P.st[0].l4.dport, 53);

	/* Ethernet padding after a short IPv4/TCP: ignored. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 6, 20);
	tcp(&f, 5, 0x10, NULL, 0);
	put(&f, "\1\1\1\1\1\1", 6);
	parse(&f);
	CHECK_EQ("padding", P.err, DYNPF_E_OK);
	CHECK_EQ("padding", TCPO.n, 0);
	CHECK_EQ("padding", P.l4_payload_off, 54);

	/* Non-first fragment: no L4 even though the bytes look like TCP. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x0010, 6, 20);
	tcp(&f, 5, 0x02, NULL, 0);
	parse(&f);
	expect_layers("frag", 2, DYNPF_P_ETH, DYNPF_P_IPV4);
	CHECK_EQ("frag", P.st[0].l3.frag, DYNPF_FRAG_IS_FRAG | DYNPF_FRAG_NONFIRST);
	CHECK_EQ("frag", P.st[0].l3.frag_off, 16); /* in 8-byte units */

	/* UDP first fragment: length counts the whole datagram. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x2000, 17, 16);
	udp(&f, 1000);
	put(&f, "12345678", 8);
	parse(&f);
	CHECK_EQ("udp-frag", P.err, DYNPF_E_OK);

	/* 40 NOPs: the maximum count of options. */
	{
		unsigned char nops[40];

		memset(nops, 1, sizeof(nops));
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 60);
		tcp(&f, 15, 0x10, nops, 40);
		parse(&f);
		CHECK_EQ("nops", P.err, DYNPF_E_OK);
		CHECK_EQ("nops", TCPO.n, 40);
		CHECK_EQ("nops", TCPO.overflow, 0);
	}
	/* EOL ends the walk; the bytes after it are padding, even garbage. */
	{
		static const unsigned char o[8] = { 2, 4, 1, 0, 0, 0xff, 0, 0x55 };

		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 28);
		tcp(&f, 7, 0x10, o, 8);
		parse(&f);
		CHECK_EQ("eol", P.err, DYNPF_E_OK);
		CHECK_EQ("eol", TCPO.n, 2);
		CHECK_EQ("eol", TCPO.ent[1].type, 0);
	}
	/* Four SACK blocks, the most a 40-byte area holds with 2 NOPs. */
	{
		unsigned char o[36] = { 1, 1, 5, 34 };

		for (int i = 0; i < 32; i++)
			o[4 + i] = i;
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 56);
		tcp(&f, 14, 0x10, o, 36);
		parse(&f);
		CHECK_EQ("sack", P.err, DYNPF_E_OK);
		CHECK_EQ("sack", P.st[0].l4.nsack, 4);
		CHECK_EQ("sack", P.st[0].l4.sack[3][1], 0x1c1d1e1f);
	}
	/* ARP request. */
	eth(&f, 0x0806);
	put16(&f, 1);
	put16(&f, 0x0800);
	put8(&f, 6);
	put8(&f, 4);
	put16(&f, 1);
	put(&f, "\2\0\0\0\0\1\xc6\x12\0\1\0\0\0\0\0\0\xc6\x12\0\2", 20);
	parse(&f);
	expect_layers("arp", 2, DYNPF_P_ETH, DYNPF_P_ARP);
	CHECK_EQ("arp", P.st[0].arp.op, 1);
	CHECK_EQ("arp", P.st[0].arp.tpa[3], 2);
}

void test_malformed(void)
{
	unsigned char nops[40];
	struct frame f;

	memset(nops, 1, sizeof(nops));
	f.n = 13;
	memset(f.b, 0, 13);
	parse(&f);
	expect_err("runt", DYNPF_E_TRUNCATED, DYNPF_P_ETH, 0);

	for (unsigned int ihl = 0; ihl < 5; ihl++) {
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 20);
		f.b[14] = 0x40 | ihl;
		tcp(&f, 5, 0, NULL, 0);
		parse(&f);
		expect_err("ihl<5", DYNPF_E_BAD_LEN, DYNPF_P_IPV4, 1);
	}
	eth(&f, 0x0800);
	ipv4(&f, 6, 20, 0, 6, 0); /* tot_len < IHL*4 */
	parse(&f);
	expect_err("tot<ihl", DYNPF_E_BAD_LEN, DYNPF_P_IPV4, 1);

	eth(&f, 0x0800);
	ipv4(&f, 5, 100, 0, 6, 0); /* tot_len past the frame */
	tcp(&f, 5, 0, NULL, 0);
	parse(&f);
	expect_err("tot>frame", DYNPF_E_TRUNCATED, DYNPF_P_IPV4, 1);

	eth(&f, 0x86dd);
	ipv4(&f, 5, 0, 0, 6, 20);
	put(&f, nops, 20);
	parse(&f);
	expect_err("v4-as-v6", DYNPF_E_BAD_VERSION, DYNPF_P_IPV6, 1);

	for (unsigned int doff = 0; doff < 5; doff++) {
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 20);
		tcp(&f, doff, 0, NULL, 0);
		parse(&f);
		expect_err("doff<5", DYNPF_E_BAD_LEN, DYNPF_P_TCP, 2);
	}
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 6, 24);
	tcp(&f, 8, 0, nops, 4); /* data offset 32 bytes, 24 present */
	parse(&f);
	expect_err("doff>end", DYNPF_E_TRUNCATED, DYNPF_P_TCP, 2);

	/* Option length 0, 1, overrunning, and a kind with no length byte. */
	{
		static const struct {
			const char *name;
			unsigned char o[8];
			unsigned int bad_at;
		} bad[] = {
			{ "optlen0", { 1, 2, 0, 0, 0, 0, 0, 0 }, 1 },
			{ "optlen1", { 1, 1, 3, 1, 0, 0, 0, 0 }, 2 },
			{ "overrun", { 8, 10, 0, 0, 0, 0, 0, 0 }, 0 },
			{ "nolen", { 1, 1, 1, 1, 1, 1, 1, 2 }, 7 },
		};

		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			eth(&f, 0x0800);
			ipv4(&f, 5, 0, 0, 6, 28);
			tcp(&f, 7, 0, bad[i].o, 8);
			parse(&f);
			/* The tcp layer is kept: its fixed header was valid. */
			expect_err(bad[i].name, DYNPF_E_TLV_LEN, DYNPF_P_TCP, 3);
			CHECK_EQ(bad[i].name, P.err_layer, 2);
			CHECK_EQ(bad[i].name, P.err_off, 54 + bad[i].bad_at);
		}
	}
	/* Five VLAN tags: one past the limit. */
	eth(&f, 0x8100);
	for (int i = 0; i < 5; i++) {
		put16(&f, i + 1);
		put16(&f, i < 4 ? 0x8100 : 0x0800);
	}
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 8);
	parse(&f);
	expect_err("vlan-depth", DYNPF_E_DEPTH, DYNPF_P_VLAN, 5);
	CHECK_EQ("vlan-depth", P.err_off, 14 + 16);

	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 7);
	parse(&f);
	expect_err("ulen<8", DYNPF_E_BAD_LEN, DYNPF_P_UDP, 2);

	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 17, 8);
	udp(&f, 9);
	parse(&f);
	expect_err("ulen>ip", DYNPF_E_TRUNCATED, DYNPF_P_UDP, 2);

	eth(&f, 0x86dd);
	ipv6(&f, 6, 100);
	tcp(&f, 5, 0, NULL, 0);
	parse(&f);
	expect_err("plen>frame", DYNPF_E_TRUNCATED, DYNPF_P_IPV6, 1);
}

/*
 * Cut a full-featured frame at every length: each cut ends with no error
 * (when it lands on a layer boundary the IP length allows) or an error, and
 * never reads past the end (ASan watches). Every cut inside the IP datagram
 * must be reported as truncated somewhere.
 */
void test_every_truncation(void)
{
	struct frame full, f;
	unsigned int cut;

	eth(&full, 0x8100);
	put16(&full, 7);
	put16(&full, 0x0800);
	ipv4(&full, 6, 0, 0, 6, 60);
	tcp(&full, 15, 0x12, syn_opts, 20);
	put(&full, "\5\x12\0\0\0\1\0\0\0\2\0\0\0\3\0\0\0\4\1\1", 20);
	for (cut = 0; cut < full.n; cut++) {
		char name[32];

		memcpy(f.b, full.b, cut);
		f.n = cut;
		snprintf(name, sizeof(name), "cut@%u", cut);
		parse(&f);
		CHECK(name, P.err == DYNPF_E_TRUNCATED, "err %u, want truncated", P.err);
	}
	memcpy(f.b, full.b, full.n);
	f.n = full.n;
	parse(&f);
	CHECK_EQ("uncut", P.err, DYNPF_E_OK);
	CHECK_EQ("uncut", P.st[0].l4.nsack, 2);
}

/* IPv6 extension header: next header, and len-2 bytes of body after it. */
