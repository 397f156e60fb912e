// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tests of the control channel and the classifier, against the real BPF
 * programs (BPF_PROG_TEST_RUN; needs root): every message type, every
 * refusal with its errno and field, a hostile producer writing raw bytes,
 * atomic transactions, counters, priorities, non-terminal actions, the BPF
 * classifier against a linear reference on random rule sets, packets
 * classified while transactions commit, and a 100,000-rule load.
 *
 * Prints one line per failure and ends with "test_ctrl: N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "channel/ring.h"
#include "dynpf.skel.h"
#include "lib/log.h"
#include "match.h"
#include "native.h"
#include "lib/progs.h"

static int npass, nfail;

#define CHECK(name, cond, ...)                                                 \
	do {                                                                   \
		if (cond) {                                                    \
			npass++;                                               \
		} else {                                                       \
			nfail++;                                               \
			printf("FAIL %s: ", name);                             \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

#define CHECK_EQ(name, got, want)                                              \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		CHECK(name, g_ == w_, "%s = %lld, want %lld (line %d)", #got, g_, w_, \
		      __LINE__);                                               \
	} while (0)

static struct dynpf_progs pr;
static struct dynpf_ctrl c;

/* ---- packets ------------------------------------------------------------- */

struct pkt {
	uint8_t b[256];
	uint32_t n;
};

/* eth / IPv4 / TCP or UDP, ports, TCP flags; src 198.18.0.S, dst 198.19.0.D */
static void mk4(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport,
		uint16_t dport, uint8_t flags)
{
	uint8_t *b = p->b;
	uint32_t l4 = proto == 6 ? 20 : 8;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	b[14] = 0x45;
	b[16] = 0, b[17] = 20 + l4;
	b[22] = 64;
	b[23] = proto;
	b[26] = 198, b[27] = 18, b[28] = 0, b[29] = s;
	b[30] = 198, b[31] = 19, b[32] = 0, b[33] = d;
	b[34] = sport >> 8, b[35] = sport & 0xff;
	b[36] = dport >> 8, b[37] = dport & 0xff;
	if (proto == 6) {
		b[46] = 0x50;
		b[47] = flags;
	} else {
		b[38] = 0, b[39] = 8;
	}
	p->n = 34 + l4;
}

/* Run through the XDP program: the verdict, and the parse result. */
static int run(const struct pkt *p, struct dynpf_verdict *v, struct dynpf_pkt *parsed)
{
	static struct dynpf_pkt tmp;
	char why[128];

	if (dynpf_progs_run(&pr, DYNPF_HOOK_XDP, p->b, p->n, parsed ? parsed : &tmp, why,
			    sizeof(why)) != DYNPF_RUN_OK)
		return -1;
	*v = *pr.last_v;
	return 0;
}

/* eth / IPv6 / TCP, UDP or ICMPv6 echo; src 2001:db8::S, dst 2001:db8::1:D */
static void mk6(struct pkt *p, uint8_t proto, uint8_t s, uint8_t d, uint16_t sport,
		uint16_t dport)
{
	uint8_t *b = p->b;
	uint32_t l4 = proto == 6 ? 20 : 8;

	memset(p, 0, sizeof(*p));
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x86\xdd", 14);
	b[14] = 0x60;
	b[18] = 0, b[19] = l4;
	b[20] = proto;
	b[21] = 64;
	b[22] = 0x20, b[23] = 0x01, b[24] = 0x0d, b[25] = 0xb8, b[37] = s;
	b[38] = 0x20, b[39] = 0x01, b[40] = 0x0d, b[41] = 0xb8, b[51] = 1, b[53] = d;
	if (proto == 58) {
		b[54] = 128; /* echo request: not neighbour discovery */
	} else {
		b[54] = sport >> 8, b[55] = sport & 0xff;
		b[56] = dport >> 8, b[57] = dport & 0xff;
		if (proto == 6)
			b[66] = 0x50, b[67] = 0x02;
		else
			b[58] = 0, b[59] = 8;
	}
	p->n = 54 + l4;
}

/* IPv4 in IPv4: mk4's packet behind an outer IPv4 header from 198.18.1.S. */
static void mk_ipip(struct pkt *p, uint8_t s, const struct pkt *inner)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, inner->b, 14);
	p->b[14] = 0x45;
	p->b[16] = (inner->n + 6) >> 8, p->b[17] = (inner->n + 6) & 0xff;
	p->b[22] = 64;
	p->b[23] = 4;
	p->b[26] = 198, p->b[27] = 18, p->b[28] = 1, p->b[29] = s;
	p->b[30] = 198, p->b[31] = 19, p->b[32] = 1, p->b[33] = 1;
	memcpy(p->b + 34, inner->b + 14, inner->n - 14);
	p->n = inner->n + 20;
}

/* ---- rules --------------------------------------------------------------- */

static struct dynpf_rule rule(uint32_t id, uint32_t prio, uint8_t action)
{
	struct dynpf_rule r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.prio = prio;
	r.action = action;
	return r;
}

static void m_dport(struct dynpf_rule *r, uint16_t lo, uint16_t hi)
{
	r->m.fields |= DYNPF_M_DPORT;
	r->m.dport_lo = lo;
	r->m.dport_hi = hi;
}

static void m_proto(struct dynpf_rule *r, uint8_t proto)
{
	r->m.fields |= DYNPF_M_PROTO;
	r->m.proto = proto;
}

static void m_src4(struct dynpf_rule *r, uint8_t last, uint8_t plen)
{
	uint8_t a[4] = { 198, 18, 0, last };
	uint8_t mask[16];

	dynpf_prefix_mask(mask, plen);
	r->m.fields |= DYNPF_M_FAMILY | DYNPF_M_SRC;
	r->m.family = 4;
	r->m.src_plen = plen;
	for (int i = 0; i < 4; i++)
		r->m.src[i] = a[i] & mask[i];
}

static void m_src6(struct dynpf_rule *r, uint8_t last, uint8_t plen)
{
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	uint8_t mask[16];

	a[15] = last;
	dynpf_prefix_mask(mask, plen);
	r->m.fields |= DYNPF_M_FAMILY | DYNPF_M_SRC;
	r->m.family = 6;
	r->m.src_plen = plen;
	for (int i = 0; i < 16; i++)
		r->m.src[i] = a[i] & mask[i];
}

