// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the rule benchmarks (issue 4).
 *
 * One copy of dynpf's programs is loaded with rule tables for
 * DYNPF_MAX_RULES ids (dynpf_size_rule_maps), trace off, and driven through
 * the control channel (loader/channel/ring.c) exactly as a producer would: begin,
 * adds, commit, flush. Then:
 *
 * Classification. The rule set grows by steps to each rule count (one
 * transaction per step, timed: the load of N rules is the sum of the steps).
 * At each count, the syn packet (eth/IPv4/TCP SYN with options) and the
 * ipv6-udp packet go through dynpf_xdp and dynpf_tc_ingress, interleaved
 * with the empty program, and the medians of the runs are reported, with the
 * ratio to the cost with 1 rule. The rules are generated here, one rule per
 * id, deterministically (the set of N rules is the first N-1 ids and the
 * catch-all): 20 kinds that cycle (IPv4 and IPv6 prefixes of lengths 16 to
 * 128, exact ports and port ranges, protocols, TCP flags, TTL, DSCP, TLV
 * tests: tcp option mss missing, ip6 exthdr routing and hopopts, the MSS
 * value), each kind one match mask, so 20 tuples and the catch-all's. No
 * rule matches the bench packets but the catch-all (id 131071, pass, the
 * last priority): every tuple is looked up for every packet. Eight rules
 * (ids 10, 20, ... 80) share the key of one of the packets and fail on a
 * range, flag, TLV or value test: those chains are walked and the rules
 * tested. The native reference (ctrl/match.h) checks this on every set, and
 * the verdict map that the catch-all decided.
 *
 * Updates. Transactions of 1, 64 and 4096 rule adds through the ring, each
 * flushed (drained, applied to both sides of the rule set, acked, one RCU
 * grace period), for at least BENCH_UPD_MS wall-clock per run: updates per
 * second. Beside them the raw map-write floor: the same number of 200-byte
 * values (the size of a rule entry in dynpf_rules) written into a
 * BPF_MAP_TYPE_ARRAY created here, with bpf_map_update_elem() one by one
 * and with one bpf_map_update_batch() (BPF_MAP_UPDATE_BATCH).
 *
 * Submit to effective. A drop rule for the syn packet in a transaction,
 * flushed, then test runs of the packet until one returns XDP_DROP: the
 * wall-clock time from the begin to that test run, with 1 rule loaded and
 * with the largest count.
 *
 * nft. Where nft is installed, the same rules translated to nft syntax and
 * loaded with `nft -f` into a table of a new network namespace, timed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench/bench_rules.h"
#include "channel/ring.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"
#include "match.h"
#include "native.h"
#include "lib/progs.h"
#include "lib/util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define RB_CATCHALL_ID (DYNPF_MAX_RULES - 1) /* pass, the last priority */
#define RB_DROP_ID (DYNPF_MAX_RULES - 2)     /* submit to effective */
#define RB_NKINDS 20			     /* kinds of generated rules */
#define RB_RUNS_MAX 1000u		     /* as bench.c's --runs */

#define BENCH_UPD_MS 100	/* wall-clock of one update-rate run, at least */
#define BENCH_UPD_MAX_IDS 32768 /* rules one update-rate run may add */
#define BENCH_EFF_SAMPLES 11	/* submit-to-effective samples per rule count */
#define BENCH_EFF_MAX_POLLS 100000

static const uint32_t upd_batches[] = { 1, 64, 4096 };
#define NBATCHES ARRAY_SIZE(upd_batches)

/* The hooks the rules are timed on. */
static const struct rb_hook {
	const char *name;
	uint32_t pass; /* the return value of a packet that passes */
	uint32_t drop;
} rb_hooks[] = {
	{ "xdp", 2 /* XDP_PASS */, 1 /* XDP_DROP */ },
	{ "tc", (uint32_t)-1 /* TC_ACT_UNSPEC */, 2 /* TC_ACT_SHOT */ },
};
#define NHOOKS ARRAY_SIZE(rb_hooks)
#define NSHAPES BENCH_RULES_NSHAPES

/* P_XDPFILT: xdp-filter's all-features program, on xdp only, where installed. */
enum { P_EMPTY, P_DYNPF, P_XDPFILT, NPROGS };

/* One rule count: its load and its classification figures. */
struct rb_set {
	uint32_t rules;
	uint32_t added;	   /* by this step's transaction */
	uint32_t tuples;   /* the commit ack's ntuples */
	double load_ms;	   /* this step: begin, adds, commit, flushed */
	double total_ms;   /* every step so far */
	uint32_t cand[NSHAPES]; /* rules whose key the packet has (chain walks) */
	uint32_t ns[NSHAPES][NHOOKS][NPROGS][RB_RUNS_MAX];
	double med[NSHAPES][NHOOKS][NPROGS];
};

struct rb_upd {
	uint32_t batch;
	double ring[RB_RUNS_MAX], elem[RB_RUNS_MAX], mbatch[RB_RUNS_MAX]; /* updates/s */
	double txn_us[RB_RUNS_MAX]; /* wall-clock per ring transaction */
	double med_ring, med_elem, med_batch, med_txn_us;
};

struct rb_eff {
	uint32_t rules;
	double us[BENCH_EFF_SAMPLES];	    /* begin to the first drop after the flush */
	double flush_us[BENCH_EFF_SAMPLES]; /* begin to the flush's return */
	double seen_us[BENCH_EFF_SAMPLES];  /* begin to the poller's first drop */
	double med_us, med_flush_us, min_us, max_us, med_seen_us;
	bool seen;			    /* a concurrent poller ran */
};

enum { NFT_ABSENT, NFT_OK, NFT_FAILED };

struct bench_rules {
	struct bench_rules_cfg cfg;
	double prog_load_ms; /* open, size and load of the programs */
	struct rb_set *set;  /* cfg.ncounts */
	struct rb_upd upd[NBATCHES];
	struct rb_eff eff[2];
	size_t neff;
	int poller_cpu;	     /* the concurrent poller's CPU, or -1: none */
	int nft;
	char nft_msg[256];
	char xf_path[256];   /* xdp-filter's object, "" when absent */
	char xf_msg[256];    /* why it is absent or did not load */
	double nft_ms[BENCH_RULES_MAX_COUNTS];
};

/*
 * A thread on another CPU that runs the packet through dynpf_xdp while it is
 * armed, and notes when the first test run returns the drop verdict: when
 * the commit flipped the rule set, which the producer's flush only reports
 * after the RCU grace period that follows.
 */
enum { POLL_IDLE, POLL_ARMED, POLL_SEEN, POLL_QUIT, POLL_ERROR };

struct rb_poller {
	pthread_t th;
	int fd;
	const uint8_t *pkt;
	uint32_t len;
	uint32_t drop;
	int state; /* POLL_*, __atomic */
	double t_seen;
};

/* The working state of one run. */
struct rb_ctx {
	struct bench_rules *res;
	const struct bench_rules_cfg *cfg;
	struct dynpf_bpf *skel;
	struct dynpf_ctrl c;
	int prog_fd[NHOOKS];
	int xf_fd; /* xdp-filter's program, or -1 */
	struct bpf_object *xf_obj;
	int ncpus;
	struct dynpf_pkt parsed[NSHAPES];
};

/* ---- the generated rules ------------------------------------------------- */

static void ip4(uint8_t *a, uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3)
{
	memset(a, 0, 16);
	a[0] = b0;
	a[1] = b1;
	a[2] = b2;
	a[3] = b3;
}

/* An IPv6 address from its first four 16-bit groups and its last one. */
static void ip6(uint8_t *a, uint32_t g0, uint32_t g1, uint32_t g2, uint32_t g3, uint32_t g7)
{
	memset(a, 0, 16);
	a[0] = g0 >> 8, a[1] = g0;
	a[2] = g1 >> 8, a[3] = g1;
	a[4] = g2 >> 8, a[5] = g2;
	a[6] = g3 >> 8, a[7] = g3;
	a[14] = g7 >> 8, a[15] = g7;
}

static void m_pfx(struct dynpf_rule *r, int dst, uint8_t family, const uint8_t *a, uint8_t plen)
{
	struct dynpf_match *m = &r->m;
	uint8_t mask[16], *out = dst ? m->dst : m->src;

	dynpf_prefix_mask(mask, plen);
	m->fields |= DYNPF_M_FAMILY | (dst ? DYNPF_M_DST : DYNPF_M_SRC);
	m->family = family;
	if (dst)
		m->dst_plen = plen;
	else
		m->src_plen = plen;
	for (int i = 0; i < 16; i++)
		out[i] = a[i] & mask[i];
}

static void m_proto(struct dynpf_rule *r, uint8_t proto)
{
	r->m.fields |= DYNPF_M_PROTO;
	r->m.proto = proto;
}

/* tcp or udp sport/dport lo-hi: the protocol, implied as in the language. */
static void m_port(struct dynpf_rule *r, uint8_t proto, int dport, uint16_t lo, uint16_t hi)
{
	m_proto(r, proto);
	if (dport) {
		r->m.fields |= DYNPF_M_DPORT;
		r->m.dport_lo = lo;
		r->m.dport_hi = hi;
	} else {
		r->m.fields |= DYNPF_M_SPORT;
		r->m.sport_lo = lo;
		r->m.sport_hi = hi;
	}
}

static void m_flags(struct dynpf_rule *r, uint8_t flags, uint8_t mask)
{
	m_proto(r, 6);
	r->m.fields |= DYNPF_M_TCP_FLAGS;
	r->m.tcp_flags = flags;
	r->m.tcp_flags_mask = mask;
}

