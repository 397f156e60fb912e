/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * dynpf control channel: the messages user space writes into the
 * BPF_MAP_TYPE_USER_RINGBUF dynpf_ctrl, the acknowledgements the drain
 * program (bpf/drain.bpf.c) writes back on the BPF_MAP_TYPE_RINGBUF
 * dynpf_acks, and the rule model they carry. One header for both sides:
 * fixed layouts, checked by _Static_assert under gcc and clang -target bpf.
 *
 * Every message starts with struct dynpf_msg_hdr: the version of this
 * header (DYNPF_CTRL_VERSION), its type, its size in bytes (header
 * included, exactly the size of its type) and a sequence number the
 * producer chooses; every message gets exactly one ack carrying that
 * sequence number.
 *
 * Rule changes only happen inside a transaction: TXN_BEGIN, any number of
 * RULE_ADD / RULE_DEL / SET / COUNTER_RESET, TXN_COMMIT (or TXN_ABORT). The
 * changes are staged; the commit links the transaction's new rule entries,
 * born at the next generation, marks the ones it deletes as dead from it,
 * and publishes that generation in one store: a packet reads the generation
 * once and sees only the entries alive at it, so it is classified entirely
 * by the old rule set or entirely by the new one. A message refused inside
 * a transaction marks it failed: its commit is refused (EINVAL, field "txn")
 * and nothing changes. docs/rules.md has the whole protocol.
 */
#ifndef DYNPF_CTRL_H
#define DYNPF_CTRL_H

#include "dynpf/pkt.h"

#define DYNPF_CTRL_VERSION 4 /* 2: byte tests; 3: dynpf_rule.expires; 4: declared protocols */

#define DYNPF_MAX_RULES 131072 /* rule ids are 1 .. DYNPF_MAX_RULES - 1 */
#define DYNPF_MAX_TUPLES 64    /* distinct match masks and quick dimensions (tuple space search) */
/* A catch-all's entry's tuple: none (it is on dynpf_state.any_head). */
#define DYNPF_TUPLE_ANY DYNPF_MAX_TUPLES
#define DYNPF_MAX_TXN_OPS 131072 /* staged messages in one transaction */
#define DYNPF_MATCH_TLVS 4       /* TLV presence tests per rule */
#define DYNPF_MATCH_VALS 4       /* value range tests per rule */
#define DYNPF_MATCH_DATA 4       /* byte tests (TLV data, raw layer bytes) per rule */
#define DYNPF_DATA_MAX 16        /* bytes one byte test compares */
#define DYNPF_SAMPLE_MAX 256     /* bytes of a packet a sample carries */

/* X(name, value, text) */
#define DYNPF_MSG_TYPES(X)                   \
	X(RULE_ADD, 1, "rule-add")           \
	X(RULE_DEL, 2, "rule-del")           \
	X(TXN_BEGIN, 3, "txn-begin")         \
	X(TXN_COMMIT, 4, "txn-commit")       \
	X(TXN_ABORT, 5, "txn-abort")         \
	X(SET, 6, "set")                     \
	X(COUNTER_RESET, 7, "counter-reset") \
	X(PROTO_ADD, 8, "proto-add")         \
	X(PROTO_DEL, 9, "proto-del")

