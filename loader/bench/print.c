// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the output of a run (not --live): the shapes' table with its
 * ratios and notes, then the primitives' (prims.c) and the rules' tables
 * (rules_print.c); with -j, one JSON object holding every result.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/rules.h"

/* (dynpf - empty) / (direct - empty): the parsers alone, floor removed. */
static bool net_ratio(const struct bench_result *r, double *out)
{
	double direct = r->median[V_DIRECT] - r->median[V_EMPTY];

	if (r->no_direct || direct <= 0)
		return false;
	*out = (r->median[V_DYNPF] - r->median[V_EMPTY]) / direct;
	return true;
}

/*
 * ns per TLV: (dynpf - empty) / TLVs, the whole parse above the test-run
 * floor shared out over the TLVs walked. It includes the per-header cost, so
 * it is an upper bound of the marginal cost of one TLV, and it falls as
 * TLVs grow if that cost is fixed.
 */
static bool ns_per_tlv(const struct bench_result *r, double *out)
{
	if (!r->ntlv)
		return false;
	*out = (r->median[V_DYNPF] - r->median[V_EMPTY]) / r->ntlv;
	return true;
}

/*
 * decl10's dynpf time over tcp-opt40's on hook h: the same 10 TLVs walked
 * for a protocol declared at runtime and by the compiled TCP option walk,
 * each whole packet (docs/bench.md). false when one of them did not run.
 */
static bool decl_vs_compiled(const struct bench_result *res, size_t n, size_t h, double *out)
{
	const struct bench_result *d = NULL, *t = NULL;

	for (size_t i = 0; i < n; i++) {
		if (res[i].hook != &bench_hooks[h] || res[i].na)
			continue;
		if (!strcmp(res[i].shape->name, "decl10"))
			d = &res[i];
		else if (!strcmp(res[i].shape->name, "tcp-opt40"))
			t = &res[i];
	}
	if (!d || !t || !t->median[V_DYNPF])
		return false;
	*out = d->median[V_DYNPF] / t->median[V_DYNPF];
	return true;
}

static void print_shapes_text(const struct bench_result *res, size_t n)
{
	bool any_na = false, any_diff = false, any_nodirect = false;
	double net, pt;

	printf("%-12s %5s  %-9s %8s %8s %8s %13s %12s %10s %5s %7s\n", "shape", "bytes", "hook",
	       "empty", "direct", "dynpf", "dynpf/direct", "dynpf/empty", "net ratio", "TLVs",
	       "ns/TLV");
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];

		printf("%-12s %5u  %-9s ", r->shape->name, r->len, r->hook->name);
		if (r->na) {
			printf("%8s %8s %8s %13s %12s %10s %5s %7s\n", "n/a", "n/a", "n/a", "n/a",
			       "n/a", "n/a", "n/a", "n/a");
			any_na = true;
			continue;
		}
		if (r->no_direct) {
			printf("%8.1f %8s %8.1f %13s %11.2fx %10s", r->median[V_EMPTY], "n/a",
			       r->median[V_DYNPF], "n/a", r->median[V_DYNPF] / r->median[V_EMPTY],
			       "n/a");
			any_nodirect = true;
		} else {
			printf("%8.1f %8.1f %8.1f %12.2fx %11.2fx ", r->median[V_EMPTY],
			       r->median[V_DIRECT], r->median[V_DYNPF],
			       r->median[V_DYNPF] / r->median[V_DIRECT],
			       r->median[V_DYNPF] / r->median[V_EMPTY]);
			if (net_ratio(r, &net))
				printf("%9.2fx", net);
			else
				printf("%10s", "-");
		}
		printf(" %5u", r->ntlv);
		if (ns_per_tlv(r, &pt))
			printf(" %7.1f", pt);
		else
			printf(" %7s", "-");
		printf("%s\n", r->mismatch ? "  !" : "");
		any_diff |= r->mismatch != NULL;
	}
	printf("\nempty: a program that returns at once (the test-run floor); direct: the same\n"
	       "parse with direct packet access (loader/bench/bench.bpf.c); dynpf: the real programs,\n"
	       "trace off. net ratio = (dynpf - empty) / (direct - empty).\n"
	       "TLVs: options and TLVs dynpf walked (every family: TCP, IPv4, IPv6 options,\n"
	       "SRH, Geneve). ns/TLV = (dynpf - empty) / TLVs: the whole parse shared out over\n"
	       "its TLVs, per-header costs included, so an upper bound of one TLV's cost.\n");
	if (any_nodirect) {
		printf("direct n/a: the direct parser does not do dynpf's work on the shape (no\n"
		       "parse comparison, no ratio):\n");
		for (size_t s = 0; s < BENCH_NSHAPES; s++)
			for (size_t i = 0; i < n; i++)
				if (res[i].shape == &bench_shapes[s] && res[i].no_direct) {
					printf("  %s: %s.\n", bench_shapes[s].name,
					       bench_shapes[s].no_direct);
					break;
				}
	}
	if (any_na)
		for (size_t h = 0; h < BENCH_NHOOKS; h++)
			if (bench_hooks[h].limit)
				printf("n/a on %s: %s.\n", bench_hooks[h].name,
				       bench_hooks[h].limit);
	if (any_diff) {
		printf("\n! direct and dynpf parsed differently: the comparison is not like for like.\n");
		for (size_t i = 0; i < n; i++)
			if (res[i].mismatch)
				printf("  %s on %s: first difference in %s\n", res[i].shape->name,
				       res[i].hook->name, res[i].mismatch);
	}
	for (size_t i = 0; i < n; i++)
		if (!res[i].na && res[i].err)
			printf("note: dynpf reports parse error %u on %s (%s)\n", res[i].err,
			       res[i].shape->name, res[i].hook->name);
	for (size_t h = 0, first = 1; h < BENCH_NHOOKS; h++) {
		double x;

		if (!decl_vs_compiled(res, n, h, &x))
			continue;
		if (first)
			printf("\ndecl10 / tcp-opt40 (the same 10 TLVs, declared at runtime / the compiled "
			       "TCP option walk):");
		printf("%s %s %.2fx", first ? "" : ",", bench_hooks[h].name, x);
		first = 0;
		if (h == BENCH_NHOOKS - 1)
			printf("\n");
	}
}

