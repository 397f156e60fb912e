// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: their output. The tables (rule sets,
 * classification, updates, submit to effective, nft), and the JSON object
 * "rules" of `dynpf -j bench`.
 */
#include <stdio.h>

#include "bench/rules.h"

static const struct rb_set *set_of(const struct bench_rules *r, uint32_t rules)
{
	for (size_t i = 0; i < r->cfg.ncounts; i++)
		if (r->set[i].rules == rules)
			return &r->set[i];
	return NULL;
}

static void print_sets(const struct bench_rules *r)
{
	printf("rule sets: generated, loaded through the control channel, one transaction per\n"
	       "step (dynpf's programs loaded with tables for %u rule ids in %.0f ms)\n",
	       DYNPF_MAX_RULES, r->prog_load_ms);
	printf("%8s %8s %7s %10s %10s %10s   %s\n", "rules", "added", "tuples", "step ms",
	       "rules/s", "total ms", "walked: syn, ipv6-udp");
	for (size_t i = 0; i < r->cfg.ncounts; i++) {
		const struct rb_set *s = &r->set[i];

		printf("%8u %8u %7u ", s->rules, s->added, s->tuples);
		if (s->added)
			printf("%10.1f %10.0f %10.1f", s->load_ms, s->added / (s->load_ms / 1e3),
			       s->total_ms);
		else
			printf("%10s %10s %10s", "-", "-", "-");
		printf("   %u, %u\n", s->cand[0], s->cand[1]);
	}
	printf("\ntuples: distinct match masks and quick dimensions tested, from the commit's\n"
	       "ack (at most %d). walked: the rules whose key the packet has under their\n"
	       "mask (the native reference counts them; the quick filters drop most of their\n"
	       "tuples before a probe). total: the sum of the steps, the load of that many\n"
	       "rules (each step one transaction, flushed and acked).\n",
	       DYNPF_MAX_TUPLES);
}

/* The rule counts timed again, or timed in a slow phase (rb_time_steady()). */
static void print_retimed(const struct bench_rules *r)
{
	const char *gauge = r->set[0].med[0][0][P_XDPFILT] > 0 ? "xdp-filter" : "the empty program";
	bool head = false;

	for (size_t i = 0; i < r->cfg.ncounts; i++) {
		const struct rb_set *s = &r->set[i];
		bool slow = rb_gauge(s) > RB_SLOW * r->gauge_min;

		if (s->timed <= 1 && !slow)
			continue;
		if (!head)
			printf("timed again: a count whose rounds had %s on %s above %.2fx the\n"
			       "lowest of the counts before (a slow phase of the machine), at most "
			       "%d times\nmore, the attempt with the lowest kept:\n",
			       gauge, r->cfg.shape[0].name, RB_SLOW, RB_RETIME_MAX);
		head = true;
		printf("  %u rules: %s", s->rules, gauge);
		for (uint32_t k = 0; k < s->timed; k++)
			printf("%s %.1f ns%s", k ? "," : "", s->gauge_ns[k],
			       k == s->kept && s->timed > 1 ? " (kept)" : "");
		if (slow)
			printf("; still slow against %.1f", r->gauge_min);
		printf("\n");
	}
}

