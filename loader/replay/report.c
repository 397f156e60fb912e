// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The engine behind `dynpf replay` and `dynpf parse`: every packet of a
 * capture through the chosen hooks, printed, checked against expectations
 * and against the native parser, summarised.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "pcap/capture.h"
#include "replay/expect.h"
#include "lib/util.h"
#include "lib/log.h"
#include "native.h"
#include "channel/ruleset.h"
#include "dynpf.skel.h"
#include "replay/pktfmt.h"
#include "lib/progs.h"
#include "replay/declcheck.h"
#include "replay/report.h"

/* The hooks a walk can report, in output order. */
static const struct {
	unsigned int bit;
	int hook;
	const char *name;
} walk_hooks[] = {
	{ DYNPF_HOOKS_NATIVE, DYNPF_HOOK_NATIVE, "native" },
	{ DYNPF_HOOKS_XDP, DYNPF_HOOK_XDP, "xdp" },
	{ DYNPF_HOOKS_XDP_FRAGS, DYNPF_HOOK_XDP_FRAGS, "xdp-frags" },
	{ DYNPF_HOOKS_TC, DYNPF_HOOK_TC_INGRESS, "tc" },
};
#define NHOOKS (sizeof(walk_hooks) / sizeof(walk_hooks[0]))

struct hook_stats {
	unsigned long parsed, skipped, bytes;
	unsigned long own; /* of parsed: checked as the hook got them (DYNPF_RUN_OWN_CHECK) */
	unsigned long err[DYNPF_E_MAX];
};

struct diff_ctx {
	const char *file; /* the expected-results file, if comparing with it */
	const char *capture;
	const char *rules; /* the pass's rule file, when a walk has several */
	size_t pkt;
	const char *hook;
	const char *what; /* "expected" or "native" */
};

static void print_diff(void *vctx, const char *path, json_object *want, json_object *got)
{
	struct diff_ctx *d = vctx;
	const char *w =
		want ? json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN) : "(absent)";
	char wbuf[256];

	/* json-c reuses its string buffer: copy the first before the second. */
	snprintf(wbuf, sizeof(wbuf), "%s", w);
	fprintf(stderr, "%s%s%s: pkt %zu hook %s: %s: %s %s, got %s\n", d->file ?: d->capture,
		d->rules ? " with " : "", d->rules ?: "", d->pkt, d->hook, path, d->what, wbuf,
		got ? json_object_to_json_string_ext(got, JSON_C_TO_STRING_PLAIN) : "(absent)");
}

/* A packet record: "pkt" and "hook" first, then the parse. */
static json_object *make_record(size_t pkt, const char *hook, json_object *body)
{
	json_object *rec = json_object_new_object();

	json_object_object_add(rec, "pkt", json_object_new_int64((int64_t)pkt));
	json_object_object_add(rec, "hook", json_object_new_string(hook));
	json_object_object_foreach(body, k, v) {
		json_object_object_add(rec, k, json_object_get(v));
	}
	json_object_put(body);
	return rec;
}

static json_object *skipped_body(uint32_t len, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "len", json_object_new_int64(len));
	json_object_object_add(o, "status", json_object_new_string("skipped"));
	json_object_object_add(o, "reason", json_object_new_string(reason));
	return o;
}

static void print_record(json_object *rec, const struct dynpf_walk_opts *o)
{
	json_object *v;

	if (o->quiet)
		return;
	if (dynpf_json) {
		printf("%s\n", json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN));
		return;
	}
	json_object_object_get_ex(rec, "pkt", &v);
	printf("%6lld  ", (long long)json_object_get_int64(v));
	json_object_object_get_ex(rec, "hook", &v);
	printf("%-9s ", json_object_get_string(v));
	json_object_object_get_ex(rec, "len", &v);
	printf("%5lld  ", (long long)json_object_get_int64(v));
	dynpf_pkt_print_text(stdout, rec);
	if (json_object_object_get_ex(rec, "note", &v))
		printf("  (%s)", json_object_get_string(v));
	if (json_object_object_get_ex(rec, "verdict", &v)) {
		json_object *a, *r;

		json_object_object_get_ex(v, "action", &a);
		json_object_object_get_ex(v, "rule", &r);
		printf("  => %s", json_object_get_string(a));
		if (json_object_get_int64(r))
			printf(" (rule %lld)", (long long)json_object_get_int64(r));
		else
			printf(" (default)");
	}
	printf("\n");
}

