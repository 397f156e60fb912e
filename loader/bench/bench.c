// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: ns per packet per hook with BPF_PROG_TEST_RUN.
 *
 * Method. For every packet shape and hook (xdp, xdp-frags, tc) three
 * programs run the same packet:
 *
 *   empty   returns at once (loader/bench/bench.bpf.c): the floor of a test run;
 *   direct  the same headers parsed with direct packet access, into the
 *           same struct dynpf_pkt in a per-CPU map (loader/bench/bench.bpf.c);
 *   dynpf   the real programs (bpf/dynpf.bpf.c), opened and loaded with
 *           their defaults: trace off (rodata dynpf_trace_on = 0).
 *
 * One run is one BPF_PROG_TEST_RUN with `repeat` repetitions of the
 * program on one packet; the kernel reports in `duration` the mean ns per
 * repetition (program plus test-run loop). Runs of the three programs are
 * interleaved (empty, direct, dynpf, empty, ...) so drift hits them alike, and
 * the median of the runs is reported. The process is pinned to one CPU.
 *
 * Before timing, each shape is run once through direct and dynpf and their
 * results compared field by field: the direct parser must do the same work,
 * or the ratio means nothing. A difference is reported, not hidden.
 *
 * Then the dynptr primitives, one table after the shapes (--no-primitives
 * leaves it out, --primitives-only runs it alone). For each hook six
 * programs of loader/bench/bench.bpf.c run the syn packet, interleaved and medianed
 * the same way: empty, ctor (builds the dynptr: bpf_dynptr_from_xdp() or
 * bpf_dynptr_from_skb()), and one per primitive that builds the dynptr and
 * then makes N calls of it (bpf_dynptr_slice() of 20 bytes, bpf_dynptr_clone(),
 * bpf_dynptr_clone() + bpf_dynptr_adjust(), bpf_dynptr_read() of 20 bytes).
 * The constructor costs ctor - empty, a primitive (prim - ctor) / N. Each
 * program fails with another return value when a call fails, and a failing
 * program stops the bench before it is timed.
 *
 * Then the rule benchmarks (bench_rules.c; --no-rules leaves them out,
 * --rules-only runs them alone): classification against the number of rules
 * loaded through the control channel, rule updates per second through the
 * ring beside raw BPF map writes, the time from submit to effective, and
 * nft -f where nftables is installed.
 *
 * --live runs alone (bench_live.c): packets per second received on a veth
 * pair in two network namespaces of its own, from a BPF_F_TEST_XDP_LIVE_FRAMES
 * generator, by an empty XDP_DROP program and by dynpf's XDP and TC programs
 * with 1 and 10,000 rules, and rule updates pushed under that traffic.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "bench.skel.h"
#include "bench/bench_live.h"
#include "bench/bench_rules.h"
#include "cli/cmds.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf/pkt.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "lib/util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define BENCH_REPEAT_DEFAULT 200000 /* 11 shapes x 3 hooks in well under 60 s */
#define BENCH_RUNS_DEFAULT 5
#define BENCH_REPEAT_MAX 1000000000u
#define BENCH_RUNS_MAX 1000u
#define BENCH_PKT_MAX 9014

/* ---- packet shapes ------------------------------------------------------ */

#define TCPF_PSH 0x08
#define TCPF_ACK 0x10
#define TCPF_SYN 0x02

/* Linux's SYN options, in its order: MSS 1460, SACK-perm, TS, NOP, WS 7. */
static const uint8_t opts_syn[] = {
	0x02, 0x04, 0x05, 0xb4,				/* MSS */
	0x04, 0x02,					/* SACK permitted */
	0x08, 0x0a, 0x00, 0x01, 0xe2, 0x40, 0, 0, 0, 0, /* TS val, ecr 0 */
	0x01,						/* NOP */
	0x03, 0x03, 0x07,				/* window scale */
};

/* A full 40-byte option area holding 10 options. */
static const uint8_t opts_40[] = {
	0x02, 0x04, 0x05, 0xb4,				      /* MSS */
	0x01,						      /* NOP */
	0x03, 0x03, 0x07,				      /* window scale */
	0x04, 0x02,					      /* SACK permitted */
	0x08, 0x0a, 0x00, 0x01, 0xe2, 0x40, 0x00, 0x00, 0x30, 0x39, /* TS */
	0x01, 0x01,					      /* NOP, NOP */
	0x05, 0x0a, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, /* SACK, 1 block */
	0xfd, 0x04, 0x12, 0x34,				      /* experimental (RFC 4727) */
	0xfe, 0x04, 0x56, 0x78,				      /* experimental (RFC 4727) */
};
_Static_assert(sizeof(opts_40) == 40, "a full option area");

/* What a data segment carries: NOP, NOP, TS. */
static const uint8_t opts_ts[] = {
	0x01, 0x01, 0x08, 0x0a, 0x00, 0x01, 0xe2, 0x40, 0x00, 0x00, 0x30, 0x39,
};

/*
 * Shapes with IPv6 extension headers and tunnels, built layer by layer by
 * their own builders (below). Their options are listed here.
 */

/* Hop-by-hop: Router Alert (MLD, value 0), PadN of 8 bytes: 16-byte header. */
static const uint8_t hbh_ra_padn[] = {
	0x05, 0x02, 0x00, 0x00,				/* Router Alert */
	0x01, 0x08, 0, 0, 0, 0, 0, 0, 0, 0,		/* PadN */
};

/*
 * Destination options, 16-byte header: two options of types 0x1e and 0x3e
 * (RFC 4727 experimental types, action 00: skip if unknown) and a PadN.
 */
static const uint8_t dst_3opts[] = {
	0x1e, 0x04, 0xde, 0xad, 0xbe, 0xef,		/* experimental */
	0x3e, 0x04, 0x01, 0x02, 0x03, 0x04,		/* experimental */
	0x01, 0x00,					/* PadN, empty */
};

/* Destination options, 8-byte header: one experimental option, a PadN. */
static const uint8_t dst_2opts[] = {
	0x1e, 0x02, 0x12, 0x34,				/* experimental */
	0x01, 0x00,					/* PadN, empty */
};

struct bench_shape;
typedef uint32_t (*build_fn)(const struct bench_shape *s, uint8_t *buf);

