/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Unit tests of the native parsers: hand-built frames, one assertion list
 * per case. Run under ASan/UBSan with `make test SAN=1`. Every frame is
 * copied into a heap buffer of exactly its length, so any read past the end
 * is an ASan error, not a silent pass.
 *
 *   frames.c   building frames, parsing them, the checks on a parse
 *   basic.c    whole frames, malformed ones, every truncation
 *   ext.c      IPv4 options, IPv6 extension headers
 *   tunnels.c  VXLAN, Geneve, GRE, MPLS, GTP-U, IP in IP
 *   lengths.c  every length field bounds what follows (UDP, GTP-U, jumbograms,
 *              GRE versions, AH and ESP behind IPv4)
 *   tcpfast.c  the TCP options' fast path against the walk (tcpfast_ref.c)
 *   main.c     main, "test_parsers: N passed, N failed" (tests/lib/unit.h)
 */
#ifndef DYNPF_TESTS_PARSERS_H
#define DYNPF_TESTS_PARSERS_H

#include "native.h"

#include "../lib/unit.h"

struct frame {
	unsigned char b[70100]; /* a jumbogram of 70,000 bytes */
	unsigned int n;
};

/* Append to a frame: bytes, numbers in network order, headers. */
void put(struct frame *f, const void *p, unsigned int n);
void put8(struct frame *f, unsigned int v);
void put16(struct frame *f, unsigned int v);
void put32(struct frame *f, unsigned int v);
void eth(struct frame *f, unsigned int type); /* starts a new frame */
void ipv4(struct frame *f, unsigned int ihl, unsigned int tot_len, unsigned int frag,
	  unsigned int proto, unsigned int payload);
void ipv6(struct frame *f, unsigned int nh, unsigned int plen);
void tcp(struct frame *f, unsigned int doff, unsigned int flags, const unsigned char *opt,
	 unsigned int optlen);
void udp(struct frame *f, unsigned int ulen);
/* An IPv6 extension header: next header nh, then len bytes of body. */
void ext(struct frame *f, unsigned int nh, const unsigned char *body, unsigned int len);
void inner_eth_ipv4_tcp(struct frame *f);

/* The last parse, and its checks. */
extern struct dynpf_pkt P;
#define TCPO (P.tlv[DYNPF_TLV_TCP_OPT])
#define CH (P.st[0].ip6)
void parse(const struct frame *f);
/* The walk ended with err at proto; nlayers layers before it. */
void expect_err(const char *name, int err, int proto, int nlayers);
void expect_layers(const char *name, int n, ...);

extern const unsigned char syn_opts[20];

void test_good(void);
void test_malformed(void);
void test_every_truncation(void);
void test_ipv4_options(void);
void test_ipv6_ext(void);
void test_tunnels(void);
void test_tcp_opts_fast(void);
/* tcpfast.c and tcpfast_ref.c (tcpfast_parse.h): the parse with and without the fast path. */
void tcpfast_parse_fast(const __u8 *data, __u32 len, struct dynpf_pkt *p, __u8 skip);
void tcpfast_parse_walk(const __u8 *data, __u32 len, struct dynpf_pkt *p, __u8 skip);
void test_lengths(void);
void test_decl(void);

#endif
