// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the rule benchmarks (issue 4), their run.
 *
 * One copy of dynpf's programs is loaded with rule tables for
 * DYNPF_MAX_RULES ids (dynpf_size_rule_maps), trace off, and driven through
 * the control channel (loader/channel/ring.c, txn.c) exactly as a producer
 * would: begin, adds, commit, flush. The rule set grows by steps to each rule
 * count (one transaction per step, timed: the load of N rules is the sum of
 * the steps), of the generated rules (rules_gen.c). Then, in turn:
 *
 *   classification at each count (rules_classify.c);
 *   updates per second, on the empty set (rules_updates.c);
 *   submit to effective, with 1 rule and the largest count (rules_effect.c);
 *   single-rule transactions, with 10,000 rules (or the largest count below
 *   it: rules_single.c);
 *   nft -f of the same sets, where nft is installed (rules_nft.c);
 *   the CLI against a daemon of its own, with the same count of rules as the
 *   single-rule transactions (rules_cli.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bench/rules.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "native.h"

int bench_rules_parse_counts(const char *arg, struct bench_rules_cfg *cfg)
{
	uint32_t v[BENCH_RULES_MAX_COUNTS + 2];
	char buf[256], *tok, *save = NULL;
	size_t n = 0;

	v[n++] = 0;
	v[n++] = 1;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long x;
		char *end;
		size_t i;

		errno = 0;
		x = strtoull(tok, &end, 10);
		if (errno || end == tok || *end || *tok == '-' || x > BENCH_RULES_MAX_COUNT) {
			p_err("--rule-counts %s: expected integers from 0 to %u, comma-separated",
			      arg, BENCH_RULES_MAX_COUNT);
			return -EINVAL;
		}
		for (i = 0; i < n && v[i] != x; i++)
			;
		if (i < n)
			continue;
		if (n == BENCH_RULES_MAX_COUNTS) {
			p_err("--rule-counts %s: at most %d counts", arg,
			      BENCH_RULES_MAX_COUNTS - 2);
			return -EINVAL;
		}
		v[n++] = x;
	}
	for (size_t i = 1; i < n; i++) /* ascending */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint32_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	memcpy(cfg->counts, v, n * sizeof(v[0]));
	cfg->ncounts = n;
	return 0;
}

void bench_rules_default_counts(struct bench_rules_cfg *cfg)
{
	static const uint32_t def[] = { 0, 1, 100, 1000, 10000, 100000 };

	memcpy(cfg->counts, def, sizeof(def));
	cfg->ncounts = ARRAY_SIZE(def);
}

void bench_rules_free(struct bench_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->set && i < r->cfg.ncounts; i++)
		free(r->set[i].fr_frame_ns);
	free(r->set);
	free(r->fr_info);
	free(r);
}

/* Grow the rule set from prev rules to s->rules in one transaction, timed. */
static int load_step(struct rb_ctx *x, uint32_t prev, struct rb_set *s, double total_before)
{
	struct dynpf_ack_commit ack;
	char what[64];
	double t0, t1;
	int err;

	s->added = s->rules - prev;
	s->total_ms = total_before;
	if (!s->added)
		return 0;
	snprintf(what, sizeof(what), "loading %u rules", s->rules);
	t0 = dynpf_now() * 1e3;
	if (prev == 0) /* the catch-all first: the set of 1 */
		err = rb_txn(x, 1, rb_id_from, RB_CATCHALL_ID, false, &ack, what);
	else /* then ids prev .. rules-1 */
		err = rb_txn(x, s->added, rb_id_from, prev, false, &ack, what);
	t1 = dynpf_now() * 1e3;
	if (err)
		return err;
	if (ack.nrules != s->rules) {
		p_err("bench: after %s, the commit ack says %u rules", what, ack.nrules);
		return -EPROTO;
	}
	s->tuples = ack.ntuples;
	s->load_ms = t1 - t0;
	s->total_ms += s->load_ms;
	pr_info("bench: %u rules loaded (+%u in %.1f ms), %u tuples\n", s->rules, s->added,
		s->load_ms, s->tuples);
	return 0;
}

