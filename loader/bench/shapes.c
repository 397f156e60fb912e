// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the packet shapes (bench_shapes[]) and the builders of their
 * bytes. Every length field is right; the IPv4 header checksum is too, the
 * L4 checksums are left at 0. Addresses from 198.18.0.0/15 and
 * 2001:db8::/32. The simple shapes are eth/IP/L4 with a shape's TCP options
 * (bench_build_packet()); those with IPv6 extension headers and tunnels are
 * built layer by layer by their own builders, from the same pieces.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

#define TCPF_PSH 0x08
#define TCPF_ACK 0x10
#define TCPF_SYN 0x02

/* Linux's SYN options, in its order: MSS 1460, SACK-perm, TS, NOP, WS 7. */
static const uint8_t opts_syn[] = {
	0x02, 0x04, 0x05, 0xb4,                         /* MSS */
	0x04, 0x02,                                     /* SACK permitted */
	0x08, 0x0a, 0x00, 0x01, 0xe2, 0x40, 0, 0, 0, 0, /* TS val, ecr 0 */
	0x01,                                           /* NOP */
	0x03, 0x03, 0x07,                               /* window scale */
};

/* A full 40-byte option area holding 10 options. */
static const uint8_t opts_40[] = {
	0x02, 0x04, 0x05, 0xb4,                                     /* MSS */
	0x01,                                                       /* NOP */
	0x03, 0x03, 0x07,                                           /* window scale */
	0x04, 0x02,                                                 /* SACK permitted */
	0x08, 0x0a, 0x00, 0x01, 0xe2, 0x40, 0x00, 0x00, 0x30, 0x39, /* TS */
	0x01, 0x01,                                                 /* NOP, NOP */
	0x05, 0x0a, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, /* SACK, 1 block */
	0xfd, 0x04, 0x12, 0x34,                                     /* experimental (RFC 4727) */
	0xfe, 0x04, 0x56, 0x78,                                     /* experimental (RFC 4727) */
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
	0x05, 0x02, 0x00, 0x00,                   /* Router Alert */
	0x01, 0x08, 0,    0,    0, 0, 0, 0, 0, 0, /* PadN */
};

/*
 * Destination options, 16-byte header: two options of types 0x1e and 0x3e
 * (RFC 4727 experimental types, action 00: skip if unknown) and a PadN.
 */
static const uint8_t dst_3opts[] = {
	0x1e, 0x04, 0xde, 0xad, 0xbe, 0xef, /* experimental */
	0x3e, 0x04, 0x01, 0x02, 0x03, 0x04, /* experimental */
	0x01, 0x00,                         /* PadN, empty */
};

/* Destination options, 8-byte header: one experimental option, a PadN. */
static const uint8_t dst_2opts[] = {
	0x1e, 0x02, 0x12, 0x34, /* experimental */
	0x01, 0x00,             /* PadN, empty */
};

