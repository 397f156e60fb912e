// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The actions of the rule language (docs/rules.md, "Actions"), the last
 * words of a rule: pass (accept), drop, count, and those with arguments:
 * redirect IFNAME|NUM, mark NUM, sample NUM [rate NUM/s], limit NUM/s
 * [burst NUM].
 */
#include <string.h>

#include "lang/lang.h"

/* The default rate of `sample` (docs/rules.md). */
#define DYNPF_SAMPLE_RATE_DEFAULT 100

bool rp_is_action(const struct rp *p)
{
	return nv_lookup(lang_actions, &p->cur) || rp_is(p, "accept");
}

/* NUM/s, at least 1. */
static bool per_second(const struct word *w, __u32 *out)
{
	return w->p && w->len > 2 && !memcmp(w->p + w->len - 2, "/s", 2) &&
	       lang_num(w->p, w->len - 2, 0xffffffff, out) && *out >= 1;
}

int rp_action(struct rp *p)
{
	struct dynpf_rule *r = p->r;
	struct word w;
	__u32 v;
	int e;

	r->action = rp_is(p, "accept") ? DYNPF_ACT_PASS : nv_lookup(lang_actions, &p->cur)->val;
	switch (r->action) {
	case DYNPF_ACT_REDIRECT:
		return rp_need_ifindex(p, "an interface name or index", &r->arg);
	case DYNPF_ACT_MARK:
		if ((e = rp_need(p, "a mark (0-4294967295)")))
			return e;
		if (!word_num(&p->cur, 0xffffffff, &r->arg))
			return rp_expected(p, "a mark (0-4294967295)");
		return 0;
	case DYNPF_ACT_SAMPLE:
		if ((e = rp_need(p, "a sample length (1-256 bytes)")))
			return e;
		if (!word_num(&p->cur, DYNPF_SAMPLE_MAX, &v) || !v)
			return rp_expected(p, "a sample length (1-256 bytes)");
		r->sample_len = v;
		r->sample_rate = DYNPF_SAMPLE_RATE_DEFAULT;
		w = rp_peek(p);
		if (word_eq(&w, "rate")) {
			rp_next(p);
			if ((e = rp_need(p, "a rate (NUM/s, 1 or more)")))
				return e;
			if (!per_second(&p->cur, &r->sample_rate))
				return rp_expected(p, "a rate (NUM/s, 1 or more)");
		}
		return 0;
	case DYNPF_ACT_LIMIT:
		if ((e = rp_need(p, "a rate (NUM/s, 1 or more)")))
			return e;
		if (!per_second(&p->cur, &r->arg))
			return rp_expected(p, "a rate (NUM/s, 1 or more)");
		r->burst = r->arg;
		w = rp_peek(p);
		if (word_eq(&w, "burst")) {
			rp_next(p);
			if ((e = rp_need(p, "a burst (packets, 1 or more)")))
				return e;
			if (!word_num(&p->cur, 0xffffffff, &r->burst) || !r->burst)
				return rp_expected(p, "a burst (packets, 1 or more)");
		}
		return 0;
	}
	return 0;
}