static uint32_t build_ipv6_ext4(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_srh4(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_geneve8(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_vxlan_tcp(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_geneve_tcp(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_tcp_opt_9000(const struct bench_shape *s, uint8_t *buf);

static const struct bench_shape {
	const char *name;
	const char *desc;
	uint32_t len;	   /* frame bytes, Ethernet header included, no FCS */
	uint8_t ipv;	   /* 4 or 6 */
	uint8_t l4;	   /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t tcp_flags;
	const uint8_t *opts;
	uint32_t optlen;
	build_fn build;	   /* NULL: build_packet()'s eth/IP/L4 */
	/* The direct parser does not do dynpf's work on it: why (direct is n/a). */
	const char *no_direct;
} shapes[] = {
	/*
	 * 74 bytes, not 64: eth 14 + IPv4 20 + TCP 20 + these 20 option bytes.
	 * (A 64-byte frame, FCS included, has room for 6 bytes of options.)
	 */
	{ "syn", "eth/IPv4/TCP SYN, options MSS,SACK-perm,TS,NOP,WS", 74, 4, 6, TCPF_SYN,
	  opts_syn, sizeof(opts_syn) },
	{ "tcp-opt40", "eth/IPv4/TCP, full 40-byte option area (10 options)", 94, 4, 6,
	  TCPF_ACK, opts_40, sizeof(opts_40) },
	{ "ipv6-udp", "eth/IPv6/UDP, 28 bytes of payload", 90, 6, 17, 0, NULL, 0 },
	{ "tcp-1500", "eth/IPv4/TCP (NOP,NOP,TS), 1500-byte IP datagram", 1514, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts) },
	{ "tcp-9000", "eth/IPv4/TCP (NOP,NOP,TS), 9000-byte IP datagram", 9014, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts) },
	{ "ipv6-ext4",
	  "eth/IPv6/hopopts(RA,PadN)/dstopts(3 options)/SRH(2 segments)/dstopts(2)/TCP SYN "
	  "options", 0, 6, 6, TCPF_SYN, opts_syn, sizeof(opts_syn), build_ipv6_ext4 },
	{ "srh4", "eth/IPv6/SRH(4 segments, TLVs PadN, HMAC 32 bytes)/UDP, 28 bytes of payload",
	  0, 6, 17, 0, NULL, 0, build_srh4 },
	{ "geneve8", "eth/IPv4/UDP/Geneve(8 options)/eth/IPv4/TCP (NOP,NOP,TS)", 0, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts), build_geneve8 },
	{ "vxlan-tcp", "eth/IPv4/UDP/VXLAN/eth/IPv4/TCP, full 40-byte option area", 0, 4, 6,
	  TCPF_ACK, opts_40, sizeof(opts_40), build_vxlan_tcp },
	{ "geneve-tcp", "eth/IPv4/UDP/Geneve(2 options)/eth/IPv4/TCP SYN options", 0, 4, 6,
	  TCPF_SYN, opts_syn, sizeof(opts_syn), build_geneve_tcp },
	{ "tcp-opt-9000",
	  "eth/IPv6/dstopts 2048 bytes/dstopts 2048 bytes/TCP (40-byte option area at byte "
	  "4170), 9014-byte frame", 9014, 6, 6, TCPF_ACK, opts_40, sizeof(opts_40),
	  build_tcp_opt_9000, "headers past the linear part: direct access cannot reach them" },
};
#define NSHAPES ARRAY_SIZE(shapes)

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = v >> 8;
	b[1] = v;
}

static void put32(uint8_t *b, uint32_t v)
{
	put16(b, v >> 16);
	put16(b + 2, v);
}

static uint16_t ip_csum(const uint8_t *b, size_t n)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Build shape s into buf (BENCH_PKT_MAX bytes): every length field is right;
 * the IPv4 header checksum is too, the L4 checksums are left at 0. Addresses
 * from 198.18.0.0/15 and 2001:db8::/32.
 */
static uint32_t build_packet(const struct bench_shape *s, uint8_t *buf)
{
	static const uint8_t mac_dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	static const uint8_t mac_src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	uint32_t l3 = 14, l3len = s->ipv == 4 ? 20 : 40;
	uint32_t l4 = l3 + l3len, l4len = s->l4 == 6 ? 20 + s->optlen : 8;
	uint8_t *ip = buf + l3, *th = buf + l4;

	if (s->build) {
		memset(buf, 0, BENCH_PKT_MAX);
		return s->build(s, buf);
	}
	memset(buf, 0, s->len);
	for (uint32_t i = l4 + l4len; i < s->len; i++)
		buf[i] = (uint8_t)i;
	memcpy(buf, mac_dst, 6);
	memcpy(buf + 6, mac_src, 6);
	put16(buf + 12, s->ipv == 4 ? 0x0800 : 0x86dd);

	if (s->ipv == 4) {
		ip[0] = 0x45;
		put16(ip + 2, s->len - l3);
		put16(ip + 4, 1);
		put16(ip + 6, 0x4000); /* DF */
		ip[8] = 64;
		ip[9] = s->l4;
		put32(ip + 12, 0xc6120001); /* 198.18.0.1 */
		put32(ip + 16, 0xc6130001); /* 198.19.0.1 */
		put16(ip + 10, ip_csum(ip, 20));
	} else {
		put32(ip, 0x60000000);
		put16(ip + 4, s->len - l4);
		ip[6] = s->l4;
		ip[7] = 64;
		put32(ip + 8, 0x20010db8); /* 2001:db8::1 */
		ip[23] = 1;
		put32(ip + 24, 0x20010db8); /* 2001:db8::2 */
		ip[39] = 2;
	}

	if (s->l4 == 6) {
		put16(th, 40000);
		put16(th + 2, 80);
		put32(th + 4, 0x01020304);
		put32(th + 8, s->tcp_flags & TCPF_ACK ? 0x0a0b0c0d : 0);
		th[12] = (uint8_t)(l4len / 4) << 4;
		th[13] = s->tcp_flags;
		put16(th + 14, 64240);
		memcpy(th + 20, s->opts, s->optlen);
	} else {
		put16(th, 40001);
		put16(th + 2, 53);
		put16(th + 4, s->len - l4);
	}
	return s->len;
}

/* ---- builders of the layered shapes -------------------------------------- */

static uint32_t put_eth(uint8_t *b, uint16_t type)
{
	static const uint8_t dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	static const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x01 };

	memcpy(b, dst, 6);
	memcpy(b + 6, src, 6);
	put16(b + 12, type);
	return 14;
}

/* A 20-byte IPv4 header for a datagram of tot_len bytes; addr 1 or 2 apart. */
static uint32_t put_ipv4(uint8_t *ip, uint8_t proto, uint32_t tot_len, uint32_t net)
{
	memset(ip, 0, 20);
	ip[0] = 0x45;
	put16(ip + 2, tot_len);
	put16(ip + 4, 1);
	put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = proto;
	put32(ip + 12, 0xc6120001 + (net << 8));
	put32(ip + 16, 0xc6130001 + (net << 8));
	put16(ip + 10, ip_csum(ip, 20));
	return 20;
}

static uint32_t put_ipv6(uint8_t *ip, uint8_t nexthdr, uint32_t plen)
{
	memset(ip, 0, 40);
	put32(ip, 0x60000000);
	put16(ip + 4, plen);
	ip[6] = nexthdr;
	ip[7] = 64;
	put32(ip + 8, 0x20010db8);
	ip[23] = 1;
	put32(ip + 24, 0x20010db8);
	ip[39] = 2;
	return 40;
}

static uint32_t put_tcp(uint8_t *th, const struct bench_shape *s)
{
	uint32_t hl = 20 + s->optlen;

	memset(th, 0, 20);
	put16(th, 40000);
	put16(th + 2, 80);
	put32(th + 4, 0x01020304);
	put32(th + 8, s->tcp_flags & TCPF_ACK ? 0x0a0b0c0d : 0);
	th[12] = (uint8_t)(hl / 4) << 4;
	th[13] = s->tcp_flags;
	put16(th + 14, 64240);
	memcpy(th + 20, s->opts, s->optlen);
	return hl;
}

static uint32_t put_udp(uint8_t *uh, uint16_t dport, uint32_t len)
{
	put16(uh, 40001);
	put16(uh + 2, dport);
	put16(uh + 4, len);
	put16(uh + 6, 0);
	return 8;
}

/* An options header (hop-by-hop, destination) of 8 * n bytes around opts. */
static uint32_t put_ip6opts(uint8_t *h, uint8_t nexthdr, const uint8_t *opts, uint32_t optlen)
{
	uint32_t len = 2 + optlen;

	if (len % 8) /* not the case of the shapes here */
		abort();
	h[0] = nexthdr;
	h[1] = len / 8 - 1;
	if (optlen)
		memcpy(h + 2, opts, optlen);
	return len;
}

/* An SRH (RFC 8754) with nseg segments and the given TLV bytes. */
static uint32_t put_srh(uint8_t *h, uint8_t nexthdr, uint32_t nseg, const uint8_t *tlvs,
			uint32_t tlvlen)
{
	uint32_t len = 8 + 16 * nseg + tlvlen;

	if (len % 8)
		abort();
	memset(h, 0, 8 + 16 * nseg);
	h[0] = nexthdr;
	h[1] = len / 8 - 1;
	h[2] = 4;		/* routing type: SRH */
	h[3] = nseg - 1;	/* segments left */
	h[4] = nseg - 1;	/* last entry */
	h[5] = 0;		/* flags */
	put16(h + 6, 0x00aa);	/* tag */
	for (uint32_t i = 0; i < nseg; i++) {
		put32(h + 8 + 16 * i, 0x20010db8);
		h[8 + 16 * i + 4] = 0x5;
		h[8 + 16 * i + 15] = i + 1;
	}
	if (tlvlen)
		memcpy(h + 8 + 16 * nseg, tlvs, tlvlen);
	return len;
}

/* Payload bytes from off to len, a counter; returns len. */
static uint32_t fill_payload(uint8_t *buf, uint32_t off, uint32_t len)
{
	for (uint32_t i = off; i < len; i++)
		buf[i] = (uint8_t)i;
	return len;
}

static uint32_t build_ipv6_ext4(const struct bench_shape *s, uint8_t *buf)
{
	uint32_t o = put_eth(buf, 0x86dd), ip = o, len;

	o += 40;
	o += put_ip6opts(buf + o, 60, hbh_ra_padn, sizeof(hbh_ra_padn));
	o += put_ip6opts(buf + o, 43, dst_3opts, sizeof(dst_3opts));
	o += put_srh(buf + o, 60, 2, NULL, 0);
	o += put_ip6opts(buf + o, 6, dst_2opts, sizeof(dst_2opts));
	o += put_tcp(buf + o, s);
	len = fill_payload(buf, o, o + 32);
	put_ipv6(buf + ip, 0, len - ip - 40);
	return len;
}