/* Per-rule counters after a replay with --rules: JSON, or a table. */
static void print_rule_counters(struct dynpf_progs *pr, const struct dynpf_ruleset *rs,
				unsigned int nhooks)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(pr->skel->maps.dynpf_rule_stats);
	struct dynpf_rule_stats *v = ncpu > 0 ? calloc(ncpu, sizeof(*v)) : NULL;
	json_object *arr = json_object_new_array();
	char text[DYNPF_RULE_TEXT_MAX];

	if (!v)
		return;
	if (!dynpf_json)
		printf("rule counters (over %u hook%s):\n%8s %10s %12s  %s\n", nhooks,
		       nhooks == 1 ? "" : "s", "id", "packets", "bytes", "rule");
	for (size_t i = 0; i < rs->n; i++) {
		__u32 id = rs->rules[i].id;
		uint64_t pk = 0, by = 0;

		if (!bpf_map_lookup_elem(fd, &id, v))
			for (int c = 0; c < ncpu; c++) {
				pk += v[c].packets;
				by += v[c].bytes;
			}
		dynpf_rule_format_p(&rs->rules[i], &rs->protos, text, sizeof(text));
		if (dynpf_json) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "id", json_object_new_int64(id));
			json_object_object_add(o, "packets", json_object_new_int64(pk));
			json_object_object_add(o, "bytes", json_object_new_int64(by));
			json_object_object_add(o, "rule", json_object_new_string(text));
			json_object_array_add(arr, o);
		} else {
			printf("%8u %10llu %12llu  %s\n", id, (unsigned long long)pk,
			       (unsigned long long)by, text);
		}
	}
	if (dynpf_json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rule_counters", arr);
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		json_object_put(arr);
	}
	free(v);
}

/* Compare two records, every field both ways but the hook; what names ref. */
static int records_differ(json_object *bpf, json_object *native, struct diff_ctx *d,
			  const char *what)
{
	json_object *a = json_object_new_object(), *b = json_object_new_object();
	int n;

	json_object_object_foreach(bpf, k1, v1) {
		if (strcmp(k1, "hook"))
			json_object_object_add(a, k1, json_object_get(v1));
	}
	json_object_object_foreach(native, k2, v2) {
		if (strcmp(k2, "hook"))
			json_object_object_add(b, k2, json_object_get(v2));
	}
	d->what = what;
	n = dynpf_json_diff(b, a, 1, print_diff, d);
	json_object_put(a);
	json_object_put(b);
	return n;
}

/* Compare a BPF record with the native one: every field, both ways. */
static int native_mismatch(json_object *bpf, json_object *native, struct diff_ctx *d)
{
	return records_differ(bpf, native, d, "native");
}

/*
 * Run one frame through xdp-frags with every linear size of the sweep, so
 * the fragment boundary falls on every byte of its headers in turn; every
 * parse must equal the native one. Returns the differences found.
 */
static unsigned long sweep_linear(struct dynpf_progs *pr, const struct dynpf_walk_opts *o,
				  const struct dynpf_frame *f, json_object *native_rec,
				  struct diff_ctx *d, struct dynpf_pkt *pkt,
				  unsigned long *failures)
{
	unsigned long diffs = 0;
	char reason[256], hook[32];

	for (unsigned int lin = o->xdp_linear; lin <= o->xdp_linear_to && lin < f->len; lin++) {
		enum dynpf_run_result r;
		json_object *rec;

		pr->xdp_linear = lin;
		r = dynpf_progs_run(pr, DYNPF_HOOK_XDP_FRAGS, f->data, f->len, pkt, reason,
				    sizeof(reason));
		if (r != DYNPF_RUN_OK) {
			p_err("%s: packet %zu, --xdp-linear %u: %s", o->capture, d->pkt, lin,
			      reason);
			(*failures)++;
			continue;
		}
		snprintf(hook, sizeof(hook), "xdp-frags@%u", lin);
		rec = make_record(d->pkt, hook, dynpf_pkt_to_json(pkt));
		/* With --rules, its verdict too: the rules decide alike at every split. */
		if (json_object_object_get_ex(native_rec, "verdict", NULL))
			json_object_object_add(rec, "verdict",
					       dynpf_verdict_to_json(pr->last_v, false));
		d->hook = hook;
		diffs += native_mismatch(rec, native_rec, d);
		json_object_put(rec);
	}
	pr->xdp_linear = o->xdp_linear;
	return diffs;
}

