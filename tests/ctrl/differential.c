// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * build/test_ctrl: the BPF classifier against the linear reference, on
 * random rule sets, under churn, and on a 100,000-rule set.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "match.h"
#include "dynpf.skel.h"
#include "lib/util.h"

#include "ctrl.h"

/* The same rule decided, with the same action, after the same acting rules. */
static bool same_verdict(const struct dynpf_verdict *v, const struct dynpf_verdict *w)
{
	return v->rule == w->rule && v->action == w->action && v->nmatch == w->nmatch &&
	       !memcmp(v->match, w->match, sizeof(v->match[0]) * v->nmatch);
}

/*
 * Random rule sets, each replacing the last in one transaction: the BPF
 * classifier agrees with the linear reference on every packet.
 */
void test_differential(void)
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
				m_src4(r, rand_r(&seed) % 4,
				       (uint8_t[]){ 30, 31, 32, 24 }[rand_r(&seed) % 4]);
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

				dynpf_classify_native(&rs, &parsed, p.b, &w);
			}
			total++;
			if (same_verdict(&v, &w)) {
				agree++;
			} else if (total - agree <= 5) {
				printf("differential: set %d packet %d: bpf rule %u action %u nmatch %u, "
				       "reference rule %u action %u nmatch %u\n",
				       set, k, v.rule, v.action, v.nmatch, w.rule, w.action,
				       w.nmatch);
				for (int q = 0; q < 6; q++)
					printf("  match[%d] bpf %u ref %u\n", q, v.match[q],
					       w.match[q]);
			}
		}
	}
	CHECK("differential: BPF agrees with the reference", agree == total && total > 1000,
	      "%d of %d packets agree", agree, total);
}

/*
 * The __u64 member of stack 0's part of dynpf_tuple_sel (struct
 * dynpf_sel_stack, bpf/rules.h), found by name in the object's BTF: ~0
 * when it cannot be read.
 */
static __u64 sel_word(const char *member)
{
	const struct btf *btf = bpf_object__btf(pr.skel->obj);
	int fd = bpf_map__fd(pr.skel->maps.dynpf_tuple_sel);
	__u32 vsz = bpf_map__value_size(pr.skel->maps.dynpf_tuple_sel), zero = 0;
	const struct btf_member *m;
	const struct btf_type *t;
	long off = -1;
	uint8_t *sel;
	__u64 k = ~0ull;
	int id;

	id = btf ? btf__find_by_name_kind(btf, "dynpf_sel_stack", BTF_KIND_STRUCT) : -1;
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	m = t ? btf_members(t) : NULL;
	for (__u16 i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), member))
			off = btf_member_bit_offset(t, i) / 8; /* stk[0] begins the value */
	sel = calloc(1, vsz);
	if (sel && off >= 0 && off + sizeof(k) <= vsz && !bpf_map_lookup_elem(fd, &zero, sel))
		memcpy(&k, sel + off, sizeof(k));
	free(sel);
	return k;
}

static __u64 keyed0(void)
{
	return sel_word("keyed");
}

/*
 * The key hint (bpf/rules.h, dynpf_tuple_sel.keyed): a packet whose
 * candidate tuples are all konst makes no key. The hint has a bit for each
 * tuple that pins a field and none for a konst one; with the /32's tuple
 * and the catch-all's, the /32 still decides its packets (its key made),
 * the catch-all the others; with the catch-all alone, no bit.
 */
void test_keyed_hint(void)
{
	struct dynpf_rule rules[2];
	struct dynpf_verdict v;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("keyed hint: reopen", 0, "cannot load the programs");
		return;
	}
	rules[0] = rule(8, 9, DYNPF_ACT_PASS); /* the catch-all: konst */
	CHECK_EQ("keyed hint: the catch-all loads", txn(rules, 1).a.err, 0);
	CHECK("keyed hint: no bit for a konst tuple", keyed0() == 0, "keyed[0] %#llx",
	      (unsigned long long)keyed0());
	mk4(&p, 6, 5, 1, 1000, 80, 0x02);
	CHECK("keyed hint: the catch-all alone decides", !run(&p, &v, NULL) && v.rule == 8,
	      "rule %u", v.rule);
	rules[0] = rule(7, 1, DYNPF_ACT_DROP);
	m_src4(&rules[0], 5, 32); /* ip saddr 198.18.0.5 drop */
	CHECK_EQ("keyed hint: the /32 loads", txn(rules, 1).a.err, 0);
	CHECK("keyed hint: one bit, the /32's tuple", __builtin_popcountll(keyed0()) == 1,
	      "keyed[0] %#llx", (unsigned long long)keyed0());
	CHECK("keyed hint: the /32 decides", !run(&p, &v, NULL) && v.rule == 7, "rule %u", v.rule);
	mk4(&p, 6, 6, 1, 1000, 80, 0x02);
	CHECK("keyed hint: the catch-all decides the rest", !run(&p, &v, NULL) && v.rule == 8,
	      "rule %u", v.rule);
}