static void m_tlv(struct dynpf_rule *r, uint8_t family, uint32_t type, uint8_t neg)
{
	struct dynpf_tlv_test *t = &r->m.tlv[r->m.ntlv++];

	t->family = family;
	t->type = type;
	t->neg = neg;
}

static void m_val(struct dynpf_rule *r, uint8_t field, uint32_t lo, uint32_t hi)
{
	struct dynpf_val_test *t = &r->m.val[r->m.nval++];

	t->field = field;
	t->lo = lo;
	t->hi = hi;
}

static void m_ttl(struct dynpf_rule *r, uint8_t lo, uint8_t hi)
{
	r->m.fields |= DYNPF_M_TTL;
	r->m.ttl_lo = lo;
	r->m.ttl_hi = hi;
}

static void m_dscp(struct dynpf_rule *r, uint8_t dscp)
{
	r->m.fields |= DYNPF_M_DSCP;
	r->m.dscp = dscp;
}

/*
 * The rules sharing a key with a bench packet, and failing on what is not
 * in the key. syn: 198.18.0.1 > 198.19.0.1, TCP 40000 > 80, SYN, TTL 64,
 * MSS 1460. ipv6-udp: 2001:db8::1 > 2001:db8::2, UDP 40001 > 53, DSCP 0, no
 * extension headers. Each has the mask of one of the 20 kinds.
 */
static bool gen_near_miss(uint32_t id, struct dynpf_rule *r)
{
	uint8_t a[16];

	if (id % 10 || id < 10 || id > 80)
		return false;
	switch (id / 10) {
	case 1: /* ip saddr 198.18.0.0/24 ttl 1-2 drop (kind 0's mask) */
		ip4(a, 198, 18, 0, 0);
		m_pfx(r, 0, 4, a, 24);
		m_ttl(r, 1, 2);
		break;
	case 2: /* tcp dport 80 tcp flags fin / fin drop (kind 8) */
		m_port(r, 6, 1, 80, 80);
		m_flags(r, 0x01, 0x01);
		break;
	case 3: /* ip daddr 198.19.0.1 tcp dport 80 tcp mss 1-535 drop (kind 11) */
		ip4(a, 198, 19, 0, 1);
		m_pfx(r, 1, 4, a, 32);
		m_port(r, 6, 1, 80, 80);
		m_val(r, DYNPF_V_MSS, 1, 535);
		break;
	case 4: /* ip saddr 198.18.0.0/28 tcp flags syn / syn,ack tcp option mss missing (10) */
		ip4(a, 198, 18, 0, 0);
		m_pfx(r, 0, 4, a, 28);
		m_flags(r, 0x02, 0x12);
		m_tlv(r, DYNPF_TLV_TCP_OPT, 2, 1);
		break;
	case 5: /* ip6 saddr 2001:db8::1 ip6 exthdr routing drop (kind 7) */
		ip6(a, 0x2001, 0xdb8, 0, 0, 1);
		m_pfx(r, 0, 6, a, 128);
		m_tlv(r, DYNPF_TT_EXT, 43, 0);
		break;
	case 6: /* ip6 saddr 2001:db8::/56 udp sport 1000-1999 drop (kind 6) */
		ip6(a, 0x2001, 0xdb8, 0, 0, 0);
		m_pfx(r, 0, 6, a, 56);
		m_port(r, 17, 0, 1000, 1999);
		break;
	case 7: /* ip6 daddr 2001:db8::/40 ip6 exthdr hopopts drop (kind 13) */
		ip6(a, 0x2001, 0xdb8, 0, 0, 0);
		m_pfx(r, 1, 6, a, 40);
		m_tlv(r, DYNPF_TT_EXT, 0, 0);
		break;
	case 8: /* udp sport 40001 dscp 46 drop (kind 9) */
		m_port(r, 17, 0, 40001, 40001);
		m_dscp(r, 46);
		break;
	}
	return true;
}

/*
 * Rule id of a generated set: kind id % 20, and k = id / 20 picks its
 * addresses and ports, distinct within a kind, so the rules of a kind spread
 * over distinct keys (short chains). None covers the bench packets'
 * addresses (198.18.0.0/15, 2001:db8::/32) or ports.
 */
static void gen_rule(uint32_t id, struct dynpf_rule *r)
{
	uint32_t k = id / RB_NKINDS;
	uint8_t a[16], b[16];

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->prio = id;
	r->action = DYNPF_ACT_DROP;
	if (id == RB_CATCHALL_ID) {
		r->action = DYNPF_ACT_PASS; /* no match: every packet */
		return;
	}
	if (gen_near_miss(id, r))
		return;
	switch (id % RB_NKINDS) {
	case 0: /* ip saddr 10.K.K.0/24 drop */
		ip4(a, 10, k >> 8, k, 0);
		m_pfx(r, 0, 4, a, 24);
		break;
	case 1: /* ip saddr 100.64.K.K tcp dport 22 pass */
		ip4(a, 100, 64 + (k >> 16), k >> 8, k);
		m_pfx(r, 0, 4, a, 32);
		m_port(r, 6, 1, 22, 22);
		r->action = DYNPF_ACT_PASS;
		break;
	case 2: /* ip daddr K.K.0.0/16 tcp dport 1024-2047 (a range of 1024) drop */
		ip4(a, 20 + (k >> 8), k, 0, 0);
		m_pfx(r, 1, 4, a, 16);
		m_port(r, 6, 1, 1024 * (1 + k % 8), 1024 * (1 + k % 8) + 1023);
		break;
	case 3: /* ip saddr 11.K.K0.0/20 udp dport 53 drop */
		ip4(a, 11 + (k >> 12), k >> 4, (k & 15) << 4, 0);
		m_pfx(r, 0, 4, a, 20);
		m_port(r, 17, 1, 53, 53);
		break;
	case 4: /* ip6 saddr 2a00:0:K::/48 drop */
		ip6(a, 0x2a00, 0, k, 0, 0);
		m_pfx(r, 0, 6, a, 48);
		break;
	case 5: /* ip6 daddr 2a01:0:0:K::/64 tcp dport 443 pass */
		ip6(a, 0x2a01, 0, 0, k, 0);
		m_pfx(r, 1, 6, a, 64);
		m_port(r, 6, 1, 443, 443);
		r->action = DYNPF_ACT_PASS;
		break;
	case 6: /* ip6 saddr 2a02:0:K::/56 udp sport 1000-1999 drop */
		ip6(a, 0x2a02, 0, k, 0, 0);
		m_pfx(r, 0, 6, a, 56);
		m_port(r, 17, 0, 1000, 1999);
		break;
	case 7: /* ip6 saddr 2a03::K ip6 exthdr routing drop */
		ip6(a, 0x2a03, 0, 0, 0, k);
		m_pfx(r, 0, 6, a, 128);
		m_tlv(r, DYNPF_TT_EXT, 43, 0);
		break;
	case 8: /* tcp dport K drop */
		m_port(r, 6, 1, 1024 + k, 1024 + k);
		break;
	case 9: /* udp sport K drop */
		m_port(r, 17, 0, 10000 + k, 10000 + k);
		break;
	case 10: /* ip saddr 13.K.K.0/28 tcp flags syn / syn,ack tcp option mss missing drop */
		ip4(a, 13, k >> 8, k, 0);
		m_pfx(r, 0, 4, a, 28);
		m_flags(r, 0x02, 0x12);
		m_tlv(r, DYNPF_TLV_TCP_OPT, 2, 1);
		break;
	case 11: /* ip daddr 14.K.K.K tcp dport 8080 tcp mss 1-535 drop */
		ip4(a, 14, k >> 16, k >> 8, k);
		m_pfx(r, 1, 4, a, 32);
		m_port(r, 6, 1, 8080, 8080);
		m_val(r, DYNPF_V_MSS, 1, 535);
		break;
	case 12: /* ip saddr 15.K.K.0/18 proto gre drop */
		ip4(a, 15 + (k >> 10), k >> 2, (k & 3) << 6, 0);
		m_pfx(r, 0, 4, a, 18);
		m_proto(r, 47);
		break;
	case 13: /* ip6 daddr 2a04:K::/40 ip6 exthdr hopopts drop */
		ip6(a, 0x2a04, k, 0, 0, 0);
		m_pfx(r, 1, 6, a, 40);
		m_tlv(r, DYNPF_TT_EXT, 0, 0);
		break;
	case 14: /* ip saddr 26.K.K.0/24 ip daddr 27.K.K.0/24 tcp dport 3306 pass */
		ip4(a, 26, k >> 8, k, 0);
		ip4(b, 27, k >> 8, k, 0);
		m_pfx(r, 0, 4, a, 24);
		m_pfx(r, 1, 4, b, 24);
		m_port(r, 6, 1, 3306, 3306);
		r->action = DYNPF_ACT_PASS;
		break;
	case 15: /* ip saddr 23.K.K.0/22 ttl 1-2 drop */
		ip4(a, 23, k >> 6, (k & 63) << 2, 0);
		m_pfx(r, 0, 4, a, 22);
		m_ttl(r, 1, 2);
		break;
	case 16: /* ip saddr 24.K.K.K proto icmp drop */
		ip4(a, 24, k >> 16, k >> 8, k);
		m_pfx(r, 0, 4, a, 32);
		m_proto(r, 1);
		break;
	case 17: /* ip6 saddr 2a05:0:0:K::/64 proto esp drop */
		ip6(a, 0x2a05, 0, 0, k, 0);
		m_pfx(r, 0, 6, a, 64);
		m_proto(r, 50);
		break;
	case 18: /* ip6 saddr 2a06:0:K::/48 ip6 daddr 2a07:0:K::/48 tcp dport 22 pass */
		ip6(a, 0x2a06, 0, k, 0, 0);
		ip6(b, 0x2a07, 0, k, 0, 0);
		m_pfx(r, 0, 6, a, 48);
		m_pfx(r, 1, 6, b, 48);
		m_port(r, 6, 1, 22, 22);
		r->action = DYNPF_ACT_PASS;
		break;
	case 19: /* ip daddr 25.K.K.0/24 dscp 46 pass */
		ip4(a, 25, k >> 8, k, 0);
		m_pfx(r, 1, 4, a, 24);
		m_dscp(r, 46);
		r->action = DYNPF_ACT_PASS;
		break;
	}
}