/* Send, flush, and return the ack of the message (a copy). */
static struct dynpf_ack_commit ack_of(uint64_t seq)
{
	const struct dynpf_ack_commit *a = dynpf_ctrl_ack(&c, seq);
	struct dynpf_ack_commit z = { .a.err = 9999 };

	return a ? *a : z;
}

/* A whole transaction of adds; the commit's ack. */
static struct dynpf_ack_commit txn(const struct dynpf_rule *rules, int n)
{
	uint64_t s;

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	for (int i = 0; i < n; i++)
		dynpf_ctrl_add(&c, &rules[i], NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	return ack_of(s);
}

static uint64_t rule_packets(uint32_t id)
{
	int ncpu = libbpf_num_possible_cpus();
	struct dynpf_rule_stats v[ncpu];
	uint64_t sum = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(pr.skel->maps.dynpf_rule_stats), &id, v))
		return (uint64_t)-1;
	for (int i = 0; i < ncpu; i++)
		sum += v[i].packets;
	return sum;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_empty(void)
{
	struct dynpf_verdict v;
	struct pkt p;

	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	CHECK("empty: run", run(&p, &v, NULL) == 0, "test run failed");
	CHECK_EQ("empty", v.action, DYNPF_ACT_PASS);
	CHECK_EQ("empty", v.rule, 0);
	CHECK_EQ("empty", v.gen, 0);
}

static void test_basic(void)
{
	struct dynpf_rule r[2] = { rule(1, 10, DYNPF_ACT_DROP), rule(2, 20, DYNPF_ACT_COUNT) };
	struct dynpf_ack_commit a;
	struct dynpf_verdict v;
	struct pkt p;

	m_proto(&r[0], 6);
	m_dport(&r[0], 22, 22);
	m_proto(&r[1], 6);
	a = txn(r, 2);
	CHECK_EQ("basic commit", a.a.err, 0);
	CHECK_EQ("basic commit", a.a.type, DYNPF_MSG_TXN_COMMIT);
	CHECK_EQ("basic commit", a.nrules, 2);
	CHECK_EQ("basic commit", a.added, 2);
	CHECK_EQ("basic commit", a.a.size, sizeof(struct dynpf_ack_commit));
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("basic drop", v.action, DYNPF_ACT_DROP);
	CHECK_EQ("basic drop", v.rule, 1);
	CHECK_EQ("basic drop", v.nmatch, 0); /* the count rule comes after */
	CHECK_EQ("basic drop", v.gen, a.a.gen);
	mk4(&p, 6, 1, 1, 1000, 80, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("basic pass", v.action, DYNPF_ACT_PASS);
	CHECK_EQ("basic pass", v.rule, 0);
	CHECK_EQ("basic pass", v.nmatch, 1);
	CHECK_EQ("basic pass", v.match[0], 2);
	CHECK_EQ("basic counters", rule_packets(1), 1);
	CHECK_EQ("basic counters", rule_packets(2), 1);
	mk4(&p, 17, 1, 1, 1000, 22, 0);
	run(&p, &v, NULL);
	CHECK_EQ("basic udp", v.action, DYNPF_ACT_PASS);
}

/* Rule 1 persists across a commit: its counters too. Rule 2 is deleted. */
static void test_persist(void)
{
	struct dynpf_rule r = rule(3, 5, DYNPF_ACT_PASS);
	uint64_t before1 = rule_packets(1), s1, s2, s3;
	struct dynpf_verdict v;
	struct pkt p;

	m_dport(&r, 443, 443);
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_add(&c, &r, &s1);
	dynpf_ctrl_del(&c, 2, &s2);
	dynpf_ctrl_commit(&c, &s3);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("persist add", ack_of(s1).a.err, 0);
	CHECK_EQ("persist del", ack_of(s2).a.err, 0);
	CHECK_EQ("persist commit", ack_of(s3).a.err, 0);
	CHECK_EQ("persist commit", ack_of(s3).nrules, 2);
	CHECK_EQ("persist commit", ack_of(s3).deleted, 1);
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("persist", v.rule, 1);
	CHECK_EQ("persist", v.nmatch, 0);
	CHECK_EQ("persist counters", rule_packets(1), before1 + 1);
	mk4(&p, 6, 1, 1, 1000, 443, 0x02);
	run(&p, &v, NULL);
	CHECK_EQ("persist new", v.rule, 3);
}

/*
 * A producer that does not drain (the daemon's clients): with the ring full
 * it waits timeout_ms, then fails clearly; nothing sent before is lost, and
 * once drained the next message goes through.
 */
static void test_backpressure(void)
{
	struct dynpf_rule r = rule(60, 1, DYNPF_ACT_COUNT);
	struct timespec t0, t1;
	uint64_t sent0, s;
	int n = 0, err = 0;
	double ms;

	dynpf_ctrl_take(&c);
	c.self_drain = false;
	c.timeout_ms = 200;
	sent0 = c.sent;
	dynpf_ctrl_begin(&c, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!err && n < 100000) {
		err = dynpf_ctrl_reset(&c, 0, NULL);
		n++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	CHECK_EQ("backpressure: timeout", err, -ETIMEDOUT);
	CHECK("backpressure: waited", ms >= 190, "%.0f ms", ms);
	c.self_drain = true;
	CHECK_EQ("backpressure: drain", dynpf_ctrl_flush(&c), 0);
	CHECK_EQ("backpressure: every message sent acked", c.nack, c.sent - sent0);
	dynpf_ctrl_abort(&c, NULL);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_add(&c, &r, NULL);
	dynpf_ctrl_commit(&c, &s);
	CHECK_EQ("backpressure: then", dynpf_ctrl_flush(&c), 0);
	CHECK_EQ("backpressure: then a commit", ack_of(s).a.err, 0);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, 60, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("backpressure: cleanup", ack_of(s).a.err, 0);
}

/* SET (default action, ARP/ND) and COUNTER_RESET take effect at commit. */
/*
 * A producer killed mid-transaction leaves messages in the ring; the next
 * one (the restarted daemon) recovers: they are drained with their acks
 * dropped, their transaction aborted, and its own acks are its own.
 */
static void test_recover(void)
{
	struct dynpf_rule r1 = rule(70, 1, DYNPF_ACT_COUNT), r2 = rule(71, 1, DYNPF_ACT_COUNT);
	struct dynpf_ctrl dead;
	uint64_t s, s_dead;
	int n, discarded = -1;

	dynpf_ctrl_take(&c);
	CHECK_EQ("recover: a second producer opens", dynpf_ctrl_open(&dead, pr.skel), 0);
	dead.self_drain = false;
	dynpf_ctrl_begin(&dead, NULL);
	dynpf_ctrl_add(&dead, &r1, &s_dead);
	dynpf_ctrl_add(&dead, &r2, NULL);
	/* Killed between reserve and submit: a record left busy for good. */
	CHECK("recover: the dead producer reserves a fourth",
	      user_ring_buffer__reserve(dead.urb, sizeof(struct dynpf_msg_rule_add)), "%s",
	      strerror(errno));
	dynpf_ctrl_close(&dead); /* killed: no commit, nothing drained */
	n = dynpf_ctrl_recover(&c, &discarded);
	CHECK_EQ("recover: the one never submitted is discarded", discarded, 1);
	CHECK_EQ("recover: the dead producer's 3 messages and our abort drained", n, 3);
	CHECK("recover: none of their acks kept", !dynpf_ctrl_ack(&c, s_dead), "ack found");
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_add(&c, &r1, &s);
	dynpf_ctrl_commit(&c, NULL);
	CHECK_EQ("recover: then a transaction", dynpf_ctrl_flush(&c), 0);
	CHECK_EQ("recover: rule 70 was not added by the dead one", ack_of(s).a.err, 0);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, 71, &s);
	dynpf_ctrl_abort(&c, NULL);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("recover: rule 71 never was", ack_of(s).a.err, -ENOENT);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, 70, &s);
	dynpf_ctrl_commit(&c, NULL);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("recover: rule 70 deleted", ack_of(s).a.err, 0);
}

