// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the performance targets (issue 18), each a ratio measured in
 * this run beside its baseline, with the target and whether it is met: the
 * table at the end of the text and "targets" in the JSON, so every change
 * shows what it did to them. The test-run targets come from the rule
 * benchmarks (xdp-filter's all-features program timed in the same rounds,
 * the direct parser for the option areas); the live ones from --live.
 *
 * Each ratio is paired: taken per round, between two programs timed one
 * after the other in that round, and the median of those is the figure.
 * This VM has phases, seconds long, in which every program runs 1.3-1.5x
 * slower; a median per program takes them whole when they fall on its
 * rounds and not on the baseline's, and a ratio of two such medians moved
 * by 0.2 between runs. A ratio of two rule sets (timed apart: one set is
 * loaded at a time) is each set's cost against xdp-filter in its own
 * rounds, the one over the other: xdp-filter does not read dynpf's maps,
 * so what moves it is the machine. Without xdp-filter, the plain medians.
 * And where the kernel puts dynpf_xdp's code moved a packet's cost by a
 * fifth: the xdp targets of the rule sets take that ratio for each of the
 * RB_NPLACES loads of dynpf_xdp (rules.h), then the median of those.
 */
#include <stdio.h>

#include "bench/live.h"
#include "bench/rules.h"
#include "lib/util.h"

struct target {
	const char *what;
	double target; /* the ratio must be at most this, or at least with at_least */
	bool at_least;
	double now;
	bool have;
	bool ms; /* a time in ms, not a ratio */
};

/* The set of `rules` rules, or NULL: not measured in this run. */
static const struct rb_set *rules_set(const struct bench_rules *r, uint32_t rules)
{
	for (size_t i = 0; r && i < r->cfg.ncounts; i++)
		if (r->set[i].rules == rules)
			return &r->set[i];
	return NULL;
}

/* The median over the n rounds of a[i] / b[i]; 0 when a round lacks one. */
static double paired(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	double q[BENCH_RUNS_MAX];

	if (!n || n > BENCH_RUNS_MAX)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!a[i] || !b[i])
			return 0;
		q[i] = (double)a[i] / b[i];
	}
	return dynpf_median(q, n);
}

/* The runs of dynpf_xdp in placement k of set s, shape sh (rules.h). */
static const uint32_t *xdp_runs(const struct rb_set *s, size_t sh, uint32_t k)
{
	return k ? s->place_ns[sh][k] : s->ns[sh][0][P_DYNPF];
}

/* Its median. */
static double xdp_med(const struct rb_set *s, size_t sh, uint32_t k)
{
	return k ? s->place_med[sh][k] : s->med[sh][0][P_DYNPF];
}

static uint32_t nplaces(const struct bench_rules *r)
{
	return r->nplaces ? r->nplaces : 1;
}

/* Placement k of dynpf_xdp on shape sh with `rules` rules against xdp-filter in the same rounds. */
static double vs_xf_at(const struct bench_rules *r, size_t sh, uint32_t rules, uint32_t k)
{
	const struct rb_set *s = rules_set(r, rules);

	if (!s || !r->xf_path[0] || r->xf_msg[0])
		return 0;
	return paired(xdp_runs(s, sh, k), s->ns[sh][0][P_XDPFILT], r->cfg.runs);
}

/* The median over the placements of q(r, sh, a, b, k); 0 when one is not measured. */
static double over_places(const struct bench_rules *r, size_t sh, uint32_t a, uint32_t b,
			  double (*q)(const struct bench_rules *, size_t, uint32_t, uint32_t,
				      uint32_t))
{
	double v[RB_NPLACES];
	uint32_t n = nplaces(r);

	for (uint32_t k = 0; k < n; k++) {
		v[k] = q(r, sh, a, b, k);
		if (v[k] <= 0)
			return 0;
	}
	return dynpf_median(v, n);
}

