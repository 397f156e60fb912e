// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the performance targets (issue 18), each a ratio measured in
 * this run beside its baseline, with the target and whether it is met: the
 * table at the end of the text and "targets" in the JSON, so every change
 * shows what it did to them. The test-run targets come from the rule
 * benchmarks (xdp-filter's all-features program timed in the same rounds,
 * the direct parser for the option areas); the live ones from --live.
 */
#include <stdio.h>

#include "bench/live.h"
#include "bench/rules.h"

struct target {
	const char *what;
	double target; /* the ratio must be at most this, or at least with at_least */
	bool at_least;
	double now;
	bool have;
};

/* The median of dynpf (P_DYNPF) or xdp-filter for shape sh, hook h, at `rules`. */
static bool rules_ns(const struct bench_rules *r, size_t sh, size_t h, uint32_t rules, int prog,
		     double *ns)
{
	for (size_t i = 0; r && i < r->cfg.ncounts; i++)
		if (r->set[i].rules == rules) {
			*ns = r->set[i].med[sh][h][prog];
			return *ns > 0;
		}
	return false;
}

static void ratio(struct target *t, double a, double b, bool ok)
{
	t->have = ok && b > 0;
	t->now = t->have ? a / b : 0;
}

/* The test-run targets, from the rule benchmarks. */
static size_t rules_targets(const struct bench_rules *r, struct target *t)
{
	static const uint32_t vs_xf[] = { 0, 1, 10000 };
	static const double want_xf[] = { 0.9, 1.1, 1.4 };
	size_t n = 0;
	double a, b, worst = 0;
	bool ok, any = false;

	for (size_t k = 0; k < ARRAY_SIZE(vs_xf); k++)
		for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
			static char what[3][RB_NSHAPES][64];

			if (k < 2 && sh) /* 0 and 1 rule: the syn packet */
				continue;
			snprintf(what[k][sh], sizeof(what[k][sh]), "%s xdp, %u rules / xdp-filter",
				 r ? r->cfg.shape[sh].name : "?", vs_xf[k]);
			t[n] = (struct target){ .what = what[k][sh], .target = want_xf[k] };
			ok = rules_ns(r, sh, 0, vs_xf[k], P_DYNPF, &a) &&
			     rules_ns(r, sh, 0, vs_xf[k], P_XDPFILT, &b);
			ratio(&t[n++], a, b, ok);
		}
	for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
		static char what[2][RB_NSHAPES][64];

		snprintf(what[0][sh], sizeof(what[0][sh]), "%s xdp, 10000 rules / 1 rule",
			 r ? r->cfg.shape[sh].name : "?");
		t[n] = (struct target){ .what = what[0][sh], .target = 1.3 };
		ok = rules_ns(r, sh, 0, 10000, P_DYNPF, &a) && rules_ns(r, sh, 0, 1, P_DYNPF, &b);
		ratio(&t[n++], a, b, ok);
		snprintf(what[1][sh], sizeof(what[1][sh]), "%s xdp, 100000 rules / 10000",
			 r ? r->cfg.shape[sh].name : "?");
		t[n] = (struct target){ .what = what[1][sh], .target = 1.1 };
		ok = rules_ns(r, sh, 0, 100000, P_DYNPF, &a) &&
		     rules_ns(r, sh, 0, 10000, P_DYNPF, &b);
		ratio(&t[n++], a, b, ok);
	}
	for (size_t k = 0; k < 2; k++) {
		static char what[2][64];

		snprintf(what[k], sizeof(what[k]), "%s xdp, rule on its options / direct",
			 r ? r->cfg.opt_shape[k].name : "?");
		t[n] = (struct target){ .what = what[k], .target = 2.0 };
		ok = r && r->opts.med[k][0][RB_OPT_DIRECT] > 0;
		ratio(&t[n++], ok ? r->opts.med[k][0][RB_OPT_DYNPF] : 0,
		      ok ? r->opts.med[k][0][RB_OPT_DIRECT] : 0, ok);
	}
	/* TC against XDP on the same packet and rules: the worst of them. */
	for (size_t i = 0; r && i < r->cfg.ncounts; i++)
		for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
			a = r->set[i].med[sh][1][P_DYNPF];
			b = r->set[i].med[sh][0][P_DYNPF];
			if (a > 0 && b > 0 && a / b > worst)
				worst = a / b;
			any |= a > 0 && b > 0;
		}
	t[n] = (struct target){ .what = "tc / xdp, same packet and rules (worst)", .target = 1.3 };
	ratio(&t[n++], worst, 1, any);
	return n;
}

/* The live targets: dynpf's Mpps over the empty XDP_DROP program's. */
static size_t live_targets(const struct bench_live *l, struct target *t)
{
	static const struct {
		int conf;
		const char *what;
		double target;
	} lt[] = {
		{ LV_XDP_BIG, "live: xdp, 10,000 rules / empty XDP_DROP", 0.55 },
		{ LV_XDP1, "live: xdp, 1 rule / empty XDP_DROP", 0.6 },
	};
	size_t n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(lt); k++) {
		const struct lv_run *d = l ? &l->run[lt[k].conf] : NULL;
		const struct lv_run *e = l ? &l->run[LV_EMPTY] : NULL;
		bool ok = d && e && d->done && e->done && d->secs > 0 && e->secs > 0;

		t[n] = (struct target){ .what = lt[k].what,
					.target = lt[k].target,
					.at_least = true };
		ratio(&t[n++], ok ? d->rx / d->secs : 0, ok ? e->rx / e->secs : 0, ok);
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
		printf("%-48s %s%6.2f %7.2fx  %s\n", t[i].what,
		       t[i].at_least ? ">=" : "<=", t[i].target, t[i].now,
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