static void test_settings(void)
{
	struct dynpf_verdict v;
	struct pkt p, arp;
	uint64_t s;

	memset(&arp, 0, sizeof(arp));
	memcpy(arp.b, "\xff\xff\xff\xff\xff\xff\x02\0\0\0\0\x01\x08\x06"
		      "\x00\x01\x08\x00\x06\x04\x00\x01", 22);
	arp.n = 42;
	mk4(&p, 6, 1, 1, 1000, 9, 0);

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_set(&c, DYNPF_SET_DEFAULT_ACTION, DYNPF_ACT_DROP, NULL);
	dynpf_ctrl_reset(&c, 1, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("set default drop: commit", ack_of(s).a.err, 0);
	CHECK_EQ("counter reset", rule_packets(1), 0);
	run(&p, &v, NULL);
	CHECK_EQ("default drop", v.action, DYNPF_ACT_DROP);
	CHECK_EQ("default drop", v.rule, 0);
	run(&arp, &v, NULL);
	CHECK_EQ("ARP passes a drop default", v.action, DYNPF_ACT_PASS);

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_set(&c, DYNPF_SET_PASS_ARP_ND, 0, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	run(&arp, &v, NULL);
	CHECK_EQ("pass-arp-nd off: ARP dropped", v.action, DYNPF_ACT_DROP);

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_set(&c, DYNPF_SET_PASS_ARP_ND, 1, NULL);
	dynpf_ctrl_set(&c, DYNPF_SET_DEFAULT_ACTION, DYNPF_ACT_PASS, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	run(&p, &v, NULL);
	CHECK_EQ("default pass again", v.action, DYNPF_ACT_PASS);
	/* Both sides hold the settings: one more commit flips back to the side
	 * the journal brought up to date. */
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	run(&p, &v, NULL);
	CHECK_EQ("settings survive the side flip", v.action, DYNPF_ACT_PASS);
	run(&arp, &v, NULL);
	CHECK_EQ("settings survive the side flip", v.action, DYNPF_ACT_PASS);
}

/* Every refusal: errno and field, and the transaction changes nothing. */
static void test_refusals(void)
{
	struct dynpf_rule good = rule(50, 1, DYNPF_ACT_DROP), bad;
	struct dynpf_verdict v;
	uint64_t s, sc;
	struct pkt p;
	uint32_t gen;

	mk4(&p, 6, 1, 1, 1000, 9, 0);
	run(&p, &v, NULL);
	gen = v.gen;

	/* Outside a transaction. */
	dynpf_ctrl_take(&c);
	dynpf_ctrl_add(&c, &good, &s);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("add outside txn", ack_of(s).a.err, -EPERM);
	CHECK_EQ("add outside txn", ack_of(s).a.field, DYNPF_F_TXN);
	dynpf_ctrl_abort(&c, &s);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("abort outside txn", ack_of(s).a.err, -ENOENT);

	struct {
		const char *name;
		void (*mut)(struct dynpf_rule *r);
		int err;
		int field;
	} cases[] = {
#define MUT(body) ({ void f_(struct dynpf_rule *r) { body; } f_; })
		{ "id 0", MUT(r->id = 0), -EINVAL, DYNPF_F_ID },
		{ "id too big", MUT(r->id = DYNPF_MAX_RULES), -EINVAL, DYNPF_F_ID },
		{ "id existing", MUT(r->id = 1), -EEXIST, DYNPF_F_ID },
		{ "action 0", MUT(r->action = 0), -EINVAL, DYNPF_F_ACTION },
		{ "action 99", MUT(r->action = 99), -EINVAL, DYNPF_F_ACTION },
		{ "redirect 0", MUT(r->action = DYNPF_ACT_REDIRECT), -EINVAL, DYNPF_F_ARG },
		{ "limit no burst", MUT(r->action = DYNPF_ACT_LIMIT; r->arg = 5), -EINVAL,
		  DYNPF_F_BURST },
		{ "sample len 0", MUT(r->action = DYNPF_ACT_SAMPLE; r->sample_rate = 1), -EINVAL,
		  DYNPF_F_SAMPLE_LEN },
		{ "sample len 257",
		  MUT(r->action = DYNPF_ACT_SAMPLE; r->sample_rate = 1; r->sample_len = 257),
		  -EINVAL, DYNPF_F_SAMPLE_LEN },
		{ "pad", MUT(r->pad = 1), -EINVAL, DYNPF_F_PAD },
		{ "fields", MUT(r->m.fields = 1u << 20), -EINVAL, DYNPF_F_FIELDS },
		{ "stack 2", MUT(r->m.stack = 2), -EINVAL, DYNPF_F_STACK },
		{ "family 5", MUT(r->m.fields = DYNPF_M_FAMILY; r->m.family = 5), -EINVAL,
		  DYNPF_F_FAMILY },
		{ "src plen 33", MUT(m_src4(r, 1, 32); r->m.src_plen = 33), -EINVAL, DYNPF_F_SRC },
		{ "src host bits", MUT(m_src4(r, 1, 32); r->m.src_plen = 24), -EINVAL,
		  DYNPF_F_SRC },
		{ "src unused", MUT(r->m.src[0] = 1), -EINVAL, DYNPF_F_SRC },
		{ "dport lo > hi", MUT(m_dport(r, 9, 8)), -EINVAL, DYNPF_F_DPORT },
		{ "dscp 64", MUT(r->m.fields = DYNPF_M_DSCP; r->m.dscp = 64), -EINVAL,
		  DYNPF_F_DSCP },
		{ "frag 9", MUT(r->m.fields = DYNPF_M_FRAG; r->m.frag = 9), -EINVAL, DYNPF_F_FRAG },
		{ "vlan 4096", MUT(r->m.fields = DYNPF_M_VLAN; r->m.vlan = 4096), -EINVAL,
		  DYNPF_F_VLAN },
		{ "tcp flags outside mask",
		  MUT(r->m.fields = DYNPF_M_TCP_FLAGS; r->m.tcp_flags = 3; r->m.tcp_flags_mask = 1),
		  -EINVAL, DYNPF_F_TCP_FLAGS },
		{ "tcp flags without the protocol",
		  MUT(r->m.fields = DYNPF_M_TCP_FLAGS; r->m.tcp_flags = 2; r->m.tcp_flags_mask = 2),
		  -EINVAL, DYNPF_F_PROTO },
		{ "tcp flags of udp",
		  MUT(r->m.fields = DYNPF_M_TCP_FLAGS | DYNPF_M_PROTO; r->m.proto = 17;
		      r->m.tcp_flags = 2; r->m.tcp_flags_mask = 2),
		  -EINVAL, DYNPF_F_PROTO },
		{ "ports of icmp", MUT(m_dport(r, 9, 9); r->m.fields |= DYNPF_M_PROTO; r->m.proto = 1),
		  -EINVAL, DYNPF_F_PROTO },
		{ "iif 0", MUT(r->m.fields = DYNPF_M_IFINDEX; r->m.ifindex = 0), -EINVAL,
		  DYNPF_F_IFINDEX },
		{ "error 99", MUT(r->m.fields = DYNPF_M_ERROR; r->m.error = 99), -EINVAL,
		  DYNPF_F_ERROR },
		{ "5 tlv tests", MUT(r->m.ntlv = 5), -EINVAL, DYNPF_F_TLV },
		{ "tlv family", MUT(r->m.ntlv = 1; r->m.tlv[0].family = 9), -EINVAL, DYNPF_F_TLV },
		{ "tlv ext type", MUT(r->m.ntlv = 1; r->m.tlv[0].family = DYNPF_TT_EXT;
				      r->m.tlv[0].type = 6),
		  -EINVAL, DYNPF_F_TLV },
		{ "val field", MUT(r->m.nval = 1; r->m.val[0].field = 99), -EINVAL, DYNPF_F_VAL },
		{ "val lo > hi", MUT(r->m.nval = 1; r->m.val[0].field = DYNPF_V_MSS;
				     r->m.val[0].lo = 2; r->m.val[0].hi = 1),
		  -EINVAL, DYNPF_F_VAL },
		{ "unused val", MUT(r->m.val[3].hi = 1), -EINVAL, DYNPF_F_VAL },
#undef MUT
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[96];

		bad = good;
		cases[i].mut(&bad);
		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		dynpf_ctrl_add(&c, &good, NULL);
		dynpf_ctrl_add(&c, &bad, &s);
		dynpf_ctrl_commit(&c, &sc);
		dynpf_ctrl_flush(&c);
		snprintf(name, sizeof(name), "refuse %s", cases[i].name);
		CHECK_EQ(name, ack_of(s).a.err, cases[i].err);
		CHECK_EQ(name, ack_of(s).a.field, cases[i].field);
		CHECK_EQ(name, ack_of(sc).a.err, -EINVAL);
		CHECK_EQ(name, ack_of(sc).a.field, DYNPF_F_TXN);
	}
	/* Nothing changed: rule 50 (drop port 9... of any packet) is not there. */
	run(&p, &v, NULL);
	CHECK_EQ("refusals changed nothing", v.gen, gen);
	CHECK_EQ("refusals changed nothing", v.rule, 0);

	/* Messages themselves: version, type, size; delete and reset of
	 * missing rules; settings. */
	{
		struct dynpf_msg_txn t = { .h.type = DYNPF_MSG_TXN_BEGIN };
		struct dynpf_msg_rule_del d = { .h.type = DYNPF_MSG_RULE_DEL, .id = 777 };
		struct dynpf_msg_set st = { .h.type = DYNPF_MSG_SET, .key = 99 };
		struct dynpf_msg_counter_reset cr = { .h.type = DYNPF_MSG_COUNTER_RESET, .id = 777 };
		uint64_t sb, sd, sst, sst2, scr, sa;

		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, &sb);
		dynpf_ctrl_send(&c, &t, sizeof(t), &s); /* a second begin */
		dynpf_ctrl_send(&c, &d, sizeof(d), &sd);
		dynpf_ctrl_send(&c, &st, sizeof(st), &sst);
		st.key = DYNPF_SET_DEFAULT_ACTION;
		st.value = DYNPF_ACT_COUNT;
		dynpf_ctrl_send(&c, &st, sizeof(st), &sst2);
		dynpf_ctrl_send(&c, &cr, sizeof(cr), &scr);
		dynpf_ctrl_abort(&c, &sa);
		dynpf_ctrl_flush(&c);
		CHECK_EQ("begin", ack_of(sb).a.err, 0);
		CHECK_EQ("begin twice", ack_of(s).a.err, -EBUSY);
		CHECK_EQ("del missing", ack_of(sd).a.err, -ENOENT);
		CHECK_EQ("del missing", ack_of(sd).a.field, DYNPF_F_ID);
		CHECK_EQ("set bad key", ack_of(sst).a.field, DYNPF_F_KEY);
		CHECK_EQ("set bad value", ack_of(sst2).a.field, DYNPF_F_VALUE);
		CHECK_EQ("reset missing", ack_of(scr).a.err, -ENOENT);
		CHECK_EQ("abort", ack_of(sa).a.err, 0);
	}
}

/* Raw bytes into the ring's pages: each gets an error ack, nothing changes. */
static void test_hostile(void)
{
	uint32_t sizes[] = { 1, 8, 15, 16, 17, 23, 24, 25, 199, 201, 1000, 4000 };
	struct dynpf_verdict v, v0;
	unsigned int seed = 7;
	size_t n = 0;
	struct pkt p;

	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	run(&p, &v0, NULL);
	dynpf_ctrl_take(&c);
	for (int round = 0; round < 200; round++) {
		uint32_t size = sizes[round % (sizeof(sizes) / sizeof(sizes[0]))];
		uint8_t *slot = user_ring_buffer__reserve(c.urb, size);

		if (!slot)
			break;
		for (uint32_t i = 0; i < size; i++)
			slot[i] = rand_r(&seed);
		if (size >= 16 && round % 3 == 0) {
			/* A plausible header with a wrong size or type. */
			struct dynpf_msg_hdr *h = (void *)slot;

			h->version = DYNPF_CTRL_VERSION;
			h->type = 1 + round % 8;
		}
		if (round % 10 == 9) {
			user_ring_buffer__discard(c.urb, slot); /* skipped, no ack */
			continue;
		}
		user_ring_buffer__submit(c.urb, slot);
		c.sent++;
		n++;
	}
	CHECK_EQ("hostile flush", dynpf_ctrl_flush(&c), 0);
	CHECK_EQ("hostile: an ack each", c.nack, n);
	{
		size_t refused = 0;

		for (size_t i = 0; i < c.nack; i++)
			refused += c.ack[i].a.err != 0;
		CHECK_EQ("hostile: all refused", refused, n);
	}
	run(&p, &v, NULL);
	CHECK_EQ("hostile changed nothing", v.gen, v0.gen);
	CHECK_EQ("hostile changed nothing", v.rule, v0.rule);

	/* A busy sample (reserved, not submitted) holds the drain up; then it
	 * goes through. */
	{
		struct dynpf_msg_txn *t = user_ring_buffer__reserve(c.urb, sizeof(*t));
		uint64_t s;

		CHECK("busy: reserve", t != NULL, "reserve failed");
		if (t) {
			dynpf_ctrl_take(&c);
			memset(t, 0, sizeof(*t));
			t->h.version = DYNPF_CTRL_VERSION;
			t->h.type = DYNPF_MSG_TXN_ABORT;
			t->h.size = sizeof(*t);
			t->h.seq = s = c.next_seq++;
			dynpf_ctrl_abort(&c, NULL); /* queued behind the busy one */
			{
				uint64_t sent = c.sent;

				c.sent = c.acked; /* nothing expected yet */
				dynpf_ctrl_flush(&c);
				c.sent = sent;
			}
			CHECK_EQ("busy: nothing drained", c.nack, 0);
			user_ring_buffer__submit(c.urb, t);
			c.sent++;
			CHECK_EQ("busy: flush", dynpf_ctrl_flush(&c), 0);
			CHECK_EQ("busy: both acked", c.nack, 2);
			CHECK_EQ("busy: first", ack_of(s).a.err, -ENOENT);
		}
	}
}

static void test_prio_nonterm(void)
{
	struct dynpf_rule r[5] = {
		rule(10, 100, DYNPF_ACT_PASS), /* /24 */
		rule(11, 50, DYNPF_ACT_DROP),  /* /32: earlier */
		rule(12, 50, DYNPF_ACT_MARK),  /* same prio, after 11 by id... */
		rule(9, 40, DYNPF_ACT_COUNT),  /* before both */
		rule(13, 45, DYNPF_ACT_LIMIT), /* a policer before the drop */
	};
	struct dynpf_verdict v;
	struct pkt p;
	uint64_t s;

	m_src4(&r[0], 0, 24);
	m_src4(&r[1], 5, 32);
	r[2].arg = 77;
	m_src4(&r[3], 0, 16);
	r[4].arg = 1;
	r[4].burst = 2;
	m_src4(&r[4], 5, 32);
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, 1, NULL);
	dynpf_ctrl_del(&c, 3, NULL);
	for (int i = 0; i < 5; i++)
		dynpf_ctrl_add(&c, &r[i], NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("prio commit", ack_of(s).a.err, 0);
	CHECK_EQ("prio commit", ack_of(s).nrules, 5);

	mk4(&p, 6, 5, 1, 1000, 80, 0x10);
	run(&p, &v, NULL);
	CHECK_EQ("prio: /32 drop first", v.rule, 11);
	CHECK_EQ("prio: count, limit acted", v.nmatch, 2);
	CHECK_EQ("prio: count first", v.match[0], 9);
	CHECK_EQ("prio: then limit", v.match[1], 13);
	run(&p, &v, NULL); /* burst 2: the second conforms */
	CHECK_EQ("limit: 2nd conforms", v.rule, 11);
	run(&p, &v, NULL);
	CHECK_EQ("limit: 3rd dropped by the policer", v.rule, 13);
	CHECK_EQ("limit: 3rd dropped by the policer", v.action, DYNPF_ACT_DROP);

	mk4(&p, 6, 6, 1, 1000, 80, 0x10);
	run(&p, &v, NULL);
	CHECK_EQ("prio: /24 pass", v.rule, 10);
	CHECK_EQ("prio: count and mark before 10", v.nmatch, 2);
	CHECK_EQ("prio: count", v.match[0], 9);
	CHECK_EQ("prio: mark", v.match[1], 12);
	CHECK_EQ("prio: mark value", v.mark, 77);
	CHECK_EQ("prio: mark flag", v.flags, DYNPF_VF_MARK);
}

/* Start again from an empty rule set: a fresh load of the programs. */
static int reopen(uint32_t max_rules)
{
	struct dynpf_parse_cfg cfg = DYNPF_PARSE_CFG_DEFAULT;

	dynpf_ctrl_close(&c);
	dynpf_progs_close(&pr);
	if (dynpf_progs_open(&pr, true, &cfg, max_rules) || dynpf_ctrl_open(&c, pr.skel))
		return -1;
	return 0;
}

/*
 * Random rule sets, each replacing the last in one transaction: the BPF
 * classifier agrees with the linear reference on every packet.
 */
static void test_differential(void)
{
	unsigned int seed = 1234;
	int agree = 0, total = 0;

	if (reopen(4096)) {
		CHECK("differential: reopen", 0, "cannot load the programs");
		return;
	}

	for (int set = 0; set < 8; set++) {
		struct dynpf_rule rules[64];
		int n = 8 + rand_r(&seed) % 56;
		uint64_t s;

		for (int i = 0; i < n; i++) {
			static const uint8_t acts[] = { DYNPF_ACT_PASS, DYNPF_ACT_DROP,
							DYNPF_ACT_COUNT, DYNPF_ACT_MARK };
			struct dynpf_rule *r = &rules[i];
			uint32_t what = rand_r(&seed);

			*r = rule(100 + set * 64 + i, rand_r(&seed) % 8, acts[rand_r(&seed) % 4]);
			if (r->action == DYNPF_ACT_MARK)
				r->arg = i;
			if (what & 1)
				m_src4(r, rand_r(&seed) % 4, (uint8_t[]){ 30, 31, 32, 24 }[rand_r(&seed) % 4]);
			if (what & 2)
				m_proto(r, (what & 4) ? 6 : 17);
			if (what & 8) {
				uint16_t lo = 20 + rand_r(&seed) % 4;

				m_dport(r, lo, (what & 16) ? lo : lo + rand_r(&seed) % 3);
			}
			if (what & 32) {
				m_proto(r, 6); /* TCP flags name their protocol */
				r->m.fields |= DYNPF_M_TCP_FLAGS;
				r->m.tcp_flags = 0x02;
				r->m.tcp_flags_mask = 0x12;
			}
		}
		/* One transaction: delete the last set, add this one. */
		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		{
			static struct dynpf_rule prev[64];
			static int nprev;

			for (int i = 0; i < nprev; i++)
				dynpf_ctrl_del(&c, prev[i].id, NULL);
			memcpy(prev, rules, sizeof(rules));
			nprev = n;
		}
		for (int i = 0; i < n; i++)
			dynpf_ctrl_add(&c, &rules[i], NULL);
		dynpf_ctrl_commit(&c, &s);
		dynpf_ctrl_flush(&c);
		CHECK_EQ("differential commit", ack_of(s).a.err, 0);
		CHECK_EQ("differential commit", ack_of(s).nrules, n);
		for (int k = 0; k < 200; k++) {
			struct dynpf_verdict v, w;
			struct dynpf_pkt parsed;
			struct pkt p;

			mk4(&p, (k & 1) ? 6 : 17, rand_r(&seed) % 5, 1, 1000,
			    19 + rand_r(&seed) % 7, (uint8_t[]){ 0x02, 0x12, 0x10 }[k % 3]);
			if (run(&p, &v, &parsed))
				continue;
			{
				/* The reference: loader/channel/ruleset.c, every rule in order. */
				struct dynpf_ruleset rs = { .rules = rules, .n = n };

				dynpf_classify_native(&rs, &parsed, &w);
			}
			total++;
			if (v.rule == w.rule && v.action == w.action && v.nmatch == w.nmatch &&
			    !memcmp(v.match, w.match, sizeof(v.match[0]) * v.nmatch)) {
				agree++;
			} else if (total - agree <= 5) {
				printf("differential: set %d packet %d: bpf rule %u action %u nmatch %u, "
				       "reference rule %u action %u nmatch %u\n",
				       set, k, v.rule, v.action, v.nmatch, w.rule, w.action, w.nmatch);
				for (int q = 0; q < 6; q++)
					printf("  match[%d] bpf %u ref %u\n", q, v.match[q], w.match[q]);
			}
		}
	}
	CHECK("differential: BPF agrees with the reference", agree == total && total > 1000,
	      "%d of %d packets agree", agree, total);
}

/*
 * Tuple selection and buckets under churn: IPv4, IPv6 and tunnelled
 * packets against rules of either family or none, of TCP, UDP, ICMP or any
 * protocol, of the outer or the inner stack, where an IPv4 and an IPv6
 * prefix of one length share a tuple; each transaction deletes some rules
 * and adds others, so tuples fill, empty and are given out again. The BPF
 * classifier agrees with the linear reference on every packet.
 */
static void test_differential_mixed(void)
{
	static struct dynpf_rule live[256];
	unsigned int seed = 99;
	int nlive = 0, agree = 0, total = 0;
	uint32_t next_id = 1;

	if (reopen(4096)) {
		CHECK("mixed: reopen", 0, "cannot load the programs");
		return;
	}
	for (int set = 0; set < 24; set++) {
		int ndel = nlive ? rand_r(&seed) % (nlive + 1) : 0, nadd = rand_r(&seed) % 48;
		uint64_t s;

		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		for (int i = 0; i < ndel; i++) {
			int k = rand_r(&seed) % nlive;

			dynpf_ctrl_del(&c, live[k].id, NULL);
			live[k] = live[--nlive];
		}
		for (int i = 0; i < nadd && nlive < 256; i++) {
			static const uint8_t acts[] = { DYNPF_ACT_PASS, DYNPF_ACT_DROP,
							DYNPF_ACT_COUNT };
			static const uint8_t protos[] = { 0, 6, 17, 1, 58 };
			struct dynpf_rule *r = &live[nlive++];
			uint32_t what = rand_r(&seed), fam = what % 3;
			uint8_t proto = protos[(what >> 2) % 5];

			*r = rule(next_id++, rand_r(&seed) % 16, acts[rand_r(&seed) % 3]);
			r->m.stack = (what & 0x20) && !(what & 0x40);
			if (fam == 1)
				m_src4(r, rand_r(&seed) % 4, (uint8_t[]){ 24, 30, 32 }[rand_r(&seed) % 3]);
			else if (fam == 2)
				m_src6(r, rand_r(&seed) % 4, (uint8_t[]){ 24, 126, 128 }[rand_r(&seed) % 3]);
			if (proto == 1 && fam == 2)
				proto = 58;
			if (proto == 58 && fam == 1)
				proto = 1;
			if (proto)
				m_proto(r, proto);
			if ((proto == 6 || proto == 17) && (what & 0x80)) {
				uint16_t lo = 20 + rand_r(&seed) % 3;

				m_dport(r, lo, (what & 0x100) ? lo : lo + 1);
			}
			dynpf_ctrl_add(&c, r, NULL);
		}
		dynpf_ctrl_commit(&c, &s);
		dynpf_ctrl_flush(&c);
		CHECK_EQ("mixed: commit", ack_of(s).a.err, 0);
		CHECK_EQ("mixed: commit", ack_of(s).nrules, nlive);
		for (int k = 0; k < 120; k++) {
			static const uint8_t p4[] = { 6, 17, 1 }, p6[] = { 6, 17, 58 };
			struct dynpf_ruleset rs = { .rules = live, .n = nlive };
			struct dynpf_verdict v, w;
			struct dynpf_pkt parsed;
			struct pkt p, in;
			uint16_t dport = 19 + rand_r(&seed) % 5;
			uint8_t src = rand_r(&seed) % 5;

			switch (k % 3) {
			case 0:
				mk4(&p, p4[rand_r(&seed) % 3], src, 1, 1000, dport, 0x02);
				break;
			case 1:
				mk6(&p, p6[rand_r(&seed) % 3], src, 1, 1000, dport);
				break;
			default:
				mk4(&in, p4[rand_r(&seed) % 3], src, 1, 1000, dport, 0x02);
				mk_ipip(&p, rand_r(&seed) % 5, &in);
				break;
			}
			if (run(&p, &v, &parsed))
				continue;
			dynpf_classify_native(&rs, &parsed, &w);
			total++;
			if (v.rule == w.rule && v.action == w.action && v.nmatch == w.nmatch &&
			    !memcmp(v.match, w.match, sizeof(v.match[0]) * v.nmatch))
				agree++;
			else if (total - agree <= 5)
				printf("mixed: set %d packet %d (kind %d): bpf rule %u action %u "
				       "nmatch %u, reference rule %u action %u nmatch %u\n",
				       set, k, k % 3, v.rule, v.action, v.nmatch, w.rule, w.action,
				       w.nmatch);
		}
	}
	CHECK("mixed: BPF agrees with the reference", agree == total && total > 2500,
	      "%d of %d packets agree", agree, total);
}

/* Actions seen from outside: XDP and TC return codes, the skb mark. */
static void test_actions(void)
{
	struct dynpf_rule r[3] = { rule(20, 1, DYNPF_ACT_MARK), rule(21, 2, DYNPF_ACT_REDIRECT),
				   rule(22, 3, DYNPF_ACT_DROP) };
	struct __sk_buff skb;
	struct pkt p;
	int err;

	if (reopen(64)) {
		CHECK("actions: reopen", 0, "cannot load the programs");
		return;
	}
	r[0].arg = 0x5a5a;
	m_proto(&r[0], 6);
	r[1].arg = 1; /* lo */
	m_dport(&r[1], 80, 80);
	m_proto(&r[2], 6);
	CHECK_EQ("actions: commit", txn(r, 3).a.err, 0);
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	{
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p.b, .data_size_in = p.n);

		err = bpf_prog_test_run_opts(bpf_program__fd(pr.skel->progs.dynpf_xdp), &o);
		CHECK_EQ("actions: xdp drop", err ? -1 : (int)o.retval, 1 /* XDP_DROP */);
	}
	{
		memset(&skb, 0, sizeof(skb));
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p.b, .data_size_in = p.n,
			    .ctx_in = &skb, .ctx_size_in = sizeof(skb), .ctx_out = &skb,
			    .ctx_size_out = sizeof(skb));

		err = bpf_prog_test_run_opts(bpf_program__fd(pr.skel->progs.dynpf_tc_ingress), &o);
		CHECK_EQ("actions: tc drop", err ? -1 : (int)o.retval, 2 /* TC_ACT_SHOT */);
		CHECK_EQ("actions: tc mark", skb.mark, 0x5a5a);
	}
	mk4(&p, 6, 1, 1, 1000, 80, 0x02);
	{
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p.b, .data_size_in = p.n);

		err = bpf_prog_test_run_opts(bpf_program__fd(pr.skel->progs.dynpf_xdp), &o);
		CHECK_EQ("actions: xdp redirect", err ? -1 : (int)o.retval, 4 /* XDP_REDIRECT */);
	}
	{
		memset(&skb, 0, sizeof(skb));
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = p.b, .data_size_in = p.n,
			    .ctx_in = &skb, .ctx_size_in = sizeof(skb));

		err = bpf_prog_test_run_opts(bpf_program__fd(pr.skel->progs.dynpf_tc_ingress), &o);
		CHECK_EQ("actions: tc redirect", err ? -1 : (int)o.retval, 7 /* TC_ACT_REDIRECT */);
	}
}