int bench_rules_run(const struct bench_rules_cfg *cfg, struct bench_rules **out)
{
	struct rb_ctx x = { .cfg = cfg };
	struct bench_rules *res;
	double t0, total = 0;
	uint32_t single_at = 0;
	int err;

	res = calloc(1, sizeof(*res));
	if (res)
		res->set = calloc(cfg->ncounts, sizeof(*res->set));
	if (!res || !res->set) {
		bench_rules_free(res);
		p_err("bench: out of memory");
		return -ENOMEM;
	}
	res->cfg = *cfg;
	x.res = res;
	x.ncpus = libbpf_num_possible_cpus();
	/* --frames' capture first: a file that does not read costs no load. */
	err = rb_frames_open(&x);
	if (err)
		goto fail;
	for (size_t sh = 0; sh < RB_NSHAPES; sh++)
		dynpf_parse_native(cfg->shape[sh].pkt, cfg->shape[sh].len, &x.parsed[sh], NULL);

	/* dynpf's programs, trace off, rule tables for every rule id. */
	t0 = dynpf_now() * 1e3;
	x.skel = dynpf_bpf__open();
	if (!x.skel) {
		err = -errno;
		p_err("bench: cannot open dynpf's BPF object: %s", strerror(-err));
		goto fail;
	}
	err = dynpf_size_rule_maps(x.skel, DYNPF_MAX_RULES);
	if (err) {
		p_err("bench: cannot size the rule tables: %s", strerror(-err));
		goto fail;
	}
	dynpf_skel_maps_only(x.skel);
	err = dynpf_bpf__load(x.skel);
	if (err) {
		bench_say_unloaded("bench", "dynpf's BPF programs", err);
		goto fail;
	}
	err = dynpf_lazy_open(x.skel, 1u << DYNPF_HOOK_XDP | 1u << DYNPF_HOOK_TC_INGRESS, 0,
			      &x.lazy);
	if (err)
		goto fail;
	res->prog_load_ms = dynpf_now() * 1e3 - t0;
	if (x.skel->rodata->dynpf_trace_on) {
		p_err("bench: dynpf_trace_on defaults to on: refusing to time the trace");
		err = -EINVAL;
		goto fail;
	}
	x.prog_fd[0] = bpf_program__fd(dynpf_lazy_prog(&x.lazy, DYNPF_HOOK_XDP));
	x.prog_fd[1] = bpf_program__fd(dynpf_lazy_prog(&x.lazy, DYNPF_HOOK_TC_INGRESS));
	err = rb_stages_open(&x);
	if (err)
		goto fail;
	err = dynpf_ctrl_open(&x.c, x.skel);
	if (err)
		goto fail;
	rb_xdpfilter_open(&x);

	err = rb_options(&x);
	if (err)
		goto fail;
	/* The count the single-rule transactions run at: 10,000 or the largest below. */
	for (size_t i = 0; i < cfg->ncounts; i++)
		if (cfg->counts[i] && (!single_at || cfg->counts[i] <= 10000))
			single_at = cfg->counts[i];
	for (size_t i = 0; i < cfg->ncounts; i++) {
		struct rb_set *s = &res->set[i];

		s->rules = cfg->counts[i];
		err = load_step(&x, i ? cfg->counts[i - 1] : 0, s, total);
		if (err)
			goto fail;
		total = s->total_ms;
		/* Timed on a rule set whose chains hold no deleted rule (the
		 * updates' and the last steps' are reclaimed first). */
		err = dynpf_ctrl_quiesce(&x.c);
		err = err ?: rb_check_set(&x, s);
		err = err ?: rb_time_steady(&x, s);
		err = err ?: rb_time_frames(&x, s);
		if (err)
			goto fail;
		if (s->rules == 0) {
			/* Update rates on an empty rule set, which they leave empty. */
			err = rb_updates(&x);
			if (err)
				goto fail;
		}
		if (s->rules == single_at) {
			err = rb_single_run(&x.c, x.prog_fd[0], x.skel->maps.dynpf_verdicts,
					    s->rules, &res->single);
			if (err)
				goto fail;
		}
		if (s->rules == 1 || (i == cfg->ncounts - 1 && s->rules > 1)) {
			err = rb_effective(&x, s->rules, &res->eff[res->neff]);
			if (err)
				goto fail;
			res->neff++;
		}
	}
	rb_nft(&x);
	err = rb_cli(&x, single_at);
	if (err)
		goto fail;
	rb_stages_close(&x);
	rb_frames_close(&x);
	dynpf_ctrl_close(&x.c);
	dynpf_lazy_close(&x.lazy);
	dynpf_bpf__destroy(x.skel);
	bpf_object__close(x.xf_obj);
	*out = res;
	return 0;
fail:
	rb_stages_close(&x);
	rb_frames_close(&x);
	if (x.c.urb || x.c.acks)
		dynpf_ctrl_close(&x.c);
	dynpf_lazy_close(&x.lazy);
	dynpf_bpf__destroy(x.skel);
	bpf_object__close(x.xf_obj);
	bench_rules_free(res);
	return err ?: -EPROTO;
}
