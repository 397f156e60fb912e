// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the generated rules of the rule benchmarks and of --live, one
 * rule per id, deterministically (the set of N rules is the first N-1 ids
 * and the catch-all): 20 kinds that cycle (IPv4 and IPv6 prefixes of lengths
 * 16 to 128, exact ports and port ranges, protocols, TCP flags, TTL, DSCP,
 * TLV tests: tcp option mss missing, ip6 exthdr routing and hopopts, the MSS
 * value), each kind one match mask, so 20 tuples and the catch-all's. No
 * rule matches the bench packets but the catch-all (id 131071, pass, the
 * last priority). Eight rules (ids 10, 20, ... 80) share the key of one of
 * the packets and fail on a range, flag, TLV or value test. Then the
 * transactions that add or delete them.
 */
#include <string.h>

#include "bench/rules.h"
#include "match.h"

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
void bench_rules_gen(uint32_t id, struct dynpf_rule *r)
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

/*
 * The drop rule of submit to effective: the syn packet's flow, its addresses
 * and both ports, a mask no generated kind has. So its tuple is its own, and
 * goes, with its field filters' bits, once the deleted rule is reclaimed.
 * With the source and the destination port alone it shared the tuple of
 * kind 1 ("ip saddr 100.64.K.K tcp dport 22"): that tuple kept the bits of
 * the deleted rule's 198.18 and port 80 (a bit stays while its tuple has
 * rules, bpf/rules.h), and syn probed it for nothing in every later set,
 * 14 ns of its 147 with 10,000 rules.
 */
void rb_gen_drop_rule(struct dynpf_rule *r)
{
	uint8_t a[16];

	memset(r, 0, sizeof(*r));
	r->id = RB_DROP_ID;
	r->prio = 0;
	r->action = DYNPF_ACT_DROP;
	ip4(a, 198, 18, 0, 1);
	m_pfx(r, 0, 4, a, 32);
	ip4(a, 198, 19, 0, 1);
	m_pfx(r, 1, 4, a, 32);
	m_port(r, 6, 1, 80, 80);
	m_port(r, 6, 0, 40000, 40000);
}

/* The ids of the set of n rules, in priority order: 1 .. n-1, the catch-all. */
uint32_t bench_rules_set_id(uint32_t n, uint32_t i)
{
	return i + 1 < n ? i + 1 : RB_CATCHALL_ID;
}

/* What each kind is, in the rule language (K: id / 20). */
const char *const rb_kind_text[RB_NKINDS] = {
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

/* rb_txn()'s ops: the rules of ids id_of(arg, i), added or deleted. */
struct rb_ops {
	uint32_t (*id_of)(uint32_t, uint32_t);
	uint32_t arg;
	bool del;
};

static void rb_op(const void *arg, uint32_t i, bool *del, struct dynpf_rule *r)
{
	const struct rb_ops *o = arg;
	uint32_t id = o->id_of(o->arg, i);

	*del = o->del;
	if (o->del)
		r->id = id;
	else
		bench_rules_gen(id, r);
}

int rb_txn(struct rb_ctx *x, uint32_t n, uint32_t (*id_of)(uint32_t, uint32_t), uint32_t arg,
	   bool del, struct dynpf_ack_commit *ack, const char *what)
{
	struct rb_ops o = { .id_of = id_of, .arg = arg, .del = del };

	return bench_txn(&x->c, n, rb_op, &o, "bench", what, ack);
}

uint32_t rb_id_from(uint32_t arg, uint32_t i)
{
	return arg + i;
}
