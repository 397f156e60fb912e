// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The classifier's quick test (rules/quick.h) against dynpf_rule_match(),
 * natively: on every packet of the captures, for every rule of the rule
 * files and for rules made from the packet's own fields (its values, and
 * values next to them), the quick test never says MATCH where
 * dynpf_rule_match() says no, nor FAIL where it says yes. The BPF programs
 * run the same functions; the differential tests check what they decide.
 */
#include <glob.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/rules_lang.h"
#include "native.h"
#include "quick.h"

#include "ctrl.h"

struct quick_count {
	unsigned long match, fail, ask, wrong;
	unsigned long qf_drop, qf_wrong;         /* the quick filters: dropped, dropped a match */
	unsigned long plain, walked, view_wrong; /* dynpf_cls_view_plain() took, left, erred */
	char first[256];                         /* the first disagreement */
	char view_first[256];                    /* the first view that differed */
};

/* The rule's text, or its id, for a message. */
static void rule_text(const struct dynpf_rule *r, char *text, size_t size)
{
	if (dynpf_rule_format(r, text, size) < 0)
		snprintf(text, size, "rule %u", r->id);
}

/*
 * The quick filters (rules/quick.h) on one rule and packet: 1 if a
 * dimension drops the rule. dynpf_qf_dims() must name the dimensions
 * dynpf_qf_rule() constrains; a dimension must never drop a rule that
 * matches (checked by the caller).
 */
static int qf_drops(struct quick_count *n, const struct dynpf_rule *r, const __u8 *vals,
		    const char *where)
{
	struct dynpf_qf_set set;
	__u32 dims = 0, d;
	int drop = 0;

	for (d = 0; d < DYNPF_QF_N; d++) {
		if (!dynpf_qf_rule(r, d, &set))
			continue;
		dims |= 1u << d;
		if (!dynpf_qf_in(&set, vals[d]))
			drop = 1;
	}
	if (dims != dynpf_qf_dims(r) && !n->wrong++) {
		char text[160];

		rule_text(r, text, sizeof(text));
		snprintf(n->first, sizeof(n->first), "%s: \"%s\": dims %#x, dynpf_qf_dims() %#x",
			 where, text, dims, dynpf_qf_dims(r));
	}
	return drop;
}

/* One rule on one parsed packet: the quick test's answer, checked. */
static void quick_one(struct quick_count *n, const struct dynpf_rule *r, const struct dynpf_pkt *p,
		      const struct dynpf_cls_view *v, const struct dynpf_quick *q,
		      const __u8 *bytes, const char *where)
{
	__u8 vals[DYNPF_QF_N];
	struct dynpf_qtest qt;
	int d, full, drop;

	dynpf_qtest_make(r, &qt);
	d = dynpf_quick(r, &qt, &q[r->m.stack & 1], p);
	full = dynpf_rule_match(r, p, v, bytes);
	dynpf_qf_vals(&q[r->m.stack & 1], p, r->m.stack & 1, vals);
	drop = qf_drops(n, r, vals, where);
	n->qf_drop += drop;
	if (drop && full && !n->qf_wrong++) {
		char text[160];

		rule_text(r, text, sizeof(text));
		snprintf(n->first, sizeof(n->first), "%s: \"%s\": a quick filter drops a match",
			 where, text);
	}
	if ((d == DYNPF_Q_MATCH && !full) || (d == DYNPF_Q_FAIL && full)) {
		if (!n->wrong++) {
			char text[160];

			rule_text(r, text, sizeof(text));
			snprintf(n->first, sizeof(n->first), "%s: \"%s\": quick %s, the match %d",
				 where, text, d == DYNPF_Q_MATCH ? "MATCH" : "FAIL", full);
		}
		return;
	}
	if (d == DYNPF_Q_MATCH)
		n->match++;
	else if (d == DYNPF_Q_FAIL)
		n->fail++;
	else
		n->ask++;
}

/* x, or a value next to it (lo..hi of a range around it, or off it). */
static __u32 near(unsigned int *seed, __u32 x, __u32 max)
{
	__u32 d = rand_r(seed) % 3;
	__u32 v = rand_r(seed) & 1 ? x + d : x - d;

	return v > max ? x : v;
}

