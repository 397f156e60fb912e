// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The actions of the rule language (docs/rules.md, "Actions"), the last
 * words of a rule: pass (accept), drop, count, and those with arguments:
 * redirect IFNAME|NUM, mark NUM, sample NUM [rate NUM/s], limit NUM/s
 * [burst NUM]. After the action, a rule's lifetime: timeout DURATION.
 */
#include <string.h>
#include <time.h>

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

/* The instant tests fix (dynpf_lang_set_now()), or 0: the real clock. */
static __u64 lang_now_fixed;

__u64 dynpf_lang_now(void)
{
	struct timespec ts;

	if (lang_now_fixed)
		return lang_now_fixed;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void dynpf_lang_set_now(__u64 ns)
{
	lang_now_fixed = ns;
}

__u64 dynpf_rule_timeout_left(const struct dynpf_rule *r, __u64 now_ns)
{
	__u64 left;

	if (!r->expires)
		return 0;
	if (r->expires <= now_ns)
		return 1; /* going: the daemon removes it at once */
	left = (r->expires - now_ns) / 1000000000ull + !!((r->expires - now_ns) % 1000000000ull);
	/* Past what the language takes: printed as the longest it takes. */
	return left > DYNPF_TIMEOUT_MAX ? DYNPF_TIMEOUT_MAX : left;
}

#define TIMEOUT_WHAT "a timeout (NUM[s|m|h|d], 1 second to 136 years)"

/* timeout DURATION: NUM seconds, or NUM followed by s, m, h or d. */
int rp_timeout(struct rp *p)
{
	static const struct {
		char unit;
		__u32 secs;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	const struct word *w = &p->cur;
	__u32 n, mul = 1;
	size_t len;
	int e;

	if ((e = rp_need(p, TIMEOUT_WHAT)))
		return e;
	len = w->len;
	for (size_t i = 0; len > 1 && i < ARRAY_SIZE(units); i++)
		if (w->p[len - 1] == units[i].unit) {
			mul = units[i].secs;
			len--;
			break;
		}
	if (!lang_num(w->p, len, DYNPF_TIMEOUT_MAX, &n) || !n || (__u64)n * mul > DYNPF_TIMEOUT_MAX)
		return rp_expected(p, TIMEOUT_WHAT);
	p->r->expires = dynpf_lang_now() + (__u64)n * mul * 1000000000ull;
	return 0;
}
