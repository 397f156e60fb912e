// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Protocols declared at runtime through the control channel (PROTO_ADD,
 * PROTO_DEL; docs/rules.md): the drain checks a declaration as user space
 * does (dynpf_proto_check()) and refuses it with the member it names, keeps
 * ids, names and bindings apart, refuses a rule on a protocol not declared
 * and the deletion of one a rule tests, and a commit gives the packet
 * programs the declarations with the rules, in XDP and TC, without a
 * reload, as a new version of the table (parsers/decltab.h).
 */
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dynpf.skel.h"

#include "decltab.h" /* before ctrl.h: its c is a global */

#include "ctrl.h"
#include "../lib/acme.h"

/* One transaction of a declaration, a rule (NULL: none) and a deletion (-1: none). */
static void one_txn(const struct dynpf_proto_desc *d, const struct dynpf_rule *r, int del,
		    uint64_t *sd, uint64_t *sr, uint64_t *sdel, uint64_t *sc)
{
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	if (d)
		dynpf_ctrl_proto_add(&c, d, sd);
	if (r)
		dynpf_ctrl_add(&c, r, sr);
	if (del >= 0)
		dynpf_ctrl_proto_del(&c, del, sdel);
	dynpf_ctrl_commit(&c, sc);
	dynpf_ctrl_flush(&c);
}

/* eth / IPv4 / UDP to 7777 / acme: 8 bytes, TLV 5 (4 bytes) and TLV 9 (2). */
static void mk_acme(struct pkt *p, uint16_t dport)
{
	static const uint8_t pl[] = { 1, 2, 3, 4, 5, 6, 7, 8, 5, 4, 0xab, 0xcd, 9, 2 };

	mk4(p, 17, 1, 2, 40000, dport, 0);
	memcpy(p->b + p->n, pl, sizeof(pl));
	p->n += sizeof(pl);
	p->b[16] = (p->n - 14) >> 8; /* the IPv4 and UDP lengths */
	p->b[17] = (p->n - 14) & 0xff;
	p->b[38] = (p->n - 34) >> 8;
	p->b[39] = (p->n - 34) & 0xff;
}

/* The packet's parse and verdict at hook (XDP, TC ingress), traced. */
static int run_at(enum dynpf_hook hook, const struct pkt *p, struct dynpf_verdict *v,
		  struct dynpf_pkt *parsed)
{
	char why[128];

	if (dynpf_progs_run(&pr, hook, p->b, p->n, parsed, why, sizeof(why)) != DYNPF_RUN_OK)
		return -1;
	*v = *pr.last_v;
	return 0;
}

/* Both tables of dynpf_protos, and the state. */
static void read_protos(struct dynpf_proto_tab t[2], struct dynpf_state *st)
{
	int fd = bpf_map__fd(pr.skel->maps.dynpf_protos);
	__u32 k0 = 0, k1 = 1, zero = 0;

	CHECK("dynpf_protos",
	      !bpf_map_lookup_elem(fd, &k0, &t[0]) && !bpf_map_lookup_elem(fd, &k1, &t[1]),
	      "cannot read dynpf_protos");
	CHECK("dynpf_state",
	      !bpf_map_lookup_elem(bpf_map__fd(pr.skel->maps.dynpf_state), &zero, st),
	      "cannot read dynpf_state");
}

/* Rules a and b (0: none) deleted in one transaction. */
static void txn_del2(__u32 a, __u32 b)
{
	uint64_t sc;

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, a, NULL);
	if (b)
		dynpf_ctrl_del(&c, b, NULL);
	dynpf_ctrl_commit(&c, &sc);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("rules deleted", ack_of(sc).a.err, 0);
}