static void print_classify(const struct bench_rules *r)
{
	const struct rb_set *one = set_of(r, 1), *zero = set_of(r, 0);
	const struct bench_rules_cfg *cfg = &r->cfg;

	printf("\nclassification, ns per packet (BPF_PROG_TEST_RUN, repeat %u, median of %u "
	       "runs)\n",
	       cfg->repeat, cfg->runs);
	printf("%-24s %7s", "rules loaded:", "empty");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9u", cfg->counts[i]);
	printf("\n");
	for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
		for (size_t h = 0; h < RB_NHOOKS; h++) {
			char name[48];

			snprintf(name, sizeof(name), "%s %s", cfg->shape[sh].name,
				 rb_hooks[h].name);
			printf("%-24s %7.1f", name, r->set[0].med[sh][h][P_EMPTY]);
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", r->set[i].med[sh][h][P_DYNPF]);
			printf("\n%-24s %7s", "  x the cost with 1 rule", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %8.2fx",
				       r->set[i].med[sh][h][P_DYNPF] / one->med[sh][h][P_DYNPF]);
			printf("\n%-24s %7s", "  - the cost with none", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f",
				       r->set[i].med[sh][h][P_DYNPF] - zero->med[sh][h][P_DYNPF]);
			printf("\n");
			for (uint32_t k = 1; !h && k < r->nplaces; k++) {
				printf("%-24s %7s", k == 1 ? "  loaded again" : "", "");
				for (size_t i = 0; i < cfg->ncounts; i++)
					printf(" %9.1f", r->set[i].place_med[sh][k]);
				printf("\n");
			}
			if (h || !r->xf_path[0] || r->xf_msg[0])
				continue;
			printf("%-24s %7s", "  xdp-filter, all", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", r->set[i].med[sh][h][P_XDPFILT]);
			printf("\n%-24s %7s", "  x xdp-filter's cost", "");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %8.2fx", r->set[i].med[sh][h][P_DYNPF] /
							  r->set[i].med[sh][h][P_XDPFILT]);
			printf("\n");
		}
	}
	printf("\nThe packets: %s (%u bytes) and %s (%u bytes), through dynpf_xdp and\n"
	       "dynpf_tc_ingress; empty: bench.bpf.c's empty program (the test-run floor).\n"
	       "Rule id N of a set is of kind N %% %d (K: N / %d), but ids 10, 20 .. 80, which\n"
	       "share a packet's key and fail on a range, flag, TLV or value test (their\n"
	       "chains are walked); the last rule is the catch-all (id %u, pass, the last\n"
	       "priority). Nothing else matches the packets, as the native reference and\n"
	       "the verdict map check: every tuple is looked up for every packet. Kinds:\n",
	       cfg->shape[0].name, cfg->shape[0].len, cfg->shape[1].name, cfg->shape[1].len,
	       RB_NKINDS, RB_NKINDS, RB_CATCHALL_ID);
	for (int k = 0; k < RB_NKINDS; k++)
		printf("  %2d  %s\n", k, rb_kind_text[k]);
	printf("\"x the cost with 1 rule\": divided by the 1-rule column; \"- the cost with\n"
	       "none\": the classifier's share. The rule counts are timed one after the other,\n"
	       "not interleaved: drift between columns shows in the empty program's runs\n"
	       "(-j). In this VM the figures move by about +-20%% from run to run.\n");
	if (r->nplaces > 1)
		printf("loaded again: the same dynpf_xdp loaded %u more times on the same maps and\n"
		       "timed in the same rounds: where the kernel puts a program's code moves its\n"
		       "cost (docs/bench.md); the xdp targets take the median over the %u loads.\n",
		       r->nplaces - 1, r->nplaces);
	print_retimed(r);
	if (r->xf_msg[0])
		printf("xdp-filter: %s%s%s, not measured.\n", r->xf_path, r->xf_path[0] ? ": " : "",
		       r->xf_msg);
	else
		printf("xdp-filter, all: %s\n(every feature; no rules loaded, so the packet "
		       "passes), loaded with libbpf, no\ndispatcher, timed in the same rounds as "
		       "dynpf on xdp. \"x xdp-filter's cost\":\ndynpf divided by it.\n",
		       r->xf_path);
}

static void print_updates(const struct bench_rules *r)
{
	printf("\nrule updates per second (wall clock, CLOCK_MONOTONIC; median of %u runs of at "
	       "least %d ms)\n",
	       r->cfg.runs, BENCH_UPD_MS);
	printf("%6s %12s %10s %20s %20s %11s\n", "batch", "ring/s", "us/txn", "map_update_elem/s",
	       "map_update_batch/s", "elem/ring");
	for (size_t k = 0; k < RB_NBATCHES; k++) {
		const struct rb_upd *u = &r->upd[k];

		printf("%6u %12.0f %10.1f %20.0f %20.0f %10.1fx\n", u->batch, u->med_ring,
		       u->med_txn_us, u->med_elem, u->med_batch, u->med_elem / u->med_ring);
	}
	printf("\nring/s: rule adds per second, in transactions of begin + N adds + commit\n"
	       "through dynpf_ctrl (the USER_RINGBUF), each flushed: drained and validated in\n"
	       "BPF, linked at the next generation, published, acked (no grace period waited\n"
	       "for; what deletes retire is reclaimed in the background). Generated rules,\n"
	       "deleted again after each run, untimed. map_update_elem/s, map_update_batch/s:\n"
	       "the raw map-write floor, N %d-byte values (a rule entry of dynpf_rules)\n"
	       "written into a BPF_MAP_TYPE_ARRAY created by the bench, one\n"
	       "bpf_map_update_elem() each or one BPF_MAP_UPDATE_BATCH of N. elem/ring: how\n"
	       "many times the floor is faster.\n",
	       RB_FLOOR_VALUE);
}