/* The field filter's tuple bits at value v of stack 0's destination port. */
static __u64 fsel_dport(uint16_t v)
{
	__u32 idx = (0 * DYNPF_FS_NFIELDS + DYNPF_FS_DPORT) * DYNPF_FS_VALS + v;
	__u64 w = ~0ull;

	bpf_map_lookup_elem(bpf_map__fd(pr.skel->maps.dynpf_fsel), &idx, &w);
	return w;
}

/* The counts the drain keeps for the field filters (entries in use). */
static int fs_counts(void)
{
	int fd = bpf_map__fd(pr.skel->maps.dynpf_fs_cnt), n = 0;
	__u64 k, next;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		n++;
	}
	return n;
}

/* Delete rule id in a transaction of its own, and wait for its reclaim. */
static int del_reclaimed(uint32_t id)
{
	uint64_t s;

	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	dynpf_ctrl_del(&c, id, NULL);
	dynpf_ctrl_commit(&c, &s);
	dynpf_ctrl_flush(&c);
	return ack_of(s).a.err ?: dynpf_ctrl_quiesce(&c);
}

/*
 * The field filters' bits follow the rules (bpf/rules.h): three rules of
 * one tuple (tcp dport, exact), two of them on port 80. A deleted rule's
 * bit stays while another entry of its tuple has its value and goes, once
 * it is reclaimed, with the last; the tuple keeps its other value's bit.
 * Before the counts, port 80's bit stayed until the tuple's last rule went.
 */
void test_fs_counts(void)
{
	struct dynpf_rule rules[3];
	struct dynpf_verdict v;
	__u64 bit;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("field filter counts: reopen", 0, "cannot load the programs");
		return;
	}
	for (int i = 0; i < 3; i++) {
		rules[i] = rule(i + 1, i + 1, i == 1 ? DYNPF_ACT_COUNT : DYNPF_ACT_DROP);
		m_proto(&rules[i], 6);
		m_dport(&rules[i], i < 2 ? 80 : 81, i < 2 ? 80 : 81);
	}
	CHECK_EQ("field filter counts: 3 rules load", txn(rules, 3).a.err, 0);
	bit = fsel_dport(81);
	CHECK("field filter counts: one tuple, both ports",
	      __builtin_popcountll(bit) == 1 && fsel_dport(80) == bit,
	      "port 80 %#llx, port 81 %#llx", (unsigned long long)fsel_dport(80),
	      (unsigned long long)bit);
	CHECK_EQ("field filter counts: one count a value", fs_counts(), 2);
	CHECK_EQ("field filter counts: delete rule 1", del_reclaimed(1), 0);
	CHECK("field filter counts: port 80 kept for rule 2", fsel_dport(80) == bit, "%#llx",
	      (unsigned long long)fsel_dport(80));
	CHECK_EQ("field filter counts: delete rule 2", del_reclaimed(2), 0);
	CHECK("field filter counts: port 80 cleared, 81 kept",
	      fsel_dport(80) == 0 && fsel_dport(81) == bit, "port 80 %#llx, port 81 %#llx",
	      (unsigned long long)fsel_dport(80), (unsigned long long)fsel_dport(81));
	CHECK_EQ("field filter counts: one left", fs_counts(), 1);
	mk4(&p, 6, 5, 1, 1000, 81, 0x02);
	CHECK("field filter counts: port 81 still dropped", !run(&p, &v, NULL) && v.rule == 3,
	      "rule %u", v.rule);
	mk4(&p, 6, 5, 1, 1000, 80, 0x02);
	CHECK("field filter counts: port 80 no longer", !run(&p, &v, NULL) && v.rule == 0,
	      "rule %u", v.rule);
	CHECK_EQ("field filter counts: rule 1 again", txn(rules, 1).a.err, 0);
	CHECK("field filter counts: port 80 set again",
	      fsel_dport(80) == bit && !run(&p, &v, NULL) && v.rule == 1, "port 80 %#llx, rule %u",
	      (unsigned long long)fsel_dport(80), v.rule);
	CHECK_EQ("field filter counts: delete rules 1 and 3", del_reclaimed(1) ?: del_reclaimed(3),
		 0);
	CHECK("field filter counts: none left",
	      fs_counts() == 0 && fsel_dport(80) == 0 && fsel_dport(81) == 0,
	      "%d counts, port 80 %#llx, port 81 %#llx", fs_counts(),
	      (unsigned long long)fsel_dport(80), (unsigned long long)fsel_dport(81));
}