/* The drop rule of submit to effective: the syn packet's flow. */
static void gen_drop_rule(struct dynpf_rule *r)
{
	uint8_t a[16];

	memset(r, 0, sizeof(*r));
	r->id = RB_DROP_ID;
	r->prio = 0;
	r->action = DYNPF_ACT_DROP;
	ip4(a, 198, 18, 0, 1);
	m_pfx(r, 0, 4, a, 32);
	m_port(r, 6, 1, 80, 80);
}

/* The ids of the set of n rules, in priority order: 1 .. n-1, the catch-all. */
static uint32_t set_id(uint32_t n, uint32_t i)
{
	return i + 1 < n ? i + 1 : RB_CATCHALL_ID;
}

void bench_rules_gen(uint32_t id, struct dynpf_rule *r)
{
	gen_rule(id, r);
}

uint32_t bench_rules_set_id(uint32_t n, uint32_t i)
{
	return set_id(n, i);
}

_Static_assert(BENCH_RULES_CATCHALL_ID == RB_CATCHALL_ID, "one catch-all id");

/* ---- the control channel -------------------------------------------------- */

int bench_say_refusal(const struct dynpf_ctrl *c, const char *who, const char *what)
{
	for (size_t i = 0; i < c->nack; i++) {
		const struct dynpf_ack *a = &c->ack[i].a;

		if (a->err) {
			p_err("%s: %s: %s (seq %llu) refused: %s, field %s", who, what,
			      dynpf_msg_name(a->type), (unsigned long long)a->seq,
			      strerror(-a->err), dynpf_field_name(a->field));
			return a->err;
		}
	}
	p_err("%s: %s: the commit was not acked", who, what);
	return -EPROTO;
}

static int say_refusal(const struct dynpf_ctrl *c, const char *what)
{
	return bench_say_refusal(c, "bench", what);
}

int bench_commit(struct dynpf_ctrl *c, const char *who, const char *what,
		 struct dynpf_ack_commit *ack)
{
	const struct dynpf_ack_commit *a;
	uint64_t seq;
	int err;

	err = dynpf_ctrl_commit(c, &seq);
	err = err ?: dynpf_ctrl_flush(c);
	if (err)
		return err; /* said by the library */
	a = dynpf_ctrl_ack(c, seq);
	if (!a || a->a.err)
		return bench_say_refusal(c, who, what);
	if (ack)
		*ack = *a;
	return 0;
}

/*
 * One transaction: add the rules of ids[0 .. n-1] (gen_rule), or delete
 * them; flushed. The commit's ack in *ack.
 */
static int rb_txn(struct rb_ctx *x, uint32_t n, uint32_t (*id_of)(uint32_t, uint32_t),
		  uint32_t arg, bool del, struct dynpf_ack_commit *ack, const char *what)
{
	struct dynpf_rule r;
	int err;

	dynpf_ctrl_take(&x->c);
	err = dynpf_ctrl_begin(&x->c, NULL);
	for (uint32_t i = 0; !err && i < n; i++) {
		uint32_t id = id_of(arg, i);

		if (del) {
			err = dynpf_ctrl_del(&x->c, id, NULL);
		} else {
			gen_rule(id, &r);
			err = dynpf_ctrl_add(&x->c, &r, NULL);
		}
	}
	return err ?: bench_commit(&x->c, "bench", what, ack);
}

/* Ids from arg: arg + i. */
static uint32_t id_from(uint32_t arg, uint32_t i)
{
	return arg + i;
}

/* ---- classification --------------------------------------------------------- */

static int test_run(int fd, const uint8_t *pkt, uint32_t len, uint32_t repeat, uint32_t *ret,
		    uint32_t *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len, .repeat = repeat);

	if (bpf_prog_test_run_opts(fd, &o)) {
		int err = -errno;

		p_err("bench: BPF_PROG_TEST_RUN failed: %s", strerror(-err));
		return err;
	}
	*ret = o.retval;
	if (ns)
		*ns = o.duration;
	return 0;
}

/* The verdict of the last packet on our CPU (dynpf_verdicts, per CPU). */
static int read_verdict(struct rb_ctx *x, struct dynpf_verdict *v)
{
	size_t stride = (sizeof(*v) + 7) & ~(size_t)7;
	char *all = calloc(x->ncpus, stride);
	uint32_t zero = 0;
	int err = 0;

	if (!all)
		return -ENOMEM;
	if (bpf_map__lookup_elem(x->skel->maps.dynpf_verdicts, &zero, sizeof(zero), all,
				 x->ncpus * stride, 0))
		err = -errno;
	else
		memcpy(v, all + (size_t)x->cfg->cpu * stride, sizeof(*v));
	free(all);
	return err;
}

/*
 * The set of n rules as the native reference sees it: how many rules have
 * the packet's key under their mask (the chain entries a packet walks), and
 * which rule decides. The catch-all must, or the bench measures something
 * else than it says.
 */
static int check_set(struct rb_ctx *x, struct rb_set *s)
{
	for (size_t sh = 0; sh < NSHAPES; sh++) {
		const struct dynpf_pkt *p = &x->parsed[sh];
		struct dynpf_key pk[DYNPF_MAX_STACKS], k, mask, km;
		struct dynpf_rule r, best = { 0 };
		struct dynpf_cls_view view;
		uint32_t cand = 0;

		dynpf_cls_view_init(&view, p);
		for (uint32_t st = 0; st < DYNPF_MAX_STACKS; st++)
			dynpf_pkt_key(&pk[st], p, &view, st);
		for (uint32_t i = 0; i < s->rules; i++) {
			gen_rule(set_id(s->rules, i), &r);
			dynpf_rule_key(&r, &k, &mask);
			dynpf_key_and(&km, &pk[r.m.stack & 1], &mask);
			if (dynpf_key_eq(&km, &k))
				cand++;
			if (dynpf_act_terminal(r.action) && dynpf_rule_match(&r, p, &view) &&
			    (!best.id || r.prio < best.prio ||
			     (r.prio == best.prio && r.id < best.id)))
				best = r;
		}
		s->cand[sh] = cand;
		if (s->rules && best.id != RB_CATCHALL_ID) {
			p_err("bench: the %s packet matches rule %u of the generated set of %u, "
			      "not only the catch-all",
			      x->cfg->shape[sh].name, best.id, s->rules);
			return -EPROTO;
		}
	}
	return 0;
}

/* Each packet once through each program: the verdict is the catch-all's. */
static int warm_and_check(struct rb_ctx *x, const struct rb_set *s)
{
	const struct bench_rules_cfg *cfg = x->cfg;
	struct dynpf_verdict v = { 0 };
	uint32_t ret;
	int err;

	for (size_t sh = 0; sh < NSHAPES; sh++) {
		for (size_t h = 0; h < NHOOKS; h++) {
			err = test_run(x->prog_fd[h], cfg->shape[sh].pkt, cfg->shape[sh].len, 1,
				       &ret, NULL);
			if (err)
				return err;
			if (ret != rb_hooks[h].pass) {
				p_err("bench: with %u rules, %s on %s returned %d, expected %d",
				      s->rules, cfg->shape[sh].name, rb_hooks[h].name, (int)ret,
				      (int)rb_hooks[h].pass);
				return -EPROTO;
			}
			if (cfg->cpu < 0)
				continue; /* which CPU's verdict: unknown */
			err = read_verdict(x, &v);
			if (err) {
				p_err("bench: cannot read the verdict: %s", strerror(-err));
				return err;
			}
			if (v.rule != (s->rules ? RB_CATCHALL_ID : 0u)) {
				p_err("bench: with %u rules, %s on %s was decided by rule %u, "
				      "not the catch-all",
				      s->rules, cfg->shape[sh].name, rb_hooks[h].name, v.rule);
				return -EPROTO;
			}
		}
	}
	return 0;
}

/* The packets through empty and dynpf, interleaved, `runs` times. */
static int time_set(struct rb_ctx *x, struct rb_set *s)
{
	const struct bench_rules_cfg *cfg = x->cfg;
	uint32_t ret;
	int err;

	err = warm_and_check(x, s);
	if (err)
		return err;
	pr_info("bench: %u rules: %u runs of %u\n", s->rules, cfg->runs, cfg->repeat);
	for (uint32_t r = 0; r < cfg->runs; r++) {
		for (size_t sh = 0; sh < NSHAPES; sh++) {
			for (size_t h = 0; h < NHOOKS; h++) {
				int fd[NPROGS] = { cfg->empty_fd[h], x->prog_fd[h],
						   h == 0 ? x->xf_fd : -1 };

				for (int p = 0; p < NPROGS; p++) {
					if (fd[p] < 0)
						continue;
					err = test_run(fd[p], cfg->shape[sh].pkt,
						       cfg->shape[sh].len, cfg->repeat, &ret,
						       &s->ns[sh][h][p][r]);
					if (err)
						return err;
					if (ret != rb_hooks[h].pass) {
						p_err("bench: a program returned %d, expected %d",
						      (int)ret, (int)rb_hooks[h].pass);
						return -EPROTO;
					}
				}
			}
		}
	}
	for (size_t sh = 0; sh < NSHAPES; sh++)
		for (size_t h = 0; h < NHOOKS; h++)
			for (int p = 0; p < NPROGS; p++)
				s->med[sh][h][p] = dynpf_median_u32(s->ns[sh][h][p], cfg->runs);
	return 0;
}