static uint32_t build_srh4(const struct bench_shape *s, uint8_t *buf)
{
	/* PadN (8 bytes), then HMAC: D/reserved, key id, 32 bytes of HMAC. */
	uint8_t tlvs[8 + 40] = { 0x04, 0x06 };
	uint32_t o = put_eth(buf, 0x86dd), ip = o, l4, len;

	(void)s;
	tlvs[8] = 0x05;
	tlvs[9] = 38;
	put32(tlvs + 12, 0x00000001); /* HMAC key id */
	for (int i = 0; i < 32; i++)
		tlvs[16 + i] = 0xa0 + i;
	o += 40;
	o += put_srh(buf + o, 17, 4, tlvs, sizeof(tlvs));
	l4 = o;
	len = fill_payload(buf, o + 8, o + 8 + 28);
	put_udp(buf + l4, 53, len - l4);
	put_ipv6(buf + ip, 43, len - ip - 40);
	return len;
}

/*
 * eth/IPv4/UDP/tunnel header(s) of tunlen bytes at buf + 42, then
 * eth/IPv4/TCP with s's options and 32 bytes of payload.
 */
static uint32_t build_tunnel(const struct bench_shape *s, uint8_t *buf, uint16_t dport,
			     uint32_t tunlen)
{
	uint32_t o = 42 + tunlen, iip, len;

	put_eth(buf, 0x0800);
	o += put_eth(buf + o, 0x0800);
	iip = o;
	o += 20;
	o += put_tcp(buf + o, s);
	len = fill_payload(buf, o, o + 32);
	put_ipv4(buf + iip, 6, len - iip, 1);
	put_ipv4(buf + 14, 17, len - 14, 0);
	put_udp(buf + 34, dport, len - 34);
	return len;
}

static uint32_t put_vxlan(uint8_t *h)
{
	memset(h, 0, 8);
	h[0] = 0x08; /* I: VNI valid */
	h[4] = 0x00;
	h[5] = 0x12;
	h[6] = 0x34; /* VNI 0x1234 */
	return 8;
}

/* Geneve with nopt options of 4 bytes of data each (class 0xff01). */
static uint32_t put_geneve(uint8_t *h, uint32_t nopt)
{
	uint32_t optlen = nopt * 8;

	memset(h, 0, 8 + optlen);
	h[0] = optlen / 4; /* version 0 */
	put16(h + 2, 0x6558);
	h[4] = 0x00;
	h[5] = 0x56;
	h[6] = 0x78; /* VNI 0x5678 */
	for (uint32_t i = 0; i < nopt; i++) {
		uint8_t *opt = h + 8 + 8 * i;

		put16(opt, 0xff01);	/* class: experimental use */
		opt[2] = 0x10 + i;	/* type, not critical */
		opt[3] = 1;		/* 1 word of data */
		put32(opt + 4, 0xc0de0000 + i);
	}
	return 8 + optlen;
}

static uint32_t build_geneve8(const struct bench_shape *s, uint8_t *buf)
{
	return build_tunnel(s, buf, 6081, put_geneve(buf + 42, 8));
}

static uint32_t build_vxlan_tcp(const struct bench_shape *s, uint8_t *buf)
{
	return build_tunnel(s, buf, 4789, put_vxlan(buf + 42));
}

static uint32_t build_geneve_tcp(const struct bench_shape *s, uint8_t *buf)
{
	return build_tunnel(s, buf, 6081, put_geneve(buf + 42, 2));
}

/*
 * A 2048-byte destination options header: eight experimental options (type
 * 0x1e, skip if unknown), seven of 255 bytes of data and one of 245.
 */
static uint32_t put_dst2048(uint8_t *h, uint8_t nexthdr)
{
	uint32_t o = 2;

	h[0] = nexthdr;
	h[1] = 255;
	while (o < 2048) {
		uint32_t dlen = 2048 - o - 2 > 255 ? 255 : 2048 - o - 2;

		h[o] = 0x1e;
		h[o + 1] = dlen;
		for (uint32_t i = 0; i < dlen; i++)
			h[o + 2 + i] = (uint8_t)(o + i);
		o += 2 + dlen;
	}
	return 2048;
}

static uint32_t build_tcp_opt_9000(const struct bench_shape *s, uint8_t *buf)
{
	uint32_t o = put_eth(buf, 0x86dd), ip = o;

	o += 40;
	o += put_dst2048(buf + o, 60);
	o += put_dst2048(buf + o, 6);
	o += put_tcp(buf + o, s); /* its options at byte 4170, past 4096 */
	fill_payload(buf, o, s->len);
	put_ipv6(buf + ip, 60, s->len - ip - 40);
	return s->len;
}

/* ---- hooks and the programs compared ------------------------------------ */

enum { V_EMPTY, V_DIRECT, V_DYNPF, NVARIANTS };
static const char *const variant_names[NVARIANTS] = { "empty", "direct", "dynpf" };

static const struct bench_hook {
	const char *name;
	int hook;	   /* DYNPF_HOOK_* */
	uint32_t max_len;  /* largest packet its test run builds; 0: no limit */
	uint32_t retval;   /* what every program returns */
	const char *limit; /* why a longer packet is n/a */
} hooks[] = {
	{ "xdp", DYNPF_HOOK_XDP, DYNPF_XDP_TEST_LINEAR_MAX, 2 /* XDP_PASS */,
	  "xdp test-run buffs are linear, at most 3520 bytes" },
	{ "xdp-frags", DYNPF_HOOK_XDP_FRAGS, 0, 2 /* XDP_PASS */, NULL },
	/* The limit is found by trying: the kernel answers EINVAL. */
	{ "tc", DYNPF_HOOK_TC_INGRESS, 0, (uint32_t)-1 /* TC_ACT_UNSPEC */,
	  "tc test-run builds linear skbs of at most about 3.7 KB" },
};
#define NHOOKS ARRAY_SIZE(hooks)

/* The dynptr primitives' programs; PR_EMPTY is the shapes' empty program. */
enum { PR_EMPTY, PR_CTOR, PR_SLICE, PR_CLONE, PR_CLONE_ADJUST, PR_READ, NPRIMS };
static const char *const prim_names[NPRIMS] = { "empty", "ctor", "slice", "clone",
						"clone_adjust", "read" };

/* The packet they run: shapes[0], syn (74 bytes, the IPv4 header at 14). */
#define PRIM_SHAPE (&shapes[0])

/* Whether the primitives run: with the shapes (default), not, or alone. */
enum { PRIMS_ALSO, PRIMS_NO, PRIMS_ONLY };
/* The same for the rule benchmarks. */
enum { RULES_ALSO, RULES_NO, RULES_ONLY };

struct bench_ctx {
	struct dynpf_bpf *dynpf;
	struct bench_bpf *ref;
	int fd[NHOOKS][NVARIANTS];
	int prim_fd[NHOOKS][NPRIMS];
	int cpu;	 /* the CPU we are pinned to, or -1 */
	int ncpus;	 /* possible CPUs: per-CPU map values */
	void *percpu;	 /* ncpus struct dynpf_pkt, for reading the scratch maps */
	uint32_t repeat;
	uint32_t runs;
	/*
	 * From the programs' rodata (loader/bench/bench.bpf.c): calls per primitive
	 * program, and the bytes each slice or read takes.
	 */
	uint32_t prim_calls;
	uint32_t prim_off;
	uint32_t prim_len;
};

struct bench_result {
	const struct bench_shape *shape;
	const struct bench_hook *hook;
	bool na;
	char reason[128];
	uint32_t len;	  /* frame bytes */
	bool no_direct;	  /* direct does not do dynpf's work here: n/a, not compared */
	uint32_t ns[NVARIANTS][BENCH_RUNS_MAX];
	double median[NVARIANTS];
	const char *mismatch; /* first field where direct and dynpf differ */
	uint8_t err;	      /* dynpf's parse error on this shape */
	uint32_t ntlv;	      /* TLVs dynpf walked: sum of p->tlv[f].count */
};

/* One hook's primitive programs: ns per packet, every run and the median. */
struct prim_result {
	uint32_t ns[NPRIMS][BENCH_RUNS_MAX];
	double median[NPRIMS];
};

