/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Definitions every parser needs, identical for the BPF and native builds:
 * inline attributes, byte order, and the on-the-wire header layouts.
 *
 * Wire headers are our own plain structs rather than the kernel's (vmlinux.h
 * in BPF, uapi in user space) so both builds see one definition.  They are
 * packed in the native build, where a header can sit at any address inside
 * a capture buffer; the BPF build reads them from slices, where unaligned
 * loads are allowed and packing would only force byte-by-byte loads.
 */
#ifndef DYNPF_PARSERS_COMMON_H
#define DYNPF_PARSERS_COMMON_H

#include "dynpf/pkt.h"

#if defined(__bpf__)
#include <bpf/bpf_helpers.h>
#define DYNPF_WIRE
#else
#include <stddef.h>
#include <string.h>
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define DYNPF_WIRE __attribute__((packed))
#endif

/*
 * A TCP option walk's wanted types (struct dynpf_area.tcp_want): every one.
 * Fewer, a bitmap of types below 64, when the option gate (parsers/tcp.h)
 * knows which ones the rules the packet may match test for presence.
 */
#define DYNPF_TCP_OPT_WHOLE (~0ull)

#define dynpf_inline static __always_inline

/*
 * A global BPF subprogram: verified once on its own, with only its argument
 * types known, instead of once per path that reaches it. Loops whose body
 * branches a lot (TLV walks) need it, or the paths multiply past the
 * verifier's limit. Natively it is an ordinary inline function.
 */
#if defined(__bpf__)
#define DYNPF_SUBPROG __attribute__((noinline))
#else
#define DYNPF_SUBPROG static inline
#endif

/*
 * In a loop, a may_goto (kernel 6.9+): the verifier checks the loop like an
 * iterator's (it stops once a round's state repeats) instead of walking
 * every round, and the kernel ends it after a large budget of rounds if it
 * ever ran that long. No call per round, unlike bpf_for (a kfunc call costs
 * about 10 ns here). Breaks out of the enclosing loop when taken; natively,
 * nothing. The kernel selftests' cond_break (bpf_experimental.h): the asm
 * goto jumps to l_break only when the budget runs out.
 */
#if defined(__bpf__)
#define dynpf_cond_break                                                   \
	({                                                                 \
		__label__ l_break, l_continue;                             \
		asm volatile goto("may_goto %l[l_break]" : : : : l_break); \
		goto l_continue;                                           \
l_break:                                                                   \
		break;                                                     \
l_continue:;                                                               \
	})
#else
#define dynpf_cond_break ((void)0)
#endif

/*
 * Make the compiler forget what it knows about var, so the bounds check just
 * done on it is the one the verifier sees on every later use (clang would
 * otherwise reuse a pointer it computed before the check).
 */
#define dynpf_barrier_var(var) __asm__ __volatile__("" : "+r"(var))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define dynpf_ntohs(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define dynpf_ntohl(x) ((__u32)__builtin_bswap32((__u32)(x)))
#else
#define dynpf_ntohs(x) ((__u16)(x))
#define dynpf_ntohl(x) ((__u32)(x))
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define dynpf_ntohll(x) ((__u64)__builtin_bswap64((__u64)(x)))
#else
#define dynpf_ntohll(x) ((__u64)(x))
#endif

/*
 * The 8 (4) bytes at b, big-endian, in one load: for byte strings compared
 * and decoded whole (tcp.h's option layouts). In BPF, b points into the
 * window, a map value: the load is one instruction, which x86-64 and arm64
 * run unaligned at full speed (the verifier checks a map value's alignment
 * only on CPUs without efficient unaligned access, where dynpf does not
 * run); natively, memcpy() does what the CPU allows.
 */
#if defined(__bpf__)
#define dynpf_load_be64(b) dynpf_ntohll(*(const __u64 *)(const void *)(b))
#define dynpf_load_be32(b) dynpf_ntohl(*(const __u32 *)(const void *)(b))
#else
dynpf_inline __u64 dynpf_load_be64(const __u8 *b)
{
	__u64 v;

	memcpy(&v, b, 8);
	return dynpf_ntohll(v);
}

dynpf_inline __u32 dynpf_load_be32(const __u8 *b)
{
	__u32 v;

	memcpy(&v, b, 4);
	return dynpf_ntohl(v);
}
#endif