/*
 * xdp-filter's program with every feature compiled in (ethernet, IPv4, IPv6,
 * TCP, UDP; "alw": a packet no rule matches passes, as here), as Debian's
 * libxdp1 ships it, loaded with libbpf alone (no dispatcher) and run on the
 * same packets: a filter users know, which parses less than dynpf does.
 */
static void xdpfilter_open(struct rb_ctx *x)
{
	static const char *const paths[] = {
		"/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_alw_all.o",
		"/usr/lib/aarch64-linux-gnu/bpf/xdpfilt_alw_all.o",
		"/usr/lib/bpf/xdpfilt_alw_all.o",
		"/usr/local/lib/bpf/xdpfilt_alw_all.o",
	};
	struct bench_rules *res = x->res;
	struct bpf_program *prog;
	struct bpf_map *map;
	int err;

	x->xf_fd = -1;
	for (size_t i = 0; i < ARRAY_SIZE(paths) && !res->xf_path[0]; i++)
		if (!access(paths[i], R_OK))
			snprintf(res->xf_path, sizeof(res->xf_path), "%s", paths[i]);
	if (!res->xf_path[0]) {
		snprintf(res->xf_msg, sizeof(res->xf_msg),
			 "xdpfilt_alw_all.o not found (Debian: package libxdp1)");
		return;
	}
	x->xf_obj = bpf_object__open_file(res->xf_path, NULL);
	err = libbpf_get_error(x->xf_obj);
	if (err) {
		x->xf_obj = NULL;
		snprintf(res->xf_msg, sizeof(res->xf_msg), "cannot open it: %s", strerror(-err));
		return;
	}
	/* Its maps ask to be pinned by name under /sys/fs/bpf: not here. */
	bpf_object__for_each_map(map, x->xf_obj)
		bpf_map__set_pin_path(map, NULL);
	/* The object may hold more than the filter (libxdp's metadata): the XDP one. */
	bpf_object__for_each_program(prog, x->xf_obj)
		bpf_program__set_autoload(prog, bpf_program__type(prog) == BPF_PROG_TYPE_XDP);
	err = bpf_object__load(x->xf_obj);
	if (err) {
		snprintf(res->xf_msg, sizeof(res->xf_msg), "cannot load it: %s", strerror(-err));
		return;
	}
	bpf_object__for_each_program(prog, x->xf_obj)
		if (bpf_program__type(prog) == BPF_PROG_TYPE_XDP && x->xf_fd < 0)
			x->xf_fd = bpf_program__fd(prog);
	if (x->xf_fd < 0)
		snprintf(res->xf_msg, sizeof(res->xf_msg), "no XDP program in it");
}

/* Grow the rule set from prev rules to s->rules in one transaction, timed. */
static int load_step(struct rb_ctx *x, uint32_t prev, struct rb_set *s, double total_before)
{
	struct dynpf_ack_commit ack;
	char what[64];
	double t0, t1;
	int err;

	s->added = s->rules - prev;
	s->total_ms = total_before;
	if (!s->added)
		return 0;
	snprintf(what, sizeof(what), "loading %u rules", s->rules);
	t0 = dynpf_now() * 1e3;
	if (prev == 0) /* the catch-all first: the set of 1 */
		err = rb_txn(x, 1, id_from, RB_CATCHALL_ID, false, &ack, what);
	else /* then ids prev .. rules-1 */
		err = rb_txn(x, s->added, id_from, prev, false, &ack, what);
	t1 = dynpf_now() * 1e3;
	if (err)
		return err;
	if (ack.nrules != s->rules) {
		p_err("bench: after %s, the commit ack says %u rules", what, ack.nrules);
		return -EPROTO;
	}
	s->tuples = ack.ntuples;
	s->load_ms = t1 - t0;
	s->total_ms += s->load_ms;
	pr_info("bench: %u rules loaded (+%u in %.1f ms), %u tuples\n", s->rules, s->added,
		s->load_ms, s->tuples);
	return 0;
}

/* ---- updates per second ------------------------------------------------------ */

#define FLOOR_VALUE ((int)sizeof(struct dynpf_rule_ent))

/* Ring transactions of b adds, for at least BENCH_UPD_MS: updates/s. */
static int upd_ring(struct rb_ctx *x, uint32_t b, double *rate, double *txn_us)
{
	uint32_t next = 1, txns = 0;
	double t0, t1;
	int err;

	t0 = dynpf_now() * 1e3;
	do {
		err = rb_txn(x, b, id_from, next, false, NULL, "an update transaction");
		if (err)
			return err;
		next += b;
		txns++;
		t1 = dynpf_now() * 1e3;
	} while (t1 - t0 < BENCH_UPD_MS && next + b <= BENCH_UPD_MAX_IDS);
	*rate = (next - 1) / ((t1 - t0) / 1e3);
	*txn_us = (t1 - t0) * 1e3 / txns;
	/* Back to no rules, untimed. */
	return rb_txn(x, next - 1, id_from, 1, true, NULL, "deleting the update rules");
}

/* The floor: b values with bpf_map_update_elem(), or one batch, repeated. */
static int upd_floor(int fd, const uint32_t *keys, const uint8_t *vals, uint32_t b, bool batch,
		     double *rate)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bo, .elem_flags = BPF_ANY);
	uint32_t done = 0;
	double t0, t1;

	t0 = dynpf_now() * 1e3;
	do {
		if (batch) {
			uint32_t count = b;

			if (bpf_map_update_batch(fd, keys + done % BENCH_UPD_MAX_IDS, vals,
						 &count, &bo) ||
			    count != b) {
				int err = errno ? -errno : -EIO;

				p_err("bench: bpf_map_update_batch of %u values: %s", b,
				      strerror(-err));
				return err;
			}
		} else {
			for (uint32_t i = 0; i < b; i++) {
				if (bpf_map_update_elem(fd, &keys[(done + i) % BENCH_UPD_MAX_IDS],
							vals + (size_t)i * FLOOR_VALUE, BPF_ANY)) {
					int err = -errno;

					p_err("bench: bpf_map_update_elem: %s", strerror(-err));
					return err;
				}
			}
		}
		done += b;
		t1 = dynpf_now() * 1e3;
	} while (t1 - t0 < BENCH_UPD_MS);
	*rate = done / ((t1 - t0) / 1e3);
	return 0;
}

static int bench_updates(struct rb_ctx *x)
{
	uint32_t maxb = upd_batches[NBATCHES - 1], *keys;
	uint8_t *vals;
	int fd, err = 0;

	keys = calloc(BENCH_UPD_MAX_IDS + maxb, sizeof(*keys));
	vals = calloc(maxb, FLOOR_VALUE);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bench_floor", sizeof(uint32_t), FLOOR_VALUE,
			    BENCH_UPD_MAX_IDS + maxb, NULL);
	if (!keys || !vals || fd < 0) {
		err = fd < 0 ? -errno : -ENOMEM;
		p_err("bench: cannot create the floor's array map: %s", strerror(-err));
		goto out;
	}
	for (uint32_t i = 0; i < BENCH_UPD_MAX_IDS + maxb; i++)
		keys[i] = i;
	for (uint32_t i = 0; i < maxb; i++)
		gen_rule(i + 1, (struct dynpf_rule *)(vals + (size_t)i * FLOOR_VALUE));

	for (size_t k = 0; k < NBATCHES; k++) {
		struct rb_upd *u = &x->res->upd[k];

		u->batch = upd_batches[k];
		pr_info("bench: updates in batches of %u: %u runs\n", u->batch, x->cfg->runs);
		for (uint32_t r = 0; r < x->cfg->runs; r++) {
			err = upd_ring(x, u->batch, &u->ring[r], &u->txn_us[r]);
			err = err ?: upd_floor(fd, keys, vals, u->batch, false, &u->elem[r]);
			err = err ?: upd_floor(fd, keys, vals, u->batch, true, &u->mbatch[r]);
			if (err)
				goto out;
		}
		u->med_ring = dynpf_median(u->ring, x->cfg->runs);
		u->med_txn_us = dynpf_median(u->txn_us, x->cfg->runs);
		u->med_elem = dynpf_median(u->elem, x->cfg->runs);
		u->med_batch = dynpf_median(u->mbatch, x->cfg->runs);
	}
out:
	if (fd >= 0)
		close(fd);
	free(keys);
	free(vals);
	return err;
}

/* ---- submit to effective ------------------------------------------------------ */

static void *poller_main(void *arg)
{
	struct rb_poller *p = arg;

	for (;;) {
		int st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p->pkt, .data_size_in = p->len,
			    .repeat = 1);

		if (st == POLL_QUIT)
			return NULL;
		if (st != POLL_ARMED) {
			sched_yield();
			continue;
		}
		if (bpf_prog_test_run_opts(p->fd, &o)) {
			__atomic_store_n(&p->state, POLL_ERROR, __ATOMIC_RELEASE);
			continue;
		}
		if (o.retval == p->drop) {
			p->t_seen = dynpf_now() * 1e3;
			__atomic_compare_exchange_n(&p->state, &st, POLL_SEEN, false,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		}
	}
}