/*
 * The programs' per-CPU counters must tell what the walk saw: one packet per
 * test run, its bytes, its error code. Returns the number of disagreements.
 */
static unsigned long check_counters(struct dynpf_progs *pr, const struct dynpf_walk_opts *o,
				    const struct hook_stats *hs, const struct dynpf_stats *base)
{
	unsigned long bad = 0;

	for (size_t h = 0; h < NHOOKS; h++) {
		struct dynpf_stats st;
		int e;

		if (!(o->hooks & walk_hooks[h].bit) || walk_hooks[h].hook == DYNPF_HOOK_NATIVE)
			continue;
		if (dynpf_progs_read_stats(pr, walk_hooks[h].hook, &st)) {
			p_err("cannot read the %s counters", walk_hooks[h].name);
			bad++;
			continue;
		}
		/* What this pass added: base[h], the counters before it. */
		st.packets -= base[h].packets;
		st.bytes -= base[h].bytes;
		st.trace_lost -= base[h].trace_lost;
		st.no_dynptr -= base[h].no_dynptr;
		for (e = 0; e < DYNPF_E_MAX; e++)
			st.err[e] -= base[h].err[e];
		for (e = 0; e < DYNPF_E_MAX; e++)
			if (st.err[e] != hs[h].err[e])
				break;
		if (st.packets != hs[h].parsed || st.bytes != hs[h].bytes || e < DYNPF_E_MAX ||
		    st.trace_lost || st.no_dynptr) {
			p_err("%s counters disagree with the walk: %llu packets (walk: %lu), %llu "
			      "bytes (walk: %lu), %llu trace records lost, %llu without a dynptr",
			      walk_hooks[h].name, (unsigned long long)st.packets, hs[h].parsed,
			      (unsigned long long)st.bytes, hs[h].bytes,
			      (unsigned long long)st.trace_lost, (unsigned long long)st.no_dynptr);
			bad++;
		}
	}
	return bad;
}

static json_object *hook_stats_json(const struct hook_stats *hs)
{
	json_object *ho = json_object_new_object(), *eo = json_object_new_object();

	json_object_object_add(ho, "parsed", json_object_new_int64(hs->parsed));
	json_object_object_add(ho, "skipped", json_object_new_int64(hs->skipped));
	if (hs->own)
		json_object_object_add(ho, "checked_as_received", json_object_new_int64(hs->own));
	for (int e = 0; e < DYNPF_E_MAX; e++)
		if (hs->err[e])
			json_object_object_add(eo, dynpf_err_name(e),
					       json_object_new_int64(hs->err[e]));
	json_object_object_add(ho, "errors", eo);
	return ho;
}

static void print_hook_stats(const char *name, const struct hook_stats *hs)
{
	printf("  %-9s %lu parsed, %lu skipped", name, hs->parsed, hs->skipped);
	if (hs->own)
		printf(" (%lu of them as the kernel changed them: see their notes)", hs->own);
	for (int e = 1; e < DYNPF_E_MAX; e++)
		if (hs->err[e])
			printf(", %lu %s", hs->err[e], dynpf_err_name(e));
	printf("\n");
}

/* The live hook of replay --iface: its counts and its differences. */
struct live_totals {
	struct hook_stats hs;
	unsigned long diffs; /* fields where it and the test-run hook differ */
};

/*
 * replay --rules: each verdict again from the same program without its
 * trace, the parse no larger than the rules need (dynpf_progs_open_lean()),
 * which must decide alike.
 */
struct lean_totals {
	unsigned long runs;
	unsigned long diffs;
};