/* Entries of the candidates' cache taken, on every CPU. */
static int cc_taken(void)
{
	int fd = bpf_map__fd(pr.skel->maps.dynpf_ccache), ncpu = libbpf_num_possible_cpus(), n = 0;
	struct dynpf_ccache *cc;
	__u32 zero = 0;

	cc = ncpu > 0 ? calloc(ncpu, sizeof(*cc)) : NULL;
	if (cc && !bpf_map_lookup_elem(fd, &zero, cc))
		for (int i = 0; i < ncpu; i++)
			for (int k = 0; k < DYNPF_CC_SLOTS; k++)
				n += cc[i].e[k].tag != 0;
	free(cc);
	return n;
}

/*
 * The candidates' cache (bpf/classify.h): a packet's outer candidates kept
 * per CPU, by generation and the filters' values. A packet that matched
 * nothing, run again after a commit adds a rule of a tuple of its own that
 * matches it, must meet that rule (a commit makes every entry stale: kept
 * past it, the entry's "no candidate" would pass the packet), and pass
 * again once it is deleted. Then 2,048 flows (8 entries each of the 256 a
 * CPU: entries taken from each other), each run 3 times in rounds, every
 * verdict the rule set's: the destination port decides every third flow,
 * the source address every 16th; the others reach the catch-all.
 */
void test_cand_cache(void)
{
	struct dynpf_rule rules[3];
	struct dynpf_verdict v;
	int bad = 0, n = 0;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("candidates' cache: reopen", 0, "cannot load the programs");
		return;
	}
	rules[0] = rule(1, 1, DYNPF_ACT_DROP);
	m_proto(&rules[0], 6);
	m_dport(&rules[0], 80, 80);            /* tcp dport 80 drop */
	rules[1] = rule(3, 9, DYNPF_ACT_PASS); /* the catch-all */
	CHECK_EQ("candidates' cache: 2 rules load", txn(rules, 2).a.err, 0);
	mk4(&p, 6, 5, 1, 1000, 81, 0x02);
	CHECK("candidates' cache: the catch-all decides",
	      !run(&p, &v, NULL) && v.rule == 3 && !run(&p, &v, NULL) && v.rule == 3, "rule %u",
	      v.rule);
	CHECK("candidates' cache: entries taken", cc_taken() > 0, "%d", cc_taken());
	rules[2] = rule(2, 2, DYNPF_ACT_DROP);
	m_src4(&rules[2], 5, 32); /* ip saddr 198.18.0.5 drop: a new tuple */
	CHECK_EQ("candidates' cache: the /32 loads", txn(&rules[2], 1).a.err, 0);
	CHECK("candidates' cache: the /32 seen after its commit", !run(&p, &v, NULL) && v.rule == 2,
	      "rule %u", v.rule);
	CHECK_EQ("candidates' cache: delete the /32", del_reclaimed(2), 0);
	CHECK("candidates' cache: the catch-all again", !run(&p, &v, NULL) && v.rule == 3,
	      "rule %u", v.rule);
	CHECK_EQ("candidates' cache: the /32 again", txn(&rules[2], 1).a.err, 0);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 2048; i++) {
			uint8_t src = 1 + i % 16 * 4;
			uint16_t dport = 79 + i % 3;
			uint32_t want = dport == 80 ? 1 : src == 5 ? 2 : 3;

			mk4(&p, 6, src, 1 + i % 7, 1024 + i, dport, i % 2 ? 0x10 : 0x02);
			if (run(&p, &v, NULL) || v.rule != want) {
				if (!bad++)
					fprintf(stderr,
						"candidates' cache: round %d flow %d: rule %u, not %u\n",
						round, i, v.rule, want);
			}
			n++;
		}
	}
	CHECK("candidates' cache: 2048 flows, 3 rounds, each the rule set's verdict",
	      bad == 0 && n == 3 * 2048, "%d of %d wrong", bad, n);
	CHECK("candidates' cache: the entries taken", cc_taken() >= 128, "%d", cc_taken());
}

static __u64 optw0(void)
{
	return sel_word("optw");
}

static __u64 optk(void)
{
	return sel_word("optk");
}

static __u64 optall0(void)
{
	return sel_word("optall");
}

/*
 * The TCP option gate's tuple bits (bpf/rules.h, dynpf_tcp_opt_wanted())
 * follow the rules that read options: two rules of one tuple (tcp dport
 * 80), one with a test of TCP option 30. The tuple's bit comes with that
 * rule and goes once it is reclaimed, while the tuple lives on with the
 * other rule. The option types the walk looks for (optk): type 30, kept
 * while the tuple lives, gone with it; a rule of another tuple that reads
 * the MSS's value puts its tuple in optall (the whole area) and no type in
 * optk.
 */