static double q_xf(const struct bench_rules *r, size_t sh, uint32_t rules, uint32_t unused,
		   uint32_t k)
{
	(void)unused;
	return vs_xf_at(r, sh, rules, k);
}

/* Placement k: `rules` rules over `base` rules (see the top). */
static double q_set(const struct bench_rules *r, size_t sh, uint32_t rules, uint32_t base,
		    uint32_t k)
{
	const struct rb_set *a = rules_set(r, rules), *b = rules_set(r, base);
	double na = vs_xf_at(r, sh, rules, k), nb = vs_xf_at(r, sh, base, k);

	if (!a || !b)
		return 0;
	if (na > 0 && nb > 0)
		return na / nb;
	return xdp_med(b, sh, k) > 0 ? xdp_med(a, sh, k) / xdp_med(b, sh, k) : 0;
}

/* Placement k: dynpf_tc_ingress over it, on shape sh with `rules` rules. */
static double q_tc(const struct bench_rules *r, size_t sh, uint32_t rules, uint32_t unused,
		   uint32_t k)
{
	const struct rb_set *s = rules_set(r, rules);

	(void)unused;
	return s ? paired(s->ns[sh][1][P_DYNPF], xdp_runs(s, sh, k), r->cfg.runs) : 0;
}

/* dynpf_xdp on shape sh with `rules` rules against xdp-filter. */
static double vs_xf(const struct bench_rules *r, size_t sh, uint32_t rules)
{
	return over_places(r, sh, rules, 0, q_xf);
}

/* dynpf_xdp on shape sh: `rules` rules over `base` rules. */
static double vs_set(const struct bench_rules *r, size_t sh, uint32_t rules, uint32_t base)
{
	return over_places(r, sh, rules, base, q_set);
}

/* A target's figure now: q > 0, or not measured in this run (0). */
static void ratio(struct target *t, double q)
{
	t->have = q > 0;
	t->now = t->have ? q : 0;
}

/* The test-run targets, from the rule benchmarks. */
static size_t rules_targets(const struct bench_rules *r, struct target *t)
{
	static const uint32_t xf_rules[] = { 0, 1, 10000 };
	static const double want_xf[] = { 0.9, 1.1, 1.4 };
	size_t n = 0;
	double q, worst = 0;

	for (size_t k = 0; k < ARRAY_SIZE(xf_rules); k++)
		for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
			static char what[3][RB_NSHAPES][64];

			if (k < 2 && sh) /* 0 and 1 rule: the syn packet */
				continue;
			snprintf(what[k][sh], sizeof(what[k][sh]), "%s xdp, %u rules / xdp-filter",
				 r ? r->cfg.shape[sh].name : "?", xf_rules[k]);
			t[n] = (struct target){ .what = what[k][sh], .target = want_xf[k] };
			ratio(&t[n++], vs_xf(r, sh, xf_rules[k]));
		}
	for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
		static char what[2][RB_NSHAPES][64];

		snprintf(what[0][sh], sizeof(what[0][sh]), "%s xdp, 10000 rules / 1 rule",
			 r ? r->cfg.shape[sh].name : "?");
		t[n] = (struct target){ .what = what[0][sh], .target = 1.3 };
		ratio(&t[n++], vs_set(r, sh, 10000, 1));
		snprintf(what[1][sh], sizeof(what[1][sh]), "%s xdp, 100000 rules / 10000",
			 r ? r->cfg.shape[sh].name : "?");
		t[n] = (struct target){ .what = what[1][sh], .target = 1.1 };
		ratio(&t[n++], vs_set(r, sh, 100000, 10000));
	}
	for (size_t k = 0; k < 2; k++) {
		static char what[2][64];

		snprintf(what[k], sizeof(what[k]), "%s xdp, rule on its options / direct",
			 r ? r->cfg.opt_shape[k].name : "?");
		t[n] = (struct target){ .what = what[k], .target = 2.0 };
		ratio(&t[n++], r && r->opts.med[k][0][RB_OPT_DIRECT] > 0
				       ? paired(r->opts.ns[k][0][RB_OPT_DYNPF],
						r->opts.ns[k][0][RB_OPT_DIRECT], r->cfg.runs)
				       : 0);
	}
	/* TC against XDP on the same packet and rules: the worst of them. */
	for (size_t i = 0; r && i < r->cfg.ncounts; i++)
		for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
			q = over_places(r, sh, r->set[i].rules, 0, q_tc);
			if (q > worst)
				worst = q;
		}
	t[n] = (struct target){ .what = "tc / xdp, same packet and rules (worst)", .target = 1.3 };
	ratio(&t[n++], worst);
	/* Not a ratio: the classifier's structure must stay cheap to load (the
	 * set's steps through the control channel, each flushed and acked). */
	t[n] = (struct target){ .what = "load of 10,000 rules, ms", .target = 50, .ms = true };
	ratio(&t[n++], rules_set(r, 10000) ? rules_set(r, 10000)->total_ms : 0);
	return n;
}