/*
 * --check-decl: each protocol rs declares in a built-in family's areas
 * found that family's TLVs in p; the differences, each printed.
 */
static unsigned long decl_mismatch(const struct dynpf_ruleset *rs, const struct dynpf_pkt *p,
				   const struct diff_ctx *d)
{
	unsigned long n = 0;
	char why[256];

	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (!dynpf_decl_diff(p, &rs->protos, i, why, sizeof(why)))
			continue;
		printf("%s%s%s: pkt %zu hook %s: protocol %.15s: %s\n", d->capture,
		       d->rules ? " with " : "", d->rules ?: "", d->pkt, d->hook,
		       rs->protos.d[i].name, why);
		n++;
	}
	return n;
}

static void print_summary(const struct dynpf_walk_opts *o, const char *rules, size_t npkts,
			  const struct hook_stats *hs, unsigned long exp_diffs,
			  unsigned long native_diffs, unsigned long decl_diffs,
			  unsigned long failures, const struct live_totals *lt,
			  const struct lean_totals *lean)
{
	if (dynpf_json) {
		json_object *s = json_object_new_object(), *bh = json_object_new_object();

		json_object_object_add(s, "summary", json_object_new_boolean(1));
		json_object_object_add(s, "capture", json_object_new_string(o->capture));
		if (rules)
			json_object_object_add(s, "rules", json_object_new_string(rules));
		json_object_object_add(s, "packets", json_object_new_int64((int64_t)npkts));
		for (size_t h = 0; h < NHOOKS; h++)
			if (o->hooks & walk_hooks[h].bit)
				json_object_object_add(bh, walk_hooks[h].name,
						       hook_stats_json(&hs[h]));
		if (o->live)
			json_object_object_add(bh, o->live->name, hook_stats_json(&lt->hs));
		json_object_object_add(s, "by_hook", bh);
		json_object_object_add(s, "mismatches", json_object_new_int64(exp_diffs));
		json_object_object_add(s, "native_mismatches", json_object_new_int64(native_diffs));
		if (o->check_decl)
			json_object_object_add(s, "decl_mismatches",
					       json_object_new_int64(decl_diffs));
		if (o->live)
			json_object_object_add(s, "live_mismatches",
					       json_object_new_int64(lt->diffs));
		if (lean->runs) {
			json_object_object_add(s, "lean_verdicts",
					       json_object_new_int64(lean->runs));
			json_object_object_add(s, "lean_mismatches",
					       json_object_new_int64(lean->diffs));
		}
		json_object_object_add(s, "failures", json_object_new_int64(failures));
		printf("%s\n", json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN));
		json_object_put(s);
		return;
	}
	if (o->n_rules > 1)
		printf("%s with %s: %zu packets\n", o->capture, rules, npkts);
	else
		printf("%s: %zu packets\n", o->capture, npkts);
	for (size_t h = 0; h < NHOOKS; h++)
		if (o->hooks & walk_hooks[h].bit)
			print_hook_stats(walk_hooks[h].name, &hs[h]);
	if (o->live)
		print_hook_stats(o->live->name, &lt->hs);
	if (o->expect)
		printf("  expected results: %lu field differences\n", exp_diffs);
	if (o->check_native || o->xdp_linear_to > o->xdp_linear)
		printf("  native vs BPF:    %lu field differences%s\n", native_diffs,
		       o->xdp_linear_to > o->xdp_linear ? " (with the linear-size sweep)" : "");
	if (o->check_decl)
		printf("  declared vs built-in TLVs: %lu differences\n", decl_diffs);
	if (o->live)
		printf("  %s vs test-run: %lu field differences\n", o->live->name, lt->diffs);
	if (lean->runs)
		printf("  lean parse:       %lu verdicts, %lu differ from the full parse's\n",
		       lean->runs, lean->diffs);
	if (failures)
		printf("  failed runs:      %lu\n", failures);
}

/*
 * replay --iface: send one frame through the live hook (o->live), then
 * check its record as a test run's (--expect, --check-native) and against
 * ref_rec, the record of the same program's test run (NULL if skipped).
 */
