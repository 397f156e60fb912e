// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the output. The table of the configurations, the
 * control plane under traffic and xdp-bench's word, and the JSON object
 * "live" of `dynpf -j bench --live`.
 */
#include <stdio.h>

#include "bench/live.h"

static const char *const act_names[DYNPF_STATS_ACTS] = { "none", "pass", "drop", "redirect" };

static double mpps(uint64_t n, double secs)
{
	return secs > 0 ? n / secs / 1e6 : 0;
}

/* ns a frame costs above the empty program: the receiver's extra work. */
static double ns_over(double m, double empty)
{
	return m > 0 && empty > 0 ? 1e3 / m - 1e3 / empty : 0;
}

/* The lowest and the highest of the pairs' ratios v[LV_PAIRS]. */
static void pairs_range(const double *v, double *lo, double *hi)
{
	*lo = *hi = v[0];
	for (int i = 1; i < LV_PAIRS; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
}

void bench_live_print_text(const struct bench_live *r)
{
	double empty = mpps(r->run[LV_EMPTY].rx, r->run[LV_EMPTY].secs);
	const struct lv_push *p = &r->push;
	double steady = mpps(r->run[LV_XDP_BIG].rx, r->run[LV_XDP_BIG].secs);
	printf("\nlive: %s, %zu of its %zu frames (%llu bytes),\n"
	       "veth %s -> %s, MTU %u, %u s a configuration\n",
	       r->capture, r->nframes, r->nframes_capture, (unsigned long long)r->frame_bytes,
	       DYNPF_TB_TX_IF, DYNPF_TB_RX_IF, r->mtu, r->duration);
	printf("%-23s %6s %7s %9s %6s %6s %8s %6s\n", "configuration", "Mpps", "x empty",
	       "+ns/frame", "pass", "drop", "redirect", "sent");
	for (int c = 0; c < LV_NCONF; c++) {
		const struct lv_run *run = &r->run[c];
		double m = mpps(run->rx, run->secs);

		printf("%-23s %6.3f %6.2fx", lv_confs[c].label, m, empty > 0 ? m / empty : 0);
		if (c == LV_EMPTY)
			printf(" %9s", "-");
		else
			printf(" %9.0f", ns_over(m, empty));
		printf(" %6.3f %6.3f %8.3f %6.3f\n", mpps(run->act[DYNPF_ACT_PASS], run->secs),
		       mpps(run->act[DYNPF_ACT_DROP], run->secs),
		       mpps(run->act[DYNPF_ACT_REDIRECT], run->secs), mpps(run->sent, run->secs));
	}
	for (int k = 0; k < LV_NPAIRS; k++) {
		const struct lv_pairs *pp = &r->pairs[k];
		double lo, hi;

		if (!pp->done)
			continue;
		pairs_range(pp->ratio, &lo, &hi);
		printf("%-23s %13.2fx  paired: the median of %d pairs (%.2f-%.2f)\n",
		       lv_confs[lv_pair_conf[k]].label, pp->med, LV_PAIRS, lo, hi);
	}
	if (r->versus.done) {
		const struct lv_versus *v = &r->versus;
		double lo, hi;

		pairs_range(v->ratio, &lo, &hi);
		printf("%-23s %13.3fx  this build / --versus, Mpps: the median of %d pairs "
		       "(%.3f-%.3f)\n",
		       lv_confs[LV_XDP_BIG].label, v->med, LV_PAIRS, lo, hi);
	}
	printf("\nMpps: frames the receiver counted a second, over the seconds the generator\n"
	       "sent (pass, drop, redirect: dynpf's per-action counters in dynpf_stats; the\n"
	       "empty program counts its own). x empty: Mpps / the empty program's Mpps.\n"
	       "+ns/frame: 1/Mpps - 1/(empty Mpps), what a frame costs above the empty\n"
	       "program. sent: Mpps the generator made; a frame the receiver had no room\n"
	       "for would be dropped at its veth ring. paired: the targets' figure, %d\n"
	       "pairs of %u ms slices, the empty program's and dynpf's one after the other\n"
	       "on the same rule set (every other pair the other way round), the median of\n"
	       "their ratios, and their range.\n",
	       LV_PAIRS, r->pairs[LV_PAIR_XDP_BIG].slice_ms);
	printf("Generator: BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES of\n"
	       "bench_live_tx (XDP_TX) on %s, each frame the capture's next one, in\n"
	       "batches of %u, one test run until stopped; one thread pinned to CPU %d.\n",
	       DYNPF_TB_TX_IF, r->batch, r->sender_cpu);
	if (r->main_cpu >= 0)
		printf("The counters and the control plane run on CPU %d.\n", r->main_cpu);
	printf("Sender and receiver share this machine's %d CPUs: the receiver's NAPI poll\n"
	       "runs in the softirq the generator's batches raise, on the generator's CPU,\n"
	       "so a frame costs the generator's work plus the receiver's (the empty row is\n"
	       "mostly the generator's).\n",
	       r->ncpus);
	printf("Receivers on %s: the empty program (counts, XDP_DROP) and dynpf_xdp in\n"
	       "native XDP mode, dynpf_tc_ingress as a tcx link (GRO on: the frames go up as\n"
	       "skbs). Rules: rules_gen.c's generated sets, the last the catch-all, made a\n"
	       "drop here so that the traffic never reaches the stack. Of the %zu frames,\n"
	       "1 rule drops %u (%u by the catch-all) and passes %u; 10,000 rules drop %u\n"
	       "(%u by the catch-all, %u by a generated drop rule) and pass %u.\n",
	       DYNPF_TB_RX_IF, r->nframes, r->exp_drop[0], r->exp_catch_all[0], r->exp_pass[0],
	       r->exp_drop[1], r->exp_catch_all[1], r->exp_drop[1] - r->exp_catch_all[1],
	       r->exp_pass[1]);
	if (r->skipped_short || r->skipped_long || r->skipped_refused || r->skipped_many)
		printf("Not sent: %zu frames shorter than 14 bytes, %zu longer than the MTU "
		       "allows, %zu refused by the live-frames test run, %zu past the first %d.\n",
		       r->skipped_short, r->skipped_long, r->skipped_refused, r->skipped_many,
		       LV_MAX_FRAMES);
	if (p->done) {
		printf("\ncontrol plane under traffic, %s:\n", lv_confs[LV_XDP_BIG].label);
		printf("  %u rule updates in %u transactions of %u: %.0f updates/s\n"
		       "  (%.2f s, generations %u to %u)\n",
		       p->updates, p->txns, LV_PUSH_TXN, p->secs > 0 ? p->updates / p->secs : 0,
		       p->secs, p->gen_first, p->gen_last);
		printf("  received during the push: %.3f Mpps, %.2fx the steady %.3f\n"
		       "  (drop %.3f, pass %.3f, redirect %.3f)\n",
		       mpps(p->rx, p->rx_secs), steady > 0 ? mpps(p->rx, p->rx_secs) / steady : 0,
		       steady, mpps(p->act[DYNPF_ACT_DROP], p->rx_secs),
		       mpps(p->act[DYNPF_ACT_PASS], p->rx_secs),
		       mpps(p->act[DYNPF_ACT_REDIRECT], p->rx_secs));
		printf("  half-applied: %llu packets (sentinel rule %u), catch-all: %llu\n"
		       "  (checked on %u of the %zu frames)\n",
		       (unsigned long long)p->sentinel, LV_SENTINEL,
		       (unsigned long long)p->catch_all, p->frames_checked, r->nframes);
		printf("  control: marker deleted for %.0f ms, the sentinel counted %llu packets\n",
		       p->control_ms, (unsigned long long)p->control);
		printf("Each transaction deletes the marker rule first (a drop of every packet,\n"
		       "after the generated rules), deletes the previous transaction's %u churn\n"
		       "rules (generated, matching no frame), adds %u new ones, and adds the other\n"
		       "marker last. The sentinel, a drop of every packet right after the markers,\n"
		       "decides a packet only when no marker is there: a packet classified by a\n"
		       "rule set with the transaction's first op and not its last (a half-applied\n"
		       "set). Its count must be 0. The control deletes the marker in a transaction\n"
		       "of its own and adds it back in the next: then the sentinel must count.\n"
		       "Frames a generated rule decides never reach the markers: not checked.\n",
		       LV_CHURN, LV_CHURN);
	}
	if (r->single.done) {
		rb_single_print(&r->single, "under the traffic");
		printf("received meanwhile: %.3f Mpps (%s)\n", r->single_mpps,
		       lv_confs[LV_XDP_BIG].label);
	}
	if (r->xb != XB_NOT_RUN) {
		printf("\nxdp-bench: %s\n", r->xb_msg);
		if (r->xb == XB_OK && r->xb_out)
			printf("%s", r->xb_out);
	}
}

static json_object *jacts(const uint64_t *act, double secs)
{
	json_object *o = json_object_new_object();

	for (int i = DYNPF_ACT_PASS; i < DYNPF_STATS_ACTS; i++)
		json_object_object_add(o, act_names[i], dynpf_json_num(mpps(act[i], secs), "%.3f"));
	return o;
}

json_object *bench_live_json(const struct bench_live *r)
{
	json_object *o = json_object_new_object(), *confs = json_object_new_array();
	json_object *gen = json_object_new_object(), *fr = json_object_new_object();
	double empty = mpps(r->run[LV_EMPTY].rx, r->run[LV_EMPTY].secs);
	const struct lv_push *p = &r->push;

	json_object_object_add(
		gen, "method",
		json_object_new_string("BPF_PROG_TEST_RUN, BPF_F_TEST_XDP_LIVE_FRAMES, "
				       "XDP_TX on the sending veth end"));
	json_object_object_add(gen, "frames",
			       json_object_new_string("the capture's, in turn, one test run until "
						      "stopped"));
	json_object_object_add(gen, "batch_size", json_object_new_int64(r->batch));
	json_object_object_add(gen, "cpu", json_object_new_int(r->sender_cpu));
	json_object_object_add(gen, "receiver",
			       json_object_new_string("NAPI softirq on the generator's CPU"));
	json_object_object_add(o, "generator", gen);
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	json_object_object_add(o, "main_cpu",
			       r->main_cpu >= 0 ? json_object_new_int(r->main_cpu) : NULL);
	json_object_object_add(o, "capture", json_object_new_string(r->capture));
	json_object_object_add(fr, "capture", json_object_new_int64(r->nframes_capture));
	json_object_object_add(fr, "sent", json_object_new_int64(r->nframes));
	json_object_object_add(fr, "short", json_object_new_int64(r->skipped_short));
	json_object_object_add(fr, "too_long", json_object_new_int64(r->skipped_long));
	json_object_object_add(fr, "refused", json_object_new_int64(r->skipped_refused));
	json_object_object_add(fr, "past_limit", json_object_new_int64(r->skipped_many));
	json_object_object_add(fr, "bytes", json_object_new_int64(r->frame_bytes));
	json_object_object_add(o, "frames", fr);
	json_object_object_add(o, "duration_s", json_object_new_int64(r->duration));
	json_object_object_add(o, "mtu", json_object_new_int64(r->mtu));
	json_object_object_add(o, "netns", json_object_new_string(r->ns_rx));
	for (int c = 0; c < LV_NCONF; c++) {
		const struct lv_run *run = &r->run[c];
		json_object *j = json_object_new_object();
		double m = mpps(run->rx, run->secs);

		json_object_object_add(j, "name", json_object_new_string(lv_confs[c].key));
		json_object_object_add(j, "label", json_object_new_string(lv_confs[c].label));
		json_object_object_add(j, "hook",
				       json_object_new_string(!lv_confs[c].hook ? "xdp"
							      : lv_confs[c].hook == DYNPF_HOOK_XDP
								      ? "xdp"
								      : "tc"));
		json_object_object_add(j, "rules", json_object_new_int64(lv_confs[c].rules));
		json_object_object_add(j, "mpps", dynpf_json_num(m, "%.3f"));
		json_object_object_add(j, "ratio_to_empty",
				       dynpf_json_num(empty > 0 ? m / empty : 0, "%.3f"));
		json_object_object_add(j, "ns_per_frame_over_empty",
				       c == LV_EMPTY ? NULL
						     : dynpf_json_num(ns_over(m, empty), "%.1f"));
		json_object_object_add(j, "actions_mpps", jacts(run->act, run->secs));
		json_object_object_add(j, "sent_mpps",
				       dynpf_json_num(mpps(run->sent, run->secs), "%.3f"));
		json_object_object_add(j, "received", json_object_new_int64(run->rx));
		json_object_object_add(j, "sent", json_object_new_int64(run->sent));
		json_object_object_add(j, "seconds", dynpf_json_num(run->secs, "%.3f"));
		json_object_object_add(j, "per_second_mpps",
				       bench_json_doubles(run->per_s.v, run->per_s.n, "%.3f"));
		json_object_array_add(confs, j);
	}
	json_object_object_add(o, "configurations", confs);
	{
		json_object *a = json_object_new_array();

		for (int k = 0; k < LV_NPAIRS; k++) {
			const struct lv_pairs *pp = &r->pairs[k];
			json_object *j;

			if (!pp->done)
				continue;
			j = json_object_new_object();
			json_object_object_add(
				j, "name", json_object_new_string(lv_confs[lv_pair_conf[k]].key));
			json_object_object_add(j, "slice_ms", json_object_new_int(pp->slice_ms));
			json_object_object_add(j, "empty_mpps",
					       bench_json_doubles(pp->empty, LV_PAIRS, "%.3f"));
			json_object_object_add(j, "dynpf_mpps",
					       bench_json_doubles(pp->dynpf, LV_PAIRS, "%.3f"));
			json_object_object_add(j, "ratios",
					       bench_json_doubles(pp->ratio, LV_PAIRS, "%.3f"));
			json_object_object_add(j, "median", dynpf_json_num(pp->med, "%.3f"));
			json_object_array_add(a, j);
		}
		json_object_object_add(o, "pairs", a);
	}
	if (r->versus.done) {
		const struct lv_versus *v = &r->versus;
		json_object *j = json_object_new_object();

		json_object_object_add(j, "object", json_object_new_string(v->object));
		json_object_object_add(j, "slice_ms", json_object_new_int(v->slice_ms));
		json_object_object_add(j, "this_mpps",
				       bench_json_doubles(v->mine, LV_PAIRS, "%.3f"));
		json_object_object_add(j, "versus_mpps",
				       bench_json_doubles(v->other, LV_PAIRS, "%.3f"));
		json_object_object_add(j, "ratios", bench_json_doubles(v->ratio, LV_PAIRS, "%.3f"));
		json_object_object_add(j, "median", dynpf_json_num(v->med, "%.3f"));
		json_object_object_add(o, "versus", j);
	}
	if (p->done) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "configuration",
				       json_object_new_string(lv_confs[LV_XDP_BIG].key));
		json_object_object_add(j, "updates", json_object_new_int64(p->updates));
		json_object_object_add(j, "transactions", json_object_new_int64(p->txns));
		json_object_object_add(j, "updates_per_transaction",
				       json_object_new_int64(LV_PUSH_TXN));
		json_object_object_add(j, "seconds", dynpf_json_num(p->secs, "%.3f"));
		json_object_object_add(
			j, "updates_per_s",
			dynpf_json_num(p->secs > 0 ? p->updates / p->secs : 0, "%.0f"));
		json_object_object_add(j, "rx_mpps",
				       dynpf_json_num(mpps(p->rx, p->rx_secs), "%.3f"));
		json_object_object_add(j, "actions_mpps", jacts(p->act, p->rx_secs));
		json_object_object_add(j, "sent_mpps",
				       dynpf_json_num(mpps(p->sent, p->rx_secs), "%.3f"));
		json_object_object_add(j, "half_applied", json_object_new_int64(p->sentinel));
		json_object_object_add(j, "sentinel_rule", json_object_new_int64(LV_SENTINEL));
		json_object_object_add(j, "catch_all", json_object_new_int64(p->catch_all));
		json_object_object_add(j, "frames_checked",
				       json_object_new_int64(p->frames_checked));
		json_object_object_add(j, "control_sentinel", json_object_new_int64(p->control));
		json_object_object_add(j, "control_ms", dynpf_json_num(p->control_ms, "%.1f"));
		json_object_object_add(j, "generation_first", json_object_new_int64(p->gen_first));
		json_object_object_add(j, "generation_last", json_object_new_int64(p->gen_last));
		json_object_object_add(j, "per_second_mpps",
				       bench_json_doubles(p->per_s.v, p->per_s.n, "%.3f"));
		json_object_object_add(o, "push", j);
	}
	if (r->single.done) {
		json_object *j = rb_single_json(&r->single);

		json_object_object_add(j, "received_mpps", dynpf_json_num(r->single_mpps, "%.3f"));
		json_object_object_add(o, "single", j);
	}
	if (r->xb != XB_NOT_RUN) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "status",
				       json_object_new_string(r->xb == XB_OK ? "ok" : "skipped"));
		json_object_object_add(j, "message", json_object_new_string(r->xb_msg));
		if (r->xb == XB_OK && r->xb_out)
			json_object_object_add(j, "output", json_object_new_string(r->xb_out));
		json_object_object_add(o, "xdp_bench", j);
	}
	return o;
}