/* ---- packets classified while transactions commit ------------------------ */

#define CONC_SET(gen, j) (1000 + ((gen) & 1) * 100 + (j))

static volatile int conc_stop;
static int conc_commits, conc_err;

/* Commit k installs set k & 1 (ids 1000.. or 1100..) in place of the other. */
static void *conc_committer(void *arg)
{
	uint32_t first = *(uint32_t *)arg;

	for (uint32_t k = first; !conc_stop; k++) {
		uint64_t s;

		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		for (int j = 0; j < 4; j++) {
			struct dynpf_rule r = rule(CONC_SET(k, j), j, j < 3 ? DYNPF_ACT_COUNT
									  : DYNPF_ACT_DROP);

			m_proto(&r, 6);
			if (j == 1)
				m_src4(&r, 0, 16);
			if (j == 2)
				m_dport(&r, 1, 100);
			if (k > first)
				dynpf_ctrl_del(&c, CONC_SET(k - 1, j), NULL);
			dynpf_ctrl_add(&c, &r, NULL);
		}
		dynpf_ctrl_commit(&c, &s);
		if (dynpf_ctrl_flush(&c) || ack_of(s).a.err) {
			conc_err++;
			break;
		}
		if (ack_of(s).a.gen != k) {
			conc_err++;
			break;
		}
		conc_commits++;
	}
	return NULL;
}