void test_optw_bits(void)
{
	struct dynpf_rule rules[2], mss;
	__u64 bit, mbit;

	if (reopen(4096)) {
		CHECK("option gate bits: reopen", 0, "cannot load the programs");
		return;
	}
	for (int i = 0; i < 2; i++) {
		rules[i] = rule(i + 1, i + 1, i ? DYNPF_ACT_COUNT : DYNPF_ACT_DROP);
		m_proto(&rules[i], 6);
		m_dport(&rules[i], 80, 80);
	}
	/* tcp option 30: a TLV test that is no quick dimension, so one tuple. */
	rules[0].m.tlv[0] = (struct dynpf_tlv_test){ .family = DYNPF_TLV_TCP_OPT, .type = 30 };
	rules[0].m.ntlv = 1;
	CHECK_EQ("option gate bits: 2 rules load", txn(rules, 2).a.err, 0);
	bit = fsel_dport(80);
	CHECK("option gate bits: the tuple's bit", __builtin_popcountll(bit) == 1 && optw0() == bit,
	      "optw[0] %#llx, the tuple %#llx", (unsigned long long)optw0(),
	      (unsigned long long)bit);
	CHECK("option gate bits: type 30 wanted, no whole area",
	      optk() == 1ull << 30 && optall0() == 0, "optk %#llx, optall[0] %#llx",
	      (unsigned long long)optk(), (unsigned long long)optall0());
	/* A /32 source, TCP, tcp mss 1-535: another mask, another tuple. */
	mss = rule(3, 3, DYNPF_ACT_DROP);
	m_proto(&mss, 6);
	m_src4(&mss, 1, 32);
	mss.m.val[0] = (struct dynpf_val_test){ .field = DYNPF_V_MSS, .lo = 1, .hi = 535 };
	mss.m.nval = 1;
	CHECK_EQ("option gate bits: an MSS value rule loads", txn(&mss, 1).a.err, 0);
	mbit = optw0() & ~bit;
	CHECK("option gate bits: its tuple wants the whole area",
	      __builtin_popcountll(mbit) == 1 && optall0() == mbit && optk() == 1ull << 30,
	      "optw[0] %#llx, optall[0] %#llx, optk %#llx", (unsigned long long)optw0(),
	      (unsigned long long)optall0(), (unsigned long long)optk());
	CHECK_EQ("option gate bits: delete the MSS rule", del_reclaimed(3), 0);
	CHECK("option gate bits: no whole area", optall0() == 0 && optw0() == bit,
	      "optall[0] %#llx, optw[0] %#llx", (unsigned long long)optall0(),
	      (unsigned long long)optw0());
	CHECK_EQ("option gate bits: delete the option rule", del_reclaimed(1), 0);
	CHECK("option gate bits: cleared, the tuple kept", optw0() == 0 && fsel_dport(80) == bit,
	      "optw[0] %#llx, port 80 %#llx", (unsigned long long)optw0(),
	      (unsigned long long)fsel_dport(80));
	CHECK("option gate bits: type 30 kept while its tuple lives", optk() == 1ull << 30,
	      "optk %#llx", (unsigned long long)optk());
	CHECK_EQ("option gate bits: the option rule again", txn(rules, 1).a.err, 0);
	CHECK("option gate bits: set again", optw0() == bit, "optw[0] %#llx",
	      (unsigned long long)optw0());
	CHECK_EQ("option gate bits: delete both", del_reclaimed(1) ?: del_reclaimed(2), 0);
	CHECK("option gate bits: none left", optw0() == 0 && optk() == 0,
	      "optw[0] %#llx, optk %#llx", (unsigned long long)optw0(), (unsigned long long)optk());
}

/* dynpf_state.inner_sel (include/dynpf/ctrl.h); ~0 when it cannot be read. */
static __u32 inner_sel(void)
{
	struct dynpf_state st;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(pr.skel->maps.dynpf_state), &zero, &st))
		return ~0u;
	return st.inner_sel;
}

/*
 * The state's word for the inner stack's tuples, which packets read
 * instead of the selection's line: 0 with rules on the outer stack only,
 * set with a rule on the inner one (tcp dport 80 in both), cleared once
 * that rule is reclaimed and its tuple's bits go.
 */
void test_inner_sel(void)
{
	struct dynpf_rule outer = rule(1, 1, DYNPF_ACT_DROP), in = rule(2, 2, DYNPF_ACT_DROP);

	if (reopen(4096)) {
		CHECK("inner selection: reopen", 0, "cannot load the programs");
		return;
	}
	m_proto(&outer, 6);
	m_dport(&outer, 80, 80);
	in.m.stack = 1;
	m_proto(&in, 6);
	m_dport(&in, 80, 80);
	CHECK_EQ("inner selection: an outer rule loads", txn(&outer, 1).a.err, 0);
	CHECK_EQ("inner selection: none with outer rules only", inner_sel(), 0);
	CHECK_EQ("inner selection: an inner rule loads", txn(&in, 1).a.err, 0);
	CHECK_EQ("inner selection: set with it", inner_sel(), 1);
	CHECK_EQ("inner selection: delete the inner rule", del_reclaimed(2), 0);
	CHECK_EQ("inner selection: cleared once it is reclaimed", inner_sel(), 0);
	CHECK_EQ("inner selection: the inner rule again", txn(&in, 1).a.err, 0);
	CHECK_EQ("inner selection: set again", inner_sel(), 1);
	CHECK_EQ("inner selection: delete both", del_reclaimed(1) ?: del_reclaimed(2), 0);
	CHECK_EQ("inner selection: none left", inner_sel(), 0);
}