static void walk_live_packet(const struct dynpf_walk_opts *o, size_t pkt,
			     const struct dynpf_frame *f, json_object *want,
			     json_object *native_rec, json_object *ref_rec, struct dynpf_pkt *p,
			     struct live_totals *lt, unsigned long *exp_diffs,
			     unsigned long *native_diffs, unsigned long *failures)
{
	const struct dynpf_walk_live *l = o->live;
	struct diff_ctx d = {
		.file = o->expect, .capture = o->capture, .pkt = pkt, .hook = l->name
	};
	enum dynpf_run_result r;
	char reason[256];
	json_object *rec;

	r = l->run(l->ctx, f, p, reason, sizeof(reason));
	if (r == DYNPF_RUN_ERROR) {
		p_err("%s: packet %zu: %s", o->capture, pkt, reason);
		(*failures)++;
		return;
	}
	if (r == DYNPF_RUN_SKIPPED) {
		lt->hs.skipped++;
		rec = make_record(pkt, l->name, skipped_body(f->len, reason));
		print_record(rec, o);
		json_object_put(rec);
		return;
	}
	rec = make_record(pkt, l->name, dynpf_pkt_to_json(p));
	lt->hs.parsed++;
	lt->hs.bytes += f->len;
	lt->hs.err[p->err < DYNPF_E_MAX ? p->err : 0]++;
	if (r == DYNPF_RUN_OWN_CHECK) {
		/* Checked by the runner; the capture's parse does not apply. */
		lt->hs.own++;
		json_object_object_add(rec, "note", json_object_new_string(reason));
		print_record(rec, o);
		json_object_put(rec);
		return;
	}
	if (o->check_native)
		*native_diffs += native_mismatch(rec, native_rec, &d);
	if (ref_rec)
		lt->diffs += records_differ(rec, ref_rec, &d, "test-run");
	print_record(rec, o);
	if (want) {
		d.what = "expected";
		*exp_diffs += dynpf_json_diff(want, rec, 0, print_diff, &d);
	}
	json_object_put(rec);
}

/* The lean program's verdict on frame f against full, the traced one's. */
static void lean_verdict(struct dynpf_progs *lean, int hook, const struct dynpf_frame *f,
			 const struct dynpf_verdict *full, const struct diff_ctx *d,
			 struct lean_totals *t, unsigned long *failures)
{
	struct dynpf_verdict v;
	json_object *a, *b;

	if (dynpf_progs_verdict(lean, hook, f->data, f->len, &v) != DYNPF_RUN_OK) {
		p_err("%s: packet %zu: no verdict from the lean program on %s", d->capture, d->pkt,
		      d->hook);
		(*failures)++;
		return;
	}
	t->runs++;
	a = dynpf_verdict_to_json(full, false);
	b = dynpf_verdict_to_json(&v, false);
	if (!json_object_equal(a, b)) {
		t->diffs++;
		printf("%s%s%s: pkt %zu hook %s: the lean parse decides %s, the full parse %s\n",
		       d->capture, d->rules ? " with " : "", d->rules ?: "", d->pkt, d->hook,
		       json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN),
		       json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(a);
	json_object_put(b);
}

/* What the passes of one walk share: the capture, the programs, the buffers. */
struct walk_env {
	struct dynpf_capture cap;
	struct dynpf_expect exp;
	struct dynpf_progs pr;   /* traced: the records, the counters */
	struct dynpf_progs lean; /* with rules: untraced, the same rule maps */
	bool bpf;                /* pr (and with rules, lean) open */
	struct dynpf_pkt pkt, sweep_pkt;
	struct dynpf_stats base[NHOOKS]; /* pr's counters before the pass */
};

/*
 * Before a pass: zero the counters of rs's rules (an id of an earlier pass's
 * file may be among them), and note pr's hook counters, so that the pass
 * checks and prints what it added alone.
 */
static int walk_pass_start(struct walk_env *e, const struct dynpf_walk_opts *o,
			   const struct dynpf_ruleset *rs)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(e->pr.skel->maps.dynpf_rule_stats);
	struct dynpf_rule_stats *zero = ncpu > 0 ? calloc(ncpu, sizeof(*zero)) : NULL;
	int err = zero ? 0 : -ENOMEM;

