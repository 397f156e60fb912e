// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_ctrl: what the drain refuses: bad rules and messages, raw bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "ctrl.h"

/* Every refusal: errno and field, and the transaction changes nothing. */
void test_refusals(void)
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
#define MUT(body)                             \
	({                                    \
		void f_(struct dynpf_rule *r) \
		{                             \
			body;                 \
		}                             \
		f_;                           \
	})
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
		{ "ports of icmp",
		  MUT(m_dport(r, 9, 9); r->m.fields |= DYNPF_M_PROTO; r->m.proto = 1), -EINVAL,
		  DYNPF_F_PROTO },
		{ "iif 0", MUT(r->m.fields = DYNPF_M_IFINDEX; r->m.ifindex = 0), -EINVAL,
		  DYNPF_F_IFINDEX },
		{ "error 99", MUT(r->m.fields = DYNPF_M_ERROR; r->m.error = 99), -EINVAL,
		  DYNPF_F_ERROR },
		{ "5 tlv tests", MUT(r->m.ntlv = 5), -EINVAL, DYNPF_F_TLV },
		{ "tlv family", MUT(r->m.ntlv = 1; r->m.tlv[0].family = DYNPF_TLV_NALL), -EINVAL,
		  DYNPF_F_TLV },
		{ "tlv ext type",
		  MUT(r->m.ntlv = 1; r->m.tlv[0].family = DYNPF_TT_EXT; r->m.tlv[0].type = 6),
		  -EINVAL, DYNPF_F_TLV },
		{ "val field", MUT(r->m.nval = 1; r->m.val[0].field = 99), -EINVAL, DYNPF_F_VAL },
		{ "val lo > hi",
		  MUT(r->m.nval = 1; r->m.val[0].field = DYNPF_V_MSS; r->m.val[0].lo = 2;
		      r->m.val[0].hi = 1),
		  -EINVAL, DYNPF_F_VAL },
		{ "unused val", MUT(r->m.val[3].hi = 1), -EINVAL, DYNPF_F_VAL },
		/* Byte tests: the language's refusals (tests/lang/errors.c), here. */
		{ "data without its bit", MUT(m_data(r, DYNPF_DT_L3, 0, 0, 1); r->m.fields = 0),
		  -EINVAL, DYNPF_F_DATA },
		{ "data bit without tests", MUT(r->m.fields = DYNPF_M_DATA), -EINVAL,
		  DYNPF_F_DATA },
		{ "5 data tests", MUT(m_data(r, DYNPF_DT_L3, 0, 0, 1); r->m.ndata = 5), -EINVAL,
		  DYNPF_F_DATA },
		{ "data len 0", MUT(m_data(r, DYNPF_DT_L4, 0, 0, 1); r->m.data[0].len = 0), -EINVAL,
		  DYNPF_F_DATA },
		{ "data len 17", MUT(m_data(r, DYNPF_DT_L4, 0, 0, 16); r->m.data[0].len = 17),
		  -EINVAL, DYNPF_F_DATA },
		{ "data past the tcp option", MUT(m_data(r, DYNPF_TLV_TCP_OPT, 253, 37, 2)),
		  -EINVAL, DYNPF_F_DATA },
		{ "data past the geneve option",
		  MUT(m_data(r, DYNPF_TLV_GENEVE_OPT, 0x010280, 121, 4)), -EINVAL, DYNPF_F_DATA },
		{ "data past offset 65535", MUT(m_data(r, DYNPF_DT_PAYLOAD, 0, 65535, 1)), -EINVAL,
		  DYNPF_F_DATA },
		{ "data where past the declared families", MUT(m_data(r, DYNPF_TLV_NALL, 0, 0, 1)),
		  -EINVAL, DYNPF_F_DATA },
		{ "data ext header", MUT(m_data(r, DYNPF_TT_EXT, 0, 0, 1)), -EINVAL, DYNPF_F_DATA },
		{ "data layer with a type", MUT(m_data(r, DYNPF_DT_L3, 1, 0, 1)), -EINVAL,
		  DYNPF_F_DATA },
		{ "data tcp type 256", MUT(m_data(r, DYNPF_TLV_TCP_OPT, 256, 0, 1)), -EINVAL,
		  DYNPF_F_DATA },
		{ "data gtpu type 0", MUT(m_data(r, DYNPF_DT_GTPU_EXT, 0, 0, 1)), -EINVAL,
		  DYNPF_F_DATA },
		{ "data value outside the mask",
		  MUT(m_data(r, DYNPF_DT_L3, 0, 0, 1); r->m.data[0].val[0] = 1;
		      r->m.data[0].mask[0] = 2),
		  -EINVAL, DYNPF_F_DATA },
		{ "data mask of nothing",
		  MUT(m_data(r, DYNPF_DT_L3, 0, 0, 1); r->m.data[0].mask[0] = 0), -EINVAL,
		  DYNPF_F_DATA },
		{ "data mask past len",
		  MUT(m_data(r, DYNPF_DT_L3, 0, 0, 1); r->m.data[0].mask[1] = 1), -EINVAL,
		  DYNPF_F_DATA },
		{ "unused data", MUT(r->m.data[2].off = 1), -EINVAL, DYNPF_F_DATA },
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
		struct dynpf_msg_counter_reset cr = { .h.type = DYNPF_MSG_COUNTER_RESET,
						      .id = 777 };
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
void test_hostile(void)
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