/*
 * A churn test's transaction begun: ndel of the nlive rules in live[]
 * deleted, chosen at random (the last moved into each one's place).
 */
static void churn_begin(int ndel, struct dynpf_rule *live, int *nlive, unsigned int *seed)
{
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	for (int i = 0; i < ndel; i++) {
		int k = rand_r(seed) % *nlive;

		dynpf_ctrl_del(&c, live[k].id, NULL);
		live[k] = live[--*nlive];
	}
}

/* Append the n bytes (a multiple of 4) of option area o to mk4()'s TCP header. */
static void add_tcp_opts(struct pkt *p, const uint8_t *o, uint32_t n)
{
	uint32_t tot = (uint32_t)p->b[16] << 8 | p->b[17];

	p->b[46] = (uint8_t)((5 + n / 4) << 4);
	memcpy(p->b + 54, o, n);
	tot += n;
	p->b[16] = tot >> 8, p->b[17] = tot & 0xff;
	p->n += n;
}

/*
 * The TCP option gate and the walk's early end (bpf/rules.h) under churn:
 * rules of TCP that test option types for presence or absence, some the
 * MSS's value (the whole area), some no option, in tuples that fill, empty
 * and are given out again; packets with option areas where the tested
 * types come first, later, not at all, or before a malformed option. The
 * untraced program (the lean parse, the gate, the early end) agrees with
 * the linear reference on every packet, as the traced one does.
 */