	for (size_t i = 0; rs && !err && i < rs->n; i++)
		if (bpf_map_update_elem(fd, &rs->rules[i].id, zero, BPF_ANY))
			err = -errno;
	free(zero);
	for (size_t h = 0; !err && h < NHOOKS; h++)
		if ((o->hooks & walk_hooks[h].bit) && walk_hooks[h].hook != DYNPF_HOOK_NATIVE)
			err = dynpf_progs_read_stats(&e->pr, walk_hooks[h].hook, &e->base[h]);
	if (err)
		p_err("cannot reset the programs' counters: %s", strerror(-err));
	return err;
}

/*
 * One pass: every frame of the capture on o's hooks, classified by rs (the
 * rule file rules, already applied to the programs) or by none. 0, 1 or 2 as
 * dynpf_walk_capture().
 */
static int walk_pass(const struct dynpf_walk_opts *o, struct walk_env *e,
		     const struct dynpf_ruleset *rs, const char *rules)
{
	struct live_totals lt = {};
	struct lean_totals lean_t = {};
	struct hook_stats hs[NHOOKS] = {};
	unsigned long exp_diffs = 0, native_diffs = 0, decl_diffs = 0, failures = 0;
	struct dynpf_pkt *pkt = &e->pkt;
	struct dynpf_progs *pr = &e->pr;
	char reason[256];

	if (e->bpf && walk_pass_start(e, o, rs))
		return 2;
	if (o->n_rules > 1 && !dynpf_json && !o->quiet)
		printf("rules %s:\n", rules);
	if (!dynpf_json && !o->quiet)
		printf("%6s  %-9s %5s  %s\n", "pkt", "hook", "len", "parse");

	for (size_t i = 0; i < e->cap.n; i++) {
		const struct dynpf_frame *f = &e->cap.frames[i];
		json_object *native_rec, *ref_rec = NULL;
		json_object *want = i + 1 < e->exp.n ? e->exp.by_pkt[i + 1] : NULL;
		struct diff_ctx d = { .file = o->expect,
				      .capture = o->capture,
				      .rules = o->n_rules > 1 ? rules : NULL,
				      .pkt = i + 1 };

		dynpf_parse_native_decl(f->data, f->len, 0, 0, pkt, &o->cfg,
					rs ? &rs->protos : NULL);
		native_rec = make_record(i + 1, "native", dynpf_pkt_to_json(pkt));
		if (o->check_decl && rs) {
			d.hook = "native";
			decl_diffs += decl_mismatch(rs, pkt, &d);
		}
		if (rs) {
			struct dynpf_verdict nv;

			/* BPF_PROG_TEST_RUN runs the programs on the network
			 * namespace's loopback device: `iif` rules see it. */
			pkt->ifindex = DYNPF_TEST_RUN_IFINDEX;
			dynpf_classify_native(rs, pkt, f->data, &nv);
			json_object_object_add(native_rec, "verdict",
					       dynpf_verdict_to_json(&nv, false));
		}
		for (size_t h = 0; h < NHOOKS; h++) {
			json_object *rec;
			enum dynpf_run_result r;

			if (!(o->hooks & walk_hooks[h].bit))
				continue;
			d.hook = walk_hooks[h].name;
			if (walk_hooks[h].hook == DYNPF_HOOK_NATIVE) {
				rec = json_object_get(native_rec);
			} else {
				r = dynpf_progs_run(pr, walk_hooks[h].hook, f->data, f->len, pkt,
						    reason, sizeof(reason));
				if (r == DYNPF_RUN_ERROR) {
					p_err("%s: packet %zu: %s", o->capture, i + 1, reason);
					failures++;
					continue;
				}
				if (r == DYNPF_RUN_SKIPPED) {
					hs[h].skipped++;
					rec = make_record(i + 1, walk_hooks[h].name,
							  skipped_body(f->len, reason));
					print_record(rec, o);
					json_object_put(rec);
					continue;
				}
				rec = make_record(i + 1, walk_hooks[h].name,
						  dynpf_pkt_to_json(pkt));
				if (o->check_decl && rs)
					decl_diffs += decl_mismatch(rs, pkt, &d);
				if (rs) {
					json_object_object_add(
						rec, "verdict",
						dynpf_verdict_to_json(pr->last_v, false));
					lean_verdict(&e->lean, walk_hooks[h].hook, f, pr->last_v,
						     &d, &lean_t, &failures);
				}
				if (o->check_native)
					native_diffs += native_mismatch(rec, native_rec, &d);
				if (walk_hooks[h].hook == DYNPF_HOOK_XDP_FRAGS &&
				    o->xdp_linear_to > o->xdp_linear) {
					native_diffs += sweep_linear(pr, o, f, native_rec, &d,
								     &e->sweep_pkt, &failures);
					d.hook = walk_hooks[h].name;
				}
			}
			hs[h].parsed++;
			hs[h].bytes += f->len;
			hs[h].err[pkt->err < DYNPF_E_MAX ? pkt->err : 0]++;
			if (o->live && walk_hooks[h].bit == o->live->ref)
				ref_rec = json_object_get(rec);
			print_record(rec, o);
			if (want) {
				d.file = o->expect;
				d.what = "expected";
				exp_diffs += dynpf_json_diff(want, rec, 0, print_diff, &d);
			}
			json_object_put(rec);
		}
		/* native stats when native is not a reported hook: nothing to do */
		if (o->live)
			walk_live_packet(o, i + 1, f, want, native_rec, ref_rec, pkt, &lt,
					 &exp_diffs, &native_diffs, &failures);
		json_object_put(ref_rec);
		json_object_put(native_rec);
	}
	if (e->bpf && o->xdp_linear_to <= o->xdp_linear)
		failures += check_counters(pr, o, hs, e->base);
	if (e->bpf && rs)
		print_rule_counters(pr, rs, __builtin_popcount(o->hooks & DYNPF_HOOKS_BPF));
	if (o->live)
		failures += o->live->check_counters(o->live->ctx, lt.hs.parsed, lt.hs.err);
	print_summary(o, rules, e->cap.n, hs, exp_diffs, native_diffs, decl_diffs, failures, &lt,
		      &lean_t);
	return failures                                                                ? 2
	       : (exp_diffs || native_diffs || decl_diffs || lt.diffs || lean_t.diffs) ? 1
										       : 0;
}