static void find_progs(struct bench_ctx *b)
{
	struct bench_bpf *r = b->ref;
	struct dynpf_bpf *d = b->dynpf;
	/* No dynpf (--rules-only: the rule benchmarks load their own): -1. */
	const struct bpf_program *p[NHOOKS][NVARIANTS] = {
		{ r->progs.bench_empty_xdp, r->progs.bench_direct_xdp,
		  d ? d->progs.dynpf_xdp : NULL },
		{ r->progs.bench_empty_xdp_frags, r->progs.bench_direct_xdp_frags,
		  d ? d->progs.dynpf_xdp_frags : NULL },
		{ r->progs.bench_empty_tc, r->progs.bench_direct_tc,
		  d ? d->progs.dynpf_tc_ingress : NULL },
	};

	const struct bpf_program *pp[NHOOKS][NPRIMS] = {
		{ r->progs.bench_empty_xdp, r->progs.bench_prim_ctor_xdp,
		  r->progs.bench_prim_slice_xdp, r->progs.bench_prim_clone_xdp,
		  r->progs.bench_prim_clone_adjust_xdp, r->progs.bench_prim_read_xdp },
		{ r->progs.bench_empty_xdp_frags, r->progs.bench_prim_ctor_xdp_frags,
		  r->progs.bench_prim_slice_xdp_frags, r->progs.bench_prim_clone_xdp_frags,
		  r->progs.bench_prim_clone_adjust_xdp_frags, r->progs.bench_prim_read_xdp_frags },
		{ r->progs.bench_empty_tc, r->progs.bench_prim_ctor_tc,
		  r->progs.bench_prim_slice_tc, r->progs.bench_prim_clone_tc,
		  r->progs.bench_prim_clone_adjust_tc, r->progs.bench_prim_read_tc },
	};

	for (size_t h = 0; h < NHOOKS; h++) {
		for (size_t v = 0; v < NVARIANTS; v++)
			b->fd[h][v] = p[h][v] ? bpf_program__fd(p[h][v]) : -1;
		for (size_t k = 0; k < NPRIMS; k++)
			b->prim_fd[h][k] = bpf_program__fd(pp[h][k]);
	}
}

/* One BPF_PROG_TEST_RUN: mean ns per repetition in *ns; -errno on failure. */
static int test_run(int fd, const void *pkt, uint32_t len, uint32_t repeat, uint32_t want,
		    uint32_t *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len,
		    .repeat = repeat);

	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	if (o.retval != want) {
		p_err("bench: a program returned %d, expected %d", (int)o.retval, (int)want);
		return -EPROTO;
	}
	*ns = o.duration;
	return 0;
}

/* This CPU's struct dynpf_pkt in a per-CPU scratch map. */
static int read_scratch(struct bench_ctx *b, const struct bpf_map *map, struct dynpf_pkt *out)
{
	uint32_t zero = 0;

	if (bpf_map__lookup_elem(map, &zero, sizeof(zero), b->percpu,
				 (size_t)b->ncpus * sizeof(*out), 0))
		return -errno;
	memcpy(out, (char *)b->percpu + (size_t)b->cpu * sizeof(*out), sizeof(*out));
	return 0;
}

/* Does the parse d list a layer of one of the protocols in stack st? */
static bool has_layer(const struct dynpf_pkt *d, unsigned int st, uint16_t p1, uint16_t p2)
{
	for (unsigned int i = 0; i < d->nlayers && i < DYNPF_MAX_LAYERS; i++)
		if (d->layers[i].stack == st &&
		    (d->layers[i].proto == p1 || d->layers[i].proto == p2))
			return true;
	return false;
}

/*
 * The first field where two parse results differ, or NULL. a is direct's, d
 * is dynpf's. Per stack, the parts the layers say were written: L2, L3, L4
 * (stack 0: always), the IPv6 extension chain (its used entries) and the
 * tunnel header; then every TLV list and the layers. Not compared:
 * st[].arp, st[].ip4opt, st[].mpls (no bench shape has them).
 */
static const char *pkt_diff(const struct dynpf_pkt *a, const struct dynpf_pkt *d)
{
	static const char *const names[DYNPF_MAX_STACKS][5] = {
		{ "st[0].l2", "st[0].l3", "st[0].l4", "st[0].ip6", "st[0].tun" },
		{ "st[1].l2", "st[1].l3", "st[1].l4", "st[1].ip6", "st[1].tun" },
	};
#define CMP(f)                                                                 \
	do {                                                                   \
		if (memcmp(&a->f, &d->f, sizeof(a->f)))                        \
			return #f;                                             \
	} while (0)
	CMP(abi);
	CMP(hook);
	CMP(nlayers);
	CMP(pkt_len);
	CMP(ifindex);
	CMP(err);
	CMP(err_layer);
	CMP(err_proto);
	CMP(err_off);
	CMP(nstacks);
	CMP(l4_payload_off);
	for (unsigned int s = 0; s < d->nstacks && s < DYNPF_MAX_STACKS; s++) {
		const struct dynpf_stack *x = &a->st[s], *y = &d->st[s];

		if ((!s || has_layer(d, s, DYNPF_P_ETH, DYNPF_P_ETH)) &&
		    memcmp(&x->l2, &y->l2, sizeof(x->l2)))
			return names[s][0];
		if ((!s || has_layer(d, s, DYNPF_P_IPV4, DYNPF_P_IPV6)) &&
		    memcmp(&x->l3, &y->l3, sizeof(x->l3)))
			return names[s][1];
		if ((!s || has_layer(d, s, DYNPF_P_TCP, DYNPF_P_UDP)) &&
		    memcmp(&x->l4, &y->l4, sizeof(x->l4)))
			return names[s][2];
		if (has_layer(d, s, DYNPF_P_IPV6, DYNPF_P_IPV6) &&
		    (x->ip6.n != y->ip6.n || x->ip6.flags != y->ip6.flags ||
		     x->ip6.seen != y->ip6.seen ||
		     memcmp(x->ip6.ext, y->ip6.ext,
			    (y->ip6.n < DYNPF_MAX_EXT ? y->ip6.n : DYNPF_MAX_EXT) *
				    sizeof(y->ip6.ext[0]))))
			return names[s][3];
		if (has_layer(d, s, DYNPF_P_VXLAN, DYNPF_P_GENEVE) &&
		    memcmp(&x->tun, &y->tun, sizeof(x->tun)))
			return names[s][4];
	}
	for (int f = 0; f < DYNPF_TLV_NFAM; f++) {
		CMP(tlv[f].seen);
		CMP(tlv[f].count);
		CMP(tlv[f].overflow);
		CMP(tlv[f].n);
		if (memcmp(a->tlv[f].ent, d->tlv[f].ent, a->tlv[f].n * sizeof(a->tlv[f].ent[0])))
			return "tlv";
	}
#undef CMP
	if (memcmp(a->layers, d->layers, a->nlayers * sizeof(a->layers[0])))
		return "layers";
	return NULL;
}

/*
 * Run once through dynpf and read what it parsed (error, TLVs walked); where
 * direct does the same work, run it too and compare the two parses.
 */
static int check_parity(struct bench_ctx *b, size_t h, const uint8_t *pkt, uint32_t len,
			struct bench_result *res)
{
	static struct dynpf_pkt direct, dynpf;
	uint32_t ns;
	int err;

	if (!res->no_direct) {
		err = test_run(b->fd[h][V_DIRECT], pkt, len, 1, hooks[h].retval, &ns);
		if (err)
			return err;
	}
	err = test_run(b->fd[h][V_DYNPF], pkt, len, 1, hooks[h].retval, &ns);
	if (err)
		return err;
	if (b->cpu < 0)
		return 0; /* not pinned: cannot tell which CPU's slot to read */
	err = read_scratch(b, b->dynpf->maps.dynpf_scratch, &dynpf);
	if (!err && !res->no_direct)
		err = read_scratch(b, b->ref->maps.bench_scratch, &direct);
	if (err) {
		p_err("bench: cannot read a parse result: %s", strerror(-err));
		return err;
	}
	/* An empty slot would compare equal to an empty slot: make sure. */
	if (dynpf.abi != DYNPF_ABI_VERSION || !dynpf.nlayers)
		res->mismatch = "(no dynpf result on this CPU)";
	else if (!res->no_direct)
		res->mismatch = pkt_diff(&direct, &dynpf);
	res->err = dynpf.err;
	res->ntlv = 0;
	for (int f = 0; f < DYNPF_TLV_NFAM; f++)
		res->ntlv += dynpf.tlv[f].count;
	pr_debug("bench: %s: %u layers, %u TLVs, err %u\n", hooks[h].name, dynpf.nlayers,
		 res->ntlv, dynpf.err);
	return 0;
}