/*
 * Commit k happens at generation k (a fresh load) and installs set k & 1:
 * a packet classified at generation g must show rules of set g & 1 only,
 * all four of them.
 */
static void test_concurrency(void)
{
	uint32_t first = 1;
	int packets = 0, mixed = 0, gens = 0;
	uint32_t last_gen = 0;
	struct timespec t0, t;
	pthread_t th;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("concurrency: reopen", 0, "cannot load the programs");
		return;
	}
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	conc_stop = 0;
	pthread_create(&th, NULL, conc_committer, &first);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct dynpf_verdict v;
		int ok;

		if (run(&p, &v, NULL))
			break;
		packets++;
		if (!v.gen)
			goto next;
		ok = v.rule == CONC_SET(v.gen, 3) && v.nmatch == 3;
		for (int j = 0; j < 3 && ok; j++)
			ok = v.match[j] == CONC_SET(v.gen, j);
		if (!ok && ++mixed <= 3)
			printf("concurrency: gen %u: rule %u matched %u %u %u\n", v.gen, v.rule,
			       v.match[0], v.match[1], v.match[2]);
		if (v.gen != last_gen) {
			gens++;
			last_gen = v.gen;
		}
next:
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 2000);
	conc_stop = 1;
	pthread_join(th, NULL);
	printf("concurrency: %d packets over %d generations seen, %d commits\n", packets, gens,
	       conc_commits);
	CHECK_EQ("concurrency: commits refused", conc_err, 0);
	CHECK("concurrency: commits", conc_commits >= 10, "%d commits", conc_commits);
	CHECK("concurrency: generations seen", gens >= 5, "%d generations", gens);
	CHECK_EQ("concurrency: packets classified by a mix of rule sets", mixed, 0);
}