/*
 * The live targets: dynpf's Mpps over the empty XDP_DROP program's, the
 * median of the pairs of slices (live.h), paired as the test-run ones.
 */
static size_t live_targets(const struct bench_live *l, struct target *t)
{
	static const struct {
		int pair;
		const char *what;
		double target;
	} lt[] = {
		{ LV_PAIR_XDP_BIG, "live: xdp, 10,000 rules / empty XDP_DROP", 0.55 },
		{ LV_PAIR_XDP1, "live: xdp, 1 rule / empty XDP_DROP", 0.6 },
	};
	size_t n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(lt); k++) {
		const struct lv_pairs *pp = l ? &l->pairs[lt[k].pair] : NULL;

		t[n] = (struct target){ .what = lt[k].what,
					.target = lt[k].target,
					.at_least = true };
		ratio(&t[n++], pp && pp->done ? pp->med : 0);
	}
	return n;
}

#define BENCH_MAX_TARGETS 16

static size_t targets(const struct bench_rules *r, const struct bench_live *l, struct target *t)
{
	return l ? live_targets(l, t) : rules_targets(r, t);
}

static bool met(const struct target *t)
{
	return t->at_least ? t->now >= t->target : t->now <= t->target;
}

void bench_print_targets(const struct bench_rules *r, const struct bench_live *l)
{
	struct target t[BENCH_MAX_TARGETS];
	size_t n = targets(r, l, t);

	printf("\ntargets (issue 18): each ratio measured in this run\n");
	printf("%-48s %8s %8s  %s\n", "", "target", "now", "");
	for (size_t i = 0; i < n; i++) {
		if (!t[i].have) {
			printf("%-48s %s%6.2f %8s  %s\n", t[i].what,
			       t[i].at_least ? ">=" : "<=", t[i].target, "-",
			       "not measured in this run");
			continue;
		}
		printf(t[i].ms ? "%-48s %s%6.2f %6.2fms  %s\n" : "%-48s %s%6.2f %7.3fx  %s\n",
		       t[i].what, t[i].at_least ? ">=" : "<=", t[i].target, t[i].now,
		       met(&t[i]) ? "met" : "MISSED");
	}
}

json_object *bench_targets_json(const struct bench_rules *r, const struct bench_live *l)
{
	struct target t[BENCH_MAX_TARGETS];
	size_t n = targets(r, l, t);
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "what", json_object_new_string(t[i].what));
		json_object_object_add(e, "unit", json_object_new_string(t[i].ms ? "ms" : "x"));
		json_object_object_add(e, t[i].at_least ? "at_least" : "at_most",
				       dynpf_json_num(t[i].target, "%.2f"));
		json_object_object_add(e, "now",
				       t[i].have ? dynpf_json_num(t[i].now, "%.3f") : NULL);
		json_object_object_add(e, "met",
				       t[i].have ? json_object_new_boolean(met(&t[i])) : NULL);
		json_object_array_add(a, e);
	}
	return a;
}