static void print_effective(const struct bench_rules *r)
{
	char where[64] = "n/a: one CPU, or not pinned";

	if (!r->neff)
		return;
	if (r->poller_cpu >= 0)
		snprintf(where, sizeof(where), "here CPU %d", r->poller_cpu);
	printf("\nsubmit to effective (us, median of %d; a drop rule for the syn packet)\n",
	       BENCH_EFF_SAMPLES);
	printf("%8s %12s %12s %12s %12s %18s\n", "rules", "effective", "min", "max", "flushed",
	       "seen by a poller");
	for (size_t i = 0; i < r->neff; i++) {
		const struct rb_eff *e = &r->eff[i];

		printf("%8u %12.1f %12.1f %12.1f %12.1f", e->rules, e->med_us, e->min_us, e->max_us,
		       e->med_flush_us);
		if (e->seen)
			printf(" %18.1f\n", e->med_seen_us);
		else
			printf(" %18s\n", "n/a");
	}
	printf("\neffective: from the transaction's begin (begin, add, commit, flush) to the\n"
	       "first xdp test run after the flush that returns XDP_DROP; flushed: to the\n"
	       "flush's return, when the commit is acked and in force. seen by a poller: to\n"
	       "the first XDP_DROP of a thread running the packet in a loop on another CPU\n"
	       "(%s): when the commit published its generation.\n",
	       where);
}

static void print_nft(const struct bench_rules *r)
{
	if (r->nft != NFT_OK) {
		printf("\nnft: %s\n", r->nft_msg);
		return;
	}
	printf("\nnft -f of the same rules (an inet table, one chain, in a new network "
	       "namespace)\n");
	printf("%8s %12s %12s %10s\n", "rules", "nft -f ms", "dynpf ms", "nft/dynpf");
	for (size_t i = 0; i < r->cfg.ncounts; i++) {
		const struct rb_set *s = &r->set[i];

		if (!s->rules)
			continue;
		printf("%8u %12.1f %12.1f %9.2fx\n", s->rules, r->nft_ms[i], s->total_ms,
		       r->nft_ms[i] / s->total_ms);
	}
	printf("nft -f: the wall-clock of `ip netns exec NS nft -f FILE` (process start\n"
	       "included); dynpf: the total load time of the same count above.\n");
}

void bench_rules_print_text(const struct bench_rules *r)
{
	print_sets(r);
	print_classify(r);
	rb_print_stages(r);
	rb_print_frames(r);
	rb_print_options(r);
	print_updates(r);
	print_effective(r);
	rb_single_print(&r->single, "the rule set idle");
	rb_cli_print(&r->cli);
	print_nft(r);
}

