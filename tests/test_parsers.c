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

static int passed, failed;

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
	dynpf_parse_native(copy, f->n, &P);
	free(copy);
}

static void check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	fprintf(stderr, "FAIL %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define EXPECT_EQ(name, got, want)                                                     \
	do {                                                                           \
		long long g_ = (long long)(got), w_ = (long long)(want);              \
		check(name, g_ == w_, "%s = %lld, want %lld", #got, g_, w_);          \
	} while (0)

/* The walk ended with err at proto; nlayers layers before it. */
static void expect_err(const char *name, int err, int proto, int nlayers)
{
	EXPECT_EQ(name, P.err, err);
	EXPECT_EQ(name, P.err_proto, proto);
	EXPECT_EQ(name, P.nlayers, nlayers);
}

static void expect_layers(const char *name, int n, ...)
{
	va_list ap;

	EXPECT_EQ(name, P.nlayers, n);
	va_start(ap, n);
	for (int i = 0; i < n && i < P.nlayers; i++) {
		int want = va_arg(ap, int);

		EXPECT_EQ(name, P.layers[i].proto, want);
	}
	va_end(ap);
}

static const unsigned char syn_opts[20] = { 2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 1,
					    0, 0, 0, 0, 1, 3, 3, 7 };

static void test_good(void)
{
	struct frame f;

	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x4000, 6, 40);
	tcp(&f, 10, 0x02, syn_opts, 20);
	parse(&f);
	expect_layers("syn", 3, DYNPF_P_ETH, DYNPF_P_IPV4, DYNPF_P_TCP);
	EXPECT_EQ("syn", P.err, DYNPF_E_OK);
	EXPECT_EQ("syn", P.st[0].l4.mss, 1460);
	EXPECT_EQ("syn", P.st[0].l4.wscale, 7);
	EXPECT_EQ("syn", P.st[0].l4.ts_val, 1);
	EXPECT_EQ("syn", !!(P.st[0].l4.opts & DYNPF_TCPO_SACK_PERM), 1);
	EXPECT_EQ("syn", TCPO.n, 5);
	EXPECT_EQ("syn", TCPO.ent[4].type, 3);
	EXPECT_EQ("syn", TCPO.ent[4].off, 14 + 20 + 20 + 17);
	EXPECT_EQ("syn", P.l4_payload_off, 74);
	EXPECT_EQ("syn", P.st[0].l3.frag, DYNPF_FRAG_DF);
	EXPECT_EQ("syn", TCPO.count, 5);
	EXPECT_EQ("syn", !!(TCPO.seen[0] & (1ULL << 8)), 1);

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
	EXPECT_EQ("qinq", P.err, DYNPF_E_OK);
	EXPECT_EQ("qinq", P.st[0].l2.nvlan, 2);
	EXPECT_EQ("qinq", P.st[0].l2.vlan_tci[0], 0x2005);
	EXPECT_EQ("qinq", P.st[0].l2.vlan_tpid[0], 0x88a8);
	EXPECT_EQ("qinq", P.st[0].l2.vlan_tpid[1], 0x8100);
	EXPECT_EQ("qinq", P.st[0].l2.ethertype, 0x86dd);
	EXPECT_EQ("qinq", P.st[0].l3.flow_label, 0x12345);
	EXPECT_EQ("qinq", P.st[0].l3.tos, 0x2e);
	EXPECT_EQ("qinq", P.st[0].l4.dport, 53);

	/* Ethernet padding after a short IPv4/TCP: ignored. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0, 6, 20);
	tcp(&f, 5, 0x10, NULL, 0);
	put(&f, "\1\1\1\1\1\1", 6);
	parse(&f);
	EXPECT_EQ("padding", P.err, DYNPF_E_OK);
	EXPECT_EQ("padding", TCPO.n, 0);
	EXPECT_EQ("padding", P.l4_payload_off, 54);

	/* Non-first fragment: no L4 even though the bytes look like TCP. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x0010, 6, 20);
	tcp(&f, 5, 0x02, NULL, 0);
	parse(&f);
	expect_layers("frag", 2, DYNPF_P_ETH, DYNPF_P_IPV4);
	EXPECT_EQ("frag", P.st[0].l3.frag, DYNPF_FRAG_IS_FRAG | DYNPF_FRAG_NONFIRST);
	EXPECT_EQ("frag", P.st[0].l3.frag_off, 16); /* in 8-byte units */

	/* UDP first fragment: length counts the whole datagram. */
	eth(&f, 0x0800);
	ipv4(&f, 5, 0, 0x2000, 17, 16);
	udp(&f, 1000);
	put(&f, "12345678", 8);
	parse(&f);
	EXPECT_EQ("udp-frag", P.err, DYNPF_E_OK);

	/* 40 NOPs: the maximum count of options. */
	{
		unsigned char nops[40];

		memset(nops, 1, sizeof(nops));
		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 60);
		tcp(&f, 15, 0x10, nops, 40);
		parse(&f);
		EXPECT_EQ("nops", P.err, DYNPF_E_OK);
		EXPECT_EQ("nops", TCPO.n, 40);
		EXPECT_EQ("nops", TCPO.overflow, 0);
	}
	/* EOL ends the walk; the bytes after it are padding, even garbage. */
	{
		static const unsigned char o[8] = { 2, 4, 1, 0, 0, 0xff, 0, 0x55 };

		eth(&f, 0x0800);
		ipv4(&f, 5, 0, 0, 6, 28);
		tcp(&f, 7, 0x10, o, 8);
		parse(&f);
		EXPECT_EQ("eol", P.err, DYNPF_E_OK);
		EXPECT_EQ("eol", TCPO.n, 2);
		EXPECT_EQ("eol", TCPO.ent[1].type, 0);
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
		EXPECT_EQ("sack", P.err, DYNPF_E_OK);
		EXPECT_EQ("sack", P.st[0].l4.nsack, 4);
		EXPECT_EQ("sack", P.st[0].l4.sack[3][1], 0x1c1d1e1f);
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
	EXPECT_EQ("arp", P.st[0].arp.op, 1);
	EXPECT_EQ("arp", P.st[0].arp.tpa[3], 2);
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
			EXPECT_EQ(bad[i].name, P.err_layer, 2);
			EXPECT_EQ(bad[i].name, P.err_off, 54 + bad[i].bad_at);
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
	EXPECT_EQ("vlan-depth", P.err_off, 14 + 16);

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
		check(name, P.err == DYNPF_E_TRUNCATED, "err %u, want truncated", P.err);
	}
	memcpy(f.b, full.b, full.n);
	f.n = full.n;
	parse(&f);
	EXPECT_EQ("uncut", P.err, DYNPF_E_OK);
	EXPECT_EQ("uncut", P.st[0].l4.nsack, 2);
}

int main(void)
{
	test_good();
	test_malformed();
	test_every_truncation();
	printf("test_parsers: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