static uint32_t build_ipv6_ext4(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_srh4(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_geneve8(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_vxlan_tcp(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_geneve_tcp(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_tcp_opt_9000(const struct bench_shape *s, uint8_t *buf);
static uint32_t build_decl10(const struct bench_shape *s, uint8_t *buf);

const struct bench_shape bench_shapes[BENCH_NSHAPES] = {
	/*
	 * 74 bytes, not 64: eth 14 + IPv4 20 + TCP 20 + these 20 option bytes.
	 * (A 64-byte frame, FCS included, has room for 6 bytes of options.)
	 */
	{ "syn", "eth/IPv4/TCP SYN, options MSS,SACK-perm,TS,NOP,WS", 74, 4, 6, TCPF_SYN, opts_syn,
	  sizeof(opts_syn) },
	{ "tcp-opt40", "eth/IPv4/TCP, full 40-byte option area (10 options)", 94, 4, 6, TCPF_ACK,
	  opts_40, sizeof(opts_40) },
	{ "ipv6-udp", "eth/IPv6/UDP, 28 bytes of payload", 90, 6, 17, 0, NULL, 0 },
	{ "tcp-1500", "eth/IPv4/TCP (NOP,NOP,TS), 1500-byte IP datagram", 1514, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts) },
	{ "tcp-9000", "eth/IPv4/TCP (NOP,NOP,TS), 9000-byte IP datagram", 9014, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts) },
	{ "ipv6-ext4",
	  "eth/IPv6/hopopts(RA,PadN)/dstopts(3 options)/SRH(2 segments)/dstopts(2)/TCP SYN "
	  "options",
	  0, 6, 6, TCPF_SYN, opts_syn, sizeof(opts_syn), build_ipv6_ext4 },
	{ "srh4", "eth/IPv6/SRH(4 segments, TLVs PadN, HMAC 32 bytes)/UDP, 28 bytes of payload", 0,
	  6, 17, 0, NULL, 0, build_srh4 },
	{ "geneve8", "eth/IPv4/UDP/Geneve(8 options)/eth/IPv4/TCP (NOP,NOP,TS)", 0, 4, 6,
	  TCPF_ACK | TCPF_PSH, opts_ts, sizeof(opts_ts), build_geneve8 },
	{ "vxlan-tcp", "eth/IPv4/UDP/VXLAN/eth/IPv4/TCP, full 40-byte option area", 0, 4, 6,
	  TCPF_ACK, opts_40, sizeof(opts_40), build_vxlan_tcp },
	{ "geneve-tcp", "eth/IPv4/UDP/Geneve(2 options)/eth/IPv4/TCP SYN options", 0, 4, 6,
	  TCPF_SYN, opts_syn, sizeof(opts_syn), build_geneve_tcp },
	{ "tcp-opt-9000",
	  "eth/IPv6/dstopts 2048 bytes/dstopts 2048 bytes/TCP (40-byte option area at byte "
	  "4170), 9014-byte frame",
	  9014, 6, 6, TCPF_ACK, opts_40, sizeof(opts_40), build_tcp_opt_9000,
	  "headers past the linear part: direct access cannot reach them" },
	/*
	 * tcp-opt40's 10 options as the TLVs of a protocol declared at runtime
	 * with TCP's encoding, behind UDP 7777: the declared walk against the
	 * compiled one (docs/bench.md).
	 */
	{ "decl10", "eth/IPv4/UDP/a declared protocol: tcp-opt40's 10 options as its TLVs", 0, 4,
	  17, 0, opts_40, sizeof(opts_40), build_decl10,
	  "a protocol declared at runtime: direct access has no parser of it",
	  "protocol acme udp dport 7777 header 0 tlv type u8 length u8 includes-header pad 1 end 0" },
};
_Static_assert(ARRAY_SIZE(bench_shapes) == BENCH_NSHAPES, "BENCH_NSHAPES counts them");

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
	h[2] = 4;             /* routing type: SRH */
	h[3] = nseg - 1;      /* segments left */
	h[4] = nseg - 1;      /* last entry */
	h[5] = 0;             /* flags */
	put16(h + 6, 0x00aa); /* tag */
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

		put16(opt, 0xff01); /* class: experimental use */
		opt[2] = 0x10 + i;  /* type, not critical */
		opt[3] = 1;         /* 1 word of data */
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

/*
 * Build shape s into buf (BENCH_PKT_MAX bytes): eth/IP/L4 with s's options
 * and a counter as payload, or s's own builder.
 */
/* eth/IPv4/UDP to 7777, the shape's options as the payload: decl10's declared protocol. */
static uint32_t build_decl10(const struct bench_shape *s, uint8_t *buf)
{
	uint32_t len = 14 + 20 + 8 + s->optlen, o;

	o = put_eth(buf, 0x0800);
	o += put_ipv4(buf + o, 17, len - o, 0);
	o += put_udp(buf + o, 7777, len - o);
	memcpy(buf + o, s->opts, s->optlen);
	return len;
}

uint32_t bench_build_packet(const struct bench_shape *s, uint8_t *buf)
{
	uint32_t o;

	if (s->build) {
		memset(buf, 0, BENCH_PKT_MAX);
		return s->build(s, buf);
	}
	memset(buf, 0, s->len);
	o = put_eth(buf, s->ipv == 4 ? 0x0800 : 0x86dd);
	if (s->ipv == 4)
		o += put_ipv4(buf + o, s->l4, s->len - o, 0);
	else
		o += put_ipv6(buf + o, s->l4, s->len - o - 40);
	if (s->l4 == 6)
		o += put_tcp(buf + o, s);
	else
		o += put_udp(buf + o, 53, s->len - o);
	return fill_payload(buf, o, s->len);
}

int bench_shape_index(const char *name)
{
	for (size_t i = 0; i < BENCH_NSHAPES; i++)
		if (!strcmp(name, bench_shapes[i].name))
			return i;
	return -1;
}