void bench_print_text(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		      const struct prim_result *pr, const struct bench_rules *rr)
{
	printf("dynpf bench: BPF_PROG_TEST_RUN, repeat %u, median of %u runs, ns per packet%s\n\n",
	       b->repeat, b->runs, b->cpu >= 0 ? "" : " (not pinned to a CPU)");
	if (n)
		print_shapes_text(res, n);
	if (n && pr)
		printf("\n");
	if (pr)
		bench_prims_print_text(b, pr);
	if ((n || pr) && rr)
		printf("\n");
	if (rr) {
		bench_rules_print_text(rr);
		bench_print_targets(rr, NULL);
	}
}

void bench_print_json(const struct bench_ctx *b, const struct bench_result *res, size_t n,
		      const struct prim_result *pr, const struct bench_rules *rr)
{
	json_object *top = json_object_new_object(), *arr = json_object_new_array();
	double net, pt;

	json_object_object_add(top, "method", json_object_new_string("BPF_PROG_TEST_RUN"));
	json_object_object_add(top, "repeat", json_object_new_int64(b->repeat));
	json_object_object_add(top, "runs", json_object_new_int64(b->runs));
	json_object_object_add(top, "cpu", json_object_new_int(b->cpu));
	json_object_object_add(top, "ns_per_tlv",
			       json_object_new_string("(dynpf_ns - empty_ns) / tlvs"));
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = &res[i];
		json_object *o = json_object_new_object(), *runs;

		json_object_object_add(o, "shape", json_object_new_string(r->shape->name));
		json_object_object_add(o, "bytes", json_object_new_int64(r->len));
		json_object_object_add(o, "hook", json_object_new_string(r->hook->name));
		if (r->na) {
			json_object_object_add(o, "status", json_object_new_string("n/a"));
			json_object_object_add(o, "reason", json_object_new_string(r->reason));
			json_object_array_add(arr, o);
			continue;
		}
		json_object_object_add(o, "status", json_object_new_string("ok"));
		runs = json_object_new_object();
		for (int v = 0; v < NVARIANTS; v++) {
			char key[16];

			snprintf(key, sizeof(key), "%s_ns", bench_variant_names[v]);
			if (v == V_DIRECT && r->no_direct) {
				json_object_object_add(o, key, NULL);
				continue;
			}
			json_object_object_add(o, key, dynpf_json_num(r->median[v], "%.1f"));
			json_object_object_add(runs, bench_variant_names[v],
					       bench_json_u32s(r->ns[v], b->runs));
		}
		json_object_object_add(
			o, "dynpf_direct",
			r->no_direct
				? NULL
				: dynpf_json_num(r->median[V_DYNPF] / r->median[V_DIRECT], "%.3f"));
		json_object_object_add(
			o, "dynpf_empty",
			dynpf_json_num(r->median[V_DYNPF] / r->median[V_EMPTY], "%.3f"));
		json_object_object_add(o, "net_ratio",
				       net_ratio(r, &net) ? dynpf_json_num(net, "%.3f") : NULL);
		json_object_object_add(o, "tlvs", json_object_new_int64(r->ntlv));
		json_object_object_add(o, "ns_per_tlv",
				       ns_per_tlv(r, &pt) ? dynpf_json_num(pt, "%.2f") : NULL);
		json_object_object_add(o, "runs_ns", runs);
		if (r->no_direct) {
			/* Not compared: direct does not do the same work. */
			json_object_object_add(o, "parse_match", NULL);
			json_object_object_add(o, "direct_na",
					       json_object_new_string(r->shape->no_direct));
		} else {
			json_object_object_add(o, "parse_match",
					       json_object_new_boolean(!r->mismatch));
		}
		if (r->mismatch)
			json_object_object_add(o, "first_difference",
					       json_object_new_string(r->mismatch));
		json_object_object_add(o, "dynpf_err", json_object_new_int(r->err));
		json_object_array_add(arr, o);
	}
	json_object_object_add(top, "results", arr);
	{
		json_object *dv = NULL;
		double x;

		for (size_t h = 0; h < BENCH_NHOOKS; h++) {
			if (!decl_vs_compiled(res, n, h, &x))
				continue;
			if (!dv)
				dv = json_object_new_object();
			json_object_object_add(dv, bench_hooks[h].name, dynpf_json_num(x, "%.3f"));
		}
		if (dv)
			json_object_object_add(top, "decl_vs_compiled", dv);
	}
	if (pr)
		json_object_object_add(top, "primitives", bench_prims_json(b, pr));
	if (rr) {
		json_object_object_add(top, "rules", bench_rules_json(rr));
		json_object_object_add(top, "targets", bench_targets_json(rr, NULL));
	}
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
}