/* A poller on a CPU other than ours; -1 and no thread when there is none. */
static int poller_start(struct rb_ctx *x, struct rb_poller *p)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (x->cfg->cpu < 0 || ncpu < 2)
		return -1;
	p->fd = x->prog_fd[0];
	p->pkt = x->cfg->shape[0].pkt;
	p->len = x->cfg->shape[0].len;
	p->drop = rb_hooks[0].drop;
	p->state = POLL_IDLE;
	if (pthread_create(&p->th, NULL, poller_main, p))
		return -1;
	for (long c = 1; c < ncpu; c++) {
		int cpu = (x->cfg->cpu + c) % ncpu;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (!pthread_setaffinity_np(p->th, sizeof(set), &set))
			return cpu;
	}
	__atomic_store_n(&p->state, POLL_QUIT, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
	return -1;
}

static void poller_stop(struct rb_poller *p)
{
	__atomic_store_n(&p->state, POLL_QUIT, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
}

static uint32_t id_drop(uint32_t arg, uint32_t i)
{
	(void)arg;
	(void)i;
	return RB_DROP_ID;
}

/*
 * One sample: the drop rule in a transaction, flushed, then test runs until
 * one drops the packet; with a poller, when it saw the drop first. Then the
 * rule is deleted again, untimed.
 */
static int effective_once(struct rb_ctx *x, struct rb_poller *pl, double *us, double *flush_us)
{
	const uint8_t *pkt = x->cfg->shape[0].pkt;
	uint32_t len = x->cfg->shape[0].len, ret, polls = 0;
	const struct dynpf_ack_commit *a;
	struct dynpf_rule r;
	double t0, t1, t2, tw;
	uint64_t seq;
	int err;

	gen_drop_rule(&r);
	dynpf_ctrl_take(&x->c);
	if (pl)
		__atomic_store_n(&pl->state, POLL_ARMED, __ATOMIC_RELEASE);
	t0 = dynpf_now() * 1e3;
	err = dynpf_ctrl_begin(&x->c, NULL);
	err = err ?: dynpf_ctrl_add(&x->c, &r, NULL);
	err = err ?: dynpf_ctrl_commit(&x->c, &seq);
	err = err ?: dynpf_ctrl_flush(&x->c);
	t1 = dynpf_now() * 1e3;
	if (err)
		return err;
	do {
		err = test_run(x->prog_fd[0], pkt, len, 1, &ret, NULL);
		if (err)
			return err;
		polls++;
	} while (ret != rb_hooks[0].drop && polls < BENCH_EFF_MAX_POLLS);
	t2 = dynpf_now() * 1e3;
	a = dynpf_ctrl_ack(&x->c, seq);
	if (!a || a->a.err)
		return say_refusal(&x->c, "adding the drop rule");
	if (ret != rb_hooks[0].drop) {
		p_err("bench: the drop rule was acked but %u test runs still pass", polls);
		return -EPROTO;
	}
	*us = (t2 - t0) * 1e3;
	*flush_us = (t1 - t0) * 1e3;
	if (pl) {
		/* It has seen it, or sees it at its next test run. */
		for (tw = dynpf_now() * 1e3; (dynpf_now() * 1e3) - tw < 1000;)
			if (__atomic_load_n(&pl->state, __ATOMIC_ACQUIRE) != POLL_ARMED)
				break;
		if (__atomic_load_n(&pl->state, __ATOMIC_ACQUIRE) != POLL_SEEN) {
			p_err("bench: the poller did not see the drop rule");
			return -EPROTO;
		}
		*us = (pl->t_seen - t0) * 1e3;
		__atomic_store_n(&pl->state, POLL_IDLE, __ATOMIC_RELEASE);
	}
	err = rb_txn(x, 1, id_drop, 0, true, NULL, "deleting the drop rule");
	err = err ?: test_run(x->prog_fd[0], pkt, len, 1, &ret, NULL);
	if (err)
		return err;
	if (ret != rb_hooks[0].pass) {
		p_err("bench: the drop rule was deleted but the packet is still dropped");
		return -EPROTO;
	}
	return 0;
}

/*
 * The samples as the producer sees them (flush, then poll), then, where
 * there is another CPU, the same with a poller there: apart, because the
 * poller's test runs make the grace period in the flush longer.
 */
static int bench_effective(struct rb_ctx *x, uint32_t rules, struct rb_eff *e)
{
	struct rb_poller pl;
	double unused;
	int pcpu, err = 0;

	e->rules = rules;
	for (int i = 0; !err && i < BENCH_EFF_SAMPLES; i++)
		err = effective_once(x, NULL, &e->us[i], &e->flush_us[i]);
	if (err)
		return err;
	e->med_us = dynpf_median(e->us, BENCH_EFF_SAMPLES);
	e->med_flush_us = dynpf_median(e->flush_us, BENCH_EFF_SAMPLES);
	e->min_us = e->max_us = e->us[0];
	for (int i = 1; i < BENCH_EFF_SAMPLES; i++) {
		if (e->us[i] < e->min_us)
			e->min_us = e->us[i];
		if (e->us[i] > e->max_us)
			e->max_us = e->us[i];
	}
	pcpu = poller_start(x, &pl);
	x->res->poller_cpu = pcpu;
	if (pcpu >= 0) {
		for (int i = 0; !err && i < BENCH_EFF_SAMPLES; i++)
			err = effective_once(x, &pl, &e->seen_us[i], &unused);
		poller_stop(&pl);
		if (err)
			return err;
		e->seen = true;
		e->med_seen_us = dynpf_median(e->seen_us, BENCH_EFF_SAMPLES);
	}
	pr_info("bench: submit to effective with %u rules: %.0f us (a poller saw it at %.0f us)\n",
		rules, e->med_us, e->med_seen_us);
	return 0;
}

/* ---- nft ------------------------------------------------------------------------ */

/* Is an executable name in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir[4096];

	if (!path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, n ? path : ".", name);
		if (access(dir, X_OK) == 0)
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/*
 * Run argv, its output thrown away but for the first line of its standard
 * error (in msg). The exit status, or -errno.
 */
static int run_cmd(char *const argv[], char *msg, size_t msglen)
{
	int pfd[2], status;
	char rest[256];
	ssize_t n;
	pid_t pid;

	msg[0] = 0;
	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], msg, msglen - 1);
	msg[n > 0 ? n : 0] = 0;
	msg[strcspn(msg, "\n")] = 0;
	while (read(pfd[0], rest, sizeof(rest)) > 0)
		; /* the rest of it */
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static const char *nft_ext(uint32_t type)
{
	switch (type) {
	case 0:
		return "hbh";
	case 43:
		return "rt";
	case 44:
		return "frag";
	case 60:
		return "dst";
	}
	return NULL;
}

/* A growing line of nft words. */
struct nft_line {
	char b[512];
	size_t n;
};

static void __attribute__((format(printf, 2, 3))) nft_put(struct nft_line *l, const char *fmt,
							 ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->b))
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += k;
}

static void nft_addr(struct nft_line *l, const struct dynpf_match *m, const char *dir,
		     const uint8_t *a, uint8_t plen)
{
	if (m->family == 4) {
		nft_put(l, " ip %s %u.%u.%u.%u/%u", dir, a[0], a[1], a[2], a[3], plen);
		return;
	}
	nft_put(l, " ip6 %s ", dir);
	for (int i = 0; i < 16; i += 2)
		nft_put(l, "%s%x", i ? ":" : "", a[i] << 8 | a[i + 1]);
	nft_put(l, "/%u", plen);
}

static void nft_range(struct nft_line *l, uint32_t lo, uint32_t hi)
{
	if (lo == hi)
		nft_put(l, " %u", lo);
	else
		nft_put(l, " %u-%u", lo, hi);
}

/*
 * One generated rule in nft's words (in an inet table's chain). Only what
 * gen_rule() produces is translated: -EINVAL for anything else.
 */
static int nft_rule(FILE *f, const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	const char *l4 = m->proto == 6 ? "tcp" : m->proto == 17 ? "udp" : NULL;
	struct nft_line l = { .n = 0 };

	if (m->fields & ~(DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST | DYNPF_M_TTL | DYNPF_M_DSCP |
			  DYNPF_M_PROTO | DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS))
		return -EINVAL;
	if ((m->fields & DYNPF_M_FAMILY) && !(m->fields & (DYNPF_M_SRC | DYNPF_M_DST)))
		nft_put(&l, " meta nfproto ipv%u", m->family);
	if (m->fields & DYNPF_M_SRC)
		nft_addr(&l, m, "saddr", m->src, m->src_plen);
	if (m->fields & DYNPF_M_DST)
		nft_addr(&l, m, "daddr", m->dst, m->dst_plen);
	if (m->fields & DYNPF_M_TTL) {
		nft_put(&l, " %s", m->family == 6 ? "ip6 hoplimit" : "ip ttl");
		nft_range(&l, m->ttl_lo, m->ttl_hi);
	}
	if (m->fields & DYNPF_M_DSCP)
		nft_put(&l, " %s dscp %u", m->family == 6 ? "ip6" : "ip", m->dscp);
	if ((m->fields & DYNPF_M_PROTO) && !(m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) &&
	    !(m->fields & DYNPF_M_TCP_FLAGS))
		nft_put(&l, " meta l4proto %u", m->proto);
	if (m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) {
		if (!l4)
			return -EINVAL;
		if (m->fields & DYNPF_M_SPORT) {
			nft_put(&l, " %s sport", l4);
			nft_range(&l, m->sport_lo, m->sport_hi);
		}
		if (m->fields & DYNPF_M_DPORT) {
			nft_put(&l, " %s dport", l4);
			nft_range(&l, m->dport_lo, m->dport_hi);
		}
	}
	if (m->fields & DYNPF_M_TCP_FLAGS)
		nft_put(&l, " tcp flags & 0x%x == 0x%x", m->tcp_flags_mask, m->tcp_flags);
	for (uint32_t i = 0; i < m->ntlv; i++) {
		const struct dynpf_tlv_test *t = &m->tlv[i];
		const char *e = nft_ext(t->type);

		if (t->family == DYNPF_TT_EXT && e)
			nft_put(&l, " exthdr %s %s", e, t->neg ? "missing" : "exists");
		else if (t->family == DYNPF_TLV_TCP_OPT && t->type == 2)
			nft_put(&l, " tcp option maxseg %s", t->neg ? "missing" : "exists");
		else
			return -EINVAL;
	}
	for (uint32_t i = 0; i < m->nval; i++) {
		if (m->val[i].field != DYNPF_V_MSS)
			return -EINVAL;
		nft_put(&l, " tcp option maxseg size");
		nft_range(&l, m->val[i].lo, m->val[i].hi);
	}
	switch (r->action) {
	case DYNPF_ACT_PASS:
		nft_put(&l, " accept");
		break;
	case DYNPF_ACT_DROP:
		nft_put(&l, " drop");
		break;
	default:
		return -EINVAL;
	}
	if (l.n >= sizeof(l.b))
		return -E2BIG;
	fprintf(f, "\t\t%s\n", l.b + 1);
	return 0;
}