enum dynpf_msg_type {
#define DYNPF_X_ENUM(n, v, t) DYNPF_MSG_##n = v,
	DYNPF_MSG_TYPES(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_MSG_MAX
};

struct dynpf_msg_hdr {
	__u16 version; /* DYNPF_CTRL_VERSION */
	__u16 type;    /* DYNPF_MSG_* */
	__u32 size;    /* bytes, this header included */
	__u64 seq;     /* chosen by the producer, echoed in the ack */
};

/*
 * Actions. Terminal ones decide the packet; the others act and let
 * classification go on to the rules after them:
 *   pass, drop          the verdict
 *   redirect IFINDEX    bpf_redirect() to the interface (arg)
 *   count               only the rule's counters (every rule has them)
 *   mark VALUE          skb->mark = arg (TC; counted but no effect in XDP)
 *   sample              the first sample_len bytes and the parse result to
 *                       dynpf_events, at most sample_rate per second
 *   limit               a policer: packets over arg per second (burst
 *                       `burst`) are dropped, the others go on
 * X(name, value, text, terminal)
 */
#define DYNPF_ACTIONS(X)              \
	X(PASS, 1, "pass", 1)         \
	X(DROP, 2, "drop", 1)         \
	X(REDIRECT, 3, "redirect", 1) \
	X(COUNT, 4, "count", 0)       \
	X(MARK, 5, "mark", 0)         \
	X(SAMPLE, 6, "sample", 0)     \
	X(LIMIT, 7, "limit", 0)

enum dynpf_action {
#define DYNPF_X_ENUM(n, v, t, term) DYNPF_ACT_##n = v,
	DYNPF_ACTIONS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_ACT_MAX
};

/* dynpf_match.fields: which of the match's fields the rule tests. */
#define DYNPF_M_IFINDEX (1u << 0)
#define DYNPF_M_ETH_SRC (1u << 1)
#define DYNPF_M_ETH_DST (1u << 2)
#define DYNPF_M_ETHERTYPE (1u << 3) /* after VLAN tags */
#define DYNPF_M_VLAN (1u << 4)      /* VID of the outermost tag */
#define DYNPF_M_SRC (1u << 5)       /* IP source prefix (family) */
#define DYNPF_M_DST (1u << 6)       /* IP destination prefix (family) */
#define DYNPF_M_PROTO (1u << 7)     /* IPv4 protocol / IPv6 upper-layer header */
#define DYNPF_M_FRAG (1u << 8)      /* DYNPF_MF_* */
#define DYNPF_M_TTL (1u << 9)       /* TTL / hop limit range */
#define DYNPF_M_DSCP (1u << 10)
#define DYNPF_M_SPORT (1u << 11)     /* L4 source port range */
#define DYNPF_M_DPORT (1u << 12)     /* L4 destination port range */
#define DYNPF_M_TCP_FLAGS (1u << 13) /* (flags & mask) == value */
#define DYNPF_M_ERROR (1u << 14)     /* the parse error code (DYNPF_E_*) */
#define DYNPF_M_FAMILY (1u << 15)    /* IPv4 or IPv6 (family) */
#define DYNPF_M_DATA (1u << 16)      /* byte tests: data[0 .. ndata) */
#define DYNPF_M_ALL ((1u << 17) - 1)

/* dynpf_match.frag */
#define DYNPF_MF_NOT 1      /* not a fragment */
#define DYNPF_MF_ANY 2      /* any fragment */
#define DYNPF_MF_FIRST 3    /* the first fragment (offset 0, MF) */
#define DYNPF_MF_NONFIRST 4 /* a later fragment: no L4 header */

/*
 * A TLV presence test. family is a DYNPF_TLV_* or DYNPF_TT_EXT (an IPv6
 * extension header: type is its IP protocol number, 0 43 44 60 51 50); type
 * is the family's type (Geneve: class << 8 | type). neg: the rule wants it
 * absent.
 */
#define DYNPF_TT_EXT 0x80
struct dynpf_tlv_test {
	__u8 family;
	__u8 neg;
	__u8 pad[2];
	__u32 type;
};

/* Decoded values a rule can compare (lo <= value <= hi). X(name, value, text) */
#define DYNPF_VALS(X)                  \
	X(MSS, 1, "tcp-mss")           \
	X(WSCALE, 2, "tcp-wscale")     \
	X(VNI, 3, "vni")               \
	X(SEGLEFT, 4, "segments-left") \
	X(TEID, 5, "teid")             \
	X(MPLS_LABEL, 6, "mpls-label") \
	X(GRE_KEY, 7, "gre-key")

enum dynpf_val {
#define DYNPF_X_ENUM(n, v, t) DYNPF_V_##n = v,
	DYNPF_VALS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_V_MAX
};

struct dynpf_val_test {
	__u8 field; /* DYNPF_V_* */
	__u8 pad[3];
	__u32 lo;
	__u32 hi;
};

/*
 * A byte test (DYNPF_M_DATA): len bytes at off, masked, equal to val:
 * (bytes[i] & mask[i]) == val[i] for i < len. Where the bytes are:
 *  - a TLV family (DYNPF_TLV_*) or DYNPF_DT_GTPU_EXT: inside the data of a
 *    TLV of that type (Geneve: class << 8 | type; GTP-U: the extension
 *    header type), off counted from the first byte after the TLV's type and
 *    length fields; the test matches when some TLV of the type in the
 *    packet's list (any header, any stack; GTP-U: the outer tunnel's) has
 *    the bytes. A TLV too short for them does not match;
 *  - DYNPF_DT_L3, _L4, _PAYLOAD: off bytes from the start of the rule's
 *    stack's IP header, its L4 header, or the first byte after the L4
 *    header (type 0); bytes past the IP datagram (or the packet) do not
 *    match.
 * val and mask are 0 past len, and val has no bit outside mask.
 */
#define DYNPF_DT_GTPU_EXT 0x40
#define DYNPF_DT_L3 0x81
#define DYNPF_DT_L4 0x82
#define DYNPF_DT_PAYLOAD 0x83
struct dynpf_data_test {
	__u8 where; /* a DYNPF_TLV_* family or DYNPF_DT_* */
	__u8 len;   /* 1 .. DYNPF_DATA_MAX */
	__u16 off;
	__u32 type;
	__u8 val[DYNPF_DATA_MAX];
	__u8 mask[DYNPF_DATA_MAX];
};

struct dynpf_match {
	__u32 fields;  /* DYNPF_M_* */
	__u8 stack;    /* 0: the outer headers; 1: inside the first tunnel */
	__u8 family;   /* 4 or 6, with DYNPF_M_FAMILY/SRC/DST */
	__u8 src_plen; /* 0..32 (IPv4), 0..128 (IPv6) */
	__u8 dst_plen;
	__u8 proto;
	__u8 frag; /* DYNPF_MF_* */
	__u8 dscp; /* 0..63 */
	__u8 ttl_lo;
	__u8 ttl_hi;
	__u8 tcp_flags;
	__u8 tcp_flags_mask;
	__u8 error; /* DYNPF_E_* */
	__u8 ntlv;  /* tests used in tlv[] */
	__u8 nval;  /* tests used in val[] */
	__u16 ethertype;
	__u16 vlan; /* 0..4095 */
	__u16 sport_lo;
	__u16 sport_hi;
	__u16 dport_lo;
	__u16 dport_hi;
	__u8 ndata; /* tests used in data[] */
	__u8 pad0;
	__u32 ifindex;
	__u8 eth_src[6];
	__u8 eth_dst[6];
	__u8 src[16]; /* IPv4: the first 4 bytes; bits past the prefix are 0 */
	__u8 dst[16];
	struct dynpf_tlv_test tlv[DYNPF_MATCH_TLVS];
	struct dynpf_val_test val[DYNPF_MATCH_VALS];
	struct dynpf_data_test data[DYNPF_MATCH_DATA];
};

struct dynpf_rule {
	__u32 id;    /* 1 .. DYNPF_MAX_RULES - 1, stable */
	__u32 prio;  /* lower first; equal priorities by id */
	__u8 action; /* DYNPF_ACT_* */
	__u8 pad;
	__u16 sample_len;  /* sample: 1 .. DYNPF_SAMPLE_MAX bytes */
	__u32 arg;         /* redirect: ifindex; mark: value; limit: packets/s */
	__u32 burst;       /* limit: bucket size in packets (>= 1) */
	__u32 sample_rate; /* sample: at most this many per second (>= 1) */
	struct dynpf_match m;
	/*
	 * When the daemon removes the rule (`timeout`): CLOCK_REALTIME
	 * nanoseconds, an absolute time that survives a restart of the daemon
	 * in the pinned maps; 0: never. The BPF side keeps it, nothing more.
	 */
	__u64 expires;
};

/* Settings (DYNPF_MSG_SET). X(name, value, text) */
#define DYNPF_SETTINGS(X)                      \
	X(DEFAULT_ACTION, 1, "default-action") \
	X(PASS_ARP_ND, 2, "pass-arp-nd")

enum dynpf_setting {
#define DYNPF_X_ENUM(n, v, t) DYNPF_SET_##n = v,
	DYNPF_SETTINGS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_SET_MAX
};

struct dynpf_msg_rule_add {
	struct dynpf_msg_hdr h;
	struct dynpf_rule rule;
};

struct dynpf_msg_rule_del {
	struct dynpf_msg_hdr h;
	__u32 id;
	__u32 pad;
};

struct dynpf_msg_txn { /* TXN_BEGIN, TXN_COMMIT, TXN_ABORT */
	struct dynpf_msg_hdr h;
};

struct dynpf_msg_set {
	struct dynpf_msg_hdr h;
	__u32 key; /* DYNPF_SET_* */
	__u32 pad;
	__u64 value; /* default-action: DYNPF_ACT_PASS or _DROP; pass-arp-nd: 0/1 */
};

struct dynpf_msg_counter_reset {
	struct dynpf_msg_hdr h;
	__u32 id; /* a rule id, or 0 for every rule */
	__u32 pad;
};

/*
 * Declare a protocol (include/dynpf/proto.h), in a transaction like a rule:
 * checked by dynpf_proto_check() (rules/protocheck.h), refused if its id, its
 * name or its binding is taken; PROTO_DEL deletes one that no rule tests.
 */
struct dynpf_msg_proto_add {
	struct dynpf_msg_hdr h;
	struct dynpf_proto_desc d;
};

struct dynpf_msg_proto_del {
	struct dynpf_msg_hdr h;
	__u32 id;
	__u32 pad;
};

/* The members of a protocol declaration (rules/protocheck.h says what each must be). */
#define DYNPF_PROTO_FIELDS(X)                             \
	X(PROTO_NAME, 35, "proto.name")                   \
	X(PROTO_ID, 36, "proto.id")                       \
	X(PROTO_AT, 37, "proto.at")                       \
	X(PROTO_PORT, 38, "proto.at_val")                 \
	X(PROTO_IPPROTO, 39, "proto.at_val")              \
	X(PROTO_ETHERTYPE, 40, "proto.at_val")            \
	X(PROTO_AREA, 41, "proto.at_val")                 \
	X(PROTO_FIXED, 42, "proto.fixed")                 \
	X(PROTO_PAD, 43, "proto.pad")                     \
	X(PROTO_FIXED_F_SIZE, 44, "proto.fixed_f.size")   \
	X(PROTO_FIXED_F_OFF, 45, "proto.fixed_f.off")     \
	X(PROTO_FIXED_F_SHIFT, 46, "proto.fixed_f.shift") \
	X(PROTO_FIXED_F_MASK, 47, "proto.fixed_f.mask")   \
	X(PROTO_FIXED_F_UNIT, 48, "proto.fixed_f.unit")   \
	X(PROTO_HDR_F_SIZE, 49, "proto.hdr_f.size")       \
	X(PROTO_HDR_F_OFF, 50, "proto.hdr_f.off")         \
	X(PROTO_HDR_F_SHIFT, 51, "proto.hdr_f.shift")     \
	X(PROTO_HDR_F_MASK, 52, "proto.hdr_f.mask")       \
	X(PROTO_HDR_F_UNIT, 53, "proto.hdr_f.unit")       \
	X(PROTO_LEN_SIZE, 54, "proto.tlv.len.size")       \
	X(PROTO_LEN_OFF, 55, "proto.tlv.len.off")         \
	X(PROTO_LEN_SHIFT, 56, "proto.tlv.len.shift")     \
	X(PROTO_LEN_MASK, 57, "proto.tlv.len.mask")       \
	X(PROTO_LEN_UNIT, 58, "proto.tlv.len.unit")       \
	X(PROTO_TYPE_SIZE, 59, "proto.tlv.type_size")     \
	X(PROTO_TYPE_OFF, 60, "proto.tlv.type_off")       \
	X(PROTO_HDR_LEN, 61, "proto.tlv.hdr_len")         \
	X(PROTO_FLAGS, 62, "proto.tlv.flags")             \
	X(PROTO_END, 63, "proto.tlv.end_type")            \
	X(PROTO_PADS, 64, "proto.tlv.pad_type")

/*
 * The field an error ack names. X(name, value, text): the text is what
 * `dynpf` prints after "field".
 */
#define DYNPF_FIELDS(X)                     \
	X(NONE, 0, "none")                  \
	X(VERSION, 1, "version")            \
	X(TYPE, 2, "type")                  \
	X(SIZE, 3, "size")                  \
	X(TXN, 4, "txn")                    \
	X(ID, 5, "id")                      \
	X(ACTION, 6, "action")              \
	X(ARG, 7, "arg")                    \
	X(BURST, 8, "burst")                \
	X(SAMPLE_LEN, 9, "sample_len")      \
	X(SAMPLE_RATE, 10, "sample_rate")   \
	X(FIELDS, 11, "match.fields")       \
	X(STACK, 12, "match.stack")         \
	X(FAMILY, 13, "match.family")       \
	X(SRC, 14, "match.src")             \
	X(DST, 15, "match.dst")             \
	X(FRAG, 16, "match.frag")           \
	X(DSCP, 17, "match.dscp")           \
	X(TTL, 18, "match.ttl")             \
	X(SPORT, 19, "match.sport")         \
	X(DPORT, 20, "match.dport")         \
	X(TCP_FLAGS, 21, "match.tcp_flags") \
	X(ERROR, 22, "match.error")         \
	X(VLAN, 23, "match.vlan")           \
	X(TLV, 24, "match.tlv")             \
	X(VAL, 25, "match.val")             \
	X(PAD, 26, "pad")                   \
	X(KEY, 27, "key")                   \
	X(VALUE, 28, "value")               \
	X(TUPLES, 29, "tuples")             \
	X(PRIO, 30, "prio")                 \
	X(PROTO, 31, "match.proto")         \
	X(ETHERTYPE, 32, "match.ethertype") \
	X(IFINDEX, 33, "match.ifindex")     \
	X(DATA, 34, "match.data")           \
	DYNPF_PROTO_FIELDS(X)

enum dynpf_field {
#define DYNPF_X_ENUM(n, v, t) DYNPF_F_##n = v,
	DYNPF_FIELDS(DYNPF_X_ENUM)
#undef DYNPF_X_ENUM
	DYNPF_F_MAX
};

/*
 * One ack per message, in order, on dynpf_acks. A commit's ack is followed
 * in the same record by struct dynpf_ack_commit (size says so).
 */
struct dynpf_ack {
	__u64 seq;   /* the message's */
	__u16 type;  /* the message's type, or 0 when unreadable */
	__u16 field; /* DYNPF_F_*: what was wrong, with err */
	__s32 err;   /* 0, or a negative errno */
	__u32 gen;   /* the generation after the message (its low 32 bits) */
	__u32 size;  /* bytes of this record */
};

struct dynpf_ack_commit {
	struct dynpf_ack a;
	__u32 nrules;  /* rules in the new active set */
	__u32 ntuples; /* its tuples: distinct match masks and quick dimensions */
	__u32 added;   /* by this transaction */
	__u32 deleted;
};

/*
 * The drain program's context: the producer runs dynpf_drain with
 * BPF_PROG_TEST_RUN, this in ctx_in, and the kernel copies it back there
 * when the program returns. A run takes at most DYNPF_ACK_MAX_RUN messages,
 * so its acks always fit in dynpf_acks.
 *
 * Reclaim (bpf/rules.h): a rule entry a commit retired stays linked until
 * no packet can still read a generation that sees it, then is unlinked, and
 * is free once no packet can still be walking over it. The producer learns
 * both from RCU grace periods it waits for (loader/channel/ring.c): before
 * one starts it reads the state's gen and epoch; once it has passed, it
 * gives them to the next run as synced_gen and synced_epoch.
 */
#define DYNPF_ACK_MAX_RUN 4096
struct dynpf_drain_args {
	__u64 synced_gen;   /* in: every packet now running read a generation >= this */
	__u32 synced_epoch; /* in: no packet is on an entry unlinked at an epoch below this */
	__u32 max_msgs;     /* in: at most this many messages (<= DYNPF_ACK_MAX_RUN); */
	__u32 reclaim_max;  /* in: at most this many entries unlinked, and as many freed */
	__u32 drained;      /* out: messages taken from the ring */
	__s32 err;          /* out: 0, or -EAGAIN: a commit waits for what a grace period frees */
	__u32 limbo;        /* out: entries retired or unlinked and not yet free */
	__u64 gen;          /* out: the generation packets read now */
	__u32 epoch;        /* out: the reclaim epoch now */
	__u32 reclaimed;    /* out: entries unlinked or freed by this run */
};

/* What the data path decided for the last packet (per CPU; tests, replay). */
#define DYNPF_VF_MARK 0x01 /* a mark rule acted: mark holds the value */
struct dynpf_verdict {
	__u32 gen;   /* the generation that classified it (its low 32 bits) */
	__u32 rule;  /* the rule that decided it, 0: the default action */
	__u8 action; /* DYNPF_ACT_PASS, _DROP, _REDIRECT */
	__u8 nmatch; /* non-terminal rules that acted, in match[] */
	__u8 flags;  /* DYNPF_VF_* */
	__u8 pad;
	__u32 mark;
	__u32 arg; /* redirect: the ifindex */
	__u32 match[6];
	__u32 sample; /* a sample rule that acted (its bucket allowed it), or 0 */
	__u16 sample_len;
	__u16 pad2;
};

/* With the trace on, one record per packet on dynpf_trace. */
struct dynpf_trace_rec {
	struct dynpf_pkt pkt;
	struct dynpf_verdict v;
	__u32 pad;
};

/* Per-rule counters (a per-CPU array indexed by rule id). */
struct dynpf_rule_stats {
	__u64 packets;
	__u64 bytes;
};

/*
 * A sample on dynpf_events: this header, then the parse result (struct
 * dynpf_pkt), then cap_len bytes of the packet.
 */
struct dynpf_sample {
	__u32 rule;
	__u32 ifindex;
	__u32 pkt_len;
	__u32 cap_len; /* bytes that follow the parse result */
	__u64 ts_ns;   /* bpf_ktime_get_ns() */
	__u8 hook;
	__u8 pad[7];
};

/*
 * Map layouts user space reads (the rule set's state and its rule pool,
 * bpf/rules.h explains both): dynpf_idx maps a rule id to its entry of
 * dynpf_rules.
 */
/*
 * The classifier's field filters (bpf/rules.h): per stack, for the
 * source and destination address and port, a tuple bitmap per 16-bit value.
 */
#define DYNPF_FS_SRC 0
#define DYNPF_FS_DST 1
#define DYNPF_FS_SPORT 2
#define DYNPF_FS_DPORT 3
#define DYNPF_FS_NFIELDS 4
#define DYNPF_FS_VALS 65536
#define DYNPF_FS_ENTRIES (DYNPF_MAX_STACKS * DYNPF_FS_NFIELDS * DYNPF_FS_VALS)

/*
 * The classifier's candidates' cache (bpf/classify.h, dynpf_tuple_cands()):
 * per CPU, direct-mapped, the outer stack's candidate tuples by what they
 * are made of. tag 0: never taken. The tag holds the generation's low 40
 * bits: an entry no packet replaced would be taken again 2^40 commits
 * later, 174 days at the 72,000 single-rule commits a second one producer
 * reaches (docs/rules.md, Performance), if a packet of the same values
 * came then.
 */
#define DYNPF_CC_SLOTS 256
struct dynpf_cc_ent {
	__u64 tag;  /* ~(generation << 24 | the view's l3, l4 and protocol) */
	__u64 fsv;  /* the field filters' values, 16 bits each (dynpf_fs_vals()) */
	__u64 qv;   /* the quick filters' values, a byte each (dynpf_qf_word()) */
	__u64 cand; /* the tuples the selection and the filters leave */
};

struct dynpf_ccache {
	struct dynpf_cc_ent e[DYNPF_CC_SLOTS];
};

/*
 * What a side's rules need of the parse (dynpf_state.needs): the data path
 * skips the rest, unless it traces. Each bit counts the rules that need it
 * (dynpf_state.need_cnt), kept as rules are linked and unlinked.
 */
#define DYNPF_NEED_TCP_OPT 0x01 /* TCP options walked and decoded */
#define DYNPF_NEED_INNER 0x02   /* a tunnel's inner packet parsed */
#define DYNPF_NEED_TUN_OPT 0x04 /* Geneve options walked */
#define DYNPF_NEED_FULL 0x08    /* everything: a test of the parse error, a sample */
/* Each TLV listed (struct dynpf_tlv_list.ent[]), not only counted and in
 * the bitmap of types seen: a test of a Geneve option or of a declared
 * protocol's TLV (types wider than 8 bits), a byte test of a TLV. */
#define DYNPF_NEED_TLV_LIST 0x10
#define DYNPF_NEED_BITS 5
/*
 * What a rule testing a declared protocol needs besides (dynpf_rule_needs()):
 * not counted in need_cnt; the drain publishes DYNPF_PUB_DECL instead.
 */
#define DYNPF_NEED_DECL 0x20

/*
 * What a packet reads of the rule set, once, in one 64-bit load
 * (dynpf_state.pub): the generation it is classified at, what the rules
 * alive at it need of the parse, the settings, and whether any rule lives.
 * The drain writes it in one store, last, at each commit.
 */
#define DYNPF_PUB_NEEDS 0x1f        /* DYNPF_NEED_* of the rules alive */
#define DYNPF_PUB_DROP 0x20         /* default-action drop */
#define DYNPF_PUB_ARP_ND_RULES 0x40 /* pass-arp-nd off: ARP and ND go to the rules */
#define DYNPF_PUB_RULES 0x80        /* at least one rule alive */
#define DYNPF_PUB_DECL 0x100        /* declared protocols walked: a rule alive tests one */
#define DYNPF_PUB_GEN_SHIFT 9       /* the generation: the 55 bits above */
#define DYNPF_PUB_GEN(pub) ((pub) >> DYNPF_PUB_GEN_SHIFT)

/*
 * The layout of the values of dynpf's maps, +1 whenever one changes without
 * changing its size: libbpf adopts a pinned map by its type and sizes, so a
 * daemon would read an older version's values through its own layout (a
 * rule entry's fields reordered, say). 0: maps pinned by a version before
 * the layout was written. 1: the first layout written. 2: dynpf_state's
 * inner_sel.
 */
#define DYNPF_LAYOUT 2

struct dynpf_state {
	__u64 pub; /* DYNPF_PUB_*: what packets read */
	__u64 gen; /* the generation pub holds: +1 per commit */
	/*
	 * The chain of the catch-alls (dynpf_rule_any()), in (prio, id)
	 * order: entries of the pool, threaded as a bucket's are (0: none).
	 * Beside pub: a packet reads it from the line it read pub from.
	 * Written only when a catch-all is linked or unlinked.
	 */
	__u32 any_head;
	/*
	 * DYNPF_LAYOUT, written by the daemon that made the maps: a daemon
	 * adopts pinned maps only with its own (loader/daemon/pins.c).
	 */
	__u32 layout;
	/*
	 * Not 0 while a tuple of the inner stack may hold a rule: the OR of
	 * dynpf_tuple_sel.stk[1].fam[], kept beside them by the drain (set
	 * before the commit that makes a tuple's first rule alive, cleared a
	 * grace period after its last one died). Packets read it from pub's
	 * line (bpf/dynpf.bpf.c, dynpf_run()).
	 */
	__u32 inner_sel;
	__u8 pad0[36];       /* the rest, written at every message: other cache lines */
	__u32 nrules;        /* rules alive at gen */
	__u32 ntuples;       /* tuples with a rule alive at gen */
	__u32 tuples_used;   /* tuple slots in use: by rules alive or not yet unlinked
			      * (packets read it: 0, no tuple to probe) */
	__u8 default_action; /* DYNPF_ACT_PASS or DYNPF_ACT_DROP, at gen */
	__u8 arp_nd_rules;   /* 0: ARP and ND pass before any rule (the default;
			      * `set pass-arp-nd off` makes it 1) */
	__u8 txn_open;
	__u8 txn_failed;
	__u8 pending; /* a commit waits for entries or tuple slots (args.err -EAGAIN) */
	__u8 pad[7];
	__u64 pending_seq; /* its message's */
	__u32 txn_id;      /* +1 per TXN_BEGIN */
	__u32 nops;        /* staged ops of the open (or last) transaction */
	__u32 new_masks;   /* masks the open transaction adds */
	__u32 added;
	__u32 deleted;
	__u32 need_cnt[DYNPF_NEED_BITS]; /* rules alive needing each DYNPF_NEED_* bit */
	/* Reclaim (bpf/rules.h): the entry pool and the limbo ring. */
	__u32 epoch;      /* +1 per drain run that unlinked entries */
	__u32 hwm;        /* entries 1 .. hwm - 1 were given out once */
	__u32 nfree;      /* entries on the free stack (dynpf_free) */
	__u32 limbo_head; /* dynpf_limbo[head .. mid): unlinked, to free */
	__u32 limbo_mid;  /* dynpf_limbo[mid .. tail): retired, to unlink */
	__u32 limbo_tail; /* (counters; the ring's index is the counter modulo its size) */
};

/* A rule entry's state (dynpf_rule_ent.state). */
#define DYNPF_ENT_FREE 0
#define DYNPF_ENT_LINKED 1   /* in its bucket's chain: alive, unborn or retired */
#define DYNPF_ENT_UNLINKED 2 /* out of the chain; readers may still be on it */

/*
 * An entry of the rule pool (dynpf_rules; index 0 is none). A packet at
 * generation g sees it when g - born < span, unsigned, in 64 bits: then
 * born <= g < born + span, since generations have 55 bits and g - born
 * wraps to 2^64 - 2^55 or more for an entry born after g. span is
 * DYNPF_SPAN_ALIVE while the rule lives; deleting the rule sets it to the
 * deleting commit's generation - born. The rule first, then its place in
 * the chains (tried the other way round, the fields a walk reads first: no
 * faster, bench stages at 10,000 rules).
 */
#define DYNPF_SPAN_ALIVE (1ull << 62)

/*
 * A rule's quick test, made by the drain when it links the entry
 * (dynpf_qtest_make(), rules/quick.h): the exact fields it tests as a want
 * and a mask over the packet's quick word, its ranges as a start and a
 * span (x in lo..hi: x - lo <= span), and whether it tests more.
 */
struct dynpf_qtest {
	__u64 want;
	__u64 mask;
	__u16 sport_lo;
	__u16 sport_span;
	__u16 dport_lo;
	__u16 dport_span;
	__u8 ttl_lo;
	__u8 ttl_span;
	__u8 more; /* TLV or value tests, or fields beyond the quick ones */
	__u8 pad[5];
};

struct dynpf_rule_ent {
	struct dynpf_rule r;
	__u64 hash;  /* of the masked key and tuple: its bucket, compared first */
	__u64 born;  /* the first generation that sees it */
	__u64 span;  /* how many generations see it */
	__u32 next;  /* the next entry in the bucket's chain, 0 at the end */
	__u32 prev;  /* the one before it, 0: it heads the chain (the drain's own) */
	__u32 epoch; /* the reclaim epoch it was unlinked at */
	__u8 state;  /* DYNPF_ENT_* */
	__u8 tuple;  /* its tuple's slot, or DYNPF_TUPLE_ANY: a catch-all, on any_head */
	__u8 terminal;
	__u8 qdims;           /* the quick filters' dimensions its rule tests (rules/quick.h) */
	struct dynpf_qtest q; /* the rule's quick test */
};

#ifdef __cplusplus
#define DYNPF_CTRL_ASSERT(t, n) static_assert(sizeof(t) == (n), #t)
#else
#define DYNPF_CTRL_ASSERT(t, n) _Static_assert(sizeof(t) == (n), #t " size is ABI")
#endif
DYNPF_CTRL_ASSERT(struct dynpf_msg_hdr, 16);
DYNPF_CTRL_ASSERT(struct dynpf_tlv_test, 8);
DYNPF_CTRL_ASSERT(struct dynpf_val_test, 12);
DYNPF_CTRL_ASSERT(struct dynpf_data_test, 40);
DYNPF_CTRL_ASSERT(struct dynpf_match, 320);
DYNPF_CTRL_ASSERT(struct dynpf_rule, 352);
DYNPF_CTRL_ASSERT(struct dynpf_msg_rule_add, 368);
DYNPF_CTRL_ASSERT(struct dynpf_msg_rule_del, 24);
DYNPF_CTRL_ASSERT(struct dynpf_msg_txn, 16);
DYNPF_CTRL_ASSERT(struct dynpf_msg_set, 32);
DYNPF_CTRL_ASSERT(struct dynpf_msg_counter_reset, 24);
DYNPF_CTRL_ASSERT(struct dynpf_msg_proto_add, 96);
DYNPF_CTRL_ASSERT(struct dynpf_msg_proto_del, 24);
DYNPF_CTRL_ASSERT(struct dynpf_ack, 24);
DYNPF_CTRL_ASSERT(struct dynpf_ack_commit, 40);
DYNPF_CTRL_ASSERT(struct dynpf_drain_args, 48);
DYNPF_CTRL_ASSERT(struct dynpf_verdict, 52);
DYNPF_CTRL_ASSERT(struct dynpf_sample, 32);
DYNPF_CTRL_ASSERT(struct dynpf_qtest, 32);
DYNPF_CTRL_ASSERT(struct dynpf_rule_ent, 424);
DYNPF_CTRL_ASSERT(struct dynpf_state, 160);
DYNPF_CTRL_ASSERT(struct dynpf_trace_rec, sizeof(struct dynpf_pkt) + 56);

#endif /* DYNPF_CTRL_H */
