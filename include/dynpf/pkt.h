/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * struct dynpf_pkt: the parse result, shared by the BPF programs, the native
 * parser build and every user-space consumer (replay, parse, trace ring).
 *
 * ABI rules:
 *  - values of DYNPF_E_*, DYNPF_P_*, DYNPF_TLV_* and DYNPF_HOOK_* never
 *    change; a retired value stays reserved;
 *  - fields are only ever appended (or carved out of explicit padding), and
 *    DYNPF_ABI_VERSION is bumped when the layout changes;
 *  - all multi-byte fields are in host byte order unless named *_be.
 *
 * A parser fills the sub-struct of the layer it parses and nothing else, so a
 * consumer must only read the parts that the layer list says are present.
 */
#ifndef DYNPF_PKT_H
#define DYNPF_PKT_H

#include "types.h"
#include "dynpf/proto.h"

#define DYNPF_ABI_VERSION 3 /* 3: declared protocols (their layers and TLV lists) */

/*
 * Error codes. X(name, value, json-name, description). Stable: never renumber.
 * A parse that ends with an error records the code, the index the failing
 * layer would have had in layers[], its protocol and its offset.
 */
#define DYNPF_ERRORS(X)                                                           \
	X(OK, 0, "ok", "no error")                                                \
	X(TRUNCATED, 1, "truncated", "header runs past the end of the packet")    \
	X(BAD_LEN, 2, "bad_len", "a length field is out of range")                \
	X(DEPTH, 3, "depth", "headers stacked deeper than the limit")             \
	X(BAD_VERSION, 4, "bad_version", "IP version does not match ethertype")   \
	X(TLV_LEN, 5, "tlv_len", "TLV length below its minimum or past its area") \
	X(TLV_COUNT, 6, "tlv_count", "more TLVs in one area than allowed")        \
	X(BAD_HDR, 7, "bad_hdr", "a header field has a forbidden value")

enum dynpf_err {
#define DYNPF_X_ENUM(name, val, json, desc) DYNPF_E_##name = val,
	DYNPF_ERRORS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_E_MAX,
};

/*
 * Protocols of layers. X(name, value, json-name). Stable: never renumber.
 */
#define DYNPF_PROTOS(X)             \
	X(NONE, 0, "none")          \
	X(ETH, 1, "eth")            \
	X(VLAN, 2, "vlan")          \
	X(QINQ, 3, "qinq")          \
	X(ARP, 4, "arp")            \
	X(IPV4, 5, "ipv4")          \
	X(IPV6, 6, "ipv6")          \
	X(TCP, 7, "tcp")            \
	X(UDP, 8, "udp")            \
	X(ICMP, 9, "icmp")          \
	X(ICMPV6, 10, "icmpv6")     \
	X(HOPOPTS, 11, "hopopts")   \
	X(ROUTING, 12, "routing")   \
	X(FRAGMENT, 13, "fragment") \
	X(DSTOPTS, 14, "dstopts")   \
	X(AH, 15, "ah")             \
	X(ESP, 16, "esp")           \
	X(MPLS, 17, "mpls")         \
	X(GRE, 18, "gre")           \
	X(VXLAN, 19, "vxlan")       \
	X(GENEVE, 20, "geneve")     \
	X(GTPU, 21, "gtpu")         \
	X(DECL, 22, "declared")

enum dynpf_proto {
#define DYNPF_X_ENUM(name, val, json) DYNPF_P_##name = val,
	DYNPF_PROTOS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_P_MAX,
};

/* Where a struct dynpf_pkt was produced. */
enum dynpf_hook {
	DYNPF_HOOK_NATIVE = 0,
	DYNPF_HOOK_XDP = 1,
	DYNPF_HOOK_XDP_FRAGS = 2,
	DYNPF_HOOK_TC_INGRESS = 3,
	DYNPF_HOOK_TC_EGRESS = 4,
};

/*
 * TLV families walked by the generic walker (parsers/tlv.h): the built-in
 * ones, then one per declared protocol (DYNPF_TLV_NFAM + its id,
 * include/dynpf/proto.h), named after it.
 */