/* The set of n rules as an nft file: one table, one chain, in priority order. */
static int nft_write(const char *path, uint32_t n)
{
	struct dynpf_rule r;
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	fprintf(f, "table inet dynpf_bench {\n"
		   "\tchain input {\n"
		   "\t\ttype filter hook input priority 0; policy accept;\n");
	for (uint32_t i = 0; !err && i < n; i++) {
		gen_rule(set_id(n, i), &r);
		err = nft_rule(f, &r);
	}
	fprintf(f, "\t}\n}\n");
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static void bench_nft(struct rb_ctx *x)
{
	struct bench_rules *res = x->res;
	char ns[64], path[] = "/tmp/dynpf-bench-nft-XXXXXX", msg[256];
	char *add[] = { "ip", "netns", "add", ns, NULL };
	char *del[] = { "ip", "netns", "delete", ns, NULL };
	char *load[] = { "ip", "netns", "exec", ns, "nft", "-f", path, NULL };
	char *flush[] = { "ip", "netns", "exec", ns, "nft", "flush", "ruleset", NULL };
	int fd, st;

	if (!in_path("nft")) {
		res->nft = NFT_ABSENT;
		snprintf(res->nft_msg, sizeof(res->nft_msg), "not installed, skipped");
		return;
	}
	res->nft = NFT_FAILED;
	if (!in_path("ip")) {
		snprintf(res->nft_msg, sizeof(res->nft_msg),
			 "ip (iproute2) not found: no network namespace, skipped");
		return;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(res->nft_msg, sizeof(res->nft_msg), "cannot create a file: %s",
			 strerror(errno));
		return;
	}
	close(fd);
	snprintf(ns, sizeof(ns), "dynpf-bench-%d", (int)getpid());
	st = run_cmd(add, msg, sizeof(msg));
	if (st) {
		snprintf(res->nft_msg, sizeof(res->nft_msg), "ip netns add %s failed: %.150s", ns,
			 st < 0 ? strerror(-st) : msg);
		unlink(path);
		return;
	}
	for (size_t i = 0; i < x->cfg->ncounts; i++) {
		uint32_t n = x->cfg->counts[i];
		double t0;
		int err;

		if (!n)
			continue;
		err = nft_write(path, n);
		if (err) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "cannot write the nft rules: %s", strerror(-err));
			goto out;
		}
		t0 = dynpf_now() * 1e3;
		st = run_cmd(load, msg, sizeof(msg));
		res->nft_ms[i] = dynpf_now() * 1e3 - t0;
		if (st) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "nft -f of %u rules failed: %.180s", n,
				 st < 0 ? strerror(-st) : msg);
			goto out;
		}
		pr_info("bench: nft -f of %u rules: %.1f ms\n", n, res->nft_ms[i]);
		/* The next load starts from an empty namespace too. */
		st = run_cmd(flush, msg, sizeof(msg));
		if (st) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "nft flush ruleset failed: %.180s", st < 0 ? strerror(-st) : msg);
			goto out;
		}
	}
	res->nft = NFT_OK;
	snprintf(res->nft_msg, sizeof(res->nft_msg), "ok");
out:
	/* Torn down whatever happened above. */
	st = run_cmd(del, msg, sizeof(msg));
	if (st)
		pr_warn("bench: ip netns delete %s failed: %s\n", ns, st < 0 ? strerror(-st) : msg);
	unlink(path);
}

/* ---- the run --------------------------------------------------------------------- */

int bench_rules_parse_counts(const char *arg, struct bench_rules_cfg *cfg)
{
	uint32_t v[BENCH_RULES_MAX_COUNTS + 2];
	char buf[256], *tok, *save = NULL;
	size_t n = 0;

	v[n++] = 0;
	v[n++] = 1;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long x;
		char *end;
		size_t i;

		errno = 0;
		x = strtoull(tok, &end, 10);
		if (errno || end == tok || *end || *tok == '-' || x > BENCH_RULES_MAX_COUNT) {
			p_err("--rule-counts %s: expected integers from 0 to %u, comma-separated",
			      arg, BENCH_RULES_MAX_COUNT);
			return -EINVAL;
		}
		for (i = 0; i < n && v[i] != x; i++)
			;
		if (i < n)
			continue;
		if (n == BENCH_RULES_MAX_COUNTS) {
			p_err("--rule-counts %s: at most %d counts", arg,
			      BENCH_RULES_MAX_COUNTS - 2);
			return -EINVAL;
		}
		v[n++] = x;
	}
	for (size_t i = 1; i < n; i++) /* ascending */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint32_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	memcpy(cfg->counts, v, n * sizeof(v[0]));
	cfg->ncounts = n;
	return 0;
}

void bench_rules_default_counts(struct bench_rules_cfg *cfg)
{
	static const uint32_t def[] = { 0, 1, 100, 1000, 10000, 100000 };

	memcpy(cfg->counts, def, sizeof(def));
	cfg->ncounts = ARRAY_SIZE(def);
}

void bench_rules_free(struct bench_rules *r)
{
	if (!r)
		return;
	free(r->set);
	free(r);
}

int bench_rules_run(const struct bench_rules_cfg *cfg, struct bench_rules **out)
{
	struct rb_ctx x = { .cfg = cfg };
	struct bench_rules *res;
	double t0, total = 0;
	int err;

	res = calloc(1, sizeof(*res));
	if (res)
		res->set = calloc(cfg->ncounts, sizeof(*res->set));
	if (!res || !res->set) {
		bench_rules_free(res);
		p_err("bench: out of memory");
		return -ENOMEM;
	}
	res->cfg = *cfg;
	x.res = res;
	x.ncpus = libbpf_num_possible_cpus();
	for (size_t sh = 0; sh < NSHAPES; sh++)
		dynpf_parse_native(cfg->shape[sh].pkt, cfg->shape[sh].len, &x.parsed[sh], NULL);

	/* dynpf's programs, trace off, rule tables for every rule id. */
	t0 = dynpf_now() * 1e3;
	x.skel = dynpf_bpf__open();
	if (!x.skel) {
		err = -errno;
		p_err("bench: cannot open dynpf's BPF object: %s", strerror(-err));
		goto fail;
	}
	err = dynpf_size_rule_maps(x.skel, DYNPF_MAX_RULES);
	if (err) {
		p_err("bench: cannot size the rule tables: %s", strerror(-err));
		goto fail;
	}
	err = dynpf_bpf__load(x.skel);
	if (err) {
		p_err("bench: cannot load dynpf's BPF programs (%s): run with -vv to see the "
		      "verifier log",
		      strerror(-err));
		goto fail;
	}
	res->prog_load_ms = dynpf_now() * 1e3 - t0;
	if (x.skel->rodata->dynpf_trace_on) {
		p_err("bench: dynpf_trace_on defaults to on: refusing to time the trace");
		err = -EINVAL;
		goto fail;
	}
	x.prog_fd[0] = bpf_program__fd(x.skel->progs.dynpf_xdp);
	x.prog_fd[1] = bpf_program__fd(x.skel->progs.dynpf_tc_ingress);
	err = dynpf_ctrl_open(&x.c, x.skel);
	if (err)
		goto fail;
	xdpfilter_open(&x);

	for (size_t i = 0; i < cfg->ncounts; i++) {
		struct rb_set *s = &res->set[i];

		s->rules = cfg->counts[i];
		err = load_step(&x, i ? cfg->counts[i - 1] : 0, s, total);
		if (err)
			goto fail;
		total = s->total_ms;
		err = check_set(&x, s);
		err = err ?: time_set(&x, s);
		if (err)
			goto fail;
		if (s->rules == 0) {
			/* Update rates on an empty rule set, which they leave empty. */
			err = bench_updates(&x);
			if (err)
				goto fail;
		}
		if (s->rules == 1 || (i == cfg->ncounts - 1 && s->rules > 1)) {
			err = bench_effective(&x, s->rules, &res->eff[res->neff]);
			if (err)
				goto fail;
			res->neff++;
		}
	}
	bench_nft(&x);
	dynpf_ctrl_close(&x.c);
	dynpf_bpf__destroy(x.skel);
	bpf_object__close(x.xf_obj);
	*out = res;
	return 0;
fail:
	if (x.c.urb || x.c.acks)
		dynpf_ctrl_close(&x.c);
	dynpf_bpf__destroy(x.skel);
	bpf_object__close(x.xf_obj);
	bench_rules_free(res);
	return err ?: -EPROTO;
}