/*
 * Put rs (from file) in the programs in place of old (NULL: none): the
 * deletions and the additions in one transaction, as `rules load` does.
 */
static int walk_apply(struct walk_env *e, const struct dynpf_ruleset *rs, const char *file,
		      const struct dynpf_ruleset *old)
{
	struct dynpf_ctrl ctrl;
	int err = dynpf_ctrl_open(&ctrl, e->pr.skel);

	if (!err)
		err = dynpf_ruleset_apply(&ctrl, rs, file, old, NULL, 0, NULL);
	dynpf_ctrl_close(&ctrl);
	return err;
}

int dynpf_walk_capture(const struct dynpf_walk_opts *o)
{
	bool need_bpf = o->hooks & DYNPF_HOOKS_BPF;
	struct dynpf_ruleset *rs = NULL;
	struct walk_env *e;
	__u32 capacity = 0;
	size_t nrs = 0;
	int ret = 2;

	e = calloc(1, sizeof(*e));
	if (!e)
		return 2;
	if (dynpf_capture_load(o->capture, &e->cap))
		goto free_env;
	if (o->expect && dynpf_expect_load(o->expect, &e->exp))
		goto free_capture;
	/* Every rule file read before any is run: a bad one changes nothing. */
	rs = calloc(o->n_rules ?: 1, sizeof(*rs));
	if (!rs)
		goto free_expect;
	for (; nrs < o->n_rules; nrs++) {
		struct dynpf_rule_err rerr;

		dynpf_ruleset_init(&rs[nrs]);
		if (dynpf_ruleset_load(&rs[nrs], o->rules[nrs], &rerr)) {
			p_err("%s", rerr.msg);
			nrs++;
			goto free_rules;
		}
		capacity += dynpf_ruleset_capacity(&rs[nrs]);
	}
	/*
	 * One load of the programs for every file (the verifier is most of a
	 * short replay's time). The tables sized for the sum of the files' ids:
	 * a transaction that replaces one file's rules by the next's holds
	 * both, and the entries each pass retires may still wait for their
	 * grace period when the passes after it add theirs.
	 */
	if (need_bpf &&
	    (dynpf_probe_kernel() || dynpf_progs_open_hooks(&e->pr, DYNPF_TRACE_TEST_RUN, &o->cfg,
							    capacity, o->hooks & DYNPF_HOOKS_BPF)))
		goto free_rules;
	if (need_bpf && nrs &&
	    dynpf_progs_open_lean(&e->lean, &e->pr, o->hooks & DYNPF_HOOKS_BPF)) {
		dynpf_progs_close(&e->pr);
		goto free_rules;
	}
	e->bpf = need_bpf;
	e->pr.xdp_linear = o->xdp_linear;
	ret = 0;
	for (size_t p = 0; p < (nrs ?: 1); p++) {
		const struct dynpf_ruleset *cur = nrs ? &rs[p] : NULL;
		int r;

		if (cur) {
			/* Its declared protocols: named in the records, parsed natively too. */
			dynpf_pktfmt_protos(&cur->protos);
			if (e->bpf && walk_apply(e, cur, o->rules[p], p ? &rs[p - 1] : NULL)) {
				ret = 2;
				break;
			}
		}
		r = walk_pass(o, e, cur, cur ? o->rules[p] : NULL);
		if (r > ret)
			ret = r;
	}
	/* A capture cut short: its whole records were walked, then the cut is said. */
	if (dynpf_capture_report_end(&e->cap))
		ret = 2;
	if (e->bpf) {
		dynpf_progs_close(&e->lean);
		dynpf_progs_close(&e->pr);
	}
free_rules:
	dynpf_pktfmt_protos(NULL);
	for (size_t i = 0; i < nrs; i++)
		dynpf_ruleset_free(&rs[i]);
	free(rs);
free_expect:
	dynpf_expect_free(&e->exp);
free_capture:
	dynpf_capture_free(&e->cap);
free_env:
	free(e);
	return ret;
}

