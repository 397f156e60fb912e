// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * build/test_ctrl: transactions through the channel, counters, settings, a
 * producer that does not drain, and one killed mid-transaction.
 */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "lib/util.h"

#include "ctrl.h"

void test_empty(void)
{
	struct dynpf_verdict v;
	struct pkt p;

	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	CHECK("empty: run", run(&p, &v, NULL) == 0, "test run failed");
	CHECK_EQ("empty", v.action, DYNPF_ACT_PASS);
	CHECK_EQ("empty", v.rule, 0);
	CHECK_EQ("empty", v.gen, 0);
}

void test_basic(void)
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
void test_persist(void)
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

/* A transaction of up to two settings (key 0: none). */
static void settings_txn(uint32_t k1, uint64_t v1, uint32_t k2, uint64_t v2)
{
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	if (k1)
		dynpf_ctrl_set(&c, k1, v1, NULL);
	if (k2)
		dynpf_ctrl_set(&c, k2, v2, NULL);
	dynpf_ctrl_commit(&c, NULL);
	dynpf_ctrl_flush(&c);
}

/* An ARP request, broadcast: what pass-arp-nd lets through before any rule. */
static void mk_arp(struct pkt *arp)
{
	memset(arp, 0, sizeof(*arp));
	memcpy(arp->b,
	       "\xff\xff\xff\xff\xff\xff\x02\0\0\0\0\x01\x08\x06"
	       "\x00\x01\x08\x00\x06\x04\x00\x01",
	       22);
	arp->n = 42;
}

/* SET (default action, ARP/ND) and COUNTER_RESET take effect at commit. */
void test_settings(void)
{
	struct dynpf_verdict v;
	struct pkt p, arp;
	uint64_t s;

	mk_arp(&arp);
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

	settings_txn(DYNPF_SET_PASS_ARP_ND, 0, 0, 0);
	run(&arp, &v, NULL);
	CHECK_EQ("pass-arp-nd off: ARP dropped", v.action, DYNPF_ACT_DROP);

	settings_txn(DYNPF_SET_PASS_ARP_ND, 1, DYNPF_SET_DEFAULT_ACTION, DYNPF_ACT_PASS);
	run(&p, &v, NULL);
	CHECK_EQ("default pass again", v.action, DYNPF_ACT_PASS);
	/* Both sides hold the settings: one more commit flips back to the side
	 * the journal brought up to date. */
	settings_txn(0, 0, 0, 0);
	run(&p, &v, NULL);
	CHECK_EQ("settings survive the side flip", v.action, DYNPF_ACT_PASS);
	run(&arp, &v, NULL);
	CHECK_EQ("settings survive the side flip", v.action, DYNPF_ACT_PASS);
}

/*
 * Catch-alls alone: no tuple, so the data path skips the view of the parse
 * and the tuples (bpf/classify.h); ARP still passes before them with
 * pass-arp-nd on, and meets them with it off.
 */
void test_catchall_alone(void)
{
	struct dynpf_rule r[2] = { rule(1, 1, DYNPF_ACT_COUNT), rule(2, 2, DYNPF_ACT_DROP) };
	struct dynpf_ack_commit a;
	struct dynpf_verdict v;
	struct pkt p, arp;

	if (reopen(64)) {
		CHECK("catch-alls alone: reopen", 0, "cannot load the programs");
		return;
	}
	mk_arp(&arp);
	mk4(&p, 6, 1, 1, 1000, 9, 0);
	a = txn(r, 2);
	CHECK("catch-alls alone: committed, in no tuple", !a.a.err && !a.ntuples,
	      "err %d, %u tuples", a.a.err, a.ntuples);
	run(&p, &v, NULL);
	CHECK("catch-alls alone: counted, then dropped",
	      v.rule == 2 && v.action == DYNPF_ACT_DROP && v.nmatch == 1 && v.match[0] == 1,
	      "rule %u action %u, %u matches", v.rule, v.action, v.nmatch);
	run(&arp, &v, NULL);
	CHECK("catch-alls alone: ARP passes before them", v.rule == 0 && v.action == DYNPF_ACT_PASS,
	      "rule %u action %u", v.rule, v.action);
	settings_txn(DYNPF_SET_PASS_ARP_ND, 0, 0, 0);
	run(&arp, &v, NULL);
	CHECK("catch-alls alone: pass-arp-nd off, ARP meets them",
	      v.rule == 2 && v.action == DYNPF_ACT_DROP, "rule %u action %u", v.rule, v.action);
	settings_txn(DYNPF_SET_PASS_ARP_ND, 1, 0, 0);
}

/*
 * A producer that does not drain (the daemon's clients): with the ring full
 * it waits timeout_ms, then fails clearly; nothing sent before is lost, and
 * once drained the next message goes through.
 */
void test_backpressure(void)
{
	struct dynpf_rule r = rule(60, 1, DYNPF_ACT_COUNT);
	uint64_t sent0, s;
	int n = 0, err = 0;
	double t0, ms;

	dynpf_ctrl_take(&c);
	c.self_drain = false;
	c.timeout_ms = 200;
	sent0 = c.sent;
	dynpf_ctrl_begin(&c, NULL);
	t0 = dynpf_now();
	while (!err && n < 100000) {
		err = dynpf_ctrl_reset(&c, 0, NULL);
		n++;
	}
	ms = (dynpf_now() - t0) * 1e3;
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

/*
 * A producer killed mid-transaction leaves messages in the ring; the next
 * one (the restarted daemon) recovers: they are drained with their acks
 * dropped, their transaction aborted, and its own acks are its own.
 */
void test_recover(void)
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