/* ---- output ----------------------------------------------------------------------- */

static const char *const kind_text[] = {
	"ip saddr 10.K.K.0/24 drop",
	"ip saddr 100.64.K.K tcp dport 22 pass",
	"ip daddr K.K.0.0/16 tcp dport (a range of 1024) drop",
	"ip saddr 11.K.K.0/20 udp dport 53 drop",
	"ip6 saddr 2a00:0:K::/48 drop",
	"ip6 daddr 2a01:0:0:K::/64 tcp dport 443 pass",
	"ip6 saddr 2a02:0:K::/56 udp sport 1000-1999 drop",
	"ip6 saddr 2a03::K ip6 exthdr routing drop",
	"tcp dport 1024+K drop",
	"udp sport 10000+K drop",
	"ip saddr 13.K.K.0/28 tcp flags syn / syn,ack tcp option mss missing drop",
	"ip daddr 14.K.K.K tcp dport 8080 tcp mss 1-535 drop",
	"ip saddr K.K.K.0/18 proto gre drop",
	"ip6 daddr 2a04:K::/40 ip6 exthdr hopopts drop",
	"ip saddr 26.K.K.0/24 ip daddr 27.K.K.0/24 tcp dport 3306 pass",
	"ip saddr 23.K.K.0/22 ttl 1-2 drop",
	"ip saddr 24.K.K.K proto icmp drop",
	"ip6 saddr 2a05:0:0:K::/64 proto esp drop",
	"ip6 saddr 2a06:0:K::/48 ip6 daddr 2a07:0:K::/48 tcp dport 22 pass",
	"ip daddr 25.K.K.0/24 dscp 46 pass",
};
_Static_assert(ARRAY_SIZE(kind_text) == RB_NKINDS, "one text per kind");

static const struct rb_set *set_of(const struct bench_rules *r, uint32_t rules)
{
	for (size_t i = 0; i < r->cfg.ncounts; i++)
		if (r->set[i].rules == rules)
			return &r->set[i];
	return NULL;
}

static void print_sets(const struct bench_rules *r)
{
	printf("rule sets: generated, loaded through the control channel, one transaction per\n"
	       "step (dynpf's programs loaded with tables for %u rule ids in %.0f ms)\n",
	       DYNPF_MAX_RULES, r->prog_load_ms);
	printf("%8s %8s %7s %10s %10s %10s   %s\n", "rules", "added", "tuples", "step ms",
	       "rules/s", "total ms", "walked: syn, ipv6-udp");
	for (size_t i = 0; i < r->cfg.ncounts; i++) {
		const struct rb_set *s = &r->set[i];

		printf("%8u %8u %7u ", s->rules, s->added, s->tuples);
		if (s->added)
			printf("%10.1f %10.0f %10.1f", s->load_ms, s->added / (s->load_ms / 1e3),
			       s->total_ms);
		else
			printf("%10s %10s %10s", "-", "-", "-");
		printf("   %u, %u\n", s->cand[0], s->cand[1]);
	}
	printf("\ntuples: distinct match masks, from the commit's ack (at most %d). walked: the\n"
	       "rules whose key the packet has under their mask, the chain entries tested for\n"
	       "it (the native reference counts them). total: the sum of the steps, the load\n"
	       "of that many rules (each step's flush includes an RCU grace period).\n",
	       DYNPF_MAX_TUPLES);
}

static void print_classify(const struct bench_rules *r)
{
	const struct rb_set *one = set_of(r, 1), *zero = set_of(r, 0);
	const struct bench_rules_cfg *cfg = &r->cfg;

	printf("\nclassification, ns per packet (BPF_PROG_TEST_RUN, repeat %u, median of %u "
	       "runs)\n",
	       cfg->repeat, cfg->runs);
	printf("%-24s %7s", "rules loaded:", "empty");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9u", cfg->counts[i]);
	printf("\n");
	for (size_t sh = 0; sh < NSHAPES; sh++) {
		for (size_t h = 0; h < NHOOKS; h++) {
			char name[48];

			snprintf(name, sizeof(name), "%s %s", cfg->shape[sh].name,
				 rb_hooks[h].name);
			printf("%-24s %7.1f", name, r->set[0].med[sh][h][P_EMPTY]);
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", r->set[i].med[sh][h][P_DYNPF]);
			printf("\n%-24s %7s", "  x the cost with 1 rule", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %8.2fx", r->set[i].med[sh][h][P_DYNPF] /
							 one->med[sh][h][P_DYNPF]);
			printf("\n%-24s %7s", "  - the cost with none", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", r->set[i].med[sh][h][P_DYNPF] -
							 zero->med[sh][h][P_DYNPF]);
			printf("\n");
			if (h || !r->xf_path[0] || r->xf_msg[0])
				continue;
			printf("%-24s %7s", "  xdp-filter, all", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", r->set[i].med[sh][h][P_XDPFILT]);
			printf("\n%-24s %7s", "  x xdp-filter's cost", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %8.2fx", r->set[i].med[sh][h][P_DYNPF] /
							 r->set[i].med[sh][h][P_XDPFILT]);
			printf("\n");
		}
	}
	printf("\nThe packets: %s (%u bytes) and %s (%u bytes), through dynpf_xdp and\n"
	       "dynpf_tc_ingress; empty: bench.bpf.c's empty program (the test-run floor).\n"
	       "Rule id N of a set is of kind N %% %d (K: N / %d), but ids 10, 20 .. 80, which\n"
	       "share a packet's key and fail on a range, flag, TLV or value test (their\n"
	       "chains are walked); the last rule is the catch-all (id %u, pass, the last\n"
	       "priority). Nothing else matches the packets, as the native reference and\n"
	       "the verdict map check: every tuple is looked up for every packet. Kinds:\n",
	       cfg->shape[0].name, cfg->shape[0].len, cfg->shape[1].name, cfg->shape[1].len,
	       RB_NKINDS, RB_NKINDS, RB_CATCHALL_ID);
	for (int k = 0; k < RB_NKINDS; k++)
		printf("  %2d  %s\n", k, kind_text[k]);
	printf("\"x the cost with 1 rule\": divided by the 1-rule column; \"- the cost with\n"
	       "none\": the classifier's share. The rule counts are timed one after the other,\n"
	       "not interleaved: drift between columns shows in the empty program's runs\n"
	       "(-j). In this VM the figures move by about +-20%% from run to run.\n");
	if (r->xf_msg[0])
		printf("xdp-filter: %s%s%s, not measured.\n", r->xf_path, r->xf_path[0] ? ": " : "",
		       r->xf_msg);
	else
		printf("xdp-filter, all: %s\n(every feature; no rules loaded, so the packet "
		       "passes), loaded with libbpf, no\ndispatcher, timed in the same rounds as "
		       "dynpf on xdp. \"x xdp-filter's cost\":\ndynpf divided by it.\n",
		       r->xf_path);
}

static void print_updates(const struct bench_rules *r)
{
	printf("\nrule updates per second (wall clock, CLOCK_MONOTONIC; median of %u runs of at "
	       "least %d ms)\n",
	       r->cfg.runs, BENCH_UPD_MS);
	printf("%6s %12s %10s %20s %20s %11s\n", "batch", "ring/s", "us/txn",
	       "map_update_elem/s", "map_update_batch/s", "elem/ring");
	for (size_t k = 0; k < NBATCHES; k++) {
		const struct rb_upd *u = &r->upd[k];

		printf("%6u %12.0f %10.1f %20.0f %20.0f %10.1fx\n", u->batch, u->med_ring,
		       u->med_txn_us, u->med_elem, u->med_batch, u->med_elem / u->med_ring);
	}
	printf("\nring/s: rule adds per second, in transactions of begin + N adds + commit\n"
	       "through dynpf_ctrl (the USER_RINGBUF), each flushed: drained and validated in\n"
	       "BPF, applied to both sides of the rule set, acked, with the RCU grace period\n"
	       "of the commit (the side the commit left is brought up to date after it), so\n"
	       "a transaction costs that grace period at least. Generated rules, deleted\n"
	       "again after each run, untimed. map_update_elem/s, map_update_batch/s: the raw\n"
	       "map-write floor, N %d-byte values (a rule entry of dynpf_rules) written into\n"
	       "a BPF_MAP_TYPE_ARRAY created by the bench, one bpf_map_update_elem() each or\n"
	       "one BPF_MAP_UPDATE_BATCH of N. elem/ring: how many times the floor is faster.\n",
	       FLOOR_VALUE);
}

static void print_effective(const struct bench_rules *r)
{
	char where[64] = "n/a: one CPU, or not pinned";

	if (!r->neff)
		return;
	if (r->poller_cpu >= 0)
		snprintf(where, sizeof(where), "here CPU %d", r->poller_cpu);
	printf("\nsubmit to effective (us, median of %d; a drop rule for the syn packet)\n",
	       BENCH_EFF_SAMPLES);
	printf("%8s %12s %12s %12s %12s %18s\n", "rules", "effective", "min", "max", "flushed",
	       "seen by a poller");
	for (size_t i = 0; i < r->neff; i++) {
		const struct rb_eff *e = &r->eff[i];

		printf("%8u %12.1f %12.1f %12.1f %12.1f", e->rules, e->med_us, e->min_us,
		       e->max_us, e->med_flush_us);
		if (e->seen)
			printf(" %18.1f\n", e->med_seen_us);
		else
			printf(" %18s\n", "n/a");
	}
	printf("\neffective: from the transaction's begin (begin, add, commit, flush) to the\n"
	       "first xdp test run after the flush that returns XDP_DROP; flushed: to the\n"
	       "flush's return. The flush returns after the RCU grace period that follows\n"
	       "the commit (the side the commit left is then brought up to date), so both\n"
	       "include it. seen by a poller: to the first XDP_DROP of a thread running the\n"
	       "packet in a loop on another CPU (%s): when the commit flipped the rule set.\n",
	       where);
}

static void print_nft(const struct bench_rules *r)
{
	if (r->nft != NFT_OK) {
		printf("\nnft: %s\n", r->nft_msg);
		return;
	}
	printf("\nnft -f of the same rules (an inet table, one chain, in a new network "
	       "namespace)\n");
	printf("%8s %12s %12s %10s\n", "rules", "nft -f ms", "dynpf ms", "nft/dynpf");
	for (size_t i = 0; i < r->cfg.ncounts; i++) {
		const struct rb_set *s = &r->set[i];

		if (!s->rules)
			continue;
		printf("%8u %12.1f %12.1f %9.2fx\n", s->rules, r->nft_ms[i], s->total_ms,
		       r->nft_ms[i] / s->total_ms);
	}
	printf("nft -f: the wall-clock of `ip netns exec NS nft -f FILE` (process start\n"
	       "included); dynpf: the total load time of the same count above.\n");
}

void bench_rules_print_text(const struct bench_rules *r)
{
	print_sets(r);
	print_classify(r);
	print_updates(r);
	print_effective(r);
	print_nft(r);
}

static json_object *jarr_d(const double *v, uint32_t n, const char *fmt)
{
	json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < n; i++)
		json_object_array_add(a, dynpf_json_num(v[i], fmt));
	return a;
}