static int bench_one(struct bench_ctx *b, const struct bench_shape *s, size_t h,
		     struct bench_result *res)
{
	static uint8_t pkt[BENCH_PKT_MAX];
	const struct bench_hook *hk = &hooks[h];
	uint32_t len = build_packet(s, pkt), ns;
	int err;

	res->shape = s;
	res->hook = hk;
	res->len = len;
	res->no_direct = s->no_direct != NULL;
	if (hk->max_len && len > hk->max_len) {
		res->na = true;
		snprintf(res->reason, sizeof(res->reason), "%s", hk->limit);
		return 0;
	}
	/* Doubles as the warm-up: every program has run this packet once. */
	err = check_parity(b, h, pkt, len, res);
	if (err == -EINVAL && hk->limit && len > DYNPF_XDP_TEST_LINEAR_MAX) {
		res->na = true;
		snprintf(res->reason, sizeof(res->reason), "%s", hk->limit);
		return 0;
	}
	if (!err)
		err = test_run(b->fd[h][V_EMPTY], pkt, len, 1, hk->retval, &ns);
	if (err)
		goto fail;
	pr_info("bench: %s on %s: %u runs of %u\n", s->name, hk->name, b->runs, b->repeat);
	for (uint32_t r = 0; r < b->runs; r++) {
		for (int v = 0; v < NVARIANTS; v++) {
			if (v == V_DIRECT && res->no_direct)
				continue;
			err = test_run(b->fd[h][v], pkt, len, b->repeat, hk->retval,
				       &res->ns[v][r]);
			if (err)
				goto fail;
		}
	}
	for (int v = 0; v < NVARIANTS; v++)
		if (v != V_DIRECT || !res->no_direct)
			res->median[v] = dynpf_median_u32(res->ns[v], b->runs);
	return 0;
fail:
	if (err != -EPROTO)
		p_err("bench: BPF_PROG_TEST_RUN of %s on %s failed: %s", s->name, hk->name,
		      strerror(-err));
	return err;
}

/*
 * The primitives on every hook: each program once (a warm-up, and a check
 * that every call succeeded: the programs return another value when one
 * fails), then the runs, the programs interleaved, and the medians.
 */
static int bench_prims(struct bench_ctx *b, struct prim_result *pr)
{
	static uint8_t pkt[BENCH_PKT_MAX];
	uint32_t len = build_packet(PRIM_SHAPE, pkt), ns;
	int err;

	for (size_t h = 0; h < NHOOKS; h++) {
		const struct bench_hook *hk = &hooks[h];

		for (int k = 0; k < NPRIMS; k++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len,
				    .repeat = 1);

			if (bpf_prog_test_run_opts(b->prim_fd[h][k], &o)) {
				err = -errno;
				p_err("bench: BPF_PROG_TEST_RUN of the %s primitive on %s "
				      "failed: %s", prim_names[k], hk->name, strerror(-err));
				return err;
			}
			if (o.retval != hk->retval) {
				p_err("bench: the %s primitive failed on %s (the program "
				      "returned %d): nothing to time",
				      prim_names[k], hk->name, (int)o.retval);
				return -EPROTO;
			}
		}
		pr_info("bench: dynptr primitives on %s: %u runs of %u\n", hk->name, b->runs,
			b->repeat);
		for (uint32_t r = 0; r < b->runs; r++) {
			for (int k = 0; k < NPRIMS; k++) {
				err = test_run(b->prim_fd[h][k], pkt, len, b->repeat, hk->retval,
					       &ns);
				if (err) {
					if (err != -EPROTO)
						p_err("bench: BPF_PROG_TEST_RUN of the %s "
						      "primitive on %s failed: %s",
						      prim_names[k], hk->name, strerror(-err));
					return err;
				}
				pr[h].ns[k][r] = ns;
			}
		}
		for (int k = 0; k < NPRIMS; k++)
			pr[h].median[k] = dynpf_median_u32(pr[h].ns[k], b->runs);
	}
	return 0;
}

/* ---- output ------------------------------------------------------------- */

/* (dynpf - empty) / (direct - empty): the parsers alone, floor removed. */
static bool net_ratio(const struct bench_result *r, double *out)
{
	double direct = r->median[V_DIRECT] - r->median[V_EMPTY];

	if (r->no_direct || direct <= 0)
		return false;
	*out = (r->median[V_DYNPF] - r->median[V_EMPTY]) / direct;
	return true;
}

/*
 * ns per TLV: (dynpf - empty) / TLVs, the whole parse above the test-run
 * floor shared out over the TLVs walked. It includes the per-header cost, so
 * it is an upper bound of the marginal cost of one TLV, and it falls as
 * TLVs grow if that cost is fixed.
 */
static bool ns_per_tlv(const struct bench_result *r, double *out)
{
	if (!r->ntlv)
		return false;
	*out = (r->median[V_DYNPF] - r->median[V_EMPTY]) / r->ntlv;
	return true;
}

static void print_shapes_text(const struct bench_result *res, size_t n)
{
	bool any_na = false, any_diff = false, any_nodirect = false;
	double net, pt;

	printf("%-12s %5s  %-9s %8s %8s %8s %13s %12s %10s %5s %7s\n", "shape", "bytes", "hook",
	       "empty", "direct", "dynpf", "dynpf/direct", "dynpf/empty", "net ratio", "TLVs",
	       "ns/TLV");
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];

		printf("%-12s %5u  %-9s ", r->shape->name, r->len, r->hook->name);
		if (r->na) {
			printf("%8s %8s %8s %13s %12s %10s %5s %7s\n", "n/a", "n/a", "n/a", "n/a",
			       "n/a", "n/a", "n/a", "n/a");
			any_na = true;
			continue;
		}
		if (r->no_direct) {
			printf("%8.1f %8s %8.1f %13s %11.2fx %10s", r->median[V_EMPTY], "n/a",
			       r->median[V_DYNPF], "n/a", r->median[V_DYNPF] / r->median[V_EMPTY],
			       "n/a");
			any_nodirect = true;
		} else {
			printf("%8.1f %8.1f %8.1f %12.2fx %11.2fx ", r->median[V_EMPTY],
			       r->median[V_DIRECT], r->median[V_DYNPF],
			       r->median[V_DYNPF] / r->median[V_DIRECT],
			       r->median[V_DYNPF] / r->median[V_EMPTY]);
			if (net_ratio(r, &net))
				printf("%9.2fx", net);
			else
				printf("%10s", "-");
		}
		printf(" %5u", r->ntlv);
		if (ns_per_tlv(r, &pt))
			printf(" %7.1f", pt);
		else
			printf(" %7s", "-");
		printf("%s\n", r->mismatch ? "  !" : "");
		any_diff |= r->mismatch != NULL;
	}
	printf("\nempty: a program that returns at once (the test-run floor); direct: the same\n"
	       "parse with direct packet access (loader/bench/bench.bpf.c); dynpf: the real programs,\n"
	       "trace off. net ratio = (dynpf - empty) / (direct - empty).\n"
	       "TLVs: options and TLVs dynpf walked (every family: TCP, IPv4, IPv6 options,\n"
	       "SRH, Geneve). ns/TLV = (dynpf - empty) / TLVs: the whole parse shared out over\n"
	       "its TLVs, per-header costs included, so an upper bound of one TLV's cost.\n");
	if (any_nodirect) {
		printf("direct n/a: the direct parser does not do dynpf's work on the shape (no\n"
		       "parse comparison, no ratio):\n");
		for (size_t s = 0; s < NSHAPES; s++)
			for (size_t i = 0; i < n; i++)
				if (res[i].shape == &shapes[s] && res[i].no_direct) {
					printf("  %s: %s.\n", shapes[s].name, shapes[s].no_direct);
					break;
				}
	}
	if (any_na)
		for (size_t h = 0; h < NHOOKS; h++)
			if (hooks[h].limit)
				printf("n/a on %s: %s.\n", hooks[h].name, hooks[h].limit);
	if (any_diff) {
		printf("\n! direct and dynpf parsed differently: the comparison is not like for like.\n");
		for (size_t i = 0; i < n; i++)
			if (res[i].mismatch)
				printf("  %s on %s: first difference in %s\n", res[i].shape->name,
				       res[i].hook->name, res[i].mismatch);
	}
	for (size_t i = 0; i < n; i++)
		if (!res[i].na && res[i].err)
			printf("note: dynpf reports parse error %u on %s (%s)\n", res[i].err,
			       res[i].shape->name, res[i].hook->name);
}

/*
 * The rows of the primitives table: (median[prog] - median[base]) / calls,
 * or / 1 for the constructor, which each program calls once.
 */
