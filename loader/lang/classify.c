// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The native reference classifier: see classify.h.
 */
#include <stdbool.h>
#include <string.h>

#include "lang/classify.h"
#include "match.h"

static int before(const struct dynpf_rule *a, const struct dynpf_rule *b)
{
	return dynpf_before(a->prio, a->id, b->prio, b->id);
}

void dynpf_classify_native(const struct dynpf_ruleset *rs, const struct dynpf_pkt *p,
			   const __u8 *bytes, struct dynpf_verdict *v)
{
	const struct dynpf_rule *best = NULL;
	struct dynpf_cls_view view;
	bool arp_nd_rules = false;

	memset(v, 0, sizeof(*v));
	v->action = DYNPF_ACT_PASS;
	if ((rs->set_seen & (1u << DYNPF_SET_DEFAULT_ACTION)) &&
	    rs->set[DYNPF_SET_DEFAULT_ACTION] == DYNPF_ACT_DROP)
		v->action = DYNPF_ACT_DROP;
	if ((rs->set_seen & (1u << DYNPF_SET_PASS_ARP_ND)) && !rs->set[DYNPF_SET_PASS_ARP_ND])
		arp_nd_rules = true;
	dynpf_cls_view_init(&view, p);
	if (!arp_nd_rules && dynpf_is_arp_nd(p, &view)) {
		v->action = DYNPF_ACT_PASS;
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct dynpf_rule *r = &rs->rules[i];

		if (dynpf_act_terminal(r->action) && (!best || before(r, best)) &&
		    dynpf_rule_match(r, p, &view, bytes))
			best = r;
	}
	/* The non-terminal matches before it, in order, at most 6. */
	while (v->nmatch < 6) {
		const struct dynpf_rule *next = NULL;

		for (size_t i = 0; i < rs->n; i++) {
			const struct dynpf_rule *r = &rs->rules[i];
			bool seen = false;

			if (dynpf_act_terminal(r->action) || (best && !before(r, best)))
				continue;
			for (int k = 0; k < v->nmatch; k++)
				seen |= v->match[k] == r->id;
			if (seen || (next && !before(r, next)) ||
			    !dynpf_rule_match(r, p, &view, bytes))
				continue;
			next = r;
		}
		if (!next)
			break;
		v->match[v->nmatch++] = next->id;
		if (next->action == DYNPF_ACT_MARK) {
			v->mark = next->arg;
			v->flags |= DYNPF_VF_MARK;
		}
	}
	if (best) {
		v->rule = best->id;
		v->action = best->action;
		v->arg = best->arg;
	}
}