/* A rule of stack s made from the packet's own quick fields, some off by a little. */
static void made_rule(unsigned int *seed, struct dynpf_rule *r, const struct dynpf_pkt *p,
		      const struct dynpf_cls_view *v, __u32 s)
{
	const struct dynpf_stack *st = &p->st[s];
	struct dynpf_match *m = &r->m;
	__u32 what = rand_r(seed);

	memset(r, 0, sizeof(*r));
	r->id = 1;
	r->action = DYNPF_ACT_DROP;
	m->stack = s;
	if (what & 1) {
		m->fields |= DYNPF_M_IFINDEX;
		m->ifindex = near(seed, p->ifindex, ~0u);
	}
	if (what & 2) {
		m->fields |= DYNPF_M_FAMILY;
		m->family = rand_r(seed) & 1 ? 4 : 6;
	}
	if (what & 4) {
		m->fields |= DYNPF_M_PROTO;
		m->proto = near(seed, v->s[s].proto, 255);
	}
	if (what & 8) {
		m->fields |= DYNPF_M_SPORT;
		m->sport_lo = near(seed, st->l4.sport, 0xffff);
		m->sport_hi = near(seed, st->l4.sport, 0xffff);
	}
	if (what & 16) {
		m->fields |= DYNPF_M_DPORT;
		m->dport_lo = near(seed, st->l4.dport, 0xffff);
		m->dport_hi = near(seed, st->l4.dport, 0xffff);
	}
	if (what & 32) {
		m->fields |= DYNPF_M_TTL;
		m->ttl_lo = near(seed, st->l3.ttl, 255);
		m->ttl_hi = near(seed, st->l3.ttl, 255);
	}
	if (what & 64) {
		m->fields |= DYNPF_M_DSCP;
		m->dscp = near(seed, st->l3.tos >> 2, 63);
	}
	if (what & 128) {
		m->fields |= DYNPF_M_TCP_FLAGS;
		m->tcp_flags_mask = rand_r(seed);
		m->tcp_flags = (st->l4.flags ^ (rand_r(seed) & 3 ? 0 : 1u << rand_r(seed) % 8)) &
			       (rand_r(seed) & 7 ? m->tcp_flags_mask : 0xff);
	}
	if (what & 256) {
		struct dynpf_tlv_test *t = &m->tlv[m->ntlv++];
		static const __u8 fams[] = { DYNPF_TLV_TCP_OPT, DYNPF_TLV_IPV4_OPT,
					     DYNPF_TLV_IPV6_HBH, DYNPF_TT_EXT };

		t->family = fams[rand_r(seed) % 4];
		t->type = t->family == DYNPF_TT_EXT ? (__u8[]){ 0, 43, 44, 60 }[rand_r(seed) % 4]
						    : rand_r(seed) % 12;
		t->neg = rand_r(seed) & 1;
		/* Geneve's 24-bit types: one of the packet's, or one next to it. */
		if (p->tlv[DYNPF_TLV_GENEVE_OPT].n && rand_r(seed) & 1) {
			const struct dynpf_tlv_list *l = &p->tlv[DYNPF_TLV_GENEVE_OPT];

			t->family = DYNPF_TLV_GENEVE_OPT;
			t->type = l->ent[rand_r(seed) % l->n].type ^ (rand_r(seed) & 1 ? 0x100 : 0);
		}
	}
	if (what & 512) {
		struct dynpf_val_test *t = &m->val[m->nval++];

		t->field = rand_r(seed) & 1 ? DYNPF_V_MSS : DYNPF_V_WSCALE;
		t->lo = near(seed, t->field == DYNPF_V_MSS ? st->l4.mss : st->l4.wscale, 0xffff);
		t->hi = near(seed, t->field == DYNPF_V_MSS ? st->l4.mss : st->l4.wscale, 0xffff);
	}
	if (what & 1024) {
		/* Not a quick field: the answer is ASK or FAIL. */
		__u8 mask[16];

		m->fields |= DYNPF_M_FAMILY | DYNPF_M_SRC;
		m->family = v->s[s].l3 ? v->s[s].l3 : 4;
		m->src_plen = m->family == 4 ? 24 : 64;
		dynpf_prefix_mask(mask, m->src_plen);
		for (int i = 0; i < 16; i++)
			m->src[i] = st->l3.saddr[i] & mask[i];
	}
}

/*
 * The view of the parse the classifier makes (dynpf_cls_view_init(): the
 * common packet's shortcut, else the walk) against the walk over every
 * layer, its reference.
 */
static void quick_view(struct quick_count *n, const struct dynpf_pkt *p,
		       const struct dynpf_cls_view *v, const char *where)
{
	struct dynpf_cls_view walk, plain;

	dynpf_cls_view_walk(&walk, p);
	if (dynpf_cls_view_plain(&plain, p))
		n->plain++;
	else
		n->walked++;
	if (memcmp(&walk, v, sizeof(walk)) && !n->view_wrong++)
		snprintf(n->view_first, sizeof(n->view_first),
			 "%.150s: stack 0 l3 %u l4 %u proto %u l2 %u, the walk's %u %u %u %u",
			 where, v->s[0].l3, v->s[0].l4, v->s[0].proto, v->s[0].l2, walk.s[0].l3,
			 walk.s[0].l4, walk.s[0].proto, walk.s[0].l2);
}