static const struct prim_row {
	const char *key;   /* in JSON's "ns_per_call" */
	const char *label; /* in the text table */
	bool sized;	   /* reads bench_prim_len bytes at bench_prim_off */
	int prog, base;
	bool per_call;
} prim_rows[] = {
	{ "constructor", "constructor (from_xdp/from_skb)", false, PR_CTOR, PR_EMPTY, false },
	{ "slice", "slice", true, PR_SLICE, PR_CTOR, true },
	{ "clone", "clone", false, PR_CLONE, PR_CTOR, true },
	{ "clone_adjust", "clone + adjust (bounded view)", false, PR_CLONE_ADJUST, PR_CTOR, true },
	{ "read", "read", true, PR_READ, PR_CTOR, true },
	{ "adjust", "adjust (clone+adjust - clone)", false, PR_CLONE_ADJUST, PR_CLONE, true },
};

static double prim_ns(const struct bench_ctx *b, const struct prim_result *pr,
		      const struct prim_row *row)
{
	double d = pr->median[row->prog] - pr->median[row->base];

	return row->per_call ? d / b->prim_calls : d;
}

static void print_prims_text(const struct bench_ctx *b, const struct prim_result *pr)
{
	char label[64];

	printf("dynptr primitives (ns per call, %u calls per program) %11s %10s %10s\n",
	       b->prim_calls, hooks[0].name, hooks[1].name, hooks[2].name);
	for (size_t i = 0; i < ARRAY_SIZE(prim_rows); i++) {
		const struct prim_row *row = &prim_rows[i];

		if (row->sized)
			snprintf(label, sizeof(label), "%s %u B at byte %u", row->label,
				 b->prim_len, b->prim_off);
		else
			snprintf(label, sizeof(label), "%s", row->label);
		printf("%-53s", label);
		for (size_t h = 0; h < NHOOKS; h++)
			printf(" %10.2f", prim_ns(b, &pr[h], row));
		printf("\n");
	}
	printf("\n%-53s %10s %10s %10s\n", "program (ns per packet)", hooks[0].name,
	       hooks[1].name, hooks[2].name);
	for (int k = 0; k < NPRIMS; k++) {
		printf("%-53s", prim_names[k]);
		for (size_t h = 0; h < NHOOKS; h++)
			printf(" %10.1f", pr[h].median[k]);
		printf("\n");
	}
	printf("\nOn the %s packet (%u bytes). ctor builds the dynptr; each other program\n"
	       "builds it, then makes %u calls of one primitive (loader/bench/bench.bpf.c): slice is\n"
	       "bpf_dynptr_slice() with a buffer, read bpf_dynptr_read(), clone + adjust a\n"
	       "bpf_dynptr_clone() then bpf_dynptr_adjust() to %u bytes at %u.\n"
	       "constructor = ctor - empty; a primitive = (program - ctor) / %u; adjust =\n"
	       "(clone + adjust - clone) / %u. The test run reports whole ns per packet, so\n"
	       "a figure per call moves in steps of 1/%u ns, and with the VM's noise.\n",
	       PRIM_SHAPE->name, PRIM_SHAPE->len, b->prim_calls, b->prim_len, b->prim_off,
	       b->prim_calls, b->prim_calls, b->prim_calls);
}

static void print_text(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		       const struct prim_result *pr, const struct bench_rules *rr)
{
	printf("dynpf bench: BPF_PROG_TEST_RUN, repeat %u, median of %u runs, ns per packet%s\n\n",
	       b->repeat, b->runs, b->cpu >= 0 ? "" : " (not pinned to a CPU)");
	if (n)
		print_shapes_text(res, n);
	if (n && pr)
		printf("\n");
	if (pr)
		print_prims_text(b, pr);
	if ((n || pr) && rr)
		printf("\n");
	if (rr)
		bench_rules_print_text(rr);
}

/* "primitives": the packet, the method, and per hook every figure and run. */
static json_object *prims_json(const struct bench_ctx *b, const struct prim_result *pr)
{
	json_object *o = json_object_new_object(), *hk = json_object_new_object();

	json_object_object_add(o, "shape", json_object_new_string(PRIM_SHAPE->name));
	json_object_object_add(o, "bytes", json_object_new_int64(PRIM_SHAPE->len));
	json_object_object_add(o, "calls", json_object_new_int64(b->prim_calls));
	json_object_object_add(o, "offset", json_object_new_int64(b->prim_off));
	json_object_object_add(o, "length", json_object_new_int64(b->prim_len));
	json_object_object_add(o, "constructor", json_object_new_string("ctor_ns - empty_ns"));
	json_object_object_add(o, "per_call",
			       json_object_new_string("(prog_ns - ctor_ns) / calls"));
	json_object_object_add(o, "adjust",
			       json_object_new_string("(clone_adjust_ns - clone_ns) / calls"));
	for (size_t h = 0; h < NHOOKS; h++) {
		json_object *one = json_object_new_object(), *per = json_object_new_object();
		json_object *prog = json_object_new_object(), *runs = json_object_new_object();

		for (size_t i = 0; i < ARRAY_SIZE(prim_rows); i++)
			json_object_object_add(per, prim_rows[i].key,
					       dynpf_json_num(prim_ns(b, &pr[h], &prim_rows[i]), "%.3f"));
		for (int k = 0; k < NPRIMS; k++) {
			json_object *a = json_object_new_array();

			json_object_object_add(prog, prim_names[k],
					       dynpf_json_num(pr[h].median[k], "%.1f"));
			for (uint32_t r = 0; r < b->runs; r++)
				json_object_array_add(a, json_object_new_int64(pr[h].ns[k][r]));
			json_object_object_add(runs, prim_names[k], a);
		}
		json_object_object_add(one, "ns_per_call", per);
		json_object_object_add(one, "program_ns", prog);
		json_object_object_add(one, "runs_ns", runs);
		json_object_object_add(hk, hooks[h].name, one);
	}
	json_object_object_add(o, "hooks", hk);
	return o;
}

static void print_json(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		       const struct prim_result *pr, const struct bench_rules *rr)
{
	json_object *top = json_object_new_object(), *arr = json_object_new_array();
	double net, pt;

	json_object_object_add(top, "method", json_object_new_string("BPF_PROG_TEST_RUN"));
	json_object_object_add(top, "repeat", json_object_new_int64(b->repeat));
	json_object_object_add(top, "runs", json_object_new_int64(b->runs));
	json_object_object_add(top, "cpu", json_object_new_int(b->cpu));
	json_object_object_add(top, "ns_per_tlv",
			       json_object_new_string("(dynpf_ns - empty_ns) / tlvs"));
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];
		json_object *o = json_object_new_object(), *runs;

		json_object_object_add(o, "shape", json_object_new_string(r->shape->name));
		json_object_object_add(o, "bytes", json_object_new_int64(r->len));
		json_object_object_add(o, "hook", json_object_new_string(r->hook->name));
		if (r->na) {
			json_object_object_add(o, "status", json_object_new_string("n/a"));
			json_object_object_add(o, "reason", json_object_new_string(r->reason));
			json_object_array_add(arr, o);
			continue;
		}
		json_object_object_add(o, "status", json_object_new_string("ok"));
		runs = json_object_new_object();
		for (int v = 0; v < NVARIANTS; v++) {
			json_object *a;
			char key[16];

			snprintf(key, sizeof(key), "%s_ns", variant_names[v]);
			if (v == V_DIRECT && r->no_direct) {
				json_object_object_add(o, key, NULL);
				continue;
			}
			a = json_object_new_array();
			json_object_object_add(o, key, dynpf_json_num(r->median[v], "%.1f"));
			for (uint32_t k = 0; k < b->runs; k++)
				json_object_array_add(a, json_object_new_int64(r->ns[v][k]));
			json_object_object_add(runs, variant_names[v], a);
		}
		json_object_object_add(o, "dynpf_direct",
				       r->no_direct ? NULL
						    : dynpf_json_num(r->median[V_DYNPF] /
								       r->median[V_DIRECT],
							       "%.3f"));
		json_object_object_add(o, "dynpf_empty",
				       dynpf_json_num(r->median[V_DYNPF] / r->median[V_EMPTY], "%.3f"));
		json_object_object_add(o, "net_ratio",
				       net_ratio(r, &net) ? dynpf_json_num(net, "%.3f") : NULL);
		json_object_object_add(o, "tlvs", json_object_new_int64(r->ntlv));
		json_object_object_add(o, "ns_per_tlv",
				       ns_per_tlv(r, &pt) ? dynpf_json_num(pt, "%.2f") : NULL);
		json_object_object_add(o, "runs_ns", runs);
		if (r->no_direct) {
			/* Not compared: direct does not do the same work. */
			json_object_object_add(o, "parse_match", NULL);
			json_object_object_add(o, "direct_na",
					       json_object_new_string(r->shape->no_direct));
		} else {
			json_object_object_add(o, "parse_match",
					       json_object_new_boolean(!r->mismatch));
		}
		if (r->mismatch)
			json_object_object_add(o, "first_difference",
					       json_object_new_string(r->mismatch));
		json_object_object_add(o, "dynpf_err", json_object_new_int(r->err));
		json_object_array_add(arr, o);
	}
	json_object_object_add(top, "results", arr);
	if (pr)
		json_object_object_add(top, "primitives", prims_json(b, pr));
	if (rr)
		json_object_object_add(top, "rules", bench_rules_json(rr));
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
}