/* Big-endian loads from a byte array (option values inside a TLV area). */
#define dynpf_get_be16(b) ((__u16)(((__u16)(b)[0] << 8) | (b)[1]))
#define dynpf_get_be24(b) ((__u32)(((__u32)(b)[0] << 16) | ((__u32)(b)[1] << 8) | (b)[2]))
#define dynpf_get_be32(b) \
	((__u32)(((__u32)(b)[0] << 24) | ((__u32)(b)[1] << 16) | ((__u32)(b)[2] << 8) | (b)[3]))

#define DYNPF_ETH_P_IPV4 0x0800
#define DYNPF_ETH_P_ARP 0x0806
#define DYNPF_ETH_P_8021Q 0x8100
#define DYNPF_ETH_P_8021AD 0x88a8
#define DYNPF_ETH_P_IPV6 0x86dd
#define DYNPF_ETH_P_802_3_MIN 0x0600
#define DYNPF_ETH_P_MPLS_UC 0x8847
#define DYNPF_ETH_P_MPLS_MC 0x8848

/*
 * Or-ed into a parser's return value: the next protocol starts the next
 * stack of headers (a tunnel's inner packet).
 */
#define DYNPF_NEXT_INNER 0x100

#define DYNPF_IPPROTO_ICMP 1
#define DYNPF_IPPROTO_TCP 6
#define DYNPF_IPPROTO_UDP 17
#define DYNPF_IPPROTO_ICMPV6 58
#define DYNPF_IPPROTO_IPIP 4
#define DYNPF_IPPROTO_IPV6 41
#define DYNPF_IPPROTO_GRE 47

/* A lone 32-bit field (MPLS entry, GRE key): packed natively, see above. */
struct dynpf_be32 {
	__be32 v;
} DYNPF_WIRE;

struct dynpf_ethhdr {
	__u8 dst[6];
	__u8 src[6];
	__be16 proto;
} DYNPF_WIRE;

struct dynpf_vlanhdr {
	__be16 tci;
	__be16 proto; /* encapsulated ethertype */
} DYNPF_WIRE;

struct dynpf_arphdr {
	__be16 htype;
	__be16 ptype;
	__u8 hlen;
	__u8 plen;
	__be16 op;
} DYNPF_WIRE;

/* Ethernet/IPv4 ARP: the fixed part followed by its addresses. */
struct dynpf_arp_eth_ipv4 {
	struct dynpf_arphdr h;
	__u8 sha[6];
	__u8 spa[4];
	__u8 tha[6];
	__u8 tpa[4];
} DYNPF_WIRE;

struct dynpf_iphdr {
	__u8 ver_ihl;
	__u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag_off;
	__u8 ttl;
	__u8 proto;
	__be16 check;
	__u8 saddr[4];
	__u8 daddr[4];
} DYNPF_WIRE;

#define DYNPF_IP_DF 0x4000
#define DYNPF_IP_MF 0x2000
#define DYNPF_IP_OFFMASK 0x1fff

struct dynpf_ipv6hdr {
	__be32 ver_tc_flow;
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u8 saddr[16];
	__u8 daddr[16];
} DYNPF_WIRE;

struct dynpf_tcphdr {
	__be16 sport;
	__be16 dport;
	__be32 seq;
	__be32 ack;
	__u8 doff_res; /* data offset in the high nibble */
	__u8 flags;
	__be16 window;
	__be16 check;
	__be16 urg_ptr;
} DYNPF_WIRE;

#define DYNPF_TCP_MAX_OPTLEN 40

struct dynpf_udphdr {
	__be16 sport;
	__be16 dport;
	__be16 len;
	__be16 check;
} DYNPF_WIRE;

/* ICMP and ICMPv6 share this 8-byte layout (type, code, checksum, rest). */
struct dynpf_icmphdr {
	__u8 type;
	__u8 code;
	__be16 check;
	__be16 id;
	__be16 seq;
} DYNPF_WIRE;

_Static_assert(sizeof(struct dynpf_ethhdr) == 14, "eth");
_Static_assert(sizeof(struct dynpf_arp_eth_ipv4) == 28, "arp");
_Static_assert(sizeof(struct dynpf_iphdr) == 20, "ipv4");
_Static_assert(sizeof(struct dynpf_ipv6hdr) == 40, "ipv6");
_Static_assert(sizeof(struct dynpf_tcphdr) == 20, "tcp");
_Static_assert(sizeof(struct dynpf_icmphdr) == 8, "icmp");

#endif /* DYNPF_PARSERS_COMMON_H */