/* A parse limit from the command line, within [1, max]. */
static int parse_limit(const char *name, const char *arg, unsigned int max, __u8 *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*end || end == arg || v < 1 || v > max) {
		p_err("%s %s: expected a number from 1 to %u", name, arg, max);
		return -1;
	}
	*out = v;
	return 0;
}

int dynpf_walk_add_rules(struct dynpf_walk_opts *o, const char *file)
{
	if (o->n_rules == DYNPF_WALK_RULES_MAX) {
		p_err("--rules %s: at most %d rule files in one walk", file, DYNPF_WALK_RULES_MAX);
		return -1;
	}
	o->rules[o->n_rules++] = file;
	return 0;
}

int dynpf_walk_common_opt(struct dynpf_walk_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'X':
		return parse_limit("--max-ext", arg, DYNPF_MAX_EXT, &o->cfg.max_ext) ? -1 : 1;
	case 'S':
		return parse_limit("--max-stacks", arg, DYNPF_MAX_STACKS, &o->cfg.max_stacks) ? -1
											      : 1;
	case 'e':
		o->expect = arg;
		return 1;
	case 'q':
		o->quiet = true;
		return 1;
	case 'j': /* also accepted before the command */
		dynpf_json = true;
		return 1;
	}
	return 0;
}

int dynpf_walk_main(struct dynpf_walk_opts *o, int argc, char **argv, const char *cmd)
{
	if (optind >= argc) {
		p_err("%s: missing the capture file (dynpf %s FILE.pcap)", cmd, cmd);
		return DYNPF_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		p_err("%s: one capture file expected, got extra '%s'", cmd, argv[optind + 1]);
		return DYNPF_EXIT_USAGE;
	}
	if (o->check_decl && !o->n_rules) {
		p_err("%s: --check-decl checks the protocols a rule file declares: it needs --rules",
		      cmd);
		return DYNPF_EXIT_USAGE;
	}
	o->capture = argv[optind];
	return dynpf_walk_capture(o);
}