/* ---- a 100,000-rule set ----------------------------------------------------- */

static struct dynpf_rule rules100k[100000];

static void test_100k(void)
{
	enum { N = 100000 };
	unsigned int seed = 99;
	int agree = 0;
	struct timespec t0, t1;
	struct dynpf_verdict v;
	uint64_t s;
	struct pkt p;
	double ms;

	if (reopen(DYNPF_MAX_RULES)) {
		CHECK("100k: reopen", 0, "cannot load the programs");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	for (uint32_t i = 0; i < N; i++) {
		/* 198.18.x.y/32 sources with exact dports, a few masks. */
		struct dynpf_rule r = rule(i + 1, i % 1000, i % 7 ? DYNPF_ACT_PASS : DYNPF_ACT_DROP);

		r.m.fields = DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_PROTO | DYNPF_M_DPORT;
		r.m.family = 4;
		r.m.src_plen = i % 3 ? 32 : 24;
		r.m.src[0] = 198;
		r.m.src[1] = 18 + (i >> 16);
		r.m.src[2] = (i >> 8) & 0xff;
		r.m.src[3] = r.m.src_plen == 32 ? (i & 0xff) : 0;
		r.m.proto = 6;
		r.m.dport_lo = r.m.dport_hi = 1000 + i % 5;
		if (i % 11 == 0)
			r.m.dport_hi += 10; /* a range */
		rules100k[i] = r;
		dynpf_ctrl_add(&c, &r, NULL);
	}
	dynpf_ctrl_commit(&c, &s);
	CHECK_EQ("100k: flush", dynpf_ctrl_flush(&c), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("100k: %d rules loaded in one transaction in %.0f ms, %u tuples\n", N, ms,
	       ack_of(s).ntuples);
	CHECK_EQ("100k: commit", ack_of(s).a.err, 0);
	CHECK_EQ("100k: rules", ack_of(s).nrules, N);
	/* Packets aimed at random rules: the reference agrees. */
	for (int k = 0; k < 100; k++) {
		uint32_t i = rand_r(&seed) % N;
		struct dynpf_ruleset rs = { .rules = rules100k, .n = N };
		struct dynpf_pkt parsed;
		struct dynpf_verdict w;

		mk4(&p, 6, 0, 1, 1000, 1000 + i % 5 + (k & 1) * 7, 0x02);
		p.b[27] = 18 + (i >> 16);
		p.b[28] = (i >> 8) & 0xff;
		p.b[29] = i & 0xff;
		if (run(&p, &v, &parsed))
			continue;
		dynpf_classify_native(&rs, &parsed, &w);
		agree += v.rule == w.rule && v.action == w.action && v.rule;
	}
	CHECK_EQ("100k: packets decided by the reference's rule", agree, 100);
}

/* ---- samples ------------------------------------------------------------------ */

static int nsamples, sample_bad;

static int on_sample(void *ctx, void *data, size_t size)
{
	const struct pkt *p = ctx;
	const struct dynpf_sample *h = data;
	const struct dynpf_pkt *parsed = (const void *)(h + 1);

	nsamples++;
	if (size != sizeof(*h) + sizeof(*parsed) + h->cap_len || h->rule != 7 ||
	    h->cap_len != 40 || h->pkt_len != p->n || parsed->nlayers != 3 ||
	    memcmp((const uint8_t *)(parsed + 1), p->b, 40))
		sample_bad++;
	return 0;
}

/* A sample rule with a rate of 2/s: the first two packets are sent. */
static void test_sample(void)
{
	struct dynpf_rule r[2] = { rule(7, 1, DYNPF_ACT_SAMPLE), rule(8, 2, DYNPF_ACT_PASS) };
	struct ring_buffer *rb;
	struct dynpf_verdict v;
	struct pkt p;

	if (reopen(64)) {
		CHECK("sample: reopen", 0, "cannot load the programs");
		return;
	}
	r[0].sample_len = 40;
	r[0].sample_rate = 2;
	m_proto(&r[0], 6);
	CHECK_EQ("sample: commit", txn(r, 2).a.err, 0);
	{
		/* Read back (what `rules save` prints): the same rules, bytes. */
		struct dynpf_ruleset back;

		dynpf_ruleset_init(&back);
		CHECK_EQ("readback", dynpf_ruleset_read(pr.skel, &back), 0);
		CHECK_EQ("readback: rules", back.n, 2);
		CHECK("readback: identical", back.n == 2 && !memcmp(back.rules, r, sizeof(r)),
		      "rules differ");
		CHECK_EQ("readback: default settings", back.set_seen, 0);
		dynpf_ruleset_free(&back);
	}
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	rb = ring_buffer__new(bpf_map__fd(pr.skel->maps.dynpf_events), on_sample, &p, NULL);
	for (int i = 0; i < 5; i++) {
		run(&p, &v, NULL);
		CHECK_EQ("sample: verdict", v.rule, 8);
		CHECK_EQ("sample: acted", v.nmatch, 1);
	}
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	CHECK_EQ("sample: two sent (rate 2/s)", nsamples, 2);
	CHECK_EQ("sample: header, parse result and bytes", sample_bad, 0);
}

int main(void)
{
	struct dynpf_parse_cfg cfg = DYNPF_PARSE_CFG_DEFAULT;

	if (dynpf_probe_kernel())
		return 2;
	if (dynpf_progs_open(&pr, true, &cfg, DYNPF_MAX_RULES))
		return 2;
	if (dynpf_ctrl_open(&c, pr.skel))
		return 2;
	test_empty();
	test_basic();
	test_persist();
	test_settings();
	test_backpressure();
	test_recover();
	test_refusals();
	test_hostile();
	test_prio_nonterm();
	test_differential();
	test_differential_mixed();
	test_concurrency();
	test_actions();
	test_sample();
	test_100k();
	dynpf_ctrl_close(&c);
	dynpf_progs_close(&pr);
	printf("test_ctrl: %d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