void test_differential_options(void)
{
	static const uint8_t types[] = { 2, 3, 4, 5, 8, 30 };
	static const struct {
		uint8_t n, b[20];
	} areas[] = {
		{ 4, { 2, 4, 5, 180 } }, /* MSS */
		{ 20, { 2, 4, 5, 180, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7 } },
		{ 12, { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2 } },               /* NOP NOP TS */
		{ 8, { 3, 3, 7, 1, 2, 4, 5, 180 } },                           /* WS, MSS */
		{ 4, { 4, 2, 1, 1 } },                                         /* SACK-perm */
		{ 16, { 8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 2, 4, 5, 180, 1, 1 } }, /* TS, MSS */
		{ 8, { 2, 4, 5, 180, 3, 0, 0, 0 } },                           /* bad length */
		{ 8, { 30, 4, 0, 0, 2, 4, 2, 0 } },                            /* MPTCP, MSS */
		{ 12, { 1, 1, 5, 10, 0, 0, 0, 1, 0, 0, 0, 9 } },               /* SACK */
		{ 4, { 1, 1, 1, 1 } },
		{ 4, { 2, 3, 5, 1 } },                             /* MSS of 3 */
		{ 12, { 2, 4, 5, 180, 0, 0, 8, 10, 0, 0, 0, 1 } }, /* MSS, EOL */
	};
	static struct dynpf_rule live[128];
	struct dynpf_progs lean;
	unsigned int seed = 7;
	int nlive = 0, agree = 0, total = 0, early = 0;
	uint32_t next_id = 1;

	if (reopen(4096) || dynpf_progs_open_lean(&lean, &pr, 1u << DYNPF_HOOK_XDP)) {
		CHECK("options: reopen", 0, "cannot load the programs");
		return;
	}
	for (int set = 0; set < 24; set++) {
		int ndel = nlive ? rand_r(&seed) % (nlive + 1) : 0, nadd = rand_r(&seed) % 24;
		uint64_t s;

		churn_begin(ndel, live, &nlive, &seed);
		for (int i = 0; i < nadd && nlive < 128; i++) {
			static const uint8_t acts[] = { DYNPF_ACT_PASS, DYNPF_ACT_DROP,
							DYNPF_ACT_COUNT };
			struct dynpf_rule *r = &live[nlive++];
			uint32_t what = rand_r(&seed);

			*r = rule(next_id++, rand_r(&seed) % 16, acts[rand_r(&seed) % 3]);
			m_proto(r, 6);
			if (what & 1)
				m_src4(r, rand_r(&seed) % 4,
				       (uint8_t[]){ 24, 30, 32 }[rand_r(&seed) % 3]);
			if (what & 2) {
				uint16_t lo = 20 + rand_r(&seed) % 3;

				m_dport(r, lo, (what & 4) ? lo + 2 : lo);
			}
			if (what & 8) {
				r->m.fields |= DYNPF_M_TCP_FLAGS;
				r->m.tcp_flags = 0x02;
				r->m.tcp_flags_mask = 0x12;
			}
			/* One or two types, in the order the language keeps them:
			 * in phases of 8 sets, from the MSS alone to all six, so
			 * the types the walks look for are few, then many. */
			if (!(what & 32)) {
				int span = set < 8 ? 1 : set < 16 ? 3 : 5;
				int t1 = rand_r(&seed) % span,
				    t2 = t1 + 1 + rand_r(&seed) % (5 - t1);

				for (int t = 0; t < 1 + (set >= 8 && (what & 16)); t++)
					r->m.tlv[r->m.ntlv++] = (struct dynpf_tlv_test){
						.family = DYNPF_TLV_TCP_OPT,
						.neg = rand_r(&seed) & 1,
						.type = types[t ? t2 : t1],
					};
			}
			if ((what & 0x1c0) == 0x40) /* a value: the whole area */
				r->m.val[r->m.nval++] = (struct dynpf_val_test){
					.field = DYNPF_V_MSS, .lo = 500, .hi = 1460
				};
			dynpf_ctrl_add(&c, r, NULL);
		}
		dynpf_ctrl_commit(&c, &s);
		dynpf_ctrl_flush(&c);
		CHECK_EQ("options: commit", ack_of(s).a.err, 0);
		for (int k = 0; k < 120; k++) {
			struct dynpf_ruleset rs = { .rules = live, .n = nlive };
			struct dynpf_verdict v, lv, w;
			struct dynpf_pkt parsed;
			struct pkt p;
			int a = rand_r(&seed) % (int)(sizeof(areas) / sizeof(areas[0]));

			mk4(&p, 6, rand_r(&seed) % 5, 1, 1000, 19 + rand_r(&seed) % 5,
			    (uint8_t[]){ 0x02, 0x12, 0x10 }[rand_r(&seed) % 3]);
			add_tcp_opts(&p, areas[a].b, areas[a].n);
			if (run(&p, &v, &parsed) || dynpf_progs_verdict(&lean, DYNPF_HOOK_XDP, p.b,
									p.n, &lv) != DYNPF_RUN_OK)
				continue;
			dynpf_classify_native(&rs, &parsed, p.b, &w);
			total++;
			early += a == 1 || a == 5 || a == 7;
			if (same_verdict(&v, &w) && same_verdict(&lv, &w))
				agree++;
			else if (total - agree <= 5)
				printf("options: set %d packet %d (area %d): bpf rule %u, lean rule %u "
				       "action %u nmatch %u, reference rule %u action %u nmatch %u\n",
				       set, k, a, v.rule, lv.rule, lv.action, lv.nmatch, w.rule,
				       w.action, w.nmatch);
		}
	}
	dynpf_progs_close(&lean);
	printf("options: %d of %d packets agree, %d with a type after others\n", agree, total,
	       early);
	CHECK("options: the lean program agrees with the reference under churn",
	      agree == total && total > 2500 && early > 500, "%d of %d packets agree", agree,
	      total);
}

/*
 * Tuple selection and buckets under churn: IPv4, IPv6 and tunnelled
 * packets against rules of either family or none, of TCP, UDP, ICMP or any
 * protocol, of the outer or the inner stack, where an IPv4 and an IPv6
 * prefix of one length share a tuple; each transaction deletes some rules
 * and adds others, so tuples fill, empty and are given out again. The BPF
 * classifier agrees with the linear reference on every packet.
 */