/* ---- command line ------------------------------------------------------- */

static void bench_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf bench [OPTIONS]\n"
		"\n"
		"Measures ns per packet with BPF_PROG_TEST_RUN for each packet shape and hook\n"
		"(xdp, xdp-frags, tc), for an empty program, a direct-packet-access parser of\n"
		"the same headers, and dynpf's programs (trace off), and prints them with their\n"
		"ratios. Each figure is the median over the runs of the kernel's mean ns per\n"
		"repetition. Needs root.\n"
		"\n"
		"  --repeat N         repetitions per run (default %d)\n"
		"  --runs N           runs per figure, the median is reported (default %d)\n"
		"  --shape NAME       only these shapes; repeat it or give a comma list\n"
		"                     (default: all)\n"
		"  --no-primitives    leave out the dynptr primitives table\n"
		"  --primitives-only  run only the dynptr primitives (no shapes, no rules)\n"
		"  --no-rules         leave out the rule benchmarks\n"
		"  --rules-only       run only the rule benchmarks (no shapes, no primitives)\n"
		"  --rule-counts LIST the rule counts of the classification table, a comma\n"
		"                     list of 0..%u (default 1,100,1000,10000,100000; 0 and\n"
		"                     1 are always measured)\n"
		"  --live             on the wire instead, alone (see below): takes only the\n"
		"                     three options that follow and -j\n"
		"  --capture FILE     --live: the frames to send, in turn (default\n"
		"                     %s)\n"
		"  --duration SECONDS --live: seconds of traffic per configuration (default %d)\n"
		"  --xdp-bench        --live: also run xdp-tools' xdp-bench drop on the receiving\n"
		"                     end, where it works (it is skipped, saying why, where not)\n"
		"  -j, --json         one JSON object with every result (as the global -j)\n"
		"  -h, --help         this text\n"
		"\n"
		"After the shapes, the dynptr primitives: ns per call of the constructor\n"
		"(bpf_dynptr_from_xdp/skb), bpf_dynptr_slice(), bpf_dynptr_clone(),\n"
		"bpf_dynptr_clone() + bpf_dynptr_adjust() (a bounded view) and\n"
		"bpf_dynptr_read(), per hook, on the syn packet.\n"
		"\n"
		"Then the rules: ns per packet of syn and ipv6-udp through dynpf's\n"
		"xdp and tc programs with 0, 1 and each count of generated rules loaded\n"
		"through the control channel (mixed prefixes, ports and ranges, protocols,\n"
		"TCP flags, TLV tests; only a catch-all matches), with the ratio to 1 rule\n"
		"and, on xdp, to xdp-filter's all-features program (libxdp1's object);\n"
		"rule updates per second through the ring in transactions of 1, 64 and 4096\n"
		"adds, beside bpf_map_update_elem() and BPF_MAP_UPDATE_BATCH into an array\n"
		"map (the raw map-write floor); the time from submitting a rule to its\n"
		"effect; and nft -f of the same rules in a new network namespace where nft is\n"
		"installed.\n"
		"\n"
		"--live: packets per second on a veth pair between two network namespaces the\n"
		"bench makes (dynpf-tb-PID-rx and -tx, 198.18.0.0/15 and 2001:db8::/32) and\n"
		"removes at the end, on failure and on Ctrl-C or SIGTERM. A generator thread,\n"
		"pinned to one CPU, sends the capture's frames in turn into one end: an XDP\n"
		"program returning XDP_TX, run with BPF_PROG_TEST_RUN and\n"
		"BPF_F_TEST_XDP_LIVE_FRAMES (as xdp-trafficgen does). On the other end, in\n"
		"turn, for --duration seconds each: an empty XDP_DROP program; dynpf's XDP\n"
		"program (native mode) with 1 and with 10,000 generated rules, loaded through\n"
		"the control channel, the last a catch-all drop; dynpf's TC ingress program\n"
		"(tcx) with the same sets. A line a second gives the Mpps received, per action\n"
		"(dynpf's counters), and a table sums them up with the ratio to the empty\n"
		"program. While the 10,000-rule XDP run goes on, 100,000 rule updates are\n"
		"pushed in transactions of 1,000: updates per second, the rate received\n"
		"meanwhile, and the packets a half-applied rule set classified (must be 0).\n"
		"Sender and receiver share the machine's CPUs: the receiver's NAPI runs on\n"
		"the generator's. With -j: {\"live\": {...}}.\n"
		"\n"
		"Shapes:\n",
		BENCH_REPEAT_DEFAULT, BENCH_RUNS_DEFAULT, BENCH_RULES_MAX_COUNT,
		BENCH_LIVE_CAPTURE_DEFAULT, BENCH_LIVE_DURATION_DEFAULT);
	for (size_t i = 0; i < NSHAPES; i++)
	{
		static uint8_t pkt[BENCH_PKT_MAX];

		fprintf(f, "  %-12s %5u bytes  %s\n", shapes[i].name,
			build_packet(&shapes[i], pkt), shapes[i].desc);
	}
	fprintf(f, "\n"
		   "xdp runs packets of at most 3520 bytes and tc of at most about 3.7 KB:\n"
		   "larger ones are shown as n/a. With -j, one JSON object holds every result.\n");
}

static int parse_uint(const char *opt, const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < 1 || v > max) {
		p_err("%s %s: expected an integer from 1 to %u", opt, s, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* Add the shapes of a comma list to *mask; whole names only. */
static int parse_shapes(const char *arg, unsigned int *mask)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < NSHAPES; i++)
			if (!strcmp(tok, shapes[i].name))
				break;
		if (i == NSHAPES) {
			char names[256] = "";

			for (i = 0; i < NSHAPES; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", i ? ", " : "", shapes[i].name);
			p_err("--shape %s: unknown shape (%s)", tok, names);
			return -EINVAL;
		}
		*mask |= 1u << i;
	}
	if (!*mask) {
		p_err("--shape '%s': no shape named", arg);
		return -EINVAL;
	}
	return 0;
}

/* Pin to the CPU we run on: steadier numbers, and one per-CPU slot to read. */
static int pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		pr_warn("bench: cannot pin to CPU %d (%s): numbers may be noisier, "
			"parses not compared\n",
			cpu, strerror(errno));
		return -1;
	}
	return cpu;
}

/* Long options without a short form. */
enum {
	OPT_NO_PRIMS = 256,
	OPT_PRIMS_ONLY,
	OPT_NO_RULES,
	OPT_RULES_ONLY,
	OPT_RULE_COUNTS,
	OPT_LIVE,
	OPT_CAPTURE,
	OPT_DURATION,
	OPT_XDP_BENCH,
};

/*
 * --live: the on-the-wire bench alone (bench_live.c). Its JSON is one
 * object with one key, "live"; the other runs' JSON is as it was.
 */
static int run_live(const struct bench_live_cfg *lc)
{
	struct bench_live *r = NULL;
	int err;

	if (dynpf_probe_kernel())
		return DYNPF_EXIT_USAGE;
	err = bench_live_run(lc, &r);
	if (err)
		return DYNPF_EXIT_USAGE;
	if (dynpf_json) {
		json_object *top = json_object_new_object();

		json_object_object_add(top, "live", bench_live_json(r));
		printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
		json_object_put(top);
	} else {
		bench_live_print_text(r);
	}
	bench_live_free(r);
	return DYNPF_EXIT_OK;
}