#define DYNPF_TLV_FAMILIES(X)         \
	X(TCP_OPT, 0, "tcp_opt")      \
	X(IPV4_OPT, 1, "ipv4_opt")    \
	X(IPV6_HBH, 2, "hopopts_opt") \
	X(IPV6_DST, 3, "dstopts_opt") \
	X(SRH_TLV, 4, "srh_tlv")      \
	X(GENEVE_OPT, 5, "geneve_opt")

enum dynpf_tlv_family {
#define DYNPF_X_ENUM(name, val, json) DYNPF_TLV_##name = val,
	DYNPF_TLV_FAMILIES(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
};

#define DYNPF_TLV_NFAM 6                                   /* built-in families */
#define DYNPF_TLV_NALL (DYNPF_TLV_NFAM + DYNPF_MAX_PROTOS) /* with the declared ones */

#define DYNPF_MAX_LAYERS 24
#define DYNPF_MAX_STACKS 2 /* outer headers + one tunnel's inner headers */
#define DYNPF_MAX_VLANS 4  /* VLAN tags kept per stack; also the hard limit */
#define DYNPF_MAX_TLVS 40  /* per family: a 40-byte TCP option area of NOPs fits */
#define DYNPF_MAX_SACK 4
#define DYNPF_MAX_EXT 8     /* IPv6 extension headers kept per stack; default limit */
#define DYNPF_MAX_MPLS 8    /* MPLS labels kept per stack; also the hard limit */
#define DYNPF_MAX_GTP_EXT 4 /* GTP-U extension header types kept */

struct dynpf_layer {
	__u16 proto; /* DYNPF_P_* */
	__u16 off;   /* offset of the header from the start of the packet */
	__u16 len;   /* header length including its options */
	__u8 stack;  /* 0 = outermost headers, 1 = inside the first tunnel */
	__u8 sub;    /* DYNPF_P_DECL: the declared protocol's id; else 0 */
};
DYNPF_ASSERT_SIZE(struct dynpf_layer, 8);

struct dynpf_tlv {
	__u32 type;  /* family-specific: option kind/type, Geneve class << 8 | type */
	__u16 len;   /* total length of the TLV in bytes, header included */
	__u16 off;   /* offset of the TLV from the start of the packet */
	__u8 family; /* DYNPF_TLV_*, or DYNPF_TLV_NFAM + a declared protocol's id */
	__u8 layer;  /* index in layers[] of the header carrying it */
	__u8 hdr;    /* bytes of its header (type and length fields): its data follows */
	__u8 pad;
};
DYNPF_ASSERT_SIZE(struct dynpf_tlv, 12);

/* One family's TLVs, from every header of that family in the packet. */
struct dynpf_tlv_list {
	__u64 seen[4]; /* bitmap of the low 8 bits of the types seen */
	__u8 count;    /* TLVs walked in this family, saturating at 255 */
	__u8 overflow; /* 1 when some of them did not fit in ent[] */
	__u8 n;        /* valid entries in ent[] */
	__u8 pad[5];
	struct dynpf_tlv ent[DYNPF_MAX_TLVS];
};
DYNPF_ASSERT_SIZE(struct dynpf_tlv_list, 520);

struct dynpf_l2 {
	__u8 dst[6];
	__u8 src[6];
	__u16 ethertype;                  /* after the VLAN tags: the payload's ethertype */
	__u8 nvlan;                       /* VLAN tags parsed (802.1Q and 802.1ad) */
	__u8 flags;                       /* DYNPF_L2_* */
	__u16 vlan_tpid[DYNPF_MAX_VLANS]; /* 0x8100 or 0x88a8, outermost first */
	__u16 vlan_tci[DYNPF_MAX_VLANS];  /* PCP:3 DEI:1 VID:12 */
};
DYNPF_ASSERT_SIZE(struct dynpf_l2, 32);
/*
 * vlan_tci[0] is a tag that was not in the packet's bytes: the kernel (or a
 * NIC with VLAN offload) took it off the front into skb->vlan_tci before TC
 * ingress. The offsets of the layers are those of the bytes the program saw.
 */
#define DYNPF_L2_VLAN_OFFLOAD 0x01

struct dynpf_arp {
	__u16 htype;
	__u16 ptype;
	__u8 hlen;
	__u8 plen;
	__u16 op;
	/* Addresses are decoded only for Ethernet/IPv4 (hlen 6, plen 4). */
	__u8 sha[6];
	__u8 spa[4];
	__u8 tha[6];
	__u8 tpa[4];
};
DYNPF_ASSERT_SIZE(struct dynpf_arp, 28);

/* dynpf_l3.frag bits */
#define DYNPF_FRAG_DF 0x01       /* IPv4 don't-fragment */
#define DYNPF_FRAG_MF 0x02       /* more fragments follow */
#define DYNPF_FRAG_IS_FRAG 0x04  /* the packet is a fragment (MF or offset) */
#define DYNPF_FRAG_NONFIRST 0x08 /* offset != 0: no L4 header here */

struct dynpf_l3 {
	__u8 saddr[16]; /* IPv4 uses the first 4 bytes, network order */
	__u8 daddr[16];
	__u8 version;     /* 4 or 6 */
	__u8 proto;       /* IPv4 protocol / the IPv6 fixed header's next header */
	__u8 ttl;         /* IPv4 TTL / IPv6 hop limit */
	__u8 tos;         /* IPv4 TOS / IPv6 traffic class (DSCP << 2 | ECN) */
	__u16 tot_len;    /* IPv4 total length / IPv6 payload length */
	__u16 id;         /* IPv4 identification */
	__u16 frag_off;   /* fragment offset in 8-byte units */
	__u8 frag;        /* DYNPF_FRAG_* */
	__u8 hdr_len;     /* IPv4 IHL * 4 / 40 for IPv6 */
	__u32 flow_label; /* IPv6 */
};
DYNPF_ASSERT_SIZE(struct dynpf_l3, 48);

/* dynpf_l4.opts bits: which TCP options were decoded */
#define DYNPF_TCPO_MSS 0x01
#define DYNPF_TCPO_WSCALE 0x02
#define DYNPF_TCPO_SACK_PERM 0x04
#define DYNPF_TCPO_SACK 0x08
#define DYNPF_TCPO_TS 0x10

struct dynpf_l4 {
	__u16 sport; /* TCP/UDP ports; ICMP echo: identifier in sport */
	__u16 dport; /* ICMP echo: sequence number in dport */
	__u32 seq;
	__u32 ack;
	__u16 window;
	__u8 flags;   /* TCP flags byte: CWR ECE URG ACK PSH RST SYN FIN */
	__u8 hdr_len; /* TCP data offset * 4, 8 for UDP, 4 for ICMP */
	__u8 icmp_type;
	__u8 icmp_code;
	__u16 ulen; /* UDP length field */
	__u16 mss;
	__u8 wscale;
	__u8 opts; /* DYNPF_TCPO_* */
	__u32 ts_val;
	__u32 ts_ecr;
	__u8 nsack;
	__u8 pad[7];
	__u32 sack[DYNPF_MAX_SACK][2]; /* left, right edges */
};
DYNPF_ASSERT_SIZE(struct dynpf_l4, 72);

/* dynpf_ipv4opt.seen bits: IPv4 options decoded */
#define DYNPF_IPOPT_RA 0x01 /* Router Alert (148) */
#define DYNPF_IPOPT_TS 0x02 /* Timestamp (68) */
#define DYNPF_IPOPT_RR 0x04 /* Record Route (7) */

struct dynpf_ipv4opt {
	__u8 seen;   /* DYNPF_IPOPT_* */
	__u8 ts_ptr; /* Timestamp: pointer, overflow, flag */
	__u8 ts_oflw;
	__u8 ts_flag;
	__u16 ra;    /* Router Alert value */
	__u8 rr_ptr; /* Record Route: pointer, and addresses recorded */
	__u8 rr_count;
};
DYNPF_ASSERT_SIZE(struct dynpf_ipv4opt, 8);

/* dynpf_ext.flags */
#define DYNPF_EXTF_RA 0x01     /* options: Router Alert present */
#define DYNPF_EXTF_JUMBO 0x02  /* options: Jumbo Payload present */
#define DYNPF_EXTF_FRAG_M 0x04 /* fragment: more fragments */
#define DYNPF_EXTF_SRH 0x08    /* routing: type 4, the SRH fields are valid */
#define DYNPF_EXTF_HMAC 0x10   /* SRH: HMAC TLV present, key id in dynpf_ext.id */
#define DYNPF_EXTF_HMAC_D 0x20 /* SRH: the HMAC TLV's D flag */

/* One IPv6 extension header (RFC 8200), in chain order. */
struct dynpf_ext {
	__u8 proto;   /* DYNPF_P_HOPOPTS, _ROUTING, _FRAGMENT, _DSTOPTS, _AH, _ESP */
	__u8 nexthdr; /* its Next Header field (ESP: 0, unknown) */
	__u8 layer;   /* index in layers[] */
	__u8 flags;   /* DYNPF_EXTF_* */
	__u16 off;
	__u16 len; /* bytes, from its own length rule */
	/* hop-by-hop / destination options */
	__u8 unknown_act; /* bitmap of RFC 8200 action bits (type >> 6) of unknown options */
	__u8 pad0;
	__u16 ra;    /* Router Alert value */
	__u32 jumbo; /* Jumbo Payload length */
	/* routing */
	__u8 rt_type;
	__u8 segleft;
	__u8 last_entry; /* SRH */
	__u8 srh_flags;  /* SRH */
	__u16 srh_tag;   /* SRH */
	/* fragment: offset in 8-byte units */
	__u16 frag_off;
	__u32 id; /* fragment identification, AH/ESP SPI, or SRH HMAC key id */
};
DYNPF_ASSERT_SIZE(struct dynpf_ext, 28);

/* dynpf_l3.ext_flags: what RFC 8200 says should not happen, flagged */
#define DYNPF_EXT_HBH_NOT_FIRST 0x01 /* hop-by-hop after another header */
#define DYNPF_EXT_REPEATED 0x02      /* a header repeated (dstopts: more than twice) */

struct dynpf_ip6chain {
	__u8 n;     /* extension headers parsed */
	__u8 flags; /* DYNPF_EXT_* */
	__u16 seen; /* bitmap of 1 << (DYNPF_P_* - DYNPF_P_HOPOPTS) */
	struct dynpf_ext ext[DYNPF_MAX_EXT];
};
DYNPF_ASSERT_SIZE(struct dynpf_ip6chain, 228);

/* The tunnel header that leads from this stack to the next one. */
struct dynpf_tun {
	__u16 proto;   /* DYNPF_P_GRE, _VXLAN, _GENEVE, _GTPU, or _IPV4/_IPV6 (IP-in-IP) */
	__u16 inner;   /* ethertype of the inner packet, as announced or guessed */
	__u32 vni;     /* VXLAN, Geneve */
	__u32 key;     /* GRE key; GTP-U TEID */
	__u32 seq;     /* GRE, GTP-U sequence number */
	__u16 flags;   /* GRE: C R K S flags and version word; VXLAN/Geneve/GTP: first bytes */
	__u8 opt_len;  /* Geneve: option area in bytes */
	__u8 msg_type; /* GTP-U message type */
	__u8 next_ext; /* GTP-U: extension header types, in order */
	__u8 n_ext;
	__u8 ext_type[DYNPF_MAX_GTP_EXT];
	__u16 len; /* GTP-U: its Length field (bytes after the 8-byte header) */
};
DYNPF_ASSERT_SIZE(struct dynpf_tun, 28);

struct dynpf_mpls {
	__u8 n;
	__u8 pad[3];
	__u32 lse[DYNPF_MAX_MPLS]; /* label:20 TC:3 S:1 TTL:8, host order */
};
DYNPF_ASSERT_SIZE(struct dynpf_mpls, 36);

/* The decoded fields of one stack of headers (outer, or a tunnel's inner). */
struct dynpf_stack {
	struct dynpf_l2 l2;
	struct dynpf_arp arp;
	struct dynpf_l3 l3;
	struct dynpf_l4 l4;
	struct dynpf_ipv4opt ip4opt;
	struct dynpf_ip6chain ip6;
	struct dynpf_mpls mpls;
	struct dynpf_tun tun;
};
DYNPF_ASSERT_SIZE(struct dynpf_stack, 480);

struct dynpf_pkt {
	__u16 abi;       /* DYNPF_ABI_VERSION */
	__u8 hook;       /* DYNPF_HOOK_* */
	__u8 nlayers;    /* valid entries in layers[] */
	__u32 pkt_len;   /* bytes in the packet (all fragments) */
	__u32 ifindex;   /* ingress (XDP, TC ingress) or egress interface */
	__u8 err;        /* DYNPF_E_* */
	__u8 err_layer;  /* index in layers[] the failing header would have had */
	__u16 err_proto; /* DYNPF_P_* of the header that failed */
	__u16 err_off;   /* offset of the failing header or field */
	__u8 nstacks;    /* stacks with at least one layer */
	__u8 pad0;
	__u32 l4_payload_off; /* first byte after the last L4 header, or 0 */
	__u32 tlv_fams;       /* bit f: tlv[f] has entries (1 << DYNPF_TLV_*) */
	__u32 pad1;
	struct dynpf_layer layers[DYNPF_MAX_LAYERS];
	struct dynpf_stack st[DYNPF_MAX_STACKS];
	struct dynpf_tlv_list tlv[DYNPF_TLV_NALL]; /* built-in families, then declared ones */
};
DYNPF_ASSERT_OFF(struct dynpf_pkt, layers, 32);
DYNPF_ASSERT_OFF(struct dynpf_pkt, st, 224);
DYNPF_ASSERT_OFF(struct dynpf_pkt, tlv, 1184);
DYNPF_ASSERT_SIZE(struct dynpf_pkt, 1184 + DYNPF_TLV_NALL * 520);
_Static_assert(DYNPF_TLV_NALL <= 32, "tlv_fams has a bit per family");

/*
 * Parse limits, set by the user within the array sizes above: in BPF as
 * read-only globals before load, natively as dynpf_parse_native()'s cfg.
 */
struct dynpf_parse_cfg {
	__u8 max_ext;    /* IPv6 extension headers per chain, 1..DYNPF_MAX_EXT */
	__u8 max_stacks; /* stacks of headers, 1 (no tunnels) ..DYNPF_MAX_STACKS */
	__u8 pad[2];
};

#define DYNPF_PARSE_CFG_DEFAULT \
	((struct dynpf_parse_cfg){ .max_ext = DYNPF_MAX_EXT, .max_stacks = DYNPF_MAX_STACKS })

/*
 * Per-CPU counters: BPF map "dynpf_stats", a per-CPU array indexed by
 * dynpf_stats_key(): per interface slot and DYNPF_HOOK_*; user space sums
 * the CPUs (and the slots, for a hook's totals). Interface slots are given
 * out by the daemon in "dynpf_ifslots" (indexed by ifindex); slot 0 holds
 * every other interface (and test runs). The programs count act[],
 * act_bytes[] and, for the packets that failed, err[e]/err_bytes[e];
 * packets, bytes and err[0] (parsed without error) are filled in from those
 * by the reader, dynpf_stats_read() (loader/lib/progs.c).
 */
#define DYNPF_STATS_ERR_SLOTS 16
#define DYNPF_STATS_ACTS 4 /* 0 (none), DYNPF_ACT_PASS, _DROP, _REDIRECT */
#define DYNPF_IF_SLOTS 64
#define DYNPF_IFSLOT_MAX_IFINDEX 4096 /* ifindexes at or above: slot 0 */

struct dynpf_stats {
	__u64 packets;
	__u64 bytes;
	__u64 trace_lost; /* trace ring full: a record was not emitted */
	/* the dynptr constructor failed before the parse: packet passed (the
	 * programs that make it before the parse; the loader's make it at each
	 * read, where a failed make fails the read: a parse error) */
	__u64 no_dynptr;
	__u64 err[DYNPF_STATS_ERR_SLOTS];       /* packets per DYNPF_E_* (0 = ok) */
	__u64 err_bytes[DYNPF_STATS_ERR_SLOTS]; /* their bytes */
	__u64 act[DYNPF_STATS_ACTS];            /* packets per terminal action */
	__u64 act_bytes[DYNPF_STATS_ACTS];      /* their bytes */
};
DYNPF_ASSERT_SIZE(struct dynpf_stats, 352);
_Static_assert(DYNPF_E_MAX <= DYNPF_STATS_ERR_SLOTS, "error slots");

#define DYNPF_HOOK_MAX 5

#define dynpf_stats_key(slot, hook) ((slot) * DYNPF_HOOK_MAX + (hook))

#endif /* DYNPF_PKT_H */