json_object *bench_rules_json(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;
	const struct rb_set *one = set_of(r, 1), *zero = set_of(r, 0);
	json_object *o = json_object_new_object(), *sets = json_object_new_array();
	json_object *cls = json_object_new_array(), *upd = json_object_new_array();
	json_object *eff = json_object_new_array(), *kinds = json_object_new_array(), *nft;

	json_object_object_add(o, "catch_all_id", json_object_new_int64(RB_CATCHALL_ID));
	json_object_object_add(o, "program_load_ms", dynpf_json_num(r->prog_load_ms, "%.1f"));
	for (int k = 0; k < RB_NKINDS; k++)
		json_object_array_add(kinds, json_object_new_string(kind_text[k]));
	json_object_object_add(o, "kinds", kinds);
	for (size_t i = 0; i < cfg->ncounts; i++) {
		const struct rb_set *s = &r->set[i];
		json_object *j = json_object_new_object(), *cand = json_object_new_object();

		json_object_object_add(j, "rules", json_object_new_int64(s->rules));
		json_object_object_add(j, "added", json_object_new_int64(s->added));
		json_object_object_add(j, "tuples", json_object_new_int64(s->tuples));
		json_object_object_add(j, "load_ms", s->added ? dynpf_json_num(s->load_ms, "%.2f") : NULL);
		json_object_object_add(j, "total_load_ms", dynpf_json_num(s->total_ms, "%.2f"));
		for (size_t sh = 0; sh < NSHAPES; sh++)
			json_object_object_add(cand, cfg->shape[sh].name,
					       json_object_new_int64(s->cand[sh]));
		json_object_object_add(j, "key_matches", cand);
		json_object_array_add(sets, j);
		for (size_t sh = 0; sh < NSHAPES; sh++) {
			for (size_t h = 0; h < NHOOKS; h++) {
				json_object *c = json_object_new_object();
				json_object *re = json_object_new_array();
				json_object *rd = json_object_new_array();
				double ns = s->med[sh][h][P_DYNPF];

				json_object_object_add(c, "shape",
						       json_object_new_string(cfg->shape[sh].name));
				json_object_object_add(c, "hook",
						       json_object_new_string(rb_hooks[h].name));
				json_object_object_add(c, "rules", json_object_new_int64(s->rules));
				json_object_object_add(c, "tuples",
						       json_object_new_int64(s->tuples));
				json_object_object_add(c, "dynpf_ns", dynpf_json_num(ns, "%.1f"));
				json_object_object_add(c, "empty_ns",
						       dynpf_json_num(s->med[sh][h][P_EMPTY], "%.1f"));
				json_object_object_add(
					c, "ratio_1_rule",
					dynpf_json_num(ns / one->med[sh][h][P_DYNPF], "%.3f"));
				json_object_object_add(
					c, "classifier_ns",
					dynpf_json_num(ns - zero->med[sh][h][P_DYNPF], "%.1f"));
				for (uint32_t k = 0; k < cfg->runs; k++) {
					const uint32_t *v = s->ns[sh][h][P_EMPTY];
					const uint32_t *w = s->ns[sh][h][P_DYNPF];

					json_object_array_add(re, json_object_new_int64(v[k]));
					json_object_array_add(rd, json_object_new_int64(w[k]));
				}
				json_object_object_add(c, "runs_empty_ns", re);
				json_object_object_add(c, "runs_dynpf_ns", rd);
				if (!h && !r->xf_msg[0] && r->xf_path[0]) {
					double xf = s->med[sh][h][P_XDPFILT];

					json_object_object_add(c, "xdpfilter_ns", dynpf_json_num(xf, "%.1f"));
					json_object_object_add(c, "ratio_xdpfilter",
							       dynpf_json_num(ns / xf, "%.3f"));
				}
				json_object_array_add(cls, c);
			}
		}
	}
	json_object_object_add(o, "sets", sets);
	json_object_object_add(o, "classify", cls);
	{
		json_object *xf = json_object_new_object();

		json_object_object_add(xf, "object", json_object_new_string(r->xf_path));
		json_object_object_add(xf, "measured",
				       json_object_new_boolean(r->xf_path[0] && !r->xf_msg[0]));
		if (r->xf_msg[0])
			json_object_object_add(xf, "why_not", json_object_new_string(r->xf_msg));
		json_object_object_add(o, "xdpfilter", xf);
	}
	for (size_t k = 0; k < NBATCHES; k++) {
		const struct rb_upd *u = &r->upd[k];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "batch", json_object_new_int64(u->batch));
		json_object_object_add(j, "ring_per_s", dynpf_json_num(u->med_ring, "%.0f"));
		json_object_object_add(j, "ring_txn_us", dynpf_json_num(u->med_txn_us, "%.1f"));
		json_object_object_add(j, "map_update_elem_per_s", dynpf_json_num(u->med_elem, "%.0f"));
		json_object_object_add(j, "map_update_batch_per_s", dynpf_json_num(u->med_batch, "%.0f"));
		json_object_object_add(j, "runs_ring_per_s", jarr_d(u->ring, cfg->runs, "%.0f"));
		json_object_object_add(j, "runs_map_update_elem_per_s",
				       jarr_d(u->elem, cfg->runs, "%.0f"));
		json_object_object_add(j, "runs_map_update_batch_per_s",
				       jarr_d(u->mbatch, cfg->runs, "%.0f"));
		json_object_array_add(upd, j);
	}
	json_object_object_add(o, "updates", upd);
	json_object_object_add(o, "map_floor",
			       json_object_new_string("BPF_MAP_TYPE_ARRAY, values of a rule entry (200 bytes)"));
	for (size_t i = 0; i < r->neff; i++) {
		const struct rb_eff *e = &r->eff[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "rules", json_object_new_int64(e->rules));
		json_object_object_add(j, "effective_us", dynpf_json_num(e->med_us, "%.1f"));
		json_object_object_add(j, "flushed_us", dynpf_json_num(e->med_flush_us, "%.1f"));
		json_object_object_add(j, "seen_by_poller_us",
				       e->seen ? dynpf_json_num(e->med_seen_us, "%.1f") : NULL);
		json_object_object_add(j, "runs_effective_us",
				       jarr_d(e->us, BENCH_EFF_SAMPLES, "%.1f"));
		json_object_object_add(j, "runs_flushed_us",
				       jarr_d(e->flush_us, BENCH_EFF_SAMPLES, "%.1f"));
		json_object_object_add(j, "runs_seen_by_poller_us",
				       e->seen ? jarr_d(e->seen_us, BENCH_EFF_SAMPLES, "%.1f")
					       : NULL);
		json_object_array_add(eff, j);
	}
	json_object_object_add(o, "submit_to_effective", eff);
	nft = json_object_new_object();
	json_object_object_add(nft, "status",
			       json_object_new_string(r->nft == NFT_OK       ? "ok"
						      : r->nft == NFT_ABSENT ? "not installed"
									     : "failed"));
	if (r->nft != NFT_OK) {
		json_object_object_add(nft, "message", json_object_new_string(r->nft_msg));
	} else {
		json_object *loads = json_object_new_array();

		for (size_t i = 0; i < cfg->ncounts; i++) {
			json_object *j;

			if (!cfg->counts[i])
				continue;
			j = json_object_new_object();
			json_object_object_add(j, "rules", json_object_new_int64(cfg->counts[i]));
			json_object_object_add(j, "nft_ms", dynpf_json_num(r->nft_ms[i], "%.1f"));
			json_object_array_add(loads, j);
		}
		json_object_object_add(nft, "loads", loads);
	}
	json_object_object_add(o, "nft", nft);
	return o;
}
