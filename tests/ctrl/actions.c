// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * build/test_ctrl: priorities and non-terminal actions, the actions as XDP
 * and TC return codes, samples.
 */
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "dynpf.skel.h"

#include "ctrl.h"

/* p through XDP is decided by rule `rule`, with the rules m0 then m1 acting before it. */
static void decided(const char *name, const struct pkt *p, struct dynpf_verdict *v, uint32_t rule,
		    uint32_t m0, uint32_t m1)
{
	run(p, v, NULL);
	CHECK_EQ(name, v->rule, rule);
	CHECK_EQ(name, v->nmatch, 2);
	CHECK_EQ(name, v->match[0], m0);
	CHECK_EQ(name, v->match[1], m1);
}

void test_prio_nonterm(void)
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
	decided("prio: /32 drop first, count and limit acted", &p, &v, 11, 9, 13);
	run(&p, &v, NULL); /* burst 2: the second conforms */
	CHECK_EQ("limit: 2nd conforms", v.rule, 11);
	run(&p, &v, NULL);
	CHECK_EQ("limit: 3rd dropped by the policer", v.rule, 13);
	CHECK_EQ("limit: 3rd dropped by the policer", v.action, DYNPF_ACT_DROP);

	mk4(&p, 6, 6, 1, 1000, 80, 0x10);
	decided("prio: /24 pass, count and mark before 10", &p, &v, 10, 9, 12);
	CHECK_EQ("prio: mark value", v.mark, 77);
	CHECK_EQ("prio: mark flag", v.flags, DYNPF_VF_MARK);
}

/* Actions seen from outside: XDP and TC return codes, the skb mark. */
void test_actions(void)
{
	struct dynpf_rule r[3] = { rule(20, 1, DYNPF_ACT_MARK), rule(21, 2, DYNPF_ACT_REDIRECT),
				   rule(22, 3, DYNPF_ACT_DROP) };
	struct bpf_program *xdp, *tc;
	struct __sk_buff skb;
	struct pkt p;

	if (reopen_hooks(64, CTRL_HOOKS_XDP_TC)) {
		CHECK("actions: reopen", 0, "cannot load the programs");
		return;
	}
	xdp = dynpf_progs_prog(&pr, DYNPF_HOOK_XDP);
	tc = dynpf_progs_prog(&pr, DYNPF_HOOK_TC_INGRESS);
	r[0].arg = 0x5a5a;
	m_proto(&r[0], 6);
	r[1].arg = 1; /* lo */
	m_dport(&r[1], 80, 80);
	m_proto(&r[2], 6);
	CHECK_EQ("actions: commit", txn(r, 3).a.err, 0);
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	CHECK_EQ("actions: xdp drop", test_run(xdp, &p, NULL), 1 /* XDP_DROP */);
	CHECK_EQ("actions: tc drop", test_run(tc, &p, &skb), 2 /* TC_ACT_SHOT */);
	CHECK_EQ("actions: tc mark", skb.mark, 0x5a5a);
	mk4(&p, 6, 1, 1, 1000, 80, 0x02);
	CHECK_EQ("actions: xdp redirect", test_run(xdp, &p, NULL), 4 /* XDP_REDIRECT */);
	CHECK_EQ("actions: tc redirect", test_run(tc, &p, &skb), 7 /* TC_ACT_REDIRECT */);
}

/*
 * Byte tests in the BPF classifier, on XDP and TC: the destination port
 * read raw from the L4 header (@l4 2 2), a value that differs, and bytes
 * past the IP datagram (Ethernet padding is not the datagram's).
 */
void test_bytes(void)
{
	struct dynpf_rule r[4] = { rule(40, 1, DYNPF_ACT_DROP), rule(41, 2, DYNPF_ACT_DROP),
				   rule(42, 3, DYNPF_ACT_DROP), rule(43, 4, DYNPF_ACT_DROP) };
	struct bpf_program *xdp, *tc;
	struct __sk_buff skb;
	struct pkt p;

	if (reopen_hooks(64, CTRL_HOOKS_XDP_TC)) {
		CHECK("bytes: reopen", 0, "cannot load the programs");
		return;
	}
	xdp = dynpf_progs_prog(&pr, DYNPF_HOOK_XDP);
	tc = dynpf_progs_prog(&pr, DYNPF_HOOK_TC_INGRESS);
	m_data(&r[0], DYNPF_DT_L4, 0, 2, 2); /* dport 23 */
	r[0].m.data[0].val[1] = 23;
	m_data(&r[1], DYNPF_DT_L4, 0, 2, 2); /* dport 22 */
	r[1].m.data[0].val[1] = 22;
	CHECK_EQ("bytes: commit", txn(r, 2).a.err, 0);
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	CHECK_EQ("bytes: xdp, @l4 2 2 22", test_run(xdp, &p, NULL), 1 /* XDP_DROP */);
	CHECK_EQ("bytes: tc, @l4 2 2 22", test_run(tc, &p, &skb), 2 /* TC_ACT_SHOT */);
	mk4(&p, 6, 1, 1, 1000, 80, 0x02);
	CHECK_EQ("bytes: xdp, dport 80 passes", test_run(xdp, &p, NULL), 2 /* XDP_PASS */);
	/* The first byte past the datagram (a padding byte, 0), and its last. */
	m_data(&r[2], DYNPF_DT_L3, 0, (p.b[16] << 8 | p.b[17]), 1);
	m_data(&r[3], DYNPF_DT_L3, 0, (p.b[16] << 8 | p.b[17]) - 1, 1);
	r[3].m.data[0].val[0] = p.b[p.n - 1];
	p.b[p.n++] = 0;
	CHECK_EQ("bytes: commit past the datagram", txn(&r[2], 1).a.err, 0);
	CHECK_EQ("bytes: xdp, past the datagram", test_run(xdp, &p, NULL), 2 /* XDP_PASS */);
	CHECK_EQ("bytes: tc, past the datagram", test_run(tc, &p, &skb), -1 /* TC_NEXT */);
	CHECK_EQ("bytes: commit its last byte", txn(&r[3], 1).a.err, 0);
	CHECK_EQ("bytes: xdp, the datagram's last byte", test_run(xdp, &p, NULL), 1);
	CHECK_EQ("bytes: tc, the datagram's last byte", test_run(tc, &p, &skb), 2);
}

/* ---- samples ------------------------------------------------------------------ */

static int nsamples, sample_bad;

static int on_sample(void *ctx, void *data, size_t size)
{
	const struct pkt *p = ctx;
	const struct dynpf_sample *h = data;
	const struct dynpf_pkt *parsed = (const void *)(h + 1);

	nsamples++;
	if (size != sizeof(*h) + sizeof(*parsed) + h->cap_len || h->rule != 7 || h->cap_len != 40 ||
	    h->pkt_len != p->n || parsed->nlayers != 3 ||
	    memcmp((const uint8_t *)(parsed + 1), p->b, 40))
		sample_bad++;
	return 0;
}

/* A sample rule with a rate of 2/s: the first two packets are sent. */
void test_sample(void)
{
	struct dynpf_rule r[2] = { rule(7, 1, DYNPF_ACT_SAMPLE), rule(8, 2, DYNPF_ACT_PASS) };
	struct ring_buffer *rb;
	struct dynpf_verdict v;
	struct pkt p;

	if (reopen_hooks(64, CTRL_HOOKS_XDP_TC)) {
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
