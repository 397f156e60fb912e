// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Unit tests of the native parsers: hand-built frames, table-driven, one
 * assertion list per case. Run under ASan/UBSan with `make test SAN=1`.
 * Every frame is copied into a heap buffer of exactly its length, so any
 * read past the end is an ASan error, not a silent pass.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"

#include "lib/unit.h"

struct frame {
	unsigned char b[9100];
	unsigned int n;
};

static void put(struct frame *f, const void *p, unsigned int n)
{
	if (n)
		memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void put8(struct frame *f, unsigned int v)
{
	f->b[f->n++] = v;
}

static void put16(struct frame *f, unsigned int v)
{
	put8(f, v >> 8);
	put8(f, v);
}

static void put32(struct frame *f, unsigned int v)
{
	put16(f, v >> 16);
	put16(f, v);
}

static void eth(struct frame *f, unsigned int type)
{
	static const unsigned char mac[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

	f->n = 0;
	put(f, mac, 12);
	put16(f, type);
}

/* IPv4 header; tot_len 0 means "compute from payload_len". */
static void ipv4(struct frame *f, unsigned int ihl, unsigned int tot_len, unsigned int frag,
		 unsigned int proto, unsigned int payload_len)
{
	unsigned int i;

	put8(f, 0x40 | ihl);
	put8(f, 0);
	put16(f, tot_len ? tot_len : ihl * 4 + payload_len);
	put16(f, 0x1234);
	put16(f, frag);
	put8(f, 64);
	put8(f, proto);
	put16(f, 0);
	put32(f, 0xc6120001); /* 198.18.0.1 */
	put32(f, 0xc6120002);
	for (i = 20; i < ihl * 4; i++)
		put8(f, 1); /* NOP options */
}

static void ipv6(struct frame *f, unsigned int nh, unsigned int plen)
{
	static const unsigned char a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	put32(f, 0x60000000 | (0x2e << 20) | 0x12345);
	put16(f, plen);
	put8(f, nh);
	put8(f, 63);
	put(f, a, 16);
	put(f, a, 16);
}

static void tcp(struct frame *f, unsigned int doff, unsigned int flags, const unsigned char *opt,
		unsigned int optlen)
{
	put16(f, 40000);
	put16(f, 80);
	put32(f, 1000);
	put32(f, 2000);
	put8(f, doff << 4);
	put8(f, flags);
	put16(f, 65535);
	put16(f, 0);
	put16(f, 0);
	put(f, opt, optlen);
}

static void udp(struct frame *f, unsigned int ulen)
{
	put16(f, 5353);
	put16(f, 53);
	put16(f, ulen);
	put16(f, 0);
}

static struct dynpf_pkt P;
#define TCPO (P.tlv[DYNPF_TLV_TCP_OPT])

static void parse(const struct frame *f)
{
	unsigned char *copy = malloc(f->n ? f->n : 1);

	memcpy(copy, f->b, f->n);
	dynpf_parse_native(copy, f->n, &P, NULL);
	free(copy);
}

/* The walk ended with err at proto; nlayers layers before it. */
static void expect_err(const char *name, int err, int proto, int nlayers)
{
	CHECK_EQ(name, P.err, err);
	CHECK_EQ(name, P.err_proto, proto);
	CHECK_EQ(name, P.nlayers, nlayers);
}

static void expect_layers(const char *name, int n, ...)
{
	va_list ap;

	CHECK_EQ(name, P.nlayers, n);
	va_start(ap, n);
	for (int i = 0; i < n && i < P.nlayers; i++) {
		int want = va_arg(ap, int);

		CHECK_EQ(name, P.layers[i].proto, want);
	}
	va_end(ap);
}

static const unsigned char syn_opts[20] = { 2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0,
					    0, 1, 0,    0,    0, 0, 1, 3,  3, 7 };

static void test_good(void)
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

static void test_malformed(void)
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
static void test_every_truncation(void)
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

#define CH (P.st[0].ip6)

/* IPv6 extension header: next header, and len-2 bytes of body after it. */
static void ext(struct frame *f, unsigned int nh, const unsigned char *body, unsigned int len)
{
	put8(f, nh);
	put8(f, len / 8 - 1);
	put(f, body, len - 2);
}

static void test_ipv4_options(void)
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

static void test_ipv6_ext(void)
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

static void inner_eth_ipv4_tcp(struct frame *f)
{
	static const unsigned char mac[12] = { 2, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, 3 };
	static const unsigned char mss[4] = { 2, 4, 0x05, 0x78 };

	put(f, mac, 12);
	put16(f, 0x0800);
	ipv4(f, 5, 0, 0, 6, 24);
	tcp(f, 6, 0x02, mss, 4);
}

static void test_tunnels(void)
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

int main(void)
{
	test_good();
	test_malformed();
	test_every_truncation();
	test_ipv4_options();
	test_ipv6_ext();
	test_tunnels();
	return unit_report("test_parsers");
}