/* The packets of the rule benchmarks: syn and ipv6-udp, and the empty programs. */
static int run_rules(struct bench_ctx *b, struct bench_rules_cfg *rc, struct bench_rules **out)
{
	static uint8_t pkt[BENCH_RULES_NSHAPES][BENCH_PKT_MAX];
	static const char *const names[BENCH_RULES_NSHAPES] = { "syn", "ipv6-udp" };

	rc->repeat = b->repeat;
	rc->runs = b->runs;
	rc->cpu = b->cpu;
	rc->empty_fd[0] = b->fd[0][V_EMPTY]; /* xdp */
	rc->empty_fd[1] = b->fd[2][V_EMPTY]; /* tc */
	for (size_t i = 0; i < BENCH_RULES_NSHAPES; i++) {
		size_t s;

		for (s = 0; s < NSHAPES && strcmp(shapes[s].name, names[i]); s++)
			;
		if (s == NSHAPES)
			abort(); /* they are in the table above */
		rc->shape[i].name = shapes[s].name;
		rc->shape[i].len = build_packet(&shapes[s], pkt[i]);
		rc->shape[i].pkt = pkt[i];
	}
	return bench_rules_run(rc, out);
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, 'r' },
		{ "runs", required_argument, NULL, 'n' },
		{ "shape", required_argument, NULL, 's' },
		{ "no-primitives", no_argument, NULL, OPT_NO_PRIMS },
		{ "primitives-only", no_argument, NULL, OPT_PRIMS_ONLY },
		{ "no-rules", no_argument, NULL, OPT_NO_RULES },
		{ "rules-only", no_argument, NULL, OPT_RULES_ONLY },
		{ "rule-counts", required_argument, NULL, OPT_RULE_COUNTS },
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "capture", required_argument, NULL, OPT_CAPTURE },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "xdp-bench", no_argument, NULL, OPT_XDP_BENCH },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct bench_ctx b = { .repeat = BENCH_REPEAT_DEFAULT, .runs = BENCH_RUNS_DEFAULT };
	static struct bench_result res[NSHAPES * NHOOKS];
	static struct prim_result prim_res[NHOOKS];
	const struct prim_result *pr = NULL;
	struct bench_rules_cfg rc = { 0 };
	struct bench_rules *rr = NULL;
	struct bench_live_cfg lc = { .duration = BENCH_LIVE_DURATION_DEFAULT };
	unsigned int mask = 0;
	int c, err, ret = DYNPF_EXIT_USAGE, prims = PRIMS_ALSO, rules = RULES_ALSO;
	bool counts_given = false, live = false, live_opts = false, other_opts = false;
	size_t n = 0;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': /* also accepted before the command */
			dynpf_json = true;
			break;
		case 'r':
			if (parse_uint("--repeat", optarg, BENCH_REPEAT_MAX, &b.repeat))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case 'n':
			if (parse_uint("--runs", optarg, BENCH_RUNS_MAX, &b.runs))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case 's':
			if (parse_shapes(optarg, &mask))
				return DYNPF_EXIT_USAGE;
			other_opts = true;
			break;
		case OPT_LIVE:
			live = true;
			break;
		case OPT_CAPTURE:
			lc.capture = optarg;
			live_opts = true;
			break;
		case OPT_DURATION:
			if (parse_uint("--duration", optarg, BENCH_LIVE_DURATION_MAX, &lc.duration))
				return DYNPF_EXIT_USAGE;
			live_opts = true;
			break;
		case OPT_XDP_BENCH:
			lc.xdp_bench = true;
			live_opts = true;
			break;
		case OPT_NO_PRIMS:
		case OPT_PRIMS_ONLY:
			other_opts = true;
			if (prims != PRIMS_ALSO &&
			    prims != (c == OPT_NO_PRIMS ? PRIMS_NO : PRIMS_ONLY)) {
				p_err("bench: --no-primitives and --primitives-only exclude "
				      "each other");
				return DYNPF_EXIT_USAGE;
			}
			prims = c == OPT_NO_PRIMS ? PRIMS_NO : PRIMS_ONLY;
			break;
		case OPT_NO_RULES:
		case OPT_RULES_ONLY:
			other_opts = true;
			if (rules != RULES_ALSO &&
			    rules != (c == OPT_NO_RULES ? RULES_NO : RULES_ONLY)) {
				p_err("bench: --no-rules and --rules-only exclude each other");
				return DYNPF_EXIT_USAGE;
			}
			rules = c == OPT_NO_RULES ? RULES_NO : RULES_ONLY;
			break;
		case OPT_RULE_COUNTS:
			if (bench_rules_parse_counts(optarg, &rc))
				return DYNPF_EXIT_USAGE;
			counts_given = true;
			other_opts = true;
			break;
		case 'h':
			bench_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf bench --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		p_err("bench: unexpected argument '%s'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	if (live_opts && !live) {
		p_err("bench: --capture, --duration and --xdp-bench go with --live");
		return DYNPF_EXIT_USAGE;
	}
	if (live && other_opts) {
		p_err("bench: --live runs alone: it takes --capture, --duration, --xdp-bench "
		      "and -j only");
		return DYNPF_EXIT_USAGE;
	}
	if (live) {
		lc.print_live = !dynpf_json;
		return run_live(&lc);
	}
	if (prims == PRIMS_ONLY && mask) {
		p_err("bench: --shape and --primitives-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if (rules == RULES_ONLY && mask) {
		p_err("bench: --shape and --rules-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if (prims == PRIMS_ONLY && rules == RULES_ONLY) {
		p_err("bench: --primitives-only and --rules-only exclude each other");
		return DYNPF_EXIT_USAGE;
	}
	if (counts_given && (rules == RULES_NO || prims == PRIMS_ONLY)) {
		p_err("bench: --rule-counts without the rule benchmarks (%s)",
		      rules == RULES_NO ? "--no-rules" : "--primitives-only");
		return DYNPF_EXIT_USAGE;
	}
	if (rules == RULES_ONLY)
		prims = PRIMS_NO;
	if (prims == PRIMS_ONLY)
		rules = RULES_NO;
	if (!counts_given)
		bench_rules_default_counts(&rc);
	if (prims == PRIMS_ONLY || rules == RULES_ONLY)
		mask = 0;
	else if (!mask)
		mask = (1u << NSHAPES) - 1;

	if (dynpf_probe_kernel())
		return DYNPF_EXIT_USAGE;

	b.ncpus = libbpf_num_possible_cpus();
	if (b.ncpus <= 0) {
		p_err("bench: cannot count the possible CPUs: %s", strerror(-b.ncpus));
		return DYNPF_EXIT_USAGE;
	}
	b.percpu = calloc(b.ncpus, sizeof(struct dynpf_pkt));
	if (!b.percpu) {
		p_err("bench: out of memory");
		return DYNPF_EXIT_USAGE;
	}
	b.cpu = pin_cpu();

	/* dynpf as shipped: the defaults, trace off (the shapes need it). */
	if (rules != RULES_ONLY) {
		b.dynpf = dynpf_bpf__open_and_load();
		if (!b.dynpf) {
			p_err("bench: cannot load dynpf's BPF programs (%s): run with -vv to see "
			      "the verifier log",
			      strerror(errno));
			goto free_percpu;
		}
	}
	if (b.dynpf && b.dynpf->rodata->dynpf_trace_on) {
		p_err("bench: dynpf_trace_on defaults to on: refusing to time the trace");
		goto destroy_dynpf;
	}
	b.ref = bench_bpf__open_and_load();
	if (!b.ref) {
		p_err("bench: cannot load the reference programs (%s): run with -vv to see the "
		      "verifier log",
		      strerror(errno));
		goto destroy_dynpf;
	}
	find_progs(&b);
	b.prim_calls = b.ref->rodata->bench_prim_calls;
	b.prim_off = b.ref->rodata->bench_prim_off;
	b.prim_len = b.ref->rodata->bench_prim_len;

	for (size_t s = 0; s < NSHAPES; s++) {
		if (!(mask & (1u << s)))
			continue;
		for (size_t h = 0; h < NHOOKS; h++) {
			err = bench_one(&b, &shapes[s], h, &res[n]);
			if (err)
				goto destroy_ref;
			n++;
		}
	}
	if (prims != PRIMS_NO) {
		err = bench_prims(&b, prim_res);
		if (err)
			goto destroy_ref;
		pr = prim_res;
	}
	if (rules != RULES_NO) {
		err = run_rules(&b, &rc, &rr);
		if (err)
			goto destroy_ref;
	}
	if (dynpf_json)
		print_json(&b, res, n, pr, rr);
	else
		print_text(&b, res, n, pr, rr);
	bench_rules_free(rr);
	ret = DYNPF_EXIT_OK;

destroy_ref:
	bench_bpf__destroy(b.ref);
destroy_dynpf:
	dynpf_bpf__destroy(b.dynpf);
free_percpu:
	free(b.percpu);
	return ret;
}