void test_protos(void)
{
	static struct dynpf_pkt parsed;
	struct dynpf_proto_desc d = test_acme(2), bad;
	struct dynpf_rule r = rule(70, 70, DYNPF_ACT_DROP);
	uint64_t sd, sr, sdel, sc;
	struct dynpf_verdict v;
	struct pkt p;

	if (reopen_hooks(4096, CTRL_HOOKS_XDP_TC)) {
		CHECK("protos: reopen", 0, "cannot load the programs");
		return;
	}
	/* A rule on acme's TLV 5, bytes 0-1 0xabcd, before acme is declared: refused. */
	r.m.ntlv = 0;
	m_data(&r, DYNPF_TLV_NFAM + 2, 5, 0, 2);
	r.m.data[0].val[0] = 0xab;
	r.m.data[0].val[1] = 0xcd;
	one_txn(NULL, &r, -1, NULL, &sr, NULL, &sc);
	CHECK_EQ("rule on an undeclared protocol", ack_of(sr).a.err, -ENOENT);
	CHECK_EQ("rule on an undeclared protocol", ack_of(sr).a.field, DYNPF_F_DATA);
	CHECK_EQ("rule on an undeclared protocol: the commit", ack_of(sc).a.err, -EINVAL);

	/* Hostile declarations: the validator's member, nothing applied. */
	bad = d;
	bad.tlv.len.unit = 0;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("units 0", ack_of(sd).a.err, -EINVAL);
	CHECK_EQ("units 0", ack_of(sd).a.field, DYNPF_F_PROTO_LEN_UNIT);
	bad = d;
	bad.tlv.hdr_len = 0;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("a TLV header of 0 bytes", ack_of(sd).a.field, DYNPF_F_PROTO_HDR_LEN);
	bad = d;
	bad.at_val = 6081;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("geneve's port", ack_of(sd).a.field, DYNPF_F_PROTO_PORT);
	bad = d;
	bad.hdr_f = (struct dynpf_lenfield){ .off = 9, .size = 1, .mask = 0xff, .unit = 1 };
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("a length field past the fixed part", ack_of(sd).a.field, DYNPF_F_PROTO_HDR_F_OFF);
	bad = d;
	bad.id = DYNPF_MAX_PROTOS;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("id 8", ack_of(sd).a.field, DYNPF_F_PROTO_ID);
	CHECK_EQ("id 8: the commit", ack_of(sc).a.err, -EINVAL);
	mk_acme(&p, 7777);
	run(&p, &v, &parsed);
	CHECK_EQ("refused: nothing declared", parsed.nlayers, 3);

	/* Declared and tested in one transaction: the packet's TLV 5 matches. */
	one_txn(&d, &r, -1, &sd, &sr, NULL, &sc);
	CHECK_EQ("declared", ack_of(sd).a.err, 0);
	CHECK_EQ("declared: the rule", ack_of(sr).a.err, 0);
	CHECK_EQ("declared: the commit", ack_of(sc).a.err, 0);
	for (int h = 0; h < 2; h++) {
		enum dynpf_hook hook = h ? DYNPF_HOOK_TC_INGRESS : DYNPF_HOOK_XDP;
		const char *name = h ? "tc: acme" : "xdp: acme";

		CHECK(name, !run_at(hook, &p, &v, &parsed), "test run failed");
		CHECK_EQ(name, parsed.nlayers, 4);
		CHECK_EQ(name, parsed.layers[3].proto, DYNPF_P_DECL);
		CHECK_EQ(name, parsed.layers[3].sub, 2);
		CHECK_EQ(name, parsed.tlv[DYNPF_TLV_NFAM + 2].n, 2);
		CHECK_EQ(name, v.rule, 70);
		CHECK_EQ(name, v.action, DYNPF_ACT_DROP);
	}
	/* Other bytes, or another port: no match. */
	p.b[p.n - 5] = 0xce;
	run(&p, &v, &parsed);
	CHECK_EQ("other bytes", v.rule, 0);
	mk_acme(&p, 7778);
	run(&p, &v, &parsed);
	CHECK_EQ("another port", v.rule, 0);
	CHECK_EQ("another port", parsed.nlayers, 3);

	/* Taken: its id, its name, its binding. */
	bad = test_acme(2);
	memcpy(bad.name, "other", 6);
	bad.at_val = 1;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("id taken", ack_of(sd).a.err, -EEXIST);
	CHECK_EQ("id taken", ack_of(sd).a.field, DYNPF_F_PROTO_ID);
	bad = test_acme(3);
	bad.at_val = 1;
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("name taken", ack_of(sd).a.field, DYNPF_F_PROTO_NAME);
	bad = test_acme(3);
	memcpy(bad.name, "other", 6);
	one_txn(&bad, NULL, -1, &sd, NULL, NULL, &sc);
	CHECK_EQ("binding taken", ack_of(sd).a.err, -EEXIST);
	CHECK_EQ("binding taken", ack_of(sd).a.field, DYNPF_F_PROTO_AT);

	/* A type wider than acme's u8 type field. */
	{
		struct dynpf_rule w = rule(71, 71, DYNPF_ACT_COUNT);

		w.m.ntlv = 1;
		w.m.tlv[0].family = DYNPF_TLV_NFAM + 2;
		w.m.tlv[0].type = 256;
		one_txn(NULL, &w, -1, NULL, &sr, NULL, &sc);
		CHECK_EQ("a type past acme's", ack_of(sr).a.err, -EINVAL);
		CHECK_EQ("a type past acme's", ack_of(sr).a.field, DYNPF_F_TLV);
	}

	/* In use: not deleted; with its rule in the same transaction, deleted. */
	one_txn(NULL, NULL, 2, NULL, NULL, &sdel, &sc);
	CHECK_EQ("delete in use", ack_of(sdel).a.err, -EBUSY);
	CHECK_EQ("delete in use", ack_of(sdel).a.field, DYNPF_F_PROTO_ID);
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, 70, NULL);
	dynpf_ctrl_proto_del(&c, 2, &sdel);
	dynpf_ctrl_commit(&c, &sc);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("delete with its rule", ack_of(sdel).a.err, 0);
	CHECK_EQ("delete with its rule", ack_of(sc).a.err, 0);
	mk_acme(&p, 7777);
	run(&p, &v, &parsed);
	CHECK_EQ("deleted: not parsed", parsed.nlayers, 3);
	one_txn(NULL, NULL, 2, NULL, NULL, &sdel, &sc);
	CHECK_EQ("delete what is not there", ack_of(sdel).a.err, -ENOENT);

	/* A rule added and deleted in one transaction counts for nothing. */
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_proto_add(&c, &d, NULL);
	dynpf_ctrl_add(&c, &r, NULL);
	dynpf_ctrl_del(&c, 70, NULL);
	dynpf_ctrl_proto_del(&c, 2, &sdel);
	dynpf_ctrl_commit(&c, &sc);
	dynpf_ctrl_flush(&c);
	CHECK_EQ("added and deleted", ack_of(sdel).a.err, 0);
	CHECK_EQ("added and deleted", ack_of(sc).a.err, 0);

	/* Outside a transaction: refused. */
	{
		dynpf_ctrl_take(&c);
		dynpf_ctrl_proto_add(&c, &d, &sd);
		dynpf_ctrl_flush(&c);
		CHECK_EQ("outside a transaction", ack_of(sd).a.err, -EPERM);
	}

	/*
	 * Versions: a commit that changes the declarations writes the other
	 * table, born at its generation (the one in force before it stays
	 * for the packets classified before); rules alone leave both alone;
	 * packets walk declared protocols while a rule tests one.
	 */
	one_txn(&d, &r, -1, &sd, &sr, NULL, &sc);
	CHECK_EQ("versions: declared", ack_of(sc).a.err, 0);
	{
		struct dynpf_proto_tab t[2];
		struct dynpf_state st;
		__u64 born, nheld;
		__u32 cur;
		struct dynpf_rule r2 = rule(71, 71, DYNPF_ACT_COUNT),
				  full = rule(72, 72, DYNPF_ACT_PASS);
		struct dynpf_proto_desc d3 = test_acme(3);

		read_protos(t, &st);
		cur = dynpf_proto_tab_cur(&t[0], &t[1], st.gen);
		born = t[cur].born;
		CHECK_EQ("versions: the new table's generation", born, st.gen);
		CHECK_EQ("versions: declared in the new", t[cur].key[2],
			 DYNPF_PROTO_KEY(DYNPF_PAT_UDP, 7777));
		CHECK_EQ("versions: the new's bits", t[cur].bits, DYNPF_DECL_UDP);
		CHECK_EQ("versions: not in the one before", t[!cur].key[2], 0);
		CHECK_EQ("versions: the one before, for the packets before",
			 dynpf_proto_tab_cur(&t[0], &t[1], st.gen - 1), !cur);
		CHECK_EQ("versions: walked", !!(st.pub & DYNPF_PUB_DECL), 1);

		/* A rule on it, in a transaction of its own: no table written. */
		m_data(&r2, DYNPF_TLV_NFAM + 2, 9, 0, 1);
		one_txn(NULL, &r2, -1, NULL, &sr, NULL, &sc);
		CHECK_EQ("versions: a rule", ack_of(sc).a.err, 0);
		read_protos(t, &st);
		CHECK_EQ("versions: a rule writes no table", t[cur].born, born);
		CHECK_EQ("versions: a rule writes no table",
			 dynpf_proto_tab_cur(&t[0], &t[1], st.gen), cur);

		/* Its rules gone: not walked; a rule that needs the whole parse: walked. */
		txn_del2(70, 71);
		read_protos(t, &st);
		CHECK_EQ("versions: no rule tests it", !!(st.pub & DYNPF_PUB_DECL), 0);
		CHECK_EQ("versions: still declared", t[cur].key[2] != 0, 1);
		full.m.fields = DYNPF_M_ERROR;
		one_txn(NULL, &full, -1, NULL, &sr, NULL, &sc);
		CHECK_EQ("versions: a rule on the parse error", ack_of(sc).a.err, 0);
		read_protos(t, &st);
		CHECK_EQ("versions: the whole parse", !!(st.pub & DYNPF_PUB_DECL), 1);

		/*
		 * Two declaration changes back to back: the second would
		 * write the table packets of the first's generation may still
		 * read, so it waits for a grace period (once), then is in force.
		 */
		CHECK_EQ("versions: quiesce", dynpf_ctrl_quiesce(&c), 0);
		d3.at_val = 7000;
		memcpy(d3.name, "acme3", 6);
		one_txn(&d3, NULL, -1, &sd, NULL, NULL, &sc);
		CHECK_EQ("versions: a second protocol", ack_of(sc).a.err, 0);
		nheld = c.nheld;
		one_txn(NULL, NULL, 3, NULL, NULL, &sdel, &sc);
		CHECK_EQ("versions: deleted at once after", ack_of(sc).a.err, 0);
		CHECK_EQ("versions: held for a grace period", c.nheld - nheld, 1);
		read_protos(t, &st);
		cur = dynpf_proto_tab_cur(&t[0], &t[1], st.gen);
		CHECK_EQ("versions: deleted", t[cur].key[3], 0);
		CHECK_EQ("versions: the one before has it", t[!cur].key[3] != 0, 1);
		CHECK_EQ("versions: acme stays", t[cur].key[2] != 0, 1);
		txn_del2(72, 0);
	}
}