void test_differential_mixed(void)
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

		churn_begin(ndel, live, &nlive, &seed);
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
				m_src4(r, rand_r(&seed) % 4,
				       (uint8_t[]){ 24, 30, 32 }[rand_r(&seed) % 3]);
			else if (fam == 2)
				m_src6(r, rand_r(&seed) % 4,
				       (uint8_t[]){ 24, 126, 128 }[rand_r(&seed) % 3]);
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
			/* The quick filters' fields (rules/quick.h): a rule that
			 * tests one has a tuple apart from its mask's others. */
			if (what & 0x200) {
				r->m.fields |= DYNPF_M_TTL;
				r->m.ttl_lo = (uint8_t[]){ 1, 63, 64, 65 }[rand_r(&seed) % 4];
				r->m.ttl_hi =
					r->m.ttl_lo + (uint8_t[]){ 0, 1, 100 }[rand_r(&seed) % 3];
			}
			if (proto == 6 && (what & 0x400)) {
				static const uint8_t fw[][2] = { { 0x02, 0x12 },
								 { 0x01, 0x01 },
								 { 0x10, 0x10 } };
				int f = rand_r(&seed) % 3;

				r->m.fields |= DYNPF_M_TCP_FLAGS;
				r->m.tcp_flags = fw[f][0];
				r->m.tcp_flags_mask = fw[f][1];
			}
			if (what & 0x800) {
				r->m.fields |= DYNPF_M_DSCP;
				r->m.dscp = rand_r(&seed) & 1 ? 46 : 0;
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
			uint8_t flags = (uint8_t[]){ 0x02, 0x12, 0x10, 0x01 }[rand_r(&seed) % 4];
			uint8_t ttl = (uint8_t[]){ 1, 64, 65, 200 }[rand_r(&seed) % 4];
			uint8_t tos = rand_r(&seed) & 1 ? 46 << 2 : 0;

			switch (k % 3) {
			case 0:
				mk4(&p, p4[rand_r(&seed) % 3], src, 1, 1000, dport, flags);
				p.b[15] = tos; /* no checksum: the parser does not check it */
				p.b[22] = ttl;
				break;
			case 1:
				mk6(&p, p6[rand_r(&seed) % 3], src, 1, 1000, dport);
				break;
			default:
				mk4(&in, p4[rand_r(&seed) % 3], src, 1, 1000, dport, flags);
				in.b[15] = tos;
				in.b[22] = ttl;
				mk_ipip(&p, rand_r(&seed) % 5, &in);
				break;
			}
			if (run(&p, &v, &parsed))
				continue;
			dynpf_classify_native(&rs, &parsed, p.b, &w);
			total++;
			if (same_verdict(&v, &w))
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

/* ---- a 100,000-rule set ----------------------------------------------------- */

static struct dynpf_rule rules100k[100000];

void test_100k(void)
{
	enum {
		N = 100000
	};
	unsigned int seed = 99;
	int agree = 0;
	struct dynpf_verdict v;
	uint64_t s;
	struct pkt p;
	double t0, ms;

	if (reopen(DYNPF_MAX_RULES)) {
		CHECK("100k: reopen", 0, "cannot load the programs");
		return;
	}
	t0 = dynpf_now();
	dynpf_ctrl_take(&c);
	dynpf_ctrl_begin(&c, NULL);
	for (uint32_t i = 0; i < N; i++) {
		/* 198.18.x.y/32 sources with exact dports, a few masks. */
		struct dynpf_rule r =
			rule(i + 1, i % 1000, i % 7 ? DYNPF_ACT_PASS : DYNPF_ACT_DROP);

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
	ms = (dynpf_now() - t0) * 1e3;
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
		dynpf_classify_native(&rs, &parsed, p.b, &w);
		agree += v.rule == w.rule && v.action == w.action && v.rule;
	}
	CHECK_EQ("100k: packets decided by the reference's rule", agree, 100);
}

/* ---- the quick filters' tuples ------------------------------------------------ */

/* An IPv4 prefix a0.a1.a2.0/plen, of the source or the destination. */
static void m_pfx4(struct dynpf_rule *r, int dst, uint8_t a0, uint8_t a1, uint8_t a2, uint8_t plen)
{
	uint8_t a[16] = { a0, a1, a2 }, mask[16];

	dynpf_prefix_mask(mask, plen);
	r->m.fields |= DYNPF_M_FAMILY | (dst ? DYNPF_M_DST : DYNPF_M_SRC);
	r->m.family = 4;
	for (int i = 0; i < 16; i++)
		(dst ? r->m.dst : r->m.src)[i] = a[i] & mask[i];
	if (dst)
		r->m.dst_plen = plen;
	else
		r->m.src_plen = plen;
}

/* mk4's TCP SYN from 198.18.0.1, with its TTL and DSCP: the verdict's rule. */
static uint32_t verdict_ttl_dscp(uint8_t ttl, uint8_t dscp)
{
	struct dynpf_verdict v;
	struct pkt p;

	mk4(&p, 6, 1, 1, 1000, 80, 0x02);
	p.b[15] = dscp << 2; /* the parser does not check the checksum */
	p.b[22] = ttl;
	return run(&p, &v, NULL) ? 0 : v.rule;
}

/*
 * A rule that tests a quick filter's field (TTL, DSCP ...) gets a tuple
 * apart from the rules of its mask that do not (bpf/drain.bpf.c,
 * dynpf_tuple_budget()), so that the filter can drop it; when the 64
 * tuples are taken, it joins its mask's tuple instead of being refused,
 * and is still found there.
 */
void test_quick_tuples(void)
{
	struct dynpf_rule r[3], f;
	struct dynpf_ack_commit a;
	int i, nt = 0;

	if (reopen(4096)) {
		CHECK("quick tuples: reopen", 0, "cannot load the programs");
		return;
	}
	r[0] = rule(1, 1, DYNPF_ACT_DROP); /* ip saddr 198.18.0.0/24 ttl 1-2 drop */
	m_pfx4(&r[0], 0, 198, 18, 0, 24);
	r[0].m.fields |= DYNPF_M_TTL;
	r[0].m.ttl_lo = 1;
	r[0].m.ttl_hi = 2;
	r[1] = rule(2, 2, DYNPF_ACT_DROP); /* ip saddr 10.0.0.0/24 drop: its mask alone */
	m_pfx4(&r[1], 0, 10, 0, 0, 24);
	r[2] = rule(3, 9, DYNPF_ACT_PASS); /* the catch-all */
	a = txn(r, 3);
	CHECK_EQ("quick tuples: commit", a.a.err, 0);
	/* Two tuples: the catch-all is in none (its chain is the state's). */
	CHECK_EQ("quick tuples: a tuple for the TTL rule apart", a.ntuples, 2);
	CHECK_EQ("quick tuples: TTL 1", verdict_ttl_dscp(1, 0), 1);
	CHECK_EQ("quick tuples: TTL 2", verdict_ttl_dscp(2, 0), 1);
	CHECK_EQ("quick tuples: TTL 3", verdict_ttl_dscp(3, 0), 3);
	CHECK_EQ("quick tuples: TTL 64", verdict_ttl_dscp(64, 0), 3);

	/* Take every tuple: masks of 10.1.0.0/S and 10.2.0.0/D, none of
	 * them the packets'. */
	for (i = 0; i < 200 && nt < DYNPF_MAX_TUPLES; i++) {
		int sa = i % 26, da = i / 26;

		if (!sa && !da)
			continue;
		f = rule(100 + i, 5, DYNPF_ACT_DROP);
		if (sa)
			m_pfx4(&f, 0, 10, 1, 0, 7 + sa);
		if (da)
			m_pfx4(&f, 1, 10, 2, 0, 7 + 4 * da);
		a = txn(&f, 1);
		if (a.a.err)
			break;
		nt = a.ntuples;
	}
	CHECK_EQ("quick tuples: the 64 tuples taken", nt, DYNPF_MAX_TUPLES);

	/* 198.18.0.0/24 dscp 46: no room for (/24, DSCP); it joins 10.0.0.0/24's. */
	f = rule(4, 0, DYNPF_ACT_DROP);
	m_pfx4(&f, 0, 198, 18, 0, 24);
	f.m.fields |= DYNPF_M_DSCP;
	f.m.dscp = 46;
	a = txn(&f, 1);
	CHECK("quick tuples: with no room, a rule joins its mask's tuple",
	      !a.a.err && a.ntuples == DYNPF_MAX_TUPLES, "err %d, %u tuples", a.a.err, a.ntuples);
	CHECK_EQ("quick tuples: found there (DSCP 46)", verdict_ttl_dscp(64, 46), 4);
	CHECK_EQ("quick tuples: and not on DSCP 0", verdict_ttl_dscp(64, 0), 3);
	CHECK_EQ("quick tuples: the TTL rule still first", verdict_ttl_dscp(1, 46), 4);

	/* A mask with no tuple at all is still refused, by its add. */
	f = rule(5, 0, DYNPF_ACT_DROP);
	m_pfx4(&f, 0, 198, 18, 0, 22);
	m_pfx4(&f, 1, 198, 19, 0, 22);
	f.m.fields |= DYNPF_M_DSCP;
	{
		uint64_t sadd = 0, scommit = 0;

		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		dynpf_ctrl_add(&c, &f, &sadd);
		dynpf_ctrl_commit(&c, &scommit);
		dynpf_ctrl_flush(&c);
		a = ack_of(sadd);
		CHECK("quick tuples: a new mask past the budget is refused",
		      a.a.err == -E2BIG && a.a.field == DYNPF_F_TUPLES, "err %d field %u", a.a.err,
		      a.a.field);
	}

	/* A catch-all needs no tuple: one more, first, with every slot taken. */
	f = rule(6, 0, DYNPF_ACT_DROP);
	a = txn(&f, 1);
	CHECK("quick tuples: a catch-all past the budget is taken, in no tuple",
	      !a.a.err && a.ntuples == DYNPF_MAX_TUPLES, "err %d, %u tuples", a.a.err, a.ntuples);
	CHECK_EQ("quick tuples: the catch-all before the TTL rule", verdict_ttl_dscp(1, 0), 6);
	CHECK_EQ("quick tuples: the catch-all before the rest", verdict_ttl_dscp(64, 0), 6);
	/* Rule 4 has its priority, 0, and a lower id: still probed, and first. */
	CHECK_EQ("quick tuples: a tuple's rule of equal priority and lower id first",
		 verdict_ttl_dscp(64, 46), 4);
}