/* Every packet of capture path, against rs's rules and made ones. */
static void quick_capture(struct quick_count *n, const char *path, const struct dynpf_rule *rules,
			  size_t nrules, unsigned int *seed)
{
	char errbuf[PCAP_ERRBUF_SIZE], where[200];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned long k = 0;
	pcap_t *pc;

	pc = pcap_open_offline(path, errbuf);
	if (!pc) {
		CHECK("quick: a capture opens", 0, "%s: %s", path, errbuf);
		return;
	}
	while (pcap_next_ex(pc, &h, &data) == 1) {
		static struct dynpf_pkt p;
		struct dynpf_quick q[DYNPF_MAX_STACKS];
		struct dynpf_cls_view v;
		struct dynpf_rule r;

		k++;
		memset(&p, 0, sizeof(p));
		dynpf_parse_native(data, h->caplen, &p, NULL);
		p.ifindex = 1 + k % 3;
		dynpf_cls_view_init(&v, &p);
		snprintf(where, sizeof(where), "%s packet %lu", path, k);
		quick_view(n, &p, &v, where);
		for (__u32 s = 0; s < DYNPF_MAX_STACKS; s++)
			dynpf_quick_init(&q[s], &v.s[s], &p.st[s], p.ifindex);
		for (size_t i = 0; i < nrules; i++)
			quick_one(n, &rules[i], &p, &v, q, data, where);
		for (int i = 0; i < 64; i++) {
			made_rule(seed, &r, &p, &v, i & 1 ? 0 : rand_r(seed) % DYNPF_MAX_STACKS);
			quick_one(n, &r, &p, &v, q, data, where);
		}
	}
	pcap_close(pc);
}

void test_quick(void)
{
	struct quick_count n = { 0 };
	struct dynpf_rule *rules = NULL;
	unsigned int seed = 42;
	size_t nrules = 0;
	glob_t caps, files;

	if (glob("tests/rules/*.rules", 0, NULL, &files) ||
	    glob("pcap-tests/*.pcap", 0, NULL, &caps)) {
		CHECK("quick: the captures and rule files", 0, "none found (run from the top)");
		return;
	}
	/* Every rule file that loads (the bad-*.rules ones do not). */
	for (size_t i = 0; i < files.gl_pathc; i++) {
		struct dynpf_ruleset one;
		struct dynpf_rule_err err;

		dynpf_ruleset_init(&one);
		if (!dynpf_ruleset_load(&one, files.gl_pathv[i], &err) && one.n) {
			struct dynpf_rule *more = realloc(rules, (nrules + one.n) * sizeof(*rules));

			if (more) {
				rules = more;
				memcpy(rules + nrules, one.rules, one.n * sizeof(*rules));
				nrules += one.n;
			}
		}
		dynpf_ruleset_free(&one);
	}
	for (size_t i = 0; i < caps.gl_pathc; i++)
		quick_capture(&n, caps.gl_pathv[i], rules, nrules, &seed);
	CHECK("view of the parse: the shortcut as the walk", !n.view_wrong, "%lu differ, first %s",
	      n.view_wrong, n.view_first);
	/* Both ways taken: a shortcut never taken would pass the check above. */
	CHECK("view of the parse: shortcut and walk both taken", n.plain && n.walked,
	      "shortcut %lu, walk %lu", n.plain, n.walked);
	CHECK("quick: never says otherwise than the match", !n.wrong, "%lu disagreements, first %s",
	      n.wrong, n.first);
	/* It decides, both ways, most of what it is asked: a test that always
	 * said ASK would pass the check above. */
	CHECK("quick filters: never drop a rule that matches", !n.qf_wrong,
	      "%lu dropped matches, first %s", n.qf_wrong, n.first);
	/* They drop a good part of what fails: filters that dropped nothing
	 * would pass the check above. */
	CHECK("quick filters: drop rules that fail", n.qf_drop && n.qf_drop * 4 > n.fail,
	      "dropped %lu of %lu failing", n.qf_drop, n.fail);
	CHECK("quick: decides most rules", n.match && n.fail && n.match + n.fail > 2 * n.ask,
	      "match %lu, fail %lu, ask %lu", n.match, n.fail, n.ask);
	printf("quick: %zu rules from %zu files and 64 made per packet, %zu captures: match %lu, "
	       "fail %lu, ask %lu; the quick filters dropped %lu; views by the shortcut %lu, "
	       "by the walk %lu\n",
	       nrules, files.gl_pathc, caps.gl_pathc, n.match, n.fail, n.ask, n.qf_drop, n.plain,
	       n.walked);
	free(rules);
	globfree(&files);
	globfree(&caps);
}