json_object *bench_rules_json(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;
	const struct rb_set *one = set_of(r, 1), *zero = set_of(r, 0);
	json_object *o = json_object_new_object(), *sets = json_object_new_array();
	json_object *cls = json_object_new_array(), *upd = json_object_new_array();
	json_object *eff = json_object_new_array(), *kinds = json_object_new_array(), *nft;

	json_object_object_add(o, "catch_all_id", json_object_new_int64(RB_CATCHALL_ID));
	json_object_object_add(o, "program_load_ms", dynpf_json_num(r->prog_load_ms, "%.1f"));
	for (int k = 0; k < RB_NKINDS; k++)
		json_object_array_add(kinds, json_object_new_string(rb_kind_text[k]));
	json_object_object_add(o, "kinds", kinds);
	for (size_t i = 0; i < cfg->ncounts; i++) {
		const struct rb_set *s = &r->set[i];
		json_object *j = json_object_new_object(), *cand = json_object_new_object();
		json_object *gauges = json_object_new_array();

		json_object_object_add(j, "rules", json_object_new_int64(s->rules));
		json_object_object_add(j, "added", json_object_new_int64(s->added));
		json_object_object_add(j, "tuples", json_object_new_int64(s->tuples));
		json_object_object_add(j, "load_ms",
				       s->added ? dynpf_json_num(s->load_ms, "%.2f") : NULL);
		json_object_object_add(j, "total_load_ms", dynpf_json_num(s->total_ms, "%.2f"));
		for (size_t sh = 0; sh < RB_NSHAPES; sh++)
			json_object_object_add(cand, cfg->shape[sh].name,
					       json_object_new_int64(s->cand[sh]));
		json_object_object_add(j, "key_matches", cand);
		json_object_object_add(j, "timed", json_object_new_int64(s->timed));
		json_object_object_add(j, "timed_kept", json_object_new_int64(s->kept));
		for (uint32_t k = 0; k < s->timed; k++)
			json_object_array_add(gauges, dynpf_json_num(s->gauge_ns[k], "%.1f"));
		json_object_object_add(j, "gauge_ns", gauges);
		json_object_array_add(sets, j);
		for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
			for (size_t h = 0; h < RB_NHOOKS; h++) {
				json_object *c = json_object_new_object();
				double ns = s->med[sh][h][P_DYNPF];
				const uint32_t(*v)[BENCH_RUNS_MAX] = s->ns[sh][h];

				json_object_object_add(c, "shape",
						       json_object_new_string(cfg->shape[sh].name));
				json_object_object_add(c, "hook",
						       json_object_new_string(rb_hooks[h].name));
				json_object_object_add(c, "rules", json_object_new_int64(s->rules));
				json_object_object_add(c, "tuples",
						       json_object_new_int64(s->tuples));
				json_object_object_add(c, "dynpf_ns", dynpf_json_num(ns, "%.1f"));
				json_object_object_add(
					c, "empty_ns",
					dynpf_json_num(s->med[sh][h][P_EMPTY], "%.1f"));
				json_object_object_add(
					c, "ratio_1_rule",
					dynpf_json_num(ns / one->med[sh][h][P_DYNPF], "%.3f"));
				json_object_object_add(
					c, "classifier_ns",
					dynpf_json_num(ns - zero->med[sh][h][P_DYNPF], "%.1f"));
				json_object_object_add(c, "runs_empty_ns",
						       bench_json_u32s(v[P_EMPTY], cfg->runs));
				json_object_object_add(c, "runs_dynpf_ns",
						       bench_json_u32s(v[P_DYNPF], cfg->runs));
				if (!h && !r->xf_msg[0] && r->xf_path[0]) {
					double xf = s->med[sh][h][P_XDPFILT];

					json_object_object_add(c, "xdpfilter_ns",
							       dynpf_json_num(xf, "%.1f"));
					json_object_object_add(c, "ratio_xdpfilter",
							       dynpf_json_num(ns / xf, "%.3f"));
					json_object_object_add(
						c, "runs_xdpfilter_ns",
						bench_json_u32s(v[P_XDPFILT], cfg->runs));
				}
				if (!h && r->nplaces > 1) {
					json_object *pl = json_object_new_array();

					for (uint32_t k = 1; k < r->nplaces; k++)
						json_object_array_add(
							pl, bench_json_u32s(s->place_ns[sh][k],
									    cfg->runs));
					json_object_object_add(c, "runs_dynpf_ns_loaded_again", pl);
				}
				json_object_array_add(cls, c);
			}
		}
	}
	json_object_object_add(o, "sets", sets);
	json_object_object_add(o, "classify", cls);
	json_object_object_add(o, "stages", rb_stages_json(r));
	if (r->cfg.frames)
		json_object_object_add(o, "frames", rb_frames_json(r));
	json_object_object_add(o, "options", rb_options_json(r));
	{
		json_object *xf = json_object_new_object();

		json_object_object_add(xf, "object", json_object_new_string(r->xf_path));
		json_object_object_add(xf, "measured",
				       json_object_new_boolean(r->xf_path[0] && !r->xf_msg[0]));
		if (r->xf_msg[0])
			json_object_object_add(xf, "why_not", json_object_new_string(r->xf_msg));
		json_object_object_add(o, "xdpfilter", xf);
	}
	for (size_t k = 0; k < RB_NBATCHES; k++) {
		const struct rb_upd *u = &r->upd[k];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "batch", json_object_new_int64(u->batch));
		json_object_object_add(j, "ring_per_s", dynpf_json_num(u->med_ring, "%.0f"));
		json_object_object_add(j, "ring_txn_us", dynpf_json_num(u->med_txn_us, "%.1f"));
		json_object_object_add(j, "map_update_elem_per_s",
				       dynpf_json_num(u->med_elem, "%.0f"));
		json_object_object_add(j, "map_update_batch_per_s",
				       dynpf_json_num(u->med_batch, "%.0f"));
		json_object_object_add(j, "runs_ring_per_s",
				       bench_json_doubles(u->ring, cfg->runs, "%.0f"));
		json_object_object_add(j, "runs_map_update_elem_per_s",
				       bench_json_doubles(u->elem, cfg->runs, "%.0f"));
		json_object_object_add(j, "runs_map_update_batch_per_s",
				       bench_json_doubles(u->mbatch, cfg->runs, "%.0f"));
		json_object_array_add(upd, j);
	}
	json_object_object_add(o, "updates", upd);
	json_object_object_add(
		o, "map_floor",
		json_object_new_string(
			"BPF_MAP_TYPE_ARRAY, values of a rule entry (struct dynpf_rule_ent)"));
	for (size_t i = 0; i < r->neff; i++) {
		const struct rb_eff *e = &r->eff[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "rules", json_object_new_int64(e->rules));
		json_object_object_add(j, "effective_us", dynpf_json_num(e->med_us, "%.1f"));
		json_object_object_add(j, "flushed_us", dynpf_json_num(e->med_flush_us, "%.1f"));
		json_object_object_add(j, "seen_by_poller_us",
				       e->seen ? dynpf_json_num(e->med_seen_us, "%.1f") : NULL);
		json_object_object_add(j, "runs_effective_us",
				       bench_json_doubles(e->us, BENCH_EFF_SAMPLES, "%.1f"));
		json_object_object_add(j, "runs_flushed_us",
				       bench_json_doubles(e->flush_us, BENCH_EFF_SAMPLES, "%.1f"));
		json_object_object_add(
			j, "runs_seen_by_poller_us",
			e->seen ? bench_json_doubles(e->seen_us, BENCH_EFF_SAMPLES, "%.1f") : NULL);
		json_object_array_add(eff, j);
	}
	json_object_object_add(o, "submit_to_effective", eff);
	json_object_object_add(o, "single", rb_single_json(&r->single));
	json_object_object_add(o, "cli", rb_cli_json(&r->cli));
	nft = json_object_new_object();
	json_object_object_add(nft, "status",
			       json_object_new_string(r->nft == NFT_OK       ? "ok"
						      : r->nft == NFT_ABSENT ? "not installed"
									     : "failed"));
	if (r->nft != NFT_OK) {
		json_object_object_add(nft, "message", json_object_new_string(r->nft_msg));
	} else {
		json_object *loads = json_object_new_array();

		for (size_t i = 0; i < cfg->ncounts; i++) {
			json_object *j;

			if (!cfg->counts[i])
				continue;
			j = json_object_new_object();
			json_object_object_add(j, "rules", json_object_new_int64(cfg->counts[i]));
			json_object_object_add(j, "nft_ms", dynpf_json_num(r->nft_ms[i], "%.1f"));
			json_object_array_add(loads, j);
		}
		json_object_object_add(nft, "loads", loads);
	}
	json_object_object_add(o, "nft", nft);
	return o;
}
